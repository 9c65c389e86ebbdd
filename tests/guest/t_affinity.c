// SPDX-License-Identifier: GPL-2.0
/*
 * t_affinity: sched_setaffinity() to each online CPU in turn keeps a busy
 * thread on exactly that CPU (sched_getcpu() sampled for a period), whether
 * it pins itself, is moved by another thread while running, or is moved
 * while asleep and then woken; multi-CPU masks exclude the missing CPU;
 * fork/pthread_create inherit the mask; empty/offline-only masks give
 * EINVAL and leave the mask unchanged; a dead pid gives ESRCH.
 */
#include "tlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define PERIOD 0.25 /* seconds of sampling per CPU */

static int cpus[CPU_SETSIZE], ncpu;
static unsigned long total_samples;

/* Spin for `secs`, sampling sched_getcpu(); returns samples outside `set`. */
static unsigned long spin_sample(double secs, const cpu_set_t *set,
				 unsigned long *samples, int *bad_cpu)
{
	double end = tl_now() + secs;
	unsigned long bad = 0, n = 0;

	while (tl_now() < end) {
		int c = sched_getcpu();

		n++;
		if (!tl_cpu_is_set(c, set)) {
			bad++;
			*bad_cpu = c;
		}
		tl_spin(2000);
	}
	*samples = n;
	return bad;
}

static void one_cpu_set(cpu_set_t *set, int cpu)
{
	CPU_ZERO(set);
	CPU_SET(cpu, set);
}

/* 1. the calling thread pins itself to each CPU */
static void test_self(void)
{
	for (int i = 0; i < ncpu; i++) {
		cpu_set_t set, got;
		unsigned long n, bad;
		int bad_cpu = -1;
		char b1[64], b2[64];
		struct tl_taskstat st;

		one_cpu_set(&set, cpus[i]);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			tl_fail("self setaffinity(cpu %d): %s", cpus[i],
				tl_errname(errno));
			continue;
		}
		if (sched_getaffinity(0, sizeof(got), &got) || !CPU_EQUAL(&set, &got))
			tl_fail("self getaffinity after pin %s = %s",
				tl_cpulist(&set, b1, sizeof(b1)),
				tl_cpulist(&got, b2, sizeof(b2)));
		bad = spin_sample(PERIOD, &set, &n, &bad_cpu);
		total_samples += n;
		TL_CHECK(bad == 0, "self pinned to CPU %d: %lu of %lu samples on other CPUs (e.g. %d)",
			 cpus[i], bad, n, bad_cpu);
		TL_CHECK(n > 10, "self pinned to CPU %d: only %lu samples", cpus[i], n);
		if (tl_read_taskstat(tl_gettid(), &st) == 0)
			TL_CHECK(st.processor == cpus[i],
				 "/proc stat processor=%d while pinned to %d",
				 st.processor, cpus[i]);
	}
}

