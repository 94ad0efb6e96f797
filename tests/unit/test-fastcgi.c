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
 * cgi/fastcgi.c against hand-built FastCGI byte streams: each stream is
 * written into one end of a socketpair while a child process serves the
 * other end with fcgi_serve; the records that come back are parsed and
 * checked. The handler echoes the parameters it was given, so that what
 * the parser understood shows in the FCGI_STDOUT stream. Malformed
 * streams must end the connection (fcgi_serve returns -1) without a
 * crash and without a request being answered.
 */

#include "config.h"

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include <netinet/in.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../cgi/fastcgi.h"
#include "tap.h"

struct buf {
	unsigned char	*b;
	size_t		 len, cap;
};

static void
put(struct buf *o, const void *p, size_t n)
{
	if (n == 0)
		return;
	if (o->len + n > o->cap) {
		o->cap = (o->len + n) * 2 + 64;
		if ((o->b = realloc(o->b, o->cap)) == NULL)
			abort();
	}
	memcpy(o->b + o->len, p, n);
	o->len += n;
}

/* A record with pad bytes of padding. */
static void
rec(struct buf *o, int version, int type, unsigned id, const void *p,
    size_t n, int pad)
{
	unsigned char	 h[8] = { version, type, id >> 8, id & 0xff,
			     n >> 8, n & 0xff, pad, 0 };
	unsigned char	 z[255];

	memset(z, 0xee, sizeof z);
	put(o, h, 8);
	put(o, p, n);
	put(o, z, pad);
}

static void
nvlen(struct buf *o, size_t n, int four)
{
	unsigned char	 l[4] = { (n >> 24) | 0x80, n >> 16, n >> 8, n };

	if (n < 128 && !four)
		put(o, l + 3, 1);
	else
		put(o, l, 4);
}

/* A name-value pair; four: 4-byte lengths even when 1 would do. */
static void
nv(struct buf *o, const char *name, const char *value, int four)
{
	nvlen(o, strlen(name), four);
	nvlen(o, strlen(value), four);
	put(o, name, strlen(name));
	put(o, value, strlen(value));
}

static void
begin(struct buf *o, unsigned id, int role, int flags)
{
	unsigned char	 b[8] = { role >> 8, role & 0xff, flags, 0, 0, 0, 0,
			     0 };

	rec(o, 1, FCGI_BEGIN_REQUEST, id, b, 8, 0);
}

/* A whole request: its params in one record, an empty STDIN. */
static void
request(struct buf *o, unsigned id, int flags, const char *qs)
{
	struct buf	 p = { NULL, 0, 0 };

	begin(o, id, FCGI_RESPONDER, flags);
	nv(&p, "QUERY_STRING", qs, 0);
	rec(o, 1, FCGI_PARAMS, id, p.b, p.len, 0);
	rec(o, 1, FCGI_PARAMS, id, NULL, 0, 0);
	rec(o, 1, FCGI_STDIN, id, NULL, 0, 0);
	free(p.b);
}

/*
 * The handler: "name=value\n" for each parameter; with BIG=n, instead n
 * bytes of a pattern in two iovecs.
 */
static void
echo(struct fcgi_request *r, void *arg)
{
	struct buf	 o = { NULL, 0, 0 };
	struct iovec	 iov[2];
	const char	*big;
	size_t		 i, n;
	char		*p;

	if ((big = fcgi_param(r, "BIG")) != NULL) {
		n = strtoul(big, NULL, 10);
		if ((p = malloc(n)) == NULL)
			abort();
		for (i = 0; i < n; i++)
			p[i] = 'a' + i % 23;
		iov[0].iov_base = p;
		iov[0].iov_len = n / 3;
		iov[1].iov_base = p + n / 3;
		iov[1].iov_len = n - n / 3;
		(void)fcgi_stdout(r, iov, 2);
		free(p);
		return;
	}
	for (i = 0; i < r->fr_nparams; i++) {
		put(&o, r->fr_params[i].name, strlen(r->fr_params[i].name));
		put(&o, "=", 1);
		put(&o, r->fr_params[i].value, strlen(r->fr_params[i].value));
		put(&o, "\n", 1);
	}
	iov[0].iov_base = o.b;
	iov[0].iov_len = o.len;
	(void)fcgi_stdout(r, iov, 1);
	free(o.b);
}

