// SPDX-License-Identifier: GPL-2.0
/*
 * VRQ: a BFS/VRQ-style scheduling class for SCHED_NORMAL, SCHED_BATCH and
 * SCHED_IDLE tasks. It takes the place of CFS/EEVDF (fair.c) when
 * CONFIG_SCHED_VRQ is set.
 *
 * Design
 * ======
 *
 * One queue. Every runnable VRQ task that is not running waits in one
 * global red-black tree ordered by (level, virtual deadline). Levels are,
 * best first, ISO (SCHED_ISO within its share), NORMAL (SCHED_NORMAL and
 * SCHED_BATCH) and IDLE (SCHED_IDLE).
 * A running task is not in the tree; when it is switched out while still
 * runnable it goes back in.
 *
 * One lock. Every run queue is protected by the one lock vrq_lock:
 * __rq_lockp() returns it for every CPU. The core already copes with run
 * queues that share a lock (double_rq_lock() and friends compare lock
 * pointers), and with it a CPU can take any queued task under the lock it
 * already holds. The price is contention on machines with many CPUs.
 *
 * Accounting. A queued task is accounted on task_cpu(p): nr_running, the
 * load average, PSI and rq->cfs.h_nr_queued (read by core.c's fast path)
 * count it there. When CPU X picks a task whose task_cpu() is another CPU,
 * the task is moved to X first, as move_queued_task() would do it. CPU
 * hotplug relies on this accounting: a dying CPU waits until nothing is
 * accounted on it (sched_cpu_wait_empty()), so it may always pick what is,
 * and balance_push() then sends it away.
 *
 * Clock. Deadlines must compare across CPUs, so they are expressed in one
 * global monotonic clock, "niffies", which is advanced under the lock to the
 * latest run queue clock seen. A raw per-CPU clock is never used for
 * deadlines.
 *
 * Deadlines. A task's virtual deadline is
 *	niffies + prio_ratio[nice + 20] * rr_interval / 128
 * with prio_ratio[0] = 128 and each next entry 10% larger. The time slice
 * is rr_interval. When the slice runs out (at a tick: less than half a
 * tick left; at a switch: less than 100us) the slice is refilled, a new
 * deadline is set and the CPU reschedules. The new deadline is now +
 * offset less the time slept during the slice (carry 2, the sleep credit,
 * the default), or the old one plus the offset, kept between now and now +
 * offset (carry 1), or now + offset (BFS, carry 0): a CPU hog gets BFS's
 * deadline, and a task that slept keeps waking ahead of the hogs instead
 * of waiting behind them (see vrq_renew()). A forked child takes half of
 * its parent's slice and a fresh deadline, or the parent's if that is
 * later, so forking gains nothing. SCHED_BATCH tasks get a fresh deadline
 * at each reschedule and never preempt on wakeup. SCHED_IDLE tasks run
 * only when nothing else of this class wants the CPU; they count as
 * NORMAL while a signal is pending, while exiting or freezing, and after
 * waiting a second in the queue (so a lock holder cannot starve forever).
 *
 * Cached tasks. A task switched out while runnable is "cached" on its CPU
 * with a timestamp; a new task starts cached on its parent's CPU. Until the
 * cache timeout of its policy has passed only that CPU may pick it. The
 * timeouts (sysctls, microseconds): SCHED_BATCH and SCHED_IDLE 1s;
 * SCHED_NORMAL a value calibrated at boot from the CPUs' clock and count
 * (rr_interval on two 3 GHz CPUs), or 1s while the preemption model in
 * force is "none" (checked at run time, so preempt= and the debugfs switch
 * count).
 * A busy CPU's tick kicks an idle CPU that may run a queued task, so a task
 * whose timeout passed does not wait while an allowed CPU idles. With
 * kernel.sched_idle_takes_cached set, a CPU with nothing else to run also
 * takes a task still cache hot on a CPU that is busy with another task
 * (work conserving); 0 is BFS's rule.
 *
 * CPU selection on wakeup: the previous CPU if it is idle; else an idle CPU
 * in locality order (SMT sibling, shared LLC, node, any) starting from the
 * task's own CPU; else the FIRST allowed CPU in that order running a VRQ
 * task of a lower level or a later deadline, or a SCHED_BATCH task when the
 * wakee is SCHED_NORMAL; it gets preempted. SCHED_IDLE tasks are only sent
 * to idle CPUs.
 *
 * Sync wakeups: a WF_SYNC wakeup (pipe and socket writes) on the waker's own
 * CPU does not preempt the waker while kernel.sched_sync_preempt is 0 (the
 * default): the waker says it will sleep soon, and a writer then hands over
 * the CPU once per batch rather than once per message. Set to 1 it behaves
 * as BFS did. With kernel.sched_sync_affine at 1 (the default), a sync
 * wakeup that finds no idle CPU stays on the waker's CPU rather than
 * preempting another; 0 is BFS's rule.
 *
 * SCHED_ISO (policy 4), BFS's soft real-time policy: ISO tasks run ahead
 * of NORMAL while all of them together used at most kernel.iso_cpu percent
 * of the machine over the last seconds, and as NORMAL past it. See the
 * SCHED_ISO section.
 *
 * Utilisation: each CPU's PELT average, rq->cfs.avg, is fed as fair.c
 * feeds it, for schedutil, uclamp and thermal. See the Utilisation section.
 *
 * RT starvation guard: rq->fair_server, the deadline server fair.c uses,
 * serves VRQ tasks the same way, so sched_rt_runtime_us still leaves time
 * to ordinary tasks under an RT hog.
 *
 * Interfaces: sysctls kernel.rr_interval (ms, 1..1000), kernel.yield_type
 * (0: sched_yield() does nothing, 1: yield to a better task, 2: expire the
 * slice, the default), kernel.sched_deadline_carry,
 * kernel.sched_{normal,batch,idle}_cache_timeout_us,
 * kernel.sched_idle_takes_cached, kernel.sched_sync_affine, kernel.iso_cpu,
 * kernel.sched_rt_to_iso; per-CPU counters, utilisation and ISO usage in
 * /proc/vrq_stats (and debugfs sched/vrq); the task's deadline,
 * slice and cached CPU in /proc/PID/sched.
 */
#include <linux/cpumask_api.h>
#include <linux/debugfs.h>
#include <linux/freezer.h>
#include <linux/mmu_context.h>
#include <linux/proc_fs.h>
#include <linux/psi.h>
#include <linux/rbtree.h>
#include <linux/sched/clock.h>
#include <linux/sched/cputime.h>
#include <linux/sched/nohz.h>
#include <linux/sched/signal.h>
#include <linux/sched/topology.h>
#include <linux/seq_file.h>
#include <linux/spinlock_api.h>
#include <linux/sysctl.h>
#include <linux/topology.h>

#include <trace/events/sched.h>

#include "sched.h"
#include "pelt.h"
#include "stats.h"

/* Queue levels, best first. */
enum {
	VRQ_LEVEL_ISO = 0,
	VRQ_LEVEL_NORMAL = 1,
	VRQ_LEVEL_IDLE = 2,
};

/* vrq_entity.flags */
#define VRQ_F_KEEP		0x01	/* yield_type 0: keep the CPU */
#define VRQ_F_ENQUEUED		0x02	/* enqueued in this class */
#define VRQ_F_ISO_QUEUED	0x04	/* SCHED_ISO, counted in vrq_nr_iso_queued */

/* Reschedule instead of running a slice shorter than this. */
#define VRQ_RESCHED_NS		(100 * NSEC_PER_USEC)
/*
 * The tick is the slice timer: it ends a slice with less than half a tick
 * left, so that slices last rr_interval on average. With the 100us bound
 * a tick that came a little early would let a slice run a whole tick more.
 */
#define VRQ_TICK_RESCHED_NS	max_t(s64, VRQ_RESCHED_NS, TICK_NSEC / 2)
/* "Unlimited" cache timeout, and the SCHED_IDLE starvation limit. */
#define VRQ_LONG_NS		NSEC_PER_SEC
/* The sleep credit's bound before vrq_renew() caps it at one offset. */
#define VRQ_SLEPT_MAX_NS	(100ULL * NSEC_PER_SEC)
/* Queue entries the idle-kick scan looks at. */
#define VRQ_KICK_SCAN		32

