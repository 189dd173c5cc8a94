/* info: the catalog, table by table. verify: CRC-32 and per-distance counts of
 * every table recomputed from its entries. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "catalog.h"
#include "opts.h"
#include "out.h"

/* The tables names mean, each once, in name order (all of them when there
 * are no names): a malloc'ed array and its length, or -1 after saying which
 * name means nothing. */
static int choose(const sdb_table ***out, const sdb_db *db, const char *const *names,
                  int nnames)
{
	int total = sdb_table_count(db), n = 0;
	const sdb_table **list = calloc((size_t)total + 1, sizeof *list);
	const sdb_table **some = calloc((size_t)total + 1, sizeof *some);
	char *taken = calloc((size_t)total + 1, 1);
	if (!list || !some || !taken) {
		free(list);
		free(some);
		free(taken);
		cli_fail("out of memory");
		return -1;
	}
	for (int k = 0; k < nnames; k++) {
		int m = sdb_table_select(some, total, db, names[k]);
		if (m < 0) {
			cli_fail_lib(NULL);
			n = -1;
			break;
		}
		for (int i = 0; i < total; i++)
			for (int j = 0; j < m; j++)
				if (some[j] == sdb_table_at(db, i))
					taken[i] = 1;
	}
	for (int i = 0; i < total && n >= 0; i++)
		if (!nnames || taken[i])
			list[n++] = sdb_table_at(db, i);
	free(some);
	free(taken);
	if (n < 0)
		free(list);
	else
		*out = list;
	return n;
}

