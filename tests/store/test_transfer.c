/* SPDX-License-Identifier: MIT */
/* Export and import: a round trip keeps every byte and every field; a
 * truncated, altered or foreign file is refused and the database is left as
 * it was. */
#define _GNU_SOURCE /* memmem */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "kit/files.h"
#include "kit/forge.h"
#include "kit/run.h"
#include "kit/tables.h"
#include "kit/text.h"

static void build(char *path, size_t cap)
{
	tk_tmp_path(path, cap, "src.lmdb");
	tk_build(path, "2x4", NULL);
	char cmd[1024], *err;
	snprintf(cmd, sizeof cmd, "%s pdb 3x3 --partition 1,2,3,4/5,6,7,8 --db '%s' -q",
	         SLIDEDB_GEN, path);
	cr_assert_eq(tk_run(cmd, NULL, NULL, &err), 0, "%s", err);
	free(err);
}

/* Build the source database and export one table or set of it into a
 * fresh file called name: the number of tables exported. */
static int export_built(char *file, size_t cap, const char *name, const char *table)
{
	char src[512];
	build(src, sizeof src);
	sdb_db *db;
	int n;
	cr_assert_eq(sdb_db_open(&db, src, SDB_RDONLY), 0);
	tk_tmp_path(file, cap, name);
	cr_assert_eq(sdb_db_export(db, (const char *[]){ table }, 1, file, &n, NULL, NULL), 0, "%s",
	             sdb_error_detail());
	sdb_db_close(db);
	return n;
}

static int import_into(const char *db_path, const char *file, int *n)
{
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, db_path, SDB_CREATE), 0, "%s", sdb_error_detail());
	sdb_import_opts replace = SDB_IMPORT_OPTS_INIT;
	replace.flags = SDB_REPLACE;
	int err = sdb_db_import(db, file, &replace, n);
	sdb_db_close(db);
	return err;
}

Test(transfer, round_trip_tables_and_sets)
{
	char src[512], file[512], dst[512];
	build(src, sizeof src);
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, src, SDB_RDONLY), 0);
	int n;
	const char *set = NULL;
	for (int i = 0; i < sdb_table_count(db) && !set; i++)
		if (sdb_table_meta(sdb_table_at(db, i))->kind == SDB_KIND_PATTERN)
			set = sdb_table_meta(sdb_table_at(db, i))->set;
	cr_assert_not_null(set);
	tk_tmp_path(file, sizeof file, "set.gz");
	cr_assert_eq(sdb_db_export(db, (const char *[]){ set }, 1, file, &n, NULL, NULL), 0, "%s", sdb_error_detail());
	cr_assert_eq(n, 2);
	char one[512];
	tk_tmp_path(one, sizeof one, "one.gz");
	cr_assert_eq(sdb_db_export(db, (const char *[]){ "full-2x4-b0" }, 1, one, &n, NULL, NULL), 0);
	cr_assert_eq(n, 1);
	cr_assert_eq(sdb_db_export(db, (const char *[]){ "no-such-table" }, 1, one, &n, NULL, NULL), SDB_ENOTFOUND);
	sdb_db_close(db);
	tk_tmp_path(dst, sizeof dst, "dst.lmdb");
	cr_assert_eq(import_into(dst, file, &n), 0, "%s", sdb_error_detail());
	cr_assert_eq(n, 2);
	cr_assert_eq(import_into(dst, one, &n), 0);
	tk_assert_same_tables(src, dst, 3, "imported");
	/* importing again replaces, and stays the same */
	cr_assert_eq(import_into(dst, file, &n), 0);
	tk_assert_same_tables(src, dst, 3, "imported");
}

/* Copies of an export cut short at many points, or with one byte changed,
 * are refused, and the target keeps exactly its tables. */