DEFINE_RAW_SPINLOCK(vrq_lock);

static struct rb_root_cached vrq_queue = RB_ROOT_CACHED;
static u64 vrq_niffies;
static unsigned int vrq_nr_queued;
static unsigned int vrq_nr_idle_queued;
static unsigned int vrq_nr_iso_queued;

static int prio_ratios[NICE_WIDTH];

/* SCHED_ISO: decayed ISO run time (ns) and whether ISO is over its share. */
#define VRQ_ISO_HALFLIFE_NS	NSEC_PER_SEC
static u64 vrq_iso_sum;
static u64 vrq_iso_stamp;
static bool vrq_iso_throttled;

/* Tunables. */
static int sysctl_rr_interval = 6;			/* ms */
static int sysctl_yield_type = 2;
static int sysctl_sync_preempt;
static int sysctl_deadline_carry = 2;
static int sysctl_normal_cache_us = -1;			/* -1: automatic */
/* The automatic NORMAL cache timeout in 1/1024 of rr_interval (at boot). */
static unsigned int vrq_auto_cache_scale = 1024;
static int sysctl_batch_cache_us = 1000000;
static int sysctl_idle_cache_us = 1000000;
/* May a CPU with nothing to run take a task cache hot on a busy CPU? */
static int sysctl_idle_takes_cached;
/* Does a sync wakeup that finds no idle CPU stay on the waker's CPU? */
static int sysctl_sync_affine = 1;
static int sysctl_iso_cpu = 70;				/* percent */
static int sysctl_rt_to_iso = 1;

/*
 * Kept for the core: __setparam_fair() and sched_fork() set se.slice from
 * it. VRQ keeps it equal to rr_interval and does not use se.slice.
 */
unsigned int sysctl_sched_base_slice = 6000000ULL;
unsigned int sysctl_sched_tunable_scaling = SCHED_TUNABLESCALING_NONE;
__read_mostly unsigned int sysctl_sched_migration_cost = 500000UL;

struct vrq_stats {
	unsigned long	own_cached;	/* picked a task cached here */
	unsigned long	other_timeout;	/* picked a task cached elsewhere, expired */
	unsigned long	moved;		/* tasks moved to this CPU on pick */
	unsigned long	wake_preempt;	/* wakeup preemptions of this CPU */
	unsigned long	idle_kick;	/* kicks sent to this idle CPU */
	unsigned long	timeout_expiry;	/* expired cached tasks found by kicks */
	unsigned long	sync_kept;	/* sync wakeups that left the waker running */
	unsigned long	idle_take;	/* cache-hot tasks taken from a busy CPU */
};

static DEFINE_PER_CPU(struct vrq_stats, vrq_stats);

static inline struct vrq_stats *vrq_st(int cpu)
{
	return per_cpu_ptr(&vrq_stats, cpu);
}

/*
 * Helpers
 */
static inline u64 vrq_rr_ns(void)
{
	return (u64)READ_ONCE(sysctl_rr_interval) * NSEC_PER_MSEC;
}

static inline bool vrq_task(struct task_struct *p)
{
	return p->sched_class == &fair_sched_class;
}

static inline bool vrq_batch(struct task_struct *p)
{
	return p->policy == SCHED_BATCH;
}

/* SCHED_IDLE task that currently gets no NORMAL treatment. */
static bool vrq_idle_level(struct task_struct *p)
{
	if (likely(!task_has_idle_policy(p)))
		return false;
	if (signal_pending(p) || (p->flags & PF_EXITING) || freezing(p))
		return false;
	return true;
}

/* Does SCHED_ISO task @p run ahead of NORMAL now? Lock held. */
static inline bool vrq_iso_active(struct task_struct *p)
{
	return p->policy == SCHED_ISO && !vrq_iso_throttled &&
	       READ_ONCE(sysctl_iso_cpu);
}

static inline int vrq_level(struct task_struct *p)
{
	if (vrq_iso_active(p))
		return VRQ_LEVEL_ISO;
	return vrq_idle_level(p) ? VRQ_LEVEL_IDLE : VRQ_LEVEL_NORMAL;
}

static inline u64 vrq_prio_offset(struct task_struct *p)
{
	int idx = clamp(p->static_prio - MAX_RT_PRIO, 0, NICE_WIDTH - 1);

	return (u64)prio_ratios[idx] * vrq_rr_ns() / 128;
}

/* Advance the global clock from this run queue's clock. Lock held. */
static inline void vrq_update_niffies(struct rq *rq)
{
	u64 now = rq->clock;

	lockdep_assert_held(&vrq_lock);
	if (now > vrq_niffies)
		WRITE_ONCE(vrq_niffies, now);
}

/* A fresh slice and a fresh deadline: forks and yields. */
static inline void vrq_refill(struct task_struct *p)
{
	p->vrq.time_slice = vrq_rr_ns();
	p->vrq.deadline = vrq_niffies + vrq_prio_offset(p);
	p->vrq.slept = 0;
}

/*
 * The slice ran out: a fresh slice, and the next deadline. BFS sets it to
 * now + offset (kernel.sched_deadline_carry=0).
 *
 * With carry 1 it is the old deadline + offset, kept between now and
 * now + offset. A CPU hog's old deadline + offset lies beyond now + offset,
 * so it gets BFS's deadline. A task that used its last slice over more
 * than one offset of time (at most rr_interval per offset: 15 % of a CPU
 * at nice 0) keeps waking ahead of the hogs instead of waiting up to two
 * of their slices behind them. A task that needs more than that, a video
 * frame every 16 ms say, renews like a hog.
 *
 * With carry 2 (the default), the sleep credit, it is now + offset less
 * the time the task slept while the slice lasted, at most one offset. Time
 * spent waiting in the queue earns nothing, so hogs get now + offset. Sleep
 * counts as if the task had waited in the queue for its turn: it moves the
 * task that far ahead in deadline order, and its turn comes round no
 * sooner than a hog's would have, so sleeping does not buy more than a
 * fair share.
 */
static inline void vrq_renew(struct task_struct *p)
{
	int carry = READ_ONCE(sysctl_deadline_carry);
	u64 offset = vrq_prio_offset(p);
	u64 late = vrq_niffies + offset;
	u64 dl = p->vrq.deadline + offset;

	if (carry == 2)
		dl = late - min(p->vrq.slept, offset);
	else if (!carry || (s64)(dl - late) > 0)
		dl = late;
	else if ((s64)(dl - vrq_niffies) < 0)
		dl = vrq_niffies;
	p->vrq.time_slice = vrq_rr_ns();
	p->vrq.deadline = dl;
	p->vrq.slept = 0;
}

/* The calibrated NORMAL cache timeout: 1 ms..4 x rr_interval. */
static u64 vrq_auto_cache_ns(void)
{
	u64 ns = vrq_rr_ns() * READ_ONCE(vrq_auto_cache_scale) >> 10;

	return clamp_t(u64, ns, NSEC_PER_MSEC, 4 * vrq_rr_ns());
}

/* The NORMAL cache timeout in force: the sysctl, or the automatic one. */
static u64 vrq_normal_cache_ns(void)
{
	int us = READ_ONCE(sysctl_normal_cache_us);

	if (us >= 0)
		return (u64)us * NSEC_PER_USEC;
	return preempt_model_none() ? VRQ_LONG_NS : vrq_auto_cache_ns();
}

static u64 vrq_cache_timeout(struct task_struct *p)
{
	switch (p->policy) {
	case SCHED_BATCH:
		return (u64)READ_ONCE(sysctl_batch_cache_us) * NSEC_PER_USEC;
	case SCHED_IDLE:
		return (u64)READ_ONCE(sysctl_idle_cache_us) * NSEC_PER_USEC;
	default:
		return vrq_normal_cache_ns();
	}
}

