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

#ifndef ESCAPE_H
#define ESCAPE_H

/*
 * Escaping by context, in one place: HTML (and XML) text and attribute
 * values.
 * Both write valid UTF-8 with no control characters: an invalid byte or a
 * control character (other than tab and newline in text) becomes U+FFFD.
 * URLs are escaped by query_urlencode(); JSON by jansson.
 */

#include <stddef.h>

struct outbuf;

int	escape_html(struct outbuf *, const char *);
char	*escape_html_string(const char *);
int	escape_xml(struct outbuf *, const char *);
void	escape_html_buf(struct outbuf *, const char *, size_t);

#endif /* ESCAPE_H */
