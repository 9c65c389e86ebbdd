// SPDX-License-Identifier: GPL-2.0
/*
 * t_yield: sched_yield() returns 0; two SCHED_FIFO threads of equal
 * priority pinned to one CPU strictly alternate when each yields after
 * every step (observed through a shared log); a FIFO thread yielding does
 * not give the CPU to a lower-priority FIFO thread; a NORMAL thread
 * yielding in a loop completes and does not starve a busy NORMAL thread
 * on the same CPU.
 */
#include "tlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NSTEP 2000

static int cpu;
static char logbuf[4 * NSTEP + 16];
static atomic_int logpos;

struct stepper {
	char id;
	int steps;
};

static void *stepper_main(void *arg)
{
	struct stepper *s = arg;

	for (int i = 0; i < s->steps; i++) {
		int p = atomic_fetch_add(&logpos, 1);

		if (p < (int)sizeof(logbuf))
			logbuf[p] = s->id;
		if (sched_yield())
			logbuf[p] = '!';
	}
	return NULL;
}

/* Start FIFO threads (prio[i], pinned to cpu) while this thread holds the
 * CPU at a higher FIFO priority, then let them run by joining them. */
static int run_fifo(int n, struct stepper *st, const int *prio)
{
	pthread_t th[4];
	pthread_attr_t at;
	struct sched_param sp = { .sched_priority = 50 };
	cpu_set_t set;
	int rc = 0, created = 0;

	memset(logbuf, 0, sizeof(logbuf));
	atomic_store(&logpos, 0);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) ||
	    sched_setscheduler(0, SCHED_FIFO, &sp)) {
		tl_fail("main thread pin/FIFO 50: %s", tl_errname(errno));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		struct sched_param tp = { .sched_priority = prio[i] };

		pthread_attr_init(&at);
		pthread_attr_setinheritsched(&at, PTHREAD_EXPLICIT_SCHED);
		pthread_attr_setschedpolicy(&at, SCHED_FIFO);
		pthread_attr_setschedparam(&at, &tp);
		pthread_attr_setaffinity_np(&at, sizeof(set), &set);
		rc = pthread_create(&th[i], &at, stepper_main, &st[i]);
		pthread_attr_destroy(&at);
		if (rc) {
			tl_fail("pthread_create FIFO %d: %s", prio[i], tl_errname(rc));
			break;
		}
		created++;
	}
	for (int i = 0; i < created; i++)
		pthread_join(th[i], NULL);
	sp.sched_priority = 0;
	sched_setscheduler(0, SCHED_OTHER, &sp);
	return rc ? -1 : 0;
}

static int fifo_equal(void)
{
	struct stepper st[2] = { { 'A', NSTEP }, { 'B', NSTEP } };
	int prio[2] = { 10, 10 }, dups = 0, na = 0, nb = 0;

	if (run_fifo(2, st, prio))
		return -1;
	for (int i = 0; i < 2 * NSTEP; i++) {
		na += logbuf[i] == 'A';
		nb += logbuf[i] == 'B';
		if (i && logbuf[i] == logbuf[i - 1])
			dups++;
	}
	TL_CHECK(na == NSTEP && nb == NSTEP && !strchr(logbuf, '!'),
		 "FIFO log has %d A, %d B (want %d each), yield errors: %s", na, nb,
		 NSTEP, strchr(logbuf, '!') ? "yes" : "no");
	TL_CHECK(dups <= 1,
		 "equal-prio FIFO threads did not alternate on yield: %d repeats in %d steps, log starts %.40s",
		 dups, 2 * NSTEP, logbuf);
	return dups;
}

static int fifo_lower(void)
{
	struct stepper st[2] = { { 'L', 1 }, { 'H', NSTEP / 4 } };
	int prio[2] = { 5, 10 };
	char *first_l, *last_h;

	if (run_fifo(2, st, prio))
		return -1;
	first_l = strchr(logbuf, 'L');
	last_h = strrchr(logbuf, 'H');
	TL_CHECK(first_l && last_h && first_l > last_h,
		 "a yielding FIFO 10 thread let FIFO 5 run first: L at %ld, last H at %ld",
		 first_l ? (long)(first_l - logbuf) : -1L,
		 last_h ? (long)(last_h - logbuf) : -1L);
	return first_l && last_h ? (int)(first_l - logbuf) : -1;
}

/* NORMAL: a yield loop next to a spinner on the same CPU */
struct yielder {
	atomic_int stop;
	unsigned long calls, errors;
};

static void *yielder_main(void *arg)
{
	struct yielder *y = arg;

	if (tl_pin_tid(0, cpu))
		y->errors++;
	while (!atomic_load_explicit(&y->stop, memory_order_relaxed)) {
		if (sched_yield())
			y->errors++;
		y->calls++;
	}
	return NULL;
}

static void normal_yield(double *spin_share, unsigned long *calls)
{
	struct tl_spinner s = { 0 };
	struct yielder y = { 0 };
	pthread_t th;
	double s0, y0, s1, y1, t0;
	int rc;

	/* plain loop first */
	t0 = tl_now();
	for (int i = 0; i < 20000; i++)
		if (sched_yield()) {
			tl_fail("sched_yield returned non-zero: %s", tl_errname(errno));
			break;
		}
	TL_CHECK(tl_now() - t0 < 10, "20000 sched_yield calls took %.1fs", tl_now() - t0);

	rc = tl_spinner_start(&s, cpu, 0, 0);
	if (rc)
		tl_die("spinner: %s", tl_errname(rc));
	pthread_create(&th, NULL, yielder_main, &y);
	tl_sleep(0.2);
	s0 = tl_pthread_cputime(s.th);
	y0 = tl_pthread_cputime(th);
	tl_sleep(1.5);
	s1 = tl_pthread_cputime(s.th);
	y1 = tl_pthread_cputime(th);
	atomic_store(&y.stop, 1);
	pthread_join(th, NULL);
	tl_spinner_stop(&s);
	*calls = y.calls;
	*spin_share = (s1 - s0) / ((s1 - s0) + (y1 - y0) + 1e-9);
	TL_CHECK(y.errors == 0, "yielder: %lu errors (pin or yield)", y.errors);
	TL_CHECK(y.calls > 20, "yielder made only %lu sched_yield calls", y.calls);
	TL_CHECK(*spin_share > 0.25,
		 "busy thread next to a yield loop on CPU %d got %.0f%% of their CPU time (%.3fs vs %.3fs), want > 25%%",
		 cpu, *spin_share * 100, s1 - s0, y1 - y0);
}

int main(void)
{
	int cpus[CPU_SETSIZE], n, dups, lpos;
	unsigned long calls;
	double share;

	tl_init("t_yield");
	if (geteuid() != 0)
		tl_skip("needs root for SCHED_FIFO");
	n = tl_usable_cpus(cpus, CPU_SETSIZE);
	if (n < 1)
		tl_die("no usable CPU");
	cpu = cpus[n - 1];

	dups = fifo_equal();
	lpos = fifo_lower();
	normal_yield(&share, &calls);
	return tl_finish("CPU %d: FIFO equal prio ABAB.. alternation over %d yields "
			 "(%d repeats); FIFO 5 ran only after FIFO 10's %d yields (pos %d); "
			 "NORMAL: 20000 yields ok, yield loop %lu calls, busy neighbour "
			 "got %.0f%% (>25%%)",
			 cpu, 2 * NSTEP, dups, NSTEP / 4, lpos, calls, share * 100);
}
