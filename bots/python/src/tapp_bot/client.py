"""The connection to the arena: one gRPC stream, many games, answers always legal and on time.

Threads: the caller's thread reads the stream; the bot's code runs on a pool of threads, one
game at a time per thread and each game's calls in the order its messages came (:class:`_Lanes`),
so a bot thinking about one table does not hold up the others. :class:`_Outbox` answers, with
a legal fallback, any request the bot has not answered shortly before its deadline (so a slow
``decide`` does not cost a strike). An inline bot (``Bot.inline``) is called on the reading
thread instead, until one of its calls takes longer than the inline limit.

Two transports carry the stream. The SDK's own (``transport="h2"``, the default,
:mod:`tapp_bot.h2transport`) reads the socket on the caller's thread and writes each answer at
once from whichever thread has it; the outbox's thread only times the guards. grpcio's
(``transport="grpcio"``) reads on its own threads and drains the outbox on its request-consumer
thread: every message crosses three or four threads, which was most of a fast bot's CPU.
"""

from __future__ import annotations

import collections
import heapq
import itertools
import logging
import os
import queue
import random
import ssl
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

import grpc

from tapp_bot.proto.tapp.v1 import bot_pb2, game_pb2

from . import h2transport
from .bot import Bot, DecideFunc, FunctionBot, Game, GameEndedFunc, Request

log = logging.getLogger("tapp_bot")

_perf_counter_ns = time.perf_counter_ns
_thread_time_ns = time.thread_time_ns

DEFAULT_ARENA = "localhost:7000"

# Status codes that say "you may not play": retrying cannot help.
_FATAL_CODES = (grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.PERMISSION_DENIED)
# Status codes with which an arena may refuse a resume (unknown or expired session).
_RESUME_REFUSED_CODES = (
    grpc.StatusCode.NOT_FOUND,
    grpc.StatusCode.FAILED_PRECONDITION,
    grpc.StatusCode.INVALID_ARGUMENT,
    grpc.StatusCode.ABORTED,
)

# The h2 transport's equivalents of the channel options below.
_KEEPALIVE_TIME = 30.0
_KEEPALIVE_TIMEOUT = 10.0
_MAX_MESSAGE = 16 << 20

_CHANNEL_OPTIONS: list[tuple[str, int]] = [
    ("grpc.max_receive_message_length", 16 << 20),
    ("grpc.max_send_message_length", 16 << 20),
    # Notice a dead connection on a quiet stream; the arena allows pings every ~10 s.
    ("grpc.keepalive_time_ms", 30_000),
    ("grpc.keepalive_timeout_ms", 10_000),
    ("grpc.http2.max_pings_without_data", 0),
    # Reconnect quickly when the arena comes back (gRPC's default backoff grows to 2 minutes).
    ("grpc.initial_reconnect_backoff_ms", 100),
    ("grpc.min_reconnect_backoff_ms", 100),
    ("grpc.max_reconnect_backoff_ms", 5_000),
]


class AuthError(Exception):
    """The arena refused the bot's token; reconnecting cannot help."""


class ConnectionLost(Exception):
    """The stream dropped and reconnecting is disabled or gave up."""


class ConnectError(ConnectionLost):
    """The connection cannot work as configured: TLS on one side and not the other, or an
    arena certificate this client does not trust. Retrying cannot mend it; the message says
    what to change."""


# How often a connection that fails with a ConnectError's cause is tried before giving up:
# it will not mend, but one failure may be an arena that was starting up.
CONNECT_PROBLEM_TRIES = 3

# (what gRPC's or the h2 transport's message says, what to change): the mistakes ConnectError
# names.
_CONNECT_PROBLEMS = (
    (("http1.x server", "looked like an HTTP/1.1 header", h2transport.ANSWERED_IN_TLS, "before its first HTTP/2 frame"),
     "the arena serves TLS but this bot connects in plain text: connect with tls=True (or $TAPP_TLS=1), "
     "or ca=FILE ($TAPP_CA) when the arena's certificate comes from a private CA"),
    (("WRONG_VERSION_NUMBER", "first record does not look like a TLS handshake", "during the TLS handshake"),
     "this bot connects with TLS (tls=/ca=, $TAPP_TLS/$TAPP_CA) but the arena serves plain text: "
     "leave them out, or serve the arena with --tls-cert and --tls-key"),
    # Before the untrusted CA: Python's message for a wrong name says CERTIFICATE_VERIFY_FAILED too.
    (("is not in peer certificate", "certificate is valid for", "Hostname mismatch", "IP address mismatch"),
     "the arena's certificate is for another name than the address dialled: connect with a host "
     "name the certificate names"),
    (("CERTIFICATE_VERIFY_FAILED", "certificate signed by unknown authority"),
     "the arena's certificate is signed by a CA this bot does not trust: give the CA's certificate "
     "with ca=FILE ($TAPP_CA)"),
)


def connect_problem(details: str) -> str | None:
    """What to change, for a connection error that retrying cannot mend; None otherwise."""
    for needles, fix in _CONNECT_PROBLEMS:
        if any(n in details for n in needles):
            return fix
    return None


class _Pending:
    """One decision request and what was answered to it."""

    __slots__ = ("action", "answered", "deadline", "game_id", "guard", "legal", "request_id", "tried")

    def __init__(
        self, game_id: str, request_id: str, legal: list[str], guard: float | None, deadline: float | None
    ) -> None:
        self.game_id = game_id
        self.request_id = request_id
        self.legal = legal
        self.guard = guard  # monotonic time at which the SDK answers a fallback itself
        self.deadline = deadline  # monotonic time of the arena's deadline
        self.answered = False
        self.action: str | None = None  # the last action sent
        self.tried: set[str] = set()

    def fallback(self) -> str:
        """A legal action not yet tried (the first legal one if all were)."""
        for action in self.legal:
            if action not in self.tried:
                return action
        return self.legal[0] if self.legal else ""


