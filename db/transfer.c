/* Export and import: tables as a standard gzip stream, to move a database
 * between machines.
 *
 * The stream holds text headers and raw entries:
 *   slidedb-export 1
 *   table                       one block per table:
 *   name full-3x3-b0              metadata, one "key value" line each
 *   ...
 *   data 181440                   then that many bytes of entries and "\n"
 *   end 3                       the number of tables: a stream without it
 *                               was cut short
 * Import checks everything before it commits: the gzip CRC and length (zlib),
 * every table's own CRC-32, the format, and the end marker. A truncated or
 * altered file is refused and the database is left as it was. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "internal.h"

#define MAGIC "slidedb-export 1"
enum { CHUNK = 1 << 20, LINE_MAX_LEN = 1024 };

/* --- export --------------------------------------------------------------- */

static int put_meta(gzFile z, const sdb_table_info *in)
{
	char goal[3 * SDB_MAX_CELLS];
	sdb_board_format(goal, sizeof goal, &in->goal);
	gzprintf(z, "table\nname %s\nkind %d\nentry_format %d\nsize %dx%d\ngoal %s\n", in->name,
	         in->kind, in->entry_format, in->goal.w, in->goal.h, goal);
	gzprintf(z, "states %" PRIu64 "\nmax_distance %d\ncounts", in->states, in->max_distance);
	for (int d = 0; d <= in->max_distance; d++)
		gzprintf(z, " %" PRIu64, in->counts[d]);
	gzprintf(z, "\ncrc32 %08x\nbuilt_at %" PRId64 "\nbuild_seconds %.6f\nthreads %d\n", in->crc32,
	         in->built_at, in->build_seconds, in->threads);
	gzprintf(z, "tool_version %s\nformat_version %u\n", in->tool_version, in->format_version);
	if (in->kind == SDB_KIND_PATTERN)
		gzprintf(z, "set %s\npattern %x\nblank_mode %d\ngroup %d\nngroups %d\n", in->set,
		         in->pattern, in->blank_mode, in->group, in->ngroups);
	return gzprintf(z, "data %" PRIu64 "\n", sdb_table_bytes(in)) > 0 ? 0 : -1;
}

static int put_data(gzFile z, const uint8_t *data, uint64_t size)
{
	while (size) {
		unsigned chunk = size > CHUNK ? CHUNK : (unsigned)size;
		if (gzwrite(z, data, chunk) != (int)chunk)
			return -1;
		data += chunk;
		size -= chunk;
	}
	return gzputc(z, '\n') == '\n' ? 0 : -1;
}

int sdb_export(const sdb_db *db, const char *const *names, int nnames, const char *path,
               int *ntables)
{
	*ntables = 0;
	const sdb_table **chosen = NULL;
	int n = sdb_tables_chosen(&chosen, db, names, nnames);
	if (n < 0)
		return n;
	/* Write beside the target and rename: a failed export leaves no half file. */
	int to_stdout = !strcmp(path, "-");
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s.tmp%d", path, (int)getpid());
	gzFile z = to_stdout ? gzdopen(dup(STDOUT_FILENO), "wb6") : gzopen(tmp, "wb6");
	if (!z) {
		free(chosen);
		return sdb_fail(SDB_EIO, "%s: cannot create it", to_stdout ? "standard output" : tmp);
	}
	int err = gzprintf(z, "%s\n", MAGIC) <= 0 ? SDB_EIO : SDB_OK;
	for (int i = 0; i < n && !err; i++) {
		const sdb_table_info *in = sdb_table_meta(chosen[i]);
		const uint8_t *data = sdb_table_data(chosen[i]);
		if (!data || (err = sdb_table_verify(chosen[i])))
			err = SDB_ECORRUPT;
		else if (put_meta(z, in) || put_data(z, data, sdb_table_bytes(in)))
			err = sdb_fail(SDB_EIO, "%s: write failed", path);
	}
	if (!err && gzprintf(z, "end %d\n", n) <= 0)
		err = sdb_fail(SDB_EIO, "%s: write failed", path);
	if (gzclose(z) != Z_OK && !err)
		err = sdb_fail(SDB_EIO, "%s: write failed", path);
	if (!err && !to_stdout && rename(tmp, path))
		err = sdb_fail(SDB_EIO, "%s: cannot rename %s to it", path, tmp);
	if (err && !to_stdout)
		unlink(tmp);
	if (!err)
		*ntables = n;
	free(chosen);
	return sdb_done(err);
}

/* --- import --------------------------------------------------------------- */

typedef struct reader {
	gzFile z;
	const char *file;
	char line[LINE_MAX_LEN];
} reader;

