#!/bin/bash
# Prepare the kernel tree: unpack Debian's linux-source-6.12 into build/linux
# once (or use KSRC=/path/to/linux-6.12.y), apply patches/series in order and
# put kernel-sched/ and Kconfig.vrq in place.
#
# Idempotent: the applied patches are recorded in <tree>/.vrq/. When the
# series changes, the old patches are reversed and the new ones applied. A
# patch that does not apply stops the run with its name and the tree is put
# back as it was.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

TARBALL=${TARBALL:-/usr/src/linux-source-6.12.tar.xz}
PATCHES=${PATCHES:-$REPO/patches}
SRC=$(kernel_src_dir)
STATE=$SRC/.vrq

if [ ! -d "$SRC" ]; then
	[ -n "${KSRC:-}" ] && die "KSRC=$KSRC does not exist"
	[ -f "$TARBALL" ] || die "$TARBALL missing: run 'make deps' (package linux-source-6.12)"
	note "unpacking $TARBALL into $SRC"
	tmp=$BUILD/linux.unpack
	rm -rf "$tmp" && mkdir -p "$tmp"
	tar -xJf "$TARBALL" -C "$tmp"
	top=$(ls "$tmp")
	[ "$(echo "$top" | wc -l)" = 1 ] || die "unexpected tarball layout: $top"
	mv "$tmp/$top" "$SRC"
	rmdir "$tmp"
fi
[ -f "$SRC/Makefile" ] && grep -q '^PATCHLEVEL = 12$' "$SRC/Makefile" &&
	grep -q '^VERSION = 6$' "$SRC/Makefile" ||
	die "$SRC is not a Linux 6.12 tree"
mkdir -p "$STATE/applied"
touch "$STATE/applied.list"

# Patches named by the series file, in order (comments and blanks skipped).
series=()
if [ -f "$PATCHES/series" ]; then
	while read -r p _; do
		case "$p" in '' | '#'*) continue ;; esac
		[ -f "$PATCHES/$p" ] || die "patches/series names $p, which does not exist"
		series+=("$p")
	done <"$PATCHES/series"
fi

applied=()
if [ -f "$STATE/applied.list" ]; then
	mapfile -t applied <"$STATE/applied.list"
fi

apply_one() { # dir patchfile [-R]
	patch -d "$1" -p1 -s -N -f --no-backup-if-mismatch -r - ${3:-} <"$2"
}

# Reverse the recorded patches, newest first.
unapply_all() {
	local i
	for ((i = ${#applied[@]} - 1; i >= 0; i--)); do
		apply_one "$SRC" "$STATE/applied/${applied[i]}" -R >/dev/null ||
			die "cannot reverse ${applied[i]}: $SRC is modified; remove it and run 'make source' again"
	done
	applied=()
	: >"$STATE/applied.list"
	rm -f "$STATE"/applied/*
}

same=1
if [ ${#series[@]} != ${#applied[@]} ]; then
	same=0
else
	for i in "${!series[@]}"; do
		if [ "${series[i]}" != "${applied[i]}" ] ||
			! cmp -s "$PATCHES/${series[i]}" "$STATE/applied/${applied[i]}"; then
			same=0
			break
		fi
	done
fi

if [ $same = 0 ]; then
	# Each patch is dry-run before it is applied; on a failure the new
	# patches are reversed and the old set is re-applied.
	old=("${applied[@]}")
	oldsave=$(mktemp -d)
	for p in "${old[@]}"; do cp "$STATE/applied/$p" "$oldsave/"; done
	[ ${#applied[@]} -gt 0 ] && note "reversing ${#applied[@]} old patches"
	unapply_all
	done_list=()
	for p in "${series[@]}"; do
		if ! out=$(apply_one "$SRC" "$PATCHES/$p" --dry-run 2>&1); then
			echo "$out" >&2
			echo "error: patch $p does not apply to $SRC" >&2
			for ((i = ${#done_list[@]} - 1; i >= 0; i--)); do
				apply_one "$SRC" "$PATCHES/${done_list[i]}" -R >/dev/null
			done
			: >"$STATE/applied.list"
			rm -f "$STATE"/applied/*
			for q in "${old[@]}"; do
				apply_one "$SRC" "$oldsave/$q" >/dev/null
				cp "$oldsave/$q" "$STATE/applied/"
				echo "$q" >>"$STATE/applied.list"
			done
			rm -rf "$oldsave"
			echo "error: tree left as it was (${#old[@]} patches applied)" >&2
			exit 1
		fi
		apply_one "$SRC" "$PATCHES/$p" >/dev/null
		done_list+=("$p")
		cp "$PATCHES/$p" "$STATE/applied/"
		echo "$p" >>"$STATE/applied.list"
	done
	rm -rf "$oldsave"
	note "applied ${#series[@]} patches from patches/series"
else
	note "patches/series already applied (${#series[@]} patches)"
fi

# Copy kernel-sched/* and Kconfig.vrq into the tree; only changed files are
# written, so mtimes stay put and rebuilds stay incremental.
install_file() { # src dst
	cmp -s "$1" "$2" || { cp "$1" "$2" && note "installed ${2#$SRC/}"; }
	echo "${2#$SRC/}" >>"$STATE/copied.new"
}
: >"$STATE/copied.new"
if [ -d "$REPO/kernel-sched" ]; then
	for f in "$REPO"/kernel-sched/*; do
		[ -f "$f" ] && install_file "$f" "$SRC/kernel/sched/$(basename "$f")"
	done
fi
[ -f "$REPO/Kconfig.vrq" ] && install_file "$REPO/Kconfig.vrq" "$SRC/kernel/Kconfig.vrq"
# Remove files copied earlier whose source has gone.
if [ -f "$STATE/copied.list" ]; then
	while read -r f; do
		grep -qxF "$f" "$STATE/copied.new" || { rm -f "$SRC/$f" && note "removed $f"; }
	done <"$STATE/copied.list"
fi
mv "$STATE/copied.new" "$STATE/copied.list"
