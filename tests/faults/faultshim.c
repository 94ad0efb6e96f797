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
 * An LD_PRELOAD shim for fault injection (tests/faults/faults.sh):
 *
 *	FAULT_ALLOC=N	the Nth call of malloc, calloc or realloc (counting
 *			from 1) and every later one fail with ENOMEM;
 *			0 only counts
 *	FAULT_READ=MODE	read(2) on a file or FIFO whose path contains
 *			FAULT_PATH (any, if unset): "eintr" fails every
 *			other call with EINTR, "short" returns at most one
 *			byte, "eio" fails the FAULT_NTH-th such read (1 if
 *			unset) and later ones with EIO
 *	FAULT_REPORT=F	at exit, write the allocation count to F
 *
 * The calls are forwarded with dlsym(RTLD_NEXT), so under ASan they reach
 * its allocator and interceptors (run with verify_asan_link_order=0).
 * dlsym itself may allocate: those calls are served from a static arena.
 */

#define _GNU_SOURCE
#include <sys/types.h>

#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void	*(*real_malloc)(size_t);
static void	*(*real_calloc)(size_t, size_t);
static void	*(*real_realloc)(void *, size_t);
static void	 (*real_free)(void *);
static ssize_t	 (*real_read)(int, void *, size_t);

static unsigned long	 fault_alloc_n, fault_alloc_count;
static int		 fault_init_done, fault_in_init, fault_counting;
static unsigned char	 fault_arena[65536];
static size_t		 fault_arena_used;
static unsigned long	 fault_read_calls;
static int		 fault_backtrace;	/* FAULT_BACKTRACE set */

static void	 fault_init(void);
static int	 fault_alloc_fails(void);
static void	*fault_arena_alloc(size_t);
static int	 fault_path_matches(int);

static void
fault_init(void)
{
	if (fault_init_done || fault_in_init)
		return;
	fault_in_init = 1;
	real_malloc = dlsym(RTLD_NEXT, "malloc");
	real_calloc = dlsym(RTLD_NEXT, "calloc");
	real_realloc = dlsym(RTLD_NEXT, "realloc");
	real_free = dlsym(RTLD_NEXT, "free");
	real_read = dlsym(RTLD_NEXT, "read");
	fault_in_init = 0;
	fault_init_done = 1;
}

/*
 * The environment is read once the program's constructors run: earlier
 * allocations (the loader's, the sanitizer runtime's) are not counted.
 */
__attribute__((constructor)) static void
fault_start(void)
{
	const char	*s;

	void		*frames[1];

	fault_init();
	if ((s = getenv("FAULT_ALLOC")) != NULL)
		fault_alloc_n = strtoul(s, NULL, 10);
	/* backtrace(3) loads libgcc on first use: now, not when failing. */
	if ((fault_backtrace = getenv("FAULT_BACKTRACE") != NULL))
		(void)backtrace(frames, 1);
	fault_alloc_count = 0;
	fault_counting = 1;
}

static void *
fault_arena_alloc(size_t n)
{
	void	*p;

	n = (n + 15) & ~(size_t)15;
	if (n > sizeof fault_arena - fault_arena_used)
		return (NULL);
	p = fault_arena + fault_arena_used;
	fault_arena_used += n;
	return (p);
}

static int
fault_alloc_fails(void)
{
	if (!fault_counting)
		return (0);
	fault_alloc_count++;
	if (fault_alloc_n != 0 && fault_alloc_count >= fault_alloc_n) {
		/* FAULT_BACKTRACE: where the first failing one was asked. */
		if (fault_backtrace && fault_alloc_count == fault_alloc_n) {
			void	*frames[32];

			backtrace_symbols_fd(frames, backtrace(frames, 32),
			    STDERR_FILENO);
		}
		errno = ENOMEM;
		return (1);
	}
	return (0);
}

void *
malloc(size_t n)
{
	fault_init();
	if (real_malloc == NULL)
		return (fault_arena_alloc(n));
	if (fault_alloc_fails())
		return (NULL);
	return (real_malloc(n));
}

void *
calloc(size_t n, size_t m)
{
	void	*p;

	fault_init();
	if (real_calloc == NULL) {
		if (m != 0 && n > SIZE_MAX / m)
			return (NULL);
		if ((p = fault_arena_alloc(n * m)) != NULL)
			memset(p, 0, n * m);
		return (p);
	}
	if (fault_alloc_fails())
		return (NULL);
	return (real_calloc(n, m));
}

void *
realloc(void *p, size_t n)
{
	fault_init();
	if (fault_alloc_fails())
		return (NULL);
	return (real_realloc(p, n));
}

void
free(void *p)
{
	if ((unsigned char *)p >= fault_arena &&
	    (unsigned char *)p < fault_arena + sizeof fault_arena)
		return;
	fault_init();
	if (real_free != NULL)
		real_free(p);
}

static int
fault_path_matches(int fd)
{
	const char	*want = getenv("FAULT_PATH");
	char		 link[64], path[PATH_MAX];
	ssize_t		 n;

	if (want == NULL)
		return (1);
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	if ((n = readlink(link, path, sizeof path - 1)) == -1)
		return (0);
	path[n] = '\0';
	return (strstr(path, want) != NULL);
}

ssize_t
read(int fd, void *buf, size_t n)
{
	const char	*mode;
	unsigned long	 nth;

	fault_init();
	if ((mode = getenv("FAULT_READ")) == NULL || n == 0 ||
	    !fault_path_matches(fd))
		return (real_read(fd, buf, n));
	fault_read_calls++;
	if (strcmp(mode, "eintr") == 0 && fault_read_calls % 2 == 1) {
		errno = EINTR;
		return (-1);
	}
	if (strcmp(mode, "short") == 0)
		return (real_read(fd, buf, 1));
	if (strcmp(mode, "eio") == 0) {
		nth = getenv("FAULT_NTH") ? strtoul(getenv("FAULT_NTH"),
		    NULL, 10) : 1;
		if (fault_read_calls >= nth) {
			errno = EIO;
			return (-1);
		}
	}
	return (real_read(fd, buf, n));
}

__attribute__((destructor)) static void
fault_report(void)
{
	const char	*f = getenv("FAULT_REPORT");
	char		 buf[32];
	int		 fd, len;

	if (f == NULL || (fd = open(f, O_WRONLY | O_CREAT | O_TRUNC,
	    0600)) == -1)
		return;
	len = snprintf(buf, sizeof buf, "%lu\n", fault_alloc_count);
	if (write(fd, buf, len) != len)
		(void)0;
	close(fd);
}
