/* SPDX-License-Identifier: MIT */
/* End-to-end tests of the richer answers of slidedb-lookup: every optimal
 * first move (--all-best), the number of optimal solutions (--solutions), the
 * solutions themselves (--all, --limit), the tiles that slide (--tiles),
 * boards drawn as grids (--grid); the judge (check), the board generator
 * (random), the histogram of info. Their usage errors, the verdicts of the
 * command line and of bad check lines, and what random needs a table for
 * are plain output: tests/cli/answers-*.md.
 *
 * Every answer is checked against an independent oracle: the kit's
 * simple BFS from the goal, with the number of shortest paths counted beside
 * it and the optimal sequences enumerated from it in u < d < l < r order.
 * Every move sequence printed is replayed move by move.
 *
 * Every test builds its own small database with slidedb-gen (milliseconds)
 * in a fresh scratch path, and removes it at the end; the tests of what needs
 * no table use a scratch path where there is no database. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/resource.h>

#include "cli/answerer.h"
#include "kit/boards.h"
#include "kit/files.h"
#include "kit/json.h"
#include "kit/messages.h"
#include "kit/oracle.h"
#include "kit/run.h"
#include "kit/text.h"

enum { ARGS_MAX = 4096, TEXT_MAX = 512, MAX_COLS = 16, COL_MAX = 64 };

/* The letters of the moves, in the order solutions are listed. */
static const char ORDER[] = "udlr";

/* ------------------------------------------------------------------ */
/* Scratch databases and running the program                             */

static void vformat(char *buf, size_t cap, const char *fmt, va_list ap)
{
	int n = vsnprintf(buf, cap, fmt, ap);
	cr_assert(n >= 0 && (size_t)n < cap, "arguments too long");
}

/* slidedb-lookup on db with the formatted arguments and input on stdin: it
 * must succeed (exit 0) and write nothing to stderr. Returns stdout. */
static char *run_ok(const char *db, const char *input, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static char *run_ok(const char *db, const char *input, const char *fmt, ...)
{
	char args[ARGS_MAX];
	va_list ap;
	va_start(ap, fmt);
	vformat(args, sizeof args, fmt, ap);
	va_end(ap);
	char *out, *err;
	int rc = ck_lookup(db, input, &out, &err, "%s", args);
	cr_assert_eq(rc, 0, "'%s': exit %d (stderr: %s)", args, rc, err);
	cr_assert_str_empty(err, "'%s' wrote to stderr: %s", args, err);
	free(err);
	return out;
}

/* A failure that is not a usage error: exit 1, nothing on stdout, one line
 * on stderr that holds frag (when not NULL). */
static void failure_case(const char *db, const char *frag, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void failure_case(const char *db, const char *frag, const char *fmt, ...)
{
	char args[ARGS_MAX];
	va_list ap;
	va_start(ap, fmt);
	vformat(args, sizeof args, fmt, ap);
	va_end(ap);
	char *out, *err;
	int rc = ck_lookup(db, NULL, &out, &err, "%s", args);
	ck_assert_refused(rc, 1, out, err, args, frag, NULL);
	free(out);
	free(err);
}

/* ------------------------------------------------------------------ */
/* Lists of strings                                                      */

typedef struct strs {
	char **v;
	int n, cap;
} strs;

static void strs_push(strs *s, const char *text, size_t len)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->v = realloc(s->v, (size_t)s->cap * sizeof *s->v);
		cr_assert(s->v);
	}
	s->v[s->n] = strndup(text, len);
	cr_assert(s->v[s->n]);
	s->n++;
}

static void strs_free(strs *s)
{
	for (int i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	*s = (strs){ 0 };
}

/* Space-separated words of text. */
static strs words_of(const char *text)
{
	strs s = { 0 };
	for (const char *p = text; *p;) {
		p += strspn(p, " ");
		size_t len = strcspn(p, " ");
		if (len)
			strs_push(&s, p, len);
		p += len;
	}
	return s;
}

/* ------------------------------------------------------------------ */
/* Minimal JSON arrays                                                   */

/* The JSON array of strings at p ('[' ...) into out; returns the position
 * after ']'. */
static const char *parse_str_array(const char *p, strs *out, const char *where)
{
	cr_assert(p && *p == '[', "%s: not an array: '%.40s'", where, p ? p : "(missing)");
	p++;
	while (*p == '"') {
		const char *end = strchr(p + 1, '"');
		cr_assert(end, "%s: unterminated string", where);
		strs_push(out, p + 1, (size_t)(end - p - 1));
		p = end + 1;
		if (*p == ',')
			p++;
	}
	cr_assert_eq(*p, ']', "%s: malformed array near '%.40s'", where, p);
	return p + 1;
}

/* The array of strings of key in obj: 1 (into out), 0 when null, -1 when
 * missing. */
static int json_strs(const char *obj, const char *key, strs *out, const char *where)
{
	const char *v = ck_json_value(obj, key);
	if (!v)
		return -1;
	if (!strncmp(v, "null", 4))
		return 0;
	parse_str_array(v, out, where);
	return 1;
}

/* The array of integers of key in obj: 1 (into v, count in *n), 0 when null,
 * -1 when missing. */
static int json_ints(const char *obj, const char *key, int *v, int cap, int *n,
                     const char *where)
{
	const char *p = ck_json_value(obj, key);
	if (!p)
		return -1;
	if (!strncmp(p, "null", 4))
		return 0;
	cr_assert_eq(*p, '[', "%s: %s is not an array", where, key);
	p++;
	*n = 0;
	while (*p != ']') {
		char *end;
		long x = strtol(p, &end, 10);
		cr_assert(end != p, "%s: %s: not a number at '%.20s'", where, key, p);
		cr_assert_lt(*n, cap, "%s: %s too long", where, key);
		v[(*n)++] = (int)x;
		p = end;
		if (*p == ',')
			p++;
	}
	return 1;
}

/* ------------------------------------------------------------------ */
/* Boards and moves                                                      */



/* Rank of a move letter in u < d < l < r, -1 for anything else. */
static int move_rank(char c)
{
	const char *p = c ? strchr(ORDER, c) : NULL;
	return p ? (int)(p - ORDER) : -1;
}

/* Compare two move sequences in the order u < d < l < r. */
static int cmp_moves(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (*a != *b)
			return move_rank(*a) - move_rank(*b);
	return (int)(unsigned char)*a - (int)(unsigned char)*b;
}

/* The cell holding the blank, found by looking. */
static int blank_cell(const sdb_board *b)
{
	for (int i = 0; i < b->n; i++)
		if (!b->cell[i])
			return i;
	cr_assert_fail("board without a blank");
	return -1;
}

/* The tiles that slide as moves are played from start, found by replaying
 * them: the tile that ends where the blank was. Returns how many, or -1 at
 * an illegal move. */
static int replay_tiles(const sdb_board *start, const char *moves, int *tiles)
{
	sdb_board b = *start;
	int k = 0;
	for (const char *p = moves; *p; p++) {
		int was = blank_cell(&b);
		if (sdb_board_apply(&b, sdb_move_from_letter(*p)) != 0)
			return -1;
		tiles[k++] = b.cell[was];
	}
	return k;
}

/* ------------------------------------------------------------------ */
/* The oracle (kit/oracle.h: the simple BFS with the shortest paths of      */
/* every state counted beside it), read in the letters of the answers       */

static int oracle_dist(const tk_oracle *o, const sdb_board *b)
{
	return simple_bfs_dist(&o->bfs, b);
}

/* The number of optimal solutions from b (0 when unsolvable): 3x3 and 2x5
 * counts fit 64 bits. */
static uint64_t oracle_ways(const tk_oracle *o, const sdb_board *b)
{
	return (uint64_t)tk_oracle_paths(o, b);
}

/* The letters of every move that starts an optimal solution from b, in
 * u d l r order ("" at the goal); returns the distance (-1: unsolvable). */
static int oracle_best(const tk_oracle *o, const sdb_board *b, char *buf)
{
	const unsigned best = tk_oracle_best(o, b);
	int n = 0;
	for (int k = 0; k < 4; k++)
		if (best >> sdb_move_from_letter(ORDER[k]) & 1)
			buf[n++] = ORDER[k];
	buf[n] = '\0';
	return oracle_dist(o, b);
}

static void enum_rec(const tk_oracle *o, const sdb_board *b, char *prefix, int len, int limit,
                     strs *out)
{
	if (out->n >= limit)
		return;
	int d = oracle_dist(o, b);
	if (d == 0) {
		strs_push(out, prefix, (size_t)len);
		return;
	}
	for (int k = 0; k < 4; k++) {
		sdb_board nb = *b;
		if (sdb_board_apply(&nb, sdb_move_from_letter(ORDER[k])) != 0 ||
		    oracle_dist(o, &nb) != d - 1)
			continue;
		prefix[len] = ORDER[k];
		enum_rec(o, &nb, prefix, len + 1, limit, out);
	}
}

/* The first `limit` optimal solutions from a solvable b, in u < d < l < r
 * order, by a depth-first walk down the BFS layers. */
static strs oracle_enum(const tk_oracle *o, const sdb_board *b, int limit)
{
	strs out = { 0 };
	char prefix[SDB_MAX_MOVES + 1];
	cr_assert_geq(oracle_dist(o, b), 0);
	enum_rec(o, b, prefix, 0, limit, &out);
	return out;
}

/* n starts for the oracle's goal: the goal itself, two of the farthest
 * states, one unsolvable board, then random walks of 1 to 80 moves. */
static void make_starts(const tk_oracle *o, sdb_board *starts, int n, unsigned seed)
{
	for (int i = 0; i < n; i++) {
		if (i == 0)
			starts[i] = o->goal;
		else if (i <= 2)
			starts[i] = simple_bfs_farthest(&o->bfs, i);
		else if (i == 3) {
			tk_random_walk(&starts[i], &o->goal, 21, &seed);
			starts[i] = tk_swap_two_tiles(&starts[i]);
			cr_assert_eq(oracle_dist(o, &starts[i]), -1);
		} else
			tk_random_walk(&starts[i], &o->goal, 1 + (int)(rand_r(&seed) % 80), &seed);
	}
}

/* One "START ; GOAL" line per start. */
static char *query_lines(const sdb_board *starts, int n, const sdb_board *goal)
{
	ck_sbuf b = { 0 };
	for (int i = 0; i < n; i++)
		ck_sb_query(&b, &starts[i], goal);
	return b.s;
}

/* ------------------------------------------------------------------ */
/* Checking answers                                                      */

enum { F_BEST = 1, F_COUNT = 2, F_ALL = 4, F_TILES = 8 };

/* The options of flags, for the command line. */
static const char *flag_opts(int flags, char *buf, size_t cap)
{
	snprintf(buf, cap, "%s%s%s%s", flags & F_BEST ? " --all-best" : "",
	         flags & F_COUNT ? " --solutions" : "", flags & F_ALL ? " --all" : "",
	         flags & F_TILES ? " --tiles" : "");
	return buf;
}

/* The solutions an answer lists: each replays from start to the goal in
 * exactly d moves; they are distinct and strictly increasing in u < d < l < r
 * order, as many as min(solutions, limit), the first ones of the oracle's
 * own enumeration; when they are all there, the answer's moves are one of
 * them and their first letters are the best moves. */
static void check_all_list(const strs *all, const tk_oracle *o, const sdb_board *start,
                           const char *moves, uint64_t limit, const char *where)
{
	int d = oracle_dist(o, start);
	uint64_t ways = oracle_ways(o, start);
	uint64_t want = ways < limit ? ways : limit;
	cr_assert_eq((uint64_t)all->n, want, "%s: %d solutions listed; %llu exist, limit %llu",
	             where, all->n, (unsigned long long)ways, (unsigned long long)limit);
	for (int i = 0; i < all->n; i++) {
		const char *s = all->v[i];
		cr_assert_eq((int)strlen(s), d, "%s: solution '%s' is not %d moves", where, s, d);
		cr_assert(tk_replay(start, s, &o->goal), "%s: solution '%s' does not lead from '%s' to "
		          "'%s'", where, s, ck_board_text(start).s, ck_board_text(&o->goal).s);
		if (i > 0)
			cr_assert_lt(cmp_moves(all->v[i - 1], s), 0, "%s: '%s' then '%s': not strictly "
			             "increasing in u < d < l < r", where, all->v[i - 1], s);
	}
	strs ref = oracle_enum(o, start, (int)want);
	cr_assert_eq(ref.n, all->n);
	for (int i = 0; i < all->n; i++)
		cr_assert_str_eq(all->v[i], ref.v[i], "%s: solution %d is '%s', the BFS's is '%s'",
		                 where, i, all->v[i], ref.v[i]);
	strs_free(&ref);
	if (ways > limit)
		return;
	int found = 0;
	for (int i = 0; i < all->n; i++)
		found |= !strcmp(all->v[i], moves);
	cr_assert(found, "%s: the answer's moves '%s' are not among its solutions", where, moves);
	char firsts[5] = "", best[5];
	oracle_best(o, start, best);
	for (int k = 0, n = 0; k < 4; k++)
		for (int i = 0; i < all->n; i++)
			if (all->v[i][0] == ORDER[k]) {
				firsts[n++] = ORDER[k];
				firsts[n] = '\0';
				break;
			}
	cr_assert_str_eq(firsts, best, "%s: first moves of the solutions '%s', best moves '%s'",
	                 where, firsts, best);
}

/* One JSON answer for start, with the fields of flags, against the oracle;
 * the fields not asked for are absent. */
static void check_rich_json(const char *obj, const tk_oracle *o, const sdb_board *start, int flags,
                            uint64_t limit, const char *where)
{
	char buf[TEXT_MAX];
	cr_assert_eq(ck_json_str(obj, "start", buf, sizeof buf), 1, "%s: no start: %s", where, obj);
	cr_assert_str_eq(buf, ck_board_text(start).s, "%s: start", where);
	cr_assert_eq(ck_json_str(obj, "goal", buf, sizeof buf), 1, "%s: no goal: %s", where, obj);
	cr_assert_str_eq(buf, ck_board_text(&o->goal).s, "%s: goal", where);
	static const struct { int flag; const char *key; } keys[] = {
		{ F_BEST, "best_moves" }, { F_COUNT, "solutions" }, { F_ALL, "all_moves" },
		{ F_TILES, "tiles" },
	};
	for (int k = 0; k < 4; k++)
		if (!(flags & keys[k].flag))
			cr_assert_null(ck_json_value(obj, keys[k].key), "%s: \"%s\" not asked for: %s",
			               where, keys[k].key, obj);
	int d = oracle_dist(o, start);
	long v = -1;
	if (d < 0) {
		cr_assert_eq(ck_json_bool(obj, "solvable"), 0, "%s: should be unsolvable: %s", where,
		             obj);
		cr_assert_eq(ck_json_long(obj, "distance", &v), 0, "%s: distance not null", where);
		cr_assert_eq(ck_json_str(obj, "moves", buf, sizeof buf), 0, "%s: moves not null", where);
		for (int k = 0; k < 4; k++)
			if (flags & keys[k].flag) {
				const char *p = ck_json_value(obj, keys[k].key);
				cr_assert(p && !strncmp(p, "null", 4), "%s: \"%s\" should be null when "
				          "unsolvable: %s", where, keys[k].key, obj);
			}
		return;
	}
	cr_assert_eq(ck_json_bool(obj, "solvable"), 1, "%s: should be solvable: %s", where, obj);
	cr_assert_eq(ck_json_long(obj, "distance", &v), 1, "%s: no distance: %s", where, obj);
	cr_assert_eq(v, d, "%s: distance %ld, the BFS says %d", where, v, d);
	char moves[TEXT_MAX];
	cr_assert_eq(ck_json_str(obj, "moves", moves, sizeof moves), 1, "%s: no moves", where);
	cr_assert_eq((int)strlen(moves), d, "%s: moves '%s' for distance %d", where, moves, d);
	cr_assert(tk_replay(start, moves, &o->goal), "%s: moves '%s' do not reach the goal", where,
	          moves);
	if (flags & F_TILES) {
		int got[SDB_MAX_MOVES], want[SDB_MAX_MOVES], n = -1;
		cr_assert_eq(json_ints(obj, "tiles", got, SDB_MAX_MOVES, &n, where), 1,
		             "%s: no tiles array: %s", where, obj);
		cr_assert_eq(replay_tiles(start, moves, want), d);
		cr_assert_eq(n, d, "%s: %d tiles for %d moves", where, n, d);
		for (int i = 0; i < d; i++)
			cr_assert_eq(got[i], want[i], "%s: move %d '%c' slides tile %d, not %d", where,
			             i + 1, moves[i], want[i], got[i]);
	}
	if (flags & F_BEST) {
		char best[5];
		oracle_best(o, start, best);
		cr_assert_eq(ck_json_str(obj, "best_moves", buf, sizeof buf), 1, "%s: no best_moves: "
		             "%s", where, obj);
		cr_assert_str_eq(buf, best, "%s: best_moves '%s', the BFS says '%s'", where, buf, best);
	}
	if (flags & F_COUNT) {
		cr_assert_eq(ck_json_long(obj, "solutions", &v), 1, "%s: no solutions: %s", where, obj);
		cr_assert_eq((uint64_t)v, oracle_ways(o, start), "%s: %ld solutions, the BFS counts "
		             "%llu", where, v, (unsigned long long)oracle_ways(o, start));
	}
	if (flags & F_ALL) {
		strs all = { 0 };
		cr_assert_eq(json_strs(obj, "all_moves", &all, where), 1, "%s: no all_moves: %s",
		             where, obj);
		check_all_list(&all, o, start, moves, limit, where);
		strs_free(&all);
	}
}

/* Split a text answer into its "key value" fields, separated by two
 * spaces; returns how many. The line is cut in place. */
static int split_fields(char *line, char **keys, char **vals, int cap)
{
	int n = 0;
	for (char *p = line; *p;) {
		cr_assert_lt(n, cap, "too many fields");
		char *end = strstr(p, "  ");
		if (end)
			*end = '\0';
		char *sp = strchr(p, ' ');
		cr_assert(sp, "field '%s' has no value", p);
		*sp = '\0';
		keys[n] = p;
		vals[n++] = sp + 1;
		if (!end)
			break;
		p = end + 2;
	}
	return n;
}

static const char *field_of(char **keys, char **vals, int n, const char *key)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(keys[i], key))
			return vals[i];
	return NULL;
}

