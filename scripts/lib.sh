# Shared helpers for the harness scripts. Source it; do not run it.
# shellcheck shell=bash

die() {
	echo "error: $*" >&2
	exit 1
}

note() {
	echo "==> $*" >&2
}

# Repository root (the directory holding the top-level Makefile).
REPO=${REPO:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
BUILD=${BUILD:-$REPO/build}

# The schedulers a kernel can be built with.
VALID_SCHEDS="cfs vrq"

check_sched() {
	local s
	for s in $VALID_SCHEDS; do
		[ "$1" = "$s" ] && return 0
	done
	die "unknown SCHED='$1' (valid: $VALID_SCHEDS)"
}

# build/<sched>[-debug]
kernel_build_dir() {
	local dir=$BUILD/$1
	[ "${2:-0}" = 1 ] && dir=$dir-debug
	echo "$dir"
}

# kernel_name_of BZIMAGE: the name of the build directory the image was
# built in, four levels above it (build/vrq-debug/arch/x86/boot/bzImage ->
# vrq-debug).
kernel_name_of() {
	local dir=$1
	for _ in 1 2 3 4; do
		dir=$(dirname "$dir")
	done
	basename "$dir"
}

# The kernel source tree: KSRC if given, else build/linux.
kernel_src_dir() {
	if [ -n "${KSRC:-}" ]; then
		(cd "$KSRC" 2>/dev/null && pwd) || die "KSRC=$KSRC: no such directory"
	else
		echo "$BUILD/linux"
	fi
}
