// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_ISO (policy 4), BFS's soft real-time policy: ISO tasks run ahead of
 * every SCHED_NORMAL/BATCH/IDLE task and preempt them on wakeup while all
 * ISO tasks together stay under kernel.iso_cpu percent of the machine
 * (rolling average, half-life 1 s); above it they run as SCHED_NORMAL.
 * One line of figures per check, then the verdict. Checks, cheap ones first:
 *
 * rt_to_iso: sched_get_priority_min/max(4) are 0. Fresh children, most of
 *   them uid/gid 65534 without capabilities and with RLIMIT_RTPRIO 0, ask
 *   for FIFO/RR (sched_setscheduler and sched_setattr): with
 *   kernel.sched_rt_to_iso=1 they get 0 and policy 4, with 0 EPERM and
 *   policy 0. Any user gets ISO with priority 0; FIFO 0, FIFO 100 and ISO 1
 *   give EINVAL with either setting. Not converted: root's FIFO, FIFO
 *   within a non-zero RLIMIT_RTPRIO, and a task that is FIFO already
 *   (it may lower its priority, raising it gives mainline's EPERM).
 * sysctl: iso_cpu -1, 101 and "abc" give EINVAL and keep the value;
 *   /proc/vrq_stats has iso_cpu (the sysctl's value), iso_usage (0..100)
 *   and iso_throttled (0 or 1).
 * fork/exec: an ISO task's child is ISO, exec keeps ISO, and with
 *   SCHED_RESET_ON_FORK the child is SCHED_NORMAL. The exec'd program is
 *   this test (--report-policy: exit status = policy, +16 with the reset
 *   flag), so no tool is involved.
 * tools (named dependencies: FAIL when missing): `schedtool -I -e` runs a
 *   program as policy 4; `schedtool PID` prints "SCHED_ISO" for an ISO task
 *   (schedtool 1.3.0 prints "POLICY I: SCHED_ISO"); `chrt -p PID` succeeds
 *   (its sched_getattr works on an ISO task) and names the policy.
 *   Assumed for chrt: util-linux 2.38 (Debian 12) has no name for policy 4;
 *   its get_policy_name() prints "unknown" for every policy other than
 *   0, 1, 2, 3, 5 and 6, so on a kernel whose only other policy is 4 that
 *   word, next to a "SCHED_OTHER" for a NORMAL pid from the same chrt and
 *   sched_getscheduler() saying 4, identifies policy 4. "SCHED_ISO" (a chrt
 *   that knows it) is accepted too, anything else fails. Then
 *   `chrt -o -p 0 PID` must make it SCHED_NORMAL again. The tools run with
 *   LC_ALL=C so that "unknown" is not translated.
 * preempt: iso_cpu=100 (no throttling) and rr_interval 12 ms for the check.
 *   A nice -10 NORMAL hog and a nice 0 sleeper on one CPU; the sleeper
 *   sleeps 18 ms to an absolute CLOCK_MONOTONIC time, then burns 18 ms of
 *   CPU, 10 times a trial; trials alternate NORMAL and ISO sleepers (abba,
 *   4 trials). Per wakeup: lateness = start of running - target, and
 *   delay = lateness + time spent waiting during the burn (wall - CPU).
 *   Why not NORMAL vs ISO lateness alone: with VRQ's deadlines a NORMAL
 *   sleeper wakes with the earlier deadline and preempts the hog too (a
 *   1 ms-tick simulation of the rules gives lateness ~0 for both); its
 *   wait comes when its slice runs out in the burn: the new deadline,
 *   now + 6.7 rr at nice 0, lies beyond the hog's now + 2.6 rr. It asks
 *   for 50 % of the CPU where nice 0 next to nice -10 is due about 28 %,
 *   so the wait cannot go away; the simulation gives a median delay near
 *   100 ms, while an ISO sleeper waits for nothing but its wakeup.
 *   Passes when the ISO median delay is under a third of the NORMAL one
 *   (expected: < 1 ms against tens of ms), and the ISO median lateness is
 *   under the NORMAL one + rr/4 = 3 ms: an ISO task that only ran ahead at
 *   the next reschedule, without preempting on wakeup, would wait for the
 *   hog's slice to end, and sleeping 1.5 slices after taking the CPU from
 *   the hog at a slice end puts that wait at rr/2 = 6 ms every time. The
 *   NORMAL sleeper also preempts on wakeup, so its lateness is the host's
 *   wakeup latency in the same boot: quiet 0.5-1.1 ms, but 1.9-3.4 ms on
 *   4 vCPUs beside a host `stress-ng --cpu 2`, where ISO's 3.85 ms failed
 *   a fixed rr/4. Stalls of the host while the sleeper burns count as its
 *   CPU time in the guest, not as delay.
 * iso_cpu=0: an ISO hog and a NORMAL hog on one CPU share it as two NORMAL
 *   nice 0 hogs do: the ISO share is 0.5 +- 0.15 over 3 s (t_nice_ratio
 *   holds such ratios to 10 %).
 * cap: iso_cpu=70, N ISO and N NORMAL nice 0 hogs, N = usable CPUs,
 *   unpinned. After 3 s of warm-up (the average's half-life is 1 s), over
 *   10 s: the mean of iso_usage (sampled each second) must be within 10
 *   points of 70, and the ISO hogs' share S of all hog time must lie in
 *   [0.70 - 0.05, 0.85 + 0.05]. Why those bounds and not c = 2S - 1 within
 *   10 points of 70 (which assumes the throttled rest is split evenly):
 *   time run as ISO is 70 % of the machine, and the hogs have at most the
 *   machine, so S >= 0.70; an even split of the rest is the most the ISO
 *   hogs should get, S <= 0.85. Where in between depends on deadlines: a
 *   throttled ISO hog has run far more than the NORMAL hogs, whose older
 *   deadlines win the short throttled spells (the average hovers at the
 *   cap, so the policy flips every few ticks). A 1 ms-tick simulation of
 *   the VRQ rules with that throttle gives S = 0.74 (c = 0.48) when a flip
 *   reschedules and 0.81 (c = 0.61) when the throttled task keeps its
 *   slice, time as ISO 0.70 in both: a correct kernel could fail the c
 *   test. The NORMAL cache timeout is 1 ms for the check: a NORMAL hog
 *   cached on another CPU cannot take a spell of a few ticks, and with the
 *   automatic timeout (1 s with preempt=none) the ISO hogs got 0.87-0.93
 *   at 4 vCPUs, preempt=none; with 1 ms, 0.784-0.787 in the same boot.
 *   The bounds catch a missing or far too loose cap (no throttling gives
 *   S near 1) and one far too tight (ISO use under 65 %); iso_usage shows
 *   the cap itself. 5 points cover system noise. c is printed too.
 *   Skipped (with a line saying so) when the usable CPUs are not all
 *   the online ones, as then the hogs cannot fill the machine.
 *
 * Every sysctl changed (iso_cpu, sched_rt_to_iso, rr_interval) is restored
 * and every child killed and reaped at exit, also on SIGTERM/SIGINT.
 * Run time about 25 s.
 *
 * On a kernel without VRQ (no kernel.rr_interval) policy 4 must be
 * rejected with EINVAL as mainline does; then the test passes there.
 */
#include "vrq_test.h"

#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>

#ifndef SCHED_ISO
#define SCHED_ISO 4
#endif

#define ISO_CPU		"/proc/sys/kernel/iso_cpu"
#define RT_TO_ISO	"/proc/sys/kernel/sched_rt_to_iso"
#define RR		"/proc/sys/kernel/rr_interval"
#define NORMAL_CACHE	"/proc/sys/kernel/sched_normal_cache_timeout_us"
#define NOBODY		65534
#define MAX_KIDS	32
#define MAX_HOGS	8		/* of each policy, in the cap check */
#define MS		1000000LL

/* The preempt check. */
#define PRE_RR_MS	12
#define PRE_SLEEP_MS	(PRE_RR_MS * 3 / 2)
#define PRE_BURN_MS	(PRE_RR_MS * 3 / 2)
#define PRE_TRIALS	4
#define PRE_CYCLES	10
#define PRE_CAP_S	1.6

/* The cap check. */
#define CAP_ISO_CPU	70
#define CAP_CACHE_US	1000		/* NORMAL cache timeout for the check */
#define CAP_WARMUP_S	3
#define CAP_SECS	10

static pid_t main_pid;
static pid_t kids[MAX_KIDS];
static char self_path[PATH_MAX];

/* The sysctls the test changes, read before cleanup() is registered. */
enum { SAVED_ISO_CPU, SAVED_RT_TO_ISO, SAVED_RR, SAVED_NORMAL_CACHE, NSAVED };
static struct {
	const char *path;
	long old;
} saved[NSAVED] = {
	[SAVED_ISO_CPU] = { ISO_CPU, 0 },
	[SAVED_RT_TO_ISO] = { RT_TO_ISO, 0 },
	[SAVED_RR] = { RR, 0 },
	[SAVED_NORMAL_CACHE] = { NORMAL_CACHE, 0 },
};

/* Kill the children and restore the sysctls; the test process only. */
static void cleanup(void)
{
	unsigned int i;

	if (getpid() != main_pid)
		return;
	for (i = 0; i < MAX_KIDS; i++) {
		if (kids[i] > 0)
			tl_kill_wait(kids[i]);
		kids[i] = 0;
	}
	for (i = 0; i < NSAVED; i++)
		write_long(saved[i].path, saved[i].old);
}

static void on_signal(int sig)
{
	cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void untrack(pid_t pid)
{
	int i;

	for (i = 0; i < MAX_KIDS; i++)
		if (kids[i] == pid)
			kids[i] = 0;
}

/* Remember a child so that every exit path kills it. */
static pid_t track(pid_t pid)
{
	int i;

	if (pid < 0)
		finish(FAIL, "fork: %s", strerror(errno));
	for (i = 0; i < MAX_KIDS; i++) {
		if (!kids[i]) {
			kids[i] = pid;
			return pid;
		}
	}
	tl_kill_wait(pid);
	finish(FAIL, "more than %d children", MAX_KIDS);
}

static void reap(pid_t pid)
{
	tl_kill_wait(pid);
	untrack(pid);
}

/* Wait up to timeout s for a child to exit: its status, or -1 (killed). */
static int wait_kid(pid_t pid, double timeout)
{
	double end = tl_now() + timeout;
	int st;

	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid || r < 0) {
			untrack(pid);
			return r == pid ? st : -1;
		}
		if (tl_now() > end) {
			reap(pid);
			return -1;
		}
		usleep(2000);
	}
}

/* A hog that could not set itself up exits at once (tl_spawn_hog). */
static void hog_alive(pid_t pid, const char *what)
{
	int st;

	if (waitpid(pid, &st, WNOHANG) == pid) {
		untrack(pid);
		finish(FAIL, "%s hog exited with %d (2 pin, 3 policy, 4 nice)",
		       what, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	}
}

static void set_knob(const char *path, long v)
{
	int err = write_long(path, v);

	if (err)
		finish(FAIL, "cannot set %s to %ld: %s", path, v, strerror(-err));
}

/* Read len bytes from fd within timeout s; 0 or -1. */
static int read_full(int fd, void *buf, size_t len, double timeout)
{
	double end = tl_now() + timeout;
	size_t got = 0;

	while (got < len) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		double left = end - tl_now();
		ssize_t n;

		if (left <= 0 || poll(&p, 1, (int)(left * 1000) + 1) == 0)
			return -1;
		n = read(fd, (char *)buf + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	return 0;
}

/* A policy as an exit status: policy + 16 with the reset flag; 101 error. */
static int policy_code(int pol)
{
	if (pol < 0)
		return 101;
	return (pol & 0xff) + ((pol & SCHED_RESET_ON_FORK) ? 16 : 0);
}

static int64_t clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

static double median_ms(int64_t *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_i64);
	return (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2) / 1e6;
}

/* ---- rt_to_iso ---------------------------------------------------------- */

struct res {
	int rc, err, policy, prio;
};

static const struct scase {
	const char *what;
	int knob;		/* sched_rt_to_iso: 0, 1, or -1 for both */
	int unpriv;		/* uid/gid 65534, no capabilities */
	int rtprio_lim;		/* RLIMIT_RTPRIO of an unprivileged case */
	int pre_pol, pre_prio;	/* set as root before the request */
	int attr;		/* sched_setattr instead of sched_setscheduler */
	int pol, prio;		/* the request */
	int want_err, want_pol, want_prio;
} cases[] = {
	{ "user FIFO 1", 1, 1, 0, SCHED_OTHER, 0, 0, SCHED_FIFO, 1, 0, SCHED_ISO, 0 },
	{ "user RR 1", 1, 1, 0, SCHED_OTHER, 0, 0, SCHED_RR, 1, 0, SCHED_ISO, 0 },
	{ "user setattr FIFO 1", 1, 1, 0, SCHED_OTHER, 0, 1, SCHED_FIFO, 1, 0, SCHED_ISO, 0 },
	{ "user setattr RR 99", 1, 1, 0, SCHED_OTHER, 0, 1, SCHED_RR, 99, 0, SCHED_ISO, 0 },
	{ "user FIFO 1", 0, 1, 0, SCHED_OTHER, 0, 0, SCHED_FIFO, 1, EPERM, SCHED_OTHER, 0 },
	{ "user RR 1", 0, 1, 0, SCHED_OTHER, 0, 0, SCHED_RR, 1, EPERM, SCHED_OTHER, 0 },
	{ "user setattr FIFO 1", 0, 1, 0, SCHED_OTHER, 0, 1, SCHED_FIFO, 1, EPERM, SCHED_OTHER, 0 },
	{ "user setattr RR 99", 0, 1, 0, SCHED_OTHER, 0, 1, SCHED_RR, 99, EPERM, SCHED_OTHER, 0 },
	{ "user ISO 0", -1, 1, 0, SCHED_OTHER, 0, 0, SCHED_ISO, 0, 0, SCHED_ISO, 0 },
	{ "user setattr ISO 0", -1, 1, 0, SCHED_OTHER, 0, 1, SCHED_ISO, 0, 0, SCHED_ISO, 0 },
	{ "user FIFO 0", -1, 1, 0, SCHED_OTHER, 0, 0, SCHED_FIFO, 0, EINVAL, SCHED_OTHER, 0 },
	{ "user FIFO 100", -1, 1, 0, SCHED_OTHER, 0, 0, SCHED_FIFO, 100, EINVAL, SCHED_OTHER, 0 },
	{ "user ISO 1", -1, 1, 0, SCHED_OTHER, 0, 0, SCHED_ISO, 1, EINVAL, SCHED_OTHER, 0 },
	{ "user setattr ISO 1", -1, 1, 0, SCHED_OTHER, 0, 1, SCHED_ISO, 1, EINVAL, SCHED_OTHER, 0 },
	{ "user RLIMIT_RTPRIO 5, FIFO 1", 1, 1, 5, SCHED_OTHER, 0, 0, SCHED_FIFO, 1, 0, SCHED_FIFO, 1 },
	{ "user FIFO 10 lowers to 5", 1, 1, 0, SCHED_FIFO, 10, 0, SCHED_FIFO, 5, 0, SCHED_FIFO, 5 },
	{ "user FIFO 10 raises to 20", 1, 1, 0, SCHED_FIFO, 10, 0, SCHED_FIFO, 20, EPERM, SCHED_FIFO, 10 },
	{ "root FIFO 1", 1, 0, 0, SCHED_OTHER, 0, 0, SCHED_FIFO, 1, 0, SCHED_FIFO, 1 },
	{ "root ISO 1", -1, 0, 0, SCHED_OTHER, 0, 0, SCHED_ISO, 1, EINVAL, SCHED_OTHER, 0 },
};

/* Become uid/gid 65534 with RLIMIT_RTPRIO lim and no capabilities. */
static int drop_privs(int lim)
{
	struct rlimit rl = { (rlim_t)lim, (rlim_t)lim };
	char buf[4096], *p;

	if (setrlimit(RLIMIT_RTPRIO, &rl) || setgroups(0, NULL) ||
	    setgid(NOBODY) || setuid(NOBODY))
		return -1;
	if (getuid() != NOBODY || geteuid() != NOBODY)
		return -1;
	if (tl_read_file("/proc/self/status", buf, sizeof(buf)) <= 0 ||
	    !(p = strstr(buf, "CapEff:")) || strtoull(p + 7, NULL, 16))
		return -1;
	return 0;
}

/* Run one case in a fresh child; its result in *r. */
static void run_case(const struct scase *c, struct res *r)
{
	int fd[2], st;
	pid_t pid;

	if (pipe(fd))
		finish(FAIL, "pipe: %s", strerror(errno));
	pid = fork();
	if (pid == 0) {
		struct res o = { -9, 0, -1, -1 };
		struct sched_param sp = { 0 };

		close(fd[0]);
		if (setpriority(PRIO_PROCESS, 0, 0) ||
		    (c->pre_pol != SCHED_OTHER &&
		     tl_set_policy(0, c->pre_pol, c->pre_prio))) {
			o.rc = -2;
		} else if (c->unpriv && drop_privs(c->rtprio_lim)) {
			o.rc = -3;
		} else {
			errno = 0;
			if (c->attr) {
				struct tl_sched_attr a = {
					.size = TL_SCHED_ATTR_SIZE_VER0,
					.sched_policy = (uint32_t)c->pol,
					.sched_priority = (uint32_t)c->prio,
				};

				o.rc = tl_sched_setattr(0, &a, 0);
			} else {
				o.rc = tl_set_policy(0, c->pol, c->prio);
			}
			o.err = o.rc ? errno : 0;
			o.policy = sched_getscheduler(0);
			o.prio = sched_getparam(0, &sp) ? -1 : sp.sched_priority;
		}
		_exit(write(fd[1], &o, sizeof(o)) == sizeof(o) ? 0 : 1);
	}
	track(pid);
	close(fd[1]);
	st = read_full(fd[0], r, sizeof(*r), 10.0);
	close(fd[0]);
	wait_kid(pid, 5.0);
	if (st)
		finish(FAIL, "%s: the child reported nothing", c->what);
	if (r->rc == -2)
		finish(FAIL, "%s: root could not set up policy %d prio %d",
		       c->what, c->pre_pol, c->pre_prio);
	if (r->rc == -3)
		finish(FAIL, "%s: could not drop to uid %d without capabilities",
		       c->what, NOBODY);
}

static void check_rt_to_iso(void)
{
	int knob, n = 0, lo, hi;
	unsigned int i;
	struct res r;

	lo = sched_get_priority_min(SCHED_ISO);
	hi = sched_get_priority_max(SCHED_ISO);
	if (lo != 0 || hi != 0)
		finish(FAIL, "sched_get_priority_min/max(SCHED_ISO) = %d/%d, want 0/0",
		       lo, hi);

	for (knob = 1; knob >= 0; knob--) {
		set_knob(RT_TO_ISO, knob);
		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			const struct scase *c = &cases[i];

			if (c->knob >= 0 && c->knob != knob)
				continue;
			run_case(c, &r);
			n++;
			if ((c->want_err ? r.rc != -1 || r.err != c->want_err : r.rc != 0) ||
			    r.policy != c->want_pol || r.prio != c->want_prio)
				finish(FAIL, "sched_rt_to_iso=%d, %s: got %d/%s, policy %d prio %d; want %s, policy %d prio %d",
				       knob, c->what, r.rc,
				       r.rc ? tl_errname(r.err) : "-", r.policy,
				       r.prio,
				       c->want_err ? tl_errname(c->want_err) : "0",
				       c->want_pol, c->want_prio);
		}
	}
	set_knob(RT_TO_ISO, saved[SAVED_RT_TO_ISO].old);
	printf("rt_to_iso: %d requests as expected with sched_rt_to_iso 1 and 0 (user FIFO/RR -> ISO or EPERM, EINVAL for bad input); priority min/max of policy 4: %d/%d\n",
	       n, lo, hi);
}

/* ---- sysctl and stats --------------------------------------------------- */

static void check_sysctl(void)
{
	static const char *const bad[] = { "-1", "101", "abc" };
	long old = read_knob(ISO_CPU), v, usage, thr;
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = tl_write_file(ISO_CPU, bad[i]), err = errno;

		v = read_long(ISO_CPU, -12345);
		if (rc == 0 || err != EINVAL || v != old)
			finish(FAIL, "iso_cpu=%s: %s, value now %ld (was %ld)",
			       bad[i], rc ? tl_errname(err) : "accepted", v, old);
	}
	set_knob(ISO_CPU, 55);
	v = read_long(ISO_CPU, -1);
	if (v != 55 || vrq_stat("iso_cpu") != 55)
		finish(FAIL, "iso_cpu=55: sysctl reads %ld, /proc/vrq_stats iso_cpu %ld",
		       v, vrq_stat("iso_cpu"));
	set_knob(ISO_CPU, old);
	usage = vrq_stat("iso_usage");
	thr = vrq_stat("iso_throttled");
	if (usage < 0 || usage > 100 || (thr != 0 && thr != 1))
		finish(FAIL, "/proc/vrq_stats: iso_usage %ld, iso_throttled %ld (missing or out of range)",
		       usage, thr);
	printf("sysctl: iso_cpu -1/101/abc rejected with EINVAL, value %ld kept; vrq_stats iso_cpu follows it, iso_usage %ld, iso_throttled %ld\n",
	       old, usage, thr);
}

/* ---- fork and exec ------------------------------------------------------ */

enum { VIA_FORK, VIA_EXEC, VIA_RESET };

/* The policy code what a child of an ISO task (made as @how says) reports. */
static int inherited(int how)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		int pol = SCHED_ISO | (how == VIA_RESET ? SCHED_RESET_ON_FORK : 0);
		pid_t g;

		if (tl_set_policy(0, pol, 0))
			_exit(102);
		if (sched_getscheduler(0) != pol)
			_exit(103);
		if (how == VIA_EXEC) {
			execl(self_path, self_path, "--report-policy", (char *)NULL);
			_exit(104);
		}
		g = fork();
		if (g == 0)
			_exit(policy_code(sched_getscheduler(0)));
		if (g < 0 || waitpid(g, &st, 0) != g || !WIFEXITED(st))
			_exit(105);
		_exit(WEXITSTATUS(st));
	}
	track(pid);
	st = wait_kid(pid, 10.0);
	return st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void check_fork_exec(void)
{
	int f = inherited(VIA_FORK), e = inherited(VIA_EXEC);
	int r = inherited(VIA_RESET);

	if (f != SCHED_ISO)
		finish(FAIL, "child of an ISO task: policy code %d, want %d", f,
		       SCHED_ISO);
	if (e != SCHED_ISO)
		finish(FAIL, "ISO task after exec: policy code %d, want %d", e,
		       SCHED_ISO);
	if (r != SCHED_OTHER)
		finish(FAIL, "child of ISO|SCHED_RESET_ON_FORK: policy code %d, want %d (codes over 100: setup failed)",
		       r, SCHED_OTHER);
	printf("fork/exec: fork child policy %d, after exec %d, reset-on-fork child %d\n",
	       f, e, r);
}

