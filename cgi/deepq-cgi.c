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
#include <sys/socket.h>
#include <sys/uio.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "answer.h"
#include "cause.h"
#include "cgi.h"
#include "client.h"
#include "conf.h"
#include "fastcgi.h"
#include "front.h"
#include "gzip.h"
#include "profindex.h"
#include "query.h"
#include "render.h"

/*
 * deepq.cgi: a short straight-line program (RFC 3875). Read the
 * request's environment, validate it, hand the query to the profile's
 * server through the rendezvous (common/client.c, which starts the
 * server when needed and never loads profile data here), and relay the
 * answer. Details of errors go to stderr, the web server's error log.
 *
 * Started by a FastCGI web server (stdin a listening socket), it is the
 * same program in a loop: each request's parameters come from its
 * FastCGI records instead of the environment and the response goes
 * back in FCGI_STDOUT records (fastcgi.c); the request path,
 * cgi_request, is the one the CGI runs once.
 */

/* Where a request's fields come from: getenv, or FastCGI's params. */
typedef const char	*(*cgi_get)(void *, const char *);

static volatile sig_atomic_t	cgi_cancel;

static void	cgi_signal(int);
static void	cgi_log(const char *);
static int	cgi_fail(enum catalog_fmt, int, const char *,
		    const struct render_context *, int, int, int, cgi_out,
		    void *);
static char	*cgi_link_base(cgi_get, void *);
static int	cgi_request(const char *, cgi_get, void *, cgi_out, void *);
static const char *cgi_env(void *, const char *);
static int	cgi_stdout(void *, struct iovec *, int);
static const char *cgi_fcgi_param(void *, const char *);
static void	cgi_fcgi_request(struct fcgi_request *, void *);
static int	cgi_fastcgi(int);

/*
 * A web server's SIGTERM (client gone, timeout) must not leave our want
 * file or reply FIFO behind: ask the client code to give up, which it
 * notices within one poll slice and cleans up (T15 in tests/SCENARIOS).
 * Under FastCGI the same signal is the web server stopping us: the
 * request under way is cancelled (a 503), then the loop ends.
 */
static void
cgi_signal(int sig)
{
	cgi_cancel = 1;
}

static const char *
cgi_env(void *arg, const char *name)
{
	return (getenv(name));
}

/* The CGI's output: stdout, which the web server reads. */
static int
cgi_stdout(void *arg, struct iovec *iov, int iovcnt)
{
	return (cgi_writev(STDOUT_FILENO, iov, iovcnt, &cgi_cancel, -1));
}

/* Answer an error of our own; the message is escaped by the renderer. */
static int
cgi_fail(enum catalog_fmt format, int status, const char *message,
    const struct render_context *rctx, int head, int allow_post, int gz,
    cgi_out out, void *arg)
{
	static char		 oom[] = "Status: 500 Internal Server Error\n"
				    "Content-Type: text/plain; charset=utf-8\n\n"
				    "out of memory\n";
	struct answer		*a;
	struct iovec		 iov;
	int			 r;

	if (status >= 500)
		fprintf(stderr, "deepq.cgi: %d %s\n", status, message);
	if ((a = answer_error(format, status, message, rctx)) == NULL) {
		iov.iov_base = oom;
		iov.iov_len = sizeof oom - 1;
		(void)out(arg, &iov, 1);
		return (1);
	}
	r = cgi_reply(a, head, allow_post, gz, out, arg);
	answer_free(a);
	return (r == 0 ? 0 : 1);
}

/*
 * What the links of our own pages (errors, the index) start with: "?",
 * as the servers' pages, except on the 404 for an extra path
 * (deepq.cgi/x), where "?" would lead to that path again: there the
 * program's path (SCRIPT_NAME) and "?". NULL if out of memory.
 */
static char *
cgi_link_base(cgi_get get, void *arg)
{
	const char	*sn = get(arg, "SCRIPT_NAME");
	const char	*pi = get(arg, "PATH_INFO");
	char		*b;

	if (pi == NULL || *pi == '\0' || sn == NULL || sn[0] != '/' ||
	    strlen(sn) > 1024 || strpbrk(sn, "?#") != NULL)
		return (strdup("?"));
	if (asprintf(&b, "%s?", sn) == -1)
		return (NULL);
	return (b);
}

