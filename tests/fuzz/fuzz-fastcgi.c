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
 * Fuzz harness for deepq.cgi's FastCGI records (cgi/fastcgi.c): the
 * input is what a web server sends on one connection. It is served by
 * fcgi_serve, in this process so that the fuzzer sees its coverage, on
 * one end of a socketpair; a thread writes the input into the other end
 * and reads back what comes out, so that neither side blocks the other.
 * The handler echoes the parameters, and with N=n adds n bytes (up to
 * two STDOUT records). What comes back must be whole version 1 records:
 * STDOUT and END_REQUEST only for a request id the input began, an
 * END_REQUEST of 8 bytes. The input is also given to fcgi_parse_params
 * as one name-value stream, whose pairs must lie within it.
 */

#include "config.h"

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../cgi/fastcgi.h"

#define FUZZ_IN_MAX	(256 * 1024)	/* inputs are cut to this */
#define FUZZ_OUT_MAX	(4 * 1024 * 1024)
#define FUZZ_EXTRA_MAX	70000	/* N: just over one STDOUT record */

struct fuzz_peer {
	int			 fd;
	const unsigned char	*in;
	size_t			 inlen;
	unsigned char		*out;
	size_t			 outlen;
};

int		 LLVMFuzzerTestOneInput(const uint8_t *, size_t);
static void	*fuzz_peer(void *);
static void	 fuzz_echo(struct fcgi_request *, void *);
static void	 fuzz_check(const unsigned char *, size_t,
		    const unsigned char *, size_t);
static void	 fuzz_params(const unsigned char *, size_t);

/* The web server's side: write the input, read until we close. */
static void *
fuzz_peer(void *arg)
{
	struct fuzz_peer	*p = arg;
	struct pollfd		 pfd;
	size_t			 off = 0;
	ssize_t			 n;
	int			 eof = 0;

	if (p->inlen == 0)
		(void)shutdown(p->fd, SHUT_WR);
	while (!eof) {
		pfd.fd = p->fd;
		pfd.events = POLLIN | (off < p->inlen ? POLLOUT : 0);
		if (poll(&pfd, 1, -1) == -1) {
			if (errno == EINTR)
				continue;
			abort();
		}
		if (off < p->inlen && (pfd.revents & POLLOUT)) {
			n = write(p->fd, p->in + off, p->inlen - off);
			if (n > 0 && (off += n) == p->inlen)
				(void)shutdown(p->fd, SHUT_WR);
			if (n == -1 && errno != EAGAIN && errno != EINTR) {
				/* We closed first: stop writing. */
				off = p->inlen;
			}
		}
		if (pfd.revents & (POLLIN | POLLHUP | POLLERR)) {
			if (p->outlen == FUZZ_OUT_MAX)
				abort();	/* a reply without bound */
			n = read(p->fd, p->out + p->outlen,
			    FUZZ_OUT_MAX - p->outlen);
			if (n > 0)
				p->outlen += n;
			else if (n == 0 || (errno != EAGAIN &&
			    errno != EINTR))
				eof = 1;
		}
	}
	return (NULL);
}

static void
fuzz_echo(struct fcgi_request *r, void *arg)
{
	static char	 pad[FUZZ_EXTRA_MAX];
	struct iovec	 iov[4];
	const char	*n;
	size_t		 i, extra = 0;

	(void)arg;
	if ((n = fcgi_param(r, "N")) != NULL)
		extra = strtoul(n, NULL, 10) % (FUZZ_EXTRA_MAX + 1);
	memset(pad, 'x', sizeof pad);
	for (i = 0; i < r->fr_nparams; i++) {
		iov[0].iov_base = (void *)r->fr_params[i].name;
		iov[0].iov_len = strlen(r->fr_params[i].name);
		iov[1].iov_base = "=";
		iov[1].iov_len = 1;
		iov[2].iov_base = (void *)r->fr_params[i].value;
		iov[2].iov_len = strlen(r->fr_params[i].value);
		iov[3].iov_base = "\n";
		iov[3].iov_len = 1;
		if (fcgi_stdout(r, iov, 4) == -1)
			return;
	}
	iov[0].iov_base = pad;
	iov[0].iov_len = extra;
	(void)fcgi_stdout(r, iov, 1);
}

/*
 * What came back: whole records, STDOUT and END_REQUEST for ids that
 * the input had a BEGIN_REQUEST header for (the input is scanned
 * loosely: any 8 bytes that look like one count).
 */
static void
fuzz_check(const unsigned char *in, size_t inlen, const unsigned char *b,
    size_t len)
{
	size_t		 off = 0, n, i;
	unsigned int	 id;
	int		 type, seen;

	while (off < len) {
		if (len - off < FCGI_HEADER_LEN || b[off] != FCGI_VERSION_1)
			abort();
		type = b[off + 1];
		id = (b[off + 2] << 8) | b[off + 3];
		n = (b[off + 4] << 8) | b[off + 5];
		if (len - off - FCGI_HEADER_LEN < n + b[off + 6])
			abort();
		switch (type) {
		case FCGI_END_REQUEST:
			if (n != 8)
				abort();
			/* FALLTHROUGH */
		case FCGI_STDOUT:
			if (id == 0)
				abort();
			for (seen = 0, i = 0; !seen && i + 8 <= inlen; i++)
				seen = in[i] == FCGI_VERSION_1 &&
				    in[i + 1] == FCGI_BEGIN_REQUEST &&
				    (unsigned int)((in[i + 2] << 8) | in[i + 3]) == id;
			if (!seen)
				abort();
			break;
		case FCGI_GET_VALUES_RESULT:
		case FCGI_UNKNOWN_TYPE:
			if (id != 0)
				abort();
			break;
		default:
			abort();
		}
		off += FCGI_HEADER_LEN + n + b[off + 6];
	}
}

/* The input as a PARAMS stream: every pair within it, NUL-ended. */
static void
fuzz_params(const unsigned char *b, size_t len)
{
	struct fcgi_param	*p;
	size_t			 np, i, used = 0;
	char			*strs;

	if (fcgi_parse_params(b, len, &p, &np, &strs) == -1)
		return;
	for (i = 0; i < np; i++)
		used += strlen(p[i].name) + strlen(p[i].value) + 2;
	if (used > len + 2 * np || np > len / 2)
		abort();
	free(p);
	free(strs);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned char	*out;
	struct fuzz_peer	 peer;
	pthread_t		 t;
	char			*cause;
	int			 sv[2];

	if (size > FUZZ_IN_MAX)
		size = FUZZ_IN_MAX;
	fuzz_params(data, size);
	if (out == NULL && (out = malloc(FUZZ_OUT_MAX)) == NULL)
		abort();
	signal(SIGPIPE, SIG_IGN);
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == -1)
		abort();
	(void)fcntl(sv[1], F_SETFL, O_NONBLOCK);
	memset(&peer, 0, sizeof peer);
	peer.fd = sv[1];
	peer.in = data;
	peer.inlen = size;
	peer.out = out;
	if (pthread_create(&t, NULL, fuzz_peer, &peer) != 0)
		abort();
	(void)fcgi_serve(sv[0], -1, fuzz_echo, NULL, NULL, &cause);
	free(cause);
	close(sv[0]);
	if (pthread_join(t, NULL) != 0)
		abort();
	close(sv[1]);
	fuzz_check(data, size, peer.out, peer.outlen);
	return (0);
}
