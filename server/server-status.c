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

#include <jansson.h>

#include "answer-cache.h"
#include "profile.h"
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

/* The status object (report_context.status callback). */
json_t *
server_status(void *arg)
{
	struct server	*s = arg;
	struct answer_cache_stats st;
	long long	 now = rundir_now();
	time_t		 t = time(NULL);

	answer_cache_stats(s->acache, &st);
	return (json_pack("{s:I, s:s, s:I, s:b, s:I, s:I, s:I, s:I, s:I, s:i, "
	    "s:I, s:{s:I, s:I, s:I, s:I, s:I, s:I}}",
	    "pid", (json_int_t)getpid(),
	    "format", s->profile->format,
	    "load_ms", (json_int_t)(s->load_time * 1000 + 0.5),
	    "cached", s->from_cache,
	    "started", (json_int_t)s->started,
	    "uptime", (json_int_t)(t - s->started),
	    "idle_ms", (json_int_t)(now - s->last),
	    "queries", (json_int_t)s->queries,
	    "rss", (json_int_t)server_status_rss(),
	    "idle_timeout", s->idle_timeout,
	    "clients", (json_int_t)s->nclients,
	    "answer_cache",
	    "hits", (json_int_t)st.hits,
	    "misses", (json_int_t)st.misses,
	    "evictions", (json_int_t)st.evictions,
	    "entries", (json_int_t)st.entries,
	    "bytes", (json_int_t)st.bytes,
	    "limit", (json_int_t)st.limit));
}
