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
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/event.h>

#include "answer-cache.h"
#include "answer.h"
#include "answer-query.h"
#include "hash.h"
#include "profile.h"
#include "proto.h"
#include "query.h"
#include "reader-view.h"
#include "rundir.h"
#include "server.h"
#include "testhook.h"

/*
 * The server loop: one libevent loop reads request frames from the
 * FIFO, answers each at once (answer_query) and hands the bytes to a
 * server_client that writes them to the requester's own reply FIFO
 * without blocking, so a slow or vanished client only ever costs its
 * own write timeout. An answer served before is served again from the
 * answer cache (answer-cache.c) without building its report.
 *
 * Every way out (SIGTERM, SIGINT, cmd=shutdown, idle timeout, losing the
 * runtime directory) goes through server_exit(), which under the
 * file's mutex drains and answers what is already in the FIFO, removes
 * the FIFO (if it is still ours), and releases the liveness lock before
 * finishing the replies it owes. Clients hold the mutex from their
 * check to the end of their write, so no request is ever left in a FIFO
 * nobody reads.
 *
 * The order matters to clients watching for a dead server: a reply's
 * first bytes are written before the liveness lock is released, so a
 * client that finds the lock free and its reply FIFO still empty knows
 * no answer is coming (client.c, client_receive).
 */

static void	server_fifo_cb(int, short, void *);
static void	server_idle_cb(int, short, void *);
static void	server_watch_cb(int, short, void *);
static void	server_signal_cb(int, short, void *);
static void	server_chld_cb(int, short, void *);
static int	server_read(struct server *);
static void	server_parse(struct server *);
static void	server_handle(struct server *, struct proto_req *);
static void	server_deliver(struct server *, const char *, struct answer *,
		    const char *, int);
static char	*server_query_file(struct server *, const struct proto_req *);
static int	server_wants(struct server *);
static void	server_arm(struct event *, int);
static int	server_gone(void *);
static uint64_t	server_heavy_hash(const struct query *, const char *);
static int	server_heavy_known(const struct server *, uint64_t);
static struct answer *server_busy(enum catalog_fmt,
		    const struct render_context *);

/*
 * A query answered in the loop: its client, for server_gone, and the
 * write end of its reply FIFO once asked, kept open until the answer's
 * own is (closing the only writer would be the end of the answer to
 * the client).
 */
struct server_waiter {
	struct server	*server;
	const char	*id;
	int		 fd;
};

static void	server_context(struct server *, const struct proto_req *,
		    struct answer_context *, struct server_request *,
		    struct server_waiter *);

/* Re-arm a timer for sec seconds (ms when sec is negative). */
static void
server_arm(struct event *ev, int sec)
{
	struct timeval	 tv;

	if (sec >= 0) {
		tv.tv_sec = sec;
		tv.tv_usec = 0;
	} else {
		tv.tv_sec = 0;
		tv.tv_usec = -sec * 1000;
	}
	evtimer_add(ev, &tv);
}

/* Read what the FIFO holds now. Returns bytes read, -1 on error. */
static int
server_read(struct server *s)
{
	int	 n, total = 0;

	while ((n = evbuffer_read(s->in, s->fifofd, 65536)) > 0) {
		total += n;
		if (evbuffer_get_length(s->in) > 4 * 65536)
			break;
	}
	if (n == -1 && errno != EAGAIN && errno != EINTR) {
		log_warn("%s: read", s->fifoname);
		return (-1);
	}
	return (total);
}

/*
 * Decode and answer every whole frame in the buffer. A bad frame is
 * logged and skipped up to the next magic; a client of another protocol
 * version is told so, and we exit so that a new server (of the client's
 * version, after an upgrade) can take over.
 */
static void
server_parse(struct server *s)
{
	struct proto_req	 r;
	struct answer		*a;
	const unsigned char	*b;
	size_t			 len;
	ssize_t			 n;
	char			*why = NULL;

	while ((len = evbuffer_get_length(s->in)) > 0) {
		if (len > PROTO_ATOMIC)
			len = PROTO_ATOMIC;
		b = evbuffer_pullup(s->in, len);
		n = proto_req_decode(b, len, &r, &why);
		if (n == 0)
			break;
		if (n > 0) {
			server_handle(s, &r);
			proto_req_clear(&r);
			evbuffer_drain(s->in, n);
			continue;
		}
		log_warnx("bad request: %s", why ? why : "?");
		if (r.version != PROTO_VERSION && r.id[0] != '\0' &&
		    (a = answer_error(FMT_HTML, 503, "protocol version "
		    "mismatch: the server is restarting, retry", NULL)) !=
		    NULL) {
			a->retry_after = 1;
			server_client_create(s, r.id, a);
			answer_free(a);
			s->shutdown = 1;
		}
		free(why);
		why = NULL;
		proto_req_clear(&r);
		evbuffer_drain(s->in, proto_req_resync(b, len));
	}
}