Test(transfer, damaged_exports_are_refused, .timeout = 300)
{
	char file[512], dst[512], bad[512];
	int n = export_built(file, sizeof file, "ok.gz", "full-2x4-b0");
	sdb_db *db;
	tk_tmp_path(dst, sizeof dst, "keep.lmdb");
	tk_build(dst, "2x3", NULL);
	struct stat st;
	cr_assert_eq(stat(file, &st), 0);
	FILE *f = fopen(file, "rb");
	char *bytes = malloc((size_t)st.st_size);
	cr_assert_eq(fread(bytes, 1, (size_t)st.st_size, f), (size_t)st.st_size);
	fclose(f);
	tk_tmp_path(bad, sizeof bad, "bad.gz");
	for (int cut = 1; cut < 16; cut++) {
		f = fopen(bad, "wb");
		fwrite(bytes, 1, (size_t)(st.st_size * cut / 16), f);
		fclose(f);
		cr_assert_eq(import_into(dst, bad, &n), SDB_ECORRUPT, "cut at %d/16: %s", cut,
		             sdb_error_detail());
	}
	for (long at = 30; at < st.st_size - 8; at += st.st_size / 7) {
		f = fopen(bad, "wb");
		fwrite(bytes, 1, (size_t)st.st_size, f);
		fseek(f, at, SEEK_SET);
		fputc(bytes[at] ^ 0x10, f);
		fclose(f);
		cr_assert_eq(import_into(dst, bad, &n), SDB_ECORRUPT, "byte %ld altered", at);
	}
	f = fopen(bad, "wb");
	fputs("slidedb-export 1\nend 0\n", f);   /* plain text: zlib would read it as is */
	fclose(f);
	cr_assert_eq(import_into(dst, bad, &n), SDB_ECORRUPT, "an export must be gzip");
	f = fopen(bad, "wb");
	fputs("not an export\n", f);
	fclose(f);
	cr_assert_eq(import_into(dst, bad, &n), SDB_ECORRUPT);
	cr_assert(strstr(sdb_error_detail(), "not a slidedb export"), "%s", sdb_error_detail());
	cr_assert_eq(import_into(dst, "/nonexistent/x.gz", &n), SDB_ENOTFOUND);
	/* the target still has exactly its own tables, intact */
	cr_assert_eq(sdb_db_open(&db, dst, SDB_RDONLY), 0);
	cr_assert_eq(sdb_table_count(db), 2, "2x3 has two goal classes");
	for (int i = 0; i < sdb_table_count(db); i++)
		cr_assert_eq(sdb_table_verify(sdb_table_at(db, i)), 0);
	sdb_db_close(db);
	free(bytes);
}

/* Write text as a gzip file (the way an editor of an export would redo it:
 * a fresh, valid gzip stream around edited content). */
static void gzip_text(const char *path, const char *text, size_t len)
{
	cr_assert_eq(forge_gzip(path, text, len), 0, "%s", path);
}

/* The export's uncompressed bytes. */
static char *gunzip_file(const char *path, size_t *len)
{
	char *text = forge_gunzip(path, len);
	cr_assert_not_null(text, "%s", path);
	return text;
}

/* Make the metadata checksum of the table whose metadata holds `inside`
 * match its (edited) lines, as a careful forger would. */
static void reseal_meta(char *text, char *inside)
{
	cr_assert_not_null(strstr(inside, "meta_crc "));
	forge_reseal_meta(text, inside);
}

/* An export whose metadata was edited (size, goal, counts) and re-gzipped
 * with a correct gzip CRC is refused by the metadata's own checksum; bytes
 * after the gzip stream, a table given twice and an export of slidedb 0.1
 * are refused too. The target keeps its tables. */
