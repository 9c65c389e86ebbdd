/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the VRQ guest tests. Each t_*.c is a standalone
 * program: exit 0 pass, 1 fail, 77 skip, with a one-line reason.
 * Build: gcc -O2 -Wall -pthread -o t_x t_x.c
 */
#ifndef VRQ_TEST_H
#define VRQ_TEST_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PASS 0
#define FAIL 1
#define SKIP 77

static const char *test_name = "vrq";

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

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static inline uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static inline int read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	return (int)n;
}

/* Returns 0 or -errno of the write. */
static inline int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;
	int err;

	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	err = n < 0 ? -errno : 0;
	close(fd);
	return err;
}

static inline long read_long(const char *path, long dflt)
{
	char buf[64];

	if (read_file(path, buf, sizeof(buf)) <= 0)
		return dflt;
	return strtol(buf, NULL, 10);
}

static inline int write_long(const char *path, long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld", v);
	return write_file(path, buf);
}

static inline void require_vrq(void)
{
	if (access("/proc/sys/kernel/rr_interval", F_OK))
		finish(SKIP, "not a VRQ kernel (no kernel.rr_interval)");
	if (geteuid() != 0)
		finish(SKIP, "needs root");
}

static inline int online_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 1;
	return CPU_COUNT(&set);
}

static inline int pin_to(pid_t pid, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(pid, sizeof(set), &set);
}

static inline int pin_two(pid_t pid, int a, int b)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(a, &set);
	CPU_SET(b, &set);
	return sched_setaffinity(pid, sizeof(set), &set);
}

static inline int set_policy(pid_t pid, int policy, int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	return sched_setscheduler(pid, policy, &sp);
}

/* Runtime of a task in ns from /proc/PID/schedstat, or stat as fallback. */
static inline uint64_t task_runtime_ns(pid_t pid)
{
	char path[64], buf[512];
	unsigned long long v;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", pid);
	if (read_file(path, buf, sizeof(buf)) > 0 &&
	    sscanf(buf, "%llu", &v) == 1)
		return v;
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (read_file(path, buf, sizeof(buf)) > 0) {
		char *p = strrchr(buf, ')');
		unsigned long ut, st;

		if (p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
				&ut, &st) == 2)
			return (uint64_t)(ut + st) * (1000000000ull / sysconf(_SC_CLK_TCK));
	}
	return 0;
}

/* Spin forever (or until killed). */
static inline void __attribute__((noreturn)) hog(void)
{
	volatile unsigned long x = 0;

	for (;;)
		x++;
}

/* Spin for @ns of wall time. */
static inline void spin_for(uint64_t ns)
{
	uint64_t end = now_ns() + ns;
	volatile unsigned long x = 0;

	while (now_ns() < end)
		x++;
}

/* Fork a child that applies @policy/@nice/@cpu (cpu < 0: any) and hogs. */
static inline pid_t spawn_hog(int policy, int nice_val, int cpu)
{
	pid_t pid = fork();

	if (pid == 0) {
		if (cpu >= 0 && pin_to(0, cpu))
			_exit(2);
		if (set_policy(0, policy, 0))
			_exit(3);
		if (setpriority(PRIO_PROCESS, 0, nice_val))
			_exit(4);
		hog();
	}
	return pid;
}

static inline void kill_wait(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}

/* The preemption model in force, from debugfs or the command line. */
static inline int preempt_model_none(void)
{
	char buf[256];

	if (read_file("/sys/kernel/debug/sched/preempt", buf, sizeof(buf)) > 0)
		return strstr(buf, "(none)") != NULL;
	if (read_file("/proc/cmdline", buf, sizeof(buf)) > 0)
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

#endif
