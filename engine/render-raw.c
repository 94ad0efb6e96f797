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

#include "outbuf.h"
#include "render.h"

/*
 * format=folded, callgrind, pprof and speedscope: the formats of the
 * export reports, which write the answer's body themselves (their writer
 * streams into it: report-export.c), so these renderers have no render
 * function, only a content type and their errors: one line of plain text.
 */

static int	raw_error(struct outbuf *, int, const char *,
		    const struct render_context *);

const struct renderer render_folded = {
	.error = raw_error,
};

const struct renderer render_callgrind = {
	.error = raw_error,
};

const struct renderer render_pprof = {
	.error = raw_error,
};

const struct renderer render_speedscope = {
	.error = raw_error,
};

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
