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

#include <sys/types.h>

#include <stdint.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "answer.h"
#include "cost.h"
#include "diff.h"
#include "display.h"
#include "profile.h"
#include "query.h"
#include "render.h"
#include "report.h"
#include "transform.h"

/* Query string + profile -> answer (see answer.h). */

/*
 * An answer's body as it is written: a buffer that doubles, behind a
 * FILE the renderers write to (fopencookie). open_memstream did the same
 * but cleared every byte it grew by and copied the body once more on
 * each growth, a tenth of a warm tree page's instructions.
 */
#define ANSWER_BODY_MIN	16384

struct answer_body {
	char		*b;
	size_t		 n, cap;
	int		 failed;
	struct cost	*cost;		/* the query's, for its deadline */
	size_t		 checked;	/* n at the last look at the clock */
};

/* Bytes rendered between looks at the query's deadline. */
#define ANSWER_BODY_CHECK	65536

static int	answer_has_format(const char *, const char *);
static ssize_t	answer_body_write(void *, const char *, size_t);
static FILE	*answer_body_open(struct answer_body *);
static void	 answer_render_error(struct report_error *,
		    const struct cost *);
static int	answer_body_close(FILE *, struct answer_body *,
		    struct answer *);

/* The stream's write: append, the body kept NUL-terminated. */
static ssize_t
answer_body_write(void *cookie, const char *buf, size_t len)
{
	struct answer_body	*ab = cookie;
	size_t			 cap;
	char			*b;

	if (ab->failed)
		return (0);
	/*
	 * Rendering a big page takes time too: past the query's deadline
	 * it stops, as the report would have (no units are charged: those
	 * were, per node shown, when the report was made).
	 */
	if (ab->cost != NULL && ab->n - ab->checked >= ANSWER_BODY_CHECK) {
		ab->checked = ab->n;
		if (cost_check(ab->cost) == -1) {
			ab->failed = 1;
			return (0);
		}
	}
	if (len >= ab->cap - ab->n) {
		cap = ab->cap ? ab->cap : ANSWER_BODY_MIN;
		while (len >= cap - ab->n) {
			if (cap > SIZE_MAX / 2) {
				ab->failed = 1;
				return (0);
			}
			cap *= 2;
		}
		if ((b = realloc(ab->b, cap)) == NULL) {
			ab->failed = 1;
			return (0);
		}
		ab->b = b;
		ab->cap = cap;
	}
	memcpy(ab->b + ab->n, buf, len);
	ab->n += len;
	ab->b[ab->n] = '\0';
	return (len);
}

/* A stream into ab; NULL if out of memory. */
static FILE *
answer_body_open(struct answer_body *ab)
{
	static const cookie_io_functions_t	 io = {
		.write = answer_body_write,
	};
	FILE					*f;

	memset(ab, 0, sizeof *ab);
	if ((f = fopencookie(ab, "w", io)) == NULL)
		return (NULL);
	/*
	 * The stream is this call's alone: skip stdio's lock, taken on
	 * each of the thousands of small writes a page makes.
	 */
	__fsetlocking(f, FSETLOCKING_BYCALLER);
	return (f);
}

/*
 * Close the stream and give its body to a (a->body, a->len): -1 if any
 * write failed (ab's buffer freed then).
 */
static int
answer_body_close(FILE *f, struct answer_body *ab, struct answer *a)
{
	char	*b;

	if (fclose(f) != 0 || ab->failed) {
		free(ab->b);
		return (-1);
	}
	/* An empty body is still a string. */
	if (ab->b == NULL && (ab->b = calloc(1, 1)) == NULL)
		return (-1);
	/* Give back the doubling's slack of a big body. */
	if (ab->cap - ab->n > ANSWER_BODY_MIN &&
	    (b = realloc(ab->b, ab->n + 1)) != NULL)
		ab->b = b;
	a->body = ab->b;
	a->len = ab->n;
	return (0);
}

/* Is fmt one of the '|'-separated list? */
static int
answer_has_format(const char *list, const char *fmt)
{
	size_t		 n = strlen(fmt);
	const char	*p = list;

	while ((p = strstr(p, fmt)) != NULL) {
		if ((p == list || p[-1] == '|') &&
		    (p[n] == '\0' || p[n] == '|'))
			return (1);
		p += n;
	}
	return (0);
}

