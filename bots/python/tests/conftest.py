"""A scripted fake arena: a real gRPC server implementing BotService on a loopback port.

Each test drives the arena side by hand: accept a connection, read what the bot sent, send
arena messages, end the stream. The bot runs in a background thread with the real SDK.
"""

from __future__ import annotations

import itertools
import queue
import threading
import time
from collections.abc import Iterator
from concurrent import futures
from typing import Any

import grpc
import pytest
from google.protobuf import duration_pb2, timestamp_pb2

import tapp_bot
from tapp_bot.proto.tapp.v1 import bot_pb2, bot_pb2_grpc, game_pb2

TOKEN = "test-token"

_END = object()


class Conn:
    """One bot stream as the arena sees it."""

    def __init__(self, context: grpc.ServicerContext, arena: FakeArena) -> None:
        self.context = context
        self.arena = arena
        self.metadata = dict(context.invocation_metadata())
        self.inbox: queue.Queue[bot_pb2.ConnectRequest | None] = queue.Queue()
        self.outbox: queue.Queue[object] = queue.Queue()

    def recv(self, timeout: float = 5.0) -> bot_pb2.ConnectRequest:
        try:
            message = self.inbox.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"the bot sent nothing within {timeout} s") from None
        assert message is not None, "the bot closed its side of the stream"
        return message

    def recv_hello(self) -> bot_pb2.Hello:
        message = self.recv()
        assert message.WhichOneof("message") == "hello", message
        return message.hello

    def recv_answer(self, timeout: float = 5.0) -> bot_pb2.Answer:
        message = self.recv(timeout)
        assert message.WhichOneof("message") == "answer", message
        return message.answer

    def expect_silence(self, seconds: float) -> None:
        try:
            message = self.inbox.get(timeout=seconds)
        except queue.Empty:
            return
        raise AssertionError(f"expected nothing from the bot, got {message}")

    def expect_eof(self, timeout: float = 5.0) -> None:
        try:
            message = self.inbox.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError("the bot did not close its side of the stream") from None
        assert message is None, f"expected the end of the stream, got {message}"

    def send(self, seq: int | None = None, **fields: Any) -> int:
        """Send one arena message, e.g. send(game_started=...); returns its seq."""
        if seq is None:
            seq = next(self.arena.seq)
        self.outbox.put(bot_pb2.ConnectResponse(seq=seq, **fields))
        return seq

    def welcome(self, resumed: bool = False, grace_s: int = 30, seq: int | None = None) -> None:
        self.send(
            seq=seq,
            welcome=bot_pb2.Welcome(
                session_id="s-1",
                resume_token="resume-1",
                resumed=resumed,
                arena_version="fake",
                grace=duration_pb2.Duration(seconds=grace_s),
            ),
        )

    def start_game(self, game_id: str, seat: int = 0, hand: tuple[str, ...] = ("HA", "C7", "D6")) -> None:
        self.send(game_started=started(game_id, seat, hand))

    def event(self, game_id: str, index: int, action: str = "pass", seat: int = 1, seq: int | None = None) -> None:
        self.send(seq=seq, event=bot_pb2.EventNotice(game_id=game_id, events=[bid_event(index, action, seat)]))

    def ask(self, game_id: str, request_id: str, legal: list[str], seconds: float = 5.0, **kw: Any) -> float:
        """Send a decision request; returns its deadline as time.time()."""
        deadline = time.time() + seconds
        self.send(decision_request=decision(game_id, request_id, legal, deadline, **kw))
        return deadline

    def end(self, code: grpc.StatusCode | None = None, details: str = "") -> None:
        """End the stream: OK, or an error status (e.g. UNAVAILABLE for a dropped stream)."""
        self.outbox.put((_END, code, details))


def bid_event(index: int, action: str = "pass", seat: int = 1) -> game_pb2.GameEvent:
    return game_pb2.GameEvent(index=index, kind=game_pb2.EVENT_KIND_BID, seat=seat, action=action)


