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
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cause.h"
#include "child.h"
#include "client-spawn.h"
#include "conf.h"

/* Start a detached deepq-server (see client-spawn.h). */

/*
 * The server's malloc puts its big arrays on transparent huge pages
 * (glibc's tunable; the kernel gives them only to memory that asks, as
 * Debian's does by default). A profile's arrays run to hundreds of MB,
 * walked at random: on 4 KB pages most of those accesses miss the TLB,
 * and on a virtual machine each miss walks two page tables. Loads of big
 * profiles take 1.15 to 1.4 times less (bench/tails.sh and
 * bench/json-big.sh, HUGETLB=0 for the comparison). A GLIBC_TUNABLES the
 * caller sets replaces it.
 */
#define CLIENT_SPAWN_TUNABLES	"GLIBC_TUNABLES=glibc.malloc.hugetlb=1"

static void	client_spawn_child(int, const char *, char *const *,
		    char *const *, const char *, size_t)
		    __attribute__((__noreturn__));

/*
 * The grandchild: only async-signal-safe calls from here to execve (the
 * parent may have threads, e.g. `deepq web'), everything it needs was
 * built before fork.
 */
static void
client_spawn_child(int wfd, const char *prog, char *const *argv,
    char *const *envp, const char *emsg, size_t emsglen)
{
	struct sigaction	 sa;
	sigset_t		 set;
	int			 fd, null, sig;

	if ((fd = fcntl(wfd, F_DUPFD, 10)) == -1)
		_exit(126);
	if ((null = open("/dev/null", O_RDWR)) == -1 ||
	    dup2(null, 0) == -1 || dup2(null, 1) == -1 || dup2(null, 2) == -1)
		_exit(126);
	if (dup2(fd, 3) == -1)
		_exit(126);
	child_closefrom(4, NULL, 0);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (sig = 1; sig < NSIG; sig++)
		(void)sigaction(sig, &sa, NULL);
	sigemptyset(&set);
	(void)sigprocmask(SIG_SETMASK, &set, NULL);
	umask(077);
	if (chdir("/") == -1)
		_exit(126);
	execve(prog, argv, envp);
	if (write(3, emsg, emsglen) == -1)
		_exit(127);
	_exit(127);
}

/*
 * Start deepq-server for the profile at path (canonical, with key) and
 * the runtime directory rundir. Returns the read end of the readiness
 * pipe: PROTO_READY_* bytes, then EOF when the server closes it or dies.
 */
int
client_spawn(const struct config *cfg, const char *rundir, const char *key,
    const char *path, char **cause)
{
	char		*argv[18], *envp[CHILD_ENV_MAX], idle[16], *emsg = NULL;
	size_t		 n = 0, ne, i;
	pid_t		 pid, w;
	int		 p[2], status, saved;

	snprintf(idle, sizeof idle, "%d", cfg->idle_timeout);
	argv[n++] = (char *)"deepq-server";
	if (cfg->path != NULL) {
		argv[n++] = (char *)"-f";
		argv[n++] = cfg->path;
	}
	argv[n++] = (char *)"-i";
	argv[n++] = idle;
	argv[n++] = (char *)"-k";
	argv[n++] = (char *)key;
	argv[n++] = (char *)"-R";
	argv[n++] = (char *)"3";
	argv[n++] = (char *)"-r";
	argv[n++] = (char *)rundir;
	/* The source roots as the front end has them (deepq web --source). */
	if (cfg->source_root[0] != '\0') {
		argv[n++] = (char *)"-s";
		argv[n++] = cfg->source_root;
	}
	argv[n++] = (char *)"--";
	argv[n++] = (char *)path;
	argv[n] = NULL;

	ne = child_env(envp, CHILD_ENV_MAX);
	for (i = 0; i < ne && strncmp(envp[i], "GLIBC_TUNABLES=", 15) != 0;
	    i++)
		;
	if (i == ne && ne < CHILD_ENV_MAX - 1) {
		envp[ne++] = (char *)CLIENT_SPAWN_TUNABLES;
		envp[ne] = NULL;
	}

	if (asprintf(&emsg, "Ecannot execute %s", cfg->server_path) == -1) {
		cause_set(cause, "out of memory");
		return (-1);
	}
	if (pipe2(p, O_CLOEXEC) == -1) {
		cause_set(cause, "pipe: %s", strerror(errno));
		free(emsg);
		return (-1);
	}
	if ((pid = fork()) == -1) {
		saved = errno;
		close(p[0]);
		close(p[1]);
		free(emsg);
		cause_set(cause, "fork: %s", strerror(saved));
		return (-1);
	}
	if (pid == 0) {
		/* A new session: the web server's signals stop here. */
		(void)setsid();
		if ((pid = fork()) != 0)
			_exit(pid == -1 ? 1 : 0);
		client_spawn_child(p[1], cfg->server_path, argv, envp, emsg,
		    strlen(emsg));
	}
	close(p[1]);
	free(emsg);
	do
		w = waitpid(pid, &status, 0);
	while (w == -1 && errno == EINTR);
	if (w == pid && (!WIFEXITED(status) || WEXITSTATUS(status) != 0)) {
		close(p[0]);
		cause_set(cause, "cannot start the server: fork failed");
		return (-1);
	}
	return (p[0]);
}
