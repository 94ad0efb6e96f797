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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "display.h"
#include "outbuf.h"
#include "query.h"
#include "render.h"

/*
 * format=text: a display as plain text for terminals and scripts. Tables
 * are aligned in columns (widths counted in code points), tree cells are
 * indented two spaces a level. Links are not shown, nor the blocks that
 * are only links or controls (menus, switches, paging, preferences, forms)
 * and a heading over nothing else: a terminal cannot follow them.
 * Under the title, the time range and threads the answer is restricted
 * to (range=, thread=, base_range=), as the HTML page's state bar shows
 * them: an answer without them starts as it always did.
 */

static int	text_render(struct outbuf *, const json_t *,
		    const struct display *, const struct render_context *);
static size_t	text_width(const char *);
static void	text_cell(struct outbuf *, const struct display_cell *, size_t,
		    int);
static int	text_table(struct outbuf *, const struct display_block *);
static void	text_clean(struct outbuf *, const char *);
static int	text_shown(const struct display *, size_t);
static int	text_range(struct outbuf *, const char *,
		    const struct query *, enum query_key);
static int	text_state(struct outbuf *, const struct query *);

const struct renderer render_text = {
	.render = text_render,
};

static size_t
text_width(const char *s)
{
	size_t	 n = 0;

	for (; *s != '\0'; s++) {
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	}
	return (n);
}

/*
 * Write s with control characters shown as '?', so a name cannot drive a
 * terminal.
 */
static void
text_clean(struct outbuf *ob, const char *s)
{
	for (; *s != '\0'; s++)
		outbuf_putc(ob, (unsigned char)*s < 0x20 || *s == 0x7f ?
		    '?' : *s);
}

static void
text_cell(struct outbuf *ob, const struct display_cell *c, size_t width,
    int last)
{
	const char	*s = c->text ? c->text : "";
	size_t		 w = text_width(s) + (c->flags & DISPLAY_TREE ?
			     2 * c->indent : 0), i;

	if (c->flags & DISPLAY_NUM) {
		for (i = w; i < width; i++)
			outbuf_putc(ob, ' ');
		text_clean(ob, s);
		return;
	}
	if (c->flags & DISPLAY_TREE) {
		for (i = 0; i < c->indent; i++)
			outbuf_puts(ob, "  ");
	}
	text_clean(ob, s);
	if (!last) {
		for (i = w; i < width; i++)
			outbuf_putc(ob, ' ');
	}
}

/* A table, columns aligned; -1 if out of memory. */
static int
text_table(struct outbuf *ob, const struct display_block *b)
{
	size_t			*width, r, w, span, i;
	uint32_t		 col, k;
	const struct display_cell *c;

	if (b->nrows == 0) {
		outbuf_puts(ob, "None.\n");
		return (0);
	}
	/* Without its widths a table is not left out: the page fails. */
	if ((width = calloc(b->ncols ? b->ncols : 1, sizeof *width)) == NULL)
		return (-1);
	for (col = 0; col < b->ncols; col++)
		width[col] = text_width(b->head[col].text ?
		    b->head[col].text : "");
	for (r = 0; r < b->nrows; r++) {
		for (col = 0; col < b->ncols; col++) {
			c = &b->cells[r * b->ncols + col];
			w = text_width(c->text ? c->text : "") +
			    (c->flags & DISPLAY_TREE ? 2 * c->indent : 0);
			if (w > width[col])
				width[col] = w;
		}
	}
	/* A group label wider than its columns widens the last of them. */
	for (col = 0; b->group != NULL && col < b->ncols; col++) {
		if (b->group[col].text == NULL || b->group[col].span == 0)
			continue;
		for (k = 0, span = 0; k < b->group[col].span; k++)
			span += width[col + k] + (k ? 2 : 0);
		w = text_width(b->group[col].text);
		if (w > span)
			width[col + b->group[col].span - 1] += w - span;
	}
	if (b->group != NULL) {
		for (col = 0; col < b->ncols; col = k) {
			k = col + 1;
			if (col > 0)
				outbuf_puts(ob, "  ");
			if (b->group[col].text == NULL ||
			    b->group[col].span == 0) {
				for (i = 0; i < width[col]; i++)
					outbuf_putc(ob, ' ');
				continue;
			}
			k = col + b->group[col].span;
			for (span = 0, i = col; i < k; i++)
				span += width[i] + (i > col ? 2 : 0);
			text_clean(ob, b->group[col].text);
			if (k < b->ncols) {
				for (i = text_width(b->group[col].text);
				    i < span; i++)
					outbuf_putc(ob, ' ');
			}
		}
		outbuf_putc(ob, '\n');
	}
	for (col = 0; col < b->ncols; col++) {
		if (col > 0)
			outbuf_puts(ob, "  ");
		text_cell(ob, &b->head[col], width[col], col + 1 == b->ncols);
	}
	outbuf_putc(ob, '\n');
	for (r = 0; r < b->nrows; r++) {
		for (col = 0; col < b->ncols; col++) {
			if (col > 0)
				outbuf_puts(ob, "  ");
			text_cell(ob, &b->cells[r * b->ncols + col], width[col],
			    col + 1 == b->ncols);
		}
		outbuf_putc(ob, '\n');
	}
	free(width);
	return (0);
}

