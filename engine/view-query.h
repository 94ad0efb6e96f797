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

#ifndef VIEW_QUERY_H
#define VIEW_QUERY_H

/*
 * What a view asks ClickHouse (deepq-clickhouse(7)): the selection of a
 * view file, narrowed by a query's select=, from_time= and to_time=, as
 * SQL over the tables of view-schema.h, and the answers read back: the
 * view's profile (the sums of its stacks, aggregated in the database,
 * each stack's frames sent once), its summary (profiles, time range,
 * the labels present) and a function's share over time (cmd=series).
 * Every bound is checked here and named when hit.
 */

#include <stdint.h>
#include <time.h>

#include "selector.h"

struct clickhouse;
struct clickhouse_answer;
struct profile;

#define VIEW_MAX_LABELS		1000	/* label=value pairs of a summary */
#define VIEW_MAX_BUCKETS	1000	/* of a series */
#define VIEW_MAX_MARKERS	100	/* of a series */

/* A view file (reader-view.c parses it). */
struct view_conf {
	char		*clickhouse;
	char		*database;
	char		*table;
	char		*where;
	char		*user;
	char		*password_file;
	char		*metric;
	struct selector	*select;
	char		*select_text;
	time_t		 from;
	time_t		 to;
	long long	 last;		/* seconds before the load, 0 = none */
	long long	 refresh;	/* seconds, 0 = when the file changes */
	long long	 max_rows;	/* distinct stacks */
	long long	 max_bytes;	/* of the stacks' answer */
	long long	 timeout;	/* seconds */
};

/* A query's narrowing of a view: all of it ANDed with the file's. */
struct view_narrow {
	struct selector	*select;	/* or NULL */
	time_t		 from;		/* 0 = none */
	time_t		 to;
};

/* One request's context. */
struct view_query {
	struct clickhouse	*ch;
	const struct view_conf	*conf;
	const struct view_narrow *narrow;	/* or NULL */
	time_t			 now;		/* of the file's load (last=) */
	long long		 deadline;	/* rundir_now() ms, 0 = none */
	const char		*path;		/* for messages */
	uint32_t		 max_nodes;	/* 0 = the builder's */
};

/* What a view holds beyond its stacks. */
struct view_summary {
	uint64_t	 profiles;
	time_t		 first, last;	/* the profiles' times */
	char		**labels;	/* "key=value", sorted */
	uint64_t	*counts;	/* profiles with each */
	size_t		 nlabels;
	int		 truncated;	/* more than VIEW_MAX_LABELS */
	int		 labelled;	/* the labels were asked for */
};

/* cmd=series's answer. */
struct view_series {
	long long	 step;		/* seconds */
	long long	 asked;		/* the step= asked, when raised */
	size_t		 nmetrics;
	char		**metrics;
	size_t		 nbuckets;
	int64_t		*start;		/* [nbuckets], Unix seconds */
	int64_t		*all;		/* [nbuckets * nmetrics] */
	int64_t		*self;
	int64_t		*total;
	char		*marker;	/* the marker label's key */
	size_t		 nmarkers;
	int64_t		*mtime;		/* when each value first shows */
	char		**mvalue;
	int		 mtruncated;	/* more than VIEW_MAX_MARKERS */
};

struct profile	*view_query_profile(const struct view_query *,
		     struct view_summary *, int *, char **);
int		 view_query_labels(const struct view_query *,
		     struct view_summary *, int *, char **);
int		 view_query_series(const struct view_query *, const char *,
		     const char *, long long, const char *,
		     const struct view_summary *, const char *const *, size_t,
		     struct view_series **, int *, char **);
struct profile	*view_query_answer(struct clickhouse_answer *, size_t,
		     long long, char **);
void		 view_summary_clear(struct view_summary *);
void		 view_series_free(struct view_series *);

#endif /* VIEW_QUERY_H */
