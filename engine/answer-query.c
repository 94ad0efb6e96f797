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

/*
 * What answering one query holds, freed by answer_run_clear(): the
 * report and its renderer, the profiles derived for the query, the
 * report's result and what the renderer takes of it, and the error
 * that ends it.
 */
struct answer_run {
	const struct report_entry	*entry;
	const struct renderer		*r;	/* NULL: an export's own */
	const struct profile		*use;	/* the profile reported on */
	struct report_context		 rc;
	struct cost			 budget;
	struct report_error		 e;
	struct transform_stack		*ts;
	struct profile			*derived, *merged;
	struct profile			*ranged, *branged;
	struct profile_index		*index;
	void				*res;
	json_t				*j;
	struct display			*d;
	char				*cause, *brtext;
	int				 estimated;
};

static int	answer_needs_times(const struct query *);
static int	answer_run_pick(struct answer_run *, const struct query *,
		    const struct catalog_format *);
static int	answer_run_base(struct answer_run *, const struct query *,
		    const struct profile *, const struct answer_context *);
static int	answer_run_transform(struct answer_run *,
		    const struct query *);
static int	answer_run_result(struct answer_run *, const struct profile *,
		    const struct query *, int);
static struct answer *answer_run_body(struct answer_run *,
		    const struct query *, const struct catalog_format *,
		    const struct answer_context *);
static void	answer_run_clear(struct answer_run *);
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
 * The report and the renderer of q (an export, its own writer: ar->r
 * stays NULL), refused with *ar->e when the catalog lists either as not
 * available here, or when base_select= and the like come without base=.
 */
static int
answer_run_pick(struct answer_run *ar, const struct query *q,
    const struct catalog_format *cf)
{
	const struct catalog_report	*cr = &catalog_reports[q->cmd];

	if ((ar->entry = reports_find(q->cmd)) == NULL) {
		report_error_set(&ar->e, 400, "report %s is not available",
		    cr->name);
		return (-1);
	}
	if (!catalog_report_answers(q->cmd, q->format) ||
	    (cf->kind == CATALOG_EXPORT ? ar->entry->export == NULL :
	    (ar->r = render_find(q->format)) == NULL)) {
		report_error_set(&ar->e, 400, "format %s is not available for "
		    "cmd=%s (available: %s)", cf->name, cr->name, cr->formats);
		return (-1);
	}
	if (*q->base == '\0' && (*q->base_select != '\0' ||
	    q->base_from_time != 0 || q->base_to_time != 0)) {
		report_error_set(&ar->e, 400, "base_select=, base_from_time= "
		    "and base_to_time= narrow the base= view: name it");
		return (-1);
	}
	return (0);
}

/*
 * base= (or base_range= alone, another range of this recording, view):
 * load, narrow and range the base, and merge it with ar->use before the
 * transforms, so that they apply to both sides alike (the merged
 * profile keeps this profile's ids). -1 with ar->e on failure.
 */
static int
answer_run_base(struct answer_run *ar, const struct query *q,
    const struct profile *view, const struct answer_context *ctx)
{
	const struct profile	*bp = view;
	int			 status;

	if (*q->base != '\0' && ctx->base_load == NULL) {
		report_error_set(&ar->e, 400, "base= is not available here");
		return (-1);
	}
	if (*q->base != '\0' && (bp = ctx->base_load(ctx->base_arg,
	    q->base, &status, &ar->cause)) == NULL) {
		report_error_set(&ar->e, status, "base=%s: %s", q->base,
		    ar->cause ? ar->cause : "out of memory");
		return (-1);
	}
	if (*q->base != '\0' && (bp = answer_narrow(bp, q->base_select,
	    q->base_from_time, q->base_to_time, 1, &ar->budget,
	    &ar->e)) == NULL)
		return (-1);
	if ((bp = answer_range(bp, q, 1, 0, &ar->budget, NULL, &ar->branged,
	    &ar->e)) == NULL)
		return (-1);
	if ((ar->merged = diff_merge(ar->use, bp, q->metric,
	    &status, &ar->cause)) == NULL) {
		report_error_set(&ar->e, status, "base=%s: %s", q->base,
		    ar->cause ? ar->cause : "out of memory");
		return (-1);
	}
	ar->rc.base = bp;
	/* base_range= alone: the base is named by its range. */
	if (*q->base == '\0' && (ar->brtext = query_key_text(q,
	    QUERY_BASE_RANGE)) == NULL) {
		report_error_set(&ar->e, 500, "out of memory");
		return (-1);
	}
	ar->rc.base_name = *q->base != '\0' ? q->base : ar->brtext;
	ar->use = ar->merged;
	return (0);
}

