// SPDX-License-Identifier: GPL-2.0
/*
 * VRQ interfaces: every sysctl accepts its range, rejects values outside it
 * with EINVAL and keeps its value; /proc/vrq_stats and /proc/PID/sched show
 * the VRQ data.
 */
#include "vrq_test.h"

static const struct {
	const char *name;
	long lo, hi, bad_lo, bad_hi;
} knobs[] = {
	{ "rr_interval", 1, 1000, 0, 1001 },
	{ "yield_type", 0, 2, -1, 3 },
	{ "sched_sync_preempt", 0, 1, -1, 2 },
	{ "sched_deadline_carry", 0, 2, -1, 3 },
	{ "sched_normal_cache_timeout_us", -1, 10000000, -2, 10000001 },
	{ "sched_batch_cache_timeout_us", 0, 10000000, -1, 10000001 },
	{ "sched_idle_cache_timeout_us", 0, 10000000, -1, 10000001 },
	{ "sched_idle_takes_cached", 0, 1, -1, 2 },
	{ "sched_sync_affine", 0, 1, -1, 2 },
};

int main(void)
{
	char path[128], buf[4096];
	unsigned int i;

	test_name = "sysctl";
	require_vrq();

	for (i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++) {
		long old, v;
		int err;

		snprintf(path, sizeof(path), "/proc/sys/kernel/%s", knobs[i].name);
		old = read_long(path, -12345);
		if (old == -12345)
			finish(FAIL, "%s missing", knobs[i].name);
		err = write_long(path, knobs[i].bad_lo);
		if (err != -EINVAL || read_long(path, 0) != old)
			finish(FAIL, "%s=%ld: err %d, value now %ld (was %ld)",
			       knobs[i].name, knobs[i].bad_lo, err,
			       read_long(path, 0), old);
		err = write_long(path, knobs[i].bad_hi);
		if (err != -EINVAL || read_long(path, 0) != old)
			finish(FAIL, "%s=%ld: err %d, value now %ld (was %ld)",
			       knobs[i].name, knobs[i].bad_hi, err,
			       read_long(path, 0), old);
		err = write_long(path, knobs[i].hi);
		v = read_long(path, 0);
		if (err || v != knobs[i].hi)
			finish(FAIL, "%s=%ld rejected (err %d, value %ld)",
			       knobs[i].name, knobs[i].hi, err, v);
		err = write_long(path, knobs[i].lo);
		v = read_long(path, 0);
		if (err || v != knobs[i].lo)
			finish(FAIL, "%s=%ld rejected (err %d, value %ld)",
			       knobs[i].name, knobs[i].lo, err, v);
		if (write_long(path, old))
			finish(FAIL, "cannot restore %s", knobs[i].name);
	}

	if (tl_read_file("/proc/vrq_stats", buf, sizeof(buf)) <= 0 ||
	    !strstr(buf, "cpu0 "))
		finish(FAIL, "/proc/vrq_stats missing or empty");
	if (tl_read_file("/proc/self/sched", buf, sizeof(buf)) > 0 &&
	    !strstr(buf, "vrq.deadline"))
		finish(FAIL, "/proc/self/sched lacks the VRQ fields");
	finish(PASS, "%u sysctls range-checked, stats and /proc/PID/sched present",
	       i);
}
