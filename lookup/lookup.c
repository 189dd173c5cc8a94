/* SPDX-License-Identifier: MIT */
/* slidedb-lookup: answer optimal-move questions from the stored tables;
 * also slidedb-lookup-mpi's rank program (lookup_mpi.h).
 *
 * Commands come from a table, as libgit2's CLI has them (cli/command.h): the
 * first word that is not an option's names one, else the words are a query.
 * Each reads only the options that apply to it (one option table says which,
 * with each value's range), so an option of another command is a usage error. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/command.h"
#include "cli/report.h"
#include "lookup/lookup.h"

/* A search stops after a minute unless told otherwise: a hard board without
 * a pattern-database set can take hours. */
enum { DEFAULT_TIMEOUT = 60 };

enum { ANSWER = 1 << 0, CHECK = 1 << 1, RANDOM = 1 << 2, INFO = 1 << 3, VERIFY = 1 << 4,
       STATES = 1 << 5, ALL = 0x3f, SOLVING = ANSWER | CHECK | RANDOM,
       DRAWING = RANDOM | STATES, DIST = ANSWER | CHECK /* slidedb-lookup-mpi's */ };

#define FIELD(f) offsetof(lookup_options, f)

/* What takes each bit of the options' commands, for --help and refusals. */
static const char *const bit_names[] = { "answers", "check", "random", "info", "verify", "states" };

/* --size WxH: the board's shape, when its number of cells fits several. */
static int read_size(void *opts, char *text)
{
	answerer_opts *a = &((lookup_options *)opts)->answer;
	if (sdb_board_size_parse(&a->w, &a->h, text))
		return cli_usage("--size: %s", sdb_error_detail());
	return -1;
}

/* --seed S: digits only, kept exact (a double would round seeds above 2^53). */
static int read_seed(void *opts, char *text)
{
	sdb_random_request *req = &((lookup_options *)opts)->req;
	if (!*text || strspn(text, "0123456789") != strlen(text) || strtod(text, NULL) > 9.2e18)
		return cli_usage("--seed '%s' is not a whole number", text);
	req->seed = strtoull(text, NULL, 10);
	req->seed_given = 1;
	return -1;
}

static const option_choice only_words[] = {
	{ "distance", ONLY_DISTANCE }, { "moves", ONLY_MOVES }, { "best", ONLY_BEST },
	{ "best-moves", ONLY_BEST_MOVES }, { "solutions", ONLY_SOLUTIONS }, { NULL, 0 } };

static const option_choice metric_words[] = {
	{ "stm", SDB_METRIC_STM }, { "mtm", SDB_METRIC_MTM }, { NULL, 0 } };

