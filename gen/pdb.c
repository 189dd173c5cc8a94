/* slidedb-gen pdb: additive pattern-database sets.
 *
 * A set is a partition of the tiles into disjoint groups; each group's table
 * counts only the moves of its own tiles, so the sum over the groups never
 * exceeds the true distance. Sets are built for the canonical goal of the
 * goal's blank class (tiles in order, blank in the class's first cell) and
 * serve every goal of that class through relabelling and symmetry. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

enum { MAX_GROUPS = SDB_MAX_CELLS };

/* The standard partitions of the 15-puzzle, as tiles of the canonical goal
 * with the blank top-left (Korf's goal: tile t in cell t):
 *    .  1  2  3      7-8:   1-7 (the blank's two rows), 8-15
 *    4  5  6  7      6-6-3: 1 2 3 | 4 5 8 9 12 13 | 6 7 10 11 14 15
 *    8  9 10 11      5-5-5: 1 2 3 6 7 | 4 5 8 9 12 | 10 11 13 14 15
 *   12 13 14 15 */
static const struct named {
	const char *name;
	int ngroups;
	uint32_t groups[3];
} named[] = {
	{ "7-8", 2, { 0x00fe, 0xff00 } },
	{ "6-6-3", 3, { 0x000e, 0x3330, 0xccc0 } },
	{ "5-5-5", 3, { 0x00ce, 0x1330, 0xec00 } },
};

/* Labels of the canonical frame: tile t of goal is tile label[t] there. */
static void canonical_labels(uint8_t *label, const sdb_board *goal, int rep)
{
	int s = 0;
	while (sdb_sym_cell(goal->w, goal->h, s, goal->blank) != rep)
		s++;
	sdb_board g;
	sdb_sym_board(&g, goal, s);
	for (int c = 0, next = 1; c < g.n; c++)
		if (g.cell[c])
			label[g.cell[c]] = (uint8_t)next++;
	label[0] = 0;
}

/* Groups from SPEC, as bit masks of canonical labels. Returns the count, or
 * -1 after printing why. */
static int parse_partition(uint32_t *groups, char *setname, size_t cap, const options *o,
                           const sdb_board *goal, int rep)
{
	const char *spec = o->partition;
	int n = o->w * o->h;
	for (size_t i = 0; i < sizeof named / sizeof *named; i++)
		if (!strcmp(spec, named[i].name)) {
			if (n != 16) {
				fprintf(stderr, "%s: --partition %s is a 4x4 partition; give the groups of "
				        "%dx%d explicitly, e.g. 1,2,3/4,5,6\n", prog, spec, o->w, o->h);
				return -1;
			}
			memcpy(groups, named[i].groups, sizeof named[i].groups);
			snprintf(setname, cap, "pdb-%dx%d-b%d-%s", o->w, o->h, rep, spec);
			return named[i].ngroups;
		}
	uint8_t label[SDB_MAX_CELLS];
	canonical_labels(label, goal, rep);
	int ngroups = 0;
	uint32_t used = 0;
	groups[0] = 0;
	int len = snprintf(setname, cap, "pdb-%dx%d-b%d-", o->w, o->h, rep);
	for (const char *p = spec;; p++) {
		if (*p == '/' || *p == '\0') {
			if (!groups[ngroups]) {
				fprintf(stderr, "%s: --partition '%s': empty group\n", prog, spec);
				return -1;
			}
			if (__builtin_popcount(groups[ngroups]) > SDB_MAX_PATTERN) {
				fprintf(stderr, "%s: --partition '%s': a group has more than %d tiles\n", prog,
				        spec, SDB_MAX_PATTERN);
				return -1;
			}
			ngroups++;
			if (!*p)
				break;
			if (ngroups == MAX_GROUPS) {
				fprintf(stderr, "%s: --partition '%s': too many groups\n", prog, spec);
				return -1;
			}
			groups[ngroups] = 0;
			continue;
		}
		if (*p == ',' || *p == ' ')
			continue;
		char *end;
		long t = strtol(p, &end, 10);
		if (end == p || t < 1 || t >= n) {
			fprintf(stderr, "%s: --partition '%s': expected tiles 1..%d, groups separated "
			        "by '/' (or 5-5-5, 6-6-3, 7-8 on 4x4)\n", prog, spec, n - 1);
			return -1;
		}
		if (used >> t & 1) {
			fprintf(stderr, "%s: --partition '%s': tile %ld is in two groups\n", prog, spec, t);
			return -1;
		}
		used |= 1u << t;
		groups[ngroups] |= 1u << label[t];
		p = end - 1;
	}
	/* The name lists the canonical labels in hex, group by group; when that
	 * is too long (many small groups), a checksum of the groups stands in. */
	char full[4 * SDB_MAX_CELLS];
	int flen = 0;
	for (int g = 0; g < ngroups; g++) {
		for (int t = 1; t < n; t++)
			if (groups[g] >> t & 1)
				full[flen++] = "0123456789abcdef"[t];
		full[flen++] = g + 1 < ngroups ? '-' : '\0';
	}
	uint32_t hash = 2166136261u;   /* FNV-1a */
	for (const char *c = full; *c; c++)
		hash = (hash ^ (uint8_t)*c) * 16777619u;
	if ((size_t)len + strlen(full) + 1 <= cap)
		strcpy(setname + len, full);
	else
		snprintf(setname + len, cap - (size_t)len, "x%08x", hash);
	return ngroups;
}

