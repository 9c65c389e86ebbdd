#!/bin/bash
# Interactivity, as a video player sees it: mpv plays the h264 720p30 clip
# (--vo=null --ao=null, so decoding and frame timing only) beside each
# background load of MPV_LOADS (lib.sh load_spec: KIND[@PCT], a compile as
# KIND or nice 0 CPU hogs, at PCT % of the CPUs, default MPV_LOAD_PCT). The
# counters come from bench/mpv-stats.lua at the end of the clip.
# Samples: frame drops (VO and decoder), delayed frames, and how much longer
# than the clip playback took, and the figures (lib.sh fig_emit, load and
# mpv's start-up included) per clip frame (start-up excluded from the
# overrun: mpv maps 228 libraries,
# which takes minutes in a TCG guest whose root is 9p with cache=none).
#
# usage: wl-mpv.sh OUTDIR
# env:   QUICK=1  MPV_LOADS (default "batch normal@300", the two loads
#        the goals name; "nice19 idle hogs@300" are the others; QUICK "nice19")
#        MPV_LOAD_PCT (300)  MPV_WARMUP (s of load before playing)
#        MPV_LIMIT (s before a stuck mpv is killed)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
bench_init mpv "${1:-}"
require mpv make gcc

LOADS=${MPV_LOADS:-$(quick "nice19" "batch normal@300")}
PCT=${MPV_LOAD_PCT:-300}
WARMUP=${MPV_WARMUP:-$(quick 1 5)}
LIMIT=${MPV_LIMIT:-$(($(clip_secs) * 4 + 900))}
clip=$(clip_path)
FIG_OP=frame
[ -s "$clip" ] || die "mpv: no clip at $clip: run bench/setup.sh on the host (QUICK=$QUICK)"

for spec in $LOADS; do
	read -r load pct <<<"$(load_spec "$spec" "$PCT")"
	load_start "$load" "$pct"
	sleep "$WARMUP"
	stats=$BENCH_TMP/mpv-$load-$pct.txt
	blog "mpv: playing $(basename "$clip") under the $load load at $pct %"
	t0=$(now_ns)
	f0=$(fig_snapshot)
	# a hung player is a failed workload, not a hung benchmark
	timeout -k 5 "$LIMIT" mpv --no-config --vo=null --ao=null --keep-open=yes --no-terminal \
		--msg-level=all=error --script="$BENCH_DIR/mpv-stats.lua" \
		--script-opts=benchstats-out="$stats" "$clip" ||
		die "mpv failed or ran over ${LIMIT}s under the $load load at $pct %"
	f1=$(fig_snapshot)
	wall=$(elapsed_s "$t0")
	load_stop
	[ -s "$stats" ] || die "mpv: no counters from mpv-stats.lua"
	get() { awk -v k="$1" '$1 == k { print $2 }' "$stats"; }
	p=(load="$load" load_pct="$pct")
	emit frame_drops "$(get frame-drop-count)" frames lower "${p[@]}"
	emit decoder_drops "$(get decoder-frame-drop-count)" frames lower "${p[@]}"
	emit delayed_frames "$(get vo-delayed-frame-count)" frames lower "${p[@]}"
	emit overrun_s "$(awk -v w="$(get playback-seconds)" -v d="$(get duration)" 'BEGIN { printf "%.3f", w - d }')" s lower "${p[@]}"
	fig_emit "$f0" "$f1" $(($(clip_secs) * 30)) "${p[@]}"
	blog "mpv: $load $pct %: $(get frame-drop-count) VO drops, $(get decoder-frame-drop-count) decoder drops, $(get estimated-frame-number) frames, ${wall} s"
done
