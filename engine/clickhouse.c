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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base64.h"
#include "cause.h"
#include "clickhouse.h"
#include "outbuf.h"
#include "rundir.h"

/* The ClickHouse HTTP client and SQL text (see clickhouse.h). */

#define CLICKHOUSE_MAX_URL	2048
#define CLICKHOUSE_MAX_HEAD	(64 * 1024)	/* status line and headers */
#define CLICKHOUSE_MAX_ERROR	(64 * 1024)	/* of an error body, read */
#define CLICKHOUSE_MAX_WINDOW	(256 * 1024 * 1024) /* one row at most */
#define CLICKHOUSE_RAW		65536		/* bytes read at once */

struct clickhouse {
	char		*url;		/* as given, for messages */
	char		*host;
	char		*port;
	char		*path;		/* "/" or "/prefix/" */
	char		*auth;		/* "Basic ..." or NULL */
	int		 timeout;	/* seconds per request */
	long long	 deadline;	/* rundir_now() ms, 0 = none */
};

static int	 clickhouse_wait(int, short, long long);
static int	 clickhouse_write_all(int, const void *, size_t, long long);
static int	 clickhouse_connect(struct clickhouse *, long long, char **);
static ssize_t	 clickhouse_rawread(struct clickhouse_answer *, char **);
static size_t	 clickhouse_rawline(const struct clickhouse_answer *);
static ssize_t	 clickhouse_decode(struct clickhouse_answer *,
		     unsigned char *, size_t, char **);
static int	 clickhouse_head(struct clickhouse_answer *, int *, char **);
static char	*clickhouse_shard(const char *);
static int	 clickhouse_error(const char *, int, const char *, size_t,
		     char **);

/*
 * A ClickHouse string literal holding exactly the bytes s: quotes around,
 * a backslash before backslash and quote, and every byte outside
 * printable ASCII as \xHH, so that nothing in s can end the literal,
 * start a comment or change how the parser reads the rest (a NUL, a
 * newline or invalid UTF-8 included). The only way a value enters SQL.
 */
void
clickhouse_quote(struct outbuf *ob, const char *s, size_t len)
{
	static const char	 hex[] = "0123456789abcdef";
	unsigned char		 c;
	char			 esc[4];
	size_t			 i;

	outbuf_putc(ob, '\'');
	for (i = 0; i < len; i++) {
		c = (unsigned char)s[i];
		if (c == '\\' || c == '\'') {
			esc[0] = '\\';
			esc[1] = (char)c;
			outbuf_write(ob, esc, 2);
		} else if (c < 0x20 || c >= 0x7f) {
			esc[0] = '\\';
			esc[1] = 'x';
			esc[2] = hex[c >> 4];
			esc[3] = hex[c & 15];
			outbuf_write(ob, esc, 4);
		} else
			outbuf_putc(ob, (char)c);
	}
	outbuf_putc(ob, '\'');
}