/*
 * The profile index of cfg's profile_root (*x NULL when deepq.conf asks
 * for none), kept from one FastCGI request to the next while the root
 * and index_entries stay the same (profindex.c keeps its listing in the
 * runtime directory too, for the plain CGI's next process). -1 with
 * *cause if out of memory.
 */
static int
cgi_index_get(const struct config *cfg, struct profindex **x, char **cause)
{
	static struct profindex	*index;
	static char		*root;
	static int		 max;

	*x = NULL;
	if (cfg->index_entries == 0 || *cfg->profile_root == '\0')
		return (0);
	if (index != NULL && max == cfg->index_entries &&
	    strcmp(root, cfg->profile_root) == 0) {
		*x = index;
		return (0);
	}
	profindex_free(index);
	free(root);
	index = NULL;
	if ((root = strdup(cfg->profile_root)) == NULL ||
	    (index = profindex_create(root, cfg->index_entries, 1,
	    cause)) == NULL) {
		free(root);
		root = NULL;
		cause_set(cause, "out of memory");
		return (-1);
	}
	max = cfg->index_entries;
	*x = index;
	return (0);
}

/*
 * One request: its fields from get (with arg), its response to out
 * (with oarg), the configuration from conf (NULL: DEEPQ_CONFIG in our
 * environment, else the built-in path). 0 if answered, 1 if even the
 * error could not be sent.
 *
 * The configuration is loaded for each request, under FastCGI too: a
 * few hundred bytes read and parsed (tens of microseconds, against the
 * rendezvous' hundreds), and an edited deepq.conf takes effect at the
 * next request exactly as under CGI, with no stat-and-reload logic to
 * miss a change within one timestamp tick.
 */
static int
cgi_request(const char *conf, cgi_get get, void *arg, cgi_out out,
    void *oarg)
{
	struct client_options	 opts;
	struct front_request	 req;
	struct front_verdict	 v;
	struct render_context	 rctx = { "?", NULL, NULL };
	struct config		*cfg;
	struct profindex	*index;
	struct answer		*a;
	const char		*qs;
	char			*cause = NULL, *lb;
	int			 r, gz;

	gz = gzip_wanted(get(arg, "HTTP_ACCEPT_ENCODING"));
	/*
	 * Parameters come only from QUERY_STRING, never argv: some web
	 * servers pass an ISINDEX query without '=' as arguments.
	 */
	if ((qs = get(arg, "QUERY_STRING")) == NULL)
		qs = "";
	if ((lb = cgi_link_base(get, arg)) != NULL)
		rctx.link_base = lb;
	if ((cfg = conf_load(conf, &cause)) == NULL) {
		fprintf(stderr, "deepq.cgi: %s\n", cause ? cause :
		    "out of memory");
		free(cause);
		r = cgi_fail(answer_guess_format(qs), 500,
		    "server configuration error", &rctx, 0, 0, gz, out, oarg);
		free(lb);
		return (r);
	}
	rctx.static_base = cfg->static_url[0] != '\0' ? cfg->static_url :
	    NULL;

	/* Validate the whole request here: a bad one starts no server. */
	memset(&req, 0, sizeof req);
	req.method = get(arg, "REQUEST_METHOD");
	req.query = qs;
	req.path_info = get(arg, "PATH_INFO");
	req.accept = get(arg, "HTTP_ACCEPT");
	req.host = get(arg, "HTTP_HOST");
	req.origin = get(arg, "HTTP_ORIGIN");
	req.sec_fetch_site = get(arg, "HTTP_SEC_FETCH_SITE");
	req.sec_purpose = get(arg, "HTTP_SEC_PURPOSE");
	req.purpose = get(arg, "HTTP_PURPOSE");
	req.x_moz = get(arg, "HTTP_X_MOZ");
	if (front_check(cfg, &req, 0, &v) != 0) {
		/* The profile's header links, when its name is valid. */
		rctx.file = v.file;
		r = cgi_fail(v.format, v.status, v.message ? v.message :
		    "out of memory", &rctx, v.head, v.allow_post, gz, out, oarg);
		goto done;
	}
	/* The profile index is ours to answer: no server for it. */
	if (front_is_index(v.query)) {
		if (cgi_index_get(cfg, &index, &cause) == -1 ||
		    (a = profindex_answer(index, cfg, v.query, &rctx,
		    &cause)) == NULL) {
			r = cgi_fail(v.format, 500, cause ? cause :
			    "out of memory", &rctx, v.head, 0, gz, out, oarg);
			free(cause);
			goto done;
		}
		r = cgi_reply(a, v.head, 0, gz, out, oarg) == 0 ? 0 : 1;
		answer_free(a);
		goto done;
	}

	client_options_init(&opts);
	opts.cancel = &cgi_cancel;
	opts.log = cgi_log;
	if ((a = client_query_with(cfg, &opts, v.query->file, v.qs,
	    &cause)) == NULL) {
		r = cgi_fail(v.format, 500, cause ? cause : "out of memory",
		    &rctx, v.head, 0, gz, out, oarg);
		free(cause);
		goto done;
	}
	if (a->status >= 500)
		fprintf(stderr, "deepq.cgi: %d %s\n", a->status,
		    a->message ? a->message : "");
	r = cgi_reply(a, v.head, 0, gz, out, oarg) == 0 ? 0 : 1;
	answer_free(a);
done:
	front_verdict_free(&v);
	conf_free(cfg);
	free(lb);
	return (r);
}

