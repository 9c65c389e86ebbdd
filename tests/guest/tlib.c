// SPDX-License-Identifier: GPL-2.0
/* tlib: shared helpers for the VRQ guest test suite. See tlib.h. */
#include "tlib.h"

#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- reporting ---------------------------------------------------------- */
static const char *tl_name = "test";
static int tl_nfail;

void tl_init(const char *name)
{
	tl_name = name;
	setvbuf(stdout, NULL, _IOLBF, 0);
	setvbuf(stderr, NULL, _IONBF, 0);
}

int tl_failures(void)
{
	return tl_nfail;
}

static void tl_vprint(const char *tag, const char *fmt, va_list ap)
{
	char buf[1024];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	printf("%s: %s%s\n", tl_name, tag, buf);
	fflush(stdout);
}

void tl_fail(const char *fmt, ...)
{
	va_list ap;

	tl_nfail++;
	va_start(ap, fmt);
	tl_vprint("FAIL: ", fmt, ap);
	va_end(ap);
}

void tl_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tl_vprint("", fmt, ap);
	va_end(ap);
}

void tl_die(const char *fmt, ...)
{
	va_list ap;

	tl_nfail++;
	va_start(ap, fmt);
	tl_vprint("FAIL: ", fmt, ap);
	va_end(ap);
	exit(TL_EXIT_FAIL);
}

void tl_skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tl_vprint("SKIP: ", fmt, ap);
	va_end(ap);
	exit(TL_EXIT_SKIP);
}

int tl_finish(const char *fmt, ...)
{
	char tag[64];
	va_list ap;

	if (tl_nfail)
		snprintf(tag, sizeof(tag), "FAILED (%d check%s): ", tl_nfail,
			 tl_nfail == 1 ? "" : "s");
	else
		snprintf(tag, sizeof(tag), "ok: ");
	va_start(ap, fmt);
	tl_vprint(tag, fmt, ap);
	va_end(ap);
	return tl_nfail ? TL_EXIT_FAIL : TL_EXIT_PASS;
}

const char *tl_errname(int err)
{
	switch (err) {
	case 0: return "0";
	case EINVAL: return "EINVAL";
	case EPERM: return "EPERM";
	case ESRCH: return "ESRCH";
	case E2BIG: return "E2BIG";
	case EFAULT: return "EFAULT";
	case EBUSY: return "EBUSY";
	case EAGAIN: return "EAGAIN";
	case EACCES: return "EACCES";
	case ENOENT: return "ENOENT";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ECHILD: return "ECHILD";
	case ENOSYS: return "ENOSYS";
	default: {
		static __thread char b[32];
		snprintf(b, sizeof(b), "errno %d", err);
		return b;
	}
	}
}

