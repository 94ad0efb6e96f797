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

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "answer.h"
#include "cause.h"
#include "client-spawn.h"
#include "client.h"
#include "compat.h"
#include "conf.h"
#include "escape.h"
#include "loadprogress.h"
#include "outbuf.h"
#include "profpath.h"
#include "proto.h"
#include "query.h"
#include "render.h"
#include "rundir.h"
#include "testhook.h"

/*
 * The client side of the rendezvous (see client.h for the sequence and
 * doc/architecture.md for its place in a request). Every wait has a deadline, polls in slices of at
 * most CLIENT_SLICE ms so a cancel request is seen promptly, and never
 * blocks on a FIFO open.
 */

#define CLIENT_SLICE	50	/* ms between checks while waiting */
#define CLIENT_LOCK_MS	10000	/* waiting for the mutex */
#define CLIENT_START_MS	10000	/* a new server taking its lock */
#define CLIENT_SEND_MS	5000	/* room in a full request FIFO */
#define CLIENT_ATTEMPTS	8
#define CLIENT_RETRY	2	/* Retry-After of retryable 503s */
#define CLIENT_HEAD	8192	/* header, type, message, some body */
#define CLIENT_ALIVE_MAX 4352	/* a liveness file: pid, path, start */
#define CLIENT_POPULATE_MIN (64U * 1024)	/* pre-fault bodies from... */
#define CLIENT_POPULATE_MAX (16U * 1024 * 1024)	/* ...to */

#if PROTO_ANS_HDR + PROTO_MAX_CTYPE + PROTO_MAX_MESSAGE > CLIENT_HEAD
#error "CLIENT_HEAD cannot hold an answer's header, type and message"
#endif

struct client {
	const struct config		*cfg;
	const struct client_options	*opts;
	struct render_context		 rctx;
	enum catalog_fmt		 format;
	const char			*name;
	const char			*path;		/* NULL: by key */
	char				*root;		/* canonical, or NULL */
	off_t				 size;
	char				*rundir;
	int				 dirfd;
	char				 key[PROTO_KEY_LEN + 1];
	char				 id[PROTO_ID_LEN + 1];
	char				 lockname[PROTO_NAME_MAX];
	char				 alivename[PROTO_NAME_MAX];
	char				 fifoname[PROTO_NAME_MAX];
	char				 wantname[PROTO_NAME_MAX];
	char				 replyname[PROTO_NAME_MAX];
	char				 queryname[PROTO_NAME_MAX];
	int				 lockfd;
	int				 alivefd;
	int				 replyfd;
	int				 want, reply, qfile;	/* to remove */
	long long			 start;
	char				 server[CLIENT_ALIVE_MAX];
	ssize_t				 serverlen;	/* -1: unknown */
};

static struct answer *client_error(struct client *, int, int, const char *,
		    ...) __attribute__((__format__(__printf__, 4, 5)));
static struct answer *client_loading(struct client *);
static int	client_canceled(const struct client *);
static int	client_open(struct client *, int, char **);
static void	client_close(struct client *);
static struct answer *client_open_error(struct client *, const char *, int,
		    char *);
static void	client_unrundir(const struct client *, char *);
static int	client_lock_gone(struct client *);
static int	client_reopen(struct client *, char **);
static int	client_no_server(struct client *, const char *,
		    struct answer **);
static struct answer *client_run(struct client *, const char *);
static int	client_send(struct client *, int, const char *);
static int	client_read(struct client *, char *, size_t, long long, int,
		    size_t *, struct answer **);
static void	client_populate(char *, size_t);
static struct answer *client_receive(struct client *);
static int	client_wait_others(struct client *, long long);
static int	client_ready(struct client *, int, long long, char **,
		    int *);
static int	client_count(struct client *, int *, char **);
static struct answer *client_start(struct client *, int *);
static struct answer *client_start_wait(struct client *, long long, int *);
static const char *client_unpath(const struct client *, const char *);
static int	client_is_server(pid_t);
static int	client_server_changed(struct client *, int);

/* Defaults for client options. */
void
client_options_init(struct client_options *o)
{
	memset(o, 0, sizeof *o);
	o->load_wait = -1;
}

static int
client_canceled(const struct client *c)
{
	return (c->opts->cancel != NULL && *c->opts->cancel);
}

/*
 * No absolute path of ours in a message to the client: the profile's
 * becomes the name it sent, the root's goes (deepq.cgi(8)).
 */
static void
client_unroot(const struct client *c, char **msg)
{
	char	*slash;

	if (c->path != NULL)
		cause_replace(msg, c->path, c->name);
	if (c->root != NULL && strcmp(c->root, "/") != 0) {
		if (asprintf(&slash, "%s/", c->root) != -1) {
			cause_replace(msg, slash, "");
			free(slash);
		}
		cause_replace(msg, c->root, "the profile root");
	}
}

/* An error answer in the query's format; NULL only if out of memory. */
static struct answer *
client_error(struct client *c, int status, int retry, const char *fmt, ...)
{
	struct render_context	 rctx;
	struct answer		*a;
	va_list			 ap;
	char			*msg;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) == -1)
		msg = NULL;
	va_end(ap);
	client_unroot(c, &msg);
	if (msg == NULL)
		return (NULL);
	/*
	 * A profile that cannot be had (refused, missing, too large, not
	 * loadable) gets a page without its own links (summary, Top, Tree,
	 * Flame...), which would all fail the same way: only the index's.
	 */
	rctx = c->rctx;
	if (status == 403 || status == 404 || status == 413 || status == 422)
		rctx.file = NULL;
	if ((a = answer_error(c->format, status, msg, &rctx)) != NULL)
		a->retry_after = retry;
	free(msg);
	return (a);
}

/*
 * 503 while a big profile loads: Retry-After, and for HTML a page that
 * reloads itself (a meta refresh, which the Content-Security-Policy
 * allows) so the browser gets there without holding a web server worker.
 */
