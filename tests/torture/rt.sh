#!/bin/bash
# Torture case "rt": the rt-tests programs that check SCHED_FIFO/RR and
# SCHED_DEADLINE behaviour (priority inheritance, RT push/pull between
# CPUs, deadline tasks, signal latency), SECS seconds each, with the default
# RT throttling. VRQ leaves those classes to mainline, so they must pass as
# they do on mainline; each program's exit status (and rt-migrate-test's
# verdict) decides.
# usage: rt.sh SECS
. "$(dirname "$0")/lib.sh"

secs=${1:?usage: rt.sh SECS}
torture_begin rt

# run_rt NAME CMD...: run one program under a timeout and report it.
run_rt() {
	local name=$1 log=$TORTURE_OUT/rt-$1.log t0 rc=0
	shift
	if ! command -v "$1" >/dev/null; then
		result skip "$name" "$1 not installed (rt-tests)"
		return 0
	fi
	t0=$(date +%s)
	timeout -k 10 $((secs * 3 + 120)) "$@" >"$log" 2>&1 </dev/null || rc=$?
	local took="($(($(date +%s) - t0))s)"
	if [ $rc = 0 ] && ! grep -q 'Failed!' "$log"; then
		result pass "$name" "$took $*"
	else
		result fail "$name" "$took exit $rc: $* -- $(grep -iE -m2 'fail|error|deadlock' "$log" | tr '\n' ' ' || tail -2 "$log" | tr '\n' ' ')"
	fi
}

uni=
[ "$NCPU" = 1 ] && uni=--uniprocessor
run_rt pi_stress pi_stress --duration="$secs" --mlockall --quiet $uni
# rt-migrate-test: NCPU+1 FIFO tasks of rising priority, 20 ms busy and
# 100 ms asleep a loop; it fails when a lower priority ran while a higher
# one waited.
run_rt rt-migrate-test rt-migrate-test --quiet --loops=$((secs * 1000 / 120 + 1))
# cyclicdeadline gives up when a period's work overruns its runtime; its
# default 1 ms period is below what a TCG guest on a busy host can keep
# (it missed by 3.5 ms there), so the shortest period here is 20 ms.
run_rt cyclicdeadline cyclicdeadline --duration="$secs" --threads="$NCPU" --interval=20000 --quiet
run_rt signaltest signaltest --duration="$secs" --prio=90 --mlockall --quiet
# pip_stress runs a fixed priority-inversion scenario on one CPU.
run_rt pip_stress pip_stress
torture_finish
