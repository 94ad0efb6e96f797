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
#include <sys/stat.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>
#include <stdint.h>

#include "answer.h"
#include "client.h"
#include "conf.h"
#include "deepq.h"
#include "beside.h"
#include "catalog.h"
#include "front.h"
#include "gzip.h"
#include "outbuf.h"
#include "profpath.h"
#include "profindex.h"
#include "query.h"
#include "render.h"

/*
 * deepq-web: `deepq web', an embedded web server (libmicrohttpd) for browsing the
 * profiles under a directory with no web server installed. It plays the
 * web server's and the CGI's part in one process: requests are checked
 * by cgi/front.c and asked of the same per-file deepq-server processes
 * through the same client code as deepq.cgi, so a CGI user and a web user
 * share servers and get the same answers. `/' alone (or cmd=index, the
 * pages' link to it) is the index of profiles; `/?file=NAME&...' is the
 * CGI's query interface; `/static/NAME' serves www/.
 *
 * MHD runs a thread per connection: a query may wait on a server that is
 * still loading and must not hold up the others. The client code keeps
 * no global state (every file it makes has a random id, every lock its
 * own open file), so the threads share only the read-only configuration.
 */

#if MHD_VERSION < 0x00097002
typedef int MHD_Result_compat;
#define MHD_Result_t	MHD_Result_compat
#else
#define MHD_Result_t	enum MHD_Result
#endif

#define WEB_LISTEN		"127.0.0.1:8080"
#define WEB_STATIC		"/static/"
#define WEB_MAX_CONNECTIONS	128
#define WEB_TIMEOUT		120	/* seconds a connection may idle */
#define WEB_MAX_BODY		4096	/* bytes of a POST body we read */
#define WEB_MAX_PROFILES	10000	/* index entries, unless configured */
#define WEB_DRAIN_MS		5000	/* requests may finish at SIGINT */

#define WEB_MAX_HOSTS		16	/* --host names */

struct web {
	struct config	*cfg;
	char		*root;		/* canonical profile directory */
	char		*www;		/* static assets, NULL none */
	/*
	 * The Host: names it answers to: its listen address (any address
	 * when it listens on all), "localhost" on loopback, and --host.
	 */
	char		 addr[INET6_ADDRSTRLEN];	/* numeric, no port */
	int		 any;		/* listening on 0.0.0.0 or :: */
	int		 loopback;
	const char	*hosts[WEB_MAX_HOSTS];
	size_t		 nhosts;
	struct profindex *index;	/* `/': its listing, kept */
	pthread_mutex_t	 index_lock;	/* one request at a time uses it */
};

/* One request: its raw query string, as a CGI would get it. */
struct web_request {
	char		*query;
	int		 started;
	size_t		 body;		/* POST bytes seen (discarded) */
};

/* Set at SIGINT once the drain is over: waiting clients give up. */
static volatile sig_atomic_t	web_cancel;
/*
 * Requests under way (from their URI to their completion): what a stop
 * waits for. Not MHD's connection count, which holds a browser's idle
 * keep-alive connections too, so that an idle deepq web took seconds
 * to exit.
 */
static int			web_active;

static void	*web_uri(void *, const char *, struct MHD_Connection *);
static MHD_Result_t web_handler(void *, struct MHD_Connection *,
		    const char *, const char *, const char *, const char *,
		    size_t *, void **);
static void	web_completed(void *, struct MHD_Connection *, void **,
		    enum MHD_RequestTerminationCode);
static void	web_header(void *, const char *, const char *);
static MHD_Result_t web_send(struct MHD_Connection *, const struct answer *,
		    int);
static MHD_Result_t web_fail_file(struct MHD_Connection *, enum catalog_fmt,
		    int, const char *, int, const char *);
static MHD_Result_t web_fail(struct MHD_Connection *, enum catalog_fmt, int,
		    const char *, int);
static MHD_Result_t web_static(struct web *, struct MHD_Connection *,
		    const char *);
