/* SPDX-License-Identifier: MIT */
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
 * altered file is refused and the database is left as it was. Checksums
 * only say that a file is as its writer left it, and anyone can write one:
 * every table is also proved against its neighbours (prove.c) before the
 * commit, so that an export cannot make an answer wrong. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "store/store.h"
#include "store/prove.h"
#include "store/record.h"

#define MAGIC "slidedb-export 2"
#define MAGIC_1 "slidedb-export 1"
/* META_MAX holds a table's metadata lines (128 counts of up to 20 digits);
 * MAX_TABLES bounds what one import stores. */
enum { CHUNK = 1 << 20, LINE_MAX_LEN = 4096, META_MAX = 8192, MAX_TABLES = 256 };

/* --- export --------------------------------------------------------------- */

/* Append to a metadata buffer. */
static void meta_printf(char *buf, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void meta_printf(char *buf, size_t *len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf + *len, META_MAX - *len, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len = *len + (size_t)n < META_MAX ? *len + (size_t)n : META_MAX - 1;
}

/* A table's metadata lines, then "meta_crc" (CRC-32 of those lines: the
 * table's own CRC covers only its entries) and "data N". */
static int put_meta(gzFile z, const sdb_table_info *in)
{
	char goal[3 * SDB_MAX_CELLS], meta[META_MAX];
	size_t len = 0;
	sdb_board_format(goal, sizeof goal, &in->goal);
	meta_printf(meta, &len, "table\nname %s\nkind %d\nentry_format %d\nsize %dx%d\ngoal %s\n",
	            in->name, in->kind, in->entry_format, in->goal.w, in->goal.h, goal);
	meta_printf(meta, &len, "states %" PRIu64 "\nmax_distance %d\ncounts", in->states,
	            in->max_distance);
	for (int d = 0; d <= in->max_distance; d++)
		meta_printf(meta, &len, " %" PRIu64, in->counts[d]);
	meta_printf(meta, &len, "\ncrc32 %08x\nbuilt_at %" PRId64 "\nbuild_seconds %.6f\nthreads %d\n",
	            in->crc32, in->built_at, in->build_seconds, in->threads);
	meta_printf(meta, &len, "tool_version %s\nformat_version %u\n", in->tool_version,
	            in->format_version);
	if (in->kind == SDB_KIND_PATTERN)
		meta_printf(meta, &len, "set %s\npattern %" PRIx64 "\nblank_mode %d\ngroup %d\nngroups %d\n",
		            in->set, in->pattern, in->blank_mode, in->group, in->ngroups);
	uLong crc = crc32(crc32(0L, Z_NULL, 0), (const Bytef *)meta, (uInt)len);
	if (gzwrite(z, meta, (unsigned)len) != (int)len)
		return -1;
	return gzprintf(z, "meta_crc %08lx\ndata %" PRIu64 "\n", crc, sdb_table_bytes(in)) > 0
	       ? 0 : -1;
}

/* How far an export is: its caller's callback and the bytes so far. */
typedef struct export_progress {
	sdb_progress_fn fn;
	void *ctx;
	uint64_t done, total;
} export_progress;

/* The entries as stored (whole or in chunks), then a newline. */
static int put_data(gzFile z, const sdb_table *t, export_progress *p)
{
	for (int c = 0; c < sdb_table_chunks(t); c++) {
		uint64_t size;
		const uint8_t *data = sdb_table_chunk(t, c, &size);
		while (size) {
			unsigned part = size > CHUNK ? CHUNK : (unsigned)size;
			if (gzwrite(z, data, part) != (int)part)
				return -1;
			data += part;
			size -= part;
			p->done += part;
			if (p->fn)
				p->fn(p->ctx, p->done, p->total);
		}
	}
	return gzputc(z, '\n') == '\n' ? 0 : -1;
}

int sdb_db_export(const sdb_db *db, const char *const *names, int nnames, const char *path,
                  int *ntables, sdb_progress_fn fn, void *ctx)
{
	*ntables = 0;
	const sdb_table **chosen = NULL;
	int n = sdbi_tables_chosen(&chosen, db, names, nnames);
	if (n < 0)
		return n;
	/* Write beside the target and rename: a failed export leaves no half file. */
	int to_stdout = !strcmp(path, "-");
	/* A regular file is written beside and renamed over; anything else at
	 * the path (a link, a FIFO, a device) would be replaced by the rename or
	 * get nothing: refused. */
	struct stat st;
	if (!to_stdout && lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		free(chosen);
		if (S_ISDIR(st.st_mode))
			return sdbi_fail(SDB_EINVAL, "%s: a folder: export to a file in it (-o %s%sNAME.gz), "
			                "or to '-' for standard output", path, path,
			                path[strlen(path) - 1] == '/' ? "" : "/");
		return sdbi_fail(SDB_EINVAL, "%s: not a regular file (a link, FIFO or device): export "
		                "to a new or regular file, or to '-' for standard output", path);
	}
	export_progress progress = { fn, ctx, 0, 0 };
	for (int i = 0; i < n; i++)
		progress.total += sdb_table_bytes(sdb_table_meta(chosen[i]));
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s.tmp%d", path, (int)getpid());
	/* (a link or a FIFO planted at the temporary name is refused too) */
	const int fd = to_stdout ? dup(STDOUT_FILENO)
	               : sdb_file_open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0666);
	gzFile z = fd >= 0 ? gzdopen(fd, "wb6") : NULL;
	if (!z) {
		if (fd >= 0)
			close(fd);
		free(chosen);
		return fd < 0 && !to_stdout ? fd
		       : sdbi_fail(SDB_EIO, "%s: cannot create it", to_stdout ? "standard output" : tmp);
	}
	int err = gzprintf(z, "%s\n", MAGIC) <= 0 ? SDB_EIO : SDB_OK;
	for (int i = 0; i < n && !err; i++) {
		const sdb_table_info *in = sdb_table_meta(chosen[i]);
		if (sdb_table_verify(chosen[i]))   /* also: the entries are readable */
			err = SDB_ECORRUPT;
		else if (put_meta(z, in) || put_data(z, chosen[i], &progress))
			err = sdbi_fail(SDB_EIO, "%s: write failed", path);
	}
	if (!err && gzprintf(z, "end %d\n", n) <= 0)
		err = sdbi_fail(SDB_EIO, "%s: write failed", path);
	if (gzclose(z) != Z_OK && !err)
		err = sdbi_fail(SDB_EIO, "%s: write failed", path);
	if (!err && !to_stdout && rename(tmp, path))
		err = sdbi_fail(SDB_EIO, "%s: cannot rename %s to it", path, tmp);
	if (err && !to_stdout)
		unlink(tmp);
	if (!err)
		*ntables = n;
	free(chosen);
	return sdbi_done(err);
}

