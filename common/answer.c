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
#include "escape.h"
#include "outbuf.h"
#include "page.h"
#include "render.h"
#include "utf8.h"

/* Answers and error pages (see answer.h). */

static int	answer_error_html(struct outbuf *, int, const char *,
		    const struct render_context *);
static int	answer_error_json(struct outbuf *, int, const char *,
		    const struct render_context *);
static int	answer_error_text(struct outbuf *, int, const char *,
		    const struct render_context *);

/* The error pages, by format= (the first is the default). */
static const struct {
	const char		*format;
	const char		*content_type;
	answer_error_writer	 write;
} answer_errors[] = {
	{ "html", "text/html; charset=utf-8", answer_error_html },
	{ "json", "application/json", answer_error_json },
	{ "text", "text/plain; charset=utf-8", answer_error_text },
};

/*
 * The format= of a query string that may not parse, so an error can be
 * answered as JSON to a script that asked for JSON.
 */
const char *
answer_guess_format(const char *qs)
{
	static const char *const formats[] = { "json", "text", "html" };
	const char	*p;
	size_t		 i, n;

	if (qs == NULL)
		return ("html");
	for (p = qs; (p = strstr(p, "format=")) != NULL; p += 7) {
		if (p != qs && p[-1] != '&' && p[-1] != ';')
			continue;
		for (i = 0; i < sizeof formats / sizeof formats[0]; i++) {
			n = strlen(formats[i]);
			if (strncmp(p + 7, formats[i], n) == 0 &&
			    (p[7 + n] == '\0' || p[7 + n] == '&' ||
			    p[7 + n] == ';'))
				return (formats[i]);
		}
	}
	return ("html");
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
 * {"deepq":1,"error":{"status":S,"message":M}}, as the JSON renderer
 * writes it: compact, ASCII, DEL escaped too.
 */
static int
answer_error_json(struct outbuf *ob, int status, const char *message,
    const struct render_context *ctx)
{
	json_t	*j;
	char	*m, *s, *p;
	size_t	 len;

	/* A message may quote the request: make it valid UTF-8 for jansson. */
	if ((m = utf8_sanitize(message, strlen(message), &len)) == NULL)
		return (-1);
	j = json_pack("{s:i, s:{s:i, s:s}}", "deepq", ANSWER_JSON_VERSION,
	    "error", "status", status, "message", m);
	free(m);
	if (j == NULL)
		return (-1);
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

/*
 * An error answer written by write, with its content type: the engine's
 * formats that have their own error (an SVG image) come this way.
 */
struct answer *
answer_error_write(const char *content_type, answer_error_writer write,
    int status, const char *message, const struct render_context *rctx)
{
	struct render_context	 none = { "?", NULL, NULL };
	struct outbuf		 ob;
	struct answer		*a;

	if ((a = calloc(1, sizeof *a)) == NULL)
		return (NULL);
	a->status = status;
	a->content_type = content_type;
	a->message = strdup(message ? message : "out of memory");
	if (a->message == NULL) {
		answer_free(a);
		return (NULL);
	}
	outbuf_init(&ob);
	if (write(&ob, status, message ? message : "out of memory",
	    rctx ? rctx : &none) == -1) {
		outbuf_clear(&ob);
		answer_free(a);
		return (NULL);
	}
	if ((a->body = outbuf_take(&ob, &a->len)) == NULL) {
		answer_free(a);
		return (NULL);
	}
	return (a);
}

/* An error answer in a format (html if not json or text). */
struct answer *
answer_error(const char *format, int status, const char *message,
    const struct render_context *rctx)
{
	size_t	 i, e = 0;

	for (i = 0; format != NULL &&
	    i < sizeof answer_errors / sizeof answer_errors[0]; i++) {
		if (strcmp(answer_errors[i].format, format) == 0) {
			e = i;
			break;
		}
	}
	return (answer_error_write(answer_errors[e].content_type,
	    answer_errors[e].write, status, message, rctx));
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
