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

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cause.h"
#include "conf.h"

/*
 * deepq.conf(5): defaults, the key table and the parser. Every key has a
 * type and a range here, so the man page, the parser and the error
 * messages agree.
 */

#ifndef DEEPQ_SYSCONFDIR
#define DEEPQ_SYSCONFDIR	"/etc"
#endif
#ifndef DEEPQ_SBINDIR
#define DEEPQ_SBINDIR		"/usr/sbin"
#endif

enum conf_type {
	CONF_STRING,
	CONF_PATH,		/* absolute path, or empty for the default */
	CONF_URL,		/* /path or http(s)://..., or empty for none */
	CONF_PATHS,		/* absolute paths separated by ':', or empty */
	CONF_INT,
	CONF_U64,
	CONF_SIZE,
};

struct conf_key {
	const char		*name;
	enum conf_type	 type;
	size_t			 offset;
	int64_t			 min, max;
	const char		*unit;
};

#define OFF(f)	offsetof(struct config, f)
static const struct conf_key conf_keys[] = {
	{ "answer_cache", CONF_U64, OFF(answer_cache), 0, 65536, "MB" },
	{ "cache_dir", CONF_PATH, OFF(cache_dir), 0, 0, NULL },
	{ "idle_timeout", CONF_INT, OFF(idle_timeout), 1, 604800,
	    "seconds" },
	{ "index_entries", CONF_INT, OFF(index_entries), 0, 100000,
	    "profiles" },
	{ "index_url", CONF_URL, OFF(index_url), 0, 1024, NULL },
	{ "load_timeout", CONF_INT, OFF(load_timeout), 1, 86400,
	    "seconds" },
	{ "load_wait", CONF_INT, OFF(load_wait), 0, 60, "seconds" },
	{ "max_answer", CONF_U64, OFF(max_answer), 1, 512, "MB" },
	{ "max_cost", CONF_U64, OFF(max_cost), 0, INT64_MAX,
	    "node visits" },
	{ "max_decompressed", CONF_U64, OFF(max_decompressed), 1, 1 << 30,
	    "MB" },
	{ "max_json", CONF_U64, OFF(max_json), 1, 1024, "MB" },
	{ "max_memory", CONF_U64, OFF(max_memory), 0, 1 << 30, "MB" },
	{ "max_query", CONF_SIZE, OFF(max_query), 256, 65536, "bytes" },
	{ "max_servers", CONF_INT, OFF(max_servers), 1, 4096, "servers" },
	{ "max_workers", CONF_INT, OFF(max_workers), 0, 64, "processes" },
	{ "profile_root", CONF_PATH, OFF(profile_root), 0, 0, NULL },
	{ "query_timeout", CONF_INT, OFF(query_timeout), 1, 3600,
	    "seconds" },
	{ "runtime_dir", CONF_PATH, OFF(runtime_dir), 0, 0, NULL },
	{ "server_path", CONF_PATH, OFF(server_path), 0, 0, NULL },
	{ "source_root", CONF_PATHS, OFF(source_root), 0, 4096, NULL },
	{ "static_url", CONF_STRING, OFF(static_url), 0, 1024, NULL },
	{ "want_max_age", CONF_INT, OFF(want_max_age), 1, 86400,
	    "seconds" },
	{ "worker_memory", CONF_U64, OFF(worker_memory), 0, 1 << 30, "MB" },
	{ "write_timeout", CONF_INT, OFF(write_timeout), 1, 3600,
	    "seconds" },
};
#undef OFF
#define NKEYS	(sizeof conf_keys / sizeof conf_keys[0])

static char	*conf_trim(char *);
static int	 conf_parse_line(struct config *, char *, unsigned int *,
		    char **);

/* The configuration file's path when DEEPQ_CONFIG is not set. */
const char *
conf_default_path(void)
{
	return (DEEPQ_SYSCONFDIR "/deepq.conf");
}

/* A configuration holding the defaults; NULL if out of memory. */
struct config *
conf_create(void)
{
	struct config	*c;

	if ((c = calloc(1, sizeof *c)) == NULL)
		return (NULL);
	c->profile_root = strdup("");
	c->runtime_dir = strdup("");
	c->cache_dir = strdup("");
	c->server_path = strdup(DEEPQ_SBINDIR "/deepq-server");
	c->static_url = strdup("");
	c->index_url = strdup("");
	c->source_root = strdup("");
	if (c->profile_root == NULL || c->runtime_dir == NULL ||
	    c->cache_dir == NULL || c->index_url == NULL ||
	    c->source_root == NULL ||
	    c->server_path == NULL || c->static_url == NULL) {
		conf_free(c);
		return (NULL);
	}
	c->idle_timeout = 1800;
	c->max_servers = 16;
	c->load_timeout = 600;
	c->load_wait = 3;
	c->query_timeout = 30;
	c->want_max_age = 120;
	c->max_query = 8192;
	c->max_cost = 50000000;
	c->max_memory = 0;
	c->max_decompressed = 16384;
	c->max_json = 1024;
	c->answer_cache = 16;
	c->max_workers = 2;
	c->worker_memory = 2048;
	c->max_answer = 512;
	c->write_timeout = 10;
	return (c);
}

