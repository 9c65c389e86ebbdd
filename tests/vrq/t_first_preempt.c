// SPDX-License-Identifier: GPL-2.0
/*
 * First preemptable CPU: with every CPU busy, a waking NORMAL task goes to
 * the FIRST allowed CPU, in locality order from its own CPU, that runs a
 * task with a later deadline, not to the CPU with the latest deadline and
 * not to the first from CPU 0. CPU 0 runs a nice 0 hog, CPU 1 a nice 19 hog;
 * the waker (nice -5, so its deadline is clearly earlier) must wake on
 * CPU 0 when its own CPU is 0 and on CPU 1 when its own CPU is 1.
 */
#include "vrq_test.h"

#define ROUNDS 40

/* Rounds (of ROUNDS) in which the sleeper woke on @home. */
static int phase(int home)
{
	int i, n = 0;

	tl_pin_tid(0, home);
	tl_pin_two(0, 0, 1);
	for (i = 0; i < ROUNDS; i++) {
		if (sched_getcpu() != home) {
			/* put it back home for the next wakeup */
			tl_pin_tid(0, home);
			tl_pin_two(0, 0, 1);
		}
		usleep(5000);
		if (sched_getcpu() == home)
			n++;
	}
	return n;
}

int main(void)
{
	int n0, n1;
	pid_t h0, h1;

	test_name = "first_preempt";
	require_vrq();
	require_two_cpus();

	if (setpriority(PRIO_PROCESS, 0, -5))
		finish(SKIP, "cannot set nice -5");
	h0 = tl_spawn_hog(SCHED_OTHER, 0, 0);
	h1 = tl_spawn_hog(SCHED_OTHER, 19, 1);
	usleep(300000);
	n0 = phase(0);
	n1 = phase(1);
	tl_kill_wait(h0);
	tl_kill_wait(h1);

	if (n0 < ROUNDS * 8 / 10)
		finish(FAIL, "own CPU 0 (nice 0 hog): woke there in %d/%d rounds (best-CPU instead of first?)",
		       n0, ROUNDS);
	if (n1 < ROUNDS * 8 / 10)
		finish(FAIL, "own CPU 1: woke there in %d/%d rounds (scan from CPU 0?)",
		       n1, ROUNDS);
	finish(PASS, "woke on own CPU: %d/%d from CPU 0, %d/%d from CPU 1",
	       n0, ROUNDS, n1, ROUNDS);
}
