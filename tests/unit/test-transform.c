/*
 * Transforms against hand-drawn results on the Firefox example tree
 * (tests/data/firefox.folded): merge C, merge E, merge subtree
 * C, hide C and focus C each give exactly the tree drawn, every node with
 * its running and self time, and nothing else. Then the other transforms
 * (GHC's recursion rule, inversion, modules), the filters,
 * path mapping, the t= syntax and its errors.
 */

#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "answer.h"
#include "answer-query.h"
#include "input.h"
#include "profile.h"
#include "query.h"
#include "reader.h"
#include "tap.h"
#include "transform.h"

#define FIREFOX	"A;B;C;D;E 1\nA;B;C;F;G 1\nA;B;H;F 1\n"

static struct profile *
load(const char *text)
{
	struct input	*in = input_memory(text, strlen(text));
	struct profile	*p;
	char		*cause = NULL;

	p = reader_load_input(in, "folded", NULL, &cause);
	if (p == NULL)
		diag("load failed: %s", cause ? cause : "?");
	free(cause);
	input_free(in);
	return (p);
}

/* "A,B,C" (names) -> "1,2,3" (ids), in a static buffer. */
static const char *
ids(const struct profile *p, const char *names)
{
	static char	 buf[1024];
	char		 copy[256], *tok, *save = NULL;
	size_t		 len = 0;

	snprintf(copy, sizeof copy, "%s", names);
	buf[0] = '\0';
	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save))
		len += snprintf(buf + len, sizeof buf - len, "%s%u",
		    len ? "," : "", profile_func_find(p, tok));
	return (buf);
}

/* Apply the filters and t= of a query string; NULL with a diagnostic. */
static struct profile *
apply(const struct profile *p, const char *qs, int *status)
{
	struct transform_stack	*s;
	struct query		*q;
	struct profile		*out;
	char			*cause = NULL;
	int			 st = 0;

	if ((q = query_parse(qs, &st, &cause)) == NULL) {
		diag("query %s: %s", qs, cause);
		free(cause);
		*status = st;
		return (NULL);
	}
	if ((s = transform_parse(q, &st, &cause)) == NULL) {
		*status = st;
		free(cause);
		query_free(q);
		return (NULL);
	}
	out = transform_apply(p, s, NULL, &st, &cause);
	*status = out ? 200 : st;
	if (out == NULL && st != 400 && st != 404)
		diag("%s: %s", qs, cause ? cause : "?");
	free(cause);
	transform_stack_free(s);
	query_free(q);
	return (out);
}

/* The node at a ';'-separated path of names, or PROFILE_NONE. */
static uint32_t
at(const struct profile *p, const char *names)
{
	char		 copy[256], *tok, *save = NULL;
	uint32_t	 n = PROFILE_ROOT, c;

	snprintf(copy, sizeof copy, "%s", names);
	for (tok = strtok_r(copy, ";", &save); tok != NULL && n !=
	    PROFILE_NONE; tok = strtok_r(NULL, ";", &save)) {
		for (c = p->node_first_child[n]; c != PROFILE_NONE;
		    c = p->node_next_sibling[c]) {
			if (strcmp(profile_func_name(p, p->node_func[c]),
			    tok) == 0)
				break;
		}
		n = c;
	}
	return (n);
}

/* Node at path has running time run and self time self. */
static void
node_is(const struct profile *p, const char *path, int64_t run, int64_t self,
    const char *what)
{
	uint32_t	 n = at(p, path);

	ok(n != PROFILE_NONE, "%s: %s exists", what, path);
	if (n == PROFILE_NONE)
		return;
	is_int(p->metrics[0].total[n], run, "%s: %s running %lld", what,
	    path, (long long)run);
	is_int(p->metrics[0].self[n], self, "%s: %s self %lld", what, path,
	    (long long)self);
}

