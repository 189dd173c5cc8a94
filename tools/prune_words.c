/* SPDX-License-Identifier: MIT */
/* Writes db/answer/prune_words.h: the move sequences a search never
 * follows, and checks that the file in the tree is what it writes
 * (`prune_words FILE`: exit 1 if FILE differs; no argument: print it).
 *
 * Two walks of the blank of the same length that leave every tile where
 * the other leaves it are duplicates: of the two, the search needs only
 * the one first in the order u < d < l < r, provided it is legal wherever
 * the other is, which holds when it stays within the rectangle of the
 * cells the other visits (a board holds that rectangle wherever the other
 * walk fits). Every walk of 2..MAX_LEN moves without an immediate reversal
 * and without a word found so far is tried on an unbounded grid; a walk is
 * a word when a walk first in that order, of the same effect, stays within
 * its rectangle. An optimal solution holding a word can trade it for that
 * walk and come first, so the first optimal solution holds none: pruning
 * the words keeps every answer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_LEN = 14, SPAN = 2 * MAX_LEN + 1, CELLS = SPAN * SPAN };

static const char letter[] = "udlr";
static const int dx[4] = { 0, 0, -1, 1 }, dy[4] = { -1, 1, 0, 0 };

typedef struct walk {
	char moves[MAX_LEN + 1];
	unsigned char end;                 /* the blank's last cell */
	unsigned char tile[MAX_LEN + 1][2];   /* moved tiles: cell now, cell first (sorted) */
	int ntiles;
	unsigned char lo_x, hi_x, lo_y, hi_y;   /* the rectangle of the cells it visits */
} walk;

static char **words;
static int nwords, capwords;

/* The words found so far, also in a hash set of their texts, so that a walk
 * is tested for a word ending it by its suffixes (MAX_LEN lookups) rather
 * than against every word. */
enum { SET_BITS = 20, SET_SIZE = 1 << SET_BITS };
static const char *word_set[SET_SIZE];

