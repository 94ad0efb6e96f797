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

#ifndef UTF8_H
#define UTF8_H

/*
 * UTF-8 checks. Profiles are untrusted bytes but JSON needs valid UTF-8,
 * so the builder stores every name as valid UTF-8, with each invalid
 * byte replaced by U+FFFD.
 */

#include <stddef.h>

size_t	 utf8_decode(const unsigned char *, size_t, unsigned int *);
int	 utf8_valid(const char *, size_t);
char	*utf8_sanitize(const char *, size_t, size_t *);

#endif /* UTF8_H */
