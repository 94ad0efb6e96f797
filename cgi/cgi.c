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
#include <sys/uio.h>

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "answer.h"
#include "cgi.h"
#include "front.h"
#include "gzip.h"

/*
 * The CGI response (RFC 3875 section 6.2): Status first, the length, the
 * headers every front end sends (cgi/front.c), a blank line and the
 * body. The whole answer is known before the first byte is written, so an
 * error always gets its real status (mdprof wrote `200' before knowing).
 */

#define CGI_HEAD_MAX	4096	/* our header lines: well under 1 KB */
#define CGI_SLICE	100	/* ms between checks while the output is full */

/* The CGI header under construction, on the stack. */
struct cgi_head {
	char	 buf[CGI_HEAD_MAX];
	size_t	 len;
	int	 overflow;
};

static void	cgi_header(void *, const char *, const char *);
static void	cgi_add(struct cgi_head *, const char *, ...)
		    __attribute__((__format__(__printf__, 2, 3)));

/* The reason phrase of a status we send. */
const char *
cgi_reason(int status)
{
	switch (status) {
	case 200:
		return ("OK");
	case 303:
		return ("See Other");
	case 400:
		return ("Bad Request");
	case 403:
		return ("Forbidden");
	case 404:
		return ("Not Found");
	case 405:
		return ("Method Not Allowed");
	case 414:
		return ("URI Too Long");
	case 422:
		return ("Unprocessable Content");
	case 500:
		return ("Internal Server Error");
	case 502:
		return ("Bad Gateway");
	case 503:
		return ("Service Unavailable");
	case 504:
		return ("Gateway Timeout");
	}
	return (status < 300 ? "OK" : status < 500 ? "Client Error" :
	    "Server Error");
}

/* Append to the header; an overflow makes it unusable, never cut. */
static void
cgi_add(struct cgi_head *h, const char *fmt, ...)
{
	va_list	 ap;
	int	 n;

	if (h->overflow)
		return;
	va_start(ap, fmt);
	n = vsnprintf(h->buf + h->len, sizeof h->buf - h->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof h->buf - h->len)
		h->overflow = 1;
	else
		h->len += n;
}

/* One header line, for front_headers. */
static void
cgi_header(void *arg, const char *name, const char *value)
{
	cgi_add(arg, "%s: %s\n", name, value);
}

/*
 * Write all of iov to fd, through short writes (a pipe takes what fits)
 * and EAGAIN (should the web server have made the pipe nonblocking).
 * -1 on a write error, or once *cancel says the web server gave up on
 * us and a write did not go through whole: its signal ends a blocked
 * write early (a short count, or EINTR) and we stop there. A cancel
 * set before writing (a SIGTERM while waiting for the server) does not
 * stop a write that fits: that is the 503 saying why we gave up. A
 * signal in the instant before a write starts is not seen until the
 * write returns; the web server that gave up then closes its end
 * (EPIPE) or kills us.
 *
 * stall_ms bounds the time a nonblocking fd may take nothing (-1: no
 * bound). A CGI has none: the web server kills a CGI it stopped
 * reading. A FastCGI process is not killed, so its connection is
 * nonblocking and a peer that stops reading is left after stall_ms
 * rather than holding the process for good.
 */
int
cgi_writev(int fd, struct iovec *iov, int iovcnt,
    volatile sig_atomic_t *cancel, int stall_ms)
{
	struct pollfd	 pfd;
	struct timespec	 ts;
	ssize_t		 n;
	int64_t		 now, since = -1;

	while (iovcnt > 0) {
		if (iov->iov_len == 0) {
			iov++;
			iovcnt--;
			continue;
		}
		if ((n = writev(fd, iov, iovcnt)) == -1) {
			if (errno != EAGAIN && errno != EINTR)
				return (-1);
			if (cancel != NULL && *cancel)
				return (-1);
			if (errno == EAGAIN) {
				clock_gettime(CLOCK_MONOTONIC, &ts);
				now = (int64_t)ts.tv_sec * 1000 +
				    ts.tv_nsec / 1000000;
				if (since == -1)
					since = now;
				else if (stall_ms >= 0 &&
				    now - since >= stall_ms) {
					errno = ETIMEDOUT;
					return (-1);
				}
				pfd.fd = fd;
				pfd.events = POLLOUT;
				(void)poll(&pfd, 1, CGI_SLICE);
			}
			continue;
		}
		since = -1;
		while (iovcnt > 0 && (size_t)n >= iov->iov_len) {
			n -= iov->iov_len;
			iov++;
			iovcnt--;
		}
		if (iovcnt > 0) {
			if (cancel != NULL && *cancel)
				return (-1);
			iov->iov_base = (char *)iov->iov_base + n;
			iov->iov_len -= n;
		}
	}
	return (0);
}

/*
 * Write an answer as the CGI response; head: headers only (HEAD).
 * allow_post adds POST to the Allow header of a 405; gzip says the
 * client accepts gzip (gzip_wanted()), and a text body of a size worth
 * it goes compressed (the length and Content-Encoding say so). out writes it:
 * to stdout for a CGI (cgi_writev, which a signal's cancel stops), as
 * FCGI_STDOUT records for FastCGI (fcgi_stdout); the response is the
 * same bytes either way. -1 on a write error. The header is built on
 * the stack and goes with the body in one call of out: no stdio buffer
 * for a body of megabytes to be copied through.
 */
int
cgi_reply(const struct answer *a, int head, int allow_post, int gzip,
    cgi_out out, void *arg)
{
	struct cgi_head	 h;
	struct iovec	 iov[2];
	char		*z = NULL, *body = a->body;
	size_t		 len = a->len;
	int		 r;

	if (gzip && body != NULL && gzip_compressible(a->content_type, len) &&
	    (z = gzip_body(body, len, &len)) != NULL)
		body = z;
	else
		len = a->len;
	h.len = 0;
	h.overflow = 0;
	cgi_add(&h, "Status: %d %s\nContent-Length: %zu\n", a->status,
	    cgi_reason(a->status), len);
	front_headers(a, allow_post, cgi_header, &h);
	if (z != NULL)
		cgi_add(&h, "Content-Encoding: gzip\n");
	cgi_add(&h, "\n");
	if (h.overflow) {
		free(z);
		return (-1);
	}
	iov[0].iov_base = h.buf;
	iov[0].iov_len = h.len;
	iov[1].iov_base = body;
	iov[1].iov_len = !head && body != NULL ? len : 0;
	r = out(arg, iov, 2);
	free(z);
	return (r);
}
