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

#include <sys/types.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "answer.h"
#include "catalog.h"
#include "escape.h"
#include "outbuf.h"
#include "page.h"
#include "render.h"
#include "svgdoc.h"
#include "utf8.h"

/* Answers and error pages (see answer.h). */

static int	answer_error_html(struct outbuf *, int, const char *,
		    const struct render_context *);
static int	answer_error_json(struct outbuf *, int, const char *,
		    const char *, json_t *);
static int	answer_error_text(struct outbuf *, int, const char *,
		    const struct render_context *);
static int	answer_error_svg(struct outbuf *, int, const char *,
		    const struct render_context *);

/*
 * The format= of a query string that may not parse, so that an error is
 * answered in the format asked for: the last format= that names one of
 * the catalog's (a form's repeated key, as most parsers read it), else
 * html.
 */
enum catalog_fmt
answer_guess_format(const char *qs)
{
	enum catalog_fmt	 fmt = FMT_HTML;
	const char		*p, *v;
	size_t			 n;
	int			 i;

	for (p = qs; p != NULL && (p = strstr(p, "format=")) != NULL;
	    p += 7) {
		if (p != qs && p[-1] != '&' && p[-1] != ';')
			continue;
		v = p + 7;
		n = strcspn(v, "&;");
		for (i = 0; i < FMT_N; i++) {
			if (strlen(catalog_formats[i].name) == n &&
			    strncmp(v, catalog_formats[i].name, n) == 0)
				fmt = i;
		}
	}
	return (fmt);
}

static int
answer_error_html(struct outbuf *ob, int status, const char *message,
    const struct render_context *ctx)
{
	char		 title[32];

	snprintf(title, sizeof title, "Error %d", status);
	page_begin(ob, title, ctx, NULL);
	outbuf_puts(ob, "<p class=\"error\">");
	escape_html_buf(ob, message, strlen(message));
	outbuf_puts(ob, "</p>\n");
	/* What to try, with the header's links to start again from. */
	if (status == 503 && strstr(message, "loading") == NULL)
		outbuf_puts(ob, "<p class=\"hint\">This query needs more work "
		    "than one query may take. Try a lighter view of the same "
		    "profile: collapse recursion (add <code>~rec</code> to "
		    "<code>t=</code>), a depth limit (<code>maxdepth=</code> on "
		    "a flame graph, <code>depth=</code> on the tree), fewer rows "
		    "(<code>limit=</code>), or the top functions (Top, above), "
		    "whose table stays small inverted or not.</p>\n");
	else if (status == 400 || status == 422)
		outbuf_puts(ob, "<p class=\"hint\">Check the query's keys "
		    "and values (deepq-query(7)); the links above start again "
		    "from the profile's pages.</p>\n");
	else if (status == 404)
		outbuf_puts(ob, "<p class=\"hint\">The index (deepq, above) "
		    "lists the profiles there are.</p>\n");
	page_end(ob, ctx);
	return (outbuf_failed(ob));
}

/*
 * {"deepq":1,"error":{"status":S,"message":M}}, and key: extra when
 * given (taken), as the JSON renderer writes it: compact, ASCII, DEL
 * escaped too.
 */
static int
answer_error_json(struct outbuf *ob, int status, const char *message,
    const char *key, json_t *extra)
{
	json_t	*j;
	char	*m, *s, *p;
	size_t	 len;

	/* A message may quote the request: make it valid UTF-8 for jansson. */
	if ((m = utf8_sanitize(message, strlen(message), &len)) == NULL) {
		json_decref(extra);
		return (-1);
	}
	j = json_pack("{s:i, s:{s:i, s:s}}", "deepq", ANSWER_JSON_VERSION,
	    "error", "status", status, "message", m);
	free(m);
	if (j == NULL || (extra != NULL && json_object_set_new(j, key,
	    extra) == -1)) {
		json_decref(j);
		return (-1);
	}
	s = json_dumps(j, JSON_COMPACT | JSON_ENSURE_ASCII);
	json_decref(j);
	if (s == NULL)
		return (-1);
	for (p = s; *p != '\0'; p++) {
		if (*p == 0x7f)
			outbuf_puts(ob, "\\u007f");
		else
			outbuf_putc(ob, *p);
	}
	outbuf_putc(ob, '\n');
	free(s);
	return (outbuf_failed(ob));
}

