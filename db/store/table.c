/* SPDX-License-Identifier: MIT */
/* A handle's tables: by position, by name, and by what a name means (one
 * table, every table of a pattern-database set, or every goal class of a
 * full size: "full-3x3"; upkeep, export, info and verify all choose tables
 * this one way); what each is (its catalog entry, or why it cannot be
 * used), and its entries, whole or in chunks; a pattern table's pattern,
 * made once and kept with it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/env.h"

int sdb_table_count(const sdb_db *db)
{
	return db->ntables;
}

const sdb_table *sdb_table_at(const sdb_db *db, int i)
{
	return i >= 0 && i < db->ntables ? &db->table[i] : NULL;
}

const sdb_table *sdb_table_find(const sdb_db *db, const char *name)
{
	/* A handful of tables, and a damaged entry's printable name may be out
	 * of key order: a plain scan. */
	for (int i = 0; i < db->ntables; i++)
		if (!strcmp(db->table[i].info.name, name)) {
			sdbi_done(SDB_OK);
			return &db->table[i];
		}
	sdbi_fail(SDB_ENOTFOUND, "%s: no table named '%s'", db->path, name);
	return NULL;
}

const char *sdb_table_problem(const sdb_table *t)
{
	return t->raw_key || (t->db->rtxn && !t->chunk) ? t->problem : NULL;
}

const sdb_table_info *sdb_table_meta(const sdb_table *t)
{
	return &t->info;
}

int sdbi_table_resolved(const sdb_table *t)
{
	if (t->chunk)
		return 1;
	if (!t->db->rtxn)
		sdbi_fail(SDB_EINVAL, "%s: tables are read through a read-only handle", t->db->path);
	else
		sdbi_fail(SDB_ECORRUPT, "%s: table '%s' is %s", t->db->path, t->info.name, t->problem);
	return 0;
}

const uint8_t *sdb_table_data(const sdb_table *t)
{
	if (t->data || !sdbi_table_resolved(t))
		return t->data;
	sdbi_fail(SDB_EINVAL, "%s: table '%s' is stored in %d chunks: read it with "
	         "sdb_table_chunk()", t->db->path, t->info.name, t->nchunks);
	return NULL;
}

int sdb_table_chunks(const sdb_table *t)
{
	return sdbi_table_resolved(t) ? t->nchunks : SDB_ECORRUPT;
}

const uint8_t *sdb_table_chunk(const sdb_table *t, int i, uint64_t *bytes)
{
	*bytes = 0;
	if (!sdbi_table_resolved(t))
		return NULL;
	if (i < 0 || i >= t->nchunks) {
		sdbi_fail(SDB_EINVAL, "table '%s' has %d chunk%s, not %d", t->info.name, t->nchunks,
		         t->nchunks == 1 ? "" : "s", i + 1);
		return NULL;
	}
	*bytes = sdbi_chunk_bytes(t, i);
	return t->chunk[i];
}

uint64_t sdb_table_bytes(const sdb_table_info *info)
{
	if (info->entry_format == SDB_ENTRY_MOD3)
		return (info->states + 3) / 4;
	return info->entry_format == SDB_ENTRY_NIBBLE_MD ? (info->states + 1) / 2 : info->states;
}

uint64_t sdbi_chunk_bytes(const sdb_table *t, int c)
{
	const uint64_t total = sdb_table_bytes(&t->info), size = t->chunk_mask + 1;
	return t->nchunks == 1 ? total : c + 1 < t->nchunks ? size : total - (uint64_t)c * size;
}

int sdbi_table_pattern(const sdb_pattern **out, const sdb_table *ct)
{
	struct sdb_table *t = (struct sdb_table *)ct;   /* made once: not part of its value */
	sdb_pattern *p = __atomic_load_n(&t->pattern, __ATOMIC_ACQUIRE), *none = NULL;
	if (!p) {   /* two threads may both make it: the first kept wins */
		const int err = sdb_pattern_of_table(&p, &t->info);
		if (err)
			return err;
		if (!__atomic_compare_exchange_n(&t->pattern, &none, p, 0, __ATOMIC_ACQ_REL,
		                                 __ATOMIC_ACQUIRE)) {
			sdb_pattern_free(p);
			p = none;
		}
	}
	*out = p;
	return SDB_OK;
}