/* Is @p cached on a CPU other than @cpu, and still hot there? */
static bool vrq_cache_hot_elsewhere(struct task_struct *p, int cpu)
{
	int ccpu = p->vrq.cached_cpu;

	if (ccpu < 0 || ccpu == cpu)
		return false;
	/* Soft real-time: ISO work does not wait for a warm cache. */
	if (p->vrq.level == VRQ_LEVEL_ISO)
		return false;
	if (!cpu_active(ccpu) || !cpumask_test_cpu(ccpu, p->cpus_ptr))
		return false;
	return vrq_niffies - p->vrq.cached_at < vrq_cache_timeout(p);
}

/*
 * Work conservation (kernel.sched_idle_takes_cached): a CPU that has
 * nothing else to run may take @p, cache hot elsewhere, while the CPU it is
 * cached on runs another task, since @p would wait there until that task's
 * slice ends or until its own timeout passes. An idle cached CPU will pick
 * it itself.
 */
static bool vrq_idle_may_take(struct task_struct *p)
{
	struct rq *crq = cpu_rq(p->vrq.cached_cpu);

	return READ_ONCE(sysctl_idle_takes_cached) &&
	       READ_ONCE(crq->curr) != crq->idle;
}

/*
 * May @cpu run queued task @p now? @idle: @cpu has nothing else to run.
 * Lock held.
 *
 * The CPU a task is accounted on may run it outside its affinity when no
 * CPU of that affinity is active, or when this CPU is going down. A task
 * gets there when sched_setaffinity() races with hotplug: the migration
 * stopper finds the new CPU gone and leaves the task where it is. No other
 * CPU may take it then, and a dying CPU's hotplug thread would wait for it
 * forever (sched_cpu_wait_empty()). Picked by its own CPU, it is pushed
 * away by balance_push() on a dying CPU, or moves at its next wakeup, as
 * on mainline, where a CPU picks from its own run queue without looking at
 * affinity.
 */
static bool vrq_can_run_on(struct task_struct *p, int cpu, bool idle)
{
	if (READ_ONCE(p->on_cpu))
		return false;
	if (task_cpu(p) == cpu)
		return cpumask_test_cpu(cpu, p->cpus_ptr) || !cpu_active(cpu) ||
		       !cpumask_intersects(p->cpus_ptr, cpu_active_mask);
	if (!cpumask_test_cpu(cpu, p->cpus_ptr))
		return false;
	if (is_migration_disabled(p) || !cpu_active(cpu))
		return false;
	if (!vrq_cache_hot_elsewhere(p, cpu))
		return true;
	return idle && vrq_idle_may_take(p);
}

/* Does @a go before @b? @b's level is taken as @b_level. */
static inline bool vrq_before(struct task_struct *a, int a_level,
			      struct task_struct *b, int b_level)
{
	if (a_level != b_level)
		return a_level < b_level;
	return (s64)(a->vrq.deadline - b->vrq.deadline) < 0;
}

/*
 * Queue operations
 */
static inline bool vrq_node_less(struct rb_node *a, const struct rb_node *b)
{
	struct task_struct *pa = rb_entry(a, struct task_struct, vrq.node);
	struct task_struct *pb = rb_entry(b, struct task_struct, vrq.node);

	return vrq_before(pa, pa->vrq.level, pb, pb->vrq.level);
}

static void __vrq_queue_add(struct task_struct *p, int level)
{
	lockdep_assert_held(&vrq_lock);
	if (WARN_ON_ONCE(p->vrq.on_queue))
		return;
	p->vrq.level = level;
	p->vrq.queued_at = vrq_niffies;
	rb_add_cached(&p->vrq.node, &vrq_queue, vrq_node_less);
	p->vrq.on_queue = 1;
	vrq_nr_queued++;
	if (p->vrq.level == VRQ_LEVEL_IDLE)
		vrq_nr_idle_queued++;
	if (p->policy == SCHED_ISO) {
		p->vrq.flags |= VRQ_F_ISO_QUEUED;
		vrq_nr_iso_queued++;
	}
}

static inline void vrq_queue_add(struct task_struct *p)
{
	__vrq_queue_add(p, vrq_level(p));
}

static void vrq_queue_del(struct task_struct *p)
{
	lockdep_assert_held(&vrq_lock);
	if (!p->vrq.on_queue)
		return;
	rb_erase_cached(&p->vrq.node, &vrq_queue);
	RB_CLEAR_NODE(&p->vrq.node);
	p->vrq.on_queue = 0;
	vrq_nr_queued--;
	if (p->vrq.level == VRQ_LEVEL_IDLE)
		vrq_nr_idle_queued--;
	if (p->vrq.flags & VRQ_F_ISO_QUEUED) {
		p->vrq.flags &= ~VRQ_F_ISO_QUEUED;
		vrq_nr_iso_queued--;
	}
}

static inline struct task_struct *vrq_first(void)
{
	struct rb_node *n = rb_first_cached(&vrq_queue);

	return n ? rb_entry(n, struct task_struct, vrq.node) : NULL;
}

static inline struct task_struct *vrq_next(struct task_struct *p)
{
	struct rb_node *n = rb_next(&p->vrq.node);

	return n ? rb_entry(n, struct task_struct, vrq.node) : NULL;
}

/*
 * SCHED_IDLE tasks that waited too long, or that now have a signal pending
 * or are exiting, move up to the NORMAL level.
 */
static void vrq_promote_idle(void)
{
	struct rb_node *n, *prev;
	struct task_struct *p;

	if (!vrq_nr_idle_queued)
		return;

	for (n = rb_last(&vrq_queue.rb_root); n; n = prev) {
		prev = rb_prev(n);
		p = rb_entry(n, struct task_struct, vrq.node);
		if (p->vrq.level != VRQ_LEVEL_IDLE)
			break;
		if (vrq_idle_level(p) &&
		    vrq_niffies - p->vrq.queued_at < VRQ_LONG_NS)
			continue;
		/* Boosted or starved: it waits at the NORMAL level now. */
		vrq_queue_del(p);
		__vrq_queue_add(p, VRQ_LEVEL_NORMAL);
	}
}

/*
 * SCHED_ISO
 *
 * BFS's soft real-time policy for unprivileged audio and video. ISO tasks
 * wait at their own level, ahead of NORMAL, in deadline order (round robin
 * among equals), and preempt NORMAL tasks on wakeup. Their run time at that
 * level is summed into vrq_iso_sum, which decays with a half-life of one
 * second; divided by the CPUs it is the share of the machine ISO tasks
 * used over about the last few seconds. Above kernel.iso_cpu percent they
 * are throttled: they wait at the NORMAL level, with their nice, until the
 * share falls below it again. The tick decides; a change moves the queued
 * ISO tasks to their new level. An unprivileged request for SCHED_FIFO or
 * SCHED_RR without RLIMIT_RTPRIO gets SCHED_ISO (kernel.sched_rt_to_iso).
 */

/* Decay vrq_iso_sum to now: about 2^(-dt / half-life). Lock held. */
static void vrq_iso_decay(void)
{
	u64 dt = vrq_niffies - vrq_iso_stamp, step;

	if (dt < NSEC_PER_MSEC)
		return;
	vrq_iso_stamp = vrq_niffies;
	if (dt >= 32 * VRQ_ISO_HALFLIFE_NS) {
		vrq_iso_sum = 0;
		return;
	}
	vrq_iso_sum >>= div64_u64(dt, VRQ_ISO_HALFLIFE_NS);
	dt = do_div(dt, VRQ_ISO_HALFLIFE_NS);
	/* 1 - ln2 * step / half-life per eighth of a half-life at most */
	while (dt) {
		step = min_t(u64, dt, VRQ_ISO_HALFLIFE_NS / 8);
		vrq_iso_sum -= mul_u64_u64_div_u64(vrq_iso_sum, step * 710,
						   1024ULL * VRQ_ISO_HALFLIFE_NS);
		dt -= step;
	}
}

/* ISO share of all online CPUs, percent. Steady state: sum = f n H / ln2. */
static unsigned int vrq_iso_usage(void)
{
	u64 cap = (u64)num_online_cpus() * VRQ_ISO_HALFLIFE_NS * 1024;
	u64 pct = mul_u64_u64_div_u64(vrq_iso_sum, 710 * 100, cap);

	return (unsigned int)min_t(u64, 100, pct);
}

