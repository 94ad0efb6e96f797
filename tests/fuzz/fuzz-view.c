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
 * Fuzz harness for the view reader's parse of ClickHouse's answer
 * (engine/view-query.c, view_query_answer): the first byte says how
 * many metrics (1 to 3), the rest is the RowBinary answer (stack hash,
 * functions, modules, a value per metric, per row). Whatever the bytes,
 * the parse builds a profile or says why; never a crash, a read past
 * the answer or a profile of more stacks than the bound.
 */

#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "clickhouse.h"
#include "profile.h"
#include "view-query.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct clickhouse_answer	*a;
	struct profile			*p;
	char				*cause = NULL;

	if (len < 1 || (a = clickhouse_answer_memory(data + 1, len - 1)) ==
	    NULL)
		return (0);
	p = view_query_answer(a, 1 + data[0] % 3, 1000, &cause);
	clickhouse_answer_free(a);
	if (p == NULL) {
		if (cause == NULL)
			abort();	/* refused without a reason */
		free(cause);
		return (0);
	}
	if (p->nnodes == 0 || p->nmetrics != 1 + (uint32_t)(data[0] % 3))
		abort();
	profile_free(p);
	return (0);
}
