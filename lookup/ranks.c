/* SPDX-License-Identifier: MIT */
/* One search over MPI ranks: slidedb-lookup-mpi's distribution.
 *
 * Rank 0 answers the queries as slidedb-lookup does; every iteration of a
 * search that the library would split (slidedb_engine.h, "Searches split
 * over processes") comes here. Rank 0 sends the search once (its boards
 * and sets) and then, per iteration, the bound and the cut's depth; every
 * rank cuts its own copy the same way, so a subtree travels as a number.
 * Subtrees are handed out in order from rank 0's counter: its own threads
 * take one at a time, another rank one per thread, asking for the next
 * before its queue is empty. A rank reports what it searched with each request:
 * nodes (for the limits and the progress line), the subtrees finished (for
 * --checkpoint), the smallest f it cut off, and at once any subtree that
 * reached the goal. Rank 0 then tells every rank to abandon the subtrees
 * after it; those before it are searched to the end, so the answer is the
 * first subtree in order that holds one: the single thread's answer.
 *
 * Ranks poll for messages between short sleeps rather than block in
 * MPI_Recv: Open MPI's blocking calls spin, which would take a core from
 * the search. Only the thread that runs the hook (rank 0, one search at a
 * time) or the main thread (the others) calls MPI: MPI_THREAD_SERIALIZED.
 *
 * A rank that dies ends the whole run (mpirun aborts it; lookup_mpi_main.c has
 * every rank say so): no answer is written from a partial search. With
 * --checkpoint, rank 0 keeps the iteration's bound and its finished
 * subtrees in a file; the same search run again skips what it holds. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "lookup/ranks.h"
#include "lookup/search_ckpt.h"
#include "slidedb_engine.h"

enum {
	TAG_SEARCH = 1, TAG_ITER, TAG_GRANT, TAG_ABANDON, TAG_STOP, TAG_EXIT, TAG_REPORT, TAG_FAIL,
	SUBTREES_PER_THREAD = 256,
	SPLIT_MIN = 1 << 16,        /* nodes of an iteration, per thread of the job, before
	                               the next is spread (as the library splits over threads) */
	MAX_FINISHED = 4096,        /* subtrees a report names */
	/* a report's kind */
	WANT = 1, FOUND_ONE = 2, DONE = 4,
};

/* What the messages carry: plain bytes, the same program on every rank. */
typedef struct msg_search {
	int32_t id;
	sdb_board start, goal;
	char sets[SDB_MAX_SETS * SDB_NAME_MAX];
} msg_search;

typedef struct msg_iter {
	int32_t id, iter, bound, depth, n;
} msg_iter;

typedef struct msg_grant {
	int32_t iter, first, count;   /* count 0: none left */
} msg_grant;

typedef struct msg_subtree {
	int32_t iter, subtree;        /* TAG_ABANDON: after it; TAG_STOP: unused */
} msg_subtree;

typedef struct msg_report {
	int32_t iter, kind, next_bound, found_subtree, found_length, nfinished;
	uint64_t nodes;               /* since the last report */
	/* nfinished subtree numbers (int32), then found_length moves: only
	 * those bytes are sent */
	uint8_t body[MAX_FINISHED * 4 + SDB_MAX_MOVES];
} msg_report;

typedef struct msg_fail {
	int32_t iter;
	char why[508];
} msg_fail;

static struct {
	sdb_db *db;
	const lookup_mpi_run *run;
	int rank, nranks, threads;
	uint32_t tables;
	const ckpt_key *key;          /* rank 0, with --checkpoint: what seals the files */
	pthread_mutex_t lock;         /* rank 0: one distributed iteration at a time */
	msg_search sent;              /* the search the ranks hold */
	int have_sent;
	int32_t iter;
	uint64_t split_min;
	int fail_after;               /* SLIDEDB_MPI_FAIL: this rank dies after so many */
	atomic_int subtrees;
	uint64_t bytes, messages;     /* rank 0: sent and received this iteration */
	FILE *stats;                  /* SLIDEDB_MPI_STATS */
} g = { .lock = PTHREAD_MUTEX_INITIALIZER, .fail_after = -1 };

