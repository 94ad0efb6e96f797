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

#include "answer.h"
#include "answer-query.h"
#include "cost.h"
#include "diff.h"
#include "display.h"
#include "funcgraph.h"
#include "outbuf.h"
#include "profile.h"
#include "profile-index.h"
#include "query.h"
#include "range.h"
#include "render.h"
#include "report.h"
#include "reports.h"
#include "transform.h"

/* Query string + profile -> answer (see answer-query.h). */

/* The flame chart on a time axis (report-chart.c). */
extern const struct report_entry report_chart_entry;

static int	answer_has_format(const char *, const char *);
static int	answer_needs_times(const struct report_entry *,
		    const struct query *);
static const struct profile *answer_range(const struct profile *,
		    const struct query *, int, int, struct cost *,
		    struct profile **, struct report_error *);
static int	answer_query_check(void *);
static void	answer_render_error(struct report_error *,
		    const struct cost *);
static struct answer *answer_query_error(const char *, int, const char *,
		    const struct render_context *);

/* Is fmt one of the '|'-separated list? */
static int
answer_has_format(const char *list, const char *fmt)
{
	size_t		 n = strlen(fmt);
	const char	*p = list;

	while ((p = strstr(p, fmt)) != NULL) {
		if ((p == list || p[-1] == '|') &&
		    (p[n] == '\0' || p[n] == '|'))
			return (1);
		p += n;
	}
	return (0);
}

/*
 * Does the report draw time, or read the sample sequence (the timeline,
 * the heat map, the flame chart, the exports in time order)? A profile
 * derived for it (range=, transforms) then keeps its timeline.
 */
static int
answer_needs_times(const struct report_entry *entry, const struct query *q)
{
	const char	*cmd = entry->name;

	return (strcmp(cmd, "timeline") == 0 || strcmp(cmd, "heatmap") == 0 ||
	    strcmp(cmd, "dump") == 0 || strcmp(cmd, "speedscope") == 0 ||
	    (strcmp(cmd, "flame") == 0 &&
	    strcmp(query_str(q, QUERY_STYLE), "chart") == 0) ||
	    (strcmp(cmd, "folded") == 0 &&
	    strcmp(query_str(q, QUERY_ORDER), "time") == 0));
}

/*
 * range= and thread= (base: base_range=, with thread=) of p: p itself
 * when the query has none, else the derived profile, also left in
 * *own for the caller to free. NULL with *e on failure.
 */
static const struct profile *
answer_range(const struct profile *p, const struct query *q, int base,
    int times, struct cost *budget, struct profile **own,
    struct report_error *e)
{
	struct range	 r;
	char		*cause = NULL;
	int		 status;

	*own = NULL;
	if (range_parse(q, base, &r, &cause) == -1) {
		report_error_set(e, 500, "%s", cause ? cause : "out of memory");
		free(cause);
		return (NULL);
	}
	/* A base's range is base_range=: thread= alone keeps the base. */
	if (!range_active(&r) || (base && !r.timed)) {
		range_clear(&r);
		return (p);
	}
	*own = range_apply(p, &r, times, budget, &status, &cause);
	range_clear(&r);
	if (*own == NULL) {
		report_error_set(e, status, "%s%s", base ? "base_range: " : "",
		    cause ? cause : "out of memory");
		free(cause);
		return (NULL);
	}
	return (*own);
}

/*
 * An error answer in the query's format: the renderer's own error page
 * where it has one (an SVG image, a line of folded or callgrind text),
 * else answer_error's.
 */
static struct answer *
answer_query_error(const char *format, int status, const char *message,
    const struct render_context *rctx)
{
	const struct renderer	*r;

	if (format != NULL && (r = render_find(format)) != NULL &&
	    r->error != NULL)
		return (answer_error_write(r->content_type, r->error, status,
		    message, rctx));
	return (answer_error(format, status, message, rctx));
}

/* The body's check: the query's deadline, without charging units. */
static int
answer_query_check(void *arg)
{
	return (cost_check(arg));
}

