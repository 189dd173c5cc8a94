/* SPDX-License-Identifier: MIT */
/* Median wall time of a program run N times, started directly (fork and
 * exec, no shell, output to /dev/null): what a user waits for one query.
 *
 *   time_exec RUNS PROGRAM [ARGS...]     prints the median in ms */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int runs = argc > 2 ? atoi(argv[1]) : 0;
	if (runs < 1 || runs > 1000) {
		fprintf(stderr, "usage: %s RUNS PROGRAM [ARGS...]\n", argv[0]);
		return 2;
	}
	double *t = malloc((size_t)runs * sizeof *t);
	for (int r = 0; r < runs; r++) {
		double t0 = now();
		pid_t pid = fork();
		if (pid == 0) {
			int null = open("/dev/null", O_WRONLY);
			dup2(null, STDOUT_FILENO);
			execv(argv[2], argv + 2);
			_exit(127);
		}
		int status;
		waitpid(pid, &status, 0);
		t[r] = now() - t0;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			fprintf(stderr, "%s: %s failed\n", argv[0], argv[2]);
			return 1;
		}
	}
	qsort(t, (size_t)runs, sizeof *t, cmp);
	printf("%.2f\n", 1e3 * t[runs / 2]);
	free(t);
	return 0;
}
