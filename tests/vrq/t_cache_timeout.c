// SPDX-License-Identifier: GPL-2.0
/*
 * Cache timeout: a NORMAL task preempted on CPU 0 (by an RT burst) stays
 * cached there; idle CPU 1 may take it only after
 * kernel.sched_normal_cache_timeout_us. With a 2 ms timeout it moves to
 * CPU 1 during a 40 ms burst; with 200 ms it waits for CPU 0; the automatic
 * setting (-1) means a value calibrated at boot (1 ms..4 x rr_interval),
 * or "unlimited" (1 s) under preempt=none. /proc/vrq_stats shows the value
 * in force and the calibrated one, which the boot log must name too.
 * Those cases run with kernel.sched_idle_takes_cached 0, BFS's rule. With
 * it 1 (work conserving) idle CPU 1 takes A while CPU 0 is busy with the
 * burst, whatever the timeout: with 200 ms it must move in 8 of 10 rounds
 * within 20 ms, as with a 2 ms timeout, and /proc/vrq_stats must count it
 * in idle_take; the 200 ms case with 0 is its control.
 */
#include "vrq_test.h"

#include <sys/klog.h>

#define ROUNDS 10
#define BURST_NS 40000000ull
#define KNOB "/proc/sys/kernel/sched_normal_cache_timeout_us"
#define TAKE_KNOB "/proc/sys/kernel/sched_idle_takes_cached"

static int go[2], ack[2];

static void __attribute__((noreturn)) burster(void)
{
	char c;

	if (tl_pin_tid(0, 0) || tl_set_policy(0, SCHED_FIFO, 50))
		_exit(2);
	while (read(go[0], &c, 1) == 1) {
		tl_burn_wall(BURST_NS / 1e9);
		if (write(ack[1], &c, 1) != 1)
			break;
	}
	_exit(0);
}

/* One round; returns the delay (ns) until A ran on CPU 1, or 0 if never. */
static uint64_t round_trip(void)
{
	uint64_t t, last0 = 0, prev = 0, moved = 0, end = 0;
	char c = 'g';

	do {
		tl_pin_tid(0, 0);
		tl_pin_two(0, 0, 1);
		tl_burn_wall(0.001);
	} while (sched_getcpu() != 0);
	last0 = now_ns();
	if (write(go[1], &c, 1) != 1)
		finish(FAIL, "burster gone");
	for (;;) {
		int cpu = sched_getcpu();

		t = now_ns();
		if (cpu == 0 && !moved)
			last0 = t;
		if (cpu == 1 && !moved)
			moved = t - (prev ? prev : last0);
		prev = t;
		if (!end && read(ack[0], &c, 1) == 1)
			end = t + 5000000;
		if (end && t > end)
			break;
		if (t - last0 > 5000000000ull)
			finish(FAIL, "burst never finished");
	}
	return moved;
}

/* Rounds (of ROUNDS) in which A moved to CPU 1; median delay in *delay. */
static int run(long timeout_us, uint64_t *delay)
{
	uint64_t d[ROUNDS], tmp;
	int i, j, n = 0;

	if (write_long(KNOB, timeout_us))
		finish(FAIL, "cannot set %s to %ld", KNOB, timeout_us);
	for (i = 0; i < ROUNDS; i++) {
		tmp = round_trip();
		if (tmp)
			d[n++] = tmp;
	}
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (d[j] < d[i]) {
				tmp = d[i];
				d[i] = d[j];
				d[j] = tmp;
			}
	*delay = n ? d[n / 2] : 0;
	return n;
}

/*
 * The calibrated value: in range, the one the boot line printed, and in
 * force exactly when the sysctl is -1 on a preemptible kernel.
 */
