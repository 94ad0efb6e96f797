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
#include <time.h>

#include <jansson.h>

#include "display.h"
#include "profile.h"
#include "query.h"
#include "reader-view.h"
#include "report.h"
#include "selector.h"
#include "view-query.h"

/*
 * cmd=series&func=F&step=SECONDS: how F's share of a view changed over
 * time (deepq-clickhouse(7)). ClickHouse sums, per bucket of step
 * seconds and per metric, all samples of the view, those of stacks
 * holding F (its total: a recursive stack counts once) and those ending
 * in F (its self); the page draws the shares as two lines, with a mark
 * where each value of the label marker= (version) first shows, and
 * links that compare the view before and after each mark.
 */

struct series_result {
	const struct profile	*p;
	uint32_t		 func;
	int			 m;		/* the metric shown */
	struct view_series	*s;
};

static void	*series_create(const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
static json_t	*series_json(const void *, const struct query *);
static struct display *series_display(const void *,
		    const struct report_notes *, const struct query *);
static void	 series_free(void *);

const struct report_entry report_series_entry = {
	.create = series_create,
	.json = series_json,
	.display = series_display,
	.free = series_free,
};

static void *
series_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	struct series_result	*r;
	const char		*marker = *q->marker != '\0' ? q->marker :
				    "version";
	char			*cause = NULL;
	int			 status = 500, m;
	uint32_t		 f;

	if ((m = report_metric(p, q, e)) == -1 ||
	    (f = report_func_find(p, q, e)) == PROFILE_NONE)
		return (NULL);
	if (*marker != '\0' && !selector_key_ok(marker, strlen(marker))) {
		report_error_set(e, 400, "marker=: a label key (letters, "
		    "digits, _ . -)");
		return (NULL);
	}
	if ((r = calloc(1, sizeof *r)) == NULL) {
		report_error_set(e, 500, "out of memory");
		return (NULL);
	}
	r->p = p;
	r->func = f;
	r->m = m;
	if (reader_view_series(p, f, q->step,
	    *marker != '\0' ? marker : NULL, ctx->cost, &r->s, &status,
	    &cause) == -1) {
		report_error_set(e, status, "%s", cause ? cause :
		    "out of memory");
		free(cause);
		free(r);
		return (NULL);
	}
	return (r);
}

static double
series_share(int64_t v, int64_t all)
{
	return (all > 0 ? (double)v / (double)all : 0);
}

static json_t *
series_json(const void *arg, const struct query *q)
{
	const struct series_result	*r = arg;
	const struct view_series	*s = r->s;
	json_t				*o, *a, *b, *self, *total, *values;
	json_t				*mk;
	size_t				 i, k, x;

	(void)q;
	if ((o = report_new(CMD_SERIES)) == NULL)
		return (NULL);
	if (json_object_set_new(o, "func", report_func(r->p, r->func)) ==
	    -1 || json_object_set_new(o, "step", json_integer(s->step)) ==
	    -1 || json_object_set_new(o, "max_buckets",
	    json_integer(VIEW_MAX_BUCKETS)) == -1 ||
	    (s->asked != 0 && json_object_set_new(o, "step_asked",
	    json_integer(s->asked)) == -1) ||
	    json_object_set_new(o, "metrics", a = json_array()) == -1)
		goto fail;
	for (k = 0; k < s->nmetrics; k++)
		if (json_array_append_new(a, json_string(s->metrics[k])) == -1)
			goto fail;
	if (json_object_set_new(o, "buckets", a = json_array()) == -1)
		goto fail;
	for (i = 0; i < s->nbuckets; i++) {
		if ((b = json_pack("{s:I, s:o, s:o, s:o}", "start",
		    (json_int_t)s->start[i], "self", self = json_object(),
		    "total", total = json_object(), "values",
		    values = json_object())) == NULL ||
		    json_array_append_new(a, b) == -1)
			goto fail;
		for (k = 0; k < s->nmetrics; k++) {
			x = i * s->nmetrics + k;
			if (json_object_set_new(self, s->metrics[k],
			    json_real(series_share(s->self[x], s->all[x]))) ==
			    -1 || json_object_set_new(total, s->metrics[k],
			    json_real(series_share(s->total[x], s->all[x]))) ==
			    -1 || json_object_set_new(values, s->metrics[k],
			    json_pack("{s:I, s:I, s:I}", "self",
			    (json_int_t)s->self[x], "total",
			    (json_int_t)s->total[x], "all",
			    (json_int_t)s->all[x])) == -1)
				goto fail;
		}
	}
	if (s->marker != NULL) {
		if (json_object_set_new(o, "marker", json_string(s->marker)) ==
		    -1 || json_object_set_new(o, "markers", a = json_array()) ==
		    -1 || json_object_set_new(o, "markers_truncated",
		    json_boolean(s->mtruncated)) == -1)
			goto fail;
		for (i = 0; i < s->nmarkers; i++) {
			if ((mk = json_pack("{s:I, s:s}", "time",
			    (json_int_t)s->mtime[i], "value",
			    s->mvalue[i])) == NULL ||
			    json_array_append_new(a, mk) == -1)
				goto fail;
		}
	}
	return (o);
fail:
	json_decref(o);
	return (NULL);
}

/* A time as "2026-11-25 10:00" UTC, into buf. */
static void
series_time(char *buf, size_t size, int64_t t)
{
	struct tm	 tm;
	time_t		 tt = (time_t)t;

	if (gmtime_r(&tt, &tm) == NULL ||
	    strftime(buf, size, "%Y-%m-%d %H:%M", &tm) == 0)
		snprintf(buf, size, "@%lld", (long long)t);
}

