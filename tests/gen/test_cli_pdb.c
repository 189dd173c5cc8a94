/* SPDX-License-Identifier: MIT */
/* End-to-end tests of pattern databases through both programs:
 *  - slidedb-gen pdb: set and table names, sizes in both blank modes, the
 *    JSON report against info;
 *  - slidedb-lookup on 4x4: IDA* on a set (5-5-5, and a set for the centre
 *    class built with --goal) or on the Manhattan fallback, answers replayed
 *    move by move and checked for optimality against a small independent
 *    IDA* written here; batches on several threads; node and time limits;
 *  - slidedb-gen export / import: round trips, and damaged files refused
 *    with the target database left as it was.
 * Bad input (tests/cli/pdb-errors.md), foreign files and bad exports, the
 * fallback's note, the limit an error names and the text report are plain
 * output: tests/cli/pdb-transfer.md.
 *
 * The 5-5-5 set is built once (pdb_4x4.answers_with_sets); every other test
 * uses 3x3 sets or 4x4 groups of at most four tiles, built in milliseconds. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kit/boards.h"
#include "kit/files.h"
#include "kit/json.h"
#include "kit/messages.h"
#include "kit/oracle.h"
#include "kit/run.h"
#include "kit/text.h"

enum { CMD_MAX = 8192, PATH_LEN = 512, MAX_TABLES = 64, OBJ_MAX = 4096 };

/* ------------------------------------------------------------------ */
/* Running the programs                                                 */

/* A shell command that must succeed (gzip and friends). It runs in a
 * subshell: its own redirections win over those tk_run adds. */
static void shell(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void shell(const char *fmt, ...)
{
	char cmd[CMD_MAX];
	va_list ap;
	va_start(ap, fmt);
	cmd[0] = '(';
	int n = vsnprintf(cmd + 1, sizeof cmd - 4, fmt, ap);
	va_end(ap);
	cr_assert(n > 0 && (size_t)n < sizeof cmd - 4);
	strcat(cmd, " )");
	char *err;
	int rc = tk_run(cmd, NULL, NULL, &err);
	cr_assert_eq(rc, 0, "'%s' failed: %s", cmd, err);
	free(err);
}

/* An additive set built quietly; must succeed and print nothing. */
static void build_pdb(const char *db, const char *size, const char *spec, const char *extra)
{
	char *out, *err;
	int rc = ck_gen(db, &out, &err, "pdb %s --partition '%s' -q %s", size, spec,
	                extra ? extra : "");
	cr_assert_eq(rc, 0, "pdb %s --partition %s %s: exit %d: %s", size, spec,
	             extra ? extra : "", rc, err);
	cr_assert_str_empty(out, "-q prints nothing, got '%s'", out);
	free(out);
	free(err);
}

/* ------------------------------------------------------------------ */
/* The catalog as slidedb-lookup info --json prints it                  */

typedef struct tinfo {
	char name[64], kind[32], crc[16];
	long states, max_distance;
	uint64_t count_sum;
	int ncounts;
	char obj[OBJ_MAX];    /* the whole JSON object */
} tinfo;

typedef struct catalog {
	int n;
	tinfo t[MAX_TABLES];
} catalog;

static catalog *info_tables(const char *db)
{
	char *out, *err;
	int rc = ck_lookup(db, NULL, &out, &err, "info --json");
	cr_assert_eq(rc, 0, "info --json: exit %d: %s", rc, err);
	catalog *c = calloc(1, sizeof *c);
	cr_assert(c);
	const char *p = strstr(out, "\"tables\":[");
	cr_assert(p, "info --json has no tables array: %s", out);
	p += strlen("\"tables\":[");
	while (*p == '{') {
		const char *end = strchr(p, '}');   /* flat objects: arrays, no objects */
		cr_assert(end, "unterminated table object");
		cr_assert_lt(c->n, MAX_TABLES);
		tinfo *x = &c->t[c->n++];
		size_t len = (size_t)(end - p + 1);
		cr_assert_lt(len, sizeof x->obj);
		memcpy(x->obj, p, len);
		x->obj[len] = '\0';
		cr_assert_eq(ck_json_str(x->obj, "name", x->name, sizeof x->name), 1, "%s", x->obj);
		cr_assert_eq(ck_json_str(x->obj, "kind", x->kind, sizeof x->kind), 1, "%s", x->obj);
		cr_assert_eq(ck_json_str(x->obj, "crc32", x->crc, sizeof x->crc), 1, "%s", x->obj);
		cr_assert_eq(ck_json_long(x->obj, "states", &x->states), 1, "%s", x->obj);
		cr_assert_eq(ck_json_long(x->obj, "max_distance", &x->max_distance), 1, "%s", x->obj);
		const char *q = ck_json_value(x->obj, "counts");
		cr_assert(q && *q == '[', "no counts: %s", x->obj);
		for (q++; *q != ']';) {
			char *e;
			x->count_sum += strtoull(q, &e, 10);
			cr_assert(e != q, "malformed counts: %s", x->obj);
			x->ncounts++;
			q = *e == ',' ? e + 1 : e;
		}
		p = end + 1;
		if (*p == ',')
			p++;
	}
	cr_assert_eq(*p, ']', "malformed tables array: %s", out);
	free(out);
	free(err);
	return c;
}

static const tinfo *find_table(const catalog *c, const char *name)
{
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->t[i].name, name))
			return &c->t[i];
	return NULL;
}

/* The tables whose names start with prefix, counted. */
static int count_prefixed(const catalog *c, const char *prefix)
{
	int n = 0;
	for (int i = 0; i < c->n; i++)
		n += !strncmp(c->t[i].name, prefix, strlen(prefix));
	return n;
}

/* Same tables, same metadata, same entries (CRC-32). */
static void assert_same_catalog(const catalog *a, const catalog *b, const char *what)
{
	cr_assert_eq(a->n, b->n, "%s: %d tables, then %d", what, a->n, b->n);
	for (int i = 0; i < a->n; i++)
		cr_assert_str_eq(a->t[i].obj, b->t[i].obj, "%s: table %d changed", what, i);
}

/* The set of the table "SET/gK". */
static void set_of(char *set, size_t cap, const char *table)
{
	const char *slash = strrchr(table, '/');
	cr_assert(slash && slash[1] == 'g', "'%s' is not a pattern table name", table);
	snprintf(set, cap, "%.*s", (int)(slash - table), table);
}

/* The one set whose name starts with prefix: its name and group count, and
 * its tables are exactly SET/g0 .. SET/g(n-1). */
static int find_set(char *set, size_t cap, const catalog *c, const char *prefix)
{
	set[0] = '\0';
	for (int i = 0; i < c->n; i++)
		if (!strncmp(c->t[i].name, prefix, strlen(prefix))) {
			char s[64];
			set_of(s, sizeof s, c->t[i].name);
			cr_assert(!set[0] || !strcmp(s, set), "two sets start with %s: %s, %s", prefix,
			          set, s);
			snprintf(set, cap, "%s", s);
		}
	cr_assert(set[0], "no set named %s...", prefix);
	int n = count_prefixed(c, set);
	for (int g = 0; g < n; g++) {
		char name[80];
		snprintf(name, sizeof name, "%s/g%d", set, g);
		cr_assert(find_table(c, name), "set %s has %d tables but no %s", set, n, name);
	}
	return n;
}

/* ------------------------------------------------------------------ */
/* Boards                                                               */

/* Exactly `steps` legal moves from goal, never undoing the previous one. */
static sdb_board walk(const sdb_board *goal, int steps, unsigned *seed)
{
	sdb_board b = *goal;
	for (int i = 0, prev = -1; i < steps;) {
		int m = (int)(rand_r(seed) % 4);
		if ((prev >= 0 && m == (prev ^ 1)) || sdb_board_apply(&b, m))
			continue;
		prev = m;
		i++;
	}
	return b;
}

static int cell_dist(int w, int a, int b)
{
	return abs(a % w - b % w) + abs(a / w - b / w);
}

/* Sum over the tiles of the cells between where they are and where goal
 * has them. Every heuristic of slidedb is at least this. */
static int manhattan(const sdb_board *b, const sdb_board *goal)
{
	int where[SDB_MAX_CELLS], sum = 0;
	for (int c = 0; c < goal->n; c++)
		where[goal->cell[c]] = c;
	for (int c = 0; c < b->n; c++)
		if (b->cell[c])
			sum += cell_dist(b->w, c, where[b->cell[c]]);
	return sum;
}

/* --- An independent optimal solver: plain IDA* on the Manhattan distance,
 * for boards a few dozen moves from their goal. */
typedef struct mini_ida {
	sdb_board b;
	int goal_cell[SDB_MAX_CELLS];
	int next;
	uint64_t nodes;
} mini_ida;

static int mini_dfs(mini_ida *s, int g, int h, int bound, int prev)
{
	int f = g + h;
	if (f > bound) {
		if (f < s->next)
			s->next = f;
		return 0;
	}
	if (h == 0)   /* every tile home: the blank too */
		return 1;
	cr_assert_lt(++s->nodes, 200000000ull, "the independent IDA* is lost");
	for (int m = 0; m < 4; m++) {
		int from = s->b.blank;
		if ((prev >= 0 && m == (prev ^ 1)) || sdb_board_apply(&s->b, m))
			continue;
		int tile = s->b.cell[from];   /* it came from the blank's new cell */
		int nh = h - cell_dist(s->b.w, s->b.blank, s->goal_cell[tile]) +
		         cell_dist(s->b.w, from, s->goal_cell[tile]);
		if (mini_dfs(s, g + 1, nh, bound, m))
			return 1;
		sdb_board_apply(&s->b, m ^ 1);
	}
	return 0;
}