/* A big query's text, from the client's KEY.query.ID file. */
static char *
server_query_file(struct server *s, const struct proto_req *r)
{
	struct stat	 st;
	char		 name[PROTO_NAME_MAX], *q;
	size_t		 off;
	ssize_t		 n;
	int		 fd;

	if (proto_name(name, sizeof name, s->key, PROTO_QUERY, r->id) == -1 ||
	    (fd = rundir_file(s->dirfd, name, 0, NULL)) == -1)
		return (NULL);
	if (fstat(fd, &st) == -1 || (size_t)st.st_size != r->query_len ||
	    (q = malloc(r->query_len + 1)) == NULL) {
		close(fd);
		return (NULL);
	}
	for (off = 0; off < r->query_len; off += n) {
		if ((n = pread(fd, q + off, r->query_len - off, off)) <= 0) {
			free(q);
			close(fd);
			return (NULL);
		}
	}
	close(fd);
	q[r->query_len] = '\0';
	if (strlen(q) != r->query_len) {
		free(q);
		return (NULL);
	}
	return (q);
}

/*
 * The last touches of an answer before it goes out, here or in a worker:
 * a 503 without Retry-After gets one (a base still loading is worth
 * another try soon), messages and bodies within the protocol's bounds.
 * Frees a and returns another if it must; NULL if out of memory.
 */
struct answer *
server_answer_fix(struct answer *a, enum catalog_fmt fmt,
    const struct render_context *render)
{
	if (a == NULL)
		a = answer_error(FMT_TEXT, 500, "out of memory", NULL);
	if (a == NULL)
		return (NULL);
	if (a->status == 503 && a->retry_after == 0)
		a->retry_after = 2;
	if (a->message != NULL && strlen(a->message) > PROTO_MAX_MESSAGE)
		a->message[PROTO_MAX_MESSAGE] = '\0';
	if (a->len > PROTO_MAX_BODY) {
		answer_free(a);
		a = answer_error(fmt, 500, "answer too large", render);
	}
	return (a);
}

/*
 * The cost budget's watch of a query answered here: has its client left
 * (nobody reads its reply FIFO: the CGI was killed, the browser went)?
 */
static int
server_gone(void *arg)
{
	struct server_waiter	*w = arg;
	struct pollfd		 pfd;
	char			 name[PROTO_NAME_MAX];

	if (w->fd == -1) {
		if (proto_name(name, sizeof name, w->server->key, PROTO_REPLY,
		    w->id) == -1)
			return (0);
		if ((w->fd = rundir_fifo(w->server->dirfd, name, O_WRONLY,
		    NULL)) == -1)
			return (errno == ENXIO || errno == ENOENT);
	}
	pfd.fd = w->fd;
	pfd.events = POLLOUT;
	pfd.revents = 0;
	return (poll(&pfd, 1, 0) == 1 && (pfd.revents & (POLLERR | POLLHUP |
	    POLLNVAL)) != 0);
}

/* What names a query for the heavy memo: its canonical text and file. */
static uint64_t
server_heavy_hash(const struct query *q, const char *name)
{
	char		*canon;
	uint64_t	 h;

	if ((canon = query_format(q)) == NULL)
		return (0);
	h = hash_bytes(canon, strlen(canon)) ^
	    hash_bytes(name, strlen(name)) * 31;
	free(canon);
	return (h == 0 ? 1 : h);
}

/* Did the query of hash h need more than a slice lately? */
static int
server_heavy_known(const struct server *s, uint64_t h)
{
	size_t	 i;

	for (i = 0; h != 0 && i < SERVER_HEAVY; i++) {
		if (s->heavy[i] == h)
			return (1);
	}
	return (0);
}

