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

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "display.h"
#include "query.h"

/* Format-neutral displays (see display.h). */

static struct display_block *display_add(struct display *,
		    enum display_kind);
static char	*display_strdup(struct display *, const char *);
static char	*display_percent_slow(int64_t, int64_t);

/*
 * Room for n bytes in the display's arena. A page's strings (thousands of
 * cells, links and toggles) all live as long as the display: they are
 * carved out of a few chunks and freed with them, not one by one.
 * Chunks stay under 64 KB, which glibc would take as a reason to
 * consolidate its free lists on each free.
 */
static char *
display_alloc(struct display *d, size_t n)
{
	struct display_chunk	*c;
	size_t			 size;

	if (d->chunk == NULL || n > d->chunk->size - d->chunk->used) {
		size = DISPLAY_CHUNK;
		if (n > size - sizeof *c)
			size = sizeof *c + n;
		if ((c = malloc(size)) == NULL) {
			d->failed = 1;
			return (NULL);
		}
		c->size = size - sizeof *c;
		c->used = 0;
		c->prev = d->chunk;
		d->chunk = c;
	}
	c = d->chunk;
	c->used += n;
	return (c->data + c->used - n);
}

static char *
display_strdup(struct display *d, const char *s)
{
	char	*c;
	size_t	 n;

	if (s == NULL)
		return (NULL);
	n = strlen(s) + 1;
	if ((c = display_alloc(d, n)) != NULL)
		memcpy(c, s, n);
	return (c);
}

/*
 * s, a string the caller allocated, moved into the display (which frees
 * it); NULL (and the display failed) if out of memory.
 */
char *
display_take(struct display *d, char *s)
{
	char	*c;

	if (s == NULL)
		return (NULL);
	c = display_strdup(d, s);
	free(s);
	return (c);
}

/* Create a display with a title; NULL if out of memory. */
struct display *
display_create(const char *title)
{
	struct display	*d;

	if ((d = calloc(1, sizeof *d)) == NULL)
		return (NULL);
	if ((d->title = display_strdup(d, title)) == NULL) {
		display_free(d);
		return (NULL);
	}
	return (d);
}

/* Free a display. */
void
display_free(struct display *d)
{
	struct display_chunk	*c;
	size_t			 i;

	if (d == NULL)
		return;
	for (i = 0; i < d->nblocks; i++) {
		free(d->blocks[i].chart);
		free(d->blocks[i].head);
		free(d->blocks[i].group);
		free(d->blocks[i].cells);
	}
	free(d->blocks);
	query_free(d->self);
	while ((c = d->chunk) != NULL) {
		d->chunk = c->prev;
		free(c);
	}
	free(d);
}

/* Did any building call run out of memory? */
int
display_failed(const struct display *d)
{
	return (d->failed);
}

static struct display_block *
display_add(struct display *d, enum display_kind kind)
{
	struct display_block	*b;
	size_t			 cap;

	if (d->failed)
		return (NULL);
	if (d->nblocks == d->cap) {
		cap = d->cap ? d->cap * 2 : 8;
		if ((b = reallocarray(d->blocks, cap, sizeof *b)) == NULL) {
			d->failed = 1;
			return (NULL);
		}
		d->blocks = b;
		d->cap = cap;
	}
	b = &d->blocks[d->nblocks++];
	memset(b, 0, sizeof *b);
	b->kind = kind;
	return (b);
}

/* Add a heading. */
void
display_heading(struct display *d, const char *text)
{
	struct display_block	*b;

	if ((b = display_add(d, DISPLAY_HEADING)) != NULL)
		b->text = display_strdup(d, text);
}

/* Add a paragraph of text. */
void
display_text(struct display *d, const char *fmt, ...)
{
	struct display_block	*b;
	va_list			 ap;
	char			*s;

	if ((b = display_add(d, DISPLAY_TEXT)) == NULL)
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) == -1)
		d->failed = 1;
	else
		b->text = display_take(d, s);
	va_end(ap);
}

