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
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "answer.h"
#include "answer-query.h"
#include "client.h"
#include "conf.h"
#include "deepq.h"
#include "profile.h"
#include "profile-index.h"
#include "profpath.h"
#include "reader.h"
#include "report.h"

/*
 * deepq query: answer one query and print the body (deepq(1)). By default
 * through the file's deepq-server, started if needed, exactly as the CGI
 * does, with the file's own directory as the profile root; --local (or
 * --reader) loads the file in this process instead.
 */

struct query_base {
	char		*root;		/* the file's directory, canonical */
	char		*name;
	struct profile	*profile;
};

static struct answer	*query_server(const char *, const char *);
static const struct profile *query_base_load(void *, const char *, int *,
			    char **);
static int		 query_gate(const struct answer *, double);
static int		 query_growth(const json_t *, double, const char *);

/*
 * base= for --local: resolved as deepq-server resolves it, under the
 * file's own directory (the root deepq query gives its server); an
 * absolute name is accepted when it lies under that directory.
 */
static const struct profile *
query_base_load(void *arg, const char *name, int *status, char **cause)
{
	struct query_base	*qb = arg;
	struct profpath		 pp;
	const char		*rel = name;
	char			*abs = NULL;
	size_t			 n = strlen(qb->root);

	if (qb->profile != NULL && strcmp(qb->name, name) == 0)
		return (qb->profile);
	if (*name == '/' && (abs = realpath(name, NULL)) != NULL &&
	    strncmp(abs, qb->root, n) == 0 && abs[n] == '/')
		rel = abs + n + 1;
	if (profpath_resolve(qb->root, rel, &pp, status, cause) == -1) {
		free(abs);
		return (NULL);
	}
	free(abs);
	profile_free(qb->profile);
	free(qb->name);
	qb->name = NULL;
	if ((qb->profile = reader_load(pp.path, NULL, NULL, cause)) == NULL ||
	    (qb->name = strdup(name)) == NULL) {
		*status = 422;
		profpath_clear(&pp);
		return (NULL);
	}
	profpath_clear(&pp);
	return (qb->profile);
}

/* Does a figure {"value", "base", "ratio"} grow by more than pct? */
static int
query_growth(const json_t *o, double pct, const char *what)
{
	json_int_t	 v, b;
	double		 g;

	if (!json_is_object(o))
		return (0);
	v = json_integer_value(json_object_get(o, "value"));
	b = json_integer_value(json_object_get(o, "base"));
	if (v <= b)
		return (0);
	g = b > 0 ? 100.0 * (double)(v - b) / (double)b : INFINITY;
	if (g <= pct)
		return (0);
	warnx("%s grew by %.2f%% (%lld -> %lld), more than %g%%", what, g,
	    (long long)b, (long long)v, pct);
	return (1);
}

/*
 * --fail-on-growth: 1 when the comparison's total, or the total of any
 * row the answer lists (top, modules...), grew by more than pct percent.
 */
static int
query_gate(const struct answer *a, double pct)
{
	json_t		*j, *rows, *row;
	json_error_t	 je;
	size_t		 i;
	char		*label;
	int		 grew = 0;

	if ((j = json_loadb(a->body, a->len, 0, &je)) == NULL)
		errx(1, "--fail-on-growth needs format=json");
	if (json_object_get(j, "comparison") == NULL)
		errx(1, "--fail-on-growth needs a comparison (base=)");
	grew |= query_growth(json_object_get(j, "comparison"), pct, "total");
	rows = json_object_get(j, "rows");
	json_array_foreach(rows, i, row) {
		if ((label = report_label(row)) == NULL)
			err(1, NULL);
		grew |= query_growth(json_object_get(json_object_get(row,
		    "diff"), "total"), pct, label);
		free(label);
	}
	json_decref(j);
	return (grew);
}

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
		{ "fail-on-growth", required_argument, NULL, 'g' },
		{ "local", no_argument, NULL, 'l' },
		{ "max-decompressed", required_argument, NULL, 'z' },
		{ "reader", required_argument, NULL, 'r' },
		{ "source", required_argument, NULL, 'S' },
		{ "static-base", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 }
	};
	struct answer_context	 ctx;
	struct profile		*p = NULL;
	struct answer		*a;
	const char		*reader = NULL, *qs, *static_base = NULL;
	const char		*maxdec = NULL;
	struct query_base	 qb;
	struct config		*src = NULL;
	char			*cause = NULL, *end, *bname;
	int			 ch, rc, local = 0;
	double			 gate = -1;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "g:lr:S:s:z:", longopts, NULL))
	    != -1) {
		switch (ch) {
		case 'g':
			gate = strtod(optarg, &end);
			if (end == optarg || *end != '\0' || !(gate >= 0))
				errx(1, "--fail-on-growth: not a percentage: "
				    "%s", optarg);
			break;
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
		case 'S':
			/* cmd=source's roots, in this process: --local. */
			if (src == NULL && (src = conf_create()) == NULL)
				err(1, NULL);
			if (conf_add_source_root(src, optarg, &cause) == -1)
				errx(1, "--source %s", cause);
			local = 1;
			break;
		case 'z':
			/* In this process: --local (a server has its own). */
			maxdec = optarg;
			local = 1;
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

	memset(&qb, 0, sizeof qb);
	if (!local)
		a = query_server(argv[0], qs);
	else {
		if (profpath_split(argv[0], &qb.root, &bname, &cause) == -1)
			errx(1, "%s", cause);
		free(bname);
		deepq_input_limit(maxdec);
		if ((p = reader_load(argv[0], reader, NULL, &cause)) == NULL)
			errx(1, "%s", cause ? cause : "out of memory");
		memset(&ctx, 0, sizeof ctx);
		ctx.render.link_base = "?";
		ctx.render.file = argv[0];
		ctx.render.static_base = static_base;
		ctx.report.name = argv[0];
		ctx.report.source_roots = src != NULL ? src->source_root : NULL;
		ctx.base_load = query_base_load;
		ctx.base_arg = &qb;
		/* One query: its index builds only what that query needs. */
		if ((ctx.report.index = profile_index_create(p)) == NULL ||
		    (a = answer_query(p, qs, &ctx)) == NULL)
			errx(1, "out of memory");
		profile_index_free(ctx.report.index);
	}
	rc = a->status >= 200 && a->status < 300 ? 0 : 1;
	/* An answer made without memory for its body has none. */
	if ((rc == 0 || strcmp(answer_guess_format(qs), "json") == 0) &&
	    a->body != NULL)
		fwrite(a->body, 1, a->len, stdout);
	if (rc != 0)
		warnx("%d: %s", a->status, a->message ? a->message : "error");
	/* A regression gate's own status, apart from 1 for errors. */
	else if (gate >= 0 && query_gate(a, gate))
		rc = 3;
	answer_free(a);
	conf_free(src);
	profile_free(p);
	profile_free(qb.profile);
	free(qb.name);
	free(qb.root);
	/* ferror too: stdio may have dropped output it had no buffer for. */
	if (fflush(stdout) != 0 || ferror(stdout))
		err(1, "stdout");
	return (rc);
}

