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

#include "base64.h"
#include "outbuf.h"
#include "render.h"

/*
 * format=folded, callgrind, pprof and speedscope: the export reports'
 * "text" member written as it is, for tools that read those formats
 * (base64 decoded when "encoding" says so: pprof's gzipped protobuf).
 * Errors are one line of plain text.
 */

static int	raw_render(struct outbuf *, const json_t *,
		    const struct display *, const struct render_context *);
static int	raw_error(struct outbuf *, int, const char *,
		    const struct render_context *);

const struct renderer render_folded = {
	.name = "folded",
	.content_type = "text/plain; charset=utf-8",
	.needs_display = 0,
	.render = raw_render,
	.error = raw_error,
};

const struct renderer render_callgrind = {
	.name = "callgrind",
	.content_type = "text/plain; charset=utf-8",
	.needs_display = 0,
	.render = raw_render,
	.error = raw_error,
};

const struct renderer render_pprof = {
	.name = "pprof",
	.content_type = "application/octet-stream",
	.needs_display = 0,
	.render = raw_render,
	.error = raw_error,
};

const struct renderer render_speedscope = {
	.name = "speedscope",
	.content_type = "application/json",
	.needs_display = 0,
	.render = raw_render,
	.error = raw_error,
};

static int
raw_render(struct outbuf *ob, const json_t *j, const struct display *d,
    const struct render_context *ctx)
{
	const json_t	*text = json_object_get(j, "text");

	void		*bytes;
	size_t		 len;

	if (!json_is_string(text))
		return (-1);
	if (json_is_string(json_object_get(j, "encoding"))) {
		if ((bytes = base64_decode(json_string_value(text),
		    json_string_length(text), &len)) == NULL)
			return (-1);
		outbuf_write(ob, bytes, len);
		free(bytes);
		return (outbuf_failed(ob));
	}
	outbuf_write(ob, json_string_value(text), json_string_length(text));
	return (outbuf_failed(ob));
}

/* One line; control characters from the message become '?'. */
static int
raw_error(struct outbuf *ob, int status, const char *message,
    const struct render_context *ctx)
{
	outbuf_printf(ob, "error %d: ", status);
	for (; *message != '\0'; message++)
		outbuf_putc(ob, (unsigned char)*message < 0x20 ? '?' :
		    *message);
	outbuf_putc(ob, '\n');
	return (outbuf_failed(ob));
}
