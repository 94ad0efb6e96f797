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
#include "utf8.h"

/* HTML escaping (see escape.h). */

static int	escape_markup(FILE *, const char *, int);

/*
 * Write s escaped for HTML text or a double- or single-quoted attribute
 * value: & < > " ' become entities. Returns -1 on a write error.
 */
int
escape_html(FILE *f, const char *s)
{
	return (escape_markup(f, s, 0));
}

/*
 * The same for XML (SVG) text and attributes, which must also not hold
 * U+FFFE or U+FFFF (not XML characters: one would make the whole
 * document unreadable).
 */
int
escape_xml(FILE *f, const char *s)
{
	return (escape_markup(f, s, 1));
}

static int
escape_markup(FILE *f, const char *s, int xml)
{
	const unsigned char	*u = (const unsigned char *)s;
	size_t			 n = strlen(s), i = 0, k, run;
	unsigned int		 cp;

	while (i < n) {
		/*
		 * Pages are mostly plain ASCII: copy a run of bytes that need
		 * nothing in one write rather than a call per byte.
		 */
		for (run = i; run < n && u[run] >= 0x20 && u[run] < 0x7f &&
		    u[run] != '&' && u[run] != '<' && u[run] != '>' &&
		    u[run] != '"' && u[run] != '\''; run++)
			;
		if (run > i) {
			fwrite(u + i, 1, run - i, f);
			i = run;
			if (i == n)
				break;
		}
		switch (u[i]) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		case '\t':
		case '\n':
			fputc(u[i], f);
			break;
		default:
			if (u[i] < 0x80) {
				/* The other C0 controls and DEL. */
				fputs("\xef\xbf\xbd", f);
				break;
			}
			if ((k = utf8_decode(u + i, n - i, &cp)) == 0 ||
			    (cp >= 0x80 && cp < 0xa0) ||
			    (xml && (cp == 0xfffe || cp == 0xffff))) {
				/* Invalid, or a C1 control: replace it. */
				fputs("\xef\xbf\xbd", f);
				i += k ? k : 1;
				continue;
			}
			fwrite(u + i, 1, k, f);
			i += k;
			continue;
		}
		i++;
	}
	return (ferror(f) ? -1 : 0);
}

/* s escaped for HTML, as a new string; caller frees. */
char *
escape_html_string(const char *s)
{
	char	*buf = NULL;
	size_t	 len = 0;
	FILE	*f;

	if ((f = open_memstream(&buf, &len)) == NULL)
		return (NULL);
	if (escape_html(f, s) == -1) {
		fclose(f);
		free(buf);
		return (NULL);
	}
	if (fclose(f) != 0) {
		free(buf);
		return (NULL);
	}
	return (buf);
}