static MHD_Result_t web_index(struct web *, struct MHD_Connection *,
		    const struct query *);
static int	web_host_ok(const struct web *, const char *);
static void	web_usage(void) __attribute__((__noreturn__));
struct web_args;
static void	web_args(int, char **, struct web *, struct web_args *);
static void	web_setup(struct web *, const struct web_args *);
static struct addrinfo *web_listen_addr(struct web *, const char *, char **,
		    char **);
static struct MHD_Daemon *web_start(struct web *, const struct addrinfo *,
		    const char *, const char *);
static void	web_wait_stop(struct MHD_Daemon *, const sigset_t *);

/* MHD's first sight of a request: keep the query string undecoded. */
static void *
web_uri(void *arg, const char *uri, struct MHD_Connection *c)
{
	struct web_request	*req;
	const char		*q;

	if ((req = calloc(1, sizeof *req)) == NULL)
		return (NULL);
	__atomic_add_fetch(&web_active, 1, __ATOMIC_SEQ_CST);
	q = uri != NULL ? strchr(uri, '?') : NULL;
	if ((req->query = strdup(q != NULL ? q + 1 : "")) == NULL) {
		free(req);
		return (NULL);
	}
	return (req);
}

static void
web_completed(void *arg, struct MHD_Connection *c, void **state,
    enum MHD_RequestTerminationCode toe)
{
	struct web_request	*req = *state;

	if (req != NULL) {
		free(req->query);
		free(req);
		__atomic_sub_fetch(&web_active, 1, __ATOMIC_SEQ_CST);
	}
	*state = NULL;
}

static void
web_header(void *arg, const char *name, const char *value)
{
	MHD_add_response_header(arg, name, value);
}

/*
 * A response of len bytes of body, gzip-compressed when the client
 * accepts it and the type is worth it (*gz set then). NULL if out of
 * memory.
 */
static struct MHD_Response *
web_response(struct MHD_Connection *c, const char *type, const char *body,
    size_t len, int *gz)
{
	char			*z;
	size_t			 zlen;

	*gz = 0;
	if (body != NULL && gzip_compressible(type, len) &&
	    gzip_wanted(MHD_lookup_connection_value(c, MHD_HEADER_KIND,
	    MHD_HTTP_HEADER_ACCEPT_ENCODING)) &&
	    (z = gzip_body(body, len, &zlen)) != NULL) {
		*gz = 1;
		return (MHD_create_response_from_buffer(zlen, z,
		    MHD_RESPMEM_MUST_FREE));
	}
	return (MHD_create_response_from_buffer(len, (void *)(uintptr_t)body,
	    MHD_RESPMEM_MUST_COPY));
}

/* Send an answer with the headers deepq.cgi sends (cgi/front.c). */
static MHD_Result_t
web_send(struct MHD_Connection *c, const struct answer *a, int allow_post)
{
	struct MHD_Response	*r;
	MHD_Result_t		 ret;
	int			 gz;

	if ((r = web_response(c, a->content_type, a->body, a->len, &gz)) ==
	    NULL)
		return (MHD_NO);
	front_headers(a, allow_post, web_header, r);
	if (gz)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_ENCODING,
		    "gzip");
	ret = MHD_queue_response(c, a->status, r);
	MHD_destroy_response(r);
	return (ret);
}

/* An error of our own in a format; the message is escaped by the renderer. */
static MHD_Result_t
web_fail(struct MHD_Connection *c, enum catalog_fmt format, int status,
    const char *message, int allow_post)
{
	return (web_fail_file(c, format, status, message, allow_post, NULL));
}

