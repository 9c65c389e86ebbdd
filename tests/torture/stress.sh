#!/bin/bash
# Torture case "stress": every stressor of stress-ng's scheduler class (as
# this stress-ng lists it), then --cpu, --switch, --yield, --schedpolicy,
# --affinity, --nice and --hrtimers, one after the other, SECS seconds each
# with one instance per online CPU (cyclic: see stressor_args()). A stressor passes when stress-ng exits 0
# and reports no failure; stress-ng's "no resource" and "not implemented"
# exits (3, 4) and stressors it skips itself count as skipped. A stressor
# that refuses to run as root (exec) is run again as user nobody.
# usage: stress.sh SECS
. "$(dirname "$0")/lib.sh"

secs=${1:?usage: stress.sh SECS}
command -v stress-ng >/dev/null || die "stress-ng missing: run 'make deps' on the host"
torture_begin stress

class=$(stress-ng --class 'scheduler?' 2>&1 | sed -n "s/^class 'scheduler' stressors: //p")
[ -n "$class" ] || die "stress-ng lists no scheduler-class stressors"
stressors=$(printf '%s\n' $class cpu switch yield schedpolicy affinity nice hrtimers | awk '!seen[$0]++')
tlog "stress-ng $(stress-ng --version | awk '{ print $3 }'): $(echo $stressors | wc -w) stressors, ${secs}s each"

# how stress-ng says that it did not run a stressor here
skipped='will be skipped|skipping (the )?(stressor|stress test)|skipped: [1-9]'
# stressor_args NAME: the instance count and options of a stressor: one
# instance a CPU (0), except cyclic. stress-ng 0.15's cyclic defaults to a
# SCHED_DEADLINE task asking for 90 % of a CPU, and 6.12's fair server holds
# 5 % of each CPU's deadline bandwidth, so it fails admission with EBUSY
# (two instances on 2 CPUs, one on 1 CPU; on mainline as on VRQ). cyclic
# runs one SCHED_FIFO instance; rt.sh's cyclicdeadline and the schedpolicy
# stressor cover SCHED_DEADLINE.
stressor_args() {
	case "$1" in
	cyclic) echo "1 --cyclic-policy fifo" ;;
	*) echo 0 ;;
	esac
}
# run_stressor NAME LOG [PREFIX...]: stress-ng NAME, one instance a CPU.
run_stressor() {
	local s=$1 log=$2
	shift 2
	timeout -k 10 $((secs * 4 + 120)) "$@" stress-ng --"$s" $(stressor_args "$s") --timeout "${secs}s" \
		--metrics-brief --temp-path /tmp >"$log" 2>&1 </dev/null
}

for s in $stressors; do
	log=$TORTURE_OUT/stress-$s.log
	t0=$(date +%s)
	rc=0
	run_stressor "$s" "$log" || rc=$?
	if grep -q 'must not run as root' "$log"; then
		rc=0
		run_stressor "$s" "$log" setpriv --reuid=nobody --regid=nogroup --clear-groups || rc=$?
	fi
	took="($(($(date +%s) - t0))s)"
	fails=$(grep -E 'stress-ng: fail:|unsuccessful run|failed: [1-9]' "$log" | head -3 | tr '\n' ' ' || true)
	if [ $rc = 0 ] && [ -z "$fails" ]; then
		if grep -qE "$skipped" "$log"; then
			result skip "stress-ng --$s" "$took $(grep -m1 -E "$skipped" "$log" | sed 's/^stress-ng: [a-z]*: *\[[0-9]*\] //')"
		else
			result pass "stress-ng --$s" "$took $(grep -m1 -E "metrc: .* $s " "$log" | awk '{ print $5 " bogo ops" }')"
		fi
	elif [ $rc = 3 ] || [ $rc = 4 ]; then
		result skip "stress-ng --$s" "$took exit $rc (no resource / not implemented): $(tail -1 "$log")"
	else
		result fail "stress-ng --$s" "$took exit $rc: ${fails:-$(tail -2 "$log" | tr '\n' ' ')}"
	fi
done
torture_finish
