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

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "display.h"
#include "escape.h"
#include "hash.h"
#include "outbuf.h"
#include "query.h"
#include "render.h"
#include "render-timeline.h"
#include "report.h"

/*
 * The time views in the site's pages, as inline SVG drawn from the
 * report's JSON (as render-svg.c draws the flame graph): the timeline's
 * lanes (cmd=timeline), the heat map (cmd=heatmap) and the flame chart
 * on its time axis (cmd=flame&style=chart, report-chart.c). Each has a
 * ruler of real time with its unit.
 *
 * They work without JavaScript: the ruler's buckets, the heat map's
 * columns and the chart's frames are links that set range= (or open a
 * function). deepq-timeline.js, loaded after them, adds dragging across
 * a view to pick any range: the container's data- attributes give it
 * the window (data-t0, data-t1, seconds), the drawing's width and the
 * link around range= (data-pre, data-post, canonical query strings).
 * Every name from the profile goes through escape_html(); colours are
 * presentation attributes, never style, so the page policy holds.
 */

#define RT_LANE		30	/* pixels of a timeline lane's graph */
#define RT_RULER	30	/* pixels of the ruler */
#define RT_FRAME	16	/* pixels of a chart frame */
#define RT_CHAR		7	/* pixels of a character of a label */

/* Categories' colours; the last is "other", then idle grey. */
static const char *const rt_colours[] = {
	"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948",
	"#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
};
#define RT_NCOLOURS	(sizeof rt_colours / sizeof rt_colours[0])

/*
 * What a timeline's lanes are drawn with, read once from its JSON: the
 * categories and markers, nb buckets over the window [t0, t1] in width
 * pixels (bw each), and the pixels of a lane a value is.
 */
struct rt_lanes {
	const json_t	*cats, *marks;
	int		 ncat, nb, width;
	double		 t0, t1, bw, scale;
};

static void	rt_escape(struct outbuf *, const char *);
static void	rt_num(struct outbuf *, double);
static void	rt_ruler(struct outbuf *, double, double, int, int,
		    const char *);
static int	rt_container(struct outbuf *, const json_t *,
		    const struct query *, const char *, const char *,
		    enum catalog_cmd, int);
static int	rt_timeline(struct outbuf *, const json_t *,
		    const struct query *, const char *);
static int	rt_heatmap(struct outbuf *, const json_t *,
		    const struct query *, const char *);
static int	rt_chart(struct outbuf *, const json_t *,
		    const struct query *, const char *);
static const char *rt_category_colour(const char *, int);
static double	rt_timeline_max(const json_t *, const json_t *, const char *,
		    int);
static int	rt_timeline_ruler(struct outbuf *, const struct rt_lanes *,
		    const struct query *, const char *, const char *);
static void	rt_timeline_bars(struct outbuf *, const struct rt_lanes *,
		    const json_t *, const json_t *, int);
static void	rt_timeline_marks(struct outbuf *, const struct rt_lanes *,
		    const json_t *);
static void	rt_timeline_lane(struct outbuf *, const struct rt_lanes *,
		    const json_t *, size_t);
static void	rt_timeline_legend(struct outbuf *, const struct rt_lanes *);

static void
rt_escape(struct outbuf *ob, const char *s)
{
	escape_html_buf(ob, s, strlen(s));
}

/* A coordinate: at most one decimal, no exponent. */
static void
rt_num(struct outbuf *ob, double v)
{
	long long	 t = llround(v * 10);

	if (t < 0) {
		outbuf_putc(ob, '-');
		t = -t;
	}
	outbuf_i64(ob, t / 10);
	if (t % 10 != 0) {
		outbuf_putc(ob, '.');
		outbuf_putc(ob, '0' + (int)(t % 10));
	}
}

/*
 * The ruler: ticks of a round step over [t0, t1] (seconds, or the
 * clock's units) across width px, labelled with their unit.
 */
