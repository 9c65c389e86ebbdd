// SPDX-License-Identifier: GPL-2.0
/*
 * kernel.sched_deadline_carry: when a slice runs out, the next deadline is
 * the old one + offset, kept between now and now + offset (vrq_renew()).
 *
 * The wakeup rule. A sleeper (5 ms sleep, 0.5 ms of CPU a wakeup, about
 * 9 % of a CPU) beside two nice 0 hogs, all on CPU 0, rr_interval 10 ms.
 * Under the BFS rule (carry 0) each time its slice runs out it gets
 * now + offset, behind both hogs, and waits one or two hog slices
 * (10-20 ms): one cycle in twenty. The slice runs out at a wakeup or at a
 * tick inside the burn, so the wait is judged on the whole cycle: a cycle
 * is late when sleep and burn took over 8 ms more than their 5.5 ms.
 * (Judging the sleep alone missed the waits inside the burn: a busy host
 * moved more of them there, and carry 0's late share fell to 1.2 %.)
 * With carry 1 it keeps waking ahead of the hogs. Trials of both settings
 * alternate; the test passes when carry 1 has at most half the late cycles
 * of carry 0, or, where host noise makes cycles late under both rules,
 * clearly fewer: a one-sided two-proportion z of 2 or more; and carry 0
 * has at least 3 % (the control: the test sees the BFS wait at all; 4-vCPU
 * debug boots saw 8.9-10.1 % with carry 0 and 0.2-1.2 % with carry 1,
 * quiet or beside a host `stress-ng --cpu 2`). When the host held the vCPU
 * back so much that the sleeper got under 3/4 of its cycles with carry 1,
 * the rules cannot be told apart and the test skips.
 *
 * No gain from sleeping. A task that burns 2 ms and sleeps 0.2 ms, over
 * and over, beside three nice 0 hogs on CPU 0 gets no more than its fair
 * 25 % + 10 points of the CPU, with carry on; and the hogs share the rest
 * within 10 %.
 */
#include "vrq_test.h"

#include <math.h>

#define CARRY "/proc/sys/kernel/sched_deadline_carry"
#define RR "/proc/sys/kernel/rr_interval"
#define RR_MS 10
#define TRIALS 4
#define TRIAL_S 2.0
#define LATE_MS 8
/* cycles a carry 1 trial sees (2 s / 5.5 ms + costs; debug boots: 330-343) */
#define EXPECT_CYCLES 330

/*
 * How clearly a/n is below b/m: the one-sided two-proportion z statistic
 * (pooled), 0 when there is nothing to compare.
 */
static double fewer_z(int a, int n, int b, int m)
{
	double p = (double)(a + b) / (n + m), se;

	if (!n || !m || p <= 0 || p >= 1)
		return 0;
	se = sqrt(p * (1 - p) * (1.0 / n + 1.0 / m));
	return ((double)b / m - (double)a / n) / se;
}

/* Late cycles out of *total of a 5 ms / 0.5 ms sleeper on CPU 0. */
static int late_cycles(int *total)
{
	int fd[2], res[2] = { 0, 0 };
	pid_t pid;

	if (pipe(fd))
		finish(FAIL, "pipe");
	pid = fork();
	if (pid == 0) {
		double end, t, el;

		close(fd[0]);
		if (tl_pin_tid(0, 0))
			_exit(2);
		end = tl_now() + TRIAL_S;
		while ((t = tl_now()) < end) {
			usleep(5000);
			tl_burn_cpu(0.0005);
			el = tl_now() - t;
			res[1]++;
			if (el - 0.0055 > LATE_MS / 1000.0)
				res[0]++;
		}
		if (write(fd[1], res, sizeof(res)) != sizeof(res))
			_exit(3);
		_exit(0);
	}
	close(fd[1]);
	if (read(fd[0], res, sizeof(res)) != sizeof(res))
		finish(FAIL, "sleeper failed");
	close(fd[0]);
	waitpid(pid, NULL, 0);
	*total += res[1];
	return res[0];
}