/* 2. another thread moves a running spinner around */
static void test_remote(void)
{
	struct tl_spinner s = { 0 };
	int rc = tl_spinner_start(&s, -1, 0, 0);

	if (rc)
		tl_die("spinner: %s", tl_errname(rc));
	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < ncpu; i++) {
			int cpu = cpus[(i + round) % ncpu];
			unsigned long r0, n = 0, bad = 0;
			int last = -1;
			double end;

			if (tl_pin_tid(s.tid, cpu)) {
				tl_fail("setaffinity(spinner, cpu %d): %s", cpu,
					tl_errname(errno));
				continue;
			}
			/* every round finished after the call returned ran on cpu */
			r0 = atomic_load(&s.rounds);
			end = tl_now() + 5;
			while (atomic_load(&s.rounds) < r0 + 2 && tl_now() < end)
				tl_sleep(0.0005);
			if (atomic_load(&s.rounds) < r0 + 2) {
				tl_fail("spinner made no progress on CPU %d in 5s", cpu);
				continue;
			}
			end = tl_now() + PERIOD / 2;
			while (tl_now() < end) {
				int c = atomic_load(&s.last_cpu);

				n++;
				if (c != cpu) {
					bad++;
					last = c;
				}
				tl_sleep(0.001);
			}
			total_samples += n;
			TL_CHECK(bad == 0, "spinner moved to CPU %d: seen %lu/%lu times on CPU %d",
				 cpu, bad, n, last);
		}
	}
	/* a mask of all but one CPU: the excluded one is never used */
	if (ncpu >= 2) {
		cpu_set_t set;
		unsigned long r0, n = 0, bad = 0;
		double end;

		CPU_ZERO(&set);
		for (int i = 1; i < ncpu; i++)
			CPU_SET(cpus[i], &set);
		if (sched_setaffinity(s.tid, sizeof(set), &set))
			tl_fail("setaffinity(spinner, all but %d): %s", cpus[0],
				tl_errname(errno));
		r0 = atomic_load(&s.rounds);
		end = tl_now() + 5;
		while (atomic_load(&s.rounds) < r0 + 2 && tl_now() < end)
			tl_sleep(0.0005);
		TL_CHECK(atomic_load(&s.rounds) >= r0 + 2,
			 "spinner made no progress on all-but-%d mask in 5s", cpus[0]);
		end = tl_now() + PERIOD;
		while (tl_now() < end) {
			n++;
			if (atomic_load(&s.last_cpu) == cpus[0])
				bad++;
			tl_sleep(0.001);
		}
		TL_CHECK(bad == 0, "spinner excluded from CPU %d seen there %lu/%lu times",
			 cpus[0], bad, n);
	}
	tl_spinner_stop(&s);
}

/* 3. a sleeping thread is moved, then woken: it must wake on the new CPU */
struct sleeper {
	int pfd[2], rfd[2];
	pthread_t th;
	pid_t tid;
};

static void *sleeper_main(void *arg)
{
	struct sleeper *s = arg;
	char c;

	s->tid = tl_gettid();
	while (read(s->pfd[0], &c, 1) == 1 && c != 'q') {
		int cpu = sched_getcpu();

		tl_spin(1000);
		if (write(s->rfd[1], &cpu, sizeof(cpu)) != sizeof(cpu))
			break;
	}
	return NULL;
}

static void test_wakeup(void)
{
	struct sleeper s;
	int woken = 0;

	if (pipe(s.pfd) || pipe(s.rfd))
		tl_die("pipe: %s", tl_errname(errno));
	s.tid = 0;
	pthread_create(&s.th, NULL, sleeper_main, &s);
	while (!__atomic_load_n(&s.tid, __ATOMIC_ACQUIRE))
		tl_sleep(0.001);
	for (int round = 0; round < 5; round++) {
		for (int i = 0; i < ncpu; i++) {
			int cpu = cpus[(i * 7 + round) % ncpu], got = -1;

			tl_sleep(0.002); /* let it block in read() */
			if (tl_pin_tid(s.tid, cpu)) {
				tl_fail("setaffinity(sleeper, %d): %s", cpu,
					tl_errname(errno));
				continue;
			}
			if (write(s.pfd[1], "w", 1) != 1 ||
			    read(s.rfd[0], &got, sizeof(got)) != sizeof(got))
				tl_die("sleeper pipe broke");
			woken++;
			TL_CHECK(got == cpu, "sleeper moved to CPU %d while blocked woke on CPU %d",
				 cpu, got);
		}
	}
	if (write(s.pfd[1], "q", 1) != 1)
		tl_fail("sleeper quit write");
	pthread_join(s.th, NULL);
	close(s.pfd[0]); close(s.pfd[1]); close(s.rfd[0]); close(s.rfd[1]);
	TL_CHECK(woken == 5 * ncpu, "only %d wakeups", woken);
}

/* 4. fork and pthread_create inherit the mask */
static void *inherit_thread(void *arg)
{
	cpu_set_t got;

	tl_spin(100000);
	*(int *)arg = sched_getaffinity(0, sizeof(got), &got) == 0 &&
			      CPU_COUNT(&got) == 1 && CPU_ISSET(cpus[ncpu - 1], &got) &&
			      sched_getcpu() == cpus[ncpu - 1];
	return NULL;
}

