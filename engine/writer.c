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

#include <stddef.h>

#include "writer.h"

/*
 * The writers: each export format of the catalog (common/catalog.c,
 * CATALOG_EXPORT) bound to its writer-<format>.c, for the export reports
 * (report-export.c) and deepq convert alike. tests/unit/test-catalog.c
 * checks that every export format has one and no other format does.
 */

static const struct writer writer_table[FMT_N] = {
	[FMT_FOLDED] = { writer_folded, 0 },
	[FMT_CALLGRIND] = { writer_callgrind, 0 },
	[FMT_PPROF] = { writer_pprof, 1 },
	[FMT_SPEEDSCOPE] = { writer_speedscope, 0 },
};

/* The writer of a format, or NULL if it is no export format. */
const struct writer *
writer_find(enum catalog_fmt fmt)
{
	if ((unsigned)fmt >= FMT_N || writer_table[fmt].write == NULL)
		return (NULL);
	return (&writer_table[fmt]);
}
