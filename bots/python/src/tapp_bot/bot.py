"""What a bot author writes: a :class:`Bot` subclass (or two functions), and what it is given."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from tapp_bot.proto.tapp.v1 import bot_pb2, game_pb2

log = logging.getLogger("tapp_bot")

#: Decision enum value -> short name ("bid", "contract", "trump", "discard", "call", "give",
#: "tout", "card"); also the name of the Bot method that answers it.
DECISION_NAMES: dict[int, str] = {
    value: name.removeprefix("DECISION_").lower()
    for name, value in game_pb2.Decision.items()
    if value != game_pb2.DECISION_UNSPECIFIED
}


class Game:
    """What the SDK knows about one game (one deal) this bot sits in.

    Attributes:
        game_id: the arena's id for the game.
        started: the GameStarted message (seat, players, rules, time control, hand as dealt);
            None only if the SDK joined the game late.
        events: the game's events as this seat saw them, in order (``game_pb2.GameEvent``). They
            arrive live (``stream_events``) or batched with the next decision request or the
            game's end; after a resume some may be missing (the observation is complete).
        observation: the latest full observation (from the last decision request or snapshot).
        request: the latest decision request for this game (``bot_pb2.DecisionRequest``).
        ended: the GameEnded message once the game is over (reveal, settlement, aborted).
        data: a dict for the bot's own per-game state.
    """

    __slots__ = ("data", "ended", "events", "game_id", "observation", "request", "started")

    def __init__(self, game_id: str, started: bot_pb2.GameStarted | None = None) -> None:
        self.game_id = game_id
        self.started = started
        self.events: list[game_pb2.GameEvent] = []
        self.observation: game_pb2.Observation | None = None
        self.request: bot_pb2.DecisionRequest | None = None
        self.ended: bot_pb2.GameEnded | None = None
        self.data: dict[str, object] = {}

    @property
    def seat(self) -> int:
        """This bot's seat (0 is forehand), or -1 if unknown."""
        if self.started is not None:
            return self.started.seat
        if self.observation is not None:
            return self.observation.seat
        return -1

    @property
    def players(self) -> list[str]:
        """Bot names by seat."""
        return list(self.started.players) if self.started is not None else []

    @property
    def rules(self) -> str:
        """The rule set in canonical text form."""
        if self.started is not None:
            return self.started.rules
        return self.observation.rules if self.observation is not None else ""

    @property
    def hand(self) -> list[str]:
        """The cards held now (from the latest observation; the dealt hand before any)."""
        if self.observation is not None:
            return list(self.observation.hand)
        return list(self.started.hand) if self.started is not None else []

    def __repr__(self) -> str:
        return f"Game({self.game_id!r}, seat={self.seat}, events={len(self.events)})"


class DecisionClock:
    """A decision's time as the arena gave it (the Go SDK's ``bots.Clock``): when the
    decision's own time ends, and the overage bank left beyond that.

    The arena takes an answer after the decision's own time too, the overrun coming out of the
    bank (the game's, or the match's with a per-match clock); only an answer after the bank as
    well is played by the fallback and costs a strike. A bot that knows the bank can think
    longer where a decision matters, and keep it for later where it does not. The SDK itself
    answers for the bot at :attr:`deadline` (see :meth:`Request.time_left`): to use the bank,
    return before then and plan the next decisions with what is left.

    Attributes:
        deadline: when the decision's own time ends, less the SDK's safety margin, on the
            ``time.monotonic()`` scale: the moment the SDK answers a legal fallback for the
            bot; None when the request gave no deadline.
        overage: seconds of the overage bank left beyond the deadline (0.0 when none).
    """

    __slots__ = ("_monotonic", "deadline", "overage")

    def __init__(
        self, deadline: float | None, overage: float, monotonic: Callable[[], float] = time.monotonic
    ) -> None:
        self.deadline = deadline
        self.overage = overage
        self._monotonic = monotonic

    def time_left(self) -> float:
        """Seconds left of the decision's own time before the SDK answers for the bot (inf if
        the request gave no deadline)."""
        if self.deadline is None:
            return float("inf")
        return self.deadline - self._monotonic()

    def end(self) -> float | None:
        """The deadline plus the bank (monotonic scale): the last moment an answer would be
        taken without a strike were the decision to spend all of the bank; None without a
        deadline."""
        return None if self.deadline is None else self.deadline + self.overage

    def __repr__(self) -> str:
        return f"DecisionClock(time_left={self.time_left():.3f}, overage={self.overage:.3f})"


