# Sourced by run.sh: bad make variables and script arguments fail clearly.
check "make rejects an unknown SCHED" 1 make -s -C "$REPO" config SCHED=bfs
check "the error lists the valid schedulers" 0 grep -q "valid: cfs vrq" "$OUT"
check "make rejects DEBUG=2" 1 make -s -C "$REPO" config DEBUG=2
fake_kernel=$(mktemp)
check "boot rejects CPUS=0" 1 "$REPO/scripts/boot-guest.sh" --kernel "$fake_kernel" --out /tmp/x --cpus 0
check "the error names CPUS" 0 grep -q "CPUS must be a positive number" "$OUT"
check "boot rejects PREEMPT=lazy" 1 "$REPO/scripts/boot-guest.sh" --kernel "$fake_kernel" --out /tmp/x --preempt lazy
check "the error lists the preempt models" 0 grep -q "PREEMPT must be none, voluntary or full" "$OUT"
check "boot rejects a missing kernel image" 1 "$REPO/scripts/boot-guest.sh" --kernel /nonexistent --out /tmp/x
rm -f "$fake_kernel"
