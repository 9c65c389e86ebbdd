// SPDX-License-Identifier: GPL-2.0
/*
 * Deadline order by nice: a nice 0 hog (A) and a nice 10 hog (B) pinned to
 * one CPU share it in the designed ratio, within 10%. Both get rr_interval
 * slices and each new deadline is now + prio_ratio[nice + 20] *
 * rr_interval / 128. B waits with the deadline it got when its last slice
 * ended; A keeps winning until its own renewed deadline passes B's, so A
 * runs 1 + (prio_ratio[30] - prio_ratio[20]) / 128 slices per slice of B
 * (about 11.6). The test simulates the rules at tick (1 ms) resolution
 * for the current rr_interval and expects that value (11.0 at 6 ms).
 *
 * Host stalls (an oversubscribed TCG host) push the measured ratio down,
 * because a task charged a long stall gets a fresh deadline and lets the
 * other run: the test reports the ratio so that shows.
 */
#include "vrq_test.h"

/* A/B CPU time ratio under the VRQ rules, simulated with 1 ms ticks. */
static double simulate(long rr)
{
	double da = prio_ratio(0) * (double)rr / 128;
	double db = prio_ratio(10) * (double)rr / 128;
	double t = 0, dl[2] = { 0, 0 }, sl[2] = { rr, rr }, ran[2] = { 0, 0 };
	int cur = 0;

	while (t < 200000) {
		t += 1;
		sl[cur] -= 1;
		ran[cur] += 1;
		if (sl[cur] < 0.1) {
			sl[cur] = rr;
			dl[cur] = t + (cur ? db : da);
			if (dl[!cur] < dl[cur])
				cur = !cur;
		}
	}
	return ran[0] / ran[1];
}

int main(void)
{
	double want, got;
	uint64_t got_ns[2];
	pid_t h[2];

	test_name = "nice_ratio";
	require_vrq();

	h[0] = tl_spawn_hog(SCHED_OTHER, 0, 0);  /* A */
	h[1] = tl_spawn_hog(SCHED_OTHER, 10, 0); /* B */
	usleep(300000);
	runtimes_over(4, h, got_ns, 2);
	tl_kill_wait(h[0]);
	tl_kill_wait(h[1]);

	if (got_ns[1] == 0)
		finish(FAIL, "nice 10 hog got no CPU (nice 0: %llu ns)",
		       (unsigned long long)got_ns[0]);
	want = simulate(read_long("/proc/sys/kernel/rr_interval", 6));
	got = (double)got_ns[0] / (double)got_ns[1];
	if (got < want * 0.9 || got > want * 1.1)
		finish(FAIL, "nice0/nice10 CPU ratio %.2f, designed %.2f (+-10%%)",
		       got, want);
	finish(PASS, "nice0/nice10 CPU ratio %.2f, designed %.2f", got, want);
}
