// SPDX-License-Identifier: GPL-2.0
/*
 * t_hackbench: rt-tests' hackbench completes with exit 0 and reports its
 * "Time:" in process and thread mode over socketpairs and pipes
 * (-g 2 -l 100 each: 80 tasks, 80000 messages), each within a time limit.
 */
#include "tlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define LIMIT 30.0 /* seconds per run; native takes well under 1 s */

int main(void)
{
	static const struct {
		const char *name;
		const char *args[3];
	} modes[] = {
		{ "process/socket", { NULL } },
		{ "thread/socket", { "-T", NULL } },
		{ "process/pipe", { "-p", NULL } },
		{ "thread/pipe", { "-p", "-T", NULL } },
	};
	char exe[512], out[8192], summary[512] = "";
	size_t slen = 0;

	tl_init("t_hackbench");
	if (!tl_find_exe("hackbench", exe, sizeof(exe)))
		tl_die("hackbench not found in PATH or /usr/bin (install rt-tests)");

	for (unsigned m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		char *argv[10];
		int argc = 0, timed_out, status;
		double elapsed, reported = -1;
		const char *t;

		argv[argc++] = exe;
		argv[argc++] = (char *)"-g";
		argv[argc++] = (char *)"2";
		argv[argc++] = (char *)"-l";
		argv[argc++] = (char *)"100";
		for (int i = 0; modes[m].args[i]; i++)
			argv[argc++] = (char *)modes[m].args[i];
		argv[argc] = NULL;

		status = tl_run(argv, LIMIT, out, sizeof(out), &timed_out, &elapsed);
		t = strstr(out, "Time:");
		if (t)
			reported = strtod(t + 5, NULL);
		if (status == -1) {
			tl_fail("%s: could not run %s", modes[m].name, exe);
			continue;
		}
		if (timed_out)
			tl_fail("%s: hackbench still running after %.0fs, killed",
				modes[m].name, LIMIT);
		else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			tl_fail("%s: hackbench exit status %#x, output: %.300s",
				modes[m].name, status, out);
		else if (reported < 0)
			tl_fail("%s: no 'Time:' in hackbench output: %.300s",
				modes[m].name, out);
		slen += (size_t)snprintf(summary + slen, sizeof(summary) - slen,
					 "%s%s %.3fs (wall %.2fs)", m ? ", " : "",
					 modes[m].name, reported, elapsed);
	}
	return tl_finish("hackbench -g 2 -l 100: %s", summary);
}
