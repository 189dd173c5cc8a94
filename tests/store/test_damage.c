/* SPDX-License-Identifier: MIT */
/* Damaged table bytes are an error, never a wrong answer: one byte of a
 * 3x3 table changed in the file (one-byte tables and chunked two-bit
 * tables), then every answer the library gives is either the intact
 * database's answer or SDB_ECORRUPT, and the answers that read the damaged
 * block are errors. Distances, best moves, move sequences, counts, checker
 * verdicts, batches, random boards and the states listing are all asked. */
#define _GNU_SOURCE   /* memmem */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lmdb.h>

#include "kit/boards.h"
#include "kit/files.h"
#include "kit/oracle.h"
#include "kit/run.h"
#include "kit/text.h"

enum { N33 = 181440, SAMPLE = 3000, TRIALS = 8 };

typedef struct pristine {
	int8_t dist[N33];
	int8_t best[N33];
} pristine;

/* The file's bytes, and where each chunk of the table's entries lies in it
 * (found by content: the table's bytes are read through the library). */
typedef struct layout {
	uint8_t *file;
	size_t size;
	size_t at[64];
	uint64_t bytes[64];
	int nchunks;
} layout;

static void find_layout(layout *l, const char *path, const char *table)
{
	l->file = (uint8_t *)ck_read_file(path, &l->size);
	cr_assert_not_null(l->file);
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0, "%s", sdb_error_detail());
	const sdb_table *t = sdb_table_find(db, table);
	cr_assert_not_null(t);
	l->nchunks = sdb_table_chunks(t);
	cr_assert(l->nchunks >= 1 && l->nchunks <= 64);
	for (int c = 0; c < l->nchunks; c++) {
		const uint8_t *data = sdb_table_chunk(t, c, &l->bytes[c]);
		const uint8_t *hit = memmem(l->file, l->size, data, l->bytes[c]);
		cr_assert_not_null(hit, "chunk %d found in the file", c);
		l->at[c] = (size_t)(hit - l->file);
	}
	sdb_db_close(db);
}

/* A copy of the file with the byte at `off` changed. */
static void write_damaged(const char *to, const layout *l, size_t off, uint8_t flip)
{
	FILE *f = fopen(to, "wb");
	cr_assert(f);
	cr_assert_eq(fwrite(l->file, 1, off, f), off);
	uint8_t b = l->file[off] ^ flip;
	cr_assert_eq(fwrite(&b, 1, 1, f), 1);
	cr_assert_eq(fwrite(l->file + off + 1, 1, l->size - off - 1, f), l->size - off - 1);
	fclose(f);
	char lock[600];
	snprintf(lock, sizeof lock, "%s-lock", to);
	unlink(lock);
}

static void answers_of(pristine *p, const char *path, const sdb_board *goal)
{
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0);
	const sdb_answer_opts opts = { .version = SDB_ANSWER_OPTS_VERSION };
	for (uint64_t i = 0; i < N33; i++) {
		sdb_board s;
		sdb_board_unrank(&s, 3, 3, sdb_rank_class(goal), i);
		sdb_answer a;
		cr_assert_eq(sdb_answer_query(&a, db, &s, goal, &opts), 0, "%s", sdb_error_detail());
		p->dist[i] = (int8_t)a.distance;
		p->best[i] = (int8_t)a.best_move;
	}
	sdb_db_close(db);
}

/* Every start's distance and best move; moves, counts and best-move sets
 * for a sample and for the starts that rank into the damaged block. Returns
 * how many answers were errors. */