/* The same, with the header links of profile file (NULL: none). */
static MHD_Result_t
web_fail_file(struct MHD_Connection *c, enum catalog_fmt format, int status,
    const char *message, int allow_post, const char *file)
{
	/* From "/" on: a 404 for any other path still links home. */
	struct render_context	 rctx = { "/?", WEB_STATIC, NULL };
	struct answer		*a;
	MHD_Result_t		 ret;

	if (status >= 500)
		fprintf(stderr, "deepq web: %d %s\n", status, message);
	rctx.file = file;
	if ((a = answer_error(format, status, message, &rctx)) == NULL)
		return (MHD_NO);
	ret = web_send(c, a, allow_post);
	answer_free(a);
	return (ret);
}

/*
 * Is Host: a name this server answers to? A page of another site whose
 * name an attacker points at 127.0.0.1 (DNS rebinding) reaches us with
 * its own name in Host:, never with our address: so an address is
 * accepted (ours; any, when we listen on all), a name only if it is
 * "localhost" (on loopback) or given with --host. No Host: (HTTP/1.0)
 * is no browser's.
 */
static int
web_host_ok(const struct web *w, const char *host)
{
	struct in6_addr	 a6;
	struct in_addr	 a4;
	char		 name[256], *e;
	size_t		 n, i;

	if (host == NULL)
		return (1);
	if (*host == '[') {
		if ((e = strchr(host, ']')) == NULL ||
		    (n = (size_t)(e - host - 1)) >= sizeof name ||
		    (e[1] != '\0' && e[1] != ':'))
			return (0);
		memcpy(name, host + 1, n);
		name[n] = '\0';
		if (inet_pton(AF_INET6, name, &a6) != 1)
			return (0);
		return (w->any || strcmp(name, w->addr) == 0);
	}
	n = strcspn(host, ":");
	if (n >= sizeof name || n == 0)
		return (0);
	memcpy(name, host, n);
	name[n] = '\0';
	if (n > 1 && name[n - 1] == '.')
		name[--n] = '\0';
	if (inet_pton(AF_INET, name, &a4) == 1)
		return (w->any || strcmp(name, w->addr) == 0);
	if (w->loopback && strcasecmp(name, "localhost") == 0)
		return (1);
	for (i = 0; i < w->nhosts; i++) {
		if (strcasecmp(name, w->hosts[i]) == 0)
			return (1);
	}
	return (0);
}

/*
 * A static file's answer: validators (an ETag of its modification time
 * and size, Last-Modified) and a lifetime, so a browser keeps deepq.css
 * and the scripts an hour and then asks again with If-None-Match,
 * answered 304 when the file is the same.
 */
static MHD_Result_t
web_static_send(struct MHD_Connection *c, const char *type, const char *buf,
    size_t len, const struct stat *st)
{
	struct MHD_Response	*r;
	MHD_Result_t		 ret;
	const char		*inm;
	char			 etag[64], date[64];
	struct tm		 tm;
	int			 gz = 0, status = 200;

	snprintf(etag, sizeof etag, "\"%llx-%llx-%llx\"",
	    (unsigned long long)st->st_mtim.tv_sec,
	    (unsigned long long)st->st_mtim.tv_nsec,
	    (unsigned long long)st->st_size);
	date[0] = '\0';
	if (gmtime_r(&st->st_mtim.tv_sec, &tm) != NULL)
		strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S GMT", &tm);
	inm = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
	    MHD_HTTP_HEADER_IF_NONE_MATCH);
	if (inm != NULL && strstr(inm, etag) != NULL) {
		status = MHD_HTTP_NOT_MODIFIED;
		r = MHD_create_response_from_buffer(0, NULL,
		    MHD_RESPMEM_PERSISTENT);
	} else
		r = web_response(c, type, buf, len, &gz);
	if (r == NULL)
		return (MHD_NO);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	MHD_add_response_header(r, "X-Content-Type-Options", RENDER_NOSNIFF);
	MHD_add_response_header(r, MHD_HTTP_HEADER_ETAG, etag);
	if (date[0] != '\0')
		MHD_add_response_header(r, MHD_HTTP_HEADER_LAST_MODIFIED, date);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL,
	    "public, max-age=3600");
	MHD_add_response_header(r, MHD_HTTP_HEADER_VARY, "Accept-Encoding");
	if (gz)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_ENCODING,
		    "gzip");
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return (ret);
}

