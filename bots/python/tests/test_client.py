"""The SDK against a scripted fake arena over real gRPC on loopback."""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
import threading
import time
from typing import Any

import grpc
import pytest
from conftest import TOKEN, FakeArena, bid_event, decision, started

import tapp_bot
from tapp_bot.proto.tapp.v1 import bot_pb2, game_pb2

# Every test here runs on both transports (conftest.transport).
pytestmark = pytest.mark.usefixtures("transport")


class RecordingBot(tapp_bot.Bot):
    """Plays the last legal action and records everything the SDK hands it."""

    name = "recorder"
    version = "1.2.3"
    capacity = 2

    def __init__(self) -> None:
        self.requests: list[tapp_bot.Request] = []
        self.started: list[str] = []
        self.events: list[tuple[str, int]] = []
        self.ended: list[tuple[str, list[int]]] = []
        self.fallbacks: list[bot_pb2.Fallback] = []

    def decide(self, request: tapp_bot.Request) -> str:
        self.requests.append(request)
        return request.legal[-1]

    def game_started(self, game: tapp_bot.Game) -> None:
        self.started.append(game.game_id)

    def event(self, game: tapp_bot.Game, event: game_pb2.GameEvent) -> None:
        self.events.append((game.game_id, len(game.events)))

    def game_ended(self, game: tapp_bot.Game, settlement: game_pb2.Settlement) -> None:
        self.ended.append((game.game_id, list(settlement.payoff)))

    def fallback(self, game: tapp_bot.Game, fallback: bot_pb2.Fallback) -> None:
        self.fallbacks.append(fallback)


def connect(arena: FakeArena) -> tuple[Any, Any]:
    conn = arena.accept()
    hello = conn.recv_hello()
    conn.welcome()
    return conn, hello


def test_hello_carries_identity_and_token(arena, start_bot):
    start_bot(RecordingBot())
    conn = arena.accept()
    hello = conn.recv_hello()
    assert (hello.name, hello.version, hello.capacity) == ("recorder", "1.2.3", 2)
    assert hello.resume_token == "" and hello.last_seq == 0
    assert hello.stream_events is False
    assert conn.metadata["authorization"] == f"Bearer {TOKEN}"


def test_hello_overrides_from_client_options(arena, start_bot):
    start_bot(RecordingBot(), name="other", version="9", capacity=5, stream_events=True)
    hello = arena.accept().recv_hello()
    assert (hello.name, hello.version, hello.capacity, hello.stream_events) == ("other", "9", 5, True)


def test_batched_events_reach_the_game_before_the_decision_and_the_end(arena, start_bot):
    bot = RecordingBot()
    start_bot(bot)
    conn, _ = connect(arena)
    conn.start_game("g1")
    conn.send(decision_request=decision("g1", "r1", ["C7"], time.time() + 5, events=(bid_event(0), bid_event(1, "play"))))
    conn.recv_answer()
    game = bot.requests[0].game
    assert [e.action for e in game.events] == ["pass", "play"]
    assert bot.events == [("g1", 1), ("g1", 2)]  # the hook saw each, before decide
    conn.send(game_ended=bot_pb2.GameEnded(game_id="g1", events=[bid_event(1, "play"), bid_event(2, "HA")]))
    conn.send(going_away=bot_pb2.GoingAway())
    conn.expect_eof()
    # The end runs on the game's thread: it may finish after the stream does.
    deadline = time.monotonic() + 5
    while (len(game.events) < 3 or not bot.ended) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert [e.action for e in game.events] == ["pass", "play", "HA"]  # index 1 was not added twice
    assert bot.ended == [("g1", [])]


