/* SPDX-License-Identifier: MIT */
/* Heuristics: additive pattern-database sets (with the diagonal mirror) and
 * the Manhattan distance with linear conflicts.
 *
 * Everything works in the set's frame: the goal's blank is moved onto the
 * set's cell by a board symmetry and the tiles are relabelled so that the goal
 * reads 1, 2, 3, ... A move changes one tile's place, hence one group's
 * entry: sdb_heuristic_move() reads one table (two with the mirror). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "answer/heuristic.h"

enum { TRANSPOSE = SDBI_TRANSPOSE, MAX_GROUPS = SDB_MAX_GROUPS };

/* The frame that brings goal onto the set's canonical goal. */
int sdbi_heuristic_frame(const sdb_heuristic *h, sdb_frame *f, const sdb_board *goal)
{
	if (goal->w != h->w || goal->h != h->h ||
	    sdb_sym_representative(goal->w, goal->h, goal->blank) != h->rep)
		return sdbi_fail(SDB_EINVAL, "the heuristic serves %dx%d goals with the blank in "
		                "cell %d or a symmetric one", h->w, h->h, h->rep);
	return sdb_frame_init(f, goal, h->rep);
}

/* The class-level fields: board, the canonical goal's cells, the mirror. */
static void set_class(sdb_heuristic *h, const sdb_board *goal, int rep)
{
	h->w = goal->w;
	h->h = goal->h;
	h->n = goal->n;
	h->rep = rep;
	sdb_board canon;
	sdb_board_goal(&canon, goal->w, goal->h, rep);
	for (int c = 0; c < canon.n; c++)
		h->goal_cell[canon.cell[c]] = (uint8_t)c;
	/* The mirror about the main diagonal keeps the canonical goal (after
	 * relabelling) when the board is square and the blank is on the diagonal. */
	h->mirror = goal->w == goal->h && rep % goal->w == rep / goal->w;
	for (int t = 0; t < goal->n; t++)
		h->mirror_label[t] = canon.cell[sdb_sym_cell(goal->w, goal->h, TRANSPOSE,
		                                             h->goal_cell[t])];
	sdbi_heuristic_frame(h, &h->frame, goal);
}

/* A board in a frame, and its mirror. */
static void to_frame(const sdb_heuristic *h, const sdb_frame *f, sdb_board *plain,
                     sdb_board *mirrored, const sdb_board *b)
{
	sdb_frame_board(f, plain, b);
	*mirrored = *plain;
	for (int c = 0; c < plain->n; c++)
		mirrored->cell[sdb_sym_cell(h->w, h->h, TRANSPOSE, c)] = h->mirror_label[plain->cell[c]];
	mirrored->blank = (uint8_t)sdb_sym_cell(h->w, h->h, TRANSPOSE, plain->blank);
}

static int abs_diff(int a, int b)
{
	return a > b ? a - b : b - a;
}

/* Manhattan distance plus two moves for each tile that must leave its row
 * or column to let another pass (linear conflicts, counted per line as the
 * tiles to remove for the rest to be in order). */
static int manhattan_lc(const sdb_heuristic *h, const sdb_board *b)
{
	int w = h->w, sum = 0;
	for (int c = 0; c < b->n; c++) {
		int t = b->cell[c];
		if (t)
			sum += abs_diff(c % w, h->goal_cell[t] % w) + abs_diff(c / w, h->goal_cell[t] / w);
	}
	for (int line = 0; line < w + h->h; line++) {
		int row = line < h->h, idx = row ? line : line - h->h;
		int len = row ? w : h->h, key[SDB_MAX_CELLS], nk = 0;
		for (int i = 0; i < len; i++) {
			int c = row ? idx * w + i : i * w + idx;
			int t = b->cell[c];
			if (t && (row ? h->goal_cell[t] / w == idx : h->goal_cell[t] % w == idx))
				key[nk++] = row ? h->goal_cell[t] % w : h->goal_cell[t] / w;
		}
		/* tiles not in the longest increasing run must step aside */
		int best[SDB_MAX_CELLS], longest = 0;
		for (int i = 0; i < nk; i++) {
			best[i] = 1;
			for (int j = 0; j < i; j++)
				if (key[j] < key[i] && best[j] + 1 > best[i])
					best[i] = best[j] + 1;
			if (best[i] > longest)
				longest = best[i];
		}
		sum += 2 * (nk - longest);
	}
	return sum;
}

