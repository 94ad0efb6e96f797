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

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "idmap.h"
#include "strpool.h"
#include "timeline.h"

/*
 * The timeline (timeline.h): building it while a reader reads, its
 * encoding, and decoding a time range.
 *
 * While building, records arrive in the reader's order, which is time
 * order for most formats but not all (a Chrome trace's CPU profiles
 * come thread after thread). They are kept in a raw stream of every
 * field (the time as the difference from the record before; the
 * weight and the thread only where not 1 and not the record before's,
 * as a flag in the duration's varint says: a sampler's record is then
 * the time and a byte), and finishing encodes the final stream once the fields it needs are
 * known, sorting first when the times went back.
 */

struct timeline_builder {
	char			 unit[8];
	double			 rate;
	int			 clock;		/* a clock was declared */
	uint8_t			 mode[16];
	/* Records: the raw stream and the nodes. */
	uint8_t			*raw;
	size_t			 nraw, capraw;
	uint32_t		*node;
	uint64_t		 n, capnode;
	int64_t			 prev_t;
	uint32_t		 prev_thread;	/* the raw stream's */
	int64_t			 start, end;
	uint64_t		 g;		/* gcd of every time and duration */
	int			 sorted, dur, weight;
	int			 bounded;	/* start, end fixed */
	int			 complete;	/* -1: to be found */
	int64_t			 bstart, bend;
	uint32_t		 maxthread;
	/* Threads and marks. */
	struct timeline_thread	*threads;
	uint32_t		 nthreads, capthreads;
	struct idmap		 bythread;
	struct timeline_mark	*marks;
	uint32_t		 nmarks, capmarks;
};

/* Where tl_raw_next is in the raw stream, and the record before. */
struct timeline_rawpos {
	size_t		 off;
	int64_t		 t;
	uint32_t	 thread;
};

/* The raw stream's flags, beside the duration (d << 2). */
#define TL_RAW_WEIGHT	0x2	/* a weight follows (else 1) */
#define TL_RAW_THREAD	0x1	/* a thread follows (else the last one) */

/* A record being sorted: its fields and its place of arrival. */
struct timeline_sortrec {
	int64_t		 t, d, w;
	uint64_t	 seq;
	uint32_t	 node, thread;
};

static int	tl_grow(void *, size_t, uint64_t *, uint64_t);
static void	tl_put(uint8_t *, size_t *, uint64_t);
static int	timeline_varint(const uint8_t *, uint64_t, uint64_t *, uint64_t *);
static uint64_t	tl_zig(int64_t);
static int64_t	timeline_zag(uint64_t);
static uint64_t	tl_gcd(uint64_t, uint64_t);
static int	tl_raw_next(const struct timeline_builder *,
		    struct timeline_rawpos *, struct timeline_rec *);
static int	tl_encode(struct timeline *, const struct timeline_rec *,
		    uint64_t, size_t *, int64_t *, int64_t *, int64_t *,
		    uint64_t);
static int	tl_sort_cmp(const void *, const void *);
static int	tl_mark_cmp(const void *, const void *);
static int	tl_finish_records(struct timeline_builder *,
		    struct timeline *);

/* Grow *pp (elements of size sz) to hold need elements. */
static int
tl_grow(void *pp, size_t sz, uint64_t *cap, uint64_t need)
{
	void		**vp = pp;
	void		 *n;
	uint64_t	  c = *cap ? *cap : 64;

	if (need <= *cap)
		return (0);
	while (c < need) {
		if (c > UINT64_MAX / 2)
			return (-1);
		c *= 2;
	}
	if (c > SIZE_MAX / sz || (n = realloc(*vp, (size_t)c * sz)) == NULL)
		return (-1);
	*vp = n;
	*cap = c;
	return (0);
}