/* Add an empty row of links. */
struct display_block *
display_links(struct display *d)
{
	return (display_add(d, DISPLAY_LINKS));
}

/*
 * A switch: a labelled row of links to the same page in each of a few
 * ways (metrics), the current one added with a NULL link. Only HTML
 * shows it.
 */
struct display_block *
display_switch(struct display *d, const char *label)
{
	struct display_block	*b;

	if ((b = display_add(d, DISPLAY_LINKS)) != NULL)
		b->text = display_strdup(d, label);
	return (b);
}

/* Append a link (text, canonical query string) to a row of links. */
void
display_link(struct display *d, struct display_block *b, const char *text,
    const char *link)
{
	struct display_cell	*c;
	size_t			 cap;

	if (b == NULL || d->failed)
		return;
	if (b->nrows == b->cap) {
		cap = b->cap ? b->cap * 2 : 8;
		if ((c = reallocarray(b->cells, cap, sizeof *c)) == NULL) {
			d->failed = 1;
			return;
		}
		b->cells = c;
		b->cap = cap;
	}
	c = &b->cells[b->nrows++];
	memset(c, 0, sizeof *c);
	c->text = display_strdup(d, text);
	c->link = display_strdup(d, link);
}

/* Add a table of ncols columns; id names it in HTML (may be NULL). */
struct display_block *
display_table(struct display *d, uint32_t ncols, const char *id)
{
	struct display_block	*b;

	if ((b = display_add(d, DISPLAY_TABLE)) == NULL)
		return (NULL);
	b->ncols = ncols;
	b->id = display_strdup(d, id);
	if ((b->head = calloc(ncols, sizeof *b->head)) == NULL)
		d->failed = 1;
	return (b);
}

/* Set column col's header (and a link, e.g. to sort by it). */
void
display_head(struct display *d, struct display_block *b, uint32_t col,
    const char *text, const char *link, int flags)
{
	if (b == NULL || b->head == NULL || col >= b->ncols || d->failed)
		return;
	b->head[col].text = display_strdup(d, text);
	b->head[col].link = display_strdup(d, link);
	b->head[col].flags = flags;
}

/*
 * Put a group header over columns col .. col + span - 1 (a second header
 * row above the column headers, as Mercury groups a metric's columns).
 */
void
display_group(struct display *d, struct display_block *b, uint32_t col,
    uint32_t span, const char *text)
{
	if (b == NULL || b->head == NULL || d->failed || col >= b->ncols ||
	    span == 0 || span > b->ncols - col)
		return;
	if (b->group == NULL &&
	    (b->group = calloc(b->ncols, sizeof *b->group)) == NULL) {
		d->failed = 1;
		return;
	}
	b->group[col].text = display_strdup(d, text);
	b->group[col].span = span;
}

/* Give a cell a second, minor link (the tree's "root here"). */
void
display_aux(struct display *d, struct display_cell *c, const char *text,
    const char *link)
{
	if (c == NULL || d->failed || link == NULL)
		return;
	c->aux = display_strdup(d, link);
	c->auxtext = display_strdup(d, text);
}

/* Add an empty row to a table; returns its index. */
size_t
display_row(struct display *d, struct display_block *b)
{
	struct display_cell	*c;
	size_t			 cap;

	if (b == NULL || d->failed)
		return (0);
	if (b->nrows == b->cap) {
		cap = b->cap ? b->cap * 2 : 16;
		if ((c = reallocarray(b->cells, cap * b->ncols, sizeof *c)) ==
		    NULL) {
			d->failed = 1;
			return (0);
		}
		b->cells = c;
		b->cap = cap;
	}
	memset(&b->cells[b->nrows * b->ncols], 0, b->ncols * sizeof *c);
	return (b->nrows++);
}

/* Fill a cell; returns it for setting indent or toggle, or NULL. */
struct display_cell *
display_cell(struct display *d, struct display_block *b, size_t row,
    uint32_t col, const char *text, const char *link, int flags)
{
	struct display_cell	*c;

	if (b == NULL || d->failed || row >= b->nrows || col >= b->ncols)
		return (NULL);
	c = &b->cells[row * b->ncols + col];
	c->text = display_strdup(d, text);
	c->link = display_strdup(d, link);
	c->flags = flags;
	return (c);
}

