// SPDX-License-Identifier: GPL-2.0
/*
 * The utilisation signal VRQ keeps for schedutil: the "# util" table of
 * /proc/vrq_stats (util_avg, the PELT utilisation of the VRQ tasks of a
 * CPU with a 32 ms half-life, and effective, what schedutil would target:
 * max(uclamp_min, min(util, uclamp_max)) of the run queue), all on the
 * 1024 = one busy CPU scale. The columns are found by the names of the
 * "# util" header; a VRQ kernel without the table fails.
 *
 * Duty cycle. A task on the last usable CPU burns 4 ms of wall time in
 * every 16 ms (sleeping to absolute period starts, so a late wakeup does
 * not stretch the period). After 1 s the median of 10 util_avg samples
 * 100 ms apart must be within 10 points (102) of the CPU's busy share
 * over those samples: 1 - idle / wall time, with the idle time of its
 * /proc/stat line (exact on a NO_HZ kernel; the busy columns are not, as
 * they count ticks and a host stall eats ticks). That share is the duty
 * task plus whatever else ran there (the wakeups, the reader on one CPU,
 * kworkers). A busy host stretches each guest code path in guest time, so
 * the share grows (beside a host `stress-ng --cpu 2`, 1 and 2 vCPUs:
 * util_avg 384, 391 and 431, which a fixed 25 % +- 10 reference failed),
 * and util_avg must follow it. The busy share must be at least 15 % (the
 * duty task ran). The signal ripples about +-32 over a period; 100 ms is
 * 6.25 periods, so the samples fall on four phases of it. The reader is on another CPU, or
 * with one CPU reads once per 100 ms (about 1 %).
 *
 * Rise and decay, three trials. With the CPU below 10 %, a hog is started
 * on it; the time from the hog's own timestamp, taken once it runs there,
 * to util_avg >= 90 % must be <= 200 ms (theory: 32 * log2(10) = 106 ms
 * from 0). After the hog is killed, util_avg must fall below 10 % within
 * 300 ms (theory 106 ms). The reader polls every 5 ms (on one CPU, where
 * its own reads run on the CPU it reads, 10 ms for the rise and 50 ms while
 * it waits for the CPU to go idle: a read of every CPU's signal costs about
 * a millisecond on a TCG debug kernel, which at 10 ms kept a lone CPU near
 * 10 % and its decay past 300 ms) and stamps a sample
 * after the read, so a late read counts against the kernel. Guest time
 * runs on while the host holds a vCPU back, so a host stall during a hog
 * counts as running and during an idle stretch as idle: the signal keeps
 * to guest wall time and only the reader's wakeups are late. One stall
 * of about 100 ms can spoil a trial; two of three must meet each bound.
 *
 * uclamp. Once util_avg is >= 90 %, effective must be >= 90 % (control);
 * then uclamp.max 512 is set on the hog (and on the reader too with one
 * CPU, as the rq clamp is the max over its runnable tasks), and the
 * median effective of 5 samples must be <= 520. A kernel thread waking on
 * the CPU with the default clamp lifts the rq clamp only while it is
 * runnable, hence the median and, again, two trials of three. Without
 * CONFIG_UCLAMP_TASK (EOPNOTSUPP, no kernel.sched_util_clamp_max) this
 * part is skipped and the PASS line says so.
 *
 * Every figure is printed before the verdict; children die with the test
 * (atexit, and PR_SET_PDEATHSIG should it be killed). About 4 s.
 */
#include "vrq_test.h"

#include <math.h>
#include <signal.h>
#include <sys/prctl.h>

