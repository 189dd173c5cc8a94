/* SPDX-License-Identifier: MIT */
/* End-to-end tests of slidedb-lookup that compute: the seed samples and
 * random (start, goal) pairs checked against an independent BFS and replayed
 * move by move, paths, batches in every notation, truncated, foreign and
 * altered databases, the counts of info against OEIS A089473 and the BFS,
 * the states listing, a reader without a writable lock file, JSON escapes,
 * Ctrl-C. What is plain output (seed 000's forms, batches and bad lines in
 * their place, grids, nested brackets, a missing database and files that
 * are not databases, verify, help, $SLIDEDB_DB, a full standard output) is
 * in tests/cli/lookup-*.md.
 *
 * Every test builds its own small database with slidedb-gen (milliseconds)
 * in a fresh scratch path, and removes it at the end. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/out.h"
#include "kit/boards.h"
#include "kit/files.h"
#include "kit/json.h"
#include "kit/messages.h"
#include "kit/oracle.h"
#include "kit/run.h"
#include "kit/text.h"

enum { CMD_MAX = 8192, TEXT_MAX = 512 };

/* ------------------------------------------------------------------ */
/* Boards                                                               */


/* The letter of the one move that turns a into b, or 0 if there is none. */
static char move_between(const sdb_board *a, const sdb_board *b)
{
	for (int m = 0; m < 4; m++) {
		sdb_board t = *a;
		if (sdb_board_apply(&t, m) == 0 && sdb_board_equal(&t, b))
			return sdb_move_letter(m);
	}
	return 0;
}


/* ------------------------------------------------------------------ */
/* Random pairs with distances from the independent BFS                  */

typedef struct pair {
	sdb_board start, goal;
	int dist;    /* simple_bfs distance, -1 when unsolvable */
} pair;

/* ngoals goals (the standard goal first, then random walks from it), nstarts
 * starts per goal: the goal itself, two of the farthest states (so the
 * longest answers are covered), then random walks from the goal. */
static pair *random_pairs(int w, int h, int ngoals, int nstarts, unsigned seed)
{
	pair *p = calloc((size_t)(ngoals * nstarts), sizeof *p);
	cr_assert(p);
	sdb_board std = ck_std_goal(w, h);
	for (int g = 0; g < ngoals; g++) {
		sdb_board goal;
		if (g == 0)
			goal = std;
		else
			tk_random_walk(&goal, &std, 11 + (int)(rand_r(&seed) % 40), &seed);
		simple_bfs bfs;
		simple_bfs_run(&bfs, &goal);
		for (int i = 0; i < nstarts; i++) {
			pair *q = &p[g * nstarts + i];
			q->goal = goal;
			if (i == 0)
				q->start = goal;
			else if (i <= 2 && nstarts > 6)
				q->start = simple_bfs_farthest(&bfs, (int)(rand_r(&seed) % 2));
			else
				tk_random_walk(&q->start, &goal, 1 + (int)(rand_r(&seed) % 300), &seed);
			q->dist = simple_bfs_dist(&bfs, &q->start);
			cr_assert_geq(q->dist, 0, "a random walk must be reachable");
		}
		simple_bfs_free(&bfs);
	}
	return p;
}

enum form { FORM_NUMBERS, FORM_SEMICOLON, FORM_COMPACT, FORM_START_ONLY, NFORMS };

/* One query line in the given notation. FORM_START_ONLY falls back to
 * FORM_SEMICOLON when the goal is not the standard one. */
static void append_query(ck_sbuf *b, const pair *p, int form)
{
	sdb_board std = ck_std_goal(p->goal.w, p->goal.h);
	ck_btext s = ck_board_text(&p->start), g = ck_board_text(&p->goal);
	if (form == FORM_START_ONLY && !sdb_board_equal(&p->goal, &std))
		form = FORM_SEMICOLON;
	switch (form) {
	case FORM_NUMBERS: ck_sb_printf(b, "%s %s\n", s.s, g.s); break;
	case FORM_SEMICOLON: ck_sb_query(b, &p->start, &p->goal); break;
	case FORM_COMPACT:
		ck_sb_printf(b, "%s %s\n", ck_board_compact(&p->start).s, ck_board_compact(&p->goal).s);
		break;
	default: ck_sb_printf(b, "%s\n", s.s); break;
	}
}

/* The JSON "path" array: every board one move from the previous, the first
 * the start, the last the goal, as many as the distance + 1. */
static void check_json_path(const char *obj, const pair *p, const char *where)
{
	const char *v = ck_json_value(obj, "path");
	cr_assert(v && *v == '[', "%s: no path array in %s", where, obj);
	v++;
	sdb_board prev = p->start;
	int k = 0;
	while (*v == '"') {
		const char *end = strchr(v + 1, '"');
		cr_assert(end, "%s: unterminated path board", where);
		char text[TEXT_MAX];
		snprintf(text, sizeof text, "%.*s", (int)(end - v - 1), v + 1);
		sdb_board b = ck_parse_board(text, p->start.w, p->start.h);
		if (k == 0)
			cr_assert(sdb_board_equal(&b, &p->start), "%s: path starts at '%s'", where, text);
		else
			cr_assert(move_between(&prev, &b), "%s: path step %d '%s' is not one move "
			          "from '%s'", where, k, text, ck_board_text(&prev).s);
		prev = b;
		k++;
		v = end + 1;
		if (*v == ',')
			v++;
	}
	cr_assert_eq(*v, ']', "%s: malformed path in %s", where, obj);
	cr_assert_eq(k, p->dist + 1, "%s: path of %d boards for distance %d", where, k, p->dist);
	cr_assert(sdb_board_equal(&prev, &p->goal), "%s: path ends at '%s', not the goal",
	          where, ck_board_text(&prev).s);
}

