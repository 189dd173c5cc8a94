/* Block checksums: a table's entries are trusted 4 KiB at a time. Every
 * block has a CRC-32 stored beside the table (the "blocks" database of the
 * file); a reader checks a block the first time this process reads from it
 * and remembers the result in a bitmap, so a damaged byte is found before
 * any answer uses it, and a 10.9 GB table costs a query only the blocks its
 * walk touches. Tables written before block checksums (format 3) are
 * checked whole on first touch instead.
 *
 * A read of a block that fails gives the value "unreached" and marks the
 * calling thread's damage flag; every public function that answers from a
 * table clears the flag first and checks it last, so an answer that read a
 * damaged byte anywhere is an error, whatever the code did with the value. */
#define _GNU_SOURCE   /* sched_getaffinity, CPU_COUNT */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <isa-l/crc.h>
#include <zlib.h>

#include "store/store.h"

/* The first damaged block this thread read since the last reset. */
static __thread const sdb_table *damaged_table;
static __thread uint64_t damaged_block;

void sdbi_damage_reset(void)
{
	damaged_table = NULL;
}

int sdbi_damage_check(void)
{
	const sdb_table *t = damaged_table;
	if (!t)
		return SDB_OK;
	damaged_table = NULL;
	if (!t->block_crc)
		return sdbi_fail(SDB_ECORRUPT, "%s: table '%s' fails its CRC check (run `slidedb-lookup "
		                "verify`; build it again or import it)", t->db ? sdb_db_path(t->db) : "",
		                t->info.name);
	const uint64_t first = damaged_block << SDBI_BLOCK_SHIFT;
	return sdbi_fail(SDB_ECORRUPT, "%s: table '%s' is damaged: bytes %llu to %llu fail their "
	                "CRC-32 (run `slidedb-lookup verify`; build it again or import it)",
	                sdb_db_path(t->db), t->info.name, (unsigned long long)first,
	                (unsigned long long)(first + sdbi_block_bytes(t, damaged_block) - 1));
}

static void mark_damaged(const sdb_table *t, uint64_t b)
{
	if (!damaged_table) {
		damaged_table = t;
		damaged_block = b;
	}
}

uint64_t sdbi_block_bytes(const sdb_table *t, uint64_t b)
{
	const uint64_t bytes = sdb_table_bytes(&t->info), at = b << SDBI_BLOCK_SHIFT;
	return bytes - at < SDBI_BLOCK_SIZE ? bytes - at : SDBI_BLOCK_SIZE;
}

/* ISA-L's CRC-32 is zlib's (the gzip polynomial, the same chaining), by
 * carry-less multiplication where the CPU has it: 33 GB/s here against
 * zlib's 7.2, and a set's check before its first answer is most of a
 * one-off query's time (tests/test_store.c compares the two). */
uint32_t sdbi_crc_more(uint32_t crc, const uint8_t *data, uint64_t size)
{
	return crc32_gzip_refl(crc, data, size);
}

