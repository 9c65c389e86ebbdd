// SPDX-License-Identifier: GPL-2.0
/*
 * t_bad_sched_input: the scheduler system calls given bad input fail with
 * mainline's errno, and the few odd inputs mainline accepts are accepted.
 *
 * The table below is the expected result of every call. It was validated by
 * running this test on a mainline kernel (the project's build host, Linux
 * 6.18.44, x86_64, as root: all cases pass there); the errno paths used
 * (kernel/sched/syscalls.c: sched_copy_attr, do_sched_setscheduler,
 * __sched_setscheduler's checks, __checkparam_dl, sched_getattr) are the
 * same in 6.12. VRQ replaces fair.c only, so the same table must hold on
 * the VRQ kernel; the guest runs it on CFS and on VRQ.
 *
 * Every call is a raw syscall(2). Each case runs twice: against the caller
 * (pid 0) and against a sleeping thread of this process (its tid), except
 * the cases that name their own pid. After each case the target must still
 * be SCHED_NORMAL, priority 0, nice 0, without reset-on-fork.
 *
 * tests/guest/t_policies covers a first set of bad policies/priorities/
 * sizes/DEADLINE parameters; this table adds NULL and unmapped pointers,
 * negative and huge pids, priorities of every sign and size, E2BIG at each
 * size boundary (with the size written back), the flags checks, uclamp
 * without a big enough attr, DEADLINE period limits, and the calls t_policies
 * does not touch (sched_setparam, sched_rr_get_interval,
 * sched_get_priority_min/max, sched_getattr's limits).
 */
#include "rel.h"

#include <limits.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#define BADPTR ((void *)8)      /* below mmap_min_addr: never mapped */
#define BIGPID INT_MAX          /* above any pid_max: no such task */
#define PAGE 4096
#define MS 1000000ULL

#define SCHED_FLAG_UTIL_CLAMP_MIN 0x20
#define SCHED_FLAG_SUGOV 0x10000000
#define SCHED_FLAG_RECLAIM 0x02

static int has_sched_ext, has_uclamp, kernel_attr_size;

/* ---- raw calls -------------------------------------------------------- */
static long r_setscheduler(pid_t pid, int policy, const void *param)
{
	return syscall(SYS_sched_setscheduler, pid, policy, param);
}

static long r_setsched_prio(pid_t pid, int policy, int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	return r_setscheduler(pid, policy, &sp);
}

static long r_setparam(pid_t pid, const void *param)
{
	return syscall(SYS_sched_setparam, pid, param);
}

static long r_setattr(pid_t pid, const void *attr, unsigned int flags)
{
	return syscall(SYS_sched_setattr, pid, attr, flags);
}

static long r_getattr(pid_t pid, void *attr, unsigned int size,
		      unsigned int flags)
{
	return syscall(SYS_sched_getattr, pid, attr, size, flags);
}

/* sched_setattr with a VER1 attr of the given policy/priority/flags. */
static long setattr_simple(pid_t pid, uint32_t policy, uint32_t prio,
			   uint64_t flags)
{
	struct tl_sched_attr a = {
		.size = TL_SCHED_ATTR_SIZE_VER1, .sched_policy = policy,
		.sched_priority = prio, .sched_flags = flags,
	};

	return r_setattr(pid, &a, 0);
}

static long setattr_dl(pid_t pid, uint64_t rt, uint64_t dl, uint64_t per,
		       uint32_t prio)
{
	struct tl_sched_attr a = {
		.size = TL_SCHED_ATTR_SIZE_VER1, .sched_policy = SCHED_DEADLINE,
		.sched_priority = prio, .sched_runtime = rt,
		.sched_deadline = dl, .sched_period = per,
	};

	return r_setattr(pid, &a, 0);
}

/*
 * sched_setattr with an attr of `size` bytes in a page-sized buffer whose
 * byte at `poke` (if >= 0) is non-zero; checks the size the kernel writes
 * back on E2BIG.
 */
