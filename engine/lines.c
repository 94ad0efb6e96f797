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

#include <stdlib.h>
#include <string.h>

#include "idmap.h"
#include "lines.h"
#include "profile.h"

/*
 * Line-level costs (lines.h): the builder's tree of (function, line)
 * frames and its reduction to per-function rows, and the rows' block.
 *
 * The tree is kept apart from the calling-context tree because a
 * context's samples may have run at many lines of its function, and a
 * call from two lines is one context: keyed by line too, the tree would
 * change every report. Reduced once at the end, what a profile keeps is
 * a few rows a function, whatever its number of contexts.
 */

struct lines_builder {
	/* Positions: (file, line) or an address. */
	struct idmap	 posmap;	/* file << 32 | line -> pos */
	struct idmap	 addrmap;	/* address -> pos */
	uint32_t	*pos_file;
	uint32_t	*pos_line;
	uint64_t	*pos_addr;
	uint32_t	 npos, poscap;

	/* Frames: (function, position), the position LINES_NONE if none. */
	struct idmap	 framemap;	/* func << 32 | pos -> frame */
	uint32_t	*frame_func;
	uint32_t	*frame_pos;
	int64_t		*frame_self[PROFILE_MAX_METRICS];	/* direct */
	uint32_t	 nframes, framecap;

	/* The tree of frames; node 0 is the root. */
	struct idmap	 nodemap;	/* parent << 32 | frame -> node */
	uint32_t	*node_parent;
	uint32_t	*node_frame;
	int64_t		*node_self[PROFILE_MAX_METRICS];
	uint32_t	 nnodes, nodecap, max_nodes;

	/* Calls given directly (call graphs): frame and callee. */
	struct idmap	 callmap;	/* frame << 32 | callee -> call */
	uint32_t	*dcall_frame;
	uint32_t	*dcall_func;
	uint64_t	*dcall_count;
	int64_t		*dcall_cost[PROFILE_MAX_METRICS];
	uint32_t	 ndcalls, dcallcap;

	int		 lines;		/* a frame with a line or address */
	int		 addrs;		/* an address row */
	int		 graph;		/* direct self or calls */
	int		 counts;	/* call counts */
	int		 dropped;	/* past max_nodes: no lines kept */
	const char	*error;
};

struct lines_pair {
	uint32_t	 row, func, tmp;
};

static int	lines_grow(void *, size_t, uint32_t, uint32_t);
static int	lines_grow_values(int64_t **, uint32_t, uint32_t);
static void	lines_drop(struct lines_builder *);
static int	lines_frame_cmp(const void *, const void *, void *);
static int	lines_pair_cmp(const void *, const void *);
static int	lines_totals(struct lines_builder *, const uint32_t *,
		    const uint32_t *, struct profile_lines *, uint32_t);
static int	lines_direct(struct lines_builder *, const uint32_t *,
		    struct idmap *, struct profile_lines *);
static void	lines_rows(struct lines_builder *, const struct profile *,
		    struct profile_lines *, uint32_t *, uint32_t *);
static int	lines_calls(struct lines_builder *, const struct profile *,
		    const uint32_t *, struct lines_pair **, uint32_t *,
		    struct idmap *);
static int	lines_block(struct lines_builder *, struct profile_lines *,
		    const uint32_t *, const struct lines_pair *);
static int	lines_tree(struct lines_builder *, const uint32_t *,
		    const struct idmap *, struct profile_lines *);

/* Resize *pp (elements of sz) from old to cap elements, zero-filled. */
static int
lines_grow(void *pp, size_t sz, uint32_t old, uint32_t cap)
{
	void	**vp = pp;
	char	 *n;

	if ((size_t)cap > SIZE_MAX / sz ||
	    (n = realloc(*vp, (size_t)cap * sz)) == NULL)
		return (-1);
	memset(n + (size_t)old * sz, 0, (size_t)(cap - old) * sz);
	*vp = n;
	return (0);
}

/* Grow each metric's values that exist from old to cap. */
static int
lines_grow_values(int64_t **v, uint32_t old, uint32_t cap)
{
	int	 m;

	for (m = 0; m < PROFILE_MAX_METRICS; m++) {
		if (v[m] != NULL && lines_grow(&v[m], sizeof *v[m], old, cap)
		    == -1)
			return (-1);
	}
	return (0);
}

