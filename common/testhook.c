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
#include <sys/stat.h>

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "testhook.h"

/* Test-only pause points (see testhook.h). */

/* Stop here if the tests asked for it. */
void
testhook_pause(const char *point)
{
	const char	*dir;
	char		 path[PATH_MAX], buf[32];
	struct stat	 st;
	int		 fd, n;

	if ((dir = getenv("DEEPQ_TEST_HOOKS")) == NULL || *dir != '/')
		return;
	n = snprintf(path, sizeof path, "%s/pause-%s", dir, point);
	if (n < 0 || (size_t)n >= sizeof path ||
	    lstat(path, &st) == -1 || !S_ISREG(st.st_mode))
		return;
	n = snprintf(path, sizeof path, "%s/%s.%ld", dir, point,
	    (long)getpid());
	if (n < 0 || (size_t)n >= sizeof path)
		return;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
	    0600);
	if (fd != -1) {
		n = snprintf(buf, sizeof buf, "%ld\n", (long)getpid());
		if (write(fd, buf, n) != n)
			(void)0;
		close(fd);
	}
	kill(getpid(), SIGSTOP);
}

/* The monotonic clock just read, or the tests' virtual one (testhook.h). */
int64_t
testhook_clock(int64_t ms)
{
	static int64_t	 virt = -1;
	const char	*v;
	char		*end;
	long		 step;

	if ((v = getenv("DEEPQ_TEST_CLOCK")) == NULL || *v == '\0')
		return (ms);
	step = strtol(v, &end, 10);
	if (*end != '\0' || step < 0 || step > 86400000)
		return (ms);
	if (virt == -1)
		virt = ms;
	else
		virt += step;
	return (virt);
}
