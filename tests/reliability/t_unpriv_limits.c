// SPDX-License-Identifier: GPL-2.0
/*
 * t_unpriv_limits: an unprivileged task cannot raise its priority beyond
 * RLIMIT_NICE or RLIMIT_RTPRIO, and within them may do what mainline lets
 * it do.
 *
 * A child sets its limits and nice as root, drops to uid/gid 65534 (no
 * capabilities) and walks through the rules of kernel/sched/syscalls.c
 * (user_check_sched_setscheduler, is_nice_reduction/can_nice) and
 * kernel/sys.c (set_one_prio):
 *
 *  - RLIMIT_NICE 20 allows nice down to 20 - 20 = 0: setpriority() below
 *    that fails with EACCES (clamped values too), nice(3) with EPERM,
 *    sched_setattr() with EPERM, and the nice is unchanged; raising nice
 *    and coming back down to the limit works;
 *  - another user's task cannot be changed at all (EPERM);
 *  - RLIMIT_RTPRIO 0: no FIFO/RR (EPERM), no DEADLINE ever (EPERM);
 *    with RLIMIT_RTPRIO 10: FIFO/RR up to 10, not above; an RT task may
 *    always lower its priority, even after the limit drops to 0, but not
 *    switch RT policy or raise it again;
 *  - SCHED_BATCH and SCHED_IDLE are always allowed; leaving SCHED_IDLE
 *    needs RLIMIT_NICE to allow the current nice (EPERM otherwise);
 *  - a task cannot clear its reset-on-fork flag (EPERM).
 *
 * The expected results were checked against a mainline kernel on the build
 * host (Linux 6.18.44, as root): the two scenarios with limits of 0 pass
 * there. Its container has no CAP_SYS_RESOURCE, so root cannot raise the
 * hard limits and the RLIMIT_NICE 20/RTPRIO 10 scenario skips on it; in the
 * test guest (VRQ_SCHED set) that scenario must run. VRQ must give the same
 * results: the checks sit in core code before the scheduling class is
 * involved, except for the class switches that follow them. VRQ's one
 * departure, an unprivileged FIFO/RR request turned into SCHED_ISO, is
 * switched off here (kernel.sched_rt_to_iso=0, restored at the end) and
 * tested in tests/vrq/t_iso.
 */
#include "rel.h"

#include <grp.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define NOBODY 65534
#define RT_TO_ISO "/proc/sys/kernel/sched_rt_to_iso"

static int nsteps;

static int cur_nice(void)
{
	int v;

	errno = 0;
	v = getpriority(PRIO_PROCESS, 0);
	return errno ? 99 : v;
}

static int cur_policy(void)
{
	return sched_getscheduler(0);
}

/* Check a call's result: want_err 0 = must succeed. */
static void step(const char *what, long rc, int want_err)
{
	int err = errno;

	nsteps++;
	if (want_err == 0 && rc == -1)
		tl_fail("%s: failed with %s, want success", what,
			tl_errname(err));
	else if (want_err && (rc != -1 || err != want_err))
		tl_fail("%s: got %ld/%s, want -1/%s", what, rc,
			rc == -1 ? tl_errname(err) : "-", tl_errname(want_err));
}

static void expect_state(const char *after, int policy, int prio, int nice)
{
	struct sched_param sp = { 0 };
	int pol = cur_policy() & ~SCHED_RESET_ON_FORK;

	sched_getparam(0, &sp);
	if (pol != policy || sp.sched_priority != prio ||
	    (nice != 99 && cur_nice() != nice))
		tl_fail("after %s: %s prio %d nice %d, want %s prio %d nice %d",
			after, tl_policy_name(pol), sp.sched_priority, cur_nice(),
			tl_policy_name(policy), prio, nice);
}

static long set_sched(pid_t pid, int policy, int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	return syscall(SYS_sched_setscheduler, pid, policy, &sp);
}

static long setattr_nice(pid_t pid, int policy, int nice, uint64_t flags)
{
	struct tl_sched_attr a = {
		.size = TL_SCHED_ATTR_SIZE_VER1, .sched_policy = policy,
		.sched_nice = nice, .sched_flags = flags,
	};

	return tl_sched_setattr(pid, &a, 0);
}

static int set_rlimit(int res, rlim_t soft, rlim_t hard)
{
	struct rlimit rl = { .rlim_cur = soft, .rlim_max = hard };

	return setrlimit(res, &rl);
}

