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

#include "columns.h"
#include "diff.h"
#include "display.h"
#include "profile.h"
#include "query.h"
#include "report.h"

/*
 * cmd=flame: the frames of a flame graph, laid out in the metric's units,
 * which format=svg draws (render-svg.c) and format=json hands to any
 * other drawer. style=flame and style=icicle merge identical stacks
 * (siblings in name order, as flamegraph.pl sorts them); style=chart
 * keeps the time order of the sample sequence (V8 profiles, event
 * traces), merging only consecutive samples of one stack.
 *
 * The output is bounded: a frame narrower than minwidth pixels (at the
 * requested width) is left out with everything above it, and if more
 * than FLAME_MAX_FRAMES frames remain, only the widest are kept, which
 * raises the effective minwidth (reported). maxdepth cuts stacks as the
 * Tezos profiler's collapse_stack ~max_depth does.
 *
 * JSON: "frames" is an array of [depth, x, width, func] (depth 0 is the
 * whole profile; x and width in metric units) in drawing order, parents
 * before children; "funcs" maps each function id used to its name and
 * module.
 */

#define FLAME_MAX_FRAMES	12000
#define FLAME_XPAD		10	/* pixels left and right */

struct flame_frame {
	uint32_t	 depth;
	uint32_t	 func;
	int64_t		 x, w;
	int64_t		 delta;		/* comparisons: value - base */
};

struct flame {
	const struct profile	*p;
	int			 m;
	uint32_t		 maxdepth;
	double			 minunits;	/* minwidth in metric units */
	struct flame_frame	*v;
	size_t			 n, cap;
	uint32_t		 depth;		/* deepest frame kept */
	int64_t			 narrow;	/* frames left out, minwidth */
	int			 cmp;		/* a base= comparison */
	struct diff		 dd;
};

/*
 * The result: the frames kept (fl.v[0..kept) of fl.n laid out), the
 * x units' total, the width threshold of the frame budget (thr, 0 if
 * none) and the scale from units to pixels.
 */
struct flame_result {
	struct flame	 fl;
	size_t		 kept;
	int		 chart;
	int64_t		 total, thr, maxdelta;
	double		 scale;
	char		*subtitle;
};