static void
rt_ruler(struct outbuf *ob, double t0, double t1, int width, int y,
    const char *axis)
{
	double	 span = t1 - t0, raw, p, step, t, x;
	char	*label, buf[64];
	int	 i;

	if (!(span > 0))
		return;
	raw = span / 10;
	p = pow(10, floor(log10(raw)));
	step = raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p :
	    10 * p;
	outbuf_puts(ob, "<g class=\"ruler\">");
	for (i = 0, t = ceil(t0 / step) * step; t <= t1 && i < 40;
	    i++, t = ceil(t0 / step) * step + i * step) {
		x = (t - t0) / span * width;
		outbuf_puts(ob, "<line x1=\"");
		rt_num(ob, x);
		outbuf_puts(ob, "\" x2=\"");
		rt_num(ob, x);
		outbuf_printf(ob, "\" y1=\"%d\" y2=\"%d\" stroke=\"#888\"/>",
		    y + 12, y + 18);
		/* No label cut by the right edge. */
		if (x > width - 45)
			continue;
		if (strcmp(axis, "s") == 0)
			label = display_seconds(fabs(t) < step / 1e6 ? 0 : t);
		else {
			snprintf(buf, sizeof buf, "%.12g %s", t, axis);
			label = strdup(buf);
		}
		outbuf_puts(ob, "<text x=\"");
		rt_num(ob, x + 2);
		outbuf_printf(ob, "\" y=\"%d\" font-size=\"11\">", y + 10);
		rt_escape(ob, label ? label : "?");
		outbuf_puts(ob, "</text>");
		free(label);
	}
	outbuf_puts(ob, "</g>\n");
}

/*
 * The container every view sits in, with what deepq-timeline.js needs:
 * the window, the width drawn, the link around range= (cmd kept) and
 * the kind of selection (lanes: drag; cells: the heat map's).
 */
static int
rt_container(struct outbuf *ob, const json_t *j, const struct query *q,
    const char *link_base, const char *cls, enum catalog_cmd cmd, int width)
{
	const json_t	*view = json_object_get(j, "view");
	struct query_tmpl t;
	struct query	 w = *q;

	w.cmd = cmd;
	if (query_tmpl_init(&t, &w, QUERY_RANGE, 1) == -1) {
		query_tmpl_clear(&t);
		return (-1);
	}
	outbuf_puts(ob, "<div class=\"");
	outbuf_puts(ob, cls);
	outbuf_puts(ob, "\" data-t0=\"");
	outbuf_printf(ob, "%.9f", json_real_value(json_array_get(view, 0)));
	outbuf_puts(ob, "\" data-t1=\"");
	outbuf_printf(ob, "%.9f", json_real_value(json_array_get(view, 1)));
	outbuf_printf(ob, "\" data-width=\"%d\" data-axis=\"", width);
	rt_escape(ob, json_string_value(json_object_get(j, "axis")) ?
	    json_string_value(json_object_get(j, "axis")) : "s");
	outbuf_puts(ob, "\" data-base=\"");
	rt_escape(ob, link_base);
	outbuf_puts(ob, "\" data-pre=\"");
	rt_escape(ob, t.pre);
	outbuf_puts(ob, "\" data-post=\"");
	rt_escape(ob, t.post);
	outbuf_puts(ob, "\">\n");
	query_tmpl_clear(&t);
	return (0);
}

/* A category's colour: by its place, grey for the idle ones. */
static const char *
rt_category_colour(const char *name, int k)
{
	if (name != NULL && (strcmp(name, "(idle)") == 0 ||
	    strcmp(name, "(program)") == 0))
		return ("#d7d7d7");
	if (k < 0 || (size_t)k >= RT_NCOLOURS)
		k = RT_NCOLOURS - 1;
	return (rt_colours[k]);
}

/*
 * The value a lane's full height is: for spans, the share of a bucket
 * busy (its seconds at the clock's rate); for samples, the busiest
 * bucket of any thread.
 */
static double
rt_timeline_max(const json_t *j, const json_t *threads, const char *mode,
    int nb)
{
	const json_t	*th, *vals;
	double		 bsec = json_real_value(json_object_get(j, "bucket"));
	double		 rate = json_real_value(json_object_get(
			    json_object_get(j, "clock"), "rate"));
	double		 max = 0;
	size_t		 i;
	int		 k;
	int64_t		 x;

	if (strcmp(mode, "span") == 0)
		return (bsec * (rate > 0 ? rate : 1));
	json_array_foreach(threads, i, th) {
		vals = json_object_get(th, "values");
		for (k = 0; k < nb; k++) {
			x = json_integer_value(json_array_get(vals, k));
			if (x > max)
				max = (double)x;
		}
	}
	return (max);
}

