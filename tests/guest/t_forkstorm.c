// SPDX-License-Identifier: GPL-2.0
/*
 * t_forkstorm: a fork/exit/thread storm completes in time with every child
 * reaped and every exit code right: several spawner processes run at once,
 * each forking short-lived children in waves -- plain exits, nested
 * grandchildren (3 levels), children that start and join threads, children
 * that exec /bin/true -- and a thread storm (joinable and detached
 * threads).  At the end nothing is left to reap and no thread lingers.
 */
#include "tlib.h"

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define NSPAWNER 4
#define PER_SPAWNER 200
#define WAVE 25
#define NEXEC 40
#define NTHREADS 1500
#define NDETACHED 500
#define LIMIT 60.0

static char true_exe[512];

static void *tiny_thread(void *arg)
{
	tl_spin(2000);
	return arg;
}

/* exit code of child i */
static int code_of(int s, int i)
{
	return (s * 37 + i) & 0x7f;
}

static void child(int s, int i)
{
	int code = code_of(s, i);

	switch (i % 5) {
	case 0: /* nested: child -> grandchild -> great-grandchild */
	case 1: {
		pid_t g = fork();
		int st;

		if (g == 0) {
			pid_t gg = fork();

			if (gg == 0)
				_exit(code ^ 1);
			if (gg < 0 || waitpid(gg, &st, 0) != gg || !WIFEXITED(st))
				_exit(120);
			_exit(WEXITSTATUS(st) ^ 1); /* back to code */
		}
		if (g < 0 || waitpid(g, &st, 0) != g || !WIFEXITED(st))
			_exit(121);
		_exit(WEXITSTATUS(st));
	}
	case 2: { /* threads inside a short-lived child */
		pthread_t th[4];

		for (long t = 0; t < 4; t++)
			if (pthread_create(&th[t], NULL, tiny_thread, (void *)t))
				_exit(122);
		for (long t = 0; t < 4; t++) {
			void *r;

			pthread_join(th[t], &r);
			if (r != (void *)t)
				_exit(123);
		}
		_exit(code);
	}
	case 3: /* a little work, then exit through exit() */
		tl_spin(20000);
		exit(code);
	default:
		_exit(code);
	}
}

/* One spawner: PER_SPAWNER children in waves of WAVE; returns 0 if every
 * child was reaped by pid with the right code, else a small error number. */
static int spawner(int s)
{
	pid_t pids[WAVE];
	int done = 0;

	while (done < PER_SPAWNER) {
		int n = PER_SPAWNER - done < WAVE ? PER_SPAWNER - done : WAVE;

		for (int k = 0; k < n; k++) {
			pids[k] = fork();
			if (pids[k] == 0)
				child(s, done + k);
			if (pids[k] < 0)
				return 2;
		}
		for (int k = 0; k < n; k++) {
			int st;

			if (waitpid(pids[k], &st, 0) != pids[k])
				return 3;
			if (!WIFEXITED(st) || WEXITSTATUS(st) != code_of(s, done + k))
				return 4;
		}
		done += n;
	}
	if (waitpid(-1, NULL, WNOHANG) != -1 || errno != ECHILD)
		return 5;
	return 0;
}

static int count_tasks(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

static atomic_int detached_left;

static void *detached_thread(void *arg)
{
	(void)arg;
	tl_spin(1000);
	atomic_fetch_sub(&detached_left, 1);
	return NULL;
}

int main(void)
{
	pid_t sp[NSPAWNER];
	double t0 = tl_now(), t_fork, t_exec, t_thr;
	int nexec_ok = 0, nthr_ok = 0;
	char *argv[2];

	tl_init("t_forkstorm");
	alarm((unsigned)LIMIT + 30); /* last resort: SIGALRM kills us = failure */

	/* 1. concurrent spawners */
	for (int s = 0; s < NSPAWNER; s++) {
		sp[s] = fork();
		if (sp[s] == 0)
			_exit(spawner(s));
		if (sp[s] < 0)
			tl_die("fork spawner: %s", tl_errname(errno));
	}
	for (int s = 0; s < NSPAWNER; s++) {
		int st;

		if (waitpid(sp[s], &st, 0) != sp[s])
			tl_fail("waitpid(spawner %d): %s", s, tl_errname(errno));
		else
			TL_CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0,
				 "spawner %d status %#x (2 fork failed, 3 reap failed, "
				 "4 wrong exit code, 5 unreaped children left)", s, st);
	}
	t_fork = tl_now() - t0;

	/* 2. exec */
	if (!tl_find_exe("true", true_exe, sizeof(true_exe)))
		tl_die("no 'true' executable");
	argv[0] = true_exe;
	argv[1] = NULL;
	for (int i = 0; i < NEXEC; i++) {
		pid_t p = fork();
		int st;

		if (p == 0) {
			execv(true_exe, argv);
			_exit(126);
		}
		if (p > 0 && waitpid(p, &st, 0) == p && WIFEXITED(st) &&
		    WEXITSTATUS(st) == 0)
			nexec_ok++;
	}
	TL_CHECK(nexec_ok == NEXEC, "only %d of %d exec(%s) children exited 0",
		 nexec_ok, NEXEC, true_exe);
	t_exec = tl_now() - t0 - t_fork;

	/* 3. thread storm: joinable waves, then detached ones */
	for (int done = 0; done < NTHREADS; done += WAVE) {
		pthread_t th[WAVE];

		for (long k = 0; k < WAVE; k++)
			if (pthread_create(&th[k], NULL, tiny_thread, (void *)(done + k)))
				tl_die("pthread_create: %s", tl_errname(errno));
		for (long k = 0; k < WAVE; k++) {
			void *r;

			pthread_join(th[k], &r);
			nthr_ok += r == (void *)(done + k);
		}
	}
	TL_CHECK(nthr_ok == NTHREADS, "%d of %d joined threads returned their value",
		 nthr_ok, NTHREADS);
	{
		pthread_attr_t at;
		double end;

		pthread_attr_init(&at);
		pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
		atomic_store(&detached_left, NDETACHED);
		for (int k = 0; k < NDETACHED; k++) {
			pthread_t th;

			while (pthread_create(&th, &at, detached_thread, NULL) == EAGAIN)
				tl_sleep(0.001);
		}
		pthread_attr_destroy(&at);
		end = tl_now() + 20;
		while (atomic_load(&detached_left) > 0 && tl_now() < end)
			tl_sleep(0.005);
		TL_CHECK(atomic_load(&detached_left) == 0, "%d detached threads never ran to the end",
			 atomic_load(&detached_left));
		/* detached threads are gone from /proc shortly after returning */
		end = tl_now() + 10;
		while (count_tasks() > 1 && tl_now() < end)
			tl_sleep(0.005);
		TL_CHECK(count_tasks() == 1, "%d threads still listed in /proc/self/task",
			 count_tasks());
	}
	t_thr = tl_now() - t0 - t_fork - t_exec;

	TL_CHECK(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD,
		 "children left to reap at the end");
	TL_CHECK(tl_now() - t0 < LIMIT, "storm took %.1fs, limit %.0fs", tl_now() - t0,
		 LIMIT);
	return tl_finish("%d spawners x %d children (2/5 nested 3 deep, 1/5 with 4 threads) "
			 "all reaped with right codes in %.2fs; %d/%d exec ok in %.2fs; "
			 "%d joined + %d detached threads in %.2fs",
			 NSPAWNER, PER_SPAWNER, t_fork, nexec_ok, NEXEC, t_exec, NTHREADS,
			 NDETACHED, t_thr);
}