static int mini_distance(const sdb_board *start, const sdb_board *goal)
{
	mini_ida s;
	memset(&s, 0, sizeof s);
	s.b = *start;
	for (int c = 0; c < goal->n; c++)
		s.goal_cell[goal->cell[c]] = c;
	int h = manhattan(start, goal);
	for (int bound = h;; bound = s.next) {
		cr_assert_lt(bound, 80, "the independent IDA* found no path");
		s.next = INT_MAX;
		if (mini_dfs(&s, 0, h, bound, -1))
			return bound;
	}
}

/* ------------------------------------------------------------------ */
/* 4x4 queries and their JSON answers                                   */

typedef struct query4 {
	sdb_board start, goal;
	int steps;    /* length of the walk from the goal */
	int exact;    /* distance by mini_distance(), or -1 if not computed */
} query4;

/* n walks from goal; the first `exact` of them get the independent distance. */
static void add_walks(query4 *q, int *count, const sdb_board *goal, int n, int lo, int hi,
                      int exact, unsigned *seed)
{
	for (int i = 0; i < n; i++) {
		query4 *x = &q[(*count)++];
		x->goal = *goal;
		x->steps = lo + (int)(rand_r(seed) % (unsigned)(hi - lo + 1));
		x->start = walk(goal, x->steps, seed);
		x->exact = i < exact ? mini_distance(&x->start, goal) : -1;
	}
}

static char *query_lines(const query4 *q, int n)
{
	ck_sbuf b = { 0 };
	for (int i = 0; i < n; i++)
		ck_sb_query(&b, &q[i].start, &q[i].goal);
	return b.s;
}

/* One JSON answer of a searched (4x4) query. */
static void check_answer(const char *obj, const query4 *q, int index)
{
	char moves[256], buf[256];
	long d = -1, h = -1, nodes = -1;
	cr_assert_eq(ck_json_str(obj, "start", buf, sizeof buf), 1, "answer %d: %s", index, obj);
	cr_assert_str_eq(buf, ck_board_text(&q->start).s, "answer %d: start (order kept?)", index);
	cr_assert_eq(ck_json_str(obj, "goal", buf, sizeof buf), 1, "answer %d: %s", index, obj);
	cr_assert_str_eq(buf, ck_board_text(&q->goal).s, "answer %d: goal", index);
	cr_assert(strstr(obj, "\"solvable\":true"), "answer %d: %s", index, obj);
	cr_assert_eq(ck_json_long(obj, "distance", &d), 1, "answer %d: no distance: %s", index,
	             obj);
	cr_assert_eq(ck_json_str(obj, "moves", moves, sizeof moves), 1, "answer %d: %s", index,
	             obj);
	cr_assert_eq((long)strlen(moves), d, "answer %d: %zu moves for distance %ld", index,
	             strlen(moves), d);
	cr_assert(tk_replay(&q->start, moves, &q->goal), "answer %d: moves '%s' do not lead "
	          "from %s to %s", index, moves, ck_board_text(&q->start).s,
	          ck_board_text(&q->goal).s);
	cr_assert_leq(d, q->steps, "answer %d: distance %ld, but a walk of %d moves made it",
	              index, d, q->steps);
	cr_assert_eq((q->steps - d) % 2, 0, "answer %d: distance %ld and walk %d differ in parity",
	             index, d, q->steps);
	if (q->exact >= 0)
		cr_assert_eq(d, q->exact, "answer %d: distance %ld for %s -> %s, an independent "
		             "IDA* finds %d", index, d, ck_board_text(&q->start).s,
		             ck_board_text(&q->goal).s, q->exact);
	if (d == 0) {
		cr_assert_eq(ck_json_str(obj, "best_move", buf, sizeof buf), 0, "answer %d: %s",
		             index, obj);
	} else {
		cr_assert_eq(ck_json_str(obj, "best_move", buf, sizeof buf), 1, "answer %d: %s",
		             index, obj);
		cr_assert_eq(buf[0], moves[0], "answer %d: best move is not the first move", index);
	}
	cr_assert_eq(ck_json_long(obj, "nodes", &nodes), 1, "answer %d: no nodes: %s", index, obj);
	cr_assert_eq(ck_json_long(obj, "heuristic", &h), 1, "answer %d: no heuristic: %s", index,
	             obj);
	cr_assert_leq(h, d, "answer %d: heuristic %ld above the distance %ld", index, h, d);
	cr_assert_geq(h, manhattan(&q->start, &q->goal), "answer %d: heuristic %ld below the "
	              "Manhattan distance %d", index, h, manhattan(&q->start, &q->goal));
	cr_assert_geq(nodes, d, "answer %d: %ld nodes cannot find %ld moves", index, nodes, d);
}

static void check_answers(char *out, const query4 *q, int n)
{
	char **v;
	int lines = ck_split_lines(out, &v);
	cr_assert_eq(lines, n, "%d answers for %d queries", lines, n);
	for (int i = 0; i < n; i++)
		check_answer(v[i], &q[i], i);
	free(v);
}

/* ------------------------------------------------------------------ */
/* The library's view of a set, over every state of 3x3                */

/* Run fn on every state reachable from goal with its BFS distance. */
typedef void state_fn(void *ctx, const sdb_board *b, int dist);

static void every_state(const sdb_board *goal, state_fn *fn, void *ctx)
{
	simple_bfs bfs;
	simple_bfs_run(&bfs, goal);
	for (uint64_t i = 0; i < bfs.cap; i++)
		if (bfs.keys[i]) {
			sdb_board b;
			tk_unpack(&b, bfs.w, bfs.h, bfs.keys[i]);
			fn(ctx, &b, bfs.dist[i]);
		}
	simple_bfs_free(&bfs);
}

typedef struct hcheck {
	const sdb_heuristic *h, *weaker;   /* weaker: NULL, or a set never above h */
	int exact;                         /* h must equal the distance */
	int consistent;                    /* a move changes h by at most one */
	uint64_t states, sum;
} hcheck;

/* Admissible (never above the distance) and 0 at the goal; if asked,
 * consistent, exact, or never below another set. Region-mode sets are
 * consistent: a move changes one group's abstract state by one move, and
 * the others' not at all (the blank stays in their region). A minimum over
 * regions need not be: it is only admissible. */
static void check_state(void *ctx, const sdb_board *b, int dist)
{
	hcheck *c = ctx;
	int v = sdb_heuristic_value(c->h, b);
	cr_assert(v >= 0 && v <= dist, "%s: %d at %s, distance %d", sdb_heuristic_name(c->h), v,
	          ck_board_text(b).s, dist);
	cr_assert(dist > 0 || v == 0, "%s: %d at the goal", sdb_heuristic_name(c->h), v);
	if (c->exact)
		cr_assert_eq(v, dist, "%s: %d at %s, distance %d (one group of every tile is exact)",
		             sdb_heuristic_name(c->h), v, ck_board_text(b).s, dist);
	if (c->weaker) {
		int w = sdb_heuristic_value(c->weaker, b);
		cr_assert_leq(w, v, "%s gives %d at %s, above %s's %d", sdb_heuristic_name(c->weaker),
		              w, ck_board_text(b).s, sdb_heuristic_name(c->h), v);
	}
	for (int m = 0; m < 4 && c->consistent; m++) {
		sdb_board nb = *b;
		if (sdb_board_apply(&nb, m))
			continue;
		int nv = sdb_heuristic_value(c->h, &nb);
		cr_assert(abs(nv - v) <= 1, "%s: %d at %s but %d one move away", sdb_heuristic_name(c->h),
		          v, ck_board_text(b).s, nv);
	}
	c->states++;
	c->sum += (uint64_t)v;
}

/* Check the set `set` of the database at path on every 3x3 state (see
 * check_state). Returns the sum of its values (a measure of strength). */
static uint64_t check_set_3x3(const char *path, const char *set, const char *weaker, int exact,
                              int consistent)
{
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0, "%s", sdb_error_detail());
	sdb_board goal = ck_std_goal(3, 3);
	hcheck c = { 0 };
	sdb_heuristic *h, *hw = NULL;
	cr_assert_eq(sdb_heuristic_open(&h, db, &goal, set), 0, "set %s: %s", set, sdb_error_detail());
	cr_assert_str_eq(sdb_heuristic_name(h), set);
	if (weaker)
		cr_assert_eq(sdb_heuristic_open(&hw, db, &goal, weaker), 0, "%s", sdb_error_detail());
	c.h = h;
	c.weaker = hw;
	c.exact = exact;
	c.consistent = consistent;
	every_state(&goal, check_state, &c);
	cr_assert_eq(c.states, 181440);
	sdb_heuristic_close(h);
	sdb_heuristic_close(hw);
	sdb_db_close(db);
	return c.sum;
}

/* The set's name spells the groups in the user's tiles (the goal's): tiles
 * in order, groups by their smallest tile, '_' between groups; a spelling
 * too long for a table name is a checksum ("x" and 8 hex digits). */
static void check_set_name(const char *set, const sdb_board *goal, const uint32_t *groups,
                           int ngroups)
{
	int rep = sdb_sym_representative(goal->w, goal->h, goal->blank);
	char want[128];
	int len = snprintf(want, sizeof want, "pdb-%dx%d-b%d-", goal->w, goal->h, rep);
	const int prefix = len;
	uint32_t done = 0;
	for (int k = 0; k < ngroups; k++) {
		int next = -1;   /* the group with the smallest tile not yet spelled */
		for (int g = 0; g < ngroups; g++)
			if (!(done >> g & 1) && (next < 0 || __builtin_ctz(groups[g]) <
			                                      __builtin_ctz(groups[next])))
				next = g;
		done |= 1u << next;
		for (int t = 1, first = 1; t < goal->n; t++)
			if (groups[next] >> t & 1) {
				len += snprintf(want + len, sizeof want - (size_t)len, "%s%d",
				                first ? (k ? "_" : "") : ",", t);
				first = 0;
			}
	}
	if (len < SDB_NAME_MAX - 4) {
		cr_assert_str_eq(set, want, "the set's name should spell the groups");
		return;
	}
	cr_assert(!strncmp(set, want, (size_t)prefix) && set[prefix] == 'x' &&
	          strlen(set + prefix) == 9, "set '%s': a long spelling becomes a checksum", set);
}

