/* SPDX-License-Identifier: MIT */
/* A request's budget: search nodes and seconds of answering shared by every
 * query of one request (slidedb-serve's --request-nodes and
 * --request-timeout), and the caller's word on whether the work is still
 * wanted (its client is still connected, the server is not stopping).
 *
 * Per-search limits (--max-nodes, --search-timeout) bound one query; a
 * budget bounds what a request may ask for in all: a thousand random 4x4
 * walks, or a batch of hard lines. The searches poll it every 16384 nodes;
 * once it is spent, the queries not yet answered fail at once, without
 * searching, so that a batch still gets one line per query. */
#ifndef SLIDEDB_CLI_BUDGET_H
#define SLIDEDB_CLI_BUDGET_H

#include <stddef.h>
#include <stdint.h>

/* What stopped a request's work (0: nothing). */
enum budget_state { BUDGET_OK, BUDGET_NODES, BUDGET_TIME, BUDGET_ABANDONED };

typedef struct budget {
	uint64_t max_nodes;          /* search nodes of the whole request; 0: no bound */
	double seconds;              /* seconds of answering; 0: no bound */
	int (*wanted)(void *ctx);    /* 0 once nobody waits for the answers; NULL: always */
	void *ctx;
	/* Kept by the functions below. */
	uint64_t nodes;              /* spent so far (atomic) */
	double used;                 /* seconds spent in the runs that ended */
	double run_start, deadline;  /* the run under way (0: none) */
	int state;                   /* enum budget_state (atomic) */
} budget;

/* Seconds on the monotonic clock (what budgets and limits measure with). */
double budget_now(void);

/* Answering begins (the clock counts) and pauses (it stops: a streamed
 * response waits for its client to take what was answered, and that time is
 * the client's, not the request's). Call from the thread that answers,
 * outside any parallel region. */
void budget_resume(budget *b);
void budget_pause(budget *b);

/* The state, the clock read (no system call): cheap enough for every query. */
int budget_spent(budget *b);

/* budget_spent(), and the caller's wanted() (a system call, perhaps): for
 * the searches' polls, every few milliseconds. */
int budget_check(budget *b);

/* Nodes spent by a search (from any thread). */
void budget_add_nodes(budget *b, uint64_t n);

/* The one-line reason of a spent budget, into buf. */
const char *budget_reason(const budget *b, char *buf, size_t cap);

#endif