/* A builder with its root node; NULL if out of memory. */
struct lines_builder *
lines_builder_create(void)
{
	struct lines_builder	*lb;

	if ((lb = calloc(1, sizeof *lb)) == NULL)
		return (NULL);
	idmap_init(&lb->posmap);
	idmap_init(&lb->addrmap);
	idmap_init(&lb->framemap);
	idmap_init(&lb->nodemap);
	idmap_init(&lb->callmap);
	lb->max_nodes = UINT32_MAX - 1;
	if (lines_grow(&lb->node_parent, sizeof *lb->node_parent, 0, 1024)
	    == -1 || lines_grow(&lb->node_frame, sizeof *lb->node_frame, 0,
	    1024) == -1) {
		lines_builder_free(lb);
		return (NULL);
	}
	lb->nodecap = 1024;
	lb->node_parent[0] = LINES_NONE;
	lb->node_frame[0] = LINES_NONE;
	lb->nnodes = 1;
	return (lb);
}

/* Free what the tree and the frames hold. */
static void
lines_drop(struct lines_builder *lb)
{
	int	 m;

	idmap_clear(&lb->nodemap);
	for (m = 0; m < PROFILE_MAX_METRICS; m++) {
		free(lb->node_self[m]);
		lb->node_self[m] = NULL;
	}
	free(lb->node_parent);
	free(lb->node_frame);
	lb->node_parent = lb->node_frame = NULL;
	lb->nnodes = lb->nodecap = 0;
}

/* Free a builder. */
void
lines_builder_free(struct lines_builder *lb)
{
	int	 m;

	if (lb == NULL)
		return;
	lines_drop(lb);
	idmap_clear(&lb->posmap);
	idmap_clear(&lb->addrmap);
	idmap_clear(&lb->framemap);
	idmap_clear(&lb->callmap);
	free(lb->pos_file);
	free(lb->pos_line);
	free(lb->pos_addr);
	free(lb->frame_func);
	free(lb->frame_pos);
	free(lb->dcall_frame);
	free(lb->dcall_func);
	free(lb->dcall_count);
	for (m = 0; m < PROFILE_MAX_METRICS; m++) {
		free(lb->frame_self[m]);
		free(lb->dcall_cost[m]);
	}
	free(lb);
}

/*
 * At most n nodes in the tree of frames (the profile's own bound):
 * past it the profile keeps no lines rather than failing to load.
 */
void
lines_builder_set_max(struct lines_builder *lb, uint32_t n)
{
	lb->max_nodes = n;
}

/* The reason for the last failure. */
const char *
lines_builder_error(const struct lines_builder *lb)
{
	return (lb->error != NULL ? lb->error : "out of memory");
}

/*
 * The frame of function f at a position: (file, line) with file a
 * string id of the profile, or an address when hasaddr; line 0 without
 * an address is a frame at an unknown line, which keeps the shape of
 * the stacks but has no row. LINES_NONE if out of memory.
 */
uint32_t
lines_builder_frame(struct lines_builder *lb, uint32_t f, uint32_t file,
    uint32_t line, uint64_t addr, int hasaddr)
{
	uint32_t	 pos = LINES_NONE, fr, cap;
	uint64_t	 key;

	if (hasaddr || line != 0) {
		key = (uint64_t)file << 32 | line;
		pos = hasaddr ? idmap_get(&lb->addrmap, addr) :
		    idmap_get(&lb->posmap, key);
		if (pos == IDMAP_NONE) {
			if (lb->npos == LINES_NONE - 1) {
				lb->error = "too many source lines";
				return (LINES_NONE);
			}
			if (lb->npos == lb->poscap) {
				cap = lb->poscap ? lb->poscap * 2 : 256;
				if (lines_grow(&lb->pos_file, sizeof(uint32_t),
				    lb->poscap, cap) == -1 ||
				    lines_grow(&lb->pos_line, sizeof(uint32_t),
				    lb->poscap, cap) == -1 ||
				    lines_grow(&lb->pos_addr, sizeof(uint64_t),
				    lb->poscap, cap) == -1)
					return (LINES_NONE);
				lb->poscap = cap;
			}
			pos = lb->npos;
			/* An address row's file is its function's module. */
			if (hasaddr)
				file = 0;
			if ((hasaddr ? idmap_put(&lb->addrmap, addr, pos) :
			    idmap_put(&lb->posmap, key, pos)) == -1)
				return (LINES_NONE);
			lb->pos_file[pos] = file;
			lb->pos_line[pos] = hasaddr ? 0 : line;
			lb->pos_addr[pos] = addr;
			lb->npos++;
		}
		lb->lines = 1;
		if (hasaddr)
			lb->addrs = 1;
	}
	key = (uint64_t)f << 32 | pos;
	if ((fr = idmap_get(&lb->framemap, key)) != IDMAP_NONE)
		return (fr);
	if (lb->nframes == LINES_NONE - 1) {
		lb->error = "too many source lines";
		return (LINES_NONE);
	}
	if (lb->nframes == lb->framecap) {
		cap = lb->framecap ? lb->framecap * 2 : 256;
		if (lines_grow(&lb->frame_func, sizeof(uint32_t), lb->framecap,
		    cap) == -1 || lines_grow(&lb->frame_pos, sizeof(uint32_t),
		    lb->framecap, cap) == -1 ||
		    lines_grow_values(lb->frame_self, lb->framecap, cap) == -1)
			return (LINES_NONE);
		lb->framecap = cap;
	}
	fr = lb->nframes;
	if (idmap_put(&lb->framemap, key, fr) == -1)
		return (LINES_NONE);
	lb->frame_func[fr] = f;
	lb->frame_pos[fr] = pos;
	lb->nframes++;
	return (fr);
}