/* The minimum over the blank's regions, folded in place: the min-mode index
 * of an entry is never above its region-mode index, and each placement's
 * first region comes first. */
static void fold_min(uint8_t *table, const sdb_pattern *p)
{
	for (uint64_t i = 0; i < sdb_pattern_size(p); i++) {
		uint64_t j = sdb_pattern_min_index(p, i);
		if (sdb_pattern_region(p, i) == 0 || table[i] < table[j])
			table[j] = table[i];
	}
}

/* Counts per distance of a one-byte table, unreached entries left out. */
static void count_values(sdb_table_info *info, const uint8_t *table)
{
	sdb_table_recount(info->counts, info, table);
	info->max_distance = 0;
	for (int d = 0; d < SDB_MAX_DISTANCE; d++)
		if (info->counts[d])
			info->max_distance = d;
}

/* Turn each entry of blocks [lo, hi) into (value - Manhattan) / 2 in place;
 * false (the table unchanged) if one does not fit in 4 bits. */
static int to_excess(uint8_t *table, const sdb_pattern *p, uint64_t lo, uint64_t hi, uint8_t *md)
{
	uint64_t kfact = sdb_pattern_size(p) / sdb_pattern_blocks(p);
	for (uint64_t b = lo; b < hi; b++) {
		uint8_t *e = table + b * kfact;
		sdb_pattern_block_manhattan(p, b, md);
		for (uint64_t i = 0; i < kfact; i++)
			if (e[i] < md[i] || (e[i] - md[i]) % 2 || (e[i] - md[i]) / 2 > 15) {
				for (uint64_t u = lo; u < b; u++) {   /* undo */
					sdb_pattern_block_manhattan(p, u, md);
					for (uint64_t x = 0; x < kfact; x++)
						table[u * kfact + x] = (uint8_t)(md[x] + 2 * table[u * kfact + x]);
				}
				return 0;
			}
		for (uint64_t i = 0; i < kfact; i++)
			e[i] = (uint8_t)((e[i] - md[i]) / 2);
	}
	return 1;
}

/* Pack into nibbles in place: each entry becomes (value - Manhattan) / 2,
 * two to a byte. Returns the packed size, or 0 (table unchanged) when an
 * entry does not fit in 4 bits. */
static uint64_t pack_nibbles(uint8_t *table, uint64_t n, const sdb_pattern *p, int threads)
{
	const uint64_t blocks = sdb_pattern_blocks(p), slices = 256;
	uint8_t ok[256];
#pragma omp parallel num_threads(threads)
	{
		uint8_t *md = malloc(n / blocks);
#pragma omp for schedule(dynamic, 1)
		for (uint64_t s = 0; s < slices; s++)
			ok[s] = md && to_excess(table, p, blocks * s / slices, blocks * (s + 1) / slices, md);
		free(md);
	}
	int fits = 1;
	for (uint64_t s = 0; s < slices; s++)
		fits &= ok[s];
	if (!fits) {   /* put back the slices that were converted */
		uint8_t *md = malloc(n / blocks);
		for (uint64_t s = 0; s < slices && md; s++)
			for (uint64_t b = blocks * s / slices; ok[s] && b < blocks * (s + 1) / slices; b++) {
				uint64_t kfact = n / blocks;
				sdb_pattern_block_manhattan(p, b, md);
				for (uint64_t x = 0; x < kfact; x++)
					table[b * kfact + x] = (uint8_t)(md[x] + 2 * table[b * kfact + x]);
			}
		free(md);
		return 0;
	}
	for (uint64_t i = 0; i < n; i += 2)   /* in order: byte i/2 is read before written */
		table[i / 2] = (uint8_t)(table[i] | (i + 1 < n ? table[i + 1] << 4 : 0));
	return (n + 1) / 2;
}

