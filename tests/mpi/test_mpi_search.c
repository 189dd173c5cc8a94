/* SPDX-License-Identifier: MIT */
/* slidedb-lookup-mpi under mpirun -n 1, 2 and 3 (--oversubscribe): the
 * answers are slidedb-lookup's byte for byte on 4x4 and 5x5 boards with
 * every iteration spread over the ranks (SLIDEDB_SPLIT_NODES=0), every
 * sequence replayed; a rank that dies ends every rank with no answer; a
 * search stopped with --checkpoint and run again, on another number of
 * ranks, gives the same answer from where it was, and says it resumed; a
 * damaged checkpoint, one crafted (its CRCs recomputed) or sealed with
 * another key, a key file others may read, and ranks with other tables are
 * refused; FIFOs are not waited on. Every test seals with a key of its own
 * in the test folder (SLIDEDB_KEY_FILE, XDG_STATE_HOME), never the user's. */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "kit/boards.h"
#include "kit/files.h"
#include "kit/run.h"
#include "kit/text.h"

static char db4[512], db5[512], key_file[512];

/* A 5x5 board 60 moves out that takes the 5-tile set some 190,000 nodes:
 * enough subtrees for every rank, a fraction of a second. */
static const char *const far5 = "1 8 11 2 4 6 22 7 0 12 16 10 9 14 3 17 13 19 15 24 21 23 20 5 18\n";

/* mpirun -n RANKS slidedb-lookup-mpi ARGS < input; the exit code (124: it
 * went on for 5 minutes, as a wait on a file would). */
