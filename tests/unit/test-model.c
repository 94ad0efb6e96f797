/*
 * The profile model against worked examples: the Firefox call tree
 * (tests/data/firefox.folded), the Tezos f/g/h trace (tests/data/
 * tezos.trace), and recursion that
 * must never be counted twice.
 */

#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "profile.h"
#include "profile-index.h"
#include "profile-builder.h"
#include "reader.h"
#include "tap.h"

static struct profile *
load(const char *text, const char *format)
{
	struct input	*in = input_memory(text, strlen(text));
	struct profile	*p;
	char		*cause = NULL;

	p = reader_load_input(in, format, NULL, &cause);
	if (p == NULL)
		diag("load failed: %s", cause ? cause : "?");
	free(cause);
	input_free(in);
	return (p);
}

/* The node at a path of names ("A", "B", ...; NULL-terminated). */
static uint32_t
node_at(const struct profile *p, ...)
{
	va_list		 ap;
	const char	*name;
	uint32_t	 n = PROFILE_ROOT, c;

	va_start(ap, p);
	while ((name = va_arg(ap, const char *)) != NULL) {
		for (c = p->node_first_child[n]; c != PROFILE_NONE;
		    c = p->node_next_sibling[c]) {
			if (strcmp(profile_func_name(p, p->node_func[c]),
			    name) == 0)
				break;
		}
		if ((n = c) == PROFILE_NONE)
			break;
	}
	va_end(ap);
	return (n);
}

#define RS(p, n, want_run, want_self, what) do {				\
	uint32_t n_ = (n);						\
	ok(n_ != PROFILE_NONE, "%s exists", what);			\
	if (n_ != PROFILE_NONE) {					\
		is_int((p)->metrics[0].total[n_], want_run, "%s running", what); \
		is_int((p)->metrics[0].self[n_], want_self, "%s self", what); \
	}								\
} while (0)

static void
test_firefox(void)
{
	struct profile	*p;

	p = load("A;B;C;D;E 1\nA;B;C;F;G 1\nA;B;H;F 1\n", NULL);
	ok(p != NULL, "firefox example loads");
	if (p == NULL)
		return;
	is_str(p->format, "folded", "detected as folded");
	RS(p, node_at(p, "A", NULL), 3, 0, "A");
	RS(p, node_at(p, "A", "B", NULL), 3, 0, "A>B");
	RS(p, node_at(p, "A", "B", "C", NULL), 2, 0, "A>B>C");
	RS(p, node_at(p, "A", "B", "C", "D", NULL), 1, 0, "A>B>C>D");
	RS(p, node_at(p, "A", "B", "C", "D", "E", NULL), 1, 1, "A>B>C>D>E");
	RS(p, node_at(p, "A", "B", "C", "F", NULL), 1, 0, "A>B>C>F");
	RS(p, node_at(p, "A", "B", "C", "F", "G", NULL), 1, 1, "A>B>C>F>G");
	RS(p, node_at(p, "A", "B", "H", NULL), 1, 0, "A>B>H");
	RS(p, node_at(p, "A", "B", "H", "F", NULL), 1, 1, "A>B>H>F");
	is_int(p->nnodes, 10, "nine call nodes plus the root");
	is_int(p->metrics[0].sum, 3, "three samples");
	/* F is merged over its two contexts: self 1, total 2. */
	is_int(p->metrics[0].func_self[profile_func_find(p, "F")], 1,
	    "F self over all contexts");
	is_int(p->metrics[0].func_total[profile_func_find(p, "F")], 2,
	    "F total over all contexts");
	profile_free(p);
}