static void	*flame_create(const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
static json_t	*flame_json(const void *, const struct query *);
static struct display *flame_display(const void *,
		    const struct report_notes *, const struct query *);
static void	 flame_free(void *);
static int	flame_add(struct flame *, uint32_t, uint32_t, int64_t,
		    int64_t);
static int	flame_tree(struct flame *);
static int	flame_chart(struct flame *);
static int	flame_name_cmp(const void *, const void *);
static int	flame_width_cmp(const void *, const void *);
static int	flame_order_cmp(const void *, const void *);

const struct report_entry report_flame_entry = {
	.create = flame_create,
	.json = flame_json,
	.display = flame_display,
	.free = flame_free,
	.page_json = 1,
};

static const struct profile	*flame_sort;	/* qsort has no context */

static int
flame_add(struct flame *fl, uint32_t depth, uint32_t func, int64_t x,
    int64_t w)
{
	struct flame_frame	*v;
	size_t			 cap;

	if (fl->n == fl->cap) {
		cap = fl->cap ? fl->cap * 2 : 1024;
		if ((v = reallocarray(fl->v, cap, sizeof *v)) == NULL)
			return (-1);
		fl->v = v;
		fl->cap = cap;
	}
	fl->v[fl->n].depth = depth;
	fl->v[fl->n].func = func;
	fl->v[fl->n].x = x;
	fl->v[fl->n].w = w;
	fl->n++;
	if (depth > fl->depth)
		fl->depth = depth;
	return (0);
}

static int
flame_name_cmp(const void *a, const void *b)
{
	uint32_t	 x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int		 c;

	c = strcmp(profile_func_name(flame_sort, flame_sort->node_func[x]),
	    profile_func_name(flame_sort, flame_sort->node_func[y]));
	if (c == 0)
		c = strcmp(profile_func_module(flame_sort,
		    flame_sort->node_func[x]), profile_func_module(flame_sort,
		    flame_sort->node_func[y]));
	return (c);
}

/* Merged stacks: depth first, siblings by name, without recursion. */
static int
flame_tree(struct flame *fl)
{
	const struct profile	*p = fl->p;
	const int64_t		*total = p->metrics[fl->m].total;
	uint32_t		*stack = NULL, *kids = NULL, n, c, k, nk;
	int64_t			*xs = NULL, x;
	size_t			 sp = 0;
	int			 r = -1;

	if ((stack = malloc(p->nnodes * sizeof *stack)) == NULL ||
	    (kids = malloc(p->nnodes * sizeof *kids)) == NULL ||
	    (xs = malloc(p->nnodes * sizeof *xs)) == NULL)
		goto done;
	flame_sort = p;
	stack[sp] = PROFILE_ROOT;
	xs[sp++] = 0;
	while (sp > 0) {
		sp--;
		n = stack[sp];
		x = xs[sp];
		if (flame_add(fl, p->node_depth[n], p->node_func[n], x,
		    total[n]) == -1)
			goto done;
		/* Colour from the change, as difffolded.pl's second pass. */
		if (fl->cmp)
			fl->v[fl->n - 1].delta = total[n] - diff_base(&fl->dd,
			    p->metrics[fl->dd.bm].total[n]);
		if (fl->maxdepth != 0 && p->node_depth[n] >= fl->maxdepth)
			continue;
		nk = 0;
		for (c = p->node_first_child[n]; c != PROFILE_NONE;
		    c = p->node_next_sibling[c]) {
			if (total[c] > 0 && (double)total[c] >= fl->minunits)
				kids[nk++] = c;
			else if (total[c] > 0)
				fl->narrow++;
		}
		qsort(kids, nk, sizeof *kids, flame_name_cmp);
		/* Children start where their parent does, in name order. */
		for (k = 0; k < nk; k++) {
			xs[sp + nk - 1 - k] = x;
			x += total[kids[k]];
		}
		for (k = 0; k < nk; k++)
			stack[sp + nk - 1 - k] = kids[k];
		sp += nk;
	}
	r = 0;
done:
	free(stack);
	free(kids);
	free(xs);
	return (r);
}

/*
 * Time order: walk the samples keeping the frames open at each depth; a
 * frame closes when the next sample's stack leaves it.
 */
static int
flame_chart(struct flame *fl)
{
	const struct profile	*p = fl->p;
	uint32_t		*open = NULL, *anc = NULL, i, n, d, depth, common;
	uint32_t		 nopen = 0, cap = 0;
	int64_t			*start = NULL, x = 0, w;
	int			 r = -1;

	if ((anc = malloc((p->nnodes ? p->nnodes : 1) * sizeof *anc)) == NULL)
		goto done;
	for (i = 0; i <= p->nsamples; i++) {
		depth = 0;
		if (i < p->nsamples) {
			if ((n = p->sample_node[i]) >= p->nnodes)
				continue;
			while (fl->maxdepth != 0 &&
			    p->node_depth[n] > fl->maxdepth)
				n = p->node_parent[n];
			depth = p->node_depth[n];
			for (d = depth; ; n = p->node_parent[n], d--) {
				anc[d] = n;
				if (d == 0)
					break;
			}
		}
		/* Depth 0 (the whole profile) stays open until the end. */
		common = 0;
		if (i < p->nsamples) {
			common = 1;
			while (common < nopen && common <= depth &&
			    open[common] == anc[common])
				common++;
		}
		while (nopen > common) {
			nopen--;
			w = x - start[nopen];
			if ((double)w >= fl->minunits && w > 0 &&
			    flame_add(fl, nopen, p->node_func[open[nopen]],
			    start[nopen], w) == -1)
				goto done;
		}
		if (i == p->nsamples)
			break;
		if (depth + 1 > cap) {
			uint32_t	*no;
			int64_t		*ns;

			cap = (depth + 1) * 2;
			if ((no = reallocarray(open, cap, sizeof *no)) == NULL)
				goto done;
			open = no;
			if ((ns = reallocarray(start, cap, sizeof *ns)) ==
			    NULL)
				goto done;
			start = ns;
		}
		for (; nopen <= depth; nopen++) {
			open[nopen] = anc[nopen];
			start[nopen] = x;
		}
		x += p->sample_weight[i];
	}
	r = 0;
done:
	free(open);
	free(start);
	free(anc);
	return (r);
}

static int
flame_width_cmp(const void *a, const void *b)
{
	int64_t	 x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x < y ? 1 : x > y ? -1 : 0);
}

