/* slidedb-lookup: answer optimal-move questions from the stored tables. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "answer.h"
#include "catalog.h"
#include "lines.h"
#include "opts.h"
#include "out.h"

enum { FLUSH_AT = 1 << 16, BATCH = 1024 };

static void usage(FILE *f)
{
	fprintf(f,
	        "Usage: %s [OPTIONS] [START [GOAL]]\n"
	        "       %s [OPTIONS] info [NAME...]\n"
	        "       %s [OPTIONS] verify [NAME...]\n"
	        "Answer optimal-move questions: the distance, the best move and a whole\n"
	        "optimal sequence of moves, named by the direction the blank travels (u d l r).\n"
	        "Boards of up to 12 cells are read from the full tables of slidedb-gen full;\n"
	        "larger ones (4x4) are solved optimally by IDA* on a pattern-database set\n"
	        "(slidedb-gen pdb), or on Manhattan distance + linear conflicts without one.\n"
	        "\n"
	        "A board is its cells row by row: numbers separated by spaces or commas with\n"
	        "0, x, X, _ or . for the blank (\"1 2 3 x 4 6 7 5 8\"), or one character per cell\n"
	        "(\"123804765\"). GOAL defaults to the tiles in order with the blank last.\n"
	        "With no START, queries are read from standard input, one per line: a start,\n"
	        "then optionally a goal (two boards' worth of numbers, or 'START ; GOAL');\n"
	        "blank lines and # comments are skipped. A board may also be written as a\n"
	        "grid, one row per line (rows of 2 or 3 cells, or W cells with --size WxH),\n"
	        "ended by a blank line. Every query gets exactly one line of output, an\n"
	        "'error: ...' line (JSON: an object with \"error\") for a bad one. Each answer\n"
	        "is written as soon as its query is answered and no more input is waiting.\n"
	        "\n"
	        "  info [NAME...]    list the tables (or those named: a table, a set, or\n"
	        "                    full-WxH), their metadata and counts per distance\n"
	        "  verify [NAME...]  re-check the tables' CRC-32 and counts\n"
	        "\n"
	        "Options:\n"
	        "  -d, --db PATH     database file (default $SLIDEDB_DB or slidedb.lmdb)\n"
	        "  -s, --size WxH    board size, when the number of cells fits several\n"
	        "  -j, --json        one JSON object per answer and line\n"
	        "  -p, --path        also print every board along the way\n"
	        "  -o, --only FIELD  print only 'distance', 'moves' or 'best' (judge formats)\n"
	        "  -t, --threads N   solve searched queries of a batch on N threads (default 1)\n"
	        "  -n, --max-nodes N give up a search after N nodes\n"
	        "  -T, --timeout S   give up a search after S seconds\n"
	        "  -h, --help        show this help\n"
	        "  -V, --version     show the version\n"
	        "\n"
	        "Exit status: 0 all answered, 1 a query or the database failed, 2 usage.\n"
	        "Example: %s 1 2 3 4 5 6 0 7 8   ->   distance 2  best r  moves rr\n",
	        cli_prog, cli_prog, cli_prog, cli_prog);
}

typedef struct options {
	const char *db_path;
	answer_opts answer;
} options;

/* Returns -1 to go on, or an exit code. */
static int parse_options(options *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "size", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "path", no_argument, NULL, 'p' },
		{ "only", required_argument, NULL, 'o' },
		{ "threads", required_argument, NULL, 't' },
		{ "max-nodes", required_argument, NULL, 'n' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	answer_opts *a = &o->answer;
	double v;
	long n;
	int c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":d:s:jpo:t:n:T:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'd': o->db_path = optarg; break;
		case 's':
			if (sdb_size_parse(&a->w, &a->h, optarg))
				return cli_usage("--size: %s", sdb_errdetail());
			break;
		case 'j': a->report.json = 1; break;
		case 'p': a->report.path = 1; break;
		case 'o':
			if (!strcmp(optarg, "distance"))
				a->report.only = ONLY_DISTANCE;
			else if (!strcmp(optarg, "moves"))
				a->report.only = ONLY_MOVES;
			else if (!strcmp(optarg, "best"))
				a->report.only = ONLY_BEST;
			else
				return cli_usage("--only '%s': expected distance, moves or best", optarg);
			break;
		case 't':
			if (!cli_parse_long(&n, optarg, 1, 1024))
				return cli_usage("--threads '%s' is not a number from 1 to 1024", optarg);
			a->threads = (int)n;
			break;
		case 'n':
			if (!cli_parse_double(&v, optarg, 1, 1e18) || v != (double)(uint64_t)v)
				return cli_usage("--max-nodes '%s' is not a positive whole number", optarg);
			a->limits.max_nodes = (uint64_t)v;
			break;
		case 'T':
			if (!cli_parse_double(&v, optarg, 1e-3, 1e9))
				return cli_usage("--timeout '%s' is not a number of seconds", optarg);
			a->limits.timeout = v;
			break;
		case 'h': usage(stdout); return 0;
		case 'V': printf("%s %s\n", cli_prog, sdb_version()); return 0;
		case ':': return cli_usage("option '%s' needs a value", argv[optind - 1]);
		default: return cli_usage("unknown option '%s'", cli_refused_option(argv));
		}
	}
	if (a->report.only && (a->report.json || a->report.path))
		return cli_usage("--only prints one plain field: it does not combine with --json or "
		                 "--path");
	return -1;
}

