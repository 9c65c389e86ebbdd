#!/bin/bash
# Torture case "hotplug": CYCLES offline/online cycles of random CPUs (never
# CPU0) while hackbench runs in a loop and pinned workers (pinned-worker.sh,
# each started with taskset on a random online CPU) come and go. Checks:
#   - every write to a CPU's online switch succeeds;
#   - every worker that started finishes and reports;
#   - a worker's final affinity is its one CPU, or, when that CPU went away
#     while it ran, every CPU (mainline's select_fallback_rq() rule); it never
#     ran outside its affinity;
#   - every hackbench run succeeded; all CPUs are back online at the end.
# usage: hotplug.sh CYCLES
. "$(dirname "$0")/lib.sh"

cycles=${1:?usage: hotplug.sh CYCLES}
torture_begin hotplug
if [ "$NCPU_ALL" -lt 2 ]; then
	result skip hotplug "needs 2 or more CPUs, the guest has $NCPU_ALL"
	torture_finish
fi
workers=$TORTURE_OUT/workers
: >"$workers"

# spawn_workers: until told to stop, keep 2 pinned workers a CPU running.
spawn_workers() {
	local id=0 c
	while [ ! -e "$TORTURE_STOP" ]; do
		while [ "$(jobs -pr | wc -l)" -ge $((NCPU_ALL * 2)) ]; do
			wait -n || true
		done
		c=$((RANDOM % NCPU_ALL))
		cpu_online "$c" || continue
		id=$((id + 1))
		# fails with EINVAL when CPU c went offline meanwhile: then the
		# worker never starts and writes nothing
		taskset -c "$c" bash "$TORTURE_DIR/pinned-worker.sh" "$id" "$c" 50 "$workers" \
			2>/dev/null &
	done
	wait
}

hackbench_loop 20
hotplug_watchdog
bg_start bash -c ". '$TORTURE_DIR/lib.sh'; $(declare -f spawn_workers); workers='$workers'; spawn_workers"

t0=$(date +%s)
done_cycles=0 steps=0 errors=0
tlog "hotplug: $cycles cycles of CPUs 1-$((NCPU_ALL - 1))"
while [ $done_cycles -lt "$cycles" ]; do
	c=$((1 + RANDOM % (NCPU_ALL - 1)))
	if cpu_online "$c"; then
		cpu_set "$c" 0 || { errors=$((errors + 1)); tlog "offline cpu$c failed"; }
	else
		if cpu_set "$c" 1; then
			done_cycles=$((done_cycles + 1))
		else
			errors=$((errors + 1))
			tlog "online cpu$c failed"
		fi
	fi
	steps=$((steps + 1))
	[ $((steps % 200)) = 0 ] && tlog "hotplug: $done_cycles cycles, $(grep -c ^done "$workers") workers done"
	# a short random pause now and then, so that tasks run between steps
	[ $((RANDOM % 4)) = 0 ] && nap 0.0$((RANDOM % 10))
done
cpus_all_online
secs=$(($(date +%s) - t0))
lost=0
bg_stop 300 || lost=$?

if [ $errors = 0 ]; then
	result pass cpu-hotplug "($secs s) $done_cycles offline/online cycles, $steps switch writes"
else
	result fail cpu-hotplug "($secs s) $errors of $steps switch writes failed"
fi
if [ "$(nproc)" = "$NCPU_ALL" ]; then
	result pass cpus-back "all $NCPU_ALL CPUs online again"
else
	result fail cpus-back "$(nproc) of $NCPU_ALL CPUs online after the case"
fi
check_loop hackbench

started=$(grep -c '^start' "$workers" || true)
finished=$(grep -c '^done' "$workers" || true)
missing=$(comm -23 <(awk '$1 == "start" { print $2 }' "$workers" | sort) \
	<(awk '$1 == "done" { print $2 }' "$workers" | sort) | head -5 | tr '\n' ' ')
if [ "$started" -gt 0 ] && [ "$started" = "$finished" ] && [ $lost = 0 ]; then
	result pass workers-finish "$started pinned workers started, all finished and reported"
else
	result fail workers-finish "$started started, $finished finished, $lost jobs killed; missing: ${missing:-none}"
fi
all="0-$((NCPU_ALL - 1))"
read -r kept widened wrong bad < <(awk -v all="$all" '$1 == "done" {
	a = $4; sub(/^allowed=/, "", a); b = $5; sub(/^bad=/, "", b)
	if (a == $3) k++; else if (a == all) w++; else { x++; print > "/dev/stderr" }
	bb += b } END { print k + 0, w + 0, x + 0, bb + 0 }' "$workers")
if [ "$wrong" = 0 ] && [ "$bad" = 0 ]; then
	result pass affinity-rules "$kept kept their CPU, $widened widened to $all when it went away, none ran outside its mask"
else
	result fail affinity-rules "$wrong workers ended with an affinity neither their CPU nor $all; $bad rounds ran outside the mask"
fi
torture_finish
