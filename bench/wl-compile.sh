#!/bin/bash
# Compile throughput: build the generated C project (bench/gen-project.py)
# with make -jN at 100/200/300 % of the online CPUs, as SCHED_NORMAL,
# SCHED_BATCH and SCHED_IDLE. Samples: wall time and the CPU idle share
# (/proc/stat) of each build.
#
# usage: wl-compile.sh OUTDIR
# env:   QUICK=1  COMPILE_UNITS  BENCH_FUNCS (lib.sh)  COMPILE_PCTS
#        COMPILE_POLICIES  COMPILE_REPS
set -euo pipefail
. "$(dirname "$0")/lib.sh"
bench_init compile "${1:-}"
require make gcc chrt python3

UNITS=$COMPILE_UNITS
PCTS=${COMPILE_PCTS:-$(quick "300" "100 200 300")}
POLICIES=${COMPILE_POLICIES:-$(quick "normal idle" "normal batch idle")}
REPS=${COMPILE_REPS:-1}
proj=$BENCH_TMP/project

blog "compile: generating $UNITS translation units"
gen_project "$proj" "$UNITS"
# Warm-up build (caches the compiler) and the reference checksum.
make -s -C "$proj" -j"$(pct_jobs 100)" >/dev/null
want=$("$proj/prog")

for rep in $(seq "$REPS"); do
	for pol in $POLICIES; do
		for pct in $PCTS; do
			jobs=$(pct_jobs "$pct")
			make -s -C "$proj" clean
			blog "compile: $pol make -j$jobs ($pct %), $UNITS units, rep $rep/$REPS"
			s0=$(cpu_snapshot)
			t0=$(now_ns)
			# shellcheck disable=SC2046
			$(policy_cmd "$pol") make -s -C "$proj" -j"$jobs" >/dev/null
			wall=$(elapsed_s "$t0")
			idle=$(idle_pct "$s0" "$(cpu_snapshot)")
			got=$("$proj/prog")
			[ "$got" = "$want" ] || die "compile: wrong checksum $got (want $want)"
			emit wall_s "$wall" s lower policy="$pol" load_pct="$pct" jobs="$jobs" units="$UNITS"
			emit idle_pct "$idle" % lower policy="$pol" load_pct="$pct" jobs="$jobs" units="$UNITS"
			blog "compile: $pol $pct %: ${wall} s, idle ${idle} %"
		done
	done
done
