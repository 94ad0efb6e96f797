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

#include "compat.h"
#include "cost.h"
#include "funcnodes.h"
#include "profile.h"

/* The per-function node index (see funcnodes.h). */

struct funcnodes {
	uint32_t	 nfuncs;
	uint32_t	*off;		/* [nfuncs + 1]: f's bytes start */
	uint8_t		*bytes;		/* the gaps, function by function */
};

/*
 * Building is two passes over node_func[] (sequential reads, writes to
 * one place per function), charged as two scans of it: a unit per
 * FUNCNODES_COST nodes, as aggregate.c charges its scan.
 */
#define FUNCNODES_COST	16

/* The bytes a gap takes, 7 bits a byte. */
static inline size_t
funcnodes_len(uint32_t g)
{
	return (g < 1U << 7 ? 1 : g < 1U << 14 ? 2 : g < 1U << 21 ? 3 :
	    g < 1U << 28 ? 4 : 5);
}

/*
 * The index of profile p; NULL if out of memory or over the budget
 * cost (NULL: none), or if its bytes would pass 4 GB (some 10^9 nodes;
 * a butterfly then scans instead).
 */
struct funcnodes *
funcnodes_create(const struct profile *p, struct cost *cost)
{
	const uint32_t		*func = p->node_func;
	struct funcnodes	*fn = NULL;
	uint64_t		*size = NULL, at;
	uint32_t		*last = NULL, n, f, g, nf = p->nfuncs;
	uint8_t			*w;

	if (cost_charge(cost, (uint64_t)p->nnodes / FUNCNODES_COST * 2 +
	    nf) == -1)
		return (NULL);
	if ((fn = calloc(1, sizeof *fn)) == NULL ||
	    (fn->off = calloc((size_t)nf + 1, sizeof *fn->off)) == NULL ||
	    (size = calloc(nf ? nf : 1, sizeof *size)) == NULL ||
	    (last = calloc(nf ? nf : 1, sizeof *last)) == NULL)
		goto fail;
	fn->nfuncs = nf;
	/* Each function's bytes; its first gap is from node 0. */
	for (n = 0; n < p->nnodes; n++) {
		f = func[n];
		size[f] += funcnodes_len(n - last[f]);
		last[f] = n;
	}
	for (f = 0, at = 0; f < nf; f++) {
		fn->off[f] = (uint32_t)at;
		at += size[f];
		if (at > UINT32_MAX)
			goto fail;
	}
	fn->off[nf] = (uint32_t)at;
	if ((fn->bytes = malloc(at ? at : 1)) == NULL)
		goto fail;
	/* Written at once: huge pages where the system gives them. */
	compat_hugepages(fn->bytes, at);
	/* Where each function's next gap goes, in size[]. */
	for (f = 0; f < nf; f++) {
		size[f] = fn->off[f];
		last[f] = 0;
	}
	for (n = 0; n < p->nnodes; n++) {
		f = func[n];
		g = n - last[f];
		last[f] = n;
		w = fn->bytes + size[f];
		while (g >= 0x80) {
			*w++ = (uint8_t)(g | 0x80);
			g >>= 7;
		}
		*w++ = (uint8_t)g;
		size[f] = (uint64_t)(w - fn->bytes);
	}
	free(size);
	free(last);
	return (fn);
fail:
	free(size);
	free(last);
	funcnodes_free(fn);
	return (NULL);
}

/* Free an index. */
void
funcnodes_free(struct funcnodes *fn)
{
	if (fn == NULL)
		return;
	free(fn->off);
	free(fn->bytes);
	free(fn);
}

/* Bytes an index holds. */
size_t
funcnodes_memory(const struct funcnodes *fn)
{
	return (sizeof *fn + ((size_t)fn->nfuncs + 1) * sizeof *fn->off +
	    fn->off[fn->nfuncs]);
}

/*
 * At most how many nodes function f has (each takes a byte at least):
 * room enough for funcnodes_decode(). 0 if f is no function.
 */
size_t
funcnodes_most(const struct funcnodes *fn, uint32_t f)
{
	if (f >= fn->nfuncs)
		return (0);
	return (fn->off[f + 1] - fn->off[f]);
}

/*
 * Function f's call nodes, in increasing order, into v (room for
 * funcnodes_most() of them); their number.
 */
size_t
funcnodes_decode(const struct funcnodes *fn, uint32_t f, uint32_t *v)
{
	const uint8_t	*b, *end;
	uint32_t	 node = 0, g;
	unsigned	 shift;
	size_t		 k = 0;

	if (f >= fn->nfuncs)
		return (0);
	b = fn->bytes + fn->off[f];
	end = fn->bytes + fn->off[f + 1];
	while (b < end) {
		g = 0;
		shift = 0;
		/* The index is ours and whole: every gap ends in range. */
		while (*b & 0x80) {
			g |= (uint32_t)(*b++ & 0x7f) << shift;
			shift += 7;
		}
		g |= (uint32_t)*b++ << shift;
		node += g;
		v[k++] = node;
	}
	return (k);
}
