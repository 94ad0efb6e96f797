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

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cause.h"
#include "outbuf.h"
#include "profile.h"
#include "writer.h"

/*
 * Folded stacks out (deepq-formats(5)): one line per call
 * node with a value, "frame;frame;frame count", root first, one space
 * before an integer count. A frame is the function's name, "module`name"
 * when it has a module (the DTrace convention our reader splits again);
 * ';' in a name becomes ':' and line breaks become spaces (no_modules
 * leaves the module out: flamegraph.pl's --colors=java then sees the
 * Java names it colours by). Siblings are
 * written in name order, so the output is deterministic; a profile with
 * a "base" metric gets the differential column ("stack base count").
 *
 * maxdepth cuts stacks (the Tezos profiler's collapse_stack ~max_depth):
 * a node at the limit is written with its inclusive value, so totals
 * stay. order=time writes the sample sequence instead, merging only
 * consecutive samples with the same stack (a flame chart's input).
 *
 * A line holds its whole stack, so the text grows with the square of
 * the depth (a chain 300,000 calls deep is tens of gigabytes): with a
 * most (max_bytes), the size is worked out first, in one pass over the
 * nodes, and a text that would not fit is refused before any of it is
 * written, naming maxdepth= as the way to cut it.
 */

struct fw {
	struct outbuf		*ob;
	const struct profile	*p;
	const struct writer_options *o;
	char			**frame;	/* [nfuncs] */
	int			 m, base;
	int			 no_modules;
	uint32_t		 maxdepth;
	char			*buf;		/* the current stack */
	size_t			 len, cap;
	size_t			*off;		/* [depth] end of each frame */
	size_t			 offcap;
};

static int	fw_frames(struct fw *);
static int	fw_append(struct fw *, uint32_t, uint32_t);
static void	fw_line(struct fw *, int64_t, int64_t);
static int	fw_tree(struct fw *);
static int	fw_time(struct fw *, char **);
static int	fw_node_line(struct fw *, uint32_t, int64_t);
static int	fw_cmp(const void *, const void *);
static int	fw_size(struct fw *, char **);

static const struct fw	*fw_sort;	/* qsort has no context argument */

/* Are the lines the sample sequence's (order=time)? */
#define FW_TIME_ORDER(w)	((w)->o->time_order)

/* Each function's frame text, made once. */
static int
fw_frames(struct fw *w)
{
	const struct profile	*p = w->p;
	const char		*name, *mod, *s;
	char			*d;
	uint32_t		 f;

	if ((w->frame = calloc(p->nfuncs ? p->nfuncs : 1, sizeof *w->frame))
	    == NULL)
		return (-1);
	for (f = 0; f < p->nfuncs; f++) {
		name = profile_func_name(p, f);
		mod = profile_func_module(p, f);
		if ((d = w->frame[f] = malloc(strlen(mod) + strlen(name) + 2))
		    == NULL)
			return (-1);
		if (*mod != '\0' && !w->no_modules) {
			for (s = mod; *s != '\0'; s++)
				*d++ = *s == ';' ? ':' : *s == '\n' ||
				    *s == '\r' ? ' ' : *s;
			*d++ = '`';
		}
		for (s = name; *s != '\0'; s++)
			*d++ = *s == ';' ? ':' : *s == '\n' || *s == '\r' ?
			    ' ' : *s;
		*d = '\0';
	}
	return (0);
}

/* Set the stack text to its first depth-1 frames plus function f's. */
static int
fw_append(struct fw *w, uint32_t depth, uint32_t f)
{
	size_t	 start = depth > 1 ? w->off[depth - 1] : 0;
	size_t	 n = strlen(w->frame[f]), need;
	char	*b;
	size_t	*o;

	need = start + n + 2;
	if (need > w->cap) {
		if ((b = realloc(w->buf, need * 2)) == NULL)
			return (-1);
		w->buf = b;
		w->cap = need * 2;
	}
	if (depth + 1 > w->offcap) {
		if ((o = reallocarray(w->off, (depth + 1) * 2, sizeof *o)) ==
		    NULL)
			return (-1);
		w->off = o;
		w->offcap = (depth + 1) * 2;
	}
	w->len = start;
	if (depth > 1)
		w->buf[w->len++] = ';';
	memcpy(w->buf + w->len, w->frame[f], n);
	w->len += n;
	w->off[depth] = w->len;
	return (0);
}

