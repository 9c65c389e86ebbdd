# Helpers for the torture cases (tests/torture/*.sh), which run as root in
# the throwaway QEMU guest booted by scripts/torture.sh. Source it; do not
# run it.
#
# A case prints one line per checked item, "PASS|FAIL|SKIP item (Ns) ...",
# and ends with "N passed, N failed, N skipped" (torture_finish). Exit
# status: 0 all passed, 77 nothing ran (all skipped), 1 a failure. Logs of
# the items go to $TORTURE_OUT (in the results directory the host keeps).
# shellcheck shell=bash
set -euo pipefail

TORTURE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=${REPO:-$(cd "$TORTURE_DIR/../.." && pwd)}
# die, note
. "$REPO/scripts/lib.sh"

TORTURE_OUT=${TORTURE_OUT:-${RESULTS:-/tmp}/torture}
# The guest's /dev is a bare devtmpfs: bash's process substitution needs
# /dev/fd, which udev would make.
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd 2>/dev/null || true
mkdir -p "$TORTURE_OUT"
NCPU=$(nproc)
# All CPUs the guest has, online or not (nproc counts online ones only).
NCPU_ALL=$(grep -c '^processor' /proc/cpuinfo)
# A file that tells the background loops (bg_loop) to end; shared with
# the helper shells that source this file again.
export TORTURE_STOP=${TORTURE_STOP:-$(mktemp -u /tmp/torture-stop.XXXXXX)}
export TORTURE_OUT
T_PASS=0 T_FAIL=0 T_SKIP=0
BG_PIDS=()

# Progress line, shown live on the serial console.
tlog() {
	printf '[torture %s] %s\n' "$(date +%H:%M:%S)" "$*"
}

# result pass|fail|skip ITEM DETAIL...: count and print one checked item.
result() {
	local kind=$1 item=$2
	shift 2
	case "$kind" in
	pass) T_PASS=$((T_PASS + 1)) ;;
	fail) T_FAIL=$((T_FAIL + 1)) ;;
	skip) T_SKIP=$((T_SKIP + 1)) ;;
	*) die "result: unknown kind '$kind'" ;;
	esac
	echo "${kind^^} $item $*"
}

# verdict ITEM PASS_TEXT FAIL_TEXT TEST...: pass ITEM when TEST succeeds.
verdict() {
	local item=$1 ok=$2 bad=$3
	shift 3
	if "$@"; then
		result pass "$item" "$ok"
	else
		result fail "$item" "$bad"
	fi
}

# torture_finish: the summary line and the exit status (see the top).
torture_finish() {
	echo "$T_PASS passed, $T_FAIL failed, $T_SKIP skipped"
	[ $T_FAIL = 0 ] || exit 1
	[ $T_PASS -gt 0 ] || exit 77
	exit 0
}

