/* Formatting of answers. Text: "distance 2  best r  moves ru", one line per
 * query; JSON: one object per query and line. */
#include <string.h>

#include "report.h"

static void board_text(out *o, const sdb_board *b)
{
	char text[3 * SDB_MAX_CELLS];
	sdb_board_format(text, sizeof text, b);
	out_str(o, text);
}

static void board_json(out *o, const sdb_board *b)
{
	out_char(o, '"');
	board_text(o, b);
	out_char(o, '"');
}

/* The boards from start along the moves, as JSON strings or text lines. */
static void path_boards(out *o, const sdb_board *start, const char *moves, int json)
{
	sdb_board b = *start;
	for (int k = 0;; k++) {
		if (json) {
			out_str(o, k ? "," : "");
			board_json(o, &b);
		} else {
			out_printf(o, "%4d %c  ", k, k ? moves[k - 1] : ' ');
			board_text(o, &b);
			out_char(o, '\n');
		}
		if (!moves[k])
			break;
		sdb_board_apply(&b, sdb_move_from_letter(moves[k]));
	}
}

static void answer_json(out *o, const report_opts *r, const sdb_query *q, const sdb_answer *a)
{
	out_str(o, "{\"start\":");
	board_json(o, &q->start);
	out_str(o, ",\"goal\":");
	board_json(o, &q->goal);
	out_str(o, ",\"size\":\"");
	out_u64(o, q->start.w);
	out_char(o, 'x');
	out_u64(o, q->start.h);
	out_char(o, '"');
	if (!a->solvable) {
		out_str(o, ",\"solvable\":false,\"distance\":null,\"best_move\":null,\"moves\":null");
		if (r->path)
			out_str(o, ",\"path\":null");
		out_str(o, "}\n");
		return;
	}
	out_str(o, ",\"solvable\":true,\"distance\":");
	out_u64(o, (uint64_t)a->distance);
	if (a->best_move < 0) {
		out_str(o, ",\"best_move\":null");
	} else {
		out_str(o, ",\"best_move\":\"");
		out_char(o, sdb_move_letter(a->best_move));
		out_char(o, '"');
	}
	out_str(o, ",\"moves\":\"");
	out_str(o, a->moves);
	out_char(o, '"');
	if (r->path) {
		out_str(o, ",\"path\":[");
		path_boards(o, &q->start, a->moves, 1);
		out_char(o, ']');
	}
	if (a->method == SDB_METHOD_SEARCH) {
		out_str(o, ",\"nodes\":");
		out_u64(o, a->nodes);
		out_str(o, ",\"heuristic\":");
		out_u64(o, (uint64_t)a->heuristic);
	}
	out_str(o, "}\n");
}

static void answer_text(out *o, const report_opts *r, const sdb_query *q, const sdb_answer *a)
{
	if (!a->solvable) {
		out_str(o, "unsolvable\n");
		return;
	}
	char best = a->best_move < 0 ? '-' : sdb_move_letter(a->best_move);
	switch (r->only) {
	case ONLY_DISTANCE:
		out_u64(o, (uint64_t)a->distance);
		break;
	case ONLY_MOVES:
		out_str(o, a->moves);
		break;
	case ONLY_BEST:
		out_char(o, best);
		break;
	default:
		out_str(o, "distance ");
		out_u64(o, (uint64_t)a->distance);
		out_str(o, "  best ");
		out_char(o, best);
		out_str(o, "  moves ");
		out_str(o, a->distance ? a->moves : "-");
	}
	out_char(o, '\n');
	if (r->path)
		path_boards(o, &q->start, a->moves, 0);
}

void report_answer(out *o, const report_opts *r, const sdb_query *q, const sdb_answer *a)
{
	if (r->json)
		answer_json(o, r, q, a);
	else
		answer_text(o, r, q, a);
}

void report_error(out *o, const report_opts *r, int line, const char *input, const char *msg)
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
	out_json_str(o, input);
	out_str(o, ",\"error\":");
	out_json_str(o, msg);
	out_str(o, "}\n");
}