static long setattr_sized(pid_t pid, uint32_t size, int poke)
{
	static unsigned char buf[2 * PAGE];
	struct tl_sched_attr *a = (struct tl_sched_attr *)buf;
	long rc;
	int e;

	memset(buf, 0, sizeof(buf));
	a->size = size;
	a->sched_policy = SCHED_OTHER;
	if (poke >= 0)
		buf[poke] = 0x5a;
	rc = r_setattr(pid, a, 0);
	e = errno;
	if (rc == -1 && e == E2BIG && (int)a->size != kernel_attr_size)
		tl_fail("setattr size %u: E2BIG wrote back size %u, want %d",
			size, a->size, kernel_attr_size);
	if (rc == -1 && e != E2BIG && a->size != size)
		tl_fail("setattr size %u: %s, but size rewritten to %u", size,
			tl_errname(e), a->size);
	errno = e;
	return rc;
}

/* ---- the cases ---------------------------------------------------------- */
struct bad_case {
	const char *what;
	long (*call)(pid_t target);
	long want_rc;           /* -1: must fail with want_err */
	int want_err;
	int own_pid;            /* ignores the target: run once */
};

/* One case: a function of the target pid, written on one line. */
#define C_FN(name, ...) static long name(pid_t t) { (void)t; __VA_ARGS__; }