/* ---- schedtool and chrt ------------------------------------------------- */

/* Run a tool; its exit status (-1 if it did not exit), output in out. */
static int tool(char *const argv[], char *out, size_t size)
{
	int to, st;
	double el;

	st = tl_run(argv, 10.0, out, size, &to, &el);
	if (st < 0 || to || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/* The policy word of `chrt -p`'s "... scheduling policy: WORD" line. */
static const char *chrt_policy(const char *out, char *word, size_t size)
{
	const char *p = strstr(out, "scheduling policy: ");
	size_t n = 0;

	word[0] = '\0';
	if (!p)
		return word;
	for (p += 19; p[n] && p[n] != '\n' && p[n] != '|' && n + 1 < size; n++)
		word[n] = p[n];
	word[n] = '\0';
	return word;
}

static void check_tools(void)
{
	char st[PATH_MAX], ch[PATH_MAX], out[4096], pidstr[16], self[16];
	char word[64], ctl[64];
	pid_t pid;
	int rc, i;

	if (!tl_find_exe("schedtool", st, sizeof(st)))
		finish(FAIL, "schedtool not found (Debian package schedtool is a dependency)");
	if (!tl_find_exe("chrt", ch, sizeof(ch)))
		finish(FAIL, "chrt not found (util-linux's chrt is a dependency)");
	setenv("LC_ALL", "C", 1);

	{
		char *argv[] = { st, "-I", "-e", self_path, "--report-policy", NULL };

		rc = tool(argv, out, sizeof(out));
		if (rc != SCHED_ISO)
			finish(FAIL, "schedtool -I -e: program ran with policy code %d, want %d; output: %s",
			       rc, SCHED_ISO, out);
	}

	pid = fork();
	if (pid == 0) {
		if (setpriority(PRIO_PROCESS, 0, 0) ||
		    tl_set_policy(0, SCHED_ISO, 0))
			_exit(3);
		for (;;)
			pause();
	}
	track(pid);
	for (i = 0; i < 200 && sched_getscheduler(pid) != SCHED_ISO; i++)
		usleep(10000);
	if (sched_getscheduler(pid) != SCHED_ISO) {
		reap(pid);
		finish(FAIL, "a child could not make itself SCHED_ISO");
	}
	snprintf(pidstr, sizeof(pidstr), "%d", (int)pid);
	snprintf(self, sizeof(self), "%d", (int)getpid());

	{
		char *argv[] = { st, pidstr, NULL };

		rc = tool(argv, out, sizeof(out));
		if (rc != 0 || !strstr(out, "SCHED_ISO"))
			finish(FAIL, "schedtool %s (an ISO task): status %d, output lacks SCHED_ISO: %s",
			       pidstr, rc, out);
	}
	{
		char *argv[] = { ch, "-p", self, NULL };

		rc = tool(argv, out, sizeof(out));
		chrt_policy(out, ctl, sizeof(ctl));
		if (rc != 0 || strcmp(ctl, "SCHED_OTHER"))
			finish(FAIL, "chrt -p %s (a NORMAL task): status %d, policy \"%s\", want SCHED_OTHER",
			       self, rc, ctl);
	}
	{
		char *argv[] = { ch, "-p", pidstr, NULL };

		rc = tool(argv, out, sizeof(out));
		chrt_policy(out, word, sizeof(word));
		if (rc != 0 || (strcmp(word, "SCHED_ISO") && strcmp(word, "unknown")) ||
		    !strstr(out, "scheduling priority: 0") ||
		    sched_getscheduler(pid) != SCHED_ISO)
			finish(FAIL, "chrt -p %s (an ISO task): status %d, policy \"%s\", want SCHED_ISO or chrt 2.38's \"unknown\", priority 0; output: %s",
			       pidstr, rc, word, out);
	}
	{
		char *argv[] = { ch, "-o", "-p", "0", pidstr, NULL };

		rc = tool(argv, out, sizeof(out));
		if (rc != 0 || sched_getscheduler(pid) != SCHED_OTHER)
			finish(FAIL, "chrt -o -p 0 %s: status %d, policy now %d, want 0; output: %s",
			       pidstr, rc, sched_getscheduler(pid), out);
	}
	reap(pid);
	printf("tools: schedtool -I -e ran policy 4, schedtool names SCHED_ISO; chrt -p: \"%s\" for ISO (\"%s\" for NORMAL), chrt -o made it NORMAL\n",
	       word, ctl);
}

/* ---- preempt ------------------------------------------------------------ */

struct wakeups {
	int n;
	int64_t late[PRE_CYCLES], delay[PRE_CYCLES];
};

/* Child: sleep and burn PRE_CYCLES times on cpu, report on fd. */
static void __attribute__((noreturn)) sleeper(int cpu, int iso, int fd)
{
	struct wakeups w = { 0 };
	int64_t tgt, end, t1, t2, c0, c1;
	int i;

	if (tl_pin_tid(0, cpu) || setpriority(PRIO_PROCESS, 0, 0))
		_exit(2);
	if (iso && tl_set_policy(0, SCHED_ISO, 0))
		_exit(3);
	end = clock_ns(CLOCK_MONOTONIC) + (int64_t)(PRE_CAP_S * 1e9);
	tgt = clock_ns(CLOCK_MONOTONIC) + PRE_SLEEP_MS * MS;
	for (i = 0; i <= PRE_CYCLES && clock_ns(CLOCK_MONOTONIC) < end; i++) {
		struct timespec ts = { tgt / 1000000000LL, tgt % 1000000000LL };

		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts,
				       NULL) == EINTR)
			;
		t1 = clock_ns(CLOCK_MONOTONIC);
		c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		tl_burn_cpu(PRE_BURN_MS / 1000.0);
		t2 = clock_ns(CLOCK_MONOTONIC);
		c1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		if (i) {	/* the first wakeup only sets the pace */
			w.late[w.n] = t1 - tgt;
			w.delay[w.n] = (t2 - tgt) - (c1 - c0);
			w.n++;
		}
		tgt = t2 + PRE_SLEEP_MS * MS;
	}
	_exit(write(fd, &w, sizeof(w)) == sizeof(w) ? 0 : 4);
}

