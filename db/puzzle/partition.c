/* SPDX-License-Identifier: MIT */
/* Partitions of the tiles into pattern groups, as people type them: the
 * named 15-puzzle partitions or groups of tiles ("1,2,3/4,5,6"), turned into
 * groups of the canonical goal's labels and the spelling of the set's name.
 * The one parser of partition specs (slidedb-gen pdb, the fuzz target). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "puzzle/puzzle.h"

enum { MAX_GROUPS = SDB_MAX_GROUPS };

/* The standard partitions, as tiles of the canonical goal with the blank
 * top-left (Korf's goal: tile t in cell t).
 * The 15-puzzle:
 *    .  1  2  3      7-8:   1-7 (the blank's two rows), 8-15
 *    4  5  6  7      6-6-3: 1 2 3 | 4 5 8 9 12 13 | 6 7 10 11 14 15
 *    8  9 10 11      5-5-5: 1 2 3 6 7 | 4 5 8 9 12 | 10 11 13 14 15
 *   12 13 14 15
 * The 24-puzzle (Korf and Felner 2002, the diagonal mirror of each group is
 * a group of the mirrored partition, which the heuristic also reads):
 *    .  1  2  3  4   6-6-6-6: 1 2 5 6 7 12 | 3 4 8 9 13 14 |
 *    5  6  7  8  9            10 11 15 16 20 21 | 17 18 19 22 23 24
 *   10 11 12 13 14   7-7-7-3: 1 2 5 6 7 10 11 | 3 4 8 9 12 13 14 |
 *   15 16 17 18 19            15 16 17 20 21 22 23 | 18 19 24
 *   20 21 22 23 24   (not its own mirror either: issue #37 measured it maxed
 *                    with 6-6-6-6, bench/RESULTS.md)
 * Three more partitions into groups of 6, for the catalogue 6-6-6-6 + 6-6-6-6b +
 * 6-6-6-6c + 6-6-6-6d maxed (each group a letter; chosen by nodes on Korf's
 * #38 #40 #25 #32 from ten, bench/RESULTS.md "A catalogue of 6-6-6-6 sets"):
 *    6-6-6-6b      6-6-6-6c      6-6-6-6d
 *    . A B B B     . A A B B     . A B B B
 *    A A B B B     A A C C B     A A B B B
 *    A C C D D     A A C C B     A C C C D
 *    A C C D D     D D D C B     A C C C D
 *    A C C D D     D D D C B     A D D D D */
static const struct named {
	const char *name;
	int w, h, ngroups;
	uint64_t groups[4];
} named[] = {
	{ "7-8", 4, 4, 2, { 0x00fe, 0xff00 } },
	{ "6-6-3", 4, 4, 3, { 0x000e, 0x3330, 0xccc0 } },
	{ "5-5-5", 4, 4, 3, { 0x00ce, 0x1330, 0xec00 } },
	{ "6-6-6-6", 5, 5, 4, { 0x10e6, 0x6318, 0x318c00, 0x1ce0000 } },
	{ "6-6-6-6b", 5, 5, 4, { 0x108462, 0x39c, 0x631800, 0x18c6000 } },
	{ "6-6-6-6c", 5, 5, 4, { 0xc66, 0x1084218, 0x843180, 0x738000 } },
	{ "6-6-6-6d", 5, 5, 4, { 0x108462, 0x39c, 0x73800, 0x1e84000 } },
	{ "7-7-7-3", 5, 5, 4, { 0xce6, 0x7318, 0xf38000, 0x10c0000 } },
};

/* Lowest tile of a mask, for ordering groups. */
static int lowest(uint64_t mask)
{
	return __builtin_ctzll(mask);
}

/* A ',' with no tile on one side of it, at character `at` of spec. */
static int empty_tile(const char *spec, int group, int at)
{
	return sdbi_fail(SDB_EINVAL, "--partition '%s': group %d has an empty tile (character %d)",
	                spec, group + 1, at);
}

/* Groups from SPEC, as bit masks of canonical labels (the frame's labels of
 * the user's goal), and the spelling of the name: tiles in order, groups by
 * their smallest tile, so that the same groups typed in another order are
 * the same set. 0, or 1 after printing why. */
/* A named partition of another board: the names that fit this one (any
 * board's 2x2 and 5s, and those made for its size), or its groups. */
