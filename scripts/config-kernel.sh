#!/bin/bash
# Write the .config for one kernel: tinyconfig + configs/guest.config +
# configs/sched-<SCHED>.config [+ configs/debug.config for FLAVOUR 1, or
# configs/lockstat.config for FLAVOUR lockstat], merged with the
# kernel's own merge_config.sh. Every option the fragments ask for must
# survive the merge; the first that does not is named and the run fails.
# usage: config-kernel.sh SCHED FLAVOUR(0|1|lockstat)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

sched=${1:?usage: config-kernel.sh SCHED DEBUG}
debug=${2:-0}
check_sched "$sched"
check_flavour "$debug"

SRC=$(kernel_src_dir)
OUT=$(kernel_build_dir "$sched" "$debug")
[ -f "$SRC/.vrq/applied.list" ] || die "$SRC is not prepared: run 'make source'"

frags=("$REPO/configs/guest.config" "$REPO/configs/sched-$sched.config")
[ "$debug" = 1 ] && frags+=("$REPO/configs/debug.config")
[ "$debug" = lockstat ] && frags+=("$REPO/configs/lockstat.config")
[ -n "${EXTRA_CONFIG:-}" ] && frags+=($EXTRA_CONFIG)
for f in "${frags[@]}"; do
	[ -f "$f" ] || die "config fragment $f missing"
done

mkdir -p "$OUT"
tmp=$OUT/.config.new
make -s -C "$SRC" O="$OUT" KCONFIG_CONFIG=.config.new tinyconfig >/dev/null
(cd "$SRC" && KCONFIG_CONFIG="$tmp" scripts/kconfig/merge_config.sh -m \
	-O "$OUT" "$tmp" "${frags[@]}") >"$OUT/merge.log" 2>&1 ||
	{ cat "$OUT/merge.log" >&2; die "merge_config.sh failed"; }
make -s -C "$SRC" O="$OUT" KCONFIG_CONFIG=.config.new olddefconfig >/dev/null

# Check that every requested option is in force.
bad=0
while read -r line; do
	case "$line" in
	CONFIG_*=*)
		opt=${line%%=*}
		grep -qxF "$line" "$tmp" || {
			got=$(grep -E "^(# )?$opt[= ]" "$tmp" || echo "$opt absent")
			echo "error: $line requested, but the merged config has: $got" >&2
			bad=1
		}
		;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }
		opt=${opt%% *}
		if grep -qE "^$opt=" "$tmp"; then
			echo "error: $opt requested off, but the merged config has: $(grep -E "^$opt=" "$tmp")" >&2
			bad=1
		fi
		;;
	esac
done < <(cat "${frags[@]}")
[ $bad = 0 ] || { rm -f "$tmp"; die "config for $sched did not survive the merge (see above)"; }

# Replace .config only when it changed, to keep rebuilds incremental.
if cmp -s "$tmp" "$OUT/.config"; then
	rm -f "$tmp"
else
	mv "$tmp" "$OUT/.config"
	note "config written to $OUT/.config"
fi
