/* SPDX-License-Identifier: MIT */
/* Pattern index spaces: neighbours are symmetric and in range, and the BFS
 * over them (region mode) equals a second, independent search that keeps the
 * blank's exact cell, in which group tiles' moves cost 1 and the blank's
 * other moves cost 0. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gen/bfs.h"
#include "kit/run.h"

/* --- The independent search: state = cells of the group's tiles (in tile
 * order) and the blank's cell, 4 bits each. */
typedef struct zo {
	int w, h, n, k;
	uint8_t tile[SDB_MAX_PATTERN];    /* the group's tiles */
	uint8_t *dist;                    /* 16^(k+1) entries, 0xff unreached */
} zo;

static uint32_t zo_key(const zo *z, const uint8_t *pos, int blank)
{
	uint32_t key = (uint32_t)blank;
	for (int i = 0; i < z->k; i++)
		key = key << 4 | pos[i];
	return key;
}

static void zo_unkey(const zo *z, uint32_t key, uint8_t *pos, int *blank)
{
	for (int i = z->k - 1; i >= 0; i--, key >>= 4)
		pos[i] = key & 15;
	*blank = (int)key;
}

typedef struct stack {
	uint32_t *v;
	size_t len, cap;
} stack;

static void push(stack *s, uint32_t key)
{
	if (s->len == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->v = realloc(s->v, s->cap * sizeof *s->v);
		cr_assert(s->v);
	}
	s->v[s->len++] = key;
}

static void zo_run(zo *z, const sdb_board *goal, uint32_t tiles)
{
	memset(z, 0, sizeof *z);
	z->w = goal->w;
	z->h = goal->h;
	z->n = goal->n;
	uint8_t pos[SDB_MAX_PATTERN];
	for (int t = 1; t < goal->n; t++)
		if (tiles >> t & 1)
			z->tile[z->k++] = (uint8_t)t;
	for (int i = 0; i < z->k; i++)
		for (int c = 0; c < goal->n; c++)
			if (goal->cell[c] == z->tile[i])
				pos[i] = (uint8_t)c;
	size_t size = (size_t)1 << (4 * (z->k + 1));
	z->dist = malloc(size);
	cr_assert(z->dist);
	memset(z->dist, 0xff, size);
	/* Level by level: level d is closed under the blank's free moves (a
	 * stack), and each group tile's move seeds level d+1. */
	stack cur = { 0 }, next = { 0 };
	uint32_t start = zo_key(z, pos, goal->blank);
	z->dist[start] = 0;
	push(&cur, start);
	for (int d = 0; cur.len; d++) {
		while (cur.len) {
			uint32_t key = cur.v[--cur.len];
			int blank;
			if (z->dist[key] != d)
				continue;   /* reached at a lower level since */
			zo_unkey(z, key, pos, &blank);
			int x = blank % z->w, y = blank / z->w;
			const int dx[4] = { 0, 0, -1, 1 }, dy[4] = { -1, 1, 0, 0 };
			for (int m = 0; m < 4; m++) {
				int nx = x + dx[m], ny = y + dy[m];
				if (nx < 0 || ny < 0 || nx >= z->w || ny >= z->h)
					continue;
				int c = ny * z->w + nx, mover = -1;
				for (int i = 0; i < z->k; i++)
					if (pos[i] == c)
						mover = i;
				uint8_t npos[SDB_MAX_PATTERN];
				memcpy(npos, pos, sizeof npos);
				if (mover >= 0)
					npos[mover] = (uint8_t)blank;
				uint32_t nkey = zo_key(z, npos, c);
				int nd = d + (mover >= 0);
				if (z->dist[nkey] <= nd)
					continue;
				z->dist[nkey] = (uint8_t)nd;
				push(mover >= 0 ? &next : &cur, nkey);
			}
		}
		stack t = cur;
		cur = next;
		next = t;
	}
	free(cur.v);
	free(next.v);
}