/* What the client leaves out of an answer: the web server's error log. */
static void
cgi_log(const char *msg)
{
	fprintf(stderr, "deepq.cgi: %s\n", msg);
}

static const char *
cgi_fcgi_param(void *arg, const char *name)
{
	return (fcgi_param(arg, name));
}

/*
 * A FastCGI request: the CGI's request path, fed from its records. A
 * DEEPQ_CONFIG parameter, set by the web server's configuration (a
 * client's headers only make HTTP_ names), names the configuration as
 * it does for a CGI through fcgiwrap; else our own environment does.
 */
static void
cgi_fcgi_request(struct fcgi_request *r, void *arg)
{
	const char	*conf;

	if ((conf = fcgi_param(r, "DEEPQ_CONFIG")) != NULL && *conf == '\0')
		conf = NULL;
	(void)cgi_request(conf, cgi_fcgi_param, r, fcgi_stdout, r);
}

/*
 * The FastCGI loop: accept a connection on the listening socket, serve
 * it to its end, close it, until a signal. One connection at a time; the
 * web server runs more processes for more (lighttpd's max-procs). A bad
 * connection is logged and closed, never the end of the loop. Waits are
 * polls of FCGI_SLICE_MS, so that a signal between two looks at
 * cgi_cancel delays the exit by one slice at most.
 */
static int
cgi_fastcgi(int lfd)
{
	struct pollfd	 pfd;
	char		*cause;
	int		 fd;

	while (!cgi_cancel) {
		pfd.fd = lfd;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, FCGI_SLICE_MS) <= 0)
			continue;
		if ((fd = accept(lfd, NULL, NULL)) == -1) {
			if (errno == EMFILE || errno == ENFILE) {
				/* Let a connection close first. */
				(void)poll(NULL, 0, 100);
			} else if (errno != EINTR && errno != EAGAIN &&
			    errno != EWOULDBLOCK && errno != ECONNABORTED) {
				fprintf(stderr, "deepq.cgi: accept: %s\n",
				    strerror(errno));
				(void)poll(NULL, 0, 100);
			}
			continue;
		}
		/* Not for the deepq-server we may start (client-spawn). */
		(void)fcntl(fd, F_SETFD, FD_CLOEXEC);
		if (fcgi_serve(fd, lfd, cgi_fcgi_request, NULL, &cgi_cancel,
		    &cause) == -1 && !cgi_cancel)
			fprintf(stderr, "deepq.cgi: FastCGI connection: %s\n",
			    cause != NULL ? cause : "error");
		free(cause);
		close(fd);
	}
	return (0);
}

int
main(int argc, char **argv)
{
	struct sigaction	 sa;

	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	sa.sa_handler = cgi_signal;	/* no SA_RESTART: interrupt waits */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	if (fcgi_is_listener(FCGI_LISTENSOCK_FILENO))
		return (cgi_fastcgi(FCGI_LISTENSOCK_FILENO));
	return (cgi_request(NULL, cgi_env, NULL, cgi_stdout, NULL));
}
