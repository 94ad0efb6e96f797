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

#include <jansson.h>

#include "columns.h"
#include "cost.h"
#include "diff.h"
#include "display.h"
#include "idmap.h"
#include "json-build.h"
#include "profile.h"
#include "profile-index.h"
#include "query.h"
#include "report.h"

/*
 * cmd=tree: the call tree from the root or from path=. Which nodes are
 * shown is chosen within a node budget by a depth-decayed score (a
 * node's total, halved for each level below the start), so the heavy
 * paths open deep and light ones stay closed. depth= bounds the levels
 * opened by score; paths listed in open= are opened whatever their score
 * (their children come first within the budget), paths in close= are
 * shown closed. The page's toggles add a path to one list and take it
 * out of the other, so a URL says exactly which nodes are open.
 *
 * An HTML page whose depth= is the default also opens the heavy path,
 * as the Firefox Profiler does: from the start, while one child holds
 * more than half of its parent's total, that child is shown and opened
 * (its siblings keep their usual score), down to where the time is
 * spent. JSON and text answers, and a page with depth= set (deepq.js
 * asks depth=1 for the children of one node), stay as they were.
 */

#define TREE_DECAY	0.5
#define TREE_SHOWN_COST	256	/* node visits a shown node costs */
#define TREE_MORE	0x80000000U	/* display stack: a "more" row */
#define TREE_EXACT	900		/* levels where 0.5^n * total is normal */
#define TREE_AHEAD	8	/* siblings whose data is asked for early */
#define TREE_MODS	16	/* module names a page shares, by pointer */
#define TREE_HOT_MAX	1000	/* levels of the heavy path opened */

/*
 * A candidate stands for the rest of its siblings too: they are kept in
 * order in tree_kids (kids[next..end)), and the next one enters the heap
 * when this one leaves it. The heap so holds one entry per opened node
 * instead of every child of every opened node, and a node with a
 * hundred thousand children costs one pass to pick the few the budget
 * can show, not a hundred thousand heap insertions.
 */
struct tree_cand {
	int		 forced;	/* child of an open= node: first */
	int		 sibforced;	/* forced of its later siblings */
	double		 score;
	uint32_t	 node;
	uint32_t	 parent;	/* index in the shown list */
	uint32_t	 reldepth;
	size_t		 next, end;	/* its later siblings in tree_kids */
	const uint32_t	*sorted;	/* or in this, by profile_index_children() */
	double		 decay;		/* their score is total * decay */
};

struct tree_kid {
	double		 score;
	uint32_t	 node;
};

struct tree_kids {
	struct tree_kid	*v;
	size_t		 n, cap;
};

struct tree_sibling {
	const struct profile	*p;
	int			 m;
	const uint32_t		*nodes;
	const uint32_t		*parents;
};

struct tree_mod {
	const char	*name;		/* in the profile's strings */
	json_t		*j;
};

struct tree_heap {
	struct tree_cand	*v;
	size_t			 n, cap;
};

/*
 * The nodes a page shows, in the order they were chosen (0 is the
 * start): node i is profile node nodes[i] under shown node parents[i],
 * at paths[i] (plen[i] bytes), with nkids[i] children in the profile
 * (PROFILE_NONE: not counted, the node stayed closed) of which hidden[i]
 * are not shown; its shown children are order[first[i] .. first[i + 1])
 * in the page's order.
 */
struct tree_walk {
	int		 m;		/* the metric that scores */
	uint32_t	 nshown;
	uint32_t	*nodes;
	uint32_t	*parents;
	uint32_t	*nkids;
	uint32_t	*plen;
	char		**paths;
	uint32_t	*order;
	uint32_t	*first;
	int		*hidden;
};

/*
 * What tree_walk() chooses with: the heap of candidates, the children
 * scored one by one (deeper than TREE_EXACT levels), the marks of open=,
 * close= and the heavy path, and the budget of shown nodes.
 */
struct tree_choice {
	const struct profile		*p;
	const struct query		*q;
	const struct report_context	*ctx;
	struct tree_walk		*w;
	struct tree_heap		 h;
	struct tree_kids		 sibs;
	struct idmap			 open, closed, hot;
	int64_t				 budget;
	int				 m;
};

/* cmd=tree's result: the walk, and whether it compares (diff_init()). */
struct tree_result {
	const struct profile	*p;
	const struct profile_lines *lines;	/* rows link their source */
	struct tree_walk	 w;
	int			 cmp;
	struct diff		 dd;
};

/*
 * The links of a page's rows, each differing from the page's in a key or
 * two: the rest is formatted once, in templates (a function's page, the
 * tree rooted at a path, the open and close lists), each filled from its
 * view; ids holds a row's path.
 */
struct tree_links {
	struct query_tmpl	 tfunc, troot, ttoggle, tsrc;
	struct query		 vfunc, vroot, vtoggle, vsrc;
	uint32_t		*ids;		/* QUERY_MAX_PATH */
};

static int	tree_walk(struct tree_walk *, const struct profile *,
		    const struct query *, const struct report_context *,
		    struct report_error *);
static void	tree_walk_free(struct tree_walk *);
static int	tree_walk_nomem(struct report_error *);
static int	tree_walk_sibling(struct tree_choice *,
		    const struct tree_cand *);
static int	tree_walk_show(struct tree_choice *, const struct tree_cand *,
		    struct report_error *);
static int	tree_walk_opens(const struct tree_choice *,
		    const struct tree_cand *);
static int	tree_walk_kids_sorted(struct tree_choice *, struct tree_cand *,
		    uint32_t, struct report_error *);
static int	tree_walk_kids_scored(struct tree_choice *, struct tree_cand *,
		    uint32_t, struct report_error *);
static int	tree_walk_enter(struct tree_choice *, const struct tree_cand *,
		    struct report_error *);
static int	tree_walk_choose(struct tree_choice *, uint32_t,
		    struct report_error *);
static int	tree_walk_order(struct tree_walk *, const struct profile *,
		    const struct report_context *);
