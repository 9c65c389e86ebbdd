// SPDX-License-Identifier: GPL-2.0
/*
 * t_wa_idle_prev: WA_IDLE_PREV (upstream d8fcb81f1acf, on by default)
 * makes wake_affine_idle() return an idle prev_cpu. In wa_scenario.h's
 * setup prev_cpu is idle but carries a large blocked load: with the bit on
 * few wakeups are affine (<= 35 %), with it off wake_affine_weight() decides and
 * most are (counted by the wakee's nr_wakeups_affine).
 */
#include "wa_scenario.h"

int main(void)
{
	return wa_prev_test("t_wa_idle_prev", "WA_IDLE_PREV", "WA_SCHED_IDLE_PREV", 0, 0, "idle");
}
