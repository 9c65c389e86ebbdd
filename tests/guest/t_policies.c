// SPDX-License-Identifier: GPL-2.0
/*
 * t_policies: every scheduling policy can be set with sched_setscheduler()
 * and sched_setattr() and reads back identically through
 * sched_getscheduler()/sched_getparam()/sched_getattr() and
 * /proc/self/task/TID/stat; bad input fails with mainline 6.12's errno and
 * leaves the task unchanged; SCHED_RESET_ON_FORK children come back as
 * NORMAL (and without it they inherit, or fork fails for DEADLINE).
 */
#include "tlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MS 1000000ULL

static int nchecks;

/* What a task looks like, from every interface that shows it. */
struct view {
	int policy;        /* sched_getscheduler (with RESET_ON_FORK bit) */
	int prio;          /* sched_getparam */
	int nice;          /* getpriority */
	struct tl_sched_attr attr;
	int attr_rc;
	struct tl_taskstat st;
	int st_rc;
};

static void get_view(struct view *v)
{
	struct sched_param sp = { 0 };

	memset(v, 0, sizeof(*v));
	v->policy = sched_getscheduler(0);
	v->prio = sched_getparam(0, &sp) ? -1 : sp.sched_priority;
	errno = 0;
	v->nice = getpriority(PRIO_PROCESS, 0);
	v->attr_rc = tl_sched_getattr(0, &v->attr, sizeof(v->attr), 0);
	v->st_rc = tl_read_taskstat(tl_gettid(), &v->st);
}

/* Check all views agree with (policy, prio, nice); nice < -20 = don't care. */
static void expect_view(const char *how, int policy, int prio, int nice,
			int reset_on_fork)
{
	struct view v;
	int want_sched = policy | (reset_on_fork ? SCHED_RESET_ON_FORK : 0);

	nchecks++;
	get_view(&v);
	TL_CHECK(v.policy == want_sched,
		 "%s: sched_getscheduler=%#x, want %#x (%s)", how, v.policy,
		 want_sched, tl_policy_name(policy));
	TL_CHECK(v.prio == prio, "%s: sched_getparam prio=%d, want %d", how,
		 v.prio, prio);
	if (v.attr_rc) {
		tl_fail("%s: sched_getattr: %s", how, tl_errname(errno));
	} else {
		TL_CHECK((int)v.attr.sched_policy == policy,
			 "%s: sched_getattr policy=%u, want %d", how,
			 v.attr.sched_policy, policy);
		TL_CHECK((int)v.attr.sched_priority == prio,
			 "%s: sched_getattr priority=%u, want %d", how,
			 v.attr.sched_priority, prio);
		TL_CHECK(!!(v.attr.sched_flags & TL_SCHED_FLAG_RESET_ON_FORK) ==
				 !!reset_on_fork,
			 "%s: sched_getattr flags=%#llx, reset_on_fork want %d",
			 how, (unsigned long long)v.attr.sched_flags,
			 reset_on_fork);
		if (nice >= -20 && policy != SCHED_FIFO && policy != SCHED_RR &&
		    policy != SCHED_DEADLINE)
			TL_CHECK(v.attr.sched_nice == nice,
				 "%s: sched_getattr nice=%d, want %d", how,
				 v.attr.sched_nice, nice);
	}
	if (nice >= -20)
		TL_CHECK(v.nice == nice, "%s: getpriority=%d, want %d", how,
			 v.nice, nice);
	if (v.st_rc) {
		tl_fail("%s: cannot parse /proc/self/task/TID/stat", how);
	} else {
		TL_CHECK((int)v.st.policy == policy,
			 "%s: /proc stat policy=%lu, want %d", how, v.st.policy,
			 policy);
		TL_CHECK((int)v.st.rt_priority == prio,
			 "%s: /proc stat rt_priority=%lu, want %d", how,
			 v.st.rt_priority, prio);
	}
}

static int set_sched(int policy, int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	return sched_setscheduler(0, policy, &sp);
}