static long check_values(int none)
{
	static char log[1 << 20];
	long rr = read_knob("/proc/sys/kernel/rr_interval");
	long a = vrq_stat("normal_cache_timeout_auto_us"), boot = -1, in_force;
	const char *tag = "automatic SCHED_NORMAL cache timeout ";
	char *p;
	int n;

	if (a < 1000 || a > 4 * rr * 1000)
		finish(FAIL, "calibrated timeout %ld us, want 1000..%ld", a,
		       4 * rr * 1000);
	n = klogctl(3, log, sizeof(log) - 1);
	if (n > 0) {
		log[n] = 0;
		p = strstr(log, tag);
		if (p)
			boot = strtol(p + strlen(tag), NULL, 10);
	}
	/* A boot line that scrolled out of the ring cannot be judged. */
	if (boot < 0 && n > 0 && strstr(log, "VRQ CPU scheduler"))
		finish(FAIL, "the boot log names no calibrated cache timeout");
	if (boot >= 0 && boot != a)
		finish(FAIL, "boot log says %ld us, /proc/vrq_stats %ld us", boot, a);
	if (write_long(KNOB, -1))
		finish(FAIL, "cannot set %s to -1", KNOB);
	in_force = vrq_stat("normal_cache_timeout_us");
	if (in_force != (none ? 1000000 : a))
		finish(FAIL, "automatic: %ld us in force, want %ld", in_force,
		       none ? 1000000 : a);
	if (write_long(KNOB, 2000) || vrq_stat("normal_cache_timeout_us") != 2000)
		finish(FAIL, "the sysctl (2000 us) does not override the automatic value");
	return a;
}

int main(void)
{
	uint64_t d_short, d_long, d_auto, d_take;
	int n_short, n_long, n_auto, n_take, none;
	long old, old_take, cal, take0, take1;
	pid_t b;

	test_name = "cache_timeout";
	require_vrq();
	require_two_cpus();
	mount_debugfs();
	none = preempt_model_none();
	old = read_long(KNOB, -12345);
	if (old == -12345)
		finish(FAIL, "%s missing", KNOB);
	old_take = read_long(TAKE_KNOB, -12345);
	if (old_take == -12345)
		finish(FAIL, "%s missing", TAKE_KNOB);
	if (write_long(TAKE_KNOB, 0))
		finish(FAIL, "cannot set %s to 0", TAKE_KNOB);
	cal = check_values(none);
	if (pipe(go) || pipe(ack))
		finish(FAIL, "pipe");
	fcntl(ack[0], F_SETFL, O_NONBLOCK);
	b = fork();
	if (b == 0)
		burster();

	n_short = run(2000, &d_short);
	n_long = run(200000, &d_long);
	n_auto = run(-1, &d_auto);
	write_long(TAKE_KNOB, 1);
	take0 = vrq_stats_column("idle_take");
	n_take = run(200000, &d_take);
	take1 = vrq_stats_column("idle_take");
	write_long(TAKE_KNOB, old_take);
	write_long(KNOB, old);
	tl_kill_wait(b);

	if (n_short < ROUNDS * 8 / 10 || d_short > 20000000)
		finish(FAIL, "2 ms timeout: moved in %d/%d rounds, median delay %.1f ms",
		       n_short, ROUNDS, d_short / 1e6);
	if (n_long > ROUNDS * 2 / 10)
		finish(FAIL, "200 ms timeout: moved in %d/%d rounds during a 40 ms burst",
		       n_long, ROUNDS);
	if (none && n_auto > ROUNDS * 2 / 10)
		finish(FAIL, "auto timeout under preempt=none: moved in %d/%d rounds",
		       n_auto, ROUNDS);
	if (!none && n_auto < ROUNDS * 8 / 10)
		finish(FAIL, "auto timeout (%ld us): moved in only %d/%d rounds",
		       cal, n_auto, ROUNDS);
	if (n_take < ROUNDS * 8 / 10 || d_take > 20000000)
		finish(FAIL, "200 ms timeout, idle_takes_cached 1: moved in %d/%d rounds, median delay %.1f ms",
		       n_take, ROUNDS, d_take / 1e6);
	if (take0 < 0 || take1 - take0 < n_take)
		finish(FAIL, "idle_take in /proc/vrq_stats went from %ld to %ld over %d moves",
		       take0, take1, n_take);
	finish(PASS, "2ms: %d/%d moved (median %.1f ms); 200ms: %d/%d; auto (%s, calibrated %ld us): %d/%d; 200ms with idle_takes_cached: %d/%d (median %.1f ms, idle_take +%ld)",
	       n_short, ROUNDS, d_short / 1e6, n_long, ROUNDS,
	       none ? "none" : "preemptible", cal, n_auto, ROUNDS,
	       n_take, ROUNDS, d_take / 1e6, take1 - take0);
}
