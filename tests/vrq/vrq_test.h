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