/* --- import --------------------------------------------------------------- */

typedef struct reader {
	gzFile z;
	const char *file;
	int fd;           /* the file's own descriptor (-1: standard input) */
	char line[LINE_MAX_LEN];
	uLong crc;        /* CRC-32 and length of everything read: what the gzip */
	uint64_t size;    /* trailer at the end of the file must say */
	uint8_t *buf;     /* CHUNK bytes: entries on their way into the database */
} reader;

static void seen_bytes(reader *r, const void *p, size_t n)
{
	for (size_t done = 0; done < n;) {
		uInt chunk = n - done > (1u << 30) ? 1u << 30 : (uInt)(n - done);
		r->crc = crc32(r->crc, (const Bytef *)p + done, chunk);
		done += chunk;
	}
	r->size += n;
}

/* The next header line, without its newline; NULL at the end or on error. */
static char *next_line(reader *r)
{
	if (!gzgets(r->z, r->line, sizeof r->line))
		return NULL;
	size_t len = strlen(r->line);
	if (len == 0 || r->line[len - 1] != '\n')
		return NULL;
	seen_bytes(r, r->line, len);
	r->line[len - 1] = '\0';
	return r->line;
}

/* A refusal; zlib's own finding (a bad CRC, a cut stream) comes first. */
static int bad(const reader *r, const char *what)
{
	int zerr;
	const char *zmsg = gzerror(r->z, &zerr);
	if (zerr != Z_OK && zerr != Z_STREAM_END)
		return sdbi_fail(SDB_ECORRUPT, "%s: damaged or truncated gzip data (%s)", r->file, zmsg);
	return sdbi_fail(SDB_ECORRUPT, "%s: %s", r->file, what);
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
		if (sdb_board_size_parse(&w, &h, val))
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
	else if (!strcmp(key, "pattern")) in->pattern = v;
	else if (!strcmp(key, "blank_mode")) in->blank_mode = (int)v;
	else if (!strcmp(key, "group")) in->group = (int)v;
	else if (!strcmp(key, "ngroups")) in->ngroups = (int)v;
	else return -1;
	return 0;
}

