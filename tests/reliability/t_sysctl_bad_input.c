// SPDX-License-Identifier: GPL-2.0
/*
 * t_sysctl_bad_input: every VRQ sysctl rejects malformed input with EINVAL
 * and keeps its value. VRQ only (exit 77 elsewhere).
 *
 * The knobs, ranges and defaults are kernel-sched/vrq.c's vrq_sysctls[]
 * (all proc_dointvec_minmax, one int each):
 *
 *	kernel.rr_interval                      1..1000     default 6
 *	kernel.yield_type                       0..2        default 2
 *	kernel.sched_sync_preempt               0..1        default 0
 *	kernel.sched_deadline_carry             0..2        default 2
 *	kernel.sched_normal_cache_timeout_us   -1..10^7     default -1
 *	kernel.sched_batch_cache_timeout_us     0..10^7     default 10^6
 *	kernel.sched_idle_cache_timeout_us      0..10^7     default 10^6
 *	kernel.sched_idle_takes_cached          0..1        default 0
 *	kernel.sched_sync_affine                0..1        default 1
 *
 * tests/vrq/t_sysctl already writes lo-1 and hi+1 (EINVAL) and lo and hi
 * (accepted). This test covers the rest: values far outside the range and
 * at the int limits, negatives, numbers that overflow int and long, text,
 * trailing garbage, signs and decimals, a lone newline; a zero-byte write
 * (accepted by proc_dointvec as a no-op: it must change nothing); a valid
 * value written the way echo(1) and sysctl(8) write it (trailing newline,
 * leading blanks), read back and restored; and that an unprivileged user
 * cannot open the files for writing. Before the bad writes each knob is set
 * to a valid non-default value, so "unchanged" cannot be met by a write
 * that happens to store the default. The original values are restored on
 * every exit path (atexit and SIGTERM/SIGINT/SIGHUP).
 *
 * `t_sysctl_bad_input --ref` runs the same input list against a mainline
 * proc_dointvec_minmax sysctl (vm.swappiness, 0..200) on a non-VRQ kernel,
 * to check the expected errnos against mainline's parser; it passed on the
 * build host (Linux 6.18.44).
 */
#include "rel.h"

#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <signal.h>
#include <sys/wait.h>

struct knob {
	const char *name;       /* under /proc/sys/ */
	long lo, hi;
	long saved;
	int have_saved;
};

static struct knob vrq_knobs[] = {
	{ .name = "kernel/rr_interval", .lo = 1, .hi = 1000 },
	{ .name = "kernel/yield_type", .lo = 0, .hi = 2 },
	{ .name = "kernel/sched_sync_preempt", .lo = 0, .hi = 1 },
	{ .name = "kernel/sched_deadline_carry", .lo = 0, .hi = 2 },
	{ .name = "kernel/sched_normal_cache_timeout_us", .lo = -1, .hi = 10000000 },
	{ .name = "kernel/sched_batch_cache_timeout_us", .lo = 0, .hi = 10000000 },
	{ .name = "kernel/sched_idle_cache_timeout_us", .lo = 0, .hi = 10000000 },
	{ .name = "kernel/sched_idle_takes_cached", .lo = 0, .hi = 1 },
	{ .name = "kernel/sched_sync_affine", .lo = 0, .hi = 1 },
};

static struct knob ref_knobs[] = {
	{ .name = "vm/swappiness", .lo = 0, .hi = 200 },
};

static struct knob *knobs;
static unsigned int nknobs;

/* Inputs that must fail with EINVAL whatever the range. */
static const char *const bad_any[] = {
	"abc", "x1", "1x", "12abc", "1.5", "0.", "1e3", "+1", "--1", "-",
	"- 1", "\n", "   \n", "\t", "2147483648", "-2147483649",
	"4294967296", "9223372036854775807", "9223372036854775808",
	"99999999999999999999999", "-99999999999999999999999",
	"18446744073709551616", "0000000000000000000000001",
};

static char path_buf[256];

static const char *kpath(const struct knob *k)
{
	snprintf(path_buf, sizeof(path_buf), "/proc/sys/%s", k->name);
	return path_buf;
}

