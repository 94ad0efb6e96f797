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

#include <dirent.h>
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

#include <jansson.h>
#include <microhttpd.h>

#include "answer.h"
#include "client.h"
#include "conf.h"
#include "deepq.h"
#include "beside.h"
#include "display.h"
#include "front.h"
#include "outbuf.h"
#include "profpath.h"
#include "query.h"
#include "reader.h"
#include "render.h"
#include "report.h"

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
#define WEB_MAX_PROFILES	10000	/* index entries */
#define WEB_MAX_DEPTH		8	/* index directory levels */
#define WEB_DRAIN_MS		5000	/* requests may finish at SIGINT */

struct web {
	struct config	*cfg;
	char		*root;		/* canonical profile directory */
	char		*www;		/* static assets, NULL none */
};

/* One request: its raw query string, as a CGI would get it. */
struct web_request {
	char		*query;
	int		 started;
	size_t		 body;		/* POST bytes seen (discarded) */
};

struct web_entry {
	char		*name;
	const char	*format;
	off_t		 size;
	char		 key[PROTO_KEY_LEN + 1];
	pid_t		 pid;		/* its server's, 0 none */
	int		 serving;
};

/* Set at SIGINT once the drain is over: waiting clients give up. */
static volatile sig_atomic_t	web_cancel;

static void	*web_uri(void *, const char *, struct MHD_Connection *);
static MHD_Result_t web_handler(void *, struct MHD_Connection *,
		    const char *, const char *, const char *, const char *,
		    size_t *, void **);
static void	web_completed(void *, struct MHD_Connection *, void **,
		    enum MHD_RequestTerminationCode);
static void	web_header(void *, const char *, const char *);
static MHD_Result_t web_send(struct MHD_Connection *, const struct answer *,
		    int);
static MHD_Result_t web_fail(struct MHD_Connection *, const char *, int,
		    const char *, int);
static MHD_Result_t web_static(struct web *, struct MHD_Connection *,
		    const char *);
static MHD_Result_t web_index(struct web *, struct MHD_Connection *,
		    const char *);
static void	web_scan(struct web *, const char *, int, struct web_entry **,
		    size_t *, size_t *);
static int	web_entry_cmp(const void *, const void *);

/* MHD's first sight of a request: keep the query string undecoded. */
static void *
web_uri(void *arg, const char *uri, struct MHD_Connection *c)
{
	struct web_request	*req;
	const char		*q;

	if ((req = calloc(1, sizeof *req)) == NULL)
		return (NULL);
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
	}
	*state = NULL;
}

static void
web_header(void *arg, const char *name, const char *value)
{
	MHD_add_response_header(arg, name, value);
}

/* Send an answer with the headers deepq.cgi sends (cgi/front.c). */
static MHD_Result_t
web_send(struct MHD_Connection *c, const struct answer *a, int allow_post)
{
	struct MHD_Response	*r;
	MHD_Result_t		 ret;

	r = MHD_create_response_from_buffer(a->len, a->body,
	    MHD_RESPMEM_MUST_COPY);
	if (r == NULL)
		return (MHD_NO);
	front_headers(a, allow_post, web_header, r);
	ret = MHD_queue_response(c, a->status, r);
	MHD_destroy_response(r);
	return (ret);
}

/* An error of our own in a format; the message is escaped by the renderer. */
static MHD_Result_t
web_fail(struct MHD_Connection *c, const char *format, int status,
    const char *message, int allow_post)
{
	/* From "/" on: a 404 for any other path still links home. */
	struct render_context	 rctx = { "/?", WEB_STATIC, NULL };
	struct answer		*a;
	MHD_Result_t		 ret;

	if (status >= 500)
		fprintf(stderr, "deepq web: %d %s\n", status, message);
	if ((a = answer_error(format, status, message, &rctx)) == NULL)
		return (MHD_NO);
	ret = web_send(c, a, allow_post);
	answer_free(a);
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
		return (web_fail(c, "html", 404, "not found", 0));
	for (i = 0; i < sizeof types / sizeof types[0]; i++) {
		if (strcmp(dot, types[i].ext) == 0)
			a.content_type = types[i].type;
	}
	if (a.content_type == NULL || w->www == NULL ||
	    snprintf(path, sizeof path, "%s/%s", w->www, name) >=
	    (int)sizeof path)
		return (web_fail(c, "html", 404, "not found", 0));
	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) == -1)
		return (web_fail(c, "html", 404, "not found", 0));
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode) ||
	    st.st_size > 4 * 1024 * 1024 ||
	    (buf = malloc(st.st_size + 1)) == NULL) {
		close(fd);
		return (web_fail(c, "html", 404, "not found", 0));
	}
	n = read(fd, buf, st.st_size);
	close(fd);
	if (n != st.st_size) {
		free(buf);
		return (web_fail(c, "html", 500, "read error", 0));
	}
	a.status = 200;
	a.body = buf;
	a.len = n;
	ret = web_send(c, &a, 0);
	free(buf);
	return (ret);
}

