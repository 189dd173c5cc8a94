/* SPDX-License-Identifier: MIT */
/* slidedb-lookup's answers: of the query the command line's words make, or
 * of every query on standard input (a batch), answered in order; with check,
 * the verdicts on move sequences (cmd_check.c). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/line_reader.h"
#include "cli/out.h"
#include "cli/splitter.h"
#include "lookup/lookup.h"

/* Lines a batch takes: after a batch that searched, SEARCH_BATCH (its answers
 * wait for the batch), else BATCH (fewer waits of the threads for one
 * another). */
enum { FLUSH_AT = 1 << 16, BATCH = 8192, SEARCH_BATCH = 1024, EXIT_INTERRUPTED = 130 };

/* Ctrl-C during a search stops it (answerer_interrupt), and the program says
 * what it had reached and exits 130; with no search under way (or a second
 * time), the signal ends the program as it always did. */
static answerer_interrupt interrupt;

static void on_sigint(int sig)
{
	if (atomic_load(&interrupt.searching) && !atomic_load(&interrupt.stop)) {
		atomic_store(&interrupt.stop, 1);
		return;
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void catch_sigint(answerer_opts *opts)
{
	struct sigaction sa;
	if (sigaction(SIGINT, NULL, &sa) || sa.sa_handler == SIG_IGN)
		return;   /* started ignoring it (nohup, a shell's background job): so it stays */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigint;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (!sigaction(SIGINT, &sa, NULL))
		opts->interrupt = &interrupt;
}

/* rc, or EXIT_INTERRUPTED with the summary said when Ctrl-C stopped a
 * search: its line, bound, nodes and seconds. */
static int after_interrupt(const answerer *ans, int rc)
{
	char what[256];
	if (!answerer_interrupted(ans, what, sizeof what))
		return rc;
	cli_note("interrupted: %s", what);
	return EXIT_INTERRUPTED;
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

/* A batch's lines, in order: a few gathered, many written from where they
 * were formatted (a long batch's pieces are not copied together). */
static void emit(void *ctx, out *lines)
{
	stream_out *so = ctx;
	if (lines->len < FLUSH_AT / 4) {
		out_mem(&so->buf, lines->buf, lines->len);
		return;
	}
	flush_before_wait(so);
	if (!so->failed && out_write_fd(lines, STDOUT_FILENO))
		so->failed = errno ? errno : EIO;
}

/* Queries from stdin, answered in order, in batches of the queries already
 * read: one per line, or one per grid (rows on lines of their own, up to a
 * blank line, a line of another width, or 2H rows with --size WxH).
 * Answers are written when 64 KiB are ready or before waiting for more
 * input, so an interactive caller gets each answer as soon as its query is
 * read. */
static int answer_stream(answerer *ans, const answerer_opts *opts)
{
	if (isatty(STDIN_FILENO))
		cli_note("reading queries from standard input, one per line (Ctrl-D ends)");
	line_reader in;
	line_reader_init(&in, STDIN_FILENO);
	stream_out so = { { 0 }, 0 };
	char **batch = malloc(BATCH * sizeof *batch);
	int *linenos = malloc(BATCH * sizeof *linenos);
	splitter split = { .w = opts->w, .h = opts->h, .no_grids = opts->check };
	int failed = 0, lineno = 0, more = 1, oom = !batch || !linenos;
	while (!so.failed && !oom && more) {
		int n = 0;
		/* Read while lines are waiting; a grid under way may wait for more. */
		const int most = (!lineno || answerer_searched(ans) ? SEARCH_BATCH : BATCH) - 2;
		while (n < most && (n == 0 || splitter_pending(&split) || line_reader_pending(&in))) {
			size_t len;
			char *line = line_reader_next(&in, &len, flush_before_wait, &so);
			if (line)
				lineno++;
			else
				more = 0;
			int got = splitter_feed(&split, line, len, lineno, batch + n, linenos + n);
			if (got < 0) {
				oom = 1;
				break;
			}
			n += got;
			if (!line)
				break;
		}
		if (n > 0)
			failed |= answerer_batch_to(ans, emit, &so, batch, linenos, n);
		for (int i = 0; i < n; i++)
			free(batch[i]);
		if (opts->interrupt && atomic_load(&opts->interrupt->stop))
			break;
		if (so.buf.len >= FLUSH_AT)
			flush_before_wait(&so);
	}
	flush_before_wait(&so);
	splitter_free(&split);
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
	return after_interrupt(ans, failed);
}

/* The answer (or verdict) of the query the words make. */
static int answer_words(answerer *ans, const answerer_opts *opts, int nargs, char **args)
{
	char *text = lookup_words(nargs, args, opts->check);
	out out = { 0 };
	int rc = text ? answerer_batch(ans, &out, &text, NULL, 1) : cli_fail("out of memory");
	if (out_flush(&out, stdout) || fflush(stdout))
		rc = cli_fail("writing the answer failed: %s", strerror(errno));
	out_free(&out);
	free(text);
	return after_interrupt(ans, rc);
}

int cmd_answer(void *opts, int nargs, char **args)
{
	lookup_options *o = opts;
	const lookup_mpi *mpi = o->mpi;
	sdb_db *db = NULL;
	int rc = lookup_open(&db, o, nargs, args);
	if (mpi) {   /* every rank, opened or not: only rank 0 goes on */
		o->run.threads = o->answer.threads;
		const int ranks = mpi->opened(rc >= 0 ? NULL : db, &o->run);
		if (ranks >= 0) {
			if (rc < 0)
				sdb_db_close(db);
			return rc >= 0 ? rc : ranks;
		}
	}
	if (rc >= 0)
		return rc;
	o->answer.resumed = mpi ? mpi->resumed : NULL;
	catch_sigint(&o->answer);
	answerer *ans = answerer_new(db, &o->answer);
	if (!ans)
		rc = cli_fail("out of memory");
	else if (nargs == 0)
		rc = answer_stream(ans, &o->answer);
	else
		rc = answer_words(ans, &o->answer, nargs, args);
	answerer_free(ans);
	if (mpi)
		mpi->finished();
	sdb_db_close(db);
	return rc;
}
