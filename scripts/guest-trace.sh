#!/bin/bash
# Record the scheduler's trace events while a command runs, inside a guest
# (or on any kernel with tracefs and sched events): sched_waking,
# sched_wakeup, sched_wakeup_new, sched_switch and sched_migrate_task into
# OUTFILE, as the kernel's text trace. The kernel needs trace events
# (the debug kernels have them: CONFIG_PREEMPTIRQ_TRACEPOINTS selects
# CONFIG_EVENT_TRACING). Pair it with scripts/wakeup-tail.py.
#
# usage: guest-trace.sh [--buffer-kb KB] OUTFILE -- COMMAND [ARGS...]
set -euo pipefail
die() {
	echo "error: $*" >&2
	exit 1
}

kb=65536
[ "${1:-}" != --buffer-kb ] || { kb=$2; shift 2; }
case "$kb" in '' | *[!0-9]* | 0) die "--buffer-kb must be a positive number, not '$kb'" ;; esac
out=${1:?usage: guest-trace.sh [--buffer-kb KB] OUTFILE -- COMMAND [ARGS...]}
shift
[ "${1:-}" = -- ] || die "guest-trace.sh: '--' and a command must follow OUTFILE"
shift
[ $# -gt 0 ] || die "guest-trace.sh: no command to trace"

T=/sys/kernel/tracing
[ -d "$T/events" ] || mount -t tracefs nodev "$T" 2>/dev/null || true
[ -d "$T/events/sched" ] || die "no sched trace events in $T: this kernel has no CONFIG_EVENT_TRACING"
events="sched_waking sched_wakeup sched_wakeup_new sched_switch sched_migrate_task"

echo 0 >"$T/tracing_on"
echo >"$T/trace"
echo "$kb" >"$T/buffer_size_kb"
for e in $events; do echo 1 >"$T/events/sched/$e/enable"; done
echo 1 >"$T/tracing_on"
rc=0
"$@" || rc=$?
echo 0 >"$T/tracing_on"
for e in $events; do echo 0 >"$T/events/sched/$e/enable"; done
cat "$T/trace" >"$out"
overrun=$(awk '/^overrun:/ { s += $2 } END { print s + 0 }' "$T"/per_cpu/cpu*/stats)
echo "guest-trace: $(grep -c ': sched_' "$out") events in $out, $overrun lost to a full buffer" >&2
exit $rc
