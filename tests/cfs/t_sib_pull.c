// SPDX-License-Identifier: GPL-2.0
/*
 * t_sib_pull: SIB_PULL (sched-idle balancing, seed 001) lets a CPU that runs
 * only SCHED_IDLE tasks pull a waiting non-idle task from an overloaded CPU.
 *
 * Two CPUs A and B. Two SCHED_IDLE spinners pinned to B; two SCHED_NORMAL
 * spinners started pinned to A, then allowed on A and B while piled up on
 * A. With SIB_PULL the NORMAL spinners must spread to one CPU each within
 * 200 ms and stay apart, and B's schedstat sib_pulled counter must rise.
 * With NO_SIB_PULL the counters must not move; how long the regular load
 * balancer takes to spread them is reported. Trials alternate on/off.
 */
#include "cfs_test.h"

#define TRIALS 3
#define WINDOW 1.0      /* seconds watched after the unpin */
#define SPREAD_MAX 0.2  /* with SIB_PULL */

struct trial {
	double spread;          /* seconds until apart, -1 = never */
	double apart;           /* share of samples apart after that */
	unsigned long long pulled, count;
	int stats;
};

static int cpu_a, cpu_b;
static struct trial tr[2][TRIALS];

static void trial(int on, int i)
{
	struct trial *t = &tr[on][i];
	struct cfs_scene sc;
	struct cfs_sib_stats s0, s1;
	double first = -1;
	int samples = 0, apart = 0, ok0, ok1;

	cfs_set_or_die("SIB_PULL", on);
	/* 2 SCHED_IDLE spinners on B, 2 NORMAL ones piled on A */
	cfs_scene_start(&sc, 2, cpu_b, 2, cpu_a, cpu_b);
	ok0 = !cfs_sib_stats_all(&s0);

	cfs_scene_release(&sc);
	while (cfs_scene_sample(&sc, WINDOW)) {
		int c0 = atomic_load(&sc.norm[0].last_cpu);
		int c1 = atomic_load(&sc.norm[1].last_cpu);

		if (first < 0 && c0 != c1)
			first = sc.t;
		if (first >= 0) {
			samples++;
			apart += c0 != c1;
		}
	}
	ok1 = !cfs_sib_stats_all(&s1);

	cfs_scene_stop(&sc);
	t->spread = first;
	t->apart = samples ? (double)apart / samples : 0;
	t->stats = ok0 && ok1;
	t->pulled = s1.pulled - s0.pulled;
	t->count = s1.count - s0.count;
}

static int show(char *buf, size_t size, const char *sep, int on, int i)
{
	return snprintf(buf, size, "%s%.0fms/%.0f%%/pulled %llu", sep,
			tr[on][i].spread * 1000, tr[on][i].apart * 100, tr[on][i].pulled);
}

int main(void)
{
	char buf[2][CFS_TRIAL_LINE];
	unsigned long long pulled = 0;
	int i;

	cfs_sib_test_init("t_sib_pull", &cpu_a, &cpu_b, "SIB_KEEP_LAST");
	cfs_run_trials(TRIALS, trial, show, buf, "SIB_PULL", "spread/apart/pulled: ");

	for (i = 0; i < TRIALS; i++) {
		struct trial *t = &tr[1][i];

		TL_CHECK(t->spread >= 0 && t->spread <= SPREAD_MAX,
			 "SIB_PULL trial %d: NORMAL spinners apart after %.0f ms (want <= %.0f)",
			 i, t->spread * 1000, SPREAD_MAX * 1000);
		TL_CHECK(t->apart >= 0.8, "SIB_PULL trial %d: apart only %.0f%% of the time",
			 i, t->apart * 100);
		if (t->stats)
			pulled += t->pulled;
		t = &tr[0][i];
		if (t->stats)
			TL_CHECK(t->count == 0 && t->pulled == 0,
				 "NO_SIB_PULL trial %d: sib counters moved (%llu attempts, %llu pulled)",
				 i, t->count, t->pulled);
	}
	/* the regular balancer may win a race now and then, not every time */
	if (tr[1][0].stats)
		TL_CHECK(pulled >= 1, "SIB_PULL: sib_pulled never rose in %d trials", TRIALS);
	return tl_finish("NORMAL spinners piled on CPU %d next to SCHED_IDLE ones on CPU %d spread with SIB_PULL [%s]; without [%s]",
			 cpu_a, cpu_b, buf[1], buf[0]);
}
