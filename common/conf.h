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


#ifndef CONF_H
#define CONF_H

/*
 * deepq.conf(5): one configuration format for every program (the CGI,
 * deepq-server, deepq). (The module is conf.c because autoconf owns
 * "config.h".) A file of `key = value' lines, `#' comments on
 * lines of their own. Its path is fixed at build time
 * ($(sysconfdir)/deepq.conf) and the environment variable DEEPQ_CONFIG
 * overrides it. An unknown key or a bad value is an error with the line
 * number: a typo must never silently fall back to a default.
 */

#include <stddef.h>
#include <stdint.h>

#define CONF_ENV		"DEEPQ_CONFIG"
#define CONF_MAX_LINE		4096

struct config {
	char		*path;		/* file read, NULL if none */
	char		*profile_root;	/* "" = not configured */
	char		*runtime_dir;	/* "" = default (conf_runtime_dir) */
	char		*cache_dir;	/* "" = default (conf_cache_dir) */
	char		*server_path;	/* the deepq-server binary */
	char		*static_url;	/* URL prefix of www/ assets, "" none */
	char		*index_url;	/* the site's own profile index, "" none */
	char		*source_root;	/* ':'-separated directories, "" none */
	int		 index_entries;	/* deepq.cgi's cmd=index, 0 = none */
	int		 idle_timeout;	/* seconds */
	int		 max_servers;
	int		 load_timeout;	/* seconds a server may spend loading */
	int		 load_wait;	/* seconds a client waits for a load */
	int		 query_timeout;	/* seconds a client waits for an answer */
	int		 want_max_age;	/* seconds before a want file is stale */
	size_t		 max_query;	/* bytes of a query string */
	uint64_t	 max_cost;	/* node visits per query, 0 = none */
	uint64_t	 max_memory;	/* MB of address space, 0 = none */
	uint64_t	 max_decompressed; /* MB a compressed profile gives */
	uint64_t	 max_json;	/* MB of a JSON profile held whole */
	uint64_t	 answer_cache;	/* MB of answers kept, 0 = none */
	int		 max_workers;	/* expensive queries at once, 0 none */
	uint64_t	 worker_memory;	/* MB a worker may add, 0 = no limit */
	uint64_t	 max_answer;	/* MB of an answer's body */
	int		 write_timeout;	/* seconds a reply may stall */
};

const char	*conf_default_path(void);
struct config	*conf_create(void);
struct config	*conf_load(const char *, char **);
int		 conf_set(struct config *, const char *, const char *,
		     char **);
void		 conf_free(struct config *);
int		 conf_add_source_root(struct config *, const char *, char **);
char		*conf_runtime_dir(const struct config *, char **);
char		*conf_cache_dir(const struct config *, const char *, char **);

#endif /* CONF_H */