/* One JSON answer line against the expected pair. */
static void check_json_answer(const char *obj, const pair *p, int with_path, int index)
{
	char where[64], buf[TEXT_MAX], size[16];
	snprintf(where, sizeof where, "answer %d", index);
	cr_assert_eq(ck_json_str(obj, "start", buf, sizeof buf), 1, "%s: no start: %s", where, obj);
	cr_assert_str_eq(buf, ck_board_text(&p->start).s, "%s: start", where);
	cr_assert_eq(ck_json_str(obj, "goal", buf, sizeof buf), 1, "%s: no goal: %s", where, obj);
	cr_assert_str_eq(buf, ck_board_text(&p->goal).s, "%s: goal", where);
	snprintf(size, sizeof size, "%dx%d", p->start.w, p->start.h);
	cr_assert_eq(ck_json_str(obj, "size", buf, sizeof buf), 1, "%s: no size: %s", where, obj);
	cr_assert_str_eq(buf, size, "%s: size", where);
	long d = -2;
	if (p->dist < 0) {
		cr_assert_eq(ck_json_bool(obj, "solvable"), 0, "%s: should be unsolvable: %s", where,
		             obj);
		cr_assert_eq(ck_json_long(obj, "distance", &d), 0, "%s: distance not null: %s", where,
		             obj);
		cr_assert_eq(ck_json_str(obj, "best_move", buf, sizeof buf), 0, "%s: best_move not "
		             "null: %s", where, obj);
		cr_assert_eq(ck_json_str(obj, "moves", buf, sizeof buf), 0, "%s: moves not null: %s",
		             where, obj);
		if (with_path)
			cr_assert(ck_json_value(obj, "path") &&
			          !strncmp(ck_json_value(obj, "path"), "null", 4),
			          "%s: path not null: %s", where, obj);
		return;
	}
	cr_assert_eq(ck_json_bool(obj, "solvable"), 1, "%s: should be solvable: %s", where, obj);
	cr_assert_eq(ck_json_long(obj, "distance", &d), 1, "%s: no distance: %s", where, obj);
	cr_assert_eq(d, p->dist, "%s: distance %ld, the BFS says %d: %s", where, d, p->dist, obj);
	char moves[TEXT_MAX], best[8];
	cr_assert_eq(ck_json_str(obj, "moves", moves, sizeof moves), 1, "%s: no moves: %s", where,
	             obj);
	cr_assert_eq((long)strlen(moves), d, "%s: %zu moves for distance %ld", where,
	             strlen(moves), d);
	cr_assert(tk_replay(&p->start, moves, &p->goal), "%s: moves '%s' do not lead from '%s' "
	          "to '%s'", where, moves, ck_board_text(&p->start).s, ck_board_text(&p->goal).s);
	int bm = ck_json_str(obj, "best_move", best, sizeof best);
	if (d == 0) {
		cr_assert_eq(bm, 0, "%s: best_move should be null at the goal: %s", where, obj);
	} else {
		cr_assert_eq(bm, 1, "%s: no best_move: %s", where, obj);
		cr_assert(strlen(best) == 1 && best[0] == moves[0], "%s: best_move '%s' but moves "
		          "'%s'", where, best, moves);
	}
	if (with_path)
		check_json_path(obj, p, where);
}

/* One text answer (and its path lines) starting at lines[*i]; advances *i. */
static void check_text_answer(char **lines, int nlines, int *i, const pair *p, int with_path)
{
	cr_assert_lt(*i, nlines, "answer missing for '%s'", ck_board_text(&p->start).s);
	const char *head = lines[(*i)++];
	if (p->dist < 0) {
		cr_assert_str_eq(head, "unsolvable", "unsolvable pair answered '%s'", head);
		return;
	}
	int d;
	char best, moves[TEXT_MAX];
	cr_assert_eq(sscanf(head, "distance %d  best %c  moves %511s", &d, &best, moves), 3,
	             "malformed answer '%s'", head);
	cr_assert_eq(d, p->dist, "'%s': distance %d, the BFS says %d", head, d, p->dist);
	if (d == 0) {
		cr_assert(best == '-' && !strcmp(moves, "-"), "at the goal: '%s'", head);
		moves[0] = '\0';
	} else {
		cr_assert_eq((int)strlen(moves), d, "'%s': moves of the wrong length", head);
		cr_assert_eq(best, moves[0], "'%s': best is not the first move", head);
		cr_assert(tk_replay(&p->start, moves, &p->goal), "'%s' does not replay from '%s' to "
		          "'%s'", head, ck_board_text(&p->start).s, ck_board_text(&p->goal).s);
	}
	char expect[16];
	snprintf(expect, sizeof expect, "distance %d  ", d);
	cr_assert(!strncmp(head, expect, strlen(expect)), "'%s' is not of the documented form",
	          head);
	if (!with_path)
		return;
	sdb_board prev = p->start;
	for (int k = 0; k <= d; k++) {
		cr_assert_lt(*i, nlines, "path of '%s' cut short at %d", head, k);
		const char *line = lines[(*i)++];
		cr_assert(strlen(line) > 8, "path line '%s' too short", line);
		cr_assert_eq(atoi(line), k, "path line '%s' is not step %d", line, k);
		char letter = line[5];
		sdb_board b = ck_parse_board(line + 8, p->start.w, p->start.h);
		if (k == 0) {
			cr_assert(letter == ' ' && sdb_board_equal(&b, &p->start),
			          "path of '%s' does not begin with the start: '%s'", head, line);
		} else {
			cr_assert_eq(letter, moves[k - 1], "path line '%s': move is not move %d of '%s'",
			             line, k, moves);
			cr_assert_eq(move_between(&prev, &b), letter, "path line '%s' is not move '%c' "
			             "from '%s'", line, letter, ck_board_text(&prev).s);
		}
		prev = b;
	}
	cr_assert(sdb_board_equal(&prev, &p->goal), "path of '%s' ends at '%s', not the goal",
	          head, ck_board_text(&prev).s);
}

/* Whether the option words include the long or the short option. */
static int has_option(const char *opts, const char *lng, const char *shrt)
{
	char words[TEXT_MAX];
	snprintf(words, sizeof words, "%s", opts);
	for (char *save, *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save))
		if (!strcmp(w, lng) || !strcmp(w, shrt))
			return 1;
	return 0;
}

/* Send every pair as one batch (lines in rotating notations) and check every
 * answer. opts: extra options ("--json", "--path", ...). */
