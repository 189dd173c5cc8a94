/* SPDX-License-Identifier: MIT */
/* Forged tables and exports: see forge.h. */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "kit/forge.h"

/* Entry i of a table's bytes as stored: a byte, two bits or a nibble. */
static unsigned entry_bits(const uint8_t *data, const sdb_table_info *in, uint64_t i)
{
	switch (in->entry_format) {
	case SDB_ENTRY_MOD3: return sdb_mod3(data, i);
	case SDB_ENTRY_NIBBLE_MD: return sdb_nibble(data, i);
	default: return data[i];
	}
}

static void set_entry_bits(uint8_t *data, const sdb_table_info *in, uint64_t i, unsigned v)
{
	const int mod3 = in->entry_format == SDB_ENTRY_MOD3;
	if (!mod3 && in->entry_format != SDB_ENTRY_NIBBLE_MD) {
		data[i] = (uint8_t)v;
		return;
	}
	const int bits = mod3 ? 2 : 4, shift = (int)(i % (uint64_t)(8 / bits)) * bits;
	uint8_t *b = &data[i / (uint64_t)(8 / bits)];
	*b = (uint8_t)((*b & ~(((1u << bits) - 1) << shift)) | v << shift);
}

int forge_entries_to_swap(uint64_t at[2], const sdb_table_info *in, const uint8_t *data,
                          uint64_t from)
{
	sdb_pattern *p = NULL;
	if (in->entry_format == SDB_ENTRY_NIBBLE_MD && sdb_pattern_of_table(&p, in))
		return -1;
	for (uint64_t i = from; i < in->states; i++)
		for (uint64_t j = i + 1; j < in->states && j < i + 4000; j++)
			if (entry_bits(data, in, i) != entry_bits(data, in, j) &&
			    (!p || sdb_pattern_manhattan(p, i) == sdb_pattern_manhattan(p, j))) {
				at[0] = i;
				at[1] = j;
				sdb_pattern_free(p);
				return 0;
			}
	sdb_pattern_free(p);
	return -1;
}

void forge_swap(uint8_t *data, const sdb_table_info *in, const uint64_t at[2])
{
	const unsigned a = entry_bits(data, in, at[0]), b = entry_bits(data, in, at[1]);
	set_entry_bits(data, in, at[0], b);
	set_entry_bits(data, in, at[1], a);
}

char *forge_gunzip(const char *path, size_t *len)
{
	gzFile z = gzopen(path, "rb");
	if (!z)
		return NULL;
	size_t cap = 1 << 20, n = 0;
	char *buf = malloc(cap);
	int got;
	while (buf && (got = gzread(z, buf + n, (unsigned)(cap - n))) > 0) {
		n += (size_t)got;
		if (n == cap) {
			char *more = realloc(buf, cap *= 2);
			if (!more)
				free(buf);
			buf = more;
		}
	}
	gzclose(z);
	*len = n;
	return buf;
}

int forge_gzip(const char *path, const char *text, size_t len)
{
	gzFile z = gzopen(path, "wb6");
	if (!z)
		return -1;
	const int wrote = gzwrite(z, text, (unsigned)len) == (int)len;
	return gzclose(z) == Z_OK && wrote ? 0 : -1;
}

void forge_reseal_meta(char *text, char *inside)
{
	char *block = inside;
	while (block > text && strncmp(block, "table\n", 6))
		block--;
	char *crc_line = strstr(inside, "meta_crc ");
	char hex[9];
	snprintf(hex, sizeof hex, "%08lx", crc32(crc32(0L, Z_NULL, 0), (const Bytef *)block,
	                                         (uInt)(crc_line - block)));
	memcpy(crc_line + 9, hex, 8);
}

int forge_export(char *text, size_t len, const sdb_table_info *in, const uint64_t at[2])
{
	char head[SDB_NAME_MAX + 16];
	snprintf(head, sizeof head, "table\nname %s\n", in->name);
	char *block = memmem(text, len, head, strlen(head));
	char *crc = block ? strstr(block, "\ncrc32 ") : NULL;
	char *data = crc ? strstr(crc, "\ndata ") : NULL;
	if (!data)
		return -1;
	const uint64_t bytes = strtoull(data + 6, NULL, 10);
	uint8_t *entries = (uint8_t *)strchr(data + 1, '\n') + 1;
	forge_swap(entries, in, at);
	char hex[9];
	snprintf(hex, sizeof hex, "%08lx", crc32(crc32(0L, Z_NULL, 0), entries, (uInt)bytes));
	memcpy(crc + 7, hex, 8);
	forge_reseal_meta(text, crc);
	return 0;
}
