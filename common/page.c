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
#include "utf8.h"

/* The HTML page frame (see page.h). */

static void	page_escape(struct outbuf *, const char *);
static void	page_home(struct outbuf *, const struct render_context *,
		    const struct query *);
static void	page_href(struct outbuf *, const char *,
		    const struct render_context *);
static int	page_nav_tmpl(struct query_tmpl *,
		    const struct render_context *, const struct query *);
static void	page_nav(struct outbuf *, const struct render_context *,
		    const struct query_tmpl *, const char *, const char *,
		    const char *);
static void	page_search(struct outbuf *, const struct render_context *,
		    const struct query *);
static void	page_state(struct outbuf *, const struct render_context *,
		    const struct query *);

/*
 * The link to the profile index: cmd=index, which every front end
 * answers without a server (deepq web and a deepq.cgi that lists
 * profiles with the list, a deepq.cgi with index_url by sending the
 * browser there, any other with a page that says so and links back to
 * the file, which is why the link names it).
 */
static void
page_home(struct outbuf *ob, const struct render_context *ctx,
    const struct query *self)
{
	const char	*file = ctx->file;
	char		*enc;

	if (self != NULL && query_isset(self, QUERY_FILE))
		file = query_str(self, QUERY_FILE);
	outbuf_puts(ob, "<a class=\"home\" href=\"");
	page_escape(ob, ctx->link_base ? ctx->link_base : "?");
	/*
	 * The canonical order (file= first) by hand: every page has this
	 * link. A name that could not be a file= value is left out; the
	 * index is still the index.
	 */
	if (file != NULL && *file != '\0' &&
	    (int64_t)strlen(file) <= query_keyinfo(QUERY_FILE)->max &&
	    utf8_valid(file, strlen(file))) {
		if ((enc = query_urlencode(file)) == NULL) {
			ob->error = 1;
			return;
		}
		outbuf_puts(ob, "file=");
		page_escape(ob, enc);
		outbuf_puts(ob, "&amp;");
		free(enc);
	}
	outbuf_puts(ob, "cmd=index\" title=\"all profiles\">deepq</a>");
}

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
 * The view state: what every link of the header keeps from the page
 * (the transforms and filters, the comparison, the metric and the
 * preferences), so moving between reports never drops it. The first
 * PAGE_TREE_STATE keys change the call tree itself: removing one makes
 * the page's path= and open= meaningless.
 */
#define PAGE_TREE_STATE	10
static const enum query_key page_state_keys[] = {
	QUERY_BASE, QUERY_T, QUERY_FOCUS, QUERY_IGNORE, QUERY_HIDE,
	QUERY_SHOW, QUERY_MIN_TICKS, QUERY_MIN_WORDS, QUERY_EXCLUDE,
	QUERY_NORMALIZE, QUERY_RANGE, QUERY_THREAD, QUERY_BASE_RANGE,
	QUERY_METRIC, QUERY_LIMIT, QUERY_FIELDS, QUERY_UNITS,
	QUERY_PCT, QUERY_AVG, QUERY_PALETTE,
};
#define PAGE_NSTATE	(sizeof page_state_keys / sizeof page_state_keys[0])

/*
 * The template of the links to the current file's reports with the
 * page's view state (self, the page's query, may be NULL), cut at cmd=
 * (query_tmpl_fill() with the report, NULL for the summary): made once,
 * each header link is then a splice. 0, or 1 when the file's name
 * cannot be in a link (no links then), or -1 if out of memory.
 */
static int
page_nav_tmpl(struct query_tmpl *t, const struct render_context *ctx,
    const struct query *self)
{
	struct query	*q;
	char		*cause = NULL;
	const char	*file = ctx->file;
	size_t		 i;
	int		 r = 0;

	memset(t, 0, sizeof *t);
	if (self != NULL && query_isset(self, QUERY_FILE))
		file = query_str(self, QUERY_FILE);
	if (file == NULL)
		return (1);
	if ((q = query_create()) == NULL)
		return (-1);
	for (i = 0; self != NULL && i < PAGE_NSTATE; i++) {
		if (query_isset(self, page_state_keys[i]) &&
		    query_set(q, page_state_keys[i], query_str(self,
		    page_state_keys[i]), NULL) == -1)
			r = -1;
	}
	if (r == -1)
		;
	else if (query_set(q, QUERY_FILE, file, &cause) == -1)
		r = cause == NULL || strcmp(cause, "out of memory") == 0 ?
		    -1 : 1;
	else if (query_tmpl_init(t, q, NULL, 0, QUERY_CMD, 1) == -1)
		r = -1;
	free(cause);
	query_free(q);
	return (r);
}

