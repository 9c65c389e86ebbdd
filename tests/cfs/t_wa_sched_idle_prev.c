// SPDX-License-Identifier: GPL-2.0
/*
 * t_wa_sched_idle_prev: WA_SCHED_IDLE_PREV (default off) makes
 * wake_affine_idle() also return a prev_cpu that runs only SCHED_IDLE
 * tasks. wa_scenario.h's setup with a SCHED_IDLE spinner on prev_cpu: with
 * the bit off, most wakeups are affine (wake_affine_weight() sees the
 * blocked load); with it on, almost none.
 */
#include "wa_scenario.h"

#define ROUNDS 20
#define REPS 2

int main(void)
{
	struct wa_result r;
	long long aff[2] = { 0, 0 }, att[2] = { 0, 0 };
	int onb[2] = { 0, 0 }, n = ROUNDS * REPS, rep, on;
	double ron, roff;

	tl_init("t_wa_sched_idle_prev");
	cfs_require_kernel();
	if (cfs_schedstats_on())
		tl_skip("schedstats unavailable (needs CONFIG_SCHEDSTATS)");
	wa_pick_cpus();
	cfs_set_or_die("WA_IDLE", 1);
	cfs_set_or_die("WA_WEIGHT", 1);
	cfs_set_or_die("WA_IDLE_PREV", 1);

	for (rep = 0; rep < REPS; rep++) {
		for (on = 1; on >= 0; on--) {
			cfs_set_or_die("WA_SCHED_IDLE_PREV", on);
			wa_run(ROUNDS, 1, &r);
			aff[on] += r.affine;
			att[on] += r.attempts;
			onb[on] += r.woke_on_b;
		}
	}
	if (att[0] < n / 2 || att[1] < n / 2)
		tl_skip("wake_affine() consulted in %lld and %lld of %d wakeups: no SD_WAKE_AFFINE domain spans CPUs %d,%d",
			att[1], att[0], n, wa_a, wa_b);

	/* share of the wake_affine() decisions that picked the waker's CPU */
	ron = (double)aff[1] / att[1];
	roff = (double)aff[0] / att[0];
	TL_CHECK(ron <= 0.35, "WA_SCHED_IDLE_PREV on: %.0f%% of wakeups affine (want <= 35%%)", 100 * ron);
	TL_CHECK(roff >= 0.5 && roff - ron >= 0.3,
		 "NO_WA_SCHED_IDLE_PREV: %.0f%% of wakeups affine (want >= 50%% and 30 points above the %.0f%% with it)",
		 100 * roff, 100 * ron);

	return tl_finish("affine wakeups to sched-idle prev CPU %d: %.0f%% with WA_SCHED_IDLE_PREV, %.0f%% without (%lld/%lld decisions of %d wakeups; woke on waker CPU %d: %d vs %d)",
			 wa_a, 100 * ron, 100 * roff, att[1], att[0], n, wa_b, onb[1], onb[0]);
}
