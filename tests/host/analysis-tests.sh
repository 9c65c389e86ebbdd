# Sourced by run.sh: the guest analysis tools on synthetic input whose
# answer is known: scripts/wakeup-tail.py on a sched trace
# (tests/host/traces/sleeper-two-hogs.txt says it), and
# scripts/lock-stat-table.py on a /proc/lock_stat in the kernel's format.
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

ls_py=$REPO/scripts/lock-stat-table.py
ls_in=$HERE/lockstat/vrq-2cpu.txt
check "lock-stat-table: vrq_lock's counts and times, per message" 0 bash -c \
	'"$1" vrq-2cpu="$2" --per 1000 | tee /dev/stderr |
	 grep -qx "| vrq-2cpu | \`vrq_lock\` | 200000 | 1000 | 0.50 | 3000 | 250.0 | 80000 | 200.00 | 3.000 |"' \
	_ "$ls_py" "$ls_in"
check "lock-stat-table: --class picks another lock" 0 bash -c \
	'"$1" a="$2" --class "&p->pi_lock" | grep -q "^| a | \`&p->pi_lock\` | 150000 | 12 | 0.01 | 9 | 2.0 |"' _ "$ls_py" "$ls_in"
check "lock-stat-table rejects a file with none of the classes" 1 "$ls_py" a="$ls_in" --class "&rq->__lock"
check "lock-stat-table rejects a file that is not lock_stat" 1 "$ls_py" a="$REPO/README.md"
check "lock-stat-table rejects a run without a label" 1 "$ls_py" "$ls_in"
check "guest-lockstat.sh wants a command after --" 1 "$REPO/scripts/guest-lockstat.sh" /tmp/x
ts_py=$REPO/scripts/trace-summary.py
check "trace-summary: 3 wakeups, 7 switches, 4 of them preemptions" 0 bash -c \
	'"$1" "$2" --ops 3 | tee /dev/stderr | tr "\n" " " |
	 grep -q "wakeups 3 remote_wakeups 0 remote_pct 0.000 switches 7 preempted_pct 57.143 migrations 0 idle_pct 0.000 wakeups_per_op 1.0000"' \
	_ "$ts_py" "$tr"
check "trace-summary rejects a file with no sched events" 1 "$ts_py" "$REPO/README.md"
check "trace-summary rejects --ops 0" 1 "$ts_py" "$tr" --ops 0
sp=$(mktemp -d)
mkdir -p "$sp/vrq-2cpu-process-pipe/data" "$sp/vrq-2cpu-trace"
cp "$ls_in" "$sp/vrq-2cpu-process-pipe/lock_stat"
printf '%s\n' '{"workload": "hackbench", "metric": "time_s", "value": 2.5, "unit": "s", "better": "lower", "params": {"mode": "process-pipe", "groups": "1", "loops": "500", "cpus": "2"}}' \
	'{"workload": "hackbench", "metric": "fig_res_ipi_per_op", "value": 0.02, "unit": "/msg", "better": "lower", "params": {"mode": "process-pipe", "groups": "1", "loops": "500", "cpus": "2"}}' \
	>"$sp/vrq-2cpu-process-pipe/data/hackbench.jsonl"
cp "$tr" "$sp/vrq-2cpu-trace/trace.txt"
echo 3 >"$sp/vrq-2cpu-trace/messages"
# The table goes to a file first: a `tee | grep -q` pipe lets grep quit
# at its match and tee die of SIGPIPE before the rows after it are kept.
check "smp-profile-table runs" 0 bash -c 'python3 "$1" "$2" >"$2/table.md"' \
	_ "$REPO/scripts/smp-profile-table.py" "$sp"
check "smp-profile-table: figures and vrq_lock per message (200000 over 200000 messages)" 0 \
	grep -q "^| process-pipe | 2 | vrq | 2.50 | 0.02 | - | - | - | - | - | - | vrq_lock | 1.00 | 0.50 | 0.015 | 250.0 |$" "$sp/table.md"
check "smp-profile-table: the trace row" 0 grep -q "^| vrq | 2 | 1.000 | 0.0 | 2.333 | 57.1 | 0.0000 | 0.0 |$" "$sp/table.md"
rm -rf "$sp"
check "smp-profile.sh rejects an unknown hackbench mode" 1 env PROFILE_MODES=fifo "$REPO/scripts/smp-profile.sh" --out /tmp/x