/* 503 busy: every worker has an expensive query. */
static struct answer *
server_busy(enum catalog_fmt fmt, const struct render_context *render)
{
	struct answer	*a;

	if ((a = answer_error(fmt, 503, "busy: the "
	    "server's expensive queries are all running, retry", render)) !=
	    NULL)
		a->retry_after = 1;
	return (a);
}

/* The context of a request's answer, with what it points to. */
static void
server_context(struct server *s, const struct proto_req *r,
    struct answer_context *ctx, struct server_request *rq,
    struct server_waiter *waiter)
{
	memset(ctx, 0, sizeof *ctx);
	ctx->render.link_base = "?";
	ctx->render.static_base = r->static_base[0] != '\0' ?
	    r->static_base : NULL;
	ctx->render.file = r->name;
	ctx->report.name = r->name;
	ctx->report.status = server_status;
	ctx->report.status_arg = s;
	ctx->report.max_cost = s->max_cost;
	ctx->report.index = s->index;
	/* The configuration's, never the request's: see srcfile.h. */
	ctx->report.source_roots = s->source_roots;
	rq->server = s;
	rq->root = r->root;
	ctx->base_load = server_base_load;
	ctx->base_arg = rq;
	ctx->report.max_msec = s->max_msec;
	ctx->report.max_body = s->max_body;
	waiter->server = s;
	waiter->id = r->id;
	waiter->fd = -1;
	ctx->report.gone = server_gone;
	ctx->report.gone_arg = waiter;
}

/*
 * An answer made in the loop: cached when it may be, written to the
 * client, acted on (cmd=shutdown), freed.
 */
static void
server_deliver(struct server *s, const char *id, struct answer *a,
    const char *key, int shutdown)
{
	if (a == NULL) {
		log_warnx("out of memory answering %s", id);
		return;
	}
	/* Only 200s of pure reports: see answer-cache.c. */
	if (answer_cache_put(s->acache, key, a) == -1)
		log_warnx("answer cache: out of memory");
	server_client_create(s, id, a);
	if (shutdown && a->status == 200)
		s->shutdown = 1;
	answer_free(a);
}

/* Answer one request. */
static void
server_handle(struct server *s, struct proto_req *r)
{
	struct answer_context	 ctx;
	struct server_request	 rq;
	struct server_waiter	 waiter;
	const struct answer	*hit;
	struct answer		*a;
	struct query		*q = NULL;
	const char		*query = NULL;
	char			*qtext = NULL, *why = NULL, *key = NULL;
	uint64_t		 heavy = 0;
	long long		 t0;
	int			 status, shutdown = 0, busy = 1;
	enum catalog_fmt	 fmt = FMT_HTML;

	testhook_pause("server-answer");

	server_context(s, r, &ctx, &rq, &waiter);

	if (r->flags & PROTO_REQ_FILE) {
		if ((qtext = server_query_file(s, r)) == NULL) {
			a = answer_error(FMT_HTML, 400,
			    "cannot read the query", &ctx.render);
			goto send;
		}
		query = qtext;
	} else
		query = r->query;

	/*
	 * cmd=shutdown is answered like any report, then acted on. Neither
	 * it nor cmd=status is activity: a monitor polling `deepq status'
	 * must not keep every server alive.
	 */
	if ((q = query_parse(query, &status, &why)) != NULL) {
		fmt = q->format;
		shutdown = q->cmd == CMD_SHUTDOWN;
		busy = !shutdown && q->cmd != CMD_STATUS;
		/* The answer cache's key, and the one of a worker's query. */
		key = answer_cache_key(q, r->name, ctx.render.static_base);
	} else
		fmt = answer_guess_format(query);
	if (busy) {
		s->queries++;
		s->last = rundir_now();
		if (!s->exiting)
			server_arm(s->ev_idle, s->idle_timeout);
	}
	/* The same canonical query: the same bytes, without the report. */
	if ((hit = answer_cache_get(s->acache, key)) != NULL) {
		server_client_create(s, r->id, hit);
		goto done;
	}
	/* The same query in a worker now: its answer is ours too. */
	if (server_worker_join(s, key, r->id))
		goto done;
	/*
	 * A query known to need more than a slice goes to a worker at once,
	 * or is refused at once when they are all busy: the loop spends
	 * nothing on it.
	 */
	if (q != NULL && s->max_workers > 0 && !shutdown &&
	    s->max_msec > SERVER_SLICE &&
	    server_heavy_known(s, heavy = server_heavy_hash(q, r->name))) {
		if (server_worker_start(s, r->id, q, key, &ctx,
		    s->max_msec) == 0)
			goto done;
		a = server_busy(fmt, &ctx.render);
		goto send;
	}
	/* A query that waits on ClickHouse: in a worker from the start. */
	if (q != NULL && s->max_workers > 0 && !shutdown &&
	    reader_view_remote(s->profile, q) &&
	    server_worker_start(s, r->id, q, key, &ctx, s->max_msec) == 0) {
		query_free(q);
		free(key);
		free(qtext);
		free(why);
		return;
	}
	/*
	 * First here, within a slice of time; a query that needs more goes
	 * to a worker with the rest of its budget (server-worker.c).
	 */
	if (s->max_workers > 0 && !shutdown && s->max_msec > SERVER_SLICE)
		ctx.report.max_msec = SERVER_SLICE;
	t0 = rundir_now();
	testhook_pause("server-slice");
	/* Parsed once, above: what did not parse gets its 400 here. */
	a = q != NULL ? answer_query_parsed(s->profile, q, &ctx) :
	    answer_error(fmt, status, why, &ctx.render);
	if (a != NULL && a->status == 503 &&
	    ctx.report.max_msec < s->max_msec &&
	    rundir_now() - t0 >= SERVER_SLICE) {
		answer_free(a);
		a = NULL;
		if (heavy != 0) {
			s->heavy[s->heavy_next] = heavy;
			s->heavy_next = (s->heavy_next + 1) % SERVER_HEAVY;
		}
		if (server_worker_start(s, r->id, q, key, &ctx,
		    s->max_msec - (uint64_t)(rundir_now() - t0)) == 0)
			goto done;
		a = server_busy(fmt, &ctx.render);
	}
send:
	server_deliver(s, r->id, server_answer_fix(a, fmt, &ctx.render), key,
	    shutdown);
done:
	/* The answer's writer (or the worker's) is open by now. */
	if (waiter.fd != -1)
		close(waiter.fd);
	query_free(q);
	free(key);
	free(qtext);
	free(why);
}

