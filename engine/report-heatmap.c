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

#include "cost.h"
#include "display.h"
#include "json-build.h"
#include "profile.h"
#include "query.h"
#include "report.h"
#include "timeline.h"
#include "timeline-view.h"

/*
 * cmd=heatmap: FlameScope's sub-second heat map of the window (range=,
 * else the whole recording). Columns are seconds from the recording's
 * start (wider, a round number of seconds, when the window holds more
 * than HEATMAP_MAX_COLUMNS of them; about HEATMAP_SHORT of a round
 * fraction when it is shorter than 4 s), rows the HEATMAP_ROWS offsets
 * within a column,
 * earliest at the top; a cell's value is the activity in it (samples, or
 * time busy for spans). Needs a clock of known rate.
 */

#define HEATMAP_ROWS		50
#define HEATMAP_MAX_COLUMNS	120
#define HEATMAP_SHORT		20	/* columns of a short window */
#define HEATMAP_CHARGE		4096

struct heatmap_result {
	struct timeline_view	 v;
	double			 c0;		/* first column's start, s */
	double			 cs;		/* seconds a column */
	int64_t			 cw;		/* clock units a column */
	int64_t			 ca;		/* first column's start, clock */
	uint32_t		 cols, rows;
	int64_t			*cell;		/* [cols][rows] */
	int64_t			 max;
};

static void	*heatmap_create(const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
static json_t	*heatmap_json(const void *, const struct query *);
static struct display *heatmap_display(const void *,
		    const struct report_notes *, const struct query *);
static void	 heatmap_free(void *);
static int	heatmap_fill(struct heatmap_result *, struct cost *);

const struct report_entry report_heatmap_entry = {
	.create = heatmap_create,
	.json = heatmap_json,
	.display = heatmap_display,
	.free = heatmap_free,
	.page_json = 1,
};

/* Each record's activity into the cells its span covers. */
static int
heatmap_fill(struct heatmap_result *h, struct cost *cost)
{
	const struct timeline_view	*v = &h->v;
	struct timeline_iter		 it;
	struct timeline_rec		 r;
	uint64_t			 seen = 0, n = (uint64_t)h->cols *
					    h->rows, c0, c1, c;
	int64_t				 x, lo, hi;
	int64_t				 cend = h->ca + h->cw * h->cols;

	timeline_seek(&it, v->tl, v->a);
	while (timeline_next(&it, &r) && r.t < v->e) {
		if (++seen % HEATMAP_CHARGE == 0 &&
		    cost_charge(cost, HEATMAP_CHARGE) == -1)
			return (-1);
		if ((x = timeline_view_value(v, &r, v->a, v->e)) == 0)
			continue;
		lo = r.t > v->a ? r.t : v->a;
		if (lo < h->ca || lo >= cend)
			continue;
		/* Cell k of column j starts at ca + j * cw + k * cw / rows. */
		c0 = (uint64_t)((lo - h->ca) / h->cw) * h->rows +
		    (uint64_t)(((lo - h->ca) % h->cw) * h->rows / h->cw);
		c1 = c0;
		if (v->mode == TIMELINE_SPAN && r.d > 0) {
			hi = r.t + r.d < v->e ? r.t + r.d : v->e;
			if (hi > cend)
				hi = cend;
			c1 = (uint64_t)((hi - 1 - h->ca) / h->cw) * h->rows +
			    (uint64_t)(((hi - 1 - h->ca) % h->cw) * h->rows /
			    h->cw);
			if (cost_charge(cost, c1 - c0) == -1)
				return (-1);
		}
		for (c = c0; c <= c1 && c < n; c++) {
			if (c0 != c1) {
				int64_t	 s = h->ca + (int64_t)(c / h->rows) *
				    h->cw + (int64_t)(c % h->rows) * h->cw /
				    h->rows;
				int64_t	 e = h->ca + (int64_t)(c / h->rows) *
				    h->cw + (int64_t)(c % h->rows + 1) *
				    h->cw / h->rows;

				x = timeline_overlap(&r, s > v->a ? s : v->a,
				    e < v->e ? e : v->e);
			}
			h->cell[c] += x;
			if (h->cell[c] > h->max)
				h->max = h->cell[c];
		}
	}
	return (0);
}

static void *
heatmap_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	struct heatmap_result	*h;
	const struct timeline	*tl;
	double			 a, b, span, raw, pw, step;

	if ((h = calloc(1, sizeof *h)) == NULL) {
		report_error_set(e, 500, "out of memory");
		return (NULL);
	}
	if (timeline_view_init(&h->v, p, q, ctx->cost, e) == -1)
		goto fail;
	tl = h->v.tl;
	if (!(tl->rate > 0)) {
		report_error_set(e, 400, "cmd=heatmap: this profile's clock "
		    "(%s) has no known rate, so no seconds: see cmd=timeline",
		    tl->unit);
		goto fail;
	}
	a = timeline_seconds(tl, h->v.a);
	b = timeline_seconds(tl, h->v.e);
	span = b - a;
	/*
	 * A round column: a second, as FlameScope has it, or more when the
	 * window holds more than fit; a window of a few seconds or less is
	 * cut in HEATMAP_SHORT columns instead.
	 */
	raw = span >= 4 ? span / HEATMAP_MAX_COLUMNS : span / HEATMAP_SHORT;
	pw = pow(10, floor(log10(raw > 0 ? raw : 1e-9)));
	step = raw <= pw ? pw : raw <= 2 * pw ? 2 * pw : raw <= 5 * pw ?
	    5 * pw : 10 * pw;
	if (span >= 4 && step < 1)
		step = 1;
	/* Whole clock units a column, and rows that divide them. */
	h->cw = llround(step * tl->rate);
	if (h->cw < HEATMAP_ROWS)
		h->cw = HEATMAP_ROWS;
	h->cs = (double)h->cw / tl->rate;
	h->rows = HEATMAP_ROWS;
	h->ca = tl->start + (int64_t)floor(a * tl->rate / (double)h->cw) *
	    h->cw;
	h->c0 = timeline_seconds(tl, h->ca);
	h->cols = (uint32_t)((h->v.e - h->ca + h->cw - 1) / h->cw);
	if (h->cols > HEATMAP_MAX_COLUMNS + 1)
		h->cols = HEATMAP_MAX_COLUMNS + 1;
	if (h->cols == 0)
		h->cols = 1;
	if ((h->cell = calloc((size_t)h->cols * h->rows,
	    sizeof *h->cell)) == NULL) {
		report_error_set(e, 500, "out of memory");
		goto fail;
	}
	if (heatmap_fill(h, ctx->cost) == -1) {
		report_error_cost(e, ctx->cost);
		goto fail;
	}
	return (h);
fail:
	heatmap_free(h);
	return (NULL);
}