/* A board with the group's tiles at pos, the blank at blank, other tiles
 * anywhere else. */
static void zo_board(const zo *z, sdb_board *b, const uint8_t *pos, int blank)
{
	uint8_t cells[SDB_MAX_CELLS], used[SDB_MAX_CELLS] = { 0 };
	memset(cells, 0xff, sizeof cells);
	cells[blank] = 0;
	used[0] = 1;
	for (int i = 0; i < z->k; i++) {
		cells[pos[i]] = z->tile[i];
		used[z->tile[i]] = 1;
	}
	for (int c = 0, t = 1; c < z->n; c++) {
		if (cells[c] != 0xff)
			continue;
		while (used[t])
			t++;
		cells[c] = (uint8_t)t;
		used[t] = 1;
	}
	cr_assert_eq(sdb_board_set(b, z->w, z->h, cells), 0);
}

static int abs_diff(int a, int b)
{
	return a > b ? a - b : b - a;
}

/* The region-mode table from the generator's BFS equals the 0-1 BFS for every
 * (placement, blank cell); the min fold equals the minimum over blank cells;
 * sdb_pattern_manhattan agrees with the placement. */
static void matches_exact_blank(int w, int h, int goal_blank, uint32_t tiles)
{
	sdb_board goal;
	sdb_board_goal(&goal, w, h, goal_blank);
	sdb_pattern *p, *pm;
	cr_assert_eq(sdb_pattern_new(&p, &goal, tiles, SDB_BLANK_REGION), 0);
	cr_assert_eq(sdb_pattern_new(&pm, &goal, tiles, SDB_BLANK_MIN), 0);
	uint8_t *table = malloc(sdb_pattern_size(p));
	bfs_space sp;
	bfs_pattern_space(&sp, p);
	bfs_result res;
	cr_assert_eq(bfs_run(&res, table, &sp, 0, NULL, NULL, NULL), 0);
	cr_assert_eq(res.reached, sdb_pattern_size(p), "every region of every placement is reachable");
	uint8_t *minv = malloc(sdb_pattern_size(pm));
	memset(minv, 0xff, sdb_pattern_size(pm));
	for (uint64_t i = 0; i < sdb_pattern_size(p); i++) {
		uint64_t j = sdb_pattern_min_index(p, i);
		cr_assert_lt(j, sdb_pattern_size(pm));
		cr_assert_leq(j, i);
		if (table[i] < minv[j])
			minv[j] = table[i];
	}
	zo z;
	zo_run(&z, &goal, tiles);
	uint8_t *attained = calloc(sdb_pattern_size(pm), 1);
	uint64_t checked = 0;
	for (uint32_t key = 0; key < (1u << (4 * (z.k + 1))); key++) {
		if (z.dist[key] == 0xff)
			continue;
		uint8_t pos[SDB_MAX_PATTERN];
		int blank;
		zo_unkey(&z, key, pos, &blank);
		sdb_board b;
		zo_board(&z, &b, pos, blank);
		uint64_t i = sdb_pattern_rank(p, &b);
		cr_assert_eq(table[i], z.dist[key], "%dx%d tiles %x: index %llu", w, h, tiles,
		             (unsigned long long)i);
		int md = 0;
		for (int t = 0; t < z.k; t++)
			for (int c = 0; c < goal.n; c++)
				if (goal.cell[c] == z.tile[t])
					md += abs_diff(pos[t] % w, c % w) + abs_diff(pos[t] / w, c / w);
		cr_assert_eq(sdb_pattern_manhattan(p, i), md);
		cr_assert_leq(md, table[i]);
		cr_assert_eq((table[i] - md) % 2, 0, "value and Manhattan distance share parity");
		/* the min-mode entry is the minimum over every blank cell, and is
		 * attained by one of them */
		uint64_t j = sdb_pattern_rank(pm, &b);
		cr_assert_eq(j, sdb_pattern_min_index(p, i));
		cr_assert_leq(minv[j], z.dist[key]);
		attained[j] |= minv[j] == z.dist[key];
		checked++;
	}
	for (uint64_t j = 0; j < sdb_pattern_size(pm); j++)
		cr_assert(attained[j], "min entry %llu not attained by any blank cell",
		          (unsigned long long)j);
	cr_assert_gt(checked, sdb_pattern_size(p) - 1, "every entry was compared");
	free(z.dist);
	free(attained);
	free(minv);
	free(table);
	sdb_pattern_free(p);
	sdb_pattern_free(pm);
}

