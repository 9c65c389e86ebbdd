/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tlib: shared helpers for the VRQ guest test suite (tests/guest/t_*.c).
 *
 * Every test is a standalone program: exit 0 = pass, 1 = fail, 77 = skip.
 * A test calls tl_init() first, reports problems with tl_fail()/TL_CHECK()
 * and ends with `return tl_finish("what was checked and measured");`,
 * which prints one summary line and returns the exit code.
 */
#ifndef TLIB_H
#define TLIB_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#define TL_EXIT_PASS 0
#define TL_EXIT_FAIL 1
#define TL_EXIT_SKIP 77

#define TL_PRINTF(a, b) __attribute__((format(printf, a, b)))

/* ---- reporting ---------------------------------------------------------- */
void tl_init(const char *name);
/* Record a failure: prints "<name>: FAIL: <why>" and marks the test failed. */
void tl_fail(const char *fmt, ...) TL_PRINTF(1, 2);
/* Informational detail line (kept short; the summary line is the main one). */
void tl_info(const char *fmt, ...) TL_PRINTF(1, 2);
/* Fail and exit at once (setup errors that make further checks pointless). */
void tl_die(const char *fmt, ...) TL_PRINTF(1, 2) __attribute__((noreturn));
/* Print the reason and exit 77. */
void tl_skip(const char *fmt, ...) TL_PRINTF(1, 2) __attribute__((noreturn));
/* Print the summary line ("<name>: ok: ..." or "<name>: FAILED (n): ...")
 * and return the exit code for main(). */
int tl_finish(const char *fmt, ...) TL_PRINTF(1, 2);
int tl_failures(void);

#define TL_CHECK(cond, ...)                                                    \
	do {                                                                   \
		if (!(cond))                                                   \
			tl_fail(__VA_ARGS__);                                  \
	} while (0)

/* Expect a syscall-style result: rc == -1 with errno == err. */
#define TL_EXPECT_ERRNO(rc, err, what)                                         \
	do {                                                                   \
		long tl_rc_ = (long)(rc);                                      \
		int tl_e_ = errno;                                             \
		if (tl_rc_ != -1 || tl_e_ != (err))                            \
			tl_fail("%s: expected -1/%s, got %ld/%s", (what),       \
				tl_errname(err), tl_rc_,                       \
				tl_rc_ == -1 ? tl_errname(tl_e_) : "-");        \
	} while (0)

const char *tl_errname(int err);

/* ---- time --------------------------------------------------------------- */
double tl_now(void);                    /* CLOCK_MONOTONIC, seconds */
double tl_clock_secs(clockid_t clk);
double tl_thread_cputime(void);         /* CLOCK_THREAD_CPUTIME_ID */
double tl_pthread_cputime(pthread_t t); /* another thread's CPU clock */
void tl_sleep(double secs);

/* ---- tasks and /proc ---------------------------------------------------- */
pid_t tl_gettid(void);

struct tl_taskstat {
	char state;
	unsigned long long utime, stime; /* clock ticks */
	long priority, nice;
	unsigned long rt_priority, policy;
	int processor;
};
/* Parse /proc/self/task/<tid>/stat (tid 0 = whole process /proc/self/stat). */
int tl_read_taskstat(pid_t tid, struct tl_taskstat *st);
/* utime+stime of a task (tid 0 = process) in seconds. */
double tl_stat_cputime(pid_t tid);

/* Read a whole (small) file into buf, NUL-terminated; returns length or -1. */
long tl_read_file(const char *path, char *buf, size_t size);
/* Write a string to a file; returns 0 or -1 (errno set). */
int tl_write_file(const char *path, const char *s);

/* ---- CPUs and affinity -------------------------------------------------- */
/* Parse a kernel cpulist ("0-3,5") into set; returns number of CPUs or -1. */
int tl_parse_cpulist(const char *s, cpu_set_t *set);
/* CPUs listed in /sys/devices/system/cpu/online; returns count or -1. */
int tl_online_set(cpu_set_t *set);
/* Online CPUs this process may use (affinity & online), ascending, into
 * cpus[max]; returns the count. */
int tl_usable_cpus(int *cpus, int max);
int tl_pin_tid(pid_t tid, int cpu);     /* sched_setaffinity to one CPU */
/* Allow tid (0 = the caller) on CPU a and, if b >= 0, also on CPU b. */
int tl_pin_two(pid_t tid, int a, int b);
int tl_cpu_is_set(int cpu, const cpu_set_t *set);
/* Format a cpu_set_t as a cpulist into buf. */
const char *tl_cpulist(const cpu_set_t *set, char *buf, size_t size);

/* ---- CPU burning -------------------------------------------------------- */
/* Spin doing arithmetic for about `iters` iterations; returns a value that
 * depends on the work so the compiler keeps it. */
unsigned long tl_spin(unsigned long iters);
/* Spin until the calling thread has used `secs` of CPU time. */
void tl_burn_cpu(double secs);
/* Spin for `secs` of wall-clock time. */
void tl_burn_wall(double secs);

/*
 * pthread_create(th, fn, arg), then wait (1 ms at a time) until the new
 * thread sets *ready, i.e. has done its setup. Returns 0 or an errno value.
 */
int tl_start_thread(pthread_t *th, void *(*fn)(void *), void *arg,
		    atomic_int *ready);