/*
 * The ruler, a link a bucket: plain links narrow the window. -1 if out
 * of memory.
 */
static int
rt_timeline_ruler(struct outbuf *ob, const struct rt_lanes *g,
    const struct query *q, const char *link_base, const char *axis)
{
	struct query_tmpl t;
	struct query	 w = *q;
	char		*link, a[32], b[32];
	size_t		 n;
	int		 k;

	w.cmd = CMD_TIMELINE;
	if (query_tmpl_init(&t, &w, QUERY_RANGE, 1) == -1) {
		query_tmpl_clear(&t);
		return (-1);
	}
	outbuf_printf(ob, "<svg class=\"tl-ruler\" xmlns=\"http://www.w3.org/"
	    "2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
	    "role=\"img\" aria-label=\"time axis; a bucket narrows the "
	    "window to it\">\n", g->width, RT_RULER, g->width, RT_RULER);
	rt_ruler(ob, g->t0, g->t1, g->width, 0, axis);
	for (k = 0; k < g->nb; k++) {
		snprintf(a, sizeof a, "%.9f", g->t0 + k * (g->t1 - g->t0) /
		    g->nb);
		snprintf(b, sizeof b, "%.9f", g->t0 + (k + 1) *
		    (g->t1 - g->t0) / g->nb);
		/* The printed form: no exponent, trailing zeros cut. */
		for (n = strlen(a); n > 1 && a[n - 1] == '0'; n--)
			a[n - 1] = '\0';
		for (n = strlen(b); n > 1 && b[n - 1] == '0'; n--)
			b[n - 1] = '\0';
		if (a[strlen(a) - 1] == '.')
			a[strlen(a) - 1] = '\0';
		if (b[strlen(b) - 1] == '.')
			b[strlen(b) - 1] = '\0';
		if (strcmp(a, b) == 0 || (a[0] == '-'))
			continue;
		/* A range range= refuses makes no link (query_tmpl_fill). */
		w.range[0] = strtod(a, NULL);
		w.range[1] = strtod(b, NULL);
		if ((link = query_tmpl_fill(&t, &w)) == NULL)
			continue;
		outbuf_puts(ob, "<a href=\"");
		rt_escape(ob, link_base);
		rt_escape(ob, link);
		outbuf_puts(ob, "\"><rect class=\"tl-b\" x=\"");
		rt_num(ob, k * g->bw);
		outbuf_puts(ob, "\" y=\"18\" width=\"");
		rt_num(ob, g->bw);
		outbuf_puts(ob, "\" height=\"12\" fill=\"#888\" "
		    "fill-opacity=\"0.15\"/></a>");
		free(link);
	}
	outbuf_puts(ob, "</svg>\n");
	query_tmpl_clear(&t);
	return (0);
}

/*
 * A lane's bars of category c (ncat: "other"), one path, where its
 * buckets (cv: each bucket's category) are of that category.
 */
static void
rt_timeline_bars(struct outbuf *ob, const struct rt_lanes *g,
    const json_t *vals, const json_t *cv, int c)
{
	const char	*cn = c < g->ncat ? json_string_value(
			    json_object_get(json_array_get(g->cats, c),
			    "name")) : "other";
	double		 h;
	int64_t		 x;
	int		 k, any = 0;

	for (k = 0; k < g->nb; k++) {
		if (json_integer_value(json_array_get(cv, k)) != c)
			continue;
		x = json_integer_value(json_array_get(vals, k));
		h = (double)x * g->scale;
		if (h > RT_LANE - 2)
			h = RT_LANE - 2;
		if (h < 1)
			h = 1;
		if (!any) {
			outbuf_printf(ob, "<path fill=\"%s\" d=\"",
			    rt_category_colour(cn, c));
			any = 1;
		}
		outbuf_putc(ob, 'M');
		rt_num(ob, k * g->bw);
		outbuf_putc(ob, ' ');
		rt_num(ob, RT_LANE - h);
		outbuf_putc(ob, 'h');
		rt_num(ob, g->bw);
		outbuf_putc(ob, 'v');
		rt_num(ob, h);
		outbuf_putc(ob, 'h');
		rt_num(ob, -g->bw);
		outbuf_putc(ob, 'z');
	}
	if (any) {
		outbuf_puts(ob, "\"><title>");
		rt_escape(ob, cn ? cn : "?");
		outbuf_puts(ob, "</title></path>");
	}
}

