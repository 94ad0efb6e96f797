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
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "answer-cache.h"
#include "cache.h"
#include "child.h"
#include "compat.h"
#include "conf.h"
#include "decompress.h"
#include "input.h"
#include "json-doc.h"
#include "profile.h"
#include "profile-index.h"
#include "profpath.h"
#include "proto.h"
#include "reader.h"
#include "reader-view.h"
#include "rundir.h"
#include "server.h"
#include "testhook.h"

/*
 * deepq-server FILE: load one profile, then serve queries about it from
 * a FIFO in the runtime directory until idle or told to stop
 * (deepq-server(8)). Started by a client (deepq.cgi, deepq query) with
 * -R, or by hand, when it detaches itself the same way.
 */

/* How long a failed load waits for its starter's lock: 3 s of 10 ms naps. */
#define MAIN_UNLINK_TRIES	300

static int	 main_readyfd = -1;
static char	 main_alarm_msg[96];
/* The server while it loads, for the load_timeout signal's clean-up. */
static struct server	*main_loading;
static char	*main_argarea;		/* argv's strings, for server_title */
static size_t	 main_arglen;

/* The command line. */
struct main_args {
	const char	*conffile, *idle, *key, *rundir, *sources;
	const char	*file;
	int		 foreground;
};

static void	 usage(void) __attribute__((__noreturn__));
static void	 main_fail(struct server *, char *, int)
		    __attribute__((__noreturn__));
static void	 main_rundir_fail(char *) __attribute__((__noreturn__));
static void	 main_args(int, char **, struct main_args *);
static struct config *main_config(struct main_args *);
static void	 main_start(int, const struct config *);
static void	 main_claim(struct server *, const char *);
static char	*main_load(struct server *, const struct config *,
		    struct input *, const struct stat *);
static void	 main_fifo(struct server *);
static void	 main_settings(struct server *, const struct config *,
		    const char *);
static void	 main_load_signal(int);
static void	 main_ready(char, const char *);
static void	 main_unlink_rendezvous(struct server *);
static int	 main_daemon(void);
static void	 main_sanitize(int);
static char	*main_cache_path(const struct config *, const char *,
		    const char *);
static void	 main_cache_write(struct server *, const char *,
		    const struct stat *, int);

static void
usage(void)
{
	fatalx("usage: deepq-server [-d] [-f config] [-i seconds] [-k key] "
	    "[-R fd] [-r dir] [-s dirs] file");
}

/*
 * While loading there is nothing to clean up (no FIFO yet; the kernel
 * drops our locks): a signal just ends us, and SIGALRM (load_timeout)
 * says why to whoever waits. Only async-signal-safe calls.
 */
static void
main_load_signal(int sig)
{
	if (sig == SIGALRM && main_readyfd != -1)
		(void)write(main_readyfd, main_alarm_msg,
		    strlen(main_alarm_msg));
	if (sig == SIGALRM && main_loading != NULL)
		main_unlink_rendezvous(main_loading);
	_exit(1);
}

/*
 * A load that failed leaves nothing in the runtime directory: while we
 * still hold the liveness lock, take the profile's lock and remove both
 * files, each only if it is the very file we hold. The client that
 * started us holds that lock until it has read why we failed, so this
 * runs after telling it, and waits for the lock a bounded while (a
 * client that keeps it longer will look again; a client that opened
 * the lock file before sees it gone once it has it, and opens the new
 * one: client.c, client_lock_gone). Only async-signal-safe calls: the
 * load_timeout signal calls this too.
 */
