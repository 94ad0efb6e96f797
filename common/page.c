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

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "outbuf.h"
#include "page.h"
#include "query.h"
#include "render.h"

/* The HTML page frame (see page.h). */

static void	page_escape(struct outbuf *, const char *);
static void	page_href(struct outbuf *, const char *,
		    const struct render_context *);
static int	page_nav_link(const struct render_context *, const char *,
		    char **);

static void
page_escape(struct outbuf *ob, const char *s)
{
	escape_html_buf(ob, s, strlen(s));
}

/* href="BASE+LINK" with the attribute escaped. */
static void
page_href(struct outbuf *ob, const char *link,
    const struct render_context *ctx)
{
	outbuf_puts(ob, " href=\"");
	page_escape(ob, ctx->link_base ? ctx->link_base : "?");
	page_escape(ob, link);
	outbuf_putc(ob, '"');
}

/*
 * The link to a report of the current file, built like every other link
 * (query_format), for the navigation bar: 0 with *link (NULL when the
 * file's name cannot be in a link), -1 if out of memory.
 */
static int
page_nav_link(const struct render_context *ctx, const char *cmd,
    char **link)
{
	struct query	*q;
	char		*cause = NULL;
	int		 r = 0;

	*link = NULL;
	if ((q = query_create()) == NULL)
		return (-1);
	if (ctx->file != NULL &&
	    query_set(q, QUERY_FILE, ctx->file, &cause) == -1) {
		if (cause == NULL || strcmp(cause, "out of memory") == 0)
			r = -1;
	} else if (cmd != NULL && query_set(q, QUERY_CMD, cmd, NULL) == -1)
		r = -1;
	else if ((*link = query_format(q)) == NULL)
		r = -1;
	free(cause);
	query_free(q);
	return (r);
}

void
page_begin(struct outbuf *ob, const char *title,
    const struct render_context *ctx)
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

	outbuf_puts(ob, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n"
	    "<meta name=\"viewport\" content=\"width=device-width, "
	    "initial-scale=1\">\n"
	    "<meta name=\"referrer\" content=\"no-referrer\">\n<title>");
	page_escape(ob, title);
	if (ctx->file != NULL) {
		outbuf_puts(ob, " - ");
		page_escape(ob, ctx->file);
	}
	outbuf_puts(ob, " - deepq</title>\n");
	if (ctx->static_base != NULL) {
		outbuf_puts(ob, "<link rel=\"stylesheet\" href=\"");
		page_escape(ob, ctx->static_base);
		outbuf_puts(ob, "deepq.css\">\n<link rel=\"icon\" href=\"");
		page_escape(ob, ctx->static_base);
		outbuf_puts(ob, "favicon.svg\" type=\"image/svg+xml\">\n");
	}
	outbuf_puts(ob, "</head>\n<body>\n<header><nav>");
	/* A link lost for want of memory fails the page (a 500). */
	if (page_nav_link(ctx, NULL, &link) == -1)
		ob->error = 1;
	outbuf_puts(ob, "<a class=\"home\"");
	page_href(ob, link ? link : "", ctx);
	outbuf_puts(ob, ">deepq</a>");
	free(link);
	if (ctx->file != NULL) {
		outbuf_puts(ob, " <span class=\"file\">");
		page_escape(ob, ctx->file);
		outbuf_puts(ob, "</span>");
	}
	for (i = 0; i < sizeof nav / sizeof nav[0]; i++) {
		if (page_nav_link(ctx, nav[i].cmd, &link) == -1)
			ob->error = 1;
		if (link == NULL)
			continue;
		outbuf_puts(ob, " <a");
		page_href(ob, link, ctx);
		outbuf_putc(ob, '>');
		outbuf_puts(ob, nav[i].text);
		outbuf_puts(ob, "</a>");
		free(link);
	}
	outbuf_puts(ob, "</nav></header>\n<main>\n<h1>");
	page_escape(ob, title);
	outbuf_puts(ob, "</h1>\n");
}

void
page_end(struct outbuf *ob, const struct render_context *ctx)
{
	outbuf_puts(ob, "</main>\n");
	if (ctx->static_base != NULL) {
		outbuf_puts(ob, "<script src=\"");
		page_escape(ob, ctx->static_base);
		outbuf_puts(ob, "deepq.js\"></script>\n");
	}
	outbuf_puts(ob, "</body>\n</html>\n");
}