/* sched_setscheduler */
C_FN(ss_pol_m1, return r_setsched_prio(t, -1, 0))
C_FN(ss_pol_7, return r_setsched_prio(t, 7, 0))
C_FN(ss_pol_8, return r_setsched_prio(t, 8, 0))
C_FN(ss_pol_max, return r_setsched_prio(t, INT_MAX, 0))
C_FN(ss_pol_rof9, return r_setsched_prio(t, SCHED_RESET_ON_FORK | 9, 0))
C_FN(ss_pol_rofonly, return r_setsched_prio(t, SCHED_RESET_ON_FORK | 0x1000, 0))
C_FN(ss_fifo_1000, return r_setsched_prio(t, SCHED_FIFO, 1000))
C_FN(ss_fifo_intmin, return r_setsched_prio(t, SCHED_FIFO, INT_MIN))
C_FN(ss_rr_100, return r_setsched_prio(t, SCHED_RR, 100))
C_FN(ss_rr_m99, return r_setsched_prio(t, SCHED_RR, -99))
C_FN(ss_norm_99, return r_setsched_prio(t, SCHED_OTHER, 99))
C_FN(ss_batch_m1, return r_setsched_prio(t, SCHED_BATCH, -1))
C_FN(ss_idle_50, return r_setsched_prio(t, SCHED_IDLE, 50))
C_FN(ss_deadline, return r_setsched_prio(t, SCHED_DEADLINE, 0))
C_FN(ss_null, return r_setscheduler(t, SCHED_OTHER, NULL))
C_FN(ss_badptr, return r_setscheduler(t, SCHED_OTHER, BADPTR))
C_FN(ss_pid_intmin, return r_setsched_prio(INT_MIN, SCHED_OTHER, 0))
C_FN(ss_pid_big, return r_setsched_prio(BIGPID, SCHED_OTHER, 0))
C_FN(ss_ok_batch, return r_setsched_prio(t, SCHED_BATCH | SCHED_RESET_ON_FORK, 0))
/* sched_setparam (keeps the policy: NORMAL takes only 0) */
C_FN(sp_prio1, struct sched_param sp = { 1 }; return r_setparam(t, &sp))
C_FN(sp_prio_m1, struct sched_param sp = { -1 }; return r_setparam(t, &sp))
C_FN(sp_null, return r_setparam(t, NULL))
C_FN(sp_badptr, return r_setparam(t, BADPTR))
C_FN(sp_pid_m1, struct sched_param sp = { 0 }; return r_setparam(-1, &sp))
C_FN(sp_pid_big, struct sched_param sp = { 0 }; return r_setparam(BIGPID, &sp))
C_FN(sp_ok, struct sched_param sp = { 0 }; return r_setparam(t, &sp))
/* sched_getscheduler / sched_getparam */
C_FN(gs_pid_m1, return syscall(SYS_sched_getscheduler, -1))
C_FN(gs_pid_big, return syscall(SYS_sched_getscheduler, BIGPID))
C_FN(gs_ok, return syscall(SYS_sched_getscheduler, t))
C_FN(gp_null, return syscall(SYS_sched_getparam, t, NULL))
C_FN(gp_badptr, return syscall(SYS_sched_getparam, t, BADPTR))
C_FN(gp_pid_m1, struct sched_param sp; return syscall(SYS_sched_getparam, -1, &sp))
C_FN(gp_pid_big, struct sched_param sp; return syscall(SYS_sched_getparam, BIGPID, &sp))
/* sched_setattr: pointers, pids, syscall flags */
C_FN(sa_null, return r_setattr(t, NULL, 0))
C_FN(sa_badptr, return r_setattr(t, BADPTR, 0))
C_FN(sa_pid_m1, struct tl_sched_attr a = { .size = 48 }; return r_setattr(-1, &a, 0))
C_FN(sa_pid_big, struct tl_sched_attr a = { .size = 48 }; return r_setattr(BIGPID, &a, 0))
C_FN(sa_sysflags, struct tl_sched_attr a = { .size = 48 }; return r_setattr(t, &a, 0x80000000u))
/* sched_setattr: sizes */
C_FN(sa_size_1, return setattr_sized(t, 1, -1))
C_FN(sa_size_47, return setattr_sized(t, 47, -1))
C_FN(sa_size_48, return setattr_sized(t, 48, -1))
C_FN(sa_size_49, return setattr_sized(t, 49, -1))
C_FN(sa_size_57_zero, return setattr_sized(t, 57, -1))
C_FN(sa_size_57_tail, return setattr_sized(t, 57, 56))
C_FN(sa_size_page_zero, return setattr_sized(t, PAGE, -1))
C_FN(sa_size_page_tail, return setattr_sized(t, PAGE, PAGE - 1))
C_FN(sa_size_page1, return setattr_sized(t, PAGE + 1, -1))
C_FN(sa_size_huge, return setattr_sized(t, 0xffffffffu, -1))
/* sched_setattr: policies and priorities */
C_FN(sa_pol_1000, return setattr_simple(t, 1000, 0, 0))
C_FN(sa_pol_m1, return setattr_simple(t, 0xffffffffu, 0, 0))
C_FN(sa_pol_m2, return setattr_simple(t, 0xfffffffeu, 0, 0))
C_FN(sa_pol_8, return setattr_simple(t, 8, 0, 0))
C_FN(sa_fifo_0, return setattr_simple(t, SCHED_FIFO, 0, 0))
C_FN(sa_fifo_u32max, return setattr_simple(t, SCHED_FIFO, 0xffffffffu, 0))
C_FN(sa_rr_100, return setattr_simple(t, SCHED_RR, 100, 0))
C_FN(sa_batch_5, return setattr_simple(t, SCHED_BATCH, 5, 0))
C_FN(sa_idle_1, return setattr_simple(t, SCHED_IDLE, 1, 0))
C_FN(sa_keep_policy_junk, return setattr_simple(t, 1000, 0, TL_SCHED_FLAG_KEEP_POLICY))
C_FN(sa_keep_policy_prio, return setattr_simple(t, SCHED_OTHER, 5, TL_SCHED_FLAG_KEEP_POLICY))
C_FN(sa_keep_params_fifo0, return setattr_simple(t, SCHED_FIFO, 0, TL_SCHED_FLAG_KEEP_PARAMS))
/* sched_setattr: sched_flags */
C_FN(sa_flag_0x100, return setattr_simple(t, SCHED_OTHER, 0, 0x100))
C_FN(sa_flag_sugov, return setattr_simple(t, SCHED_OTHER, 0, SCHED_FLAG_SUGOV))
C_FN(sa_flag_bit63, return setattr_simple(t, SCHED_OTHER, 0, 1ULL << 63))
C_FN(sa_flag_reclaim, return setattr_simple(t, SCHED_OTHER, 0, SCHED_FLAG_RECLAIM))
static long sa_uclamp_ver0(pid_t t)
{
	struct tl_sched_attr a = { .size = TL_SCHED_ATTR_SIZE_VER0,
				   .sched_flags = SCHED_FLAG_UTIL_CLAMP_MIN };

	return r_setattr(t, &a, 0);
}

static long sa_uclamp_2000(pid_t t)
{
	struct tl_sched_attr a = { .size = TL_SCHED_ATTR_SIZE_VER1,
				   .sched_flags = SCHED_FLAG_UTIL_CLAMP_MIN,
				   .sched_util_min = 2000 };

	return r_setattr(t, &a, 0);
}