/* Read a knob: 0 and *v, or -1. */
static int kread(const struct knob *k, long *v)
{
	char buf[64], *end;

	if (tl_read_file(kpath(k), buf, sizeof(buf)) <= 0)
		return -1;
	errno = 0;
	*v = strtol(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n'))
		return -1;
	return 0;
}

/* write(2) len bytes of s at offset 0 in one call; returns its result. */
static long kwrite(const struct knob *k, const char *s, size_t len, int *err)
{
	int fd = open(kpath(k), O_WRONLY | O_CLOEXEC);
	long n;

	*err = 0;
	if (fd < 0) {
		*err = errno;
		return -1;
	}
	n = (long)write(fd, s, len);
	if (n < 0)
		*err = errno;
	close(fd);
	return n;
}

static void restore_all(void)
{
	char v[32];
	int err;

	for (unsigned int i = 0; i < nknobs; i++) {
		if (!knobs[i].have_saved)
			continue;
		snprintf(v, sizeof(v), "%ld", knobs[i].saved);
		kwrite(&knobs[i], v, strlen(v), &err);
	}
}

static void on_signal(int sig)
{
	restore_all();
	signal(sig, SIG_DFL);
	raise(sig);
}

static int nwrites;

/* A write that must fail with EINVAL and leave the value at want. */
static void expect_einval(struct knob *k, const char *s, size_t len, long want)
{
	long n, v;
	int err;

	nwrites++;
	n = kwrite(k, s, len, &err);
	if (n != -1 || err != EINVAL)
		tl_fail("%s <- \"%.*s\": write returned %ld/%s, want -1/EINVAL",
			k->name, (int)strcspn(s, "\n"), s, n,
			n == -1 ? tl_errname(err) : "-");
	if (kread(k, &v))
		tl_fail("%s: cannot read back", k->name);
	else if (v != want)
		tl_fail("%s <- \"%.*s\": value changed %ld -> %ld", k->name,
			(int)strcspn(s, "\n"), s, want, v);
}

/* A write that must succeed in full and store want. */
static void expect_value(struct knob *k, const char *s, long want)
{
	size_t len = strlen(s);
	long n, v = 0;
	int err;

	nwrites++;
	n = kwrite(k, s, len, &err);
	if (n != (long)len)
		tl_fail("%s <- \"%.*s\": write returned %ld/%s, want %zu",
			k->name, (int)strcspn(s, "\n"), s, n,
			n == -1 ? tl_errname(err) : "-", len);
	if (kread(k, &v) || v != want)
		tl_fail("%s <- \"%.*s\": reads back %ld, want %ld", k->name,
			(int)strcspn(s, "\n"), s, v, want);
}

static void test_knob(struct knob *k)
{
	char s[64], far[3][32];
	long mark, v;
	int err;

	/* a valid value that is not the current one */
	mark = k->saved == k->lo + 1 ? k->lo + 2 : k->lo + 1;
	if (mark > k->hi)	/* a 0..1 knob that is 1 */
		mark = k->lo;
	snprintf(s, sizeof(s), "%ld", mark);
	expect_value(k, s, mark);

	for (unsigned int i = 0; i < sizeof(bad_any) / sizeof(bad_any[0]); i++)
		expect_einval(k, bad_any[i], strlen(bad_any[i]), mark);
	/* far outside the range, and the int limits */
	snprintf(far[0], sizeof(far[0]), "%ld", k->lo - 1000);
	snprintf(far[1], sizeof(far[1]), "%ld", k->hi * 10);
	snprintf(far[2], sizeof(far[2]), "%ld\n", k->hi + 1000);
	for (int i = 0; i < 3; i++)
		expect_einval(k, far[i], strlen(far[i]), mark);
	if (k->hi < INT_MAX)
		expect_einval(k, "2147483647", 10, mark);
	if (k->lo > INT_MIN)
		expect_einval(k, "-2147483648", 11, mark);
	if (k->lo > -1000000)
		expect_einval(k, "-1000000", 8, mark);
	/* an embedded NUL ends the number early: "5\0" + junk is not a number */
	expect_einval(k, "\0" "5", 2, mark);

	/* zero bytes: proc_dointvec accepts it as a no-op */
	nwrites++;
	if (kwrite(k, "", 0, &err) != 0)
		tl_fail("%s <- zero bytes: %s, want 0 (no-op)", k->name,
			tl_errname(err));
	if (kread(k, &v) || v != mark)
		tl_fail("%s <- zero bytes: value now %ld, want %ld", k->name, v,
			mark);

	/* valid input as echo and sysctl -w write it */
	snprintf(s, sizeof(s), "%ld\n", (k->lo + k->hi) / 2);
	expect_value(k, s, (k->lo + k->hi) / 2);
	snprintf(s, sizeof(s), "  %ld", k->hi - 1);
	expect_value(k, s, k->hi - 1);
	snprintf(s, sizeof(s), "%ld", k->saved);
	expect_value(k, s, k->saved);
}

/* An unprivileged user may read but not open the knobs for writing. */
static void test_unprivileged(void)
{
	int pfd[2], status;
	char msg[512] = "";
	pid_t pid;

	if (pipe(pfd))
		tl_die("pipe: %s", tl_errname(errno));
	pid = fork();
	if (pid < 0)
		tl_die("fork: %s", tl_errname(errno));
	if (pid == 0) {
		char out[512] = "";
		size_t len = 0;

		close(pfd[0]);
		if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
			_exit(3);
		for (unsigned int i = 0; i < nknobs; i++) {
			long v;
			int fd = open(kpath(&knobs[i]), O_WRONLY);

			if (fd >= 0 || errno != EACCES)
				len += (size_t)snprintf(out + len, sizeof(out) - len,
					"%s: open for write by uid 65534 gave %s; ",
					knobs[i].name, fd >= 0 ? "success" :
					tl_errname(errno));
			if (kread(&knobs[i], &v))
				len += (size_t)snprintf(out + len, sizeof(out) - len,
					"%s: not readable by uid 65534; ",
					knobs[i].name);
			if (len >= sizeof(out))
				break;
		}
		if (write(pfd[1], out, strlen(out)) < 0)
			_exit(4);
		_exit(out[0] ? 1 : 0);
	}
	close(pfd[1]);
	if (read(pfd[0], msg, sizeof(msg) - 1) < 0)
		msg[0] = '\0';
	close(pfd[0]);
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status) == 3)
		tl_fail("unprivileged child could not drop to uid 65534 (status %#x)",
			status);
	else if (WEXITSTATUS(status))
		tl_fail("unprivileged: %s", msg);
}

