/* slidedb-gen: build distance tables and store them in the database. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gen.h"
#include "opts.h"

const char *prog = "slidedb-gen";

static void usage(FILE *f)
{
	fprintf(f,
	        "Usage: %s full WxH [--goal STATE | --all-goals] [OPTIONS]\n"
	        "       %s pdb WxH --partition SPEC [--blank region|min] [--goal STATE] [OPTIONS]\n"
	        "       %s export NAME -o FILE.gz [--db PATH]\n"
	        "       %s import FILE.gz [--db PATH]\n"
	        "Build distance tables and store them in the database, one transaction per\n"
	        "run: all tables of a run appear at once, or none.\n"
	        "\n"
	        "  full WxH          one byte per reachable state (distance and best move) of a\n"
	        "                    board of W columns and H rows, W*H <= 12. With no --goal:\n"
	        "                    every goal when W*H <= 10, else the standard goal (blank last)\n"
	        "  pdb WxH           an additive pattern-database set (W*H <= 16): SPEC is 5-5-5,\n"
	        "                    6-6-3 or 7-8 on 4x4, or groups of tiles like 1,2,3/4,5,6/7,8\n"
	        "  export NAME       write a table, or every table of a set, with metadata and\n"
	        "                    CRC, as a gzip stream\n"
	        "  import FILE       verify an export and store its tables\n"
	        "\n"
	        "Options:\n"
	        "  -g, --goal STATE   build for goals with STATE's blank cell (and its symmetric cells)\n"
	        "  -a, --all-goals    full: one table per class of blank cells, serving every goal\n"
	        "  -P, --partition S  pdb: the groups\n"
	        "  -b, --blank MODE   pdb: region (default: keeps the blank's region, as exact as\n"
	        "                     keeping its cell) or min (smaller, weaker)\n"
	        "  -o, --output FILE  export: the file to write ('-' for stdout)\n"
	        "  -d, --db PATH      database file (default $SLIDEDB_DB or slidedb.lmdb)\n"
	        "  -t, --threads N    threads (default: all cores)\n"
	        "  -j, --json         print one JSON object per table built\n"
	        "  -q, --quiet        print nothing on success\n"
	        "      --progress     show progress even when stderr is not a terminal\n"
	        "      --no-progress  never show progress\n"
	        "  -h, --help         show this help\n"
	        "  -V, --version      show the version\n"
	        "\n"
	        "Examples: %s full 3x3 && slidedb-lookup 1 2 3 4 5 6 0 7 8\n"
	        "          %s pdb 4x4 --partition 7-8\n",
	        prog, prog, prog, prog, prog, prog);
}

/* Parse options; returns -1 to go on or an exit code. */
static int parse_options(options *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "goal", required_argument, NULL, 'g' },
		{ "all-goals", no_argument, NULL, 'a' },
		{ "partition", required_argument, NULL, 'P' },
		{ "blank", required_argument, NULL, 'b' },
		{ "output", required_argument, NULL, 'o' },
		{ "db", required_argument, NULL, 'd' },
		{ "threads", required_argument, NULL, 't' },
		{ "json", no_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "progress", no_argument, NULL, 1 },
		{ "no-progress", no_argument, NULL, 2 },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":g:aP:b:o:d:t:jqhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'g': o->goal_text = optarg; break;
		case 'a': o->all_goals = 1; break;
		case 'P': o->partition = optarg; break;
		case 'b': o->blank = optarg; break;
		case 'o': o->output = optarg; break;
		case 'd': o->db_path = optarg; break;
		case 't': {
			char *end;
			long n = strtol(optarg, &end, 10);
			if (*end || n < 1 || n > 1024)
				return fail_usage("--threads '%s' is not a number from 1 to 1024", optarg);
			o->threads = (int)n;
			break;
		}
		case 'j': o->json = 1; break;
		case 'q': o->quiet = 1; break;
		case 1: o->progress_mode = 1; break;
		case 2: o->progress_mode = 0; break;
		case 'h': usage(stdout); return 0;
		case 'V': printf("%s %s\n", prog, sdb_version()); return 0;
		case ':': return fail_usage("option '%s' needs a value", argv[optind - 1]);
		default: return fail_usage("unknown option '%s'", cli_refused_option(argv));
		}
	}
	return -1;
}

/* The size argument of full and pdb. */
static int parse_size(options *o, const char *size)
{
	if (sdb_size_parse(&o->w, &o->h, size))
		return fail_usage("%s", sdb_errdetail());
	return -1;
}

int main(int argc, char **argv)
{
	options o = { .progress_mode = -1 };
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	o.threads = cores > 0 ? (int)cores : 1;
	if (argc < 2)
		return fail_usage("%s", "missing command (full, pdb, export or import)");
	const char *cmd = argv[1];
	if (cmd[0] == '-') {
		int rc = parse_options(&o, argc, argv);
		return rc >= 0 ? rc : fail_usage("%s", "missing command (full, pdb, export or import)");
	}
	if (strcmp(cmd, "full") && strcmp(cmd, "pdb") && strcmp(cmd, "export") &&
	    strcmp(cmd, "import"))
		return fail_usage("unknown command '%s' (full, pdb, export or import)", cmd);
	int rc = parse_options(&o, argc - 1, argv + 1);
	if (rc >= 0)
		return rc;
	int npos = argc - 1 - optind;
	char **pos = argv + 1 + optind;
	if (npos < 1)
		return fail_usage("%s: missing argument", cmd);
	if (npos > 1)
		return fail_usage("unexpected argument '%s'", pos[1]);
	if (!strcmp(cmd, "export"))
		return cmd_export(&o, pos[0]);
	if (!strcmp(cmd, "import"))
		return cmd_import(&o, pos[0]);
	if ((rc = parse_size(&o, pos[0])) >= 0)
		return rc;
	return !strcmp(cmd, "full") ? cmd_full(&o) : cmd_pdb(&o);
}
