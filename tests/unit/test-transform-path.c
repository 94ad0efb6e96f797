/*
 * The path mapping (transform-path.c): a call node path carried through
 * one transform. Worked examples first; then, on three small trees, the
 * mapping checked against the rewrite itself: wherever a path is said
 * to survive a transform, transform_apply's tree has a node there.
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

/* A=1, B=2, C=3, D=4, E=5, F=6, G=7, H=8. */
#define FIREFOX	"A;B;C;D;E 1\nA;B;C;F;G 1\nA;B;H;F 1\n"
#define RECURSIVE "A;B;C;B;D 4\nA;B;C 1\nA;B;B;B;E 2\n"
#define MODULES	"main;libc`a;libc`b;cb 3\nmain;libc`a 1\nmain;x`c;libc`b 2\n"

/* Map the path of names "A;B;C" through item; its names, or "gone". */
static char *
map(const struct profile *p, const char *qs, const char *names)
{
	struct transform_stack	*s;
	uint32_t		 in[16], *out = NULL;
	size_t			 n = 0, outn, i, len = 0;
	char			 copy[256], *tok, *save = NULL, *buf;
	int			 r, st;

	if ((s = tt_stack(qs, &st, 0)) == NULL || s->n != 1)
		return (NULL);
	snprintf(copy, sizeof copy, "%s", names);
	for (tok = strtok_r(copy, ";", &save); tok != NULL && n < 16;
	    tok = strtok_r(NULL, ";", &save))
		in[n++] = profile_func_find(p, tok);
	r = transform_path_map(p, &s->v[0], in, n, &out, &outn);
	transform_stack_free(s);
	if (r != 1)
		return (strdup(r == 0 ? "gone" : "error"));
	if ((buf = calloc(1, 256)) == NULL)
		abort();
	for (i = 0; i < outn; i++)
		len += snprintf(buf + len, 256 - len, "%s%s", i ? ";" : "",
		    out[i] < p->nfuncs ? profile_func_name(p, out[i]) : "#");
	free(out);
	return (buf);
}

static void
test_examples(void)
{
	static const struct {
		const char	*qs, *in, *want, *what;
	} cases[] = {
		{ "t=1~mcn-1,2,3", "A;B;C;D;E", "A;B;D;E", "merge C" },
		{ "t=1~mcn-1,2,3", "A;B;C", "A;B", "merge C: C's own path" },
		{ "t=1~mcn-1,2,3", "A;B;H;F", "A;B;H;F",
		    "merge C: another branch" },
		{ "t=1~ms-1,2,3", "A;B;C;D;E", "A;B", "merge subtree C" },
		{ "t=1~fs-1,2,3", "A;B;C;D;E", "C;D;E", "focus C" },
		{ "t=1~fs-1,2,3", "A;B;H", "gone", "focus C: outside" },
		{ "t=1~ff-6", "A;B;H;F", "F", "focus function F" },
		{ "t=1~ff-6", "A;B;C;D", "gone", "focus function F: outside" },
		{ "t=1~mf-6", "A;B;C;F;G", "A;B;C;G", "merge function F" },
		{ "t=1~df-6", "A;B;C;F;G", "gone", "drop F" },
		{ "t=1~df-6", "A;B;C;D", "A;B;C;D", "drop F: elsewhere" },
		{ "t=1~cfs-3", "A;B;C;F;G", "A;B;C", "collapse C" },
		{ "t=1~inv", "A;B;H", "H;B;A", "invert" },
		{ "hide=^[CF]$", "A;B;C;F;G", "A;B;G", "hide=C|F" },
		{ "show=^[ABF]$", "A;B;C;F;G", "A;B;F", "show=A|B|F" },
		{ "ignore=^G$", "A;B;C;F;G", "gone", "ignore=G" },
		{ "exclude=C", "A;B;C;F;G", "A;B", "exclude=C" },
		{ "min_ticks=2", "A;B;H;F", "A;B", "min_ticks=2" },
		{ "min_ticks=2", "A;B;C;D", "A;B;C", "min_ticks=2: C stays" },
	};
	struct profile	*p;
	char		*got;
	size_t		 i;

	if ((p = tt_load(FIREFOX)) == NULL)
		return;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		got = map(p, cases[i].qs, cases[i].in);
		is_str(got, cases[i].want, "%s: %s -> %s", cases[i].what,
		    cases[i].in, cases[i].want);
		free(got);
	}
	profile_free(p);

	if ((p = tt_load(RECURSIVE)) == NULL)
		return;
	got = map(p, "t=1~rec-2", "A;B;C;B;D");
	is_str(got, "A;B;D", "rec B: back to the first B");
	free(got);
	got = map(p, "t=1~drec", "A;B;B;B;E");
	is_str(got, "A;B;E", "drec: B;B;B is one B");
	free(got);
	got = map(p, "t=1~drec", "A;B;C;B;D");
	is_str(got, "A;B;C;B;D", "drec: indirect recursion stays");
	free(got);
	profile_free(p);

	if ((p = tt_load(MODULES)) == NULL)
		return;
	got = map(p, "t=1~cm-2", "main;a;b;cb");
	/* The pseudo-function is new: its id is past the input's. */
	is_str(got, "main;#;cb", "cm: the module's run is one node");
	free(got);
	profile_free(p);
}