int sdb_table_name_full(char *buf, size_t cap, int w, int h, int blank_cell)
{
	return sdb_table_name_full_metric(buf, cap, w, h, blank_cell, SDB_METRIC_STM);
}

int sdb_table_name_full_metric(char *buf, size_t cap, int w, int h, int blank_cell, int metric)
{
	int len = snprintf(buf, cap, "full-%dx%d%s-b%d", w, h,
	                   metric == SDB_METRIC_MTM ? "-mtm" : "", blank_cell);
	if (len < 0 || (size_t)len >= cap)
		return sdbi_fail(SDB_EINVAL, "buffer too small for a table name");
	return len;
}

int sdb_kind_is_full(int kind)
{
	return kind == SDB_KIND_FULL || kind == SDB_KIND_FULL_MTM;
}

int sdb_table_metric(const sdb_table_info *info)
{
	return info->kind == SDB_KIND_FULL_MTM ? SDB_METRIC_MTM : SDB_METRIC_STM;
}

/* Whether name is the full size a full table belongs to: "full-3x3" for
 * "full-3x3-b4", "full-3x3-mtm" for "full-3x3-mtm-b4". */
static int is_family(const sdb_table_info *in, const char *name)
{
	const char *b = strrchr(in->name, '-');
	size_t len = b ? (size_t)(b - in->name) : 0;
	return sdb_kind_is_full(in->kind) && b && b[1] == 'b' && strlen(name) == len &&
	       !strncmp(in->name, name, len);
}

static int means(const sdb_table_info *in, const char *name)
{
	return !strcmp(in->name, name) || (in->kind == SDB_KIND_PATTERN && !strcmp(in->set, name)) ||
	       is_family(in, name);
}

int sdb_table_select(const sdb_table **out, int cap, const sdb_db *db, const char *name)
{
	int n = 0;
	for (int i = 0; i < db->ntables; i++) {
		const sdb_table *t = &db->table[i];
		if (means(&t->info, name)) {
			if (n < cap)
				out[n] = t;
			n++;
		}
	}
	if (n == 0)
		return sdbi_fail(SDB_ENOTFOUND, "%s has no table, set or full size named '%s'",
		                db->path, name);
	return sdbi_done(n);
}

int sdbi_tables_chosen(const sdb_table ***out, const sdb_db *db, const char *const *names,
                      int nnames)
{
	int total = db->ntables, n = 0;
	const sdb_table **chosen = malloc((size_t)(total ? total : 1) * sizeof *chosen);
	char *taken = calloc((size_t)(total ? total : 1), 1);
	int err = chosen && taken ? SDB_OK : sdbi_fail(SDB_ENOMEM, "out of memory");
	for (int k = 0; k < nnames && !err; k++) {
		int found = 0;
		for (int i = 0; i < total; i++)
			if (means(&db->table[i].info, names[k])) {
				found = 1;
				if (!taken[i]) {
					taken[i] = 1;
					chosen[n++] = &db->table[i];
				}
			}
		if (!found)
			err = sdbi_fail(SDB_ENOTFOUND, "%s has no table, set or full size named '%s'",
			               db->path, names[k]);
	}
	free(taken);
	if (err) {
		free(chosen);
		return err;
	}
	*out = chosen;
	return n;
}

const sdb_table *sdbi_damaged_group(const sdb_db *db, int w, int h)
{
	for (int i = 0; i < db->ntables; i++) {
		const sdb_table *t = &db->table[i];
		const char *name = t->info.name;
		int tw, th;
		if (!t->raw_key || !strncmp(name, "full-", 5) ||
		    (sscanf(name, "pdb-%dx%d-", &tw, &th) == 2 && (tw != w || th != h)))
			continue;
		return t;
	}
	return NULL;
}