static const option_spec option_table[] = {
	{ "db", 'd', ALL, OPTION_TEXT, FIELD(db_path), .help =
	  "-d, --db PATH       database file (default $SLIDEDB_DB or slidedb.lmdb)" },
	{ "size", 's', SOLVING | STATES, OPTION_READ, 0, .read = read_size, .help =
	  "-s, --size WxH      board size, when the number of cells fits several" },
	{ "json", 'j', ALL, OPTION_FLAG, FIELD(answer.report.json), .help =
	  "-j, --json          one JSON object per answer and line" },
	{ "path", 'p', ANSWER | RANDOM, OPTION_FLAG, FIELD(answer.report.path), .help =
	  "-p, --path          also print every board along the way" },
	{ "only", 'o', ANSWER, OPTION_CHOICE, FIELD(answer.report.only), .choices = only_words,
	  .help =
	  "-o, --only FIELD    print only 'distance', 'moves', 'best', 'best-moves' or\n"
	  "                      'solutions' (judge formats)" },
	{ "metric", 'm', ANSWER | CHECK | RANDOM | STATES, OPTION_CHOICE,
	  FIELD(answer.report.metric), .choices = metric_words, .help =
	  "-m, --metric stm|mtm  count moves one tile at a time (stm, the default) or a\n"
	  "                      slide of a row or column as one (mtm: from the tables of\n"
	  "                      `slidedb-gen full WxH --metric mtm`; moves written r3ul2;\n"
	  "                      also the distances and walks of boards drawn or listed)" },
	{ "all-best", 0, ANSWER | RANDOM, OPTION_FLAG, FIELD(answer.report.all_best), .help =
	  "    --all-best      every first move that starts an optimal solution" },
	{ "solutions", 0, ANSWER, OPTION_FLAG, FIELD(answer.report.count), .help =
	  "    --solutions     the exact number of optimal solutions" },
	{ "all", 0, ANSWER, OPTION_FLAG, FIELD(answer.report.all), .help =
	  "    --all           the optimal solutions themselves, in the order u < d < l < r" },
	{ "limit", 0, ANSWER, OPTION_WHOLE, FIELD(answer.report.limit), .lo = 1, .hi = 1e12,
	  .help =
	  "    --limit N       at most N solutions with --all (default 100)" },
	{ "grid", 0, SOLVING | STATES, OPTION_FLAG, FIELD(answer.report.grid), .help =
	  "    --grid          draw the boards as grids" },
	{ "tiles", 0, ANSWER | RANDOM, OPTION_FLAG, FIELD(answer.report.tiles), .help =
	  "    --tiles         name each move also by the tile that slides" },
	{ "goal", 0, SOLVING | STATES, OPTION_TEXT, FIELD(goal_text), .help =
	  "    --goal BOARD    the goal of every query that gives none, and of the boards\n"
	  "                      drawn (default: tiles in order, blank last)" },
	{ "distance", 0, DRAWING, OPTION_INT, FIELD(req.distance), .lo = 0, .hi = INT32_MAX,
	  .unit = "moves", .help =
	  "    --distance D    boards exactly D moves from the goal" },
	{ "min-distance", 0, DRAWING, OPTION_INT, FIELD(req.min_distance), .lo = 0,
	  .hi = INT32_MAX, .unit = "moves", .help =
	  "    --min-distance A  boards at least A moves from the goal" },
	{ "max-distance", 0, DRAWING, OPTION_INT, FIELD(req.max_distance), .lo = 0,
	  .hi = INT32_MAX, .unit = "moves", .help =
	  "    --max-distance B  boards at most B moves from the goal" },
	{ "count", 0, RANDOM, OPTION_WHOLE, FIELD(req.count), .lo = 1, .hi = 1e15, .help =
	  "    --count N       draw N boards (default 1)" },
	{ "seed", 0, RANDOM, OPTION_READ, 0, .read = read_seed, .help =
	  "    --seed S        the same seed draws the same boards" },
	{ "walk", 0, RANDOM, OPTION_INT, FIELD(req.walk), .lo = 0, .hi = INT32_MAX,
	  .unit = "moves", .help =
	  "    --walk N        scramble by a random walk of N moves instead" },
	{ "histogram", 0, INFO, OPTION_FLAG, FIELD(histogram), .help =
	  "    --histogram     draw the states per distance as a bar chart" },
	{ "prove", 0, VERIFY, OPTION_FLAG, FIELD(prove), .help =
	  "    --prove         also prove every entry against its neighbours: exact for\n"
	  "                      tables of whole distances, mod 3 only for two-bit tables\n"
	  "                      (a local check), none for min-mode groups" },
	{ "threads", 't', ANSWER | CHECK | VERIFY, OPTION_INT, FIELD(answer.threads), .lo = 1,
	  .hi = OPTION_MAX_THREADS, .said = 1, .help =
	  "-t, --threads N     N threads: each search splits over them; counts, lists and\n"
	  "                      batches share them out by lines, and verify --prove's\n"
	  "                      (default: the cores it may run on)" },
	{ "set", 0, ANSWER | CHECK, OPTION_TEXT, FIELD(answer.sets), .help =
	  "    --set NAMES     search with these pattern-database sets (A, or A+B for the\n"
	  "                      larger bound; default: the database's best)" },
	{ "max-nodes", 'n', SOLVING, OPTION_WHOLE, FIELD(answer.limits.max_nodes), .lo = 1,
	  .hi = 1e18, .help =
	  "-n, --max-nodes N   give up a search after N nodes" },
	{ "timeout", 'T', SOLVING, OPTION_SECONDS, FIELD(answer.limits.timeout), .lo = 0,
	  .hi = 1e9, .help =
	  "-T, --timeout S     give up a search after S seconds (default 60; 0: never)" },
	{ "help", 'h', ALL, OPTION_HELP, 0, .help =
	  "-h, --help          show this help" },
	{ "version", 'V', ALL, OPTION_VERSION, 0, .help =
	  "-V, --version       show the version" },
	/* slidedb-lookup-mpi's own (the last NMPI_OPTIONS) */
	{ "checkpoint", 0, ANSWER | CHECK, OPTION_TEXT, FIELD(run.checkpoint), .help =
	  "    --checkpoint DIR  keep each search's bound and finished subtrees in DIR,\n"
	  "                      sealed with this user's key ($SLIDEDB_KEY_FILE, else\n"
	  "                      ~/.local/state/slidedb/checkpoint.key); a search run\n"
	  "                      again from there resumes, and its answer says so" },
	{ "checkpoint-every", 0, ANSWER | CHECK, OPTION_MINUTES, FIELD(run.checkpoint_every),
	  .lo = 0, .hi = 1e6, .help =
	  "    --checkpoint-every MINUTES  between saves (default 1)" },
};
enum { NOPTIONS_ALL = sizeof option_table / sizeof *option_table, NMPI_OPTIONS = 2 };