static int mpi_lookup(int ranks, const char *input, char **out, char **err, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int mpi_lookup(int ranks, const char *input, char **out, char **err, const char *fmt, ...)
{
	char args[2048], cmd[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(args, sizeof args, fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof cmd, "timeout 300 mpirun -n %d --oversubscribe --bind-to none "
	         "--mca odls_base_sigkill_timeout 5 %s %s", ranks,
	         SLIDEDB_LOOKUP_MPI,
	         args);
	return tk_run(cmd, input, out, err);
}

/* Once: a 4x4 set of 5-tile groups and a 5x5 one (seconds to build); the
 * test's own key file, and its own state folder for the default one. */
static void build_sets(void)
{
	tk_tmp_path(key_file, sizeof key_file, "mpi-search.key");
	setenv("SLIDEDB_KEY_FILE", key_file, 1);
	char state[512];
	tk_tmp_path(state, sizeof state, "mpi-search-state");
	setenv("XDG_STATE_HOME", state, 1);
	tk_tmp_path(db4, sizeof db4, "mpi-search-4x4.lmdb");
	tk_tmp_path(db5, sizeof db5, "mpi-search-5x5.lmdb");
	struct stat st;
	if (stat(db4, &st))
		cr_assert_eq(ck_gen(db4, NULL, NULL, "pdb 4x4 --partition 5-5-5 -q"), 0);
	if (stat(db5, &st))
		cr_assert_eq(ck_gen(db5, NULL, NULL, "pdb 5x5 --partition 1,2,3,6,7/4,5,8,9,10/"
		                    "11,12,16,17,21/13,14,15,19,20/18,22,23,24 -q"), 0);
}

/* Query lines: boards a random walk of `steps` moves from the goal. */
static char *walks(int w, int h, int count, int steps, unsigned seed)
{
	ck_sbuf q = { 0 };
	sdb_board goal;
	sdb_board_goal(&goal, w, h, w * h - 1);
	for (int i = 0; i < count; i++) {
		sdb_board b;
		tk_random_walk(&b, &goal, steps, &seed);
		char text[256];
		cr_assert_geq(sdb_board_format(text, sizeof text, &b), 0);
		ck_sb_printf(&q, "%s\n", text);
	}
	return q.s;
}

/* Every "distance D ... moves M" line of out takes its query's board to the
 * goal in D moves of metric (in MTM, M in its notation: "r3ul2"). */
static void replay_all(const char *queries, const char *out, int w, int h, int metric)
{
	sdb_board goal;
	sdb_board_goal(&goal, w, h, w * h - 1);
	const char *q = queries, *o = out;
	int n = 0;
	while (*q && *o) {
		const char *qe = strchr(q, '\n'), *oe = strchr(o, '\n');
		cr_assert(qe && oe);
		char line[512], answer[1024];
		snprintf(line, sizeof line, "%.*s", (int)(qe - q), q);
		snprintf(answer, sizeof answer, "%.*s", (int)(oe - o), o);
		sdb_board start;
		cr_assert_eq(sdb_board_parse(&start, line, w, h), 0, "%s", line);
		int d;
		cr_assert_eq(sscanf(answer, "distance %d", &d), 1, "%s", answer);
		const char *m = strstr(answer, "moves ");
		cr_assert(m, "%s", answer);
		char text[300], moves[300];
		cr_assert_eq(sscanf(m + 6, "%299s", text), 1);
		cr_assert_geq(sdb_moves_parse(moves, sizeof moves, text), 0, "%s", text);
		cr_assert_eq(sdb_moves_length(moves, metric), d, "%s", answer);
		cr_assert(tk_replay(&start, moves, &goal), "%s does not solve %s", text, line);
		n++;
		q = qe + 1;
		o = oe + 1;
	}
	cr_assert(!*q && !*o, "one answer line per query");
	cr_assert_gt(n, 0);
}

/* The answers of slidedb-lookup and of 1, 2 and 3 ranks, for the options. */
static void same_answers(const char *db, const char *queries, const char *opts, int w, int h)
{
	char *want, *err;
	int rc = ck_lookup(db, queries, &want, &err, "%s", opts);
	cr_assert_eq(rc, 0, "slidedb-lookup %s: %s", opts, err);
	free(err);
	const int metric = strstr(opts, "-m mtm") ? SDB_METRIC_MTM : SDB_METRIC_STM;
	replay_all(queries, want, w, h, metric);
	for (int ranks = 1; ranks <= 3; ranks++) {
		char *got;
		rc = mpi_lookup(ranks, queries, &got, &err, "--db '%s' -t 2 %s", db, opts);
		cr_assert_eq(rc, 0, "%d ranks, %s: %s", ranks, opts, err);
		cr_assert_str_eq(got, want, "%d ranks, %s: not slidedb-lookup's answers", ranks, opts);
		replay_all(queries, got, w, h, metric);
		free(got);
		free(err);
	}
	free(want);
}

Test(mpi_search, same_answers_on_4x4_and_5x5, .timeout = 900, .init = build_sets)
{
	setenv("SLIDEDB_SPLIT_NODES", "0", 1);   /* every iteration over the ranks */
	char *q4 = walks(4, 4, 8, 140, 7), *q5 = walks(5, 5, 3, 70, 11);
	const size_t len = strlen(q5);
	q5 = realloc(q5, len + strlen(far5) + 1);
	strcpy(q5 + len, far5);
	same_answers(db4, q4, "", 4, 4);
	same_answers(db4, q4, "--all-best --solutions", 4, 4);
	same_answers(db5, q5, "", 5, 5);
	/* checks search the distance of a sequence's end */
	char *want, *got, *err;
	const char *checks = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15 ; l\n"
	                     "5 1 2 3 0 6 7 4 9 10 11 8 13 14 15 12 ; rrrdd\n";
	cr_assert_eq(ck_lookup(db4, checks, &want, NULL, "check"), 0);
	cr_assert_eq(mpi_lookup(2, checks, &got, &err, "--db '%s' check", db4), 0, "%s", err);
	cr_assert_str_eq(got, want);
	free(want);
	free(got);
	free(err);
	free(q4);
	free(q5);
	unsetenv("SLIDEDB_SPLIT_NODES");
}

static int last_bound(const char *path, int first);

/* A multi-tile search over the ranks: each builds the same tables, and the
 * answers are slidedb-lookup's. */
Test(mpi_search, same_answers_in_the_multi_tile_metric, .timeout = 900, .init = build_sets)
{
	setenv("SLIDEDB_SPLIT_NODES", "0", 1);
	char *q4 = walks(4, 4, 3, 36, 5);
	same_answers(db4, q4, "-m mtm", 4, 4);
	/* and the iterations were spread: the stats list them */
	char stats[512], *out, *err;
	tk_tmp_path(stats, sizeof stats, "mpi-search-mtm.stats");
	unlink(stats);
	setenv("SLIDEDB_MPI_STATS", stats, 1);
	cr_assert_eq(mpi_lookup(2, q4, &out, &err, "--db '%s' -m mtm", db4), 0, "%s", err);
	unsetenv("SLIDEDB_MPI_STATS");
	cr_assert_gt(last_bound(stats, 0), 0, "no iteration over the ranks");
	free(out);
	free(err);
	free(q4);
	unsetenv("SLIDEDB_SPLIT_NODES");
}

/* A rank that dies mid-search: the run fails, the other ranks say they were
 * ended, and no answer is written for the search under way. mpirun forwards
 * what a rank it ends writes last on a best-effort basis: under load it
 * once dropped rank 0's line while rank 2's came (CI), so the test asks
 * that at least one other rank's line comes, and never more than there are
 * ranks; ranks get 5 s after SIGTERM (not mpirun's 1) to write it. */
Test(mpi_search, a_dying_rank_ends_every_rank, .timeout = 300, .init = build_sets)
{
	setenv("SLIDEDB_SPLIT_NODES", "0", 1);
	const char *q = far5;
	for (int ranks = 2; ranks <= 3; ranks++) {
		setenv("SLIDEDB_MPI_FAIL", "1:2", 1);
		char *out, *err;
		const int rc = mpi_lookup(ranks, q, &out, &err, "--db '%s'", db5);
		unsetenv("SLIDEDB_MPI_FAIL");
		cr_assert_neq(rc, 0, "%d ranks: the run must fail", ranks);
		cr_assert(strstr(err, "(rank 1): dying after subtree 2"), "%s", err);
		int ended = 0;
		for (const char *p = err; (p = strstr(p, "ended by mpirun")); p++)
			ended++;
		cr_assert(ended >= 1 && ended <= ranks - 1, "the other ranks say so: %s", err);
		cr_assert(!strstr(out, "distance"), "no answer: %s", out);
		free(out);
		free(err);
	}
	unsetenv("SLIDEDB_SPLIT_NODES");
}

/* The only file in dir (its path in buf), or fail. */
static void only_file(const char *dir, char *buf, size_t cap)
{
	char cmd[600], *out;
	snprintf(cmd, sizeof cmd, "ls '%s'", dir);
	cr_assert_eq(tk_run(cmd, NULL, &out, NULL), 0);
	cr_assert_eq(tk_lines(out), 1, "one checkpoint: %s", out);
	out[strcspn(out, "\n")] = '\0';
	snprintf(buf, cap, "%s/%s", dir, out);
	free(out);
}

/* The bound of the last (or, first, the first) iteration a stats file of
 * SLIDEDB_MPI_STATS lists. */
static int last_bound(const char *path, int first)
{
	char *text = ck_read_file(path, NULL);
	int bound = -1, it, b;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
		if (line[0] != '#' && sscanf(line, "%d %d", &it, &b) == 2 && (bound < 0 || !first))
			bound = b;
	free(text);
	return bound;
}

/* The nodes of far5's whole search (slidedb-lookup's). */
static long far5_nodes(void)
{
	char *json;
	cr_assert_eq(ck_lookup(db5, far5, &json, NULL, "--json"), 0);
	const char *at = strstr(json, "\"nodes\":");
	cr_assert(at);
	const long nodes = atol(at + 8);
	free(json);
	cr_assert_gt(nodes, 20000, "a search long enough to stop: %ld nodes", nodes);
	return nodes;
}

/* A fresh folder (dir) and in it the checkpoint (file) of far5's search
 * stopped on 2 ranks at half its nodes (SLIDEDB_MPI_STATS: stats, or
 * NULL). */
static void stopped_search(char *dir, size_t dcap, const char *name, char *file, size_t fcap,
                           const char *stats)
{
	tk_tmp_path(dir, dcap, name);
	char cmd[1200], *out, *err;
	snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir '%s'", dir, dir);
	cr_assert_eq(tk_run(cmd, NULL, NULL, NULL), 0);
	if (stats)
		setenv("SLIDEDB_MPI_STATS", stats, 1);
	const int rc = mpi_lookup(2, far5, &out, &err, "--db '%s' --max-nodes %ld --checkpoint '%s' "
	                          "--checkpoint-every 0", db5, far5_nodes() / 2, dir);
	unsetenv("SLIDEDB_MPI_STATS");
	cr_assert_eq(rc, 1, "stopped at the limit: %s", err);
	cr_assert(strstr(err, "limit"), "%s", err);
	free(out);
	free(err);
	only_file(dir, file, fcap);
}

/* Stopped at a node limit with --checkpoint, then run again: the same
 * answer as slidedb-lookup's, from where it was; the file goes once the
 * answer is found. A damaged file is refused, named, and left alone. */
Test(mpi_search, a_stopped_search_resumes, .timeout = 600, .init = build_sets)
{
	setenv("SLIDEDB_SPLIT_NODES", "0", 1);
	char dir[512], file[1024], cmd[1200];
	const char *q = far5;
	char *out, *err;
	char stats1[512], stats2[512];
	tk_tmp_path(stats1, sizeof stats1, "stats-stopped");
	tk_tmp_path(stats2, sizeof stats2, "stats-resumed");
	stopped_search(dir, sizeof dir, "mpi-search-ckpt", file, sizeof file, stats1);
	/* damaged: refused with its name, kept as it was */
	size_t size;
	char *saved = ck_read_file(file, &size);
	char *bad = malloc(size);
	memcpy(bad, saved, size);
	bad[size / 2] ^= 0x10;
	ck_write_file(file, bad, size);
	int rc = mpi_lookup(2, q, &out, &err, "--db '%s' --checkpoint '%s'", db5, dir);
	cr_assert_eq(rc, 1);
	cr_assert(strstr(err, file) && strstr(err, "damaged"), "%s", err);
	size_t after_size;
	char *after = ck_read_file(file, &after_size);
	cr_assert(after_size == size && !memcmp(after, bad, size), "the file is left alone");
	free(after);
	free(out);
	free(err);
	/* whole again: resumed (on 3 ranks: the cut keeps its depth), the same
	 * answer */
	ck_write_file(file, saved, size);
	setenv("SLIDEDB_MPI_STATS", stats2, 1);
	rc = mpi_lookup(3, q, &out, &err, "--db '%s' --checkpoint '%s'", db5, dir);
	unsetenv("SLIDEDB_MPI_STATS");
	cr_assert_eq(rc, 0, "%s", err);
	/* and says what the answer rests on */
	char note[2400];
	snprintf(note, sizeof note, "resumed from checkpoint '%s': bounds below %d and ", file,
	         last_bound(stats1, 0));
	cr_assert(strstr(err, note) && strstr(err, key_file), "%s", err);
	/* it began at the bound where the first run stopped, not below */
	const int stopped_at = last_bound(stats1, 0), resumed_at = last_bound(stats2, 1);
	cr_assert_gt(stopped_at, 0);
	cr_assert_eq(resumed_at, stopped_at, "resumed at bound %d, stopped at %d", resumed_at,
	             stopped_at);
	char *plain;
	cr_assert_eq(ck_lookup(db5, q, &plain, NULL, "%s", ""), 0);
	cr_assert_str_eq(out, plain);
	replay_all(q, out, 5, 5, SDB_METRIC_STM);
	snprintf(cmd, sizeof cmd, "test -z \"$(ls '%s')\"", dir);
	cr_assert_eq(tk_run(cmd, NULL, NULL, NULL), 0, "the checkpoint goes with the answer");
	/* one run's folder at a time */
	char both[2400];
	snprintf(both, sizeof both, "(flock '%s' sleep 4 & sleep 1; mpirun -n 2 --oversubscribe %s "
	         "--db '%s' --checkpoint '%s' '%.*s'; rc=$?; wait; exit $rc)", dir,
	         SLIDEDB_LOOKUP_MPI, db5, dir, (int)strlen(far5) - 1, far5);
	char *busy;
	cr_assert_eq(tk_run(both, NULL, NULL, &busy), 1, "%s", busy);
	cr_assert(strstr(busy, "in use by another run"), "%s", busy);
	free(busy);
	free(plain);
	free(out);
	free(err);
	free(saved);
	free(bad);
	unsetenv("SLIDEDB_SPLIT_NODES");
}

/* The tester's attack on a checkpoint (#35): its bound set to `bound` with
 * no cut (every bound below claimed searched), or (bound < 0) every subtree
 * at its bound marked done, and both CRC-32s recomputed. The header ends
 * with bound, depth, n, next bound (int32), a spare uint32, the nodes
 * (uint64), the seal (32 bytes), and the CRCs of the bitmap and of the
 * header (with itself 0); its size is at byte 12. */
static void craft(const char *file, int bound)
{
	size_t size;
	uint8_t *d = (uint8_t *)ck_read_file(file, &size);
	uint32_t h;
	memcpy(&h, d + 12, sizeof h);
	cr_assert(h >= 100 && h <= size, "header of %u bytes in %zu", h, size);
	uint8_t *fields = d + h - 4 - 4 - 32 - 8 - 4 - 16;
	int32_t f[4];
	memcpy(f, fields, sizeof f);
	if (bound < 0) {
		cr_assert_gt(f[2], 0, "a cut to mark");
		memset(d + h, 0xff, size - h);
	} else {
		f[0] = bound;
		f[1] = f[2] = 0;
		size = h;
	}
	f[3] = INT32_MAX;
	memcpy(fields, f, sizeof f);
	uint32_t crc = (uint32_t)crc32(0, d + h, (uInt)(size - h));
	memcpy(d + h - 8, &crc, sizeof crc);
	memset(d + h - 4, 0, 4);
	crc = (uint32_t)crc32(0, d, h);
	memcpy(d + h - 4, &crc, sizeof crc);
	ck_write_file(file, d, size);
	free(d);
}

/* far5 resumed from dir must be refused: exit 1, why (with the file's name)
 * on stderr, no answer. */
static void refused(const char *dir, const char *why)
{
	char *out, *err;
	cr_assert_eq(mpi_lookup(2, far5, &out, &err, "--db '%s' --checkpoint '%s'", db5, dir), 1,
	             "%s", err);
	cr_assert(strstr(err, why), "not '%s': %s", why, err);
	cr_assert(!strstr(out, "distance"), "no answer: %s", out);
	free(out);
	free(err);
}

/* A checkpoint crafted as the tester did (its bound raised past the answer,
 * or every subtree at its bound marked done, the CRCs recomputed: a
 * distance of 62 where it is 60, exit 0), or sealed with another key, is
 * refused with its name; the genuine file resumes to slidedb-lookup's
 * answer, and --json says what it rests on ("resumed"). */
Test(mpi_search, crafted_or_foreign_checkpoints_are_refused, .timeout = 600,
     .init = build_sets)
{
	setenv("SLIDEDB_SPLIT_NODES", "0", 1);
	char dir[512], file[1024], stats[512], why[2400];
	tk_tmp_path(stats, sizeof stats, "stats-crafted");
	stopped_search(dir, sizeof dir, "mpi-search-crafted", file, sizeof file, stats);
	size_t size;
	char *genuine = ck_read_file(file, &size);
	char *plain;
	cr_assert_eq(ck_lookup(db5, far5, &plain, NULL, "--json"), 0);
	int distance = -1;
	cr_assert_eq(sscanf(strstr(plain, "\"distance\":"), "\"distance\":%d", &distance), 1);
	snprintf(why, sizeof why, "checkpoint '%s': not sealed by this user's key %s: written "
	         "elsewhere or edited", file, key_file);
	craft(file, distance + 2);
	refused(dir, why);
	ck_write_file(file, genuine, size);
	craft(file, -1);
	refused(dir, why);
	/* sealed with another user's key: this user's does not open it */
	char other[512];
	tk_tmp_path(other, sizeof other, "other.key");
	ck_write_file(file, genuine, size);
	setenv("SLIDEDB_KEY_FILE", other, 1);
	snprintf(why, sizeof why, "checkpoint '%s': not sealed by this user's key %s: written "
	         "elsewhere or edited", file, other);
	refused(dir, why);
	setenv("SLIDEDB_KEY_FILE", key_file, 1);
	size_t after_size;
	char *after = ck_read_file(file, &after_size);
	cr_assert(after_size == size && !memcmp(after, genuine, size), "a refused file is left alone");
	free(after);
	/* the genuine file: the same answer, and what it rests on */
	char *out, *err;
	cr_assert_eq(mpi_lookup(2, far5, &out, &err, "--db '%s' --json --checkpoint '%s'", db5, dir),
	             0, "%s", err);
	char head[4096], want[3000];
	snprintf(head, sizeof head, "%.*s", (int)(strstr(plain, ",\"nodes\":") - plain), plain);
	cr_assert(strncmp(out, head, strlen(head)) == 0, "%s\nis not\n%s", out, plain);
	snprintf(want, sizeof want, ",\"resumed\":{\"checkpoint\":\"%s\",\"key_file\":\"%s\","
	         "\"bound\":%d,\"subtrees_done\":", file, key_file, last_bound(stats, 0));
	const char *resumed = strstr(out, want);
	cr_assert(resumed, "no %s in %s", want, out);
	int done;
	long long nodes;
	cr_assert_eq(sscanf(resumed + strlen(want), "%d,\"nodes\":%lld}}", &done, &nodes), 2, "%s",
	             out);
	cr_assert(done > 0 && nodes > 0, "%s", out);
	cr_assert(!strstr(err, "resumed from"), "JSON says it in the answer: %s", err);
	free(out);
	free(err);
	free(plain);
	free(genuine);
	unsetenv("SLIDEDB_SPLIT_NODES");
}

/* The key file: made where XDG_STATE_HOME says (else HOME), mode 0600 in a
 * folder of 0700, and said; one others may read or write, a FIFO, or a link
 * is refused, naming it, before any work. */
Test(mpi_search, the_key_file_is_this_users_alone, .timeout = 600, .init = build_sets)
{
	static const char *const near5 = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 0 24\n";
	char dir[512], state[512], home[512], made[1200], why[1400], fifo[512], link[512], *out, *err;
	tk_tmp_path(dir, sizeof dir, "mpi-search-key");
	cr_assert_eq(mkdir(dir, 0755), 0);
	snprintf(state, sizeof state, "%s", getenv("XDG_STATE_HOME"));
	tk_tmp_path(home, sizeof home, "mpi-search-home");
	const char *old_home = getenv("HOME");
	char *saved_home = old_home ? strdup(old_home) : NULL;
	unsetenv("SLIDEDB_KEY_FILE");
	for (int by_home = 0; by_home < 2; by_home++) {
		if (by_home) {
			unsetenv("XDG_STATE_HOME");
			setenv("HOME", home, 1);
			snprintf(made, sizeof made, "%s/.local/state/slidedb/checkpoint.key", home);
		} else {
			snprintf(made, sizeof made, "%s/slidedb/checkpoint.key", state);
		}
		const int rc = mpi_lookup(1, near5, &out, &err, "--db '%s' --checkpoint '%s'", db5, dir);
		if (saved_home)
			setenv("HOME", saved_home, 1);
		setenv("XDG_STATE_HOME", state, 1);
		cr_assert_eq(rc, 0, "%s", err);
		cr_assert(strstr(err, made), "its making is said: %s", err);
		struct stat st;
		cr_assert_eq(stat(made, &st), 0, "%s", made);
		cr_assert(S_ISREG(st.st_mode) && (st.st_mode & 0777) == 0600 && st.st_size == 32);
		*strrchr(made, '/') = '\0';
		cr_assert_eq(stat(made, &st), 0, "%s", made);
		cr_assert(S_ISDIR(st.st_mode) && (st.st_mode & 0777) == 0700, "%s: %o", made,
		          st.st_mode & 0777);
		free(out);
		free(err);
	}
	free(saved_home);
	/* readable by others: refused, as ssh refuses such a key */
	setenv("SLIDEDB_KEY_FILE", key_file, 1);
	ck_write_file(key_file, "0123456789abcdef0123456789abcdef", 32);
	cr_assert_eq(chmod(key_file, 0644), 0);
	snprintf(why, sizeof why, "--checkpoint: %s: readable or writable by others (mode 0644)",
	         key_file);
	refused(dir, why);
	/* a FIFO (no wait), a link (never followed) */
	cr_assert_eq(chmod(key_file, 0600), 0);
	tk_tmp_path(fifo, sizeof fifo, "key.fifo");
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	setenv("SLIDEDB_KEY_FILE", fifo, 1);
	snprintf(why, sizeof why, "--checkpoint: %s: not a regular file (a FIFO)", fifo);
	refused(dir, why);
	tk_tmp_path(link, sizeof link, "key.link");
	cr_assert_eq(symlink(key_file, link), 0);
	setenv("SLIDEDB_KEY_FILE", link, 1);
	snprintf(why, sizeof why, "--checkpoint: %s: not a regular file (a symbolic link)", link);
	refused(dir, why);
	setenv("SLIDEDB_KEY_FILE", key_file, 1);
	unlink(fifo);
	unlink(link);
}

/* A FIFO where the search's checkpoint or SLIDEDB_MPI_STATS's file should
 * be (each made the run wait for a writer or a reader for ever): the
 * checkpoint is refused at once, named, exit 1, no answer; the statistics
 * file is refused with a warning naming it, and the search answers. */
Test(mpi_search, fifos_are_not_waited_on, .timeout = 600, .init = build_sets)
{
	setenv("SLIDEDB_SPLIT_NODES", "0", 1);
	char dir[512], file[1024], fifo[512], want[1200], *out, *err;
	stopped_search(dir, sizeof dir, "mpi-search-fifo", file, sizeof file, NULL);
	cr_assert_eq(unlink(file), 0);
	cr_assert_eq(mkfifo(file, 0600), 0);
	cr_assert_eq(mpi_lookup(2, far5, &out, &err, "--db '%s' --checkpoint '%s'", db5, dir), 1,
	             "%s", err);
	snprintf(want, sizeof want, "checkpoint '%s': not a regular file (a FIFO)", file);
	cr_assert(strstr(err, want), "%s", err);
	cr_assert(strstr(out, "error: ") == out && !strstr(out, "distance"), "no answer: %s", out);
	free(out);
	free(err);
	tk_tmp_path(fifo, sizeof fifo, "stats.fifo");
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	setenv("SLIDEDB_MPI_STATS", fifo, 1);
	cr_assert_eq(mpi_lookup(2, far5, &out, &err, "--db '%s'", db5), 0, "%s", err);
	unsetenv("SLIDEDB_MPI_STATS");
	snprintf(want, sizeof want, "warning: SLIDEDB_MPI_STATS: %s: not a regular file (a FIFO)", fifo);
	cr_assert(strstr(err, want), "%s", err);
	replay_all(far5, out, 5, 5, SDB_METRIC_STM);
	free(out);
	free(err);
	unlink(fifo);
	unlink(file);
	unsetenv("SLIDEDB_SPLIT_NODES");
}

/* Every rank needs rank 0's tables: one with other tables (mpirun's
 * programs, each with its own --db) stops the run before any work. */
Test(mpi_search, ranks_with_other_tables_are_refused, .timeout = 300, .init = build_sets)
{
	char cmd[2400], *out, *err;
	snprintf(cmd, sizeof cmd, "mpirun -n 1 --oversubscribe %s --db '%s' : -n 1 %s --db '%s'",
	         SLIDEDB_LOOKUP_MPI, db5, SLIDEDB_LOOKUP_MPI, db4);
	const int rc = tk_run(cmd, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 0 24\n",
	                      &out, &err);
	cr_assert_eq(rc, 1, "%s", err);
	cr_assert(strstr(err, "(rank 1)") && strstr(err, "rank 0"), "%s", err);
	cr_assert(strstr(err, "databases differ"), "%s", err);
	cr_assert(!strstr(out, "distance"), "%s", out);
	free(out);
	free(err);
}

/* slidedb-lookup-mpi answers and checks; the rest is slidedb-lookup's. */
Test(mpi_search, usage)
{
	char *out, *err;
	cr_assert_eq(mpi_lookup(2, NULL, NULL, &err, "random --distance 3"), 2);
	cr_assert(strstr(err, "slidedb-lookup's"), "%s", err);
	free(err);
	cr_assert_eq(mpi_lookup(1, NULL, &out, NULL, "--help"), 0);
	cr_assert(strstr(out, "--checkpoint DIR") && strstr(out, "mpirun") && !strstr(out, "random"),
	          "%s", out);
	free(out);
	cr_assert_eq(ck_lookup(NULL, NULL, NULL, &err, "--checkpoint /tmp 1 2 3 4 5 6 7 8 0"), 2);
	free(err);
	cr_assert_eq(ck_lookup(NULL, NULL, &out, NULL, "--help"), 0);
	cr_assert(!strstr(out, "--checkpoint"), "slidedb-lookup's help: %s", out);
	free(out);
	char *man = ck_read_file(SLIDEDB_SOURCE_DIR "/doc/slidedb-lookup-mpi.1", NULL);
	cr_assert(strstr(man, "\\-\\-checkpoint") && strstr(man, "SLIDEDB_MPI_FAIL") &&
	          strstr(man, "SLIDEDB_KEY_FILE"));
	free(man);
}
