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
#include "escape.h"
#include "outbuf.h"
#include "page.h"
#include "query.h"
#include "render.h"
#include "render-timeline.h"

/*
 * format=html: a display as an HTML5 page. Every string from a profile or
 * a request goes through escape_html(); every link is the canonical query
 * string (already percent-encoded) after ctx->link_base, so links stay
 * relative and never carry a Host header. No inline script or style: the
 * page works with the Content-Security-Policy the front ends send.
 */

static int	html_render(struct outbuf *, const json_t *,
		    const struct display *, const struct render_context *);
static void	html_escape(struct outbuf *, const char *);
static void	html_href(struct outbuf *, const char *,
		    const struct render_context *);
static void	html_uint(struct outbuf *, uint32_t);
static void	html_tree(struct outbuf *, const struct display_cell *,
		    const struct render_context *);
static void	html_table(struct outbuf *, const struct display_block *,
		    const struct render_context *);
static void	html_switch(struct outbuf *, const struct display_block *,
		    const struct render_context *);
static void	html_compare(struct outbuf *, const struct display_block *,
		    const struct render_context *, const struct query *);
static void	html_chart(struct outbuf *, const struct display_chart *);

const struct renderer render_html = {
	.render = html_render,
};

/* A cell's opening tag by its flags: NUM 1, TREE 2, DIM 4. */
static const char *const html_td[8] = {
	"<td", "<td class=\"num\"", "<td class=\"tree\"",
	"<td class=\"numtree\"", "<td class=\" dim\"",
	"<td class=\"num dim\"", "<td class=\"tree dim\"",
	"<td class=\"numtree dim\"",
};

static void
html_escape(struct outbuf *ob, const char *s)
{
	escape_html_buf(ob, s, strlen(s));
}

#define HTML_WRAP	24	/* names longer than this may break */
#define HTML_BREAKS	"/.:`,"	/* ...after one of these */

/* Escaped, with a <wbr> after each separator of a long name. */
static void
html_wrap(struct outbuf *ob, const char *s, size_t n)
{
	size_t	 k;

	if (n <= HTML_WRAP) {
		escape_html_buf(ob, s, n);
		return;
	}
	while (n > 0) {
		/* s is a C string: strcspn stops at its end at the latest. */
		if ((k = strcspn(s, HTML_BREAKS)) > n)
			k = n;
		if (k < n)
			k++;
		escape_html_buf(ob, s, k);
		if (k < n)
			outbuf_puts(ob, "<wbr>");
		s += k;
		n -= k;
	}
}

/*
 * A table's first cell: a function as "module`name" shows the module's
 * last path component, the whole path in its title; long names may
 * break after a separator, not within a word.
 */
static void
html_label(struct outbuf *ob, const char *s)
{
	const char	*tick = strchr(s, '`'), *slash = NULL, *p;

	for (p = s; tick != NULL && (p = memchr(p, '/', tick - p)) != NULL;
	    p++)
		slash = p;
	if (slash == NULL || slash + 1 == tick) {
		html_wrap(ob, s, strlen(s));
		return;
	}
	outbuf_puts(ob, "<span class=\"mod\" title=\"");
	escape_html_buf(ob, s, tick - s);
	outbuf_puts(ob, "\">");
	escape_html_buf(ob, slash + 1, tick - slash - 1);
	outbuf_puts(ob, "</span>");
	html_wrap(ob, tick, strlen(tick));
}

/* v in decimal, as "%u" writes it. */
static void
html_uint(struct outbuf *ob, uint32_t v)
{
	char	 buf[16];
	size_t	 n = sizeof buf;

	do {
		buf[--n] = '0' + v % 10;
		v /= 10;
	} while (v != 0);
	outbuf_write(ob, buf + n, sizeof buf - n);
}

/* href="BASE+LINK" with the attribute escaped. */
static void
html_href(struct outbuf *ob, const char *link,
    const struct render_context *ctx)
{
	outbuf_puts(ob, " href=\"");
	html_escape(ob, ctx->link_base ? ctx->link_base : "?");
	html_escape(ob, link);
	outbuf_putc(ob, '"');
}


