/* slidedb-lookup: answer optimal-move questions from the stored tables;
 * also slidedb-lookup-mpi's rank program (lookup_mpi.h). */
#include <errno.h>
#include <signal.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/answerer.h"
#include "cli/catalog.h"
#include "cli/cli.h"
#include "cli/line_reader.h"
#include "cli/out.h"
#include "cli/splitter.h"
#include "lookup/lookup_mpi.h"
#include "lookup/random.h"

/* Lines a batch takes: after a batch that searched, SEARCH_BATCH (its answers
 * wait for the batch), else BATCH (fewer waits of the threads for one
 * another). */
enum { FLUSH_AT = 1 << 16, BATCH = 8192, SEARCH_BATCH = 1024, DEFAULT_TIMEOUT = 60,
       EXIT_INTERRUPTED = 130 };

/* Commands: the first word that is not an option's, if it is one of
 * these; else the words are a query. */
enum { ANSWER = 1 << 0, CHECK = 1 << 1, RANDOM = 1 << 2, INFO = 1 << 3, VERIFY = 1 << 4,
       STATES = 1 << 5, ALL = 0x3f, SOLVING = ANSWER | CHECK | RANDOM,
       DRAWING = RANDOM | STATES, DIST = ANSWER | CHECK /* slidedb-lookup-mpi's */ };

/* Long-only options get codes above any character. */
enum { OPT_ALL_BEST = 256, OPT_SOLUTIONS, OPT_ALL, OPT_LIMIT, OPT_GRID, OPT_TILES, OPT_HISTOGRAM,
       OPT_GOAL, OPT_DISTANCE, OPT_MIN_DISTANCE, OPT_MAX_DISTANCE, OPT_COUNT, OPT_SEED,
       OPT_WALK, OPT_SET, OPT_PROVE, OPT_CHECKPOINT, OPT_CHECKPOINT_EVERY };

