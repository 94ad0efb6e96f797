/*
 * The tree rewrite (transform-apply.c) against hand-drawn results on the
 * Firefox profiler's example tree: merge C, merge E, merge subtree C,
 * drop C and focus C each give exactly the tree drawn, every node with
 * its running and self time, and nothing else. Then the other
 * transforms (GHC's recursion rule, inversion, modules), the filters,
 * and the errors a transform meets only against a profile.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "profile.h"
#include "query.h"
#include "tap.h"
#include "transform.h"
#include "transform-test.h"

/*
 * The folded reader numbers functions as it meets them: A=1, B=2, C=3,
 * D=4, E=5, F=6, G=7, H=8; the queries below use those ids.
 */
#define FIREFOX	"A;B;C;D;E 1\nA;B;C;F;G 1\nA;B;H;F 1\n"
#define RECURSIVE "A;B;C;B;D 4\nA;B;C 1\nA;B;B;B;E 2\n"
#define MODULES	"main;libc`a;libc`b;cb 3\nmain;libc`a 1\n"

#define MAX_NODES	10
#define BUDGET_MESSAGE	"query too expensive (over 39 node visits)"

static const struct apply_case {
	const char	*what;
	const char	*profile;
	const char	*query;
	struct {
		const char	*path;
		int64_t		 run, self;
	}		 nodes[MAX_NODES];	/* each must be there */
	uint32_t	 nnodes;	/* with the root; 0: not checked */
	int64_t		 total;		/* -1: not checked */
	const char	*gone;		/* a path that must not be there */
} cases[] = {
	/* Merge C: D and F are re-assigned to B; no self time changes. */
	{ "merge C", FIREFOX, "t=1~mcn-1,2,3", { { "A", 3, 0 },
	    { "A;B", 3, 0 }, { "A;B;D", 1, 0 }, { "A;B;D;E", 1, 1 },
	    { "A;B;F", 1, 0 }, { "A;B;F;G", 1, 1 }, { "A;B;H", 1, 0 },
	    { "A;B;H;F", 1, 1 } }, 9, 3, "A;B;C" },
	/* Merge E: a leaf; its self time goes to D. */
	{ "merge E", FIREFOX, "t=1~mcn-1,2,3,4,5", { { "A", 3, 0 },
	    { "A;B", 3, 0 }, { "A;B;C", 2, 0 }, { "A;B;C;D", 1, 1 },
	    { "A;B;C;F", 1, 0 }, { "A;B;C;F;G", 1, 1 }, { "A;B;H", 1, 0 },
	    { "A;B;H;F", 1, 1 } }, 9, 3, "A;B;C;D;E" },
	/* Merge subtree C: B gains C's 2 ms of self time. */
	{ "merge subtree C", FIREFOX, "t=1~ms-1,2,3", { { "A", 3, 0 },
	    { "A;B", 3, 2 }, { "A;B;H", 1, 0 }, { "A;B;H;F", 1, 1 } }, 5, 3,
	    "A;B;C" },
	/* Drop C: the 2 samples through C are removed; total 3 -> 1. */
	{ "drop C", FIREFOX, "t=1~df-3", { { "A", 1, 0 }, { "A;B", 1, 0 },
	    { "A;B;H", 1, 0 }, { "A;B;H;F", 1, 1 } }, 5, 1, "A;B;C" },
	/* Focus on subtree C: C is the root. */
	{ "focus C", FIREFOX, "t=1~fs-1,2,3", { { "C", 2, 0 },
	    { "C;D", 1, 0 }, { "C;D;E", 1, 1 }, { "C;F", 1, 0 },
	    { "C;F;G", 1, 1 } }, 6, 2, "A" },
	/* Focus on function C gives the same tree here (one call site). */
	{ "focus function C", FIREFOX, "t=1~ff-3", { { "C", 2, 0 },
	    { "C;D;E", 1, 1 }, { "C;F;G", 1, 1 } }, 6, 2, "A" },
	/* Stacked: merge C, then focus on B's F (a path after the merge). */
	{ "merge C then focus F", FIREFOX, "t=1~mcn-1,2,3~fs-1,2,6",
	    { { "F", 1, 0 }, { "F;G", 1, 1 } }, 3, 1, NULL },
	/* Merge function F everywhere: G under C; F's self goes to H. */
	{ "merge function F", FIREFOX, "t=1~mf-6", { { "A;B;C", 2, 0 },
	    { "A;B;C;G", 1, 1 }, { "A;B;C;D;E", 1, 1 }, { "A;B;H", 1, 1 } },
	    8, 3, "A;B;H;F" },
	/* Collapse function subtree C: C:2,2 is a leaf. */
	{ "collapse C", FIREFOX, "t=1~cfs-3", { { "A;B;C", 2, 2 },
	    { "A;B;H;F", 1, 1 } }, 6, 3, "A;B;C;D" },
	/* Invert: roots are the functions with self time. */
	{ "invert", FIREFOX, "t=1~inv", { { "E", 1, 0 },
	    { "E;D;C;B;A", 1, 1 }, { "F", 1, 0 }, { "F;H;B;A", 1, 1 },
	    { "G;F;C;B;A", 1, 1 } }, 0, 3, "A" },
	{ "invert twice", FIREFOX, "t=1~inv~inv", { { "A;B;C;D;E", 1, 1 },
	    { "A;B;H;F", 1, 1 } }, 10, 3, "E" },
	/* GHC's rule: A->B->C->B->D becomes A->B->D. */
	{ "rec B", RECURSIVE, "t=1~rec-2", { { "A;B;D", 4, 4 },
	    { "A;B;C", 1, 1 }, { "A;B;E", 2, 2 }, { "A;B", 7, 0 } }, 6, 7,
	    "A;B;C;B" },
	{ "rec (all)", RECURSIVE, "t=1~rec", { { "A;B;D", 4, 4 } }, 6, 7,
	    "A;B;B" },
	{ "drec B", RECURSIVE, "t=1~drec-2", { { "A;B;C;B;D", 4, 4 },
	    { "A;B;E", 2, 2 } }, 0, 7, "A;B;B" },
	/* DTrace-style "module`func" frames give functions a module. */
	{ "collapse module libc", MODULES, "t=1~cm-2", { { "main;libc", 4, 1 },
	    { "main;libc;cb", 3, 3 } }, 4, 4, "main;a" },
	{ "focus=D|H", FIREFOX, "focus=^[DH]$", { { "A;B;C;D;E", 1, 1 },
	    { "A;B;H;F", 1, 1 } }, 0, 2, "A;B;C;F" },
	{ "ignore=G", FIREFOX, "ignore=^G$", { { "A;B;C;D;E", 1, 1 } }, 0, 2,
	    "A;B;C;F" },
	{ "hide=C|F", FIREFOX, "hide=^[CF]$", { { "A;B;D;E", 1, 1 },
	    { "A;B;G", 1, 1 }, { "A;B;H", 1, 1 } }, 0, 3, "A;B;C" },
	{ "show=A|B|F", FIREFOX, "show=^[ABF]$", { { "A;B", 3, 1 },
	    { "A;B;F", 2, 2 } }, 4, 3, "A;B;H" },
	/* Clean's pruning: nodes under 2 ticks are charged to the caller. */
	{ "min_ticks=2", FIREFOX, "min_ticks=2", { { "A;B", 3, 1 },
	    { "A;B;C", 2, 2 } }, 4, 3, "A;B;H" },
	{ "exclude=C,H", FIREFOX, "exclude=C,H", { { "A;B", 3, 3 } }, 3, 3,
	    "A;B;C" },
	/* Filters first, then t=: paths refer to the filtered tree. */
	{ "hide then focus D", FIREFOX, "hide=^C$&t=1~fs-1,2,4",
	    { { "D;E", 1, 1 } }, 3, 1, NULL },
};

