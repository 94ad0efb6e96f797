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

/*
 * Fuzz harness for the transform stack of a query string (t=, the
 * filters, and the paths a bounded inversion expands first: path=,
 * open=, a focus after the inversion): applied to a small profile of
 * recursive stacks, whole and with every inversion bounded to a few
 * nodes. Every failure says why; what fails whole fails bounded; what
 * the bounded one refuses is only a path it did not make (404: a path
 * transform after another that follows the inversion); when both
 * succeed, the bounded profile keeps the whole one's total.
 */

#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "profile.h"
#include "query.h"
#include "reader.h"
#include "transform.h"

#define FUZZ_PROFILE \
	"A;B;C;D;E 5\nA;B;C;F;G 3\nA;B;H;F 2\nA;B;C;B;C;D 4\n" \
	"A;E;E;E 1\nA;B;H 6\nB;C;D;E 2\nA;C;F;G;B 1\n"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static struct profile *
fuzz_profile(void)
{
	static struct profile	*p;
	struct reader_options	 opts = { .max_nodes = 1 << 20 };
	struct input		*in;
	char			*cause = NULL;

	if (p != NULL)
		return (p);
	if ((in = input_memory(FUZZ_PROFILE, strlen(FUZZ_PROFILE))) == NULL)
		abort();
	if ((p = reader_load_input(in, "folded", &opts, &cause)) == NULL)
		abort();
	input_free(in);
	return (p);
}

/* The stack applied with every inversion bounded to bound nodes (0: none). */
static struct profile *
fuzz_apply(const struct profile *p, const struct query *q, uint32_t bound,
    int *status)
{
	struct transform_stack	*s;
	struct profile		*out;
	char			*cause = NULL;

	if ((s = transform_parse(q, status, &cause)) == NULL) {
		if (cause == NULL)
			abort();	/* every failure must say why */
		free(cause);
		return (NULL);
	}
	if (s->n == 0) {
		transform_stack_free(s);
		*status = 0;
		return (NULL);
	}
	s->bound = bound;
	s->exact = bound == 0;
	if ((out = transform_apply(p, s, NULL, status, &cause)) == NULL &&
	    cause == NULL)
		abort();
	free(cause);
	transform_stack_free(s);
	return (out);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	const struct profile	*p = fuzz_profile();
	struct profile		*whole, *bounded;
	struct query		*q;
	char			*s, *cause = NULL;
	int			 status, sw = 0, sb = 0;

	if ((s = malloc(len + 1)) == NULL)
		return (0);
	memcpy(s, data, len);
	s[len] = '\0';
	if ((q = query_parse(s, &status, &cause)) == NULL) {
		free(cause);
		free(s);
		return (0);
	}
	whole = fuzz_apply(p, q, 0, &sw);
	bounded = fuzz_apply(p, q, 3, &sb);
	if (whole == NULL && bounded != NULL)
		abort();	/* the bound made a tree the whole one refused */
	if (whole != NULL && bounded == NULL && sb != 404)
		abort();	/* refused for more than a path not made */
	if (whole != NULL && whole->metrics[0].total[PROFILE_ROOT] !=
	    bounded->metrics[0].total[PROFILE_ROOT])
		abort();	/* what is merged is still counted */
	profile_free(whole);
	profile_free(bounded);
	query_free(q);
	free(s);
	return (0);
}