static const cli_option lookup_options[] = {
	{ "db", required_argument, 'd', ALL,
	  "-d, --db PATH       database file (default $SLIDEDB_DB or slidedb.lmdb)" },
	{ "size", required_argument, 's', SOLVING | STATES,
	  "-s, --size WxH      board size, when the number of cells fits several" },
	{ "json", no_argument, 'j', ALL, "-j, --json          one JSON object per answer and line" },
	{ "path", no_argument, 'p', ANSWER | RANDOM,
	  "-p, --path          also print every board along the way" },
	{ "only", required_argument, 'o', ANSWER,
	  "-o, --only FIELD    print only 'distance', 'moves', 'best', 'best-moves' or\n"
	  "                      'solutions' (judge formats)" },
	{ "all-best", no_argument, OPT_ALL_BEST, ANSWER | RANDOM,
	  "    --all-best      every first move that starts an optimal solution" },
	{ "solutions", no_argument, OPT_SOLUTIONS, ANSWER,
	  "    --solutions     the exact number of optimal solutions" },
	{ "all", no_argument, OPT_ALL, ANSWER,
	  "    --all           the optimal solutions themselves, in the order u < d < l < r" },
	{ "limit", required_argument, OPT_LIMIT, ANSWER,
	  "    --limit N       at most N solutions with --all (default 100)" },
	{ "grid", no_argument, OPT_GRID, SOLVING | STATES,
	  "    --grid          draw the boards as grids" },
	{ "tiles", no_argument, OPT_TILES, ANSWER | RANDOM,
	  "    --tiles         name each move also by the tile that slides" },
	{ "goal", required_argument, OPT_GOAL, SOLVING | STATES,
	  "    --goal BOARD    the goal of every query that gives none, and of the boards\n"
	  "                      drawn (default: tiles in order, blank last)" },
	{ "distance", required_argument, OPT_DISTANCE, DRAWING,
	  "    --distance D    boards exactly D moves from the goal" },
	{ "min-distance", required_argument, OPT_MIN_DISTANCE, DRAWING,
	  "    --min-distance A  boards at least A moves from the goal" },
	{ "max-distance", required_argument, OPT_MAX_DISTANCE, DRAWING,
	  "    --max-distance B  boards at most B moves from the goal" },
	{ "count", required_argument, OPT_COUNT, RANDOM,
	  "    --count N       draw N boards (default 1)" },
	{ "seed", required_argument, OPT_SEED, RANDOM,
	  "    --seed S        the same seed draws the same boards" },
	{ "walk", required_argument, OPT_WALK, RANDOM,
	  "    --walk N        scramble by a random walk of N moves instead" },
	{ "histogram", no_argument, OPT_HISTOGRAM, INFO,
	  "    --histogram     draw the states per distance as a bar chart" },
	{ "prove", no_argument, OPT_PROVE, VERIFY,
	  "    --prove         also prove every entry against its neighbours: exact for\n"
	  "                      tables of whole distances, mod 3 only for two-bit tables\n"
	  "                      (a local check), none for min-mode groups" },
	{ "threads", required_argument, 't', ANSWER | CHECK | VERIFY,
	  "-t, --threads N     N threads: each search splits over them; counts, lists and\n"
	  "                      batches share them out by lines, and verify --prove's\n"
	  "                      (default: the cores it may run on)" },
	{ "set", required_argument, OPT_SET, ANSWER | CHECK,
	  "    --set NAMES     search with these pattern-database sets (A, or A+B for the\n"
	  "                      larger bound; default: the database's best)" },
	{ "max-nodes", required_argument, 'n', SOLVING,
	  "-n, --max-nodes N   give up a search after N nodes" },
	{ "timeout", required_argument, 'T', SOLVING,
	  "-T, --timeout S     give up a search after S seconds (default 60; 0: never)" },
	{ "help", no_argument, 'h', ALL, "-h, --help          show this help" },
	{ "version", no_argument, 'V', ALL, "-V, --version       show the version" },
	/* slidedb-lookup-mpi's own (the last NMPI_OPTIONS) */
	{ "checkpoint", required_argument, OPT_CHECKPOINT, ANSWER | CHECK,
	  "    --checkpoint DIR  keep each search's bound and finished subtrees in DIR,\n"
	  "                      sealed with this user's key ($SLIDEDB_KEY_FILE, else\n"
	  "                      ~/.local/state/slidedb/checkpoint.key); a search run\n"
	  "                      again from there resumes, and its answer says so" },
	{ "checkpoint-every", required_argument, OPT_CHECKPOINT_EVERY, ANSWER | CHECK,
	  "    --checkpoint-every MINUTES  between saves (default 1)" },
};
enum { NOPTIONS_ALL = sizeof lookup_options / sizeof *lookup_options, NMPI_OPTIONS = 2 };

/* The program's options: slidedb-lookup-mpi's are not slidedb-lookup's. */
static const lookup_mpi *dist;
#define NOPTIONS (dist ? NOPTIONS_ALL : NOPTIONS_ALL - NMPI_OPTIONS)

typedef struct options {
	const char *db_path;
	sdb_board goal;   /* --goal, for answers and checks */
	int histogram;
	int prove, threads_given;   /* verify --prove, and whether --threads was given */
	lookup_mpi_run run;   /* slidedb-lookup-mpi's */
	random_opts random;
	answerer_opts answer;
} options;

/* A command's work, once its options are parsed: the words after its name
 * (the query, the names); returns the exit code. */
typedef int command_fn(options *o, int npos, char **pos);
static command_fn run_answers, run_check, run_random, run_info, run_verify, run_states;

static const struct command {
	const char *name;
	unsigned bit;
	command_fn *run;
	const char *synopsis, *summary;
} commands[] = {
	{ NULL, ANSWER, run_answers, "[START [GOAL]]",
	  "the distance, best move and an optimal sequence (standard input: a batch)" },
	{ "check", CHECK, run_check, "check [START [GOAL] MOVES]",
	  "judge a move sequence: optimal, longer than optimal, illegal, short" },
	{ "random", RANDOM, run_random, "random [--distance D] [--count N]",
	  "boards drawn uniformly at a distance from the goal" },
	{ "info", INFO, run_info, "info [NAME...]",
	  "list the tables (or those named: a table, a set, or full-WxH)" },
	{ "verify", VERIFY, run_verify, "verify [--prove] [NAME...]",
	  "re-check the tables' CRC-32 and counts (--prove: every entry too)" },
	{ "states", STATES, run_states, "states [--distance D | --min-distance A --max-distance B]",
	  "every state at those distances once, with its distance (a dataset)" },
};
enum { NCOMMANDS = sizeof commands / sizeof *commands };