static const command lookup_commands[] = {
	{ NULL, ANSWER, cmd_answer, 0, -1, "[START [GOAL]]",
	  "the distance, best move and an optimal sequence (standard input: a batch)", NULL },
	{ "check", CHECK, cmd_check, 0, -1, "check [START [GOAL] MOVES]",
	  "judge a move sequence: optimal, longer than optimal, illegal, short", NULL },
	{ "random", RANDOM, cmd_random, 0, -1, "random [--distance D] [--count N]",
	  "boards drawn uniformly at a distance from the goal", NULL },
	{ "info", INFO, cmd_info, 0, -1, "info [NAME...]",
	  "list the tables (or those named: a table, a set, or full-WxH)", NULL },
	{ "verify", VERIFY, cmd_verify, 0, -1, "verify [--prove] [NAME...]",
	  "re-check the tables' CRC-32 and counts (--prove: every entry too)", NULL },
	{ "states", STATES, cmd_states, 0, -1,
	  "states [--distance D | --min-distance A --max-distance B]",
	  "every state at those distances once, with its distance (a dataset)", NULL },
};
enum { NCOMMANDS = sizeof lookup_commands / sizeof *lookup_commands };

static void usage(FILE *f, const command *only, const lookup_options *o)
{
	const int dist = o->mpi != NULL;
	for (int i = 0; i < NCOMMANDS; i++)
		if ((!only || only == &lookup_commands[i]) && (!dist || (lookup_commands[i].bit & DIST)))
			fprintf(f, "%s %s [OPTIONS] %s\n", i && !only ? "      " : "Usage:", cli_prog,
			        lookup_commands[i].synopsis);
	if (dist && (!only || only->bit == ANSWER))
		fputs("Run under mpirun: rank 0 reads the queries and writes the answers, the same\n"
		      "as slidedb-lookup's, byte for byte; each search that outgrows a moment is\n"
		      "spread over every rank and, on each, its --threads. Every rank opens the\n"
		      "database (its own copy, or a shared file) and must hold the same tables.\n"
		      "\n", f);
	if (!only || only->bit == ANSWER)
		fputs("Answer optimal-move questions: the distance, the best move and a whole\n"
		      "optimal sequence of moves, named by the direction the blank travels (u d l r).\n"
		      "Boards of up to " CLI_STR(SDB_TABLE_ONLY_CELLS) " cells are read from the full "
		      "tables of slidedb-gen full,\nand boards of up to " CLI_STR(SDB_MAX_FULL_CELLS)
		      " cells when their table is built; larger ones (4x4 to 8x8)\n"
		      "are solved optimally by IDA* on a pattern-database set (slidedb-gen pdb), or\n"
		      "on Manhattan distance + linear conflicts without one. A search stops after\n"
		      "60 s unless --timeout says otherwise (0: never).\n"
		      "\n"
		      "A board is its cells row by row: numbers separated by spaces or commas with\n"
		      "0, x, X, _ or . for the blank (\"1 2 3 x 4 6 7 5 8\"), or one character per cell\n"
		      "(\"123804765\"). GOAL defaults to the tiles in order with the blank last, or\n"
		      "to --goal's board for every query that gives none.\n"
		      "With no START, queries are read from standard input, one per line: a start,\n"
		      "then optionally a goal (two boards' worth of numbers, or 'START ; GOAL');\n"
		      "blank lines and # comments are skipped. A board may also be written as a\n"
		      "grid, one row per line (rows of 2 or 3 cells, or W cells with --size WxH),\n"
		      "ended by a blank line. Every query gets exactly one line of output, an\n"
		      "'error: ...' line (JSON: an object with \"error\") for a bad one. Each answer\n"
		      "is written as soon as its query is answered and no more input is waiting.\n",
		      f);
	if (!only || only->bit == CHECK)
		fputs("\ncheck: with no START, lines 'START [; GOAL] ; MOVES' from standard input.\n"
		      "A verdict is data: the exit status is 0 unless the input is malformed.\n", f);
	if ((!only && !dist) || (only && only->bit == RANDOM))
		fputs("\nrandom: uniform among the boards at the distance asked (a full table is\n"
		      "needed), or among all boards reachable from the goal without one.\n", f);
	if ((!only && !dist) || (only && only->bit == STATES))
		fputs("\nstates: each state at the distances asked once, in the table's index order,\n"
		      "as 'BOARD<tab>DISTANCE' lines (a full table of whole distances is needed);\n"
		      "with no distance, every state that reaches the goal.\n", f);
	fputc('\n', f);
	for (int i = 0; i < NCOMMANDS; i++)
		if (!only && lookup_commands[i].name && (!dist || (lookup_commands[i].bit & DIST)))
			fprintf(f, "  %-8s %s\n", lookup_commands[i].name, lookup_commands[i].summary);
	fputs(only ? "Options:\n" : "\nOptions:\n", f);
	option_help(f, option_table, dist ? NOPTIONS_ALL : NOPTIONS_ALL - NMPI_OPTIONS,
	            only ? only->bit : dist ? DIST : 0, dist ? DIST : ALL, bit_names);
	fputs(dist ? "\nExit status: 0 all answered, 1 a query or the database failed, 2 usage.\n"
	           : "\nExit status: 0 all answered, 1 a query or the database failed, 2 usage, 130\n"
	             "Ctrl-C stopped a search (what it reached is said on stderr).\n", f);
	if (!only || only->bit == ANSWER)
		fprintf(f, "Example: %s 1 2 3 4 5 6 0 7 8   ->   distance 2  best r  moves rr\n",
		        cli_prog);
	if (!only || only->bit == CHECK)
		fprintf(f, "Example: %s check 1 2 3 4 5 6 0 7 8 rr   ->   optimal\n", cli_prog);
	if ((!only && !dist) || (only && only->bit == RANDOM))
		fprintf(f, "Example: %s random --distance 20 --count 5 --seed 1\n", cli_prog);
	if ((!only && !dist) || (only && only->bit == STATES))
		fprintf(f, "Example: %s states --distance 2 --size 3x3\n", cli_prog);
	if (dist && (!only || only->bit == ANSWER))
		fprintf(f, "Example: mpirun -n 64 --bind-to none %s --threads 8 --timeout 0 "
		        "--checkpoint ckpt < queries\n", cli_prog);
}

