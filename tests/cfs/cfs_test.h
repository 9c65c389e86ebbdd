/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the CFS comparison kernel tests (tests/cfs/t_*.c): reading
 * and flipping sched_feat bits in /sys/kernel/debug/sched/features,
 * schedstats, the sched-idle balancing counters of /proc/schedstat and the
 * per-task counters of /proc/self/task/TID/sched.
 *
 * Header-only (static functions) on top of tests/guest/tlib.
 */
#ifndef CFS_TEST_H
#define CFS_TEST_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	struct sched_param sp = { .sched_priority = 0 };

	return sched_setscheduler(tid, policy, &sp);
}

#endif /* CFS_TEST_H */