/* What came back. */
struct reply {
	int		 status;	/* fcgi_serve's return, or 99: crashed */
	int		 bad;		/* a malformed record came back */
	size_t		 nrec;
	int		 types[4096];
	unsigned	 ids[4096];
	size_t		 lens[4096];
	struct buf	 out;		/* all STDOUT content */
	int		 pstatus[16];	/* END_REQUEST protocol statuses */
	unsigned	 endid[16];
	size_t		 nend;
	struct buf	 mgmt;		/* last management reply content */
	size_t		 maxlen;	/* largest STDOUT content */
};

/* The listener the child watches (-1 none); hold: never shut down. */
static int	serve_lfd = -1, serve_hold;
static int	serve_delay_ms;	/* before the first byte is written */

/* A child that outlives this is hung: a bound for liveness, not speed. */
#define TEST_HANG_MS	90000

/*
 * A child serving one end of a new socketpair with fcgi_serve (lfd its
 * listener, or -1), exiting 0 or 1 as fcgi_serve returns; *fd is our
 * end.
 */
static pid_t
serve_child(int lfd, int *fd)
{
	char		*cause;
	pid_t		 pid;
	int		 sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == -1 ||
	    (pid = fork()) == -1)
		abort();
	if (pid == 0) {
		close(sv[0]);
		_exit(fcgi_serve(sv[1], lfd, echo, NULL, NULL, &cause) == 0 ?
		    0 : 1);
	}
	close(sv[1]);
	*fd = sv[0];
	return (pid);
}

/* Serve in a child; pump the input in and the output out. */
static void
serve(const struct buf *in, struct reply *r)
{
	struct pollfd	 pfd;
	struct buf	 raw = { NULL, 0, 0 };
	unsigned char	 tmp[65536], *h;
	size_t		 off = 0, len;
	ssize_t		 n;
	pid_t		 pid;
	int		 sv[2], st, wdone = 0;

	memset(r, 0, sizeof *r);
	pid = serve_child(serve_lfd, &sv[0]);
	if (serve_delay_ms > 0)
		(void)poll(NULL, 0, serve_delay_ms);
	(void)fcntl(sv[0], F_SETFL, O_NONBLOCK);
	if (in->len == 0) {
		shutdown(sv[0], SHUT_WR);
		wdone = 1;
	}
	for (;;) {
		pfd.fd = sv[0];
		pfd.events = POLLIN | (wdone ? 0 : POLLOUT);
		if (poll(&pfd, 1, TEST_HANG_MS) <= 0)
			break;
		if (!wdone && (pfd.revents & POLLOUT)) {
			n = write(sv[0], in->b + off, in->len - off);
			if (n > 0 && (off += n) == in->len) {
				if (!serve_hold)
					shutdown(sv[0], SHUT_WR);
				wdone = 1;
			} else if (n == -1 && errno != EAGAIN) {
				wdone = 1;	/* the child closed early */
			}
		}
		if (pfd.revents & (POLLIN | POLLHUP)) {
			n = read(sv[0], tmp, sizeof tmp);
			if (n == 0 || (n == -1 && errno != EAGAIN))
				break;
			if (n > 0)
				put(&raw, tmp, n);
		}
	}
	close(sv[0]);
	waitpid(pid, &st, 0);
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 99;
	for (off = 0; off + 8 <= raw.len; off += 8 + len + h[6]) {
		h = raw.b + off;
		len = (h[4] << 8) | h[5];
		if (h[0] != 1 || off + 8 + len + h[6] > raw.len) {
			r->bad = 1;
			break;
		}
		if (r->nrec < 4096) {
			r->types[r->nrec] = h[1];
			r->ids[r->nrec] = (h[2] << 8) | h[3];
			r->lens[r->nrec++] = len;
		}
		if (h[1] == FCGI_STDOUT) {
			put(&r->out, h + 8, len);
			if (len > r->maxlen)
				r->maxlen = len;
		} else if (h[1] == FCGI_END_REQUEST && len == 8 &&
		    r->nend < 16) {
			r->endid[r->nend] = (h[2] << 8) | h[3];
			r->pstatus[r->nend++] = h[8 + 4];
		} else if (h[2] == 0 && h[3] == 0) {
			r->mgmt.len = 0;
			put(&r->mgmt, h + 8, len);
		}
	}
	if (off != raw.len)
		r->bad = 1;
	put(&r->out, "", 1);	/* a string to compare */
	free(raw.b);
}