def started(game_id: str, seat: int = 0, hand: tuple[str, ...] = ("HA", "C7", "D6")) -> bot_pb2.GameStarted:
    return bot_pb2.GameStarted(
        game_id=game_id, match_id="m-1", rules="modern players=3", seat=seat, players=["a", "b", "c"], hand=hand
    )


def decision(
    game_id: str,
    request_id: str,
    legal: list[str],
    deadline: float,
    kind: game_pb2.Decision = game_pb2.DECISION_CARD,
    hand: tuple[str, ...] = ("HA", "C7", "D6"),
    events: tuple[game_pb2.GameEvent, ...] = (),
    overage: float | None = None,
) -> bot_pb2.DecisionRequest:
    ts = timestamp_pb2.Timestamp()
    ts.FromNanoseconds(int(deadline * 1e9))
    request = bot_pb2.DecisionRequest(
        game_id=game_id,
        request_id=request_id,
        decision=kind,
        legal=legal,
        deadline=ts,
        observation=game_pb2.Observation(seat=0, hand=hand, decision=kind),
        events=events,
    )
    if overage is not None:
        request.overage_left.FromNanoseconds(int(overage * 1e9))
    return request


class FakeArena(bot_pb2_grpc.BotServiceServicer):
    def __init__(self, port: int = 0, address: str | None = None) -> None:
        self.connections: queue.Queue[Conn] = queue.Queue()
        self.seq = itertools.count(1)
        self.server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
        bot_pb2_grpc.add_BotServiceServicer_to_server(self, self.server)
        self.port = self.server.add_insecure_port(address or f"127.0.0.1:{port}")
        self.address = address or f"127.0.0.1:{self.port}"
        self.server.start()

    def accept(self, timeout: float = 5.0) -> Conn:
        try:
            return self.connections.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no bot connected within {timeout} s") from None

    def Connect(
        self, request_iterator: Iterator[bot_pb2.ConnectRequest], context: grpc.ServicerContext
    ) -> Iterator[bot_pb2.ConnectResponse]:
        conn = Conn(context, self)
        threading.Thread(target=self._pump, args=(request_iterator, conn), daemon=True).start()
        self.connections.put(conn)
        while context.is_active():
            try:
                item = conn.outbox.get(timeout=0.05)
            except queue.Empty:
                continue
            if isinstance(item, tuple) and item[0] is _END:
                if item[1] is not None:
                    context.abort(item[1], item[2])
                return
            yield item  # type: ignore[misc]

    @staticmethod
    def _pump(requests: Iterator[bot_pb2.ConnectRequest], conn: Conn) -> None:
        try:
            for request in requests:
                conn.inbox.put(request)
        except Exception:  # the stream was cancelled, however grpc says it  # noqa: BLE001, S110
            pass
        conn.inbox.put(None)

    def stop(self) -> None:
        self.server.stop(grace=None)


@pytest.fixture(params=tapp_bot.client.TRANSPORTS)
def transport(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each transport in turn ($TAPP_TRANSPORT, which bots started as programs see too): the
    tests of the stream use it, so that what the SDK promises holds on both."""
    name: str = request.param
    monkeypatch.setenv("TAPP_TRANSPORT", name)
    return name


@pytest.fixture
def arena() -> Iterator[FakeArena]:
    fake = FakeArena()
    yield fake
    fake.stop()


class BotRunner:
    """Runs a Client in a background thread and remembers how run() ended."""

    def __init__(self, client: tapp_bot.Client) -> None:
        self.client = client
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.client.run()
        except BaseException as err:  # noqa: BLE001 (reported to the test)
            self.error = err

    def join(self, timeout: float = 5.0) -> None:
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "run() did not return"


@pytest.fixture
def start_bot(arena: FakeArena) -> Iterator[Any]:
    runners: list[BotRunner] = []

    def start(bot: tapp_bot.Bot, **options: object) -> BotRunner:
        options.setdefault("token", TOKEN)
        client = tapp_bot.Client(bot, arena.address, **options)  # type: ignore[arg-type]
        runner = BotRunner(client)
        runners.append(runner)
        return runner

    yield start
    for runner in runners:
        runner.client.close()
        runner.thread.join(5)