/* Free a configuration. */
void
conf_free(struct config *c)
{
	if (c == NULL)
		return;
	free(c->path);
	free(c->profile_root);
	free(c->runtime_dir);
	free(c->cache_dir);
	free(c->server_path);
	free(c->static_url);
	free(c->index_url);
	free(c->source_root);
	free(c);
}

/* Set one key from its text; -1 with *cause (no line number) if bad. */
int
conf_set(struct config *c, const char *key, const char *value,
    char **cause)
{
	const struct conf_key	*k = NULL;
	size_t			 i;
	long long		 n;
	unsigned long long	 u;
	char			*end, *s, **sp;

	for (i = 0; i < NKEYS; i++) {
		if (strcmp(conf_keys[i].name, key) == 0) {
			k = &conf_keys[i];
			break;
		}
	}
	if (k == NULL) {
		cause_set(cause, "unknown key: %s", key);
		return (-1);
	}
	switch (k->type) {
	case CONF_PATHS:
		/* Each an absolute path: a relative one names nothing. */
		for (s = (char *)value; *s != '\0'; s += strcspn(s, ":")) {
			if (*s == ':')
				s++;
			if (*s != '/') {
				cause_set(cause, "%s: not a list of absolute "
				    "paths separated by ':': %s", key, value);
				return (-1);
			}
		}
		goto string;
	case CONF_PATH:
		if (*value != '\0' && *value != '/') {
			cause_set(cause, "%s: not an absolute path: %s", key,
			    value);
			return (-1);
		}
		/* FALLTHROUGH */
	case CONF_URL:
		/* A link every page carries: never javascript: or data:. */
		if (k->type == CONF_URL && *value != '\0' && *value != '/' &&
		    strncmp(value, "http://", 7) != 0 &&
		    strncmp(value, "https://", 8) != 0) {
			cause_set(cause, "%s: not a /path or an http(s) URL: "
			    "%s", key, value);
			return (-1);
		}
		/* FALLTHROUGH */
	case CONF_STRING:
	string:
		if (k->max != 0 && strlen(value) > (size_t)k->max) {
			cause_set(cause, "%s: longer than %lld bytes", key,
			    (long long)k->max);
			return (-1);
		}
		for (s = (char *)value; *s != '\0'; s++) {
			if ((unsigned char)*s < 0x20 || *s == 0x7f) {
				cause_set(cause, "%s: control character in "
				    "value", key);
				return (-1);
			}
		}
		if ((s = strdup(value)) == NULL) {
			cause_set(cause, "out of memory");
			return (-1);
		}
		sp = (char **)((char *)c + k->offset);
		free(*sp);
		*sp = s;
		return (0);
	case CONF_INT:
		errno = 0;
		n = strtoll(value, &end, 10);
		if (*value == '\0' || *end != '\0' || errno != 0 ||
		    n < k->min || n > k->max)
			goto range;
		*(int *)((char *)c + k->offset) = (int)n;
		return (0);
	case CONF_U64:
	case CONF_SIZE:
		errno = 0;
		if (*value == '-')
			goto range;
		u = strtoull(value, &end, 10);
		if (*value == '\0' || *end != '\0' || errno != 0 ||
		    u < (unsigned long long)k->min ||
		    u > (unsigned long long)k->max)
			goto range;
		if (k->type == CONF_SIZE)
			*(size_t *)((char *)c + k->offset) = u;
		else
			*(uint64_t *)((char *)c + k->offset) = u;
		return (0);
	}
range:
	cause_set(cause, "%s: must be an integer from %lld to %lld %s: %s",
	    key, (long long)k->min, (long long)k->max, k->unit, value);
	return (-1);
}

/*
 * Add directory dir (made absolute and canonical) to source_root, as
 * deepq web --source and deepq query --source do. -1 with *cause.
 */
int
conf_add_source_root(struct config *c, const char *dir, char **cause)
{
	struct stat	 st;
	char		*rp, *list;
	int		 rc;

	if ((rp = realpath(dir, NULL)) == NULL) {
		cause_set(cause, "%s: %s", dir, strerror(errno));
		return (-1);
	}
	if (stat(rp, &st) == -1 || !S_ISDIR(st.st_mode) ||
	    strchr(rp, ':') != NULL) {
		cause_set(cause, "%s: %s", dir, strchr(rp, ':') != NULL ?
		    "a source root may not hold ':'" : "not a directory");
		free(rp);
		return (-1);
	}
	if (asprintf(&list, "%s%s%s", c->source_root, *c->source_root ? ":" :
	    "", rp) == -1) {
		free(rp);
		cause_set(cause, "out of memory");
		return (-1);
	}
	free(rp);
	rc = conf_set(c, "source_root", list, cause);
	free(list);
	return (rc);
}

/* Strip leading and trailing blanks in place. */
static char *
conf_trim(char *s)
{
	char	*e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return (s);
}

/*
 * One line: blank, comment or `key = value'. Returns the index of the
 * key set, NKEYS for nothing, -1 with *cause.
 */
