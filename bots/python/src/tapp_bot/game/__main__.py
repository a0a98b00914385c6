"""``python -m tapp_bot.game``: tools of the Python game model.

    python -m tapp_bot.game selfplay --rules "modern players=3" --deals 1000 --seed 1 --out games.jsonl
    tapp replay verify games.jsonl          # the Go engine checks every move and settlement
    python -m tapp_bot.game replay games.jsonl   # the Python model replays an export
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from .export import ReplayMismatch, dumps, replay_record
from .rules import RuleSet, RuleSetError
from .selfplay import selfplay


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tapp_bot.game", description="Tools of the Python Tapp game model.")
    sub = parser.add_subparsers(dest="command", required=True)
    sp = sub.add_parser("selfplay", help="play uniformly random legal games, write them as tapp replay export records")
    sp.add_argument("--rules", required=True, help='rule set in canonical form, e.g. "modern players=4 pack=32 frage=on"')
    sp.add_argument("--deals", type=int, required=True, help="number of deals")
    sp.add_argument("--seed", type=int, default=1, help="seed of the deals (the engine's DealFromSeed) and of the choices")
    sp.add_argument("--forced-ramsch", type=float, default=0.0, help="modern: share of the deals played as a forced Ramsch")
    sp.add_argument("--match-deals", type=int, default=100, help="deals per match (a pot carries within a match; default 100)")
    sp.add_argument("--out", required=True, help="output file (JSON Lines), - for stdout")
    rp = sub.add_parser("replay", help="replay export records with the Python model; exit 1 on a disagreement")
    rp.add_argument("file", help="a JSON Lines export (tapp replay export --format jsonl)")
    args = parser.parse_args(argv)
    if args.command == "selfplay":
        try:
            rules = RuleSet.parse(args.rules)
        except RuleSetError as err:
            parser.error(f"--rules: {err}")
        if args.deals < 0:
            parser.error("--deals: want 0 or more")
        out = sys.stdout if args.out == "-" else open(args.out, "w", encoding="utf-8")  # closed below  # noqa: SIM115
        start = time.monotonic()
        try:
            for k, rec in enumerate(selfplay(rules, args.deals, args.seed, args.forced_ramsch, args.match_deals)):
                out.write(dumps(rec) + "\n")
                if (k + 1) % 10000 == 0:
                    print(f"selfplay: {k + 1}/{args.deals} deals", file=sys.stderr)
        except ValueError as err:
            print(f"selfplay: {err}", file=sys.stderr)
            return 2
        finally:
            if out is not sys.stdout:
                out.close()
        print(f"selfplay: {args.deals} deals of {rules} in {time.monotonic() - start:.1f} s -> {args.out}", file=sys.stderr)
        return 0
    bad = 0
    n = 0
    with open(args.file, encoding="utf-8") as f:
        for line_no, line in enumerate(f, 1):
            if not line.strip():
                continue
            n += 1
            try:
                replay_record(json.loads(line))
            except (ReplayMismatch, ValueError, KeyError) as err:
                bad += 1
                print(f"line {line_no}: {err}", file=sys.stderr)
    print(f"replay: {n} deal(s), {bad} disagreement(s)", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
