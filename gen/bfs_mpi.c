/* SPDX-License-Identifier: MIT */
/* The BFS engine on MPI: the same tables as bfs.c, from several processes.
 *
 * Rank r owns the contiguous slice [lo_r, hi_r) of the index space (slices
 * of whole multiples of 4096 entries) in memory of its own. Level k is
 * turned into k+1 by pushing: each rank expands the entries of its slice at
 * distance k, marks the neighbours it owns at once, and batches the others'
 * by owner (about BATCH a round, so memory stays bounded); a round ends
 * with one MPI_Alltoall of the counts and one MPI_Alltoallv of the indices,
 * which their owners then mark. The level's new entries are summed with
 * MPI_Allreduce, so every rank knows the counts and when to stop.
 *
 * Marks are those of bfs.c (claim, reach_with_move, claim2): an entry's
 * value does not depend on who marks it first, so the bytes are the same
 * for any number of ranks. Full tables of bytes keep the smallest best move
 * over the parents, as a pull would pick it.
 *
 * Two-bit tables know a distance only mod 3, so a rank also marks, as the
 * OpenMP engine does, the groups of 8 entries of its slice that hold an
 * entry reached at the last level (front) and at this one (reached): pass k
 * expands the entries holding k mod 3 in marked groups, a few of them older
 * than k (they reach nothing new). 2.25 bits per entry of the slice in all.
 * Pulls would need other ranks' entries, so this engine only pushes. */
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "gen/bfs_entry.h"
#include "gen/bfs_mpi.h"
#include "gen/bigmem.h"

enum { ALIGN = 4096, MAX_OUT = 4 * SDB_MAX_PATTERN, MOVE_SHIFT = 60 };
/* Indices queued for other ranks before a round of exchange: 32 MiB. */
enum { BATCH = 1 << 22 };

typedef struct slice {
	uint64_t lo, hi, per;   /* this rank's entries; the slice length of every rank */
	uint8_t *t;             /* its entries: bytes, or two bits each */
	uint64_t bytes;         /* of t */
	uint64_t *front, *reached;   /* two-bit tables: groups of 8 entries (above) */
	uint64_t words;         /* of each */
	int two_bit, best_moves;
	uint8_t distmask;
} slice;

typedef struct outbox {
	uint64_t **q;      /* per destination rank */
	int *n, *cap;
	int queued;        /* in all */
	uint64_t *in;      /* received */
	size_t in_cap;
	int *scount, *rcount, *sdispl, *rdispl;
	uint64_t *flat;
	uint64_t sent;     /* bytes sent this level */
} outbox;

static int nranks(void)
{
	int n;
	MPI_Comm_size(MPI_COMM_WORLD, &n);
	return n;
}

static int my_rank(void)
{
	int r;
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	return r;
}

/* The statistics file of SLIDEDB_MPI_STATS (rank 0): "LEVEL RANK BYTES"
 * per level and rank, then "peak RANK KiB" per rank. */
static FILE *stats_file(void)
{
	static FILE *f;
	static int tried;
	if (!tried) {
		tried = 1;
		const char *path = getenv("SLIDEDB_MPI_STATS");
		const int fd = path && *path && my_rank() == 0
		               ? sdb_file_open(path, O_WRONLY | O_APPEND | O_CREAT, 0644) : -1;
		if (fd >= 0 && !(f = fdopen(fd, "a")))
			close(fd);
		if (path && *path && my_rank() == 0 && !f)
			cli_note("warning: SLIDEDB_MPI_STATS: %s",
			         fd < 0 ? sdb_error_detail() : "out of memory");
	}
	return f;
}

/* Fault injection for the tests: SLIDEDB_MPI_FAIL=R:K makes rank R die at
 * the start of level K, as a killed process would. */
static void maybe_die(int k)
{
	const char *spec = getenv("SLIDEDB_MPI_FAIL");
	int r, level;
	if (spec && sscanf(spec, "%d:%d", &r, &level) == 2 && r == my_rank() && level == k) {
		fprintf(stderr, "%s: rank %d: dying at level %d (SLIDEDB_MPI_FAIL)\n", cli_prog, r, k);
		_exit(3);
	}
}

