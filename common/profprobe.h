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

#ifndef PROFPROBE_H
#define PROFPROBE_H

/*
 * Is a file a profile deepq reads, and of which format? The listing's
 * question (the profile index, profindex.c), answered without the
 * engine: deepq.cgi links no reader. The first decoded bytes of a file
 * (through gzip, zlib, zstd or xz, decoded here, a bounded head only)
 * are scored by a table of content rules, one per reader and named as
 * the readers are (engine/reader.c picks the same way, by content, the
 * highest score winning), and the files other tools write that the
 * readers refuse (perf.data, JFR, node --prof logs...) are not profiles.
 * tests/unit/test-profprobe.c holds the two in agreement on every file
 * of tests/data and every fuzz seed.
 */

#include <stddef.h>
#include <sys/types.h>

/* The head scored: the readers' probe size (READER_PROBE_BYTES). */
#define PROFPROBE_HEAD		65536
/* Compressed bytes read at most to decode that head. */
#define PROFPROBE_MAX_IN	(1024 * 1024)
/* Milliseconds one file's decoding may take at most. */
#define PROFPROBE_MAX_MS	250

/* Bump when a rule changes: cached verdicts (profindex.c) are dropped. */
#define PROFPROBE_VERSION	1

const char	*profprobe_head(const char *, size_t);
ssize_t		 profprobe_read(int, char *, size_t, const char **);
const char	*profprobe_fd(int, char *);
int		 profprobe_format_id(const char *);
const char	*profprobe_format_name(int);

#endif /* PROFPROBE_H */
