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

#ifndef TRANSFORM_H
#define TRANSFORM_H

/*
 * Call-tree transforms (the Firefox profiler's vocabulary) and filters
 * (pprof's regex filters, Clean's pruning). A query's filters and its
 * t= stack are parsed into one struct transform_stack, filters first, in
 * the order they apply. Applying a transform to a read-only profile
 * builds a new read-only profile through profile_builder, so inclusive
 * values, per-function values and "recursion counted once" are computed
 * exactly as for a profile read from a file. Function ids are kept:
 * function f of the input is function f of the output (a collapsed
 * module adds pseudo-functions after them), so call node paths, which
 * are lists of function ids, stay meaningful across transforms.
 *
 * The t= syntax (deepq-query(7)): a version, then items separated by
 * '~', each a key and an optional '-' argument: "1~mcn-1,2,3~mf-7~inv".
 *
 * One header for the files of the transforms, one concern each:
 * transform.c (the notation: the stack parsed and printed),
 * transform-apply.c (the tree rewrite), transform-path.c (a call node
 * path carried through a transform, for links made before it applies)
 * and transform-display.c (breadcrumbs, and links that push a
 * transform). What a filter selects, which the rewrite and the path
 * mapping must agree on, is transform-filter.c's (transform-filter.h,
 * for those two only).
 */

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "query.h"

#define TRANSFORM_VERSION	1
#define TRANSFORM_MAX		32	/* transforms and filters in a stack */

struct display;
struct cost;
struct pattern;
struct profile;
struct profile_builder;
struct transform_want;

enum transform_kind {
	TRANSFORM_FOCUS_SUBTREE,	/* fs-PATH */
	TRANSFORM_FOCUS_FUNCTION,	/* ff-F */
	TRANSFORM_MERGE_CALL_NODE,	/* mcn-PATH */
	TRANSFORM_MERGE_SUBTREE,	/* ms-PATH */
	TRANSFORM_MERGE_FUNCTION,	/* mf-F */
	TRANSFORM_DROP_FUNCTION,	/* df-F */
	TRANSFORM_COLLAPSE_SUBTREE,	/* cfs-F */
	TRANSFORM_COLLAPSE_DIRECT_REC,	/* drec or drec-F */
	TRANSFORM_COLLAPSE_REC,		/* rec or rec-F */
	TRANSFORM_COLLAPSE_MODULE,	/* cm-F: F's module */
	TRANSFORM_INVERT,		/* inv */
	/* Filters: from their own query keys, applied before t=. */
	TRANSFORM_FOCUS_RE,		/* focus= */
	TRANSFORM_IGNORE_RE,		/* ignore= */
	TRANSFORM_HIDE_RE,		/* hide= */
	TRANSFORM_SHOW_RE,		/* show= */
	TRANSFORM_PRUNE,		/* min_ticks=, min_words= */
	TRANSFORM_EXCLUDE,		/* exclude= */
	TRANSFORM_NKINDS
};

/* What follows a t= key's '-'. */
enum transform_arg {
	TRANSFORM_ARG_NONE,
	TRANSFORM_ARG_PATH,		/* a call node path: fs-1,2,3 */
	TRANSFORM_ARG_FUNC,		/* a function id: mf-7 */
	TRANSFORM_ARG_OPTFUNC,		/* an optional function id: rec */
	TRANSFORM_ARG_FILTER		/* none: a filter, from its own key */
};

struct transform {
	enum transform_kind	 kind;
	uint32_t		 func;	/* PROFILE_NONE: every function */
	uint32_t		*path;
	size_t			 npath;
	char			*arg;	/* regex source or exclude list */
	struct pattern		*re;
	int64_t			 min_ticks, min_words;
};

struct transform_stack {
	struct transform	*v;
	size_t			 n;
	size_t			 nfilters;	/* v[0..nfilters) are filters */
	struct transform_want	*want;		/* the answer's paths */
	int			 exact;		/* no bounded inversion */
	uint32_t		 bound;		/* tests: bounded, this many nodes */
	int			 times;		/* carry the timeline through
						   (a report draws time) */
};

/*
 * transform.c: the notation. A query's filters and t= parsed into a stack,
 * and printed back: t= items, labels for people, the stack as JSON.
 */
struct transform_stack *transform_parse(const struct query *, int *,
		    char **);
int		 transform_parse_item(const char *, struct transform *,
		    char **);
void		 transform_stack_free(struct transform_stack *);
char		*transform_stack_format(const struct transform_stack *,
		    size_t);
void		 transform_clear(struct transform *);
const char	*transform_kind_name(enum transform_kind);
const char	*transform_kind_key(enum transform_kind);
enum transform_arg transform_kind_arg(enum transform_kind);
enum query_key	 transform_kind_query_key(enum transform_kind);
char		*transform_item(const struct transform *);
char		*transform_label(const struct profile *,
		    const struct transform *);
json_t		*transform_json(const struct profile *,
		    const struct transform_stack *);

/* transform-apply.c: the tree rewrite, a new profile per transform. */
struct profile	*transform_apply(const struct profile *,
		    const struct transform_stack *, struct cost *, int *,
		    char **);

/*
 * transform-invert.c: the inversion of a profile too large to invert
 * whole, bounded for a page, and the paths the answer will look at.
 */
int		 transform_invert_bounded(const struct profile *,
		    const uint32_t *, uint32_t, const struct transform_want *,
		    uint32_t, struct profile_builder *, uint32_t *, struct cost *, int *,
		    char **);
struct transform_want *transform_want_create(const struct query *);
struct transform_want *transform_want_at(const struct transform_stack *,
		    size_t);
void		 transform_want_free(struct transform_want *);

/* transform-path.c: a call node path carried through one transform. */
int		 transform_path_map(const struct profile *,
		    const struct transform *, const uint32_t *, size_t,
		    uint32_t **, size_t *);

/* transform-display.c: the stack on a page, breadcrumbs and links. */
char		*transform_display_push_link(const struct profile *,
		    const struct query *, const char *);
void		 transform_display(struct display *, const struct profile *,
		    const struct query *, const struct transform_stack *);

#endif /* TRANSFORM_H */
