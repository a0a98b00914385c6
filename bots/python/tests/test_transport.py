"""The two transports: which one a Client takes, and what both carry that the protocol's
small messages never test — messages larger than HTTP/2's flow-control windows and frames,
both ways, and an error status with a message that needs escaping. The SDK's own transport
also notices a connection that went silent (keepalive)."""

from __future__ import annotations

import socket
import threading
import time

import grpc
import pytest
from conftest import TOKEN, BotRunner, FakeArena

import tapp_bot
from tapp_bot import h2transport
from tapp_bot.proto.tapp.v1 import bot_pb2


def decide_last(request: tapp_bot.Request) -> str:
    return request.legal[-1]


def test_the_sdks_own_transport_is_the_default(monkeypatch):
    monkeypatch.delenv("TAPP_TRANSPORT", raising=False)
    assert tapp_bot.Client(decide_last, "127.0.0.1:7000", "t").transport == "h2"
    assert tapp_bot.Client(decide_last, "[::1]:7000", "t").transport == "h2"
    assert tapp_bot.Client(decide_last, "arena.example.org", "t", tls=True).transport == "h2"


def test_grpcio_where_only_it_can_go_or_when_asked(monkeypatch):
    monkeypatch.delenv("TAPP_TRANSPORT", raising=False)
    # gRPC target names and channel credentials are grpcio's.
    assert tapp_bot.Client(decide_last, "dns:///arena:7000", "t").transport == "grpcio"
    assert tapp_bot.Client(decide_last, "ipv4:10.0.0.1:7000", "t").transport == "grpcio"
    creds = grpc.ssl_channel_credentials()
    assert tapp_bot.Client(decide_last, "arena:7000", "t", credentials=creds).transport == "grpcio"
    assert tapp_bot.Client(decide_last, "arena:7000", "t", transport="grpcio").transport == "grpcio"
    monkeypatch.setenv("TAPP_TRANSPORT", "grpcio")
    assert tapp_bot.Client(decide_last, "arena:7000", "t").transport == "grpcio"
    # The argument wins over the environment.
    assert tapp_bot.Client(decide_last, "arena:7000", "t", transport="h2").transport == "h2"


def test_a_transport_that_cannot_be_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("TAPP_TRANSPORT", "http3")
    with pytest.raises(ValueError, match=r"\$TAPP_TRANSPORT is 'http3'"):
        tapp_bot.Client(decide_last, "arena:7000", "t")
    monkeypatch.delenv("TAPP_TRANSPORT")
    with pytest.raises(ValueError, match="transport='grpcio'"):
        tapp_bot.Client(decide_last, "dns:///arena:7000", "t", transport="h2")


def test_without_hpack_the_sdk_plays_on_grpcio(monkeypatch):
    # An SDK copied into a runtime without its hpack dependency still plays, on grpcio.
    monkeypatch.delenv("TAPP_TRANSPORT", raising=False)
    monkeypatch.setattr(h2transport, "hpack", None)
    assert tapp_bot.Client(decide_last, "127.0.0.1:7000", "t").transport == "grpcio"
    with pytest.raises(ValueError, match="pip install hpack"):
        tapp_bot.Client(decide_last, "127.0.0.1:7000", "t", transport="h2")


@pytest.mark.parametrize(
    "address, expected",
    [("a:1", ("a", 1)), ("[::1]:7000", ("::1", 7000)), ("host", ("host", 443)), ("dns:///a:1", None),
     ("::1", None), ("a:b", None), ("a:1,b:2", None)],
)
def test_addresses_the_sdks_transport_reads(address, expected):
    assert h2transport.split_address(address) == expected


@pytest.mark.usefixtures("transport")
def test_a_bot_plays_over_a_unix_socket(tmp_path, monkeypatch):
    # A hosted bot's arena is a Unix socket (docs/hosting.md): the SDK's own transport dials it too.
    monkeypatch.delenv("TAPP_TRANSPORT", raising=False)
    path = tmp_path / "arena.sock"
    arena = FakeArena(address=f"unix://{path}")
    client = tapp_bot.Client(decide_last, f"unix://{path}", TOKEN)
    assert client.transport == "h2"
    runner = BotRunner(client)
    try:
        conn = arena.accept()
        assert conn.recv_hello().name
        assert conn.metadata["authorization"] == f"Bearer {TOKEN}"
        conn.welcome()
        conn.start_game("g1")
        conn.ask("g1", "r1", ["C7", "D6"])
        assert conn.recv_answer().action == "D6"
    finally:
        client.close()
        runner.join()
        arena.stop()