static void
test_seed_drawings(void)
{
	struct profile	*p, *t;
	char		 qs[256];
	int		 st;

	if ((p = load(FIREFOX)) == NULL)
		return;

	/* Merge C: D and F are re-assigned to B; no self time changes. */
	snprintf(qs, sizeof qs, "t=1~mcn-%s", ids(p, "A,B,C"));
	if ((t = apply(p, qs, &st)) != NULL) {
		node_is(t, "A", 3, 0, "merge C");
		node_is(t, "A;B", 3, 0, "merge C");
		node_is(t, "A;B;D", 1, 0, "merge C");
		node_is(t, "A;B;D;E", 1, 1, "merge C");
		node_is(t, "A;B;F", 1, 0, "merge C");
		node_is(t, "A;B;F;G", 1, 1, "merge C");
		node_is(t, "A;B;H", 1, 0, "merge C");
		node_is(t, "A;B;H;F", 1, 1, "merge C");
		is_int(t->nnodes, 9, "merge C: 8 nodes and the root");
		is_int(t->metrics[0].sum, 3, "merge C: total unchanged");
		ok(at(t, "A;B;C") == PROFILE_NONE, "merge C: C is gone");
		profile_free(t);
	} else
		ok(0, "merge C applies");

	/* Merge E: a leaf; its self time goes to D. */
	snprintf(qs, sizeof qs, "t=1~mcn-%s", ids(p, "A,B,C,D,E"));
	if ((t = apply(p, qs, &st)) != NULL) {
		node_is(t, "A", 3, 0, "merge E");
		node_is(t, "A;B", 3, 0, "merge E");
		node_is(t, "A;B;C", 2, 0, "merge E");
		node_is(t, "A;B;C;D", 1, 1, "merge E");
		node_is(t, "A;B;C;F", 1, 0, "merge E");
		node_is(t, "A;B;C;F;G", 1, 1, "merge E");
		node_is(t, "A;B;H", 1, 0, "merge E");
		node_is(t, "A;B;H;F", 1, 1, "merge E");
		is_int(t->nnodes, 9, "merge E: 8 nodes and the root");
		ok(at(t, "A;B;C;D;E") == PROFILE_NONE, "merge E: E is gone");
		profile_free(t);
	} else
		ok(0, "merge E applies");

	/* Merge subtree C: B gains C's 2 ms of self time. */
	snprintf(qs, sizeof qs, "t=1~ms-%s", ids(p, "A,B,C"));
	if ((t = apply(p, qs, &st)) != NULL) {
		node_is(t, "A", 3, 0, "merge subtree C");
		node_is(t, "A;B", 3, 2, "merge subtree C");
		node_is(t, "A;B;H", 1, 0, "merge subtree C");
		node_is(t, "A;B;H;F", 1, 1, "merge subtree C");
		is_int(t->nnodes, 5, "merge subtree C: 4 nodes and the root");
		profile_free(t);
	} else
		ok(0, "merge subtree C applies");

	/* Hide C: the 2 samples through C are removed; total 3 -> 1. */
	snprintf(qs, sizeof qs, "t=1~df-%s", ids(p, "C"));
	if ((t = apply(p, qs, &st)) != NULL) {
		node_is(t, "A", 1, 0, "hide C");
		node_is(t, "A;B", 1, 0, "hide C");
		node_is(t, "A;B;H", 1, 0, "hide C");
		node_is(t, "A;B;H;F", 1, 1, "hide C");
		is_int(t->nnodes, 5, "hide C: 4 nodes and the root");
		is_int(t->metrics[0].sum, 1, "hide C: total 1");
		profile_free(t);
	} else
		ok(0, "hide C applies");

	/* Focus on subtree C: C is the root. */
	snprintf(qs, sizeof qs, "t=1~fs-%s", ids(p, "A,B,C"));
	if ((t = apply(p, qs, &st)) != NULL) {
		node_is(t, "C", 2, 0, "focus C");
		node_is(t, "C;D", 1, 0, "focus C");
		node_is(t, "C;D;E", 1, 1, "focus C");
		node_is(t, "C;F", 1, 0, "focus C");
		node_is(t, "C;F;G", 1, 1, "focus C");
		is_int(t->nnodes, 6, "focus C: 5 nodes and the root");
		is_int(t->metrics[0].sum, 2, "focus C: total 2");
		profile_free(t);
	} else
		ok(0, "focus C applies");

	/* Focus on function C gives the same tree here (one call site). */
	snprintf(qs, sizeof qs, "t=1~ff-%s", ids(p, "C"));
	if ((t = apply(p, qs, &st)) != NULL) {
		node_is(t, "C", 2, 0, "focus function C");
		node_is(t, "C;D;E", 1, 1, "focus function C");
		node_is(t, "C;F;G", 1, 1, "focus function C");
		is_int(t->nnodes, 6, "focus function C: 5 nodes and the root");
		profile_free(t);
	} else
		ok(0, "focus function C applies");

	/* Stacked: merge C, then focus on B's F (a path after the merge). */
	snprintf(qs, sizeof qs, "t=1~mcn-%s", ids(p, "A,B,C"));
	snprintf(qs + strlen(qs), sizeof qs - strlen(qs), "~fs-%s",
	    ids(p, "A,B,F"));
	if ((t = apply(p, qs, &st)) != NULL) {
		node_is(t, "F", 1, 0, "merge C then focus F");
		node_is(t, "F;G", 1, 1, "merge C then focus F");
		is_int(t->nnodes, 3, "merge C then focus F: 2 nodes");
		profile_free(t);
	} else
		ok(0, "merge C then focus F applies");
	profile_free(p);
}