static int
conf_parse_line(struct config *c, char *line, unsigned int *seen,
    char **cause)
{
	char	*eq, *key, *value, *why = NULL;
	size_t	 i;

	line = conf_trim(line);
	if (*line == '\0' || *line == '#')
		return ((int)NKEYS);
	if ((eq = strchr(line, '=')) == NULL) {
		cause_set(cause, "expected `key = value'");
		return (-1);
	}
	*eq = '\0';
	key = conf_trim(line);
	value = conf_trim(eq + 1);
	for (i = 0; i < NKEYS; i++) {
		if (strcmp(conf_keys[i].name, key) != 0)
			continue;
		if (seen[i]) {
			cause_set(cause, "%s: set twice (first on line %u)",
			    key, seen[i]);
			return (-1);
		}
		break;
	}
	if (conf_set(c, key, value, &why) == -1) {
		cause_set(cause, "%s", why ? why : "out of memory");
		free(why);
		return (-1);
	}
	return ((int)i);
}

/*
 * Load a configuration file. path NULL means $DEEPQ_CONFIG, which must
 * exist when set, else the build-time path, whose absence just means
 * the defaults.
 */
struct config *
conf_load(const char *path, char **cause)
{
	struct config	*c;
	FILE		*f;
	char		 buf[CONF_MAX_LINE + 2], *why = NULL;
	unsigned int	 seen[NKEYS], lineno = 0;
	int		 optional = 0, i;
	size_t		 len;

	if (path == NULL && (path = getenv(CONF_ENV)) != NULL &&
	    *path == '\0')
		path = NULL;
	if (path == NULL) {
		path = conf_default_path();
		optional = 1;
	}
	if ((c = conf_create()) == NULL) {
		cause_set(cause, "out of memory");
		return (NULL);
	}
	if ((f = fopen(path, "re")) == NULL) {
		if (optional && errno == ENOENT)
			return (c);
		cause_set(cause, "%s: %s", path, strerror(errno));
		conf_free(c);
		return (NULL);
	}
	/*
	 * Absolute: the path is handed on to the servers we start (-f),
	 * and a server runs from "/", where a relative one names nothing.
	 */
	if ((c->path = realpath(path, NULL)) == NULL)
		c->path = strdup(path);
	if (c->path == NULL) {
		cause_set(cause, "out of memory");
		goto fail;
	}
	memset(seen, 0, sizeof seen);
	while (fgets(buf, sizeof buf, f) != NULL) {
		lineno++;
		len = strlen(buf);
		if (len > 0 && buf[len - 1] == '\n')
			buf[--len] = '\0';
		else if (!feof(f)) {
			cause_set(cause, "%s:%u: line longer than %d bytes",
			    path, lineno, CONF_MAX_LINE);
			goto fail;
		}
		if (strlen(buf) != len) {
			cause_set(cause, "%s:%u: NUL byte in line", path,
			    lineno);
			goto fail;
		}
		if ((i = conf_parse_line(c, buf, seen, &why)) == -1) {
			cause_set(cause, "%s:%u: %s", path, lineno,
			    why ? why : "out of memory");
			free(why);
			goto fail;
		}
		if ((size_t)i < NKEYS)
			seen[i] = lineno;
	}
	if (ferror(f)) {
		cause_set(cause, "%s: %s", path, strerror(errno));
		goto fail;
	}
	fclose(f);
	return (c);
fail:
	fclose(f);
	conf_free(c);
	return (NULL);
}

/*
 * The runtime directory: runtime_dir if set; else $XDG_RUNTIME_DIR/deepq
 * when XDG_RUNTIME_DIR passes the XDG check (ours, mode 0700); else
 * /tmp/deepq-UID. rundir_open() verifies whichever it is. Caller frees.
 */
char *
conf_runtime_dir(const struct config *c, char **cause)
{
	const char	*xdg;
	struct stat	 st;
	char		*s;

	if (c->runtime_dir[0] != '\0')
		s = strdup(c->runtime_dir);
	else if ((xdg = getenv("XDG_RUNTIME_DIR")) != NULL && *xdg == '/' &&
	    lstat(xdg, &st) == 0 && S_ISDIR(st.st_mode) &&
	    st.st_uid == geteuid() && (st.st_mode & 07777) == 0700) {
		if (asprintf(&s, "%s/deepq", xdg) == -1)
			s = NULL;
	} else if (asprintf(&s, "/tmp/deepq-%lu",
	    (unsigned long)geteuid()) == -1)
		s = NULL;
	if (s == NULL)
		cause_set(cause, "out of memory");
	return (s);
}

/*
 * The processed-profile cache directory: cache_dir if set, else `cache'
 * in the runtime directory rundir. rundir_open() verifies it like the
 * runtime directory (private, ours, no link). Caller frees.
 */
char *
conf_cache_dir(const struct config *c, const char *rundir, char **cause)
{
	char	*s;

	if (c->cache_dir[0] != '\0')
		s = strdup(c->cache_dir);
	else if (asprintf(&s, "%s/cache", rundir) == -1)
		s = NULL;
	if (s == NULL)
		cause_set(cause, "out of memory");
	return (s);
}
