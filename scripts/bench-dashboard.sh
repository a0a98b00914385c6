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
# With TAPP_BENCH_POSTGRES set to a PostgreSQL URL (postgres://user:password@host/db?...) the
# database is the schema web_DEALS_MATCHES of that database instead: created with psql when
# missing, built the same way the first time (15–20 minutes for the default size on two
# shared cores) and kept for the next runs (drop it with DROP SCHEMA web_1000000_20000
# CASCADE: about 1 GB). Its connections set synchronous_commit=off: a commit returns before
# the server has flushed it to disk, which spares the build a wait per transaction and changes
# neither what is stored nor the timed calls (they write nothing); should the server crash
# during the build, drop the schema (its last matches may be incomplete). Where the server
# runs on this machine the figures include its CPU for each call (-db-cpu-ms).
#
# Usage: [TAPP_BENCH_POSTGRES=postgres://…] scripts/bench-dashboard.sh [DEALS] [MATCHES] [RUNS]
set -euo pipefail

deals=${1:-1000000}
matches=${2:-20000}
runs=${3:-5}
cd "$(dirname "$0")/.."
if [ -n "${TAPP_BENCH_POSTGRES:-}" ]; then
	schema="web_${deals}_${matches}"
	psql -q -v ON_ERROR_STOP=1 "$TAPP_BENCH_POSTGRES" -c "SET client_min_messages = warning; CREATE SCHEMA IF NOT EXISTS $schema"
	case "$TAPP_BENCH_POSTGRES" in
	*\?*) db="$TAPP_BENCH_POSTGRES&search_path=$schema&synchronous_commit=off" ;;
	*) db="$TAPP_BENCH_POSTGRES?search_path=$schema&synchronous_commit=off" ;;
	esac
	where="PostgreSQL $(psql -Atq "$TAPP_BENCH_POSTGRES" -c 'SHOW server_version'), schema $schema"
else
	cache=${TAPP_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tapp-bench}
	mkdir -p "$cache"
	db="$cache/web-$deals-$matches.db"
	where="database $db"
fi
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg); $where"
TAPP_BENCH_WEB_DEALS=$deals TAPP_BENCH_WEB_MATCHES=$matches TAPP_BENCH_WEB_DB=$db \
	go test ./arena/internal/web -run '^$' -bench DashboardAtScale -benchtime "${runs}x" -timeout 2h
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
