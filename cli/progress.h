/* A one-line progress bar on stderr, shown only when stderr is a terminal
 * (or when forced), refreshed at most a few times a second: builds, exports
 * and imports, and verify --prove. */
#ifndef SLIDEDB_PROGRESS_H
#define SLIDEDB_PROGRESS_H

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
} progress;

/* mode: -1 when stderr is a terminal, 0 never, 1 always. */
void progress_init(progress *p, int mode);
/* Start a new task; the clock for rate and ETA restarts. */
void progress_begin(progress *p, const char *label);
/* The task resumes with done states already done: the rate and the ETA
 * count only what is done from here. */
void progress_rebase(progress *p, uint64_t done);
/* done of total states (or of the unit set); level is the BFS level being
 * worked on, or -1 for a task without levels. */
void progress_update(progress *p, int level, uint64_t done, uint64_t total);
/* "  ETA N s" for done of total after elapsed seconds, or "" while there is
 * not enough to base an estimate on. */
void progress_eta(char *buf, size_t cap, double elapsed, uint64_t done, uint64_t total);
/* Clear the line. */
void progress_end(progress *p);
/* Seconds on a monotonic clock. */
double progress_now(void);

#endif
