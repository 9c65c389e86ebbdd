// SPDX-License-Identifier: GPL-2.0
/*
 * The VRQ 4.3 thread's scenario: two SCHED_BATCH nice 19 hogs keep 2 CPUs
 * busy; NORMAL work that needs a full CPU must get one (rather than wait
 * behind cache timeouts or share with the batch hogs).
 */
#include "vrq_test.h"

int main(void)
{
	uint64_t got;
	pid_t b1, b2, w;

	test_name = "vrq43";
	require_vrq();
	require_two_cpus();

	b1 = tl_spawn_hog(SCHED_BATCH, 19, -1);
	b2 = tl_spawn_hog(SCHED_BATCH, 19, -1);
	usleep(500000);
	w = tl_spawn_hog(SCHED_OTHER, 0, -1);
	usleep(200000);
	got = runtime_over(2, w);
	tl_kill_wait(w);
	tl_kill_wait(b1);
	tl_kill_wait(b2);

	if (got < 1700000000ull)
		finish(FAIL, "NORMAL hog got %.0f ms of 2000 next to 2 BATCH nice 19 hogs",
		       got / 1e6);
	finish(PASS, "NORMAL hog got %.0f ms of 2000 next to 2 BATCH nice 19 hogs",
	       got / 1e6);
}