/*
 * The one place transforms and filters apply: every report sees the
 * derived profile, and every answer shows the stack. Also whether the
 * answer rests on a call graph's estimated tree, and which report draws
 * a flame chart. -1 with ar->e on failure.
 */
static int
answer_run_transform(struct answer_run *ar, const struct query *q)
{
	const struct catalog_report	*cr = &catalog_reports[q->cmd];
	int				 status;

	if ((ar->ts = transform_parse(q, &status, &ar->cause)) == NULL) {
		report_error_set(&ar->e, status, "%s", ar->cause ? ar->cause :
		    "out of memory");
		return (-1);
	}
	/* An export is the whole profile: never a bounded inversion. */
	ar->ts->exact = ar->entry->export != NULL;
	ar->estimated = funcgraph_estimate(ar->use,
	    (cr->flags & CATALOG_TREE) != 0, ar->ts->n > 0);
	ar->ts->times = answer_needs_times(q);
	if (ar->ts->n > 0) {
		if ((ar->derived = transform_apply(ar->use, ar->ts,
		    &ar->budget, &status, &ar->cause)) == NULL) {
			report_error_set(&ar->e, status, "%s", ar->cause ?
			    ar->cause : "out of memory");
			return (-1);
		}
		ar->use = ar->derived;
	}
	/*
	 * A flame chart of a profile that records times is drawn on its
	 * time axis, a lane per thread (report-chart.c); its page and JSON
	 * only: format=svg keeps the sample sequence's chart.
	 */
	if (q->cmd == CMD_FLAME && ar->use->timeline != NULL &&
	    q->style == QUERY_STYLE_CHART && (q->format == FMT_HTML ||
	    q->format == FMT_JSON))
		ar->entry = &report_chart_entry;
	return (0);
}

/*
 * One result, then what the renderer takes: the JSON (format=json, an
 * export's JSON form) or the page (html, text, and svg, which draws the
 * flame graph's result that its page carries). A time view's page draws
 * from its JSON (page_json): the page gets it too. p: the profile
 * queried, whose index the caller may have. -1 with ar->e on failure.
 */
static int
answer_run_result(struct answer_run *ar, const struct profile *p,
    const struct query *q, int page)
{
	struct report_notes	 notes;

	/*
	 * The reports' derived data: the caller's index of its profile, or
	 * one for this query alone when the profile is derived from it.
	 */
	if (ar->use != p || ar->rc.index == NULL) {
		if ((ar->index = profile_index_create(ar->use)) == NULL) {
			report_error_set(&ar->e, 500, "out of memory");
			return (-1);
		}
		ar->rc.index = ar->index;
	}
	if ((ar->res = reports_create(ar->entry, ar->use, q, &ar->rc,
	    &ar->e)) == NULL)
		return (-1);
	reports_notes_init(&notes, ar->use, q, ar->rc.base_name, ar->ts,
	    ar->estimated);
	if ((!page || ar->entry->page_json) &&
	    (ar->j = reports_json(ar->entry, ar->res, &notes, q)) == NULL) {
		report_error_set(&ar->e, 500, "out of memory");
		return (-1);
	}
	/* The JSON holds all it needs: the result's memory back first. */
	if (!page) {
		reports_free(ar->entry, ar->res);
		ar->res = NULL;
	}
	if (page && ((ar->d = reports_display(ar->entry, ar->res, &notes,
	    q)) == NULL || display_failed(ar->d))) {
		report_error_set(&ar->e, 500, "out of memory");
		return (-1);
	}
	return (0);
}

