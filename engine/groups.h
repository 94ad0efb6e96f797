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

#ifndef GROUPS_H
#define GROUPS_H

/*
 * Groups of functions as cmd=modules and cmd=cliques list them (one row
 * a module, a recursive clique), and the member functions of one group
 * as cmd=module and cmd=clique list them: summed, named, ranked by
 * sort= (or a comparison's change), paged by from= and limit=, as JSON
 * rows and a table. What names a group and its own columns stay with
 * the report, through the callbacks.
 */

#include <stdint.h>

#include <jansson.h>

#include "aggregate.h"

struct diff;
struct display;
struct display_block;
struct profile;
struct query;
struct report_context;

/*
 * The n groups: their sums (rows), names (names[g], key[g] a function
 * id with AGGREGATE_CLIQUE, a string id with AGGREGATE_MODULE), in
 * order idx, rows from .. from + limit - 1 shown.
 */
struct groups {
	struct aggregate_rows	 rows;
	const char		**names;
	uint32_t		*idx;
	uint32_t		 n;
	int64_t			 from, limit;
};

/* A heading of a report's own columns, sort=name linked if sort. */
struct groups_head {
	const char	*name;
	int		 sort;
	int		 flags;		/* DISPLAY_* */
};

/* A group's JSON object, and its cells from column 0 (arg: the report). */
typedef json_t	*groups_json_cb(const void *, uint32_t);
typedef void	 groups_cells_cb(struct display *, struct display_block *,
		     size_t, const void *, uint32_t, const struct query *);

int	 groups_rank(struct groups *, const struct profile *,
	     const struct report_context *, const uint32_t *, uint32_t,
	     const uint32_t *, enum aggregate_by, int, int,
	     const struct diff *, int);
void	 groups_clear(struct groups *);
int	 groups_json(json_t *, json_t *, const struct profile *,
	     const struct groups *, const struct diff *, groups_json_cb *,
	     const void *);
void	 groups_display(struct display *, const char *,
	     const struct groups_head *, uint32_t, const struct profile *,
	     int, const struct query *, const struct groups *,
	     const struct diff *, groups_cells_cb *, const void *);
int	 groups_members_order(uint32_t *, uint32_t, const struct profile *,
	     int, int, const struct diff *, int);

#endif /* GROUPS_H */
