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


#ifndef TIMELINE_SUMS_H
#define TIMELINE_SUMS_H

/*
 * Function figures of a timeline's records (timeline.h) without
 * building a profile: what range= answers for the reports that read
 * only functions (cmd=top; range.c), at a cost that follows the records
 * in the range and the call nodes they touch, not the whole tree.
 *
 * An accumulator keeps values at the call nodes records land on, a row
 * of `width` values each (metrics, or threads x metrics), sparse: a row
 * for each node touched. Flushing adds each row to the function
 * figures: its function's self, and the total of every function on its
 * path, each counted once however often it recurs there (a walk of the
 * node's ancestors, stamped per walk): the figures the profile builder
 * derives from the same values at every node.
 *
 * The sums are those figures at checkpoints, every `step` records
 * (cumulative from the first record, one set per thread when the
 * threads are few): a range is then the difference of the checkpoints
 * nearest its ends plus the records between each end and its
 * checkpoint, whatever its length. The profile index makes them once
 * (profile-index.c), for timelines of point samples (no metric takes a
 * span's duration, which a range cuts), whose values are all positive,
 * within TIMELINE_SUMS_MAX_BYTES and half the timeline's own memory.
 *
 * Figures are an array [2][nfuncs][width]: the functions' self, then
 * their total, a row of values each (so a flush adds a node's row to a
 * row for each function on its path, one run of memory).
 */

#include <stddef.h>
#include <stdint.h>

#define TIMELINE_SUMS_MIN_RECORDS	(1u << 18)	/* below: scan */
#define TIMELINE_SUMS_MAX_BYTES		((size_t)32 << 20)
#define TIMELINE_SUMS_MAX_GROUPS	64	/* threads with sums each */

struct cost;
struct profile;
struct timeline;
struct timeline_rec;

struct timeline_sums_acc {
	const struct profile	*p;
	uint32_t		 width;		/* values in a row */
	uint32_t		*slot;		/* [nnodes] 1 + its row, 0: none */
	uint32_t		*node;		/* [nrows] */
	int64_t			*vals;		/* [nrows][width] */
	size_t			 nrows, cap;
	uint64_t		 climb;		/* sum of the rows' path lengths */
	int			 negative;	/* a value below 0 was added */
	int			 overflow;	/* the values' sum passed 64 bits */
	int64_t			 sum[16];	/* per value: what was added */
	uint32_t		*stamp;		/* [nfuncs] the walk that saw it */
	uint32_t		 walk;
	uint32_t		*path;		/* a walk's functions */
	size_t			 pathcap;
};

struct timeline_sums {
	uint64_t		 step;		/* records between checkpoints */
	uint64_t		 nchk;		/* at records 0, step, ..., n */
	uint32_t		 ngroups;	/* one per thread, or 1: all */
	uint32_t		 nmetrics;
	uint32_t		 nfuncs;
	int64_t			*v;	/* [nchk][2][nfuncs][ngroups * nmetrics] */
};

struct timeline_sums_acc *timeline_sums_acc_create(const struct profile *,
		    uint32_t);
void		 timeline_sums_acc_free(struct timeline_sums_acc *);
int64_t		*timeline_sums_acc_row(struct timeline_sums_acc *, uint32_t);
int		 timeline_sums_acc_record(struct timeline_sums_acc *,
		    const struct timeline_rec *, int64_t, int64_t, int,
		    uint32_t);
int		 timeline_sums_acc_flush(struct timeline_sums_acc *, int64_t *);

struct timeline_sums *timeline_sums_create(const struct profile *,
		    struct cost *);
void		 timeline_sums_free(struct timeline_sums *);
size_t		 timeline_sums_memory(const struct timeline_sums *);
uint64_t	 timeline_sums_first(const struct timeline *, int64_t);
int		 timeline_sums_range(const struct timeline_sums *,
		    const struct profile *, int64_t, int64_t, const uint8_t *,
		    int64_t *, struct cost *);

#endif /* TIMELINE_SUMS_H */
