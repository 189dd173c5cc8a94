/* SPDX-License-Identifier: MIT */
/* The fields of an answer, a checker's verdict and a catalog entry: the
 * one list, in the order `slidedb-lookup --json` writes them, walked by a
 * visitor (sdb_field_fn) that the CLI, the server and Python each turn into
 * their own output. A field is added here, once, or nowhere; and the words
 * some of their values are written in. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "answer/answer.h"

/* A walk: the visitor, and what it returned to stop (0: going on). Every
 * emit is a no-op once stopped, so the lists below read straight. */
typedef struct walk {
	sdb_field_fn fn;
	void *ctx;
	int stop;
} walk;

static void emit(walk *w, const sdb_field *f)
{
	if (!w->stop)
		w->stop = w->fn(w->ctx, f);
}

static void put_null(walk *w, const char *name)
{
	emit(w, &(sdb_field){ .name = name, .type = SDB_VALUE_NULL });
}

static void put_bool(walk *w, const char *name, int v)
{
	emit(w, &(sdb_field){ .name = name, .type = SDB_VALUE_BOOL, .i = v != 0 });
}

static void put_int(walk *w, const char *name, int64_t v)
{
	emit(w, &(sdb_field){ .name = name, .type = SDB_VALUE_INT, .i = v });
}

/* An int, or null when none. */
static void put_int_or_null(walk *w, const char *name, int64_t v, int none)
{
	if (none)
		put_null(w, name);
	else
		put_int(w, name, v);
}

/* Text of a known length (a board just formatted, the moves). */
static void put_text_len(walk *w, const char *name, const char *v, size_t len)
{
	emit(w, &(sdb_field){ .name = name, .type = SDB_VALUE_TEXT, .text = v, .len = len });
}

static void put_text(walk *w, const char *name, const char *v)
{
	put_text_len(w, name, v, strlen(v));
}

static void begin_list(walk *w, const char *name)
{
	emit(w, &(sdb_field){ .name = name, .type = SDB_VALUE_LIST });
}

/* The end of a list or an object. */
static void end_list(walk *w)
{
	emit(w, &(sdb_field){ .type = SDB_VALUE_END });
}

static void put_board(walk *w, const char *name, const sdb_board *b)
{
	char text[3 * SDB_MAX_CELLS];
	const int len = sdb_board_format(text, sizeof text, b);
	put_text_len(w, name, text, len > 0 ? (size_t)len : 0);
}

static void put_size(walk *w, const sdb_board *b)
{
	/* (by hand, not snprintf: this runs for every answer of a batch) */
	char text[8], *p = text;
	if (b->w >= 10)
		*p++ = (char)('0' + b->w / 10);
	*p++ = (char)('0' + b->w % 10);
	*p++ = 'x';
	if (b->h >= 10)
		*p++ = (char)('0' + b->h / 10);
	*p++ = (char)('0' + b->h % 10);
	*p = '\0';
	put_text(w, "size", text);
}

/* A board as the rows of a grid: a list of strings. */
static void put_grid(walk *w, const char *name, const sdb_board *b, char blank)
{
	begin_list(w, name);
	for (int row = 0; row < b->h; row++) {
		char text[3 * SDB_MAX_CELLS];
		sdb_board_format_row(text, sizeof text, b, row, blank);
		put_text(w, NULL, text);
	}
	end_list(w);
}

/* Move letters of a mask of moves, in the order u d l r. */
static void put_move_set(walk *w, const char *name, unsigned mask)
{
	char text[5];
	int n = 0;
	for (int m = 0; m < 4; m++)
		if (mask >> m & 1)
			text[n++] = sdb_move_letter(m);
	text[n] = '\0';
	put_text(w, name, text);
}

/* The tiles that slide along the moves from start. */
static void put_tiles(walk *w, const sdb_board *start, const char *moves)
{
	sdb_board b = *start;
	begin_list(w, "tiles");
	for (int k = 0; moves[k]; k++) {
		const int m = sdb_move_from_letter((unsigned char)moves[k]);
		put_int(w, NULL, sdb_move_tile(&b, m));
		sdb_board_apply(&b, m);
	}
	end_list(w);
}

