#!/usr/bin/env bash
# bench-dashboard.sh — every call of the dashboard's pages at scale (docs/BENCHMARKS.md,
# "Speed near the limits (issue 31): the dashboard at scale").
#
# Runs BenchmarkDashboardAtScale (arena/internal/web) on a ladder-shaped SQLite database of
# DEALS deals in MATCHES matches (default 1,000,000 and 20,000), built through the store's own
# write path the first time (about ten minutes on two cores) and kept in the cache folder
# (TAPP_BENCH_CACHE, default ~/.cache/tapp-bench) for the next runs; a database an older build
# made is migrated when opened. It prints the machine's CPU, cores and load average beside the
# figures. Two runs at once must not share a cache folder.
#
# Usage: scripts/bench-dashboard.sh [DEALS] [MATCHES] [RUNS]
set -euo pipefail

deals=${1:-1000000}
matches=${2:-20000}
runs=${3:-5}
cd "$(dirname "$0")/.."
cache=${TAPP_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tapp-bench}
mkdir -p "$cache"
db="$cache/web-$deals-$matches.db"
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg); database $db"
TAPP_BENCH_WEB_DEALS=$deals TAPP_BENCH_WEB_MATCHES=$matches TAPP_BENCH_WEB_DB=$db \
	go test ./arena/internal/web -run '^$' -bench DashboardAtScale -benchtime "${runs}x" -timeout 2h
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