static void nap(long us)
{
	struct timespec ts = { us / 1000000, us % 1000000 * 1000 };
	nanosleep(&ts, NULL);
}

static double seconds_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void send_to(int rank, int tag, const void *msg, size_t bytes)
{
	g.bytes += bytes;
	g.messages++;
	MPI_Send((void *)msg, (int)bytes, MPI_BYTE, rank, tag, MPI_COMM_WORLD);
}

static void send_all(int tag, const void *msg, size_t bytes)
{
	for (int r = 1; r < g.nranks; r++)
		send_to(r, tag, msg, bytes);
}

/* A message waiting from `from` (MPI_ANY_SOURCE): 1 with its status. */
static int waiting(int from, MPI_Status *st)
{
	int flag = 0;
	MPI_Iprobe(from, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, st);
	return flag;
}

static void receive(const MPI_Status *st, void *buf, size_t cap)
{
	MPI_Status got;
	MPI_Recv(buf, (int)cap, MPI_BYTE, st->MPI_SOURCE, st->MPI_TAG, MPI_COMM_WORLD, &got);
	int bytes = 0;
	MPI_Get_count(&got, MPI_BYTE, &bytes);
	g.bytes += (uint64_t)bytes;
	g.messages++;
}

/* Tests: SLIDEDB_MPI_FAIL=R:K makes rank R die after its K-th subtree, as
 * a crashed process would (no goodbye to the others), with status 1. */
static void fail_init(void)
{
	const char *spec = getenv("SLIDEDB_MPI_FAIL");
	int r, k;
	if (spec && sscanf(spec, "%d:%d", &r, &k) == 2 && r == g.rank && k >= 0)
		g.fail_after = k;
}

static void count_subtree(void)
{
	if (g.fail_after >= 0 && atomic_fetch_add(&g.subtrees, 1) + 1 == g.fail_after) {
		fprintf(stderr, "%s: dying after subtree %d (SLIDEDB_MPI_FAIL)\n", cli_prog,
		        g.fail_after);
		fflush(stderr);
		_exit(1);
	}
}

/* Nodes an iteration must take before the next is spread over the ranks:
 * SPLIT_MIN per thread of the job (each gets a few hundred subtrees, so a
 * smaller iteration would cost more in cuts and messages than it takes),
 * or SLIDEDB_SPLIT_NODES (tests spread every iteration of small searches
 * with 0). */
static uint64_t split_min(void)
{
	const char *env = getenv("SLIDEDB_SPLIT_NODES");
	char *end;
	const unsigned long long v = env ? strtoull(env, &end, 10) : 0;
	return env && *env && !*end ? v : (uint64_t)SPLIT_MIN * (uint64_t)(g.threads * g.nranks);
}

/* --- Rank 0. */

/* What rank 0 knows of an iteration under way. */
typedef struct lead {
	sdb_split *sp;
	int n;
	sdb_split_result best;        /* the first subtree found anywhere */
	int next_bound;               /* the smallest f the other ranks cut off */
	int active;                   /* ranks still searching */
	int stopped;                  /* STOP sent */
	char error[256];              /* a rank's failure */
	/* --checkpoint */
	char path[4200];
	search_id id;
	search_ckpt ck;               /* what was loaded */
	int ckpt_next;                /* a resumed iteration's next bound so far */
	double saved_at;
} lead;

/* What the searches of the query under way on this thread (rank 0) took
 * from checkpoints: the file each last saved (a file it loads that is not
 * that one was written by another run, or another query's search), and the
 * first such file a search resumed from, for ranks_resumed(). */
