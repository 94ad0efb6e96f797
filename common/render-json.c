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

#include "render.h"
#include "report.h"
#include "utf8.h"

/* format=json: the report object itself, dumped by jansson. */

static int	json_render(FILE *, const json_t *, const struct display *,
		    const struct render_context *);
static int	json_put(const char *, size_t, void *);
static int	json_error(FILE *, int, const char *,
		    const struct render_context *);

const struct renderer render_json = {
	.name = "json",
	.content_type = "application/json",
	.needs_display = 0,
	.render = json_render,
	.error = json_error,
};

/*
 * jansson's output callback. With JSON_ENSURE_ASCII it escapes every
 * control character but DEL, which it writes raw (valid JSON, but a raw
 * control character in the page all the same): escape that too. Outside
 * strings there is no DEL, so the replacement is always in a string.
 */
static int
json_put(const char *buf, size_t n, void *arg)
{
	FILE		*f = arg;
	const char	*del;

	while ((del = memchr(buf, 0x7f, n)) != NULL) {
		fwrite(buf, 1, del - buf, f);
		fputs("\\u007f", f);
		n -= del - buf + 1;
		buf = del + 1;
	}
	fwrite(buf, 1, n, f);
	return (ferror(f) ? -1 : 0);
}

static int
json_render(FILE *f, const json_t *j, const struct display *d,
    const struct render_context *ctx)
{
	if (json_dump_callback(j, json_put, f,
	    JSON_COMPACT | JSON_ENSURE_ASCII) == -1)
		return (-1);
	fputc('\n', f);
	return (ferror(f) ? -1 : 0);
}

static int
json_error(FILE *f, int status, const char *message,
    const struct render_context *ctx)
{
	json_t	*j;
	char	*m;
	size_t	 len;
	int	 r;

	/* A message may quote the request: make it valid UTF-8 for jansson. */
	if ((m = utf8_sanitize(message, strlen(message), &len)) == NULL)
		return (-1);
	j = json_pack("{s:i, s:{s:i, s:s}}", "deepq", REPORT_VERSION,
	    "error", "status", status, "message", m);
	free(m);
	if (j == NULL)
		return (-1);
	r = json_render(f, j, NULL, ctx);
	json_decref(j);
	return (r);
}