/* One text answer line for start, with the fields of flags, against the
 * oracle: "distance D  best B  moves M", then "tiles", "best-moves",
 * "solutions" and "all" as asked, "-" for an empty one at the goal. */
static void check_rich_text(const char *line, const tk_oracle *o, const sdb_board *start,
                            int flags, uint64_t limit, const char *where)
{
	int d = oracle_dist(o, start);
	if (d < 0) {
		cr_assert_str_eq(line, "unsolvable", "%s: unsolvable board answered '%s'", where, line);
		return;
	}
	char *copy = strdup(line), *keys[16], *vals[16];
	int n = split_fields(copy, keys, vals, 16);
	int want_n = 3 + !!(flags & F_BEST) + !!(flags & F_COUNT) + !!(flags & F_ALL) +
	             !!(flags & F_TILES);
	cr_assert_eq(n, want_n, "%s: %d fields in '%s', expected %d", where, n, line, want_n);
	cr_assert_str_eq(keys[0], "distance", "%s: '%s'", where, line);
	cr_assert_str_eq(keys[1], "best", "%s: '%s'", where, line);
	cr_assert_str_eq(keys[2], "moves", "%s: '%s'", where, line);
	cr_assert(strspn(vals[0], "0123456789") == strlen(vals[0]) && atoi(vals[0]) == d,
	          "%s: '%s': distance, the BFS says %d", where, line, d);
	const char *moves = d ? vals[2] : "";
	if (!d)
		cr_assert(!strcmp(vals[1], "-") && !strcmp(vals[2], "-"), "%s: at the goal: '%s'",
		          where, line);
	cr_assert_eq((int)strlen(moves), d, "%s: '%s': moves of the wrong length", where, line);
	cr_assert(tk_replay(start, moves, &o->goal), "%s: '%s' does not replay to the goal", where,
	          line);
	const char *v;
	if (flags & F_TILES) {
		cr_assert((v = field_of(keys, vals, n, "tiles")), "%s: no tiles in '%s'", where, line);
		if (!d) {
			cr_assert_str_eq(v, "-", "%s: tiles at the goal", where);
		} else {
			int want[SDB_MAX_MOVES];
			cr_assert_eq(replay_tiles(start, moves, want), d);
			strs t = words_of(v);
			cr_assert_eq(t.n, d, "%s: '%s': %d tiles for %d moves", where, line, t.n, d);
			for (int i = 0; i < d; i++)
				cr_assert_eq(atoi(t.v[i]), want[i], "%s: '%s': move %d slides tile %d", where,
				             line, i + 1, want[i]);
			strs_free(&t);
		}
	}
	if (flags & F_BEST) {
		char best[5];
		oracle_best(o, start, best);
		cr_assert((v = field_of(keys, vals, n, "best-moves")), "%s: no best-moves in '%s'",
		          where, line);
		cr_assert_str_eq(v, d ? best : "-", "%s: '%s': best-moves, the BFS says '%s'", where,
		                 line, best);
	}
	if (flags & F_COUNT) {
		cr_assert((v = field_of(keys, vals, n, "solutions")), "%s: no solutions in '%s'", where,
		          line);
		cr_assert(strspn(v, "0123456789") == strlen(v) &&
		          strtoull(v, NULL, 10) == oracle_ways(o, start),
		          "%s: '%s': solutions, the BFS counts %llu", where, line,
		          (unsigned long long)oracle_ways(o, start));
	}
	if (flags & F_ALL) {
		cr_assert((v = field_of(keys, vals, n, "all")), "%s: no all in '%s'", where, line);
		strs all = { 0 };
		if (!d) {
			cr_assert_str_eq(v, "-", "%s: all at the goal", where);
			strs_push(&all, "", 0);
		} else {
			all = words_of(v);
		}
		check_all_list(&all, o, start, moves, limit, where);
		strs_free(&all);
	}
	free(copy);
}

/* Send every start as one batch with the options of flags (and extra) and
 * check every answer, in JSON and in text. */
static void check_rich_batch(const char *db, const tk_oracle *o, const sdb_board *starts, int n,
                             int flags, uint64_t limit, const char *extra)
{
	char *in = query_lines(starts, n, &o->goal), opts[128], where[TEXT_MAX];
	flag_opts(flags, opts, sizeof opts);
	for (int json = 0; json < 2; json++) {
		char *out = run_ok(db, in, "%s %s %s", json ? "--json" : "", opts, extra);
		char **lines;
		int nl = ck_split_lines(out, &lines);
		cr_assert_eq(nl, n, "'%s %s': %d lines for %d queries", opts, extra, nl, n);
		for (int i = 0; i < n; i++) {
			snprintf(where, sizeof where, "%s%s %s: answer %d", json ? "--json" : "", opts,
			         extra, i);
			if (json)
				check_rich_json(lines[i], o, &starts[i], flags, limit, where);
			else
				check_rich_text(lines[i], o, &starts[i], flags, limit, where);
		}
		free(lines);
		free(out);
	}
	free(in);
}

