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

#include <err.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog.h"
#include "deepq.h"
#include "outbuf.h"
#include "profile.h"
#include "query.h"
#include "reader.h"
#include "transform.h"
#include "writer.h"

/*
 * Write p with w to path ("-": standard output) through the buffer's
 * own sink, no stdio in between; a failed file is removed.
 */
static void
cmd_convert_write(const struct writer *w, const struct profile *p,
    const struct writer_options *o, const char *path)
{
	struct outbuf	 ob;
	char		*cause = NULL;
	int		 r, fd, tostdout;

	tostdout = strcmp(path, "-") == 0;
	if (tostdout)
		fd = STDOUT_FILENO;
	else if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0666)) == -1)
		err(1, "%s", path);
	outbuf_init_fd(&ob, fd);
	r = w->write(&ob, p, o, &cause);
	if ((outbuf_flush(&ob) == -1 || (!tostdout && close(fd) == -1)) &&
	    r == 0) {
		r = -1;
		cause = NULL;
	}
	outbuf_clear(&ob);
	if (r == -1) {
		if (!tostdout)
			unlink(path);
		errx(1, "%s: %s", path, cause ? cause : "write error");
	}
}

/*
 * deepq convert IN OUT --to folded|callgrind|pprof|speedscope: read a
 * profile in any format the readers know and write it in one other tools
 * read (deepq(1)). --query applies filters and a t= stack first, with the
 * same syntax as a query string. OUT "-" is standard output.
 */

int
cmd_convert(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "max-decompressed", required_argument, NULL, 'z' },
		{ "maxdepth", required_argument, NULL, 'd' },
		{ "metric", required_argument, NULL, 'm' },
		{ "no-modules", no_argument, NULL, 'M' },
		{ "order", required_argument, NULL, 'o' },
		{ "query", required_argument, NULL, 'q' },
		{ "reader", required_argument, NULL, 'r' },
		{ "to", required_argument, NULL, 't' },
		{ "variant", required_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 }
	};
	struct writer_options	 o;
	struct reader_options	 ro = { 0, NULL };
	struct transform_stack	*ts = NULL;
	struct query		*q = NULL;
	struct profile		*p, *d;
	const char		*reader = NULL, *to = "folded", *qs = "";
	const char		*metric = NULL, *maxdec = NULL;
	char			*cause = NULL, *end;
	long long		 ll;
	const struct writer	*w;
	char			*list;
	int			 ch, status, fmt;

	memset(&o, 0, sizeof o);
	optind = 1;
	while ((ch = getopt_long(argc, argv, "d:m:Mo:q:r:t:v:z:", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'd':
			ll = strtoll(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || ll < 0 ||
			    ll > 1000000)
				errx(1, "--maxdepth: must be 0 to 1000000");
			o.maxdepth = (uint32_t)ll;
			break;
		case 'm':
			metric = optarg;
			break;
		case 'M':
			o.no_modules = 1;
			break;
		case 'o':
			if (strcmp(optarg, "time") != 0 &&
			    strcmp(optarg, "name") != 0)
				errx(1, "--order: must be name or time");
			o.time_order = strcmp(optarg, "time") == 0;
			break;
		case 'q':
			qs = optarg;
			break;
		case 'r':
			reader = optarg;
			break;
		case 't':
			to = optarg;
			break;
		case 'z':
			maxdec = optarg;
			break;
		case 'v':
			ro.variant = optarg;
			break;
		default:
			deepq_usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 2)
		deepq_usage();
	/* The export formats of the catalog, each with its writer. */
	if ((fmt = catalog_format_find(to)) == -1 ||
	    (w = writer_find(fmt)) == NULL) {
		list = catalog_format_list(CATALOG_EXPORT, ", ");
		errx(1, "--to: must be one of %s", list ? list : "(?)");
	}

	if ((q = query_parse(qs, &status, &cause)) == NULL ||
	    (ts = transform_parse(q, &status, &cause)) == NULL)
		errx(1, "--query: %s", cause ? cause : "out of memory");
	deepq_input_limit(maxdec);
	if ((p = reader_load(argv[0], reader, &ro, &cause)) == NULL)
		errx(1, "%s", cause ? cause : "out of memory");
	if (ts->n > 0) {
		if ((d = transform_apply(p, ts, NULL, &status, &cause)) == NULL)
			errx(1, "--query: %s", cause ? cause : "out of memory");
		profile_free(p);
		p = d;
	}
	if (metric != NULL &&
	    (o.metric = profile_metric_find(p, metric)) == -1)
		errx(1, "--metric: %s has no metric %s", argv[0], metric);

	cmd_convert_write(w, p, &o, argv[1]);
	profile_free(p);
	transform_stack_free(ts);
	query_free(q);
	return (0);
}