static void
test_functions(void)
{
	struct profile	*p, *t;
	char		 qs[256];
	int		 st;

	if ((p = load(FIREFOX)) == NULL)
		return;

	/* Merge function F everywhere: G under C; F's self goes to H. */
	snprintf(qs, sizeof qs, "t=1~mf-%s", ids(p, "F"));
	if ((t = apply(p, qs, &st)) != NULL) {
		node_is(t, "A;B;C", 2, 0, "merge function F");
		node_is(t, "A;B;C;G", 1, 1, "merge function F");
		node_is(t, "A;B;C;D;E", 1, 1, "merge function F");
		node_is(t, "A;B;H", 1, 1, "merge function F");
		is_int(t->nnodes, 8, "merge function F: 7 nodes");
		is_int(t->metrics[0].func_total[profile_func_find(t, "F")], 0,
		    "merge function F: F has no time left");
		profile_free(t);
	}

	/* Collapse function subtree C: C:2,2 is a leaf. */
	snprintf(qs, sizeof qs, "t=1~cfs-%s", ids(p, "C"));
	if ((t = apply(p, qs, &st)) != NULL) {
		node_is(t, "A;B;C", 2, 2, "collapse C");
		ok(t->node_first_child[at(t, "A;B;C")] == PROFILE_NONE,
		    "collapse C: C is a leaf");
		node_is(t, "A;B;H;F", 1, 1, "collapse C");
		is_int(t->nnodes, 6, "collapse C: 5 nodes");
		profile_free(t);
	}

	/* Invert: roots are the functions with self time. */
	if ((t = apply(p, "t=1~inv", &st)) != NULL) {
		node_is(t, "E", 1, 0, "invert");
		node_is(t, "E;D;C;B;A", 1, 1, "invert");
		node_is(t, "F", 1, 0, "invert");
		node_is(t, "F;H;B;A", 1, 1, "invert");
		node_is(t, "G;F;C;B;A", 1, 1, "invert");
		is_int(t->metrics[0].sum, 3, "invert: total unchanged");
		is_int(t->metrics[0].func_total[profile_func_find(t, "B")], 3,
		    "invert: B's total counted once per sample");
		profile_free(t);
	}
	if ((t = apply(p, "t=1~inv~inv", &st)) != NULL) {
		node_is(t, "A;B;C;D;E", 1, 1, "invert twice");
		node_is(t, "A;B;H;F", 1, 1, "invert twice");
		is_int(t->nnodes, 10, "invert twice: the original tree");
		profile_free(t);
	}
	profile_free(p);
}

