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

#include "escape.h"
#include "outbuf.h"
#include "utf8.h"

/* HTML escaping (see escape.h). */

static void	escape_markup(struct outbuf *, const char *, size_t, int);

/*
 * Bytes copied as they are: printable ASCII other than & < > " '. A
 * page is mostly these, so the scan is one load and test a byte.
 */
static const unsigned char escape_plain[256] = {
	[0x20] = 1, [0x21] = 1, [0x23] = 1, [0x24] = 1, [0x25] = 1,
	[0x28 ... 0x3b] = 1, [0x3d] = 1, [0x3f ... 0x7e] = 1,
};

/*
 * Write s escaped for HTML text or a double- or single-quoted attribute
 * value: & < > " ' become entities. Returns -1 on a write error.
 */
int
escape_html(struct outbuf *ob, const char *s)
{
	escape_markup(ob, s, strlen(s), 0);
	return (outbuf_failed(ob));
}

/*
 * The same for XML (SVG) text and attributes, which must also not hold
 * U+FFFE or U+FFFF (not XML characters: one would make the whole
 * document unreadable).
 */
int
escape_xml(struct outbuf *ob, const char *s)
{
	escape_markup(ob, s, strlen(s), 1);
	return (outbuf_failed(ob));
}

/* escape_html() of the n bytes at s into a renderer's buffer. */
void
escape_html_buf(struct outbuf *ob, const char *s, size_t n)
{
	escape_markup(ob, s, n, 0);
}

static void
escape_markup(struct outbuf *ob, const char *s, size_t n, int xml)
{
	const unsigned char	*u = (const unsigned char *)s;
	size_t			 i = 0, k, run;
	unsigned int		 cp;

	while (i < n) {
		/* Copy a run of bytes that need nothing in one write. */
		for (run = i; run < n && escape_plain[u[run]]; run++)
			;
		if (run > i) {
			outbuf_write(ob, u + i, run - i);
			i = run;
			if (i == n)
				break;
		}
		switch (u[i]) {
		case '&':
			outbuf_puts(ob, "&amp;");
			break;
		case '<':
			outbuf_puts(ob, "&lt;");
			break;
		case '>':
			outbuf_puts(ob, "&gt;");
			break;
		case '"':
			outbuf_puts(ob, "&quot;");
			break;
		case '\'':
			outbuf_puts(ob, "&#39;");
			break;
		case '\t':
		case '\n':
			outbuf_putc(ob, u[i]);
			break;
		default:
			if (u[i] < 0x80) {
				/* The other C0 controls and DEL. */
				outbuf_puts(ob, "\xef\xbf\xbd");
				break;
			}
			if ((k = utf8_decode(u + i, n - i, &cp)) == 0 ||
			    (cp >= 0x80 && cp < 0xa0) ||
			    (xml && (cp == 0xfffe || cp == 0xffff))) {
				/* Invalid, or a C1 control: replace it. */
				outbuf_puts(ob, "\xef\xbf\xbd");
				i += k ? k : 1;
				continue;
			}
			outbuf_write(ob, u + i, k);
			i += k;
			continue;
		}
		i++;
	}
}

/* s escaped for HTML, as a new string; caller frees. */
char *
escape_html_string(const char *s)
{
	struct outbuf	 ob;
	size_t		 len;

	outbuf_init(&ob);
	escape_html(&ob, s);
	return (outbuf_take(&ob, &len));
}
