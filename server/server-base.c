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
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "cause.h"
#include "child.h"
#include "input.h"
#include "profile.h"
#include "profpath.h"
#include "proto.h"
#include "reader.h"
#include "reader-view.h"
#include "rundir.h"
#include "server.h"
#include "testhook.h"

/*
 * base=: the profiles this server compares its own with. A name is
 * resolved under the root the client sent with the request, exactly as
 * the client resolved file= (profpath_resolve: no absolute name, no
 * `..', nothing outside the root, a regular file), so the same 403 and
 * 404 answers come back and nothing outside the root is ever opened.
 *
 * At most SERVER_BASES profiles are kept, by identity (device, inode),
 * the least recently used one evicted; one whose size or mtime changed
 * is loaded again. A base is loaded by a loader process that reads it
 * and writes it to the processed-profile cache, then mapped from there
 * (cache_load) as the server's own profile is: the server waits for it
 * at most as long as a client waits for an answer, and a loader still
 * running then keeps going (up to load_timeout) while the client is told
 * to retry. A loader is the server's child, one per slot at most: it
 * dies with the server (child_tie) and with its slot (killed when the
 * slot is dropped), and a slot still loading is never evicted for
 * another base; with every slot loading, a new base is refused 503
 * "busy". So cycling base= over many slow files runs SERVER_BASES
 * loaders at most, never one per request. Without a cache directory,
 * and for formats the cache cannot hold, the base is read in this
 * process: that blocks the other clients for the length of the load
 * (deepq-server(8)).
 */

#define SERVER_BASE_READY	'R'	/* the cache file is written */
#define SERVER_BASE_INPROC	'N'	/* the cache cannot hold it */
#define SERVER_BASE_ERROR	'E'	/* followed by the message */

static void	 server_base_drop(struct server_base *);
static int	 server_base_fresh(const struct server_base *,
		    const struct stat *);
static int	 server_base_spawn(struct server *, struct server_base *,
		    const char *, const char *, const struct stat *, char **);
static int	 server_base_wait(struct server *, struct server_base *,
		    const char *, const struct stat *, int *, char **);
static const struct profile *server_base_get(void *, const char *, int *,
		    char **);
static struct server_base *server_base_slot(struct server *,
		    const struct stat *, const char *, const char *, int *,
		    char **);

/* Forget a slot, and kill its loader: nobody will read what it makes. */
static void
server_base_drop(struct server_base *b)
{
	profile_free(b->profile);
	if (b->loadfd != -1)
		close(b->loadfd);
	if (b->loader > 0) {
		(void)kill(b->loader, SIGKILL);
		while (waitpid(b->loader, NULL, 0) == -1 && errno == EINTR)
			;
	}
	memset(b, 0, sizeof *b);
	b->loadfd = -1;
}

/* A child reaped (server.c): 1 if it was a loader, now forgotten. */
int
server_base_reaped(struct server *s, pid_t pid, int status)
{
	size_t	 i;

	for (i = 0; i < SERVER_BASES; i++) {
		if (s->bases[i].loader != pid)
			continue;
		if (WIFSIGNALED(status))
			log_warnx("base loader of %s killed by signal %d",
			    s->bases[i].name, WTERMSIG(status));
		s->bases[i].loader = 0;
		return (1);
	}
	return (0);
}

/* The loaders running (cmd=status). */
size_t
server_base_loaders(const struct server *s)
{
	size_t	 i, n = 0;

	for (i = 0; i < SERVER_BASES; i++)
		n += s->bases[i].loader > 0;
	return (n);
}

/* Is the slot the file as it is now? */
static int
server_base_fresh(const struct server_base *b, const struct stat *st)
{
	return (b->dev == st->st_dev && b->ino == st->st_ino &&
	    b->size == st->st_size &&
	    b->mtime.tv_sec == st->st_mtim.tv_sec &&
	    b->mtime.tv_nsec == st->st_mtim.tv_nsec);
}

