#!/bin/bash
# The Debian 12 desktop userspace for `make desktop-check`: a root tree made
# once with mmdebstrap from this machine's own apt sources
# (build/desktop/rootfs/), then, on every call, an ext4 disk image
# (build/desktop/disk.img) written from it with the modules of the
# desktop kernels built so far (build/desktop-*/modules/), so that each
# boot starts from the same clean disk.
# The image boots systemd to multi-user.target; vrq-check.service mounts
# the host's repository and the results share (virtio-9p, as the harness's
# other guests do) and runs scripts/desktop-guest-check.sh.
# usage: desktop-image.sh [--rebuild]   (env: DESKTOP_SIZE, default 6G)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

rebuild=0
[ "${1:-}" != --rebuild ] || { rebuild=1; shift; }
[ $# = 0 ] || die "desktop-image.sh: unknown argument '$1'"
D=$BUILD/desktop
ROOT=$D/rootfs
IMG=$D/disk.img
SIZE=${DESKTOP_SIZE:-6G}
[[ $SIZE =~ ^[0-9]+[MG]$ ]] || die "DESKTOP_SIZE must be like 6G or 4096M, not '$SIZE'"
PACKAGES="systemd systemd-sysv udev dbus procps util-linux schedtool stress-ng
rt-tests mpv python3 kmod iproute2 less"
# The recipe: a change to it makes a new root tree.
recipe="bookworm minbase $(echo $PACKAGES) unit-v1"

command -v mkfs.ext4 >/dev/null || die "mkfs.ext4 missing: run 'make deps' (package e2fsprogs)"
mkdir -p "$D"
if [ $rebuild = 1 ] || [ "$(cat "$D/rootfs.recipe" 2>/dev/null)" != "$recipe" ]; then
	command -v mmdebstrap >/dev/null || die "mmdebstrap missing: run 'make deps' (package mmdebstrap)"
	sources=$(mktemp)
	trap 'rm -f "$sources"' EXIT
	# The machine's own apt sources (deb822 or one-line), Debian's only.
	cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
		grep -v '^\s*#' >"$sources" || true
	grep -q 'debian' "$sources" || die "no Debian apt source in /etc/apt/sources.list{,.d/*.sources}"
	note "desktop image: mmdebstrap bookworm ($(echo $PACKAGES | wc -w) packages and their dependencies) -> $ROOT"
	rm -rf "$ROOT" "$D/rootfs.recipe"
	mkdir -p "$ROOT"
	mmdebstrap --mode=root --variant=minbase --include="$(echo $PACKAGES | tr ' ' ,)" \
		bookworm "$ROOT" - <"$sources" >"$D/mmdebstrap.log" 2>&1 || {
		tail -30 "$D/mmdebstrap.log" >&2
		die "mmdebstrap failed (log: $D/mmdebstrap.log): is the package source reachable?"
	}
	echo vrq-desktop >"$ROOT/etc/hostname"
	printf '/dev/vda / ext4 rw,errors=remount-ro 0 1\n' >"$ROOT/etc/fstab"
	chroot "$ROOT" passwd -d root >/dev/null
	cat >"$ROOT/etc/systemd/system/vrq-check.service" <<-'UNIT'
		[Unit]
		Description=VRQ desktop check (scripts/desktop-guest-check.sh over 9p)
		After=multi-user.target
		[Service]
		Type=simple
		ExecStart=/bin/sh -c 'mkdir -p /mnt/repo /mnt/results && \
		 mount -t 9p -o trans=virtio,version=9p2000.L,ro repo /mnt/repo && \
		 mount -t 9p -o trans=virtio,version=9p2000.L results /mnt/results && \
		 /mnt/repo/scripts/desktop-guest-check.sh /mnt/results; \
		 echo $$? >/mnt/results/exit-code; sync; systemctl poweroff -ff'
		StandardOutput=journal+console
		StandardError=journal+console
		[Install]
		WantedBy=multi-user.target
	UNIT
	chroot "$ROOT" systemctl enable vrq-check.service >/dev/null 2>&1
	chroot "$ROOT" systemctl set-default multi-user.target >/dev/null 2>&1
	echo "$recipe" >"$D/rootfs.recipe"
	note "desktop image: root tree ready ($(du -sh "$ROOT" | cut -f1))"
fi

# The disk: the root tree + the desktop kernels' modules, from scratch.
# (minbase has no /lib/modules: the image's only modules are these.)
rm -rf "$ROOT/lib/modules"
mkdir -p "$ROOT/lib/modules"
for m in "$BUILD"/desktop-*/modules/lib/modules/*; do
	[ -d "$m" ] && cp -a "$m" "$ROOT/lib/modules/"
done
rm -f "$IMG"
mkfs.ext4 -q -F -L vrq-desktop -d "$ROOT" "$IMG" "$SIZE" ||
	die "mkfs.ext4 -d could not write $IMG"
note "desktop image: $IMG ($SIZE, modules: $(ls "$ROOT/lib/modules" | tr '\n' ' '))"
