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

#ifndef SCC_H
#define SCC_H

/*
 * Strongly connected components of a directed graph in compressed rows
 * (the edges of vertex v are adj[off[v]] .. adj[off[v + 1] - 1]), by
 * Tarjan's algorithm run with explicit stacks, so a chain of a million
 * vertices needs no more C stack than a chain of two.
 */

#include <stdint.h>

#define SCC_NONE	UINT32_MAX

int64_t	 scc_tarjan(uint32_t, const uint32_t *, const uint32_t *,
	     uint32_t *);

#endif /* SCC_H */
