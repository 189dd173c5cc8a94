/* The `random` command: boards drawn uniformly at a chosen distance from a
 * goal (or among all boards, or by a random walk), as board lines, grids, or
 * full JSON answers. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "opts.h"
#include "random.h"

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

static uint64_t fresh_seed(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t s = (uint64_t)ts.tv_sec * 1000000007u ^ (uint64_t)ts.tv_nsec ^
	             (uint64_t)getpid() << 32;
	FILE *f = fopen("/dev/urandom", "rb");
	if (f) {
		uint64_t u;
		if (fread(&u, sizeof u, 1, f) == 1)
			s ^= u;
		fclose(f);
	}
	return s >> 1;   /* positive as a signed 64-bit number too, for JSON readers */
}

/* Write the boards of one chunk. */
static int write_boards(out *o, const random_opts *r, const sdb_db *db, const sdb_board *goal,
                        const sdb_board *boards, int n, uint64_t first)
{
	const report_opts *rep = &r->answer.report;
	const char blank = r->goal_text ? report_blank_of(r->goal_text) : '0';
	if (rep->json) {
		const sdb_answer_opts opts = { .want_moves = 1, .limits = r->answer.limits,
		                               .want_best_moves = rep->all_best };
		for (int i = 0; i < n; i++) {
			sdb_query q = { boards[i], *goal };
			sdb_answer a;
			if (sdb_answer_query(&a, db, &q.start, goal, &opts))
				return cli_fail_lib(NULL);
			const answer_extra x = { "", blank };
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
	const int by_distance = r->min_distance >= 0;
	if (r->walk >= 0 && by_distance)
		return cli_usage("--walk draws a random walk: it does not combine with --distance, "
		                 "--min-distance or --max-distance");
	sdb_db *db = NULL;
	if ((by_distance || r->answer.report.json) &&
	    sdb_db_open(&db, r->db_path, SDB_RDONLY))
		return cli_fail_lib(NULL);
	sdb_sampler *sampler = NULL;
	if (r->walk < 0 &&
	    sdb_sampler_open(&sampler, db, &goal, r->min_distance, r->max_distance)) {
		sdb_db_close(db);
		return cli_fail_lib(NULL);
	}
	const uint64_t seed = r->seed_given ? r->seed : fresh_seed();
	if (!r->seed_given && isatty(STDERR_FILENO))
		cli_note("seed %llu (--seed %llu draws these boards again)",
		         (unsigned long long)seed, (unsigned long long)seed);
	sdb_rng rng;
	sdb_rng_seed(&rng, seed);
	static sdb_board boards[CHUNK];
	out o = { 0 };
	for (uint64_t done = 0; !rc && done < r->count;) {
		const int n = r->count - done < CHUNK ? (int)(r->count - done) : CHUNK;
		if (sampler && sdb_sampler_draw(sampler, boards, (size_t)n, &rng)) {
			rc = cli_fail_lib(NULL);
			break;
		} else if (!sampler)
			for (int i = 0; i < n; i++)
				sdb_random_walk(&boards[i], &goal, r->walk, &rng);
		rc = write_boards(&o, r, db, &goal, boards, n, done);
		done += (uint64_t)n;
		if (o.len >= FLUSH_AT && out_flush(&o, stdout))
			rc = cli_fail("writing the boards failed: %s", strerror(errno));
	}
	if (!rc && (out_flush(&o, stdout) || fflush(stdout)))
		rc = cli_fail("writing the boards failed: %s", strerror(errno));
	out_free(&o);
	sdb_sampler_close(sampler);
	sdb_db_close(db);
	return rc;
}
