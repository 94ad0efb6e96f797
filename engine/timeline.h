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

#ifndef TIMELINE_H
#define TIMELINE_H

/*
 * When each sample happened, and on which thread: a profile's timeline
 * (profile.h, p->timeline; NULL for a format that records no time).
 *
 * A record is one sample or span of a thread: its leaf call node, its
 * time t in the profile's clock (unit and rate), a duration d (0 for an
 * instant sample) and a weight w. A metric's value at a node is the
 * sum, over the node's records, of what its mode takes from each:
 *
 *	TIMELINE_WEIGHT	w, counted at t (samples, periods, calls)
 *	TIMELINE_SPAN	d, the part within a range (time)
 *	TIMELINE_COUNT	1 if w is not 0, counted at t (samples,
 *			beside a weighted metric such as perf's period)
 *	TIMELINE_NONE	nothing: the records do not carry it, and a
 *			profile restricted to a time range has none of it
 *
 * so that a time range or a set of threads gives a profile of its own
 * (range.c) with the values the same recording cut to that range would
 * have.
 *
 * Records are kept in time order (by t, the order of arrival among
 * equal times), compactly: the leaf nodes as an array, everything else
 * in a byte stream, a record at a time: the gap from the previous
 * record's end (t - (t' + d'), zigzag varint: 0 for the contiguous
 * spans of a sampler or of an event trace), then the duration, the
 * weight (zigzag, the difference from the record before's, which a
 * sampler's nearly constant period makes 0; from 1 at a block's start)
 * and the thread (varints), each only when the timeline has them
 * (flags). Every TIMELINE_BLOCK records, an index
 * entry keeps the absolute time, the decoding state and the latest end
 * so far: a range is found by binary search and decoded from there.
 *
 * The arrays are on the heap (built) or in a cache file's mapping
 * (cache.c); either way a timeline never changes once made.
 */

#include <stddef.h>
#include <stdint.h>

#define TIMELINE_BLOCK		256	/* records an index entry covers */
#define TIMELINE_MAX_THREADS	65536
#define TIMELINE_MAX_MARKS	(1u << 20)

/* A metric's mode: what each record adds to it. */
#define TIMELINE_NONE		0
#define TIMELINE_WEIGHT		1
#define TIMELINE_SPAN		2
#define TIMELINE_COUNT		3

/* Flags: which fields the stream has. */
#define TIMELINE_F_DUR		0x1
#define TIMELINE_F_WEIGHT	0x2
#define TIMELINE_F_THREAD	0x4
#define TIMELINE_F_COMPLETE	0x8	/* the records give every value of
					   the metrics they carry */

struct strpool;

struct timeline_thread {
	uint32_t	 name;		/* string id, "" if unnamed */
	uint32_t	 process;	/* string id of the process' name */
	int64_t		 pid, tid;	/* -1: unknown */
};

/* An instant event (Chrome's "i" and "R"): drawn, never counted. */
struct timeline_mark {
	int64_t		 t;
	uint32_t	 thread;
	uint32_t	 name;		/* string id */
};

struct timeline_index {
	int64_t		 t;		/* the block's first record's time */
	int64_t		 prev_end;	/* the end before it (the gap base) */
	int64_t		 max_end;	/* latest end in blocks 0..this one */
	uint64_t	 off;		/* the block's first byte in data */
};

struct timeline {
	char		 unit[8];	/* "ns", "us", "ms", "s", or "ticks" */
	double		 rate;		/* units per second, 0: unknown */
	int64_t		 start, end;	/* the first time and the last end */
	uint32_t	 flags;		/* TIMELINE_F_* */
	uint8_t		 mode[16];	/* per metric, TIMELINE_* */
	uint64_t	 n;		/* records */
	uint64_t	 ndata;
	uint64_t	 nindex;
	uint32_t	 nthreads;
	uint32_t	 nmarks;
	const uint32_t	*node;		/* [n] leaf call node */
	const uint8_t	*data;		/* [ndata] the stream */
	const struct timeline_index *index;	/* [nindex] */
	const struct timeline_thread *threads;	/* [nthreads] */
	const struct timeline_mark *marks;	/* [nmarks], by time */
	int		 owned;		/* arrays on the heap */
};

/* A record as decoded. */
struct timeline_rec {
	int64_t		 t, d, w;
	uint32_t	 thread;
	uint32_t	 node;
};

/* Decoding, from a record on (timeline_seek) to the end. */
struct timeline_iter {
	const struct timeline	*tl;
	uint64_t		 i;		/* the next record */
	uint64_t		 off;		/* its first byte */
	int64_t			 prev_end;
	int64_t			 prev_w;	/* 1 at a block's start */
};

/* Building (profile-builder.c owns one per profile being built). */
struct timeline_builder;

struct timeline_builder *timeline_builder_create(void);
void		 timeline_builder_free(struct timeline_builder *);
int		 timeline_builder_clock(struct timeline_builder *,
		     const char *, double);
int		 timeline_builder_mode(struct timeline_builder *, int, int);
void		 timeline_builder_bounds(struct timeline_builder *, int64_t,
		     int64_t);
