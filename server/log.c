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
 * The server's one way to say something (OpenBSD httpd's log.c): every
 * message of deepq-server and of the processes it forks goes through
 * here, at one of three levels: fatal/fatalx (LOG_ERR, then exit 1),
 * log_warn/log_warnx (LOG_WARNING) and log_info (LOG_INFO); the
 * functions ending in x do not append strerror(errno). Until log_init
 * says otherwise, and for good in the foreground (-d), a message goes
 * to stderr as "deepq-server: message" (the usage, a bad option or
 * configuration, the first process of a start by hand telling its
 * caller why); once detached (fds 0-2 are /dev/null then), to syslog.
 * Messages start with what they are about (a path, "cache", "reply
 * ID") where it helps.
 */

static int	 log_foreground = 1;

static void	 log_vlog(int, const char *, va_list)
		    __attribute__((__format__(__printf__, 2, 0)));
static void	 log_verr(int, const char *, va_list)
		    __attribute__((__format__(__printf__, 2, 0)));
static void	 log_print(int, const char *, ...)
		    __attribute__((__format__(__printf__, 2, 3)));

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

/* A message at pri with strerror(errno) appended; errno kept. */
static void
log_verr(int pri, const char *fmt, va_list ap)
{
	char	*s;
	int	 saved = errno;

	if (vasprintf(&s, fmt, ap) == -1)
		s = NULL;
	log_print(pri, "%s: %s", s ? s : fmt, strerror(saved));
	free(s);
	errno = saved;
}

static void
log_print(int pri, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	log_vlog(pri, fmt, ap);
	va_end(ap);
}

/* A warning with strerror(errno) appended. */
void
log_warn(const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	log_verr(LOG_WARNING, fmt, ap);
	va_end(ap);
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

/* Log with strerror(errno) appended and exit 1. */
void
fatal(const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	log_verr(LOG_ERR, fmt, ap);
	va_end(ap);
	exit(1);
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
