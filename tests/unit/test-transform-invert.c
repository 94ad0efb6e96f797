/*
 * The bounded inversion (transform-invert.c) against the whole one, on a
 * generated profile of deep stacks: every node it makes is the whole
 * inversion's node at the same path with the same total and self; what
 * it leaves unexpanded sits in one pseudo-function child named with the
 * count; the totals are kept; the paths a query names (path=, open=, a
 * focus pushed after the inversion) are expanded with their real
 * callers; an export is never bounded.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "query.h"
#include "tap.h"
#include "transform.h"
#include "transform-test.h"

#define NFUNCS	24
#define NLINES	600
#define BOUND	60

/* Folded stacks: NLINES stacks of 3 to 14 frames over NFUNCS functions. */
static char *
gen_folded(void)
{
	char		*s;
	size_t		 cap = NLINES * 14 * 8 + 1, len = 0;
	unsigned long	 r = 12345;
	int		 i, d, k;

	if ((s = malloc(cap)) == NULL)
		return (NULL);
	for (i = 0; i < NLINES; i++) {
		r = r * 1103515245 + 12345;
		d = 3 + (int)((r >> 16) % 12);
		for (k = 0; k < d; k++) {
			r = r * 1103515245 + 12345;
			/* Skewed: low ids are common, as hot functions are. */
			len += (size_t)snprintf(s + len, cap - len, "%sf%lu",
			    k ? ";" : "", ((r >> 16) % NFUNCS) *
			    ((r >> 8) % 3 == 0) + k % 3);
		}
		r = r * 1103515245 + 12345;
		len += (size_t)snprintf(s + len, cap - len, " %lu\n",
		    1 + (r >> 16) % 50);
	}
	return (s);
}

/* The inversion of qs's stack, bounded to bound nodes (0: whole). */
static struct profile *
invert(const struct profile *p, const char *qs, uint32_t bound, int exact)
{
	struct transform_stack	*s;
	struct profile		*out;
	char			*cause = NULL;
	int			 st;

	if ((s = tt_stack(qs, &st, 0)) == NULL)
		return (NULL);
	s->bound = bound;
	s->exact = exact;
	if ((out = transform_apply(p, s, NULL, &st, &cause)) == NULL)
		diag("%s: %d %s", qs, st, cause ? cause : "?");
	free(cause);
	transform_stack_free(s);
	return (out);
}

/* The node of whole at b's node n's path (functions by name), or NONE. */
static uint32_t
same_node(const struct profile *b, uint32_t n, const struct profile *whole)
{
	uint32_t	 path[64], np = 0, m, f;

	for (m = n; m != PROFILE_ROOT && np < 64; m = b->node_parent[m])
		path[np++] = b->node_func[m];
	for (m = PROFILE_ROOT; np > 0 && m != PROFILE_NONE; np--) {
		f = path[np - 1];
		/* Same ids: function f of the input is f of both outputs. */
		m = profile_node_child(whole, m, f);
	}
	return (m);
}

/*
 * Every node of b but the pseudo-function's is whole's, same total and
 * self; the count of b's pseudo nodes in *npseudo. 0 if all hold.
 */
static int
check_exact(const struct profile *b, const struct profile *whole,
    uint32_t pseudo, uint32_t *npseudo)
{
	uint32_t	 n, m;
	int		 bad = 0;

	*npseudo = 0;
	for (n = 0; n < b->nnodes; n++) {
		if (b->node_func[n] == pseudo) {
			(*npseudo)++;
			continue;
		}
		if ((m = same_node(b, n, whole)) == PROFILE_NONE ||
		    b->metrics[0].total[n] != whole->metrics[0].total[m] ||
		    b->metrics[0].self[n] != whole->metrics[0].self[m]) {
			if (bad++ < 3)
				diag("node %u: not the whole inversion's", n);
		}
	}
	return (bad);
}

/* The pseudo-function's id in b: past p's functions, or NONE. */
static uint32_t
pseudo_of(const struct profile *p, const struct profile *b)
{
	return (b->nfuncs > p->nfuncs ? p->nfuncs : PROFILE_NONE);
}

/* Node n's path in p as function ids from the root: their count. */
static size_t
path_ids(const struct profile *p, uint32_t n, uint32_t *ids, size_t max)
{
	size_t		 np = 0, i;
	uint32_t	 m, t;

	for (m = n; m != PROFILE_ROOT && np < max; m = p->node_parent[m])
		ids[np++] = p->node_func[m];
	for (i = 0; i < np / 2; i++) {
		t = ids[i];
		ids[i] = ids[np - 1 - i];
		ids[np - 1 - i] = t;
	}
	return (np);
}

/* whole's node w in b (the same path), or NONE. */
static uint32_t
node_in(const struct profile *b, const struct profile *whole, uint32_t w)
{
	uint32_t	 ids[64];

	return (profile_node_path(b, ids, path_ids(whole, w, ids, 64)));
}

