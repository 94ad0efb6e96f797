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

#ifndef READER_H
#define READER_H

/*
 * Profile readers. Each format is one file, reader-<format>.c, exporting
 * a const struct reader; reader.c keeps the table. The format of a file
 * is chosen by content: every reader's probe scores the first bytes and
 * the highest score wins. Never by file name.
 */

#include <stddef.h>
#include <stdint.h>

struct input;
struct profile;

#define READER_PROBE_BYTES	65536

struct reader_options {
	uint32_t	 max_nodes;	/* 0 = no limit beyond 32 bits */
	/*
	 * Reader-specific variant, comma-separated words (perf: "pid",
	 * "tid", "kernel", "jit", "all", "addrs", as stackcollapse-perf's
	 * options); NULL or "" for the format's defaults. A reader refuses
	 * words it does not know.
	 */
	const char	*variant;
};

struct reader {
	const char	*name;		/* "folded", "trace", "ghc-prof" */
	const char	*description;
	/* Score 0 (not this format) to 100 (certain) from the first bytes. */
	int		 (*probe)(const char *, size_t);
	/* Load from the start of the input; NULL with *cause on failure. */
	struct profile	*(*load)(struct input *, const struct reader_options *,
			     char **);
};

const struct reader	*reader_find(const char *);
const struct reader	*reader_detect(const char *, size_t);
const struct reader	*reader_detect_file(const char *);
int			 reader_refuse(const char *, size_t, const char **,
			     const char **);
void			 reader_refuse_describe(const char *, size_t, char *,
			     size_t);
struct profile		*reader_load(const char *, const char *,
			     const struct reader_options *, char **);
struct profile		*reader_load_input(struct input *, const char *,
			     const struct reader_options *, char **);

#endif /* READER_H */
