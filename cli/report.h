/* SPDX-License-Identifier: MIT */
/* Writing answers: the text line, the JSON object, the path boards, grids,
 * and the checker's verdicts. */
#ifndef SLIDEDB_CLI_REPORT_H
#define SLIDEDB_CLI_REPORT_H

#include "cli/out.h"
#include "slidedb.h"

enum report_only { ONLY_ALL, ONLY_DISTANCE, ONLY_MOVES, ONLY_BEST, ONLY_BEST_MOVES,
                   ONLY_SOLUTIONS };

typedef struct report_opts {
	int json;       /* one JSON object per query and line */
	int path;       /* every board along the way */
	int only;       /* enum report_only: one field, plain (judge formats) */
	int tiles;      /* name each move also by the tile that slides */
	int all_best;   /* every first move of an optimal solution */
	int count;      /* the number of optimal solutions */
	int all;        /* the optimal sequences themselves (up to limit) */
	uint64_t limit;
	int grid;       /* boards drawn as grids */
	int metric;     /* enum sdb_metric the answers are in: MTM writes moves in
	                   its notation ("r3ul2") */
} report_opts;

/* What an answer has beyond sdb_answer. */
typedef struct report_extra {
	const char *all;   /* --all: the sequences, each ended by '\n' */
	char blank;        /* how the input wrote the blank: '0', 'x', '_', ... */
} report_extra;

/* How a query's text writes the blank: the first blank character of any
 * notation (x X _ .) it holds, else '0'. */
char report_blank_of(const char *text);

/* A JSON object of the library's fields (sdb_answer_fields(),
 * sdb_check_fields(), sdb_table_fields()): report_fields_begin() writes
 * its '{', report_field() is the visitor, the caller writes the '}'. */
typedef struct report_fields {
	out *o;
	int items;          /* values written in the object or list now open */
	int depth;          /* lists and objects open inside the outer object */
	uint64_t objects;   /* bit d: the one open at depth d + 1 is an object */
} report_fields;
void report_fields_begin(report_fields *r, out *o);
int report_field(void *ctx, const sdb_field *f);

/* Append the answer a to query q (searched answers add their nodes and
 * heuristic in JSON). */
void report_answer(out *o, const report_opts *r, const sdb_query *q, const sdb_answer *a,
                   const report_extra *x);

/* report_answer() of an answer whose searches resumed an earlier run's work
 * (resumed: JSON adds "resumed"; NULL: none). */
void report_answer_resumed(out *o, const report_opts *r, const sdb_query *q, const sdb_answer *a,
                           const report_extra *x, const sdb_fields_resumed *resumed);

/* Append the checker's verdict on moves (the text verdicts of the man page;
 * JSON: the fields, and the verdict as "verdict", then "resumed" when the
 * searches resumed an earlier run's work: resumed not NULL). */
void report_check(out *o, const report_opts *r, const sdb_query *q, const char *moves,
                  const sdb_check *c, char blank, const sdb_fields_resumed *resumed);

/* Append boards drawn as grids side by side under their labels, wrapped at
 * 80 columns, then a blank line. */
void report_grids(out *o, const sdb_board *boards, const char *const *labels, int n,
                  char blank);

/* Bytes of a failed query's text that its JSON error echoes as "input"
 * (then "..."): a line of megabytes is no board, and its echo must not make
 * an error line of megabytes (slidedb-serve bounds its lines by it). */
enum { REPORT_INPUT_MAX = 1024 };

/* Append the report of a query that could not be answered, in its place:
 * one line in every mode ("error: MESSAGE" in text modes, an object with
 * "error" in JSON, its "input" cut after REPORT_INPUT_MAX bytes), so that
 * answers stay in step with the queries; line is 0 for a query from the
 * command line. nodes: the nodes its searches took before a limit stopped
 * them (JSON "nodes"; the message says them in words), 0 for none. */
void report_error(out *o, const report_opts *r, int line, const char *input, const char *msg,
                  uint64_t nodes);

/* msg with words said otherwise: words is {from, to} pairs ended by
 * {NULL, NULL} (or NULL: none), each replaced wherever it stands as a whole
 * word (no letter, digit, '_' or '-' around it); for a
 * front end that names things otherwise than the library's messages do
 * (slidedb-serve's "size=WxH" for the command line's "--size WxH"). Returns
 * msg itself when no word occurs in it (the common case, on every failed
 * query of a batch: no copy), else buf. */
const char *report_reword(char *buf, size_t cap, const char *msg,
                          const char *const (*words)[2]);

#endif
