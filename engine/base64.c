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

#include "base64.h"

/* Base64 both ways. */

static const char base64_digits[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/*
 * Encode len bytes: a NUL-terminated string the caller frees, its length
 * in *outlen; NULL if out of memory.
 */
char *
base64_encode(const void *data, size_t len, size_t *outlen)
{
	const uint8_t	*s = data;
	char		*out, *d;
	size_t		 i;
	uint32_t	 v;

	if (len > (SIZE_MAX - 1) / 4 * 3 - 3)
		return (NULL);
	if ((out = d = malloc((len + 2) / 3 * 4 + 1)) == NULL)
		return (NULL);
	for (i = 0; i + 2 < len; i += 3) {
		v = (uint32_t)s[i] << 16 | (uint32_t)s[i + 1] << 8 | s[i + 2];
		*d++ = base64_digits[v >> 18];
		*d++ = base64_digits[v >> 12 & 63];
		*d++ = base64_digits[v >> 6 & 63];
		*d++ = base64_digits[v & 63];
	}
	if (i < len) {
		v = (uint32_t)s[i] << 16;
		if (i + 1 < len)
			v |= (uint32_t)s[i + 1] << 8;
		*d++ = base64_digits[v >> 18];
		*d++ = base64_digits[v >> 12 & 63];
		*d++ = i + 1 < len ? base64_digits[v >> 6 & 63] : '=';
		*d++ = '=';
	}
	*d = '\0';
	*outlen = (size_t)(d - out);
	return (out);
}

static int
base64_value(char c)
{
	if (c >= 'A' && c <= 'Z')
		return (c - 'A');
	if (c >= 'a' && c <= 'z')
		return (c - 'a' + 26);
	if (c >= '0' && c <= '9')
		return (c - '0' + 52);
	if (c == '+')
		return (62);
	if (c == '/')
		return (63);
	return (-1);
}

/*
 * Decode len characters: the bytes in a buffer the caller frees, their
 * number in *outlen; NULL if the text is not base64 or out of memory.
 */
void *
base64_decode(const char *s, size_t len, size_t *outlen)
{
	uint8_t		*out, *d;
	uint32_t	 v = 0;
	size_t		 i, n = 0;
	int		 x;

	while (len > 0 && s[len - 1] == '=')
		len--;
	if (len % 4 == 1 || (out = d = malloc(len / 4 * 3 + 3)) == NULL)
		return (NULL);
	for (i = 0; i < len; i++) {
		if ((x = base64_value(s[i])) == -1) {
			free(out);
			return (NULL);
		}
		v = v << 6 | (uint32_t)x;
		if (++n == 4) {
			*d++ = v >> 16;
			*d++ = v >> 8;
			*d++ = v;
			v = 0;
			n = 0;
		}
	}
	if (n == 3) {
		*d++ = v >> 10;
		*d++ = v >> 2;
	} else if (n == 2)
		*d++ = v >> 4;
	*outlen = (size_t)(d - out);
	return (out);
}