typedef struct taken {
	char saved[4200];             /* the path of the last file saved, or "" */
	search_ckpt saved_as;         /* its fields (done: NULL) */
	int resumed;                  /* from is filled */
	char from[4200];
	int bound, subtrees_done;
	uint64_t nodes;
} taken;
static _Thread_local taken here;

/* The search's own file, as it saved it last? */
static int saved_here(const char *path, const search_ckpt *c)
{
	const search_ckpt *s = &here.saved_as;
	return !strcmp(here.saved, path) && s->bound == c->bound && s->depth == c->depth &&
	       s->n == c->n && s->next_bound == c->next_bound && s->nodes == c->nodes;
}

/* A file loaded for l's search: note it when another run wrote it. */
static void note_resumed(const lead *l)
{
	const search_ckpt *c = &l->ck;
	if (here.resumed || saved_here(l->path, c))
		return;
	here.resumed = 1;
	snprintf(here.from, sizeof here.from, "%s", l->path);
	here.bound = c->bound;
	here.nodes = c->nodes;
	here.subtrees_done = 0;
	for (int i = 0; i < c->n; i++)
		here.subtrees_done += c->done[i / 8] >> (i % 8) & 1;
}

int ranks_resumed(sdb_fields_resumed *r)
{
	const int resumed = here.resumed;
	if (resumed)
		*r = (sdb_fields_resumed){ here.from, g.key->path, here.bound, here.subtrees_done,
		                           here.nodes };
	here.resumed = 0;
	here.saved[0] = '\0';
	return resumed;
}

/* A rank asks for a subtree per thread (and asks again before its queue
 * is empty): in the iteration that finds the goal only the subtrees before
 * the goal's count, and runs of many would leave a rank alone on the early
 * ones while the others search subtrees the goal makes useless. */
static int chunk(void)
{
	return g.threads;
}

/* A rank found the goal in subtree i: the first so far? Then every rank
 * abandons the subtrees after it. */
static void found_at(lead *l, int i, const uint8_t *path, int length)
{
	if (l->best.found && l->best.subtree <= i)
		return;
	l->best.found = 1;
	l->best.subtree = i;
	l->best.length = length;
	memcpy(l->best.path, path, (size_t)length);
	sdb_split_abandon(l->sp, i);
	const msg_subtree m = { g.iter, i };
	send_all(TAG_ABANDON, &m, sizeof m);
}

static void stop_all(lead *l)
{
	if (l->stopped)
		return;
	l->stopped = 1;
	sdb_split_stop(l->sp);
	const msg_subtree m = { g.iter, 0 };
	send_all(TAG_STOP, &m, sizeof m);
}

static void on_report(lead *l, int from, const msg_report *m, int bytes)
{
	const int head = (int)offsetof(msg_report, body);
	if (m->iter != g.iter || bytes < head || m->nfinished < 0 || m->nfinished > MAX_FINISHED ||
	    m->found_length < 0 || m->found_length > SDB_MAX_MOVES ||
	    bytes != head + m->nfinished * 4 + m->found_length)
		return;   /* (an earlier iteration's) */
	sdb_split_add_nodes(l->sp, m->nodes);
	if (m->next_bound < l->next_bound)
		l->next_bound = m->next_bound;
	for (int k = 0; k < m->nfinished; k++) {
		int32_t i;
		memcpy(&i, m->body + 4 * k, sizeof i);
		sdb_split_mark_done(l->sp, i);
	}
	if ((m->kind & FOUND_ONE) && m->found_subtree >= 0 && m->found_subtree < l->n)
		found_at(l, m->found_subtree, m->body + 4 * m->nfinished, m->found_length);
	if (m->kind & WANT) {
		int first = 0, count = 0;
		if (!l->stopped)
			count = sdb_split_claim(l->sp, chunk(), &first);
		const msg_grant gr = { g.iter, first, count };
		send_to(from, TAG_GRANT, &gr, sizeof gr);
	}
	if (m->kind & DONE)
		l->active--;
}

static int take0(void *ctx)
{
	lead *l = ctx;
	return sdb_split_take(l->sp);
}