static struct answer *
client_loading(struct client *c)
{
	struct loadprogress	 lp;
	struct answer		*a;
	struct outbuf		 ob;
	char			*msg, *prog = NULL;
	double			 mb = (double)c->size / (1024 * 1024);
	int			 known;

	/* How far the server is, where we may see it (loadprogress.h). */
	known = c->dirfd != -1 && loadprogress_read(c->dirfd, c->alivename,
	    c->size, &lp) == 0;
	if (known)
		prog = loadprogress_text(&lp);
	if (asprintf(&msg, "loading %s (%.1f MB), retry in %d s%s%s", c->name,
	    mb, CLIENT_RETRY, prog ? ": " : "", prog ? prog : "") == -1) {
		free(prog);
		return (NULL);
	}
	if (c->format != FMT_HTML) {
		/* JSON: the error, and the same figures for scripts. */
		a = answer_error_more(c->format, 503, msg, &c->rctx, "loading",
		    known ? loadprogress_json(&lp) : NULL);
		if (a != NULL)
			a->retry_after = CLIENT_RETRY;
		free(msg);
		free(prog);
		return (a);
	}
	if ((a = calloc(1, sizeof *a)) == NULL) {
		free(msg);
		free(prog);
		return (NULL);
	}
	a->status = 503;
	a->retry_after = CLIENT_RETRY;
	a->content_type = "text/html; charset=utf-8";
	a->message = msg;
	outbuf_init(&ob);
	outbuf_printf(&ob, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n"
	    "<meta http-equiv=\"refresh\" content=\"%d\">\n<title>Loading ",
	    CLIENT_RETRY);
	escape_html(&ob, c->name);
	outbuf_puts(&ob, " - deepq</title>\n");
	if (c->rctx.static_base != NULL) {
		outbuf_puts(&ob, "<link rel=\"stylesheet\" href=\"");
		escape_html(&ob, c->rctx.static_base);
		outbuf_puts(&ob, "deepq.css\">\n");
	}
	outbuf_puts(&ob, "</head>\n<body>\n<main>\n<h1>Loading ");
	escape_html(&ob, c->name);
	outbuf_puts(&ob, "</h1>\n<p class=\"loading\">Loading ");
	escape_html(&ob, c->name);
	outbuf_printf(&ob, " (%.1f MB). This page reloads itself every %d "
	    "seconds until the profile is ready.</p>\n", mb, CLIENT_RETRY);
	if (known && prog != NULL) {
		outbuf_printf(&ob, "<p><progress id=\"load\" max=\"%lld\" "
		    "value=\"%lld\"></progress></p>\n<p class=\"progress\">",
		    (long long)lp.total, (long long)lp.done);
		escape_html(&ob, prog);
		outbuf_puts(&ob, "</p>\n");
	}
	outbuf_puts(&ob, "</main>\n</body>\n</html>\n");
	free(prog);
	if ((a->body = outbuf_take(&ob, &a->len)) == NULL) {
		answer_free(a);
		return (NULL);
	}
	return (a);
}

/*
 * Open the runtime directory and our files in it: the want file (before
 * anything else, so a server deciding to exit sees us), our reply FIFO
 * (open before the request is sent, so the server's open for writing
 * succeeds), the mutex and the liveness lock.
 */
static int
client_open(struct client *c, int create, char **cause)
{
	int	 fd;

	if ((c->rundir = conf_runtime_dir(c->cfg, cause)) == NULL)
		return (-1);
	if ((c->dirfd = rundir_open(c->rundir, create, cause)) == -1)
		return (-1);
	if (proto_id_new(c->id, cause) == -1)
		return (-1);
	if (proto_name(c->lockname, PROTO_NAME_MAX, c->key, PROTO_LOCK,
	    NULL) == -1 ||
	    proto_name(c->alivename, PROTO_NAME_MAX, c->key, PROTO_ALIVE,
	    NULL) == -1 ||
	    proto_name(c->fifoname, PROTO_NAME_MAX, c->key, PROTO_FIFO,
	    NULL) == -1 ||
	    proto_name(c->wantname, PROTO_NAME_MAX, c->key, PROTO_WANT,
	    c->id) == -1 ||
	    proto_name(c->replyname, PROTO_NAME_MAX, c->key, PROTO_REPLY,
	    c->id) == -1 ||
	    proto_name(c->queryname, PROTO_NAME_MAX, c->key, PROTO_QUERY,
	    c->id) == -1) {
		cause_set(cause, "bad runtime file name");
		return (-1);
	}
	if ((fd = rundir_file(c->dirfd, c->wantname, 2, cause)) == -1)
		return (-1);
	close(fd);
	c->want = 1;
	if (rundir_mkfifo(c->dirfd, c->replyname, cause) == -1)
		return (-1);
	c->reply = 1;
	if ((c->replyfd = rundir_fifo(c->dirfd, c->replyname, O_RDONLY,
	    cause)) == -1)
		return (-1);
	if ((c->lockfd = rundir_file(c->dirfd, c->lockname, 1, cause)) == -1)
		return (-1);
	if ((c->alivefd = rundir_file(c->dirfd, c->alivename, 1,
	    cause)) == -1)
		return (-1);
	return (0);
}

/*
 * Is the lock we hold no longer the file of its name (removed by a
 * server whose load failed, deepq-server.c)?
 */
static int
client_lock_gone(struct client *c)
{
	struct stat	 a, b;

	if (fstat(c->lockfd, &a) == -1 || a.st_nlink == 0)
		return (1);
	return (fstatat(c->dirfd, c->lockname, &b, AT_SYMLINK_NOFOLLOW) ==
	    -1 || a.st_dev != b.st_dev || a.st_ino != b.st_ino);
}

/* The lock and liveness files again, by name. -1 with *cause. */
static int
client_reopen(struct client *c, char **cause)
{
	close(c->lockfd);
	close(c->alivefd);
	c->alivefd = -1;
	if ((c->lockfd = rundir_file(c->dirfd, c->lockname, 1, cause)) == -1)
		return (-1);
	if ((c->alivefd = rundir_file(c->dirfd, c->alivename, 1,
	    cause)) == -1)
		return (-1);
	return (0);
}

