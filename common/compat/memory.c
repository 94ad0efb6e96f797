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

#include <sys/mman.h>

#include <stdint.h>
#include <unistd.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "compat.h"

/* Memory hints: Linux's madvise(2) advice and glibc's mallopt(3). */

#define COMPAT_HUGEPAGE	((uintptr_t)2 * 1024 * 1024)

void
compat_hugepages(void *p, size_t len)
{
#ifdef MADV_HUGEPAGE
	uintptr_t	 start, end;

	start = ((uintptr_t)p + COMPAT_HUGEPAGE - 1) & ~(COMPAT_HUGEPAGE - 1);
	end = ((uintptr_t)p + len) & ~(COMPAT_HUGEPAGE - 1);
	if (end > start)
		(void)madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
	(void)p;
	(void)len;
#endif
}

/*
 * A kernel without MADV_POPULATE_WRITE (before 5.14) says EINVAL: the
 * pages then fault in one by one, as they would have anyway.
 */
void
compat_populate(void *p, size_t len)
{
#ifdef MADV_POPULATE_WRITE
	uintptr_t	 pg, lo, hi;
	long		 sz;

	if (len == 0 || (sz = sysconf(_SC_PAGESIZE)) <= 0)
		return;
	/*
	 * The pages holding the first and last bytes are mapped (they are
	 * the caller's, in part); populating never changes their contents.
	 */
	pg = (uintptr_t)sz;
	lo = (uintptr_t)p & ~(pg - 1);
	hi = ((uintptr_t)p + len + pg - 1) & ~(pg - 1);
	(void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
#else
	(void)p;
	(void)len;
#endif
}

/*
 * glibc's own threshold starts at 128 KB and grows to the size of every
 * mapped block freed; another allocator has its own policy.
 */
void
compat_mmap_threshold(size_t len)
{
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD)
	(void)mallopt(M_MMAP_THRESHOLD, (int)len);
#else
	(void)len;
#endif
}
