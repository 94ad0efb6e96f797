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


#ifndef SERVER_H
#define SERVER_H

/*
 * deepq-server's private types and functions, one section per file.
 */

#include <sys/types.h>
#include <sys/queue.h>
#include <sys/stat.h>

#include <stdarg.h>
#include <stdint.h>
#include <time.h>

#include <jansson.h>

#include "catalog.h"
#include "proto.h"

struct answer;
struct answer_cache;
struct answer_context;
struct query;
struct render_context;
struct event;
struct event_base;
struct evbuffer;
struct input;
struct stat;
struct profile;
struct profile_index;

#define SERVER_MAX_CLIENTS	256	/* replies being written at once */
#define SERVER_CHUNK		32768	/* bytes per write(2) of a reply */
#define SERVER_WATCH		1	/* seconds between ownership checks */
#define SERVER_BASES		4	/* base= profiles kept loaded */
#define SERVER_WORKERS		64	/* most max_workers can be */
#define SERVER_SLICE		50	/* ms a query runs in the server */
#define SERVER_FILL_WAITERS	SERVER_MAX_CLIENTS /* one worker's waiters */
#define SERVER_HEAVY		32	/* queries remembered as heavy */

/* A base= profile, kept by identity (server-base.c). */
struct server_base {
	dev_t			 dev;
	ino_t			 ino;
	off_t			 size;
	struct timespec		 mtime;
	uint64_t		 used;		/* tick of last use; 0: free */
	struct profile		*profile;	/* NULL while loading */
	int			 loadfd;	/* the loader's pipe, or -1 */
	pid_t			 loader;	/* its process, or 0 */
	long long		 waitend;	/* ms */
	char			 name[256];	/* for the log */
	char			 cpath[4096];	/* its cache file */
};

/* What a request's base_load needs. */
struct server_request {
	struct server		*server;
	const char		*root;		/* the client's, canonical */
};

/* One answer being written to a client's reply FIFO. */
struct server_client {
	TAILQ_ENTRY(server_client) entry;
	struct server		*server;
	int			 fd;
	struct event		*ev;
	struct evbuffer		*out;
	long long		 progress;	/* ms, last bytes written */
	char			 id[PROTO_ID_LEN + 1];
};
TAILQ_HEAD(server_clients, server_client);

/*
 * A worker's answer coming back (server-worker.c): for the answer cache,
 * and for the requests of the same query that arrived while it ran and
 * wait for it instead of running it again.
 */
struct server_fill {
	TAILQ_ENTRY(server_fill) entry;
	struct server		*server;
	int			 fd;
	struct event		*ev;
	struct evbuffer		*in;
	char			*key;
	const char		*ctype;		/* the renderer's, static */
	enum catalog_fmt	 fmt;		/* for the waiters' errors */
	char			*file;		/* their render context's */
	char			*static_base;	/* NULL: none */
	char			(*waiters)[PROTO_ID_LEN + 1];
	size_t			 nwaiters;
	size_t			 waiters_size;
};
TAILQ_HEAD(server_fills, server_fill);

struct server {
	struct event_base	*base;
	struct event		*ev_fifo;
	struct event		*ev_idle;
	struct event		*ev_watch;
	struct event		*ev_term;
	struct event		*ev_int;
	struct event		*ev_chld;
	struct profile		*profile;
	struct profile_index	*index;		/* its derived data */
	const char		*path;		/* canonical profile path */
	char			 key[PROTO_KEY_LEN + 1];
	const char		*rundir;
	int			 dirfd;
	struct stat		 dirst;
	int			 fifofd;
	struct stat		 fifost;
	int			 lockfd;
	int			 alivefd;
	char			 fifoname[PROTO_NAME_MAX];
	char			 lockname[PROTO_NAME_MAX];
	char			 alivename[PROTO_NAME_MAX];
	int			 readyfd;	/* to the starter, or -1 */
	struct evbuffer		*in;
	struct server_clients	 clients;
	size_t			 nclients;
	int			 exiting;
	int			 shutdown;	/* answer, then exit */
	int			 idle_timeout;	/* seconds */
	int			 want_max_age;	/* seconds */
	int			 write_timeout;	/* seconds a reply may stall */
	uint64_t		 max_cost;
	uint64_t		 max_msec;	/* wall clock per query */
	const char		*source_roots;	/* cmd=source's, or "" */
	double			 load_time;	/* seconds */
	int			 from_cache;	/* loaded from cache_dir */
	time_t			 started;
	long long		 last;		/* ms, last request */
	uint64_t		 queries;
	struct server_base	 bases[SERVER_BASES];
	uint64_t		 base_tick;
	char			*cache_dir;	/* NULL: none usable */
	int			 load_timeout;	/* seconds */
	int			 base_wait;	/* seconds */
	struct answer_cache	*acache;	/* NULL: off */
	int			 max_workers;	/* 0: no workers */
	size_t			 nworkers;
	pid_t			 workers[SERVER_WORKERS];	/* 0: free */
	struct server_fills	 fills;
	uint64_t		 worker_memory;	/* bytes a worker may add */
	size_t			 max_body;	/* bytes of an answer */
	/*
	 * The queries that needed more than a slice lately (hashes of
	 * their canonical text): the next one goes to a worker at once,
	 * or is refused at once when they are all busy, costing the loop
	 * nothing (server.c).
	 */
	uint64_t		 heavy[SERVER_HEAVY];
	size_t			 heavy_next;
	pid_t			 cache_writer;	/* or 0 */
};

/* log.c: the server's only output besides its answers */
void	log_init(int, const char *);
void	log_warn(const char *, ...)
	    __attribute__((__format__(__printf__, 1, 2)));
void	log_warnx(const char *, ...)
	    __attribute__((__format__(__printf__, 1, 2)));
void	log_info(const char *, ...)
	    __attribute__((__format__(__printf__, 1, 2)));
void	fatal(const char *, ...)
	    __attribute__((__format__(__printf__, 1, 2), __noreturn__));
void	fatalx(const char *, ...)
	    __attribute__((__format__(__printf__, 1, 2), __noreturn__));

/* deepq-server.c */
void	server_title(const char *);

/* server.c */
int	server_run(struct server *);
void	server_exit(struct server *, const char *);
void	server_forget_rendezvous(struct server *);
void	server_client_done(struct server *);
struct answer *server_answer_fix(struct answer *, enum catalog_fmt,
	    const struct render_context *);

/* server-worker.c */
int	server_worker_start(struct server *, const char *,
	    const struct query *, const char *, struct answer_context *,
	    uint64_t);
void	server_worker_fills_free(struct server *);
int	server_worker_join(struct server *, const char *, const char *);
size_t	server_worker_waiting(const struct server *);
int	server_worker_reaped(struct server *, pid_t, int);

/* server-base.c */
const struct profile *server_base_load(void *, const char *, int *,
	    char **);
struct input *server_input(const char *, dev_t, ino_t, struct stat *,
	    char **);
void	server_base_init(struct server *);
void	server_base_free(struct server *);
int	server_base_reaped(struct server *, pid_t, int);
size_t	server_base_loaders(const struct server *);

/* server-client.c */
int	server_client_create(struct server *, const char *,
	    const struct answer *);
void	server_client_free(struct server_client *);

/* server-status.c */
struct report_status;
int	 server_status(void *, struct report_status *);

#endif /* SERVER_H */
