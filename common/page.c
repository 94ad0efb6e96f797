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

#include "catalog.h"
#include "escape.h"
#include "outbuf.h"
#include "page.h"
#include "query.h"
#include "render.h"

/* The HTML page frame (see page.h). */

static void	page_escape(struct outbuf *, const char *);
static void	page_hidden_key(struct outbuf *, const struct query *,
		    enum query_key);
static void	page_home(struct outbuf *, const struct render_context *,
		    const struct query *);
static void	page_href(struct outbuf *, const char *,
		    const struct render_context *);
static int	page_nav_tmpl(struct query_tmpl *, struct query *,
		    const struct render_context *, const struct query *);
static void	page_nav(struct outbuf *, const struct render_context *,
		    const struct query_tmpl *, struct query *,
		    enum catalog_cmd, const char *, const char *);
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
	struct query	 v;
	const char	*file = ctx->file;
	char		*link;

	if (self != NULL && *self->file != '\0')
		file = self->file;
	/*
	 * A name that could not be a file= value is left out; the index
	 * is still the index.
	 */
	query_init(&v);
	if (file != NULL && query_key_valid(QUERY_FILE, file) == 0)
		v.file = file;
	v.cmd = CMD_INDEX;
	if ((link = query_format(&v)) == NULL) {
		ob->error = 1;
		return;
	}
	outbuf_puts(ob, "<a class=\"home\"");
	page_href(ob, link, ctx);
	outbuf_puts(ob, " title=\"all profiles\">deepq</a>");
	free(link);
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
 * preferences: the keys flagged QUERY_KEY_STATE in query.c), so moving
 * between reports never drops it. In the order the page shows it, in
 * keys[] (QUERY_NKEYS of them): first the keys that change the call tree
 * itself (QUERY_KEY_TREE), then the others, each in the table's order.
 * Returns their number.
 */
static size_t
page_state_keys(enum query_key *keys)
{
	const struct query_keyinfo	*ki;
	size_t				 n = 0;
	int				 pass, k;

	for (pass = 0; pass < 2; pass++) {
		for (k = 0; k < QUERY_NKEYS; k++) {
			ki = query_keyinfo(k);
			if ((ki->flags & QUERY_KEY_STATE) &&
			    ((ki->flags & QUERY_KEY_TREE) != 0) == (pass == 0))
				keys[n++] = k;
		}
	}
	return (n);
}

/*
 * The template of the links to the current file's reports with the
 * page's view state (self, the page's query, may be NULL), cut at cmd=
 * (query_tmpl_fill() with the report, NULL for the summary): made once,
 * each header link is then a splice. 0, or 1 when the file's name
 * cannot be in a link (no links then), or -1 if out of memory.
 */
static int
page_nav_tmpl(struct query_tmpl *t, struct query *v,
    const struct render_context *ctx, const struct query *self)
{
	const char	*file = ctx->file;
	int		 k;

	memset(t, 0, sizeof *t);
	if (self != NULL && *self->file != '\0')
		file = self->file;
	if (file == NULL || query_key_valid(QUERY_FILE, file) == -1)
		return (1);
	query_init(v);
	for (k = 0; self != NULL && k < QUERY_NKEYS; k++) {
		if (query_keyinfo(k)->flags & QUERY_KEY_STATE)
			query_key_copy(v, self, k);
	}
	v->file = file;
	return (query_tmpl_init(t, v, QUERY_CMD, 1) == -1 ? -1 : 0);
}