def test_decision_answered_with_bots_choice_and_request_id(arena, start_bot):
    bot = RecordingBot()
    start_bot(bot)
    conn, _ = connect(arena)
    conn.start_game("g1", seat=2)
    conn.event("g1", 0)
    conn.ask("g1", "r-17", ["HA", "C7", "D6"])
    answer = conn.recv_answer()
    assert (answer.game_id, answer.request_id, answer.action) == ("g1", "r-17", "D6")
    request = bot.requests[0]
    assert request.decision == "card"
    assert request.legal == ["HA", "C7", "D6"]
    assert request.hand == ["HA", "C7", "D6"]
    assert request.game.seat == 2 and request.game.players == ["a", "b", "c"]
    assert len(request.game.events) == 1 and request.game.events[0].action == "pass"
    assert 0 < request.time_left() < 5
    assert bot.started == ["g1"]


def test_answer_reports_how_long_the_bot_thought(arena, start_bot):
    def decide(request: tapp_bot.Request) -> str:
        time.sleep(0.05)
        return request.legal[0]

    start_bot(tapp_bot.FunctionBot(decide))
    conn, _ = connect(arena)
    conn.start_game("g1")
    conn.ask("g1", "r1", ["C7", "D6"])
    answer = conn.recv_answer()
    assert answer.HasField("think_time")
    assert 0.05 <= answer.think_time.ToTimedelta().total_seconds() < 5  # the request leaves 5 s


def test_illegal_choice_is_replaced_by_legal_fallback_in_time(arena, start_bot, caplog):
    start_bot(tapp_bot.FunctionBot(lambda request: "XX"))
    conn, _ = connect(arena)
    conn.start_game("g1")
    deadline = conn.ask("g1", "r1", ["C7", "D6"], seconds=2)
    answer = conn.recv_answer()
    assert time.time() < deadline
    assert (answer.request_id, answer.action) == ("r1", "C7")
    assert "'XX', which is not legal" in caplog.text


def test_exception_in_bot_is_handled_and_play_goes_on(arena, start_bot, caplog):
    calls = []

    def decide(request: tapp_bot.Request) -> str:
        calls.append(request.request_id)
        if len(calls) == 1:
            raise RuntimeError("bug in the bot")
        return request.legal[1]

    start_bot(tapp_bot.FunctionBot(decide))
    conn, _ = connect(arena)
    conn.start_game("g1")
    conn.ask("g1", "r1", ["C7", "D6"])
    first = conn.recv_answer()
    conn.ask("g1", "r2", ["C7", "D6"])
    second = conn.recv_answer()
    assert (first.request_id, first.action) == ("r1", "C7")
    assert (second.request_id, second.action) == ("r2", "D6")
    assert "bug in the bot" in caplog.text


def test_slow_bot_gets_a_legal_answer_before_the_deadline(arena, start_bot, caplog):
    release = threading.Event()

    def decide(request: tapp_bot.Request) -> str:
        release.wait(3)
        return request.legal[-1]

    # The SDK answers 80% of the time before the deadline: 0.6 s in, 2.4 s early. The exact
    # margin is tested on a fake clock (test_guard_clock.py); here, seconds spare.
    start_bot(tapp_bot.FunctionBot(decide), safety_margin=0.8)
    conn, _ = connect(arena)
    conn.start_game("g1")
    deadline = conn.ask("g1", "r1", ["C7", "D6"], seconds=3.0)
    answer = conn.recv_answer()
    assert time.time() < deadline
    assert (answer.request_id, answer.action) == ("r1", "C7")
    release.set()
    conn.expect_silence(0.3)  # the bot's late choice is not sent as a second answer
    assert "too late" in caplog.text


