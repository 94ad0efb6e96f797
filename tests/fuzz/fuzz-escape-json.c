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
 * Differential fuzz harness for the JSON output: a string is made from
 * the input as the profile builder makes names (invalid UTF-8 bytes
 * become U+FFFD, utf8_sanitize), written by the JSON renderer, and the
 * output must be printable ASCII (no raw control
 * character, U+2028 or U+2029 can reach a page) that jansson reads back
 * as the very same string, embedded NULs included.
 */

#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "outbuf.h"
#include "render.h"
#include "utf8.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	json_t		*o, *back;
	json_error_t	 err;
	struct outbuf	 ob;
	char		*s, *out = NULL;
	const char	*got;
	size_t		 n, i, outlen = 0;

	if ((s = utf8_sanitize((const char *)data, len, &n)) == NULL)
		return (0);
	if (!utf8_valid(s, n))
		abort();	/* the builder's names must be valid */
	if ((o = json_pack("{s:s%}", "name", s, n)) == NULL)
		abort();	/* jansson refused what the builder made */
	outbuf_init(&ob);
	if (render_find(FMT_JSON)->render(&ob, o, NULL, NULL) == -1)
		abort();
	if ((out = outbuf_take(&ob, &outlen)) == NULL ||
	    strlen(out) != outlen)
		abort();
	for (i = 0; out[i] != '\0' && out[i + 1] != '\0'; i++)
		if ((unsigned char)out[i] < 0x20 ||
		    (unsigned char)out[i] > 0x7e)
			abort();
	if ((back = json_loads(out, JSON_ALLOW_NUL, &err)) == NULL)
		abort();
	if ((got = json_string_value(json_object_get(back, "name"))) ==
	    NULL || json_string_length(json_object_get(back, "name")) != n ||
	    memcmp(got, s, n) != 0)
		abort();
	json_decref(back);
	json_decref(o);
	free(out);
	free(s);
	return (0);
}