/*
 * The answer: the renderer's body of the JSON or page, or the export's
 * own. NULL with ar->e (or no status: out of memory) on failure.
 */
static struct answer *
answer_run_body(struct answer_run *ar, const struct query *q,
    const struct catalog_format *cf, const struct answer_context *ctx)
{
	struct answer	*a;
	struct outbuf	 ob;

	if ((a = calloc(1, sizeof *a)) == NULL)
		return (NULL);
	a->status = 200;
	a->content_type = cf->content_type;
	outbuf_init(&ob);
	outbuf_check(&ob, answer_query_check, &ar->budget);
	outbuf_max(&ob, ar->rc.max_body);
	if ((ar->r != NULL ? ar->r->render(&ob, ar->j, ar->d, &ctx->render) :
	    ar->entry->export(&ob, ar->use, q, &ar->rc, &ar->e)) == -1) {
		if (ar->e.status == 0 && outbuf_too_large(&ob))
			report_error_too_large(&ar->e, ar->rc.max_body);
		outbuf_clear(&ob);
		answer_free(a);
		if (ar->e.status == 0)
			answer_render_error(&ar->e, &ar->budget);
		return (NULL);
	}
	if ((a->body = outbuf_take(&ob, &a->len)) == NULL) {
		answer_free(a);
		answer_render_error(&ar->e, &ar->budget);
		return (NULL);
	}
	return (a);
}

/* Free what answering a query held (struct answer_run). */
static void
answer_run_clear(struct answer_run *ar)
{
	free(ar->cause);
	free(ar->e.message);
	display_free(ar->d);
	json_decref(ar->j);
	if (ar->entry != NULL)
		reports_free(ar->entry, ar->res);
	profile_index_free(ar->index);
	profile_free(ar->derived);
	profile_free(ar->merged);
	profile_free(ar->ranged);
	profile_free(ar->branged);
	free(ar->brtext);
	transform_stack_free(ar->ts);
}

/*
 * Answer a query already parsed (the server parses it once, for its
 * answer cache's key too). NULL only if out of memory.
 */
struct answer *
answer_query_parsed(const struct profile *p, const struct query *q,
    const struct answer_context *ctx)
{
	struct answer_run		 ar;
	const struct catalog_format	*cf;
	const struct profile		*view;
	struct query			 own;
	struct answer			*a;

	memset(&ar, 0, sizeof ar);
	ar.use = p;
	ar.rc = ctx->report;
	if (ar.rc.origin == NULL)
		ar.rc.origin = p;
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

	/* One budget for the whole query: transforms and report alike. */
	cost_init(&ar.budget, ar.rc.max_cost, ar.rc.max_msec);
	cost_watch(&ar.budget, ar.rc.gone, ar.rc.gone_arg);
	ar.rc.cost = &ar.budget;
	if (answer_run_pick(&ar, q, cf) == -1)
		goto fail;
	/* A view narrowed by the query (reader-view.c): the one seen. */
	if ((view = answer_narrow(p, q->select, q->from_time, q->to_time, 0,
	    &ar.budget, &ar.e)) == NULL)
		goto fail;
	/*
	 * range= and thread=: the samples of a time range and of threads,
	 * a profile of their own before anything else (range.h).
	 */
	if ((ar.use = answer_range(view, q, 0, answer_needs_times(q),
	    &ar.budget, ar.rc.index, &ar.ranged, &ar.e)) == NULL)
		goto fail;
	if ((*q->base != '\0' || query_range_set(q->base_range)) &&
	    answer_run_base(&ar, q, view, ctx) == -1)
		goto fail;
	if (answer_run_transform(&ar, q) == -1)
		goto fail;
	/* An export's own format: the report writes the body (report.h). */
	if (ar.r != NULL &&
	    answer_run_result(&ar, p, q, cf->kind == CATALOG_PAGE) == -1)
		goto fail;
	if ((a = answer_run_body(&ar, q, cf, ctx)) != NULL)
		goto done;
fail:
	a = answer_error(q->format, ar.e.status ? ar.e.status : 500,
	    ar.e.message, &ctx->render);
done:
	answer_run_clear(&ar);
	return (a);
}
