/* info: the catalog, table by table. verify: CRC-32 and per-distance counts of
 * every table recomputed from its entries. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "catalog.h"
#include "out.h"

static const char *kind_name(int kind)
{
	return kind == SDB_KIND_FULL ? "full" : kind == SDB_KIND_PATTERN ? "pattern" : "unknown";
}

static const char *format_name(int format)
{
	switch (format) {
	case SDB_ENTRY_DIST6_MOVE2: return "dist6-move2";
	case SDB_ENTRY_DIST8: return "dist8";
	case SDB_ENTRY_NIBBLE_MD: return "nibble-manhattan";
	default: return "unknown";
	}
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

/* Pattern tables: the set, the group's tiles, what it keeps of the blank. */
static void pattern_fields(out *o, const sdb_table_info *in, int json)
{
	if (in->kind != SDB_KIND_PATTERN)
		return;
	const char *blank = in->blank_mode == SDB_BLANK_REGION ? "region" : "min";
	if (json) {
		out_str(o, ",\"set\":");
		out_json_str(o, in->set);
		out_printf(o, ",\"group\":%d,\"groups\":%d,\"blank\":\"%s\",\"tiles\":[", in->group,
		           in->ngroups, blank);
	} else {
		out_printf(o, "  set %s, group %d of %d, blank %s, tiles", in->set, in->group + 1,
		           in->ngroups, blank);
	}
	for (int t = 1, first = 1; t < SDB_MAX_CELLS; t++)
		if (in->pattern >> t & 1) {
			out_printf(o, json ? "%s%d" : "%s %d", json && !first ? "," : "", t);
			first = 0;
		}
	out_str(o, json ? "]" : "\n");
}

static void info_json(out *o, const sdb_table_info *in)
{
	char goal[3 * SDB_MAX_CELLS], when[32];
	sdb_board_format(goal, sizeof goal, &in->goal);
	utc_time(when, sizeof when, in->built_at);
	out_str(o, "{\"name\":");
	out_json_str(o, in->name);
	out_printf(o, ",\"kind\":\"%s\",\"size\":\"%dx%d\",\"goal\":\"%s\",\"blank_cells\":[",
	           kind_name(in->kind), in->goal.w, in->goal.h, goal);
	served_cells(o, in, ",");
	out_printf(o, "],\"entry_format\":\"%s\",\"states\":%llu,\"max_distance\":%d,"
	           "\"crc32\":\"%08x\",\"built_at\":\"%s\",\"build_seconds\":%.6f,\"threads\":%d,"
	           "\"tool_version\":",
	           format_name(in->entry_format), (unsigned long long)in->states, in->max_distance,
	           in->crc32, when, in->build_seconds, in->threads);
	out_json_str(o, in->tool_version);
	pattern_fields(o, in, 1);
	out_printf(o, ",\"format_version\":%u,\"counts\":[", in->format_version);
	for (int d = 0; d <= in->max_distance; d++) {
		if (d)
			out_char(o, ',');
		out_u64(o, in->counts[d]);
	}
	out_str(o, "]}");
}

static void info_text(out *o, const sdb_table_info *in)
{
	char goal[3 * SDB_MAX_CELLS], when[32];
	sdb_board_format(goal, sizeof goal, &in->goal);
	utc_time(when, sizeof when, in->built_at);
	out_printf(o, "%s\n  kind %s, %dx%d, goal %s\n", in->name, kind_name(in->kind), in->goal.w,
	           in->goal.h, goal);
	pattern_fields(o, in, 0);
	out_str(o, "  serves goals with the blank in cell ");
	served_cells(o, in, ", ");
	out_printf(o, "\n  %llu states, max distance %d, entries %s, CRC-32 %08x\n"
	           "  built %s in %.3f s by slidedb %s (format %u)\n  counts",
	           (unsigned long long)in->states, in->max_distance, format_name(in->entry_format),
	           in->crc32, when, in->build_seconds, in->tool_version, in->format_version);
	for (int d = 0; d <= in->max_distance; d++)
		out_printf(o, " %llu", (unsigned long long)in->counts[d]);
	out_char(o, '\n');
}

int catalog_info(const sdb_db *db, int json)
{
	out o = { 0 };
	int n = sdb_table_count(db);
	if (json) {
		out_str(&o, "{\"path\":");
		out_json_str(&o, sdb_db_path(db));
		out_printf(&o, ",\"format_version\":%d,\"tables\":[", SDB_FORMAT_VERSION);
	} else {
		out_printf(&o, "%s: %d table%s\n", sdb_db_path(db), n, n == 1 ? "" : "s");
	}
	for (int i = 0; i < n; i++) {
		const sdb_table_info *in = sdb_table_meta(sdb_table_at(db, i));
		if (json) {
			if (i)
				out_char(&o, ',');
			info_json(&o, in);
		} else {
			info_text(&o, in);
		}
	}
	if (json)
		out_str(&o, "]}\n");
	int rc = out_flush(&o, stdout);
	out_free(&o);
	return rc ? 1 : 0;
}

/* The counts per distance recomputed from the entries must match the catalog. */
static int check_counts(const sdb_db *db, const sdb_table *t, char *why, size_t cap)
{
	const sdb_table_info *in = sdb_table_meta(t);
	uint64_t counts[SDB_MAX_DISTANCE];
	int err = sdb_table_recount(counts, in, sdb_table_data(t));
	if (err) {
		snprintf(why, cap, "%s", sdb_errdetail());
		return err;
	}
	for (int d = 0; d < SDB_MAX_DISTANCE; d++)
		if (counts[d] != (d <= in->max_distance ? in->counts[d] : 0)) {
			snprintf(why, cap, "%s: %s: %llu entries at distance %d, the catalog says %llu",
			         sdb_db_path(db), in->name, (unsigned long long)counts[d], d,
			         (unsigned long long)(d <= in->max_distance ? in->counts[d] : 0));
			return SDB_ECORRUPT;
		}
	return SDB_OK;
}

int catalog_verify(const sdb_db *db, int json)
{
	int bad = 0;
	out o = { 0 };
	for (int i = 0; i < sdb_table_count(db); i++) {
		const sdb_table *t = sdb_table_at(db, i);
		char why[256] = "";
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
			fprintf(stderr, "slidedb-lookup: verify: %s\n", why);
	}
	if (!json)
		out_printf(&o, "%s: %d table%s, %s\n", sdb_db_path(db), sdb_table_count(db),
		           sdb_table_count(db) == 1 ? "" : "s", bad ? "DAMAGED" : "all intact");
	out_flush(&o, stdout);
	out_free(&o);
	return bad;
}
