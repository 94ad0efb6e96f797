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


#ifndef REPORTS_H
#define REPORTS_H

/*
 * The table of reports (each report-<cmd>.c exports one const struct
 * report_entry, report.h) and the running of one for answer-query.c:
 * reports_create() the result, then reports_json() or reports_display(),
 * which add the notes every answer carries, and reports_free().
 */

#include <jansson.h>

#include "report.h"

const struct report_entry *reports_find(enum catalog_cmd);
void		*reports_create(const struct report_entry *,
		    const struct profile *, const struct query *,
		    const struct report_context *, struct report_error *);
json_t		*reports_json(const struct report_entry *, void *,
		    const struct report_notes *, const struct query *);
struct display	*reports_display(const struct report_entry *, void *,
		    const struct report_notes *, const struct query *);
void		 reports_free(const struct report_entry *, void *);
void		 reports_notes_init(struct report_notes *,
		    const struct profile *, const struct query *,
		    const char *, const struct transform_stack *, int);
int		 reports_notes_json(json_t *, const struct report_notes *);
void		 reports_notes_display(struct display *,
		    const struct report_notes *, const struct query *);

#endif /* REPORTS_H */
