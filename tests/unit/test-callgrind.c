/*
 * The callgrind reader on small hand-made files: the format's features
 * (name compression, fi/fe, cfi/cob binding, relative subpositions, jump
 * lines, parts, summary/totals), the tree heuristic's invariants (exact
 * self costs and totals whatever is cut), and clear errors.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "funcgraph.h"
#include "profile.h"
#include "tap.h"
#include "walk.h"

/* The format's worked example (three functions). */
static const char example[] =
    "# callgrind format\n"
    "version: 1\n"
    "creator: example-writer\n"
    "positions: line\n"
    "events: Ir\n"
    "summary: 805\n"
    "\n"
    "fl=(1) main.c\n"
    "fn=(1) main\n"
    "10 5\n"
    "cfn=(2) parse\n"
    "calls=1 30\n"
    "12 600\n"
    "cfl=(2) lex.c\n"
    "cfn=(3) lex\n"
    "calls=4 7\n"
    "13 200\n"
    "\n"
    "fn=(2)\n"
    "30 50\n"
    "cfl=(2)\n"
    "cfn=(3)\n"
    "calls=10 7\n"
    "31 550\n"
    "\n"
    "fl=(2)\n"
    "fn=(3)\n"
    "7 750\n";

static struct profile *
load(const char *s, uint32_t max_nodes, char **cause)
{
	return (walk_load(s, strlen(s), "callgrind", NULL, max_nodes, cause));
}

static void
refused(const char *s, const char *want, const char *what)
{
	struct profile	*p;
	char		*cause;

	p = load(s, 0, &cause);
	ok(p == NULL && cause != NULL && strstr(cause, want) != NULL, "%s",
	    what);
	if (cause != NULL)
		diag("cause: %s", cause);
	profile_free(p);
	free(cause);
}

static void
test_example(void)
{
	struct profile	*p;
	char		*cause;
	uint32_t	 f;
	size_t		 i, clean;

	p = load(example, 0, &cause);
	ok(p != NULL, "the format's worked example loads");
	if (p == NULL) {
		diag("%s", cause);
		free(cause);
		return;
	}
	is_str(p->format, "callgrind", "format");
	is_str(p->metrics[0].name, "Ir", "metric 0 is the first event");
	is_int(p->metrics[0].sum, 805, "total equals summary: 805");
	is_int(walk_func(p, "main", 0, 0), 5, "main self 5");
	is_int(walk_func(p, "parse", 0, 0), 50, "parse self 50");
	is_int(walk_func(p, "lex", 0, 0), 750, "lex self 750");
	is_int(walk_func(p, "main", 0, 1), 805, "main inclusive 805");
	is_int(walk_func(p, "parse", 0, 1), 600, "parse inclusive 600");
	is_int(walk_self(p, "main;lex", 0), 200,
	    "lex under main gets the 200 of main's calls");
	is_int(walk_self(p, "main;parse;lex", 0), 550,
	    "lex under parse gets the 550 of parse's calls");
	f = profile_func_find(p, "parse");
	ok(f != PROFILE_NONE && strcmp(profile_string(p, p->func_file[f]),
	    "main.c") == 0 && p->func_line[f] == 30,
	    "parse is in main.c at line 30 (no cfl= before its cfn=)");
	f = profile_func_find(p, "lex");
	ok(f != PROFILE_NONE && strcmp(profile_string(p, p->func_file[f]),
	    "lex.c") == 0 && p->func_line[f] == 7, "lex is at lex.c:7");
	profile_free(p);

	/* Every truncation loads or fails with a cause. */
	for (i = 0, clean = 0; i < sizeof example - 1; i++) {
		p = walk_load(example, i, "callgrind", NULL, 0, &cause);
		clean += p != NULL || cause != NULL;
		if (p != NULL) {
			int64_t	 s = 0;
			uint32_t k;

			for (k = 0; k < p->nfuncs; k++)
				s += p->metrics[0].func_self[k];
			/* Totals are exact even when calls are missing. */
			if (s != p->metrics[0].sum)
				clean--;
		}
		profile_free(p);
		free(cause);
	}
	is_int(clean, sizeof example - 1,
	    "every truncation loads with exact totals or fails with a cause");
}

