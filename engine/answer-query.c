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
#include "catalog.h"
#include "cost.h"
#include "diff.h"
#include "display.h"
#include "funcgraph.h"
#include "outbuf.h"
#include "profile.h"
#include "profile-index.h"
#include "query.h"
#include "range.h"
#include "reader-view.h"
#include "render.h"
#include "report.h"
#include "reports.h"
#include "transform.h"

/* Query string + profile -> answer (see answer-query.h). */

/* The flame chart on a time axis (report-chart.c). */
extern const struct report_entry report_chart_entry;

static int	answer_needs_times(const struct query *);
static int	answer_funcs_only(const struct query *);
static const struct profile *answer_range(const struct profile *,
		    const struct query *, int, int, struct cost *,
		    const struct profile_index *, struct profile **,
		    struct report_error *);
static int	answer_query_check(void *);
static void	answer_render_error(struct report_error *,
		    const struct cost *);
static const struct profile *answer_narrow(const struct profile *,
		    const char *, int64_t, int64_t, int, struct cost *,
		    struct report_error *);

/*
 * Does the report draw time, or read the sample sequence (the timeline,
 * the heat map, the flame chart, the exports in time order)? A profile
 * derived for it (range=, transforms) then keeps its timeline.
 */
static int
answer_needs_times(const struct query *q)
{
	return (q->cmd == CMD_TIMELINE || q->cmd == CMD_HEATMAP ||
	    q->cmd == CMD_DUMP || q->cmd == CMD_SPEEDSCOPE ||
	    (q->cmd == CMD_FLAME && q->style == QUERY_STYLE_CHART) ||
	    (q->cmd == CMD_FOLDED && q->order == QUERY_ORDER_TIME));
}

/*
 * Does the report read only the functions' figures and the totals of
 * the profile it is given (cmd=top of one profile, no transforms)? A
 * range of it then makes no tree (range_apply_funcs()).
 */
static int
answer_funcs_only(const struct query *q)
{
	struct transform_stack	*ts;
	char			*cause = NULL;
	int			 status, none;

	if (q->cmd != CMD_TOP || *q->base != '\0' ||
	    query_range_set(q->base_range))
		return (0);
	ts = transform_parse(q, &status, &cause);
	none = ts != NULL && ts->n == 0;
	transform_stack_free(ts);
	free(cause);
	return (none);
}

/*
 * range= and thread= (base: base_range=, with thread=) of p: p itself
 * when the query has none, else the derived profile, also left in
 * *own for the caller to free. NULL with *e on failure. ix: the
 * caller's index, whose sums serve when it is p's.
 */
