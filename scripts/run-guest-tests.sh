#!/bin/bash
# The guest half of `make test`: for each scheduler in TEST_SCHEDS build the
# debug kernel, then boot it over a matrix of vCPU counts and preemption
# models, running the guest suite each time. Prints one line per boot and a
# final "N passed, N failed" over all guest tests of all boots; exits
# non-zero if any test failed, any boot failed or splatted, or none ran.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

TEST_SCHEDS=${TEST_SCHEDS:-cfs}
# "cpus:preempt[:feats]" boots; VRQ adds 4 vCPUs. feats (CFS only) sets
# the sched_feat bits of patches/cfs-* before the suite runs:
# on / off = all of them (tests/cfs/cfs-features.sh), default = as booted.
MATRIX_cfs=${MATRIX_cfs:-"1:full 2:none:off 2:full:on"}
MATRIX_vrq=${MATRIX_vrq:-"1:full 1:none 2:none 2:full 4:full 4:none"}
SUITE_TIMEOUT=${SUITE_TIMEOUT:-900}

for s in $TEST_SCHEDS; do check_sched "$s"; done

total_pass=0 total_fail=0 total_skip=0 boot_fail=0
t0=$(date +%s)
summary=()
for s in $TEST_SCHEDS; do
	make -s -C "$REPO" kernel SCHED="$s" DEBUG=1
	kimg=$(kernel_build_dir "$s" 1)/arch/x86/boot/bzImage
	# each kernel's own tests: VRQ semantics, or the CFS sched_feat toggles
	extra="$BUILD/tests-$s $BUILD/tests-reliability"
	for d in $extra; do [ -d "$d" ] || die "no $d: run 'make tests' first"; done
	eval "matrix=\$MATRIX_$s"
	for m in $matrix; do
		IFS=: read -r cpus preempt feats <<<"$m"
		feats=${feats:-default}
		out=$BUILD/test/$s-${cpus}cpu-$preempt-feats-$feats
		setfeats=
		if [ "$feats" != default ]; then
			[ "$s" = cfs ] || die "sched_feat bits ($m) are for the CFS kernel only"
			setfeats="$BUILD/tests-cfs/cfs-features.sh $feats && "
		fi
		rc=0
		"$REPO/scripts/boot-guest.sh" --kernel "$kimg" --cpus "$cpus" \
			--preempt "$preempt" --timeout "$SUITE_TIMEOUT" --out "$out" -- \
			"${setfeats}VRQ_SCHED=$s TEST_EXTRA_DIRS='$extra' $REPO/tests/guest/run-suite.sh $BUILD/tests" ||
			rc=$?
		line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out/output.txt" 2>/dev/null | tail -1 || true)
		p=0 f=0 k=0
		if [ -n "$line" ]; then
			p=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')
			f=$(echo "$line" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/')
			k=$(echo "$line" | sed -nE 's/.*, ([0-9]+) skipped.*/\1/p')
			k=${k:-0}
		fi
		grep -E '^(FAIL|SKIP) ' "$out/output.txt" 2>/dev/null | sed "s/^/  [$s ${cpus}cpu $preempt $feats] /" || true
		status=ok
		if [ $rc != 0 ] || [ -z "$line" ]; then
			status="FAILED (exit $rc, see $out/serial.log)"
			boot_fail=$((boot_fail + 1))
		fi
		summary+=("$(printf '%-4s %2s vCPU preempt=%-9s feats=%-7s %3s passed %3s failed %3s skipped %4ss  %s' \
			"$s" "$cpus" "$preempt" "$feats" "$p" "$f" "$k" "$(cat "$out/elapsed" 2>/dev/null || echo ?)" "$status")")
		echo "${summary[-1]}"
		total_pass=$((total_pass + p)) total_fail=$((total_fail + f)) total_skip=$((total_skip + k))
	done
done

echo
echo "guest test summary ($(cat "$out/accel" 2>/dev/null || echo "?"), $(($(date +%s) - t0)) s):"
printf '  %s\n' "${summary[@]}"
# A boot that failed (splat, timeout, crash) counts as one failed test.
total_fail=$((total_fail + boot_fail))
echo "$total_pass passed, $total_fail failed, $total_skip skipped"
[ $total_fail = 0 ] && [ $total_pass -gt 0 ]