static void check_batch(const char *db, const pair *p, int count, const char *opts,
                        const int *forms, int nforms)
{
	ck_sbuf in = { 0 };
	for (int i = 0; i < count; i++)
		append_query(&in, &p[i], forms[i % nforms]);
	char *out, *err;
	int rc = ck_lookup(db, in.s, &out, &err, "%s", opts);
	cr_assert_eq(rc, 0, "batch '%s' failed: %s", opts, err);
	cr_assert_str_empty(err, "batch '%s' wrote to stderr: %s", opts, err);
	int json = has_option(opts, "--json", "-j"), path = has_option(opts, "--path", "-p");
	char **lines;
	int n = ck_split_lines(out, &lines);
	if (json) {
		cr_assert_eq(n, count, "%d JSON lines for %d queries", n, count);
		for (int i = 0; i < count; i++)
			check_json_answer(lines[i], &p[i], path, i);
	} else {
		int at = 0;
		for (int i = 0; i < count; i++)
			check_text_answer(lines, n, &at, &p[i], path);
		cr_assert_eq(at, n, "%d lines left over after the answers", n - at);
	}
	free(lines);
	free(out);
	free(err);
	free(in.s);
}

static const int ALL_FORMS[] = { FORM_NUMBERS, FORM_SEMICOLON, FORM_COMPACT, FORM_START_ONLY };

/* ------------------------------------------------------------------ */
/* 1. Seed samples                                                      */

Test(lookup_seed, seed004_poj1077_only_moves)
{
	char db[TEXT_MAX];
	tk_build_scratch(db, sizeof db, "3x3");
	sdb_board start = ck_parse_board("2 3 4 1 5 0 7 6 8", 3, 3), goal = ck_std_goal(3, 3);
	simple_bfs bfs;
	simple_bfs_run(&bfs, &goal);
	int dist = simple_bfs_dist(&bfs, &start);
	simple_bfs_free(&bfs);
	cr_assert(dist > 0 && dist <= 19, "the seed solves it in 19 moves; BFS says %d", dist);

	char *out, *err;
	int rc = ck_lookup(db, NULL, &out, &err, "--only moves '%s'",
	                   " 2  3  4  1  5  x  7  6  8 ");
	cr_assert_eq(rc, 0, "%s", err);
	cr_assert_eq(tk_lines(out), 1, "'%s'", out);
	out[strlen(out) - 1] = '\0';
	cr_assert(strspn(out, "udlr") == strlen(out), "'%s' is not a move string", out);
	cr_assert_leq((int)strlen(out), 19, "'%s' is longer than the seed's 19 moves", out);
	cr_assert_eq((int)strlen(out), dist, "'%s' is not optimal (BFS: %d)", out, dist);
	cr_assert(tk_replay(&start, out, &goal), "'%s' does not reach the goal", out);
	char first = out[0];
	free(out);
	free(err);

	/* The same line from stdin, and --only best / --only distance agree. */
	rc = ck_lookup(db, " 2  3  4  1  5  x  7  6  8 \n", &out, &err, "--only best");
	cr_assert_eq(rc, 0, "%s", err);
	cr_assert(strlen(out) == 2 && out[0] == first && out[1] == '\n', "--only best: '%s'", out);
	free(out);
	free(err);
	rc = ck_lookup(db, " 2  3  4  1  5  x  7  6  8 \n", &out, &err, "--only distance");
	cr_assert_eq(rc, 0, "%s", err);
	cr_assert_eq(atoi(out), dist, "--only distance: '%s'", out);
	free(out);
	free(err);
	ck_db_remove(db);
}

Test(lookup_seed, seed003_compact_pairs_match_bfs)
{
	char db[TEXT_MAX];
	tk_build_scratch(db, sizeof db, "3x3");
	const char *seed[][2] = { { "541203786", "123804765" }, { "013425786", "647850321" } };
	for (int i = 0; i < 2; i++) {
		pair p = { ck_parse_board(seed[i][0], 0, 0), ck_parse_board(seed[i][1], 0, 0), 0 };
		simple_bfs bfs;
		simple_bfs_run(&bfs, &p.goal);
		p.dist = simple_bfs_dist(&bfs, &p.start);
		simple_bfs_free(&bfs);
		/* As two arguments. */
		char *out, *err;
		int rc = ck_lookup(db, NULL, &out, &err, "%s %s", seed[i][0], seed[i][1]);
		cr_assert_eq(rc, 0, "%s %s: %s", seed[i][0], seed[i][1], err);
		char **lines;
		int n = ck_split_lines(out, &lines), at = 0;
		check_text_answer(lines, n, &at, &p, 0);
		cr_assert_eq(at, n);
		free(lines);
		free(out);
		free(err);
		/* As one stdin line of two words, in JSON. */
		char line[64];
		snprintf(line, sizeof line, "%s %s\n", seed[i][0], seed[i][1]);
		rc = ck_lookup(db, line, &out, &err, "--json");
		cr_assert_eq(rc, 0, "%s: %s", line, err);
		cr_assert_eq(tk_lines(out), 1);
		check_json_answer(out, &p, 0, i);
		free(out);
		free(err);
	}
	ck_db_remove(db);
}

Test(lookup_seed, seed001_nested_brackets_parse)
{
	char db[TEXT_MAX];
	tk_build_scratch(db, sizeof db, "3x3");
	pair p = { ck_parse_board("1 2 7 4 3 6 5 8 0", 3, 3), ck_std_goal(3, 3), 0 };
	simple_bfs bfs;
	simple_bfs_run(&bfs, &p.goal);
	p.dist = simple_bfs_dist(&bfs, &p.start);
	simple_bfs_free(&bfs);
	char *out, *err;
	int rc = ck_lookup(db, NULL, &out, &err, "--json --path '%s'", "[[1,2,7],[4,3,6],[5,8,0]]");
	cr_assert_eq(rc, 0, "%s", err);
	cr_assert_eq(tk_lines(out), 1, "'%s'", out);
	check_json_answer(out, &p, 1, 0);
	free(out);
	free(err);
	rc = ck_lookup(db, "[[1,2,7],[4,3,6],[5,8,0]]\n", &out, &err, "--json");
	cr_assert_eq(rc, 0, "%s", err);
	check_json_answer(out, &p, 0, 0);
	free(out);
	free(err);
	ck_db_remove(db);
}

/* ------------------------------------------------------------------ */
/* 2. Random pairs replayed                                             */

Test(lookup_replay, random_pairs_json_batch_matches_bfs)
{
	char db[TEXT_MAX];
	tk_build_scratch(db, sizeof db, "3x3");
	int count = 5 * 60;
	pair *p = random_pairs(3, 3, 5, 60, 20240601u);
	check_batch(db, p, count, "--json", ALL_FORMS, NFORMS);
	free(p);
	ck_db_remove(db);
}

