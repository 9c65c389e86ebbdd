// SPDX-License-Identifier: GPL-2.0
/*
 * t_sib_keep_last: SIB_KEEP_LAST (seed 001) stops the load balancer from
 * pulling the last non-idle task off a CPU that also runs SCHED_IDLE tasks.
 *
 * CPU A runs two SCHED_IDLE spinners pinned there and one SCHED_NORMAL
 * spinner that is allowed on A and B; B is idle. Without the bit the idle
 * balancer on B takes the NORMAL spinner (the pinned ones cannot move);
 * with it the spinner stays on A most of the time (>= 50 % of samples and
 * >= 3x the share without the bit; a per-CPU kthread waking on A makes it
 * not the last non-idle task for a moment) and A's schedstat
 * sib_kept_last counter rises. Trials alternate on/off.
 */
#include "cfs_test.h"

#define TRIALS 3
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

int main(void)
{
	char buf[2][CFS_TRIAL_LINE];
	double share[2] = { 0, 0 };
	unsigned long long kept = 0;
	int i, moved_off = 0;

	cfs_sib_test_init("t_sib_keep_last", &cpu_a, &cpu_b, "SIB_PULL");
	cfs_run_trials(TRIALS, trial, show, buf, "SIB_KEEP_LAST", "");

	for (i = 0; i < TRIALS; i++) {
		struct trial *t = &tr[1][i];

		share[1] += t->on_a / TRIALS;
		kept += t->kept;
		t = &tr[0][i];
		share[0] += t->on_a / TRIALS;
		moved_off += t->moved >= 0;
		if (t->stats)
			TL_CHECK(t->kept == 0, "NO_SIB_KEEP_LAST trial %d: sib_kept_last moved (%llu)",
				 i, t->kept);
	}
	/*
	 * The rule counts every runnable non-idle task, per-CPU kthreads
	 * included: while one runs on A the balancer may take the spinner,
	 * so it is not kept 100% of the time, only most of it.
	 */
	TL_CHECK(share[1] >= 0.5 && share[1] >= 3 * share[0],
		 "SIB_KEEP_LAST: the last NORMAL task stayed on CPU %d %.0f%% of the time, %.0f%% without (want >= 50%% and >= 3x)",
		 cpu_a, share[1] * 100, share[0] * 100);
	if (tr[1][0].stats)
		TL_CHECK(kept >= 1, "SIB_KEEP_LAST: sib_kept_last never rose in %d trials", TRIALS);
	TL_CHECK(moved_off >= 1, "NO_SIB_KEEP_LAST: the NORMAL spinner never moved to idle CPU %d: the scenario does not exercise the balancer",
		 cpu_b);
	return tl_finish("last NORMAL task on CPU %d with 2 SCHED_IDLE ones, CPU %d idle: with SIB_KEEP_LAST [%s]; without [%s]",
			 cpu_a, cpu_b, buf[1], buf[0]);
}