/* --help of a command: the answers' is the whole program's. */
static void help(FILE *f, const command *c, const void *opts)
{
	usage(f, c->bit == ANSWER ? NULL : c, opts);
}

/* What the options say together, once all are read: -1, or the exit code
 * of a usage error. */
static int options_check(lookup_options *o, const command *c)
{
	answerer_opts *a = &o->answer;
	report_opts *r = &a->report;
	if (r->only == ONLY_BEST_MOVES)
		r->all_best = 1;
	if (r->only == ONLY_SOLUTIONS)
		r->count = 1;
	if (r->only && (r->json || r->path || r->grid || r->tiles || r->all))
		return cli_usage("--only prints one plain field: it does not combine with --json, "
		                 "--path, --grid, --tiles or --all");
	if (r->limit && !r->all)
		return cli_usage("--limit bounds the solutions of --all: give --all too");
	if (!r->limit)
		r->limit = 100;
	if (o->histogram && r->json)
		return cli_usage("--histogram draws a chart: with --json the counts are in \"counts\"");
	if ((c->bit & DIST) && o->goal_text) {   /* every query's, in its size */
		if (sdb_board_parse(&o->goal, o->goal_text, a->w, a->h))
			return cli_usage("--goal '%s': %s", o->goal_text, sdb_error_detail());
		a->goal = &o->goal;
		a->w = o->goal.w;
		a->h = o->goal.h;
	}
	/* The library names the request's fields; here they are options. */
	static const char *const options_words[][2] = {
		{ "min_distance", "--min-distance" }, { "max_distance", "--max-distance" },
		{ "distance", "--distance" }, { "walk", "--walk" }, { "count", "--count" },
		{ NULL, NULL } };
	char why[1024];
	if ((c->bit & DRAWING) && sdb_random_check(&o->req))
		return cli_usage("%s", report_reword(why, sizeof why, sdb_error_detail(),
		                                     options_words));
	return -1;
}

/* The defaults of the options not given, what they say together, and
 * slidedb-lookup-mpi's ranks told that the command line is read. */
