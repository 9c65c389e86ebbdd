#!/bin/bash
# make torture: boot the VRQ debug kernel (lockdep, lockup and hung-task
# detectors, RCU stall warnings) once per case of the plan and run the
# guest side (tests/torture/<case>.sh) in it. A case fails when its script
# fails, the guest times out or the serial log has a splat (boot-guest.sh).
# Writes results/torture-<date>/summary.md (case, vCPUs, preempt model,
# result, duration) and prints it; exits non-zero if any case failed.
#
# The plan is a list of CASE:CPUS:PREEMPT (TORTURE_PLAN overrides it); the
# cases are stress, rt, hotplug, suspend, soak and reliability (the
# tests/reliability programs, when built into build/tests-reliability).
# Sizes (QUICK=1 or TORTURE_QUICK=1: a minutes-long trial run):
#   TORTURE_STRESS_SECS     seconds per stress-ng stressor (5; quick 2)
#   TORTURE_RT_SECS         seconds per rt-tests program (60; quick 5)
#   TORTURE_HOTPLUG_CYCLES  CPU offline/online cycles (1000; quick 50)
#   TORTURE_SUSPEND_CYCLES  freeze cycles (20; quick 3)
#   TORTURE_SOAK_MINS       soak minutes (30; quick 2)
#   TORTURE_MEM             guest memory, MB (3072)
#   TORTURE_KERNEL          the bzImage (build/vrq-debug's)
#   TORTURE_APPEND          extra guest command line ('tsc=unstable': under
#                           TCG the guest TSC is the host's, which jumped by
#                           6413 s once on these machines and faked an RCU
#                           stall; the guests keep time with the HPET)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

QUICK=${TORTURE_QUICK:-${QUICK:-0}}
q() {
	if [ "$QUICK" = 1 ]; then echo "$1"; else echo "$2"; fi
}
TORTURE_STRESS_SECS=${TORTURE_STRESS_SECS:-$(q 2 5)}
TORTURE_RT_SECS=${TORTURE_RT_SECS:-$(q 5 60)}
TORTURE_HOTPLUG_CYCLES=${TORTURE_HOTPLUG_CYCLES:-$(q 50 1000)}
TORTURE_SUSPEND_CYCLES=${TORTURE_SUSPEND_CYCLES:-$(q 3 20)}
TORTURE_SOAK_MINS=${TORTURE_SOAK_MINS:-$(q 2 30)}
TORTURE_MEM=${TORTURE_MEM:-3072}
TORTURE_APPEND=${TORTURE_APPEND-tsc=unstable}
for v in TORTURE_STRESS_SECS TORTURE_RT_SECS TORTURE_HOTPLUG_CYCLES TORTURE_SUSPEND_CYCLES TORTURE_SOAK_MINS; do
	case "${!v}" in '' | *[!0-9]* | 0) die "$v must be a positive number, not '${!v}'" ;; esac
done

# The full plan: stress at every vCPU count and preemption model, one boot
# each of the other cases, about 2 h 05 min under TCG on 2 host cores. The
# soak runs on as many vCPUs as the host has cores: with more, its probe
# measures the host's scheduling of QEMU's vCPU threads as much as the
# guest's (docs/torture.md).
full_plan() {
	local c p
	for c in 1 2 4; do
		for p in none voluntary full; do
			echo "stress:$c:$p"
		done
	done
	echo rt:2:full hotplug:4:full suspend:2:full soak:2:full
	echo reliability:1:none reliability:4:full
}
TORTURE_PLAN=${TORTURE_PLAN:-$(q "stress:2:full rt:2:full hotplug:4:full suspend:2:full soak:2:full reliability:4:full" "$(full_plan)")}

KIMG=${TORTURE_KERNEL:-$(kernel_build_dir vrq 1)/arch/x86/boot/bzImage}
[ -f "$KIMG" ] || die "$KIMG missing: run 'make kernel SCHED=vrq DEBUG=1'"
RELDIR=$BUILD/tests-reliability
stamp=$(date +%Y%m%d-%H%M)
OUT=$REPO/results/torture-$stamp
mkdir -p "$OUT"
nstress=$(stress-ng --class 'scheduler?' 2>&1 | sed -n "s/^class 'scheduler' stressors: //p" | wc -w)

