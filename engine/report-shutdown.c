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

/* The result: the profile's name and the server's process id. */
struct shutdown_result {
	char		*file;
	json_int_t	 pid;
};

static void	*shutdown_create(const struct profile *,
		    const struct query *, const struct report_context *,
		    struct report_error *);
static json_t	*shutdown_json(const void *, const struct query *);
static struct display *shutdown_display(const void *,
		    const struct report_notes *, const struct query *);
static void	 shutdown_free(void *);

const struct report_entry report_shutdown_entry = {
	.create = shutdown_create,
	.json = shutdown_json,
	.display = shutdown_display,
	.free = shutdown_free,
};

static void *
shutdown_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	struct shutdown_result	*t;
	struct report_status	 s;

	if (ctx->status == NULL) {
		report_error_set(e, 400, "cmd=shutdown is answered by "
		    "deepq-server, not in-process");
		return (NULL);
	}
	/* The server's status says which process it is. */
	memset(&s, 0, sizeof s);
	if (ctx->status(ctx->status_arg, &s) == -1 ||
	    (t = calloc(1, sizeof *t)) == NULL) {
		report_error_set(e, 500, "out of memory");
		return (NULL);
	}
	t->pid = s.pid;
	if ((t->file = strdup(ctx->name ? ctx->name : "")) == NULL) {
		shutdown_free(t);
		report_error_set(e, 500, "out of memory");
		return (NULL);
	}
	return (t);
}

static void
shutdown_free(void *v)
{
	struct shutdown_result	*t = v;

	if (t == NULL)
		return;
	free(t->file);
	free(t);
}

/* cmd=shutdown as JSON (deepq-query(7)); NULL if out of memory. */
static json_t *
shutdown_json(const void *v, const struct query *q)
{
	const struct shutdown_result	*t = v;

	return (json_pack("{s:i, s:s, s:s, s:I, s:b}", "deepq",
	    REPORT_VERSION, "cmd", "shutdown", "file", t->file, "pid",
	    t->pid, "stopping", 1));
}

static struct display *
shutdown_display(const void *v, const struct report_notes *notes,
    const struct query *q)
{
	const struct shutdown_result	*t = v;
	struct display			*d;
	struct display_block		*l;
	char				*link;
	struct query			 view;

	if ((d = display_create("Server stopped")) == NULL)
		return (NULL);
	display_text(d, "The server for %s (process %lld) is shutting down. "
	    "The next request starts a new one.", t->file,
	    (long long)t->pid);
	l = display_links(d);
	view = *q;
	view.cmd = CMD_MENU;
	link = query_format(&view);
	display_link(d, l, "Summary (starts a new server)", link ? link : "");
	free(link);
	return (d);
}