/* <a href="LINK">TEXT</a>, the template filled with cmd. */
static void
page_nav(struct outbuf *ob, const struct render_context *ctx,
    const struct query_tmpl *t, const char *cmd, const char *attrs,
    const char *text)
{
	char	*link;

	if ((link = query_tmpl_fill(t, &cmd)) == NULL) {
		ob->error = 1;
		return;
	}
	outbuf_puts(ob, " <a");
	outbuf_puts(ob, attrs);
	page_href(ob, link, ctx);
	outbuf_putc(ob, '>');
	page_escape(ob, text);
	outbuf_puts(ob, "</a>");
	free(link);
}

/* <input type="hidden" name=KEY value=VALUE>. */
void
page_hidden(struct outbuf *ob, enum query_key k, const char *v)
{
	const char	*nl;

	/* A repeated key (thread=): a field a value. */
	while (query_keyinfo(k)->repeat && (nl = strchr(v, '\n')) != NULL) {
		outbuf_puts(ob, "<input type=\"hidden\" name=\"");
		outbuf_puts(ob, query_keyinfo(k)->name);
		outbuf_puts(ob, "\" value=\"");
		escape_html_buf(ob, v, nl - v);
		outbuf_puts(ob, "\">");
		v = nl + 1;
	}
	outbuf_puts(ob, "<input type=\"hidden\" name=\"");
	outbuf_puts(ob, query_keyinfo(k)->name);
	outbuf_puts(ob, "\" value=\"");
	page_escape(ob, v);
	outbuf_puts(ob, "\">");
}

/*
 * The view state of self (may be NULL) as hidden fields, for a form
 * that starts a comparison: all of it but base= and normalize=, which
 * the form asks for.
 */
void
page_state_hidden(struct outbuf *ob, const struct query *self)
{
	size_t	 i;

	for (i = 0; self != NULL && i < PAGE_NSTATE; i++) {
		if (page_state_keys[i] != QUERY_BASE &&
		    page_state_keys[i] != QUERY_NORMALIZE &&
		    query_isset(self, page_state_keys[i]))
			page_hidden(ob, page_state_keys[i],
			    query_str(self, page_state_keys[i]));
	}
}

/*
 * The search field of every profile page: a GET form that keeps the
 * view state in hidden fields and asks cmd=search (deepq.js focuses it
 * on '/').
 */
static void
page_search(struct outbuf *ob, const struct render_context *ctx,
    const struct query *self)
{
	const char	*file = ctx->file;
	size_t		 i;

	if (self != NULL && query_isset(self, QUERY_FILE))
		file = query_str(self, QUERY_FILE);
	if (file == NULL)
		return;
	outbuf_puts(ob, "<form class=\"search\" role=\"search\" "
	    "method=\"get\" action=\"");
	page_escape(ob, ctx->link_base ? ctx->link_base : "?");
	outbuf_puts(ob, "\">");
	page_hidden(ob, QUERY_FILE, file);
	for (i = 0; self != NULL && i < PAGE_NSTATE; i++) {
		if (query_isset(self, page_state_keys[i]))
			page_hidden(ob, page_state_keys[i],
			    query_str(self, page_state_keys[i]));
	}
	page_hidden(ob, QUERY_CMD, "search");
	outbuf_puts(ob, "<input type=\"search\" name=\"find\" "
	    "placeholder=\"Search functions\" aria-label=\"Search functions "
	    "(substring or regex)\" title=\"substring or regex; / focuses\"");
	if (self != NULL && query_isset(self, QUERY_FIND)) {
		outbuf_puts(ob, " value=\"");
		page_escape(ob, query_str(self, QUERY_FIND));
		outbuf_putc(ob, '"');
	}
	outbuf_puts(ob, "></form>");
}

/*
 * The state bar: each key of the view state the page has, with a link
 * that drops it, and one that drops them all. Nothing when there is
 * none.
 */