# case_cmd CASE: the guest command of a case; case_timeout CASE: its limit
# in seconds (TCG guests are slow: generous).
case_cmd() {
	local t=$REPO/tests/torture
	case "$1" in
	stress) echo "bash $t/stress.sh $TORTURE_STRESS_SECS" ;;
	rt) echo "bash $t/rt.sh $TORTURE_RT_SECS" ;;
	hotplug) echo "bash $t/hotplug.sh $TORTURE_HOTPLUG_CYCLES" ;;
	suspend) echo "bash $t/suspend.sh $TORTURE_SUSPEND_CYCLES" ;;
	soak) echo "QUICK=$QUICK bash $t/soak.sh $TORTURE_SOAK_MINS" ;;
	reliability) echo "VRQ_SCHED=vrq VRQ_IN_GUEST=1 $REPO/tests/guest/run-suite.sh $RELDIR" ;;
	*) die "unknown torture case '$1' (stress rt hotplug suspend soak reliability)" ;;
	esac
}
case_timeout() {
	case "$1" in
	stress) echo $(((nstress + 8) * (TORTURE_STRESS_SECS * 2 + 40) + 300)) ;;
	rt) echo $((5 * (TORTURE_RT_SECS * 2 + 60) + 300)) ;;
	hotplug) echo $((TORTURE_HOTPLUG_CYCLES * 8 + 600)) ;;
	suspend) echo $((TORTURE_SUSPEND_CYCLES * 60 + 600)) ;;
	soak) echo $((TORTURE_SOAK_MINS * 60 + 900)) ;;
	reliability) echo 1800 ;;
	esac
}

# The soak plays the bench clip and compiles the bench projects: make them.
case "$TORTURE_PLAN" in *soak:*) QUICK=$QUICK "$REPO/bench/setup.sh" ;; esac

rows=()
failed=0
t0=$(date +%s)
ncases=$(wc -w <<<"$TORTURE_PLAN")
note "torture: $ncases boots of $KIMG -> $OUT"
i=0
for entry in $TORTURE_PLAN; do
	i=$((i + 1))
	IFS=: read -r case cpus preempt <<<"$entry"
	[ -n "$cpus" ] && [ -n "$preempt" ] || die "plan entry '$entry' is not CASE:CPUS:PREEMPT"
	cmd=$(case_cmd "$case")
	dir=$OUT/$case-${cpus}cpu-$preempt
	if [ "$case" = reliability ] && ! ls "$RELDIR"/t_* >/dev/null 2>&1; then
		rows+=("| $case | $cpus | $preempt | SKIP | 0m00s | no programs in $RELDIR (make -C tests/reliability) |")
		note "${rows[-1]}"
		continue
	fi
	note "torture [$i/$ncases, $(fmt_secs $(($(date +%s) - t0))) so far]: $case at $cpus vCPUs," \
		"preempt=$preempt (timeout $(case_timeout "$case") s)"
	rc=0
	"$REPO/scripts/boot-guest.sh" --kernel "$KIMG" --cpus "$cpus" --mem "$TORTURE_MEM" --preempt "$preempt" \
		--append "$TORTURE_APPEND" --timeout "$(case_timeout "$case")" --out "$dir" -- \
		"TORTURE_OUT=\$RESULTS/items $cmd" || rc=$?
	summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$dir/output.txt" 2>/dev/null | tail -1 || true)
	fails=$(grep -E '^FAIL ' "$dir/output.txt" 2>/dev/null | cut -c1-60 | head -3 | tr '\n' ';' || true)
	case $rc in
	0) res=PASS ;;
	77) res=SKIP ;;
	*)
		res=FAIL
		failed=$((failed + 1))
		"$REPO/scripts/scan-log.sh" "$dir/serial.log" >/dev/null 2>&1 || fails="splat in serial.log; $fails"
		;;
	esac
	rows+=("| $case | $cpus | $preempt | $res | $(fmt_secs "$(cat "$dir/elapsed" 2>/dev/null || echo 0)") | ${summary:-no summary (exit $rc)}${fails:+; $fails} |")
	note "${rows[-1]}"
done

{
	echo "# make torture, $(date '+%F %H:%M'), $(uname -n)"
	echo
	echo "Debug kernel $KIMG, $(cat "$BUILD/accel" 2>/dev/null || echo tcg) guests" \
		"(extra command line: '${TORTURE_APPEND}'); QUICK=$QUICK:" \
		"stress-ng ${TORTURE_STRESS_SECS}s a stressor (the $nstress of its scheduler class, and cpu), rt ${TORTURE_RT_SECS}s a program," \
		"$TORTURE_HOTPLUG_CYCLES hotplug cycles, $TORTURE_SUSPEND_CYCLES freeze cycles, soak $TORTURE_SOAK_MINS min."
	echo "Total $(fmt_secs $(($(date +%s) - t0))); $failed of ${#rows[@]} cases failed. Per-case logs: <case>-<N>cpu-<preempt>/."
	echo
	echo "| case | vCPUs | preempt | result | duration | detail |"
	echo "|------|-------|---------|--------|----------|--------|"
	printf '%s\n' "${rows[@]}"
} >"$OUT/summary.md"
echo
cat "$OUT/summary.md"
[ $failed = 0 ]
