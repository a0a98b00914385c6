"""Several tables at once: the SDK decides for different games on threads of their own, one
game's calls in order and never overlapping; with concurrency=1 one game at a time.

The clock is a fake one that never moves, so no guard fires: every answer is the bot's own,
whatever the machine's load. Real time only bounds how long a broken SDK is waited for.
"""

from __future__ import annotations

import threading
import time

import pytest
from conftest import decision
from test_guard_clock import FakeClock

import tapp_bot
from tapp_bot.proto.tapp.v1 import bot_pb2

WAIT = 30.0  # seconds a failing test waits before it says so


def answers(client: tapp_bot.Client, n: int) -> list[bot_pb2.Answer]:
    """The first n answers the outbox sends (waiting for the bot's threads)."""
    out: list[bot_pb2.Answer] = []
    deadline = time.monotonic() + WAIT
    while len(out) < n:
        left = deadline - time.monotonic()
        assert left > 0, f"only {len(out)} of {n} answers came"
        item = client._outbox._queue.get(timeout=left)
        if isinstance(item, bytes):
            message = bot_pb2.ConnectRequest.FromString(item)
            if message.HasField("answer"):
                out.append(message.answer)
    return out


class Overlap:
    """Counts how many decide calls run at once, overall and per game."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.now: dict[str, int] = {}
        self.most = 0
        self.most_per_game = 0
        self.order: list[str] = []

    def enter(self, game: str, request: str) -> None:
        with self.lock:
            self.now[game] = self.now.get(game, 0) + 1
            self.most = max(self.most, sum(self.now.values()))
            self.most_per_game = max(self.most_per_game, self.now[game])
            self.order.append(request)

    def leave(self, game: str) -> None:
        with self.lock:
            self.now[game] -= 1


def test_a_bot_thinking_about_one_table_answers_another_meanwhile() -> None:
    clock = FakeClock()
    other_done = threading.Event()
    overlap = Overlap()

    def decide(request: tapp_bot.Request) -> str:
        overlap.enter(request.game_id, request.request_id)
        try:
            if request.game_id == "g1":
                # Still thinking about g1 when g2 comes: g2 is decided meanwhile, not after.
                assert other_done.wait(WAIT), "g2 was not decided while g1 was"
            else:
                other_done.set()
            return request.legal[-1]
        finally:
            overlap.leave(request.game_id)

    client = tapp_bot.Client(tapp_bot.FunctionBot(decide, capacity=4), arena="unused:1", token="t", clock=clock)
    assert client.concurrency == 4  # the capacity, unless told otherwise
    client._on_decision(decision("g1", "r1", ["C7", "D6"], clock.wall + 1))
    client._on_decision(decision("g2", "r1", ["C7", "HA"], clock.wall + 1))
    got = {a.game_id: a.action for a in answers(client, 2)}
    assert got == {"g1": "D6", "g2": "HA"}  # the bot's own choices: no fallback was needed
    assert overlap.most == 2


def test_one_games_calls_keep_their_order_and_never_overlap() -> None:
    clock = FakeClock()
    overlap = Overlap()

    def decide(request: tapp_bot.Request) -> str:
        overlap.enter(request.game_id, request.request_id)
        time.sleep(0.01)
        overlap.leave(request.game_id)
        return request.legal[0]

    client = tapp_bot.Client(tapp_bot.FunctionBot(decide, capacity=8), arena="unused:1", token="t", clock=clock)
    for game in ("g1", "g2"):
        for k in range(1, 4):
            client._on_decision(decision(game, f"{game}-r{k}", ["C7"], clock.wall + 1))
    answers(client, 2)  # the last request of each game replaces the earlier ones it opened
    assert client._work.wait_idle(WAIT)
    assert overlap.most_per_game == 1
    for game in ("g1", "g2"):
        mine = [r for r in overlap.order if r.startswith(game)]
        assert mine == sorted(mine), f"game {game}'s requests were decided out of order: {mine}"


@pytest.mark.parametrize("concurrency, capacity", [(1, 4), (None, 1)])
def test_one_game_at_a_time_when_told_or_by_capacity(concurrency: int | None, capacity: int) -> None:
    clock = FakeClock()
    overlap = Overlap()

    def decide(request: tapp_bot.Request) -> str:
        overlap.enter(request.game_id, request.request_id)
        time.sleep(0.02)
        overlap.leave(request.game_id)
        return request.legal[0]

    client = tapp_bot.Client(tapp_bot.FunctionBot(decide, capacity=capacity), arena="unused:1", token="t", clock=clock,
                             concurrency=concurrency)
    assert client.concurrency == 1
    for game in ("g1", "g2", "g3"):
        client._on_decision(decision(game, "r1", ["C7"], clock.wall + 1))
    answers(client, 3)
    assert overlap.most == 1


def test_a_bot_class_says_its_concurrency() -> None:
    class Careful(tapp_bot.Bot):
        capacity = 6
        concurrency = 2

    client = tapp_bot.Client(Careful(), arena="unused:1", token="t")
    assert (client.capacity, client.concurrency) == (6, 2)
    with pytest.raises(ValueError, match="concurrency"):
        tapp_bot.Client(Careful(), arena="unused:1", token="t", concurrency=-1)
