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

#ifndef FLAME_H
#define FLAME_H

/*
 * A flame graph as cmd=flame computes it (engine/report-flame.c): the
 * typed result every rendering draws from, the JSON (report-flame.c),
 * the SVG file and the frames inline in the HTML page (render-svg.c).
 * The page's display carries a pointer to it (display_flame()), which
 * lives as long as the result.
 */

#include <stddef.h>
#include <stdint.h>

struct profile;

#define FLAME_NONE	UINT32_MAX

/*
 * One frame: its depth (0 is the whole profile), x and width in the
 * metric's units, its function, the call node it draws (FLAME_NONE in
 * a flame chart, whose frames are runs of samples), the frame under it
 * (an index into the frames, FLAME_NONE for the root) and its self
 * value. In a comparison, delta is value - base of the total, btotal
 * and bself the base's total and self as compared (scaled when
 * normalised). cut counts the frames above it left out of the page's
 * budget: zooming on it asks the server for them.
 */
struct flame_frame {
	uint32_t	 depth;
	uint32_t	 func;
	uint32_t	 node;
	uint32_t	 parent;
	int64_t		 x, w, self;
	int64_t		 delta, btotal, bself;
	uint32_t	 cut;
};

/* What the renderers draw: the frames kept, in drawing order. */
struct flame_graph {
	const struct profile		*p;
	int				 m;		/* the metric */
	const struct flame_frame	*v;
	size_t				 n;
	int64_t				 total;		/* x units in all */
	int64_t				 maxdelta;	/* comparisons */
	uint32_t			 depth;		/* deepest kept */
	int				 width;		/* pixels */
	int				 compared;
	int				 cut;		/* frames left out */
	const char			*style;		/* flame|icicle|chart */
	const char			*palette;
	const char			*title;		/* "" for the default */
	const char			*subtitle;
	const char			*countname;
};

#endif /* FLAME_H */
