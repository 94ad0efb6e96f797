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


#ifndef CLIENT_SPAWN_H
#define CLIENT_SPAWN_H

/*
 * Starting deepq-server for the client: fork, setsid, fork again, and in
 * the grandchild put /dev/null on fds 0-2, keep only the readiness pipe
 * (as fd 3), reset signals, clear the environment and execve(2) the
 * server: never a shell, never the request's environment, never an
 * inherited fd or lock, so the web server's page completes as soon as
 * the client exits and its signals never reach the server.
 */

struct config;

int	client_spawn(const struct config *, const char *, const char *,
	    const char *, char **);

#endif /* CLIENT_SPAWN_H */