class Request:
    """One decision the arena asks for. Answer it by returning one of :attr:`legal`.

    Attributes:
        game: the :class:`Game` it belongs to (events so far, start info, your own ``data``).
        proto: the raw ``bot_pb2.DecisionRequest``.
        decision: short name of the decision: "bid", "contract", "trump", "discard", "call",
            "give", "tout" or "card".
        legal: the legal actions, in the engine's stable order.
        observation: everything this seat may know now (``game_pb2.Observation``): hand, bids,
            contract, trump, tricks, the trick in progress, ...
        clock: the decision's time left and the overage bank (:class:`DecisionClock`).
    """

    __slots__ = ("_deadline", "_monotonic", "decision", "game", "legal", "observation", "proto")

    def __init__(
        self,
        game: Game,
        proto: bot_pb2.DecisionRequest,
        deadline: float | None,
        monotonic: Callable[[], float] = time.monotonic,
        *,
        legal: list[str] | None = None,
        observation: game_pb2.Observation | None = None,
    ) -> None:
        # legal and observation: proto's, when the caller has already read them (reading a
        # protobuf field again builds it again).
        self.game = game
        self.proto = proto
        self.decision = DECISION_NAMES.get(proto.decision, "unspecified")
        self.legal: list[str] = list(proto.legal) if legal is None else legal.copy()  # the bot's to change
        self.observation: game_pb2.Observation = proto.observation if observation is None else observation
        self._deadline = deadline  # monotonic() by which the SDK answers at the latest
        self._monotonic = monotonic

    @property
    def game_id(self) -> str:
        return self.proto.game_id

    @property
    def request_id(self) -> str:
        return self.proto.request_id

    @property
    def hand(self) -> list[str]:
        """The cards this seat holds now."""
        return list(self.observation.hand)

    @property
    def seat(self) -> int:
        return self.observation.seat

    @property
    def trump(self) -> str:
        """Trump suit letter, "" when none (yet)."""
        return self.observation.trump

    @property
    def current_trick(self) -> list[str]:
        """The cards played so far to the trick in progress (first is the leader's)."""
        return list(self.observation.current.cards)

    def time_left(self) -> float:
        """Seconds left before the SDK answers with a fallback on the bot's behalf (inf if none)."""
        if self._deadline is None:
            return float("inf")
        return self._deadline - self._monotonic()

    @property
    def clock(self) -> DecisionClock:
        """The decision's clock: the time left for it and the overage bank beyond (see
        :class:`DecisionClock`)."""
        overage = 0.0
        if self.proto.HasField("overage_left"):
            left = self.proto.overage_left
            overage = max(left.seconds + left.nanos * 1e-9, 0.0)
        return DecisionClock(self._deadline, overage, self._monotonic)

    def __repr__(self) -> str:
        return f"Request({self.game_id!r}, {self.request_id!r}, {self.decision}, legal={self.legal})"