/* Why rendering failed: the deadline (503), else memory. */
static void
answer_render_error(struct report_error *e, const struct cost *budget)
{
	char	*why;

	if (cost_over(budget) && (why = cost_message(budget)) != NULL) {
		report_error_set(e, 503, "%s", why);
		free(why);
	} else
		report_error_set(e, 500, "out of memory");
}

/* Answer a query string about a profile. NULL only if out of memory. */
struct answer *
answer_query(const struct profile *p, const char *qs,
    const struct answer_context *ctx)
{
	struct answer	*a;
	struct query	*q;
	char		*cause = NULL;
	int		 status;

	if ((q = query_parse(qs, &status, &cause)) == NULL) {
		a = answer_query_error(answer_guess_format(qs), status, cause,
		    &ctx->render);
		free(cause);
		return (a);
	}
	a = answer_query_parsed(p, q, ctx);
	query_free(q);
	return (a);
}

/*
 * Answer a query already parsed (the server parses it once, for its
 * answer cache's key too). NULL only if out of memory.
 */
struct answer *
answer_query_parsed(const struct profile *p, const struct query *q,
    const struct answer_context *ctx)
{
	const struct report_entry	*entry = NULL;
	const struct renderer		*r;
	const struct profile		*use = p;
	struct report_error		 e = { 0, NULL };
	struct transform_stack		*ts = NULL;
	struct profile			*derived = NULL, *merged = NULL;
	struct profile			*ranged = NULL, *branged = NULL;
	struct profile_index		*index = NULL;
	struct report_context		 rc = ctx->report;
	struct cost			 budget;
	const struct profile		*bp;
	struct report_notes		 notes;
	struct display			*d = NULL;
	void				*res = NULL;
	struct outbuf			 ob;
	struct answer			*a = NULL;
	json_t				*j = NULL;
	const char			*format;
	char				*cause = NULL;
	int				 status, estimated;

	format = query_str(q, QUERY_FORMAT);
	if (rc.origin == NULL)
		rc.origin = p;
	/* One budget for the whole query: transforms and report alike. */
	cost_init(&budget, rc.max_cost, rc.max_msec);
	rc.cost = &budget;
	if ((entry = reports_find(query_str(q, QUERY_CMD))) == NULL) {
		report_error_set(&e, 400, "report %s is not available",
		    query_str(q, QUERY_CMD));
		goto fail;
	}
	if (!answer_has_format(entry->formats, format) ||
	    (r = render_find(format)) == NULL ||
	    (r->render == NULL && entry->export == NULL)) {
		report_error_set(&e, 400, "format %s is not available for "
		    "cmd=%s (available: %s)", format, entry->name,
		    entry->formats);
		goto fail;
	}
	/*
	 * range= and thread=: the samples of a time range and of threads,
	 * a profile of their own before anything else (range.h).
	 */
	if ((use = answer_range(p, q, 0, answer_needs_times(entry, q),
	    &budget, &ranged, &e)) == NULL)
		goto fail;
	/*
	 * base=: merge before the transforms, so that they apply to both
	 * sides alike (the merged profile keeps this profile's ids). With
	 * base_range= alone, the base is another range of this recording.
	 */
	if (*query_str(q, QUERY_BASE) != '\0' ||
	    *query_str(q, QUERY_BASE_RANGE) != '\0') {
		bp = p;
		if (*query_str(q, QUERY_BASE) != '\0' &&
		    ctx->base_load == NULL) {
			report_error_set(&e, 400, "base= is not available "
			    "here");
			goto fail;
		}
		if (*query_str(q, QUERY_BASE) != '\0' &&
		    (bp = ctx->base_load(ctx->base_arg, query_str(q,
		    QUERY_BASE), &status, &cause)) == NULL) {
			report_error_set(&e, status, "base=%s: %s",
			    query_str(q, QUERY_BASE), cause ? cause :
			    "out of memory");
			goto fail;
		}
		if ((bp = answer_range(bp, q, 1, 0, &budget, &branged,
		    &e)) == NULL)
			goto fail;
		if ((merged = diff_merge(use, bp, query_str(q, QUERY_METRIC),
		    &status, &cause)) == NULL) {
			report_error_set(&e, status, "base=%s: %s",
			    query_str(q, QUERY_BASE), cause ? cause :
			    "out of memory");
			goto fail;
		}
		rc.base = bp;
		rc.base_name = *query_str(q, QUERY_BASE) != '\0' ?
		    query_str(q, QUERY_BASE) : query_str(q, QUERY_BASE_RANGE);
		use = merged;
	}
	/*
	 * The one place transforms and filters apply: every report sees the
	 * derived profile, and every answer shows the stack.
	 */
	if ((ts = transform_parse(q, &status, &cause)) == NULL) {
		report_error_set(&e, status, "%s", cause ? cause :
		    "out of memory");
		goto fail;
	}
	/* Whether the answer rests on a call graph's estimated tree. */
	estimated = funcgraph_estimate(use, entry->name, ts->n > 0);
	ts->times = answer_needs_times(entry, q);
	if (ts->n > 0) {
		if ((derived = transform_apply(use, ts, &budget,
		    &status, &cause)) == NULL) {
			report_error_set(&e, status, "%s", cause ? cause :
			    "out of memory");
			goto fail;
		}
		use = derived;
	}
	/*
	 * A flame chart of a profile that records times is drawn on its
	 * time axis, a lane per thread (report-chart.c); its page and JSON
	 * only: format=svg keeps the sample sequence's chart.
	 */
	if (strcmp(entry->name, "flame") == 0 && use->timeline != NULL &&
	    strcmp(query_str(q, QUERY_STYLE), "chart") == 0 &&
	    answer_has_format(report_chart_entry.formats, format))
		entry = &report_chart_entry;
	/* An export's own format: the report writes the body (report.h). */
	if (r->render == NULL)
		goto body;
	/*
	 * The reports' derived data: the caller's index of its profile, or
	 * one for this query alone when the profile is derived from it.
	 */
	if (use != p || rc.index == NULL) {
		if ((index = profile_index_create(use)) == NULL) {
			report_error_set(&e, 500, "out of memory");
			goto fail;
		}
		rc.index = index;
	}
	/*
	 * One result, then what the renderer takes: the JSON (format=json,
	 * svg, an export's JSON form) or the page (html, text). A flame
	 * graph's page draws its frames from its JSON (page_json): the
	 * page gets it too.
	 */
	if ((res = reports_create(entry, use, q, &rc, &e)) == NULL)
		goto fail;
	reports_notes_init(&notes, use, q, rc.base_name, ts, estimated);
	if ((!r->needs_display || entry->page_json) &&
	    (j = reports_json(entry, res, &notes, q)) == NULL) {
		report_error_set(&e, 500, "out of memory");
		goto fail;
	}
	/* The JSON holds all it needs: the result's memory back first. */
	if (!r->needs_display) {
		reports_free(entry, res);
		res = NULL;
	}
	if (r->needs_display && ((d = reports_display(entry, res, &notes,
	    q)) == NULL || display_failed(d))) {
		report_error_set(&e, 500, "out of memory");
		goto fail;
	}
body:
	if ((a = calloc(1, sizeof *a)) == NULL)
		goto fail;
	a->status = 200;
	a->content_type = r->content_type;
	outbuf_init(&ob);
	outbuf_check(&ob, answer_query_check, &budget);
	if ((r->render != NULL ? r->render(&ob, j, d, &ctx->render) :
	    entry->export(&ob, use, q, &rc, &e)) == -1) {
		outbuf_clear(&ob);
		answer_free(a);
		a = NULL;
		if (e.status == 0)
			answer_render_error(&e, &budget);
		goto fail;
	}
	if ((a->body = outbuf_take(&ob, &a->len)) == NULL) {
		answer_free(a);
		a = NULL;
		answer_render_error(&e, &budget);
		goto fail;
	}
	goto done;
fail:
	a = answer_query_error(format, e.status ? e.status : 500, e.message,
	    &ctx->render);
done:
	free(cause);
	free(e.message);
	display_free(d);
	json_decref(j);
	if (entry != NULL)
		reports_free(entry, res);
	profile_index_free(index);
	profile_free(derived);
	profile_free(merged);
	profile_free(ranged);
	profile_free(branged);
	transform_stack_free(ts);
	return (a);
}
