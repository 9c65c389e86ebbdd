#!/bin/bash
# Build a desktop kernel from Debian's own 6.12 config, as a user would:
# linux-config-6.12's amd64 config + configs/desktop-guest.config (what a
# QEMU boot without an initramfs needs), the modules cut down to
# configs/desktop-modules.list with `make localmodconfig`, and for VRQ
# configs/desktop.config on top; EEVDF keeps Debian's scheduler options
# (autogroup, HZ=250, voluntary preemption). Every option Debian builds in
# must still be on, except the CFS-only ones for VRQ and the debug info.
# Writes build/desktop-<SCHED>/: bzImage, and the modules installed under
# modules/lib/modules/<release>/.
# usage: desktop-kernel.sh vrq|cfs     (env: DISTRO_CONFIG, JOBS)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

sched=${1:?usage: desktop-kernel.sh vrq|cfs}
case "$sched" in vrq | cfs) ;; *) die "desktop-kernel.sh: SCHED must be vrq or cfs, not '$sched'" ;; esac
DISTRO_CONFIG=${DISTRO_CONFIG:-/usr/src/linux-config-6.12/config.amd64_none_amd64.xz}
[ -f "$DISTRO_CONFIG" ] || die "$DISTRO_CONFIG missing: run 'make deps' (package linux-config-6.12)"
SRC=$(kernel_src_dir)
[ -f "$SRC/.vrq/applied.list" ] || die "$SRC is not prepared: run 'make source'"
OUT=$BUILD/desktop-$sched
# The debug info is dropped from both kernels (and VRQ_GONE_OPTIONS, from
# lib.sh, from the VRQ one).
GONE_ALL="DEBUG_INFO DEBUG_INFO_DWARF5 DEBUG_INFO_DWARF4 DEBUG_INFO_BTF
DEBUG_INFO_BTF_MODULES DEBUG_INFO_COMPRESSED DEBUG_INFO_COMPRESSED_NONE
PAHOLE_HAS_SPLIT_BTF PAHOLE_HAS_LANG_EXCLUDE MODULE_ALLOW_BTF_MISMATCH
GDB_SCRIPTS DEBUG_INFO_SPLIT DEBUG_INFO_REDUCED DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT
PROBE_EVENTS_BTF_ARGS"
# What configs/desktop.config chooses in place of Debian's: VRQ for CFS
# (the SCHED_CFS choice, which Debian's config predates), HZ=1000 for
# HZ=250, full for voluntary preemption (both still boot-time choices of
# PREEMPT_DYNAMIC), and the idle-only tick for NO_HZ_FULL with the RCU
# offloading it selects (VRQ has no sched_can_stop_tick() rule yet).
VRQ_DESKTOP_CHANGES="SCHED_CFS HZ_250 PREEMPT_VOLUNTARY NO_HZ_FULL RCU_NOCB_CPU RCU_LAZY
CONTEXT_TRACKING_USER VIRT_CPU_ACCOUNTING_GEN"

t0=$(date +%s)
step() {
	note "[desktop-kernel $sched $(fmt_secs $(($(date +%s) - t0)))] $*"
}

mkdir -p "$OUT"
frags=("$REPO/configs/desktop-guest.config")
[ "$sched" = cfs ] || frags+=("$REPO/configs/desktop.config")
step "config: $(basename "$DISTRO_CONFIG") + ${frags[*]##*/}, modules from desktop-modules.list"
# The config is made in a scratch object directory: localmodconfig reads
# and writes <objdir>/.config whatever KCONFIG_CONFIG says, and a failed
# step must not leave a half-made config where the build reads it.
CFG=$OUT/.cfg
rm -rf "$CFG"
mkdir -p "$CFG"
tmp=$CFG/.config
xzcat "$DISTRO_CONFIG" >"$OUT/debian.config"
cp "$OUT/debian.config" "$tmp"
logged() { # WHAT CMD... -> run CMD with its output in config.log; die if it fails
	local what=$1
	shift
	"$@" >>"$OUT/config.log" 2>&1 ||
		{ tail -20 "$OUT/config.log" >&2; die "$what failed (log: $OUT/config.log)"; }
}
kconfig() { # TARGET [VAR=...] -> make TARGET in the scratch dir
	logged "make $1 of the $sched desktop config" make -s -C "$SRC" O="$CFG" "$@"
}
: >"$OUT/config.log"
kconfig olddefconfig
kconfig localmodconfig LSMOD="$REPO/configs/desktop-modules.list" < <(yes '')
cp "$tmp" "$OUT/localmod.config"
logged merge_config.sh env -C "$SRC" scripts/kconfig/merge_config.sh -m -O "$CFG" "$tmp" "${frags[@]}"
"$SRC/scripts/config" --file "$tmp" --set-str LOCALVERSION "-$sched-desktop"
kconfig olddefconfig

# Every fragment option in force; every built-in option of Debian's kept.
bad=0
while read -r line; do
	case "$line" in
	CONFIG_*=*)
		grep -qxF "$line" "$tmp" || {
			echo "error: $line requested, the config has: $(grep -E "^(# )?${line%%=*}[= ]" "$tmp" || echo absent)" >&2
			bad=1
		}
		;;
	esac
done < <(cat "${frags[@]}")
# localmodconfig only turns modules off; the built-in options it takes
# away with them are the bool sub-options of those modules (a driver's
# LEDs, a file system's ACLs). The fragments must take away nothing else.
gone=$GONE_ALL
[ "$sched" = cfs ] || gone+=" $VRQ_GONE_OPTIONS $VRQ_DESKTOP_CHANGES"
lost=$(comm -23 <(config_on "$OUT/localmod.config" y) <(config_on "$tmp" y) | grep -vxF -f <(printf '%s\n' $gone) || true)
if [ -n "$lost" ]; then
	echo "error: built-in options of Debian's config that the $sched desktop kernel lost:" >&2
	printf '  CONFIG_%s\n' $lost >&2
	bad=1
fi
lmc_lost=$(comm -23 <(config_on "$OUT/debian.config" y) <(config_on "$OUT/localmod.config" y) | wc -l)
[ $bad = 0 ] || die "desktop config for $sched failed its checks ($tmp)"
cmp -s "$tmp" "$OUT/.config" || cp "$tmp" "$OUT/.config"
rm -rf "$CFG"
step "config ok: $(config_on "$OUT/.config" y | wc -l) built-in options (Debian: $(config_on "$OUT/debian.config" y | wc -l))," \
	"$(grep -c '=m$' "$OUT/.config") modules (Debian: $(grep -c '=m$' "$OUT/debian.config")); $lmc_lost bool options of dropped modules went with them"

exec 9>"$OUT/.build.lock"
flock -n 9 || { note "another build of $OUT is running; waiting for it"; flock 9; }
step "make bzImage modules (-j${JOBS:-$(nproc)}, ccache)"
kernel_make "$OUT" "$OUT/build.log" bzImage modules
rm -rf "$OUT/modules"
kernel_make "$OUT" "$OUT/modules_install.log" modules_install INSTALL_MOD_PATH="$OUT/modules"
rel=$(cat "$OUT/include/config/kernel.release")
[ -d "$OUT/modules/lib/modules/$rel" ] || die "modules_install left no lib/modules/$rel"
step "built $rel: $OUT/arch/x86/boot/bzImage, $(find "$OUT/modules" -name '*.ko*' | wc -l) modules"
