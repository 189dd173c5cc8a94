/* SPDX-License-Identifier: MIT */
/* The test knobs every program takes from its environment and hands to the
 * library (sdb_engine_tune()): the library reads no environment for them. */
#ifndef SLIDEDB_CLI_ENV_TUNING_H
#define SLIDEDB_CLI_ENV_TUNING_H

/* Read SLIDEDB_CHUNK_BYTES, SLIDEDB_COMPACT_PAUSE, SLIDEDB_VERIFY_BYTES,
 * SLIDEDB_VERIFY_SLICE, SLIDEDB_SPLIT_NODES and SLIDEDB_PROVE_IN_PLACE (an
 * unset or empty one leaves its default) and tune the library with them
 * (every value: one unset since the last call is back at its default).
 * -1, or the exit code of a value the library refuses (said on stderr). */
int env_tuning_apply(void);

#endif
