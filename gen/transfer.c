/* slidedb-gen export / import: the library's gzip transfer, as commands. */
#include <stdio.h>

#include "gen.h"

int cmd_export(const options *o, const char *name)
{
	if (!o->output)
		return fail_usage("%s", "export: -o FILE.gz is required ('-' for standard output)");
	sdb_db *db;
	int n = 0;
	if (sdb_db_open(&db, o->db_path, SDB_RDONLY) || sdb_export(db, name, o->output, &n)) {
		fprintf(stderr, "%s: export: %s\n", prog, sdb_errdetail());
		sdb_db_close(db);
		return 1;
	}
	if (!o->quiet && !o->json && o->output[0] != '-')
		printf("exported %d table%s to %s\n", n, n == 1 ? "" : "s", o->output);
	sdb_db_close(db);
	return 0;
}

int cmd_import(const options *o, const char *file)
{
	run r;
	if (run_begin(&r, o))
		return 1;
	int n = 0, err = sdb_import(r.wr, file, &n);
	if (err)
		fprintf(stderr, "%s: import: %s; nothing was imported\n", prog, sdb_errdetail());
	r.ntables = n;
	return run_end(&r, err);
}
