// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_BATCH never preempts on wakeup: a task that sleeps and wakes on a
 * CPU busy with a NORMAL hog waits for the hog's slice to end when it is
 * SCHED_BATCH (lateness around rr_interval / 2; the test sets rr_interval
 * to 20 ms to make that stand out of timer noise), but runs at once when it
 * is SCHED_NORMAL (the control, which shows wakeup preemption works). The
 * lateness of a sleeper on an idle CPU is the noise floor.
 */
#include "vrq_test.h"

#define ROUNDS 30
#define RR "/proc/sys/kernel/rr_interval"

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Median wakeup lateness (ns) of a sleeper with @policy on CPU 0. */
static uint64_t median_latency(int policy)
{
	int fd[2];
	pid_t pid;
	uint64_t lat[ROUNDS];

	if (pipe(fd))
		finish(FAIL, "pipe");
	pid = fork();
	if (pid == 0) {
		int i;

		close(fd[0]);
		if (tl_pin_tid(0, 0) || tl_set_policy(0, policy, 0))
			_exit(2);
		for (i = 0; i < ROUNDS; i++) {
			uint64_t req = 7000000ull + (i % 7) * 2300000ull;
			uint64_t t = now_ns(), el;

			usleep(req / 1000);
			el = now_ns() - t;
			lat[i] = el > req ? el - req : 0;
		}
		if (write(fd[1], lat, sizeof(lat)) != sizeof(lat))
			_exit(3);
		_exit(0);
	}
	close(fd[1]);
	if (read(fd[0], lat, sizeof(lat)) != sizeof(lat))
		finish(FAIL, "sleeper (policy %d) failed", policy);
	close(fd[0]);
	waitpid(pid, NULL, 0);
	qsort(lat, ROUNDS, sizeof(lat[0]), cmp);
	return lat[ROUNDS / 2];
}

int main(void)
{
	uint64_t idle, batch, normal;
	long rr;
	pid_t h;

	test_name = "batch_nopreempt";
	require_vrq();
	rr = read_long(RR, 6);
	if (write_long(RR, 20))
		finish(FAIL, "cannot set rr_interval");

	idle = median_latency(SCHED_OTHER);
	h = tl_spawn_hog(SCHED_OTHER, 0, 0);
	usleep(100000);
	normal = median_latency(SCHED_OTHER);
	batch = median_latency(SCHED_BATCH);
	tl_kill_wait(h);
	write_long(RR, rr);

	if (normal > idle + 3000000)
		finish(FAIL, "NORMAL wakeup did not preempt the hog: median lateness %.2f ms (idle CPU %.2f ms)",
		       normal / 1e6, idle / 1e6);
	if (batch < idle + 4000000 || batch < normal + 3000000)
		finish(FAIL, "BATCH wakeup seems to preempt: median lateness %.2f ms (NORMAL %.2f, idle CPU %.2f, rr_interval 20 ms)",
		       batch / 1e6, normal / 1e6, idle / 1e6);
	finish(PASS, "median wakeup lateness BATCH %.2f ms, NORMAL %.2f ms, idle CPU %.2f ms",
	       batch / 1e6, normal / 1e6, idle / 1e6);
}