Test(pattern, region_equals_exact_blank_3x3)
{
	matches_exact_blank(3, 3, 8, 0x1e);    /* tiles 1-4 */
	matches_exact_blank(3, 3, 4, 0x1e0);   /* tiles 5-8, blank in the centre */
	matches_exact_blank(3, 3, 1, 0x1a6);   /* scattered tiles, blank on an edge */
}

Test(pattern, region_equals_exact_blank_2x4)
{
	matches_exact_blank(2, 4, 7, 0x0e);
	matches_exact_blank(4, 2, 0, 0xf0);
}

Test(pattern, region_equals_exact_blank_4x4, .timeout = 300)
{
	matches_exact_blank(4, 4, 0, 0x000e);   /* the 3-tile group of 6-6-3 */
	matches_exact_blank(4, 4, 0, 0x00ce);   /* a 5-tile group of 5-5-5 */
}

/* Neighbours are in range and symmetric: j is a neighbour of i exactly when
 * i is one of j (moves of group tiles are reversible). */
static void neighbours_symmetric(int w, int h, uint32_t tiles)
{
	sdb_board goal;
	sdb_board_goal(&goal, w, h, w * h - 1);
	sdb_pattern *p;
	cr_assert_eq(sdb_pattern_new(&p, &goal, tiles, SDB_BLANK_REGION), 0);
	uint64_t size = sdb_pattern_size(p);
	uint64_t nbr[4 * SDB_MAX_PATTERN], back[4 * SDB_MAX_PATTERN];
	for (uint64_t i = 0; i < size; i++) {
		int n = sdb_pattern_neighbors(p, i, nbr);
		cr_assert(n >= 0 && n <= 4 * SDB_MAX_PATTERN);
		for (int a = 0; a < n; a++) {
			cr_assert_lt(nbr[a], size);
			int m = sdb_pattern_neighbors(p, nbr[a], back), found = 0;
			for (int b = 0; b < m; b++)
				found |= back[b] == i;
			cr_assert(found, "%llu -> %llu has no way back", (unsigned long long)i,
			          (unsigned long long)nbr[a]);
		}
	}
	cr_assert_lt(sdb_pattern_neighbors(p, size, nbr), 0);
	sdb_pattern_free(p);
}

Test(pattern, neighbours_symmetric)
{
	neighbours_symmetric(3, 3, 0x1e);
	neighbours_symmetric(2, 4, 0x66);
	neighbours_symmetric(4, 4, 0x4842);   /* tiles 1, 6, 11, 14 */
}

/* A walk gives what sdb_pattern_neighbors() gives, in order, whether the
 * indices come in order (a build's scan) or jump between blocks. */
static void walk_matches_neighbours(int w, int h, uint64_t tiles)
{
	sdb_board goal;
	sdb_board_goal(&goal, w, h, w * h - 1);
	sdb_pattern *p;
	cr_assert_eq(sdb_pattern_new(&p, &goal, tiles, SDB_BLANK_REGION), 0);
	const uint64_t size = sdb_pattern_size(p);
	uint64_t want[4 * SDB_MAX_PATTERN], got[4 * SDB_MAX_PATTERN], x = 88172645463325252ull;
	sdb_pattern_walk walk;
	cr_assert_eq(sdb_pattern_walk_init(&walk, p), 0);
	for (uint64_t step = 0; step < 2 * size; step++) {
		uint64_t i = step;
		if (step >= size) {   /* then as many at random (xorshift) */
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			i = x % size;
		}
		int n = sdb_pattern_neighbors(p, i, want);
		cr_assert_eq(sdb_pattern_walk_neighbors(&walk, i, got), n, "entry %llu",
		             (unsigned long long)i);
		for (int a = 0; a < n; a++)
			cr_assert_eq(got[a], want[a], "entry %llu, neighbour %d", (unsigned long long)i, a);
	}
	cr_assert_lt(sdb_pattern_walk_neighbors(&walk, size, got), 0);
	sdb_pattern_free(p);
}

