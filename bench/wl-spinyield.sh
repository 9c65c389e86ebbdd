#!/bin/bash
# sched_yield() spinners against a worker of the same nice: bench/probe/
# spinyield starts 2 x CPUs processes spinning on sched_yield() and times a
# worker that needs SY_WORK_MS of CPU. Samples: the worker's stretch (wall
# time / CPU time; 1.0 when the spinners make room), and the figures
# (lib.sh fig_emit) per run.
#
# usage: wl-spinyield.sh OUTDIR
# env:   QUICK=1  SY_WORK_MS (200)  SY_REPS (QUICK 1, else 5)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
bench_init spinyield "${1:-}"

WORK_MS=${SY_WORK_MS:-200}
REPS=${SY_REPS:-$(quick 1 5)}
SPINNERS=$((2 * NCPU))
FIG_OP=run
probe=$BENCH_BUILD/spinyield
[ -x "$probe" ] || die "spinyield: no $probe: run bench/setup.sh on the host"

for rep in $(seq "$REPS"); do
	res=$BENCH_TMP/spinyield.txt
	f0=$(fig_snapshot)
	"$probe" --spinners "$SPINNERS" --work-ms "$WORK_MS" >"$res" || die "spinyield failed"
	f1=$(fig_snapshot)
	get() { awk -v k="$1" '$1 == k { print $2 }' "$res"; }
	p=(spinners="$SPINNERS" work_ms="$WORK_MS")
	emit stretch "$(get stretch)" x lower "${p[@]}"
	fig_emit "$f0" "$f1" 1 "${p[@]}"
	blog "spinyield: $SPINNERS spinners: worker wall $(get wall_ms) ms for $(get cpu_ms) ms of CPU, stretch $(get stretch) (rep $rep/$REPS)"
done
