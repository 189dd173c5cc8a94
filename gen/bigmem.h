/* SPDX-License-Identifier: MIT */
/* Memory for the search's large arrays: tables of gigabytes and their
 * frontier marks, read at random. */
#ifndef SLIDEDB_GEN_BIGMEM_H
#define SLIDEDB_GEN_BIGMEM_H

#include <stdint.h>

/* bytes of zeroed memory, or NULL. Transparent huge pages are asked for
 * (Linux with THP in "madvise" mode, as Debian ships it, gives none
 * otherwise): a 4 KiB page's translation misses the TLB on nearly every
 * random read of a table of gigabytes. Physical memory is committed as it
 * is touched. Release with bigmem_free(p, bytes). */
void *bigmem_alloc(uint64_t bytes);

/* A huge page: parts given back early are best multiples of it, so that
 * no huge page is split. */
#define BIGMEM_PAGE ((uint64_t)2 << 20)

/* Gives back [p, p + bytes) of a bigmem_alloc (NULL or 0 bytes: nothing); a
 * part may be given back early, a page-aligned one. */
void bigmem_free(void *p, uint64_t bytes);

#endif
