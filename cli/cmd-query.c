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

#include <err.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "answer.h"
#include "client.h"
#include "conf.h"
#include "deepq.h"
#include "profile.h"
#include "profpath.h"
#include "reader.h"

/*
 * deepq query: answer one query and print the body (deepq(1)). By default
 * through the file's deepq-server, started if needed, exactly as the CGI
 * does, with the file's own directory as the profile root; --local (or
 * --reader) loads the file in this process instead.
 */

static struct answer	*query_server(const char *, const char *);

/* The answer of the file's server; exits on a local error. */
static struct answer *
query_server(const char *file, const char *qs)
{
	struct client_options	 opts;
	struct sigaction	 sa, old;
	struct config		*cfg;
	struct answer		*a;
	char			*cause = NULL, *root, *base;

	if ((cfg = conf_load(NULL, &cause)) == NULL)
		errx(1, "%s", cause ? cause : "out of memory");
	if (profpath_split(file, &root, &base, &cause) == -1)
		errx(1, "%s", cause);
	client_options_init(&opts);
	opts.root = root;
	opts.name = file;
	/* No web server's timeout to beat here: wait for the load. */
	opts.load_wait = cfg->load_timeout;
	/* A server dying under a write must not kill us (client.h). */
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, &old);
	if ((a = client_query_with(cfg, &opts, base, qs, &cause)) == NULL)
		errx(1, "%s", cause ? cause : "out of memory");
	sigaction(SIGPIPE, &old, NULL);
	free(root);
	free(base);
	conf_free(cfg);
	return (a);
}

/*
 * deepq query [--local] [--reader name] [--static-base url] FILE QUERY:
 * answer one query and print the body.
 */
int
cmd_query(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "local", no_argument, NULL, 'l' },
		{ "reader", required_argument, NULL, 'r' },
		{ "static-base", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 }
	};
	struct answer_context	 ctx;
	struct profile		*p = NULL;
	struct answer		*a;
	const char		*reader = NULL, *qs, *static_base = NULL;
	char			*cause = NULL;
	int			 ch, rc, local = 0;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "lr:s:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'l':
			local = 1;
			break;
		case 'r':
			reader = optarg;
			local = 1;
			break;
		case 's':
			/* Where pages find deepq.css and deepq.js (www/). */
			static_base = optarg;
			break;
		default:
			deepq_usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1 || argc > 2)
		deepq_usage();
	qs = argc == 2 ? argv[1] : "";

	if (!local)
		a = query_server(argv[0], qs);
	else {
		if ((p = reader_load(argv[0], reader, NULL, &cause)) == NULL)
			errx(1, "%s", cause ? cause : "out of memory");
		memset(&ctx, 0, sizeof ctx);
		ctx.render.link_base = "?";
		ctx.render.file = argv[0];
		ctx.render.static_base = static_base;
		ctx.report.name = argv[0];
		if ((a = answer_query(p, qs, &ctx)) == NULL)
			errx(1, "out of memory");
	}
	rc = a->status >= 200 && a->status < 300 ? 0 : 1;
	/* An answer made without memory for its body has none. */
	if ((rc == 0 || strcmp(answer_guess_format(qs), "json") == 0) &&
	    a->body != NULL)
		fwrite(a->body, 1, a->len, stdout);
	if (rc != 0)
		warnx("%d: %s", a->status, a->message ? a->message : "error");
	answer_free(a);
	profile_free(p);
	/* ferror too: stdio may have dropped output it had no buffer for. */
	if (fflush(stdout) != 0 || ferror(stdout))
		err(1, "stdout");
	return (rc);
}