/*
 * The child of node parent (0, the root, or a node this returned) for
 * frame fr, made if new. Past the bound the tree is dropped and every
 * node is the root. LINES_NONE if out of memory or a bad argument.
 */
uint32_t
lines_builder_child(struct lines_builder *lb, uint32_t parent, uint32_t fr)
{
	uint64_t	 key = (uint64_t)parent << 32 | fr;
	uint32_t	 n, cap;

	if (lb->dropped)
		return (0);
	if (parent >= lb->nnodes || fr >= lb->nframes) {
		lb->error = "bad line node or frame";
		return (LINES_NONE);
	}
	if ((n = idmap_get(&lb->nodemap, key)) != IDMAP_NONE)
		return (n);
	if (lb->nnodes >= lb->max_nodes) {
		lines_drop(lb);
		lb->dropped = 1;
		return (0);
	}
	if (lb->nnodes == lb->nodecap) {
		cap = lb->nodecap > UINT32_MAX / 2 ? UINT32_MAX :
		    lb->nodecap * 2;
		if (lines_grow(&lb->node_parent, sizeof(uint32_t),
		    lb->nodecap, cap) == -1 || lines_grow(&lb->node_frame,
		    sizeof(uint32_t), lb->nodecap, cap) == -1 ||
		    lines_grow_values(lb->node_self, lb->nodecap, cap) == -1)
			return (LINES_NONE);
		lb->nodecap = cap;
	}
	n = lb->nnodes;
	if (idmap_put(&lb->nodemap, key, n) == -1)
		return (LINES_NONE);
	lb->node_parent[n] = parent;
	lb->node_frame[n] = fr;
	lb->nnodes++;
	return (n);
}

/* Add v to the self cost of node n in metric m. */
int
lines_builder_add(struct lines_builder *lb, uint32_t n, int m, int64_t v)
{
	if (lb->dropped || v == 0)
		return (0);
	if (n >= lb->nnodes || m < 0 || m >= PROFILE_MAX_METRICS) {
		lb->error = "bad line node or metric";
		return (-1);
	}
	if (lb->node_self[m] == NULL && (lb->node_self[m] =
	    calloc(lb->nodecap, sizeof(int64_t))) == NULL)
		return (-1);
	if (__builtin_add_overflow(lb->node_self[m][n], v,
	    &lb->node_self[m][n])) {
		lb->error = "a line's cost overflows 64 bits";
		return (-1);
	}
	return (0);
}

/* A call graph's self cost at frame fr (no tree). */
int
lines_builder_self(struct lines_builder *lb, uint32_t fr, int m, int64_t v)
{
	if (fr >= lb->nframes || m < 0 || m >= PROFILE_MAX_METRICS) {
		lb->error = "bad line frame or metric";
		return (-1);
	}
	lb->graph = 1;
	if (lb->frame_self[m] == NULL && (lb->frame_self[m] =
	    calloc(lb->framecap, sizeof(int64_t))) == NULL)
		return (-1);
	if (__builtin_add_overflow(lb->frame_self[m][fr], v,
	    &lb->frame_self[m][fr])) {
		lb->error = "a line's cost overflows 64 bits";
		return (-1);
	}
	return (0);
}

/*
 * A call graph's call from frame fr to function callee: count calls
 * whose inclusive cost in metric m is v (m -1: the count alone).
 */
