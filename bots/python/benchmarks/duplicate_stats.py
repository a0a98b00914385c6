"""Per-deal results of one bot in a duplicate match, from a `tapp replay export` file.

    tapp replay export MATCH --db DB --no-sent --out match.jsonl
    .venv/bin/python bots/python/benchmarks/duplicate_stats.py match.jsonl py-search

The statistical unit is the duplicate group (one deal source under every seating): the bot's
mean payoff per deal in the group. Printed: deals and groups, the mean per deal (cents in
modern, game points in the older variants), its 95% interval (Student t over the groups) and
the likelihood of superiority LOS = Φ(mean / standard error) — as docs/STRENGTH.md reports
`tapp match --duplicate`.
"""

from __future__ import annotations

import json
import math
import sys
from collections import defaultdict


def t_quantile_975(df: int) -> float:
    """The 97.5% quantile of Student's t (Cornish–Fisher expansion; exact to 1e-3 for df >= 5)."""
    z = 1.959964
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


def main() -> None:
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    path, bot = sys.argv[1], sys.argv[2]
    groups: dict[int, list[int]] = defaultdict(list)
    others: dict[str, list[int]] = defaultdict(list)
    deals = 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            deals += 1
            for r in rec["results"]:
                if r["bot"] == bot:
                    groups[rec["group"]].append(r["payoff"])
                else:
                    others[r["bot"]].append(r["payoff"])
    means = [sum(v) / len(v) for v in groups.values()]
    g = len(means)
    if g < 2:
        raise SystemExit(f"{bot}: {g} group(s) found, need 2 or more")
    mean = sum(means) / g
    sd = math.sqrt(sum((m - mean) ** 2 for m in means) / (g - 1))
    se = sd / math.sqrt(g)
    half = t_quantile_975(g - 1) * se
    los = 0.5 * (1 + math.erf(mean / se / math.sqrt(2))) if se > 0 else float(mean > 0)
    print(f"{bot}: {deals} deals ({g} groups): {mean:+.2f} per deal, 95% interval [{mean - half:+.2f}, {mean + half:+.2f}], LOS {los:.1%}")
    for name, v in sorted(others.items()):
        print(f"  {name}: {sum(v) / len(v):+.2f} per deal")


if __name__ == "__main__":
    main()
