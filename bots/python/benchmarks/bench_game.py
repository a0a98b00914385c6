"""Speed of tapp_bot.game in CPython (docs/BENCHMARKS.md, "Python game model").

    .venv/bin/python bots/python/benchmarks/bench_game.py            # playouts and samples
    .venv/bin/python bots/python/benchmarks/bench_game.py --profile  # where the time goes

Times are CPU time of this process (time.process_time), so that a shared machine's other
load counts less.

* playouts: modern 3-player deals played from the deal to the settlement by uniformly random
  legal actions (State + legal_codes + play_code + rng.choice), deals per second on one core;
* sample: one determinized sample (Sampler.sample: a consistent deal and the full State at
  that point), µs per sample, for positions without and with voids; the one-off Sampler set-up
  per observation is reported apart.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time

from tapp_bot.game import Observation, RuleSet, Sampler, State, random_deal

RULES = RuleSet.parse("modern players=3")


def playouts(n: int, seed: int = 1, forced_ramsch: bool = False, generic: bool = False) -> float:
    """Deals per second of random playouts: State.playout, or the generic legal_codes/play_code loop."""
    rng = random.Random(seed)
    deals = [random_deal(RULES, rng) for _ in range(n)]
    choice = rng.choice
    start = time.process_time()
    for d in deals:
        st = State(RULES, d, forced_ramsch=forced_ramsch)
        if generic:
            while st.phase:
                st.play_code(choice(st.legal_codes()))
        else:
            st.playout(rng)
    return n / (time.process_time() - start)


def position(voids: bool, seed: int = 1) -> Observation:
    """A modern Ramsch after three tricks, seen by the seat to move, with or without voids shown."""
    for s in range(seed, seed + 10000):
        rng = random.Random(s)
        st = State(RULES, random_deal(RULES, rng))
        while st.phase and st.n_tricks < 3:
            codes = st.legal_codes()
            st.play_code(144 if 144 in codes else rng.choice(codes))  # pass, then random cards
        if st.contract != 10 or not st.phase:
            continue
        has_voids = any(st.voids[p] for p in range(3) if p != st.to_move)
        if has_voids == voids:
            return st.observe(st.to_move)
    raise SystemExit("no position found")


def samples(obs: Observation, n: int) -> tuple[float, float]:
    """(set-up µs, µs per sample)."""
    start = time.process_time()
    sampler = Sampler(obs, random.Random(1))
    setup = time.process_time() - start
    sampler.sample()  # the first sample replays the history once
    start = time.process_time()
    for _ in range(n):
        sampler.sample()
    return setup * 1e6, (time.process_time() - start) / n * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=5000)
    parser.add_argument("--samples", type=int, default=20000)
    parser.add_argument("--profile", action="store_true", help="profile the playouts and the samples with cProfile")
    args = parser.parse_args()
    if args.profile:
        obs = position(True)
        prof = cProfile.Profile()
        prof.enable()
        playouts(args.deals // 5, forced_ramsch=True)
        samples(obs, args.samples // 5)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(14)
        return
    print(f"playouts: {playouts(args.deals):,.0f} modern 3-player deals/s (random bidding and play, State.playout)")
    print(f"playouts: {playouts(args.deals, generic=True):,.0f} deals/s (the same with legal_codes + play_code + choice)")
    print(f"playouts: {playouts(args.deals, forced_ramsch=True):,.0f} Ramsch deals/s (all 11 tricks played, State.playout)")
    for voids in (False, True):
        setup, per = samples(position(voids), args.samples)
        print(f"sample ({'with' if voids else 'no'} voids): {per:.1f} µs per sample (set-up {setup:.0f} µs once per observation)")


if __name__ == "__main__":
    main()