/* Move each queued ISO task to the level it should wait at now. */
static void vrq_iso_requeue(void)
{
	struct task_struct *p, *next;
	int level;

	if (!vrq_nr_iso_queued)
		return;
	for (p = vrq_first(); p; p = next) {
		next = vrq_next(p);
		if (p->policy != SCHED_ISO)
			continue;
		level = vrq_level(p);
		if (level == p->vrq.level)
			continue;
		/* Moved later, it is met again with its new level: skipped. */
		vrq_queue_del(p);
		__vrq_queue_add(p, level);
	}
}

/*
 * The ISO level opened or closed. Reschedule as many CPUs as there are
 * tasks that now rank ahead of the CPU's task: on an unthrottle, CPUs
 * running a task not picked as ISO, for the ISO tasks waiting; on a
 * throttle, CPUs still running a task picked as ISO, for any task waiting.
 * Neither waits for the end of a slice.
 */
static void vrq_iso_kick(bool throttle)
{
	unsigned int n = throttle ? vrq_nr_queued : vrq_nr_iso_queued;
	int cpu;

	for_each_online_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);
		struct task_struct *curr = rq->curr;
		bool picked_iso;

		if (!n)
			break;
		if (!vrq_task(curr) || test_tsk_need_resched(curr))
			continue;
		picked_iso = curr->vrq.level == VRQ_LEVEL_ISO;
		if (picked_iso != throttle)
			continue;
		resched_curr(rq);
		n--;
	}
}

/* From the tick of a CPU running a VRQ task. Lock held. */
static void vrq_iso_tick(void)
{
	int limit = READ_ONCE(sysctl_iso_cpu);
	unsigned int usage;
	bool throttle;

	vrq_iso_decay();
	if (!vrq_iso_sum && !vrq_iso_throttled && limit)
		return;
	usage = vrq_iso_usage();
	throttle = vrq_iso_throttled;
	if (!limit || usage > limit)
		throttle = true;
	else if (usage < limit)
		throttle = false;
	if (throttle == vrq_iso_throttled)
		return;
	vrq_iso_throttled = throttle;
	vrq_iso_requeue();
	vrq_iso_kick(throttle);
}

/*
 * Run time of the current task: counted when it was picked at the ISO
 * level. The throttle state at the time of the update would miss the time
 * an ISO task ran between its last update and a throttle, and count NORMAL
 * time before an unthrottle: with the state flipping every few ticks that
 * lost most of the ISO time when a busy host spaced the updates out.
 */
static inline void vrq_iso_account(struct task_struct *curr, s64 delta_exec)
{
	if (curr->vrq.level == VRQ_LEVEL_ISO) {
		vrq_iso_decay();
		vrq_iso_sum += delta_exec;
	}
}

/*
 * Called by __sched_setscheduler() for a user's SCHED_FIFO/SCHED_RR request
 * that has been validated: true if it gets SCHED_ISO instead. Only where
 * mainline would refuse it with EPERM for want of RLIMIT_RTPRIO, and not
 * for a task that is real-time already (it keeps mainline's rules).
 */
bool vrq_rt_to_iso(struct task_struct *p)
{
	if (!READ_ONCE(sysctl_rt_to_iso) || task_has_rt_policy(p) ||
	    task_has_dl_policy(p))
		return false;
	if (task_rlimit(p, RLIMIT_RTPRIO))
		return false;
	return !capable(CAP_SYS_NICE);
}

/*
 * Utilisation
 *
 * rq->cfs.avg is the CPU's PELT average (kernel/sched/pelt.c), fed the
 * way fair.c feeds it: running while a VRQ task is the CPU's current task
 * (rq->cfs.curr), runnable while VRQ tasks are accounted on the CPU. It is
 * brought up to date when the running task's time is accounted, at each
 * switch, when the CPU's count of tasks changes and before it is shown in
 * /proc/vrq_stats. schedutil, uclamp and thermal read it through
 * cpu_util_cfs() and effective_cpu_util(), as on mainline. There is no
 * util_est, and an idle CPU's average is decayed when next touched, not by
 * a periodic update of blocked averages.
 */
#ifdef CONFIG_SMP
static void vrq_update_util(struct rq *rq)
{
	if (__update_load_avg_cfs_rq(rq_clock_pelt(rq), &rq->cfs) &&
	    cpu_of(rq) == smp_processor_id())
		cpufreq_update_util(rq, 0);
}

unsigned long cpu_util_cfs(int cpu)
{
	return min(READ_ONCE(cpu_rq(cpu)->cfs.avg.util_avg),
		   arch_scale_cpu_capacity(cpu));
}

unsigned long cpu_util_cfs_boost(int cpu)
{
	struct cfs_rq *cfs_rq = &cpu_rq(cpu)->cfs;
	unsigned long util = max(READ_ONCE(cfs_rq->avg.util_avg),
				 READ_ONCE(cfs_rq->avg.runnable_avg));

	return min(util, arch_scale_cpu_capacity(cpu));
}

/* As on mainline: the CPU's utilisation, and uclamp's bounds on it. */
unsigned long effective_cpu_util(int cpu, unsigned long util_cfs,
				 unsigned long *min, unsigned long *max)
{
	unsigned long scale = arch_scale_cpu_capacity(cpu);
	struct rq *rq = cpu_rq(cpu);
	unsigned long util, irq;

	irq = cpu_util_irq(rq);
	if (unlikely(irq >= scale)) {
		if (min)
			*min = scale;
		if (max)
			*max = scale;
		return scale;
	}

	if (min) {
		*min = max(irq + cpu_bw_dl(rq), uclamp_rq_get(rq, UCLAMP_MIN));
		/* Without uclamp an RT task asks for the highest speed. */
		if (!uclamp_is_used() && rt_rq_is_runnable(&rq->rt))
			*min = max(*min, scale);
	}

	util = util_cfs + cpu_util_rt(rq) + cpu_util_dl(rq);
	if (max)
		*max = min(scale, uclamp_rq_get(rq, UCLAMP_MAX));
	if (util >= scale)
		return scale;

	util = scale_irq_capacity(util, irq, scale) + irq;
	return min(scale, util);
}

unsigned long sched_cpu_util(int cpu)
{
	return effective_cpu_util(cpu, cpu_util_cfs(cpu), NULL, NULL);
}
#else
static inline void vrq_update_util(struct rq *rq)
{
}
#endif /* CONFIG_SMP */

/*
 * Runtime accounting
 */
static s64 vrq_update_curr_se(struct rq *rq, struct sched_entity *se)
{
	u64 now = rq_clock_task(rq);
	s64 delta_exec = now - se->exec_start;

	if (unlikely(delta_exec <= 0))
		return delta_exec;

	se->exec_start = now;
	se->sum_exec_runtime += delta_exec;

	if (schedstat_enabled()) {
		struct sched_statistics *stats = __schedstats_from_se(se);

		__schedstat_set(stats->exec_max,
				max(delta_exec, stats->exec_max));
	}
	return delta_exec;
}

static inline void vrq_account_task(struct task_struct *p, s64 delta_exec)
{
	trace_sched_stat_runtime(p, delta_exec);
	account_group_exec_runtime(p, delta_exec);
	cgroup_account_cputime(p, delta_exec);
}

/* Used by the other classes to account their current task's runtime. */
s64 update_curr_common(struct rq *rq)
{
	struct task_struct *curr = rq->curr;
	s64 delta_exec;

	delta_exec = vrq_update_curr_se(rq, &curr->se);
	if (likely(delta_exec > 0))
		vrq_account_task(curr, delta_exec);
	return delta_exec;
}