static void usage(FILE *f, const struct command *only)
{
	for (int i = 0; i < NCOMMANDS; i++)
		if ((!only || only == &commands[i]) && (!dist || (commands[i].bit & DIST)))
			fprintf(f, "%s %s [OPTIONS] %s\n", i && !only ? "      " : "Usage:", cli_prog,
			        commands[i].synopsis);
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
		if (!only && commands[i].name && (!dist || (commands[i].bit & DIST)))
			fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fputs(only ? "Options:\n" : "\nOptions:\n", f);
	static const char *const names[] = { "answers", "check", "random", "info", "verify",
	                                     "states" };
	cli_options_help(f, lookup_options, NOPTIONS, only ? only->bit : dist ? DIST : 0,
	                 dist ? DIST : ALL, names);
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

/* The command the words name: the first word that is not an option or an
 * option's value (every option has one arity in every command, so the table
 * tells which take a value). A query is never a command's name. */
static const struct command *find_command(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) {
			a = i + 1 < argc ? argv[i + 1] : "";
		} else if (a[0] == '-' && a[1] == '-') {
			const size_t len = strcspn(a + 2, "=");
			for (int k = 0; k < NOPTIONS && !a[2 + len]; k++)
				if (strlen(lookup_options[k].name) == len &&
				    !strncmp(lookup_options[k].name, a + 2, len) &&
				    lookup_options[k].has_arg == required_argument) {
					i++;   /* its value */
					break;
				}
			continue;
		} else if (a[0] == '-' && a[1]) {
			for (const char *p = a + 1; *p; p++) {
				const cli_option *g = NULL;
				for (int k = 0; k < NOPTIONS; k++)
					if (lookup_options[k].code == *p)
						g = &lookup_options[k];
				if (g && g->has_arg == required_argument) {
					i += !p[1];
					break;
				}
			}
			continue;
		}
		for (int c = 1; c < NCOMMANDS; c++)
			if (!strcmp(a, commands[c].name))
				return &commands[c];
		return &commands[0];
	}
	return &commands[0];
}

/* A number of moves for a request's field; the library judges its range. */
static int parse_moves(int *d, const char *opt, const char *text)
{
	long v;
	if (!cli_parse_long(&v, text, 0, INT32_MAX))
		return cli_usage("%s '%s' is not a number of moves", opt, text);
	*d = (int)v;
	return -1;
}