static void nice_rules(pid_t root_pid)
{
	struct sched_param sp = { 0 };
	long rc;

	expect_state("dropping privileges", SCHED_OTHER, 0, 5);
	step("setpriority(4) within RLIMIT_NICE 20",
	     setpriority(PRIO_PROCESS, 0, 4), 0);
	step("setpriority(0) = the RLIMIT_NICE 20 floor",
	     setpriority(PRIO_PROCESS, 0, 0), 0);
	expect_state("setpriority(0)", SCHED_OTHER, 0, 0);
	step("setpriority(-1) below the floor", setpriority(PRIO_PROCESS, 0, -1),
	     EACCES);
	step("setpriority(-20)", setpriority(PRIO_PROCESS, 0, -20), EACCES);
	step("setpriority(-100) (clamps to -20)",
	     setpriority(PRIO_PROCESS, 0, -100), EACCES);
	step("setpriority(PRIO_PGRP, 0, -1) (own group)",
	     setpriority(PRIO_PGRP, 0, -1), EACCES);
	errno = 0;
	rc = nice(-1);
	step("nice(-1) below the floor (glibc maps EACCES to EPERM)",
	     rc == -1 && errno ? -1 : rc, EPERM);
	step("sched_setattr NORMAL nice -1", setattr_nice(0, SCHED_OTHER, -1, 0),
	     EPERM);
	step("sched_setattr KEEP_POLICY nice -5",
	     setattr_nice(0, 0, -5, TL_SCHED_FLAG_KEEP_POLICY), EPERM);
	step("sched_setattr BATCH nice -1", setattr_nice(0, SCHED_BATCH, -1, 0),
	     EPERM);
	expect_state("refused nice decreases", SCHED_OTHER, 0, 0);

	step("setpriority(19)", setpriority(PRIO_PROCESS, 0, 19), 0);
	step("setpriority(19 -> 0), back to the floor",
	     setpriority(PRIO_PROCESS, 0, 0), 0);
	step("sched_setattr NORMAL nice 19", setattr_nice(0, SCHED_OTHER, 19, 0),
	     0);
	step("sched_setattr NORMAL nice 0", setattr_nice(0, SCHED_OTHER, 0, 0), 0);
	expect_state("nice up and down", SCHED_OTHER, 0, 0);

	/* a root-owned task is out of reach whatever the value */
	step("setpriority(root's task, 10)",
	     setpriority(PRIO_PROCESS, (id_t)root_pid, 10), EPERM);
	step("sched_setscheduler(root's task, NORMAL)",
	     set_sched(root_pid, SCHED_OTHER, 0), EPERM);
	step("sched_setparam(root's task, 0)",
	     syscall(SYS_sched_setparam, root_pid, &sp), EPERM);
	step("sched_setattr(root's task, BATCH)",
	     setattr_nice(root_pid, SCHED_BATCH, 0, 0), EPERM);
}

/*
 * An RT task of the given policy under RLIMIT_RTPRIO 0 may lower its
 * priority to low, but then neither raise it to high nor switch to policy
 * other at low; it may go back to NORMAL (then at the given nice). to_low,
 * to_high and to_other name the three changes in the step texts.
 */
static void rt_only_lower(int policy, int low, int high, int other, int nice,
			  const char *to_low, const char *to_high,
			  const char *to_other)
{
	char what[64];

	snprintf(what, sizeof(what), "%s with RLIMIT_RTPRIO 0", to_low);
	step(what, set_sched(0, policy, low), 0);
	snprintf(what, sizeof(what), "%s with RLIMIT_RTPRIO 0", to_high);
	step(what, set_sched(0, policy, high), EPERM);
	snprintf(what, sizeof(what), "%s with RLIMIT_RTPRIO 0", to_other);
	step(what, set_sched(0, other, low), EPERM);
	expect_state("refused RT raises", policy, low, 99);
	snprintf(what, sizeof(what), "%s -> NORMAL", tl_policy_name(policy));
	step(what, set_sched(0, SCHED_OTHER, 0), 0);
	expect_state(what, SCHED_OTHER, 0, nice);
}