/* Whether a table's metadata describes a table this slidedb can use. */
static const char *check_meta(const sdb_table_info *in)
{
	const char *why = sdbi_info_problem(in);
	if (why || sdb_kind_is_full(in->kind))
		return why;
	sdb_pattern *p;
	if (sdb_pattern_new(&p, &in->goal, in->pattern, in->blank_mode))
		return "damaged metadata";
	uint64_t size = sdb_pattern_size(p);
	sdb_pattern_free(p);
	return size == in->states ? NULL : "a pattern table of the wrong size";
}

/* The proof of entries e of table in, then the caller's check. */
static int prove_entries(const reader *rd, const sdb_table_info *in, const sdbi_entries *e,
                         const sdb_import_opts *opts)
{
	char why[512] = "";
	int proof, err = sdbi_prove(&proof, in, NULL, e, &opts->prove);
	if (err) {
		snprintf(why, sizeof why, "%s", sdb_error_detail());
		return sdbi_fail(err, "%s: %s", rd->file, why);
	}
	if (opts->check) {
		err = opts->check(opts->ctx, in, e->shift == 63 ? e->chunk[0] : NULL, proof, why,
		                  sizeof why);
		return err ? sdbi_fail(err, "%s: table '%s': %s", rd->file, in->name,
		                       why[0] ? why : sdb_strerror(err)) : SDB_OK;
	}
	if (proof == SDB_PROOF_NONE)
		return sdbi_fail(SDB_EINVAL, "%s: table '%s' is a %s, which the library cannot prove: "
		                "import it with `slidedb-gen import`, which builds it again to compare",
		                rd->file, in->name, in->kind == SDB_KIND_FULL_MTM
		                ? "two-bit multi-tile table" : "min-mode group");
	return SDB_OK;
}

/* The table just recorded, read back from the transaction: its counts
 * (counted on the way in when it was appended in chunks) and its proof. */
static int prove_table(sdb_writer *w, const reader *rd, const sdb_table_info *in,
                       const uint64_t *appended, const sdb_import_opts *opts)
{
	const uint8_t **chunk;
	int shift, err = sdbi_writer_entries(w, &chunk, &shift);
	if (err)
		return err;
	uint64_t counts[SDB_MAX_DISTANCE], want[SDB_MAX_DISTANCE];
	if (appended)
		memcpy(counts, appended, sizeof counts);
	else
		err = sdb_table_recount(counts, in, chunk[0]);
	sdb_table_expected_counts(want, in);
	if (!err && (memcmp(counts, want, sizeof counts) || !in->counts[in->max_distance]))
		err = bad(rd, "a table's counts per distance contradict its entries");
	const sdbi_entries e = { chunk, shift };
	if (!err)
		err = prove_entries(rd, in, &e, opts);
	free(chunk);
	return err;
}

