#!/bin/bash
# Host-side setup the workloads need, under build/bench/ (the guest reads it
# over the read-only 9p root): the C probes (bench/probe), the generated C
# projects of the compile workload and of the background load, and the h264
# 720p30 test clip. Idempotent. QUICK=1 makes the QUICK sizes.
#
# usage: setup.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"
require gcc make ffmpeg

mkdir -p "$BENCH_BUILD"
make -s -C "$BENCH_DIR/probe" O="$BENCH_BUILD"

for units in "$COMPILE_UNITS" "$LOAD_UNITS"; do
	src=$(project_src "$units")
	[ -f "$src/Makefile" ] || python3 "$BENCH_DIR/gen-project.py" "$src" "$units" "$BENCH_FUNCS"
done

secs=$(clip_secs)
clip=$(clip_path)
if [ ! -s "$clip" ]; then
	note "bench: making a ${secs} s h264 720p30 clip with ffmpeg"
	ffmpeg -nostdin -loglevel error -y -f lavfi -i "testsrc2=size=1280x720:rate=30" \
		-t "$secs" -c:v libx264 -preset medium -profile:v high -pix_fmt yuv420p \
		-g 60 -b:v 3M -an "$clip.tmp.mp4"
	mv "$clip.tmp.mp4" "$clip"
fi
