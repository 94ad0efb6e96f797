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
#include "display.h"
#include "json-build.h"
#include "profile.h"
#include "query.h"
#include "report.h"
#include "timeline.h"
#include "timeline-view.h"

/*
 * The flame chart on a time axis: cmd=flame&style=chart of a profile
 * that records times (answer-query.c picks this report then; the flame
 * graph's own chart, report-flame.c, lays the sample sequence end to
 * end for the others and for format=svg). x is time in the window
 * (range=, else the whole recording), and gaps stay gaps; each of the
 * busiest threads is a lane, its root (the thread, or the program's
 * outermost function) at the top.
 *
 * A lane's records become spans: a span record its own (cut to the
 * window), an instant sample the time until the thread's next sample,
 * at most CHART_GAP times the thread's mean interval in the window (a
 * sampler's silence is idle time, not the last sample's). Walking the
 * spans in time order keeps each depth's open frame; a frame closes
 * when the next span's stack leaves it or a gap comes. Frames narrower
 * than minwidth pixels (at least a pixel) are dropped, and past
 * CHART_MAX_FRAMES the narrowest: a zoom (range=) brings them back,
 * drawn wider. So a page stays a few hundred KB at most.
 */

#define CHART_LANES		8
/*
 * About 150 bytes and 7 DOM nodes each in a page: 1,300 keep the page
 * within the flame page's budget of 10,000 nodes (tests/browser/flame.mjs).
 */
#define CHART_MAX_FRAMES	1300
#define CHART_MIN_PX		1.0	/* a frame narrower is not drawn */
#define CHART_GAP		2
#define CHART_CHARGE		4096

struct chart_frame {
	uint32_t	 lane;
	uint32_t	 depth;
	uint32_t	 func;
	int64_t		 x, w;		/* clock units */
};

/* A lane being walked. */
struct chart_lane {
	uint32_t	 thread;
	uint64_t	 count;
	int64_t		 first, last;	/* sample times, for the interval */
	int64_t		 gap;		/* the longest an instant lasts */
	/* The pending instant: drawn once the next sample says how long. */
	int		 pending;
	int64_t		 pt;
	uint32_t	 pnode;
	/* The open frames, per depth. */
	uint32_t	*open;
	int64_t		*start;
	uint32_t	 nopen, cap;
	int64_t		 end;		/* of the last span */
	uint32_t	 maxdepth;
};

struct chart_result {
	struct timeline_view	 v;
	struct chart_lane	 lanes[CHART_LANES];
	uint32_t		 nlanes;
	struct chart_frame	*f;
	size_t			 n, cap;
	double			 minunits;	/* minwidth in clock units */
	uint32_t		 maxdepth;	/* maxdepth= */
	uint32_t		*anc;		/* [depth] scratch */
	size_t			 ancap;
	int			 failed;
};

