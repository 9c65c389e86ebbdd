// SPDX-License-Identifier: GPL-2.0
/*
 * t_nice: nice values -20..19 set and read back (setpriority/getpriority,
 * nice(), /proc stat), out-of-range values clamp, unprivileged tasks cannot
 * lower their nice, and nice has its effect: two CPU-bound threads pinned on
 * one CPU, nice 0 vs nice 10, the nice 0 one gets clearly more CPU (> 2x);
 * likewise NORMAL vs SCHED_IDLE (> 10x), and NORMAL vs BATCH at equal nice
 * share about evenly (within 3x).
 */
#include "tlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define WARMUP 0.3
#define WINDOW 2.0

static int stat_nice(pid_t tid)
{
	struct tl_taskstat st;

	return tl_read_taskstat(tid, &st) ? 99 : (int)st.nice;
}

static void test_range(void)
{
	pid_t me = tl_gettid();
	int v, r;

	for (v = -20; v <= 19; v++) {
		if (setpriority(PRIO_PROCESS, 0, v)) {
			tl_fail("setpriority(%d): %s", v, tl_errname(errno));
			continue;
		}
		errno = 0;
		r = getpriority(PRIO_PROCESS, 0);
		TL_CHECK(r == v && errno == 0, "setpriority(%d): getpriority=%d", v, r);
		TL_CHECK(stat_nice(me) == v, "setpriority(%d): /proc stat nice=%d", v,
			 stat_nice(me));
	}
	/* out of range clamps */
	setpriority(PRIO_PROCESS, 0, -100);
	r = getpriority(PRIO_PROCESS, 0);
	TL_CHECK(r == -20, "setpriority(-100) gave nice %d, want -20", r);
	setpriority(PRIO_PROCESS, 0, 100);
	r = getpriority(PRIO_PROCESS, 0);
	TL_CHECK(r == 19, "setpriority(100) gave nice %d, want 19", r);

	/* nice() is relative and clamps too */
	setpriority(PRIO_PROCESS, 0, 0);
	errno = 0;
	r = nice(5);
	TL_CHECK(r == 5 && errno == 0, "nice(5) from 0 returned %d", r);
	r = nice(100);
	TL_CHECK(r == 19, "nice(+100) returned %d, want 19", r);
	errno = 0;
	r = nice(-100);
	TL_CHECK(r == -20 && errno == 0, "nice(-100) as root returned %d, want -20", r);
	setpriority(PRIO_PROCESS, 0, 0);

	/* errors */
	TL_EXPECT_ERRNO(setpriority(PRIO_PROCESS, 0x3fffffff, 0), ESRCH,
			"setpriority(nonexistent pid)");
	TL_EXPECT_ERRNO(setpriority(42, 0, 0), EINVAL, "setpriority(which=42)");
}

/* An unprivileged task may raise but not lower its nice value. */
static void test_unprivileged(void)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		tl_die("fork: %s", tl_errname(errno));
	if (pid == 0) {
		struct rlimit rl = { 0, 0 };

		if (setrlimit(RLIMIT_NICE, &rl) || setgid(65534) || setuid(65534))
			_exit(10);
		if (setpriority(PRIO_PROCESS, 0, 10))
			_exit(11);
		if (setpriority(PRIO_PROCESS, 0, 5) == 0 || errno != EACCES)
			_exit(12);
		if (getpriority(PRIO_PROCESS, 0) != 10)
			_exit(13);
		if (setpriority(PRIO_PROCESS, 1, 19) == 0 || errno != EPERM)
			_exit(14); /* someone else's (init's) nice */
		_exit(0);
	}
	waitpid(pid, &status, 0);
	TL_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		 "unprivileged nice rules: child status %#x (10 setup, 11 raise "
		 "refused, 12 lower allowed, 13 readback, 14 other's nice)",
		 status);
}

