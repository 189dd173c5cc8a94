/* SPDX-License-Identifier: MIT */
/* A one-line progress bar on stderr, shown only when stderr is a terminal
 * (or when forced), refreshed at most a few times a second: builds, exports
 * and imports, and verify --prove. */
#ifndef SLIDEDB_CLI_PROGRESS_H
#define SLIDEDB_CLI_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

/* No estimate of the time left before this many seconds. */
#define PROGRESS_ETA_SECONDS 3.0

typedef struct progress {
	int enabled;
	double started, last_draw;
	uint64_t base;   /* done when the task began (a restart): not in the rate */
	char label[64];
	char unit[16];   /* what the rate counts, in millions: "" for "M states", "MB" */
	/* A task that is one part of a job (a group of a pattern set): its done
	 * counts from `before` of the job's `whole`, and the bar, the rate and
	 * the ETA are the job's, timed from the job's start. 0: no job. */
	uint64_t whole, before;
} progress;

/* mode: -1 when stderr is a terminal, 0 never, 1 always. */
void progress_init(progress *p, int mode);
/* A job of `whole` units, done in several tasks, starts now. */
void progress_job(progress *p, uint64_t whole);
/* Start a new task; the clock for rate and ETA restarts (unless a job is
 * under way: then it runs on from the job's start). */
void progress_begin(progress *p, const char *label);
/* The task begun last starts `before` units into the job. */
void progress_within(progress *p, uint64_t before);
/* The task resumes with done states already done: the rate and the ETA
 * count only what is done from here (in a job: what is done in this run). */
void progress_rebase(progress *p, uint64_t done);
/* done of total states (or of the unit set); level is the BFS level being
 * worked on, or -1 for a task without levels. */
void progress_update(progress *p, int level, uint64_t done, uint64_t total);
/* The line progress_update() draws at time `now` (without the escape that
 * clears the terminal's line). */
void progress_line(char *buf, size_t cap, const progress *p, int level, uint64_t done,
                   uint64_t total, double now);
/* "  ETA N s" for done of total after elapsed seconds, or "" while there is
 * not enough to base an estimate on. */
void progress_eta(char *buf, size_t cap, double elapsed, uint64_t done, uint64_t total);
/* Clear the line. */
void progress_end(progress *p);
/* Seconds on a monotonic clock. */
double progress_now(void);

#endif