static void	*tree_create(const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
static json_t	*tree_json(const void *, const struct query *);
static struct display *tree_display(const void *,
		    const struct report_notes *, const struct query *);
static void	 tree_free(void *);
static int	tree_before(const struct tree_cand *,
		    const struct tree_cand *);
static int	tree_kid_before(const struct tree_kid *,
		    const struct tree_kid *);
static int	tree_kid_cmp(const void *, const void *);
static void	tree_kid_select(struct tree_kid *, size_t, size_t);
static int	tree_push(struct tree_heap *, struct tree_cand);
static void	tree_prefetch(const struct profile *,
		    const struct profile_index *, int, uint32_t);
static int	tree_sibling_cmp(const void *, const void *, void *);
static struct tree_cand tree_pop(struct tree_heap *);
static uint32_t	tree_resolve(struct profile_index *, const uint32_t *, size_t);
static int	tree_open_paths(struct profile_index *, const char *,
		    struct idmap *);
static int	tree_hot_path(const struct profile *, int, uint32_t,
		    const struct report_context *, struct idmap *);
static char	*tree_list_edit(const char *, const char *, int);
static json_t	*tree_module(const struct profile *, uint32_t,
		    struct tree_mod *);
static char	*tree_path_append(const char *, size_t, uint32_t, size_t *);
static int	tree_links_init(struct tree_links *, const struct query *,
		    int);
static void	tree_links_clear(struct tree_links *);
static void	tree_row_more(struct display *, struct display_block *, size_t,
		    const struct columns *, const int64_t *, const int64_t *,
		    struct tree_links *, const char *, uint32_t, int64_t);
static char	*tree_func_link(struct tree_links *, uint32_t);
static char	*tree_source_link(struct tree_links *, uint32_t);
static const char *tree_id(char *, uint32_t);
static char	*tree_root_link(struct tree_links *, const char *);
static void	tree_row_toggles(struct display *, struct display_cell *,
		    const struct query *, struct tree_links *, const char *,
		    uint32_t, size_t, int64_t);
static char	*tree_toggle(struct tree_links *, const struct query *,
		    const char *, int);

const struct report_entry report_tree_entry = {
	.create = tree_create,
	.json = tree_json,
	.display = tree_display,
	.free = tree_free,
};

/* Shown nodes by parent, then heaviest first, then by node number. */
static int
tree_sibling_cmp(const void *a, const void *b, void *arg)
{
	const struct tree_sibling	*s = arg;
	uint32_t			 x = *(const uint32_t *)a;
	uint32_t			 y = *(const uint32_t *)b;
	int64_t				 tx, ty;

	if (s->parents[x] != s->parents[y])
		return (s->parents[x] < s->parents[y] ? -1 : 1);
	tx = s->p->metrics[s->m].total[s->nodes[x]];
	ty = s->p->metrics[s->m].total[s->nodes[y]];
	if (tx != ty)
		return (tx > ty ? -1 : 1);
	return (s->nodes[x] < s->nodes[y] ? -1 : s->nodes[x] > s->nodes[y]);
}

/* Does candidate a come out of the heap before b? */
static int
tree_before(const struct tree_cand *a, const struct tree_cand *b)
{
	if (a->forced != b->forced)
		return (a->forced > b->forced);
	if (a->score != b->score)
		return (a->score > b->score);
	return (a->node < b->node);
}

/*
 * Siblings share forced and reldepth, so among them tree_before() is the
 * order of score, then node number.
 */
static int
tree_kid_before(const struct tree_kid *a, const struct tree_kid *b)
{
	if (a->score != b->score)
		return (a->score > b->score);
	return (a->node < b->node);
}

static int
tree_kid_cmp(const void *a, const void *b)
{
	if (tree_kid_before(a, b))
		return (-1);
	return (tree_kid_before(b, a));
}

/*
 * Put the k siblings that come first in v[0..k), in no order (a
 * quickselect; the order is strict, node numbers being distinct).
 */
static void
tree_kid_select(struct tree_kid *v, size_t n, size_t k)
{
	struct tree_kid	 pivot, t;
	size_t		 lo = 0, hi = n, i, at;

	while (hi - lo > 1) {
		t = v[lo + (hi - lo) / 2];
		v[lo + (hi - lo) / 2] = v[hi - 1];
		v[hi - 1] = pivot = t;
		for (i = at = lo; i < hi - 1; i++) {
			if (tree_kid_before(&v[i], &pivot)) {
				t = v[i];
				v[i] = v[at];
				v[at++] = t;
			}
		}
		v[hi - 1] = v[at];
		v[at] = pivot;
		if (at == k || at + 1 == k)
			return;
		if (k < at)
			hi = at;
		else
			lo = at + 1;
	}
}

/*
 * Ask for what showing node n reads, as it becomes a candidate: on a big
 * profile each is a cache (and TLB) miss, and taken one after the other
 * they were most of a page's time; asked early, they overlap.
 */
static void
tree_prefetch(const struct profile *p, const struct profile_index *ix, int m,
    uint32_t n)
{
	uint32_t	 k;

	__builtin_prefetch(&p->node_func[n]);
	for (k = 0; k < p->nmetrics; k++) {
		__builtin_prefetch(&p->metrics[k].self[n]);
		if ((int)k != m)
			__builtin_prefetch(&p->metrics[k].total[n]);
	}
	profile_index_children_prefetch(ix, n);
}

static int
tree_push(struct tree_heap *h, struct tree_cand c)
{
	struct tree_cand	*v, t;
	size_t			 i, up;

	if (h->n == h->cap) {
		size_t	 cap = h->cap ? h->cap * 2 : 64;

		if ((v = reallocarray(h->v, cap, sizeof *v)) == NULL)
			return (-1);
		h->v = v;
		h->cap = cap;
	}
	i = h->n++;
	h->v[i] = c;
	while (i > 0) {
		up = (i - 1) / 2;
		if (!tree_before(&h->v[i], &h->v[up]))
			break;
		t = h->v[up];
		h->v[up] = h->v[i];
		h->v[i] = t;
		i = up;
	}
	return (0);
}

static struct tree_cand
tree_pop(struct tree_heap *h)
{
	struct tree_cand	 top = h->v[0], t;
	size_t			 i = 0, l, r, m;

	h->v[0] = h->v[--h->n];
	for (;;) {
		l = 2 * i + 1;
		r = l + 1;
		m = i;
		if (l < h->n && tree_before(&h->v[l], &h->v[m]))
			m = l;
		if (r < h->n && tree_before(&h->v[r], &h->v[m]))
			m = r;
		if (m == i)
			break;
		t = h->v[m];
		h->v[m] = h->v[i];
		h->v[i] = t;
		i = m;
	}
	return (top);
}

/* The node at the end of a path of function ids, or PROFILE_NONE. */
static uint32_t
tree_resolve(struct profile_index *ix, const uint32_t *path, size_t n)
{
	uint32_t	 node = PROFILE_ROOT;
	size_t		 i;

	for (i = 0; i < n && node != PROFILE_NONE; i++)
		node = profile_index_node_child(ix, node, path[i]);
	return (node);
}

/*
 * The path parent (n bytes) + "," + f ("" + f at the root), and its
 * length in *len; caller frees.
 */
static char *
tree_path_append(const char *parent, size_t n, uint32_t f, size_t *len)
{
	char		 digits[16], *s;
	size_t		 k = 0, i;

	do {
		digits[k++] = '0' + f % 10;
		f /= 10;
	} while (f != 0);
	if ((s = malloc(n + 1 + k + 1)) == NULL)
		return (NULL);
	memcpy(s, parent, n);
	if (n > 0)
		s[n++] = ',';
	for (i = 0; i < k; i++)
		s[n++] = digits[k - 1 - i];
	s[n] = '\0';
	*len = n;
	return (s);
}

/*
 * A new reference to function f's module name as a JSON string. The
 * nodes of a page share a few modules: one string each, kept in mods
 * (TREE_MODS of them, by where the name is), not one a node.
 */
static json_t *
tree_module(const struct profile *p, uint32_t f, struct tree_mod *mods)
{
	const char	*s = profile_func_module(p, f);
	struct tree_mod	*slot = &mods[((uintptr_t)s >> 3) % TREE_MODS];

	if (slot->j == NULL || slot->name != s) {
		json_decref(slot->j);
		slot->name = s;
		if ((slot->j = json_string_nocheck(s)) == NULL)
			return (NULL);
	}
	return (json_incref(slot->j));
}

/* Mark the nodes of open= ("1,2~1,3") in set; -1 on a malformed path. */
static int
tree_open_paths(struct profile_index *ix, const char *s, struct idmap *set)
{
	const char	*tilde;
	char		*one;
	uint32_t	 node, *ids = NULL;
	size_t		 n;
	int		 r = 0;

	while (*s != '\0' && r == 0) {
		tilde = strchr(s, '~');
		if ((one = strndup(s, tilde ? (size_t)(tilde - s) :
		    strlen(s))) == NULL)
			r = -1;
		else if (query_path_parse(one, &ids, &n) == -1)
			r = -1;
		else if ((node = tree_resolve(ix, ids, n)) != PROFILE_NONE &&
		    idmap_put(set, node, 1) == -1)
			r = -1;
		free(one);
		free(ids);
		ids = NULL;
		s = tilde ? tilde + 1 : s + strlen(s);
	}
	return (r);
}

/*
 * Mark in hot the heavy path below start (see the top of this file):
 * the heaviest child of each node on it while it holds more than half
 * of its parent's total. -1 if out of memory.
 */
static int
tree_hot_path(const struct profile *p, int m, uint32_t start,
    const struct report_context *ctx, struct idmap *hot)
{
	const int64_t	*total = p->metrics[m].total;
	const uint32_t	*kids;
	uint32_t	 n = start, level;
	size_t		 nk;

	for (level = 0; level < TREE_HOT_MAX; level++) {
		if ((kids = profile_index_children(ctx->index, m, n, &nk)) ==
		    NULL)
			return (-1);
		if (nk == 0 || total[kids[0]] <= 0 ||
		    total[kids[0]] <= total[n] / 2 ||
		    cost_charge(ctx->cost, 1) == -1)
			break;
		/* The child is shown first and opens (3), down to the end. */
		if (idmap_put(hot, kids[0], 3) == -1)
			return (-1);
		n = kids[0];
	}
	return (0);
}

/* Set *e to "out of memory" and return -1, as tree_walk()'s steps fail. */
static int
tree_walk_nomem(struct report_error *e)
{
	report_error_set(e, 500, "out of memory");
	return (-1);
}

/*
 * Candidate c's next sibling takes its place in the heap (struct
 * tree_cand); -1 if out of memory.
 */
static int
tree_walk_sibling(struct tree_choice *tc, const struct tree_cand *c)
{
	const int64_t		*total = tc->p->metrics[tc->m].total;
	struct tree_cand	 k;
	uint32_t		 ch;

	if (c->next >= c->end)
		return (0);
	k = *c;
	k.forced = c->sibforced;
	if (c->sorted != NULL) {
		k.node = c->sorted[c->next];
		k.score = (double)total[k.node] * c->decay;
	} else {
		k.score = tc->sibs.v[c->next].score;
		k.node = tc->sibs.v[c->next].node;
	}
	k.next++;
	/* Keep TREE_AHEAD siblings asked for. */
	if (c->sorted != NULL && c->next + TREE_AHEAD < c->end) {
		ch = c->sorted[c->next + TREE_AHEAD];
		__builtin_prefetch(&total[ch]);
		tree_prefetch(tc->p, tc->ctx->index, tc->m, ch);
	}
	return (tree_push(&tc->h, k));
}

/*
 * Show candidate c: the next entry of the walk, at its parent's path
 * and its function. -1 with *e when the cost runs out or memory does.
 */
static int
tree_walk_show(struct tree_choice *tc, const struct tree_cand *c,
    struct report_error *e)
{
	struct tree_walk	*w = tc->w;
	char			*path;
	uint32_t		 i = w->nshown;
	size_t			 len = 0;

	/*
	 * A shown node costs TREE_SHOWN_COST visits (its row, its
	 * rendering: 30 us against a visit's few ns) and its
	 * path, which grows with the depth: 8 bytes count as a visit.
	 */
	if (cost_charge(tc->ctx->cost, TREE_SHOWN_COST +
	    (c->parent == UINT32_MAX ? 0 :
	    w->plen[c->parent] / 8)) == -1) {
		report_error_cost(e, tc->ctx->cost);
		return (-1);
	}
	if (c->parent == UINT32_MAX) {
		if ((path = query_path_format(tc->q->path,
		    tc->q->npath)) != NULL)
			len = strlen(path);
	} else
		path = tree_path_append(w->paths[c->parent],
		    w->plen[c->parent], tc->p->node_func[c->node], &len);
	if (path == NULL)
		return (tree_walk_nomem(e));
	w->paths[i] = path;
	w->plen[i] = len;
	w->nodes[i] = c->node;
	w->parents[i] = c->parent;
	w->nkids[i] = PROFILE_NONE;
	w->nshown = i + 1;
	return (0);
}

/*
 * Does shown candidate c open: within depth=, in open= or on the heavy
 * path, and not in close= (the start always opens)?
 */
static int
tree_walk_opens(const struct tree_choice *tc, const struct tree_cand *c)
{
	uint32_t	 n = c->node;

	return ((c->reldepth < tc->q->depth ||
	    idmap_get(&tc->open, n) != IDMAP_NONE ||
	    idmap_get(&tc->hot, n) != IDMAP_NONE) &&
	    (c->parent == UINT32_MAX ||
	    idmap_get(&tc->closed, n) == IDMAP_NONE));
}

/*
 * Enter the children of node n, within TREE_EXACT levels of the start:
 * there the order of the scores is that of the totals, which the
 * profile keeps sorted once (profile_index_children()), so there is no
 * pass over the children at all. k is their candidate, filled but for
 * the first child. -1 with *e on failure.
 */
static int
tree_walk_kids_sorted(struct tree_choice *tc, struct tree_cand *k,
    uint32_t n, struct report_error *e)
{
	struct tree_walk	*w = tc->w;
	const struct profile	*p = tc->p;
	int			 m = tc->m;
	size_t			 room = tc->budget - w->nshown, nk, i;

	if ((k->sorted = profile_index_children(tc->ctx->index, m, n,
	    &nk)) == NULL)
		return (tree_walk_nomem(e));
	if (cost_charge(tc->ctx->cost, nk) == -1) {
		report_error_cost(e, tc->ctx->cost);
		return (-1);
	}
	w->nkids[w->nshown - 1] = nk;
	/*
	 * The first children's totals, read as they enter the heap, and
	 * what showing them reads: a child enters when its elder sibling
	 * leaves, often at once, too late to ask for it then.
	 */
	for (i = 0; i < nk && i < room && i < TREE_AHEAD; i++) {
		__builtin_prefetch(&p->metrics[m].total[k->sorted[i]]);
		tree_prefetch(p, tc->ctx->index, m, k->sorted[i]);
	}
	if (nk > 0 && room > 0) {
		k->node = k->sorted[0];
		k->forced = k->sibforced || idmap_get(&tc->hot, k->node) == 3;
		k->score = (double)p->metrics[m].total[k->node] * k->decay;
		k->next = 1;
		k->end = nk < room ? nk : room;
		if (tree_push(&tc->h, *k) == -1)
			return (tree_walk_nomem(e));
	}
	return (0);
}

/*
 * Enter the children of node n deeper down, where scores may underflow
 * and tie where totals do not: score every child one by one into
 * tc->sibs, keep the ones that can still be shown, in order, and enter
 * the first. k as for tree_walk_kids_sorted(); -1 with *e on failure.
 */
static int
tree_walk_kids_scored(struct tree_choice *tc, struct tree_cand *k,
    uint32_t n, struct report_error *e)
{
	struct tree_walk	*w = tc->w;
	const struct profile	*p = tc->p;
	struct tree_kids	*sibs = &tc->sibs;
	struct tree_kid		*kv;
	size_t			 room = tc->budget - w->nshown;
	size_t			 base = sibs->n, nk;
	uint32_t		 ch;

	for (ch = p->node_first_child[n]; ch != PROFILE_NONE;
	    ch = p->node_next_sibling[ch]) {
		if (cost_charge(tc->ctx->cost, 1) == -1) {
			report_error_cost(e, tc->ctx->cost);
			return (-1);
		}
		if (sibs->n == sibs->cap) {
			size_t	 cap = sibs->cap ? sibs->cap * 2 : 256;

			if ((kv = reallocarray(sibs->v, cap,
			    sizeof *kv)) == NULL)
				return (tree_walk_nomem(e));
			sibs->v = kv;
			sibs->cap = cap;
		}
		kv = &sibs->v[sibs->n++];
		kv->node = ch;
		kv->score = (double)p->metrics[tc->m].total[ch] * k->decay;
	}
	nk = sibs->n - base;
	w->nkids[w->nshown - 1] = nk;
	if (nk > room) {
		tree_kid_select(sibs->v + base, nk, room);
		sibs->n = base + room;
		nk = room;
	}
	qsort(sibs->v + base, nk, sizeof *sibs->v, tree_kid_cmp);
	if (nk > 0) {
		k->node = sibs->v[base].node;
		k->forced = k->sibforced || idmap_get(&tc->hot, k->node) == 3;
		k->score = sibs->v[base].score;
		k->next = base + 1;
		k->end = base + nk;
		if (tree_push(&tc->h, *k) == -1)
			return (tree_walk_nomem(e));
	}
	return (0);
}

/*
 * Enter the children of c, just shown and open, as one candidate for
 * them all (struct tree_cand). -1 with *e on failure.
 */
static int
tree_walk_enter(struct tree_choice *tc, const struct tree_cand *c,
    struct report_error *e)
{
	struct tree_cand	 k;

	k.parent = tc->w->nshown - 1;
	k.reldepth = c->reldepth + 1;
	k.sibforced = k.forced = idmap_get(&tc->open, c->node) !=
	    IDMAP_NONE;
	/*
	 * The decay for this level, carried down as a product (a loop over
	 * the depth would cost depth^2): scaling by a power of two is exact
	 * while the result stays normal. Deeper, scores may underflow and
	 * tie where totals do not, so each child is scored one by one.
	 */
	k.decay = c->decay * TREE_DECAY;
	k.sorted = NULL;
	if (c->reldepth < TREE_EXACT)
		return (tree_walk_kids_sorted(tc, &k, c->node, e));
	return (tree_walk_kids_scored(tc, &k, c->node, e));
}

/*
 * Take candidates from the heap, the start first, and show them until
 * the budget is spent or none is left; -1 with *e on failure.
 */
static int
tree_walk_choose(struct tree_choice *tc, uint32_t start,
    struct report_error *e)
{
	struct tree_cand	 c;

	c.forced = 1;
	c.sibforced = 1;
	c.score = 0;
	c.node = start;
	c.parent = UINT32_MAX;
	c.reldepth = 0;
	c.next = c.end = 0;
	c.sorted = NULL;
	c.decay = 1;
	if (tree_push(&tc->h, c) == -1)
		return (tree_walk_nomem(e));
	while (tc->h.n > 0 && tc->w->nshown < tc->budget) {
		c = tree_pop(&tc->h);
		if (tree_walk_sibling(tc, &c) == -1)
			return (tree_walk_nomem(e));
		if (tree_walk_show(tc, &c, e) == -1)
			return (-1);
		if (tree_walk_opens(tc, &c) &&
		    tree_walk_enter(tc, &c, e) == -1)
			return (-1);
	}
	return (0);
}

/*
 * The shown nodes under their parents, siblings by total, the
 * heaviest first, whatever order the budget took them in: node i's
 * shown children are order[first[i] .. first[i + 1]). A parent is
 * shown before its children: a counting sort by parent keeps the
 * order they were taken in, which among siblings is already that
 * order wherever the scores are exact (they are the totals scaled
 * alike); a group out of order (scores that underflowed deep down)
 * is sorted. Then how many children each keeps hidden. -1 if out of
 * memory.
 */
static int
tree_walk_order(struct tree_walk *w, const struct profile *p,
    const struct report_context *ctx)
{
	struct tree_sibling	 sib;
	uint32_t		 nshown = w->nshown, *order;
	size_t			 i, nk, run, end;

	if ((order = w->order = malloc(nshown * sizeof *order)) == NULL ||
	    (w->first = calloc(nshown + 1, sizeof *w->first)) == NULL ||
	    (w->hidden = calloc(nshown, sizeof *w->hidden)) == NULL)
		return (-1);
	for (i = 1; i < nshown; i++)
		w->first[w->parents[i] + 1]++;
	w->first[0] = 1;
	for (i = 0; i < nshown; i++)
		w->first[i + 1] += w->first[i];
	order[0] = 0;
	for (i = 1; i < nshown; i++)
		order[w->first[w->parents[i]]++] = i;
	/* Each first[i] is now where i + 1's start: move them back. */
	for (i = nshown; i > 0; i--)
		w->first[i] = w->first[i - 1];
	w->first[0] = 1;
	sib.p = p;
	sib.m = w->m;
	sib.nodes = w->nodes;
	sib.parents = w->parents;
	for (i = 0; i < nshown; i++) {
		end = w->first[i + 1];
		for (run = w->first[i] + 1; run < end; run++) {
			if (tree_sibling_cmp(&order[run - 1], &order[run],
			    &sib) > 0) {
				qsort_r(order + w->first[i], end -
				    w->first[i], sizeof *order,
				    tree_sibling_cmp, &sib);
				break;
			}
		}
	}
	/* How many children each shown node keeps hidden. */
	for (i = 0; i < nshown; i++) {
		nk = w->nkids[i];
		/*
		 * A closed node's children are counted where the profile
		 * keeps their number, not by walking its sibling list (a
		 * cache miss a child on a big profile).
		 */
		if (w->nkids[i] == PROFILE_NONE &&
		    profile_index_children(ctx->index, w->m, w->nodes[i],
		    &nk) == NULL)
			return (-1);
		w->hidden[i] = (int)nk - (int)(w->first[i + 1] -
		    w->first[i]);
	}
	return (0);
}

/*
 * Choose the shown nodes (see the top of this file) into w: -1 with *e
 * on failure (tree_walk_free() frees w either way). Both the JSON and
 * the display are made from what this chooses, so they cannot differ.
 */
static int
tree_walk(struct tree_walk *w, const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	struct tree_choice	 tc;
	char			*path;
	uint32_t		 start;
	int64_t			 budget = q->budget;
	int			 m, r = -1;

	memset(w, 0, sizeof *w);
	memset(&tc, 0, sizeof tc);
	idmap_init(&tc.open);
	idmap_init(&tc.closed);
	idmap_init(&tc.hot);
	if ((m = report_metric(p, q, e)) == -1)
		return (-1);
	w->m = m;
	if ((start = tree_resolve(ctx->index, q->path, q->npath)) ==
	    PROFILE_NONE) {
		path = query_path_format(q->path, q->npath);
		report_error_set(e, 404, "no call node at path %s",
		    path ? path : "?");
		free(path);
		return (-1);
	}
	if (tree_open_paths(ctx->index, q->open,
	    &tc.open) == -1) {
		report_error_set(e, 400, "open: must be paths separated by ~");
		goto done;
	}
	if (tree_open_paths(ctx->index, q->close,
	    &tc.closed) == -1) {
		report_error_set(e, 400, "close: must be paths separated by "
		    "~");
		goto done;
	}
	if (!query_key_isset(q, QUERY_DEPTH) && q->format == FMT_HTML &&
	    tree_hot_path(p, m, start, ctx, &tc.hot) == -1)
		goto nomem;
	/* budget >= 1 (query.c): the start is always shown. */
	if ((w->paths = calloc(budget, sizeof *w->paths)) == NULL ||
	    (w->nodes = calloc(budget, sizeof *w->nodes)) == NULL ||
	    (w->parents = calloc(budget, sizeof *w->parents)) == NULL ||
	    (w->nkids = calloc(budget, sizeof *w->nkids)) == NULL ||
	    (w->plen = calloc(budget, sizeof *w->plen)) == NULL)
		goto nomem;
	tc.p = p;
	tc.q = q;
	tc.ctx = ctx;
	tc.w = w;
	tc.budget = budget;
	tc.m = m;
	if (tree_walk_choose(&tc, start, e) == -1)
		goto done;
	if (tree_walk_order(w, p, ctx) == -1)
		goto nomem;
	r = 0;
	goto done;
nomem:
	report_error_set(e, 500, "out of memory");
done:
	free(tc.h.v);
	free(tc.sibs.v);
	idmap_clear(&tc.open);
	idmap_clear(&tc.closed);
	idmap_clear(&tc.hot);
	return (r);
}

static void
tree_walk_free(struct tree_walk *w)
{
	uint32_t	 i;

	if (w->paths != NULL) {
		for (i = 0; i < w->nshown; i++)
			free(w->paths[i]);
	}
	free(w->paths);
	free(w->nodes);
	free(w->parents);
	free(w->nkids);
	free(w->plen);
	free(w->order);
	free(w->first);
	free(w->hidden);
}

/*
 * cmd=tree's result: the nodes tree_walk() chose, of which the JSON and
 * the page are both made. NULL with *e on failure.
 */
static void *
tree_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	struct tree_result	*t;

	if ((t = calloc(1, sizeof *t)) == NULL) {
		report_error_set(e, 500, "out of memory");
		return (NULL);
	}
	t->p = p;
	t->lines = report_lines(p, ctx);
	t->cmp = diff_init(&t->dd, p, q);
	if (tree_walk(&t->w, p, q, ctx, e) == -1) {
		tree_free(t);
		return (NULL);
	}
	if (report_rates_check(p, e) == -1) {
		tree_free(t);
		return (NULL);
	}
	return (t);
}