/* Append v as a varint (at most 10 bytes) at b + *off. */
static inline void
tl_put(uint8_t *b, size_t *off, uint64_t v)
{
	size_t	 o = *off;

	while (v >= 0x80) {
		b[o++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	b[o++] = (uint8_t)v;
	*off = o;
}

static inline uint64_t
tl_zig(int64_t v)
{
	return (((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

static uint64_t
tl_gcd(uint64_t a, uint64_t b)
{
	uint64_t	 t;

	while (b != 0) {
		t = a % b;
		a = b;
		b = t;
	}
	return (a);
}

/* A builder with no clock yet; NULL if out of memory. */
struct timeline_builder *
timeline_builder_create(void)
{
	struct timeline_builder	*b;

	if ((b = calloc(1, sizeof *b)) == NULL)
		return (NULL);
	b->sorted = 1;
	b->complete = -1;
	idmap_init(&b->bythread);
	return (b);
}

void
timeline_builder_free(struct timeline_builder *b)
{
	if (b == NULL)
		return;
	free(b->raw);
	free(b->node);
	free(b->threads);
	free(b->marks);
	idmap_clear(&b->bythread);
	free(b);
}

/*
 * The clock: its unit ("ns", "us", "ms", "s", or a counter's name such
 * as "ticks", at most 7 bytes) and its rate in units per second (0:
 * unknown). Records need one first.
 */
int
timeline_builder_clock(struct timeline_builder *b, const char *unit,
    double rate)
{
	if (strlen(unit) >= sizeof b->unit || !(rate >= 0 && rate < 1e300))
		return (-1);
	snprintf(b->unit, sizeof b->unit, "%s", unit);
	b->rate = rate;
	b->clock = 1;
	return (0);
}

/*
 * The recording's start and end, as a derived profile keeps its
 * source's: times stay seconds from the same start. Every record and
 * mark must lie within.
 */
void
timeline_builder_bounds(struct timeline_builder *b, int64_t start,
    int64_t end)
{
	b->bounded = 1;
	b->bstart = start;
	b->bend = end;
}

/*
 * Whether the records give every value of the metrics they carry (1) or
 * not (0), as a derived profile knows from its source; by default (-1)
 * profile_builder_finish finds out.
 */
void
timeline_builder_complete(struct timeline_builder *b, int c)
{
	b->complete = c;
}

/* What each record adds to metric m (TIMELINE_WEIGHT or _SPAN). */
int
timeline_builder_mode(struct timeline_builder *b, int m, int mode)
{
	if (m < 0 || m >= (int)sizeof b->mode || mode < TIMELINE_NONE ||
	    mode > TIMELINE_COUNT)
		return (-1);
	b->mode[m] = (uint8_t)mode;
	return (0);
}

/*
 * The thread of a name, a process name (string ids) and ids (-1:
 * unknown), added on first sight; UINT32_MAX if there are too many or
 * out of memory.
 */
uint32_t
timeline_builder_thread(struct timeline_builder *b, uint32_t name,
    uint32_t process, int64_t pid, int64_t tid)
{
	struct timeline_thread	*t;
	uint64_t		 k[3], h, cap;
	uint32_t		 i;

	k[0] = (uint64_t)name << 32 | process;
	k[1] = (uint64_t)pid;
	k[2] = (uint64_t)tid;
	h = hash_bytes(k, sizeof k);
	if ((i = idmap_get(&b->bythread, h)) != IDMAP_NONE) {
		t = &b->threads[i];
		if (t->name == name && t->process == process &&
		    t->pid == pid && t->tid == tid)
			return (i);
		/* Two threads' keys collide: look the slow way. */
		for (i = 0; i < b->nthreads; i++) {
			t = &b->threads[i];
			if (t->name == name && t->process == process &&
			    t->pid == pid && t->tid == tid)
				return (i);
		}
	}
	if (b->nthreads == TIMELINE_MAX_THREADS)
		return (UINT32_MAX);
	cap = b->capthreads;
	if (tl_grow(&b->threads, sizeof *b->threads, &cap,
	    (uint64_t)b->nthreads + 1) == -1)
		return (UINT32_MAX);
	b->capthreads = (uint32_t)cap;
	i = b->nthreads++;
	b->threads[i].name = name;
	b->threads[i].process = process;
	b->threads[i].pid = pid;
	b->threads[i].tid = tid;
	if (idmap_get(&b->bythread, h) == IDMAP_NONE &&
	    idmap_put(&b->bythread, h, i) == -1)
		return (UINT32_MAX);
	return (i);
}

/*
 * A record: leaf node, thread, time t, duration d >= 0, weight w. Its
 * time must leave room for the duration (|t|, d < 2^62).
 */
int
timeline_builder_add(struct timeline_builder *b, uint32_t node,
    uint32_t thread, int64_t t, int64_t d, int64_t w)
{
	const int64_t	 lim = INT64_C(1) << 62;
	uint64_t	 cap;

	if (!b->clock || thread >= b->nthreads || d < 0 || d >= lim ||
	    t <= -lim || t >= lim)
		return (-1);
	if (b->nraw + 40 > b->capraw) {
		cap = b->capraw;
		if (tl_grow(&b->raw, 1, &cap, b->nraw + 40) == -1)
			return (-1);
		b->capraw = cap;
	}
	if (tl_grow(&b->node, sizeof *b->node, &b->capnode, b->n + 1) == -1)
		return (-1);
	if (b->n == 0) {
		b->start = t;
		b->end = t + d;
		b->prev_t = t;
		tl_put(b->raw, &b->nraw, tl_zig(t));
	} else {
		if (t < b->prev_t)
			b->sorted = 0;
		tl_put(b->raw, &b->nraw, tl_zig(t - b->prev_t));
		b->prev_t = t;
		if (t < b->start)
			b->start = t;
		if (t + d > b->end)
			b->end = t + d;
	}
	/* d < 2^62: room for the two flags. */
	tl_put(b->raw, &b->nraw, (uint64_t)d << 2 |
	    (w != 1 ? TL_RAW_WEIGHT : 0) |
	    (thread != b->prev_thread ? TL_RAW_THREAD : 0));
	if (w != 1)
		tl_put(b->raw, &b->nraw, tl_zig(w));
	if (thread != b->prev_thread)
		tl_put(b->raw, &b->nraw, thread);
	b->prev_thread = thread;
	b->node[b->n++] = node;
	/* Once 1, the divisions would only give 1 again. */
	if (b->g != 1)
		b->g = tl_gcd(tl_gcd(b->g, (uint64_t)(t < 0 ? -t : t)),
		    (uint64_t)d);
	b->dur |= d != 0;
	b->weight |= w != 1;
	if (thread > b->maxthread)
		b->maxthread = thread;
	return (0);
}

/* An instant event of a thread at t named by a string id. */
int
timeline_builder_mark(struct timeline_builder *b, uint32_t thread,
    int64_t t, uint32_t name)
{
	const int64_t	 lim = INT64_C(1) << 62;
	uint64_t	 cap = b->capmarks;

	if (!b->clock || thread >= b->nthreads || t <= -lim || t >= lim)
		return (-1);
	if (b->nmarks == TIMELINE_MAX_MARKS)
		return (0);		/* the first million are plenty */
	if (tl_grow(&b->marks, sizeof *b->marks, &cap,
	    (uint64_t)b->nmarks + 1) == -1)
		return (-1);
	b->capmarks = (uint32_t)cap;
	b->marks[b->nmarks].t = t;
	b->marks[b->nmarks].thread = thread;
	b->marks[b->nmarks++].name = name;
	if (b->g != 1)
		b->g = tl_gcd(b->g, (uint64_t)(t < 0 ? -t : t));
	return (0);
}

/* Has anything been recorded (a profile with time)? */
int
timeline_builder_used(const struct timeline_builder *b)
{
	return (b != NULL && b->clock && (b->n > 0 || b->nmarks > 0 ||
	    b->bounded));
}

/* The next raw record at pos (which holds the record before's time). */
static int
tl_raw_next(const struct timeline_builder *b, struct timeline_rawpos *pos,
    struct timeline_rec *r)
{
	uint64_t	 o = pos->off, gap, df, w = 2, th = pos->thread;

	if (timeline_varint(b->raw, b->nraw, &o, &gap) == -1 ||
	    timeline_varint(b->raw, b->nraw, &o, &df) == -1 ||
	    ((df & TL_RAW_WEIGHT) &&
	    timeline_varint(b->raw, b->nraw, &o, &w) == -1) ||
	    ((df & TL_RAW_THREAD) &&
	    timeline_varint(b->raw, b->nraw, &o, &th) == -1))
		return (-1);
	r->t = pos->t + timeline_zag(gap);
	r->d = (int64_t)(df >> 2);
	r->w = timeline_zag(w);
	r->thread = (uint32_t)th;
	pos->t = r->t;
	pos->thread = r->thread;
	pos->off = o;
	return (0);
}

/*
 * Encode record r (number i, scaled down by g) at the end of tl's
 * stream: an index entry first at a block's start.
 */
static int
tl_encode(struct timeline *tl, const struct timeline_rec *r, uint64_t i,
    size_t *nd, int64_t *prev_end, int64_t *max_end, int64_t *prev_w,
    uint64_t g)
{
	struct timeline_index	*ix = (struct timeline_index *)tl->index;
	uint8_t			*data = (uint8_t *)tl->data;
	int64_t			 t = r->t / (int64_t)g, d = r->d / (int64_t)g;

	if (i % TIMELINE_BLOCK == 0) {
		if (i > 0)
			ix[i / TIMELINE_BLOCK - 1].max_end = *max_end;
		ix[i / TIMELINE_BLOCK].t = t;
		ix[i / TIMELINE_BLOCK].prev_end = *prev_end;
		ix[i / TIMELINE_BLOCK].off = *nd;
		*prev_w = 1;
	}
	tl_put(data, nd, tl_zig(t - *prev_end));
	if (tl->flags & TIMELINE_F_DUR)
		tl_put(data, nd, (uint64_t)d);
	if (tl->flags & TIMELINE_F_WEIGHT) {
		/* Wrapping differences: weights may be any int64. */
		tl_put(data, nd, tl_zig((int64_t)((uint64_t)r->w -
		    (uint64_t)*prev_w)));
		*prev_w = r->w;
	}
	if (tl->flags & TIMELINE_F_THREAD)
		tl_put(data, nd, r->thread);
	*prev_end = t + d;
	if (t + d > *max_end)
		*max_end = t + d;
	return (0);
}

static int
tl_sort_cmp(const void *a, const void *b)
{
	const struct timeline_sortrec	*x = a, *y = b;

	if (x->t != y->t)
		return (x->t < y->t ? -1 : 1);
	return (x->seq < y->seq ? -1 : x->seq > y->seq);
}

static int
tl_mark_cmp(const void *a, const void *b)
{
	const struct timeline_mark	*x = a, *y = b;

	if (x->t != y->t)
		return (x->t < y->t ? -1 : 1);
	return (x->thread < y->thread ? -1 : x->thread > y->thread);
}

/* The records, in time order, into tl's final stream and index. */
static int
tl_finish_records(struct timeline_builder *b, struct timeline *tl)
{
	struct timeline_sortrec	*s = NULL;
	struct timeline_rec	 r;
	struct timeline_rawpos	 pos = { 0, 0, 0 };
	uint32_t		*nodes;
	size_t			 nd = 0;
	int64_t			 prev_end, max_end, prev_w = 1;
	uint64_t		 i, g = b->g, cap = b->nraw + 64;
	uint8_t			*nb;

	/*
	 * The builder's node array becomes the timeline's, rewritten in
	 * place when sorted: a second copy would be the load's peak.
	 */
	if (b->node == NULL && (b->node = malloc(sizeof *nodes)) == NULL)
		return (-1);
	nodes = b->node;
	if (b->n > 0 && b->n < b->capnode &&
	    (nodes = realloc(b->node, b->n * sizeof *nodes)) == NULL)
		return (-1);
	tl->node = nodes;
	b->node = NULL;
	b->capnode = 0;
	prev_end = max_end = tl->start;
	if (!b->sorted) {
		if ((s = calloc(b->n, sizeof *s)) == NULL)
			return (-1);
		for (i = 0; i < b->n; i++) {
			if (tl_raw_next(b, &pos, &r) == -1) {
				free(s);
				return (-1);
			}
			s[i].t = r.t;
			s[i].d = r.d;
			s[i].w = r.w;
			s[i].seq = i;
			s[i].node = nodes[i];
			s[i].thread = r.thread;
		}
		qsort(s, b->n, sizeof *s, tl_sort_cmp);
		/* Everything is in s now: the raw stream goes first. */
		free(b->raw);
		b->raw = NULL;
		b->nraw = b->capraw = 0;
	}
	if ((tl->data = malloc(cap)) == NULL ||
	    (tl->index = calloc(tl->nindex ? tl->nindex : 1,
	    sizeof *tl->index)) == NULL) {
		free(s);
		return (-1);
	}
	for (i = 0; i < b->n; i++) {
		if (s != NULL) {
			r.t = s[i].t;
			r.d = s[i].d;
			r.w = s[i].w;
			r.thread = s[i].thread;
			nodes[i] = s[i].node;
		} else {
			if (tl_raw_next(b, &pos, &r) == -1)
				return (-1);
		}
		/*
		 * The final stream is about the raw one's size, but can be
		 * more (sorted, the gaps and weights' differences change):
		 * room for a record's four varints, always.
		 */
		if (nd + 40 > cap) {
			if ((nb = realloc((void *)tl->data, cap * 2)) == NULL) {
				free(s);
				return (-1);
			}
			tl->data = nb;
			cap *= 2;
		}
		tl_encode(tl, &r, i, &nd, &prev_end, &max_end, &prev_w, g);
	}
	if (b->n > 0)
		((struct timeline_index *)tl->index)[(b->n - 1) /
		    TIMELINE_BLOCK].max_end = max_end;
	tl->ndata = nd;
	free(s);
	return (0);
}

/*
 * The timeline built, or NULL: with *why set on failure, without when
 * nothing was recorded (a profile without time). The builder is left
 * to the caller to free.
 */
struct timeline *
timeline_builder_finish(struct timeline_builder *b, const char **why)
{
	static const char *const units[] = { "ns", "us", "ms", "s" };
	struct timeline		*tl;
	uint64_t		 g = b->g ? b->g : 1, k;
	size_t			 u;
	uint32_t		 i;

	*why = NULL;
	if (!timeline_builder_used(b))
		return (NULL);
	if (b->bounded) {
		b->g = tl_gcd(tl_gcd(b->g, (uint64_t)(b->bstart < 0 ?
		    -b->bstart : b->bstart)), (uint64_t)(b->bend < 0 ?
		    -b->bend : b->bend));
		g = b->g ? b->g : 1;
	}
	if ((tl = calloc(1, sizeof *tl)) == NULL)
		goto nomem;
	tl->owned = 1;
	memcpy(tl->unit, b->unit, sizeof tl->unit);
	tl->rate = b->rate;
	memcpy(tl->mode, b->mode, sizeof tl->mode);
	/*
	 * Times in the coarsest of ns, us, ms and s that holds them all
	 * whole: perf script prints microseconds, read as nanoseconds, and
	 * each gap then takes a byte less.
	 */
	for (u = 0; u < 3 && strcmp(tl->unit, units[u]) != 0; u++)
		;
	/* Not where durations are a metric's values, in the clock's unit. */
	for (i = 0; i < sizeof b->mode; i++) {
		if (b->mode[i] == TIMELINE_SPAN)
			u = 3;
	}
	for (k = 1; u < 3 && g % (k * 1000) == 0; u++)
		k *= 1000;
	if (k > 1) {
		snprintf(tl->unit, sizeof tl->unit, "%s", units[u]);
		tl->rate = b->rate / (double)k;
	}
	g = k;
	b->g = g;
	tl->n = b->n;
	if (b->n == 0)
		b->start = b->end = b->nmarks > 0 ? b->marks[0].t : 0;
	for (i = 0; i < b->nmarks; i++) {
		if (b->marks[i].t < b->start)
			b->start = b->marks[i].t;
		if (b->marks[i].t > b->end)
			b->end = b->marks[i].t;
	}
	if (b->bounded) {
		b->start = b->bstart;
		b->end = b->bend;
	}
	tl->start = b->start / (int64_t)g;
	tl->end = b->end / (int64_t)g;
	tl->flags = (b->dur ? TIMELINE_F_DUR : 0) |
	    (b->weight ? TIMELINE_F_WEIGHT : 0) |
	    (b->maxthread > 0 ? TIMELINE_F_THREAD : 0) |
	    (b->complete == 1 ? TIMELINE_F_COMPLETE : 0);
	tl->nindex = (b->n + TIMELINE_BLOCK - 1) / TIMELINE_BLOCK;
	if (tl_finish_records(b, tl) == -1)
		goto nomem;
	tl->nthreads = b->nthreads;
	tl->threads = b->threads;
	b->threads = NULL;
	b->nthreads = 0;
	tl->nmarks = b->nmarks;
	if (b->nmarks > 0) {
		for (i = 0; i < b->nmarks; i++)
			b->marks[i].t /= (int64_t)g;
		qsort(b->marks, b->nmarks, sizeof *b->marks, tl_mark_cmp);
		tl->marks = b->marks;
		b->marks = NULL;
	}
	/* The raw stream goes: what is left is its final form. */
	free(b->raw);
	b->raw = NULL;
	return (tl);
nomem:
	*why = "out of memory";
	timeline_free(tl);
	return (NULL);
}

/* Free a timeline whose arrays are its own (a mapped one: the struct). */
void
timeline_free(struct timeline *tl)
{
	if (tl == NULL)
		return;
	if (tl->owned) {
		free((void *)tl->node);
		free((void *)tl->data);
		free((void *)tl->index);
		free((void *)tl->threads);
		free((void *)tl->marks);
	}
	free(tl);
}

/* Bytes the timeline holds. */
size_t
timeline_memory(const struct timeline *tl)
{
	if (tl == NULL)
		return (0);
	return (sizeof *tl + tl->n * sizeof *tl->node + tl->ndata +
	    tl->nindex * sizeof *tl->index +
	    tl->nthreads * sizeof *tl->threads +
	    tl->nmarks * sizeof *tl->marks);
}

/* Decode from the first record. */
void
timeline_iter_init(struct timeline_iter *it, const struct timeline *tl)
{
	it->tl = tl;
	it->i = 0;
	it->off = 0;
	it->prev_end = tl->start;
	it->prev_w = 1;
}

/*
 * Decode from the first block that may hold a record that ends at or
 * after a (ranges.c then stops at the first record starting at or past
 * its end: records are in time order).
 */
void
timeline_seek(struct timeline_iter *it, const struct timeline *tl, int64_t a)
{
	uint64_t	 lo = 0, hi = tl->nindex, mid;

	timeline_iter_init(it, tl);
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (tl->index[mid].max_end < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	timeline_iter_block(it, tl, lo);
}

/* Decode from the first record of block b (past the last: the end). */
void
timeline_iter_block(struct timeline_iter *it, const struct timeline *tl,
    uint64_t b)
{
	timeline_iter_init(it, tl);
	if (b >= tl->nindex) {
		it->i = tl->n;
		it->off = tl->ndata;
		return;
	}
	it->i = b * TIMELINE_BLOCK;
	it->off = tl->index[b].off;
	it->prev_end = tl->index[b].prev_end;
	it->prev_w = 1;
}

/* Clock time t as seconds from the start (units if no rate is known). */
double
timeline_seconds(const struct timeline *tl, int64_t t)
{
	double	 d = (double)(t - tl->start);

	return (tl->rate > 0 ? d / tl->rate : d);
}

/* Seconds from the start as clock time, within the clock's range. */
int64_t
timeline_time(const struct timeline *tl, double s)
{
	double	 v = tl->rate > 0 ? s * tl->rate : s;

	if (!(v < 4e18))
		return (INT64_C(1) << 62);
	if (!(v > -4e18))
		return (-(INT64_C(1) << 62));
	return (tl->start + llround(v));
}

/*
 * Thread i's label: "name (process pid P, tid T)", what is known of
 * it. Caller frees; NULL if out of memory.
 */
char *
timeline_thread_label(const struct timeline *tl, const struct strpool *sp,
    uint32_t i)
{
	const struct timeline_thread	*t;
	const char			*name, *proc;
	char				*s, ids[64];
	int				 r;

	if (i >= tl->nthreads)
		return (strdup("?"));
	t = &tl->threads[i];
	name = strpool_get(sp, t->name);
	proc = strpool_get(sp, t->process);
	if (*name == '\0')
		name = "thread";
	ids[0] = '\0';
	if (t->pid >= 0 && t->tid >= 0)
		snprintf(ids, sizeof ids, "pid %lld, tid %lld",
		    (long long)t->pid, (long long)t->tid);
	else if (t->tid >= 0)
		snprintf(ids, sizeof ids, "tid %lld", (long long)t->tid);
	else if (t->pid >= 0)
		snprintf(ids, sizeof ids, "pid %lld", (long long)t->pid);
	if (*proc == '\0' && ids[0] == '\0')
		return (strdup(name));
	r = asprintf(&s, "%s (%s%s%s)", name, proc, *proc && ids[0] ? " " :
	    "", ids);
	return (r == -1 ? NULL : s);
}

/*
 * Does thread i answer to s (a thread= value): its label, its name, or
 * its tid in decimal? -1 if out of memory.
 */
int
timeline_thread_match(const struct timeline *tl, const struct strpool *sp,
    uint32_t i, const char *s)
{
	char	*label, num[32];
	int	 r;

	if (i >= tl->nthreads)
		return (0);
	if (strcmp(strpool_get(sp, tl->threads[i].name), s) == 0)
		return (1);
	if (tl->threads[i].tid >= 0) {
		snprintf(num, sizeof num, "%lld",
		    (long long)tl->threads[i].tid);
		if (strcmp(num, s) == 0)
			return (1);
	}
	if ((label = timeline_thread_label(tl, sp, i)) == NULL)
		return (-1);
	r = strcmp(label, s) == 0;
	free(label);
	return (r);
}

/*
 * Check a timeline read from a cache against its profile (nnodes call
 * nodes, nstrings strings, nmetrics metrics): every index in range,
 * the stream decoding to exactly n records in time order, the index
 * agreeing with it. 0, or -1.
 */
int
timeline_check(const struct timeline *tl, uint32_t nnodes,
    uint32_t nstrings, uint32_t nmetrics)
{
	struct timeline_iter	 it;
	struct timeline_rec	 r;
	const struct timeline_index *ix;
	int64_t			 prev = INT64_MIN, max_end;
	uint64_t		 i;
	uint32_t		 k;

	if (memchr(tl->unit, '\0', sizeof tl->unit) == NULL ||
	    !(tl->rate >= 0 && tl->rate < 1e300) || tl->start > tl->end ||
	    tl->nthreads == 0 || tl->nthreads > TIMELINE_MAX_THREADS ||
	    tl->nmarks > TIMELINE_MAX_MARKS ||
	    tl->nindex != (tl->n + TIMELINE_BLOCK - 1) / TIMELINE_BLOCK ||
	    (tl->flags & ~(uint32_t)(TIMELINE_F_DUR | TIMELINE_F_WEIGHT |
	    TIMELINE_F_THREAD | TIMELINE_F_COMPLETE)) != 0)
		return (-1);
	for (k = 0; k < sizeof tl->mode; k++) {
		if (tl->mode[k] > TIMELINE_COUNT ||
		    (k >= nmetrics && tl->mode[k] != TIMELINE_NONE))
			return (-1);
	}
	for (k = 0; k < tl->nthreads; k++) {
		if (tl->threads[k].name >= nstrings ||
		    tl->threads[k].process >= nstrings)
			return (-1);
	}
	for (k = 0; k < tl->nmarks; k++) {
		if (tl->marks[k].thread >= tl->nthreads ||
		    tl->marks[k].name >= nstrings ||
		    (k > 0 && tl->marks[k].t < tl->marks[k - 1].t))
			return (-1);
	}
	timeline_iter_init(&it, tl);
	max_end = tl->start;
	for (i = 0; i < tl->n; i++) {
		if (i % TIMELINE_BLOCK == 0) {
			ix = &tl->index[i / TIMELINE_BLOCK];
			if (ix->off != it.off || ix->prev_end != it.prev_end)
				return (-1);
		}
		if (tl->node[i] >= nnodes || timeline_next(&it, &r) != 1 ||
		    r.t < prev || r.t < tl->start || r.d < 0 ||
		    r.t + r.d > tl->end)
			return (-1);
		prev = r.t;
		if (r.t + r.d > max_end)
			max_end = r.t + r.d;
		ix = &tl->index[i / TIMELINE_BLOCK];
		if (i % TIMELINE_BLOCK == 0 && ix->t != r.t)
			return (-1);
		if ((i + 1) % TIMELINE_BLOCK == 0 || i + 1 == tl->n) {
			if (ix->max_end != max_end)
				return (-1);
		}
	}
	return (it.off == tl->ndata ? 0 : -1);
}