/* The tree cell's indent, toggle and the text before the name. */
static void
html_tree(struct outbuf *ob, const struct display_cell *c,
    const struct render_context *ctx)
{
	uint32_t	 i;

	if (c->indent > 0) {
		outbuf_puts(ob, "<span class=\"ind\">");
		for (i = 0; i < c->indent; i++)
			outbuf_write(ob, "\xc2\xa0\xc2\xa0", 4);
		outbuf_puts(ob, "</span>");
	}
	if (c->toggle != NULL) {
		outbuf_puts(ob, "<a class=\"tog\"");
		html_href(ob, c->toggle, ctx);
		if (c->flags & DISPLAY_OPEN)
			outbuf_puts(ob, " title=\"collapse\" "
			    "aria-expanded=\"true\">&#8722;</a> ");
		else
			outbuf_puts(ob, " title=\"expand\" "
			    "aria-expanded=\"false\">+</a> ");
	} else if (c->flags & DISPLAY_OPEN)
		outbuf_puts(ob, "<span class=\"tog\">&#8722;</span> ");
	else
		outbuf_puts(ob, "<span class=\"tog\">&#183;</span> ");
}

/* A table's head: the column groups' row if any, then the columns'. */
static void
html_table_head(struct outbuf *ob, const struct display_block *b,
    const struct render_context *ctx)
{
	const struct display_cell	*c;
	uint32_t			 col;

	outbuf_puts(ob, ">\n<thead>");
	if (b->group != NULL) {
		outbuf_puts(ob, "<tr class=\"group\">");
		for (col = 0; col < b->ncols; col++) {
			c = &b->group[col];
			if (c->text == NULL || c->span == 0) {
				outbuf_puts(ob, "<td></td>");
				continue;
			}
			outbuf_puts(ob, "<th scope=\"colgroup\" colspan=\"");
			html_uint(ob, c->span);
			outbuf_puts(ob, "\">");
			html_escape(ob, c->text);
			outbuf_puts(ob, "</th>");
			col += c->span - 1;
		}
		outbuf_puts(ob, "</tr>\n");
	}
	outbuf_puts(ob, "<tr>");
	for (col = 0; col < b->ncols; col++) {
		c = &b->head[col];
		outbuf_puts(ob, c->flags & DISPLAY_NUM ? "<th scope=\"col\" "
		    "class=\"num\">" : "<th scope=\"col\">");
		if (c->link != NULL) {
			outbuf_puts(ob, "<a");
			html_href(ob, c->link, ctx);
			outbuf_putc(ob, '>');
		}
		html_escape(ob, c->text ? c->text : "");
		if (c->link != NULL)
			outbuf_puts(ob, "</a>");
		outbuf_puts(ob, "</th>");
	}
	outbuf_puts(ob, "</tr></thead>\n<tbody>\n");
}

/* A cell's opening tag, its class and the data deepq.js and .css read. */
static void
html_cell_open(struct outbuf *ob, const struct display_cell *c)
{
	/* No printf a cell: a page has thousands. */
	outbuf_puts(ob, c->flags & DISPLAY_CODE ? "<td class=\"code\"" :
	    html_td[(c->flags & DISPLAY_NUM ? 1 : 0) |
	    (c->flags & DISPLAY_TREE ? 2 : 0) |
	    (c->flags & DISPLAY_DIM ? 4 : 0)]);
	if (c->anchor != NULL) {
		outbuf_puts(ob, " id=\"");
		html_escape(ob, c->anchor);
		outbuf_putc(ob, '"');
	}
	if (c->flags & DISPLAY_TREE) {
		outbuf_puts(ob, " data-depth=\"");
		html_uint(ob, c->indent);
		outbuf_putc(ob, '"');
	}
	/* deepq.js expands it in place. */
	if (c->flags & DISPLAY_MORE)
		outbuf_puts(ob, " data-more=\"1\"");
	/* deepq.css shades shares and colours changes. */
	if (c->flags >> DISPLAY_HEAT_SHIFT) {
		outbuf_puts(ob, " data-h=\"");
		html_uint(ob, c->flags >> DISPLAY_HEAT_SHIFT);
		outbuf_putc(ob, '"');
	}
	if (c->flags & DISPLAY_UP)
		outbuf_puts(ob, " data-d=\"up\"");
	else if (c->flags & DISPLAY_DOWN)
		outbuf_puts(ob, " data-d=\"down\"");
	outbuf_putc(ob, '>');
}

