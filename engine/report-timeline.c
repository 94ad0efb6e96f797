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
#include "idmap.h"
#include "profile.h"
#include "query.h"
#include "report.h"
#include "strpool.h"
#include "timeline.h"
#include "timeline-view.h"

/*
 * cmd=timeline: the threads over time. The window (range=, else the
 * whole recording) is cut into buckets, as many as the page is wide at
 * TIMELINE_PX pixels each; each of the busiest threads is a lane with
 * its activity per bucket (the activity metric, timeline-view.h: time
 * busy for spans, samples or weight for samples) and, per bucket, its
 * heaviest category: the module of the samples' leaf functions (a V8
 * script, a DSO, a trace event's category), or the function's name for
 * V8's "(idle)", "(program)" and "(garbage collector)". The window's
 * top functions, its instant events and the other threads come with it.
 *
 * One pass over the records in the window. The bound on the work is the
 * records (charged to the budget), and on the answer the lanes, buckets
 * and markers kept: a page of the same size whatever the recording's
 * length.
 */

#define TIMELINE_PX		5	/* pixels a bucket */
#define TIMELINE_MAX_BUCKETS	2000
#define TIMELINE_LANES		16	/* lanes drawn */
#define TIMELINE_SLOTS		32	/* categories told apart */
#define TIMELINE_CATS		8	/* categories named and coloured */
#define TIMELINE_MARKS		200
#define TIMELINE_TOP		15
#define TIMELINE_OTHERS		50	/* other threads listed */
#define TIMELINE_CHARGE		4096

struct timeline_result {
	struct timeline_view	 v;
	uint32_t		 nb;		/* buckets */
	double			 bw;		/* clock units a bucket */
	uint32_t		 nlanes;
	int64_t			*val;		/* [nlanes][nb] */
	int64_t			*slotval;	/* [nlanes][nb][SLOTS + 1] */
	uint32_t		 nslots;
	uint32_t		 slot_str[TIMELINE_SLOTS]; /* string ids */
	int64_t			 slot_total[TIMELINE_SLOTS + 1];
	uint32_t		 cats[TIMELINE_CATS];	/* slots, heaviest */
	uint32_t		 ncats;
	uint32_t		 mark0, mark1;	/* marks in the window */
	uint32_t		 top[TIMELINE_TOP];
	uint32_t		 ntop;
};

