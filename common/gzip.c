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

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <zlib.h>

#include "gzip.h"

/* Answers compressed for the wire (see gzip.h), with zlib. */

#define GZIP_LEVEL	6	/* zlib's default: most of the gain, fast */

/*
 * Does an Accept-Encoding header accept gzip (RFC 9110 12.5.3)? A
 * "gzip" or "x-gzip" coding, or "*", without q=0. NULL: no.
 */
int
gzip_wanted(const char *ae)
{
	const char	*p = ae, *e, *q;
	size_t		 n;

	while (p != NULL && *p != '\0') {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		e = p + strcspn(p, ",");
		n = strcspn(p, ";, \t");
		if ((n == 4 && strncasecmp(p, "gzip", 4) == 0) ||
		    (n == 6 && strncasecmp(p, "x-gzip", 6) == 0) ||
		    (n == 1 && *p == '*')) {
			/* q=0 (0, 0.0, 0.000) refuses it. */
			q = memchr(p, ';', e - p);
			while (q != NULL && q < e && (*q == ';' || *q == ' '))
				q++;
			if (q == NULL || q >= e || tolower((unsigned char)*q) !=
			    'q' || q[1] != '=')
				return (1);
			for (q += 2; q < e && (*q == '0' || *q == '.'); q++)
				;
			if (q < e && isdigit((unsigned char)*q))
				return (1);
			return (0);
		}
		p = *e == ',' ? e + 1 : e;
	}
	return (0);
}

/*
 * Is a body of this type and length worth compressing? Text of at
 * least GZIP_MIN bytes: pages, JSON, SVG, folded and callgrind text,
 * style sheets and scripts; not pprof (gzip already) nor images.
 */
int
gzip_compressible(const char *type, size_t len)
{
	if (len < GZIP_MIN || type == NULL)
		return (0);
	return (strncmp(type, "text/", 5) == 0 ||
	    strncmp(type, "application/json", 16) == 0 ||
	    strncmp(type, "application/javascript", 22) == 0 ||
	    strncmp(type, "image/svg+xml", 13) == 0);
}

/*
 * The gzip member of len bytes of body, its length in *outlen; NULL if
 * out of memory (the front end then sends the body as it is).
 */
char *
gzip_body(const char *body, size_t len, size_t *outlen)
{
	z_stream	 z;
	char		*out;
	size_t		 cap;

	if (len > UINT32_MAX)
		return (NULL);
	memset(&z, 0, sizeof z);
	/* 16 + 15: a gzip header and trailer around the deflate stream. */
	if (deflateInit2(&z, GZIP_LEVEL, Z_DEFLATED, 16 + 15, 8,
	    Z_DEFAULT_STRATEGY) != Z_OK)
		return (NULL);
	cap = deflateBound(&z, len);
	if ((out = malloc(cap)) == NULL) {
		deflateEnd(&z);
		return (NULL);
	}
	z.next_in = (unsigned char *)(uintptr_t)body;
	z.avail_in = len;
	z.next_out = (unsigned char *)out;
	z.avail_out = cap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END) {
		deflateEnd(&z);
		free(out);
		return (NULL);
	}
	*outlen = z.total_out;
	deflateEnd(&z);
	return (out);
}