/* Two spinners pinned to one CPU; returns cpu share ratio a/b. */
static double contend(int cpu, int pol_a, int nice_a, int pol_b, int nice_b,
		      double *cpu_a, double *cpu_b)
{
	struct tl_spinner a = { 0 }, b = { 0 };
	struct sched_param sp = { 0 };
	double a0, b0, a1, b1;
	int rc;

	if ((rc = tl_spinner_start(&a, cpu, nice_a, 1)) ||
	    (rc = tl_spinner_start(&b, cpu, nice_b, 1)))
		tl_die("spinner setup (cpu %d): %s", cpu, tl_errname(rc));
	if (pol_a != SCHED_OTHER && sched_setscheduler(a.tid, pol_a, &sp))
		tl_die("sched_setscheduler(%s): %s", tl_policy_name(pol_a),
		       tl_errname(errno));
	if (pol_b != SCHED_OTHER && sched_setscheduler(b.tid, pol_b, &sp))
		tl_die("sched_setscheduler(%s): %s", tl_policy_name(pol_b),
		       tl_errname(errno));
	TL_CHECK(stat_nice(a.tid) == nice_a && stat_nice(b.tid) == nice_b,
		 "spinner nice readback %d/%d, want %d/%d", stat_nice(a.tid),
		 stat_nice(b.tid), nice_a, nice_b);
	tl_spinner_go(&a);
	tl_spinner_go(&b);
	tl_sleep(WARMUP);
	a0 = tl_pthread_cputime(a.th);
	b0 = tl_pthread_cputime(b.th);
	tl_sleep(WINDOW);
	a1 = tl_pthread_cputime(a.th);
	b1 = tl_pthread_cputime(b.th);
	TL_CHECK(atomic_load(&a.last_cpu) == cpu && atomic_load(&b.last_cpu) == cpu,
		 "pinned spinners seen on CPUs %d/%d, want %d",
		 atomic_load(&a.last_cpu), atomic_load(&b.last_cpu), cpu);
	tl_spinner_stop(&a);
	tl_spinner_stop(&b);
	*cpu_a = a1 - a0;
	*cpu_b = b1 - b0;
	if (*cpu_a + *cpu_b < 0.05 * WINDOW)
		tl_fail("spinners got only %.3fs CPU in %.1fs", *cpu_a + *cpu_b, WINDOW);
	return *cpu_b > 0 ? *cpu_a / *cpu_b : 1e9;
}

int main(void)
{
	double r_nice, r_idle, r_batch, a, b;
	char m_nice[64], m_idle[64], m_batch[64];
	int cpus[CPU_SETSIZE], n, cpu;

	tl_init("t_nice");
	if (geteuid() != 0)
		tl_skip("needs root (negative nice values)");
	test_range();
	test_unprivileged();

	n = tl_usable_cpus(cpus, CPU_SETSIZE);
	if (n < 1)
		tl_die("no usable CPU");
	cpu = cpus[n - 1];

	r_nice = contend(cpu, SCHED_OTHER, 0, SCHED_OTHER, 10, &a, &b);
	snprintf(m_nice, sizeof(m_nice), "%.3fs/%.3fs", a, b);
	TL_CHECK(r_nice > 2.0, "nice 0 vs nice 10 on CPU %d: CPU %s = ratio %.2f, want > 2",
		 cpu, m_nice, r_nice);

	r_idle = contend(cpu, SCHED_OTHER, 0, SCHED_IDLE, 0, &a, &b);
	snprintf(m_idle, sizeof(m_idle), "%.3fs/%.3fs", a, b);
	TL_CHECK(r_idle > 10.0, "NORMAL vs SCHED_IDLE on CPU %d: CPU %s = ratio %.2f, want > 10",
		 cpu, m_idle, r_idle);

	r_batch = contend(cpu, SCHED_OTHER, 0, SCHED_BATCH, 0, &a, &b);
	snprintf(m_batch, sizeof(m_batch), "%.3fs/%.3fs", a, b);
	TL_CHECK(r_batch > 1.0 / 3 && r_batch < 3.0,
		 "NORMAL vs BATCH (both nice 0) on CPU %d: CPU %s = ratio %.2f, want 1/3..3",
		 cpu, m_batch, r_batch);

	return tl_finish("nice -20..19 readback, clamping, unprivileged EACCES checked; on CPU %d over %.1fs: "
			 "nice0/nice10 %s = %.2fx (>2), NORMAL/IDLE %s = %.1fx (>10), "
			 "NORMAL/BATCH %s = %.2fx (1/3..3)",
			 cpu, WINDOW, m_nice, r_nice, m_idle, r_idle, m_batch, r_batch);
}
