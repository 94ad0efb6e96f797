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

#ifndef CACHE_H
#define CACHE_H

/*
 * The processed-profile cache: a loaded profile written to one file that
 * a later server maps read-only and uses in place, so a server restarted
 * after its idle timeout is ready at once. The file is versioned and
 * checksummed, and names the source file's size, mtime, inode and device:
 * a cache that does not match its source, or that is corrupt in any way,
 * is refused (the caller then reloads from the source), never used.
 */

#include <sys/stat.h>

struct callgraph;
struct profile;

#define CACHE_VERSION	9	/* 2: each metric's rate; 3: 4-lane checksum;
				   4: the call graph's edges; 5: checksum
				   in blocks, with the header; 6: the exact
				   function graph (funcgraph.h); 7: the
				   timeline (times and threads); 8: the
				   costs by source line; 9: the samples'
				   weights at their width (1-8 bytes) */

int		 cache_write(const struct profile *, const struct callgraph *,
		     const char *, const struct stat *, char **);
struct profile	*cache_load(const char *, const struct stat *, char **);

#endif /* CACHE_H */
