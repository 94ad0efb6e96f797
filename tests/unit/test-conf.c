/*
 * deepq.conf(5) parsing: defaults, every key, comments and blanks, and a
 * clear error with the line number for each kind of mistake.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf.h"
#include "tap.h"

static char	 path[] = "/tmp/test-conf.XXXXXX";

/* Load text as a configuration file. */
static struct config *
load(const char *text, char **cause)
{
	FILE	*f;

	if ((f = fopen(path, "w")) == NULL)
		return (NULL);
	fputs(text, f);
	fclose(f);
	return (conf_load(path, cause));
}

static void
bad(const char *text, const char *want, const char *what)
{
	struct config	*c;
	char		*cause = NULL;

	c = load(text, &cause);
	ok(c == NULL && cause != NULL && strstr(cause, want) != NULL,
	    "%s", what);
	diag("cause: %s", cause ? cause : "(none)");
	conf_free(c);
	free(cause);
}

int
main(void)
{
	struct config	*c;
	char		*cause = NULL, *s = NULL;
	int		 fd;

	if ((fd = mkstemp(path)) == -1)
		return (1);
	close(fd);

	c = conf_create();
	ok(c != NULL, "defaults");
	is_int(c->idle_timeout, 1800, "idle_timeout defaults to 30 min");
	is_int(c->max_query, 8192, "max_query default");
	is_int(c->answer_cache, 16, "answer_cache defaults to 16 MB");
	is_str(c->profile_root, "", "no profile_root by default");
	is_int(c->index_entries, 0, "no profile list by default");
	is_str(c->index_url, "", "no index_url by default");
	conf_free(c);

	c = load("# deepq.conf\n\n  # indented comment\n"
	    "profile_root = /srv/profiles\n"
	    "runtime_dir=/run/deepq\n"
	    "server_path = /usr/sbin/deepq-server  \n"
	    "static_url = /deepq/\n"
	    "idle_timeout = 60\r\n"
	    "max_servers = 4\n"
	    "load_timeout = 120\n"
	    "load_wait = 0\n"
	    "query_timeout = 5\n"
	    "want_max_age = 30\n"
	    "max_query = 2048\n"
	    "max_cost = 1000\n"
	    "max_memory = 512\n"
	    "answer_cache = 0\n"
	    "index_entries = 500\n"
	    "index_url = https://example.org/profiles/\n", &cause);
	ok(c != NULL, "every key parses");
	if (c != NULL) {
		is_str(c->profile_root, "/srv/profiles", "profile_root");
		is_str(c->runtime_dir, "/run/deepq", "runtime_dir, no blanks");
		is_str(c->server_path, "/usr/sbin/deepq-server",
		    "trailing blanks trimmed");
		is_str(c->static_url, "/deepq/", "static_url");
		is_int(c->idle_timeout, 60, "idle_timeout, CRLF line");
		is_int(c->max_servers, 4, "max_servers");
		is_int(c->load_wait, 0, "load_wait 0");
		is_int(c->max_query, 2048, "max_query");
		is_int(c->max_cost, 1000, "max_cost");
		is_int(c->max_memory, 512, "max_memory");
		is_int(c->answer_cache, 0, "answer_cache 0 (off)");
		is_int(c->index_entries, 500, "index_entries");
		is_str(c->index_url, "https://example.org/profiles/",
		    "index_url");
		is_str(c->path, path, "the file read is remembered");
	}
	conf_free(c);
	free(cause);
	cause = NULL;

	bad("idle_timeout = 10\nbogus = 1\n", ":2: unknown key: bogus",
	    "unknown key, with its line");
	bad("\n\nidle_timeout = 0\n", ":3: idle_timeout: must be",
	    "idle_timeout below its range");
	bad("idle_timeout = 99999999999\n", "idle_timeout: must be",
	    "idle_timeout overflow");
	bad("max_servers = 4x\n", "max_servers: must be", "trailing junk");
	bad("max_cost = -1\n", "max_cost: must be", "negative unsigned");
	bad("max_query = 100\n", "max_query: must be", "max_query too small");
	bad("load_wait =\n", "load_wait: must be", "empty number");
	bad("runtime_dir = relative/dir\n", "not an absolute path",
	    "relative path");
	bad("index_url = javascript:alert(1)\n", "index_url: not a /path or "
	    "an http(s) URL", "index_url of another scheme");
	bad("index_url = profiles/\n", "index_url: not a /path",
	    "relative index_url");
	bad("index_entries = 100001\n", "index_entries: must be",
	    "index_entries too large");
	bad("just words\n", ":1: expected `key = value'", "no equals sign");
	bad("idle_timeout = 5\nidle_timeout = 6\n", "set twice (first on "
	    "line 1)", "duplicate key");

	c = conf_load("/nonexistent/deepq.conf", &cause);
	ok(c == NULL && cause != NULL, "a named file must exist");
	free(cause);
	cause = NULL;

	setenv("DEEPQ_CONFIG", path, 1);
	conf_free(load("max_servers = 7\n", NULL));
	c = conf_load(NULL, &cause);
	ok(c != NULL && c->max_servers == 7, "DEEPQ_CONFIG overrides");
	conf_free(c);

	c = conf_create();
	ok(conf_set(c, "runtime_dir", "/x/y", NULL) == 0 &&
	    (s = conf_runtime_dir(c, NULL)) != NULL && strcmp(s, "/x/y") == 0,
	    "runtime_dir set is used as is");
	free(s);
	conf_set(c, "runtime_dir", "", NULL);
	unsetenv("XDG_RUNTIME_DIR");
	s = conf_runtime_dir(c, NULL);
	ok(s != NULL && strncmp(s, "/tmp/deepq-", 11) == 0,
	    "default runtime dir without XDG_RUNTIME_DIR: %s", s);
	free(s);
	setenv("XDG_RUNTIME_DIR", "/tmp", 1);
	s = conf_runtime_dir(c, NULL);
	ok(s != NULL && strncmp(s, "/tmp/deepq-", 11) == 0,
	    "an XDG_RUNTIME_DIR that is not 0700 and ours is ignored");
	free(s);
	s = conf_cache_dir(c, "/run/d", NULL);
	ok(s != NULL && strcmp(s, "/run/d/cache") == 0,
	    "default cache_dir is cache in the runtime dir");
	free(s);
	ok(conf_set(c, "cache_dir", "/var/cache/deepq", NULL) == 0 &&
	    (s = conf_cache_dir(c, "/run/d", NULL)) != NULL &&
	    strcmp(s, "/var/cache/deepq") == 0, "cache_dir set is used as is");
	free(s);
	ok(conf_set(c, "cache_dir", "rel", NULL) == -1,
	    "cache_dir must be absolute");
	conf_free(c);

	unlink(path);
	return (tap_done());
}