/* A cell of number v (display_number()), right-aligned, no link. */
struct display_cell *
display_cell_number(struct display *d, struct display_block *b, size_t row,
    uint32_t col, int64_t v)
{
	char	 n[DISPLAY_NUMBUF];

	display_number_buf(n, v);
	return (display_cell(d, b, row, col, n, NULL, DISPLAY_NUM));
}

/*
 * display_cell() with text and link (either may be NULL) taken, not
 * copied: a page's rows make them for the cell alone. They are freed
 * here if the cell cannot take them.
 */
struct display_cell *
display_cell_take(struct display *d, struct display_block *b, size_t row,
    uint32_t col, char *text, char *link, int flags)
{
	struct display_cell	*c;

	if (b == NULL || d->failed || row >= b->nrows || col >= b->ncols) {
		free(text);
		free(link);
		return (NULL);
	}
	c = &b->cells[row * b->ncols + col];
	c->text = display_take(d, text);
	c->link = display_take(d, link);
	c->flags = flags;
	return (c);
}

/*
 * A cell's third link, after its aux (a tree row's "source" beside its
 * "root here"), the link taken (freed if not taken).
 */
void
display_more_take(struct display *d, struct display_cell *c,
    const char *text, char *link)
{
	if (c == NULL || d->failed || link == NULL) {
		free(link);
		return;
	}
	c->more = display_take(d, link);
	c->moretext = display_strdup(d, text);
}

/* Name cell c so that a link ending in #anchor leads to it (HTML). */
void
display_anchor(struct display *d, struct display_cell *c, const char *anchor)
{
	if (c == NULL || d->failed)
		return;
	c->anchor = display_strdup(d, anchor);
}

/* display_aux() with the link taken, not copied (freed if not taken). */
void
display_aux_take(struct display *d, struct display_cell *c,
    const char *text, char *link)
{
	if (c == NULL || d->failed || link == NULL) {
		free(link);
		return;
	}
	c->aux = display_take(d, link);
	c->auxtext = display_strdup(d, text);
}

/* A button that POSTs a query (state changes never go over GET links). */
void
display_form(struct display *d, const char *label, const char *link)
{
	struct display_block	*b;

	if ((b = display_add(d, DISPLAY_FORM)) == NULL)
		return;
	b->text = display_strdup(d, label);
	display_link(d, b, label, link);
}

/*
 * Add an empty row of breadcrumbs (links added with display_link) in
 * front of every other block: the transform stack heads the page.
 */
struct display_block *
display_crumbs(struct display *d)
{
	struct display_block	 b;

	if (display_add(d, DISPLAY_CRUMBS) == NULL)
		return (NULL);
	b = d->blocks[d->nblocks - 1];
	memmove(&d->blocks[1], &d->blocks[0],
	    (d->nblocks - 1) * sizeof d->blocks[0]);
	d->blocks[0] = b;
	return (&d->blocks[0]);
}

/*
 * Move the blocks from first on to before the page's first table or
 * flame graph (they stay where they are when it has none): what the
 * page offers to do with its subject comes before the subject's rows.
 */
void
display_hoist(struct display *d, size_t first)
{
	struct display_block	*tmp;
	size_t			 at, n;

	if (d->failed || first >= d->nblocks)
		return;
	for (at = 0; at < first; at++) {
		if (d->blocks[at].kind == DISPLAY_TABLE ||
		    d->blocks[at].kind == DISPLAY_FLAME)
			break;
	}
	if (at == first)
		return;
	n = d->nblocks - first;
	if ((tmp = reallocarray(NULL, n, sizeof *tmp)) == NULL) {
		d->failed = 1;
		return;
	}
	memcpy(tmp, &d->blocks[first], n * sizeof *tmp);
	memmove(&d->blocks[at + n], &d->blocks[at],
	    (first - at) * sizeof *tmp);
	memcpy(&d->blocks[at], tmp, n * sizeof *tmp);
	free(tmp);
}

