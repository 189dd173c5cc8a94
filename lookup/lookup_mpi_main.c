/* SPDX-License-Identifier: MIT */
/* slidedb-lookup-mpi: slidedb-lookup under mpirun, each search spread over
 * every rank (ranks.c). Rank 0 reads the queries and writes the answers;
 * every rank reads the same command line and opens the database itself,
 * and the ranks check that they hold the same tables before any work.
 * A rank that fails to start stops every rank (exit 1); a rank that dies
 * mid-run makes mpirun end the others, each saying so (exit 1). */
#define _GNU_SOURCE   /* sched_getaffinity */
#include <errno.h>
#include <mpi.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "cli/cli.h"
#include "cli/durable.h"
#include "lookup/lookup.h"
#include "lookup/ranks.h"

static int rank, nranks;
static volatile sig_atomic_t dismissed;   /* the work is over: an end from mpirun is quiet */
static ckpt_key key;                      /* rank 0, with --checkpoint */

/* One table as the ranks compare it. */
typedef struct table_id {
	char name[SDB_NAME_MAX];
	uint32_t crc32;
	uint32_t zero;
	uint64_t states;
} table_id;

/* Every rank reads the same command line: only rank 0 says what is wrong
 * with it. Once it is read, the others speak again, naming their rank. */
static void parsed(void)
{
	cli_rank_speak("slidedb-lookup-mpi", rank);
}

/* The tables of db (n of them, malloc'ed), or NULL. */
static table_id *tables_of(const sdb_db *db, int *n)
{
	*n = db ? sdb_table_count(db) : 0;
	table_id *t = calloc((size_t)*n + 1, sizeof *t);
	for (int i = 0; t && i < *n; i++) {
		const sdb_table_info *in = sdb_table_meta(sdb_table_at(db, i));
		snprintf(t[i].name, sizeof t[i].name, "%s", in->name);
		t[i].crc32 = in->crc32;
		t[i].states = in->states;
	}
	return t;
}

/* Whether this rank's tables are rank 0's: 1, or 0 having said how not. */
static int same_tables(const sdb_db *db, const char *path)
{
	int n, n0;
	table_id *mine = tables_of(db, &n);
	n0 = n;
	MPI_Bcast(&n0, 1, MPI_INT, 0, MPI_COMM_WORLD);
	table_id *theirs = rank ? calloc((size_t)n0 + 1, sizeof *theirs) : mine;
	int ok = mine && theirs;
	if (!ok) {   /* (the broadcast must still be taken) */
		free(theirs);
		theirs = calloc((size_t)n0 + 1, sizeof *theirs);
	}
	MPI_Bcast(theirs, (int)(sizeof *theirs * (size_t)n0), MPI_BYTE, 0, MPI_COMM_WORLD);
	if (!ok) {
		cli_fail("out of memory");
	} else if (rank) {
		for (int i = 0; ok && i < n0; i++) {
			int k = 0;
			while (k < n && strcmp(mine[k].name, theirs[i].name))
				k++;
			if (k == n)
				ok = !cli_fail("%s: no table '%s', which rank 0 has: every rank needs the "
				               "same database", path, theirs[i].name);
			else if (mine[k].crc32 != theirs[i].crc32 || mine[k].states != theirs[i].states)
				ok = !cli_fail("%s: table '%s' differs from rank 0's (CRC-32 %08x, rank 0's "
				               "%08x): every rank needs the same database", path,
				               mine[k].name, mine[k].crc32, theirs[i].crc32);
		}
		if (ok && n != n0)
			ok = !cli_fail("%s: %d tables where rank 0 has %d: every rank needs the same "
			               "database", path, n, n0);
	}
	if (rank)
		free(theirs);
	free(mine);
	return ok;
}

/* A digest of the tables, for checkpoints: the same on every rank. */
static uint32_t digest(const sdb_db *db)
{
	int n;
	table_id *t = tables_of(db, &n);
	const uint32_t d = t ? (uint32_t)crc32(0, (const Bytef *)t, (uInt)(sizeof *t * (size_t)n)) : 0;
	free(t);
	return d;
}

/* Rank 0's --checkpoint folder: writable, and this run's alone (a second
 * run on it would overwrite the first's restart points); and the user's key
 * that seals the files, made on first need. 1, or 0 said. */
static int checkpoint_usable(const char *dir)
{
	if (access(dir, W_OK | X_OK))
		return !cli_fail("--checkpoint '%s': not a folder this process can write", dir);
	if (durable_lock_dir(dir))
		return !cli_fail("--checkpoint '%s': %s", dir, errno == EWOULDBLOCK
		                 ? "in use by another run" : strerror(errno));
	char why[4400];
	int created;
	if (ckpt_key_load(&key, &created, why, sizeof why))
		return !cli_fail("--checkpoint: %s", why);
	if (created)
		cli_note("made %s, this user's key that seals search checkpoints (a checkpoint is "
		         "resumed only with the key that sealed it)", key.path);
	return 1;
}

static int opened(sdb_db *db, const lookup_mpi_run *run)
{
	const char *path = db ? sdb_db_path(db) : "";
	int ok = db != NULL && (rank || !run->checkpoint || checkpoint_usable(run->checkpoint)), all;
	MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	if (!all) {
		if (ok && rank == 0)
			cli_fail("a rank could not open the database (its message says why)");
		return 1;
	}
	ok = same_tables(db, path);
	MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	if (!all) {
		if (rank == 0)
			cli_fail("%s: the ranks' databases differ (their messages say how)", path);
		return 1;
	}
	cpu_set_t cpus;
	if (!sched_getaffinity(0, sizeof cpus, &cpus) && CPU_COUNT(&cpus) < run->threads)
		cli_note("warning: --threads %d, but this rank may run on %d core%s (mpirun binds "
		         "ranks to cores: give --bind-to none, or --map-by slot:PE=%d)", run->threads,
		         CPU_COUNT(&cpus), CPU_COUNT(&cpus) == 1 ? "" : "s", run->threads);
	const uint32_t tables = digest(db);
	if (rank) {
		const int rc = ranks_serve(db, run, rank);
		dismissed = 1;
		return rc;
	}
	ranks_lead(db, run, nranks, tables, run->checkpoint ? &key : NULL);
	return -1;
}

static void finished(void)
{
	ranks_dismiss();
	dismissed = 1;
}

/* mpirun ends the other ranks when one dies: each says so, and why it
 * stops without an answer. */
static void ended(int sig)
{
	(void)sig;
	if (dismissed)   /* (rank 0 exited 1 for a failed query: mpirun ends the rest) */
		_exit(0);
	char msg[160];
	const int n = snprintf(msg, sizeof msg, "%s: ended by mpirun: another rank of the run "
	                       "failed or was killed; no answer is given for the search under "
	                       "way\n", cli_prog);
	if (n > 0 && write(STDERR_FILENO, msg, (size_t)n) < 0)
		_exit(1);
	_exit(1);
}

int main(int argc, char **argv)
{
	int level;
	MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &level);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	cli_prog = "slidedb-lookup-mpi";
	if (level < MPI_THREAD_SERIALIZED) {
		if (rank == 0)
			cli_fail("this MPI gives threads no access (MPI_THREAD_SERIALIZED is needed)");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	signal(SIGTERM, ended);
	cli_rank_mute(rank);   /* usage errors, --help and answers come from rank 0 */
	static const lookup_mpi d = { parsed, opened, finished, ranks_resumed };
	const int rc = lookup_main(argc, argv, &d);
	fflush(stdout);
	fflush(stderr);
	MPI_Finalize();
	return rc;
}