static void
test_tezos(void)
{
	struct profile	*p;
	uint32_t	 f;

	p = load("# deepq-trace 1\n"
	    "call 0 f\ncall 10 g\ncall 30 h\n"
	    "return 60 h\nreturn 100 g\nreturn 160 f\n", NULL);
	ok(p != NULL, "tezos example loads");
	if (p == NULL)
		return;
	is_str(p->format, "trace", "detected as trace");
	is_str(p->metrics[0].name, "ticks", "metric is ticks");
	RS(p, node_at(p, "f", NULL), 160, 70, "f");
	RS(p, node_at(p, "f", "g", NULL), 90, 60, "f>g");
	RS(p, node_at(p, "f", "g", "h", NULL), 30, 30, "f>g>h");
	f = profile_func_find(p, "f");
	is_int(p->metrics[0].func_total[f], 160, "f inclusive 160");
	/* The spans in time order: f 10, g 20, h 30, g 40, f 60. */
	is_int(p->nsamples, 5, "five self spans kept in time order");
	if (p->nsamples == 5) {
		is_int(profile_sample_weight(p, 0), 10, "first span 10 ticks of f");
		is_int(profile_sample_weight(p, 2), 30, "third span 30 ticks of h");
		is_int(profile_sample_weight(p, 4), 60, "last span 60 ticks of f");
	}
	profile_free(p);

	/* Calls still open at the end close at the last tick. */
	p = load("# deepq-trace 1\ncall 0 f\ncall 5 g\n", NULL);
	ok(p != NULL, "unclosed trace loads");
	if (p != NULL) {
		RS(p, node_at(p, "f", NULL), 5, 5, "unclosed f");
		profile_free(p);
	}
}

static void
test_recursion(void)
{
	struct profile	*p;
	uint32_t	 a, b;

	p = load("a;b;a;b 10\n", NULL);
	ok(p != NULL, "recursive stack loads");
	if (p == NULL)
		return;
	a = profile_func_find(p, "a");
	b = profile_func_find(p, "b");
	is_int(p->metrics[0].func_total[a], 10, "total(a) = 10, not 20");
	is_int(p->metrics[0].func_total[b], 10, "total(b) = 10, not 20");
	is_int(p->metrics[0].func_self[b], 10, "self(b) = 10");
	is_int(p->metrics[0].func_self[a], 0, "self(a) = 0");
	profile_free(p);

	p = load("main;f;g;f;g;f 3\nmain;f 2\nmain;g;f 1\n", NULL);
	ok(p != NULL, "mutual recursion loads");
	if (p == NULL)
		return;
	is_int(p->metrics[0].func_total[profile_func_find(p, "f")], 6,
	    "total(f) counts each sample once");
	is_int(p->metrics[0].func_total[profile_func_find(p, "g")], 4,
	    "total(g) counts each sample once");
	is_int(p->metrics[0].func_total[profile_func_find(p, "main")], 6,
	    "total(main) = 6");
	profile_free(p);
}

static void
test_details(void)
{
	struct profile	*p;

	p = load("# comment\n\r\na;b 1\r\na;b 2   \n\nlibc.so`malloc;x 4\n",
	    NULL);
	ok(p != NULL, "comments, CRLF, blank lines, trailing spaces");
	if (p != NULL) {
		is_int(p->metrics[0].sum, 7, "sum of counts");
		RS(p, node_at(p, "a", "b", NULL), 3, 3, "duplicate stacks merge");
		is_str(profile_func_module(p, profile_func_find(p, "malloc")),
		    "libc.so", "module`function gives a module");
		profile_free(p);
	}
	p = load("a;b 1 5\na;c 2 0\n", NULL);
	ok(p != NULL, "differential lines");
	if (p != NULL) {
		is_int(p->nmetrics, 2, "two metrics");
		is_int(p->metrics[0].sum, 5, "samples from the second count");
		is_int(p->metrics[1].sum, 3, "base from the first count");
		profile_free(p);
	}
	p = load("a;b 1.5\na 2.4\n", NULL);
	ok(p != NULL, "decimal counts");
	if (p != NULL) {
		is_int(p->metrics[0].sum, 4, "decimal counts rounded");
		profile_free(p);
	}
	p = load("a;b\xff\xfe;c<x> 1\n", NULL);
	ok(p != NULL, "invalid UTF-8 loads");
	if (p != NULL) {
		is_str(profile_func_name(p, 2), "b\xef\xbf\xbd\xef\xbf\xbd",
		    "invalid bytes become U+FFFD");
		profile_free(p);
	}
}

/* The oracle of profile_index_children: heaviest first as doubles, then by number. */
static int
children_cmp(const void *a, const void *b, void *arg)
{
	const int64_t	*total = arg;
	uint32_t	 x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	double		 tx = (double)total[x], ty = (double)total[y];

	if (tx != ty)
		return (tx > ty ? -1 : 1);
	return (x < y ? -1 : x > y);
}