/* Drawing order for a chart: by depth, then left to right. */
static int
flame_order_cmp(const void *a, const void *b)
{
	const struct flame_frame *x = a, *y = b;

	if (x->depth != y->depth)
		return (x->depth < y->depth ? -1 : 1);
	return (x->x < y->x ? -1 : x->x > y->x);
}

static void *
flame_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	struct flame_result	*t;
	struct flame		*fl;
	int64_t			 total, *widths = NULL, thr = 0;
	double			 scale;
	size_t			 i, kept = 0;
	int			 chart = q->style == QUERY_STYLE_CHART, m;

	if ((m = report_metric(p, q, e)) == -1)
		return (NULL);
	if ((t = calloc(1, sizeof *t)) == NULL)
		goto nomem;
	fl = &t->fl;
	fl->p = p;
	fl->m = m;
	fl->maxdepth = (uint32_t)q->maxdepth;
	fl->cmp = diff_init(&fl->dd, p, q) && fl->dd.m == fl->m;
	if (chart && fl->cmp) {
		report_error_set(e, 400, "style=chart cannot compare (base=)");
		goto fail;
	}
	if (chart) {
		if (p->nsamples == 0) {
			report_error_set(e, 400, "style=chart needs samples in "
			    "time order, and this profile (%s) has none; use "
			    "style=flame", p->format);
			goto fail;
		}
		if (fl->m != 0) {
			report_error_set(e, 400, "style=chart: samples are "
			    "weighted in %s only", p->metrics[0].name);
			goto fail;
		}
		for (total = 0, i = 0; i < p->nsamples; i++)
			total += p->sample_weight[i];
	} else
		total = p->metrics[fl->m].total[PROFILE_ROOT];
	scale = total > 0 ? (q->width - 2.0 * FLAME_XPAD) / (double)total : 0;
	fl->minunits = scale > 0 ? q->minwidth / scale : 0;
	if (total > 0 && (chart ? flame_chart(fl) : flame_tree(fl)) == -1)
		goto nomem;
	if (chart)
		qsort(fl->v, fl->n, sizeof *fl->v, flame_order_cmp);

	/* Over budget: keep the widest frames (a parent is never narrower). */
	if (fl->n > FLAME_MAX_FRAMES) {
		if ((widths = malloc(fl->n * sizeof *widths)) == NULL)
			goto nomem;
		for (i = 0; i < fl->n; i++)
			widths[i] = fl->v[i].w;
		qsort(widths, fl->n, sizeof *widths, flame_width_cmp);
		thr = widths[FLAME_MAX_FRAMES];
	}
	fl->depth = 0;
	for (i = 0; i < fl->n; i++) {
		if (fl->v[i].w > thr || (thr == 0 && fl->v[i].w >= 0)) {
			fl->v[kept++] = fl->v[i];
			if (fl->v[i].depth > fl->depth)
				fl->depth = fl->v[i].depth;
		}
	}
	for (i = 0; fl->cmp && i < kept; i++) {
		if (llabs(fl->v[i].delta) > t->maxdelta)
			t->maxdelta = llabs(fl->v[i].delta);
	}
	t->kept = kept;
	t->chart = chart;
	t->total = total;
	t->thr = thr;
	t->scale = scale;
	if ((t->subtitle = strdup(ctx->name ? ctx->name : "")) == NULL)
		goto nomem;
	free(widths);
	return (t);