static void	*tlr_create(const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
static json_t	*tlr_json(const void *, const struct query *);
static struct display *tlr_display(const void *,
		    const struct report_notes *, const struct query *);
static void	 tlr_free(void *);
static uint32_t	tlr_category(const struct profile *, uint32_t);
static int	tlr_fill(struct timeline_result *, struct idmap *,
		    const int32_t *, struct cost *);
static int	tlr_cats(struct timeline_result *);
static void	tlr_top(struct timeline_result *);
static int	tlr_bucket_cat(const struct timeline_result *,
		    uint32_t, uint32_t);

const struct report_entry report_timeline_entry = {
	.create = tlr_create,
	.json = tlr_json,
	.display = tlr_display,
	.free = tlr_free,
	.page_json = 1,
};

/*
 * A leaf node's category, a string id: its function's module, or for a
 * function without one whose name is in parentheses ("(idle)"), that
 * name; 0 ("") for the rest.
 */
static uint32_t
tlr_category(const struct profile *p, uint32_t node)
{
	uint32_t	 f = p->node_func[node];

	if (p->func_module[f] != 0)
		return (p->func_module[f]);
	if (*profile_func_name(p, f) == '(')
		return (p->func_name[f]);
	return (0);
}

/*
 * The pass: each lane's activity per bucket and per category slot (the
 * first TIMELINE_SLOTS categories seen; the rest share the last slot).
 * lane[] maps a thread to its lane, -1 if not drawn.
 */
static int
tlr_fill(struct timeline_result *t, struct idmap *slots,
    const int32_t *lane, struct cost *cost)
{
	const struct timeline_view	*v = &t->v;
	struct timeline_iter		 it;
	struct timeline_rec		 r;
	uint64_t			 seen = 0;
	uint32_t			 s, c, b0, b1, b;
	int64_t				 x, lo, hi;
	int32_t				 l;

	timeline_seek(&it, v->tl, v->a);
	while (timeline_next(&it, &r) && r.t < v->e) {
		if (++seen % TIMELINE_CHARGE == 0 &&
		    cost_charge(cost, TIMELINE_CHARGE) == -1)
			return (-1);
		if ((x = timeline_view_value(v, &r, v->a, v->e)) == 0)
			continue;
		c = tlr_category(v->p, r.node);
		if ((s = idmap_get(slots, c)) == IDMAP_NONE) {
			s = t->nslots < TIMELINE_SLOTS ? t->nslots++ :
			    TIMELINE_SLOTS;
			if (s < TIMELINE_SLOTS) {
				t->slot_str[s] = c;
				if (idmap_put(slots, c, s) == -1)
					return (-1);
			}
		}
		t->slot_total[s] += x;
		if ((l = lane[r.thread]) < 0)
			continue;
		/* A span spreads over the buckets it covers. */
		lo = r.t > v->a ? r.t : v->a;
		b0 = (uint32_t)((double)(lo - v->a) / t->bw);
		b1 = b0;
		if (v->mode == TIMELINE_SPAN && r.d > 0) {
			hi = r.t + r.d < v->e ? r.t + r.d : v->e;
			b1 = (uint32_t)((double)(hi - 1 - v->a) / t->bw);
		}
		if (b0 >= t->nb)
			b0 = t->nb - 1;
		if (b1 >= t->nb)
			b1 = t->nb - 1;
		for (b = b0; b <= b1; b++) {
			if (b0 != b1)
				x = timeline_overlap(&r, v->a +
				    (int64_t)(b * t->bw), b + 1 == t->nb ?
				    v->e : v->a + (int64_t)((b + 1) * t->bw));
			t->val[(size_t)l * t->nb + b] += x;
			t->slotval[((size_t)l * t->nb + b) *
			    (TIMELINE_SLOTS + 1) + s] += x;
		}
	}
	return (0);
}

/* The categories named: the heaviest slots, most first. */
static int
tlr_cats(struct timeline_result *t)
{
	uint32_t	 s, k, best;
	uint8_t		 used[TIMELINE_SLOTS + 1];

	memset(used, 0, sizeof used);
	for (k = 0; k < TIMELINE_CATS; k++) {
		best = UINT32_MAX;
		for (s = 0; s < t->nslots; s++) {
			if (!used[s] && t->slot_total[s] > 0 &&
			    (best == UINT32_MAX ||
			    t->slot_total[s] > t->slot_total[best]))
				best = s;
		}
		if (best == UINT32_MAX)
			break;
		used[best] = 1;
		t->cats[t->ncats++] = best;
	}
	return (0);
}

/*
 * The category of lane l's bucket b: the index in cats of its heaviest
 * slot, ncats ("other") when that one is not named, -1 when empty.
 */
static int
tlr_bucket_cat(const struct timeline_result *t, uint32_t l, uint32_t b)
{
	const int64_t	*sv = &t->slotval[((size_t)l * t->nb + b) *
			    (TIMELINE_SLOTS + 1)];
	uint32_t	 s, best = UINT32_MAX, k;

	for (s = 0; s <= TIMELINE_SLOTS; s++) {
		if (sv[s] > 0 && (best == UINT32_MAX || sv[s] > sv[best]))
			best = s;
	}
	if (best == UINT32_MAX)
		return (-1);
	for (k = 0; k < t->ncats; k++) {
		if (t->cats[k] == best)
			return ((int)k);
	}
	return ((int)t->ncats);
}

/* The window's top functions by self value of the activity metric. */
static void
tlr_top(struct timeline_result *t)
{
	const struct profile	*p = t->v.p;
	const int64_t		*self = p->metrics[t->v.m].func_self;
	uint32_t		 f, k, j;

	for (f = 1; f < p->nfuncs; f++) {
		if (self[f] <= 0)
			continue;
		for (k = t->ntop; k > 0 && self[t->top[k - 1]] < self[f]; k--)
			;
		if (k >= TIMELINE_TOP)
			continue;
		j = t->ntop < TIMELINE_TOP ? t->ntop++ : TIMELINE_TOP - 1;
		for (; j > k; j--)
			t->top[j] = t->top[j - 1];
		t->top[k] = f;
	}
}

static void *
tlr_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	struct timeline_result	*t;
	struct idmap		 slots;
	int32_t			*lane = NULL;
	uint32_t		 i;
	int64_t			 width = q->width;

	idmap_init(&slots);
	if ((t = calloc(1, sizeof *t)) == NULL) {
		report_error_set(e, 500, "out of memory");
		return (NULL);
	}
	if (timeline_view_init(&t->v, p, q, ctx->cost, e) == -1)
		goto fail;
	t->nb = (uint32_t)(width / TIMELINE_PX);
	if (t->nb > TIMELINE_MAX_BUCKETS)
		t->nb = TIMELINE_MAX_BUCKETS;
	if (t->nb < 10)
		t->nb = 10;
	/* Never finer than the clock. */
	if ((int64_t)t->nb > t->v.e - t->v.a)
		t->nb = (uint32_t)(t->v.e - t->v.a);
	t->bw = (double)(t->v.e - t->v.a) / t->nb;
	t->nlanes = t->v.nactive < TIMELINE_LANES ? t->v.nactive :
	    TIMELINE_LANES;
	if ((lane = malloc(t->v.tl->nthreads * sizeof *lane)) == NULL ||
	    (t->val = calloc((size_t)(t->nlanes ? t->nlanes : 1) * t->nb,
	    sizeof *t->val)) == NULL ||
	    (t->slotval = calloc((size_t)(t->nlanes ? t->nlanes : 1) * t->nb *
	    (TIMELINE_SLOTS + 1), sizeof *t->slotval)) == NULL)
		goto nomem;
	memset(lane, 0xff, t->v.tl->nthreads * sizeof *lane);
	for (i = 0; i < t->nlanes; i++)
		lane[t->v.order[i]] = (int32_t)i;
	if (tlr_fill(t, &slots, lane, ctx->cost) == -1) {
		if (cost_over(ctx->cost))
			report_error_cost(e, ctx->cost);
		else
			report_error_set(e, 500, "out of memory");
		goto fail;
	}
	tlr_cats(t);
	tlr_top(t);
	/* The markers in the window, by time. */
	for (i = 0; i < t->v.tl->nmarks && t->v.tl->marks[i].t < t->v.a; i++)
		;
	t->mark0 = t->mark1 = i;
	while (t->mark1 < t->v.tl->nmarks && t->v.tl->marks[t->mark1].t <
	    t->v.e && t->mark1 - t->mark0 < TIMELINE_MARKS)
		t->mark1++;
	free(lane);
	idmap_clear(&slots);
	return (t);
nomem:
	report_error_set(e, 500, "out of memory");
fail:
	free(lane);
	idmap_clear(&slots);
	tlr_free(t);
	return (NULL);
}