static void done0(void *ctx, int subtree)
{
	(void)ctx;
	(void)subtree;
	count_subtree();
}

/* The cut's state to the checkpoint file; failing costs only the restart
 * point (said once). */
static void save(lead *l, int bound, int depth, int n, int next_bound, int with_done)
{
	search_ckpt c = { bound, depth, n, next_bound, sdb_split_nodes(l->sp), NULL };
	if (with_done && n > 0) {
		c.done = calloc(((size_t)n + 7) / 8, 1);
		if (!c.done)
			return;
		for (int i = 0; i < n; i++)
			if (sdb_split_is_done(l->sp, i))
				c.done[i / 8] |= (uint8_t)(1u << (i % 8));
	}
	const int err = search_ckpt_save(l->path, g.run->checkpoint, &l->id, g.key, &c);
	static int warned;
	if (err && !warned++)
		cli_note("warning: checkpoint '%s' could not be written: %s (the search goes on)",
		         l->path, strerror(err));
	free(c.done);
	if (!err) {   /* (else the file there is still the one saved before) */
		snprintf(here.saved, sizeof here.saved, "%s", l->path);
		here.saved_as = c;
		here.saved_as.done = NULL;
	}
	l->saved_at = seconds_now();
}

static int lowest(int a, int b)
{
	return a < b ? a : b;
}

/* The restart point of sp's search in --checkpoint's folder: 1 (l->ck),
 * 0 (none), or an error with res->error. */
static int load(lead *l, sdb_split *sp, sdb_split_result *res)
{
	sdb_split_boards(sp, &l->id.start, &l->id.goal);
	snprintf(l->id.sets, sizeof l->id.sets, "%s", sdb_split_heuristic(sp));
	l->id.tables = g.tables;
	if (search_ckpt_path(l->path, sizeof l->path, g.run->checkpoint, &l->id)) {
		snprintf(res->error, sizeof res->error, "--checkpoint '%.200s': too long a path",
		         g.run->checkpoint);
		return SDB_EINVAL;
	}
	const int got = search_ckpt_load(l->path, &l->id, g.key, &l->ck, res->error,
	                                 sizeof res->error);
	if (got == 1)
		note_resumed(l);
	return got < 0 ? SDB_ECORRUPT : got;
}

/* The ranks hold sp's search (sent once per search). */
static void share_search(sdb_split *sp)
{
	msg_search m;
	memset(&m, 0, sizeof m);
	sdb_split_boards(sp, &m.start, &m.goal);
	snprintf(m.sets, sizeof m.sets, "%s", sdb_split_heuristic(sp));
	m.id = g.sent.id;
	if (g.have_sent && !memcmp(&m, &g.sent, sizeof m))
		return;
	m.id = g.sent.id + 1;
	g.sent = m;
	g.have_sent = 1;
	send_all(TAG_SEARCH, &m, sizeof m);
}

/* The iteration at bound over every rank; l holds a restart point loaded
 * (l->ck.n >= 0 when one was). */
/* What the checkpoint an earlier run left says of bound: 1 when the bound
 * was searched to the end (res->next_bound set), else 0, with *depth its
 * cut's depth when the checkpoint had cut it. The earlier runs' nodes are
 * counted once: every file this run writes has them. */
static int resumed(lead *l, sdb_split *sp, int bound, int *depth, sdb_split_result *res)
{
	if (l->ck.bound <= 0)
		return 0;
	const uint64_t now = sdb_split_nodes(sp);
	if (l->ck.nodes > now)
		sdb_split_add_nodes(sp, l->ck.nodes - now);
	if (l->ck.bound > bound) {   /* this bound was searched to the end */
		res->next_bound = l->ck.bound;
		return 1;
	}
	if (l->ck.bound == bound && l->ck.n > 0) {   /* (n 0: the bound not yet cut) */
		*depth = l->ck.depth;
		l->ckpt_next = l->ck.next_bound;
	}
	return 0;
}