static void
main_unlink_rendezvous(struct server *s)
{
	const struct timespec	 nap = { 0, 10 * 1000 * 1000 };
	struct stat		 a, b;
	int			 tries;

	if (s->dirfd == -1 || s->lockfd == -1 || s->alivefd == -1)
		return;
	for (tries = 0; flock(s->lockfd, LOCK_EX | LOCK_NB) == -1; tries++)
		if ((errno != EWOULDBLOCK && errno != EINTR) ||
		    tries == MAIN_UNLINK_TRIES)
			return;
		else
			(void)nanosleep(&nap, NULL);
	if (fstat(s->alivefd, &a) == 0 && fstatat(s->dirfd, s->alivename,
	    &b, AT_SYMLINK_NOFOLLOW) == 0 && a.st_dev == b.st_dev &&
	    a.st_ino == b.st_ino)
		(void)unlinkat(s->dirfd, s->alivename, 0);
	if (fstat(s->lockfd, &a) == 0 && fstatat(s->dirfd, s->lockname,
	    &b, AT_SYMLINK_NOFOLLOW) == 0 && a.st_dev == b.st_dev &&
	    a.st_ino == b.st_ino)
		(void)unlinkat(s->dirfd, s->lockname, 0);
	(void)flock(s->lockfd, LOCK_UN);
}

/* Tell the starter something; an error ends the conversation. */
static void
main_ready(char c, const char *msg)
{
	if (main_readyfd == -1)
		return;
	if (write(main_readyfd, &c, 1) == -1 ||
	    (msg != NULL && write(main_readyfd, msg, strlen(msg)) == -1))
		(void)0;	/* the starter gave up waiting: fine */
	if (msg != NULL || c == PROTO_READY_BUSY) {
		close(main_readyfd);
		main_readyfd = -1;
	}
}

/*
 * Started by hand: fork, setsid, fork (the server is no session leader
 * and not the process its caller waits for), and have the first process
 * wait for the readiness pipe so that `deepq-server FILE' reports a load
 * error and exits 0 only once serving. Returns the pipe in the server.
 */
static int
main_daemon(void)
{
	char	 c, buf[1024];
	ssize_t	 n;
	size_t	 len = 0;
	pid_t	 pid;
	int	 p[2], status;

	if (pipe2(p, O_CLOEXEC) == -1)
		fatal("pipe");
	if ((pid = fork()) == -1)
		fatal("fork");
	if (pid == 0) {
		close(p[0]);
		if (setsid() == -1)
			_exit(1);
		if ((pid = fork()) != 0)
			_exit(pid == -1);
		return (p[1]);
	}
	close(p[1]);
	(void)waitpid(pid, &status, 0);
	for (;;) {
		if ((n = read(p[0], &c, 1)) <= 0)
			fatalx("the server exited while starting");
		if (c == PROTO_READY_OK)
			exit(0);
		if (c == PROTO_READY_BUSY)
			fatalx("a server for this profile is already running");
		if (c == PROTO_READY_ERROR)
			break;
	}
	while (len < sizeof buf - 1 && (n = read(p[0], buf + len,
	    sizeof buf - 1 - len)) > 0)
		len += n;
	buf[len] = '\0';
	fatalx("%s", buf);
}

/*
 * Detach (daemon(7)): /dev/null on fds 0-2, every other inherited fd
 * closed, umask 077, cwd /, and an environment holding nothing of the
 * request that started us.
 */
static void
main_sanitize(int keep)
{
	int	 null;

	if ((null = open("/dev/null", O_RDWR)) == -1)
		fatal("/dev/null");
	if (dup2(null, 0) == -1 || dup2(null, 1) == -1 ||
	    dup2(null, 2) == -1)
		exit(1);
	if (null > 2)
		close(null);
	child_closefrom(3, &keep, keep >= 3 ? 1 : 0);
	umask(077);
	if (chdir("/") == -1)
		exit(1);
	if (child_env_reset() == -1)
		exit(1);
}

/*
 * The cache file of this profile (cache_dir, deepq.conf(5)), its
 * directory created private like the runtime directory; NULL (logged)
 * when there is none to use: the server then just loads the source.
 */
static char *
main_cache_path(const struct config *cfg, const char *rundir,
    const char *key)
{
	char	*dir, *path = NULL, *cause = NULL;
	int	 fd;

	if ((dir = conf_cache_dir(cfg, rundir, &cause)) == NULL ||
	    (fd = rundir_open(dir, 1, &cause)) == -1) {
		log_warnx("cache: %s", cause ? cause : "out of memory");
		free(cause);
		free(dir);
		return (NULL);
	}
	close(fd);
	if (asprintf(&path, "%s/%s.cache", dir, key) == -1)
		path = NULL;
	free(dir);
	return (path);
}