static void
reply_free(struct reply *r)
{
	free(r->out.b);
	free(r->mgmt.b);
}

static int
has(const struct reply *r, int type, unsigned id, size_t len)
{
	size_t	 i;

	for (i = 0; i < r->nrec; i++)
		if (r->types[i] == type && r->ids[i] == id && r->lens[i] == len)
			return (1);
	return (0);
}

static void
good(void)
{
	struct buf	 in = { NULL, 0, 0 }, p = { NULL, 0, 0 };
	struct reply	 r;
	char		 want[1024], v200[201];
	unsigned char	 zero[8] = { 0 };
	size_t		 cut1, cut2;

	/* Params over three records, cut inside pairs; padding. */
	memset(v200, 'v', 200);
	v200[200] = '\0';
	nv(&p, "QUERY_STRING", "file=a.folded&cmd=top", 0);
	nv(&p, "REQUEST_METHOD", "GET", 1);	/* 4-byte lengths */
	nv(&p, "HTTP_X_LONG", v200, 0);		/* 4-byte value length */
	nv(&p, "EMPTY", "", 0);
	cut1 = 5;
	cut2 = p.len - 100;
	begin(&in, 1, FCGI_RESPONDER, 0);
	rec(&in, 1, FCGI_PARAMS, 1, p.b, cut1, 3);
	rec(&in, 1, FCGI_PARAMS, 1, p.b + cut1, cut2 - cut1, 0);
	rec(&in, 1, FCGI_PARAMS, 1, p.b + cut2, p.len - cut2, 7);
	rec(&in, 1, FCGI_PARAMS, 1, NULL, 0, 0);
	rec(&in, 1, FCGI_STDIN, 1, "body", 4, 4);
	rec(&in, 1, FCGI_STDIN, 1, NULL, 0, 0);
	/* Without KEEP_CONN the connection ends: this one is not read. */
	request(&in, 2, 0, "second");
	serve(&in, &r);
	snprintf(want, sizeof want, "QUERY_STRING=file=a.folded&cmd=top\n"
	    "REQUEST_METHOD=GET\nHTTP_X_LONG=%s\nEMPTY=\n", v200);
	is_int(r.status, 0, "split params: the connection ends well");
	ok(!r.bad, "  the reply is well-formed records");
	is_str((char *)r.out.b, want, "  params over 3 records, 1- and "
	    "4-byte lengths, padding: all parsed");
	is_int(r.nend, 1, "  one END_REQUEST: no KEEP_CONN, no second "
	    "request");
	ok(r.nend == 1 && r.endid[0] == 1 &&
	    r.pstatus[0] == FCGI_REQUEST_COMPLETE,
	    "  END_REQUEST(1, FCGI_REQUEST_COMPLETE)");
	ok(has(&r, FCGI_STDOUT, 1, 0), "  an empty STDOUT ends the stream");
	ok(r.nrec >= 2 && r.types[r.nrec - 1] == FCGI_END_REQUEST &&
	    r.types[r.nrec - 2] == FCGI_STDOUT && r.lens[r.nrec - 2] == 0,
	    "  the empty STDOUT comes right before END_REQUEST");
	reply_free(&r);

	/* KEEP_CONN: two requests on one connection. */
	in.len = 0;
	request(&in, 1, FCGI_KEEP_CONN, "one");
	request(&in, 7, FCGI_KEEP_CONN, "two");
	serve(&in, &r);
	is_int(r.status, 0, "KEEP_CONN: ends well at the peer's close");
	is_str((char *)r.out.b, "QUERY_STRING=one\nQUERY_STRING=two\n",
	    "  both requests answered, in order");
	ok(r.nend == 2 && r.endid[0] == 1 && r.endid[1] == 7 &&
	    r.pstatus[0] == 0 && r.pstatus[1] == 0,
	    "  END_REQUEST for ids 1 and 7");
	reply_free(&r);

	/* GET_VALUES, each variable once; an unknown name skipped. */
	in.len = 0;
	p.len = 0;
	nv(&p, "FCGI_MAX_CONNS", "", 0);
	nv(&p, "FCGI_MAX_REQS", "", 0);
	nv(&p, "FCGI_MPXS_CONNS", "", 0);
	nv(&p, "FCGI_OTHER", "", 0);
	nv(&p, "FCGI_MAX_CONNS", "", 0);
	rec(&in, 1, FCGI_GET_VALUES, 0, p.b, p.len, 0);
	serve(&in, &r);
	p.len = 0;
	nv(&p, "FCGI_MAX_CONNS", "1", 0);
	nv(&p, "FCGI_MAX_REQS", "1", 0);
	nv(&p, "FCGI_MPXS_CONNS", "0", 0);
	ok(r.status == 0 && r.nrec == 1 &&
	    r.types[0] == FCGI_GET_VALUES_RESULT && r.mgmt.len == p.len &&
	    memcmp(r.mgmt.b, p.b, p.len) == 0,
	    "GET_VALUES: MAX_CONNS=1, MAX_REQS=1, MPXS_CONNS=0, once each");
	reply_free(&r);

	/* Unknown types, management and of a request. */
	in.len = 0;
	rec(&in, 1, 42, 0, "xy", 2, 0);
	rec(&in, 1, FCGI_END_REQUEST, 3, zero, 8, 0);
	request(&in, 1, 0, "after");
	serve(&in, &r);
	ok(r.status == 0 && r.nrec >= 2 && r.types[0] == FCGI_UNKNOWN_TYPE &&
	    r.lens[0] == 8 && r.types[1] == FCGI_UNKNOWN_TYPE,
	    "unknown types: two FCGI_UNKNOWN_TYPE");
	is_str((char *)r.out.b, "QUERY_STRING=after\n",
	    "  and the connection goes on");
	reply_free(&r);

	/* A second BEGIN while one is open; the first completes. */
	in.len = 0;
	begin(&in, 1, FCGI_RESPONDER, 0);
	begin(&in, 2, FCGI_RESPONDER, 0);
	p.len = 0;
	nv(&p, "QUERY_STRING", "first", 0);
	rec(&in, 1, FCGI_PARAMS, 2, p.b, p.len, 0);	/* not id 1's */
	rec(&in, 1, FCGI_PARAMS, 1, p.b, p.len, 0);
	rec(&in, 1, FCGI_PARAMS, 1, NULL, 0, 0);
	rec(&in, 1, FCGI_STDIN, 1, NULL, 0, 0);
	serve(&in, &r);
	ok(r.nend == 2 && r.endid[0] == 2 &&
	    r.pstatus[0] == FCGI_CANT_MPX_CONN && r.endid[1] == 1 &&
	    r.pstatus[1] == FCGI_REQUEST_COMPLETE,
	    "second BEGIN: END_REQUEST(2, CANT_MPX_CONN), then 1 completes");
	ok(!has(&r, FCGI_STDOUT, 2, 0), "  no STDOUT for the refused one");
	is_str((char *)r.out.b, "QUERY_STRING=first\n",
	    "  id 2's params were not taken for id 1");
	reply_free(&r);

	/* Other roles. */
	in.len = 0;
	begin(&in, 3, 2, FCGI_KEEP_CONN);	/* FCGI_AUTHORIZER */
	begin(&in, 4, 3, 0);			/* FCGI_FILTER */
	serve(&in, &r);
	ok(r.status == 0 && r.nend == 2 && r.endid[0] == 3 &&
	    r.pstatus[0] == FCGI_UNKNOWN_ROLE && r.endid[1] == 4 &&
	    r.pstatus[1] == FCGI_UNKNOWN_ROLE,
	    "authorizer and filter: FCGI_UNKNOWN_ROLE");
	reply_free(&r);

	/* ABORT_REQUEST before the request is whole. */
	in.len = 0;
	begin(&in, 5, FCGI_RESPONDER, FCGI_KEEP_CONN);
	rec(&in, 1, FCGI_ABORT_REQUEST, 5, NULL, 0, 0);
	rec(&in, 1, FCGI_PARAMS, 5, NULL, 0, 0);	/* stale: ignored */
	rec(&in, 1, FCGI_STDIN, 5, NULL, 0, 0);
	rec(&in, 1, FCGI_ABORT_REQUEST, 9, NULL, 0, 0);	/* unknown id */
	request(&in, 6, 0, "next");
	serve(&in, &r);
	ok(r.status == 0 && r.nend == 2 && r.endid[0] == 5 &&
	    r.endid[1] == 6, "ABORT_REQUEST: ended, the next one served");
	is_str((char *)r.out.b, "QUERY_STRING=next\n",
	    "  the aborted request never reached the handler");
	reply_free(&r);

	/*
	 * ABORT_REQUEST with params under way, a BEGIN_REQUEST of id 0
	 * (a management record of an unknown type) and GET_VALUES of a
	 * request id (an application record of an unknown type): each
	 * answered as such, the connection goes on.
	 */
	in.len = 0;
	begin(&in, 5, FCGI_RESPONDER, FCGI_KEEP_CONN);
	p.len = 0;
	nv(&p, "HALF", "way", 0);
	rec(&in, 1, FCGI_PARAMS, 5, p.b, p.len, 0);
	rec(&in, 1, FCGI_ABORT_REQUEST, 5, NULL, 0, 0);
	begin(&in, 0, FCGI_RESPONDER, 0);
	p.len = 0;
	nv(&p, "FCGI_MAX_CONNS", "", 0);
	rec(&in, 1, FCGI_GET_VALUES, 3, p.b, p.len, 0);
	request(&in, 6, 0, "after");
	serve(&in, &r);
	ok(r.status == 0 && !r.bad && r.nend == 2 && r.endid[0] == 5 &&
	    r.pstatus[0] == FCGI_REQUEST_COMPLETE && r.endid[1] == 6,
	    "ABORT_REQUEST mid-params: ended, the next one served");
	is_str((char *)r.out.b, "QUERY_STRING=after\n",
	    "  the half-read params went with it");
	ok(has(&r, FCGI_UNKNOWN_TYPE, 0, 8) &&
	    !has(&r, FCGI_GET_VALUES_RESULT, 0, r.mgmt.len) &&
	    !has(&r, FCGI_UNKNOWN_TYPE, 3, 8) &&
	    !has(&r, FCGI_END_REQUEST, 0, 8),
	    "  BEGIN_REQUEST of id 0, GET_VALUES of id 3: UNKNOWN_TYPE");
	{
		size_t	 i, nu = 0;

		for (i = 0; i < r.nrec; i++)
			nu += r.types[i] == FCGI_UNKNOWN_TYPE;
		is_int(nu, 2, "  two of them");
	}
	reply_free(&r);

	/* A large body: records of at most 65535 bytes, in order. */
	in.len = 0;
	begin(&in, 1, FCGI_RESPONDER, 0);
	p.len = 0;
	nv(&p, "BIG", "300001", 0);
	rec(&in, 1, FCGI_PARAMS, 1, p.b, p.len, 0);
	rec(&in, 1, FCGI_PARAMS, 1, NULL, 0, 0);
	rec(&in, 1, FCGI_STDIN, 1, NULL, 0, 0);
	serve(&in, &r);
	{
		size_t	 i, bad = 0;

		for (i = 0; i + 1 < r.out.len; i++)
			if (r.out.b[i] != 'a' + i % 23)
				bad++;
		ok(r.status == 0 && r.out.len - 1 == 300001 && bad == 0,
		    "a 300001-byte body arrives whole (%zu bytes)",
		    r.out.len - 1);
		ok(r.maxlen <= 65535 && r.nend == 1,
		    "  in records of at most 65535 bytes (%zu)", r.maxlen);
	}
	reply_free(&r);
	free(in.b);
	free(p.b);
}

