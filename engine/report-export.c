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

#include "base64.h"
#include "catalog.h"
#include "columns.h"
#include "cost.h"
#include "display.h"
#include "outbuf.h"
#include "profile.h"
#include "query.h"
#include "report.h"
#include "writer.h"

/*
 * The export reports, cmd=folded|callgrind|pprof|speedscope: the profile
 * in a file format other tools read, made by its writer (writer.h). Each
 * answers in two formats:
 *
 * - its own (format=folded, ...): the writer streams straight into the
 *   answer's body (export_stream, the report_entry's export), with no copy
 *   of the text in between, and the body's deadline check stops a write
 *   that takes too long;
 * - format=json: {"deepq":1,"cmd":C,"metric":M,"total":T,"text":S}, the
 *   text as a string (base64, with "encoding":"base64", for pprof's
 *   gzipped protobuf).
 *
 * A profile the format cannot hold is the query's fault (400); running
 * out of memory is ours (500).
 */

/* format=json's result: the writer's whole text (base64 for binary). */
struct export_result {
	enum catalog_cmd	 cmd;
	const struct writer	*x;
	const char		*metric;
	int64_t			 total;
	char			*text;
	size_t			 len;
};

static const struct writer *export_find(const struct query *,
		    struct report_error *);
static int	export_options(const struct profile *, const struct query *,
		    const struct report_context *, struct writer_options *,
		    struct report_error *);
static void	export_error(struct report_error *, const char *);
static void	export_too_large(struct report_error *, const char *,
		    size_t);
static int	export_check(void *);
static void	*export_create(const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
static json_t	*export_json(const void *, const struct query *);
static struct display *export_display(const void *,
		    const struct report_notes *, const struct query *);
static void	 export_free(void *);
static int	export_stream(struct outbuf *, const struct profile *,
		    const struct query *, const struct report_context *,
		    struct report_error *);

/*
 * One registration for the four: the cmd= is the format's name (the
 * catalog has their names, titles and formats; writer.c their writers).
 */
#define EXPORT_ENTRY(cmd)						\
const struct report_entry report_##cmd##_entry = {			\
	.create = export_create,					\
	.json = export_json,						\
	.display = export_display,					\
	.free = export_free,						\
	.export = export_stream,					\
}

EXPORT_ENTRY(folded);
EXPORT_ENTRY(callgrind);
EXPORT_ENTRY(pprof);
EXPORT_ENTRY(speedscope);

/* The writer of the query's cmd (the format of its name). */
static const struct writer *
export_find(const struct query *q, struct report_error *e)
{
	const char		*name = catalog_reports[q->cmd].name;
	const struct writer	*x;
	int			 fmt;

	if ((fmt = catalog_format_find(name)) == -1 ||
	    (x = writer_find(fmt)) == NULL) {
		report_error_set(e, 400, "report %s is not available", name);
		return (NULL);
	}
	return (x);
}

static int
export_options(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct writer_options *o,
    struct report_error *e)
{
	int	 m;

	if ((m = report_metric(p, q, e)) == -1 || columns_check(p, q, e) == -1)
		return (-1);
	memset(o, 0, sizeof *o);
	o->metric = m;
	o->maxdepth = (uint32_t)q->maxdepth;
	o->time_order = q->order == QUERY_ORDER_TIME;
	o->no_modules = !q->modules;
	o->cost = ctx->cost;
	o->max_bytes = ctx->max_body;
	return (0);
}

/* A writer's failure: the profile's (400) unless memory or the buffer. */
static void
export_error(struct report_error *e, const char *cause)
{
	report_error_set(e, cause != NULL && strcmp(cause, "out of memory") !=
	    0 && strcmp(cause, "write error") != 0 ? 400 : 500, "%s",
	    cause != NULL ? cause : "out of memory");
}

/*
 * Past the answer's most: 413, with the writer's reason when it refused
 * in advance (it names the way to cut the text), else the limit's.
 */
static void
export_too_large(struct report_error *e, const char *cause, size_t max)
{
	if (cause != NULL && strcmp(cause, "write error") != 0 &&
	    strcmp(cause, "out of memory") != 0)
		report_error_set(e, 413, "%s", cause);
	else
		report_error_too_large(e, max);
}