Test(pattern, walk_matches_neighbours)
{
	walk_matches_neighbours(3, 3, 0x1fe);           /* 8 tiles: the biggest table of changes */
	walk_matches_neighbours(4, 4, 0x4842);          /* tiles 1, 6, 11, 14 */
	walk_matches_neighbours(5, 5, 0x1000106);       /* past 16 cells: the colex rank by terms */
	walk_matches_neighbours(6, 6, 0x840000002ull);  /* 6x6: tiles 1, 30, 35 */
	sdb_board goal;
	sdb_board_goal(&goal, 4, 4, 15);
	sdb_pattern *p;
	sdb_pattern_walk walk;
	cr_assert_eq(sdb_pattern_new(&p, &goal, 0x0e, SDB_BLANK_MIN), 0);
	cr_assert_eq(sdb_pattern_walk_init(&walk, p), SDB_EINVAL);
	sdb_pattern_free(p);
}

/* The region form's rank on board b, however the pattern keeps its sets'
 * regions: the blank in every cell the group leaves free gives one rank per
 * region, the regions flood-filled here, different ranks for different
 * regions, every rank in range. The number of regions. */
static int regions_check_board(const sdb_pattern *p, const sdb_board *b, uint64_t tiles,
                               const char *what)
{
	const int w = b->w, h = b->h, n = w * h;
	const uint64_t size = sdb_pattern_size(p);
	int region[SDB_MAX_CELLS], regions = 0;
	for (int c = 0; c < n; c++)
		region[c] = b->cell[c] && (tiles >> b->cell[c] & 1) ? -2 : -1;
	for (int c = 0; c < n; c++) {
		if (region[c] != -1)
			continue;
		int stack[SDB_MAX_CELLS], top = 0;
		region[c] = regions;
		stack[top++] = c;
		while (top) {
			const int at = stack[--top], ax = at % w, ay = at / w;
			const int next[4] = { ay > 0 ? at - w : -1, ay < h - 1 ? at + w : -1,
			                      ax > 0 ? at - 1 : -1, ax < w - 1 ? at + 1 : -1 };
			for (int m = 0; m < 4; m++)
				if (next[m] >= 0 && region[next[m]] == -1) {
					region[next[m]] = regions;
					stack[top++] = next[m];
				}
		}
		regions++;
	}
	uint64_t rank_of[SDB_MAX_CELLS];
	int seen[SDB_MAX_CELLS] = { 0 };
	for (int c = 0; c < n; c++) {
		if (region[c] < 0)
			continue;
		sdb_board moved = *b;   /* the blank to cell c, the tile there to its cell */
		moved.cell[b->blank] = b->cell[c];
		moved.cell[c] = 0;
		moved.blank = (uint8_t)c;
		const uint64_t rank = sdb_pattern_rank(p, &moved);
		cr_assert_lt(rank, size);
		if (seen[region[c]]) {
			cr_assert_eq(rank, rank_of[region[c]], "%dx%d %s: cell %d", w, h, what, c);
			continue;
		}
		for (int r = 0; r < regions; r++)
			cr_assert(!seen[r] || rank_of[r] != rank, "%dx%d %s: regions %d and %d", w, h,
			          what, r, region[c]);
		seen[region[c]] = 1;
		rank_of[region[c]] = rank;
	}
	return regions;
}