void		 timeline_builder_complete(struct timeline_builder *, int);
uint32_t	 timeline_builder_thread(struct timeline_builder *, uint32_t,
		     uint32_t, int64_t, int64_t);
int		 timeline_builder_add(struct timeline_builder *, uint32_t,
		     uint32_t, int64_t, int64_t, int64_t);
int		 timeline_builder_mark(struct timeline_builder *, uint32_t,
		     int64_t, uint32_t);
int		 timeline_builder_used(const struct timeline_builder *);
struct timeline	*timeline_builder_finish(struct timeline_builder *,
		     const char **);

void		 timeline_free(struct timeline *);
size_t		 timeline_memory(const struct timeline *);
int		 timeline_check(const struct timeline *, uint32_t, uint32_t,
		     uint32_t);

void		 timeline_iter_init(struct timeline_iter *,
		     const struct timeline *);
void		 timeline_seek(struct timeline_iter *, const struct timeline *,
		     int64_t);
void		 timeline_iter_block(struct timeline_iter *,
		     const struct timeline *, uint64_t);

double		 timeline_seconds(const struct timeline *, int64_t);
int64_t		 timeline_time(const struct timeline *, double);
char		*timeline_thread_label(const struct timeline *,
		     const struct strpool *, uint32_t);
int		 timeline_thread_match(const struct timeline *,
		     const struct strpool *, uint32_t, const char *);

/*
 * Decoding, inline: a range's pass reads millions of records, and a call
 * a field would cost more than the field.
 */

/* A varint from b[*off..n): 0, or -1 past the end or too long. */
static inline int
timeline_varint(const uint8_t *b, uint64_t n, uint64_t *off, uint64_t *v)
{
	uint64_t	 o = *off, r = 0;
	unsigned	 shift = 0;
	uint8_t		 c;

	/* Most fields are a byte. */
	if (o < n && b[o] < 0x80) {
		*v = b[o];
		*off = o + 1;
		return (0);
	}
	do {
		if (o >= n || shift > 63)
			return (-1);
		c = b[o++];
		r |= (uint64_t)(c & 0x7f) << shift;
		shift += 7;
	} while (c & 0x80);
	*off = o;
	*v = r;
	return (0);
}

static inline int64_t
timeline_zag(uint64_t v)
{
	return ((int64_t)(v >> 1) ^ -(int64_t)(v & 1));
}

/* The next record: 1, or 0 at the end (or where the stream is short). */
static inline int
timeline_next(struct timeline_iter *it, struct timeline_rec *r)
{
	const struct timeline	*tl = it->tl;
	uint64_t		 v, off = it->off;

	if (it->i >= tl->n ||
	    timeline_varint(tl->data, tl->ndata, &off, &v) == -1)
		return (0);
	/* A block's weights count from 1, so that a seek can start there. */
	if (it->i % TIMELINE_BLOCK == 0)
		it->prev_w = 1;
	r->t = it->prev_end + timeline_zag(v);
	r->d = 0;
	r->w = 1;
	r->thread = 0;
	if ((tl->flags & TIMELINE_F_DUR) &&
	    timeline_varint(tl->data, tl->ndata, &off, &v) == -1)
		return (0);
	if (tl->flags & TIMELINE_F_DUR)
		r->d = (int64_t)(v & (UINT64_MAX >> 2));
	if (tl->flags & TIMELINE_F_WEIGHT) {
		if (timeline_varint(tl->data, tl->ndata, &off, &v) == -1)
			return (0);
		r->w = (int64_t)((uint64_t)it->prev_w +
		    (uint64_t)timeline_zag(v));
		it->prev_w = r->w;
	}
	if (tl->flags & TIMELINE_F_THREAD) {
		if (timeline_varint(tl->data, tl->ndata, &off, &v) == -1)
			return (0);
		/* Checked when a cache is read: out of range is corrupt. */
		if (v >= tl->nthreads)
			return (0);
		r->thread = (uint32_t)v;
	}
	r->node = tl->node[it->i];
	it->prev_end = r->t + r->d;
	it->off = off;
	it->i++;
	return (1);
}

/* How much of r's span lies within [a, b). */
static inline int64_t
timeline_overlap(const struct timeline_rec *r, int64_t a, int64_t b)
{
	int64_t	 lo = r->t > a ? r->t : a;
	int64_t	 hi = r->t + r->d < b ? r->t + r->d : b;

	return (hi > lo ? hi - lo : 0);
}

/* What record r adds to metric m within [a, b). */
static inline int64_t
timeline_value(const struct timeline *tl, uint32_t m,
    const struct timeline_rec *r, int64_t a, int64_t b)
{
	switch (m < sizeof tl->mode ? tl->mode[m] : TIMELINE_NONE) {
	case TIMELINE_WEIGHT:
		return (r->t >= a && r->t < b ? r->w : 0);
	case TIMELINE_SPAN:
		return (timeline_overlap(r, a, b));
	case TIMELINE_COUNT:
		/* A span cut at a range's start weighs 0: not a sample. */
		return (r->t >= a && r->t < b && r->w != 0 ? 1 : 0);
	default:
		return (0);
	}
}

#endif /* TIMELINE_H */
