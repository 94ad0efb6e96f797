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

#include "profile.h"
#include "transform.h"
#include "transform-filter.h"

/*
 * A call node path carried through one transform, so that a link which
 * pushes a transform (transform-display.c) keeps path= and open= on the
 * same nodes in the transformed tree. The rules mirror the tree rewrite
 * of transform-apply.c kind by kind, and ask transform-filter.c what a
 * filter selects, as the rewrite does.
 */

/*
 * The kinds that keep, drop or reorder the path's own entries: focus,
 * merge, drop, collapse of a subtree, invert. o has room for n; *k gets
 * its length. 0 if the node does not survive.
 */
static int
transform_path_cut(const struct transform *t, const uint32_t *in,
    size_t n, uint32_t *o, size_t *kp)
{
	size_t		 i, k = 0;
	int		 prefix;

	prefix = transform_kind_arg(t->kind) == TRANSFORM_ARG_PATH &&
	    n >= t->npath && memcmp(in, t->path, t->npath * sizeof *in) == 0;
	switch (t->kind) {
	case TRANSFORM_FOCUS_SUBTREE:
		if (!prefix)
			return (0);
		for (i = t->npath - 1; i < n; i++)
			o[k++] = in[i];
		break;
	case TRANSFORM_FOCUS_FUNCTION:
		for (i = 0; i < n && in[i] != t->func; i++)
			;
		if (i == n)
			return (0);
		for (; i < n; i++)
			o[k++] = in[i];
		break;
	case TRANSFORM_MERGE_CALL_NODE:
		for (i = 0; i < n; i++) {
			if (!prefix || i != t->npath - 1)
				o[k++] = in[i];
		}
		break;
	case TRANSFORM_MERGE_SUBTREE:
		for (i = 0; i < n && (!prefix || i < t->npath - 1); i++)
			o[k++] = in[i];
		break;
	case TRANSFORM_MERGE_FUNCTION:
		for (i = 0; i < n; i++) {
			if (in[i] != t->func)
				o[k++] = in[i];
		}
		break;
	case TRANSFORM_DROP_FUNCTION:
		for (i = 0; i < n; i++) {
			if (in[i] == t->func)
				return (0);
			o[k++] = in[i];
		}
		break;
	case TRANSFORM_COLLAPSE_SUBTREE:
		for (i = 0; i < n; i++) {
			o[k++] = in[i];
			if (in[i] == t->func)
				break;
		}
		break;
	case TRANSFORM_INVERT:
		for (i = n; i > 0; i--)
			o[k++] = in[i - 1];
		break;
	default:
		/* The other kinds have helpers of their own. */
		break;
	}
	*kp = k;
	return (1);
}

/*
 * Collapsing recursion (direct, or through other functions): a function
 * met again cuts the path back to its first call. Always survives.
 */
static size_t
transform_path_rec(const struct transform *t, const uint32_t *in,
    size_t n, uint32_t *o)
{
	uint32_t	 f;
	size_t		 i, j, k = 0;

	if (t->kind == TRANSFORM_COLLAPSE_DIRECT_REC) {
		for (i = 0; i < n; i++) {
			if (i > 0 && in[i] == in[i - 1] &&
			    (t->func == PROFILE_NONE || in[i] == t->func))
				continue;
			o[k++] = in[i];
		}
		return (k);
	}
	for (i = 0; i < n; i++) {
		f = in[i];
		j = k;
		if (t->func == PROFILE_NONE || f == t->func) {
			for (j = 0; j < k && o[j] != f; j++)
				;
		}
		if (j < k)
			k = j + 1;
		else
			o[k++] = f;
	}
	return (k);
}

/*
 * Collapsing t->func's module: each run of its functions becomes the
 * module's pseudo-function. 0 if t->func is not a function of before.
 */