class Bot:
    """Base class for a bot. Override :meth:`decide`, or the per-decision methods you care about.

    The default :meth:`decide` calls the method named after the decision (:meth:`bid`,
    :meth:`contract`, :meth:`trump`, :meth:`discard`, :meth:`call`, :meth:`give`, :meth:`tout`,
    :meth:`card`); each default returns a legal action (pass in bidding, no Tout, otherwise the
    first legal action). Return one of ``request.legal``; anything else, or an exception, is
    logged and replaced by a legal fallback so the arena never waits.

    Class attributes ``name``, ``version`` and ``capacity`` (how many games at once) are sent in
    the Hello; ``run(..., name=...)`` overrides them. The SDK calls the bot for several games at
    once, each from a thread of its own (``concurrency`` of them, default the capacity): the
    calls for one game never overlap and keep their order, so state kept in ``game.data`` needs
    no lock; state shared between games does (or say ``concurrency = 1``). With ``stream_events = True`` the arena
    sends every event as it happens (:meth:`event` is called at once); by default events come
    batched with the next decision request or the game's end, which is cheaper.

    A bot whose every call takes microseconds and never waits (a random or rule-of-thumb bot)
    may say ``inline = True``: the SDK then calls it on the thread that reads the stream, in the
    order the messages come, instead of handing each call to a thread of its own, which saves
    two thread switches a decision. An inline call holds up every other table's requests, so
    after one that used more than the client's ``inline_limit`` of CPU (5 ms) the SDK logs a
    warning and goes back to the bot's threads for good; a bot that waits (sleeps, I/O) must not
    be inline. Its errors, illegal answers and slow decisions are handled as for any bot (a
    logged legal fallback; an answer sent for it at the guard).
    """

    name: str = "python-bot"
    version: str = "0.1.0"
    capacity: int = 1
    concurrency: int | None = None
    stream_events: bool = False
    inline: bool = False

    # --- decisions ---------------------------------------------------------------------------

    def decide(self, request: Request) -> str:
        """Answer one decision request with one of ``request.legal``."""
        method = getattr(self, request.decision, None)
        if method is None:
            return request.legal[0]
        result: str = method(request)
        return result

    def bid(self, request: Request) -> str:
        """Modern round one ("play"/"pass") or a bid in the older variants. Default: pass."""
        return _prefer(request.legal, "pass")

    def contract(self, request: Request) -> str:
        """Modern round two: name a contract. Default: the first (lowest) legal contract."""
        return request.legal[0]

    def trump(self, request: Request) -> str:
        """Name the trump suit. Default: the first legal choice."""
        return request.legal[0]

    def discard(self, request: Request) -> str:
        """Frage: lay cards away. Default: the first legal choice."""
        return request.legal[0]

    def call(self, request: Request) -> str:
        """Rufer: call a card. Default: the first legal choice."""
        return request.legal[0]

    def give(self, request: Request) -> str:
        """Rufer: give a card back to the former holder. Default: the first legal choice."""
        return request.legal[0]

    def tout(self, request: Request) -> str:
        """Announce Tout or not. Default: no Tout."""
        return _prefer(request.legal, "notout")

    def card(self, request: Request) -> str:
        """Play a card. Default: the first legal card."""
        return request.legal[0]

    # --- optional hooks ----------------------------------------------------------------------

    def game_started(self, game: Game) -> None:
        """Called when a new game starts (``game.started`` is set)."""

    def event(self, game: Game, event: game_pb2.GameEvent) -> None:
        """Called for every event, after it was appended to ``game.events`` (before the decision
        request or game end that carried it is handled)."""

    def game_ended(self, game: Game, settlement: game_pb2.Settlement) -> None:
        """Called when a game ends; ``game.ended`` has the full reveal and ``aborted`` flag."""

    def fallback(self, game: Game, fallback: bot_pb2.Fallback) -> None:
        """Called when the arena played for this bot (late answer); the SDK already logged it."""


def _prefer(legal: list[str], action: str) -> str:
    return action if action in legal else legal[0]


DecideFunc = Callable[[Request], str]
GameEndedFunc = Callable[[Game, game_pb2.Settlement], None]


class FunctionBot(Bot):
    """A bot made of plain functions: ``decide(request) -> str`` and an optional
    ``game_ended(game, settlement)``."""

    def __init__(
        self,
        decide: DecideFunc,
        game_ended: GameEndedFunc | None = None,
        *,
        name: str | None = None,
        version: str | None = None,
        capacity: int | None = None,
    ) -> None:
        self._decide = decide
        self._game_ended = game_ended
        self.name = name or Bot.name
        if version is not None:
            self.version = version
        if capacity is not None:
            self.capacity = capacity

    def decide(self, request: Request) -> str:
        return self._decide(request)

    def game_ended(self, game: Game, settlement: game_pb2.Settlement) -> None:
        if self._game_ended is not None:
            self._game_ended(game, settlement)