static int
web_entry_cmp(const void *a, const void *b)
{
	return (strcmp(((const struct web_entry *)a)->name,
	    ((const struct web_entry *)b)->name));
}

/*
 * Collect the profiles under the root (relative directory rel): regular
 * files a reader recognises by content. Symbolic links and hidden names
 * are left out of the list (a link may lead outside the root, where the
 * query refuses it anyway).
 */
static void
web_scan(struct web *w, const char *rel, int depth, struct web_entry **ev,
    size_t *n, size_t *cap)
{
	const struct reader	*r;
	struct web_entry	*e, *ne;
	struct dirent		*de;
	struct stat		 st;
	char			 path[PATH_MAX], name[PATH_MAX];
	DIR			*d;

	if (depth > WEB_MAX_DEPTH || snprintf(path, sizeof path, "%s%s%s",
	    w->root, *rel ? "/" : "", rel) >= (int)sizeof path)
		return;
	if ((d = opendir(path)) == NULL)
		return;
	while ((de = readdir(d)) != NULL && *n < WEB_MAX_PROFILES) {
		if (de->d_name[0] == '.')
			continue;
		if (snprintf(name, sizeof name, "%s%s%s", rel, *rel ? "/" : "",
		    de->d_name) >= (int)sizeof name ||
		    snprintf(path, sizeof path, "%s/%s", w->root, name) >=
		    (int)sizeof path || lstat(path, &st) == -1)
			continue;
		if (S_ISDIR(st.st_mode)) {
			web_scan(w, name, depth + 1, ev, n, cap);
			continue;
		}
		/* Through any compression (reader_detect_file). */
		if (!S_ISREG(st.st_mode) || (r = reader_detect_file(path)) ==
		    NULL)
			continue;
		if (*n == *cap) {
			*cap = *cap ? *cap * 2 : 64;
			if ((ne = reallocarray(*ev, *cap, sizeof *ne)) == NULL)
				break;
			*ev = ne;
		}
		e = &(*ev)[*n];
		memset(e, 0, sizeof *e);
		if ((e->name = strdup(name)) == NULL)
			continue;
		e->format = r->name;
		e->size = st.st_size;
		profpath_key(&st, e->key);
		(*n)++;
	}
	closedir(d);
}

