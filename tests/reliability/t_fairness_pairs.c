// SPDX-License-Identifier: GPL-2.0
/*
 * t_fairness_pairs: two CPU hogs pinned to one CPU, nice 0 against nice 0,
 * 5, 10 and 19, share it in the ratio the scheduler's design implies,
 * within 10 % (issue 6). The expected and measured figures are printed.
 *
 * VRQ (kernel-sched/vrq.c): a task's virtual deadline is
 *	now + prio_ratio[nice + 20] * rr_interval / 128,
 *	prio_ratio[0] = 128, prio_ratio[i] = prio_ratio[i - 1] * 11 / 10
 * and its slice is rr_interval. Of two hogs A (nice a) and B (nice b > a),
 * B waits with the deadline it got when its last slice ended, D_b after
 * that moment; A keeps the CPU while its renewed deadline is not later
 * than B's, i.e. for the j-th slice while j * rr <= D_b - D_a, so A runs
 *	k = floor((D_b - D_a) / rr) + 1
 * slices per slice of B (tests/vrq/t_nice_ratio explains and simulates
 * the 0/10 case, 11). At rr_interval 6 ms: 0/0 -> 1, 0/5 -> 4 (the
 * unrounded value is 3.97, so the 0/5 pair sits next to a step: slices
 * a few us shorter than rr_interval would make it 5), 0/10 -> 11,
 * 0/19 -> 34.
 *
 * CFS/EEVDF: CPU time in proportion to sched_prio_to_weight[]: 1024 for
 * nice 0 against 1024, 335, 110, 15: 1, 3.06, 9.31, 68.3.
 *
 * Windows are longer for the unequal pairs, so that the less favoured
 * task gets a few dozen slices (0/19 on VRQ: 35-slice cycles, ~28 in 6 s).
 * CPU time is read from the threads' CPU clocks (sum_exec_runtime). The
 * hogs are tl_hog threads (tests/guest/tlib), which note stalls of the
 * whole TCG guest charged to them (see tlib.h). On VRQ, which hands out slices in deadline
 * order, the stalls are taken out of the CPU times (a stall inside a slice
 * lengthens that one slice, not the count); on CFS they are kept, because
 * EEVDF charges them and evens them out later by weight. Both are printed.
 *
 * A pair that misses the bound is measured once more and fails when the
 * second measurement misses too: with 2 and 4 vCPUs under TCG single
 * windows came out up to 9.8 % low (0/10: 9.92 against 11) while the
 * median of six boots was on the design value; a wrong deadline table
 * misses both times. Beside a host `make -j2` both windows of 0/10 came
 * out near 8.8 on VRQ: stalls under 3 ms are not seen, and one that ends
 * B's slice late lengthens it while A's run is bounded by B's deadline.
 * So a pair whose two windows both miss while stalls took more than
 * TL_STALL_SHARE_MAX of each is not judged, and the test skips if no pair
 * failed; on a quiet host a wrong table still fails.
 */
#include "rel.h"

#define MAXCPU 64

static const int nice_to_weight[40] = {
	/* -20 */ 88761, 71755, 56483, 46273, 36291,
	/* -15 */ 29154, 23254, 18705, 14949, 11916,
	/* -10 */ 9548, 7620, 6100, 4904, 3906,
	/*  -5 */ 3121, 2501, 1991, 1586, 1277,
	/*   0 */ 1024, 820, 655, 526, 423,
	/*   5 */ 335, 272, 215, 172, 137,
	/*  10 */ 110, 87, 70, 56, 45,
	/*  15 */ 36, 29, 23, 18, 15,
};

/* VRQ's deadline offset for a nice level in ns, as the kernel computes it. */
static long long vrq_offset_ns(int nice, long rr_ms)
{
	long long ratio = 128;

	for (int i = 0; i < nice + 20; i++)
		ratio = ratio * 11 / 10;
	return ratio * rr_ms * 1000000LL / 128;
}

/* Expected CPU time ratio of nice a over nice b (a <= b). */
static double expected_ratio(int vrq, long rr_ms, int a, int b, double *raw)
{
	if (vrq) {
		long long d = vrq_offset_ns(b, rr_ms) - vrq_offset_ns(a, rr_ms);
		long long rr = rr_ms * 1000000LL;

		*raw = 1.0 + (double)d / (double)rr;
		return a == b ? 1.0 : (double)(d / rr + 1);
	}
	*raw = (double)nice_to_weight[a + 20] / nice_to_weight[b + 20];
	return *raw;
}

static void start_pinned(struct tl_hog *h, int cpu, int nice)
{
	int rc = tl_hog_start(h, cpu, nice);

	if (rc)
		tl_die("hog at nice %d on CPU %d: %s", nice, cpu, tl_errname(rc));
}

/*
 * One measurement of the pair nice 0 / nice nb pinned to CPU x over
 * window seconds: prints the figures, stores the measured ratio in *got
 * and the share of the window that stalls took in *share. Returns 0 when
 * within 10 % of want, 1 when not, -1 when the nice nb hog got no CPU.
 */