Test(lookup_replay, random_pairs_text_batch_matches_bfs)
{
	char db[TEXT_MAX];
	tk_build_scratch(db, sizeof db, "3x3");
	int count = 5 * 40;
	pair *p = random_pairs(3, 3, 5, 40, 777u);
	check_batch(db, p, count, "", ALL_FORMS, NFORMS);
	check_batch(db, p, count, "-j", ALL_FORMS, NFORMS);
	free(p);
	ck_db_remove(db);
}

Test(lookup_replay, paths_text_and_json)
{
	char db[TEXT_MAX];
	tk_build_scratch(db, sizeof db, "3x3");
	int count = 5 * 12;
	pair *p = random_pairs(3, 3, 5, 12, 4242u);
	check_batch(db, p, count, "--path", ALL_FORMS, NFORMS);
	check_batch(db, p, count, "--path --json", ALL_FORMS, NFORMS);
	check_batch(db, p, count, "-p -j", ALL_FORMS, NFORMS);
	free(p);
	ck_db_remove(db);
}

Test(lookup_replay, sizes_2x3_3x2_2x4)
{
	static const int no_numbers[] = { FORM_SEMICOLON, FORM_COMPACT, FORM_START_ONLY };
	char db[TEXT_MAX];
	tk_build_scratch(db, sizeof db, "2x3");
	pair *p = random_pairs(2, 3, 3, 12, 11u);
	/* Only 2x3 tables: 6 cells are 2x3 without --size. */
	check_batch(db, p, 36, "--json", no_numbers, 3);
	check_batch(db, p, 36, "--size 2x3 --json --path", ALL_FORMS, NFORMS);
	check_batch(db, p, 36, "--size 2x3", ALL_FORMS, NFORMS);

	/* With 3x2 tables too, 6 cells need --size. */
	tk_build(db, "3x2", NULL);
	char *out, *err;
	int rc = ck_lookup(db, NULL, &out, &err, "%s", "1 2 3 4 5 0");
	ck_assert_bad_query(rc, out, err, "6 cells, 2x3 and 3x2 tables", "--size", "2x3", "3x2",
	                 NULL);
	free(out);
	free(err);
	pair *q = random_pairs(3, 2, 3, 12, 12u);
	check_batch(db, q, 36, "--size 3x2 --json", ALL_FORMS, NFORMS);
	check_batch(db, p, 36, "--size 2x3 --json", ALL_FORMS, NFORMS);
	free(p);
	free(q);
	ck_db_remove(db);

	tk_build_scratch(db, sizeof db, "2x4");
	p = random_pairs(2, 4, 3, 20, 13u);
	check_batch(db, p, 60, "--json --path", no_numbers, 3);
	check_batch(db, p, 60, "--size 2x4 --json", ALL_FORMS, NFORMS);
	rc = ck_lookup(db, NULL, &out, &err, "--size 4x2 %s", "1 2 3 4 5 6 7 0");
	ck_assert_bad_query(rc, out, err, "4x2 on a 2x4 database", "slidedb-gen full 4x2", NULL);
	free(out);
	free(err);
	free(p);
	ck_db_remove(db);
}

/* ------------------------------------------------------------------ */
/* 3. Unsolvable pairs and the goal itself                               */

Test(lookup_answers, unsolvable_pairs)
{
	char db[TEXT_MAX];
	tk_build_scratch(db, sizeof db, "3x3");
	int count = 3 * 8;
	pair *p = random_pairs(3, 3, 3, 8, 99u);
	simple_bfs bfs[3];
	for (int g = 0; g < 3; g++)
		simple_bfs_run(&bfs[g], &p[g * 8].goal);
	for (int i = 0; i < count; i++) {
		p[i].start = tk_swap_two_tiles(&p[i].start);
		cr_assert_eq(simple_bfs_dist(&bfs[i / 8], &p[i].start), -1,
		             "swapping two tiles should make it unreachable");
		p[i].dist = -1;
	}
	for (int g = 0; g < 3; g++)
		simple_bfs_free(&bfs[g]);
	check_batch(db, p, count, "--json", ALL_FORMS, NFORMS);
	check_batch(db, p, count, "--json --path", ALL_FORMS, NFORMS);
	check_batch(db, p, count, "--path", ALL_FORMS, NFORMS);
	free(p);
	ck_db_remove(db);
}

Test(lookup_answers, start_equals_goal)
{
	char db[TEXT_MAX];
	tk_build_scratch(db, sizeof db, "3x3");
	/* A goal with the blank in each of the 9 cells, with tiles in some order. */
	pair p[9];
	unsigned seed = 5;
	for (int c = 0; c < 9; c++) {
		sdb_board g;
		cr_assert_eq(sdb_board_goal(&g, 3, 3, c), 0);
		for (int k = 0; k < 6; k++) {   /* relabel: swap tiles pairwise, twice each */
			int a = (int)(rand_r(&seed) % 9), b = (int)(rand_r(&seed) % 9);
			if (g.cell[a] && g.cell[b]) {
				uint8_t t = g.cell[a];
				g.cell[a] = g.cell[b];
				g.cell[b] = t;
			}
		}
		p[c].start = p[c].goal = g;
		p[c].dist = 0;
	}
	check_batch(db, p, 9, "--json", ALL_FORMS, NFORMS);
	check_batch(db, p, 9, "--json --path", ALL_FORMS, NFORMS);
	check_batch(db, p, 9, "--path", ALL_FORMS, NFORMS);
	ck_db_remove(db);
}

/* ------------------------------------------------------------------ */
/* 5. Bad input and damaged databases                                    */

/* A file that is no slidedb database is refused with one line, exit 1, for
 * queries, info and verify. */
static void refused_everywhere(const char *path, const char *what)
{
	const char *cmds[] = { "1 2 3 4 5 6 7 0 8", "info", "verify", "--json info" };
	for (int i = 0; i < 4; i++) {
		char *out, *err;
		int rc = ck_lookup(path, NULL, &out, &err, "%s", cmds[i]);
		ck_assert_refused(rc, 1, out, err, what, path, NULL);
		free(out);
		free(err);
	}
}

/* An LMDB file of someone else (mdb_load, when installed); text, bytes and
 * a folder are in tests/cli/lookup-db.md. */
