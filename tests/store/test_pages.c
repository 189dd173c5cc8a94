/* SPDX-License-Identifier: MIT */
/* A damaged database file is an error, never a crash, a hang or a wrong
 * answer: bytes of the meta and B-tree pages of a small database (tables,
 * their checksums, the catalog, the free list) changed one at a time, and
 * each damaged file opened, listed, verified, asked and written to in a
 * child process, which must end normally within its time, with every answer
 * it gives equal to the intact file's. (bench/hostile.sh flips every byte.) */
#define _GNU_SOURCE   /* memmem */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kit/boards.h"
#include "kit/files.h"
#include "kit/run.h"

enum { PAGE = 4096, TRIALS = 1500, QUERIES = 64, WRONG = 3 };

/* The pages that hold only table bytes (overflow runs of entries), which
 * test_damage covers: every other page is structure. */
static void mark_table_pages(uint8_t *data_page, const uint8_t *file, size_t size,
                             const char *path)
{
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0, "%s", sdb_error_detail());
	for (int i = 0; i < sdb_table_count(db); i++) {
		const sdb_table *t = sdb_table_at(db, i);
		for (int c = 0; c < sdb_table_chunks(t); c++) {
			uint64_t bytes;
			const uint8_t *chunk = sdb_table_chunk(t, c, &bytes);
			const uint8_t *at = memmem(file, size, chunk, bytes);
			cr_assert_not_null(at);
			const size_t first = (size_t)(at - file);
			for (size_t p = (first + PAGE - 1) / PAGE; (p + 1) * PAGE <= first + bytes; p++)
				data_page[p] = 1;
		}
	}
	sdb_db_close(db);
}

typedef struct case_db {
	char path[512];
	uint8_t *file;
	size_t size;
	sdb_board start[QUERIES], goal[QUERIES];
	int dist[QUERIES];
	char moves[QUERIES][SDB_MAX_MOVES + 1];
} case_db;

/* Everything a program does with a database; exit status 0 unless an
 * answer differs from the intact file's (WRONG). Errors are fine. */
static void use_database(const case_db *k, const char *path)
{
	alarm(20);   /* a hang ends as SIGALRM: a failure */
	sdb_db *db;
	if (sdb_db_open(&db, path, SDB_RDONLY) == 0) {
		for (int i = 0; i < sdb_table_count(db); i++) {
			const sdb_table *t = sdb_table_at(db, i);
			(void)sdb_table_meta(t)->name[0];
			(void)sdb_table_problem(t);
			(void)sdb_table_verify(t);
			uint64_t counts[SDB_MAX_DISTANCE];
			(void)sdb_table_count_entries(counts, t);
		}
		for (int q = 0; q < QUERIES; q++) {
			sdb_answer a;
			sdb_answer_opts opts = { .version = SDB_ANSWER_OPTS_VERSION,
			                         .want_moves = 1, .want_best_moves = 1,
			                         .want_count = q % 4 == 0 };
			if (sdb_answer_query(&a, db, &k->start[q], &k->goal[q], &opts) == 0 &&
			    (a.distance != k->dist[q] || strcmp(a.moves, k->moves[q])))
				_exit(WRONG);
		}
		sdb_db *fresh;
		if (sdb_db_reopen(&fresh, db) == 0)
			sdb_db_close(fresh);
		sdb_db_close(db);
	}
	/* a writer reads the free list and the catalog */
	if (sdb_db_open(&db, path, 0) == 0) {
		sdb_writer *w;
		if (sdb_writer_begin(&w, db) == 0) {
			uint8_t *data;
			sdb_table_info info;
			memset(&info, 0, sizeof info);
			snprintf(info.name, sizeof info.name, "full-2x2-b0");
			info.kind = SDB_KIND_FULL;
			info.entry_format = SDB_ENTRY_DIST6_MOVE2;
			sdb_board_goal(&info.goal, 2, 2, 0);
			info.states = 12;
			if (sdb_writer_reserve(w, &data, info.name, 12) == 0) {
				memset(data, 0, 12);
				(void)sdb_writer_delete(w, "full-2x3-b0");
			}
			sdb_writer_abort(w);
		}
		sdb_db_close(db);
	}
	_exit(0);
}

static void setup(case_db *k)
{
	tk_tmp_path(k->path, sizeof k->path, "pages.lmdb");
	tk_build(k->path, "3x3", NULL);
	tk_build(k->path, "2x3", NULL);
	tk_build(k->path, "2x3", NULL);   /* again: the free list holds the old pages */
	k->file = (uint8_t *)ck_read_file(k->path, &k->size);
	cr_assert(k->file && k->size % PAGE == 0);
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, k->path, SDB_RDONLY), 0);
	unsigned seed = 7;
	for (int q = 0; q < QUERIES; q++) {
		sdb_board std;
		const int w = q % 2 ? 2 : 3;
		sdb_board_goal(&std, w, 3, w * 3 - 1);
		tk_random_walk(&k->goal[q], &std, 50 + q, &seed);
		tk_random_walk(&k->start[q], &k->goal[q], 10 + q, &seed);
		sdb_answer a;
		cr_assert_eq(sdb_answer_query(&a, db, &k->start[q], &k->goal[q], NULL), 0);
		k->dist[q] = a.distance;
		strcpy(k->moves[q], a.moves);
	}
	sdb_db_close(db);
}