/* A malformed stream: the connection ends (-1), nothing answered. */
static void
bad(const struct buf *in, const char *what)
{
	struct reply	 r;

	serve(in, &r);
	ok(r.status == 1 && r.nend == 0 && r.out.len == 1 && !r.bad,
	    "%s: closed, nothing answered (status %d, %zu END_REQUEST)",
	    what, r.status, r.nend);
	reply_free(&r);
}

static void
malformed(void)
{
	struct buf	 in = { NULL, 0, 0 }, p = { NULL, 0, 0 };
	unsigned char	*big;
	size_t		 i;

	request(&in, 1, 0, "x");
	in.len = 5;
	bad(&in, "a truncated header");

	in.len = 0;
	begin(&in, 1, FCGI_RESPONDER, 0);
	request(&in, 1, 0, "x");
	bad(&in, "a second BEGIN_REQUEST of the open request's id");

	in.len = 0;
	request(&in, 1, 0, "x");
	in.b[0] = 2;
	bad(&in, "version 2");
	in.b[0] = 0;
	bad(&in, "version 0");

	in.len = 0;
	begin(&in, 1, FCGI_RESPONDER, 0);
	rec(&in, 1, FCGI_PARAMS, 1, "abcdefghij", 10, 0);
	in.b[in.len - 10 + 4 - 8] = 0;
	in.b[in.len - 10 + 5 - 8] = 100;	/* says 100, has 10 */
	bad(&in, "content shorter than its length");

	in.len = 0;
	begin(&in, 1, FCGI_RESPONDER, 0);
	rec(&in, 1, FCGI_PARAMS, 1, "ab", 2, 200);
	in.len -= 100;
	bad(&in, "padding cut off");

	in.len = 0;
	rec(&in, 1, FCGI_BEGIN_REQUEST, 1, "\0\1\0\0\0", 5, 0);
	bad(&in, "a BEGIN_REQUEST of 5 bytes");

	/* Params past FCGI_PARAMS_MAX. */
	in.len = 0;
	begin(&in, 1, FCGI_RESPONDER, 0);
	if ((big = calloc(1, 40000)) == NULL)
		abort();
	rec(&in, 1, FCGI_PARAMS, 1, big, 40000, 0);
	rec(&in, 1, FCGI_PARAMS, 1, big, 40000, 0);
	rec(&in, 1, FCGI_PARAMS, 1, NULL, 0, 0);
	rec(&in, 1, FCGI_STDIN, 1, NULL, 0, 0);
	bad(&in, "80000 bytes of params");

	/* STDIN past FCGI_STDIN_MAX. */
	in.len = 0;
	begin(&in, 1, FCGI_RESPONDER, 0);
	rec(&in, 1, FCGI_PARAMS, 1, NULL, 0, 0);
	for (i = 0; i < 30; i++)
		rec(&in, 1, FCGI_STDIN, 1, big, 40000, 0);
	bad(&in, "1.2 MB of STDIN");
	free(big);

	/* Name-value lengths past their content. */
	in.len = 0;
	begin(&in, 1, FCGI_RESPONDER, 0);
	p.len = 0;
	nvlen(&p, 0x7fffffff, 1);
	nvlen(&p, 1, 0);
	put(&p, "AB", 2);
	rec(&in, 1, FCGI_PARAMS, 1, p.b, p.len, 0);
	rec(&in, 1, FCGI_PARAMS, 1, NULL, 0, 0);
	rec(&in, 1, FCGI_STDIN, 1, NULL, 0, 0);
	bad(&in, "a name length of 2^31-1");

	in.len = 0;
	begin(&in, 1, FCGI_RESPONDER, 0);
	p.len = 0;
	nv(&p, "QUERY_STRING", "abc", 0);
	p.b[1] = 4;	/* value length 4, 3 bytes left */
	rec(&in, 1, FCGI_PARAMS, 1, p.b, p.len, 0);
	rec(&in, 1, FCGI_PARAMS, 1, NULL, 0, 0);
	rec(&in, 1, FCGI_STDIN, 1, NULL, 0, 0);
	bad(&in, "a value length one past the end");

	in.len = 0;
	begin(&in, 1, FCGI_RESPONDER, 0);
	rec(&in, 1, FCGI_PARAMS, 1, "\x85\0", 2, 0);	/* 4-byte, cut */
	rec(&in, 1, FCGI_PARAMS, 1, NULL, 0, 0);
	rec(&in, 1, FCGI_STDIN, 1, NULL, 0, 0);
	bad(&in, "a 4-byte length cut after 2 bytes");

	in.len = 0;
	rec(&in, 1, FCGI_GET_VALUES, 0, "\x10" "A", 2, 0);
	bad(&in, "GET_VALUES with a name past its content");

	/* The peer gone in the middle of a request. */
	in.len = 0;
	begin(&in, 1, FCGI_RESPONDER, 0);
	rec(&in, 1, FCGI_PARAMS, 1, NULL, 0, 0);
	bad(&in, "closed before STDIN ended");
	free(in.b);
	free(p.b);
}