/*
 * cmd=status and cmd=shutdown are about the server itself: with none
 * running, they are answered 404 here, starting none, loading nothing
 * and making no file in the runtime directory. 1 if the query is one of
 * them and no server runs (*a then the answer), 0 otherwise.
 */
static int
client_no_server(struct client *c, const char *query, struct answer **a)
{
	struct query	*q;
	char		*cause = NULL, *rundir, alive[PROTO_NAME_MAX];
	int		 status, dirfd, fd, live = 0, r;

	if ((q = query_parse(query, &status, &cause)) == NULL) {
		free(cause);
		return (0);
	}
	r = q->cmd == CMD_STATUS || q->cmd == CMD_SHUTDOWN;
	query_free(q);
	if (!r)
		return (0);
	if ((rundir = conf_runtime_dir(c->cfg, NULL)) != NULL &&
	    (dirfd = rundir_open(rundir, 0, NULL)) != -1) {
		if (proto_name(alive, sizeof alive, c->key, PROTO_ALIVE,
		    NULL) == 0 && (fd = rundir_file(dirfd, alive, 0,
		    NULL)) != -1) {
			live = rundir_locked(fd) != 0;
			close(fd);
		}
		close(dirfd);
	}
	free(rundir);
	if (live)
		return (0);
	*a = client_error(c, 404, 0, "no server is running for this "
	    "profile");
	return (1);
}

/*
 * The answer when the runtime directory cannot be used (why, from
 * client_open, with the errno of what failed). Running out of something
 * (inodes, space, descriptors, memory) is 503 with Retry-After: it
 * passes, and the profile is not to blame (422 said it was). Anything
 * else is 500. The client sees no path, only what went wrong; the
 * whole cause goes to the log callback, where an administrator looks.
 */
static struct answer *
client_open_error(struct client *c, const char *what, int err, char *why)
{
	struct answer	*a;
	int		 resource;

	resource = err == ENOSPC || err == EDQUOT || err == EMFILE ||
	    err == ENFILE || err == ENOMEM || err == EAGAIN;
	if (c->opts->log != NULL && why != NULL)
		c->opts->log(why);
	if (resource)
		a = client_error(c, 503, CLIENT_RETRY, "%s: %s", what,
		    strerror(err));
	else if (why != NULL) {
		/* A refusal says why (an owner, a link), by no path. */
		client_unrundir(c, why);
		a = client_error(c, 500, 0, "%s: %s", what, why);
	} else
		a = client_error(c, 500, 0, "%s: %s", what,
		    err != 0 ? strerror(err) : "cannot be used");
	free(why);
	return (a);
}

/*
 * Take the runtime directory's path out of a message, in place: a
 * leading "DIR: " or "DIR/" goes, any other "DIR" becomes "...".
 */
static void
client_unrundir(const struct client *c, char *msg)
{
	char	*p;
	size_t	 n;

	if (c->rundir == NULL || (n = strlen(c->rundir)) == 0)
		return;
	if (strncmp(msg, c->rundir, n) == 0 && (msg[n] == '/' ||
	    (msg[n] == ':' && msg[n + 1] == ' ')))
		memmove(msg, msg + n + (msg[n] == '/' ? 1 : 2),
		    strlen(msg + n + (msg[n] == '/' ? 1 : 2)) + 1);
	/* Never longer: "..." replaces at least as many bytes. */
	while (n >= 3 && (p = strstr(msg, c->rundir)) != NULL) {
		memcpy(p, "...", 3);
		memmove(p + 3, p + n, strlen(p + n) + 1);
	}
}

/* Close and remove everything client_open made. */
static void
client_close(struct client *c)
{
	if (c->replyfd != -1)
		close(c->replyfd);
	if (c->lockfd != -1)
		close(c->lockfd);
	if (c->alivefd != -1)
		close(c->alivefd);
	if (c->dirfd != -1) {
		if (c->qfile)
			(void)unlinkat(c->dirfd, c->queryname, 0);
		if (c->reply)
			(void)unlinkat(c->dirfd, c->replyname, 0);
		if (c->want)
			(void)unlinkat(c->dirfd, c->wantname, 0);
		close(c->dirfd);
	}
	free(c->rundir);
}

/*
 * Write the request to the server's FIFO (we hold the mutex, so no
 * other client writes meanwhile). 0 sent; -1 with errno: EPIPE or ENXIO
 * mean the server is gone, others are errors.
 */
static int
client_send(struct client *c, int fd, const char *query)
{
	struct proto_req	 r;
	struct pollfd		 pfd;
	long long		 end = rundir_now() + CLIENT_SEND_MS;
	char			*frame, *why = NULL;
	size_t			 len, qlen = strlen(query), off;
	ssize_t			 n;
	int			 qfd;

	memset(&r, 0, sizeof r);
	memcpy(r.id, c->id, sizeof r.id);
	r.name = (char *)c->name;
	r.static_base = (char *)(c->rctx.static_base ? c->rctx.static_base :
	    "");
	/* Too long a root only costs base= (the server then refuses it). */
	r.root = (char *)(c->root != NULL && strlen(c->root) <=
	    PROTO_MAX_ROOT ? c->root : "");
	r.query = (char *)query;
	r.query_len = qlen;
	if (PROTO_REQ_HDR + strlen(r.name) + strlen(r.static_base) +
	    strlen(r.root) + qlen > PROTO_ATOMIC) {
		/* Too big for one atomic write: the query goes in a file. */
		if ((qfd = rundir_file(c->dirfd, c->queryname, 2, NULL)) == -1)
			return (-1);
		c->qfile = 1;
		for (off = 0; off < qlen; off += n) {
			if ((n = write(qfd, query + off, qlen - off)) == -1) {
				close(qfd);
				return (-1);
			}
		}
		close(qfd);
		r.flags |= PROTO_REQ_FILE;
	}
	if ((frame = proto_req_encode(&r, &len, &why)) == NULL) {
		free(why);
		errno = E2BIG;
		return (-1);
	}
	for (;;) {
		/* At most PIPE_BUF bytes: all or nothing, never a part. */
		if ((n = write(fd, frame, len)) == (ssize_t)len)
			break;
		if (n >= 0 || (errno != EAGAIN && errno != EINTR)) {
			if (n >= 0)
				errno = EIO;
			free(frame);
			return (-1);
		}
		if (rundir_now() >= end || client_canceled(c)) {
			free(frame);
			errno = ETIMEDOUT;
			return (-1);
		}
		pfd.fd = fd;
		pfd.events = POLLOUT;
		(void)poll(&pfd, 1, CLIENT_SLICE);
	}
	free(frame);
	return (0);
}

