/* SPDX-License-Identifier: MIT */
/* The database as the server reads it: the current snapshot, taken again
 * within a fraction of a second of a commit by another process (a table
 * built while serving), and old snapshots closed when their last request
 * is done, so that writers may reuse their pages. */
#ifndef SLIDEDB_SERVE_SNAPSHOT_H
#define SLIDEDB_SERVE_SNAPSHOT_H

#include "slidedb.h"

typedef struct snapshots snapshots;
typedef struct snapshot snapshot;

/* Open the database and start watching it. 0 or the library's error. */
int snapshot_open(snapshots **s, const char *path);
/* Stop watching and close (every snapshot must have been put back). */
void snapshot_close(snapshots *s);

/* The current snapshot, held until snapshot_put(). */
snapshot *snapshot_get(snapshots *s);
const sdb_db *snapshot_db(const snapshot *snap);
void snapshot_put(snapshots *s, snapshot *snap);

/* Seconds since the current snapshot was taken, and how many were taken. */
double snapshot_age(snapshots *s);
unsigned long snapshot_taken(snapshots *s);

#endif
