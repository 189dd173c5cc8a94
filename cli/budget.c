/* SPDX-License-Identifier: MIT */
/* A request's budget; see budget.h. */
#include <stdio.h>
#include <time.h>

#include "cli/budget.h"

double budget_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The first reason to stop wins; later ones do not overwrite it. */
static int stop(budget *b, int why)
{
	int ok = BUDGET_OK;
	__atomic_compare_exchange_n(&b->state, &ok, why, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	return __atomic_load_n(&b->state, __ATOMIC_RELAXED);
}

void budget_resume(budget *b)
{
	b->run_start = budget_now();
	b->deadline = b->seconds > 0 ? b->run_start + (b->seconds - b->used) : 0;
}

void budget_pause(budget *b)
{
	if (b->run_start > 0)
		b->used += budget_now() - b->run_start;
	b->run_start = b->deadline = 0;
}

int budget_spent(budget *b)
{
	int state = __atomic_load_n(&b->state, __ATOMIC_RELAXED);
	if (state)
		return state;
	if (b->max_nodes && __atomic_load_n(&b->nodes, __ATOMIC_RELAXED) > b->max_nodes)
		return stop(b, BUDGET_NODES);
	if (b->deadline > 0 && budget_now() > b->deadline)
		return stop(b, BUDGET_TIME);
	return BUDGET_OK;
}

int budget_check(budget *b)
{
	int state = budget_spent(b);
	if (!state && b->wanted && !b->wanted(b->ctx))
		state = stop(b, BUDGET_ABANDONED);
	return state;
}

void budget_add_nodes(budget *b, uint64_t n)
{
	__atomic_fetch_add(&b->nodes, n, __ATOMIC_RELAXED);
}

const char *budget_reason(const budget *b, char *buf, size_t cap)
{
	switch (__atomic_load_n(&b->state, __ATOMIC_RELAXED)) {
	case BUDGET_NODES:
		snprintf(buf, cap, "the request's budget of %llu search nodes is spent: ask for fewer "
		         "or easier queries in one request", (unsigned long long)b->max_nodes);
		break;
	case BUDGET_TIME:
		snprintf(buf, cap, "the request's budget of %g s of answering is spent: ask for fewer "
		         "or easier queries in one request", b->seconds);
		break;
	case BUDGET_ABANDONED:
		snprintf(buf, cap, "the request was abandoned: its client has gone, or the server is "
		         "stopping");
		break;
	default:
		snprintf(buf, cap, "the request's budget is not spent");
	}
	return buf;
}