static void utc_time(char *buf, size_t cap, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	gmtime_r(&tt, &tm);
	strftime(buf, cap, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The cells whose goals a full table serves: its blank cell's class. */
static void served_cells(out *o, const sdb_table_info *in, const char *sep)
{
	int first = 1;
	for (int c = 0; c < in->goal.n; c++)
		if (sdb_sym_representative(in->goal.w, in->goal.h, c) == in->goal.blank) {
			out_printf(o, "%s%d", first ? "" : sep, c);
			first = 0;
		}
}

/* Tiles of a mask: " 1 2 3" or "[1,2,3]". */
static void tile_list(out *o, uint32_t tiles, int json)
{
	if (json)
		out_char(o, '[');
	for (int t = 1, first = 1; t < SDB_MAX_CELLS; t++)
		if (tiles >> t & 1) {
			out_printf(o, json ? "%s%d" : "%s %d", json && !first ? "," : "", t);
			first = 0;
		}
	if (json)
		out_char(o, ']');
}

/* Pattern tables: the set, the group's tiles, what it keeps of the blank,
 * and the tiles the whole set leaves out (a partial partition), numbered as
 * the class's ordered goal numbers them: as typed, and as in the name. */
static void pattern_fields(out *o, const sdb_table_info *in, int json)
{
	if (in->kind != SDB_KIND_PATTERN)
		return;
	const char *blank = in->blank_mode == SDB_BLANK_REGION ? "region" : "min";
	if (json) {
		out_str(o, ",\"set\":");
		out_json_str(o, in->set);
		out_printf(o, ",\"group\":%d,\"groups\":%d,\"blank\":\"%s\",\"tiles\":", in->group,
		           in->ngroups, blank);
	} else {
		out_printf(o, "  set %s, group g%d (groups g0 to g%d), blank %s, tiles", in->set,
		           in->group, in->ngroups - 1, blank);
	}
	uint32_t tiles, left;
	sdb_board ordered;
	char goal[3 * SDB_MAX_CELLS];
	sdb_table_tiles(&tiles, &left, &ordered, in);
	sdb_board_format(goal, sizeof goal, &ordered);
	tile_list(o, tiles, json);
	if (json) {
		out_str(o, ",\"left_out\":");
		tile_list(o, left, 1);
		out_printf(o, ",\"tiles_of\":\"%s\"", goal);
		return;
	}
	out_printf(o, " (numbered as in the goal %s)", goal);
	if (left) {
		out_str(o, "; the set leaves out tiles");
		tile_list(o, left, 0);
	}
	out_char(o, '\n');
}

/* The chunks a table is stored in (1 when whole or unreadable: verify
 * says why). */
static int chunks_of(const sdb_table *t)
{
	int n = sdb_table_chunks(t);
	return n > 0 ? n : 1;
}

/* A table that cannot be used says why (a damaged catalog entry has
 * nothing else to show). 1 when that was all. */
static int problem_fields(out *o, const sdb_table *t, int json)
{
	const char *why = sdb_table_problem(t);
	if (!why)
		return 0;
	const int all = sdb_table_meta(t)->kind == 0;
	if (json) {
		if (all) {
			out_str(o, "{\"name\":");
			out_json_str(o, sdb_table_meta(t)->name);
		}
		out_str(o, ",\"problem\":");
		out_json_str(o, why);
		if (all)
			out_char(o, '}');
	} else {
		if (all)
			out_printf(o, "%s\n", sdb_table_meta(t)->name);
		out_printf(o, "  %s\n", why);
	}
	return all;
}

static void info_json(out *o, const sdb_table *t)
{
	if (sdb_table_meta(t)->kind == 0 && problem_fields(o, t, 1))
		return;
	const sdb_table_info *in = sdb_table_meta(t);
	char goal[3 * SDB_MAX_CELLS], when[32];
	sdb_board_format(goal, sizeof goal, &in->goal);
	utc_time(when, sizeof when, in->built_at);
	out_str(o, "{\"name\":");
	out_json_str(o, in->name);
	out_printf(o, ",\"kind\":\"%s\",\"size\":\"%dx%d\",\"goal\":\"%s\",\"blank_cells\":[",
	           sdb_kind_name(in->kind), in->goal.w, in->goal.h, goal);
	served_cells(o, in, ",");
	out_printf(o, "],\"entry_format\":\"%s\",\"states\":%llu,\"bytes\":%llu,\"chunks\":%d,"
	           "\"max_distance\":%d,"
	           "\"crc32\":\"%08x\",\"built_at\":\"%s\",\"build_seconds\":%.6f,\"threads\":%d,"
	           "\"tool_version\":",
	           sdb_format_name(in->entry_format), (unsigned long long)in->states,
	           (unsigned long long)sdb_table_bytes(in), chunks_of(t), in->max_distance,
	           in->crc32, when, in->build_seconds, in->threads);
	out_json_str(o, in->tool_version);
	pattern_fields(o, in, 1);
	out_printf(o, ",\"format_version\":%u,\"counts\":[", in->format_version);
	for (int d = 0; d <= in->max_distance; d++) {
		if (d)
			out_char(o, ',');
		out_u64(o, in->counts[d]);
	}
	out_char(o, ']');
	problem_fields(o, t, 1);
	out_char(o, '}');
}

static void info_text(out *o, const sdb_table *t)
{
	if (sdb_table_meta(t)->kind == 0 && problem_fields(o, t, 0))
		return;
	const sdb_table_info *in = sdb_table_meta(t);
	char chunks[32] = "";
	if (chunks_of(t) > 1)
		snprintf(chunks, sizeof chunks, " (%d chunks)", chunks_of(t));
	char goal[3 * SDB_MAX_CELLS], when[32];
	sdb_board_format(goal, sizeof goal, &in->goal);
	utc_time(when, sizeof when, in->built_at);
	out_printf(o, "%s\n  kind %s, %dx%d, goal %s\n", in->name, sdb_kind_name(in->kind), in->goal.w,
	           in->goal.h, goal);
	pattern_fields(o, in, 0);
	out_str(o, "  serves goals with the blank in cell ");
	served_cells(o, in, ", ");
	out_printf(o, "\n  %llu states in %llu bytes%s, max distance %d, entries %s, CRC-32 %08x\n"
	           "  built %s in %.3f s by slidedb %s (format %u)\n  counts",
	           (unsigned long long)in->states, (unsigned long long)sdb_table_bytes(in), chunks,
	           in->max_distance, sdb_format_name(in->entry_format),
	           in->crc32, when, in->build_seconds, in->tool_version, in->format_version);
	for (int d = 0; d <= in->max_distance; d++)
		out_printf(o, " %llu", (unsigned long long)in->counts[d]);
	out_char(o, '\n');
	problem_fields(o, t, 0);
}

void catalog_json(out *o, const sdb_db *db, const sdb_table **list, int n)
{
	out_str(o, "{\"path\":");
	out_json_str(o, sdb_db_path(db));
	out_printf(o, ",\"format_version\":%d,\"tables\":[", SDB_FORMAT_VERSION);
	for (int i = 0; i < n; i++) {
		if (i)
			out_char(o, ',');
		info_json(o, list[i]);
	}
	out_str(o, "]}\n");
}

/* The states per distance as a bar chart: one line per distance, bars
 * scaled to the largest count (a count too small for one '#' shows as '.'). */
static void histogram(out *o, const sdb_table_info *in)
{
	enum { BAR = 50 };
	uint64_t most = 1;
	int numw = 1;
	for (int d = 0; d <= in->max_distance; d++)
		most = in->counts[d] > most ? in->counts[d] : most;
	for (uint64_t v = most; v >= 10; v /= 10)
		numw++;
	for (int d = 0; d <= in->max_distance; d++) {
		const uint64_t c = in->counts[d];
		const int len = (int)((double)c / (double)most * BAR + 0.5);
		out_printf(o, "  %3d %*llu |", d, numw, (unsigned long long)c);
		for (int k = 0; k < len; k++)
			out_char(o, '#');
		if (len == 0 && c > 0)
			out_char(o, '.');
		out_char(o, '\n');
	}
}

int catalog_info(const sdb_db *db, const char *const *names, int nnames, int json,
                 int with_histogram)
{
	out o = { 0 };
	const sdb_table **list;
	int n = choose(&list, db, names, nnames);
	if (n < 0)
		return 1;
	if (json) {
		catalog_json(&o, db, list, n);
	} else {
		out_printf(&o, "%s: %d table%s\n", sdb_db_path(db), n, n == 1 ? "" : "s");
		for (int i = 0; i < n; i++) {
			info_text(&o, list[i]);
			if (with_histogram && !sdb_table_problem(list[i]))
				histogram(&o, sdb_table_meta(list[i]));
		}
	}
	int rc = out_flush(&o, stdout);
	out_free(&o);
	free(list);
	return rc ? 1 : 0;
}

/* The counts per distance recomputed from the entries must match the catalog. */
static int check_counts(const sdb_db *db, const sdb_table *t, char *why, size_t cap)
{
	const sdb_table_info *in = sdb_table_meta(t);
	uint64_t counts[SDB_MAX_DISTANCE], want[SDB_MAX_DISTANCE];
	int err = sdb_table_count_entries(counts, t);
	if (err) {
		snprintf(why, cap, "%s", sdb_errdetail());
		return err;
	}
	sdb_table_expected_counts(want, in);
	const char *at = in->entry_format == SDB_ENTRY_MOD3 ? "distances = %d mod 3" : "distance %d";
	for (int d = 0; d < SDB_MAX_DISTANCE; d++)
		if (counts[d] != want[d]) {
			char where[40];
			snprintf(where, sizeof where, at, d);
			snprintf(why, cap, "%s: %s: %llu entries at %s, the catalog says %llu",
			         sdb_db_path(db), in->name, (unsigned long long)counts[d], where,
			         (unsigned long long)want[d]);
			return SDB_ECORRUPT;
		}
	return SDB_OK;
}

int catalog_verify(const sdb_db *db, const char *const *names, int nnames, int json)
{
	int bad = 0;
	out o = { 0 };
	const sdb_table **list;
	int n = choose(&list, db, names, nnames);
	if (n < 0)
		return 1;
	for (int i = 0; i < n; i++) {
		const sdb_table *t = list[i];
		char why[1024] = "";
		int err = sdb_table_verify(t);
		if (err)
			snprintf(why, sizeof why, "%s", sdb_errdetail());
		else
			err = check_counts(db, t, why, sizeof why);
		bad |= err != 0;
		if (json) {
			out_str(&o, "{\"name\":");
			out_json_str(&o, sdb_table_meta(t)->name);
			out_printf(&o, ",\"ok\":%s", err ? "false" : "true");
			if (err) {
				out_str(&o, ",\"error\":");
				out_json_str(&o, why);
			}
			out_str(&o, "}\n");
		} else if (!err) {
			out_printf(&o, "%s: ok\n", sdb_table_meta(t)->name);
		}
		if (err)
			cli_fail("verify: %s", why);
	}
	if (!json)
		out_printf(&o, "%s: %d table%s, %s\n", sdb_db_path(db), n, n == 1 ? "" : "s",
		           bad ? "DAMAGED" : "all intact");
	int rc = out_flush(&o, stdout);
	out_free(&o);
	free(list);
	return bad || rc ? 1 : 0;
}
