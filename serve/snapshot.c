/* SPDX-License-Identifier: MIT */
/* Snapshots; see snapshot.h. A watcher thread asks LMDB every 200 ms
 * whether a writer has committed (a read of the lock file) and, if so,
 * takes a fresh snapshot that shares the environment. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cli/cli.h"
#include "serve/snapshot.h"

enum { WATCH_MS = 200 };

struct snapshot {
	sdb_db *db;
	int refs;        /* requests holding it, plus one while it is current */
	double taken;
};

struct snapshots {
	pthread_mutex_t lock;
	pthread_cond_t wake;
	pthread_t watcher;
	int stopping;
	snapshot *current;
	unsigned long taken;
	int failing;     /* the last reopen failed (said once) */
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static snapshot *snapshot_new(sdb_db *db)
{
	snapshot *snap = calloc(1, sizeof *snap);
	if (snap) {
		snap->db = db;
		snap->refs = 1;
		snap->taken = now();
	}
	return snap;
}

/* Drop one reference, under s->lock; the snapshot to close, or NULL. */
static snapshot *unref(snapshot *snap)
{
	return --snap->refs == 0 ? snap : NULL;
}

static void destroy(snapshot *snap)
{
	if (snap) {
		sdb_db_close(snap->db);
		free(snap);
	}
}

static void refresh(snapshots *s)
{
	pthread_mutex_lock(&s->lock);
	snapshot *cur = s->current;
	cur->refs++;
	pthread_mutex_unlock(&s->lock);
	sdb_db *fresh = NULL;
	if (sdb_db_changed(cur->db)) {
		if (sdb_db_reopen(&fresh, cur->db) == 0) {
			s->failing = 0;
		} else if (!s->failing) {
			s->failing = 1;   /* keep serving the old snapshot; say so once */
			cli_note("keeping the previous snapshot of the database: %s",
			         sdb_error_detail());
		}
	}
	snapshot *next = fresh ? snapshot_new(fresh) : NULL;
	if (fresh && !next)
		sdb_db_close(fresh);
	pthread_mutex_lock(&s->lock);
	snapshot *done = unref(cur), *old = NULL;
	if (next) {
		old = unref(s->current);   /* no longer current */
		s->current = next;
		s->taken++;
	}
	pthread_mutex_unlock(&s->lock);
	destroy(done);
	destroy(old);
}

static void *watch(void *arg)
{
	snapshots *s = arg;
	pthread_mutex_lock(&s->lock);
	while (!s->stopping) {
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += WATCH_MS * 1000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&s->wake, &s->lock, &until);
		if (s->stopping)
			break;
		pthread_mutex_unlock(&s->lock);
		refresh(s);
		pthread_mutex_lock(&s->lock);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

int snapshot_open(snapshots **out, const char *path)
{
	*out = NULL;
	sdb_db *db;
	int err = sdb_db_open(&db, path, SDB_RDONLY);
	if (err)
		return err;
	snapshots *s = calloc(1, sizeof *s);
	if (!s || !(s->current = snapshot_new(db))) {
		free(s);
		sdb_db_close(db);
		return SDB_ENOMEM;
	}
	s->taken = 1;
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->wake, NULL);
	if (pthread_create(&s->watcher, NULL, watch, s)) {
		destroy(s->current);
		free(s);
		return SDB_ENOMEM;
	}
	*out = s;
	return 0;
}

void snapshot_close(snapshots *s)
{
	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	s->stopping = 1;
	pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->watcher, NULL);
	destroy(unref(s->current));
	pthread_cond_destroy(&s->wake);
	pthread_mutex_destroy(&s->lock);
	free(s);
}

snapshot *snapshot_get(snapshots *s)
{
	pthread_mutex_lock(&s->lock);
	snapshot *snap = s->current;
	snap->refs++;
	pthread_mutex_unlock(&s->lock);
	return snap;
}

const sdb_db *snapshot_db(const snapshot *snap)
{
	return snap->db;
}

void snapshot_put(snapshots *s, snapshot *snap)
{
	pthread_mutex_lock(&s->lock);
	snapshot *done = unref(snap);
	pthread_mutex_unlock(&s->lock);
	destroy(done);
}

double snapshot_age(snapshots *s)
{
	pthread_mutex_lock(&s->lock);
	double age = now() - s->current->taken;
	pthread_mutex_unlock(&s->lock);
	return age;
}

unsigned long snapshot_taken(snapshots *s)
{
	pthread_mutex_lock(&s->lock);
	unsigned long n = s->taken;
	pthread_mutex_unlock(&s->lock);
	return n;
}