/* A sequence of move letters, in the multi-tile notation if mtm. */
static void put_moves(walk *w, const char *name, const char *moves, int mtm)
{
	char runs[2 * SDB_MAX_MOVES + 1];
	put_text(w, name, mtm && sdb_moves_format_mtm(runs, sizeof runs, moves) >= 0 ? runs : moves);
}

/* The sequences of all, each ended by '\n'. */
static void put_sequences(walk *w, const char *all, int mtm)
{
	begin_list(w, "all_moves");
	for (const char *p = all ? all : ""; *p;) {
		char seq[SDB_MAX_MOVES + 1];
		size_t len = strcspn(p, "\n");
		snprintf(seq, sizeof seq, "%.*s", (int)(len < SDB_MAX_MOVES ? len : SDB_MAX_MOVES), p);
		put_moves(w, NULL, seq, mtm);
		p += len + (p[len] == '\n');
	}
	end_list(w);
}

/* Every board from start along the moves: strings, or grids. */
static void put_path(walk *w, const char *name, const sdb_board *start, const char *moves,
                     int grids, char blank)
{
	sdb_board b = *start;
	begin_list(w, name);
	for (int k = 0;; k++) {
		if (grids)
			put_grid(w, NULL, &b, blank);
		else
			put_board(w, NULL, &b);
		if (!moves[k])
			break;
		sdb_board_apply(&b, sdb_move_from_letter((unsigned char)moves[k]));
	}
	end_list(w);
}

int sdb_answer_fields(const sdb_query *q, const sdb_answer *a, const sdb_fields_opts *opts,
                      sdb_field_fn fn, void *ctx)
{
	const sdb_fields_opts none = { 0 };
	const sdb_fields_opts *o = opts ? opts : &none;
	const unsigned want = o->want;
	const char blank = o->blank ? o->blank : '0';
	const int no = !a->solvable;   /* unsolvable: null past "solvable" */
	walk w = { fn, ctx, 0 };
	put_board(&w, "start", &q->start);
	put_board(&w, "goal", &q->goal);
	put_size(&w, &q->start);
	const int mtm = (want & SDB_FIELDS_MTM) != 0;
	if (mtm)
		put_text(&w, "metric", sdb_metric_name(SDB_METRIC_MTM));
	put_bool(&w, "solvable", a->solvable);
	put_int_or_null(&w, "distance", a->distance, no);
	if (no || a->best_move < 0) {
		put_null(&w, "best_move");
	} else {
		const char best[2] = { sdb_move_letter(a->best_move), '\0' };
		put_text(&w, "best_move", best);
	}
	if (no)
		put_null(&w, "moves");
	else
		put_moves(&w, "moves", a->moves, mtm);
	static const struct { unsigned bit; const char *name; } optional[] = {
		{ SDB_FIELDS_TILES, "tiles" }, { SDB_FIELDS_BEST_MOVES, "best_moves" },
		{ SDB_FIELDS_SOLUTIONS, "solutions" }, { SDB_FIELDS_ALL_MOVES, "all_moves" },
		{ SDB_FIELDS_PATH, "path" },
	};
	for (size_t i = 0; i < sizeof optional / sizeof *optional; i++) {
		const unsigned bit = optional[i].bit;
		if (!(want & bit))
			continue;
		if (no)
			put_null(&w, optional[i].name);
		else if (bit == SDB_FIELDS_TILES)
			put_tiles(&w, &q->start, a->moves);
		else if (bit == SDB_FIELDS_BEST_MOVES)
			put_move_set(&w, "best_moves", a->best_moves);
		else if (bit == SDB_FIELDS_SOLUTIONS)
			emit(&w, &(sdb_field){ .name = "solutions", .type = SDB_VALUE_COUNT,
			                       .count = a->solutions });
		else if (bit == SDB_FIELDS_ALL_MOVES)
			put_sequences(&w, o->all, mtm);
		else
			put_path(&w, "path", &q->start, a->moves, 0, blank);
	}
	if (want & SDB_FIELDS_GRIDS) {
		put_grid(&w, "start_grid", &q->start, blank);
		put_grid(&w, "goal_grid", &q->goal, blank);
		if ((want & SDB_FIELDS_PATH) && no)
			put_null(&w, "path_grids");
		else if (want & SDB_FIELDS_PATH)
			put_path(&w, "path_grids", &q->start, a->moves, 1, blank);
	}
	if (a->method == SDB_METHOD_SEARCH) {
		put_int(&w, "nodes", (int64_t)a->nodes);
		put_int(&w, "heuristic", a->heuristic);
	}
	return w.stop;
}

