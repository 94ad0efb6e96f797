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

#ifndef VIEW_SCHEMA_H
#define VIEW_SCHEMA_H

/*
 * The tables deepq ingest writes and view files read
 * (deepq-clickhouse(7)), named from one name T: T the samples, T_stacks
 * each stack once by its hash, T_profiles one row per ingested profile
 * (its labels, time and metrics; written last, so that a profile whose
 * ingest broke off is never read). On a cluster, T_local, T_stacks_local
 * and T_profiles_local on every shard and the three Distributed tables
 * over them. Every statement as SQL text, for deepq ingest to run and
 * to print (--schema) for an administrator to run on each shard.
 */

#include <stdint.h>

struct outbuf;

#define VIEW_SCHEMA_SAMPLES	""
#define VIEW_SCHEMA_STACKS	"_stacks"
#define VIEW_SCHEMA_PROFILES	"_profiles"

/* The hash of a stack, a path of (function, module) frames. */
#define VIEW_STACK_SEED		0x84222325cbf29ce4ULL
#define VIEW_STACK_MUL		0x100000001b3ULL

void		 view_schema_name(struct outbuf *, const char *, const char *,
		     const char *);
int		 view_schema(struct outbuf *, const char *, const char *,
		     const char *, int);
int		 view_schema_migrate(struct outbuf *, const char *,
		     const char *, int);
uint64_t	 view_schema_frame(const char *, const char *);

/* The hash of a stack one frame deeper than parent's (root: the seed). */
static inline uint64_t
view_schema_stack(uint64_t parent, uint64_t frame)
{
	return (((parent << 5) | (parent >> 59)) ^ frame) * VIEW_STACK_MUL;
}

#endif /* VIEW_SCHEMA_H */