def test_a_request_that_comes_while_the_bot_thinks_is_answered_in_time(arena, start_bot, caplog):
    # The bot is still deciding the first game's request when the second game's comes: the
    # second is answered before its deadline too, not only once the bot is free.
    release = threading.Event()

    def decide(request: tapp_bot.Request) -> str:
        if request.game_id == "g1":
            release.wait(5)
        return request.legal[-1]

    # With 80% kept in reserve: r2 is answered for the bot 0.6 s in, 2.4 s before its
    # deadline; r1's guard is 6 s in, long after the bot is released.
    start_bot(tapp_bot.FunctionBot(decide), safety_margin=0.8)
    conn, _ = connect(arena)
    conn.start_game("g1")
    conn.start_game("g2")
    conn.ask("g1", "r1", ["C7", "D6"], seconds=30.0)
    time.sleep(0.1)  # the bot is thinking about r1
    deadline = conn.ask("g2", "r2", ["HA", "S6"], seconds=3.0)
    answer = conn.recv_answer()
    assert time.time() < deadline
    assert (answer.game_id, answer.request_id, answer.action) == ("g2", "r2", "HA")
    release.set()
    answer = conn.recv_answer()
    assert (answer.request_id, answer.action) == ("r1", "D6")
    conn.expect_silence(0.3)  # r2, answered for the bot, is not answered again
    assert "busy until after the guard" in caplog.text


def test_client_takes_a_decide_function_as_run_does(arena, start_bot):
    start_bot(lambda request: request.legal[-1])
    conn, _ = connect(arena)
    conn.start_game("g1")
    conn.ask("g1", "r1", ["C7", "D6"])
    assert conn.recv_answer().action == "D6"


def test_two_games_interleaved_on_one_stream(arena, start_bot):
    bot = RecordingBot()
    start_bot(bot)
    conn, _ = connect(arena)
    conn.start_game("g1", seat=0)
    conn.start_game("g2", seat=1)
    conn.event("g1", 0)
    conn.event("g2", 0)
    conn.event("g2", 1)
    conn.ask("g2", "b1", ["pass", "play"], kind=game_pb2.DECISION_BID)
    conn.ask("g1", "a1", ["HA", "C7"])
    answers = {a.request_id: a for a in (conn.recv_answer(), conn.recv_answer())}
    assert (answers["b1"].game_id, answers["b1"].action) == ("g2", "play")
    assert (answers["a1"].game_id, answers["a1"].action) == ("g1", "C7")
    by_game = {r.game_id: r.game for r in bot.requests}
    assert len(by_game["g1"].events) == 1 and by_game["g1"].seat == 0
    assert len(by_game["g2"].events) == 2 and by_game["g2"].seat == 1
    assert [r.decision for r in bot.requests] == ["bid", "card"]

    conn.send(game_ended=bot_pb2.GameEnded(game_id="g2", settlement=game_pb2.Settlement(payoff=[5, -10, 5])))
    conn.send(game_ended=bot_pb2.GameEnded(game_id="g1", settlement=game_pb2.Settlement(payoff=[-5, 10, -5])))
    conn.ask("g3", "c1", ["S6"])  # a request for a game never announced still gets an answer
    assert conn.recv_answer().action == "S6"
    assert bot.ended == [("g2", [5, -10, 5]), ("g1", [-5, 10, -5])]
    assert bot.started == ["g1", "g2"]


def test_answer_rejected_is_retried_with_a_legal_fallback(arena, start_bot, caplog):
    bot = RecordingBot()
    start_bot(bot)
    conn, _ = connect(arena)
    conn.start_game("g1")
    conn.ask("g1", "r1", ["C7", "D6", "HA"])
    assert conn.recv_answer().action == "HA"
    conn.send(answer_rejected=bot_pb2.AnswerRejected(game_id="g1", request_id="r1", rule_id="R-PLAY-2", reason="must follow"))
    retry = conn.recv_answer()
    assert (retry.request_id, retry.action) == ("r1", "C7")
    conn.send(answer_rejected=bot_pb2.AnswerRejected(game_id="g1", request_id="r1", rule_id="R-PLAY-2"))
    assert conn.recv_answer().action == "D6"
    assert "R-PLAY-2 must follow" in caplog.text


