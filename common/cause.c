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

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cause.h"

/* Error causes for common/ (see cause.h). */

/* Set *cause to a formatted sentence; out of memory leaves a fixed text. */
void
cause_vset(char **cause, const char *fmt, va_list ap)
{
	int	 saved = errno;

	if (cause == NULL)
		return;
	if (vasprintf(cause, fmt, ap) == -1)
		*cause = NULL;
	/* Callers still look at the errno of what failed. */
	errno = saved;
}

/* Set *cause to a formatted sentence. */
void
cause_set(char **cause, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	cause_vset(cause, fmt, ap);
	va_end(ap);
}

/*
 * Replace every occurrence of from in *cause by to (a server's absolute
 * path by the name its client sent, before the message goes out). Out
 * of memory, the cause becomes a fixed text without either.
 */
void
cause_replace(char **cause, const char *from, const char *to)
{
	char	*s, *out, *p, *q;
	size_t	 flen, tlen, n = 0, len;

	if (cause == NULL || *cause == NULL || from == NULL ||
	    (flen = strlen(from)) == 0)
		return;
	tlen = strlen(to);
	for (p = *cause; (p = strstr(p, from)) != NULL; p += flen)
		n++;
	if (n == 0)
		return;
	s = *cause;
	len = strlen(s) - n * flen + n * tlen;
	if ((out = malloc(len + 1)) == NULL) {
		free(s);
		*cause = strdup("(a message naming a path)");
		return;
	}
	for (p = s, q = out; ; ) {
		char	*at = strstr(p, from);

		if (at == NULL) {
			strcpy(q, p);
			break;
		}
		memcpy(q, p, at - p);
		q += at - p;
		memcpy(q, to, tlen);
		q += tlen;
		p = at + flen;
	}
	free(s);
	*cause = out;
}
