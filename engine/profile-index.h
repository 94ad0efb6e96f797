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

#ifndef PROFILE_INDEX_H
#define PROFILE_INDEX_H

/*
 * What queries derive from a whole profile and keep: the call graph and
 * its cliques, each function's call nodes, every node's children sorted
 * by weight, the function rankings, the deepest node and the module
 * count, the child-by-function lookups of wide nodes, aggregate.c's
 * memo of its last sums, and the timeline's checkpoint sums that
 * range= reads (timeline-sums.h). A warm query then costs what it shows, not the
 * profile's size.
 *
 * The index belongs to whoever holds the profile: the server creates
 * one after loading (server/deepq-server.c), `deepq query --local' and
 * the benchmarks theirs, and answer_query_parsed() one for a profile it
 * derives (transforms, base=) for the length of the query. Reports get
 * it in their context (report.h, report_context.index); it must be of
 * the profile they are given. The profile itself stays read-only.
 *
 * Parts are built on first use, charging the query that asks, except
 * what profile_index_prepare() builds at once. Not thread-safe: one
 * query at a time (the server's event loop; a forked worker fills its
 * own copy-on-write copy).
 */

#include <stddef.h>
#include <stdint.h>

struct aggregate_cache;
struct callgraph;
struct cost;
struct funcnodes;
struct profile;
struct profile_index;
struct timeline_sums;

/* Parents per entry of the index of profile_index_children()'s groups. */
#define PROFILE_INDEX_CHILD_BLOCK	8

struct profile_index *profile_index_create(const struct profile *);
void		 profile_index_free(struct profile_index *);
int		 profile_index_prepare(struct profile_index *, struct cost *);
const struct profile *profile_index_profile(const struct profile_index *);
size_t		 profile_index_memory(const struct profile_index *);

const struct callgraph *profile_index_callgraph(struct profile_index *,
		    struct cost *);
const struct funcnodes *profile_index_funcnodes(struct profile_index *,
		    struct cost *);
struct aggregate_cache *profile_index_aggregate(struct profile_index *,
		    struct cost *);
int		 profile_index_max_depth(struct profile_index *, uint32_t *);
int		 profile_index_nmodules(struct profile_index *, uint32_t *);
const uint32_t	*profile_index_children(struct profile_index *, int, uint32_t,
		    size_t *);
void		 profile_index_children_prefetch(const struct profile_index *,
		    uint32_t);
const uint32_t	*profile_index_func_order(struct profile_index *, int, int);
uint32_t	 profile_index_node_child(struct profile_index *, uint32_t,
		    uint32_t);
const struct timeline_sums *profile_index_sums(
		    const struct profile_index *);

#endif /* PROFILE_INDEX_H */
