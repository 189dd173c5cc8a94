/* slidedb-gen: build distance tables and keep the database.
 *
 * Subcommands come from a table, as libgit2's CLI has them; each parses only
 * the options that apply to it (one option table says which), so an option
 * of another subcommand is a usage error, never silently ignored. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "gen/checkpoint.h"
#include "gen/gen.h"
#include "gen/gen_mpi.h"

enum {
	FULL = 1 << 0, PDB = 1 << 1, EXPORT = 1 << 2, IMPORT = 1 << 3, RM = 1 << 4,
	COMPACT = 1 << 5, ASSEMBLE = 1 << 6, ALL = 0x7f, BUILD = FULL | PDB,
	MPI_FULL = 1 << 7,  /* full under slidedb-gen-mpi: --shards */
	SOLO = 1 << 8       /* full and pdb of slidedb-gen, not slidedb-gen-mpi */
};

/* Long-only options get codes above any character. */
enum {
	OPT_PROGRESS = 256, OPT_NO_PROGRESS, OPT_PARTIAL, OPT_REPLACE, OPT_BITS, OPT_SHARDS,
	OPT_CHECKPOINT, OPT_CHECKPOINT_EVERY
};

static const cli_option gen_options[] = {
	{ "goal", required_argument, 'g', BUILD,
	  "-g, --goal STATE   build for goals with STATE's blank cell (and its symmetric cells)" },
	{ "bits", required_argument, OPT_BITS, FULL,
	  "    --bits 8|2     8: distance and best move per state (default up to "
	  CLI_STR(SDB_TABLE_ONLY_CELLS) " cells);\n"
	  "                     2: the distance mod 3, a quarter of the bytes (default for 14\n"
	  "                     cells; answers walk it)" },
	{ "all-goals", no_argument, 'a', FULL,
	  "-a, --all-goals    one table per class of blank cells, serving every goal" },
	{ "partition", required_argument, 'P', PDB,
	  "-P, --partition S  the groups: 5-5-5, 6-6-3, 7-8 (4x4), 6-6-6-6 (5x5), 2x2 or 5s\n"
	  "                     (any: 2x2 squares, groups of 5 along pairs of rows), or tiles\n"
	  "                     like 1,2,3/4,5,6" },
	{ "blank", required_argument, 'b', PDB,
	  "-b, --blank MODE   region (default: keeps the blank's region, as exact as keeping\n"
	  "                     its cell) or min (smaller, weaker)" },
	{ "name", required_argument, 'n', PDB,
	  "-n, --name NAME    the set's name (default: pdb-WxH-bCELL-GROUPS, the groups in the\n"
	  "                     tiles of the goal with the tiles in order: 1,2,3_4,5,6)" },
	{ "partial", no_argument, OPT_PARTIAL, PDB,
	  "    --partial      allow groups that leave tiles out (a weaker heuristic)" },
	{ "output", required_argument, 'o', EXPORT,
	  "-o, --output FILE  the file to write ('-' for standard output)" },
	{ "replace", no_argument, OPT_REPLACE, IMPORT | ASSEMBLE,
	  "    --replace      replace tables that exist (default: refuse them)" },
	{ "shards", required_argument, OPT_SHARDS, MPI_FULL,
	  "    --shards DIR   each rank writes its slice as DIR/shard-RANK.lmdb on its own\n"
	  "                     node (join them with `slidedb-gen assemble`), no database" },
	{ "checkpoint", required_argument, OPT_CHECKPOINT, SOLO,
	  "    --checkpoint DIR\n"
	  "                     save each table's search in DIR/NAME.ckpt after a level, at\n"
	  "                     most every --checkpoint-every minutes; the same command run\n"
	  "                     again after a crash or a kill goes on from there" },
	{ "checkpoint-every", required_argument, OPT_CHECKPOINT_EVERY, SOLO,
	  "    --checkpoint-every MINUTES\n"
	  "                     between checkpoints (default 10; 0: after every level)" },
	{ "db", required_argument, 'd', ALL,
	  "-d, --db PATH      database file (default $SLIDEDB_DB or slidedb.lmdb)" },
	{ "threads", required_argument, 't', BUILD | IMPORT | ASSEMBLE,
	  "-t, --threads N    threads (default: the cores it may run on)" },
	{ "json", no_argument, 'j', BUILD,
	  "-j, --json         print one JSON object per table built" },
	{ "quiet", no_argument, 'q', ALL, "-q, --quiet        print nothing on success" },
	{ "progress", no_argument, OPT_PROGRESS, BUILD | EXPORT | IMPORT,
	  "    --progress     show progress even when stderr is not a terminal" },
	{ "no-progress", no_argument, OPT_NO_PROGRESS, BUILD | EXPORT | IMPORT,
	  "    --no-progress  never show progress" },
	{ "help", no_argument, 'h', ALL, "-h, --help         show this help" },
	{ "version", no_argument, 'V', ALL, "-V, --version      show the version" },
};
enum { NOPTIONS = sizeof gen_options / sizeof *gen_options };