/*
 * The format= of a query string that may not parse, so an error can be
 * answered as JSON to a script that asked for JSON.
 */
const char *
answer_guess_format(const char *qs)
{
	static const char *const formats[] = { "json", "text", "html" };
	const char	*p;
	size_t		 i, n;

	if (qs == NULL)
		return ("html");
	for (p = qs; (p = strstr(p, "format=")) != NULL; p += 7) {
		if (p != qs && p[-1] != '&' && p[-1] != ';')
			continue;
		for (i = 0; i < sizeof formats / sizeof formats[0]; i++) {
			n = strlen(formats[i]);
			if (strncmp(p + 7, formats[i], n) == 0 &&
			    (p[7 + n] == '\0' || p[7 + n] == '&' ||
			    p[7 + n] == ';'))
				return (formats[i]);
		}
	}
	return ("html");
}

/* An error answer in a format (html if unknown). */
struct answer *
answer_error(const char *format, int status, const char *message,
    const struct render_context *rctx)
{
	const struct renderer	*r;
	struct render_context	 none = { "?", NULL, NULL };
	struct answer_body	 ab;
	struct answer		*a;
	FILE			*f;

	if ((r = render_find(format ? format : "html")) == NULL ||
	    r->error == NULL)
		r = render_find("html");
	if ((a = calloc(1, sizeof *a)) == NULL)
		return (NULL);
	a->status = status;
	a->content_type = r->content_type;
	a->message = strdup(message ? message : "out of memory");
	if (a->message == NULL || (f = answer_body_open(&ab)) == NULL) {
		answer_free(a);
		return (NULL);
	}
	if (r->error(f, status, message ? message : "out of memory",
	    rctx ? rctx : &none) == -1) {
		fclose(f);
		free(ab.b);
		answer_free(a);
		return (NULL);
	}
	if (answer_body_close(f, &ab, a) == -1) {
		answer_free(a);
		return (NULL);
	}
	return (a);
}

/* Why rendering failed: the deadline (503), else memory. */
static void
answer_render_error(struct report_error *e, const struct cost *budget)
{
	char	*why;

	if (cost_over(budget) && (why = cost_message(budget)) != NULL) {
		report_error_set(e, 503, "%s", why);
		free(why);
	} else
		report_error_set(e, 500, "out of memory");
}