static void check_preempt(int cpu)
{
	static int64_t late[2][PRE_TRIALS * PRE_CYCLES];
	static int64_t delay[2][PRE_TRIALS * PRE_CYCLES];
	int n[2] = { 0, 0 }, i, j, fd[2];
	double ml[2], md[2];
	struct wakeups w;
	pid_t hog, pid;

	set_knob(ISO_CPU, 100);
	set_knob(RR, PRE_RR_MS);
	hog = track(tl_spawn_hog(SCHED_OTHER, -10, cpu));
	usleep(200000);
	hog_alive(hog, "nice -10 NORMAL");

	for (i = 0; i < PRE_TRIALS; i++) {
		int iso = abba(i);

		if (pipe(fd))
			finish(FAIL, "pipe: %s", strerror(errno));
		pid = fork();
		if (pid == 0) {
			close(fd[0]);
			sleeper(cpu, iso, fd[1]);
		}
		track(pid);
		close(fd[1]);
		if (read_full(fd[0], &w, sizeof(w), 15.0))
			finish(FAIL, "%s sleeper reported nothing (exit status %d)",
			       iso ? "ISO" : "NORMAL", wait_kid(pid, 1.0));
		close(fd[0]);
		wait_kid(pid, 5.0);
		for (j = 0; j < w.n && j < PRE_CYCLES; j++) {
			late[iso][n[iso]] = w.late[j];
			delay[iso][n[iso]++] = w.delay[j];
		}
	}
	reap(hog);
	set_knob(RR, saved[SAVED_RR].old);

	if (n[0] < 5 || n[1] < 10)
		finish(FAIL, "too few wakeups: NORMAL %d, ISO %d", n[0], n[1]);
	for (i = 0; i < 2; i++) {
		ml[i] = median_ms(late[i], n[i]);
		md[i] = median_ms(delay[i], n[i]);
	}
	printf("preempt: beside a nice -10 hog on CPU %d, rr %d ms: median lateness/delay NORMAL %.2f/%.2f ms (%d wakeups), ISO %.2f/%.2f ms (%d)\n",
	       cpu, PRE_RR_MS, ml[0], md[0], n[0], ml[1], md[1], n[1]);
	if (ml[1] >= ml[0] + PRE_RR_MS / 4.0)
		finish(FAIL, "ISO sleeper's median wakeup lateness %.2f ms, want < %.2f ms (NORMAL's + rr/4): no wakeup preemption of the NORMAL hog?",
		       ml[1], ml[0] + PRE_RR_MS / 4.0);
	if (md[1] * 3 >= md[0])
		finish(FAIL, "ISO sleeper's median delay %.2f ms, want under a third of the NORMAL sleeper's %.2f ms",
		       md[1], md[0]);
}

