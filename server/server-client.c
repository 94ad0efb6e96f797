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

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/event.h>

#include "answer.h"
#include "proto.h"
#include "rundir.h"
#include "server.h"
#include "testhook.h"

/*
 * One reply in flight: the answer's frame, written in chunks to the
 * client's own reply FIFO (opened nonblocking: ENXIO means the client
 * is gone) as it becomes writable, with a stall timeout. A client that
 * stops reading costs only its own fd and buffer until the timeout.
 *
 * The stall is measured on the real clock from the last bytes written,
 * never from libevent's cached time: that is the time the loop woke,
 * which after a long query is seconds old, so a timeout armed from it
 * expired at once and a fresh server's large answer was dropped from a
 * client that was reading ("client stalled"). And a timeout dropped
 * only after a write that could not proceed: the loop itself may have
 * been busy with another query for all that time.
 */

static void	server_client_write_cb(int, short, void *);
static int	server_client_write(struct server_client *);

/*
 * Write one chunk. Returns 1 when the client is finished (and freed),
 * 0 while more remains.
 */
static int
server_client_write(struct server_client *c)
{
	int	 n;

	n = evbuffer_write_atmost(c->out, c->fd, SERVER_CHUNK);
	if (n > 0)
		c->progress = rundir_now();
	if (n == -1 && errno != EAGAIN && errno != EINTR) {
		if (errno != EPIPE)
			log_warn("reply %s", c->id);
		server_client_free(c);
		return (1);
	}
	if (evbuffer_get_length(c->out) == 0) {
		server_client_free(c);
		return (1);
	}
	if (n > 0)
		testhook_pause("server-write");
	return (0);
}

static void
server_client_write_cb(int fd, short what, void *arg)
{
	struct server_client	*c = arg;
	long long		 stalled;

	if (server_client_write(c))
		return;
	stalled = rundir_now() - c->progress;
	if ((what & EV_TIMEOUT) &&
	    stalled >= (long long)c->server->write_timeout * 1000) {
		log_warnx("reply %s: client stalled %lld ms, dropped", c->id,
		    stalled);
		server_client_free(c);
	}
}

/*
 * Start writing answer a to the client of request id. The first chunk
 * is written before returning (see server.c on why that order matters).
 * -1 if the client cannot be reached (gone, or too many in flight).
 */
int
server_client_create(struct server *s, const char *id,
    const struct answer *a)
{
	struct server_client	*c;
	struct timeval		 tv = { s->write_timeout, 0 };
	unsigned char		 hdr[PROTO_ANS_HDR];
	char			 name[PROTO_NAME_MAX], *why = NULL;
	size_t			 nctype;
	int			 fd;

	nctype = strlen(a->content_type);
	if (nctype == 0 || nctype > PROTO_MAX_CTYPE) {
		log_warnx("reply %s: bad content type", id);
		return (-1);
	}
	if (s->nclients >= SERVER_MAX_CLIENTS) {
		log_warnx("reply %s: too many replies in flight", id);
		return (-1);
	}
	if (proto_name(name, sizeof name, s->key, PROTO_REPLY, id) == -1)
		return (-1);
	if ((fd = rundir_fifo(s->dirfd, name, O_WRONLY, &why)) == -1) {
		if (errno != ENXIO && errno != ENOENT)
			log_warnx("reply %s: %s", id, why ? why : "?");
		free(why);
		return (-1);
	}
	if ((c = calloc(1, sizeof *c)) == NULL ||
	    (c->out = evbuffer_new()) == NULL) {
		free(c);
		close(fd);
		return (-1);
	}
	c->server = s;
	c->fd = fd;
	c->progress = rundir_now();
	memcpy(c->id, id, sizeof c->id);
	proto_ans_header(hdr, id, a);
	if (evbuffer_add(c->out, hdr, sizeof hdr) == -1 ||
	    evbuffer_add(c->out, a->content_type, nctype) == -1 ||
	    (a->message != NULL && evbuffer_add(c->out, a->message,
	    strlen(a->message)) == -1) ||
	    evbuffer_add(c->out, a->body, a->len) == -1 ||
	    (c->ev = event_new(s->base, fd, EV_WRITE | EV_PERSIST,
	    server_client_write_cb, c)) == NULL) {
		evbuffer_free(c->out);
		free(c);
		close(fd);
		return (-1);
	}
	TAILQ_INSERT_TAIL(&s->clients, c, entry);
	s->nclients++;
	if (server_client_write(c))
		return (0);
	/* From now, not from when the loop woke before this query. */
	event_base_update_cache_time(s->base);
	event_add(c->ev, &tv);
	return (0);
}

/* The one teardown of a reply. */
void
server_client_free(struct server_client *c)
{
	struct server	*s = c->server;

	TAILQ_REMOVE(&s->clients, c, entry);
	s->nclients--;
	if (c->ev != NULL)
		event_free(c->ev);
	close(c->fd);
	evbuffer_free(c->out);
	free(c);
	server_client_done(s);
}
