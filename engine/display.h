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

#ifndef DISPLAY_H
#define DISPLAY_H

/*
 * A display is the format-neutral form of a report (Mercury's display
 * type): a title, breadcrumbs, and a list of blocks (headings, text,
 * link lists and tables whose cells may carry links and tree indents).
 * Renderers turn it into HTML or text without knowing which report it
 * came from.
 *
 * Building functions never fail visibly: on allocation failure the
 * display remembers it (display_failed) and later calls do nothing, so
 * report code need not check every call.
 *
 * Every string of a display lives in its arena and is freed with it:
 * set a cell's strings through these functions, or a string the caller
 * allocated through display_take(), never by assigning one of one's own.
 */

#include <stddef.h>
#include <stdint.h>

struct flame_graph;
struct query;

enum display_kind {
	DISPLAY_HEADING,
	DISPLAY_TEXT,
	DISPLAY_LINKS,		/* a row of links (menus, breadcrumbs); with a
				   text, a switch: NULL link is the current */
	DISPLAY_TABLE,
	DISPLAY_FORM,		/* a POST button (shutdown) */
	DISPLAY_CRUMBS,		/* transform stack; the last has no link */
	DISPLAY_FLAME,		/* the report's flame graph (HTML: inline) */
	DISPLAY_COMPARE,	/* a form: pick a profile and a base (cells) */
	DISPLAY_TIMELINE,	/* the report's time view (HTML: inline SVG) */
	DISPLAY_CHART,		/* a line chart over time (HTML: inline SVG) */
};

#define DISPLAY_NUM	0x1	/* right-aligned number */
#define DISPLAY_TREE	0x2	/* tree cell: indent and toggle */
#define DISPLAY_OPEN	0x4	/* tree cell whose children are shown */
#define DISPLAY_LEAF	0x8	/* tree cell with no children */
#define DISPLAY_STRONG	0x10
#define DISPLAY_DIM	0x20	/* zero or negligible value */
#define DISPLAY_UP	0x40	/* a change up (comparisons) */
#define DISPLAY_DOWN	0x80	/* a change down */
#define DISPLAY_MORE	0x100	/* tree: the row of a node's hidden children */
#define DISPLAY_CODE	0x200	/* a line of source code, as it is */
/* Share of the total, in percents; a code cell's: tenths of the hottest. */
#define DISPLAY_HEAT_SHIFT 12
#define DISPLAY_HEAT(share)	((int)(share) << DISPLAY_HEAT_SHIFT)

struct display_cell {
	char		*text;
	char		*link;		/* canonical query string, or NULL */
	char		*toggle;	/* tree: link that opens or closes */
	char		*aux;		/* a second, minor link (HTML only) */
	char		*auxtext;	/* its text */
	char		*more;		/* a third link (HTML only) */
	char		*moretext;	/* its text */
	char		*anchor;	/* HTML id a link's #fragment names */
	int		 flags;
	uint32_t	 indent;
	uint32_t	 span;		/* group header: columns it covers */
};

/*
 * A chart of two lines over time (shares from 0 to 1 at increasing Unix
 * times) with labelled marks at some times: one allocation, freed with
 * the display.
 */
struct display_chart {
	size_t		 n;		/* points */
	int64_t		*x;		/* [n] */
	double		*y[2];		/* [n] each */
	const char	*name[2];
	size_t		 nmarks;
	int64_t		*mx;		/* [nmarks] */
	const char	**mtext;	/* [nmarks] */
};

struct display_block {
	enum display_kind	 kind;
	struct display_chart	*chart;		/* DISPLAY_CHART's */
	char			*text;		/* heading, text, form label */
	char			*id;		/* HTML id, or NULL */
	uint32_t		 ncols;
	struct display_cell	*head;		/* [ncols] */
	struct display_cell	*group;		/* [ncols] headers over head */
	struct display_cell	*cells;		/* [nrows * ncols] or links */
	size_t			 nrows, cap;
	const struct flame_graph *flame;	/* DISPLAY_FLAME: the report's
						   result, which outlives the
						   display */
};

/* The arena a display's strings live in (display.c). */
#define DISPLAY_CHUNK	16384
struct display_chunk {
	struct display_chunk	*prev;
	size_t			 size, used;
	char			 data[];
};

struct display {
	char			*title;
	struct query		*self;		/* the page's own query, or NULL */
	struct display_chunk	*chunk;		/* its strings */
	struct display_block	*blocks;
	size_t			 nblocks, cap;
	int			 failed;
};

struct display	*display_create(const char *);
void		 display_free(struct display *);
int		 display_failed(const struct display *);
void		 display_heading(struct display *, const char *);
void		 display_hoist(struct display *, size_t);
void		 display_text(struct display *, const char *, ...)
		     __attribute__((__format__(__printf__, 2, 3)));
struct display_block *display_links(struct display *);
struct display_block *display_switch(struct display *, const char *);
void		 display_link(struct display *, struct display_block *,
		     const char *, const char *);
struct display_block *display_table(struct display *, uint32_t,
		     const char *);
void		 display_head(struct display *, struct display_block *,
		     uint32_t, const char *, const char *, int);
void		 display_group(struct display *, struct display_block *,
		     uint32_t, uint32_t, const char *);
size_t		 display_row(struct display *, struct display_block *);
struct display_cell *display_cell(struct display *, struct display_block *,
		     size_t, uint32_t, const char *, const char *, int);
struct display_cell *display_cell_number(struct display *,
		    struct display_block *, size_t, uint32_t, int64_t);
struct display_cell *display_cell_take(struct display *,
		     struct display_block *, size_t, uint32_t, char *, char *,
		     int);
char		*display_take(struct display *, char *);
void		 display_form(struct display *, const char *, const char *);
struct display_block *display_crumbs(struct display *);
void		 display_self(struct display *, const struct query *);
void		 display_flame(struct display *, const struct flame_graph *);
void		 display_timeline(struct display *);
struct display_block *display_compare(struct display *);
struct display_chart *display_chart(struct display *, size_t, size_t,
		     const char *, const char *);
void		 display_chart_mark(struct display *, struct display_chart *,
		     size_t, int64_t, const char *);
#define DISPLAY_NUMBUF	48	/* display_number_buf(), _percent_buf() */
char		*display_number(int64_t);
void		 display_number_buf(char *, int64_t);
int		 display_percent_buf(char *, int64_t, int64_t);
char		*display_percent(int64_t, int64_t);
char		*display_real(double);
char		*display_seconds(double);
void		 display_aux(struct display *, struct display_cell *,
		     const char *, const char *);
void		 display_aux_take(struct display *, struct display_cell *,
		     const char *, char *);
void		 display_anchor(struct display *, struct display_cell *,
		     const char *);
void		 display_more_take(struct display *, struct display_cell *,
		     const char *, char *);

#endif /* DISPLAY_H */