static void rt_rules(void)
{
	struct tl_sched_attr dl = {
		.size = TL_SCHED_ATTR_SIZE_VER1, .sched_policy = SCHED_DEADLINE,
		.sched_runtime = 1000000, .sched_deadline = 10000000,
		.sched_period = 10000000,
	};

	/* RLIMIT_RTPRIO 0 (hard 10) */
	step("sched_setscheduler FIFO 1 with RLIMIT_RTPRIO 0",
	     set_sched(0, SCHED_FIFO, 1), EPERM);
	step("sched_setscheduler RR 1 with RLIMIT_RTPRIO 0",
	     set_sched(0, SCHED_RR, 1), EPERM);
	{
		struct tl_sched_attr a = { .size = TL_SCHED_ATTR_SIZE_VER1,
					   .sched_policy = SCHED_FIFO,
					   .sched_priority = 1 };

		step("sched_setattr FIFO prio 1 with RLIMIT_RTPRIO 0",
		     tl_sched_setattr(0, &a, 0), EPERM);
	}
	step("sched_setattr DEADLINE 1/10/10 ms", tl_sched_setattr(0, &dl, 0),
	     EPERM);
	expect_state("refused RT/DEADLINE", SCHED_OTHER, 0, 0);

	/* RLIMIT_RTPRIO 10 */
	step("setrlimit RTPRIO soft 10 (hard 10)",
	     set_rlimit(RLIMIT_RTPRIO, 10, 10), 0);
	step("FIFO 5 with RLIMIT_RTPRIO 10", set_sched(0, SCHED_FIFO, 5), 0);
	expect_state("FIFO 5", SCHED_FIFO, 5, 99);
	step("FIFO 11 above RLIMIT_RTPRIO 10", set_sched(0, SCHED_FIFO, 11),
	     EPERM);
	step("FIFO 3 (lower)", set_sched(0, SCHED_FIFO, 3), 0);
	step("RR 10 (= the limit)", set_sched(0, SCHED_RR, 10), 0);
	expect_state("RR 10", SCHED_RR, 10, 99);
	step("DEADLINE from RR 10", tl_sched_setattr(0, &dl, 0), EPERM);

	/* the limit drops to 0 while RT: lowering is still allowed */
	step("setrlimit RTPRIO 0 (hard 10)", set_rlimit(RLIMIT_RTPRIO, 0, 10), 0);
	rt_only_lower(SCHED_RR, 4, 6, SCHED_FIFO, 0, "RR 10 -> RR 4",
		      "RR 4 -> RR 6", "RR 4 -> FIFO 4");
	step("FIFO 1 again with RLIMIT_RTPRIO 0", set_sched(0, SCHED_FIFO, 1),
	     EPERM);
}

static void idle_rules(void)
{
	/* BATCH and IDLE are no raise: allowed */
	step("NORMAL -> BATCH", set_sched(0, SCHED_BATCH, 0), 0);
	expect_state("BATCH", SCHED_BATCH, 0, 0);
	step("BATCH -> IDLE", set_sched(0, SCHED_IDLE, 0), 0);
	expect_state("IDLE", SCHED_IDLE, 0, 0);
	/* leaving IDLE: RLIMIT_NICE 20 allows nice 0 */
	step("IDLE -> NORMAL at nice 0, RLIMIT_NICE 20",
	     set_sched(0, SCHED_OTHER, 0), 0);
	expect_state("IDLE -> NORMAL", SCHED_OTHER, 0, 0);

	/* at nice 5 with RLIMIT_NICE 14 (allows nice >= 6) IDLE is a trap */
	step("setpriority(5)", setpriority(PRIO_PROCESS, 0, 5), 0);
	step("setrlimit NICE 14 (hard 20)", set_rlimit(RLIMIT_NICE, 14, 20), 0);
	step("NORMAL -> IDLE at nice 5", set_sched(0, SCHED_IDLE, 0), 0);
	step("IDLE -> NORMAL at nice 5, RLIMIT_NICE 14",
	     set_sched(0, SCHED_OTHER, 0), EPERM);
	step("IDLE -> BATCH at nice 5, RLIMIT_NICE 14",
	     set_sched(0, SCHED_BATCH, 0), EPERM);
	step("IDLE -> NORMAL via sched_setattr nice 19, RLIMIT_NICE 14",
	     setattr_nice(0, SCHED_OTHER, 19, 0), EPERM);
	expect_state("refused IDLE exits", SCHED_IDLE, 0, 5);
	step("setrlimit NICE 15 (allows nice 5)", set_rlimit(RLIMIT_NICE, 15, 20),
	     0);
	step("IDLE -> NORMAL at nice 5, RLIMIT_NICE 15",
	     set_sched(0, SCHED_OTHER, 0), 0);
	expect_state("IDLE -> NORMAL", SCHED_OTHER, 0, 5);
	step("setpriority(4) below RLIMIT_NICE 15",
	     setpriority(PRIO_PROCESS, 0, 4), EACCES);

	/* reset-on-fork can be set, not cleared */
	step("NORMAL | RESET_ON_FORK",
	     set_sched(0, SCHED_OTHER | SCHED_RESET_ON_FORK, 0), 0);
	step("clear RESET_ON_FORK (sched_setscheduler NORMAL)",
	     set_sched(0, SCHED_OTHER, 0), EPERM);
	step("clear RESET_ON_FORK (sched_setattr flags 0)",
	     setattr_nice(0, SCHED_OTHER, 5, 0), EPERM);
	step("BATCH keeping RESET_ON_FORK",
	     set_sched(0, SCHED_BATCH | SCHED_RESET_ON_FORK, 0), 0);
	expect_state("BATCH|RESET_ON_FORK", SCHED_BATCH, 0, 5);
	if (!(cur_policy() & SCHED_RESET_ON_FORK))
		tl_fail("RESET_ON_FORK flag lost");
}

