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

#include <string.h>

#include "pprof.h"

/* Units as pprof spells them and as deepq does. */

static const struct {
	const char	*pprof;
	const char	*deepq;
} pprof_units[] = {
	{ "nanoseconds", "ns" },
	{ "microseconds", "us" },
	{ "milliseconds", "ms" },
	{ "seconds", "s" },
};
#define PPROF_NUNITS (sizeof pprof_units / sizeof pprof_units[0])

/* deepq's spelling of a pprof unit: time units shortened, others kept. */
const char *
pprof_unit_short(const char *unit)
{
	size_t	 i;

	for (i = 0; i < PPROF_NUNITS; i++) {
		if (strcmp(unit, pprof_units[i].pprof) == 0)
			return (pprof_units[i].deepq);
	}
	return (unit);
}

/* pprof's spelling of a deepq unit, which pprof scales when it knows it. */
const char *
pprof_unit_long(const char *unit)
{
	size_t	 i;

	for (i = 0; i < PPROF_NUNITS; i++) {
		if (strcmp(unit, pprof_units[i].deepq) == 0)
			return (pprof_units[i].pprof);
	}
	return (unit);
}