/*
 * The page's own query: renderers make from it the links that keep the
 * view state (the header's, the state bar's) and the search form's
 * hidden fields.
 */
void
display_self(struct display *d, const struct query *q)
{
	if (d->failed || q == NULL)
		return;
	query_free(d->self);
	if ((d->self = query_copy(q)) == NULL)
		d->failed = 1;
}

/*
 * Where the report's flame graph goes, and its frames (the report's
 * result, flame.h, which must outlive the display): HTML draws them
 * there as an inline SVG, format=svg as the whole file; text shows
 * nothing.
 */
void
display_flame(struct display *d, const struct flame_graph *g)
{
	struct display_block	*b;

	if ((b = display_add(d, DISPLAY_FLAME)) != NULL)
		b->flame = g;
}

/*
 * The report's time view (timeline, heat map, flame chart), drawn by the
 * HTML renderer from the report's JSON (render-timeline.c).
 */
void
display_timeline(struct display *d)
{
	(void)display_add(d, DISPLAY_TIMELINE);
}

/*
 * A form that starts a comparison (HTML only): the profiles to pick
 * from are its cells, added with display_link(d, b, name, NULL); with
 * one, the profile compared, whose base is typed in.
 */
struct display_block *
display_compare(struct display *d)
{
	return (display_add(d, DISPLAY_COMPARE));
}

/*
 * A chart of n points of two lines named name0 and name1, and nmarks
 * marks (display_chart_mark): the caller fills x[], y[0][], y[1][].
 * NULL (the display failed) if out of memory.
 */
struct display_chart *
display_chart(struct display *d, size_t n, size_t nmarks, const char *name0,
    const char *name1)
{
	struct display_block	*b;
	struct display_chart	*c;
	size_t			 size;

	if (n > SIZE_MAX / 64 || nmarks > SIZE_MAX / 64 ||
	    (b = display_add(d, DISPLAY_CHART)) == NULL)
		return (NULL);
	/* The struct, then the int64 and double arrays, then pointers. */
	size = sizeof *c + n * (sizeof *c->x + 2 * sizeof *c->y[0]) +
	    nmarks * (sizeof *c->mx + sizeof *c->mtext);
	if ((c = calloc(1, size)) == NULL) {
		d->failed = 1;
		return (NULL);
	}
	c->n = n;
	c->nmarks = nmarks;
	c->x = (int64_t *)(c + 1);
	c->y[0] = (double *)(c->x + n);
	c->y[1] = c->y[0] + n;
	c->mx = (int64_t *)(c->y[1] + n);
	c->mtext = (const char **)(c->mx + nmarks);
	c->name[0] = display_strdup(d, name0);
	c->name[1] = display_strdup(d, name1);
	b->chart = c;
	return (c);
}

/* Mark i of a chart: at time x, labelled text. */
void
display_chart_mark(struct display *d, struct display_chart *c, size_t i,
    int64_t x, const char *text)
{
	if (c == NULL || i >= c->nmarks)
		return;
	c->mx[i] = x;
	c->mtext[i] = display_strdup(d, text);
}

/* A number with thousands separators; caller frees. */
char *
display_number(int64_t v)
{
	char	 out[DISPLAY_NUMBUF];

	display_number_buf(out, v);
	return (strdup(out));
}

/* display_number() into buf (DISPLAY_NUMBUF bytes), for a caller's copy. */
void
display_number_buf(char *out, int64_t v)
{
	char		 digits[32];
	uint64_t	 u = v < 0 ? -(uint64_t)v : (uint64_t)v;
	int		 n = 0, i, o = 0;

	/* By hand: a page formats hundreds of these, printf is the cost. */
	do {
		digits[n++] = '0' + u % 10;
		u /= 10;
	} while (u != 0);
	if (v < 0)
		out[o++] = '-';
	for (i = n - 1; i >= 0; i--) {
		out[o++] = digits[i];
		if (i > 0 && i % 3 == 0)
			out[o++] = ',';
	}
	out[o] = '\0';
}

