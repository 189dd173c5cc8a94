/* slidedb-lookup: answer optimal-move questions from the stored tables. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog.h"
#include "out.h"
#include "query_line.h"
#include "report.h"
#include "slidedb.h"

enum { EXIT_USAGE = 2, FLUSH_AT = 1 << 16 };

static const char *prog = "slidedb-lookup";

static void usage(FILE *f)
{
	fprintf(f,
	        "Usage: %s [OPTIONS] [START [GOAL]]\n"
	        "       %s [OPTIONS] info | verify\n"
	        "Answer optimal-move questions from the tables slidedb-gen built: the\n"
	        "distance, the best move and a whole optimal sequence of moves, named by\n"
	        "the direction the blank travels (u d l r).\n"
	        "\n"
	        "A board is its cells row by row: numbers separated by spaces or commas with\n"
	        "0, x or _ for the blank (\"1 2 3 x 4 6 7 5 8\"), or one character per cell\n"
	        "(\"123804765\"). GOAL defaults to the tiles in order with the blank last.\n"
	        "With no START, queries are read from standard input, one per line: a start,\n"
	        "then optionally a goal (two boards' worth of numbers, or 'START ; GOAL');\n"
	        "blank lines and lines starting with # are skipped.\n"
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
	        "  -h, --help        show this help\n"
	        "  -V, --version     show the version\n"
	        "\n"
	        "Exit status: 0 all answered, 1 a query or the database failed, 2 usage.\n"
	        "Example: %s 1 2 3 0 8 4 7 6 5   ->   distance 8  best r  moves ...\n",
	        prog, prog, prog);
}

typedef struct options {
	const char *db_path;
	int w, h;
	report_opts report;
} options;

static int fail_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (try '%s --help')\n", prog);
	return EXIT_USAGE;
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
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":d:s:jpo:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'd': o->db_path = optarg; break;
		case 's':
			if (sdb_size_parse(&o->w, &o->h, optarg))
				return fail_usage("--size: %s", sdb_errdetail());
			break;
		case 'j': o->report.json = 1; break;
		case 'p': o->report.path = 1; break;
		case 'o':
			if (!strcmp(optarg, "distance"))
				o->report.only = ONLY_DISTANCE;
			else if (!strcmp(optarg, "moves"))
				o->report.only = ONLY_MOVES;
			else if (!strcmp(optarg, "best"))
				o->report.only = ONLY_BEST;
			else
				return fail_usage("--only '%s': expected distance, moves or best", optarg);
			break;
		case 'h': usage(stdout); return 0;
		case 'V': printf("%s %s\n", prog, sdb_version()); return 0;
		case ':': return fail_usage("option '%s' needs a value", argv[optind - 1]);
		default: return fail_usage("unknown option '%s'", argv[optind - 1]);
		}
	}
	return -1;
}

/* Answer one query line; returns 0, or 1 when it could not be answered. */
static int answer_line(out *o, const options *opt, const sdb_db *db, const char *text, int line)
{
	query q;
	sdb_answer a;
	char why[512];
	int err = query_parse(&q, text, opt->w, opt->h, db, why, sizeof why);
	if (!err) {
		/* Always walk the path, even for --only distance: the walk checks
		 * every step, so a damaged table gives an error, never a wrong answer. */
		err = sdb_answer_query(&a, db, &q.start, &q.goal, 1);
		if (err)
			snprintf(why, sizeof why, "%s", sdb_errdetail());
	}
	if (err) {
		if (line)
			fprintf(stderr, "%s: line %d: '%s': %s\n", prog, line, text, why);
		else
			fprintf(stderr, "%s: '%s': %s\n", prog, text, why);
		report_error(o, &opt->report, line, text, why);
		return 1;
	}
	report_answer(o, &opt->report, &q, &a);
	return 0;
}

static void chomp(char *s, ssize_t *len)
{
	while (*len > 0 && (s[*len - 1] == '\n' || s[*len - 1] == '\r'))
		s[--*len] = '\0';
}

static int is_skipped(const char *s)
{
	s += strspn(s, " \t");
	return *s == '\0' || *s == '#';
}

/* Queries from stdin, one per line, answered in order. */
static int answer_stream(const options *opt, const sdb_db *db)
{
	if (isatty(STDIN_FILENO))
		fprintf(stderr, "%s: reading queries from standard input, one per line "
		        "(Ctrl-D ends)\n", prog);
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int failed = 0, lineno = 0;
	out o = { 0 };
	while ((len = getline(&line, &cap, stdin)) >= 0) {
		lineno++;
		chomp(line, &len);
		if (is_skipped(line))
			continue;
		failed |= answer_line(&o, opt, db, line, lineno);
		if (o.len >= FLUSH_AT && out_flush(&o, stdout))
			break;
	}
	free(line);
	int werr = out_flush(&o, stdout) || fflush(stdout);
	out_free(&o);
	if (werr) {
		fprintf(stderr, "%s: writing the answers failed\n", prog);
		return 1;
	}
	return failed;
}

int main(int argc, char **argv)
{
	options o = { 0 };
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
	static char stdout_buf[1 << 16];
	setvbuf(stdout, stdout_buf, _IOFBF, sizeof stdout_buf);
	if (cmd && !strcmp(cmd, "info"))
		rc = catalog_info(db, o.report.json);
	else if (cmd)
		rc = catalog_verify(db, o.report.json);
	else if (npos == 0)
		rc = answer_stream(&o, db);
	else {
		char text[1024];
		query_join_args(text, sizeof text, npos, pos);
		out out = { 0 };
		rc = answer_line(&out, &o, db, text, 0);
		out_flush(&out, stdout);
		out_free(&out);
	}
	if (fflush(stdout))
		rc = 1;
	sdb_db_close(db);
	return rc;
}