#define STATS "/proc/vrq_stats"
#define UCLAMP_SYSCTL "/proc/sys/kernel/sched_util_clamp_max"
#define FLAG_UTIL_CLAMP_MAX 0x40	/* SCHED_FLAG_UTIL_CLAMP_MAX, linux/sched.h */
#define FULL 1024
#define LOW 102			/* 10 % */
#define HIGH 922		/* 90 % */
#define DUTY_BURN_S 0.004
#define DUTY_PERIOD_S 0.016
#define DUTY_MARGIN 102
#define DUTY_MIN_BUSY 0.15
#define DUTY_SAMPLES 10
#define RISE_MS 200
#define DECAY_MS 300
#define CLAMP 512
#define CLAMP_SLACK 8
#define CLAMP_SAMPLES 5
#define TRIALS 3
#define NEED 2			/* trials of TRIALS that must meet a bound */
#define POLL_LIMIT_S 1.0
#define IDLE_LIMIT_S 2.0

struct util {
	long avg, eff;
};

struct trial {
	double rise_ms, decay_ms;	/* -1: not within POLL_LIMIT_S */
	long ctl, clamped;		/* effective before/after; -1: not run */
};

static int target, ncpu, poll_us, idle_poll_us;
static pid_t kid;

static void stop_kid(void)
{
	tl_kill_wait(kid);
	kid = 0;
}

/* @cpu's util_avg and effective from the "# util" table, or FAIL. */
static struct util get_util(int cpu)
{
	static char buf[1 << 16];
	static const char *const name[2] = { "util_avg", "effective" };
	char *line, *save = NULL, want[16];
	int col[2] = { -1, -1 }, table = 0;
	struct util u;

	if (tl_read_file(STATS, buf, sizeof(buf)) <= 0)
		finish(FAIL, "cannot read %s", STATS);
	snprintf(want, sizeof(want), "cpu%d", cpu);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *tok[16], *s2 = NULL;
		int n = 0, i;

		for (tok[0] = strtok_r(line, " \t", &s2); tok[n] && n < 15;
		     tok[++n] = strtok_r(NULL, " \t", &s2))
			;
		if (n >= 2 && !strcmp(tok[0], "#") && !strcmp(tok[1], "util")) {
			/* header columns, counted after the '#' */
			table = 1;
			for (i = 1; i < n; i++) {
				if (!strcmp(tok[i], name[0]))
					col[0] = i - 1;
				if (!strcmp(tok[i], name[1]))
					col[1] = i - 1;
			}
			if (col[0] < 0 || col[1] < 0)
				finish(FAIL, "%s: the # util header has no %s column",
				       STATS, name[col[0] < 0 ? 0 : 1]);
			continue;
		}
		if (!table || n < 2 || strcmp(tok[0], "util") ||
		    strcmp(tok[1], want))
			continue;
		if (col[0] >= n || col[1] >= n ||
		    sscanf(tok[col[0]], "%ld", &u.avg) != 1 ||
		    sscanf(tok[col[1]], "%ld", &u.eff) != 1)
			finish(FAIL, "%s: short line for util %s", STATS, want);
		return u;
	}
	if (!table)
		finish(FAIL, "%s has no \"# util\" table", STATS);
	finish(FAIL, "%s: no \"util %s\" line", STATS, want);
}

