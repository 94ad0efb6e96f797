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

#include "outbuf.h"
#include "render.h"

/* format=json: the report object itself, dumped by jansson. */

static int	json_render(struct outbuf *, const json_t *,
		    const struct display *, const struct render_context *);
static int	json_put(const char *, size_t, void *);

const struct renderer render_json = {
	.render = json_render,
};

/*
 * jansson's output callback, called for every token. With
 * JSON_ENSURE_ASCII it escapes every control character but DEL, which it
 * writes raw (valid JSON, but a raw control character in the page all the
 * same): escape that too. Outside strings there is no DEL, so the
 * replacement is always in a string.
 */
static int
json_put(const char *buf, size_t n, void *arg)
{
	struct outbuf	*ob = arg;
	const char	*del;
	char		*d;
	size_t		 k;

	/*
	 * Most tokens are a few bytes: copied and checked in one pass,
	 * through a local pointer (a store through ob->b could change ob).
	 */
	if (n <= 64 && ob->lim - ob->n >= n) {
		d = ob->b + ob->n;
		for (k = 0; k < n && buf[k] != 0x7f; k++)
			d[k] = buf[k];
		if (k == n) {
			ob->n += n;
			return (0);
		}
	}
	while ((del = memchr(buf, 0x7f, n)) != NULL) {
		outbuf_write(ob, buf, (size_t)(del - buf));
		outbuf_puts(ob, "\\u007f");
		n -= (size_t)(del - buf) + 1;
		buf = del + 1;
	}
	outbuf_write(ob, buf, n);
	return (outbuf_failed(ob));
}

static int
json_render(struct outbuf *ob, const json_t *j, const struct display *d,
    const struct render_context *ctx)
{
	if (json_dump_callback(j, json_put, ob,
	    JSON_COMPACT | JSON_ENSURE_ASCII) == -1)
		return (-1);
	outbuf_putc(ob, '\n');
	return (outbuf_failed(ob));
}