static void	*chart_create(const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
static json_t	*chart_json(const void *, const struct query *);
static struct display *chart_display(const void *,
		    const struct report_notes *, const struct query *);
static void	 chart_free(void *);
static void	chart_close(struct chart_result *, struct chart_lane *,
		    uint32_t, uint32_t, int64_t);
static void	chart_span(struct chart_result *, struct chart_lane *,
		    uint32_t, int64_t, int64_t);
static int	chart_walk(struct chart_result *, const int32_t *,
		    struct cost *);
static void	chart_budget(struct chart_result *);

/*
 * Not a row of the catalog: the code of the flame row's page and JSON
 * for style=chart on a profile that records times (answer-query.c
 * picks it), so cmd= keeps one name for both flame charts.
 */
const struct report_entry report_chart_entry = {
	.create = chart_create,
	.json = chart_json,
	.display = chart_display,
	.free = chart_free,
	.page_json = 1,
};

/* Close lane l's frames from depth d up, at time t; keep the wide ones. */
static void
chart_close(struct chart_result *c, struct chart_lane *l, uint32_t li,
    uint32_t d, int64_t t)
{
	struct chart_frame	*nf;
	int64_t			 w;

	while (l->nopen > d) {
		l->nopen--;
		w = t - l->start[l->nopen];
		if (w <= 0 || (double)w < c->minunits || l->nopen == 0)
			continue;
		if (c->n == c->cap) {
			size_t	 cap = c->cap ? c->cap * 2 : 1024;

			if ((nf = reallocarray(c->f, cap, sizeof *nf)) ==
			    NULL) {
				c->failed = 1;
				return;
			}
			c->f = nf;
			c->cap = cap;
		}
		nf = &c->f[c->n++];
		nf->lane = li;
		nf->depth = l->nopen - 1;
		nf->func = c->v.p->node_func[l->open[l->nopen]];
		nf->x = l->start[l->nopen];
		nf->w = w;
		if (nf->depth > l->maxdepth)
			l->maxdepth = nf->depth;
	}
}

/* A span [t, t + w) of lane l at call node n. */
static void
chart_span(struct chart_result *c, struct chart_lane *l, uint32_t n,
    int64_t t, int64_t w)
{
	const struct profile	*p = c->v.p;
	uint32_t		 depth, d, common, li = (uint32_t)(l - c->lanes);
	uint32_t		*no;
	int64_t			*ns;

	if (w <= 0 || c->failed)
		return;
	while (c->maxdepth != 0 && p->node_depth[n] > c->maxdepth)
		n = p->node_parent[n];
	depth = p->node_depth[n];
	if ((size_t)depth + 1 > c->ancap || (size_t)depth + 1 > l->cap) {
		size_t	 cap = ((size_t)depth + 1) * 2;

		if ((no = reallocarray(c->anc, cap, sizeof *no)) == NULL) {
			c->failed = 1;
			return;
		}
		c->anc = no;
		c->ancap = cap;
		if ((no = reallocarray(l->open, cap, sizeof *no)) == NULL ||
		    (l->open = no, (ns = reallocarray(l->start, cap,
		    sizeof *ns)) == NULL)) {
			c->failed = 1;
			return;
		}
		l->start = ns;
		l->cap = (uint32_t)cap;
	}
	for (d = depth;; n = p->node_parent[n], d--) {
		c->anc[d] = n;
		if (d == 0)
			break;
	}
	/* A gap closes everything; else what the stack leaves. */
	common = 0;
	if (l->nopen > 0 && t <= l->end) {
		common = 1;
		while (common < l->nopen && common <= depth &&
		    l->open[common] == c->anc[common])
			common++;
	}
	chart_close(c, l, li, common, l->nopen > 0 && t > l->end ? l->end : t);
	for (; l->nopen <= depth; l->nopen++) {
		l->open[l->nopen] = c->anc[l->nopen];
		l->start[l->nopen] = t;
	}
	l->end = t + w;
}

/*
 * The walk: every record of a lane's thread in the window, as spans.
 * lane[] maps a thread to its lane, -1 if not drawn.
 */
static int
chart_walk(struct chart_result *c, const int32_t *lane, struct cost *cost)
{
	const struct timeline_view	*v = &c->v;
	struct timeline_iter		 it;
	struct timeline_rec		 r;
	struct chart_lane		*l;
	uint64_t			 seen = 0;
	uint32_t			 i;
	int64_t				 lo, w;

	/* The mean interval of each lane's samples, for instants. */
	timeline_seek(&it, v->tl, v->a);
	while (timeline_next(&it, &r) && r.t < v->e) {
		if (++seen % CHART_CHARGE == 0 &&
		    cost_charge(cost, CHART_CHARGE) == -1)
			return (-1);
		if (lane[r.thread] < 0 || r.d != 0)
			continue;
		l = &c->lanes[lane[r.thread]];
		if (l->count++ == 0)
			l->first = r.t;
		l->last = r.t;
	}
	for (i = 0; i < c->nlanes; i++) {
		l = &c->lanes[i];
		l->gap = l->count > 1 ? CHART_GAP * ((l->last - l->first) /
		    (int64_t)(l->count - 1)) : (v->e - v->a) / 100;
		if (l->gap < 1)
			l->gap = 1;
	}
	timeline_seek(&it, v->tl, v->a);
	while (timeline_next(&it, &r) && r.t < v->e && !c->failed) {
		if (++seen % CHART_CHARGE == 0 &&
		    cost_charge(cost, CHART_CHARGE) == -1)
			return (-1);
		if (lane[r.thread] < 0)
			continue;
		l = &c->lanes[lane[r.thread]];
		if (l->pending) {
			w = r.t - l->pt < l->gap ? r.t - l->pt : l->gap;
			chart_span(c, l, l->pnode, l->pt, w);
			l->pending = 0;
		}
		if (r.d > 0) {
			lo = r.t > v->a ? r.t : v->a;
			chart_span(c, l, r.node, lo, timeline_overlap(&r, v->a,
			    v->e));
			continue;
		}
		l->pending = 1;
		l->pt = r.t;
		l->pnode = r.node;
	}
	for (i = 0; i < c->nlanes; i++) {
		l = &c->lanes[i];
		if (l->pending) {
			w = v->e - l->pt < l->gap ? v->e - l->pt : l->gap;
			chart_span(c, l, l->pnode, l->pt, w);
		}
		chart_close(c, l, i, 0, l->end);
	}
	return (c->failed ? -1 : 0);
}

static int
chart_width_cmp(const void *a, const void *b)
{
	int64_t	 x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x < y ? 1 : x > y ? -1 : 0);
}