int sdb_check_fields(const sdb_query *q, const char *moves, const sdb_check *c,
                     const sdb_fields_opts *opts, sdb_field_fn fn, void *ctx)
{
	walk w = { fn, ctx, 0 };
	put_board(&w, "start", &q->start);
	put_board(&w, "goal", &q->goal);
	put_size(&w, &q->start);
	if (opts && (opts->want & SDB_FIELDS_MTM))
		put_text(&w, "metric", sdb_metric_name(SDB_METRIC_MTM));
	put_text(&w, "moves", moves);
	put_bool(&w, "legal", c->legal);
	put_int_or_null(&w, "illegal_step", c->illegal_step, c->legal);
	put_bool(&w, "reaches_goal", c->reaches_goal);
	put_int(&w, "length", c->length);
	put_int_or_null(&w, "distance", c->distance, !c->solvable);
	put_bool(&w, "optimal", c->optimal);
	put_int_or_null(&w, "end_distance", c->end_distance, !c->solvable);
	char verdict[128];
	put_text(&w, "verdict", sdb_check_verdict(verdict, sizeof verdict, c) >= 0 ? verdict : "?");
	if (opts && (opts->want & SDB_FIELDS_GRIDS)) {
		const char blank = opts->blank ? opts->blank : '0';
		put_grid(&w, "start_grid", &q->start, blank);
		put_grid(&w, "end_grid", &c->end, blank);
		put_grid(&w, "goal_grid", &q->goal, blank);
	}
	return w.stop;
}

int sdb_resumed_fields(const sdb_fields_resumed *r, sdb_field_fn fn, void *ctx)
{
	walk w = { fn, ctx, 0 };
	emit(&w, &(sdb_field){ .name = "resumed", .type = SDB_VALUE_OBJECT });
	put_text(&w, "checkpoint", r->checkpoint);
	put_text(&w, "key_file", r->key_file);
	put_int(&w, "bound", r->bound);
	put_int(&w, "subtrees_done", r->subtrees_done);
	put_int(&w, "nodes", (int64_t)r->nodes);
	end_list(&w);
	return w.stop;
}

/* The numbers of the bits set in mask: tiles, or cells. */
static void put_bits(walk *w, const char *name, uint64_t mask)
{
	begin_list(w, name);
	for (int b = 0; b < 64; b++)
		if (mask >> b & 1)
			put_int(w, NULL, b);
	end_list(w);
}

/* The cells whose goals a full table serves: its blank cell's class. */
static uint64_t served_cells(const sdb_table_info *in)
{
	uint64_t cells = 0;
	for (int c = 0; c < in->goal.n; c++)
		if (sdb_sym_representative(in->goal.w, in->goal.h, c) == in->goal.blank)
			cells |= (uint64_t)1 << c;
	return cells;
}

/* A pattern table's group: its set, its tiles (numbered as the class's
 * ordered goal numbers them, which "tiles_of" shows), what it keeps of
 * the blank, the layout of its entries (sdb_table_layout()), and the tiles
 * the whole set leaves out. */
