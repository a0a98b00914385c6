#!/usr/bin/env bash
# busy-host.sh: run a command beside CPU-bound processes, as on a shared server (issue 28's
# "fair clocks on a busy host"), and say what load average the host had while it ran.
#
#   scripts/busy-host.sh [-n SPINNERS] [-s LOADLOG] -- COMMAND [ARGS...]
#
# Starts SPINNERS (default 8) `sh -c 'while :; do :; done'` processes at niceness 0, waits
# 5 s for the load average to see them, runs COMMAND, samples /proc/loadavg every 5 s while it
# runs (into LOADLOG when given), then kills exactly the spinners it started, by their pids,
# also when interrupted. It prints the load averages (1-minute figure: first, lowest, mean,
# highest) on stderr at the end and exits with COMMAND's status.
set -euo pipefail

spinners=8
loadlog=""
while [[ $# -gt 0 ]]; do
	case "$1" in
	-n) spinners="$2"; shift 2 ;;
	-s) loadlog="$2"; shift 2 ;;
	--) shift; break ;;
	*) echo "usage: $0 [-n SPINNERS] [-s LOADLOG] -- COMMAND [ARGS...]" >&2; exit 2 ;;
	esac
done
[[ $# -gt 0 ]] || { echo "usage: $0 [-n SPINNERS] [-s LOADLOG] -- COMMAND [ARGS...]" >&2; exit 2; }
[[ "$spinners" =~ ^[0-9]+$ ]] || { echo "$0: -n wants a count, got $spinners" >&2; exit 2; }

pids=()
sampler=""
samples=$(mktemp)
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	[[ -n "$sampler" ]] && kill "$sampler" 2>/dev/null || true
	wait 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

for ((i = 0; i < spinners; i++)); do
	nice -n 0 sh -c 'while :; do :; done' &
	pids+=("$!")
done
[[ "$spinners" -gt 0 ]] && sleep 5

(
	while :; do
		line="$(date -u +%H:%M:%S) $(cut -d' ' -f1-3 /proc/loadavg)"
		echo "$line" >>"$samples"
		[[ -n "$loadlog" ]] && echo "$line" >>"$loadlog"
		sleep 5
	done
) &
sampler=$!

status=0
"$@" || status=$?

kill "$sampler" 2>/dev/null || true
awk -v n="$spinners" '{ v = $2 + 0; if (NR == 1 || v < lo) lo = v; if (v > hi) hi = v; s += v; if (NR == 1) first = v }
	END { if (NR) printf "busy-host: %d spinners; load average (1 min) first %.1f, lowest %.1f, mean %.1f, highest %.1f over %d samples\n", n, first, lo, s / NR, hi, NR }' "$samples" >&2
rm -f "$samples"
exit "$status"