static const struct command {
	const char *name;
	unsigned bit;
	int (*run)(const options *o);
	int min_args, max_args;   /* positional arguments */
	const char *synopsis, *summary;
	const char *example;      /* printf format: the program's name */
} commands[] = {
	{ "full", FULL, cmd_full, 1, 1, "full WxH [--goal STATE | --all-goals]",
	  "every reachable state of a board of W columns and H rows, W*H <= "
	  CLI_STR(SDB_MAX_FULL_CELLS) ": distance\n"
	  "      and best move in a byte (up to " CLI_STR(SDB_TABLE_ONLY_CELLS) " cells), or the "
	  "distance mod 3 in two bits\n"
	  "      (" CLI_STR(SDB_MAX_FULL_CELLS) " cells). With no --goal: every goal when W*H <= 10, "
	  "else the standard\n"
	  "      goal (blank last)",
	  "%s full 3x3 && slidedb-lookup 1 2 3 4 5 6 0 7 8" },
	{ "pdb", PDB, cmd_pdb, 1, 1,
	  "pdb WxH --partition SPEC [--blank region|min] [--goal STATE] [--name NAME] [--partial]",
	  "an additive pattern-database set (W*H <= " CLI_STR(SDB_MAX_CELLS) ")",
	  "%s pdb 4x4 --partition 7-8" },
	{ "export", EXPORT, cmd_export, 1, 64, "export NAME... -o FILE.gz",
	  "write tables (a table, a set, or full-WxH for every goal class) with metadata\n"
	  "      and CRC, as a gzip stream", "%s export full-3x3 pdb-4x4-b0-7-8 -o tables.gz" },
	{ "import", IMPORT, cmd_import, 1, 1, "import FILE.gz [--replace]",
	  "verify an export, prove every table against its neighbours, and store them",
	  "%s import tables.gz --replace" },
	{ "rm", RM, cmd_rm, 1, 64, "rm NAME...",
	  "remove tables, sets or full sizes, in one transaction", "%s rm full-3x3 pdb-4x4-b0-7-8" },
	{ "compact", COMPACT, cmd_compact, 0, 0, "compact",
	  "rewrite the database file without its free pages", "%s compact" },
	{ "assemble", ASSEMBLE, cmd_assemble, 1, 64, "assemble DIR... [--replace]",
	  "join the shards of slidedb-gen-mpi --shards (gathered into one or more folders)\n"
	  "      into the database, as one build on one machine would have written it",
	  "%s assemble shards/ --db big.lmdb" },
};
enum { NCOMMANDS = sizeof commands / sizeof *commands };

/* The commands this program runs: slidedb-gen-mpi only those that build. */
static int mpi_flavour;

static int offered(const struct command *c)
{
	return !mpi_flavour || (c->bit & BUILD);
}

/* The option bits of a command in this program: full under MPI takes
 * --shards, builds of slidedb-gen --checkpoint. */
static unsigned option_bits(const struct command *c)
{
	return c->bit | (mpi_flavour && c->bit == FULL ? MPI_FULL : 0) |
	       (!mpi_flavour && (c->bit & BUILD) ? SOLO : 0);
}

