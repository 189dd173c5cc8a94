/* SPDX-License-Identifier: MIT */
/* libFuzzer target: a database file from anywhere, opened, read and written
 * to: the catalog, every table's check, answers, and a writer's transaction.
 * A damaged file must be an error, never a crash or a hang (db/store/pages.c
 * checks LMDB's pages before LMDB reads them).
 *
 * The mutator knows LMDB's layout (db/store/pages.c says it): most mutations land
 * on the fields a damaged page would carry wrong (page numbers, flags,
 * bounds, node offsets, key and data sizes, database records in the meta
 * pages), where a byte flip anywhere in a mostly-zero page would rarely hit
 * one; the rest are libFuzzer's own. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "slidedb_engine.h"

static char path[128], lock[160];

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

enum { PAGE = 4096, HEADER = 16, NODE = 8 };

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

/* A value a damaged field could hold: near the old one, a boundary, or any. */
static uint64_t damaged(uint64_t old, unsigned r)
{
	static const uint64_t edges[] = { 0, 1, 2, 3, 0xff, 0x100, 0xfff, 0x1000, 0x7fff, 0xffff,
		                          0x10000, 0xffffffffu, UINT64_MAX };
	switch (r % 4) {
	case 0: return old + (r >> 2) % 5 - 2;
	case 1: return edges[(r >> 2) % (sizeof edges / sizeof *edges)];
	case 2: return old ^ (1ull << ((r >> 2) % 64));
	default: return ((uint64_t)r << 32) ^ r * 0x9e3779b97f4a7c15u;
	}
}

static void put(uint8_t *p, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get(const uint8_t *p, int bytes)
{
	uint64_t v = 0;
	for (int i = 0; i < bytes; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* A field of one page: where, and how wide. */
static void pick_field(const uint8_t *pg, size_t pgno, unsigned r, size_t *at, int *width)
{
	if (pgno < 2) {   /* meta: a database record, the last page or the txnid */
		static const uint8_t fields[][2] = { { 40, 4 }, { 44, 2 }, { 46, 2 }, { 72, 8 },
			{ 80, 8 }, { 92, 2 }, { 94, 2 }, { 120, 8 }, { 128, 8 }, { 136, 8 },
			{ 144, 8 } };
		const int f = (int)(r % (sizeof fields / sizeof *fields));
		*at = fields[f][0];
		*width = fields[f][1];
		return;
	}
	const unsigned lower = get16(pg + 12), n = lower >= HEADER && lower < PAGE
	                                           ? (lower - HEADER) / 2 : 0;
	switch (r % 4) {
	case 0: {   /* the header: page number, flags, lower, upper */
		static const uint8_t h[][2] = { { 0, 8 }, { 10, 2 }, { 12, 2 }, { 14, 2 } };
		*at = h[(r >> 2) % 4][0];
		*width = h[(r >> 2) % 4][1];
		return;
	}
	case 1:     /* a node offset */
		*at = HEADER + 2 * (n ? (r >> 2) % n : 0);
		*width = 2;
		return;
	default: {  /* a node's sizes, flags, child, or its first key byte */
		const unsigned node = n ? get16(pg + HEADER + 2 * ((r >> 2) % n)) : HEADER;
		static const uint8_t f[][2] = { { 0, 2 }, { 2, 2 }, { 4, 2 }, { 6, 2 }, { 8, 1 } };
		const int k = (int)((r >> 8) % 5);
		*at = node < PAGE - 16 ? node + f[k][0] : HEADER;
		*width = f[k][1];
	}
	}
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned seed)
{
	unsigned r = seed * 2654435761u + 1;
	if (size < 2 * PAGE || r % 8 == 0)
		return LLVMFuzzerMutate(data, size, max_size);
	/* pages with a header: the metas, and branch or leaf pages */
	const size_t npages = size / PAGE;
	for (int tries = 0; tries < 16; tries++) {
		r = r * 1103515245u + 12345u;
		const size_t pgno = r % npages;
		uint8_t *pg = data + pgno * PAGE;
		const unsigned flags = get16(pg + 10);
		if (pgno >= 2 && flags != 1 && flags != 2 && flags != 4)
			continue;
		size_t at;
		int width;
		r = r * 1103515245u + 12345u;
		pick_field(pg, pgno, r, &at, &width);
		if (at + (size_t)width > PAGE)
			continue;
		r = r * 1103515245u + 12345u;
		put(pg + at, damaged(get(pg + at, width), r), width);
		return size;
	}
	return LLVMFuzzerMutate(data, size, max_size);
}

/* One file per fuzzing process, removed when it ends. */
static void remove_files(void)
{
	unlink(path);
	unlink(lock);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!path[0]) {
		snprintf(path, sizeof path, "/tmp/slidedb-fuzz-open-%d.lmdb", (int)getpid());
		snprintf(lock, sizeof lock, "%s-lock", path);
		atexit(remove_files);
	}
	unlink(lock);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
	sdb_db *db;
	if (sdb_db_open(&db, path, SDB_RDONLY) != SDB_OK)
		return 0;
	for (int i = 0; i < sdb_table_count(db); i++) {
		const sdb_table *t = sdb_table_at(db, i);
		const sdb_table_info *in = sdb_table_meta(t);
		uint64_t counts[SDB_MAX_DISTANCE];
		if (sdb_table_verify(t) == SDB_OK && sdb_table_data(t))
			sdb_table_recount(counts, in, sdb_table_data(t));
		if (in->kind == SDB_KIND_PATTERN && in->group == 0) {
			sdb_heuristic *h;
			if (sdb_heuristic_open(&h, db, &in->goal, in->set) == SDB_OK) {
				if (sdb_heuristic_value(h, &in->goal) != 0)
					abort();   /* a set that verified says 0 at its goal */
				sdb_heuristic_close(h);
			}
		}
		if (in->kind != SDB_KIND_FULL)
			continue;
		sdb_board goal = in->goal, start = in->goal;
		for (int m = 0; m < 4; m++)
			sdb_board_apply(&start, m);
		sdb_answer a;
		if (sdb_answer_query(&a, db, &start, &goal, NULL) == SDB_OK && a.solvable &&
		    a.distance > SDB_MAX_MOVES)
			abort();
		/* Counting and listing follow the table's distances wherever they
		 * lead: a damaged table must give an error, never a crash. */
		const sdb_answer_opts all = { .version = SDB_ANSWER_OPTS_VERSION,
		                              .want_moves = 1, .want_best_moves = 1,
			                      .want_count = 1 };
		if (sdb_answer_query(&a, db, &start, &goal, &all) == SDB_OK && a.solvable &&
		    a.distance > 0 && !(a.best_moves >> a.best_move & 1))
			abort();   /* the stored best move is one of the best moves */
		sdb_random_request r = SDB_RANDOM_REQUEST_INIT;
		r.distance = in->max_distance;
		r.seed = 1;
		r.seed_given = 1;
		sdb_random *s;
		if (sdb_random_open(&s, db, &goal, &r) == SDB_OK) {
			sdb_board drawn[4];
			sdb_random_draw(s, drawn, 4);
			sdb_random_close(s);
		}
	}
	sdb_db_close(db);
	/* a writer reads the free list and the catalog */
	if (sdb_db_open(&db, path, 0) == SDB_OK) {
		sdb_writer *w;
		if (sdb_writer_begin(&w, db) == SDB_OK) {
			const char *name = "full-2x2-b0";
			sdb_writer_delete(w, name);
			sdb_writer_abort(w);
		}
		sdb_db_close(db);
	}
	return 0;
}
