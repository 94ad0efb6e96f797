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
 * Fuzz harness for the bounded regexes (engine/pattern.c). The input is
 * a pattern, a NUL, and a name (the name repeated to make it long when
 * the input says so). Whatever the pattern, compiling either succeeds
 * or says why; a match answers 1, 0 or "over a limit", never crashes,
 * and stays within the limits (libFuzzer's -timeout and -rss_limit_mb
 * catch a match that does not). And the name's own bytes, each escaped,
 * always match the name: the translation keeps literals literal.
 */

#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "pattern.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct pattern	*pt;
	struct cost	 c;
	const uint8_t	*nul;
	char		*re, *name, *lit, *cause = NULL;
	size_t		 relen, nlen, i, k, reps = 1;
	int		 r;

	if ((nul = memchr(data, '\0', len)) == NULL)
		nul = data + len;
	relen = (size_t)(nul - data);
	/* A last byte 'L' makes the name 5,000 times as long. */
	nlen = nul < data + len ? len - relen - 1 : 0;
	if (nlen > 0 && nul[nlen] == 'L') {
		nlen--;
		reps = 5000;
	}
	if (nlen > 64)
		reps = 1;
	if ((re = malloc(relen + 1)) == NULL ||
	    (name = malloc(nlen * reps + 1)) == NULL ||
	    (lit = malloc(2 * nlen + 1)) == NULL)
		abort();
	memcpy(re, data, relen);
	re[relen] = '\0';
	for (i = 0; i < reps; i++)
		memcpy(name + i * nlen, nul + 1, nlen);
	name[nlen * reps] = '\0';

	if ((pt = pattern_create(re, &cause)) == NULL) {
		if (cause == NULL)
			abort();	/* refused without a reason */
		free(cause);
		cause = NULL;
	} else {
		cost_init(&c, 100000000, 0);
		r = pattern_match(pt, name, nlen * reps, &c, &cause);
		if (r != 0 && r != 1 && r != PATTERN_ERR_LIMIT)
			abort();
		if (r < 0 && cause == NULL)
			abort();
		free(cause);
		cause = NULL;
		pattern_free(pt);
	}

	/*
	 * The name's first bytes as a literal, up to its first NUL: at most
	 * 256, so that escaped it stays within PATTERN_MAX_LEN.
	 */
	for (i = 0, k = 0; i < nlen && i < 256 && nul[1 + i] != '\0'; i++) {
		if (strchr("\\^$.[]|()*+?{}", nul[1 + i]) != NULL)
			lit[k++] = '\\';
		lit[k++] = (char)nul[1 + i];
	}
	lit[k] = '\0';
	if ((pt = pattern_create(lit, &cause)) == NULL)
		abort();	/* a literal refused */
	if (pattern_match(pt, name, nlen * reps, NULL, &cause) != 1)
		abort();	/* a literal that does not match itself */
	pattern_free(pt);
	free(lit);
	free(name);
	free(re);
	return (0);
}