/*
 * x with two decimals as printf's "%.2f" writes it, without printf for
 * the common case: 0 <= x < 10^9 and x * 100 not within rounding error
 * of a tie (there printf's exact decimal rounding is asked). -1 when
 * printf must do it.
 */
static int
display_fixed2(double x, char *buf, size_t size)
{
	double		 y, r;
	uint64_t	 u;
	size_t		 n;

	if (!(x >= 0 && x < 1e9))
		return (-1);
	y = x * 100;
	r = floor(y);
	if (fabs(y - r - 0.5) < 1e-6)
		return (-1);
	u = (uint64_t)r + (y - r > 0.5);
	if (size < 16)
		return (-1);
	/* u < 10^11 + 1: at most 9 digits, the point and two decimals. */
	buf[n = 15] = '\0';
	buf[--n] = '0' + u % 10;
	u /= 10;
	buf[--n] = '0' + u % 10;
	u /= 10;
	buf[--n] = '.';
	do {
		buf[--n] = '0' + u % 10;
		u /= 10;
	} while (u != 0);
	memmove(buf, buf + n, 16 - n);
	return (0);
}

/*
 * A real number: two decimals below 100, else rounded with thousands
 * separators (averages per call); caller frees.
 */
char *
display_real(double v)
{
	char	*s;

	if (v != v)
		return (strdup("-"));
	if (v > -100 && v < 100) {
		if (asprintf(&s, "%.2f", v) == -1)
			return (NULL);
		return (s);
	}
	return (display_number((int64_t)(v < 0 ? v - 0.5 : v + 0.5)));
}

/* Seconds scaled to s, ms, us or ns with three significant digits. */
char *
display_seconds(double v)
{
	static const struct {
		double		 scale;
		const char	*unit;
	} units[] = {
		{ 1, "s" }, { 1e-3, "ms" }, { 1e-6, "\xc2\xb5s" },
		{ 1e-9, "ns" },
	};
	double	 a = v < 0 ? -v : v, x;
	size_t	 i;
	char	*s, *n;

	if (v != v)
		return (strdup("-"));
	if (a == 0)
		return (strdup("0"));
	for (i = 0; i < 3 && a < units[i].scale; i++)
		;
	x = v / units[i].scale;
	a = x < 0 ? -x : x;
	if (a >= 1000) {
		if ((n = display_real(x)) == NULL)
			return (NULL);
		if (asprintf(&s, "%s %s", n, units[i].unit) == -1)
			s = NULL;
		free(n);
		return (s);
	}
	if (asprintf(&s, a >= 100 ? "%.0f %s" : a >= 10 ? "%.1f %s" :
	    "%.2f %s", x, units[i].unit) == -1)
		return (NULL);
	return (s);
}

/* v as a percentage of total, "12.34%"; caller frees. */
char *
display_percent(int64_t v, int64_t total)
{
	char	 buf[DISPLAY_NUMBUF];

	if (display_percent_buf(buf, v, total) == 0)
		return (strdup(buf));
	return (display_percent_slow(v, total));
}

/*
 * display_percent() into buf (DISPLAY_NUMBUF bytes); -1 where only
 * display_percent() (printf) can say it.
 */
int
display_percent_buf(char *buf, int64_t v, int64_t total)
{
	size_t	 n;

	if (total == 0) {
		memcpy(buf, "-", 2);
		return (0);
	}
	if (display_fixed2(100.0 * (double)v / (double)total, buf,
	    DISPLAY_NUMBUF - 1) == -1)
		return (-1);
	n = strlen(buf);
	buf[n] = '%';
	buf[n + 1] = '\0';
	return (0);
}

static char *
display_percent_slow(int64_t v, int64_t total)
{
	char	*s;

	if (asprintf(&s, "%.2f%%", 100.0 * (double)v / (double)total) == -1)
		return (NULL);
	return (s);
}
