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

#include "display.h"
#include "escape.h"
#include "query.h"
#include "render.h"

/*
 * format=html: a display as an HTML5 page. Every string from a profile or
 * a request goes through escape_html(); every link is the canonical query
 * string (already percent-encoded) after ctx->link_base, so links stay
 * relative and never carry a Host header. No inline script or style: the
 * page works with the Content-Security-Policy the front ends send.
 */

static int	html_render(FILE *, const json_t *, const struct display *,
		    const struct render_context *);
static int	html_error(FILE *, int, const char *,
		    const struct render_context *);
static char	*html_nav_link(const struct render_context *,
		    const char *);
static void	html_begin(FILE *, const char *,
		    const struct render_context *);
static void	html_end(FILE *, const struct render_context *);
static void	html_href(FILE *, const char *, const struct render_context *);
static void	html_uint(FILE *, uint32_t);
static void	html_tree(FILE *, const struct display_cell *,
		    const struct render_context *);
static void	html_table(FILE *, const struct display_block *,
		    const struct render_context *);

const struct renderer render_html = {
	.name = "html",
	.content_type = "text/html; charset=utf-8",
	.needs_display = 1,
	.render = html_render,
	.error = html_error,
};

/* A cell's opening tag by its flags: NUM 1, TREE 2, DIM 4. */
static const char *const html_td[8] = {
	"<td", "<td class=\"num\"", "<td class=\"tree\"",
	"<td class=\"numtree\"", "<td class=\" dim\"",
	"<td class=\"num dim\"", "<td class=\"tree dim\"",
	"<td class=\"numtree dim\"",
};

/* v in decimal, as "%u" writes it. */
static void
html_uint(FILE *f, uint32_t v)
{
	char	 buf[16];
	size_t	 n = sizeof buf;

	buf[--n] = '\0';
	do {
		buf[--n] = '0' + v % 10;
		v /= 10;
	} while (v != 0);
	fputs(buf + n, f);
}

/* href="BASE+LINK" with the attribute escaped. */
static void
html_href(FILE *f, const char *link, const struct render_context *ctx)
{
	fputs(" href=\"", f);
	escape_html(f, ctx->link_base ? ctx->link_base : "?");
	escape_html(f, link);
	fputc('"', f);
}

/*
 * The link to a report of the current file, built like every other link
 * (query_format), for the navigation bar.
 */
static char *
html_nav_link(const struct render_context *ctx, const char *cmd)
{
	struct query	*q;
	char		*s = NULL;

	if ((q = query_create()) == NULL)
		return (NULL);
	if ((ctx->file == NULL ||
	    query_set(q, QUERY_FILE, ctx->file, NULL) == 0) &&
	    (cmd == NULL || query_set(q, QUERY_CMD, cmd, NULL) == 0))
		s = query_format(q);
	query_free(q);
	return (s);
}

static void
html_begin(FILE *f, const char *title, const struct render_context *ctx)
{
	static const struct {
		const char	*cmd;
		const char	*text;
	} nav[] = {
		{ "top", "Top" }, { "tree", "Tree" }, { "modules", "Modules" },
		{ "cliques", "Cliques" },
	};
	char	*link;
	size_t	 i;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n"
	    "<meta name=\"viewport\" content=\"width=device-width, "
	    "initial-scale=1\">\n"
	    "<meta name=\"referrer\" content=\"no-referrer\">\n<title>", f);
	escape_html(f, title);
	if (ctx->file != NULL) {
		fputs(" - ", f);
		escape_html(f, ctx->file);
	}
	fputs(" - deepq</title>\n", f);
	if (ctx->static_base != NULL) {
		fputs("<link rel=\"stylesheet\" href=\"", f);
		escape_html(f, ctx->static_base);
		fputs("deepq.css\">\n<link rel=\"icon\" href=\"", f);
		escape_html(f, ctx->static_base);
		fputs("favicon.svg\" type=\"image/svg+xml\">\n", f);
	}
	fputs("</head>\n<body>\n<header><nav>", f);
	link = html_nav_link(ctx, NULL);
	fputs("<a class=\"home\"", f);
	html_href(f, link ? link : "", ctx);
	fputs(">deepq</a>", f);
	free(link);
	if (ctx->file != NULL) {
		fputs(" <span class=\"file\">", f);
		escape_html(f, ctx->file);
		fputs("</span>", f);
	}
	for (i = 0; i < sizeof nav / sizeof nav[0]; i++) {
		if ((link = html_nav_link(ctx, nav[i].cmd)) == NULL)
			continue;
		fputs(" <a", f);
		html_href(f, link, ctx);
		fprintf(f, ">%s</a>", nav[i].text);
		free(link);
	}
	fputs("</nav></header>\n<main>\n<h1>", f);
	escape_html(f, title);
	fputs("</h1>\n", f);
}

