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

#ifndef COMPAT_H
#define COMPAT_H

/*
 * What the system may or may not offer, behind one interface each, so
 * that no module needs an #ifdef. Every one is a hint or
 * a shortcut: where the system lacks it, the same work is done another
 * way, or nothing is lost but time.
 */

#include <stddef.h>

/* Ask for huge pages for the 2 MB-aligned part of [p, p + len). */
void	compat_hugepages(void *, size_t);

/* Make the pages of [p, p + len) present for writing, in one call. */
void	compat_populate(void *, size_t);

/*
 * Keep the allocator's threshold for mapping a block on its own fixed at
 * len bytes, so that large freed blocks are unmapped, not kept.
 */
void	compat_mmap_threshold(size_t);

#endif /* COMPAT_H */