static void
tree_free(void *v)
{
	struct tree_result	*t = v;

	if (t == NULL)
		return;
	tree_walk_free(&t->w);
	free(t);
}

/* cmd=tree as JSON (deepq-query(7)); NULL if out of memory. */
static json_t *
tree_json(const void *v, const struct query *q)
{
	const struct tree_result	*t = v;
	const struct tree_walk		*wp = &t->w;
	const struct profile		*p = t->p;
	struct tree_mod			 mods[TREE_MODS];
	json_t				*j = NULL, **objs = NULL, *o, *kids;
	char				*path;
	uint32_t			 n, f, nshown = wp->nshown;
	int				 cmp = t->cmp;
	size_t				 i, x;
	struct json_build		 jb = JSON_BUILD_INIT;

	memset(mods, 0, sizeof mods);
	if ((objs = calloc(nshown, sizeof *objs)) == NULL)
		return (NULL);
	for (i = 0; i < nshown; i++) {
		n = wp->nodes[i];
		f = p->node_func[n];
		/*
		 * Names and paths are valid UTF-8 already (the builder made
		 * the names so, paths are digits): no check again.
		 */
		if ((o = objs[i] = json_object()) == NULL ||
		    json_object_set_new_nocheck(o, "func",
		    json_integer(f)) == -1 ||
		    json_object_set_new_nocheck(o, "name",
		    json_string_nocheck(profile_func_name(p, f))) == -1 ||
		    json_object_set_new_nocheck(o, "module",
		    tree_module(p, f, mods)) == -1 ||
		    json_object_set_new_nocheck(o, "path",
		    json_stringn_nocheck(wp->paths[i], wp->plen[i])) == -1 ||
		    json_object_set_new_nocheck(o, "self",
		    report_node_values(p, 0, n)) == -1 ||
		    (cmp && diff_add(o, p, &t->dd, 0, n) == -1))
			goto nomem;
	}
	/* Each node's shown children, in their order. */
	for (i = 0; i < nshown; i++) {
		if (wp->first[i] == wp->first[i + 1])
			continue;
		if ((kids = json_array()) == NULL ||
		    json_object_set_new_nocheck(objs[i], "children",
		    kids) == -1)
			goto nomem;
		for (x = wp->first[i]; x < wp->first[i + 1]; x++) {
			if (json_array_append(kids, objs[wp->order[x]]) == -1)
				goto nomem;
		}
	}
	for (i = 0; i < nshown; i++) {
		json_build_set(&jb, objs[i], "total",
		    report_node_values(p, 1, wp->nodes[i]));
		json_build_set(&jb, objs[i], "hidden",
		    json_integer(wp->hidden[i]));
	}
	if ((j = report_new(CMD_TREE)) == NULL ||
	    report_metrics(j, p, wp->m) == -1)
		goto nomem;
	json_build_set(&jb, j, "shown", json_integer(nshown));
	json_build_set(&jb, j, "root", json_incref(objs[0]));
	/* The start's ancestors, for breadcrumbs: [{func, name, path}]. */
	if ((kids = json_array()) == NULL ||
	    json_object_set_new(j, "ancestors", kids) == -1)
		goto nomem;
	for (i = 0; i < q->npath; i++) {
		if ((path = query_path_format(q->path, i)) == NULL)
			goto nomem;
		o = json_pack("{s:i, s:s, s:s}", "func", (json_int_t)(i ?
		    q->path[i - 1] : PROFILE_ROOT), "name",
		    profile_func_name(p, i ? q->path[i - 1] : PROFILE_ROOT),
		    "path", path);
		free(path);
		if (o == NULL || json_array_append_new(kids, o) == -1)
			goto nomem;
	}
	j = json_build_end(&jb, j);
	goto done;
nomem:
	json_decref(j);
	j = NULL;
done:
	if (objs != NULL) {
		for (i = 0; i < nshown; i++)
			json_decref(objs[i]);
	}
	free(objs);
	for (i = 0; i < TREE_MODS; i++)
		json_decref(mods[i].j);
	return (j);
}