/*
 * Rename this process in ps(1) and /proc/PID/cmdline by rewriting argv's
 * strings in place: the cache writer must not pass for a server (clients
 * and tests find servers by their command line).
 */
void
server_title(const char *title)
{
	if (main_argarea == NULL || main_arglen == 0)
		return;
	memset(main_argarea, 0, main_arglen);
	strncpy(main_argarea, title, main_arglen - 1);
}

/*
 * Write the cache of a profile just loaded from its source, in a child
 * so that the server is ready at once whatever the write costs. The
 * child shares the profile copy-on-write (nothing in it is written) and
 * first closes every rendezvous fd, so that it holds no lock and is no
 * server; it dies with the server (child_tie: a server that exits
 * within seconds of its load leaves no cache, the next one writes it;
 * what is written is only ever renamed into place once complete,
 * cache_write) and after a load's time of CPU. The server reaps it
 * (server.c).
 */
static void
main_cache_write(struct server *s, const char *path, const struct stat *st,
    int load_timeout)
{
	char	*cause = NULL;
	pid_t	 pid, server = getpid();

	if (s->profile->extra != NULL) {
		log_info("%s: format %s is not cached", s->path,
		    s->profile->format);
		return;
	}
	if ((pid = fork()) == -1) {
		log_warn("cache: fork");
		return;
	}
	if (pid != 0) {
		s->cache_writer = pid;
		return;
	}
	if (child_tie(server) == -1)
		_exit(1);
	server_title("deepq-server: cache writer");
	if (s->fifofd != -1)
		close(s->fifofd);
	if (s->alivefd != -1)
		close(s->alivefd);
	close(s->lockfd);
	close(s->dirfd);
	if (s->readyfd != -1)
		close(s->readyfd);
	child_limit_cpu((unsigned int)load_timeout);
	if (cache_write(s->profile, profile_index_callgraph(s->index, NULL),
	    path, st, &cause) == -1)
		log_warnx("cache: %s", cause ? cause : "out of memory");
	_exit(0);
}

/*
 * A failed start: the starter hears why (the load's cause, or that the
 * profile is too large), nothing is left in the runtime directory, and
 * the log has it (stderr in the foreground, syslog once detached).
 */
static void
main_fail(struct server *s, char *cause, int too_large)
{
	const char	*errstr = cause != NULL ? cause : "out of memory";

	main_ready(too_large ? PROTO_READY_TOOLARGE : PROTO_READY_ERROR,
	    errstr);
	main_unlink_rendezvous(s);
	fatalx("%s", errstr);
}

/*
 * The runtime directory failed us (no inode, no space, no descriptor...):
 * the client says so with 503, not as a bad profile, and shows no path;
 * the log has the whole cause. Called with errno still that of the
 * failure.
 */
static void
main_rundir_fail(char *cause)
{
	char	 buf[256];
	int	 saved = errno;

	snprintf(buf, sizeof buf, "%s%s", PROTO_READY_RUNDIR,
	    strerror(saved));
	main_ready(PROTO_READY_ERROR, buf);
	fatalx("%s", cause != NULL ? cause : "runtime directory");
}