/* sched_setattr: SCHED_DEADLINE parameters */
C_FN(sa_dl_prio1, return setattr_dl(t, 10 * MS, 30 * MS, 100 * MS, 1))
C_FN(sa_dl_rt1023, return setattr_dl(t, 1023, 30 * MS, 100 * MS, 0))
C_FN(sa_dl_dl_bit63, return setattr_dl(t, 10 * MS, (1ULL << 63) | (30 * MS), 0, 0))
C_FN(sa_dl_per_5s, return setattr_dl(t, 10 * MS, 30 * MS, 5000 * MS, 0))
C_FN(sa_dl_per_50us, return setattr_dl(t, 10000, 50000, 50000, 0))
C_FN(sa_dl_all0, return setattr_dl(t, 0, 0, 0, 0))
/* sched_getattr */
C_FN(ga_null, return r_getattr(t, NULL, 56, 0))
C_FN(ga_badptr, return r_getattr(t, BADPTR, 56, 0))
C_FN(ga_size_0, struct tl_sched_attr a; return r_getattr(t, &a, 0, 0))
C_FN(ga_size_47, struct tl_sched_attr a; return r_getattr(t, &a, 47, 0))
C_FN(ga_size_page1, static char b[2 * PAGE]; return r_getattr(t, b, PAGE + 1, 0))
C_FN(ga_flags, struct tl_sched_attr a; return r_getattr(t, &a, sizeof(a), 0xffffffffu))
C_FN(ga_pid_m1, struct tl_sched_attr a; return r_getattr(-1, &a, sizeof(a), 0))
C_FN(ga_pid_big, struct tl_sched_attr a; return r_getattr(BIGPID, &a, sizeof(a), 0))
/* sched_rr_get_interval */
C_FN(rr_pid_m1, struct timespec ts; return syscall(SYS_sched_rr_get_interval, -1, &ts))
C_FN(rr_pid_big, struct timespec ts; return syscall(SYS_sched_rr_get_interval, BIGPID, &ts))
C_FN(rr_null, return syscall(SYS_sched_rr_get_interval, t, NULL))
/* sched_get_priority_min/max */
C_FN(pmax_m1, return syscall(SYS_sched_get_priority_max, -1))
C_FN(pmin_8, return syscall(SYS_sched_get_priority_min, 8))
C_FN(pmax_fifo, return syscall(SYS_sched_get_priority_max, SCHED_FIFO))
C_FN(pmin_rr, return syscall(SYS_sched_get_priority_min, SCHED_RR))
C_FN(pmax_normal, return syscall(SYS_sched_get_priority_max, SCHED_OTHER))
C_FN(pmax_batch, return syscall(SYS_sched_get_priority_max, SCHED_BATCH))
C_FN(pmin_idle, return syscall(SYS_sched_get_priority_min, SCHED_IDLE))
C_FN(pmax_deadline, return syscall(SYS_sched_get_priority_max, SCHED_DEADLINE))

#define BAD(fn, err, what) { what, fn, -1, err, 0 }
#define BADP(fn, err, what) { what, fn, -1, err, 1 }
#define OK(fn, rc, what) { what, fn, rc, 0, 0 }
#define OKP(fn, rc, what) { what, fn, rc, 0, 1 }

/*
 * The expected results (mainline; see the header comment). Two rows depend
 * on the kernel's configuration: policy 7 is SCHED_EXT when sched_ext is
 * built in (then the row is left out), and a bad uclamp value is EINVAL
 * with CONFIG_UCLAMP_TASK, EOPNOTSUPP without (the guest and the host
 * have none).
 */
static struct bad_case cases[] = {
	BAD(ss_pol_m1, EINVAL, "sched_setscheduler policy -1"),
	BAD(ss_pol_7, EINVAL, "sched_setscheduler policy 7 (no sched_ext)"),
	BAD(ss_pol_8, EINVAL, "sched_setscheduler policy 8"),
	BAD(ss_pol_max, EINVAL, "sched_setscheduler policy INT_MAX"),
	BAD(ss_pol_rof9, EINVAL, "sched_setscheduler policy RESET_ON_FORK|9"),
	BAD(ss_pol_rofonly, EINVAL, "sched_setscheduler policy RESET_ON_FORK|0x1000"),
	BAD(ss_fifo_1000, EINVAL, "sched_setscheduler FIFO prio 1000"),
	BAD(ss_fifo_intmin, EINVAL, "sched_setscheduler FIFO prio INT_MIN"),
	BAD(ss_rr_100, EINVAL, "sched_setscheduler RR prio 100"),
	BAD(ss_rr_m99, EINVAL, "sched_setscheduler RR prio -99"),
	BAD(ss_norm_99, EINVAL, "sched_setscheduler NORMAL prio 99"),
	BAD(ss_batch_m1, EINVAL, "sched_setscheduler BATCH prio -1"),
	BAD(ss_idle_50, EINVAL, "sched_setscheduler IDLE prio 50"),
	BAD(ss_deadline, EINVAL, "sched_setscheduler DEADLINE (no parameters)"),
	BAD(ss_null, EINVAL, "sched_setscheduler param NULL"),
	BAD(ss_badptr, EFAULT, "sched_setscheduler param unmapped"),
	BADP(ss_pid_intmin, EINVAL, "sched_setscheduler pid INT_MIN"),
	BADP(ss_pid_big, ESRCH, "sched_setscheduler pid INT_MAX"),
	OK(ss_ok_batch, 0, "sched_setscheduler BATCH|RESET_ON_FORK (valid)"),

