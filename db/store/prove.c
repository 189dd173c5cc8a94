/* SPDX-License-Identifier: MIT */
/* Proofs of tables' entries, each against its neighbours: what stands
 * between a table crafted with correct checksums (an export, a file edited
 * in place, a resumed build's checkpoint) and a wrong answer. Import proves
 * every table before its commit, `verify --prove` what is stored, and a
 * resumed build its table before it commits (sdb_table_prove_entries()).
 *
 * For whole distances (full tables of bytes, pattern groups in region mode)
 * the rules prove every entry exact: the goal alone holds 0; no entry is
 * more than one above a neighbour, so following a shortest path from the
 * goal none can exceed its true distance; every other reached entry has a
 * neighbour exactly one below, so following those from it reaches the goal
 * (the only 0) in as many moves, and none is below its true distance; an
 * unreached entry has no reached neighbour, so nothing reachable was left
 * out. With best moves, the stored move is the first direction (u d l r) to
 * a neighbour one closer, the engine's rule. A pattern group in region mode
 * is the same kind of graph (a move of a group tile into the blank's region
 * costs one, the region is part of the state, every move can be undone), so
 * the same rules prove it.
 *
 * Two-bit tables (distances mod 3) get the rules mod 3: every reached
 * entry's neighbours are reached and differ from it, every entry but the
 * goal has one at its value minus one (mod 3), the goal holds 0, the reached
 * part is closed. That catches any entry out of step with its neighbours,
 * but values that step consistently mod 3 around a cycle of the puzzle's
 * graph would pass: a local check, not a proof (SDB_PROOF_LOCAL).
 *
 * Tables in the multi-tile metric are proved by the same rules over their
 * own neighbours (the blank travels 1 .. run cells a move): every move can
 * be undone, so it is again an undirected graph of unit moves, and whole
 * distances are proved exact. What changes is that two neighbours may be at
 * the same distance (a slide of one cell and one of two from the goal are
 * both one move, and one move apart), so a two-bit entry may equal its
 * neighbours': their values differ by at most one, which still makes a
 * neighbour holding the value minus one (mod 3) one closer, but SAME_MOD3
 * is no fault there. What MTM adds instead: the states of one line (the
 * blank anywhere along its row, or its column) are all one slide from each
 * other, so their distances are two consecutive numbers at most, and their
 * values two residues at most (LINE_SPREAD). Weaker than STM's rule: an
 * entry raised by one may pass both (doc/metric.md), which is why the walks
 * of answers also check that no two slides in a row run along one line.
 *
 * A min-mode group's entry is the least over the blank's regions of its
 * placement. Neighbours do not bound it: on every genuine min set tried (3x3
 * in five partitions and three goal classes; 4x4 5-5-5, 6-6-3 and four
 * groups of 4), some entries stand 3 to 7 above a neighbour (the
 * neighbour's least region is one this placement's tile cannot reach; in
 * each of 6-6-3's 6-tile groups, 885,915 moves so), and some have no
 * neighbour one below. So the rule that would bound an entry by the true abstract
 * distance, no entry more than one above a neighbour, fails on genuine
 * tables. It is not proved here (SDB_PROOF_NONE); slidedb-gen import builds
 * one again and compares.
 *
 * The counts per distance are recounted on the way and must be the
 * catalog's. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/store.h"
#include "store/prove.h"
#include "store/threads.h"

/* Entries of a full table a thread takes at a time; blocks of a pattern
 * group (each with every order of its tiles). */
enum { FULL_UNIT = 1 << 16, PATTERN_UNIT = 256, MAX_NBR = 4 * SDB_MAX_PATTERN };
/* The tiles of a copy from the orders layout to the blocks layout: rows of
 * orders by blocks that stay in the L1 cache while they are read. */
enum { TILE_ORDERS = 64, TILE_BLOCKS = 256 };
enum { UNREACHED = -1, NO_NBR = -2 };

/* What is wrong with an entry. */
enum fault {
	FINE, GOAL_NOT_ZERO, SECOND_ZERO, TOO_FAR, NONE_CLOSER, WRONG_MOVE, UNREACHED_BESIDE,
	REACHED_BESIDE, SAME_MOD3, LINE_SPREAD
};