/* Over budget: keep the widest frames (a parent is never narrower). */
static void
chart_budget(struct chart_result *c)
{
	int64_t		*w, thr;
	size_t		 i, k;

	if (c->n <= CHART_MAX_FRAMES ||
	    (w = malloc(c->n * sizeof *w)) == NULL)
		return;
	for (i = 0; i < c->n; i++)
		w[i] = c->f[i].w;
	qsort(w, c->n, sizeof *w, chart_width_cmp);
	thr = w[CHART_MAX_FRAMES - 1];
	free(w);
	for (i = 0, k = 0; i < c->n && k < CHART_MAX_FRAMES; i++) {
		if (c->f[i].w > thr || (c->f[i].w == thr && k <
		    CHART_MAX_FRAMES))
			c->f[k++] = c->f[i];
	}
	c->n = k;
	for (i = 0; i < c->nlanes; i++)
		c->lanes[i].maxdepth = 0;
	for (i = 0; i < c->n; i++) {
		if (c->f[i].depth > c->lanes[c->f[i].lane].maxdepth)
			c->lanes[c->f[i].lane].maxdepth = c->f[i].depth;
	}
}

static void *
chart_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	struct chart_result	*c;
	int32_t			*lane = NULL;
	uint32_t		 i;
	double			 width = (double)q->width;

	if ((c = calloc(1, sizeof *c)) == NULL) {
		report_error_set(e, 500, "out of memory");
		return (NULL);
	}
	if (timeline_view_init(&c->v, p, q, ctx->cost, e) == -1)
		goto fail;
	c->maxdepth = (uint32_t)q->maxdepth;
	c->minunits = (q->minwidth > CHART_MIN_PX ? q->minwidth :
	    CHART_MIN_PX) *
	    (double)(c->v.e - c->v.a) / width;
	c->nlanes = c->v.nactive < CHART_LANES ? c->v.nactive : CHART_LANES;
	if ((lane = malloc(c->v.tl->nthreads * sizeof *lane)) == NULL)
		goto nomem;
	memset(lane, 0xff, c->v.tl->nthreads * sizeof *lane);
	for (i = 0; i < c->nlanes; i++) {
		c->lanes[i].thread = c->v.order[i];
		lane[c->v.order[i]] = (int32_t)i;
	}
	if (chart_walk(c, lane, ctx->cost) == -1) {
		if (cost_over(ctx->cost))
			report_error_cost(e, ctx->cost);
		else
			report_error_set(e, 500, "out of memory");
		goto fail;
	}
	chart_budget(c);
	free(lane);
	return (c);
nomem:
	report_error_set(e, 500, "out of memory");
fail:
	free(lane);
	chart_free(c);
	return (NULL);
}

static void
chart_free(void *v)
{
	struct chart_result	*c = v;
	uint32_t		 i;

	if (c == NULL)
		return;
	for (i = 0; i < CHART_LANES; i++) {
		free(c->lanes[i].open);
		free(c->lanes[i].start);
	}
	timeline_view_clear(&c->v);
	free(c->f);
	free(c->anc);
	free(c);
}