/* The path of function ids from the root to node n, in out[]. */
static size_t
path_of(const struct profile *p, uint32_t n, uint32_t *out, size_t max)
{
	size_t		 k = 0, i;
	uint32_t	 t;

	for (; n != PROFILE_ROOT && k < max; n = p->node_parent[n])
		out[k++] = p->node_func[n];
	for (i = 0; i < k / 2; i++) {
		t = out[i];
		out[i] = out[k - 1 - i];
		out[k - 1 - i] = t;
	}
	return (k);
}

/*
 * Every node of p through the transform of qs: where the mapping keeps
 * a path, the rewritten tree has that node. sites: only nodes with a
 * value (inverting keeps sample sites, not their callers' paths).
 */
static void
agree(const struct profile *p, const char *qs, int sites, const char *what)
{
	struct transform_stack	*s;
	struct profile		*t;
	uint32_t		 in[64], *out, n;
	size_t			 k, outn;
	char			*cause = NULL;
	int			 st, r, bad = 0, kept = 0;

	if ((s = tt_stack(qs, &st, 0)) == NULL)
		return;
	if ((t = transform_apply(p, s, NULL, &st, &cause)) == NULL) {
		ok(0, "%s: %s applies: %s", what, qs, cause ? cause : "?");
		free(cause);
		transform_stack_free(s);
		return;
	}
	for (n = 1; n < p->nnodes; n++) {
		if (sites && p->metrics[0].self[n] == 0)
			continue;
		k = path_of(p, n, in, 64);
		if ((r = transform_path_map(p, &s->v[0], in, k, &out,
		    &outn)) == -1)
			bad++;
		if (r != 1)
			continue;
		kept++;
		if (outn > 0 && profile_node_path(t, out, outn) ==
		    PROFILE_NONE)
			bad++;
		free(out);
	}
	ok(bad == 0 && kept > 0, "%s: %s: the %d kept paths are nodes", what,
	    qs, kept);
	profile_free(t);
	transform_stack_free(s);
}

/*
 * Transforms that move samples but drop none, checked on every node;
 * those that drop samples (fs, ff, df, focus=, ignore=) on the nodes
 * their own links name: a path kept through them may still lose its
 * node when every sample below it was dropped, which the path alone
 * cannot tell.
 */
static void
test_agree(void)
{
	static const char *const firefox[] = { "t=1~mcn-1,2,3", "t=1~ms-1,2,3",
	    "t=1~mf-6", "t=1~mf-3", "t=1~cfs-3", "t=1~drec", "t=1~rec",
	    "hide=^[CF]$", "show=^[ABF]$", "exclude=C", "exclude=F,H",
	    "min_ticks=2", "t=1~fs-1,2,3", "t=1~fs-1,2,8,6", "t=1~ff-6",
	    "t=1~ff-3", "t=1~df-3", "t=1~df-8" };
	static const char *const recursive[] = { "t=1~rec-2", "t=1~rec",
	    "t=1~drec-2", "t=1~drec", "t=1~mf-2", "t=1~cfs-3" };
	static const char *const modules[] = { "t=1~cm-2", "t=1~cm-5",
	    "t=1~mf-3", "hide=^b$" };
	struct profile	*p;
	size_t		 i;

	if ((p = tt_load(FIREFOX)) == NULL)
		return;
	for (i = 0; i < sizeof firefox / sizeof firefox[0]; i++)
		agree(p, firefox[i], 0, "firefox");
	agree(p, "t=1~inv", 1, "firefox, sample sites");
	profile_free(p);
	if ((p = tt_load(RECURSIVE)) == NULL)
		return;
	for (i = 0; i < sizeof recursive / sizeof recursive[0]; i++)
		agree(p, recursive[i], 0, "recursive");
	profile_free(p);
	if ((p = tt_load(MODULES)) == NULL)
		return;
	for (i = 0; i < sizeof modules / sizeof modules[0]; i++)
		agree(p, modules[i], 0, "modules");
	profile_free(p);
}

int
main(void)
{
	test_examples();
	test_agree();
	return (tap_done());
}