/* Take what the other ranks have sent (into m): their reports, and their
 * failures in this iteration, which stop it. Whether anything came. */
static int take_messages(lead *l, msg_report *m)
{
	MPI_Status st;
	int any = 0;
	while (waiting(MPI_ANY_SOURCE, &st)) {
		any = 1;
		int bytes = 0;
		MPI_Get_count(&st, MPI_BYTE, &bytes);
		if (st.MPI_TAG == TAG_REPORT && bytes <= (int)sizeof *m) {
			receive(&st, m, sizeof *m);
			on_report(l, st.MPI_SOURCE, m, bytes);
		} else if (st.MPI_TAG == TAG_FAIL && bytes == (int)sizeof(msg_fail)) {
			msg_fail f;
			receive(&st, &f, sizeof f);
			f.why[sizeof f.why - 1] = '\0';
			if (f.iter == g.iter) {
				if (!l->error[0])
					snprintf(l->error, sizeof l->error, "rank %d: %.200s", st.MPI_SOURCE,
					         f.why);
				l->active--;
				stop_all(l);
			}
		} else {
			char junk[64];
			receive(&st, junk, sizeof junk);   /* (nothing else comes to rank 0) */
		}
	}
	return any;
}

static int distribute(lead *l, sdb_split *sp, int bound, sdb_split_result *res)
{
	int depth = 0;
	const char *dir = g.run->checkpoint;
	if (resumed(l, sp, bound, &depth, res))
		return 0;
	share_search(sp);
	const int want = SUBTREES_PER_THREAD * g.threads * g.nranks;
	l->n = sdb_split_cut(sp, bound, &depth, want);
	if (l->n < 0) {
		snprintf(res->error, sizeof res->error, "%s", sdb_error_detail());
		return l->n;
	}
	if (l->ck.bound == bound && l->ck.n > 0) {
		if (l->ck.n != l->n || l->ck.depth != depth) {
			snprintf(res->error, sizeof res->error, "checkpoint '%.120s': its cut has %d subtrees, "
			         "this search's %d: not this search's", l->path, l->ck.n, l->n);
			return SDB_ECORRUPT;
		}
		for (int i = 0; i < l->n; i++)
			if (l->ck.done[i / 8] >> (i % 8) & 1)
				sdb_split_mark_done(sp, i);
	}
	const double t0 = seconds_now();
	const uint64_t nodes0 = sdb_split_nodes(sp);
	g.bytes = g.messages = 0;
	const msg_iter it = { g.sent.id, ++g.iter, bound, depth, l->n };
	send_all(TAG_ITER, &it, sizeof it);
	l->active = g.nranks - 1;
	if (dir)
		save(l, bound, depth, l->n, lowest(l->ckpt_next, sdb_split_next_bound(sp)), 1);
	int err = sdb_split_start(sp, g.threads, take0, done0, l);
	if (err) {
		stop_all(l);
		snprintf(res->error, sizeof res->error, "out of memory");
	}
	msg_report *m = malloc(sizeof *m);
	if (!m) {
		stop_all(l);
		err = SDB_ENOMEM;
		snprintf(res->error, sizeof res->error, "out of memory");
	}
	sdb_split_result local;
	long wait = 50;
	for (;;) {
		const int any = m && take_messages(l, m);
		sdb_split_found(sp, &local);
		if (local.found)
			found_at(l, local.subtree, local.path, local.length);
		if (!l->stopped && sdb_split_poll(sp))
			stop_all(l);
		if (dir && seconds_now() - l->saved_at >= g.run->checkpoint_every && !l->best.found)
			save(l, bound, depth, l->n, lowest(lowest(l->ckpt_next, l->next_bound),
			                                   sdb_split_next_bound(sp)), 1);
		if (l->active <= 0 && (err || sdb_split_running(sp) == 0))
			break;
		wait = any ? 50 : wait < 400 ? wait * 2 : 400;
		nap(wait);
	}
	free(m);
	if (!err)
		sdb_split_finish(sp, &local);
	else
		memset(&local, 0, sizeof local);
	if (local.found)
		found_at(l, local.subtree, local.path, local.length);
	*res = l->best;
	res->next_bound = lowest(lowest(local.next_bound, l->next_bound), l->ckpt_next);
	if (g.stats) {
		fprintf(g.stats, "%d %d %d %d %.3f %llu %llu %llu\n", g.iter, bound, depth, l->n,
		        seconds_now() - t0, (unsigned long long)(sdb_split_nodes(sp) - nodes0),
		        (unsigned long long)g.messages, (unsigned long long)g.bytes);
		fflush(g.stats);
	}
	res->stopped = local.stopped || l->stopped;
	if (l->error[0]) {
		snprintf(res->error, sizeof res->error, "%s", l->error);
		return SDB_EIO;
	}
	if (err)
		return err;
	if (dir && res->found) {
		unlink(l->path);
		here.saved[0] = '\0';
	} else if (dir && res->stopped) {
		save(l, bound, depth, l->n, res->next_bound, 1);
	} else if (dir) {   /* this bound is done: a restart begins at the next */
		save(l, res->next_bound < INT_MAX ? res->next_bound : bound + 2, 0, 0, INT_MAX, 0);
	}
	return 0;
}