/* ------------------------------------------------------------------ */
/* Grids                                                                 */

/* The columns of a grid line (labels, or one row of every board), separated
 * by runs of two or more spaces. */
static int split_columns(const char *line, char cols[][COL_MAX], int cap)
{
	int n = 0;
	for (const char *p = line; *p;) {
		const char *end = strstr(p, "  ");
		size_t len = end ? (size_t)(end - p) : strlen(p);
		cr_assert_lt(n, cap, "too many columns in '%s'", line);
		cr_assert_lt(len, (size_t)COL_MAX, "column too wide in '%s'", line);
		if (len) {
			memcpy(cols[n], p, len);
			cols[n++][len] = '\0';
		}
		if (!end)
			break;
		p = end + strspn(end, " ");
	}
	return n;
}

/* Read `want` boards drawn side by side as w x h grids from lines[*at]:
 * blocks of a line of labels and h lines of rows, blank lines between and
 * after them. Each board is the rows of its column joined, written with the
 * blank as `blank` and never as another character; it is parsed into
 * boards[], its label into labels[]. */
static void read_grids(char **lines, int nlines, int *at, int w, int h, char blank, int want,
                       char labels[][COL_MAX], sdb_board *boards, const char *where)
{
	int got = 0;
	while (got < want) {
		cr_assert_lt(*at, nlines, "%s: grids cut short after %d of %d", where, got, want);
		if (!lines[*at][0]) {   /* a blank line between blocks */
			(*at)++;
			continue;
		}
		int nb = split_columns(lines[(*at)++], labels + got,
		                       want - got < MAX_COLS ? want - got : MAX_COLS);
		cr_assert_gt(nb, 0);
		char rows[MAX_COLS][TEXT_MAX] = { { 0 } };
		for (int r = 0; r < h; r++) {
			cr_assert_lt(*at, nlines, "%s: grid rows cut short", where);
			char cols[MAX_COLS][COL_MAX];
			int nc = split_columns(lines[(*at)++], cols, MAX_COLS);
			cr_assert_eq(nc, nb, "%s: grid row '%s' has %d columns for %d labels", where,
			             lines[*at - 1], nc, nb);
			for (int c = 0; c < nc; c++) {
				strs cells = words_of(cols[c]);
				cr_assert_eq(cells.n, w, "%s: grid row '%s' is not %d cells wide", where,
				             cols[c], w);
				strs_free(&cells);
				size_t len = strlen(rows[c]);
				snprintf(rows[c] + len, sizeof rows[c] - len, "%s%s", r ? " " : "", cols[c]);
			}
		}
		for (int c = 0; c < nb; c++) {
			strs cells = words_of(rows[c]);
			int blanks = 0;
			for (int i = 0; i < cells.n; i++) {
				int is_blank = strlen(cells.v[i]) == 1 && cells.v[i][0] == blank;
				blanks += is_blank;
				cr_assert(is_blank || strspn(cells.v[i], "0123456789") == strlen(cells.v[i]),
				          "%s: grid '%s' writes the blank as '%s', the input wrote '%c'",
				          where, rows[c], cells.v[i], blank);
				cr_assert(is_blank || atoi(cells.v[i]) > 0, "%s: grid '%s' writes the blank "
				          "as '0', the input wrote '%c'", where, rows[c], blank);
			}
			cr_assert_eq(blanks, 1, "%s: grid '%s' lacks its blank '%c'", where, rows[c], blank);
			strs_free(&cells);
			boards[got + c] = ck_parse_board(rows[c], w, h);
		}
		got += nb;
	}
	if (*at < nlines && !lines[*at][0])
		(*at)++;
}

/* The board of a JSON grid at p (an array of row strings, w cells each),
 * its rows joined; the blank must be written as `blank`. *after (when not
 * NULL) is set past the array. */
static sdb_board json_grid(const char *p, int w, int h, char blank, const char **after,
                           const char *where)
{
	strs rows = { 0 };
	const char *end = parse_str_array(p, &rows, where);
	if (after)
		*after = end;
	cr_assert_eq(rows.n, h, "%s: a grid of %d rows, expected %d", where, rows.n, h);
	ck_sbuf joined = { 0 };
	for (int r = 0; r < h; r++) {
		strs cells = words_of(rows.v[r]);
		cr_assert_eq(cells.n, w, "%s: grid row '%s' is not %d cells", where, rows.v[r], w);
		strs_free(&cells);
		ck_sb_printf(&joined, "%s%s", r ? " " : "", rows.v[r]);
	}
	char blank_word[3] = { ' ', blank, '\0' };
	cr_assert(strstr(joined.s, blank_word) || joined.s[0] == blank, "%s: grid '%s' does not "
	          "write the blank as '%c'", where, joined.s, blank);
	sdb_board b = ck_parse_board(joined.s, w, h);
	free(joined.s);
	strs_free(&rows);
	return b;
}

/* ------------------------------------------------------------------ */
/* 1. --all-best, --solutions, --all, --tiles against the BFS                 */

/* Four goals: the blank in the standard corner, in the centre, on an edge
 * (a turned table) and in the opposite corner with the tiles reversed (a
 * mirrored table), so the moves of every symmetry are mapped back. */
static const char *const GOALS[] = {
	"1 2 3 4 5 6 7 8 0",
	"1 2 3 4 0 5 6 7 8",
	"3 1 2 6 4 0 7 8 5",
	"0 8 7 6 5 4 3 2 1",
};

/* Starts for goals GOALS[first ..], batches with every combination of the
 * new fields, in JSON and in text. */
static void rich_fields_for_goals(int first, int count)
{
	char db[TEXT_MAX];
	tk_build_scratch(db, sizeof db, "3x3");
	enum { N = 14 };
	for (int g = first; g < first + count; g++) {
		sdb_board goal = ck_parse_board(GOALS[g], 3, 3), starts[N];
		tk_oracle o;
		tk_oracle_init(&o, &goal);
		make_starts(&o, starts, N, 1000u + (unsigned)g);
		check_rich_batch(db, &o, starts, N, F_BEST | F_COUNT | F_ALL | F_TILES, 100, "");
		check_rich_batch(db, &o, starts, N, F_ALL | F_COUNT, 3, "--limit 3");
		check_rich_batch(db, &o, starts, N, F_BEST, 100, "");
		check_rich_batch(db, &o, starts, N, F_COUNT | F_TILES, 100, "");
		tk_oracle_free(&o);
	}
	ck_db_remove(db);
}

Test(answers, rich_fields_match_the_bfs_corner_and_centre_goals)
{
	rich_fields_for_goals(0, 2);
}

Test(answers, rich_fields_match_the_bfs_turned_and_mirrored_goals)
{
	rich_fields_for_goals(2, 2);
}

/* No 3x3 state has more than about 60 optimal solutions; 2x5 boards have
 * more than 100: the default limit and the ones around the count. */
Test(answers, all_lists_the_first_limit_solutions_default_100)
{
	char db[TEXT_MAX];
	tk_tmp_path(db, sizeof db, "answers-2x5.lmdb");
	tk_build(db, "2x5", "--goal 1,2,3,4,5,6,7,8,9,0");
	tk_oracle o;
	sdb_board goal = ck_std_goal(2, 5);
	tk_oracle_init(&o, &goal);
	/* A state with more than 100 optimal solutions, but not so many. */
	sdb_board start = { 0 };
	uint64_t ways = 0;
	for (uint64_t i = 0; i < o.bfs.cap && !ways; i++)
		if (o.bfs.keys[i] && o.paths[i] > 100 && o.paths[i] <= 400) {
			tk_unpack(&start, 2, 5, o.bfs.keys[i]);
			ways = o.paths[i];
		}
	cr_assert_gt(ways, 100, "no 2x5 state has 101 to 400 optimal solutions");
	ck_btext s = ck_board_text(&start);
	uint64_t limits[] = { 100, 1, 7, ways - 1, ways, ways + 9 };
	for (size_t k = 0; k < sizeof limits / sizeof *limits; k++) {
		char where[64];
		snprintf(where, sizeof where, "--limit %llu", (unsigned long long)limits[k]);
		char *out = k ? run_ok(db, NULL, "--size 2x5 --json --all --solutions --all-best --limit %llu "
		                       "'%s'", (unsigned long long)limits[k], s.s)
		              : run_ok(db, NULL, "--size 2x5 --json --all --solutions --all-best '%s'", s.s);
		cr_assert_eq(tk_lines(out), 1, "%s: '%s'", where, out);
		check_rich_json(out, &o, &start, F_ALL | F_COUNT | F_BEST, limits[k], where);
		free(out);
		out = k ? run_ok(db, NULL, "--size 2x5 --all --limit %llu '%s'",
		                 (unsigned long long)limits[k], s.s)
		        : run_ok(db, NULL, "--size 2x5 --all '%s'", s.s);
		cr_assert_eq(tk_lines(out), 1, "%s: '%s'", where, out);
		out[strlen(out) - 1] = '\0';
		check_rich_text(out, &o, &start, F_ALL, limits[k], where);
		free(out);
	}
	tk_oracle_free(&o);
	ck_db_remove(db);
}

Test(answers, only_best_moves_and_only_solutions)
{
	char db[TEXT_MAX];
	tk_build_scratch(db, sizeof db, "3x3");
	enum { N = 14 };
	sdb_board goal = ck_parse_board(GOALS[1], 3, 3), starts[N];
	tk_oracle o;
	tk_oracle_init(&o, &goal);
	make_starts(&o, starts, N, 77u);
	char *in = query_lines(starts, N, &goal);
	for (int which = 0; which < 2; which++) {
		const char *field = which ? "solutions" : "best-moves";
		char *out = run_ok(db, in, "--only %s", field);
		char **lines;
		int n = ck_split_lines(out, &lines);
		cr_assert_eq(n, N, "--only %s: %d lines for %d queries", field, n, N);
		for (int i = 0; i < N; i++) {
			char want[32], best[5];
			int d = oracle_best(&o, &starts[i], best);
			if (d < 0)
				snprintf(want, sizeof want, "unsolvable");
			else if (which)
				snprintf(want, sizeof want, "%llu",
				         (unsigned long long)oracle_ways(&o, &starts[i]));
			else
				snprintf(want, sizeof want, "%s", d ? best : "-");
			cr_assert_str_eq(lines[i], want, "--only %s, query %d (distance %d): '%s', "
			                 "expected '%s'", field, i, d, lines[i], want);
		}
		free(lines);
		free(out);
	}
	free(in);
	tk_oracle_free(&o);

	/* One on the command line, in the seed documents' notation. */
	goal = ck_std_goal(3, 3);
	tk_oracle_init(&o, &goal);
	sdb_board far = ck_parse_board("8 6 7 2 5 4 3 0 1", 3, 3);
	char best[5], want[32];
	cr_assert_eq(oracle_best(&o, &far, best), 31);
	char *out = run_ok(db, NULL, "--only best-moves 8 6 7 2 5 4 3 0 1");
	snprintf(want, sizeof want, "%s\n", best);
	cr_assert_str_eq(out, want);
	free(out);
	out = run_ok(db, NULL, "--only solutions 8 6 7 2 5 4 3 0 1");
	snprintf(want, sizeof want, "%llu\n", (unsigned long long)oracle_ways(&o, &far));
	cr_assert_str_eq(out, want);
	free(out);
	out = run_ok(db, NULL, "--only solutions 1 2 3 4 5 6 7 8 x");
	cr_assert_str_eq(out, "1\n", "one solution at the goal (the empty one): '%s'", out);
	free(out);
	tk_oracle_free(&o);
	ck_db_remove(db);
}