Test(transfer, edited_metadata_and_trailing_data_are_refused)
{
	char file[512], dst[512], bad[512];
	int n = export_built(file, sizeof file, "meta.gz", "full-2x4-b0");
	sdb_db *db;
	tk_tmp_path(dst, sizeof dst, "meta-dst.lmdb");
	tk_build(dst, "2x3", NULL);
	tk_tmp_path(bad, sizeof bad, "meta-bad.gz");
	size_t len;
	char *text = gunzip_file(file, &len);
	gzip_text(bad, text, len);   /* unchanged, re-gzipped: accepted */
	cr_assert_eq(import_into(dst, bad, &n), 0, "%s", sdb_error_detail());
	static const char *const edits[][2] = {
		{ "size 2x4", "size 4x2" },
		{ "goal 0 1 2 3 4 5 6 7", "goal 1 0 2 3 4 5 6 7" },
		{ "max_distance ", "max_distance 1" },
		{ "threads ", "threads 9" },
	};
	for (size_t e = 0; e < sizeof edits / sizeof *edits; e++) {
		char *copy = malloc(len + 16);
		char *at = memmem(text, len, edits[e][0], strlen(edits[e][0]));
		cr_assert(at, "the export has no '%s'", edits[e][0]);
		size_t pre = (size_t)(at - text), old = strlen(edits[e][0]), new = strlen(edits[e][1]);
		memcpy(copy, text, pre);
		memcpy(copy + pre, edits[e][1], new);
		memcpy(copy + pre + new, at + old, len - pre - old);
		gzip_text(bad, copy, len - old + new);
		cr_assert_eq(import_into(dst, bad, &n), SDB_ECORRUPT, "edit '%s' -> '%s' accepted",
		             edits[e][0], edits[e][1]);
		free(copy);
	}
	/* Bytes after the gzip stream. */
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "cp '%s' '%s' && printf 'junk' >>'%s'", file, bad, bad);
	cr_assert_eq(system(cmd), 0);
	cr_assert_eq(import_into(dst, bad, &n), SDB_ECORRUPT, "trailing bytes accepted");
	cr_assert(strstr(sdb_error_detail(), "after the end"), "%s", sdb_error_detail());
	/* A table twice in one stream. */
	const char *tbl = memmem(text, len, "table\n", 6), *end = memmem(text, len, "end 1\n", 6);
	cr_assert(tbl && end);
	size_t head = (size_t)(end - text), body = (size_t)(end - tbl);   /* binary: memcpy */
	char *twice = malloc(head + body + 8);
	memcpy(twice, text, head);
	memcpy(twice + head, tbl, body);
	memcpy(twice + head + body, "end 2\n", 6);
	gzip_text(bad, twice, head + body + 6);
	cr_assert_eq(import_into(dst, bad, &n), SDB_ECORRUPT, "a table twice accepted");
	cr_assert(strstr(sdb_error_detail(), "twice"), "%s", sdb_error_detail());
	free(twice);
	/* slidedb 0.1's format, whose metadata has no checksum. */
	const char *v1 = "slidedb-export 1\nend 0\n";
	gzip_text(bad, v1, strlen(v1));
	cr_assert_eq(import_into(dst, bad, &n), SDB_ECORRUPT);
	cr_assert(strstr(sdb_error_detail(), "slidedb 0.1"), "%s", sdb_error_detail());
	free(text);
	/* the target holds its own tables and the good import, intact */
	cr_assert_eq(sdb_db_open(&db, dst, SDB_RDONLY), 0);
	cr_assert_eq(sdb_table_count(db), 3);
	for (int i = 0; i < sdb_table_count(db); i++)
		cr_assert_eq(sdb_table_verify(sdb_table_at(db, i)), 0);
	sdb_db_close(db);
}

/* An export goes to a regular file (written beside it and renamed over) or
 * to standard output; a link, a FIFO or a device at the path is refused and
 * left as it was. */
