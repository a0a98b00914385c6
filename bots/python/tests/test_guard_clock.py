"""When the SDK answers for the bot, on a fake clock: exact, whatever the machine's load.

The Client takes its clock as an argument; these tests hand it decision requests directly and
read what its outbox would send, without a stream or threads, so nothing waits for real time.
"""

from __future__ import annotations

import queue
from collections.abc import Callable
from typing import Any

import pytest
from conftest import decision

import tapp_bot
from tapp_bot.client import Clock
from tapp_bot.proto.tapp.v1 import bot_pb2


class FakeClock(Clock):
    """A wall clock and a monotonic clock that move only when told."""

    def __init__(self) -> None:
        self.wall = 1_000_000.0  # small enough for float seconds to keep nanoseconds
        self.mono = 50.0

    def time(self) -> float:
        return self.wall

    def monotonic(self) -> float:
        return self.mono

    def advance(self, seconds: float) -> None:
        self.wall += seconds
        self.mono += seconds


class Manual:
    """An executor that runs the bot's work only when run_bot says so: no threads."""

    def __init__(self) -> None:
        self.jobs: list[Callable[[], None]] = []

    def submit(self, fn: Callable[[], None]) -> None:
        self.jobs.append(fn)


def client_with(decide, clock: FakeClock, **options: Any) -> tapp_bot.Client:
    return tapp_bot.Client(tapp_bot.FunctionBot(decide), arena="unused:1", token="t", clock=clock, executor=Manual(), **options)


def ask(client: tapp_bot.Client, clock: FakeClock, request_id: str, seconds: float) -> None:
    """Hand the client a request due in seconds, as its stream would."""
    client._on_decision(decision("g1", request_id, ["C7", "D6"], clock.wall + seconds))


def sent_now(client: tapp_bot.Client) -> bot_pb2.Answer:
    """The next answer the outbox sends without waiting (it must have one)."""
    outbox = client._outbox
    wait = outbox._next_wait()
    assert wait is None or wait <= 0, f"the outbox would wait {wait} s more"
    for item in outbox:
        return bot_pb2.ConnectRequest.FromString(item).answer
    raise AssertionError("the outbox ended")


def run_bot(client: tapp_bot.Client) -> None:
    """Run what the client handed the bot's threads."""
    executor = client._work._executor
    assert isinstance(executor, Manual)
    jobs = executor.jobs
    while jobs:
        jobs.pop(0)()


@pytest.mark.parametrize(
    "seconds, options, guard",
    [
        (0.1, {}, 0.08),  # 20 ms floor
        (0.2, {}, 0.18),
        (1.0, {}, 0.9),  # a tenth
        (10.0, {}, 9.0),
        (1.0, {"safety_margin": 0.25, "min_margin": 0.05}, 0.75),
        (0.1, {"safety_margin": 0.25, "min_margin": 0.05}, 0.05),
    ],
)
def test_a_bot_that_does_not_answer_is_answered_for_at_the_margin(seconds, options, guard) -> None:
    clock = FakeClock()
    client = client_with(lambda request: "D6", clock, **options)
    ask(client, clock, "r1", seconds)  # the bot is busy: its decide is never run
    assert client._outbox._next_wait() == pytest.approx(guard, abs=1e-6)
    clock.advance(guard - 0.001)
    assert client._outbox._expired() == [], "answered for the bot before the margin"
    clock.advance(0.001 + 1e-6)  # the wire keeps nanoseconds, floats a little less
    answer = sent_now(client)
    assert (answer.request_id, answer.action) == ("r1", "C7")


def test_the_bots_answer_in_time_is_sent_and_no_fallback_after_it() -> None:
    clock = FakeClock()
    seen = []

    def decide(request: tapp_bot.Request) -> str:
        seen.append(request.time_left())
        clock.advance(0.3)  # thinks 0.3 s of the 0.9 s it has
        return "D6"

    client = client_with(decide, clock)
    ask(client, clock, "r1", 1.0)
    run_bot(client)
    assert seen == [pytest.approx(0.9, abs=1e-6)]
    answer = sent_now(client)
    assert (answer.request_id, answer.action) == ("r1", "D6")
    clock.advance(10)
    assert client._outbox._expired() == [], "a fallback after the bot's own answer"


@pytest.mark.parametrize("overage", [2.5, 0.0, None])
def test_the_bot_is_handed_its_clock_with_the_bank(overage) -> None:
    clock = FakeClock()
    seen: list[tuple[float, float, float | None, float | None]] = []

    def decide(request: tapp_bot.Request) -> str:
        c = request.clock
        assert isinstance(c, tapp_bot.DecisionClock)
        clock.advance(0.25)  # the clock runs while the bot thinks
        seen.append((c.time_left(), c.overage, c.deadline, c.end()))
        return "D6"

    client = client_with(decide, clock)
    client._on_decision(decision("g1", "r1", ["C7", "D6"], clock.wall + 1.0, overage=overage))
    start = clock.mono
    run_bot(client)
    bank = overage or 0.0
    # the decision's own time less the SDK's margin (a tenth), then the bank beyond it
    assert len(seen) == 1
    time_left, bank_seen, deadline, end = seen[0]
    assert time_left == pytest.approx(0.65, abs=1e-6)
    assert bank_seen == pytest.approx(bank, abs=1e-9)
    assert deadline == pytest.approx(start + 0.9, abs=1e-6)
    assert end == pytest.approx(start + 0.9 + bank, abs=1e-6)
    assert sent_now(client).action == "D6"


def test_a_request_without_a_deadline_has_a_clock_without_an_end() -> None:
    request = bot_pb2.DecisionRequest(game_id="g1", request_id="r1", legal=["C7"])
    request.overage_left.FromNanoseconds(3_000_000_000)
    c = tapp_bot.Request(tapp_bot.Game("g1"), request, None).clock
    assert (c.time_left(), c.overage, c.deadline, c.end()) == (float("inf"), 3.0, None, None)


def test_a_late_choice_of_the_bot_is_not_sent_after_the_fallback(caplog) -> None:
    clock = FakeClock()
    client: tapp_bot.Client
    fallbacks = []

    def decide(request: tapp_bot.Request) -> str:
        clock.advance(0.95)  # past its 0.9 s: meanwhile the outbox answers for it
        fallbacks.append(sent_now(client))
        return "D6"

    client = client_with(decide, clock)
    ask(client, clock, "r1", 1.0)
    run_bot(client)
    assert [(a.request_id, a.action) for a in fallbacks] == [("r1", "C7")]
    assert "too late" in caplog.text
    assert drain(client) == [], "the bot's late choice was sent as a second answer"


def test_a_rejected_answer_is_corrected_only_before_the_deadline() -> None:
    for late, retried in ((0.5, True), (1.0, False)):
        clock = FakeClock()
        client = client_with(lambda request: "C7", clock)
        ask(client, clock, "r1", 1.0)
        run_bot(client)
        assert sent_now(client).action == "C7"
        clock.advance(late)
        client._on_rejected(bot_pb2.AnswerRejected(game_id="g1", request_id="r1", rule_id="R-FOLLOW", reason="test"))
        retry = [m.answer.action for m in drain(client)]
        assert retry == (["D6"] if retried else []), f"rejected {late} s after the request"


def drain(client: tapp_bot.Client) -> list[bot_pb2.ConnectRequest]:
    """The messages queued in the outbox now, without waiting."""
    out: list[bot_pb2.ConnectRequest] = []
    while True:
        try:
            item = client._outbox._queue.get_nowait()
        except queue.Empty:
            return out
        if isinstance(item, bytes):
            out.append(bot_pb2.ConnectRequest.FromString(item))