static int owner(const slice *s, uint64_t i)
{
	return (int)(i / s->per);
}

/* Mark entry i of this slice as reached at k+1 from a neighbour by move m;
 * 1 if it was new. */
static int mark(slice *s, uint64_t i, int k, int m)
{
	const uint64_t j = i - s->lo;
	if (s->two_bit) {   /* claim2 may only be given an unreached entry */
		if (get2(s->t, j) != UNSEEN2 || !claim2(s->t, j, (unsigned)((k + 1) % 3)))
			return 0;
		s->reached[j >> 9] |= 1ull << ((j >> 3) & 63);
		return 1;
	}
	if (s->best_moves)
		return reach_with_move(&s->t[j], k, m);
	return claim(&s->t[j], (uint8_t)(k + 1));
}

static int queue(outbox *ob, int to, uint64_t v)
{
	if (ob->n[to] == ob->cap[to]) {
		int cap = ob->cap[to] ? 2 * ob->cap[to] : 1024;
		uint64_t *q = realloc(ob->q[to], (size_t)cap * sizeof *q);
		if (!q)
			return SDB_ENOMEM;
		ob->q[to] = q;
		ob->cap[to] = cap;
	}
	ob->q[to][ob->n[to]++] = v;
	ob->queued++;
	return SDB_OK;
}

/* Expand entry i (at distance k): mark what this rank owns, queue the rest. */
static int expand(slice *s, outbox *ob, const bfs_space *sp, bfs_cursor *cur, uint64_t i, int k,
                  uint64_t *added)
{
	uint64_t nbr[MAX_OUT];
	const int count = sp->neighbors(sp->ctx, cur, i, nbr);
	for (int j = 0; j < count; j++) {
		if (nbr[j] == UINT64_MAX)
			continue;
		const int m = s->best_moves ? bfs_slot_move(sp, j) : 0;   /* the slot's direction */
		if (nbr[j] >= s->lo && nbr[j] < s->hi)   /* ours: no division */
			*added += (uint64_t)mark(s, nbr[j], k, m);
		else if (queue(ob, owner(s, nbr[j]), nbr[j] | (uint64_t)m << MOVE_SHIFT))
			return SDB_ENOMEM;
	}
	return SDB_OK;
}

/* One round: every rank sends what it queued and marks what it receives. */
static int exchange(slice *s, outbox *ob, int k, uint64_t *added)
{
	const int n = nranks();
	size_t total = 0;
	for (int r = 0; r < n; r++) {
		ob->scount[r] = ob->n[r];
		ob->sdispl[r] = (int)total;
		total += (size_t)ob->n[r];
	}
	MPI_Alltoall(ob->scount, 1, MPI_INT, ob->rcount, 1, MPI_INT, MPI_COMM_WORLD);
	size_t in = 0;
	for (int r = 0; r < n; r++) {
		ob->rdispl[r] = (int)in;
		in += (size_t)ob->rcount[r];
	}
	uint64_t *flat = realloc(ob->flat, (total ? total : 1) * sizeof *flat);
	if (in > ob->in_cap) {
		uint64_t *bigger = realloc(ob->in, in * sizeof *bigger);
		if (bigger) {
			ob->in = bigger;
			ob->in_cap = in;
		}
	}
	if (!flat || in > ob->in_cap)
		return SDB_ENOMEM;
	ob->flat = flat;
	for (int r = 0; r < n; r++)
		if (ob->n[r])
			memcpy(flat + ob->sdispl[r], ob->q[r], (size_t)ob->n[r] * sizeof *flat);
	MPI_Alltoallv(flat, ob->scount, ob->sdispl, MPI_UINT64_T, ob->in, ob->rcount, ob->rdispl,
	              MPI_UINT64_T, MPI_COMM_WORLD);
	ob->sent += total * sizeof *flat;
	for (size_t j = 0; j < in; j++) {
		const uint64_t v = ob->in[j];
		*added += (uint64_t)mark(s, v & ((1ull << MOVE_SHIFT) - 1), k, (int)(v >> MOVE_SHIFT));
	}
	for (int r = 0; r < n; r++)
		ob->n[r] = 0;
	ob->queued = 0;
	return SDB_OK;
}

