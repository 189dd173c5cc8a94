/* SPDX-License-Identifier: MIT */
/* Formatting of answers. Text: "distance 2  best r  moves rr", one line per
 * query (and with --grid the boards drawn below it); JSON: one object per
 * query and line. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "cli/report.h"

enum { GRID_COLUMNS = 80, GRID_GAP = 3 };

char report_blank_of(const char *text)
{
	const char *p = strpbrk(text, "xX_.");
	return p ? *p : '0';
}

static void board_text(out *o, const sdb_board *b)
{
	char text[3 * SDB_MAX_CELLS];
	sdb_board_format(text, sizeof text, b);
	out_str(o, text);
}

/* One row of a board as a grid, the blank as the input wrote it. */
static void grid_row(out *o, const sdb_board *b, int row, char blank)
{
	char text[3 * SDB_MAX_CELLS];
	sdb_board_format_row(text, sizeof text, b, row, blank);
	out_str(o, text);
}

static int grid_width(const sdb_board *b)
{
	return b->w * (b->n > 10 ? 3 : 2) - 1;
}

static void pad(out *o, int n)
{
	for (int i = 0; i < n; i++)
		out_char(o, ' ');
}

void report_grids(out *o, const sdb_board *boards, const char *const *labels, int n,
                  char blank)
{
	if (n == 0)
		return;
	int colw = grid_width(&boards[0]);
	for (int i = 0; i < n; i++)
		if ((int)strlen(labels[i]) > colw)
			colw = (int)strlen(labels[i]);
	int per_line = (GRID_COLUMNS + GRID_GAP) / (colw + GRID_GAP);
	per_line = per_line < 1 ? 1 : per_line;
	for (int first = 0; first < n; first += per_line) {
		const int last = first + per_line < n ? first + per_line : n;
		if (first)
			out_char(o, '\n');
		for (int i = first; i < last; i++) {
			out_str(o, labels[i]);
			if (i + 1 < last)
				pad(o, colw + GRID_GAP - (int)strlen(labels[i]));
		}
		out_char(o, '\n');
		for (int row = 0; row < boards[0].h; row++) {
			for (int i = first; i < last; i++) {
				grid_row(o, &boards[i], row, blank);
				if (i + 1 < last)
					pad(o, colw + GRID_GAP - grid_width(&boards[i]));
			}
			out_char(o, '\n');
		}
	}
	out_char(o, '\n');
}

/* The tiles that slide along moves from start. */
static void tile_list(out *o, const sdb_board *start, const char *moves)
{
	sdb_board b = *start;
	for (int k = 0; moves[k]; k++) {
		int m = sdb_move_from_letter(moves[k]);
		if (k)
			out_char(o, ' ');
		out_u64(o, (uint64_t)sdb_move_tile(&b, m));
		sdb_board_apply(&b, m);
	}
}

/* The boards from start along the moves: text lines, or grids. */
static void path_boards(out *o, const report_opts *r, const sdb_board *start,
                        const char *moves, char blank, int grids)
{
	sdb_board boards[SDB_MAX_MOVES + 1];
	char labels[SDB_MAX_MOVES + 1][24];
	const char *label[SDB_MAX_MOVES + 1];
	int n = 0;
	boards[0] = *start;
	for (;; n++) {
		const sdb_board *b = &boards[n];
		const int m = n ? sdb_move_from_letter(moves[n - 1]) : -1;
		const int tile = n ? sdb_move_tile(&boards[n - 1], m) : 0;
		if (grids) {
			if (!n)
				snprintf(labels[n], sizeof labels[n], "0");
			else if (r->tiles)
				snprintf(labels[n], sizeof labels[n], "%d %c %d", n, moves[n - 1], tile);
			else
				snprintf(labels[n], sizeof labels[n], "%d %c", n, moves[n - 1]);
			label[n] = labels[n];
		} else {
			out_printf(o, "%4d %c  ", n, n ? moves[n - 1] : ' ');
			if (r->tiles)
				out_printf(o, n ? "%2d  " : "    ", tile);
			board_text(o, b);
			out_char(o, '\n');
		}
		if (!moves[n])
			break;
		boards[n + 1] = *b;
		sdb_board_apply(&boards[n + 1], sdb_move_from_letter(moves[n]));
	}
	if (grids)
		report_grids(o, boards, label, n + 1, blank);
}