# now_us VAR: set VAR to the wall clock in microseconds (bash 5). Not
# $(now_us): a command substitution forks, and the probe times forks.
now_us() {
	local t=$EPOCHREALTIME
	printf -v "$1" '%d' $((10#${t/[.,]/}))
}

# nap SECS: sleep without a fork (SECS may be fractional): a read with a
# timeout on a FIFO that nobody writes to.
nap_fifo=$(mktemp -u /tmp/torture-nap.XXXXXX)
mkfifo "$nap_fifo"
exec {NAP_FD}<>"$nap_fifo"
rm -f "$nap_fifo"
nap() {
	read -r -t "$1" -u "$NAP_FD" _ || true
}

# cpu_online CPU: true when CPU is online (cpu0 has no switch here).
cpu_online() {
	local f=/sys/devices/system/cpu/cpu$1/online
	[ ! -f "$f" ] || [ "$(cat "$f")" = 1 ]
}

# cpu_set CPU 0|1: take CPU offline or bring it online. While the write
# runs, $CPU_SET_PENDING (on the guest's tmpfs, no fork: it must not slow
# the torture down) holds "SECONDS CPU VALUE" for hotplug_watchdog.
export CPU_SET_PENDING=${CPU_SET_PENDING:-/tmp/torture-cpu_set.pending}
cpu_set() {
	local rc=0
	echo "$EPOCHSECONDS $1 $2" >"$CPU_SET_PENDING"
	echo "$2" >"/sys/devices/system/cpu/cpu$1/online" || rc=$?
	: >"$CPU_SET_PENDING"
	return $rc
}

# hotplug_watchdog [SECS]: in the background, watch cpu_set; when one
# write has not returned after SECS (default 60) seconds, save the
# scheduler's state (debugfs sched/debug: every CPU's counts and runnable
# tasks; /proc/vrq_stats; the blocked tasks' stacks) to
# $TORTURE_OUT/hotplug-hang.txt, say so on the console and end the guest
# (sysrq b: QEMU runs with -no-reboot), so that a hang costs a minute
# rather than the case's whole timeout. The hung task detector reports
# such a hang, but not why the CPU cannot empty.
hotplug_watchdog() {
	local secs=${1:-60}
	bg_start bash -c '
		pend=$1 dump=$2 secs=$3
		while [ ! -e "$TORTURE_STOP" ]; do
			sleep 5
			read -r t c v 2>/dev/null <"$pend" || continue
			[ $((EPOCHSECONDS - t)) -ge "$secs" ] || continue
			{
				echo "cpu$c online=$v pending since $t, now $(date +%s)"
				cat /sys/kernel/debug/sched/debug /proc/vrq_stats
				for s in /proc/[0-9]*/stack; do
					grep -q "^State:.*D" "${s%stack}status" 2>/dev/null || continue
					echo "== ${s%/stack} $(cat "${s%stack}comm")"
					cat "$s"
				done
			} >"$dump" 2>&1
			echo "[torture] hotplug write hung for $secs s: state in $dump; rebooting the guest (it ends the case)"
			sync
			echo b >/proc/sysrq-trigger
			break
		done
	' watchdog "$CPU_SET_PENDING" "$TORTURE_OUT/hotplug-hang.txt" "$secs"
}

# cpus_all_online: bring every CPU back (after a case, or on its exit).
cpus_all_online() {
	local f
	for f in /sys/devices/system/cpu/cpu[0-9]*/online; do
		[ -f "$f" ] && [ "$(cat "$f")" = 0 ] && { echo 1 >"$f" || true; }
	done
	return 0
}

# bg_loop NAME CMD...: run CMD over and over in its own session until
# bg_stop, one "ok" or "fail EXIT" line a run in $TORTURE_OUT/NAME.runs.
bg_loop() {
	local name=$1
	shift
	: >"$TORTURE_OUT/$name.runs"
	setsid bash -c '
		stop=$1 runs=$2
		shift 2
		while [ ! -e "$stop" ]; do
			rc=0
			"$@" >/dev/null 2>&1 || rc=$?
			[ $rc = 0 ] && echo ok || echo "fail $rc"
		done >>"$runs"
	' bg "$TORTURE_STOP" "$TORTURE_OUT/$name.runs" "$@" </dev/null &
	BG_PIDS+=($!)
}

# bg_start CMD...: run CMD in the background in its own session; bg_stop
# waits for it (it must watch $TORTURE_STOP itself) or ends it.
bg_start() {
	setsid "$@" </dev/null &
	BG_PIDS+=($!)
}

# bg_stop [GRACE_SECS]: tell the background jobs to end, wait up to
# GRACE_SECS (default 120) for them, then kill what is left. Returns the
# number of jobs that had to be killed (they count as lost work).
bg_stop() {
	local grace=${1:-120} pid end lost=0
	touch "$TORTURE_STOP"
	end=$(($(date +%s) + grace))
	for pid in "${BG_PIDS[@]}"; do
		while kill -0 "$pid" 2>/dev/null && [ "$(date +%s)" -lt "$end" ]; do
			nap 0.2
		done
		if kill -0 "$pid" 2>/dev/null; then
			tlog "background job $pid still running after ${grace}s: killed"
			kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
			lost=$((lost + 1))
		fi
		wait "$pid" 2>/dev/null || true
	done
	BG_PIDS=()
	rm -f "$TORTURE_STOP"
	return $lost
}

# loop_runs NAME: "OK FAILED" run counts of bg_loop NAME.
loop_runs() {
	local f=$TORTURE_OUT/$1.runs
	echo "$(grep -c '^ok' "$f" || true) $(grep -c '^fail' "$f" || true)"
}

# check_loop NAME: one result line for bg_loop NAME: every run must have
# succeeded and at least one must have finished.
check_loop() {
	local ok failed
	read -r ok failed < <(loop_runs "$1")
	if [ "$failed" != 0 ] || [ "$ok" = 0 ]; then
		result fail "$1" "$ok runs ok, $failed failed ($(grep -m3 '^fail' "$TORTURE_OUT/$1.runs" | tr '\n' ' '))"
	else
		result pass "$1" "$ok runs, all ok"
	fi
}

# The responsiveness probe: every TORTURE_PROBE_EVERY seconds the probe
# writes to a sleeping nice-0 responder and waits for its answer (a round
# trip through two sleeping tasks, as a key press through a desktop), then
# starts a program (fork+exec of true(1)). Both run as ordinary
# SCHED_NORMAL nice 0 tasks, like a desktop shell. Checks (check_probe):
#   probe        every answer came within TORTURE_PROBE_MAX_MS;
#   probe-start  the median program start took at most TORTURE_PROBE_MAX_MS.
# A program start is mostly work, not waiting: in a TCG guest with the
# debug kernel one fork+exec costs 40-200 ms of CPU, so under the soak's
# overload its tail follows the emulator's speed (and CPU hotplug writes,
# which hold it up); its maximum is reported, its median is bounded.
# Each sample line: total ms, answer (pipe round trip) ms, fork+exec ms,
# start time (us since the epoch); a missing answer counts as 99999 ms.
TORTURE_PROBE_EVERY=${TORTURE_PROBE_EVERY:-3}
TORTURE_PROBE_MAX_MS=${TORTURE_PROBE_MAX_MS:-1000}
probe_loop() {
	local dir=$TORTURE_OUT/probe in out t0 t1 t2 ms reply
	mkdir -p "$dir"
	# FIFOs on tmpfs: the 9p results directory cannot hold them
	in=/tmp/torture-probe.ping out=/tmp/torture-probe.pong
	rm -f "$in" "$out"
	mkfifo "$in" "$out"
	{ while read -r _; do echo pong; done; } <"$in" >"$out" &
	exec 7>"$in" 8<"$out"
	: >"$dir/samples"
	while [ ! -e "$TORTURE_STOP" ]; do
		nap "$TORTURE_PROBE_EVERY"
		now_us t0
		echo ping >&7
		reply=
		read -r -t 10 reply <&8 || true
		now_us t1
		/bin/true
		now_us t2
		ms=$(((t1 - t0) / 1000))
		[ "$reply" = pong ] || ms=99999
		echo "$(((t2 - t0) / 1000)) $ms $(((t2 - t1) / 1000)) $t0" >>"$dir/samples"
		[ "$ms" -le "$TORTURE_PROBE_MAX_MS" ] || tlog "probe: LATE, answered after ${ms} ms"
	done
	exec 7>&-
	wait
}

probe_start() {
	bg_start bash -c ". '$TORTURE_DIR/lib.sh'; probe_loop"
}

# probe_stats: "COUNT MAX_ANSWER_MS LATE_ANSWERS MEDIAN_START_MS MAX_START_MS"
# of the probe so far.
probe_stats() {
	local f=$TORTURE_OUT/probe/samples smed
	if [ ! -s "$f" ]; then
		echo "0 0 0 0 0"
		return
	fi
	smed=$(awk '{ print $3 }' "$f" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	awk -v lim="$TORTURE_PROBE_MAX_MS" -v smed="$smed" '
		{ n++; if ($2 > m) m = $2; if ($2 > lim) l++; if ($3 > sm) sm = $3 }
		END { printf "%d %d %d %d %d\n", n, m, l, smed, sm }' "$f"
}

# check_probe: the result lines of the probe (see probe_loop).
check_probe() {
	local n max late smed smax
	read -r n max late smed smax < <(probe_stats)
	if [ "$n" = 0 ] || [ "$late" != 0 ]; then
		result fail probe "$n probes, $late answers over ${TORTURE_PROBE_MAX_MS} ms, max ${max} ms"
	else
		result pass probe "$n probes, answers max ${max} ms (limit ${TORTURE_PROBE_MAX_MS} ms)"
	fi
	if [ "$n" = 0 ] || [ "$smed" -gt "$TORTURE_PROBE_MAX_MS" ]; then
		result fail probe-start "$n program starts, median ${smed} ms (limit ${TORTURE_PROBE_MAX_MS} ms), max ${smax} ms"
	else
		result pass probe-start "$n program starts, median ${smed} ms (limit ${TORTURE_PROBE_MAX_MS} ms), max ${smax} ms"
	fi
}

# hackbench_loop: rt-tests hackbench over and over (bg_loop "hackbench").
hackbench_loop() {
	bg_loop hackbench hackbench -g 2 -l "${1:-50}"
}

# torture_begin CASE: the case's first line; on its exit, whatever way, the
# background jobs are killed and every CPU is brought back online.
torture_begin() {
	trap torture_cleanup EXIT
	local p
	p=$(sed -n 's/.*(\(.*\)).*/\1/p' /sys/kernel/debug/sched/preempt 2>/dev/null || true)
	tlog "case $1: $NCPU of $NCPU_ALL CPUs online, preempt=${p:-?}, kernel $(uname -r)"
}

torture_cleanup() {
	touch "$TORTURE_STOP"
	local pid
	for pid in "${BG_PIDS[@]}"; do
		kill -KILL -- "-$pid" 2>/dev/null || true
	done
	cpus_all_online
	rm -f "$TORTURE_STOP"
}