static void
test_recursion(void)
{
	struct profile	*p, *t;
	char		 qs[256];
	int		 st;

	/* Seed 002, GHC's rule: A->B->C->B->D becomes A->B->D. */
	if ((p = load("A;B;C;B;D 4\nA;B;C 1\nA;B;B;B;E 2\n")) == NULL)
		return;
	snprintf(qs, sizeof qs, "t=1~rec-%s", ids(p, "B"));
	if ((t = apply(p, qs, &st)) != NULL) {
		node_is(t, "A;B;D", 4, 4, "rec B");
		node_is(t, "A;B;C", 1, 1, "rec B: C keeps its own cost");
		node_is(t, "A;B;E", 2, 2, "rec B: direct recursion too");
		node_is(t, "A;B", 7, 0, "rec B");
		is_int(t->nnodes, 6, "rec B: 5 nodes");
		profile_free(t);
	}
	if ((t = apply(p, "t=1~rec", &st)) != NULL) {
		node_is(t, "A;B;D", 4, 4, "rec (all)");
		is_int(t->nnodes, 6, "rec (all): 5 nodes");
		profile_free(t);
	}
	snprintf(qs, sizeof qs, "t=1~drec-%s", ids(p, "B"));
	if ((t = apply(p, qs, &st)) != NULL) {
		node_is(t, "A;B;C;B;D", 4, 4, "drec B keeps indirect");
		node_is(t, "A;B;E", 2, 2, "drec B folds B;B;B");
		profile_free(t);
	}
	profile_free(p);
}

static void
test_modules(void)
{
	struct profile	*p, *t;
	char		 qs[256];
	uint32_t	 n;
	int		 st;

	/* DTrace-style "module`func" frames give functions a module. */
	if ((p = load("main;libc`a;libc`b;cb 3\nmain;libc`a 1\n")) == NULL)
		return;
	snprintf(qs, sizeof qs, "t=1~cm-%s", ids(p, "a"));
	if ((t = apply(p, qs, &st)) != NULL) {
		node_is(t, "main;libc", 4, 1, "collapse module libc");
		node_is(t, "main;libc;cb", 3, 3, "collapse module libc");
		n = at(t, "main;libc");
		ok(n != PROFILE_NONE && strcmp(profile_func_module(t,
		    t->node_func[n]), "libc") == 0,
		    "the pseudo-function is in module libc");
		profile_free(t);
	}
	profile_free(p);
}

static void
test_filters(void)
{
	struct profile	*p, *t;
	int		 st;

	if ((p = load(FIREFOX)) == NULL)
		return;
	if ((t = apply(p, "focus=^[DH]$", &st)) != NULL) {
		node_is(t, "A;B;C;D;E", 1, 1, "focus=D|H");
		node_is(t, "A;B;H;F", 1, 1, "focus=D|H");
		ok(at(t, "A;B;C;F") == PROFILE_NONE, "focus=D|H drops C;F");
		is_int(t->metrics[0].sum, 2, "focus=D|H: total 2");
		profile_free(t);
	}
	if ((t = apply(p, "ignore=^G$", &st)) != NULL) {
		is_int(t->metrics[0].sum, 2, "ignore=G: total 2");
		ok(at(t, "A;B;C;F") == PROFILE_NONE, "ignore=G drops C;F");
		profile_free(t);
	}
	if ((t = apply(p, "hide=^[CF]$", &st)) != NULL) {
		node_is(t, "A;B;D;E", 1, 1, "hide=C|F");
		node_is(t, "A;B;G", 1, 1, "hide=C|F");
		node_is(t, "A;B;H", 1, 1, "hide=C|F");
		is_int(t->metrics[0].sum, 3, "hide keeps every sample");
		profile_free(t);
	}
	if ((t = apply(p, "show=^[ABF]$", &st)) != NULL) {
		node_is(t, "A;B", 3, 1, "show=A|B|F");
		node_is(t, "A;B;F", 2, 2, "show=A|B|F");
		is_int(t->nnodes, 4, "show=A|B|F: 3 nodes");
		profile_free(t);
	}
	/* Clean's pruning: nodes under 2 ticks are charged to the caller. */
	if ((t = apply(p, "min_ticks=2", &st)) != NULL) {
		node_is(t, "A;B", 3, 1, "min_ticks=2");
		node_is(t, "A;B;C", 2, 2, "min_ticks=2");
		is_int(t->nnodes, 4, "min_ticks=2: 3 nodes");
		profile_free(t);
	}
	if ((t = apply(p, "exclude=C,H", &st)) != NULL) {
		node_is(t, "A;B", 3, 3, "exclude=C,H");
		is_int(t->nnodes, 3, "exclude=C,H: 2 nodes");
		profile_free(t);
	}
	/* Filters first, then t=: paths refer to the filtered tree. */
	if ((t = apply(p, "hide=^C$&t=1~fs-1,2,4", &st)) != NULL) {
		node_is(t, "D;E", 1, 1, "hide then focus D");
		profile_free(t);
	}
	profile_free(p);
}