/* ------------------------------------------------------------------ */
/* slidedb-gen pdb: what it builds                                      */

Test(pdb_build, explicit_groups_3x3_two_exact_admissible_tables)
{
	char db[PATH_LEN];
	tk_tmp_path(db, sizeof db, "pdb-3x3.lmdb");
	build_pdb(db, "3x3", "1,2,3,4/5,6,7,8", NULL);
	catalog *c = info_tables(db);
	cr_assert_eq(c->n, 2, "2 groups give 2 tables, info lists %d", c->n);
	char set[64];
	cr_assert_eq(find_set(set, sizeof set, c, "pdb-3x3-b0-"), 2);
	sdb_board goal = ck_std_goal(3, 3);
	uint32_t groups[2] = { 0x1e, 0x1e0 };
	check_set_name(set, &goal, groups, 2);
	for (int i = 0; i < c->n; i++) {
		const tinfo *t = &c->t[i];
		cr_assert_eq(t->count_sum, (uint64_t)t->states, "%s: counts add up to %llu, %ld "
		             "states", t->name, (unsigned long long)t->count_sum, t->states);
		cr_assert_eq(t->ncounts, t->max_distance + 1, "%s: %d counts, max distance %ld",
		             t->name, t->ncounts, t->max_distance);
		cr_assert(strstr(t->obj, "\"size\":\"3x3\""), "%s", t->obj);
	}
	/* The order of tiles inside a group and of the groups does not matter
	 * to the tables: the same set is rebuilt, replacing it. */
	catalog *before = c;
	build_pdb(db, "3x3", "4,3,2,1/8,7,6,5", NULL);
	c = info_tables(db);
	cr_assert_eq(c->n, 2, "rebuilding the set must replace it, info lists %d", c->n);
	for (int i = 0; i < 2; i++) {
		cr_assert_str_eq(c->t[i].name, before->t[i].name);
		cr_assert_str_eq(c->t[i].crc, before->t[i].crc, "%s: other entries", c->t[i].name);
	}
	/* The tables as a heuristic, on every state. */
	check_set_3x3(db, set, NULL, 0, 1);
	free(before);
	free(c);
	ck_db_remove(db);
}

/* The progress bar of a set (--progress) says which group of how many it
 * builds and how many tiles it has, and its percent is the whole set's: the
 * first of two groups of equal size ends at 50%. */
Test(pdb_build, progress_names_the_group_and_counts_the_set)
{
	char db[PATH_LEN];
	tk_tmp_path(db, sizeof db, "pdb-progress.lmdb");
	char *out, *err;
	int rc = ck_gen(db, &out, &err, "pdb 3x3 --partition 1,2,3,4/5,6,7,8 -q --progress");
	cr_assert_eq(rc, 0, "%s", err);
	const char *second = strstr(err, "group 2/2: 4 tiles");
	cr_assert(strstr(err, "group 1/2: 4 tiles") && second, "%s", err);
	const char *half = strstr(err, "]  50.0%");
	cr_assert(half && half < second, "the first group ends at half the set: %s", err);
	cr_assert(strstr(second, "100.0%"), "%s", err);
	free(out);
	free(err);
	ck_db_remove(db);
}

Test(pdb_build, one_group_of_every_tile_is_the_exact_distance)
{
	char db[PATH_LEN];
	tk_tmp_path(db, sizeof db, "pdb-3x3-all.lmdb");
	build_pdb(db, "3x3", "1,2,3,4,5,6,7,8", NULL);
	catalog *c = info_tables(db);
	cr_assert_eq(c->n, 1);
	char set[64];
	cr_assert_eq(find_set(set, sizeof set, c, "pdb-3x3-b0-"), 1);
	cr_assert_eq(c->t[0].max_distance, 31, "the 8-puzzle's diameter is 31, table says %ld",
	             c->t[0].max_distance);
	check_set_3x3(db, set, NULL, 1, 1);
	free(c);
	ck_db_remove(db);
}

Test(pdb_build, blank_min_is_smaller_weaker_and_named_min)
{
	char db[PATH_LEN];
	tk_tmp_path(db, sizeof db, "pdb-3x3-min.lmdb");
	build_pdb(db, "3x3", "1,2,3,4/5,6,7,8", "--blank region");
	build_pdb(db, "3x3", "1,2,3,4/5,6,7,8", "--blank min");
	catalog *c = info_tables(db);
	cr_assert_eq(c->n, 4, "two sets of two tables, info lists %d", c->n);
	char region[64], min[80];
	for (int i = 0; i < c->n; i++)
		if (!strstr(c->t[i].name, "-min/"))
			set_of(region, sizeof region, c->t[i].name);
	snprintf(min, sizeof min, "%s-min", region);
	cr_assert_eq(count_prefixed(c, min), 2, "no set %s", min);
	for (int g = 0; g < 2; g++) {
		char rn[100], mn[100];
		snprintf(rn, sizeof rn, "%s/g%d", region, g);
		snprintf(mn, sizeof mn, "%s/g%d", min, g);
		const tinfo *r = find_table(c, rn), *m = find_table(c, mn);
		cr_assert(r && m, "missing %s or %s", rn, mn);
		/* min: N!/(N-k)! entries, one per placement of the group's 4 tiles */
		cr_assert_eq(m->states, 9 * 8 * 7 * 6, "%s: %ld entries", mn, m->states);
		cr_assert_gt(r->states, m->states, "region mode keeps more: %ld vs %ld", r->states,
		             m->states);
		cr_assert_eq(m->count_sum, (uint64_t)m->states, "%s: counts", mn);
		cr_assert_leq(m->max_distance, r->max_distance);
	}
	/* Both admissible, region consistent; min never above region. */
	uint64_t sr = check_set_3x3(db, region, min, 0, 1);
	uint64_t sm = check_set_3x3(db, min, NULL, 0, 0);
	cr_assert_lt(sm, sr, "min mode should be weaker somewhere (sums %llu, %llu)",
	             (unsigned long long)sm, (unsigned long long)sr);
	free(c);
	ck_db_remove(db);
}

Test(pdb_build, json_prints_one_object_per_table)
{
	char db[PATH_LEN];
	tk_tmp_path(db, sizeof db, "pdb-json.lmdb");
	char *out, *err;
	int rc = ck_gen(db, &out, &err, "pdb 3x3 --partition 1,2,3/4,5,6/7,8 --json");
	cr_assert_eq(rc, 0, "%s", err);
	catalog *c = info_tables(db);
	cr_assert_eq(c->n, 3);
	char **v;
	int n = ck_split_lines(out, &v);
	cr_assert_eq(n, 3, "3 tables, %d lines of JSON", n);
	for (int i = 0; i < n; i++) {
		char name[64], crc[16];
		long states, maxd;
		size_t len = strlen(v[i]);
		cr_assert(len > 2 && v[i][0] == '{' && v[i][len - 1] == '}', "not an object: %s", v[i]);
		cr_assert_eq(ck_json_str(v[i], "name", name, sizeof name), 1, "%s", v[i]);
		const tinfo *t = find_table(c, name);
		cr_assert(t, "--json reports %s, info does not list it", name);
		cr_assert_eq(ck_json_long(v[i], "states", &states), 1, "%s", v[i]);
		cr_assert_eq(states, t->states, "%s: states", name);
		cr_assert_eq(ck_json_long(v[i], "max_distance", &maxd), 1, "%s", v[i]);
		cr_assert_eq(maxd, t->max_distance, "%s: max distance", name);
		cr_assert_eq(ck_json_str(v[i], "crc32", crc, sizeof crc), 1, "%s", v[i]);
		cr_assert_str_eq(crc, t->crc, "%s: crc32", name);
		for (int j = 0; j < i; j++)
			cr_assert(!strstr(v[j], name), "%s reported twice", name);
	}
	free(v);
	free(out);
	free(err);
	free(c);
	ck_db_remove(db);
}

Test(pdb_build, info_describes_pattern_tables)
{
	char db[PATH_LEN];
	tk_tmp_path(db, sizeof db, "pdb-info.lmdb");
	build_pdb(db, "3x3", "1,2,3,4/5,6,7,8", NULL);
	build_pdb(db, "3x3", "1,2,3,4/5,6,7,8", "--blank min");
	catalog *c = info_tables(db);
	cr_assert_eq(c->n, 4);
	for (int i = 0; i < c->n; i++) {
		const tinfo *t = &c->t[i];
		cr_assert(strstr(t->obj, "\"blank_cells\":[0,2,6,8]"), "%s: %s", t->name, t->obj);
		char fmt[32], set[64], want_set[64], blank[16];
		long group = -1, groups = -1;
		cr_assert_eq(ck_json_str(t->obj, "entry_format", fmt, sizeof fmt), 1);
		cr_assert_str_eq(t->kind, "pattern", "%s: info --json says kind \"%s\"", t->name,
		                 t->kind);
		cr_assert(strcmp(fmt, "unknown") && strcmp(fmt, "dist6-move2"), "%s: info --json "
		          "says entry_format \"%s\"", t->name, fmt);
		set_of(want_set, sizeof want_set, t->name);
		cr_assert_eq(ck_json_str(t->obj, "set", set, sizeof set), 1, "%s: no set: %s",
		             t->name, t->obj);
		cr_assert_str_eq(set, want_set);
		cr_assert_eq(ck_json_long(t->obj, "group", &group), 1, "%s: no group: %s", t->name,
		             t->obj);
		cr_assert_eq(group, strtol(strrchr(t->name, '/') + 2, NULL, 10), "%s: group", t->name);
		cr_assert_eq(ck_json_long(t->obj, "groups", &groups), 1, "%s: %s", t->name, t->obj);
		cr_assert_eq(groups, 2, "%s: groups", t->name);
		cr_assert_eq(ck_json_str(t->obj, "blank", blank, sizeof blank), 1, "%s: %s",
		             t->name, t->obj);
		cr_assert_str_eq(blank, strstr(t->name, "-min/") ? "min" : "region", "%s", t->name);
	}
	free(c);
	ck_db_remove(db);
}