/* A cell's links after its text: the row's menu or aux link, "more". */
static void
html_cell_aux(struct outbuf *ob, const struct display_cell *c,
    const struct render_context *ctx)
{
	/*
	 * A tree row's menu, always there: its page (the tree rooted at
	 * the row) lists the transforms first; deepq.js opens them at the
	 * row instead.
	 */
	if (c->aux != NULL && (c->flags & DISPLAY_TREE)) {
		outbuf_puts(ob, " <a class=\"aux\"");
		html_href(ob, c->aux, ctx);
		outbuf_puts(ob, " title=\"");
		html_escape(ob, c->auxtext ? c->auxtext : "");
		outbuf_puts(ob, "\" aria-label=\"");
		html_escape(ob, c->auxtext ? c->auxtext : "");
		outbuf_puts(ob, "\">&#8943;</a>");
	} else if (c->aux != NULL) {
		outbuf_puts(ob, " <a class=\"aux\"");
		html_href(ob, c->aux, ctx);
		outbuf_putc(ob, '>');
		html_escape(ob, c->auxtext ? c->auxtext : "");
		outbuf_puts(ob, "</a>");
	}
	if (c->more != NULL) {
		outbuf_puts(ob, " <a class=\"aux\"");
		html_href(ob, c->more, ctx);
		outbuf_putc(ob, '>');
		html_escape(ob, c->moretext ? c->moretext : "");
		outbuf_puts(ob, "</a>");
	}
}

static void
html_table(struct outbuf *ob, const struct display_block *b,
    const struct render_context *ctx)
{
	const struct display_cell	*c;
	size_t				 r;
	uint32_t			 col;

	if (b->nrows == 0) {
		outbuf_puts(ob, "<p class=\"none\">None.</p>\n");
		return;
	}
	outbuf_puts(ob, "<table class=\"report\"");
	if (b->id != NULL) {
		outbuf_puts(ob, " id=\"");
		html_escape(ob, b->id);
		outbuf_putc(ob, '"');
	}
	html_table_head(ob, b, ctx);
	for (r = 0; r < b->nrows; r++) {
		outbuf_puts(ob, "<tr>");
		for (col = 0; col < b->ncols; col++) {
			c = &b->cells[r * b->ncols + col];
			html_cell_open(ob, c);
			if (c->flags & DISPLAY_TREE)
				html_tree(ob, c, ctx);
			if (c->link != NULL) {
				outbuf_puts(ob, "<a");
				html_href(ob, c->link, ctx);
				outbuf_putc(ob, '>');
			}
			if (c->flags & DISPLAY_STRONG)
				outbuf_puts(ob, "<strong>");
			if (col == 0 && c->text != NULL &&
			    !(c->flags & DISPLAY_CODE))
				html_label(ob, c->text);
			else
				html_escape(ob, c->text ? c->text : "");
			if (c->flags & DISPLAY_STRONG)
				outbuf_puts(ob, "</strong>");
			if (c->link != NULL)
				outbuf_puts(ob, "</a>");
			html_cell_aux(ob, c, ctx);
			outbuf_puts(ob, "</td>");
		}
		outbuf_puts(ob, "</tr>\n");
	}
	outbuf_puts(ob, "</tbody>\n</table>\n");
}

/*
 * The form that starts a comparison (common/page.c): on a summary (one
 * profile), the base picked from the front end's list; on an index,
 * both picked from its list, the profile a summary sent the user from
 * (a row flagged DISPLAY_STRONG) already chosen.
 */
static void
html_compare(struct outbuf *ob, const struct display_block *b,
    const struct render_context *ctx, const struct query *self)
{
	const char	**names;
	const char	 *file = NULL;
	size_t		  k;

	if (b->nrows == 1) {
		page_compare_pick(ob, ctx, b->cells[0].text, self);
		return;
	}
	if (b->nrows < 2)
		return;
	if ((names = reallocarray(NULL, b->nrows, sizeof *names)) == NULL) {
		ob->error = 1;
		return;
	}
	for (k = 0; k < b->nrows; k++) {
		names[k] = b->cells[k].text ? b->cells[k].text : "";
		if (b->cells[k].flags & DISPLAY_STRONG)
			file = names[k];
	}
	page_compare(ob, ctx, names, b->nrows, file);
	free(names);
}

/* A switch: its label, then the ways, the current one not a link. */
static void
html_switch(struct outbuf *ob, const struct display_block *b,
    const struct render_context *ctx)
{
	size_t	 k;

	outbuf_puts(ob, "<nav class=\"switch\" aria-label=\"");
	html_escape(ob, b->text);
	outbuf_puts(ob, "\">");
	html_escape(ob, b->text);
	outbuf_puts(ob, ":");
	for (k = 0; k < b->nrows; k++) {
		if (b->cells[k].link == NULL) {
			outbuf_puts(ob, " <strong>");
			html_escape(ob, b->cells[k].text);
			outbuf_puts(ob, "</strong>");
			continue;
		}
		outbuf_puts(ob, " <a");
		html_href(ob, b->cells[k].link, ctx);
		outbuf_putc(ob, '>');
		html_escape(ob, b->cells[k].text);
		outbuf_puts(ob, "</a>");
	}
	outbuf_puts(ob, "</nav>\n");
}