static int check_answers(sdb_db *db, const pristine *p, const simple_bfs *bfs,
                         const sdb_board *goal, uint64_t damaged_state, unsigned *seed)
{
	int errors = 0;
	const int cls = sdb_rank_class(goal);
	for (uint64_t i = 0; i < N33; i++) {
		sdb_board s;
		sdb_board_unrank(&s, 3, 3, cls, i);
		const int near = i / 4096 == damaged_state / 4096 || i / 16384 == damaged_state / 16384;
		const int full = near || rand_r(seed) % (N33 / SAMPLE) == 0;
		sdb_answer_opts opts = { .version = SDB_ANSWER_OPTS_VERSION,
		                         .want_moves = full, .want_best_moves = full,
		                         .want_count = full && i % 3 == 0 };
		sdb_answer a;
		int err = sdb_answer_query(&a, db, &s, goal, &opts);
		if (err) {
			cr_assert_eq(err, SDB_ECORRUPT, "state %llu: %s", (unsigned long long)i,
			             sdb_error_detail());
			cr_assert(strstr(sdb_error_detail(), "damaged") || strstr(sdb_error_detail(), "CRC"),
			          "%s", sdb_error_detail());
			errors++;
			continue;
		}
		cr_assert_eq(a.distance, p->dist[i], "state %llu: a wrong distance", (unsigned long long)i);
		cr_assert_eq(a.best_move, p->best[i], "state %llu: a wrong best move",
		             (unsigned long long)i);
		if (!full)
			continue;
		cr_assert(tk_replay(&s, a.moves, goal), "state %llu: moves %s", (unsigned long long)i,
		          a.moves);
		cr_assert_eq((int)strlen(a.moves), a.distance);
		/* best moves: exactly the neighbours one closer, by the simple BFS */
		unsigned want = 0, legal = sdb_board_moves(&s);
		for (int m = 0; m < 4 && a.distance > 0; m++) {
			sdb_board n = s;
			if ((legal >> m & 1) && !sdb_board_apply(&n, m) &&
			    simple_bfs_dist(bfs, &n) == a.distance - 1)
				want |= 1u << m;
		}
		cr_assert_eq(a.best_moves, want, "state %llu: a wrong best-move set",
		             (unsigned long long)i);
		sdb_check c;
		err = sdb_check_moves(&c, db, &s, goal, a.moves, NULL);
		if (err) {
			cr_assert_eq(err, SDB_ECORRUPT);
			errors++;
		} else {
			cr_assert(c.optimal, "state %llu: an optimal answer judged not optimal",
			          (unsigned long long)i);
		}
	}
	return errors;
}

/* Draws at a distance and the states listing: each either an error or right. */
static int check_draws(sdb_db *db, const pristine *p, const sdb_board *goal, int two_bit,
                       unsigned *seed)
{
	int errors = 0;
	for (int d = 2; d <= 30 && !two_bit; d += 7) {
		sdb_random_request r = SDB_RANDOM_REQUEST_INIT;
		r.distance = d;
		r.seed = (uint64_t)rand_r(seed);
		r.seed_given = 1;
		sdb_random *s;
		int open_err = sdb_random_open(&s, db, goal, &r);
		if (open_err) {
			cr_assert_eq(open_err, SDB_ECORRUPT, "%s", sdb_error_detail());
			errors++;
			continue;
		}
		sdb_board b[64];
		int err = sdb_random_draw(s, b, 64);
		if (err) {
			cr_assert_eq(err, SDB_ECORRUPT, "%s", sdb_error_detail());
			errors++;
		}
		for (int k = 0; k < 64 && !err; k++)
			cr_assert_eq(p->dist[sdb_board_rank(&b[k])], d, "a random board at the wrong distance");
		sdb_random_close(s);
	}
	if (!two_bit) {
		sdb_states *st;
		cr_assert_eq(sdb_states_open(&st, db, goal, 0, 40), 0, "%s", sdb_error_detail());
		static uint8_t cells[1024 * 9];
		int16_t dist[1024];
		long n;
		while ((n = sdb_states_next(st, cells, dist, 1024)) > 0)
			for (long k = 0; k < n; k++) {
				sdb_board b;
				cr_assert_eq(sdb_board_set(&b, 3, 3, cells + 9 * k), 0);
				cr_assert_eq(p->dist[sdb_board_rank(&b)], dist[k], "a listed state's distance");
			}
		sdb_states_close(st);
		if (n < 0) {
			cr_assert_eq(n, SDB_ECORRUPT, "%s", sdb_error_detail());
			errors++;
		}
	}
	return errors;
}

static void damage_trials(const char *build_extra, const char *name, int two_bit)
{
	char path[512], bad[512], cmd[1024];
	tk_tmp_path(path, sizeof path, "intact.lmdb");
	tk_tmp_path(bad, sizeof bad, "damaged.lmdb");
	snprintf(cmd, sizeof cmd, "%s %s full 3x3 --goal '0 1 2 3 4 5 6 7 8' --db '%s' -q %s",
	         build_extra, SLIDEDB_GEN, path, two_bit ? "--bits 2" : "");
	char *err;
	cr_assert_eq(tk_run(cmd, NULL, NULL, &err), 0, "%s", err);
	free(err);
	sdb_board goal;
	sdb_board_goal(&goal, 3, 3, 0);
	simple_bfs bfs;
	simple_bfs_run(&bfs, &goal);
	static pristine p;
	answers_of(&p, path, &goal);
	layout l;
	find_layout(&l, path, name);
	if (two_bit)
		cr_assert_gt(l.nchunks, 1, "the two-bit table is chunked");
	unsigned seed = 2026;
	for (int trial = 0; trial < TRIALS; trial++) {
		const int c = rand_r(&seed) % l.nchunks;
		const uint64_t in_chunk = (uint64_t)rand_r(&seed) % l.bytes[c];
		const uint8_t flip = (uint8_t)(1 + rand_r(&seed) % 255);
		write_damaged(bad, &l, l.at[c] + in_chunk, flip);
		uint64_t byte = in_chunk;
		for (int k = 0; k < c; k++)
			byte += l.bytes[k];
		const uint64_t state = two_bit ? 4 * byte : byte;
		sdb_db *db;
		cr_assert_eq(sdb_db_open(&db, bad, SDB_RDONLY), 0, "%s", sdb_error_detail());
		int errors = check_answers(db, &p, &bfs, &goal, state, &seed);
		errors += check_draws(db, &p, &goal, two_bit, &seed);
		cr_assert_gt(errors, 0, "trial %d: byte %llu changed and no answer noticed", trial,
		             (unsigned long long)byte);
		cr_assert_eq(sdb_table_verify(sdb_table_find(db, name)), SDB_ECORRUPT);
		sdb_db_close(db);
	}
	simple_bfs_free(&bfs);
	free(l.file);
	unlink(path);
	unlink(bad);
}