static void test_inherit(void)
{
	int cpu = cpus[ncpu - 1], ok = 0, status;
	cpu_set_t set;
	pthread_t th;
	pid_t pid;

	one_cpu_set(&set, cpu);
	if (sched_setaffinity(0, sizeof(set), &set))
		tl_die("setaffinity(%d): %s", cpu, tl_errname(errno));
	pthread_create(&th, NULL, inherit_thread, &ok);
	pthread_join(th, NULL);
	TL_CHECK(ok, "pthread_create child did not inherit mask {%d} / ran elsewhere", cpu);
	pid = fork();
	if (pid == 0) {
		cpu_set_t got;
		unsigned long n, bad;
		int bad_cpu = -1;

		if (sched_getaffinity(0, sizeof(got), &got) || !CPU_EQUAL(&got, &set))
			_exit(2);
		bad = spin_sample(0.05, &set, &n, &bad_cpu);
		_exit(bad ? 3 : 0);
	}
	waitpid(pid, &status, 0);
	TL_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		 "forked child of a task pinned to %d: status %#x (2 mask differs, 3 ran elsewhere)",
		 cpu, status);
}

/* 5. bad masks */
static void test_errors(const cpu_set_t *orig)
{
	cpu_set_t set, online, got;
	int off = -1;
	char b1[64], b2[64];

	if (sched_setaffinity(0, sizeof(*orig), orig))
		tl_die("restore affinity: %s", tl_errname(errno));
	CPU_ZERO(&set);
	TL_EXPECT_ERRNO(sched_setaffinity(0, sizeof(set), &set), EINVAL,
			"setaffinity(empty mask)");
	if (tl_online_set(&online) < 0)
		tl_die("cannot read /sys/devices/system/cpu/online");
	for (int c = CPU_SETSIZE - 1; c >= 0; c--)
		if (!CPU_ISSET(c, &online)) {
			off = c;
			break;
		}
	/* the highest non-online CPU number, and one right after the online ones */
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (!CPU_ISSET(c, &online)) {
			one_cpu_set(&set, c);
			TL_EXPECT_ERRNO(sched_setaffinity(0, sizeof(set), &set),
					EINVAL, "setaffinity(first offline/absent CPU only)");
			break;
		}
	if (off >= 0) {
		one_cpu_set(&set, off);
		TL_EXPECT_ERRNO(sched_setaffinity(0, sizeof(set), &set), EINVAL,
				"setaffinity(highest absent CPU only)");
	}
	TL_EXPECT_ERRNO(sched_getaffinity(0, 1, &got), EINVAL, "getaffinity(size 1)");
	TL_EXPECT_ERRNO(sched_setaffinity(0x3fffffff, sizeof(*orig), orig), ESRCH,
			"setaffinity(nonexistent pid)");
	TL_EXPECT_ERRNO(sched_getaffinity(0x3fffffff, sizeof(got), &got), ESRCH,
			"getaffinity(nonexistent pid)");
	if (sched_getaffinity(0, sizeof(got), &got) || !CPU_EQUAL(&got, orig))
		tl_fail("mask changed by rejected calls: %s, was %s",
			tl_cpulist(&got, b1, sizeof(b1)), tl_cpulist(orig, b2, sizeof(b2)));
}

int main(void)
{
	cpu_set_t orig;
	char buf[256];

	tl_init("t_affinity");
	if (sched_getaffinity(0, sizeof(orig), &orig))
		tl_die("getaffinity: %s", tl_errname(errno));
	ncpu = tl_usable_cpus(cpus, CPU_SETSIZE);
	if (ncpu < 1)
		tl_die("no usable CPUs");
	test_self();
	test_remote();
	test_wakeup();
	test_inherit();
	test_errors(&orig);
	sched_setaffinity(0, sizeof(orig), &orig);
	return tl_finish("%d CPU(s) [%s]: self-pin, remote move of a running thread, "
			 "move-while-asleep+wakeup, all-but-one mask, fork/thread "
			 "inheritance: %lu sched_getcpu samples checked against the allowed CPUs; "
			 "empty/offline masks -> EINVAL, dead pid -> ESRCH checked",
			 ncpu, tl_cpulist(&orig, buf, sizeof(buf)), total_samples);
}
