// SPDX-License-Identifier: GPL-2.0
/*
 * t_wa_sched_idle_prev: WA_SCHED_IDLE_PREV (default off) makes
 * wake_affine_idle() also return a prev_cpu that runs only SCHED_IDLE
 * tasks. wa_scenario.h's setup with a SCHED_IDLE spinner on prev_cpu: with
 * the bit off, most wakeups are affine (wake_affine_weight() sees the
 * blocked load); with it on, almost none.
 */
#include "wa_scenario.h"

int main(void)
{
	return wa_prev_test("t_wa_sched_idle_prev", "WA_SCHED_IDLE_PREV", "WA_IDLE_PREV", 1, 1, "sched-idle");
}
