/* SPDX-License-Identifier: MIT */
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

#include "gen/bigmem.h"
#include "gen/gen.h"
#include "gen/gen_mpi.h"
#include "gen/pdb_group.h"
#include "gen/preset.h"

enum { MAX_GROUPS = SDB_MAX_GROUPS };

/* The set's name: --name, else pdb-WxH-bCELL-SPELLING[-min], the groups in
 * the user's tiles ('/' written '_': it separates a set from its groups); a
 * spelling too long for a name is replaced by a checksum of the groups. 0,
 * or an exit code after printing why. */
static int set_name(char *name, size_t cap, const gen_options *o, const sdb_partition *pt,
                    int rep, int mode)
{
	if (o->set_name) {
		const char *bad = strpbrk(o->set_name, "/ \t\n'\"");
		if (!o->set_name[0] || bad || strlen(o->set_name) >= cap ||
		    !strncmp(o->set_name, "full-", 5))
			return cli_usage("--name '%s': a set name is 1 to %zu characters, no '/', blanks "
			                 "or quotes, and does not start with 'full-'", o->set_name, cap - 1);
		snprintf(name, cap, "%s", o->set_name);
		return 0;
	}
	const char *min = mode == SDB_BLANK_MIN ? "-min" : "";
	int len = snprintf(name, cap, "pdb-%dx%d-b%d-%s%s", o->w, o->h, rep, pt->spelling, min);
	if (len < 0 || (size_t)len >= cap || pt->truncated) {
		/* FNV-1a of the groups, tiles in order: 4 bytes a group up to 32
		 * cells, as slidedb 0.1 named them, 8 past that */
		uint32_t hash = 2166136261u;
		for (int g = 0; g < pt->ngroups; g++)
			for (int k = 0; k < (o->w * o->h > 32 ? 8 : 4); k++)
				hash = (hash ^ (uint8_t)(pt->groups[g] >> 8 * k)) * 16777619u;
		snprintf(name, cap, "pdb-%dx%d-b%d-x%08x%s", o->w, o->h, rep, hash, min);
	}
	return 0;
}

/* The user's tiles of a mask, as "7 8" (for messages). */
static void tile_list(char *buf, size_t cap, uint64_t tiles, int n)
{
	size_t len = 0;
	buf[0] = '\0';
	for (int t = 1; t < n && len + 4 < cap; t++)
		if (tiles >> t & 1)
			len += (size_t)snprintf(buf + len, cap - len, "%s%d", len ? " " : "", t);
}

/* A set to build: its groups, its name, the goal its tables are built for. */
typedef struct set_plan {
	sdb_partition pt;
	sdb_board canon;
	char name[SDB_NAME_MAX - 4];   /* room for "/gNN" */
} set_plan;

/* The set of the partition spec, checked before anything is built: 0, or
 * the exit code after the message. */
static int plan_set(set_plan *p, const gen_options *o, const char *spec, int mode)
{
	sdb_board goal;
	if (gen_goal(&goal, o))
		return cli_fail_lib("--goal");
	int rep = sdb_sym_representative(o->w, o->h, goal.blank);
	sdb_board_goal(&p->canon, o->w, o->h, rep);
	if (sdb_partition_parse(&p->pt, spec, &goal))
		return cli_fail_lib(NULL);
	const int n = o->w * o->h;
	const uint64_t all = (n >= 64 ? ~0ull : (1ull << n) - 1) & ~1ull;
	if (p->pt.tiles != all && !o->partial) {
		char left[256];
		tile_list(left, sizeof left, all & ~p->pt.tiles, o->w * o->h);
		return cli_fail("--partition '%s' leaves tile%s %s out: add --partial to build a set "
		                "that ignores %s (a weaker heuristic)", spec,
		                strchr(left, ' ') ? "s" : "", left, strchr(left, ' ') ? "them" : "it");
	}
	char name[sizeof p->name];   /* not p->name: the spelling it is made of is in *p too */
	int rc = set_name(name, sizeof name, o, &p->pt, rep, mode);
	memcpy(p->name, name, sizeof name);
	return rc;
}

/* Build a planned set, set `which` of `nsets`, into the run's transaction:
 * 0 or an SDB_E* code (recorded for run_end). */
