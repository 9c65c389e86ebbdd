// SPDX-License-Identifier: GPL-2.0
/*
 * sleeper: a task that wakes briefly and often (a timer, an input event, a
 * compositor's vblank thread) beside K CPU hogs of the same nice on one CPU.
 *
 *   sleeper [--hogs 2] [--period-us 5000] [--work-us 20] [--secs 10]
 *           [--cpu 0]
 *
 * The sleeper and K forked hogs are pinned to CPU --cpu. After 0.5 s for
 * the hogs to settle, the sleeper repeats: sleep --period-us after the end
 * of its last work, then burn --work-us of CPU. Wakeup latency is the time
 * from the end of the sleep (the timer's expiry) to the moment the sleeper
 * runs. Prints "key value" lines: wakeups, lat_p50_us, lat_p99_us,
 * lat_max_us, hogs.
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

static void usage(void)
{
	fprintf(stderr, "usage: sleeper [--hogs K] [--period-us P] [--work-us W] [--secs S] [--cpu C]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long hogs = 2, period_us = 5000, work_us = 20, secs = 10, cpu = 0;
	uint64_t *lat, n = 0, cap, end, t;
	pid_t *pid;
	cpu_set_t set;

	for (int i = 1; i < argc; i += 2) {
		long *dst = NULL;

		if (i + 1 >= argc)
			usage();
		if (!strcmp(argv[i], "--hogs"))
			dst = &hogs;
		else if (!strcmp(argv[i], "--period-us"))
			dst = &period_us;
		else if (!strcmp(argv[i], "--work-us"))
			dst = &work_us;
		else if (!strcmp(argv[i], "--secs"))
			dst = &secs;
		else if (!strcmp(argv[i], "--cpu"))
			dst = &cpu;
		else
			usage();
		*dst = strtol(argv[i + 1], NULL, 0);
	}
	if (hogs < 0 || hogs > 64 || period_us < 1 || work_us < 0 || secs < 1 ||
	    cpu < 0 || cpu >= CPU_SETSIZE)
		usage();
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return perror("sched_setaffinity"), 1;

	pid = calloc(hogs + 1, sizeof(*pid));
	cap = (uint64_t)secs * 1000000 / period_us + 16;
	lat = calloc(cap, sizeof(*lat));
	if (!pid || !lat)
		return perror("calloc"), 1;
	for (long h = 0; h < hogs; h++) {
		pid[h] = fork();
		if (pid[h] < 0)
			return perror("fork"), 1;
		if (!pid[h])
			for (;;)
				work(1000000);
	}

	sleep_until_ns(now_ns() + 500000000ull);
	end = now_ns() + (uint64_t)secs * 1000000000ull;
	t = now_ns();
	while (n < cap) {
		uint64_t expiry = t + (uint64_t)period_us * 1000, woke;

		sleep_until_ns(expiry);
		woke = now_ns();
		lat[n++] = woke > expiry ? woke - expiry : 0;
		burn_cpu_ns((uint64_t)work_us * 1000);
		t = now_ns();
		if (t >= end)
			break;
	}
	for (long h = 0; h < hogs; h++) {
		kill(pid[h], SIGKILL);
		waitpid(pid[h], NULL, 0);
	}
	qsort(lat, n, sizeof(*lat), cmp_u64);
	printf("wakeups %llu\nhogs %ld\n", (unsigned long long)n, hogs);
	printf("lat_p50_us %.1f\nlat_p99_us %.1f\nlat_max_us %.1f\n",
	       pct(lat, n, 50) / 1000.0, pct(lat, n, 99) / 1000.0,
	       n ? lat[n - 1] / 1000.0 : 0.0);
	return 0;
}