static int import_table(sdb_writer *w, reader *rd, const sdb_db *db, const sdb_import_opts *opts,
                        char (*seen)[SDB_NAME_MAX], int nseen)
{
	sdb_table_info in;
	memset(&in, 0, sizeof in);
	char *line;
	uLong crc_meta = crc32(crc32(0L, Z_NULL, 0), (const Bytef *)"table\n", 6);
	while ((line = next_line(rd)) && strncmp(line, "meta_crc ", 9)) {
		crc_meta = crc32(crc_meta, (const Bytef *)line, (uInt)strlen(line));
		crc_meta = crc32(crc_meta, (const Bytef *)"\n", 1);
		char *space = strchr(line, ' ');
		if (!space)
			return bad(rd, "damaged metadata");
		*space = '\0';
		if (parse_field(&in, line, space + 1))
			return bad(rd, "damaged metadata");
	}
	char *end;
	if (!line || strtoul(line + 9, &end, 16) != crc_meta || *end)
		return bad(rd, line ? "a table's metadata fails its CRC-32 check" : "cut short");
	if (!(line = next_line(rd)) || strncmp(line, "data ", 5))
		return bad(rd, line ? "damaged metadata" : "cut short");
	/* Everything is checked against the board and format before any space
	 * is taken for the entries. */
	const char *why = check_meta(&in);
	uint64_t bytes = sdb_table_bytes(&in);
	if (why || strtoull(line + 5, &end, 10) != bytes || *end)
		return bad(rd, why ? why : "damaged metadata");
	for (int i = 0; i < nseen; i++)
		if (!strcmp(seen[i], in.name))
			return bad(rd, "a table appears twice");
	snprintf(seen[nseen], SDB_NAME_MAX, "%s", in.name);
	if (!(opts->flags & SDB_REPLACE) && sdb_table_find(db, in.name))
		return sdbi_fail(SDB_EEXIST, "%s: table '%s' exists in %s (import --replace "
		                "replaces it)", rd->file, in.name, sdb_db_path(db));
	/* Into the reserved pages when the table is stored whole; appended
	 * (and counted on the way) when it is stored in chunks. */
	const int whole = bytes <= sdb_writer_max_whole(w);
	uint64_t counts[SDB_MAX_DISTANCE] = { 0 };
	uint8_t *data = NULL;
	int err = whole ? sdb_writer_reserve(w, &data, in.name, bytes)
	                : sdb_writer_open_table(w, in.name, bytes);
	for (uint64_t done = 0; done < bytes && !err;) {
		unsigned part = bytes - done > CHUNK ? CHUNK : (unsigned)(bytes - done);
		uint8_t *to = whole ? data + done : rd->buf;
		if (gzread(rd->z, to, part) != (int)part)
			return bad(rd, "cut short or damaged");
		seen_bytes(rd, to, part);
		if (!whole) {   /* chunked tables are two-bit tables (check_meta) */
			uint64_t first = done * 4, states = in.states - first;
			sdbi_count_mod3(counts, rd->buf, states < 4ull * part ? states : 4ull * part);
			err = sdb_writer_append(w, rd->buf, part);
		}
		done += part;
	}
	if (err)
		return err;
	if (gzgetc(rd->z) != '\n')
		return bad(rd, "damaged");
	seen_bytes(rd, "\n", 1);
	uint32_t crc = in.crc32;
	if ((err = sdb_writer_put_meta(w, &in)))
		return err;
	if (in.crc32 != crc)   /* put_meta computed it from the bytes */
		return bad(rd, "a table's entries fail their CRC-32 check");
	return prove_table(w, rd, &in, whole ? NULL : counts, opts);
}

/* Whether the stream ends right here, with a correct gzip trailer. */
static int at_clean_end(reader *r)
{
	int zerr;
	int c = gzgetc(r->z);
	gzerror(r->z, &zerr);
	return c == -1 && zerr == Z_OK;
}

/* Whether the file ends with the gzip trailer of what was read (CRC-32 and
 * length, little-endian): zlib skips bytes after a gzip stream that are not
 * another stream, and an export must not carry any. */
static int ends_with_trailer(const reader *r)
{
	struct stat st;
	uint8_t t[8] = { 0 };
	int ok = fstat(r->fd, &st) == 0 && st.st_size >= 8 &&
	         pread(r->fd, t, 8, st.st_size - 8) == 8;
	uint32_t crc = (uint32_t)t[0] | (uint32_t)t[1] << 8 | (uint32_t)t[2] << 16 |
	               (uint32_t)t[3] << 24;
	uint32_t size = (uint32_t)t[4] | (uint32_t)t[5] << 8 | (uint32_t)t[6] << 16 |
	                (uint32_t)t[7] << 24;
	return ok && crc == (uint32_t)r->crc && size == (uint32_t)r->size;
}

