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
#include <string.h>

#include <jansson.h>

#include "profile.h"
#include "query.h"
#include "report.h"
#include "writer.h"

/*
 * cmd=speedscope: the profile in speedscope's JSON file format
 * (writer-speedscope.c), a profile per metric, metric= the one speedscope
 * opens first. The text is the "text" member, which format=speedscope
 * writes as it is.
 */

static json_t	*speedscope_create(const struct profile *,
		    const struct query *, const struct report_context *,
		    struct report_error *);
static struct display *speedscope_display(const json_t *,
		    const struct query *);

const struct report_entry report_speedscope_entry = {
	.name = "speedscope",
	.title = "speedscope file",
	.formats = "speedscope|json",
	.create_json = speedscope_create,
	.display_json = speedscope_display,
};

static json_t *
speedscope_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	struct writer_options	 o;
	int			 m;

	if ((m = report_metric(p, q, e)) == -1)
		return (NULL);
	memset(&o, 0, sizeof o);
	o.metric = m;
	return (report_export(p, "speedscope", writer_speedscope, &o, e));
}

static struct display *
speedscope_display(const json_t *j, const struct query *q)
{
	return (report_export_display(j, "speedscope file"));
}