Test(answers, seed_document_example)
{
	char db[TEXT_MAX];
	tk_build_scratch(db, sizeof db, "3x3");
	tk_oracle o;
	sdb_board goal = ck_std_goal(3, 3), start = ck_parse_board("1 2 3 x 4 6 7 5 8", 3, 3);
	tk_oracle_init(&o, &goal);
	/* By hand: r slides 4, d slides 5, r slides 8; any other 3 moves miss. */
	char *out = run_ok(db, NULL, "--all-best --solutions --all --tiles 1 2 3 x 4 6 7 5 8");
	cr_assert_eq(tk_lines(out), 1, "'%s'", out);
	out[strlen(out) - 1] = '\0';
	check_rich_text(out, &o, &start, F_BEST | F_COUNT | F_ALL | F_TILES, 100, "seed");
	char *keys[16], *vals[16];
	int n = split_fields(out, keys, vals, 16);
	const char *want[][2] = { { "distance", "3" }, { "moves", "rdr" }, { "tiles", "4 5 8" },
	                          { "best-moves", "r" }, { "solutions", "1" }, { "all", "rdr" } };
	for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
		const char *v = field_of(keys, vals, n, want[k][0]);
		cr_assert(v && !strcmp(v, want[k][1]), "%s is '%s', expected '%s'", want[k][0],
		          v ? v : "(missing)", want[k][1]);
	}
	free(out);
	out = run_ok(db, NULL, "--json --all-best --solutions --all --tiles '%s'", "1 2 3 x 4 6 7 5 8");
	cr_assert(strstr(out, "\"tiles\":[4,5,8]") && strstr(out, "\"best_moves\":\"r\"") &&
	          strstr(out, "\"solutions\":1") && strstr(out, "\"all_moves\":[\"rdr\"]"),
	          "'%s'", out);
	check_rich_json(out, &o, &start, F_BEST | F_COUNT | F_ALL | F_TILES, 100, "seed json");
	free(out);
	tk_oracle_free(&o);
	ck_db_remove(db);
}

Test(answers, threads_give_the_same_answers)
{
	char db[TEXT_MAX];
	tk_build_scratch(db, sizeof db, "3x3");
	enum { N = 40 };
	sdb_board goal = ck_std_goal(3, 3), starts[N];
	tk_oracle o;
	tk_oracle_init(&o, &goal);
	make_starts(&o, starts, N, 4u);
	char *in = query_lines(starts, N, &goal);
	char *one = run_ok(db, in, "--json --solutions --all-best --all --limit 5 --tiles -t 1");
	char *two = run_ok(db, in, "--json --solutions --all-best --all --limit 5 --tiles -t 2");
	cr_assert_str_eq(one, two, "answers differ on 2 threads");
	char **lines;
	cr_assert_eq(ck_split_lines(two, &lines), N);
	for (int i = 0; i < N; i++)
		check_rich_json(lines[i], &o, &starts[i], F_COUNT | F_BEST | F_ALL | F_TILES, 5,
		                "-t 2");
	free(lines);
	free(one);
	free(two);
	free(in);
	tk_oracle_free(&o);
	ck_db_remove(db);
}

/* CPU seconds of the process and of the calling thread (RUSAGE_THREAD) that
 * answering a batch `rounds` times took: what other threads did is their
 * difference. */
static void batch_cpu(answerer *ans, char **queries, int n, int rounds, double *all,
                      double *caller)
{
	struct rusage self[2], me[2];
	getrusage(RUSAGE_SELF, &self[0]);
	getrusage(RUSAGE_THREAD, &me[0]);
	for (int r = 0; r < rounds; r++) {
		out o = { 0 };
		cr_assert_eq(answerer_batch(ans, &o, queries, NULL, n), 1, "the bad lines fail");
		cr_assert_eq(tk_lines(o.buf), n, "one line per query");
		out_free(&o);
	}
	getrusage(RUSAGE_SELF, &self[1]);
	getrusage(RUSAGE_THREAD, &me[1]);
#define SECONDS(u) ((double)(u).ru_utime.tv_sec + (double)(u).ru_utime.tv_usec * 1e-6 + \
	            (double)(u).ru_stime.tv_sec + (double)(u).ru_stime.tv_usec * 1e-6)
	*all = SECONDS(self[1]) - SECONDS(self[0]);
	*caller = SECONDS(me[1]) - SECONDS(me[0]);
#undef SECONDS
}

/* A batch of table answers is shared out over the threads asked for (it
 * never was: batches were cut at 1,022 lines and threads began at 1,024),
 * with the answers and the failures' messages in input order, the same as
 * on one thread; the other threads' CPU time is the observable. */
Test(answers, a_batch_of_table_answers_uses_the_threads, .timeout = 120)
{
	char db[TEXT_MAX];
	tk_build_scratch(db, sizeof db, "3x3");
	enum { N = 1000, BAD_EVERY = 97 };
	sdb_board goal = ck_std_goal(3, 3), starts[N];
	tk_oracle o;
	tk_oracle_init(&o, &goal);
	make_starts(&o, starts, N, 9u);
	ck_sbuf in = { 0 };
	char *queries[N];
	for (int i = 0; i < N; i++) {
		char line[TEXT_MAX];
		if (i % BAD_EVERY == BAD_EVERY - 1)
			snprintf(line, sizeof line, "1 2 3 4 5 6 7 8 %d", 9 + i);
		else
			snprintf(line, sizeof line, "%s ; %s", ck_board_text(&starts[i]).s,
			         ck_board_text(&goal).s);
		ck_sb_printf(&in, "%s\n", line);
		queries[i] = strdup(line);
	}
	char *out[2], *err[2];
	for (int t = 0; t < 2; t++)
		cr_assert_eq(ck_lookup(db, in.s, &out[t], &err[t], "--json --tiles --path -t %d", t + 1),
		             1);
	cr_assert_str_eq(out[0], out[1], "answers differ on 2 threads");
	cr_assert_str_eq(err[0], err[1], "messages differ on 2 threads");
	cr_assert_eq(tk_lines(err[1]), N / BAD_EVERY);
	char **lines;
	cr_assert_eq(ck_split_lines(out[1], &lines), N);
	for (int i = 0; i < N; i++)
		if (i % BAD_EVERY == BAD_EVERY - 1)
			cr_assert(strstr(lines[i], "\"error\""), "line %d: %s", i + 1, lines[i]);
		else
			check_rich_json(lines[i], &o, &starts[i], F_TILES, 0, "-t 2");
	free(lines);
	/* The answerer's side: the CPU time other threads took, on batches of
	 * the 1,000 lines (under 1,024: on one thread before). A batch is a few
	 * milliseconds: a thread the machine starts late (the suite runs beside
	 * another) takes fewer pieces, so the bar is low; one thread leaves
	 * nothing to others. */
	sdb_db *h;
	cr_assert_eq(sdb_db_open(&h, db, SDB_RDONLY), 0, "%s", sdb_error_detail());
	double all[2], caller[2];
	for (int t = 0; t < 2; t++) {
		answerer_opts opts = { .threads = t + 1, .quiet = 1, .report = { .json = 1, .path = 1 } };
		answerer *ans = answerer_new(h, &opts);
		cr_assert(ans);
		batch_cpu(ans, queries, N, 120, &all[t], &caller[t]);
		answerer_free(ans);
	}
	cr_assert_lt(all[0] - caller[0], 0.01 * all[0], "1 thread: %.3f s of %.3f s elsewhere",
	             all[0] - caller[0], all[0]);
	cr_assert_gt(all[1] - caller[1], 0.03 * all[1], "2 threads: %.3f s of %.3f s elsewhere",
	             all[1] - caller[1], all[1]);
	sdb_db_close(h);
	for (int i = 0; i < N; i++)
		free(queries[i]);
	for (int t = 0; t < 2; t++) {
		free(out[t]);
		free(err[t]);
	}
	free(in.s);
	tk_oracle_free(&o);
	ck_db_remove(db);
}

/* ------------------------------------------------------------------ */
/* 2. Tiles on the path, and grids                                        */

/* The boards along moves from start: path[0] = start, path[k] after k moves. */
static void replay_path(const sdb_board *start, const char *moves, sdb_board *path)
{
	path[0] = *start;
	for (int k = 0; moves[k]; k++) {
		path[k + 1] = path[k];
		cr_assert_eq(sdb_board_apply(&path[k + 1], sdb_move_from_letter(moves[k])), 0);
	}
}

Test(answers, tiles_on_the_path_lines_and_in_json)
{
	char db[TEXT_MAX];
	tk_build_scratch(db, sizeof db, "3x3");
	enum { N = 10 };
	sdb_board goal = ck_parse_board(GOALS[2], 3, 3), starts[N];
	tk_oracle o;
	tk_oracle_init(&o, &goal);
	make_starts(&o, starts, N, 31u);
	char *in = query_lines(starts, N, &goal);

	char *out = run_ok(db, in, "--tiles --path");
	char **lines;
	int n = ck_split_lines(out, &lines), at = 0;
	for (int i = 0; i < N; i++) {
		char where[32];
		snprintf(where, sizeof where, "query %d", i);
		cr_assert_lt(at, n, "%s: answer missing", where);
		const char *head = lines[at++];
		check_rich_text(head, &o, &starts[i], F_TILES, 100, where);
		int d = oracle_dist(&o, &starts[i]);
		if (d < 0)
			continue;
		char moves[SDB_MAX_MOVES + 1] = "";
		if (d)
			sscanf(strstr(head, "moves ") + 6, "%127s", moves);
		sdb_board path[SDB_MAX_MOVES + 1];
		int tiles[SDB_MAX_MOVES];
		replay_path(&starts[i], moves, path);
		cr_assert_eq(replay_tiles(&starts[i], moves, tiles), d);
		for (int k = 0; k <= d; k++) {
			cr_assert_lt(at, n, "%s: path cut short at %d", where, k);
			const char *line = lines[at++];
			int step = -1, tile = -1, pos = 0;
			char letter = 0;
			if (k == 0)
				cr_assert_eq(sscanf(line, "%d%n", &step, &pos), 1, "%s: '%s'", where, line);
			else
				cr_assert_eq(sscanf(line, "%d %c %d%n", &step, &letter, &tile, &pos), 3,
				             "%s: path line '%s' lacks its move and tile", where, line);
			cr_assert_eq(step, k, "%s: path line '%s' is not step %d", where, line, k);
			if (k) {
				cr_assert_eq(letter, moves[k - 1], "%s: '%s': move %d is '%c'", where, line, k,
				             moves[k - 1]);
				cr_assert_eq(tile, tiles[k - 1], "%s: '%s': move %d slides tile %d", where,
				             line, k, tiles[k - 1]);
			}
			sdb_board b = ck_parse_board(line + pos, 3, 3);
			cr_assert(sdb_board_equal(&b, &path[k]), "%s: '%s' is not the board after %d "
			          "moves, '%s'", where, line, k, ck_board_text(&path[k]).s);
		}
	}
	cr_assert_eq(at, n, "%d lines left over", n - at);
	free(lines);
	free(out);

	out = run_ok(db, in, "--tiles --path --json");
	n = ck_split_lines(out, &lines);
	cr_assert_eq(n, N);
	for (int i = 0; i < N; i++) {
		check_rich_json(lines[i], &o, &starts[i], F_TILES, 100, "--tiles --path --json");
		int d = oracle_dist(&o, &starts[i]);
		if (d < 0)
			continue;
		char moves[SDB_MAX_MOVES + 1];
		cr_assert_eq(ck_json_str(lines[i], "moves", moves, sizeof moves), 1);
		sdb_board path[SDB_MAX_MOVES + 1];
		replay_path(&starts[i], moves, path);
		strs p = { 0 };
		cr_assert_eq(json_strs(lines[i], "path", &p, "path"), 1, "no path: %s", lines[i]);
		cr_assert_eq(p.n, d + 1, "a path of %d boards for distance %d", p.n, d);
		for (int k = 0; k <= d; k++) {
			sdb_board b = ck_parse_board(p.v[k], 3, 3);
			cr_assert(sdb_board_equal(&b, &path[k]), "path board %d '%s'", k, p.v[k]);
		}
		strs_free(&p);
	}
	free(lines);
	free(out);
	free(in);
	tk_oracle_free(&o);
	ck_db_remove(db);
}