Test(transfer, export_refuses_special_files, .timeout = 60)
{
	char src[512], fifo[512], link[512], target[512];
	build(src, sizeof src);
	sdb_db *db;
	int n;
	cr_assert_eq(sdb_db_open(&db, src, SDB_RDONLY), 0);
	tk_tmp_path(fifo, sizeof fifo, "export.fifo");
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	const char *names[] = { "full-2x4-b0" };
	cr_assert_eq(sdb_db_export(db, names, 1, fifo, &n, NULL, NULL), SDB_EINVAL);
	cr_assert(strstr(sdb_error_detail(), "not a regular file"), "%s", sdb_error_detail());
	struct stat st;
	cr_assert_eq(lstat(fifo, &st), 0);
	cr_assert(S_ISFIFO(st.st_mode), "the FIFO was replaced");
	tk_tmp_path(target, sizeof target, "export-target");
	tk_tmp_path(link, sizeof link, "export.link");
	FILE *f = fopen(target, "w");
	fputs("keep me\n", f);
	fclose(f);
	cr_assert_eq(symlink(target, link), 0);
	cr_assert_eq(sdb_db_export(db, names, 1, link, &n, NULL, NULL), SDB_EINVAL);
	cr_assert_eq(lstat(link, &st), 0);
	cr_assert(S_ISLNK(st.st_mode), "the link was replaced");
	cr_assert_eq(sdb_db_export(db, names, 1, "/dev/null", &n, NULL, NULL), SDB_EINVAL);
	/* a FIFO or a link planted where the export is written first (it waited
	 * for a reader for ever; the link was written through) */
	char out[512], tmp[600];
	tk_tmp_path(out, sizeof out, "export-planted.gz");
	snprintf(tmp, sizeof tmp, "%s.tmp%d", out, (int)getpid());
	unlink(tmp);
	cr_assert_eq(mkfifo(tmp, 0600), 0);
	cr_assert_eq(sdb_db_export(db, names, 1, out, &n, NULL, NULL), SDB_EIO);
	cr_assert(strstr(sdb_error_detail(), tmp) && strstr(sdb_error_detail(), "not a regular file (a FIFO)"),
	          "%s", sdb_error_detail());
	cr_assert(lstat(out, &st) && lstat(tmp, &st) == 0 && S_ISFIFO(st.st_mode));
	unlink(tmp);
	cr_assert_eq(symlink(target, tmp), 0);
	cr_assert_eq(sdb_db_export(db, names, 1, out, &n, NULL, NULL), SDB_EIO);
	cr_assert(strstr(sdb_error_detail(), "a symbolic link"), "%s", sdb_error_detail());
	char kept[16] = "";
	f = fopen(target, "r");
	cr_assert(f && fgets(kept, sizeof kept, f));
	fclose(f);
	cr_assert_str_eq(kept, "keep me\n", "the link's target is untouched");
	unlink(tmp);
	sdb_db_close(db);
	unlink(fifo);
	unlink(link);
	unlink(target);
}

/* Two-bit tables travel too: every byte and field, and an export whose
 * counts were edited (so that its counts mod 3 no longer match) is refused. */