int
lines_builder_call(struct lines_builder *lb, uint32_t fr, uint32_t callee,
    int m, int64_t v, uint64_t count)
{
	uint64_t	 key = (uint64_t)fr << 32 | callee;
	uint32_t	 c, cap;

	if (fr >= lb->nframes || m < -1 || m >= PROFILE_MAX_METRICS) {
		lb->error = "bad line frame or metric";
		return (-1);
	}
	lb->graph = 1;
	if ((c = idmap_get(&lb->callmap, key)) == IDMAP_NONE) {
		if (lb->ndcalls == LINES_NONE - 1) {
			lb->error = "too many calls";
			return (-1);
		}
		if (lb->ndcalls == lb->dcallcap) {
			cap = lb->dcallcap ? lb->dcallcap * 2 : 256;
			if (lines_grow(&lb->dcall_frame, sizeof(uint32_t),
			    lb->dcallcap, cap) == -1 ||
			    lines_grow(&lb->dcall_func, sizeof(uint32_t),
			    lb->dcallcap, cap) == -1 ||
			    lines_grow(&lb->dcall_count, sizeof(uint64_t),
			    lb->dcallcap, cap) == -1 ||
			    lines_grow_values(lb->dcall_cost, lb->dcallcap,
			    cap) == -1)
				return (-1);
			lb->dcallcap = cap;
		}
		c = lb->ndcalls;
		if (idmap_put(&lb->callmap, key, c) == -1)
			return (-1);
		lb->dcall_frame[c] = fr;
		lb->dcall_func[c] = callee;
		lb->ndcalls++;
	}
	if (count != 0) {
		lb->counts = 1;
		if (__builtin_add_overflow(lb->dcall_count[c], count,
		    &lb->dcall_count[c]))
			goto overflow;
	}
	if (m == -1 || v == 0)
		return (0);
	if (lb->dcall_cost[m] == NULL && (lb->dcall_cost[m] =
	    calloc(lb->dcallcap, sizeof(int64_t))) == NULL)
		return (-1);
	if (__builtin_add_overflow(lb->dcall_cost[m][c], v,
	    &lb->dcall_cost[m][c]))
		goto overflow;
	return (0);
overflow:
	lb->error = "a call's cost overflows 64 bits";
	return (-1);
}

/*
 * The offsets of the arrays of a block of rows (each 8-byte aligned) in
 * off[LINES_ARRAYS], and the block's size; -1 if the counts overflow.
 */
int
lines_layout(const struct profile_lines *l, size_t *off, size_t *len)
{
	uint64_t	 n[LINES_ARRAYS], at = 0;
	int		 i;

	n[0] = ((uint64_t)l->nfuncs + 1) * 4;
	n[1] = (uint64_t)l->nrows * 4;
	n[2] = (uint64_t)l->nrows * 4;
	n[3] = l->flags & LINES_ADDR ? (uint64_t)l->nrows * 8 : 0;
	n[4] = ((uint64_t)l->nrows + 1) * 4;
	n[5] = (uint64_t)l->ncalls * 4;
	n[6] = l->flags & LINES_COUNTS ? (uint64_t)l->ncalls * 8 : 0;
	n[7] = (uint64_t)l->nmetrics * l->nrows * 8;
	n[8] = (uint64_t)l->nmetrics * l->nrows * 8;
	n[9] = (uint64_t)l->nmetrics * l->ncalls * 8;
	for (i = 0; i < LINES_ARRAYS; i++) {
		off[i] = (size_t)at;
		at += (n[i] + 7) & ~(uint64_t)7;
		if (at > SIZE_MAX / 2)
			return (-1);
	}
	*len = (size_t)at;
	return (0);
}

/* Point the arrays of l into the block at base, laid out as above. */
static void
lines_point(struct profile_lines *l, char *base, const size_t *off)
{
	l->func_rows = (const uint32_t *)(base + off[0]);
	l->row_file = (const uint32_t *)(base + off[1]);
	l->row_line = (const uint32_t *)(base + off[2]);
	l->row_addr = l->flags & LINES_ADDR ?
	    (const uint64_t *)(base + off[3]) : NULL;
	l->row_calls = (const uint32_t *)(base + off[4]);
	l->call_func = (const uint32_t *)(base + off[5]);
	l->call_count = l->flags & LINES_COUNTS ?
	    (const uint64_t *)(base + off[6]) : NULL;
	l->self = (const int64_t *)(base + off[7]);
	l->total = (const int64_t *)(base + off[8]);
	l->call_total = (const int64_t *)(base + off[9]);
}

/*
 * Rows in a block the caller holds (a cache file's mapping): l's counts
 * set, base its first byte, len its size. 0 if they agree.
 */
