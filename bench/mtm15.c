/* SPDX-License-Identifier: MIT */
/* The 15-puzzle in the multi-tile metric (issue #38): a measurement of
 * admissible heuristics, before one is built into the library.
 *
 *   mtm15 MODE GROUPS [FILE [FIRST [COUNT]]]
 *
 * MODE is how a slide's cost is shared between the groups of a partition
 * (GROUPS, e.g. 1,2,3,6,7/4,5,8,9,12/10,11,13,14,15, tiles of the goal
 * 0 1 2 ... 15, blank top left):
 *   split  each tile a slide of k cells moves pays 1/k of the move: a group
 *          pays (its tiles in the slide)/k; the groups' sums add up to one
 *          move at most, so their total, rounded up, is admissible
 *   first  the slide is paid by the group of the tile next to the blank
 *          (the first it moves), the others ride free: admissible summed
 *   any    a group pays 1 for any slide that moves one of its tiles: each
 *          table alone is admissible, so only their maximum is
 * and "+mirror" (e.g. split+mirror) also takes the same tables on the
 * position reflected about the main diagonal, and the larger bound.
 *
 * Each group's table is a shortest-path search (a bucket queue: costs 0 to
 * 6 sixths of a move) over the group's tiles and the blank's cell, from the
 * goal, in sixths of a move. Then IDA* on Korf's instances (FILE, default
 * korf100.txt of the benchmark data; FIRST, COUNT a slice): per instance the
 * MTM length, the STM length the file gives, the nodes and the seconds, and
 * a check that ceil(STM / 3) <= MTM <= STM. Moves: a slide of the blank of
 * 1 to 3 cells; after a slide, only slides across it (one the same way or
 * back is never on a shortest path: two slides along one line are at most
 * one). One thread; figures, not answers: nothing here is a library API. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { N = 16, W = 4, MAXG = 6, MAXGROUPS = 8, INF = 0xffff };
enum mode { SPLIT, FIRST, ANY };

static const int dx[4] = { 0, 0, -1, 1 }, dy[4] = { -1, 1, 0, 0 };   /* u d l r (the blank) */

typedef struct group {
	int n, tile[MAXG];
	uint64_t size;
	uint16_t *dist;   /* sixths of a move (ANY: whole moves) */
} group;

static int ngroups, mode, mirror;
static const int refl_cell[N] = { 0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15 };
static group G[MAXGROUPS];
static int group_of[N];   /* tile -> group, -1 for the blank */

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The index of cells c[0..m) (distinct), m = group size + 1 (the blank last). */
static uint64_t index_of(const int *c, int m)
{
	unsigned used = 0;
	uint64_t idx = 0;
	for (int i = 0; i < m; i++) {
		const int r = c[i] - __builtin_popcount(used & ((1u << c[i]) - 1));
		idx = idx * (uint64_t)(N - i) + (uint64_t)r;
		used |= 1u << c[i];
	}
	return idx;
}

static void cells_of(int *c, int m, uint64_t idx)
{
	int r[MAXG + 1];
	for (int i = m - 1; i >= 0; i--) {
		r[i] = (int)(idx % (uint64_t)(N - i));
		idx /= (uint64_t)(N - i);
	}
	unsigned used = 0;
	for (int i = 0; i < m; i++) {
		int cell = 0;
		for (int k = r[i];; cell++)
			if (!(used >> cell & 1) && k-- == 0)
				break;
		c[i] = cell;
		used |= 1u << cell;
	}
}

/* A growing list of indices: one bucket of the queue. */
typedef struct list {
	uint32_t *v;
	size_t n, cap;
} list;

static void push(list *l, uint32_t v)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 1024;
		l->v = realloc(l->v, l->cap * sizeof *l->v);
		if (!l->v) {
			fprintf(stderr, "mtm15: out of memory\n");
			exit(1);
		}
	}
	l->v[l->n++] = v;
}