/* `/': the profiles under the root, in the format asked for. */
static MHD_Result_t
web_index(struct web *w, struct MHD_Connection *c, const char *format)
{
	struct render_context	 rctx = { "?", WEB_STATIC, NULL };
	const struct renderer	*rd;
	struct client_server	*sv = NULL;
	struct web_entry	*ev = NULL, *e;
	struct display		*d;
	struct display_block	*t;
	struct answer		 a;
	size_t			 n = 0, cap = 0, nsv = 0, i, k, r, live = 0;
	char			*link, *size, *cause = NULL, pid[32];
	json_t			*j = NULL, *rows;
	struct outbuf		 ob;
	MHD_Result_t		 ret;

	if (strcmp(format, "html") != 0 && strcmp(format, "json") != 0 &&
	    strcmp(format, "text") != 0)
		return (web_fail(c, format, 400, "the index is html, json or "
		    "text", 0));
	rd = render_find(format);
	web_scan(w, "", 0, &ev, &n, &cap);
	if (n > 0)
		qsort(ev, n, sizeof *ev, web_entry_cmp);
	if (client_list(w->cfg, &sv, &nsv, &cause) == -1) {
		fprintf(stderr, "deepq web: servers: %s\n", cause);
		free(cause);
	}
	for (i = 0; i < n; i++) {
		for (k = 0; k < nsv; k++) {
			if (strcmp(ev[i].key, sv[k].key) == 0) {
				ev[i].pid = sv[k].pid;
				ev[i].serving = sv[k].serving;
				live++;
			}
		}
	}
	client_list_free(sv, nsv);

	j = json_pack("{s:i, s:s, s:s, s:[]}", "deepq", REPORT_VERSION,
	    "cmd", "index", "root", w->root, "profiles");
	d = display_create("Profiles");
	rows = j != NULL ? json_object_get(j, "profiles") : NULL;
	display_text(d, "%zu profiles under %s; %zu with a live server.", n,
	    w->root, live);
	t = display_table(d, 4, "profiles");
	display_head(d, t, 0, "Profile", NULL, 0);
	display_head(d, t, 1, "Format", NULL, 0);
	display_head(d, t, 2, "Bytes", NULL, DISPLAY_NUM);
	display_head(d, t, 3, "Server", NULL, 0);
	for (i = 0; i < n; i++) {
		e = &ev[i];
		if (rows != NULL)
			json_array_append_new(rows, json_pack("{s:s, s:s, s:I,"
			    " s:o}", "name", e->name, "format", e->format,
			    "size", (json_int_t)e->size, "server", e->pid == 0 ?
			    json_null() : json_pack("{s:I, s:b}", "pid",
			    (json_int_t)e->pid, "serving", e->serving)));
		r = display_row(d, t);
		link = query_urlencode(e->name);
		if (link != NULL) {
			char	*l;

			if (asprintf(&l, "file=%s", link) == -1)
				l = NULL;
			free(link);
			link = l;
		}
		display_cell(d, t, r, 0, e->name, link, 0);
		free(link);
		display_cell(d, t, r, 1, e->format, NULL, 0);
		size = display_number(e->size);
		display_cell(d, t, r, 2, size ? size : "?", NULL, DISPLAY_NUM);
		free(size);
		if (e->pid != 0) {
			snprintf(pid, sizeof pid, "%s, pid %ld", e->serving ?
			    "live" : "loading", (long)e->pid);
			display_cell(d, t, r, 3, pid, NULL, 0);
		} else
			display_cell(d, t, r, 3, "none", NULL, DISPLAY_DIM);
	}

	t = display_compare(d);
	for (i = 0; i < n; i++)
		display_link(d, t, ev[i].name, NULL);

	memset(&a, 0, sizeof a);
	a.status = 200;
	a.content_type = rd->content_type;
	outbuf_init(&ob);
	if (j == NULL || display_failed(d) ||
	    rd->render(&ob, j, d, &rctx) == -1 ||
	    (a.body = outbuf_take(&ob, &a.len)) == NULL)
		a.status = 500;
	outbuf_clear(&ob);
	json_decref(j);
	display_free(d);
	if (a.status == 200)
		ret = web_send(c, &a, 0);
	else
		ret = web_fail(c, format, 500, "out of memory", 0);
	free(a.body);
	for (i = 0; i < n; i++)
		free(ev[i].name);
	free(ev);
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
		ret = web_fail(c, v.format, v.status, v.message ? v.message :
		    "out of memory", v.allow_post);
		front_verdict_free(&v);
		return (ret);
	}
	if (!query_isset(v.query, QUERY_FILE) || front_is_index(v.query)) {
		ret = web_index(w, c, query_str(v.query, QUERY_FORMAT));
		front_verdict_free(&v);
		return (ret);
	}

	client_options_init(&opts);
	opts.root = w->root;
	opts.static_base = WEB_STATIC;
	opts.cancel = &web_cancel;
	if ((a = client_query_with(w->cfg, &opts, query_str(v.query,
	    QUERY_FILE), v.qs, &cause)) == NULL) {
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

/*
 * deepq-web [--listen address:port] [--www dir] dir: run by deepq web
 * (cli/cmd-web.c), which gives it argv[0] "deepq web" for its messages.
 */
int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "listen", required_argument, NULL, 'l' },
		{ "source", required_argument, NULL, 's' },
		{ "www", required_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 }
	};
	const union MHD_DaemonInfo *info;
	struct addrinfo		 hints, *ai;
	struct MHD_Daemon	*mhd;
	struct timespec		 slice = { 0, 100 * 1000 * 1000 };
	struct web		 w;
	const char		*listen = WEB_LISTEN, *www = NULL;
	char			*host, *port, *server, *cause = NULL, *p;
	sigset_t		 set;
	unsigned int		 bound;
	int			 ch, e, sig, waited;
	char			*sources[16];
	size_t			 nsources = 0, i;

	while ((ch = getopt_long(argc, argv, "l:s:w:", longopts, NULL)) !=
	    -1) {
		switch (ch) {
		case 'l':
			listen = optarg;
			break;
		case 's':
			if (nsources == sizeof sources / sizeof sources[0])
				errx(1, "--source: at most %zu", nsources);
			sources[nsources++] = optarg;
			break;
		case 'w':
			www = optarg;
			break;
		default:
			web_usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 1)
		web_usage();

	memset(&w, 0, sizeof w);
	if ((w.root = realpath(argv[0], NULL)) == NULL)
		err(1, "%s", argv[0]);
	if ((w.cfg = conf_load(NULL, &cause)) == NULL)
		errx(1, "%s", cause ? cause : "out of memory");
	/*
	 * The servers we start get them (client-spawn.c): cmd=source
	 * reads there, beneath each, and nowhere else.
	 */
	for (i = 0; i < nsources; i++) {
		if (conf_add_source_root(w.cfg, sources[i], &cause) == -1)
			errx(1, "--source %s", cause);
	}
	/*
	 * Run from a build tree, use its server and assets unless the
	 * configured server exists: `sh setup.sh demo' installs nothing.
	 */
	if (access(w.cfg->server_path, X_OK) == -1 &&
	    (server = beside_path("server/deepq-server")) != NULL) {
		if (conf_set(w.cfg, "server_path", server, &cause) == -1)
			errx(1, "%s", cause);
		free(server);
	}
	if (www != NULL) {
		if ((w.www = realpath(www, NULL)) == NULL)
			err(1, "%s", www);
	} else if ((w.www = beside_path("www/deepq.css")) != NULL ||
	    (w.www = beside_path("../www/deepq.css")) != NULL) {
		/* In-tree or VPATH (make distcheck's _build/sub) tree. */
		if ((p = strrchr(w.www, '/')) != NULL)
			*p = '\0';
	} else if ((w.www = strdup(DEEPQ_WWWDIR)) == NULL)
		err(1, NULL);

	/* address:port or [v6]:port; numeric only, no name lookup. */
	if ((host = strdup(listen)) == NULL)
		err(1, NULL);
	p = host;
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

	mhd = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD |
	    MHD_USE_THREAD_PER_CONNECTION | MHD_USE_ITC | MHD_USE_ERROR_LOG |
	    (ai->ai_family == AF_INET6 ? MHD_USE_IPv6 : 0),
	    0, NULL, NULL, web_handler, &w,
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
		printf("deepq web: serving %s at http://[%s]:%u/\n", w.root,
		    host, bound);
	else
		printf("deepq web: serving %s at http://%s:%u/\n", w.root,
		    host, bound);
	fflush(stdout);
	if (strcmp(host, "127.0.0.1") != 0 && strcmp(host, "::1") != 0)
		fprintf(stderr, "deepq web: warning: %s is not loopback; "
		    "anyone who can reach it can read the profiles\n", host);

	do
		sig = sigwaitinfo(&set, NULL);
	while (sig == -1 && errno == EINTR);

	/*
	 * Graceful: stop accepting, let the requests under way finish for
	 * a while (a second signal cuts it short), then make those still
	 * waiting on a server give up and stop.
	 */
	fprintf(stderr, "deepq web: stopping\n");
	if ((e = MHD_quiesce_daemon(mhd)) != -1)
		close(e);
	for (waited = 0; waited < WEB_DRAIN_MS; waited += 100) {
		info = MHD_get_daemon_info(mhd,
		    MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
		if (info == NULL || info->num_connections == 0 ||
		    sigtimedwait(&set, NULL, &slice) != -1)
			break;
	}
	web_cancel = 1;
	MHD_stop_daemon(mhd);
	freeaddrinfo(ai);
	free(p);
	conf_free(w.cfg);
	free(w.root);
	free(w.www);
	return (0);
}