/* Whether b's node at whole's node w has all of w's children. */
static int
same_children(const struct profile *b, uint32_t n, const struct profile *whole,
    uint32_t w)
{
	uint32_t	 c, k, nb = 0, nw = 0;

	for (c = whole->node_first_child[w]; c != PROFILE_NONE;
	    c = whole->node_next_sibling[c]) {
		nw++;
		if ((k = profile_node_child(b, n, whole->node_func[c])) ==
		    PROFILE_NONE ||
		    b->metrics[0].total[k] != whole->metrics[0].total[c])
			return (0);
	}
	for (c = b->node_first_child[n]; c != PROFILE_NONE;
	    c = b->node_next_sibling[c])
		nb++;
	return (nb == nw);
}

static void
test_bounded(const struct profile *p)
{
	struct profile	*whole, *b;
	uint32_t	 pseudo, npseudo, n, deep, ids[64];
	const char	*name;
	char		 qs[1024], path[512];
	size_t		 np, i, len;

	whole = invert(p, "t=1~inv", 0, 1);
	b = invert(p, "t=1~inv", BOUND, 0);
	if (whole == NULL || b == NULL) {
		ok(0, "inverted, whole and bounded");
		goto done;
	}
	ok(whole->nnodes > 10 * BOUND, "the whole inversion: %u nodes",
	    whole->nnodes);
	pseudo = pseudo_of(p, b);
	ok(pseudo != PROFILE_NONE && b->nnodes < BOUND + 2 * NFUNCS * 3 +
	    NLINES, "bounded: %u nodes, a pseudo-function", b->nnodes);
	if (pseudo == PROFILE_NONE)
		goto done;
	ok(check_exact(b, whole, pseudo, &npseudo) == 0 && npseudo > 0,
	    "every node made is the whole one's, %u merged", npseudo);
	ok(b->metrics[0].total[PROFILE_ROOT] ==
	    whole->metrics[0].total[PROFILE_ROOT], "the total kept");
	name = profile_func_name(b, pseudo);
	ok(strncmp(name, "[more callers: ", 15) == 0 &&
	    strstr(name, " stacks merged]") != NULL, "named with its count: %s",
	    name);

	/* A deep node of the whole tree, asked for: its real callers. */
	for (n = whole->nnodes - 1, deep = PROFILE_NONE; n > 0; n--) {
		if (whole->node_depth[n] >= 6 &&
		    whole->node_first_child[n] != PROFILE_NONE &&
		    (deep == PROFILE_NONE || whole->metrics[0].total[n] >
		    whole->metrics[0].total[deep]))
			deep = n;
	}
	if (deep == PROFILE_NONE) {
		ok(0, "a deep node with callers");
		goto done;
	}
	np = path_ids(whole, deep, ids, 64);
	for (i = 0, len = 0; i < np; i++)
		len += (size_t)snprintf(path + len, sizeof path - len, "%s%u",
		    i ? "," : "", ids[i]);
	n = node_in(b, whole, deep);
	ok(n == PROFILE_NONE || !same_children(b, n, whole, deep),
	    "the deep node %s: not expanded unasked", path);
	profile_free(b);
	snprintf(qs, sizeof qs, "t=1~inv&open=1~%s", path);
	b = invert(p, qs, BOUND, 0);
	ok(b != NULL && (n = node_in(b, whole, deep)) != PROFILE_NONE &&
	    same_children(b, n, whole, deep) &&
	    check_exact(b, whole, pseudo, &npseudo) == 0,
	    "open=%s: its callers, exact", path);
	profile_free(b);
	snprintf(qs, sizeof qs, "t=1~inv&path=%s", path);
	b = invert(p, qs, BOUND, 0);
	ok(b != NULL && (n = node_in(b, whole, deep)) != PROFILE_NONE &&
	    same_children(b, n, whole, deep),
	    "path=%s: its callers, exact", path);
	profile_free(b);
	/* A zoom on the flame graph: a focus pushed after the inversion. */
	snprintf(qs, sizeof qs, "t=1~inv~fs-%s", path);
	b = invert(p, qs, BOUND, 0);
	profile_free(whole);
	whole = invert(p, qs, 0, 1);
	ok(b != NULL && whole != NULL && b->nnodes == whole->nnodes &&
	    check_exact(b, whole, PROFILE_NONE, &npseudo) == 0,
	    "t=1~inv~fs-%s: the whole focused tree (%u nodes)", path,
	    whole ? whole->nnodes : 0);
	profile_free(b);
	/* An export is the whole profile, whatever the bound. */
	b = invert(p, "t=1~inv", BOUND, 1);
	profile_free(whole);
	whole = invert(p, "t=1~inv", 0, 1);
	ok(b != NULL && whole != NULL && b->nnodes == whole->nnodes &&
	    b->nfuncs == p->nfuncs, "exact: never bounded");
done:
	profile_free(whole);
	profile_free(b);
}

int
main(void)
{
	struct profile	*p;
	char		*text;

	if ((text = gen_folded()) == NULL || (p = tt_load(text)) == NULL) {
		ok(0, "a generated profile");
		return (tap_done());
	}
	test_bounded(p);
	profile_free(p);
	free(text);
	return (tap_done());
}