static void usage(FILE *f, const struct command *only)
{
	for (int i = 0, n = 0; i < NCOMMANDS; i++)
		if ((!only || only == &commands[i]) && offered(&commands[i]))
			fprintf(f, "%s %s %s [OPTIONS]\n", n++ ? "      " : "Usage:", cli_prog,
			        commands[i].synopsis);
	fputs(mpi_flavour
	      ? "Build distance tables across the ranks of an MPI job (mpirun -n N), each rank\n"
	        "holding a slice of the index space; the bytes are those of slidedb-gen.\n"
	        "Rank 0 writes the database in one transaction, or with --shards each rank\n"
	        "writes its slice. A rank that fails ends the run on every rank: nothing is\n"
	        "committed.\n\n"
	      : "Build distance tables and keep the database. Every command that writes does\n"
	        "it in one transaction: all its tables appear at once, or none.\n\n", f);
	for (int i = 0; i < NCOMMANDS; i++)
		if ((!only || only == &commands[i]) && offered(&commands[i]))
			fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fputs("\nOptions:\n", f);
	static const char *const names[] = { "full", "pdb", "export", "import", "rm", "compact",
		                             "assemble", "full under slidedb-gen-mpi", "full, pdb" };
	const unsigned all = mpi_flavour ? BUILD | MPI_FULL : ALL | SOLO;
	cli_options_help(f, gen_options, NOPTIONS, only ? option_bits(only) : all & ~MPI_FULL,
	                 all & ~MPI_FULL, names);
	if (mpi_flavour && !only)
		cli_options_help(f, gen_options, NOPTIONS, MPI_FULL, ALL, names);
	fputs("\nExit status: 0 done, 1 failed (the database is left as it was), 2 usage.\n", f);
	/* Only the command's own example: the help of one command names no option
	 * of another. */
	for (int i = 0, n = 0; i < NCOMMANDS; i++)
		if (only ? only == &commands[i] : (commands[i].bit & BUILD) != 0) {
			fputs(n++ ? "          " : only ? "Example:  " : "Examples: ", f);
			fprintf(f, commands[i].example, mpi_flavour ? "mpirun -n 4 slidedb-gen-mpi"
			                                            : cli_prog);
			fputc('\n', f);
		}
}

/* Parse the options of cmd into o; -1 to go on, or an exit code. */
static int parse_options(options *o, const struct command *cmd, int argc, char **argv)
{
	int c;
	long v;
	optind = 1;
	while ((c = cli_getopt(argc, argv, gen_options, NOPTIONS, option_bits(cmd))) != -1) {
		switch (c) {
		case 'g': o->goal_text = optarg; break;
		case 'a': o->all_goals = 1; break;
		case OPT_BITS:
			if (strcmp(optarg, "8") && strcmp(optarg, "2"))
				return cli_usage("--bits '%s': expected 8 or 2", optarg);
			o->bits = atoi(optarg);
			break;
		case 'P': o->partition = optarg; break;
		case 'b': o->blank = optarg; break;
		case 'n': o->set_name = optarg; break;
		case OPT_PARTIAL: o->partial = 1; break;
		case 'o': o->output = optarg; break;
		case OPT_REPLACE: o->replace = 1; break;
		case 'd': o->db_path = optarg; break;
		case OPT_SHARDS: o->shards = optarg; break;
		case OPT_CHECKPOINT: o->checkpoint = optarg; break;
		case OPT_CHECKPOINT_EVERY:
			if (!cli_parse_double(&o->checkpoint_minutes, optarg, 0, 1e6))
				return cli_usage("--checkpoint-every '%s' is not a number of minutes from 0 "
				                 "to 1000000", optarg);
			o->checkpoint_minutes_given = 1;
			break;
		case 't':
			if (!cli_parse_long(&v, optarg, 1, 1024))
				return cli_usage("--threads '%s' is not a number from 1 to 1024", optarg);
			o->threads = (int)v;
			break;
		case 'j': o->json = 1; break;
		case 'q': o->quiet = 1; break;
		case OPT_PROGRESS: o->progress_mode = 1; break;
		case OPT_NO_PROGRESS: o->progress_mode = 0; break;
		case 'h': usage(stdout, cmd); return 0;
		case 'V': printf("%s %s\n", cli_prog, sdb_version()); return 0;
		case ':': return cli_usage("option '%s' needs a value", argv[optind - 1]);
		default: {
			char what[32];
			snprintf(what, sizeof what, "'%s'", cmd->name);
			return cli_refuse(argv, c, gen_options, NOPTIONS, what);
		}
		}
	}
	return -1;
}

