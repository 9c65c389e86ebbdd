#!/bin/bash
# Wakeup latency of a task that wakes briefly and often beside equal-
# priority load: bench/probe/sleeper sleeps SL_PERIOD_US, burns SL_WORK_US
# and repeats, pinned to CPU 0 with K nice 0 CPU hogs (K from SL_HOGS).
# Samples: wakeup latency p50/p99/max, and the figures (lib.sh fig_emit)
# per wakeup.
#
# usage: wl-sleeper.sh OUTDIR
# env:   QUICK=1  SL_HOGS (default "1 2"; QUICK "2")  SL_SECS
#        SL_PERIOD_US (5000)  SL_WORK_US (20)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
bench_init sleeper "${1:-}"

HOGS=${SL_HOGS:-$(quick "2" "1 2")}
SECS=${SL_SECS:-$(quick 3 20)}
PERIOD=${SL_PERIOD_US:-5000}
WORK=${SL_WORK_US:-20}
FIG_OP=wakeup
probe=$BENCH_BUILD/sleeper
[ -x "$probe" ] || die "sleeper: no $probe: run bench/setup.sh on the host"

for k in $HOGS; do
	res=$BENCH_TMP/sleeper-$k.txt
	blog "sleeper: ${PERIOD} us period, ${WORK} us work, beside $k hog(s) on CPU 0, ${SECS} s"
	f0=$(fig_snapshot)
	"$probe" --hogs "$k" --period-us "$PERIOD" --work-us "$WORK" --secs "$SECS" >"$res" ||
		die "sleeper failed beside $k hogs"
	f1=$(fig_snapshot)
	get() { awk -v k="$1" '$1 == k { print $2 }' "$res"; }
	p=(hogs="$k" period_us="$PERIOD" work_us="$WORK")
	emit lat_p50_us "$(get lat_p50_us)" us lower "${p[@]}"
	emit lat_p99_us "$(get lat_p99_us)" us lower "${p[@]}"
	emit lat_max_us "$(get lat_max_us)" us lower "${p[@]}"
	fig_emit "$f0" "$f1" "$(get wakeups)" "${p[@]}"
	blog "sleeper: $k hogs: p50 $(get lat_p50_us) us, p99 $(get lat_p99_us) us, max $(get lat_max_us) us over $(get wakeups) wakeups"
done
