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

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "server.h"

/*
 * Logging: to stderr in the foreground (-d), to syslog once detached
 * (fds 0-2 are /dev/null then), as httpd's log.c. Messages start with
 * the function's name where it helps.
 */

static int	 log_foreground = 1;

static void	 log_vlog(int, const char *, va_list)
		    __attribute__((__format__(__printf__, 2, 0)));

/* Start logging; foreground 0 switches to syslog. */
void
log_init(int foreground, const char *name)
{
	log_foreground = foreground;
	if (!foreground)
		openlog(name, LOG_PID, LOG_DAEMON);
}

static void
log_vlog(int pri, const char *fmt, va_list ap)
{
	if (log_foreground) {
		fputs("deepq-server: ", stderr);
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
	} else
		vsyslog(pri, fmt, ap);
}

/* A warning with strerror(errno) appended. */
void
log_warn(const char *fmt, ...)
{
	va_list	 ap;
	char	*s;
	int	 saved = errno;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) == -1)
		s = NULL;
	va_end(ap);
	log_warnx("%s: %s", s ? s : fmt, strerror(saved));
	free(s);
	errno = saved;
}

/* A warning. */
void
log_warnx(const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	log_vlog(LOG_WARNING, fmt, ap);
	va_end(ap);
}

/* An informational message (start, stop). */
void
log_info(const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	log_vlog(LOG_INFO, fmt, ap);
	va_end(ap);
}

/* Log and exit 1. */
void
fatalx(const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	log_vlog(LOG_ERR, fmt, ap);
	va_end(ap);
	exit(1);
}
