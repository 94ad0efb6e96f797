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
#define DEEPQ_WEB_USAGE	"web [--listen address:port] [--source dir]... " \
			"[--www dir] dir"

void	deepq_usage(void) __attribute__((__noreturn__));
void	deepq_input_limit(const char *);

int	cmd_convert(int, char **);
int	cmd_ingest(int, char **);
int	cmd_query(int, char **);
int	cmd_status(int, char **);
int	cmd_stop(int, char **);
int	cmd_web(int, char **);

#endif /* DEEPQ_H */
