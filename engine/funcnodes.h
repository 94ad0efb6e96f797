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

#ifndef FUNCNODES_H
#define FUNCNODES_H

/*
 * The per-function node index: each function's call nodes in increasing
 * order, so that a function's page (a butterfly, aggregate.c) finds its
 * nodes without a pass over every node. Built once per profile and kept
 * by the profile's index (profile-index.c).
 *
 * A function's nodes are stored as the gaps between them (the first from
 * node 0), each in 7-bit groups (LEB128): the nodes of a function are
 * spread over the profile, and their gaps take 1 to 3 bytes where the
 * node numbers themselves take 4, which pays for most of the index in
 * the bytes-per-node budget. Decoding reads the function's bytes in
 * order.
 */

#include <stddef.h>
#include <stdint.h>

struct cost;
struct funcnodes;
struct profile;

struct funcnodes *funcnodes_create(const struct profile *, struct cost *);
void		 funcnodes_free(struct funcnodes *);
size_t		 funcnodes_memory(const struct funcnodes *);
size_t		 funcnodes_most(const struct funcnodes *, uint32_t);
size_t		 funcnodes_decode(const struct funcnodes *, uint32_t,
		    uint32_t *);

#endif /* FUNCNODES_H */