/* ---- time --------------------------------------------------------------- */
double tl_clock_secs(clockid_t clk)
{
	struct timespec ts;

	if (clock_gettime(clk, &ts))
		return -1.0;
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

double tl_now(void)
{
	return tl_clock_secs(CLOCK_MONOTONIC);
}

double tl_thread_cputime(void)
{
	return tl_clock_secs(CLOCK_THREAD_CPUTIME_ID);
}

double tl_pthread_cputime(pthread_t t)
{
	clockid_t clk;

	if (pthread_getcpuclockid(t, &clk))
		return -1.0;
	return tl_clock_secs(clk);
}

void tl_sleep(double secs)
{
	struct timespec ts;

	if (secs <= 0)
		return;
	ts.tv_sec = (time_t)secs;
	ts.tv_nsec = (long)((secs - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* ---- tasks and /proc ---------------------------------------------------- */
pid_t tl_gettid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

long tl_read_file(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;
	int fd;

	if (size == 0)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while (len + 1 < size) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			close(fd);
			errno = e;
			return -1;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	close(fd);
	return (long)len;
}

int tl_write_file(const char *path, const char *s)
{
	size_t len = strlen(s);
	ssize_t n;
	int fd, e;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = write(fd, s, len);
	e = errno;
	close(fd);
	if (n != (ssize_t)len) {
		errno = n < 0 ? e : EIO;
		return -1;
	}
	return 0;
}

int tl_read_taskstat(pid_t tid, struct tl_taskstat *st)
{
	char path[64], buf[2048], *p, *save = NULL, *tok;
	int field;

	if (tid)
		snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	else
		snprintf(path, sizeof(path), "/proc/self/stat");
	if (tl_read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	/* comm may contain spaces and ')': fields restart after the last ')' */
	p = strrchr(buf, ')');
	if (!p)
		return -1;
	memset(st, 0, sizeof(*st));
	field = 3;
	for (tok = strtok_r(p + 2, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save), field++) {
		switch (field) {
		case 3: st->state = tok[0]; break;
		case 14: st->utime = strtoull(tok, NULL, 10); break;
		case 15: st->stime = strtoull(tok, NULL, 10); break;
		case 18: st->priority = strtol(tok, NULL, 10); break;
		case 19: st->nice = strtol(tok, NULL, 10); break;
		case 39: st->processor = atoi(tok); break;
		case 40: st->rt_priority = strtoul(tok, NULL, 10); break;
		case 41: st->policy = strtoul(tok, NULL, 10); break;
		}
	}
	return field > 41 ? 0 : -1;
}

double tl_stat_cputime(pid_t tid)
{
	struct tl_taskstat st;
	long hz = sysconf(_SC_CLK_TCK);

	if (tl_read_taskstat(tid, &st))
		return -1.0;
	return (double)(st.utime + st.stime) / (double)(hz > 0 ? hz : 100);
}

/* ---- CPUs and affinity -------------------------------------------------- */
int tl_parse_cpulist(const char *s, cpu_set_t *set)
{
	int n = 0;

	CPU_ZERO(set);
	while (*s && *s != '\n') {
		char *end;
		long a = strtol(s, &end, 10), b;

		if (end == s || a < 0)
			return -1;
		b = a;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a)
				return -1;
			s = end;
		}
		for (long c = a; c <= b && c < CPU_SETSIZE; c++) {
			CPU_SET((int)c, set);
			n++;
		}
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -1;
	}
	return n;
}

int tl_online_set(cpu_set_t *set)
{
	char buf[4096];

	if (tl_read_file("/sys/devices/system/cpu/online", buf, sizeof(buf)) < 0)
		return -1;
	return tl_parse_cpulist(buf, set);
}

int tl_usable_cpus(int *cpus, int max)
{
	cpu_set_t online, allowed;
	int n = 0;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return 0;
	if (tl_online_set(&online) < 0)
		online = allowed;
	for (int c = 0; c < CPU_SETSIZE && n < max; c++)
		if (CPU_ISSET(c, &allowed) && CPU_ISSET(c, &online))
			cpus[n++] = c;
	return n;
}

int tl_pin_tid(pid_t tid, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(tid, sizeof(set), &set);
}

int tl_pin_two(pid_t tid, int a, int b)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(a, &set);
	if (b >= 0)
		CPU_SET(b, &set);
	return sched_setaffinity(tid, sizeof(set), &set);
}

int tl_cpu_is_set(int cpu, const cpu_set_t *set)
{
	return cpu >= 0 && cpu < CPU_SETSIZE && CPU_ISSET(cpu, set);
}

const char *tl_cpulist(const cpu_set_t *set, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int c = 0; c < CPU_SETSIZE; c++) {
		int e;

		if (!CPU_ISSET(c, set))
			continue;
		for (e = c; e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set); e++)
			;
		if (len < size)
			len += (size_t)snprintf(buf + len, size - len, "%s%d",
						len ? "," : "", c);
		if (e > c && len < size)
			len += (size_t)snprintf(buf + len, size - len, "-%d", e);
		c = e;
	}
	if (!len)
		snprintf(buf, size, "(empty)");
	return buf;
}

/* ---- CPU burning -------------------------------------------------------- */
unsigned long tl_spin(unsigned long iters)
{
	volatile unsigned long x = 1;

	for (unsigned long i = 0; i < iters; i++)
		x = x * 2862933555777941757UL + 3037000493UL;
	return x;
}

void tl_burn_cpu(double secs)
{
	double end = tl_thread_cputime() + secs;

	while (tl_thread_cputime() < end)
		tl_spin(20000);
}

void tl_burn_wall(double secs)
{
	double end = tl_now() + secs;

	while (tl_now() < end)
		tl_spin(20000);
}