/*
 * The server we sent to, by what its liveness file says: its pid, path
 * and start time (the server writes them once it holds the lock). With
 * record set, remember it; else 1 if another server holds the lock now.
 * A server SIGKILLed and replaced by a new one before we looked would
 * otherwise leave us waiting for query_timeout on a lock that is held,
 * by the new server, which never heard of our request.
 */
static int
client_server_changed(struct client *c, int record)
{
	char	 buf[CLIENT_ALIVE_MAX];
	ssize_t	 n;

	n = pread(c->alivefd, buf, sizeof buf, 0);
	if (record) {
		c->serverlen = n;
		if (n > 0)
			memcpy(c->server, buf, (size_t)n);
		return (0);
	}
	if (c->serverlen <= 0)
		return (0);	/* nothing known to compare with */
	return (n != c->serverlen || memcmp(buf, c->server, (size_t)n) != 0);
}

/*
 * Wait for the next bytes of our answer and read up to len of them into
 * buf: 0 with *np > 0, or -1 with *ap the error answer (NULL if out of
 * memory). Until the first byte (started 0) the server may not have
 * opened our FIFO, where read(2) says EOF: poll first, and watch its
 * liveness lock, since a server killed before answering never opens it
 * and must not hang us. Once bytes flow, read first: most of a long
 * answer is waiting in the pipe, and a poll before each read would
 * double the system calls.
 */
static int
client_read(struct client *c, char *buf, size_t len, long long end,
    int started, size_t *np, struct answer **ap)
{
	struct pollfd	 pfd;
	ssize_t		 n;
	int		 r;

	for (;;) {
		if (client_canceled(c)) {
			*ap = client_error(c, 503, CLIENT_RETRY, "canceled");
			return (-1);
		}
		if (started) {
			if ((n = read(c->replyfd, buf, len)) > 0) {
				*np = n;
				return (0);
			}
			if (n == 0) {
				*ap = client_error(c, 503, CLIENT_RETRY,
				    "the server closed the answer early");
				return (-1);
			}
			if (errno != EAGAIN && errno != EINTR) {
				*ap = client_error(c, 502, 0, "reading the "
				    "answer: %s", strerror(errno));
				return (-1);
			}
		}
		if (rundir_now() >= end) {
			*ap = client_error(c, 504, 0, "no answer within %d s",
			    c->cfg->query_timeout);
			return (-1);
		}
		pfd.fd = c->replyfd;
		pfd.events = POLLIN;
		pfd.revents = 0;
		r = poll(&pfd, 1, CLIENT_SLICE);
		if (started)
			continue;
		if (r == 0) {
			/*
			 * Liveness first, then the FIFO: see server.c. A
			 * lock held by another server than ours is no
			 * better than none.
			 */
			if ((rundir_locked(c->alivefd) == 0 ||
			    client_server_changed(c, 0)) &&
			    poll(&pfd, 1, 0) == 0) {
				*ap = client_error(c, 503, CLIENT_RETRY,
				    "the server exited before answering");
				return (-1);
			}
		}
		if (r > 0 || (pfd.revents & (POLLIN | POLLHUP)))
			started = 1;	/* a writer came: EOF is real now */
	}
}

/*
 * Make the pages of a body buffer present before the reads fill them:
 * one system call instead of a page fault every 4 KB (about 460 for a
 * 1.9 MB answer; a fault costs some 10 us on a VM). Only for bodies
 * from CLIENT_POPULATE_MIN (below, 16 faults at most to save) to
 * CLIENT_POPULATE_MAX, so that a header announcing a huge body does not
 * make us commit its memory before the bytes come.
 */
static void
client_populate(char *buf, size_t len)
{
	if (len >= CLIENT_POPULATE_MIN && len <= CLIENT_POPULATE_MAX)
		compat_populate(buf, len);
}

/*
 * Read our answer from our reply FIFO, with a deadline. The header,
 * content type and message come into a buffer on the stack, with the
 * first bytes of the body; the rest of the body goes straight into one
 * buffer of the size the header announced, which becomes the answer's
 * body: no growing buffer, no copy of the whole answer.
 */
