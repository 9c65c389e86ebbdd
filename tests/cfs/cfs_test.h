/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the CFS comparison kernel tests (tests/cfs/t_*.c): reading
 * and flipping sched_feat bits in /sys/kernel/debug/sched/features,
 * schedstats, the sched-idle balancing counters of /proc/schedstat, the
 * per-task counters of /proc/self/task/TID/sched, and the CPUs, affinities,
 * futex hand-offs and spinners the scenarios are made of.
 *
 * Header-only (static functions) on top of tests/guest/tlib.
 */
#ifndef CFS_TEST_H
#define CFS_TEST_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../guest/tlib.h"

#define CFS_FEATURES "/sys/kernel/debug/sched/features"
#define CFS_SCHEDSTATS "/proc/sys/kernel/sched_schedstats"

/* The feature bits the cfs-*.patch series adds, with their defaults. */
struct cfs_feat {
	const char *name;
	int def;
};

static const struct cfs_feat cfs_feats[] = {
	{ "WA_IDLE_PREV", 1 },
	{ "WA_SCHED_IDLE_PREV", 0 },
	{ "SIB_PULL", 0 },
	{ "SIB_KEEP_LAST", 0 },
	{ "SIS_SKIP_OVERLOADED", 0 },
	{ "SIB_IDLE_CAPACITY", 0 },
};

#define CFS_NR_FEATS ((int)(sizeof(cfs_feats) / sizeof(cfs_feats[0])))

/* 1 = on, 0 = off (NO_name listed), -1 = not listed, -2 = no file. */
static inline int cfs_feat_get(const char *name)
{
	char buf[8192], want[128];
	char *tok, *save = NULL;

	if (tl_read_file(CFS_FEATURES, buf, sizeof(buf)) < 0)
		return -2;
	for (tok = strtok_r(buf, " \n", &save); tok;
	     tok = strtok_r(NULL, " \n", &save)) {
		if (!strcmp(tok, name))
			return 1;
		snprintf(want, sizeof(want), "NO_%s", name);
		if (!strcmp(tok, want))
			return 0;
	}
	return -1;
}

static inline int cfs_feat_set(const char *name, int on)
{
	char buf[128];

	snprintf(buf, sizeof(buf), "%s%s", on ? "" : "NO_", name);
	if (tl_write_file(CFS_FEATURES, buf))
		return -1;
	return cfs_feat_get(name) == !!on ? 0 : -1;
}

/*
 * Skip unless this is a CFS kernel with debugfs features; fail (and exit)
 * if it is CFS but lacks one of the series' bits. Saves every bit so that
 * cfs_restore() (registered with atexit) puts them back.
 */
static int cfs_saved[CFS_NR_FEATS];
static int cfs_saved_schedstats = -1;

static inline void cfs_restore(void)
{
	int i;

	for (i = 0; i < CFS_NR_FEATS; i++)
		if (cfs_saved[i] >= 0)
			cfs_feat_set(cfs_feats[i].name, cfs_saved[i]);
	if (cfs_saved_schedstats >= 0)
		tl_write_file(CFS_SCHEDSTATS, cfs_saved_schedstats ? "1" : "0");
}

static inline void cfs_require_kernel(void)
{
	int i, v;

	if (geteuid() != 0)
		tl_skip("needs root for %s", CFS_FEATURES);
	v = cfs_feat_get("WA_IDLE");
	if (v == -2)
		tl_skip("no %s (debugfs not mounted or !SCHED_DEBUG)", CFS_FEATURES);
	if (v == -1)
		tl_skip("not a CFS kernel (no WA_IDLE feature)");
	for (i = 0; i < CFS_NR_FEATS; i++) {
		cfs_saved[i] = cfs_feat_get(cfs_feats[i].name);
		if (cfs_saved[i] < 0)
			tl_die("feature %s missing from %s: cfs-*.patch not applied?",
			       cfs_feats[i].name, CFS_FEATURES);
	}
	atexit(cfs_restore);
}

static inline void cfs_set_or_die(const char *name, int on)
{
	if (cfs_feat_set(name, on))
		tl_die("cannot set %s%s", on ? "" : "NO_", name);
}

/* Turn schedstats on (restored at exit); returns 0 or -1 if unavailable. */
static inline int cfs_schedstats_on(void)
{
	char buf[16];

	if (tl_read_file(CFS_SCHEDSTATS, buf, sizeof(buf)) < 0)
		return -1;
	if (cfs_saved_schedstats < 0)
		cfs_saved_schedstats = atoi(buf);
	return tl_write_file(CFS_SCHEDSTATS, "1");
}

