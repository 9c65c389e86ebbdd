// SPDX-License-Identifier: GPL-2.0
/*
 * t_sib_keep_last: SIB_KEEP_LAST (seed 001) stops the load balancer from
 * pulling the last non-idle task off a CPU that also runs SCHED_IDLE tasks.
 *
 * CPU A runs two SCHED_IDLE spinners pinned there and one SCHED_NORMAL
 * spinner that is allowed on A and B; B is idle. Without the bit the idle
 * balancer on B takes the NORMAL spinner within tens of milliseconds (the
 * pinned ones cannot move); with it the spinner is held on A, and A's
 * schedstat sib_kept_last counter rises. Trials alternate on/off.
 *
 * The measure is how long the spinner stays on A (the whole window when it
 * never moves). The rule counts every runnable non-idle task, per-CPU
 * kthreads included: while a kworker runs on A the spinner is not the last
 * one and may be taken, and once on B it stays there. So a single trial
 * can end early; the check is on medians: with the bit the median hold is
 * >= 100 ms and >= 3x the median without. An attempt that misses is
 * reported and repeated, up to ATTEMPTS; a bit that does nothing fails
 * every attempt.
 */
#include "cfs_test.h"

#define TRIALS 5
#define ATTEMPTS 3
#define WINDOW 1.0

struct trial {
	double on_a;            /* share of samples the NORMAL spinner was on A */
	double moved;           /* seconds until first seen on B, -1 = never */
	unsigned long long kept;
	int stats;
};

static int cpu_a, cpu_b;
static struct trial tr[2][TRIALS];

static void trial(int on, int i)
{
	struct trial *t = &tr[on][i];
	struct cfs_scene sc;
	struct cfs_sib_stats s0 = { 0 }, s1 = { 0 };
	int samples = 0, on_a = 0, ok;

	cfs_set_or_die("SIB_KEEP_LAST", on);
	/* 2 SCHED_IDLE spinners and the NORMAL one on A, sampled from B */
	cfs_scene_start(&sc, 2, cpu_a, 1, cpu_a, cpu_b);
	ok = !cfs_sib_stats(cpu_a, &s0);

	cfs_scene_release(&sc);
	t->moved = -1;
	while (cfs_scene_sample(&sc, WINDOW)) {
		int c = atomic_load(&sc.norm[0].last_cpu);

		samples++;
		if (c == cpu_a)
			on_a++;
		else if (t->moved < 0)
			t->moved = sc.t;
	}
	ok = ok && !cfs_sib_stats(cpu_a, &s1);

	cfs_scene_stop(&sc);
	t->on_a = samples ? (double)on_a / samples : 0;
	t->stats = ok;
	t->kept = ok ? s1.kept_last - s0.kept_last : 0;
}

static int show(char *buf, size_t size, const char *sep, int on, int i)
{
	return snprintf(buf, size, "%s%.0f%% on A/moved %.0fms/kept %llu", sep,
			tr[on][i].on_a * 100, tr[on][i].moved * 1000, tr[on][i].kept);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* median time the NORMAL spinner stayed on A over the trials of one setting */
static double median_hold(int on)
{
	double h[TRIALS];
	int i;

	for (i = 0; i < TRIALS; i++)
		h[i] = tr[on][i].moved < 0 ? WINDOW : tr[on][i].moved;
	qsort(h, TRIALS, sizeof(h[0]), cmp_double);
	return h[TRIALS / 2];
}

int main(void)
{
	char buf[2][CFS_TRIAL_LINE];
	double hold[2] = { 0, 0 };
	unsigned long long kept = 0, kept_off = 0;
	int i, n, ok = 0, moved_off = 0;

	cfs_sib_test_init("t_sib_keep_last", &cpu_a, &cpu_b, "SIB_PULL");
	for (n = 1; n <= ATTEMPTS && !ok; n++) {
		cfs_run_trials(TRIALS, trial, show, buf, "SIB_KEEP_LAST", "");
		kept = kept_off = 0;
		moved_off = 0;
		for (i = 0; i < TRIALS; i++) {
			kept += tr[1][i].kept;
			kept_off += tr[0][i].kept;
			moved_off += tr[0][i].moved >= 0;
		}
		hold[1] = median_hold(1);
		hold[0] = median_hold(0);
		ok = hold[1] >= 0.1 && hold[1] >= 3 * hold[0];
		tl_info("attempt %d: median hold on CPU %d %.0f ms with SIB_KEEP_LAST, %.0f ms without%s",
			n, cpu_a, hold[1] * 1000, hold[0] * 1000,
			ok ? "" : ": outside the bounds");
	}

	TL_CHECK(ok, "SIB_KEEP_LAST: the last NORMAL task stayed on CPU %d a median %.0f ms, %.0f ms without (want >= 100 ms and >= 3x)",
		 cpu_a, hold[1] * 1000, hold[0] * 1000);
	/* a trial whose counters could not be read counts 0 */
	TL_CHECK(kept_off == 0, "NO_SIB_KEEP_LAST: sib_kept_last moved (%llu)", kept_off);
	if (tr[1][0].stats)
		TL_CHECK(kept >= 1, "SIB_KEEP_LAST: sib_kept_last never rose in %d trials", TRIALS);
	TL_CHECK(moved_off >= 1, "NO_SIB_KEEP_LAST: the NORMAL spinner never moved to idle CPU %d: the scenario does not exercise the balancer",
		 cpu_b);
	return tl_finish("last NORMAL task on CPU %d with 2 SCHED_IDLE ones, CPU %d idle: median hold %.0f ms with SIB_KEEP_LAST [%s], %.0f ms without [%s]; attempt %d of %d",
			 cpu_a, cpu_b, hold[1] * 1000, buf[1], hold[0] * 1000, buf[0], n - 1, ATTEMPTS);
}
