#!/usr/bin/env bash
# soak-league.sh — does a long ladder keep its speed, its memory and its records small?
# (docs/BENCHMARKS.md, "Overnight ladder").
#
# Builds tapp, runs an unbounded duplicate ladder of 6 random built-in bots (modern, tables
# of 3) on a fresh SQLite file for DURATION (default 30m; whole s, m or h: 90s, 8h), and
# prints, for each tenth of the run, the deals stored in it, its rate, the arena's CPU time per
# deal, and its RSS (sampled every second: the median and the peak of the tenth); then the first and last
# tenths' rates and their ratio, how much the RSS grew after warm-up (the first tenth: the
# highest peak of a later tenth against the second tenth's), the bytes per stored deal (WAL
# checkpointed), and how long `tapp ratings` takes on the database.
#
# Usage: scripts/soak-league.sh [DURATION] [DB]
#   DB: where to keep the database (default: a temporary file, removed at the end). A
#   postgres:// URL soaks PostgreSQL, in a schema of its own that is dropped at the end
#   (bytes per deal: the size of its tables with their indexes and TOAST).
# To see what the arena keeps in memory over time, set TAPP_MEMPROFILE=/abs/path/heap and
# TAPP_MEMPROFILE_EVERY=3m: heap profiles heap.PID.1, heap.PID.2, ... (compare them with
# go tool pprof -base).
set -euo pipefail

duration=${1:-30m}
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
pid=
go build -o "$work/tapp" ./cmd/tapp
db=${2:-$work/soak.db}
case $duration in # whole seconds, minutes or hours: 90, 90s, 30m, 8h
*h) seconds=$((${duration%h} * 3600)) ;;
*m) seconds=$((${duration%m} * 60)) ;;
*s) seconds=${duration%s} ;;
*) seconds=$duration ;;
esac
tenth=$(awk -v s="$seconds" 'BEGIN { printf "%.3f", s / 10 }')

cat >"$work/soak.yaml" <<YAML
name: soak
rules: modern players=3
format: ladder
matches_per_round: 2
deals: 4
duplicate: true
seed: 7
concurrency: 8
bots:
  - {name: r1, builtin: random, seed: 1}
  - {name: r2, builtin: random, seed: 2}
  - {name: r3, builtin: random, seed: 3}
  - {name: r4, builtin: random, seed: 4}
  - {name: r5, builtin: random, seed: 5}
  - {name: r6, builtin: random, seed: 6}
YAML

# On PostgreSQL the league gets a schema of its own (dropped at the end), and the bytes per
# deal are the size of that schema's tables and indexes.
if [[ $db == postgres* ]]; then
	admin=$db
	schema=tapp_soak_$$
	psql "$admin" -qc "CREATE SCHEMA $schema" >/dev/null
	trap 'kill "$pid" 2>/dev/null || true; psql "$admin" -qc "DROP SCHEMA $schema CASCADE" >/dev/null 2>&1; rm -rf "$work"' EXIT
	db="$admin$([[ $admin == *\?* ]] && echo '&' || echo '?')search_path=$schema"
fi
pg_size() {
	psql "$admin" -Atc "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = '$schema' AND c.relkind IN ('r', 'm')"
}

# deals prints the deals the league has stored (0 before it exists).
deals() {
	"$work/tapp" league status soak --db "$db" 2>/dev/null | sed -n 's/.*, \([0-9]*\) deals stored$/\1/p' | head -1 || true
}
rss_kb() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status" 2>/dev/null || true; }
# cpu_ticks is the CPU time the arena has used (user + system, in clock ticks): its CPU per
# deal does not depend on what else the machine runs, as the rate does.
# (Empty once the arena has ended: the last tenth may end with the run.)
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || true; }

(cd "$work" && exec "$work/tapp" league run "$work/soak.yaml" --db "$db" --for "${seconds}s" >"$work/out" 2>"$work/err") &
pid=$!
echo "soak: ladder of 6 random bots for ${seconds}s on $db (pid $pid)"
# The tenths are timed from when the league exists (its bots started), each sample at its
# own time, and each rate is over the time that really passed between samples.
while [[ -z $(deals) ]] && kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
now() { date +%s.%N; }
start=$(now)
last=0
prev=$start
cpu_prev=$(cpu_ticks "$pid")
hz=$(getconf CLK_TCK)
for i in $(seq 1 10); do
	# Sample the RSS every second until a second before the tenth's end (league status takes
	# a moment), then count the deals.
	: >"$work/rss"
	while awk -v s="$start" -v t="$tenth" -v i="$i" -v n="$(now)" 'BEGIN { exit !(n < s + i * t - 1) }'; do
		r=$(rss_kb "$pid")
		[[ -n $r ]] && echo "$r" >>"$work/rss"
		sleep 1
	done
	n=$(deals)
	n=${n:-0}
	at=$(now)
	cpu=$(cpu_ticks "$pid")
	cpu_ms="?"
	if [[ -n $cpu && -n $cpu_prev ]]; then
		cpu_ms=$(awk -v c="$((cpu - cpu_prev))" -v hz="$hz" -v d="$((n - last))" 'BEGIN { printf "%.2f", (d > 0 ? 1000 * c / hz / d : 0) }')
	fi
	cpu_prev=$cpu
	rate=$(awk -v a="$last" -v b="$n" -v t0="$prev" -v t1="$at" 'BEGIN { printf "%.0f", (b - a) / (t1 - t0) }')
	rss=$(sort -n "$work/rss" | awk '{ v[NR] = $1 } END { if (NR) printf "%.0f %.0f", v[int((NR + 1) / 2)] / 1024, v[NR] / 1024; else print "? ?" }')
	echo "tenth $i: $((n - last)) deals, $rate deals/s, arena CPU $cpu_ms ms/deal, RSS median ${rss% *} MB, peak ${rss#* } MB, $n deals stored"
	echo "$rate" >>"$work/rates"
	echo "${rss#* }" >>"$work/peaks"
	last=$n
	prev=$at
done
wait "$pid" || { echo "tapp league run failed:"; tail -20 "$work/err"; exit 1; }
pid=
n=$(deals)
awk 'NR == 1 { f = $1 } { l = $1 } END { printf "first tenth %d deals/s, last tenth %d deals/s: last/first %.2f\n", f, l, (f > 0 ? l / f : 0) }' "$work/rates"
awk 'NR == 2 { w = $1 } NR > 2 && $1 > m { m = $1 } END { if (m < w) m = w
	printf "RSS after warm-up: second tenth peak %d MB, highest later peak %d MB: growth %.1f%%\n", w, m, (w > 0 ? 100 * (m - w) / w : 0) }' "$work/peaks"
if [[ $db == postgres* ]]; then
	bytes=$(pg_size)
	echo "PostgreSQL: $bytes bytes for $n deals: $((bytes / n)) bytes/deal"
else
	sqlite3 "$db" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null 2>&1 || true
	bytes=$(stat -c %s "$db")
	echo "SQLite: $bytes bytes for $n deals: $((bytes / n)) bytes/deal"
fi
t0=$(date +%s.%N)
"$work/tapp" ratings --league soak --db "$db" >/dev/null
t1=$(date +%s.%N)
awk -v a="$t0" -v b="$t1" 'BEGIN { printf "tapp ratings: %.2f s\n", b - a }'