typedef struct prover {
	const sdb_table_info *in;
	const sdb_pattern *p;          /* pattern groups; NULL for full tables */
	const uint8_t *const *chunk;   /* the entries, in chunks of 2^shift bytes */
	int shift;
	uint64_t mask;
	int format, best_moves, mod3;
	int run;                       /* full tables: neighbour slots a direction (1 in
	                                  the single-tile metric, sdb_mtm_run() in the
	                                  multi-tile one) */
	uint64_t goal, units;
	int w, h, cls;                 /* full tables */
	const int32_t *deltas;         /* patterns: rank changes (sdbi_pattern_deltas) */
	int cols;
	uint8_t *slots;                /* patterns: each order's slots, SDB_MAX_PATTERN a row */
	uint8_t *copy;                 /* patterns stored order by order: the entries block
	                                  by block (to_blocks()), which the proof reads */
	const uint8_t *copy_chunk[1];
	sdb_progress_fn progress;
	void *ctx;
	uint64_t next, done;           /* atomic: the next unit, entries done */
	int stop;                      /* atomic: a thread found a wrong entry */
} prover;

/* One thread's share: the first wrong entry it found, its counts. */
typedef struct worker {
	prover *pv;
	int reports;                   /* the calling thread: calls progress */
	int err;
	uint64_t bad, other;           /* the wrong entry, the neighbour it concerns */
	enum fault fault;
	int value, other_value, move, want_move;
	uint64_t counts[SDB_MAX_DISTANCE];
	sdbi_pattern_move *moves;      /* patterns: PATTERN_UNIT blocks' moves, */
	uint64_t *base;                /* the index of each one's block at order 0 */
	int *nmoves;
	uint8_t (*cost)[SDB_MAX_PATTERN][SDB_MAX_PATTERN];
} worker;

static inline unsigned byte_at(const prover *pv, uint64_t b)
{
	return pv->chunk[b >> pv->shift][b & pv->mask];
}

/* A full table's entry i: its distance (mod 3 for two-bit tables), or
 * UNREACHED. */
static inline int full_value(const prover *pv, uint64_t i)
{
	if (pv->mod3) {
		const unsigned v = byte_at(pv, i >> 2) >> ((i & 3) * 2) & 3u;
		return v == SDB_UNREACHED_MOD3 ? UNREACHED : (int)v;
	}
	const int d = sdb_dist6(byte_at(pv, i));
	return d == SDB_DIST6_UNREACHED ? UNREACHED : d;
}

/* Entry i (value v) against its neighbours' values nv[0..n) (NO_NBR: none
 * that way; for full tables slot m is blank move m). */
static enum fault check_entry(const prover *pv, worker *wk, uint64_t i, int v, const int *nv,
                              const uint64_t *nbr, int n)
{
	wk->value = v;
	if (v == UNREACHED) {
		for (int m = 0; m < n; m++)
			if (nv[m] != NO_NBR && nv[m] != UNREACHED) {
				wk->other = nbr[m];
				wk->other_value = nv[m];
				return UNREACHED_BESIDE;
			}
		return FINE;
	}
	const int goal = i == pv->goal;
	if (goal && (v != 0 || (pv->best_moves && byte_at(pv, i) != 0))) {
		wk->value = pv->best_moves ? (int)byte_at(pv, i) : v;   /* (its move bits: 0 as built) */
		return GOAL_NOT_ZERO;
	}
	if (!goal && v == 0 && !pv->mod3)
		return SECOND_ZERO;
	const int below = pv->mod3 ? (v + 2) % 3 : v - 1;
	int down = -1;
	for (int m = 0; m < n; m++) {
		if (nv[m] == NO_NBR)
			continue;
		wk->other = nbr[m];
		wk->other_value = nv[m];
		if (nv[m] == UNREACHED)
			return REACHED_BESIDE;
		if (pv->mod3 ? nv[m] == v && pv->run == 1 : nv[m] + 1 < v)
			return pv->mod3 ? SAME_MOD3 : TOO_FAR;
		if (down < 0 && nv[m] == below)
			down = m;
	}
	if (pv->mod3 && pv->run > 1)
		for (int axis = 0; axis < 2; axis++) {   /* slots of u d, then of l r */
			unsigned seen = 1u << v;
			for (int m = 2 * axis * pv->run; m < 2 * (axis + 1) * pv->run; m++)
				if (nv[m] >= 0)
					seen |= 1u << nv[m];
			if (seen == 7u)
				return LINE_SPREAD;
		}
	if (goal)
		return FINE;
	if (down < 0)
		return NONE_CLOSER;
	if (pv->best_moves && sdb_move2(byte_at(pv, i)) != down / pv->run) {
		wk->move = sdb_move2(byte_at(pv, i));
		wk->want_move = down / pv->run;
		return WRONG_MOVE;
	}
	return FINE;
}