static unsigned hash_text(const char *s, int len)
{
	unsigned h = 2166136261u;
	for (int i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h & (SET_SIZE - 1);
}

static void add_word(const char *w)
{
	if (nwords == capwords) {
		capwords = capwords ? 2 * capwords : 256;
		words = realloc(words, (size_t)capwords * sizeof *words);
		if (!words)
			exit(2);
	}
	char *copy = strdup(w);
	if (!copy || nwords >= SET_SIZE / 2)
		exit(2);
	words[nwords++] = copy;
	unsigned h = hash_text(copy, (int)strlen(copy));
	while (word_set[h])
		h = (h + 1) & (SET_SIZE - 1);
	word_set[h] = copy;
}

static int is_word(const char *s, int len)
{
	for (unsigned h = hash_text(s, len); word_set[h]; h = (h + 1) & (SET_SIZE - 1))
		if ((int)strlen(word_set[h]) == len && !memcmp(word_set[h], s, (size_t)len))
			return 1;
	return 0;
}

static int has_word_suffix(const char *w, int len)
{
	for (int l = 2; l <= len; l++)
		if (is_word(w + len - l, l))
			return 1;
	return 0;
}

static void effect(walk *wk, int len)
{
	/* origin[c]: the cell the tile now in c started in, for the cells the
	 * blank visits (no other moves); reset after each walk */
	static int origin[CELLS];
	static int ready;
	if (!ready) {
		for (int c = 0; c < CELLS; c++)
			origin[c] = c;
		ready = 1;
	}
	int x = MAX_LEN, y = MAX_LEN, path[MAX_LEN + 1], npath = 0;
	wk->lo_x = wk->hi_x = (unsigned char)x;
	wk->lo_y = wk->hi_y = (unsigned char)y;
	path[npath++] = y * SPAN + x;
	for (int i = 0; i < len; i++) {
		int m = (int)(strchr(letter, wk->moves[i]) - letter);
		int nx = x + dx[m], ny = y + dy[m];
		origin[y * SPAN + x] = origin[ny * SPAN + nx];
		origin[ny * SPAN + nx] = -1;
		x = nx;
		y = ny;
		path[npath++] = y * SPAN + x;
		wk->lo_x = x < wk->lo_x ? (unsigned char)x : wk->lo_x;
		wk->hi_x = x > wk->hi_x ? (unsigned char)x : wk->hi_x;
		wk->lo_y = y < wk->lo_y ? (unsigned char)y : wk->lo_y;
		wk->hi_y = y > wk->hi_y ? (unsigned char)y : wk->hi_y;
	}
	wk->end = (unsigned char)(y * SPAN + x);
	/* the moved tiles in the order of their cells, as a scan of the grid
	 * would list them */
	int cells[MAX_LEN + 1], n = 0;
	for (int i = 0; i < npath; i++) {
		int c = path[i], k = n;
		for (int j = 0; j < n; j++)
			if (cells[j] == c)
				k = -1;
		if (k < 0)
			continue;
		while (k > 0 && cells[k - 1] > c) {
			cells[k] = cells[k - 1];
			k--;
		}
		cells[k] = c;
		n++;
	}
	wk->ntiles = 0;
	for (int i = 0; i < n; i++) {
		int c = cells[i];
		if (origin[c] >= 0 && origin[c] != c) {
			wk->tile[wk->ntiles][0] = (unsigned char)c;
			wk->tile[wk->ntiles++][1] = (unsigned char)origin[c];
		}
	}
	for (int i = 0; i < n; i++)
		origin[cells[i]] = cells[i];
}

static int same_effect(const walk *a, const walk *b)
{
	return a->end == b->end && a->ntiles == b->ntiles &&
	       !memcmp(a->tile, b->tile, sizeof a->tile[0] * (size_t)a->ntiles);
}

/* a's cells within the rectangle of b's: a is legal wherever b is */
static int within(const walk *a, const walk *b)
{
	return a->lo_x >= b->lo_x && a->hi_x <= b->hi_x && a->lo_y >= b->lo_y && a->hi_y <= b->hi_y;
}

static walk *all;
static long nall, capall;

static void extend(walk *w, int len, int target)
{
	if (len == target) {
		if (nall == capall) {
			capall = capall ? 2 * capall : 1 << 16;
			all = realloc(all, (size_t)capall * sizeof *all);
			if (!all)
				exit(2);
		}
		all[nall] = *w;
		effect(&all[nall], len);
		nall++;
		return;
	}
	for (int m = 0; m < 4; m++) {
		if (len && w->moves[len - 1] == letter[m ^ 1])
			continue;
		w->moves[len] = letter[m];
		w->moves[len + 1] = '\0';
		if (has_word_suffix(w->moves, len + 1))
			continue;
		extend(w, len + 1, target);
	}
}

static int by_text(const void *pa, const void *pb)
{
	return strcmp(*(char *const *)pa, *(char *const *)pb);
}

static int by_effect(const void *pa, const void *pb)
{
	const walk *a = pa, *b = pb;
	if (a->end != b->end)
		return a->end - b->end;
	if (a->ntiles != b->ntiles)
		return a->ntiles - b->ntiles;
	int c = memcmp(a->tile, b->tile, sizeof a->tile[0] * (size_t)a->ntiles);
	if (c)
		return c;
	for (int i = 0; a->moves[i]; i++)   /* then in the order u < d < l < r */
		if (a->moves[i] != b->moves[i])
			return (int)(strchr(letter, a->moves[i]) - strchr(letter, b->moves[i]));
	return 0;
}

int main(int argc, char **argv)
{
	for (int len = 2; len <= MAX_LEN; len++) {
		walk w;
		memset(&w, 0, sizeof w);
		nall = 0;
		extend(&w, 0, len);
		qsort(all, (size_t)nall, sizeof *all, by_effect);
		for (long i = 0; i < nall;) {
			long j = i + 1;
			while (j < nall && same_effect(&all[i], &all[j]))
				j++;
			for (long b = i + 1; b < j; b++)
				for (long a = i; a < b; a++)
					if (within(&all[a], &all[b])) {
						add_word(all[b].moves);
						break;
					}
			i = j;
		}
	}
	/* the trie's states (the automaton has as many): the root and, for each
	 * word in sorted order, the letters past the prefix it shares with the
	 * word before it */
	char **sorted = malloc(sizeof *sorted * (size_t)(nwords ? nwords : 1));
	if (!sorted)
		return 2;
	memcpy(sorted, words, sizeof *sorted * (size_t)nwords);
	qsort(sorted, (size_t)nwords, sizeof *sorted, by_text);
	long states = 1;
	for (int i = 0; i < nwords; i++) {
		size_t shared = 0;
		while (i && sorted[i][shared] && sorted[i][shared] == sorted[i - 1][shared])
			shared++;
		states += (long)(strlen(sorted[i]) - shared);
	}
	free(sorted);
	/* the header: words by length, then in order */
	size_t cap = 1 << 16, len = 0;
	char *out = malloc(cap);
	if (!out)
		return 2;
#define PUT(...) do { \
		int n_ = snprintf(NULL, 0, __VA_ARGS__); \
		while (len + (size_t)n_ + 1 > cap) { cap *= 2; out = realloc(out, cap); if (!out) return 2; } \
		len += (size_t)sprintf(out + len, __VA_ARGS__); } while (0)
	PUT("/* Generated by tools/prune_words.c (ctest prune_words checks it): the\n"
	    " * %d move sequences of up to %d moves a search never follows, each\n"
	    " * ended by a space, in one string (an array of pointers to them cost every\n"
	    " * process that loads the library a relocation per word). Do not edit. */\n",
	    nwords, MAX_LEN);
	PUT("#define SDBI_PRUNE_WORDS %d\n#define SDBI_PRUNE_LONGEST %d\n", nwords, MAX_LEN);
	PUT("#define SDBI_PRUNE_STATES %ld   /* the automaton's, its root's included */\n", states);
	PUT("static const char prune_words[] =");
	int col = 92;
	for (int i = 0; i < nwords; i++) {
		const int l = (int)strlen(words[i]) + 1;
		if (col + l > 90) {
			PUT("%s\n\t\"", col < 92 ? "\"" : "");
			col = 9;
		}
		PUT("%s ", words[i]);
		col += l;
	}
	PUT("\";\n");
	for (int i = 0; i < nwords; i++)
		free(words[i]);
	free(words);
	free(all);
	int rc = 0;
	if (argc < 2) {
		fwrite(out, 1, len, stdout);
	} else {
		FILE *f = fopen(argv[1], "rb");
		char *have = malloc(len + 2);
		size_t got = f && have ? fread(have, 1, len + 1, f) : 0;
		if (!f)
			perror(argv[1]);
		else
			fclose(f);
		if (got != len || memcmp(have, out, len)) {
			fprintf(stderr, "%s is not what tools/prune_words.c writes: run it and keep its "
			        "output\n", argv[1]);
			rc = 1;
		}
		free(have);
	}
	free(out);
	return rc;
}