static void
test_positions(void)
{
	static const char s[] =
	    "# callgrind format\n"
	    "positions: instr line\n"
	    "events: Ir Dr\n"
	    "ob=(1) /bin/prog\n"
	    "fl=(1) a.c\n"
	    "fn=(1) f\n"
	    "0x401000 20 3 1\n"
	    "+4 * 2\n"
	    "+3 -2 1 0x10\n"
	    "jcnd=1/2 +4 +1\n"
	    "* *\n"
	    "jump=1 -8 25\n"
	    "* * 1\n"
	    "fi=(2) inl.h\n"
	    "+2 5 7\n"
	    "cfn=(2) g\n"
	    "calls=2 0x402000 40\n"
	    "* * 30 3\n"
	    "fe=(1)\n"
	    "+1 21 1\n"
	    "fl=(3) g.h\n"
	    "fn=(2)\n"
	    "0x402000 40 30 3\n"
	    "totals: 45 20\n";
	struct profile	*p;
	char		*cause;
	uint32_t	 f;

	p = load(s, 0, &cause);
	ok(p != NULL, "instr line positions, relative, '*', jumps load");
	if (p == NULL) {
		diag("%s", cause);
		free(cause);
		return;
	}
	is_int(p->metrics[0].sum, 45, "Ir total equals totals:");
	is_int(p->metrics[1].sum, 20, "Dr total equals totals: (hex cost)");
	is_int(walk_func(p, "f", 0, 0), 15, "inlined (fi=) cost is f's own");
	is_int(walk_func(p, "f", 1, 0), 17, "f's Dr, missing columns 0");
	f = profile_func_find(p, "f");
	ok(f != PROFILE_NONE && p->func_line[f] == 18 &&
	    strcmp(profile_func_module(p, f), "/bin/prog") == 0,
	    "f's line is its lowest in a.c (18), module its object");
	/* The callee's file is the current (inlined) file: none matches g.h. */
	ok(profile_func_find(p, "g") != PROFILE_NONE &&
	    walk_self(p, "g", 0) == 30,
	    "g, bound to inl.h, is a root of its own");
	profile_free(p);
}

static void
test_graphs(void)
{
	/* Direct and mutual recursion, and a cycle nobody enters. */
	static const char rec[] =
	    "events: Ir\n"
	    "fn=main\n"
	    "1 10\n"
	    "cfn=a\n"
	    "calls=1 1\n"
	    "1 1000\n"
	    "fn=a\n"
	    "1 100\n"
	    "cfn=a\n"
	    "calls=5 1\n"
	    "1 800\n"
	    "cfn=b\n"
	    "calls=3 1\n"
	    "1 900\n"
	    "fn=b\n"
	    "1 300\n"
	    "cfn=a\n"
	    "calls=3 1\n"
	    "1 600\n"
	    "cfn=leaf\n"
	    "calls=3 1\n"
	    "1 300\n"
	    "fn=leaf\n"
	    "1 300\n"
	    "fn=x\n"
	    "1 7\n"
	    "cfn=y\n"
	    "calls=1 1\n"
	    "1 4\n"
	    "fn=y\n"
	    "1 4\n"
	    "cfn=x\n"
	    "calls=1 1\n"
	    "1 9\n"
	    "summary: 730\n";
	struct profile	*p;
	char		*cause;

	p = load(rec, 0, &cause);
	ok(p != NULL, "recursive call graph loads");
	if (p == NULL) {
		diag("%s", cause);
		free(cause);
		return;
	}
	is_int(p->metrics[0].sum, 730, "total equals summary");
	is_int(walk_func(p, "a", 0, 0), 100, "a self exact");
	is_int(walk_func(p, "b", 0, 0), 300, "b self exact");
	is_int(walk_func(p, "leaf", 0, 0), 300, "leaf self exact");
	ok(walk_node(p, "main;a;b") != PROFILE_NONE &&
	    walk_node(p, "main;a;b;a") == PROFILE_NONE &&
	    walk_node(p, "main;a;a") == PROFILE_NONE,
	    "recursion is cut where the function is on the path");
	is_int(walk_self(p, "main;a;b;leaf", 0), 300, "leaf under b");
	is_int(walk_func(p, "x", 0, 0) + walk_func(p, "y", 0, 0), 11,
	    "a cycle nobody enters still has its cost");
	ok(walk_node(p, "y;x") != PROFILE_NONE,
	    "the heavier of an unentered cycle becomes a root");
	profile_free(p);

	/* A node limit cuts the tree, never the costs. */
	p = load(rec, 8, &cause);
	ok(p != NULL && p->nnodes <= 8 && p->metrics[0].sum == 730 &&
	    walk_func(p, "leaf", 0, 0) == 300,
	    "with a limit of 8 nodes, totals and self costs stay exact");
	if (p == NULL)
		diag("%s", cause);
	free(cause);
	profile_free(p);
	p = load(rec, 5, &cause);
	ok(p == NULL && cause != NULL && strstr(cause, "limit") != NULL,
	    "a limit below the number of functions is refused");
	if (cause != NULL)
		diag("cause: %s", cause);
	free(cause);
	profile_free(p);
}

