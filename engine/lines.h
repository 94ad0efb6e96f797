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

#ifndef LINES_H
#define LINES_H

/*
 * Line-level costs: per function, its cost by source line (or by
 * address, when a profile has addresses and no lines) and the calls
 * made from each line. A profile has them only when its file records
 * lines (profile.lines is NULL otherwise: a profile without lines pays
 * one pointer).
 *
 * A function's rows are its (file, line) positions, sorted by file name
 * then line; each row has
 *
 *  - self: the cost whose innermost frame is the function at that line;
 *  - total: the cost of the samples that pass through the function at
 *    that line anywhere in their stack, each sample counted once however
 *    often (recursion) it passes there: `go tool pprof -list''s cum;
 *  - calls: per callee, the cost of the samples in which the function,
 *    at that line, calls it directly, each sample counted once.
 *
 * Formats that record a call graph rather than stacks (callgrind) give
 * the rows directly: self as the cost lines say, each call's inclusive
 * cost and count as its calls= line says (callgrind_annotate's "=>"
 * lines), and a row's total is its self plus its calls' costs.
 *
 * Readers build the rows through the profile builder
 * (profile_builder_line_*): beside the calling-context tree, a tree of
 * frames that are (function, line) pairs, which profile_builder_finish
 * reduces to the rows and frees. The rows live in one block of memory
 * (or of a cache file's mapping: cache.c), laid out by lines_layout().
 */

#include <stddef.h>
#include <stdint.h>

#define LINES_ADDR	0x1	/* row_addr: rows are addresses */
#define LINES_COUNTS	0x2	/* call_count: calls counted (callgrind) */
#define LINES_GRAPH	0x4	/* from a call graph: total = self + calls */
#define LINES_FLAGS	0x7

#define LINES_NONE	UINT32_MAX
#define LINES_ARRAYS	10	/* in a block (lines_layout) */

struct profile;

struct profile_lines {
	uint32_t	 nfuncs;	/* the profile's */
	uint32_t	 nmetrics;	/* the profile's */
	uint32_t	 nrows;
	uint32_t	 ncalls;
	uint32_t	 flags;		/* LINES_* */
	const uint32_t	*func_rows;	/* [nfuncs + 1]: f's rows start */
	const uint32_t	*row_file;	/* [nrows]: string id, 0 = unknown */
	const uint32_t	*row_line;	/* [nrows]: 1-based, 0 = an address */
	const uint64_t	*row_addr;	/* [nrows] with LINES_ADDR, else NULL */
	const uint32_t	*row_calls;	/* [nrows + 1]: row r's calls start */
	const uint32_t	*call_func;	/* [ncalls]: the callee */
	const uint64_t	*call_count;	/* [ncalls] with LINES_COUNTS */
	const int64_t	*self;		/* [nmetrics * nrows], metric-major */
	const int64_t	*total;		/* [nmetrics * nrows] */
	const int64_t	*call_total;	/* [nmetrics * ncalls] */
	void		*block;		/* what is freed; NULL when mapped */
	size_t		 blocklen;
};

struct lines_builder;

/* Building (profile-builder.c calls these; readers call the builder). */
struct lines_builder *lines_builder_create(void);
void		 lines_builder_free(struct lines_builder *);
uint32_t	 lines_builder_frame(struct lines_builder *, uint32_t,
		     uint32_t, uint32_t, uint64_t, int);
uint32_t	 lines_builder_child(struct lines_builder *, uint32_t,
		     uint32_t);
int		 lines_builder_add(struct lines_builder *, uint32_t, int,
		     int64_t);
int		 lines_builder_self(struct lines_builder *, uint32_t, int,
		     int64_t);
int		 lines_builder_call(struct lines_builder *, uint32_t,
		     uint32_t, int, int64_t, uint64_t);
void		 lines_builder_set_max(struct lines_builder *, uint32_t);
const char	*lines_builder_error(const struct lines_builder *);
int		 lines_builder_finish(struct lines_builder *,
		     const struct profile *, struct profile_lines **,
		     const char **);

/* The rows of a built or mapped profile. */
int		 lines_layout(const struct profile_lines *, size_t *,
		     size_t *);
int		 lines_map(struct profile_lines *, const void *, size_t);
int		 lines_check(const struct profile_lines *, uint32_t);
void		 lines_free(struct profile_lines *);
size_t		 lines_memory(const struct profile_lines *);
uint32_t	 lines_func_first(const struct profile_lines *, uint32_t);
uint32_t	 lines_func_end(const struct profile_lines *, uint32_t);
uint32_t	 lines_hottest(const struct profile_lines *, uint32_t, uint32_t);

#endif /* LINES_H */