static void
test_errors(void)
{
	struct profile	*p;
	int		 st;

	if ((p = load(FIREFOX)) == NULL)
		return;
	ok(apply(p, "focus=a(", &st) == NULL && st == 400,
	    "a bad regex is a 400");
	ok(apply(p, "focus=(a)\\1", &st) == NULL && st == 400,
	    "a back reference is a 400");
	ok(apply(p, "t=mcn-1", &st) == NULL && st == 400,
	    "t= without a version is a 400");
	ok(apply(p, "t=2~inv", &st) == NULL && st == 400,
	    "an unknown version is a 400");
	ok(apply(p, "t=1~zz-1", &st) == NULL && st == 400,
	    "an unknown transform is a 400");
	ok(apply(p, "t=1~mf", &st) == NULL && st == 400,
	    "a missing function is a 400");
	ok(apply(p, "t=1~mf-0", &st) == NULL && st == 400,
	    "the root function is a 400");
	ok(apply(p, "t=1~mf-999", &st) == NULL && st == 400,
	    "an unknown function is a 400");
	ok(apply(p, "t=1~fs-1,9", &st) == NULL && st == 404,
	    "a path to no node is a 404");
	ok(apply(p, "t=1~inv-3", &st) == NULL && st == 400,
	    "an argument to inv is a 400");
	ok(apply(p, "min_words=5", &st) == NULL && st == 400,
	    "min_words without a words metric is a 400");
	ok(apply(p, "exclude=nope", &st) == NULL && st == 400,
	    "exclude of an unknown function is a 400");
	profile_free(p);
}

