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

#ifndef AGGREGATE_H
#define AGGREGATE_H

/*
 * Sums over the calling-context tree that count recursion once. A group
 * of functions (a module, a clique, one function's callers from one
 * caller) is credited with a node's inclusive value only when no
 * ancestor of that node was already credited to the same group, so a
 * recursive call never adds its time twice. Self values are summed over
 * every node, since they never overlap.
 *
 * Every walk is one pass over the tree without recursion (iterative,
 * following first-child / next-sibling / parent links), so deep trees
 * cannot overflow the C stack. A butterfly walks only the part of the
 * tree its set's nodes lie on, in the same order, when that part is
 * small: the same rows at a cost in the set's nodes, not the profile's.
 */

#include <stdint.h>

#include "idmap.h"

struct aggregate_memo;
struct cost;
struct funcnodes;
struct profile;

/*
 * What sums may reuse from one query to the next on one profile, kept
 * by the profile's index (profile-index.c): the memo of the last sums
 * (aggregate_memo_create), and the per-function node index
 * (funcnodes.h), with which a butterfly finds its set's nodes without a
 * scan of every node. A NULL cache, or NULL members, work too, at the
 * cost of a scan and no memo.
 */
struct aggregate_cache {
	struct aggregate_memo	*memo;
	const struct funcnodes	*nodes;
};

#define AGGREGATE_NONE	UINT32_MAX

/* What a caller or callee row is keyed by. */
enum aggregate_by {
	AGGREGATE_FUNC,		/* the calling (called) function */
	AGGREGATE_MODULE,	/* its module (string id) */
	AGGREGATE_CLIQUE,	/* its clique id */
	AGGREGATE_SITE,		/* the call site: the hook's, else the node */
};

/* Rows of values keyed by a 64-bit key, in order of first appearance. */
struct aggregate_rows {
	uint32_t	 n, cap, nmetrics;
	uint64_t	*key;
	uint32_t	*node;		/* first call node seen for the row */
	uint32_t	*nodes;		/* call nodes summed */
	uint32_t	*active;	/* walk: credited nodes on the path */
	int64_t		*self;		/* [n * nmetrics] */
	int64_t		*total;		/* [n * nmetrics], counted once */
	uint64_t	*calls;		/* [n] calls, from a call graph; or NULL */
	struct idmap	 map;		/* key -> row */
};

/* Callers and callees of a set of functions (one function, a clique). */
struct aggregate_butterfly {
	struct aggregate_rows	 callers;
	struct aggregate_rows	 callees;
	struct aggregate_rows	 set;	/* one row: the set itself */
};

/* The set and the groupings of a butterfly. */
struct aggregate_spec {
	const uint8_t		*in;		/* [nfuncs]: members */
	int			 internal;	/* member->member rows */
	enum aggregate_by	 callers_by;
	enum aggregate_by	 callees_by;
	const uint32_t		*clique;	/* [nfuncs], for _CLIQUE */
};

#define AGGREGATE_SITE_NODE	(1ULL << 63)	/* site key of a node */

/*
 * How aggregate_butterfly_how() sums, for the tests that compare the two
 * ways and for benchmarks; aggregate_butterfly() is _AUTO plus the memo.
 */
enum aggregate_how {
	AGGREGATE_HOW_AUTO,	/* over the set's span if small, else walk */
	AGGREGATE_HOW_WALK,	/* a walk of the whole tree */
	AGGREGATE_HOW_SPAN,	/* over the set's span, however large */
};

int	 aggregate_walk(const struct profile *, uint32_t,
	     void (*)(void *, uint32_t, int), void *, struct cost *);
int	 aggregate_groups(const struct profile *, struct aggregate_cache *,
	     const uint32_t *, uint32_t, struct aggregate_rows *,
	     struct cost *);
int	 aggregate_butterfly(const struct profile *, struct aggregate_cache *,
	     const struct aggregate_spec *, struct aggregate_butterfly *,
	     struct cost *);
int	 aggregate_butterfly_how(const struct profile *,
	     const struct aggregate_cache *, const struct aggregate_spec *,
	     struct aggregate_butterfly *, struct cost *, enum aggregate_how);
int	 aggregate_rows_init(struct aggregate_rows *, uint32_t, uint32_t,
	     int);
uint32_t aggregate_rows_row(struct aggregate_rows *, uint64_t, uint32_t);
void	 aggregate_rows_clear(struct aggregate_rows *);
void	 aggregate_butterfly_clear(struct aggregate_butterfly *);
struct aggregate_memo *aggregate_memo_create(void);
void	 aggregate_memo_free(struct aggregate_memo *);
uint64_t aggregate_memo_hits(const struct aggregate_memo *);

#endif /* AGGREGATE_H */