/* Limits of 0 (what the host's container allows): nothing may be raised. */
static void zero_rules(pid_t root_pid)
{
	struct tl_sched_attr dl = {
		.size = TL_SCHED_ATTR_SIZE_VER1, .sched_policy = SCHED_DEADLINE,
		.sched_runtime = 1000000, .sched_deadline = 10000000,
		.sched_period = 10000000,
	};
	long rc;

	expect_state("dropping privileges", SCHED_OTHER, 0, 5);
	step("setpriority(6)", setpriority(PRIO_PROCESS, 0, 6), 0);
	step("setpriority(5) with RLIMIT_NICE 0", setpriority(PRIO_PROCESS, 0, 5),
	     EACCES);
	step("setpriority(-100) with RLIMIT_NICE 0",
	     setpriority(PRIO_PROCESS, 0, -100), EACCES);
	errno = 0;
	rc = nice(-1);
	step("nice(-1) with RLIMIT_NICE 0", rc == -1 && errno ? -1 : rc, EPERM);
	step("sched_setattr NORMAL nice 5 with RLIMIT_NICE 0",
	     setattr_nice(0, SCHED_OTHER, 5, 0), EPERM);
	step("setpriority(root's task, 10)",
	     setpriority(PRIO_PROCESS, (id_t)root_pid, 10), EPERM);
	step("sched_setattr(root's task, BATCH)",
	     setattr_nice(root_pid, SCHED_BATCH, 0, 0), EPERM);
	expect_state("refused nice decreases", SCHED_OTHER, 0, 6);
	step("FIFO 1 with RLIMIT_RTPRIO 0", set_sched(0, SCHED_FIFO, 1), EPERM);
	step("RR 99 with RLIMIT_RTPRIO 0", set_sched(0, SCHED_RR, 99), EPERM);
	step("DEADLINE", tl_sched_setattr(0, &dl, 0), EPERM);
	step("NORMAL -> BATCH", set_sched(0, SCHED_BATCH, 0), 0);
	step("BATCH -> IDLE", set_sched(0, SCHED_IDLE, 0), 0);
	step("IDLE -> NORMAL at nice 6 with RLIMIT_NICE 0",
	     set_sched(0, SCHED_OTHER, 0), EPERM);
	step("IDLE -> BATCH at nice 6 with RLIMIT_NICE 0",
	     set_sched(0, SCHED_BATCH, 0), EPERM);
	step("IDLE | RESET_ON_FORK", set_sched(0, SCHED_IDLE | SCHED_RESET_ON_FORK, 0),
	     0);
	step("clear RESET_ON_FORK", set_sched(0, SCHED_IDLE, 0), EPERM);
	expect_state("refused IDLE exits", SCHED_IDLE, 0, 6);
}

/* Started FIFO 5 by root, RLIMIT_RTPRIO 0: may only go down. */
static void rt_zero_rules(void)
{
	expect_state("dropping privileges", SCHED_FIFO, 5, 99);
	rt_only_lower(SCHED_FIFO, 3, 4, SCHED_RR, 2, "FIFO 5 -> 3", "FIFO 3 -> 4",
		      "FIFO 3 -> RR 3");
	step("FIFO 1 again", set_sched(0, SCHED_FIFO, 1), EPERM);
}

enum { ZERO, RT_ZERO, LIMITS };