/* The sched-idle balancing counters appended to a cpu line of /proc/schedstat */
struct cfs_sib_stats {
	unsigned long long count, pulled, kept_last, sis_skip;
};

/* Returns 0, or -1 if the line or the appended fields are missing. */
static inline int cfs_sib_stats(int cpu, struct cfs_sib_stats *st)
{
	static char buf[1 << 16];
	unsigned long long f[13];
	char want[32], *line;
	int n;

	if (tl_read_file("/proc/schedstat", buf, sizeof(buf)) < 0)
		return -1;
	snprintf(want, sizeof(want), "\ncpu%d ", cpu);
	line = strstr(buf, want);
	if (!line)
		return -1;
	n = sscanf(line + strlen(want),
		   "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
		   &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7], &f[8],
		   &f[9], &f[10], &f[11], &f[12]);
	if (n != 13)
		return -1;
	st->count = f[9];
	st->pulled = f[10];
	st->kept_last = f[11];
	st->sis_skip = f[12];
	return 0;
}

/* A counter from /proc/self/task/TID/sched ("name : value"); -1 if absent. */
static inline long long cfs_task_sched_value(pid_t tid, const char *name)
{
	char path[64], line[256];
	long long v = -1;
	size_t len = strlen(name);
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/sched", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *p = line;

		while (*p == ' ')
			p++;
		if (!strncmp(p, name, len) && (p[len] == ' ' || p[len] == ':')) {
			p = strchr(p, ':');
			if (p)
				v = atoll(p + 1);
			break;
		}
	}
	fclose(f);
	return v;
}

static inline int cfs_set_policy(pid_t tid, int policy)
{
	return tl_set_policy(tid, policy, 0);
}

/* The sib counters summed over the usable CPUs; 0, or -1 if one is missing. */
static inline int cfs_sib_stats_all(struct cfs_sib_stats *sum)
{
	struct cfs_sib_stats st;
	int cpus[64], n = tl_usable_cpus(cpus, 64), i;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < n; i++) {
		if (cfs_sib_stats(cpus[i], &st))
			return -1;
		sum->count += st.count;
		sum->pulled += st.pulled;
		sum->kept_last += st.kept_last;
		sum->sis_skip += st.sis_skip;
	}
	return 0;
}

/* ---- CPUs, threads and spinners of the scenarios ------------------------ */

/* The first two usable CPUs into *a and *b; skips the test with fewer. */
static inline void cfs_two_cpus(int *a, int *b)
{
	int cpus[64], n = tl_usable_cpus(cpus, 64);

	if (n < 2)
		tl_skip("needs 2 CPUs, has %d", n);
	*a = cpus[0];
	*b = cpus[1];
}

/* Allow tid (0 = the caller) on CPU a and, if b >= 0, on CPU b, or die. */
static inline void cfs_set_aff(pid_t tid, int a, int b)
{
	if (tl_pin_two(tid, a, b))
		tl_die("sched_setaffinity(%d): %s", (int)tid, tl_errname(errno));
}

/*
 * The start of a sched-idle balancing test (t_sib_pull, t_sib_keep_last):
 * a CFS kernel with the series' bits, two CPUs *a and *b with the caller
 * allowed on both, schedstats on where available (the counters are then
 * checked) and the other SIB bit, off, turned off.
 */
static inline void cfs_sib_test_init(const char *name, int *a, int *b,
				     const char *off)
{
	tl_init(name);
	cfs_require_kernel();
	cfs_two_cpus(a, b);
	cfs_set_aff(0, *a, *b);
	if (cfs_schedstats_on())
		tl_info("schedstats unavailable: counters not checked");
	cfs_set_or_die(off, 0);
}

/*
 * The trials of a sched-idle balancing test (t_sib_pull, t_sib_keep_last):
 * n rounds of run(1, i) then run(0, i), so that on and off alternate. Then
 * line[on] lists the trials of each setting, each one written by
 * show(buf, size, sep, on, i) after sep ("" before the first, ", " between),
 * and both lists are reported: "<feat>: <what><line[1]>" and
 * "NO_<feat>: <what><line[0]>".
 */
#define CFS_TRIAL_LINE 256

static inline void cfs_run_trials(int n, void (*run)(int on, int i),
				  int (*show)(char *buf, size_t size,
					      const char *sep, int on, int i),
				  char line[2][CFS_TRIAL_LINE], const char *feat,
				  const char *what)
{
	int i, on;

	for (i = 0; i < n; i++)
		for (on = 1; on >= 0; on--)
			run(on, i);

	for (on = 0; on < 2; on++) {
		size_t len = 0;

		line[on][0] = 0;
		for (i = 0; i < n && len < CFS_TRIAL_LINE; i++)
			len += show(line[on] + len, CFS_TRIAL_LINE - len,
				    i ? ", " : "", on, i);
	}
	tl_info("%s: %s%s", feat, what, line[1]);
	tl_info("NO_%s: %s%s", feat, what, line[0]);
}

