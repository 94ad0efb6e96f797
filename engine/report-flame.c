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
#include "cost.h"
#include "diff.h"
#include "display.h"
#include "flame.h"
#include "json-build.h"
#include "profile.h"
#include "query.h"
#include "report.h"

/*
 * cmd=flame: the frames of a flame graph, laid out in the metric's units,
 * a typed result (struct flame_graph, flame.h) that every rendering
 * draws: the JSON here, the SVG file and the page's inline graph in
 * render-svg.c. style=flame and style=icicle merge identical stacks
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
 * The page (format=html) has a budget of its own whatever the profile:
 * at most FLAME_PAGE_FRAMES frames (about four elements each, so under
 * 10,000 DOM nodes), FLAME_PAGE_DEPTH levels and FLAME_PAGE_BYTES of
 * frames, the widest first. What is left out is counted on the frame
 * it stands on (cut), which the page marks: zooming on it asks the
 * server for the subtree, laid out again with the same budget.
 *
 * JSON: "frames" is an array of [depth, x, width, func] (depth 0 is the
 * whole profile; x and width in metric units) in drawing order, parents
 * before children; "funcs" maps each function id used to its name and
 * module.
 */

#define FLAME_MAX_FRAMES	12000
#define FLAME_XPAD		10	/* pixels left and right */
#define FLAME_PAGE_FRAMES	1500
#define FLAME_PAGE_DEPTH	100
#define FLAME_PAGE_BYTES	(768 * 1024)
#define FLAME_FRAME_BYTES	330	/* a frame's markup without names */
#define FLAME_NAME_CAP		400	/* bytes of a name drawn (render-svg.c) */

struct flame {
	const struct profile	*p;
	int			 m;
	uint32_t		 maxdepth;
	double			 minunits;	/* minwidth in metric units */
	struct flame_frame	*v;
	size_t			 n, cap;
	int64_t			 narrow;	/* frames left out, minwidth */
	int			 cmp;		/* a base= comparison */
	struct diff		 dd;
	struct cost		*cost;
};

/*
 * The result: the frames laid out (fl.v[0..fl.n), the kept ones first
 * after the selection), what the renderers draw (g), the width
 * threshold of the frame budget (thr, 0 if none) and the scale from
 * units to pixels.
 */
