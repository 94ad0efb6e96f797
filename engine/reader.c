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

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cause.h"
#include "input.h"
#include "profile.h"
#include "reader.h"

/* The reader table, and loading a file by detected format. */

extern const struct reader reader_bpftrace;
extern const struct reader reader_callgrind;
extern const struct reader reader_chrome;
extern const struct reader reader_gprof;
extern const struct reader reader_dtrace;
extern const struct reader reader_folded;
extern const struct reader reader_gecko;
extern const struct reader reader_mercury;
extern const struct reader reader_pgcl;
extern const struct reader reader_pprof;
extern const struct reader reader_ghc_json;
extern const struct reader reader_ghc_prof;
extern const struct reader reader_perf;
extern const struct reader reader_speedscope;
extern const struct reader reader_trace;
extern const struct reader reader_v8;
extern const struct reader reader_view;

/* Probe order matters only for equal scores: the more specific first. */
static const struct reader *reader_table[] = {
	&reader_view,
	&reader_mercury,
	&reader_pgcl,
	&reader_pprof,
	&reader_trace,
	&reader_ghc_prof,
	&reader_ghc_json,
	&reader_speedscope,
	&reader_chrome,
	&reader_gecko,
	&reader_v8,
	&reader_callgrind,
	&reader_gprof,
	&reader_bpftrace,
	&reader_dtrace,
	&reader_perf,
	&reader_folded,
};
#define NREADERS (sizeof reader_table / sizeof reader_table[0])

/* The reader with a name, or NULL. */
const struct reader *
reader_find(const char *name)
{
	size_t	 i;

	for (i = 0; i < NREADERS; i++) {
		if (strcmp(reader_table[i]->name, name) == 0)
			return (reader_table[i]);
	}
	return (NULL);
}

/*
 * The reader whose probe scores the first bytes highest; NULL if none,
 * or if a known non-profile (reader-refuse.c) scores at least as high.
 */
static const struct reader *
reader_detect_score(const char *buf, size_t len, const char **what,
    const char **hint)
{
	const struct reader	*best = NULL;
	int			 score, top = 0;
	size_t			 i;

	for (i = 0; i < NREADERS; i++) {
		score = reader_table[i]->probe(buf, len);
		if (score > top) {
			top = score;
			best = reader_table[i];
		}
	}
	*what = *hint = NULL;
	if (reader_refuse(buf, len, what, hint) >= top && *what != NULL)
		return (NULL);
	*what = *hint = NULL;
	return (best);
}

/* The reader for the first bytes, NULL if none (see above). */
const struct reader *
reader_detect(const char *buf, size_t len)
{
	const char	*what, *hint;

	return (reader_detect_score(buf, len, &what, &hint));
}

/*
 * The reader for a file, looking through its compression; NULL if none
 * or it cannot be read (for listings).
 */
const struct reader *
reader_detect_file(const char *path)
{
	const struct reader	*r = NULL;
	struct input		*in;
	const char		*head;
	ssize_t			 n;

	if ((in = input_open(path, NULL)) == NULL)
		return (NULL);
	if ((n = input_peek(in, &head, READER_PROBE_BYTES)) > 0)
		r = reader_detect(head, n);
	input_free(in);
	return (r);
}

/*
 * Load a profile from an input, with the named format or, if format is
 * NULL, the detected one.
 */
struct profile *
reader_load_input(struct input *in, const char *format,
    const struct reader_options *opts, char **cause)
{
	const struct reader	*r;
	const char		*head, *what, *hint;
	ssize_t			 n;
	struct reader_options	 defaults = { 0 };
	struct profile		*p;
	char			 looks[160];

	if (opts == NULL)
		opts = &defaults;
	if (format != NULL) {
		if ((r = reader_find(format)) == NULL) {
			cause_set(cause, "unknown format: %s", format);
			return (NULL);
		}
	} else {
		if ((n = input_peek(in, &head, READER_PROBE_BYTES)) == -1) {
			cause_set(cause, "%s: %s", in->path, input_error(in));
			return (NULL);
		}
		if (n == 0) {
			cause_set(cause, "%s: empty file%s", in->path,
			    in->dec != NULL ? " (once decompressed)" : "");
			return (NULL);
		}
		if ((r = reader_detect_score(head, n, &what, &hint)) == NULL) {
			if (what != NULL) {
				cause_set(cause, "%s: not a profile deepq reads: "
				    "%s; %s", in->path, what, hint);
				return (NULL);
			}
			reader_refuse_describe(head, n, looks, sizeof looks);
			cause_set(cause, "%s: not a profile deepq reads: %s%s%s",
			    in->path, looks, in->dec != NULL ? ", once "
			    "decompressed from " : "", in->dec != NULL ?
			    input_compression(in) : "");
			return (NULL);
		}
	}
	if ((p = r->load(in, opts, cause)) == NULL)
		return (NULL);
	p->format = r->name;
	return (p);
}

/* Load a profile file. NULL with *cause on failure. */
struct profile *
reader_load(const char *path, const char *format,
    const struct reader_options *opts, char **cause)
{
	struct input	*in;
	struct profile	*p;

	if ((in = input_open(path, cause)) == NULL)
		return (NULL);
	p = reader_load_input(in, format, opts, cause);
	input_free(in);
	if (p != NULL && (p->source = strdup(path)) == NULL) {
		profile_free(p);
		cause_set(cause, "out of memory");
		return (NULL);
	}
	return (p);
}