static int iteration(void *ctx, sdb_split *sp, int bound, uint64_t last, sdb_split_result *res)
{
	(void)ctx;
	pthread_mutex_lock(&g.lock);
	if (last < g.split_min && !g.run->checkpoint) {
		/* a moment's work: rank 0's threads. The ranks learn the search
		 * now, to check its sets' CRC-32s while rank 0 starts alone. */
		share_search(sp);
		pthread_mutex_unlock(&g.lock);
		return 1;
	}
	lead l;
	memset(&l, 0, sizeof l);
	l.sp = sp;
	l.next_bound = INT_MAX;
	l.ckpt_next = INT_MAX;
	int rc = g.run->checkpoint ? load(&l, sp, res) : 0;
	if (rc >= 0 && last < g.split_min && !rc)   /* (one with a restart point goes at once) */
		share_search(sp);
	if (rc >= 0)
		rc = last < g.split_min && !rc ? 1 : distribute(&l, sp, bound, res);
	free(l.ck.done);
	pthread_mutex_unlock(&g.lock);
	return rc;
}

static const sdb_split_hooks hooks = { iteration, NULL };

void ranks_lead(sdb_db *db, const lookup_mpi_run *run, int nranks, uint32_t tables,
                const ckpt_key *key)
{
	g.key = key;
	g.db = db;
	g.run = run;
	g.rank = 0;
	g.nranks = nranks;
	g.threads = run->threads > 0 ? run->threads : 1;
	g.tables = tables;
	g.split_min = split_min();
	fail_init();
	const char *stats = getenv("SLIDEDB_MPI_STATS");
	const int fd = stats && *stats ? sdb_file_open(stats, O_WRONLY | O_APPEND | O_CREAT, 0644) : -1;
	if (fd >= 0 && !(g.stats = fdopen(fd, "a")))
		close(fd);
	if (stats && *stats && !g.stats)
		cli_note("warning: SLIDEDB_MPI_STATS: %s",
		         fd < 0 ? sdb_error_detail() : "out of memory");
	if (g.stats)
		fprintf(g.stats, "# iteration bound depth subtrees seconds nodes messages bytes "
		        "(%d ranks of %d threads)\n", nranks, g.threads);
	sdb_split_install(&hooks);
}

void ranks_dismiss(void)
{
	sdb_split_install(NULL);
	const int none = 0;
	send_all(TAG_EXIT, &none, sizeof none);
	if (g.stats)
		fclose(g.stats);
}

/* --- The other ranks. */