/* regions_check_board() on random boards. */
static void regions_rank_apart(int w, int h, uint64_t tiles, int rounds)
{
	sdb_board goal;
	sdb_board_goal(&goal, w, h, w * h - 1);
	sdb_pattern *p;
	cr_assert_eq(sdb_pattern_new(&p, &goal, tiles, SDB_BLANK_REGION), 0);
	const int n = w * h;
	uint64_t x = 88172645463325252ull;
	int most = 0;
	for (int round = 0; round < rounds; round++) {
		sdb_board b = goal;
		for (int i = n - 1; i > 0; i--) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			const int j = (int)(x % (uint64_t)(i + 1));
			const uint8_t t = b.cell[i];
			b.cell[i] = b.cell[j];
			b.cell[j] = t;
		}
		for (int c = 0; c < n; c++)
			if (b.cell[c] == 0)
				b.blank = (uint8_t)c;
		char what[32];
		snprintf(what, sizeof what, "round %d", round);
		const int regions = regions_check_board(p, &b, tiles, what);
		most = regions > most ? regions : most;
	}
	cr_assert_gt(most, 2, "%dx%d: the boards drawn split the free cells", w, h);
	sdb_pattern_free(p);
}

Test(pattern, regions_rank_apart)
{
	regions_rank_apart(4, 4, 0xff00, 3000);        /* 7-8's 8 tiles: in the word */
	regions_rank_apart(3, 3, 0x1e, 500);           /* in the word */
	regions_rank_apart(3, 6, 0x3f0, 2000);         /* 18 cells: by cell */
	regions_rank_apart(5, 5, 0x7e, 2000);          /* 6-6-6-6's first group: by cell */
	regions_rank_apart(6, 6, 0x3e, 300);           /* 36 cells: rows */
}

/* A set of more than 4 regions keeps its row where the others' regions are
 * packed 2 bits a cell (5x5, groups of 6): tiles 1-6 on the cells marked
 * below leave five regions, the blank in each. */
Test(pattern, regions_five)
{
	static const char *const drawn[5] = { ".1.2.", "3.4.5", ".6...", ".....", "....." };
	sdb_board goal, b;
	sdb_board_goal(&goal, 5, 5, 24);
	sdb_pattern *p;
	cr_assert_eq(sdb_pattern_new(&p, &goal, 0x7e, SDB_BLANK_REGION), 0);
	b = goal;
	int next = 7;   /* tiles 7..24 on the cells left, then the blank (cell 24) */
	for (int c = 0; c < 25; c++) {
		const char ch = drawn[c / 5][c % 5];
		b.cell[c] = (uint8_t)(ch != '.' ? ch - '0' : next < 25 ? next++ : 0);
	}
	b.blank = 24;
	cr_assert_eq(regions_check_board(p, &b, 0x7e, "five regions"), 5);
	sdb_pattern_free(p);
}

/* A partition's groups in a canonical order (sorted masks), for comparing. */
static void sorted_groups(uint64_t *out, const uint64_t *groups, int n)
{
	memcpy(out, groups, (size_t)n * sizeof *out);
	for (int a = 1; a < n; a++)
		for (int b = a; b > 0 && out[b] < out[b - 1]; b--) {
			const uint64_t t = out[b];
			out[b] = out[b - 1];
			out[b - 1] = t;
		}
}

/* Every named partition covers each tile of its board once, in groups of the
 * sizes its name gives; and the four 5x5 partitions into groups of 6 that the
 * preset 6-6-6-6x4 maxes, each also read through the diagonal mirror, are
 * eight different partitions (two alike would be a set read for nothing). */
