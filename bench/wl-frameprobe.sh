#!/bin/bash
# Interactivity, as a 60 Hz frame loop sees it: bench/probe/frameprobe does a
# fixed slice of CPU work each frame (calibrated before any load starts)
# beside each background load of FP_LOADS (lib.sh load_spec: KIND[@PCT], a
# compile as KIND or nice 0 CPU hogs, at PCT % of the CPUs, default
# FP_LOAD_PCT). Samples: wakeup lateness p50/p99/max, % frames met, and the
# figures (lib.sh fig_emit, load included) per frame; the lateness
# of every wakeup goes to OUTDIR/frameprobe-<load>.lat for the plots.
#
# usage: wl-frameprobe.sh OUTDIR
# env:   QUICK=1  FP_LOADS (default "none nice19 batch idle normal@100
#        normal@200 normal@300 hogs@300"; QUICK "hogs@200")
#        FP_LOAD_PCT (300)  FP_WORK_US (work per frame, 4000)  FP_HZ (60)
#        FP_SECS (seconds per load)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
bench_init frameprobe "${1:-}"

LOADS=${FP_LOADS:-$(quick "hogs@200" "none nice19 batch idle normal@100 normal@200 normal@300 hogs@300")}
PCT=${FP_LOAD_PCT:-300}
WORK_US=${FP_WORK_US:-4000}
HZ=${FP_HZ:-60}
SECS=${FP_SECS:-$(quick 3 20)}
probe=$BENCH_BUILD/frameprobe
FIG_OP=frame
[ -x "$probe" ] || die "frameprobe: no $probe: run bench/setup.sh on the host"

iters=$("$probe" --calibrate "$WORK_US")
blog "frameprobe: ${WORK_US} us of work = $iters iterations, ${HZ} Hz, ${SECS} s per load"
for spec in $LOADS; do
	read -r load pct <<<"$(load_spec "$spec" "$PCT")"
	load_start "$load" "$pct"
	[ "$load" = none ] || sleep "$(quick 1 3)"
	res=$BENCH_TMP/fp-$load-$pct.txt
	f0=$(fig_snapshot)
	"$probe" --iters "$iters" --hz "$HZ" --frames $((SECS * HZ)) \
		--raw "$BENCH_OUT/frameprobe-$load$([ "$pct" = "$PCT" ] || echo "-$pct").lat" >"$res" || die "frameprobe failed under the $load load at $pct %"
	f1=$(fig_snapshot)
	load_stop
	get() { awk -v k="$1" '$1 == k { print $2 }' "$res"; }
	p=(load="$load" load_pct="$pct" hz="$HZ" work_us="$WORK_US")
	emit late_p50_us "$(get late_p50_us)" us lower "${p[@]}"
	emit late_p99_us "$(get late_p99_us)" us lower "${p[@]}"
	emit late_max_us "$(get late_max_us)" us lower "${p[@]}"
	emit pct_met "$(get pct_met)" % higher "${p[@]}"
	emit missed "$(get missed)" frames lower "${p[@]}"
	fig_emit "$f0" "$f1" $((SECS * HZ)) "${p[@]}"
	blog "frameprobe: $load $pct %: p50 $(get late_p50_us) us, p99 $(get late_p99_us) us, max $(get late_max_us) us, $(get pct_met) % met"
done