Test(lookup_db, a_foreign_lmdb_file_is_refused)
{
	char path[TEXT_MAX];
	tk_tmp_path(path, sizeof path, "foreign.lmdb");
	ck_foreign_lmdb(path);
	refused_everywhere(path, "a foreign LMDB file");
	ck_db_remove(path);
}

Test(lookup_db, truncated_database)
{
	char db[TEXT_MAX];
	tk_build_scratch(db, sizeof db, "3x3");
	struct stat st;
	cr_assert_eq(stat(db, &st), 0);
	cr_assert_eq(truncate(db, st.st_size / 2), 0);
	refused_everywhere(db, "a truncated database");
	char *out, *err;
	int rc = ck_lookup(db, "1 2 3 4 5 6 7 0 8\n", &out, &err, "%s", "--json");
	ck_assert_refused(rc, 1, out, err, "truncated, stdin", "truncated", NULL);
	free(out);
	free(err);
	/* Cut to one page and to a few bytes, too. */
	cr_assert_eq(truncate(db, 4096), 0);
	refused_everywhere(db, "a database cut to one page");
	cr_assert_eq(truncate(db, 100), 0);
	refused_everywhere(db, "a database cut to 100 bytes");
	ck_db_remove(db);
}

/* Where each table's entries lie in the file: found by their bytes. */
typedef struct table_spot {
	char name[SDB_NAME_MAX];
	sdb_board goal;
	size_t offset, size;
} table_spot;

static int find_tables(table_spot *spots, int cap, const char *path)
{
	size_t fsize;
	char *file = ck_read_file(path, &fsize);
	sdb_db *h;
	cr_assert_eq(sdb_db_open(&h, path, SDB_RDONLY), 0, "%s", sdb_error_detail());
	int n = sdb_table_count(h);
	cr_assert_leq(n, cap);
	for (int i = 0; i < n; i++) {
		const sdb_table *t = sdb_table_at(h, i);
		const sdb_table_info *in = sdb_table_meta(t);
		const uint8_t *data = sdb_table_data(t);
		cr_assert(data, "%s", sdb_error_detail());
		const char *at = memmem(file, fsize, data, in->states);
		cr_assert(at, "the entries of %s are not contiguous in the file", in->name);
		snprintf(spots[i].name, sizeof spots[i].name, "%s", in->name);
		spots[i].goal = in->goal;
		spots[i].offset = (size_t)(at - file);
		spots[i].size = in->states;
	}
	sdb_db_close(h);
	free(file);
	return n;
}

/* The answer of slidedb-lookup to one pair: 1 answered (out kept), 0 error. */
static int ask(const char *db, const char *opts, const sdb_board *s, const sdb_board *g,
               char **out)
{
	char *err;
	int rc = ck_lookup(db, NULL, out, &err, "%s '%s' '%s'", opts, ck_board_text(s).s,
	                   ck_board_text(g).s);
	cr_assert(rc == 0 || rc == 1, "exit %d: %s", rc, err);
	if (rc == 1) {
		ck_assert_one_line(err, "a query on a damaged table");
		if (strstr(opts, "--json"))
			cr_assert(tk_lines(*out) == 1 && ck_json_value(*out, "error"),
			          "a JSON error line expected, got '%s'", *out);
		else
			cr_assert(tk_lines(*out) == 1 && !strncmp(*out, "error: ", 7),
			          "one 'error: ' line expected, got '%s'", *out);
	} else {
		cr_assert_str_empty(err);
	}
	free(err);
	return rc == 0;
}

