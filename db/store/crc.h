/* SPDX-License-Identifier: MIT */
/* CRC-32, and the block checksums of bytes as they are written (crc.c).
 * Not installed. */
#ifndef SLIDEDB_STORE_CRC_H
#define SLIDEDB_STORE_CRC_H

#include <stdint.h>

/* CRC-32 (zlib's) of any size. */
uint32_t sdbi_crc_start(void);
uint32_t sdbi_crc_more(uint32_t crc, const uint8_t *data, uint64_t size);

/* The checksums of bytes as they are written: crc is the value stored
 * (a 4-byte header, the block size, then one CRC per block), whole the
 * CRC-32 of all the bytes. */
typedef struct sdbi_blocksum {
	uint8_t *crc;
	uint64_t nblocks, cap, bytes;
	uint32_t cur, whole;
	unsigned long op;          /* zlib's combine operator for a whole block */
} sdbi_blocksum;
void sdbi_blocksum_init(sdbi_blocksum *s);
int sdbi_blocksum_add(sdbi_blocksum *s, const uint8_t *data, uint64_t n);
int sdbi_blocksum_finish(sdbi_blocksum *s);
void sdbi_blocksum_free(sdbi_blocksum *s);

#endif