static int
export_check(void *arg)
{
	return (cost_check(arg));
}

/* format=json: the writer's text, whole, as the result. */
static void *
export_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	const struct writer	*x;
	struct export_result	*t = NULL;
	struct writer_options	 o;
	struct outbuf		 ob;
	char			*text = NULL, *b64, *cause = NULL;
	size_t			 len;

	if ((x = export_find(q, e)) == NULL ||
	    export_options(p, q, ctx, &o, e) == -1)
		return (NULL);
	outbuf_init(&ob);
	if (ctx->cost != NULL)
		outbuf_check(&ob, export_check, ctx->cost);
	/* The JSON holds the text escaped: at least as long. */
	outbuf_max(&ob, ctx->max_body);
	if (x->write(&ob, p, &o, &cause) == -1) {
		if (ctx->cost != NULL && cost_over(ctx->cost))
			report_error_cost(e, ctx->cost);
		else if (outbuf_too_large(&ob))
			export_too_large(e, cause, ctx->max_body);
		else
			export_error(e, cause);
		goto done;
	}
	if ((text = outbuf_take(&ob, &len)) == NULL) {
		report_error_set(e, 500, "out of memory");
		goto done;
	}
	if (x->binary) {
		b64 = base64_encode(text, len, &len);
		free(text);
		if ((text = b64) == NULL) {
			report_error_set(e, 500, "out of memory");
			goto done;
		}
	}
	if ((t = calloc(1, sizeof *t)) == NULL) {
		report_error_set(e, 500, "out of memory");
		goto done;
	}
	t->cmd = q->cmd;
	t->x = x;
	t->metric = p->metrics[o.metric].name;
	t->total = p->metrics[o.metric].sum;
	t->text = text;
	t->len = len;
	text = NULL;
done:
	outbuf_clear(&ob);
	free(cause);
	free(text);
	return (t);
}

static void
export_free(void *v)
{
	struct export_result	*t = v;

	if (t == NULL)
		return;
	free(t->text);
	free(t);
}

/*
 * {"deepq":1,"cmd":C,"metric":M,"total":T,"text":S} (and "encoding").
 * No UTF-8 check of a text that may be hundreds of megabytes: it holds
 * only ASCII and the profile's names, which the builder made valid
 * UTF-8.
 */
static json_t *
export_json(const void *v, const struct query *q)
{
	const struct export_result	*t = v;
	json_t				*j;

	if ((j = report_new(t->cmd)) == NULL ||
	    json_object_set_new(j, "metric", json_string(t->metric)) == -1 ||
	    json_object_set_new(j, "total", json_integer(t->total)) == -1 ||
	    json_object_set_new(j, "text", json_stringn_nocheck(t->text,
	    t->len)) == -1 || (t->x->binary && json_object_set_new(j,
	    "encoding", json_string("base64")) == -1)) {
		json_decref(j);
		return (NULL);
	}
	return (j);
}

/* The display of an export: only its size (the formats need none). */
static struct display *
export_display(const void *v, const struct report_notes *n,
    const struct query *q)
{
	const struct export_result	*t = v;
	struct display			*d;

	if ((d = display_create(catalog_reports[t->cmd].title)) == NULL)
		return (NULL);
	display_text(d, "%zu bytes.", t->len);
	return (d);
}

/*
 * The export's own format, written into the answer's body. A failed
 * body (out of memory, past the query's deadline) leaves *e empty: the
 * caller knows why (answer-query.c).
 */
static int
export_stream(struct outbuf *ob, const struct profile *p,
    const struct query *q, const struct report_context *ctx,
    struct report_error *e)
{
	const struct writer	*x;
	struct writer_options	 o;
	char			*cause = NULL;

	if ((x = export_find(q, e)) == NULL ||
	    export_options(p, q, ctx, &o, e) == -1)
		return (-1);
	if (x->write(ob, p, &o, &cause) == -1) {
		if (outbuf_too_large(ob))
			export_too_large(e, cause, ctx->max_body);
		else if (outbuf_failed(ob) == 0)
			export_error(e, cause);
		free(cause);
		return (-1);
	}
	return (0);
}