/* The board as numbers with the blank written as `blank`. */
static ck_btext with_blank(const sdb_board *b, char blank)
{
	ck_btext t = ck_board_text(b);
	strs w = words_of(t.s);
	ck_sbuf s = { 0 };
	const char mark[2] = { blank, '\0' };
	for (int i = 0; i < w.n; i++)
		ck_sb_printf(&s, "%s%s", i ? " " : "", strcmp(w.v[i], "0") ? w.v[i] : mark);
	const char *text = s.s ? s.s : "";   /* NULL when the board had no words */
	const int len = snprintf(t.s, sizeof t.s, "%s", text);
	cr_assert(len >= 0 && (size_t)len < sizeof t.s, "board text too long: %s", text);
	free(s.s);
	strs_free(&w);
	return t;
}

/* Every grid answer for one query (text, text with the path, with the path
 * and tiles, JSON with the path) against the oracle. `query` writes the
 * blank as `blank`. */
static void check_grids(const char *db, const tk_oracle *o, const sdb_board *start,
                        const char *query, char blank)
{
	int w = start->w, h = start->h, d = oracle_dist(o, start);
	char labels[SDB_MAX_MOVES + 2][COL_MAX], where[96];
	sdb_board boards[SDB_MAX_MOVES + 2];

	/* Start and goal. */
	snprintf(where, sizeof where, "--grid '%s'", query);
	char *out = run_ok(db, NULL, "--size %dx%d --grid '%s'", w, h, query);
	char **lines;
	int n = ck_split_lines(out, &lines), at = 1;
	cr_assert_geq(n, 1 + 1 + h, "%s: '%s'", where, out);
	check_rich_text(lines[0], o, start, 0, 100, where);
	read_grids(lines, n, &at, w, h, blank, 2, labels, boards, where);
	cr_assert_eq(at, n, "%s: %d lines after the grids", where, n - at);
	cr_assert(!strcmp(labels[0], "start") && !strcmp(labels[1], "goal"),
	          "%s: labels '%s' '%s'", where, labels[0], labels[1]);
	cr_assert(sdb_board_equal(&boards[0], start), "%s: the start grid is '%s'", where,
	          ck_board_text(&boards[0]).s);
	cr_assert(sdb_board_equal(&boards[1], &o->goal), "%s: the goal grid is '%s'", where,
	          ck_board_text(&boards[1]).s);
	free(lines);
	free(out);

	/* Every step of the path, labelled by its number, move (and tile). */
	for (int tiles = 0; tiles < 2 && d >= 0; tiles++) {
		snprintf(where, sizeof where, "--grid --path%s '%s'", tiles ? " --tiles" : "", query);
		out = run_ok(db, NULL, "--size %dx%d --grid --path %s '%s'", w, h,
		             tiles ? "--tiles" : "", query);
		n = ck_split_lines(out, &lines);
		at = 1;
		check_rich_text(lines[0], o, start, tiles ? F_TILES : 0, 100, where);
		char moves[SDB_MAX_MOVES + 1] = "";
		if (d)
			sscanf(strstr(lines[0], "moves ") + 6, "%127s", moves);
		sdb_board path[SDB_MAX_MOVES + 1];
		int slid[SDB_MAX_MOVES];
		replay_path(start, moves, path);
		replay_tiles(start, moves, slid);
		read_grids(lines, n, &at, w, h, blank, d + 1, labels, boards, where);
		cr_assert_eq(at, n, "%s: %d lines after the grids", where, n - at);
		for (int k = 0; k <= d; k++) {
			char want[COL_MAX];
			if (!k)
				snprintf(want, sizeof want, "0");
			else if (tiles)
				snprintf(want, sizeof want, "%d %c %d", k, moves[k - 1], slid[k - 1]);
			else
				snprintf(want, sizeof want, "%d %c", k, moves[k - 1]);
			cr_assert_str_eq(labels[k], want, "%s: step %d labelled '%s', expected '%s'",
			                 where, k, labels[k], want);
			cr_assert(sdb_board_equal(&boards[k], &path[k]), "%s: the grid of step %d is "
			          "'%s', expected '%s'", where, k, ck_board_text(&boards[k]).s,
			          ck_board_text(&path[k]).s);
		}
		free(lines);
		free(out);
	}

	/* JSON: the grids as arrays of rows. */
	snprintf(where, sizeof where, "--json --grid --path '%s'", query);
	out = run_ok(db, NULL, "--size %dx%d --json --grid --path '%s'", w, h, query);
	cr_assert_eq(tk_lines(out), 1, "%s: '%s'", where, out);
	check_rich_json(out, o, start, 0, 100, where);
	sdb_board b = json_grid(ck_json_value(out, "start_grid"), w, h, blank, NULL, where);
	cr_assert(sdb_board_equal(&b, start), "%s: start_grid", where);
	b = json_grid(ck_json_value(out, "goal_grid"), w, h, blank, NULL, where);
	cr_assert(sdb_board_equal(&b, &o->goal), "%s: goal_grid", where);
	const char *p = ck_json_value(out, "path_grids");
	/* --grid adds the grids and keeps "path", the boards as strings */
	const char *plain = ck_json_value(out, "path");
	cr_assert(plain && (d < 0 ? !strncmp(plain, "null", 4) : *plain == '['),
	          "%s: \"path\" missing or wrong beside the grids: %s", where, out);
	if (d >= 0) {
		char first[3 * SDB_MAX_CELLS + 2];
		snprintf(first, sizeof first, "\"%s\"", ck_board_text(start).s);
		cr_assert(!strncmp(plain + 1, first, strlen(first)), "%s: path starts '%.40s'", where,
		          plain);
	}
	if (d < 0) {
		cr_assert(!p || !strncmp(p, "null", 4), "%s: path_grids when unsolvable: %s", where,
		          out);
	} else {
		char moves[SDB_MAX_MOVES + 1];
		cr_assert_eq(ck_json_str(out, "moves", moves, sizeof moves), 1);
		sdb_board path[SDB_MAX_MOVES + 1];
		replay_path(start, moves, path);
		cr_assert(p && *p == '[', "%s: no path_grids: %s", where, out);
		p++;
		for (int k = 0; k <= d; k++) {
			b = json_grid(p, w, h, blank, &p, where);
			cr_assert(sdb_board_equal(&b, &path[k]), "%s: path_grids[%d] is '%s'", where, k,
			          ck_board_text(&b).s);
			if (k < d) {
				cr_assert_eq(*p, ',', "%s: path_grids ends after %d grids", where, k + 1);
				p++;
			}
		}
		cr_assert_eq(*p, ']', "%s: path_grids holds more than %d grids", where, d + 1);
	}
	free(out);
}

Test(answers, grids_rejoin_to_the_boards)
{
	char db[TEXT_MAX];
	tk_build_scratch(db, sizeof db, "3x3");
	tk_oracle o;
	sdb_board goal = ck_std_goal(3, 3);
	tk_oracle_init(&o, &goal);
	sdb_board s1 = ck_parse_board("1 2 3 x 4 6 7 5 8", 3, 3);
	check_grids(db, &o, &s1, "1 2 3 x 4 6 7 5 8", 'x');
	sdb_board s2 = ck_parse_board("8 6 7 2 5 4 3 0 1", 3, 3);   /* 31 moves: several blocks */
	check_grids(db, &o, &s2, "8 6 7 2 5 4 3 0 1", '0');
	check_grids(db, &o, &s2, "8,6,7,2,5,4,3,_,1", '_');
	check_grids(db, &o, &goal, "12345678.", '.');
	sdb_board s3 = ck_parse_board("1 2 3 4 5 6 8 7 0", 3, 3);   /* unsolvable */
	check_grids(db, &o, &s3, "1 2 3 4 5 6 8 7 X", 'X');
	tk_oracle_free(&o);

	/* Two queries of one batch: each answer, then its grids. */
	char *out = run_ok(db, "1 2 3 4 5 6 x 7 8\n8 6 7 2 5 4 3 x 1\n", "--grid");
	char **lines, labels[2][COL_MAX];
	sdb_board boards[2];
	int n = ck_split_lines(out, &lines), at = 0;
	const char *q[] = { "1 2 3 4 5 6 0 7 8", "8 6 7 2 5 4 3 0 1" };
	for (int i = 0; i < 2; i++) {
		cr_assert_lt(at, n);
		cr_assert(!strncmp(lines[at], "distance ", 9), "batch answer %d: '%s'", i, lines[at]);
		at++;
		read_grids(lines, n, &at, 3, 3, 'x', 2, labels, boards, "batch --grid");
		sdb_board want = ck_parse_board(q[i], 3, 3);
		cr_assert(sdb_board_equal(&boards[0], &want) && sdb_board_equal(&boards[1], &goal),
		          "batch answer %d: grids '%s' and '%s'", i, ck_board_text(&boards[0]).s,
		          ck_board_text(&boards[1]).s);
	}
	cr_assert_eq(at, n, "%d lines left over", n - at);
	free(lines);
	free(out);
	ck_db_remove(db);
}

Test(answers, grids_of_a_2x3_board_and_a_given_goal)
{
	char db[TEXT_MAX];
	tk_build_scratch(db, sizeof db, "2x3");
	sdb_board goal = ck_std_goal(2, 3), start;
	unsigned seed = 9;
	tk_random_walk(&start, &goal, 40, &seed);
	tk_oracle o;
	tk_oracle_init(&o, &goal);
	cr_assert_gt(oracle_dist(&o, &start), 0);
	check_grids(db, &o, &start, with_blank(&start, '_').s, '_');
	tk_oracle_free(&o);

	/* A goal of its own, the blank written as x in both boards. */
	sdb_board g2;
	tk_random_walk(&g2, &goal, 33, &seed);
	tk_oracle_init(&o, &g2);
	tk_random_walk(&start, &g2, 25, &seed);
	char query[TEXT_MAX];
	snprintf(query, sizeof query, "%s ; %s", with_blank(&start, 'x').s, with_blank(&g2, 'x').s);
	check_grids(db, &o, &start, query, 'x');
	tk_oracle_free(&o);
	ck_db_remove(db);
}

/* ------------------------------------------------------------------ */
/* 3. check                                                              */

/* What check should say about moves from start, found by replaying them
 * and asking the oracle. */
typedef struct verdict {
	int dist;           /* -1: unsolvable */
	int legal, illegal_step, reaches, length, optimal, end_dist;
	char text[96];
} verdict;