static void
tlr_free(void *v)
{
	struct timeline_result	*t = v;

	if (t == NULL)
		return;
	timeline_view_clear(&t->v);
	free(t->val);
	free(t->slotval);
	free(t);
}

/* A lane's thread as JSON: its label, name, ids and activity. */
static json_t *
tlr_thread_json(const struct timeline_result *t, uint32_t th)
{
	const struct timeline	*tl = t->v.tl;
	const struct profile	*p = t->v.p;
	char			*label;
	json_t			*o;

	if ((label = timeline_thread_label(tl, p->strings, th)) == NULL)
		return (NULL);
	o = json_pack("{s:I, s:s, s:s, s:s, s:I, s:I, s:I}", "thread",
	    (json_int_t)th, "label", label, "name", profile_string(p,
	    tl->threads[th].name), "process", profile_string(p,
	    tl->threads[th].process), "pid", (json_int_t)tl->threads[th].pid,
	    "tid", (json_int_t)tl->threads[th].tid, "total",
	    (json_int_t)t->v.total[th]);
	free(label);
	return (o);
}

/*
 * cmd=timeline as JSON: the window and its buckets ("bucket" seconds
 * each), the categories, a lane per thread drawn ("values" and
 * "category" per bucket, an index in "categories", -1 where idle,
 * "other" past them), the other threads, the markers and the top
 * functions.
 */
