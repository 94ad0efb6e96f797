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
#include <sys/socket.h>

#include <netinet/in.h>
#include <netinet/tcp.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cause.h"
#include "clickhouse.h"
#include "rundir.h"

/* The ClickHouse HTTP client and SQL text (see clickhouse.h). */

#define CLICKHOUSE_MAX_URL	2048
#define CLICKHOUSE_MAX_HEAD	(64 * 1024)	/* status line and headers */
#define CLICKHOUSE_MAX_ERROR	4096		/* of an error body, kept */
#define CLICKHOUSE_IO		65536

struct clickhouse {
	char		*url;		/* as given, for messages */
	char		*host;
	char		*port;
	char		*path;		/* "/" or "/prefix/" */
	char		*auth;		/* "Basic ..." or NULL */
	int		 timeout;	/* seconds per request */
	/* clickhouse_on_body: the body so far, after each read. */
	int		 (*on_body)(void *, const char *, size_t, char **);
	void		*on_body_arg;
};

/*
 * An answer as it comes: its headers end at body (0 until seen), the
 * bytes decoded (de-chunked) end at done, those not yet decoded follow
 * up to the buffer's end.
 */
struct clickhouse_rx {
	size_t		 body;
	size_t		 done;
	int		 chunked;
	int		 ended;		/* the last chunk seen */
	int		 crlf;		/* a chunk's CRLF is due */
	uint64_t	 left;		/* bytes left of the chunk */
	int		 status;	/* the HTTP status, 0 until seen */
	int		 cut;		/* an error's body, read in part */
};

static int	 clickhouse_connect(struct clickhouse *, long long, char **);
static int	 clickhouse_wait(int, short, long long);
static int	 clickhouse_write_all(int, const void *, size_t, long long);
static int	 clickhouse_rx_step(struct clickhouse_buf *,
		    struct clickhouse_rx *);
static int	 clickhouse_receive(struct clickhouse *, int, long long,
		    size_t, struct clickhouse_buf *, struct clickhouse_rx *,
		    char **);
static void	 clickhouse_base64(struct clickhouse_buf *, const char *,
		     size_t);

/* Grow to hold n more bytes. */
static int
clickhouse_buf_grow(struct clickhouse_buf *cb, size_t n)
{
	size_t	 cap;
	char	*b;

	if (cb->error)
		return (-1);
	if (cb->cap - cb->n > n)
		return (0);
	if (n > SIZE_MAX / 4 - cb->n) {
		cb->error = 1;
		return (-1);
	}
	cap = cb->cap ? cb->cap : 4096;
	while (cap - cb->n <= n)
		cap *= 2;
	if ((b = realloc(cb->b, cap)) == NULL) {
		cb->error = 1;
		return (-1);
	}
	cb->b = b;
	cb->cap = cap;
	return (0);
}

void
clickhouse_buf_free(struct clickhouse_buf *cb)
{
	free(cb->b);
	memset(cb, 0, sizeof *cb);
}

/* Append bytes; the buffer is kept NUL-terminated for text. */
void
clickhouse_buf_add(struct clickhouse_buf *cb, const void *p, size_t len)
{
	if (clickhouse_buf_grow(cb, len) == -1)
		return;
	memcpy(cb->b + cb->n, p, len);
	cb->n += len;
	cb->b[cb->n] = '\0';
}

void
clickhouse_buf_printf(struct clickhouse_buf *cb, const char *fmt, ...)
{
	va_list	 ap;
	char	*s;
	int	 n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n == -1) {
		cb->error = 1;
		return;
	}
	clickhouse_buf_add(cb, s, n);
	free(s);
}

/*
 * A ClickHouse string literal holding exactly the bytes s: quotes around,
 * a backslash before backslash and quote, and every byte outside
 * printable ASCII as \xHH, so that nothing in s can end the literal,
 * start a comment or change how the parser reads the rest (a NUL, a
 * newline or invalid UTF-8 included). The only way a value enters SQL.
 */
void
clickhouse_buf_quote(struct clickhouse_buf *cb, const char *s, size_t len)
{
	static const char	 hex[] = "0123456789abcdef";
	unsigned char		 c;
	char			 esc[4];
	size_t			 i;

	clickhouse_buf_add(cb, "'", 1);
	for (i = 0; i < len; i++) {
		c = (unsigned char)s[i];
		if (c == '\\' || c == '\'') {
			esc[0] = '\\';
			esc[1] = c;
			clickhouse_buf_add(cb, esc, 2);
		} else if (c < 0x20 || c >= 0x7f) {
			esc[0] = '\\';
			esc[1] = 'x';
			esc[2] = hex[c >> 4];
			esc[3] = hex[c & 15];
			clickhouse_buf_add(cb, esc, 4);
		} else
			clickhouse_buf_add(cb, &s[i], 1);
	}
	clickhouse_buf_add(cb, "'", 1);
}