/* The 8 bytes of the slice's table from byte b; past its end, entries read
 * as unreached. Only this rank's one thread writes its table. */
static uint64_t slice_word(const slice *s, uint64_t b)
{
	uint64_t x = ~0ull;
	if (s->bytes - b >= 8)
		memcpy(&x, s->t + b, 8);   /* one load */
	else
		memcpy(&x, s->t + b, s->bytes - b);
	return x;
}

/* The entries of the slice from j (a multiple of 32 for two bits, of 8 for
 * bytes) to be expanded in pass k: bit 2e (two bits) or 8e + 7 (bytes) set
 * for entry j + e. Two-bit tables expand only the marked groups. */
static uint64_t frontier_word(const slice *s, uint64_t j, int k)
{
	if (!s->two_bit)
		return match_bytes(slice_word(s, j), 0x0101010101010101ull * s->distmask, (unsigned)k);
	const unsigned groups = (unsigned)(s->front[j >> 9] >> ((j >> 3) & 63)) & 0xf;
	return groups ? entries_of(groups) & match2(slice_word(s, j >> 2), (unsigned)(k % 3)) : 0;
}

/* Pass k over this rank's slice, in rounds; the entries added at k+1. */
static int pass(slice *s, outbox *ob, const bfs_space *sp, int k, uint64_t *added)
{
	const uint64_t n = s->hi - s->lo;
	uint64_t j = 0;
	int err = SDB_OK;
	bfs_cursor cur;
	bfs_cursor_init(sp, &cur);
	const int per_word = s->two_bit ? 32 : 8, shift = s->two_bit ? 1 : 3;
	for (;;) {
		for (; j < n && ob->queued < BATCH && !err; j += (uint64_t)per_word) {
			if (s->two_bit && !(j & 511) && !s->front[j >> 9]) {   /* 512 entries at once */
				j += 512 - (uint64_t)per_word;
				continue;
			}
			for (uint64_t hits = frontier_word(s, j, k); hits && !err; hits &= hits - 1) {
				const uint64_t i = s->lo + j + (uint64_t)(__builtin_ctzll(hits) >> shift);
				err = expand(s, ob, sp, &cur, i, k, added);
			}
		}
		/* every rank must take part in every round: agree on failure too */
		int state[2] = { j < n, err != 0 }, any[2];
		MPI_Allreduce(state, any, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
		if (any[1])
			return err ? err : SDB_EIO;
		if ((err = exchange(s, ob, k, added)))
			return err;
		if (!any[0])
			return SDB_OK;
	}
}

static void outbox_free(outbox *ob)
{
	for (int r = 0; ob->q && r < nranks(); r++)
		free(ob->q[r]);
	free(ob->q);
	free(ob->n);
	free(ob->cap);
	free(ob->in);
	free(ob->scount);
	free(ob->rcount);
	free(ob->sdispl);
	free(ob->rdispl);
	free(ob->flat);
}

static int outbox_init(outbox *ob)
{
	const size_t n = (size_t)nranks();
	memset(ob, 0, sizeof *ob);
	ob->q = calloc(n, sizeof *ob->q);
	ob->n = calloc(n, sizeof(int));
	ob->cap = calloc(n, sizeof(int));
	ob->scount = calloc(n, sizeof(int));
	ob->rcount = calloc(n, sizeof(int));
	ob->sdispl = calloc(n, sizeof(int));
	ob->rdispl = calloc(n, sizeof(int));
	return ob->q && ob->n && ob->cap && ob->scount && ob->rcount && ob->sdispl && ob->rdispl
	       ? SDB_OK : SDB_ENOMEM;
}

/* The slice of the last search, kept for write_shard. */
static slice kept;

static void slice_free(slice *s)
{
	bigmem_free(s->t, s->bytes);
	bigmem_free(s->front, s->words * sizeof *s->front);
	bigmem_free(s->reached, s->words * sizeof *s->reached);
	memset(s, 0, sizeof *s);
}

static int slice_init(slice *s, const bfs_space *sp, int two_bit)
{
	memset(s, 0, sizeof *s);
	const uint64_t blocks = (sp->size + ALIGN - 1) / ALIGN;
	s->per = (blocks + (uint64_t)nranks() - 1) / (uint64_t)nranks() * ALIGN;
	s->lo = (uint64_t)my_rank() * s->per;
	s->lo = s->lo < sp->size ? s->lo : sp->size;
	s->hi = s->lo + s->per < sp->size ? s->lo + s->per : sp->size;
	s->two_bit = two_bit;
	s->best_moves = sp->best_moves;
	s->distmask = dist_mask(sp->best_moves);
	const uint64_t n = s->hi - s->lo, bytes = two_bit ? (n + 3) / 4 : n;
	s->bytes = bytes ? bytes : 1;
	s->t = bigmem_alloc(s->bytes);
	s->words = (n >> 9) + 1;
	if (two_bit) {
		s->front = bigmem_alloc(s->words * sizeof *s->front);
		s->reached = bigmem_alloc(s->words * sizeof *s->reached);
	}
	if (!s->t || (two_bit && (!s->front || !s->reached))) {
		bigmem_free(s->t, s->bytes);   /* the bounds stay, for the message */
		bigmem_free(s->front, s->words * sizeof *s->front);
		bigmem_free(s->reached, s->words * sizeof *s->reached);
		s->t = NULL;
		s->front = s->reached = NULL;
		return SDB_ENOMEM;
	}
	memset(s->t, UNSEEN, bytes);
	if (sp->start >= s->lo && sp->start < s->hi) {
		const uint64_t j = sp->start - s->lo;
		if (two_bit) {
			claim2(s->t, j, 0);
			s->front[j >> 9] |= 1ull << ((j >> 3) & 63);
		} else {
			s->t[j] = 0;
		}
	}
	return SDB_OK;
}

/* Rank 0 collects every slice into table, in pieces under MPI's int counts. */
static void gather(const slice *s, uint8_t *table)
{
	const uint64_t piece = (uint64_t)1 << 30;
	uint64_t total = 0;   /* the space's size: the last slice's end */
	MPI_Allreduce(&s->hi, &total, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
	for (int r = 0; r < nranks(); r++) {
		uint64_t lo = (uint64_t)r * s->per;   /* as slice_init */
		lo = lo < total ? lo : total;
		uint64_t hi = lo + s->per < total ? lo + s->per : total;
		const uint64_t at = s->two_bit ? lo / 4 : lo;
		const uint64_t bytes = s->two_bit ? (hi - lo + 3) / 4 : hi - lo;
		for (uint64_t done = 0; done < bytes; done += piece) {
			const int n = (int)(bytes - done < piece ? bytes - done : piece);
			if (r == 0 && my_rank() == 0)
				memcpy(table + at + done, s->t + done, (size_t)n);
			else if (my_rank() == 0)
				MPI_Recv(table + at + done, n, MPI_BYTE, r, 7, MPI_COMM_WORLD,
				         MPI_STATUS_IGNORE);
			else if (my_rank() == r)
				MPI_Send(s->t + done, n, MPI_BYTE, 0, 7, MPI_COMM_WORLD);
		}
	}
}

static int search(bfs_result *res, slice *s, const bfs_space *sp, bfs_progress_fn *progress,
                  void *ctx)
{
	outbox ob;
	int err = outbox_init(&ob);
	const int max_level = s->two_bit ? SDB_MAX_DISTANCE
	                      : s->best_moves ? SDB_DIST6_UNREACHED : UNSEEN;
	memset(res, 0, sizeof *res);
	res->counts[0] = res->reached = 1;
	for (int k = 0; !err; k++) {
		maybe_die(k);
		uint64_t added = 0, level = 0;
		ob.sent = 0;
		if ((err = pass(s, &ob, sp, k, &added)))
			break;
		MPI_Allreduce(&added, &level, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
		FILE *stats = stats_file();
		uint64_t *sent = my_rank() == 0 ? calloc((size_t)nranks(), sizeof *sent) : NULL;
		MPI_Gather(&ob.sent, 1, MPI_UINT64_T, sent, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
		for (int r = 0; stats && sent && r < nranks(); r++)
			fprintf(stats, "%d\t%d\t%llu\n", k, r, (unsigned long long)sent[r]);
		if (stats)   /* a level's figures as it ends: a long run can be watched, and cut */
			fflush(stats);
		free(sent);
		if (progress && my_rank() == 0)
			progress(ctx, k, res->reached + level);
		if (s->two_bit) {   /* this level's reached groups are the next pass's front */
			uint64_t *t = s->front;
			s->front = s->reached;
			s->reached = t;
			memset(s->reached, 0, s->words * sizeof *s->reached);
		}
		if (level == 0)
			break;
		if (k + 1 >= max_level || k + 1 >= SDB_MAX_DISTANCE) {
			err = SDB_ETOOBIG;
			break;
		}
		res->counts[k + 1] = level;
		res->max_distance = k + 1;
		res->reached += level;
	}
	outbox_free(&ob);
	/* and every rank's peak memory so far, for the benchmarks */
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	long peak = ru.ru_maxrss, *peaks = my_rank() == 0 ? calloc((size_t)nranks(), sizeof *peaks)
	                                                 : NULL;
	MPI_Gather(&peak, 1, MPI_LONG, peaks, 1, MPI_LONG, 0, MPI_COMM_WORLD);
	for (int r = 0; stats_file() && peaks && r < nranks(); r++)
		fprintf(stats_file(), "peak\t%d\t%ld\n", r, peaks[r]);
	free(peaks);
	if (stats_file())
		fflush(stats_file());
	return err;
}

int bfs_mpi_run(const gen_mpi *m, bfs_result *res, uint8_t *table, const bfs_space *sp,
                int two_bit, bfs_progress_fn *progress, void *ctx, char *why, size_t cap)
{
	slice_free(&kept);
	slice s;
	int err = slice_init(&s, sp, two_bit);
	/* a rank short of memory fails the run before any work */
	int any = err != 0, all;
	MPI_Allreduce(&any, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	if (all) {
		snprintf(why, cap, err ? "rank %d: out of memory for its slice of %llu entries"
		         : "another rank is out of memory for its slice", my_rank(),
		         (unsigned long long)(s.hi - s.lo));
		slice_free(&s);
		return SDB_ENOMEM;
	}
	err = search(res, &s, sp, progress, ctx);
	if (err && err != SDB_ETOOBIG)
		snprintf(why, cap, err == SDB_ENOMEM ? "rank %d: out of memory for its exchange buffers"
		         : "rank %d: another rank failed", my_rank());
	if (!err && !m->shards)
		gather(&s, table);
	if (!err && m->shards)
		kept = s;
	else
		slice_free(&s);
	return err;
}

/* This rank's shard, begun at its first table; the run's id (rank 0's
 * choice), so that shards of different runs are never joined. */
static sdb_shard *shard;
static uint64_t run_id;

int bfs_mpi_write_shard(const gen_mpi *m, const sdb_table_info *info)
{
	int err = SDB_OK;
	if (!shard) {
		char path[4096];
		snprintf(path, sizeof path, "%s/shard-%d.lmdb", m->shards, my_rank());
		run_id = (uint64_t)time(NULL) << 20 ^ (uint64_t)getpid() ^ (uint64_t)clock() << 40;
		MPI_Bcast(&run_id, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
		err = sdb_shard_create(&shard, path);
	}
	sdb_shard_info sh = { .table = *info, .rank = my_rank(), .nranks = nranks(),
		              .run = run_id, .lo = kept.lo, .hi = kept.hi };
	sh.table.format_version = SDB_FORMAT_VERSION;
	if (!err)
		err = sdb_shard_add(shard, &sh, kept.t);
	slice_free(&kept);
	return err;
}

int bfs_mpi_finish(const gen_mpi *m, int ok, char *why, size_t cap)
{
	(void)m;
	if (!shard)
		return SDB_OK;
	/* renamed into place only once every rank has written all of its own */
	int mine = ok, all;
	MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	sdb_shard *s = shard;
	shard = NULL;
	if (!all) {
		sdb_shard_abort(s);
		snprintf(why, cap, "another rank failed: no shard was written");
		return ok ? SDB_EIO : SDB_OK;
	}
	int err = sdb_shard_commit(s);
	if (err)
		snprintf(why, cap, "%s", sdb_error_detail());
	return err;
}
