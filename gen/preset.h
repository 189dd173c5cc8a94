/* SPDX-License-Identifier: MIT */
/* Named bundles of pattern-database sets (`slidedb-gen pdb WxH --preset
 * NAME`): what to build for a board, chosen by measured nodes and time
 * (doc/gen.md and bench/RESULTS.md give the figures). */
#ifndef SLIDEDB_GEN_PRESET_H
#define SLIDEDB_GEN_PRESET_H

enum { PRESET_MAX_SETS = 4 };

typedef struct gen_preset {
	const char *name;
	int w, h;
	const char *partitions[PRESET_MAX_SETS];   /* built in turn, as --partition would */
	int recommended;                           /* what `--preset recommended` builds */
	const char *what;                          /* a line for `--preset list` */
} gen_preset;

/* *p = the preset NAME for a WxH board ("recommended": the one marked so):
 * 0, or the exit code after a message naming the presets of that board. */
int preset_find(const gen_preset **p, const char *name, int w, int h);

/* `--preset list`: the presets of a WxH board with their sets, the bytes of
 * their tables and of the largest working table of a build (computed from
 * the groups, for blank mode SDB_BLANK_REGION or SDB_BLANK_MIN), as text or
 * one JSON object a line. The exit code. */
int preset_list(int w, int h, int mode, int json);

#endif