/* Apply the filters and t= of a query string; NULL with *status. */
static struct profile *
apply(const struct profile *p, const char *qs, int *status)
{
	struct transform_stack	*s;
	struct profile		*out;
	char			*cause = NULL;
	int			 st = 0;

	if ((s = tt_stack(qs, &st, 1)) == NULL) {
		*status = st;
		return (NULL);
	}
	out = transform_apply(p, s, NULL, &st, &cause);
	*status = out ? 200 : st;
	if (out == NULL && st != 400 && st != 404)
		diag("%s: %s", qs, cause ? cause : "?");
	free(cause);
	transform_stack_free(s);
	return (out);
}

static void
test_cases(void)
{
	const struct apply_case	*c;
	struct profile		*p, *t;
	uint32_t		 n;
	size_t			 i, k;
	int			 st;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		c = &cases[i];
		if ((p = tt_load(c->profile)) == NULL)
			continue;
		if ((t = apply(p, c->query, &st)) == NULL) {
			ok(0, "%s applies (%d)", c->what, st);
			profile_free(p);
			continue;
		}
		for (k = 0; k < MAX_NODES && c->nodes[k].path != NULL; k++) {
			n = walk_node(t, c->nodes[k].path);
			ok(n != PROFILE_NONE, "%s: %s exists", c->what,
			    c->nodes[k].path);
			if (n == PROFILE_NONE)
				continue;
			is_int(t->metrics[0].total[n], c->nodes[k].run,
			    "%s: %s running %lld", c->what, c->nodes[k].path,
			    (long long)c->nodes[k].run);
			is_int(t->metrics[0].self[n], c->nodes[k].self,
			    "%s: %s self %lld", c->what, c->nodes[k].path,
			    (long long)c->nodes[k].self);
		}
		if (c->nnodes != 0)
			is_int(t->nnodes, c->nnodes, "%s: %u nodes and the "
			    "root", c->what, c->nnodes - 1);
		if (c->total != -1)
			is_int(t->metrics[0].sum, c->total, "%s: total %lld",
			    c->what, (long long)c->total);
		if (c->gone != NULL)
			ok(walk_node(t, c->gone) == PROFILE_NONE,
			    "%s: %s is gone", c->what, c->gone);
		profile_free(t);
		profile_free(p);
	}
}

