// SPDX-License-Identifier: GPL-2.0
/*
 * t_starvation: low-priority work is not starved.
 *
 * A nice -20 CPU hog is pinned on every usable CPU. A "probe" thread pinned
 * to the last CPU (so it competes with one hog there) spins reading
 * CLOCK_MONOTONIC and its own CPU clock and records the longest time it
 * did not run between two of its loop passes, counting from the moment it
 * was released: the longest time it was kept off the CPU, its first wait
 * included. Stalls of the whole TCG guest (a busy host) are charged to the
 * task that happens to run: those charged to the probe do not count (its
 * own CPU time is taken out), and the hog measures those charged to it (a
 * pass of its short loop charged > 3 ms) so they are taken out too. Both
 * the corrected and the raw longest wait are printed; the bound applies to
 * the corrected one, which is what the scheduler decided.
 *
 *  1. a nice 19 SCHED_NORMAL probe gets the CPU at least once a second
 *     (longest wait < 1 s). VRQ only: its deadline offset is
 *     prio_ratio[39] * rr_interval / 128 = 238.5 ms at 6 ms against 6 ms
 *     for nice -20, so it runs one slice about every 40 slices (~240 ms).
 *     Mainline CFS/EEVDF gives nice 19 a weight of 15 against 88761 and so
 *     waits about 5900 of its own slices (seconds): reported, not asserted;
 *  2. a SCHED_BATCH (nice 0) probe: longest wait < 1 s on both kernels
 *     (VRQ: ~40 ms, a nice 0 deadline; CFS: weight 1024 vs 88761);
 *  3. a SCHED_IDLE probe: after the hog on its CPU is stopped, it runs
 *     within 1 s and gets at least half of the next second of CPU time;
 *  4. a SCHED_FIFO hog on the probe's CPU with the default RT bandwidth
 *     (sched_rt_runtime_us 950000 of 1000000; rq->fair_server gives fair
 *     tasks 50 ms/s): a nice 0 SCHED_NORMAL probe there gets >= 2 % of the
 *     CPU (about 5 % expected). Skipped when the RT sysctls are not the
 *     defaults.
 *
 * Bounds: 1 s as in issue 6; the measured waits are printed so their margin
 * shows. All hogs are threads of this process, so they end with it on
 * every exit path (a failed check, tl_die(), the suite's timeout kill);
 * the FIFO hog also stops by itself after a few seconds.
 */
#include "rel.h"

#define MAXCPU 64
#define LIMIT_S 1.0
#define WINDOW_S 3.0

static struct tl_hog hogs[MAXCPU];
static int cpus[MAXCPU], ncpu, vrq;

static void start_hogs(void)
{
	for (int i = 0; i < ncpu; i++) {
		int rc = tl_hog_start(&hogs[i], cpus[i], -20);

		if (rc)
			tl_die("nice -20 hog on CPU %d: %s", cpus[i],
			       tl_errname(rc));
	}
}

static void stop_hogs(void)
{
	for (int i = 0; i < ncpu; i++)
		tl_hog_stop(&hogs[i]);
}

/* Run a probe next to the hogs for WINDOW_S; returns its longest wait. */
static double probe_under_hogs(const char *what, int policy, int nice,
			       int assert_it)
{
	struct rel_probe p;
	double gap, raw, first, cpu, stall0, stall;
	unsigned long nstall0;
	int rc, cpu_x = cpus[ncpu - 1];

	rc = rel_probe_start(&p, cpu_x, policy, nice, &hogs[ncpu - 1].stall_ns);
	if (rc)
		tl_die("%s probe setup: %s", what, tl_errname(rc));
	tl_sleep(0.2);
	stall0 = atomic_load(&hogs[ncpu - 1].stall_ns) / 1e9;
	nstall0 = atomic_load(&hogs[ncpu - 1].stalls);
	rel_probe_release(&p);
	tl_sleep(WINDOW_S);
	/* pause the hog, so the probe ends its last wait and sees stop now */
	atomic_store(&hogs[ncpu - 1].pause, 1);
	rel_probe_stop(&p);
	atomic_store(&hogs[ncpu - 1].pause, 0);
	stall = atomic_load(&hogs[ncpu - 1].stall_ns) / 1e9 - stall0;
	gap = atomic_load(&p.max_gap) / 1e9;
	raw = atomic_load(&p.max_raw_gap) / 1e9;
	first = atomic_load(&p.t_first) ?
		(atomic_load(&p.t_first) - p.t_release) / 1e9 : -1;
	cpu = rel_probe_cpu(&p);
	tl_info("%-18s vs nice -20 hog on CPU %d: longest wait %.3f s "
		"(%.3f s with stalls), first run after %.3f s, %.1f ms CPU in "
		"%.1f s; hog stalls %lu, %.0f ms%s", what, cpu_x, gap, raw, first,
		cpu * 1e3, WINDOW_S, atomic_load(&hogs[ncpu - 1].stalls) - nstall0,
		stall * 1e3, assert_it ? "" : " [not asserted]");
	if (assert_it && (first < 0 || gap >= LIMIT_S))
		tl_fail("%s probe waited %.3f s for the CPU (limit %.1f s)",
			what, first < 0 ? WINDOW_S : gap, LIMIT_S);
	return gap;
}

