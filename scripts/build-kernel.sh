#!/bin/bash
# Build bzImage out of tree in build/<sched>[-debug]/ with ccache.
# usage: build-kernel.sh SCHED DEBUG(0|1)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

sched=${1:?usage: build-kernel.sh SCHED DEBUG}
debug=${2:-0}
SRC=$(kernel_src_dir)
OUT=$(kernel_build_dir "$sched" "$debug")
[ -f "$OUT/.config" ] || die "$OUT/.config missing: run 'make config'"

cc=gcc
if command -v ccache >/dev/null; then
	cc="ccache gcc"
	export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$REPO}
fi
jobs=${JOBS:-$(nproc)}
start=$(date +%s)
note "building $sched${debug/#1/ (debug)} kernel in $OUT with -j$jobs"
# Run the kernel's make with its own flags (not the caller's -s), and show
# progress every minute: a from-scratch build takes 10-30 minutes here.
MAKEFLAGS= make -C "$SRC" O="$OUT" CC="$cc" -j"$jobs" bzImage >"$OUT/build.log" 2>&1 &
pid=$!
while kill -0 $pid 2>/dev/null; do
	for _ in $(seq 60); do
		sleep 1
		kill -0 $pid 2>/dev/null || break
	done
	kill -0 $pid 2>/dev/null &&
		note "  ... $(grep -c '^  CC ' "$OUT/build.log") files compiled, $(($(date +%s) - start)) s"
done
if ! wait $pid; then
	grep -E 'error|Error' "$OUT/build.log" | head -40 >&2
	tail -20 "$OUT/build.log" >&2
	die "kernel build failed (full log: $OUT/build.log)"
fi
note "built $OUT/arch/x86/boot/bzImage in $(($(date +%s) - start)) s"
