/* SPDX-License-Identifier: MIT */
/* Catalog records: what the catalog stores for a table, as an explicit byte
 * layout of its own (little-endian, versioned), so that the public
 * sdb_table_info struct can change without changing the file format.
 *
 * File format 6 keeps version-5 records: what changed is the layout of the
 * pattern tables built under it, which their format_version says
 * (sdb_table_layout()).
 *
 * Version 5 (this one, file formats 5 and 6) is version 4 with the record's
 * version number 5 and u64 pattern instead of u32: tiles of boards up to
 * 8x8.
 *
 * Version 4 is version 3 with the record's version number 4
 * and, last, u32 crc: the CRC-32 of the table's name (the key) followed by
 * every byte of the record before it, so that a damaged byte anywhere in a
 * catalog entry is found before the entry is used.
 *
 * Version 3, after the record's own version number:
 *   u32 kind, u32 entry_format, u8 w, h, blank, cells[w*h],
 *   u64 states, u32 max_distance, u32 crc32, i64 built_at,
 *   f64 build_seconds (IEEE-754 bits), u32 threads, u32 format_version,
 *   str tool_version, str set, u32 pattern, u32 blank_mode, u32 group,
 *   u32 ngroups, u32 ncounts, u64 counts[ncounts]
 * where str is a u8 length and that many bytes. The table's name is the key.
 *
 * Version 2 (slidedb 0.1) stored a memcpy of that release's sdb_table_info on
 * x86-64; it is decoded below through a frozen copy of that layout. */
#include <stdio.h>
#include <string.h>

#include "store/record.h"
#include "store/crc.h"

enum { RECORD_VERSION = 5, RECORD_V4 = 4, RECORD_V3 = 3 };

typedef struct writer {
	uint8_t *p;   /* NULL: only count */
	size_t len;
} writer;

static void put(writer *w, const void *src, size_t n)
{
	if (w->p)
		memcpy(w->p + w->len, src, n);
	w->len += n;
}

static void put_u32(writer *w, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
	put(w, b, 4);
}

static void put_u64(writer *w, uint64_t v)
{
	put_u32(w, (uint32_t)v);
	put_u32(w, (uint32_t)(v >> 32));
}

static void put_str(writer *w, const char *s)
{
	uint8_t len = (uint8_t)strlen(s);
	put(w, &len, 1);
	put(w, s, len);
}

/* CRC-32 of the name and the record's bytes before its checksum. */
static uint32_t record_crc(const char *name, size_t name_len, const uint8_t *rec, size_t len)
{
	return sdbi_crc_more(sdbi_crc_more(sdbi_crc_start(), (const uint8_t *)name, name_len), rec,
	                    len);
}

static size_t encode(uint8_t *buf, const sdb_table_info *in)
{
	writer w = { buf, 0 };
	uint64_t seconds;
	memcpy(&seconds, &in->build_seconds, sizeof seconds);
	put_u32(&w, RECORD_VERSION);
	put_u32(&w, (uint32_t)in->kind);
	put_u32(&w, (uint32_t)in->entry_format);
	uint8_t shape[3] = { in->goal.w, in->goal.h, in->goal.blank };
	put(&w, shape, 3);
	put(&w, in->goal.cell, in->goal.n);
	put_u64(&w, in->states);
	put_u32(&w, (uint32_t)in->max_distance);
	put_u32(&w, in->crc32);
	put_u64(&w, (uint64_t)in->built_at);
	put_u64(&w, seconds);
	put_u32(&w, (uint32_t)in->threads);
	put_u32(&w, in->format_version);
	put_str(&w, in->tool_version);
	put_str(&w, in->set);
	put_u64(&w, in->pattern);
	put_u32(&w, (uint32_t)in->blank_mode);
	put_u32(&w, (uint32_t)in->group);
	put_u32(&w, (uint32_t)in->ngroups);
	int ncounts = in->max_distance >= 0 && in->max_distance < SDB_MAX_DISTANCE
	              ? in->max_distance + 1 : 0;
	put_u32(&w, (uint32_t)ncounts);
	for (int d = 0; d < ncounts; d++)
		put_u64(&w, in->counts[d]);
	put_u32(&w, buf ? record_crc(in->name, strlen(in->name), buf, w.len) : 0);
	return w.len;
}

size_t sdbi_record_size(const sdb_table_info *in)
{
	return encode(NULL, in);
}

