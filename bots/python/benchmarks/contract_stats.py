"""Where each bot of a match wins and loses, by role and contract, from a `tapp replay export`.

    tapp replay export MATCH --db DB --no-sent --out match.jsonl
    .venv/bin/python bots/python/benchmarks/contract_stats.py match.jsonl

Printed per bot: its payoff per deal it sat in and per occurrence, as declarer and as defender
of each contract and in Ramsch; then its declarations of each point contract by the number of
trumps in its hand (as dealt), with the share won and the payoff per declaration — the figures
docs/STRENGTH.md uses to say which contracts a bot declares too readily.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict

POINT_CONTRACTS = ("frage", "solo", "heartsolo")


def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    seats: dict[str, int] = defaultdict(int)
    roles: dict[str, dict[str, list[int]]] = defaultdict(
        lambda: defaultdict(lambda: [0, 0])
    )
    lengths: dict[str, dict[tuple[str, int], list[int]]] = defaultdict(
        lambda: defaultdict(lambda: [0, 0, 0])
    )
    with open(sys.argv[1], encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            out = rec["outcome"]
            for r in rec["results"]:
                bot = r["bot"].split("#")[0]
                seats[bot] += 1
                if out["thrown_in"]:
                    role = "thrown in"
                elif out["contract"] == "ramsch":
                    role = "ramsch"
                else:
                    role = ("declarer " if r["declarer"] else "defender ") + out[
                        "contract"
                    ]
                roles[bot][role][0] += 1
                roles[bot][role][1] += r["payoff"]
                if r["declarer"] and out["contract"] in POINT_CONTRACTS:
                    trumps = sum(
                        1 for c in rec["hands"][r["seat"]] if c[0] == out["trump"]
                    )
                    row = lengths[bot][(out["contract"], trumps)]
                    row[0] += 1
                    row[1] += int(out["declarer_won"])
                    row[2] += r["payoff"]
    for bot in sorted(seats):
        n = seats[bot]
        print(f"{bot}: {n} seats")
        for role, (k, pay) in sorted(roles[bot].items()):
            print(
                f"  {role:20s} {k:5d} ({k / n:6.1%})  {pay / n:+7.3f} per deal  {pay / k:+7.2f} each"
            )
        for (contract, trumps), (k, won, pay) in sorted(lengths[bot].items()):
            print(
                f"  declared {contract:10s} with {trumps} trumps: {k:4d}, won {won / k:4.0%}, {pay / k:+6.2f} each"
            )


if __name__ == "__main__":
    main()
