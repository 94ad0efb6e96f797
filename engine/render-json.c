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

/* format=json: the report object itself, dumped by jansson. */

static int	json_render(FILE *, const json_t *, const struct display *,
		    const struct render_context *);
static int	json_put(const char *, size_t, void *);

const struct renderer render_json = {
	.name = "json",
	.content_type = "application/json",
	.needs_display = 0,
	.render = json_render,
};

/*
 * jansson calls back for every token; each going through stdio was a
 * good part of a page's time. They are gathered here and written in
 * pieces of JSON_BUF bytes (memory stays bounded on a big export).
 */
#define JSON_BUF	16384

struct json_out {
	FILE	*f;
	size_t	 n;
	char	 buf[JSON_BUF];
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
	struct json_out	*o = arg;
	const char	*del;
	size_t		 k;

	/* Most tokens are a few bytes: copied and checked in one pass. */
	if (n <= 64 && JSON_BUF - o->n >= n) {
		for (k = 0; k < n && buf[k] != 0x7f; k++)
			o->buf[o->n + k] = buf[k];
		if (k == n) {
			o->n += n;
			return (0);
		}
	}
	while (n > 0) {
		if (o->n == JSON_BUF) {
			if (fwrite(o->buf, 1, o->n, o->f) != o->n)
				return (-1);
			o->n = 0;
		}
		if (*buf == 0x7f) {
			/* Flush first if the escape does not fit. */
			if (JSON_BUF - o->n < 6) {
				if (fwrite(o->buf, 1, o->n, o->f) != o->n)
					return (-1);
				o->n = 0;
			}
			memcpy(o->buf + o->n, "\\u007f", 6);
			o->n += 6;
			buf++;
			n--;
			continue;
		}
		k = n < JSON_BUF - o->n ? n : JSON_BUF - o->n;
		if ((del = memchr(buf, 0x7f, k)) != NULL)
			k = del - buf;
		memcpy(o->buf + o->n, buf, k);
		o->n += k;
		buf += k;
		n -= k;
	}
	return (0);
}

static int
json_render(FILE *f, const json_t *j, const struct display *d,
    const struct render_context *ctx)
{
	struct json_out	*o;
	int		 r = -1;

	if ((o = malloc(sizeof *o)) == NULL)
		return (-1);
	o->f = f;
	o->n = 0;
	if (json_dump_callback(j, json_put, o,
	    JSON_COMPACT | JSON_ENSURE_ASCII) == 0 &&
	    fwrite(o->buf, 1, o->n, f) == o->n) {
		fputc('\n', f);
		r = ferror(f) ? -1 : 0;
	}
	free(o);
	return (r);
}