static void
heatmap_free(void *v)
{
	struct heatmap_result	*h = v;

	if (h == NULL)
		return;
	timeline_view_clear(&h->v);
	free(h->cell);
	free(h);
}

/*
 * cmd=heatmap as JSON: the grid ("columns" of "column_seconds" from
 * "first_column", "rows" of "row_seconds") and its cells that are not
 * empty, [column, row, value], with the largest value.
 */
static json_t *
heatmap_json(const void *v, const struct query *q)
{
	const struct heatmap_result	*h = v;
	json_t				*j, *cells;
	uint32_t			 c, r;
	int64_t				 x;
	struct json_build		 jb = JSON_BUILD_INIT;

	(void)q;
	if ((j = report_new(CMD_HEATMAP)) == NULL ||
	    timeline_view_json(j, &h->v) == -1)
		goto fail;
	json_build_set(&jb, j, "first_column", json_real(h->c0));
	json_build_set(&jb, j, "column_seconds", json_real(h->cs));
	json_build_set(&jb, j, "columns", json_integer(h->cols));
	json_build_set(&jb, j, "rows", json_integer(h->rows));
	json_build_set(&jb, j, "row_seconds", json_real(h->cs / h->rows));
	json_build_set(&jb, j, "max", json_integer(h->max));
	if ((cells = json_array()) == NULL ||
	    json_object_set_new(j, "cells", cells) == -1)
		goto fail;
	for (c = 0; c < h->cols; c++) {
		for (r = 0; r < h->rows; r++) {
			if ((x = h->cell[(size_t)c * h->rows + r]) != 0 &&
			    json_array_append_new(cells, json_pack("[i, i, I]",
			    (int)c, (int)r, (json_int_t)x)) == -1)
				goto fail;
		}
	}
	return (json_build_end(&jb, j));
fail:
	json_decref(j);
	return (NULL);
}

static void
heatmap_link(struct display *d, struct display_block *b, const char *text,
    char *link)
{
	if (link != NULL)
		display_link(d, b, text, link);
	free(link);
}

/* cmd=heatmap's page. */
static struct display *
heatmap_display(const void *v, const struct report_notes *notes,
    const struct query *q)
{
	const struct heatmap_result	*h = v;
	struct display			*d;
	struct display_block		*b;
	struct query			 w;
	char				*cs, *rs;

	(void)notes;
	if ((d = display_create("Heat map")) == NULL)
		return (NULL);
	cs = display_seconds(h->cs);
	rs = display_seconds(h->cs / h->rows);
	display_text(d, "A column is %s, a row %s of it, earliest at the top; "
	    "the darker a cell, the more %s in it. Drag across cells to "
	    "select that time, or pick a column's head.", cs ? cs : "?",
	    rs ? rs : "?", h->v.p->metrics[h->v.m].name);
	free(cs);
	free(rs);
	b = display_links(d);
	heatmap_link(d, b, "Timeline", report_cmd_link(q, CMD_TIMELINE));
	if (query_range_set(q->range)) {
		report_view(&w, q, CMD_HEATMAP);
		query_key_reset(&w, QUERY_RANGE);
		heatmap_link(d, b, "Whole recording", query_format(&w));
	}
	display_timeline(d);
	return (d);
}
