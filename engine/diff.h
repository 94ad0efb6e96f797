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

#ifndef DIFF_H
#define DIFF_H

/*
 * Profile comparison (base=). The current profile and the base profile
 * are merged into one profile whose functions are matched by name and
 * module and whose call nodes are matched by their function path, never
 * by ids (the two files number things differently). The current
 * profile's functions keep their ids, so func= and path= in a query mean
 * the same in the merged profile. The base's values of the compared
 * metric become a metric named "base", the same shape a differential
 * folded file (two counts per line) is read into; every report then
 * compares metric m with "base" through struct diff.
 */

#include <stdint.h>

#include <jansson.h>

struct display;
struct display_block;
struct profile;
struct query;
struct report_error;

#define DIFF_METRIC	"base"

struct diff {
	int		 m;		/* compared metric, current profile */
	int		 bm;		/* its base values */
	int		 normalize;
	double		 scale;		/* base values are multiplied by it */
};

struct profile	*diff_merge(const struct profile *, const struct profile *,
		     const char *, int *, char **);
int		 diff_init(struct diff *, const struct profile *,
		     const struct query *);
int64_t		 diff_base(const struct diff *, int64_t);
json_t		*diff_values(const struct diff *, int64_t, int64_t);
int		 diff_add(json_t *, const struct profile *,
		     const struct diff *, int, uint32_t);
int		 diff_add_values(json_t *, const struct diff *,
		     const int64_t *, const int64_t *);
int		 diff_summary(json_t *, const struct profile *,
		     const struct diff *);
int		 diff_sort(int, const struct query *);
int		 diff_report_sort(const struct diff *, int,
		     const struct profile *, const struct query *, int, int *,
		     struct report_error *);
void		 diff_keys(const struct diff *, int, const int64_t *,
		     const int64_t *, size_t, uint32_t, int64_t *);
int		 diff_key(const struct diff *, const struct profile *, int,
		     int, int64_t *);
uint32_t	 diff_head(struct display *, struct display_block *,
		     uint32_t);
void		 diff_row(struct display *, struct display_block *,
		     size_t, uint32_t, const struct diff *, int64_t, int64_t,
		     int64_t, int64_t);
void		 diff_text(struct display *, const struct profile *,
		     const struct diff *, const char *);
void		 diff_controls(struct display *, const struct query *, int);
void		 diff_head_sort(struct display *, struct display_block *,
		     uint32_t, const struct query *);

#define DIFF_COLUMNS	4

#define DIFF_SORT_DELTA	0
#define DIFF_SORT_RATIO	1

#endif /* DIFF_H */