/* Returns -1 to go on, or an exit code. */
static int parse_options(options *o, const struct command *cmd, int argc, char **argv)
{
	answerer_opts *a = &o->answer;
	report_opts *r = &a->report;
	sdb_random_request *req = &o->random.req;
	int rc;
	double v;
	long n;
	int c;
	while ((c = cli_getopt(argc, argv, lookup_options, NOPTIONS, cmd->bit)) != -1) {
		switch (c) {
		case 'd': o->db_path = optarg; break;
		case 's':
			if (sdb_size_parse(&a->w, &a->h, optarg))
				return cli_usage("--size: %s", sdb_errdetail());
			break;
		case 'j': r->json = 1; break;
		case 'p': r->path = 1; break;
		case 'o':
			if (!strcmp(optarg, "distance"))
				r->only = ONLY_DISTANCE;
			else if (!strcmp(optarg, "moves"))
				r->only = ONLY_MOVES;
			else if (!strcmp(optarg, "best"))
				r->only = ONLY_BEST;
			else if (!strcmp(optarg, "best-moves"))
				r->only = ONLY_BEST_MOVES, r->all_best = 1;
			else if (!strcmp(optarg, "solutions"))
				r->only = ONLY_SOLUTIONS, r->count = 1;
			else
				return cli_usage("--only '%s': expected distance, moves, best, best-moves or "
				                 "solutions", optarg);
			break;
		case OPT_ALL_BEST: r->all_best = 1; break;
		case OPT_SOLUTIONS: r->count = 1; break;
		case OPT_ALL: r->all = 1; break;
		case OPT_LIMIT:
			if (!cli_parse_double(&v, optarg, 1, 1e12) || v != (double)(uint64_t)v)
				return cli_usage("--limit '%s' is not a positive whole number", optarg);
			r->limit = (uint64_t)v;
			break;
		case OPT_GRID: r->grid = 1; break;
		case OPT_TILES: r->tiles = 1; break;
		case OPT_HISTOGRAM: o->histogram = 1; break;
		case OPT_PROVE: o->prove = 1; break;
		case OPT_GOAL: o->random.goal_text = optarg; break;
		case OPT_DISTANCE:
			if ((rc = parse_moves(&req->distance, "--distance", optarg)) >= 0)
				return rc;
			break;
		case OPT_MIN_DISTANCE:
			if ((rc = parse_moves(&req->min_distance, "--min-distance", optarg)) >= 0)
				return rc;
			break;
		case OPT_MAX_DISTANCE:
			if ((rc = parse_moves(&req->max_distance, "--max-distance", optarg)) >= 0)
				return rc;
			break;
		case OPT_COUNT:
			if (!cli_parse_double(&v, optarg, 1, 1e15) || v != (double)(uint64_t)v)
				return cli_usage("--count '%s' is not a positive whole number", optarg);
			req->count = (uint64_t)v;
			break;
		case OPT_SEED:
			if (!cli_parse_double(&v, optarg, 0, 9.2e18) || v != (double)(uint64_t)v ||
			    strspn(optarg, "0123456789") != strlen(optarg))
				return cli_usage("--seed '%s' is not a whole number", optarg);
			req->seed = strtoull(optarg, NULL, 10);
			req->seed_given = 1;
			break;
		case OPT_WALK:
			if ((rc = parse_moves(&req->walk, "--walk", optarg)) >= 0)
				return rc;
			break;
		case 't':
			if (!cli_parse_long(&n, optarg, 1, 1024))
				return cli_usage("--threads '%s' is not a number from 1 to 1024", optarg);
			a->threads = (int)n;
			o->threads_given = 1;
			break;
		case 'n':
			if (!cli_parse_double(&v, optarg, 1, 1e18) || v != (double)(uint64_t)v)
				return cli_usage("--max-nodes '%s' is not a positive whole number", optarg);
			a->limits.max_nodes = (uint64_t)v;
			break;
		case OPT_SET:
			a->sets = optarg;
			break;
		case 'T':
			if (!cli_parse_double(&v, optarg, 0, 1e9))
				return cli_usage("--timeout '%s' is not a number of seconds", optarg);
			a->limits.timeout = v;   /* 0: no limit */
			a->limit_hint = NULL;
			break;
		case OPT_CHECKPOINT: o->run.checkpoint = optarg; break;
		case OPT_CHECKPOINT_EVERY:
			if (!cli_parse_double(&v, optarg, 0, 1e6))
				return cli_usage("--checkpoint-every '%s' is not a number of minutes", optarg);
			o->run.checkpoint_every = v * 60;
			break;
		case 'h': usage(stdout, cmd->bit == ANSWER ? NULL : cmd); return 0;
		case 'V': printf("%s %s\n", cli_prog, sdb_version()); return 0;
		case ':': return cli_usage("option '%s' needs a value", argv[optind - 1]);
		default: {
			char what[32];
			snprintf(what, sizeof what, cmd->name ? "'%s'" : "%s",
			         cmd->name ? cmd->name : "answers");
			return cli_refuse(argv, c, lookup_options, NOPTIONS, what);
		}
		}
	}
	if (r->only && (r->json || r->path || r->grid || r->tiles || r->all))
		return cli_usage("--only prints one plain field: it does not combine with --json, "
		                 "--path, --grid, --tiles or --all");
	if (r->limit && !r->all)
		return cli_usage("--limit bounds the solutions of --all: give --all too");
	if (!r->limit)
		r->limit = 100;
	if (o->histogram && r->json)
		return cli_usage("--histogram draws a chart: with --json the counts are in \"counts\"");
	if ((cmd->bit & DIST) && o->random.goal_text) {   /* every query's, in its size */
		if (sdb_board_parse(&o->goal, o->random.goal_text, a->w, a->h))
			return cli_usage("--goal '%s': %s", o->random.goal_text, sdb_errdetail());
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
	if ((cmd->bit & DRAWING) && sdb_random_check(req))
		return cli_usage("%s", report_reword(why, sizeof why, sdb_errdetail(), options_words));
	return -1;
}

/* Ctrl-C during a search stops it (answerer_interrupt), and the program says
 * what it had reached and exits 130; with no search under way (or a second
 * time), the signal ends the program as it always did. */
static answerer_interrupt interrupt;

static void on_sigint(int sig)
{
	if (atomic_load(&interrupt.searching) && !atomic_load(&interrupt.stop)) {
		atomic_store(&interrupt.stop, 1);
		return;
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void catch_sigint(answerer_opts *opts)
{
	struct sigaction sa;
	if (sigaction(SIGINT, NULL, &sa) || sa.sa_handler == SIG_IGN)
		return;   /* started ignoring it (nohup, a shell's background job): so it stays */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigint;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (!sigaction(SIGINT, &sa, NULL))
		opts->interrupt = &interrupt;
}

/* rc, or EXIT_INTERRUPTED with the summary said when Ctrl-C stopped a
 * search: its line, bound, nodes and seconds. */
static int after_interrupt(const answerer *ans, int rc)
{
	char what[256];
	if (!answerer_interrupted(ans, what, sizeof what))
		return rc;
	cli_note("interrupted: %s", what);
	return EXIT_INTERRUPTED;
}

typedef struct stream_out {
	out buf;
	int failed;   /* a write failed */
} stream_out;

/* Before waiting for input, hand out the answers so far. */
static void flush_before_wait(void *ctx)
{
	stream_out *so = ctx;
	if (!so->failed && out_write_fd(&so->buf, STDOUT_FILENO))
		so->failed = errno ? errno : EIO;
}

/* A batch's lines, in order: a few gathered, many written from where they
 * were formatted (a long batch's pieces are not copied together). */
static void emit(void *ctx, out *lines)
{
	stream_out *so = ctx;
	if (lines->len < FLUSH_AT / 4) {
		out_mem(&so->buf, lines->buf, lines->len);
		return;
	}
	flush_before_wait(so);
	if (!so->failed && out_write_fd(lines, STDOUT_FILENO))
		so->failed = errno ? errno : EIO;
}

/* Queries from stdin, answered in order, in batches of the queries already
 * read: one per line, or one per grid (rows on lines of their own, up to a
 * blank line, a line of another width, or 2H rows with --size WxH).
 * Answers are written when 64 KiB are ready or before waiting for more
 * input, so an interactive caller gets each answer as soon as its query is
 * read. */
static int answer_stream(answerer *ans, const answerer_opts *opts)
{
	if (isatty(STDIN_FILENO))
		cli_note("reading queries from standard input, one per line (Ctrl-D ends)");
	line_reader in;
	line_reader_init(&in, STDIN_FILENO);
	stream_out so = { { 0 }, 0 };
	char **batch = malloc(BATCH * sizeof *batch);
	int *linenos = malloc(BATCH * sizeof *linenos);
	splitter split = { .w = opts->w, .h = opts->h, .no_grids = opts->check };
	int failed = 0, lineno = 0, more = 1, oom = !batch || !linenos;
	while (!so.failed && !oom && more) {
		int n = 0;
		/* Read while lines are waiting; a grid under way may wait for more. */
		const int most = (!lineno || answerer_searched(ans) ? SEARCH_BATCH : BATCH) - 2;
		while (n < most && (n == 0 || splitter_pending(&split) || line_reader_pending(&in))) {
			size_t len;
			char *line = line_reader_next(&in, &len, flush_before_wait, &so);
			if (line)
				lineno++;
			else
				more = 0;
			int got = splitter_feed(&split, line, len, lineno, batch + n, linenos + n);
			if (got < 0) {
				oom = 1;
				break;
			}
			n += got;
			if (!line)
				break;
		}
		if (n > 0)
			failed |= answerer_batch_to(ans, emit, &so, batch, linenos, n);
		for (int i = 0; i < n; i++)
			free(batch[i]);
		if (opts->interrupt && atomic_load(&opts->interrupt->stop))
			break;
		if (so.buf.len >= FLUSH_AT)
			flush_before_wait(&so);
	}
	flush_before_wait(&so);
	splitter_free(&split);
	free(batch);
	free(linenos);
	int read_error = in.error;
	line_reader_free(&in);
	out_free(&so.buf);
	if (oom)
		return cli_fail("out of memory");
	if (so.failed)
		return cli_fail("writing the answers failed: %s", strerror(so.failed));
	if (read_error)
		return cli_fail("reading standard input failed: %s", strerror(read_error));
	return after_interrupt(ans, failed);
}

/* The command-line words as one query: two words that are each a whole
 * board (compact, or with commas or brackets) are a start and a goal. The
 * text is malloc'ed: arguments of any length are read whole. */
static char *join_args(int argc, char **argv)
{
	sdb_query q;
	const char *sep = " ";
	if (argc == 2 && strchr(argv[0], ';') == NULL && strchr(argv[1], ';') == NULL &&
	    sdb_board_parse(&q.start, argv[0], 0, 0) != SDB_EINVAL &&
	    sdb_board_parse(&q.goal, argv[1], 0, 0) != SDB_EINVAL)
		sep = " ; ";
	size_t len = 1;
	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 3;
	char *text = malloc(len);
	if (!text)
		return NULL;
	text[0] = '\0';
	for (int i = 0; i < argc; i++) {
		if (i)
			strcat(text, sep);
		strcat(text, argv[i]);
	}
	return text;
}

/* check START [GOAL] MOVES: the last word is the moves (checked by main),
 * the others the query. */
static int check_args(answerer *ans, int npos, char **pos)
{
	char *query = join_args(npos - 1, pos);
	size_t len = query ? strlen(query) + strlen(pos[npos - 1]) + 4 : 0;
	char *text = query ? malloc(len) : NULL;
	if (!text) {
		free(query);
		return cli_fail("out of memory");
	}
	snprintf(text, len, "%s ; %s", query, pos[npos - 1]);
	free(query);
	out out = { 0 };
	int rc = answerer_batch(ans, &out, &text, NULL, 1);
	if (out_flush(&out, stdout) || fflush(stdout))
		rc = cli_fail("writing the answer failed: %s", strerror(errno));
	out_free(&out);
	free(text);
	return after_interrupt(ans, rc);
}

/* The database is missing: advice that fits the board asked, when the
 * words are a query (the library's default advice names 3x3). */
static int missing_database(const options *o, int npos, char **pos)
{
	char why[1200];
	snprintf(why, sizeof why, "%s", sdb_errdetail());
	char *text = npos > 0 ? join_args(o->answer.check ? npos - 1 : npos, pos) : NULL;
	sdb_query q;
	char build[1024];
	const int known = text && sdb_query_parse(&q, text, o->answer.w, o->answer.h, NULL) == 0 &&
	                  sdb_hint_build(build, sizeof build, o->db_path, &q.goal) > 0;
	free(text);
	if (!known)
		return cli_fail("%s", why);
	const char *path = o->db_path ? o->db_path : sdb_db_default_path();
	return cli_fail("%s: no such database (build one for %dx%d boards with `%s`)", path,
	                q.goal.w, q.goal.h, build);
}

/* The database read-only, or the exit code (advice that fits the board
 * asked when it is missing). */
static int open_database(sdb_db **db, const options *o, int npos, char **pos)
{
	const int err = sdb_db_open(db, o->db_path, SDB_RDONLY);
	if (err == SDB_ENOTFOUND)
		return missing_database(o, npos, pos);
	return err ? cli_fail_lib(NULL) : -1;
}

/* Answers (or verdicts) of the query the words make, or of standard input. */
static int run_answers(options *o, int npos, char **pos)
{
	sdb_db *db = NULL;
	int rc = open_database(&db, o, npos, pos);
	if (dist) {   /* every rank, opened or not: only rank 0 goes on */
		o->run.threads = o->answer.threads;
		const int ranks = dist->opened(rc >= 0 ? NULL : db, &o->run);
		if (ranks >= 0) {
			if (rc < 0)
				sdb_db_close(db);
			return rc >= 0 ? rc : ranks;
		}
	}
	if (rc >= 0)
		return rc;
	o->answer.resumed = dist ? dist->resumed : NULL;
	catch_sigint(&o->answer);
	answerer *ans = answerer_new(db, &o->answer);
	if (!ans) {
		rc = cli_fail("out of memory");
	} else if (npos == 0) {
		rc = answer_stream(ans, &o->answer);
	} else if (o->answer.check) {
		rc = check_args(ans, npos, pos);
	} else {
		char *text = join_args(npos, pos);
		out out = { 0 };
		rc = text ? answerer_batch(ans, &out, &text, NULL, 1) : cli_fail("out of memory");
		if (out_flush(&out, stdout) || fflush(stdout))
			rc = cli_fail("writing the answer failed: %s", strerror(errno));
		out_free(&out);
		free(text);
		rc = after_interrupt(ans, rc);
	}
	answerer_free(ans);
	if (dist)
		dist->finished();
	sdb_db_close(db);
	return rc;
}

static int run_check(options *o, int npos, char **pos)
{
	if (npos == 1)
		return cli_usage("check needs START [GOAL] MOVES (or no words: lines from standard "
		                 "input)");
	/* A last word without a move letter is part of a board: MOVES is missing.
	 * (A sequence with other characters is malformed: reported like a bad
	 * batch line, exit 1.) */
	if (npos > 1 && pos[npos - 1][0] && !strpbrk(pos[npos - 1], "udlrUDLR"))
		return cli_usage("check: the last word '%s' is not a move sequence (letters u d l r; "
		                 "'' for none)", pos[npos - 1]);
	o->answer.check = 1;
	return run_answers(o, npos, pos);
}

static int run_random(options *o, int npos, char **pos)
{
	const report_opts *r = &o->answer.report;
	if (npos > 0)
		return cli_usage("random takes no words: '%s'", pos[0]);
	if (!r->json && (r->path || r->tiles || r->all_best))
		return cli_usage("--path, --tiles and --all-best fill random's --json answers: give "
		                 "--json too");
	o->random.db_path = o->db_path;
	o->random.answer = o->answer;
	return random_run(&o->random);
}

static int run_states(options *o, int npos, char **pos)
{
	if (npos > 0)
		return cli_usage("states takes no words: '%s'", pos[0]);
	o->random.db_path = o->db_path;
	o->random.answer = o->answer;
	return states_run(&o->random);
}

/* info and verify: the tables the names mean (all without names). */
static int run_catalog(options *o, int npos, char **pos, int verify)
{
	sdb_db *db;
	int rc = open_database(&db, o, 0, NULL);
	if (rc >= 0)
		return rc;
	const char *const *names = (const char *const *)pos;
	const verify_opts v = { o->answer.report.json, o->prove,
	                        o->threads_given ? o->answer.threads : 0, -1 };
	rc = verify ? catalog_verify(db, names, npos, &v)
	            : catalog_info(db, names, npos, o->answer.report.json, o->histogram);
	sdb_db_close(db);
	return rc;
}

static int run_info(options *o, int npos, char **pos)
{
	return run_catalog(o, npos, pos, 0);
}

static int run_verify(options *o, int npos, char **pos)
{
	return run_catalog(o, npos, pos, 1);
}

int lookup_main(int argc, char **argv, const lookup_mpi *d)
{
	dist = d;
	/* A search stops after a minute unless told otherwise: a hard board
	 * without a pattern-database set can take hours. */
	options o = { .answer = { .threads = cli_default_threads(),
	                          .limits = { .timeout = DEFAULT_TIMEOUT },
	                          .limit_hint = "--timeout 0 lifts the limit" },
	              .random = { .req = SDB_RANDOM_REQUEST_INIT },
	              .run = { .checkpoint_every = 60 } };
	const struct command *cmd = find_command(argc, argv);
	int rc = parse_options(&o, cmd, argc, argv);
	if (rc < 0 && dist && !(cmd->bit & DIST))
		rc = cli_usage("%s is slidedb-lookup's: slidedb-lookup-mpi answers queries and checks "
		               "moves", cmd->name);
	if (dist)
		dist->parsed();
	if (rc >= 0)
		return cli_finish(rc);   /* --help, --version, or a usage error */
	int npos = argc - optind;
	char **pos = argv + optind;
	if (cmd->name) {   /* the command's own word */
		npos--;
		pos++;
	}
	/* one search at a time draws the line (counting and listing share
	 * the threads out by lines) */
	o.answer.progress = (o.answer.threads == 1 || !(o.answer.report.count || o.answer.report.all))
	                    && isatty(STDERR_FILENO);
	return cli_finish(cmd->run(&o, npos, pos));
}
