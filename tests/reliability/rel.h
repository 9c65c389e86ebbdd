/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the reliability tests (tests/reliability/t_*.c) that
 * tests/guest/tlib does not have: a "probe" worker that records how long it
 * was kept off the CPU, a bounded real-time hog, thread policy setup and
 * the scheduler detection. Header-only; everything is static.
 */
#ifndef REL_H
#define REL_H

#include "tlib.h"

#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* VRQ is running when its sysctl exists (VRQ_SCHED only names the kernel). */
static inline int rel_is_vrq(void)
{
	return access("/proc/sys/kernel/rr_interval", F_OK) == 0;
}

static inline long rel_read_long(const char *path, long dflt)
{
	char buf[64];

	if (tl_read_file(path, buf, sizeof(buf)) <= 0)
		return dflt;
	return strtol(buf, NULL, 10);
}

/*
 * Give thread tid policy (priority prio for FIFO/RR) and nice; the nice is
 * always written, so a thread does not silently inherit its creator's.
 * Returns 0 or an errno value.
 */
static inline int rel_set_sched(pid_t tid, int policy, int prio, int nice)
{
	struct sched_param sp = { .sched_priority = prio };

	if (sched_setscheduler(tid, policy, &sp))
		return errno;
	if (policy != SCHED_FIFO && policy != SCHED_RR &&
	    setpriority(PRIO_PROCESS, (id_t)tid, nice))
		return errno;
	return 0;
}

/*
 * A probe: a CPU-bound thread that reads CLOCK_MONOTONIC and its own CPU
 * clock in a tight loop and remembers the longest time between two passes
 * that it did not run (wall time minus its own CPU time), i.e. the longest
 * time something else had its CPU. Taking its own CPU time out means a
 * stall of the whole (virtual) machine while the probe runs, charged to
 * it, does not count as a wait. It is created blocked;
 * rel_probe_release() stamps the release time (the first wait runs from
 * there) and wakes it. Times are in ns of CLOCK_MONOTONIC.
 */
struct rel_probe {
	pthread_t th;
	int cpu;                /* pinned to this CPU, -1 = free */
	int policy, nice;
	sem_t go;
	atomic_int ready;
	atomic_int stop;
	int setup_err;
	int64_t t_release;      /* set by the releaser before waking it */
	atomic_llong t_first;   /* first loop pass after release */
	atomic_llong max_gap;   /* longest time off the CPU between passes */
	atomic_llong max_gap_at;/* when that gap ended */
	atomic_llong mark;      /* rel_probe_mark() time (0 = none) ... */
	atomic_llong after_mark;/* ... and the first pass at or after it */
	atomic_ulong passes;
	double cpu_total;       /* its CPU time when it stopped, seconds */
	/* a competing tl_hog's stall counter, taken out of the waits */
	atomic_llong *ext_stall;
	atomic_llong max_raw_gap;/* the same wait before taking stalls out */
	long long stall_release;/* *ext_stall at the release */
};

static inline int64_t rel_clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static inline int64_t rel_ns(void)
{
	return rel_clock_ns(CLOCK_MONOTONIC);
}

static void *rel_probe_main(void *arg)
{
	struct rel_probe *p = arg;
	int64_t last, last_cpu, last_stall = 0, t, c, off, st = 0;

	p->setup_err = 0;
	if (p->cpu >= 0 && tl_pin_tid(0, p->cpu))
		p->setup_err = errno;
	if (!p->setup_err)
		p->setup_err = rel_set_sched(0, p->policy, 0, p->nice);
	atomic_store(&p->ready, 1);
	last_cpu = rel_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	while (sem_wait(&p->go) && errno == EINTR)
		;
	last = p->t_release;
	last_stall = p->stall_release;
	/* the pass that sees stop is measured too: it ends the last wait */
	for (int done = 0; !done;) {
		long long m;

		done = atomic_load_explicit(&p->stop, memory_order_relaxed);
		t = rel_ns();
		c = rel_clock_ns(CLOCK_THREAD_CPUTIME_ID);
		if (p->ext_stall)
			st = atomic_load_explicit(p->ext_stall,
						  memory_order_relaxed);
		if (!atomic_load_explicit(&p->t_first, memory_order_relaxed))
			atomic_store(&p->t_first, t);
		off = (t - last) - (c - last_cpu);
		if (off > atomic_load_explicit(&p->max_raw_gap,
					       memory_order_relaxed))
			atomic_store(&p->max_raw_gap, off);
		off -= st - last_stall;
		if (off > atomic_load_explicit(&p->max_gap,
					       memory_order_relaxed)) {
			atomic_store(&p->max_gap, off);
			atomic_store(&p->max_gap_at, t);
		}
		m = atomic_load_explicit(&p->mark, memory_order_acquire);
		if (m && t >= m &&
		    !atomic_load_explicit(&p->after_mark, memory_order_relaxed))
			atomic_store(&p->after_mark, t);
		atomic_fetch_add_explicit(&p->passes, 1, memory_order_relaxed);
		last = t;
		last_cpu = c;
		last_stall = st;
	}
	p->cpu_total = tl_thread_cputime();
	return NULL;
}