/*
 * Random streams and random mutations of a good one: fcgi_serve must
 * end every time (no crash, no hang), and whatever it writes back must
 * be well-formed records.
 */
static void
fuzz(void)
{
	struct buf	 in = { NULL, 0, 0 }, good = { NULL, 0, 0 };
	struct reply	 r;
	unsigned	 seed = 20261125;
	size_t		 i, j, n;
	int		 crashed = 0, badrec = 0;

	request(&good, 1, FCGI_KEEP_CONN, "file=x&cmd=top");
	request(&good, 2, 0, "file=y");
	for (i = 0; i < 400; i++) {
		in.len = 0;
		if (i % 2 == 0) {
			n = rand_r(&seed) % 600;
			for (j = 0; j < n; j++) {
				unsigned char c = rand_r(&seed);

				/* Often a version byte, to get further. */
				if (j % 8 == 0 && rand_r(&seed) % 2)
					c = 1;
				put(&in, &c, 1);
			}
		} else {
			put(&in, good.b, good.len);
			n = 1 + rand_r(&seed) % 4;
			for (j = 0; j < n; j++)
				in.b[rand_r(&seed) % in.len] = rand_r(&seed);
			if (rand_r(&seed) % 3 == 0)
				in.len = rand_r(&seed) % in.len;
		}
		serve(&in, &r);
		if (r.status == 99)
			crashed++;
		if (r.bad)
			badrec++;
		reply_free(&r);
	}
	is_int(crashed, 0, "400 random and mutated streams: no crash");
	is_int(badrec, 0, "  every reply is well-formed records");
	free(in.b);
	free(good.b);
}

