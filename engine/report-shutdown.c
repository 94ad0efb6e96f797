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


#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "display.h"
#include "profile.h"
#include "query.h"
#include "report.h"

/*
 * cmd=shutdown: the answer a server gives before it exits (the server
 * acts on it once the answer is on its way, server.c). The CGI allows it
 * by GET for curl, refuses it from other sites, and the HTML pages offer
 * it only as a POST form (deepq.cgi(8)).
 */

static json_t	*shutdown_create(const struct profile *,
		    const struct query *, const struct report_context *,
		    struct report_error *);
static struct display *shutdown_display(const json_t *,
		    const struct query *);

const struct report_entry report_shutdown_entry = {
	.name = "shutdown",
	.title = "Shut down",
	.formats = "html|json|text",
	.create_json = shutdown_create,
	.display_json = shutdown_display,
	.live = 1,
};

static json_t *
shutdown_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	json_t	*j, *s;

	if (ctx->status == NULL) {
		report_error_set(e, 400, "cmd=shutdown is answered by "
		    "deepq-server, not in-process");
		return (NULL);
	}
	if ((s = ctx->status(ctx->status_arg)) == NULL ||
	    (j = json_pack("{s:i, s:s, s:s, s:O, s:b}", "deepq",
	    REPORT_VERSION, "cmd", "shutdown", "file", ctx->name ?
	    ctx->name : "", "pid", json_object_get(s, "pid"),
	    "stopping", 1)) == NULL) {
		json_decref(s);
		report_error_set(e, 500, "out of memory");
		return (NULL);
	}
	json_decref(s);
	return (j);
}

static struct display *
shutdown_display(const json_t *j, const struct query *q)
{
	struct display		*d;
	struct display_block	*l;
	char			*link;

	if ((d = display_create("Server stopped")) == NULL)
		return (NULL);
	display_text(d, "The server for %s (process %lld) is shutting down. "
	    "The next request starts a new one.", report_string(j, "file"),
	    (long long)report_integer(j, "pid"));
	l = display_links(d);
	link = report_link(q, QUERY_CMD, NULL, -1);
	display_link(d, l, "Summary (starts a new server)", link ? link : "");
	free(link);
	return (d);
}