/* --partition 5s: groups of five tiles along pairs of rows, column by
 * column, the second pair back, an odd last row alone; the same tables as
 * those groups typed out (worked by hand on Korf's goals, tile t in cell t). */
Test(pdb_build, named_5s_is_groups_of_five_along_pairs_of_rows)
{
	static const struct {
		const char *size, *goal, *groups;
		int ngroups;
	} cases[] = {
		{ "4x4", "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", "1,2,4,5,6/3,7,10,11,15/8,9,12,13,14", 3 },
		{ "5x3", "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14", "1,2,5,6,7/3,4,8,9,14/10,11,12,13", 3 },
		{ "3x3", "0 1 2 3 4 5 6 7 8", "1,3,4,2,5/6,7,8", 2 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char db[PATH_LEN], goal[96], crc[2][8][16];
		tk_tmp_path(db, sizeof db, "pdb-5s.lmdb");
		snprintf(goal, sizeof goal, "--goal '%s'", cases[i].goal);
		build_pdb(db, cases[i].size, "5s", goal);
		build_pdb(db, cases[i].size, cases[i].groups, goal);
		catalog *c = info_tables(db);
		cr_assert_eq(c->n, 2 * cases[i].ngroups, "%s: %d tables", cases[i].size, c->n);
		/* the same tables, maybe in another order (typed groups go by
		 * their smallest tile in the set's name) */
		int n[2] = { 0, 0 };
		for (int k = 0; k < c->n; k++) {
			const int named = strstr(c->t[k].name, "-5s/") != NULL;
			cr_assert_lt(n[named], 8);
			snprintf(crc[named][n[named]++], sizeof crc[0][0], "%s", c->t[k].crc);
		}
		cr_assert_eq(n[0], cases[i].ngroups, "%s", cases[i].size);
		cr_assert_eq(n[1], cases[i].ngroups, "%s", cases[i].size);
		for (int a = 0; a < n[1]; a++) {
			int same = 0;
			for (int b = 0; b < n[0]; b++)
				same += !strcmp(crc[1][a], crc[0][b]);
			cr_assert_eq(same, 1, "%s: group %d of 5s (CRC %s) is not one of the typed groups",
			             cases[i].size, a, crc[1][a]);
		}
		free(c);
		ck_db_remove(db);
	}
}

/* --blank min must never take the name of the region-mode set of the same
 * groups: 14 groups make the longest names. */
Test(pdb_build, min_set_never_replaces_the_region_set)
{
	char db[PATH_LEN];
	tk_tmp_path(db, sizeof db, "pdb-longname.lmdb");
	const char *spec = "1,2/3/4/5/6/7/8/9/10/11/12/13/14/15";
	build_pdb(db, "4x4", spec, NULL);
	catalog *region = info_tables(db);
	cr_assert_eq(region->n, 14);
	char *out, *err;
	int rc = ck_gen(db, &out, &err, "pdb 4x4 --partition '%s' --blank min -q", spec);
	catalog *after = info_tables(db);
	if (rc == 0) {
		cr_assert_eq(after->n, 28, "a min set of 14 groups next to the region set: 28 "
		             "tables expected, info lists %d (the region set was replaced?)", after->n);
		for (int i = 0; i < region->n; i++) {
			const tinfo *t = find_table(after, region->t[i].name);
			cr_assert(t, "region table %s is gone", region->t[i].name);
			cr_assert_str_eq(t->obj, region->t[i].obj, "region table %s changed", t->name);
		}
	} else {
		ck_assert_one_line(err, "min set refused");
		assert_same_catalog(region, after, "refused min build");
	}
	free(out);
	free(err);
	free(region);
	free(after);
	ck_db_remove(db);
}

/* ------------------------------------------------------------------ */
/* slidedb-gen pdb: bad input                                           */

/* ------------------------------------------------------------------ */
/* slidedb-lookup on 4x4                                                */

#define STD4 "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0"
#define KORF_GOAL "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"
#define CENTRE_GOAL "1 2 3 4 5 0 6 7 8 9 10 11 12 13 14 15"
#define CENTRE2_GOAL "15 14 13 12 11 10 9 8 7 6 0 5 4 3 2 1"   /* blank in cell 10 */
#define EDGE_GOAL "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15"
#define POJ_15 "1 2 3 4 5 6 7 8 9 x 10 12 13 14 11 15"
/* Korf's instance 1 (57 moves to KORF_GOAL). */
#define KORF_1 "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"

/* The fallback note: one line naming the heuristic and the command that
 * builds a set. */
static void assert_fallback_note(const char *err, const char *what)
{
	ck_assert_one_line(err, what);
	cr_assert(strstr(err, "Manhattan"), "%s: note '%s' does not name the fallback", what, err);
	cr_assert(strstr(err, "slidedb-gen pdb"), "%s: note '%s' does not say how to build a set",
	          what, err);
}

Test(pdb_4x4, answers_with_sets)
{
	char db[PATH_LEN];
	tk_tmp_path(db, sizeof db, "pdb-4x4.lmdb");
	/* 5-5-5, reported in JSON, stored as three tables. */
	char *out, *err;
	int rc = ck_gen(db, &out, &err, "pdb 4x4 --partition 5-5-5 --json");
	cr_assert_eq(rc, 0, "pdb 4x4 5-5-5: %s", err);
	cr_assert_eq(tk_lines(out), 3, "5-5-5: 3 JSON lines expected, got '%s'", out);
	for (int g = 0; g < 3; g++) {
		char name[64];
		snprintf(name, sizeof name, "{\"name\":\"pdb-4x4-b0-5-5-5/g%d\"", g);
		cr_assert(strstr(out, name), "5-5-5: no object for g%d in '%s'", g, out);
	}
	free(out);
	free(err);
	/* A set for the centre class, with its own goal. */
	build_pdb(db, "4x4", "1,2,3,4/5,6,7,8/9,10,11,12/13,14,15", "--goal '" CENTRE_GOAL "'");
	catalog *c = info_tables(db);
	cr_assert_eq(c->n, 7, "3 + 4 tables, info lists %d", c->n);
	char set[64];
	cr_assert_eq(find_set(set, sizeof set, c, "pdb-4x4-b0-5-5-5/"), 3);
	cr_assert_str_eq(set, "pdb-4x4-b0-5-5-5");
	for (int g = 0; g < 3; g++) {
		char name[64];
		snprintf(name, sizeof name, "pdb-4x4-b0-5-5-5/g%d", g);
		const tinfo *t = find_table(c, name);
		cr_assert(t, "no %s", name);
		cr_assert_gt(t->states, 16 * 15 * 14 * 13 * 12, "%s: region mode has more entries "
		             "than placements, got %ld", t->name, t->states);
		cr_assert_eq(t->count_sum, (uint64_t)t->states, "%s: counts", t->name);
	}
	cr_assert_eq(find_set(set, sizeof set, c, "pdb-4x4-b5-"), 4);
	sdb_board centre = ck_parse_board(CENTRE_GOAL, 0, 0);
	uint32_t groups[4] = { 0x1e, 0x1e0, 0x1e00, 0xe000 };
	check_set_name(set, &centre, groups, 4);
	free(c);

	/* The sample: three moves. */
	rc = ck_lookup(db, NULL, &out, &err, "%s", POJ_15);
	cr_assert_eq(rc, 0, "%s", err);
	cr_assert_str_eq(out, "distance 3  best r  moves rdr\n");
	cr_assert_str_empty(err, "a set is built: no note expected, got '%s'", err);
	free(out);
	free(err);

	/* Walks from four goals of the two classes with a set. */
	enum { NQ = 40 };
	query4 q[NQ];
	int n = 0;
	unsigned seed = 1077;
	sdb_board std = ck_parse_board(STD4, 0, 0), korf = ck_parse_board(KORF_GOAL, 0, 0),
	          centre2 = ck_parse_board(CENTRE2_GOAL, 0, 0);
	add_walks(q, &n, &std, 2, 14, 20, 2, &seed);
	add_walks(q, &n, &std, 10, 20, 40, 0, &seed);
	add_walks(q, &n, &korf, 2, 14, 20, 2, &seed);
	add_walks(q, &n, &korf, 6, 20, 40, 0, &seed);
	add_walks(q, &n, &centre, 2, 14, 20, 2, &seed);
	add_walks(q, &n, &centre, 4, 20, 40, 0, &seed);
	add_walks(q, &n, &centre2, 2, 14, 20, 2, &seed);
	add_walks(q, &n, &centre2, 4, 20, 40, 0, &seed);
	q[n] = (query4){ std, std, 0, 0 };   /* already there */
	n++;
	char *input = query_lines(q, n);
	char *out1, *err1;
	rc = ck_lookup(db, input, &out1, &err1, "--json --threads 1");
	cr_assert_eq(rc, 0, "exit %d: %s", rc, err1);
	cr_assert_str_empty(err1, "sets serve every goal here, got '%s'", err1);
	char *out2, *err2;
	rc = ck_lookup(db, input, &out2, &err2, "--json --threads 2");
	cr_assert_eq(rc, 0, "--threads 2: exit %d: %s", rc, err2);
	cr_assert_str_eq(out2, out1, "--threads 2 answers differ from --threads 1");
	cr_assert_str_empty(err2);
	char *copy = strdup(out1);
	check_answers(copy, q, n);
	free(copy);
	free(out2);
	free(err2);

	/* A weaker set for the corner class does not replace the strongest:
	 * the same heuristic values and nodes. */
	build_pdb(db, "4x4", "1/2/3/4/5/6/7/8/9/10/11/12/13/14/15", NULL);
	rc = ck_lookup(db, input, &out2, &err2, "--json --threads 2");
	cr_assert_eq(rc, 0, "%s", err2);
	cr_assert_str_eq(out2, out1, "with a weaker set added the answers changed: the "
	                 "strongest set should still be used");
	free(out2);
	free(err2);
	free(out1);
	free(err1);
	free(input);

	/* An unsolvable pair is answered without a search. */
	sdb_board odd = std;
	odd.cell[0] = 2;
	odd.cell[1] = 1;
	rc = ck_lookup(db, NULL, &out, &err, "--json '%s ; %s'", ck_board_text(&odd).s, STD4);
	cr_assert_eq(rc, 0, "%s", err);
	cr_assert(strstr(out, "\"solvable\":false"), "%s", out);
	free(out);
	free(err);

	/* Goals of the edge class have no set: the fallback, said once. */
	n = 0;
	sdb_board edge = ck_parse_board(EDGE_GOAL, 0, 0);
	add_walks(q, &n, &edge, 3, 10, 18, 3, &seed);
	input = query_lines(q, n);
	rc = ck_lookup(db, input, &out, &err, "--json --threads 2");
	cr_assert_eq(rc, 0, "exit %d: %s", rc, err);
	assert_fallback_note(err, "edge-class goals");
	check_answers(out, q, n);
	free(out);
	free(err);
	free(input);
	ck_db_remove(db);
}

Test(pdb_fallback, no_set_still_optimal_with_one_note)
{
	char db[PATH_LEN];
	tk_tmp_path(db, sizeof db, "pdb-fallback.lmdb");
	tk_build(db, "3x3", NULL);
	enum { NQ = 10 };
	query4 q[NQ];
	int n = 0;
	unsigned seed = 15;
	sdb_board std = ck_parse_board(STD4, 0, 0), korf = ck_parse_board(KORF_GOAL, 0, 0);
	add_walks(q, &n, &std, 6, 8, 20, 6, &seed);
	add_walks(q, &n, &korf, 3, 8, 20, 3, &seed);
	/* With comment and blank lines in between, still one note. */
	ck_sbuf in = { 0 };
	for (int i = 0; i < n; i++)
		ck_sb_printf(&in, "%s%s ; %s\n", i == 2 ? "# a comment\n\n" : "",
		             ck_board_text(&q[i].start).s, ck_board_text(&q[i].goal).s);
	for (int threads = 1; threads <= 2; threads++) {
		char *out, *err;
		int rc = ck_lookup(db, in.s, &out, &err, "--json --threads %d", threads);
		cr_assert_eq(rc, 0, "--threads %d: exit %d: %s", threads, rc, err);
		assert_fallback_note(err, "no set");
		check_answers(out, q, n);
		free(out);
		free(err);
	}
	free(in.s);
	ck_db_remove(db);
}

/* ------------------------------------------------------------------ */
/* Limits on one search                                                  */

/* Line 2 is Korf's first instance: far beyond a few nodes or 0.3 s with
 * Manhattan distance. Lines 1 and 3 are easy. */
static char *limit_input(query4 *easy)
{
	unsigned seed = 57;
	sdb_board std = ck_parse_board(STD4, 0, 0);
	int n = 0;
	add_walks(easy, &n, &std, 1, 12, 12, 1, &seed);
	easy[1] = (query4){ ck_parse_board(POJ_15, 0, 0), std, 3, 3 };
	ck_sbuf b = { 0 };
	ck_sb_printf(&b, "%s\n%s ; %s\n%s\n", ck_board_text(&easy[0].start).s, KORF_1, KORF_GOAL,
	             POJ_15);
	return b.s;
}

/* The error of line 2 on stderr (after the fallback note), the text
 * answers of lines 1 and 3 on stdout in order. */
static void check_limited_text(const char *out, const char *err, const query4 *easy,
                               const char *what, const char *must)
{
	char *e = strdup(err), **v;
	int n = ck_split_lines(e, &v);
	cr_assert_eq(n, 2, "%s: the fallback note and one error line expected, got '%s'", what,
	             err);
	cr_assert(strstr(v[0], "Manhattan"), "%s: first line '%s'", what, v[0]);
	cr_assert(strstr(v[1], "line 2"), "%s: error '%s' does not give the line", what, v[1]);
	cr_assert(strstr(v[1], KORF_1) || strstr(v[1], "14 13 15 7"), "%s: error '%s' does not "
	          "show the input", what, v[1]);
	if (must)
		cr_assert(strstr(v[1], must), "%s: error '%s' lacks '%s'", what, v[1], must);
	char *o = strdup(out), **a;
	n = ck_split_lines(o, &a);
	cr_assert_eq(n, 3, "%s: lines 1 and 3 are answered, line 2 an error line, got '%s'",
	             what, out);
	cr_assert(!strncmp(a[1], "error: ", 7) && strstr(v[1], a[1] + 7), "%s: line 2 should be "
	          "the error of stderr, got '%s'", what, a[1]);
	a[1] = a[2];   /* the checks below read the answers at 0 and 1 */
	free(v);
	free(e);
	int d = mini_distance(&easy[0].start, &easy[0].goal);
	char want[64];
	snprintf(want, sizeof want, "distance %d  best ", d);
	cr_assert(!strncmp(a[0], want, strlen(want)), "%s: line 1 answered '%s', distance %d "
	          "expected", what, a[0], d);
	const char *moves = strstr(a[0], "moves ");
	cr_assert(moves && tk_replay(&easy[0].start, moves + 6, &easy[0].goal), "%s: '%s'", what,
	          a[0]);
	cr_assert_str_eq(a[1], "distance 3  best r  moves rdr", "%s: line 3", what);
	free(a);
	free(o);
}

Test(pdb_limits, max_nodes_and_timeout_fail_one_line_only)
{
	char db[PATH_LEN];
	tk_tmp_path(db, sizeof db, "pdb-bounds.lmdb");
	tk_build(db, "3x3", NULL);
	query4 easy[2];
	char *input = limit_input(easy);
	char *out, *err;
	int rc = ck_lookup(db, input, &out, &err, "--max-nodes 2000");
	cr_assert_eq(rc, 1, "a query over the node limit: exit %d, expected 1 (%s)", rc, err);
	check_limited_text(out, err, easy, "--max-nodes 2000", "(2000 searched");
	free(out);
	free(err);

	/* JSON: three objects, the second the error of line 2. */
	for (int threads = 1; threads <= 2; threads++) {
		rc = ck_lookup(db, input, &out, &err, "--json --max-nodes 2000 --threads %d",
		               threads);
		cr_assert_eq(rc, 1, "--threads %d: exit %d (%s)", threads, rc, err);
		char **v, msg[512], in[256];
		int n = ck_split_lines(out, &v);
		cr_assert_eq(n, 3, "--threads %d: 3 JSON lines expected, got %d", threads, n);
		long line = 0;
		cr_assert_eq(ck_json_long(v[1], "line", &line), 1, "%s", v[1]);
		cr_assert_eq(line, 2);
		cr_assert_eq(ck_json_str(v[1], "error", msg, sizeof msg), 1, "%s", v[1]);
		cr_assert(strstr(msg, "node"), "error '%s'", msg);
		/* the nodes it took: at the limit, past it by at most a thread's
		 * unpublished count, and the message says the same number */
		long nodes = 0;
		cr_assert_eq(ck_json_long(v[1], "nodes", &nodes), 1, "no \"nodes\": %s", v[1]);
		cr_assert(nodes >= 2000 && nodes < 2000 + threads * 1024, "--threads %d: %ld nodes",
		          threads, nodes);
		char said[64];
		snprintf(said, sizeof said, "(%ld searched", nodes);
		cr_assert(strstr(msg, said), "error '%s' lacks '%s'", msg, said);
		cr_assert_eq(ck_json_str(v[1], "input", in, sizeof in), 1, "%s", v[1]);
		cr_assert_str_eq(in, KORF_1 " ; " KORF_GOAL);
		query4 poj = easy[1];
		check_answer(v[2], &poj, 2);
		query4 first = easy[0];
		check_answer(v[0], &first, 0);
		free(v);
		free(out);
		free(err);
	}

	/* A time limit: the same shape. */
	rc = ck_lookup(db, input, &out, &err, "--timeout 0.3");
	cr_assert_eq(rc, 1, "a query over the time limit: exit %d, expected 1 (%s)", rc, err);
	check_limited_text(out, err, easy, "--timeout 0.3", NULL);
	free(out);
	free(err);
	free(input);
	ck_db_remove(db);
}

/* A query's searches together (its answer, then its --all sequences) are
 * bounded by --max-nodes as one: stopped, the error says the nodes they took,
 * at least the limit and within one look at the clock (16,384 nodes) of it. */
Test(pdb_limits, a_stopped_query_says_its_nodes)
{
	char db[PATH_LEN];
	tk_tmp_path(db, sizeof db, "pdb-bound-nodes.lmdb");
	tk_build(db, "3x3", NULL);
	/* 18,735 nodes to its answer on Manhattan distance, more to all its
	 * sequences: the second search passes the query's limit */
	const char *q = "3 7 4 8 1 2 11 14 9 5 6 12 10 13 15 0";
	char *out, *err;
	int rc = ck_lookup(db, NULL, &out, &err, "--json --all --max-nodes 25000 '%s'", q);
	cr_assert_eq(rc, 1, "%s", err);
	long nodes = 0;
	char msg[512], said[64];
	cr_assert_eq(ck_json_long(out, "nodes", &nodes), 1, "no \"nodes\": %s", out);
	cr_assert(nodes >= 25000 && nodes < 25000 + 16384, "%ld nodes", nodes);
	cr_assert_eq(ck_json_str(out, "error", msg, sizeof msg), 1, "%s", out);
	snprintf(said, sizeof said, "(%ld searched", nodes);
	cr_assert(strstr(msg, said) && strstr(msg, "its searches together"), "'%s'", msg);
	free(out);
	free(err);
	ck_db_remove(db);
}

/* ------------------------------------------------------------------ */
/* export / import                                                       */

static void export_ok(const char *db, const char *name, const char *file, int ntables)
{
	char *out, *err, want[PATH_LEN + 64];
	int rc = ck_gen(db, &out, &err, "export '%s' -o '%s'", name, file);
	cr_assert_eq(rc, 0, "export %s: exit %d: %s", name, rc, err);
	snprintf(want, sizeof want, "exported %d table%s to %s\n", ntables, ntables == 1 ? "" : "s",
	         file);
	cr_assert_str_eq(out, want);
	cr_assert_str_empty(err);
	cr_assert(ck_exists(file));
	free(out);
	free(err);
}

/* An import that must be refused: exit 1, one line, nothing on stdout. */
static void import_refused(const char *db, const char *file, const char *what)
{
	char *out, *err;
	int rc = ck_gen(db, &out, &err, "import '%s' -q", file);
	cr_assert_eq(rc, 1, "%s: import exit %d, expected 1 (stderr: %s)", what, rc, err);
	cr_assert_str_empty(out, "%s: stdout '%s'", what, out);
	ck_assert_one_line(err, what);
	free(out);
	free(err);
}

/* A database that must be byte for byte as snapshotted (kit/files.h), and
 * list the same catalog. */
typedef struct snapshot {
	tk_snapshot file;
	catalog *cat;
} snapshot;

static void snap_take(snapshot *s, const char *path)
{
	s->file = tk_snap(path);
	s->cat = info_tables(path);
}

static void snap_check(const snapshot *s, const char *what)
{
	tk_assert_unchanged(&s->file, what);
	catalog *c = info_tables(s->file.path);
	assert_same_catalog(s->cat, c, what);
	free(c);
}

static void snap_free(snapshot *s)
{
	tk_snap_free(&s->file);
	free(s->cat);
}
/* A target that did not exist: still absent, or a valid database without
 * tables. Removed afterwards. */
static void check_fresh(const char *path, const char *what)
{
	if (ck_exists(path)) {
		catalog *c = info_tables(path);
		cr_assert_eq(c->n, 0, "%s: a fresh target got %d tables", what, c->n);
		free(c);
	}
	ck_db_remove(path);
}

/* 3x3 full tables (3), a 3x3 set (2) and a small 4x4 set (4). */
static void transfer_source(char *src, size_t cap, char *set4, size_t setcap)
{
	tk_tmp_path(src, cap, "xfer-src.lmdb");
	tk_build(src, "3x3", NULL);
	build_pdb(src, "3x3", "1,2,3,4/5,6,7,8", NULL);
	build_pdb(src, "4x4", "1,2,3,4/5,6,7,8/9,10,11,12/13,14,15", NULL);
	catalog *c = info_tables(src);
	cr_assert_eq(c->n, 9);
	cr_assert_eq(find_set(set4, setcap, c, "pdb-4x4-b0-"), 4);
	cr_assert(find_table(c, "full-3x3-b0"), "no full-3x3-b0");
	free(c);
}

Test(pdb_transfer, round_trip_of_a_set_and_a_full_table)
{
	char src[PATH_LEN], dst[PATH_LEN], set4[64], f1[PATH_LEN], f2[PATH_LEN];
	transfer_source(src, sizeof src, set4, sizeof set4);
	tk_tmp_path(f1, sizeof f1, "set4.gz");
	tk_tmp_path(f2, sizeof f2, "full.gz");
	tk_tmp_path(dst, sizeof dst, "xfer-dst.lmdb");
	export_ok(src, set4, f1, 4);
	export_ok(src, "full-3x3-b0", f2, 1);

	char *out, *err;
	int rc = ck_gen(dst, &out, &err, "import '%s'", f1);
	cr_assert_eq(rc, 0, "import of the set into a new database: exit %d: %s", rc, err);
	cr_assert(strstr(out, "stored 4 tables"), "%s", out);
	free(out);
	free(err);
	/* The full table from standard input. */
	char cmd[CMD_MAX];
	snprintf(cmd, sizeof cmd, "( %s import - --db '%s' -q <'%s' )", SLIDEDB_GEN, dst, f2);
	rc = tk_run(cmd, NULL, &out, &err);
	cr_assert_eq(rc, 0, "import from stdin: exit %d: %s", rc, err);
	cr_assert_str_empty(out);
	free(out);
	free(err);

	rc = ck_lookup(dst, NULL, &out, &err, "verify");
	cr_assert_eq(rc, 0, "verify of the imported tables: exit %d: %s %s", rc, out, err);
	cr_assert(strstr(out, "all intact"), "%s", out);
	free(out);
	free(err);
	catalog *cs = info_tables(src), *cd = info_tables(dst);
	cr_assert_eq(cd->n, 5, "4 + 1 tables imported, info lists %d", cd->n);
	for (int i = 0; i < cd->n; i++) {
		const tinfo *t = find_table(cs, cd->t[i].name);
		cr_assert(t, "imported %s is not in the source", cd->t[i].name);
		cr_assert_str_eq(cd->t[i].crc, t->crc, "%s: crc32", t->name);
		cr_assert_str_eq(cd->t[i].obj, t->obj, "%s: metadata differ", t->name);
	}

	/* Same answers: 4x4 by the imported set (no fallback note: it is used,
	 * same heuristic and nodes), 3x3 by the imported table. */
	query4 q[8];
	int n = 0;
	unsigned seed = 99;
	sdb_board std = ck_parse_board(STD4, 0, 0);
	add_walks(q, &n, &std, 6, 20, 34, 0, &seed);
	char *input = query_lines(q, n);
	char *o1, *e1, *o2, *e2;
	cr_assert_eq(ck_lookup(src, input, &o1, &e1, "--json"), 0, "%s", e1);
	cr_assert_eq(ck_lookup(dst, input, &o2, &e2, "--json"), 0, "%s", e2);
	cr_assert_str_empty(e2, "the imported set should be used: '%s'", e2);
	cr_assert_str_eq(o2, o1, "4x4 answers differ after the round trip");
	check_answers(o2, q, n);
	free(o1);
	free(e1);
	free(o2);
	free(e2);
	free(input);
	ck_sbuf in3 = { 0 };
	sdb_board g3 = ck_std_goal(3, 3);
	for (int i = 0; i < 30; i++) {
		sdb_board b = walk(&g3, 1 + i * 3, &seed);
		ck_sb_printf(&in3, "%s\n", ck_board_text(&b).s);
	}
	cr_assert_eq(ck_lookup(src, in3.s, &o1, &e1, "--json --path"), 0, "%s", e1);
	cr_assert_eq(ck_lookup(dst, in3.s, &o2, &e2, "--json --path"), 0, "%s", e2);
	cr_assert_str_eq(o2, o1, "3x3 answers differ after the round trip");
	cr_assert_eq(tk_lines(o2), 30);
	free(o1);
	free(e1);
	free(o2);
	free(e2);
	free(in3.s);

	/* Importing again is refused without --replace (the database unchanged),
	 * replaces with it, and an export of the copy is the same stream. */
	rc = ck_gen(dst, &out, &err, "import '%s' -q", f1);
	cr_assert_eq(rc, 1, "a second import without --replace must be refused: %s", err);
	ck_assert_one_line(err, "import over existing tables");
	cr_assert(strstr(err, "exists") && strstr(err, "--replace"), "%s", err);
	free(out);
	free(err);
	catalog *refused = info_tables(dst);
	assert_same_catalog(cd, refused, "refused import");
	free(refused);
	rc = ck_gen(dst, &out, &err, "import '%s' --replace -q", f1);
	cr_assert_eq(rc, 0, "%s", err);
	free(out);
	free(err);
	catalog *again = info_tables(dst);
	assert_same_catalog(cd, again, "second import");
	char f3[PATH_LEN], u1[PATH_LEN], u3[PATH_LEN];
	tk_tmp_path(f3, sizeof f3, "set4-again.gz");
	tk_tmp_path(u1, sizeof u1, "set4.raw");
	tk_tmp_path(u3, sizeof u3, "set4-again.raw");
	export_ok(dst, set4, f3, 4);
	shell("gzip -dc '%s' >'%s' && gzip -dc '%s' >'%s'", f1, u1, f3, u3);
	size_t s1, s3;
	char *r1 = ck_read_file(u1, &s1), *r3 = ck_read_file(u3, &s3);
	cr_assert(s1 == s3 && !memcmp(r1, r3, s1), "re-export of the imported set differs");
	free(r1);
	free(r3);
	free(cs);
	free(cd);
	free(again);
	unlink(f1);
	unlink(f2);
	unlink(f3);
	unlink(u1);
	unlink(u3);
	ck_db_remove(src);
	ck_db_remove(dst);
}

Test(pdb_transfer, truncated_or_altered_files_refused)
{
	char src[PATH_LEN], set4[64], f[PATH_LEN], bad[PATH_LEN], dst[PATH_LEN], fresh[PATH_LEN];
	transfer_source(src, sizeof src, set4, sizeof set4);
	tk_tmp_path(f, sizeof f, "whole.gz");
	tk_tmp_path(bad, sizeof bad, "bad.gz");
	tk_tmp_path(dst, sizeof dst, "xfer-target.lmdb");
	export_ok(src, set4, f, 4);
	build_pdb(dst, "3x3", "1,2/3,4/5,6/7,8", NULL);
	snapshot snap;
	snap_take(&snap, dst);
	size_t size;
	char *data = ck_read_file(f, &size);
	cr_assert_gt(size, 64);
	char what[128];

	size_t cuts[] = { 0, 1, 10, 40, size / 4, size / 2, 3 * size / 4, size - 9, size - 8,
		          size - 4, size - 1 };
	for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++) {
		snprintf(what, sizeof what, "cut at %zu of %zu bytes", cuts[i], size);
		ck_write_file(bad, data, cuts[i]);
		import_refused(dst, bad, what);
		snap_check(&snap, what);
		tk_tmp_path(fresh, sizeof fresh, "xfer-fresh.lmdb");
		import_refused(fresh, bad, what);
		check_fresh(fresh, what);
	}
	size_t flips[] = { size / 3, size / 2, 2 * size / 3 };
	for (size_t i = 0; i < sizeof flips / sizeof *flips; i++) {
		snprintf(what, sizeof what, "byte %zu of %zu altered", flips[i], size);
		data[flips[i]] ^= 0x55;
		ck_write_file(bad, data, size);
		data[flips[i]] ^= 0x55;
		import_refused(dst, bad, what);
		snap_check(&snap, what);
	}
	/* Two exports one after the other: data after the end. */
	char *two = malloc(2 * size);
	cr_assert(two);
	memcpy(two, data, size);
	memcpy(two + size, data, size);
	ck_write_file(bad, two, 2 * size);
	import_refused(dst, bad, "an export followed by another");
	snap_check(&snap, "data after the end");
	free(two);

	/* An entry changed inside a well-formed gzip stream: the table's CRC. */
	char raw[PATH_LEN];
	tk_tmp_path(raw, sizeof raw, "whole.raw");
	shell("gzip -dc '%s' >'%s'", f, raw);
	size_t rsize;
	char *r = ck_read_file(raw, &rsize);
	char *mark = memmem(r, rsize, "\ndata ", 6);
	cr_assert(mark, "no data line in the export");
	size_t pos = (size_t)(strchr(mark + 1, '\n') - r) + 100;
	cr_assert_lt(pos, rsize);
	r[pos] ^= 1;
	ck_write_file(raw, r, rsize);
	shell("gzip -c '%s' >'%s'", raw, bad);
	char *out, *err;
	int rc = ck_gen(dst, &out, &err, "import '%s' -q", bad);
	cr_assert_eq(rc, 1, "an altered entry in a valid gzip stream: exit %d", rc);
	ck_assert_one_line(err, "altered entry");
	cr_assert(strstr(err, "CRC"), "the message '%s' should say the CRC failed", err);
	free(out);
	free(err);
	snap_check(&snap, "altered entry");
	/* The end marker removed. */
	r[pos] ^= 1;
	char *end = memmem(r, rsize, "\nend 4\n", 7);
	cr_assert(end, "no end marker");
	ck_write_file(raw, r, (size_t)(end - r) + 1);
	shell("gzip -c '%s' >'%s'", raw, bad);
	import_refused(dst, bad, "no end marker");
	snap_check(&snap, "no end marker");

	rc = ck_lookup(dst, NULL, &out, &err, "verify");
	cr_assert_eq(rc, 0, "the target must still verify: %s", err);
	free(out);
	free(err);
	free(r);
	free(data);
	snap_free(&snap);
	unlink(f);
	unlink(bad);
	unlink(raw);
	ck_db_remove(src);
	ck_db_remove(dst);
}