static json_t *
tlr_json(const void *v, const struct query *q)
{
	const struct timeline_result	*t = v;
	const struct timeline		*tl = t->v.tl;
	const struct profile		*p = t->v.p;
	json_t				*j, *a, *o, *vals, *cats;
	uint32_t			 i, b, th;
	int				 c;

	if ((j = report_new(CMD_TIMELINE)) == NULL ||
	    timeline_view_json(j, &t->v) == -1)
		goto fail;
	if (json_object_set_new(j, "buckets", json_integer(t->nb)) == -1 ||
	    json_object_set_new(j, "bucket", json_real(tl->rate > 0 ?
	    t->bw / tl->rate : t->bw)) == -1 || (a = json_array()) == NULL ||
	    json_object_set_new(j, "categories", a) == -1)
		goto fail;
	for (i = 0; i < t->ncats; i++) {
		const char	*name = profile_string(p,
				    t->slot_str[t->cats[i]]);

		if (json_array_append_new(a, json_pack("{s:s, s:I}", "name",
		    *name ? name : "(other)", "total",
		    (json_int_t)t->slot_total[t->cats[i]])) == -1)
			goto fail;
	}
	if ((a = json_array()) == NULL ||
	    json_object_set_new(j, "threads", a) == -1)
		goto fail;
	for (i = 0; i < t->nlanes; i++) {
		if ((o = tlr_thread_json(t, t->v.order[i])) == NULL ||
		    json_array_append_new(a, o) == -1 ||
		    (vals = json_array()) == NULL ||
		    json_object_set_new(o, "values", vals) == -1 ||
		    (cats = json_array()) == NULL ||
		    json_object_set_new(o, "category", cats) == -1)
			goto fail;
		for (b = 0; b < t->nb; b++) {
			c = tlr_bucket_cat(t, i, b);
			if (json_array_append_new(vals, json_integer(
			    t->val[(size_t)i * t->nb + b])) == -1 ||
			    json_array_append_new(cats, json_integer(c)) == -1)
				goto fail;
		}
	}
	if ((a = json_array()) == NULL ||
	    json_object_set_new(j, "other_threads", a) == -1)
		goto fail;
	for (i = t->nlanes; i < t->v.nactive && i < t->nlanes +
	    TIMELINE_OTHERS; i++) {
		th = t->v.order[i];
		if ((o = tlr_thread_json(t, th)) == NULL ||
		    json_array_append_new(a, o) == -1)
			goto fail;
	}
	if (json_object_set_new(j, "threads_active",
	    json_integer(t->v.nactive)) == -1 ||
	    json_object_set_new(j, "threads_recorded",
	    json_integer(tl->nthreads)) == -1 || (a = json_array()) == NULL ||
	    json_object_set_new(j, "marks", a) == -1)
		goto fail;
	for (i = t->mark0; i < t->mark1; i++) {
		if (json_array_append_new(a, json_pack("[f, I, s]",
		    timeline_seconds(tl, tl->marks[i].t),
		    (json_int_t)tl->marks[i].thread, profile_string(p,
		    tl->marks[i].name))) == -1)
			goto fail;
	}
	if ((a = json_array()) == NULL ||
	    json_object_set_new(j, "top", a) == -1)
		goto fail;
	for (i = 0; i < t->ntop; i++) {
		if ((o = report_func(p, t->top[i])) == NULL ||
		    json_array_append_new(a, o) == -1 ||
		    json_object_set_new(o, "self", json_integer(
		    p->metrics[t->v.m].func_self[t->top[i]])) == -1 ||
		    json_object_set_new(o, "total", json_integer(
		    p->metrics[t->v.m].func_total[t->top[i]])) == -1)
			goto fail;
	}
	if (json_object_set_new(j, "width", json_integer(q->width)) == -1)
		goto fail;
	return (j);
fail:
	json_decref(j);
	return (NULL);
}

/* A link to the timeline of another window [a, e), clamped to the recording. */
static char *
tlr_window_link(const struct timeline_result *t, const struct query *q,
    int64_t a, int64_t e)
{
	const struct timeline	*tl = t->v.tl;
	struct query		 w;

	if (a < tl->start)
		a = tl->start;
	if (e > tl->end + 1)
		e = tl->end + 1;
	report_view(&w, q, CMD_TIMELINE);
	query_key_reset(&w, QUERY_RANGE);
	if (a <= tl->start && e >= tl->end + 1)
		return (query_format(&w));
	if (e <= a)
		return (NULL);
	timeline_view_range(w.range, tl, a, e);
	return (query_format(&w));
}

static void
tlr_link(struct display *d, struct display_block *b, const char *text,
    char *link)
{
	if (link != NULL)
		display_link(d, b, text, link);
	free(link);
}

