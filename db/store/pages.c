/* SPDX-License-Identifier: MIT */
/* The LMDB page checker (pages.h says what it promises).
 *
 * The layout read here is LMDB 0.9's on 64-bit little-endian machines (the
 * format of liblmdb0 on Debian's amd64 and arm64):
 *   page header (16 bytes): u64 pgno, u16 pad, u16 flags, then u16 lower and
 *     u16 upper (branch and leaf pages: the node offsets run from byte 16 to
 *     lower, the nodes from upper to the end), or u32 pages (overflow);
 *   node: u16 lo, u16 hi, u16 flags, u16 ksize, then the key and the data.
 *     A branch node's child is lo | hi << 16 | flags << 32; a leaf node's
 *     data size is lo | hi << 16, its data in the page, or (F_BIGDATA) a u64
 *     page number of an overflow run, or (F_SUBDATA) a database record;
 *   database record (48 bytes): u32 pad, u16 flags, u16 depth, u64 branch,
 *     leaf and overflow pages, u64 entries, u64 root;
 *   meta (at byte 16 of pages 0 and 1): u32 magic, u32 version, u64 address,
 *     u64 map size, the free list's and the main database's records (the
 *     free list's pad is the page size), u64 last page, u64 txnid.
 * The free list maps a txnid (an 8-byte integer key) to the pages that
 * transaction freed: u64 count, then the page numbers, in descending order. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "puzzle/puzzle.h"
#include "store/pages.h"

enum {
	PAGE_HEADER = 16, NODE_HEADER = 8, DB_RECORD = 48, META_AT = 16, META_BYTES = 152,
	/* A page's flags on disk are exactly one kind: LMDB clears its in-memory
	 * marks before writing, and a writer that found P_DIRTY (0x10) on a
	 * mapped page would write through the read-only map. */
	P_BRANCH = 0x01, P_LEAF = 0x02, P_OVERFLOW = 0x04,
	F_BIGDATA = 0x01, F_SUBDATA = 0x02,
	MAX_DEPTH = 32,               /* LMDB's cursor stack */
	MAX_KEY = 511,                /* LMDB's largest key */
	MAX_NAMED = 8,                /* the named databases slidedb makes, and room */
	INTEGER_KEY = 0x08, FIXED_MAP = 0x01, NO_SUBDIR = 0x4000,   /* lmdb.h's values */
	FREE_LIST = 0, MAIN_DB = 1, DATA_DB = 2
};
#define NO_PAGE UINT64_MAX

typedef struct db_record {
	uint16_t flags, depth;
	uint64_t branch, leaf, overflow, entries, root;
} db_record;

typedef struct tree_count {
	uint64_t branch, leaf, overflow, entries;
	int leaf_depth;               /* 0 until the first leaf */
} tree_count;

typedef struct named_db {
	char name[16];
	db_record rec;
} named_db;

typedef struct checker {
	int fd;
	const char *path;
	uint32_t psize;
	uint64_t last;                /* the snapshot's last page */
	uint64_t txnid;
	uint64_t *seen;               /* bit p: page p belongs to a tree or the free list */
	uint64_t used;
	uint8_t *buf;                 /* one page per depth: parents' keys bound children */
	uint64_t *bytes;              /* bit b: byte b of the page being checked holds a node */
	int kind;                     /* FREE_LIST, MAIN_DB, DATA_DB: the tree being walked */
	int plain_main;               /* the main database holds data (shards), not databases */
	named_db named[MAX_NAMED];
	int nnamed;
	int err;
} checker;

