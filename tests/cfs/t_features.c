// SPDX-License-Identifier: GPL-2.0
/*
 * t_features: every sched_feat bit of the cfs-*.patch series is listed in
 * /sys/kernel/debug/sched/features, flips both ways (NO_X, X) and reads back;
 * /proc/schedstat cpu lines carry the four sched-idle balancing counters.
 * With CFS_CHECK_DEFAULTS=1 (a freshly booted kernel) the bits must also be
 * at their defaults: WA_IDLE_PREV on, the others off.
 */
#include "cfs_test.h"

int main(void)
{
	struct cfs_sib_stats st;
	const char *chk = getenv("CFS_CHECK_DEFAULTS");
	int i, v, flips = 0;

	tl_init("t_features");
	cfs_require_kernel();

	for (i = 0; i < CFS_NR_FEATS; i++) {
		const char *name = cfs_feats[i].name;
		int orig = cfs_saved[i];

		if (chk && atoi(chk))
			TL_CHECK(orig == cfs_feats[i].def,
				 "%s is %s after boot, default should be %s", name,
				 orig ? "on" : "off", cfs_feats[i].def ? "on" : "off");
		if (cfs_feat_set(name, !orig)) {
			tl_fail("writing %s%s did not flip it", orig ? "NO_" : "", name);
			continue;
		}
		v = cfs_feat_get(name);
		TL_CHECK(v == !orig, "%s reads %d after flip", name, v);
		if (cfs_feat_set(name, orig))
			tl_fail("could not flip %s back", name);
		else
			flips++;
	}

	/* a name the kernel does not know must be refused */
	TL_CHECK(tl_write_file(CFS_FEATURES, "NO_SUCH_CFS_FEATURE") != 0,
		 "unknown feature name accepted");

	if (cfs_sib_stats(0, &st))
		tl_fail("/proc/schedstat cpu0 line lacks the 4 sched-idle balancing fields");

	return tl_finish("%d/%d feature bits flip both ways; schedstat has the sib fields",
			 flips, CFS_NR_FEATS);
}
