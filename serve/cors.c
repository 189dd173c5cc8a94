/* SPDX-License-Identifier: MIT */
/* CORS: a page of another origin (a browser game, a teaching site) may call
 * the API when --cors names its origin, or is "*". Answers carry
 * Access-Control-Allow-Origin for such an Origin (and Vary: Origin, since
 * the headers depend on it); preflights (OPTIONS with
 * Access-Control-Request-Method) are answered 204 with the methods the path
 * takes and Content-Type allowed (a batch's body). Nothing is credentialed:
 * the API has no cookies or users. Here, the headers and the verdicts; the
 * replies are routes.c's, so that replies and CORS do not call each other. */
#include <stdio.h>
#include <string.h>

#include "serve/server.h"

enum { PREFLIGHT_MAX_AGE = 600 };   /* seconds a browser may keep a preflight's answer */

/* The Access-Control-Allow-Origin value for origin, or NULL. */
static const char *allowed(const server *sv, const char *origin)
{
	for (int i = 0; i < sv->opts.ncors; i++) {
		if (!strcmp(sv->opts.cors[i], "*"))
			return "*";
		if (origin && !strcmp(sv->opts.cors[i], origin))
			return origin;
	}
	return NULL;
}

void cors_headers(struct MHD_Connection *c, struct MHD_Response *r, const server *sv)
{
	if (!sv->opts.ncors)
		return;
	const char *origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin");
	const char *allow = allowed(sv, origin);
	if (origin && allow)
		MHD_add_response_header(r, "Access-Control-Allow-Origin", allow);
	MHD_add_response_header(r, "Vary", "Origin");
}

int cors_preflight(struct MHD_Connection *c, const server *sv, char *why, size_t cap)
{
	const char *method = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
	                                                 "Access-Control-Request-Method");
	if (!sv->opts.ncors || !method)
		return CORS_NONE;
	const char *origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin");
	if (origin && allowed(sv, origin))
		return CORS_ALLOWED;
	snprintf(why, cap, "origin '%.100s' may not call this server from a browser (--cors "
	         "names the origins that may)", origin ? origin : "");
	return CORS_FORBIDDEN;
}

void cors_preflight_headers(struct MHD_Response *r, const char *allow)
{
	char age[16];
	snprintf(age, sizeof age, "%d", PREFLIGHT_MAX_AGE);
	MHD_add_response_header(r, "Access-Control-Allow-Methods", allow);
	MHD_add_response_header(r, "Access-Control-Allow-Headers", "Content-Type");
	MHD_add_response_header(r, "Access-Control-Max-Age", age);
}
