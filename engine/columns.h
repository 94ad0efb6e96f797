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
#ifndef COLUMNS_H
#define COLUMNS_H

/*
 * The display conventions of every performance table, driven by the
 * preferences in the query (deepq-query(7)):
 *
 *	fields=	which metrics get a column group (default: metric=);
 *	pct=	a percentage of the profile's total beside each value;
 *	avg=	a per-call average beside each value, where the profile
 *		has a calls metric ("calls", else "entries");
 *	units=	seconds instead of raw counts where a rate is known;
 *	sort=, metric=	the header links that re-sort the page.
 *
 * A group is Self [%] [/call] Total [%] [/call] under the metric's name.
 * Everything is read from the profile and the query as report_metrics()
 * puts it in the JSON (a value a metric name: the last metric of that
 * name), so the HTML and text pages show what the JSON holds.
 */

#include <stdint.h>

#include <jansson.h>

#include "query.h"
#include "profile.h"

struct display;
struct display_block;
struct query;
struct report_error;

#define COLUMNS_SELF	0x1
#define COLUMNS_TOTAL	0x2
#define COLUMNS_SORT	0x4	/* headers link to re-sorted pages */

struct columns_group {
	const char	*metric;
	const char	*unit;
	double		 rate;		/* > 0: shown in seconds */
	int64_t		 sum;		/* the base of percentages */
	uint32_t	 index;		/* its values: metric index */
	int		 first;		/* the default metric */
	int		 calls;		/* the calls metric itself */
};

struct columns {
	struct columns_group	 g[PROFILE_MAX_METRICS];
	uint32_t		 ngroups;
	uint32_t		 per;		/* columns per group */
	int			 flags;
	int			 pct, avg;
	const char		*calls;		/* calls metric, or NULL */
	uint32_t		 calls_index;	/* its values: metric index */
	const char		*metric;	/* the sort metric */
	enum query_sort		 sort;
};

int		 columns_check(const struct profile *, const struct query *,
		     struct report_error *);
void		 columns_init(struct columns *,
		     const struct profile *, int, const struct query *, int);
uint32_t	 columns_count(const struct columns *);
void		 columns_head(struct display *, struct display_block *,
		     uint32_t, const struct columns *, const struct query *);
void		 columns_row(struct display *, struct display_block *,
		     size_t, uint32_t, const struct columns *, const int64_t *,
		     const int64_t *);
char		*columns_value(const struct columns *, uint32_t, int64_t);
void		 columns_controls(struct display *,
		     const struct profile *, int, const struct query *, int);
void		 columns_pager(struct display *, const struct query *,
		     int64_t, int64_t, int64_t);
void		 columns_metrics(struct display *, const struct query *,
		     const char *const *, size_t, size_t);
void		 columns_metrics_profile(struct display *,
		     const struct query *, const struct profile *, int, int);
void		 columns_views(struct display *, const struct query *);

#endif /* COLUMNS_H */