int
lines_map(struct profile_lines *l, const void *base, size_t len)
{
	size_t	 off[LINES_ARRAYS], need;

	if ((l->flags & ~(uint32_t)LINES_FLAGS) != 0 ||
	    lines_layout(l, off, &need) == -1 || need != len)
		return (-1);
	lines_point(l, (char *)base, off);
	l->block = NULL;
	l->blocklen = len;
	return (0);
}

/* Frames in row order: function, file name, line, address. */
static int
lines_frame_cmp(const void *a, const void *b, void *arg)
{
	const struct lines_builder	*lb = ((void **)arg)[0];
	const struct profile		*p = ((void **)arg)[1];
	uint32_t	 x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint32_t	 px = lb->frame_pos[x], py = lb->frame_pos[y];
	int		 c;

	if (lb->frame_func[x] != lb->frame_func[y])
		return (lb->frame_func[x] < lb->frame_func[y] ? -1 : 1);
	if (lb->pos_file[px] != lb->pos_file[py] &&
	    (c = strcmp(profile_string(p, lb->pos_file[px]),
	    profile_string(p, lb->pos_file[py]))) != 0)
		return (c);
	if (lb->pos_line[px] != lb->pos_line[py])
		return (lb->pos_line[px] < lb->pos_line[py] ? -1 : 1);
	if (lb->pos_addr[px] != lb->pos_addr[py])
		return (lb->pos_addr[px] < lb->pos_addr[py] ? -1 : 1);
	return (x < y ? -1 : x > y);
}

static int
lines_pair_cmp(const void *a, const void *b)
{
	const struct lines_pair	*x = a, *y = b;

	if (x->row != y->row)
		return (x->row < y->row ? -1 : 1);
	return (x->func < y->func ? -1 : x->func > y->func);
}

/*
 * The tree's costs into the rows: self by each node's row; total and
 * calls once per sample, at the outermost node of a stack that passes
 * the row (or makes the call), as `go tool pprof' counts a node of a
 * sample once. A depth-first walk, per metric, with counters of the
 * rows and calls on the path.
 */
static int
lines_totals(struct lines_builder *lb, const uint32_t *node_row,
    const uint32_t *node_call, struct profile_lines *l, uint32_t nm)
{
	uint32_t	*first = NULL, *next = NULL, *onrow = NULL, *oncall = NULL;
	int64_t		*tot = NULL, *self, *total, *ctot;
	uint32_t	 i, n, m, r, c;
	int		 rv = -1;

	if ((first = malloc(lb->nnodes * sizeof *first)) == NULL ||
	    (next = malloc(lb->nnodes * sizeof *next)) == NULL ||
	    (onrow = calloc(l->nrows + 1, sizeof *onrow)) == NULL ||
	    (oncall = calloc(l->ncalls + 1, sizeof *oncall)) == NULL ||
	    (tot = malloc(lb->nnodes * sizeof *tot)) == NULL)
		goto out;
	memset(first, 0xff, lb->nnodes * sizeof *first);
	for (i = lb->nnodes - 1; i > 0; i--) {
		next[i] = first[lb->node_parent[i]];
		first[lb->node_parent[i]] = i;
	}
	next[0] = LINES_NONE;
	for (m = 0; m < nm; m++) {
		if (lb->node_self[m] == NULL)
			continue;
		self = (int64_t *)l->self + (size_t)m * l->nrows;
		total = (int64_t *)l->total + (size_t)m * l->nrows;
		ctot = (int64_t *)l->call_total + (size_t)m * l->ncalls;
		memcpy(tot, lb->node_self[m], lb->nnodes * sizeof *tot);
		for (i = lb->nnodes - 1; i > 0; i--) {
			if ((r = node_row[i]) != LINES_NONE &&
			    __builtin_add_overflow(self[r],
			    lb->node_self[m][i], &self[r]))
				goto overflow;
			if (__builtin_add_overflow(tot[lb->node_parent[i]],
			    tot[i], &tot[lb->node_parent[i]]))
				goto overflow;
		}
		/* Parents before children: every walk ends. */
		n = 0;
		for (;;) {
			if ((r = node_row[n]) != LINES_NONE &&
			    onrow[r]++ == 0)
				total[r] += tot[n];
			if ((c = node_call[n]) != LINES_NONE &&
			    oncall[c]++ == 0)
				ctot[c] += tot[n];
			if (first[n] != LINES_NONE) {
				n = first[n];
				continue;
			}
			for (;;) {
				if ((r = node_row[n]) != LINES_NONE)
					onrow[r]--;
				if ((c = node_call[n]) != LINES_NONE)
					oncall[c]--;
				if (n == 0 || next[n] != LINES_NONE)
					break;
				n = lb->node_parent[n];
			}
			if (n == 0)
				break;
			n = next[n];
		}
	}
	rv = 0;
	goto out;
overflow:
	lb->error = "a line's cost overflows 64 bits";
out:
	free(first);
	free(next);
	free(onrow);
	free(oncall);
	free(tot);
	return (rv);
}