int report_field(void *ctx, const sdb_field *f)
{
	report_fields *j = ctx;
	out *o = j->o;
	if (f->type == SDB_VALUE_END) {
		j->depth--;
		out_char(o, j->depth < 64 && (j->objects >> j->depth & 1) ? '}' : ']');
		j->items = 1;
		return 0;
	}
	/* ',"name":' written in place (the library's names are plain words:
	 * nothing to escape; a batch writes millions of them) */
	const size_t len = f->name ? strlen(f->name) : 0;
	char *const at = out_room(o, len + 4), *p = at;
	if (j->items++)
		*p++ = ',';
	if (f->name) {
		*p++ = '"';
		memcpy(p, f->name, len);
		p += len;
		*p++ = '"';
		*p++ = ':';
	}
	o->len += (size_t)(p - at);
	char count[48];
	switch (f->type) {
	case SDB_VALUE_NULL: out_str(o, "null"); break;
	case SDB_VALUE_BOOL: out_str(o, f->i ? "true" : "false"); break;
	case SDB_VALUE_INT: out_i64(o, f->i); break;
	case SDB_VALUE_REAL: out_printf(o, "%.6f", f->real); break;
	case SDB_VALUE_TEXT: out_json_mem(o, f->text, f->len); break;
	case SDB_VALUE_COUNT:
		sdb_count_format(count, sizeof count, &f->count);
		out_str(o, count);
		break;
	case SDB_VALUE_LIST:
	case SDB_VALUE_OBJECT: {
		const int object = f->type == SDB_VALUE_OBJECT;
		out_char(o, object ? '{' : '[');
		if (j->depth < 64)   /* (the library nests two deep) */
			j->objects = (j->objects & ~(1ull << j->depth)) | (uint64_t)object << j->depth;
		j->depth++;
		j->items = 0;
		break;
	}
	}
	return 0;
}

void report_fields_begin(report_fields *r, out *o)
{
	*r = (report_fields){ .o = o };
	out_char(o, '{');
}

static unsigned fields_wanted(const report_opts *r)
{
	return (r->tiles ? SDB_FIELDS_TILES : 0) | (r->all_best ? SDB_FIELDS_BEST_MOVES : 0) |
	       (r->count ? SDB_FIELDS_SOLUTIONS : 0) | (r->all ? SDB_FIELDS_ALL_MOVES : 0) |
	       (r->path ? SDB_FIELDS_PATH : 0) | (r->grid ? SDB_FIELDS_GRIDS : 0) |
	       (r->metric == SDB_METRIC_MTM ? SDB_FIELDS_MTM : 0);
}

/* Move letters as the answer's metric writes them: runs in the multi-tile
 * metric ("r3ul2"), letters in the single-tile one; "-" for none. */
static void moves_text(out *o, const report_opts *r, const char *moves, size_t len)
{
	if (!len) {
		out_char(o, '-');
		return;
	}
	char letters[SDB_MAX_MOVES + 1], runs[2 * SDB_MAX_MOVES + 1];
	if (r->metric == SDB_METRIC_MTM) {
		snprintf(letters, sizeof letters, "%.*s",
		         (int)(len < SDB_MAX_MOVES ? len : SDB_MAX_MOVES), moves);
		if (sdb_moves_format_mtm(runs, sizeof runs, letters) >= 0) {
			out_str(o, runs);
			return;
		}
	}
	out_mem(o, moves, len);
}

static void answer_json(out *o, const report_opts *r, const sdb_query *q, const sdb_answer *a,
                        const report_extra *x, const sdb_fields_resumed *resumed)
{
	const sdb_fields_opts fo = { fields_wanted(r), x->all, x->blank };
	report_fields j;
	report_fields_begin(&j, o);
	if (!sdb_answer_fields(q, a, &fo, report_field, &j) && resumed)
		sdb_resumed_fields(resumed, report_field, &j);
	out_str(o, "}\n");
}

static void text_best_moves(out *o, unsigned best_moves)
{
	if (!best_moves)
		out_char(o, '-');
	for (int m = 0; m < 4; m++)
		if (best_moves >> m & 1)
			out_char(o, sdb_move_letter(m));
}

static void answer_text(out *o, const report_opts *r, const sdb_query *q, const sdb_answer *a,
                        const report_extra *x)
{
	if (!a->solvable) {
		out_str(o, "unsolvable\n");
		if (r->grid) {
			const sdb_board boards[2] = { q->start, q->goal };
			const char *labels[2] = { "start", "goal" };
			report_grids(o, boards, labels, 2, x->blank);
		}
		return;
	}
	char best = a->best_move < 0 ? '-' : sdb_move_letter(a->best_move);
	char count[48];
	sdb_count_format(count, sizeof count, &a->solutions);
	switch (r->only) {
	case ONLY_DISTANCE: out_u64(o, (uint64_t)a->distance); break;
	case ONLY_MOVES:
		if (a->distance)
			moves_text(o, r, a->moves, strlen(a->moves));
		break;
	case ONLY_BEST: out_char(o, best); break;
	case ONLY_BEST_MOVES: text_best_moves(o, a->best_moves); break;
	case ONLY_SOLUTIONS: out_str(o, count); break;
	default:
		out_str(o, "distance ");
		out_u64(o, (uint64_t)a->distance);
		out_str(o, "  best ");
		out_char(o, best);
		out_str(o, "  moves ");
		moves_text(o, r, a->moves, a->distance ? strlen(a->moves) : 0);
		if (r->tiles) {
			out_str(o, "  tiles ");
			if (a->distance)
				tile_list(o, &q->start, a->moves);
			else
				out_char(o, '-');
		}
		if (r->all_best) {
			out_str(o, "  best-moves ");
			text_best_moves(o, a->best_moves);
		}
		if (r->count) {
			out_str(o, "  solutions ");
			out_str(o, count);
		}
		if (r->all) {
			out_str(o, "  all");
			for (const char *p = x->all ? x->all : ""; *p;) {
				size_t len = strcspn(p, "\n");
				out_char(o, ' ');
				moves_text(o, r, p, len);
				p += len + (p[len] == '\n');
			}
		}
	}
	out_char(o, '\n');
	if (r->path) {
		path_boards(o, r, &q->start, a->moves, x->blank, r->grid);
	} else if (r->grid) {
		const sdb_board boards[2] = { q->start, q->goal };
		const char *labels[2] = { "start", "goal" };
		report_grids(o, boards, labels, 2, x->blank);
	}
}

