#!/usr/bin/env bash
# bench-league-store.sh — what the store costs a league (docs/BENCHMARKS.md, "League").
#
# Builds tapp, then runs the league in LEAGUE_FILE (default docs/examples/bench-random.yaml)
# PAIRS times (default 20) on the in-memory store and on a fresh SQLite file, alternating which
# of the two runs first, and prints each pair's rates and the store's cost: the mean over the
# pairs of (SQLite rate / memory rate − 1), with its 95% interval. Single runs on a busy or
# virtual machine vary by several percent, so only the mean of many pairs says much.
#
# Usage: scripts/bench-league-store.sh [PAIRS] [LEAGUE_FILE]
set -euo pipefail

pairs=${1:-20}
cd "$(dirname "$0")/.."
league=$(realpath "${2:-docs/examples/bench-random.yaml}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/tapp" ./cmd/tapp

# rate DB prints the deals/s of one run of the league on DB.
rate() {
	rm -f "$work"/bench.db*
	(cd "$work" && "$work/tapp" league run "$league" --db "$1" 2>/dev/null) |
		sed -n 's/.*(\([0-9.]*\) deals\/s).*/\1/p'
}

for i in $(seq 1 "$pairs"); do
	if ((i % 2)); then
		sqlite=$(rate "$work/bench.db"); memory=$(rate memory:)
	else
		memory=$(rate memory:); sqlite=$(rate "$work/bench.db")
	fi
	echo "pair $i: memory $memory deals/s, SQLite $sqlite deals/s"
	echo "$memory $sqlite" >>"$work/rates"
done
awk '{ m += $1; q += $2; c = ($2 / $1 - 1) * 100; s += c; ss += c * c; n++ }
END {
	mean = s / n; sd = n > 1 ? sqrt((ss - n * mean * mean) / (n - 1)) : 0
	# Student t, 97.5th percentile, for n-1 degrees of freedom (1.96 beyond 30).
	split("12.71 4.30 3.18 2.78 2.57 2.45 2.36 2.31 2.26 2.23 2.20 2.18 2.16 2.14 2.13 2.12 2.11 2.10 2.09 2.09 2.08 2.07 2.07 2.06 2.06 2.06 2.05 2.05 2.05", t, " ")
	q975 = n - 1 <= 29 && n > 1 ? t[n - 1] : 1.96
	printf "%d pairs: memory %.0f deals/s, SQLite %.0f deals/s; the store costs %.1f%% ± %.1f%% (95%%)\n",
		n, m / n, q / n, -mean, q975 * sd / sqrt(n)
}' "$work/rates"
