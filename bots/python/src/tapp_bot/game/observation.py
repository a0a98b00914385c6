"""One seat's view of a deal (engine/observation.go, R-INFO-1..5).

An :class:`Observation` holds exactly what one seat may know: its hand, every public action,
and what it learned privately (the Frage tapp and lay-away, the Rufer give). Get one from a
full state (:meth:`Observation.of_state`, what the arena computes) or from a decision
request (:meth:`Observation.from_proto`, what a bot receives); :meth:`to_proto` writes the
wire form, identical to what the arena sends. Determinize it with :class:`~tapp_bot.game.Sampler`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import (
    ACTION_KINDS,
    ACTION_NAMES,
    HIDDEN_DISCARD,
    HIDDEN_GIVE,
    K_DISCARD,
    K_GIVE,
    parse_move,
)
from .cards import CARD_NAMES, SUIT_LETTERS, cards_of, parse_card, parse_suit
from .deal import Deal
from .rules import CONTRACT_NAMES, FRAGE, RuleSet, parse_contract
from .state import (
    PH_AUCTION,
    PH_BID1,
    PH_BID2,
    PH_DONE,
    PH_PLAY,
    PHASE_DECISION,
    State,
    Trick,
)

if TYPE_CHECKING:
    from tapp_bot.proto.tapp.v1 import game_pb2

_DECISION_INDEX = {name: i for i, name in enumerate(("none", "bid", "contract", "trump", "discard", "call", "give", "tout", "card"))}


def _names(mask: int) -> list[str]:
    return [CARD_NAMES[c] for c in cards_of(mask)]


def _mask(names) -> int:  # type: ignore[no-untyped-def]
    m = 0
    for t in names:
        m |= 1 << parse_card(t)
    return m


class Observation:
    """What one seat knows (engine.Observation). Cards are ints, sets bitmasks, moves (seat, code).

    Attributes: ``rules``, ``seat``, ``pot``, ``forced_ramsch``, ``hand``, ``dealt``,
    ``hand_sizes``, ``decision`` (name), ``to_move``, ``legal`` (names, only for the seat to
    move), ``history`` (moves as this seat saw them: a hidden lay-away is code
    ``HIDDEN_DISCARD``, a hidden give ``HIDDEN_GIVE``), ``n_bids`` (how many of them are the
    bidding), ``declarer``, ``contract``, ``trump``, ``tout``, ``tapp`` and ``discarded``
    (only for the Frage declarer), ``called``, ``called_holder``, ``called_in_tapp``,
    ``given`` (-1 if unknown to this seat), ``exposed`` (the Ouvert hand once face up),
    ``tricks`` (completed), ``current_leader`` and ``current`` (the trick in progress),
    ``played``, ``tricks_taken``, ``voids`` (suit bitmasks by seat), ``reveal`` (the deal,
    terminal states of :meth:`of_state` only).
    """

    __slots__ = (
        "called",
        "called_holder",
        "called_in_tapp",
        "contract",
        "current",
        "current_leader",
        "dealt",
        "decision",
        "declarer",
        "discarded",
        "exposed",
        "forced_ramsch",
        "given",
        "hand",
        "hand_sizes",
        "history",
        "legal",
        "n_bids",
        "played",
        "pot",
        "reveal",
        "reveal_discards",
        "rules",
        "seat",
        "tapp",
        "to_move",
        "tout",
        "tricks",
        "tricks_taken",
        "trump",
        "voids",
    )

    rules: RuleSet
    seat: int
    pot: int
    forced_ramsch: bool
    hand: int
    dealt: int
    hand_sizes: list[int]
    decision: str
    to_move: int
    legal: list[str]
    history: list[tuple[int, int]]
    n_bids: int
    declarer: int
    contract: int
    trump: int
    tout: bool
    tapp: int
    discarded: int
    called: int
    called_holder: int
    called_in_tapp: bool
    given: int
    exposed: int
    tricks: list[Trick]
    current_leader: int
    current: list[int]
    played: list[int]
    tricks_taken: list[int]
    voids: list[int]
    reveal: Deal | None
    reveal_discards: int

    @property
    def n(self) -> int:
        return self.rules.players

    @staticmethod
    def of_state(s: State, seat: int) -> Observation:
        """The seat's observation of a full state, as the arena computes it (engine State.Observe)."""
        o = Observation.__new__(Observation)
        n = s.n
        inn = 0 <= seat < n
        o.rules, o.seat, o.pot, o.forced_ramsch = s.rules, seat, s.pot_in, s.forced_ramsch
        o.decision, o.to_move = PHASE_DECISION[s.phase], s.to_move
        o.declarer, o.contract, o.trump, o.tout = s.declarer, s.contract, s.trump, s.tout
        o.called, o.called_holder, o.called_in_tapp, o.given = s.called, s.holder, s.called_in_tapp, -1
        o.played, o.tricks_taken, o.voids = s.played[:], s.taken[:], s.voids[:]
        o.hand_sizes = [h.bit_count() for h in s.hands]
        o.hand = s.hands[seat] if inn else 0
        o.dealt = s.deal_hands[seat] if inn else 0
        o.legal = s.legal_actions() if inn and seat == s.to_move else []
        hist = []
        for mseat, a in s.history:
            k = ACTION_KINDS[a]
            if k == K_DISCARD and seat != mseat:
                a = HIDDEN_DISCARD
            elif k == K_GIVE and seat != mseat and seat != s.holder:
                a = HIDDEN_GIVE
            hist.append((mseat, a))
        o.history = hist
        o.n_bids = len(hist) if s.phase in (PH_BID1, PH_BID2, PH_AUCTION) else s.n_bid_moves
        o.tapp = o.discarded = 0
        if inn and s.contract == FRAGE and seat == s.declarer:
            o.tapp, o.discarded = s.deal_tapp, s.discards
        if s.given >= 0 and (s.phase == PH_DONE or (inn and (seat == s.declarer or seat == s.holder))):
            o.given = s.given
        o.exposed = s.hands[s.declarer] if s.exposed else 0
        o.tricks = s.tricks[:]
        o.current = s.trick[:]
        o.current_leader = s.leader if s.phase == PH_PLAY else -1
        o.reveal = s.deal if s.phase == PH_DONE else None
        o.reveal_discards = s.discards if s.phase == PH_DONE else 0
        return o

    @staticmethod
    def from_proto(po: game_pb2.Observation, legal: list[str] | None = None) -> Observation:
        """Read the wire observation of a decision request (``request.observation``).

        ``legal`` is the request's list (``request.legal``). Raises ValueError on a malformed
        observation.
        """
        rules = RuleSet.parse(po.rules)
        n = rules.players
        o = Observation.__new__(Observation)
        o.rules, o.seat, o.pot, o.forced_ramsch = rules, po.seat, po.pot, po.forced_ramsch
        names = ("none", "bid", "contract", "trump", "discard", "call", "give", "tout", "card")
        o.decision = names[po.decision] if 0 <= po.decision < len(names) else "none"
        o.to_move = po.to_move
        o.hand, o.dealt = _mask(po.hand), _mask(po.dealt)
        o.hand_sizes = list(po.hand_sizes) + [0] * (n - len(po.hand_sizes))
        o.legal = list(legal or [])
        o.history = [parse_move(f"{m.seat}:{m.action}") for m in po.history]
        o.n_bids = len(po.bids)
        o.declarer = po.declarer
        o.contract = parse_contract(po.contract) if po.contract else 0
        o.trump = parse_suit(po.trump) if po.trump else -1
        o.tout = po.tout
        o.tapp, o.discarded = _mask(po.tapp), _mask(po.discarded)
        o.called = parse_card(po.called) if po.called else -1
        o.called_holder, o.called_in_tapp = po.called_holder, po.called_in_tapp
        o.given = parse_card(po.given) if po.given else -1
        o.exposed = _mask(po.exposed)
        o.tricks = [Trick(t.leader, tuple(parse_card(c) for c in t.cards), t.winner, t.points) for t in po.tricks]
        o.current = [parse_card(c) for c in po.current.cards]
        o.current_leader = po.current.leader if po.HasField("current") else -1
        o.played = [_mask(h.cards) for h in po.played] + [0] * (n - len(po.played))
        o.tricks_taken = list(po.tricks_taken) + [0] * (n - len(po.tricks_taken))
        o.voids = []
        for text in list(po.voids) + [""] * (n - len(po.voids)):
            v = 0
            for ch in text:
                v |= 1 << parse_suit(ch)
            o.voids.append(v)
        o.reveal = None
        o.reveal_discards = 0
        return o

    def to_proto(self) -> game_pb2.Observation:
        """The wire form, field for field what the arena sends (arena/wire ObservationToProto)."""
        from tapp_bot.proto.tapp.v1 import game_pb2

        def move(seat: int, a: int) -> game_pb2.Move:
            return game_pb2.Move(seat=seat, action=ACTION_NAMES[a])

        n = self.rules.players
        po = game_pb2.Observation(
            rules=str(self.rules), seat=self.seat, hand=_names(self.hand),
            decision=_DECISION_INDEX[self.decision],  # type: ignore[arg-type]
            to_move=self.to_move, bids=[move(s, a) for s, a in self.history[: self.n_bids]],
            declarer=self.declarer, contract=CONTRACT_NAMES[self.contract] if self.contract else "",
            trump=SUIT_LETTERS[self.trump] if self.trump >= 0 else "", tout=self.tout,
            tapp=_names(self.tapp), discarded=_names(self.discarded),
            called=CARD_NAMES[self.called] if self.called >= 0 else "", called_holder=self.called_holder,
            called_in_tapp=self.called_in_tapp, given=CARD_NAMES[self.given] if self.given >= 0 else "",
            exposed=_names(self.exposed), history=[move(s, a) for s, a in self.history], dealt=_names(self.dealt),
            pot=self.pot, forced_ramsch=self.forced_ramsch,
        )
        for t in self.tricks:
            po.tricks.append(game_pb2.Trick(leader=t.leader, cards=[CARD_NAMES[c] for c in t.cards], winner=t.winner, points=t.points))
        po.current.CopyFrom(game_pb2.Trick(leader=self.current_leader, cards=[CARD_NAMES[c] for c in self.current], winner=-1))
        for i in range(n):
            po.tricks_taken.append(self.tricks_taken[i])
            po.hand_sizes.append(self.hand_sizes[i])
            po.voids.append("".join(SUIT_LETTERS[s] for s in range(4) if self.voids[i] >> s & 1))
            po.played.append(game_pb2.Hand(cards=_names(self.played[i])))
        return po

    def __repr__(self) -> str:
        return f"Observation(seat={self.seat}, decision={self.decision}, moves={len(self.history)})"


def observe(s: State, seat: int) -> Observation:
    """Shorthand for :meth:`Observation.of_state`."""
    return Observation.of_state(s, seat)