/* The next header line, without its newline; NULL at the end or on error. */
static char *next_line(reader *r)
{
	if (!gzgets(r->z, r->line, sizeof r->line))
		return NULL;
	size_t len = strlen(r->line);
	if (len == 0 || r->line[len - 1] != '\n')
		return NULL;
	r->line[len - 1] = '\0';
	return r->line;
}

/* A refusal; zlib's own finding (a bad CRC, a cut stream) comes first. */
static int bad(const reader *r, const char *what)
{
	int zerr;
	const char *zmsg = gzerror(r->z, &zerr);
	if (zerr != Z_OK && zerr != Z_STREAM_END)
		return sdb_fail(SDB_ECORRUPT, "%s: damaged or truncated gzip data (%s)", r->file, zmsg);
	return sdb_fail(SDB_ECORRUPT, "%s: %s", r->file, what);
}

/* One "key value" metadata line into info; 0, or -1 if unknown or malformed. */
static int parse_field(sdb_table_info *in, const char *key, const char *val)
{
	int w, h;
	char *end;
	if (!strcmp(key, "name"))
		return snprintf(in->name, sizeof in->name, "%s", val) < (int)sizeof in->name ? 0 : -1;
	if (!strcmp(key, "set"))
		return snprintf(in->set, sizeof in->set, "%s", val) < (int)sizeof in->set ? 0 : -1;
	if (!strcmp(key, "tool_version"))
		return snprintf(in->tool_version, sizeof in->tool_version, "%s", val) <
		       (int)sizeof in->tool_version ? 0 : -1;
	if (!strcmp(key, "size")) {
		if (sdb_size_parse(&w, &h, val))
			return -1;
		in->goal.w = (uint8_t)w;
		in->goal.h = (uint8_t)h;
		return 0;
	}
	if (!strcmp(key, "goal"))
		return sdb_board_parse(&in->goal, val, in->goal.w, in->goal.h) ? -1 : 0;
	if (!strcmp(key, "counts")) {
		const char *p = val;
		for (int d = 0; d < SDB_MAX_DISTANCE && *p; d++) {
			in->counts[d] = strtoull(p, &end, 10);
			if (end == p)
				return -1;
			p = end + strspn(end, " ");
		}
		return *p ? -1 : 0;
	}
	if (!strcmp(key, "build_seconds")) {
		in->build_seconds = strtod(val, &end);
		return end == val || *end ? -1 : 0;
	}
	int hex = !strcmp(key, "crc32") || !strcmp(key, "pattern");
	unsigned long long v = strtoull(val, &end, hex ? 16 : 10);
	if (end == val || *end)
		return -1;
	if (!strcmp(key, "kind")) in->kind = (int)v;
	else if (!strcmp(key, "entry_format")) in->entry_format = (int)v;
	else if (!strcmp(key, "states")) in->states = v;
	else if (!strcmp(key, "max_distance")) in->max_distance = (int)v;
	else if (!strcmp(key, "crc32")) in->crc32 = (uint32_t)v;
	else if (!strcmp(key, "built_at")) in->built_at = (int64_t)v;
	else if (!strcmp(key, "threads")) in->threads = (int)v;
	else if (!strcmp(key, "format_version")) in->format_version = (uint32_t)v;
	else if (!strcmp(key, "pattern")) in->pattern = (uint32_t)v;
	else if (!strcmp(key, "blank_mode")) in->blank_mode = (int)v;
	else if (!strcmp(key, "group")) in->group = (int)v;
	else if (!strcmp(key, "ngroups")) in->ngroups = (int)v;
	else return -1;
	return 0;
}

/* Whether a table's metadata describes a table this slidedb can use. */
static const char *check_meta(const sdb_table_info *in)
{
	if (in->format_version != SDB_FORMAT_VERSION)
		return "a table of another format version";
	sdb_board canon;
	if (!in->name[0] || !sdb_size_valid(in->goal.w, in->goal.h) || in->max_distance < 0 ||
	    in->max_distance >= SDB_MAX_DISTANCE ||
	    sdb_board_goal(&canon, in->goal.w, in->goal.h, in->goal.blank) ||
	    !sdb_board_equal(&canon, &in->goal))
		return "damaged metadata";
	if (in->kind == SDB_KIND_FULL)
		return in->entry_format == SDB_ENTRY_DIST6_MOVE2 &&
		       in->states == sdb_rank_count(in->goal.w, in->goal.h) ? NULL : "damaged metadata";
	if (in->kind != SDB_KIND_PATTERN || !in->set[0] || in->group < 0 ||
	    in->group >= in->ngroups ||
	    (in->entry_format != SDB_ENTRY_DIST8 && in->entry_format != SDB_ENTRY_NIBBLE_MD))
		return "damaged metadata";
	sdb_pattern *p;
	if (sdb_pattern_new(&p, &in->goal, in->pattern, in->blank_mode))
		return "damaged metadata";
	uint64_t size = sdb_pattern_size(p);
	sdb_pattern_free(p);
	return size == in->states ? NULL : "damaged metadata";
}