/* Percent-encode for a URL's query string (RFC 3986 unreserved kept). */
void
clickhouse_buf_urlencode(struct clickhouse_buf *cb, const char *s)
{
	static const char	 hex[] = "0123456789ABCDEF";
	unsigned char		 c;
	char			 esc[3];

	for (; *s != '\0'; s++) {
		c = (unsigned char)*s;
		if (isalnum(c) || c == '-' || c == '_' || c == '.' ||
		    c == '~')
			clickhouse_buf_add(cb, s, 1);
		else {
			esc[0] = '%';
			esc[1] = hex[c >> 4];
			esc[2] = hex[c & 15];
			clickhouse_buf_add(cb, esc, 3);
		}
	}
}

/*
 * A database, table or column name we put into SQL unquoted: a letter or
 * underscore, then letters, digits, underscores, at most 64 bytes.
 */
int
clickhouse_name_ok(const char *s)
{
	size_t	 i;

	if (s == NULL || (!isalpha((unsigned char)s[0]) && s[0] != '_'))
		return (0);
	for (i = 0; s[i] != '\0'; i++) {
		if (i >= 64 || (!isalnum((unsigned char)s[i]) && s[i] != '_') ||
		    (unsigned char)s[i] >= 0x80)
			return (0);
	}
	return (1);
}

/*
 * An ISO 8601 time, "2026-11-25T10:00:00Z", the T a space or the
 * seconds or the whole time left out, UTC unless it ends in +HH:MM or
 * -HH:MM; or "@N", seconds since the epoch. 0 or -1.
 */
int
clickhouse_time_parse(const char *s, time_t *t)
{
	struct tm	 tm;
	const char	*p;
	char		*end;
	long long	 v;
	int		 n = 0, off = 0, oh, om;

	if (s[0] == '@') {
		errno = 0;
		v = strtoll(s + 1, &end, 10);
		if (s[1] == '\0' || *end != '\0' || errno != 0 || v < 0 ||
		    v > UINT32_MAX)
			return (-1);
		*t = (time_t)v;
		return (0);
	}
	memset(&tm, 0, sizeof tm);
	if (sscanf(s, "%4d-%2d-%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
	    &n) != 3 || n != 10)
		return (-1);
	p = s + n;
	if (*p == 'T' || *p == ' ') {
		n = 0;
		if (sscanf(p + 1, "%2d:%2d%n", &tm.tm_hour, &tm.tm_min, &n) !=
		    2 || n != 5)
			return (-1);
		p += 6;
		if (*p == ':') {
			n = 0;
			if (sscanf(p + 1, "%2d%n", &tm.tm_sec, &n) != 1 ||
			    n != 2)
				return (-1);
			p += 3;
		}
		if (*p == 'Z')
			p++;
		else if (*p == '+' || *p == '-') {
			n = 0;
			if (sscanf(p + 1, "%2d:%2d%n", &oh, &om, &n) != 2 ||
			    n != 5 || oh > 23 || om > 59)
				return (-1);
			off = (oh * 60 + om) * 60 * (*p == '+' ? 1 : -1);
			p += 6;
		}
	}
	if (*p != '\0' || tm.tm_year < 1970 || tm.tm_year > 2105 ||
	    tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 ||
	    tm.tm_mday > 31 || tm.tm_hour > 23 || tm.tm_min > 59 ||
	    tm.tm_sec > 60)
		return (-1);
	tm.tm_year -= 1900;
	tm.tm_mon--;
	*t = timegm(&tm) - off;
	return (*t < 0 ? -1 : 0);
}

/* A duration: seconds, or a number with s, m, h or d. 0 or -1. */
int
clickhouse_duration_parse(const char *s, long long *secs)
{
	long long	 v, mul = 1;
	char		*end;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s || errno != 0 || v < 0)
		return (-1);
	switch (*end) {
	case '\0':
		break;
	case 's':
		end++;
		break;
	case 'm':
		mul = 60;
		end++;
		break;
	case 'h':
		mul = 3600;
		end++;
		break;
	case 'd':
		mul = 86400;
		end++;
		break;
	default:
		return (-1);
	}
	if (*end != '\0' || v > 100LL * 365 * 86400 / mul)
		return (-1);
	*secs = v * mul;
	return (0);
}

