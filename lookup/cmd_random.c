/* The `random` command: boards drawn uniformly at a chosen distance from a
 * goal (or among all boards, or by a random walk), as board lines, grids, or
 * full JSON answers. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "lookup/random.h"

enum { CHUNK = 4096, FLUSH_AT = 1 << 16 };

/* The goal: --goal in the size given or its own shape, else the standard
 * goal of --size (3x3 without one). */
int random_goal(sdb_board *goal, const random_opts *r)
{
	int w = r->answer.w, h = r->answer.h;
	if (r->goal_text) {
		if (sdb_board_parse(goal, r->goal_text, w, h))
			return cli_usage("--goal '%s': %s", r->goal_text, sdb_errdetail());
		return -1;
	}
	if (!w)
		w = h = 3;
	sdb_board_goal(goal, w, h, w * h - 1);
	return -1;
}

/* Write the boards of one chunk. */
static int write_boards(out *o, const random_opts *r, const sdb_db *db, const sdb_board *goal,
                        const sdb_board *boards, int n, uint64_t first)
{
	const report_opts *rep = &r->answer.report;
	const char blank = r->goal_text ? report_blank_of(r->goal_text) : '0';
	if (rep->json) {
		const sdb_answer_opts opts = { .version = SDB_ANSWER_OPTS_VERSION,
		                               .want_moves = 1, .limits = r->answer.limits,
		                               .want_best_moves = rep->all_best };
		for (int i = 0; i < n; i++) {
			sdb_query q = { boards[i], *goal };
			sdb_answer a;
			if (sdb_answer_query(&a, db, &q.start, goal, &opts))
				return cli_fail_lib(NULL);
			const report_extra x = { "", blank };
			report_answer(o, rep, &q, &a, &x);
		}
	} else if (rep->grid) {
		char labels[CHUNK][24];
		const char *label[CHUNK];
		for (int i = 0; i < n; i++) {
			snprintf(labels[i], sizeof labels[i], "#%llu", (unsigned long long)(first + i + 1));
			label[i] = labels[i];
		}
		report_grids(o, boards, label, n, blank);
	} else {
		char text[3 * SDB_MAX_CELLS];
		for (int i = 0; i < n; i++) {
			int len = sdb_board_format(text, sizeof text, &boards[i]);
			out_mem(o, text, (size_t)len);
			out_char(o, '\n');
		}
	}
	return 0;
}

int random_run(const random_opts *r)
{
	sdb_board goal;
	int rc = random_goal(&goal, r);
	if (rc >= 0)
		return rc;
	rc = 0;
	int lo, hi;
	sdb_random_range(&r->req, &lo, &hi);
	sdb_db *db = NULL;
	sdb_random *rd = NULL;
	if (((lo >= 0 || r->answer.report.json) && sdb_db_open(&db, r->db_path, SDB_RDONLY)) ||
	    sdb_random_open(&rd, db, &goal, &r->req)) {
		rc = cli_fail_lib(NULL);
		sdb_db_close(db);
		return rc;
	}
	const uint64_t seed = sdb_random_seed(rd);
	if (!r->req.seed_given && isatty(STDERR_FILENO))
		cli_note("seed %llu (--seed %llu draws these boards again)",
		         (unsigned long long)seed, (unsigned long long)seed);
	static sdb_board boards[CHUNK];
	out o = { 0 };
	for (uint64_t done = 0; !rc && done < r->req.count;) {
		const int n = r->req.count - done < CHUNK ? (int)(r->req.count - done) : CHUNK;
		if (sdb_random_draw(rd, boards, (size_t)n)) {
			rc = cli_fail_lib(NULL);
			break;
		}
		rc = write_boards(&o, r, db, &goal, boards, n, done);
		done += (uint64_t)n;
		if (o.len >= FLUSH_AT && out_flush(&o, stdout))
			rc = cli_fail("writing the boards failed: %s", strerror(errno));
	}
	if (!rc && (out_flush(&o, stdout) || fflush(stdout)))
		rc = cli_fail("writing the boards failed: %s", strerror(errno));
	out_free(&o);
	sdb_random_close(rd);
	sdb_db_close(db);
	return rc;
}
