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
#include <stdio_ext.h>
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

/*
 * An answer's body as it is written: a buffer that doubles, behind a
 * FILE the renderers write to (fopencookie). open_memstream did the same
 * but cleared every byte it grew by and copied the body once more on
 * each growth, a tenth of a warm tree page's instructions.
 */
#define ANSWER_BODY_MIN	16384

static ssize_t	answer_body_write(void *, const char *, size_t);
static int	answer_error_html(FILE *, int, const char *,
		    const struct render_context *);
static int	answer_error_json(FILE *, int, const char *,
		    const struct render_context *);
static int	answer_error_text(FILE *, int, const char *,
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

/* The stream's write: append, the body kept NUL-terminated. */
static ssize_t
answer_body_write(void *cookie, const char *buf, size_t len)
{
	struct answer_body	*ab = cookie;
	size_t			 cap;
	char			*b;

	if (ab->failed)
		return (0);
	/*
	 * Rendering a big page takes time too: past the query's deadline
	 * it stops, as the report would have.
	 */
	if (ab->check != NULL && ab->n - ab->checked >= ANSWER_BODY_CHECK) {
		ab->checked = ab->n;
		if (ab->check(ab->check_arg) == -1) {
			ab->failed = 1;
			return (0);
		}
	}
	if (len >= ab->cap - ab->n) {
		cap = ab->cap ? ab->cap : ANSWER_BODY_MIN;
		while (len >= cap - ab->n) {
			if (cap > SIZE_MAX / 2) {
				ab->failed = 1;
				return (0);
			}
			cap *= 2;
		}
		if ((b = realloc(ab->b, cap)) == NULL) {
			ab->failed = 1;
			return (0);
		}
		ab->b = b;
		ab->cap = cap;
	}
	memcpy(ab->b + ab->n, buf, len);
	ab->n += len;
	ab->b[ab->n] = '\0';
	return (len);
}

/* A stream into ab; NULL if out of memory. */
FILE *
answer_body_open(struct answer_body *ab)
{
	static const cookie_io_functions_t	 io = {
		.write = answer_body_write,
	};
	FILE					*f;

	memset(ab, 0, sizeof *ab);
	if ((f = fopencookie(ab, "w", io)) == NULL)
		return (NULL);
	/*
	 * The stream is this call's alone: skip stdio's lock, taken on
	 * each of the thousands of small writes a page makes.
	 */
	__fsetlocking(f, FSETLOCKING_BYCALLER);
	return (f);
}

/*
 * Close the stream and give its body to a (a->body, a->len): -1 if any
 * write failed (ab's buffer freed then).
 */
int
answer_body_close(FILE *f, struct answer_body *ab, struct answer *a)
{
	char	*b;

	if (fclose(f) != 0 || ab->failed) {
		free(ab->b);
		return (-1);
	}
	/* An empty body is still a string. */
	if (ab->b == NULL && (ab->b = calloc(1, 1)) == NULL)
		return (-1);
	/* Give back the doubling's slack of a big body. */
	if (ab->cap - ab->n > ANSWER_BODY_MIN &&
	    (b = realloc(ab->b, ab->n + 1)) != NULL)
		ab->b = b;
	a->body = ab->b;
	a->len = ab->n;
	return (0);
}

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
answer_error_html(FILE *f, int status, const char *message,
    const struct render_context *ctx)
{
	struct outbuf	 buf, *ob = &buf;
	char		 title[32];

	outbuf_init(ob, f);
	snprintf(title, sizeof title, "Error %d", status);
	page_begin(ob, title, ctx, NULL);
	outbuf_puts(ob, "<p class=\"error\">");
	escape_html_buf(ob, message, strlen(message));
	outbuf_puts(ob, "</p>\n");
	page_end(ob, ctx);
	return (outbuf_flush(ob));
}

/*
 * {"deepq":1,"error":{"status":S,"message":M}}, as the JSON renderer
 * writes it: compact, ASCII, DEL escaped too.
 */
static int
answer_error_json(FILE *f, int status, const char *message,
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
			fputs("\\u007f", f);
		else
			fputc(*p, f);
	}
	fputc('\n', f);
	free(s);
	return (ferror(f) ? -1 : 0);
}

/* One line; control characters from the message become '?'. */
static int
answer_error_text(FILE *f, int status, const char *message,
    const struct render_context *ctx)
{
	fprintf(f, "error %d: ", status);
	for (; *message != '\0'; message++)
		fputc((unsigned char)*message < 0x20 || *message == 0x7f ?
		    '?' : *message, f);
	fputc('\n', f);
	return (ferror(f) ? -1 : 0);
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
	struct answer_body	 ab;
	struct answer		*a;
	FILE			*f;

	if ((a = calloc(1, sizeof *a)) == NULL)
		return (NULL);
	a->status = status;
	a->content_type = content_type;
	a->message = strdup(message ? message : "out of memory");
	if (a->message == NULL || (f = answer_body_open(&ab)) == NULL) {
		answer_free(a);
		return (NULL);
	}
	if (write(f, status, message ? message : "out of memory",
	    rctx ? rctx : &none) == -1) {
		fclose(f);
		free(ab.b);
		answer_free(a);
		return (NULL);
	}
	if (answer_body_close(f, &ab, a) == -1) {
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
