/* SPDX-License-Identifier: MIT */
/* slidedb-gen: build distance tables and keep the database (slidedb-gen-mpi:
 * build them over the ranks of an MPI job).
 *
 * Commands come from a table, as libgit2's CLI has them (cli/command.h);
 * each reads only the options that apply to it (one option table says which),
 * so an option of another command is a usage error, never silently ignored. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/command.h"
#include "gen/checkpoint.h"
#include "gen/gen.h"

enum {
	FULL = 1 << 0, PDB = 1 << 1, EXPORT = 1 << 2, IMPORT = 1 << 3, RM = 1 << 4,
	COMPACT = 1 << 5, ASSEMBLE = 1 << 6, ALL = 0x7f, BUILD = FULL | PDB,
	MPI_FULL = 1 << 7,  /* full under slidedb-gen-mpi: --shards */
	SOLO = 1 << 8       /* full and pdb of slidedb-gen, not slidedb-gen-mpi */
};

#define FIELD(f) offsetof(gen_options, f)

/* What takes each bit of the options' commands, for --help. */
static const char *const bit_names[] = { "full", "pdb", "export", "import", "rm", "compact",
	                             "assemble", "full under slidedb-gen-mpi", "full, pdb" };

static const option_choice bits_words[] = { { "8", 8 }, { "2", 2 }, { NULL, 0 } };
static const option_choice metric_words[] = { { "stm", SDB_METRIC_STM }, { "mtm", SDB_METRIC_MTM },
	                                      { NULL, 0 } };

static const option_spec option_table[] = {
	{ "goal", 'g', BUILD, OPTION_TEXT, FIELD(goal_text), .help =
	  "-g, --goal STATE   build for goals with STATE's blank cell (and its symmetric cells)" },
	{ "bits", 0, FULL, OPTION_CHOICE, FIELD(bits), .help =
	  "    --bits 8|2     8: distance and best move per state (default up to "
	  CLI_STR(SDB_TABLE_ONLY_CELLS) " cells);\n"
	  "                     2: the distance mod 3, a quarter of the bytes (default for 14\n"
	  "                     cells; answers walk it)",
	  .choices = bits_words },
	{ "metric", 'm', FULL, OPTION_CHOICE, FIELD(metric), .help =
	  "-m, --metric stm|mtm\n"
	  "                     how moves count: stm (default) one tile a move; mtm every tile\n"
	  "                     between the blank and the one clicked, in its row or column",
	  .choices = metric_words },
	{ "all-goals", 'a', FULL, OPTION_FLAG, FIELD(all_goals), .help =
	  "-a, --all-goals    one table per class of blank cells, serving every goal" },
	{ "partition", 'P', PDB, OPTION_TEXT, FIELD(partition), .help =
	  "-P, --partition S  the groups: 5-5-5, 6-6-3, 7-8 (4x4), 6-6-6-6, 6-6-6-6b, 6-6-6-6c,\n"
	  "                     6-6-6-6d, 7-7-7-3 (5x5), 2x2 or 5s (any: 2x2 squares, groups\n"
	  "                     of 5 along pairs of rows), or tiles like 1,2,3/4,5,6" },
	{ "preset", 0, PDB, OPTION_TEXT, FIELD(preset), .help =
	  "    --preset NAME  instead of --partition, a named bundle of sets for 4x4 or 5x5\n"
	  "                     (5-5-5, 6-6-3, 7-8; 6-6-6-6, 6-6-6-6x4), built in one\n"
	  "                     transaction; recommended: the one for a machine of 2 cores and\n"
	  "                     24 GiB; list: a board's presets and their sizes" },
	{ "blank", 'b', PDB, OPTION_TEXT, FIELD(blank), .help =
	  "-b, --blank MODE   region (default: keeps the blank's region, as exact as keeping\n"
	  "                     its cell) or min (smaller, weaker)" },
	{ "name", 'n', PDB, OPTION_TEXT, FIELD(set_name), .help =
	  "-n, --name NAME    the set's name (default: pdb-WxH-bCELL-GROUPS, the groups in the\n"
	  "                     tiles of the goal with the tiles in order: 1,2,3_4,5,6)" },
	{ "partial", 0, PDB, OPTION_FLAG, FIELD(partial), .help =
	  "    --partial      allow groups that leave tiles out (a weaker heuristic)" },
	{ "output", 'o', EXPORT, OPTION_TEXT, FIELD(output), .help =
	  "-o, --output FILE  the file to write ('-' for standard output)" },
	{ "replace", 0, IMPORT | ASSEMBLE, OPTION_FLAG, FIELD(replace), .help =
	  "    --replace      replace tables that exist (default: refuse them)" },
	{ "shards", 0, MPI_FULL, OPTION_TEXT, FIELD(shards), .help =
	  "    --shards DIR   each rank writes its slice as DIR/shard-RANK.lmdb on its own\n"
	  "                     node (join them with `slidedb-gen assemble`), no database" },
	{ "checkpoint", 0, SOLO, OPTION_TEXT, FIELD(checkpoint), .help =
	  "    --checkpoint DIR\n"
	  "                     save each table's search in DIR/NAME.ckpt after a level, at\n"
	  "                     most every --checkpoint-every minutes; the same command run\n"
	  "                     again after a crash or a kill goes on from there" },
	{ "checkpoint-every", 0, SOLO, OPTION_MINUTES, FIELD(checkpoint_every), .help =
	  "    --checkpoint-every MINUTES\n"
	  "                     between checkpoints (default 10; 0: after every level)",
	  .lo = 0, .hi = 1e6, .said = 1 },
	{ "db", 'd', ALL, OPTION_TEXT, FIELD(db_path), .help =
	  "-d, --db PATH      database file (default $SLIDEDB_DB or slidedb.lmdb)" },
	{ "threads", 't', BUILD | IMPORT | ASSEMBLE, OPTION_INT, FIELD(threads), .help =
	  "-t, --threads N    threads (default: the cores it may run on)",
	  .lo = 1, .hi = OPTION_MAX_THREADS, .said = 1 },
	{ "json", 'j', BUILD, OPTION_FLAG, FIELD(json), .help =
	  "-j, --json         print one JSON object per table built (--preset list: per preset)" },
	{ "quiet", 'q', ALL, OPTION_FLAG, FIELD(quiet), .help =
	  "-q, --quiet        print nothing on success" },
	{ "progress", 0, BUILD | EXPORT | IMPORT, OPTION_FLAG, FIELD(progress_mode), .help =
	  "    --progress     show progress even when stderr is not a terminal" },
	{ "no-progress", 0, BUILD | EXPORT | IMPORT, OPTION_FLAG_OFF, FIELD(progress_mode), .help =
	  "    --no-progress  never show progress" },
	{ "help", 'h', ALL, OPTION_HELP, 0, .help =
	  "-h, --help         show this help" },
	{ "version", 'V', ALL, OPTION_VERSION, 0, .help =
	  "-V, --version      show the version" },
};
enum { NOPTIONS = sizeof option_table / sizeof *option_table };

