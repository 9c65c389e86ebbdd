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
 * host load leaves the stretch alone.
 */
#include "vrq_test.h"

#include <sched.h>
#include <sys/mman.h>

#define KNOB "/proc/sys/kernel/yield_type"
#define TRIALS 3
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
		double t0 = tl_now();

		tl_burn_cpu(WORK_S);
		r = (tl_now() - t0) / tl_thread_cputime();
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

int main(void)
{
	double s[2][TRIALS];
	int cpus[MAX_CPUS], ncpu, i, n[2] = { 0, 0 }, type;
	long old;

	test_name = "yield_spin";
	require_vrq();
	old = read_knob(KNOB);
	ncpu = tl_usable_cpus(cpus, MAX_CPUS);
	if (ncpu < 1)
		finish(FAIL, "no usable CPU");

	for (i = 0; i < 2 * TRIALS; i++) {
		type = abba(i) ? 1 : 2;
		if (write_long(KNOB, type))
			finish(FAIL, "cannot set yield_type %d", type);
		s[type - 1][n[type - 1]++] = stretch(ncpu);
	}
	write_long(KNOB, old);
	qsort(s[0], TRIALS, sizeof(double), cmp_double);
	qsort(s[1], TRIALS, sizeof(double), cmp_double);

	if (s[1][TRIALS / 2] > 1.5)
		finish(FAIL, "yield_type 2: the worker took %.2f times its CPU time beside %d yield spinners (want <= 1.5; yield_type 1: %.2f)",
		       s[1][TRIALS / 2], 2 * ncpu, s[0][TRIALS / 2]);
	if (s[0][TRIALS / 2] < 1.3 * s[1][TRIALS / 2])
		finish(FAIL, "control: yield_type 1 stretch %.2f is not 1.3 times yield_type 2's %.2f",
		       s[0][TRIALS / 2], s[1][TRIALS / 2]);
	finish(PASS, "worker stretch beside %d yield spinners on %d CPUs: %.2f with yield_type 2, %.2f with 1",
	       2 * ncpu, ncpu, s[1][TRIALS / 2], s[0][TRIALS / 2]);
}