def test_fallback_notice_is_logged_and_reported(arena, start_bot, caplog):
    bot = RecordingBot()
    start_bot(bot)
    conn, _ = connect(arena)
    conn.start_game("g1")
    conn.send(fallback=bot_pb2.Fallback(game_id="g1", request_id="r9", action="C7", strikes=2, forfeited=True))
    conn.ask("g1", "r10", ["D6"])  # processed after the fallback notice
    conn.recv_answer()
    assert [f.strikes for f in bot.fallbacks] == [2]
    assert "strikes: 2 (match forfeited)" in caplog.text


def test_going_away_ends_run(arena, start_bot):
    runner = start_bot(RecordingBot())
    conn, _ = connect(arena)
    conn.send(going_away=bot_pb2.GoingAway(reason="maintenance"))
    conn.expect_eof()  # the bot closes its side at once
    conn.end()
    runner.join()
    assert runner.error is None


def test_going_away_ends_run_even_if_the_arena_keeps_the_stream_open(arena, start_bot):
    runner = start_bot(RecordingBot(), going_away_timeout=0.3)
    conn, _ = connect(arena)
    conn.send(going_away=bot_pb2.GoingAway(reason="maintenance"))
    runner.join(3)
    assert runner.error is None


def test_dropped_stream_resumes_with_token_and_last_seq(arena, start_bot):
    bot = RecordingBot()
    start_bot(bot)
    conn, _ = connect(arena)  # seq 1
    conn.start_game("g1")  # seq 2
    conn.start_game("g2")  # seq 3
    conn.event("g1", 0)  # seq 4
    conn.ask("g1", "r1", ["C7", "D6"])  # seq 5
    assert conn.recv_answer().action == "D6"
    conn.end(grpc.StatusCode.UNAVAILABLE, "network trouble")

    conn2 = arena.accept()
    hello = conn2.recv_hello()
    assert (hello.resume_token, hello.last_seq) == ("resume-1", 5)
    assert conn2.metadata["authorization"] == f"Bearer {TOKEN}"
    conn2.welcome(resumed=True)
    conn2.event("g1", 0, seq=4)  # a repeat of a message already seen: ignored
    conn2.event("g1", 0)  # a new message repeating an event already seen: not added twice
    conn2.send(
        snapshot=bot_pb2.Snapshot(
            games=[
                bot_pb2.Snapshot.Game(
                    started=started("g1"),
                    observation=game_pb2.Observation(seat=0, hand=["C7"]),
                    pending=decision("g1", "r2", ["C7", "HA"], time.time() + 5),
                )
            ]
        )
    )
    answer = conn2.recv_answer()
    assert (answer.game_id, answer.request_id, answer.action) == ("g1", "r2", "HA")
    game = bot.requests[-1].game
    assert len(game.events) == 1  # the repeated event was not added twice
    assert bot.events == [("g1", 1)]
    client_games = {r.game.game_id for r in bot.requests}
    assert client_games == {"g1"}


def test_unanswered_request_is_answered_again_after_resume_without_asking_twice(arena, start_bot):
    bot = RecordingBot()
    start_bot(bot)
    conn, _ = connect(arena)
    conn.start_game("g1")
    conn.ask("g1", "r1", ["C7", "D6"])
    conn.recv_answer()
    conn.end(grpc.StatusCode.UNAVAILABLE, "lost before the answer arrived")
    conn2 = arena.accept()
    conn2.recv_hello()
    conn2.welcome(resumed=True)
    snapshot = bot_pb2.Snapshot(
        games=[bot_pb2.Snapshot.Game(started=started("g1"), pending=decision("g1", "r1", ["C7", "D6"], time.time() + 5))]
    )
    conn2.send(snapshot=snapshot)
    answer = conn2.recv_answer()
    assert (answer.request_id, answer.action) == ("r1", "D6")
    assert len(bot.requests) == 1