static verdict judge(const tk_oracle *o, const sdb_board *start, const char *moves)
{
	verdict v = { 0 };
	v.dist = oracle_dist(o, start);
	v.length = (int)strlen(moves);
	v.legal = 1;
	sdb_board b = *start;
	char bad = 0;
	for (int i = 0; moves[i]; i++)
		if (sdb_board_apply(&b, sdb_move_from_letter(moves[i])) != 0) {
			v.legal = 0;
			v.illegal_step = i + 1;
			bad = moves[i];
			break;
		}
	v.reaches = v.legal && sdb_board_equal(&b, &o->goal);
	v.end_dist = oracle_dist(o, &b);
	v.optimal = v.reaches && v.length == v.dist;
	if (v.dist < 0)
		snprintf(v.text, sizeof v.text, "unsolvable");
	else if (!v.legal)
		snprintf(v.text, sizeof v.text, "illegal move '%c' at step %d", bad, v.illegal_step);
	else if (!v.reaches)
		snprintf(v.text, sizeof v.text, "does not reach the goal (ends %d move%s away)",
		         v.end_dist, v.end_dist == 1 ? "" : "s");
	else if (v.optimal)
		snprintf(v.text, sizeof v.text, "optimal");
	else
		snprintf(v.text, sizeof v.text, "valid, %d moves longer than optimal",
		         v.length - v.dist);
	return v;
}

typedef struct check_case {
	sdb_board start;
	char moves[SDB_MAX_MOVES + 1];
} check_case;

static char inverse(char m)
{
	return m == 'u' ? 'd' : m == 'd' ? 'u' : m == 'l' ? 'r' : 'l';
}

/* The first move (u d l r order) that is legal on b (legal = 1) or not. */
static char move_that_is(const sdb_board *b, int legal)
{
	for (int k = 0; k < 4; k++) {
		sdb_board t = *b;
		if ((sdb_board_apply(&t, sdb_move_from_letter(ORDER[k])) == 0) == legal)
			return ORDER[k];
	}
	return 0;
}

static void push_case(check_case *c, int *n, int cap, const sdb_board *start, const char *fmt,
                      ...) __attribute__((format(printf, 5, 6)));
static void push_case(check_case *c, int *n, int cap, const sdb_board *start, const char *fmt,
                      ...)
{
	cr_assert_lt(*n, cap);
	va_list ap;
	va_start(ap, fmt);
	vformat(c[*n].moves, sizeof c[*n].moves, fmt, ap);
	va_end(ap);
	if (!c[*n].moves[0])   /* no move at all: not a case */
		return;
	c[*n].start = *start;
	(*n)++;
}

/* Move sequences of every verdict for start: optimal ones, longer by a
 * detour, stopping short, overshooting, with an illegal move; for an
 * unsolvable start, legal and illegal ones. */
static void add_cases(const tk_oracle *o, const sdb_board *start, check_case *c, int *n, int cap,
                      unsigned *seed)
{
	int d = oracle_dist(o, start);
	if (d < 0) {
		sdb_board b = *start;
		char m1 = move_that_is(&b, 1);
		sdb_board_apply(&b, sdb_move_from_letter(m1));
		push_case(c, n, cap, start, "%c%c", m1, move_that_is(&b, 1));
		push_case(c, n, cap, start, "%c%c", move_that_is(start, 0), m1);
		return;
	}
	strs opt = oracle_enum(o, start, 2);
	for (int i = 0; i < opt.n; i++)
		push_case(c, n, cap, start, "%s", opt.v[i]);
	const char *best = opt.v[opt.n - 1];
	sdb_board path[SDB_MAX_MOVES + 1];
	replay_path(start, best, path);
	/* A detour (a move and back) somewhere, and two. */
	int p = (int)(rand_r(seed) % (unsigned)(d + 1));
	char m = move_that_is(&path[p], 1);
	push_case(c, n, cap, start, "%.*s%c%c%s", p, best, m, inverse(m), best + p);
	push_case(c, n, cap, start, "%.*s%c%c%c%c%s", p, best, m, inverse(m), m, inverse(m),
	          best + p);
	/* Short of the goal by 1 and by 3; one move past it. */
	if (d >= 1)
		push_case(c, n, cap, start, "%.*s", d - 1, best);
	if (d >= 3)
		push_case(c, n, cap, start, "%.*s", d - 3, best);
	push_case(c, n, cap, start, "%s%c", best, move_that_is(&o->goal, 1));
	/* An illegal move on the way, then the rest. */
	for (int k = 0; k <= d; k++) {
		int q = (p + k) % (d + 1);
		char bad = move_that_is(&path[q], 0);
		if (bad) {
			push_case(c, n, cap, start, "%.*s%c%s", q, best, bad, best + q);
			break;
		}
	}
	strs_free(&opt);
}

/* One check JSON object against the verdict of the oracle. */
static void check_verdict_json(const char *obj, const tk_oracle *o, const check_case *c,
                               const char *where)
{
	verdict v = judge(o, &c->start, c->moves);
	char buf[TEXT_MAX];
	long x;
	cr_assert_eq(ck_json_str(obj, "start", buf, sizeof buf), 1, "%s: no start: %s", where, obj);
	cr_assert_str_eq(buf, ck_board_text(&c->start).s, "%s: start", where);
	cr_assert_eq(ck_json_str(obj, "goal", buf, sizeof buf), 1, "%s: no goal: %s", where, obj);
	cr_assert_str_eq(buf, ck_board_text(&o->goal).s, "%s: goal", where);
	cr_assert_eq(ck_json_str(obj, "size", buf, sizeof buf), 1, "%s: no size", where);
	cr_assert_str_eq(buf, "3x3", "%s: size", where);
	cr_assert_eq(ck_json_str(obj, "moves", buf, sizeof buf), 1, "%s: no moves: %s", where, obj);
	cr_assert_str_eq(buf, c->moves, "%s: moves echoed as '%s'", where, buf);
	cr_assert_eq(ck_json_bool(obj, "legal"), v.legal, "%s: legal: %s", where, obj);
	int r = ck_json_long(obj, "illegal_step", &x);
	if (v.legal)
		cr_assert_eq(r, 0, "%s: illegal_step should be null: %s", where, obj);
	else
		cr_assert(r == 1 && x == v.illegal_step, "%s: illegal_step should be %d: %s", where,
		          v.illegal_step, obj);
	cr_assert_eq(ck_json_bool(obj, "reaches_goal"), v.reaches, "%s: reaches_goal: %s", where,
	             obj);
	cr_assert(ck_json_long(obj, "length", &x) == 1 && x == v.length, "%s: length: %s", where,
	          obj);
	r = ck_json_long(obj, "distance", &x);
	if (v.dist < 0)
		cr_assert_eq(r, 0, "%s: distance should be null: %s", where, obj);
	else
		cr_assert(r == 1 && x == v.dist, "%s: distance should be %d: %s", where, v.dist, obj);
	cr_assert_eq(ck_json_bool(obj, "optimal"), v.optimal, "%s: optimal: %s", where, obj);
	r = ck_json_long(obj, "end_distance", &x);
	if (v.dist < 0)
		cr_assert_eq(r, 0, "%s: end_distance should be null: %s", where, obj);
	else if (v.legal)
		cr_assert(r == 1 && x == v.end_dist, "%s: end_distance should be %d: %s", where,
		          v.end_dist, obj);
	cr_assert_eq(ck_json_str(obj, "verdict", buf, sizeof buf), 1, "%s: no verdict", where);
	cr_assert_str_eq(buf, v.text, "%s: verdict '%s', expected '%s'", where, buf, v.text);
	if (v.optimal) {
		char echo[TEXT_MAX];
		ck_json_str(obj, "moves", echo, sizeof echo);
		cr_assert((long)strlen(echo) == v.dist && tk_replay(&c->start, echo, &o->goal),
		          "%s: optimal moves '%s' do not replay to the goal in %d", where, echo, v.dist);
	}
}

/* Every case for a few starts of one goal, in one batch, in rotating line
 * forms, as text and as JSON. */
static void check_verdicts_for_goal(const char *db, const char *goal_text, unsigned seed)
{
	enum { N = 12, CAP = N * 12 };
	sdb_board goal = ck_parse_board(goal_text, 3, 3), starts[N];
	sdb_board std = ck_std_goal(3, 3);
	int is_std = sdb_board_equal(&goal, &std);
	tk_oracle o;
	tk_oracle_init(&o, &goal);
	make_starts(&o, starts, N, seed);
	check_case *c = calloc(CAP, sizeof *c);
	int n = 0;
	for (int i = 0; i < N; i++)
		add_cases(&o, &starts[i], c, &n, CAP, &seed);
	ck_sbuf in = { 0 };
	for (int i = 0; i < n; i++) {
		ck_btext s = ck_board_text(&c[i].start), g = ck_board_text(&goal);
		ck_btext sc = ck_board_compact(&c[i].start), gc = ck_board_compact(&goal);
		switch (is_std ? i % 5 : 1 + 3 * (i % 2)) {
		case 0: ck_sb_printf(&in, "%s ; %s\n", s.s, c[i].moves); break;
		case 1: ck_sb_printf(&in, "%s ; %s ; %s\n", s.s, g.s, c[i].moves); break;
		case 2: ck_sb_printf(&in, "%s %s\n", s.s, c[i].moves); break;
		case 3: ck_sb_printf(&in, "%s %s\n", sc.s, c[i].moves); break;
		default: ck_sb_printf(&in, "%s ; %s ; %s\n", sc.s, gc.s, c[i].moves); break;
		}
	}
	char *out = run_ok(db, in.s, "check");
	char **lines;
	cr_assert_eq(ck_split_lines(out, &lines), n, "%d verdicts for %d lines", tk_lines(out), n);
	int seen[5] = { 0 };   /* optimal, longer, short, illegal, unsolvable */
	for (int i = 0; i < n; i++) {
		verdict v = judge(&o, &c[i].start, c[i].moves);
		cr_assert_str_eq(lines[i], v.text, "case %d '%s' from '%s': '%s', expected '%s'", i,
		                 c[i].moves, ck_board_text(&c[i].start).s, lines[i], v.text);
		seen[v.dist < 0 ? 4 : !v.legal ? 3 : !v.reaches ? 2 : v.optimal ? 0 : 1]++;
	}
	for (int k = 0; k < 5; k++)
		cr_assert_gt(seen[k], 0, "no case of verdict kind %d", k);
	free(lines);
	free(out);
	out = run_ok(db, in.s, "check --json");
	cr_assert_eq(ck_split_lines(out, &lines), n);
	for (int i = 0; i < n; i++) {
		char where[64];
		snprintf(where, sizeof where, "check --json case %d", i);
		check_verdict_json(lines[i], &o, &c[i], where);
	}
	free(lines);
	free(out);
	free(in.s);
	free(c);
	tk_oracle_free(&o);
}

Test(check, verdicts_match_an_independent_replay)
{
	char db[TEXT_MAX];
	tk_build_scratch(db, sizeof db, "3x3");
	check_verdicts_for_goal(db, GOALS[0], 17u);
	check_verdicts_for_goal(db, GOALS[1], 18u);
	ck_db_remove(db);
}