/* One line; control characters from the message become '?'. */
static int
answer_error_text(struct outbuf *ob, int status, const char *message,
    const struct render_context *ctx)
{
	outbuf_printf(ob, "error %d: ", status);
	for (; *message != '\0'; message++)
		outbuf_putc(ob, (unsigned char)*message < 0x20 ||
		    *message == 0x7f ? '?' : *message);
	outbuf_putc(ob, '\n');
	return (outbuf_failed(ob));
}

/* An error as a small SVG, so an <img> or a viewer shows the reason. */
static int
answer_error_svg(struct outbuf *ob, int status, const char *message,
    const struct render_context *ctx)
{
	svgdoc_begin(ob, 800, 60, "error");
	outbuf_printf(ob, "<text x=\"10\" y=\"35\">Error %d: ", status);
	escape_xml(ob, message);
	outbuf_puts(ob, "</text>\n</svg>\n");
	return (outbuf_failed(ob));
}

/*
 * The error answer in format fmt: every error body deepq makes, in the
 * front ends and in the server alike, is made here, as the catalog says
 * the format's errors are (catalog.h, CATALOG_ERROR_*), with its content
 * type. rctx is the page's context (NULL: none). NULL only if out of
 * memory.
 */
struct answer *
answer_error(enum catalog_fmt fmt, int status, const char *message,
    const struct render_context *rctx)
{
	return (answer_error_more(fmt, status, message, rctx, NULL, NULL));
}

/*
 * answer_error() with one more member in a JSON body, key: extra (taken
 * in every case; the other formats have no room for it): what a script
 * needs beside the message (a load's progress).
 */
struct answer *
answer_error_more(enum catalog_fmt fmt, int status, const char *message,
    const struct render_context *rctx, const char *key, json_t *extra)
{
	static const struct render_context none = { "?", NULL, NULL };
	const struct catalog_format	*cf;
	struct outbuf			 ob;
	struct answer			*a;
	int				 r;

	if ((unsigned)fmt >= FMT_N)
		fmt = FMT_HTML;
	cf = &catalog_formats[fmt];
	if (message == NULL)
		message = "out of memory";
	if (rctx == NULL)
		rctx = &none;
	if (cf->error != CATALOG_ERROR_JSON) {
		json_decref(extra);
		extra = NULL;
	}
	if ((a = calloc(1, sizeof *a)) == NULL) {
		json_decref(extra);
		return (NULL);
	}
	a->status = status;
	a->content_type = cf->content_type;
	if ((a->message = strdup(message)) == NULL) {
		json_decref(extra);
		answer_free(a);
		return (NULL);
	}
	outbuf_init(&ob);
	switch (cf->error) {
	case CATALOG_ERROR_JSON:
		r = answer_error_json(&ob, status, message, key, extra);
		break;
	case CATALOG_ERROR_TEXT:
		r = answer_error_text(&ob, status, message, rctx);
		break;
	case CATALOG_ERROR_SVG:
		r = answer_error_svg(&ob, status, message, rctx);
		break;
	default:
		r = answer_error_html(&ob, status, message, rctx);
		break;
	}
	if (r == -1 || (a->body = outbuf_take(&ob, &a->len)) == NULL) {
		outbuf_clear(&ob);
		answer_free(a);
		return (NULL);
	}
	return (a);
}

/* Free an answer. */
void
answer_free(struct answer *a)
{
	if (a == NULL)
		return;
	free(a->body);
	free(a->message);
	free(a);
}