static void
test_paths(void)
{
	struct profile		*p;
	struct transform	 t;
	uint32_t		 in[5], *out;
	size_t			 n, i;
	char			*cause = NULL, *s;
	int			 r;

	if ((p = load(FIREFOX)) == NULL)
		return;
	/* Seed 001: A>B>C>D>E after merging C is A>B>D>E. */
	in[0] = profile_func_find(p, "A");
	in[1] = profile_func_find(p, "B");
	in[2] = profile_func_find(p, "C");
	in[3] = profile_func_find(p, "D");
	in[4] = profile_func_find(p, "E");
	transform_parse_item("mcn-1,2,3", &t, &cause);
	r = transform_path_map(p, &t, in, 5, &out, &n);
	ok(r == 1 && n == 4 && out[0] == in[0] && out[1] == in[1] &&
	    out[2] == in[3] && out[3] == in[4], "merge C maps A>B>C>D>E to "
	    "A>B>D>E");
	if (r == 1)
		free(out);
	r = transform_path_map(p, &t, in, 3, &out, &n);
	ok(r == 1 && n == 2, "merge C maps C's own path to B");
	if (r == 1)
		free(out);
	transform_clear(&t);

	transform_parse_item("fs-1,2,3", &t, &cause);
	r = transform_path_map(p, &t, in, 5, &out, &n);
	ok(r == 1 && n == 3 && out[0] == in[2] && out[2] == in[4],
	    "focus C maps A>B>C>D>E to C>D>E");
	if (r == 1)
		free(out);
	in[2] = profile_func_find(p, "H");
	ok(transform_path_map(p, &t, in, 3, &out, &n) == 0,
	    "focus C: A>B>H is gone");
	transform_clear(&t);

	transform_parse_item("inv", &t, &cause);
	r = transform_path_map(p, &t, in, 3, &out, &n);
	ok(r == 1 && n == 3 && out[0] == in[2] && out[2] == in[0],
	    "invert reverses a path");
	if (r == 1)
		free(out);
	transform_clear(&t);

	/* Items format back to themselves. */
	for (i = 0; i < 4; i++) {
		static const char *const items[] = { "fs-1,2,3", "drec",
		    "rec-7", "inv" };

		transform_parse_item(items[i], &t, &cause);
		s = transform_item(&t);
		is_str(s, items[i], "item %s formats back", items[i]);
		free(s);
		transform_clear(&t);
	}
	free(cause);
	profile_free(p);
}

/* Through answer_query: JSON carries the stack, links map paths. */
static void
test_answers(void)
{
	struct answer_context	 ctx;
	struct profile		*p;
	struct answer		*a;
	json_t			*j;

	if ((p = load(FIREFOX)) == NULL)
		return;
	memset(&ctx, 0, sizeof ctx);
	ctx.render.link_base = "?";
	a = answer_query(p, "cmd=tree&t=1~mcn-1,2,3&format=json", &ctx);
	j = a ? json_loadb(a->body, a->len, 0, NULL) : NULL;
	ok(j != NULL && a->status == 200, "tree under a transform answers");
	is_str(json_string_value(json_object_get(json_array_get(
	    json_object_get(j, "transforms"), 0), "kind")), "merge-call-node",
	    "the JSON names the transform");
	is_int(json_integer_value(json_object_get(json_object_get(
	    json_object_get(j, "root"), "total"), "samples")), 3,
	    "the JSON total");
	json_decref(j);
	answer_free(a);

	a = answer_query(p, "cmd=tree&focus=(&format=json", &ctx);
	ok(a != NULL && a->status == 400, "a bad regex answers 400");
	answer_free(a);

	/* The push link for merging this node maps path= to its parent. */
	a = answer_query(p, "cmd=tree&path=1,2,3,4&open=1,2,3~1,2,8",
	    &ctx);
	ok(a != NULL && a->status == 200 && strstr(a->body,
	    "t=1~mcn-1,2,3,4&amp;path=1,2,3&amp;open=1,2,3~1,2,8") != NULL,
	    "merge node link: path to the parent, open= kept");
	ok(a != NULL && strstr(a->body, "t=1~fs-1,2,3,4&amp;path=4&amp;"
	    "open=") == NULL && strstr(a->body,
	    "t=1~fs-1,2,3,4&amp;path=4") != NULL,
	    "focus link: path re-rooted, open= paths outside dropped");
	answer_free(a);

	a = answer_query(p, "cmd=tree&t=1~mcn-1,2,3~inv&format=html", &ctx);
	ok(a != NULL && strstr(a->body, "<nav class=\"crumbs\">") != NULL &&
	    strstr(a->body, "?cmd=tree&amp;t=1~mcn-1,2,3\"") != NULL &&
	    strstr(a->body, "aria-current=\"page\">Inverted<") != NULL,
	    "breadcrumbs pop the stack");
	answer_free(a);
	profile_free(p);
}

int
main(void)
{
	test_seed_drawings();
	test_functions();
	test_recursion();
	test_modules();
	test_filters();
	test_errors();
	test_paths();
	test_answers();
	return (tap_done());
}