uint32_t sdbi_crc_start(void)
{
	return (uint32_t)crc32(0L, Z_NULL, 0);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A table of format 3 (no block checksums): the whole table against its
 * CRC, once per process (under the database's lock). */
static int check_whole(const sdb_table *ct)
{
	struct sdb_table *t = (struct sdb_table *)ct;   /* its check state is not its value */
	sdbi_db_lock(t->db);
	if (!t->whole_checked) {
		uint32_t crc = sdbi_crc_start();
		for (int c = 0; c < t->nchunks; c++)
			crc = sdbi_crc_more(crc, t->chunk[c], sdbi_chunk_bytes(t, c));
		t->whole_checked = crc == t->info.crc32 ? 1 : -1;
		if (t->whole_checked == 1)
			memset(t->checked, 0xff, ((t->nblocks + 63) / 64) * sizeof *t->checked);
	}
	const int ok = t->whole_checked == 1;
	sdbi_db_unlock(t->db);
	return ok;
}

int sdbi_block_check(const sdb_table *t, uint64_t b)
{
	if (b >= t->nblocks) {   /* an index past the table: a caller's bug, never a read */
		mark_damaged(t, b);
		return 0;
	}
	int ok;
	if (!t->block_crc) {
		ok = check_whole(t);
	} else {
		const uint64_t at = b << SDBI_BLOCK_SHIFT;
		const uint8_t *p = t->chunk[at >> t->chunk_shift] + (at & t->chunk_mask);
		ok = sdbi_crc_more(sdbi_crc_start(), p, sdbi_block_bytes(t, b)) ==
		     le32(t->block_crc + 4 * b);
		if (ok)
			__atomic_fetch_or(&t->checked[b >> 6], (uint64_t)1 << (b & 63),
			                  __ATOMIC_RELAXED);
	}
	if (!ok)
		mark_damaged(t, b);
	return ok;
}

int sdbi_blocks_check_all(const sdb_table *t)
{
	sdbi_damage_reset();
	for (uint64_t b = 0; b < t->nblocks; b++)
		if (!sdbi_block_checked(t, b) && !sdbi_block_check(t, b))
			break;
	return sdbi_damage_check();
}

/* --- Verifying a whole table: its blocks on every core. */

enum {
	VERIFY_PER_THREAD = 16 << 20,   /* bytes a thread is worth starting for */
	VERIFY_SLICE = 64 << 20,        /* bytes between looks at a pace */
};

/* One thread's share of a verify: blocks [first, end). */
typedef struct verify_range {
	const sdb_table *t;
	uint64_t first, end;
	uLong op;          /* crc32_combine_gen(SDBI_BLOCK_SIZE) */
	uint32_t crc;      /* of the range's bytes */
	uint64_t bad;      /* its first block unlike its stored CRC, or UINT64_MAX */
} verify_range;

static void *verify_blocks(void *arg)
{
	verify_range *r = arg;
	const sdb_table *t = r->t;
	uLong crc = sdbi_crc_start();
	r->bad = UINT64_MAX;
	for (uint64_t b = r->first; b < r->end; b++) {
		const uint64_t at = b << SDBI_BLOCK_SHIFT, bytes = sdbi_block_bytes(t, b);
		const uint8_t *p = t->chunk[at >> t->chunk_shift] + (at & t->chunk_mask);
		const uint32_t c = sdbi_crc_more(sdbi_crc_start(), p, bytes);
		if (r->bad == UINT64_MAX && c != le32(t->block_crc + 4 * b))
			r->bad = b;
		crc = bytes == SDBI_BLOCK_SIZE ? crc32_combine_op(crc, c, r->op)
		                               : crc32_combine(crc, c, (z_off_t)bytes);
	}
	r->crc = (uint32_t)crc;
	return NULL;
}

/* A size in bytes from the environment (tests: threads and slices on small
 * tables), or dflt. */
static uint64_t env_bytes(const char *name, uint64_t dflt)
{
	const char *env = getenv(name);
	return env && strtoull(env, NULL, 10) >= SDBI_BLOCK_SIZE ? strtoull(env, NULL, 10) : dflt;
}

int sdbi_usable_cores(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set))
		return 1;
	const int n = CPU_COUNT(&set);
	return n < 1 ? 1 : n > SDBI_MAX_THREADS ? SDBI_MAX_THREADS : n;
}

int sdbi_threads_for(uint64_t bytes, uint64_t parts, int leave)
{
	const uint64_t per_thread = env_bytes("SLIDEDB_VERIFY_BYTES", VERIFY_PER_THREAD);
	int threads = sdbi_usable_cores() - leave > 1 ? sdbi_usable_cores() - leave : 1;
	if ((uint64_t)threads > bytes / per_thread)
		threads = bytes / per_thread > 1 ? (int)(bytes / per_thread) : 1;
	if ((uint64_t)threads > parts)
		threads = parts ? (int)parts : 1;
	return threads;
}

void sdbi_on_threads(int n, void *(*fn)(void *), void *args, size_t size)
{
	pthread_t id[SDBI_MAX_THREADS];
	int started[SDBI_MAX_THREADS] = { 0 };
	char *arg = args;
	/* the calling thread takes the first; one that cannot start is run here too */
	for (int i = 1; i < n; i++)
		started[i] = !pthread_create(&id[i], NULL, fn, arg + (size_t)i * size);
	for (int i = 0; i < n; i++)
		if (!started[i])
			fn(arg + (size_t)i * size);
	for (int i = 1; i < n; i++)
		if (started[i])
			pthread_join(id[i], NULL);
}

/* The byte after blocks [.., end) of t. */
static uint64_t end_byte(const sdb_table *t, uint64_t end)
{
	return end < t->nblocks ? end << SDBI_BLOCK_SHIFT : sdb_table_bytes(&t->info);
}


/* Blocks [first, end) of t on the usable cores but `leave` (at least one):
 * their CRC-32 (*crc) and the first whose bytes differ from its stored CRC
 * (*bad, UINT64_MAX if none). */