static void
html_end(FILE *f, const struct render_context *ctx)
{
	fputs("</main>\n", f);
	if (ctx->static_base != NULL) {
		fputs("<script src=\"", f);
		escape_html(f, ctx->static_base);
		fputs("deepq.js\"></script>\n", f);
	}
	fputs("</body>\n</html>\n", f);
}

/* The tree cell's indent, toggle and the text before the name. */
static void
html_tree(FILE *f, const struct display_cell *c,
    const struct render_context *ctx)
{
	uint32_t	 i;

	if (c->indent > 0) {
		fputs("<span class=\"ind\">", f);
		for (i = 0; i < c->indent; i++)
			fwrite("\xc2\xa0\xc2\xa0", 1, 4, f);
		fputs("</span>", f);
	}
	if (c->toggle != NULL) {
		fputs("<a class=\"tog\"", f);
		html_href(f, c->toggle, ctx);
		if (c->flags & DISPLAY_OPEN)
			fputs(" title=\"collapse\">&#8722;</a> ", f);
		else
			fputs(" title=\"expand\">+</a> ", f);
	} else if (c->flags & DISPLAY_OPEN)
		fputs("<span class=\"tog\">&#8722;</span> ", f);
	else
		fputs("<span class=\"tog\">&#183;</span> ", f);
}