#define CHART_W		800	/* the chart's size in pixels */
#define CHART_H		260
#define CHART_L		56	/* margins: room for the axes' labels */
#define CHART_R		16
#define CHART_T		16
#define CHART_B		40

/* A time as "2026-11-25 10:00" UTC. */
static void
html_chart_time(struct outbuf *ob, int64_t t)
{
	struct tm	 tm;
	time_t		 tt = (time_t)t;
	char		 buf[32];

	if (gmtime_r(&tt, &tm) == NULL ||
	    strftime(buf, sizeof buf, "%Y-%m-%d %H:%M", &tm) == 0)
		snprintf(buf, sizeof buf, "@%lld", (long long)t);
	outbuf_puts(ob, buf);
}

/*
 * A display_chart as an inline SVG: the two lines as polylines over a
 * time axis, a share axis from 0 to the highest point, each mark a
 * dashed vertical line with its text. Classes for deepq.css; the
 * presentation attributes draw it without the style sheet too.
 */
static void
html_chart(struct outbuf *ob, const struct display_chart *c)
{
	static const char *const colour[2] = { "#c0392b", "#2471a3" };
	double		 ymax = 0, px, py, x0, x1;
	size_t		 i, k;
	int		 w = CHART_W - CHART_L - CHART_R;
	int		 h = CHART_H - CHART_T - CHART_B;

	if (c == NULL || c->n == 0)
		return;
	for (k = 0; k < 2; k++)
		for (i = 0; i < c->n; i++)
			if (c->y[k][i] > ymax)
				ymax = c->y[k][i];
	ymax = ymax <= 0 ? 0.01 : ymax * 1.05;
	x0 = (double)c->x[0];
	x1 = c->n > 1 ? (double)c->x[c->n - 1] : x0 + 1;
	outbuf_printf(ob, "<figure class=\"chart\"><svg "
	    "xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	    "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
	    "aria-label=\"share over time\">\n", CHART_W, CHART_H, CHART_W,
	    CHART_H);
	outbuf_printf(ob, "<g class=\"axis\" stroke=\"#888\" fill=\"none\">"
	    "<path d=\"M%d %d V%d H%d\"/></g>\n", CHART_L, CHART_T,
	    CHART_T + h, CHART_L + w);
	outbuf_printf(ob, "<g class=\"ticks\" font-size=\"11\" "
	    "fill=\"#444\"><text x=\"%d\" y=\"%d\" "
	    "text-anchor=\"end\">%.4g%%</text><text x=\"%d\" y=\"%d\" "
	    "text-anchor=\"end\">0%%</text>", CHART_L - 4, CHART_T + 4,
	    ymax * 100, CHART_L - 4, CHART_T + h);
	outbuf_printf(ob, "<text x=\"%d\" y=\"%d\">", CHART_L,
	    CHART_T + h + 16);
	html_chart_time(ob, c->x[0]);
	outbuf_printf(ob, "</text><text x=\"%d\" y=\"%d\" "
	    "text-anchor=\"end\">", CHART_L + w, CHART_T + h + 16);
	html_chart_time(ob, c->x[c->n - 1]);
	outbuf_puts(ob, " UTC</text></g>\n");
	for (i = 0; i < c->nmarks; i++) {
		if (c->mx[i] < c->x[0] || c->mx[i] > c->x[c->n - 1])
			continue;
		px = CHART_L + w * ((double)c->mx[i] - x0) / (x1 - x0);
		outbuf_printf(ob, "<g class=\"mark\"><title>");
		html_chart_time(ob, c->mx[i]);
		outbuf_puts(ob, ": ");
		html_escape(ob, c->mtext[i] ? c->mtext[i] : "");
		outbuf_printf(ob, "</title><line x1=\"%.1f\" x2=\"%.1f\" "
		    "y1=\"%d\" y2=\"%d\" stroke=\"#777\" "
		    "stroke-dasharray=\"4 3\"/><text x=\"%.1f\" y=\"%d\" "
		    "font-size=\"11\" fill=\"#444\">", px, px, CHART_T,
		    CHART_T + h, px + 3, CHART_T + 10 + (int)(i % 3) * 12);
		html_escape(ob, c->mtext[i] ? c->mtext[i] : "");
		outbuf_puts(ob, "</text></g>\n");
	}
	for (k = 0; k < 2; k++) {
		outbuf_printf(ob, "<polyline class=\"line%zu\" fill=\"none\" "
		    "stroke=\"%s\" stroke-width=\"2\" points=\"", k,
		    colour[k]);
		for (i = 0; i < c->n; i++) {
			px = CHART_L + w * ((double)c->x[i] - x0) / (x1 - x0);
			py = CHART_T + h - h * c->y[k][i] / ymax;
			outbuf_printf(ob, "%s%.1f,%.1f", i ? " " : "", px, py);
		}
		outbuf_printf(ob, "\"/><text x=\"%d\" y=\"%d\" "
		    "font-size=\"12\" fill=\"%s\">", CHART_L + 8 + (int)k *
		    160, CHART_T + h + 32, colour[k]);
		html_escape(ob, c->name[k] ? c->name[k] : "");
		outbuf_puts(ob, "</text>\n");
	}
	outbuf_puts(ob, "</svg></figure>\n");
}