/*
 * A client for a URL, http://host[:port][/path]; the port defaults to
 * ClickHouse's 8123. No request is made yet.
 */
struct clickhouse *
clickhouse_create(const char *url, char **cause)
{
	struct clickhouse	*ch;
	const char		*h, *e, *slash;
	size_t			 len;

	if (strlen(url) > CLICKHOUSE_MAX_URL || strncmp(url, "http://", 7) !=
	    0) {
		cause_set(cause, "%s: not an http:// URL", url);
		return (NULL);
	}
	for (e = url; *e != '\0'; e++) {
		if ((unsigned char)*e <= 0x20 || (unsigned char)*e >= 0x7f ||
		    *e == '?' || *e == '#') {
			cause_set(cause, "%.64s: the URL may hold no query, "
			    "fragment, space or control character", url);
			return (NULL);
		}
	}
	if ((ch = calloc(1, sizeof *ch)) == NULL)
		goto nomem;
	ch->timeout = 30;
	if ((ch->url = strdup(url)) == NULL)
		goto nomem;
	h = url + 7;
	if ((slash = strchr(h, '/')) == NULL)
		slash = h + strlen(h);
	if (strchr(h, '@') != NULL && strchr(h, '@') < slash) {
		cause_set(cause, "%s: put the user in user= and the password "
		    "in password_file=, not in the URL", url);
		clickhouse_free(ch);
		return (NULL);
	}
	if (*h == '[') {
		/* [v6]:port */
		if ((e = memchr(h, ']', slash - h)) == NULL)
			goto bad;
		ch->host = strndup(h + 1, e - h - 1);
		e++;
	} else {
		for (e = h; e < slash && *e != ':'; e++)
			;
		ch->host = strndup(h, e - h);
	}
	if (ch->host == NULL)
		goto nomem;
	if (*ch->host == '\0')
		goto bad;
	if (e < slash && *e == ':') {
		len = slash - e - 1;
		if (len == 0 || len > 5 || strspn(e + 1, "0123456789") < len)
			goto bad;
		ch->port = strndup(e + 1, len);
	} else if (e == slash)
		ch->port = strdup("8123");
	else
		goto bad;
	if (*slash == '\0')
		ch->path = strdup("/");
	else
		ch->path = strdup(slash);
	if (ch->port == NULL || ch->path == NULL)
		goto nomem;
	return (ch);
bad:
	cause_set(cause, "%s: bad URL", url);
	clickhouse_free(ch);
	return (NULL);
nomem:
	cause_set(cause, "out of memory");
	clickhouse_free(ch);
	return (NULL);
}

void
clickhouse_free(struct clickhouse *ch)
{
	if (ch == NULL)
		return;
	free(ch->url);
	free(ch->host);
	free(ch->port);
	free(ch->path);
	if (ch->auth != NULL) {
		explicit_bzero(ch->auth, strlen(ch->auth));
		free(ch->auth);
	}
	free(ch);
}

/* Seconds a request may take, connecting to the last byte. */
void
clickhouse_timeout(struct clickhouse *ch, int secs)
{
	ch->timeout = secs > 0 ? secs : 1;
}

static void
clickhouse_base64(struct clickhouse_buf *cb, const char *s, size_t len)
{
	static const char	 b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char	*u = (const unsigned char *)s;
	char			 o[4];
	uint32_t		 v;
	size_t			 i;

	for (i = 0; i < len; i += 3) {
		v = (uint32_t)u[i] << 16;
		if (i + 1 < len)
			v |= (uint32_t)u[i + 1] << 8;
		if (i + 2 < len)
			v |= u[i + 2];
		o[0] = b64[(v >> 18) & 63];
		o[1] = b64[(v >> 12) & 63];
		o[2] = i + 1 < len ? b64[(v >> 6) & 63] : '=';
		o[3] = i + 2 < len ? b64[v & 63] : '=';
		clickhouse_buf_add(cb, o, 4);
	}
}

