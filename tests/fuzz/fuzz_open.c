/* libFuzzer target: a database file from anywhere, opened and read: the
 * catalog, every table's check, and answers. LMDB trusts its own pages (the
 * header's caveats): findings inside liblmdb are listed in bench/RESULTS.md;
 * slidedb's own code must never crash on what LMDB hands it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "slidedb.h"

static char path[128], lock[160];

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
		const sdb_answer_opts all = { .want_moves = 1, .want_best_moves = 1,
			                      .want_count = 1 };
		if (sdb_answer_query(&a, db, &start, &goal, &all) == SDB_OK && a.solvable &&
		    a.distance > 0 && !(a.best_moves >> a.best_move & 1))
			abort();   /* the stored best move is one of the best moves */
		sdb_sampler *s;
		if (sdb_sampler_open(&s, db, &goal, in->max_distance, in->max_distance) == SDB_OK) {
			sdb_rng rng;
			sdb_board drawn[4];
			sdb_rng_seed(&rng, 1);
			sdb_sampler_draw(s, drawn, 4, &rng);
			sdb_sampler_close(s);
		}
	}
	sdb_db_close(db);
	return 0;
}