/* Subtrees granted and not yet taken, shared with the search's threads. */
typedef struct queue {
	pthread_mutex_t lock;
	pthread_cond_t more;
	int first, count;             /* the next run (grants arrive one at a time) */
	int next_first, next_count;   /* the one after, asked ahead */
	int none_left;
	int32_t finished[MAX_FINISHED];   /* subtrees finished since the last report */
	int nfinished;
	msg_report *r;                /* the report's room */
} queue;

static int take_q(void *ctx)
{
	queue *q = ctx;
	pthread_mutex_lock(&q->lock);
	while (!q->count && !q->next_count && !q->none_left)
		pthread_cond_wait(&q->more, &q->lock);
	int i = -1;
	if (!q->count && q->next_count) {
		q->first = q->next_first;
		q->count = q->next_count;
		q->next_count = 0;
	}
	if (q->count) {
		i = q->first++;
		q->count--;
	}
	pthread_mutex_unlock(&q->lock);
	return i;
}

static void done_q(void *ctx, int subtree)
{
	queue *q = ctx;
	pthread_mutex_lock(&q->lock);
	if (q->nfinished < MAX_FINISHED)   /* (past that, a restart searches it again) */
		q->finished[q->nfinished++] = subtree;
	pthread_mutex_unlock(&q->lock);
	count_subtree();
}

/* A report to rank 0: what the threads did since the last. */
static void report(queue *q, sdb_split *sp, int kind, uint64_t *reported, int *found_sent)
{
	msg_report *r = q->r;
	pthread_mutex_lock(&q->lock);
	r->iter = g.iter;
	r->kind = kind;
	r->next_bound = sdb_split_next_bound(sp);
	const uint64_t nodes = sdb_split_nodes(sp);
	r->nodes = nodes - *reported;
	*reported = nodes;
	sdb_split_result f;
	sdb_split_found(sp, &f);
	r->found_subtree = -1;
	r->found_length = 0;
	r->nfinished = q->nfinished;
	memcpy(r->body, q->finished, (size_t)q->nfinished * 4);
	if (f.found && f.subtree < *found_sent) {
		r->kind |= FOUND_ONE;
		r->found_subtree = f.subtree;
		r->found_length = f.length;
		memcpy(r->body + 4 * q->nfinished, f.path, (size_t)f.length);
		*found_sent = f.subtree;
	}
	send_to(0, TAG_REPORT, r, offsetof(msg_report, body) + (size_t)q->nfinished * 4 +
	        (size_t)r->found_length);
	q->nfinished = 0;
	pthread_mutex_unlock(&q->lock);
}

static void fail_iteration(int32_t iter, const char *why)
{
	msg_fail f;
	memset(&f, 0, sizeof f);
	f.iter = iter;
	snprintf(f.why, sizeof f.why, "%s", why);
	send_to(0, TAG_FAIL, &f, sizeof f);
}