void report_answer_resumed(out *o, const report_opts *r, const sdb_query *q, const sdb_answer *a,
                           const report_extra *x, const sdb_fields_resumed *resumed)
{
	if (r->json)
		answer_json(o, r, q, a, x, resumed);
	else
		answer_text(o, r, q, a, x);
}

void report_answer(out *o, const report_opts *r, const sdb_query *q, const sdb_answer *a,
                   const report_extra *x)
{
	report_answer_resumed(o, r, q, a, x, NULL);
}

/* The checker's verdict in the library's words (sdb_check_verdict). */
static void verdict(out *o, const sdb_check *c)
{
	char text[128];
	out_str(o, sdb_check_verdict(text, sizeof text, c) >= 0 ? text : "?");
}

void report_check(out *o, const report_opts *r, const sdb_query *q, const char *moves,
                  const sdb_check *c, char blank, const sdb_fields_resumed *resumed)
{
	if (!r->json) {
		verdict(o, c);
		out_char(o, '\n');
		if (r->grid) {
			const sdb_board boards[3] = { q->start, c->end, q->goal };
			const char *labels[3] = { "start", c->legal ? "end" : "stopped", "goal" };
			report_grids(o, boards, labels, 3, blank);
		}
		return;
	}
	const sdb_fields_opts fo = { (r->grid ? SDB_FIELDS_GRIDS : 0) |
		                     (r->metric == SDB_METRIC_MTM ? SDB_FIELDS_MTM : 0), NULL, blank };
	report_fields j;
	report_fields_begin(&j, o);
	if (!sdb_check_fields(q, moves, c, &fo, report_field, &j) && resumed)
		sdb_resumed_fields(resumed, report_field, &j);
	out_str(o, "}\n");
}

void report_error(out *o, const report_opts *r, int line, const char *input, const char *msg,
                  uint64_t nodes)
{
	if (!r->json) {
		out_str(o, "error: ");
		out_str(o, msg);
		out_char(o, '\n');
		return;
	}
	out_str(o, "{");
	if (line) {
		out_str(o, "\"line\":");
		out_u64(o, (uint64_t)line);
		out_char(o, ',');
	}
	out_str(o, "\"input\":");
	out_json_strn(o, input, REPORT_INPUT_MAX);
	out_str(o, ",\"error\":");
	out_json_str(o, msg);
	if (nodes) {
		out_str(o, ",\"nodes\":");
		out_u64(o, nodes);
	}
	out_str(o, "}\n");
}

/* Whether msg + at (a match of a word of len bytes) stands as a whole word:
 * no letter, digit, '_' or '-' around it. */
static int whole_word(const char *msg, size_t at, size_t len)
{
	const char before = at ? msg[at - 1] : ' ', after = msg[at + len];
	return !(isalnum((unsigned char)before) || before == '_' || before == '-') &&
	       !(isalnum((unsigned char)after) || after == '_');
}

const char *report_reword(char *buf, size_t cap, const char *msg,
                          const char *const (*words)[2])
{
	/* One pass over msg: at each place, the first word of the table that
	 * stands there whole is replaced; the text put in is never read again. */
	size_t n = 0;
	int changed = 0;
	for (size_t at = 0; msg[at] && n + 1 < cap;) {
		const char *const (*w)[2] = words;
		for (; w && (*w)[0]; w++)
			if (!strncmp(msg + at, (*w)[0], strlen((*w)[0])) &&
			    whole_word(msg, at, strlen((*w)[0])))
				break;
		if (w && (*w)[0]) {
			n += (size_t)snprintf(buf + n, cap - n, "%s", (*w)[1]);
			n = n < cap ? n : cap - 1;
			at += strlen((*w)[0]);
			changed = 1;
		} else {
			buf[n++] = msg[at++];
		}
	}
	if (!changed)
		return msg;
	buf[n] = '\0';
	return buf;
}