static void back_to_normal(void)
{
	struct tl_sched_attr a = { .size = sizeof(a), .sched_policy = SCHED_OTHER };

	if (tl_sched_setattr(0, &a, 0))
		tl_die("cannot return to SCHED_NORMAL nice 0: %s",
		       tl_errname(errno));
}

static struct tl_sched_attr dl_attr(uint64_t rt, uint64_t dl, uint64_t per)
{
	struct tl_sched_attr a = {
		.size = sizeof(a), .sched_policy = SCHED_DEADLINE,
		.sched_runtime = rt, .sched_deadline = dl, .sched_period = per,
	};
	return a;
}

/* ---- 1. sched_setscheduler for every policy ------------------------------ */
static void test_setscheduler(void)
{
	static const int fair[] = { SCHED_OTHER, SCHED_BATCH, SCHED_IDLE };
	char how[64];
	struct timespec ts;

	for (unsigned i = 0; i < sizeof(fair) / sizeof(fair[0]); i++) {
		snprintf(how, sizeof(how), "setscheduler(%s)",
			 tl_policy_name(fair[i]));
		if (set_sched(fair[i], 0))
			tl_fail("%s: %s", how, tl_errname(errno));
		else
			expect_view(how, fair[i], 0, 0, 0);
	}
	for (int prio = 1; prio <= 99; prio++) {
		snprintf(how, sizeof(how), "setscheduler(FIFO,%d)", prio);
		if (set_sched(SCHED_FIFO, prio))
			tl_fail("%s: %s", how, tl_errname(errno));
		else
			expect_view(how, SCHED_FIFO, prio, -100, 0);
	}
	for (int prio = 1; prio <= 99; prio += 49) {
		snprintf(how, sizeof(how), "setscheduler(RR,%d)", prio);
		if (set_sched(SCHED_RR, prio)) {
			tl_fail("%s: %s", how, tl_errname(errno));
			continue;
		}
		expect_view(how, SCHED_RR, prio, -100, 0);
		if (sched_rr_get_interval(0, &ts))
			tl_fail("sched_rr_get_interval(RR): %s", tl_errname(errno));
		else
			TL_CHECK((ts.tv_sec > 0 || ts.tv_nsec > 0) && ts.tv_sec < 10,
				 "RR timeslice %ld.%09lds not in (0,10s)",
				 (long)ts.tv_sec, ts.tv_nsec);
	}
	/* sched_setparam changes the priority within the policy */
	{
		struct sched_param sp = { .sched_priority = 33 };

		if (sched_setparam(0, &sp))
			tl_fail("sched_setparam(RR,33): %s", tl_errname(errno));
		else
			expect_view("setparam(33) under RR", SCHED_RR, 33, -100, 0);
	}
	if (set_sched(SCHED_OTHER, 0))
		tl_fail("setscheduler(RR->NORMAL): %s", tl_errname(errno));
	expect_view("setscheduler(RR->NORMAL)", SCHED_OTHER, 0, 0, 0);
}