int main(int argc, char **argv)
{
	int ref = argc > 1 && !strcmp(argv[1], "--ref");

	tl_init("t_sysctl_bad_input");
	if (geteuid() != 0)
		tl_skip("needs root");
	if (ref) {
		if (rel_is_vrq())
			tl_skip("--ref is for a mainline kernel");
		knobs = ref_knobs;
		nknobs = sizeof(ref_knobs) / sizeof(ref_knobs[0]);
	} else {
		if (!rel_is_vrq())
			tl_skip("not a VRQ kernel (no kernel.rr_interval)");
		knobs = vrq_knobs;
		nknobs = sizeof(vrq_knobs) / sizeof(vrq_knobs[0]);
	}

	for (unsigned int i = 0; i < nknobs; i++) {
		if (kread(&knobs[i], &knobs[i].saved))
			tl_die("cannot read /proc/sys/%s", knobs[i].name);
		if (knobs[i].saved < knobs[i].lo || knobs[i].saved > knobs[i].hi)
			tl_fail("%s = %ld is outside %ld..%ld", knobs[i].name,
				knobs[i].saved, knobs[i].lo, knobs[i].hi);
		knobs[i].have_saved = 1;
	}
	atexit(restore_all);
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	signal(SIGHUP, on_signal);

	for (unsigned int i = 0; i < nknobs; i++)
		test_knob(&knobs[i]);
	test_unprivileged();

	for (unsigned int i = 0; i < nknobs; i++) {
		long v;

		if (kread(&knobs[i], &v) || v != knobs[i].saved)
			tl_fail("%s not restored: %ld, was %ld", knobs[i].name, v,
				knobs[i].saved);
	}
	return tl_finish("%u sysctl%s x %d writes (%zu malformed inputs, far/int-limit "
			 "values, zero-byte, echo-style valid): EINVAL and value kept, "
			 "valid ones stored and restored; uid 65534 cannot write",
			 nknobs, nknobs == 1 ? "" : "s", nwrites / (int)nknobs,
			 sizeof(bad_any) / sizeof(bad_any[0]));
}