Test(pattern, named_partitions)
{
	static const struct {
		const char *name;
		int w;
	} named[] = { { "5-5-5", 4 }, { "6-6-3", 4 }, { "7-8", 4 }, { "6-6-6-6", 5 },
	              { "6-6-6-6b", 5 }, { "6-6-6-6c", 5 }, { "6-6-6-6d", 5 }, { "7-7-7-3", 5 } };
	uint64_t views[8][SDB_MAX_GROUPS];
	int nviews = 0;
	for (size_t i = 0; i < sizeof named / sizeof *named; i++) {
		const int w = named[i].w, n = w * w;
		sdb_board goal;
		sdb_board_goal(&goal, w, w, 0);
		sdb_partition pt;
		cr_assert_eq(sdb_partition_parse(&pt, named[i].name, &goal), 0, "%s", named[i].name);
		int want[SDB_MAX_GROUPS], nwant = 0, got[SDB_MAX_GROUPS];
		const char *p = named[i].name;   /* "6-6-6-6b": 6, 6, 6, 6 */
		char *end;
		do {
			want[nwant++] = (int)strtol(p, &end, 10);
			p = end + 1;
		} while (*end == '-');
		cr_assert_eq(pt.ngroups, nwant, "%s: %d groups", named[i].name, pt.ngroups);
		uint64_t all = 0;
		for (int g = 0; g < pt.ngroups; g++) {
			cr_assert_eq(all & pt.groups[g], 0, "%s: a tile in two groups", named[i].name);
			all |= pt.groups[g];
			got[g] = __builtin_popcountll(pt.groups[g]);
		}
		cr_assert_eq(all, ((1ull << n) - 1) & ~1ull, "%s: not every tile", named[i].name);
		for (int a = 0; a < nwant; a++) {   /* the same sizes, in any order */
			int b = 0;
			while (b < nwant && got[b] != want[a])
				b++;
			cr_assert(b < nwant, "%s: no group of %d", named[i].name, want[a]);
			got[b] = -1;
		}
		if (strncmp(named[i].name, "6-6-6-6", 7))
			continue;
		/* the partition and its mirror: each tile to the one at the
		 * transposed cell of the goal (blank in cell 0, on the diagonal) */
		uint64_t mirrored[SDB_MAX_GROUPS] = { 0 };
		for (int g = 0; g < pt.ngroups; g++)
			for (int c = 0; c < n; c++)
				if (goal.cell[c] && pt.groups[g] >> goal.cell[c] & 1)
					mirrored[g] |= 1ull << goal.cell[(c % w) * w + c / w];
		sorted_groups(views[nviews++], pt.groups, pt.ngroups);
		sorted_groups(views[nviews++], mirrored, pt.ngroups);
	}
	cr_assert_eq(nviews, 8);
	for (int a = 0; a < nviews; a++)
		for (int b = 0; b < a; b++)
			cr_assert(memcmp(views[a], views[b], 4 * sizeof *views[a]),
			          "views %d and %d of the 6-6-6-6 partitions are one partition", a, b);
}

Test(pattern, refuses_bad_groups)
{
	sdb_board g;
	sdb_board_goal(&g, 3, 3, 8);
	sdb_pattern *p = (sdb_pattern *)1;
	cr_assert_eq(sdb_pattern_new(&p, &g, 0, SDB_BLANK_REGION), SDB_EINVAL);
	cr_assert_null(p);
	cr_assert_eq(sdb_pattern_new(&p, &g, 1, SDB_BLANK_REGION), SDB_EINVAL, "tile 0 is the blank");
	cr_assert_eq(sdb_pattern_new(&p, &g, 1u << 9, SDB_BLANK_REGION), SDB_EINVAL, "no tile 9");
	cr_assert_eq(sdb_pattern_new(&p, &g, 0x1e, 7), SDB_EINVAL);
	sdb_board_goal(&g, 4, 4, 15);
	cr_assert_eq(sdb_pattern_new(&p, &g, 0x3fe, SDB_BLANK_MIN), SDB_EINVAL, "9 tiles");
	cr_assert_eq(sdb_pattern_new(&p, &g, 0x1fe, SDB_BLANK_MIN), 0, "8 tiles");
	cr_assert_eq(sdb_pattern_size(p), 518918400ull, "16!/8!");
	sdb_pattern_free(p);
}