static void
test_parts(void)
{
	static const char parts[] =
	    "# callgrind format\n"
	    "version: 1\n"
	    "part: 1\n"
	    "events: Ir\n"
	    "summary: 12\n"
	    "fl=(1) s.c\n"
	    "fn=(1) init\n"
	    "3 10\n"
	    "totals: 10\n"
	    "part: 2\n"
	    "events: Ir Dr\n"
	    "fl=(2) t.c\n"
	    "fn=(2) init\n"
	    "4 5 2\n"
	    "fl=(1)\n"
	    "fn=(1)\n"
	    "3 1 1\n"
	    "totals: 6 3\n";
	struct profile	*p;
	char		*cause;

	p = load(parts, 0, &cause);
	ok(p != NULL, "two parts with different events load");
	if (p == NULL) {
		diag("%s", cause);
		free(cause);
		return;
	}
	is_int(p->nmetrics, 2, "events of both parts are metrics");
	is_int(p->metrics[0].sum, 18, "Ir: summary 12 of part 1 + 6");
	is_int(p->metrics[1].sum, 3, "Dr: part 2 only");
	is_int(p->metrics[0].self[PROFILE_ROOT], 2,
	    "summary beyond the cost lines is the root's own cost");
	is_int(walk_func(p, "init", 0, 0), 11, "init in s.c: 10 + 1");
	is_int(walk_func(p, "init (t.c)", 0, 0), 5,
	    "a second init of the same object in t.c is told apart");
	profile_free(p);
}

/* A function's self or total from the profile's per-function values. */
static int64_t
func_value(const struct profile *p, const char *name, int total)
{
	uint32_t	 f = profile_func_find(p, name);

	if (f == PROFILE_NONE)
		return (-1);
	return (total ? p->metrics[0].func_total[f] :
	    p->metrics[0].func_self[f]);
}

/*
 * The function figures come from the call graph: the sum of the calls
 * into a called function, self plus calls for one nobody calls (calls=0
 * a call's cost), a recursion level in a cycle its self plus the calls
 * leaving the cycle; the cycle a clique whose butterfly costs its self
 * plus the calls leaving it; calls and callers from the edges.
 */
