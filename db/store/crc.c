/* SPDX-License-Identifier: MIT */
/* CRC-32, and the block checksums of a table's bytes as they are written:
 * what the file's "blocks" database stores for a table (a 4-byte header,
 * the block size, then the CRC-32 of each block), and the CRC-32 of the
 * whole table combined from them. */
#include <stdlib.h>
#include <string.h>
#include <isa-l/crc.h>
#include <zlib.h>

#include "store/store.h"
#include "store/crc.h"

/* ISA-L's CRC-32 is zlib's (the gzip polynomial, the same chaining), by
 * carry-less multiplication where the CPU has it, several times zlib's
 * speed; a set's check before its first answer is most of a one-off query's
 * time (tests/store/test_store.c compares the two functions' values). */
uint32_t sdbi_crc_more(uint32_t crc, const uint8_t *data, uint64_t size)
{
	return crc32_gzip_refl(crc, data, size);
}

uint32_t sdbi_crc_start(void)
{
	return (uint32_t)crc32(0L, Z_NULL, 0);
}

void sdbi_blocksum_init(sdbi_blocksum *s)
{
	memset(s, 0, sizeof *s);
	s->whole = s->cur = sdbi_crc_start();
	s->op = crc32_combine_gen(SDBI_BLOCK_SIZE);
}

void sdbi_blocksum_free(sdbi_blocksum *s)
{
	free(s->crc);
	s->crc = NULL;
}

/* Room for one more checksum. */
static int blocksum_push(sdbi_blocksum *s, uint32_t crc)
{
	if (s->nblocks == s->cap) {
		uint64_t cap = s->cap ? 2 * s->cap : 1024;
		uint8_t *grown = realloc(s->crc, 4 + 4 * cap);
		if (!grown)
			return SDB_ENOMEM;
		s->crc = grown;
		s->cap = cap;
	}
	uint8_t *p = s->crc + 4 + 4 * s->nblocks++;
	p[0] = (uint8_t)crc;
	p[1] = (uint8_t)(crc >> 8);
	p[2] = (uint8_t)(crc >> 16);
	p[3] = (uint8_t)(crc >> 24);
	return SDB_OK;
}

int sdbi_blocksum_add(sdbi_blocksum *s, const uint8_t *data, uint64_t n)
{
	while (n) {
		const uint64_t in_block = s->bytes & (SDBI_BLOCK_SIZE - 1);
		const uint64_t k = n < SDBI_BLOCK_SIZE - in_block ? n : SDBI_BLOCK_SIZE - in_block;
		s->cur = sdbi_crc_more(s->cur, data, k);
		s->bytes += k;
		data += k;
		n -= k;
		if ((s->bytes & (SDBI_BLOCK_SIZE - 1)) == 0) {   /* a whole block */
			if (blocksum_push(s, s->cur))
				return SDB_ENOMEM;
			s->whole = (uint32_t)crc32_combine_op(s->whole, s->cur, s->op);
			s->cur = sdbi_crc_start();
		}
	}
	return SDB_OK;
}

int sdbi_blocksum_finish(sdbi_blocksum *s)
{
	const uint64_t tail = s->bytes & (SDBI_BLOCK_SIZE - 1);
	if (tail) {
		if (blocksum_push(s, s->cur))
			return SDB_ENOMEM;
		s->whole = (uint32_t)crc32_combine(s->whole, s->cur, (z_off_t)tail);
	}
	if (!s->crc && blocksum_push(s, 0) == 0)   /* an empty table: the header alone */
		s->nblocks = 0;
	if (!s->crc)
		return SDB_ENOMEM;
	const uint32_t size = SDBI_BLOCK_SIZE;
	memcpy(s->crc, (uint8_t[4]){ (uint8_t)size, (uint8_t)(size >> 8), (uint8_t)(size >> 16),
	                             (uint8_t)(size >> 24) }, 4);
	return SDB_OK;
}