/* The command line into a, or the usage. */
static void
main_args(int argc, char **argv, struct main_args *a)
{
	int	 ch;

	memset(a, 0, sizeof *a);
	if (argc > 0) {
		main_argarea = argv[0];
		main_arglen = argv[argc - 1] + strlen(argv[argc - 1]) + 1 -
		    argv[0];
	}
	while ((ch = getopt(argc, argv, "df:i:k:R:r:s:")) != -1) {
		switch (ch) {
		case 'd':
			a->foreground = 1;
			break;
		case 'f':
			a->conffile = optarg;
			break;
		case 'i':
			a->idle = optarg;
			break;
		case 'k':
			a->key = optarg;
			break;
		case 'R':
			main_readyfd = (int)strtol(optarg, NULL, 10);
			if (main_readyfd < 3 || fcntl(main_readyfd, F_GETFD) ==
			    -1)
				main_readyfd = -1;
			break;
		case 'r':
			a->rundir = optarg;
			break;
		case 's':
			/* Who starts us says: deepq web --source. */
			a->sources = optarg;
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 1)
		usage();
	a->file = argv[optind];
}

/*
 * The configuration with the command line's overrides, and the limits
 * of a load it sets; a bad one is said to the starter and to stderr (the
 * log is not open yet).
 */
static struct config *
main_config(struct main_args *a)
{
	struct config	*cfg;
	char		*cause = NULL;

	if ((cfg = conf_load(a->conffile, &cause)) == NULL ||
	    (a->idle != NULL && conf_set(cfg, "idle_timeout", a->idle,
	    &cause) == -1) || (a->sources != NULL && conf_set(cfg,
	    "source_root", a->sources, &cause) == -1)) {
		main_ready(PROTO_READY_ERROR, cause);
		fatalx("%s", cause ? cause : "out of memory");
	}
	if (a->rundir == NULL &&
	    (a->rundir = conf_runtime_dir(cfg, &cause)) == NULL)
		fatalx("%s", cause);
	/* The profile's and every base's decompressed-size limit. */
	input_set_default_limit(cfg->max_decompressed << 20);
	json_doc_set_max(cfg->max_json << 20);
	/* A decoding process is part of a load: no longer than one. */
	decompress_set_cpu_limit((unsigned int)cfg->load_timeout);
	return (cfg);
}

/* Detach unless in the foreground, open the log, set the signals. */
static void
main_start(int foreground, const struct config *cfg)
{
	struct sigaction	 sa;

	if (!foreground) {
		if (main_readyfd == -1)
			main_readyfd = main_daemon();
		main_sanitize(main_readyfd);
	}
	log_init(foreground, "deepq-server");

	/* Until the loop runs, a signal just ends us (see above). */
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = main_load_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);
	snprintf(main_alarm_msg, sizeof main_alarm_msg,
	    "%cloading took longer than load_timeout (%d s)",
	    PROTO_READY_ERROR, cfg->load_timeout);
}

/*
 * Claim the profile in the runtime directory: its lock and liveness
 * files, the liveness lock held and the file saying who serves it. A
 * server already there: say so and exit 0.
 */
static void
main_claim(struct server *s, const char *rundir)
{
	struct timespec	 started;
	char		*cause = NULL, buf[4200];	/* pid, path, time */
	int		 n;

	s->rundir = rundir;
	if ((s->dirfd = rundir_open(rundir, 1, &cause)) == -1)
		main_rundir_fail(cause);
	if (fstat(s->dirfd, &s->dirst) == -1 ||
	    proto_name(s->lockname, sizeof s->lockname, s->key, PROTO_LOCK,
	    NULL) == -1 ||
	    proto_name(s->alivename, sizeof s->alivename, s->key, PROTO_ALIVE,
	    NULL) == -1 ||
	    proto_name(s->fifoname, sizeof s->fifoname, s->key, PROTO_FIFO,
	    NULL) == -1)
		main_fail(s, strdup("runtime directory names"), 0);
	if ((s->lockfd = rundir_file(s->dirfd, s->lockname, 1, &cause)) ==
	    -1 || (s->alivefd = rundir_file(s->dirfd, s->alivename, 1,
	    &cause)) == -1)
		main_rundir_fail(cause);
	/* Short waits: a client may be testing the lock this instant. */
	if (rundir_lock(s->alivefd, LOCK_EX, 500, NULL) == -1) {
		main_ready(PROTO_READY_BUSY, NULL);
		log_info("%s: already served", s->path);
		exit(0);
	}
	/*
	 * The start time too: a client that sent us a request tells us
	 * from a server that replaced us (killed) even with our pid.
	 */
	clock_gettime(CLOCK_REALTIME, &started);
	n = snprintf(buf, sizeof buf, "%ld\n%s\n%lld.%09ld\n",
	    (long)getpid(), s->path, (long long)started.tv_sec,
	    started.tv_nsec);
	if (ftruncate(s->alivefd, 0) == -1 || n < 0 ||
	    (size_t)n >= sizeof buf || pwrite(s->alivefd, buf, n, 0) != n)
		main_fail(s, strdup("cannot write the liveness file"), 0);
	main_ready(PROTO_READY_LOCKED, NULL);
}