static int build_group(run *r, const sdb_board *canon, const char *setname, uint32_t tiles,
                       int group, int ngroups, int mode)
{
	sdb_pattern *p = NULL, *compact = NULL;
	uint8_t *work = NULL, *data;
	char name[SDB_NAME_MAX];
	snprintf(name, sizeof name, "%s/g%u", setname, (unsigned char)group);
	int err = sdb_pattern_new(&p, canon, tiles, SDB_BLANK_REGION);
	if (!err && mode == SDB_BLANK_MIN)
		err = sdb_pattern_new(&compact, canon, tiles, SDB_BLANK_MIN);
	if (err) {
		fprintf(stderr, "%s: %s\n", prog, sdb_errdetail());
		goto done;
	}
	/* The search runs in a working table of its own; the stored table, packed,
	 * is reserved only once the working one has shrunk to it. */
	sdb_table_info info;
	table_info_init(&info, name, SDB_KIND_PATTERN, SDB_ENTRY_DIST8, canon, sdb_pattern_size(p));
	snprintf(info.set, sizeof info.set, "%s", setname);
	info.pattern = tiles;
	info.blank_mode = mode;
	info.group = group;
	info.ngroups = ngroups;
	if (!(work = malloc(info.states))) {
		fprintf(stderr, "%s: %s: out of memory for %llu entries\n", prog, name,
		        (unsigned long long)info.states);
		err = SDB_ENOMEM;
		goto done;
	}
	bfs_space space;
	bfs_pattern_space(&space, p);
	if ((err = run_bfs(r, &info, work, &space)))
		goto done;
	const sdb_pattern *final = p;
	if (compact) {
		fold_min(work, p);
		final = compact;
		info.states = sdb_pattern_size(compact);
	}
	count_values(&info, work);
	uint64_t bytes = pack_nibbles(work, info.states, final, r->o->threads);
	if (bytes) {
		info.entry_format = SDB_ENTRY_NIBBLE_MD;
		uint8_t *smaller = realloc(work, bytes);   /* give the rest back before reserving */
		if (smaller)
			work = smaller;
	} else {
		bytes = info.states;
	}
	if ((err = sdb_writer_reserve(r->wr, &data, name, bytes))) {
		fprintf(stderr, "%s: %s\n", prog, sdb_errdetail());
		goto done;
	}
	memcpy(data, work, bytes);
	free(work);
	work = NULL;
	err = run_put(r, &info);
done:
	free(work);
	sdb_pattern_free(p);
	sdb_pattern_free(compact);
	return err;
}

int cmd_pdb(const options *o)
{
	if (!o->partition)
		return fail_usage("%s", "pdb: --partition SPEC is required (5-5-5, 6-6-3, 7-8 or "
		                        "groups like 1,2,3/4,5,6)");
	int mode = SDB_BLANK_REGION;
	if (o->blank && !strcmp(o->blank, "min"))
		mode = SDB_BLANK_MIN;
	else if (o->blank && strcmp(o->blank, "region"))
		return fail_usage("--blank '%s': expected region or min", o->blank);
	sdb_board goal, canon;
	if (parse_goal(&goal, o))
		return 1;
	int rep = sdb_sym_representative(o->w, o->h, goal.blank);
	sdb_board_goal(&canon, o->w, o->h, rep);
	uint32_t groups[MAX_GROUPS];
	char setname[SDB_NAME_MAX - 8];   /* room for "/gN" and "-min" */
	int ngroups = parse_partition(groups, setname, sizeof setname - 4, o, &goal, rep);
	if (ngroups < 0)
		return 1;
	if (mode == SDB_BLANK_MIN)
		strcat(setname, "-min");
	run r;
	if (run_begin(&r, o))
		return 1;
	int err = 0;
	for (int g = 0; g < ngroups && !err; g++)
		err = build_group(&r, &canon, setname, groups[g], g, ngroups, mode);
	return run_end(&r, err);
}