Test(transfer, two_bit_tables_round_trip)
{
	char src[512], file[512], dst[512];
	tk_tmp_path(src, sizeof src, "src-2bit.lmdb");
	tk_build(src, "3x2", "--bits 2");
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, src, SDB_RDONLY), 0);
	const int tables = sdb_table_count(db);
	cr_assert_geq(tables, 1);
	cr_assert_eq(sdb_table_meta(sdb_table_at(db, 0))->entry_format, SDB_ENTRY_MOD3);
	tk_tmp_path(file, sizeof file, "2bit.gz");
	int n;
	cr_assert_eq(sdb_db_export(db, (const char *[]){ "full-3x2" }, 1, file, &n, NULL, NULL), 0, "%s",
	             sdb_error_detail());
	cr_assert_eq(n, tables);
	sdb_db_close(db);
	tk_tmp_path(dst, sizeof dst, "dst-2bit.lmdb");
	cr_assert_eq(import_into(dst, file, &n), 0, "%s", sdb_error_detail());
	tk_assert_same_tables(src, dst, tables, "imported");
	/* the counts at distances 1 and 2 swapped: the same total, other
	 * residues mod 3 */
	size_t len;
	char *text = gunzip_file(file, &len);
	char *counts = memmem(text, len, "\ncounts 1 ", 10);
	cr_assert_not_null(counts, "the export lists the counts");
	char *one = counts + 10, *two = one + strspn(one, "0123456789") + 1;
	const size_t l1 = strspn(one, "0123456789"), l2 = strspn(two, "0123456789");
	cr_assert(l1 == l2 && l1 == 1 && *one != *two, "counts '%.20s' cannot be swapped", one);
	char t = *one;
	*one = *two;
	*two = t;
	/* and the metadata's own CRC made to match, so that only the counts
	 * against the entries can tell */
	reseal_meta(text, counts);
	char bad[512];
	tk_tmp_path(bad, sizeof bad, "2bit-edited.gz");
	gzip_text(bad, text, len);
	char other[512];
	tk_tmp_path(other, sizeof other, "dst-2bit-edited.lmdb");
	cr_assert_eq(import_into(other, bad, &n), SDB_ECORRUPT);
	free(text);
}

/* Chunks per table of a database (all tables alike). */
static int chunks_in(const char *path)
{
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0);
	cr_assert_gt(sdb_table_count(db), 0, "%s has tables", path);
	int n = sdb_table_chunks(sdb_table_at(db, 0));
	for (int i = 1; i < sdb_table_count(db); i++)
		cr_assert_eq(sdb_table_chunks(sdb_table_at(db, i)), n);
	sdb_db_close(db);
	return n;
}

/* Tables stored in chunks (those over 4 GiB; here made small with
 * SLIDEDB_CHUNK_BYTES) travel whole: exported from chunks, imported into
 * chunks or whole, the same bytes; rebuilt with fewer chunks or whole,
 * nothing of the old chunks is left behind. */
Test(transfer, chunked_tables_round_trip)
{
	char whole[512], chunked[512], file[512], back[512];
	tk_tmp_path(whole, sizeof whole, "whole-2bit.lmdb");
	tk_tmp_path(chunked, sizeof chunked, "chunked-2bit.lmdb");
	tk_build(whole, "3x3", "--bits 2");
	tk_knob("SLIDEDB_CHUNK_BYTES", "4096");
	tk_build(chunked, "3x3", "--bits 2");
	cr_assert_eq(chunks_in(chunked), 12, "45360 bytes in chunks of 4096");
	cr_assert_eq(chunks_in(whole), 1);
	tk_assert_same_tables(whole, chunked, 3, "imported in chunks");
	/* chunked -> export -> import, into chunks (the variable is set) */
	tk_tmp_path(file, sizeof file, "chunked.gz");
	sdb_db *db;
	int n;
	cr_assert_eq(sdb_db_open(&db, chunked, SDB_RDONLY), 0);
	cr_assert_eq(sdb_db_export(db, (const char *[]){ "full-3x3" }, 1, file, &n, NULL, NULL), 0, "%s",
	             sdb_error_detail());
	cr_assert_eq(n, 3);
	sdb_db_close(db);
	tk_tmp_path(back, sizeof back, "chunked-back.lmdb");
	cr_assert_eq(import_into(back, file, &n), 0, "%s", sdb_error_detail());
	cr_assert_eq(chunks_in(back), 12);
	tk_assert_same_tables(whole, back, 3, "back from chunks");
	/* larger chunks replace smaller ones without leftovers */
	tk_knob("SLIDEDB_CHUNK_BYTES", "16384");
	tk_build(back, "3x3", "--bits 2");
	cr_assert_eq(chunks_in(back), 3);
	tk_assert_same_tables(whole, back, 3, "back from chunks");
	/* and whole again: an import with no chunking */
	tk_knob("SLIDEDB_CHUNK_BYTES", NULL);
	cr_assert_eq(import_into(back, file, &n), 0, "%s", sdb_error_detail());
	cr_assert_eq(chunks_in(back), 1);
	tk_assert_same_tables(whole, back, 3, "back from chunks");
	/* removing a chunked table removes its chunks: after rm and compact the
	 * file is no larger than one that never held it */
	tk_knob("SLIDEDB_CHUNK_BYTES", "4096");
	tk_build(back, "3x3", "--bits 2");
	tk_knob("SLIDEDB_CHUNK_BYTES", NULL);
	cr_assert_eq(sdb_db_open(&db, back, 0), 0);
	cr_assert_eq(sdb_db_remove(db, (const char *[]){ "full-3x3" }, 1, &n), 0, "%s",
	             sdb_error_detail());
	cr_assert_eq(n, 3);
	sdb_db_close(db);
	uint64_t before, after;
	cr_assert_eq(sdb_db_compact(back, &before, &after), 0, "%s", sdb_error_detail());
	cr_assert_lt(after, 12 * 4096, "chunks left behind: %llu bytes", (unsigned long long)after);
	/* a bad setting is refused, and the tuning left as it was */
	sdb_tuning bad = SDB_TUNING_INIT;
	bad.chunk_bytes = 5000;
	cr_assert_eq(sdb_engine_tune(&bad), SDB_EINVAL);
	cr_assert(strstr(sdb_error_detail(), "chunk_bytes 5000"), "%s", sdb_error_detail());
	ck_db_remove(whole);
	ck_db_remove(chunked);
	ck_db_remove(back);
	unlink(file);
}