/*
 * Load the profile, from its cache when there is a good one, within
 * load_timeout and max_memory; then what its first queries need.
 * Returns the cache file's path to write (or NULL).
 */
static char *
main_load(struct server *s, const struct config *cfg, struct input *in,
    const struct stat *st)
{
	struct rlimit	 rl;
	struct stat	 pst;
	char		*cachepath, *cause = NULL;
	long long	 t0;
	int		 too_large = 0;

	main_loading = s;
	rl.rlim_cur = rl.rlim_max = 0;
	setrlimit(RLIMIT_CORE, &rl);
	if (cfg->max_memory != 0) {
		rl.rlim_cur = rl.rlim_max = cfg->max_memory * 1024 * 1024;
		if (setrlimit(RLIMIT_AS, &rl) == -1)
			log_warn("setrlimit RLIMIT_AS");
	}
	alarm(cfg->load_timeout);
	testhook_pause("server-load");
	t0 = rundir_now();
	cachepath = main_cache_path(cfg, s->rundir, s->key);
	if (cachepath != NULL &&
	    (s->profile = cache_load(cachepath, st, &cause)) != NULL)
		s->from_cache = 1;
	else if (cachepath != NULL) {
		/* A missing cache is the normal first load: no noise. */
		if (faccessat(AT_FDCWD, cachepath, F_OK,
		    AT_SYMLINK_NOFOLLOW) == 0) {
			log_info("%s: not using the cache: %s", s->path,
			    cause ? cause : "out of memory");
			(void)unlink(cachepath);
		}
		free(cause);
		cause = NULL;
	}
	if (s->profile == NULL) {
		s->profile = reader_load_input(in, NULL, NULL, &cause);
		too_large = in->too_large;
	}
	input_free(in);
	alarm(0);
	main_loading = NULL;
	if (s->profile == NULL)
		main_fail(s, cause, too_large);
	/*
	 * What a function's first page needs (the call graph, each
	 * function's call nodes) is built now, with the load: no query
	 * then pays a pass over every call node. Without it (out of
	 * memory) queries build what they need as they come.
	 */
	if ((s->index = profile_index_create(s->profile)) == NULL)
		main_fail(s, NULL, 0);
	if (profile_index_prepare(s->index, NULL) == -1)
		log_warnx("%s: the profile's index: out of memory", s->path);
	s->load_time = (double)(rundir_now() - t0) / 1000;
	if (s->profile->source == NULL)
		s->profile->source = strdup(s->path);
	/* A view's password file: no client may have it served. */
	if (reader_view_secret(s->profile, &pst) &&
	    rundir_secret_mark(s->dirfd, &pst) == -1)
		log_warn("%s: cannot mark the password file", s->path);
	return (cachepath);
}

/*
 * The FIFO is made under a temporary name and renamed into place:
 * clients see no FIFO, or one a ready server reads. From here no signal
 * may kill us without the FIFO being removed.
 */
static void
main_fifo(struct server *s)
{
	sigset_t	 set;
	char		*cause = NULL, tmpname[PROTO_NAME_MAX];
	char		 id[PROTO_ID_LEN + 1];
	int		 saved;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigprocmask(SIG_BLOCK, &set, NULL);

	if (proto_id_new(id, &cause) == -1 ||
	    proto_name(tmpname, sizeof tmpname, s->key, PROTO_FIFO, id) == -1)
		main_fail(s, cause, 0);
	if (rundir_mkfifo(s->dirfd, tmpname, &cause) == -1)
		main_rundir_fail(cause);
	if ((s->fifofd = rundir_fifo(s->dirfd, tmpname, O_RDWR, &cause)) ==
	    -1 || fstat(s->fifofd, &s->fifost) == -1 ||
	    renameat(s->dirfd, tmpname, s->dirfd, s->fifoname) == -1) {
		saved = errno;
		(void)unlinkat(s->dirfd, tmpname, 0);
		errno = saved;
		if (cause == NULL)
			cause = strdup(strerror(errno));
		main_rundir_fail(cause);
	}
}

