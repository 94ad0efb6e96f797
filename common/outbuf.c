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
#include <string.h>

#include "outbuf.h"

/* A buffered writer in front of a FILE (see outbuf.h). */

void
outbuf_init(struct outbuf *ob, FILE *f)
{
	ob->f = f;
	ob->n = 0;
	ob->error = 0;
}

/* Write out what is buffered; -1 if any write failed. */
int
outbuf_flush(struct outbuf *ob)
{
	if (ob->n > 0 && fwrite(ob->b, 1, ob->n, ob->f) != ob->n)
		ob->error = 1;
	ob->n = 0;
	if (ferror(ob->f))
		ob->error = 1;
	return (ob->error ? -1 : 0);
}

/* The slow path of outbuf_write: the buffer is full. */
void
outbuf_spill(struct outbuf *ob, const void *p, size_t len)
{
	outbuf_flush(ob);
	if (len >= OUTBUF_SIZE) {
		if (fwrite(p, 1, len, ob->f) != len)
			ob->error = 1;
		return;
	}
	memcpy(ob->b, p, len);
	ob->n = len;
}