/* Count entry i's value and check it; 0 when the unit goes on. */
static inline int take_entry(worker *wk, uint64_t i, int v, const int *nv, const uint64_t *nbr,
                             int n)
{
	if (v != UNREACHED)
		wk->counts[v < SDB_MAX_DISTANCE ? v : SDB_MAX_DISTANCE - 1]++;
	const enum fault f = check_entry(wk->pv, wk, i, v, nv, nbr, n);
	if (f == FINE)
		return 0;
	if (i < wk->bad) {
		wk->bad = i;
		wk->fault = f;
	}
	__atomic_store_n(&wk->pv->stop, 1, __ATOMIC_RELAXED);
	return 1;
}

static void prove_full_unit(worker *wk, sdb_rank_walk *walk, uint64_t unit)
{
	const prover *pv = wk->pv;
	const uint64_t lo = unit * FULL_UNIT,
	               hi = lo + FULL_UNIT < pv->in->states ? lo + FULL_UNIT : pv->in->states;
	for (uint64_t i = lo; i < hi; i++) {
		uint64_t nbr[4 * SDB_MTM_MAX_RUN];
		int nv[4 * SDB_MTM_MAX_RUN];
		const int n = 4 * pv->run;
		if (pv->run == 1)
			sdb_rank_walk_neighbors(walk, nbr, NULL, i);
		else
			sdb_rank_walk_mtm_neighbors(walk, nbr, i);
		for (int m = 0; m < n; m++)
			nv[m] = nbr[m] == UINT64_MAX ? NO_NBR : full_value(pv, nbr[m]);
		if (take_entry(wk, i, full_value(pv, i), nv, nbr, n))
			return;
	}
}

/* A pattern group's entry i: one byte (unreached: 0xff), or the group
 * tiles' Manhattan distance md and twice the nibble. */
static inline int pattern_value(const uint8_t *data, uint64_t i, int md, int nibbles)
{
	if (nibbles)
		return md + 2 * (int)sdb_nibble(data, i);
	return data[i] == SDB_UNREACHED_BYTE ? UNREACHED : data[i];
}

/* The entries of blocks [b0, b0 + width), every order of each: order by
 * order in the orders layout (a row of blocks is a line of the table),
 * block by block in the blocks layout. nibbles is a constant where this is
 * inlined: the format's reads without a branch. */