static struct answer *
client_receive(struct client *c)
{
	struct proto_ans	 h;
	struct answer		*a = NULL;
	char			 head[CLIENT_HEAD], *body = NULL, *ctype;
	char			*why = NULL;
	size_t			 have = 0, fixed, got, n;
	long long		 end;

	testhook_pause("client-read");
	end = rundir_now() + (long long)c->cfg->query_timeout * 1000;

	/* The header; the first read usually brings everything else too. */
	while (have < PROTO_ANS_HDR) {
		if (client_read(c, head + have, sizeof head - have, end,
		    have > 0, &n, &a) == -1)
			return (a);
		have += n;
	}
	if (proto_ans_decode(head, have, &h, &why) == -1) {
		a = client_error(c, 502, 0, "bad answer: %s", why ? why : "?");
		free(why);
		return (a);
	}
	if (strcmp(h.id, c->id) != 0)
		return (client_error(c, 502, 0, "answer to another request"));

	/* The content type and message: bounded to fit in head. */
	fixed = PROTO_ANS_HDR + h.ctype_len + h.message_len;
	while (have < fixed) {
		if (client_read(c, head + have, sizeof head - have, end, 1, &n,
		    &a) == -1)
			return (a);
		have += n;
	}
	if (!proto_ctype_valid(head + PROTO_ANS_HDR, h.ctype_len))
		return (client_error(c, 502, 0, "bad content type"));
	/* The answer begun, its body not yet read (tests: a slow reader). */
	testhook_pause("client-body");

	/* The body, into its own buffer. */
	if ((body = malloc(h.body_len + 1)) == NULL)
		return (NULL);
	client_populate(body, h.body_len);
	got = have - fixed < h.body_len ? have - fixed : h.body_len;
	memcpy(body, head + fixed, got);
	while (got < h.body_len) {
		if (client_read(c, body + got, h.body_len - got, end, 1, &n,
		    &a) == -1) {
			free(body);
			return (a);
		}
		got += n;
	}
	body[h.body_len] = '\0';

	/*
	 * The content type lives in the same allocation, after the struct,
	 * so answer_free() frees it with the answer.
	 */
	if ((a = calloc(1, sizeof *a + h.ctype_len + 1)) == NULL) {
		free(body);
		return (NULL);
	}
	ctype = (char *)(a + 1);
	memcpy(ctype, head + PROTO_ANS_HDR, h.ctype_len);
	ctype[h.ctype_len] = '\0';
	a->content_type = ctype;
	a->status = h.status;
	a->retry_after = h.retry_after;
	a->body = body;
	a->len = h.body_len;
	if (h.message_len > 0 && (a->message = strndup(head +
	    PROTO_ANS_HDR + h.ctype_len, h.message_len)) == NULL) {
		answer_free(a);
		return (NULL);
	}
	return (a);
}

/*
 * Another client's server is loading (it holds the liveness lock but
 * has no FIFO yet): wait for the FIFO, or for the lock to go (a failed
 * or killed loader), until end. 1 try again, 0 deadline, -1 canceled.
 */
static int
client_wait_others(struct client *c, long long end)
{
	for (;;) {
		if (rundir_fifo_check(c->dirfd, c->fifoname, NULL) != 0 ||
		    rundir_locked(c->alivefd) != 1)
			return (1);
		if (client_canceled(c))
			return (-1);
		if (rundir_now() >= end)
			return (0);
		(void)poll(NULL, 0, 10);
	}
}

/*
 * Read the new server's readiness pipe until it says `until' (L or R),
 * an error, EOF or end. Returns the byte seen, 0 on deadline, -1 on EOF
 * or cancel; an error's text goes to *msg.
 */
static int
client_ready(struct client *c, int rfd, long long end, char **msg,
    int *seen)
{
	struct pollfd	 pfd;
	char		 buf[1024], *m, kind;
	ssize_t		 n;
	size_t		 len;
	long long	 left;

	for (;;) {
		if (client_canceled(c))
			return (-1);
		if ((left = end - rundir_now()) <= 0)
			return (0);
		pfd.fd = rfd;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, left < CLIENT_SLICE ? (int)left :
		    CLIENT_SLICE) <= 0)
			continue;
		if ((n = read(rfd, buf, 1)) == -1) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return (-1);
		}
		if (n == 0)
			return (-1);
		if (buf[0] == PROTO_READY_ERROR ||
		    buf[0] == PROTO_READY_TOOLARGE) {
			kind = buf[0];
			/* The rest until EOF is the message. */
			len = 0;
			while (len < sizeof buf - 1 && (n = read(rfd,
			    buf + len, sizeof buf - 1 - len)) > 0)
				len += n;
			buf[len] = '\0';
			if ((m = strdup(buf)) != NULL) {
				free(*msg);
				*msg = m;
			}
			return (kind);
		}
		*seen = buf[0];
		if (buf[0] == PROTO_READY_OK || buf[0] == PROTO_READY_BUSY ||
		    buf[0] == PROTO_READY_LOCKED)
			return (buf[0]);
	}
}

/*
 * How many servers run (hold their liveness lock) in the directory? For
 * max_servers. Unsafe entries are not counted (and not touched).
 */
static int
client_count(struct client *c, int *count, char **cause)
{
	struct dirent	*de;
	DIR		*d;
	char		 key[PROTO_KEY_LEN + 1], kind[16], id[PROTO_ID_LEN + 1];
	int		 fd, dfd;

	*count = 0;
	if ((dfd = dup(c->dirfd)) == -1 || (d = fdopendir(dfd)) == NULL) {
		if (dfd != -1)
			close(dfd);
		cause_set(cause, "%s: %s", c->rundir, strerror(errno));
		return (-1);
	}
	rewinddir(d);
	while ((de = readdir(d)) != NULL) {
		if (proto_name_parse(de->d_name, key, kind, sizeof kind,
		    id) == -1 || strcmp(kind, PROTO_ALIVE) != 0 ||
		    strcmp(key, c->key) == 0)
			continue;
		if ((fd = rundir_file(c->dirfd, de->d_name, 0, NULL)) == -1)
			continue;
		if (rundir_locked(fd) == 1)
			(*count)++;
		close(fd);
	}
	closedir(d);
	return (0);
}

/*
 * No server for our file, and we hold its mutex: start one, unless
 * max_servers run already (counted under the spawn lock, so two
 * starters cannot both take the last place). On success *rfd is the
 * readiness pipe, after the server said it holds its liveness lock, and
 * NULL is returned; otherwise an error answer.
 */
