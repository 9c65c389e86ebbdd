// SPDX-License-Identifier: GPL-2.0
/*
 * spinyield: the shape of a game under Wine or Proton that spins on
 * sched_yield() while another thread of the same priority does the real
 * work.
 *
 *   spinyield [--spinners N] [--work-ms 200]
 *
 * N processes (default 2 x the online CPUs) call sched_yield() in a loop
 * until a worker of the same nice has used --work-ms of CPU time. Prints
 * "key value" lines: spinners, work_ms, wall_ms, stretch (wall / CPU time of
 * the worker: 1.0 when the yielders give the CPU away at once; about
 * (N + 1) / CPUs when they behave as CPU hogs).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "probe.h"

int main(int argc, char **argv)
{
	long spinners = 2 * sysconf(_SC_NPROCESSORS_ONLN), work_ms = 200;
	uint64_t t0, c0, wall, cpu;
	pid_t *pid;

	for (int i = 1; i < argc; i += 2) {
		if (i + 1 >= argc)
			goto usage;
		if (!strcmp(argv[i], "--spinners"))
			spinners = strtol(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--work-ms"))
			work_ms = strtol(argv[i + 1], NULL, 0);
		else
			goto usage;
	}
	if (spinners < 1 || spinners > 1024 || work_ms < 1)
		goto usage;
	pid = calloc(spinners, sizeof(*pid));
	if (!pid)
		return perror("calloc"), 1;
	for (long s = 0; s < spinners; s++) {
		pid[s] = fork();
		if (pid[s] < 0)
			return perror("fork"), 1;
		if (!pid[s])
			for (;;)
				sched_yield();
	}
	/* let every spinner reach its loop */
	sleep_until_ns(now_ns() + 200000000ull);

	t0 = now_ns();
	c0 = cpu_ns();
	burn_cpu_ns((uint64_t)work_ms * 1000000);
	wall = now_ns() - t0;
	cpu = cpu_ns() - c0;

	for (long s = 0; s < spinners; s++) {
		kill(pid[s], SIGKILL);
		waitpid(pid[s], NULL, 0);
	}
	printf("spinners %ld\nwork_ms %ld\nwall_ms %.1f\ncpu_ms %.1f\nstretch %.3f\n",
	       spinners, work_ms, wall / 1e6, cpu / 1e6, (double)wall / cpu);
	return 0;
usage:
	fprintf(stderr, "usage: spinyield [--spinners N] [--work-ms MS]\n");
	return 2;
}