/*
 * profile_index_children against a qsort of every node's children: groups of
 * 0, 1, a few (insertion sort) and hundreds (radix sort) children, ties,
 * and totals above 2^53 that are equal as doubles (they tie, by number).
 */
static void
test_children(void)
{
	struct profile	*p;
	struct profile_index *ix;
	const uint32_t	*got;
	uint32_t	 want[700], n, c, k;
	size_t		 len = 0, cap = 1 << 16, count, bad = 0, i;
	char		*text = malloc(cap);
	unsigned	 seed = 12345;

	if (text == NULL)
		return;
	/* 600 children of R, a few of R;c1, one huge pair that ties. */
	for (i = 0; i < 600; i++) {
		seed = seed * 1103515245 + 12345;
		len += snprintf(text + len, cap - len, "R;c%zu %u\n", i,
		    (seed >> 16) % 50 + 1);
	}
	for (i = 0; i < 9; i++)
		len += snprintf(text + len, cap - len, "R;c1;d%zu %zu\n", i,
		    i % 3 + 1);
	len += snprintf(text + len, cap - len,
	    "R;big;y 9007199254740992\nR;big;x 9007199254740993\n"
	    "R;big;z 9007199254740992\n");
	p = load(text, "folded");
	free(text);
	ok(p != NULL, "children: loads");
	if (p == NULL || (ix = profile_index_create(p)) == NULL)
		return;
	for (n = 0; n < p->nnodes; n++) {
		k = 0;
		for (c = p->node_first_child[n]; c != PROFILE_NONE &&
		    k < 700; c = p->node_next_sibling[c])
			want[k++] = c;
		qsort_r(want, k, sizeof *want, children_cmp,
		    p->metrics[0].total);
		got = profile_index_children(ix, 0, n, &count);
		if (got == NULL || count != k ||
		    (k > 0 && memcmp(got, want, k * sizeof *want) != 0))
			bad++;
	}
	is_int(bad, 0, "children: every node's in qsort's order (%u nodes)",
	    p->nnodes);
	n = node_at(p, "R", "big", NULL);
	got = profile_index_children(ix, 0, n, &count);
	/* x is the heavier as integers, but not as doubles: y, then x. */
	ok(count == 3 && got[0] == node_at(p, "R", "big", "y", NULL) &&
	    got[1] == node_at(p, "R", "big", "x", NULL) &&
	    got[2] == node_at(p, "R", "big", "z", NULL),
	    "children: totals equal as doubles tie, by number");
	profile_index_free(ix);
	profile_free(p);
}

/*
 * profile_index_node_child() (and profile_node_child(), the walk)
 * against the sibling lists: 400 parents of 800
 * children each (more pairs than its index keeps, so it starts again on
 * the way), every function asked for twice, present or not.
 */
static void
test_node_child(void)
{
	struct profile	*p;
	struct profile_index *ix;
	uint32_t	*want, n, c, f, top;
	size_t		 len = 0, cap = 8 << 20, bad = 0, asked = 0, i, j;
	char		*text = malloc(cap);
	int		 pass;

	if (text == NULL)
		return;
	for (i = 0; i < 400; i++)
		for (j = 0; j < 800; j++)
			len += snprintf(text + len, cap - len, "p%zu;c%zu 1\n",
			    i, (j * 7 + i) % 800);
	p = load(text, "folded");
	free(text);
	ok(p != NULL, "node child: loads");
	if (p == NULL || (ix = profile_index_create(p)) == NULL)
		return;
	ok(p->nnodes > 320000, "node child: %u nodes", p->nnodes);
	if ((want = malloc(p->nfuncs * sizeof *want)) == NULL) {
		profile_index_free(ix);
		profile_free(p);
		return;
	}
	top = p->node_first_child[PROFILE_ROOT];
	for (pass = 0; pass < 2; pass++) {
		for (n = top; n != PROFILE_NONE; n = p->node_next_sibling[n]) {
			for (f = 0; f < p->nfuncs; f++)
				want[f] = PROFILE_NONE;
			for (c = p->node_first_child[n]; c != PROFILE_NONE;
			    c = p->node_next_sibling[c])
				if (want[p->node_func[c]] == PROFILE_NONE)
					want[p->node_func[c]] = c;
			for (f = 0; f < p->nfuncs; f++, asked++)
				if (profile_index_node_child(ix, n, f) !=
				    want[f] || (pass == 0 &&
				    profile_node_child(p, n, f) != want[f]))
					bad++;
		}
	}
	is_int(bad, 0, "node child: %zu lookups agree with the lists", asked);
	ok(profile_index_node_child(ix, p->nnodes, 0) == PROFILE_NONE &&
	    profile_node_child(p, p->nnodes, 0) == PROFILE_NONE,
	    "node child: no node, no child");
	profile_index_free(ix);
	free(want);
	profile_free(p);
}

