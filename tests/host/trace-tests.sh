# Sourced by run.sh: scripts/wakeup-tail.py on a synthetic trace whose
# answer is known (tests/host/traces/sleeper-two-hogs.txt says it).
tail_py=$REPO/scripts/wakeup-tail.py
tr=$HERE/traces/sleeper-two-hogs.txt
check "wakeup-tail finds the sleeper's three wakeups, two over 1 ms" 0 \
	bash -c '"$1" "$2" --comm sleeper >"$3.md" && cat "$3.md" &&
		grep -q "^3 wakeups: wait p50 2500 us, p99 6000 us, max 6000 us; 2 (66.67 %) over 1000 us" "$3.md"' \
	_ "$tail_py" "$tr" "$OUT"
check "a wakeup behind two hog slices: one other task ran first" 0 \
	grep -q "^| 1 other task ran first | 1 | 6000 / 6000 | 3000 / 3000 | preempted 1 | sleeper 1 |" "$OUT.md"
check "a wakeup behind the running hog's slice" 0 \
	grep -q "^| the running task went on, then it ran | 1 | 2500 / 2500 | 2500 / 2500 | preempted 1 | - |" "$OUT.md"
check "with --over 5000 only the 6 ms wakeup is slow" 0 \
	bash -c '"$1" "$2" --pid 100 --over 5000 | grep -q "1 (33.33 %) over 5000 us"' _ "$tail_py" "$tr"
check "wakeup-tail rejects a task that is not in the trace" 1 "$tail_py" "$tr" --comm mpv
check "wakeup-tail rejects a negative --over" 1 "$tail_py" "$tr" --comm sleeper --over -1
check "wakeup-tail rejects a file with no trace" 1 "$tail_py" "$REPO/README.md" --comm sleeper
rm -f "$OUT.md"
check "guest-trace.sh wants a command after --" 1 "$REPO/scripts/guest-trace.sh" /tmp/x
check "guest-trace.sh rejects a bad buffer size" 1 "$REPO/scripts/guest-trace.sh" --buffer-kb x /tmp/x -- true
