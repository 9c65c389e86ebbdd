// SPDX-License-Identifier: GPL-2.0
/*
 * frameprobe: a periodic "frame" task, the shape of a game loop or a
 * compositor. Every 1/HZ s it is released (an absolute-time wakeup), does a
 * fixed slice of CPU work and must finish before the next release.
 *
 *   frameprobe --calibrate USEC
 *       print the iteration count of the work loop that takes USEC of CPU
 *       time (run it before starting any background load)
 *   frameprobe --iters N [--hz 60] [--frames F] [--raw FILE]
 *       run F frames; print "key value" lines: frames, met, missed,
 *       pct_met, late_p50_us, late_p99_us, late_max_us, work_p50_us,
 *       work_max_us. FILE gets the lateness of each wakeup in us.
 *
 * Lateness is wakeup time minus release time. A frame is met when its work
 * ends before the next release; a frame whose whole window passed while an
 * earlier one still ran is missed without running.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "probe.h"

static uint64_t calibrate(uint64_t usec)
{
	uint64_t iters = 1000, best = UINT64_MAX;

	/*
	 * Thread CPU time, so that other load on the machine does not inflate
	 * the slice. Grow until one slice takes at least 10 ms, then scale.
	 */
	for (;;) {
		uint64_t t = cpu_ns();

		work(iters);
		t = cpu_ns() - t;
		if (t >= 10000000ull) {
			best = t;
			break;
		}
		iters *= 2;
	}
	/* the fastest of 5 runs */
	for (int i = 0; i < 5; i++) {
		uint64_t t = cpu_ns();

		work(iters);
		t = cpu_ns() - t;
		if (t < best)
			best = t;
	}
	return (uint64_t)((double)iters * usec * 1000.0 / best);
}

static void usage(void)
{
	fprintf(stderr, "usage: frameprobe --calibrate USEC\n"
			"       frameprobe --iters N [--hz 60] [--frames F] [--raw FILE]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	uint64_t iters = 0, hz = 60, frames = 600, period, t0, *late, *dur;
	uint64_t met = 0, missed = 0, ran = 0;
	const char *raw = NULL;
	FILE *rf = NULL;

	for (int i = 1; i < argc; i++) {
		if (i + 1 >= argc)
			usage();
		if (!strcmp(argv[i], "--calibrate")) {
			printf("%llu\n", (unsigned long long)calibrate(strtoull(argv[i + 1], NULL, 0)));
			return 0;
		} else if (!strcmp(argv[i], "--iters")) {
			iters = strtoull(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--hz")) {
			hz = strtoull(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--frames")) {
			frames = strtoull(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--raw")) {
			raw = argv[++i];
		} else {
			usage();
		}
	}
	if (!iters || !hz || !frames)
		usage();
	late = calloc(frames, sizeof(*late));
	dur = calloc(frames, sizeof(*dur));
	if (!late || !dur)
		return perror("calloc"), 1;
	if (raw && !(rf = fopen(raw, "w")))
		return perror(raw), 1;

	period = 1000000000ull / hz;
	t0 = now_ns() + period;
	for (uint64_t f = 0; f < frames;) {
		uint64_t rel = t0 + f * period, wake, end;

		sleep_until_ns(rel);
		wake = now_ns();
		work(iters);
		end = now_ns();
		late[ran] = wake > rel ? wake - rel : 0;
		dur[ran] = end - wake;
		if (rf)
			fprintf(rf, "%.1f\n", late[ran] / 1000.0);
		ran++;
		if (end <= rel + period)
			met++;
		else
			missed++;
		/* skip the frames whose window is already over */
		for (f++; f < frames && t0 + (f + 1) * period <= end; f++)
			missed++;
	}
	if (rf)
		fclose(rf);
	qsort(late, ran, sizeof(*late), cmp_u64);
	qsort(dur, ran, sizeof(*dur), cmp_u64);
	printf("frames %llu\nran %llu\nmet %llu\nmissed %llu\npct_met %.2f\n",
	       (unsigned long long)frames, (unsigned long long)ran,
	       (unsigned long long)met, (unsigned long long)missed, 100.0 * met / frames);
	printf("late_p50_us %.1f\nlate_p99_us %.1f\nlate_max_us %.1f\n",
	       pct(late, ran, 50) / 1000.0, pct(late, ran, 99) / 1000.0,
	       late[ran - 1] / 1000.0);
	printf("work_p50_us %.1f\nwork_max_us %.1f\n", pct(dur, ran, 50) / 1000.0,
	       dur[ran - 1] / 1000.0);
	return 0;
}