def test_new_session_when_the_arena_does_not_resume(arena, start_bot, caplog):
    bot = RecordingBot()
    start_bot(bot)
    conn, _ = connect(arena)
    conn.start_game("g1")
    conn.end(grpc.StatusCode.UNAVAILABLE, "arena restarted")
    conn2 = arena.accept()
    assert conn2.recv_hello().resume_token == "resume-1"
    conn2.welcome(resumed=False, seq=1)  # seq starts again in a new session
    conn2.start_game("g9", seat=1)  # seq 7 or so; must not be skipped as a duplicate
    conn2.ask("g9", "x1", ["SA", "S6"])
    assert conn2.recv_answer().action == "S6"
    assert "new session instead of resuming" in caplog.text


def test_no_resume_after_the_grace_period(arena, start_bot):
    start_bot(RecordingBot())
    conn = arena.accept()
    conn.recv_hello()
    conn.welcome(grace_s=0)
    conn.start_game("g1")
    conn.end(grpc.StatusCode.UNAVAILABLE, "gone for too long")
    hello = arena.accept().recv_hello()
    assert (hello.resume_token, hello.last_seq) == ("", 0)


def test_refused_resume_starts_a_new_session(arena, start_bot):
    start_bot(RecordingBot())
    conn, _ = connect(arena)
    conn.end(grpc.StatusCode.UNAVAILABLE, "dropped")
    conn2 = arena.accept()
    assert conn2.recv_hello().resume_token == "resume-1"
    conn2.end(grpc.StatusCode.NOT_FOUND, "unknown session")
    hello = arena.accept().recv_hello()
    assert (hello.resume_token, hello.last_seq) == ("", 0)


def test_refused_token_raises_auth_error(arena, start_bot):
    runner = start_bot(RecordingBot())
    conn = arena.accept()
    conn.recv_hello()
    conn.end(grpc.StatusCode.UNAUTHENTICATED, "unknown token")
    runner.join()
    assert isinstance(runner.error, tapp_bot.AuthError)


def test_connects_when_the_arena_comes_up_later():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    client = tapp_bot.Client(RecordingBot(), f"127.0.0.1:{port}", TOKEN)
    thread = threading.Thread(target=client.run, daemon=True)
    thread.start()
    time.sleep(0.3)  # the first attempts fail: nothing listens yet
    fake = FakeArena(port)
    try:
        conn = fake.accept(timeout=10)
        assert conn.recv_hello().name == "recorder"
    finally:
        client.close()
        thread.join(5)
        fake.stop()
    assert not thread.is_alive()


def test_run_with_functions_and_environment(arena, monkeypatch):
    monkeypatch.setenv("TAPP_ARENA", arena.address)
    monkeypatch.setenv("TAPP_TOKEN", "env-token")
    ended = []
    errors = []

    def decide(request: tapp_bot.Request) -> str:
        return request.legal[0]

    def run() -> None:
        try:
            tapp_bot.run(decide, game_ended=lambda game, s: ended.append(game.game_id), name="fn-bot")
        except BaseException as err:  # noqa: BLE001
            errors.append(err)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    conn = arena.accept()
    assert conn.recv_hello().name == "fn-bot"
    assert conn.metadata["authorization"] == "Bearer env-token"
    conn.welcome()
    conn.start_game("g1")
    conn.ask("g1", "r1", ["pass", "play"], kind=game_pb2.DECISION_BID)
    assert conn.recv_answer().action == "pass"
    conn.send(game_ended=bot_pb2.GameEnded(game_id="g1", settlement=game_pb2.Settlement()))
    conn.send(going_away=bot_pb2.GoingAway())
    conn.expect_eof()
    conn.end()
    thread.join(5)
    assert not thread.is_alive() and errors == []
    assert ended == ["g1"]