static int import_table(sdb_writer *w, reader *rd, const sdb_db *db, unsigned flags)
{
	sdb_table_info in;
	memset(&in, 0, sizeof in);
	char *line;
	while ((line = next_line(rd)) && strncmp(line, "data ", 5)) {
		char *space = strchr(line, ' ');
		if (!space)
			return bad(rd, "damaged metadata");
		*space = '\0';
		if (parse_field(&in, line, space + 1))
			return bad(rd, "damaged metadata");
	}
	if (!line)
		return bad(rd, "cut short");
	const char *why = check_meta(&in);
	uint64_t bytes = sdb_table_bytes(&in);
	if (why || strtoull(line + 5, NULL, 10) != bytes)
		return bad(rd, why ? why : "damaged metadata");
	if (!(flags & SDB_REPLACE) && sdb_table_find(db, in.name))
		return sdb_fail(SDB_EEXIST, "%s: table '%s' exists in %s (import --replace "
		                "replaces it)", rd->file, in.name, sdb_db_path(db));
	uint8_t *data;
	int err = sdb_writer_reserve(w, &data, in.name, bytes);
	if (err)
		return err;
	for (uint64_t done = 0; done < bytes;) {
		unsigned chunk = bytes - done > CHUNK ? CHUNK : (unsigned)(bytes - done);
		if (gzread(rd->z, data + done, chunk) != (int)chunk)
			return bad(rd, "cut short or damaged");
		done += chunk;
	}
	if (gzgetc(rd->z) != '\n')
		return bad(rd, "damaged");
	uint32_t crc = in.crc32;
	if ((err = sdb_writer_put_meta(w, &in)))
		return err;
	if (in.crc32 != crc)   /* put_meta computed it from the bytes */
		return bad(rd, "a table's entries fail their CRC-32 check");
	uint64_t counts[SDB_MAX_DISTANCE];
	if ((err = sdb_table_recount(counts, &in, data)))
		return err;
	for (int d = 0; d < SDB_MAX_DISTANCE; d++)
		if (counts[d] != (d <= in.max_distance ? in.counts[d] : 0) ||
		    (d == in.max_distance && !counts[d]))
			return bad(rd, "a table's counts per distance contradict its entries");
	return SDB_OK;
}

/* Whether the stream ends right here, with a correct gzip trailer. */
static int at_clean_end(reader *r)
{
	int zerr;
	int c = gzgetc(r->z);
	gzerror(r->z, &zerr);
	return c == -1 && zerr == Z_OK;
}

/* Read an export into the writer's transaction; see sdb_import(). */
static int import_into(sdb_writer *w, const sdb_db *db, const char *path, unsigned flags,
                       int *ntables)
{
	reader rd = { .file = path };
	rd.z = !strcmp(path, "-") ? gzdopen(dup(STDIN_FILENO), "rb") : gzopen(path, "rb");
	if (!rd.z)
		return sdb_fail(SDB_ENOTFOUND, "%s: cannot open it", path);
	gzbuffer(rd.z, CHUNK);
	char *line = next_line(&rd);
	int err = !line || strcmp(line, MAGIC) ? bad(&rd, "not a slidedb export") : SDB_OK;
	if (!err && gzdirect(rd.z))   /* zlib would read plain text as is: no gzip checks */
		err = bad(&rd, "not gzip-compressed (slidedb exports are gzip streams)");
	int n = 0;
	while (!err && (line = next_line(&rd)) && !strcmp(line, "table") &&
	       !(err = import_table(w, &rd, db, flags)))
		n++;
	if (!err) {
		char *end;
		if (!line || strncmp(line, "end ", 4) || strtol(line + 4, &end, 10) != n || *end)
			err = bad(&rd, "cut short (no end marker)");
		else if (!at_clean_end(&rd))   /* zlib checks the gzip CRC and length here */
			err = bad(&rd, "damaged, or data after the end");
	}
	gzclose(rd.z);
	if (!err)
		*ntables = n;
	return err;
}

int sdb_import(sdb_db *db, const char *path, unsigned flags, int *ntables)
{
	*ntables = 0;
	sdb_writer *w;
	int n = 0, err = sdb_writer_begin(&w, db);
	if (err)
		return err;
	if ((err = import_into(w, db, path, flags, &n))) {
		sdb_writer_abort(w);
		return err;
	}
	if ((err = sdb_writer_commit(w)))
		return err;
	*ntables = n;
	return sdb_done(SDB_OK);
}
