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
#include <sys/uio.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cause.h"
#include "cgi.h"
#include "fastcgi.h"

/*
 * The FastCGI 1.0 specification (Open Market, 1996) as a responder
 * needs it, after OpenBSD's slowcgi: records of an 8-byte header, up to
 * 65535 bytes of content and 255 of padding; a request is a
 * BEGIN_REQUEST, its PARAMS stream and its STDIN stream, each ended by
 * an empty record. We answer one request at a time, synchronously: the
 * web server is told so (FCGI_GET_VALUES) and a second BEGIN_REQUEST
 * while one is open gets FCGI_CANT_MPX_CONN. Every length from the
 * socket is checked against what was read before it is used; a
 * connection that breaks the protocol is closed, never the process.
 */

#define FCGI_RECORD_MAX	(FCGI_HEADER_LEN + FCGI_CONTENT_MAX + \
			    FCGI_PADDING_MAX)
#define FCGI_CHUNK	65528	/* STDOUT content: 8-byte aligned */
#define FCGI_IOVS	64	/* iovecs per writev(2) */
#define FCGI_HEADS	16	/* record headers per writev(2) */

/* One connection from the web server and its one open request. */
struct fcgi_conn {
	int			 fc_fd;
	int			 fc_lfd;	/* the listener, or -1 */
	volatile sig_atomic_t	*fc_stop;
	unsigned char		 fc_in[FCGI_RECORD_MAX];
	size_t			 fc_off;	/* first unparsed byte */
	size_t			 fc_len;	/* end of what was read */

	int			 fc_active;	/* a request is open */
	long long		 fc_begin;	/* its BEGIN_REQUEST, ms */
	unsigned int		 fc_id;
	int			 fc_keep;
	int			 fc_served;	/* a request was ended */
	int			 fc_params_done;
	int			 fc_stdin_done;
	unsigned char		*fc_params;	/* raw name-value pairs */
	size_t			 fc_plen;
	size_t			 fc_stdin;	/* bytes read and dropped */
};

static long long fcgi_ms(void);
static int	fcgi_fill(struct fcgi_conn *, size_t, char **);
static int	fcgi_record(struct fcgi_conn *, char **);
static int	fcgi_begin(struct fcgi_conn *, unsigned int,
		    const unsigned char *, size_t, char **);
static int	fcgi_management(struct fcgi_conn *, int,
		    const unsigned char *, size_t, char **);
static int	fcgi_run(struct fcgi_conn *, fcgi_handler, void *,
		    char **);
static void	fcgi_reset(struct fcgi_conn *);
static int	fcgi_send(struct fcgi_conn *, int, unsigned int,
		    const void *, size_t);
static int	fcgi_end(int, unsigned int, int,
		    volatile sig_atomic_t *);
static void	fcgi_header(unsigned char *, int, unsigned int, size_t);
static int	fcgi_nvlen(const unsigned char *, size_t, size_t *,
		    size_t *);

/*
 * Is fd the listening socket a FastCGI web server gave us as stdin
 * (FCGI_LISTENSOCK_FILENO)? A CGI's stdin is a pipe, a connected
 * socket, /dev/null or closed. As libfcgi's FCGX_IsCGI: a socket that
 * accepts, or one with no peer where SO_ACCEPTCONN is unknown.
 */
int
fcgi_is_listener(int fd)
{
	struct sockaddr_storage	 ss;
	socklen_t		 len;
	int			 v;

#ifdef SO_ACCEPTCONN
	len = sizeof v;
	if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &v, &len) == 0)
		return (v != 0);
	if (errno == ENOTSOCK || errno == EBADF)
		return (0);
#endif
	len = sizeof ss;
	return (getpeername(fd, (struct sockaddr *)&ss, &len) == -1 &&
	    errno == ENOTCONN);
}