/*
 * The input of the profile at path (absolute, canonical), opened with no
 * symbolic link on the way and checked to be (dev, ino) if ino is not 0
 * (profpath_open_checked), then read through that very descriptor: a
 * directory swapped for a link after the client looked makes the open
 * fail, never another file's bytes come in. Its stat in *st.
 */
struct input *
server_input(const char *path, dev_t dev, ino_t ino, struct stat *st,
    char **cause)
{
	struct input	*in;
	char		 proc[64], *why = NULL;
	int		 fd;

	if ((fd = profpath_open_checked(path, dev, ino, st, cause)) == -1)
		return (NULL);
	/* The descriptor's own file again, not a path looked up anew. */
	snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
	in = input_open(proc, &why);
	close(fd);
	if (in == NULL) {
		cause_set(cause, "%s: cannot read it again (is /proc "
		    "mounted?)", path);
		free(why);
		return (NULL);
	}
	in->path = path;
	return (in);
}

/*
 * Start a loader for path into slot b: a child holding none of our
 * rendezvous fds (so it is no server and keeps no lock), tied to us,
 * bounded by load_timeout in time and CPU, that writes the cache file
 * and says how it went on a pipe. Returns the pipe's read end.
 */
static int
server_base_spawn(struct server *s, struct server_base *b, const char *path,
    const char *cpath, const struct stat *st, char **cause)
{
	struct sigaction	 sa;
	struct profile		*p = NULL;
	struct input		*in;
	struct stat		 pst;
	sigset_t		 set;
	char			*why = NULL, c;
	pid_t			 pid, server = getpid();
	int			 fd[2];

	if (pipe2(fd, O_CLOEXEC) == -1) {
		cause_set(cause, "pipe: %s", strerror(errno));
		return (-1);
	}
	if ((pid = fork()) == -1) {
		cause_set(cause, "fork: %s", strerror(errno));
		close(fd[0]);
		close(fd[1]);
		return (-1);
	}
	if (pid != 0) {
		close(fd[1]);
		b->loader = pid;
		return (fd[0]);
	}
	close(fd[0]);
	if (child_tie(server) == -1)
		_exit(1);
	server_forget_rendezvous(s);
	server_title("deepq-server: base loader");
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = SIG_DFL;
	sigaction(SIGALRM, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	sigemptyset(&set);
	sigprocmask(SIG_SETMASK, &set, NULL);
	alarm(s->load_timeout);
	child_limit_cpu((unsigned int)s->load_timeout);
	testhook_pause("base-loader");
	if ((in = server_input(path, st->st_dev, st->st_ino, &pst,
	    &why)) == NULL || (p = reader_load_input(in, NULL, NULL,
	    &why)) == NULL) {
		c = SERVER_BASE_ERROR;
		if (write(fd[1], &c, 1) == -1 || (why != NULL &&
		    write(fd[1], why, strlen(why)) == -1))
			(void)0;	/* the server gave up waiting */
		_exit(1);
	}
	if (p->source == NULL)
		p->source = strdup(path);
	if (p->extra != NULL)
		c = SERVER_BASE_INPROC;
	else if (cache_write(p, NULL, cpath, st, &why) == -1) {
		c = SERVER_BASE_ERROR;
		if (write(fd[1], &c, 1) == -1 || (why != NULL &&
		    write(fd[1], why, strlen(why)) == -1))
			(void)0;
		_exit(1);
	} else
		c = SERVER_BASE_READY;
	if (write(fd[1], &c, 1) == -1)
		(void)0;
	_exit(0);
}

/*
 * Wait for slot b's loader until the client's own deadline. 1: loaded
 * (b->profile set), 0: still loading, -1: failed (*status, *cause).
 */
static int
server_base_wait(struct server *s, struct server_base *b, const char *path,
    const struct stat *st, int *status, char **cause)
{
	struct pollfd	 pfd;
	long long	 left;
	char		 buf[1024], *why = NULL;
	ssize_t		 n;
	size_t		 len = 0;

	pfd.fd = b->loadfd;
	pfd.events = POLLIN;
	for (;;) {
		left = b->waitend - rundir_now();
		if (left <= 0)
			return (0);
		if (poll(&pfd, 1, left > 1000 ? 1000 : (int)left) == 1)
			break;
	}
	while (len < sizeof buf - 1 && (n = read(b->loadfd, buf + len,
	    sizeof buf - 1 - len)) > 0)
		len += n;
	buf[len] = '\0';
	close(b->loadfd);
	b->loadfd = -1;
	if (len > 0 && buf[0] == SERVER_BASE_READY &&
	    (b->profile = cache_load(b->cpath, st, &why)) != NULL)
		return (1);
	if (len > 0 && buf[0] == SERVER_BASE_INPROC) {
		/* A format the cache cannot hold: read it here. */
		if ((b->profile = reader_load(path, NULL, NULL, &why)) != NULL)
			return (1);
	}
	*status = 422;
	if (reader_view_unavailable(why) ||
	    (len > 1 && reader_view_unavailable(buf + 1)))
		*status = 503;
	if (why != NULL) {
		*cause = why;
		return (-1);
	}
	if (len > 1 && buf[0] == SERVER_BASE_ERROR)
		cause_set(cause, "%s", buf + 1);
	else
		cause_set(cause, "the loader exited (load_timeout is %d s)",
		    s->load_timeout);
	return (-1);
}

/*
 * The answer_context base_load of a request whose client resolved
 * file= under root (see the top of this file). Its messages go to the
 * client: no absolute path in them (a loader's cause starts with the
 * base's), only names under the root.
 */
const struct profile *
server_base_load(void *arg, const char *name, int *status, char **cause)
{
	struct server_request	*rq = arg;
	const struct profile	*p;
	char			*slash;

	if ((p = server_base_get(arg, name, status, cause)) == NULL &&
	    rq->root != NULL && *rq->root == '/' && strcmp(rq->root, "/") !=
	    0) {
		if (asprintf(&slash, "%s/", rq->root) != -1) {
			cause_replace(cause, slash, "");
			free(slash);
		}
		cause_replace(cause, rq->root, "the profile root");
	}
	return (p);
}

/*
 * The slot of the base st (name, key): its own if kept and unchanged,
 * else the least recently used one not loading, emptied for it. NULL
 * with 503 when every slot is loading: no loader more, none killed.
 */
static struct server_base *
server_base_slot(struct server *s, const struct stat *st, const char *name,
    const char *key, int *status, char **cause)
{
	struct server_base	*b = NULL, *lru = NULL;
	size_t			 i;

	s->base_tick++;
	for (i = 0; i < SERVER_BASES; i++) {
		if (s->bases[i].used != 0 && s->bases[i].dev == st->st_dev &&
		    s->bases[i].ino == st->st_ino)
			b = &s->bases[i];
		else if (s->bases[i].loader == 0 && (lru == NULL ||
		    s->bases[i].used < lru->used))
			lru = &s->bases[i];
	}
	if (b == NULL && lru == NULL) {
		*status = 503;
		cause_set(cause, "busy: %d comparison profiles are loading, "
		    "retry", SERVER_BASES);
		return (NULL);
	}
	if (b != NULL && (!server_base_fresh(b, st) ||
	    reader_view_stale(b->profile, NULL) != NULL)) {
		log_info("base %s changed: loading it again", name);
		server_base_drop(b);
	}
	if (b == NULL || b->used == 0) {
		if (b == NULL) {
			b = lru;
			if (b->used != 0)
				log_info("base cache full: dropping %s",
				    b->name);
			server_base_drop(b);
		}
		b->dev = st->st_dev;
		b->ino = st->st_ino;
		b->size = st->st_size;
		b->mtime = st->st_mtim;
		snprintf(b->name, sizeof b->name, "%s", name);
		if (s->cache_dir != NULL)
			snprintf(b->cpath, sizeof b->cpath, "%s/%s.cache",
			    s->cache_dir, key);
	}
	return (b);
}

/* server_base_load's work. */
static const struct profile *
server_base_get(void *arg, const char *name, int *status, char **cause)
{
	struct server_request	*rq = arg;
	struct server		*s = rq->server;
	struct server_base	*b;
	struct profpath		 pp;
	struct input		*in;
	struct stat		 st, pst;
	int			 r, fd;

	if (rq->root == NULL || *rq->root == '\0') {
		*status = 400;
		cause_set(cause, "no profile root came with the request");
		return (NULL);
	}
	if (profpath_resolve(rq->root, name, &pp, status, cause) == -1)
		return (NULL);
	/* A view's password file: as if it were not there (rundir.c). */
	if (rundir_secret(s->dirfd, &pp.st)) {
		*status = 404;
		cause_set(cause, "%s: no such profile", name);
		profpath_clear(&pp);
		return (NULL);
	}
	/* What the server reads must be what profpath_resolve opened. */
	if ((fd = profpath_open_checked(pp.path, pp.dev, pp.ino, &st,
	    NULL)) == -1) {
		*status = 404;
		cause_set(cause, "%s: no such profile", name);
		profpath_clear(&pp);
		return (NULL);
	}
	close(fd);
	if (strcmp(pp.key, s->key) == 0) {
		/* Ourselves: no second copy. */
		profpath_clear(&pp);
		return (s->profile);
	}
	if ((b = server_base_slot(s, &st, name, pp.key, status,
	    cause)) == NULL) {
		profpath_clear(&pp);
		return (NULL);
	}
	b->used = s->base_tick;
	if (b->profile != NULL) {
		profpath_clear(&pp);
		return (b->profile);
	}
	r = -1;
	if (s->cache_dir == NULL || reader_view_file(pp.path)) {
		/*
		 * No cache to load through, or a view, which the cache
		 * cannot hold: read it here (blocks).
		 */
		if ((in = server_input(pp.path, pp.dev, pp.ino, &st,
		    cause)) == NULL)
			*status = 404;
		else if ((b->profile = reader_load_input(in, NULL, NULL,
		    cause)) == NULL)
			*status = reader_view_unavailable(*cause) ? 503 : 422;
		else {
			if (b->profile->source == NULL)
				b->profile->source = strdup(pp.path);
			if (reader_view_secret(b->profile, &pst))
				(void)rundir_secret_mark(s->dirfd, &pst);
			r = 1;
		}
		input_free(in);
	} else if ((b->profile = cache_load(b->cpath, &st, NULL)) != NULL)
		r = 1;
	else {
		if (b->loadfd == -1 && (b->loadfd = server_base_spawn(s, b,
		    pp.path, b->cpath, &st, cause)) == -1)
			*status = 500;
		else {
			b->waitend = rundir_now() +
			    (long long)s->base_wait * 1000;
			r = server_base_wait(s, b, pp.path, &st, status,
			    cause);
		}
	}
	profpath_clear(&pp);
	if (r == 1 && b->loadfd != -1) {
		close(b->loadfd);
		b->loadfd = -1;
	}
	if (r == 1) {
		if (b->profile->source == NULL)
			b->profile->source = strdup(b->name);
		log_info("base %s loaded", b->name);
		return (b->profile);
	}
	if (r == 0) {
		*status = 503;
		cause_set(cause, "%s is still loading, retry", name);
		return (NULL);
	}
	server_base_drop(b);
	return (NULL);
}

/* No bases yet. */
void
server_base_init(struct server *s)
{
	size_t	 i;

	memset(s->bases, 0, sizeof s->bases);
	for (i = 0; i < SERVER_BASES; i++)
		s->bases[i].loadfd = -1;
}

/* Free every base (at exit). */
void
server_base_free(struct server *s)
{
	size_t	 i;

	for (i = 0; i < SERVER_BASES; i++)
		server_base_drop(&s->bases[i]);
}