static inline void prove_blocks(worker *wk, uint64_t b0, uint64_t width, int nibbles)
{
	const prover *pv = wk->pv;
	const sdb_pattern *p = pv->p;
	const uint8_t *data = pv->chunk[0];   /* (pattern tables are stored whole) */
	const uint64_t kfact = sdb_pattern_size(p) / sdb_pattern_blocks(p);
	const uint64_t order_mul = sdbi_pattern_join(p, 0, 1);
	const int k = p->k, by_orders = sdb_pattern_layout(p) == SDB_LAYOUT_ORDERS;
	const uint64_t outer = by_orders ? kfact : width, inner = by_orders ? width : kfact;
	for (uint64_t o = 0; o < outer; o++)
		for (uint64_t in = 0; in < inner; in++) {
			const uint64_t x = by_orders ? in : o, q = by_orders ? o : in;
			const uint8_t *seq = pv->slots + q * SDB_MAX_PATTERN;
			const int32_t *delta = pv->deltas + q * (uint64_t)pv->cols;
			int md = 0;
			for (int j = 0; nibbles && j < k; j++)
				md += wk->cost[x][j][seq[j]];
			const sdbi_pattern_move *mv = wk->moves + x * MAX_NBR;
			const uint64_t *base = wk->base + x * MAX_NBR;
			const uint64_t i = sdbi_pattern_join(p, b0 + x, q);
			const int v = pattern_value(data, i, md, nibbles);
			uint64_t nbr[MAX_NBR];
			int nv[MAX_NBR], lo = INT_MAX, hi = UNREACHED, down = 0;
			for (int m = 0; m < wk->nmoves[x]; m++) {
				nbr[m] = base[m] + (uint64_t)((int64_t)q + delta[mv[m].col]) * order_mul;
				nv[m] = pattern_value(data, nbr[m], md + mv[m].dmd[seq[mv[m].j]], nibbles);
				lo = nv[m] < lo ? nv[m] : lo;
				hi = nv[m] > hi ? nv[m] : hi;
				down |= nv[m] == v - 1;
			}
			/* check_entry()'s rules for whole distances, at once, from the
			 * neighbours' least and largest values in the loop that reads
			 * them; check_entry() has the last word and says what is wrong
			 * when they fail */
			if (v == UNREACHED ? hi == UNREACHED
			    : lo != UNREACHED && lo + 1 >= v && (i == pv->goal ? v == 0 : v && down)) {
				wk->counts[v < 0 ? 0 : v < SDB_MAX_DISTANCE ? v : SDB_MAX_DISTANCE - 1] += v >= 0;
				continue;
			}
			if (take_entry(wk, i, v, nv, nbr, wk->nmoves[x]))
				return;
		}
}

/* Blocks [b0, b0 + PATTERN_UNIT) of a pattern group: their moves (and
 * Manhattan distances) worked out once for all their entries. */
static void prove_pattern_unit(worker *wk, uint64_t unit)
{
	const prover *pv = wk->pv;
	const sdb_pattern *p = pv->p;
	const uint64_t blocks = sdb_pattern_blocks(p), b0 = unit * PATTERN_UNIT,
	               width = blocks - b0 < PATTERN_UNIT ? blocks - b0 : PATTERN_UNIT;
	const int nibbles = pv->format == SDB_ENTRY_NIBBLE_MD;
	for (uint64_t x = 0; x < width; x++) {
		sdbi_pattern_move *mv = wk->moves + x * MAX_NBR;
		wk->nmoves[x] = sdbi_pattern_moves(p, (uint32_t)(b0 + x), mv);
		for (int m = 0; m < wk->nmoves[x]; m++)
			wk->base[x * MAX_NBR + m] = sdbi_pattern_join(p, mv[m].to, 0);
		if (nibbles)
			sdbi_pattern_cell_costs(p, b0 + x, wk->cost[x]);
	}
	if (nibbles)
		prove_blocks(wk, b0, width, 1);
	else
		prove_blocks(wk, b0, width, 0);
}

static void *prove_units(void *arg)
{
	worker *wk = arg;
	prover *pv = wk->pv;
	sdb_rank_walk walk;
	if (!pv->p && sdb_rank_walk_init(&walk, pv->w, pv->h, pv->cls)) {
		wk->err = SDB_EINVAL;
		return NULL;
	}
	for (;;) {
		if (__atomic_load_n(&pv->stop, __ATOMIC_RELAXED))
			break;
		const uint64_t unit = __atomic_fetch_add(&pv->next, 1, __ATOMIC_RELAXED);
		if (unit >= pv->units)
			break;
		if (pv->p)
			prove_pattern_unit(wk, unit);
		else
			prove_full_unit(wk, &walk, unit);
		const uint64_t per = pv->p ? pv->in->states / pv->units : FULL_UNIT;
		const uint64_t done = __atomic_add_fetch(&pv->done, per, __ATOMIC_RELAXED);
		if (wk->reports && pv->progress)
			pv->progress(pv->ctx, done < pv->in->states ? done : pv->in->states,
			             pv->in->states);
	}
	return NULL;
}

