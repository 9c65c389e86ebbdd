#!/bin/bash
# Inside the Debian 12 desktop image (scripts/desktop-image.sh), booted to
# multi-user.target on a desktop kernel: check what a user's first boot
# uses of the scheduler, and write to RESULTSDIR:
#   checks.txt      "NAME ok|FAIL|INFO detail" a line
#   state.txt       systemctl is-system-running; failed.txt the failed units
#   controllers.txt cgroup v2 controllers; analyze.txt systemd-analyze time
#   journal.txt     this boot's journal; journal-kernel.txt its kernel
#                   messages (the host scans them for splats)
#   frameprobe.txt  the frame probe beside stress-ng
# Exit status: 0 when every check is ok (INFO lines are figures, not checks).
# usage: desktop-guest-check.sh RESULTSDIR    (run by vrq-check.service)
set -uo pipefail
R=${1:?usage: desktop-guest-check.sh RESULTSDIR}
REPO=$(cd "$(dirname "$0")/.." && pwd)
: >"$R/checks.txt"
fails=0
say() { # NAME STATUS DETAIL...
	local name=$1 st=$2
	shift 2
	echo "$name $st $*" >>"$R/checks.txt"
	echo "desktop-check: $name $st $*" >/dev/console 2>/dev/null || true
	[ "$st" != FAIL ] || fails=$((fails + 1))
}
ncpu=$(nproc)

# 1. The boot: running, or degraded with the failed units named.
state=$(timeout 600 systemctl is-system-running --wait 2>/dev/null)
echo "$state" >"$R/state.txt"
systemctl --failed --plain --no-legend --no-pager >"$R/failed.txt" 2>&1
case "$state" in
running) say boot ok "is-system-running: running" ;;
degraded) say boot INFO "is-system-running: degraded; failed: $(awk '{ print $1 }' "$R/failed.txt" | tr '\n' ' ')" ;;
*) say boot FAIL "is-system-running: '${state:-no answer in 600 s}'" ;;
esac
systemd-analyze time >"$R/analyze.txt" 2>&1 &&
	say boot_time INFO "$(head -1 "$R/analyze.txt")"

# 2. Pressure stall information, and a PSI trigger that fires under load.
psi=ok
for f in cpu memory io; do
	grep -q '^some avg10=' "/proc/pressure/$f" 2>/dev/null || psi="no /proc/pressure/$f"
done
[ "$psi" = ok ] && say psi ok "/proc/pressure/{cpu,memory,io} readable" || say psi FAIL "$psi"
events=$(python3 - "$ncpu" <<'PY'
import os, select, subprocess, sys, time
n = int(sys.argv[1])
fd = os.open("/proc/pressure/cpu", os.O_RDWR | os.O_NONBLOCK)
os.write(fd, b"some 100000 1000000\0")   # 100 ms of stall in a 1 s window
p = select.poll()
p.register(fd, select.POLLPRI)
load = subprocess.Popen(["stress-ng", "--cpu", str(3 * n), "--timeout", "6s", "--quiet"])
got, end = 0, time.time() + 8
while time.time() < end:
    for _, ev in p.poll(500):
        if ev & select.POLLERR:
            print("error"); sys.exit(0)
        if ev & select.POLLPRI:
            got += 1
load.wait()
print(got)
PY
)
case "$events" in
'' | error | 0) say psi_trigger FAIL "a CPU pressure trigger (100 ms / 1 s) saw '${events:-nothing}' events under stress-ng --cpu $((3 * ncpu))" ;;
*) say psi_trigger ok "$events events from a CPU pressure trigger under stress-ng --cpu $((3 * ncpu))" ;;
esac

# 3. cgroup v2 controllers (compared between the kernels on the host).
cat /sys/fs/cgroup/cgroup.controllers >"$R/controllers.txt" 2>&1
say cgroup_controllers INFO "$(cat "$R/controllers.txt")"