_CLOSE = object()

# The longest the outbox's consumer sleeps without a guard due: it then looks again. Requests
# armed for later than its wake-up (nearly all: their time is seconds) do not wake it.
_IDLE_WAIT = 0.1


class _Outbox:
    """The bot's side of the stream, consumed by gRPC on its own thread.

    Answers go through :meth:`answer`, which makes sure each request is answered once: by the
    bot, or by this outbox's guard when the bot is still thinking at the request's guard time.
    """

    def __init__(self, monotonic: Callable[[], float] = time.monotonic) -> None:
        self._monotonic = monotonic
        self._queue: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._guards: list[tuple[float, int, _Pending]] = []
        self._counter = itertools.count()
        # When the consumer wakes up at the latest (monotonic), however idle: a guard armed for
        # later than that needs no wake-up, which would cost a thread switch per request.
        self._wake_at = 0.0
        # Where messages go at once instead of the queue (the h2 transport's send, safe from
        # any thread); the queue then carries only the guards' wake-ups and the close.
        self._sink: Callable[[bytes], None] | None = None

    def attach(self, sink: Callable[[bytes], None]) -> None:
        """Send every message with sink from the thread that has it; :meth:`pump` then sends
        the guards' fallbacks."""
        self._sink = sink

    def pump(self, half_close: Callable[[], None]) -> None:
        """The guards' thread of an attached outbox: send each fallback when due, half_close
        at close()."""
        sink = self._sink
        assert sink is not None, "attach first"
        for message in self:
            sink(message)
        half_close()

    def send(self, message: bytes) -> None:
        """Send a serialized ConnectRequest."""
        sink = self._sink
        if sink is not None:
            sink(message)
            return
        self._queue.put(message)

    def watch(self, pending: _Pending) -> None:
        """Arm the guard for a request that has a deadline."""
        if pending.guard is None:
            return
        with self._lock:
            heapq.heappush(self._guards, (pending.guard, next(self._counter), pending))
            sooner = pending.guard < self._wake_at
        if sooner:
            self._queue.put(None)  # wake the consumer to shorten its wait

    def answer(self, pending: _Pending, action: str, retry: bool = False, think_ns: int | None = None) -> bool:
        """Send action for the request; False if it was already answered (and retry is not set).

        think_ns is how long the bot took to decide it, reported to the arena."""
        with self._lock:
            if pending.answered and not retry:
                return False
            pending.answered = True
            pending.action = action
            pending.tried.add(action)
        self.send(_answer_message(pending, action, think_ns))
        return True

    def settle(self, pending: _Pending) -> None:
        """The request is over (the arena played a fallback or the game ended): disarm its guard."""
        with self._lock:
            pending.answered = True

    def close(self) -> None:
        """End the request stream (a half-close once gRPC has sent what was queued)."""
        self._queue.put(_CLOSE)

    def _next_wait(self) -> float | None:
        with self._lock:
            guards = self._guards
            while guards and guards[0][2].answered:
                heapq.heappop(guards)
            if not guards:
                return None
            return guards[0][0] - self._monotonic()

    def _plan_wait(self) -> float:
        """How long the consumer waits for a message before it looks at the guards again: until
        the earliest guard, and at most _IDLE_WAIT; a guard armed meanwhile for sooner than
        that wakes it (watch)."""
        with self._lock:
            guards = self._guards
            while guards and guards[0][2].answered:
                heapq.heappop(guards)
            now = self._monotonic()
            wait = _IDLE_WAIT if not guards else min(guards[0][0] - now, _IDLE_WAIT)
            self._wake_at = now + wait
            return wait

    def _expired(self) -> list[_Pending]:
        fired = []
        with self._lock:
            now = self._monotonic()
            guards = self._guards
            while guards and guards[0][0] <= now:
                pending = heapq.heappop(guards)[2]
                if not pending.answered:
                    action = pending.fallback()
                    pending.answered = True
                    pending.action = action
                    pending.tried.add(action)
                    fired.append(pending)
        return fired

    def __iter__(self) -> Iterator[bytes]:
        get = self._queue.get
        while True:
            wait = self._plan_wait()
            item: object = None
            try:
                if wait > 0:
                    item = get(timeout=wait)
            except queue.Empty:
                pass
            if item is _CLOSE:
                return
            if item is not None:
                yield item  # type: ignore[misc]
                continue
            for pending in self._expired():
                log.warning(
                    "game %s request %s: no answer from the bot in time; answering %r for it",
                    pending.game_id,
                    pending.request_id,
                    pending.action,
                )
                yield _answer_message(pending, pending.action or "")


def _answer_message(pending: _Pending, action: str, think_ns: int | None = None) -> bytes:
    """The ConnectRequest with the answer, serialized."""
    return encode_answer(pending.game_id, pending.request_id, action, think_ns)


def _varint(n: int) -> bytes:
    out = bytearray()
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _string_field(tag: int, text: str) -> bytes:
    if not text:
        return b""  # proto3 leaves out a field at its default
    data = text.encode()
    return bytes((tag,)) + _varint(len(data)) + data