/* /static/NAME: a flat file of www/, by a name of safe characters only. */
static MHD_Result_t
web_static(struct web *w, struct MHD_Connection *c, const char *name)
{
	static const struct { const char *ext, *type; } types[] = {
		{ ".css", "text/css; charset=utf-8" },
		{ ".js", "text/javascript; charset=utf-8" },
		{ ".svg", "image/svg+xml" },
		{ ".png", "image/png" },
	};
	struct answer	 a;
	const char	*dot;
	char		 path[PATH_MAX], *buf;
	struct stat	 st;
	size_t		 i;
	ssize_t		 n;
	int		 fd;
	MHD_Result_t	 ret;

	memset(&a, 0, sizeof a);
	if (*name == '\0' || name[0] == '.' ||
	    name[strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789._-")] !=
	    '\0' || (dot = strrchr(name, '.')) == NULL)
		return (web_fail(c, FMT_HTML, 404, "not found", 0));
	for (i = 0; i < sizeof types / sizeof types[0]; i++) {
		if (strcmp(dot, types[i].ext) == 0)
			a.content_type = types[i].type;
	}
	if (a.content_type == NULL || w->www == NULL ||
	    snprintf(path, sizeof path, "%s/%s", w->www, name) >=
	    (int)sizeof path)
		return (web_fail(c, FMT_HTML, 404, "not found", 0));
	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) == -1)
		return (web_fail(c, FMT_HTML, 404, "not found", 0));
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode) ||
	    st.st_size > 4 * 1024 * 1024 ||
	    (buf = malloc(st.st_size + 1)) == NULL) {
		close(fd);
		return (web_fail(c, FMT_HTML, 404, "not found", 0));
	}
	n = read(fd, buf, st.st_size);
	close(fd);
	if (n != st.st_size) {
		free(buf);
		return (web_fail(c, FMT_HTML, 500, "read error", 0));
	}
	ret = web_static_send(c, a.content_type, buf, n, &st);
	free(buf);
	return (ret);
}

/*
 * `/': the profiles under the root (common/profindex.c, the listing
 * deepq.cgi answers too), in the format asked for.
 */
static MHD_Result_t
web_index(struct web *w, struct MHD_Connection *c, const struct query *q)
{
	struct render_context	 rctx = { "?", WEB_STATIC, NULL };
	struct answer		*a;
	char			*cause = NULL;
	MHD_Result_t		 ret;

	pthread_mutex_lock(&w->index_lock);
	a = profindex_answer(w->index, w->cfg, q, &rctx, &cause);
	pthread_mutex_unlock(&w->index_lock);
	if (a == NULL) {
		ret = web_fail(c, q->format, 500, cause ?
		    cause : "out of memory", 0);
		free(cause);
		return (ret);
	}
	ret = web_send(c, a, 0);
	answer_free(a);
	return (ret);
}