/*
 * The markers' table: each value's first time, with links comparing the
 * view after it (to the next mark or the end) against before it.
 */
static void
series_markers(struct display *d, const struct series_result *r,
    const struct query *q)
{
	const struct view_series	*s = r->s;
	struct display_block		*t;
	struct query			 v;
	char				 when[32], *link;
	int64_t				 start, end, after, before;
	size_t				 i, row;

	if (s->marker == NULL || s->nmarkers == 0 || s->nbuckets == 0)
		return;
	display_heading(d, "Deploys");
	if (s->mtruncated)
		display_text(d, "More than %d values of %s: the first %d "
		    "shown.", VIEW_MAX_MARKERS, s->marker, VIEW_MAX_MARKERS);
	if ((t = display_table(d, 3, "markers")) == NULL)
		return;
	display_head(d, t, 0, "First seen (UTC)", NULL, 0);
	display_head(d, t, 1, s->marker, NULL, 0);
	display_head(d, t, 2, "Compare", NULL, 0);
	start = s->start[0];
	end = s->start[s->nbuckets - 1] + s->step;
	for (i = 0; i < s->nmarkers; i++) {
		row = display_row(d, t);
		series_time(when, sizeof when, s->mtime[i]);
		display_cell(d, t, row, 0, when, NULL, 0);
		display_cell(d, t, row, 1, s->mvalue[i], NULL, 0);
		/* No bucket before it, or none after: nothing to compare. */
		if (s->mtime[i] - start < s->step || s->mtime[i] >= end)
			continue;
		after = i + 1 < s->nmarkers && s->mtime[i + 1] < end ?
		    s->mtime[i + 1] : end;
		before = i > 0 && s->mtime[i - 1] > start ? s->mtime[i - 1] :
		    start;
		report_view(&v, q, CMD_TOP);
		v.sort = QUERY_SORT_DELTA;
		v.from_time = s->mtime[i];
		v.to_time = after;
		v.base = q->file;
		v.base_select = q->select;
		v.base_from_time = before;
		v.base_to_time = s->mtime[i];
		link = query_format(&v);
		display_cell_take(d, t, row, 2, strdup("after against before"),
		    link, 0);
	}
}

static struct display *
series_display(const void *arg, const struct report_notes *notes,
    const struct query *q)
{
	const struct series_result	*r = arg;
	const struct view_series	*s = r->s;
	struct display			*d;
	struct display_block		*t;
	struct display_chart		*c;
	char				*label, *title = NULL, when[32];
	char				 pct[DISPLAY_NUMBUF];
	size_t				 i, k, x, row;

	(void)notes;
	if ((label = report_func_label(r->p, r->func)) == NULL ||
	    asprintf(&title, "Share over time: %s", label) == -1) {
		free(label);
		return (NULL);
	}
	d = display_create(title);
	free(title);
	if (d == NULL) {
		free(label);
		return (NULL);
	}
	display_self(d, q);
	k = (size_t)r->m;
	display_text(d, "The share of %s's %s in each bucket of %lld s "
	    "across the view: self (stacks ending in it) and total (stacks "
	    "holding it, each once).", label, s->metrics[k], s->step);
	free(label);
	if (s->asked != 0)
		display_text(d, "step=%lld would make more than %d buckets: "
		    "step raised to %lld s.", s->asked, VIEW_MAX_BUCKETS,
		    s->step);
	if (s->nbuckets == 0) {
		display_text(d, "No samples in the view's time range.");
		return (d);
	}
	if ((c = display_chart(d, s->nbuckets, s->nmarkers, "self share",
	    "total share")) != NULL) {
		for (i = 0; i < s->nbuckets; i++) {
			x = i * s->nmetrics + k;
			c->x[i] = s->start[i];
			c->y[0][i] = series_share(s->self[x], s->all[x]);
			c->y[1][i] = series_share(s->total[x], s->all[x]);
		}
		for (i = 0; i < s->nmarkers; i++)
			display_chart_mark(d, c, i, s->mtime[i], s->mvalue[i]);
	}
	series_markers(d, r, q);
	display_heading(d, "Buckets");
	if ((t = display_table(d, 6, "buckets")) == NULL)
		return (d);
	display_head(d, t, 0, "Start (UTC)", NULL, 0);
	display_head(d, t, 1, "Self %", NULL, DISPLAY_NUM);
	display_head(d, t, 2, "Total %", NULL, DISPLAY_NUM);
	display_head(d, t, 3, "Self", NULL, DISPLAY_NUM);
	display_head(d, t, 4, "Total", NULL, DISPLAY_NUM);
	display_head(d, t, 5, "All", NULL, DISPLAY_NUM);
	for (i = 0; i < s->nbuckets; i++) {
		x = i * s->nmetrics + k;
		row = display_row(d, t);
		series_time(when, sizeof when, s->start[i]);
		display_cell(d, t, row, 0, when, NULL, 0);
		(void)display_percent_buf(pct, s->self[x], s->all[x]);
		display_cell(d, t, row, 1, pct, NULL, DISPLAY_NUM);
		(void)display_percent_buf(pct, s->total[x], s->all[x]);
		display_cell(d, t, row, 2, pct, NULL, DISPLAY_NUM);
		display_cell_take(d, t, row, 3, display_number(s->self[x]),
		    NULL, DISPLAY_NUM);
		display_cell_take(d, t, row, 4, display_number(s->total[x]),
		    NULL, DISPLAY_NUM);
		display_cell_take(d, t, row, 5, display_number(s->all[x]),
		    NULL, DISPLAY_NUM);
	}
	return (d);
}

static void
series_free(void *arg)
{
	struct series_result	*r = arg;

	if (r == NULL)
		return;
	view_series_free(r->s);
	free(r);
}