struct flame_result {
	struct flame		 fl;
	struct flame_graph	 g;
	size_t			 kept, laid;
	int			 chart, page;
	int64_t			 thr, pagecut;
	double			 scale;
	char			*subtitle;
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
static int	flame_chart_parents(struct flame *);
static int	flame_keep_widest(struct flame_result *);
static int	flame_keep_page(struct flame_result *, size_t);
static int	flame_name_cmp(const void *, const void *);
static int	flame_width_cmp(const void *, const void *);
static int	flame_order_cmp(const void *, const void *);
static int	flame_page_cmp(const void *, const void *);

const struct report_entry report_flame_entry = {
	.create = flame_create,
	.json = flame_json,
	.display = flame_display,
	.free = flame_free,
};

static const struct profile	*flame_sort;	/* qsort has no context */
static const struct flame_frame	*flame_psort;

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
	v = &fl->v[fl->n++];
	memset(v, 0, sizeof *v);
	v->depth = depth;
	v->func = func;
	v->x = x;
	v->w = w;
	v->node = v->parent = FLAME_NONE;
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

/*
 * Merged stacks: depth first, siblings by name, without recursion.
 * Each node visited is charged to the query's budget.
 */
static int
flame_tree(struct flame *fl)
{
	const struct profile	*p = fl->p;
	const int64_t		*total = p->metrics[fl->m].total;
	const int64_t		*self = p->metrics[fl->m].self;
	uint32_t		*stack = NULL, *kids = NULL, *up = NULL;
	uint32_t		 n, c, k, nk, me;
	int64_t			*xs = NULL, x;
	struct flame_frame	*f;
	size_t			 sp = 0;
	int			 r = -1;

	if ((stack = malloc(p->nnodes * sizeof *stack)) == NULL ||
	    (kids = malloc(p->nnodes * sizeof *kids)) == NULL ||
	    (up = malloc(p->nnodes * sizeof *up)) == NULL ||
	    (xs = malloc(p->nnodes * sizeof *xs)) == NULL)
		goto done;
	flame_sort = p;
	stack[sp] = PROFILE_ROOT;
	up[sp] = FLAME_NONE;
	xs[sp++] = 0;
	while (sp > 0) {
		sp--;
		n = stack[sp];
		x = xs[sp];
		if (cost_charge(fl->cost, 1) == -1 ||
		    flame_add(fl, p->node_depth[n], p->node_func[n], x,
		    total[n]) == -1)
			goto done;
		me = (uint32_t)(fl->n - 1);
		f = &fl->v[me];
		f->node = n;
		f->parent = up[sp];
		f->self = self[n];
		/* Colour from the change, as difffolded.pl's second pass. */
		if (fl->cmp) {
			f->btotal = diff_base(&fl->dd,
			    p->metrics[fl->dd.bm].total[n]);
			f->bself = diff_base(&fl->dd,
			    p->metrics[fl->dd.bm].self[n]);
			f->delta = total[n] - f->btotal;
		}
		if (fl->maxdepth != 0 && p->node_depth[n] >= fl->maxdepth) {
			f->self = total[n];
			continue;
		}
		nk = 0;
		for (c = p->node_first_child[n]; c != PROFILE_NONE;
		    c = p->node_next_sibling[c]) {
			if (total[c] > 0 && (double)total[c] >= fl->minunits)
				kids[nk++] = c;
			else if (total[c] > 0)
				fl->narrow++;
		}
		if (nk > 1 && cost_charge(fl->cost, nk) == -1)
			goto done;
		qsort(kids, nk, sizeof *kids, flame_name_cmp);
		/* Children start where their parent does, in name order. */
		for (k = 0; k < nk; k++) {
			xs[sp + nk - 1 - k] = x;
			up[sp + nk - 1 - k] = me;
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
	free(up);
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
			if (cost_charge(fl->cost, depth + 1) == -1)
				goto done;
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
		x += profile_sample_weight(p, i);
	}
	r = 0;
done:
	free(open);
	free(start);
	free(anc);
	return (r);
}

/*
 * A chart's frames sorted by depth, then x: each frame's parent is the
 * frame of the depth below that spans its x (one merge walk per
 * depth), and its self value what its children leave of its width.
 */
static int
flame_chart_parents(struct flame *fl)
{
	size_t		 i, lo = 0, hi = 0, j = 0;
	uint32_t	 d = 0;

	if (cost_charge(fl->cost, fl->n) == -1)
		return (-1);
	for (i = 0; i < fl->n; i++) {
		fl->v[i].self = fl->v[i].w;
		if (fl->v[i].depth != d) {
			/* [lo, hi): the frames of depth d, the one below. */
			if (fl->v[i].depth == d + 1) {
				lo = hi;
				hi = i;
			} else
				lo = hi = i;
			d = fl->v[i].depth;
			j = lo;
		}
		while (j < hi && fl->v[j].x + fl->v[j].w <= fl->v[i].x)
			j++;
		if (j < hi && fl->v[j].x <= fl->v[i].x) {
			fl->v[i].parent = (uint32_t)j;
			fl->v[j].self -= fl->v[i].w;
		}
	}
	return (0);
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

/*
 * The page's order of choice: the widest first, then the shallowest
 * (a parent is never narrower than its child, so it always comes
 * first), then the drawing order.
 */
static int
flame_page_cmp(const void *a, const void *b)
{
	const struct flame_frame	*x = &flame_psort[*(const uint32_t *)a];
	const struct flame_frame	*y = &flame_psort[*(const uint32_t *)b];

	if (x->w != y->w)
		return (x->w > y->w ? -1 : 1);
	if (x->depth != y->depth)
		return (x->depth < y->depth ? -1 : 1);
	return (*(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1);
}

/*
 * Over FLAME_MAX_FRAMES (JSON, SVG): keep the widest frames (a parent
 * is never narrower), in drawing order, at the front of fl.v.
 */
static int
flame_keep_widest(struct flame_result *t)
{
	struct flame	*fl = &t->fl;
	int64_t		*widths;
	size_t		 i, kept = 0;
	uint32_t	*map;

	if (fl->n > FLAME_MAX_FRAMES) {
		if ((widths = malloc(fl->n * sizeof *widths)) == NULL)
			return (-1);
		for (i = 0; i < fl->n; i++)
			widths[i] = fl->v[i].w;
		qsort(widths, fl->n, sizeof *widths, flame_width_cmp);
		t->thr = widths[FLAME_MAX_FRAMES];
		free(widths);
	}
	if ((map = malloc((fl->n ? fl->n : 1) * sizeof *map)) == NULL)
		return (-1);
	for (i = 0; i < fl->n; i++) {
		map[i] = FLAME_NONE;
		if (fl->v[i].w > t->thr || (t->thr == 0 && fl->v[i].w >= 0)) {
			map[i] = (uint32_t)kept;
			fl->v[kept] = fl->v[i];
			if (fl->v[kept].parent != FLAME_NONE)
				fl->v[kept].parent =
				    map[fl->v[kept].parent];
			kept++;
		}
	}
	free(map);
	t->kept = kept;
	return (0);
}

/*
 * The page's budget: frames chosen the widest first until
 * FLAME_PAGE_FRAMES or FLAME_PAGE_BYTES (each frame's markup estimated
 * from its names and linkbytes, the length of its link), none deeper
 * than FLAME_PAGE_DEPTH; the rest counted on the kept frame under them.
 */
static int
flame_keep_page(struct flame_result *t, size_t linkbytes)
{
	struct flame		*fl = &t->fl;
	const struct profile	*p = fl->p;
	uint32_t		*order = NULL, *map = NULL, *under = NULL, a;
	size_t			 i, kept = 0, bytes = 0, fb, nl, ml;
	int			 r = -1;

	if ((order = malloc((fl->n ? fl->n : 1) * sizeof *order)) == NULL ||
	    (map = malloc((fl->n ? fl->n : 1) * sizeof *map)) == NULL ||
	    (under = malloc((fl->n ? fl->n : 1) * sizeof *under)) == NULL)
		goto done;
	for (i = 0; i < fl->n; i++) {
		order[i] = (uint32_t)i;
		map[i] = FLAME_NONE;
	}
	if (cost_charge(fl->cost, fl->n) == -1)
		goto done;
	flame_psort = fl->v;
	qsort(order, fl->n, sizeof *order, flame_page_cmp);
	for (i = 0; i < fl->n && kept < FLAME_PAGE_FRAMES; i++) {
		const struct flame_frame *f = &fl->v[order[i]];

		if (f->depth > FLAME_PAGE_DEPTH || (f->parent != FLAME_NONE &&
		    map[f->parent] == FLAME_NONE))
			continue;
		nl = strlen(profile_func_name(p, f->func));
		ml = strlen(profile_func_module(p, f->func));
		/* Escaping may double a name; the title has it, the label. */
		fb = FLAME_FRAME_BYTES + linkbytes +
		    3 * (nl < FLAME_NAME_CAP ? nl : FLAME_NAME_CAP) +
		    2 * (ml < FLAME_NAME_CAP ? ml : FLAME_NAME_CAP);
		if (bytes + fb > FLAME_PAGE_BYTES)
			break;
		bytes += fb;
		map[order[i]] = 0;
		kept++;
	}
	/*
	 * Back to drawing order (parents first), counting each frame left
	 * out on its nearest kept ancestor.
	 */
	kept = 0;
	for (i = 0; i < fl->n; i++) {
		a = fl->v[i].parent;
		if (map[i] == FLAME_NONE) {
			under[i] = a == FLAME_NONE ? FLAME_NONE :
			    map[a] != FLAME_NONE ? map[a] : under[a];
			if (under[i] != FLAME_NONE)
				fl->v[under[i]].cut++;
			t->pagecut++;
			continue;
		}
		map[i] = (uint32_t)kept;
		under[i] = FLAME_NONE;
		fl->v[kept] = fl->v[i];
		fl->v[kept].cut = 0;
		if (a != FLAME_NONE)
			fl->v[kept].parent = map[a];
		kept++;
	}
	t->kept = kept;
	r = 0;
done:
	free(order);
	free(map);
	free(under);
	return (r);
}

static void *
flame_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	struct flame_result	*t;
	struct flame		*fl;
	const char		*style = query_enum_name(QUERY_STYLE,
				    q->style);
	char			*self;
	int64_t			 total;
	double			 scale;
	size_t			 i, linkbytes;
	int			 chart = q->style == QUERY_STYLE_CHART, m;

	if ((m = report_metric(p, q, e)) == -1)
		return (NULL);
	if ((t = calloc(1, sizeof *t)) == NULL)
		goto nomem;
	fl = &t->fl;
	fl->p = p;
	fl->m = m;
	fl->cost = ctx->cost;
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
			total += profile_sample_weight(p, i);
	} else
		total = p->metrics[fl->m].total[PROFILE_ROOT];
	scale = total > 0 ? (q->width - 2.0 * FLAME_XPAD) / (double)total : 0;
	fl->minunits = scale > 0 ? q->minwidth / scale : 0;
	if (total > 0 && (chart ? flame_chart(fl) : flame_tree(fl)) == -1)
		goto costly;
	if (chart) {
		qsort(fl->v, fl->n, sizeof *fl->v, flame_order_cmp);
		if (flame_chart_parents(fl) == -1)
			goto costly;
	}
	t->laid = fl->n;
	/* The page has its budget, the JSON and the SVG file theirs. */
	t->page = q->format == FMT_HTML;
	if (t->page) {
		if ((self = query_format(q)) == NULL)
			goto nomem;
		linkbytes = strlen(self) + 32;
		free(self);
		if (flame_keep_page(t, linkbytes) == -1)
			goto costly;
	} else if (flame_keep_widest(t) == -1)
		goto nomem;
	for (i = 0; i < t->kept; i++) {
		if (fl->v[i].depth > t->g.depth)
			t->g.depth = fl->v[i].depth;
		if (fl->cmp && llabs(fl->v[i].delta) > t->g.maxdelta)
			t->g.maxdelta = llabs(fl->v[i].delta);
	}
	t->chart = chart;
	t->scale = scale;
	if ((t->subtitle = strdup(ctx->name ? ctx->name : "")) == NULL)
		goto nomem;
	t->g.p = p;
	t->g.m = fl->m;
	t->g.v = fl->v;
	t->g.n = t->kept;
	t->g.total = total;
	t->g.width = (int)q->width;
	t->g.compared = fl->cmp;
	t->g.cut = t->pagecut > 0;
	t->g.style = style;
	t->g.palette = query_enum_name(QUERY_PALETTE, q->palette);
	t->g.title = q->title;
	t->g.subtitle = t->subtitle;
	t->g.countname = *q->countname ? q->countname :
	    p->metrics[fl->m].name;
	return (t);
costly:
	if (cost_over(ctx->cost)) {
		report_error_cost(e, ctx->cost);
		goto fail;
	}
nomem:
	report_error_set(e, 500, "out of memory");
fail:
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
 * cmd=flame as JSON (see the top of this file), from the same frames
 * the SVG draws. NULL if out of memory.
 */
static json_t *
flame_json(const void *v, const struct query *q)
{
	const struct flame_result	*t = v;
	const struct flame_graph	*g = &t->g;
	const struct profile		*p = g->p;
	json_t				*j = NULL, *frames, *funcs, *a;
	uint32_t			*seen = NULL;
	char				 key[16];
	size_t				 i;
	struct json_build		 jb = JSON_BUILD_INIT;

	if ((j = report_new(CMD_FLAME)) == NULL ||
	    (frames = json_array()) == NULL ||
	    json_object_set_new(j, "frames", frames) == -1)
		goto nomem;
	if ((funcs = json_object()) == NULL ||
	    json_object_set_new(j, "funcs", funcs) == -1 ||
	    (seen = calloc(p->nfuncs ? p->nfuncs : 1, sizeof *seen)) == NULL)
		goto nomem;
	for (i = 0; i < g->n; i++) {
		a = json_pack("[i, I, I, i]", (json_int_t)g->v[i].depth,
		    (json_int_t)g->v[i].x, (json_int_t)g->v[i].w,
		    (json_int_t)g->v[i].func);
		if (a == NULL || json_array_append_new(frames, a) == -1 ||
		    (g->compared && json_array_append_new(a,
		    json_integer(g->v[i].delta)) == -1))
			goto nomem;
		if (!seen[g->v[i].func]++) {
			snprintf(key, sizeof key, "%u", g->v[i].func);
			if (json_object_set_new(funcs, key, json_pack(
			    "{s:s, s:s}", "name", profile_func_name(p,
			    g->v[i].func), "module", profile_func_module(p,
			    g->v[i].func))) == -1)
				goto nomem;
		}
	}
	json_build_set(&jb, j, "style", json_string(g->style));
	json_build_set(&jb, j, "metric", json_string(p->metrics[g->m].name));
	json_build_set(&jb, j, "unit", json_string(p->metrics[g->m].unit));
	json_build_set(&jb, j, "total", json_integer(g->total));
	json_build_set(&jb, j, "title", json_string(g->title));
	json_build_set(&jb, j, "subtitle", json_string(g->subtitle));
	json_build_set(&jb, j, "countname", json_string(g->countname));
	json_build_set(&jb, j, "palette", json_string(g->palette));
	json_build_set(&jb, j, "width", json_integer(g->width));
	json_build_set(&jb, j, "minwidth", json_real(t->thr > 0 ?
	    (double)t->thr * t->scale : q->minwidth));
	json_build_set(&jb, j, "maxdepth", json_integer(t->fl.maxdepth));
	json_build_set(&jb, j, "depth", json_integer(g->depth));
	json_build_set(&jb, j, "omitted", json_integer((json_int_t)(t->laid -
	    t->kept)));
	if (g->compared)
		json_build_set(&jb, j, "maxdelta", json_integer(g->maxdelta));
	free(seen);
	return (json_build_end(&jb, j));
nomem:
	free(seen);
	json_decref(j);
	return (NULL);
}

/*
 * The page's title: the style, the metric, the comparison and how many
 * transforms. NULL if out of memory.
 */
static char *
flame_title(const struct query *q, const char *metric, int *ntf)
{
	const char	*c;
	char		*title;
	int		 k;

	*ntf = 0;
	for (c = q->t; *c != '\0'; c++)
		*ntf += *c == '~';
	for (k = 0; k < QUERY_NKEYS; k++) {
		if (query_keyinfo(k)->flags & QUERY_KEY_FILTER)
			*ntf += query_key_isset(q, k) != 0;
	}
	if (asprintf(&title, "%s of %s%s%s%s", q->style ==
	    QUERY_STYLE_CHART ? "Flame chart" : q->style ==
	    QUERY_STYLE_ICICLE ? "Icicle graph" : "Flame graph", metric,
	    *q->base ? ", compared with " : "", q->base,
	    *ntf == 0 ? "" : *ntf == 1 ? ", 1 transform" : ", transforms") ==
	    -1)
		return (NULL);
	return (title);
}

/*
 * format=html and svg: the flame graph in the site, with the header, a
 * title that names the metric, the comparison and the transforms, what
 * was left out, links to the other styles, to invert and to the SVG
 * file, and the frames (display_flame: render-svg.c draws them from
 * the result, inline in the page or as the SVG file).
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
	const char		*t = q->t;
	struct query		 view;
	char			*title, *link, *item, *num, *mw;
	int64_t			 narrow = tr->chart ? 0 : fl->narrow;
	int64_t			 omitted = (int64_t)(tr->laid - tr->kept);
	int			 ntf, chartable = p->nsamples > 0 &&
				    fl->m == 0 && !fl->cmp;
	size_t			 i;
	static const struct {
		enum query_style	 style;
		const char		*text;
	} styles[] = {
		{ QUERY_STYLE_FLAME, "flame graph" },
		{ QUERY_STYLE_ICICLE, "icicle graph" },
		{ QUERY_STYLE_CHART, "flame chart (time order)" },
	};

	if ((title = flame_title(q, metric, &ntf)) == NULL ||
	    (d = display_create(title)) == NULL) {
		free(title);
		return (NULL);
	}
	free(title);
	if (q->style != QUERY_STYLE_CHART)
		columns_metrics_profile(d, q, p, fl->m, notes->compared);
	if (notes->compared)
		diff_text(d, p, &notes->diff, notes->base_name);
	if (ntf > 1)
		display_text(d, "%d transforms applied.", ntf);
	num = display_number(tr->g.total);
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
	if (omitted > 0 && tr->page)
		display_text(d, "%lld more frame%s merged into the frames "
		    "under them to keep the page light (at most %d frames, "
		    "%d levels): zoom on a frame marked with a dashed edge "
		    "to see them.", (long long)omitted, omitted == 1 ? "" :
		    "s", FLAME_PAGE_FRAMES, FLAME_PAGE_DEPTH);
	else if (omitted > 0)
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
	display_link(d, l, "SVG file", link);
	free(link);
	if (notes->compared)
		diff_controls(d, q, 0);
	display_flame(d, &tr->g);
	return (d);
}
