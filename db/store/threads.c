/* SPDX-License-Identifier: MIT */
/* Work over a table on threads: the cores this process may use, how many
 * threads a share of a table is worth, and running them. */
#define _GNU_SOURCE   /* sched_getaffinity, CPU_COUNT */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "store/store.h"
#include "store/threads.h"

enum { PER_THREAD = 16 << 20 };   /* bytes a thread is worth starting for */

int sdbi_usable_cores(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set))
		return 1;
	const int n = CPU_COUNT(&set);
	return n < 1 ? 1 : n > SDBI_MAX_THREADS ? SDBI_MAX_THREADS : n;
}

int sdbi_threads_for(uint64_t bytes, uint64_t parts, int leave)
{
	const uint64_t tuned = sdbi_tuning()->verify_bytes;
	const uint64_t per_thread = tuned ? tuned : PER_THREAD;
	int threads = sdbi_usable_cores() - leave > 1 ? sdbi_usable_cores() - leave : 1;
	if ((uint64_t)threads > bytes / per_thread)
		threads = bytes / per_thread > 1 ? (int)(bytes / per_thread) : 1;
	if ((uint64_t)threads > parts)
		threads = parts ? (int)parts : 1;
	return threads;
}

void sdbi_on_threads(int n, void *(*fn)(void *), void *args, size_t size)
{
	pthread_t id[SDBI_MAX_THREADS];
	int started[SDBI_MAX_THREADS] = { 0 };
	char *arg = args;
	/* the calling thread takes the first; one that cannot start is run here too */
	for (int i = 1; i < n; i++)
		started[i] = !pthread_create(&id[i], NULL, fn, arg + (size_t)i * size);
	for (int i = 0; i < n; i++)
		if (!started[i])
			fn(arg + (size_t)i * size);
	for (int i = 1; i < n; i++)
		if (started[i])
			pthread_join(id[i], NULL);
}