Test(check, command_line_forms)
{
	char db[TEXT_MAX];
	tk_build_scratch(db, sizeof db, "3x3");
	tk_oracle o;
	sdb_board goal = ck_std_goal(3, 3);
	tk_oracle_init(&o, &goal);
	/* Verdicts worked out by hand (start 1 2 3 / x 4 6 / 7 5 8, 3 moves): the
	 * oracle's, and the JSON's (the text's: tests/cli/answers-check.md). */
	static const struct { const char *args, *start, *moves, *want; } cases[] = {
		{ "'1 2 3 x 4 6 7 5 8' rdr", "123046758", "rdr", "optimal" },
		{ "1 2 3 x 4 6 7 5 8 rdr", "123046758", "rdr", "optimal" },
		{ "123x46758 123456780 rdr", "123046758", "rdr", "optimal" },
		{ "1 2 3 x 4 6 7 5 8 1 2 3 4 5 6 7 8 x rdr", "123046758", "rdr", "optimal" },
		{ "'[[1,2,3],[0,4,6],[7,5,8]]' rdr", "123046758", "rdr", "optimal" },
		{ "123x46758 rdrlr", "123046758", "rdrlr", "valid, 2 moves longer than optimal" },
		{ "123x46758 rd", "123046758", "rd", "does not reach the goal (ends 1 move away)" },
		{ "123x46758 u", "123046758", "u", "does not reach the goal (ends 4 moves away)" },
		{ "123x46758 rdd", "123046758", "rdd", "illegal move 'd' at step 3" },
		{ "123x46758 lrdr", "123046758", "lrdr", "illegal move 'l' at step 1" },
		{ "123456870 ll", "123456870", "ll", "unsolvable" },
		{ "123456870 rr", "123456870", "rr", "unsolvable" },
	};
	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
		sdb_board s = ck_parse_board(cases[k].start, 3, 3);
		verdict v = judge(&o, &s, cases[k].moves);
		cr_assert_str_eq(v.text, cases[k].want, "the oracle disagrees with the hand: %s",
		                 cases[k].args);
		char *out = run_ok(db, NULL, "check --json %s", cases[k].args);
		cr_assert_eq(tk_lines(out), 1, "check --json %s: '%s'", cases[k].args, out);
		check_case c = { s, "" };
		snprintf(c.moves, sizeof c.moves, "%s", cases[k].moves);
		check_verdict_json(out, &o, &c, cases[k].args);
		free(out);
	}

	/* --grid: the verdict, then the start first and the goal last. */
	char *out = run_ok(db, NULL, "check --grid '1 2 3 x 4 6 7 5 8' rd");
	char **lines, labels[8][COL_MAX];
	sdb_board boards[8];
	int n = ck_split_lines(out, &lines), at = 1;
	cr_assert_str_eq(lines[0], "does not reach the goal (ends 1 move away)");
	int cols = split_columns(lines[1], labels, 8);
	cr_assert_geq(cols, 2, "'%s'", lines[1]);
	read_grids(lines, n, &at, 3, 3, 'x', cols, labels, boards, "check --grid");
	sdb_board s = ck_parse_board("1 2 3 x 4 6 7 5 8", 3, 3);
	cr_assert(!strcmp(labels[0], "start") && sdb_board_equal(&boards[0], &s),
	          "first grid '%s' '%s'", labels[0], ck_board_text(&boards[0]).s);
	cr_assert(!strcmp(labels[cols - 1], "goal") && sdb_board_equal(&boards[cols - 1], &goal),
	          "last grid '%s' '%s'", labels[cols - 1], ck_board_text(&boards[cols - 1]).s);
	free(lines);
	free(out);
	tk_oracle_free(&o);
	ck_db_remove(db);
}

/* ------------------------------------------------------------------ */
/* 4. random                                                             */

/* The boards of random's text output, one per line; returns how many. */
static int board_lines(const char *out, sdb_board *boards, int cap, int w, int h)
{
	char *copy = strdup(out), **lines;
	int n = ck_split_lines(copy, &lines);
	cr_assert_leq(n, cap, "%d boards, more than %d", n, cap);
	for (int i = 0; i < n; i++)
		boards[i] = ck_parse_board(lines[i], w, h);
	free(lines);
	free(copy);
	return n;
}

/* The parity class of a board: inversions of the tiles, plus the blank's
 * row on boards of even width (the invariant of the moves). */
static int parity_class(const sdb_board *b)
{
	int inv = 0;
	for (int i = 0; i < b->n; i++)
		for (int j = i + 1; j < b->n; j++)
			inv += b->cell[i] && b->cell[j] && b->cell[i] > b->cell[j];
	if (b->w % 2 == 0)
		inv += blank_cell(b) / b->w;
	return inv % 2;
}

static const char CENTRE_X[] = "1 2 3 4 x 5 6 7 8";

Test(random, boards_at_the_distance_asked_match_the_bfs)
{
	char db[TEXT_MAX];
	tk_build_scratch(db, sizeof db, "3x3");
	static const struct { const char *goal; int d[8], nd; } plan[] = {
		{ NULL, { 0, 1, 2, 9, 17, 24, 30, 31 }, 8 },
		{ CENTRE_X, { 0, 1, 4, 15, 22, 27, 29, 30 }, 8 },
	};
	for (int g = 0; g < 2; g++) {
		sdb_board goal = plan[g].goal ? ck_parse_board(plan[g].goal, 3, 3) : ck_std_goal(3, 3);
		char gopt[64] = "";
		if (plan[g].goal)
			snprintf(gopt, sizeof gopt, "--goal '%s'", plan[g].goal);
		tk_oracle o;
		tk_oracle_init(&o, &goal);
		for (int k = 0; k < plan[g].nd; k++) {
			int d = plan[g].d[k];
			char *out = run_ok(db, NULL, "random --distance %d --count 6 --seed %d %s", d, 100 + d,
			                   gopt);
			sdb_board b[8];
			cr_assert_eq(board_lines(out, b, 8, 3, 3), 6, "--distance %d %s: '%s'", d, gopt, out);
			for (int i = 0; i < 6; i++)
				cr_assert_eq(oracle_dist(&o, &b[i]), d, "--distance %d %s drew '%s', %d moves "
				             "away by the BFS", d, gopt, ck_board_text(&b[i]).s,
				             oracle_dist(&o, &b[i]));
			free(out);
		}
		/* Full answers in JSON, the fields asked for too. */
		char *out = run_ok(db, NULL, "random --json --all-best --tiles --distance 18 --count 5 "
		                   "--seed 3 %s", gopt);
		char **lines;
		cr_assert_eq(ck_split_lines(out, &lines), 5, "'%s'", out);
		for (int i = 0; i < 5; i++) {
			char text[TEXT_MAX];
			cr_assert_eq(ck_json_str(lines[i], "start", text, sizeof text), 1, "%s", lines[i]);
			sdb_board s = ck_parse_board(text, 3, 3);
			cr_assert_eq(oracle_dist(&o, &s), 18, "'%s' is not 18 moves away", text);
			check_rich_json(lines[i], &o, &s, F_BEST | F_TILES, 100, "random --json");
		}
		free(lines);
		free(out);
		tk_oracle_free(&o);
	}
	ck_db_remove(db);
}

Test(random, ranges_seeds_walks_and_uniformity)
{
	char db[TEXT_MAX];
	tk_build_scratch(db, sizeof db, "3x3");
	sdb_board goal = ck_std_goal(3, 3), centre = ck_parse_board(CENTRE_X, 3, 3);
	tk_oracle o, oc;
	tk_oracle_init(&o, &goal);
	tk_oracle_init(&oc, &centre);
	enum { CAP = 256 };
	sdb_board *b = malloc(CAP * sizeof *b);
	static const struct { const char *opts; int lo, hi, count; } ranges[] = {
		{ "--min-distance 3 --max-distance 5 --seed 4", 3, 5, 30 },
		{ "--min-distance 29 --seed 5", 29, 31, 12 },
		{ "--max-distance 2 --seed 6", 0, 2, 200 },
		{ "--distance 31 --seed 11", 31, 31, 40 },
		{ "--min-distance 21 --max-distance 22 --seed 12", 21, 22, 100 },
	};
	for (size_t k = 0; k < sizeof ranges / sizeof *ranges; k++) {
		char *out = run_ok(db, NULL, "random %s --count %d", ranges[k].opts, ranges[k].count);
		int n = board_lines(out, b, CAP, 3, 3);
		cr_assert_eq(n, ranges[k].count, "%s: %d boards", ranges[k].opts, n);
		int hit[32] = { 0 };
		for (int i = 0; i < n; i++) {
			int d = oracle_dist(&o, &b[i]);
			cr_assert(d >= ranges[k].lo && d <= ranges[k].hi, "%s drew '%s', %d moves away",
			          ranges[k].opts, ck_board_text(&b[i]).s, d);
			hit[d]++;
		}
		/* Uniform draws: every distance of the range shows up (a biased
		 * draw that sticks to one end would not). */
		for (int d = ranges[k].lo; d <= ranges[k].hi; d++)
			if (ranges[k].count >= 30)
				cr_assert_gt(hit[d], 0, "%s: no board at distance %d in %d draws", ranges[k].opts,
				             d, n);
		/* Few states: every one of them shows up. */
		if (k == 2 || k == 3) {
			uint64_t states = 0;
			for (int d = ranges[k].lo; d <= ranges[k].hi; d++)
				states += o.bfs.counts[d];
			int distinct = 0;
			for (int i = 0; i < n; i++) {
				int first = 1;
				for (int j = 0; j < i && first; j++)
					first = !sdb_board_equal(&b[i], &b[j]);
				distinct += first;
			}
			cr_assert_eq((uint64_t)distinct, states, "%s: %d distinct boards of the %llu in %d "
			             "draws", ranges[k].opts, distinct, (unsigned long long)states, n);
		}
		free(out);
	}

	/* The same seed draws the same boards; another seed, others. */
	char *a = run_ok(db, NULL, "random --distance 20 --count 5 --seed 1");
	char *a2 = run_ok(db, NULL, "random --count 5 --seed 1 --distance 20");
	char *c = run_ok(db, NULL, "random --distance 20 --count 5 --seed 2");
	cr_assert_str_eq(a, a2, "the same seed drew other boards");
	cr_assert_str_neq(a, c, "seeds 1 and 2 drew the same boards");
	free(a);
	free(a2);
	free(c);
	a = run_ok(db, NULL, "random --count 4 --seed 77 --goal '%s'", CENTRE_X);
	a2 = run_ok(db, NULL, "random --count 4 --seed 77 --goal '%s'", CENTRE_X);
	cr_assert_str_eq(a, a2, "the same seed drew other boards");
	free(a);
	free(a2);

	/* No distance: any board of the goal's class, all different. */
	for (int g = 0; g < 2; g++) {
		char *out = g ? run_ok(db, NULL, "random --count 25 --seed 7 --goal '%s'", CENTRE_X)
		              : run_ok(db, NULL, "random --count 25 --seed 7");
		int n = board_lines(out, b, CAP, 3, 3), distinct = 0;
		cr_assert_eq(n, 25);
		for (int i = 0; i < n; i++) {
			cr_assert_geq(oracle_dist(g ? &oc : &o, &b[i]), 0, "'%s' is not reachable",
			              ck_board_text(&b[i]).s);
			int first = 1;
			for (int j = 0; j < i && first; j++)
				first = !sdb_board_equal(&b[i], &b[j]);
			distinct += first;
		}
		cr_assert_geq(distinct, 20, "only %d distinct boards in 25 draws", distinct);
		free(out);
	}

	/* A walk of N moves: at most N moves away, with the parity of N. */
	static const struct { int walk, goal; } walks[] = { { 9, 0 }, { 1, 0 }, { 0, 0 },
		                                             { 14, 1 }, { 40, 1 } };
	for (size_t k = 0; k < sizeof walks / sizeof *walks; k++) {
		const tk_oracle *wo = walks[k].goal ? &oc : &o;
		char *out = walks[k].goal
		            ? run_ok(db, NULL, "random --walk %d --count 20 --seed 2 --goal '%s'",
		                     walks[k].walk, CENTRE_X)
		            : run_ok(db, NULL, "random --walk %d --count 20 --seed 2", walks[k].walk);
		int n = board_lines(out, b, CAP, 3, 3);
		cr_assert_eq(n, 20);
		for (int i = 0; i < n; i++) {
			int d = oracle_dist(wo, &b[i]);
			cr_assert(d >= 0 && d <= walks[k].walk && d % 2 == walks[k].walk % 2,
			          "--walk %d drew '%s', %d moves away", walks[k].walk,
			          ck_board_text(&b[i]).s, d);
		}
		free(out);
	}
	free(b);
	tk_oracle_free(&o);
	tk_oracle_free(&oc);
	ck_db_remove(db);
}

