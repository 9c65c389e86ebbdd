#!/bin/bash
# Torture case "soak": MINS minutes of mixed desktop-like load -- the bench
# project compiled in a loop (bench/lib.sh load_start), hackbench in a loop,
# mpv playing the bench clip (when mpv and the clip are there), random CPU
# hotplug every few seconds and random policy/nice changes of the loaded
# tasks (chrt, renice) -- with the responsiveness probe running throughout.
# Checks: every probe answered within TORTURE_PROBE_MAX_MS and the median
# program start took no longer (lib.sh, probe_loop), every hackbench
# and mpv run succeeded, every hotplug write succeeded, the compile loop
# survived, and everything ended on request.
# usage: soak.sh MINS
. "$(dirname "$0")/lib.sh"
# load_start, load_stop, clip_path (REPO/scripts/lib.sh is sourced again)
. "$REPO/bench/lib.sh"

mins=${1:?usage: soak.sh MINS}
torture_begin soak
BENCH_TMP=$(mktemp -d /tmp/torture-soak.XXXXXX)

# hotplug_slow: every 2 s take a random CPU (not CPU0) offline or back.
hotplug_slow() {
	local c t0 t1 errs=0
	while [ ! -e "$TORTURE_STOP" ]; do
		nap 2
		c=$((1 + RANDOM % (NCPU_ALL - 1)))
		now_us t0
		if cpu_online "$c"; then
			cpu_set "$c" 0 || errs=$((errs + 1))
		else
			cpu_set "$c" 1 || errs=$((errs + 1))
		fi
		# CPU, failed writes so far, start (us), duration (ms)
		now_us t1
		echo "$c $errs $t0 $(((t1 - t0) / 1000))" >>"$TORTURE_OUT/soak-hotplug"
	done
	cpus_all_online
}

# probe_breakdown: where the time of the probes slower than
# TORTURE_PROBE_MAX_MS in total went (answer or program start) and how many
# overlapped a CPU hotplug write; information for the log, not a check.
probe_breakdown() {
	awk -v lim="$TORTURE_PROBE_MAX_MS" '
		FILENAME ~ /soak-hotplug$/ { if (NF >= 4) { hs[++nh] = $3; he[nh] = $3 + $4 * 1000 }; next }
		$1 > lim {
			late++; pipe += $2; exec += $3
			for (i = 1; i <= nh; i++)
				if (hs[i] < $4 + $1 * 1000 && he[i] > $4) { hot++; break }
		}
		END {
			if (!late) { print "soak: no probe over the limit in total"; exit }
			printf "soak: %d probes over the limit in total: mean answer %d ms, mean fork+exec %d ms; %d overlapped a hotplug write\n",
				late, pipe / late, exec / late, hot
		}' "$TORTURE_OUT/soak-hotplug" "$TORTURE_OUT/probe/samples" | while read -r line; do tlog "$line"; done
}

# policy_churn SID...: twice a second give a random task of the sessions a
# random policy or nice level (FIFO only for 0.3 s).
policy_churn() {
	local pids pid
	while [ ! -e "$TORTURE_STOP" ]; do
		nap 0.5
		mapfile -t pids < <(pgrep -s "$(IFS=,; echo "$*")" || true)
		[ ${#pids[@]} -gt 0 ] || continue
		pid=${pids[RANDOM % ${#pids[@]}]}
		case $((RANDOM % 6)) in
		0) chrt --other -p 0 "$pid" ;;
		1) chrt --batch -p 0 "$pid" ;;
		2) chrt --idle -p 0 "$pid" ;;
		3) renice -n $((RANDOM % 40 - 20)) -p "$pid" ;;
		4) renice -n 19 -p "$pid" ;;
		5) chrt --fifo -p 1 "$pid" && nap 0.3 && chrt --other -p 0 "$pid" ;;
		esac >/dev/null 2>&1 && echo "$pid" >>"$TORTURE_OUT/soak-policy"
	done
}

: >"$TORTURE_OUT/soak-hotplug"
: >"$TORTURE_OUT/soak-policy"
probe_start
load_start normal 100
hackbench_loop 20
hackbench_sid=${BG_PIDS[-1]}
clip=$(clip_path)
mpv=no
if command -v mpv >/dev/null && [ -f "$clip" ]; then
	bg_loop mpv mpv --no-config --really-quiet --vo=null --ao=null "$clip"
	mpv=yes
fi
if [ "$NCPU_ALL" -ge 2 ]; then
	bg_start bash -c ". '$TORTURE_DIR/lib.sh'; $(declare -f hotplug_slow); hotplug_slow"
	hotplug_watchdog
fi
bg_start bash -c ". '$TORTURE_DIR/lib.sh'; $(declare -f policy_churn); policy_churn $LOAD_PID $hackbench_sid"
tlog "soak: ${mins} min of compile + hackbench + mpv=$mpv + hotplug + policy churn"

end=$(($(date +%s) + mins * 60))
while [ "$(date +%s)" -lt "$end" ]; do
	nap 60
	read -r n max late smed smax < <(probe_stats)
	tlog "soak: probes $n (answers max ${max} ms, $late late; starts median ${smed} ms, max ${smax} ms)," \
		"hackbench runs $(loop_runs hackbench)," \
		"hotplug steps $(wc -l <"$TORTURE_OUT/soak-hotplug"), policy changes $(wc -l <"$TORTURE_OUT/soak-policy")"
done

compile_alive=no
kill -0 "$LOAD_PID" 2>/dev/null && compile_alive=yes
load_stop
lost=0
bg_stop 180 || lost=$?

check_probe
probe_breakdown
check_loop hackbench
if [ $mpv = yes ]; then
	check_loop mpv
else
	result skip mpv "mpv or the bench clip $clip missing (bench/setup.sh makes it)"
fi
herrs=$(tail -1 "$TORTURE_OUT/soak-hotplug" | awk '{ print $2 + 0 }')
hsteps=$(wc -l <"$TORTURE_OUT/soak-hotplug")
if [ "$NCPU_ALL" -lt 2 ]; then
	result skip soak-hotplug "one CPU"
elif [ "$hsteps" -gt 0 ] && [ "${herrs:-0}" = 0 ]; then
	result pass soak-hotplug "$hsteps hotplug steps, all ok"
else
	result fail soak-hotplug "$hsteps steps, ${herrs:-?} failed writes"
fi
pchanges=$(wc -l <"$TORTURE_OUT/soak-policy")
verdict policy-churn "$pchanges policy/nice changes applied" \
	"no policy change was applied" [ "$pchanges" -gt 0 ]
verdict compile-load "the compile loop ran to the end" "the compile loop died" \
	[ $compile_alive = yes ]
verdict tasks-end "all background jobs ended on request" \
	"$lost background jobs had to be killed" [ $lost = 0 ]
rm -rf "$BENCH_TMP"
torture_finish
