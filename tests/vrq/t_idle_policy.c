// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_IDLE is true idle priority: next to a NORMAL hog on one CPU an
 * idle-policy hog gets (almost) nothing; alone it gets the CPU. It must not
 * starve forever either: an idle-policy task holding a "lock" (here: owing
 * a byte on a pipe that a NORMAL task waits for) gets to run within seconds.
 */
#include "vrq_test.h"

int main(void)
{
	uint64_t got[2], alone, t0;
	double share;
	pid_t h[2], n, i, w;
	int fd[2];
	char c;

	test_name = "idle_policy";
	require_vrq();

	n = tl_spawn_hog(SCHED_OTHER, 0, 0);
	i = tl_spawn_hog(SCHED_IDLE, 0, 0);
	usleep(200000);
	h[0] = i;
	h[1] = n;
	runtimes_over(3, h, got, 2);
	share = 100.0 * got[0] / (double)(got[0] + got[1] + 1);
	if (share > 3.0) {
		tl_kill_wait(n);
		tl_kill_wait(i);
		finish(FAIL, "SCHED_IDLE hog got %.1f%% next to a NORMAL hog",
		       share);
	}
	tl_kill_wait(n);
	usleep(100000);
	alone = runtime_over(1, i);
	tl_kill_wait(i);
	if (alone < 500000000ull)
		finish(FAIL, "SCHED_IDLE hog alone on a CPU got only %.0f ms of 1000",
		       alone / 1e6);

	/* Starvation: the idle-policy task must deliver its byte. */
	if (pipe(fd))
		finish(FAIL, "pipe");
	n = tl_spawn_hog(SCHED_OTHER, 0, 0);
	w = fork();
	if (w == 0) {
		close(fd[0]);
		if (tl_pin_tid(0, 0) || tl_set_policy(0, SCHED_IDLE, 0))
			_exit(2);
		tl_burn_wall(0.020);	/* must run 20 ms of CPU first */
		if (write(fd[1], "x", 1) != 1)
			_exit(3);
		_exit(0);
	}
	close(fd[1]);
	t0 = now_ns();
	if (read(fd[0], &c, 1) != 1) {
		tl_kill_wait(n);
		finish(FAIL, "idle-policy lock holder died");
	}
	t0 = now_ns() - t0;
	tl_kill_wait(n);
	waitpid(w, NULL, 0);
	if (t0 > 20000000000ull)
		finish(FAIL, "idle-policy lock holder starved for %.1f s", t0 / 1e9);
	finish(PASS, "idle share %.2f%%, alone %.0f ms/s, holder done in %.2f s",
	       share, alone / 1e6, t0 / 1e9);
}
