/* SPDX-License-Identifier: MIT */
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
#include "lookup/lookup.h"

enum { CHUNK = 4096, FLUSH_AT = 1 << 16 };

/* Write the boards of one chunk. */
static int write_boards(out *o, const lookup_options *r, const sdb_db *db, const sdb_board *goal,
                        const sdb_board *boards, int n, uint64_t first)
{
	const report_opts *rep = &r->answer.report;
	const char blank = r->goal_text ? report_blank_of(r->goal_text) : '0';
	if (rep->json) {
		const sdb_answer_opts opts = { .version = SDB_ANSWER_OPTS_VERSION,
		                               .want_moves = 1, .limits = r->answer.limits,
		                               .want_best_moves = rep->all_best,
		                               .metric = rep->metric };
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

int cmd_random(void *opts, int nargs, char **args)
{
	const lookup_options *r = opts;
	const report_opts *rep = &r->answer.report;
	if (nargs > 0)
		return cli_usage("random takes no words: '%s'", args[0]);
	if (!rep->json && (rep->path || rep->tiles || rep->all_best))
		return cli_usage("--path, --tiles and --all-best fill random's --json answers: give "
		                 "--json too");
	sdb_board goal;
	int rc = lookup_goal(&goal, r);
	if (rc >= 0)
		return rc;
	rc = 0;
	int lo, hi;
	sdb_random_range(&r->req, &lo, &hi);
	sdb_db *db = NULL;
	sdb_random *rd = NULL;
	sdb_random_request req = r->req;
	req.metric = rep->metric;
	if (((lo >= 0 || r->answer.report.json) && sdb_db_open(&db, r->db_path, SDB_RDONLY)) ||
	    sdb_random_open(&rd, db, &goal, &req)) {
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
