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

#include <string.h>

#include "render.h"

/* The renderer table. */

extern const struct renderer render_html;
extern const struct renderer render_json;
extern const struct renderer render_text;
extern const struct renderer render_folded;
extern const struct renderer render_callgrind;
extern const struct renderer render_pprof;
extern const struct renderer render_speedscope;
extern const struct renderer render_svg;

static const struct renderer *render_table[] = {
	&render_html,
	&render_json,
	&render_text,
	&render_folded,
	&render_callgrind,
	&render_pprof,
	&render_speedscope,
	&render_svg,
};
#define NRENDERERS (sizeof render_table / sizeof render_table[0])

/* The renderer for a format= value, or NULL. */
const struct renderer *
render_find(const char *name)
{
	size_t	 i;

	for (i = 0; i < NRENDERERS; i++) {
		if (strcmp(render_table[i]->name, name) == 0)
			return (render_table[i]);
	}
	return (NULL);
}