/* ---- 2. sched_setattr for every policy ---------------------------------- */
static void test_setattr(void)
{
	struct tl_sched_attr a;
	struct view v;

	a = (struct tl_sched_attr){ .size = sizeof(a), .sched_policy = SCHED_OTHER,
				    .sched_nice = 7 };
	if (tl_sched_setattr(0, &a, 0))
		tl_fail("setattr(NORMAL,nice 7): %s", tl_errname(errno));
	else
		expect_view("setattr(NORMAL,nice 7)", SCHED_OTHER, 0, 7, 0);

	a = (struct tl_sched_attr){ .size = sizeof(a), .sched_policy = SCHED_BATCH,
				    .sched_nice = -3 };
	if (tl_sched_setattr(0, &a, 0))
		tl_fail("setattr(BATCH,nice -3): %s", tl_errname(errno));
	else
		expect_view("setattr(BATCH,nice -3)", SCHED_BATCH, 0, -3, 0);

	/* KEEP_POLICY: only nice changes, policy stays BATCH */
	a = (struct tl_sched_attr){ .size = sizeof(a), .sched_nice = 4,
				    .sched_flags = TL_SCHED_FLAG_KEEP_POLICY };
	if (tl_sched_setattr(0, &a, 0))
		tl_fail("setattr(KEEP_POLICY,nice 4): %s", tl_errname(errno));
	else
		expect_view("setattr(KEEP_POLICY,nice 4)", SCHED_BATCH, 0, 4, 0);

	/* nice is clamped to -20..19 by sched_setattr */
	a = (struct tl_sched_attr){ .size = sizeof(a), .sched_policy = SCHED_OTHER,
				    .sched_nice = 40 };
	if (tl_sched_setattr(0, &a, 0))
		tl_fail("setattr(NORMAL,nice 40): %s", tl_errname(errno));
	else
		expect_view("setattr(NORMAL,nice 40) clamps", SCHED_OTHER, 0, 19, 0);

	/* (mainline keeps the old nice when switching to IDLE: start from 0) */
	back_to_normal();
	a = (struct tl_sched_attr){ .size = sizeof(a), .sched_policy = SCHED_IDLE };
	if (tl_sched_setattr(0, &a, 0))
		tl_fail("setattr(IDLE): %s", tl_errname(errno));
	else
		expect_view("setattr(IDLE)", SCHED_IDLE, 0, 0, 0);

	a = (struct tl_sched_attr){ .size = sizeof(a), .sched_policy = SCHED_FIFO,
				    .sched_priority = 42 };
	if (tl_sched_setattr(0, &a, 0))
		tl_fail("setattr(FIFO,42): %s", tl_errname(errno));
	else
		expect_view("setattr(FIFO,42)", SCHED_FIFO, 42, -100, 0);

	a = (struct tl_sched_attr){ .size = sizeof(a), .sched_policy = SCHED_RR,
				    .sched_priority = 99 };
	if (tl_sched_setattr(0, &a, 0))
		tl_fail("setattr(RR,99): %s", tl_errname(errno));
	else
		expect_view("setattr(RR,99)", SCHED_RR, 99, -100, 0);

	/* size 0 is the ABI quirk for VER0 */
	a = (struct tl_sched_attr){ .size = 0, .sched_policy = SCHED_OTHER };
	if (tl_sched_setattr(0, &a, 0))
		tl_fail("setattr(size 0 = VER0): %s", tl_errname(errno));
	else
		expect_view("setattr(size 0)", SCHED_OTHER, 0, 0, 0);

	/* DEADLINE 10 ms every 100 ms, deadline 30 ms */
	a = dl_attr(10 * MS, 30 * MS, 100 * MS);
	if (tl_sched_setattr(0, &a, 0)) {
		tl_fail("setattr(DEADLINE 10/30/100ms): %s", tl_errname(errno));
	} else {
		expect_view("setattr(DEADLINE)", SCHED_DEADLINE, 0, -100, 0);
		get_view(&v);
		TL_CHECK(v.attr_rc == 0 && v.attr.sched_runtime == 10 * MS &&
				 v.attr.sched_deadline == 30 * MS &&
				 v.attr.sched_period == 100 * MS,
			 "DEADLINE readback runtime/deadline/period = %llu/%llu/%llu ns, want 10/30/100 ms",
			 (unsigned long long)v.attr.sched_runtime,
			 (unsigned long long)v.attr.sched_deadline,
			 (unsigned long long)v.attr.sched_period);
		/* a DEADLINE task may not shrink its affinity */
		cpu_set_t one;
		int cpus[2];
		if (tl_usable_cpus(cpus, 2) == 2) {
			CPU_ZERO(&one);
			CPU_SET(cpus[0], &one);
			TL_EXPECT_ERRNO(sched_setaffinity(0, sizeof(one), &one),
					EBUSY, "DEADLINE task sched_setaffinity(1 CPU)");
		}
		/* period 0 means period = deadline */
		a = dl_attr(5 * MS, 50 * MS, 0);
		if (tl_sched_setattr(0, &a, 0))
			tl_fail("setattr(DEADLINE 5/50/0ms): %s", tl_errname(errno));
		get_view(&v);
		TL_CHECK(v.attr_rc == 0 && v.attr.sched_period == 50 * MS &&
				 v.attr.sched_runtime == 5 * MS,
			 "DEADLINE period 0 readback period=%llu runtime=%llu, want 50/5 ms",
			 (unsigned long long)v.attr.sched_period,
			 (unsigned long long)v.attr.sched_runtime);
	}
	back_to_normal();
	expect_view("setattr(DEADLINE->NORMAL)", SCHED_OTHER, 0, 0, 0);

	/* sched_getattr: VER0-sized buffer works and says so; a big one gets
	 * the kernel's size */
	{
		unsigned char big[256];
		struct tl_sched_attr *b = (struct tl_sched_attr *)big;

		memset(big, 0xff, sizeof(big));
		if (tl_sched_getattr(0, b, TL_SCHED_ATTR_SIZE_VER0, 0))
			tl_fail("getattr(size 48): %s", tl_errname(errno));
		else
			TL_CHECK(b->size == TL_SCHED_ATTR_SIZE_VER0 &&
					 b->sched_policy == SCHED_OTHER &&
					 big[TL_SCHED_ATTR_SIZE_VER0] == 0xff,
				 "getattr(size 48) wrote size=%u policy=%u byte48=%#x",
				 b->size, b->sched_policy, big[48]);
		memset(big, 0xff, sizeof(big));
		if (tl_sched_getattr(0, b, sizeof(big), 0))
			tl_fail("getattr(size 256): %s", tl_errname(errno));
		else
			TL_CHECK(b->size >= TL_SCHED_ATTR_SIZE_VER1 &&
					 b->size < sizeof(big),
				 "getattr(size 256) reported size %u, want kernel size (>=56,<256)",
				 b->size);
	}
}