static const char *move_name(int m)
{
	static const char *const names[] = { "u", "d", "l", "r" };
	return names[m & 3];
}

/* Entry i of the entries proved as the table stores it: a copy made block
 * by block is numbered in the orders layout again. */
static unsigned long long stored_index(const prover *pv, uint64_t i)
{
	if (!pv->copy)
		return i;
	const uint64_t blocks = sdb_pattern_blocks(pv->p), kfact = sdb_pattern_size(pv->p) / blocks;
	return (i % kfact) * blocks + i / kfact;
}

/* The detail of the first wrong entry: the table, the entry (and for a full
 * table its board), what is wrong. */
static int say_fault(const prover *pv, const worker *wk)
{
	char where[3 * SDB_MAX_CELLS + 8] = "", what[200];
	sdb_board b;
	if (!pv->p && !sdb_board_unrank(&b, pv->w, pv->h, pv->cls, wk->bad)) {
		where[0] = ' ';
		where[1] = '(';
		sdb_board_format(where + 2, sizeof where - 4, &b);
		strcat(where, ")");
	}
	const char *unit = pv->mod3 ? " mod 3" : "";
	const unsigned long long other = stored_index(pv, wk->other);
	switch (wk->fault) {
	case GOAL_NOT_ZERO:
		snprintf(what, sizeof what, "the goal's entry holds %d, not 0", wk->value);
		break;
	case SECOND_ZERO:
		snprintf(what, sizeof what, "distance 0, but it is not the goal");
		break;
	case TOO_FAR:
		snprintf(what, sizeof what, "distance %d beside entry %llu at %d: neighbours differ by "
		         "at most one move", wk->value, other, wk->other_value);
		break;
	case LINE_SPREAD:
		snprintf(what, sizeof what, "%d mod 3, and the states of its row or column hold every "
		         "residue: one slide apart, their distances differ by at most one", wk->value);
		break;
	case SAME_MOD3:
		snprintf(what, sizeof what, "%d mod 3, as its neighbour entry %llu: neighbours differ "
		         "by one move", wk->value, other);
		break;
	case NONE_CLOSER:
		snprintf(what, sizeof what, "distance %d%s, but no neighbour is one closer", wk->value,
		         unit);
		break;
	case WRONG_MOVE:
		snprintf(what, sizeof what, "best move %s, but the first move one closer is %s",
		         move_name(wk->move), move_name(wk->want_move));
		break;
	case UNREACHED_BESIDE:
		snprintf(what, sizeof what, "unreached, beside entry %llu at distance %d%s", other,
		         wk->other_value, unit);
		break;
	case REACHED_BESIDE:
	default:
		snprintf(what, sizeof what, "distance %d%s, beside entry %llu, unreached", wk->value,
		         unit, other);
		break;
	}
	return sdbi_fail(SDB_ECORRUPT, "table '%s': entry %llu%s fails the proof: %s", pv->in->name,
	                 stored_index(pv, wk->bad), where, what);
}

/* The counts found against the catalog's (folded mod 3 for two bits). */
static int check_counts(const prover *pv, const uint64_t *counts)
{
	uint64_t want[SDB_MAX_DISTANCE];
	sdb_table_expected_counts(want, pv->in);
	for (int d = 0; d < SDB_MAX_DISTANCE; d++)
		if (counts[d] != want[d])
			return sdbi_fail(SDB_ECORRUPT, "table '%s': %llu entries at distance %d%s, the "
			                "catalog says %llu", pv->in->name, (unsigned long long)counts[d],
			                d, pv->mod3 ? " mod 3" : "", (unsigned long long)want[d]);
	return SDB_OK;
}

static void free_workers(worker *wk, int n)
{
	for (int t = 0; wk && t < n; t++) {
		free(wk[t].moves);
		free(wk[t].base);
		free(wk[t].nmoves);
		free(wk[t].cost);
	}
	free(wk);
}