/*
 * Each function's total as its definition says, the slow way: the sum of
 * the totals of its nodes that have no ancestor of the same function.
 */
static int
func_totals_hold(const struct profile *p)
{
	int64_t		*want;
	uint32_t	 n, a, f;
	int		 same = 1;

	if ((want = calloc(p->nfuncs, sizeof *want)) == NULL)
		return (0);
	for (n = 0; n < p->nnodes; n++) {
		f = p->node_func[n];
		for (a = n; a != PROFILE_ROOT; ) {
			a = p->node_parent[a];
			if (p->node_func[a] == f)
				break;
		}
		if (n == PROFILE_ROOT || p->node_func[a] != f)
			want[f] += p->metrics[0].total[n];
	}
	for (f = 0; f < p->nfuncs; f++)
		if (want[f] != p->metrics[0].func_total[f])
			same = 0;
	free(want);
	return (same);
}

/*
 * The per-function totals come from a pass in node order, which falls
 * back to a depth-first walk when the nodes were made far from path
 * order: both give the definition's figures.
 */
static void
test_func_totals_orders(void)
{
	struct profile_builder	*b;
	struct profile		*p;
	uint32_t		 fa, fb, fr, x, y;
	char			*cause = NULL;
	int			 i;

	/* Sorted lines: node order is path order. */
	p = load("m;a;b;a;c 5\nm;a;b;d 3\nm;c;a;b 2\nm;c;c;c 7\n", NULL);
	ok(p != NULL && func_totals_hold(p), "totals in path order");
	profile_free(p);
	/* Shuffled lines: parents off the stack, climbed to. */
	p = load("m;c;c;c 7\nm;a;b;d 3\nm;c;a;b 2\nm;a;b;a;c 5\n"
	    "m;a;b;a;c;a;b 1\nm;c;a 4\n", NULL);
	ok(p != NULL && func_totals_hold(p), "totals in shuffled order");
	profile_free(p);

	/* Two recursive chains made a node each in turn: the fallback. */
	if ((b = profile_builder_create("test")) == NULL) {
		ok(0, "builder");
		return;
	}
	(void)profile_builder_metric(b, "samples", "count");
	fa = profile_builder_func(b, "a", 1, "", 0);
	fb = profile_builder_func(b, "b", 1, "", 0);
	fr = profile_builder_func(b, "r", 1, "", 0);
	x = profile_builder_child(b, PROFILE_ROOT, fa);
	y = profile_builder_child(b, PROFILE_ROOT, fb);
	for (i = 0; i < 3000; i++) {
		x = profile_builder_child(b, x, i % 7 ? fr : fa);
		y = profile_builder_child(b, y, i % 5 ? fr : fb);
		(void)profile_builder_add(b, x, 0, 1);
		(void)profile_builder_add(b, y, 0, 2);
	}
	p = profile_builder_finish(b, &cause);
	ok(p != NULL, "interleaved chains build%s%s", cause ? ": " : "",
	    cause ? cause : "");
	free(cause);
	if (p == NULL)
		return;
	ok(func_totals_hold(p), "totals of interleaved chains (fallback)");
	/* r first comes at i = 1 in both: every sample below, once. */
	is_int(p->metrics[0].func_total[fr], 2999 * 3,
	    "r counted once per sample");
	profile_free(p);
}

int
main(void)
{
	test_func_totals_orders();
	test_children();
	test_node_child();
	test_firefox();
	test_tezos();
	test_recursion();
	test_details();
	return (tap_done());
}