/* ---- 3. bad input -------------------------------------------------------- */
static pid_t dead_pid(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	if (pid < 0)
		tl_die("fork: %s", tl_errname(errno));
	waitpid(pid, NULL, 0);
	if (kill(pid, 0) == 0 || errno != ESRCH)
		return 0;
	return pid;
}

static void test_errors(void)
{
	struct sched_param sp = { 0 };
	struct tl_sched_attr a;
	struct stat sb;
	int ext = stat("/sys/kernel/sched_ext", &sb) == 0;
	int bad_policies[] = { -1, 7, 8, 100, 0x1000 };
	char how[80];

	back_to_normal();
	for (unsigned i = 0; i < sizeof(bad_policies) / sizeof(int); i++) {
		int pol = bad_policies[i];

		if (pol == 7 && ext) /* SCHED_EXT is valid when sched_ext is built */
			continue;
		snprintf(how, sizeof(how), "sched_setscheduler(policy %d)", pol);
		TL_EXPECT_ERRNO(sched_setscheduler(0, pol, &sp), EINVAL, how);
		a = (struct tl_sched_attr){ .size = sizeof(a),
					    .sched_policy = (uint32_t)pol };
		snprintf(how, sizeof(how), "sched_setattr(policy %d)", pol);
		TL_EXPECT_ERRNO(tl_sched_setattr(0, &a, 0), EINVAL, how);
	}
	TL_EXPECT_ERRNO(set_sched(SCHED_FIFO, 0), EINVAL, "FIFO prio 0");
	TL_EXPECT_ERRNO(set_sched(SCHED_FIFO, 100), EINVAL, "FIFO prio 100");
	TL_EXPECT_ERRNO(set_sched(SCHED_RR, 0), EINVAL, "RR prio 0");
	TL_EXPECT_ERRNO(set_sched(SCHED_RR, -1), EINVAL, "RR prio -1");
	TL_EXPECT_ERRNO(set_sched(SCHED_OTHER, 1), EINVAL, "NORMAL prio 1");
	TL_EXPECT_ERRNO(set_sched(SCHED_BATCH, 1), EINVAL, "BATCH prio 1");
	TL_EXPECT_ERRNO(set_sched(SCHED_IDLE, 1), EINVAL, "IDLE prio 1");
	TL_EXPECT_ERRNO(sched_setscheduler(-1, SCHED_OTHER, &sp), EINVAL,
			"sched_setscheduler(pid -1)");
	a = (struct tl_sched_attr){ .size = sizeof(a), .sched_policy = SCHED_FIFO,
				    .sched_priority = 100 };
	TL_EXPECT_ERRNO(tl_sched_setattr(0, &a, 0), EINVAL, "setattr FIFO prio 100");
	a = (struct tl_sched_attr){ .size = sizeof(a), .sched_policy = SCHED_OTHER,
				    .sched_priority = 1 };
	TL_EXPECT_ERRNO(tl_sched_setattr(0, &a, 0), EINVAL, "setattr NORMAL prio 1");

	/* size smaller than VER0: E2BIG, and the kernel writes its size back */
	a = (struct tl_sched_attr){ .size = 1, .sched_policy = SCHED_OTHER };
	TL_EXPECT_ERRNO(tl_sched_setattr(0, &a, 0), E2BIG, "setattr size 1");
	TL_CHECK(a.size >= TL_SCHED_ATTR_SIZE_VER0 && a.size <= 4096,
		 "setattr size 1: kernel wrote back size %u, want its own (>=48)",
		 a.size);
	{
		/* larger than the kernel knows: fine if the tail is zero,
		 * E2BIG if not */
		unsigned char big[128];
		struct tl_sched_attr *b = (struct tl_sched_attr *)big;

		memset(big, 0, sizeof(big));
		b->size = sizeof(big);
		b->sched_policy = SCHED_BATCH;
		if (tl_sched_setattr(0, b, 0))
			tl_fail("setattr size 128 zero tail: %s", tl_errname(errno));
		else
			expect_view("setattr size 128 zero tail", SCHED_BATCH, 0, 0, 0);
		back_to_normal();
		b->sched_policy = SCHED_BATCH;
		big[120] = 1;
		TL_EXPECT_ERRNO(tl_sched_setattr(0, b, 0), E2BIG,
				"setattr size 128 nonzero tail");
		TL_CHECK(b->size >= TL_SCHED_ATTR_SIZE_VER0 && b->size < 128,
			 "setattr nonzero tail: size written back %u", b->size);
	}
	a = (struct tl_sched_attr){ .size = 8192, .sched_policy = SCHED_OTHER };
	TL_EXPECT_ERRNO(tl_sched_setattr(0, &a, 0), E2BIG, "setattr size 8192");
	a = (struct tl_sched_attr){ .size = sizeof(a), .sched_policy = SCHED_OTHER,
				    .sched_flags = 0x80 };
	TL_EXPECT_ERRNO(tl_sched_setattr(0, &a, 0), EINVAL, "setattr sched_flags 0x80");
	a = (struct tl_sched_attr){ .size = sizeof(a), .sched_policy = SCHED_OTHER,
				    .sched_flags = 1ULL << 40 };
	TL_EXPECT_ERRNO(tl_sched_setattr(0, &a, 0), EINVAL, "setattr sched_flags 1<<40");
	a = (struct tl_sched_attr){ .size = sizeof(a), .sched_policy = SCHED_OTHER };
	TL_EXPECT_ERRNO(tl_sched_setattr(0, &a, 1), EINVAL, "setattr syscall flags 1");
	TL_EXPECT_ERRNO(tl_sched_getattr(0, &a, 1, 0), EINVAL, "getattr size 1");
	TL_EXPECT_ERRNO(tl_sched_getattr(0, &a, sizeof(a), 1), EINVAL,
			"getattr syscall flags 1");

	/* DEADLINE parameter checks */
	a = dl_attr(40 * MS, 30 * MS, 100 * MS);
	TL_EXPECT_ERRNO(tl_sched_setattr(0, &a, 0), EINVAL, "DEADLINE runtime > deadline");
	a = dl_attr(10 * MS, 200 * MS, 100 * MS);
	TL_EXPECT_ERRNO(tl_sched_setattr(0, &a, 0), EINVAL, "DEADLINE deadline > period");
	a = dl_attr(10 * MS, 0, 100 * MS);
	TL_EXPECT_ERRNO(tl_sched_setattr(0, &a, 0), EINVAL, "DEADLINE deadline 0");
	a = dl_attr(100, 30 * MS, 100 * MS);
	TL_EXPECT_ERRNO(tl_sched_setattr(0, &a, 0), EINVAL, "DEADLINE runtime 100ns");
	a = dl_attr(10 * MS, 30 * MS, 1ULL << 63);
	TL_EXPECT_ERRNO(tl_sched_setattr(0, &a, 0), EINVAL, "DEADLINE period 2^63");

	/* nonexistent task */
	pid_t dead = dead_pid();
	if (dead) {
		sp.sched_priority = 0;
		TL_EXPECT_ERRNO(sched_setscheduler(dead, SCHED_OTHER, &sp), ESRCH,
				"sched_setscheduler(dead pid)");
		TL_EXPECT_ERRNO(sched_getscheduler(dead), ESRCH,
				"sched_getscheduler(dead pid)");
		TL_EXPECT_ERRNO(sched_getparam(dead, &sp), ESRCH,
				"sched_getparam(dead pid)");
		a = (struct tl_sched_attr){ .size = sizeof(a), .sched_policy = SCHED_OTHER };
		TL_EXPECT_ERRNO(tl_sched_setattr(dead, &a, 0), ESRCH,
				"sched_setattr(dead pid)");
		TL_EXPECT_ERRNO(tl_sched_getattr(dead, &a, sizeof(a), 0), ESRCH,
				"sched_getattr(dead pid)");
	} else {
		tl_fail("could not find a free pid for the ESRCH checks");
	}
	/* none of the failed calls changed anything */
	expect_view("after rejected calls", SCHED_OTHER, 0, 0, 0);
}