static int measure_pair(int x, int nb, double window, int vrq, double want,
			double raw, double *got, double *share)
{
	struct tl_hog a, b;
	double a0, b0, a1, b1, sa0, sb0, sa1, sb1, ca, cb, sa, sb, err;

	start_pinned(&a, x, 0);
	start_pinned(&b, x, nb);
	tl_sleep(0.5);
	tl_hog_sample(&a, &a0, &sa0);
	tl_hog_sample(&b, &b0, &sb0);
	tl_sleep(window);
	tl_hog_sample(&a, &a1, &sa1);
	tl_hog_sample(&b, &b1, &sb1);
	tl_hog_stop(&a);
	tl_hog_stop(&b);
	sa = sa1 - sa0;
	sb = sb1 - sb0;
	*share = (sa + sb) / window;
	/* VRQ hands out slices: count the CPU time without stalls */
	ca = a1 - a0 - (vrq ? sa : 0);
	cb = b1 - b0 - (vrq ? sb : 0);
	if (cb <= 0) {
		tl_info("pair 0/%d: the nice %d hog got no CPU in %.1f s (nice 0: %.0f ms)",
			nb, nb, window, ca * 1e3);
		return -1;
	}
	*got = ca / cb;
	err = (*got - want) / want * 100;
	tl_info("pair 0/%-2d: expected %6.2f (%s %.2f), measured %6.2f "
		"(%+5.1f %%): nice 0 %6.1f ms, nice %d %6.1f ms in %.1f s; "
		"stalls %.0f/%.0f ms (%s)", nb, want,
		vrq ? "unrounded" : "weights", raw, *got, err, ca * 1e3, nb,
		cb * 1e3, window, sa * 1e3, sb * 1e3,
		vrq ? "taken out" : "kept: CFS charges and evens them out");
	return *got < want * 0.9 || *got > want * 1.1;
}

int main(void)
{
	static const struct { int b; double window; } pairs[] = {
		{ 0, 2.0 }, { 5, 2.0 }, { 10, 3.0 }, { 19, 6.0 },
	};
	int cpus[MAXCPU], ncpu, vrq, x, unjudged = 0;
	long rr = 0;
	char summary[512];
	size_t len = 0;

	tl_init("t_fairness_pairs");
	if (geteuid() != 0)
		tl_skip("needs root (to reset its own nice)");
	ncpu = tl_usable_cpus(cpus, MAXCPU);
	if (ncpu < 1)
		tl_die("no usable CPU");
	x = cpus[ncpu - 1];
	vrq = rel_is_vrq();
	if (vrq) {
		rr = rel_read_long("/proc/sys/kernel/rr_interval", 0);
		if (rr < 1)
			tl_die("cannot read kernel.rr_interval");
	}
	if (rel_set_sched(0, SCHED_OTHER, 0, 0))
		tl_die("cannot become SCHED_NORMAL nice 0");
	/* measure from another CPU when there is one */
	if (ncpu > 1 && tl_pin_tid(0, cpus[0]))
		tl_die("cannot pin to CPU %d", cpus[0]);
	tl_info("%s%s, pairs pinned to CPU %d of %d", vrq ? "VRQ" : "mainline",
		vrq ? "" : " (weights)", x, ncpu);
	if (vrq)
		tl_info("rr_interval %ld ms: deadline offsets nice 0 %.2f ms, "
			"5 %.2f ms, 10 %.2f ms, 19 %.2f ms", rr,
			vrq_offset_ns(0, rr) / 1e6, vrq_offset_ns(5, rr) / 1e6,
			vrq_offset_ns(10, rr) / 1e6, vrq_offset_ns(19, rr) / 1e6);

	for (unsigned int i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		int nb = pairs[i].b, rc = 1, n;
		double got = 0, want, raw, share[2] = { 0, 0 };

		want = expected_ratio(vrq, rr, 0, nb, &raw);
		/* a second measurement when the first misses: see the top */
		for (n = 0; n < 2 && rc; n++)
			rc = measure_pair(x, nb, pairs[i].window, vrq, want, raw,
					  &got, &share[n]);
		if (rc < 0) {
			tl_fail("pair 0/%d: the nice %d hog got no CPU", nb, nb);
		} else if (rc && tl_host_too_busy(share)) {
			tl_info("pair 0/%d: not judged: host stalls took %.0f %% and %.0f %% of the windows (> %.0f %%)",
				nb, share[0] * 100, share[1] * 100,
				TL_STALL_SHARE_MAX * 100);
			unjudged++;
		} else if (rc) {
			tl_fail("pair 0/%d: CPU ratio %.2f, expected %.2f +-10 %% (2 measurements)",
				nb, got, want);
		}
		len += (size_t)snprintf(summary + len, sizeof(summary) - len,
					"%s0/%d %.2f (exp %.2f)", i ? ", " : "",
					nb, got, want);
	}
	if (unjudged && !tl_failures())
		tl_skip("host too busy to judge %d of the pairs: %s", unjudged,
			summary);
	return tl_finish("%s on one CPU, measured vs expected: %s",
			 vrq ? "VRQ deadline table" : "CFS weights", summary);
}
