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
#include <sys/stat.h>

#include <err.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "conf.h"
#include "deepq.h"
#include "profpath.h"

/*
 * deepq stop FILE | deepq stop --all: stop the server of a profile, or
 * every server in the runtime directory (deepq(1)), and wait until each
 * has released its liveness lock.
 */

#define STOP_TIMEOUT	10000	/* ms to wait for a server to go */

/* deepq stop [--all] [file] */
int
cmd_stop(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ NULL, 0, NULL, 0 }
	};
	struct client_server	*list;
	struct sigaction	 sa;
	struct config		*cfg;
	struct stat		 st;
	char			 key[PROTO_KEY_LEN + 1], *cause = NULL, *rp;
	size_t			 n, i;
	int			 ch, all = 0, rc = 0, r;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "a", longopts, NULL)) != -1) {
		switch (ch) {
		case 'a':
			all = 1;
			break;
		default:
			deepq_usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (all ? argc != 0 : argc != 1)
		deepq_usage();

	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	if ((cfg = conf_load(NULL, &cause)) == NULL)
		errx(1, "%s", cause ? cause : "out of memory");
	if (!all) {
		if ((rp = realpath(argv[0], NULL)) == NULL ||
		    stat(rp, &st) == -1)
			err(1, "%s", argv[0]);
		free(rp);
		profpath_key(&st, key);
		if ((r = client_stop(cfg, key, STOP_TIMEOUT, &cause)) == -1)
			errx(1, "%s: %s", argv[0], cause);
		if (r == 0) {
			warnx("%s: no server is running", argv[0]);
			rc = 1;
		}
		conf_free(cfg);
		return (rc);
	}
	if (client_list(cfg, &list, &n, &cause) == -1)
		errx(1, "%s", cause);
	for (i = 0; i < n; i++) {
		if (client_stop(cfg, list[i].key, STOP_TIMEOUT, &cause) ==
		    -1) {
			warnx("%s: %s", list[i].path ? list[i].path :
			    list[i].key, cause);
			free(cause);
			cause = NULL;
			rc = 1;
		}
	}
	client_list_free(list, n);
	conf_free(cfg);
	return (rc);
}
