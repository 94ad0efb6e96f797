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

#ifndef ANSWER_H
#define ANSWER_H

/*
 * An answer: a status, a content type and a body, what every front end
 * sends and what the server passes back through its pipes. This file
 * makes every error answer (answer_error), in any format of the catalog
 * (an HTML page, JSON, a line of text, an SVG image), for the front ends
 * and the server alike, without any of the profile engine; the engine's
 * answer_query (engine/answer-query.c) makes the rest.
 */

#include <stddef.h>

#include <jansson.h>

#include "catalog.h"
#include "render.h"

/* The "deepq" member of every JSON answer: the JSON v1 contract. */
#define ANSWER_JSON_VERSION	1

struct answer {
	int		 status;	/* HTTP status */
	const char	*content_type;
	char		*body;
	size_t		 len;
	int		 retry_after;	/* seconds, 0 for none */
	char		*message;	/* the error's text, NULL on success */
	const char	*location;	/* a redirect's Location, NULL none */
};

struct answer	*answer_error(enum catalog_fmt, int, const char *,
		     const struct render_context *);
struct answer	*answer_error_more(enum catalog_fmt, int, const char *,
		     const struct render_context *, const char *, json_t *);
enum catalog_fmt answer_guess_format(const char *);
void		 answer_free(struct answer *);

#endif /* ANSWER_H */
