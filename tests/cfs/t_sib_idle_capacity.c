// SPDX-License-Identifier: GPL-2.0
/*
 * t_sib_idle_capacity: SIB_IDLE_CAPACITY (seed 001 part 5) stops the
 * fork/exec slow path (sched_balance_find_dst_group_cpu()) from taking the
 * first sched-idle CPU of a group for an idle task.
 *
 * CPU A runs a pinned SCHED_IDLE spinner and the SCHED_IDLE parent; CPU B
 * is idle. The parent forks SCHED_IDLE children, each reporting the CPU it
 * first runs on. With the bit on they must start on the idle CPU B. The
 * same is expected with the bit off on this machine: the slow path then
 * descends to the chosen CPU's lower domains, whose single-CPU groups
 * already rank an idle CPU above a sched-idle one, so the bit changes only
 * the intermediate choice (visible on topologies where a group spans
 * several lower-level domains, see docs/cfs-fixes.md). Both are reported.
 */
#include "cfs_test.h"

#include <sys/mman.h>
#include <sys/wait.h>

#define CHILDREN 30

static int cpu_a, cpu_b;

/* Number of sched domains of CPU 0 in /proc/schedstat. */
static int domain_levels(void)
{
	static char buf[1 << 16];
	char *p, *cpu1;
	int n = 0;

	if (tl_read_file("/proc/schedstat", buf, sizeof(buf)) < 0)
		return 0;
	p = strstr(buf, "\ncpu0 ");
	if (!p)
		return 0;
	cpu1 = strstr(p + 1, "\ncpu");
	while ((p = strstr(p + 1, "\ndomain")) && (!cpu1 || p < cpu1))
		n++;
	return n;
}

static int fork_round(int on, int *on_b)
{
	int *first = mmap(NULL, sizeof(int) * CHILDREN, PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int i, n = 0;

	if (first == MAP_FAILED)
		tl_die("mmap: %s", tl_errname(errno));
	cfs_set_or_die("SIB_IDLE_CAPACITY", on);
	*on_b = 0;
	for (i = 0; i < CHILDREN; i++) {
		pid_t pid = fork();

		if (pid < 0)
			tl_die("fork: %s", tl_errname(errno));
		if (pid == 0) {
			first[i] = sched_getcpu();
			_exit(0);
		}
		waitpid(pid, NULL, 0);
		n++;
		*on_b += first[i] == cpu_b;
		tl_sleep(0.002);
	}
	munmap(first, sizeof(int) * CHILDREN);
	return n;
}

int main(void)
{
	struct tl_spinner hog = { 0 };
	int b_on, b_off, b2;

	tl_init("t_sib_idle_capacity");
	cfs_require_kernel();
	if (domain_levels() < 3)
		tl_skip("%d sched domain level(s): the slow path ends in single-CPU groups, which already rank an idle CPU above a sched-idle one, so SIB_IDLE_CAPACITY cannot change placement here (needs a group spanning several lower-level domains, see docs/cfs-fixes.md)",
			domain_levels());
	cfs_two_cpus(&cpu_a, &cpu_b);

	cfs_idle_spinners_start(&hog, 1, cpu_a);

	/* parent: SCHED_IDLE on A; children may run on A or B */
	cfs_set_aff(0, cpu_a, -1);
	if (cfs_set_policy(0, SCHED_IDLE))
		tl_die("SCHED_IDLE: %s", tl_errname(errno));
	cfs_set_aff(0, cpu_a, cpu_b);
	tl_sleep(0.02);
	if (sched_getcpu() != cpu_a)
		tl_info("parent moved to CPU %d", sched_getcpu());

	fork_round(1, &b_on);
	fork_round(0, &b_off);
	fork_round(1, &b2);
	b_on += b2;
	fork_round(0, &b2);
	b_off += b2;

	cfs_set_policy(0, SCHED_OTHER);
	tl_spinner_stop(&hog);

	TL_CHECK(b_on >= 2 * CHILDREN * 8 / 10,
		 "SIB_IDLE_CAPACITY: only %d of %d SCHED_IDLE children started on idle CPU %d",
		 b_on, 2 * CHILDREN, cpu_b);
	return tl_finish("SCHED_IDLE children started on idle CPU %d rather than sched-idle CPU %d: %d/%d with SIB_IDLE_CAPACITY, %d/%d without",
			 cpu_b, cpu_a, b_on, 2 * CHILDREN, b_off, 2 * CHILDREN);
}
