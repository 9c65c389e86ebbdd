// SPDX-License-Identifier: GPL-2.0
/*
 * t_hotplug (guest only: runs when VRQ_IN_GUEST=1, else skips): with busy
 * threads running -- one pinned to every online CPU plus some free ones --
 * every non-boot CPU is taken offline and back online through
 * /sys/devices/system/cpu/cpuN/online, one at a time and (every 5th cycle)
 * all together, up to 20 cycles.  After each step every worker must make
 * progress; nobody may run on an offline CPU; a worker pinned to the
 * victim gets its affinity widened by the kernel and keeps running; the CPU
 * shows up online again and a worker pinned back to it runs there; all
 * workers finish.  All CPUs are brought back online on exit, even on a
 * failure or SIGTERM.
 */
#include "tlib.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_CYCLES 20
#define BUDGET 14.0      /* seconds for the cycling phase */
#define STALL_LIMIT 10.0 /* a worker without progress this long = failure */
#define NFREE 2

static int victims[CPU_SETSIZE], nvictim;
static char victim_path[CPU_SETSIZE][64];
static volatile sig_atomic_t offline_now[CPU_SETSIZE];

static struct tl_spinner *workers;
static int nworkers;
static int boot_cpu;
static unsigned long moves_seen, transitions;

static void restore_all(void)
{
	for (int i = 0; i < nvictim; i++)
		if (offline_now[i] && tl_write_file(victim_path[i], "1") == 0)
			offline_now[i] = 0;
}

static void on_signal(int sig)
{
	restore_all();
	signal(sig, SIG_DFL);
	raise(sig);
}

static int cpu_online_sysfs(int idx)
{
	char buf[16];
	cpu_set_t on;

	if (tl_read_file(victim_path[idx], buf, sizeof(buf)) < 0)
		return -1;
	if (tl_online_set(&on) < 0)
		return -1;
	if ((buf[0] == '1') != !!CPU_ISSET(victims[idx], &on))
		return -2; /* the two views disagree */
	return buf[0] == '1';
}

/* Wait until every worker advanced 2 rounds; 0 = ok. */
static int wait_progress(const char *when)
{
	unsigned long r0[CPU_SETSIZE + NFREE];
	double end;
	int ok = 1;

	for (int i = 0; i < nworkers; i++)
		r0[i] = atomic_load(&workers[i].rounds);
	end = tl_now() + STALL_LIMIT;
	do {
		ok = 1;
		for (int i = 0; i < nworkers; i++)
			if (atomic_load(&workers[i].rounds) < r0[i] + 2)
				ok = 0;
		if (ok)
			return 0;
		tl_sleep(0.002);
	} while (tl_now() < end);
	for (int i = 0; i < nworkers; i++)
		if (atomic_load(&workers[i].rounds) < r0[i] + 2)
			tl_fail("%s: worker %d (pinned %d, last on CPU %d) made no progress in %.0fs",
				when, i, workers[i].cpu, atomic_load(&workers[i].last_cpu),
				STALL_LIMIT);
	return -1;
}

/* After progress: nobody ran on an offline victim since it went down. */
static void check_not_on_offline(const char *when)
{
	for (int i = 0; i < nworkers; i++) {
		int c = atomic_load(&workers[i].last_cpu);

		for (int v = 0; v < nvictim; v++)
			if (offline_now[v] && c == victims[v])
				tl_fail("%s: worker %d seen running on offline CPU %d", when,
					i, c);
	}
}

/* A worker pinned to an offlined CPU must have been given online CPUs. */
static void check_widened(const char *when, int v)
{
	cpu_set_t mask, on;
	char b1[64];

	tl_online_set(&on);
	for (int i = 0; i < nworkers; i++) {
		int usable = 0;

		if (workers[i].cpu != victims[v])
			continue;
		if (sched_getaffinity(workers[i].tid, sizeof(mask), &mask)) {
			tl_fail("%s: getaffinity(worker %d): %s", when, i,
				tl_errname(errno));
			continue;
		}
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &mask) && CPU_ISSET(c, &on) && c != victims[v])
				usable = 1;
		TL_CHECK(usable, "%s: worker pinned to CPU %d has mask %s with no online CPU",
			 when, victims[v], tl_cpulist(&mask, b1, sizeof(b1)));
		moves_seen++;
	}
}

static int set_online(int v, int on, const char *when)
{
	char what[96];
	int st;

	if (!on)
		offline_now[v] = 1; /* before: a signal during the write restores */
	if (tl_write_file(victim_path[v], on ? "1" : "0")) {
		tl_fail("%s: write %d to %s: %s", when, on, victim_path[v],
			tl_errname(errno));
		if (!on)
			offline_now[v] = 0;
		return -1;
	}
	if (on)
		offline_now[v] = 0;
	transitions++;
	st = cpu_online_sysfs(v);
	snprintf(what, sizeof(what), "%s: CPU %d %s", when, victims[v],
		 on ? "online" : "offline");
	TL_CHECK(st == on, "%s: sysfs says online=%d (-2: cpuN/online and cpu/online disagree)",
		 what, st);
	return 0;
}