static int
html_render(struct outbuf *ob, const json_t *j, const struct display *d,
    const struct render_context *ctx)
{
	const struct display_block	*b;
	size_t				 i, k;

	page_begin(ob, d->title, ctx, d->self);
	for (i = 0; i < d->nblocks; i++) {
		b = &d->blocks[i];
		switch (b->kind) {
		case DISPLAY_HEADING:
			outbuf_puts(ob, "<h2>");
			html_escape(ob, b->text);
			outbuf_puts(ob, "</h2>\n");
			break;
		case DISPLAY_TEXT:
			outbuf_puts(ob, "<p>");
			html_escape(ob, b->text);
			outbuf_puts(ob, "</p>\n");
			break;
		case DISPLAY_LINKS:
			if (b->text != NULL) {
				html_switch(ob, b, ctx);
				break;
			}
			outbuf_puts(ob, "<ul class=\"links\">\n");
			for (k = 0; k < b->nrows; k++) {
				outbuf_puts(ob, "<li><a");
				html_href(ob, b->cells[k].link ?
				    b->cells[k].link : "", ctx);
				outbuf_putc(ob, '>');
				html_escape(ob, b->cells[k].text);
				outbuf_puts(ob, "</a></li>\n");
			}
			outbuf_puts(ob, "</ul>\n");
			break;
		case DISPLAY_CRUMBS:
			/* Each crumb pops what follows it; the last is here. */
			outbuf_puts(ob, "<nav class=\"crumbs\"><ol>\n");
			for (k = 0; k < b->nrows; k++) {
				if (b->cells[k].link == NULL) {
					outbuf_puts(ob,
					    "<li aria-current=\"page\">");
					html_escape(ob, b->cells[k].text);
					outbuf_puts(ob, "</li>\n");
					continue;
				}
				outbuf_puts(ob, "<li><a");
				html_href(ob, b->cells[k].link, ctx);
				outbuf_puts(ob, " title=\"pop the transforms "
				    "after this\">");
				html_escape(ob, b->cells[k].text);
				outbuf_puts(ob, "</a></li>\n");
			}
			outbuf_puts(ob, "</ol></nav>\n");
			break;
		case DISPLAY_TABLE:
			html_table(ob, b, ctx);
			break;
		case DISPLAY_COMPARE:
			html_compare(ob, b, ctx, d->self);
			break;
		case DISPLAY_CHART:
			html_chart(ob, b->chart);
			break;
		case DISPLAY_FLAME:
			/* Drawn from the report's result (flame.h). */
			if (svg_inline(ob, b->flame, d->self,
			    ctx->link_base ? ctx->link_base : "?") == -1)
				outbuf_fail(ob);
			break;
		case DISPLAY_TIMELINE:
			/* Drawn from the report's JSON, as the flame graph. */
			if (j == NULL || render_timeline_inline(ob, j, d->self,
			    ctx) == -1)
				outbuf_fail(ob);
			break;
		case DISPLAY_FORM:
			if (b->nrows == 0)
				break;
			outbuf_puts(ob, "<form method=\"post\" action=\"");
			html_escape(ob, ctx->link_base ? ctx->link_base : "?");
			html_escape(ob, b->cells[0].link ? b->cells[0].link :
			    "");
			outbuf_puts(ob, "\"><button type=\"submit\">");
			html_escape(ob, b->text);
			outbuf_puts(ob, "</button></form>\n");
			break;
		}
	}
	page_end(ob, ctx);
	return (outbuf_failed(ob));
}