static int wrong_board(const char *spec, const struct named *made, const sdb_board *goal)
{
	char fits[96] = "";
	size_t len = 0;
	for (size_t i = 0; i < sizeof named / sizeof *named; i++)
		if (named[i].w == goal->w && named[i].h == goal->h && len < sizeof fits)
			len += (size_t)snprintf(fits + len, sizeof fits - len, "%s, ", named[i].name);
	return sdbi_fail(SDB_EINVAL, "--partition %s is a %dx%d partition; for %dx%d give %s2x2, 5s "
	                "or groups of tiles (1,2,3/4,5,6)", spec, made->w, made->h, goal->w,
	                goal->h, fits);
}

int sdb_partition_parse(sdb_partition *pt, const char *spec, const sdb_board *goal)
{
	const int n = goal->n, rep = sdb_sym_representative(goal->w, goal->h, goal->blank);
	memset(pt, 0, sizeof *pt);
	if (!strcmp(spec, "2x2")) {
		/* squares of 2x2 cells of the canonical goal (the blank's square has
		 * 3 tiles; odd sides end in 2x1 and 1x1): small groups that fit any
		 * board, for heuristic values rather than optimal solving */
		sdb_board canon;
		sdb_board_goal(&canon, goal->w, goal->h, rep);
		const int across = (goal->w + 1) / 2;
		pt->ngroups = across * ((goal->h + 1) / 2);
		for (int c = 0; c < n; c++)
			if (canon.cell[c])
				pt->groups[(c / goal->w / 2) * across + c % goal->w / 2] |= 1ull << canon.cell[c];
		pt->tiles = sdbi_tiles_all(n);
		snprintf(pt->spelling, sizeof pt->spelling, "%s", spec);
		return sdbi_done(SDB_OK);
	}
	if (!strcmp(spec, "5s")) {
		/* groups of five tiles of the canonical goal along pairs of rows:
		 * column by column (top cell, then bottom), the pairs of rows in
		 * turn and back, an odd last row alone, cut every five tiles; mostly
		 * a 2x2 square and a cell beside it. For heuristic values on boards
		 * up to 8x8, where six tiles no longer fit memory. */
		sdb_board canon;
		sdb_board_goal(&canon, goal->w, goal->h, rep);
		int tiles = 0;
		for (int band = 0; 2 * band < goal->h; band++)
			for (int i = 0; i < goal->w; i++) {
				const int x = band % 2 ? goal->w - 1 - i : i;
				for (int y = 2 * band; y < 2 * band + 2 && y < goal->h; y++) {
					const int t = canon.cell[y * goal->w + x];
					if (t)
						pt->groups[tiles++ / 5] |= 1ull << t;
				}
			}
		pt->ngroups = (tiles + 4) / 5;
		pt->tiles = sdbi_tiles_all(n);
		snprintf(pt->spelling, sizeof pt->spelling, "%s", spec);
		return sdbi_done(SDB_OK);
	}
	for (size_t i = 0; i < sizeof named / sizeof *named; i++)
		if (!strcmp(spec, named[i].name)) {
			if (goal->w != named[i].w || goal->h != named[i].h)
				return wrong_board(spec, &named[i], goal);
			pt->ngroups = named[i].ngroups;
			memcpy(pt->groups, named[i].groups, sizeof named[i].groups);
			pt->tiles = sdbi_tiles_all(n);
			snprintf(pt->spelling, sizeof pt->spelling, "%s", spec);
			return sdbi_done(SDB_OK);
		}
	if (!spec[strspn(spec, " ")])
		return sdbi_fail(SDB_EINVAL, "--partition is empty: give groups of tiles (1,2,3/4,5,6) "
		                "or a name");
	uint64_t user[MAX_GROUPS] = { 0 };   /* the groups in the user's tiles */
	int comma = 0;   /* a ',' waits for its tile: "1,,2" and "1,/2" lack one */
	for (const char *p = spec;; p++) {
		const int at = (int)(p - spec) + 1;   /* the spot a message names */
		if (*p == '/' || *p == '\0') {
			if (comma)
				return empty_tile(spec, pt->ngroups, at);
			if (!user[pt->ngroups])
				return *p ? sdbi_fail(SDB_EINVAL, "--partition '%s': group %d is empty (character %d)",
				                      spec, pt->ngroups + 1, at)
				          : sdbi_fail(SDB_EINVAL, "--partition '%s': group %d is empty (at its end)",
				                      spec, pt->ngroups + 1);
			if (sdbi_popcount64(user[pt->ngroups]) > SDB_MAX_PATTERN)
				return sdbi_fail(SDB_EINVAL, "--partition '%s': a group has more than %d tiles", spec,
				                SDB_MAX_PATTERN);
			pt->ngroups++;
			if (!*p)
				break;
			if (pt->ngroups == MAX_GROUPS)
				return sdbi_fail(SDB_EINVAL, "--partition '%s': too many groups", spec);
			continue;
		}
		if (*p == ' ')
			continue;
		if (*p == ',') {
			if (comma || !user[pt->ngroups])
				return empty_tile(spec, pt->ngroups, at);
			comma = 1;
			continue;
		}
		char *end;
		long t = strtol(p, &end, 10);
		if (end == p || t < 1 || t >= n)
			return sdbi_fail(SDB_EINVAL, "--partition '%s': expected tiles 1..%d, groups "
			                "separated by '/' (or 5-5-5, 6-6-3, 7-8 on 4x4, 6-6-6-6[b-d], 7-7-7-3 "
			                "on 5x5, 2x2 or 5s on any)", spec, n - 1);
		if (pt->tiles >> t & 1)
			return sdbi_fail(SDB_EINVAL, "--partition '%s': tile %ld is in two groups", spec, t);
		pt->tiles |= 1ull << t;
		user[pt->ngroups] |= 1ull << t;
		comma = 0;
		p = end - 1;
	}
	/* The name spells each group in the tiles of the class's ordered goal
	 * (tiles in order; the blank last when the standard goal is in the
	 * class, else in the class's first cell): the tiles as typed for that
	 * goal, and one name per set whatever goal the groups were typed for. */
	sdb_board ordered;
	sdb_frame_goal(&ordered, goal->w, goal->h, rep);
	sdb_frame user_frame, ordered_frame;
	sdb_frame_init(&user_frame, goal, rep);
	sdb_frame_init(&ordered_frame, &ordered, rep);
	uint8_t ordered_tile[SDB_MAX_CELLS];   /* canonical label -> tile of the ordered goal */
	for (int t = 1; t < n; t++)
		ordered_tile[ordered_frame.label[t]] = (uint8_t)t;
	uint64_t spelled[MAX_GROUPS] = { 0 };
	for (int g = 0; g < pt->ngroups; g++)
		for (int t = 1; t < n; t++)
			if (user[g] >> t & 1) {
				pt->groups[g] |= 1ull << user_frame.label[t];
				spelled[g] |= 1ull << ordered_tile[user_frame.label[t]];
			}
	for (int a = 1; a < pt->ngroups; a++)   /* by smallest tile: a handful of groups */
		for (int b = a; b > 0 && lowest(spelled[b]) < lowest(spelled[b - 1]); b--) {
			uint64_t tmp = spelled[b];
			spelled[b] = spelled[b - 1];
			spelled[b - 1] = tmp;
			tmp = pt->groups[b];
			pt->groups[b] = pt->groups[b - 1];
			pt->groups[b - 1] = tmp;
		}
	size_t len = 0;
	for (int g = 0; g < pt->ngroups; g++)
		for (int t = 1; t < n; t++)
			if (spelled[g] >> t & 1) {
				int first = t == lowest(spelled[g]);
				if (len + 5 < sizeof pt->spelling)
					len += (size_t)snprintf(pt->spelling + len, sizeof pt->spelling - len,
					                        "%s%d", first ? (g ? "_" : "") : ",", t);
				else
					pt->truncated = 1;
			}
	return sdbi_done(SDB_OK);
}

void sdb_partition_default(char *spec, size_t cap, int w, int h)
{
	const int n = w * h;
	if ((w == 4 && h == 4) || (w == 5 && h == 5)) {
		snprintf(spec, cap, w == 4 ? "6-6-3" : "6-6-6-6");
		return;
	}
	if (n > 25) {
		snprintf(spec, cap, "2x2");
		return;
	}
	/* groups of 7 tiles up to 16 cells, of 6 past that: tables of at most
	 * 24 cells choose 6 times 6! entries (97 million) */
	const int size = n <= 16 ? 7 : 6;
	size_t len = 0;
	spec[0] = '\0';
	for (int t = 1; t < n && len + 4 < cap; t++)
		len += (size_t)snprintf(spec + len, cap - len, "%s%d", t == 1 ? "" : (t - 1) % size ? ","
		                        : "/", t);
}
