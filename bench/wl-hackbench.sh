#!/bin/bash
# hackbench (rt-tests): process and thread mode, pipes and sockets, groups
# from 1 to 2 x CPUs. Samples: seconds per run.
#
# usage: wl-hackbench.sh OUTDIR
# env:   QUICK=1  HB_GROUPS (default 1..2xCPUs; QUICK 1)  HB_MODES
#        (default "process-pipe process-socket thread-pipe thread-socket")
#        HB_LOOPS  HB_REPS
set -euo pipefail
. "$(dirname "$0")/lib.sh"
bench_init hackbench "${1:-}"
require hackbench

GROUPS_=${HB_GROUPS:-$(quick 1 "$(seq -s ' ' 1 $((2 * NCPU)))")}
MODES=${HB_MODES:-process-pipe process-socket thread-pipe thread-socket}
LOOPS=${HB_LOOPS:-$(quick 10 200)}
REPS=${HB_REPS:-$(quick 1 3)}

for rep in $(seq "$REPS"); do
	for mode in $MODES; do
		args=()
		case "$mode" in
		process-*) args+=(--process) ;;
		thread-*) args+=(--threads) ;;
		*) die "hackbench: unknown mode '$mode'" ;;
		esac
		case "$mode" in
		*-pipe) args+=(--pipe) ;;
		*-socket) ;;
		*) die "hackbench: unknown mode '$mode'" ;;
		esac
		for g in $GROUPS_; do
			out=$(hackbench "${args[@]}" --groups "$g" --loops "$LOOPS" 2>&1) ||
				die "hackbench $mode -g $g failed: $out"
			t=$(echo "$out" | awk '/^Time:/ { print $2 }')
			emit time_s "$t" s lower mode="$mode" groups="$g" loops="$LOOPS" cpus="$NCPU"
			blog "hackbench: $mode groups $g: $t s (rep $rep/$REPS)"
		done
	done
done
