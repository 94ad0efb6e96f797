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
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/event.h>

#include "answer.h"
#include "answer-cache.h"
#include "answer-query.h"
#include "catalog.h"
#include "child.h"
#include "proto.h"
#include "query.h"
#include "render.h"
#include "rundir.h"
#include "server.h"
#include "testhook.h"

/*
 * Expensive queries in worker processes. The server answers every query
 * itself first, with a time budget of SERVER_SLICE ms; almost all finish
 * within it. One that does not is abandoned and answered again by a
 * forked worker, over the same read-only profile (copy-on-write: nothing
 * is copied unless written), with the rest of the query's budget, while
 * the server goes back to its other clients. At most max_workers run at
 * once; a query past that gets 503 with Retry-After. So one heavy query,
 * or four, cost a cheap one at most a slice each of waiting, never the
 * whole of their time.
 *
 * Measured against the alternative, preemption at the budget's
 * checkpoints with the loop serving others in between: that needs every
 * report and transform to be resumable, and a menu still waits for the
 * slices of every heavy query in turn; a worker needs nothing of the
 * reports, and the kernel shares the cores. What a worker builds (a
 * call graph, cliques) dies with it, so a heavy query of that kind
 * builds them each time.
 *
 * A worker holds none of the server's rendezvous descriptors (so the
 * liveness lock dies with the server, not with its last worker), dies
 * with the server (child_tie), within its own CPU time (the rest of the
 * query's budget and the write's) and memory (worker_memory, above what
 * it shares with the server), stops its query once the client has left
 * (cost_watch: nobody reads its reply FIFO any more), and writes its
 * answer to the client's reply FIFO itself, with the same stall timeout
 * as the server. It first sends its answer back on a pipe: a 200 goes
 * into the server's answer cache, so the next asker of the same page
 * gets it at once.
 *
 * The same query asked again while its worker runs does not start
 * another worker (or get a 503 when they are all busy): it waits for
 * that worker's answer, which the server writes to it too. So 64 people
 * opening the same heavy page at once cost one worker, not 64 or a
 * wall of 503s (tests/integration/heavy.sh).
 */

/* What a worker sends back before the answer's type, message and body. */
struct server_fill_head {
	uint64_t	 len;		/* of the body */
	uint64_t	 ctype_len;
	uint64_t	 message_len;	/* with its NUL; 0: none */
	int32_t		 status;
	int32_t		 retry_after;
};

static void	server_worker_child(struct server *, pid_t, int, int,
		    const char *, const struct query *,
		    struct answer_context *);
static int	server_worker_gone(void *);
static void	server_worker_send(int, const struct answer *);
static void	server_fill_cb(int, short, void *);
static int	server_fill_answer(struct server_fill *, struct answer *);
static void	server_fill_serve(struct server_fill *, struct answer *);
static void	server_fill_free(struct server_fill *);
static int	server_worker_write(struct server *, int, const char *,
		    const struct answer *);

/* Write a's frame to fd (nonblocking) with the stall timeout. */
static int
server_worker_write(struct server *s, int fd, const char *id,
    const struct answer *a)
{
	struct pollfd	 pfd;
	unsigned char	 hdr[PROTO_ANS_HDR];
	const char	*part[4];
	size_t		 len[4], i, off;
	long long	 progress = rundir_now(), left;
	ssize_t		 n;

	proto_ans_header(hdr, id, a);
	part[0] = (const char *)hdr;
	len[0] = sizeof hdr;
	part[1] = a->content_type;
	len[1] = strlen(a->content_type);
	part[2] = a->message != NULL ? a->message : "";
	len[2] = strlen(part[2]);
	part[3] = a->body;
	len[3] = a->len;
	for (i = 0; i < 4; i++) {
		for (off = 0; off < len[i]; ) {
			n = write(fd, part[i] + off, len[i] - off >
			    SERVER_CHUNK ? SERVER_CHUNK : len[i] - off);
			if (n > 0) {
				off += (size_t)n;
				progress = rundir_now();
				/* Where the server pauses too (tests). */
				if (i == 3)
					testhook_pause("server-write");
				continue;
			}
			if (n == -1 && errno != EAGAIN && errno != EINTR)
				return (-1);
			left = (long long)s->write_timeout * 1000 -
			    (rundir_now() - progress);
			if (left <= 0)
				return (-1);	/* stalled */
			pfd.fd = fd;
			pfd.events = POLLOUT;
			(void)poll(&pfd, 1, (int)left);
		}
	}
	return (0);
}