static void vrq_update_curr(struct rq *rq)
{
	struct task_struct *curr = rq->curr;
	s64 delta_exec;

	vrq_update_niffies(rq);
	if (!vrq_task(curr))
		return;

	delta_exec = vrq_update_curr_se(rq, &curr->se);
	if (unlikely(delta_exec <= 0))
		return;

	curr->vrq.time_slice -= delta_exec;
	vrq_account_task(curr, delta_exec);
	vrq_iso_account(curr, delta_exec);
	vrq_update_util(rq);

	/* Running VRQ tasks consume the deadline server's runtime. */
	if (dl_server_active(&rq->fair_server))
		dl_server_update(&rq->fair_server, delta_exec);
}

static void update_curr_fair(struct rq *rq)
{
	vrq_update_curr(rq);
}

/*
 * Run queue accounting of a task on task_cpu(p)
 */
/*
 * rq->cfs.load is the sum of the accounted tasks' weights: PELT counts a
 * CPU as running or runnable only while it is not zero.
 */
static void vrq_account_enqueue(struct rq *rq, struct task_struct *p)
{
	vrq_update_util(rq);
	if (!rq->cfs.h_nr_queued) {
		/* Account for idle runtime. */
		if (!rq->nr_running)
			dl_server_update_idle_time(rq, rq->curr);
		rq->cfs.h_nr_queued = 1;
		rq->cfs.h_nr_runnable = 1;
		rq->cfs.nr_running = 1;
		rq->cfs.load.weight = p->se.load.weight;
		if (!dl_server_active(&rq->fair_server))
			dl_server_start(&rq->fair_server);
	} else {
		rq->cfs.h_nr_queued++;
		rq->cfs.h_nr_runnable++;
		rq->cfs.nr_running++;
		rq->cfs.load.weight += p->se.load.weight;
	}
	add_nr_running(rq, 1);
}

static void vrq_account_dequeue(struct rq *rq, struct task_struct *p)
{
	vrq_update_util(rq);
	rq->cfs.h_nr_queued--;
	rq->cfs.h_nr_runnable--;
	rq->cfs.nr_running--;
	/* A weight that changed while queued must not underflow the sum. */
	if (!rq->cfs.h_nr_queued)
		rq->cfs.load.weight = 0;
	else if (rq->cfs.load.weight > p->se.load.weight)
		rq->cfs.load.weight -= p->se.load.weight;
	else
		rq->cfs.load.weight = scale_load(WEIGHT_IDLEPRIO);
	sub_nr_running(rq, 1);
}

static void enqueue_task_fair(struct rq *rq, struct task_struct *p, int flags)
{
	vrq_update_niffies(rq);
	/* The sleep credit (carry 2); kept finite, vrq_renew() caps it. */
	if ((flags & ENQUEUE_WAKEUP) &&
	    (s64)(vrq_niffies - p->vrq.slept_at) > 0)
		p->vrq.slept = min_t(u64, p->vrq.slept + vrq_niffies -
				     p->vrq.slept_at, VRQ_SLEPT_MAX_NS);
	if (p->vrq.time_slice <= 0)
		vrq_renew(p);
	p->vrq.flags |= VRQ_F_ENQUEUED;
	vrq_queue_add(p);
	vrq_account_enqueue(rq, p);
}

static bool dequeue_task_fair(struct rq *rq, struct task_struct *p, int flags)
{
	if (task_current(rq, p))
		vrq_update_curr(rq);
	vrq_queue_del(p);
	p->vrq.flags &= ~VRQ_F_ENQUEUED;
	if (flags & DEQUEUE_SLEEP) {
		p->vrq.cached_cpu = -1;
		p->vrq.slept_at = vrq_niffies;
	}
	vrq_account_dequeue(rq, p);
	return true;
}

/*
 * Move queued task @p from its CPU to @dst, the CPU that picked it. Both
 * run queues are protected by vrq_lock, which the caller holds.
 */
static void vrq_move_task(struct task_struct *p, struct rq *dst)
{
	struct rq *src = task_rq(p);

	update_rq_clock(src);
	deactivate_task(src, p, DEQUEUE_NOCLOCK);
	set_task_cpu(p, cpu_of(dst));
	activate_task(dst, p, ENQUEUE_NOCLOCK);
	vrq_st(cpu_of(dst))->moved++;

	/*
	 * A dying CPU's hotplug thread waits for its run queue to empty; it
	 * is woken by balance_push() when that CPU schedules. When another
	 * CPU takes its last task, make it schedule.
	 */
	if (!src->nr_running && cpu_dying(cpu_of(src)))
		resched_curr(src);
}

/*
 * Picking
 */
static struct task_struct *pick_task_fair(struct rq *rq)
{
	struct task_struct *curr = rq->curr, *p;
	int cpu = cpu_of(rq);
	int curr_level = 0;
	bool have_curr;

	vrq_update_niffies(rq);

	have_curr = vrq_task(curr) && task_on_rq_queued(curr) &&
		    (curr->vrq.flags & VRQ_F_ENQUEUED);
	if (have_curr) {
		if (curr->vrq.flags & VRQ_F_KEEP) {
			curr->vrq.flags &= ~VRQ_F_KEEP;
			return curr;
		}
		if (curr->vrq.time_slice < VRQ_RESCHED_NS)
			vrq_renew(curr);
		else if (vrq_batch(curr))
			curr->vrq.deadline = vrq_niffies + vrq_prio_offset(curr);
		curr_level = vrq_level(curr);
		/* Kept or not, it runs on at its new level from here. */
		if (curr_level != curr->vrq.level) {
			vrq_update_curr(rq);
			curr->vrq.level = curr_level;
		}
	}

	for (p = vrq_first(); p; p = vrq_next(p)) {
		if (have_curr && !vrq_before(p, p->vrq.level, curr, curr_level))
			return curr;
		if (vrq_can_run_on(p, cpu, !have_curr))
			break;
	}

	if (!p)
		return have_curr ? curr : NULL;

	if (task_cpu(p) != cpu) {
		if (vrq_cache_hot_elsewhere(p, cpu))
			vrq_st(cpu)->idle_take++;
		vrq_move_task(p, rq);
	}
	return p;
}

struct task_struct *pick_next_task_fair(struct rq *rq, struct task_struct *prev,
					struct rq_flags *rf)
{
	struct task_struct *p = pick_task_fair(rq);

	if (p)
		put_prev_set_next_task(rq, prev, p);
	return p;
}

static struct task_struct *vrq_server_pick_task(struct sched_dl_entity *dl_se)
{
	return pick_task_fair(dl_se->rq);
}

void fair_server_init(struct rq *rq)
{
	struct sched_dl_entity *dl_se = &rq->fair_server;

	init_dl_entity(dl_se);
	dl_server_init(dl_se, rq, vrq_server_pick_task);
}

static void put_prev_task_fair(struct rq *rq, struct task_struct *prev,
			       struct task_struct *next)
{
	vrq_update_curr(rq);
	rq->cfs.curr = NULL;

	if (!task_on_rq_queued(prev) || !(prev->vrq.flags & VRQ_F_ENQUEUED))
		return;

	/* Switched out while runnable: cache it on this CPU. */
	if (prev->vrq.time_slice < VRQ_RESCHED_NS)
		vrq_renew(prev);
	else if (vrq_batch(prev))
		prev->vrq.deadline = vrq_niffies + vrq_prio_offset(prev);
	prev->vrq.cached_cpu = cpu_of(rq);
	prev->vrq.cached_at = vrq_niffies;
	vrq_queue_add(prev);
}

static void set_next_task_fair(struct rq *rq, struct task_struct *p, bool first)
{
	int cpu = cpu_of(rq);

	vrq_queue_del(p);
	p->se.exec_start = rq_clock_task(rq);
	vrq_update_util(rq);
	rq->cfs.curr = &p->se;

	if (first && p->vrq.cached_cpu >= 0) {
		if (p->vrq.cached_cpu == cpu)
			vrq_st(cpu)->own_cached++;
		else if (!vrq_cache_hot_elsewhere(p, cpu))
			vrq_st(cpu)->other_timeout++;
	}
	p->vrq.cached_cpu = -1;
	p->vrq.flags &= ~VRQ_F_KEEP;
}

/*
 * Preemption
 */

