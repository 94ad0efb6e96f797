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
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "answer.h"
#include "client.h"
#include "conf.h"
#include "deepq.h"

/*
 * deepq status: the running servers (deepq(1)), each asked for cmd=status
 * through the rendezvous (never starting one): file, pid, uptime, idle
 * time, queries served, memory. Asking is not activity: it keeps no
 * server alive.
 */

static void	status_time(char *, size_t, double);

/* 3723 -> "1h02m". */
static void
status_time(char *buf, size_t len, double t)
{
	long long	 s = (long long)t;

	if (t < 0)
		snprintf(buf, len, "-");
	else if (s < 60)
		snprintf(buf, len, "%.1fs", t);
	else if (s < 3600)
		snprintf(buf, len, "%lldm%02llds", s / 60, s % 60);
	else
		snprintf(buf, len, "%lldh%02lldm", s / 3600, s / 60 % 60);
}

/* deepq status [--json] */
int
cmd_status(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 }
	};
	struct client_options	 opts;
	struct client_server	*list;
	struct sigaction	 sa;
	struct config		*cfg;
	struct answer		*a;
	json_t			*all, *j;
	char			*cause = NULL, up[32], idle[32], *s;
	size_t			 n, i;
	int			 ch, json = 0;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "j", longopts, NULL)) != -1) {
		switch (ch) {
		case 'j':
			json = 1;
			break;
		default:
			deepq_usage();
		}
	}
	if (argc != optind)
		deepq_usage();

	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	if ((cfg = conf_load(NULL, &cause)) == NULL)
		errx(1, "%s", cause ? cause : "out of memory");
	if (client_list(cfg, &list, &n, &cause) == -1)
		errx(1, "%s", cause);
	if ((all = json_array()) == NULL)
		errx(1, "out of memory");
	for (i = 0; i < n; i++) {
		j = NULL;
		if (list[i].serving) {
			client_options_init(&opts);
			opts.name = list[i].path;
			a = client_query_key(cfg, &opts, list[i].key,
			    "cmd=status&format=json", &cause);
			if (a == NULL)
				errx(1, "%s", cause ? cause : "out of memory");
			if (a->status == 200)
				j = json_loadb(a->body, a->len, 0, NULL);
			answer_free(a);
		}
		if (j == NULL)
			j = json_pack("{s:I, s:s}", "pid",
			    (json_int_t)list[i].pid, "file",
			    list[i].path ? list[i].path : "");
		if (j == NULL)
			errx(1, "out of memory");
		json_object_set_new(j, "state", json_string(list[i].serving &&
		    json_object_get(j, "uptime") != NULL ? "serving" :
		    "loading"));
		json_array_append_new(all, j);
	}
	client_list_free(list, n);

	if (json) {
		if ((s = json_dumps(all, JSON_INDENT(2))) == NULL)
			errx(1, "out of memory");
		printf("%s\n", s);
		free(s);
	} else if (json_array_size(all) == 0) {
		/* Nothing printed would look like a failure to ask. */
		if ((s = conf_runtime_dir(cfg, &cause)) == NULL)
			errx(1, "%s", cause);
		printf("no server is running (runtime directory %s)\n", s);
		free(s);
	} else {
		if (json_array_size(all) > 0)
			printf("%-8s %-8s %-8s %-8s %9s %9s  %s\n", "PID",
			    "STATE", "UPTIME", "IDLE", "QUERIES", "RSS",
			    "FILE");
		json_array_foreach(all, i, j) {
			status_time(up, sizeof up, json_object_get(j,
			    "uptime") ? (double)json_integer_value(
			    json_object_get(j, "uptime")) : -1);
			status_time(idle, sizeof idle, json_object_get(j,
			    "idle_ms") ? (double)json_integer_value(
			    json_object_get(j, "idle_ms")) / 1000 : -1);
			printf("%-8lld %-8s %-8s %-8s %9lld %8.1fM  %s\n",
			    (long long)json_integer_value(json_object_get(j,
			    "pid")),
			    json_string_value(json_object_get(j, "state")),
			    up, idle,
			    (long long)json_integer_value(json_object_get(j,
			    "queries")),
			    (double)json_integer_value(json_object_get(j,
			    "rss")) / (1024 * 1024),
			    json_string_value(json_object_get(j, "file")));
		}
	}
	json_decref(all);
	conf_free(cfg);
	return (fflush(stdout) == 0 ? 0 : 1);
}