/* HTTP basic authentication, which every ClickHouse version takes. */
int
clickhouse_auth(struct clickhouse *ch, const char *user, const char *password,
    char **cause)
{
	struct clickhouse_buf	 raw = { 0 }, enc = { 0 };

	if (strchr(user, ':') != NULL || strpbrk(user, "\r\n") != NULL) {
		cause_set(cause, "user: may hold no colon or newline");
		return (-1);
	}
	clickhouse_buf_printf(&raw, "%s:%s", user, password ? password : "");
	clickhouse_buf_add(&enc, "Basic ", 6);
	if (!raw.error)
		clickhouse_base64(&enc, raw.b, raw.n);
	if (raw.b != NULL)
		explicit_bzero(raw.b, raw.n);
	clickhouse_buf_free(&raw);
	if (enc.error) {
		clickhouse_buf_free(&enc);
		cause_set(cause, "out of memory");
		return (-1);
	}
	free(ch->auth);
	ch->auth = enc.b;
	return (0);
}

/* Wait for fd to be ready for events until the deadline (ms). */
static int
clickhouse_wait(int fd, short events, long long end)
{
	struct pollfd	 pfd;
	long long	 left;
	int		 r;

	for (;;) {
		if ((left = end - rundir_now()) <= 0) {
			errno = ETIMEDOUT;
			return (-1);
		}
		pfd.fd = fd;
		pfd.events = events;
		r = poll(&pfd, 1, left > INT_MAX ? INT_MAX : (int)left);
		if (r == 1)
			return (0);
		if (r == -1 && errno != EINTR)
			return (-1);
	}
}

static int
clickhouse_write_all(int fd, const void *p, size_t len, long long end)
{
	const char	*b = p;
	ssize_t		 n;

	while (len > 0) {
		if (clickhouse_wait(fd, POLLOUT, end) == -1)
			return (-1);
		if ((n = send(fd, b, len, MSG_NOSIGNAL)) == -1) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return (-1);
		}
		b += n;
		len -= n;
	}
	return (0);
}

/* A non-blocking connection to the first address that takes one. */
static int
clickhouse_connect(struct clickhouse *ch, long long end, char **cause)
{
	struct addrinfo	 hints, *res, *ai;
	socklen_t	 len;
	int		 fd = -1, r, err = 0, one = 1;

	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	if ((r = getaddrinfo(ch->host, ch->port, &hints, &res)) != 0) {
		cause_set(cause, CLICKHOUSE_UNAVAILABLE_TEXT "%s: %s", ch->url,
		    gai_strerror(r));
		return (-1);
	}
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK |
		    SOCK_CLOEXEC, ai->ai_protocol);
		if (fd == -1) {
			err = errno;
			continue;
		}
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
			break;
		err = errno;
		if (errno == EINPROGRESS &&
		    clickhouse_wait(fd, POLLOUT, end) == 0) {
			len = sizeof err;
			if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) ==
			    0 && err == 0)
				break;
		} else if (errno == EINPROGRESS)
			err = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd == -1) {
		cause_set(cause, CLICKHOUSE_UNAVAILABLE_TEXT "%s: %s", ch->url,
		    strerror(err == EINPROGRESS ? ETIMEDOUT : err));
		return (-1);
	}
	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	return (fd);
}

/*
 * Decode what came since the last call, in place: find the end of the
 * headers, then undo chunked transfer coding as the chunks arrive, so
 * that the body decoded so far can be looked at while it is read. 0,
 * or -1 on a bad chunked answer.
 */
static int
clickhouse_rx_step(struct clickhouse_buf *cb, struct clickhouse_rx *rx)
{
	char			*hend, *p, *e;
	size_t			 r, k;
	unsigned long long	 len;

	if (rx->body == 0) {
		if ((hend = memmem(cb->b, cb->n, "\r\n\r\n", 4)) == NULL)
			return (0);
		rx->body = rx->done = hend + 4 - cb->b;
		for (p = cb->b; p < hend && (p = memmem(p, hend - p + 2,
		    "\r\n", 2)) != NULL; p += 2) {
			if (strncasecmp(p + 2, "Transfer-Encoding:", 18) == 0 &&
			    strncasecmp(p + 20 + strspn(p + 20, " \t"),
			    "chunked", 7) == 0)
				rx->chunked = 1;
		}
	}
	if (!rx->chunked) {
		rx->done = cb->n;
		return (0);
	}
	for (r = rx->done; r < cb->n && !rx->ended; ) {
		if (rx->left > 0) {
			k = cb->n - r < rx->left ? cb->n - r : rx->left;
			memmove(cb->b + rx->done, cb->b + r, k);
			rx->done += k;
			r += k;
			if ((rx->left -= k) == 0)
				rx->crlf = 1;
		} else if (rx->crlf) {
			if (cb->n - r < 2)
				break;
			if (memcmp(cb->b + r, "\r\n", 2) != 0)
				return (-1);
			r += 2;
			rx->crlf = 0;
		} else {
			if ((p = memmem(cb->b + r, cb->n - r, "\r\n", 2)) ==
			    NULL) {
				if (cb->n - r > 64)
					return (-1);
				break;
			}
			errno = 0;
			len = strtoull(cb->b + r, &e, 16);
			if (e == cb->b + r || errno != 0 || e > p)
				return (-1);
			r = p + 2 - cb->b;
			if (len == 0)
				rx->ended = 1;
			rx->left = len;
		}
	}
	/* What is not decoded yet moves down behind what is. */
	if (rx->ended)
		r = cb->n;
	memmove(cb->b + rx->done, cb->b + r, cb->n - r);
	cb->n = rx->done + (cb->n - r);
	cb->b[cb->n] = '\0';
	return (0);
}