/*
 * Run one scenario in a child: set it up as root, drop to uid 65534, walk
 * the rules. Returns the child's exit code (77: the limits could not be
 * raised, i.e. no CAP_SYS_RESOURCE).
 */
static int run_scenario(int which)
{
	pid_t root_pid = getpid(), pid;
	int status, rc = 0, base = tl_failures();

	pid = fork();
	if (pid < 0)
		tl_die("fork: %s", tl_errname(errno));
	if (pid == 0) {
		/* own process group, so PRIO_PGRP names this task only */
		if (setpgid(0, 0))
			tl_die("setpgid: %s", tl_errname(errno));
		switch (which) {
		case ZERO:
			rc = set_sched(0, SCHED_OTHER, 0) ||
			     setpriority(PRIO_PROCESS, 0, 5) ||
			     set_rlimit(RLIMIT_NICE, 0, 0) ||
			     set_rlimit(RLIMIT_RTPRIO, 0, 0);
			break;
		case RT_ZERO:
			rc = setpriority(PRIO_PROCESS, 0, 2) ||
			     set_sched(0, SCHED_FIFO, 5) ||
			     set_rlimit(RLIMIT_NICE, 0, 0) ||
			     set_rlimit(RLIMIT_RTPRIO, 0, 0);
			break;
		case LIMITS:
			rc = set_sched(0, SCHED_OTHER, 0) ||
			     setpriority(PRIO_PROCESS, 0, 5);
			if (!rc && (set_rlimit(RLIMIT_NICE, 20, 20) ||
				    set_rlimit(RLIMIT_RTPRIO, 0, 10))) {
				tl_info("cannot raise RLIMIT_NICE/RTPRIO hard limits as "
					"root (%s): no CAP_SYS_RESOURCE?",
					tl_errname(errno));
				exit(TL_EXIT_SKIP);
			}
			break;
		}
		if (rc)
			tl_die("child setup as root: %s", tl_errname(errno));
		if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
			tl_die("dropping to uid %d: %s", NOBODY, tl_errname(errno));
		if (setuid(0) == 0)
			tl_die("could get root back after dropping it");
		switch (which) {
		case ZERO:
			zero_rules(root_pid);
			break;
		case RT_ZERO:
			rt_zero_rules();
			break;
		case LIMITS:
			nice_rules(root_pid);
			rt_rules();
			idle_rules();
			break;
		}
		/* the count is inherited: only this child's failures count */
		exit(tl_failures() > base ? TL_EXIT_FAIL : TL_EXIT_PASS);
	}
	if (waitpid(pid, &status, 0) != pid)
		tl_die("waitpid: %s", tl_errname(errno));
	if (!WIFEXITED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

int main(void)
{
	static const char *const names[] = {
		"limits 0", "RT task, RTPRIO 0", "RLIMIT_NICE 20/RTPRIO 10"
	};
	int rc[3], skipped = 0;
	long rt_to_iso;

	tl_init("t_unpriv_limits");
	if (geteuid() != 0)
		tl_skip("needs root (to set up and drop to uid %d)", NOBODY);
	rt_to_iso = rel_read_long(RT_TO_ISO, -1);
	if (rt_to_iso > 0 && tl_write_file(RT_TO_ISO, "0"))
		tl_die("cannot set %s to 0", RT_TO_ISO);

	for (int i = ZERO; i <= LIMITS; i++) {
		rc[i] = run_scenario(i);
		if (rc[i] == TL_EXIT_SKIP && i == LIMITS) {
			skipped = 1;
			/* in the test guest root has every capability */
			if (getenv("VRQ_SCHED"))
				tl_fail("scenario '%s' could not run in the guest",
					names[i]);
		} else if (rc[i]) {
			tl_fail("scenario '%s' (uid %d child): exit %d", names[i],
				NOBODY, rc[i]);
		}
	}
	if (rt_to_iso > 0 && tl_write_file(RT_TO_ISO, "1"))
		tl_fail("cannot restore %s to 1", RT_TO_ISO);
	return tl_finish("uid %d: nice floor of RLIMIT_NICE (EACCES/EPERM), RTPRIO 0%s "
			 "(EPERM), no DEADLINE, BATCH/IDLE allowed, IDLE exit needs "
			 "RLIMIT_NICE, reset-on-fork sticky, root's task untouchable%s",
			 NOBODY, skipped ? "" : "/10",
			 skipped ? "; RLIMIT_NICE 20/RTPRIO 10 scenario skipped "
			 "(no CAP_SYS_RESOURCE)" : "");
}
