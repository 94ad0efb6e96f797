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

#ifndef TRANSFORM_FILTER_H
#define TRANSFORM_FILTER_H

/*
 * What a filter selects (focus=, ignore=, hide=, show=, exclude=,
 * min_ticks=, min_words=): the functions its regex or list names and the
 * nodes below its thresholds. The tree rewrite (transform-apply.c) and
 * the path mapping (transform-path.c) both ask here, so that a path
 * mapped through a filter names the node the filtered tree has.
 */

#include <stddef.h>
#include <stdint.h>

struct cost;
struct profile;
struct transform;

int	transform_filter_select(const struct profile *,
	    const struct transform *, const uint32_t *, size_t, struct cost *,
	    uint8_t **, char **);
int	transform_filter_prune_metrics(const struct profile *,
	    const struct transform *, int *, int *);
int	transform_filter_pruned(const struct profile *,
	    const struct transform *, uint32_t);

#endif /* TRANSFORM_FILTER_H */