/*
 * The costs given directly (call graphs) into the rows: self as given,
 * each call's cost and count, and a row's total its self and its calls.
 */
static int
lines_direct(struct lines_builder *lb, const uint32_t *frame_row,
    struct idmap *calls, struct profile_lines *l)
{
	int64_t		*self, *total, *ctot;
	uint32_t	 i, r, c, m;

	for (m = 0; m < l->nmetrics; m++) {
		self = (int64_t *)l->self + (size_t)m * l->nrows;
		total = (int64_t *)l->total + (size_t)m * l->nrows;
		ctot = (int64_t *)l->call_total + (size_t)m * l->ncalls;
		for (i = 0; lb->frame_self[m] != NULL && i < lb->nframes;
		    i++) {
			if ((r = frame_row[i]) == LINES_NONE)
				continue;
			if (__builtin_add_overflow(self[r],
			    lb->frame_self[m][i], &self[r]) ||
			    __builtin_add_overflow(total[r],
			    lb->frame_self[m][i], &total[r]))
				goto overflow;
		}
		for (i = 0; lb->dcall_cost[m] != NULL && i < lb->ndcalls;
		    i++) {
			if ((r = frame_row[lb->dcall_frame[i]]) == LINES_NONE)
				continue;
			c = idmap_get(calls, (uint64_t)r << 32 |
			    lb->dcall_func[i]);
			if (__builtin_add_overflow(ctot[c],
			    lb->dcall_cost[m][i], &ctot[c]) ||
			    __builtin_add_overflow(total[r],
			    lb->dcall_cost[m][i], &total[r]))
				goto overflow;
		}
	}
	for (i = 0; l->call_count != NULL && i < lb->ndcalls; i++) {
		if ((r = frame_row[lb->dcall_frame[i]]) == LINES_NONE)
			continue;
		c = idmap_get(calls, (uint64_t)r << 32 | lb->dcall_func[i]);
		((uint64_t *)l->call_count)[c] += lb->dcall_count[i];
	}
	return (0);
overflow:
	lb->error = "a line's cost overflows 64 bits";
	return (-1);
}

/*
 * The rows: the frames at a position that a stack or a given cost used
 * (a location no sample has makes none), in row order in order[0..
 * l->nrows); frame_row[] each frame's row, or LINES_NONE.
 */
static void
lines_rows(struct lines_builder *lb, const struct profile *p,
    struct profile_lines *l, uint32_t *order, uint32_t *frame_row)
{
	const void	*arg[2];
	uint32_t	 i, m, r;

	for (i = 0; i < lb->nframes; i++)
		frame_row[i] = LINES_NONE;
	for (i = 1; i < lb->nnodes; i++)
		frame_row[lb->node_frame[i]] = 0;
	for (i = 0; i < lb->ndcalls; i++)
		frame_row[lb->dcall_frame[i]] = 0;
	for (m = 0; m < PROFILE_MAX_METRICS; m++) {
		for (i = 0; lb->frame_self[m] != NULL && i < lb->nframes; i++)
			if (lb->frame_self[m][i] != 0)
				frame_row[i] = 0;
	}
	for (i = 0; i < lb->nframes; i++) {
		if (frame_row[i] == 0 && lb->frame_pos[i] != LINES_NONE &&
		    lb->frame_func[i] < p->nfuncs)
			order[l->nrows++] = i;
		frame_row[i] = LINES_NONE;
	}
	arg[0] = lb;
	arg[1] = p;
	if (l->nrows > 0)
		qsort_r(order, l->nrows, sizeof *order, lines_frame_cmp, arg);
	for (r = 0; r < l->nrows; r++)
		frame_row[order[r]] = r;
}

/*
 * The calls: the distinct (row, callee) of the tree's edges and of the
 * given calls, sorted, into *pairsp (*npairsp of them) and calls (the
 * pair's key to its index). -1 if out of memory.
 */
