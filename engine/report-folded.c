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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "display.h"
#include "profile.h"
#include "query.h"
#include "report.h"
#include "writer.h"

/*
 * cmd=folded: the profile as folded stacks (writer-folded.c), for
 * flamegraph.pl, inferno, speedscope and the Firefox profiler. maxdepth=
 * cuts stacks, order=time writes the sample sequence (a flame chart's
 * input), modules=0 leaves the module` prefixes out. The text is the "text" member, which format=folded writes as
 * it is.
 */

static json_t	*folded_create(const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
static struct display *folded_display(const json_t *, const struct query *);

const struct report_entry report_folded_entry = {
	.name = "folded",
	.title = "Folded stacks",
	.formats = "folded|json",
	.create_json = folded_create,
	.display_json = folded_display,
};

static json_t *
folded_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	struct writer_options	 o;
	int			 m;

	if ((m = report_metric(p, q, e)) == -1)
		return (NULL);
	memset(&o, 0, sizeof o);
	o.metric = m;
	o.maxdepth = (uint32_t)query_int(q, QUERY_MAXDEPTH);
	o.time_order = strcmp(query_str(q, QUERY_ORDER), "time") == 0;
	o.no_modules = !query_int(q, QUERY_MODULES);
	return (report_export(p, "folded", writer_folded, &o, e));
}

static struct display *
folded_display(const json_t *j, const struct query *q)
{
	return (report_export_display(j, "Folded stacks"));
}
