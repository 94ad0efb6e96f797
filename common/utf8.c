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

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"

/* UTF-8 validation and repair (see utf8.h). */

/*
 * Decode one code point from s[0..n); returns its length, or 0 if the
 * bytes there are not well-formed UTF-8 (overlong forms, surrogates and
 * values past U+10FFFF are refused, as RFC 3629 says).
 */
size_t
utf8_decode(const unsigned char *s, size_t n, unsigned int *cp)
{
	unsigned int	 c, min;
	size_t		 len, i;

	if (n == 0)
		return (0);
	c = s[0];
	if (c < 0x80) {
		*cp = c;
		return (1);
	}
	if ((c & 0xe0) == 0xc0) {
		len = 2;
		c &= 0x1f;
		min = 0x80;
	} else if ((c & 0xf0) == 0xe0) {
		len = 3;
		c &= 0x0f;
		min = 0x800;
	} else if ((c & 0xf8) == 0xf0) {
		len = 4;
		c &= 0x07;
		min = 0x10000;
	} else
		return (0);
	if (n < len)
		return (0);
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return (0);
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return (0);
	*cp = c;
	return (len);
}

/* Is s[0..n) valid UTF-8? */
int
utf8_valid(const char *s, size_t n)
{
	const unsigned char	*u = (const unsigned char *)s;
	unsigned int		 cp;
	size_t			 i = 0, k;

	while (i < n) {
		if (u[i] < 0x80) {
			i++;
			continue;
		}
		if ((k = utf8_decode(u + i, n - i, &cp)) == 0)
			return (0);
		i += k;
	}
	return (1);
}

/* A copy of s[0..n) with invalid bytes replaced by U+FFFD; caller frees. */
char *
utf8_sanitize(const char *s, size_t n, size_t *outlen)
{
	const unsigned char	*u = (const unsigned char *)s;
	unsigned int		 cp;
	char			*d;
	size_t			 i = 0, o = 0, k;

	if (n > (SIZE_MAX - 1) / 3 || (d = malloc(n * 3 + 1)) == NULL)
		return (NULL);
	while (i < n) {
		if ((k = utf8_decode(u + i, n - i, &cp)) == 0) {
			memcpy(d + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
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