/* A pattern table's layout follows the format it was built under, which
 * its metadata says: an export of a set built now (format 6, order by
 * order) edited to claim format 5 (block by block), its metadata checksum
 * made to match, is refused (its entries recounted in the claimed layout
 * contradict its counts), never stored to give wrong heuristic values. */
Test(transfer, a_pattern_table_claiming_another_layout_is_refused)
{
	char file[512], bad[512], dst[512];
	int n = export_built(file, sizeof file, "layout.gz", "pdb-3x3-b0-1,2,3,4_5,6,7,8");
	cr_assert_eq(n, 2);
	size_t len;
	char *text = gunzip_file(file, &len);
	char format[32];
	snprintf(format, sizeof format, "\nformat_version %d\n", SDB_FORMAT_VERSION);
	int edited = 0;
	for (char *at = text; (at = memmem(at, len - (size_t)(at - text), format, strlen(format)));
	     at++, edited++) {
		at[16] = '5';   /* the same length: the entries stay where they were */
		reseal_meta(text, at);
	}
	cr_assert_eq(edited, 2, "both groups' metadata");
	tk_tmp_path(bad, sizeof bad, "layout-claimed.gz");
	gzip_text(bad, text, len);
	tk_tmp_path(dst, sizeof dst, "layout-dst.lmdb");
	cr_assert_eq(import_into(dst, bad, &n), SDB_ECORRUPT, "a false layout accepted");
	cr_assert(strstr(sdb_error_detail(), "counts"), "%s", sdb_error_detail());
	cr_assert_eq(import_into(dst, file, &n), 0, "%s", sdb_error_detail());   /* the real one is */
	free(text);
}

/* --- Crafted exports (issue #35): a table's bytes changed and every
 * checksum made to match, as a careful forger would, so that only a proof
 * of the entries can tell. */

/* The export's text with entries at[0] and at[1] of table `in` swapped,
 * its crc32 line recomputed and its metadata resealed. */
static char *forge(const char *file, const sdb_table_info *in, const uint64_t at[2], size_t *len)
{
	char *text = gunzip_file(file, len);
	cr_assert_eq(forge_export(text, *len, in, at), 0, "the export holds %s", in->name);
	return text;
}

/* Import `text` as a file (its path in bad): the library's error (0 if
 * stored) and its detail (why), with dst left without the table (a fresh
 * database: no tables at all). */