/* The group's table: from the goal backwards. A slide of the blank from
 * cell b, k cells in direction d, moves the tiles of cells b+d .. b+kd one
 * cell back; going backwards from a state, the slide that led to it came
 * from the other side: its cost is the forward slide's. */
static void build(group *g)
{
	const int m = g->n + 1;
	g->size = 1;
	for (int i = 0; i < m; i++)
		g->size *= (uint64_t)(N - i);
	g->dist = malloc(g->size * sizeof *g->dist);
	if (!g->dist) {
		fprintf(stderr, "mtm15: out of memory\n");
		exit(1);
	}
	memset(g->dist, 0xff, g->size * sizeof *g->dist);
	int c[MAXG + 1];
	for (int i = 0; i < g->n; i++)
		c[i] = g->tile[i];
	c[g->n] = 0;
	list q[8] = { { 0 } };
	const uint64_t start = index_of(c, m);
	g->dist[start] = 0;
	push(&q[0], (uint32_t)start);
	size_t pending = 1;
	for (unsigned d = 0; pending; d++) {
		list *l = &q[d % 8];
		for (size_t at = 0; at < l->n; at++) {   /* (0-cost pushes land in l itself) */
			const uint64_t s = l->v[at];
			pending--;
			if (g->dist[s] != d)
				continue;
			cells_of(c, m, s);
			int owner[N];
			for (int i = 0; i < N; i++)
				owner[i] = -1;
			for (int i = 0; i < g->n; i++)
				owner[c[i]] = i;
			const int b = c[g->n];
			/* The states one slide before: the blank k cells away in
			 * direction dir, the tiles between moved back one cell each.
			 * The slide from there to here moved those tiles toward the
			 * far cell; its first tile (next to that state's blank) is the
			 * one now in the far cell. */
			for (int dir = 0; dir < 4; dir++) {
				int x = b % W, y = b / W, nc[MAXG + 1];
				memcpy(nc, c, sizeof nc);
				int inside = 0, last = 0;
				for (int k = 1;; k++) {
					x += dx[dir];
					y += dy[dir];
					if (x < 0 || y < 0 || x >= W || y >= W)
						break;
					const int cell = y * W + x, prev = cell - (dy[dir] * W + dx[dir]);
					/* the tile in `cell` (of the group or not) moves to prev */
					if (owner[cell] >= 0) {
						nc[owner[cell]] = prev;
						inside++;
					}
					last = owner[cell] >= 0;
					nc[g->n] = cell;
					unsigned cost;
					if (mode == SPLIT)
						cost = (unsigned)(6 * inside / k);
					else if (mode == FIRST)
						cost = (unsigned)last;
					else
						cost = inside > 0;
					const uint64_t t = index_of(nc, m);
					const unsigned nd = d + cost;
					if (nd < g->dist[t]) {
						g->dist[t] = (uint16_t)nd;
						push(&q[nd % 8], (uint32_t)t);
						pending++;
					}
				}
			}
		}
		l->n = 0;
	}
	for (int i = 0; i < 8; i++)
		free(q[i].v);
}

/* --- Walking distance in MTM: rows only ---
 *
 * The position seen as a 4 x 4 matrix of counts, M[r][g] the tiles in row
 * r whose goal row is g, and the blank's row. A vertical slide of k cells
 * moves one tile of each of the k rows it crosses one row toward the
 * blank's: any class present in each of those rows may be the one (the
 * matrix forgets the columns), so the fewest slides in this relaxation
 * bound the vertical slides of any solution. The columns are the same on
 * the position reflected about the diagonal, and each slide is vertical or
 * horizontal: the two add up (Takahashi's walking distance, in MTM). */
typedef struct wd_table {
	uint64_t *key;
	uint8_t *dist;
	uint64_t cap, n;
} wd_table;

static wd_table WD;

