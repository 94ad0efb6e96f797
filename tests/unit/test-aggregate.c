/*
 * aggregate.c's memo of its last walks: every answer from the memo must
 * equal a fresh walk on a freshly loaded profile, whatever the order of
 * the selections asked (repeats, changes of one member, more selections
 * than the memo holds, butterflies with other groupings).
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "profile.h"
#include "profile-index.h"
#include "reader.h"
#include "tap.h"

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint32_t
next(uint32_t n)
{
	return ((uint32_t)(tap_xorshift(&rng) % n));
}

static int
rows_equal(const struct aggregate_rows *a, const struct aggregate_rows *b)
{
	uint32_t	 k = a->nmetrics ? a->nmetrics : 1;

	return (a->n == b->n && a->nmetrics == b->nmetrics &&
	    memcmp(a->key, b->key, a->n * sizeof *a->key) == 0 &&
	    memcmp(a->node, b->node, a->n * sizeof *a->node) == 0 &&
	    memcmp(a->nodes, b->nodes, a->n * sizeof *a->nodes) == 0 &&
	    memcmp(a->self, b->self, a->n * k * sizeof *a->self) == 0 &&
	    memcmp(a->total, b->total, a->n * k * sizeof *a->total) == 0);
}

int
main(int argc, char **argv)
{
	const char		*top = getenv("top_srcdir");
	char			 src[4096], *cause = NULL;
	struct profile		*p, *fresh;
	struct profile_index	*ix;
	struct aggregate_rows	 a, b;
	struct aggregate_butterfly x, y;
	struct aggregate_spec	 spec;
	uint32_t		*group, f, ng;
	uint8_t			*in;
	int			 i, bad = 0, badb = 0;

	snprintf(src, sizeof src, "%s", argc > 1 ? argv[1] : "");
	if (argc <= 1)
		snprintf(src, sizeof src, "%s/tests/data/firefox.folded",
		    top != NULL ? top : ".");
	if ((p = reader_load(src, NULL, NULL, &cause)) == NULL) {
		ok(0, "%s loads: %s", src, cause);
		return (tap_done());
	}
	/* p's sums go through its index (memo, node index), fresh's not. */
	if ((ix = profile_index_create(p)) == NULL) {
		ok(0, "index");
		return (tap_done());
	}
	group = calloc(p->nfuncs, sizeof *group);
	in = calloc(p->nfuncs, 1);
	for (i = 0; i < 60; i++) {
		/* Often the selection of an earlier round, sometimes new. */
		if (i % 4 != 3)
			rng = 0x9e3779b97f4a7c15ULL + (uint64_t)(i % 3);
		ng = 1 + next(4);
		for (f = 0; f < p->nfuncs; f++)
			group[f] = next(3) == 0 ? AGGREGATE_NONE : next(ng);
		fresh = reader_load(src, NULL, NULL, &cause);
		if (fresh == NULL ||
		    aggregate_groups(p, profile_index_aggregate(ix, NULL), group,
		    ng, &a, NULL) == -1 ||
		    aggregate_groups(fresh, NULL, group, ng, &b, NULL) == -1 ||
		    !rows_equal(&a, &b))
			bad++;
		aggregate_rows_clear(&a);
		aggregate_rows_clear(&b);

		for (f = 0; f < p->nfuncs; f++)
			in[f] = next(5) == 0;
		memset(&spec, 0, sizeof spec);
		spec.in = in;
		spec.internal = i & 1;
		spec.callers_by = i % 4 == 3 ? AGGREGATE_SITE : AGGREGATE_FUNC;
		spec.callees_by = AGGREGATE_FUNC;
		if (fresh == NULL ||
		    aggregate_butterfly(p, profile_index_aggregate(ix, NULL),
		    &spec, &x, NULL) == -1 ||
		    aggregate_butterfly(fresh, NULL, &spec, &y, NULL) == -1 ||
		    !rows_equal(&x.callers, &y.callers) ||
		    !rows_equal(&x.callees, &y.callees) ||
		    !rows_equal(&x.set, &y.set))
			badb++;
		aggregate_butterfly_clear(&x);
		aggregate_butterfly_clear(&y);
		profile_free(fresh);
	}
	ok(bad == 0, "60 group sums through the memo equal fresh walks");
	ok(badb == 0, "60 butterflies through the memo equal fresh walks");
	ok(aggregate_memo_hits(profile_index_aggregate(ix, NULL)->memo) >= 20,
	    "the memo answered %llu of them", (unsigned long long)
	    aggregate_memo_hits(profile_index_aggregate(ix, NULL)->memo));
	profile_index_free(ix);
	free(group);
	free(in);
	profile_free(p);
	return (tap_done());
}