def encode_answer(game_id: str, request_id: str, action: str, think_ns: int | None = None) -> bytes:
    """``ConnectRequest(answer=Answer(game_id=..., request_id=..., action=...,
    think_time=think_ns)).SerializeToString()``, the same bytes, written by hand: building the
    two messages and the Duration and serializing them was a sixth of a fast bot's Python per
    decision (the Go SDK writes its answers by hand too). think_ns is not negative."""
    g, r, a = game_id.encode(), request_id.encode(), action.encode()
    if 0 < len(g) < 0x80 and 0 < len(r) < 0x80 and 0 < len(a) < 0x80:  # as the arena's are
        parts = [b"\x0a", _BYTE[len(g)], g, b"\x12", _BYTE[len(r)], r, b"\x1a", _BYTE[len(a)], a]
    else:
        parts = [_string_field(0x0A, game_id), _string_field(0x12, request_id), _string_field(0x1A, action)]
    if think_ns is not None:
        seconds, nanos = divmod(think_ns, 1_000_000_000)
        duration = (b"\x08" + _varint(seconds) if seconds else b"") + (b"\x10" + _varint(nanos) if nanos else b"")
        parts += (b"\x22", _BYTE[len(duration)], duration)
    body = b"".join(parts)
    n = len(body)
    return b"\x12" + (_BYTE[n] if n < 0x80 else _varint(n)) + body


_BYTE = [bytes((i,)) for i in range(0x80)]


class _BytesStub:
    """BotService's Connect on a grpcio channel, taking the outbox's messages as they are:
    serialized ConnectRequests (the generated stub would serialize messages)."""

    def __init__(self, channel: grpc.Channel) -> None:
        self.Connect: grpc.StreamStreamMultiCallable[bytes, bot_pb2.ConnectResponse] = channel.stream_stream(
            "/tapp.v1.BotService/Connect",
            request_serializer=None,
            response_deserializer=bot_pb2.ConnectResponse.FromString,
        )


class Executor(Protocol):
    """Where :class:`_Lanes` runs work: ``concurrent.futures.ThreadPoolExecutor`` by default;
    tests pass one that runs work only when told."""

    def submit(self, fn: Callable[[], None]) -> object: ...


class _Lanes:
    """Runs the bot's code: the jobs of one game in the order they were put, the jobs of
    different games at once on the executor's threads (at most one thread per game at a time).
    """

    def __init__(self, executor: Executor) -> None:
        self._executor = executor
        self._lock = threading.Lock()
        self._queues: dict[str, collections.deque[Callable[[], None]]] = {}
        self._idle = threading.Condition(self._lock)

    def put(self, key: str, job: Callable[[], None]) -> None:
        with self._lock:
            lane = self._queues.get(key)
            if lane is not None:  # the game's thread takes it after the jobs before it
                lane.append(job)
                return
            self._queues[key] = collections.deque([job])
        self._executor.submit(lambda: self._drain(key))

    def _drain(self, key: str) -> None:
        while True:
            with self._lock:
                lane = self._queues[key]
                if not lane:
                    del self._queues[key]
                    self._idle.notify_all()
                    return
                job = lane[0]
            try:
                job()
            except Exception:  # the hooks and decide catch the bot's own errors; this is ours
                log.exception("the SDK failed while handing a message to the bot")
            with self._lock:
                lane.popleft()

    def wait_idle(self, timeout: float) -> bool:
        """Wait until no job is left (or timeout seconds); True when none is."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while self._queues:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._idle.wait(left)
        return True


def _tls_settings(tls: bool | None, ca: str | None) -> tuple[bool, str | None]:
    """(TLS or not, the CA file) from the tls/ca arguments or $TAPP_TLS/$TAPP_CA. Without TLS
    the token travels in clear: fit for loopback only (as the Go SDK says)."""
    ca = ca or os.environ.get("TAPP_CA") or None
    if tls is None:
        text = os.environ.get("TAPP_TLS", "").strip().lower()
        if text not in ("", "0", "1", "true", "false"):
            raise ValueError(f"$TAPP_TLS is {text!r}: want 1 or 0")
        tls = text in ("1", "true")
    return bool(tls or ca), ca


def _tls_credentials(tls: bool | None, ca: str | None) -> grpc.ChannelCredentials | None:
    """grpcio's TLS credentials from the tls/ca arguments or $TAPP_TLS/$TAPP_CA; None for plain text."""
    use_tls, ca = _tls_settings(tls, ca)
    if not use_tls:
        return None
    roots = None
    if ca:
        with open(ca, "rb") as f:
            roots = f.read()
    return grpc.ssl_channel_credentials(root_certificates=roots)


TRANSPORTS = ("h2", "grpcio")


def _transport(transport: str | None, arena: str, credentials: grpc.ChannelCredentials | None) -> str:
    """The transport asked for (argument, else $TAPP_TRANSPORT), else h2 where it can go:
    grpcio for channel credentials or an address only a gRPC resolver reads."""
    asked = transport or os.environ.get("TAPP_TRANSPORT", "").strip().lower() or None
    if asked is not None and asked not in TRANSPORTS:
        source = "transport" if transport else "$TAPP_TRANSPORT"
        raise ValueError(f"{source} is {asked!r}: want one of {', '.join(TRANSPORTS)}")
    h2_fits = credentials is None and h2transport.supports(arena)
    if asked == "h2" and not h2_fits:
        if credentials is not None:
            why = "grpcio channel credentials"
        elif not h2transport.available():
            why = "this Python without hpack (pip install hpack)"
        else:
            why = f"the address {arena!r} (h2 takes host:port or unix:PATH)"
        raise ValueError(f"transport h2 cannot use {why}: use transport='grpcio'")
    if asked is None:
        return "h2" if h2_fits else "grpcio"
    return asked