static uint64_t wd_key(const int m[4][4], int blank_row)
{
	uint64_t k = (uint64_t)blank_row;
	for (int r = 0; r < 4; r++)
		for (int g = 0; g < 4; g++)
			k = k * 5 + (uint64_t)m[r][g];
	return k + 1;   /* 0 marks an empty slot */
}

static uint64_t wd_slot(uint64_t key)
{
	uint64_t i = (key * 0x9E3779B97F4A7C15ull) >> 20 & (WD.cap - 1);
	while (WD.key[i] && WD.key[i] != key)
		i = (i + 1) & (WD.cap - 1);
	return i;
}

static void wd_decode(uint64_t key, int m[4][4], int *blank_row)
{
	key--;
	for (int r = 3; r >= 0; r--)
		for (int g = 3; g >= 0; g--) {
			m[r][g] = (int)(key % 5);
			key /= 5;
		}
	*blank_row = (int)key;
}

/* Every way to shift one tile of each row from r + s to r + s*k toward r. */
static void wd_expand(const int m0[4][4], int b, int s, int k, int depth, int m[4][4],
                      uint64_t *out, int *nout)
{
	if (depth > k) {
		out[(*nout)++] = wd_key(m, b + s * k);
		return;
	}
	const int from = b + s * depth, to = from - s;
	for (int g = 0; g < 4; g++) {
		if (m[from][g] == 0)
			continue;
		m[from][g]--;
		m[to][g]++;
		wd_expand(m0, b, s, k, depth + 1, m, out, nout);
		m[to][g]--;
		m[from][g]++;
	}
}

static void wd_build(void)
{
	WD.cap = 1 << 20;
	WD.key = calloc(WD.cap, sizeof *WD.key);
	WD.dist = malloc(WD.cap);
	uint64_t *queue = malloc(WD.cap * sizeof *queue), head = 0, tail = 0;
	if (!WD.key || !WD.dist || !queue) {
		fprintf(stderr, "mtm15: out of memory\n");
		exit(1);
	}
	int m[4][4] = { { 3, 0, 0, 0 }, { 0, 4, 0, 0 }, { 0, 0, 4, 0 }, { 0, 0, 0, 4 } };
	uint64_t k0 = wd_key(m, 0), i0 = wd_slot(k0);
	WD.key[i0] = k0;
	WD.dist[i0] = 0;
	queue[tail++] = k0;
	static uint64_t out[4096];
	while (head < tail) {
		const uint64_t key = queue[head++];
		const unsigned d = WD.dist[wd_slot(key)];
		int b, mm[4][4];
		wd_decode(key, mm, &b);
		for (int s = -1; s <= 1; s += 2)
			for (int k = 1; b + s * k >= 0 && b + s * k < 4; k++) {
				int n = 0;
				wd_expand(mm, b, s, k, 1, mm, out, &n);
				for (int i = 0; i < n; i++) {
					const uint64_t j = wd_slot(out[i]);
					if (WD.key[j])
						continue;
					WD.key[j] = out[i];
					WD.dist[j] = (uint8_t)(d + 1);
					queue[tail++] = out[i];
					WD.n++;
				}
			}
	}
	free(queue);
}

/* The walking distance of tiles at pos (tile -> cell): rows, then columns. */
static unsigned wd_of(const int *pos)
{
	unsigned sum = 0;
	for (int pass = 0; pass < 2; pass++) {
		int m[4][4] = { { 0 } }, b = 0;
		for (int t = 0; t < N; t++) {
			const int cell = pass ? refl_cell[pos[t]] : pos[t], goal = pass ? refl_cell[t] : t;
			if (t == 0)
				b = cell / W;
			else
				m[cell / W][goal / W]++;
		}
		const uint64_t j = wd_slot(wd_key(m, b));
		sum += WD.key[j] ? WD.dist[j] : 0;
	}
	return sum;
}

static int use_wd;

/* --- IDA* --- */

