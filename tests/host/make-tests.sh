# Sourced by run.sh: bad make variables and script arguments fail clearly.
check "make rejects an unknown SCHED" 1 make -s -C "$REPO" config SCHED=bfs
check "the error lists the valid schedulers" 0 grep -q "valid: cfs cfs-autogroup vrq" "$OUT"
check "make rejects DEBUG=2" 1 make -s -C "$REPO" config DEBUG=2
check "make rejects LOCKSTAT=yes" 1 make -s -C "$REPO" config LOCKSTAT=yes
check "make rejects DEBUG=1 with LOCKSTAT=1" 1 make -s -C "$REPO" config DEBUG=1 LOCKSTAT=1
check "config-kernel.sh rejects an unknown flavour" 1 "$REPO/scripts/config-kernel.sh" vrq 2
check "the error names the flavours" 0 grep -q "DEBUG must be 0 or 1 (or the flavour lockstat" "$OUT"
fake_kernel=$(mktemp)
check "boot rejects CPUS=0" 1 "$REPO/scripts/boot-guest.sh" --kernel "$fake_kernel" --out /tmp/x --cpus 0
check "the error names CPUS" 0 grep -q "CPUS must be a positive number" "$OUT"
check "boot rejects PREEMPT=lazy" 1 "$REPO/scripts/boot-guest.sh" --kernel "$fake_kernel" --out /tmp/x --preempt lazy
check "the error lists the preempt models" 0 grep -q "PREEMPT must be none, voluntary or full" "$OUT"
check "boot rejects a missing kernel image" 1 "$REPO/scripts/boot-guest.sh" --kernel /nonexistent --out /tmp/x
rm -f "$fake_kernel"
# make bench: suites, the A/A switch and resuming are checked before any boot.
check "make bench rejects an unknown SUITE" 1 make -s -C "$REPO" bench SUITE=fast
check "the error lists the suites" 0 grep -q "valid: all throughput latency scaling" "$OUT"
check "make bench rejects AA=2" 1 make -s -C "$REPO" bench AA=2
check "make bench rejects RESUME without one SUITE" 1 make -s -C "$REPO" bench RESUME=/tmp/x
check "run-bench.sh rejects ROUNDS=0" 1 env ROUNDS=0 "$REPO/bench/run-bench.sh" --estimate
check "run-bench.sh rejects a VRQ_ALT that is not kernel.NAME=N" 1 env VRQ_ALT='kernel.yield_type=x' "$REPO/bench/run-bench.sh" --estimate
check "run-bench.sh rejects VRQ_ALT without the vrq kernel" 1 env SCHEDS=cfs VRQ_ALT='kernel.yield_type=1' "$REPO/bench/run-bench.sh" --estimate
check "run-bench.sh rejects WORKLOADS outside the suite" 1 env SUITE=throughput WORKLOADS=sleeper "$REPO/bench/run-bench.sh" --estimate
check "run-bench.sh takes a VRQ variant and a part of a suite" 0 env SUITE=latency WORKLOADS='sleeper spinyield' VRQ_ALT='kernel.yield_type=1' "$REPO/bench/run-bench.sh" --estimate
check "a throughput suite of 4 rounds is 8 boots" 0 \
	test "$(SUITE=throughput ROUNDS=4 "$REPO/bench/run-bench.sh" --estimate)" = \
	"$((8 * $(. "$REPO/bench/lib.sh"; suite_boot_secs throughput)))"
check "scaling boots every variant at every vCPU count" 0 \
	test "$(SUITE=scaling ROUNDS=1 SCALING_CPUS='1 2 4' "$REPO/bench/run-bench.sh" --estimate)" = \
	"$((6 * $(. "$REPO/bench/lib.sh"; suite_boot_secs scaling)))"
bench_tmp=$(mktemp -d)
check "--resume needs a run's directory" 1 "$REPO/bench/run-bench.sh" --resume "$bench_tmp" --no-build
check "the error says why" 0 grep -q "no plan.txt" "$OUT"
echo "suite=latency" >"$bench_tmp/plan.txt"
check "--resume refuses another plan" 1 env SUITE=throughput "$REPO/bench/run-bench.sh" --resume "$bench_tmp" --no-build
check "the error names the plan" 0 grep -q "had another plan" "$OUT"
check "a new run does not overwrite a run" 1 env SUITE=throughput "$REPO/bench/run-bench.sh" --out "$bench_tmp" --no-build
check "and says so" 0 grep -q "already holds a run" "$OUT"
check "the run's files are untouched" 0 test "$(cat "$bench_tmp/plan.txt")" = "suite=latency"
rm -rf "$bench_tmp"
# make desktop-check: bad variables fail before any build.
check "desktop-check rejects DESKTOP_CPUS=0" 1 env DESKTOP_CPUS=0 "$REPO/scripts/desktop-check.sh"
check "desktop-check rejects DESKTOP_SCHEDS=bfs" 1 env DESKTOP_SCHEDS=bfs "$REPO/scripts/desktop-check.sh"
check "the error names vrq and cfs" 0 grep -q "'bfs' is not vrq or cfs" "$OUT"
check "desktop-check rejects DESKTOP_TCG_THREADS=two" 1 env DESKTOP_TCG_THREADS=two "$REPO/scripts/desktop-check.sh"
check "the error names single and multi" 0 grep -q "must be single or multi, not 'two'" "$OUT"
check "boot-guest.sh rejects TCG_THREADS=two" 1 env ACCEL=tcg TCG_THREADS=two "$REPO/scripts/boot-guest.sh" --kernel "$REPO/README.md" --out /tmp/x
check "and names it" 0 grep -q "TCG_THREADS must be single or multi" "$OUT"
check "boot-guest.sh rejects ICOUNT=fast" 1 env ICOUNT=fast "$REPO/scripts/boot-guest.sh" --kernel "$REPO/README.md" --out /tmp/x
check "and says what a shift is" 0 grep -q "ICOUNT must be a shift from 0 to 10" "$OUT"
check "boot-guest.sh rejects ICOUNT with TCG_THREADS=multi" 1 env ICOUNT=3 TCG_THREADS=multi "$REPO/scripts/boot-guest.sh" --kernel "$REPO/README.md" --out /tmp/x
check "and says why" 0 grep -q "cannot be used with it" "$OUT"
check "boot-guest.sh rejects ICOUNT with ACCEL=kvm" 1 env ICOUNT=3 ACCEL=kvm "$REPO/scripts/boot-guest.sh" --kernel "$REPO/README.md" --out /tmp/x
check "run-bench.sh rejects ICOUNT=11" 1 env ICOUNT=11 "$REPO/bench/run-bench.sh" --estimate
check "make bench rejects ICOUNT=x" 1 make -s -C "$REPO" bench SUITE=throughput ICOUNT=x
check "desktop-kernel.sh rejects SCHED=bfs" 1 "$REPO/scripts/desktop-kernel.sh" bfs
check "desktop-image.sh rejects DESKTOP_SIZE=big" 1 env DESKTOP_SIZE=big "$REPO/scripts/desktop-image.sh"
check "boot-guest.sh rejects a missing disk image" 1 "$REPO/scripts/boot-guest.sh" --kernel "$REPO/README.md" --out /tmp/x --disk /nonexistent.img
check "the error names the disk" 0 grep -q "disk image /nonexistent.img not found" "$OUT"
