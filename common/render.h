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

#ifndef RENDER_H
#define RENDER_H

/*
 * Renderers: each format is one file, render-<format>.c, exporting a
 * const struct renderer; render.c keeps the table. HTML and text render
 * a display; JSON renders the report itself (with jansson, never printf).
 * Renderers write to a struct outbuf (outbuf.h): the answer's body.
 */

#include <jansson.h>

#include "catalog.h"

struct display;
struct outbuf;

/*
 * The headers every front end sends with an HTML page (the CGI, the
 * server's HTTP side, deepq web): pages load only deepq.css, deepq.js and
 * the favicon from the static directory and have no inline script or
 * style, so this policy breaks nothing; deepq.js fetches tree rows from
 * the page's own origin (connect-src). A front end that serves the
 * static files from another origin adds that origin to style-src,
 * script-src and img-src.
 */
#define RENDER_HTML_CSP	"default-src 'none'; style-src 'self'; " \
			"script-src 'self'; img-src 'self'; " \
			"connect-src 'self'; " \
			"form-action 'self'; base-uri 'none'; " \
			"frame-ancestors 'none'"
/*
 * A flame graph SVG carries its own constant script and style (zoom and
 * search must work when the SVG is opened on its own), so it needs inline
 * script and style; every name in it goes through escape_xml(), and it may
 * load nothing and be framed only by our own pages.
 */
#define RENDER_SVG_CSP	"default-src 'none'; script-src 'unsafe-inline'; " \
			"style-src 'unsafe-inline'; base-uri 'none'; " \
			"frame-ancestors 'self'"
#define RENDER_NOSNIFF	"nosniff"	/* X-Content-Type-Options */

struct render_context {
	const char	*link_base;	/* before a query string in links: "?" */
	const char	*static_base;	/* URL of the www/ assets, or NULL */
	const char	*file;		/* profile's display name, or NULL */
};

/*
 * The code of a format of the catalog (catalog.h: its name, content type,
 * kind and errors): a page's (html, text, and svg, drawn from the
 * flame graph its page carries) or the JSON's (json). The
 * export formats have none: their report writes the body itself
 * (report.h's export).
 */
struct renderer {
	int		 (*render)(struct outbuf *, const json_t *,
			    const struct display *,
			    const struct render_context *);
};

const struct renderer *render_find(enum catalog_fmt);
struct flame_graph;
struct query;
int		 svg_inline(struct outbuf *, const struct flame_graph *,
		     const struct query *, const char *);
const struct flame_graph *svg_graph(const struct display *);

#endif /* RENDER_H */