# 3b. What the cpu controller offers, and what systemd does with a unit
# that asks for CPU weight and quota (VRQ has neither, see docs/install.md).
cpu_files=$(cd /sys/fs/cgroup/system.slice 2>/dev/null && ls -d cpu.* 2>/dev/null | tr '\n' ' ')
say cpu_files INFO "system.slice: ${cpu_files:-no cpu.* files}"
# unit_start NAME PROPERTY...: run `sleep 60` as the unit vrq-NAME with
# the properties; a failure is the check unit_NAME's.
unit_start() {
	local name=$1 p args=()
	shift
	for p; do args+=(-p "$p"); done
	systemd-run --quiet --unit="vrq-$name" "${args[@]}" sleep 60 ||
		{ say "unit_$name" FAIL "systemd-run ${args[*]} failed"; return 1; }
	sleep 1
}
if unit_start cpuweight CPUWeight=50 CPUQuota=50%; then
	st=$(systemctl show -p ActiveState --value vrq-cpuweight)
	cg=/sys/fs/cgroup/system.slice/vrq-cpuweight.service
	w=$(cat "$cg/cpu.weight" 2>/dev/null || echo absent)
	q=$(cat "$cg/cpu.max" 2>/dev/null || echo absent)
	systemctl stop vrq-cpuweight >/dev/null 2>&1
	if [ "$st" = active ]; then
		say unit_cpuweight ok "unit $st; cpu.weight $w; cpu.max $q"
	else
		say unit_cpuweight FAIL "CPUWeight=50 CPUQuota=50%: unit '$st'"
	fi
fi

# 4. Policies and nice through systemd units, checked in /proc and by chrt.
# unit_check NAME PROPERTY WANT_POLICY WANT_NICE
unit_check() {
	local name=$1 prop=$2 want=$3 nice=$4 pid pol ni chrt_out
	unit_start "$name" "$prop" || return
	pid=$(systemctl show -p MainPID --value "vrq-$name")
	pol=$(awk '$1 == "policy" { print $3 }' "/proc/$pid/sched" 2>/dev/null)
	ni=$(awk '{ print $19 }' "/proc/$pid/stat" 2>/dev/null)
	chrt_out=$(chrt -p "$pid" 2>&1 | head -1)
	systemctl stop "vrq-$name" >/dev/null 2>&1
	if [ "$pol" = "$want" ] && [ "$ni" = "$nice" ] && [[ $chrt_out == *"$(chrt_name "$want")"* ]]; then
		say "unit_$name" ok "policy $pol, nice $ni; chrt: ${chrt_out##*: }"
	else
		say "unit_$name" FAIL "$prop: policy '$pol' (want $want), nice '$ni' (want $nice); chrt: $chrt_out"
	fi
}
chrt_name() {
	case "$1" in 0) echo SCHED_OTHER ;; 3) echo SCHED_BATCH ;; 5) echo SCHED_IDLE ;; *) echo "policy $1" ;; esac
}
unit_check batch CPUSchedulingPolicy=batch 3 0
unit_check idle CPUSchedulingPolicy=idle 5 0
unit_check nice19 Nice=19 0 19

# 5. schedtool -B (batch), -D (idle) and -N (normal).
for f in B:SCHED_BATCH D:SCHED_IDLE N:SCHED_OTHER; do
	out=$(schedtool -"${f%%:*}" -e chrt -p 0 2>&1 | head -1)
	if [[ $out == *"${f#*:}" ]]; then
		say "schedtool_${f%%:*}" ok "chrt: ${out##*: }"
	else
		say "schedtool_${f%%:*}" FAIL "schedtool -${f%%:*}: '$out', want ${f#*:}"
	fi
done

# 6. A short load: stress-ng on every CPU twice over, with the frame probe.
probe=$REPO/build/bench/frameprobe
if [ -x "$probe" ]; then
	stress-ng --cpu $((2 * ncpu)) --timeout 25s --quiet &
	spid=$!
	sleep 2
	iters=$("$probe" --calibrate 2000)
	if timeout 60 "$probe" --iters "$iters" --hz 60 --frames 1200 >"$R/frameprobe.txt" 2>&1; then
		say load ok "beside stress-ng --cpu $((2 * ncpu)): $(awk '$1 == "pct_met" || $1 == "late_p99_us" { printf "%s %s ", $1, $2 }' "$R/frameprobe.txt")"
	else
		say load FAIL "the frame probe did not finish beside stress-ng"
	fi
	wait "$spid" || say load FAIL "stress-ng --cpu $((2 * ncpu)) failed"
else
	say load FAIL "no $probe: run bench/setup.sh on the host"
fi

journalctl -b --no-pager -o short-monotonic >"$R/journal.txt" 2>&1
journalctl -k -b --no-pager -o short-monotonic >"$R/journal-kernel.txt" 2>&1
say summary INFO "$fails failed checks"
[ $fails = 0 ]
