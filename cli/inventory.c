/* SPDX-License-Identifier: MIT */
/* info: the catalog, table by table. verify: CRC-32 and per-distance counts of
 * every table recomputed from its entries, and with --prove every entry
 * against its neighbours (sdb_table_prove()). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/inventory.h"
#include "cli/out.h"
#include "cli/progress.h"
#include "cli/report.h"

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

static void info_json(out *o, const sdb_table *t)
{
	report_fields j;
	report_fields_begin(&j, o);
	sdb_table_fields(t, report_field, &j);
	out_char(o, '}');
}

/* A table's fields gathered from the library's list (sdb_table_fields), so
 * that the text layout reads each by name; a list's items are kept
 * separated by '\n'. */
enum { TEXT_FIELDS = 40 };
typedef struct text_fields {
	int n, in_list;
	char name[TEXT_FIELDS][24];
	out value[TEXT_FIELDS];
} text_fields;

static int gather(void *ctx, const sdb_field *f)
{
	text_fields *t = ctx;
	if (f->type == SDB_VALUE_END) {
		t->in_list = 0;
		return 0;
	}
	if (f->name) {
		if (t->n == TEXT_FIELDS)
			return 0;
		snprintf(t->name[t->n], sizeof t->name[t->n], "%s", f->name);
		t->value[t->n++] = (out){ 0 };
	} else if (t->in_list++) {
		out_char(&t->value[t->n - 1], '\n');
	}
	out *v = &t->value[t->n - 1];
	switch (f->type) {
	case SDB_VALUE_INT: out_i64(v, f->i); break;
	case SDB_VALUE_REAL: out_printf(v, "%.3f", f->real); break;
	case SDB_VALUE_TEXT: out_str(v, f->text); break;
	case SDB_VALUE_LIST: t->in_list = 0; break;
	default: break;   /* (tables have no others) */
	}
	out_char(v, '\0');   /* kept a string as it grows */
	v->len--;
	return 0;
}

/* The text of a field, or NULL when the table has no such field. */
static const char *field(const text_fields *t, const char *name)
{
	for (int i = 0; i < t->n; i++)
		if (!strcmp(t->name[i], name))
			return t->value[i].buf ? t->value[i].buf : "";
	return NULL;
}

/* A list field's items, each after lead (the first after first). */
static void field_list(out *o, const text_fields *t, const char *name, const char *first,
                       const char *lead)
{
	const char *v = field(t, name);
	for (int k = 0; v && *v; k++) {
		size_t len = strcspn(v, "\n");
		out_str(o, k ? lead : first);
		out_mem(o, v, len);
		v += len + (v[len] == '\n');
	}
}

static void info_text(out *o, const sdb_table *t)
{
	text_fields *f = calloc(1, sizeof *f);
	if (!f)
		return;
	sdb_table_fields(t, gather, f);
	const char *problem = field(f, "problem");
	out_printf(o, "%s\n", field(f, "name"));
	if (field(f, "kind")) {
		out_printf(o, "  kind %s, %s, goal %s\n", field(f, "kind"), field(f, "size"),
		           field(f, "goal"));
		if (field(f, "set")) {
			out_printf(o, "  set %s, group g%s (groups g0 to g%d), blank %s, tiles",
			           field(f, "set"), field(f, "group"), atoi(field(f, "groups")) - 1,
			           field(f, "blank"));
			field_list(o, f, "tiles", " ", " ");
			out_printf(o, " (numbered as in the goal %s)", field(f, "tiles_of"));
			field_list(o, f, "left_out", "; the set leaves out tiles ", " ");
			out_char(o, '\n');
		}
		out_str(o, "  serves goals with the blank in cell ");
		field_list(o, f, "blank_cells", "", ", ");
		char chunks[32] = "";
		if (atoi(field(f, "chunks")) > 1)
			snprintf(chunks, sizeof chunks, " (%s chunks)", field(f, "chunks"));
		char layout[32] = "";
		if (field(f, "layout"))
			snprintf(layout, sizeof layout, " in layout %s", field(f, "layout"));
		out_printf(o, "\n  %s states in %s bytes%s, max distance %s, entries %s%s, CRC-32 %s\n"
		           "  built %s in %s s by slidedb %s (format %s)\n  counts",
		           field(f, "states"), field(f, "bytes"), chunks, field(f, "max_distance"),
		           field(f, "entry_format"), layout, field(f, "crc32"), field(f, "built_at"),
		           field(f, "build_seconds"), field(f, "tool_version"),
		           field(f, "format_version"));
		field_list(o, f, "counts", " ", " ");
		out_char(o, '\n');
	}
	if (problem)
		out_printf(o, "  %s\n", problem);
	for (int i = 0; i < f->n; i++)
		out_free(&f->value[i]);
	free(f);
}

