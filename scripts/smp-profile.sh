#!/bin/bash
# Where the second CPU's time goes: hackbench on VRQ and EEVDF at each vCPU
# count, one boot per kernel, count and mode, on the LOCKSTAT=1 kernels,
# recording the benchmark's figures per message (IPIs, switches, VRQ's
# counters: bench/run-workloads.sh) and the run-queue locks' waits
# (scripts/guest-lockstat.sh); then a short run of each on the debug
# kernels under a sched trace (scripts/guest-trace.sh) for remote wakeups,
# preemptions and migrations. The lock statistics slow every lock
# operation, so the times here are not the benchmark's: compare figures.
# Writes OUT/<sched>-<n>cpu-<mode>/ and OUT/<sched>-<n>cpu-trace/, and
# OUT/table.md (scripts/smp-profile-table.py).
# usage: smp-profile.sh [--out DIR]
# env:   PROFILE_SCHEDS (vrq cfs)  PROFILE_CPUS (1 2 4)  PROFILE_GROUPS (4)
#        PROFILE_MODES (process-pipe thread-socket)  PROFILE_LOOPS (1000)
#        TRACE_LOOPS (100)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=$REPO/results/smp-profile-$(date +%Y%m%d-%H%M)
while [ $# -gt 0 ]; do
	case "$1" in
	--out) out=$2; shift 2 ;;
	*) die "smp-profile.sh: unknown argument '$1'" ;;
	esac
done
SCHEDS=${PROFILE_SCHEDS:-vrq cfs}
CPUS_LIST=${PROFILE_CPUS:-1 2 4}
GROUPS_=${PROFILE_GROUPS:-4}
MODES=${PROFILE_MODES:-process-pipe thread-socket}
LOOPS=${PROFILE_LOOPS:-1000}
TLOOPS=${TRACE_LOOPS:-100}
for s in $SCHEDS; do check_sched "$s"; done
for v in $CPUS_LIST $GROUPS_ $LOOPS $TLOOPS; do
	case "$v" in '' | *[!0-9]* | 0) die "vCPU counts, groups and loops must be positive numbers, not '$v'" ;; esac
done
for m in $MODES; do
	case "$m" in process-pipe | process-socket | thread-pipe | thread-socket) ;;
	*) die "PROFILE_MODES: unknown hackbench mode '$m'" ;;
	esac
done
t0=$(date +%s)
step() {
	note "[smp-profile $(fmt_secs $(($(date +%s) - t0)))] $*"
}

for s in $SCHEDS; do
	step "kernels: $s with lock statistics, and debug (for the trace)"
	make -s -C "$REPO" kernel SCHED="$s" LOCKSTAT=1
	make -s -C "$REPO" kernel SCHED="$s" DEBUG=1
done
mkdir -p "$out"
for c in $CPUS_LIST; do
	for s in $SCHEDS; do
		for m in $MODES; do
			d=$out/$s-${c}cpu-$m
			step "$s at $c vCPUs: hackbench $m, $GROUPS_ groups x $LOOPS loops, lock statistics"
			"$REPO/scripts/boot-guest.sh" --kernel "$(kernel_build_dir "$s" lockstat)/arch/x86/boot/bzImage" \
				--cpus "$c" --mem 3072 --timeout 1800 --out "$d" -- \
				"HB_GROUPS=$GROUPS_ HB_MODES=$m HB_LOOPS=$LOOPS $REPO/scripts/guest-lockstat.sh \$RESULTS/lock_stat -- $REPO/bench/run-workloads.sh --out \$RESULTS/data --label $s --only hackbench" \
				>"$d.log" 2>&1 || die "boot $d failed: $d.log"
		done
		d=$out/$s-${c}cpu-trace
		step "$s at $c vCPUs: sched trace of hackbench process-pipe, $GROUPS_ groups x $TLOOPS loops"
		"$REPO/scripts/boot-guest.sh" --kernel "$(kernel_build_dir "$s" 1)/arch/x86/boot/bzImage" \
			--cpus "$c" --mem 3072 --timeout 1800 --out "$d" -- \
			"$REPO/scripts/guest-trace.sh --buffer-kb 262144 \$RESULTS/trace.txt -- hackbench --process --pipe -g $GROUPS_ -l $TLOOPS" \
			>"$d.log" 2>&1 || die "boot $d failed: $d.log"
		echo "$((GROUPS_ * 400 * TLOOPS))" >"$d/messages"
	done
done
python3 "$REPO/scripts/smp-profile-table.py" "$out" >"$out/table.md"
cat "$out/table.md"
step "done: $out/table.md"