static void put_pattern(walk *w, const sdb_table_info *in)
{
	uint64_t tiles, left;
	sdb_board ordered;
	sdb_table_tiles(&tiles, &left, &ordered, in);
	put_text(w, "set", in->set);
	put_int(w, "group", in->group);
	put_int(w, "groups", in->ngroups);
	put_text(w, "blank", in->blank_mode == SDB_BLANK_REGION ? "region" : "min");
	put_text(w, "layout", sdb_table_layout(in) == SDB_LAYOUT_ORDERS ? "orders" : "blocks");
	put_bits(w, "tiles", tiles);
	put_bits(w, "left_out", left);
	put_board(w, "tiles_of", &ordered);
}

int sdb_table_fields(const sdb_table *t, sdb_field_fn fn, void *ctx)
{
	const sdb_table_info *in = sdb_table_meta(t);
	const char *problem = sdb_table_problem(t);
	walk w = { fn, ctx, 0 };
	put_text(&w, "name", in->name);
	if (in->kind == 0 && problem) {   /* a catalog entry too damaged to read */
		put_text(&w, "problem", problem);
		return w.stop;
	}
	char text[64];
	put_text(&w, "kind", sdb_table_kind_name(in->kind));
	put_size(&w, &in->goal);
	put_board(&w, "goal", &in->goal);
	put_bits(&w, "blank_cells", served_cells(in));
	put_text(&w, "entry_format", sdb_table_format_name(in->entry_format));
	put_int(&w, "states", (int64_t)in->states);
	put_int(&w, "bytes", (int64_t)sdb_table_bytes(in));
	const int chunks = sdb_table_chunks(t);
	put_int(&w, "chunks", chunks > 0 ? chunks : 1);   /* 1: whole, or unreadable (verify says) */
	put_int(&w, "max_distance", in->max_distance);
	snprintf(text, sizeof text, "%08x", in->crc32);
	put_text(&w, "crc32", text);
	const time_t built = (time_t)in->built_at;
	struct tm tm;
	gmtime_r(&built, &tm);
	strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
	put_text(&w, "built_at", text);
	emit(&w, &(sdb_field){ .name = "build_seconds", .type = SDB_VALUE_REAL,
	                       .real = in->build_seconds });
	put_int(&w, "threads", in->threads);
	put_text(&w, "tool_version", in->tool_version);
	if (in->kind == SDB_KIND_PATTERN)
		put_pattern(&w, in);
	put_int(&w, "format_version", in->format_version);
	begin_list(&w, "counts");
	for (int d = 0; d <= in->max_distance; d++)
		put_int(&w, NULL, (int64_t)in->counts[d]);
	end_list(&w);
	if (problem)
		put_text(&w, "problem", problem);
	return w.stop;
}

/* --- The words values are written in, one place for each, so that every
 * program and binding says the same: a count of optimal sequences, the
 * names of kinds and entry formats as `info` prints them. */

int sdb_count_format(char *buf, size_t cap, const sdb_count *c)
{
	char digits[40];
	int n = 0;
	unsigned __int128 v = (unsigned __int128)c->hi << 64 | c->lo;
	do {
		digits[n++] = (char)('0' + (int)(v % 10));
		v /= 10;
	} while (v);
	if ((size_t)n >= cap)
		return sdbi_fail(SDB_EINVAL, "buffer too small for a count");
	for (int i = 0; i < n; i++)
		buf[i] = digits[n - 1 - i];
	buf[n] = '\0';
	return n;
}

const char *sdb_table_kind_name(int kind)
{
	return kind == SDB_KIND_FULL ? "full" : kind == SDB_KIND_PATTERN ? "pattern"
	       : kind == SDB_KIND_FULL_MTM ? "full-mtm" : "unknown";
}

const char *sdb_table_format_name(int format)
{
	switch (format) {
	case SDB_ENTRY_DIST6_MOVE2: return "dist6-move2";
	case SDB_ENTRY_DIST8: return "dist8";
	case SDB_ENTRY_NIBBLE_MD: return "nibble-manhattan";
	case SDB_ENTRY_MOD3: return "mod3-2bit";
	default: return "unknown";
	}
}
