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
	for (int g = 0; g < ngroups; g++) {   /* the name lists the canonical labels in hex */
		for (int t = 1; t < n && len > 0 && (size_t)len + 2 < cap; t++)
			if (groups[g] >> t & 1)
				setname[len++] = "0123456789abcdef"[t];
		if (g + 1 < ngroups && (size_t)len + 2 < cap)
			setname[len++] = '-';
	}
	setname[len] = '\0';
	return ngroups;
}

/* The minimum over the blank's regions, folded from a region-mode table. */
static void fold_min(uint8_t *compact, uint64_t compact_size, const uint8_t *region,
                     const sdb_pattern *p, sdb_table_info *info)
{
	memset(compact, 0xff, compact_size);
	for (uint64_t i = 0; i < sdb_pattern_size(p); i++) {
		uint64_t j = sdb_pattern_min_index(p, i);
		if (region[i] < compact[j])
			compact[j] = region[i];
	}
	memset(info->counts, 0, sizeof info->counts);
	info->max_distance = 0;
	for (uint64_t j = 0; j < compact_size; j++) {
		info->counts[compact[j]]++;
		if (compact[j] > info->max_distance)
			info->max_distance = compact[j];
	}
}

static int build_group(run *r, const sdb_board *canon, const char *setname, uint32_t tiles,
                       int group, int ngroups, int mode)
{
	sdb_pattern *p = NULL, *compact = NULL;
	uint8_t *data = NULL, *work = NULL;
	char name[SDB_NAME_MAX];
	snprintf(name, sizeof name, "%s/g%d", setname, group);
	int err = sdb_pattern_new(&p, canon, tiles, SDB_BLANK_REGION);
	if (!err && mode == SDB_BLANK_MIN)
		err = sdb_pattern_new(&compact, canon, tiles, SDB_BLANK_MIN);
	if (err) {
		fprintf(stderr, "%s: %s\n", prog, sdb_errdetail());
		goto done;
	}
	sdb_table_info info;
	uint64_t size = sdb_pattern_size(compact ? compact : p);
	table_info_init(&info, name, SDB_KIND_PATTERN, SDB_ENTRY_DIST8, canon, size);
	snprintf(info.set, sizeof info.set, "%s", setname);
	info.pattern = tiles;
	info.blank_mode = mode;
	info.group = group;
	info.ngroups = ngroups;
	if ((err = sdb_writer_reserve(r->wr, &data, name, size))) {
		fprintf(stderr, "%s: %s\n", prog, sdb_errdetail());
		goto done;
	}
	if (compact && !(work = malloc(sdb_pattern_size(p)))) {
		fprintf(stderr, "%s: %s: out of memory\n", prog, name);
		err = SDB_ENOMEM;
		goto done;
	}
	bfs_space space;
	bfs_pattern_space(&space, p);
	info.states = sdb_pattern_size(p);   /* the search's own size, for progress */
	if ((err = run_bfs(r, &info, work ? work : data, &space)))
		goto done;
	info.states = size;
	if (work)
		fold_min(data, size, work, p, &info);
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
	char setname[SDB_NAME_MAX - 4];
	int ngroups = parse_partition(groups, setname, sizeof setname, o, &goal, rep);
	if (ngroups < 0)
		return 1;
	if (mode == SDB_BLANK_MIN && strlen(setname) + 4 < sizeof setname)
		strcat(setname, "-min");
	run r;
	if (run_begin(&r, o))
		return 1;
	int err = 0;
	for (int g = 0; g < ngroups && !err; g++)
		err = build_group(&r, &canon, setname, groups[g], g, ngroups, mode);
	return run_end(&r, err);
}
