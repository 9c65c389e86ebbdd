// SPDX-License-Identifier: GPL-2.0
/*
 * t_dl_server_stop (guest only: runs when VRQ_IN_GUEST=1, else skips): the
 * deadline server that keeps ordinary tasks going under an RT hog may be
 * stopped twice without harm.
 *
 * Under an RT hog, 6.12 runs fair (here VRQ) tasks through rq->fair_server,
 * a SCHED_DEADLINE entity with 50 ms every 1 s whose start is deferred to
 * its zero-laxity point. After it has run, a pick that finds no task for
 * it stops it. Two more callers stop it without asking whether it runs:
 * sched_cpu_dying() when the CPU goes down, and a write to
 * /sys/kernel/debug/sched/fair_server/cpuN/runtime. Stopping a stopped
 * server took its bandwidth out of the run queue's running_bw a second
 * time, and deadline.c WARNed (running_bw underflow, deadline.c:265, or a
 * second non-contending transition, deadline.c:428): once in make
 * torture's 30-minute soak via CPU hotplug (2026-12-04), and in the first
 * round of this test via the debugfs write. patches/vrq-0003 makes the
 * second stop a no-op.
 *
 * Each round, on the last hotpluggable CPU v: a nice 0 SCHED_NORMAL
 * "sleeper" (sleeps 1 ms, works a little, again) and a SCHED_FIFO hog, both
 * pinned to v, for HOG_S (past the zero-laxity point); both end; 0.2 s
 * later v's fair_server runtime is written back unchanged (when debugfs
 * has it); then v goes offline and online again. Checks:
 *   - the sleeper ran at least MIN_WAKEUPS times next to the hog (the
 *     server served it; only with the default RT bandwidth 950000/1000000);
 *   - the debugfs and cpuN/online writes succeed;
 *   - the kernel did not WARN during the test: the W taint (bit 9 of
 *     /proc/sys/kernel/tainted) is not newly set. When it was set before,
 *     this check cannot see a new WARN; the boot's log scan still does.
 * v is brought back online on exit, even on a failure or SIGTERM.
 */
#include "rel.h"

#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>

#define ROUNDS 4
#define HOG_S 1.3       /* past the server's zero laxity (0.95 s) */
#define BUDGET_S 25.0   /* stop starting rounds after this long */
#define MIN_WAKEUPS 5   /* sleeper runs next to the hog, via the server */
#define TAINT_WARN (1UL << 9)

static int victim = -1;
static char victim_path[64];
static char server_path[96];
static volatile sig_atomic_t victim_offline;

static void restore_online(void)
{
	if (victim_offline && tl_write_file(victim_path, "1") == 0)
		victim_offline = 0;
}

static void on_signal(int sig)
{
	restore_online();
	signal(sig, SIG_DFL);
	raise(sig);
}

static unsigned long tainted(void)
{
	return (unsigned long)rel_read_long("/proc/sys/kernel/tainted", 0);
}

static int set_online(int on, int round)
{
	if (!on)
		victim_offline = 1;
	if (tl_write_file(victim_path, on ? "1" : "0")) {
		tl_fail("round %d: write %d to %s: %s", round, on, victim_path,
			tl_errname(errno));
		if (!on)
			victim_offline = 0;
		return -1;
	}
	if (on)
		victim_offline = 0;
	return 0;
}

/*
 * The sleeper: a nice 0 SCHED_NORMAL thread pinned to v that sleeps 1 ms,
 * does a little work and counts its wakeups. Next to the hog it runs only
 * when the server serves it, and each time it goes back to sleep the
 * server finds nothing to run and is stopped.
 */
struct sleeper {
	pthread_t th;
	int cpu, setup_err;
	atomic_int ready, stop;
	atomic_ulong wakeups;
};

static void *sleeper_main(void *arg)
{
	struct sleeper *s = arg;

	s->setup_err = 0;
	if (tl_pin_tid(0, s->cpu))
		s->setup_err = errno;
	else
		s->setup_err = rel_set_sched(0, SCHED_OTHER, 0, 0);
	atomic_store(&s->ready, 1);
	if (s->setup_err)
		return NULL;
	while (!atomic_load(&s->stop)) {
		tl_sleep(0.001);
		tl_spin(1000);
		atomic_fetch_add(&s->wakeups, 1);
	}
	return NULL;
}