/* Counts per distance are metadata outside the entries' CRC: an import
 * whose counts contradict its entries leaves a database that
 * `slidedb-lookup verify` calls damaged. A full table, whose counts verify
 * recomputes. */
Test(pdb_transfer, counts_that_contradict_the_entries_refused)
{
	char src[PATH_LEN], dst[PATH_LEN], f[PATH_LEN], raw[PATH_LEN];
	tk_tmp_path(src, sizeof src, "xfer-counts-src.lmdb");
	tk_tmp_path(dst, sizeof dst, "xfer-counts-dst.lmdb");
	tk_tmp_path(f, sizeof f, "counts.gz");
	tk_tmp_path(raw, sizeof raw, "counts.raw");
	tk_build(src, "3x3", NULL);
	export_ok(src, "full-3x3-b0", f, 1);
	shell("gzip -dc '%s' >'%s'", f, raw);
	size_t rsize;
	char *r = ck_read_file(raw, &rsize);
	char *counts = memmem(r, rsize, "\ncounts 1 ", 10);
	cr_assert(counts, "no counts line");
	counts[strlen("\ncounts ")] = '2';   /* two states at distance 0 */
	ck_write_file(raw, r, rsize);
	free(r);
	shell("gzip -c '%s' >'%s'", raw, f);
	build_pdb(dst, "3x3", "1,2/3,4/5,6/7,8", NULL);
	snapshot snap;
	snap_take(&snap, dst);
	char *out, *err;
	int rc = ck_gen(dst, &out, &err, "import '%s' -q", f);
	int vrc = ck_lookup(dst, NULL, NULL, NULL, "verify");
	cr_assert_eq(rc, 1, "counts that contradict the entries were imported (exit %d); "
	             "slidedb-lookup verify then exits %d", rc, vrc);
	ck_assert_one_line(err, "altered counts");
	snap_check(&snap, "altered counts");
	free(out);
	free(err);
	snap_free(&snap);
	unlink(f);
	unlink(raw);
	ck_db_remove(src);
	ck_db_remove(dst);
}

