// SPDX-License-Identifier: GPL-2.0
/*
 * t_cpuacct: CPU time accounting is sane.  A busy thread that has really
 * been on a CPU for ~1 s (measured independently: the sum of the short
 * gaps between its consecutive clock reads, long gaps = descheduled) shows
 * ~1 s (within 20 %) in CLOCK_THREAD_CPUTIME_ID, /proc/self/task/TID/stat
 * utime+stime, getrusage(RUSAGE_THREAD), /proc/self/task/TID/schedstat and
 * the process totals, and never more than the wall time.  Two threads
 * pinned to one CPU: /proc/loadavg and /proc/stat count them as running,
 * the CPU pressure file /proc/pressure/cpu exists, parses and its "some"
 * total grows, and schedstat shows each one waiting and being switched.
 */
#include "tlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define TARGET 1.0  /* seconds of observed on-CPU time */
#define GAP 200e-6  /* consecutive reads further apart = was descheduled */
#define WINDOW 1.5  /* contention window */

struct acct {
	double observed, wall, thread_clk, stat, rusage, schedstat;
};

static int read_schedstat(pid_t tid, double *run, double *wait,
			  unsigned long *slices)
{
	char path[64], buf[256];
	unsigned long long r, w;

	snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", (int)tid);
	if (tl_read_file(path, buf, sizeof(buf)) < 0 ||
	    sscanf(buf, "%llu %llu %lu", &r, &w, slices) != 3)
		return -1;
	*run = r / 1e9;
	*wait = w / 1e9;
	return 0;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* A gap that means "was descheduled": GAP, or 20x a typical loop step when
 * clock reads are slow (e.g. an emulated, non-TSC clocksource). */
static double calibrate_gap(void)
{
	double d[201], prev = tl_now(), now;

	for (int i = 0; i < 201; i++) {
		tl_spin(200);
		now = tl_now();
		d[i] = now - prev;
		prev = now;
	}
	qsort(d, 201, sizeof(d[0]), cmp_double);
	return d[100] * 20 > GAP ? d[100] * 20 : GAP;
}

static double gap_limit;

static void *busy_main(void *arg)
{
	struct acct *a = arg;
	double start, prev, now, c0, ss_wait;
	unsigned long slices;
	struct rusage ru;

	gap_limit = calibrate_gap();
	start = prev = tl_now();
	c0 = tl_thread_cputime();
	a->observed = 0;
	while (a->observed < TARGET && prev - start < 10.0) {
		tl_spin(200);
		now = tl_now();
		if (now - prev < gap_limit)
			a->observed += now - prev;
		prev = now;
	}
	a->wall = prev - start;
	a->thread_clk = tl_thread_cputime() - c0;
	a->stat = tl_stat_cputime(tl_gettid());
	a->rusage = getrusage(RUSAGE_THREAD, &ru) ? -1 :
		ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	if (read_schedstat(tl_gettid(), &a->schedstat, &ss_wait, &slices))
		a->schedstat = -1;
	return NULL;
}

static int near(double x, double ref, double rel, double abs_slack)
{
	return x >= ref * (1 - rel) - abs_slack && x <= ref * (1 + rel) + abs_slack;
}

static void test_busy(struct acct *a)
{
	double p0 = tl_stat_cputime(0), pc0 = tl_clock_secs(CLOCK_PROCESS_CPUTIME_ID);
	double tick = 1.0 / (double)sysconf(_SC_CLK_TCK);
	pthread_t th;

	pthread_create(&th, NULL, busy_main, a);
	pthread_join(th, NULL);

	TL_CHECK(a->observed >= TARGET * 0.99,
		 "busy thread got only %.3fs on-CPU in %.1fs wall", a->observed, a->wall);
	/* the kernel must not lose time the thread visibly ran ... */
	TL_CHECK(a->thread_clk >= 0.8 * a->observed,
		 "CLOCK_THREAD_CPUTIME_ID %.3fs < 80%% of the %.3fs observed on-CPU",
		 a->thread_clk, a->observed);
	/* ... nor invent time beyond the wall clock */
	TL_CHECK(a->thread_clk <= a->wall * 1.01 + 0.005,
		 "CLOCK_THREAD_CPUTIME_ID %.3fs exceeds wall time %.3fs", a->thread_clk,
		 a->wall);
	TL_CHECK(near(a->stat, a->thread_clk, 0.2, 2 * tick),
		 "/proc task stat utime+stime %.3fs vs thread clock %.3fs (>20%% off)",
		 a->stat, a->thread_clk);
	TL_CHECK(near(a->rusage, a->thread_clk, 0.2, 2 * tick),
		 "getrusage(RUSAGE_THREAD) %.3fs vs thread clock %.3fs (>20%% off)",
		 a->rusage, a->thread_clk);
	if (a->schedstat >= 0)
		TL_CHECK(near(a->schedstat, a->thread_clk, 0.05, 0.005),
			 "/proc task schedstat runtime %.3fs vs thread clock %.3fs",
			 a->schedstat, a->thread_clk);
	/* the whole process includes the (finished) thread */
	TL_CHECK(tl_stat_cputime(0) - p0 >= 0.8 * a->thread_clk - 2 * tick,
		 "/proc/self/stat utime+stime grew %.3fs, thread used %.3fs",
		 tl_stat_cputime(0) - p0, a->thread_clk);
	TL_CHECK(tl_clock_secs(CLOCK_PROCESS_CPUTIME_ID) - pc0 >= a->thread_clk * 0.999,
		 "CLOCK_PROCESS_CPUTIME_ID grew %.3fs < thread's %.3fs",
		 tl_clock_secs(CLOCK_PROCESS_CPUTIME_ID) - pc0, a->thread_clk);
}

static int psi_some_total(unsigned long long *total, double *avg10)
{
	char buf[512], *p;

	if (tl_read_file("/proc/pressure/cpu", buf, sizeof(buf)) < 0)
		return -1;
	p = strstr(buf, "some ");
	if (!p || sscanf(p, "some avg10=%lf avg60=%*f avg300=%*f total=%llu",
			 avg10, total) != 2) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* /proc/loadavg "R/T" and /proc/stat procs_running */
static int running_counts(int *la_running, int *stat_running, double la[3])
{
	char buf[16384], *p;

	if (tl_read_file("/proc/loadavg", buf, sizeof(buf)) < 0 ||
	    sscanf(buf, "%lf %lf %lf %d/", &la[0], &la[1], &la[2], la_running) != 4)
		return -1;
	if (tl_read_file("/proc/stat", buf, sizeof(buf)) < 0 ||
	    !(p = strstr(buf, "procs_running ")))
		return -1;
	*stat_running = atoi(p + 14);
	return 0;
}

static void test_contention(int cpu, char *msg, size_t msz)
{
	struct tl_spinner s[2] = { 0 };
	unsigned long long psi0, psi1;
	double avg10, w0[2], w1[2], r0[2], r1[2], la[3];
	unsigned long sl0[2], sl1[2];
	int psi_ok, ss_ok = 1, la_run = 0, st_run = 0, max_la = 0, max_st = 0;
	double end;

	psi_ok = psi_some_total(&psi0, &avg10) == 0;
	if (!psi_ok)
		tl_fail("/proc/pressure/cpu unreadable/unparsable: %s (CONFIG_PSI, psi=1)",
			tl_errname(errno));
	for (int i = 0; i < 2; i++) {
		int rc = tl_spinner_start(&s[i], cpu, 0, 0);

		if (rc)
			tl_die("spinner on CPU %d: %s", cpu, tl_errname(rc));
	}
	tl_sleep(0.2);
	for (int i = 0; i < 2; i++)
		if (read_schedstat(s[i].tid, &r0[i], &w0[i], &sl0[i]))
			ss_ok = 0;
	if (psi_ok)
		psi_some_total(&psi0, &avg10);
	/* sample the running counts a few times: both spinners + us = 3 */
	end = tl_now() + WINDOW;
	while (tl_now() < end) {
		if (running_counts(&la_run, &st_run, la) == 0) {
			max_la = la_run > max_la ? la_run : max_la;
			max_st = st_run > max_st ? st_run : max_st;
		}
		tl_sleep(0.05);
	}
	if (psi_ok && psi_some_total(&psi1, &avg10))
		psi_ok = 0;
	for (int i = 0; i < 2; i++)
		if (read_schedstat(s[i].tid, &r1[i], &w1[i], &sl1[i]))
			ss_ok = 0;
	tl_spinner_stop(&s[0]);
	tl_spinner_stop(&s[1]);

	TL_CHECK(max_la >= 3, "/proc/loadavg running count peaked at %d with 2 busy threads + reader, want >= 3",
		 max_la);
	TL_CHECK(max_st >= 3, "/proc/stat procs_running peaked at %d, want >= 3", max_st);
	TL_CHECK(la[0] >= 0 && la[1] >= 0 && la[2] >= 0, "negative load average");
	if (psi_ok)
		TL_CHECK(psi1 - psi0 >= (unsigned long long)(0.1 * WINDOW * 1e6),
			 "CPU pressure 'some' total grew %.3fs over %.1fs with 2 threads on one CPU, want >= %.2fs",
			 (psi1 - psi0) / 1e6, WINDOW, 0.1 * WINDOW);
	if (ss_ok) {
		for (int i = 0; i < 2; i++) {
			TL_CHECK(w1[i] - w0[i] >= 0.1 * WINDOW,
				 "schedstat: contended thread %d waited only %.3fs of %.1fs",
				 i, w1[i] - w0[i], WINDOW);
			TL_CHECK(sl1[i] - sl0[i] >= 10,
				 "schedstat: contended thread %d ran only %lu times in %.1fs",
				 i, sl1[i] - sl0[i], WINDOW);
		}
		snprintf(msg, msz, "running peak %d (loadavg)/%d (stat), PSI some +%.3fs, "
			 "waits %.2fs/%.2fs, switches-in %lu/%lu",
			 max_la, max_st, psi_ok ? (psi1 - psi0) / 1e6 : -1.0,
			 w1[0] - w0[0], w1[1] - w0[1], sl1[0] - sl0[0], sl1[1] - sl0[1]);
	} else {
		snprintf(msg, msz, "running peak %d (loadavg)/%d (stat), PSI some +%.3fs, "
			 "no schedstat (CONFIG_SCHED_INFO off)",
			 max_la, max_st, psi_ok ? (psi1 - psi0) / 1e6 : -1.0);
	}
}

int main(void)
{
	struct acct a;
	char msg[256];
	int cpus[CPU_SETSIZE], n;

	tl_init("t_cpuacct");
	n = tl_usable_cpus(cpus, CPU_SETSIZE);
	if (n < 1)
		tl_die("no usable CPU");
	test_busy(&a);
	test_contention(cpus[n - 1], msg, sizeof(msg));
	return tl_finish("busy thread: observed on-CPU %.3fs (gaps > %.0fus excluded, "
			 "wall %.3fs) -> thread clock %.3fs, /proc stat %.3fs, rusage "
			 "%.3fs, schedstat %.3fs; 2 threads on CPU %d for %.1fs: %s",
			 a.observed, gap_limit * 1e6, a.wall, a.thread_clk, a.stat, a.rusage, a.schedstat,
			 cpus[n - 1], WINDOW, msg);
}