/*
 * The budget's watch in a worker: the client has left when its reply
 * FIFO has no reader (poll says POLLERR on our write end).
 */
static int
server_worker_gone(void *arg)
{
	struct pollfd	 pfd;

	pfd.fd = *(int *)arg;
	pfd.events = POLLOUT;
	pfd.revents = 0;
	return (poll(&pfd, 1, 0) == 1 && (pfd.revents & (POLLERR | POLLHUP |
	    POLLNVAL)) != 0);
}

/*
 * The worker: answer, write, exit. Never returns. q is the server's
 * parsed query, the worker's own copy-on-write copy.
 */
static void
server_worker_child(struct server *s, pid_t server, int fd, int back,
    const char *id, const struct query *q, struct answer_context *ctx)
{
	struct sigaction	 sa;
	struct answer		*a;
	sigset_t		 set;

	if (child_tie(server) == -1)
		_exit(1);	/* the server died before we were tied */
	server_title("deepq-server: worker");
	/* Nothing of the rendezvous: the lock must die with the server. */
	server_forget_rendezvous(s);
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = SIG_DFL;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);
	sigemptyset(&set);
	sigprocmask(SIG_SETMASK, &set, NULL);
	/* The budget ends the query; these end a worker stuck elsewhere. */
	alarm((unsigned)(s->max_msec / 1000 + s->write_timeout + 5));
	child_limit_cpu((unsigned)(ctx->report.max_msec / 1000 +
	    s->write_timeout + 2));
	if (child_limit_memory(s->worker_memory) == -1)
		log_warnx("worker: no memory limit (/proc/self/statm)");
	testhook_pause("worker");
	ctx->report.gone = server_worker_gone;
	ctx->report.gone_arg = &fd;

	/* A query handed over, not yet answered (tests: held workers). */
	testhook_pause("worker-run");
	if ((a = answer_query_parsed(s->profile, q, ctx)) == NULL)
		a = answer_error(FMT_TEXT, 500, "out of memory", NULL);
	if (a == NULL)
		_exit(1);
	if ((a = server_answer_fix(a, q->format, &ctx->render)) == NULL)
		_exit(1);
	/* Back first: the requests waiting for it need not wait for us. */
	if (back != -1) {
		server_worker_send(back, a);
		close(back);
	}
	if (server_worker_write(s, fd, id, a) == -1)
		_exit(1);
	close(fd);
	_exit(0);
}

/*
 * Send the answer back to the server (for its cache and the requests
 * waiting for it), with its content type, which the server checks
 * against its renderer's.
 */
static void
server_worker_send(int fd, const struct answer *a)
{
	struct server_fill_head	 h;
	const char		*part[4];
	size_t			 len[4], i, off;
	ssize_t			 n;

	memset(&h, 0, sizeof h);
	h.len = a->len;
	h.ctype_len = strlen(a->content_type);
	h.message_len = a->message != NULL ? strlen(a->message) + 1 : 0;
	h.status = a->status;
	h.retry_after = a->retry_after;
	part[0] = (const char *)&h;
	len[0] = sizeof h;
	part[1] = a->content_type;
	len[1] = h.ctype_len;
	part[2] = a->message;	/* with its NUL, or nothing */
	len[2] = h.message_len;
	part[3] = a->body;
	len[3] = a->len;
	for (i = 0; i < 4; i++) {
		for (off = 0; off < len[i]; off += (size_t)n) {
			if ((n = write(fd, part[i] + off, len[i] - off)) <=
			    0) {
				if (n == -1 && errno == EINTR) {
					n = 0;
					continue;
				}
				return;
			}
		}
	}
}

/*
 * A worker's answer coming back: read it; at its end, cache it and give
 * it to the requests waiting for it.
 */
static void
server_fill_cb(int fd, short what, void *arg)
{
	struct server_fill	*f = arg;
	struct answer		 a;
	int			 n, whole = 0;

	while ((n = evbuffer_read(f->in, fd, 65536)) > 0) {
		if (evbuffer_get_length(f->in) > sizeof(struct
		    server_fill_head) + PROTO_MAX_CTYPE + PROTO_MAX_MESSAGE +
		    1 + PROTO_MAX_BODY)
			break;
	}
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	/* The end (or an error, or too much): whole, or nothing. */
	if (n == 0)
		whole = server_fill_answer(f, &a) == 0;
	if (whole && answer_cache_put(f->server->acache, f->key, &a) == -1)
		log_warnx("answer cache: out of memory");
	server_fill_serve(f, whole ? &a : NULL);
	server_fill_free(f);
}

