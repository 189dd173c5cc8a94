/* SPDX-License-Identifier: MIT */
/* Duplicate move sequences a search never follows (prune.c): an automaton
 * over the caller's moves (u d l r = SDB_UP .. SDB_RIGHT) that reads a
 * search's path and dies on a word of prune_words.h. Internal to the
 * answer layer. */
#ifndef SLIDEDB_ANSWER_PRUNE_H
#define SLIDEDB_ANSWER_PRUNE_H

#include <stdint.h>

/* A dead state: the path just ended in a word. State 0 is the root's. */
#define SDBI_PRUNE_DEAD 0xffffffffu

/* The automaton's transitions, state -> move -> state (built once per
 * process, thread-safe). */
const uint32_t (*sdbi_prune_automaton(void))[4];

#endif
