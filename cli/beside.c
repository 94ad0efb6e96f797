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

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "beside.h"
#include "conf.h"

/*
 * Programs of an uninstalled build tree find each other (deepq web its
 * deepq-web, deepq-web the server and the assets) relative to their own
 * executable, so `sh setup.sh demo' and the tests run without installing.
 */

/*
 * The real path of rel, taken from the directory above this program's
 * (cli/deepq -> cli/../rel), if it exists; NULL otherwise.
 */
char *
beside_path(const char *rel)
{
	char		 exe[PATH_MAX], path[PATH_MAX * 2], *slash;
	ssize_t		 n;

	if ((n = readlink("/proc/self/exe", exe, sizeof exe - 1)) <= 0)
		return (NULL);
	exe[n] = '\0';
	if ((slash = strrchr(exe, '/')) == NULL)
		return (NULL);
	*slash = '\0';
	snprintf(path, sizeof path, "%s/../%s", exe, rel);
	return (realpath(path, NULL));
}

/*
 * Run from a build tree, use its server: the configured server_path when
 * deepq.conf names one, else the build tree's server/deepq-server rather
 * than an installed one (of another version, or none). 0, or -1 with
 * *cause if out of memory.
 */
int
beside_server(struct config *cfg, char **cause)
{
	char	*server;
	int	 r = 0;

	if (strcmp(cfg->server_path, DEEPQ_SBINDIR "/deepq-server") != 0 ||
	    (server = beside_path("server/deepq-server")) == NULL)
		return (0);
	if (conf_set(cfg, "server_path", server, cause) == -1)
		r = -1;
	free(server);
	return (r);
}