/* Pin the victim's worker(s) back and check they run there. */
static void repin_and_check(int v, const char *when)
{
	for (int i = 0; i < nworkers; i++) {
		unsigned long r0;
		double end;

		if (workers[i].cpu != victims[v])
			continue;
		if (tl_pin_tid(workers[i].tid, victims[v])) {
			tl_fail("%s: re-pin worker to CPU %d: %s", when, victims[v],
				tl_errname(errno));
			continue;
		}
		r0 = atomic_load(&workers[i].rounds);
		end = tl_now() + STALL_LIMIT;
		while (atomic_load(&workers[i].rounds) < r0 + 2 && tl_now() < end)
			tl_sleep(0.001);
		TL_CHECK(atomic_load(&workers[i].rounds) >= r0 + 2 &&
				 atomic_load(&workers[i].last_cpu) == victims[v],
			 "%s: worker re-pinned to onlined CPU %d runs on %d (progress %lu)",
			 when, victims[v], atomic_load(&workers[i].last_cpu),
			 atomic_load(&workers[i].rounds) - r0);
	}
}

int main(void)
{
	int cpus[CPU_SETSIZE], ncpu, cycles = 0, rc;
	const char *env = getenv("VRQ_IN_GUEST");
	double t0, elapsed;
	char when[64];
	struct stat sb;

	tl_init("t_hotplug");
	if (!env || strcmp(env, "1"))
		tl_skip("CPU hotplug runs only in the test guest (VRQ_IN_GUEST=1); "
			"never offlines host CPUs");
	if (geteuid() != 0)
		tl_skip("needs root");
	ncpu = tl_usable_cpus(cpus, CPU_SETSIZE);
	if (ncpu < 2)
		tl_skip("needs >= 2 online CPUs, have %d", ncpu);
	boot_cpu = cpus[0];
	for (int i = 1; i < ncpu; i++) {
		char p[64];

		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/online", cpus[i]);
		if (stat(p, &sb) == 0) {
			victims[nvictim] = cpus[i];
			strcpy(victim_path[nvictim++], p);
		}
	}
	if (!nvictim)
		tl_skip("no hotpluggable CPU (no cpuN/online files; CONFIG_HOTPLUG_CPU?)");
	atexit(restore_all);
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	signal(SIGHUP, on_signal);

	nworkers = ncpu + NFREE;
	workers = calloc((size_t)nworkers, sizeof(*workers));
	for (int i = 0; i < nworkers; i++) {
		workers[i].chunk = 5000;
		rc = tl_spinner_start(&workers[i], i < ncpu ? cpus[i] : -1, 0, 0);
		if (rc)
			tl_die("worker %d start: %s", i, tl_errname(rc));
	}
	if (wait_progress("startup"))
		tl_die("workers do not run before any hotplug");

	t0 = tl_now();
	while (cycles < MAX_CYCLES && tl_now() - t0 < BUDGET && tl_failures() < 10) {
		int all = cycles % 5 == 4;

		if (all) {
			snprintf(when, sizeof(when), "cycle %d all-offline", cycles);
			for (int v = 0; v < nvictim; v++)
				set_online(v, 0, when);
			wait_progress(when);
			check_not_on_offline(when);
			for (int v = 0; v < nvictim; v++)
				check_widened(when, v);
			for (int v = 0; v < nvictim; v++)
				set_online(v, 1, when);
			wait_progress(when);
			for (int v = 0; v < nvictim; v++)
				repin_and_check(v, when);
		} else {
			for (int v = 0; v < nvictim; v++) {
				snprintf(when, sizeof(when), "cycle %d CPU %d", cycles,
					 victims[v]);
				if (set_online(v, 0, when))
					continue;
				wait_progress(when);
				check_not_on_offline(when);
				check_widened(when, v);
				set_online(v, 1, when);
				wait_progress(when);
				repin_and_check(v, when);
			}
		}
		cycles++;
	}
	elapsed = tl_now() - t0;
	restore_all();
	TL_CHECK(cycles >= 3, "only %d hotplug cycles in %.1fs", cycles, elapsed);

	/* every worker finishes */
	for (int i = 0; i < nworkers; i++)
		atomic_store(&workers[i].stop, 1);
	for (int i = 0; i < nworkers; i++) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += 10;
		rc = pthread_timedjoin_np(workers[i].th, NULL, &ts);
		if (rc)
			tl_die("worker %d did not finish within 10s after stop: %s", i,
			       tl_errname(rc));
	}
	{
		cpu_set_t on;
		int n = tl_online_set(&on);

		TL_CHECK(n >= ncpu, "only %d CPUs online at the end, started with %d", n,
			 ncpu);
	}
	return tl_finish("%d CPUs, %d hotpluggable, %d workers (%d pinned): %d cycles, "
			 "%lu on/offline transitions in %.1fs; worker progress checked "
			 "after every step, %lu pinned-worker affinity widenings, "
			 "join and final online state checked",
			 ncpu, nvictim, nworkers, ncpu, cycles, transitions, elapsed,
			 moves_seen);
}
