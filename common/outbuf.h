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

#ifndef OUTBUF_H
#define OUTBUF_H

/*
 * A fixed buffer in front of a FILE: renderers make thousands of small
 * writes a page, and each stdio call (fputs, fwrite, fputc) costs more
 * than the copy it makes. Appends are inline copies; the FILE sees one
 * write per OUTBUF_SIZE bytes. The buffer lives on the caller's stack,
 * so a page allocates nothing for it.
 */

#include <stdio.h>
#include <string.h>

#define OUTBUF_SIZE	16384

struct outbuf {
	FILE	*f;
	size_t	 n;
	int	 error;
	char	 b[OUTBUF_SIZE];
};

void	outbuf_init(struct outbuf *, FILE *);
int	outbuf_flush(struct outbuf *);
void	outbuf_spill(struct outbuf *, const void *, size_t);

static inline void
outbuf_write(struct outbuf *ob, const void *p, size_t len)
{
	if (len > OUTBUF_SIZE - ob->n) {
		outbuf_spill(ob, p, len);
		return;
	}
	memcpy(ob->b + ob->n, p, len);
	ob->n += len;
}

/* With a literal, the length is a constant once inlined. */
static inline void
outbuf_puts(struct outbuf *ob, const char *s)
{
	outbuf_write(ob, s, strlen(s));
}

static inline void
outbuf_putc(struct outbuf *ob, char c)
{
	if (ob->n == OUTBUF_SIZE)
		outbuf_spill(ob, &c, 1);
	else
		ob->b[ob->n++] = c;
}

#endif /* OUTBUF_H */
