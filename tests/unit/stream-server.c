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
#include <arpa/inet.h>

#include <err.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * A fake ClickHouse for the tests (view-stream.sh): it listens on a
 * free loopback port (written to PORTFILE) and answers a view's queries
 * (engine/view-query.c): the summary (one profile), the labels (none),
 * the metrics (samples, count), and the stacks with MODE:
 *
 *   row	one RowBinary row (the stack "main"; 5) and the end: a
 *		view of it loads;
 *   zeros	a 200 in chunked coding whose chunks of zero bytes never
 *		end (each 18 zero bytes are a valid row: stack hash 0, no
 *		frames, 0), until the client hangs up;
 *
 * and writes the bytes of body it sent to COUNTFILE when a client hangs
 * up. Until killed.
 */

static void	serve_bytes(int, const void *, size_t);
static size_t	serve_zeros(int);
static int	read_request(int);

/* What a request asks (read_request). */
#define ASK_SUMMARY	0
#define ASK_METRICS	1
#define ASK_STACKS	2
#define ASK_LABELS	3

/*
 * The whole request (headers, then Content-Length bytes): a socket
 * closed with bytes unread would reset the connection under the answer.
 * Which of the view's queries it is, by its SQL.
 */
static int
read_request(int fd)
{
	static char	 buf[1 << 20];
	char		*e, *cl;
	size_t		 have = 0, want = 0;
	ssize_t		 n;

	while (have < sizeof buf - 1) {
		if ((n = read(fd, buf + have, sizeof buf - 1 - have)) <= 0)
			break;
		have += (size_t)n;
		buf[have] = '\0';
		if (want == 0 && (e = strstr(buf, "\r\n\r\n")) != NULL) {
			if ((cl = strcasestr(buf, "Content-Length:")) != NULL &&
			    cl < e)
				want = strtoul(cl + 15, NULL, 10);
			want += (size_t)(e + 4 - buf);
		}
		if (want != 0 && have >= want)
			break;
	}
	if (strstr(buf, "uniqExact(profile_id), ") != NULL)
		return (ASK_SUMMARY);
	if (strstr(buf, "arrayEnumerate(metrics)") != NULL)
		return (ASK_METRICS);
	if (strstr(buf, "ARRAY JOIN labels") != NULL)
		return (ASK_LABELS);
	return (ASK_STACKS);
}

static int
write_all(int fd, const void *p, size_t n)
{
	const char	*s = p;
	ssize_t		 k;

	while (n > 0) {
		if ((k = write(fd, s, n)) == -1) {
			if (errno == EINTR)
				continue;
			return (-1);
		}
		s += k;
		n -= (size_t)k;
	}
	return (0);
}

/* A 200 whose body is the n bytes at p, ended by the connection. */
static void
serve_bytes(int fd, const void *p, size_t n)
{
	static const char	 head[] = "HTTP/1.0 200 OK\r\n"
	    "Content-Type: application/octet-stream\r\n\r\n";

	(void)write_all(fd, head, sizeof head - 1);
	(void)write_all(fd, p, n);
}

/* The answers (RowBinary) to the summary, the metrics, one stack. */
static const unsigned char summary[] = {
	1, 0, 0, 0, 0, 0, 0, 0,			/* profiles */
	0, 0x5e, 0xd0, 0x69,			/* first */
	0, 0x5e, 0xd0, 0x69,			/* last */
};
static const unsigned char metrics[] = {
	7, 's', 'a', 'm', 'p', 'l', 'e', 's',	/* metric */
	0, 0, 0, 0, 0, 0, 0, 0,			/* index */
	5, 'c', 'o', 'u', 'n', 't',		/* unit */
	0, 0, 0, 0, 0, 0, 0, 0,			/* rate */
};
static const unsigned char row[] = {
	1, 0, 0, 0, 0, 0, 0, 0,			/* stack_hash */
	1, 4, 'm', 'a', 'i', 'n',		/* funcs */
	1, 0,					/* modules */
	5, 0, 0, 0, 0, 0, 0, 0,			/* v0 */
};

static size_t
serve_zeros(int fd)
{
	static const char	 head[] = "HTTP/1.0 200 OK\r\n"
	    "Transfer-Encoding: chunked\r\n\r\n";
	static char		 chunk[8 + 65536 + 2];
	size_t			 sent = 0;
	int			 n;

	n = snprintf(chunk, sizeof chunk, "%x\r\n", 65536);
	memset(chunk + n, 0, 65536);
	memcpy(chunk + n + 65536, "\r\n", 2);
	if (write_all(fd, head, sizeof head - 1) == -1)
		return (0);
	while (write_all(fd, chunk, n + 65536 + 2) == 0)
		sent += 65536;
	return (sent);
}

int
main(int argc, char **argv)
{
	struct sockaddr_in	 sin;
	socklen_t		 len = sizeof sin;
	FILE			*f;
	size_t			 sent;
	int			 s, c, ask, one = 1;

	if (argc != 4 || (strcmp(argv[1], "row") != 0 &&
	    strcmp(argv[1], "zeros") != 0))
		errx(1, "usage: stream-server row|zeros portfile countfile");
	signal(SIGPIPE, SIG_IGN);
	if ((s = socket(AF_INET, SOCK_STREAM, 0)) == -1)
		err(1, "socket");
	(void)setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(s, (struct sockaddr *)&sin, sizeof sin) == -1 ||
	    listen(s, 16) == -1 ||
	    getsockname(s, (struct sockaddr *)&sin, &len) == -1)
		err(1, "bind");
	if ((f = fopen(argv[2], "w")) == NULL)
		err(1, "%s", argv[2]);
	fprintf(f, "%u\n", ntohs(sin.sin_port));
	fclose(f);
	for (;;) {
		if ((c = accept(s, NULL, NULL)) == -1)
			continue;
		ask = read_request(c);
		sent = 0;
		if (ask == ASK_SUMMARY)
			serve_bytes(c, summary, sizeof summary);
		else if (ask == ASK_METRICS)
			serve_bytes(c, metrics, sizeof metrics);
		else if (ask == ASK_LABELS)
			serve_bytes(c, "", 0);
		else if (strcmp(argv[1], "row") == 0)
			serve_bytes(c, row, sizeof row);
		else
			sent = serve_zeros(c);
		close(c);
		if ((f = fopen(argv[3], "w")) != NULL) {
			fprintf(f, "%zu\n", sent);
			fclose(f);
		}
	}
}