/* ------------------------------------------------------------------ */
/* Hints: the command a note or an error proposes, run as it is, makes the
 * query it was given for succeed (here: searched with the set it builds). */

/* The note of a 4x4 query searched without a set; the answer is on stdout. */
static char *note_of(const char *db, const char *query, char *answer, size_t cap)
{
	char *out, *err;
	int rc = ck_lookup(db, NULL, &out, &err, "--json '%s'", query);
	cr_assert_eq(rc, 0, "%s: %s", query, err);
	snprintf(answer, cap, "%s", out);
	free(out);
	return err;
}

Test(pdb_hints, build_commands_run_verbatim_make_the_query_use_a_set, .timeout = 300)
{
	char db[PATH_LEN], before[4096], after[4096], buf[64];
	tk_tmp_path(db, sizeof db, "pdb-hints.lmdb");
	tk_build(db, "2x2", NULL);
	/* A goal with the blank in the centre class: the hint must say --goal,
	 * or it would build a set that cannot serve the query. */
	const char *centre_q = "1 2 3 4 0 5 6 7 8 9 10 11 12 13 14 15 ; " CENTRE_GOAL;
	char *err = note_of(db, centre_q, before, sizeof before);
	ck_assert_one_line(err, "the fallback note");
	cr_assert(strstr(err, "--partition 6-6-3 --goal '" CENTRE_GOAL "'"), "%s", err);
	cr_assert(strstr(err, "--db '"), "a database at another path must be named: %s", err);
	ck_run_hint(err);
	free(err);
	err = note_of(db, centre_q, after, sizeof after);
	cr_assert_str_empty(err, "after the hint the set serves the query: '%s'", err);
	free(err);
	long d0, d1;
	cr_assert_eq(ck_json_long(before, "distance", &d0), 1);
	cr_assert_eq(ck_json_long(after, "distance", &d1), 1);
	cr_assert_eq(d0, d1, "the same distance with and without the set");
	cr_assert_eq(ck_json_str(after, "moves", buf, sizeof buf), 1);
	sdb_board s = ck_parse_board("1 2 3 4 0 5 6 7 8 9 10 11 12 13 14 15", 0, 0);
	sdb_board g = ck_parse_board(CENTRE_GOAL, 0, 0);
	cr_assert(tk_replay(&s, buf, &g), "moves '%s'", buf);
	/* The standard goal's class: the hint follows the partition the
	 * database already has, and needs no --goal. */
	err = note_of(db, POJ_15, before, sizeof before);
	cr_assert(strstr(err, "--partition 6-6-3") && !strstr(err, "--goal"), "%s", err);
	ck_run_hint(err);
	free(err);
	err = note_of(db, POJ_15, after, sizeof after);
	cr_assert_str_empty(err, "after the hint: '%s'", err);
	free(err);
	cr_assert_eq(ck_json_str(after, "moves", buf, sizeof buf), 1);
	cr_assert_str_eq(buf, "rdr");
	ck_db_remove(db);
}

