"""Inline bots (``Bot.inline``): called on the thread that reads the stream, with the same
decisions, the same handling of errors and slow answers as on the bot's threads, and moved to
those threads for good after a call slower than the inline limit.

The clock is a fake one that moves only when a test says so; the inline limit is measured in the
thread's CPU time, so the tests set it far above a fast call or far below the CPU a call spins
for.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from conftest import FakeArena, bid_event, decision, started
from test_guard_clock import FakeClock, Manual, drain, run_bot, sent_now

import tapp_bot
from tapp_bot.examples.random import RandomBot
from tapp_bot.proto.tapp.v1 import bot_pb2, game_pb2

NEVER = 60.0  # an inline limit no fast call reaches, however busy the machine


def requests_of_some_deals(clock: FakeClock) -> list[bot_pb2.ConnectResponse]:
    """Messages as the arena sends them: three games in turn, decisions with different legal
    lists, events, and the games' ends."""
    out: list[bot_pb2.ConnectResponse] = []
    legal_lists = (["pass", "play"], ["C7", "D6", "HA"], ["S8", "ST", "SA", "SK"], ["H9"])
    for game in ("g1", "g2", "g3"):
        out.append(bot_pb2.ConnectResponse(game_started=started(game)))
    for k in range(24):
        game = f"g{k % 3 + 1}"
        legal = legal_lists[k % len(legal_lists)]
        request = decision(game, f"r{k}", legal, clock.wall + 5, events=(bid_event(k),))
        out.append(bot_pb2.ConnectResponse(decision_request=request))
    for game in ("g1", "g2", "g3"):
        out.append(bot_pb2.ConnectResponse(game_ended=bot_pb2.GameEnded(game_id=game)))
    for seq, message in enumerate(out, 1):
        message.seq = seq
    return out


def play(bot: tapp_bot.Bot, inline: bool) -> list[tuple[str, str, str]]:
    """The answers the client sends for the messages, run inline or on a manual executor."""
    clock = FakeClock()
    executor = Manual()
    client = tapp_bot.Client(bot, arena="unused:1", token="t", clock=clock, executor=executor,
                             inline=inline, inline_limit=NEVER)
    for message in requests_of_some_deals(clock):
        client._dispatch(message)
        run_bot(client)
    assert client.inline is inline
    return [(m.answer.game_id, m.answer.request_id, m.answer.action) for m in drain(client)]


def test_an_inline_bot_decides_what_it_decides_on_its_threads() -> None:
    inline, threaded = play(RandomBot(seed=7), inline=True), play(RandomBot(seed=7), inline=False)
    assert len(inline) == 24
    assert inline == threaded
    assert len({action for _, _, action in inline}) > 4, "the seeded bot chose among the legal actions"


def test_the_random_example_bot_is_inline() -> None:
    client = tapp_bot.Client(RandomBot(), arena="unused:1", token="t")
    assert client.inline
    assert not tapp_bot.Client(tapp_bot.Bot(), arena="unused:1", token="t").inline
    assert not tapp_bot.Client(RandomBot(), arena="unused:1", token="t", inline=False).inline


class Recorder(tapp_bot.Bot):
    """Records every call with the thread it came on."""

    inline = True

    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []

    def decide(self, request: tapp_bot.Request) -> str:
        self.calls.append((f"decide {request.request_id}", threading.get_ident()))
        return request.legal[-1]

    def game_started(self, game: tapp_bot.Game) -> None:
        self.calls.append(("started", threading.get_ident()))

    def event(self, game: tapp_bot.Game, event: game_pb2.GameEvent) -> None:
        self.calls.append((f"event {event.index}", threading.get_ident()))

    def game_ended(self, game: tapp_bot.Game, settlement: game_pb2.Settlement) -> None:
        self.calls.append(("ended", threading.get_ident()))