/* The FIFO is readable. */
static void
server_fifo_cb(int fd, short what, void *arg)
{
	struct server	*s = arg;

	if (server_read(s) == -1) {
		server_exit(s, "request FIFO error");
		return;
	}
	server_parse(s);
	if (s->shutdown)
		server_exit(s, "cmd=shutdown");
}

/*
 * Count fresh want files for our file; remove stale ones (older than
 * want_max_age: a client killed while waiting) and, likewise, reply
 * FIFOs and query files their killed clients left.
 */
static int
server_wants(struct server *s)
{
	struct dirent	*de;
	struct stat	 st;
	DIR		*d;
	time_t		 now = time(NULL);
	char		 key[PROTO_KEY_LEN + 1], kind[16];
	char		 id[PROTO_ID_LEN + 1];
	int		 dfd, n = 0, stale;

	if ((dfd = dup(s->dirfd)) == -1 || (d = fdopendir(dfd)) == NULL) {
		if (dfd != -1)
			close(dfd);
		log_warn("%s", s->rundir);
		return (1);	/* when in doubt, stay */
	}
	rewinddir(d);
	while ((de = readdir(d)) != NULL) {
		if (proto_name_parse(de->d_name, key, kind, sizeof kind,
		    id) == -1 || strcmp(key, s->key) != 0 || id[0] == '\0')
			continue;
		if (strcmp(kind, PROTO_WANT) != 0 &&
		    strcmp(kind, PROTO_REPLY) != 0 &&
		    strcmp(kind, PROTO_QUERY) != 0)
			continue;
		if (fstatat(s->dirfd, de->d_name, &st,
		    AT_SYMLINK_NOFOLLOW) == -1)
			continue;
		stale = now - st.st_mtime > s->want_max_age ||
		    st.st_mtime - now > 60;
		if (!stale) {
			if (strcmp(kind, PROTO_WANT) == 0)
				n++;
			continue;
		}
		if ((S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode)) &&
		    st.st_uid == geteuid()) {
			log_info("removing stale %s", de->d_name);
			(void)unlinkat(s->dirfd, de->d_name, 0);
		}
	}
	closedir(d);
	return (n);
}

