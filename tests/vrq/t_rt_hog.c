// SPDX-License-Identifier: GPL-2.0
/*
 * RT starvation guard: a SCHED_FIFO hog on CPU 0 with the default
 * sched_rt_runtime_us must leave a NORMAL task on CPU 0 some CPU time
 * (the deadline server and RT throttling give it about 5%).
 */
#include "vrq_test.h"

int main(void)
{
	uint64_t got;
	long old_rt;
	pid_t rt, n;

	test_name = "rt_hog";
	require_vrq();

	old_rt = read_long("/proc/sys/kernel/sched_rt_runtime_us", -2);
	if (old_rt == -2)
		finish(SKIP, "no sched_rt_runtime_us");
	if (old_rt != 950000 && write_long("/proc/sys/kernel/sched_rt_runtime_us", 950000))
		finish(SKIP, "cannot set sched_rt_runtime_us");

	/* The parent outranks the hog so it can always stop it. */
	if (tl_set_policy(0, SCHED_FIFO, 90))
		finish(SKIP, "cannot use SCHED_FIFO");

	n = tl_spawn_hog(SCHED_OTHER, 0, 0);
	rt = fork();
	if (rt == 0) {
		if (tl_pin_tid(0, 0) || tl_set_policy(0, SCHED_FIFO, 10))
			_exit(2);
		tl_burn_wall(4.0);	/* bounded even if never stopped */
		_exit(0);
	}
	usleep(300000);
	got = runtime_over(3, n);
	tl_kill_wait(rt);
	tl_kill_wait(n);
	if (old_rt != 950000)
		write_long("/proc/sys/kernel/sched_rt_runtime_us", old_rt);

	if (got < 30000000ull)
		finish(FAIL, "NORMAL task got %.1f ms in 3 s under an RT hog",
		       got / 1e6);
	finish(PASS, "NORMAL task got %.1f ms in 3 s under an RT hog",
	       got / 1e6);
}
