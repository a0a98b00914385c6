"""The Python SDK's own work per decision, without gRPC (docs/BENCHMARKS.md, "Arena over gRPC").

    .venv/bin/python bots/python/benchmarks/bench_sdk.py            # CPU-µs per decision, 3 runs
    .venv/bin/python bots/python/benchmarks/bench_sdk.py --profile  # where the time goes
    .venv/bin/python bots/python/benchmarks/bench_sdk.py --inline   # the bot called inline (Bot.inline)

One decision as the client handles it: a ConnectResponse with a decision request of a modern
deal in trick play (as gRPC deserializes it), dispatched, the request's guard armed, the bot's
job run (a random bot), the answer serialized and handed to the transport's send as the h2
transport's outbox does (an SDK older than its hand-written answers handed over a message, which
is serialized here); every 18th decision a game ends. The bot's threads and the stream are left out (the jobs run on this
thread, as the tests' manual executor runs them): what is measured is the SDK's Python, not
the thread switches and the gRPC runtime around it. Times are CPU time of this process
(time.process_time).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time
from collections.abc import Callable

import tapp_bot
from tapp_bot.proto.tapp.v1 import bot_pb2, game_pb2

GAMES = 32  # tables at once, as BenchmarkArenaPythonBots plays
DECISIONS_PER_DEAL = 18


class Manual:
    """An executor that keeps the bot's jobs until run() is called: no threads."""

    def __init__(self) -> None:
        self.jobs: list[Callable[[], None]] = []

    def submit(self, fn: Callable[[], None]) -> None:
        self.jobs.append(fn)

    def run(self) -> None:
        while self.jobs:
            self.jobs.pop(0)()


class RandomBot(tapp_bot.Bot):
    def __init__(self) -> None:
        self._rng = random.Random(1)

    def decide(self, request: tapp_bot.Request) -> str:
        return self._rng.choice(request.legal)


def request_bytes(k: int) -> bytes:
    """A ConnectResponse with a decision request in trick play, as the arena sends one."""
    obs = game_pb2.Observation(
        rules="modern", seat=1, hand=["HA", "HK", "C7", "D6", "SA", "S10", "HO", "CU"],
        decision=game_pb2.DECISION_CARD, to_move=1, declarer=0, contract="solo", trump="H",
        dealt=["HA", "HK", "C7", "D6", "SA", "S10", "HO", "CU", "D7", "C8"],
        tricks_taken=[1, 0, 0], hand_sizes=[8, 8, 8],
    )
    obs.current.cards.extend(["D10"])
    for _ in range(2):
        obs.tricks.add().cards.extend(["C9", "CA", "C10"])
    req = bot_pb2.DecisionRequest(
        game_id=f"m1/{k % GAMES}", request_id=f"r{k}", decision=game_pb2.DECISION_CARD,
        legal=["HA", "HK", "HO"], observation=obs,
    )
    req.deadline.FromNanoseconds(int((time.time() + 3600) * 1e9))
    req.overage_left.FromNanoseconds(10_000_000_000)
    for i in range(3):
        req.events.add(index=3 * k + i, kind=game_pb2.EVENT_KIND_CARD, seat=i, action="C9", card="C9", trick=2)
    return bot_pb2.ConnectResponse(decision_request=req).SerializeToString()


class Loop:
    """The client, its outbox and the messages: one() is one decision."""

    def __init__(self, inline: bool) -> None:
        self.executor = Manual()
        self.client = tapp_bot.Client(RandomBot(), arena="unused:1", token="t", executor=self.executor, inline=inline)
        self.sent: list[object] = []
        self.client._outbox.attach(self.sent.append)
        self.messages = [request_bytes(k) for k in range(4 * GAMES)]
        self.seq = 0
        self.k = 0

    def one(self) -> None:
        self.k += 1
        message = bot_pb2.ConnectResponse.FromString(self.messages[self.k % len(self.messages)])
        self.seq += 1
        message.seq = self.seq
        self.client._dispatch(message)
        self.executor.run()
        answer = self.sent.pop()
        if not isinstance(answer, bytes):
            answer.SerializeToString()  # type: ignore[attr-defined]
        if self.k % 100 == 0:
            # What the guards' thread does when it wakes up (every 0.1 s at most): drop the
            # answered requests' guards. Without it they pile up, and so does the time of
            # Python's garbage collections.
            self.client._outbox._plan_wait()
        if self.k % DECISIONS_PER_DEAL == 0:
            self.seq += 1
            ended = bot_pb2.GameEnded(game_id=message.decision_request.game_id)
            self.client._dispatch(bot_pb2.ConnectResponse(seq=self.seq, game_ended=ended))
            self.executor.run()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("-n", type=int, default=20_000, help="decisions per run")
    parser.add_argument("--profile", action="store_true", help="cProfile one run instead")
    parser.add_argument("--inline", action="store_true", help="call the bot inline, not through its lanes")
    args = parser.parse_args()
    loop = Loop(args.inline)
    for _ in range(2_000):  # warm up: every game started, the allocator's pools filled
        loop.one()
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(args.n):
            loop.one()
        profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(20)
        return
    for _ in range(3):
        start = time.process_time()
        for _ in range(args.n):
            loop.one()
        print(f"SDK work: {(time.process_time() - start) / args.n * 1e6:.1f} CPU-µs per decision")


if __name__ == "__main__":
    main()
