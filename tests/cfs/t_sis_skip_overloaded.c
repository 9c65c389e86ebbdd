// SPDX-License-Identifier: GPL-2.0
/*
 * t_sis_skip_overloaded: SIS_SKIP_OVERLOADED (seed 001) removes the LLC's
 * overloaded CPUs from select_idle_cpu()'s scan.
 *
 * CPU A runs two pinned SCHED_NORMAL spinners (overloaded). A waker pinned
 * to B wakes a wakee allowed on A and B, which last ran on B, so that
 * select_idle_sibling() finds neither target nor prev idle and scans the
 * LLC. With the bit on the scan skips A, counted by schedstat
 * sis_skip_overloaded on the waking CPU; with it off the counter must not
 * move. (The pick itself cannot differ on two CPUs: an overloaded CPU is
 * never idle.)
 */
#include "cfs_test.h"

#define WAKEUPS 200

static int cpu_a, cpu_b;
static atomic_int go, done, stop;

static void *wakee(void *arg)
{
	int seen = 0;

	(void)arg;
	for (;;) {
		/* run on B last, then be free: prev_cpu = B */
		cfs_set_aff(0, cpu_b, -1);
		cfs_set_aff(0, cpu_a, cpu_b);
		cfs_futex_post(&done);
		cfs_futex_wait(&go, seen);
		seen = atomic_load(&go);
		if (atomic_load(&stop))
			return NULL;
	}
}

static unsigned long long skips(void)
{
	struct cfs_sib_stats sum;

	if (cfs_sib_stats_all(&sum))
		tl_die("cannot read the sib fields of /proc/schedstat");
	return sum.sis_skip;
}

static unsigned long long run(int on)
{
	unsigned long long s0;
	pthread_t t;
	int i, d;

	cfs_set_or_die("SIS_SKIP_OVERLOADED", on);
	atomic_store(&stop, 0);
	d = atomic_load(&done);
	if (pthread_create(&t, NULL, wakee, NULL))
		tl_die("pthread_create failed");
	cfs_futex_wait(&done, d);
	s0 = skips();
	for (i = 0; i < WAKEUPS; i++) {
		d = atomic_load(&done);
		tl_burn_wall(0.0002); /* the waker is running, B is busy */
		cfs_futex_post(&go);
		cfs_futex_wait(&done, d);
	}
	s0 = skips() - s0;
	atomic_store(&stop, 1);
	cfs_futex_post(&go);
	pthread_join(t, NULL);
	return s0;
}

int main(void)
{
	struct tl_spinner hog[2] = { 0 };
	unsigned long long on1, off1, on2, off2;

	tl_init("t_sis_skip_overloaded");
	cfs_require_kernel();
	cfs_two_cpus(&cpu_a, &cpu_b);
	if (cfs_schedstats_on())
		tl_skip("schedstats unavailable (needs CONFIG_SCHEDSTATS)");

	cfs_spinners_start(hog, 2, cpu_a, 0);
	cfs_set_aff(0, cpu_b, -1); /* the waker */
	tl_sleep(0.05);        /* a few ticks: A gets into the overloaded mask */

	on1 = run(1);
	off1 = run(0);
	on2 = run(1);
	off2 = run(0);

	cfs_spinners_stop(hog, 2);

	TL_CHECK(on1 + on2 >= WAKEUPS / 2,
		 "SIS_SKIP_OVERLOADED: only %llu+%llu of %d scans skipped overloaded CPU %d",
		 on1, on2, 2 * WAKEUPS, cpu_a);
	TL_CHECK(off1 + off2 == 0, "NO_SIS_SKIP_OVERLOADED: sis_skip_overloaded moved (%llu+%llu)",
		 off1, off2);
	return tl_finish("select_idle_cpu() scans skipping overloaded CPU %d: %llu+%llu with SIS_SKIP_OVERLOADED, %llu+%llu without (%d wakeups each)",
			 cpu_a, on1, on2, off1, off2, WAKEUPS);
}