def _env_int(key: str) -> int | None:
    """The positive integer in environment variable key; None when unset or empty."""
    text = os.environ.get(key, "").strip()
    if not text:
        return None
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"${key} is {text!r}, not a whole number") from None
    if value < 1:
        raise ValueError(f"${key} is {value}: it must be at least 1")
    return value



def margin(left: float, fraction: float = 0.1, floor: float = 0.02) -> float:
    """The reserve the SDK keeps before a deadline that is ``left`` seconds away: the larger of
    ``floor`` seconds and ``fraction`` of ``left`` (the Go SDK's rule too)."""
    return max(floor, left * fraction)


class Clock:
    """Where the SDK reads the time: the wall clock (the arena's deadlines are wall-clock
    timestamps) and a monotonic clock (what it waits by). Tests give the Client a fake one."""

    def time(self) -> float:
        return time.time()

    def monotonic(self) -> float:
        return time.monotonic()


def guard_times(
    deadline: Any, clock: Clock, fraction: float = 0.1, floor: float = 0.02
) -> tuple[float, float]:
    """(guard, deadline) on ``clock``'s monotonic scale for a request due at the wall-clock
    timestamp ``deadline`` (a ``google.protobuf.Timestamp``): the SDK answers for the bot at the
    guard, ``margin`` before the deadline."""
    left = deadline.seconds + deadline.nanos * 1e-9 - clock.time()
    due = clock.monotonic() + left
    return due - margin(left, fraction, floor), due


