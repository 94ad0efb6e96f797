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

#include <sys/syscall.h>

#include <unistd.h>

#include "compat.h"

/*
 * closefrom(3): close_range(2) where the kernel has it, else every fd up
 * to 65535 by hand. Not glibc's closefrom(), which aborts when it can
 * neither use close_range nor read /proc (a chroot): this runs in a
 * forked child about to exec, where only system calls are safe.
 */
void
compat_closefrom(int lowfd)
{
	int	 fd;

#ifdef SYS_close_range
	if (syscall(SYS_close_range, (unsigned int)lowfd, ~0U, 0) == 0)
		return;
#endif
	for (fd = lowfd; fd < 65536; fd++)
		(void)close(fd);
}
