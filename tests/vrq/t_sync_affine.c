// SPDX-License-Identifier: GPL-2.0
/*
 * kernel.sched_sync_affine: a sync wakeup (a pipe write) that finds no idle
 * CPU puts the wakee on the waker's CPU, where the waker keeps running
 * (kernel.sched_sync_preempt 0), instead of preempting another CPU.
 *
 * Writer W runs pinned to CPU a, a nice 0 hog H pinned to CPU b. Reader R
 * may run on both. Before each trial R runs once on b (pinned there for a
 * warm-up byte), so b is its previous CPU; then W writes a byte and burns
 * 1 ms of wall time while R notes the CPU it ran on. Neither CPU is idle.
 * With the sysctl at 1, R runs on a unless H's slice happens to end first:
 * about one trial in six on a quiet host, but up to 2 in 5 when the host
 * stalls the vCPUs (17/30 on a in a boot beside a kernel build), since
 * H's slice runs on through a stall. The control, 0, sends R to the first
 * CPU it may preempt in locality order from b, which is b when R's
 * deadline is before H's. A round passes when R ran on a in at least half
 * the trials at 1 and in 25 points more than at 0. Whether R's deadline is
 * before H's depends on how their slices fall, so a round that does not
 * pass is run again, up to three rounds. The test fails when R ran on a
 * in fewer than half the trials at 1 in every round, and skips when the
 * bound at 1 held but the control was never seen.
 */
#include "vrq_test.h"

#define TRIALS 30
#define ROUNDS 3
#define KNOB "/proc/sys/kernel/sched_sync_affine"

static int data_fd[2], ack_fd[2];
static long old = -1;
static atomic_int r_cpu = -1;
static atomic_int r_tid;

static void *reader(void *arg)
{
	char c;

	(void)arg;
	atomic_store(&r_tid, gettid());
	while (read(data_fd[0], &c, 1) == 1 && c) {
		atomic_store(&r_cpu, sched_getcpu());
		if (write(ack_fd[1], &c, 1) != 1)
			break;
	}
	return NULL;
}

/* Send one byte to R and wait for its answer; R's CPU, or -1. */
static int exchange(int burn)
{
	char c = 1;

	atomic_store(&r_cpu, -1);
	if (write(data_fd[1], &c, 1) != 1)
		finish(FAIL, "pipe write");
	if (burn)
		tl_burn_wall(0.001);
	if (read(ack_fd[0], &c, 1) != 1)
		finish(FAIL, "reader gone");
	return atomic_load(&r_cpu);
}

/* Trials (of TRIALS) in which R ran on @a, W's CPU, with the sysctl at @mode. */
static int on_waker(int mode, int a, int b)
{
	int i, n = 0;

	if (write_long(KNOB, mode))
		finish(FAIL, "cannot set %s to %d", KNOB, mode);
	for (i = 0; i < TRIALS; i++) {
		if (tl_pin_tid(atomic_load(&r_tid), b))
			finish(FAIL, "cannot pin the reader to CPU %d", b);
		exchange(0);
		if (tl_pin_two(atomic_load(&r_tid), a, b))
			finish(FAIL, "cannot let the reader run on CPUs %d and %d", a, b);
		n += exchange(1) == a;
	}
	return n;
}

/* The sysctl as it was, on every exit. */
static void restore(void)
{
	if (old >= 0)
		write_long(KNOB, old);
}

int main(void)
{
	int cpus[2], a, b, round, n0 = 0, n1 = 0, low = 0;
	struct tl_spinner h = { 0 };
	pthread_t r;
	char c = 0;

	test_name = "sync_affine";
	require_vrq();
	require_two_cpus();
	old = read_knob(KNOB);
	if (old < 0)
		finish(FAIL, "%s missing", KNOB);
	atexit(restore);
	if (read_knob("/proc/sys/kernel/sched_sync_preempt") != 0)
		finish(SKIP, "kernel.sched_sync_preempt is not 0");
	tl_usable_cpus(cpus, 2);
	a = cpus[0];
	b = cpus[1];
	if (tl_pin_tid(0, a) || pipe(data_fd) || pipe(ack_fd))
		finish(FAIL, "setup (pin to CPU %d, pipes)", a);
	if (tl_spinner_start(&h, b, 0, 0))
		finish(FAIL, "cannot start the hog on CPU %d", b);
	if (pthread_create(&r, NULL, reader, NULL))
		finish(FAIL, "pthread_create");
	while (!atomic_load(&r_tid))
		usleep(1000);

	for (round = 1; round <= ROUNDS; round++) {
		n0 = on_waker(0, a, b);
		n1 = on_waker(1, a, b);
		tl_info("round %d: the reader ran on the waker's CPU in %d/%d trials with sched_sync_affine=1, %d/%d with 0",
			round, n1, TRIALS, n0, TRIALS);
		if (n1 * 100 < TRIALS * 50) {
			low++;
			continue;
		}
		if ((n1 - n0) * 100 >= TRIALS * 25)
			break;
	}
	if (write(data_fd[1], &c, 1) == 1)
		pthread_join(r, NULL);
	tl_spinner_stop(&h);
	if (low == ROUNDS)
		finish(FAIL, "sched_sync_affine=1: the reader ran on the waker's CPU in fewer than half the trials in each of %d rounds (last %d/%d, %d/%d at 0)",
		       ROUNDS, n1, TRIALS, n0, TRIALS);
	if (round > ROUNDS)
		finish(SKIP, "control: in %d rounds sched_sync_affine=0 never kept the reader off the waker's CPU in 25 points more trials (last %d/%d and %d/%d); the bound at 1 held in %d",
		       ROUNDS, n0, TRIALS, n1, TRIALS, ROUNDS - low);
	finish(PASS, "sync wakeups with no idle CPU: the reader ran on the waker's CPU in %d/%d trials with sched_sync_affine=1, %d/%d with 0 (round %d)",
	       n1, TRIALS, n0, TRIALS, round);
}