static int bad(checker *c, uint64_t page, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int bad(checker *c, uint64_t page, const char *fmt, ...)
{
	if (c->err)
		return c->err;
	char why[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	return c->err = sdbi_fail(SDB_ECORRUPT, "%s: damaged (LMDB page %llu: %s)", c->path,
	                         (unsigned long long)page, why);
}

static uint16_t u16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t u32(const uint8_t *p)
{
	return (uint32_t)u16(p) | (uint32_t)u16(p + 2) << 16;
}

static uint64_t u64(const uint8_t *p)
{
	return (uint64_t)u32(p) | (uint64_t)u32(p + 4) << 32;
}

static void read_record(db_record *r, const uint8_t *p)
{
	r->flags = u16(p + 4);
	r->depth = u16(p + 6);
	r->branch = u64(p + 8);
	r->leaf = u64(p + 16);
	r->overflow = u64(p + 24);
	r->entries = u64(p + 32);
	r->root = u64(p + 40);
}

static int read_at(checker *c, void *to, size_t n, uint64_t page, size_t offset)
{
	const off_t at = (off_t)(page * c->psize + offset);
	ssize_t got = pread(c->fd, to, n, at);
	if (got != (ssize_t)n)
		return bad(c, page, "cannot be read (%s)", got < 0 ? strerror(errno) : "past the end");
	return SDB_OK;
}

/* Claim pages [first, first + n): each within the snapshot, once. */
static int claim(checker *c, uint64_t first, uint64_t n, uint64_t from)
{
	if (first < 2 || first > c->last || n == 0 || n > c->last - first + 1)
		return bad(c, from, "refers to pages %llu to %llu, outside 2 to %llu",
		           (unsigned long long)first, (unsigned long long)(first + n - 1),
		           (unsigned long long)c->last);
	for (uint64_t p = first; p < first + n; p++) {
		if (c->seen[p >> 6] >> (p & 63) & 1)
			return bad(c, from, "refers to page %llu, which is used twice",
			           (unsigned long long)p);
		c->seen[p >> 6] |= (uint64_t)1 << (p & 63);
	}
	c->used += n;
	return SDB_OK;
}

/* Keys in LMDB's order: bytes then length, or 8-byte integers (the free list). */
static int key_cmp(const checker *c, const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
	if (c->kind == FREE_LIST) {
		uint64_t x = u64(a), y = u64(b);
		return x < y ? -1 : x > y;
	}
	int d = memcmp(a, b, alen < blen ? alen : blen);
	return d ? d : alen < blen ? -1 : alen > blen;
}

typedef struct bound {
	const uint8_t *key;   /* NULL: none */
	size_t len;
} bound;

/* One node's place in its page: 0, or the error. *node is its offset. */
static int node_at(checker *c, const uint8_t *pg, uint64_t page, int i, unsigned upper,
                   unsigned *node, unsigned *ksize)
{
	*node = u16(pg + PAGE_HEADER + 2 * i);
	if (*node < upper || *node % 2 || *node + NODE_HEADER > c->psize)
		return bad(c, page, "node %d at offset %u, outside %u to %u", i, *node, upper,
		           c->psize);
	*ksize = u16(pg + *node + 6);
	if (*ksize > MAX_KEY || *node + NODE_HEADER + *ksize > c->psize)
		return bad(c, page, "node %d has a key of %u bytes", i, *ksize);
	return SDB_OK;
}

/* The page's nodes lie apart: each takes its header, key and data in the
 * page, rounded up to even (LMDB's sizes: what it moves and frees when it
 * deletes a node), and no byte is two nodes'. Overlapping nodes pass every
 * check of one node, but a writer that deletes one moves the wrong bytes
 * and then writes past the page. */
static int nodes_apart(checker *c, const uint8_t *pg, uint64_t page, int n, unsigned upper,
                       int leaf)
{
	memset(c->bytes, 0, c->psize / 8);
	for (int i = 0; i < n; i++) {
		unsigned node, ksize;
		if (node_at(c, pg, page, i, upper, &node, &ksize))
			return c->err;
		unsigned size = NODE_HEADER + ksize;
		if (leaf) {
			const uint64_t data = u16(pg + node + 4) & F_BIGDATA ? 8 :
			                      u16(pg + node) | (uint64_t)u16(pg + node + 2) << 16;
			if (data > c->psize)
				return bad(c, page, "node %d has data past the page", i);
			size += (unsigned)data;
		}
		size += size & 1;
		if (node + size > c->psize)
			return bad(c, page, "node %d has data past the page", i);
		for (unsigned b = node; b < node + size; b++) {
			if (c->bytes[b / 64] >> (b % 64) & 1)
				return bad(c, page, "node %d overlaps another", i);
			c->bytes[b / 64] |= 1ull << (b % 64);
		}
	}
	return SDB_OK;
}

/* A key against the page's previous one and its bounds. */
static int key_in_order(checker *c, uint64_t page, int i, const uint8_t *key, unsigned ksize,
                        const bound *prev, const bound *lo, const bound *hi)
{
	if (c->kind == FREE_LIST && ksize != 8)
		return bad(c, page, "free-list key %d of %u bytes", i, ksize);
	if (ksize == 0)
		return bad(c, page, "node %d has an empty key", i);
	if ((prev->key && key_cmp(c, prev->key, prev->len, key, ksize) >= 0) ||
	    (lo->key && key_cmp(c, key, ksize, lo->key, lo->len) < 0) ||
	    (hi->key && key_cmp(c, key, ksize, hi->key, hi->len) >= 0))
		return bad(c, page, "key %d out of order", i);
	return SDB_OK;
}

/* The pages a free-list entry lists: each within the snapshot, once. */
static int check_free_pages(checker *c, uint64_t page, const uint8_t *inline_data,
                            uint64_t ovpage, uint64_t size)
{
	if (size < 8 || size % 8)
		return bad(c, page, "a free-list entry of %llu bytes", (unsigned long long)size);
	uint8_t *ids = malloc(size);
	if (!ids)
		return c->err = sdbi_fail(SDB_ENOMEM, "%s: out of memory checking it", c->path);
	int err = inline_data ? (memcpy(ids, inline_data, size), SDB_OK)
	                      : read_at(c, ids, size, ovpage, PAGE_HEADER);
	const uint64_t n = err ? 0 : u64(ids);
	if (!err && n != size / 8 - 1)
		err = bad(c, page, "a free-list entry of %llu pages in %llu bytes",
		          (unsigned long long)n, (unsigned long long)size);
	for (uint64_t k = 1; k <= n && !err; k++) {
		const uint64_t p = u64(ids + 8 * k);
		if (k > 1 && p >= u64(ids + 8 * (k - 1)))
			err = bad(c, page, "free-list pages not in descending order");
		else
			err = claim(c, p, 1, page);
	}
	free(ids);
	return err;
}

/* An overflow run of size bytes at ov: its header, and its pages claimed. */
static int check_overflow(checker *c, uint64_t page, uint64_t ov, uint64_t size,
                          tree_count *count)
{
	const uint64_t pages = (PAGE_HEADER - 1 + size) / c->psize + 1;
	uint8_t h[PAGE_HEADER];
	if (ov < 2 || ov > c->last || read_at(c, h, sizeof h, ov, 0) || u64(h) != ov ||
	    u16(h + 10) != P_OVERFLOW || u32(h + 12) != pages)
		return bad(c, page, "a value of %llu bytes at page %llu, not an overflow run of "
		           "%llu pages", (unsigned long long)size, (unsigned long long)ov,
		           (unsigned long long)pages);
	count->overflow += pages;
	return claim(c, ov, pages, page);
}

/* A leaf node's data. */
static int check_leaf_node(checker *c, const uint8_t *pg, uint64_t page, int i, unsigned node,
                           unsigned ksize, const uint8_t *key, tree_count *count)
{
	const unsigned flags = u16(pg + node + 4);
	const uint64_t size = u16(pg + node) | (uint64_t)u16(pg + node + 2) << 16;
	const uint8_t *data = pg + node + NODE_HEADER + ksize;
	const uint64_t in_page = flags & F_BIGDATA ? 8 : size;
	if (node + NODE_HEADER + ksize + in_page > c->psize)
		return bad(c, page, "node %d has data past the page", i);
	if (c->kind == MAIN_DB) {   /* the named databases: records only */
		if (flags != F_SUBDATA || size != DB_RECORD || ksize >= sizeof c->named[0].name ||
		    c->nnamed == MAX_NAMED)
			return bad(c, page, "node %d is not a database slidedb makes", i);
		named_db *nd = &c->named[c->nnamed++];
		memcpy(nd->name, key, ksize);
		nd->name[ksize] = '\0';
		read_record(&nd->rec, data);
		return SDB_OK;
	}
	if (flags & ~F_BIGDATA)
		return bad(c, page, "node %d has flags %#x", i, flags);
	if (c->kind == FREE_LIST) {
		if (u64(key) >= c->txnid)
			return bad(c, page, "a free-list entry of a later transaction");
		if (!(flags & F_BIGDATA))
			return check_free_pages(c, page, data, 0, size);
		if (check_overflow(c, page, u64(data), size, count))
			return c->err;
		return check_free_pages(c, page, NULL, u64(data), size);
	}
	return flags & F_BIGDATA ? check_overflow(c, page, u64(data), size, count) : SDB_OK;
}

/* The subtree at page, depth levels below the root (1: the root), its keys
 * in [lo, hi). */
static int walk(checker *c, uint64_t page, int depth, const bound *lo, const bound *hi,
                tree_count *count)
{
	if (depth > MAX_DEPTH)
		return bad(c, page, "a tree deeper than %d", MAX_DEPTH);
	if (claim(c, page, 1, page))
		return c->err;
	uint8_t *pg = c->buf + (size_t)(depth - 1) * c->psize;
	if (read_at(c, pg, c->psize, page, 0))
		return c->err;
	const unsigned kind = u16(pg + 10), lower = u16(pg + 12), upper = u16(pg + 14);
	if (u64(pg) != page)
		return bad(c, page, "holds page number %llu", (unsigned long long)u64(pg));
	if (kind != P_BRANCH && kind != P_LEAF)
		return bad(c, page, "not a branch or leaf page (flags %#x)", u16(pg + 10));
	if (lower < PAGE_HEADER + 2 || lower % 2 || lower > upper || upper > c->psize)
		return bad(c, page, "free space from %u to %u", lower, upper);
	const int n = (lower - PAGE_HEADER) / 2;
	if (nodes_apart(c, pg, page, n, upper, kind == P_LEAF))
		return c->err;
	bound prev = { NULL, 0 };
	if (kind == P_LEAF) {
		if (count->leaf_depth && count->leaf_depth != depth)
			return bad(c, page, "a leaf at depth %d, another at %d", depth, count->leaf_depth);
		count->leaf_depth = depth;
		count->leaf++;
		count->entries += (uint64_t)n;
	} else {
		count->branch++;
	}
	for (int i = 0; i < n; i++) {
		unsigned node, ksize;
		if (node_at(c, pg, page, i, upper, &node, &ksize))
			return c->err;
		const uint8_t *key = pg + node + NODE_HEADER;
		const int is_first_branch = kind == P_BRANCH && i == 0;   /* its key is not used */
		if (!is_first_branch &&
		    key_in_order(c, page, i, key, ksize, &prev, lo, hi))
			return c->err;
		if (!is_first_branch)
			prev = (bound){ key, ksize };
		if (kind == P_LEAF) {
			if (check_leaf_node(c, pg, page, i, node, ksize, key, count))
				return c->err;
			continue;
		}
		const uint64_t child = u16(pg + node) | (uint64_t)u16(pg + node + 2) << 16 |
		                       (uint64_t)u16(pg + node + 4) << 32;
		bound clo = is_first_branch ? *lo : (bound){ key, ksize }, chi = *hi;
		if (i + 1 < n) {
			unsigned next, nksize;
			if (node_at(c, pg, page, i + 1, upper, &next, &nksize))
				return c->err;
			chi = (bound){ pg + next + NODE_HEADER, nksize };
		}
		if (walk(c, child, depth + 1, &clo, &chi, count))
			return c->err;
	}
	return SDB_OK;
}

/* A whole tree against its record. */
static int check_tree(checker *c, const db_record *r, int kind, const char *name)
{
	c->kind = kind;
	tree_count count = { 0 };
	const bound none = { NULL, 0 };
	/* The free list's flags field also holds the environment's persistent
	 * flags (LMDB's mm_flags: MDB_FIXEDMAP, MDB_NOSUBDIR) beside its own
	 * MDB_INTEGERKEY; every other database of ours has none. Any other bit
	 * (MDB_DUPSORT: leaf data read as sub-pages) is damage. */
	const uint16_t want = kind == FREE_LIST ? INTEGER_KEY : 0;
	const uint16_t env_flags = kind == FREE_LIST ? FIXED_MAP | NO_SUBDIR : 0;
	if ((r->flags & ~env_flags) != want)
		return bad(c, 0, "database '%s' has flags %#x", name, r->flags);
	if (r->root == NO_PAGE) {
		if (r->depth || r->branch || r->leaf || r->overflow || r->entries)
			return bad(c, 0, "database '%s' is empty but says otherwise", name);
		return SDB_OK;
	}
	if (walk(c, r->root, 1, &none, &none, &count))
		return c->err;
	if (count.leaf_depth != r->depth || count.branch != r->branch || count.leaf != r->leaf ||
	    count.overflow != r->overflow || count.entries != r->entries)
		return bad(c, r->root, "database '%s' does not match its record", name);
	return SDB_OK;
}

/* The meta page of the snapshot whose txnid is want: LMDB reads it from
 * meta page want & 1 (a transaction takes its meta by the txnid's parity,
 * never by comparing the two), so that page must hold it. 0 and its fields,
 * or -1 when it does not (a writer has moved on, or the lock file describes
 * another file). */
static int find_meta(checker *c, uint64_t want, db_record *free_db, db_record *main_db)
{
	uint8_t meta[META_BYTES];
	if (pread(c->fd, meta, sizeof meta, (off_t)(want & 1) * c->psize) != (ssize_t)sizeof meta ||
	    u64(meta + 144) != want)
		return -1;
	read_record(free_db, meta + 40);
	read_record(main_db, meta + 88);
	c->last = u64(meta + 136);
	return 0;
}

static int check_snapshot(checker *c, uint64_t want)
{
	db_record free_db, main_db;
	if (find_meta(c, want, &free_db, &main_db))
		return -1;
	struct stat fs;
	const uint64_t pages = fstat(c->fd, &fs) ? 0 : (uint64_t)fs.st_size / c->psize;
	if (c->last < 1 || c->last >= pages)
		return bad(c, 1, "the snapshot ends at page %llu, the file has %llu pages",
		           (unsigned long long)c->last, (unsigned long long)pages);
	const size_t words = (size_t)(c->last / 64 + 1);
	c->seen = calloc(words, sizeof *c->seen);
	c->buf = malloc((size_t)MAX_DEPTH * c->psize);
	c->bytes = malloc(c->psize / 8);
	if (!c->seen || !c->buf || !c->bytes)
		return c->err = sdbi_fail(SDB_ENOMEM, "%s: out of memory checking it", c->path);
	if (check_tree(c, &free_db, FREE_LIST, "free list") ||
	    check_tree(c, &main_db, c->plain_main ? DATA_DB : MAIN_DB, "main"))
		return c->err;
	for (int i = 0; i < c->nnamed; i++)
		if (check_tree(c, &c->named[i].rec, DATA_DB, c->named[i].name))
			return c->err;
	if (c->used != c->last - 1)
		return bad(c, c->last, "%llu of the snapshot's %llu pages are used by nothing",
		           (unsigned long long)(c->last - 1 - c->used),
		           (unsigned long long)(c->last - 1));
	return SDB_OK;
}

int sdbi_pages_check(MDB_env *env, MDB_txn *txn, const char *path, unsigned how)
{
	checker c = { .path = path, .plain_main = (how & SDBI_PAGES_PLAIN) != 0 };
	const int write = (how & SDBI_PAGES_WRITE) != 0;
	MDB_envinfo info;
	MDB_stat st;
	if (mdb_env_get_fd(env, &c.fd) || mdb_env_info(env, &info) || mdb_env_stat(env, &st))
		return sdbi_fail(SDB_EIO, "%s: cannot check its pages", path);
	c.psize = st.ms_psize;
	/* The headers are read alone: readahead around them (megabytes on some
	 * disks) would fill the page cache with small pages where the map asks
	 * for 2 MiB ones (catalog.c, advise_huge). */
	(void)posix_fadvise(c.fd, 0, 0, POSIX_FADV_RANDOM);
	/* A write transaction starts from the last commit; a read one is it. */
	const uint64_t want = (uint64_t)mdb_txn_id(txn) - (write ? 1 : 0);
	c.txnid = want + 1;
	int rc = check_snapshot(&c, want);
	free(c.seen);
	free(c.buf);
	free(c.bytes);
	if (rc == -1)   /* the meta page was rewritten: two commits since the snapshot */
		return SDBI_PAGES_MOVED;
	return rc;
}

/* --- The meta pages, before LMDB opens the file: it trusts them, and a
 * damaged one divides by a zero page size, maps pages past the end of the
 * file (SIGBUS) or asserts on a root page of 0 or 1. */
enum { META_MAGIC = 0xBEEFC0DEu, PAGE_MIN = 512, PAGE_MAX = 65536 };

/* One meta page: its page size and last page, or -1 if it cannot be one.
 * (Meta page m holds a txnid of parity m, or 0 in a file never written:
 * LMDB picks a snapshot's meta page by its txnid's parity.) */
static int read_meta(const uint8_t *m, uint32_t *psize, uint64_t *last)
{
	*psize = u32(m + 40);
	*last = u64(m + 136);
	const uint64_t roots[2] = { u64(m + 80), u64(m + 128) };
	if (u32(m + META_AT) != META_MAGIC || u32(m + 20) != 1 || *psize < PAGE_MIN ||
	    *psize > PAGE_MAX || (*psize & (*psize - 1)) || *last < 1)
		return -1;
	for (int i = 0; i < 2; i++)   /* empty (~0), or a page past the two metas */
		if (roots[i] != NO_PAGE && (roots[i] < 2 || roots[i] > *last))
			return -1;
	return 0;
}

int sdbi_pages_check_meta(const char *path)
{
	_Static_assert(sizeof(size_t) == 8, "the layout checked is LMDB's on 64-bit machines");
	int fd = sdb_file_open(path, O_RDONLY, 0);
	struct stat fs;
	if (fd < 0 && errno == EINVAL)
		return fd;   /* a FIFO, a device: LMDB's open would wait on it */
	if (fd < 0 || fstat(fd, &fs)) {
		if (fd >= 0)
			close(fd);
		return SDB_OK;   /* LMDB's open says why */
	}
	if (fs.st_size == 0) {   /* a new file: LMDB writes its metas */
		close(fd);
		return SDB_OK;
	}
	uint8_t m0[META_BYTES], m1[META_BYTES];
	uint32_t ps0 = 0, ps1 = 0;
	uint64_t last0 = 0, last1 = 0;
	int ok = pread(fd, m0, sizeof m0, 0) == (ssize_t)sizeof m0 && u32(m0 + META_AT) == META_MAGIC;
	if (!ok) {
		close(fd);
		return sdbi_fail(SDB_ECORRUPT, "%s: not a valid slidedb database (not an LMDB file)",
		                path);
	}
	ok = read_meta(m0, &ps0, &last0) == 0 &&
	     pread(fd, m1, sizeof m1, ps0) == (ssize_t)sizeof m1 &&
	     read_meta(m1, &ps1, &last1) == 0 && ps1 == ps0 &&
	     (u64(m0 + 144) & 1) == 0 && ((u64(m1 + 144) & 1) == 1 || u64(m1 + 144) == 0);
	close(fd);
	if (!ok)
		return sdbi_fail(SDB_ECORRUPT, "%s: not a valid slidedb database (damaged LMDB meta "
		                "pages)", path);
	const uint64_t need = ((last0 > last1 ? last0 : last1) + 1) * ps0;
	if ((uint64_t)fs.st_size < need || (uint64_t)fs.st_size % ps0)
		return sdbi_fail(SDB_ECORRUPT, "%s: truncated (%lld bytes, the database needs %llu in "
		                "whole pages of %u)", path, (long long)fs.st_size,
		                (unsigned long long)need, ps0);
	return SDB_OK;
}
