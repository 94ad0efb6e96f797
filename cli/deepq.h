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

#ifndef DEEPQ_H
#define DEEPQ_H

/*
 * The deepq command line: one file per subcommand, cli/cmd-<name>.c, each
 * exporting cmd_<name>(argc, argv) with argv[0] the subcommand's name;
 * deepq.c keeps the table and the usage text (deepq(1) SYNOPSIS).
 */

/* deepq web's usage line, shared with deepq-web (cli/deepq-web.c). */
#define DEEPQ_WEB_USAGE	"web [--host name] [--listen address:port] " \
			"[--source dir]... [--www dir] dir"

struct config;

/* One query to answer and print (cli/cmd-query.c). */
struct deepq_run {
	const char	*file;		/* the profile, as given */
	const char	*base;		/* a second file, compared (base=) */
	const char	*qs;		/* the query string */
	int		 local;		/* in this process, no server */
	const char	*reader;	/* --reader, or NULL */
	const char	*static_base;	/* --static-base, or NULL */
	const char	*maxdec;	/* --max-decompressed, or NULL */
	double		 gate;		/* --fail-on-growth, -1 none */
	struct config	*src;		/* --source roots, or NULL */
};

void	deepq_usage(void) __attribute__((__noreturn__));
void	deepq_input_limit(const char *);
int	deepq_run(const struct deepq_run *);

int	cmd_convert(int, char **);
int	cmd_ingest(int, char **);
int	cmd_query(int, char **);
int	cmd_report(int, char **);
int	cmd_status(int, char **);
int	cmd_stop(int, char **);
int	cmd_web(int, char **);

#endif /* DEEPQ_H */