static int options_read(void *opts, const command *c, int rc, int nargs, char **args)
{
	lookup_options *o = opts;
	answerer_opts *a = &o->answer;
	(void)nargs;
	(void)args;
	o->threads_given = a->threads > 0;
	if (!o->threads_given)
		a->threads = option_default_threads();
	if (a->limits.timeout < 0) {   /* not given */
		a->limits.timeout = DEFAULT_TIMEOUT;
		a->limit_hint = "--timeout 0 lifts the limit";
	}
	if (rc < 0)
		rc = options_check(o, c);
	if (rc < 0 && o->mpi && !(c->bit & DIST))
		rc = cli_usage("%s is slidedb-lookup's: slidedb-lookup-mpi answers queries and checks "
		               "moves", c->name);
	if (o->mpi)
		o->mpi->parsed();
	/* one search at a time draws the line (counting and listing share
	 * the threads out by lines) */
	a->progress = (a->threads == 1 || !(a->report.count || a->report.all)) &&
	              isatty(STDERR_FILENO);
	return rc;
}

static const program lookup_program = {
	option_table, NOPTIONS_ALL - NMPI_OPTIONS, bit_names, NULL, help, options_read
};
static const program lookup_mpi_program = {
	option_table, NOPTIONS_ALL, bit_names, NULL, help, options_read
};

int lookup_main(int argc, char **argv, const lookup_mpi *mpi)
{
	lookup_options o = { .answer = { .limits = { .timeout = -1 } },
	                     .req = SDB_RANDOM_REQUEST_INIT,
	                     .run = { .checkpoint_every = 60 }, .mpi = mpi };
	const program *p = mpi ? &lookup_mpi_program : &lookup_program;
	const command *c = command_find(p, lookup_commands, NCOMMANDS, argc, argv);
	return command_run(p, c ? c : &lookup_commands[0], &o, argc, argv);
}

int lookup_goal(sdb_board *goal, const lookup_options *o)
{
	int w = o->answer.w, h = o->answer.h;
	if (o->goal_text) {
		if (sdb_board_parse(goal, o->goal_text, w, h))
			return cli_usage("--goal '%s': %s", o->goal_text, sdb_error_detail());
		return -1;
	}
	if (!w)
		w = h = 3;
	sdb_board_goal(goal, w, h, w * h - 1);
	return -1;
}

char *lookup_words(int nargs, char **args, int moves)
{
	const int nboards = moves ? nargs - 1 : nargs;
	sdb_query q;
	const char *sep = " ";
	if (nboards == 2 && strchr(args[0], ';') == NULL && strchr(args[1], ';') == NULL &&
	    sdb_board_parse(&q.start, args[0], 0, 0) != SDB_EINVAL &&
	    sdb_board_parse(&q.goal, args[1], 0, 0) != SDB_EINVAL)
		sep = " ; ";
	size_t len = 1;
	for (int i = 0; i < nargs; i++)
		len += strlen(args[i]) + 3;
	char *text = malloc(len);
	if (!text)
		return NULL;
	text[0] = '\0';
	for (int i = 0; i < nargs; i++) {
		if (i)
			strcat(text, moves && i == nargs - 1 ? " ; " : sep);
		strcat(text, args[i]);
	}
	return text;
}

/* The database is missing: advice that fits the board asked, when the
 * words are a query (the library's default advice names 3x3). */
static int missing_database(const lookup_options *o, int nargs, char **args)
{
	char why[1200];
	snprintf(why, sizeof why, "%s", sdb_error_detail());
	char *text = nargs > 0 ? lookup_words(o->answer.check ? nargs - 1 : nargs, args, 0) : NULL;
	sdb_query q;
	char build[1024];
	const int known = text && sdb_query_parse(&q, text, o->answer.w, o->answer.h, NULL) == 0 &&
	                  sdb_db_build_hint(build, sizeof build, o->db_path, &q.goal) > 0;
	free(text);
	if (!known)
		return cli_fail("%s", why);
	char prefix[64];
	const int cut = snprintf(prefix, sizeof prefix, "slidedb-gen full %dx%d", q.goal.w, q.goal.h);
	static const char metric_opt[] = " --metric mtm";   /* the table of the metric asked */
	const size_t len = strlen(build), add = sizeof metric_opt - 1;
	if (o->answer.report.metric == SDB_METRIC_MTM && !strncmp(build, prefix, (size_t)cut) &&
	    len + add < sizeof build) {
		memmove(build + cut + add, build + cut, len - (size_t)cut + 1);
		memcpy(build + cut, metric_opt, add);
	}
	const char *path = o->db_path ? o->db_path : sdb_db_default_path();
	return cli_fail("%s: no such database (build one for %dx%d boards with `%s`)", path,
	                q.goal.w, q.goal.h, build);
}

int lookup_open(sdb_db **db, const lookup_options *o, int nargs, char **args)
{
	const int err = sdb_db_open(db, o->db_path, SDB_RDONLY);
	if (err == SDB_ENOTFOUND)
		return missing_database(o, nargs, args);
	return err ? cli_fail_lib(NULL) : -1;
}