nomem:
	report_error_set(e, 500, "out of memory");
fail:
	free(widths);
	flame_free(t);
	return (NULL);
}

static void
flame_free(void *v)
{
	struct flame_result	*t = v;

	if (t == NULL)
		return;
	free(t->fl.v);
	free(t->subtitle);
	free(t);
}

/*
 * cmd=flame as JSON (see the top of this file): what format=svg draws,
 * the HTML page inline too. NULL if out of memory.
 */
static json_t *
flame_json(const void *v, const struct query *q)
{
	const struct flame_result	*t = v;
	const struct flame		*fl = &t->fl;
	const struct profile		*p = fl->p;
	json_t				*j = NULL, *frames, *funcs, *a;
	uint32_t			*seen = NULL;
	char				 key[16];
	size_t				 i, k;

	if ((j = report_new(CMD_FLAME)) == NULL ||
	    (frames = json_array()) == NULL)
		goto nomem;
	json_object_set_new(j, "frames", frames);
	if ((funcs = json_object()) == NULL ||
	    json_object_set_new(j, "funcs", funcs) == -1 ||
	    (seen = calloc(p->nfuncs ? p->nfuncs : 1, sizeof *seen)) == NULL)
		goto nomem;
	for (i = 0; i < t->kept; i++) {
		a = json_pack("[i, I, I, i]", (json_int_t)fl->v[i].depth,
		    (json_int_t)fl->v[i].x, (json_int_t)fl->v[i].w,
		    (json_int_t)fl->v[i].func);
		if (a == NULL || json_array_append_new(frames, a) == -1 ||
		    (fl->cmp && json_array_append_new(a,
		    json_integer(fl->v[i].delta)) == -1))
			goto nomem;
		if (!seen[fl->v[i].func]++) {
			snprintf(key, sizeof key, "%u", fl->v[i].func);
			if (json_object_set_new(funcs, key, json_pack(
			    "{s:s, s:s}", "name", profile_func_name(p,
			    fl->v[i].func), "module", profile_func_module(p,
			    fl->v[i].func))) == -1)
				goto nomem;
		}
	}
	k = json_object_size(j);
	json_object_set_new(j, "style", json_string(query_enum_name(
	    QUERY_STYLE, q->style)));
	json_object_set_new(j, "metric", json_string(p->metrics[fl->m].name));
	json_object_set_new(j, "unit", json_string(p->metrics[fl->m].unit));
	json_object_set_new(j, "total", json_integer(t->total));
	json_object_set_new(j, "title", json_string(q->title));
	json_object_set_new(j, "subtitle", json_string(t->subtitle));
	json_object_set_new(j, "countname", json_string(*q->countname ?
	    q->countname : p->metrics[fl->m].name));
	json_object_set_new(j, "palette", json_string(query_enum_name(
	    QUERY_PALETTE, q->palette)));
	json_object_set_new(j, "width", json_integer(q->width));
	json_object_set_new(j, "minwidth", json_real(t->thr > 0 ?
	    (double)t->thr * t->scale : q->minwidth));
	json_object_set_new(j, "maxdepth", json_integer(fl->maxdepth));
	json_object_set_new(j, "depth", json_integer(fl->depth));
	json_object_set_new(j, "omitted", json_integer((json_int_t)(fl->n -
	    t->kept)));
	if (json_object_size(j) != k + 13 || (fl->cmp &&
	    json_object_set_new(j, "maxdelta", json_integer(t->maxdelta)) ==
	    -1))
		goto nomem;
	free(seen);
	return (j);
nomem:
	free(seen);
	json_decref(j);
	return (NULL);
}

/*
 * format=html: the flame graph in the site, with the header, a title
 * that names the metric, the comparison and the transforms, links to
 * the other styles, to invert and to the SVG file, and the frames
 * inline: render-html.c draws them from the JSON, as format=svg does
 * (render-svg.c's svg_inline(); the entry's page_json).
 */