static struct answer *
client_start(struct client *c, int *rfd)
{
	struct answer	*a = NULL;
	char		*why = NULL, *msg = NULL;
	int		 sfd, count, r, seen = 0;

	*rfd = -1;
	if ((sfd = rundir_file(c->dirfd, PROTO_SPAWN_LOCK, 1, &why)) == -1)
		return (client_open_error(c, "runtime directory", errno, why));
	if (rundir_lock(sfd, LOCK_EX, CLIENT_LOCK_MS, c->opts->cancel) == -1) {
		a = client_error(c, 503, CLIENT_RETRY, "busy starting servers");
		goto done;
	}
	if (client_count(c, &count, &why) == -1) {
		a = client_error(c, 500, 0, "%s", why);
		goto done;
	}
	if (count >= c->cfg->max_servers) {
		a = client_error(c, 503, 10, "too many profiles open (%d "
		    "servers), retry later", count);
		goto done;
	}
	if ((*rfd = client_spawn(c->cfg, c->rundir, c->key, c->path,
	    &why)) == -1) {
		a = client_open_error(c, "cannot start a server", errno, why);
		why = NULL;
		goto done;
	}
	r = client_ready(c, *rfd, rundir_now() + CLIENT_START_MS, &msg, &seen);
	if (r == PROTO_READY_LOCKED)
		goto done;
	if (r == PROTO_READY_BUSY)
		a = client_error(c, 503, CLIENT_RETRY, "another server has "
		    "this profile");
	else if (r == PROTO_READY_ERROR && msg != NULL &&
	    strncmp(msg, PROTO_READY_RUNDIR, strlen(PROTO_READY_RUNDIR)) == 0)
		a = client_error(c, 503, CLIENT_RETRY, "%s", msg);
	else if (r == PROTO_READY_ERROR)
		a = client_error(c, 500, 0, "%s", client_unpath(c, msg));
	else if (r == PROTO_READY_TOOLARGE)
		a = client_error(c, 413, 0, "%s", client_unpath(c, msg));
	else
		a = client_error(c, 500, 0, "the server did not start");
	close(*rfd);
	*rfd = -1;
done:
	free(msg);
	free(why);
	close(sfd);
	return (a);
}

/*
 * A loader's message without the real path it starts with: the web user
 * knows the file by its name under the profile root.
 */
static const char *
client_unpath(const struct client *c, const char *msg)
{
	size_t	 n = strlen(c->path);

	if (msg == NULL)
		return ("?");
	if (strncmp(msg, c->path, n) == 0 && msg[n] == ':' && msg[n + 1] == ' ')
		return (msg + n + 2);
	return (msg);
}

/*
 * No server runs (the profile's lock held, released here): start one
 * and wait until it says how its load went. NULL: look again (it
 * serves, another does, or it died while loading for the first time);
 * else the answer to give (an error, or that it is still loading).
 */
static struct answer *
client_start_wait(struct client *c, long long load_end, int *died)
{
	struct answer	*a;
	char		*msg = NULL;
	int		 rfd, r, seen = 0;

	a = client_start(c, &rfd);
	flock(c->lockfd, LOCK_UN);
	if (a != NULL)
		return (a);
	r = client_ready(c, rfd, load_end, &msg, &seen);
	close(rfd);
	if (r == PROTO_READY_OK || r == PROTO_READY_BUSY)
		return (NULL);
	if (r == PROTO_READY_ERROR && msg != NULL &&
	    strncmp(msg, PROTO_READY_RUNDIR,
	    strlen(PROTO_READY_RUNDIR)) == 0) {
		/* Not the profile's fault: retry later. */
		a = client_error(c, 503, CLIENT_RETRY, "%s", msg);
		free(msg);
		return (a);
	}
	if (r == PROTO_READY_ERROR || r == PROTO_READY_TOOLARGE) {
		/*
		 * Too large: 413, the request's entity is the file. A
		 * view's database down: 503, the service, retry.
		 */
		int unavail = r == PROTO_READY_ERROR && msg != NULL &&
		    strstr(msg, PROTO_UNAVAILABLE_TEXT) != NULL;

		a = client_error(c, r == PROTO_READY_TOOLARGE ? 413 :
		    unavail ? 503 : 422, unavail ? CLIENT_RETRY : 0,
		    "cannot load %s: %s", c->name, client_unpath(c, msg));
		free(msg);
		return (a);
	}
	free(msg);
	if (r == 0)
		return (client_loading(c));
	if (client_canceled(c))
		return (client_error(c, 503, CLIENT_RETRY, "canceled"));
	/*
	 * Killed while loading (SIGKILL, the OOM killer, a web
	 * server's restart): start another. Twice is the file's
	 * doing: say so.
	 */
	if (++*died < 2)
		return (NULL);
	return (client_error(c, 500, 0, "the server exited while "
	    "loading %s", c->name));
}

/*
 * The protocol loop. Each pass takes the mutex and either sends (a live
 * server), waits for a loading one, or starts one; it loops when the
 * state changed under it (a server appeared or died).
 */
