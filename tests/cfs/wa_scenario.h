/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The wake_affine_idle() scenario shared by t_wa_idle_prev and
 * t_wa_sched_idle_prev, and their whole test (wa_prev_test()).
 *
 * Two CPUs A (prev) and B (waker). Each round:
 *  - hog H, pinned to A, spins 20 ms and blocks: A is left idle with a
 *    large blocked load;
 *  - wakee T, free to run on A and B, last ran on A and sleeps on a futex;
 *  - waker W, pinned to B and mostly asleep (small load), wakes T with a
 *    plain (non-sync) futex wake while A is idle (or, with sched_idle_hog,
 *    runs only a SCHED_IDLE spinner).
 * wake_affine() then runs with this_cpu = B, prev_cpu = A. If
 * wake_affine_idle() returns A, the wakeup is not "affine"; if it leaves the
 * choice to wake_affine_weight(), A's blocked load makes B win and
 * T's nr_wakeups_affine (in /proc/self/task/TID/sched) goes up.
 */
#ifndef WA_SCENARIO_H
#define WA_SCENARIO_H

#include "cfs_test.h"

struct wa_result {
	int rounds;
	long long affine, attempts; /* deltas of T's schedstat counters */
	int woke_on_b;              /* T found itself on B after the wakeup */
};

static int wa_a, wa_b;
static atomic_int wa_h_go, wa_h_done, wa_t_go, wa_t_ready, wa_stop;
static atomic_int wa_t_tid, wa_t_cpu;

static void *wa_hog(void *arg)
{
	int seen = 0;

	(void)arg;
	cfs_set_aff(0, wa_a, -1);
	for (;;) {
		cfs_futex_wait(&wa_h_go, seen);
		seen = atomic_load(&wa_h_go);
		if (atomic_load(&wa_stop))
			break;
		tl_burn_wall(0.020);
		cfs_futex_post(&wa_h_done);
	}
	return NULL;
}

static void *wa_wakee(void *arg)
{
	int seen = 0;

	(void)arg;
	atomic_store(&wa_t_tid, tl_gettid());
	for (;;) {
		/* last run on A, then free to go anywhere: prev_cpu = A */
		cfs_set_aff(0, wa_a, -1);
		cfs_set_aff(0, wa_a, wa_b);
		cfs_futex_post(&wa_t_ready);
		cfs_futex_wait(&wa_t_go, seen);
		seen = atomic_load(&wa_t_go);
		atomic_store(&wa_t_cpu, sched_getcpu());
		if (atomic_load(&wa_stop))
			break;
	}
	return NULL;
}

static inline void wa_run(int rounds, int sched_idle_hog, struct wa_result *res)
{
	struct tl_spinner idle_hog = { 0 };
	pthread_t h, t;
	long long aff0, att0;
	int i, ready;

	atomic_store(&wa_stop, 0);
	atomic_store(&wa_t_tid, 0);
	memset(res, 0, sizeof(*res));

	if (sched_idle_hog)
		cfs_idle_spinners_start(&idle_hog, 1, wa_a);

	cfs_set_aff(0, wa_b, -1); /* the waker */
	ready = atomic_load(&wa_t_ready);
	if (pthread_create(&h, NULL, wa_hog, NULL) ||
	    pthread_create(&t, NULL, wa_wakee, NULL))
		tl_die("pthread_create failed");
	cfs_futex_wait(&wa_t_ready, ready);

	aff0 = cfs_task_sched_value(atomic_load(&wa_t_tid), "nr_wakeups_affine");
	att0 = cfs_task_sched_value(atomic_load(&wa_t_tid), "nr_wakeups_affine_attempts");

	for (i = 0; i < rounds; i++) {
		int done = atomic_load(&wa_h_done);

		cfs_futex_post(&wa_h_go);
		cfs_futex_wait(&wa_h_done, done);
		tl_sleep(0.002); /* let A go idle */
		ready = atomic_load(&wa_t_ready);
		cfs_futex_post(&wa_t_go);
		cfs_futex_wait(&wa_t_ready, ready);
		if (atomic_load(&wa_t_cpu) == wa_b)
			res->woke_on_b++;
	}

	res->rounds = rounds;
	res->affine = cfs_task_sched_value(atomic_load(&wa_t_tid),
					   "nr_wakeups_affine") - aff0;
	res->attempts = cfs_task_sched_value(atomic_load(&wa_t_tid),
					     "nr_wakeups_affine_attempts") - att0;

	atomic_store(&wa_stop, 1);
	cfs_futex_post(&wa_h_go);
	cfs_futex_post(&wa_t_go);
	pthread_join(h, NULL);
	pthread_join(t, NULL);
	if (sched_idle_hog)
		tl_spinner_stop(&idle_hog);
	cfs_set_aff(0, wa_a, wa_b);
}