/* Run the proof set up in pv on threads; 0 or the first fault. */
static int run(prover *pv, int threads)
{
	if (threads <= 0 || threads > SDBI_MAX_THREADS)
		threads = threads <= 0 ? sdbi_usable_cores() : SDBI_MAX_THREADS;
	if ((uint64_t)threads > pv->units)
		threads = pv->units ? (int)pv->units : 1;
	worker *wk = calloc((size_t)threads, sizeof *wk);
	int err = wk ? SDB_OK : SDB_ENOMEM;
	for (int t = 0; t < threads && !err; t++) {
		wk[t] = (worker){ .pv = pv, .reports = t == 0, .bad = UINT64_MAX };
		if (pv->p && (!(wk[t].moves = malloc(PATTERN_UNIT * MAX_NBR * sizeof *wk[t].moves)) ||
		              !(wk[t].base = malloc(PATTERN_UNIT * MAX_NBR * sizeof *wk[t].base)) ||
		              !(wk[t].nmoves = malloc(PATTERN_UNIT * sizeof *wk[t].nmoves)) ||
		              !(wk[t].cost = malloc(PATTERN_UNIT * sizeof *wk[t].cost))))
			err = SDB_ENOMEM;
	}
	if (err) {
		free_workers(wk, threads);
		return sdbi_fail(err, "table '%s': out of memory for its proof", pv->in->name);
	}
	sdbi_on_threads(threads, prove_units, wk, sizeof *wk);
	const worker *first = NULL;
	uint64_t counts[SDB_MAX_DISTANCE] = { 0 };
	for (int t = 0; t < threads; t++) {
		if (wk[t].err)
			err = wk[t].err;
		if (wk[t].bad != UINT64_MAX && (!first || wk[t].bad < first->bad))
			first = &wk[t];
		for (int d = 0; d < SDB_MAX_DISTANCE; d++)
			counts[d] += wk[t].counts[d];
	}
	err = err ? sdbi_fail(err, "table '%s': its index space cannot be walked", pv->in->name)
	      : first ? say_fault(pv, first) : check_counts(pv, counts);
	free_workers(wk, threads);
	return err;
}

/* One thread's share of a copy from the orders layout to the blocks
 * layout: orders [q0, q1), an even number of them from an even one (k >= 2
 * tiles: k! is even), so that threads share no byte of nibbles. */
typedef struct relayout {
	const sdb_pattern *p;
	const uint8_t *src;
	uint8_t *dst;
	int nibbles;
	uint64_t q0, q1;
} relayout;

static inline unsigned entry_of(const uint8_t *t, uint64_t i, int nibbles)
{
	return nibbles ? sdb_nibble(t, i) : t[i];
}

static void *to_blocks(void *arg)
{
	const relayout *r = arg;
	const uint64_t blocks = sdb_pattern_blocks(r->p), kfact = sdb_pattern_size(r->p) / blocks;
	for (uint64_t q0 = r->q0; q0 < r->q1; q0 += TILE_ORDERS)
		for (uint64_t b0 = 0; b0 < blocks; b0 += TILE_BLOCKS) {
			const uint64_t q1 = q0 + TILE_ORDERS < r->q1 ? q0 + TILE_ORDERS : r->q1,
			               b1 = b0 + TILE_BLOCKS < blocks ? b0 + TILE_BLOCKS : blocks;
			for (uint64_t b = b0; b < b1; b++)
				for (uint64_t q = q0; q < q1; q += 2) {
					const unsigned lo = entry_of(r->src, q * blocks + b, r->nibbles),
					               hi = entry_of(r->src, (q + 1) * blocks + b, r->nibbles);
					const uint64_t i = b * kfact + q;
					if (r->nibbles) {
						r->dst[i / 2] = (uint8_t)(lo | hi << 4);
					} else {
						r->dst[i] = (uint8_t)lo;
						r->dst[i + 1] = (uint8_t)hi;
					}
				}
		}
	return NULL;
}

/* Whether a copy of bytes fits in half the memory free now: a malloc
 * that succeeds can still be more than the machine has, and the copy is
 * only a matter of speed. The tuning's prove_in_place says no: how the
 * tests prove tables as stored, order by order. */