/* Should queued @p preempt @curr, both VRQ tasks? */
static bool vrq_should_preempt(struct task_struct *p, struct task_struct *curr)
{
	if (vrq_batch(p))
		return false;
	if (vrq_batch(curr) && !task_has_idle_policy(p))
		return true;
	return vrq_before(p, vrq_level(p), curr, vrq_level(curr));
}

static void vrq_check_preempt(struct rq *rq, struct task_struct *p)
{
	struct task_struct *curr = rq->curr;

	if (!vrq_task(curr) || test_tsk_need_resched(curr))
		return;
	if (vrq_should_preempt(p, curr)) {
		resched_curr(rq);
		vrq_st(cpu_of(rq))->wake_preempt++;
	}
}

/*
 * A synchronous wakeup (WF_SYNC: pipe and socket writes, among others)
 * announces that the waker will sleep soon. Preempting it for the wakee
 * would cost two switches where one will do, and a writer would then hand
 * over the CPU once per message instead of once per batch. Unless
 * kernel.sched_sync_preempt is set, a sync wakeup on the waker's own CPU
 * leaves the waker running, when it is a VRQ task of the wakee's level or
 * better and not SCHED_BATCH; the wakee waits in the queue for the end of
 * the waker's slice at most.
 */
static bool vrq_sync_keeps_waker(struct rq *rq, struct task_struct *p,
				 int flags)
{
	struct task_struct *curr = rq->curr;

	if (!(flags & WF_SYNC) || READ_ONCE(sysctl_sync_preempt))
		return false;
	if (curr != current || !vrq_task(curr) || vrq_batch(curr))
		return false;
	return vrq_level(curr) <= vrq_level(p);
}

static void wakeup_preempt_fair(struct rq *rq, struct task_struct *p, int flags)
{
	if (vrq_sync_keeps_waker(rq, p, flags)) {
		vrq_st(cpu_of(rq))->sync_kept++;
		return;
	}
	vrq_check_preempt(rq, p);
}

#ifdef CONFIG_SMP
/*
 * Idle kicking: a busy CPU's tick looks for idle CPUs that could run a
 * queued task (one that is not, or no longer, cache hot elsewhere) and
 * reschedules them.
 */
static void vrq_kick_idle(void)
{
	struct task_struct *p;
	int cpu, n;

	lockdep_assert_held(&vrq_lock);

	for_each_cpu(cpu, cpu_active_mask) {
		struct rq *rq = cpu_rq(cpu);

		if (rq->curr != rq->idle || test_tsk_need_resched(rq->curr))
			continue;
		for (p = vrq_first(), n = 0; p && n < VRQ_KICK_SCAN;
		     p = vrq_next(p), n++) {
			if (!vrq_can_run_on(p, cpu, true))
				continue;
			if (vrq_cache_hot_elsewhere(p, cpu))
				vrq_st(cpu)->idle_take++;
			else if (p->vrq.cached_cpu >= 0 && p->vrq.cached_cpu != cpu)
				vrq_st(cpu)->timeout_expiry++;
			vrq_st(cpu)->idle_kick++;
			/*
			 * An idle CPU with nothing accounted skips the pick
			 * (__schedule()'s SM_IDLE shortcut): hand it the task.
			 */
			if (task_cpu(p) != cpu) {
				update_rq_clock(rq);
				vrq_move_task(p, rq);
			}
			resched_curr(rq);
			break;
		}
	}
}

static bool vrq_some_cpu_idle(void)
{
	int cpu;

	for_each_cpu(cpu, cpu_active_mask) {
		struct rq *rq = cpu_rq(cpu);

		if (READ_ONCE(rq->curr) == rq->idle)
			return true;
	}
	return false;
}

/* Called from every tick (sched_tick()), without the lock. */
void sched_balance_trigger(struct rq *rq)
{
	unsigned long flags;

	if (!READ_ONCE(vrq_nr_queued) || !vrq_some_cpu_idle())
		return;

	raw_spin_rq_lock_irqsave(rq, flags);
	/* sched_tick() updated this clock; RT hogs must not stop niffies. */
	vrq_update_niffies(rq);
	vrq_kick_idle();
	raw_spin_rq_unlock_irqrestore(rq, flags);
}

/*
 * CPU selection
 */

/* Locality of @b seen from @a: 0 same, 1 SMT, 2 LLC, 3 node, 4 other. */
static int vrq_locality(int a, int b)
{
	if (a == b)
		return 0;
#ifdef CONFIG_SCHED_SMT
	if (cpumask_test_cpu(b, cpu_smt_mask(a)))
		return 1;
#endif
	if (cpus_share_cache(a, b))
		return 2;
	if (cpu_to_node(a) == cpu_to_node(b))
		return 3;
	return 4;
}

static inline bool vrq_cpu_ok(struct task_struct *p, int cpu)
{
	return cpumask_test_cpu(cpu, p->cpus_ptr) && cpu_active(cpu);
}

/* Would waking @p on @cpu preempt what runs there? Racy, a hint. */
static bool vrq_cpu_preemptable(struct task_struct *p, int cpu)
{
	struct task_struct *curr = READ_ONCE(cpu_rq(cpu)->curr);

	if (!vrq_task(curr))
		return false;
	return vrq_should_preempt(p, curr);
}

static int select_task_rq_fair(struct task_struct *p, int prev_cpu,
			       int wake_flags)
{
	int cpu, loc;

	/* A new task starts cached on its parent's CPU. */
	if (wake_flags & WF_FORK) {
		cpu = smp_processor_id();
		if (vrq_cpu_ok(p, cpu))
			return cpu;
	}

	if (vrq_cpu_ok(p, prev_cpu) && available_idle_cpu(prev_cpu))
		return prev_cpu;

	for (loc = 1; loc <= 4; loc++) {
		for_each_cpu_wrap(cpu, p->cpus_ptr, prev_cpu) {
			if (vrq_locality(prev_cpu, cpu) != loc)
				continue;
			if (cpu_active(cpu) && available_idle_cpu(cpu))
				return cpu;
		}
	}

	if (!task_has_idle_policy(p) && !vrq_batch(p)) {
		/*
		 * kernel.sched_sync_affine: a sync wakeup with no idle CPU
		 * stays on the waker's CPU, where vrq_sync_keeps_waker()
		 * leaves the waker running, instead of preempting another
		 * CPU with an IPI. The wakee runs when the waker sleeps, or
		 * on whichever CPU reschedules first.
		 */
		cpu = smp_processor_id();
		if ((wake_flags & WF_SYNC) && READ_ONCE(sysctl_sync_affine) &&
		    vrq_cpu_ok(p, cpu) && vrq_task(current) &&
		    !vrq_batch(current) && vrq_level(current) <= vrq_level(p))
			return cpu;
		for (loc = 0; loc <= 4; loc++) {
			for_each_cpu_wrap(cpu, p->cpus_ptr, prev_cpu) {
				if (vrq_locality(prev_cpu, cpu) != loc)
					continue;
				if (cpu_active(cpu) &&
				    vrq_cpu_preemptable(p, cpu))
					return cpu;
			}
		}
	}

	if (vrq_cpu_ok(p, prev_cpu))
		return prev_cpu;
	cpu = cpumask_any_and_distribute(p->cpus_ptr, cpu_active_mask);
	return cpu < nr_cpu_ids ? cpu : prev_cpu;
}

static void rq_online_fair(struct rq *rq)
{
}

static void rq_offline_fair(struct rq *rq)
{
}

void nohz_balance_enter_idle(int cpu)
{
}

#ifdef CONFIG_NO_HZ_COMMON
void nohz_balance_exit_idle(struct rq *rq)
{
}

void nohz_run_idle_balance(int cpu)
{
}
#endif

void update_max_interval(void)
{
}

#ifdef CONFIG_SCHED_SMT
struct static_key_false sched_smt_present = STATIC_KEY_FALSE_INIT;
EXPORT_SYMBOL_GPL(sched_smt_present);

void __update_idle_core(struct rq *rq)
{
}
#endif