static void *tl_spinner_main(void *arg)
{
	struct tl_spinner *s = arg;
	unsigned long chunk = s->chunk ? s->chunk : 20000;

	s->tid = tl_gettid();
	s->setup_err = 0;
	if (s->cpu >= 0 && tl_pin_tid(0, s->cpu))
		s->setup_err = errno;
	if (!s->setup_err && s->nice &&
	    setpriority(PRIO_PROCESS, (id_t)s->tid, s->nice))
		s->setup_err = errno;
	atomic_store(&s->started, 1);
	while (!atomic_load(&s->go) && !atomic_load(&s->stop))
		sched_yield();
	while (!atomic_load_explicit(&s->stop, memory_order_relaxed)) {
		tl_spin(chunk);
		atomic_store_explicit(&s->last_cpu, sched_getcpu(),
				      memory_order_relaxed);
		atomic_fetch_add_explicit(&s->rounds, 1, memory_order_release);
	}
	return NULL;
}

int tl_start_thread(pthread_t *th, void *(*fn)(void *), void *arg,
		    atomic_int *ready)
{
	int rc = pthread_create(th, NULL, fn, arg);

	if (rc)
		return rc;
	while (!atomic_load(ready))
		tl_sleep(0.001);
	return 0;
}

int tl_spinner_start(struct tl_spinner *s, int cpu, int nice, int wait_go)
{
	int rc;

	s->cpu = cpu;
	s->nice = nice;
	atomic_store(&s->started, 0);
	atomic_store(&s->stop, 0);
	atomic_store(&s->go, wait_go ? 0 : 1);
	atomic_store(&s->rounds, 0);
	atomic_store(&s->last_cpu, -1);
	rc = tl_start_thread(&s->th, tl_spinner_main, s, &s->started);
	return rc ? rc : s->setup_err;
}

void tl_spinner_go(struct tl_spinner *s)
{
	atomic_store(&s->go, 1);
}

void tl_spinner_stop(struct tl_spinner *s)
{
	atomic_store(&s->stop, 1);
	pthread_join(s->th, NULL);
}

static void *tl_hog_main(void *arg)
{
	struct tl_hog *h = arg;
	double c, last;
	long long ns;

	h->setup_err = 0;
	if (h->cpu >= 0 && tl_pin_tid(0, h->cpu))
		h->setup_err = errno;
	else if (tl_set_policy(0, SCHED_OTHER, 0) ||
		 setpriority(PRIO_PROCESS, (id_t)tl_gettid(), h->nice))
		h->setup_err = errno;
	atomic_store(&h->ready, 1);
	if (h->setup_err)
		return NULL;
	last = tl_thread_cputime();
	while (!atomic_load_explicit(&h->stop, memory_order_relaxed)) {
		if (atomic_load_explicit(&h->pause, memory_order_relaxed)) {
			tl_sleep(0.001);
			last = tl_thread_cputime();
			continue;
		}
		tl_spin(200);
		c = tl_thread_cputime();
		ns = (long long)((c - last) * 1e9);
		if (ns > TL_STALL_NS) {
			atomic_fetch_add(&h->stall_ns, ns);
			atomic_fetch_add(&h->stalls, 1);
		}
		last = c;
	}
	return NULL;
}

int tl_hog_start(struct tl_hog *h, int cpu, int nice)
{
	int rc;

	memset(h, 0, sizeof(*h));
	h->cpu = cpu;
	h->nice = nice;
	rc = tl_start_thread(&h->th, tl_hog_main, h, &h->ready);
	if (rc)
		return rc;
	if (h->setup_err)
		pthread_join(h->th, NULL);
	return h->setup_err;
}

void tl_hog_stop(struct tl_hog *h)
{
	if (atomic_exchange(&h->stop, 1))
		return;
	pthread_join(h->th, NULL);
}

void tl_hog_sample(struct tl_hog *h, double *cpu, double *stall)
{
	*cpu = tl_pthread_cputime(h->th);
	*stall = (double)atomic_load(&h->stall_ns) / 1e9;
}

int tl_host_too_busy(const double share[2])
{
	return share[0] > TL_STALL_SHARE_MAX && share[1] > TL_STALL_SHARE_MAX;
}