static void sleep_until(double t)
{
	struct timespec ts;

	ts.tv_sec = (time_t)t;
	ts.tv_nsec = (long)((t - (double)ts.tv_sec) * 1e9);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* About 25 % of a CPU: 4 ms of wall time per 16 ms period. */
static void duty_body(void)
{
	double next = tl_now(), now;

	for (;;) {
		tl_burn_wall(DUTY_BURN_S);
		next += DUTY_PERIOD_S;
		now = tl_now();
		if (now - next > DUTY_PERIOD_S)	/* a long stall: no catch-up burst */
			next = now;
		sleep_until(next);
	}
}

static void hog_body(void)
{
	for (;;)
		tl_spin(1UL << 20);
}

/* Start kid on @cpu running @body; returns the time it began to run there. */
static double spawn_on(int cpu, void (*body)(void))
{
	pid_t parent = getpid();
	int fd[2];
	double t;

	if (pipe(fd))
		finish(FAIL, "pipe");
	kid = fork();
	if (kid < 0)
		finish(FAIL, "fork");
	if (kid == 0) {
		close(fd[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent || tl_pin_tid(0, cpu))
			_exit(2);
		t = tl_now();
		if (write(fd[1], &t, sizeof(t)) != sizeof(t))
			_exit(3);
		close(fd[1]);
		body();
		_exit(0);
	}
	close(fd[1]);
	if (read(fd[0], &t, sizeof(t)) != sizeof(t))
		finish(FAIL, "child could not pin itself to CPU %d", cpu);
	close(fd[0]);
	return t;
}

/* sched_setattr uclamp.max of @pid (0: self); 0 or an errno value. */
static int set_uclamp_max(pid_t pid, unsigned int max)
{
	struct tl_sched_attr a;

	memset(&a, 0, sizeof(a));
	a.size = TL_SCHED_ATTR_SIZE_VER1;
	a.sched_flags = TL_SCHED_FLAG_KEEP_POLICY | TL_SCHED_FLAG_KEEP_PARAMS |
			FLAG_UTIL_CLAMP_MAX;
	a.sched_util_max = max;
	return tl_sched_setattr(pid, &a, 0) ? errno : 0;
}

static void must_clamp(pid_t pid, unsigned int max)
{
	int e = set_uclamp_max(pid, max);

	if (e)
		finish(FAIL, "sched_setattr(%s, uclamp.max %u): %s",
		       pid ? "hog" : "self", max, tl_errname(e));
}

/*
 * Poll @cpu every @step_us until util_avg >= @level (@up) or < @level
 * (!@up); the ms from @t0 to the sample that first did, or -1 if none
 * within @limit_s.
 */
static double wait_util(int cpu, int up, long level, double t0, double limit_s,
			useconds_t step_us, struct util *u)
{
	double t;

	for (;;) {
		*u = get_util(cpu);
		t = tl_now();
		if (up ? u->avg >= level : u->avg < level)
			return (t - t0) * 1000;
		if (t - t0 > limit_s)
			return -1;
		usleep(step_us);
	}
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

static long median(long *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_long);
	return v[n / 2];
}

/*
 * @cpu's idle time in seconds from its /proc/stat line (idle + iowait; on a
 * NO_HZ kernel the exact idle time, in clock ticks). FAILs without it.
 */
static double cpu_idle_s(int cpu)
{
	static char buf[1 << 16];
	unsigned long long idle, iowait;
	char want[24], *p;

	snprintf(want, sizeof(want), "\ncpu%d ", cpu);
	if (tl_read_file("/proc/stat", buf, sizeof(buf)) <= 0 ||
	    !(p = strstr(buf, want)) ||
	    sscanf(p + strlen(want), "%*u %*u %*u %llu %llu", &idle, &iowait) != 2)
		finish(FAIL, "/proc/stat: no cpu%d line", cpu);
	return (double)(idle + iowait) / sysconf(_SC_CLK_TCK);
}

/*
 * Median util_avg of the duty-cycle task's CPU; *lo, *hi: the range;
 * *busy: the CPU's busy share from 0.1 s before the first sample to the
 * last.
 */
static long duty_util(long *lo, long *hi, double *busy)
{
	double t, w0, i0;
	long v[DUTY_SAMPLES];
	int i;

	t = spawn_on(target, duty_body) + 1.0;
	sleep_until(t - 0.1);
	i0 = cpu_idle_s(target);
	w0 = tl_now();
	for (i = 0; i < DUTY_SAMPLES; i++, t += 0.1) {
		sleep_until(t);
		v[i] = get_util(target).avg;
	}
	*busy = 1 - (cpu_idle_s(target) - i0) / (tl_now() - w0);
	stop_kid();
	qsort(v, DUTY_SAMPLES, sizeof(*v), cmp_long);
	*lo = v[0];
	*hi = v[DUTY_SAMPLES - 1];
	return v[DUTY_SAMPLES / 2];
}

static void run_trial(struct trial *tr, int clamp)
{
	long eff[CLAMP_SAMPLES];
	struct util u;
	double t0;
	int i;

	tr->ctl = tr->clamped = -1;
	if (wait_util(target, 0, LOW, tl_now(), IDLE_LIMIT_S, idle_poll_us, &u) < 0)
		finish(FAIL, "CPU %d util_avg still %ld after %.0f s with no task of the test on it",
		       target, u.avg, IDLE_LIMIT_S);
	t0 = spawn_on(target, hog_body);
	tr->rise_ms = wait_util(target, 1, HIGH, t0, POLL_LIMIT_S, poll_us, &u);
	if (clamp && tr->rise_ms >= 0) {
		tr->ctl = u.eff;
		usleep(poll_us);
		u = get_util(target);
		if (u.eff > tr->ctl)
			tr->ctl = u.eff;
		must_clamp(kid, CLAMP);
		if (ncpu == 1)
			must_clamp(0, CLAMP);
		for (i = 0; i < CLAMP_SAMPLES; i++) {
			usleep(poll_us);
			eff[i] = get_util(target).eff;
		}
		if (ncpu == 1)
			must_clamp(0, FULL);
		tr->clamped = median(eff, CLAMP_SAMPLES);
	}
	t0 = tl_now();
	stop_kid();
	tr->decay_ms = wait_util(target, 0, LOW, t0, POLL_LIMIT_S, idle_poll_us,
				 &u);
}

/* "a/b/c" of the trials' times in ms, ">1000" for one not seen. */
static const char *ms_list(char *buf, size_t sz, const struct trial *tr,
			   int decay)
{
	size_t len = 0;
	double ms;
	int i;

	buf[0] = '\0';
	for (i = 0; i < TRIALS && len < sz; i++) {
		ms = decay ? tr[i].decay_ms : tr[i].rise_ms;
		if (ms < 0)
			len += snprintf(buf + len, sz - len, "%s>%.0f",
					i ? "/" : "", POLL_LIMIT_S * 1000);
		else
			len += snprintf(buf + len, sz - len, "%s%.0f",
					i ? "/" : "", ms);
	}
	return buf;
}

int main(void)
{
	struct trial tr[TRIALS];
	char rise[64], decay[64], why[256] = "";
	long duty, lo, hi, want;
	double busy;
	int cpus[64], i, e, clamp, n_rise = 0, n_decay = 0, n_clamp = 0;

	test_name = "util";
	require_vrq();
	ncpu = tl_usable_cpus(cpus, 64);
	if (ncpu < 1)
		finish(FAIL, "no usable CPU");
	target = cpus[ncpu - 1];
	if (tl_pin_tid(0, ncpu >= 2 ? cpus[0] : target))
		finish(FAIL, "cannot pin the reader");
	poll_us = ncpu >= 2 ? 5000 : 10000;
	/* Waiting for an idle CPU on one CPU, the reads must not keep it busy. */
	idle_poll_us = ncpu >= 2 ? 5000 : 50000;
	atexit(stop_kid);
	get_util(target);	/* FAILs without the table */

	/* uclamp.max 1024 on itself changes nothing but tells if uclamp is there. */
	e = set_uclamp_max(0, FULL);
	clamp = !e;
	if (e && (e != EOPNOTSUPP || !access(UCLAMP_SYSCTL, F_OK)))
		finish(FAIL, "sched_setattr(self, uclamp.max %d): %s%s", FULL,
		       tl_errname(e), access(UCLAMP_SYSCTL, F_OK) ? "" :
		       " although " UCLAMP_SYSCTL " exists");

	duty = duty_util(&lo, &hi, &busy);
	want = lround(busy * FULL);
	printf("duty cycle 4/16 ms on CPU %d: util_avg median %ld of %d samples (%ld..%ld), CPU busy %.1f %%: want %ld +- %d\n",
	       target, duty, DUTY_SAMPLES, lo, hi, 100 * busy, want, DUTY_MARGIN);
	if (busy < DUTY_MIN_BUSY)
		snprintf(why, sizeof(why), "25 %% duty cycle: CPU %d only %.1f %% busy: the duty task did not run",
			 target, 100 * busy);
	else if (duty < want - DUTY_MARGIN || duty > want + DUTY_MARGIN)
		snprintf(why, sizeof(why), "25 %% duty cycle: util_avg %ld, CPU busy %.1f %%: want %ld +- %d",
			 duty, 100 * busy, want, DUTY_MARGIN);

	for (i = 0; i < TRIALS; i++) {
		run_trial(&tr[i], clamp);
		n_rise += tr[i].rise_ms >= 0 && tr[i].rise_ms <= RISE_MS;
		n_decay += tr[i].decay_ms >= 0 && tr[i].decay_ms <= DECAY_MS;
		n_clamp += tr[i].ctl >= HIGH && tr[i].clamped >= 0 &&
			   tr[i].clamped <= CLAMP + CLAMP_SLACK;
	}
	ms_list(rise, sizeof(rise), tr, 0);
	ms_list(decay, sizeof(decay), tr, 1);
	printf("rise to util_avg >= %d: %s ms from the hog's start, want <= %d ms in %d of %d\n",
	       HIGH, rise, RISE_MS, NEED, TRIALS);
	printf("decay to util_avg < %d: %s ms from the kill, want <= %d ms in %d of %d\n",
	       LOW, decay, DECAY_MS, NEED, TRIALS);
	if (clamp)
		printf("uclamp.max %d: effective %ld/%ld/%ld at util_avg >= %d, %ld/%ld/%ld clamped, want >= %d then <= %d in %d of %d\n",
		       CLAMP, tr[0].ctl, tr[1].ctl, tr[2].ctl, HIGH,
		       tr[0].clamped, tr[1].clamped, tr[2].clamped, HIGH,
		       CLAMP + CLAMP_SLACK, NEED, TRIALS);
	else
		printf("uclamp: skipped, sched_setattr gives EOPNOTSUPP and there is no %s (no CONFIG_UCLAMP_TASK)\n",
		       UCLAMP_SYSCTL);

	if (!why[0] && n_rise < NEED)
		snprintf(why, sizeof(why), "rise to 90 %%: %s ms, want <= %d ms in %d of %d",
			 rise, RISE_MS, NEED, TRIALS);
	if (!why[0] && n_decay < NEED)
		snprintf(why, sizeof(why), "decay to 10 %%: %s ms, want <= %d ms in %d of %d",
			 decay, DECAY_MS, NEED, TRIALS);
	if (!why[0] && clamp && n_clamp < NEED)
		snprintf(why, sizeof(why), "uclamp.max %d: effective %ld/%ld/%ld clamped (%ld/%ld/%ld before), want <= %d in %d of %d",
			 CLAMP, tr[0].clamped, tr[1].clamped, tr[2].clamped,
			 tr[0].ctl, tr[1].ctl, tr[2].ctl, CLAMP + CLAMP_SLACK,
			 NEED, TRIALS);
	if (why[0])
		finish(FAIL, "%s", why);
	if (!clamp)
		finish(PASS, "util_avg %ld at a 25 %% duty cycle, rise %s ms, decay %s ms (uclamp check skipped: no CONFIG_UCLAMP_TASK)",
		       duty, rise, decay);
	finish(PASS, "util_avg %ld at a 25 %% duty cycle, rise %s ms, decay %s ms, uclamp.max %d holds effective to %ld/%ld/%ld",
	       duty, rise, decay, CLAMP, tr[0].clamped, tr[1].clamped,
	       tr[2].clamped);
}