	BAD(sp_prio1, EINVAL, "sched_setparam prio 1 on NORMAL"),
	BAD(sp_prio_m1, EINVAL, "sched_setparam prio -1 on NORMAL"),
	BAD(sp_null, EINVAL, "sched_setparam param NULL"),
	BAD(sp_badptr, EFAULT, "sched_setparam param unmapped"),
	BADP(sp_pid_m1, EINVAL, "sched_setparam pid -1"),
	BADP(sp_pid_big, ESRCH, "sched_setparam pid INT_MAX"),
	OK(sp_ok, 0, "sched_setparam prio 0 on NORMAL (valid)"),

	BADP(gs_pid_m1, EINVAL, "sched_getscheduler pid -1"),
	BADP(gs_pid_big, ESRCH, "sched_getscheduler pid INT_MAX"),
	OK(gs_ok, SCHED_OTHER, "sched_getscheduler (valid) = NORMAL"),
	BAD(gp_null, EINVAL, "sched_getparam param NULL"),
	BAD(gp_badptr, EFAULT, "sched_getparam param unmapped"),
	BADP(gp_pid_m1, EINVAL, "sched_getparam pid -1"),
	BADP(gp_pid_big, ESRCH, "sched_getparam pid INT_MAX"),

	BAD(sa_null, EINVAL, "sched_setattr attr NULL"),
	BAD(sa_badptr, EFAULT, "sched_setattr attr unmapped"),
	BADP(sa_pid_m1, EINVAL, "sched_setattr pid -1"),
	BADP(sa_pid_big, ESRCH, "sched_setattr pid INT_MAX"),
	BAD(sa_sysflags, EINVAL, "sched_setattr syscall flags 0x80000000"),
	BAD(sa_size_1, E2BIG, "sched_setattr size 1"),
	BAD(sa_size_47, E2BIG, "sched_setattr size 47 (VER0 - 1)"),
	OK(sa_size_48, 0, "sched_setattr size 48 (VER0, valid)"),
	OK(sa_size_49, 0, "sched_setattr size 49 (valid)"),
	OK(sa_size_57_zero, 0, "sched_setattr size 57, zero tail (valid)"),
	BAD(sa_size_57_tail, E2BIG, "sched_setattr size 57, byte 56 set"),
	OK(sa_size_page_zero, 0, "sched_setattr size 4096, zero tail (valid)"),
	BAD(sa_size_page_tail, E2BIG, "sched_setattr size 4096, last byte set"),
	BAD(sa_size_page1, E2BIG, "sched_setattr size 4097"),
	BAD(sa_size_huge, E2BIG, "sched_setattr size 0xffffffff"),
	BAD(sa_pol_1000, EINVAL, "sched_setattr policy 1000"),
	BAD(sa_pol_m1, EINVAL, "sched_setattr policy 0xffffffff"),
	BAD(sa_pol_m2, EINVAL, "sched_setattr policy 0xfffffffe"),
	BAD(sa_pol_8, EINVAL, "sched_setattr policy 8"),
	BAD(sa_fifo_0, EINVAL, "sched_setattr FIFO prio 0"),
	BAD(sa_fifo_u32max, EINVAL, "sched_setattr FIFO prio 0xffffffff"),
	BAD(sa_rr_100, EINVAL, "sched_setattr RR prio 100"),
	BAD(sa_batch_5, EINVAL, "sched_setattr BATCH prio 5"),
	BAD(sa_idle_1, EINVAL, "sched_setattr IDLE prio 1"),
	OK(sa_keep_policy_junk, 0, "sched_setattr KEEP_POLICY ignores policy 1000 (valid)"),
	BAD(sa_keep_policy_prio, EINVAL, "sched_setattr KEEP_POLICY prio 5 on NORMAL"),
	BAD(sa_keep_params_fifo0, EINVAL, "sched_setattr KEEP_PARAMS FIFO prio 0"),
	BAD(sa_flag_0x100, EINVAL, "sched_setattr sched_flags 0x100"),
	BAD(sa_flag_sugov, EINVAL, "sched_setattr sched_flags SUGOV"),
	BAD(sa_flag_bit63, EINVAL, "sched_setattr sched_flags bit 63"),
	OK(sa_flag_reclaim, 0, "sched_setattr NORMAL with RECLAIM flag (valid)"),
	BAD(sa_uclamp_ver0, EINVAL, "sched_setattr UTIL_CLAMP_MIN with size 48"),
	BAD(sa_uclamp_2000, EOPNOTSUPP, "sched_setattr UTIL_CLAMP_MIN util_min 2000"),
	BAD(sa_dl_prio1, EINVAL, "sched_setattr DEADLINE with prio 1"),
	BAD(sa_dl_rt1023, EINVAL, "sched_setattr DEADLINE runtime 1023 ns"),
	BAD(sa_dl_dl_bit63, EINVAL, "sched_setattr DEADLINE deadline bit 63"),
	BAD(sa_dl_per_5s, EINVAL, "sched_setattr DEADLINE period 5 s (> period_max)"),
	BAD(sa_dl_per_50us, EINVAL, "sched_setattr DEADLINE period 50 us (< period_min)"),
	BAD(sa_dl_all0, EINVAL, "sched_setattr DEADLINE all zero"),

