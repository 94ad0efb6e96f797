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

#ifndef FUNCGRAPH_H
#define FUNCGRAPH_H

/*
 * The exact function call graph of a profile whose source records one
 * (callgrind, gprof): per function its self cost, per call edge (caller,
 * callee) the number of calls and their inclusive cost, as the file has
 * them. When a profile has one (profile.funcgraph), every function-level
 * figure comes from it, never from the calling-context tree, which for
 * these formats is only an estimate expanded from the graph:
 *
 *  - self: the function's own cost, summed over files, lines and
 *    instructions;
 *  - inclusive: a function that is called (by other functions: direct
 *    recursion aside) costs the sum of those calls, a function nobody
 *    calls its self plus its calls to other functions, as
 *    callgrind_annotate --inclusive=yes and KCachegrind compute it.
 *    Calls into a function never contain each other when the recorder
 *    names a nested activation apart (callgrind's recursion levels f'2),
 *    so the sum is exact for all but those levels. A cycle (a strongly
 *    connected component of several functions) as a whole costs its
 *    members' self plus the calls leaving it, KCachegrind's figure, so no
 *    cost is summed twice; a recursion level in a cycle costs, as a
 *    member does in KCachegrind, its self plus its calls leaving the
 *    cycle. A file that prints its own totals (gprof) keeps them;
 *  - callers and callees: the edges, each with its calls and inclusive
 *    cost; the self part of an edge, which a call graph does not
 *    record, is the callee's self cost shared in proportion to the
 *    edge's share of the cost of the calls into it (an estimate, never
 *    above the edge's inclusive cost), unless the file gives it (gprof).
 *
 * Built once by the reader (funcgraph_create, _edge, _attach) and then
 * read-only, like the profile it belongs to.
 */

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#define FUNCGRAPH_NONE	UINT32_MAX

struct aggregate_butterfly;
struct aggregate_rows;
struct aggregate_spec;
struct display;
struct profile;

struct funcgraph {
	uint32_t	 nfuncs;
	uint32_t	 nmetrics;
	uint32_t	 nedges, edgecap;
	uint32_t	*from;		/* [nedges]: caller, sorted once attached */
	uint32_t	*to;		/* [nedges]: callee */
	uint64_t	*calls;		/* [nedges] */
	int64_t		*cost;		/* [nedges * nmetrics]: inclusive */
	int64_t		*arcself;	/* [nedges * nmetrics] or NULL */
	int64_t		*self;		/* [nfuncs * nmetrics] */
	int64_t		*incl;		/* [nfuncs * nmetrics], attached */
	uint32_t	*out;		/* [nfuncs + 1]: edges by caller */
	uint32_t	*in;		/* [nfuncs + 1]: offsets into byto */
	uint32_t	*byto;		/* [nedges]: edges by callee */
	uint32_t	*cycle;		/* [nfuncs]: smallest member, or NONE */
	uint64_t	*fcalls;	/* [nfuncs]: calls from other functions */
	uint8_t		*level;		/* [nfuncs]: recursion levels, or NULL */
	int64_t		*given;		/* [nfuncs * nmetrics] or NULL */
	uint32_t	 ncycles;
	int		 edgeself;	/* arcself is given */
	int		 contexts;	/* the reader's tree has real contexts */
};

struct funcgraph *funcgraph_create(uint32_t, uint32_t, int);
void		 funcgraph_free(struct funcgraph *);
int		 funcgraph_self(struct funcgraph *, uint32_t, const int64_t *);
int		 funcgraph_total(struct funcgraph *, uint32_t, const int64_t *);
int		 funcgraph_level(struct funcgraph *, uint32_t);
int		 funcgraph_edge(struct funcgraph *, uint32_t, uint32_t,
		     uint64_t, const int64_t *, const int64_t *);
int		 funcgraph_attach(struct funcgraph *, struct profile *,
		     char **);
int		 funcgraph_butterfly(const struct profile *,
		     const struct aggregate_spec *,
		     struct aggregate_butterfly *);
int		 funcgraph_groups(const struct profile *, const uint32_t *,
		     uint32_t, struct aggregate_rows *);
int		 funcgraph_estimated(const struct profile *);
size_t		 funcgraph_memory(const struct funcgraph *);
int		 funcgraph_estimate(const struct profile *, int, int);
void		 funcgraph_note(struct display *);
int		 funcgraph_mark(json_t *);

#endif /* FUNCGRAPH_H */