int gen_main(int argc, char **argv, int mpi)
{
	mpi_flavour = mpi;
	cli_prog = mpi ? "slidedb-gen-mpi" : "slidedb-gen";
	const char *commands_list = mpi ? "full or pdb" : "full, pdb, export, import, rm, compact "
	                                                  "or assemble";
	options o = { .progress_mode = -1, .checkpoint_minutes = 10 };
	o.threads = cli_default_threads();
	if (argc < 2)
		return cli_usage("missing command (%s)", commands_list);
	const char *name = argv[1];
	if (!strcmp(name, "-h") || !strcmp(name, "--help")) {
		usage(stdout, NULL);
		return cli_finish(0);
	}
	if (!strcmp(name, "-V") || !strcmp(name, "--version")) {
		printf("%s %s\n", cli_prog, sdb_version());
		return cli_finish(0);
	}
	const struct command *cmd = NULL;
	for (int i = 0; i < NCOMMANDS && !cmd; i++)
		if (!strcmp(commands[i].name, name))
			cmd = &commands[i];
	if (cmd && !offered(cmd))
		return cli_usage("'%s' is slidedb-gen's: %s builds tables (%s)", name, cli_prog,
		                 commands_list);
	if (!cmd)
		return cli_usage(name[0] == '-' ? "missing command before '%s' (%s)"
		                 : "unknown command '%s' (%s)", name, commands_list);
	int rc = parse_options(&o, cmd, argc - 1, argv + 1);
	if (rc >= 0)
		return cli_finish(rc);   /* --help, --version, or a usage error */
	o.args = argv + 1 + optind;
	o.nargs = argc - 1 - optind;
	if (o.nargs < cmd->min_args)
		return cli_usage("%s: missing argument (%s)", cmd->name, cmd->synopsis);
	if (o.nargs > cmd->max_args)
		return cli_usage("%s: unexpected argument '%s'", cmd->name, o.args[cmd->max_args]);
	if ((cmd->bit & BUILD) && sdb_size_parse(&o.w, &o.h, o.args[0]))
		return cli_usage("%s", sdb_errdetail());
	if (gen_dist && (rc = gen_dist->parsed(o.shards)))
		return cli_finish(rc);
	if (o.checkpoint_minutes_given && !o.checkpoint)
		return cli_usage("--checkpoint-every needs --checkpoint DIR");
	if (o.shards && o.json)
		return cli_usage("--shards writes no database: --json has no tables to print");
	struct stat dir;   /* a folder to write in, before any work */
	if (o.checkpoint && stat(o.checkpoint, &dir))
		return cli_finish(cli_fail("--checkpoint '%s': %s", o.checkpoint, strerror(errno)));
	if (o.checkpoint && !S_ISDIR(dir.st_mode))
		return cli_finish(cli_fail("--checkpoint '%s': not a directory", o.checkpoint));
	if (o.checkpoint && access(o.checkpoint, W_OK | X_OK))
		return cli_finish(cli_fail("--checkpoint '%s': %s", o.checkpoint, strerror(errno)));
	if (o.checkpoint && checkpoint_lock(o.checkpoint))
		return cli_finish(cli_fail("--checkpoint '%s': %s", o.checkpoint,
		                           errno == EWOULDBLOCK ? "another slidedb-gen is using it "
		                           "(one build per folder)" : strerror(errno)));
	return cli_finish(cmd->run(&o));
}
