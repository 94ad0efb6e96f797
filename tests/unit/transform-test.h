/*
 * Helpers for the transform unit tests (test-transform*.c): a folded
 * profile from a string, and the transform stack of a query string.
 */

#ifndef TRANSFORM_TEST_H
#define TRANSFORM_TEST_H

#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "query.h"
#include "tap.h"
#include "transform.h"
#include "walk.h"

/* A folded profile from a string; NULL with a diagnostic. */
static inline struct profile *
tt_load(const char *text)
{
	struct profile	*p;
	char		*cause = NULL;

	if ((p = walk_load(text, strlen(text), "folded", NULL, 0,
	    &cause)) == NULL)
		diag("load failed: %s", cause ? cause : "?");
	free(cause);
	return (p);
}

/*
 * The filters and t= of a query string as a stack; NULL with *status
 * and, unless quiet, a diagnostic.
 */
static inline struct transform_stack *
tt_stack(const char *qs, int *status, int quiet)
{
	struct transform_stack	*s = NULL;
	struct query		*q;
	char			*cause = NULL;

	*status = 0;
	if ((q = query_parse(qs, status, &cause)) == NULL ||
	    (s = transform_parse(q, status, &cause)) == NULL) {
		if (!quiet)
			diag("%s: %s", qs, cause ? cause : "?");
	}
	free(cause);
	query_free(q);
	return (s);
}

#endif /* TRANSFORM_TEST_H */