/*
 * The idle timer. Idle means no request for idle_timeout and no reply
 * in progress; then, holding the mutex (never waiting for it: a client
 * holding it is about to talk to us), answer anything already in the
 * FIFO, and exit only if no client wants us.
 */
static void
server_idle_cb(int fd, short what, void *arg)
{
	struct server	*s = arg;
	long long	 idle = rundir_now() - s->last;
	uint64_t	 before = s->queries;

	if (s->exiting)
		return;
	if (s->nclients + s->nworkers > 0 ||
	    idle < (long long)s->idle_timeout * 1000) {
		server_arm(s->ev_idle, s->nclients + s->nworkers > 0 ? -100 :
		    (int)((s->idle_timeout * 1000LL - idle + 999) / 1000));
		return;
	}
	testhook_pause("server-idle");
	if (rundir_lock(s->lockfd, LOCK_EX, 0, NULL) == -1) {
		server_arm(s->ev_idle, -100);
		return;
	}
	if (server_read(s) > 0)
		server_parse(s);
	if (s->queries != before || s->nclients > 0 || s->shutdown) {
		flock(s->lockfd, LOCK_UN);
		if (s->shutdown)
			server_exit(s, "cmd=shutdown");
		return;
	}
	if (server_wants(s) > 0) {
		flock(s->lockfd, LOCK_UN);
		server_arm(s->ev_idle, 1);
		return;
	}
	server_exit(s, "idle timeout");
}

/*
 * Do we still own our rendezvous? A deleted or replaced runtime
 * directory or FIFO leaves us unreachable: exit rather than live on as
 * an orphan holding a profile in memory (chg: "is not owned, exiting").
 */
static void
server_watch_cb(int fd, short what, void *arg)
{
	struct server	*s = arg;
	struct stat	 st;
	const char	*why = NULL;

	if (s->exiting)
		return;
	if (fstat(s->dirfd, &st) == -1 || st.st_nlink == 0)
		why = "runtime directory deleted";
	else if (lstat(s->rundir, &st) == -1 || st.st_dev != s->dirst.st_dev ||
	    st.st_ino != s->dirst.st_ino)
		why = "runtime directory replaced";
	else if (fstatat(s->dirfd, s->fifoname, &st,
	    AT_SYMLINK_NOFOLLOW) == -1 || st.st_dev != s->fifost.st_dev ||
	    st.st_ino != s->fifost.st_ino)
		why = "request FIFO removed or replaced";
	else
		why = reader_view_stale(s->profile, s->path);
	if (why != NULL) {
		server_exit(s, why);
		return;
	}
	server_arm(s->ev_watch, SERVER_WATCH);
}

static void
server_signal_cb(int sig, short what, void *arg)
{
	server_exit(arg, sig == SIGTERM ? "SIGTERM" : "SIGINT");
}

/*
 * In a child of the server (a worker, a base loader): close every
 * descriptor of the rendezvous and forget it. The liveness lock must die
 * with the server, not live on in a child, and a child forked from this
 * one must not close the numbers again once they name something else.
 */
void
server_forget_rendezvous(struct server *s)
{
	struct server_client	*c;

	TAILQ_FOREACH(c, &s->clients, entry)
		close(c->fd);
	TAILQ_INIT(&s->clients);
	s->nclients = 0;
	if (s->fifofd != -1)
		close(s->fifofd);
	if (s->alivefd != -1)
		close(s->alivefd);
	if (s->lockfd != -1)
		close(s->lockfd);
	if (s->dirfd != -1)
		close(s->dirfd);
	s->fifofd = s->alivefd = s->lockfd = s->dirfd = -1;
}

/*
 * The one way out (see the top of this file). Returns at once; the loop
 * ends when the last reply is written or times out.
 */