/* The two layouts number the same entries: for boards at random, the index
 * in SDB_LAYOUT_ORDERS is the order * blocks + block of the index in
 * SDB_LAYOUT_BLOCKS (block * k! + order), and what each function says of an
 * entry (region, Manhattan distance, neighbours, the min-mode index, the
 * goal's index) is the same entry's in either. */
static void layouts_agree(int w, int h, uint64_t tiles, int mode)
{
	sdb_board goal;
	sdb_board_goal(&goal, w, h, 0);
	sdb_pattern *b, *o;
	cr_assert_eq(sdb_pattern_new(&b, &goal, tiles, mode), 0);
	cr_assert_eq(sdb_pattern_new(&o, &goal, tiles, mode), 0);
	cr_assert_eq(sdb_pattern_layout(o), SDB_LAYOUT_BLOCKS, "a new pattern walks blocks");
	cr_assert_eq(sdb_pattern_set_layout(o, SDB_LAYOUT_ORDERS), 0);
	cr_assert_eq(sdb_pattern_layout(o), SDB_LAYOUT_ORDERS);
	cr_assert_eq(sdb_pattern_set_layout(o, 2), SDB_EINVAL);
	const uint64_t blocks = sdb_pattern_blocks(b), kfact = sdb_pattern_size(b) / blocks;
	sdb_pattern *m;   /* the min-mode numbering's blocks: one per set of cells */
	cr_assert_eq(sdb_pattern_new(&m, &goal, tiles, SDB_BLANK_MIN), 0);
	const uint64_t min_blocks = sdb_pattern_blocks(m);
	sdb_pattern_free(m);
#define TO_ORDERS(i, nb) ((i) % kfact * (nb) + (i) / kfact)
	cr_assert_eq(sdb_pattern_goal_index(o), TO_ORDERS(sdb_pattern_goal_index(b), blocks));
	unsigned seed = 7;
	for (int n = 0; n < 3000; n++) {
		uint8_t cells[SDB_MAX_CELLS];   /* any placement: ranks need no parity */
		for (int c = 0; c < goal.n; c++)
			cells[c] = (uint8_t)c;
		for (int c = goal.n - 1; c > 0; c--) {
			const int d = rand_r(&seed) % (c + 1);
			const uint8_t t = cells[c];
			cells[c] = cells[d];
			cells[d] = t;
		}
		sdb_board s;
		cr_assert_eq(sdb_board_set(&s, w, h, cells), 0);
		const uint64_t i = sdb_pattern_rank(b, &s), j = sdb_pattern_rank(o, &s);
		cr_assert_eq(j, TO_ORDERS(i, blocks), "board %d: %llu against %llu", n,
		             (unsigned long long)j, (unsigned long long)i);
		cr_assert_eq(sdb_pattern_region(o, j), sdb_pattern_region(b, i));
		cr_assert_eq(sdb_pattern_manhattan(o, j), sdb_pattern_manhattan(b, i));
		if (mode == SDB_BLANK_REGION) {
			const uint64_t m = sdb_pattern_min_index(b, i);
			cr_assert_eq(sdb_pattern_min_index(o, j), TO_ORDERS(m, min_blocks));
		}
		uint64_t nb[4 * SDB_MAX_PATTERN], no[4 * SDB_MAX_PATTERN];
		const int count = sdb_pattern_neighbors(b, i, nb);
		cr_assert_eq(sdb_pattern_neighbors(o, j, no), count);
		for (int a = 0; a < count; a++)
			cr_assert_eq(no[a], TO_ORDERS(nb[a], blocks), "board %d, neighbour %d", n, a);
	}
#undef TO_ORDERS
	sdb_pattern_walk walk;
	cr_assert_eq(sdb_pattern_walk_init(&walk, o), SDB_EINVAL, "walks are for builds");
	sdb_pattern_free(b);
	sdb_pattern_free(o);
}