/* The strongest set is the one with the largest mean heuristic, not the
 * most entries: a partial set of one 6-tile group has more entries than
 * 5-5-5 and is far weaker. */
Test(pdb_4x4, strongest_set_by_mean_value_not_size, .timeout = 300)
{
	char db[PATH_LEN];
	tk_tmp_path(db, sizeof db, "pdb-strength.lmdb");
	build_pdb(db, "4x4", "5-5-5", NULL);
	char *out, *err;
	int rc = ck_gen(db, &out, &err, "pdb 4x4 --partition 1,2,3,4,5,6 --partial -q");
	cr_assert_eq(rc, 0, "%s", err);
	free(out);
	free(err);
	sdb_db *h;
	cr_assert_eq(sdb_db_open(&h, db, SDB_RDONLY), 0, "%s", sdb_error_detail());
	const sdb_table *big = sdb_table_find(h, "pdb-4x4-b0-1,2,3,4,5,6/g0");
	cr_assert(big, "%s", sdb_error_detail());
	uint64_t entries555 = 0;
	for (int g = 0; g < 3; g++) {
		char name[64];
		snprintf(name, sizeof name, "pdb-4x4-b0-5-5-5/g%d", g);
		entries555 += sdb_table_meta(sdb_table_find(h, name))->states;
	}
	cr_assert_gt(sdb_table_meta(big)->states, entries555, "the partial set must be larger");
	sdb_board goal = ck_parse_board(STD4, 0, 0);
	sdb_heuristic *heur;
	cr_assert_eq(sdb_heuristic_open(&heur, h, &goal, NULL), 0, "%s", sdb_error_detail());
	cr_assert_str_eq(sdb_heuristic_name(heur), "pdb-4x4-b0-5-5-5");
	sdb_heuristic_close(heur);
	sdb_db_close(h);
	ck_db_remove(db);
}