/*
 * The '~'-separated path list with path taken out (add 0) or moved to
 * the end (add 1); caller frees.
 */
static char *
tree_list_edit(const char *list, const char *path, int add)
{
	size_t		 n = strlen(path), k;
	const char	*p = list, *tilde;
	char		*buf, *o;
	int		 first = 1;

	/* The list kept, a '~' and the path at most. */
	if ((o = buf = malloc(strlen(list) + n + 2)) == NULL)
		return (NULL);
	while (*p != '\0') {
		tilde = strchr(p, '~');
		k = tilde ? (size_t)(tilde - p) : strlen(p);
		if (k != n || strncmp(p, path, n) != 0) {
			if (!first)
				*o++ = '~';
			memcpy(o, p, k);
			o += k;
			first = 0;
		}
		p += k + (tilde ? 1 : 0);
	}
	if (add) {
		if (!first)
			*o++ = '~';
		memcpy(o, path, n);
		o += n;
	}
	*o = '\0';
	return (buf);
}

/*
 * The link that opens (closes) a path: one list gains it, one loses it.
 * t is the page's template of the (open, close) pair.
 */
static char *
tree_toggle(struct tree_links *l, const struct query *q, const char *path,
    int open)
{
	const char	*ol = q->open, *cl = q->close;
	char		*o = NULL, *c = NULL, *link = NULL;

	/* Most pages have neither list: nothing to edit then. */
	if (*ol != '\0')
		o = tree_list_edit(ol, path, open);
	if (*cl != '\0')
		c = tree_list_edit(cl, path, !open);
	if ((*ol == '\0' || o != NULL) && (*cl == '\0' || c != NULL)) {
		l->vtoggle.open = o != NULL ? o : open ? path : "";
		l->vtoggle.close = c != NULL ? c : open ? "" : path;
		link = query_tmpl_fill(&l->ttoggle, &l->vtoggle);
	}
	free(o);
	free(c);
	return (link);
}

