/* What a name means: one table, every table of a pattern-database set, or
 * every goal class of a full size ("full-3x3"). Upkeep, export, info and
 * verify all choose tables this one way. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"

/* Whether name is the full size a full table belongs to: "full-3x3" for
 * "full-3x3-b4". */
static int is_family(const sdb_table_info *in, const char *name)
{
	const char *b = strrchr(in->name, '-');
	size_t len = b ? (size_t)(b - in->name) : 0;
	return in->kind == SDB_KIND_FULL && b && b[1] == 'b' && strlen(name) == len &&
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
	for (int i = 0; i < sdb_table_count(db); i++) {
		const sdb_table *t = sdb_table_at(db, i);
		if (means(sdb_table_meta(t), name)) {
			if (n < cap)
				out[n] = t;
			n++;
		}
	}
	if (n == 0)
		return sdbi_fail(SDB_ENOTFOUND, "%s has no table, set or full size named '%s'",
		                sdb_db_path(db), name);
	return sdbi_done(n);
}

int sdbi_tables_chosen(const sdb_table ***out, const sdb_db *db, const char *const *names,
                      int nnames)
{
	int total = sdb_table_count(db), n = 0;
	const sdb_table **chosen = malloc((size_t)(total ? total : 1) * sizeof *chosen);
	char *taken = calloc((size_t)(total ? total : 1), 1);
	int err = chosen && taken ? SDB_OK : sdbi_fail(SDB_ENOMEM, "out of memory");
	for (int k = 0; k < nnames && !err; k++) {
		int found = 0;
		for (int i = 0; i < total; i++)
			if (means(sdb_table_meta(sdb_table_at(db, i)), names[k])) {
				found = 1;
				if (!taken[i]) {
					taken[i] = 1;
					chosen[n++] = sdb_table_at(db, i);
				}
			}
		if (!found)
			err = sdbi_fail(SDB_ENOTFOUND, "%s has no table, set or full size named '%s'",
			               sdb_db_path(db), names[k]);
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
	for (int i = 0; i < sdb_table_count(db); i++) {
		const sdb_table *t = sdb_table_at(db, i);
		const char *name = t->info.name;
		int tw, th;
		if (!t->raw_key || !strncmp(name, "full-", 5) ||
		    (sscanf(name, "pdb-%dx%d-", &tw, &th) == 2 && (tw != w || th != h)))
			continue;
		return t;
	}
	return NULL;
}