/*
 * Look at the body as it is read: after each read, fn(arg, body, len,
 * cause) gets the body decoded so far (the whole of it, from its first
 * byte); -1 from it ends the request, its *cause the error's. A reader
 * of the answer stops a stream that can only be refused (malformed,
 * past its bounds) at once, instead of holding all of it first.
 */
void
clickhouse_on_body(struct clickhouse *ch, int (*fn)(void *, const char *,
    size_t, char **), void *arg)
{
	ch->on_body = fn;
	ch->on_body_arg = arg;
}

/*
 * Read the answer on fd until the connection ends (HTTP/1.0), decoding
 * it as it comes (rx): 0, or CLICKHOUSE_REFUSED or
 * CLICKHOUSE_UNAVAILABLE with *cause. An error's body is read no further
 * than what is kept of it (rx->cut); a 200's goes to on_body as it
 * grows.
 */
static int
clickhouse_receive(struct clickhouse *ch, int fd, long long end, size_t max,
    struct clickhouse_buf *out, struct clickhouse_rx *rx, char **cause)
{
	size_t	 cap = max + CLICKHOUSE_MAX_HEAD;
	ssize_t	 n;

	memset(rx, 0, sizeof *rx);
	for (;;) {
		if (clickhouse_buf_grow(out, CLICKHOUSE_IO) == -1) {
			cause_set(cause, "out of memory");
			return (CLICKHOUSE_REFUSED);
		}
		if (clickhouse_wait(fd, POLLIN, end) == -1)
			goto io;
		if ((n = read(fd, out->b + out->n, CLICKHOUSE_IO)) == -1) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			goto io;
		}
		if (n == 0)
			return (0);
		out->n += n;
		out->b[out->n] = '\0';
		if (clickhouse_rx_step(out, rx) == -1) {
			cause_set(cause, CLICKHOUSE_UNAVAILABLE_TEXT "%s: bad "
			    "chunked answer", ch->url);
			return (CLICKHOUSE_UNAVAILABLE);
		}
		if (out->n > cap) {
			cause_set(cause, "%s: the answer is larger than %zu "
			    "bytes", ch->url, max);
			return (CLICKHOUSE_REFUSED);
		}
		if (rx->body == 0 || (rx->status == 0 && sscanf(out->b,
		    "HTTP/1.%*1d %3d", &rx->status) != 1))
			continue;
		if (rx->status != 200 && rx->done - rx->body >
		    CLICKHOUSE_MAX_ERROR) {
			rx->cut = 1;
			return (0);
		}
		if (rx->status == 200 && ch->on_body != NULL &&
		    ch->on_body(ch->on_body_arg, out->b + rx->body, rx->done -
		    rx->body, cause) == -1)
			return (CLICKHOUSE_REFUSED);
	}
io:
	cause_set(cause, CLICKHOUSE_UNAVAILABLE_TEXT "%s: %s", ch->url,
	    strerror(errno));
	return (CLICKHOUSE_UNAVAILABLE);
}

/*
 * POST body to ClickHouse with query (the URL's query string: settings,
 * and the SQL when the body is data). The answer's body goes to out
 * (emptied first), at most max bytes. 0 on a 200 answer;
 * CLICKHOUSE_REFUSED with ClickHouse's message in *cause;
 * CLICKHOUSE_UNAVAILABLE when there was no answer (the cause names the
 * URL and starts with CLICKHOUSE_UNAVAILABLE_TEXT).
 */