Test(random, a_table_is_needed_only_for_a_distance)
{
	char db[TEXT_MAX];
	tk_tmp_path(db, sizeof db, "answers-none.lmdb");
	cr_assert(!ck_exists(db));
	sdb_board b[8];

	/* No database file: boards of 3x3, 2x3 and 4x4 all the same. */
	static const struct { const char *size; int w, h; } sizes[] = {
		{ "", 3, 3 }, { "--size 2x3", 2, 3 }, { "--size 4x4", 4, 4 },
	};
	for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
		char *out = run_ok(db, NULL, "random %s --count 5 --seed 1", sizes[k].size);
		cr_assert_eq(board_lines(out, b, 8, sizes[k].w, sizes[k].h), 5, "%s: '%s'",
		             sizes[k].size, out);
		sdb_board goal = ck_std_goal(sizes[k].w, sizes[k].h);
		for (int i = 0; i < 5; i++)
			cr_assert_eq(parity_class(&b[i]), parity_class(&goal), "%s: '%s' cannot reach the "
			             "goal", sizes[k].size, ck_board_text(&b[i]).s);
		free(out);
	}

	/* A distance needs the table (what a draw without one says, and at
	 * distances that do not exist: tests/cli/answers-random.md). */
	tk_build(db, "3x3", NULL);
	char *out;
	tk_oracle o;
	sdb_board goal = ck_std_goal(3, 3);
	tk_oracle_init(&o, &goal);
	out = run_ok(db, NULL, "random --distance 3 --count 4 --seed 2");
	cr_assert_eq(board_lines(out, b, 8, 3, 3), 4);
	for (int i = 0; i < 4; i++)
		cr_assert_eq(oracle_dist(&o, &b[i]), 3, "'%s'", ck_board_text(&b[i]).s);
	free(out);
	tk_oracle_free(&o);
	ck_db_remove(db);
}

Test(random, a_2x3_board_at_every_distance)
{
	char db[TEXT_MAX];
	tk_build_scratch(db, sizeof db, "2x3");
	sdb_board goals[2] = { ck_std_goal(2, 3), ck_parse_board("1 2 3 0 4 5", 2, 3) };
	for (int g = 0; g < 2; g++) {
		tk_oracle o;
		tk_oracle_init(&o, &goals[g]);
		for (int d = 0; d <= o.bfs.max; d += 4) {
			int dist = d + 3 > o.bfs.max ? o.bfs.max : d;   /* the last one too */
			char *out = g ? run_ok(db, NULL, "random --size 2x3 --goal '1 2 3 x 4 5' --distance "
			                       "%d --count 5 --seed %d", dist, d)
			              : run_ok(db, NULL, "random --size 2x3 --distance %d --count 5 --seed %d",
			                       dist, d);
			sdb_board b[8];
			cr_assert_eq(board_lines(out, b, 8, 2, 3), 5, "'%s'", out);
			for (int i = 0; i < 5; i++)
				cr_assert_eq(oracle_dist(&o, &b[i]), dist, "goal %d, --distance %d drew '%s'", g,
				             dist, ck_board_text(&b[i]).s);
			free(out);
		}
		char *args = NULL;
		cr_assert(asprintf(&args, "random --size 2x3 --distance %d%s", o.bfs.max + 1,
		                   g ? " --goal '1 2 3 x 4 5'" : "") > 0);
		char max[16];
		snprintf(max, sizeof max, "%d", o.bfs.max);
		failure_case(db, max, "%s", args);
		free(args);
		tk_oracle_free(&o);
	}
	ck_db_remove(db);
}

Test(random, grids_rejoin_to_the_boards)
{
	char db[TEXT_MAX];
	tk_build_scratch(db, sizeof db, "3x3");
	static const struct { const char *goal; char blank; int count; } plan[] = {
		{ NULL, '0', 3 }, { CENTRE_X, 'x', 12 },
	};
	for (int g = 0; g < 2; g++) {
		char gopt[64] = "";
		if (plan[g].goal)
			snprintf(gopt, sizeof gopt, "--goal '%s'", plan[g].goal);
		int count = plan[g].count;
		char *plain = run_ok(db, NULL, "random --distance 6 --count %d --seed 8 %s", count, gopt);
		char *grid = run_ok(db, NULL, "random --grid --distance 6 --count %d --seed 8 %s", count,
		                    gopt);
		sdb_board want[16], got[16];
		char labels[16][COL_MAX];
		cr_assert_eq(board_lines(plain, want, 16, 3, 3), count);
		char **lines;
		int n = ck_split_lines(grid, &lines), at = 0;
		read_grids(lines, n, &at, 3, 3, plan[g].blank, count, labels, got, "random --grid");
		cr_assert_eq(at, n, "%d lines after the grids", n - at);
		for (int i = 0; i < count; i++) {
			char label[16];
			snprintf(label, sizeof label, "#%d", i + 1);
			cr_assert_str_eq(labels[i], label);
			cr_assert(sdb_board_equal(&got[i], &want[i]), "grid %d is '%s', the board line "
			          "'%s'", i + 1, ck_board_text(&got[i]).s, ck_board_text(&want[i]).s);
		}
		free(lines);
		free(plain);
		free(grid);
	}
	/* JSON: the grids of the start and of the goal. */
	char *out = run_ok(db, NULL, "random --grid --json --distance 5 --count 3 --seed 2 --goal "
	                   "'%s'", CENTRE_X);
	char **lines;
	cr_assert_eq(ck_split_lines(out, &lines), 3);
	sdb_board centre = ck_parse_board(CENTRE_X, 3, 3);
	for (int i = 0; i < 3; i++) {
		char text[TEXT_MAX];
		cr_assert_eq(ck_json_str(lines[i], "start", text, sizeof text), 1);
		sdb_board s = ck_parse_board(text, 3, 3);
		sdb_board b = json_grid(ck_json_value(lines[i], "start_grid"), 3, 3, 'x', NULL, "json");
		cr_assert(sdb_board_equal(&b, &s), "start_grid of '%s'", text);
		b = json_grid(ck_json_value(lines[i], "goal_grid"), 3, 3, 'x', NULL, "json");
		cr_assert(sdb_board_equal(&b, &centre), "goal_grid");
	}
	free(lines);
	free(out);
	ck_db_remove(db);
}

/* ------------------------------------------------------------------ */
/* 5. info --histogram                                                    */

/* Check the histogram of the table listed at lines[*at] (its name): the
 * counts line, then one line "  D COUNT |bar" per distance, COUNT the
 * counts line's; the bars grow with the counts, the largest is the
 * longest, none is empty. Returns how many distances; counts into out. */
static int check_histogram(char **lines, int n, int *at, uint64_t *out, const char *name)
{
	while (*at < n && strncmp(lines[*at], "  counts ", 9))
		(*at)++;
	cr_assert_lt(*at, n, "%s: no counts line", name);
	strs c = words_of(lines[(*at)++] + 9);
	int nd = c.n, bars[64];
	cr_assert(nd > 0 && nd <= 64);
	for (int d = 0; d < nd; d++) {
		out[d] = strtoull(c.v[d], NULL, 10);
		cr_assert_lt(*at, n, "%s: the histogram stops at distance %d", name, d);
		const char *line = lines[(*at)++];
		int dd = -1, pos = 0;
		unsigned long long count = 0;
		cr_assert_eq(sscanf(line, " %d %llu |%n", &dd, &count, &pos), 2, "%s: histogram line "
		             "'%s'", name, line);
		cr_assert(pos > 0 && line[pos - 1] == '|', "%s: no bar in '%s'", name, line);
		cr_assert(!strncmp(line, "  ", 2), "%s: '%s' is not indented", name, line);
		cr_assert_eq(dd, d, "%s: line '%s' is not distance %d", name, line, d);
		cr_assert_eq(count, out[d], "%s: distance %d: %llu states, the counts say %llu", name, d,
		             count, (unsigned long long)out[d]);
		const char *bar = line + pos;
		size_t len = strlen(bar);
		cr_assert(len > 0 && (strspn(bar, "#") == len || !strcmp(bar, ".")),
		          "%s: bar '%s' of distance %d", name, bar, d);
		bars[d] = bar[0] == '#' ? (int)len : 0;
	}
	cr_assert(*at >= n || strncmp(lines[*at], "  ", 2) || !strchr(lines[*at], '|'),
	          "%s: more histogram lines than distances: '%s'", name, lines[*at]);
	int top = 0;
	for (int d = 0; d < nd; d++) {
		if (out[d] > out[top])
			top = d;
		for (int e = 0; e < nd; e++)
			if (out[d] < out[e])
				cr_assert_leq(bars[d], bars[e], "%s: %llu states draw a longer bar than %llu",
				              name, (unsigned long long)out[d], (unsigned long long)out[e]);
	}
	for (int d = 0; d < nd; d++)
		cr_assert_leq(bars[d], bars[top], "%s: the largest count has not the longest bar", name);
	cr_assert_gt(bars[top], 1, "%s: the largest count draws no bar", name);
	strs_free(&c);
	return nd;
}

Test(info, histogram_lines_match_the_counts)
{
	char db[TEXT_MAX];
	tk_build_scratch(db, sizeof db, "3x3");
	char *out = run_ok(db, NULL, "info --histogram");
	char **lines;
	int n = ck_split_lines(out, &lines), at = 0;
	static const char *const names[] = { "full-3x3-b0", "full-3x3-b1", "full-3x3-b4" };
	static const int maxd[] = { 31, 31, 30 };
	for (int t = 0; t < 3; t++) {
		while (at < n && strcmp(lines[at], names[t]))
			at++;
		cr_assert_lt(at, n, "table %s not listed", names[t]);
		uint64_t counts[64], total = 0;
		int nd = check_histogram(lines, n, &at, counts, names[t]);
		cr_assert_eq(nd, maxd[t] + 1, "%s: %d distances", names[t], nd);
		for (int d = 0; d < nd; d++)
			total += counts[d];
		cr_assert_eq(total, 181440, "%s: %llu states", names[t], (unsigned long long)total);
		if (t == 0)
			for (int d = 0; d < nd; d++)
				cr_assert_eq(counts[d], tk_a089473[d], "distance %d: %llu, OEIS A089473 says "
				             "%llu", d, (unsigned long long)counts[d],
				             (unsigned long long)tk_a089473[d]);
	}
	free(lines);
	free(out);

	/* One table: its histogram alone, the same as in the listing; the
	 * centre goal's counts are the BFS's. */
	out = run_ok(db, NULL, "info full-3x3-b4 --histogram");
	n = ck_split_lines(out, &lines);
	at = 0;
	uint64_t counts[64];
	int nd = check_histogram(lines, n, &at, counts, "full-3x3-b4");
	cr_assert_eq(at, n, "lines after the one histogram: '%s'", at < n ? lines[at] : "");
	tk_oracle o;
	sdb_board centre = ck_parse_board(GOALS[1], 3, 3);
	tk_oracle_init(&o, &centre);
	cr_assert_eq(nd, o.bfs.max + 1);
	for (int d = 0; d < nd; d++)
		cr_assert_eq(counts[d], o.bfs.counts[d], "centre goal, distance %d", d);
	tk_oracle_free(&o);
	free(lines);
	free(out);
	ck_db_remove(db);
}