/*
 * The row after a partly shown node's children: "N more", linking to the
 * tree rooted at that node (deepq.js expands it in place), with what
 * they cost together (sv, tv: their self and total sums); ncols cells
 * in all, the performance columns c from column 1.
 */
static void
tree_row_more(struct display *d, struct display_block *t, size_t ncols,
    const struct columns *c, const int64_t *sv, const int64_t *tv,
    struct tree_links *l, const char *path, uint32_t depth, int64_t hidden)
{
	struct display_cell	*cell;
	char			 more[48], *link;
	size_t			 r, k;

	r = display_row(d, t);
	snprintf(more, sizeof more, "%lld more", (long long)hidden);
	link = tree_root_link(l, path);
	cell = display_cell(d, t, r, 0, more, link,
	    DISPLAY_TREE | DISPLAY_LEAF | DISPLAY_DIM | DISPLAY_MORE);
	free(link);
	if (cell != NULL)
		cell->indent = depth + 1;
	columns_row(d, t, r, 1, c, sv, tv);
	for (k = 1 + columns_count(c); k < ncols; k++)
		display_cell(d, t, r, k, "", NULL, DISPLAY_NUM);
}

/*
 * The self and total sums of node i's children the walk did not show:
 * all its children's, less the shown ones'.
 */
