/* SPDX-License-Identifier: MIT */
/* Responses: the headers every answer carries, JSON errors, and the status
 * of a failed query. Errors are JSON objects with "error" and a status that
 * says whose fault it is: 400 a malformed board or parameter, 403 an origin
 * --cors does not name (preflight), 404 a path or a table that does not
 * exist (the message names the command that builds it), 405 a method, 413 a
 * body over --max-body, 422 a search over its limits, 429 a request over its
 * budget, 500 a damaged table, 503 too many connections or the memory
 * budget held (with Retry-After). */
#include <stdio.h>
#include <string.h>

#include "serve/endpoint.h"
#include "serve/params.h"
#include "serve/server.h"

enum MHD_Result reply_response(struct MHD_Connection *c, request *rq, unsigned status,
                               struct MHD_Response *r)
{
	const server *sv = rq->sv;
	if (!MHD_get_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL))
		MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	cors_headers(c, r, sv);
	if (status == MHD_HTTP_SERVICE_UNAVAILABLE || rq->retry)
		MHD_add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER, "1");
	if (status == MHD_HTTP_SERVICE_UNAVAILABLE)   /* short of a slot or memory: */
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");   /* give it back */
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW,
		                        endpoint_methods(rq->endpoint, sv->opts.ncors));
	rq->status = status;
	enum MHD_Result ok = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ok;
}

enum MHD_Result reply(struct MHD_Connection *c, request *rq, unsigned status, const char *type,
                      out *o)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(o->len, o->buf,
	                                                         MHD_RESPMEM_MUST_FREE);
	if (!r)
		return MHD_NO;
	o->buf = NULL;
	o->len = o->cap = 0;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	return reply_response(c, rq, status, r);
}

enum MHD_Result reply_json(struct MHD_Connection *c, request *rq, unsigned status, out *o)
{
	return reply(c, rq, status, "application/json", o);
}

enum MHD_Result reply_error(struct MHD_Connection *c, request *rq, unsigned status,
                            const char *fmt, ...)
{
	char msg[1024], said[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	out o = { 0 };
	out_str(&o, "{\"error\":");
	out_json_str(&o, report_reword(said, sizeof said, msg, params_api_words));
	out_str(&o, "}\n");
	return reply_json(c, rq, status, &o);
}

unsigned reply_status(const request *rq, int err)
{
	switch (err) {
	case 0: return MHD_HTTP_OK;
	case SDB_EINVAL: case SDB_EAMBIGUOUS: case SDB_ETOOBIG: return MHD_HTTP_BAD_REQUEST;
	case SDB_ENOTFOUND: return MHD_HTTP_NOT_FOUND;
	case SDB_ELIMIT: return MHD_HTTP_UNPROCESSABLE_CONTENT;
	case ANSWERER_ESPENT:
		return rq->budget.state == BUDGET_ABANDONED ? MHD_HTTP_SERVICE_UNAVAILABLE
		                                            : MHD_HTTP_TOO_MANY_REQUESTS;
	default: return MHD_HTTP_INTERNAL_SERVER_ERROR;
	}
}

enum MHD_Result reply_no_search(struct MHD_Connection *c, request *rq, int why)
{
	const server_opts *o = &rq->sv->opts;
	if (why == POOL_CLIENT) {
		rq->retry = 1;
		return reply_error(c, rq, MHD_HTTP_TOO_MANY_REQUESTS, "busy: this client has %d "
		                   "searches queued or running already (--client-searches); retry "
		                   "when one is answered", o->client_searches);
	}
	if (why == POOL_FULL)
		return reply_error(c, rq, MHD_HTTP_SERVICE_UNAVAILABLE, "busy: the %d search threads "
		                   "are taken and %d searches wait (--search-threads, --search-queue); "
		                   "retry in a second", o->search_threads, o->search_queue);
	return reply_error(c, rq, MHD_HTTP_SERVICE_UNAVAILABLE, "the server is stopping");
}
