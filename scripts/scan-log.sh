#!/bin/bash
# Scan a kernel serial log for splats. Prints each offending kernel line
# (with a little context) and exits 1 if any is found, 0 if the log is clean.
# Only kernel lines (printk timestamp "[    1.234567] ") are matched, so a
# test program that prints these words cannot trigger it.
# usage: scan-log.sh SERIAL_LOG
set -euo pipefail

log=${1:?usage: scan-log.sh SERIAL_LOG}
[ -r "$log" ] || { echo "error: cannot read $log" >&2; exit 2; }

patterns=(
	'WARNING:'
	'BUG:'
	'kernel BUG at'
	'Oops'
	'general protection fault'
	'Unable to handle'
	'Kernel panic'
	'possible recursive locking detected'
	'possible circular locking dependency'
	'inconsistent lock state'
	'possible irq lock inversion'
	'suspicious RCU usage'
	'DEBUG_LOCKS_WARN_ON'
	'detected stall'
	'rcu_.* self-detected stall'
	'blocked for more than'
	'soft lockup'
	'hard LOCKUP'
	'Watchdog detected hard LOCKUP'
	'list_add corruption'
	'list_del corruption'
	'UBSAN:'
	'KASAN:'
	'stack-protector'
	'scheduling while atomic'
	'sleeping function called from invalid context'
)
re=$(printf '%s|' "${patterns[@]}")
re="^\[ *[0-9]+\.[0-9]+\] .*(${re%|})"

# Strip carriage returns the serial console adds.
hits=$(tr -d '\r' <"$log" | grep -nE "$re" || true)
if [ -z "$hits" ]; then
	exit 0
fi
echo "SPLAT in $log:" >&2
echo "$hits" | head -20 >&2
first=$(echo "$hits" | head -1 | cut -d: -f1)
echo "--- context from line $first ---" >&2
tr -d '\r' <"$log" | sed -n "$((first > 5 ? first - 5 : 1)),$((first + 40))p" >&2
exit 1