/*
 * The test of a WA_*_PREV bit, feat: with it on few wake_affine() decisions
 * pick the waker's CPU (<= 35 %), with it off most do (>= 50 % and 30
 * points more). Runs WA_REPS x (on, off) of WA_ROUNDS wakeups each, with
 * WA_IDLE and WA_WEIGHT on and the other WA_*_PREV bit, other, at other_on;
 * sched_idle_hog as for wa_run(), prev ("idle", "sched-idle") names
 * prev_cpu in the summary. Returns main()'s exit code.
 */
#define WA_ROUNDS 20
#define WA_REPS 2

static inline int wa_prev_test(const char *name, const char *feat,
			       const char *other, int other_on,
			       int sched_idle_hog, const char *prev)
{
	struct wa_result r;
	long long aff[2] = { 0, 0 }, att[2] = { 0, 0 };
	int onb[2] = { 0, 0 }, n = WA_ROUNDS * WA_REPS, rep, on;
	double ron, roff;

	tl_init(name);
	cfs_require_kernel();
	if (cfs_schedstats_on())
		tl_skip("schedstats unavailable (needs CONFIG_SCHEDSTATS)");
	cfs_two_cpus(&wa_a, &wa_b);
	cfs_set_or_die("WA_IDLE", 1);
	cfs_set_or_die("WA_WEIGHT", 1);
	cfs_set_or_die(other, other_on);

	for (rep = 0; rep < WA_REPS; rep++) {
		for (on = 1; on >= 0; on--) {
			cfs_set_or_die(feat, on);
			wa_run(WA_ROUNDS, sched_idle_hog, &r);
			aff[on] += r.affine;
			att[on] += r.attempts;
			onb[on] += r.woke_on_b;
		}
	}
	if (att[0] < n / 2 || att[1] < n / 2)
		tl_skip("wake_affine() consulted in %lld and %lld of %d wakeups: no SD_WAKE_AFFINE domain spans CPUs %d,%d",
			att[1], att[0], n, wa_a, wa_b);

	/* share of the wake_affine() decisions that picked the waker's CPU */
	ron = (double)aff[1] / att[1];
	roff = (double)aff[0] / att[0];
	TL_CHECK(ron <= 0.35, "%s on: %.0f%% of wakeups affine (want <= 35%%)", feat, 100 * ron);
	TL_CHECK(roff >= 0.5 && roff - ron >= 0.3,
		 "NO_%s: %.0f%% of wakeups affine (want >= 50%% and 30 points above the %.0f%% with it)",
		 feat, 100 * roff, 100 * ron);

	return tl_finish("affine wakeups to %s prev CPU %d: %.0f%% with %s, %.0f%% without (%lld/%lld decisions of %d wakeups; woke on waker CPU %d: %d vs %d)",
			 prev, wa_a, 100 * ron, feat, 100 * roff, att[1], att[0], n, wa_b, onb[1], onb[0]);
}

#endif /* WA_SCENARIO_H */
