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
extern const struct renderer render_svg;

/*
 * Each format of the catalog bound to its renderer; none for the export
 * formats, whose reports write the body (tests/unit/test-catalog.c
 * checks both).
 */
static const struct renderer *const render_table[FMT_N] = {
	[FMT_HTML] = &render_html,
	[FMT_JSON] = &render_json,
	[FMT_TEXT] = &render_text,
	[FMT_SVG] = &render_svg,
};

/* The renderer of a format, or NULL. */
const struct renderer *
render_find(enum catalog_fmt fmt)
{
	return ((unsigned)fmt < FMT_N ? render_table[fmt] : NULL);
}