/* Thread th's markers: a tick each. */
static void
rt_timeline_marks(struct outbuf *ob, const struct rt_lanes *g,
    const json_t *th)
{
	const json_t	*mk;
	double		 mx;
	size_t		 n;

	for (n = 0; n < json_array_size(g->marks); n++) {
		mk = json_array_get(g->marks, n);
		if (json_integer_value(json_array_get(mk, 1)) !=
		    json_integer_value(json_object_get(th, "thread")))
			continue;
		mx = (json_real_value(json_array_get(mk, 0)) - g->t0) /
		    (g->t1 - g->t0) * g->width;
		outbuf_puts(ob, "<path class=\"tl-mark\" stroke=\"#c00\" "
		    "d=\"M");
		rt_num(ob, mx);
		outbuf_puts(ob, " 0v8\"><title>");
		rt_escape(ob, json_string_value(json_array_get(mk, 2)) ?
		    json_string_value(json_array_get(mk, 2)) : "");
		outbuf_puts(ob, "</title></path>");
	}
}

/*
 * Thread th's lane, the i-th: its label, a path of bars per category
 * and its markers; the first eight open.
 */
static void
rt_timeline_lane(struct outbuf *ob, const struct rt_lanes *g,
    const json_t *th, size_t i)
{
	const json_t	*vals = json_object_get(th, "values");
	const json_t	*cv = json_object_get(th, "category");
	int		 c;

	outbuf_printf(ob, "<details class=\"tl-lane\"%s><summary>",
	    i < 8 ? " open" : "");
	rt_escape(ob, json_string_value(json_object_get(th,
	    "label")) ? json_string_value(json_object_get(th, "label"))
	    : "?");
	outbuf_printf(ob, "</summary>\n<svg class=\"tl-g\" "
	    "xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	    "height=\"%d\" viewBox=\"0 0 %d %d\">", g->width, RT_LANE,
	    g->width, RT_LANE);
	outbuf_printf(ob, "<rect width=\"%d\" height=\"%d\" "
	    "fill=\"#f6f6f6\"/>", g->width, RT_LANE);
	/* A path per category: its buckets' bars. */
	for (c = 0; c <= g->ncat; c++)
		rt_timeline_bars(ob, g, vals, cv, c);
	rt_timeline_marks(ob, g, th);
	outbuf_puts(ob, "</svg></details>\n");
}

/* The categories' colours, "other" last; none without categories. */
static void
rt_timeline_legend(struct outbuf *ob, const struct rt_lanes *g)
{
	const char	*cn;
	int		 c;

	outbuf_puts(ob, "<ul class=\"tl-legend\">");
	for (c = 0; c <= g->ncat && g->ncat > 0; c++) {
		cn = c < g->ncat ? json_string_value(json_object_get(
		    json_array_get(g->cats, c), "name")) : "other";
		outbuf_printf(ob, "<li><svg width=\"10\" height=\"10\"><rect "
		    "width=\"10\" height=\"10\" fill=\"%s\"/></svg> ",
		    rt_category_colour(cn, c));
		rt_escape(ob, cn ? cn : "?");
		outbuf_puts(ob, "</li>");
	}
	outbuf_puts(ob, "</ul>\n</div>\n");
}

/*
 * cmd=timeline: the ruler with a link per bucket, then a collapsible
 * lane per thread (the busiest open), its activity graph a path per
 * category, the markers, and the legend.
 */