static void
tree_hidden_sums(const struct profile *p, const struct tree_walk *w,
    uint32_t i, int64_t *sv, int64_t *tv)
{
	uint32_t	 n = w->nodes[i], ch, k, j;
	uint32_t	 nm = p->nmetrics < PROFILE_MAX_METRICS ? p->nmetrics :
			    PROFILE_MAX_METRICS;

	for (k = 0; k < nm; k++)
		sv[k] = tv[k] = 0;
	for (ch = p->node_first_child[n]; ch != PROFILE_NONE;
	    ch = p->node_next_sibling[ch]) {
		for (k = 0; k < nm; k++) {
			sv[k] += p->metrics[k].self[ch];
			tv[k] += p->metrics[k].total[ch];
		}
	}
	for (j = w->first[i]; j < w->first[i + 1]; j++) {
		ch = w->nodes[w->order[j]];
		for (k = 0; k < nm; k++) {
			sv[k] -= p->metrics[k].self[ch];
			tv[k] -= p->metrics[k].total[ch];
		}
	}
}

/* f in decimal at the end of buf[16]: where it starts. */
static const char *
tree_id(char *buf, uint32_t f)
{
	char	*e;

	/* By hand: snprintf was a visible part of a row. */
	e = buf + 15;
	*e = '\0';
	do {
		*--e = '0' + f % 10;
		f /= 10;
	} while (f != 0);
	return (e);
}

