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
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "beside.h"
#include "deepq.h"

/*
 * deepq web runs the embedded web server, a program of its own
 * (deepq-web, in $(pkglibexecdir)): deepq itself then links neither
 * libmicrohttpd nor its TLS stack, whose loading cost every deepq query
 * some 3 ms of CPU, ten times what the rest of a warm query costs
 * (perf stat; doc/perf-log.md). An uninstalled build tree runs its own
 * cli/deepq-web.
 */
int
cmd_web(int argc, char **argv)
{
	char	*path;

	if ((path = beside_path("cli/deepq-web")) == NULL &&
	    (path = strdup(DEEPQ_PKGLIBEXECDIR "/deepq-web")) == NULL)
		err(1, NULL);
	/* Its messages then say "deepq web: ...". */
	argv[0] = "deepq web";
	execv(path, argv);
	err(1, "%s", path);
}
