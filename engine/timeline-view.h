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

#ifndef TIMELINE_VIEW_H
#define TIMELINE_VIEW_H

/*
 * What the reports that draw time (cmd=timeline, cmd=heatmap, the flame
 * chart) share: the window of time they show (the query's range=, else
 * the whole recording), the metric that measures activity (the query's
 * metric= if the timeline carries it, else the first it carries), and
 * each thread's activity in the window, threads ordered by it.
 */

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

struct cost;
struct profile;
struct query;
struct report_error;
struct timeline;
struct timeline_rec;

struct timeline_view {
	const struct profile	*p;
	const struct timeline	*tl;
	int64_t			 a, e;		/* the window [a, e) */
	int			 m;		/* activity metric */
	int			 mode;		/* its TIMELINE_* */
	int64_t			*total;		/* [nthreads] activity */
	uint32_t		*order;		/* active threads, busiest first */
	uint32_t		 nactive;
	uint64_t		 nrecords;	/* records in the window */
	int64_t			 sum;		/* all threads' activity */
};

int		 timeline_view_init(struct timeline_view *,
		     const struct profile *, const struct query *,
		     struct cost *, struct report_error *);
void		 timeline_view_clear(struct timeline_view *);
int64_t		 timeline_view_value(const struct timeline_view *,
		     const struct timeline_rec *, int64_t, int64_t);
double		 timeline_view_seconds(const struct timeline_view *, int64_t);
int		 timeline_view_json(json_t *, const struct timeline_view *);
const char	*timeline_view_unit(const struct timeline_view *);
void		 timeline_view_range(double *, const struct timeline *,
		     int64_t, int64_t);

#endif /* TIMELINE_VIEW_H */