	BAD(ga_null, EINVAL, "sched_getattr attr NULL"),
	BAD(ga_badptr, EFAULT, "sched_getattr attr unmapped"),
	BAD(ga_size_0, EINVAL, "sched_getattr size 0"),
	BAD(ga_size_47, EINVAL, "sched_getattr size 47"),
	BAD(ga_size_page1, EINVAL, "sched_getattr size 4097"),
	BAD(ga_flags, EINVAL, "sched_getattr flags 0xffffffff"),
	BADP(ga_pid_m1, EINVAL, "sched_getattr pid -1"),
	BADP(ga_pid_big, ESRCH, "sched_getattr pid INT_MAX"),

	BADP(rr_pid_m1, EINVAL, "sched_rr_get_interval pid -1"),
	BADP(rr_pid_big, ESRCH, "sched_rr_get_interval pid INT_MAX"),
	BAD(rr_null, EFAULT, "sched_rr_get_interval interval NULL"),

	BADP(pmax_m1, EINVAL, "sched_get_priority_max(-1)"),
	BADP(pmin_8, EINVAL, "sched_get_priority_min(8)"),
	OKP(pmax_fifo, 99, "sched_get_priority_max(FIFO) = 99"),
	OKP(pmin_rr, 1, "sched_get_priority_min(RR) = 1"),
	OKP(pmax_normal, 0, "sched_get_priority_max(NORMAL) = 0"),
	OKP(pmax_batch, 0, "sched_get_priority_max(BATCH) = 0"),
	OKP(pmin_idle, 0, "sched_get_priority_min(IDLE) = 0"),
	OKP(pmax_deadline, 0, "sched_get_priority_max(DEADLINE) = 0"),
};

/* ---- state checks ------------------------------------------------------- */
static int back_to_normal(pid_t t)
{
	struct tl_sched_attr a = { .size = TL_SCHED_ATTR_SIZE_VER1 };

	return (int)r_setattr(t, &a, 0);
}

/* Is target t SCHED_NORMAL, priority 0, nice 0, no reset-on-fork? */
static int check_normal(pid_t t, const char *after, const char *who)
{
	struct tl_sched_attr a;
	long pol = syscall(SYS_sched_getscheduler, t);

	memset(&a, 0, sizeof(a));
	if (r_getattr(t, &a, sizeof(a), 0)) {
		tl_fail("after '%s' (%s): sched_getattr: %s", after, who,
			tl_errname(errno));
		return -1;
	}
	if (pol != SCHED_OTHER || a.sched_policy != SCHED_OTHER ||
	    a.sched_priority || a.sched_nice || a.sched_flags) {
		tl_fail("after '%s' (%s): policy %ld/%u prio %u nice %d flags %#llx, want NORMAL 0 0 0",
			after, who, pol, a.sched_policy, a.sched_priority,
			a.sched_nice, (unsigned long long)a.sched_flags);
		back_to_normal(t);
		return -1;
	}
	return 0;
}

