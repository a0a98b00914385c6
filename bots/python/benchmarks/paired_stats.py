"""Paired A/B of one bot over the same duplicate deals, from two `tapp replay export` files.

    tapp replay export MATCH_A --db A.db --no-sent --out a.jsonl
    tapp replay export MATCH_B --db B.db --no-sent --out b.jsonl
    .venv/bin/python bots/python/benchmarks/paired_stats.py a.jsonl b.jsonl sleuth

The two matches must play the same deals (the same seed, rules and bots' seats): the
statistical unit is the duplicate group played completely in both, and the figure is the
bot's mean payoff per deal in B minus in A, group by group, with its 95% interval (normal,
over the groups) and LOS. Printed too: how many deals were played differently, and the
difference split by the bot's role in A's deal (declarer or defender of each contract, Ramsch).
"""

from __future__ import annotations

import json
import math
import sys
from collections import defaultdict


def load(
    path: str, bot: str
) -> tuple[dict[int, list[int]], dict[int, tuple[int, int, str, str]]]:
    groups: dict[int, list[int]] = defaultdict(list)
    deals: dict[int, tuple[int, int, str, str]] = {}
    size = 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            size = max(size, rec["manifest"]["seatings"])
            out = rec["outcome"]
            for r in rec["results"]:
                if r["bot"] != bot:
                    continue
                groups[rec["group"]].append(r["payoff"])
                if out["thrown_in"]:
                    role = "thrown in"
                elif out["contract"] == "ramsch":
                    role = "ramsch"
                else:
                    role = ("declarer " if r["declarer"] else "defender ") + out[
                        "contract"
                    ]
                deals[rec["deal"]] = (rec["group"], r["payoff"], role, rec["moves"])
    return {g: v for g, v in groups.items() if len(v) == size}, deals


def main() -> None:
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    bot = sys.argv[3]
    a, deals_a = load(sys.argv[1], bot)
    b, deals_b = load(sys.argv[2], bot)
    common = sorted(set(a) & set(b))
    if len(common) < 2:
        raise SystemExit("fewer than two groups complete in both matches")
    diffs = [sum(b[g]) / len(b[g]) - sum(a[g]) / len(a[g]) for g in common]
    n = len(diffs)
    mean = sum(diffs) / n
    se = math.sqrt(sum((x - mean) ** 2 for x in diffs) / (n - 1) / n)
    los = 0.5 * (1 + math.erf(mean / se / math.sqrt(2))) if se > 0 else float(mean > 0)
    kept = set(common)
    nd = sum(len(a[g]) for g in common)
    by_role: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    for deal, (group, pay, role, moves) in deals_a.items():
        if group not in kept or deal not in deals_b:
            continue
        row = by_role[role]
        row[0] += 1
        row[1] += moves != deals_b[deal][3]
        row[2] += deals_b[deal][1] - pay
    changed = sum(int(r[1]) for r in by_role.values())
    print(
        f"{bot}: {nd} deals ({n} groups) in both; {changed} played differently; "
        f"B - A {mean:+.3f} per deal, 95% interval [{mean - 1.96 * se:+.2f}, "
        f"{mean + 1.96 * se:+.2f}], LOS {los:.1%}"
    )
    for role, (k, ch, d) in sorted(by_role.items()):
        print(
            f"  {role:20s} {int(k):5d} deals, {int(ch):5d} differently, B - A {d / nd:+.3f} per deal"
        )


if __name__ == "__main__":
    main()