static int copy_fits(uint64_t bytes)
{
	if (sdbi_tuning()->prove_in_place)
		return 0;
	const long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	return pages > 0 && size > 0 && bytes <= (uint64_t)pages * (uint64_t)size / 2;
}

/* Prove a table stored order by order from a copy block by block (p, ours,
 * goes to that layout): the neighbours of a block's entries are then the
 * k! entries of a few blocks, read from the cache, where in the orders
 * layout each lies a row apart. When memory is short the proof reads the
 * table as it is. */
static void copy_to_blocks(prover *pv, sdb_pattern *p, int threads)
{
	const uint64_t blocks = sdb_pattern_blocks(p), kfact = sdb_pattern_size(p) / blocks;
	if (sdb_pattern_layout(p) != SDB_LAYOUT_ORDERS || kfact < 2 ||
	    !copy_fits(sdb_table_bytes(pv->in)) || !(pv->copy = malloc(sdb_table_bytes(pv->in))))
		return;
	if (threads <= 0 || threads > SDBI_MAX_THREADS)
		threads = threads <= 0 ? sdbi_usable_cores() : SDBI_MAX_THREADS;
	relayout r[SDBI_MAX_THREADS];
	const uint64_t pairs = kfact / 2;
	for (int t = 0; t < threads; t++)
		r[t] = (relayout){ p, pv->chunk[0], pv->copy, pv->format == SDB_ENTRY_NIBBLE_MD,
		                   2 * (pairs * (uint64_t)t / (uint64_t)threads),
		                   2 * (pairs * (uint64_t)(t + 1) / (uint64_t)threads) };
	sdbi_on_threads(threads, to_blocks, r, sizeof *r);
	if ((blocks * kfact) & 1)
		pv->copy[blocks * kfact / 2] &= 0x0f;   /* (as stored: nothing in the last high nibble) */
	sdb_pattern_set_layout(p, SDB_LAYOUT_BLOCKS);
	pv->copy_chunk[0] = pv->copy;
	pv->chunk = pv->copy_chunk;
}

/* The proof's pattern side: the group's space in the layout of its entries
 * (p, or made from info), each order's slots, the rank changes. */
static int set_up_pattern(prover *pv, const sdb_pattern *given, sdb_pattern **made, int threads)
{
	*made = NULL;
	if (!given) {
		int err = sdb_pattern_of_table(made, pv->in);
		if (err)
			return err;
		given = *made;
	}
	pv->p = given;
	if (sdb_pattern_size(given) != pv->in->states)
		return sdbi_fail(SDB_EINVAL, "table '%s': its size does not match its pattern",
		                pv->in->name);
	if (*made)
		copy_to_blocks(pv, *made, threads);
	const uint64_t kfact = sdb_pattern_size(given) / sdb_pattern_blocks(given);
	pv->deltas = sdbi_pattern_deltas(given, &pv->cols);
	pv->slots = malloc(kfact * SDB_MAX_PATTERN);
	if (!pv->deltas || !pv->slots)
		return sdbi_fail(SDB_ENOMEM, "table '%s': out of memory for its proof", pv->in->name);
	for (uint64_t q = 0; q < kfact; q++)
		sdbi_pattern_order_slots(given, q, pv->slots + q * SDB_MAX_PATTERN);
	pv->goal = sdb_pattern_goal_index(given);
	pv->units = (sdb_pattern_blocks(given) + PATTERN_UNIT - 1) / PATTERN_UNIT;
	return SDB_OK;
}

