#!/bin/bash
# Install the Debian packages the project needs, if any is missing.
# As root it runs apt-get; otherwise it prints the apt-get line and fails.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

PKGS="linux-source-6.12 linux-config-6.12 gcc make flex bison bc libelf-dev libssl-dev cpio
xz-utils dwarves qemu-system-x86 busybox-static quilt ccache rt-tests
stress-ng python3 perl mpv ffmpeg gnuplot-nox linux-perf schedtool util-linux
mmdebstrap e2fsprogs"
PKGS=$(echo $PKGS)
[ -n "${EXTRA_PKGS:-}" ] && PKGS="$PKGS $EXTRA_PKGS"

missing=
for p in $PKGS; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[ "$st" = "install ok installed" ] || missing="$missing $p"
done
missing=${missing# }
if [ -z "$missing" ]; then
	note "deps: all $(echo $PKGS | wc -w) packages present"
	exit 0
fi
cmd="apt-get install -y --no-install-recommends $missing"
if [ "$(id -u)" != 0 ]; then
	echo "error: missing Debian packages: $missing" >&2
	echo "run as root:  apt-get update && $cmd" >&2
	exit 1
fi
note "deps: installing $missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q || die "apt-get update failed"
$cmd || die "apt-get install failed for: $missing"