/* A thread that only sleeps: the "other task" target. */
static sem_t sleeper_done;
static atomic_int sleeper_tid;

static void *sleeper(void *arg)
{
	(void)arg;
	atomic_store(&sleeper_tid, tl_gettid());
	while (sem_wait(&sleeper_done) && errno == EINTR)
		;
	return NULL;
}

static int run_case(const struct bad_case *c, pid_t target, const char *who)
{
	long rc;
	int err;

	errno = 0;
	rc = c->call(target);
	err = errno;
	if (c->want_rc == -1) {
		if (rc != -1 || err != c->want_err) {
			tl_fail("%s (%s): got %ld/%s, want -1/%s", c->what, who,
				rc, rc == -1 ? tl_errname(err) : "-",
				tl_errname(c->want_err));
			back_to_normal(target);
			return -1;
		}
	} else if (rc != c->want_rc) {
		tl_fail("%s (%s): got %ld/%s, want %ld", c->what, who, rc,
			rc == -1 ? tl_errname(err) : "-", c->want_rc);
		back_to_normal(target);
		return -1;
	}
	/* the valid calls set NORMAL/BATCH prio 0 nice 0: undo, then check */
	if (c->want_rc != -1 && back_to_normal(target))
		tl_fail("%s (%s): cannot go back to NORMAL: %s", c->what, who,
			tl_errname(errno));
	return check_normal(target, c->what, who);
}

int main(void)
{
	unsigned int n = sizeof(cases) / sizeof(cases[0]), ran = 0, i;
	struct tl_sched_attr big[4];
	struct stat sb;
	pthread_t th;
	pid_t other;

	tl_init("t_bad_sched_input");
	if (geteuid() != 0)
		tl_skip("needs root (the table is mainline's for a privileged caller)");
	if (back_to_normal(0))
		tl_die("cannot set SCHED_NORMAL nice 0: %s", tl_errname(errno));

	has_sched_ext = stat("/sys/kernel/sched_ext", &sb) == 0;
	has_uclamp = access("/proc/sys/kernel/sched_util_clamp_min", F_OK) == 0;
	memset(big, 0, sizeof(big));
	if (r_getattr(0, big, sizeof(big), 0))
		tl_die("sched_getattr: %s", tl_errname(errno));
	kernel_attr_size = (int)big[0].size;
	tl_info("kernel %s sched_attr size %d, sched_ext %s, uclamp %s",
		getenv("VRQ_SCHED") ? getenv("VRQ_SCHED") :
		(rel_is_vrq() ? "vrq" : "mainline"),
		kernel_attr_size, has_sched_ext ? "yes" : "no",
		has_uclamp ? "yes" : "no");

	for (i = 0; i < n; i++) {
		/* with uclamp the value is checked (EINVAL), else unsupported */
		if (cases[i].call == sa_uclamp_2000 && has_uclamp)
			cases[i].want_err = EINVAL;
	}

	sem_init(&sleeper_done, 0, 0);
	if (pthread_create(&th, NULL, sleeper, NULL))
		tl_die("pthread_create failed");
	while (!atomic_load(&sleeper_tid))
		tl_sleep(0.001);
	other = atomic_load(&sleeper_tid);
	if (back_to_normal(other))
		tl_die("cannot set the sleeper thread NORMAL: %s",
		       tl_errname(errno));

	for (i = 0; i < n; i++) {
		if (cases[i].call == ss_pol_7 && has_sched_ext)
			continue; /* switching to sched_ext is not "bad input" */
		run_case(&cases[i], 0, "self");
		ran++;
		if (!cases[i].own_pid) {
			run_case(&cases[i], other, "other thread");
			ran++;
		}
	}
	sem_post(&sleeper_done);
	pthread_join(th, NULL);
	check_normal(0, "all cases", "self");

	return tl_finish("%u table rows, %u calls (self and a sleeping thread): "
			 "errno/result as mainline, state unchanged", n, ran);
}