static inline int cell_distance(int w, int a, int b)
{
	return abs_diff(a % w, b % w) + abs_diff(a / w, b / w);
}

/* A group's entry for the board of view v of st (mask and Manhattan distance
 * of the group's tiles are kept in st). */
static inline int group_value(const sdb_heuristic *h, const sdb_hstate *st, int v, int g)
{
	uint64_t i = sdbi_pattern_rank_mask(h->pattern[g], &st->board[v], st->mask[v][g]);
	if (!h->nibbles[g])
		return h->data[g][i];
	return st->md[v][g] + 2 * sdb_nibble(h->data[g], i);
}

/* Each set's sum for view v of st, from its cells. */
static void sum_groups(const sdb_heuristic *h, sdb_hstate *st, int v)
{
	const sdb_board *b = &st->board[v];
	for (int c = 0; c < b->n; c++)
		for (int set = 0; set < h->nsets; set++) {
			int t = b->cell[c], g = h->group_of[set][t];
			if (t && g >= 0) {
				st->mask[v][g] |= 1ull << c;
				st->md[v][g] += (uint8_t)cell_distance(h->w, c, h->goal_cell[t]);
			}
		}
	for (int g = 0; g < h->ngroups; g++)
		st->sum[v][h->set_of[g]] += st->part[v][g] = (uint8_t)group_value(h, st, v, g);
}

/* The largest of the sets' sums over the views. */
static int best_sum(const sdb_heuristic *h, const sdb_hstate *st)
{
	int best = 0;
	for (int v = 0; v < 1 + h->mirror; v++)
		for (int set = 0; set < h->nsets; set++)
			best = st->sum[v][set] > best ? st->sum[v][set] : best;
	return best;
}

int sdb_heuristic_open_manhattan(sdb_heuristic **out, const sdb_board *goal)
{
	sdb_heuristic *h = calloc(1, sizeof *h);
	if (!h)
		return sdbi_fail(SDB_ENOMEM, "out of memory");
	set_class(h, goal, sdb_sym_representative(goal->w, goal->h, goal->blank));
	h->mirror = 0;
	h->manhattan = 1;
	strcpy(h->name, "manhattan+linear-conflicts");
	*out = h;
	return SDB_OK;
}

/* The multi-tile metric's split tables for goals of goal's class, built
 * now (mtm_split.c). Not a set of the database: internal to the answers. */
static int open_mtm(sdb_heuristic **out, const sdb_board *goal)
{
	*out = NULL;
	sdb_heuristic *h = calloc(1, sizeof *h);
	if (!h)
		return sdbi_fail(SDB_ENOMEM, "out of memory");
	const int rep = sdb_sym_representative(goal->w, goal->h, goal->blank);
	set_class(h, goal, rep);
	sdb_board canon;
	sdb_board_goal(&canon, goal->w, goal->h, rep);
	/* tuned to 7-8: the strongest groups where they exist (a 4x4's corner
	 * goals), built here as well: minutes and gigabytes, for batches */
	const char *spec = sdbi_tuning()->mtm_split_7_8 ? "7-8" : NULL;
	const long cores = sysconf(_SC_NPROCESSORS_ONLN);
	int err = sdbi_mtm_split_build(&h->mtm, &canon, spec, cores > 0 ? (int)cores : 1);
	if (!err && (err = sdbi_mtm_walk_build(&h->walk, &canon)) != SDB_OK)
		err = err == SDB_ETOOBIG ? SDB_OK   /* (2x8, 8x2: the split tables alone) */
		      : sdbi_fail(err, "out of memory");
	if (err) {
		sdb_heuristic_close(h);
		return err;
	}
	snprintf(h->name, sizeof h->name, SDBI_MTM_HEURISTIC "%s%s%s", h->mtm->partition,
	         h->mirror ? "+mirror" : "", h->walk ? "+walking-distance" : "");
	*out = h;
	return SDB_OK;
}

/* The partition a hint proposes: the named partition of a set this size
 * already has (the user chose it for another class of goals), else
 * sdb_partition_default(). */