static const command gen_commands[] = {
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
	  "pdb WxH {--partition SPEC | --preset NAME} [--blank region|min] [--goal STATE]\n"
	  "      [--name NAME] [--partial]",
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
enum { NCOMMANDS = sizeof gen_commands / sizeof *gen_commands };

int gen_goal(sdb_board *goal, const gen_options *o)
{
	if (!o->goal_text)
		return sdb_board_goal(goal, o->w, o->h, o->w * o->h - 1);
	return sdb_board_parse(goal, o->goal_text, o->w, o->h);
}


/* The commands this program runs: slidedb-gen-mpi only those that build. */
static int offered(const command *c, const gen_options *o)
{
	return !o->mpi || (c->bit & BUILD);
}

/* The option bits of a command in this program: full under MPI takes
 * --shards, builds of slidedb-gen --checkpoint. */
static unsigned option_bits(const command *c, const void *opts)
{
	const gen_options *o = opts;
	return c->bit | (o->mpi && c->bit == FULL ? MPI_FULL : 0) |
	       (!o->mpi && (c->bit & BUILD) ? SOLO : 0);
}

static void usage(FILE *f, const command *only, const void *opts)
{
	const gen_options *o = opts;
	for (int i = 0, n = 0; i < NCOMMANDS; i++)
		if ((!only || only == &gen_commands[i]) && offered(&gen_commands[i], o))
			fprintf(f, "%s %s %s [OPTIONS]\n", n++ ? "      " : "Usage:", cli_prog,
			        gen_commands[i].synopsis);
	fputs(o->mpi
	      ? "Build distance tables across the ranks of an MPI job (mpirun -n N), each rank\n"
	        "holding a slice of the index space; the bytes are those of slidedb-gen.\n"
	        "Rank 0 writes the database in one transaction, or with --shards each rank\n"
	        "writes its slice. A rank that fails ends the run on every rank: nothing is\n"
	        "committed.\n\n"
	      : "Build distance tables and keep the database. Every command that writes does\n"
	        "it in one transaction: all its tables appear at once, or none.\n\n", f);
	for (int i = 0; i < NCOMMANDS; i++)
		if ((!only || only == &gen_commands[i]) && offered(&gen_commands[i], o))
			fprintf(f, "  %-8s %s\n", gen_commands[i].name, gen_commands[i].summary);
	fputs("\nOptions:\n", f);
	const unsigned all = o->mpi ? BUILD | MPI_FULL : ALL | SOLO;
	option_help(f, option_table, NOPTIONS, only ? option_bits(only, o) : all & ~MPI_FULL,
	            all & ~MPI_FULL, bit_names);
	if (o->mpi && !only)
		option_help(f, option_table, NOPTIONS, MPI_FULL, ALL, bit_names);
	fputs("\nExit status: 0 done, 1 failed (the database is left as it was), 2 usage.\n", f);
	/* Only the command's own example: the help of one command names no option
	 * of another. */
	for (int i = 0, n = 0; i < NCOMMANDS; i++)
		if (only ? only == &gen_commands[i] : (gen_commands[i].bit & BUILD) != 0) {
			fputs(n++ ? "          " : only ? "Example:  " : "Examples: ", f);
			fprintf(f, gen_commands[i].example, o->mpi ? "mpirun -n 4 slidedb-gen-mpi" : cli_prog);
			fputc('\n', f);
		}
}

/* A folder to write checkpoints in, this build's alone: 0, or 1 said. */
static int checkpoint_folder(const char *dir)
{
	struct stat st;
	if (stat(dir, &st))
		return cli_fail("--checkpoint '%s': %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return cli_fail("--checkpoint '%s': not a directory", dir);
	if (access(dir, W_OK | X_OK))
		return cli_fail("--checkpoint '%s': %s", dir, strerror(errno));
	if (checkpoint_lock(dir))
		return cli_fail("--checkpoint '%s': %s", dir, errno == EWOULDBLOCK ? "another slidedb-gen "
		                "is using it (one build per folder)" : strerror(errno));
	return 0;
}

/* What the options of every command need together, before any work. */
static int options_read(void *opts, const command *c, int rc, int nargs, char **args)
{
	gen_options *o = opts;
	(void)nargs;
	if (rc >= 0)
		return rc;
	if ((c->bit & BUILD) && sdb_board_size_parse(&o->w, &o->h, args[0]))
		return cli_usage("%s", sdb_error_detail());
	if (o->mpi && (rc = o->mpi->parsed(o->shards)))
		return rc;
	if (o->checkpoint_every >= 0 && !o->checkpoint)
		return cli_usage("--checkpoint-every needs --checkpoint DIR");
	if (o->checkpoint_every < 0)
		o->checkpoint_every = 10 * 60;
	if (o->shards && o->json)
		return cli_usage("--shards writes no database: --json has no tables to print");
	return o->checkpoint && checkpoint_folder(o->checkpoint) ? 1 : -1;
}

static const program gen_program = {
	option_table, NOPTIONS, bit_names, option_bits, usage, options_read
};

int gen_main(int argc, char **argv, const gen_mpi *mpi)
{
	cli_prog = mpi ? "slidedb-gen-mpi" : "slidedb-gen";
	const char *commands_list = mpi ? "full or pdb" : "full, pdb, export, import, rm, compact "
	                                                  "or assemble";
	gen_options o = { .progress_mode = -1, .checkpoint_every = -1, .mpi = mpi,
	                  .threads = option_default_threads() };
	if (argc < 2)
		return cli_usage("missing command (%s)", commands_list);
	const char *name = argv[1];
	if (!strcmp(name, "-h") || !strcmp(name, "--help")) {
		usage(stdout, NULL, &o);
		return cli_finish(0);
	}
	if (!strcmp(name, "-V") || !strcmp(name, "--version")) {
		printf("%s %s\n", cli_prog, sdb_version());
		return cli_finish(0);
	}
	const command *cmd = command_named(gen_commands, NCOMMANDS, name);
	if (cmd && !offered(cmd, &o))
		return cli_usage("'%s' is slidedb-gen's: %s builds tables (%s)", name, cli_prog,
		                 commands_list);
	if (!cmd)
		return cli_usage(name[0] == '-' ? "missing command before '%s' (%s)"
		                 : "unknown command '%s' (%s)", name, commands_list);
	return command_run(&gen_program, cmd, &o, argc, argv);
}
