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
VALID_SCHEDS="cfs cfs-autogroup vrq"

# check_icount SHIFT: ICOUNT is empty (off) or a shift from 0 to 10.
check_icount() {
	case "$1" in '' | [0-9] | 10) ;;
	*) die "ICOUNT must be a shift from 0 to 10 (ns per guest instruction = 2^SHIFT), not '$1'" ;; esac
}

check_sched() {
	local s
	for s in $VALID_SCHEDS; do
		[ "$1" = "$s" ] && return 0
	done
	die "unknown SCHED='$1' (valid: $VALID_SCHEDS)"
}

# The config options Kconfig.vrq takes away (and the ones that only exist
# with them): off in a VRQ kernel after olddefconfig, whatever the base
# config had (scripts/distro-check.sh, scripts/desktop-kernel.sh).
# shellcheck disable=SC2034 # used by the scripts that source this
VRQ_GONE_OPTIONS="FAIR_GROUP_SCHED CFS_BANDWIDTH GROUP_SCHED_WEIGHT SCHED_AUTOGROUP
NUMA_BALANCING NUMA_BALANCING_DEFAULT_ENABLED SCHED_CORE SCHED_CLASS_EXT SCHED_ENERGY_AWARE"

# config_on CONFIG_FILE [VALUES]: the options set to one of VALUES (default
# ym: built in or a module; y: built in only), one name a line, sorted.
config_on() {
	sed -nE "s/^CONFIG_([A-Za-z0-9_]+)=[${2:-ym}]\$/\1/p" "$1" | sort
}

# kernel_build_dir SCHED [FLAVOUR]: build/<sched>[-debug|-lockstat];
# FLAVOUR 0 (the benchmark kernel), 1 (debug) or lockstat
kernel_build_dir() {
	local dir=$BUILD/$1
	case "${2:-0}" in
	1) dir=$dir-debug ;;
	lockstat) dir=$dir-lockstat ;;
	esac
	echo "$dir"
}

# check_flavour FLAVOUR: 0, 1 (debug) or lockstat, else a clear error
check_flavour() {
	case "$1" in
	0 | 1 | lockstat) ;;
	*) die "DEBUG must be 0 or 1 (or the flavour lockstat, from LOCKSTAT=1), not '$1'" ;;
	esac
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

# fmt_secs SECONDS: "12m05s"
fmt_secs() {
	printf '%dm%02ds' $(($1 / 60)) $(($1 % 60))
}

# kernel_cc_setup: set KCC to the compiler for kernel builds, "ccache gcc"
# when ccache is installed (CCACHE_BASEDIR exported so that out-of-tree
# builds in different directories share hits), else "gcc".
kernel_cc_setup() {
	KCC=gcc
	if command -v ccache >/dev/null; then
		KCC="ccache gcc"
		export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$REPO}
	fi
}

# kernel_make OUT LOG TARGET...: the kernel's make for build directory OUT
# (O=) with ccache and -j$JOBS (default all CPUs), its output in LOG and a
# progress note every minute (a large build takes an hour and more here).
# Runs with the kernel's own make flags, not the caller's -s. On a failure
# the errors and the end of LOG are shown and the script dies.
kernel_make() {
	local out=$1 log=$2 src pid start
	shift 2
	src=$(kernel_src_dir)
	kernel_cc_setup
	start=$(date +%s)
	MAKEFLAGS='' make -C "$src" O="$out" CC="$KCC" -j"${JOBS:-$(nproc)}" "$@" >"$log" 2>&1 &
	pid=$!
	while kill -0 $pid 2>/dev/null; do
		for _ in $(seq 60); do
			sleep 1
			kill -0 $pid 2>/dev/null || break
		done
		kill -0 $pid 2>/dev/null &&
			note "  ... $(grep -c '^  CC ' "$log") files compiled, $(($(date +%s) - start)) s"
	done
	if ! wait $pid; then
		grep -E 'error|Error' "$log" | head -40 >&2
		tail -20 "$log" >&2
		die "kernel build of '$*' failed (full log: $log)"
	fi
}