static void
test_funcgraph(void)
{
	static const char g[] =
	    "events: Ir\n"
	    "summary: 115\n"
	    "fn=main\n" "1 10\n"
	    "cfn=a\n" "calls=1 1\n" "1 100\n"
	    "cfn=c\n" "calls=0 1\n" "1 5\n"
	    "fn=a\n" "1 20\n"
	    "cfn=b\n" "calls=2 1\n" "1 80\n"
	    "fn=b\n" "1 30\n"
	    "cfn=a'2\n" "calls=3 1\n" "1 50\n"
	    "fn=a'2\n" "1 40\n"
	    "cfn=b'2\n" "calls=1 1\n" "1 10\n"
	    "cfn=a'2\n" "calls=5 1\n" "1 33\n"
	    "fn=b'2\n" "1 10\n"
	    "cfn=a'2\n" "calls=1 1\n" "1 7\n"
	    "fn=c\n" "1 5\n"
	    "totals: 115\n";
	struct aggregate_butterfly	 b;
	struct aggregate_spec		 spec;
	struct profile			*p;
	char				*cause;
	uint8_t				*in;
	uint32_t			 a2, b2;

	p = load(g, 0, &cause);
	ok(p != NULL && p->funcgraph != NULL, "a call graph loads with its "
	    "graph");
	if (p == NULL) {
		diag("%s", cause);
		free(cause);
		return;
	}
	is_int(func_value(p, "main", 1), 115, "main: nobody calls it, self "
	    "plus calls (calls=0 too)");
	is_int(func_value(p, "a", 1), 100, "a: the calls into it");
	is_int(func_value(p, "b", 1), 80, "b: the calls into it");
	is_int(func_value(p, "c", 1), 5, "c: called 0 times, its self");
	is_int(func_value(p, "a'2", 1), 40, "a'2, a recursion level in a "
	    "cycle: self, no calls leave the cycle");
	is_int(func_value(p, "b'2", 1), 10, "b'2 likewise");
	is_int(func_value(p, "a'2", 0), 40, "a'2 self");
	a2 = profile_func_find(p, "a'2");
	b2 = profile_func_find(p, "b'2");
	ok(p->funcgraph->cycle[a2] != FUNCGRAPH_NONE &&
	    p->funcgraph->cycle[a2] == p->funcgraph->cycle[b2] &&
	    p->funcgraph->cycle[profile_func_find(p, "b")] == FUNCGRAPH_NONE,
	    "a'2 and b'2 form a cycle, b is outside it");
	is_int((int64_t)p->funcgraph->fcalls[a2], 4, "a'2: 3 calls from b, "
	    "1 from b'2, its self-calls aside");
	ok(funcgraph_estimated(p), "the tree is an estimate");

	/* The cycle as a set: self plus calls leaving it, never twice. */
	in = calloc(p->nfuncs, 1);
	in[a2] = in[b2] = 1;
	memset(&spec, 0, sizeof spec);
	spec.in = in;
	spec.callers_by = spec.callees_by = AGGREGATE_FUNC;
	ok(aggregate_butterfly(p, NULL, &spec, &b, NULL) == 0 &&
	    b.set.total[0] == 50 && b.set.self[0] == 50 && b.callers.n == 1 &&
	    b.callers.total[0] == 50 && b.callers.calls[0] == 3,
	    "the cycle costs 50, called by b only (3 calls, 50)");
	aggregate_butterfly_clear(&b);
	memset(in, 0, p->nfuncs);
	in[profile_func_find(p, "a")] = 1;
	ok(aggregate_butterfly(p, NULL, &spec, &b, NULL) == 0 &&
	    b.set.total[0] == 100 && b.callees.n == 1 &&
	    b.callees.total[0] == 80 && b.callees.calls[0] == 2 &&
	    b.callees.self[0] == 30,
	    "a calls b twice (80, b's self 30)");
	aggregate_butterfly_clear(&b);
	free(in);
	profile_free(p);
}

int
main(void)
{
	struct profile	*p;
	char		*cause;

	test_example();
	test_funcgraph();
	test_positions();
	test_graphs();
	test_parts();

	refused("events: Ir\nfn=(3)\n1 1\n", "line 2: name (3) used before",
	    "compressed name used before its definition");
	refused("events: Ir\nfn=f\ncalls=1 2\n1 1\n", "line 3: calls= without "
	    "cfn=", "calls= without cfn=");
	refused("events: Ir\nfn=f\ncfn=g\ncalls=1 2\nfn=g\n",
	    "line 5: calls= not followed",
	    "calls= not followed by a cost line");
	refused("fn=f\n1 1\n", "line 2: cost line before events:",
	    "cost line before events:");
	refused("events: Ir\nfn=f\n1 1 2\n", "line 3: more costs than events",
	    "too many costs");
	refused("events: Ir\nfn=f\n1 -1\n", "line 3: bad cost",
	    "negative cost");
	refused("events: Ir\nfn=f\n1 99999999999999999999\n", "line 3: bad "
	    "cost", "cost beyond 64 bits");
	refused("events: Ir\nfn=f\n1 9223372036854775807\n2 1\n",
	    "line 4: cost overflows", "self cost sum beyond 64 bits");
	refused("events: Ir\nfn=f\n1x 1\n", "line 3: bad subposition",
	    "bad subposition");
	refused("events: Ir\nfn=f\n1 5\n!!\n", "line 4: not a callgrind line",
	    "garbage line");
	refused("events: Ir\nfn=f\n1 5\ntotals: 6\n", "line 4: totals: 6",
	    "totals: that disagree with the cost lines");
	refused("version: 2\nevents: Ir\n", "unsupported version",
	    "version 2");
	refused("positions: line column\nevents: Ir\n", "unknown position",
	    "unknown position");
	refused("events: Ir\n", "no functions", "no functions");
	refused("# callgrind format\ncreator: x\n", "no events", "no events");
	p = walk_load("events: Ir\nfn=f\n1 1\0\n", 20, "callgrind", NULL, 0,
	    &cause);
	ok(p == NULL && cause != NULL && strstr(cause, "line 3: NUL") != NULL,
	    "NUL byte");
	free(cause);
	profile_free(p);
	return (tap_done());
}