static char why[1024];
static int import_forged(const char *text, size_t len, char *bad, char *dst, size_t cap)
{
	tk_tmp_path(bad, 512, "forged.gz");
	gzip_text(bad, text, len);
	tk_tmp_path(dst, cap, "forged-dst.lmdb");
	ck_db_remove(dst);
	int n = -1;
	const int err = import_into(dst, bad, &n);
	snprintf(why, sizeof why, "%s", sdb_error_detail());
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, dst, SDB_RDONLY), 0);
	cr_assert_eq(sdb_table_count(db), err ? 0 : n, "%s: tables stored by a refused import",
	             bad);
	sdb_db_close(db);
	return err;
}

/* A refusal names one of the two forged entries, numbered as the table
 * stores them (the wrong one, or the neighbour it contradicts). */
static void names_forged(const char *detail, const uint64_t at[2])
{
	char a[32], b[32];
	snprintf(a, sizeof a, " entry %llu ", (unsigned long long)at[0]);
	snprintf(b, sizeof b, " entry %llu ", (unsigned long long)at[1]);
	cr_assert(strstr(detail, a) || strstr(detail, b), "%s (forged: entries %llu, %llu)", detail,
	          (unsigned long long)at[0], (unsigned long long)at[1]);
}

/* The tester's attack: two bytes of a 3x3 table swapped (the counts the
 * same), its CRC-32 and metadata checksum recomputed. Import proves the
 * table and refuses it, naming the table and the entry, and stores
 * nothing; slidedb-gen import says so and exits 1; the export as it was
 * is still imported. */
Test(transfer, a_crafted_full_table_with_its_checksums_remade_is_refused)
{
	char src[512], file[512], dst[512];
	tk_tmp_path(src, sizeof src, "forge-src.lmdb");
	tk_build(src, "3x3", NULL);
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, src, SDB_RDONLY), 0);
	const sdb_table *t = sdb_table_find(db, "full-3x3-b0");
	const sdb_table_info in = *sdb_table_meta(t);
	const uint8_t *data = sdb_table_data(t);
	uint64_t at[2] = { 0, 0 };   /* a state at 23 and one at 19, far from the goal */
	for (uint64_t i = 0; i < sdb_table_meta(t)->states && !(at[0] && at[1]); i++) {
		if (!at[0] && sdb_dist6(data[i]) == 23)
			at[0] = i;
		if (!at[1] && sdb_dist6(data[i]) == 19)
			at[1] = i;
	}
	int n;
	tk_tmp_path(file, sizeof file, "forge-full.gz");
	cr_assert_eq(sdb_db_export(db, (const char *[]){ "full-3x3-b0" }, 1, file, &n, NULL, NULL), 0);
	sdb_db_close(db);
	size_t len;
	char *text = forge(file, &in, at, &len);
	char bad[512], *out, *err;
	cr_assert_eq(import_forged(text, len, bad, dst, sizeof dst), SDB_ECORRUPT,
	             "a crafted table was imported");
	cr_assert(strstr(why, "'full-3x3-b0'") && strstr(why, "fails the proof"), "%s", why);
	names_forged(why, at);
	/* the program: exit 1, one line naming the table and the entry */
	int rc = ck_gen(dst, &out, &err, "import '%s'", bad);
	cr_assert_eq(rc, 1, "exit %d: %s", rc, out);
	cr_assert_str_empty(out);
	cr_assert(strstr(err, "'full-3x3-b0': entry ") && strstr(err, "nothing was imported") &&
	          tk_lines(err) == 1, "%s", err);
	free(out);
	free(err);
	cr_assert_eq(import_into(dst, file, &n), 0, "%s", sdb_error_detail());
	cr_assert_eq(n, 1);
	free(text);
}

/* The same attack on pattern groups: two entries of the same Manhattan
 * distance swapped (their values swap, the counts stay), checksums remade.
 * A region-mode group is proved and refused by the library; a min-mode
 * group, which the library cannot prove, is refused by sdb_db_import whatever
 * its bytes, and slidedb-gen import builds it again: it takes the genuine
 * one and refuses the crafted one. */
