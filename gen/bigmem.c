/* SPDX-License-Identifier: MIT */
#include "gen/bigmem.h"

#include <stddef.h>
#include <sys/mman.h>

void *bigmem_alloc(uint64_t bytes)
{
	if (bytes == 0 || bytes > SIZE_MAX)
		return NULL;
	void *p = mmap(NULL, (size_t)bytes, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
#ifdef MADV_HUGEPAGE
	madvise(p, (size_t)bytes, MADV_HUGEPAGE);   /* a hint: refused is fine */
#endif
	return p;
}

void bigmem_free(void *p, uint64_t bytes)
{
	if (p && bytes)
		munmap(p, (size_t)bytes);
}
