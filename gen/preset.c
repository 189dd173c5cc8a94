/* SPDX-License-Identifier: MIT */
/* The presets of slidedb-gen pdb: for each board that has them, the sets a
 * user picks by memory and speed. Which one is `recommended` rests on
 * bench/RESULTS.md ("Presets"): the least time on Korf's instances on a
 * machine of 2 cores and 24 GiB; the sizes are computed, never written here. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "gen/preset.h"
#include "slidedb_engine.h"

static const gen_preset presets[] = {
	{ "5-5-5", 4, 4, { "5-5-5" }, 0, "three groups of 5 tiles: the smallest, built in a second" },
	{ "6-6-3", 4, 4, { "6-6-3" }, 0, "6, 6 and 3 tiles: small, built in a second" },
	{ "7-8", 4, 4, { "7-8" }, 1, "7 and 8 tiles: the strongest 4x4 set, built in under a minute" },
	{ "6-6-6-6", 5, 5, { "6-6-6-6" }, 1,
	  "Korf and Felner's four groups of 6 (read with their mirror), built in under a minute" },
	{ "6-6-6-6x4", 5, 5, { "6-6-6-6", "6-6-6-6b", "6-6-6-6c", "6-6-6-6d" }, 0,
	  "a catalogue: four partitions into groups of 6, maxed; the fewest nodes, each node "
	  "dearer; built in about a minute" },
};
enum { NPRESETS = sizeof presets / sizeof *presets };

/* "5-5-5, 6-6-3, 7-8" for a WxH board; the number of presets it has. */
static int names_for(char *buf, size_t cap, int w, int h)
{
	size_t len = 0;
	int n = 0;
	buf[0] = '\0';
	for (int i = 0; i < NPRESETS; i++)
		if (presets[i].w == w && presets[i].h == h && len < cap) {
			len += (size_t)snprintf(buf + len, cap - len, "%s%s", n ? ", " : "",
			                        presets[i].name);
			n++;
		}
	return n;
}

int preset_find(const gen_preset **p, const char *name, int w, int h)
{
	char names[256];
	*p = NULL;
	if (!names_for(names, sizeof names, w, h))
		return cli_usage("--preset '%s': no presets for %dx%d (there are for 4x4 and 5x5): "
		                 "give --partition (2x2, 5s or groups of tiles)", name, w, h);
	const int recommended = !strcmp(name, "recommended");
	const char *advised = "";
	for (int i = 0; i < NPRESETS; i++) {
		if (presets[i].w != w || presets[i].h != h)
			continue;
		if (presets[i].recommended)
			advised = presets[i].name;
		if (recommended ? presets[i].recommended : !strcmp(name, presets[i].name)) {
			*p = &presets[i];
			return 0;
		}
	}
	return cli_usage("--preset '%s': the presets for %dx%d are %s, recommended (%s) and list "
	                 "(their sizes)", name, w, h, names, advised);
}

/* The entries of a partition's tables in blank mode `mode` at a nibble
 * each, and the largest group's entries in the region form (a build works on
 * one group at a time in that form, a byte an entry, beside what it has
 * stored; min mode folds it afterwards). */
static int partition_sizes(const char *spec, const sdb_board *goal, int mode, double *bytes,
                           double *peak)
{
	sdb_partition pt;
	int err = sdb_partition_parse(&pt, spec, goal);
	for (int g = 0; g < pt.ngroups && !err; g++) {
		sdb_pattern *region = NULL, *stored = NULL;
		if (!(err = sdb_pattern_new(&region, goal, pt.groups[g], SDB_BLANK_REGION)) &&
		    !(err = sdb_pattern_new(&stored, goal, pt.groups[g], mode))) {
			const double n = (double)sdb_pattern_size(region);
			*bytes += (double)sdb_pattern_size(stored) / 2;
			if (n > *peak)
				*peak = n;
		}
		sdb_pattern_free(region);
		sdb_pattern_free(stored);
	}
	return err;
}

/* bytes as a person reads them: "2.6 MB", "6.46 GB" */
static void human(char *buf, size_t cap, double bytes)
{
	if (bytes < 1e9)
		snprintf(buf, cap, "%.1f MB", bytes / 1e6);
	else
		snprintf(buf, cap, "%.2f GB", bytes / 1e9);
}

int preset_list(int w, int h, int mode, int json)
{
	char names[256];
	if (!names_for(names, sizeof names, w, h))
		return cli_usage("--preset list: no presets for %dx%d (there are for 4x4 and 5x5)", w, h);
	sdb_board goal;
	sdb_board_goal(&goal, w, h, 0);
	for (int i = 0; i < NPRESETS; i++) {
		const gen_preset *p = &presets[i];
		if (p->w != w || p->h != h)
			continue;
		double bytes = 0, peak = 0;
		char sets[128] = "";
		for (int s = 0; s < PRESET_MAX_SETS && p->partitions[s]; s++) {
			if (partition_sizes(p->partitions[s], &goal, mode, &bytes, &peak))
				return cli_fail_lib(p->name);
			snprintf(sets + strlen(sets), sizeof sets - strlen(sets), "%s%s",
			         s ? (json ? "\",\"" : " + ") : "", p->partitions[s]);
		}
		if (json) {
			printf("{\"preset\":\"%s\",\"size\":\"%dx%d\",\"partitions\":[\"%s\"],"
			       "\"recommended\":%s,\"table_bytes\":%.0f,\"working_table_bytes\":%.0f,"
			       "\"about\":\"%s\"}\n", p->name, w, h, sets, p->recommended ? "true" : "false",
			       bytes, peak, p->what);
		} else {
			char stored[32], built[32];
			human(stored, sizeof stored, bytes);
			human(built, sizeof built, peak);
			printf("%s%s: %s\n  tables %s, largest working table %s\n  %s\n", p->name,
			       p->recommended ? " (recommended)" : "", sets, stored, built, p->what);
		}
	}
	return 0;
}