static struct answer *
client_run(struct client *c, const char *query)
{
	struct answer	*a;
	long long	 load_end;
	char		*why = NULL;
	int		 attempt, alive, fd, r, load_wait, died = 0;

	load_wait = c->opts->load_wait >= 0 ? c->opts->load_wait :
	    c->cfg->load_wait;
	load_end = c->start + (long long)load_wait * 1000;
	for (attempt = 0; attempt < CLIENT_ATTEMPTS; attempt++) {
		if (rundir_lock(c->lockfd, LOCK_EX, CLIENT_LOCK_MS,
		    c->opts->cancel) == -1)
			return (client_error(c, 503, CLIENT_RETRY,
			    errno == ECANCELED ? "canceled" :
			    "the profile's lock is busy, retry"));
		testhook_pause("client-locked");
		if (client_lock_gone(c)) {
			/*
			 * A server that failed to load removed the profile's
			 * lock and liveness files while we waited: take the
			 * new ones (made now if none), or two clients could
			 * each hold a lock of its own.
			 */
			flock(c->lockfd, LOCK_UN);
			if (client_reopen(c, &why) == -1) {
				a = client_open_error(c, "runtime directory",
				    errno, why);
				return (a);
			}
			continue;
		}
		if ((alive = rundir_locked(c->alivefd)) == -1) {
			/* Never take a live server's FIFO for a stale one. */
			flock(c->lockfd, LOCK_UN);
			return (client_error(c, 503, CLIENT_RETRY, "cannot "
			    "test the server's lock: %s", strerror(errno)));
		}
		fd = rundir_fifo(c->dirfd, c->fifoname, O_WRONLY, &why);
		if (fd == -1 && errno == EPERM) {
			flock(c->lockfd, LOCK_UN);
			a = client_error(c, 500, 0, "refusing unsafe runtime "
			    "file: %s", why ? why : "?");
			free(why);
			return (a);
		}
		free(why);
		why = NULL;
		if (alive == 1 && fd != -1) {
			client_server_changed(c, 1);
			r = client_send(c, fd, query);
			close(fd);
			flock(c->lockfd, LOCK_UN);
			if (r == 0)
				return (client_receive(c));
			if (errno != EPIPE && errno != ENXIO)
				return (client_error(c, 503, CLIENT_RETRY,
				    "cannot send to the server: %s",
				    strerror(errno)));
			continue;
		}
		if (fd != -1)
			close(fd);
		if (alive == 1) {
			/* Somebody's server is loading: wait, do not load. */
			flock(c->lockfd, LOCK_UN);
			if (c->opts->nospawn)
				return (client_error(c, 503, CLIENT_RETRY,
				    "the server is loading"));
			r = client_wait_others(c, load_end);
			if (r == 1)
				continue;
			if (r == -1)
				return (client_error(c, 503, CLIENT_RETRY,
				    "canceled"));
			return (client_loading(c));
		}
		/* No server. A FIFO left by a dead one goes (ours only). */
		if (rundir_fifo_check(c->dirfd, c->fifoname, NULL) == 1)
			(void)unlinkat(c->dirfd, c->fifoname, 0);
		if (c->opts->nospawn || c->path == NULL) {
			flock(c->lockfd, LOCK_UN);
			return (client_error(c, 404, 0, "no server is running "
			    "for this profile"));
		}
		if ((a = client_start_wait(c, load_end, &died)) != NULL)
			return (a);
	}
	return (client_error(c, 503, CLIENT_RETRY, "could not reach a "
	    "server, retry"));
}

/* Answer a query about file= through its server (see client.h). */
struct answer *
client_query(const struct config *cfg, const char *file, const char *query,
    char **cause)
{
	return (client_query_with(cfg, NULL, file, query, cause));
}

/* client_query with options; opts NULL means the defaults. */
struct answer *
client_query_with(const struct config *cfg, const struct client_options *o,
    const char *file, const char *query, char **cause)
{
	struct client_options	 defaults;
	struct client		 c;
	struct profpath		 pp;
	struct answer		*a;
	char			*why = NULL;
	int			 status;

	if (o == NULL) {
		client_options_init(&defaults);
		o = &defaults;
	}
	memset(&c, 0, sizeof c);
	c.cfg = cfg;
	c.opts = o;
	c.start = rundir_now();
	c.dirfd = c.lockfd = c.alivefd = c.replyfd = -1;
	c.serverlen = -1;
	c.format = answer_guess_format(query);
	c.name = o->name != NULL ? o->name : file;
	c.rctx.link_base = "?";
	c.rctx.static_base = o->static_base != NULL ? o->static_base :
	    cfg->static_url;
	if (c.rctx.static_base != NULL && *c.rctx.static_base == '\0')
		c.rctx.static_base = NULL;
	c.rctx.file = c.name;

	if (profpath_resolve(o->root != NULL ? o->root : cfg->profile_root,
	    file, &pp, &status, &why) == -1) {
		a = client_error(&c, status, 0, "%s", why ? why : "?");
		free(why);
		goto done;
	}
	c.path = pp.path;
	c.size = pp.size;
	/* The server resolves base= under it, from "/": canonical. */
	c.root = realpath(o->root != NULL ? o->root : cfg->profile_root,
	    NULL);
	memcpy(c.key, pp.key, sizeof c.key);
	if (client_no_server(&c, query, &a))
		;
	else if (client_open(&c, 1, &why) == -1)
		a = client_open_error(&c, "runtime directory", errno, why);
	else if (rundir_secret(c.dirfd, &pp.st))
		/* A view's password file: as if it were not there. */
		a = client_error(&c, 404, 0, "%s: no such profile", c.name);
	else
		a = client_run(&c, query);
	client_close(&c);
	profpath_clear(&pp);
	free(c.root);
done:
	if (a == NULL)
		cause_set(cause, "out of memory");
	return (a);
}

/*
 * A query to the server of a key (from client_list), never starting
 * one: for `deepq status' and `deepq stop'. 404 when none runs.
 */
struct answer *
client_query_key(const struct config *cfg, const struct client_options *o,
    const char *key, const char *query, char **cause)
{
	struct client_options	 opts;
	struct client		 c;
	struct answer		*a;
	char			*why = NULL;

	client_options_init(&opts);
	if (o != NULL)
		opts = *o;
	opts.nospawn = 1;
	memset(&c, 0, sizeof c);
	c.cfg = cfg;
	c.opts = &opts;
	c.start = rundir_now();
	c.dirfd = c.lockfd = c.alivefd = c.replyfd = -1;
	c.serverlen = -1;
	c.format = answer_guess_format(query);
	c.name = opts.name != NULL ? opts.name : key;
	c.rctx.link_base = "?";
	c.rctx.file = c.name;
	if (!proto_hex_valid(key, PROTO_KEY_LEN))
		a = client_error(&c, 400, 0, "bad server key");
	else {
		memcpy(c.key, key, sizeof c.key);
		if (client_open(&c, 0, &why) == -1) {
			if (errno == ENOENT)
				a = client_error(&c, 404, 0, "no such server");
			else
				a = client_open_error(&c, "runtime directory", errno, why);
		} else
			a = client_run(&c, query);
		client_close(&c);
	}
	if (a == NULL)
		cause_set(cause, "out of memory");
	return (a);
}