static void verify_slice(const sdb_table *t, uint64_t first, uint64_t end, int leave,
                         uint32_t *crc_out, uint64_t *bad)
{
	const uint64_t nblocks = end - first;
	const int threads = sdbi_threads_for(end_byte(t, end) - (first << SDBI_BLOCK_SHIFT), nblocks,
	                                     leave);
	verify_range r[SDBI_MAX_THREADS];
	const uLong op = crc32_combine_gen(SDBI_BLOCK_SIZE);
	for (int i = 0; i < threads; i++)
		r[i] = (verify_range){ .t = t, .op = op,
		                       .first = first + nblocks * (uint64_t)i / (uint64_t)threads,
		                       .end = first + nblocks * (uint64_t)(i + 1) / (uint64_t)threads };
	sdbi_on_threads(threads, verify_blocks, r, sizeof *r);
	uLong crc = sdbi_crc_start();
	*bad = UINT64_MAX;
	for (int i = 0; i < threads; i++) {
		crc = crc32_combine(crc, r[i].crc,
		                    (z_off_t)(end_byte(t, r[i].end) - (r[i].first << SDBI_BLOCK_SHIFT)));
		if (*bad == UINT64_MAX)
			*bad = r[i].bad;
	}
	*crc_out = (uint32_t)crc;
}

void sdbi_blocks_verify(const sdb_table *t, const sdbi_pace *pace, uint32_t *whole,
                        uint64_t *bad)
{
	const uint64_t step = pace ? env_bytes("SLIDEDB_VERIFY_SLICE", VERIFY_SLICE) >> SDBI_BLOCK_SHIFT
	                           : t->nblocks;
	uLong crc = sdbi_crc_start();
	*bad = UINT64_MAX;
	for (uint64_t first = 0; first < t->nblocks; first += step) {
		const uint64_t end = t->nblocks - first > step ? first + step : t->nblocks;
		uint32_t c;
		uint64_t b;
		verify_slice(t, first, end, pace ? pace->leave(pace->ctx) : 0, &c, &b);
		crc = crc32_combine(crc, c, (z_off_t)(end_byte(t, end) - (first << SDBI_BLOCK_SHIFT)));
		if (*bad == UINT64_MAX)
			*bad = b;
	}
	*whole = (uint32_t)crc;
}

/* --- Writing: the checksums of a table's bytes as they are written. */

void sdbi_blocksum_init(sdbi_blocksum *s)
{
	memset(s, 0, sizeof *s);
	s->whole = s->cur = sdbi_crc_start();
	s->op = crc32_combine_gen(SDBI_BLOCK_SIZE);
}

void sdbi_blocksum_free(sdbi_blocksum *s)
{
	free(s->crc);
	s->crc = NULL;
}

/* Room for one more checksum. */
static int blocksum_push(sdbi_blocksum *s, uint32_t crc)
{
	if (s->nblocks == s->cap) {
		uint64_t cap = s->cap ? 2 * s->cap : 1024;
		uint8_t *grown = realloc(s->crc, 4 + 4 * cap);
		if (!grown)
			return SDB_ENOMEM;
		s->crc = grown;
		s->cap = cap;
	}
	uint8_t *p = s->crc + 4 + 4 * s->nblocks++;
	p[0] = (uint8_t)crc;
	p[1] = (uint8_t)(crc >> 8);
	p[2] = (uint8_t)(crc >> 16);
	p[3] = (uint8_t)(crc >> 24);
	return SDB_OK;
}

int sdbi_blocksum_add(sdbi_blocksum *s, const uint8_t *data, uint64_t n)
{
	while (n) {
		const uint64_t in_block = s->bytes & (SDBI_BLOCK_SIZE - 1);
		const uint64_t k = n < SDBI_BLOCK_SIZE - in_block ? n : SDBI_BLOCK_SIZE - in_block;
		s->cur = sdbi_crc_more(s->cur, data, k);
		s->bytes += k;
		data += k;
		n -= k;
		if ((s->bytes & (SDBI_BLOCK_SIZE - 1)) == 0) {   /* a whole block */
			if (blocksum_push(s, s->cur))
				return SDB_ENOMEM;
			s->whole = (uint32_t)crc32_combine_op(s->whole, s->cur, s->op);
			s->cur = sdbi_crc_start();
		}
	}
	return SDB_OK;
}

int sdbi_blocksum_finish(sdbi_blocksum *s)
{
	const uint64_t tail = s->bytes & (SDBI_BLOCK_SIZE - 1);
	if (tail) {
		if (blocksum_push(s, s->cur))
			return SDB_ENOMEM;
		s->whole = (uint32_t)crc32_combine(s->whole, s->cur, (z_off_t)tail);
	}
	if (!s->crc && blocksum_push(s, 0) == 0)   /* an empty table: the header alone */
		s->nblocks = 0;
	if (!s->crc)
		return SDB_ENOMEM;
	const uint32_t size = SDBI_BLOCK_SIZE;
	memcpy(s->crc, (uint8_t[4]){ (uint8_t)size, (uint8_t)(size >> 8), (uint8_t)(size >> 16),
	                             (uint8_t)(size >> 24) }, 4);
	return SDB_OK;
}