/*
 * The answer the worker sent, in place in f->in: 0 if it is whole and
 * well formed (a content type that is the renderer's, bounds kept), or
 * -1. Its strings stay f->in's.
 */
static int
server_fill_answer(struct server_fill *f, struct answer *a)
{
	struct server_fill_head	 h;
	unsigned char		*b;
	size_t			 have = evbuffer_get_length(f->in);

	if (have < sizeof h)
		return (-1);
	evbuffer_copyout(f->in, &h, sizeof h);
	if (h.ctype_len > PROTO_MAX_CTYPE || h.len > PROTO_MAX_BODY ||
	    h.message_len > PROTO_MAX_MESSAGE + 1 || h.status < 100 ||
	    h.status > 599 || h.retry_after < 0 ||
	    have != sizeof h + h.ctype_len + h.message_len + h.len ||
	    f->ctype == NULL || strlen(f->ctype) != h.ctype_len)
		return (-1);
	if ((b = evbuffer_pullup(f->in, -1)) == NULL)
		return (-1);
	b += sizeof h;
	if (memcmp(f->ctype, b, h.ctype_len) != 0)
		return (-1);
	b += h.ctype_len;
	memset(a, 0, sizeof *a);
	a->status = h.status;
	a->retry_after = h.retry_after;
	a->content_type = f->ctype;
	if (h.message_len > 0) {
		/* A string, ending where it says. */
		if (memchr(b, '\0', h.message_len) != b + h.message_len - 1)
			return (-1);
		a->message = (char *)b;
		b += h.message_len;
	}
	a->body = (char *)b;
	a->len = h.len;
	return (0);
}

/*
 * Write the answer (NULL: the worker ended without one) to each request
 * that waited for it. Without one they are told to retry: the worker
 * died (its limits, a signal), which the next try may not repeat.
 */
static void
server_fill_serve(struct server_fill *f, struct answer *a)
{
	struct render_context	 render;
	struct answer		*err = NULL;
	size_t			 i;

	if (f->nwaiters == 0)
		return;
	if (a == NULL) {
		memset(&render, 0, sizeof render);
		render.link_base = "?";
		render.static_base = f->static_base;
		render.file = f->file;
		if ((err = answer_error(f->fmt, 503, "busy: the worker "
		    "answering this query ended without an answer, retry",
		    &render)) == NULL) {
			log_warnx("out of memory answering %zu waiting "
			    "requests", f->nwaiters);
			return;
		}
		err->retry_after = 2;
		a = err;
	}
	for (i = 0; i < f->nwaiters; i++)
		(void)server_client_create(f->server, f->waiters[i], a);
	answer_free(err);
}

static void
server_fill_free(struct server_fill *f)
{
	struct server	*s = f->server;

	TAILQ_REMOVE(&s->fills, f, entry);
	if (f->ev != NULL)
		event_free(f->ev);
	if (f->in != NULL)
		evbuffer_free(f->in);
	close(f->fd);
	free(f->key);
	free(f->file);
	free(f->static_base);
	free(f->waiters);
	free(f);
	server_client_done(s);
}

/*
 * Request id waits for the answer of the worker running the query of
 * key, if one is: 1 if it does now (the server writes that answer to it
 * when it comes), 0 if no worker runs that query or it serves too many
 * already.
 */
int
server_worker_join(struct server *s, const char *key, const char *id)
{
	struct server_fill	*f;
	void			*p;
	size_t			 size;

	if (key == NULL)
		return (0);
	TAILQ_FOREACH(f, &s->fills, entry) {
		if (strcmp(f->key, key) == 0)
			break;
	}
	if (f == NULL || f->nwaiters >= SERVER_FILL_WAITERS)
		return (0);
	if (f->nwaiters == f->waiters_size) {
		size = f->waiters_size == 0 ? 8 : f->waiters_size * 2;
		if ((p = reallocarray(f->waiters, size,
		    sizeof *f->waiters)) == NULL)
			return (0);
		f->waiters = p;
		f->waiters_size = size;
	}
	memcpy(f->waiters[f->nwaiters++], id, sizeof *f->waiters);
	return (1);
}

