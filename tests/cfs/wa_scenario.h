/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The wake_affine_idle() scenario shared by t_wa_idle_prev and
 * t_wa_sched_idle_prev.
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

#include <linux/futex.h>
#include <sys/syscall.h>

struct wa_result {
	int rounds;
	long long affine, attempts; /* deltas of T's schedstat counters */
	int woke_on_b;              /* T found itself on B after the wakeup */
};

static int wa_a, wa_b;
static atomic_int wa_h_go, wa_h_done, wa_t_go, wa_t_ready, wa_stop;
static atomic_int wa_t_tid, wa_t_cpu;

static inline void wa_wait(atomic_int *w, int old)
{
	while (atomic_load(w) == old)
		syscall(SYS_futex, w, FUTEX_WAIT_PRIVATE, old, NULL, NULL, 0);
}

static inline void wa_post(atomic_int *w)
{
	atomic_fetch_add(w, 1);
	syscall(SYS_futex, w, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static inline void wa_affinity(int a, int b)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(a, &set);
	if (b >= 0)
		CPU_SET(b, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		tl_die("sched_setaffinity: %s", tl_errname(errno));
}

static void *wa_hog(void *arg)
{
	int seen = 0;

	(void)arg;
	wa_affinity(wa_a, -1);
	for (;;) {
		wa_wait(&wa_h_go, seen);
		seen = atomic_load(&wa_h_go);
		if (atomic_load(&wa_stop))
			break;
		tl_burn_wall(0.020);
		wa_post(&wa_h_done);
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
		wa_affinity(wa_a, -1);
		wa_affinity(wa_a, wa_b);
		wa_post(&wa_t_ready);
		wa_wait(&wa_t_go, seen);
		seen = atomic_load(&wa_t_go);
		atomic_store(&wa_t_cpu, sched_getcpu());
		if (atomic_load(&wa_stop))
			break;
	}
	return NULL;
}

/* Pick two CPUs; skip if fewer than 2. */
static inline void wa_pick_cpus(void)
{
	int cpus[64], n = tl_usable_cpus(cpus, 64);

	if (n < 2)
		tl_skip("needs 2 CPUs, has %d", n);
	wa_a = cpus[0];
	wa_b = cpus[1];
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

	if (sched_idle_hog) {
		if (tl_spinner_start(&idle_hog, wa_a, 0, 1))
			tl_die("cannot start the SCHED_IDLE spinner");
		if (cfs_set_policy(idle_hog.tid, SCHED_IDLE))
			tl_die("SCHED_IDLE: %s", tl_errname(errno));
		tl_spinner_go(&idle_hog);
	}

	wa_affinity(wa_b, -1); /* the waker */
	ready = atomic_load(&wa_t_ready);
	if (pthread_create(&h, NULL, wa_hog, NULL) ||
	    pthread_create(&t, NULL, wa_wakee, NULL))
		tl_die("pthread_create failed");
	wa_wait(&wa_t_ready, ready);

	aff0 = cfs_task_sched_value(atomic_load(&wa_t_tid), "nr_wakeups_affine");
	att0 = cfs_task_sched_value(atomic_load(&wa_t_tid), "nr_wakeups_affine_attempts");

	for (i = 0; i < rounds; i++) {
		int done = atomic_load(&wa_h_done);

		wa_post(&wa_h_go);
		wa_wait(&wa_h_done, done);
		tl_sleep(0.002); /* let A go idle */
		ready = atomic_load(&wa_t_ready);
		wa_post(&wa_t_go);
		wa_wait(&wa_t_ready, ready);
		if (atomic_load(&wa_t_cpu) == wa_b)
			res->woke_on_b++;
	}

	res->rounds = rounds;
	res->affine = cfs_task_sched_value(atomic_load(&wa_t_tid),
					   "nr_wakeups_affine") - aff0;
	res->attempts = cfs_task_sched_value(atomic_load(&wa_t_tid),
					     "nr_wakeups_affine_attempts") - att0;

	atomic_store(&wa_stop, 1);
	wa_post(&wa_h_go);
	wa_post(&wa_t_go);
	pthread_join(h, NULL);
	pthread_join(t, NULL);
	if (sched_idle_hog)
		tl_spinner_stop(&idle_hog);
	wa_affinity(wa_a, wa_b);
}

#endif /* WA_SCENARIO_H */
