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

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "cgi.h"
#include "client.h"
#include "conf.h"
#include "query.h"
#include "render.h"

/*
 * deepq.cgi: a short straight-line program (RFC 3875). Read the
 * request's environment, validate it, hand the query to the profile's
 * server through the rendezvous (common/client.c, which starts the
 * server when needed and never loads profile data here), and relay the
 * answer. Details of errors go to stderr, the web server's error log.
 */

static volatile sig_atomic_t	cgi_cancel;

static void	cgi_signal(int);
static int	cgi_fail(const char *, int, const char *, const char *,
		    int, int);

/*
 * A web server's SIGTERM (client gone, timeout) must not leave our want
 * file or reply FIFO behind: ask the client code to give up, which it
 * notices within one poll slice and cleans up (reliability I2).
 */
static void
cgi_signal(int sig)
{
	cgi_cancel = 1;
}

/* Answer an error of our own; the message is escaped by the renderer. */
static int
cgi_fail(const char *format, int status, const char *message,
    const char *static_base, int head, int allow_post)
{
	struct render_context	 rctx = { "?", static_base, NULL };
	struct answer		*a;
	int			 r;

	if (status >= 500)
		fprintf(stderr, "deepq.cgi: %d %s\n", status, message);
	if ((a = answer_error(format, status, message, &rctx)) == NULL) {
		fputs("Status: 500 Internal Server Error\n"
		    "Content-Type: text/plain; charset=utf-8\n\n"
		    "out of memory\n", stdout);
		return (1);
	}
	r = cgi_reply(a, head, allow_post);
	answer_free(a);
	return (r == 0 ? 0 : 1);
}

int
main(int argc, char **argv)
{
	struct client_options	 opts;
	struct sigaction	 sa;
	struct config		*cfg;
	struct query		*q;
	struct answer		*a;
	const char		*method, *qs, *pi, *format, *why, *sb;
	char			*cause = NULL;
	int			 head, post, status, r;

	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	sa.sa_handler = cgi_signal;	/* no SA_RESTART: interrupt waits */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	/* Parameters come only from QUERY_STRING, never argv (A2). */
	if ((qs = getenv("QUERY_STRING")) == NULL)
		qs = "";
	format = answer_guess_format(qs);
	if ((cfg = conf_load(NULL, &cause)) == NULL) {
		fprintf(stderr, "deepq.cgi: %s\n", cause ? cause :
		    "out of memory");
		return (cgi_fail(format, 500, "server configuration error",
		    NULL, 0, 0));
	}
	sb = cfg->static_url[0] != '\0' ? cfg->static_url : NULL;

	if ((method = getenv("REQUEST_METHOD")) == NULL)
		method = "GET";
	head = strcmp(method, "HEAD") == 0;
	post = strcmp(method, "POST") == 0;
	q = NULL;
	if (!head && !post && strcmp(method, "GET") != 0) {
		r = cgi_fail(format, 405, "method not allowed", sb, 0, 0);
		goto done;
	}
	if ((pi = getenv("PATH_INFO")) != NULL && *pi != '\0') {
		r = cgi_fail(format, 404, "not found", sb, head, 0);
		goto done;
	}
	if (strlen(qs) > cfg->max_query) {
		r = cgi_fail(format, 414, "query string too long", sb, head, 0);
		goto done;
	}

	/* Validate the whole query here: a bad one starts no server. */
	if ((q = query_parse(qs, &status, &cause)) == NULL) {
		r = cgi_fail(format, status, cause ? cause : "bad query", sb,
		    head, 0);
		free(cause);
		goto done;
	}
	if (strcmp(query_str(q, QUERY_CMD), "shutdown") == 0) {
		/*
		 * State-changing: GET works for curl, POST for the pages'
		 * form; neither from another site or a prefetch (A5).
		 */
		if (cgi_foreign(&why)) {
			r = cgi_fail(format, 403, why, sb, head, 1);
			goto done;
		}
	} else if (post) {
		r = cgi_fail(format, 405, "POST is only for cmd=shutdown", sb,
		    0, 0);
		goto done;
	}
	if (!query_isset(q, QUERY_FILE)) {
		r = cgi_fail(format, 400, "file= is required", sb, head, 0);
		goto done;
	}

	client_options_init(&opts);
	opts.cancel = &cgi_cancel;
	if ((a = client_query_with(cfg, &opts, query_str(q, QUERY_FILE), qs,
	    &cause)) == NULL) {
		r = cgi_fail(format, 500, cause ? cause : "out of memory", sb,
		    head, 0);
		free(cause);
		goto done;
	}
	if (a->status >= 500)
		fprintf(stderr, "deepq.cgi: %d %s\n", a->status,
		    a->message ? a->message : "");
	r = cgi_reply(a, head, 0) == 0 ? 0 : 1;
	answer_free(a);
done:
	query_free(q);
	conf_free(cfg);
	return (r);
}