static void serve_iteration(sdb_split *sp, const msg_iter *it)
{
	g.iter = it->iter;
	int depth = it->depth;
	const int n = sdb_split_cut(sp, it->bound, &depth, 0);
	if (n != it->n) {
		char why[200];
		if (n < 0)
			snprintf(why, sizeof why, "%.190s", sdb_error_detail());
		else
			snprintf(why, sizeof why, "cut the iteration into %d subtrees where rank 0 cut %d: "
			         "the databases differ", n, it->n);
		fail_iteration(it->iter, why);
		return;
	}
	queue q = { .lock = PTHREAD_MUTEX_INITIALIZER, .more = PTHREAD_COND_INITIALIZER };
	q.r = calloc(1, sizeof *q.r);
	if (!q.r || sdb_split_start(sp, g.threads, take_q, done_q, &q)) {
		fail_iteration(it->iter, "out of memory");
		free(q.r);
		return;
	}
	uint64_t reported = sdb_split_nodes(sp);   /* the cut's are rank 0's to count */
	int found_sent = INT_MAX, asked = 0;
	long wait = 50;
	for (;;) {
		MPI_Status st;
		int any = 0;
		while (waiting(0, &st)) {
			any = 1;
			if (st.MPI_TAG == TAG_GRANT) {
				msg_grant gr;
				receive(&st, &gr, sizeof gr);
				if (gr.iter != it->iter)
					continue;
				pthread_mutex_lock(&q.lock);
				if (gr.count <= 0)
					q.none_left = 1;
				else if (!q.count)
					q.first = gr.first, q.count = gr.count;
				else
					q.next_first = gr.first, q.next_count = gr.count;
				asked = 0;
				pthread_cond_broadcast(&q.more);
				pthread_mutex_unlock(&q.lock);
			} else if (st.MPI_TAG == TAG_ABANDON || st.MPI_TAG == TAG_STOP) {
				msg_subtree m;
				receive(&st, &m, sizeof m);
				if (m.iter != it->iter)
					continue;
				if (st.MPI_TAG == TAG_ABANDON) {
					sdb_split_abandon(sp, m.subtree);
				} else {
					sdb_split_stop(sp);
					pthread_mutex_lock(&q.lock);
					q.none_left = 1;
					pthread_cond_broadcast(&q.more);
					pthread_mutex_unlock(&q.lock);
				}
			} else {
				break;   /* the next iteration's: after this one */
			}
		}
		sdb_split_result f;
		sdb_split_found(sp, &f);
		if (f.found && f.subtree < found_sent)
			report(&q, sp, 0, &reported, &found_sent);
		pthread_mutex_lock(&q.lock);
		const int short_of_work = !q.none_left && !q.next_count && q.count < g.threads;
		const int full = q.nfinished >= MAX_FINISHED / 2;
		pthread_mutex_unlock(&q.lock);
		if (sdb_split_running(sp) == 0)
			break;
		if ((short_of_work && !asked) || full) {
			report(&q, sp, short_of_work && !asked ? WANT : 0, &reported, &found_sent);
			asked |= short_of_work;
		}
		wait = any ? 50 : wait < 400 ? wait * 2 : 400;
		nap(wait);
	}
	sdb_split_result res;
	sdb_split_finish(sp, &res);
	report(&q, sp, DONE, &reported, &found_sent);
	free(q.r);
	pthread_mutex_destroy(&q.lock);
	pthread_cond_destroy(&q.more);
}

int ranks_serve(sdb_db *db, const lookup_mpi_run *run, int rank)
{
	g.db = db;
	g.run = run;
	g.rank = rank;
	g.threads = run->threads > 0 ? run->threads : 1;
	fail_init();
	sdb_split *sp = NULL;
	char why[400] = "no search was sent";
	long wait = 50;
	for (;;) {
		MPI_Status st;
		if (!waiting(0, &st)) {
			nap(wait);
			wait = wait < 2000 ? wait * 2 : 2000;   /* idle: rank 0 reads or answers */
			continue;
		}
		wait = 50;
		if (st.MPI_TAG == TAG_SEARCH) {
			msg_search m;
			receive(&st, &m, sizeof m);
			m.sets[sizeof m.sets - 1] = '\0';
			sdb_split_close(sp);
			sp = NULL;
			if (sdb_split_open(&sp, db, m.sets, &m.start, &m.goal))
				snprintf(why, sizeof why, "%s", sdb_error_detail());
		} else if (st.MPI_TAG == TAG_ITER) {
			msg_iter it;
			receive(&st, &it, sizeof it);
			if (sp)
				serve_iteration(sp, &it);
			else
				fail_iteration(it.iter, why);
		} else if (st.MPI_TAG == TAG_EXIT) {
			int none;
			receive(&st, &none, sizeof none);
			break;
		} else {
			char junk[sizeof(msg_report)];
			receive(&st, junk, sizeof junk);   /* an iteration's that is over */
		}
	}
	sdb_split_close(sp);
	return 0;
}