static void
fw_line(struct fw *w, int64_t base, int64_t v)
{
	outbuf_write(w->ob, w->buf, w->len);
	if (w->base >= 0) {
		outbuf_putc(w->ob, ' ');
		outbuf_i64(w->ob, base);
	}
	outbuf_putc(w->ob, ' ');
	outbuf_i64(w->ob, v);
	outbuf_putc(w->ob, '\n');
}

static int
fw_cmp(const void *a, const void *b)
{
	uint32_t	 x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (strcmp(fw_sort->frame[fw_sort->p->node_func[x]],
	    fw_sort->frame[fw_sort->p->node_func[y]]));
}

/* Depth first, siblings by name, without recursion. */
static int
fw_tree(struct fw *w)
{
	const struct profile	*p = w->p;
	const int64_t		*self = p->metrics[w->m].self;
	const int64_t		*total = p->metrics[w->m].total;
	const int64_t		*bself = NULL, *btotal = NULL;
	uint32_t		*stack = NULL, *kids = NULL, n, c, d, k, nk;
	size_t			 sp = 0;
	int64_t			 v, bv;
	int			 cut, r = -1;

	if (w->base >= 0) {
		bself = p->metrics[w->base].self;
		btotal = p->metrics[w->base].total;
	}
	if ((stack = malloc(p->nnodes * sizeof *stack)) == NULL ||
	    (kids = malloc(p->nnodes * sizeof *kids)) == NULL)
		goto done;
	/* The root's own value, if any, under its name "<root>". */
	if (self[0] != 0 || (bself != NULL && bself[0] != 0)) {
		if (fw_append(w, 1, PROFILE_ROOT) == -1)
			goto done;
		fw_line(w, bself ? bself[0] : 0, self[0]);
	}
	fw_sort = w;
	n = PROFILE_ROOT;
	for (;;) {
		/* A line copies its whole stack: the work is the depth. */
		if (writer_charge(w->o, w->ob, (uint64_t)p->node_depth[n] +
		    1) == -1)
			goto done;
		d = p->node_depth[n];
		cut = w->maxdepth != 0 && d == w->maxdepth;
		if (n != PROFILE_ROOT) {
			if (fw_append(w, d, p->node_func[n]) == -1)
				goto done;
			v = cut ? total[n] : self[n];
			bv = bself == NULL ? 0 : cut ? btotal[n] : bself[n];
			if (v != 0 || bv != 0)
				fw_line(w, bv, v);
			/* A failed buffer (a deadline) stops the walk. */
			if (outbuf_failed(w->ob) == -1)
				goto done;
		}
		if (!cut) {
			nk = 0;
			for (c = p->node_first_child[n]; c != PROFILE_NONE;
			    c = p->node_next_sibling[c])
				kids[nk++] = c;
			qsort(kids, nk, sizeof *kids, fw_cmp);
			for (k = nk; k > 0; k--)
				stack[sp++] = kids[k - 1];
		}
		if (sp == 0)
			break;
		n = stack[--sp];
	}
	r = outbuf_failed(w->ob);
done:
	free(stack);
	free(kids);
	return (r);
}

/* Write node n's whole stack with value v (a line of the time order). */
static int
fw_node_line(struct fw *w, uint32_t n, int64_t v)
{
	const struct profile	*p = w->p;
	uint32_t		*path, d, depth;

	if (n == PROFILE_NONE || n == PROFILE_ROOT)
		return (0);
	depth = p->node_depth[n];
	if (writer_charge(w->o, w->ob, depth) == -1)
		return (-1);
	if ((path = malloc(depth * sizeof *path)) == NULL)
		return (-1);
	for (d = depth; d > 0; d--, n = p->node_parent[n])
		path[d - 1] = p->node_func[n];
	for (d = 1; d <= depth; d++) {
		if (fw_append(w, d, path[d - 1]) == -1) {
			free(path);
			return (-1);
		}
	}
	free(path);
	fw_line(w, 0, v);
	return (0);
}