/* ---- iso_cpu=0 ---------------------------------------------------------- */

static void check_iso_off(int cpu)
{
	uint64_t ns[2];
	pid_t h[2];
	double s;

	set_knob(ISO_CPU, 0);
	h[0] = track(tl_spawn_hog(SCHED_ISO, 0, cpu));
	h[1] = track(tl_spawn_hog(SCHED_OTHER, 0, cpu));
	usleep(300000);
	hog_alive(h[0], "ISO");
	hog_alive(h[1], "NORMAL");
	if (sched_getscheduler(h[0]) != SCHED_ISO)
		finish(FAIL, "ISO hog has policy %d", sched_getscheduler(h[0]));
	runtimes_over(3, h, ns, 2);
	reap(h[0]);
	reap(h[1]);
	s = (double)ns[0] / (double)(ns[0] + ns[1] + 1);
	printf("iso_cpu=0: ISO hog's share beside a NORMAL hog on CPU %d: %.3f (%.0f/%.0f ms)\n",
	       cpu, s, ns[0] / 1e6, ns[1] / 1e6);
	if (s < 0.35 || s > 0.65)
		finish(FAIL, "iso_cpu=0: ISO hog got %.3f of one CPU beside a NORMAL hog, want 0.5 +- 0.15",
		       s);
}