typedef struct node {
	int cell[N];    /* cell -> tile */
	int pos[N];     /* tile -> cell */
} node;

static unsigned group_value(const group *g, const int *pos)
{
	int c[MAXG + 1];
	for (int i = 0; i < g->n; i++)
		c[i] = pos[g->tile[i]];
	c[g->n] = pos[0];
	return g->dist[index_of(c, g->n + 1)];
}

static unsigned bound_of(const int *pos)
{
	unsigned sum = 0, best = 0;
	for (int i = 0; i < ngroups; i++) {
		const unsigned v = group_value(&G[i], pos);
		sum += v;
		best = v > best ? v : best;
	}
	return mode == SPLIT ? (sum + 5) / 6 : mode == FIRST ? sum : best;
}

static unsigned h_of(const node *s)
{
	unsigned h = ngroups ? bound_of(s->pos) : 0;
	if (use_wd) {
		const unsigned w = wd_of(s->pos);
		h = w > h ? w : h;
	}
	if (mirror) {
		/* the position reflected about the main diagonal: tile t at cell p
		 * becomes tile refl(t) at cell refl(p); the goal maps to itself */
		int rp[N];
		for (int t = 0; t < N; t++)
			rp[refl_cell[t]] = refl_cell[s->pos[t]];
		const unsigned hm = ngroups ? bound_of(rp) : 0;
		h = hm > h ? hm : h;
	}
	return h;
}

static uint64_t nodes;

/* Depth-first below the bound; 1 when the goal was reached. */
static int dfs(node *s, unsigned g, unsigned bound, int last, unsigned *next)
{
	const unsigned h = h_of(s);
	if (g + h > bound) {
		if (g + h < *next)
			*next = g + h;
		return 0;
	}
	if (h == 0) {
		int solved = 1;
		for (int c = 0; c < N && solved; c++)
			solved = s->cell[c] == c;
		if (solved)
			return 1;
	}
	nodes++;
	for (int dir = 0; dir < 4; dir++) {
		if (last >= 0 && (dir >> 1) == (last >> 1))
			continue;   /* only slides across the last one */
		const int b = s->pos[0];
		int x = b % W, y = b / W, cur = b, k = 0, moved[3];
		for (;;) {
			x += dx[dir];
			y += dy[dir];
			if (x < 0 || y < 0 || x >= W || y >= W)
				break;
			const int cell = y * W + x, t = s->cell[cell];
			/* slide one more cell: the tile in `cell` moves to `cur` */
			s->cell[cur] = t;
			s->pos[t] = cur;
			s->cell[cell] = 0;
			s->pos[0] = cell;
			moved[k++] = cell;
			cur = cell;
			if (dfs(s, g + 1, bound, dir, next))
				return 1;
		}
		/* undo the whole slide, from the far end back */
		for (int i = k - 1; i >= 0; i--) {
			const int cell = moved[i], to = i ? moved[i - 1] : b, t = s->cell[to];
			s->cell[cell] = t;
			s->pos[t] = cell;
			s->cell[to] = 0;
			s->pos[0] = to;
		}
	}
	return 0;
}

static int solve(const int *cells, uint64_t *count)
{
	node s;
	for (int c = 0; c < N; c++) {
		s.cell[c] = cells[c];
		s.pos[cells[c]] = c;
	}
	nodes = 0;
	unsigned bound = h_of(&s);
	for (;;) {
		unsigned next = 1000;
		if (dfs(&s, 0, bound, -1, &next)) {
			*count = nodes;
			return (int)bound;
		}
		bound = next;
	}
}

