#!/bin/bash
# Wakeup latency: cyclictest with SCHED_OTHER measurement threads (one per
# CPU, 1 ms interval) beside each background load of CT_LOADS (lib.sh
# load_spec: KIND[@PCT], a compile as KIND or nice 0 CPU hogs, at PCT % of
# the CPUs, default CT_LOAD_PCT).
# Samples: p50/p99/max/avg latency over all threads, and the figures
# (lib.sh fig_emit, load included) per wakeup; the histogram (sparse
# "us count" lines, overflows at the max) goes to OUTDIR/cyclictest-<load>.hist.
#
# usage: wl-cyclictest.sh OUTDIR
# env:   QUICK=1  CT_LOADS (default "nice19 normal@100 normal@200 normal@300
#        hogs@300"; QUICK "normal@300")
#        CT_LOAD_PCT (300)  CT_SECS  CT_INTERVAL_US (1000)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
bench_init cyclictest "${1:-}"
require cyclictest

LOADS=${CT_LOADS:-$(quick "normal@300" "nice19 normal@100 normal@200 normal@300 hogs@300")}
PCT=${CT_LOAD_PCT:-300}
SECS=${CT_SECS:-$(quick 3 20)}
INTERVAL=${CT_INTERVAL_US:-1000}
HMAX=200000
FIG_OP=wakeup

for spec in $LOADS; do
	read -r load pct <<<"$(load_spec "$spec" "$PCT")"
	load_start "$load" "$pct"
	[ "$load" = none ] || sleep "$(quick 1 3)"
	raw=$BENCH_TMP/ct-$load-$pct.hist
	blog "cyclictest: ${SECS} s, SCHED_OTHER, under the $load load at $pct %"
	f0=$(fig_snapshot)
	out=$(cyclictest --policy=other -S -m -q -D "$SECS" -i "$INTERVAL" -h "$HMAX" \
		--histfile="$raw" 2>&1) || die "cyclictest failed: $out"
	f1=$(fig_snapshot)
	load_stop
	hist=$BENCH_OUT/cyclictest-$load$([ "$pct" = "$PCT" ] || echo "-$pct").hist
	awk '/^# Max Latencies:/ { for (i = 4; i <= NF; i++) if ($i + 0 > max) max = $i + 0 }
	     /^# Histogram Overflows:/ { for (i = 4; i <= NF; i++) ov += $i }
	     !/^#/ && NF >= 2 { c = 0; for (i = 2; i <= NF; i++) c += $i; if (c) print $1 + 0, c }
	     END { if (ov) print max, ov }' "$raw" >"$hist"
	# (no process substitution: the QEMU guest has no /dev/fd)
	read -r p50 p99 max n <<<"$(hist_stats "$hist")"
	avg=$(awk '/^# Avg Latencies:/ { for (i = 4; i <= NF; i++) { s += $i; n++ } } END { if (n) printf "%.1f", s / n }' "$raw")
	[ "$n" -gt 0 ] || die "cyclictest: empty histogram"
	p=(load="$load" load_pct="$pct" interval_us="$INTERVAL")
	emit lat_p50_us "$p50" us lower "${p[@]}"
	emit lat_p99_us "$p99" us lower "${p[@]}"
	emit lat_max_us "$max" us lower "${p[@]}"
	emit lat_avg_us "$avg" us lower "${p[@]}"
	fig_emit "$f0" "$f1" "$n" "${p[@]}"
	blog "cyclictest: $load $pct %: p50 $p50 us, p99 $p99 us, max $max us over $n wakeups"
done