static MHD_Result_t
web_handler(void *arg, struct MHD_Connection *c, const char *url,
    const char *method, const char *version, const char *upload,
    size_t *upload_size, void **state)
{
	struct web		*w = arg;
	struct web_request	*req = *state;
	struct client_options	 opts;
	struct front_request	 fr;
	struct front_verdict	 v;
	struct answer		*a;
	char			*cause = NULL;
	MHD_Result_t		 ret;

	if (req == NULL)
		return (MHD_NO);
	/* A POST body (the shutdown form's) is read and ignored, bounded. */
	if (!req->started) {
		req->started = 1;
		if (strcmp(method, MHD_HTTP_METHOD_POST) == 0)
			return (MHD_YES);
	}
	if (*upload_size > 0) {
		req->body += *upload_size;
		*upload_size = 0;
		return (req->body > WEB_MAX_BODY ? MHD_NO : MHD_YES);
	}
	if (!web_host_ok(w, MHD_lookup_connection_value(c, MHD_HEADER_KIND,
	    MHD_HTTP_HEADER_HOST)))
		return (web_fail(c, FMT_HTML, 421, "this server does not answer "
		    "for that host name (deepq web --host NAME adds one)", 0));

	if (strncmp(url, WEB_STATIC, strlen(WEB_STATIC)) == 0 &&
	    (strcmp(method, MHD_HTTP_METHOD_GET) == 0 ||
	    strcmp(method, MHD_HTTP_METHOD_HEAD) == 0))
		return (web_static(w, c, url + strlen(WEB_STATIC)));

	/* The rest is the CGI's interface, refused as the CGI refuses. */
	memset(&fr, 0, sizeof fr);
	fr.method = method;
	fr.query = req->query;
	fr.path_info = strcmp(url, "/") == 0 ? NULL : url;
#define H(name)	MHD_lookup_connection_value(c, MHD_HEADER_KIND, (name))
	fr.accept = H(MHD_HTTP_HEADER_ACCEPT);
	fr.host = H(MHD_HTTP_HEADER_HOST);
	fr.origin = H("Origin");
	fr.sec_fetch_site = H("Sec-Fetch-Site");
	fr.sec_purpose = H("Sec-Purpose");
	fr.purpose = H("Purpose");
	fr.x_moz = H("X-Moz");
#undef H
	if (front_check(w->cfg, &fr, FRONT_FILE_OPTIONAL, &v) != 0) {
		ret = web_fail_file(c, v.format, v.status, v.message ?
		    v.message : "out of memory", v.allow_post, v.file);
		front_verdict_free(&v);
		return (ret);
	}
	if (*v.query->file == '\0' || front_is_index(v.query)) {
		ret = web_index(w, c, v.query);
		front_verdict_free(&v);
		return (ret);
	}

	client_options_init(&opts);
	opts.root = w->root;
	opts.static_base = WEB_STATIC;
	opts.cancel = &web_cancel;
	if ((a = client_query_with(w->cfg, &opts, v.query->file, v.qs,
	    &cause)) == NULL) {
		ret = web_fail(c, v.format, 500, cause ? cause :
		    "out of memory", 0);
		free(cause);
		front_verdict_free(&v);
		return (ret);
	}
	if (a->status >= 500)
		fprintf(stderr, "deepq web: %d %s\n", a->status,
		    a->message ? a->message : "");
	ret = web_send(c, a, 0);
	answer_free(a);
	front_verdict_free(&v);
	return (ret);
}

/* Print the usage (deepq(1): deepq web) and exit 1. */
static void
web_usage(void)
{
	fprintf(stderr, "usage: deepq %s\n", DEEPQ_WEB_USAGE);
	exit(1);
}

/* The command line: what --source named, and deepq web's settings. */
struct web_args {
	const char	*listen, *www, *dir;
	char		*sources[16];
	size_t		 nsources;
};

static void
web_args(int argc, char **argv, struct web *w, struct web_args *a)
{
	static const struct option longopts[] = {
		{ "host", required_argument, NULL, 'h' },
		{ "listen", required_argument, NULL, 'l' },
		{ "source", required_argument, NULL, 's' },
		{ "www", required_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 }
	};
	int	 ch;

	memset(a, 0, sizeof *a);
	a->listen = WEB_LISTEN;
	while ((ch = getopt_long(argc, argv, "h:l:s:w:", longopts, NULL)) !=
	    -1) {
		switch (ch) {
		case 'h':
			if (w->nhosts == WEB_MAX_HOSTS)
				errx(1, "--host: at most %d names",
				    WEB_MAX_HOSTS);
			w->hosts[w->nhosts++] = optarg;
			break;
		case 'l':
			a->listen = optarg;
			break;
		case 's':
			if (a->nsources == sizeof a->sources /
			    sizeof a->sources[0])
				errx(1, "--source: at most %zu", a->nsources);
			a->sources[a->nsources++] = optarg;
			break;
		case 'w':
			a->www = optarg;
			break;
		default:
			web_usage();
		}
	}
	if (argc - optind != 1)
		web_usage();
	a->dir = argv[optind];
}