/* Run one damaged copy; the child's fate. */
static void trial(const case_db *k, const char *bad, size_t off, uint8_t flip)
{
	FILE *f = fopen(bad, "wb");
	cr_assert(f);
	k->file[off] ^= flip;
	cr_assert_eq(fwrite(k->file, 1, k->size, f), k->size);
	k->file[off] ^= flip;
	fclose(f);
	char lock[600];
	snprintf(lock, sizeof lock, "%s-lock", bad);
	unlink(lock);
	fflush(NULL);
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0)
		use_database(k, bad);
	int status;
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(!WIFSIGNALED(status), "byte %zu ^ %#x: killed by signal %d (%s)", off, flip,
	          WTERMSIG(status), strsignal(WTERMSIG(status)));
	cr_assert_neq(WEXITSTATUS(status), WRONG, "byte %zu ^ %#x: a wrong answer", off, flip);
	cr_assert_eq(WEXITSTATUS(status), 0, "byte %zu ^ %#x: exit %d", off, flip,
	             WEXITSTATUS(status));
}

Test(pages, damaged_structure_is_never_a_crash)   /* bounded by ctest; bench/hostile.sh runs it longer */
{
	static case_db k;
	setup(&k);
	const size_t npages = k.size / PAGE;
	uint8_t *data_page = calloc(npages, 1);
	mark_table_pages(data_page, k.file, k.size, k.path);
	/* The bytes in use of each structure page: its header, node offsets and
	 * nodes (a meta page: its 152 bytes). */
	size_t *spot = malloc(k.size * sizeof *spot), nspots = 0;
	for (size_t p = 0; p < npages; p++) {
		if (data_page[p])
			continue;
		const uint8_t *pg = k.file + p * PAGE;
		const unsigned lower = pg[12] | pg[13] << 8, upper = pg[14] | pg[15] << 8;
		for (size_t b = 0; b < PAGE; b++) {
			const int used = p < 2 ? b < 152
			                 : b < 16 || (lower <= PAGE && b < lower) ||
			                   (upper <= PAGE && b >= upper);
			if (used)
				spot[nspots++] = p * PAGE + b;
		}
	}
	cr_assert_gt(nspots, 300, "structure bytes found: %zu", nspots);
	char bad[512];
	tk_tmp_path(bad, sizeof bad, "pages-bad.lmdb");
	unsigned seed = 1996;
	if (getenv("SLIDEDB_PAGES_EVERY_BIT")) {   /* bench/hostile.sh: every bit of every spot */
		for (size_t i = 0; i < nspots; i++)
			for (int bit = 0; bit < 8; bit++)
				trial(&k, bad, spot[i], (uint8_t)(1u << bit));
		cr_log_info("%zu structure bytes, %zu damaged files: no crash, no hang, no wrong "
		            "answer", nspots, 8 * nspots);
	}
	for (int t = 0; t < TRIALS; t++) {
		const size_t off = t < 2 * 152 ? (size_t)(t % 152) + (t >= 152 ? PAGE : 0)
		                               : spot[rand_r(&seed) % nspots];
		const uint8_t flip = (uint8_t)(t % 3 == 0 ? 1u << (rand_r(&seed) % 8)
		                                          : 1u + (unsigned)rand_r(&seed) % 255u);
		trial(&k, bad, off, flip);
	}
	free(spot);
	free(data_page);
	free(k.file);
	unlink(bad);
	unlink(k.path);
}

/* Files kept from earlier hostile trials: each an error, never a crash. */
Test(pages, kept_damaged_files)
{
	static case_db k;
	setup(&k);
	const char *files[] = { "assertion-5.lmdb", "assertion-7.lmdb" };
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		char src[1024], cmd[2200], bad[512];
		tk_tmp_path(bad, sizeof bad, files[i]);
		snprintf(src, sizeof src, "%s/tests/store/data/damaged/%s", SLIDEDB_SOURCE_DIR, files[i]);
		snprintf(cmd, sizeof cmd, "cp '%s' '%s'", src, bad);
		cr_assert_eq(system(cmd), 0);
		pid_t pid = fork();
		if (pid == 0)
			use_database(&k, bad);
		int status;
		cr_assert_eq(waitpid(pid, &status, 0), pid);
		cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: status %#x", files[i],
		          status);
	}
	free(k.file);
}

/* LMDB takes a snapshot's meta page by its txnid's parity: a meta page
 * holding a txnid of the other parity would send a writer to the other
 * meta page's (older, unchecked) tree. Such a file is refused at once (a
 * fuzzing finding: the older tree held a page whose bounds crashed the
 * writer's copy). */
Test(pages, a_meta_page_of_the_wrong_parity_is_refused)
{
	static case_db k;
	setup(&k);
	for (int m = 0; m < 2; m++) {
		char bad[512];
		tk_tmp_path(bad, sizeof bad, "parity.lmdb");
		uint64_t txnid;
		memcpy(&txnid, k.file + m * PAGE + 144, 8);
		const uint8_t flip = 1;   /* the parity bit of the txnid's first byte */
		FILE *f = fopen(bad, "wb");
		k.file[m * PAGE + 144] ^= flip;
		cr_assert_eq(fwrite(k.file, 1, k.size, f), k.size);
		k.file[m * PAGE + 144] ^= flip;
		fclose(f);
		sdb_db *db;
		cr_assert_eq(sdb_db_open(&db, bad, SDB_RDONLY), SDB_ECORRUPT, "meta %d, txnid %llu", m,
		             (unsigned long long)(txnid ^ flip));
		cr_assert(strstr(sdb_error_detail(), "meta"), "%s", sdb_error_detail());
		cr_assert_eq(sdb_db_open(&db, bad, 0), SDB_ECORRUPT);
		unlink(bad);
	}
	free(k.file);
}
