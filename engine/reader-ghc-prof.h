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


#ifndef READER_GHC_PROF_H
#define READER_GHC_PROF_H

/*
 * Pieces of the GHC .prof text reader that the GHC JSON reader and the
 * unit tests share: the column layout of the call-tree table, one row
 * split into its fields, and a SRC span split into file and line.
 */

#include <stddef.h>
#include <stdint.h>

/*
 * Column starts of the call-tree table, in code points as the RTS counts
 * them (every byte that is not a UTF-8 continuation byte), taken from the
 * header line "COST CENTRE  MODULE  SRC  no.  entries ...".
 */
struct ghc_prof_columns {
	size_t		 module;	/* start of MODULE */
	size_t		 src;		/* start of SRC; 0 if absent (GHC 7) */
	int		 verbose;	/* -P: ticks and bytes columns */
	int		 nnum;		/* numeric fields at the right: 6 or 8 */
};

/* One row of the call tree; strings point into the line (not terminated). */
struct ghc_prof_row {
	size_t		 depth;		/* leading spaces */
	const char	*label;
	size_t		 labellen;
	const char	*module;
	size_t		 modlen;
	const char	*src;
	size_t		 srclen;
	uint64_t	 no;		/* cost-centre stack id */
	int64_t		 entries;
	int		 pct[4];	/* tenths: ind %time %alloc, inh ... */
	int64_t		 ticks;		/* -P only, else -1 */
	int64_t		 bytes;		/* -P only, else -1 */
	int		 aligned;	/* fields were where the header says */
};

int	 reader_ghc_prof_columns(const char *, size_t,
	     struct ghc_prof_columns *);
int	 reader_ghc_prof_row(const struct ghc_prof_columns *, const char *,
	     size_t, struct ghc_prof_row *, const char **);
size_t	 reader_ghc_prof_srcloc(const char *, size_t, uint32_t *);

#endif /* READER_GHC_PROF_H */
