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

#include <stdlib.h>
#include <string.h>

#include "cause.h"
#include "pattern.h"
#include "profile.h"
#include "transform.h"
#include "transform-filter.h"

static int	transform_filter_match(const struct profile *,
		    const struct transform *, uint32_t, struct cost *, char **);
static int	transform_filter_exclude(const struct profile *,
		    const struct transform *, uint8_t *, char **);
static int	transform_filter_metric(const struct profile *, const char *,
		    const char *, const char *);

/*
 * The functions a function filter (focus=, ignore=, hide=, show=,
 * exclude=) selects, as a new *match of one flag per function of p:
 * exclude='s list, or the regex tried on funcs[0..n) (ids past p's are
 * skipped), or on every function when funcs is NULL, each match charged
 * to c (NULL: no limit). Returns 0, or the status of the failure with
 * *cause: 500 out of memory, 400 an exclude= name p does not have, 503
 * a match that failed (the budget ran out: cost_over(c) tells).
 */
int
transform_filter_select(const struct profile *p, const struct transform *t,
    const uint32_t *funcs, size_t n, struct cost *c, uint8_t **match,
    char **cause)
{
	uint8_t		*m;
	uint32_t	 f;
	size_t		 i;
	int		 r;

	if ((*match = m = calloc(p->nfuncs ? p->nfuncs : 1, 1)) == NULL) {
		cause_set(cause, "out of memory");
		return (500);
	}
	if (t->kind == TRANSFORM_EXCLUDE)
		return (transform_filter_exclude(p, t, m, cause) == -1 ? 400 :
		    0);
	for (i = funcs != NULL ? 0 : 1; i < (funcs != NULL ? n : p->nfuncs);
	    i++) {
		if ((f = funcs != NULL ? funcs[i] : (uint32_t)i) >= p->nfuncs)
			continue;
		if ((r = transform_filter_match(p, t, f, c, cause)) == -1)
			return (503);
		m[f] = (uint8_t)r;
	}
	return (0);
}

/*
 * Does a filter's regex match function f (name, module or file)? 1 or 0;
 * -1 with *cause if the match or the budget ran out.
 */
static int
transform_filter_match(const struct profile *p, const struct transform *t,
    uint32_t f, struct cost *c, char **cause)
{
	const char	*s;
	int		 r;

	s = profile_func_name(p, f);
	if ((r = pattern_match(t->re, s, strlen(s), c, cause)) != 0)
		return (r > 0 ? 1 : -1);
	if (*(s = profile_func_module(p, f)) != '\0' &&
	    (r = pattern_match(t->re, s, strlen(s), c, cause)) != 0)
		return (r > 0 ? 1 : -1);
	if (p->func_file[f] != 0 &&
	    *(s = profile_string(p, p->func_file[f])) != '\0' &&
	    (r = pattern_match(t->re, s, strlen(s), c, cause)) != 0)
		return (r > 0 ? 1 : -1);
	return (0);
}

/* Mark the functions of an exclude= list; -1 with *cause if one is unknown. */
static int
transform_filter_exclude(const struct profile *p, const struct transform *t,
    uint8_t *match, char **cause)
{
	const char	*s = t->arg, *comma;
	char		*one;
	uint32_t	 f;

	while (*s != '\0') {
		comma = strchr(s, ',');
		if ((one = strndup(s, comma ? (size_t)(comma - s) :
		    strlen(s))) == NULL) {
			cause_set(cause, "out of memory");
			return (-1);
		}
		if (*one != '\0') {
			if ((f = profile_func_find(p, one)) == PROFILE_NONE) {
				cause_set(cause, "exclude: no function %s",
				    one);
				free(one);
				return (-1);
			}
			match[f] = 1;
		}
		free(one);
		s = comma ? comma + 1 : s + strlen(s);
	}
	return (0);
}

/*
 * The metric a threshold applies to: one named name, else one with unit
 * unit, else one named alt; -1 if none.
 */
static int
transform_filter_metric(const struct profile *p, const char *name,
    const char *unit, const char *alt)
{
	uint32_t	 k;
	int		 m;

	if ((m = profile_metric_find(p, name)) != -1)
		return (m);
	for (k = 0; k < p->nmetrics; k++) {
		if (unit != NULL && strcmp(p->metrics[k].unit, unit) == 0)
			return ((int)k);
	}
	if (alt != NULL && (m = profile_metric_find(p, alt)) != -1)
		return (m);
	return (-1);
}

/*
 * The metrics of min_ticks (one named "ticks", else the first) and
 * min_words (words, else bytes); -1 for a threshold not given. Returns
 * -1 if min_words is given and the profile has neither.
 */
int
transform_filter_prune_metrics(const struct profile *p,
    const struct transform *t, int *mticks, int *mwords)
{
	*mticks = *mwords = -1;
	if (t->min_ticks > 0 &&
	    (*mticks = transform_filter_metric(p, "ticks", NULL, NULL)) == -1)
		*mticks = 0;
	if (t->min_words > 0 &&
	    (*mwords = transform_filter_metric(p, "words", "words",
	    "alloc")) == -1 &&
	    (*mwords = transform_filter_metric(p, "bytes", "bytes",
	    NULL)) == -1)
		return (-1);
	return (0);
}

/* Is node n below a pruning threshold (Clean's --min-ticks/--min-words)? */
int
transform_filter_pruned(const struct profile *p, const struct transform *t,
    uint32_t n)
{
	int	 mt, mw;

	if (transform_filter_prune_metrics(p, t, &mt, &mw) == -1)
		return (0);
	return ((mt >= 0 && p->metrics[mt].total[n] < t->min_ticks) ||
	    (mw >= 0 && p->metrics[mw].total[n] < t->min_words));
}
