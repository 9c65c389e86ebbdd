/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the VRQ guest tests, on top of tests/guest/tlib (time,
 * files, pinning, spinning, busy child processes and their runtime). Each
 * t_*.c is a standalone program linked with tlib.o: exit 0 pass, 1 fail,
 * 77 skip, with a one-line reason ("PASS: name: ...", see finish()).
 */
#ifndef VRQ_TEST_H
#define VRQ_TEST_H

#include "../guest/tlib.h"

#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define PASS TL_EXIT_PASS
#define FAIL TL_EXIT_FAIL
#define SKIP TL_EXIT_SKIP

static const char *test_name = "vrq";

/* The VRQ tests stop at their first failure: print the verdict and exit. */
static inline void __attribute__((noreturn, format(printf, 2, 3)))
finish(int code, const char *fmt, ...)
{
	va_list ap;

	printf("%s: %s: ", code == PASS ? "PASS" : code == SKIP ? "SKIP" : "FAIL",
	       test_name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	exit(code);
}

/* tl_now() in ns: the VRQ tests keep their times as integer nanoseconds. */
static inline uint64_t now_ns(void)
{
	return (uint64_t)(tl_now() * 1e9);
}

/* The CPU time (ns) each of pids[0..n-1] (n <= 8) gets in the next secs s. */
static inline void runtimes_over(unsigned int secs, const pid_t *pids,
				 uint64_t *ns, int n)
{
	uint64_t t0[8];
	int i;

	for (i = 0; i < n; i++)
		t0[i] = tl_task_runtime_ns(pids[i]);
	sleep(secs);
	for (i = 0; i < n; i++)
		ns[i] = tl_task_runtime_ns(pids[i]) - t0[i];
}

static inline uint64_t runtime_over(unsigned int secs, pid_t pid)
{
	uint64_t ns;

	runtimes_over(secs, &pid, &ns, 1);
	return ns;
}

/* A sysctl's value, or dflt if it cannot be read. */
static inline long read_long(const char *path, long dflt)
{
	char buf[64];

	if (tl_read_file(path, buf, sizeof(buf)) <= 0)
		return dflt;
	return strtol(buf, NULL, 10);
}

/*
 * Which of two settings trial i runs, in the order 0 1 1 0 0 1 1 0 ...:
 * each setting runs first as often as second, so drift in the host's speed
 * over the trials weighs on both alike.
 */
static inline int abba(int i)
{
	return (i & 1) ^ ((i / 2) & 1);
}

/*
 * How clearly a/n is below b/m: the one-sided two-proportion z statistic
 * (pooled), 0 when there is nothing to compare.
 */
static inline double fewer_z(int a, int n, int b, int m)
{
	double p = (double)(a + b) / (n + m), se;

	if (!n || !m || p <= 0 || p >= 1)
		return 0;
	se = sqrt(p * (1 - p) * (1.0 / n + 1.0 / m));
	return ((double)b / m - (double)a / n) / se;
}

/*
 * A periodic task pinned to @cpu for @secs: sleep @sleep_us, burn @burn_s
 * of CPU, over and over. A cycle is late when sleep and burn took more than
 * @late_ms over their sum; the wait for the CPU may fall in either part.
 * Returns the late cycles and adds the cycles run to *total.
 */
static inline int late_cycles(int cpu, double secs, unsigned int sleep_us,
			      double burn_s, double late_ms, int *total)
{
	double want = sleep_us / 1e6 + burn_s;
	int fd[2], res[2] = { 0, 0 };
	pid_t pid;

	if (pipe(fd))
		finish(FAIL, "pipe");
	pid = fork();
	if (pid == 0) {
		double end, t;

		close(fd[0]);
		if (tl_pin_tid(0, cpu))
			_exit(2);
		end = tl_now() + secs;
		while ((t = tl_now()) < end) {
			usleep(sleep_us);
			tl_burn_cpu(burn_s);
			res[1]++;
			if (tl_now() - t - want > late_ms / 1000.0)
				res[0]++;
		}
		if (write(fd[1], res, sizeof(res)) != sizeof(res))
			_exit(3);
		_exit(0);
	}
	close(fd[1]);
	if (read(fd[0], res, sizeof(res)) != sizeof(res))
		finish(FAIL, "the periodic task failed");
	close(fd[0]);
	waitpid(pid, NULL, 0);
	*total += res[1];
	return res[0];
}

/*
 * The verdict of alternating trials of two rules, counted by late_cycles():
 * late[1] of n[1] cycles were late under the rule tested, named @tested,
 * late[0] of n[0] under the one it replaces, @base. SKIP when the tested
 * rule ran under 3/4 of the @expect cycles (the host held the vCPU back,
 * and the rules cannot be told apart); FAIL when under @ctrl_pct % of the
 * base rule's cycles were late (the control: the test did not see the wait
 * at all), or when the tested rule has more than half the base rule's late
 * share and is not clearly lower either (one-sided z under 2). Returns z.
 */
static inline double late_verdict(const int late[2], const int n[2],
				  int expect, int ctrl_pct,
				  const char *tested, const char *base)
{
	double z;

	if (n[1] < expect * 3 / 4)
		finish(SKIP, "the host held the vCPU back: %d cycles with %s, of about %d",
		       n[1], tested, expect);
	if (late[0] * 100 < n[0] * ctrl_pct)
		finish(FAIL, "control: with %s only %d/%d cycles were late: the wait is not seen",
		       base, late[0], n[0]);
	z = fewer_z(late[1], n[1], late[0], n[0]);
	if (late[1] * 2 * n[0] > late[0] * n[1] && z < 2.0)
		finish(FAIL, "%s: %d/%d late cycles against %d/%d with %s (want at most half, or z >= 2: z %.2f)",
		       tested, late[1], n[1], late[0], n[0], base, z);
	return z;
}

/* A non-negative sysctl the test needs: its value, or FAIL. */
static inline long read_knob(const char *path)
{
	long v = read_long(path, -1);

	if (v < 0)
		finish(FAIL, "%s is missing", path);
	return v;
}

/* Write a sysctl; returns 0 or -errno (t_sysctl checks for -EINVAL). */
static inline int write_long(const char *path, long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld", v);
	return tl_write_file(path, buf) ? -errno : 0;
}

#define CARRY_KNOB "/proc/sys/kernel/sched_deadline_carry"
#define RR_KNOB "/proc/sys/kernel/rr_interval"

/* kernel.sched_deadline_carry and rr_interval as a deadline test found them. */
static inline long *carry_rr_saved(void)
{
	static long saved[2];

	return saved;
}

static inline void carry_rr_restore(void)
{
	write_long(CARRY_KNOB, carry_rr_saved()[0]);
	write_long(RR_KNOB, carry_rr_saved()[1]);
}

/*
 * For the tests of the deadline rule: note kernel.sched_deadline_carry and
 * rr_interval, put both back on every exit (a SKIP or FAIL included), and
 * set rr_interval to @rr_ms. Returns the carry setting found.
 */
static inline long carry_rr_setup(int rr_ms)
{
	long *saved = carry_rr_saved();

	saved[0] = read_knob(CARRY_KNOB);
	saved[1] = read_long(RR_KNOB, 6);
	atexit(carry_rr_restore);
	if (write_long(RR_KNOB, rr_ms))
		finish(FAIL, "cannot set rr_interval");
	return saved[0];
}

static inline void require_vrq(void)
{
	if (access("/proc/sys/kernel/rr_interval", F_OK))
		finish(SKIP, "not a VRQ kernel (no kernel.rr_interval)");
	if (geteuid() != 0)
		finish(SKIP, "needs root");
}

/* At least two usable CPUs, or skip. */
static inline void require_two_cpus(void)
{
	int cpus[2];

	if (tl_usable_cpus(cpus, 2) < 2)
		finish(SKIP, "needs 2 CPUs");
}

/* The preemption model in force, from debugfs or the command line. */
static inline int preempt_model_none(void)
{
	char buf[256];

	if (tl_read_file("/sys/kernel/debug/sched/preempt", buf, sizeof(buf)) > 0)
		return strstr(buf, "(none)") != NULL;
	if (tl_read_file("/proc/cmdline", buf, sizeof(buf)) > 0)
		return strstr(buf, "preempt=none") != NULL;
	return 0;
}

static inline void mount_debugfs(void)
{
	if (access("/sys/kernel/debug/sched", F_OK))
		system("mount -t debugfs none /sys/kernel/debug 2>/dev/null");
}

/* prio_ratio table as the kernel computes it; index = nice + 20. */
static inline int prio_ratio(int nice_val)
{
	int r = 128, i;

	for (i = 0; i < nice_val + 20; i++)
		r = r * 11 / 10;
	return r;
}

/* A "key N" line of /proc/vrq_stats: N, or -1 when absent. */
static inline long vrq_stat(const char *key)
{
	static char buf[65536];
	size_t klen = strlen(key);
	char *p, *q, *end;
	long v;

	if (tl_read_file("/proc/vrq_stats", buf, sizeof(buf)) <= 0)
		return -1;
	for (p = buf; p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (strncmp(p, key, klen) || (p[klen] != ' ' && p[klen] != '\t' &&
					      p[klen] != ':'))
			continue;
		for (q = p + klen; *q == ' ' || *q == '\t' || *q == ':'; q++)
			;
		v = strtol(q, &end, 10);
		return end == q ? -1 : v;
	}
	return -1;
}

/*
 * Sum over the CPUs of one per-CPU counter of /proc/vrq_stats, the column
 * named @name in the "# cpu ..." header; -1 when there is no such column.
 */
static inline long vrq_stats_column(const char *name)
{
	static char buf[65536];
	char *line, *save = NULL;
	long sum = 0, v;
	int col = -1;

	if (tl_read_file("/proc/vrq_stats", buf, sizeof(buf)) <= 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *f, *s2 = NULL;
		int i = 0;

		if (!strncmp(line, "# cpu ", 6)) {
			for (f = strtok_r(line + 1, " ", &s2); f;
			     f = strtok_r(NULL, " ", &s2), i++)
				if (!strcmp(f, name))
					col = i;
			continue;
		}
		if (col < 1 || strncmp(line, "cpu", 3))
			continue;
		for (f = strtok_r(line, " ", &s2); f && i < col;
		     f = strtok_r(NULL, " ", &s2))
			i++;
		if (f && sscanf(f, "%ld", &v) == 1)
			sum += v;
	}
	return col < 1 ? -1 : sum;
}

#endif
