"""The game state machine: one deal of any variant from the deal to the settlement.

A :class:`State` mirrors engine.State (engine/state.go, bidding.go, declare.go, play.go,
settle.go): the same phases, the same legal actions in the same order, the same rule ids in
errors, the same settlement. It is flat (ints, bitmasks, short lists), so :meth:`State.copy`
is cheap; search by copying, or keep the copy you want to return to.

    >>> from tapp_bot.game import RuleSet, State, deal_from_seed
    >>> rules = RuleSet.parse("modern players=3")
    >>> s = State(rules, deal_from_seed(rules, 1, 0))
    >>> s.decision, s.to_move, s.legal_actions()
    ('bid', 1, ['pass', 'play'])
    >>> s.apply("pass")

Two interfaces: strings (:meth:`legal_actions`, :meth:`apply`, checked, raising
:class:`RuleError`) and codes (:meth:`legal_codes`, :meth:`play_code`, unchecked, for playouts).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .actions import (
    ACTION_ARG,
    ACTION_KINDS,
    ACTION_NAMES,
    BID_BASE,
    BID_SUIT,
    CALL_BASE,
    DISCARD_BASE,
    GIVE_BASE,
    K_BID,
    K_CALL,
    K_CARD,
    K_DISCARD,
    K_GIVE,
    K_NOTOUT,
    K_PASS,
    K_PLAY,
    K_TOUT,
    K_TRUMP,
    NO_SUIT_SLOT,
    NOTOUT,
    PASS,
    PLAY,
    TOUT,
    TRUMP_BASE,
    parse_action,
)
from .cards import CARD_NAMES, POINTS_OF, SUIT_LETTERS, SUIT_OF, SUIT_SETS, set_points
from .deal import Deal
from .rules import (
    ALL_TRICKS,
    CLASSIC,
    CONTRACT_NAMES,
    FRAGE,
    HEARTDURCH,
    HEARTRUFER,
    HEARTSOLO,
    MODERN,
    NO_CONTRACT,
    NULL_GAMES,
    OUVERT,
    POINT_GAMES,
    RAMSCH,
    RUFER,
    SOLO,
    TAKES_SUIT,
    VARIANT_NAMES,
    WUERTTEMBERG,
    RuleSet,
)

if TYPE_CHECKING:
    from .observation import Observation

# Phases (engine/state.go), and the decision each asks for.
PH_DONE, PH_BID1, PH_BID2, PH_AUCTION, PH_DISCARD, PH_TRUMP, PH_CALL, PH_GIVE, PH_TOUT, PH_PLAY = range(10)
#: Decision names by phase, as the protocol and engine name them.
#: The most the pot holds (R-POT-CAP, the engine's MaxPot): a payment into it that would take it
#: past this pays only what fills it, so that a lost Solo, which doubles the pot, cannot take it
#: past the wire's 32-bit fields.
MAX_POT = 1_000_000

PHASE_DECISION = ("none", "bid", "contract", "bid", "discard", "trump", "call", "give", "tout", "card")

SAY_NONE, SAY_PASS, SAY_PLAY = 0, 1, 2
HEARTS = 2


class RuleError(ValueError):
    """An illegal action: ``rule`` is the id of the rule it breaks (TAPP-RULES.md), as the engine names it.

    ``str(err)`` is ``"RULE: message"``, e.g. ``"R-PLAY-2: must follow suit C"``.
    """

    def __init__(self, rule: str, msg: str) -> None:
        super().__init__(f"{rule}: {msg}")
        self.rule = rule
        self.msg = msg


def _suit_text(s: int) -> str:
    return SUIT_LETTERS[s] if 0 <= s < 4 else "-"


class Outcome:
    """The result of a finished deal (engine.Outcome); lists are by seat.

    ``payoff`` is in the rule set's unit (:attr:`RuleSet.unit`): cents in modern, game points
    in classic and wuerttemberg; ``sum(payoff) + pot_after - pot_before == 0``.
    """

    __slots__ = (
        "contract",
        "declarer",
        "declarer_won",
        "draw",
        "payoff",
        "points",
        "pot_after",
        "pot_before",
        "thrown_in",
        "tout",
        "tricks",
        "trump",
    )

    def __init__(self, n: int) -> None:
        self.thrown_in = False
        self.declarer = -1
        self.contract = NO_CONTRACT
        self.trump = -1
        self.tout = False
        self.points = [0] * n
        self.tricks = [0] * n
        self.declarer_won = False
        self.draw = False
        self.payoff = [0] * n
        self.pot_before = 0
        self.pot_after = 0

    def to_json(self) -> dict[str, object]:
        """The outcome as the replay export writes it (docs/replay.md, "The outcome")."""
        return {
            "thrown_in": self.thrown_in, "declarer": self.declarer,
            "contract": CONTRACT_NAMES[self.contract] if self.contract else "",
            "trump": SUIT_LETTERS[self.trump] if 0 <= self.trump < 4 else "",
            "tout": self.tout, "declarer_won": self.declarer_won, "draw": self.draw,
            "points": list(self.points), "tricks": list(self.tricks), "payoff": list(self.payoff),
            "pot_before": self.pot_before, "pot_after": self.pot_after,
        }

    def __repr__(self) -> str:
        return f"Outcome({self.to_json()})"


class Trick:
    """A completed trick: ``cards`` in playing order from ``leader``, its ``winner`` and ``points``."""

    __slots__ = ("cards", "leader", "points", "winner")

    def __init__(self, leader: int, cards: tuple[int, ...], winner: int, points: int) -> None:
        self.leader, self.cards, self.winner, self.points = leader, cards, winner, points

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Trick) and (self.leader, self.cards, self.winner, self.points) == (
            other.leader, other.cards, other.winner, other.points)

    def __repr__(self) -> str:
        return f"Trick(leader={self.leader}, cards={[CARD_NAMES[c] for c in self.cards]}, winner={self.winner}, points={self.points})"


def trick_winner(cards: list[int] | tuple[int, ...], trump: int) -> int:
    """The index (in playing order) of the card that wins a trick so far (R-PLAY-4)."""
    best = cards[0]
    win = 0
    for i in range(1, len(cards)):
        c = cards[i]
        if SUIT_OF[c] == SUIT_OF[best]:
            if c > best:
                best, win = c, i
        elif SUIT_OF[c] == trump:
            best, win = c, i
    return win


_FIELDS = (
    "rules", "n", "hand_size", "phase", "to_move", "hands", "tapp", "discards", "deal_hands", "deal_tapp",
    "pot_in", "forced_ramsch", "bid_idx", "said", "named", "standing", "standing_bid", "n_bid_moves",
    "declarer", "contract", "trump", "tout", "discards_left", "called", "holder", "called_in_tapp", "given",
    "exposed", "thrown_in", "leader", "trick", "n_tricks", "tricks", "points", "taken", "played", "voids",
    "outcome", "history", "_variant", "_pack",
)


class State:
    """One deal in progress (engine.State). Build it from a rule set and a full :class:`Deal`.

    Public read-only attributes: ``rules``, ``n`` (players), ``phase``, ``to_move`` (-1 when
    terminal), ``hands`` (current hands as card bitmasks, by seat), ``tapp`` (while unseen),
    ``declarer`` (-1 none), ``contract``, ``trump`` (-1 none), ``tout``, ``called``,
    ``holder``, ``leader``, ``trick`` (cards of the trick in progress), ``tricks`` (completed
    :class:`Trick` list), ``points``/``taken`` (card points and tricks by seat so far),
    ``played``, ``voids`` (suit bitmasks shown in play), ``history`` (list of (seat, code)).
    """

    __slots__ = _FIELDS

    def __init__(self, rules: RuleSet, deal: Deal, pot: int = 0, forced_ramsch: bool = False) -> None:
        deal.validate(rules)
        if pot < 0:
            raise ValueError("options: negative pot")
        if pot > MAX_POT:
            raise ValueError(f"options: pot {pot} carried in is more than the pot holds, {MAX_POT} (R-POT-CAP)")
        if pot != 0 and not rules.pot:
            raise ValueError(f"options: pot {pot} carried in but the rule set has no pot")
        if forced_ramsch and rules.variant != MODERN:
            raise ValueError(f"options: forced Ramsch (R-SESSION-3) exists only in modern, not {VARIANT_NAMES[rules.variant]}")
        n = rules.players
        self.rules = rules
        self._variant = rules.variant
        self._pack = rules.pack
        self.n = n
        self.hand_size = rules.hand_size
        self.hands = list(deal.hands[:n])
        self.deal_hands = tuple(deal.hands[:n])
        self.tapp = deal.tapp
        self.deal_tapp = deal.tapp
        self.discards = 0
        self.pot_in = pot
        self.forced_ramsch = forced_ramsch
        self.bid_idx = 0
        self.said = [SAY_NONE] * n
        self.named = [0] * n
        self.standing = -1
        self.standing_bid = NO_CONTRACT
        self.n_bid_moves = 0
        self.declarer = -1
        self.contract = NO_CONTRACT
        self.trump = -1
        self.tout = False
        self.discards_left = 0
        self.called = -1
        self.holder = -1
        self.called_in_tapp = False
        self.given = -1
        self.exposed = False
        self.thrown_in = False
        self.leader = -1
        self.trick: list[int] = []
        self.n_tricks = 0
        self.tricks: list[Trick] = []
        self.points = [0] * n
        self.taken = [0] * n
        self.played = [0] * n
        self.voids = [0] * n
        self.outcome: Outcome | None = None
        self.history: list[tuple[int, int]] = []
        if forced_ramsch:
            self._start_ramsch()
        elif rules.variant == MODERN:
            self.phase = PH_BID1
            self.to_move = 1 % n  # R-MOD-BID-1: the player after forehand speaks first
        else:
            self.phase = PH_AUCTION
            self.to_move = 0  # R-AUCTION: forehand speaks first

    # --- copying -------------------------------------------------------------------------

    def copy(self) -> State:
        """An independent copy (cheap: a few short lists)."""
        c = State.__new__(State)
        c.rules, c.n, c.hand_size, c.phase, c.to_move, c.tapp = self.rules, self.n, self.hand_size, self.phase, self.to_move, self.tapp
        c.discards, c.deal_hands, c.deal_tapp, c.pot_in, c.forced_ramsch, c.bid_idx = self.discards, self.deal_hands, self.deal_tapp, self.pot_in, self.forced_ramsch, self.bid_idx
        c.standing, c.standing_bid, c.n_bid_moves, c.declarer, c.contract, c.trump = self.standing, self.standing_bid, self.n_bid_moves, self.declarer, self.contract, self.trump
        c.tout, c.discards_left, c.called, c.holder, c.called_in_tapp, c.given = self.tout, self.discards_left, self.called, self.holder, self.called_in_tapp, self.given
        c.exposed, c.thrown_in, c.leader, c.n_tricks, c.outcome, c._variant = self.exposed, self.thrown_in, self.leader, self.n_tricks, self.outcome, self._variant
        c._pack = self._pack
        c.hands, c.said, c.named, c.trick, c.tricks = self.hands[:], self.said[:], self.named[:], self.trick[:], self.tricks[:]
        c.points, c.taken, c.played, c.voids, c.history = self.points[:], self.taken[:], self.played[:], self.voids[:], self.history[:]
        return c

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        if not all(getattr(self, f) == getattr(other, f) for f in _FIELDS if f != "outcome"):
            return False
        if self.outcome is None or other.outcome is None:
            return self.outcome is other.outcome
        return self.outcome.to_json() == other.outcome.to_json()

    # --- queries -------------------------------------------------------------------------

    @property
    def decision(self) -> str:
        """The decision due: "bid", "contract", "trump", "discard", "call", "give", "tout", "card", or "none"."""
        return PHASE_DECISION[self.phase]

    @property
    def terminal(self) -> bool:
        """Whether the deal is over (settled)."""
        return self.phase == PH_DONE

    @property
    def deal(self) -> Deal:
        """The cards as dealt."""
        return Deal(self.deal_hands, self.deal_tapp)

    @property
    def tricks_played(self) -> int:
        return self.n_tricks

    def legal_codes(self) -> list[int]:
        """The legal actions as codes, in the engine's canonical order."""
        ph = self.phase
        if ph == PH_PLAY:
            m = self._legal_cards()
            return list(_SUIT_CARDS[m & 511] + _SUIT_CARDS_1[m >> 9 & 511] + _SUIT_CARDS_2[m >> 18 & 511] + _SUIT_CARDS_3[m >> 27 & 511])
        if ph == PH_BID1:
            return [PASS, PLAY]
        if ph == PH_BID2:
            out: list[int] = []
            for c in range(FRAGE, HEARTDURCH + 1):
                if not self.rules.biddable(c):
                    continue
                b = BID_BASE + 5 * c
                if c in TAKES_SUIT:
                    out += (b, b + 1, b + 3)
                else:
                    out.append(b + NO_SUIT_SLOT)
            return out
        if ph == PH_AUCTION:
            out = [PASS]
            for c in range(FRAGE, HEARTSOLO + 1):
                if self.rules.biddable(c) and self._beats(self.to_move, c):
                    out.append(BID_BASE + 5 * c + NO_SUIT_SLOT)
            return out
        if ph == PH_DISCARD:
            return [DISCARD_BASE + c for c in _cards(self.hands[self.to_move])]
        if ph == PH_TRUMP:
            return [TRUMP_BASE, TRUMP_BASE + 1, TRUMP_BASE + 3]
        if ph == PH_CALL:
            return [CALL_BASE + c for c in _cards(self._pack & ~self.hands[self.to_move])]
        if ph == PH_GIVE:
            return [GIVE_BASE + c for c in _cards(self.hands[self.to_move] & ~(1 << self.called))]
        if ph == PH_TOUT:
            return [TOUT, NOTOUT]
        return []

    def legal_actions(self) -> list[str]:
        """The legal actions in the engine's notation and order (what a request's ``legal`` lists)."""
        return [ACTION_NAMES[a] for a in self.legal_codes()]

    def legal_cards(self) -> int:
        """The cards the player to move may play, as a bitmask (0 outside trick play)."""
        return self._legal_cards() if self.phase == PH_PLAY else 0

    def _legal_cards(self) -> int:
        hand = self.hands[self.to_move]
        if not self.trick:
            return hand
        f = hand & SUIT_SETS[SUIT_OF[self.trick[0]]]
        if f:
            return f
        if self.trump >= 0:
            t = hand & SUIT_SETS[self.trump]
            if t:
                return t
        return hand

    def trick_winner(self) -> int:
        """The seat winning the trick in progress so far (-1 when no card is on the table)."""
        if not self.trick:
            return -1
        return (self.leader + trick_winner(self.trick, self.trump)) % self.n

    # --- checking ------------------------------------------------------------------------

    def check(self, action: str | int) -> None:
        """Raise :class:`RuleError` naming the rule if the action is illegal now; text is parsed first."""
        code = parse_action(action) if isinstance(action, str) else action
        err = self._check(code)
        if err is not None:
            raise err

    def is_legal(self, action: str | int) -> bool:
        code = parse_action(action) if isinstance(action, str) else action
        return self._check(code) is None

    def _check(self, a: int) -> RuleError | None:
        ph = self.phase
        name = ACTION_NAMES[a]
        kind = ACTION_KINDS[a]
        if ph == PH_DONE:
            return RuleError("R-PLAY-6", "the deal is over; nobody is to move")
        if ph == PH_BID1:
            if kind not in (K_PASS, K_PLAY):
                return RuleError("R-MOD-BID-1", f"round one: say play or pass, not {name}")
            return None
        if ph == PH_BID2:
            if kind != K_BID:
                return RuleError("R-MOD-BID-2", f"round two: name a contract, not {name} (having said play you must name one)")
            return self._check_contract_name(a, "R-MOD-BID-2")
        if ph == PH_AUCTION:
            return self._check_auction(a)
        p = self.to_move
        if ph == PH_DISCARD:
            rule = "R-MOD-FRAGE" if self._variant == MODERN else "R-CL-ORDER"
            if kind != K_DISCARD or a >= 202:
                return RuleError(rule, f"lay away a card (discard:XX), not {name}")
            c = ACTION_ARG[a]
            if not self.hands[p] >> c & 1:
                return RuleError(rule, f"cannot lay away {CARD_NAMES[c]}: not in your hand")
            return None
        if ph == PH_TRUMP:
            if kind != K_TRUMP:
                return RuleError("R-CL-ORDER", f"name the trump (trump:C, trump:S or trump:D), not {name}")
            if ACTION_ARG[a] == HEARTS:
                return RuleError("R-CL-BID-1", "Solo names a trump other than hearts: C, S or D")
            return None
        if ph == PH_CALL:
            if kind != K_CALL:
                return RuleError("R-MOD-RUFER", f"call a card (call:XX), not {name}")
            c = ACTION_ARG[a]
            if not self._pack >> c & 1:
                return RuleError("R-MOD-RUFER", f"cannot call {CARD_NAMES[c]}: not in the {self.rules.pack_size}-card pack")
            if self.hands[p] >> c & 1:
                return RuleError("R-MOD-RUFER", f"cannot call {CARD_NAMES[c]}: you hold it; call a card you lack")
            return None
        if ph == PH_GIVE:
            if kind != K_GIVE or a >= 202:
                return RuleError("R-MOD-RUFER", f"give a card to {self.holder} (give:XX), not {name}")
            c = ACTION_ARG[a]
            if c == self.called:
                return RuleError("R-MOD-RUFER", f"cannot give back the called card {CARD_NAMES[c]}")
            if not self.hands[p] >> c & 1:
                return RuleError("R-MOD-RUFER", f"cannot give {CARD_NAMES[c]}: not in your hand")
            return None
        if ph == PH_TOUT:
            if kind not in (K_TOUT, K_NOTOUT):
                return RuleError("R-CL-ORDER", f"answer the Tout question (tout or notout), not {name}")
            return None
        # PH_PLAY
        if kind != K_CARD:
            return RuleError("R-PLAY-2", f"play a card, not {name}")
        hand = self.hands[p]
        if not hand >> a & 1:
            return RuleError("R-PLAY-2", f"cannot play {CARD_NAMES[a]}: not in your hand")
        if self._legal_cards() >> a & 1:
            return None
        led = SUIT_OF[self.trick[0]]
        if hand & SUIT_SETS[led]:
            return RuleError("R-PLAY-2", f"must follow suit {SUIT_LETTERS[led]}")
        return RuleError("R-PLAY-2", f"cannot follow {SUIT_LETTERS[led]}: must play a trump ({_suit_text(self.trump)})")

    def _check_contract_name(self, a: int, rule: str) -> RuleError | None:
        c = ACTION_ARG[a]
        suit = BID_SUIT[a]
        cname = CONTRACT_NAMES[c]
        if not self.rules.biddable(c):
            if c == FRAGE:
                return RuleError(rule, "frage is not played (option frage=off)")
            return RuleError(rule, f"{cname} is not a contract of {VARIANT_NAMES[self._variant]}")
        if self._variant == MODERN and c in TAKES_SUIT:
            if suit == HEARTS:
                return RuleError(rule, f"{cname}:H is called heart{cname}")
            if suit < 0:
                return RuleError(rule, f"{cname} needs a trump suit: {cname}:C, {cname}:S or {cname}:D")
        if self._variant != MODERN and suit >= 0:
            return RuleError("R-CL-BID-1", f"bid plain {cname}; a classic Solo names its trump after winning the auction")
        return None

    def _beats(self, p: int, c: int) -> bool:
        if self.standing < 0:
            return True
        return c > self.standing_bid or (c == self.standing_bid and p < self.standing)

    def _check_auction(self, a: int) -> RuleError | None:
        kind = ACTION_KINDS[a]
        if kind == K_PASS:
            return None
        if kind != K_BID:
            return RuleError("R-AUCTION", f"bid a contract or pass, not {ACTION_NAMES[a]}")
        err = self._check_contract_name(a, "R-CL-BID-1")
        if err is not None:
            return err
        c = ACTION_ARG[a]
        if not self._beats(self.to_move, c):
            sb = CONTRACT_NAMES[self.standing_bid]
            if c == self.standing_bid:
                return RuleError("R-AUCTION", f"{CONTRACT_NAMES[c]} does not beat the standing {sb} of seat {self.standing}: only a seat nearer forehand may hold an equal bid")
            return RuleError("R-AUCTION", f"{CONTRACT_NAMES[c]} does not beat the standing {sb} of seat {self.standing}")
        return None

    # --- applying ------------------------------------------------------------------------

    def apply(self, action: str | int) -> None:
        """Check the action and play it for the seat to move; on error (:class:`RuleError`, or
        :class:`ActionSyntaxError` for text that is no action) the state is unchanged."""
        code = parse_action(action) if isinstance(action, str) else action
        err = self._check(code)
        if err is not None:
            raise err
        self.play_code(self._canonical(code))

    @staticmethod
    def _canonical(code: int) -> int:
        if ACTION_KINDS[code] == K_BID and ACTION_ARG[code] not in TAKES_SUIT:
            return BID_BASE + 5 * ACTION_ARG[code] + NO_SUIT_SLOT
        return code

    def play_code(self, a: int) -> None:
        """Play a legal action code without checking it (for playouts: take it from :meth:`legal_codes`)."""
        p = self.to_move
        self.history.append((p, a))
        ph = self.phase
        if ph == PH_PLAY:
            self._play_card(p, a)
        elif ph == PH_BID1:
            self._apply_bid1(p, a)
        elif ph == PH_BID2:
            self._apply_bid2(p, a)
        elif ph == PH_AUCTION:
            self._apply_auction(p, a)
        elif ph == PH_DISCARD:
            c = a - DISCARD_BASE
            self.hands[p] &= ~(1 << c)
            self.discards |= 1 << c
            self.discards_left -= 1
            if self.discards_left == 0:
                self._after_declaration()
        elif ph == PH_TRUMP:
            self.trump = a - TRUMP_BASE
            self._after_declaration()
        elif ph == PH_CALL:
            self._apply_call(p, a - CALL_BASE)
        elif ph == PH_GIVE:
            c = a - GIVE_BASE
            self.given = c
            self.hands[p] &= ~(1 << c)
            self.hands[self.holder] |= 1 << c
            self._after_declaration()
        elif ph == PH_TOUT:
            self.tout = a == TOUT
            self._start_play(0)  # R-CL-ORDER: then forehand leads

    def playout(self, rng: random.Random) -> None:
        """Finish the deal with uniformly random legal actions (the fast path of random play)."""
        rand = rng.random
        while self.phase:
            if self.phase != PH_PLAY:
                codes = self.legal_codes()
                self.play_code(codes[int(rand() * len(codes))])
                continue
            hand = self.hands[self.to_move]
            trick = self.trick
            m = hand
            if trick:
                m = hand & SUIT_SETS[SUIT_OF[trick[0]]]
                if not m:
                    m = hand & SUIT_SETS[self.trump] if self.trump >= 0 else 0
                    if not m:
                        m = hand
            cards = _SUIT_CARDS[m & 511] + _SUIT_CARDS_1[m >> 9 & 511] + _SUIT_CARDS_2[m >> 18 & 511] + _SUIT_CARDS_3[m >> 27 & 511]
            c = cards[int(rand() * len(cards))]
            self.history.append((self.to_move, c))
            self._play_card(self.to_move, c)

    # bidding (engine/bidding.go)

    def _apply_bid1(self, p: int, a: int) -> None:
        self.said[p] = SAY_PLAY if a == PLAY else SAY_PASS
        self.bid_idx += 1
        n = self.n
        if self.bid_idx < n:
            self.to_move = (self.bid_idx + 1) % n
            return
        self.bid_idx = 0
        if self._next_namer():
            self.phase = PH_BID2
            return
        self.n_bid_moves = len(self.history)
        self._start_ramsch()  # R-MOD-BID-4

    def _next_namer(self) -> bool:
        n = self.n
        while self.bid_idx < n:
            seat = (self.bid_idx + 1) % n
            if self.said[seat] == SAY_PLAY:
                self.to_move = seat
                return True
            self.bid_idx += 1
        return False

    def _apply_bid2(self, p: int, a: int) -> None:
        self.named[p] = a
        self.bid_idx += 1
        if self._next_namer():
            return
        self.n_bid_moves = len(self.history)
        # R-MOD-BID-3: the highest contract wins; among equals the seat nearer forehand.
        best = -1
        for seat in range(self.n):
            if self.said[seat] == SAY_PLAY and (best < 0 or ACTION_ARG[self.named[seat]] > ACTION_ARG[self.named[best]]):
                best = seat
        win = self.named[best]
        c = ACTION_ARG[win]
        trump = BID_SUIT[win] if c in TAKES_SUIT else _fixed_trump(c)
        self.declarer, self.contract, self.trump = best, c, trump
        self._start_declaration()

    def _apply_auction(self, p: int, a: int) -> None:
        if a == PASS:
            self.said[p] = SAY_PASS
        else:
            self.standing, self.standing_bid = p, ACTION_ARG[a]
        n = self.n
        inn = 0
        for seat in range(n):
            if self.said[seat] != SAY_PASS:
                inn += 1
        if inn == 0:
            self.n_bid_moves = len(self.history)
            self.thrown_in = True
            self._finish()  # R-CL-PASS
            return
        if inn == 1 and self.standing >= 0:
            self.n_bid_moves = len(self.history)
            c = self.standing_bid
            trump = _fixed_trump(c)
            if c == SOLO and self._variant == WUERTTEMBERG:
                trump = HEARTS  # R-WT-1
            self.declarer, self.contract, self.trump = self.standing, c, trump
            self._start_declaration()
            return
        nxt = p
        while True:
            nxt = (nxt + 1) % n
            if self.said[nxt] != SAY_PASS and nxt != self.standing:
                break
        self.to_move = nxt

    # declaration (engine/declare.go)

    def _start_declaration(self) -> None:
        d = self.declarer
        c = self.contract
        if c == FRAGE:
            self.hands[d] |= self.tapp
            self.discards_left = self.tapp.bit_count()
            self.tapp = 0
            self.phase, self.to_move = PH_DISCARD, d
            return
        if c in (RUFER, HEARTRUFER):
            self.phase, self.to_move = PH_CALL, d
            return
        if c == SOLO and self._variant == CLASSIC:
            self.phase, self.to_move = PH_TRUMP, d  # R-CL-ORDER
            return
        self._after_declaration()

    def _after_declaration(self) -> None:
        if self._variant != MODERN:
            self.phase, self.to_move = PH_TOUT, self.declarer  # R-CL-ORDER: always asked
            return
        self._start_play(self.declarer if self.contract == OUVERT else 0)

    def _apply_call(self, p: int, c: int) -> None:
        self.called = c
        holder = -1
        for seat in range(self.n):
            if self.hands[seat] >> c & 1:
                holder = seat
        if holder < 0:
            self.called_in_tapp = True
            self._after_declaration()
            return
        self.holder = holder
        self.hands[holder] &= ~(1 << c)
        self.hands[p] |= 1 << c
        self.phase = PH_GIVE

    def _start_ramsch(self) -> None:
        self.declarer, self.contract, self.trump = -1, RAMSCH, -1
        self._start_play(0)

    # play (engine/play.go)

    def _start_play(self, leader: int) -> None:
        self.phase = PH_PLAY
        self.leader = self.to_move = leader

    def _play_card(self, p: int, c: int) -> None:
        bit = 1 << c
        self.hands[p] &= ~bit
        self.played[p] |= bit
        trick = self.trick
        if trick:
            led = SUIT_OF[trick[0]]
            su = SUIT_OF[c]
            if su != led:
                v = self.voids[p] | 1 << led
                if self.trump >= 0 and su != self.trump:
                    v |= 1 << self.trump
                self.voids[p] = v
        trick.append(c)
        if self.contract == OUVERT and p == self.declarer:
            self.exposed = True  # R-MOD-OUVERT: his hand lies face up after his first card
        if len(trick) < self.n:
            self.to_move = (p + 1) % self.n
            return
        self._close_trick()

    def _close_trick(self) -> None:
        trick = self.trick
        n = self.n
        trump = self.trump
        best = trick[0]
        win = 0
        pts = POINTS_OF[best]
        for i in range(1, n):
            c = trick[i]
            pts += POINTS_OF[c]
            if SUIT_OF[c] == SUIT_OF[best]:
                if c > best:
                    best, win = c, i
            elif SUIT_OF[c] == trump:
                best, win = c, i
        winner = (self.leader + win) % n
        self.tricks.append(Trick(self.leader, tuple(trick), winner, pts))
        self.n_tricks += 1
        self.points[winner] += pts
        self.taken[winner] += 1
        self.trick = []
        self.leader = self.to_move = winner
        d = self.declarer
        c = self.contract
        if self.n_tricks == self.hand_size:
            pass
        elif c in NULL_GAMES and winner == d:
            pass  # R-PLAY-6: the null game is lost
        elif (c in ALL_TRICKS or self.tout) and winner != d:
            pass  # R-PLAY-6 / R-CL-TOUT: a trick for the defenders ends it
        else:
            return
        self._finish()

    # settlement (engine/settle.go)

    def _finish(self) -> None:
        self.phase, self.to_move = PH_DONE, -1
        self.outcome = self._settle()

    def _settle(self) -> Outcome:
        n = self.n
        o = Outcome(n)
        o.thrown_in, o.declarer, o.contract, o.trump, o.tout = self.thrown_in, self.declarer, self.contract, self.trump, self.tout
        o.points = self.points[:]
        o.tricks = self.taken[:]
        o.pot_before = self.pot_in
        rules = self.rules
        pot = self.pot_in
        if rules.pot:
            # R-POT: the dealer antes 2 at the start of every deal (R-POT-CAP: up to MAX_POT)
            ante = min(2, MAX_POT - pot)
            o.payoff[n - 1] -= ante
            pot += ante
        o.pot_after = pot
        if self.thrown_in:
            return o
        d = self.declarer
        c = self.contract
        if c == RAMSCH:
            self._settle_ramsch(o)
            return o
        if c == FRAGE:
            o.points[d] += set_points(self.discards)
        elif c in (SOLO, HEARTSOLO):
            o.points[d] += set_points(self.deal_tapp)
        if self._variant == MODERN:
            if c in POINT_GAMES:
                won = o.points[d] >= 61  # R-MOD-SOLO: 61 wins, 60 loses
            elif c in NULL_GAMES:
                won = self.taken[d] == 0
            else:
                won = self.taken[d] == self.hand_size
            o.declarer_won = won
            self._pay(o, rules.stakes[c], won)
            return o
        if self.tout:
            won = self.taken[d] == self.hand_size
            value = self._base_value(60) * rules.tout_factor  # R-CL-SCORE-3, R-WT-TOUT
        else:
            dp = o.points[d]
            if dp == 60:
                o.draw = True  # R-CL-SCORE-1: nobody pays; the pot stays
                return o
            won = dp > 60
            value = self._base_value(dp - 60 if won else 60 - dp)
        o.declarer_won = won
        self._pay(o, value, won)
        if rules.pot:
            if c == FRAGE and not won:
                paid = min(value, MAX_POT - pot)  # what he pays each defender (R-POT-CAP)
                o.payoff[d] -= paid
                pot += paid
            elif c != FRAGE and won:
                o.payoff[d] += pot
                pot = 0
            elif c != FRAGE:
                paid = min(pot, MAX_POT - pot)  # as much as the pot holds (R-POT-CAP)
                o.payoff[d] -= paid
                pot += paid
            o.pot_after = pot
        return o

    def _base_value(self, sc: int) -> int:
        c = self.contract
        if self._variant == CLASSIC:
            if c == FRAGE:
                return (sc + 3) // 4
            if c == SOLO:
                return (sc + 1) // 2
            return sc
        if c == SOLO:
            return 2 * sc
        return sc

    def _pay(self, o: Outcome, value: int, won: bool) -> None:
        if not won:
            value = -value
        d = self.declarer
        for seat in range(self.n):
            if seat != d:
                o.payoff[seat] -= value
                o.payoff[d] += value

    def _settle_ramsch(self, o: Outcome) -> None:
        n = self.n
        if self.n_tricks > 0:
            o.points[self.tricks[-1].winner] += set_points(self.deal_tapp)
        most = max(max(o.points), 0)
        stake = self.rules.stakes[RAMSCH]
        for loser in range(n):
            if o.points[loser] != most:
                continue
            for w in range(n):
                if o.points[w] == most:
                    continue
                amt = stake * 2 if self.taken[w] == 0 else stake  # Jungfer
                o.payoff[loser] -= amt
                o.payoff[w] += amt

    # --- presentation ----------------------------------------------------------------------

    def observe(self, seat: int) -> Observation:
        """What ``seat`` knows now (engine State.Observe): see :class:`~tapp_bot.game.Observation`."""
        from .observation import Observation

        return Observation.of_state(self, seat)

    def moves(self) -> list[str]:
        """Every move so far as ``"seat:action"`` (the export's ``moves``)."""
        return [f"{s}:{ACTION_NAMES[a]}" for s, a in self.history]

    def __repr__(self) -> str:
        return f"State({self.rules}, decision={self.decision}, to_move={self.to_move}, moves={len(self.history)})"


def _suit_tables() -> list[tuple[tuple[int, ...], ...]]:
    return [tuple(tuple(9 * s + r for r in range(9) if m >> r & 1) for m in range(512)) for s in range(4)]


# Per suit, per 9-bit rank mask: the cards, so that a set's cards are four lookups.
_SUIT_CARDS, _SUIT_CARDS_1, _SUIT_CARDS_2, _SUIT_CARDS_3 = _suit_tables()


def _fixed_trump(c: int) -> int:
    return HEARTS if c in (FRAGE, HEARTSOLO, HEARTRUFER, HEARTDURCH) else -1


def _cards(m: int) -> list[int]:
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out