void
server_exit(struct server *s, const char *reason)
{
	struct stat	 st;

	if (s->exiting)
		return;
	s->exiting = 1;
	log_info("exiting: %s", reason);
	if (rundir_lock(s->lockfd, LOCK_EX, 2000, NULL) == -1)
		log_warn("exiting without the lock");
	if (s->fifofd != -1) {
		if (server_read(s) > 0)
			server_parse(s);
		if (fstatat(s->dirfd, s->fifoname, &st,
		    AT_SYMLINK_NOFOLLOW) == 0 &&
		    st.st_dev == s->fifost.st_dev &&
		    st.st_ino == s->fifost.st_ino)
			(void)unlinkat(s->dirfd, s->fifoname, 0);
		event_del(s->ev_fifo);
		close(s->fifofd);
		s->fifofd = -1;
	}
	close(s->alivefd);
	s->alivefd = -1;
	flock(s->lockfd, LOCK_UN);
	evtimer_del(s->ev_idle);
	evtimer_del(s->ev_watch);
	server_client_done(s);
}

/*
 * A reply, a worker or a worker's answer coming back finished: the last
 * one ends an exiting server's loop (an answer coming back may have
 * requests waiting for it).
 */
void
server_client_done(struct server *s)
{
	if (s->exiting && s->nclients == 0 && s->nworkers == 0 &&
	    TAILQ_EMPTY(&s->fills))
		event_base_loopbreak(s->base);
}

/*
 * SIGCHLD: reap every child that ended (workers, base loaders, the cache
 * writer), each known by its pid.
 */
static void
server_chld_cb(int sig, short what, void *arg)
{
	struct server	*s = arg;
	pid_t		 pid;
	int		 status;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		if (server_worker_reaped(s, pid, status) ||
		    server_base_reaped(s, pid, status))
			continue;
		if (pid == s->cache_writer) {
			s->cache_writer = 0;
			if (WIFSIGNALED(status))
				log_warnx("cache writer killed by signal %d",
				    WTERMSIG(status));
		}
	}
	server_client_done(s);
}

/*
 * Set up the loop's events and run it (the FIFO already exists and is
 * open). Returns when the server has exited.
 */
int
server_run(struct server *s)
{
	struct server_client	*c;
	sigset_t		 set;
	char			 ready;

	TAILQ_INIT(&s->clients);
	TAILQ_INIT(&s->fills);
	if ((s->base = event_base_new()) == NULL ||
	    (s->in = evbuffer_new()) == NULL)
		fatalx("libevent initialisation failed");
	s->ev_fifo = event_new(s->base, s->fifofd, EV_READ | EV_PERSIST,
	    server_fifo_cb, s);
	s->ev_idle = evtimer_new(s->base, server_idle_cb, s);
	s->ev_watch = evtimer_new(s->base, server_watch_cb, s);
	s->ev_term = evsignal_new(s->base, SIGTERM, server_signal_cb, s);
	s->ev_int = evsignal_new(s->base, SIGINT, server_signal_cb, s);
	s->ev_chld = evsignal_new(s->base, SIGCHLD, server_chld_cb, s);
	if (s->ev_fifo == NULL || s->ev_idle == NULL || s->ev_watch == NULL ||
	    s->ev_term == NULL || s->ev_int == NULL || s->ev_chld == NULL ||
	    event_add(s->ev_fifo, NULL) == -1 ||
	    evsignal_add(s->ev_term, NULL) == -1 ||
	    evsignal_add(s->ev_int, NULL) == -1 ||
	    evsignal_add(s->ev_chld, NULL) == -1)
		fatalx("libevent: cannot add events");
	s->last = rundir_now();
	server_arm(s->ev_idle, s->idle_timeout);
	server_arm(s->ev_watch, SERVER_WATCH);
	/* A child that ended before the event was there (cache writer). */
	server_chld_cb(SIGCHLD, 0, s);

	/*
	 * SIGTERM and SIGINT were blocked since the load ended, so that none
	 * could kill us between the FIFO appearing and libevent handling
	 * them: from here they go through server_exit().
	 */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	if (s->readyfd != -1) {
		ready = PROTO_READY_OK;
		if (write(s->readyfd, &ready, 1) == -1)
			(void)0;	/* the starter gave up: fine */
		close(s->readyfd);
		s->readyfd = -1;
	}
	log_info("serving %s", s->path);

	event_base_dispatch(s->base);

	while ((c = TAILQ_FIRST(&s->clients)) != NULL)
		server_client_free(c);
	server_worker_fills_free(s);
	event_free(s->ev_fifo);
	event_free(s->ev_idle);
	event_free(s->ev_watch);
	event_free(s->ev_term);
	event_free(s->ev_int);
	event_free(s->ev_chld);
	evbuffer_free(s->in);
	event_base_free(s->base);
	return (0);
}
