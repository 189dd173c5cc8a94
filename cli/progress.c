/* SPDX-License-Identifier: MIT */
/* Terminal progress bar: level, percent, states per second, ETA. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/progress.h"

double progress_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void progress_init(progress *p, int mode)
{
	memset(p, 0, sizeof *p);
	p->enabled = mode < 0 ? isatty(STDERR_FILENO) : mode;
}

void progress_job(progress *p, uint64_t whole)
{
	p->whole = whole;
	p->before = 0;
	p->base = 0;
	p->started = progress_now();
}

void progress_begin(progress *p, const char *label)
{
	snprintf(p->label, sizeof p->label, "%s", label);
	p->last_draw = 0;
	if (p->whole)
		return;   /* the job's clock and restarts run on */
	p->started = progress_now();
	p->base = 0;
}

void progress_within(progress *p, uint64_t before)
{
	p->before = before;
}

void progress_rebase(progress *p, uint64_t done)
{
	if (p->whole) {   /* the job's earlier tasks were done in this run */
		p->base += done;
		return;
	}
	p->started = progress_now();
	p->base = done;
}

void progress_eta(char *buf, size_t cap, double elapsed, uint64_t done, uint64_t total)
{
	buf[0] = '\0';
	/* A BFS reaches few states in its first levels and most in the middle
	 * ones: a rate taken too early promises days. Say nothing until a few
	 * seconds and a few percent give it something to stand on. */
	if (elapsed < PROGRESS_ETA_SECONDS || done < total / 20 || done >= total || done == 0)
		return;
	double rate = (double)done / elapsed;
	snprintf(buf, cap, "  ETA %.0f s", (double)(total - done) / rate);
}

void progress_line(char *buf, size_t cap, const progress *p, int level, uint64_t done,
                   uint64_t total, double now)
{
	if (p->whole) {   /* the job's figures */
		done += p->before;
		total = p->whole;
	}
	double elapsed = now - p->started, frac = total ? (double)done / (double)total : 1;
	frac = frac > 1 ? 1 : frac;
	const uint64_t since = done > p->base ? done - p->base : 0;
	double rate = elapsed > 0 ? (double)since / elapsed : 0;
	char bar[21];
	int fill = (int)(frac * 20);
	for (int i = 0; i < 20; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[20] = '\0';
	char eta[32];
	progress_eta(eta, sizeof eta, elapsed, since, total > p->base ? total - p->base : 0);
	char at[32] = "";
	if (level >= 0)
		snprintf(at, sizeof at, "  level %d", level);
	snprintf(buf, cap, "%s%s  [%s] %5.1f%%  %.1f %s/s%s", p->label, at, bar, 100 * frac,
	         rate / 1e6, p->unit[0] ? p->unit : "M states", eta);
}

void progress_update(progress *p, int level, uint64_t done, uint64_t total)
{
	if (!p->enabled)
		return;
	double now = progress_now();
	if (now - p->last_draw < 0.2 && done < total)
		return;
	p->last_draw = now;
	char line[256];
	progress_line(line, sizeof line, p, level, done, total, now);
	fprintf(stderr, "\r\033[K%s", line);
	fflush(stderr);
}

void progress_end(progress *p)
{
	if (p->enabled) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
}