static int
rt_timeline(struct outbuf *ob, const json_t *j, const struct query *q,
    const char *link_base)
{
	const json_t	*threads = json_object_get(j, "threads");
	const json_t	*view = json_object_get(j, "view"), *th;
	const char	*axis = json_string_value(json_object_get(j, "axis"));
	const char	*mode = json_string_value(json_object_get(
			    json_object_get(j, "activity"), "mode"));
	struct rt_lanes	 g;
	double		 max;
	size_t		 i;

	g.cats = json_object_get(j, "categories");
	g.marks = json_object_get(j, "marks");
	g.width = (int)json_integer_value(json_object_get(j, "width"));
	g.nb = (int)json_integer_value(json_object_get(j, "buckets"));
	g.ncat = (int)json_array_size(g.cats);
	g.t0 = json_real_value(json_array_get(view, 0));
	g.t1 = json_real_value(json_array_get(view, 1));
	g.bw = g.nb > 0 ? (double)g.width / g.nb : 0;
	if (axis == NULL || mode == NULL || g.nb <= 0 || g.width <= 0)
		return (-1);
	max = rt_timeline_max(j, threads, mode, g.nb);
	g.scale = max > 0 ? (RT_LANE - 2) / max : 0;
	if (rt_container(ob, j, q, link_base, "tl", CMD_TIMELINE,
	    g.width) == -1)
		return (-1);
	if (rt_timeline_ruler(ob, &g, q, link_base, axis) == -1)
		return (-1);
	json_array_foreach(threads, i, th)
		rt_timeline_lane(ob, &g, th, i);
	rt_timeline_legend(ob, &g);
	return (0);
}

/*
 * cmd=heatmap: a column a second (or column_seconds), a row an offset
 * in it, each cell's colour its count's share of the largest; a column's
 * head is a link to its range, and dragging across cells (script)
 * selects from the first cell's start to the last cell's end.
 */
static int
rt_heatmap(struct outbuf *ob, const json_t *j, const struct query *q,
    const char *link_base)
{
	const json_t	*cells = json_object_get(j, "cells"), *cell;
	int		 cols = (int)json_integer_value(json_object_get(j,
			    "columns"));
	int		 rows = (int)json_integer_value(json_object_get(j,
			    "rows"));
	double		 c0 = json_real_value(json_object_get(j,
			    "first_column"));
	double		 cs = json_real_value(json_object_get(j,
			    "column_seconds"));
	double		 max = (double)json_integer_value(json_object_get(j,
			    "max"));
	struct query_tmpl t;
	struct query	 w = *q;
	int		 cw, ch = 8, width, height, col, row, level, lv;
	char		 r[64], *link;
	size_t		 i;
	/* White to dark red, as FlameScope shades. */
	static const char *const shade[] = { "#fee5d9", "#fcbba1", "#fc9272",
	    "#fb6a4a", "#ef3b2c", "#cb181d", "#a50f15", "#67000d" };

	if (cols <= 0 || rows <= 0)
		return (-1);
	cw = cols > 60 ? 10 : 1200 / cols > 40 ? 40 : 1200 / cols;
	width = cols * cw;
	height = rows * ch;
	w.cmd = CMD_HEATMAP;
	if (rt_container(ob, j, q, link_base, "hm", CMD_TIMELINE, width) ==
	    -1 || query_tmpl_init(&t, &w, QUERY_RANGE, 1) == -1) {
		query_tmpl_clear(&t);
		return (-1);
	}
	outbuf_printf(ob, "<svg class=\"hm-g\" xmlns=\"http://www.w3.org/2000/"
	    "svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
	    "data-cols=\"%d\" data-rows=\"%d\" data-c0=\"%.9f\" "
	    "data-cs=\"%.9f\" data-cw=\"%d\" data-ch=\"%d\" role=\"img\" "
	    "aria-label=\"sub-second heat map\">\n", width, height + 20,
	    width, height + 20, cols, rows, c0, cs, cw, ch);
	/* Column heads: a link to the column's range. */
	for (col = 0; col < cols; col++) {
		snprintf(r, sizeof r, "%.9g,%.9g", c0 + col * cs,
		    c0 + (col + 1) * cs);
		if (strchr(r, 'e') != NULL)
			continue;
		/* The printed form's values, so the link reads as before. */
		w.range[0] = strtod(r, NULL);
		w.range[1] = strtod(strchr(r, ',') + 1, NULL);
		if ((link = query_tmpl_fill(&t, &w)) == NULL)
			continue;
		outbuf_puts(ob, "<a href=\"");
		rt_escape(ob, link_base);
		rt_escape(ob, link);
		outbuf_printf(ob, "\"><rect x=\"%d\" y=\"0\" width=\"%d\" "
		    "height=\"16\" fill=\"#888\" fill-opacity=\"%s\"/>",
		    col * cw, cw - 1, col % 10 == 0 ? "0.4" : "0.15");
		if (col % 10 == 0 && cw * 10 >= 40)
			outbuf_printf(ob, "<text x=\"%d\" y=\"12\" "
			    "font-size=\"10\">%.9g s</text>", col * cw + 1,
			    c0 + col * cs);
		outbuf_puts(ob, "</a>");
		free(link);
	}
	query_tmpl_clear(&t);
	/* The cells, a path per shade. */
	for (level = 0; level < 8; level++) {
		int	 any = 0;

		json_array_foreach(cells, i, cell) {
			col = (int)json_integer_value(json_array_get(cell, 0));
			row = (int)json_integer_value(json_array_get(cell, 1));
			lv = max > 0 ? (int)((double)json_integer_value(
			    json_array_get(cell, 2)) / max * 7.999) : 0;
			if (lv != level || col < 0 || col >= cols || row < 0 ||
			    row >= rows)
				continue;
			if (!any) {
				outbuf_printf(ob, "<path fill=\"%s\" d=\"",
				    shade[level]);
				any = 1;
			}
			outbuf_printf(ob, "M%d %dh%dv%dh-%dz", col * cw,
			    20 + row * ch, cw - 1, ch - 1, cw - 1);
		}
		if (any)
			outbuf_puts(ob, "\"/>\n");
	}
	outbuf_puts(ob, "</svg>\n</div>\n");
	return (0);
}

