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
 * Fuzz harness for the query parser: whatever parses must format to a
 * string that parses back to an equal query, and formatting that again
 * gives the same string (query_format makes every link, so a link must
 * always lead back to the page it came from). Whatever does not parse
 * must say why, with a 4xx status.
 */

#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "query.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct query	*q, *q2;
	char		*s, *f, *f2, *cause = NULL;
	int		 status;

	/* QUERY_STRING is a C string: it ends at the first NUL. */
	if ((s = malloc(len + 1)) == NULL)
		return (0);
	memcpy(s, data, len);
	s[len] = '\0';
	if ((q = query_parse(s, &status, &cause)) == NULL) {
		if (cause == NULL || (status != 400 && status != 414 &&
		    status != 500))
			abort();
		free(cause);
		free(s);
		return (0);
	}
	if ((f = query_format(q)) == NULL)
		abort();
	if ((q2 = query_parse(f, &status, &cause)) == NULL)
		abort();	/* a link we made does not parse */
	if (!query_equal(q, q2))
		abort();	/* it parses to another query */
	if ((f2 = query_format(q2)) == NULL || strcmp(f, f2) != 0)
		abort();	/* formatting is not a fixed point */
	free(f2);
	free(f);
	query_free(q2);
	query_free(q);
	free(s);
	return (0);
}
