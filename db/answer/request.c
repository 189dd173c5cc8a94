/* SPDX-License-Identifier: MIT */
/* Random-board requests: the one owner of their rules. A request says a
 * distance, or a range of distances, or a random walk, how many boards and
 * which seed; slidedb-lookup, slidedb-serve and Python fill one from their
 * own spellings and call sdb_random_check() and sdb_random_open(), so one
 * request gets one verdict everywhere. */
#include <fcntl.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "answer/answer.h"

struct sdb_random {
	sdb_board goal;
	sdbi_sampler *sampler;      /* NULL: a walk */
	int walk, metric;
	uint64_t seed;
	sdbi_rng rng;
};

/* The request's metric: STM before version 2; -1 for a value that is none. */
static int random_metric(const sdb_random_request *r)
{
	if (r->version < 2)
		return SDB_METRIC_STM;
	return r->metric == SDB_METRIC_STM || r->metric == SDB_METRIC_MTM ? r->metric : -1;
}

int sdb_random_check(const sdb_random_request *r)
{
	if (r->version < 1 || r->version > SDB_RANDOM_REQUEST_VERSION)
		return sdbi_fail(SDB_EINVAL, "a random request of version %u (this slidedb reads "
		                "versions 1 to %u)", r->version, SDB_RANDOM_REQUEST_VERSION);
	if (random_metric(r) < 0)
		return sdbi_fail(SDB_EINVAL, "metric %d is not one (0 stm, 1 mtm)", r->metric);
	const int ranged = r->min_distance >= 0 || r->max_distance >= 0;
	if (r->distance >= 0 && ranged)
		return sdbi_fail(SDB_EINVAL, "distance and a range (min_distance, max_distance) do "
		                 "not combine: give one");
	if (r->walk >= 0 && (r->distance >= 0 || ranged))
		return sdbi_fail(SDB_EINVAL, "walk does not combine with distance, min_distance or "
		                 "max_distance: give one");
	/* The fields are named as the request names them (the server's
	 * parameters and Python's arguments; the command line rewords them). */
	static const char *const field[3] = { "distance", "min_distance", "max_distance" };
	const int values[3] = { r->distance, r->min_distance, r->max_distance };
	for (int i = 0; i < 3; i++)
		if (values[i] < -1 || values[i] >= SDB_MAX_DISTANCE)
			return sdbi_fail(SDB_EINVAL, "%s %d: distances run from 0 to %d", field[i],
			                 values[i], SDB_MAX_DISTANCE - 1);
	if (r->min_distance >= 0 && r->max_distance >= 0 && r->min_distance > r->max_distance)
		return sdbi_fail(SDB_EINVAL, "min_distance %d is above max_distance %d",
		                 r->min_distance, r->max_distance);
	if (r->walk < -1 || r->walk > SDB_MAX_WALK)
		return sdbi_fail(SDB_EINVAL, "walk %d: walks run from 0 to %d moves", r->walk,
		                 SDB_MAX_WALK);
	if (r->count < 1)
		return sdbi_fail(SDB_EINVAL, "count 0: draw at least one board");
	return sdbi_done(SDB_OK);
}

void sdb_random_range(const sdb_random_request *r, int *lo, int *hi)
{
	*lo = *hi = -1;   /* any distance */
	if (r->distance >= 0) {
		*lo = *hi = r->distance;
	} else if (r->min_distance >= 0 || r->max_distance >= 0) {
		/* one end of a range alone leaves the other open */
		*lo = r->min_distance >= 0 ? r->min_distance : 0;
		*hi = r->max_distance >= 0 ? r->max_distance : SDB_MAX_DISTANCE - 1;
	}
}

/* A seed no two runs share: the clock, the process and /dev/urandom. Kept
 * below 2^63, so that JSON readers with signed 64-bit integers read it. */
static uint64_t fresh_seed(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t s = (uint64_t)ts.tv_sec * 1000000007u ^ (uint64_t)ts.tv_nsec ^
	             (uint64_t)getpid() << 32, u;
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (read(fd, &u, sizeof u) == (ssize_t)sizeof u)
			s ^= u;
		close(fd);
	}
	return s >> 1;
}

int sdb_random_open(sdb_random **out, const sdb_db *db, const sdb_board *goal,
                    const sdb_random_request *r)
{
	*out = NULL;
	int err = sdb_random_check(r);
	if (err)
		return err;
	sdb_random *rd = calloc(1, sizeof *rd);
	if (!rd)
		return sdbi_fail(SDB_ENOMEM, "out of memory");
	rd->goal = *goal;
	rd->walk = r->walk;
	rd->metric = random_metric(r);
	if (r->walk < 0) {
		int lo, hi;
		sdb_random_range(r, &lo, &hi);
		err = sdbi_sampler_open(&rd->sampler, db, goal, lo, hi, rd->metric);
	}
	if (err) {
		free(rd);
		return err;
	}
	rd->seed = r->seed_given ? r->seed : fresh_seed();
	sdbi_rng_seed(&rd->rng, rd->seed);
	*out = rd;
	return sdbi_done(SDB_OK);
}

uint64_t sdb_random_seed(const sdb_random *rd)
{
	return rd->seed;
}

uint64_t sdb_random_population(const sdb_random *rd)
{
	return rd->sampler ? sdbi_sampler_population(rd->sampler) : 0;
}

int sdb_random_draw(sdb_random *rd, sdb_board *boards, size_t n)
{
	if (rd->sampler)
		return sdbi_sampler_draw(rd->sampler, boards, n, &rd->rng);
	for (size_t i = 0; i < n; i++)
		sdbi_random_walk(&boards[i], &rd->goal, rd->walk, rd->metric, &rd->rng);
	return sdbi_done(SDB_OK);
}

void sdb_random_close(sdb_random *rd)
{
	if (rd) {
		sdbi_sampler_close(rd->sampler);
		free(rd);
	}
}
