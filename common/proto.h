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


#ifndef PROTO_H
#define PROTO_H

/*
 * The rendezvous wire protocol between clients (deepq.cgi, deepq query,
 * deepq web) and deepq-server, and the names of the files in the
 * runtime directory. Bump PROTO_VERSION if anything here changes.
 *
 * A request is one frame written to the server's request FIFO in one
 * write(2) of at most PROTO_ATOMIC (PIPE_BUF) bytes, so it is atomic:
 *
 *	0   magic "DQrq"
 *	4   version (u16)		first 24 bytes fixed in every version,
 *	6   flags (u16)			so any server can answer a client of
 *	8   request id (16 hex chars)	another version
 *	24  name length (u16)		the profile's display name
 *	26  static length (u16)		URL prefix of the www/ assets
 *	28  query length (u32)
 *	32  root length (u16)		the client's profile root (base=)
 *	34  reserved (u16)		zero
 *	36  checksum (u32)		FNV-1a of bytes 0-35 and the payload
 *	40  name, static, root, query	query absent with PROTO_REQ_FILE
 *
 * The root is the canonical directory the client resolved file= under;
 * the server resolves base= under it (deepq-server(8)). Clients of one
 * profile may use different roots (deepq.cgi's profile_root, `deepq
 * query''s file directory), so it travels with each request rather than
 * being fixed when the server starts. It confines only names a web user
 * supplies: whoever can write the FIFO is its owner anyway.
 *
 * A query too big for one atomic frame goes in the regular file
 * KEY.query.ID beside the FIFO and the frame says PROTO_REQ_FILE.
 *
 * The answer goes to the client's own reply FIFO, KEY.reply.ID, which the
 * client created and opened before sending: no two clients ever share a
 * reply channel, and the echoed id is checked on receipt.
 *
 *	0   magic "DQan"
 *	4   version (u16)
 *	6   status (u16)		HTTP status
 *	8   request id (16 hex chars)
 *	24  retry after (u32)		seconds, 0 for none
 *	28  content type length (u16)
 *	30  reserved (u16)
 *	32  message length (u32)	the error's text, 0 on success
 *	36  body length (u32)
 *	40  checksum (u32)		FNV-1a of bytes 0-39
 *	44  reserved (u32)
 *	48  content type, message, body
 *
 * Integers are big-endian. Every length is bounded below.
 */

#include <sys/types.h>

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

struct answer;

#define PROTO_VERSION		2

#define PROTO_ID_LEN		16	/* hex chars of a request id */
#define PROTO_KEY_LEN		32	/* hex chars of a file key */
#define PROTO_NAME_MAX		80	/* bytes of a runtime file name */

#define PROTO_REQ_HDR		40
#define PROTO_ANS_HDR		48
#define PROTO_ATOMIC		(PIPE_BUF < 4096 ? PIPE_BUF : 4096)
#define PROTO_MAX_NAME		4096
#define PROTO_MAX_STATIC	1024
#define PROTO_MAX_ROOT		1024
#define PROTO_MAX_QUERY		65536
#define PROTO_MAX_CTYPE		128
#define PROTO_MAX_MESSAGE	4096
#define PROTO_MAX_BODY		(512U * 1024 * 1024)

#define PROTO_REQ_FILE		0x1	/* query in KEY.query.ID */

/* Runtime file kinds: KEY.KIND or KEY.KIND.ID. */
#define PROTO_LOCK		"lock"	/* the mutex: flock, never removed */
#define PROTO_ALIVE		"alive"	/* liveness: the server's flock */
#define PROTO_FIFO		"fifo"	/* the server's request FIFO */
#define PROTO_WANT		"want"	/* a client wants the server */
#define PROTO_REPLY		"reply"	/* a client's reply FIFO */
#define PROTO_QUERY		"query"	/* a big query's text */
#define PROTO_SECRET		"secret"	/* a view's password file */
#define PROTO_SPAWN_LOCK	"spawn.lock"	/* counts servers at start */

/* Readiness bytes a new server writes on the pipe from its starter. */
#define PROTO_READY_LOCKED	'L'	/* holds the liveness lock */
#define PROTO_READY_OK		'R'	/* FIFO in place, serving */
#define PROTO_READY_ERROR	'E'	/* followed by the message */
#define PROTO_READY_BUSY	'B'	/* another server has the file */
#define PROTO_READY_TOOLARGE	'T'	/* an error: over a size limit */

/*
 * A load error whose message holds this text is a service the profile
 * needs being down (a view's ClickHouse), not a bad profile: the client
 * answers 503 and the caller may retry.
 */
#define PROTO_UNAVAILABLE_TEXT	"ClickHouse unavailable at "
/* How an error message of the runtime directory's begins (not a load's). */
#define PROTO_READY_RUNDIR	"runtime directory: "

struct proto_req {
	unsigned int	 version;
	unsigned int	 flags;
	char		 id[PROTO_ID_LEN + 1];
	char		*name;
	char		*static_base;
	char		*root;		/* "" if the client sent none */
	char		*query;
	size_t		 query_len;
};

struct proto_ans {
	unsigned int	 version;
	int		 status;
	char		 id[PROTO_ID_LEN + 1];
	unsigned int	 retry_after;
	size_t		 ctype_len;
	size_t		 message_len;
	size_t		 body_len;
};

int		 proto_id_new(char *, char **);
int		 proto_hex_valid(const char *, size_t);
int		 proto_name(char *, size_t, const char *, const char *,
		     const char *);
int		 proto_name_parse(const char *, char *, char *, size_t,
		     char *);
char		*proto_req_encode(const struct proto_req *, size_t *,
		     char **);
ssize_t		 proto_req_decode(const void *, size_t, struct proto_req *,
		     char **);
size_t		 proto_req_resync(const void *, size_t);
void		 proto_req_clear(struct proto_req *);
void		 proto_ans_header(unsigned char *, const char *,
		     const struct answer *);
ssize_t		 proto_ans_decode(const void *, size_t, struct proto_ans *,
		     char **);
int		 proto_ctype_valid(const char *, size_t);

#endif /* PROTO_H */
