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
 * Fuzz harness for the label selectors (engine/selector.c): whatever
 * parses formats to text that parses back to the same text (the label
 * picker's links), and its SQL holds every quote inside a literal: read
 * as ClickHouse reads it (a quote opens a literal, a backslash escapes
 * the next byte, a quote closes it), no literal is left open and none
 * is closed by a byte of the input. Whatever does not parse says why.
 */

#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "outbuf.h"
#include "selector.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Is every literal of sql closed, with only printable ASCII in it? */
static int
sql_literals_closed(const char *sql, size_t len)
{
	size_t	 i;
	int	 in = 0;

	for (i = 0; i < len; i++) {
		if ((unsigned char)sql[i] < 0x20 && sql[i] != '\n')
			return (0);
		if (!in) {
			if (sql[i] == '\'')
				in = 1;
			continue;
		}
		if (sql[i] == '\\')
			i++;
		else if (sql[i] == '\'')
			in = 0;
	}
	return (!in);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct selector	*sel, *sel2;
	struct outbuf	 ob;
	char		*s, *f, *f2, *sql, *cause = NULL;
	size_t		 n;

	if ((s = malloc(len + 1)) == NULL)
		return (0);
	memcpy(s, data, len);
	s[len] = '\0';
	if ((sel = selector_parse(s, &cause)) == NULL) {
		if (cause == NULL)
			abort();	/* refused without a reason */
		free(cause);
		free(s);
		return (0);
	}
	outbuf_init(&ob);
	selector_format(sel, &ob);
	if ((f = outbuf_take(&ob, &n)) == NULL)
		abort();
	if ((sel2 = selector_parse(f, &cause)) == NULL)
		abort();	/* a link we made does not parse */
	selector_format(sel2, &ob);
	if ((f2 = outbuf_take(&ob, &n)) == NULL || strcmp(f, f2) != 0)
		abort();	/* formatting is not a fixed point */
	selector_sql(sel, "labels", &ob);
	if ((sql = outbuf_take(&ob, &n)) == NULL || strlen(sql) != n ||
	    !sql_literals_closed(sql, n))
		abort();	/* a value escaped its literal */
	free(sql);
	free(f2);
	free(f);
	selector_free(sel2);
	selector_free(sel);
	free(s);
	return (0);
}