/* A function's colour in the chart: warm, by its name's hash. */
static void
rt_warm(struct outbuf *ob, const char *name)
{
	uint64_t	 h = hash_bytes(name, strlen(name));

	outbuf_printf(ob, "rgb(%d,%d,%d)", 205 + (int)(h % 50),
	    80 + (int)((h >> 8) % 130), 40 + (int)((h >> 16) % 50));
}

/*
 * The flame chart on its time axis: the ruler, then a lane per thread,
 * root at the top; a frame is a link to its function's page, its title
 * its name and span.
 */
static int
rt_chart(struct outbuf *ob, const json_t *j, const struct query *q,
    const char *link_base)
{
	const json_t	*lanes = json_object_get(j, "lanes"), *lane, *fr;
	const json_t	*funcs = json_object_get(j, "funcs"), *fn;
	const json_t	*view = json_object_get(j, "view");
	const char	*axis = json_string_value(json_object_get(j, "axis"));
	const char	*name;
	struct query_tmpl tf;
	struct query	 vf;
	int		 width = (int)json_integer_value(json_object_get(j,
			    "width"));
	int		 depth, dep, height;
	double		 t0 = json_real_value(json_array_get(view, 0));
	double		 t1 = json_real_value(json_array_get(view, 1));
	double		 x, w, fx, fw, px = t1 > t0 ? width / (t1 - t0) : 0;
	char		 key[16], *link;
	size_t		 i, k, chars;

	if (axis == NULL || width <= 0 || !json_is_array(lanes))
		return (-1);
	if (rt_container(ob, j, q, link_base, "tl", CMD_FLAME, width) == -1)
		return (-1);
	report_view(&vf, q, CMD_FUNC);
	if (query_tmpl_init(&tf, &vf, QUERY_FUNC, 1) == -1) {
		query_tmpl_clear(&tf);
		return (-1);
	}
	outbuf_printf(ob, "<svg class=\"tl-ruler\" xmlns=\"http://www.w3.org/"
	    "2000/svg\" width=\"%d\" height=\"20\" viewBox=\"0 0 %d 20\">",
	    width, width);
	rt_ruler(ob, t0, t1, width, 0, axis);
	outbuf_puts(ob, "</svg>\n");
	json_array_foreach(lanes, i, lane) {
		depth = (int)json_integer_value(json_object_get(lane,
		    "depth"));
		height = (depth + 1) * RT_FRAME;
		outbuf_puts(ob, "<details class=\"tl-lane\" open><summary>");
		rt_escape(ob, json_string_value(json_object_get(lane,
		    "label")) ? json_string_value(json_object_get(lane,
		    "label")) : "?");
		outbuf_printf(ob, "</summary>\n<svg class=\"tl-g chart\" "
		    "xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		    "height=\"%d\" viewBox=\"0 0 %d %d\">\n",
		    width, height, width, height);
		json_array_foreach(json_object_get(lane, "frames"), k, fr) {
			dep = (int)json_integer_value(json_array_get(fr, 0));
			x = json_real_value(json_array_get(fr, 1));
			w = json_real_value(json_array_get(fr, 2));
			snprintf(key, sizeof key, "%lld", (long long)
			    json_integer_value(json_array_get(fr, 3)));
			fn = json_object_get(funcs, key);
			name = json_string_value(json_object_get(fn, "name"));
			if (name == NULL)
				name = "?";
			fx = (x - t0) * px;
			fw = w * px;
			vf.func = key;
			link = query_tmpl_fill(&tf, &vf);
			if (link != NULL) {
				outbuf_puts(ob, "<a href=\"");
				rt_escape(ob, link_base);
				rt_escape(ob, link);
				outbuf_puts(ob, "\">");
			}
			outbuf_puts(ob, "<rect x=\"");
			rt_num(ob, fx);
			outbuf_printf(ob, "\" y=\"%d\" width=\"", dep *
			    RT_FRAME);
			rt_num(ob, fw < 0.5 ? 0.5 : fw);
			outbuf_printf(ob, "\" height=\"%d\" fill=\"",
			    RT_FRAME - 1);
			rt_warm(ob, name);
			outbuf_puts(ob, "\"><title>");
			rt_escape(ob, name);
			outbuf_puts(ob, "</title></rect>");
			chars = fw > 3 * RT_CHAR ? (size_t)(fw / RT_CHAR) - 1 :
			    0;
			if (chars > 0) {
				char	*cut = strndup(name, chars);

				outbuf_puts(ob, "<text x=\"");
				rt_num(ob, fx + 2);
				outbuf_printf(ob, "\" y=\"%d\" font-size=\"11\">",
				    dep * RT_FRAME + 11);
				rt_escape(ob, cut ? cut : "");
				outbuf_puts(ob, "</text>");
				free(cut);
			}
			if (link != NULL)
				outbuf_puts(ob, "</a>");
			outbuf_putc(ob, '\n');
			free(link);
		}
		outbuf_puts(ob, "</svg></details>\n");
	}
	outbuf_puts(ob, "</div>\n");
	query_tmpl_clear(&tf);
	return (0);
}

/*
 * Draw the time view of a report's JSON j into an HTML page, then load
 * its script. q is the page's query. -1 on a write error or out of
 * memory.
 */
int
render_timeline_inline(struct outbuf *ob, const json_t *j,
    const struct query *q, const struct render_context *ctx)
{
	const char	*cmd = json_string_value(json_object_get(j, "cmd"));
	const char	*base = ctx->link_base ? ctx->link_base : "?";
	int		 r;

	if (cmd == NULL || q == NULL)
		return (-1);
	if (strcmp(cmd, "timeline") == 0)
		r = rt_timeline(ob, j, q, base);
	else if (strcmp(cmd, "heatmap") == 0)
		r = rt_heatmap(ob, j, q, base);
	else
		r = rt_chart(ob, j, q, base);
	if (r == 0 && ctx->static_base != NULL) {
		outbuf_puts(ob, "<script src=\"");
		rt_escape(ob, ctx->static_base);
		outbuf_puts(ob, "deepq-timeline.js\"></script>\n");
	}
	return (r == -1 ? -1 : outbuf_failed(ob));
}