static const struct profile *
answer_range(const struct profile *p, const struct query *q, int base,
    int times, struct cost *budget, const struct profile_index *ix,
    struct profile **own, struct report_error *e)
{
	struct range	 r;
	char		*cause = NULL;
	int		 status = 0;

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
	if (!base && !times && answer_funcs_only(q))
		*own = range_apply_funcs(p, &r, ix != NULL &&
		    profile_index_profile(ix) == p ? profile_index_sums(ix) :
		    NULL, budget, &status, &cause);
	if (*own == NULL && status == 0)
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

/*
 * A view narrowed by the query's select=, from_time= and to_time= (or
 * base_select=... from key on): the view's, kept by it; p itself when
 * none is set; NULL with the error (400 for a profile that is not a
 * view or a bad selector, 503 when ClickHouse does not answer in time).
 */
static const struct profile *
answer_narrow(const struct profile *p, const char *select, int64_t from,
    int64_t to, int base, struct cost *budget, struct report_error *e)
{
	const struct profile	*np;
	char			*cause = NULL;
	int			 status = 500;

	if (*select == '\0' && from == 0 && to == 0)
		return (p);
	if ((np = reader_view_select(p, select, from, to, budget, &status,
	    &cause)) == NULL)
		report_error_set(e, status, "%s%s", base ? "base=: " : "",
		    cause ? cause : "out of memory");
	free(cause);
	return (np);
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
		a = answer_error(answer_guess_format(qs), status, cause,
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
	const struct renderer		*r = NULL;
	const struct profile		*use = p, *view;
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
	const struct catalog_report	*cr = &catalog_reports[q->cmd];
	const struct catalog_format	*cf;
	const char			*format;
	struct query			 own;
	char				*cause = NULL, *brtext = NULL;
	int				 status, estimated, page;

	if (rc.origin == NULL)
		rc.origin = p;
	/*
	 * No format= and a report that has no page (the exports): its own
	 * format, the first it lists (cmd=folded is a folded file).
	 */
	if (!query_key_isset(q, QUERY_FORMAT) &&
	    !catalog_report_answers(q->cmd, FMT_HTML)) {
		own = *q;
		own.format = catalog_report_format(q->cmd);
		q = &own;
	}
	cf = &catalog_formats[q->format];
	format = cf->name;

	/* One budget for the whole query: transforms and report alike. */
	cost_init(&budget, rc.max_cost, rc.max_msec);
	cost_watch(&budget, rc.gone, rc.gone_arg);
	rc.cost = &budget;
	if ((entry = reports_find(q->cmd)) == NULL) {
		report_error_set(&e, 400, "report %s is not available",
		    cr->name);
		goto fail;
	}
	if (!catalog_report_answers(q->cmd, q->format) ||
	    (cf->kind == CATALOG_EXPORT ? entry->export == NULL :
	    (r = render_find(q->format)) == NULL)) {
		report_error_set(&e, 400, "format %s is not available for "
		    "cmd=%s (available: %s)", format, cr->name, cr->formats);
		goto fail;
	}
	page = cf->kind == CATALOG_PAGE;
	if (*q->base == '\0' && (*q->base_select != '\0' ||
	    q->base_from_time != 0 || q->base_to_time != 0)) {
		report_error_set(&e, 400, "base_select=, base_from_time= and "
		    "base_to_time= narrow the base= view: name it");
		goto fail;
	}
	/* A view narrowed by the query (reader-view.c): the one seen. */
	if ((view = answer_narrow(p, q->select, q->from_time, q->to_time, 0,
	    &budget, &e)) == NULL)
		goto fail;
	use = view;
	/*
	 * range= and thread=: the samples of a time range and of threads,
	 * a profile of their own before anything else (range.h).
	 */
	if ((use = answer_range(view, q, 0, answer_needs_times(q), &budget,
	    rc.index, &ranged, &e)) == NULL)
		goto fail;
	/*
	 * base=: merge before the transforms, so that they apply to both
	 * sides alike (the merged profile keeps this profile's ids). With
	 * base_range= alone, the base is another range of this recording.
	 */
	if (*q->base != '\0' || query_range_set(q->base_range)) {
		bp = view;
		if (*q->base != '\0' && ctx->base_load == NULL) {
			report_error_set(&e, 400, "base= is not available "
			    "here");
			goto fail;
		}
		if (*q->base != '\0' && (bp = ctx->base_load(ctx->base_arg,
		    q->base, &status, &cause)) == NULL) {
			report_error_set(&e, status, "base=%s: %s", q->base,
			    cause ? cause : "out of memory");
			goto fail;
		}
		if (*q->base != '\0' && (bp = answer_narrow(bp,
		    q->base_select, q->base_from_time, q->base_to_time, 1,
		    &budget, &e)) == NULL)
			goto fail;
		if ((bp = answer_range(bp, q, 1, 0, &budget, NULL, &branged,
		    &e)) == NULL)
			goto fail;
		if ((merged = diff_merge(use, bp, q->metric,
		    &status, &cause)) == NULL) {
			report_error_set(&e, status, "base=%s: %s", q->base,
			    cause ? cause : "out of memory");
			goto fail;
		}
		rc.base = bp;
		/* base_range= alone: the base is named by its range. */
		if (*q->base == '\0' && (brtext = query_key_text(q,
		    QUERY_BASE_RANGE)) == NULL) {
			report_error_set(&e, 500, "out of memory");
			goto fail;
		}
		rc.base_name = *q->base != '\0' ? q->base : brtext;
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
	/* An export is the whole profile: never a bounded inversion. */
	ts->exact = entry->export != NULL;
	/* Whether the answer rests on a call graph's estimated tree. */
	estimated = funcgraph_estimate(use, (cr->flags & CATALOG_TREE) != 0,
	    ts->n > 0);
	ts->times = answer_needs_times(q);
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
	if (q->cmd == CMD_FLAME && use->timeline != NULL &&
	    q->style == QUERY_STYLE_CHART && (q->format == FMT_HTML ||
	    q->format == FMT_JSON))
		entry = &report_chart_entry;
	/* An export's own format: the report writes the body (report.h). */
	if (r == NULL)
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
	 * an export's JSON form) or the page (html, text, and svg, which
	 * draws the flame graph's result that its page carries). A time
	 * view's page draws from its JSON (page_json): the page gets it too.
	 */
	if ((res = reports_create(entry, use, q, &rc, &e)) == NULL)
		goto fail;
	reports_notes_init(&notes, use, q, rc.base_name, ts, estimated);
	if ((!page || entry->page_json) &&
	    (j = reports_json(entry, res, &notes, q)) == NULL) {
		report_error_set(&e, 500, "out of memory");
		goto fail;
	}
	/* The JSON holds all it needs: the result's memory back first. */
	if (!page) {
		reports_free(entry, res);
		res = NULL;
	}
	if (page && ((d = reports_display(entry, res, &notes,
	    q)) == NULL || display_failed(d))) {
		report_error_set(&e, 500, "out of memory");
		goto fail;
	}
body:
	if ((a = calloc(1, sizeof *a)) == NULL)
		goto fail;
	a->status = 200;
	a->content_type = cf->content_type;
	outbuf_init(&ob);
	outbuf_check(&ob, answer_query_check, &budget);
	outbuf_max(&ob, rc.max_body);
	if ((r != NULL ? r->render(&ob, j, d, &ctx->render) :
	    entry->export(&ob, use, q, &rc, &e)) == -1) {
		if (e.status == 0 && outbuf_too_large(&ob))
			report_error_too_large(&e, rc.max_body);
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
	a = answer_error(q->format, e.status ? e.status : 500, e.message,
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
	free(brtext);
	transform_stack_free(ts);
	return (a);
}