static int build_set(run *r, const set_plan *p, int mode, int which, int nsets)
{
	const sdb_partition *pt = &p->pt;
	int err = SDB_OK;
	/* Every group's space first: the progress bar is the set's ("group 2/4:
	 * 6 tiles", the whole set's percent and ETA), each group's share its
	 * entries. */
	sdb_pattern *space[MAX_GROUPS] = { NULL };
	uint64_t whole = 0, before = 0;
	for (int g = 0; g < pt->ngroups && !err; g++)
		if ((err = sdb_pattern_new(&space[g], &p->canon, pt->groups[g], SDB_BLANK_REGION)))
			run_fail_lib(r, err);
		else
			whole += sdb_pattern_size(space[g]);
	progress_job(&r->bar, whole);
	for (int g = 0; g < pt->ngroups && !err; g++) {
		char set[32] = "";
		if (nsets > 1)
			snprintf(set, sizeof set, "set %d/%d, ", which + 1, nsets);
		snprintf(r->label, sizeof r->label, "%sgroup %d/%d: %d tiles", set, g + 1, pt->ngroups,
		         __builtin_popcountll(pt->groups[g]));
		progress_within(&r->bar, before);
		err = pdb_group_build(r, &p->canon, p->name, pt->groups[g], space[g], g, pt->ngroups,
		                      mode);
		before += sdb_pattern_size(space[g]);
	}
	for (int g = 0; g < pt->ngroups; g++)
		sdb_pattern_free(space[g]);
	/* A set rebuilt under its name with fewer groups: the old groups go in
	 * the same transaction, or they would still count as part of it. */
	for (int g = pt->ngroups; g < MAX_GROUPS && !err && r->wr; g++) {
		char name[SDB_NAME_MAX];
		snprintf(name, sizeof name, "%.*s/g%u", SDB_NAME_MAX - 5, p->name,
		         (unsigned)g % SDB_MAX_GROUPS);
		if ((err = sdb_writer_delete(r->wr, name)))
			run_fail_lib(r, err);
	}
	return err;
}

/* --preset list reads only --blank and --json: anything else given with it
 * is a usage error, never ignored. */
static int list_presets(const gen_options *o, int mode)
{
	const char *other = o->goal_text ? "--goal" : o->set_name ? "--name" : o->partial ?
	                    "--partial" : o->quiet ? "--quiet" : o->checkpoint ? "--checkpoint" :
	                    o->db_path ? "--db" : o->progress_mode >= 0 ? "--progress" : NULL;
	if (other)
		return cli_usage("--preset list prints the presets (with --blank and --json); %s "
		                 "is for a build", other);
	return preset_list(o->w, o->h, mode, o->json);
}

int cmd_pdb(void *opts, int nargs, char **args)
{
	const gen_options *o = opts;
	(void)nargs;
	(void)args;
	if (o->preset && o->partition)
		return cli_usage("pdb: give --partition or --preset, not both");
	if (!o->partition && !o->preset)
		return cli_usage("pdb: --partition SPEC or --preset NAME is required (5-5-5, 6-6-3, 7-8, "
		                 "6-6-6-6[b-d], 7-7-7-3, 2x2, 5s or groups like 1,2,3/4,5,6; --preset list "
		                 "for the presets)");
	int mode = SDB_BLANK_REGION;
	if (o->blank && !strcmp(o->blank, "min"))
		mode = SDB_BLANK_MIN;
	else if (o->blank && strcmp(o->blank, "region"))
		return cli_usage("--blank '%s': expected region or min", o->blank);
	if (o->preset && !strcmp(o->preset, "list"))
		return list_presets(o, mode);
	const char *specs[PRESET_MAX_SETS] = { o->partition };
	if (o->preset) {
		const gen_preset *p;
		int rc = preset_find(&p, o->preset, o->w, o->h);
		if (rc)
			return rc;
		int nsets = 0;
		while (nsets < PRESET_MAX_SETS && p->partitions[nsets])
			nsets++;
		if (o->set_name && nsets > 1)
			return cli_usage("--name: preset %s builds %d sets, each under its own name",
			                 p->name, nsets);
		memcpy(specs, p->partitions, sizeof specs);
	}
	/* Every set checked before any is built; then all in one transaction,
	 * as every command that writes: a build that fails leaves the database
	 * as it was. */
	set_plan plans[PRESET_MAX_SETS];
	int nplans = 0;
	for (; nplans < PRESET_MAX_SETS && specs[nplans]; nplans++) {
		int rc = plan_set(&plans[nplans], o, specs[nplans], mode);
		if (rc)
			return rc;
	}
	run r;
	int err = run_begin(&r, o);
	for (int i = 0; i < nplans && !err; i++)
		err = build_set(&r, &plans[i], mode, i, nplans);
	return run_end(&r, err);
}