/* What the loop needs from the configuration. */
static void
main_settings(struct server *s, const struct config *cfg,
    const char *cachepath)
{
	s->idle_timeout = cfg->idle_timeout;
	s->want_max_age = cfg->want_max_age;
	s->write_timeout = cfg->write_timeout;
	s->max_workers = cfg->max_workers;
	s->worker_memory = cfg->worker_memory << 20;
	s->max_body = cfg->max_answer << 20;
	s->max_cost = cfg->max_cost;
	s->source_roots = cfg->source_root;
	s->load_timeout = cfg->load_timeout;
	/* Waiting longer for a base than the client waits is no use. */
	s->base_wait = cfg->query_timeout > 2 ? cfg->query_timeout - 2 : 1;
	if (s->base_wait > cfg->load_timeout)
		s->base_wait = cfg->load_timeout;
	server_base_init(s);
	if (cachepath != NULL && (s->cache_dir = strdup(cachepath)) != NULL)
		*strrchr(s->cache_dir, '/') = '\0';
	/*
	 * Past query_timeout no client waits for the answer: stop at nine
	 * tenths of it, so that the client still reads why.
	 */
	s->max_msec = (uint64_t)cfg->query_timeout * 900;
	if (cfg->answer_cache > 0 && (s->acache = answer_cache_create(
	    (size_t)cfg->answer_cache << 20)) == NULL)
		log_warnx("answer cache: out of memory; running without");
	s->started = time(NULL);
	s->readyfd = main_readyfd;
	main_readyfd = -1;
}

int
main(int argc, char **argv)
{
	struct server		 s;
	struct main_args	 a;
	struct config		*cfg;
	struct input		*in;
	struct stat		 st;
	char			*cause = NULL, *cachepath;

	/*
	 * A fixed mmap threshold. glibc's own starts at 128 KB and grows to
	 * the size of every mapped block freed, so after the first derived
	 * structure's temporaries (tens of MB at 10^7 call nodes) the next
	 * ones come from the heap, whose free space a long-lived server
	 * never gives back: RSS that holds no data. Fixed, a large block is
	 * always its own mapping, unmapped when freed.
	 */
	compat_mmap_threshold(256 * 1024);

	main_args(argc, argv, &a);
	memset(&s, 0, sizeof s);
	s.dirfd = s.fifofd = s.lockfd = s.alivefd = s.readyfd = -1;
	if ((s.path = realpath(a.file, NULL)) == NULL)
		fatal("%s", a.file);
	cfg = main_config(&a);
	main_start(a.foreground, cfg);

	/* No link followed: the key says which file the client opened. */
	if ((in = server_input(s.path, 0, 0, &st, &cause)) == NULL)
		main_fail(&s, cause, 0);
	profpath_key(&st, s.key);
	if (a.key != NULL && strcmp(a.key, s.key) != 0)
		main_fail(&s, strdup("the file changed while the server "
		    "started"), 0);
	main_claim(&s, a.rundir);
	cachepath = main_load(&s, cfg, in, &st);
	main_fifo(&s);
	main_settings(&s, cfg, cachepath);
	log_info("%s: loaded in %.3f s (%s%s)", s.path, s.load_time,
	    s.profile->format, s.from_cache ? ", from the cache" : "");
	if (cachepath != NULL && !s.from_cache)
		main_cache_write(&s, cachepath, &st, cfg->load_timeout);
	free(cachepath);

	server_run(&s);

	if (s.alivefd != -1)
		close(s.alivefd);
	close(s.lockfd);
	close(s.dirfd);
	server_base_free(&s);
	answer_cache_free(s.acache);
	free(s.cache_dir);
	profile_index_free(s.index);
	profile_free(s.profile);
	conf_free(cfg);
	free((char *)s.path);
	return (0);
}