/*
 * The chart as JSON: "lanes", each a thread with its frames [depth,
 * start, width, func] (seconds from the recording's start, depth 0 the
 * lane's root), and "funcs", each function drawn by id.
 */
static json_t *
chart_json(const void *v, const struct query *q)
{
	const struct chart_result	*c = v;
	const struct timeline		*tl = c->v.tl;
	const struct profile		*p = c->v.p;
	json_t				*j, *lanes, *lane, *frames, *funcs;
	char				 key[16], *label;
	double				 k = tl->rate > 0 ? tl->rate : 1;
	size_t				 i;
	uint32_t			 li;
	struct json_build		 jb = JSON_BUILD_INIT;

	if ((j = report_new(CMD_FLAME)) == NULL ||
	    json_object_set_new(j, "style", json_string("chart")) == -1 ||
	    timeline_view_json(j, &c->v) == -1 ||
	    (lanes = json_array()) == NULL ||
	    json_object_set_new(j, "lanes", lanes) == -1 ||
	    (funcs = json_object()) == NULL ||
	    json_object_set_new(j, "funcs", funcs) == -1)
		goto fail;
	for (li = 0; li < c->nlanes; li++) {
		label = timeline_thread_label(tl, p->strings,
		    c->lanes[li].thread);
		lane = json_pack("{s:I, s:s, s:i}", "thread",
		    (json_int_t)c->lanes[li].thread, "label", label ? label :
		    "?", "depth", (int)c->lanes[li].maxdepth);
		free(label);
		if (lane == NULL || json_array_append_new(lanes, lane) == -1 ||
		    (frames = json_array()) == NULL ||
		    json_object_set_new(lane, "frames", frames) == -1)
			goto fail;
		for (i = 0; i < c->n; i++) {
			if (c->f[i].lane != li)
				continue;
			if (json_array_append_new(frames, json_pack(
			    "[i, f, f, I]", (int)c->f[i].depth,
			    (double)(c->f[i].x - tl->start) / k,
			    (double)c->f[i].w / k,
			    (json_int_t)c->f[i].func)) == -1)
				goto fail;
			snprintf(key, sizeof key, "%u", c->f[i].func);
			if (json_object_get(funcs, key) == NULL &&
			    json_object_set_new(funcs, key, json_pack(
			    "{s:s, s:s}", "name", profile_func_name(p,
			    c->f[i].func), "module", profile_func_module(p,
			    c->f[i].func))) == -1)
				goto fail;
		}
	}
	json_build_set(&jb, j, "width", json_integer(q->width));
	return (json_build_end(&jb, j));
fail:
	json_decref(j);
	return (NULL);
}

static void
chart_link(struct display *d, struct display_block *b, const char *text,
    char *link)
{
	if (link != NULL)
		display_link(d, b, text, link);
	free(link);
}

/* The chart's page. */
static struct display *
chart_display(const void *v, const struct report_notes *notes,
    const struct query *q)
{
	const struct chart_result	*c = v;
	struct display			*d;
	struct display_block		*b;
	struct query			 w;
	char				*s0, *s1;

	(void)notes;
	if ((d = display_create("Flame chart")) == NULL)
		return (NULL);
	s0 = display_seconds(timeline_seconds(c->v.tl, c->v.a));
	s1 = display_seconds(timeline_seconds(c->v.tl, c->v.e));
	display_text(d, "From %s to %s, a lane per thread (the %u busiest), "
	    "the root at the top; gaps are time no sample was taken. Drag "
	    "across it to zoom in: narrow frames come back.", s0 ? s0 : "?",
	    s1 ? s1 : "?", c->nlanes);
	free(s0);
	free(s1);
	b = display_links(d);
	chart_link(d, b, "Timeline", report_cmd_link(q, CMD_TIMELINE));
	report_view(&w, q, CMD_FLAME);
	if (query_range_set(q->range)) {
		query_key_reset(&w, QUERY_RANGE);
		chart_link(d, b, "Whole recording", query_format(&w));
		w.range[0] = q->range[0];
		w.range[1] = q->range[1];
	}
	w.style = QUERY_STYLE_FLAME;
	chart_link(d, b, "Flame graph", query_format(&w));
	display_timeline(d);
	return (d);
}
