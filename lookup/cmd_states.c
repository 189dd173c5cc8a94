/* SPDX-License-Identifier: MIT */
/* The `states` command: every state at the distances asked, once each, in
 * the table's index order: a board per line with its distance (a tab
 * between), JSON objects, or grids. What a dataset for learning needs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "lookup/lookup.h"

enum { CHUNK = 4096, FLUSH_AT = 1 << 16 };

static void write_states(out *o, const lookup_options *r, const sdb_board *boards,
                         const int16_t *dist, int n, uint64_t first, char blank)
{
	const report_opts *rep = &r->answer.report;
	if (rep->grid) {
		char labels[CHUNK][48];
		const char *label[CHUNK];
		for (int i = 0; i < n; i++) {
			if (dist[i] >= 0)
				snprintf(labels[i], sizeof labels[i], "#%llu distance %d",
				         (unsigned long long)(first + i + 1), dist[i]);
			else
				snprintf(labels[i], sizeof labels[i], "#%llu",
				         (unsigned long long)(first + i + 1));
			label[i] = labels[i];
		}
		report_grids(o, boards, label, n, blank);
		return;
	}
	char text[3 * SDB_MAX_CELLS];
	for (int i = 0; i < n; i++) {
		sdb_board_format(text, sizeof text, &boards[i]);
		if (rep->json) {
			out_str(o, "{\"board\":");
			out_json_str(o, text);
			if (dist[i] >= 0)
				out_printf(o, ",\"distance\":%d}\n", dist[i]);
			else
				out_str(o, ",\"distance\":null}\n");
		} else if (dist[i] >= 0) {
			out_printf(o, "%s\t%d\n", text, dist[i]);
		} else {
			out_printf(o, "%s\n", text);
		}
	}
}

int cmd_states(void *opts, int nargs, char **args)
{
	const lookup_options *r = opts;
	if (nargs > 0)
		return cli_usage("states takes no words: '%s'", args[0]);
	sdb_board g;
	const sdb_board *goal = &g;
	int rc = lookup_goal(&g, r);
	if (rc >= 0)
		return rc;
	sdb_db *db = NULL;
	sdb_states *st = NULL;
	int lo, hi;
	sdb_random_range(&r->req, &lo, &hi);
	if (sdb_db_open(&db, r->db_path, SDB_RDONLY) ||
	    sdb_states_open_metric(&st, db, goal, lo, hi, r->answer.report.metric)) {
		int rc = cli_fail_lib(NULL);
		sdb_db_close(db);
		return rc;
	}
	const char blank = r->goal_text ? report_blank_of(r->goal_text) : '0';
	static uint8_t cells[CHUNK * SDB_MAX_CELLS];
	static sdb_board boards[CHUNK];
	static int16_t dist[CHUNK];
	out o = { 0 };
	rc = 0;
	uint64_t done = 0;
	long n;
	while (!rc && (n = sdb_states_next(st, cells, dist, CHUNK)) != 0) {
		if (n < 0) {
			rc = cli_fail_lib(NULL);
			break;
		}
		for (long i = 0; i < n; i++)
			sdb_board_set(&boards[i], goal->w, goal->h, cells + i * goal->n);
		write_states(&o, r, boards, dist, (int)n, done, blank);
		done += (uint64_t)n;
		if (o.len >= FLUSH_AT && out_flush(&o, stdout))
			rc = cli_fail("writing the states failed: %s", strerror(errno));
	}
	if (!rc && (out_flush(&o, stdout) || fflush(stdout)))
		rc = cli_fail("writing the states failed: %s", strerror(errno));
	out_free(&o);
	sdb_states_close(st);
	sdb_db_close(db);
	return rc;
}