static long long
now_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

/*
 * A peer that sends head, then loop every every_ms, and never closes:
 * how long fcgi_serve takes to give up (ms), its status in *st and
 * whether it answered (an END_REQUEST seen) in *answered. Built with
 * FCGI_IDLE_MS 1000 and FCGI_REQUEST_MS 2000 (tests/include.am). What
 * is checked is that it ends by itself (status 1: killed here after
 * TEST_HANG_MS it would be 99) and not before its timer: a lower bound
 * only, as a loaded machine may run the child late, never early.
 */
static long long
drip(const struct buf *head, const struct buf *loop, int every_ms,
    int *st, int *answered)
{
	unsigned char	 tmp[4096];
	long long	 t0 = now_ms();
	ssize_t		 k, n;
	pid_t		 pid;
	int		 sv[2], s = 0;

	*answered = 0;
	pid = serve_child(-1, &sv[0]);
	if (write(sv[0], head->b, head->len) != (ssize_t)head->len)
		abort();
	(void)fcntl(sv[0], F_SETFL, O_NONBLOCK);
	while (waitpid(pid, &s, WNOHANG) == 0) {
		if (now_ms() - t0 > TEST_HANG_MS) {
			kill(pid, SIGKILL);
			waitpid(pid, &s, 0);
			break;
		}
		if (loop->len > 0)
			(void)write(sv[0], loop->b, loop->len);
		while ((k = read(sv[0], tmp, sizeof tmp)) > 0)
			for (n = 0; n + 1 < k; n++)
				if (tmp[n] == 1 &&
				    tmp[n + 1] == FCGI_END_REQUEST)
					*answered = 1;
		(void)poll(NULL, 0, every_ms);
	}
	close(sv[0]);
	*st = WIFEXITED(s) ? WEXITSTATUS(s) : 99;
	return (now_ms() - t0);
}

