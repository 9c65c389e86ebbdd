#!/bin/bash
# hackbench (rt-tests): process and thread mode, pipes and sockets, groups
# from 1 to 2 x CPUs. Samples: seconds per run, and its figures (lib.sh
# fig_emit) per message: a run sends groups x 20 x 20 x loops messages.
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
LOOPS=${HB_LOOPS:-$(quick 10 1000)}
REPS=${HB_REPS:-1}
FDS=20 # hackbench's default senders and receivers a group
FIG_OP=msg

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
			f0=$(fig_snapshot)
			out=$(hackbench "${args[@]}" --fds "$FDS" --groups "$g" --loops "$LOOPS" 2>&1) ||
				die "hackbench $mode -g $g failed: $out"
			f1=$(fig_snapshot)
			t=$(echo "$out" | awk '/^Time:/ { print $2 }')
			p=(mode="$mode" groups="$g" loops="$LOOPS" cpus="$NCPU")
			emit time_s "$t" s lower "${p[@]}"
			fig_emit "$f0" "$f1" $((g * FDS * FDS * LOOPS)) "${p[@]}"
			blog "hackbench: $mode groups $g: $t s, $(fig_last fig_res_ipi_per_op) RES IPIs/msg (rep $rep/$REPS)"
		done
	done
done