static struct display *
flame_display(const void *v, const struct report_notes *notes,
    const struct query *q)
{
	const struct flame_result *tr = v;
	const struct flame	*fl = &tr->fl;
	const struct profile	*p = fl->p;
	struct display		*d;
	struct display_block	*l;
	const char		*metric = p->metrics[fl->m].name;
	const char		*t = q->t, *c;
	struct query		 view;
	int			 k;
	char			*title = NULL, *link, *item, *num, *mw;
	int64_t			 narrow = tr->chart ? 0 : fl->narrow;
	int64_t			 omitted = (int64_t)(fl->n - tr->kept);
	int			 ntf = 0, r;
	int			 chartable = p->nsamples > 0 && fl->m == 0 &&
				    !fl->cmp;
	size_t			 i;
	static const struct {
		enum query_style	 style;
		const char		*text;
	} styles[] = {
		{ QUERY_STYLE_FLAME, "flame graph" },
		{ QUERY_STYLE_ICICLE, "icicle graph" },
		{ QUERY_STYLE_CHART, "flame chart (time order)" },
	};

	for (c = t; *c != '\0'; c++)
		ntf += *c == '~';
	for (k = 0; k < QUERY_NKEYS; k++) {
		if (query_keyinfo(k)->flags & QUERY_KEY_FILTER)
			ntf += query_key_isset(q, k);
	}
	r = asprintf(&title, "%s of %s%s%s%s%s", q->style ==
	    QUERY_STYLE_CHART ? "Flame chart" : q->style ==
	    QUERY_STYLE_ICICLE ? "Icicle graph" : "Flame graph", metric,
	    *q->base ? ", compared with " : "", q->base,
	    ntf == 0 ? "" : ntf == 1 ? ", 1 transform" : ", transforms",
	    "");
	if (r == -1 || (d = display_create(title)) == NULL) {
		free(title);
		return (NULL);
	}
	free(title);
	if (q->style != QUERY_STYLE_CHART)
		columns_metrics_profile(d, q, p, fl->m, notes->compared);
	if (ntf > 1)
		display_text(d, "%d transforms applied.", ntf);
	num = display_number(tr->total);
	display_text(d, "%zu frames, %s %s in all.%s", tr->kept,
	    num ? num : "?", metric, narrow > 0 || omitted > 0 ?
	    "" : " Nothing left out.");
	free(num);
	if (narrow > 0) {
		mw = query_key_text(q, QUERY_MINWIDTH);
		display_text(d, "%lld subtree%s narrower than %s px left out: "
		    "zoom on a frame to see what it holds.", (long long)narrow,
		    narrow == 1 ? "" : "s", mw ? mw : "?");
		free(mw);
	}
	if (omitted > 0)
		display_text(d, "%lld more frames left out beyond the %d-frame "
		    "budget.", (long long)omitted, FLAME_MAX_FRAMES);
	l = display_links(d);
	for (i = 0; i < sizeof styles / sizeof styles[0]; i++) {
		if (styles[i].style == q->style ||
		    (styles[i].style == QUERY_STYLE_CHART && !chartable))
			continue;
		view = *q;
		view.style = styles[i].style;
		link = query_format(&view);
		display_link(d, l, styles[i].text, link);
		free(link);
	}
	if (q->style != QUERY_STYLE_CHART && asprintf(&item, "%s~inv",
	    *t ? t : "1") != -1) {
		view = *q;
		view.t = item;
		link = query_format(&view);
		display_link(d, l, "inverted (callers above)", link);
		free(link);
		free(item);
	}
	view = *q;
	view.format = FMT_SVG;
	link = query_format(&view);
	display_link(d, l, "SVG file (zoom and search in the file)", link);
	free(link);
	display_flame(d);
	display_text(d, "A frame opens its function's page; under the "
	    "pointer, the links below zoom on it (the server lays its "
	    "subtree out again at full width), focus on its function or "
	    "merge it away.");
	return (d);
}