Test(damage, one_byte_table, .timeout = 600)
{
	damage_trials("", "full-3x3-b0", 0);
}

Test(damage, chunked_two_bit_table, .timeout = 600)
{
	damage_trials("SLIDEDB_CHUNK_BYTES=4096", "full-3x3-b0", 1);
}

/* sdb_table_distance, the hot path for outside solvers, says so too. */
Test(damage, table_distance_of_a_damaged_block)
{
	char path[512], bad[512];
	tk_tmp_path(path, sizeof path, "td.lmdb");
	tk_tmp_path(bad, sizeof bad, "td-bad.lmdb");
	tk_build(path, "3x3", "--goal '0 1 2 3 4 5 6 7 8'");
	layout l;
	find_layout(&l, path, "full-3x3-b0");
	write_damaged(bad, &l, l.at[0] + 5000, 0x40);
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, bad, SDB_RDONLY), 0);
	const sdb_table *t = sdb_table_find(db, "full-3x3-b0");
	sdb_board b;
	sdb_board_unrank(&b, 3, 3, 0, 5000);
	cr_assert_eq(sdb_table_distance(t, &b), SDB_ECORRUPT);
	cr_assert(strstr(sdb_error_detail(), "bytes 4096 to 8191"), "%s", sdb_error_detail());
	sdb_board_unrank(&b, 3, 3, 0, 100);
	cr_assert_geq(sdb_table_distance(t, &b), 0, "an intact block still answers");
	sdb_db_close(db);
	free(l.file);
}

/* A verify split over threads (SLIDEDB_VERIFY_BYTES: a thread per block)
 * finds the whole table's CRC from its runs' and a changed byte in any
 * run, in one table and in a chunked one. */
static void verify_on_threads(const char *build_extra, const char *name, const char *bits)
{
	char path[512], bad[512], cmd[1024];
	tk_tmp_path(path, sizeof path, "vt.lmdb");
	tk_tmp_path(bad, sizeof bad, "vt-bad.lmdb");
	snprintf(cmd, sizeof cmd, "%s %s full 3x3 --goal '0 1 2 3 4 5 6 7 8' --db '%s' -q %s",
	         build_extra, SLIDEDB_GEN, path, bits);
	char *err;
	cr_assert_eq(tk_run(cmd, NULL, NULL, &err), 0, "%s", err);
	free(err);
	tk_knob("SLIDEDB_VERIFY_BYTES", "4096");
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0, "%s", sdb_error_detail());
	cr_assert_eq(sdb_table_verify(sdb_table_find(db, name)), 0, "%s", sdb_error_detail());
	sdb_db_close(db);
	layout l;
	find_layout(&l, path, name);
	uint64_t total = 0;
	for (int c = 0; c < l.nchunks; c++)
		total += l.bytes[c];
	for (int k = 0; k < 8; k++) {   /* first, last and between */
		uint64_t byte = k == 7 ? total - 1 : total * (uint64_t)k / 7, in_chunk = byte;
		int c = 0;
		while (in_chunk >= l.bytes[c])
			in_chunk -= l.bytes[c++];
		write_damaged(bad, &l, l.at[c] + in_chunk, 0x10);
		cr_assert_eq(sdb_db_open(&db, bad, SDB_RDONLY), 0, "%s", sdb_error_detail());
		cr_assert_eq(sdb_table_verify(sdb_table_find(db, name)), SDB_ECORRUPT,
		             "byte %llu of %llu changed", (unsigned long long)byte,
		             (unsigned long long)total);
		cr_assert(strstr(sdb_error_detail(), "fails its CRC check"), "%s", sdb_error_detail());
		sdb_db_close(db);
	}
	tk_knob("SLIDEDB_VERIFY_BYTES", NULL);
	free(l.file);
	unlink(path);
	unlink(bad);
}

Test(damage, verify_on_threads)
{
	verify_on_threads("", "full-3x3-b0", "");
}