/* Does block i print anything (see the top of this file)? */
static int
text_shown(const struct display *d, size_t i)
{
	const struct display_block	*b = &d->blocks[i];
	size_t				 n;

	switch (b->kind) {
	case DISPLAY_TEXT:
		/* A label of the links that follow ("Transform f:"). */
		n = strlen(b->text);
		return (!(n > 0 && b->text[n - 1] == ':' &&
		    i + 1 < d->nblocks &&
		    d->blocks[i + 1].kind == DISPLAY_LINKS));
	case DISPLAY_TABLE:
	case DISPLAY_CRUMBS:
		return (1);
	case DISPLAY_HEADING:
		for (i++; i < d->nblocks &&
		    d->blocks[i].kind != DISPLAY_HEADING; i++) {
			if (text_shown(d, i))
				return (1);
		}
		return (0);
	default:
		return (0);
	}
}

/*
 * "Range: A s to B s from the start", A and B as range= (or
 * base_range=, key) has them. -1 if out of memory.
 */
static int
text_range(struct outbuf *ob, const char *label, const struct query *q,
    enum query_key key)
{
	char	*v, *comma;

	if ((v = query_key_text(q, key)) == NULL)
		return (-1);
	if ((comma = strchr(v, ',')) != NULL)
		*comma++ = '\0';
	outbuf_printf(ob, "%s: %s s to %s s from the start\n", label, v,
	    comma ? comma : "?");
	free(v);
	return (0);
}

/* The time range and threads in force (see the top); -1 if no memory. */
static int
text_state(struct outbuf *ob, const struct query *q)
{
	const char	*s;

	if (q == NULL)
		return (0);
	if (query_range_set(q->range) &&
	    text_range(ob, "Range", q, QUERY_RANGE) == -1)
		return (-1);
	if (*q->thread != '\0') {
		/* thread= values, one a line in the query: a list here. */
		outbuf_puts(ob, "Threads: ");
		for (s = q->thread; *s != '\0'; s++) {
			if (*s == '\n')
				outbuf_puts(ob, ", ");
			else
				outbuf_putc(ob, (unsigned char)*s < 0x20 ||
				    *s == 0x7f ? '?' : *s);
		}
		outbuf_putc(ob, '\n');
	}
	if (query_range_set(q->base_range) &&
	    text_range(ob, "Base range", q, QUERY_BASE_RANGE) == -1)
		return (-1);
	return (0);
}

static int
text_render(struct outbuf *ob, const json_t *j, const struct display *d,
    const struct render_context *ctx)
{
	const struct display_block	*b;
	size_t				 i, k;

	text_clean(ob, d->title);
	outbuf_putc(ob, '\n');
	for (k = text_width(d->title); k > 0; k--)
		outbuf_putc(ob, '=');
	outbuf_putc(ob, '\n');
	if (text_state(ob, d->self) == -1)
		return (-1);
	for (i = 0; i < d->nblocks; i++) {
		b = &d->blocks[i];
		if (!text_shown(d, i))
			continue;
		outbuf_putc(ob, '\n');
		switch (b->kind) {
		case DISPLAY_HEADING:
			text_clean(ob, b->text);
			outbuf_putc(ob, '\n');
			for (k = text_width(b->text); k > 0; k--)
				outbuf_putc(ob, '-');
			outbuf_putc(ob, '\n');
			break;
		case DISPLAY_TEXT:
			text_clean(ob, b->text);
			outbuf_putc(ob, '\n');
			break;
		case DISPLAY_TABLE:
			if (text_table(ob, b) == -1)
				return (-1);
			break;
		case DISPLAY_LINKS:
		case DISPLAY_FORM:
		case DISPLAY_FLAME:
		case DISPLAY_COMPARE:
		case DISPLAY_TIMELINE:
		case DISPLAY_CHART:
			break;
		case DISPLAY_CRUMBS:
			outbuf_puts(ob, "Transforms: ");
			for (k = 0; k < b->nrows; k++) {
				if (k > 0)
					outbuf_puts(ob, " > ");
				text_clean(ob, b->cells[k].text);
			}
			outbuf_putc(ob, '\n');
			break;
		}
	}
	return (outbuf_failed(ob));
}
