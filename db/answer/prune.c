/* SPDX-License-Identifier: MIT */
/* The words of prune_words.h as an Aho-Corasick automaton: a trie of the
 * words, each state's failure link the longest proper suffix of its path
 * that is a path of the trie, and every transition filled in, so that one
 * table read per move follows the path; a state whose path ends in a word
 * (its own or along its failure links) is dead. 82,458 states of 4
 * transitions of 32 bits, 1.3 MB, built once per process from the words'
 * 246,570 letters in about a millisecond: the arrays are sized to the
 * generator's count of states, so that building them touches no more
 * memory than they hold (sized by words times length, they were 6 MB to
 * fault in and clear: 8 ms of every process that searched). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "answer/prune.h"
#include "answer/prune_words.h"
#include "slidedb.h"

enum { MAX_STATES = SDBI_PRUNE_STATES };
_Static_assert(MAX_STATES < SDBI_PRUNE_DEAD, "states must fit 32 bits");

static uint32_t go[MAX_STATES][4];
static pthread_once_t built = PTHREAD_ONCE_INIT;

static void build(void)
{
	static uint32_t fail[MAX_STATES], queue[MAX_STATES];
	static uint8_t dead[MAX_STATES];
	memset(go, 0xff, sizeof go);
	unsigned n = 1;
	unsigned st = 0;
	for (const char *c = prune_words; *c; c++) {
		if (*c == ' ') {   /* a word's end */
			dead[st] = 1;
			st = 0;
			continue;
		}
		const int m = sdb_move_from_letter(*c);
		if (go[st][m] == SDBI_PRUNE_DEAD) {
			if (n == MAX_STATES)
				abort();   /* a hand-edited header: ctest prune_words refuses it */
			go[st][m] = (uint32_t)n++;
		}
		st = go[st][m];
	}
	unsigned head = 0, tail = 0;
	for (int m = 0; m < 4; m++) {
		if (go[0][m] == SDBI_PRUNE_DEAD) {
			go[0][m] = 0;
		} else {
			fail[go[0][m]] = 0;
			queue[tail++] = go[0][m];
		}
	}
	while (head < tail) {   /* breadth first: a failure link is shorter, done */
		const unsigned st = queue[head++];
		dead[st] |= dead[fail[st]];
		for (int m = 0; m < 4; m++) {
			const unsigned next = go[st][m];
			if (next == SDBI_PRUNE_DEAD) {
				go[st][m] = go[fail[st]][m];
			} else {
				fail[next] = go[fail[st]][m];
				queue[tail++] = (uint32_t)next;
			}
		}
	}
	for (unsigned st = 0; st < n; st++)
		for (int m = 0; m < 4; m++)
			if (dead[go[st][m]])
				go[st][m] = SDBI_PRUNE_DEAD;
}

const uint32_t (*sdbi_prune_automaton(void))[4]
{
	pthread_once(&built, build);
	return (const uint32_t (*)[4])go;
}
