#!/bin/bash
# Run the kernel's checkpatch.pl --strict on the VRQ sources and every
# patch of the series; any error, warning or check fails. The unpacked
# Debian source has no git history, so commit ids quoted in the patch
# messages (upstream fixes the CFS patches refer to) cannot be looked up:
# UNKNOWN_COMMIT_ID is the one message ignored.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

SRC=$(kernel_src_dir)
PATCHES=${PATCHES:-$REPO/patches}
cp=$SRC/scripts/checkpatch.pl
[ -f "$cp" ] || die "$cp missing: run 'make source'"
fail=0
check() { # what args...
	local out
	if out=$(perl "$cp" --strict --ignore UNKNOWN_COMMIT_ID --no-tree --no-summary --terse "$@" 2>&1) && [ -z "$out" ]; then
		echo "checkpatch ok: $(basename "${!#}")"
	else
		echo "$out"
		echo "checkpatch FAILED: $(basename "${!#}")"
		fail=1
	fi
}
for f in "$REPO"/kernel-sched/* "$REPO/Kconfig.vrq"; do
	check -f "$f"
done
while read -r p _; do
	case "$p" in '' | '#'*) continue ;; esac
	check "$PATCHES/$p"
done <"$PATCHES/series"
[ $fail = 0 ] || die "checkpatch --strict found problems"