/* cmd=timeline's page: the window, the lanes (drawn from the JSON), the top. */
static struct display *
tlr_display(const void *v, const struct report_notes *notes,
    const struct query *q)
{
	const struct timeline_result	*t = v;
	const struct timeline		*tl = t->v.tl;
	const struct profile		*p = t->v.p;
	struct display			*d;
	struct display_block		*b;
	struct query			 cv;
	int64_t				 w = t->v.e - t->v.a, sum;
	char				*s0, *s1, *all, *link, *num, *pct;
	char				*label;
	size_t				 r;
	uint32_t			 i;

	(void)notes;
	if ((d = display_create("Timeline")) == NULL)
		return (NULL);
	s0 = display_seconds(timeline_seconds(tl, t->v.a));
	s1 = display_seconds(timeline_seconds(tl, t->v.e));
	all = display_seconds(timeline_seconds(tl, tl->end));
	if (tl->rate > 0)
		display_text(d, "From %s to %s of a recording of %s; %u of %u "
		    "thread%s active in it, the %u busiest drawn. Drag across "
		    "the lanes, or pick a bucket on the ruler, to narrow the "
		    "window: every report follows it.", s0 ? s0 : "?",
		    s1 ? s1 : "?", all ? all : "?", t->v.nactive,
		    tl->nthreads, tl->nthreads == 1 ? "" : "s", t->nlanes);
	else
		display_text(d, "Ticks %lld to %lld of %lld (this clock's "
		    "rate is unknown); %u of %u thread%s active.",
		    (long long)(t->v.a - tl->start), (long long)(t->v.e -
		    tl->start), (long long)(tl->end - tl->start), t->v.nactive,
		    tl->nthreads, tl->nthreads == 1 ? "" : "s");
	free(s0);
	free(s1);
	free(all);
	b = display_links(d);
	tlr_link(d, b, "Whole recording", tlr_window_link(t, q,
	    tl->start, tl->end + 1));
	if (t->v.a > tl->start || t->v.e <= tl->end)
		tlr_link(d, b, "Zoom out", tlr_window_link(t, q,
		    t->v.a - w, t->v.e + w));
	tlr_link(d, b, "Earlier", t->v.a > tl->start ?
	    tlr_window_link(t, q, t->v.a - w / 2, t->v.e - w / 2) : NULL);
	tlr_link(d, b, "Later", t->v.e <= tl->end ?
	    tlr_window_link(t, q, t->v.a + w / 2, t->v.e + w / 2) : NULL);
	if (tl->rate > 0)
		tlr_link(d, b, "Heat map", report_cmd_link(q, CMD_HEATMAP));
	report_view(&cv, q, CMD_FLAME);
	cv.style = QUERY_STYLE_CHART;
	tlr_link(d, b, "Flame chart", query_format(&cv));
	tlr_link(d, b, "Top functions", report_cmd_link(q, CMD_TOP));
	tlr_link(d, b, "Call tree", report_cmd_link(q, CMD_TREE));
	display_timeline(d);

	display_heading(d, "Top functions in this window");
	sum = p->metrics[t->v.m].sum;
	b = display_table(d, 3, "top");
	display_head(d, b, 0, "Function", NULL, 0);
	display_head(d, b, 1, p->metrics[t->v.m].name, NULL, DISPLAY_NUM);
	display_head(d, b, 2, "%", NULL, DISPLAY_NUM);
	for (i = 0; i < t->ntop; i++) {
		r = display_row(d, b);
		label = report_func_label(p, t->top[i]);
		link = report_func_link(q, t->top[i]);
		display_cell(d, b, r, 0, label ? label : "?", link, 0);
		free(label);
		free(link);
		num = display_number(p->metrics[t->v.m].func_self[t->top[i]]);
		display_cell(d, b, r, 1, num ? num : "?", NULL, DISPLAY_NUM);
		free(num);
		pct = display_percent(p->metrics[t->v.m].func_self[t->top[i]],
		    sum);
		display_cell(d, b, r, 2, pct ? pct : "?", NULL, DISPLAY_NUM);
		free(pct);
	}
	if (t->v.nactive > t->nlanes) {
		display_heading(d, "Other threads");
		b = display_links(d);
		for (i = t->nlanes; i < t->v.nactive && i < t->nlanes +
		    TIMELINE_OTHERS; i++) {
			label = timeline_thread_label(tl, p->strings,
			    t->v.order[i]);
			/* Its lane alone: thread= is this one only. */
			report_view(&cv, q, CMD_TIMELINE);
			cv.thread = label;
			if (label != NULL)
				tlr_link(d, b, label, query_format(&cv));
			free(label);
		}
	}
	return (d);
}