/* Change one byte of group 1 of the 5-5-5 set in db's file. */
static void damage_group_1(const char *db)
{
	size_t fsize;
	char *file = ck_read_file(db, &fsize);
	sdb_db *h;
	cr_assert_eq(sdb_db_open(&h, db, SDB_RDONLY), 0);
	const sdb_table *t = sdb_table_find(h, "pdb-4x4-b0-5-5-5/g1");
	cr_assert(t);
	const uint8_t *data = sdb_table_data(t);
	uint64_t bytes = sdb_table_bytes(sdb_table_meta(t));
	const char *at = memmem(file, fsize, data, bytes);
	cr_assert(at, "the entries are not contiguous in the file");
	size_t offset = (size_t)(at - file) + bytes / 3;
	sdb_db_close(h);
	/* in place: a handle open meanwhile maps the same pages */
	char flipped = (char)(file[offset] ^ 0x0f);
	int fd = open(db, O_WRONLY);
	cr_assert(fd >= 0 && pwrite(fd, &flipped, 1, (off_t)offset) == 1, "%s", db);
	close(fd);
	free(file);
}

/* One damaged byte in a pattern set: the set is refused (its CRC is checked
 * before its first answer), never used for a wrong answer. Once this flip
 * turned a 2-move answer into "distance 32". */
Test(pdb_4x4, a_damaged_set_never_answers)
{
	tk_knob("SLIDEDB_VERIFY_SLICE", "8192");   /* the check beside a search, in slices */
	char db[PATH_LEN];
	tk_tmp_path(db, sizeof db, "pdb-damaged.lmdb");
	build_pdb(db, "4x4", "5-5-5", NULL);
	const char *query = "1 2 0 3 4 5 6 7 8 9 10 11 12 13 14 15 ; " KORF_GOAL;
	char *out, *err;
	int rc = ck_lookup(db, NULL, &out, &err, "--only moves '%s'", query);
	cr_assert_eq(rc, 0, "%s", err);
	cr_assert_str_eq(out, "ll\n");
	free(out);
	free(err);
	damage_group_1(db);
	rc = ck_lookup(db, NULL, &out, &err, "--only moves '%s'", query);
	cr_assert_eq(rc, 1, "a damaged set answered: '%s'", out);
	cr_assert(!strncmp(out, "error: ", 7) && tk_lines(out) == 1, "'%s'", out);
	cr_assert(strstr(err, "pdb-4x4-b0-5-5-5/g1") && strstr(err, "CRC"), "%s", err);
	free(out);
	free(err);
	ck_db_remove(db);
	tk_knob("SLIDEDB_VERIFY_SLICE", NULL);
}

/* A batch's searches run beside the set's check, not after it
 * (sdb_answer_opts.defer_check): with the check made slow (in 4 KiB
 * slices) the short searches end first, and still no line is answered from
 * the damaged set; the same batch on the intact set answers every line. */
Test(pdb_4x4, a_damaged_set_never_answers_a_batch)
{
	char db[PATH_LEN];
	tk_tmp_path(db, sizeof db, "pdb-damaged-batch.lmdb");
	build_pdb(db, "4x4", "5-5-5", NULL);
	const char *lines = "1 2 0 3 4 5 6 7 8 9 10 11 12 13 14 15 ; " KORF_GOAL "\n"
	                    "1 2 3 0 4 5 6 7 8 9 10 11 12 13 14 15 ; " KORF_GOAL "\n"
	                    "4 1 2 3 0 5 6 7 8 9 10 11 12 13 14 15 ; " KORF_GOAL "\n";
	char *out, *err;
	int rc = ck_lookup(db, lines, &out, &err, "--only moves");
	cr_assert_eq(rc, 0, "%s", err);
	cr_assert_str_eq(out, "ll\nlll\nu\n");
	free(out);
	free(err);
	damage_group_1(db);
	tk_knob("SLIDEDB_VERIFY_SLICE", "4096");
	rc = ck_lookup(db, lines, &out, &err, "--only moves");
	tk_knob("SLIDEDB_VERIFY_SLICE", NULL);
	cr_assert_eq(rc, 1, "a damaged set answered: '%s'", out);
	cr_assert_eq(tk_lines(out), 3, "'%s'", out);
	for (const char *line = out; *line; line = strchr(line, '\n') + 1)
		cr_assert(!strncmp(line, "error: ", 7), "a line answered: '%s'", out);
	cr_assert(strstr(err, "pdb-4x4-b0-5-5-5/g1") && strstr(err, "CRC"), "%s", err);
	free(out);
	free(err);
	/* the library's side: a deferred answer may come back, the wait says no */
	tk_knob("SLIDEDB_VERIFY_SLICE", "4096");
	sdb_db *h;
	cr_assert_eq(sdb_db_open(&h, db, SDB_RDONLY), 0, "%s", sdb_error_detail());
	const sdb_board start = ck_parse_board("1 2 0 3 4 5 6 7 8 9 10 11 12 13 14 15", 0, 0),
	                goal = ck_parse_board(KORF_GOAL, 0, 0);
	sdb_answer_opts opts = SDB_ANSWER_OPTS_INIT;
	opts.defer_check = 1;
	sdb_answer a;
	rc = sdb_answer_query(&a, h, &start, &goal, &opts);
	cr_assert(rc == SDB_OK || rc == SDB_ECORRUPT, "%d: %s", rc, sdb_error_detail());
	cr_assert_eq(sdb_db_checked(h), SDB_ECORRUPT);
	cr_assert(strstr(sdb_error_detail(), "pdb-4x4-b0-5-5-5/g1"), "%s", sdb_error_detail());
	cr_assert_eq(sdb_answer_query(&a, h, &start, &goal, &opts), SDB_ECORRUPT);
	sdb_db_close(h);
	tk_knob("SLIDEDB_VERIFY_SLICE", NULL);
	ck_db_remove(db);
}

/* A set is checked once per database handle (its snapshot of the file), not
 * on every use: a byte damaged after the first check goes unseen by the same
 * handle's later heuristics and searches (the observable of "not checked
 * again"; once 0.16 s a use with 6-6-6-6), and is found by a handle opened
 * or renewed afterwards, whose tables may be others. */
Test(pdb_4x4, a_set_is_checked_once_per_handle)
{
	char db[PATH_LEN];
	tk_tmp_path(db, sizeof db, "pdb-checked-once.lmdb");
	build_pdb(db, "4x4", "5-5-5", NULL);
	const sdb_board start = ck_parse_board("1 2 0 3 4 5 6 7 8 9 10 11 12 13 14 15", 0, 0),
	                goal = ck_parse_board(KORF_GOAL, 0, 0);
	sdb_db *h, *renewed, *fresh;
	cr_assert_eq(sdb_db_open(&h, db, SDB_RDONLY), 0, "%s", sdb_error_detail());
	sdb_heuristic *first, *again;
	cr_assert_eq(sdb_heuristic_open(&first, h, &goal, NULL), 0, "%s", sdb_error_detail());
	damage_group_1(db);
	cr_assert_eq(sdb_heuristic_open(&again, h, &goal, NULL), 0, "checked again: %s",
	             sdb_error_detail());
	sdb_answer a;
	cr_assert_eq(sdb_answer_query(&a, h, &start, &goal, NULL), 0, "checked again: %s",
	             sdb_error_detail());
	cr_assert_str_eq(a.moves, "ll");
	cr_assert_eq(sdb_db_checked(h), 0, "%s", sdb_error_detail());
	cr_assert_eq(sdb_db_reopen(&renewed, h), 0, "%s", sdb_error_detail());
	cr_assert_eq(sdb_answer_query(&a, renewed, &start, &goal, NULL), SDB_ECORRUPT);
	cr_assert(strstr(sdb_error_detail(), "pdb-4x4-b0-5-5-5/g1"), "%s", sdb_error_detail());
	cr_assert_eq(sdb_db_open(&fresh, db, SDB_RDONLY), 0, "%s", sdb_error_detail());
	sdb_heuristic *damaged = NULL;
	cr_assert_eq(sdb_heuristic_open(&damaged, fresh, &goal, NULL), SDB_ECORRUPT);
	sdb_heuristic_close(again);
	sdb_heuristic_close(first);
	sdb_db_close(fresh);
	sdb_db_close(renewed);
	sdb_db_close(h);
	ck_db_remove(db);
}

/* The set's check runs beside the first search (sdb_answer_query): a damaged
 * set stops a search that would take minutes (an 80-move position on 5-5-5)
 * as soon as the check fails, with the check's error, and every later
 * search on the handle is that error at once. */
Test(pdb_4x4, a_damaged_set_stops_a_long_search, .timeout = 60)
{
	char db[PATH_LEN];
	tk_tmp_path(db, sizeof db, "pdb-damaged-long.lmdb");
	build_pdb(db, "4x4", "5-5-5", NULL);
	damage_group_1(db);
	tk_knob("SLIDEDB_VERIFY_SLICE", "4096");
	sdb_db *h;
	cr_assert_eq(sdb_db_open(&h, db, SDB_RDONLY), 0, "%s", sdb_error_detail());
	const sdb_board start = ck_parse_board("0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1", 0, 0),
	                goal = ck_parse_board(STD4, 0, 0);
	sdb_answer a;
	for (int k = 0; k < 2; k++) {
		const int rc = sdb_answer_query(&a, h, &start, &goal, NULL);
		cr_assert_eq(rc, SDB_ECORRUPT, "search %d: %d, %s", k, rc, sdb_error_detail());
		cr_assert(strstr(sdb_error_detail(), "pdb-4x4-b0-5-5-5/g1") &&
		          strstr(sdb_error_detail(), "CRC"), "%s", sdb_error_detail());
	}
	sdb_db_close(h);
	tk_knob("SLIDEDB_VERIFY_SLICE", NULL);
	ck_db_remove(db);
}
