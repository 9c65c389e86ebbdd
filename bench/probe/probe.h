/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the benchmark's C probes: clocks, a CPU-burning work
 * loop, percentiles.
 */
#ifndef VRQ_BENCH_PROBE_H
#define VRQ_BENCH_PROBE_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

static inline uint64_t clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static inline uint64_t now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

/* CPU time of the calling thread. */
static inline uint64_t cpu_ns(void)
{
	return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

/* Sleep until the CLOCK_MONOTONIC time T (ns), through signals. */
static inline void sleep_until_ns(uint64_t t)
{
	struct timespec ts = { .tv_sec = t / 1000000000ull, .tv_nsec = t % 1000000000ull };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
		;
}

static volatile uint64_t probe_sink;

/* ITERS rounds of a xorshift: CPU work that touches no memory. */
static inline void work(uint64_t iters)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;

	for (uint64_t i = 0; i < iters; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	probe_sink = x;
}

/* Burn NS of this thread's CPU time. */
static inline void burn_cpu_ns(uint64_t ns)
{
	uint64_t end = cpu_ns() + ns;

	while (cpu_ns() < end)
		work(200);
}

static inline int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile P of the sorted array V of N values. */
static inline uint64_t pct(const uint64_t *v, size_t n, double p)
{
	size_t k;

	if (!n)
		return 0;
	k = (size_t)(p / 100.0 * n + 0.999999);
	if (k < 1)
		k = 1;
	return v[(k > n ? n : k) - 1];
}

#endif