Test(lookup_db, altered_table_bytes_are_caught)
{
	char db[TEXT_MAX];
	tk_build_scratch(db, sizeof db, "3x3");
	table_spot spots[8];
	int nt = find_tables(spots, 8, db);
	cr_assert_eq(nt, 3);
	struct stat st;
	cr_assert_eq(stat(db, &st), 0);
	size_t mid = (size_t)st.st_size / 2;
	int t = 0;   /* the table in the middle of the file, else the first */
	for (int i = 0; i < nt; i++)
		if (mid >= spots[i].offset && mid + 16 < spots[i].offset + spots[i].size)
			t = i;
	if (mid < spots[t].offset || mid + 16 >= spots[t].offset + spots[t].size)
		mid = spots[t].offset + spots[t].size / 2;
	uint64_t first_rank = mid - spots[t].offset;
	enum { NFLIP = 16 };
	static const unsigned char FLIPS[2] = { 0x01, 0x40 };

	/* The states whose entries are about to change, and their true distances. */
	for (int c = 0; c < 9; c++)
		cr_assert_eq(sdb_sym_cell(3, 3, 0, c), c, "symmetry 0 should be the identity");
	sdb_board victims[NFLIP];
	int truth[NFLIP];
	simple_bfs bfs;
	simple_bfs_run(&bfs, &spots[t].goal);
	for (int k = 0; k < NFLIP; k++) {
		cr_assert_eq(sdb_board_unrank(&victims[k], 3, 3, sdb_rank_class(&spots[t].goal),
		                        first_rank + (uint64_t)k), 0);
		truth[k] = simple_bfs_dist(&bfs, &victims[k]);
		cr_assert_geq(truth[k], 0);
	}
	/* Random pairs answered before the damage, by every table. */
	pair *p = random_pairs(3, 3, 6, 30, 31337u);
	ck_sbuf in = { 0 };
	for (int i = 0; i < 180; i++)
		append_query(&in, &p[i], FORM_SEMICOLON);
	char *before, *err;
	cr_assert_eq(ck_lookup(db, in.s, &before, &err, "%s", "--json"), 0, "%s", err);
	free(err);

	/* Alter 16 entries in the middle of the file: every other one has its
	 * distance off by one (lowest bit), the others a different best move. */
	int fd = open(db, O_RDWR);
	cr_assert_geq(fd, 0);
	unsigned char bytes[NFLIP];
	cr_assert_eq(pread(fd, bytes, NFLIP, (off_t)mid), NFLIP);
	for (int k = 0; k < NFLIP; k++)
		bytes[k] ^= FLIPS[k % 2];
	cr_assert_eq(pwrite(fd, bytes, NFLIP, (off_t)mid), NFLIP);
	close(fd);

	/* verify names the damaged table and passes the others. */
	char *out;
	int rc = ck_lookup(db, NULL, &out, &err, "%s", "verify");
	cr_assert_eq(rc, 1, "verify of a damaged table exits %d", rc);
	ck_assert_one_line(err, "verify");
	cr_assert(strstr(err, spots[t].name), "verify does not name %s: '%s'", spots[t].name, err);
	cr_assert(strstr(out, "DAMAGED"), "'%s'", out);
	free(out);
	free(err);
	rc = ck_lookup(db, NULL, &out, &err, "%s", "verify --json");
	cr_assert_eq(rc, 1);
	char **lines;
	int n = ck_split_lines(out, &lines);
	cr_assert_eq(n, 3, "'%s'", out);
	for (int i = 0; i < n; i++) {
		char name[SDB_NAME_MAX];
		cr_assert_eq(ck_json_str(lines[i], "name", name, sizeof name), 1);
		int damaged = !strcmp(name, spots[t].name);
		cr_assert_eq(ck_json_bool(lines[i], "ok"), !damaged, "'%s'", lines[i]);
		if (damaged)
			cr_assert(ck_json_value(lines[i], "error"), "'%s'", lines[i]);
	}
	free(lines);
	free(out);
	free(err);

	/* The random pairs: each line is the same answer as before, or an error. */
	rc = ck_lookup(db, in.s, &out, &err, "%s", "--json");
	cr_assert(rc == 0 || rc == 1, "%s", err);
	char **was;
	int nb = ck_split_lines(before, &was);
	n = ck_split_lines(out, &lines);
	cr_assert_eq(n, nb);
	for (int i = 0; i < n; i++)
		if (!ck_json_value(lines[i], "error"))
			cr_assert_str_eq(lines[i], was[i], "a damaged table changed an answer");
	free(lines);
	free(was);
	free(out);
	free(err);
	free(before);
	free(in.s);
	free(p);

	/* The damaged states themselves, in every output mode: an error, or the
	 * true answer. Never a wrong distance or a wrong best move. The answers
	 * with moves are checked at once; --only distance and --only best are
	 * collected to report every wrong one. */
	ck_sbuf wrong = { 0 };
	int nwrong = 0;
	for (int k = 0; k < NFLIP; k++) {
		pair q = { victims[k], spots[t].goal, truth[k] };
		ck_btext st = ck_board_text(&q.start);
		if (ask(db, "--json", &q.start, &q.goal, &out))
			check_json_answer(out, &q, 0, k);
		free(out);
		if (ask(db, "", &q.start, &q.goal, &out)) {
			char **l;
			int nl = ck_split_lines(out, &l), at = 0;
			check_text_answer(l, nl, &at, &q, 0);
			free(l);
		}
		free(out);
		if (ask(db, "--only distance", &q.start, &q.goal, &out) && atoi(out) != truth[k]) {
			ck_sb_printf(&wrong, "\n  --only distance '%s' '%s' printed %d, the distance is "
			             "%d (entry XOR %#04x)", st.s, ck_board_text(&q.goal).s, atoi(out),
			             truth[k], FLIPS[k % 2]);
			nwrong++;
		}
		free(out);
		if (ask(db, "--only best", &q.start, &q.goal, &out)) {
			sdb_board b = q.start;
			int ok = truth[k] == 0 ? out[0] == '-'
			         : sdb_board_apply(&b, sdb_move_from_letter(out[0])) == 0 &&
			           simple_bfs_dist(&bfs, &b) == truth[k] - 1;
			if (!ok) {
				ck_sb_printf(&wrong, "\n  --only best '%s' '%s' printed '%c', not a best "
				             "move (entry XOR %#04x)", st.s, ck_board_text(&q.goal).s,
				             out[0], FLIPS[k % 2]);
				nwrong++;
			}
		}
		free(out);
	}
	simple_bfs_free(&bfs);
	ck_db_remove(db);
	cr_assert_eq(nwrong, 0, "%d wrong answers from the altered entries of %s:%s", nwrong,
	             spots[t].name, wrong.s);
	free(wrong.s);
}

/* ------------------------------------------------------------------ */
/* 6. info and verify                                                   */

/* The "counts" array of table `name` in `info --json` output. */
static int info_counts(const char *info, const char *name, uint64_t *counts, int cap)
{
	char pat[SDB_NAME_MAX + 16];
	snprintf(pat, sizeof pat, "{\"name\":\"%s\"", name);
	const char *p = strstr(info, pat);
	cr_assert(p, "info --json lacks table %s", name);
	const char *end = strchr(p + 1, '}');
	p = strstr(p, "\"counts\":[");
	cr_assert(p && p < end, "table %s has no counts", name);
	p += strlen("\"counts\":[");
	int n = 0;
	while (*p != ']') {
		char *e;
		unsigned long long v = strtoull(p, &e, 10);
		cr_assert(e != p && n < cap, "malformed counts of %s", name);
		counts[n++] = v;
		p = *e == ',' ? e + 1 : e;
	}
	return n;
}

