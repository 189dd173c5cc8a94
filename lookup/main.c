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
#include "slidedb.h"

enum { EXIT_USAGE = 2, FLUSH_AT = 1 << 16, BATCH = 1024 };

const char *prog = "slidedb-lookup";

static void usage(FILE *f)
{
	fprintf(f,
	        "Usage: %s [OPTIONS] [START [GOAL]]\n"
	        "       %s [OPTIONS] info | verify\n"
	        "Answer optimal-move questions: the distance, the best move and a whole\n"
	        "optimal sequence of moves, named by the direction the blank travels (u d l r).\n"
	        "Boards of up to 12 cells are read from the full tables of slidedb-gen full;\n"
	        "larger ones (4x4) are solved optimally by IDA* on a pattern-database set\n"
	        "(slidedb-gen pdb), or on Manhattan distance + linear conflicts without one.\n"
	        "\n"
	        "A board is its cells row by row: numbers separated by spaces or commas with\n"
	        "0, x, _ or . for the blank (\"1 2 3 x 4 6 7 5 8\"), or one character per cell\n"
	        "(\"123804765\"). GOAL defaults to the tiles in order with the blank last.\n"
	        "With no START, queries are read from standard input, one per line: a start,\n"
	        "then optionally a goal (two boards' worth of numbers, or 'START ; GOAL');\n"
	        "blank lines and # comments are skipped. Each answer is written as soon as\n"
	        "its line is answered and no more input is waiting.\n"
	        "\n"
	        "  info              list the tables, their metadata and counts per distance\n"
	        "  verify            re-check every table's CRC-32 and counts\n"
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
	        prog, prog, prog);
}

typedef struct options {
	const char *db_path;
	answer_opts answer;
} options;

static int fail_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (try '%s --help')\n", prog);
	return EXIT_USAGE;
}

static int parse_number(double *v, const char *text, double lo, double hi)
{
	char *end;
	errno = 0;
	*v = strtod(text, &end);
	return end != text && !*end && !errno && *v >= lo && *v <= hi;
}

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
	int c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":d:s:jpo:t:n:T:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'd': o->db_path = optarg; break;
		case 's':
			if (sdb_size_parse(&a->w, &a->h, optarg))
				return fail_usage("--size: %s", sdb_errdetail());
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
				return fail_usage("--only '%s': expected distance, moves or best", optarg);
			break;
		case 't':
			if (!parse_number(&v, optarg, 1, 1024) || v != (int)v)
				return fail_usage("--threads '%s' is not a number from 1 to 1024", optarg);
			a->threads = (int)v;
			break;
		case 'n':
			if (!parse_number(&v, optarg, 1, 1e18) || v != (double)(uint64_t)v)
				return fail_usage("--max-nodes '%s' is not a positive whole number", optarg);
			a->limits.max_nodes = (uint64_t)v;
			break;
		case 'T':
			if (!parse_number(&v, optarg, 1e-3, 1e9))
				return fail_usage("--timeout '%s' is not a number of seconds", optarg);
			a->limits.timeout = v;
			break;
		case 'h': usage(stdout); return 0;
		case 'V': printf("%s %s\n", prog, sdb_version()); return 0;
		case ':': return fail_usage("option '%s' needs a value", argv[optind - 1]);
		default: return fail_usage("unknown option '%s'", cli_refused_option(argv));
		}
	}
	if (a->report.only && (a->report.json || a->report.path))
		return fail_usage("%s", "--only prints one plain field: it does not combine with "
		                        "--json or --path");
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

/* Queries from stdin, one per line, answered in order, in batches of the
 * lines already read. Answers are written when 64 KiB are ready or before
 * waiting for more input, so an interactive caller gets each answer as soon
 * as its line is read. */
static int answer_stream(answerer *ans)
{
	if (isatty(STDIN_FILENO))
		fprintf(stderr, "%s: reading queries from standard input, one per line "
		        "(Ctrl-D ends)\n", prog);
	line_reader in;
	line_reader_init(&in, STDIN_FILENO);
	stream_out so = { { 0 }, 0 };
	char **batch = malloc(BATCH * sizeof *batch);
	int *linenos = malloc(BATCH * sizeof *linenos);
	int failed = 0, lineno = 0;
	while (!so.failed && batch && linenos) {
		int n = 0;
		char *line;
		size_t len;
		while (n < BATCH && (n == 0 || line_pending(&in)) &&
		       (line = line_next(&in, &len, flush_before_wait, &so))) {
			lineno++;
			if (strip_comment(line))
				continue;
			if (!(batch[n] = strdup(line)))
				break;
			linenos[n++] = lineno;
		}
		if (n == 0)
			break;
		failed |= answer_batch(ans, &so.buf, batch, linenos, n);
		for (int i = 0; i < n; i++)
			free(batch[i]);
		if (so.buf.len >= FLUSH_AT)
			flush_before_wait(&so);
	}
	flush_before_wait(&so);
	free(batch);
	free(linenos);
	int read_error = in.error;
	line_reader_free(&in);
	out_free(&so.buf);
	if (so.failed) {
		fprintf(stderr, "%s: writing the answers failed: %s\n", prog, strerror(so.failed));
		return 1;
	}
	if (read_error) {
		fprintf(stderr, "%s: reading standard input failed: %s\n", prog, strerror(read_error));
		return 1;
	}
	return failed;
}

int main(int argc, char **argv)
{
	options o = { .answer = { .threads = 1 } };
	int rc = parse_options(&o, argc, argv);
	if (rc >= 0)
		return rc;
	int npos = argc - optind;
	char **pos = argv + optind;
	const char *cmd = npos > 0 && (!strcmp(pos[0], "info") || !strcmp(pos[0], "verify"))
	                  ? pos[0] : NULL;
	if (cmd && npos > 1)
		return fail_usage("unexpected argument '%s'", pos[1]);

	sdb_db *db;
	if (sdb_db_open(&db, o.db_path, SDB_RDONLY)) {
		fprintf(stderr, "%s: %s\n", prog, sdb_errdetail());
		return 1;
	}
	answerer *ans = answerer_new(db, &o.answer);
	if (!ans) {
		fprintf(stderr, "%s: out of memory\n", prog);
		rc = 1;
	} else if (cmd && !strcmp(cmd, "info")) {
		rc = catalog_info(db, o.answer.report.json);
	} else if (cmd) {
		rc = catalog_verify(db, o.answer.report.json);
	} else if (npos == 0) {
		rc = answer_stream(ans);
	} else {
		char text[1024];
		query_join_args(text, sizeof text, npos, pos);
		char *lines[1] = { text };
		out out = { 0 };
		rc = answer_batch(ans, &out, lines, NULL, 1);
		if (out_flush(&out, stdout) || fflush(stdout)) {
			fprintf(stderr, "%s: writing the answer failed: %s\n", prog, strerror(errno));
			rc = 1;
		}
		out_free(&out);
	}
	answerer_free(ans);
	sdb_db_close(db);
	return rc;
}