static int
lines_calls(struct lines_builder *lb, const struct profile *p,
    const uint32_t *frame_row, struct lines_pair **pairsp,
    uint32_t *npairsp, struct idmap *calls)
{
	struct lines_pair	*pairs = NULL, *np;
	uint32_t		 i, n = lb->nnodes, q, r, f, npairs = 0;
	uint32_t		 ncap = 0;
	uint64_t		 key;

	for (i = 0; i < n + lb->ndcalls; i++) {
		if (i < n) {
			if (i == 0 || (q = lb->node_parent[i]) == 0 ||
			    (r = frame_row[lb->node_frame[q]]) == LINES_NONE)
				continue;
			f = lb->frame_func[lb->node_frame[i]];
		} else {
			if ((r = frame_row[lb->dcall_frame[i - n]]) ==
			    LINES_NONE)
				continue;
			f = lb->dcall_func[i - n];
		}
		key = (uint64_t)r << 32 | f;
		if (f >= p->nfuncs || idmap_get(calls, key) != IDMAP_NONE)
			continue;
		if (npairs == ncap) {
			ncap = ncap ? ncap * 2 : 256;
			if ((np = reallocarray(pairs, ncap, sizeof *np)) ==
			    NULL)
				goto fail;
			pairs = np;
		}
		pairs[npairs].row = r;
		pairs[npairs].func = f;
		if (idmap_put(calls, key, npairs++) == -1)
			goto fail;
	}
	if (npairs > 0)
		qsort(pairs, npairs, sizeof *pairs, lines_pair_cmp);
	idmap_clear(calls);
	idmap_init(calls);
	for (i = 0; i < npairs; i++) {
		if (idmap_put(calls, (uint64_t)pairs[i].row << 32 |
		    pairs[i].func, i) == -1)
			goto fail;
	}
	*pairsp = pairs;
	*npairsp = npairs;
	return (0);
fail:
	free(pairs);
	return (-1);
}

/*
 * The block of l (its counts set): the rows' functions, files, lines
 * and addresses, and each row's calls. -1 if out of memory.
 */
static int
lines_block(struct lines_builder *lb, struct profile_lines *l,
    const uint32_t *order, const struct lines_pair *pairs)
{
	size_t		 off[LINES_ARRAYS], len;
	uint32_t	*fr, *rc, i, r, f;

	if (lines_layout(l, off, &len) == -1 ||
	    (l->block = calloc(1, len)) == NULL)
		return (-1);
	l->blocklen = len;
	lines_point(l, l->block, off);
	fr = (uint32_t *)l->func_rows;
	for (r = 0; r < l->nrows; r++) {
		i = order[r];
		fr[lb->frame_func[i] + 1]++;
		((uint32_t *)l->row_file)[r] = lb->pos_file[lb->frame_pos[i]];
		((uint32_t *)l->row_line)[r] = lb->pos_line[lb->frame_pos[i]];
		if (l->row_addr != NULL)
			((uint64_t *)l->row_addr)[r] =
			    lb->pos_addr[lb->frame_pos[i]];
	}
	for (f = 0; f < l->nfuncs; f++)
		fr[f + 1] += fr[f];
	rc = (uint32_t *)l->row_calls;
	for (i = 0; i < l->ncalls; i++) {
		rc[pairs[i].row + 1]++;
		((uint32_t *)l->call_func)[i] = pairs[i].func;
	}
	for (r = 0; r < l->nrows; r++)
		rc[r + 1] += rc[r];
	return (0);
}

/*
 * The tree's costs into l: each node's row and the call it makes from
 * its parent's row, then the walk of lines_totals. -1 on failure.
 */
static int
lines_tree(struct lines_builder *lb, const uint32_t *frame_row,
    const struct idmap *calls, struct profile_lines *l)
{
	uint32_t	*node_row, *node_call, i, q, r, n = lb->nnodes;
	int		 rv = -1;

	node_row = malloc(n * sizeof *node_row);
	node_call = malloc(n * sizeof *node_call);
	if (node_row == NULL || node_call == NULL)
		goto out;
	for (i = 0; i < n; i++) {
		node_row[i] = node_call[i] = LINES_NONE;
		if (i == 0)
			continue;
		node_row[i] = frame_row[lb->node_frame[i]];
		q = lb->node_parent[i];
		if (q != 0 && (r = frame_row[lb->node_frame[q]]) !=
		    LINES_NONE)
			node_call[i] = idmap_get(calls, (uint64_t)r << 32 |
			    lb->frame_func[lb->node_frame[i]]);
	}
	rv = lines_totals(lb, node_row, node_call, l, l->nmetrics);
out:
	free(node_row);
	free(node_call);
	return (rv);
}

/*
 * Reduce the builder to the rows of profile p (its functions, metrics
 * and strings made): *out, or NULL when no frame had a line. The
 * builder is freed in every case. -1 with *why (static) on failure.
 */
