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

/* The result: the server's figures and the profile's name. */
struct status_result {
	struct report_status	 s;
	char			*file;
};

static void	*status_create(const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
static json_t	*status_json(const void *, const struct query *);
static struct display *status_display(const void *,
		    const struct report_notes *, const struct query *);
static void	 status_free(void *);
static char	*status_seconds(double);

const struct report_entry report_status_entry = {
	.create = status_create,
	.json = status_json,
	.display = status_display,
	.free = status_free,
};

static void *
status_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	struct status_result	*t;

	if (ctx->status == NULL) {
		report_error_set(e, 400, "cmd=status is answered by "
		    "deepq-server, not in-process");
		return (NULL);
	}
	if ((t = calloc(1, sizeof *t)) == NULL ||
	    ctx->status(ctx->status_arg, &t->s) == -1 ||
	    (t->file = strdup(ctx->name ? ctx->name : "")) == NULL) {
		status_free(t);
		report_error_set(e, 500, "out of memory");
		return (NULL);
	}
	return (t);
}

static void
status_free(void *v)
{
	struct status_result	*t = v;

	if (t == NULL)
		return;
	free(t->file);
	free(t);
}

/* cmd=status as JSON (deepq-query(7)); NULL if out of memory. */
static json_t *
status_json(const void *v, const struct query *q)
{
	const struct status_result	*t = v;
	const struct report_status	*s = &t->s;

	return (json_pack("{s:i, s:s, s:I, s:s, s:I, s:b, s:I, s:I, s:I, "
	    "s:I, s:I, s:i, s:I, s:I, s:I, s:I, "
	    "s:{s:I, s:I, s:I, s:I, s:I, s:I}, "
	    "s:s}",
	    "deepq", REPORT_VERSION,
	    "cmd", "status",
	    "pid", (json_int_t)s->pid,
	    "format", s->format ? s->format : "",
	    "load_ms", (json_int_t)s->load_ms,
	    "cached", s->cached,
	    "started", (json_int_t)s->started,
	    "uptime", (json_int_t)s->uptime,
	    "idle_ms", (json_int_t)s->idle_ms,
	    "queries", (json_int_t)s->queries,
	    "rss", (json_int_t)s->rss,
	    "idle_timeout", s->idle_timeout,
	    "clients", (json_int_t)s->clients,
	    "workers", (json_int_t)s->workers,
	    "waiting", (json_int_t)s->waiting,
	    "loaders", (json_int_t)s->loaders,
	    "answer_cache",
	    "hits", (json_int_t)s->answer_cache.hits,
	    "misses", (json_int_t)s->answer_cache.misses,
	    "evictions", (json_int_t)s->answer_cache.evictions,
	    "entries", (json_int_t)s->answer_cache.entries,
	    "bytes", (json_int_t)s->answer_cache.bytes,
	    "limit", (json_int_t)s->answer_cache.limit,
	    "file", t->file));
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
status_display(const void *v, const struct report_notes *notes,
    const struct query *q)
{
	struct display		*d;
	struct display_block	*b;
	const char		*names[] = { "File", "Format", "Process id",
	    "Load time", "Uptime", "Idle", "Queries served", "Memory (RSS)",
	    "Idle timeout", "Answer cache" };
	const struct status_result *t = v;
	const struct report_status *s = &t->s;
	char			*val[10], *link;
	struct query		 view;
	size_t			 i, r;
	double			 rss;

	if ((d = display_create("Server status")) == NULL)
		return (NULL);
	memset(val, 0, sizeof val);
	val[0] = strdup(t->file);
	val[1] = strdup(s->format ? s->format : "");
	if (asprintf(&val[2], "%lld", (long long)s->pid) == -1)
		val[2] = NULL;
	val[3] = status_seconds((double)s->load_ms / 1000);
	val[4] = status_seconds((double)s->uptime);
	val[5] = status_seconds((double)s->idle_ms / 1000);
	val[6] = display_number(s->queries);
	rss = (double)s->rss / (1024 * 1024);
	if (asprintf(&val[7], "%.1f MB", rss) == -1)
		val[7] = NULL;
	val[8] = status_seconds(s->idle_timeout);
	if (s->answer_cache.limit == 0)
		val[9] = strdup("off");
	else if (asprintf(&val[9], "%lld hits, %lld misses, %.1f of %.0f MB",
	    (long long)s->answer_cache.hits,
	    (long long)s->answer_cache.misses,
	    (double)s->answer_cache.bytes / (1024 * 1024),
	    (double)s->answer_cache.limit / (1024 * 1024)) == -1)
		val[9] = NULL;

	b = display_table(d, 2, "status");
	display_head(d, b, 0, "", NULL, 0);
	display_head(d, b, 1, "", NULL, 0);
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		r = display_row(d, b);
		display_cell(d, b, r, 0, names[i], NULL, 0);
		display_cell(d, b, r, 1, val[i] ? val[i] : "?", NULL, 0);
		free(val[i]);
	}
	view = *q;
	view.cmd = CMD_SHUTDOWN;
	link = query_format(&view);
	display_form(d, "Shut down this server", link ? link : "");
	free(link);
	return (d);
}