/* Percent-encode for a URL's query string (RFC 3986 unreserved kept). */
void
clickhouse_urlencode(struct outbuf *ob, const char *s)
{
	static const char	 hex[] = "0123456789ABCDEF";
	unsigned char		 c;
	char			 esc[3];

	for (; *s != '\0'; s++) {
		c = (unsigned char)*s;
		if (isalnum(c) || c == '-' || c == '_' || c == '.' ||
		    c == '~')
			outbuf_putc(ob, (char)c);
		else {
			esc[0] = '%';
			esc[1] = hex[c >> 4];
			esc[2] = hex[c & 15];
			outbuf_write(ob, esc, 3);
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
 * An end no request may pass (rundir_now() ms; 0: none), earlier than
 * its timeout: a query's deadline.
 */
void
clickhouse_deadline(struct clickhouse *ch, long long end)
{
	ch->deadline = end;
}

/* The URL, for messages. */
const char *
clickhouse_url(const struct clickhouse *ch)
{
	return (ch->url);
}

/* HTTP basic authentication, which every ClickHouse version takes. */
int
clickhouse_auth(struct clickhouse *ch, const char *user, const char *password,
    char **cause)
{
	char	*raw = NULL, *enc = NULL, *auth = NULL;
	size_t	 len;
	int	 n;

	if (strchr(user, ':') != NULL || strpbrk(user, "\r\n") != NULL) {
		cause_set(cause, "user: may hold no colon or newline");
		return (-1);
	}
	if ((n = asprintf(&raw, "%s:%s", user, password ? password : "")) ==
	    -1) {
		cause_set(cause, "out of memory");
		return (-1);
	}
	enc = base64_encode(raw, (size_t)n, &len);
	explicit_bzero(raw, (size_t)n);
	free(raw);
	if (enc == NULL || asprintf(&auth, "Basic %s", enc) == -1) {
		if (enc != NULL) {
			explicit_bzero(enc, len);
			free(enc);
		}
		cause_set(cause, "out of memory");
		return (-1);
	}
	explicit_bzero(enc, len);
	free(enc);
	if (ch->auth != NULL) {
		explicit_bzero(ch->auth, strlen(ch->auth));
		free(ch->auth);
	}
	ch->auth = auth;
	return (0);
}


/*
 * In ClickHouse's report of a network error, the last "reason
 * (host:port)", with errno 0 when there is none.
 */
static char *
clickhouse_shard(const char *m)
{
	const char	*p, *q, *start = NULL, *end = NULL, *line;
	size_t		 n;
	char		*s;

	for (p = m; (p = strchr(p, '(')) != NULL; p++) {
		n = strcspn(p + 1, "() \t\n:");
		if (n == 0 || p[1 + n] != ':')
			continue;
		q = p + 2 + n;
		if (strspn(q, "0123456789") == 0 || q[strspn(q,
		    "0123456789")] != ')')
			continue;
		start = p;
		end = q + strspn(q, "0123456789") + 1;
	}
	errno = 0;
	if (start == NULL)
		return (NULL);
	/* From the reason's start in its line: after "Exception: ". */
	for (line = start; line > m && line[-1] != '\n'; line--)
		;
	for (p = line, q = NULL; (p = strstr(p, "Exception: ")) != NULL &&
	    p < start; p += 11)
		q = p + 11;
	if (q == NULL)
		q = start;
	if ((s = strndup(q, (size_t)(end - q))) == NULL)
		errno = ENOMEM;
	return (s);
}

/*
 * ClickHouse's answer to a failed query, as a cause: its first line,
 * printable and bounded. A cluster's network errors (a shard down or
 * not answering: codes 209, 210, 279) and a query past its time (159)
 * are CLICKHOUSE_UNAVAILABLE, naming the shard; so is a proxy's 502 to
 * 504. Anything else is CLICKHOUSE_REFUSED.
 */
static int
clickhouse_error(const char *url, int status, const char *text, size_t len,
    char **cause)
{
	char	*m, *p, *shard = NULL;
	int	 code = 0, r = CLICKHOUSE_REFUSED;

	if (len > CLICKHOUSE_MAX_ERROR)
		len = CLICKHOUSE_MAX_ERROR;
	if ((m = malloc(len + 1)) == NULL) {
		cause_set(cause, "out of memory");
		return (CLICKHOUSE_REFUSED);
	}
	memcpy(m, text, len);
	m[len] = '\0';
	for (p = m; p < m + len; p++) {
		if (*p == '\0' || (*p != '\n' && (unsigned char)*p < 0x20) ||
		    (unsigned char)*p >= 0x7f)
			*p = ' ';
	}
	(void)sscanf(m, "Code: %d", &code);
	if (code == 209 || code == 210 || code == 279 || code == 159 ||
	    (status >= 502 && status <= 504))
		r = CLICKHOUSE_UNAVAILABLE;
	/*
	 * "Code: 279, ... All connection tries failed. Log: \n\nCode: 210,
	 * ... DB::NetException: Connection refused (127.0.0.1:9000), ...":
	 * the last reason names the shard.
	 */
	if (r == CLICKHOUSE_UNAVAILABLE && (shard = clickhouse_shard(m)) ==
	    NULL && errno == ENOMEM) {
		free(m);
		cause_set(cause, "out of memory");
		return (CLICKHOUSE_REFUSED);
	}
	m[strcspn(m, "\n")] = '\0';
	if ((p = strstr(m, ", e.what()")) != NULL)
		*p = '\0';
	/* "Code: 60, e.displayText() = DB::Exception: Table ..." */
	if ((p = strstr(m, "Exception: ")) != NULL)
		memmove(m, p + 11, strlen(p + 11) + 1);
	if (shard != NULL)
		cause_set(cause, CLICKHOUSE_UNAVAILABLE_TEXT "%s: a shard does "
		    "not answer: %s", url, shard);
	else if (r == CLICKHOUSE_UNAVAILABLE)
		cause_set(cause, CLICKHOUSE_UNAVAILABLE_TEXT "%s: HTTP %d: %s",
		    url, status, m);
	else
		cause_set(cause, "ClickHouse at %s: HTTP %d: %s", url, status,
		    m);
	free(shard);
	free(m);
	return (r);
}

/*
 * Read more of the connection into the raw buffer (what was consumed
 * dropped first): the bytes read, 0 at its end, -1 with *cause.
 */
static ssize_t
clickhouse_rawread(struct clickhouse_answer *a, char **cause)
{
	ssize_t	 k;

	if (a->rawp > 0) {
		memmove(a->raw, a->raw + a->rawp, a->rawn - a->rawp);
		a->rawn -= a->rawp;
		a->rawp = 0;
	}
	if (a->rawn == CLICKHOUSE_RAW) {
		a->error = CLICKHOUSE_UNAVAILABLE;
		cause_set(cause, CLICKHOUSE_UNAVAILABLE_TEXT "%s: a line of "
		    "the answer is longer than %d bytes", a->url,
		    CLICKHOUSE_RAW);
		return (-1);
	}
	for (;;) {
		if (clickhouse_wait(a->fd, POLLIN, a->deadline) == -1)
			break;
		if ((k = read(a->fd, a->raw + a->rawn, CLICKHOUSE_RAW -
		    a->rawn)) == -1) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			break;
		}
		a->rawn += (size_t)k;
		return (k);
	}
	a->error = CLICKHOUSE_UNAVAILABLE;
	cause_set(cause, CLICKHOUSE_UNAVAILABLE_TEXT "%s: %s", a->url,
	    strerror(errno));
	return (-1);
}

/* A line of the raw buffer: its length with the CRLF, or 0 if none yet. */
static size_t
clickhouse_rawline(const struct clickhouse_answer *a)
{
	const unsigned char	*e;

	e = memmem(a->raw + a->rawp, a->rawn - a->rawp, "\r\n", 2);
	return (e == NULL ? 0 : (size_t)(e - (a->raw + a->rawp)) + 2);
}

/*
 * Up to room bytes of the body into dst, undoing the transfer coding:
 * how many (0 once the body has ended: a->done), or -1 with *cause. A
 * chunked body ends with its last chunk; a connection closed before it
 * is a cut answer, never taken for a whole one.
 */
static ssize_t
clickhouse_decode(struct clickhouse_answer *a, unsigned char *dst,
    size_t room, char **cause)
{
	unsigned long long	 v;
	size_t			 k, line;
	ssize_t			 r;
	char			*e;

	for (;;) {
		if (a->done)
			return (0);
		if (a->state == CLICKHOUSE_CHUNK_SIZE ||
		    a->state == CLICKHOUSE_CHUNK_END ||
		    a->state == CLICKHOUSE_CHUNK_TRAILER) {
			if ((line = clickhouse_rawline(a)) == 0)
				goto more;
			if (a->state == CLICKHOUSE_CHUNK_END) {
				if (line != 2)
					goto bad;
				a->state = CLICKHOUSE_CHUNK_SIZE;
			} else if (a->state == CLICKHOUSE_CHUNK_TRAILER) {
				if (line == 2)
					a->done = 1;
			} else {
				errno = 0;
				v = strtoull((char *)a->raw + a->rawp, &e, 16);
				if (e == (char *)a->raw + a->rawp || errno != 0 ||
				    (*e != '\r' && *e != ';' && *e != ' '))
					goto bad;
				a->left = v;
				a->state = v == 0 ? CLICKHOUSE_CHUNK_TRAILER :
				    CLICKHOUSE_CHUNK_DATA;
			}
			a->rawp += line;
			continue;
		}
		if (a->state == CLICKHOUSE_LENGTH && a->left == 0) {
			a->done = 1;
			return (0);
		}
		if (a->state == CLICKHOUSE_CHUNK_DATA && a->left == 0) {
			a->state = CLICKHOUSE_CHUNK_END;
			continue;
		}
		if (a->rawp == a->rawn)
			goto more;
		k = a->rawn - a->rawp;
		if (k > room)
			k = room;
		if (a->state != CLICKHOUSE_CLOSE && k > a->left)
			k = (size_t)a->left;
		memcpy(dst, a->raw + a->rawp, k);
		a->rawp += k;
		if (a->state != CLICKHOUSE_CLOSE)
			a->left -= k;
		return ((ssize_t)k);
more:
		if ((r = clickhouse_rawread(a, cause)) == -1)
			return (-1);
		if (r == 0) {
			close(a->fd);
			a->fd = -1;
			if (a->state != CLICKHOUSE_CLOSE) {
				a->error = CLICKHOUSE_UNAVAILABLE;
				cause_set(cause, CLICKHOUSE_UNAVAILABLE_TEXT "%s: "
				    "the answer is cut", a->url);
				return (-1);
			}
			a->done = 1;
			return (0);
		}
	}
bad:
	a->error = CLICKHOUSE_UNAVAILABLE;
	cause_set(cause, CLICKHOUSE_UNAVAILABLE_TEXT "%s: bad chunked answer",
	    a->url);
	return (-1);
}

/*
 * Read the status line and headers: 0 with the status, the transfer
 * coding of the body set, what came of it in the raw buffer.
 */
static int
clickhouse_head(struct clickhouse_answer *a, int *status, char **cause)
{
	unsigned char	*hend = NULL;
	char		*p, *h, *v;
	ssize_t		 k;

	while ((hend = memmem(a->raw, a->rawn, "\r\n\r\n", 4)) == NULL) {
		if (a->rawn >= CLICKHOUSE_MAX_HEAD) {
			cause_set(cause, CLICKHOUSE_UNAVAILABLE_TEXT "%s: the "
			    "HTTP headers are longer than %d bytes", a->url,
			    CLICKHOUSE_MAX_HEAD);
			return (-1);
		}
		if ((k = clickhouse_rawread(a, cause)) == -1)
			return (-1);
		if (k == 0)
			break;
	}
	if (hend == NULL || sscanf((char *)a->raw, "HTTP/1.%*1d %3d",
	    status) != 1) {
		cause_set(cause, CLICKHOUSE_UNAVAILABLE_TEXT "%s: no HTTP "
		    "answer", a->url);
		return (-1);
	}
	*hend = '\0';
	a->state = CLICKHOUSE_CLOSE;
	for (p = (char *)a->raw; (p = strstr(p, "\r\n")) != NULL; p += 2) {
		h = p + 2;
		if ((v = strchr(h, ':')) == NULL)
			continue;
		v += 1 + strspn(v + 1, " \t");
		if (strncasecmp(h, "Transfer-Encoding:", 18) == 0) {
			if (strncasecmp(v, "chunked", 7) != 0) {
				cause_set(cause, CLICKHOUSE_UNAVAILABLE_TEXT
				    "%s: a transfer coding other than "
				    "chunked", a->url);
				return (-1);
			}
			a->state = CLICKHOUSE_CHUNK_SIZE;
		} else if (strncasecmp(h, "Content-Length:", 15) == 0 &&
		    a->state == CLICKHOUSE_CLOSE) {
			a->left = strtoull(v, NULL, 10);
			a->state = CLICKHOUSE_LENGTH;
		}
	}
	a->rawp = (size_t)(hend + 4 - a->raw);
	return (0);
}

/*
 * POST body to ClickHouse with query (the URL's query string: settings,
 * and the SQL when the body is data), and start reading the answer: 0
 * with *out, whose body is at most max bytes (read it with
 * clickhouse_need, which fails past max); CLICKHOUSE_REFUSED with
 * ClickHouse's message in *cause; CLICKHOUSE_UNAVAILABLE when there was
 * no answer or a shard gave none (the cause names the URL or the shard
 * and starts with CLICKHOUSE_UNAVAILABLE_TEXT). HTTP/1.1, so that the
 * end of a streamed answer (its last chunk) tells it from a cut one.
 */
int
clickhouse_open(struct clickhouse *ch, const char *query, const void *body,
    size_t len, unsigned long long max, struct clickhouse_answer **out,
    char **cause)
{
	struct clickhouse_answer	*a;
	struct outbuf			 head;
	char				*h;
	size_t				 hlen;
	int				 status, r;

	*out = NULL;
	if ((a = calloc(1, sizeof *a)) == NULL ||
	    (a->buf = malloc(CLICKHOUSE_WINDOW)) == NULL ||
	    (a->raw = malloc(CLICKHOUSE_RAW)) == NULL) {
		if (a != NULL)
			free(a->buf);
		free(a);
		cause_set(cause, "out of memory");
		return (CLICKHOUSE_REFUSED);
	}
	a->cap = CLICKHOUSE_WINDOW;
	a->maxwin = CLICKHOUSE_MAX_WINDOW;
	a->p = a->end = a->buf;
	a->max = max;
	a->url = ch->url;
	a->deadline = rundir_now() + ch->timeout * 1000LL;
	if (ch->deadline != 0 && ch->deadline < a->deadline)
		a->deadline = ch->deadline;
	a->fd = -1;
	outbuf_init(&head);
	outbuf_printf(&head, "POST %s%s%s HTTP/1.1\r\n"
	    "Host: %s\r\nConnection: close\r\nContent-Length: %zu\r\n"
	    "Content-Type: application/octet-stream\r\n", ch->path,
	    query != NULL && *query != '\0' ? "?" : "",
	    query != NULL ? query : "", ch->host, len);
	if (ch->auth != NULL)
		outbuf_printf(&head, "Authorization: %s\r\n", ch->auth);
	outbuf_puts(&head, "\r\n");
	if ((h = outbuf_take(&head, &hlen)) == NULL) {
		clickhouse_answer_free(a);
		cause_set(cause, "out of memory");
		return (CLICKHOUSE_REFUSED);
	}
	if ((a->fd = clickhouse_connect(ch, a->deadline, cause)) == -1) {
		free(h);
		clickhouse_answer_free(a);
		return (CLICKHOUSE_UNAVAILABLE);
	}
	r = clickhouse_write_all(a->fd, h, hlen, a->deadline);
	if (ch->auth != NULL)
		explicit_bzero(h, hlen);
	free(h);
	if (r == -1 || clickhouse_write_all(a->fd, body, len,
	    a->deadline) == -1) {
		cause_set(cause, CLICKHOUSE_UNAVAILABLE_TEXT "%s: %s", ch->url,
		    strerror(errno));
		clickhouse_answer_free(a);
		return (CLICKHOUSE_UNAVAILABLE);
	}
	if (clickhouse_head(a, &status, cause) == -1) {
		clickhouse_answer_free(a);
		return (CLICKHOUSE_UNAVAILABLE);
	}
	if (status != 200) {
		/* The error's text, bounded; the rest is dropped. */
		a->maxwin = CLICKHOUSE_MAX_ERROR;
		a->max = CLICKHOUSE_MAX_ERROR;
		(void)clickhouse_fill(a, CLICKHOUSE_MAX_ERROR, NULL);
		r = clickhouse_error(ch->url, status, (const char *)a->p,
		    (size_t)(a->end - a->p), cause);
		clickhouse_answer_free(a);
		return (r);
	}
	*out = a;
	return (0);
}

/*
 * clickhouse_need's slow path: move what is left to the start of the
 * window, grow it if n needs it (up to CLICKHOUSE_MAX_WINDOW), and read
 * until it holds n bytes or the answer ends.
 */
int
clickhouse_fill(struct clickhouse_answer *a, size_t n, char **cause)
{
	unsigned char	*b;
	size_t		 have = (size_t)(a->end - a->p), cap;
	ssize_t		 k;

	if (a->body > a->max) {
		a->error = CLICKHOUSE_REFUSED;
		cause_set(cause, "%s: the answer is larger than %llu bytes",
		    a->url, a->max);
		return (-1);
	}
	if (have >= n)
		return (0);
	if (a->done)
		return (1);
	if (n > a->maxwin) {
		a->error = CLICKHOUSE_REFUSED;
		cause_set(cause, "%s: a row of the answer is larger than %zu "
		    "bytes", a->url, a->maxwin);
		return (-1);
	}
	if (a->p != a->buf && have > 0)
		memmove(a->buf, a->p, have);
	a->p = a->buf;
	a->end = a->buf + have;
	if (n > a->cap) {
		for (cap = a->cap; cap < n; cap *= 2)
			;
		if (cap > a->maxwin)
			cap = a->maxwin;
		if ((b = realloc(a->buf, cap)) == NULL) {
			a->error = CLICKHOUSE_REFUSED;
			cause_set(cause, "out of memory");
			return (-1);
		}
		a->buf = b;
		a->cap = cap;
		a->p = b;
		a->end = b + have;
	}
	while (have < n) {
		if ((k = clickhouse_decode(a, a->buf + have, a->cap - have,
		    cause)) == -1)
			return (-1);
		if (k == 0)
			break;
		have += (size_t)k;
		a->end = a->buf + have;
		a->body += (unsigned long long)k;
		if (a->body > a->max) {
			a->error = CLICKHOUSE_REFUSED;
			cause_set(cause, "%s: the answer is larger than %llu "
			    "bytes", a->url, a->max);
			return (-1);
		}
	}
	return (have >= n ? 0 : 1);
}

/*
 * ClickHouse's report of a query that failed after its answer began
 * (HTTP 200 sent, then "Code: N, e.displayText() = ..." in place of the
 * next rows), looked for at a->p where the caller's parse failed: 0
 * with its message in *cause, -1 if there is none.
 */
int
clickhouse_exception(const struct clickhouse_answer *a, char **cause)
{
	size_t	 len = (size_t)(a->end - a->p);

	if (len < 6 || memcmp(a->p, "Code: ", 6) != 0)
		return (-1);
	(void)clickhouse_error(a->url, 200, (const char *)a->p, len, cause);
	return (0);
}

/*
 * An answer of len bytes held in memory (a copy), read as one from a
 * server: for the tests and the fuzzer. NULL if out of memory.
 */
struct clickhouse_answer *
clickhouse_answer_memory(const void *buf, size_t len)
{
	struct clickhouse_answer	*a;

	if ((a = calloc(1, sizeof *a)) == NULL ||
	    (a->buf = malloc(len ? len : 1)) == NULL) {
		free(a);
		return (NULL);
	}
	if (len > 0)
		memcpy(a->buf, buf, len);
	a->cap = len;
	a->maxwin = len;
	a->p = a->buf;
	a->end = a->buf + len;
	a->body = a->max = len;
	a->fd = -1;
	a->done = 1;
	a->url = "memory";
	return (a);
}

void
clickhouse_answer_free(struct clickhouse_answer *a)
{
	if (a == NULL)
		return;
	if (a->fd != -1)
		close(a->fd);
	free(a->raw);
	free(a->buf);
	free(a);
}

/*
 * POST and read the whole answer (at most max bytes) into out, a body
 * (common/outbuf.h), emptied first: for the small answers (counts,
 * DDL, inserts). Returns as clickhouse_open.
 */
int
clickhouse_post(struct clickhouse *ch, const char *query, const void *body,
    size_t len, size_t max, struct outbuf *out, char **cause)
{
	struct clickhouse_answer	*a;
	int				 r;

	outbuf_clear(out);
	if ((r = clickhouse_open(ch, query, body, len, max, &a, cause)) != 0)
		return (r);
	do {
		outbuf_write(out, a->p, (size_t)(a->end - a->p));
		a->p = a->end;
	} while ((r = clickhouse_fill(a, 1, cause)) == 0);
	if (r == -1)
		r = a->error;
	else
		r = 0;
	clickhouse_answer_free(a);
	if (r != 0)
		return (r);
	if (outbuf_failed(out)) {
		cause_set(cause, "out of memory");
		return (CLICKHOUSE_REFUSED);
	}
	return (0);
}
