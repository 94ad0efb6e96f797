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

#ifndef RANGE_H
#define RANGE_H

/*
 * range= and thread=: a profile restricted to the samples of a time
 * interval and/or of chosen threads, read from its timeline
 * (timeline.h). Like the transforms, the restriction is a derived
 * profile, made before them (answer-query.c), so every report, export
 * and transform sees only what happened then and there: each node's
 * values are what its records in the range give (a span cut at the
 * range's ends), the nodes no record in the range reaches are gone, and
 * function ids are those of the whole profile.
 *
 * base_range= restricts the base of a comparison the same way: the
 * profile itself, for before and after within one recording, or the
 * base= profile.
 *
 * range_apply_funcs() is the same restriction for a report that reads
 * only the functions' figures and the totals (cmd=top): a profile with
 * those and no tree, at a cost that follows the records in the range
 * and the nodes they touch (timeline-sums.h), not the profile's size.
 */

#include <stddef.h>
#include <stdint.h>

struct cost;
struct profile;
struct query;
struct timeline_sums;

struct range {
	int		 timed;		/* a time interval is given */
	double		 a, b;		/* seconds from the start */
	char		**threads;	/* thread= values */
	size_t		 nthreads;
};

int		 range_parse(const struct query *, int, struct range *, char **);
void		 range_clear(struct range *);
int		 range_active(const struct range *);
struct profile	*range_apply(const struct profile *, const struct range *,
		     int, struct cost *, int *, char **);
struct profile	*range_apply_funcs(const struct profile *,
		     const struct range *, const struct timeline_sums *,
		     struct cost *, int *, char **);
int		 range_clock(const struct profile *, const struct range *,
		     int64_t *, int64_t *);
uint8_t		*range_threads(const struct profile *, const struct range *,
		     int *, char **);

#endif /* RANGE_H */