def test_an_inline_bot_is_called_at_once_on_the_reading_thread_in_message_order() -> None:
    clock = FakeClock()
    bot = Recorder()
    executor = Manual()
    client = tapp_bot.Client(bot, arena="unused:1", token="t", clock=clock, executor=executor, inline_limit=NEVER)
    client._dispatch(bot_pb2.ConnectResponse(seq=1, game_started=started("g1")))
    client._dispatch(bot_pb2.ConnectResponse(seq=2, decision_request=decision(
        "g1", "r1", ["C7", "D6"], clock.wall + 1, events=(bid_event(0), bid_event(1)))))
    assert sent_now(client).action == "D6"  # answered before the next message is read
    client._dispatch(bot_pb2.ConnectResponse(seq=3, game_ended=bot_pb2.GameEnded(game_id="g1")))
    assert executor.jobs == [], "an inline bot's call was handed to a thread"
    assert [what for what, _ in bot.calls] == ["started", "event 0", "event 1", "decide r1", "ended"]
    assert {thread for _, thread in bot.calls} == {threading.get_ident()}


def test_an_inline_bot_that_raises_or_answers_an_illegal_action_is_answered_a_legal_one(caplog: pytest.LogCaptureFixture) -> None:
    clock = FakeClock()

    def decide(request: tapp_bot.Request) -> str:
        if request.request_id == "r1":
            raise RuntimeError("bug in the bot")
        return "SA"  # not legal

    client = tapp_bot.Client(tapp_bot.FunctionBot(decide), arena="unused:1", token="t", clock=clock,
                             executor=Manual(), inline=True, inline_limit=NEVER)
    client._on_decision(decision("g1", "r1", ["C7", "D6"], clock.wall + 1))
    assert sent_now(client).action == "C7"
    client._on_decision(decision("g1", "r2", ["D6", "C7"], clock.wall + 1))
    assert sent_now(client).action == "D6"
    assert "the bot raised" in caplog.text and "not legal" in caplog.text
    assert client.inline, "errors are not slowness: the bot stays inline"


def spin(seconds: float) -> None:
    """Compute for seconds of this thread's CPU time."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def test_a_slow_inline_bot_is_answered_for_at_the_guard_then_moved_to_its_threads(caplog: pytest.LogCaptureFixture) -> None:
    clock = FakeClock()
    executor = Manual()
    client: tapp_bot.Client
    fallbacks: list[bot_pb2.Answer] = []
    threads: list[int] = []

    def decide(request: tapp_bot.Request) -> str:
        threads.append(threading.get_ident())
        if request.request_id == "r1":
            spin(0.02)  # more CPU than the inline limit below
            clock.advance(0.95)  # past its 0.9 s: meanwhile the outbox answers for it
            fallbacks.append(sent_now(client))
        return "D6"

    client = tapp_bot.Client(tapp_bot.FunctionBot(decide), arena="unused:1", token="t", clock=clock,
                             executor=executor, inline=True, inline_limit=0.005)
    client._on_decision(decision("g1", "r1", ["C7", "D6"], clock.wall + 1))
    assert [(a.request_id, a.action) for a in fallbacks] == [("r1", "C7")]  # the guard, as for any bot
    assert drain(client) == [], "the bot's late choice was sent as a second answer"
    assert "too late" in caplog.text and "is inline but one of its calls took" in caplog.text
    assert not client.inline
    client._on_decision(decision("g1", "r2", ["C7", "D6"], clock.wall + 1))
    assert len(threads) == 1 and len(executor.jobs) == 1, "the next decision was not handed to the bot's threads"
    run_bot(client)
    assert sent_now(client).action == "D6"


@pytest.mark.usefixtures("transport")
def test_an_inline_bot_plays_over_the_stream(arena: FakeArena, start_bot: Any) -> None:
    bot = Recorder()
    runner = start_bot(bot, inline_limit=NEVER)
    conn = arena.accept()
    conn.recv_hello()
    conn.welcome()
    conn.start_game("g1")
    for k in range(3):
        conn.ask("g1", f"r{k}", ["HA", "C7", "D6"][: k + 1])
        answer = conn.recv_answer()
        assert (answer.request_id, answer.action) == (f"r{k}", ["HA", "C7", "D6"][k])
    assert runner.client.inline
    assert {thread for _, thread in bot.calls} == {runner.thread.ident}, "not called on the stream's thread"

