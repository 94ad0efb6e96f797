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

#ifndef JSON_BUILD_H
#define JSON_BUILD_H

/*
 * The one checked way a report writes its JSON answer. jansson's
 * setters return -1 when they fail (no memory, or a NULL value from a
 * constructor that failed), and a member dropped that way leaves an
 * answer that looks whole, which the answer cache could then keep.
 * A report sets its members through a json_build, which keeps the first
 * failure, and ends with json_build_end(), which gives the answer, or
 * NULL (freed) when anything failed: the caller's "out of memory" (500),
 * never a half answer. Helpers that add to an object given to them
 * return json_build_status().
 */

#include <jansson.h>

struct json_build {
	int	 failed;	/* a member or an element was not added */
};

#define JSON_BUILD_INIT	{ 0 }

int	 json_build_set(struct json_build *, json_t *, const char *,
	     json_t *);
int	 json_build_append(struct json_build *, json_t *, json_t *);
int	 json_build_fail(struct json_build *);
int	 json_build_status(const struct json_build *);
json_t	*json_build_end(struct json_build *, json_t *);

#endif /* JSON_BUILD_H */