/* What the table cannot say. */
static void
test_details(void)
{
	struct profile	*p, *t;
	uint32_t	 n;
	int		 st;

	if ((p = tt_load(FIREFOX)) == NULL)
		return;
	ok(profile_func_find(p, "A") == 1 && profile_func_find(p, "H") == 8,
	    "the ids the table uses");
	if ((t = apply(p, "t=1~mf-6", &st)) != NULL) {
		is_int(t->metrics[0].func_total[profile_func_find(t, "F")], 0,
		    "merge function F: F has no time left");
		profile_free(t);
	}
	if ((t = apply(p, "t=1~cfs-3", &st)) != NULL) {
		ok(t->node_first_child[walk_node(t, "A;B;C")] == PROFILE_NONE,
		    "collapse C: C is a leaf");
		profile_free(t);
	}
	if ((t = apply(p, "t=1~inv", &st)) != NULL) {
		is_int(t->metrics[0].func_total[profile_func_find(t, "B")], 3,
		    "invert: B's total counted once per sample");
		profile_free(t);
	}
	profile_free(p);

	if ((p = tt_load(MODULES)) == NULL)
		return;
	ok(profile_func_find(p, "a") == 2, "a is function 2");
	if ((t = apply(p, "t=1~cm-2", &st)) != NULL) {
		n = walk_node(t, "main;libc");
		ok(n != PROFILE_NONE && strcmp(profile_func_module(t,
		    t->node_func[n]), "libc") == 0,
		    "the pseudo-function is in module libc");
		profile_free(t);
	}
	profile_free(p);
}

/* Errors a well-formed stack meets against a profile. */
static void
test_errors(void)
{
	struct profile	*p;
	int		 st;

	if ((p = tt_load(FIREFOX)) == NULL)
		return;
	ok(apply(p, "t=1~mf-999", &st) == NULL && st == 400,
	    "an unknown function is a 400");
	ok(apply(p, "t=1~fs-1,9", &st) == NULL && st == 404,
	    "a path to no node is a 404");
	ok(apply(p, "t=1~mcn-1~mcn-1", &st) == NULL && st == 404,
	    "a path the stack has merged away is a 404");
	ok(apply(p, "min_words=5", &st) == NULL && st == 400,
	    "min_words without a words metric is a 400");
	ok(apply(p, "exclude=nope", &st) == NULL && st == 400,
	    "exclude of an unknown function is a 400");
	profile_free(p);
	if ((p = tt_load(MODULES)) == NULL)
		return;
	ok(apply(p, "t=1~cm-1", &st) == NULL && st == 400,
	    "collapsing the module of a function without one is a 400");
	profile_free(p);
}

/* A filter's matching is charged to the query's budget. */
static void
test_budget(void)
{
	struct transform_stack	*s;
	struct profile		*p, *t;
	struct cost		 c;
	char			*cause = NULL;
	int			 st = 0;

	if ((p = tt_load(FIREFOX)) == NULL)
		return;
	if ((s = tt_stack("hide=^C$", &st, 0)) == NULL) {
		profile_free(p);
		return;
	}
	/* 3 visits per node and one per function pass; the matches do not. */
	cost_init(&c, p->nnodes * 3 + p->nfuncs, 0);
	t = transform_apply(p, s, &c, &st, &cause);
	ok(t == NULL && st == 503 && cause != NULL && strcmp(cause,
	    BUDGET_MESSAGE) == 0, "a budget the matches overrun: 503, %s",
	    cause ? cause : "?");
	profile_free(t);
	free(cause);
	transform_stack_free(s);
	profile_free(p);
}

int
main(void)
{
	test_cases();
	test_details();
	test_errors();
	test_budget();
	return (tap_done());
}
