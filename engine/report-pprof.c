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

#include "base64.h"
#include "profile.h"
#include "query.h"
#include "report.h"
#include "writer.h"

/*
 * cmd=pprof: the profile as a gzipped profile.proto (writer-pprof.c) for
 * `go tool pprof' and the tools that read it, metric= its default
 * sample type. The bytes are the "text" member in base64 ("encoding"
 * says so), since JSON holds no binary; format=pprof writes them decoded.
 */

static json_t	*pprof_create(const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
static struct display *pprof_display(const json_t *, const struct query *);

const struct report_entry report_pprof_entry = {
	.name = "pprof",
	.title = "pprof profile",
	.formats = "pprof|json",
	.create_json = pprof_create,
	.display_json = pprof_display,
};

static json_t *
pprof_create(const struct profile *p, const struct query *q,
    const struct report_context *ctx, struct report_error *e)
{
	struct writer_options	 o;
	json_t			*j, *text;
	char			*b64;
	size_t			 len;
	int			 m;

	if ((m = report_metric(p, q, e)) == -1)
		return (NULL);
	memset(&o, 0, sizeof o);
	o.metric = m;
	if ((j = report_export(p, "pprof", writer_pprof, &o, e)) == NULL)
		return (NULL);
	text = json_object_get(j, "text");
	if ((b64 = base64_encode(json_string_value(text),
	    json_string_length(text), &len)) == NULL ||
	    json_object_set_new(j, "text", json_stringn_nocheck(b64, len)) ==
	    -1 ||
	    json_object_set_new(j, "encoding", json_string("base64")) == -1) {
		free(b64);
		json_decref(j);
		report_error_set(e, 500, "out of memory");
		return (NULL);
	}
	free(b64);
	return (j);
}

static struct display *
pprof_display(const json_t *j, const struct query *q)
{
	return (report_export_display(j, "pprof profile"));
}
