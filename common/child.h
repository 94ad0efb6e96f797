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


#ifndef CHILD_H
#define CHILD_H

/*
 * What every process deepq starts does to itself, in one place: the
 * environment it keeps (an allowlist, nothing of the request that
 * started it), the descriptors it closes, and its tie to the process
 * that started it (it dies with it, and within its own CPU time). The
 * starters: client-spawn.c (the server, through exec), deepq-server.c
 * (detaching itself), server-worker.c and server-base.c (workers and
 * loaders), decompress.c (the decoding process), and the cache writer.
 */

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

/* The most entries child_env fills, its NULL included. */
#define CHILD_ENV_MAX	8

size_t	child_env(char **, size_t);
int	child_env_reset(void);
void	child_closefrom(int, const int *, size_t);
int	child_tie(pid_t);
void	child_limit_cpu(unsigned int);
int	child_limit_memory(uint64_t);

#endif /* CHILD_H */
