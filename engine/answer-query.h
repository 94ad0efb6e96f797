/*
 * Copyright (c) 2026 The deepq developers
 *
 * Permission to use, copy, modify, and distribute this software for any
 * purpose with or without fee is hereby granted, provided that the above
 * copyright notice and this permission notice appear in all copies.
 *
 * THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES
 * WITH REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF
 * MERCHANTABILITY AND FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR
 * ANY SPECIAL, DIRECT, INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES
 * WHATSOEVER RESULTING FROM LOSS OF USE, DATA OR PROFITS, WHETHER IN AN
 * ACTION OF CONTRACT, NEGLIGENCE OR OTHER TORTIOUS ACTION, ARISING OUT OF
 * OR IN CONNECTION WITH THE USE OR PERFORMANCE OF THIS SOFTWARE.
 */


#ifndef ANSWER_QUERY_H
#define ANSWER_QUERY_H

/*
 * Answering a query: the one path from a query string and a loaded
 * profile to a status, a content type and a body, shared by the server,
 * `deepq query --local' and the tests. Parse the query, create the
 * report, display it, render it; any failure becomes an error answer in
 * the format the query asked for.
 */

#include "answer.h"
#include "render.h"
#include "report.h"

struct profile;
struct query;

/*
 * base_load resolves and loads base= (a name under the same profile root
 * as the profile) or returns NULL with *status (403, 404, ...) and
 * *cause; the profile stays the loader's. NULL base_load: no base=.
 */
struct answer_context {
	struct render_context	 render;
	struct report_context	 report;
	const struct profile	*(*base_load)(void *, const char *, int *,
				    char **);
	void			*base_arg;
};

struct answer	*answer_query(const struct profile *, const char *,
		     const struct answer_context *);
struct answer	*answer_query_parsed(const struct profile *,
		     const struct query *, const struct answer_context *);

#endif /* ANSWER_QUERY_H */
