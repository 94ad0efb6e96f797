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

#include "cost.h"
#include "profile.h"
#include "query.h"
#include "report.h"
#include "timeline.h"
#include "timeline-view.h"

/* The window, metric and threads of the reports that draw time. */

#define TIMELINE_VIEW_CHARGE	4096

static const struct timeline_view *timeline_view_sort;

static int
timeline_view_cmp(const void *x, const void *y)
{
	uint32_t	 a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	int64_t		 ta = timeline_view_sort->total[a];
	int64_t		 tb = timeline_view_sort->total[b];

	if (ta != tb)
		return (ta > tb ? -1 : 1);
	return (a < b ? -1 : a > b);
}

/*
 * The view of p for a query: NULL's error (400) when p records no
 * times, 503 when the budget runs out. 0, or -1 with *e set.
 */
int
timeline_view_init(struct timeline_view *v, const struct profile *p,
    const struct query *q, struct cost *cost, struct report_error *e)
{
	const struct timeline	*tl = p->timeline;
	struct timeline_iter	 it;
	struct timeline_rec	 r;
	uint32_t		 i, k;
	int64_t			 x;

	memset(v, 0, sizeof *v);
	v->p = p;
	v->tl = tl;
	if (tl == NULL)
		return (report_error_set(e, 400, "cmd=%s: this profile (%s) "
		    "records no times (deepq-formats(5) says which formats "
		    "do)", catalog_reports[q->cmd].name, p->format));
	if ((v->m = report_metric(p, q, e)) == -1)
		return (-1);
	for (k = 0; tl->mode[v->m] == TIMELINE_NONE && k < p->nmetrics &&
	    k < sizeof tl->mode; k++) {
		if (tl->mode[k] != TIMELINE_NONE)
			v->m = (int)k;
	}
	v->mode = tl->mode[v->m] != TIMELINE_NONE ? tl->mode[v->m] :
	    TIMELINE_COUNT;
	v->a = tl->start;
	v->e = tl->end + 1;
	if (query_range_set(q->range)) {
		if ((x = timeline_time(tl, q->range[0])) > v->a)
			v->a = x;
		if ((x = timeline_time(tl, q->range[1])) < v->e)
			v->e = x;
		if (v->e <= v->a)
			v->e = v->a + 1;
	}
	if ((v->total = calloc(tl->nthreads, sizeof *v->total)) == NULL ||
	    (v->order = calloc(tl->nthreads, sizeof *v->order)) == NULL)
		goto nomem;
	timeline_seek(&it, tl, v->a);
	while (timeline_next(&it, &r) && r.t < v->e) {
		if (++v->nrecords % TIMELINE_VIEW_CHARGE == 0 &&
		    cost_charge(cost, TIMELINE_VIEW_CHARGE) == -1)
			return (report_error_cost(e, cost));
		x = timeline_view_value(v, &r, v->a, v->e);
		v->total[r.thread] += x;
		v->sum += x;
	}
	for (i = 0; i < tl->nthreads; i++) {
		if (v->total[i] != 0)
			v->order[v->nactive++] = i;
	}
	timeline_view_sort = v;
	qsort(v->order, v->nactive, sizeof *v->order, timeline_view_cmp);
	return (0);
nomem:
	return (report_error_set(e, 500, "out of memory"));
}

void
timeline_view_clear(struct timeline_view *v)
{
	free(v->total);
	free(v->order);
	v->total = NULL;
	v->order = NULL;
}

/* The activity record r gives within [a, e). */
int64_t
timeline_view_value(const struct timeline_view *v,
    const struct timeline_rec *r, int64_t a, int64_t e)
{
	switch (v->mode) {
	case TIMELINE_SPAN:
		return (timeline_overlap(r, a, e));
	case TIMELINE_WEIGHT:
		return (r->t >= a && r->t < e ? r->w : 0);
	default:
		return (r->t >= a && r->t < e && r->w != 0 ? 1 : 0);
	}
}

/* Clock time t as seconds (or ticks) from the recording's start. */
double
timeline_view_seconds(const struct timeline_view *v, int64_t t)
{
	return (timeline_seconds(v->tl, t));
}

/* "s" where the clock's rate is known, else the clock's own unit. */
const char *
timeline_view_unit(const struct timeline_view *v)
{
	return (v->tl->rate > 0 ? "s" : v->tl->unit);
}

/*
 * The members every time report's JSON has: the clock, the recording's
 * length, the window (in seconds from the start, or in the clock's
 * units when its rate is unknown: "axis" says which) and the activity
 * metric. -1 if out of memory.
 */
int
timeline_view_json(json_t *j, const struct timeline_view *v)
{
	const struct timeline	*tl = v->tl;
	static const char *const modes[] = { "none", "weight", "span",
	    "count" };

	if (json_object_set_new(j, "clock", json_pack("{s:s, s:f}", "unit",
	    tl->unit, "rate", tl->rate)) == -1 ||
	    json_object_set_new(j, "axis", json_string(
	    timeline_view_unit(v))) == -1 ||
	    json_object_set_new(j, "duration", json_real(timeline_seconds(tl,
	    tl->end))) == -1 ||
	    json_object_set_new(j, "view", json_pack("[f, f]",
	    timeline_seconds(tl, v->a), timeline_seconds(tl, v->e))) == -1 ||
	    json_object_set_new(j, "activity", json_pack("{s:s, s:s, s:I}",
	    "metric", v->p->metrics[v->m].name, "mode", modes[v->mode & 3],
	    "total", (json_int_t)v->sum)) == -1)
		return (-1);
	return (0);
}

/* A seconds value as range= takes it: fixed decimals, no exponent. */
static void
timeline_view_number(char *buf, size_t len, double s)
{
	char	*dot, *end;

	if (!(s > 0))
		s = 0;
	snprintf(buf, len, "%.9f", s);
	if ((dot = strchr(buf, '.')) != NULL) {
		for (end = buf + strlen(buf) - 1; end > dot && *end == '0';
		    end--)
			*end = '\0';
		if (end == dot)
			*end = '\0';
	}
}

/*
 * The range= value (A, B) of clock times [a, e) of tl, in r: seconds
 * from the start, or clock units where the rate is unknown, each as its
 * printed form (nanoseconds) reads back, so links stay short.
 */
void
timeline_view_range(double *r, const struct timeline *tl, int64_t a,
    int64_t e)
{
	char	 x[32], y[32];

	timeline_view_number(x, sizeof x, timeline_seconds(tl, a));
	timeline_view_number(y, sizeof y, timeline_seconds(tl, e));
	if (strcmp(x, y) == 0)		/* too narrow to tell apart */
		timeline_view_number(y, sizeof y, timeline_seconds(tl, e) +
		    1e-9);
	r[0] = strtod(x, NULL);
	r[1] = strtod(y, NULL);
}