static void hint_partition(char *spec, size_t cap, const sdb_db *db, const sdb_board *goal)
{
	static const char *const named[] = { "7-8", "6-6-3", "5-5-5", "6-6-6-6", "2x2" };
	for (int i = 0; i < sdb_table_count(db); i++) {
		const sdb_table_info *in = sdb_table_meta(sdb_table_at(db, i));
		if (in->kind != SDB_KIND_PATTERN || in->goal.w != goal->w || in->goal.h != goal->h)
			continue;
		for (size_t k = 0; k < sizeof named / sizeof *named; k++) {
			char tail[32];
			snprintf(tail, sizeof tail, "-%s", named[k]);
			size_t len = strlen(in->set), tl = strlen(tail);
			if (len > tl && !strcmp(in->set + len - tl, tail)) {
				snprintf(spec, cap, "%s", named[k]);
				return;
			}
		}
	}
	sdb_partition_default(spec, cap, goal->w, goal->h);
}

/* The mean value of a table's entries, from its counts per distance: what a
 * group adds to the heuristic on average. */
static double mean_value(const sdb_table_info *in)
{
	double sum = 0;
	for (int d = 0; d <= in->max_distance && d < SDB_MAX_DISTANCE; d++)
		sum += (double)d * (double)in->counts[d];
	return in->states ? sum / (double)in->states : 0;
}

/* The tables of the set named `set` in group order if it is complete and
 * serves goals of class rep, and its strength (the sum of its groups' mean
 * values: the heuristic's mean over the states); -1 if not. */
static double set_tables(const sdb_table **tables, int *ngroups, const sdb_db *db,
                         const sdb_board *goal, int rep, const char *set)
{
	char name[SDB_NAME_MAX + 16];
	snprintf(name, sizeof name, "%s/g0", set);
	const sdb_table *t0 = sdb_table_find(db, name);
	const sdb_table_info *in = t0 ? sdb_table_meta(t0) : NULL;
	if (!in || in->kind != SDB_KIND_PATTERN || in->goal.w != goal->w || in->goal.h != goal->h ||
	    in->goal.blank != rep || strcmp(in->set, set) || in->ngroups < 1 ||
	    in->ngroups > MAX_GROUPS)
		return -1;
	double strength = 0;
	for (int g = 0; g < in->ngroups; g++) {
		snprintf(name, sizeof name, "%s/g%d", set, g);
		const sdb_table *t = sdb_table_find(db, name);
		if (!t || sdb_table_meta(t)->ngroups != in->ngroups)
			return -1;
		tables[g] = t;
		strength += mean_value(sdb_table_meta(t));
	}
	*ngroups = in->ngroups;
	return strength;
}

/* The sets a heuristic takes: those named in spec ("A+B"), or the strongest
 * complete set for goals like goal with every other within 5% of it (another
 * partition of about the same strength prunes other nodes; a much weaker
 * one costs its reads for little). Their tables, set after set. */
typedef struct chosen {
	int nsets, ngroups[SDB_MAX_SETS];
	const char *name[SDB_MAX_SETS];
	const sdb_table *tables[SDB_MAX_SETS][MAX_GROUPS];
	double strength[SDB_MAX_SETS];
} chosen;

/* No usable set, and a damaged catalog entry that may be one's group: an
 * error naming the damage, never "no set" and an answer from Manhattan
 * distance. */
static int damaged_set(const sdb_db *db, const sdb_board *goal, const sdb_table *t)
{
	const char *name = sdb_table_meta(t)->name;
	return sdbi_fail(SDB_ECORRUPT, "%s: no usable pattern-database set for %dx%d goals like "
	                 "this one: table '%s' is %s, and it may be a group of the set: remove it "
	                 "with `slidedb-gen rm '%s'` and build or import its set again",
	                 sdb_db_path(db), goal->w, goal->h, name, sdb_table_problem(t), name);
}

static int not_found(const sdb_db *db, const sdb_board *goal, const char *set)
{
	const sdb_table *damaged = sdbi_damaged_group(db, goal->w, goal->h);
	if (damaged)
		return damaged_set(db, goal, damaged);
	if (set)
		return sdbi_fail(SDB_ENOTFOUND, "%s: no complete pattern-database set '%s' for "
		                "%dx%d goals like this one", sdb_db_path(db), set, goal->w, goal->h);
	char spec[64], dbarg[700], goalarg[80];
	hint_partition(spec, sizeof spec, db, goal);
	return sdbi_fail(SDB_ENOTFOUND, "%s: no pattern-database set for %dx%d goals with "
	                "the blank in cell %d: build one with `slidedb-gen pdb %dx%d "
	                "--partition %s%s%s`", sdb_db_path(db), goal->w, goal->h, goal->blank,
	                goal->w, goal->h, spec, sdbi_hint_goal(goal, goalarg, sizeof goalarg),
	                sdbi_hint_db(db, dbarg, sizeof dbarg));
}

