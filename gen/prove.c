/* The proof a resumed build gives before it commits: its earlier levels came
 * from a file, which a person can craft with a correct CRC (an entry blanked,
 * the counts adjusted), so the finished table is checked, every entry against
 * its neighbours, in one pass.
 *
 * For a table of whole distances this is a proof: the start alone holds 0;
 * every reached entry's neighbours are reached and at least one less than it
 * (so no entry is more than one above a neighbour: a distance is never more
 * than the true one); every other reached entry has a neighbour exactly one
 * less (following those reaches the start: never less than the true one);
 * and an unreached entry has no reached neighbour (the reached part is closed:
 * nothing reachable was left out). With best moves, the stored move is the
 * first direction (u d l r) to a neighbour one closer, the engine's rule.
 * A two-bit table knows distances mod 3: every reached entry's neighbours
 * are reached and differ from it, every entry but the start has one at its
 * value minus one (mod 3), and the reached part is closed; the counts by
 * value are recounted against the search's (as every table's counts by
 * distance are, so that the catalog says what the table holds). That catches any entry
 * reached at the wrong level, though a table consistent mod 3 everywhere is
 * not proved exact by it. */
#include <stdio.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "bfs.h"
#include "bfs_entry.h"
#include "prove.h"

enum { CHUNK = 1 << 16, MAX_OUT = 4 * SDB_MAX_PATTERN, NO_PROBLEM = 0 };

typedef struct prover {
	const uint8_t *table;
	const bfs_space *sp;
	int two_bit;
	unsigned distmask;    /* byte tables: the distance bits */
	unsigned unseen;      /* the unreached value */
} prover;

static unsigned value_of(const prover *p, uint64_t i)
{
	return p->two_bit ? get2(p->table, i) : p->table[i];
}

/* Why entry i (value e) is wrong, or NULL. */
static const char *check_entry(const prover *p, bfs_cursor *cur, uint64_t i, unsigned e)
{
	uint64_t nbr[MAX_OUT];
	const int n = p->sp->neighbors(p->sp->ctx, cur, i, nbr);
	if (e == p->unseen) {
		for (int j = 0; j < n; j++)
			if (nbr[j] != UINT64_MAX && value_of(p, nbr[j]) != p->unseen)
				return "unreached beside a reached entry";
		return NULL;
	}
	const unsigned v = p->two_bit ? e : e & p->distmask;
	const int start = i == p->sp->start;
	if (start && v != 0)
		return "the goal is not at distance 0";
	if (!start && v == 0 && !p->two_bit)
		return "a second entry at distance 0";
	int down = -1;   /* the first direction one closer */
	for (int j = 0; j < n; j++) {
		if (nbr[j] == UINT64_MAX)
			continue;
		const unsigned x = value_of(p, nbr[j]);
		if (x == p->unseen)
			return "a reached entry beside an unreached one";
		const unsigned d = p->two_bit ? x : x & p->distmask;
		if (p->two_bit ? d == v : d + 1 < v)
			return "more than one away from a neighbour";
		if (down < 0 && (p->two_bit ? d == (v + 2) % 3 : d + 1 == v))
			down = j;
	}
	if (!start && down < 0)
		return "no neighbour one closer";
	if (!p->two_bit && p->sp->best_moves && !start && sdb_move2(e) != down)
		return "a best move that is not the first one closer";
	return NULL;
}

int bfs_prove(const uint8_t *table, const bfs_space *sp, int two_bit, const bfs_result *res,
              int threads, char *why, size_t cap)
{
	prover p = { table, sp, two_bit, dist_mask(sp->best_moves), two_bit ? UNSEEN2 : UNSEEN };
	const uint64_t total = sp->size, nchunks = (total + CHUNK - 1) / CHUNK;
	uint64_t bad = UINT64_MAX;
	const char *what = NULL;
	uint64_t counts[SDB_MAX_DISTANCE] = { 0 };
#ifdef _OPENMP
	if (threads <= 0)
		threads = omp_get_max_threads();
#else
	(void)threads;
#endif
#pragma omp parallel num_threads(threads)
	{
		uint64_t mine[SDB_MAX_DISTANCE] = { 0 };
#pragma omp for schedule(dynamic, 1)
		for (uint64_t c = 0; c < nchunks; c++) {
			if (__atomic_load_n(&bad, __ATOMIC_RELAXED) != UINT64_MAX)
				continue;
			bfs_cursor cur;
			bfs_cursor_init(sp, &cur);
			const uint64_t hi = (c + 1) * CHUNK < total ? (c + 1) * CHUNK : total;
			for (uint64_t i = c * CHUNK; i < hi; i++) {
				const unsigned e = value_of(&p, i);
				if (e != p.unseen)
					mine[(two_bit ? e : e & p.distmask) % SDB_MAX_DISTANCE]++;
				const char *w = check_entry(&p, &cur, i, e);
				if (w) {
#pragma omp critical(prove_bad)
					if (i < bad) {
						bad = i;
						what = w;
					}
					break;
				}
			}
		}
#pragma omp critical(prove_counts)
		for (int d = 0; d < SDB_MAX_DISTANCE; d++)
			counts[d] += mine[d];
	}
	if (bad != UINT64_MAX) {
		snprintf(why, cap, "entry %llu: %s", (unsigned long long)bad, what);
		return SDB_ECORRUPT;
	}
	for (int d = 0; d < SDB_MAX_DISTANCE; d++) {
		uint64_t want = 0;   /* the search's counts, folded mod 3 for two bits */
		for (int k = d; k <= res->max_distance && (k == d || two_bit); k += 3)
			want += res->counts[k];
		if (two_bit && d >= 3)
			want = 0;
		if (counts[d] != want) {
			snprintf(why, cap, "%llu entries at distance %d%s, where the search counted %llu",
			         (unsigned long long)counts[d], d, two_bit ? " mod 3" : "",
			         (unsigned long long)want);
			return SDB_ECORRUPT;
		}
	}
	return SDB_OK;
}