static void parse_groups(const char *spec)
{
	for (int t = 0; t < N; t++)
		group_of[t] = -1;
	const char *p = spec;
	while (*p && ngroups < MAXGROUPS) {
		group *g = &G[ngroups];
		while (*p && *p != '/') {
			char *end;
			const long t = strtol(p, &end, 10);
			if (end == p || t < 1 || t >= N || group_of[t] >= 0 || g->n == MAXG) {
				fprintf(stderr, "mtm15: bad groups '%s' (tiles 1..15, each once, at most %d "
				        "a group)\n", spec, MAXG);
				exit(2);
			}
			group_of[t] = ngroups;
			g->tile[g->n++] = (int)t;
			p = *end == ',' ? end + 1 : end;
		}
		ngroups++;
		if (*p == '/')
			p++;
	}
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: mtm15 split|first|any[+mirror] GROUPS [FILE [FIRST [COUNT]]]\n");
		return 2;
	}
	mirror = strstr(argv[1], "+mirror") != NULL;
	use_wd = strstr(argv[1], "+wd") != NULL || !strncmp(argv[1], "wd", 2);
	mode = !strncmp(argv[1], "split", 5) ? SPLIT : !strncmp(argv[1], "first", 5) ? FIRST
	       : !strncmp(argv[1], "any", 3) || !strncmp(argv[1], "wd", 2) ? ANY : -1;
	if (mode < 0) {
		fprintf(stderr, "mtm15: mode '%s' is not split, first or any\n", argv[1]);
		return 2;
	}
	if (strcmp(argv[2], "-"))   /* "-": no groups (wd alone) */
		parse_groups(argv[2]);
	if (use_wd)
		wd_build();
	const char *file = argc > 3 ? argv[3] : "korf100.txt";
	const int from = argc > 4 ? atoi(argv[4]) : 1, count = argc > 5 ? atoi(argv[5]) : 100;
	const int only_h = argc > 6 && !strcmp(argv[6], "h0");   /* the bounds, no search */
	double t0 = now();
	uint64_t bytes = 0;
	for (int i = 0; i < ngroups; i++) {
		build(&G[i]);
		bytes += G[i].size * sizeof *G[i].dist;
	}
	printf("# mtm15 %s %s: tables %.1f MB in %.2f s\n", argv[1], argv[2], bytes / 1e6, now() - t0);
	FILE *f = fopen(file, "r");
	if (!f) {
		perror(file);
		return 1;
	}
	char line[512];
	int k = 0, done = 0, bad = 0;
	uint64_t all_nodes = 0;
	double all_s = 0;
	unsigned sum_h = 0, sum_len = 0;
	printf("# instance  mtm  stm  h0  nodes  seconds\n");
	while (fgets(line, sizeof line, f) && done < count) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (++k < from)
			continue;
		int cells[N], stm = -1, n = 0;
		char *p = line;
		for (; n < N; n++) {
			char *end;
			cells[n] = (int)strtol(p, &end, 10);
			p = end;
		}
		stm = (int)strtol(p, NULL, 10);
		node s;
		for (int c = 0; c < N; c++) {
			s.cell[c] = cells[c];
			s.pos[cells[c]] = c;
		}
		const unsigned h0 = h_of(&s);
		if (only_h) {
			sum_h += h0;
			done++;
			continue;
		}
		uint64_t used;
		const double t = now();
		const int len = solve(cells, &used);
		const double secs = now() - t;
		const int ok = len >= (stm + 2) / 3 && len <= stm;
		bad += !ok;
		printf("%d %d %d %u %llu %.3f%s\n", k, len, stm, h0, (unsigned long long)used, secs,
		       ok ? "" : "  OUT OF BOUNDS");
		fflush(stdout);
		all_nodes += used;
		all_s += secs;
		sum_h += h0;
		sum_len += (unsigned)len;
		done++;
	}
	fclose(f);
	printf("# %d instances: %llu nodes, %.1f s, mean h0 %.2f, mean length %.2f, %d out of "
	       "bounds\n", done, (unsigned long long)all_nodes, all_s, done ? (double)sum_h / done : 0,
	       done ? (double)sum_len / done : 0, bad);
	return bad ? 1 : 0;
}