/* Swap the sets at a and b. */
static void chosen_swap(chosen *c, int a, int b)
{
	const int ngroups = c->ngroups[a];
	const char *name = c->name[a];
	const double strength = c->strength[a];
	const sdb_table *tables[MAX_GROUPS];
	memcpy(tables, c->tables[a], sizeof tables);
	c->ngroups[a] = c->ngroups[b];
	c->name[a] = c->name[b];
	c->strength[a] = c->strength[b];
	memcpy(c->tables[a], c->tables[b], sizeof tables);
	c->ngroups[b] = ngroups;
	c->name[b] = name;
	c->strength[b] = strength;
	memcpy(c->tables[b], tables, sizeof tables);
}

static int find_sets(chosen *c, const sdb_db *db, const sdb_board *goal, int rep,
                     const char *spec)
{
	memset(c, 0, sizeof *c);
	int total = 0;
	if (spec) {
		char names[SDB_MAX_SETS * SDB_NAME_MAX + 8];
		if (strlen(spec) >= sizeof names)
			return sdbi_fail(SDB_EINVAL, "'%.60s...': too long for %d set names", spec,
			                SDB_MAX_SETS);
		snprintf(names, sizeof names, "%s", spec);
		for (char *name = names, *next; name; name = next) {
			if ((next = strchr(name, '+')))
				*next++ = '\0';
			if (c->nsets == SDB_MAX_SETS)
				return sdbi_fail(SDB_EINVAL, "'%s': more than %d sets", spec, SDB_MAX_SETS);
			const int i = c->nsets;
			c->strength[i] = set_tables(c->tables[i], &c->ngroups[i], db, goal, rep, name);
			if (c->strength[i] < 0)
				return not_found(db, goal, name);
			if ((total += c->ngroups[i]) > MAX_GROUPS)
				return sdbi_fail(SDB_EINVAL, "'%s': more than %d groups in all", spec,
				                MAX_GROUPS);
			c->name[c->nsets++] = sdb_table_meta(c->tables[i][0])->set;
		}
		return SDB_OK;
	}
	/* every complete set once (at its first group), strongest first */
	for (int k = 0; k < sdb_table_count(db); k++) {
		const sdb_table_info *in = sdb_table_meta(sdb_table_at(db, k));
		if (in->kind != SDB_KIND_PATTERN || in->group != 0)
			continue;
		const sdb_table *tables[MAX_GROUPS];
		int ngroups;
		double strength = set_tables(tables, &ngroups, db, goal, rep, in->set);
		if (strength < 0)
			continue;
		int at = c->nsets < SDB_MAX_SETS ? c->nsets : SDB_MAX_SETS - 1;
		if (c->nsets == SDB_MAX_SETS && strength <= c->strength[at])
			continue;
		c->strength[at] = strength;   /* last, then up past the weaker */
		c->ngroups[at] = ngroups;
		c->name[at] = in->set;
		memcpy(c->tables[at], tables, sizeof tables);
		for (; at > 0 && c->strength[at - 1] < strength; at--)
			chosen_swap(c, at, at - 1);
		c->nsets += c->nsets < SDB_MAX_SETS;
	}
	if (!c->nsets)
		return not_found(db, goal, NULL);
	int keep = 1;
	total = c->ngroups[0];
	while (keep < c->nsets && c->strength[keep] >= 0.95 * c->strength[0] &&
	       total + c->ngroups[keep] <= MAX_GROUPS)
		total += c->ngroups[keep++];
	c->nsets = keep;
	/* The set of the smallest tables first: a child's first entry is read
	 * for every child, the other sets' only for those it does not cut, and
	 * small tables answer sooner (6-6-6-6 before 7-7-7-3: the same nodes,
	 * 0.89x the time; bench/RESULTS.md, "Presets"). */
	uint64_t bytes[SDB_MAX_SETS] = { 0 };
	for (int i = 0; i < c->nsets; i++)
		for (int g = 0; g < c->ngroups[i]; g++)
			bytes[i] += sdb_table_bytes(sdb_table_meta(c->tables[i][g]));
	for (int a = 1; a < c->nsets; a++)
		for (int b = a; b > 0 && bytes[b] < bytes[b - 1]; b--) {
			chosen_swap(c, b, b - 1);
			const uint64_t t = bytes[b];
			bytes[b] = bytes[b - 1];
			bytes[b - 1] = t;
		}
	return SDB_OK;
}

