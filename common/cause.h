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

#ifndef CAUSE_H
#define CAUSE_H

/*
 * Error causes: common/ reports a failure by returning -1 or NULL and
 * filling a caller-supplied char **cause with an allocated sentence the
 * caller frees (tmux's convention). cause may be NULL.
 */

#include <stdarg.h>

void	cause_set(char **, const char *, ...)
	    __attribute__((__format__(__printf__, 2, 3)));
void	cause_vset(char **, const char *, va_list)
	    __attribute__((__format__(__printf__, 2, 0)));
void	cause_replace(char **, const char *, const char *);

#endif /* CAUSE_H */
