#!/bin/bash
# Build check with a real distro config: Debian's amd64 config for 6.12
# (package linux-config-6.12) plus CONFIG_SCHED_VRQ=y in build/distro-vrq/.
# After olddefconfig the CFS-only options must be gone and every other
# option Debian turns on (NUMA, cgroups, PSI, SMP, NO_HZ_FULL, ...) must
# still be on; then kernel/sched/ must compile without a warning, and with
# LINK=1 vmlinux must build too.
# usage: distro-check.sh    (env: DISTRO_CONFIG, LINK=0|1, JOBS)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

DISTRO_CONFIG=${DISTRO_CONFIG:-/usr/src/linux-config-6.12/config.amd64_none_amd64.xz}
LINK=${LINK:-0}
SRC=$(kernel_src_dir)
OUT=$BUILD/distro-vrq
# What a desktop kernel carries that VRQ must build with, named in the
# output; the check below covers every other option Debian turns on too.
KEPT="SMP NUMA HOTPLUG_CPU SCHED_SMT SCHED_MC CGROUPS CGROUP_SCHED CPUSETS
MEMCG CGROUP_CPUACCT PSI PREEMPT_DYNAMIC NO_HZ_FULL RCU_NOCB_CPU
CPU_FREQ_GOV_SCHEDUTIL ENERGY_MODEL SCHED_DEBUG SCHEDSTATS BPF_SYSCALL"

case "$LINK" in 0 | 1) ;; *) die "LINK must be 0 or 1, not '$LINK'" ;; esac
[ -f "$DISTRO_CONFIG" ] ||
	die "$DISTRO_CONFIG missing: run 'make deps' (package linux-config-6.12)"
[ -f "$SRC/.vrq/applied.list" ] || die "$SRC is not prepared: run 'make source'"
grep -q '^config SCHED_VRQ' "$SRC/kernel/Kconfig.vrq" 2>/dev/null ||
	die "$SRC has no kernel/Kconfig.vrq: run 'make source'"

t0=$(date +%s)
step() {
	note "[distro-check $(fmt_secs $(($(date +%s) - t0)))] $*"
}

mkdir -p "$OUT"
step "config: $(basename "$DISTRO_CONFIG") + configs/sched-vrq.config -> $OUT"
xzcat "$DISTRO_CONFIG" >"$OUT/debian.config"
cp "$OUT/debian.config" "$OUT/.config.new"
(cd "$SRC" && KCONFIG_CONFIG="$OUT/.config.new" scripts/kconfig/merge_config.sh -m \
	-O "$OUT" "$OUT/.config.new" "$REPO/configs/sched-vrq.config") >"$OUT/merge.log" 2>&1 ||
	{ cat "$OUT/merge.log" >&2; die "merge_config.sh failed"; }
step "olddefconfig"
make -s -C "$SRC" O="$OUT" KCONFIG_CONFIG=.config.new olddefconfig >"$OUT/olddefconfig.log" 2>&1 ||
	{ cat "$OUT/olddefconfig.log" >&2; die "olddefconfig failed"; }
# Keep the old .config (and so an incremental build) when nothing changed.
if cmp -s "$OUT/.config.new" "$OUT/.config"; then
	rm "$OUT/.config.new"
else
	mv "$OUT/.config.new" "$OUT/.config"
fi

bad=0
grep -qx 'CONFIG_SCHED_VRQ=y' "$OUT/.config" ||
	{ echo "error: CONFIG_SCHED_VRQ=y did not survive olddefconfig" >&2; bad=1; }
for o in $VRQ_GONE_OPTIONS; do
	if grep -qE "^CONFIG_$o=" "$OUT/.config"; then
		echo "error: CONFIG_$o is still on with VRQ: $(grep -E "^CONFIG_$o=" "$OUT/.config")" >&2
		bad=1
	elif grep -qE "^CONFIG_$o=[ym]" "$OUT/debian.config"; then
		echo "  gone   $o (on in Debian's config)"
	else
		echo "  gone   $o (already off in Debian's config)"
	fi
done
for o in $KEPT; do
	if grep -qE "^CONFIG_$o=y" "$OUT/.config"; then
		echo "  kept   $o"
	elif grep -qE "^CONFIG_$o=[ym]" "$OUT/debian.config"; then
		echo "error: CONFIG_$o is on in Debian's config but off with VRQ" >&2
		bad=1
	else
		echo "  absent $o (off in Debian's config too)"
	fi
done
# Every option Debian turns on that olddefconfig turned off must be one of
# the expected ones.
lost=$(comm -23 <(config_on "$OUT/debian.config") <(config_on "$OUT/.config") |
	grep -vxF -f <(printf '%s\n' $VRQ_GONE_OPTIONS) || true)
if [ -n "$lost" ]; then
	echo "error: options on in Debian's config that VRQ turned off unexpectedly:" >&2
	printf '  CONFIG_%s\n' $lost >&2
	bad=1
fi
[ $bad = 0 ] || die "distro config check failed (config: $OUT/.config)"
step "config ok: SCHED_VRQ=y, the $(echo $VRQ_GONE_OPTIONS | wc -w) CFS-only options off," \
	"every other option Debian turns on still on ($(config_on "$OUT/.config" | wc -l) on)"

step "make prepare (-j${JOBS:-$(nproc)})"
kernel_make "$OUT" "$OUT/prepare.log" prepare
step "make kernel/sched/"
kernel_make "$OUT" "$OUT/sched.log" kernel/sched/
[ -f "$OUT/kernel/sched/vrq.o" ] || die "kernel/sched/vrq.o was not built"
[ ! -f "$OUT/kernel/sched/fair.o" ] || die "kernel/sched/fair.o was built with VRQ on"
if grep -q 'warning:' "$OUT/sched.log"; then
	grep -B2 -A6 'warning:' "$OUT/sched.log" >&2
	die "compile warnings in kernel/sched/ (log: $OUT/sched.log)"
fi
step "kernel/sched/ compiled without warnings: $(cd "$OUT/kernel/sched" && echo *.o)"

if [ "$LINK" = 1 ]; then
	step "make vmlinux (Debian's built-in code: a long build)"
	kernel_make "$OUT" "$OUT/vmlinux.log" vmlinux
	if grep -E 'kernel/sched/.*warning:' "$OUT/vmlinux.log" >&2; then
		die "compile warnings in kernel/sched/ (log: $OUT/vmlinux.log)"
	fi
	step "vmlinux linked ($(grep -c 'warning:' "$OUT/vmlinux.log") warnings outside kernel/sched/)"
fi
step "distro-check passed"