/* --- The tables' check. A pattern table has no self-check on the way, as a
 * full table's path walk is: one damaged entry would be a wrong bound and a
 * wrong answer. So every table's CRC is checked before an answer read from
 * it is given (bench/RESULTS.md says what that costs), once per handle: the
 * heuristics opened on a handle after the first (sdb_heuristic_open() and
 * the handle's own for its searches) find their tables checked. */

static int check_tables(const sdb_heuristic *h, const sdbi_pace *pace)
{
	int err = SDB_OK;
	for (int g = 0; g < h->ngroups && !err; g++)
		err = sdbi_table_verify_once(h->table[g], pace);
	return err;
}

static int tables_checked(const sdb_heuristic *h)
{
	for (int g = 0; g < h->ngroups; g++)
		if (!sdbi_table_verified(h->table[g]))
			return 0;
	return 1;
}

/* A core for the search beside the check, until its caller waits. */
static int cores_to_leave(void *ctx)
{
	sdb_heuristic *h = ctx;
	return !atomic_load_explicit(&h->check.waited, memory_order_relaxed);
}

static void *check_thread(void *arg)
{
	sdb_heuristic *h = arg;
	const sdbi_pace pace = { cores_to_leave, h };
	const int err = check_tables(h, &pace);
	if (err)
		snprintf(h->check.detail, sizeof h->check.detail, "%s", sdb_error_detail());
	atomic_store_explicit(&h->check.state, err, memory_order_release);
	return NULL;
}

/* Check h's tables now, or (deferred) start their check on a thread of its
 * own: a search on a set of hundreds of megabytes then runs beside its CRC-32,
 * which leaves a core to the search until the search is over and waits for
 * it. */
static int start_check(sdb_heuristic *h, int deferred)
{
	if (tables_checked(h)) {   /* by an earlier heuristic of the handle */
		atomic_init(&h->check.state, CHECK_PASSED);
		return SDB_OK;
	}
	if (deferred && !pthread_mutex_init(&h->check.lock, NULL)) {
		atomic_init(&h->check.state, CHECK_PENDING);
		atomic_init(&h->check.waited, 0);
		if (!pthread_create(&h->check.thread, NULL, check_thread, h))
			return h->check.started = 1, SDB_OK;
		pthread_mutex_destroy(&h->check.lock);
	}
	atomic_init(&h->check.state, CHECK_PASSED);   /* no thread: check here */
	return check_tables(h, NULL);
}

int sdbi_heuristic_check_failed(const sdb_heuristic *h)
{
	const int s = atomic_load_explicit(&h->check.state, memory_order_relaxed);
	return s != CHECK_PENDING && s != CHECK_PASSED;
}

int sdbi_heuristic_checked(const sdb_heuristic *ch)
{
	sdb_heuristic *h = (sdb_heuristic *)ch;   /* its check's state is not its value */
	int s = atomic_load_explicit(&h->check.state, memory_order_acquire);
	if (s == CHECK_PENDING) {
		atomic_store_explicit(&h->check.waited, 1, memory_order_relaxed);   /* every core now */
		pthread_mutex_lock(&h->check.lock);
		if (!h->check.joined) {
			pthread_join(h->check.thread, NULL);
			h->check.joined = 1;
		}
		pthread_mutex_unlock(&h->check.lock);
		s = atomic_load_explicit(&h->check.state, memory_order_acquire);
	}
	return s == CHECK_PASSED ? SDB_OK : sdbi_fail(s, "%s", h->check.detail);
}

