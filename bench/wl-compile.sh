#!/bin/bash
# Compile throughput: build the generated C project (bench/gen-project.py)
# with make -jN at 100/200/300 % of the online CPUs, as SCHED_NORMAL,
# SCHED_BATCH and SCHED_IDLE. Samples: wall time of each build, and its
# figures (lib.sh fig_emit: IPIs, context switches, CPU idle share, VRQ
# counters) per build.
#
# usage: wl-compile.sh OUTDIR
# env:   QUICK=1  COMPILE_UNITS  BENCH_FUNCS (lib.sh)  COMPILE_PCTS
#        COMPILE_POLICIES  COMPILE_REPS
set -euo pipefail
. "$(dirname "$0")/lib.sh"
bench_init compile "${1:-}"
require make gcc chrt python3

UNITS=$COMPILE_UNITS
FIG_OP=build
PCTS=${COMPILE_PCTS:-$(quick "300" "100 200 300")}
POLICIES=${COMPILE_POLICIES:-$(quick "normal idle" "normal batch idle")}
REPS=${COMPILE_REPS:-1}
proj=$BENCH_TMP/project

blog "compile: generating $UNITS translation units"
gen_project "$proj" "$UNITS"
# Warm-up: a tiny program through the whole tool chain (cc1, as, ld), so
# that no measured build loads it over 9p. The first build's checksum is
# the reference for the others.
echo 'int main(void) { return 0; }' | gcc -x c -o "$BENCH_TMP/warm" -
want=

for rep in $(seq "$REPS"); do
	for pol in $POLICIES; do
		for pct in $PCTS; do
			jobs=$(pct_jobs "$pct")
			make -s -C "$proj" clean
			blog "compile: $pol make -j$jobs ($pct %), $UNITS units, rep $rep/$REPS"
			f0=$(fig_snapshot)
			t0=$(now_ns)
			# shellcheck disable=SC2046
			$(policy_cmd "$pol") make -s -C "$proj" -j"$jobs" >/dev/null
			wall=$(elapsed_s "$t0")
			f1=$(fig_snapshot)
			got=$("$proj/prog")
			want=${want:-$got}
			[ "$got" = "$want" ] || die "compile: wrong checksum $got (want $want)"
			p=(policy="$pol" load_pct="$pct" jobs="$jobs" units="$UNITS")
			emit wall_s "$wall" s lower "${p[@]}"
			fig_emit "$f0" "$f1" 1 "${p[@]}"
			blog "compile: $pol $pct %: ${wall} s, idle $(fig_last fig_idle_pct) %"
		done
	done
done
