// SPDX-License-Identifier: GPL-2.0
/*
 * kernel.sched_sync_preempt: a pipe write wakes the reader with WF_SYNC.
 * With the sysctl at 0 (the default) the writer keeps its CPU and the
 * reader runs when the writer blocks or its slice ends; at 1 the reader,
 * whose deadline is earlier, preempts the writer at once (BFS behaviour).
 *
 * Writer W and reader R are threads pinned to one CPU. Each trial W writes
 * a byte, burns 1 ms of wall time and notes whether R has run meanwhile,
 * then blocks on R's answer. At 0, R can only run inside the burn when W's
 * slice happens to end there (about 1 ms of every rr_interval): want it in
 * <= 50 % of the trials and sync_kept in /proc/vrq_stats up by at least
 * half the trials. At 1: want R inside the burn in >= 65 % of them, and in
 * 25 points more of them than at 0. R preempts only when its deadline is
 * the earlier one; on a busy host W's 1 ms of wall time is less CPU time,
 * its slice lasts more trials, and R's deadline is later in more of them
 * (a clean clone on a loaded machine saw 31/40 at 1), hence the margin.
 */
#include "vrq_test.h"

#define TRIALS 40
#define KNOB "/proc/sys/kernel/sched_sync_preempt"

static int data_fd[2], ack_fd[2], cpu;
static atomic_int ran;

static void *reader(void *arg)
{
	char c;

	(void)arg;
	if (tl_pin_tid(0, cpu))
		return NULL;
	while (read(data_fd[0], &c, 1) == 1 && c) {
		atomic_store(&ran, 1);
		if (write(ack_fd[1], &c, 1) != 1)
			break;
	}
	return NULL;
}

/* Trials in which R ran inside W's burn, with the sysctl at @mode. */
static int run_trials(int mode, long *kept)
{
	long k0;
	int i, inside = 0;
	char c = 1;

	if (write_long(KNOB, mode))
		finish(FAIL, "cannot set %s to %d", KNOB, mode);
	k0 = vrq_stats_column("sync_kept");
	for (i = 0; i < TRIALS; i++) {
		atomic_store(&ran, 0);
		if (write(data_fd[1], &c, 1) != 1)
			finish(FAIL, "pipe write");
		tl_burn_wall(0.001);
		inside += atomic_load(&ran);
		if (read(ack_fd[0], &c, 1) != 1)
			finish(FAIL, "reader gone");
	}
	*kept = vrq_stats_column("sync_kept") - k0;
	return inside;
}

int main(void)
{
	int cpus[64], n, in0, in1;
	long old, kept0, kept1;
	pthread_t r;
	char c = 0;

	test_name = "sync_wakeup";
	require_vrq();
	old = read_knob(KNOB);
	if (vrq_stats_column("sync_kept") < 0)
		finish(FAIL, "/proc/vrq_stats has no sync_kept column");
	n = tl_usable_cpus(cpus, 64);
	if (n < 1)
		finish(FAIL, "no usable CPU");
	cpu = cpus[n - 1];
	if (tl_pin_tid(0, cpu) || pipe(data_fd) || pipe(ack_fd))
		finish(FAIL, "setup (pin to CPU %d, pipes)", cpu);
	if (pthread_create(&r, NULL, reader, NULL))
		finish(FAIL, "pthread_create");

	in1 = run_trials(1, &kept1);
	in0 = run_trials(0, &kept0);
	write_long(KNOB, old);
	if (write(data_fd[1], &c, 1) == 1)
		pthread_join(r, NULL);

	tl_info("reader ran inside the writer's 1 ms: %d/%d trials with sync_preempt=0 (sync_kept +%ld), %d/%d with 1 (+%ld)",
		in0, TRIALS, kept0, in1, TRIALS, kept1);
	if (in1 * 100 < TRIALS * 65 || (in1 - in0) * 100 < TRIALS * 25)
		finish(FAIL, "sched_sync_preempt=1: the reader preempted the writer in only %d/%d trials (%d/%d at 0)",
		       in1, TRIALS, in0, TRIALS);
	if (in0 > TRIALS / 2 || kept0 < TRIALS / 2)
		finish(FAIL, "sched_sync_preempt=0: the reader ran inside the writer's burn in %d/%d trials, sync_kept +%ld",
		       in0, TRIALS, kept0);
	finish(PASS, "sync wakeups: reader ran at once in %d/%d trials with sched_sync_preempt=1, %d/%d with 0 (sync_kept +%ld)",
	       in1, TRIALS, in0, TRIALS, kept0);
}