static void
page_state(struct outbuf *ob, const struct render_context *ctx,
    const struct query *self)
{
	struct query	*c;
	char		*link;
	size_t		 i, j, n = 0;

	for (i = 0; self != NULL && i < PAGE_NSTATE; i++)
		n += query_isset(self, page_state_keys[i]) != 0;
	if (n == 0)
		return;
	outbuf_puts(ob, "<nav class=\"state\" aria-label=\"view state\">"
	    "View:");
	/* i == PAGE_NSTATE: the link that clears them all. */
	for (i = 0; i <= PAGE_NSTATE; i++) {
		if (i < PAGE_NSTATE && !query_isset(self, page_state_keys[i]))
			continue;
		if ((c = query_copy(self)) == NULL) {
			ob->error = 1;
			return;
		}
		for (j = 0; j < PAGE_NSTATE; j++) {
			if (i == j || i == PAGE_NSTATE)
				query_unset(c, page_state_keys[j]);
		}
		if (i < PAGE_TREE_STATE || i == PAGE_NSTATE) {
			query_unset(c, QUERY_PATH);
			query_unset(c, QUERY_OPEN);
			query_unset(c, QUERY_CLOSE);
		}
		query_unset(c, QUERY_FROM);
		link = query_format(c);
		query_free(c);
		if (link == NULL) {
			ob->error = 1;
			return;
		}
		if (i == PAGE_NSTATE) {
			outbuf_puts(ob, " <a class=\"clear\"");
			page_href(ob, link, ctx);
			outbuf_puts(ob, ">clear all</a>");
		} else {
			outbuf_puts(ob, " <span class=\"chip\"><code>");
			outbuf_puts(ob, query_keyinfo(page_state_keys[i])->name);
			outbuf_putc(ob, '=');
			page_escape(ob, query_str(self, page_state_keys[i]));
			outbuf_puts(ob, "</code> <a");
			page_href(ob, link, ctx);
			outbuf_puts(ob, " title=\"drop ");
			outbuf_puts(ob, query_keyinfo(page_state_keys[i])->name);
			outbuf_puts(ob, "=\" aria-label=\"drop ");
			outbuf_puts(ob, query_keyinfo(page_state_keys[i])->name);
			outbuf_puts(ob, "=\">&#215;</a></span>");
		}
		free(link);
	}
	outbuf_puts(ob, "</nav>\n");
}

void
page_begin(struct outbuf *ob, const char *title,
    const struct render_context *ctx, const struct query *self)
{
	static const struct {
		const char	*cmd;
		const char	*text;
	} nav[] = {
		{ "top", "Top" }, { "tree", "Tree" }, { "flame", "Flame" },
		{ "modules", "Modules" }, { "cliques", "Cliques" },
	};
	struct query_tmpl	 t;
	size_t			 i;
	int			 r;

	outbuf_puts(ob, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n"
	    "<meta name=\"viewport\" content=\"width=device-width, "
	    "initial-scale=1\">\n"
	    /*
	     * same-origin, not no-referrer: under no-referrer Chromium
	     * sends "Origin: null" with the shutdown form's POST, which
	     * the cross-site check must refuse.
	     */
	    "<meta name=\"referrer\" content=\"same-origin\">\n<title>");
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
	/* "deepq" is the index of profiles; the file's name its summary. */
	outbuf_puts(ob, "</head>\n<body>\n<header><nav>");
	page_home(ob, ctx, self);
	/* A link lost for want of memory fails the page (a 500). */
	if ((r = page_nav_tmpl(&t, ctx, self)) == -1)
		ob->error = 1;
	else if (r == 0) {
		page_nav(ob, ctx, &t, NULL, " class=\"file\" title=\"summary\"",
		    self != NULL && query_isset(self, QUERY_FILE) ?
		    query_str(self, QUERY_FILE) : ctx->file);
		for (i = 0; i < sizeof nav / sizeof nav[0]; i++)
			page_nav(ob, ctx, &t, nav[i].cmd, "", nav[i].text);
	}
	query_tmpl_clear(&t);
	outbuf_puts(ob, "</nav>");
	page_search(ob, ctx, self);
	outbuf_puts(ob, "</header>\n");
	page_state(ob, ctx, self);
	outbuf_puts(ob, "<main>\n<h1>");
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