/* The link to function f's page (NULL if out of memory). */
static char *
tree_func_link(struct tree_links *l, uint32_t f)
{
	char	 id[16];

	l->vfunc.func = tree_id(id, f);
	return (query_tmpl_fill(&l->tfunc, &l->vfunc));
}

/* The link to function f's source lines (NULL if out of memory). */
static char *
tree_source_link(struct tree_links *l, uint32_t f)
{
	char	 id[16];

	l->vsrc.func = tree_id(id, f);
	return (query_tmpl_fill(&l->tsrc, &l->vsrc));
}

/*
 * The link to the tree rooted at a row's path ("3,7,9", made by the
 * walk); NULL if deeper than a query can address or out of memory.
 */
static char *
tree_root_link(struct tree_links *l, const char *path)
{
	const char	*s;
	size_t		 n = 0;
	uint32_t	 id;

	for (s = path; *s != '\0'; n++) {
		if (n == QUERY_MAX_PATH)
			return (NULL);
		for (id = 0; *s >= '0' && *s <= '9'; s++)
			id = id * 10 + (uint32_t)(*s - '0');
		l->ids[n] = id;
		if (*s == ',')
			s++;
	}
	l->vroot.path = l->ids;
	l->vroot.npath = n;
	return (query_tmpl_fill(&l->troot, &l->vroot));
}

/* A page's link templates (struct tree_links); -1 if out of memory. */
static int
tree_links_init(struct tree_links *l, const struct query *q, int lines)
{
	memset(l, 0, sizeof *l);
	report_view(&l->vfunc, q, CMD_FUNC);
	report_source_view(&l->vsrc, q);
	l->vroot = *q;
	query_key_reset(&l->vroot, QUERY_OPEN);
	query_key_reset(&l->vroot, QUERY_CLOSE);
	l->vtoggle = *q;
	if ((l->ids = calloc(QUERY_MAX_PATH, sizeof *l->ids)) == NULL ||
	    query_tmpl_init(&l->tfunc, &l->vfunc, QUERY_FUNC, 1) == -1 ||
	    query_tmpl_init(&l->troot, &l->vroot, QUERY_PATH, 1) == -1 ||
	    query_tmpl_init(&l->ttoggle, &l->vtoggle, QUERY_OPEN, 2) == -1 ||
	    (lines && query_tmpl_init(&l->tsrc, &l->vsrc, QUERY_FUNC, 1) ==
	    -1))
		return (-1);
	return (0);
}

/* Free what a page's links hold. */
static void
tree_links_clear(struct tree_links *l)
{
	query_tmpl_clear(&l->tfunc);
	query_tmpl_clear(&l->troot);
	query_tmpl_clear(&l->ttoggle);
	query_tmpl_clear(&l->tsrc);
	free(l->ids);
	l->ids = NULL;
}

/*
 * A node's toggle (close it, or open what is hidden) and its menu, the
 * tree rooted at it, whose page lists the transforms first. The start
 * node (depth 0) is always open and has neither.
 */
static void
tree_row_toggles(struct display *d, struct display_cell *cell,
    const struct query *q, struct tree_links *l, const char *path,
    uint32_t depth,
    size_t nkids, int64_t hidden)
{
	char	*link;

	if (cell == NULL || depth == 0)
		return;
	cell->indent = depth;
	if (nkids > 0)
		cell->toggle = display_take(d, tree_toggle(l, q, path, 0));
	else if (hidden > 0)
		cell->toggle = display_take(d, tree_toggle(l, q, path, 1));
	/* Every row but the start: its menu (render-html.c). */
	link = tree_root_link(l, path);
	display_aux_take(d, cell, "root here, transforms", link);
}

/* The tree page above its table: views, comparison, breadcrumbs, heads. */
static struct display_block *
tree_display_head(struct display *d, const struct tree_result *tr,
    const struct report_notes *notes, const struct query *q,
    struct columns *c, uint32_t *ncols)
{
	const struct tree_walk	*wp = &tr->w;
	const struct profile	*p = tr->p;
	struct display_block	*t, *l;
	struct query		 view;
	char			*link;
	uint32_t		 i;

