/*
 * What a filter selects (transform-filter.c): a regex matches a
 * function by its name, its module or its file; an exclude= list names
 * functions and refuses unknown ones; min_ticks= and min_words= find
 * their metric, and a node under either threshold is pruned.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "query.h"
#include "tap.h"
#include "transform.h"
#include "transform-filter.h"
#include "transform-test.h"

/* main=1, a=2 and b=3 in module libc, c=4. */
#define MODULES	"main;libc`a;libc`b 3\nmain;c 1\n"

/* The one filter of a query string, in its stack. */
static struct transform_stack *
filter(const char *qs)
{
	struct transform_stack	*s;
	int			 st;

	if ((s = tt_stack(qs, &st, 0)) != NULL && s->n != 1)
		diag("%s: %zu entries", qs, s->n);
	return (s);
}

static void
test_match(const struct profile *p)
{
	static const struct {
		const char	*qs;
		const char	*want;	/* per function 1..4: '1' or '0' */
		const char	*what;
	} cases[] = {
		{ "hide=^a$", "0100", "a name" },
		{ "hide=^libc$", "0110", "a module" },
		{ "focus=^b$|^c$", "0011", "an alternation" },
		{ "focus=b", "0110", "b, and libc, a's module" },
		{ "show=x^", "0000", "nothing" },
	};
	static const uint32_t	 some[] = { 3, 99, 1 };
	struct transform_stack	*s;
	char			 got[8], *cause = NULL;
	uint8_t			*m = NULL;
	uint32_t		 f;
	size_t			 i;
	int			 r;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if ((s = filter(cases[i].qs)) == NULL)
			continue;
		r = transform_filter_select(p, &s->v[0], NULL, 0, NULL, &m,
		    &cause);
		for (f = 1; f <= 4; f++)
			got[f - 1] = r != 0 ? 'E' : m[f] ? '1' : '0';
		got[4] = '\0';
		is_str(got, cases[i].want, "%s: %s", cases[i].what,
		    cases[i].qs);
		free(m);
		m = NULL;
		transform_stack_free(s);
	}
	/* Only the functions asked about; an id past the profile's skipped. */
	if ((s = filter("hide=.")) != NULL) {
		r = transform_filter_select(p, &s->v[0], some, 3, NULL, &m,
		    &cause);
		ok(r == 0 && m[1] && !m[2] && m[3] && !m[4],
		    "a path's functions only");
		free(m);
		transform_stack_free(s);
	}
	free(cause);
}

static void
test_exclude(const struct profile *p)
{
	struct transform_stack	*s;
	uint8_t			*m = NULL;
	char			*cause = NULL;

	if ((s = filter("exclude=a,,c")) != NULL) {
		ok(transform_filter_select(p, &s->v[0], NULL, 0, NULL, &m,
		    &cause) == 0 && !m[1] && m[2] && !m[3] && m[4],
		    "exclude=a,,c marks a and c, skips the empty name");
		free(m);
		m = NULL;
		transform_stack_free(s);
	}
	if ((s = filter("exclude=a,nope")) != NULL) {
		ok(transform_filter_select(p, &s->v[0], NULL, 0, NULL, &m,
		    &cause) == 400 && cause != NULL &&
		    strstr(cause, "nope") != NULL,
		    "an unknown function is a 400, named");
		free(m);
		transform_stack_free(s);
	}
	free(cause);
}

static void
test_prune(void)
{
	struct transform_stack	*s;
	struct profile		*p;
	int			 mt, mw;

	/* One metric, "samples": min_ticks= falls back to it. */
	if ((p = tt_load(MODULES)) == NULL)
		return;
	if ((s = filter("min_ticks=2")) != NULL) {
		ok(transform_filter_prune_metrics(p, &s->v[0], &mt, &mw) ==
		    0 && mt == 0 && mw == -1,
		    "min_ticks=: the first metric, no words threshold");
		ok(transform_filter_pruned(p, &s->v[0],
		    walk_node(p, "main;c")) &&
		    !transform_filter_pruned(p, &s->v[0],
		    walk_node(p, "main;a")),
		    "a node under 2 is pruned, one of 3 is not");
		transform_stack_free(s);
	}
	if ((s = filter("min_words=2")) != NULL) {
		ok(transform_filter_prune_metrics(p, &s->v[0], &mt, &mw) ==
		    -1, "min_words= without words or bytes is refused");
		ok(!transform_filter_pruned(p, &s->v[0], 1),
		    "and prunes nothing");
		transform_stack_free(s);
	}
	profile_free(p);
}

int
main(void)
{
	struct profile	*p;

	if ((p = tt_load(MODULES)) == NULL)
		return (tap_done());
	test_match(p);
	test_exclude(p);
	test_prune();
	profile_free(p);
	return (tap_done());
}