static int open_sets(sdb_heuristic **out, const sdb_db *db, const sdb_board *goal,
                     const char *set, int deferred)
{
	*out = NULL;
	int rep = sdb_sym_representative(goal->w, goal->h, goal->blank);
	chosen c;
	int err = find_sets(&c, db, goal, rep, set);
	if (err)
		return err;
	sdb_heuristic *h = calloc(1, sizeof *h);
	if (!h)
		return sdbi_fail(SDB_ENOMEM, "out of memory");
	set_class(h, goal, rep);
	memset(h->group_of, -1, sizeof h->group_of);
	h->nsets = c.nsets;
	size_t len = 0;
	for (int i = 0; i < c.nsets && !err; i++) {
		len += (size_t)snprintf(h->name + len, sizeof h->name - len, "%s%s", i ? "+" : "",
		                        c.name[i]);
		for (int k = 0; k < c.ngroups[i] && !err; k++) {
			const int g = h->ngroups++;
			const sdb_table_info *in = sdb_table_meta(c.tables[i][k]);
			h->set_of[g] = (int8_t)i;
			h->nibbles[g] = in->entry_format == SDB_ENTRY_NIBBLE_MD;
			h->table[g] = c.tables[i][k];
			if (!(h->data[g] = sdb_table_data(c.tables[i][k])))
				err = SDB_ECORRUPT;
			else
				err = sdbi_table_pattern(&h->pattern[g], c.tables[i][k]);
			if (!err && sdb_pattern_size(h->pattern[g]) != in->states)
				err = sdbi_fail(SDB_ECORRUPT, "%s: table '%s' has %llu entries, its pattern "
				               "%llu", sdb_db_path(db), in->name,
				               (unsigned long long)in->states,
				               (unsigned long long)sdb_pattern_size(h->pattern[g]));
			for (int t = 1; t < goal->n && !err; t++)
				if (in->pattern >> t & 1)
					h->group_of[i][t] = (int8_t)g;
		}
	}
	if (!err)
		err = start_check(h, deferred);
	if (err) {
		sdb_heuristic_close(h);
		return err;
	}
	*out = h;
	return sdbi_done(SDB_OK);
}

int sdb_heuristic_open(sdb_heuristic **out, const sdb_db *db, const sdb_board *goal,
                       const char *set)
{
	return open_sets(out, db, goal, set, 0);
}

void sdb_heuristic_close(sdb_heuristic *h)
{
	if (!h)
		return;
	if (h->check.started) {
		if (!h->check.joined)
			pthread_join(h->check.thread, NULL);
		pthread_mutex_destroy(&h->check.lock);
	}
	sdbi_mtm_split_free(h->mtm);
	sdbi_mtm_walk_free(h->walk);
	free(h);   /* (its patterns are its tables', kept by the handle) */
}

const char *sdb_heuristic_name(const sdb_heuristic *h)
{
	return h->name;
}

int sdbi_heuristic_start_in(const sdb_heuristic *h, const sdb_frame *f, sdb_hstate *st,
                           const sdb_board *state)
{
	memset(st, 0, sizeof *st);
	if (state->w != h->w || state->h != h->h)
		return sdbi_fail(SDB_EINVAL, "a %dx%d board given to a heuristic of %dx%d boards",
		                state->w, state->h, h->w, h->h);
	to_frame(h, f, &st->board[0], &st->board[1], state);
	if (h->manhattan)
		return st->value = manhattan_lc(h, &st->board[0]);
	sum_groups(h, st, 0);
	if (h->mirror)
		sum_groups(h, st, 1);
	return st->value = best_sum(h, st);
}

int sdb_heuristic_start(const sdb_heuristic *h, sdb_hstate *st, const sdb_board *state)
{
	return sdbi_heuristic_start_in(h, &h->frame, st, state);
}

int sdb_heuristic_value(const sdb_heuristic *h, const sdb_board *state)
{
	sdb_hstate st;
	return sdb_heuristic_start(h, &st, state);
}

/* Move the blank of one view; the moved tile's group is re-read. */
static void move_view(const sdb_heuristic *h, sdb_hstate *st, int v, int move)
{
	sdb_board *b = &st->board[v];
	const int delta[4] = { -b->w, b->w, -1, 1 };
	const int from = b->blank + delta[move], to = b->blank, tile = b->cell[from];
	b->cell[to] = (uint8_t)tile;
	b->cell[from] = 0;
	b->blank = (uint8_t)from;
	for (int set = 0; set < h->nsets; set++) {
		int g = h->group_of[set][tile];
		if (g < 0)
			continue;
		st->mask[v][g] ^= 1ull << from | 1ull << to;
		st->md[v][g] = (uint8_t)(st->md[v][g] + cell_distance(h->w, to, h->goal_cell[tile]) -
		                         cell_distance(h->w, from, h->goal_cell[tile]));
		int value = group_value(h, st, v, g);
		st->sum[v][set] += value - st->part[v][g];
		st->part[v][g] = (uint8_t)value;
	}
}

