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
 * cmd=status: the server answering (pid, format, load time, uptime,
 * idle time, queries served, resident memory, the answer cache's hits,
 * misses and bytes). Only a server knows these:
 * it supplies them through report_context.status; `deepq query --local'
 * has none. The HTML page offers shutdown as a POST form only: a plain
 * link could be followed by a crawler or a prefetcher.
 */

static json_t	*status_create(const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
static struct display *status_display(const json_t *, const struct query *);
static char	*status_seconds(double);

const struct report_entry report_status_entry = {
	.name = "status",
	.title = "Server status",
	.formats = "html|json|text",
	.create_json = status_create,
	.display_json = status_display,
	.live = 1,
};

static json_t *
status_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	json_t	*j, *s;

	if (ctx->status == NULL) {
		report_error_set(e, 400, "cmd=status is answered by "
		    "deepq-server, not in-process");
		return (NULL);
	}
	if ((j = report_new("status")) == NULL ||
	    (s = ctx->status(ctx->status_arg)) == NULL) {
		json_decref(j);
		report_error_set(e, 500, "out of memory");
		return (NULL);
	}
	if (json_object_update(j, s) == -1 ||
	    json_object_set_new(j, "file", json_string(ctx->name ?
	    ctx->name : "")) == -1) {
		json_decref(s);
		json_decref(j);
		report_error_set(e, 500, "out of memory");
		return (NULL);
	}
	json_decref(s);
	return (j);
}

/* 3723.5 -> "1h 2m 3.5s". Caller frees. */
static char *
status_seconds(double t)
{
	long long	 s = (long long)t;
	char		*out;
	int		 r;

	if (t < 60)
		r = asprintf(&out, "%.3gs", t);
	else if (s < 3600)
		r = asprintf(&out, "%lldm %llds", s / 60, s % 60);
	else
		r = asprintf(&out, "%lldh %lldm %llds", s / 3600,
		    s / 60 % 60, s % 60);
	return (r == -1 ? NULL : out);
}

static struct display *
status_display(const json_t *j, const struct query *q)
{
	struct display		*d;
	struct display_block	*t;
	const char		*names[] = { "File", "Format", "Process id",
	    "Load time", "Uptime", "Idle", "Queries served", "Memory (RSS)",
	    "Idle timeout", "Answer cache" };
	const json_t		*ac;
	char			*v[10], *link;
	size_t			 i, r;
	double			 rss;

	if ((d = display_create("Server status")) == NULL)
		return (NULL);
	memset(v, 0, sizeof v);
	v[0] = strdup(report_string(j, "file"));
	v[1] = strdup(report_string(j, "format"));
	if (asprintf(&v[2], "%lld", (long long)report_integer(j, "pid")) == -1)
		v[2] = NULL;
	v[3] = status_seconds((double)report_integer(j, "load_ms") / 1000);
	v[4] = status_seconds(report_integer(j, "uptime"));
	v[5] = status_seconds((double)report_integer(j, "idle_ms") / 1000);
	v[6] = display_number(report_integer(j, "queries"));
	rss = (double)report_integer(j, "rss") / (1024 * 1024);
	if (asprintf(&v[7], "%.1f MB", rss) == -1)
		v[7] = NULL;
	v[8] = status_seconds(report_integer(j, "idle_timeout"));
	ac = json_object_get(j, "answer_cache");
	if (report_integer(ac, "limit") == 0)
		v[9] = strdup("off");
	else if (asprintf(&v[9], "%lld hits, %lld misses, %.1f of %.0f MB",
	    (long long)report_integer(ac, "hits"),
	    (long long)report_integer(ac, "misses"),
	    (double)report_integer(ac, "bytes") / (1024 * 1024),
	    (double)report_integer(ac, "limit") / (1024 * 1024)) == -1)
		v[9] = NULL;

	t = display_table(d, 2, "status");
	display_head(d, t, 0, "", NULL, 0);
	display_head(d, t, 1, "", NULL, 0);
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		r = display_row(d, t);
		display_cell(d, t, r, 0, names[i], NULL, 0);
		display_cell(d, t, r, 1, v[i] ? v[i] : "?", NULL, 0);
		free(v[i]);
	}
	link = report_link(q, QUERY_CMD, "shutdown", -1);
	display_form(d, "Shut down this server", link ? link : "");
	free(link);
	return (d);
}
