/* SPDX-License-Identifier: MIT */
/* Tables through the library and the engine; see tables.h. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "gen/bfs.h"
#include "kit/forge.h"
#include "kit/run.h"
#include "kit/tables.h"

void tk_build_lib(const char *path, int w, int h, const int *blanks, int nblanks)
{
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, path, SDB_CREATE), 0, "%s", sdb_error_detail());
	sdb_writer *wr;
	cr_assert_eq(sdb_writer_begin(&wr, db), 0);
	for (int i = 0; i < nblanks; i++) {
		sdb_table_info info;
		memset(&info, 0, sizeof info);
		sdb_table_name_full(info.name, sizeof info.name, w, h, blanks[i]);
		info.kind = SDB_KIND_FULL;
		info.entry_format = SDB_ENTRY_DIST6_MOVE2;
		sdb_board_goal(&info.goal, w, h, blanks[i]);
		info.states = sdb_rank_count(w, h);
		uint8_t *data;
		cr_assert_eq(sdb_writer_reserve(wr, &data, info.name, info.states), 0);
		bfs_result res;
		cr_assert_eq(bfs_full(&res, data, w, h, blanks[i], 1, NULL, NULL), 0);
		memcpy(info.counts, res.counts, sizeof info.counts);
		info.max_distance = res.max_distance;
		cr_assert_eq(sdb_writer_put_meta(wr, &info), 0);
	}
	cr_assert_eq(sdb_writer_commit(wr), 0, "%s", sdb_error_detail());
	sdb_db_close(db);
}

uint8_t *tk_table_copy(const sdb_table *t)
{
	const uint64_t total = sdb_table_bytes(sdb_table_meta(t));
	uint8_t *copy = malloc(total ? total : 1);
	cr_assert_not_null(copy);
	uint64_t at = 0;
	const int n = sdb_table_chunks(t);
	cr_assert_gt(n, 0, "%s", sdb_error_detail());
	for (int c = 0; c < n; c++) {
		uint64_t bytes;
		const uint8_t *data = sdb_table_chunk(t, c, &bytes);
		cr_assert_not_null(data, "%s", sdb_error_detail());
		cr_assert_leq(at + bytes, total);
		memcpy(copy + at, data, bytes);
		at += bytes;
	}
	cr_assert_eq(at, total, "the chunks add up to the table");
	return copy;
}

void tk_entries_to_swap(uint64_t at[2], const sdb_table_info *in, const uint8_t *data)
{
	cr_assert_eq(forge_entries_to_swap(at, in, data, in->states / 3), 0,
	             "%s: no two entries to swap", in->name);
}

void tk_rewrite_swapped(const char *path, const char *name)
{
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0, "%s", sdb_error_detail());
	const sdb_table *t = sdb_table_find(db, name);
	cr_assert_not_null(t, "%s", name);
	sdb_table_info in = *sdb_table_meta(t);
	uint8_t *copy = tk_table_copy(t);
	sdb_db_close(db);
	uint64_t at[2];
	tk_entries_to_swap(at, &in, copy);
	forge_swap(copy, &in, at);
	cr_assert_eq(sdb_db_open(&db, path, 0), 0, "%s", sdb_error_detail());
	sdb_writer *w;
	uint8_t *data;
	cr_assert_eq(sdb_writer_begin(&w, db), 0, "%s", sdb_error_detail());
	cr_assert_eq(sdb_writer_reserve(w, &data, name, sdb_table_bytes(&in)), 0, "%s",
	             sdb_error_detail());
	memcpy(data, copy, sdb_table_bytes(&in));
	cr_assert_eq(sdb_writer_put_meta(w, &in), 0, "%s", sdb_error_detail());
	cr_assert_eq(sdb_writer_commit(w), 0, "%s", sdb_error_detail());
	sdb_db_close(db);
	free(copy);
}

void tk_build_classes(char *path, size_t cap, int w, int h, const char *name)
{
	int blanks[SDB_MAX_CELLS], n = 0;
	for (int c = 0; c < w * h; c++)
		if (sdb_sym_representative(w, h, c) == c)
			blanks[n++] = c;
	tk_tmp_path(path, cap, name);
	tk_build_lib(path, w, h, blanks, n);
}

sdb_db *tk_open_classes(char *path, size_t cap, int w, int h, const char *name)
{
	char own[512];
	if (!path) {
		path = own;
		cap = sizeof own;
	}
	tk_build_classes(path, cap, w, h, name);
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0, "%s", sdb_error_detail());
	return db;
}

void tk_assert_same_tables(const char *from, const char *to, int count, const char *what)
{
	sdb_db *a, *b;
	cr_assert_eq(sdb_db_open(&a, from, SDB_RDONLY), 0, "%s: %s", what, sdb_error_detail());
	cr_assert_eq(sdb_db_open(&b, to, SDB_RDONLY), 0, "%s: %s", what, sdb_error_detail());
	cr_assert_eq(sdb_table_count(b), count < 0 ? sdb_table_count(a) : count, "%s: tables",
	             what);
	cr_assert_gt(sdb_table_count(b), 0, "%s: no tables", what);
	for (int i = 0; i < sdb_table_count(b); i++) {
		const sdb_table *tb = sdb_table_at(b, i);
		const sdb_table_info *ib = sdb_table_meta(tb);
		const sdb_table *ta = sdb_table_find(a, ib->name);
		cr_assert_not_null(ta, "%s: %s missing", what, ib->name);
		const sdb_table_info *ia = sdb_table_meta(ta);
		cr_assert_eq(ia->crc32, ib->crc32, "%s: %s", what, ib->name);
		cr_assert_eq(ia->states, ib->states, "%s: %s", what, ib->name);
		cr_assert_eq(ia->kind, ib->kind, "%s: %s", what, ib->name);
		cr_assert_eq(ia->entry_format, ib->entry_format, "%s: %s", what, ib->name);
		cr_assert_eq(ia->pattern, ib->pattern, "%s: %s", what, ib->name);
		cr_assert_eq(ia->blank_mode, ib->blank_mode, "%s: %s", what, ib->name);
		cr_assert_str_eq(ia->set, ib->set, "%s: %s", what, ib->name);
		cr_assert(sdb_board_equal(&ia->goal, &ib->goal), "%s: %s", what, ib->name);
		cr_assert_eq(ia->max_distance, ib->max_distance, "%s: %s", what, ib->name);
		cr_assert_eq(memcmp(ia->counts, ib->counts, sizeof ia->counts), 0, "%s: %s counts",
		             what, ib->name);
		uint8_t *x = tk_table_copy(ta), *y = tk_table_copy(tb);
		uint64_t k = 0;
		const uint64_t bytes = sdb_table_bytes(ib);
		while (k < bytes && x[k] == y[k])
			k++;
		cr_assert_eq(k, bytes, "%s: %s: byte %llu differs (%02x vs %02x)", what, ib->name,
		             (unsigned long long)k, x[k], y[k]);
		free(x);
		free(y);
		cr_assert_eq(sdb_table_verify(tb), 0, "%s: %s: %s", what, ib->name, sdb_error_detail());
	}
	sdb_db_close(a);
	sdb_db_close(b);
}