@pytest.mark.usefixtures("transport")
def test_messages_larger_than_the_windows_go_both_ways(arena, start_bot):
    # 2 MB each way: more than HTTP/2's default windows (64 KiB), the arena's (1 MiB) and many
    # frames (16 KiB): the bot's answer must wait for the arena's window updates, and the
    # request needs this side's.
    big = "S" + "x" * 2_000_000
    start_bot(decide_last)
    conn = arena.accept()
    conn.recv_hello()
    conn.welcome()
    conn.start_game("g1")
    conn.ask("g1", "r1", ["C7", big])
    answer = conn.recv_answer(timeout=20)
    assert answer.request_id == "r1" and answer.action == big
    conn.ask("g1", "r2", ["C7", "D6"])  # the stream goes on after it
    assert conn.recv_answer().action == "D6"


@pytest.mark.usefixtures("transport")
def test_an_error_status_comes_with_its_message(arena, start_bot):
    runner = start_bot(decide_last, reconnect=False)
    conn = arena.accept()
    conn.recv_hello()
    conn.end(grpc.StatusCode.RESOURCE_EXHAUSTED, "too many bots: 100% of 8 seats – try later")
    runner.join()
    assert isinstance(runner.error, tapp_bot.ConnectionLost)
    assert str(runner.error) == "RESOURCE_EXHAUSTED: too many bots: 100% of 8 seats – try later"


def test_a_silent_connection_is_noticed_by_keepalive():
    # A peer that accepts and then says nothing, not even HTTP/2's settings: a dead arena
    # behind a live socket. The call pings, and gives up when no answer comes.
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        accepted: list[socket.socket] = []
        threading.Thread(target=lambda: accepted.append(server.accept()[0]), daemon=True).start()
        call = h2transport.H2Call(
            f"127.0.0.1:{server.getsockname()[1]}", "/tapp.v1.BotService/Connect", [], bot_pb2.ConnectResponse.FromString,
            keepalive_time=0.2, keepalive_timeout=0.2,
        )
        call.connect()
        start = time.monotonic()
        with pytest.raises(h2transport.StreamError, match="keepalive ping") as err:
            list(call)
        assert err.value.code() == grpc.StatusCode.UNAVAILABLE
        assert time.monotonic() - start < 10
        for s in accepted:
            s.close()


@pytest.mark.parametrize("answer", [b"HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTP request to an HTTPS server.\n",
                                    b"\x15\x03\x01\x00\x02\x02\x46"])
def test_plain_text_at_a_tls_arena_is_named(answer):
    # What a TLS server answers to plain text (Go's writes HTTP/1's 400, others a TLS alert).
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()

        def answer_all() -> None:
            while True:
                try:
                    conn = server.accept()[0]
                except OSError:
                    return
                conn.recv(1 << 16)
                conn.sendall(answer)
                conn.close()

        threading.Thread(target=answer_all, daemon=True).start()
        client = tapp_bot.Client(decide_last, f"127.0.0.1:{server.getsockname()[1]}", TOKEN, transport="h2")
        with pytest.raises(tapp_bot.ConnectError, match=r"serves TLS.*tls=True.*gave up after 3 tries"):
            client.run()


def test_a_cancelled_call_ends_its_reader():
    arena = FakeArena()
    try:
        call = h2transport.H2Call(
            arena.address, "/tapp.v1.BotService/Connect", [("authorization", f"Bearer {TOKEN}")],
            bot_pb2.ConnectResponse.FromString,
        )
        call.connect()
        call.send(bot_pb2.ConnectRequest(hello=bot_pb2.Hello(name="x")).SerializeToString())
        conn = arena.accept()
        assert conn.recv_hello().name == "x"
        conn.send(game_started=bot_pb2.GameStarted(game_id="g1", players=["a"], hand=["HA"]))
        got: list[object] = []

        def read() -> None:
            try:
                for message in call:
                    got.append(message)
            except h2transport.StreamError as err:
                got.append(err.code())

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        deadline = time.monotonic() + 5
        while not got and time.monotonic() < deadline:
            time.sleep(0.01)
        call.cancel()
        reader.join(5)
        assert not reader.is_alive()
        assert isinstance(got[0], bot_pb2.ConnectResponse) and got[0].game_started.game_id == "g1"
        assert got[-1] == grpc.StatusCode.CANCELLED
        conn.expect_eof()
    finally:
        arena.stop()