/* ---- cap ---------------------------------------------------------------- */

static void check_cap(void)
{
	int cpus[MAX_HOGS], n, i, samples = 0, throttled = 0;
	uint64_t t0[2 * MAX_HOGS], sum[2] = { 0, 0 };
	long usage_sum = 0, u;
	pid_t h[2 * MAX_HOGS];
	cpu_set_t online;
	double s, c, usage, lo, hi;

	n = tl_usable_cpus(cpus, MAX_HOGS);
	if (n != tl_online_set(&online)) {
		printf("cap: skipped, %d usable CPUs of %d online\n", n,
		       tl_online_set(&online));
		return;
	}
	set_knob(ISO_CPU, CAP_ISO_CPU);
	set_knob(NORMAL_CACHE, CAP_CACHE_US);
	for (i = 0; i < n; i++) {
		h[i] = track(tl_spawn_hog(SCHED_ISO, 0, -1));
		h[n + i] = track(tl_spawn_hog(SCHED_OTHER, 0, -1));
	}
	sleep(CAP_WARMUP_S);
	for (i = 0; i < 2 * n; i++)
		hog_alive(h[i], i < n ? "ISO" : "NORMAL");
	for (i = 0; i < n; i++)
		if (sched_getscheduler(h[i]) != SCHED_ISO)
			finish(FAIL, "ISO hog has policy %d after warm-up",
			       sched_getscheduler(h[i]));

	for (i = 0; i < 2 * n; i++)
		t0[i] = tl_task_runtime_ns(h[i]);
	for (i = 0; i < CAP_SECS; i++) {
		sleep(1);
		u = vrq_stat("iso_usage");
		if (u < 0 || u > 100)
			finish(FAIL, "/proc/vrq_stats iso_usage %ld", u);
		usage_sum += u;
		throttled += vrq_stat("iso_throttled") == 1;
		samples++;
	}
	for (i = 0; i < 2 * n; i++)
		sum[i >= n] += tl_task_runtime_ns(h[i]) - t0[i];
	for (i = 0; i < 2 * n; i++)
		reap(h[i]);
	set_knob(NORMAL_CACHE, saved[SAVED_NORMAL_CACHE].old);

	s = (double)sum[0] / (double)(sum[0] + sum[1] + 1);
	c = 2 * s - 1;
	usage = (double)usage_sum / samples;
	lo = CAP_ISO_CPU / 100.0 - 0.05;
	hi = (1 + CAP_ISO_CPU / 100.0) / 2 + 0.05;
	printf("cap: iso_cpu %d, %d+%d hogs over %d s: ISO hogs' share %.3f (want %.2f..%.2f; 2S-1 = %.1f %%); iso_usage mean %.1f, throttled in %d/%d samples\n",
	       CAP_ISO_CPU, n, n, CAP_SECS, s, lo, hi, 100 * c, usage,
	       throttled, samples);
	if (usage < CAP_ISO_CPU - 10 || usage > CAP_ISO_CPU + 10)
		finish(FAIL, "iso_usage averaged %.1f with ISO hogs on every CPU, want %d +- 10",
		       usage, CAP_ISO_CPU);
	if (s < lo || s > hi)
		finish(FAIL, "ISO hogs got %.3f of the hogs' CPU time at iso_cpu %d, want %.2f..%.2f (at least the cap, at most the cap and half the rest)",
		       s, CAP_ISO_CPU, lo, hi);
}