static int
transform_path_module(const struct profile *before,
    const struct transform *t, const uint32_t *in, size_t n, uint32_t *o,
    size_t *kp)
{
	uint32_t	 f, mod, pseudo;
	size_t		 i, k = 0;

	if (t->func >= before->nfuncs)
		return (0);
	mod = before->func_module[t->func];
	/* The pseudo-function's id, as transform_apply_one makes it. */
	pseudo = before->nfuncs;
	for (f = 0; f < before->nfuncs; f++) {
		if (before->func_module[f] == mod && strcmp(
		    profile_func_name(before, f),
		    profile_string(before, mod)) == 0) {
			pseudo = f;
			break;
		}
	}
	for (i = 0; i < n; i++) {
		if (in[i] >= before->nfuncs ||
		    before->func_module[in[i]] != mod)
			o[k++] = in[i];
		else if (k == 0 || o[k - 1] != pseudo)
			o[k++] = pseudo;
	}
	*kp = k;
	return (1);
}

/*
 * The filters (focus, ignore, hide and show by pattern, exclude), as
 * transform-filter.c selects. 0 if the node does not survive, -1 if out
 * of memory.
 */
static int
transform_path_filter(const struct profile *before,
    const struct transform *t, const uint32_t *in, size_t n, uint32_t *o,
    size_t *kp)
{
	uint32_t	 f;
	size_t		 i, k = 0;
	int		 m, r = 1;
	uint8_t		*match = NULL;
	char		*why = NULL;

	/*
	 * A path is short (QUERY_MAX_PATH) and each match bounded; one that
	 * fails loses the path.
	 */
	if ((m = transform_filter_select(before, t, in, n, NULL, &match,
	    &why)) == 500) {
		r = -1;
		goto done;
	}
	if (m != 0) {
		r = 0;
		goto done;
	}
	for (i = 0; i < n; i++) {
		f = in[i] < before->nfuncs ? match[in[i]] : 0;
		if (t->kind == TRANSFORM_EXCLUDE && f)
			break;
		if ((t->kind == TRANSFORM_HIDE_RE && f) ||
		    (t->kind == TRANSFORM_SHOW_RE && !f))
			continue;
		if (t->kind == TRANSFORM_IGNORE_RE && f) {
			r = 0;
			goto done;
		}
		o[k++] = in[i];
	}
	*kp = k;
done:
	free(match);
	free(why);
	return (r);
}

/* Pruning: the path up to the first node the prune removes. */
static size_t
transform_path_prune(const struct profile *before,
    const struct transform *t, const uint32_t *in, size_t n, uint32_t *o)
{
	uint32_t	 node = PROFILE_ROOT;
	size_t		 i, k = 0;

	for (i = 0; i < n; i++) {
		if ((node = profile_node_child(before, node,
		    in[i])) == PROFILE_NONE ||
		    transform_filter_pruned(before, t, node))
			break;
		o[k++] = in[i];
	}
	return (k);
}

/*
 * Map a call node path of the tree before transform t to the path of the
 * same node after it (after merging C, A>B>C>D>E is A>B>D>E).
 * Returns 1 with a new *out (possibly empty: the root), 0 if the node
 * does not survive, -1 if out of memory. before is the profile the path
 * refers to.
 */
int
transform_path_map(const struct profile *before, const struct transform *t,
    const uint32_t *in, size_t n, uint32_t **out, size_t *outn)
{
	uint32_t	*o;
	size_t		 k = 0;
	int		 r = 1;

	*out = NULL;
	*outn = 0;
	if ((o = calloc(n + 1, sizeof *o)) == NULL)
		return (-1);
	switch (t->kind) {
	case TRANSFORM_COLLAPSE_DIRECT_REC:
	case TRANSFORM_COLLAPSE_REC:
		k = transform_path_rec(t, in, n, o);
		break;
	case TRANSFORM_COLLAPSE_MODULE:
		r = transform_path_module(before, t, in, n, o, &k);
		break;
	case TRANSFORM_FOCUS_RE:
	case TRANSFORM_IGNORE_RE:
	case TRANSFORM_HIDE_RE:
	case TRANSFORM_SHOW_RE:
	case TRANSFORM_EXCLUDE:
		r = transform_path_filter(before, t, in, n, o, &k);
		break;
	case TRANSFORM_PRUNE:
		k = transform_path_prune(before, t, in, n, o);
		break;
	default:
		r = transform_path_cut(t, in, n, o, &k);
		break;
	}
	if (r != 1) {
		free(o);
		return (r);
	}
	*out = o;
	*outn = k;
	return (1);
}