	columns_metrics_profile(d, q, p, wp->m, tr->cmp);
	columns_views(d, q);
	if (notes->compared) {
		diff_text(d, p, &notes->diff, notes->base_name);
		diff_controls(d, q, 0);
	}
	if (q->npath > 0) {
		l = display_links(d);
		/* The breadcrumbs: the tree at each ancestor of the start. */
		report_view(&view, q, CMD_TREE);
		view.path = q->path;
		for (i = 0; i < q->npath; i++) {
			view.npath = i;
			link = query_format(&view);
			display_link(d, l, profile_func_name(p, i ?
			    q->path[i - 1] : PROFILE_ROOT), link);
			free(link);
		}
	}
	display_text(d, "%lld nodes shown, chosen by %s total; "
	    "+ expands, \xe2\x88\x92 collapses.", (long long)wp->nshown,
	    p->metrics[wp->m].name);
	columns_init(c, p, wp->m, q, COLUMNS_SELF | COLUMNS_TOTAL);
	*ncols = 1 + columns_count(c);
	t = display_table(d, *ncols + (tr->cmp ? DIFF_COLUMNS : 0), "tree");
	display_head(d, t, 0, "Function", NULL, 0);
	columns_head(d, t, 1, c, q);
	if (tr->cmp)
		diff_head(d, t, *ncols);
	return (t);
}

/*
 * The row of shown node i at depth: its label ("module`name", or the
 * name alone, as report_func_label() makes it, in *label of *lcap bytes
 * reused from row to row), toggles, source link and figures. -1 when
 * out of memory.
 */
static int
tree_display_row(struct display *d, struct display_block *t,
    const struct tree_result *tr, const struct query *q,
    struct tree_links *links, const struct columns *c, uint32_t ncols,
    uint32_t i, uint32_t depth, char **label, size_t *lcap)
{
	const struct tree_walk	*wp = &tr->w;
	const struct profile	*p = tr->p;
	struct display_cell	*cell;
	const char		*module, *name;
	char			*link;
	uint32_t		 n, f, nk, k;
	int64_t			 sv[PROFILE_MAX_METRICS];
	int64_t			 tv[PROFILE_MAX_METRICS];
	size_t			 r, mlen, nlen;
	int			 hidden = wp->hidden[i];

	r = display_row(d, t);
	nk = wp->first[i + 1] - wp->first[i];
	n = wp->nodes[i];
	f = p->node_func[n];
	link = f > 0 ? tree_func_link(links, f) : NULL;
	module = profile_func_module(p, f);
	name = profile_func_name(p, f);
	mlen = strlen(module);
	nlen = strlen(name);
	if (mlen + nlen + 2 > *lcap) {
		*lcap = mlen + nlen + 2 + 64;
		free(*label);
		if ((*label = malloc(*lcap)) == NULL) {
			*lcap = 0;
			free(link);
			return (-1);
		}
	}
	if (mlen > 0) {
		memcpy(*label, module, mlen);
		(*label)[mlen++] = '`';
	}
	memcpy(*label + mlen, name, nlen + 1);
	cell = display_cell(d, t, r, 0, *label, link,
	    DISPLAY_TREE | (nk ? DISPLAY_OPEN : 0) |
	    (nk == 0 && hidden == 0 ? DISPLAY_LEAF : 0));
	free(link);
	tree_row_toggles(d, cell, q, links, wp->paths[i], depth, nk, hidden);
	/* Its function's costs by line, where the profile has them. */
	if (report_has_lines(tr->lines, f))
		display_more_take(d, cell, "source",
		    tree_source_link(links, f));
	for (k = 0; k < p->nmetrics && k < PROFILE_MAX_METRICS; k++) {
		sv[k] = p->metrics[k].self[n];
		tv[k] = p->metrics[k].total[n];
	}
	columns_row(d, t, r, 1, c, sv, tv);
	if (tr->cmp)
		diff_row(d, t, r, ncols, &tr->dd, sv[tr->dd.m],
		    sv[tr->dd.bm], tv[tr->dd.m], tv[tr->dd.bm]);
	return (0);
}

/*
 * cmd=tree's page, made from the walk and the profile: no object,
 * string or number a node to build, look up and free (that was most of
 * a tree page's time when pages were made from the JSON).
 */
static struct display *
tree_display(const void *v, const struct report_notes *notes,
    const struct query *q)
{
	const struct tree_result *tr = v;
	const struct tree_walk	*wp = &tr->w;
	const struct profile	*p = tr->p;
	struct display		*d = NULL;
	struct display_block	*t;
	struct columns		 c;
	struct tree_links	 links;
	char			*label = NULL;
	uint32_t		*stack = NULL, *depths = NULL, ncols, depth;
	uint32_t		 i, nk, k;
	int64_t			 sv[PROFILE_MAX_METRICS];
	int64_t			 tv[PROFILE_MAX_METRICS];
	size_t			 sp = 0, lcap = 0;
	int			 hidden, cmp = tr->cmp;

	/* Each row's links are made from templates (struct tree_links). */
	if (tree_links_init(&links, q, tr->lines != NULL) == -1 ||
	    (d = display_create("Call tree")) == NULL)
		goto nomem;
	t = tree_display_head(d, tr, notes, q, &c, &ncols);

	/*
	 * Depth-first, without recursion: deep trees must not blow the
	 * stack. A node pushes its children and a "more" row at most, each
	 * once: 2 * nshown entries are enough.
	 */
	if ((stack = reallocarray(NULL, 2 * (size_t)wp->nshown + 1,
	    sizeof *stack)) == NULL ||
	    (depths = reallocarray(NULL, 2 * (size_t)wp->nshown + 1,
	    sizeof *depths)) == NULL)
		goto nomem;
	stack[sp] = 0;
	depths[sp++] = 0;
	while (sp > 0 && !display_failed(d)) {
		i = stack[--sp];
		depth = depths[sp] & ~TREE_MORE;
		hidden = wp->hidden[i];
		if (depths[sp] & TREE_MORE) {
			tree_hidden_sums(p, wp, i, sv, tv);
			tree_row_more(d, t, ncols + (cmp ? DIFF_COLUMNS : 0),
			    &c, sv, tv, &links, wp->paths[i], depth, hidden);
			continue;
		}
		if (tree_display_row(d, t, tr, q, &links, &c, ncols, i, depth,
		    &label, &lcap) == -1)
			goto nomem;
		/* Push the "more" row, then the children in reverse. */
		nk = wp->first[i + 1] - wp->first[i];
		for (k = nk + (nk > 0 && hidden > 0); k > 0; k--) {
			if (k > nk) {
				stack[sp] = i;
				depths[sp] = depth | TREE_MORE;
			} else {
				stack[sp] = wp->order[wp->first[i] + k - 1];
				depths[sp] = depth + 1;
			}
			sp++;
		}
	}
	columns_controls(d, p, wp->m, q, 0);
	goto done;
nomem:
	display_free(d);
	d = NULL;
done:
	free(label);
	free(stack);
	free(depths);
	tree_links_clear(&links);
	return (d);
}