static void
html_table(FILE *f, const struct display_block *b,
    const struct render_context *ctx)
{
	const struct display_cell	*c;
	size_t				 r;
	uint32_t			 col;

	if (b->nrows == 0) {
		fputs("<p class=\"none\">None.</p>\n", f);
		return;
	}
	fputs("<table class=\"report\"", f);
	if (b->id != NULL) {
		fputs(" id=\"", f);
		escape_html(f, b->id);
		fputc('"', f);
	}
	fputs(">\n<thead>", f);
	if (b->group != NULL) {
		fputs("<tr class=\"group\">", f);
		for (col = 0; col < b->ncols; col++) {
			c = &b->group[col];
			if (c->text == NULL || c->span == 0) {
				fputs("<td></td>", f);
				continue;
			}
			fprintf(f, "<th scope=\"colgroup\" colspan=\"%u\">",
			    c->span);
			escape_html(f, c->text);
			fputs("</th>", f);
			col += c->span - 1;
		}
		fputs("</tr>\n", f);
	}
	fputs("<tr>", f);
	for (col = 0; col < b->ncols; col++) {
		c = &b->head[col];
		fputs(c->flags & DISPLAY_NUM ? "<th scope=\"col\" "
		    "class=\"num\">" : "<th scope=\"col\">", f);
		if (c->link != NULL) {
			fputs("<a", f);
			html_href(f, c->link, ctx);
			fputc('>', f);
		}
		escape_html(f, c->text ? c->text : "");
		if (c->link != NULL)
			fputs("</a>", f);
		fputs("</th>", f);
	}
	fputs("</tr></thead>\n<tbody>\n", f);
	for (r = 0; r < b->nrows; r++) {
		fputs("<tr>", f);
		for (col = 0; col < b->ncols; col++) {
			c = &b->cells[r * b->ncols + col];
			/* No printf a cell: a page has thousands. */
			fputs(html_td[(c->flags & DISPLAY_NUM ? 1 : 0) |
			    (c->flags & DISPLAY_TREE ? 2 : 0) |
			    (c->flags & DISPLAY_DIM ? 4 : 0)], f);
			if (c->flags & DISPLAY_TREE) {
				fputs(" data-depth=\"", f);
				html_uint(f, c->indent);
				fputc('"', f);
			}
			fputc('>', f);
			if (c->flags & DISPLAY_TREE)
				html_tree(f, c, ctx);
			if (c->link != NULL) {
				fputs("<a", f);
				html_href(f, c->link, ctx);
				fputc('>', f);
			}
			if (c->flags & DISPLAY_STRONG)
				fputs("<strong>", f);
			escape_html(f, c->text ? c->text : "");
			if (c->flags & DISPLAY_STRONG)
				fputs("</strong>", f);
			if (c->link != NULL)
				fputs("</a>", f);
			if (c->aux != NULL) {
				fputs(" <a class=\"aux\"", f);
				html_href(f, c->aux, ctx);
				fputc('>', f);
				escape_html(f, c->auxtext ? c->auxtext : "");
				fputs("</a>", f);
			}
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody>\n</table>\n", f);
}

static int
html_render(FILE *f, const json_t *j, const struct display *d,
    const struct render_context *ctx)
{
	const struct display_block	*b;
	size_t				 i, k;

	html_begin(f, d->title, ctx);
	for (i = 0; i < d->nblocks; i++) {
		b = &d->blocks[i];
		switch (b->kind) {
		case DISPLAY_HEADING:
			fputs("<h2>", f);
			escape_html(f, b->text);
			fputs("</h2>\n", f);
			break;
		case DISPLAY_TEXT:
			fputs("<p>", f);
			escape_html(f, b->text);
			fputs("</p>\n", f);
			break;
		case DISPLAY_LINKS:
			fputs("<ul class=\"links\">\n", f);
			for (k = 0; k < b->nrows; k++) {
				fputs("<li><a", f);
				html_href(f, b->cells[k].link ?
				    b->cells[k].link : "", ctx);
				fputc('>', f);
				escape_html(f, b->cells[k].text);
				fputs("</a></li>\n", f);
			}
			fputs("</ul>\n", f);
			break;
		case DISPLAY_CRUMBS:
			/* Each crumb pops what follows it; the last is here. */
			fputs("<nav class=\"crumbs\"><ol>\n", f);
			for (k = 0; k < b->nrows; k++) {
				if (b->cells[k].link == NULL) {
					fputs("<li aria-current=\"page\">", f);
					escape_html(f, b->cells[k].text);
					fputs("</li>\n", f);
					continue;
				}
				fputs("<li><a", f);
				html_href(f, b->cells[k].link, ctx);
				fputs(" title=\"pop the transforms after this\">",
				    f);
				escape_html(f, b->cells[k].text);
				fputs("</a></li>\n", f);
			}
			fputs("</ol></nav>\n", f);
			break;
		case DISPLAY_TABLE:
			html_table(f, b, ctx);
			break;
		case DISPLAY_FORM:
			if (b->nrows == 0)
				break;
			fputs("<form method=\"post\" action=\"", f);
			escape_html(f, ctx->link_base ? ctx->link_base : "?");
			escape_html(f, b->cells[0].link ? b->cells[0].link :
			    "");
			fputs("\"><button type=\"submit\">", f);
			escape_html(f, b->text);
			fputs("</button></form>\n", f);
			break;
		}
	}
	html_end(f, ctx);
	return (ferror(f) ? -1 : 0);
}

static int
html_error(FILE *f, int status, const char *message,
    const struct render_context *ctx)
{
	char	 title[32];

	snprintf(title, sizeof title, "Error %d", status);
	html_begin(f, title, ctx);
	fputs("<p class=\"error\">", f);
	escape_html(f, message);
	fputs("</p>\n", f);
	html_end(f, ctx);
	return (ferror(f) ? -1 : 0);
}
