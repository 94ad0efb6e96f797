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
#include "beside.h"
#include "client.h"
#include "conf.h"
#include "deepq.h"
#include "profile.h"
#include "profile-index.h"
#include "profpath.h"
#include "query.h"
#include "reader.h"
#include "report.h"
#include "reports.h"

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

static struct answer	*query_server(const char *, const char *,
			    const char *, const char *);
static void		 query_names(const char *, const char *, char **,
			    char **, char **);
static const struct profile *query_base_load(void *, const char *, int *,
			    char **);
static int		 query_gate(const struct answer *, double);
static char		*query_gate_qs(const char *);
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
	/* Nothing in the base: no percentage says it ("inf%"). */
	if (b <= 0) {
		warnx("%s is new: %lld, none in the base", what,
		    (long long)v);
		return (1);
	}
	g = 100.0 * (double)(v - b) / (double)b;
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

/*
 * The gate's query: raw totals (normalize=0) unless the query says
 * otherwise. Comparisons are normalised by default, which scales the
 * base to this profile's total, so a total could never grow.
 */
static char *
query_gate_qs(const char *qs)
{
	const char	*s;
	char		*out;

	for (s = qs; s != NULL && *s != '\0'; s = strchr(s, '&')) {
		if (*s == '&')
			s++;
		if (strncmp(s, "normalize=", 10) == 0)
			break;
	}
	if (s != NULL && *s != '\0') {
		if ((out = strdup(qs)) == NULL)
			err(1, NULL);
		return (out);
	}
	if (asprintf(&out, "%s%snormalize=0", qs, *qs != '\0' ? "&" : "") ==
	    -1)
		err(1, NULL);
	return (out);
}

/*
 * The answer of the server of name under root; exits on a local error.
 * display is the file as the user gave it, for messages.
 */
static struct answer *
query_server(const char *root, const char *name, const char *display,
    const char *qs)
{
	struct client_options	 opts;
	struct sigaction	 sa, old;
	struct config		*cfg;
	struct answer		*a;
	char			*cause = NULL;

	if ((cfg = conf_load(NULL, &cause)) == NULL ||
	    beside_server(cfg, &cause) == -1)
		errx(1, "%s", cause ? cause : "out of memory");
	client_options_init(&opts);
	opts.root = root;
	opts.name = display;
	/* No web server's timeout to beat here: wait for the load. */
	opts.load_wait = cfg->load_timeout;
	/* A server dying under a write must not kill us (client.h). */
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, &old);
	if ((a = client_query_with(cfg, &opts, name, qs, &cause)) == NULL)
		errx(1, "%s", cause ? cause : "out of memory");
	sigaction(SIGPIPE, &old, NULL);
	conf_free(cfg);
	return (a);
}

/*
 * The profile root and the names under it of file and, for deepq diff,
 * base: the file's directory, or the deepest directory both are under.
 * Exits if a file cannot be found.
 */
static void
query_names(const char *file, const char *base, char **root, char **name,
    char **bname)
{
	char	*rf, *rb, *cause = NULL;
	size_t	 n;

	*bname = NULL;
	if (base == NULL) {
		if (profpath_split(file, root, name, &cause) == -1)
			errx(1, "%s", cause);
		return;
	}
	if ((rf = realpath(file, NULL)) == NULL)
		err(1, "%s", file);
	if ((rb = realpath(base, NULL)) == NULL)
		err(1, "%s", base);
	/* The common prefix, back to a '/' that ends a directory in both. */
	for (n = 0; rf[n] != '\0' && rf[n] == rb[n]; n++)
		;
	while (n > 0 && rf[n - 1] != '/')
		n--;
	if (n == 0)
		errx(1, "%s, %s: not files", file, base);
	if ((*root = strndup(rf, n > 1 ? n - 1 : 1)) == NULL ||
	    (*name = strdup(rf + n)) == NULL ||
	    (*bname = strdup(rb + n)) == NULL)
		err(1, NULL);
	free(rf);
	free(rb);
}

/*
 * Answer one query (see struct deepq_run) and print the body: through
 * the file's deepq-server, started if needed, exactly as the CGI does,
 * with the file's directory as the profile root; or in this process.
 * Returns the exit status: 0, 1 for an error, 3 for --fail-on-growth.
 */
