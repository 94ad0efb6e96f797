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

#ifndef PPROF_H
#define PPROF_H

/*
 * What the pprof reader and writer share: the size bound and the
 * spelling of units, pprof's ("nanoseconds") against deepq's ("ns", which
 * display.c and profile_metric_rate() know as time).
 */

#include <stdint.h>

/* Largest profile.proto, uncompressed: the reader holds it whole. */
#define PPROF_MAX_FILE	((size_t)1024 * 1024 * 1024)

const char	*pprof_unit_short(const char *);
const char	*pprof_unit_long(const char *);

#endif /* PPROF_H */