void update_group_capacity(struct sched_domain *sd, int cpu)
{
	struct sched_group *sdg = sd->groups;
	unsigned long capacity = arch_scale_cpu_capacity(cpu);

	cpu_rq(cpu)->cpu_capacity = capacity;
	sdg->sgc->capacity = capacity;
	sdg->sgc->min_capacity = capacity;
	sdg->sgc->max_capacity = capacity;
}

void init_entity_runnable_average(struct sched_entity *se)
{
}

void post_init_entity_util_avg(struct task_struct *p)
{
}

int __weak arch_asym_cpu_priority(int cpu)
{
	return -cpu;
}

#endif /* CONFIG_SMP */

#ifdef CONFIG_CGROUP_SCHED
bool cfs_task_bw_constrained(struct task_struct *p)
{
	return false;
}
#endif

/*
 * Tick, fork, yield and class changes
 */
static void task_tick_fair(struct rq *rq, struct task_struct *curr, int queued)
{
	vrq_update_curr(rq);
	vrq_promote_idle();
	vrq_iso_tick();

	if (curr->vrq.time_slice >= VRQ_TICK_RESCHED_NS)
		return;

	vrq_renew(curr);
	if (vrq_nr_queued)
		resched_curr(rq);
}

static void task_fork_fair(struct task_struct *p)
{
	struct task_struct *parent = current;
	struct rq *rq = this_rq();
	struct rq_flags rf;
	s64 half;

	rq_lock(rq, &rf);
	update_rq_clock(rq);
	vrq_update_curr(rq);

	RB_CLEAR_NODE(&p->vrq.node);
	p->vrq.on_queue = 0;
	p->vrq.flags = 0;
	p->vrq.slept = 0;
	p->vrq.slept_at = vrq_niffies;
	p->vrq.level = VRQ_LEVEL_NORMAL;

	/*
	 * The child's deadline is a fresh one for its own nice level, or the
	 * parent's if that is later. Not the parent's when earlier: a parent
	 * that mostly sleeps (make, a shell) keeps a deadline from long ago,
	 * and every child of a nice 19 build would otherwise start ahead of
	 * the nice 0 tasks until its first slice ran out.
	 */
	half = vrq_task(parent) ? parent->vrq.time_slice / 2 : 0;
	if (half >= VRQ_RESCHED_NS) {
		p->vrq.time_slice = half;
		parent->vrq.time_slice -= half;
		p->vrq.deadline = vrq_niffies + vrq_prio_offset(p);
	} else {
		vrq_refill(p);
	}
	if (vrq_task(parent) &&
	    (s64)(p->vrq.deadline - parent->vrq.deadline) < 0)
		p->vrq.deadline = parent->vrq.deadline;

	p->vrq.cached_cpu = cpu_of(rq);
	p->vrq.cached_at = vrq_niffies;
	rq_unlock(rq, &rf);
}

static void yield_task_fair(struct rq *rq)
{
	struct task_struct *curr = rq->curr;

	switch (READ_ONCE(sysctl_yield_type)) {
	case 0:
		curr->vrq.flags |= VRQ_F_KEEP;
		break;
	case 2:
		/* do_sched_yield() does not update the clock; fair.c does it here. */
		update_rq_clock(rq);
		vrq_update_curr(rq);
		rq_clock_skip_update(rq);
		vrq_refill(curr);
		break;
	default:
		/* The pick keeps curr unless a better task waits. */
		break;
	}
}

static bool yield_to_task_fair(struct rq *rq, struct task_struct *p)
{
	if (!vrq_task(p) || !task_on_rq_queued(p))
		return false;
	yield_task_fair(rq);
	return true;
}

static void prio_changed_fair(struct rq *rq, struct task_struct *p, int oldprio)
{
	if (!task_on_rq_queued(p))
		return;
	if (task_current(rq, p)) {
		if (p->prio > oldprio && vrq_nr_queued)
			resched_curr(rq);
		return;
	}
	vrq_check_preempt(rq, p);
}

static void switched_from_fair(struct rq *rq, struct task_struct *p)
{
	p->vrq.cached_cpu = -1;
}

static void switched_to_fair(struct rq *rq, struct task_struct *p)
{
	if (!task_on_rq_queued(p) || task_current(rq, p))
		return;
	vrq_check_preempt(rq, p);
}

static unsigned int get_rr_interval_fair(struct rq *rq, struct task_struct *p)
{
	return msecs_to_jiffies(READ_ONCE(sysctl_rr_interval));
}

DEFINE_SCHED_CLASS(fair) = {
	.enqueue_task		= enqueue_task_fair,
	.dequeue_task		= dequeue_task_fair,
	.yield_task		= yield_task_fair,
	.yield_to_task		= yield_to_task_fair,

	.wakeup_preempt		= wakeup_preempt_fair,

	.pick_task		= pick_task_fair,
	.put_prev_task		= put_prev_task_fair,
	.set_next_task		= set_next_task_fair,

#ifdef CONFIG_SMP
	.select_task_rq		= select_task_rq_fair,
	.rq_online		= rq_online_fair,
	.rq_offline		= rq_offline_fair,
	.set_cpus_allowed	= set_cpus_allowed_common,
#endif

	.task_tick		= task_tick_fair,
	.task_fork		= task_fork_fair,

	.prio_changed		= prio_changed_fair,
	.switched_from		= switched_from_fair,
	.switched_to		= switched_to_fair,

	.get_rr_interval	= get_rr_interval_fair,

	.update_curr		= update_curr_fair,

#ifdef CONFIG_UCLAMP_TASK
	.uclamp_enabled		= 1,
#endif
};

/*
 * Helpers the rest of the scheduler links against
 */
void init_cfs_rq(struct cfs_rq *cfs_rq)
{
	cfs_rq->tasks_timeline = RB_ROOT_CACHED;
#ifdef CONFIG_SMP
	raw_spin_lock_init(&cfs_rq->removed.lock);
#endif
}

void __init sched_init_granularity(void)
{
}

int sched_update_scaling(void)
{
	return 0;
}

#ifdef CONFIG_SCHED_DEBUG
struct sched_entity *__pick_root_entity(struct cfs_rq *cfs_rq)
{
	return NULL;
}

struct sched_entity *__pick_first_entity(struct cfs_rq *cfs_rq)
{
	return NULL;
}

struct sched_entity *__pick_last_entity(struct cfs_rq *cfs_rq)
{
	return NULL;
}

u64 avg_vruntime(struct cfs_rq *cfs_rq)
{
	return 0;
}

int entity_eligible(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	return 1;
}

void print_cfs_stats(struct seq_file *m, int cpu)
{
	print_cfs_rq(m, cpu, &cpu_rq(cpu)->cfs);
}

void vrq_proc_sched_show_task(struct task_struct *p, struct seq_file *m)
{
	u64 now = READ_ONCE(vrq_niffies);

	seq_printf(m, "%-45s:%21lld\n", "vrq.deadline_rel_ns",
		   (long long)(READ_ONCE(p->vrq.deadline) - now));
	seq_printf(m, "%-45s:%21lld\n", "vrq.time_slice_ns",
		   (long long)READ_ONCE(p->vrq.time_slice));
	seq_printf(m, "%-45s:%21d\n", "vrq.cached_cpu",
		   READ_ONCE(p->vrq.cached_cpu));
	seq_printf(m, "%-45s:%21d\n", "vrq.queued",
		   READ_ONCE(p->vrq.on_queue));
}
#endif /* CONFIG_SCHED_DEBUG */

/*
 * The automatic SCHED_NORMAL cache timeout, calibrated at boot
 *
 * rr_interval x speed x spread, kept within 1 ms..4 x rr_interval:
 *
 *   speed  = 3000 MHz / the CPU's clock, within 1/2..2. A slower CPU takes
 *	      longer over the same work, so a task's warm cache stays worth
 *	      waiting for longer. 6 ms (rr_interval) was chosen on desktops
 *	      of about 3 GHz. Without a clock figure (only x86's cpu_khz is
 *	      read) it is 1.
 *   spread = 2 / (1 + log2(online CPUs)), doubled when they do not all
 *	      share a last-level cache. What the timeout costs is CPUs that
 *	      idle while cached work waits, and more CPUs can idle; what it
 *	      saves, one task's warm private caches, does not grow with them.
 *	      A move to another LLC costs a cold LLC as well.
 *
 * Two CPUs at 3 GHz on one LLC get rr_interval, as before; four get 2/3 of
 * it. It is a heuristic, not a measurement of this machine's caches.
 */