/*
 * Create a blocked probe; returns 0 or an errno value (of setup too).
 * ext_stall: the stall counter of the hog it competes with, or NULL.
 */
static inline int rel_probe_start(struct rel_probe *p, int cpu, int policy,
				  int nice, atomic_llong *ext_stall)
{
	int rc;

	memset(p, 0, sizeof(*p));
	p->ext_stall = ext_stall;
	p->cpu = cpu;
	p->policy = policy;
	p->nice = nice;
	if (sem_init(&p->go, 0, 0))
		return errno;
	rc = tl_start_thread(&p->th, rel_probe_main, p, &p->ready);
	return rc ? rc : p->setup_err;
}

static inline void rel_probe_release(struct rel_probe *p)
{
	if (p->ext_stall)
		p->stall_release = atomic_load(p->ext_stall);
	p->t_release = rel_ns();
	sem_post(&p->go);
}

/* From now on, note the probe's first pass at or after this moment. */
static inline int64_t rel_probe_mark(struct rel_probe *p)
{
	int64_t t = rel_ns();

	atomic_store(&p->after_mark, 0);
	atomic_store_explicit(&p->mark, t, memory_order_release);
	return t;
}

/* CPU time the probe used so far (in total once stopped), seconds. */
static inline double rel_probe_cpu(struct rel_probe *p)
{
	if (atomic_load(&p->stop) && p->cpu_total > 0)
		return p->cpu_total;
	return tl_pthread_cputime(p->th);
}

/* Stop and join (a never released probe is released first). */
static inline void rel_probe_stop(struct rel_probe *p)
{
	atomic_store(&p->stop, 1);
	if (!p->t_release)
		rel_probe_release(p);
	pthread_join(p->th, NULL);
	sem_destroy(&p->go);
}

/*
 * A SCHED_FIFO hog pinned to one CPU that spins until told to stop and in
 * any case gives up after max_secs of wall time, so that a test that loses
 * control of it cannot leave a CPU to real-time spinning for long.
 */
struct rel_rthog {
	pthread_t th;
	int cpu, prio;
	double max_secs;
	atomic_int ready;
	atomic_int stop;
	int setup_err;
};

static void *rel_rthog_main(void *arg)
{
	struct rel_rthog *h = arg;
	double end = tl_now() + h->max_secs;
	struct sched_param sp = { .sched_priority = h->prio };

	h->setup_err = 0;
	if (tl_pin_tid(0, h->cpu))
		h->setup_err = errno;
	else if (sched_setscheduler(0, SCHED_FIFO, &sp))
		h->setup_err = errno;
	atomic_store(&h->ready, 1);
	if (h->setup_err)
		return NULL;
	while (!atomic_load_explicit(&h->stop, memory_order_relaxed) &&
	       tl_now() < end)
		tl_spin(20000);
	return NULL;
}

static inline int rel_rthog_start(struct rel_rthog *h, int cpu, int prio,
				  double max_secs)
{
	int rc;

	memset(h, 0, sizeof(*h));
	h->cpu = cpu;
	h->prio = prio;
	h->max_secs = max_secs;
	rc = tl_start_thread(&h->th, rel_rthog_main, h, &h->ready);
	return rc ? rc : h->setup_err;
}

static inline void rel_rthog_stop(struct rel_rthog *h)
{
	atomic_store(&h->stop, 1);
	pthread_join(h->th, NULL);
}

#endif /* REL_H */