int sdbi_heuristic_move_frame(const sdb_heuristic *h, sdb_hstate *st, int m)
{
	if (h->manhattan) {
		sdb_board_apply(&st->board[0], m);
		return st->value = manhattan_lc(h, &st->board[0]);
	}
	move_view(h, st, 0, m);
	if (h->mirror)
		move_view(h, st, 1, sdb_sym_move(h->w, h->h, TRANSPOSE, m));
	return st->value = best_sum(h, st);
}

int sdb_heuristic_move(const sdb_heuristic *h, sdb_hstate *st, int move)
{
	if (move < 0 || move > 3)
		return sdbi_fail(SDB_EINVAL, "no move %d", move);
	int m = h->frame.move_in[move];
	if (!(sdb_board_moves(&st->board[0]) >> m & 1))
		return sdbi_fail(SDB_EINVAL, "move '%c' leaves the board", sdb_move_letter(move));
	return sdbi_heuristic_move_frame(h, st, m);
}

/* --- The heuristics a database answers with (sdbi_db_heuristic), opened on
 * first use and kept in the handle's slot until it closes. */
/* A handle keeps at most MAX_MTM_CLASSES multi-tile heuristics (built in
 * memory, 17 MB each on a 4x4, whose three classes fit): what a server's
 * clients can make it build is bounded. */
enum { MAX_HEURISTICS = 32, MAX_MTM_CLASSES = 4 };

typedef struct heuristic_cache {
	int n;
	struct cached_heuristic {
		int w, h, rep, metric;
		char sets[SDB_MAX_SETS * SDB_NAME_MAX];   /* as asked; "" for the best */
		sdb_heuristic *heur;
		char note[1024];
	} entry[MAX_HEURISTICS];
} heuristic_cache;

static void free_cache(void *p)
{
	heuristic_cache *c = p;
	for (int i = 0; c && i < c->n; i++)
		sdb_heuristic_close(c->entry[i].heur);
	free(c);
}

/* The handle's cache, made on first use (under the handle's lock). */
static heuristic_cache *cache_of(const sdb_db *db)
{
	void **slot = sdbi_db_slot(db, NULL);
	if (!*slot && (*slot = calloc(1, sizeof(heuristic_cache))))
		sdbi_db_set_slot_free(db, free_cache);
	return *slot;
}

/* The cache's entry for the class of goal, sets and metric, or NULL
 * (under the handle's lock). */
static struct cached_heuristic *cached(heuristic_cache *cache, const sdb_board *goal, int rep,
                                       const char *sets, int metric)
{
	for (int i = 0; cache && i < cache->n; i++) {
		struct cached_heuristic *c = &cache->entry[i];
		if (c->w == goal->w && c->h == goal->h && c->rep == rep && c->metric == metric &&
		    !strcmp(c->sets, sets ? sets : ""))
			return c;
	}
	return NULL;
}

static struct cached_heuristic *add(heuristic_cache *cache, const sdb_board *goal, int rep,
                                    const char *sets, int metric, sdb_heuristic *h,
                                    const char *note)
{
	struct cached_heuristic *c = &cache->entry[cache->n++];
	c->w = goal->w;
	c->h = goal->h;
	c->rep = rep;
	c->metric = metric;
	snprintf(c->sets, sizeof c->sets, "%s", sets ? sets : "");
	c->heur = h;
	snprintf(c->note, sizeof c->note, "%s", note);
	return c;
}