static void __init vrq_calibrate_cache_timeout(void)
{
	unsigned int cpus = num_online_cpus(), mhz = 0, speed, spread;
	int first = cpumask_first(cpu_online_mask), cpu;
	bool shared = true;

#ifdef CONFIG_X86
	mhz = cpu_khz / 1000;
#endif
	speed = mhz ? clamp(3000U * 1024 / mhz, 512U, 2048U) : 1024;
	spread = 2048 / (1 + ilog2(max(cpus, 1U)));
	for_each_online_cpu(cpu)
		if (!cpus_share_cache(first, cpu))
			shared = false;
	if (!shared)
		spread *= 2;
	WRITE_ONCE(vrq_auto_cache_scale, speed * spread / 1024);

	pr_info("sched: VRQ: automatic SCHED_NORMAL cache timeout %lluus (rr_interval x %u/1024; %u CPUs, %s LLC, %u MHz)\n",
		vrq_auto_cache_ns() / NSEC_PER_USEC, vrq_auto_cache_scale,
		cpus, shared ? "one" : "more than one", mhz);
}

/*
 * User interfaces: sysctls and statistics
 */
static int vrq_rr_interval_handler(const struct ctl_table *table, int write,
				   void *buffer, size_t *lenp, loff_t *ppos)
{
	int ret = proc_dointvec_minmax(table, write, buffer, lenp, ppos);

	if (!ret && write)
		WRITE_ONCE(sysctl_sched_base_slice, (unsigned int)vrq_rr_ns());
	return ret;
}

static int vrq_int_min1 = -1;
static int vrq_int_max_rr = 1000;
static int vrq_int_max_yield = 2;
static int vrq_int_max_us = 10000000;

static struct ctl_table vrq_sysctls[] = {
	{
		.procname	= "rr_interval",
		.data		= &sysctl_rr_interval,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= vrq_rr_interval_handler,
		.extra1		= SYSCTL_ONE,
		.extra2		= &vrq_int_max_rr,
	},
	{
		.procname	= "yield_type",
		.data		= &sysctl_yield_type,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= &vrq_int_max_yield,
	},
	{
		.procname	= "sched_sync_preempt",
		.data		= &sysctl_sync_preempt,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
	{
		.procname	= "sched_deadline_carry",
		.data		= &sysctl_deadline_carry,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_TWO,
	},
	{
		.procname	= "sched_normal_cache_timeout_us",
		.data		= &sysctl_normal_cache_us,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= &vrq_int_min1,
		.extra2		= &vrq_int_max_us,
	},
	{
		.procname	= "sched_batch_cache_timeout_us",
		.data		= &sysctl_batch_cache_us,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= &vrq_int_max_us,
	},
	{
		.procname	= "sched_idle_cache_timeout_us",
		.data		= &sysctl_idle_cache_us,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= &vrq_int_max_us,
	},
	{
		.procname	= "sched_idle_takes_cached",
		.data		= &sysctl_idle_takes_cached,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
	{
		.procname	= "sched_sync_affine",
		.data		= &sysctl_sync_affine,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
	{
		.procname	= "iso_cpu",
		.data		= &sysctl_iso_cpu,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE_HUNDRED,
	},
	{
		.procname	= "sched_rt_to_iso",
		.data		= &sysctl_rt_to_iso,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
};

#ifdef CONFIG_SMP
/* Each online CPU's utilisation, brought up to date first. */
static void vrq_util_show(struct seq_file *m)
{
	unsigned long util, runnable, umin, umax, eff;
	struct rq_flags rf;
	int cpu;

	seq_puts(m, "# util cpu util_avg runnable_avg uclamp_min uclamp_max effective\n");
	for_each_online_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);

		rq_lock_irqsave(rq, &rf);
		update_rq_clock(rq);
		vrq_update_util(rq);
		util = cpu_util_cfs(cpu);
		runnable = READ_ONCE(rq->cfs.avg.runnable_avg);
		eff = effective_cpu_util(cpu, util, &umin, &umax);
		rq_unlock_irqrestore(rq, &rf);
		/* What schedutil asks for, before its headroom. */
		eff = max(umin, min(eff, umax));
		seq_printf(m, "util cpu%d %lu %lu %lu %lu %lu\n", cpu, util,
			   runnable, umin, umax, eff);
	}
}
#else
static void vrq_util_show(struct seq_file *m)
{
}
#endif

static unsigned int vrq_iso_usage_now(void)
{
	unsigned long flags;
	unsigned int usage;

	raw_spin_lock_irqsave(&vrq_lock, flags);
	vrq_update_niffies(this_rq());
	vrq_iso_decay();
	usage = vrq_iso_usage();
	raw_spin_unlock_irqrestore(&vrq_lock, flags);
	return usage;
}

static int vrq_stats_show(struct seq_file *m, void *v)
{
	int cpu;

	seq_puts(m, "# cpu own_cached other_after_timeout moved wakeup_preempt idle_kick cache_timeout_expiry sync_kept idle_take\n");
	for_each_possible_cpu(cpu) {
		struct vrq_stats *s = per_cpu_ptr(&vrq_stats, cpu);

		seq_printf(m, "cpu%d %lu %lu %lu %lu %lu %lu %lu %lu\n", cpu,
			   READ_ONCE(s->own_cached), READ_ONCE(s->other_timeout),
			   READ_ONCE(s->moved), READ_ONCE(s->wake_preempt),
			   READ_ONCE(s->idle_kick),
			   READ_ONCE(s->timeout_expiry), READ_ONCE(s->sync_kept),
			   READ_ONCE(s->idle_take));
	}
	seq_printf(m, "queued %u\n", READ_ONCE(vrq_nr_queued));
	vrq_util_show(m);
	seq_printf(m, "normal_cache_timeout_us %llu\nnormal_cache_timeout_auto_us %llu\n",
		   vrq_normal_cache_ns() / NSEC_PER_USEC,
		   vrq_auto_cache_ns() / NSEC_PER_USEC);
	seq_printf(m, "iso_cpu %d\niso_usage %u\niso_throttled %d\n",
		   READ_ONCE(sysctl_iso_cpu), vrq_iso_usage_now(),
		   READ_ONCE(vrq_iso_throttled));
	return 0;
}

static int vrq_stats_open(struct inode *inode, struct file *file)
{
	return single_open(file, vrq_stats_show, NULL);
}

static const struct file_operations vrq_stats_fops = {
	.open		= vrq_stats_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static int __init vrq_late_init(void)
{
	struct dentry *dir;

	vrq_calibrate_cache_timeout();
	register_sysctl_init("kernel", vrq_sysctls);
	proc_create_single("vrq_stats", 0444, NULL, vrq_stats_show);

	dir = debugfs_lookup("sched", NULL);
	if (!IS_ERR_OR_NULL(dir)) {
		debugfs_create_file("vrq", 0444, dir, NULL, &vrq_stats_fops);
		dput(dir);
	}
	return 0;
}
late_initcall_sync(vrq_late_init);

__init void init_sched_fair_class(void)
{
	int i;

	prio_ratios[0] = 128;
	for (i = 1; i < NICE_WIDTH; i++)
		prio_ratios[i] = prio_ratios[i - 1] * 11 / 10;

	sysctl_sched_base_slice = (unsigned int)vrq_rr_ns();

	pr_info("sched: VRQ CPU scheduler: rr_interval=%dms yield_type=%d sync_preempt=%d sync_affine=%d deadline_carry=%d cache timeouts normal=auto batch=%dus idle=%dus iso_cpu=%d%%\n",
		sysctl_rr_interval, sysctl_yield_type, sysctl_sync_preempt,
		sysctl_sync_affine, sysctl_deadline_carry,
		sysctl_batch_cache_us, sysctl_idle_cache_us, sysctl_iso_cpu);
}