Test(pattern, layouts_number_the_same_entries)
{
	layouts_agree(3, 3, 0x1e, SDB_BLANK_REGION);
	layouts_agree(4, 4, 0x4842, SDB_BLANK_REGION);
	layouts_agree(4, 4, 0xe0, SDB_BLANK_MIN);
	layouts_agree(5, 5, 0x1000106, SDB_BLANK_REGION);
}

/* The layout a stored table has follows the format it was built under. */
Test(pattern, tables_are_stored_in_orders_from_format_6)
{
	sdb_table_info in;
	memset(&in, 0, sizeof in);
	in.kind = SDB_KIND_PATTERN;
	in.format_version = 5;
	cr_assert_eq(sdb_table_layout(&in), SDB_LAYOUT_BLOCKS);
	in.format_version = 6;
	cr_assert_eq(sdb_table_layout(&in), SDB_LAYOUT_ORDERS);
	in.format_version = SDB_FORMAT_VERSION;
	cr_assert_eq(sdb_table_layout(&in), SDB_LAYOUT_ORDERS);
	in.kind = SDB_KIND_FULL;
	cr_assert_eq(sdb_table_layout(&in), SDB_LAYOUT_BLOCKS, "full tables have no blocks");
}

/* slidedb-gen stores a group order by order: every entry of a 6-tile group
 * on 3x5 (720 orders, 11,007 blocks: rows start on both halves of a byte,
 * and the copy's tiles of orders and of blocks have edges inside the table,
 * the last tile of blocks a short one) is where sdb_pattern_of_table() ranks
 * it, with the value a BFS run here in the blocks layout gives it. */
Test(pattern, stored_groups_are_the_bfs_order_by_order, .timeout = 300)
{
	char db[512], *err;
	tk_tmp_path(db, sizeof db, "pattern-3x5.lmdb");
	cr_assert_eq(ck_gen(db, NULL, &err, "pdb 3x5 --partition 1,2,3,4,5,6 --partial -q"), 0,
	             "%s", err);
	free(err);
	sdb_db *h;
	cr_assert_eq(sdb_db_open(&h, db, SDB_RDONLY), 0, "%s", sdb_error_detail());
	cr_assert_eq(sdb_table_count(h), 1);
	const sdb_table *t = sdb_table_at(h, 0);
	const sdb_table_info *in = sdb_table_meta(t);
	cr_assert_eq(in->entry_format, SDB_ENTRY_NIBBLE_MD);
	sdb_pattern *stored, *built;
	cr_assert_eq(sdb_pattern_of_table(&stored, in), 0);
	cr_assert_eq(sdb_pattern_layout(stored), SDB_LAYOUT_ORDERS);
	cr_assert_eq(sdb_pattern_new(&built, &in->goal, in->pattern, in->blank_mode), 0);
	const uint64_t size = sdb_pattern_size(built), blocks = sdb_pattern_blocks(built);
	const uint64_t kfact = size / blocks;
	cr_assert_eq(kfact, 720);
	cr_assert(blocks & 1, "%llu blocks: odd rows start mid-byte", (unsigned long long)blocks);
	cr_assert(blocks % 256, "a short last tile of blocks");
	uint8_t *table = malloc(size);
	cr_assert_not_null(table);
	bfs_space sp;
	bfs_pattern_space(&sp, built);
	bfs_result res;
	cr_assert_eq(bfs_run(&res, table, &sp, 2, NULL, NULL, NULL), 0);
	const uint8_t *data = sdb_table_data(t);
	cr_assert_not_null(data);
	for (uint64_t i = 0; i < size; i++) {
		const uint64_t j = i % kfact * blocks + i / kfact;
		const int value = sdb_pattern_manhattan(stored, j) + 2 * (int)sdb_nibble(data, j);
		if (value != table[i])
			cr_assert_fail("entry %llu (stored at %llu): %d, the BFS says %d",
			               (unsigned long long)i, (unsigned long long)j, value, table[i]);
	}
	free(table);
	sdb_pattern_free(stored);
	sdb_pattern_free(built);
	sdb_db_close(h);
	unlink(db);
}
