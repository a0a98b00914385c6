"""Evaluate a simple agent in the PettingZoo environment (tapp_bot.env) against random agents.

The agent reads only what PettingZoo gives it (the observation vector and the action mask):
in the bidding it passes, and in the play it takes the trick with its highest card unless the
contract is Ramsch (where the most card points pays), where it ducks with its lowest. Each deal
is played once with the agent in every seat (duplicate: the same cards, so the luck of the deal
mostly cancels), and the mean payoff per deal is printed with a 95% interval over the deals.

    .venv/bin/python bots/python/examples/pettingzoo_eval.py --rules "modern players=3" --deals 300
"""

from __future__ import annotations

import argparse
import math
import random

import numpy as np

from tapp_bot.env import TappEnv
from tapp_bot.game.actions import PASS
from tapp_bot.game.rules import NUM_CONTRACTS, RAMSCH

CARDS = 36


def simple_agent(env: TappEnv, obs: dict[str, np.ndarray]) -> int:
    """Pass in the bidding; in play, lowest card in Ramsch, else highest (by rank within suit)."""
    legal = np.flatnonzero(obs["action_mask"])
    if PASS in legal:
        return PASS
    cards = [int(a) for a in legal if a < CARDS]
    if not cards:
        return int(legal[0])
    n = env.rules.players
    # The contract's one-hot in the observation vector (tapp_bot.encoding.encode_observation).
    at = n + 9 + n + 5 * CARDS + 2 * n * CARDS
    contract = int(np.argmax(obs["observation"][at:at + NUM_CONTRACTS]))
    rank = lambda c: c % 9  # noqa: E731  (6 7 8 9 J Q K T A)
    return min(cards, key=rank) if contract == RAMSCH else max(cards, key=rank)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rules", default="modern players=3")
    p.add_argument("--deals", type=int, default=300)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    env = TappEnv(args.rules)
    rng = random.Random(args.seed)
    n = env.rules.players
    per_deal = []
    for k in range(args.deals):
        total = 0.0
        for seat in range(n):  # the agent in every seat of the same deal
            env.reset(seed=args.seed, options={"deal": k})
            me = f"seat_{seat}"
            for agent in env.agent_iter():
                obs, reward, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    if agent == me:
                        total += reward
                    env.step(None)
                    continue
                if agent == me:
                    env.step(simple_agent(env, obs))
                else:
                    legal = np.flatnonzero(obs["action_mask"])
                    env.step(int(legal[rng.randrange(len(legal))]))
        per_deal.append(total / n)
    mean = sum(per_deal) / len(per_deal)
    sd = math.sqrt(sum((x - mean) ** 2 for x in per_deal) / (len(per_deal) - 1))
    half = 1.96 * sd / math.sqrt(len(per_deal))
    print(f"{args.rules}: simple agent vs random, {args.deals} deals x {n} seats: "
          f"{mean:+.2f} {env.rules.unit} per deal, 95% interval [{mean - half:+.2f}, {mean + half:+.2f}]")


if __name__ == "__main__":
    main()