int
deepq_run(const struct deepq_run *run)
{
	struct answer_context	 ctx;
	struct profile		*p = NULL;
	struct answer		*a;
	struct query_base	 qb;
	char			*cause = NULL, *root, *name, *bname, *qs;
	char			*e, *gateqs = NULL;
	const char		*rqs = run->qs;
	int			 rc;

	/* A gate compares raw totals unless the query says otherwise. */
	if (run->gate >= 0)
		rqs = gateqs = query_gate_qs(run->qs);
	query_names(run->file, run->base, &root, &name, &bname);
	if (bname == NULL) {
		if ((qs = strdup(rqs)) == NULL)
			err(1, NULL);
	} else if ((e = query_urlencode(bname)) == NULL ||
	    asprintf(&qs, "%s%sbase=%s", rqs, *rqs ? "&" : "", e) == -1)
		err(1, NULL);
	else
		free(e);

	memset(&qb, 0, sizeof qb);
	if (!run->local)
		a = query_server(root, name, run->file, qs);
	else {
		qb.root = root;
		root = NULL;
		deepq_input_limit(run->maxdec);
		if ((p = reader_load(run->file, run->reader, NULL,
		    &cause)) == NULL)
			errx(1, "%s", cause ? cause : "out of memory");
		memset(&ctx, 0, sizeof ctx);
		ctx.render.link_base = "?";
		ctx.render.file = run->file;
		ctx.render.static_base = run->static_base;
		ctx.report.name = run->file;
		ctx.report.source_roots = run->src != NULL ?
		    run->src->source_root : NULL;
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
	if ((rc == 0 || answer_guess_format(qs) == FMT_JSON) &&
	    a->body != NULL)
		fwrite(a->body, 1, a->len, stdout);
	if (rc != 0)
		warnx("%d: %s", a->status, a->message ? a->message : "error");
	/* A regression gate's own status, apart from 1 for errors. */
	else if (run->gate >= 0 && query_gate(a, run->gate))
		rc = 3;
	answer_free(a);
	profile_free(p);
	profile_free(qb.profile);
	free(qb.name);
	free(qb.root);
	free(gateqs);
	free(root);
	free(name);
	free(bname);
	free(qs);
	/* ferror too: stdio may have dropped output it had no buffer for. */
	if (fflush(stdout) != 0 || ferror(stdout))
		err(1, "stdout");
	return (rc);
}

/*
 * deepq query [--local] [--reader name] [--static-base url] [--source dir]...
 * FILE QUERY:
 * answer one query and print the body. A query without format= answers
 * as the query language says (a page), but for a report that has none
 * (the exports): in its own format.
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
	struct deepq_run	 run;
	char			*end, *cause = NULL;
	int			 ch, rc;

	memset(&run, 0, sizeof run);
	run.gate = -1;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "g:lr:S:s:z:", longopts, NULL)) !=
	    -1) {
		switch (ch) {
		case 'g':
			run.gate = strtod(optarg, &end);
			if (end == optarg || *end != '\0' || !(run.gate >= 0))
				errx(1, "--fail-on-growth: not a percentage: "
				    "%s", optarg);
			break;
		case 'l':
			run.local = 1;
			break;
		case 'r':
			run.reader = optarg;
			run.local = 1;
			break;
		case 's':
			/* Where pages find deepq.css and deepq.js (www/). */
			run.static_base = optarg;
			break;
		case 'S':
			/* cmd=source's roots, in this process: --local. */
			if (run.src == NULL && (run.src = conf_create()) == NULL)
				err(1, NULL);
			if (conf_add_source_root(run.src, optarg, &cause) == -1)
				errx(1, "--source %s", cause);
			run.local = 1;
			break;
		case 'z':
			/* In this process: --local (a server has its own). */
			run.maxdec = optarg;
			run.local = 1;
			break;
		default:
			deepq_usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1 || argc > 2)
		deepq_usage();
	run.file = argv[0];
	run.qs = argc == 2 ? argv[1] : "";
	rc = deepq_run(&run);
	conf_free(run.src);
	return (rc);
}
