/* SPDX-License-Identifier: MIT */
/* Work over a table on threads (threads.c). Not installed. */
#ifndef SLIDEDB_STORE_THREADS_H
#define SLIDEDB_STORE_THREADS_H

#include <stddef.h>
#include <stdint.h>

/* The cores this process may run on (its affinity: taskset, mpirun's
 * binding), at most SDBI_MAX_THREADS. */
enum { SDBI_MAX_THREADS = 16 };
int sdbi_usable_cores(void);

/* Threads for work over `bytes` of a table in `parts` that can go apart: the
 * usable cores but `leave` (one at least), at most one per 16 MiB
 * (the tuning's verify_bytes: tests on small tables), at most one a part. */
int sdbi_threads_for(uint64_t bytes, uint64_t parts, int leave);

/* fn on each of n (<= SDBI_MAX_THREADS) arguments of `size` bytes at args,
 * on threads of their own but the first (the calling thread's); returns
 * when every one is done. */
void sdbi_on_threads(int n, void *(*fn)(void *), void *args, size_t size);

#endif
