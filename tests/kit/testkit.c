/* Test helpers; see testkit.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bfs.h"
#include "clikit.h"
#include "forge.h"
#include "testkit.h"

const uint64_t tk_a089473[TK_A089473_LEN] = { 1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396,
	748, 1024, 1893, 2512, 4485, 5638, 9529, 10878, 16993, 17110, 23952, 20224, 24047, 15578,
	14560, 6274, 3910, 760, 221, 2 };

uint64_t tk_pack(const sdb_board *b)
{
	uint64_t key = 0;
	for (int i = 0; i < b->n; i++)
		key |= (uint64_t)b->cell[i] << (4 * i);
	return key;
}

void tk_unpack(sdb_board *b, int w, int h, uint64_t key)
{
	uint8_t cells[SDB_MAX_CELLS];
	for (int i = 0; i < w * h; i++)
		cells[i] = (uint8_t)(key >> (4 * i) & 15);
	cr_assert_eq(sdb_board_set(b, w, h, cells), 0);
}

static uint64_t slot_of(const simple_bfs *s, uint64_t key)
{
	uint64_t i = (key * 0x9E3779B97F4A7C15ull) >> 20 & (s->cap - 1);
	while (s->keys[i] && s->keys[i] != key)
		i = (i + 1) & (s->cap - 1);
	return i;
}

void simple_bfs_run(simple_bfs *s, const sdb_board *goal)
{
	memset(s, 0, sizeof *s);
	s->w = goal->w;
	s->h = goal->h;
	uint64_t states = sdb_rank_count(goal->w, goal->h);
	s->cap = 1;
	while (s->cap < 2 * states)
		s->cap *= 2;
	s->keys = calloc(s->cap, sizeof *s->keys);
	s->dist = calloc(s->cap, 1);
	uint64_t *queue = malloc(states * sizeof *queue);
	cr_assert(s->keys && s->dist && queue);
	uint64_t head = 0, tail = 0;
	uint64_t k = tk_pack(goal);
	uint64_t slot = slot_of(s, k);
	s->keys[slot] = k;
	s->dist[slot] = 0;
	queue[tail++] = k;
	while (head < tail) {
		uint64_t cur = queue[head++];
		int d = s->dist[slot_of(s, cur)];
		s->counts[d]++;
		if (d > s->max)
			s->max = d;
		sdb_board b;
		tk_unpack(&b, s->w, s->h, cur);
		for (int m = 0; m < 4; m++) {
			sdb_board nb = b;
			if (sdb_board_apply(&nb, m) != 0)
				continue;
			uint64_t nk = tk_pack(&nb);
			uint64_t ns = slot_of(s, nk);
			if (s->keys[ns])
				continue;
			s->keys[ns] = nk;
			s->dist[ns] = (uint8_t)(d + 1);
			cr_assert_lt(tail, states, "more states than (W*H)!/2");
			queue[tail++] = nk;
		}
	}
	s->count = tail;
	free(queue);
}

int simple_bfs_dist(const simple_bfs *s, const sdb_board *b)
{
	uint64_t slot = slot_of(s, tk_pack(b));
	return s->keys[slot] ? s->dist[slot] : -1;
}

uint64_t simple_bfs_slot(const simple_bfs *s, const sdb_board *b)
{
	uint64_t slot = slot_of(s, tk_pack(b));
	return s->keys[slot] ? slot : UINT64_MAX;
}

sdb_board simple_bfs_farthest(const simple_bfs *s, int k)
{
	uint64_t n = s->counts[s->max];
	cr_assert_gt(n, 0);
	k = (int)((uint64_t)k % n);
	sdb_board b = { 0 };
	for (uint64_t i = 0; i < s->cap; i++)
		if (s->keys[i] && s->dist[i] == s->max && k-- == 0) {
			tk_unpack(&b, s->w, s->h, s->keys[i]);
			break;
		}
	cr_assert_gt(b.n, 0, "no state at distance %d", s->max);
	return b;
}

void simple_bfs_free(simple_bfs *s)
{
	free(s->keys);
	free(s->dist);
	memset(s, 0, sizeof *s);
}

int tk_replay(const sdb_board *start, const char *moves, const sdb_board *goal)
{
	sdb_board b = *start;
	for (const char *p = moves; *p; p++)
		if (sdb_board_apply(&b, sdb_move_from_letter(*p)) != 0)
			return 0;
	return sdb_board_equal(&b, goal);
}

sdb_board tk_swap_two_tiles(const sdb_board *b)
{
	sdb_board s = *b;
	int first = -1;
	for (int i = 0; i < s.n; i++) {
		if (!s.cell[i])
			continue;
		if (first < 0) {
			first = i;
			continue;
		}
		uint8_t t = s.cell[first];
		s.cell[first] = s.cell[i];
		s.cell[i] = t;
		break;
	}
	return s;
}

void tk_random_walk(sdb_board *b, const sdb_board *goal, int steps, unsigned *seed)
{
	*b = *goal;
	for (int i = 0; i < steps; i++)
		sdb_board_apply(b, rand_r(seed) % 4);   /* illegal moves are refused: fine */
}

void tk_tmp_path(char *buf, size_t cap, const char *name)
{
	static int serial;
	mkdir(SLIDEDB_TEST_TMP, 0755);
	snprintf(buf, cap, "%s/%d-%d-%s", SLIDEDB_TEST_TMP, (int)getpid(), serial++, name);
	unlink(buf);
}