/* The sample sequence, consecutive equal stacks merged. */
static int
fw_time(struct fw *w, char **cause)
{
	const struct profile	*p = w->p;
	uint32_t		 i, n, prev = PROFILE_NONE;
	int64_t			 sum = 0;

	if (p->nsamples == 0) {
		cause_set(cause, "order=time: this profile (%s) has no sample "
		    "order", p->format);
		return (-1);
	}
	if (w->m != 0) {
		cause_set(cause, "order=time: samples are weighted in %s only",
		    p->metrics[0].name);
		return (-1);
	}
	w->base = -1;
	for (i = 0; i < p->nsamples; i++) {
		if ((n = p->sample_node[i]) >= p->nnodes)
			continue;
		while (w->maxdepth != 0 && p->node_depth[n] > w->maxdepth)
			n = p->node_parent[n];
		if (n == prev) {
			sum += profile_sample_weight(p, i);
			continue;
		}
		if (fw_node_line(w, prev, sum) == -1 ||
		    outbuf_failed(w->ob) == -1)
			return (-1);
		prev = n;
		sum = profile_sample_weight(p, i);
	}
	if (fw_node_line(w, prev, sum) == -1)
		return (-1);
	return (outbuf_failed(w->ob));
}

/*
 * The text's size, worked out before writing it (see the top of this
 * file): each node's stack length from its parent's, nodes coming after
 * their parents; 0, or -1 with the buffer failed as too large (or the
 * budget spent) and *cause saying why.
 */
static int
fw_size(struct fw *w, char **cause)
{
	const struct profile	*p = w->p;
	const int64_t		*self = p->metrics[w->m].self;
	const int64_t		*total = p->metrics[w->m].total;
	uint32_t		*len = NULL, n, d, f, deepest = 0;
	uint64_t		 bytes = 0, l, i;
	int64_t			 v;

	if (writer_charge(w->o, w->ob, p->nnodes) == -1)
		return (-1);
	if ((len = calloc(p->nnodes ? p->nnodes : 1, sizeof *len)) == NULL) {
		cause_set(cause, "out of memory");
		return (-1);
	}
	for (n = 1; n < p->nnodes; n++) {
		d = p->node_depth[n];
		if (w->maxdepth != 0 && d > w->maxdepth)
			continue;
		f = p->node_func[n];
		l = (uint64_t)len[p->node_parent[n]] + (d > 1) +
		    strlen(w->frame[f]);
		len[n] = l > UINT32_MAX ? UINT32_MAX : (uint32_t)l;
		if (FW_TIME_ORDER(w))
			continue;
		v = w->maxdepth != 0 && d == w->maxdepth ? total[n] : self[n];
		if (v != 0 || w->base >= 0) {
			/* The stack, a count or two, spaces, newline. */
			bytes += len[n] + 42;
			if (d > deepest)
				deepest = d;
		}
	}
	for (i = 0; FW_TIME_ORDER(w) && i < p->nsamples; i++) {
		if ((n = p->sample_node[i]) >= p->nnodes)
			continue;
		while (w->maxdepth != 0 && p->node_depth[n] > w->maxdepth)
			n = p->node_parent[n];
		bytes += len[n] + 22;
		if (p->node_depth[n] > deepest)
			deepest = p->node_depth[n];
	}
	free(len);
	if (bytes <= w->o->max_bytes)
		return (0);
	outbuf_fail_size(w->ob);
	cause_set(cause, "the folded stacks of this profile would take about "
	    "%llu MiB (a line holds its whole stack, and they go %u frames "
	    "deep), more than the %zu MiB an answer may be: cut them with "
	    "maxdepth=", (unsigned long long)(bytes >> 20), deepest,
	    w->o->max_bytes >> 20);
	return (-1);
}

/* Write p as folded stacks. */
int
writer_folded(struct outbuf *ob, const struct profile *p,
    const struct writer_options *o, char **cause)
{
	struct fw	 w;
	uint32_t	 i;
	int		 r = -1;

	memset(&w, 0, sizeof w);
	w.ob = ob;
	w.p = p;
	w.o = o;
	w.m = o->metric;
	w.maxdepth = o->maxdepth;
	w.no_modules = o->no_modules;
	w.base = profile_metric_find(p, "base");
	if (w.base == w.m)
		w.base = -1;
	if (fw_frames(&w) == -1) {
		cause_set(cause, "out of memory");
		goto done;
	}
	if (o->max_bytes != 0 && fw_size(&w, cause) == -1)
		goto done;
	if ((o->time_order ? fw_time(&w, cause) : fw_tree(&w)) == -1) {
		if (cause != NULL && *cause == NULL)
			cause_set(cause, "%s", outbuf_failed(ob) == -1 ?
			    "write error" : "out of memory");
		goto done;
	}
	r = 0;
done:
	if (w.frame != NULL) {
		for (i = 0; i < p->nfuncs; i++)
			free(w.frame[i]);
	}
	free(w.frame);
	free(w.buf);
	free(w.off);
	return (r);
}
