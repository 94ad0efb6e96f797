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

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "answer-cache.h"
#include "profile.h"
#include "report.h"
#include "rundir.h"
#include "server.h"

/*
 * The server's side of cmd=status: the figures only the server knows,
 * for report-status.c (through report_context.status). No request data
 * and no absolute path: what a web user may see.
 */

static long long	server_status_rss(void);

/* Resident set size in bytes, from /proc/self/statm; -1 if unknown. */
static long long
server_status_rss(void)
{
	FILE		*f;
	long long	 size, resident = -1;

	if ((f = fopen("/proc/self/statm", "re")) == NULL)
		return (-1);
	if (fscanf(f, "%lld %lld", &size, &resident) != 2)
		resident = -1;
	fclose(f);
	return (resident < 0 ? -1 : resident * sysconf(_SC_PAGESIZE));
}

/* The server's figures (report_context.status callback). */
int
server_status(void *arg, struct report_status *rs)
{
	struct server	*s = arg;
	struct answer_cache_stats st;
	long long	 now = rundir_now();
	time_t		 t = time(NULL);

	answer_cache_stats(s->acache, &st);
	rs->pid = (int64_t)getpid();
	rs->format = s->profile->format;
	rs->load_ms = (int64_t)(s->load_time * 1000 + 0.5);
	rs->cached = s->from_cache;
	rs->started = (int64_t)s->started;
	rs->uptime = (int64_t)(t - s->started);
	rs->idle_ms = (int64_t)(now - s->last);
	rs->queries = (int64_t)s->queries;
	rs->rss = (int64_t)server_status_rss();
	rs->idle_timeout = s->idle_timeout;
	rs->clients = (int64_t)s->nclients;
	rs->workers = (int64_t)s->nworkers;
	rs->waiting = (int64_t)server_worker_waiting(s);
	rs->loaders = (int64_t)server_base_loaders(s);
	rs->answer_cache.hits = (int64_t)st.hits;
	rs->answer_cache.misses = (int64_t)st.misses;
	rs->answer_cache.evictions = (int64_t)st.evictions;
	rs->answer_cache.entries = (int64_t)st.entries;
	rs->answer_cache.bytes = (int64_t)st.bytes;
	rs->answer_cache.limit = (int64_t)st.limit;
	return (0);
}