/*
 * The servers running in the runtime directory: every KEY.alive whose
 * lock is held, with the pid and path the server wrote into it.
 */
int
client_list(const struct config *cfg, struct client_server **list,
    size_t *n, char **cause)
{
	struct client_server	*l = NULL, *nl, *s;
	struct dirent		*de;
	DIR			*d;
	char			 key[PROTO_KEY_LEN + 1], kind[16];
	char			 id[PROTO_ID_LEN + 1], buf[4200], *nlp;
	char			 fifo[PROTO_NAME_MAX], *rundir, *why = NULL;
	ssize_t			 len;
	int			 dirfd, fd;

	*list = NULL;
	*n = 0;
	if ((rundir = conf_runtime_dir(cfg, cause)) == NULL)
		return (-1);
	if ((dirfd = rundir_open(rundir, 0, &why)) == -1) {
		free(rundir);
		if (errno == ENOENT) {
			free(why);
			return (0);
		}
		cause_set(cause, "%s", why ? why : "?");
		free(why);
		return (-1);
	}
	free(rundir);
	if ((d = fdopendir(dirfd)) == NULL) {
		cause_set(cause, "runtime directory: %s", strerror(errno));
		close(dirfd);
		return (-1);
	}
	while ((de = readdir(d)) != NULL) {
		if (proto_name_parse(de->d_name, key, kind, sizeof kind,
		    id) == -1 || strcmp(kind, PROTO_ALIVE) != 0)
			continue;
		if ((fd = rundir_file(dirfd, de->d_name, 0, NULL)) == -1)
			continue;
		if (rundir_locked(fd) != 1 ||
		    (len = pread(fd, buf, sizeof buf - 1, 0)) <= 0) {
			close(fd);
			continue;
		}
		close(fd);
		buf[len] = '\0';
		if ((nl = reallocarray(l, *n + 1, sizeof *l)) == NULL) {
			client_list_free(l, *n);
			closedir(d);
			cause_set(cause, "out of memory");
			return (-1);
		}
		l = nl;
		s = &l[(*n)++];
		memset(s, 0, sizeof *s);
		memcpy(s->key, key, sizeof s->key);
		s->pid = (pid_t)strtol(buf, &nlp, 10);
		if (*nlp == '\n')
			nlp++;
		nlp[strcspn(nlp, "\n")] = '\0';
		s->path = strdup(nlp);
		proto_name(fifo, sizeof fifo, key, PROTO_FIFO, NULL);
		s->serving = rundir_fifo_check(dirfd, fifo, NULL) == 1;
	}
	closedir(d);
	*list = l;
	return (0);
}

/* Free a client_list() result. */
void
client_list_free(struct client_server *l, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		free(l[i].path);
	free(l);
}

/*
 * Is pid a deepq-server? The pid comes from a liveness file whose lock is
 * held, but a server writes it just after taking the lock: never signal
 * whatever process reused a previous server's pid.
 */
static int
client_is_server(pid_t pid)
{
	char	 path[64], buf[4096];
	ssize_t	 n;
	int	 fd;

	snprintf(path, sizeof path, "/proc/%ld/cmdline", (long)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return (0);
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return (0);
	buf[n] = '\0';		/* argv[0] is the first string */
	return (strstr(buf, "deepq-server") != NULL);
}

/*
 * Stop the server of a key: cmd=shutdown if it serves, SIGTERM (to the
 * pid it recorded while holding its lock) if it still loads; then wait
 * up to timeout_ms for its liveness lock to go. 1 stopped, 0 none was
 * running, -1 with *cause.
 */
int
client_stop(const struct config *cfg, const char *key, int timeout_ms,
    char **cause)
{
	struct answer	*a;
	char		 name[PROTO_NAME_MAX], buf[64], *rundir, *why = NULL;
	long long	 end;
	ssize_t		 len;
	pid_t		 pid;
	int		 dirfd, fd, r = -1;

	if (proto_name(name, sizeof name, key, PROTO_ALIVE, NULL) == -1) {
		cause_set(cause, "bad server key");
		return (-1);
	}
	if ((rundir = conf_runtime_dir(cfg, cause)) == NULL)
		return (-1);
	dirfd = rundir_open(rundir, 0, &why);
	free(rundir);
	if (dirfd == -1) {
		if (errno == ENOENT) {
			free(why);
			return (0);
		}
		cause_set(cause, "%s", why ? why : "?");
		free(why);
		return (-1);
	}
	if ((fd = rundir_file(dirfd, name, 0, NULL)) == -1 ||
	    rundir_locked(fd) != 1) {
		r = 0;
		goto done;
	}
	a = client_query_key(cfg, NULL, key, "cmd=shutdown&format=json",
	    cause);
	if (a == NULL)
		goto done;
	if (a->status == 503 && (len = pread(fd, buf, sizeof buf - 1,
	    0)) > 0) {
		/* Still loading: it has no FIFO to hear us on. */
		buf[len] = '\0';
		if ((pid = (pid_t)strtol(buf, NULL, 10)) > 1 &&
		    rundir_locked(fd) == 1 && client_is_server(pid))
			(void)kill(pid, SIGTERM);
	} else if (a->status != 200 && a->status != 404) {
		cause_set(cause, "%d: %s", a->status, a->message ?
		    a->message : "shutdown refused");
		answer_free(a);
		goto done;
	}
	answer_free(a);
	end = rundir_now() + timeout_ms;
	while (rundir_locked(fd) == 1) {
		if (rundir_now() >= end) {
			cause_set(cause, "the server is still running after "
			    "%d ms", timeout_ms);
			goto done;
		}
		(void)poll(NULL, 0, 10);
	}
	r = 1;
done:
	if (fd != -1)
		close(fd);
	close(dirfd);
	return (r);
}