/* The profile directory, configuration, index, servers and assets. */
static void
web_setup(struct web *w, const struct web_args *a)
{
	char	*cause = NULL, *p;
	size_t	 i;

	if ((w->root = realpath(a->dir, NULL)) == NULL)
		err(1, "%s", a->dir);
	if ((w->cfg = conf_load(NULL, &cause)) == NULL)
		errx(1, "%s", cause ? cause : "out of memory");
	if ((w->index = profindex_create(w->root, w->cfg->index_entries > 0 ?
	    (size_t)w->cfg->index_entries : WEB_MAX_PROFILES, 0,
	    &cause)) == NULL)
		errx(1, "%s", cause);
	pthread_mutex_init(&w->index_lock, NULL);
	/*
	 * The servers we start get them (client-spawn.c): cmd=source
	 * reads there, beneath each, and nowhere else.
	 */
	for (i = 0; i < a->nsources; i++) {
		if (conf_add_source_root(w->cfg, a->sources[i], &cause) == -1)
			errx(1, "--source %s", cause);
	}
	/*
	 * Run from a build tree, use its server and assets unless
	 * deepq.conf names others: `sh setup.sh demo' installs nothing.
	 */
	if (beside_server(w->cfg, &cause) == -1)
		errx(1, "%s", cause);
	if (a->www != NULL) {
		if ((w->www = realpath(a->www, NULL)) == NULL)
			err(1, "%s", a->www);
	} else if ((w->www = beside_path("www/deepq.css")) != NULL ||
	    (w->www = beside_path("../www/deepq.css")) != NULL) {
		/* In-tree or VPATH (make distcheck's _build/sub) tree. */
		if ((p = strrchr(w->www, '/')) != NULL)
			*p = '\0';
	} else if ((w->www = strdup(DEEPQ_WWWDIR)) == NULL)
		err(1, NULL);
}

/*
 * --listen's address:port or [v6]:port, numeric only (no name lookup):
 * its address info, and *host (to free: *hostbuf) as written.
 */
static struct addrinfo *
web_listen_addr(struct web *w, const char *listen, char **hostbuf,
    char **hostp)
{
	struct addrinfo	 hints, *ai;
	char		*host, *port;
	int		 e;

	if ((host = *hostbuf = strdup(listen)) == NULL)
		err(1, NULL);
	if (*host == '[') {
		host++;
		if ((port = strstr(host, "]:")) == NULL)
			errx(1, "--listen %s: expected [address]:port", listen);
		*port = '\0';
		port += 2;
	} else if ((port = strrchr(host, ':')) == NULL)
		errx(1, "--listen %s: expected address:port", listen);
	else
		*port++ = '\0';
	memset(&hints, 0, sizeof hints);
	hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
	hints.ai_socktype = SOCK_STREAM;
	if ((e = getaddrinfo(host, port, &hints, &ai)) != 0)
		errx(1, "--listen %s: %s", listen, gai_strerror(e));
	/* Its own spelling of the address, as inet_pton reads a Host:. */
	if (getnameinfo(ai->ai_addr, ai->ai_addrlen, w->addr, sizeof w->addr,
	    NULL, 0, NI_NUMERICHOST) != 0)
		errx(1, "--listen %s: cannot print the address", listen);
	w->any = strcmp(w->addr, "0.0.0.0") == 0 || strcmp(w->addr, "::") == 0;
	w->loopback = strncmp(w->addr, "127.", 4) == 0 ||
	    strcmp(w->addr, "::1") == 0;
	*hostp = host;
	return (ai);
}