def test_a_launched_bot_takes_its_name_and_capacity_from_the_league(monkeypatch):
    # A league launches a bot with TAPP_BOT_NAME and TAPP_CAPACITY set (docs/league.md).
    monkeypatch.setenv("TAPP_BOT_NAME", "p1")
    monkeypatch.setenv("TAPP_CAPACITY", "8")
    client = tapp_bot.Client(RecordingBot(), "127.0.0.1:1", "t")
    assert (client.name, client.capacity) == ("p1", 8)
    # What the program says itself wins.
    client = tapp_bot.Client(RecordingBot(), "127.0.0.1:1", "t", name="mine", capacity=2)
    assert (client.name, client.capacity) == ("mine", 2)
    # Without them, the bot's own attributes.
    monkeypatch.delenv("TAPP_BOT_NAME")
    monkeypatch.delenv("TAPP_CAPACITY")
    client = tapp_bot.Client(RecordingBot(), "127.0.0.1:1", "t")
    assert (client.name, client.capacity) == (RecordingBot.name, RecordingBot.capacity)


@pytest.mark.parametrize("value", ["eight", "0", "-3"])
def test_a_bad_capacity_in_the_environment_is_a_clear_error(monkeypatch, value):
    monkeypatch.setenv("TAPP_CAPACITY", value)
    with pytest.raises(ValueError, match="TAPP_CAPACITY"):
        tapp_bot.Client(RecordingBot(), "127.0.0.1:1", "t")


def test_missing_token_is_a_clear_error(monkeypatch):
    monkeypatch.delenv("TAPP_TOKEN", raising=False)
    with pytest.raises(ValueError, match="TAPP_TOKEN"):
        tapp_bot.Client(RecordingBot(), "127.0.0.1:1")


def test_default_decisions_are_legal_and_sensible():
    game = tapp_bot.Game("g")
    bot = tapp_bot.Bot()

    def ask(kind: game_pb2.Decision, legal: list[str]) -> str:
        return bot.decide(tapp_bot.Request(game, decision("g", "r", legal, time.time() + 1, kind=kind), None))

    assert ask(game_pb2.DECISION_BID, ["play", "pass"]) == "pass"
    assert ask(game_pb2.DECISION_TOUT, ["tout", "notout"]) == "notout"
    assert ask(game_pb2.DECISION_CARD, ["C7", "HA"]) == "C7"
    assert ask(game_pb2.DECISION_CONTRACT, ["solo:C", "bettel"]) == "solo:C"


def test_random_example_cli_plays_legal_moves_and_exits_on_going_away(arena):
    env = dict(os.environ, TAPP_TOKEN="")
    proc = subprocess.Popen(
        [sys.executable, "-m", "tapp_bot.examples.random", "--arena", arena.address, "--token", "cli-token",
         "--name", "py-random", "--capacity", "3", "--seed", "7"],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        conn = arena.accept(timeout=20)
        hello = conn.recv_hello()
        assert (hello.name, hello.capacity) == ("py-random", 3)
        assert conn.metadata["authorization"] == "Bearer cli-token"
        conn.welcome()
        legal = ["C7", "D6", "HA", "SK"]
        conn.start_game("g1")
        seen = set()
        for i in range(40):
            conn.ask("g1", f"r{i}", legal)
            answer = conn.recv_answer()
            assert answer.request_id == f"r{i}" and answer.action in legal
            seen.add(answer.action)
        assert len(seen) > 1  # random, not constant
        conn.send(going_away=bot_pb2.GoingAway(reason="done"))
        conn.expect_eof()
        conn.end()
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        stderr = proc.communicate()[1]
    assert "going away" in stderr


@pytest.fixture(autouse=True)
def _log_warnings(caplog):
    caplog.set_level(logging.INFO, logger="tapp_bot")


def test_margin_scales_with_the_time_per_decision() -> None:
    from tapp_bot.client import margin

    # The larger of 20 ms and a tenth of the time left, as in the Go SDK.
    assert margin(0.1) == pytest.approx(0.02)
    assert margin(0.2) == pytest.approx(0.02)
    assert margin(1.0) == pytest.approx(0.1)
    assert margin(10.0) == pytest.approx(1.0)
    assert margin(1.0, fraction=0.25, floor=0.05) == pytest.approx(0.25)
    assert margin(0.1, fraction=0.25, floor=0.05) == pytest.approx(0.05)
