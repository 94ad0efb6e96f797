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

#ifndef PROFILE_BUILDER_H
#define PROFILE_BUILDER_H

/*
 * Building a profile. A reader creates a builder, declares its metrics,
 * interns functions, walks stacks with profile_builder_child() (which
 * finds or creates the child of a node for a function) and adds self
 * values to nodes. profile_builder_finish() computes the inclusive and
 * per-function values and hands over a read-only profile.
 *
 * Every call that can fail returns -1 or PROFILE_NONE and leaves the
 * reason in profile_builder_error(); the reader then frees the builder
 * and reports that reason with its own position in the input.
 *
 * A reader whose file records source lines also builds, beside the
 * tree, the tree of frames at lines (lines.h): a frame is a function at
 * a line of a file, profile_builder_line_frame (line 0: unknown, which
 * keeps a stack's shape without a row), or at an address; the stack's
 * frames are walked from the line tree's root (PROFILE_ROOT) with
 * profile_builder_line_child and a sample's values added to its last
 * with profile_builder_line_add, mirroring profile_builder_child and
 * _add. A call graph (callgrind) gives a line's self cost and its calls
 * directly instead (profile_builder_line_self, _call). A profile none
 * of whose frames has a line keeps no line data.
 */

#include <stddef.h>
#include <stdint.h>

#include "profile.h"

struct profile_builder;

struct profile_builder	*profile_builder_create(const char *);
void		 profile_builder_free(struct profile_builder *);
void		 profile_builder_set_max_nodes(struct profile_builder *,
		     uint32_t);
int		 profile_builder_metric(struct profile_builder *, const char *,
		     const char *);
const char	*profile_builder_metric_unit(const struct profile_builder *,
		     int);
void		 profile_builder_metric_rate(struct profile_builder *, int,
		     double);
uint32_t	 profile_builder_string(struct profile_builder *, const char *,
		     size_t);
uint32_t	 profile_builder_func(struct profile_builder *, const char *,
		     size_t, const char *, size_t);
uint32_t	 profile_builder_func_find(struct profile_builder *,
		     const char *, size_t, const char *, size_t);
void		 profile_builder_func_location(struct profile_builder *,
		     uint32_t, const char *, size_t, uint32_t);
uint32_t	 profile_builder_func_file(const struct profile_builder *,
		     uint32_t);
uint32_t	 profile_builder_child(struct profile_builder *, uint32_t,
		     uint32_t);
uint32_t	 profile_builder_child_hashed(struct profile_builder *,
		     uint32_t, uint32_t, uint64_t);
int		 profile_builder_chain(struct profile_builder *, uint32_t,
		     const uint32_t *, size_t, uint32_t *);
uint64_t	 profile_builder_prefetch(const struct profile_builder *,
		     uint32_t, uint32_t);
void		 profile_builder_prefetch_node(const struct profile_builder *,
		     uint64_t);
uint32_t	 profile_builder_nnodes(const struct profile_builder *);
uint32_t	 profile_builder_node_func(const struct profile_builder *,
		     uint32_t);
uint32_t	 profile_builder_node_parent(const struct profile_builder *,
		     uint32_t);
int		 profile_builder_add(struct profile_builder *, uint32_t, int,
		     int64_t);
int		 profile_builder_sample(struct profile_builder *, uint32_t,
		     int64_t);
int		 profile_builder_clock(struct profile_builder *, const char *,
		     double);
int		 profile_builder_time_mode(struct profile_builder *, int, int);
uint32_t	 profile_builder_thread(struct profile_builder *, const char *,
		     size_t, const char *, size_t, int64_t, int64_t);
int		 profile_builder_timed(struct profile_builder *, uint32_t,
		     uint32_t, int64_t, int64_t, int64_t);
int		 profile_builder_mark(struct profile_builder *, uint32_t,
		     int64_t, const char *, size_t);
int		 profile_builder_times_like(struct profile_builder *,
		     const struct profile *, int64_t, int64_t,
		     const uint8_t *);
int		 profile_builder_like(struct profile_builder *,
		     const struct profile *);
int		 profile_builder_graft(struct profile_builder *,
		     const struct profile *, const uint8_t *, uint32_t *);
void		 profile_builder_set_extra(struct profile_builder *, void *,
		     void (*)(void *));
void		 profile_builder_set_site(struct profile_builder *,
		     int (*)(const struct profile *, uint32_t,
		     struct profile_site *));
uint32_t	 profile_builder_line_frame(struct profile_builder *,
		     uint32_t, uint32_t, uint32_t);
uint32_t	 profile_builder_addr_frame(struct profile_builder *,
		     uint32_t, uint64_t);
uint32_t	 profile_builder_line_child(struct profile_builder *,
		     uint32_t, uint32_t);
int		 profile_builder_line_add(struct profile_builder *, uint32_t,
		     int, int64_t);
int		 profile_builder_line_self(struct profile_builder *,
		     uint32_t, int, int64_t);
int		 profile_builder_line_call(struct profile_builder *,
		     uint32_t, uint32_t, int, int64_t, uint64_t);
const char	*profile_builder_error(const struct profile_builder *);
struct profile	*profile_builder_finish(struct profile_builder *, char **);

#endif /* PROFILE_BUILDER_H */