/* 3: SCHED_IDLE gets the CPU once its hog stops. */
static void idle_probe(void)
{
	struct rel_probe p;
	double cpu0, cpu1, before, lat;
	int64_t mark, after;
	int rc, x = ncpu - 1;

	rc = rel_probe_start(&p, cpus[x], SCHED_IDLE, 0, NULL);
	if (rc)
		tl_die("SCHED_IDLE probe setup: %s", tl_errname(rc));
	tl_sleep(0.2);
	rel_probe_release(&p);
	tl_sleep(1.5);
	before = rel_probe_cpu(&p);
	tl_hog_stop(&hogs[x]);
	mark = rel_probe_mark(&p);
	cpu0 = rel_probe_cpu(&p);
	tl_sleep(1.0);
	cpu1 = rel_probe_cpu(&p);
	after = atomic_load(&p.after_mark);
	rel_probe_stop(&p);
	lat = after ? (after - mark) / 1e9 : -1;
	tl_info("SCHED_IDLE probe on CPU %d: %.1f ms CPU in 1.5 s under the hog; "
		"hog stopped: ran after %.3f s, %.0f ms CPU in the next 1 s",
		cpus[x], before * 1e3, lat, (cpu1 - cpu0) * 1e3);
	if (lat < 0 || lat >= LIMIT_S)
		tl_fail("SCHED_IDLE probe did not run within %.1f s of its CPU "
			"going idle (%.3f s)", LIMIT_S, lat);
	if (cpu1 - cpu0 < 0.5)
		tl_fail("SCHED_IDLE probe got only %.0f ms of the idle CPU's next "
			"second", (cpu1 - cpu0) * 1e3);
}

/* 4: a FIFO hog leaves a NORMAL task on its CPU some time. */
static void rt_probe(void)
{
	long runtime = rel_read_long("/proc/sys/kernel/sched_rt_runtime_us", 0);
	long period = rel_read_long("/proc/sys/kernel/sched_rt_period_us", 0);
	struct rel_probe p;
	struct rel_rthog h;
	double t0, cpu, share;
	int rc, x = ncpu - 1;

	if (runtime != 950000 || period != 1000000) {
		tl_info("RT hog case skipped: sched_rt_runtime_us/period = %ld/%ld, "
			"not the default 950000/1000000", runtime, period);
		return;
	}
	/* keep this thread off the hog's CPU when there is another one */
	if (ncpu > 1)
		tl_pin_tid(0, cpus[0]);
	rc = rel_probe_start(&p, cpus[x], SCHED_OTHER, 0, NULL);
	if (rc)
		tl_die("NORMAL probe setup: %s", tl_errname(rc));
	rc = rel_rthog_start(&h, cpus[x], 50, WINDOW_S + 5);
	if (rc) {
		rel_probe_stop(&p);
		tl_fail("SCHED_FIFO hog on CPU %d: %s", cpus[x], tl_errname(rc));
		return;
	}
	tl_sleep(0.3);
	rel_probe_release(&p);
	t0 = tl_now();
	tl_sleep(WINDOW_S);
	cpu = rel_probe_cpu(&p);
	share = cpu / (tl_now() - t0);
	rel_rthog_stop(&h);
	rel_probe_stop(&p);
	tl_info("NORMAL probe next to a FIFO hog on CPU %d: %.1f ms CPU in "
		"%.1f s = %.1f %% (want >= 2 %%, fair server 5 %%), longest "
		"wait %.3f s", cpus[x], cpu * 1e3, WINDOW_S, share * 100,
		atomic_load(&p.max_gap) / 1e9);
	if (share < 0.02)
		tl_fail("NORMAL task next to a FIFO hog got %.2f %% of the CPU "
			"(want >= 2 %%)", share * 100);
}

int main(int argc, char **argv)
{
	/* --no-rt: leave out case 4, on a host where a FIFO hog would hurt */
	int no_rt = argc > 1 && !strcmp(argv[1], "--no-rt");
	double g19, gbatch;

	tl_init("t_starvation");
	if (geteuid() != 0)
		tl_skip("needs root (nice -20, SCHED_FIFO)");
	ncpu = tl_usable_cpus(cpus, MAXCPU);
	if (ncpu < 1)
		tl_die("no usable CPU");
	vrq = rel_is_vrq();
	/* a known start: NORMAL nice 0 (the hogs set their own nice) */
	if (rel_set_sched(0, SCHED_OTHER, 0, 0))
		tl_die("cannot become SCHED_NORMAL nice 0");
	tl_info("%s, %d CPU%s, hogs on CPUs %d..%d, probes on CPU %d",
		vrq ? "VRQ" : "mainline", ncpu, ncpu > 1 ? "s" : "", cpus[0],
		cpus[ncpu - 1], cpus[ncpu - 1]);

	start_hogs();
	g19 = probe_under_hogs("nice 19 NORMAL", SCHED_OTHER, 19, vrq);
	gbatch = probe_under_hogs("nice 0 SCHED_BATCH", SCHED_BATCH, 0, 1);
	idle_probe();
	stop_hogs();
	if (no_rt)
		tl_info("RT hog case left out (--no-rt)");
	else
		rt_probe();

	return tl_finish("under nice -20 hogs on %d CPU%s: longest wait nice 19 "
			 "%.3f s%s, BATCH %.3f s (limit %.1f s); SCHED_IDLE runs when "
			 "its CPU idles; NORMAL progresses next to a FIFO hog",
			 ncpu, ncpu > 1 ? "s" : "", g19,
			 vrq ? "" : " (CFS: not asserted)", gbatch, LIMIT_S);
}