/* Peers too slow, or silent: each ends the connection in bounded time. */
static void
slow(void)
{
	struct buf	 head = { NULL, 0, 0 }, loop = { NULL, 0, 0 };
	unsigned char	 h[8] = { 1, FCGI_PARAMS, 0, 1, 0x10, 0, 0, 0 };
	long long	 ms;
	int		 st, ans;

	/* BEGIN, then nothing. */
	begin(&head, 1, FCGI_RESPONDER, 0);
	ms = drip(&head, &loop, 10, &st, &ans);
	ok(st == 1 && !ans && ms >= 900,
	    "a silent peer after BEGIN: closed after the idle time (%lld ms)",
	    ms);

	/* A 4096-byte params record, a byte every 20 ms: whole in 80 s. */
	put(&head, h, sizeof h);
	put(&loop, "v", 1);
	ms = drip(&head, &loop, 20, &st, &ans);
	ok(st == 1 && !ans && ms >= 900,
	    "a record trickling in a byte at a time: closed (%lld ms)", ms);

	/* Whole empty DATA records every 100 ms, for ever. */
	head.len = 0;
	loop.len = 0;
	begin(&head, 1, FCGI_RESPONDER, 0);
	rec(&loop, 1, FCGI_DATA, 1, NULL, 0, 0);
	ms = drip(&head, &loop, 100, &st, &ans);
	ok(st == 1 && !ans && ms >= 1900,
	    "a request kept open by records of another stream: closed "
	    "after the request time (%lld ms)", ms);
	free(head.b);
	free(loop.b);
}

