// SPDX-License-Identifier: GPL-2.0
/*
 * kernel.yield_type 2 (the default): sched_yield() expires the slice, so a
 * task spinning on sched_yield() lets the tasks that wait run first. This
 * is what games under Wine and Proton do while another thread of the same
 * priority does the work.
 *
 * 2 x nCPU processes spin on sched_yield() while a worker of the same nice
 * burns 0.2 s of CPU; the worker's stretch is its wall time over its CPU
 * time. Trials of yield_type 2 and 1 alternate, three each. With 2 the
 * median stretch must be at most 1.5 (EEVDF: 1.2-1.5 on 2 vCPUs); the
 * control, yield_type 1, under which a spinner keeps its slice unless a
 * task with an earlier deadline waits, must be at least 1.3 times that
 * (2.6-2.9 before the default changed), so the test sees what yield does.
 * Guest wall and CPU clocks both run while the host holds a vCPU back, so
 * host load leaves the stretch alone; but whether yield_type 1 holds the
 * worker back depends on how its first deadline falls among the spinners',
 * and once, on 2 vCPUs beside a host `stress-ng --cpu 2`, it did not
 * (0.98 against 0.91). So a round whose control is not seen is run again,
 * up to three rounds; the yield_type 2 bound must hold in every round.
 * At 4 vCPUs, preempt=none, beside that host load, no round of three saw
 * it in two boots of two (yield_type 1 0.96-1.00, 2 0.84-1.11), while
 * every quiet boot saw it in its first round (2.0-8.9 against 0.97-1.06).
 * So when three rounds miss it the test skips: the yield_type 2 bound,
 * which fails a yield that does nothing (2.5 beside plain hogs), has been
 * checked in every round, but the test could not show it sees the effect.
 */
#include "vrq_test.h"

#include <sched.h>
#include <sys/mman.h>

#define KNOB "/proc/sys/kernel/yield_type"
#define TRIALS 3
#define ROUNDS 3
#define MAX_CPUS 32
#define WORK_S 0.2

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The worker's wall time over CPU time beside 2 x ncpu yield spinners. */
static double stretch(int ncpu)
{
	volatile int *stop;
	pid_t pids[2 * MAX_CPUS + 1];
	int i, n = 2 * ncpu, fd[2];
	double r;

	stop = mmap(NULL, sizeof(*stop), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (stop == MAP_FAILED || pipe(fd))
		finish(FAIL, "mmap/pipe");
	*stop = 0;
	for (i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			finish(FAIL, "fork");
		if (pids[i] == 0) {
			while (!*stop)
				sched_yield();
			_exit(0);
		}
	}
	usleep(100000);
	pids[n] = fork();
	if (pids[n] == 0) {
		/* CPU time from here too: fork's own cost is not the work's */
		double t0 = tl_now(), c0 = tl_thread_cputime();

		tl_burn_cpu(WORK_S);
		r = (tl_now() - t0) / (tl_thread_cputime() - c0);
		if (write(fd[1], &r, sizeof(r)) != sizeof(r))
			_exit(1);
		_exit(0);
	}
	if (read(fd[0], &r, sizeof(r)) != sizeof(r))
		finish(FAIL, "worker failed");
	*stop = 1;
	for (i = 0; i <= n; i++)
		waitpid(pids[i], NULL, 0);
	close(fd[0]);
	close(fd[1]);
	munmap((void *)stop, sizeof(*stop));
	return r;
}

/* Median stretches of yield_type 1 and 2, TRIALS each, abba. */
static void round_of_trials(int ncpu, double med[2])
{
	double s[2][TRIALS];
	int i, n[2] = { 0, 0 }, type;

	for (i = 0; i < 2 * TRIALS; i++) {
		type = abba(i) ? 1 : 2;
		if (write_long(KNOB, type))
			finish(FAIL, "cannot set yield_type %d", type);
		s[type - 1][n[type - 1]++] = stretch(ncpu);
	}
	for (i = 0; i < 2; i++) {
		qsort(s[i], TRIALS, sizeof(double), cmp_double);
		med[i] = s[i][TRIALS / 2];
	}
}

int main(void)
{
	int cpus[MAX_CPUS], ncpu, round;
	double med[2];
	long old;

	test_name = "yield_spin";
	require_vrq();
	old = read_knob(KNOB);
	ncpu = tl_usable_cpus(cpus, MAX_CPUS);
	if (ncpu < 1)
		finish(FAIL, "no usable CPU");

	for (round = 1; ; round++) {
		round_of_trials(ncpu, med);
		write_long(KNOB, old);
		if (med[1] > 1.5)
			finish(FAIL, "yield_type 2: the worker took %.2f times its CPU time beside %d yield spinners (want <= 1.5; yield_type 1: %.2f)",
			       med[1], 2 * ncpu, med[0]);
		if (med[0] >= 1.3 * med[1])
			break;
		if (round == ROUNDS)
			finish(SKIP, "control: in %d rounds yield_type 1's stretch was never 1.3 times yield_type 2's (last %.2f and %.2f); yield_type 2 held <= 1.5 in each",
			       ROUNDS, med[0], med[1]);
		printf("round %d: yield_type 1 stretch %.2f, 2 %.2f: control not seen, again\n",
		       round, med[0], med[1]);
	}
	finish(PASS, "worker stretch beside %d yield spinners on %d CPUs: %.2f with yield_type 2, %.2f with 1 (round %d)",
	       2 * ncpu, ncpu, med[1], med[0], round);
}
