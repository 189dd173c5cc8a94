/* SPDX-License-Identifier: MIT */
/* Request bodies. Every body counts against --max-memory (all requests
 * together, memory.c) as it is allocated; a request over it gets 503 with
 * Retry-After, and one over --max-body 413. A refused body is read and
 * thrown away before the answer goes out (up to LINGER_BYTES, within
 * --idle-timeout), as nginx's lingering close does: a client that writes its
 * whole body before it reads (Python's http.client and urllib, most scripts)
 * would otherwise meet a reset connection, never the answer. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "serve/server.h"

/* The client waits for "100 Continue" before it sends the body: answer now
 * and it never sends it. */
static int expects_continue(struct MHD_Connection *c)
{
	const char *e = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_EXPECT);
	return e && !strcasecmp(e, "100-continue");
}

/* The answer goes now when the client waits for 100 Continue or the body
 * is too large to be thrown away, else once the body has been read. */
enum MHD_Result body_refuse(struct MHD_Connection *c, request *rq, unsigned status,
                            unsigned long long announced, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(rq->why, sizeof rq->why, fmt, ap);
	va_end(ap);
	rq->refused = status;
	rq->discarded = rq->body.len;
	out_free(&rq->body);
	memory_give(rq->sv, &rq->held);
	if (expects_continue(c) || announced > LINGER_BYTES)
		return reply_error(c, rq, status, "%s", rq->why);
	return MHD_YES;
}

static enum MHD_Result refuse_busy(struct MHD_Connection *c, request *rq,
                                   unsigned long long announced)
{
	return body_refuse(c, rq, MHD_HTTP_SERVICE_UNAVAILABLE, announced, "busy: the bodies and "
	              "answers of the requests under way hold the server's memory budget "
	              "(--max-memory %zu bytes); retry in a second", rq->sv->opts.max_memory);
}

enum MHD_Result body_begin(struct MHD_Connection *c, request *rq)
{
	const size_t max = rq->sv->opts.max_body;
	const char *length = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
	                                                 MHD_HTTP_HEADER_CONTENT_LENGTH);
	if (!length)
		return MHD_YES;   /* none, or chunked: counted as it comes */
	const unsigned long long n = strtoull(length, NULL, 10);
	if (n > max)
		return body_refuse(c, rq, MHD_HTTP_CONTENT_TOO_LARGE, n, "the body of %llu bytes is over "
		              "the limit of %zu (--max-body)", n, max);
	if (n == 0)
		return MHD_YES;
	if (!memory_take(rq->sv, &rq->held, n + 1))
		return refuse_busy(c, rq, n);
	/* exactly its size (and a spare byte for the last line's end), once */
	if (!(rq->body.buf = malloc(n + 1))) {
		memory_give(rq->sv, &rq->held);
		return reply_error(c, rq, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
	}
	rq->body.cap = n + 1;
	return MHD_YES;
}

enum MHD_Result body_feed(struct MHD_Connection *c, request *rq, const char *data, size_t n)
{
	const size_t max = rq->sv->opts.max_body;
	out *b = &rq->body;
	if (rq->refused) {
		rq->discarded += n;
		return rq->discarded > LINGER_BYTES ? reply_error(c, rq, rq->refused, "%s", rq->why)
		                                    : MHD_YES;
	}
	enum MHD_Result ret;
	if (b->len + n > max) {
		ret = body_refuse(c, rq, MHD_HTTP_CONTENT_TOO_LARGE, 0, "the body is over the limit of "
		             "%zu bytes (--max-body)", max);
		rq->discarded += n;
		return ret;
	}
	if (b->len + n + 1 > b->cap) {   /* chunked: grow, counted */
		size_t cap = b->cap ? 2 * b->cap : 64 * 1024;
		if (cap < b->len + n + 1)
			cap = b->len + n + 1;
		if (cap > max + 1)
			cap = max + 1;
		char *grown = memory_take(rq->sv, &rq->held, cap - b->cap) ? realloc(b->buf, cap)
		                                                            : NULL;
		if (!grown) {
			ret = refuse_busy(c, rq, 0);
			rq->discarded += n;
			return ret;
		}
		b->buf = grown;
		b->cap = cap;
	}
	memcpy(b->buf + b->len, data, n);
	b->len += n;
	return MHD_YES;
}
