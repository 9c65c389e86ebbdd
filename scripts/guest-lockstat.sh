#!/bin/bash
# Record lock statistics while a command runs, inside a guest booted on a
# LOCKSTAT=1 kernel (CONFIG_LOCK_STAT): /proc/lock_stat is cleared, the
# command runs with kernel.lock_stat on, and the statistics are copied to
# OUTFILE. Pair it with scripts/lock-stat-table.py.
#
# usage: guest-lockstat.sh OUTFILE -- COMMAND [ARGS...]
set -euo pipefail
die() {
	echo "error: $*" >&2
	exit 1
}

out=${1:?usage: guest-lockstat.sh OUTFILE -- COMMAND [ARGS...]}
shift
[ "${1:-}" = -- ] || die "guest-lockstat.sh: '--' and a command must follow OUTFILE"
shift
[ $# -gt 0 ] || die "guest-lockstat.sh: no command to run"
[ -w /proc/lock_stat ] || die "no /proc/lock_stat: boot a LOCKSTAT=1 kernel (make kernel LOCKSTAT=1)"

echo 0 >/proc/lock_stat
echo 1 >/proc/sys/kernel/lock_stat
rc=0
"$@" || rc=$?
echo 0 >/proc/sys/kernel/lock_stat
cat /proc/lock_stat >"$out"
echo "guest-lockstat: $(grep -c ':' "$out") lines in $out" >&2
exit $rc