void sdbi_record_encode(uint8_t *buf, const sdb_table_info *in)
{
	encode(buf, in);
}

typedef struct reader {
	const uint8_t *p;
	size_t len, pos;
	int bad;
} reader;

static const uint8_t *take(reader *r, size_t n)
{
	if (r->bad || r->len - r->pos < n) {
		r->bad = 1;
		return NULL;
	}
	const uint8_t *at = r->p + r->pos;
	r->pos += n;
	return at;
}

static uint32_t get_u32(reader *r)
{
	const uint8_t *b = take(r, 4);
	return b ? (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	           (uint32_t)b[3] << 24 : 0;
}

static uint64_t get_u64(reader *r)
{
	uint64_t lo = get_u32(r);
	return lo | (uint64_t)get_u32(r) << 32;
}

static void get_str(reader *r, char *dst, size_t cap)
{
	const uint8_t *len = take(r, 1);
	const uint8_t *s = len ? take(r, *len) : NULL;
	if (!s || *len >= cap) {
		r->bad = 1;
		return;
	}
	memcpy(dst, s, *len);
	dst[*len] = '\0';
}

static int decode_v3(sdb_table_info *in, reader *r, uint32_t version)
{
	if (get_u32(r) != version)
		return -1;
	in->kind = (int)get_u32(r);
	in->entry_format = (int)get_u32(r);
	const uint8_t *shape = take(r, 3);
	if (!shape || !sdb_board_size_valid(shape[0], shape[1]))
		return -1;
	const uint8_t *cells = take(r, (size_t)shape[0] * shape[1]);
	if (!cells || sdb_board_set(&in->goal, shape[0], shape[1], cells) ||
	    in->goal.blank != shape[2])
		return -1;
	in->states = get_u64(r);
	in->max_distance = (int)get_u32(r);
	in->crc32 = get_u32(r);
	in->built_at = (int64_t)get_u64(r);
	uint64_t seconds = get_u64(r);
	memcpy(&in->build_seconds, &seconds, sizeof seconds);
	in->threads = (int)get_u32(r);
	in->format_version = get_u32(r);
	get_str(r, in->tool_version, sizeof in->tool_version);
	get_str(r, in->set, sizeof in->set);
	in->pattern = version >= RECORD_VERSION ? get_u64(r) : get_u32(r);
	in->blank_mode = (int)get_u32(r);
	in->group = (int)get_u32(r);
	in->ngroups = (int)get_u32(r);
	uint32_t ncounts = get_u32(r);
	if (r->bad || ncounts > SDB_MAX_DISTANCE || in->max_distance < 0 ||
	    ncounts != (uint32_t)in->max_distance + 1)
		return -1;
	for (uint32_t d = 0; d < ncounts; d++)
		in->counts[d] = get_u64(r);
	return r->bad || r->pos != r->len ? -1 : 0;
}

/* slidedb 0.1's sdb_table_info, frozen as it was stored (x86-64 layout). */
struct info_v2 {
	char name[48];
	int kind, entry_format;
	struct { uint8_t w, h, n, blank, cell[16]; } goal;
	uint64_t states;
	int max_distance;
	uint64_t counts[128];
	uint32_t crc32;
	int64_t built_at;
	double build_seconds;
	int threads;
	char tool_version[16];
	uint32_t format_version;
	char set[48];
	uint32_t pattern;
	int blank_mode, group, ngroups;
};
_Static_assert(sizeof(struct info_v2) == 1232, "the version-2 record as slidedb 0.1 wrote it");

static int decode_v2(sdb_table_info *in, const void *buf, size_t len)
{
	struct info_v2 v;
	if (len != sizeof v)
		return -1;
	memcpy(&v, buf, sizeof v);
	if (!sdb_board_size_valid(v.goal.w, v.goal.h) || v.goal.n != v.goal.w * v.goal.h ||
	    sdb_board_set(&in->goal, v.goal.w, v.goal.h, v.goal.cell) ||
	    v.max_distance < 0 || v.max_distance >= SDB_MAX_DISTANCE)
		return -1;
	in->kind = v.kind;
	in->entry_format = v.entry_format;
	in->states = v.states;
	in->max_distance = v.max_distance;
	memcpy(in->counts, v.counts, sizeof in->counts);
	in->crc32 = v.crc32;
	in->built_at = v.built_at;
	in->build_seconds = v.build_seconds;
	in->threads = v.threads;
	memcpy(in->tool_version, v.tool_version, sizeof in->tool_version);
	in->tool_version[sizeof in->tool_version - 1] = '\0';
	in->format_version = v.format_version;
	memcpy(in->set, v.set, sizeof in->set);
	in->set[sizeof in->set - 1] = '\0';
	in->pattern = v.pattern;
	in->blank_mode = v.blank_mode;
	in->group = v.group;
	in->ngroups = v.ngroups;
	return 0;
}

int sdbi_record_decode(sdb_table_info *in, const char *name, size_t name_len, const void *buf,
                      size_t len, uint32_t file_version)
{
	memset(in, 0, sizeof *in);
	if (name_len == 0 || name_len >= sizeof in->name || memchr(name, '\0', name_len))
		return -1;
	memcpy(in->name, name, name_len);
	if (file_version == 2)
		return decode_v2(in, buf, len);
	if (file_version == RECORD_V3) {
		reader r = { buf, len, 0, 0 };
		return decode_v3(in, &r, RECORD_V3);
	}
	if (len < 4)
		return -1;
	reader tail = { buf, len, len - 4, 0 };
	if (get_u32(&tail) != record_crc(name, name_len, buf, len - 4))
		return -1;
	reader r = { buf, len - 4, 0, 0 };
	return decode_v3(in, &r, file_version == RECORD_V4 ? RECORD_V4 : RECORD_VERSION);
}

const char *sdbi_info_problem(const sdb_table_info *in)
{
	sdb_board canon;
	const sdb_board *g = &in->goal;
	if (!in->name[0] || !sdb_board_size_valid(g->w, g->h) || g->n != g->w * g->h)
		return "a board size slidedb does not model";
	if (sdb_board_goal(&canon, g->w, g->h, g->blank) || !sdb_board_equal(&canon, g) ||
	    sdb_sym_representative(g->w, g->h, g->blank) != g->blank)
		return "a goal that is not a table's canonical goal";
	if (in->max_distance < 0 || in->max_distance >= SDB_MAX_DISTANCE)
		return "a distance out of range";
	if (in->format_version < 2 || in->format_version > SDB_FORMAT_VERSION)
		return "a table of another format version";
	uint64_t total = 0;
	for (int d = 0; d <= in->max_distance; d++) {
		if (in->counts[d] > in->states)
			return "counts larger than the table";
		total += in->counts[d];
	}
	if (total > in->states || (in->states && !in->counts[in->max_distance]))
		return "counts that do not match the table";
	if (in->kind != SDB_KIND_FULL && in->kind != SDB_KIND_PATTERN && in->kind != SDB_KIND_FULL_MTM)
		return "a table of an unknown kind";
	if (sdb_kind_is_full(in->kind)) {
		char name[SDB_NAME_MAX];
		if (g->n > SDB_MAX_FULL_CELLS ||
		    (in->entry_format != SDB_ENTRY_DIST6_MOVE2 && in->entry_format != SDB_ENTRY_MOD3) ||
		    in->states != sdb_rank_count(g->w, g->h) || total != in->states)
			return "a full table of the wrong format or size";
		/* its name says its size, goal class and metric: the names that
		 * select it (rm, export) must find it, and a build must replace it */
		if (sdb_table_name_full_metric(name, sizeof name, g->w, g->h, g->blank,
		                               sdb_table_metric(in)) < 0 || strcmp(name, in->name))
			return "a full table under a name that is not its own";
		return NULL;
	}
	const uint64_t tiles = sdbi_tiles_all(g->n);
	if (in->kind != SDB_KIND_PATTERN || !in->set[0] || in->ngroups < 1 ||
	    in->ngroups > SDB_MAX_CELLS || in->group < 0 || in->group >= in->ngroups ||
	    (in->entry_format != SDB_ENTRY_DIST8 && in->entry_format != SDB_ENTRY_NIBBLE_MD) ||
	    (in->blank_mode != SDB_BLANK_REGION && in->blank_mode != SDB_BLANK_MIN) ||
	    !in->pattern || (in->pattern & ~tiles) ||
	    sdbi_popcount64(in->pattern) > SDB_MAX_PATTERN || in->ngroups > SDB_MAX_GROUPS ||
	    !in->states)
		return "a pattern table of the wrong kind, format or group";
	return NULL;
}
