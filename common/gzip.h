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

#ifndef GZIP_H
#define GZIP_H

/*
 * Answers compressed for the wire (Content-Encoding: gzip) when the
 * client accepts it: the front ends (deepq.cgi under CGI and FastCGI,
 * deepq web) ask gzip_wanted() of the request's Accept-Encoding and
 * gzip_compressible() of the answer's type and size, then send
 * gzip_body()'s bytes with Vary: Accept-Encoding.
 */

#include <stddef.h>

#define GZIP_MIN	1024	/* smaller bodies are sent as they are */

int	 gzip_wanted(const char *);
int	 gzip_compressible(const char *, size_t);
char	*gzip_body(const char *, size_t, size_t *);

#endif /* GZIP_H */
