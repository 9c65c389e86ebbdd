#!/bin/bash
# Build bzImage out of tree in build/<sched>[-debug|-lockstat]/ with ccache.
# usage: build-kernel.sh SCHED FLAVOUR(0|1|lockstat)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

sched=${1:?usage: build-kernel.sh SCHED DEBUG}
debug=${2:-0}
check_flavour "$debug"
OUT=$(kernel_build_dir "$sched" "$debug")
[ -f "$OUT/.config" ] || die "$OUT/.config missing: run 'make config'"
# Two builds in one O= directory corrupt it: a second one waits.
exec 9>"$OUT/.build.lock"
flock -n 9 || { note "another build of $OUT is running; waiting for it"; flock 9; }

start=$(date +%s)
case "$debug" in 1) what=" (debug)" ;; lockstat) what=" (lock statistics)" ;; *) what= ;; esac
note "building the $sched$what kernel in $OUT with -j${JOBS:-$(nproc)}"
kernel_make "$OUT" "$OUT/build.log" bzImage
note "built $OUT/arch/x86/boot/bzImage in $(($(date +%s) - start)) s"