int sdbi_db_heuristic(const sdb_heuristic **out, const char **note, const sdb_db *db,
                     const sdb_board *goal, const char *sets)
{
	if (sets && strlen(sets) >= sizeof ((struct cached_heuristic *)0)->sets)
		return sdbi_fail(SDB_EINVAL, "'%.60s...': too long for %d set names", sets,
		                SDB_MAX_SETS);
	int rep = sdb_sym_representative(goal->w, goal->h, goal->blank), err = SDB_OK;
	*out = NULL;
	*note = NULL;
	sdbi_db_lock(db);
	heuristic_cache *cache = cache_of(db);
	struct cached_heuristic *c = cached(cache, goal, rep, sets, SDB_METRIC_STM);
	if (!cache)
		err = sdbi_fail(SDB_ENOMEM, "out of memory");
	if (cache && !c && cache->n == MAX_HEURISTICS)
		err = sdbi_fail(SDB_ENOMEM, "more than %d classes of goals in one database handle",
		               MAX_HEURISTICS);
	if (cache && !c && !err) {
		sdb_heuristic *h = NULL;
		char note_text[sizeof c->note] = "";
		err = open_sets(&h, db, goal, sets, 1);
		if (err == SDB_ENOTFOUND && !sets) {
			snprintf(note_text, sizeof note_text, "%s", sdb_error_detail());
			err = sdb_heuristic_open_manhattan(&h, goal);
		}
		if (!err)
			c = add(cache, goal, rep, sets, SDB_METRIC_STM, h, note_text);
	}
	if (c && sdbi_heuristic_check_failed(c->heur))
		err = sdbi_heuristic_checked(c->heur);   /* damaged: say so at once */
	else if (c) {
		*out = c->heur;
		*note = c->note[0] ? c->note : NULL;
	}
	sdbi_db_unlock(db);
	return err;
}

/* One build of multi-tile tables at a time, in the process: threads that
 * ask for the same class meanwhile wait for it rather than build their own
 * (a server's first MTM requests arriving at once cost one build, not one
 * each); the handle's lock is not held, so its other questions go on. */
static pthread_mutex_t mtm_building = PTHREAD_MUTEX_INITIALIZER;

static const sdb_heuristic *cached_mtm(const sdb_db *db, const sdb_board *goal, int rep,
                                       heuristic_cache **cache)
{
	sdbi_db_lock(db);
	*cache = cache_of(db);
	const struct cached_heuristic *c = cached(*cache, goal, rep, NULL, SDB_METRIC_MTM);
	sdbi_db_unlock(db);
	return c ? c->heur : NULL;
}

int sdbi_db_heuristic_mtm(const sdb_heuristic **out, const sdb_db *db, const sdb_board *goal)
{
	const int rep = sdb_sym_representative(goal->w, goal->h, goal->blank);
	heuristic_cache *cache;
	if ((*out = cached_mtm(db, goal, rep, &cache)))
		return SDB_OK;
	if (!cache)
		return sdbi_fail(SDB_ENOMEM, "out of memory");
	pthread_mutex_lock(&mtm_building);
	int err = SDB_OK;
	if (!(*out = cached_mtm(db, goal, rep, &cache))) {   /* (not built while we waited) */
		sdb_heuristic *h;
		err = open_mtm(&h, goal);
		sdbi_db_lock(db);
		int mtm_classes = 0;
		for (int i = 0; i < cache->n; i++)
			mtm_classes += cache->entry[i].metric == SDB_METRIC_MTM;
		if (!err && (cache->n == MAX_HEURISTICS || mtm_classes == MAX_MTM_CLASSES)) {
			sdb_heuristic_close(h);
			err = mtm_classes == MAX_MTM_CLASSES
			      ? sdbi_fail(SDB_ELIMIT, "multi-tile searches of more than %d classes of goals "
			                  "in one database handle (their tables take megabytes each, "
			                  "7-8's gigabytes; open another)", MAX_MTM_CLASSES)
			      : sdbi_fail(SDB_ENOMEM, "more than %d classes of goals in one database "
			                  "handle", MAX_HEURISTICS);
		} else if (!err) {
			*out = add(cache, goal, rep, NULL, SDB_METRIC_MTM, h, "")->heur;
		}
		sdbi_db_unlock(db);
	}
	pthread_mutex_unlock(&mtm_building);
	return err;
}

int sdb_db_checked(const sdb_db *db)
{
	const sdb_heuristic *open[MAX_HEURISTICS];
	int n = 0, err = SDB_OK;
	sdbi_db_lock(db);   /* (the cache's heuristics stay until the handle closes) */
	const heuristic_cache *cache = *sdbi_db_slot(db, NULL);
	for (int i = 0; cache && i < cache->n; i++)
		open[n++] = cache->entry[i].heur;
	sdbi_db_unlock(db);
	for (int i = 0; i < n && !err; i++)   /* waited for outside the lock */
		err = sdbi_heuristic_checked(open[i]);
	return sdbi_done(err);
}