/* ---- sched_setattr / sched_getattr -------------------------------------- */
int tl_sched_setattr(pid_t pid, struct tl_sched_attr *attr, unsigned int flags)
{
	return (int)syscall(SYS_sched_setattr, pid, attr, flags);
}

int tl_sched_getattr(pid_t pid, struct tl_sched_attr *attr, unsigned int size,
		     unsigned int flags)
{
	return (int)syscall(SYS_sched_getattr, pid, attr, size, flags);
}

const char *tl_policy_name(int policy)
{
	switch (policy & ~SCHED_RESET_ON_FORK) {
	case SCHED_OTHER: return "NORMAL";
	case SCHED_FIFO: return "FIFO";
	case SCHED_RR: return "RR";
	case SCHED_BATCH: return "BATCH";
	case SCHED_IDLE: return "IDLE";
	case SCHED_DEADLINE: return "DEADLINE";
	default: return "?";
	}
}

int tl_set_policy(pid_t tid, int policy, int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	return sched_setscheduler(tid, policy, &sp);
}

/* ---- busy child processes ----------------------------------------------- */
pid_t tl_spawn_hog(int policy, int nice, int cpu)
{
	pid_t pid = fork();

	if (pid == 0) {
		if (cpu >= 0 && tl_pin_tid(0, cpu))
			_exit(2);
		if (tl_set_policy(0, policy, 0))
			_exit(3);
		if (setpriority(PRIO_PROCESS, 0, nice))
			_exit(4);
		for (;;)
			tl_spin(1UL << 20);
	}
	return pid;
}

void tl_kill_wait(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}

uint64_t tl_task_runtime_ns(pid_t pid)
{
	char path[64], buf[512];
	unsigned long long v;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	if (tl_read_file(path, buf, sizeof(buf)) > 0 &&
	    sscanf(buf, "%llu", &v) == 1)
		return v;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (tl_read_file(path, buf, sizeof(buf)) > 0) {
		char *p = strrchr(buf, ')');
		unsigned long ut, st;

		if (p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
				&ut, &st) == 2)
			return (uint64_t)(ut + st) * (1000000000ull / sysconf(_SC_CLK_TCK));
	}
	return 0;
}

/* ---- running other programs --------------------------------------------- */
const char *tl_find_exe(const char *name, char *buf, size_t size)
{
	const char *path = getenv("PATH");
	char dirs[4096];
	char *save = NULL, *d;

	snprintf(dirs, sizeof(dirs), "%s:/usr/local/sbin:/usr/local/bin:"
		 "/usr/sbin:/usr/bin:/sbin:/bin", path ? path : "");
	for (d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		if (!*d)
			continue;
		snprintf(buf, size, "%s/%s", d, name);
		if (access(buf, X_OK) == 0)
			return buf;
	}
	return NULL;
}

int tl_run(char *const argv[], double timeout_s, char *out, size_t outsz,
	   int *timed_out, double *elapsed)
{
	int pfd[2], status = -1;
	size_t len = 0;
	double start = tl_now(), deadline = start + timeout_s;
	pid_t pid;

	*timed_out = 0;
	if (pipe2(pfd, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	if (pid == 0) {
		setpgid(0, 0);
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		execv(argv[0], argv);
		fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	close(pfd[1]);
	for (;;) {
		struct pollfd p = { .fd = pfd[0], .events = POLLIN };
		double left = deadline - tl_now();
		int r;

		if (left <= 0) {
			*timed_out = 1;
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			break;
		}
		r = poll(&p, 1, (int)(left * 1000) + 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			continue;
		char tmp[4096];
		ssize_t n = read(pfd[0], tmp, sizeof(tmp));
		if (n <= 0)
			break; /* EOF: child (and its children) closed the pipe */
		for (ssize_t i = 0; i < n && outsz && len + 1 < outsz; i++)
			out[len++] = tmp[i];
	}
	close(pfd[0]);
	/* The pipe may close before the child exits; wait with the deadline. */
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			status = -1;
			break;
		}
		if (tl_now() > deadline && !*timed_out) {
			*timed_out = 1;
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
		}
		tl_sleep(0.005);
	}
	if (outsz)
		out[len < outsz ? len : outsz - 1] = '\0';
	*elapsed = tl_now() - start;
	return status;
}