Test(transfer, crafted_pattern_groups_are_refused, .timeout = 120)
{
	char src[512], dst[512], file[512], *out, *err;
	build(src, sizeof src);
	cr_assert_eq(ck_gen(src, NULL, &err, "pdb 3x3 --partition 1,2,3/4,5,6/7,8 --blank min -q"), 0,
	             "%s", err);
	free(err);
	static const char *const sets[] = { "pdb-3x3-b0-1,2,3,4_5,6,7,8",
	                                    "pdb-3x3-b0-1,2,3_4,5,6_7,8-min" };
	for (int s = 0; s < 2; s++) {
		char group[SDB_NAME_MAX], tag[32];
		snprintf(group, sizeof group, "%s/g1", sets[s]);
		sdb_db *db;
		cr_assert_eq(sdb_db_open(&db, src, SDB_RDONLY), 0);
		const sdb_table *t = sdb_table_find(db, group);
		const sdb_table_info in = *sdb_table_meta(t);
		cr_assert_eq(in.entry_format, SDB_ENTRY_NIBBLE_MD, "%s", group);
		uint64_t at[2];
		tk_entries_to_swap(at, &in, sdb_table_data(t));
		int n;
		snprintf(tag, sizeof tag, "forge-set%d.gz", s);
		tk_tmp_path(file, sizeof file, tag);
		cr_assert_eq(sdb_db_export(db, &sets[s], 1, file, &n, NULL, NULL), 0, "%s", sdb_error_detail());
		sdb_db_close(db);
		size_t len;
		char *text = forge(file, &in, at, &len);
		char bad[512];
		const int got = import_forged(text, len, bad, dst, sizeof dst);
		if (s == 0) {
			cr_assert_eq(got, SDB_ECORRUPT, "a crafted region-mode group was imported");
			cr_assert(strstr(why, group) && strstr(why, "fails the proof"), "%s", why);
			cr_assert_eq(import_into(dst, file, &n), 0, "%s", sdb_error_detail());
			/* the same, proved as stored (order by order), without the copy
			 * block by block that memory allows here */
			names_forged(why, at);
			char again[512];
			tk_knob("SLIDEDB_PROVE_IN_PLACE", "1");
			cr_assert_eq(import_forged(text, len, bad, again, sizeof again), SDB_ECORRUPT);
			names_forged(why, at);
			cr_assert_eq(import_into(again, file, &n), 0, "%s", sdb_error_detail());
			tk_knob("SLIDEDB_PROVE_IN_PLACE", NULL);
		} else {
			cr_assert_eq(got, SDB_EINVAL, "a min-mode group was imported unproved");
			cr_assert(strstr(why, "min-mode"), "%s", why);
			cr_assert_eq(import_into(dst, file, &n), SDB_EINVAL, "the genuine one too");
		}
		/* slidedb-gen import: the crafted one refused, nothing stored; the
		 * genuine one stored */
		ck_db_remove(dst);
		int rc = ck_gen(dst, &out, &err, "import '%s'", bad);
		cr_assert_eq(rc, 1, "%s: exit %d: %s", sets[s], rc, out);
		cr_assert(strstr(err, group) && tk_lines(err) == 1 &&
		          strstr(err, s ? "built again" : "fails the proof"), "%s", err);
		free(out);
		free(err);
		cr_assert(!ck_exists(dst), "a refused import left a database");
		rc = ck_gen(dst, &out, &err, "import '%s'", file);
		cr_assert_eq(rc, 0, "%s: exit %d: %s", sets[s], rc, err);
		cr_assert(strstr(out, "each proved exact") &&
		          (!s || strstr(out, "3 built again to compare")), "%s", out);
		free(out);
		free(err);
		free(text);
	}
}
