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
 * The attacker of T34/T35 (tests/integration/rendezvous-squat.sh): a
 * fake deepq-server that squats a directory before the real one. It
 * plants every runtime file of one key there (the mutex, the liveness
 * lock, which it holds, the request FIFO, spawn.lock and a want file)
 * with the given mode, so whoever can open them may, then answers each
 * request it gets with the next payload (a path such as /etc/shadow, a
 * traversal, shell metacharacters) as the body and the message; it logs
 * each request id to LOG. The test runs it as another user; if a client
 * ever talked to it, LOG says so.
 *
 *	squat-server MODE DIR KEY LOG READY PAYLOAD...
 *
 * READY is created once everything is in place. It exits on SIGTERM,
 * or after a minute in any case.
 */

#include "config.h"

#include <sys/types.h>
#include <sys/file.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "answer.h"
#include "proto.h"

static int	squat_file(int, const char *, const char *, mode_t);
static void	squat_answer(int, const struct proto_req *, const char *,
		    const char *);

/* Create (or take over) KEY.kind in dir with mode; returns its fd. */
static int
squat_file(int dirfd, const char *key, const char *kind, mode_t mode)
{
	char	 name[PROTO_NAME_MAX];
	int	 fd;

	if (key != NULL)
		snprintf(name, sizeof name, "%s.%s", key, kind);
	else
		snprintf(name, sizeof name, "%s", kind);
	if ((fd = openat(dirfd, name, O_RDWR | O_CREAT, mode)) == -1 ||
	    fchmod(fd, mode) == -1) {
		fprintf(stderr, "squat-server: %s: %s\n", name,
		    strerror(errno));
		exit(1);
	}
	return (fd);
}

/* Answer request r on its reply FIFO with payload as body and message. */
static void
squat_answer(int dirfd, const struct proto_req *r, const char *key,
    const char *payload)
{
	struct answer	 a;
	unsigned char	 hdr[PROTO_ANS_HDR];
	char		 name[PROTO_NAME_MAX];
	int		 fd;

	snprintf(name, sizeof name, "%s.%s.%s", key, PROTO_REPLY, r->id);
	if ((fd = openat(dirfd, name, O_WRONLY | O_NONBLOCK)) == -1)
		return;
	memset(&a, 0, sizeof a);
	a.status = 200;
	a.content_type = "text/html; charset=utf-8";
	a.message = (char *)payload;
	a.body = (char *)payload;
	a.len = strlen(payload);
	proto_ans_header(hdr, r->id, &a);
	if (write(fd, hdr, sizeof hdr) != (ssize_t)sizeof hdr ||
	    write(fd, a.content_type, strlen(a.content_type)) == -1 ||
	    write(fd, payload, a.len) == -1 ||
	    write(fd, payload, a.len) == -1)
		fprintf(stderr, "squat-server: %s: %s\n", name,
		    strerror(errno));
	close(fd);
}

int
main(int argc, char **argv)
{
	struct proto_req	 r;
	char			 buf[PROTO_ATOMIC * 4], name[PROTO_NAME_MAX];
	char			*why = NULL, *end;
	const char		*key;
	FILE			*log;
	mode_t			 mode;
	size_t			 len = 0;
	ssize_t			 n, used;
	int			 dirfd, alive, fifo, fd, next = 0, npayload;

	if (argc < 7) {
		fprintf(stderr, "usage: squat-server mode dir key log ready "
		    "payload...\n");
		return (2);
	}
	mode = strtoul(argv[1], &end, 8);
	key = argv[3];
	npayload = argc - 6;
	if (*end != '\0' || !proto_hex_valid(key, PROTO_KEY_LEN) ||
	    strlen(key) != PROTO_KEY_LEN) {
		fprintf(stderr, "squat-server: bad mode or key\n");
		return (2);
	}
	alarm(60);
	if ((dirfd = open(argv[2], O_RDONLY | O_DIRECTORY)) == -1 ||
	    (log = fopen(argv[4], "a")) == NULL) {
		fprintf(stderr, "squat-server: %s\n", strerror(errno));
		return (1);
	}
	setvbuf(log, NULL, _IOLBF, 0);

	/* Every file of the key, the liveness lock held as a server does. */
	close(squat_file(dirfd, key, PROTO_LOCK, mode));
	close(squat_file(dirfd, NULL, PROTO_SPAWN_LOCK, mode));
	close(squat_file(dirfd, key, PROTO_WANT ".0000000000000000", mode));
	alive = squat_file(dirfd, key, PROTO_ALIVE, mode);
	if (flock(alive, LOCK_EX) == -1)
		return (1);
	dprintf(alive, "%ld\n", (long)getpid());
	snprintf(name, sizeof name, "%s.%s", key, PROTO_FIFO);
	if ((mkfifoat(dirfd, name, mode) == -1 && errno != EEXIST) ||
	    fchmodat(dirfd, name, mode, 0) == -1 ||
	    (fifo = openat(dirfd, name, O_RDWR)) == -1) {
		fprintf(stderr, "squat-server: %s: %s\n", name,
		    strerror(errno));
		return (1);
	}
	if ((fd = open(argv[5], O_WRONLY | O_CREAT, 0644)) == -1) {
		fprintf(stderr, "squat-server: %s: %s\n", argv[5],
		    strerror(errno));
		return (1);
	}
	close(fd);

	/* Serve: answer every framed request with the next payload. */
	for (;;) {
		if ((n = read(fifo, buf + len, sizeof buf - len)) <= 0)
			return (1);
		len += n;
		while (len > 0) {
			used = proto_req_decode(buf, len, &r, &why);
			free(why);
			why = NULL;
			if (used == 0)
				break;
			if (used == -1) {
				len = 0;
				break;
			}
			fprintf(log, "request %s\n", r.id);
			squat_answer(dirfd, &r, key,
			    argv[6 + next++ % npayload]);
			proto_req_clear(&r);
			memmove(buf, buf + used, len - used);
			len -= used;
		}
	}
}