Test(lookup_info, counts_are_oeis_a089473_and_match_bfs)
{
	char db[TEXT_MAX];
	tk_build_scratch(db, sizeof db, "3x3");
	char *out, *err;
	int rc = ck_lookup(db, NULL, &out, &err, "%s", "info --json");
	cr_assert_eq(rc, 0, "%s", err);
	cr_assert_str_empty(err);
	cr_assert_eq(tk_lines(out), 1, "info --json is one line: '%s'", out);
	cr_assert(strstr(out, "\"tables\":["), "'%s'", out);
	uint64_t counts[SDB_MAX_DISTANCE];
	int n = info_counts(out, "full-3x3-b0", counts, SDB_MAX_DISTANCE);
	int want = TK_A089473_LEN;
	cr_assert_eq(n, want, "full-3x3-b0 has %d distances, OEIS A089473 has %d", n, want);
	for (int d = 0; d < n; d++)
		cr_assert_eq(counts[d], tk_a089473[d], "distance %d: %llu states, A089473 says %llu", d,
		             (unsigned long long)counts[d], (unsigned long long)tk_a089473[d]);

	/* Every table: counts equal to the simple BFS from its goal. */
	const char *names[] = { "full-3x3-b0", "full-3x3-b1", "full-3x3-b4" };
	const int blanks[] = { 0, 1, 4 };
	for (int i = 0; i < 3; i++) {
		n = info_counts(out, names[i], counts, SDB_MAX_DISTANCE);
		sdb_board g;
		cr_assert_eq(sdb_board_goal(&g, 3, 3, blanks[i]), 0);
		simple_bfs bfs;
		simple_bfs_run(&bfs, &g);
		cr_assert_eq(n, bfs.max + 1, "%s: %d distances, BFS %d", names[i], n, bfs.max + 1);
		for (int d = 0; d < n; d++)
			cr_assert_eq(counts[d], bfs.counts[d], "%s distance %d", names[i], d);
		simple_bfs_free(&bfs);
		char goal[256];
		snprintf(goal, sizeof goal, "\"goal\":\"%s\"", ck_board_text(&g).s);
		cr_assert(strstr(out, goal), "info lacks %s", goal);
	}
	int ntables = 0;
	for (const char *p = out; (p = strstr(p, "\"name\":")); p++)
		ntables++;
	cr_assert_eq(ntables, 3, "info --json lists %d tables", ntables);
	free(out);
	free(err);

	/* Text info: the tables and the same counts. */
	rc = ck_lookup(db, NULL, &out, &err, "%s", "info");
	cr_assert_eq(rc, 0, "%s", err);
	cr_assert(strstr(out, "3 tables"), "'%s'", out);
	for (int i = 0; i < 3; i++)
		cr_assert(strstr(out, names[i]), "info lacks %s", names[i]);
	ck_sbuf line = { 0 };
	ck_sb_printf(&line, "  counts");
	for (int d = 0; d < want; d++)
		ck_sb_printf(&line, " %llu", (unsigned long long)tk_a089473[d]);
	ck_sb_printf(&line, "\n");
	cr_assert(strstr(out, line.s), "info lacks '%s'", line.s);
	free(line.s);
	free(out);
	free(err);
	ck_db_remove(db);
}

/* ------------------------------------------------------------------ */
/* 7. The version (help, $SLIDEDB_DB, shapes, input never cut, a full
 * standard output, UTF-8 in JSON: tests/cli/lookup-batch.md, lookup-db.md) */

/* The version printed is the library's. */
Test(lookup_cli, version_is_the_library_s)
{
	ck_assert_version(SLIDEDB_LOOKUP);
}

/* A reader that cannot write the lock file (a root-owned database read by
 * other users) would read without the protection of a registered snapshot,
 * and a writer would reuse the pages it reads: it is refused, saying what
 * to change. Run as an unprivileged user (nobody) with setpriv. */
Test(lookup_db, reader_without_a_writable_lock_file_is_refused)
{
	char dir[] = "/tmp/slidedb-lock-XXXXXX", db[128], cmd[1024];
	cr_assert(mkdtemp(dir));
	cr_assert_eq(chmod(dir, 0755), 0);
	snprintf(db, sizeof db, "%s/shared.lmdb", dir);
	tk_build(db, "2x2", NULL);
	snprintf(cmd, sizeof cmd, "chmod 644 '%s' '%s-lock'", db, db);
	cr_assert_eq(system(cmd), 0);
	char *out, *err;
	snprintf(cmd, sizeof cmd, "setpriv --reuid=65534 --regid=65534 --clear-groups %s --db '%s' "
	         "'1 2 0 3'", SLIDEDB_LOOKUP, db);
	int rc = tk_run(cmd, NULL, &out, &err);
	cr_assert_eq(rc, 1, "answered without a lock: '%s' '%s'", out, err);
	cr_assert_str_empty(out);
	ck_assert_one_line(err, "lock file not writable");
	cr_assert(strstr(err, "lock file") && strstr(err, "chmod a+rw"), "%s", err);
	free(out);
	free(err);
	/* made writable for readers, as the message says: answered */
	snprintf(cmd, sizeof cmd, "chmod a+rw '%s-lock'", db);
	cr_assert_eq(system(cmd), 0);
	snprintf(cmd, sizeof cmd, "setpriv --reuid=65534 --regid=65534 --clear-groups %s --db '%s' "
	         "--only moves '1 2 0 3'", SLIDEDB_LOOKUP, db);
	rc = tk_run(cmd, NULL, &out, &err);
	cr_assert_eq(rc, 0, "%s", err);
	cr_assert_str_eq(out, "r\n");
	free(out);
	free(err);
	ck_db_remove(db);
	rmdir(dir);
}

/* JSON strings are scanned a word at a time for bytes to escape: every byte
 * value at every place of strings around the word's size is escaped as a
 * byte-by-byte encoder does (a lone byte from 0x80 is not UTF-8: U+FFFD). */
Test(lookup_batch, json_strings_escape_every_byte_at_every_place)
{
	for (size_t len = 1; len <= 19; len++)
		for (size_t at = 0; at < len; at++)
			for (int b = 1; b < 256; b++) {
				char text[24];
				memset(text, 'a', len);
				text[len] = '\0';
				text[at] = (char)b;
				char want[64];
				size_t n = 0;
				want[n++] = '"';
				for (size_t i = 0; i < len; i++) {
					const unsigned char c = (unsigned char)text[i];
					if (c == '"' || c == '\\')
						n += (size_t)sprintf(want + n, "\\%c", c);
					else if (c < 0x20 || c == 0x7f)
						n += (size_t)sprintf(want + n, "\\u%04x", c);
					else if (c >= 0x80)
						n += (size_t)sprintf(want + n, "\\ufffd");
					else
						want[n++] = (char)c;
				}
				want[n++] = '"';
				want[n] = '\0';
				out o = { 0 };
				out_json_mem(&o, text, len);
				out_char(&o, '\0');
				cr_assert_str_eq(o.buf, want, "byte %#x at %zu of %zu", b, at, len);
				out_free(&o);
			}
}

/* states: every state of the distances asked, once each, with the distance
 * of a simple BFS; a two-bit table is refused with the command that builds
 * one of whole distances. */
