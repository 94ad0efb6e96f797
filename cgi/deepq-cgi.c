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
#include "front.h"
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
	r = cgi_reply(a, head, allow_post, &cgi_cancel);
	answer_free(a);
	return (r == 0 ? 0 : 1);
}

int
main(int argc, char **argv)
{
	struct client_options	 opts;
	struct sigaction	 sa;
	struct front_request	 req;
	struct front_verdict	 v;
	struct config		*cfg;
	struct answer		*a;
	const char		*qs, *sb;
	char			*cause = NULL;
	int			 r;

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
	if ((cfg = conf_load(NULL, &cause)) == NULL) {
		fprintf(stderr, "deepq.cgi: %s\n", cause ? cause :
		    "out of memory");
		return (cgi_fail(answer_guess_format(qs), 500,
		    "server configuration error", NULL, 0, 0));
	}
	sb = cfg->static_url[0] != '\0' ? cfg->static_url : NULL;

	/* Validate the whole request here: a bad one starts no server. */
	memset(&req, 0, sizeof req);
	req.method = getenv("REQUEST_METHOD");
	req.query = qs;
	req.path_info = getenv("PATH_INFO");
	req.accept = getenv("HTTP_ACCEPT");
	req.host = getenv("HTTP_HOST");
	req.origin = getenv("HTTP_ORIGIN");
	req.sec_fetch_site = getenv("HTTP_SEC_FETCH_SITE");
	req.sec_purpose = getenv("HTTP_SEC_PURPOSE");
	req.purpose = getenv("HTTP_PURPOSE");
	req.x_moz = getenv("HTTP_X_MOZ");
	if (front_check(cfg, &req, 0, &v) != 0) {
		r = cgi_fail(v.format, v.status, v.message ? v.message :
		    "out of memory", sb, v.head, v.allow_post);
		goto done;
	}

	client_options_init(&opts);
	opts.cancel = &cgi_cancel;
	if ((a = client_query_with(cfg, &opts, query_str(v.query, QUERY_FILE),
	    v.qs, &cause)) == NULL) {
		r = cgi_fail(v.format, 500, cause ? cause : "out of memory", sb,
		    v.head, 0);
		free(cause);
		goto done;
	}
	if (a->status >= 500)
		fprintf(stderr, "deepq.cgi: %d %s\n", a->status,
		    a->message ? a->message : "");
	r = cgi_reply(a, v.head, 0, &cgi_cancel) == 0 ? 0 : 1;
	answer_free(a);
done:
	front_verdict_free(&v);
	conf_free(cfg);
	return (r);
}