/* Answer a query string about a profile. NULL only if out of memory. */
struct answer *
answer_query(const struct profile *p, const char *qs,
    const struct answer_context *ctx)
{
	const struct report_entry	*entry;
	const struct renderer		*r;
	const struct profile		*use = p;
	struct report_error		 e = { 0, NULL };
	struct transform_stack		*ts = NULL;
	struct profile			*derived = NULL, *merged = NULL;
	struct report_context		 rc = ctx->report;
	struct cost			 budget;
	const struct profile		*bp;
	struct diff			 dd;
	struct query			*q;
	struct display			*d = NULL;
	struct answer_body		 ab;
	struct answer			*a = NULL;
	json_t				*j = NULL;
	const char			*format;
	char				*cause = NULL;
	FILE				*f;
	int				 status;

	if ((q = query_parse(qs, &status, &cause)) == NULL) {
		a = answer_error(answer_guess_format(qs), status, cause,
		    &ctx->render);
		free(cause);
		return (a);
	}
	format = query_str(q, QUERY_FORMAT);
	/* One budget for the whole query: transforms and report alike. */
	cost_init(&budget, rc.max_cost, rc.max_msec);
	rc.cost = &budget;
	if ((entry = report_find(query_str(q, QUERY_CMD))) == NULL) {
		report_error_set(&e, 400, "report %s is not available",
		    query_str(q, QUERY_CMD));
		goto fail;
	}
	if (!answer_has_format(entry->formats, format) ||
	    (r = render_find(format)) == NULL) {
		report_error_set(&e, 400, "format %s is not available for "
		    "cmd=%s (available: %s)", format, entry->name,
		    entry->formats);
		goto fail;
	}
	/*
	 * base=: merge before the transforms, so that they apply to both
	 * sides alike (the merged profile keeps this profile's ids).
	 */
	if (*query_str(q, QUERY_BASE) != '\0') {
		if (ctx->base_load == NULL) {
			report_error_set(&e, 400, "base= is not available "
			    "here");
			goto fail;
		}
		if ((bp = ctx->base_load(ctx->base_arg, query_str(q,
		    QUERY_BASE), &status, &cause)) == NULL ||
		    (merged = diff_merge(p, bp, query_str(q, QUERY_METRIC),
		    &status, &cause)) == NULL) {
			report_error_set(&e, status, "base=%s: %s",
			    query_str(q, QUERY_BASE), cause ? cause :
			    "out of memory");
			goto fail;
		}
		rc.base = bp;
		rc.base_name = query_str(q, QUERY_BASE);
		use = merged;
	}
	/*
	 * The one place transforms and filters apply: every report sees the
	 * derived profile, and every answer shows the stack.
	 */
	if ((ts = transform_parse(q, &status, &cause)) == NULL) {
		report_error_set(&e, status, "%s", cause ? cause :
		    "out of memory");
		goto fail;
	}
	if (ts->n > 0) {
		if ((derived = transform_apply(use, ts, &budget,
		    &status, &cause)) == NULL) {
			report_error_set(&e, status, "%s", cause ? cause :
			    "out of memory");
			goto fail;
		}
		use = derived;
	}
	/*
	 * A page that needs only the display, and compares nothing, is
	 * made from the profile without the JSON (one object a tree node
	 * was most of a tree page's time); the JSON keeps its own path.
	 */
	if (r->needs_display && rc.base == NULL && !diff_init(&dd, use, q) &&
	    report_has_display(q)) {
		if ((d = report_create_display(use, q, &rc, &e)) == NULL)
			goto fail;
		goto displayed;
	}
	if ((j = report_create(use, q, &rc, &e)) == NULL)
		goto fail;
	/* Every report of a comparison says what it compares. */
	if (diff_init(&dd, use, q) && ((rc.base_name != NULL &&
	    json_object_set_new(j, "base", json_string(rc.base_name)) == -1) ||
	    diff_summary(j, use, &dd) == -1)) {
		report_error_set(&e, 500, "out of memory");
		goto fail;
	}
	if (ts->n > 0 && json_object_set_new(j, "transforms",
	    transform_json(use, ts)) == -1) {
		report_error_set(&e, 500, "out of memory");
		goto fail;
	}
	if (r->needs_display && (d = report_display(j, q)) == NULL) {
		report_error_set(&e, 500, "out of memory");
		goto fail;
	}
displayed:
	if (d != NULL)
		transform_display(d, use, q, ts);
	if (d != NULL && display_failed(d)) {
		report_error_set(&e, 500, "out of memory");
		goto fail;
	}
	if ((a = calloc(1, sizeof *a)) == NULL)
		goto fail;
	a->status = 200;
	a->content_type = r->content_type;
	if ((f = answer_body_open(&ab)) == NULL) {
		free(a);
		a = NULL;
		goto fail;
	}
	ab.cost = &budget;
	if (r->render(f, j, d, &ctx->render) == -1) {
		fclose(f);
		free(ab.b);
		answer_free(a);
		a = NULL;
		answer_render_error(&e, &budget);
		goto fail;
	}
	if (answer_body_close(f, &ab, a) == -1) {
		answer_free(a);
		a = NULL;
		answer_render_error(&e, &budget);
		goto fail;
	}
	goto done;
fail:
	a = answer_error(format, e.status ? e.status : 500, e.message,
	    &ctx->render);
done:
	free(cause);
	free(e.message);
	display_free(d);
	json_decref(j);
	profile_free(derived);
	profile_free(merged);
	transform_stack_free(ts);
	query_free(q);
	return (a);
}

/* Free an answer. */
void
answer_free(struct answer *a)
{
	if (a == NULL)
		return;
	free(a->body);
	free(a->message);
	free(a);
}