static void states_match_bfs(const char *db, const sdb_board *goal, const char *args, int lo,
                             int hi)
{
	char *out, *err;
	cr_assert_eq(ck_lookup(db, NULL, &out, &err, "states %s", args), 0, "%s", err);
	simple_bfs s;
	simple_bfs_run(&s, goal);
	uint64_t want = 0;
	for (int d = lo; d <= hi && d < 64; d++)
		want += s.counts[d];
	char **lines;
	int n = ck_split_lines(out, &lines);
	cr_assert_eq((uint64_t)n, want, "states %s: %d lines, %llu states", args, n,
	             (unsigned long long)want);
	uint8_t *seen = calloc(s.cap, 1);
	for (int i = 0; i < n; i++) {
		char *tab = strchr(lines[i], '\t');
		cr_assert_not_null(tab, "'%s'", lines[i]);
		*tab = '\0';
		sdb_board b = ck_parse_board(lines[i], goal->w, goal->h);
		const int d = atoi(tab + 1);
		cr_assert_eq(d, simple_bfs_dist(&s, &b), "'%s': distance %d", lines[i], d);
		cr_assert(d >= lo && d <= hi);
		const uint64_t slot = simple_bfs_slot(&s, &b);
		cr_assert(!seen[slot], "'%s' listed twice", lines[i]);
		seen[slot] = 1;
	}
	free(seen);
	free(lines);
	simple_bfs_free(&s);
	free(out);
	free(err);
}

Test(lookup_states, every_state_once_with_its_distance)
{
	char db[TEXT_MAX];
	tk_tmp_path(db, sizeof db, "states.lmdb");
	tk_build(db, "2x3", NULL);
	sdb_board goal = ck_std_goal(2, 3), other;
	states_match_bfs(db, &goal, "--size 2x3", 0, 63);
	states_match_bfs(db, &goal, "--size 2x3 --distance 7", 7, 7);
	states_match_bfs(db, &goal, "--size 2x3 --min-distance 5 --max-distance 9", 5, 9);
	other = ck_parse_board("1 0 2 3 4 5", 2, 3);
	states_match_bfs(db, &other, "--size 2x3 --goal '1 0 2 3 4 5' --max-distance 4", 0, 4);
	ck_db_remove(db);
}

/* ------------------------------------------------------------------ */
/* Ctrl-C                                                               */

/* slidedb-lookup on db, reading lines from a pipe kept open (the run never
 * sees the end of its input), with stdout and stderr in files. */
typedef struct child {
	pid_t pid;
	int in;   /* the pipe's writing end */
	char out[TEXT_MAX], err[TEXT_MAX];
} child;

static void child_start(child *c, const char *db, const char *lines, const char *const *args)
{
	tk_tmp_path(c->out, sizeof c->out, "sigint-out");
	tk_tmp_path(c->err, sizeof c->err, "sigint-err");
	ck_write_file(c->out, "", 0);
	ck_write_file(c->err, "", 0);
	int fds[2];
	cr_assert_eq(pipe(fds), 0);
	fflush(NULL);
	c->pid = fork();
	cr_assert_geq(c->pid, 0);
	if (c->pid == 0) {
		const char *argv[16] = { SLIDEDB_LOOKUP, "--db", db };
		int n = 3;
		while (*args && n < 15)
			argv[n++] = *args++;
		argv[n] = NULL;
		signal(SIGINT, SIG_DFL);
		prctl(PR_SET_PDEATHSIG, SIGKILL);   /* a failed test leaves no search behind */
		dup2(fds[0], 0);
		close(fds[1]);
		if (dup2(open(c->out, O_WRONLY), 1) < 0 || dup2(open(c->err, O_WRONLY), 2) < 0)
			_exit(99);
		execv(SLIDEDB_LOOKUP, (char **)argv);
		_exit(98);
	}
	close(fds[0]);
	c->in = fds[1];
	cr_assert_eq(write(c->in, lines, strlen(lines)), (ssize_t)strlen(lines));
}

/* Wait (up to 60 s) until the child's file holds text. */
static void child_wait_for(const child *c, const char *path, const char *text)
{
	for (int i = 0; i < 6000; i++) {
		char *s = ck_read_file(path, NULL);
		const int seen = s && strstr(s, text);
		free(s);
		if (seen)
			return;
		usleep(10000);
	}
	cr_assert_fail("pid %d never wrote '%s' to %s", (int)c->pid, text, path);
}

static int child_end(child *c, char **out, char **err)
{
	int status;
	cr_assert_eq(waitpid(c->pid, &status, 0), c->pid);
	close(c->in);
	*out = ck_read_file(c->out, NULL);
	*err = ck_read_file(c->err, NULL);
	unlink(c->out);
	unlink(c->err);
	return status;
}

/* Ctrl-C during a long search stops it: the answers before it are written,
 * then one line on stderr says where the search had got (its line, bound,
 * nodes, seconds), and the exit status is 130 (the signal killed the
 * program before, without a word). Without a search under way it ends the
 * program as the signal does. */
Test(lookup_cli, ctrl_c_stops_a_search_with_a_summary, .timeout = 120)
{
	char db[TEXT_MAX];
	tk_build_scratch(db, sizeof db, "3x3");   /* no set for 4x4: a search on Manhattan, hours */
	const char *lines = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\n"
	                    "0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1\n"
	                    "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0\n";
	static const char *const args[] = { "--timeout", "0", "-t", "2", NULL };
	child c;
	child_start(&c, db, lines, args);
	child_wait_for(&c, c.err, "searching with Manhattan");
	usleep(300000);   /* the search under way */
	kill(c.pid, SIGINT);
	char *out, *err;
	int status = child_end(&c, &out, &err);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 130, "status %#x: %s", status, err);
	cr_assert_str_eq(out, "distance 1  best r  moves r\n");
	const char *said = strstr(err, "slidedb-lookup: interrupted: line 2: the search reached bound ");
	cr_assert(said, "%s", err);
	int bound = 0;
	unsigned long long nodes = 0;
	double seconds = 0;
	cr_assert_eq(sscanf(said, "slidedb-lookup: interrupted: line 2: the search reached bound %d, "
	                    "%llu nodes in %lf s\n", &bound, &nodes, &seconds), 3, "%s", said);
	cr_assert(bound >= 50 && bound <= 80 && bound % 2 == 0 && nodes > 0 && seconds > 0.2,
	          "%s", said);
	cr_assert_eq(tk_lines(said), 1, "one line: %s", said);
	free(out);
	free(err);
	/* waiting for input, no search: the signal's own end */
	child_start(&c, db, "1 2 3 4 5 6 7 0 8\n", args + 4);
	child_wait_for(&c, c.out, "distance 1");
	kill(c.pid, SIGINT);
	status = child_end(&c, &out, &err);
	cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT, "status %#x", status);
	cr_assert_str_empty(err);
	free(out);
	free(err);
	ck_db_remove(db);
}