/* <a href="LINK">TEXT</a>, the template filled with cmd from v. */
static void
page_nav(struct outbuf *ob, const struct render_context *ctx,
    const struct query_tmpl *t, struct query *v, enum catalog_cmd cmd,
    const char *attrs, const char *text)
{
	char	*link;

	v->cmd = cmd;
	if ((link = query_tmpl_fill(t, v)) == NULL) {
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

/* A hidden field of key k's value in self. */
static void
page_hidden_key(struct outbuf *ob, const struct query *self, enum query_key k)
{
	char	*v;

	if ((v = query_key_text(self, k)) == NULL) {
		ob->error = 1;
		return;
	}
	page_hidden(ob, k, v);
	free(v);
}

/*
 * <input type="hidden" name=KEY value=VALUE>; a repeated key's values
 * (QUERY_KEY_REPEAT, joined by '\n') a field each.
 */
void
page_hidden(struct outbuf *ob, enum query_key k, const char *v)
{
	const char	*nl;
	char		*piece;

	while ((query_keyinfo(k)->flags & QUERY_KEY_REPEAT) &&
	    (nl = strchr(v, '\n')) != NULL) {
		if ((piece = strndup(v, (size_t)(nl - v))) == NULL) {
			ob->error = 1;
			return;
		}
		page_hidden(ob, k, piece);
		free(piece);
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
	enum query_key	 keys[QUERY_NKEYS];
	size_t		 i, n;

	n = page_state_keys(keys);
	for (i = 0; self != NULL && i < n; i++) {
		if (keys[i] != QUERY_BASE && keys[i] != QUERY_NORMALIZE &&
		    query_key_isset(self, keys[i]))
			page_hidden_key(ob, self, keys[i]);
	}
}

/* The options of a profile list, selected the one named sel (or none). */
static void
page_compare_options(struct outbuf *ob, const char *const *names, size_t n,
    const char *sel)
{
	size_t	 i;
	int	 found = 0;

	for (i = 0; sel != NULL && i < n && !found; i++)
		found = strcmp(names[i], sel) == 0;
	outbuf_puts(ob, found ? "<option value=\"\">" :
	    "<option value=\"\" selected>");
	outbuf_puts(ob, "choose a profile</option>");
	for (i = 0; i < n; i++) {
		outbuf_puts(ob, found && strcmp(names[i], sel) == 0 ?
		    "<option selected>" : "<option>");
		page_escape(ob, names[i]);
		outbuf_puts(ob, "</option>");
	}
}

/*
 * The index's form that starts a comparison: the profile (file, when a
 * summary sent the user here, else none) and the base, each picked from
 * the list of the n profiles, never preselected for the user; it opens
 * the top functions by the change of their total, normalised unless
 * asked otherwise.
 */
void
page_compare(struct outbuf *ob, const struct render_context *ctx,
    const char *const *names, size_t n, const char *file)
{
	outbuf_puts(ob, "<form class=\"compare\" id=\"compare\" "
	    "method=\"get\" action=\"");
	page_escape(ob, ctx->link_base ? ctx->link_base : "?");
	outbuf_puts(ob, "\"><h2>Compare two profiles</h2>\n<label>Profile "
	    "<select name=\"file\" required>");
	page_compare_options(ob, names, n, file);
	outbuf_puts(ob, "</select></label>\n <label>with the base <select "
	    "name=\"base\" required>");
	page_compare_options(ob, names, n, NULL);
	outbuf_puts(ob, "</select></label>\n"
	    "<label><input type=\"checkbox\" name=\"normalize\" "
	    "value=\"0\"> raw totals (not normalised)</label>\n"
	    "<input type=\"hidden\" name=\"cmd\" value=\"top\">"
	    "<input type=\"hidden\" name=\"sort\" value=\"delta\">"
	    "<button type=\"submit\">Compare</button></form>\n");
}

/*
 * A summary's start of a comparison. The server knows its profile, not
 * the others: the base is picked from the index's list, which the front
 * end makes, with this profile already chosen (the link below, all that
 * shows without JavaScript); deepq.js puts that list here instead, in a
 * form that keeps the view state (self's).
 */
void
page_compare_pick(struct outbuf *ob, const struct render_context *ctx,
    const char *file, const struct query *self)
{
	struct query	*q;
	char		*link = NULL;

	if ((q = query_create()) == NULL ||
	    query_set(q, QUERY_FILE, file, NULL) == -1 ||
	    query_set(q, QUERY_CMD, "index", NULL) == -1 ||
	    (link = query_format(q)) == NULL) {
		query_free(q);
		ob->error = 1;
		return;
	}
	query_free(q);
	outbuf_puts(ob, "<form class=\"compare\" id=\"compare\" "
	    "method=\"get\" action=\"");
	page_escape(ob, ctx->link_base ? ctx->link_base : "?");
	outbuf_puts(ob, "\">");
	page_hidden(ob, QUERY_FILE, file);
	/* The page's view state goes on, as with every link. */
	page_state_hidden(ob, self);
	outbuf_puts(ob, "<input type=\"hidden\" name=\"cmd\" value=\"top\">"
	    "<input type=\"hidden\" name=\"sort\" value=\"delta\">"
	    "<p>Compare with a base: <a data-profiles=\"1\"");
	outbuf_puts(ob, " href=\"");
	page_escape(ob, ctx->link_base ? ctx->link_base : "?");
	page_escape(ob, link);
	outbuf_puts(ob, "#compare\">pick it from the profiles</a></p>"
	    "</form>\n");
	free(link);
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
	enum query_key	 keys[QUERY_NKEYS];
	size_t		 i, n;

	if (self != NULL && *self->file != '\0')
		file = self->file;
	if (file == NULL)
		return;
	outbuf_puts(ob, "<form class=\"search\" role=\"search\" "
	    "method=\"get\" action=\"");
	page_escape(ob, ctx->link_base ? ctx->link_base : "?");
	outbuf_puts(ob, "\">");
	page_hidden(ob, QUERY_FILE, file);
	n = page_state_keys(keys);
	for (i = 0; self != NULL && i < n; i++) {
		if (query_key_isset(self, keys[i]))
			page_hidden_key(ob, self, keys[i]);
	}
	page_hidden(ob, QUERY_CMD, catalog_reports[CMD_SEARCH].name);
	outbuf_puts(ob, "<input type=\"search\" name=\"find\" "
	    "placeholder=\"Search functions\" aria-label=\"Search functions "
	    "(substring or regex)\" title=\"substring or regex; / focuses\"");
	if (self != NULL && *self->find != '\0') {
		outbuf_puts(ob, " value=\"");
		page_escape(ob, self->find);
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
	struct query	 c;
	enum query_key	 keys[QUERY_NKEYS];
	char		*link, *v;
	size_t		 i, j, nkeys, n = 0;
	int		 k, flags, tree;

	if (self == NULL)
		return;
	nkeys = page_state_keys(keys);
	for (i = 0; i < nkeys; i++)
		n += query_key_isset(self, keys[i]) != 0;
	if (n == 0)
		return;
	outbuf_puts(ob, "<nav class=\"state\" aria-label=\"view state\">"
	    "View:");
	/* i == nkeys: the link that clears them all. */
	for (i = 0; i <= nkeys; i++) {
		if (i < nkeys && !query_key_isset(self, keys[i]))
			continue;
		c = *self;
		for (j = 0; j < nkeys; j++) {
			if (i == j || i == nkeys)
				query_key_reset(&c, keys[j]);
		}
		/*
		 * The tree changed: its nodes (path=, open=, close=) are
		 * gone; the rows changed: back to the first.
		 */
		tree = i == nkeys ||
		    (query_keyinfo(keys[i])->flags & QUERY_KEY_TREE);
		for (k = 0; k < QUERY_NKEYS; k++) {
			flags = query_keyinfo(k)->flags;
			if ((tree && (flags & QUERY_KEY_NODE)) ||
			    (flags & QUERY_KEY_ROW))
				query_key_reset(&c, k);
		}
		if ((link = query_format(&c)) == NULL) {
			ob->error = 1;
			return;
		}
		if (i == nkeys) {
			outbuf_puts(ob, " <a class=\"clear\"");
			page_href(ob, link, ctx);
			outbuf_puts(ob, ">clear all</a>");
		} else {
			outbuf_puts(ob, " <span class=\"chip\"><code>");
			outbuf_puts(ob, query_keyinfo(keys[i])->name);
			outbuf_putc(ob, '=');
			if ((v = query_key_text(self, keys[i])) == NULL) {
				ob->error = 1;
				free(link);
				return;
			}
			page_escape(ob, v);
			free(v);
			outbuf_puts(ob, "</code> <a");
			page_href(ob, link, ctx);
			outbuf_puts(ob, " title=\"drop ");
			outbuf_puts(ob, query_keyinfo(keys[i])->name);
			outbuf_puts(ob, "=\" aria-label=\"drop ");
			outbuf_puts(ob, query_keyinfo(keys[i])->name);
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
	struct query_tmpl	 t;
	struct query		 v;
	int			 r, pos, i;

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
	if ((r = page_nav_tmpl(&t, &v, ctx, self)) == -1)
		ob->error = 1;
	else if (r == 0) {
		page_nav(ob, ctx, &t, &v, CMD_MENU,
		    " class=\"file\" title=\"summary\"",
		    self != NULL && *self->file != '\0' ? self->file :
		    ctx->file);
		/* The catalog's reports in the header, in their places. */
		for (pos = 1; pos < CMD_N; pos++) {
			for (i = 0; i < CMD_N; i++) {
				if (catalog_reports[i].nav == pos)
					page_nav(ob, ctx, &t, &v, i, "",
					    catalog_reports[i].nav_text);
			}
		}
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