/* Start answering on ai and say where. */
static struct MHD_Daemon *
web_start(struct web *w, const struct addrinfo *ai, const char *listen,
    const char *host)
{
	const union MHD_DaemonInfo *info;
	struct MHD_Daemon	*mhd;
	unsigned int		 bound;

	mhd = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD |
	    MHD_USE_THREAD_PER_CONNECTION | MHD_USE_ITC | MHD_USE_ERROR_LOG |
	    (ai->ai_family == AF_INET6 ? MHD_USE_IPv6 : 0),
	    0, NULL, NULL, web_handler, w,
	    MHD_OPTION_SOCK_ADDR, ai->ai_addr,
	    MHD_OPTION_CONNECTION_LIMIT, (unsigned int)WEB_MAX_CONNECTIONS,
	    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)WEB_TIMEOUT,
	    MHD_OPTION_URI_LOG_CALLBACK, web_uri, NULL,
	    MHD_OPTION_NOTIFY_COMPLETED, web_completed, NULL,
	    MHD_OPTION_END);
	if (mhd == NULL)
		errx(1, "cannot listen on %s", listen);
	bound = (info = MHD_get_daemon_info(mhd,
	    MHD_DAEMON_INFO_BIND_PORT)) != NULL ? info->port : 0;
	if (ai->ai_family == AF_INET6)
		printf("deepq web: serving %s at http://[%s]:%u/\n", w->root,
		    host, bound);
	else
		printf("deepq web: serving %s at http://%s:%u/\n", w->root,
		    host, bound);
	fflush(stdout);
	if (strcmp(host, "127.0.0.1") != 0 && strcmp(host, "::1") != 0)
		fprintf(stderr, "deepq web: warning: %s is not loopback; "
		    "anyone who can reach it can read the profiles\n", host);
	return (mhd);
}

/*
 * Wait for a stop signal, then stop gracefully: stop accepting, let the
 * requests under way finish for a while (a second signal cuts it
 * short), then make those still waiting on a server give up and stop.
 */
static void
web_wait_stop(struct MHD_Daemon *mhd, const sigset_t *set)
{
	struct timespec	 slice = { 0, 100 * 1000 * 1000 };
	int		 e, sig, waited;

	do
		sig = sigwaitinfo(set, NULL);
	while (sig == -1 && errno == EINTR);

	fprintf(stderr, "deepq web: stopping\n");
	if ((e = MHD_quiesce_daemon(mhd)) != -1)
		close(e);
	if ((e = __atomic_load_n(&web_active, __ATOMIC_SEQ_CST)) > 0)
		fprintf(stderr, "deepq web: waiting for %d request%s under "
		    "way\n", e, e == 1 ? "" : "s");
	for (waited = 0; waited < WEB_DRAIN_MS; waited += 100) {
		if (__atomic_load_n(&web_active, __ATOMIC_SEQ_CST) == 0 ||
		    sigtimedwait(set, NULL, &slice) != -1)
			break;
	}
	web_cancel = 1;
	MHD_stop_daemon(mhd);
}

/*
 * deepq-web [--listen address:port] [--www dir] dir: run by deepq web
 * (cli/cmd-web.c), which gives it argv[0] "deepq web" for its messages.
 */
int
main(int argc, char **argv)
{
	struct web_args		 a;
	struct web		 w;
	struct addrinfo		*ai;
	struct MHD_Daemon	*mhd;
	sigset_t		 set;
	char			*host, *hostbuf;

	memset(&w, 0, sizeof w);
	web_args(argc, argv, &w, &a);
	web_setup(&w, &a);
	ai = web_listen_addr(&w, a.listen, &hostbuf, &host);

	/*
	 * Only this thread takes the stop signals (the threads MHD starts
	 * inherit the mask); servers are started with an empty mask.
	 */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);

	mhd = web_start(&w, ai, a.listen, host);
	web_wait_stop(mhd, &set);
	freeaddrinfo(ai);
	free(hostbuf);
	profindex_free(w.index);
	pthread_mutex_destroy(&w.index_lock);
	conf_free(w.cfg);
	free(w.root);
	free(w.www);
	return (0);
}
