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

#ifndef READER_VIEW_H
#define READER_VIEW_H

/*
 * View files (deepq-clickhouse(7)): a small text file naming a
 * ClickHouse table and a selection, loaded by sending ClickHouse an
 * aggregate query (view-query.c), in the schema of view-schema.h. A
 * loaded view keeps what it needs to ask again: a query's select=,
 * from_time= and to_time= narrow it (reader_view_select, the last few
 * narrowings kept), and cmd=series asks for a function's share over
 * time (reader_view_series).
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <stdint.h>
#include <time.h>

#include "view-query.h"

struct cost;
struct profile;
struct query;

/* What a loaded view shows of itself (the summary page). */
struct reader_view_info {
	const struct view_summary *summary;
	const char	*select;	/* the file's select=, or NULL */
	const char	*where;		/* the file's where=, or NULL */
	const char	*narrow;	/* the query's select=, or NULL */
	time_t		 from, to;	/* the query's, 0 = none */
};

int		 reader_view_file(const char *);
const char	*reader_view_stale(const struct profile *, const char *);
int		 reader_view_unavailable(const char *);
int		 reader_view_secret(const struct profile *, struct stat *);
int		 reader_view_info(const struct profile *,
		     struct reader_view_info *);
int		 reader_view_labels(const struct profile *, struct cost *,
		     int *, char **);
int		 reader_view_remote(const struct profile *,
		     const struct query *);
const struct profile *reader_view_select(const struct profile *,
		     const char *, int64_t, int64_t, struct cost *, int *,
		     char **);
int		 reader_view_series(const struct profile *, uint32_t,
		     long long, const char *, struct cost *,
		     struct view_series **, int *, char **);

#endif /* READER_VIEW_H */