/* Cut a trailing "# comment"; true if nothing but blanks is left. */
static int strip_comment(char *s)
{
	char *hash = strchr(s, '#');
	if (hash)
		*hash = '\0';
	s += strspn(s, " \t");
	return *s == '\0';
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

/* A query under way: the rows of a grid gather here until it ends. */
typedef struct grid {
	char *text;   /* NULL: no grid under way */
	size_t len;
	int width, rows, line;
} grid;

static int grid_add(grid *g, const char *row, int width, int line)
{
	size_t n = strlen(row);
	char *t = realloc(g->text, g->len + n + 2);
	if (!t)
		return -1;
	if (!g->text) {
		g->width = width;
		g->rows = 0;
		g->line = line;
		g->len = 0;
	}
	g->text = t;
	memcpy(g->text + g->len, row, n);
	g->len += n;
	g->text[g->len++] = '\n';
	g->text[g->len] = '\0';
	g->rows++;
	return 0;
}

/* Queries from stdin, answered in order, in batches of the queries already
 * read: one per line, or one per grid (rows on lines of their own, up to a
 * blank line, a line of another width, or 2H rows with --size WxH).
 * Answers are written when 64 KiB are ready or before waiting for more
 * input, so an interactive caller gets each answer as soon as its query is
 * read. */
static int answer_stream(answerer *ans, const answer_opts *opts)
{
	if (isatty(STDIN_FILENO))
		cli_note("reading queries from standard input, one per line (Ctrl-D ends)");
	line_reader in;
	line_reader_init(&in, STDIN_FILENO);
	stream_out so = { { 0 }, 0 };
	char **batch = malloc(BATCH * sizeof *batch);
	int *linenos = malloc(BATCH * sizeof *linenos);
	grid g = { 0 };
	int failed = 0, lineno = 0, more = 1, oom = !batch || !linenos;
	while (!so.failed && !oom && more) {
		int n = 0;
		/* Read while lines are waiting; a grid under way may wait for more. */
		while (n < BATCH - 1 && (n == 0 || g.text || line_pending(&in))) {
			size_t len;
			char *line = line_next(&in, &len, flush_before_wait, &so);
			if (line)
				lineno++;
			for (size_t k = 0; line && k < len; k++)
				if (!line[k])
					line[k] = '?';   /* a NUL byte: reported, never a cut line */
			int blank = !line || strip_comment(line);
			int width = blank ? 0 : sdb_query_grid_row(line, opts->w, opts->h);
			if (g.text && (blank || width != g.width)) {   /* the grid ends here */
				batch[n] = g.text;
				linenos[n++] = g.line;
				g.text = NULL;
			}
			if (!line) {
				more = 0;
				break;
			}
			if (blank)
				continue;
			if (width) {
				if (grid_add(&g, line, width, lineno)) {
					oom = 1;
					break;
				}
				if (opts->h && g.rows == 2 * opts->h) {   /* a start and a goal: whole */
					batch[n] = g.text;
					linenos[n++] = g.line;
					g.text = NULL;
				}
				continue;
			}
			if (!(batch[n] = strdup(line))) {
				oom = 1;
				break;
			}
			linenos[n++] = lineno;
		}
		if (n > 0)
			failed |= answer_batch(ans, &so.buf, batch, linenos, n);
		for (int i = 0; i < n; i++)
			free(batch[i]);
		if (so.buf.len >= FLUSH_AT)
			flush_before_wait(&so);
	}
	flush_before_wait(&so);
	free(g.text);
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
	return failed;
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

int main(int argc, char **argv)
{
	cli_prog = "slidedb-lookup";
	options o = { .answer = { .threads = 1 } };
	int rc = parse_options(&o, argc, argv);
	if (rc >= 0)
		return cli_finish(rc);   /* --help, --version, or a usage error */
	int npos = argc - optind;
	char **pos = argv + optind;
	const char *cmd = npos > 0 && (!strcmp(pos[0], "info") || !strcmp(pos[0], "verify"))
	                  ? pos[0] : NULL;
	sdb_db *db;
	if (sdb_db_open(&db, o.db_path, SDB_RDONLY))
		return cli_fail_lib(NULL);
	answerer *ans = answerer_new(db, &o.answer);
	if (!ans) {
		rc = cli_fail("out of memory");
	} else if (cmd && !strcmp(cmd, "info")) {
		rc = catalog_info(db, (const char *const *)pos + 1, npos - 1, o.answer.report.json);
	} else if (cmd) {
		rc = catalog_verify(db, (const char *const *)pos + 1, npos - 1, o.answer.report.json);
	} else if (npos == 0) {
		rc = answer_stream(ans, &o.answer);
	} else {
		char *text = join_args(npos, pos);
		out out = { 0 };
		rc = text ? answer_batch(ans, &out, &text, NULL, 1) : cli_fail("out of memory");
		if (out_flush(&out, stdout) || fflush(stdout))
			rc = cli_fail("writing the answer failed: %s", strerror(errno));
		out_free(&out);
		free(text);
	}
	answerer_free(ans);
	sdb_db_close(db);
	return cli_finish(rc);
}