/*
 * A peer that asks for 8 MB and never reads: fcgi_serve gives up after
 * FCGI_WRITE_MS (1000 here) of no progress, instead of blocking the
 * process until a signal (a FastCGI process is not killed for it, as a
 * CGI would be).
 */
static void
stall(void)
{
	struct buf	 in = { NULL, 0, 0 }, p = { NULL, 0, 0 };
	long long	 t0;
	pid_t		 pid;
	int		 sv[2], s = 0;

	begin(&in, 1, FCGI_RESPONDER, 0);
	nv(&p, "BIG", "8000000", 0);
	rec(&in, 1, FCGI_PARAMS, 1, p.b, p.len, 0);
	rec(&in, 1, FCGI_PARAMS, 1, NULL, 0, 0);
	rec(&in, 1, FCGI_STDIN, 1, NULL, 0, 0);
	pid = serve_child(-1, &sv[0]);
	t0 = now_ms();
	if (write(sv[0], in.b, in.len) != (ssize_t)in.len)
		abort();
	while (waitpid(pid, &s, WNOHANG) == 0) {
		if (now_ms() - t0 > TEST_HANG_MS) {
			kill(pid, SIGKILL);
			waitpid(pid, &s, 0);
			break;
		}
		(void)poll(NULL, 0, 20);
	}
	t0 = now_ms() - t0;
	ok(WIFEXITED(s) && WEXITSTATUS(s) == 1 && t0 >= 900,
	    "a peer that never reads its answer: left after the write "
	    "time (%lld ms)", t0);
	close(sv[0]);
	free(in.b);
	free(p.b);
}

/* The FastCGI test of deepq.cgi's main: a listener, not a pipe. */
static void
listener(void)
{
	struct sockaddr_in	 sin;
	int			 sv[2], p[2], l;

	ok(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0 && pipe(p) == 0,
	    "a socketpair and a pipe");
	ok(!fcgi_is_listener(sv[0]), "a connected socket is not a listener");
	ok(!fcgi_is_listener(p[0]), "a pipe is not a listener");
	ok(!fcgi_is_listener(-1), "a closed fd is not a listener");
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	l = socket(AF_INET, SOCK_STREAM, 0);
	ok(l != -1 && bind(l, (struct sockaddr *)&sin, sizeof sin) == 0 &&
	    listen(l, 1) == 0 && fcgi_is_listener(l),
	    "a listening socket is");

	/* A kept connection, idle, yields to one waiting on the listener. */
	{
		struct buf	 in = { NULL, 0, 0 };
		struct reply	 r;
		socklen_t	 len = sizeof sin;
		int		 c;

		request(&in, 1, FCGI_KEEP_CONN, "kept");
		c = socket(AF_INET, SOCK_STREAM, 0);
		ok(getsockname(l, (struct sockaddr *)&sin, &len) == 0 &&
		    connect(c, (struct sockaddr *)&sin, sizeof sin) == 0,
		    "a connection waits on the listener");
		serve_lfd = l;
		serve_hold = 1;
		serve(&in, &r);
		serve_lfd = -1;
		serve_hold = 0;
		ok(r.status == 0 && r.nend == 1 &&
		    strcmp((char *)r.out.b, "QUERY_STRING=kept\n") == 0,
		    "a kept connection is answered, then closed for it");
		reply_free(&r);

		/* Its first request late: served all the same. */
		serve_lfd = l;
		serve_hold = 1;
		serve_delay_ms = 300;
		serve(&in, &r);
		serve_lfd = -1;
		serve_hold = 0;
		serve_delay_ms = 0;
		ok(r.status == 0 && r.nend == 1 &&
		    strcmp((char *)r.out.b, "QUERY_STRING=kept\n") == 0,
		    "  one whose first record comes late is answered first");
		reply_free(&r);
		free(in.b);
		close(c);
	}
	close(l);
	close(sv[0]);
	close(sv[1]);
	close(p[0]);
	close(p[1]);
}

int
main(void)
{
	signal(SIGPIPE, SIG_IGN);
	good();
	malformed();
	fuzz();
	slow();
	stall();
	listener();
	return (tap_done());
}