void inventory_json(out *o, const sdb_db *db, const sdb_table **list, int n)
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

int inventory_info(const sdb_db *db, const char *const *names, int nnames, int json,
                   int with_histogram)
{
	out o = { 0 };
	const sdb_table **list;
	int n = choose(&list, db, names, nnames);
	if (n < 0)
		return 1;
	if (json) {
		inventory_json(&o, db, list, n);
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
		snprintf(why, cap, "%s", sdb_error_detail());
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

/* What a proof says of a table, in text and in JSON. */
static const struct {
	const char *text, *json;
} proofs[] = {
	[SDB_PROOF_NONE] = { "not proved (a min-mode group or a two-bit multi-tile table, which "
	                     "only building it again proves: slidedb-gen import does)", "none" },
	[SDB_PROOF_EXACT] = { "proved exact", "exact" },
	[SDB_PROOF_LOCAL] = { "checked mod 3 against its neighbours (two bits: a local check, not "
	                      "a proof)", "local" },
};

static void prove_progress(void *ctx, uint64_t done, uint64_t total)
{
	progress_update(ctx, -1, done, total);
}

/* The proof of a table found intact: 0 or the error, with why. */
static int prove(const sdb_db *db, const sdb_table *t, const inventory_verify_opts *v, int *proof,
                 char *why, size_t cap)
{
	progress bar;
	progress_init(&bar, v->progress_mode);
	progress_begin(&bar, sdb_table_meta(t)->name);
	sdb_prove_opts opts = SDB_PROVE_OPTS_INIT;
	opts.threads = v->threads;
	opts.progress = prove_progress;
	opts.ctx = &bar;
	int err = sdb_table_prove(proof, t, &opts);
	progress_end(&bar);
	if (err)
		snprintf(why, cap, "%s: %s", sdb_db_path(db), sdb_error_detail());
	return err;
}

int inventory_verify(const sdb_db *db, const char *const *names, int nnames,
                     const inventory_verify_opts *v)
{
	int bad = 0, proved[3] = { 0 };
	out o = { 0 };
	const sdb_table **list;
	int n = choose(&list, db, names, nnames);
	if (n < 0)
		return 1;
	for (int i = 0; i < n; i++) {
		const sdb_table *t = list[i];
		char why[1024] = "";
		int proof = SDB_PROOF_NONE, err = sdb_table_verify(t);
		if (err)
			snprintf(why, sizeof why, "%s", sdb_error_detail());
		else
			err = check_counts(db, t, why, sizeof why);
		if (!err && v->prove && !(err = prove(db, t, v, &proof, why, sizeof why)))
			proved[proof]++;
		bad |= err != 0;
		if (v->json) {
			out_str(&o, "{\"name\":");
			out_json_str(&o, sdb_table_meta(t)->name);
			out_printf(&o, ",\"ok\":%s", err ? "false" : "true");
			if (err) {
				out_str(&o, ",\"error\":");
				out_json_str(&o, why);
			} else if (v->prove) {
				out_printf(&o, ",\"proof\":\"%s\"", proofs[proof].json);
			}
			out_str(&o, "}\n");
		} else if (!err) {
			out_printf(&o, "%s: ok%s%s\n", sdb_table_meta(t)->name, v->prove ? ", " : "",
			           v->prove ? proofs[proof].text : "");
		}
		if (err)
			cli_fail("verify: %s", why);
	}
	if (!v->json) {
		out_printf(&o, "%s: %d table%s, %s", sdb_db_path(db), n, n == 1 ? "" : "s",
		           bad ? "DAMAGED" : "all intact");
		static const char *const how[] = { "not proved", "proved exact", "checked mod 3 only" };
		for (int k = 0, said = 0; v->prove && !bad && k < 3; k++) {
			const int p = (k + 1) % 3;   /* exact, mod 3, none */
			if (proved[p])
				out_printf(&o, "%s%d %s", said++ ? ", " : "; ", proved[p], how[p]);
		}
		out_char(&o, '\n');
	}
	int rc = out_flush(&o, stdout);
	out_free(&o);
	free(list);
	return bad || rc ? 1 : 0;
}
