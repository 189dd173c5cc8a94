/* SPDX-License-Identifier: MIT */
/* The memory budget: bytes held by all requests together, against
 * --max-memory. Every request body counts as it is allocated, as does an
 * answer held whole beyond HOLD_FREE; a lock-free count, taken and given
 * back by every request thread. */
#include "serve/server.h"

int memory_take(server *sv, size_t *mine, size_t n)
{
	size_t held = __atomic_load_n(&sv->held, __ATOMIC_RELAXED);
	do {
		if (held + n > sv->opts.max_memory || held + n < held)
			return 0;
	} while (!__atomic_compare_exchange_n(&sv->held, &held, held + n, 1, __ATOMIC_RELAXED,
	                                      __ATOMIC_RELAXED));
	*mine += n;
	return 1;
}

void memory_give(server *sv, size_t *mine)
{
	__atomic_fetch_sub(&sv->held, *mine, __ATOMIC_RELAXED);
	*mine = 0;
}