/* How many requests wait for a worker's answer (cmd=status). */
size_t
server_worker_waiting(const struct server *s)
{
	const struct server_fill	*f;
	size_t				 n = 0;

	TAILQ_FOREACH(f, &s->fills, entry)
		n += f->nwaiters;
	return (n);
}

/* At the server's end: the answers still coming back are dropped. */
void
server_worker_fills_free(struct server *s)
{
	struct server_fill	*f;

	while ((f = TAILQ_FIRST(&s->fills)) != NULL)
		server_fill_free(f);
}

/*
 * Answer a query in a worker (see above), with the context of the
 * server's own attempt and msec left of its budget; key (or NULL) is
 * the answer cache's. 0: the worker has it (or its client is gone);
 * -1: max_workers are busy, or fork failed.
 */
int
server_worker_start(struct server *s, const char *id, const struct query *q,
    const char *key, struct answer_context *ctx, uint64_t msec)
{
	struct server_fill	*f = NULL;
	char			 name[PROTO_NAME_MAX];
	pid_t			 pid, server = getpid();
	size_t			 i;
	int			 fd, back[2] = { -1, -1 };

	if (s->max_workers <= 0 || s->nworkers >= (size_t)s->max_workers ||
	    s->nworkers >= SERVER_WORKERS)
		return (-1);
	if (proto_name(name, sizeof name, s->key, PROTO_REPLY, id) == -1 ||
	    (fd = rundir_fifo(s->dirfd, name, O_WRONLY, NULL)) == -1)
		return (0);	/* the client is gone */
	/*
	 * The way back, for the answer cache and the same query's next
	 * askers; without it (a query of no key, or no memory) each asker
	 * runs the query.
	 */
	if (key != NULL && pipe2(back, O_CLOEXEC) == 0) {
		if ((f = calloc(1, sizeof *f)) == NULL ||
		    (f->key = strdup(key)) == NULL ||
		    (f->file = strdup(ctx->render.file != NULL ?
		    ctx->render.file : "")) == NULL ||
		    (ctx->render.static_base != NULL &&
		    (f->static_base = strdup(ctx->render.static_base)) ==
		    NULL) ||
		    (f->in = evbuffer_new()) == NULL ||
		    (f->ev = event_new(s->base, back[0], EV_READ | EV_PERSIST,
		    server_fill_cb, f)) == NULL) {
			if (f != NULL) {
				if (f->in != NULL)
					evbuffer_free(f->in);
				free(f->key);
				free(f->file);
				free(f->static_base);
				free(f);
				f = NULL;
			}
			close(back[0]);
			close(back[1]);
			back[0] = back[1] = -1;
		}
	}
	ctx->report.max_msec = msec;
	if ((pid = fork()) == -1) {
		log_warn("worker for %s", id);
		close(fd);
		if (f != NULL) {
			event_free(f->ev);
			evbuffer_free(f->in);
			free(f->key);
			free(f->file);
			free(f->static_base);
			free(f);
			close(back[0]);
			close(back[1]);
		}
		return (-1);
	}
	if (pid == 0) {
		if (back[0] != -1)
			close(back[0]);
		server_worker_child(s, server, fd, back[1], id, q, ctx);
	}
	close(fd);
	if (f != NULL) {
		close(back[1]);
		f->server = s;
		f->ctype = catalog_formats[q->format].content_type;
		f->fmt = q->format;
		f->fd = back[0];
		(void)fcntl(f->fd, F_SETFL, fcntl(f->fd, F_GETFL) | O_NONBLOCK);
		TAILQ_INSERT_TAIL(&s->fills, f, entry);
		event_add(f->ev, NULL);
	}
	for (i = 0; i < SERVER_WORKERS; i++) {
		if (s->workers[i] == 0) {
			s->workers[i] = pid;
			break;
		}
	}
	s->nworkers++;
	return (0);
}

/* A child reaped (server.c): 1 if it was a worker, now forgotten. */
int
server_worker_reaped(struct server *s, pid_t pid, int status)
{
	size_t	 i;

	for (i = 0; i < SERVER_WORKERS; i++) {
		if (s->workers[i] != pid)
			continue;
		if (WIFSIGNALED(status))
			log_warnx("worker %ld killed by signal %d",
			    (long)pid, WTERMSIG(status));
		s->workers[i] = 0;
		s->nworkers--;
		return (1);
	}
	return (0);
}
