#!/bin/bash
# Torture case "suspend": CYCLES suspend-to-idle runs stopped at the
# freezer test point (echo freezer > /sys/power/pm_test; echo freeze >
# /sys/power/state: every task is frozen, the kernel waits a few seconds
# and thaws them) while hackbench loops and busy tasks of every policy
# (normal, nice 19, batch, idle, FIFO with RT throttling) and a sleeper run.
# Checks: each cycle succeeds, and every busy task is alive and (except the
# SCHED_IDLE one, which may rightly get nothing while the CPUs are busy) got
# CPU time between consecutive cycles.
# usage: suspend.sh CYCLES
. "$(dirname "$0")/lib.sh"

cycles=${1:?usage: suspend.sh CYCLES}
torture_begin suspend
if [ ! -w /sys/power/pm_test ] || ! grep -qw freezer /sys/power/pm_test ||
	! grep -qw freeze /sys/power/state 2>/dev/null; then
	result skip suspend "the kernel has no pm_test freezer or no freeze state (CONFIG_SUSPEND, CONFIG_PM_DEBUG)"
	torture_finish
fi

hackbench_loop 20
declare -A busy
for kind in normal nice19 batch idle fifo; do
	case $kind in
	normal) pre=(chrt --other 0) ;;
	nice19) pre=(nice -n 19 chrt --other 0) ;;
	batch) pre=(chrt --batch 0) ;;
	idle) pre=(chrt --idle 0) ;;
	# a FIFO task that sleeps half of the time, so it neither hogs a CPU
	# nor hides the others on one vCPU
	fifo) pre=(chrt --fifo 10) ;;
	esac
	if [ $kind = fifo ]; then
		bg_start "${pre[@]}" bash -c ". '$TORTURE_DIR/lib.sh'; while [ ! -e \$TORTURE_STOP ]; do for ((i = 0; i < 2000; i++)); do :; done; nap 0.02; done"
	else
		bg_start "${pre[@]}" bash -c "while [ ! -e '$TORTURE_STOP' ]; do :; done"
	fi
	busy[$kind]=${BG_PIDS[-1]}
done
bg_start bash -c ". '$TORTURE_DIR/lib.sh'; while [ ! -e \$TORTURE_STOP ]; do nap 0.5; done"

# cputime PID: utime + stime in clock ticks (the comm "bash" has no space).
cputime() {
	awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo -1
}

declare -A last
for kind in "${!busy[@]}"; do last[$kind]=$(cputime "${busy[$kind]}"); done
echo freezer >/sys/power/pm_test
for ((n = 1; n <= cycles; n++)); do
	nap 2
	t0=$(date +%s)
	rc=0
	echo freeze >/sys/power/state || rc=1
	took="($(($(date +%s) - t0))s)"
	stalled=
	for kind in "${!busy[@]}"; do
		now=$(cputime "${busy[$kind]}")
		if [ "$now" = -1 ]; then
			stalled+=" $kind(gone)"
		elif [ $kind != idle ] && [ "$now" -le "${last[$kind]}" ]; then
			stalled+=" $kind($now ticks)"
		fi
		last[$kind]=$now
	done
	if [ $rc = 0 ] && [ -z "$stalled" ]; then
		result pass "freeze-cycle-$n" "$took frozen and thawed; busy tasks all progressing"
	else
		result fail "freeze-cycle-$n" "$took write rc=$rc (1: failed); no CPU time since the last cycle:${stalled:- none}"
	fi
done
echo none >/sys/power/pm_test
if dmesg | grep -E 'Freezing .*(failed|abort)|refused to freeze' >&2; then
	result fail freezer-log "the freezer reported failures (above)"
else
	result pass freezer-log "no freezer failures in the kernel log"
fi
lost=0
bg_stop 120 || lost=$?
verdict tasks-end "all background tasks ended on request" \
	"$lost background tasks had to be killed" [ $lost = 0 ]
check_loop hackbench
torture_finish