/* A monotonic clock in milliseconds. */
static long long
fcgi_ms(void)
{
	struct timespec	 ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) == -1)
		return (0);
	return ((long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

/*
 * Have at least need unparsed bytes in fc_in. 1 when there are, 0 on a
 * clean end (the peer closed between records), -1 on an error, a
 * truncated record, *fc_stop, or a peer too slow: what is needed must
 * come within FCGI_IDLE_MS however it trickles in, and all the records
 * of a request within FCGI_REQUEST_MS of its BEGIN_REQUEST, else a
 * peer that sends a byte now and then (or empty records of another
 * stream) would hold the process for ever.
 */
static int
fcgi_fill(struct fcgi_conn *c, size_t need, char **cause)
{
	struct pollfd	 pfd[2];
	ssize_t		 n;
	long long	 now, end, rend;
	int		 r, idle, npfd, wait;

	if (c->fc_len - c->fc_off >= need)
		return (1);
	if (c->fc_off + need > sizeof c->fc_in) {
		memmove(c->fc_in, c->fc_in + c->fc_off, c->fc_len - c->fc_off);
		c->fc_len -= c->fc_off;
		c->fc_off = 0;
	}
	end = fcgi_ms() + FCGI_IDLE_MS;
	rend = c->fc_begin + FCGI_REQUEST_MS;
	while (c->fc_len - c->fc_off < need) {
		if (c->fc_stop != NULL && *c->fc_stop) {
			cause_set(cause, "stopped");
			return (-1);
		}
		now = fcgi_ms();
		if (c->fc_active && now >= rend) {
			cause_set(cause, "request too slow");
			return (-1);
		}
		if (now >= end) {
			cause_set(cause, "idle too long");
			return (-1);
		}
		wait = FCGI_SLICE_MS;
		if (end - now < wait)
			wait = end - now;
		if (c->fc_active && rend - now < wait)
			wait = rend - now;
		/*
		 * Between requests of a kept connection, another waiting
		 * on the listener makes us close this one: we serve one
		 * connection at a time, and a web server that keeps one
		 * per worker (nginx's fastcgi_keep_conn) would else wait
		 * for our idle timeout. Not before its first request: a
		 * connection just accepted may not have sent it yet.
		 */
		idle = !c->fc_active && c->fc_len == c->fc_off &&
		    c->fc_served > 0;
		pfd[0].fd = c->fc_fd;
		pfd[0].events = POLLIN;
		pfd[0].revents = 0;
		pfd[1].fd = c->fc_lfd;
		pfd[1].events = POLLIN;
		pfd[1].revents = 0;
		npfd = idle && c->fc_lfd != -1 ? 2 : 1;
		if ((r = poll(pfd, npfd, wait)) == -1 && errno != EINTR) {
			cause_set(cause, "poll failed");
			return (-1);
		}
		if (r > 0 && npfd == 2 && pfd[0].revents == 0)
			return (0);
		if (r <= 0)
			continue;
		n = read(c->fc_fd, c->fc_in + c->fc_len,
		    sizeof c->fc_in - c->fc_len);
		if (n == -1) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			cause_set(cause, "read failed");
			return (-1);
		}
		if (n == 0) {
			if (c->fc_len == c->fc_off && !c->fc_active)
				return (0);
			cause_set(cause, "%s", c->fc_len == c->fc_off ?
			    "closed during a request" : "truncated record");
			return (-1);
		}
		c->fc_len += n;
	}
	return (1);
}

/* A record header. */
static void
fcgi_header(unsigned char *h, int type, unsigned int id, size_t len)
{
	h[0] = FCGI_VERSION_1;
	h[1] = type;
	h[2] = (id >> 8) & 0xff;
	h[3] = id & 0xff;
	h[4] = (len >> 8) & 0xff;
	h[5] = len & 0xff;
	h[6] = 0;	/* no padding: the spec only recommends it */
	h[7] = 0;
}

/* One record of at most FCGI_CONTENT_MAX bytes. */
static int
fcgi_send(struct fcgi_conn *c, int type, unsigned int id, const void *p,
    size_t len)
{
	unsigned char	 h[FCGI_HEADER_LEN];
	struct iovec	 iov[2];

	fcgi_header(h, type, id, len);
	iov[0].iov_base = h;
	iov[0].iov_len = sizeof h;
	iov[1].iov_base = (void *)p;
	iov[1].iov_len = len;
	return (cgi_writev(c->fc_fd, iov, 2, c->fc_stop, FCGI_WRITE_MS));
}

/*
 * The end of a request: the empty STDOUT record that closes the stream
 * (only for a request that had one) and END_REQUEST, in one write.
 */
static int
fcgi_end(int fd, unsigned int id, int pstatus, volatile sig_atomic_t *stop)
{
	unsigned char	 b[3 * FCGI_HEADER_LEN];
	struct iovec	 iov;
	size_t		 off = 0;

	if (pstatus == FCGI_REQUEST_COMPLETE) {
		fcgi_header(b, FCGI_STDOUT, id, 0);
		off = FCGI_HEADER_LEN;
	}
	fcgi_header(b + off, FCGI_END_REQUEST, id, 8);
	memset(b + off + FCGI_HEADER_LEN, 0, 8);	/* appStatus 0 */
	b[off + FCGI_HEADER_LEN + 4] = pstatus;
	iov.iov_base = b;
	iov.iov_len = off + 2 * FCGI_HEADER_LEN;
	return (cgi_writev(fd, &iov, 1, stop, FCGI_WRITE_MS));
}

/*
 * A name-value length (1 byte, or 4 with the top bit set) at *off of
 * buf[len]. -1 if it is cut off.
 */
static int
fcgi_nvlen(const unsigned char *b, size_t len, size_t *off, size_t *out)
{
	if (*off >= len)
		return (-1);
	if ((b[*off] & 0x80) == 0) {
		*out = b[(*off)++];
		return (0);
	}
	if (len - *off < 4)
		return (-1);
	*out = ((size_t)(b[*off] & 0x7f) << 24) | ((size_t)b[*off + 1] << 16) |
	    ((size_t)b[*off + 2] << 8) | b[*off + 3];
	*off += 4;
	return (0);
}

/*
 * Parse len bytes of name-value pairs into *params (pointing into *strs,
 * their NUL-terminated copies; the caller frees both). -1 if a length
 * runs past the end or memory is short.
 */
int
fcgi_parse_params(const unsigned char *b, size_t len,
    struct fcgi_param **params, size_t *np, char **strs)
{
	struct fcgi_param	*p;
	size_t			 off, nl, vl, n = 0, i;
	char			*s;

	*params = NULL;
	*strs = NULL;
	*np = 0;
	for (off = 0; off < len; n++) {
		if (fcgi_nvlen(b, len, &off, &nl) == -1 ||
		    fcgi_nvlen(b, len, &off, &vl) == -1 ||
		    nl > len - off || vl > len - off - nl)
			return (-1);
		off += nl + vl;
	}
	if (n == 0)
		return (0);
	/* Each pair takes at least 2 bytes: n <= len / 2. */
	if ((p = calloc(n, sizeof *p)) == NULL)
		return (-1);
	if ((s = malloc(len + 2 * n)) == NULL) {
		free(p);
		return (-1);
	}
	*params = p;
	*strs = s;
	*np = n;
	for (off = 0, i = 0; i < n; i++) {
		(void)fcgi_nvlen(b, len, &off, &nl);
		(void)fcgi_nvlen(b, len, &off, &vl);
		p[i].name = s;
		memcpy(s, b + off, nl);
		s[nl] = '\0';
		s += nl + 1;
		p[i].value = s;
		memcpy(s, b + off + nl, vl);
		s[vl] = '\0';
		s += vl + 1;
		off += nl + vl;
	}
	return (0);
}

/* A parameter of the request; NULL if the web server did not send it. */
const char *
fcgi_param(const struct fcgi_request *r, const char *name)
{
	size_t	 i;

	for (i = 0; i < r->fr_nparams; i++)
		if (strcmp(r->fr_params[i].name, name) == 0)
			return (r->fr_params[i].value);
	return (NULL);
}

/*
 * Output of the request arg (a struct fcgi_request) as FCGI_STDOUT
 * records: the caller's iovecs are cut into records of FCGI_CHUNK bytes,
 * the record headers interleaved, and written by writev(2) in batches;
 * the body is never copied. -1 once a write fails (the request then
 * ends without END_REQUEST: its connection is closed).
 */
int
fcgi_stdout(void *arg, struct iovec *iov, int iovcnt)
{
	struct fcgi_request	*r = arg;
	unsigned char		 heads[FCGI_HEADS][FCGI_HEADER_LEN];
	struct iovec		 out[FCGI_IOVS];
	size_t			 left = 0, rec, n, off = 0;
	int			 i, nout = 0, nhead = 0;

	if (r->fr_failed)
		return (-1);
	for (i = 0; i < iovcnt; i++)
		left += iov[i].iov_len;
	i = 0;
	while (left > 0) {
		rec = left < FCGI_CHUNK ? left : FCGI_CHUNK;
		left -= rec;
		if (nhead == FCGI_HEADS || nout == FCGI_IOVS) {
			if (cgi_writev(r->fr_fd, out, nout, r->fr_cancel,
			    FCGI_WRITE_MS) == -1)
				goto fail;
			nout = nhead = 0;
		}
		fcgi_header(heads[nhead], FCGI_STDOUT, r->fr_id, rec);
		out[nout].iov_base = heads[nhead++];
		out[nout++].iov_len = FCGI_HEADER_LEN;
		while (rec > 0) {
			while (iov[i].iov_len == off) {
				i++;
				off = 0;
			}
			n = iov[i].iov_len - off;
			if (n > rec)
				n = rec;
			if (nout == FCGI_IOVS) {
				if (cgi_writev(r->fr_fd, out, nout,
				    r->fr_cancel, FCGI_WRITE_MS) == -1)
					goto fail;
				nout = nhead = 0;
			}
			out[nout].iov_base = (char *)iov[i].iov_base + off;
			out[nout++].iov_len = n;
			off += n;
			rec -= n;
		}
	}
	if (nout > 0 && cgi_writev(r->fr_fd, out, nout, r->fr_cancel,
	    FCGI_WRITE_MS) == -1)
		goto fail;
	return (0);
fail:
	r->fr_failed = 1;
	r->fr_errno = errno;
	return (-1);
}

/* Forget the open request. */
static void
fcgi_reset(struct fcgi_conn *c)
{
	free(c->fc_params);
	c->fc_params = NULL;
	c->fc_plen = 0;
	c->fc_stdin = 0;
	c->fc_active = 0;
	c->fc_params_done = 0;
	c->fc_stdin_done = 0;
	c->fc_id = 0;
	c->fc_keep = 0;
}

/*
 * A management record (request id 0): FCGI_GET_VALUES is answered with
 * the variables we know, once each; any other type is unknown.
 */
static int
fcgi_management(struct fcgi_conn *c, int type, const unsigned char *b,
    size_t len, char **cause)
{
	static const struct {
		const char	*name;
		const char	*value;
	} vars[] = {
		{ "FCGI_MAX_CONNS", "1" },
		{ "FCGI_MAX_REQS", "1" },
		{ "FCGI_MPXS_CONNS", "0" },
	};
	unsigned char	 out[128], u[8];
	size_t		 off = 0, nl, vl, o = 0, k, l;
	int		 done[3] = { 0, 0, 0 };

	if (type != FCGI_GET_VALUES) {
		memset(u, 0, sizeof u);
		u[0] = type;
		return (fcgi_send(c, FCGI_UNKNOWN_TYPE, 0, u, sizeof u));
	}
	while (off < len) {
		if (fcgi_nvlen(b, len, &off, &nl) == -1 ||
		    fcgi_nvlen(b, len, &off, &vl) == -1 ||
		    nl > len - off || vl > len - off - nl) {
			cause_set(cause, "bad FCGI_GET_VALUES");
			return (-1);
		}
		for (k = 0; k < 3; k++) {
			l = strlen(vars[k].name);
			if (done[k] || nl != l ||
			    memcmp(b + off, vars[k].name, l) != 0)
				continue;
			done[k] = 1;
			out[o++] = l;
			out[o++] = 1;
			memcpy(out + o, vars[k].name, l);
			o += l;
			out[o++] = vars[k].value[0];
		}
		off += nl + vl;
	}
	return (fcgi_send(c, FCGI_GET_VALUES_RESULT, 0, out, o));
}

/* The open request has all its input: answer it. */
static int
fcgi_run(struct fcgi_conn *c, fcgi_handler h, void *arg, char **cause)
{
	struct fcgi_request	 r;
	char			*strs;
	int			 keep;

	memset(&r, 0, sizeof r);
	r.fr_fd = c->fc_fd;
	r.fr_id = c->fc_id;
	r.fr_keep = keep = c->fc_keep;
	r.fr_cancel = c->fc_stop;
	if (fcgi_parse_params(c->fc_params, c->fc_plen, &r.fr_params,
	    &r.fr_nparams, &strs) == -1) {
		cause_set(cause, "bad or too many parameters");
		return (-1);
	}
	fcgi_reset(c);
	c->fc_served = 1;
	h(&r, arg);
	free(r.fr_params);
	free(strs);
	if (!r.fr_failed && fcgi_end(r.fr_fd, r.fr_id, FCGI_REQUEST_COMPLETE,
	    c->fc_stop) == -1) {
		r.fr_failed = 1;
		r.fr_errno = errno;
	}
	if (r.fr_failed) {
		/*
		 * The web server closed the connection: it had what it
		 * wanted (lighttpd may close once it has Content-Length
		 * bytes, or the headers of a HEAD), or its client left.
		 * Not an error of ours to log.
		 */
		if (r.fr_errno == EPIPE || r.fr_errno == ECONNRESET)
			return (0);
		cause_set(cause, "write failed");
		return (-1);
	}
	return (keep ? 1 : 0);
}

/*
 * An FCGI_BEGIN_REQUEST record (content b, len bytes) of request id: 1
 * to read on, 0 when the connection ends well, -1 on an error (*cause).
 */
static int
fcgi_begin(struct fcgi_conn *c, unsigned int id, const unsigned char *b,
    size_t len, char **cause)
{
	int		 role, flags;

	if (len != 8) {
		cause_set(cause, "bad FCGI_BEGIN_REQUEST");
		return (-1);
	}
	role = (b[0] << 8) | b[1];
	flags = b[2];
	/*
	 * Another request while one is open: refused. Its own id
	 * again is no second request but a confused peer, whom
	 * an END_REQUEST of that id would tell it had ended.
	 */
	if (c->fc_active && id == c->fc_id) {
		cause_set(cause,
		    "FCGI_BEGIN_REQUEST of the open request");
		return (-1);
	}
	if (c->fc_active)
		return (fcgi_end(c->fc_fd, id, FCGI_CANT_MPX_CONN,
		    c->fc_stop) == 0 ? 1 : -1);
	if (role != FCGI_RESPONDER) {
		if (fcgi_end(c->fc_fd, id, FCGI_UNKNOWN_ROLE,
		    c->fc_stop) == -1)
			return (-1);
		c->fc_served = 1;
		return ((flags & FCGI_KEEP_CONN) ? 1 : 0);
	}
	fcgi_reset(c);
	c->fc_active = 1;
	c->fc_begin = fcgi_ms();
	c->fc_id = id;
	c->fc_keep = (flags & FCGI_KEEP_CONN) != 0;
	return (1);
}

/*
 * The next record of the connection. 1: go on; 0: the connection ends
 * well (closed by the peer, or a request done without FCGI_KEEP_CONN);
 * -1: it ends on an error (*cause).
 */
static int
fcgi_record(struct fcgi_conn *c, char **cause)
{
	const unsigned char	*h, *b;
	unsigned char		*np;
	unsigned int		 id;
	size_t			 len, pad;
	int			 type, r, flags;

	if ((r = fcgi_fill(c, FCGI_HEADER_LEN, cause)) <= 0)
		return (r);
	h = c->fc_in + c->fc_off;
	if (h[0] != FCGI_VERSION_1) {
		cause_set(cause, "not FastCGI version 1");
		return (-1);
	}
	type = h[1];
	id = (h[2] << 8) | h[3];
	len = (h[4] << 8) | h[5];
	pad = h[6];
	if ((r = fcgi_fill(c, FCGI_HEADER_LEN + len + pad, cause)) != 1) {
		if (r == 0)
			cause_set(cause, "truncated record");
		return (-1);
	}
	h = c->fc_in + c->fc_off;
	b = h + FCGI_HEADER_LEN;
	/* The content stays in fc_in until the next fcgi_fill. */
	c->fc_off += FCGI_HEADER_LEN + len + pad;

	if (id == 0)
		return (fcgi_management(c, type, b, len, cause) == 0 ? 1 : -1);
	switch (type) {
	case FCGI_BEGIN_REQUEST:
		return (fcgi_begin(c, id, b, len, cause));
	case FCGI_ABORT_REQUEST:
		/* Before we answered: end it; after, it is no longer ours. */
		if (!c->fc_active || id != c->fc_id)
			return (1);
		flags = c->fc_keep;
		fcgi_reset(c);
		if (fcgi_end(c->fc_fd, id, FCGI_REQUEST_COMPLETE,
		    c->fc_stop) == -1)
			return (-1);
		c->fc_served = 1;
		return (flags ? 1 : 0);
	case FCGI_PARAMS:
		/* Streams of another id, or after their end, are ignored. */
		if (!c->fc_active || id != c->fc_id || c->fc_params_done)
			return (1);
		if (len == 0) {
			c->fc_params_done = 1;
			break;
		}
		if (len > FCGI_PARAMS_MAX - c->fc_plen) {
			cause_set(cause, "parameters too long");
			return (-1);
		}
		if ((np = realloc(c->fc_params, c->fc_plen + len)) == NULL) {
			cause_set(cause, "out of memory");
			return (-1);
		}
		memcpy(np + c->fc_plen, b, len);
		c->fc_params = np;
		c->fc_plen += len;
		return (1);
	case FCGI_STDIN:
		if (!c->fc_active || id != c->fc_id || c->fc_stdin_done)
			return (1);
		if (len == 0) {
			c->fc_stdin_done = 1;
			break;
		}
		/* deepq takes no request body: dropped, up to a bound. */
		if (len > FCGI_STDIN_MAX - c->fc_stdin) {
			cause_set(cause, "request body too long");
			return (-1);
		}
		c->fc_stdin += len;
		return (1);
	case FCGI_DATA:
		return (1);	/* the filter role's stream: not ours */
	default:
		{
			unsigned char	 u[8];

			memset(u, 0, sizeof u);
			u[0] = type;
			return (fcgi_send(c, FCGI_UNKNOWN_TYPE, 0, u,
			    sizeof u) == 0 ? 1 : -1);
		}
	}
	return (1);
}

/*
 * Serve the connection fd until it ends: each complete request is
 * handed to h with arg. lfd, the listener (-1: none), is watched
 * between requests (fcgi_fill). 0 when it ended well, -1 on an error
 * (*cause, which the caller frees); either way the caller closes fd. *stop, set by a signal, ends the
 * wait for records; a request under way sees it as its cancel.
 */
int
fcgi_serve(int fd, int lfd, fcgi_handler h, void *arg,
    volatile sig_atomic_t *stop, char **cause)
{
	struct fcgi_conn	*c;
	int			 r, fl;

	if (cause != NULL)
		*cause = NULL;
	if ((c = calloc(1, sizeof *c)) == NULL) {
		cause_set(cause, "out of memory");
		return (-1);
	}
	c->fc_fd = fd;
	c->fc_lfd = lfd;
	c->fc_stop = stop;
	/*
	 * Nonblocking, so that a web server that stops reading our answer
	 * costs FCGI_WRITE_MS (cgi_writev), not the process for good.
	 * Reads already wait in poll(2).
	 */
	if ((fl = fcntl(fd, F_GETFL)) == -1 ||
	    fcntl(fd, F_SETFL, fl | O_NONBLOCK) == -1) {
		cause_set(cause, "fcntl failed");
		free(c);
		return (-1);
	}
	for (;;) {
		if ((r = fcgi_record(c, cause)) != 1)
			break;
		if (c->fc_active && c->fc_params_done && c->fc_stdin_done &&
		    (r = fcgi_run(c, h, arg, cause)) != 1)
			break;
	}
	fcgi_reset(c);
	free(c);
	return (r == 0 ? 0 : -1);
}