static void wakeup_rule(long carry)
{
	int late[2] = { 0, 0 }, n[2] = { 0, 0 }, i, c;
	pid_t h[2];
	double z;

	h[0] = tl_spawn_hog(SCHED_OTHER, 0, 0);
	h[1] = tl_spawn_hog(SCHED_OTHER, 0, 0);
	usleep(200000);
	for (i = 0; i < 2 * TRIALS; i++) {
		c = abba(i);
		if (write_long(CARRY, c))
			finish(FAIL, "cannot set sched_deadline_carry to %d", c);
		late[c] += late_cycles(&n[c]);
	}
	tl_kill_wait(h[0]);
	tl_kill_wait(h[1]);
	write_long(CARRY, carry);

	/*
	 * A host that holds CPU 0's vCPU back (4 vCPUs on 2 host cores, a
	 * busy machine) makes cycles late under either rule and leaves the
	 * sleeper fewer cycles: then the two cannot be told apart.
	 */
	if (n[1] < TRIALS * EXPECT_CYCLES * 3 / 4)
		finish(SKIP, "the host held the vCPU back: %d cycles with carry 1, of about %d",
		       n[1], TRIALS * EXPECT_CYCLES);
	if (late[0] * 100 < n[0] * 3)
		finish(FAIL, "control: with carry 0 only %d/%d cycles were over %d ms late: the BFS wait is not seen",
		       late[0], n[0], LATE_MS);
	z = fewer_z(late[1], n[1], late[0], n[0]);
	if (late[1] * 2 * n[0] > late[0] * n[1] && z < 2.0)
		finish(FAIL, "carry 1: %d/%d late cycles against %d/%d with carry 0 (want at most half, or z >= 2: z %.2f)",
		       late[1], n[1], late[0], n[0], z);
	printf("cycles later than %d ms: carry 1 %d/%d, carry 0 %d/%d (z %.2f)\n",
	       LATE_MS, late[1], n[1], late[0], n[0], z);
}

static void no_gain_from_sleeping(void)
{
	pid_t pids[4];
	uint64_t ns[4], sum = 0, lo = UINT64_MAX, hi = 0;
	int i;

	for (i = 0; i < 3; i++)
		pids[i] = tl_spawn_hog(SCHED_OTHER, 0, 0);
	pids[3] = fork();
	if (pids[3] == 0) {
		if (tl_pin_tid(0, 0))
			_exit(2);
		for (;;) {
			tl_burn_cpu(0.002);
			usleep(200);
		}
	}
	usleep(300000);
	runtimes_over(3, pids, ns, 4);
	for (i = 0; i < 4; i++) {
		tl_kill_wait(pids[i]);
		sum += ns[i];
	}
	for (i = 0; i < 3; i++) {
		lo = ns[i] < lo ? ns[i] : lo;
		hi = ns[i] > hi ? ns[i] : hi;
	}
	if (!sum || !lo)
		finish(FAIL, "no CPU time measured");
	if (ns[3] * 100 > sum * 35)
		finish(FAIL, "a task sleeping 0.2 ms after each 2 ms got %.1f %% of CPU 0 beside 3 hogs (fair 25 %%)",
		       100.0 * ns[3] / sum);
	if ((hi - lo) * 10 > hi)
		finish(FAIL, "hogs beside the sleeper got %.1f..%.1f ms, more than 10 %% apart",
		       lo / 1e6, hi / 1e6);
	printf("brief sleeper %.1f %% of CPU 0 beside 3 hogs; hogs %.1f..%.1f ms\n",
	       100.0 * ns[3] / sum, lo / 1e6, hi / 1e6);
}

static long saved_carry, saved_rr;

/* Put both sysctls back on every exit, a SKIP or FAIL included. */
static void restore_knobs(void)
{
	write_long(CARRY, saved_carry);
	write_long(RR, saved_rr);
}

int main(void)
{
	test_name = "deadline_carry";
	require_vrq();
	saved_carry = read_knob(CARRY);
	saved_rr = read_long(RR, 6);
	atexit(restore_knobs);
	if (write_long(RR, RR_MS))
		finish(FAIL, "cannot set rr_interval");

	wakeup_rule(saved_carry);
	if (write_long(CARRY, 1))
		finish(FAIL, "cannot set sched_deadline_carry");
	no_gain_from_sleeping();
	finish(PASS, "the sleeper keeps waking ahead of the hogs, and gains no share by sleeping");
}
