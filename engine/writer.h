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


#ifndef WRITER_H
#define WRITER_H

/*
 * Writers: a profile out to a file format other tools read. They write
 * straight into an output buffer (outbuf.h): a file descriptor's sink for
 * deepq convert, which writes files of any size without building them in
 * memory, or the answer's body for the export reports (report-export.c).
 * They return -1 on a failed buffer (a write error, the query's deadline)
 * or a profile that cannot be written in the format, with *cause set.
 */

#include <stddef.h>
#include <stdint.h>

#include "catalog.h"
#include "cost.h"
#include "outbuf.h"

struct profile;

struct writer_options {
	int		 metric;	/* metric index */
	uint32_t	 maxdepth;	/* 0: no limit */
	int		 time_order;	/* folded: the sample sequence */
	int		 no_modules;	/* folded: frames without module` */
	/*
	 * The query's budget (NULL: none), charged as the writer goes, so
	 * that an export stops (and the server moves it to a worker) like
	 * any report; and the most bytes the output may be (0: no limit),
	 * which a writer that can tell in advance refuses at once
	 * (outbuf_fail_size) rather than after writing them.
	 */
	struct cost	*cost;
	size_t		 max_bytes;
};

/*
 * Charge n units of work: 0, or -1 once the budget is spent, the buffer
 * then failed so that every loop of the writer stops.
 */
static inline int
writer_charge(const struct writer_options *o, struct outbuf *ob, uint64_t n)
{
	if (cost_charge(o->cost, n) == 0)
		return (0);
	outbuf_fail(ob);
	return (-1);
}

/*
 * A writer, the code of an export format of the catalog (CATALOG_EXPORT):
 * the profile written in the format; -1 with *cause on failure.
 */
struct writer {
	int	(*write)(struct outbuf *, const struct profile *,
		    const struct writer_options *, char **);
	int	 binary;	/* not text: base64 in a JSON answer */
};

const struct writer *writer_find(enum catalog_fmt);

int	writer_folded(struct outbuf *, const struct profile *,
	    const struct writer_options *, char **);
int	writer_callgrind(struct outbuf *, const struct profile *,
	    const struct writer_options *, char **);
int	writer_pprof(struct outbuf *, const struct profile *,
	    const struct writer_options *, char **);
int	writer_speedscope(struct outbuf *, const struct profile *,
	    const struct writer_options *, char **);

#endif /* WRITER_H */