int
lines_builder_finish(struct lines_builder *lb, const struct profile *p,
    struct profile_lines **out, const char **why)
{
	struct profile_lines	*l = NULL;
	struct lines_pair	*pairs = NULL;
	struct idmap		 calls;
	uint32_t		*order = NULL, *frame_row = NULL;
	int			 rv = -1;

	*out = NULL;
	idmap_init(&calls);
	if (lb->dropped || !lb->lines) {
		rv = 0;
		goto done;
	}
	if ((l = calloc(1, sizeof *l)) == NULL ||
	    (order = malloc((lb->nframes + 1) * sizeof *order)) == NULL ||
	    (frame_row = malloc((lb->nframes + 1) * sizeof *frame_row)) ==
	    NULL)
		goto done;
	lines_rows(lb, p, l, order, frame_row);
	if (lines_calls(lb, p, frame_row, &pairs, &l->ncalls, &calls) == -1)
		goto done;
	l->nfuncs = p->nfuncs;
	l->nmetrics = p->nmetrics;
	l->flags = (lb->addrs ? LINES_ADDR : 0) | (lb->counts ?
	    LINES_COUNTS : 0) | (lb->graph ? LINES_GRAPH : 0);
	if (lines_block(lb, l, order, pairs) == -1 ||
	    (lb->nnodes > 1 && lines_tree(lb, frame_row, &calls, l) == -1) ||
	    (lb->graph && lines_direct(lb, frame_row, &calls, l) == -1))
		goto done;
	*out = l;
	l = NULL;
	rv = 0;
done:
	if (rv == -1)
		*why = lines_builder_error(lb);
	idmap_clear(&calls);
	free(pairs);
	free(order);
	free(frame_row);
	lines_free(l);
	lines_builder_free(lb);
	return (rv);
}

/*
 * Are the rows well formed for a profile of nstrings strings (the
 * counts already checked against the block)? Every index in range and
 * the starts in order, so no query strays. 0 if so.
 */
int
lines_check(const struct profile_lines *l, uint32_t nstrings)
{
	uint32_t	 i;

	if (l->func_rows[0] != 0 || l->func_rows[l->nfuncs] != l->nrows ||
	    l->row_calls[0] != 0 || l->row_calls[l->nrows] != l->ncalls)
		return (-1);
	for (i = 0; i < l->nfuncs; i++) {
		if (l->func_rows[i] > l->func_rows[i + 1])
			return (-1);
	}
	for (i = 0; i < l->nrows; i++) {
		if (l->row_calls[i] > l->row_calls[i + 1] ||
		    l->row_file[i] >= nstrings)
			return (-1);
	}
	for (i = 0; i < l->ncalls; i++) {
		if (l->call_func[i] >= l->nfuncs)
			return (-1);
	}
	return (0);
}

/* Free rows made by lines_builder_finish (mapped ones: the struct). */
void
lines_free(struct profile_lines *l)
{
	if (l == NULL)
		return;
	free(l->block);
	free(l);
}

/* The bytes the rows take. */
size_t
lines_memory(const struct profile_lines *l)
{
	if (l == NULL)
		return (0);
	return (sizeof *l + (l->block != NULL ? l->blocklen : 0));
}

/* The first row of function f. */
uint32_t
lines_func_first(const struct profile_lines *l, uint32_t f)
{
	return (l == NULL || f >= l->nfuncs ? 0 : l->func_rows[f]);
}

/*
 * Function f's hottest row in metric m: the most self cost, else (a
 * function all of whose cost is in its calls) the most total; the
 * first of equals. LINES_NONE if none has a cost.
 */
uint32_t
lines_hottest(const struct profile_lines *l, uint32_t f, uint32_t m)
{
	const int64_t	*v;
	uint32_t	 i, end, hot = LINES_NONE;
	int		 pass;

	if (l == NULL || f >= l->nfuncs || m >= l->nmetrics)
		return (LINES_NONE);
	end = l->func_rows[f + 1];
	for (pass = 0; pass < 2 && hot == LINES_NONE; pass++) {
		v = (pass == 0 ? l->self : l->total) + (size_t)m * l->nrows;
		for (i = l->func_rows[f]; i < end; i++) {
			if (v[i] > 0 && (hot == LINES_NONE || v[i] > v[hot]))
				hot = i;
		}
	}
	return (hot);
}

/* One past the last row of function f. */
uint32_t
lines_func_end(const struct profile_lines *l, uint32_t f)
{
	return (l == NULL || f >= l->nfuncs ? 0 : l->func_rows[f + 1]);
}