/*
 * A busy worker thread: loops tl_spin(chunk) and counts rounds until told to
 * stop, recording the CPU it last ran on.  cpu >= 0 pins it (set inside the
 * thread before it starts spinning), nice is applied to the thread itself.
 */
struct tl_spinner {
	pthread_t th;
	int cpu;                /* pin to this CPU, -1 = free */
	int nice;
	unsigned long chunk;    /* tl_spin iterations per round (0 = default) */
	atomic_int started;
	atomic_int stop;
	atomic_int go;          /* the spinner waits for go != 0 before spinning */
	pid_t tid;
	int setup_err;          /* errno of a failed pin/nice, 0 if fine */
	atomic_ulong rounds;
	atomic_int last_cpu;
};
/* Start a spinner; waits until the thread is set up. If wait_go is 0 it
 * starts spinning immediately, else when tl_spinner_go() is called.
 * Returns 0 or an errno value. */
int tl_spinner_start(struct tl_spinner *s, int cpu, int nice, int wait_go);
void tl_spinner_go(struct tl_spinner *s);
void tl_spinner_stop(struct tl_spinner *s); /* stop and join */

/*
 * A hog that notes stalls: a thread pinned to one CPU at a nice level that
 * spins in passes of a little work and a read of its own CPU clock, a few
 * hundred microseconds at most even in a TCG guest. A pass charged more
 * than TL_STALL_NS of CPU time was a stall of the (virtual) machine:
 * TCG has no steal time, so a host that holds the vCPU back charges that
 * time to whatever task runs. Its length goes into stall_ns, so a test can
 * take it out or see that the host was too busy to judge by. While pause
 * is set the hog sleeps 1 ms at a time.
 */
#define TL_STALL_NS 3000000LL
/* Share of a window lost to stalls above which a CPU-share ratio is
 * the host's, not the scheduler's (tests that use it say why). */
#define TL_STALL_SHARE_MAX 0.05

struct tl_hog {
	pthread_t th;
	int cpu, nice;
	atomic_int ready;
	atomic_int stop;
	atomic_int pause;
	int setup_err;
	atomic_llong stall_ns;
	atomic_ulong stalls;
};
/* Start a hog (cpu < 0: not pinned); returns 0 or an errno value. */
int tl_hog_start(struct tl_hog *h, int cpu, int nice);
void tl_hog_stop(struct tl_hog *h); /* stop and join; idempotent */
/* The hog's CPU time and the part of it that was stalls, in seconds. */
void tl_hog_sample(struct tl_hog *h, double *cpu, double *stall);
/* Did stalls take more than TL_STALL_SHARE_MAX of both of two windows? */
int tl_host_too_busy(const double share[2]);

/* ---- sched_setattr / sched_getattr (glibc 2.36 has no wrappers) ---------- */
struct tl_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
	uint32_t sched_util_min; /* SCHED_ATTR_SIZE_VER1 */
	uint32_t sched_util_max;
};
#define TL_SCHED_ATTR_SIZE_VER0 48
#define TL_SCHED_ATTR_SIZE_VER1 56

#ifndef SCHED_BATCH
#define SCHED_BATCH 3
#endif
#ifndef SCHED_IDLE
#define SCHED_IDLE 5
#endif
#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif
#ifndef SCHED_RESET_ON_FORK
#define SCHED_RESET_ON_FORK 0x40000000
#endif
#define TL_SCHED_FLAG_RESET_ON_FORK 0x01
#define TL_SCHED_FLAG_KEEP_POLICY   0x08
#define TL_SCHED_FLAG_KEEP_PARAMS   0x10
#define TL_SCHED_FLAG_ALL           0x7f

int tl_sched_setattr(pid_t pid, struct tl_sched_attr *attr, unsigned int flags);
int tl_sched_getattr(pid_t pid, struct tl_sched_attr *attr, unsigned int size,
		     unsigned int flags);
const char *tl_policy_name(int policy);

/* sched_setscheduler(tid, policy, {prio}); 0 or -1 (errno set). */
int tl_set_policy(pid_t tid, int policy, int prio);

/* ---- busy child processes ----------------------------------------------- */
/*
 * Fork a child that pins itself to cpu (< 0: any), takes policy (priority 0)
 * and nice, then spins until killed. A child whose setup fails exits at
 * once with 2 (pin), 3 (policy) or 4 (nice). Returns its pid, -1 if fork
 * failed.
 */
pid_t tl_spawn_hog(int policy, int nice, int cpu);
/* SIGKILL and reap a child (nothing for pid <= 0). */
void tl_kill_wait(pid_t pid);
/* CPU time of any task in ns: /proc/PID/schedstat, else utime+stime of
 * /proc/PID/stat (tick resolution); 0 if neither can be read. */
uint64_t tl_task_runtime_ns(pid_t pid);

/* ---- running other programs --------------------------------------------- */
/* Find an executable in $PATH and the usual sbin/bin dirs; NULL if absent. */
const char *tl_find_exe(const char *name, char *buf, size_t size);
/*
 * Run argv with stdout+stderr captured into out (NUL-terminated, truncated),
 * killing it after timeout_s.  Returns the wait status, or -1 on a setup
 * error; *timed_out is set when it had to be killed; *elapsed gets the
 * wall time.
 */
int tl_run(char *const argv[], double timeout_s, char *out, size_t outsz,
	   int *timed_out, double *elapsed);

#endif /* TLIB_H */