/* ---- 4. fork: SCHED_RESET_ON_FORK and inheritance ------------------------ */
struct child_view {
	int fork_errno;
	int policy, prio, nice;
};

static struct child_view fork_probe(void)
{
	struct child_view cv = { 0 };
	int pfd[2];
	pid_t pid;

	if (pipe(pfd))
		tl_die("pipe: %s", tl_errname(errno));
	pid = fork();
	if (pid < 0) {
		cv.fork_errno = errno;
		close(pfd[0]);
		close(pfd[1]);
		return cv;
	}
	if (pid == 0) {
		struct sched_param sp = { 0 };

		cv.policy = sched_getscheduler(0);
		cv.prio = sched_getparam(0, &sp) ? -1 : sp.sched_priority;
		cv.nice = getpriority(PRIO_PROCESS, 0);
		if (write(pfd[1], &cv, sizeof(cv)) != sizeof(cv))
			_exit(2);
		_exit(0);
	}
	close(pfd[1]);
	if (read(pfd[0], &cv, sizeof(cv)) != sizeof(cv))
		tl_fail("fork probe child sent nothing");
	close(pfd[0]);
	waitpid(pid, NULL, 0);
	return cv;
}

static void test_fork(void)
{
	struct tl_sched_attr a;
	struct child_view cv;

	/* FIFO without reset: the child inherits FIFO 10 */
	if (set_sched(SCHED_FIFO, 10))
		tl_fail("setscheduler(FIFO,10): %s", tl_errname(errno));
	cv = fork_probe();
	TL_CHECK(!cv.fork_errno && cv.policy == SCHED_FIFO && cv.prio == 10,
		 "FIFO parent: child policy %d prio %d (fork errno %d), want inherited FIFO 10",
		 cv.policy, cv.prio, cv.fork_errno);

	/* FIFO | RESET_ON_FORK: the parent reports the flag, the child is NORMAL */
	if (set_sched(SCHED_FIFO | SCHED_RESET_ON_FORK, 10))
		tl_fail("setscheduler(FIFO|RESET_ON_FORK,10): %s", tl_errname(errno));
	else
		expect_view("FIFO|RESET_ON_FORK", SCHED_FIFO, 10, -100, 1);
	cv = fork_probe();
	TL_CHECK(!cv.fork_errno && cv.policy == SCHED_OTHER && cv.prio == 0 &&
			 cv.nice == 0,
		 "RESET_ON_FORK FIFO parent: child policy %d prio %d nice %d, want NORMAL 0 nice 0",
		 cv.policy, cv.prio, cv.nice);

	/* NORMAL nice -5 with RESET_ON_FORK (via setattr): child nice 0 */
	a = (struct tl_sched_attr){ .size = sizeof(a), .sched_policy = SCHED_OTHER,
				    .sched_nice = -5,
				    .sched_flags = TL_SCHED_FLAG_RESET_ON_FORK };
	if (tl_sched_setattr(0, &a, 0))
		tl_fail("setattr(NORMAL nice -5 RESET_ON_FORK): %s", tl_errname(errno));
	else
		expect_view("NORMAL nice -5 RESET_ON_FORK", SCHED_OTHER, 0, -5, 1);
	cv = fork_probe();
	TL_CHECK(!cv.fork_errno && cv.policy == SCHED_OTHER && cv.nice == 0,
		 "RESET_ON_FORK nice -5 parent: child policy %d nice %d, want NORMAL nice 0",
		 cv.policy, cv.nice);
	/* and without the flag the negative nice is inherited */
	a.sched_flags = 0;
	if (tl_sched_setattr(0, &a, 0))
		tl_fail("setattr(NORMAL nice -5): %s", tl_errname(errno));
	cv = fork_probe();
	TL_CHECK(!cv.fork_errno && cv.policy == SCHED_OTHER && cv.nice == -5,
		 "nice -5 parent: child policy %d nice %d, want NORMAL nice -5",
		 cv.policy, cv.nice);

	/* DEADLINE: fork refused without RESET_ON_FORK, NORMAL child with it */
	a = dl_attr(10 * MS, 30 * MS, 100 * MS);
	if (tl_sched_setattr(0, &a, 0)) {
		tl_fail("setattr(DEADLINE) for fork test: %s", tl_errname(errno));
	} else {
		cv = fork_probe();
		TL_CHECK(cv.fork_errno == EAGAIN,
			 "fork from DEADLINE task: errno %d policy %d, want EAGAIN",
			 cv.fork_errno, cv.policy);
		a.sched_flags = TL_SCHED_FLAG_RESET_ON_FORK;
		if (tl_sched_setattr(0, &a, 0))
			tl_fail("setattr(DEADLINE|RESET_ON_FORK): %s", tl_errname(errno));
		else
			expect_view("DEADLINE|RESET_ON_FORK", SCHED_DEADLINE, 0, -100, 1);
		cv = fork_probe();
		TL_CHECK(!cv.fork_errno && cv.policy == SCHED_OTHER && cv.prio == 0,
			 "RESET_ON_FORK DEADLINE parent: child policy %d prio %d (fork errno %d), want NORMAL",
			 cv.policy, cv.prio, cv.fork_errno);
	}
	back_to_normal();
}

int main(void)
{
	cpu_set_t all;

	tl_init("t_policies");
	if (geteuid() != 0)
		tl_skip("needs root (RT/DEADLINE policies, negative nice)");
	/* SCHED_DEADLINE admission needs the whole root domain in the mask */
	if (tl_online_set(&all) > 0)
		sched_setaffinity(0, sizeof(all), &all);

	test_setscheduler();
	test_setattr();
	test_errors();
	test_fork();
	return tl_finish("NORMAL/BATCH/IDLE/FIFO 1..99/RR/DEADLINE set+read back via "
			 "4 interfaces (%d views); EINVAL/E2BIG/ESRCH/EBUSY/EAGAIN "
			 "cases; RESET_ON_FORK children NORMAL",
			 nchecks);
}
