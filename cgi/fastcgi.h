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


#ifndef FASTCGI_H
#define FASTCGI_H

/*
 * deepq.cgi as a FastCGI 1.0 responder: the records of one connection
 * from the web server, one request at a time (no multiplexing), each
 * handed to a callback with its parameters; the callback's output goes
 * back as FCGI_STDOUT records. The web server is trusted to speak the
 * protocol, not to be right: a malformed connection is closed, the
 * process serves the next one.
 */

#include <sys/types.h>
#include <sys/uio.h>

#include <signal.h>

#define FCGI_LISTENSOCK_FILENO	0	/* the web server's listener */
#define FCGI_VERSION_1		1
#define FCGI_HEADER_LEN		8
#define FCGI_CONTENT_MAX	65535
#define FCGI_PADDING_MAX	255

/* Record types. */
#define FCGI_BEGIN_REQUEST	1
#define FCGI_ABORT_REQUEST	2
#define FCGI_END_REQUEST	3
#define FCGI_PARAMS		4
#define FCGI_STDIN		5
#define FCGI_STDOUT		6
#define FCGI_STDERR		7
#define FCGI_DATA		8
#define FCGI_GET_VALUES		9
#define FCGI_GET_VALUES_RESULT	10
#define FCGI_UNKNOWN_TYPE	11

/* Roles, flags and protocol statuses. */
#define FCGI_RESPONDER		1
#define FCGI_KEEP_CONN		1
#define FCGI_REQUEST_COMPLETE	0
#define FCGI_CANT_MPX_CONN	1
#define FCGI_OVERLOADED		2
#define FCGI_UNKNOWN_ROLE	3

/* Our bounds on what the web server sends. */
#define FCGI_PARAMS_MAX		(64 * 1024)	/* a request's name-values */
#define FCGI_STDIN_MAX		(1024 * 1024)	/* read and dropped */
#ifndef FCGI_IDLE_MS	/* (the unit test makes them short) */
#define FCGI_IDLE_MS		60000	/* a connection with no record */
#endif
#ifndef FCGI_REQUEST_MS
#define FCGI_REQUEST_MS		60000	/* a request's records, all */
#endif
#ifndef FCGI_WRITE_MS
#define FCGI_WRITE_MS		60000	/* a peer not reading our answer */
#endif
#ifndef FCGI_SLICE_MS
#define FCGI_SLICE_MS		1000	/* between looks at *stop */
#endif

struct fcgi_param {
	const char	*name;
	const char	*value;
};

/* The request being answered, as the callback sees it. */
struct fcgi_request {
	int			 fr_fd;
	unsigned int		 fr_id;
	int			 fr_keep;	/* FCGI_KEEP_CONN was set */
	int			 fr_failed;	/* a write failed */
	int			 fr_errno;	/* its errno */
	struct fcgi_param	*fr_params;
	size_t			 fr_nparams;
	volatile sig_atomic_t	*fr_cancel;
};

typedef void	(*fcgi_handler)(struct fcgi_request *, void *);

int		 fcgi_is_listener(int);
int		 fcgi_serve(int, int, fcgi_handler, void *,
		     volatile sig_atomic_t *, char **);
const char	*fcgi_param(const struct fcgi_request *, const char *);
int		 fcgi_stdout(void *, struct iovec *, int);
int		 fcgi_parse_params(const unsigned char *, size_t,
		     struct fcgi_param **, size_t *, char **);

#endif /* FASTCGI_H */
