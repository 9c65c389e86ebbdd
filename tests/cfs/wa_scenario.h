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
static atomic_int wa_t_tid, wa_t_cpu, wa_h_tid;

/*
 * Wait until the hog has gone to sleep on its futex (state S in its stat
 * file), so that A holds no runnable task of it when T is woken: a hog
 * still between its post and its wait would make A busy, and the wakeup
 * would test the weights instead of the idle check. Bounded at 0.2 s.
 */
static inline void wa_wait_hog_asleep(void)
{
	struct tl_taskstat st;
	double end = tl_now() + 0.2;

	while (tl_now() < end) {
		if (tl_read_taskstat(atomic_load(&wa_h_tid), &st) == 0 &&
		    st.state == 'S')
			return;
		tl_sleep(0.0005);
	}
}

static void *wa_hog(void *arg)
{
	int seen = 0;

	(void)arg;
	atomic_store(&wa_h_tid, tl_gettid());
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
		wa_wait_hog_asleep();
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
 * points more). One attempt runs WA_REPS x (on, off) of WA_ROUNDS wakeups
 * each, with WA_IDLE and WA_WEIGHT on and the other WA_*_PREV bit, other,
 * at other_on; sched_idle_hog as for wa_run(), prev ("idle", "sched-idle")
 * names prev_cpu in the summary. Returns main()'s exit code.
 *
 * Under TCG a vCPU thread can be held off by the host for milliseconds,
 * and a kworker or the hog's wakeup can then make A busy at the moment of
 * a wakeup. An attempt that misses the bounds is reported and repeated, up
 * to WA_ATTEMPTS; the test fails when none meets them. A bit that does
 * nothing (on and off alike) fails every attempt.
 */
#define WA_ROUNDS 30
#define WA_REPS 2
#define WA_ATTEMPTS 3

struct wa_attempt {
	long long aff[2], att[2]; /* [on] */
	int onb[2];
	double ron, roff;
};

static inline void wa_attempt_run(const char *feat, int sched_idle_hog,
				  struct wa_attempt *a)
{
	struct wa_result r;
	int rep, on;

	memset(a, 0, sizeof(*a));
	for (rep = 0; rep < WA_REPS; rep++) {
		for (on = 1; on >= 0; on--) {
			cfs_set_or_die(feat, on);
			wa_run(WA_ROUNDS, sched_idle_hog, &r);
			a->aff[on] += r.affine;
			a->att[on] += r.attempts;
			a->onb[on] += r.woke_on_b;
		}
	}
	/* share of the wake_affine() decisions that picked the waker's CPU */
	a->ron = a->att[1] ? (double)a->aff[1] / a->att[1] : 0;
	a->roff = a->att[0] ? (double)a->aff[0] / a->att[0] : 0;
}

static inline int wa_prev_test(const char *name, const char *feat,
			       const char *other, int other_on,
			       int sched_idle_hog, const char *prev)
{
	struct wa_attempt a;
	int n = WA_ROUNDS * WA_REPS, i, ok = 0, enough = 0;

	tl_init(name);
	cfs_require_kernel();
	if (cfs_schedstats_on())
		tl_skip("schedstats unavailable (needs CONFIG_SCHEDSTATS)");
	cfs_two_cpus(&wa_a, &wa_b);
	cfs_set_or_die("WA_IDLE", 1);
	cfs_set_or_die("WA_WEIGHT", 1);
	cfs_set_or_die(other, other_on);

	for (i = 1; i <= WA_ATTEMPTS && !ok; i++) {
		wa_attempt_run(feat, sched_idle_hog, &a);
		/* wake_wide() or a busy waker CPU can skip wake_affine() */
		enough = a.att[0] >= n / 4 && a.att[1] >= n / 4;
		ok = enough && a.ron <= 0.35 && a.roff >= 0.5 && a.roff - a.ron >= 0.3;
		tl_info("attempt %d: affine decisions %.0f%% with %s (%lld/%lld), %.0f%% without (%lld/%lld)%s",
			i, 100 * a.ron, feat, a.aff[1], a.att[1], 100 * a.roff,
			a.aff[0], a.att[0], ok ? "" : enough ?
			": outside the bounds" : ": too few decisions");
	}
	if (!enough)
		tl_skip("wake_affine() consulted in %lld and %lld of %d wakeups (want %d): no SD_WAKE_AFFINE domain spans CPUs %d,%d?",
			a.att[1], a.att[0], n, n / 4, wa_a, wa_b);

	TL_CHECK(a.ron <= 0.35, "%s on: %.0f%% of wakeups affine (want <= 35%%)", feat, 100 * a.ron);
	TL_CHECK(a.roff >= 0.5 && a.roff - a.ron >= 0.3,
		 "NO_%s: %.0f%% of wakeups affine (want >= 50%% and 30 points above the %.0f%% with it)",
		 feat, 100 * a.roff, 100 * a.ron);

	return tl_finish("affine wakeups to %s prev CPU %d: %.0f%% with %s, %.0f%% without (%lld/%lld decisions of %d wakeups; woke on waker CPU %d: %d vs %d; attempt %d of %d)",
			 prev, wa_a, 100 * a.ron, feat, 100 * a.roff, a.att[1], a.att[0], n, wa_b, a.onb[1], a.onb[0], i - 1, WA_ATTEMPTS);
}

#endif /* WA_SCENARIO_H */