/* One round; returns the sleeper's wakeups next to the hog. */
static unsigned long one_round(int round, int check_share)
{
	struct sleeper sl = { .cpu = victim };
	struct rel_rthog h;
	unsigned long w0, w;
	int rc;

	rc = pthread_create(&sl.th, NULL, sleeper_main, &sl);
	if (rc)
		tl_die("round %d: sleeper thread: %s", round, tl_errname(rc));
	while (!atomic_load(&sl.ready))
		tl_sleep(0.001);
	if (sl.setup_err)
		tl_die("round %d: sleeper on CPU %d: %s", round, victim,
		       tl_errname(sl.setup_err));
	rc = rel_rthog_start(&h, victim, 50, HOG_S + 3);
	if (rc) {
		atomic_store(&sl.stop, 1);
		pthread_join(sl.th, NULL);
		tl_die("round %d: SCHED_FIFO hog on CPU %d: %s", round, victim,
		       tl_errname(rc));
	}
	w0 = atomic_load(&sl.wakeups);
	tl_sleep(HOG_S);
	w = atomic_load(&sl.wakeups) - w0;
	atomic_store(&sl.stop, 1);
	rel_rthog_stop(&h);
	pthread_join(sl.th, NULL);
	tl_sleep(0.2);
	if (server_path[0]) {
		char buf[32];

		if (tl_read_file(server_path, buf, sizeof(buf)) <= 0 ||
		    tl_write_file(server_path, buf))
			tl_fail("round %d: rewrite %s: %s", round, server_path,
				tl_errname(errno));
	}
	rc = set_online(0, round);
	if (!rc)
		set_online(1, round);
	if (check_share && w < MIN_WAKEUPS)
		tl_fail("round %d: a NORMAL sleeper next to a FIFO hog on CPU %d "
			"ran %lu times in %.1f s (want >= %d: the fair server "
			"serves it from 0.95 s on)", round, victim, w, HOG_S,
			MIN_WAKEUPS);
	return w;
}

int main(void)
{
	const char *env = getenv("VRQ_IN_GUEST");
	int cpus[CPU_SETSIZE], ncpu, rounds = 0, check_share;
	unsigned long w, w_min = ~0UL, w_max = 0;
	double t0;
	unsigned long taint0, taint1;
	struct stat sb;
	cpu_set_t on;

	tl_init("t_dl_server_stop");
	if (!env || strcmp(env, "1"))
		tl_skip("CPU hotplug runs only in the test guest (VRQ_IN_GUEST=1); "
			"never offlines host CPUs");
	if (geteuid() != 0)
		tl_skip("needs root (SCHED_FIFO, CPU hotplug)");
	ncpu = tl_usable_cpus(cpus, CPU_SETSIZE);
	if (ncpu < 2)
		tl_skip("needs >= 2 online CPUs, have %d", ncpu);
	for (int i = ncpu - 1; i > 0 && victim < 0; i--) {
		snprintf(victim_path, sizeof(victim_path),
			 "/sys/devices/system/cpu/cpu%d/online", cpus[i]);
		if (stat(victim_path, &sb) == 0)
			victim = cpus[i];
	}
	if (victim < 0)
		tl_skip("no hotpluggable CPU (no cpuN/online files; CONFIG_HOTPLUG_CPU?)");
	snprintf(server_path, sizeof(server_path),
		 "/sys/kernel/debug/sched/fair_server/cpu%d/runtime", victim);
	if (access(server_path, W_OK)) {
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
		if (access(server_path, W_OK)) {
			tl_info("no %s: the server's parameters are not rewritten",
				server_path);
			server_path[0] = 0;
		}
	}
	check_share =
		rel_read_long("/proc/sys/kernel/sched_rt_runtime_us", 0) == 950000 &&
		rel_read_long("/proc/sys/kernel/sched_rt_period_us", 0) == 1000000;
	if (!check_share)
		tl_info("RT bandwidth is not the default 950000/1000000 us: the "
			"probe's share is not checked");
	atexit(restore_online);
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	signal(SIGHUP, on_signal);
	/* stay off the victim: the hog must not take this thread's CPU */
	if (tl_pin_tid(0, cpus[0]))
		tl_die("pin to CPU %d: %s", cpus[0], tl_errname(errno));

	taint0 = tainted();
	t0 = tl_now();
	while (rounds < ROUNDS && tl_now() - t0 < BUDGET_S && !tl_failures()) {
		w = one_round(rounds, check_share);
		w_min = w < w_min ? w : w_min;
		w_max = w > w_max ? w : w_max;
		rounds++;
	}
	restore_online();
	taint1 = tainted();

	TL_CHECK(rounds >= 3, "only %d rounds in %.0f s", rounds, tl_now() - t0);
	TL_CHECK(tl_online_set(&on) > 0 && CPU_ISSET(victim, &on),
		 "CPU %d is not online at the end", victim);
	if (taint0 & TAINT_WARN)
		tl_info("the kernel was tainted W before the test (0x%lx): a new "
			"WARN shows only in the log", taint0);
	else
		TL_CHECK(!(taint1 & TAINT_WARN),
			 "the kernel WARNed during the test (tainted 0x%lx -> 0x%lx); "
			 "see the serial log", taint0, taint1);
	return tl_finish("CPU %d: %d rounds of a NORMAL sleeper next to a FIFO hog "
			 "for %.1f s (%lu-%lu wakeups%s), then offline and "
			 "online; no new W taint (0x%lx)",
			 victim, rounds, HOG_S, w_min, w_max,
			 check_share ? "" : ", not checked", taint1);
}