/* Read an export into the writer's transaction; see sdb_db_import(). */
static int import_into(sdb_writer *w, const sdb_db *db, const char *path,
                       const sdb_import_opts *opts, int *ntables)
{
	reader rd = { .file = path, .fd = -1, .crc = crc32(0L, Z_NULL, 0) };
	if (!(rd.buf = malloc(CHUNK)))
		return sdbi_fail(SDB_ENOMEM, "%s: out of memory", path);
	/* A path must be a regular file (a FIFO would wait for a writer); a
	 * stream comes as "-", standard input, which may be a pipe. */
	const int std_in = !strcmp(path, "-");
	rd.fd = std_in ? -1 : sdb_file_open(path, O_RDONLY, 0);
	if (!std_in && rd.fd < 0) {
		free(rd.buf);
		if (errno != EINVAL)
			return rd.fd;   /* said: no such file, or unreadable */
		char why[1024];   /* (the detail is rewritten: a copy) */
		snprintf(why, sizeof why, "%s", sdb_error_detail());
		/* a pipe is read as standard input, "-", only */
		return sdbi_fail(rd.fd, "%s: import a stream as '-', from standard input", why);
	}
	const int fd = dup(std_in ? STDIN_FILENO : rd.fd);
	rd.z = fd >= 0 ? gzdopen(fd, "rb") : NULL;
	if (!rd.z) {
		if (fd >= 0)
			close(fd);
		if (rd.fd >= 0)
			close(rd.fd);
		free(rd.buf);
		return sdbi_fail(SDB_EIO, "%s: cannot read it", std_in ? "standard input" : path);
	}
	gzbuffer(rd.z, CHUNK);
	char *line = next_line(&rd);
	int err = SDB_OK;
	if (line && !strcmp(line, MAGIC_1))
		err = bad(&rd, "an export of slidedb 0.1, whose metadata has no checksum: export the "
		          "tables again with this slidedb");
	else if (!line || strcmp(line, MAGIC))
		err = bad(&rd, "not a slidedb export");
	if (!err && gzdirect(rd.z))   /* zlib would read plain text as is: no gzip checks */
		err = bad(&rd, "not gzip-compressed (slidedb exports are gzip streams)");
	static _Thread_local char seen[MAX_TABLES][SDB_NAME_MAX];
	int n = 0;
	while (!err && (line = next_line(&rd)) && !strcmp(line, "table")) {
		if (n == MAX_TABLES)
			err = bad(&rd, "more than 256 tables in one export");
		else if (!(err = import_table(w, &rd, db, opts, seen, n)))
			n++;
	}
	if (!err) {
		char *end;
		if (!line || strncmp(line, "end ", 4) || strtol(line + 4, &end, 10) != n || *end)
			err = bad(&rd, "cut short (no end marker)");
		else if (!at_clean_end(&rd))   /* zlib checks the gzip CRC and length here */
			err = bad(&rd, "damaged, or data after the end");
		else if (strcmp(path, "-") && !ends_with_trailer(&rd))
			err = sdbi_fail(SDB_ECORRUPT, "%s: data after the end of the gzip stream", path);
	}
	gzclose(rd.z);
	if (rd.fd >= 0)
		close(rd.fd);
	free(rd.buf);
	if (!err)
		*ntables = n;
	return err;
}

int sdb_db_import(sdb_db *db, const char *path, const sdb_import_opts *opts, int *ntables)
{
	*ntables = 0;
	static const sdb_import_opts defaults = SDB_IMPORT_OPTS_INIT;
	if (!opts)
		opts = &defaults;
	if (opts->version != SDB_IMPORT_OPTS_VERSION)
		return sdbi_fail(SDB_EINVAL, "sdb_import_opts of version %u, not %u", opts->version,
		                SDB_IMPORT_OPTS_VERSION);
	sdb_writer *w;
	int n = 0, err = sdb_writer_begin(&w, db);
	if (err)
		return err;
	if ((err = import_into(w, db, path, opts, &n))) {
		sdb_writer_abort(w);
		return err;
	}
	if ((err = sdb_writer_commit(w)))
		return err;
	*ntables = n;
	return sdbi_done(SDB_OK);
}