int sdbi_prove(int *proof, const sdb_table_info *info, const sdb_pattern *p,
               const sdbi_entries *e, const sdb_prove_opts *opts)
{
	*proof = SDB_PROOF_NONE;
	static const sdb_prove_opts none = SDB_PROVE_OPTS_INIT;
	if (!opts)
		opts = &none;
	if (opts->version != SDB_PROVE_OPTS_VERSION)
		return sdbi_fail(SDB_EINVAL, "sdb_prove_opts of version %u, not %u", opts->version,
		                SDB_PROVE_OPTS_VERSION);
	const int full = sdb_kind_is_full(info->kind), mode = p ? p->mode : info->blank_mode;
	if (!full && mode == SDB_BLANK_MIN)
		return sdbi_done(SDB_OK);   /* no proof here: the caller says so */
	prover pv = { .in = info, .chunk = e->chunk, .shift = e->shift,
	              .mask = e->shift >= 63 ? UINT64_MAX : (1ull << e->shift) - 1,
	              .format = info->entry_format, .progress = opts->progress, .ctx = opts->ctx,
	              .run = 1 };
	pv.mod3 = pv.format == SDB_ENTRY_MOD3;
	pv.best_moves = pv.format == SDB_ENTRY_DIST6_MOVE2;
	const int whole = full ? pv.format == SDB_ENTRY_DIST6_MOVE2 || pv.mod3
	                       : pv.format == SDB_ENTRY_DIST8 || pv.format == SDB_ENTRY_NIBBLE_MD;
	if (!whole)
		return sdbi_fail(SDB_EINVAL, "table '%s': entry format %d cannot be proved", info->name,
		                pv.format);
	sdb_pattern *made = NULL;
	int err = SDB_OK;
	if (full) {
		pv.w = info->goal.w;
		pv.h = info->goal.h;
		pv.cls = sdb_rank_class(&info->goal);
		pv.goal = sdb_board_rank(&info->goal);
		pv.units = (info->states + FULL_UNIT - 1) / FULL_UNIT;
		pv.run = info->kind == SDB_KIND_FULL_MTM ? sdb_mtm_run(pv.w, pv.h) : 1;
		if (sdb_rank_count(pv.w, pv.h) != info->states)
			err = sdbi_fail(SDB_EINVAL, "table '%s': %llu entries, not a full table's",
			               info->name, (unsigned long long)info->states);
	} else {
		err = set_up_pattern(&pv, p, &made, opts->threads);
	}
	if (!err)
		err = run(&pv, opts->threads);
	free(pv.slots);
	free(pv.copy);
	sdb_pattern_free(made);
	/* (a two-bit MTM table passed the local checks, which an entry raised
	 * by one may pass: not even a local proof, only building it again is) */
	if (!err)
		*proof = !pv.mod3 ? SDB_PROOF_EXACT : pv.run == 1 ? SDB_PROOF_LOCAL : SDB_PROOF_NONE;
	return sdbi_done(err);
}

int sdb_writer_prove(sdb_writer *w, int *proof, const sdb_table_info *info,
                     const sdb_prove_opts *opts)
{
	const uint8_t **chunk;
	int shift, err = sdbi_writer_entries(w, &chunk, &shift);
	if (err)
		return err;
	const sdbi_entries e = { chunk, shift };
	err = sdbi_prove(proof, info, NULL, &e, opts);
	free(chunk);
	return err;
}

int sdb_table_prove(int *proof, const sdb_table *t, const sdb_prove_opts *opts)
{
	*proof = SDB_PROOF_NONE;
	if (!sdbi_table_resolved(t))
		return SDB_ECORRUPT;
	const sdbi_entries e = { t->chunk, t->chunk_shift };
	return sdbi_prove(proof, &t->info, NULL, &e, opts);
}

int sdb_table_prove_entries(int *proof, const sdb_table_info *info, const sdb_pattern *p,
                            const uint8_t *data, const sdb_prove_opts *opts)
{
	*proof = SDB_PROOF_NONE;
	sdb_board goal;   /* where it is used (a stored or imported entry's was checked) */
	if ((!p || sdb_kind_is_full(info->kind)) &&
	    (sdb_board_set(&goal, info->goal.w, info->goal.h, info->goal.cell) ||
	     !sdb_board_equal(&goal, &info->goal) || goal.n != info->goal.n ||
	     goal.blank != info->goal.blank))
		return sdbi_fail(SDB_EINVAL, "table '%.*s': its goal is not a board", SDB_NAME_MAX,
		                 info->name);
	const uint8_t *const chunk[1] = { data };
	const sdbi_entries e = { chunk, 63 };
	return sdbi_prove(proof, info, p, &e, opts);
}