int tk_run(const char *cmd, const char *input, char **out, char **err)
{
	char in_path[512], out_path[512], err_path[512];
	tk_tmp_path(in_path, sizeof in_path, "stdin");
	tk_tmp_path(out_path, sizeof out_path, "stdout");
	tk_tmp_path(err_path, sizeof err_path, "stderr");
	FILE *f = fopen(in_path, "wb");
	cr_assert(f);
	if (input)
		fputs(input, f);
	fclose(f);
	size_t len = strlen(cmd) + 3 * 512 + 32;
	char *full = malloc(len);
	snprintf(full, len, "%s <'%s' >'%s' 2>'%s'", cmd, in_path, out_path, err_path);
	int status = system(full);
	free(full);
	char *o = ck_read_file(out_path, NULL), *e = ck_read_file(err_path, NULL);
	unlink(in_path);
	unlink(out_path);
	unlink(err_path);
	if (out)
		*out = o;
	else
		free(o);
	if (err)
		*err = e;
	else
		free(e);
	cr_assert(WIFEXITED(status), "'%s' did not exit normally (crash?)", cmd);
	return WEXITSTATUS(status);
}

void tk_build(const char *db, const char *size, const char *extra)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "%s full %s --db '%s' -q %s", SLIDEDB_GEN, size, db,
	         extra ? extra : "");
	char *err;
	int rc = tk_run(cmd, NULL, NULL, &err);
	cr_assert_eq(rc, 0, "slidedb-gen failed: %s", err);
	free(err);
}

int tk_lines(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

void tk_build_lib(const char *path, int w, int h, const int *blanks, int nblanks)
{
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, path, SDB_CREATE), 0, "%s", sdb_errdetail());
	sdb_writer *wr;
	cr_assert_eq(sdb_writer_begin(&wr, db), 0);
	for (int i = 0; i < nblanks; i++) {
		sdb_table_info info;
		memset(&info, 0, sizeof info);
		sdb_table_name_full(info.name, sizeof info.name, w, h, blanks[i]);
		info.kind = SDB_KIND_FULL;
		info.entry_format = SDB_ENTRY_DIST6_MOVE2;
		sdb_board_goal(&info.goal, w, h, blanks[i]);
		info.states = sdb_rank_count(w, h);
		uint8_t *data;
		cr_assert_eq(sdb_writer_reserve(wr, &data, info.name, info.states), 0);
		bfs_result res;
		cr_assert_eq(bfs_full(&res, data, w, h, blanks[i], 1, NULL, NULL), 0);
		memcpy(info.counts, res.counts, sizeof info.counts);
		info.max_distance = res.max_distance;
		cr_assert_eq(sdb_writer_put_meta(wr, &info), 0);
	}
	cr_assert_eq(sdb_writer_commit(wr), 0, "%s", sdb_errdetail());
	sdb_db_close(db);
}

uint8_t *tk_table_copy(const sdb_table *t)
{
	const uint64_t total = sdb_table_bytes(sdb_table_meta(t));
	uint8_t *copy = malloc(total ? total : 1);
	cr_assert_not_null(copy);
	uint64_t at = 0;
	const int n = sdb_table_chunks(t);
	cr_assert_gt(n, 0, "%s", sdb_errdetail());
	for (int c = 0; c < n; c++) {
		uint64_t bytes;
		const uint8_t *data = sdb_table_chunk(t, c, &bytes);
		cr_assert_not_null(data, "%s", sdb_errdetail());
		cr_assert_leq(at + bytes, total);
		memcpy(copy + at, data, bytes);
		at += bytes;
	}
	cr_assert_eq(at, total, "the chunks add up to the table");
	return copy;
}

void tk_entries_to_swap(uint64_t at[2], const sdb_table_info *in, const uint8_t *data)
{
	cr_assert_eq(forge_entries_to_swap(at, in, data, in->states / 3), 0,
	             "%s: no two entries to swap", in->name);
}

void tk_rewrite_swapped(const char *path, const char *name)
{
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0, "%s", sdb_errdetail());
	const sdb_table *t = sdb_table_find(db, name);
	cr_assert_not_null(t, "%s", name);
	sdb_table_info in = *sdb_table_meta(t);
	uint8_t *copy = tk_table_copy(t);
	sdb_db_close(db);
	uint64_t at[2];
	tk_entries_to_swap(at, &in, copy);
	forge_swap(copy, &in, at);
	cr_assert_eq(sdb_db_open(&db, path, 0), 0, "%s", sdb_errdetail());
	sdb_writer *w;
	uint8_t *data;
	cr_assert_eq(sdb_writer_begin(&w, db), 0, "%s", sdb_errdetail());
	cr_assert_eq(sdb_writer_reserve(w, &data, name, sdb_table_bytes(&in)), 0, "%s",
	             sdb_errdetail());
	memcpy(data, copy, sdb_table_bytes(&in));
	cr_assert_eq(sdb_writer_put_meta(w, &in), 0, "%s", sdb_errdetail());
	cr_assert_eq(sdb_writer_commit(w), 0, "%s", sdb_errdetail());
	sdb_db_close(db);
	free(copy);
}
