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


#ifndef CLIENT_H
#define CLIENT_H

/*
 * The client side of the rendezvous, shared by deepq.cgi, `deepq query',
 * `deepq stop', `deepq status' and `deepq web' (in-process). For one
 * query (doc/architecture.md has the whole request):
 *
 *	create a want file -> take the file's mutex (flock, deadline) ->
 *	if its FIFO exists and its server holds the liveness lock: send the
 *	request, release the mutex, read the answer from our own reply FIFO
 *	with a deadline (and notice the server dying) -> remove the want
 *	file.
 *
 *	No server: remove leftovers, start deepq-server (fork, setsid,
 *	fork, exec: never a shell), wait until it holds the liveness lock,
 *	release the mutex, wait for it to be ready. A load that takes longer
 *	than load_wait gives a 503 "loading" answer (Retry-After, a page
 *	that reloads itself) while the server keeps loading; clients that
 *	come meanwhile see the liveness lock held and wait too: never a
 *	second loader.
 *
 * The result is always an answer (errors are 4xx/5xx answers in the
 * format the query asked for); NULL only when out of memory. The caller
 * must ignore SIGPIPE. Nothing here exits, prints or keeps global state.
 */

#include <sys/types.h>

#include <signal.h>

struct answer;
struct config;

struct client_options {
	const char		*root;		/* profile root; NULL: config */
	const char		*name;		/* display name; NULL: file= */
	const char		*static_base;	/* NULL: config's static_url */
	int			 load_wait;	/* seconds; -1: config's */
	int			 nospawn;	/* never start a server */
	volatile sig_atomic_t	*cancel;	/* set by a signal: give up */
	/* Details the client's answer leaves out (paths): NULL, dropped. */
	void			(*log)(const char *);
};

/* A running server, from client_list(). */
struct client_server {
	char		 key[33];
	pid_t		 pid;
	char		*path;		/* its profile, as it recorded it */
	int		 serving;	/* 0 while still loading */
};

void		 client_options_init(struct client_options *);
struct answer	*client_query(const struct config *, const char *,
		     const char *, char **);
struct answer	*client_query_with(const struct config *,
		     const struct client_options *, const char *,
		     const char *, char **);
struct answer	*client_query_key(const struct config *,
		     const struct client_options *, const char *,
		     const char *, char **);
int		 client_list(const struct config *, struct client_server **,
		     size_t *, char **);
void		 client_list_free(struct client_server *, size_t);
int		 client_stop(const struct config *, const char *, int,
		     char **);

#endif /* CLIENT_H */
