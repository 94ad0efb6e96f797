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

#ifndef DECIMAL_H
#define DECIMAL_H

#include <stddef.h>
#include <stdint.h>

/*
 * Decimal numbers in untrusted text, overflow checked: the one digit
 * loop the readers share (a reader finds where its number is; this reads
 * it). Inline, because the readers call it once or more a line on files
 * of millions of lines. No locale, no blanks, no base prefix: a field
 * that may hold those is cut by its reader first.
 *
 * The parsers return DECIMAL_OK, or the first fault met from the left:
 * DECIMAL_NONE (no digit, or a byte that is not one) or DECIMAL_OVERFLOW
 * (the value is beyond the bound). *v is set on DECIMAL_OK only.
 */
#define DECIMAL_OK		 0
#define DECIMAL_NONE		-1
#define DECIMAL_OVERFLOW	-2

/*
 * The number of ASCII digits s[0..n) starts with. It stops at the first
 * byte that is not a digit, so a string ended by NUL may pass SIZE_MAX.
 */
static inline size_t
decimal_span(const char *s, size_t n)
{
	size_t	 i;

	for (i = 0; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		;
	return (i);
}

/* All of s[0..n), digits only (n >= 1), as a value at most max. */
static inline int
decimal_u64(const char *s, size_t n, uint64_t max, uint64_t *v)
{
	uint64_t	 x = 0;
	size_t		 i;

	if (n == 0)
		return (DECIMAL_NONE);
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return (DECIMAL_NONE);
		if (__builtin_mul_overflow(x, 10, &x) ||
		    __builtin_add_overflow(x, (uint64_t)(s[i] - '0'), &x) ||
		    x > max)
			return (DECIMAL_OVERFLOW);
	}
	*v = x;
	return (DECIMAL_OK);
}

/*
 * All of s[0..n): one optional sign, '-' or '+', then digits, in
 * [INT64_MIN, INT64_MAX].
 */
static inline int
decimal_i64(const char *s, size_t n, int64_t *v)
{
	uint64_t	 x;
	int		 neg = 0, rc;

	if (n > 0 && (s[0] == '-' || s[0] == '+')) {
		neg = s[0] == '-';
		s++;
		n--;
	}
	if ((rc = decimal_u64(s, n, neg ? (uint64_t)INT64_MAX + 1 :
	    (uint64_t)INT64_MAX, &x)) != DECIMAL_OK)
		return (rc);
	*v = neg ? (int64_t)(0 - x) : (int64_t)x;
	return (DECIMAL_OK);
}

#endif /* DECIMAL_H */