/* Wait while *w == old; wake one waiter of *w after bumping it. */
static inline void cfs_futex_wait(atomic_int *w, int old)
{
	while (atomic_load(w) == old)
		syscall(SYS_futex, w, FUTEX_WAIT_PRIVATE, old, NULL, NULL, 0);
}

static inline void cfs_futex_post(atomic_int *w)
{
	atomic_fetch_add(w, 1);
	syscall(SYS_futex, w, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* n spinners pinned to cpu, spinning at once (chunk 0: tlib's default). */
static inline void cfs_spinners_start(struct tl_spinner *s, int n, int cpu,
				      unsigned long chunk)
{
	int i;

	for (i = 0; i < n; i++) {
		s[i].chunk = chunk;
		if (tl_spinner_start(&s[i], cpu, 0, 0))
			tl_die("cannot start spinner");
	}
}

/* n SCHED_IDLE spinners pinned to cpu (SCHED_IDLE before they spin). */
static inline void cfs_idle_spinners_start(struct tl_spinner *s, int n, int cpu)
{
	int i;

	for (i = 0; i < n; i++) {
		if (tl_spinner_start(&s[i], cpu, 0, 1))
			tl_die("cannot start SCHED_IDLE spinner");
		if (cfs_set_policy(s[i].tid, SCHED_IDLE))
			tl_die("SCHED_IDLE: %s", tl_errname(errno));
		tl_spinner_go(&s[i]);
	}
}

static inline void cfs_spinners_stop(struct tl_spinner *s, int n)
{
	int i;

	for (i = 0; i < n; i++)
		tl_spinner_stop(&s[i]);
}

/*
 * The spinner scene of the sched-idle balancing tests (t_sib_pull,
 * t_sib_keep_last): n_idle SCHED_IDLE spinners pinned to idle_cpu, n_norm
 * NORMAL spinners (short rounds, so last_cpu stays fresh) started pinned to
 * CPU a, and the calling thread, which samples them, moved to CPU b.
 *
 *	cfs_scene_start(&sc, ...);          spinners run, 50 ms settled
 *	(counters before)
 *	cfs_scene_release(&sc);             NORMAL spinners allowed on a and b
 *	while (cfs_scene_sample(&sc, secs))  every 5 ms for secs seconds;
 *		... sc.norm[i].last_cpu, sc.t   sc.t: seconds since the release
 *	(counters after)
 *	cfs_scene_stop(&sc);
 */
#define CFS_SCENE_MAX 2

struct cfs_scene {
	int a, b, n_idle, n_norm;
	struct tl_spinner idle[CFS_SCENE_MAX], norm[CFS_SCENE_MAX];
	double t0, t;
};

static inline void cfs_scene_start(struct cfs_scene *sc, int n_idle, int idle_cpu,
				   int n_norm, int a, int b)
{
	memset(sc, 0, sizeof(*sc));
	if (n_idle > CFS_SCENE_MAX || n_norm > CFS_SCENE_MAX)
		tl_die("cfs_scene_start: at most %d spinners a kind", CFS_SCENE_MAX);
	sc->a = a;
	sc->b = b;
	sc->n_idle = n_idle;
	sc->n_norm = n_norm;
	cfs_idle_spinners_start(sc->idle, n_idle, idle_cpu);
	cfs_spinners_start(sc->norm, n_norm, a, 2000);
	cfs_set_aff(0, b, -1); /* the sampling thread stays off A */
	tl_sleep(0.05);
}

static inline void cfs_scene_release(struct cfs_scene *sc)
{
	int i;

	for (i = 0; i < sc->n_norm; i++)
		cfs_set_aff(sc->norm[i].tid, sc->a, sc->b);
	sc->t0 = tl_now();
}

/* 1 after a 5 ms sleep while secs have not passed since the release (sc->t
 * is the time since the release, taken before the sleep), else 0. */
static inline int cfs_scene_sample(struct cfs_scene *sc, double secs)
{
	sc->t = tl_now() - sc->t0;
	if (sc->t >= secs)
		return 0;
	tl_sleep(0.005);
	return 1;
}

static inline void cfs_scene_stop(struct cfs_scene *sc)
{
	cfs_spinners_stop(sc->norm, sc->n_norm);
	cfs_spinners_stop(sc->idle, sc->n_idle);
}

#endif /* CFS_TEST_H */