int
clickhouse_post(struct clickhouse *ch, const char *query, const void *body,
    size_t len, size_t max, struct clickhouse_buf *out, char **cause)
{
	struct clickhouse_buf	 head = { 0 };
	struct clickhouse_rx	 rx;
	long long		 end = rundir_now() + ch->timeout * 1000LL;
	char			*p, *q;
	size_t			 off;
	int			 fd, status, saved, r;

	out->n = 0;
	out->error = 0;
	clickhouse_buf_printf(&head, "POST %s%s%s HTTP/1.0\r\n"
	    "Host: %s\r\nContent-Length: %zu\r\n"
	    "Content-Type: application/octet-stream\r\n", ch->path,
	    query != NULL && *query != '\0' ? "?" : "",
	    query != NULL ? query : "", ch->host, len);
	if (ch->auth != NULL)
		clickhouse_buf_printf(&head, "Authorization: %s\r\n",
		    ch->auth);
	clickhouse_buf_add(&head, "\r\n", 2);
	if (head.error) {
		clickhouse_buf_free(&head);
		cause_set(cause, "out of memory");
		return (CLICKHOUSE_REFUSED);
	}
	if ((fd = clickhouse_connect(ch, end, cause)) == -1) {
		clickhouse_buf_free(&head);
		return (CLICKHOUSE_UNAVAILABLE);
	}
	if (clickhouse_write_all(fd, head.b, head.n, end) == -1 ||
	    clickhouse_write_all(fd, body, len, end) == -1)
		goto io;
	clickhouse_buf_free(&head);

	/* HTTP/1.0: the answer ends when the connection does. */
	r = clickhouse_receive(ch, fd, end, max, out, &rx, cause);
	close(fd);
	if (r != 0)
		return (r);
	status = rx.status;
	if (out->n == 0 || rx.body == 0 || status == 0) {
		cause_set(cause, CLICKHOUSE_UNAVAILABLE_TEXT "%s: no HTTP "
		    "answer", ch->url);
		return (CLICKHOUSE_UNAVAILABLE);
	}
	if (rx.chunked && !rx.cut && (!rx.ended || rx.done != out->n)) {
		cause_set(cause, CLICKHOUSE_UNAVAILABLE_TEXT "%s: bad chunked "
		    "answer", ch->url);
		return (CLICKHOUSE_UNAVAILABLE);
	}
	off = rx.body;
	memmove(out->b, out->b + off, out->n - off);
	out->n -= off;
	out->b[out->n] = '\0';
	if (rx.chunked && rx.cut)
		out->n = rx.done - off;
	if (out->n > max) {
		cause_set(cause, "%s: the answer is larger than %zu bytes",
		    ch->url, max);
		return (CLICKHOUSE_REFUSED);
	}
	if (status == 200)
		return (0);
	/* ClickHouse's message: its first line, printable, bounded. */
	if (out->n > CLICKHOUSE_MAX_ERROR)
		out->n = CLICKHOUSE_MAX_ERROR;
	out->b[out->n] = '\0';
	out->b[strcspn(out->b, "\r\n")] = '\0';
	for (q = out->b; *q != '\0'; q++) {
		if ((unsigned char)*q < 0x20)
			*q = ' ';
	}
	if ((p = strstr(out->b, ", e.what()")) != NULL)
		*p = '\0';
	/* "Code: 60, e.displayText() = DB::Exception: Table ..." */
	if ((p = strstr(out->b, "DB::Exception: ")) != NULL)
		memmove(out->b, p + 15, strlen(p + 15) + 1);
	if (status >= 502 && status <= 504) {
		/* A proxy in front of it: the service, not the query. */
		cause_set(cause, CLICKHOUSE_UNAVAILABLE_TEXT "%s: HTTP %d: %s",
		    ch->url, status, out->b);
		return (CLICKHOUSE_UNAVAILABLE);
	}
	cause_set(cause, "ClickHouse at %s: HTTP %d: %s", ch->url, status,
	    out->b);
	return (CLICKHOUSE_REFUSED);
io:
	saved = errno;
	close(fd);
	clickhouse_buf_free(&head);
	cause_set(cause, CLICKHOUSE_UNAVAILABLE_TEXT "%s: %s", ch->url,
	    strerror(saved));
	return (CLICKHOUSE_UNAVAILABLE);
}