/* ---- main --------------------------------------------------------------- */

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	unsigned int i;
	int cpus[1];
	ssize_t len;

	if (argc > 1 && !strcmp(argv[1], "--report-policy"))
		_exit(policy_code(sched_getscheduler(0)));

	test_name = "iso";
	setvbuf(stdout, NULL, _IOLBF, 0);

	if (access(RR, F_OK)) {
		struct sched_param sp = { .sched_priority = 0 };
		int rc = sched_setscheduler(0, SCHED_ISO, &sp), err = errno;

		if (rc == 0) {
			sched_setscheduler(0, SCHED_OTHER, &sp);
			finish(FAIL, "not a VRQ kernel, yet sched_setscheduler(policy 4, prio 0) succeeded");
		}
		if (err != EINVAL)
			finish(FAIL, "not a VRQ kernel: policy 4 gave %s, mainline gives EINVAL",
			       tl_errname(err));
		printf("mainline: sched_setscheduler(policy 4) gives EINVAL\n");
		finish(PASS, "not a VRQ kernel: policy 4 is EINVAL as on mainline");
	}
	require_vrq();

	len = readlink("/proc/self/exe", self_path, sizeof(self_path) - 1);
	if (len <= 0)
		finish(FAIL, "readlink /proc/self/exe: %s", strerror(errno));
	self_path[len] = '\0';
	if (tl_usable_cpus(cpus, 1) < 1)
		finish(FAIL, "no usable CPU");

	/* -1 is a valid value of the cache timeout (automatic) */
	for (i = 0; i < NSAVED; i++) {
		saved[i].old = read_long(saved[i].path, LONG_MIN);
		if (saved[i].old == LONG_MIN)
			finish(FAIL, "%s is missing", saved[i].path);
	}
	main_pid = getpid();
	atexit(cleanup);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	if (setpriority(PRIO_PROCESS, 0, 0))
		finish(FAIL, "cannot set nice 0");

	check_rt_to_iso();
	check_sysctl();
	check_fork_exec();
	check_tools();
	check_preempt(cpus[0]);
	check_iso_off(cpus[0]);
	check_cap();
	finish(PASS, "ISO preempts and outruns NORMAL, is capped at iso_cpu, is NORMAL at iso_cpu=0; rt_to_iso, sysctl, fork/exec and tools as specified");
}
