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


/*
 * Differential fuzz harness for the HTML escaper: decode escape_html's
 * output as an HTML parser would (the five entities it writes; any other
 * '&', or a raw < > " ', is a failure: the output must be safe in text
 * and in quoted attributes alike) and compare with the input after the
 * replacements escape.h documents, computed here independently: each
 * byte of an invalid UTF-8 sequence, each C0 control but tab and
 * newline, DEL and each C1 control becomes U+FFFD.
 */

#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"

int		 LLVMFuzzerTestOneInput(const uint8_t *, size_t);
static size_t	 fuzz_utf8(const unsigned char *, size_t, unsigned int *);
static char	*fuzz_expect(const unsigned char *, size_t, size_t *);
static char	*fuzz_unescape(const char *, size_t *);

/* A strict UTF-8 decoder (no overlong forms, surrogates or > U+10FFFF). */
static size_t
fuzz_utf8(const unsigned char *s, size_t n, unsigned int *cp)
{
	size_t		 k, i;
	unsigned int	 c, min;

	if (s[0] < 0x80) {
		*cp = s[0];
		return (1);
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		k = 2; c = s[0] & 0x1f; min = 0x80;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		k = 3; c = s[0] & 0x0f; min = 0x800;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		k = 4; c = s[0] & 0x07; min = 0x10000;
	} else
		return (0);
	if (n < k)
		return (0);
	for (i = 1; i < k; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return (0);
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return (0);
	*cp = c;
	return (k);
}

static char *
fuzz_expect(const unsigned char *s, size_t n, size_t *outlen)
{
	char		*d;
	size_t		 i = 0, o = 0, k;
	unsigned int	 cp;

	if ((d = malloc(n * 3 + 1)) == NULL)
		return (NULL);
	while (i < n) {
		if ((k = fuzz_utf8(s + i, n - i, &cp)) == 0 ||
		    (cp < 0x20 && cp != '\t' && cp != '\n') ||
		    (cp >= 0x7f && cp < 0xa0)) {
			memcpy(d + o, "\xef\xbf\xbd", 3);
			o += 3;
			i += k ? k : 1;
			continue;
		}
		memcpy(d + o, s + i, k);
		o += k;
		i += k;
	}
	d[o] = '\0';
	*outlen = o;
	return (d);
}

static char *
fuzz_unescape(const char *s, size_t *outlen)
{
	static const struct {
		const char	*ent;
		char		 c;
	} ents[] = {
		{ "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' },
		{ "&quot;", '"' }, { "&#39;", '\'' },
	};
	char	*d;
	size_t	 o = 0, e;

	if ((d = malloc(strlen(s) + 1)) == NULL)
		return (NULL);
	while (*s != '\0') {
		if (strchr("<>\"'", *s) != NULL)
			abort();	/* markup in the output */
		if (*s != '&') {
			d[o++] = *s++;
			continue;
		}
		for (e = 0; e < sizeof ents / sizeof ents[0]; e++)
			if (strncmp(s, ents[e].ent, strlen(ents[e].ent)) == 0)
				break;
		if (e == sizeof ents / sizeof ents[0])
			abort();	/* a bare '&' or an unknown entity */
		d[o++] = ents[e].c;
		s += strlen(ents[e].ent);
	}
	d[o] = '\0';
	*outlen = o;
	return (d);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	char	*in, *out, *back, *want;
	size_t	 n, nback, nwant;

	/* The escaper takes C strings: the input ends at its first NUL. */
	if ((in = malloc(len + 1)) == NULL)
		return (0);
	memcpy(in, data, len);
	in[len] = '\0';
	n = strlen(in);
	if ((out = escape_html_string(in)) == NULL)
		abort();
	if ((back = fuzz_unescape(out, &nback)) == NULL ||
	    (want = fuzz_expect((unsigned char *)in, n, &nwant)) == NULL)
		abort();
	if (nback != nwant || memcmp(back, want, nwant) != 0)
		abort();	/* the page would not show the input */
	free(want);
	free(back);
	free(out);
	free(in);
	return (0);
}