class Client:
    """Plays for one bot on one arena: connects, says hello, answers, reconnects and resumes.

    Args:
        bot: the bot (see :class:`tapp_bot.Bot`), or a function ``decide(request) -> str``.
        arena: "host:port" of the arena; default $TAPP_ARENA, else "localhost:7000".
        token: the bot's token; default $TAPP_TOKEN.
        name, version, capacity, stream_events: override the bot's own attributes in the Hello.
            The name defaults to $TAPP_BOT_NAME and the capacity to $TAPP_CAPACITY when set, as
            they are for a bot that a league launches (its file gives the name and capacity).
        reconnect: reconnect (with backoff) when the stream drops; resume the session within the
            arena's grace period.
        give_up_after: stop reconnecting (raise ConnectionLost) after this many seconds without a
            session; None retries forever.
        max_backoff: the longest wait between two connection attempts, in seconds.
        safety_margin: fraction of the time to a deadline kept in reserve: when the bot has not
            answered by then, the SDK answers a legal fallback itself. The reserve is the larger
            of ``min_margin`` and this fraction of the time the request leaves (default 0.1: a
            tenth of the time per decision, so a loaded host does not cost the bot strikes).
        min_margin: the smallest reserve in seconds (default 0.02).
        going_away_timeout: after the arena's GoingAway, how long to wait for it to end the
            stream before hanging up.
        clock: where deadlines are read and guards timed (default the system's clocks; tests
            pass a fake :class:`Clock`).
        concurrency: how many games the bot's code works on at once, each on a thread of its
            own (default the bot's ``concurrency`` attribute, else the capacity): a bot playing
            several tables thinks about all of them instead of one after the other. Calls for
            one game never overlap and keep their order; a bot whose state is shared between
            games (not in ``game.data``) must lock it, or say ``concurrency = 1``.
        executor: where that work runs (default a thread pool of ``concurrency`` threads;
            tests pass one that runs it only when told).
        inline: call the bot on the thread that reads the stream instead of the pool (default
            the bot's ``inline`` attribute): for bots whose every call takes microseconds.
        inline_limit: the CPU time an inline call may take, in seconds (default 5 ms, a quarter
            of the default ``min_margin``: the other tables' requests wait unread meanwhile, and
            their guards must still have time); after a longer one the bot is called on the
            pool's threads from then on.
        credentials: grpcio's TLS channel credentials (implies transport "grpcio"); None for a
            plain-text connection unless tls or ca.
        tls: connect with TLS, checking the arena's certificate against the system's roots;
            default $TAPP_TLS (1 or 0).
        ca: PEM file of the CA that signed the arena's certificate (a private CA, a self-signed
            arena); implies TLS. Default $TAPP_CA.
        transport: "h2", the SDK's own HTTP/2 client (the default: one thread reads the socket
            and every answer is written at once by the thread that has it), or "grpcio" (gRPC's
            runtime, which moves each message across three or four threads). Default
            $TAPP_TRANSPORT; h2 unless credentials are given or the address is a gRPC target
            name (``dns:///…``) rather than host:port or ``unix:PATH``.
    """

    def __init__(
        self,
        bot: Bot | DecideFunc,
        arena: str | None = None,
        token: str | None = None,
        *,
        name: str | None = None,
        version: str | None = None,
        capacity: int | None = None,
        stream_events: bool | None = None,
        reconnect: bool = True,
        give_up_after: float | None = None,
        max_backoff: float = 5.0,
        safety_margin: float = 0.1,
        min_margin: float = 0.02,
        going_away_timeout: float = 5.0,
        credentials: grpc.ChannelCredentials | None = None,
        tls: bool | None = None,
        ca: str | None = None,
        clock: Clock | None = None,
        concurrency: int | None = None,
        executor: Executor | None = None,
        inline: bool | None = None,
        inline_limit: float = 0.005,
        transport: str | None = None,
    ) -> None:
        if not isinstance(bot, Bot):
            bot = FunctionBot(bot)  # a decide(request) function, as run() takes
        self.bot = bot
        self.arena = arena or os.environ.get("TAPP_ARENA") or DEFAULT_ARENA
        token = token if token is not None else os.environ.get("TAPP_TOKEN")
        if not token:
            raise ValueError("no bot token: pass token=... or set TAPP_TOKEN (the arena gives one per bot)")
        self.name = name or os.environ.get("TAPP_BOT_NAME") or bot.name
        self.version = version or bot.version
        self.capacity = capacity or _env_int("TAPP_CAPACITY") or bot.capacity
        self.stream_events = bot.stream_events if stream_events is None else stream_events
        self.reconnect = reconnect
        self.give_up_after = give_up_after
        self.max_backoff = max_backoff
        self.safety_margin = safety_margin
        self.min_margin = min_margin
        self.going_away_timeout = going_away_timeout
        self._metadata = (("authorization", f"Bearer {token}"),)
        self.transport = _transport(transport, self.arena, credentials)
        self._credentials: grpc.ChannelCredentials | None = None
        self._tls: ssl.SSLContext | None = None
        if self.transport == "grpcio":
            self._credentials = credentials or _tls_credentials(tls, ca)
        else:
            use_tls, ca_file = _tls_settings(tls, ca)
            if use_tls:
                self._tls = h2transport.tls_context(ca_file)

        self.games: dict[str, Game] = {}
        self.session_id = ""
        self._resume_token = ""
        self._grace: float | None = None
        self._last_seq = 0
        self._clock = clock or Clock()
        self._open: dict[str, _Pending] = {}  # game id -> its latest decision request
        self._outbox = _Outbox(self._clock.monotonic)
        self._call: grpc.Call | h2transport.H2Call[bot_pb2.ConnectResponse] | None = None
        self._welcomed = False
        self._going_away = False
        self._stop = threading.Event()
        # The bot's code (decide and the hooks) runs on the lanes' threads, each game's in the
        # order its messages came, while the stream's thread reads on: a request that comes
        # while the bot thinks about another game is decided at once, and its guard is armed
        # at once in any case.
        self.concurrency = concurrency or getattr(bot, "concurrency", None) or self.capacity
        if self.concurrency < 1:
            raise ValueError(f"concurrency is {self.concurrency}: it must be at least 1")
        self._pool: ThreadPoolExecutor | None = None
        if executor is None:
            # It starts its threads when first given work: none for an inline bot that stays one.
            self._pool = ThreadPoolExecutor(max_workers=self.concurrency, thread_name_prefix="tapp-bot")
            executor = self._pool
        self._work = _Lanes(executor)
        # Whether the bot's calls run on the reading thread (see Bot.inline); cleared for good
        # by the first call that takes longer than inline_limit.
        self.inline = bot.inline if inline is None else inline
        self.inline_limit = inline_limit
        self._games_lock = threading.Lock()
        # A bot without an event hook of its own is not called for each event (several a decision).
        self._event_hook = None if type(bot).event is Bot.event else bot.event
        # ConnectResponse oneof name -> handler of that message
        self._handlers: dict[str, Callable[[Any], None]] = {
            "game_started": self._on_game_started,
            "event": self._on_events,
            "decision_request": self._on_decision,
            "answer_rejected": self._on_rejected,
            "fallback": self._on_fallback,
            "game_ended": self._on_game_ended,
            "snapshot": self._on_snapshot,
            "going_away": self._on_going_away,
        }

    # --- public ------------------------------------------------------------------------------

    def run(self) -> None:
        """Play until the arena says it is going away or :meth:`close` is called.

        Raises AuthError when the token is refused, ConnectionLost when the stream drops and
        reconnecting is off or gave up.
        """
        channel: grpc.Channel | None = None
        stub: _BytesStub | None = None
        if self.transport == "grpcio":
            if self._credentials is not None:
                channel = grpc.secure_channel(self.arena, self._credentials, options=_CHANNEL_OPTIONS)
            else:
                channel = grpc.insecure_channel(self.arena, options=_CHANNEL_OPTIONS)
            stub = _BytesStub(channel)
        backoff = 0.1
        lost_since: float | None = None
        problems = 0  # connections in a row that failed with a ConnectError's cause
        try:
            while not self._stop.is_set():
                resuming = bool(self._resume_token)
                try:
                    if self._session(stub):
                        return
                    reason = "the arena closed the stream"
                except grpc.RpcError as err:
                    code = err.code()
                    if self._stop.is_set():
                        return
                    if code in _FATAL_CODES:
                        raise AuthError(f"arena {self.arena} refused the bot: {code.name}: {err.details()}") from None
                    reason = f"{code.name}: {err.details()}"
                    fix = connect_problem(err.details() or "")
                    problems = problems + 1 if fix else 0
                    if fix and problems >= CONNECT_PROBLEM_TRIES:
                        raise ConnectError(f"cannot connect to the arena at {self.arena}: {fix} "
                                           f"(gave up after {problems} tries: {reason})") from None
                    if resuming and not self._welcomed and code in _RESUME_REFUSED_CODES:
                        log.warning("arena refused to resume the session (%s); starting a new one", reason)
                        self._forget_session()
                        continue
                if self._welcomed:
                    backoff = 0.1
                    lost_since = time.monotonic()
                elif lost_since is None:
                    lost_since = time.monotonic()
                if not self.reconnect:
                    raise ConnectionLost(reason)
                away = time.monotonic() - lost_since
                if self.give_up_after is not None and away > self.give_up_after:
                    raise ConnectionLost(f"{reason}; gave up after {away:.1f} s")
                if self._resume_token and self._grace is not None and away > self._grace:
                    log.warning("grace period of %.1f s is over; the next connection starts a new session", self._grace)
                    self._forget_session()
                delay = backoff * random.uniform(0.5, 1.0)
                log.warning("connection to %s lost (%s); reconnecting in %.2f s", self.arena, reason, delay)
                if self._stop.wait(delay):
                    return
                backoff = min(backoff * 2, self.max_backoff)
        finally:
            if channel is not None:
                channel.close()
            # What the bot was handed still runs (game_ended hooks, say), unless decide hangs.
            self._work.wait_idle(self.going_away_timeout)
            if self._pool is not None:
                self._pool.shutdown(wait=False)

    def close(self) -> None:
        """Stop playing: ends the stream; run() returns. Safe from any thread."""
        self._stop.set()
        call = self._call
        if call is not None:
            call.cancel()

    # --- the stream --------------------------------------------------------------------------

    def _hello(self) -> bot_pb2.ConnectRequest:
        return bot_pb2.ConnectRequest(
            hello=bot_pb2.Hello(
                name=self.name,
                version=self.version,
                capacity=self.capacity,
                resume_token=self._resume_token,
                last_seq=self._last_seq if self._resume_token else 0,
                stream_events=self.stream_events,
            )
        )

    def _session(self, stub: _BytesStub | None) -> bool:
        """One stream, from Hello to its end. True when play is over (GoingAway or close())."""
        if stub is None:
            return self._h2_session()
        outbox = self._outbox = _Outbox(self._clock.monotonic)
        self._welcomed = False
        self._going_away = False
        outbox.send(self._hello().SerializeToString())
        call = stub.Connect(iter(outbox), metadata=self._metadata)
        self._call = call
        timer: threading.Timer | None = None
        try:
            if self._stop.is_set():
                return True
            for message in call:
                self._dispatch(message)
                if self._going_away and timer is None:
                    outbox.close()  # tell the arena we are done; read what it still sends
                    timer = threading.Timer(self.going_away_timeout, call.cancel)
                    timer.daemon = True
                    timer.start()
            return self._going_away or self._stop.is_set()
        except grpc.RpcError:
            if self._going_away or self._stop.is_set():
                return True
            raise
        finally:
            if timer is not None:
                timer.cancel()
            outbox.close()
            call.cancel()
            self._call = None

    def _h2_session(self) -> bool:
        """_session on the SDK's own transport: this thread reads the socket and dispatches; the
        bot's answers are written by the threads that have them, the guards' fallbacks by the
        outbox's pump thread."""
        outbox = self._outbox = _Outbox(self._clock.monotonic)
        self._welcomed = False
        self._going_away = False
        call = h2transport.H2Call(
            self.arena,
            "/tapp.v1.BotService/Connect",
            self._metadata,
            bot_pb2.ConnectResponse.FromString,
            tls=self._tls,
            keepalive_time=_KEEPALIVE_TIME,
            keepalive_timeout=_KEEPALIVE_TIMEOUT,
            max_message=_MAX_MESSAGE,
        )
        self._call = call
        timer: threading.Timer | None = None
        pump: threading.Thread | None = None
        try:
            if self._stop.is_set():
                return True
            call.connect()
            outbox.attach(call.send)
            outbox.send(self._hello().SerializeToString())
            pump = threading.Thread(target=outbox.pump, args=(call.close_send,), name="tapp-guard", daemon=True)
            pump.start()
            for message in call:
                self._dispatch(message)
                if self._going_away and timer is None:
                    outbox.close()  # tell the arena we are done; read what it still sends
                    timer = threading.Timer(self.going_away_timeout, call.cancel)
                    timer.daemon = True
                    timer.start()
            return self._going_away or self._stop.is_set()
        except grpc.RpcError:
            if self._going_away or self._stop.is_set():
                return True
            raise
        finally:
            if timer is not None:
                timer.cancel()
            outbox.close()
            call.cancel()
            if pump is not None:
                pump.join(1.0)
            self._call = None

    def _later(self, game_id: str, fn: Callable[..., None], *args: object) -> None:
        """Run fn(*args) for a game on the bot's threads, after everything handed to them for
        that game before; for an inline bot, at once on this thread."""
        if self.inline:
            self._inline(fn, args)
            return
        self._work.put(game_id, lambda: fn(*args))

    def _inline(self, fn: Callable[..., None], args: tuple[object, ...]) -> None:
        """Run an inline bot's job on the reading thread; after one slower than the limit, hand
        the bot's calls to its threads from then on (the lanes are empty: nothing was handed to
        them while inline, so every game's calls keep their order).

        Slower is more than the limit of this thread's CPU time, not of real time: a busy host
        stalls a fast call for tens, even hundreds of milliseconds now and then (measured here),
        and would stall the reading thread of a bot on its own threads as much. So a bot that
        waits (sleeps, I/O, locks) is not caught: it must not say it is inline.

        A thread cannot use more CPU time than the real time that passes, so the CPU time is
        read at the end only when the call took longer than the limit in real time
        (perf_counter_ns costs a sixth of the thread's CPU clock, a system call): nearly every
        call ends without it, and every call that used more CPU than the limit is still
        caught, measured exactly."""
        limit = self.inline_limit * 1e9
        cpu = _thread_time_ns()
        wall = _perf_counter_ns()
        try:
            fn(*args)
        except Exception:  # the hooks and decide catch the bot's own errors; this is ours
            log.exception("the SDK failed while handing a message to the bot")
        if _perf_counter_ns() - wall <= limit:
            return
        cpu = _thread_time_ns() - cpu
        if cpu > limit:
            self.inline = False
            log.warning(
                "bot %s is inline but one of its calls took %.1f ms of CPU (the limit is %.1f ms) "
                "while every other table's requests waited; calling it on its own threads from now on",
                self.name,
                cpu * 1e-6,
                self.inline_limit * 1e3,
            )

    def _dispatch(self, message: bot_pb2.ConnectResponse) -> None:
        kind = message.WhichOneof("message")
        if kind == "welcome":
            self._on_welcome(message.welcome)
            self._last_seq = max(self._last_seq, message.seq)
            return
        seq = message.seq
        if seq:
            if seq <= self._last_seq:
                log.debug("skipping message seq %d (already seen up to %d)", seq, self._last_seq)
                return
            self._last_seq = seq
        handler = self._handlers.get(kind or "")
        if handler is None:
            log.warning("ignoring an unknown message from the arena: %s", kind)
            return
        handler(getattr(message, kind))

    def _forget_session(self) -> None:
        self._resume_token = ""
        self._last_seq = 0
        self._grace = None
        self._open.clear()
        with self._games_lock:
            games = list(self.games)
        if games:
            log.warning("dropping %d running game(s) of the lost session", len(games))
        for game_id in games:  # on each game's lane: after what it was handed before
            self._later(game_id, self._drop_game, game_id)

    def _drop_game(self, game_id: str) -> None:
        with self._games_lock:
            self.games.pop(game_id, None)

    # --- messages ----------------------------------------------------------------------------

    def _on_welcome(self, welcome: bot_pb2.Welcome) -> None:
        self._welcomed = True
        if welcome.resumed:
            log.info("resumed session %s on %s", welcome.session_id, self.arena)
        else:
            if self._resume_token or self._open:
                log.warning("the arena started a new session instead of resuming the old one")
            self._forget_session()  # a new session starts from nothing; its seq starts again
            log.info(
                "connected to %s (arena %s) as %s %s, capacity %d, session %s",
                self.arena,
                welcome.arena_version or "?",
                self.name,
                self.version,
                self.capacity,
                welcome.session_id,
            )
        self.session_id = welcome.session_id
        self._resume_token = welcome.resume_token
        self._grace = welcome.grace.seconds + welcome.grace.nanos * 1e-9 if welcome.HasField("grace") else None

    def _game(self, game_id: str) -> Game:
        game = self.games.get(game_id)  # a dict's get is atomic: the lock only to add one
        if game is not None:
            return game
        with self._games_lock:
            game = self.games.get(game_id)
            if game is None:
                game = self.games[game_id] = Game(game_id)
            return game

    # Game state (self.games) and the bot's hooks belong to the bot's threads: the handlers
    # below pass them to the game's lane with _later; the stream's thread keeps only the open
    # requests.

    def _on_game_started(self, started: bot_pb2.GameStarted) -> None:
        self._later(started.game_id, self._game_started, started)

    def _game_started(self, started: bot_pb2.GameStarted) -> None:
        game = self._game(started.game_id)
        game.started = started
        log.debug("game %s started: seat %d of %s", started.game_id, started.seat, list(started.players))
        self._hook(self.bot.game_started, game)

    def _on_events(self, notice: bot_pb2.EventNotice) -> None:
        self._later(notice.game_id, lambda: self._add_events(self._game(notice.game_id), notice.events))

    def _add_events(self, game: Game, events: Sequence[game_pb2.GameEvent]) -> None:
        log_ = game.events
        hook = self._event_hook
        if hook is None and (not log_ or events[0].index > log_[-1].index):
            # A batch comes in the order of the game's events (bot.proto), so when its first is
            # new they all are: appended at once, not read one by one (a third of the cost).
            log_.extend(events)
            return
        for event in events:
            if log_ and event.index <= log_[-1].index:
                continue  # already seen (sent again after a resume)
            log_.append(event)
            if hook is not None:
                self._hook(hook, game, event)

    # The decision path reads each field of the request once: every read of a protobuf field
    # from Python builds a new object (a list of the legal actions read twice cost as much as
    # the bot's random choice).

    def _on_decision(self, proto: bot_pb2.DecisionRequest) -> None:
        game_id = proto.game_id
        request_id = proto.request_id
        legal: list[str] = proto.legal[:]  # a list: half the cost of list(proto.legal)
        guard = deadline = None
        if proto.HasField("deadline"):  # guard_times, written out: this is once a decision
            due = proto.deadline
            clock = self._clock
            left = due.seconds + due.nanos * 1e-9 - clock.time()
            deadline = clock.monotonic() + left
            guard = deadline - max(self.min_margin, left * self.safety_margin)
        previous = self._open.get(game_id)
        pending = self._open[game_id] = _Pending(game_id, request_id, legal, guard, deadline)
        if previous is not None and previous.request_id == request_id and previous.action in legal:
            # The same request again (after a resume): repeat the answer, do not ask again.
            self._outbox.answer(pending, previous.action)
            return
        self._outbox.watch(pending)
        if self.inline:
            self._inline(self._decide, (proto, pending))
        else:
            self._work.put(game_id, lambda: self._decide(proto, pending))

    def _decide(self, proto: bot_pb2.DecisionRequest, pending: _Pending) -> None:
        game = self._game(pending.game_id)
        events = proto.events
        if events:
            self._add_events(game, events)
        game.request = proto
        observation = game.observation = proto.observation
        legal, guard = pending.legal, pending.guard
        if pending.answered:  # the guard answered while earlier work kept the bot busy
            log.warning(
                "game %s request %s: the bot was busy until after the guard; %r was sent for it",
                pending.game_id,
                pending.request_id,
                pending.action,
            )
            return
        action: object = None
        started = _perf_counter_ns()
        try:
            action = self.bot.decide(Request(game, proto, guard, self._clock.monotonic, legal=legal, observation=observation))
        except Exception:
            log.exception("game %s request %s: the bot raised; answering a legal fallback", pending.game_id, pending.request_id)
        if action is not None and not isinstance(action, str):
            action = str(action)  # e.g. a cards.Card
        if legal and action not in legal:
            if action is not None:
                log.warning(
                    "game %s request %s: the bot chose %r, which is not legal (%s); answering a legal fallback",
                    pending.game_id,
                    pending.request_id,
                    action,
                    " ".join(legal),
                )
            action = legal[0]
        think_ns = _perf_counter_ns() - started
        if not self._outbox.answer(pending, action or "", think_ns=think_ns):
            log.warning(
                "game %s request %s: the bot answered %r too late; %r was sent for it",
                pending.game_id,
                pending.request_id,
                action,
                pending.action,
            )

    def _on_rejected(self, rejected: bot_pb2.AnswerRejected) -> None:
        log.warning(
            "game %s request %s: the arena rejected the answer: %s %s",
            rejected.game_id,
            rejected.request_id,
            rejected.rule_id,
            rejected.reason,
        )
        pending = self._open.get(rejected.game_id)
        if pending is None or pending.request_id != rejected.request_id:
            return
        if rejected.rule_id.startswith("PROTO-UNKNOWN"):
            return  # the request is no longer open
        if pending.deadline is not None and self._clock.monotonic() >= pending.deadline:
            return
        action = pending.fallback()
        if action in pending.tried:
            log.error("game %s request %s: every legal action was rejected", pending.game_id, pending.request_id)
            return
        log.info("game %s request %s: retrying with %r", pending.game_id, pending.request_id, action)
        self._outbox.answer(pending, action, retry=True)

    def _on_fallback(self, fallback: bot_pb2.Fallback) -> None:
        log.warning(
            "game %s request %s: answer late or missing, the arena played %r; strikes: %d%s",
            fallback.game_id,
            fallback.request_id,
            fallback.action,
            fallback.strikes,
            " (match forfeited)" if fallback.forfeited else "",
        )
        pending = self._open.get(fallback.game_id)
        if pending is not None and pending.request_id == fallback.request_id:
            self._outbox.settle(pending)
        self._later(fallback.game_id, lambda: self._hook(self.bot.fallback, self._game(fallback.game_id), fallback))

    def _on_game_ended(self, ended: bot_pb2.GameEnded) -> None:
        pending = self._open.pop(ended.game_id, None)
        if pending is not None:
            self._outbox.settle(pending)
        self._later(ended.game_id, self._game_ended, ended)

    def _game_ended(self, ended: bot_pb2.GameEnded) -> None:
        with self._games_lock:
            game = self.games.pop(ended.game_id, None) or Game(ended.game_id)
        if ended.events:
            self._add_events(game, ended.events)
        game.ended = ended
        log.debug("game %s ended%s", ended.game_id, " (aborted)" if ended.aborted else "")
        self._hook(self.bot.game_ended, game, ended.settlement)

    def _on_snapshot(self, snapshot: bot_pb2.Snapshot) -> None:
        running = set()
        pending: list[bot_pb2.DecisionRequest] = []
        for entry in snapshot.games:
            game_id = entry.started.game_id or entry.pending.game_id
            if game_id:
                running.add(game_id)
                if entry.HasField("pending"):
                    pending.append(entry.pending)
        for game_id in [g for g in self._open if g not in running]:
            del self._open[game_id]
        log.info("snapshot: %d running game(s), %d waiting for an answer", len(running), len(pending))
        for entry in snapshot.games:
            game_id = entry.started.game_id or entry.pending.game_id
            if game_id:
                self._later(game_id, self._resume_game, game_id, entry)
        with self._games_lock:
            gone = [g for g in self.games if g not in running]
        for game_id in gone:
            log.info("game %s is no longer running after the resume; dropping it", game_id)
            self._later(game_id, self._drop_game, game_id)
        for request in pending:
            self._on_decision(request)

    def _resume_game(self, game_id: str, entry: bot_pb2.Snapshot.Game) -> None:
        game = self._game(game_id)
        if entry.HasField("started"):
            game.started = entry.started
        if entry.HasField("observation"):
            game.observation = entry.observation

    def _on_going_away(self, going_away: bot_pb2.GoingAway) -> None:
        log.info("the arena is going away: %s", going_away.reason or "(no reason given)")
        self._going_away = True

    def _hook(self, hook: Callable[..., None], *args: object) -> None:
        try:
            hook(*args)
        except Exception:
            log.exception("bot hook %s raised", getattr(hook, "__name__", hook))


def run(
    bot: Bot | DecideFunc,
    arena: str | None = None,
    token: str | None = None,
    *,
    game_ended: GameEndedFunc | None = None,
    name: str | None = None,
    version: str | None = None,
    capacity: int | None = None,
    **options: object,
) -> None:
    """Connect ``bot`` to the arena and play until the arena goes away.

    ``bot`` is a :class:`Bot`, or a function ``decide(request) -> str`` (then ``game_ended`` may
    be a second function ``game_ended(game, settlement)``). ``arena`` defaults to $TAPP_ARENA or
    "localhost:7000", ``token`` to $TAPP_TOKEN. Other keyword options go to :class:`Client`.
    """
    if not isinstance(bot, Bot):
        bot = FunctionBot(bot, game_ended)
    elif game_ended is not None:
        raise TypeError("game_ended= is for function bots; override Bot.game_ended instead")
    client = Client(bot, arena, token, name=name, version=version, capacity=capacity, **options)  # type: ignore[arg-type]
    client.run()


__all__ = ["AuthError", "Client", "ConnectError", "ConnectionLost", "connect_problem", "run"]