Test(damage, verify_on_threads_chunked)
{
	verify_on_threads("SLIDEDB_CHUNK_BYTES=4096", "full-3x3-b0", "--bits 2");
}

/* The catalog record of table name in the file at path, as stored (read
 * through LMDB itself), and where its key and it lie in the file's bytes
 * (each once: the catalog page is written once). */
static size_t find_record(const layout *l, const char *path, const char *name, size_t *len)
{
	MDB_env *env;
	MDB_txn *txn;
	MDB_dbi dbi;
	cr_assert_eq(mdb_env_create(&env), 0);
	cr_assert_eq(mdb_env_set_maxdbs(env, 4), 0);
	cr_assert_eq(mdb_env_open(env, path, MDB_NOSUBDIR | MDB_RDONLY, 0644), 0);
	cr_assert_eq(mdb_txn_begin(env, NULL, MDB_RDONLY, &txn), 0);
	cr_assert_eq(mdb_dbi_open(txn, "catalog", 0, &dbi), 0);
	MDB_val k = { strlen(name), (void *)name }, v;
	cr_assert_eq(mdb_get(txn, dbi, &k, &v), 0, "no record of %s", name);
	const uint8_t *at = memmem(l->file, l->size, v.mv_data, v.mv_size);
	cr_assert_not_null(at);
	cr_assert_null(memmem(at + 1, l->size - (size_t)(at + 1 - l->file), v.mv_data, v.mv_size),
	               "the record is in the file once");
	*len = v.mv_size;
	mdb_txn_abort(txn);
	mdb_env_close(env);
	const size_t off = (size_t)(at - l->file);
	cr_assert(off >= strlen(name) && !memcmp(at - strlen(name), name, strlen(name)),
	          "the key is just before the record (an LMDB leaf node)");
	return off - strlen(name);
}

/* A damaged catalog record of a pattern set's group (issue #35: in the
 * hostile trial a 5x5 set so damaged was "no pattern-database set ... build
 * one" and a search on Manhattan distance, exit 0): each byte of a group's
 * key and record flipped in the file in turn. A search that needs the set is
 * then an error that names the damage (or the file is refused on open),
 * never an answer without the set; slidedb-lookup answers the query with
 * that error and exits 1. */
Test(damage, a_damaged_record_of_a_set_is_named_not_missing, .timeout = 300)
{
	char path[512], bad[512], *out, *err;
	tk_tmp_path(path, sizeof path, "set-intact.lmdb");
	tk_tmp_path(bad, sizeof bad, "set-damaged.lmdb");
	cr_assert_eq(ck_gen(path, NULL, &err, "pdb 4x4 --partition 1,2,3,4/5,6,7,8/9,10,11,12/"
	                    "13,14,15 --name rows -q"), 0, "%s", err);
	free(err);
	const char *group = "rows/g1";
	layout l;
	l.file = (uint8_t *)ck_read_file(path, &l.size);
	size_t len;
	const size_t first = find_record(&l, path, group, &len), last = first + strlen(group) + len;
	sdb_board goal, start;
	sdb_board_goal(&goal, 4, 4, 15);
	start = goal;
	for (int m = 0; m < 6; m++)   /* six moves away: Manhattan distance would answer it */
		sdb_board_apply(&start, m % 2 ? SDB_LEFT : SDB_UP);
	int opened = 0;
	for (size_t off = first; off < last; off++) {
		write_damaged(bad, &l, off, 0x10);
		sdb_db *db;
		int err_open = sdb_db_open(&db, bad, SDB_RDONLY);
		if (err_open) {
			cr_assert_eq(err_open, SDB_ECORRUPT, "byte %zu: %s", off - first, sdb_error_detail());
			continue;
		}
		opened++;
		sdb_answer a;
		const int got = sdb_answer_query(&a, db, &start, &goal, NULL);
		cr_assert_eq(got, SDB_ECORRUPT, "byte %zu of the key and record changed: %s (%s)",
		             off - first, got ? "another error" : "answered", sdb_error_detail());
		cr_assert(strstr(sdb_error_detail(), "damaged") && strstr(sdb_error_detail(), "slidedb-gen rm"),
		          "%s", sdb_error_detail());
		sdb_db_close(db);
	}
	cr_assert_gt(opened, (int)len / 2, "most damaged records open, as damaged entries");
	write_damaged(bad, &l, first + strlen(group) + 2, 0x10);
	const int rc = ck_lookup(bad, NULL, &out, &err, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15");
	cr_assert_eq(rc, 1, "exit %d: %s", rc, out);
	cr_assert(!strncmp(out, "error: ", 7) && strstr(out, group) && strstr(out, "damaged") &&
	          tk_lines(out) == 1, "the query's answer line: %s", out);
	free(out);
	free(err);
	free(l.file);
	unlink(path);
	unlink(bad);
}
