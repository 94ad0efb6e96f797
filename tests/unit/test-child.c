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

#include <sys/resource.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child.h"
#include "tap.h"

/* The process hygiene of every helper (common/child.c). */

/* Run fn in a child; its exit status (or 128 + signal). */
static int
in_child(int (*fn)(void *), void *arg)
{
	pid_t	 pid;
	int	 status;

	fflush(stdout);
	if ((pid = fork()) == 0)
		_exit(fn(arg));
	if (pid == -1 || waitpid(pid, &status, 0) != pid)
		return (-1);
	return (WIFEXITED(status) ? WEXITSTATUS(status) :
	    128 + WTERMSIG(status));
}

/* Is pid running (not gone, not a zombie waiting for its reaper)? */
static int
running(pid_t pid)
{
	char	 path[64], buf[256], *r;
	FILE	*f;
	int	 yes = 0;

	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	if ((f = fopen(path, "r")) == NULL)
		return (0);
	if (fgets(buf, sizeof buf, f) != NULL && (r = strrchr(buf, ')')) !=
	    NULL && r[1] == ' ')
		yes = r[2] != 'Z' && r[2] != 'X';
	fclose(f);
	return (yes);
}

/* 0 when exactly the expected descriptors among 3..200 are open. */
static int
closefrom_child(void *arg)
{
	int	 fds[6], keep[2], i, open_;

	(void)arg;
	for (i = 0; i < 6; i++) {
		if ((fds[i] = fcntl(0, F_DUPFD, 20 + i * 30)) == -1)
			return (10);
	}
	/* Kept in any order, duplicates and ones below lowfd allowed. */
	keep[0] = fds[4];
	keep[1] = fds[1];
	child_closefrom(fds[1] - 1, keep, 2);
	for (i = 0; i < 6; i++) {
		open_ = fcntl(fds[i], F_GETFD) != -1;
		if (open_ != (i == 0 || i == 1 || i == 4))
			return (20 + i);
	}
	child_closefrom(3, NULL, 0);
	for (i = 3; i < 256; i++)
		if (fcntl(i, F_GETFD) != -1)
			return (40);
	return (0);
}

static int
env_child(void *arg)
{
	char	*envp[CHILD_ENV_MAX], *v;
	size_t	 n, i;

	(void)arg;
	setenv("QUERY_STRING", "file=x", 1);
	setenv("HTTP_HOST", "evil", 1);
	setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
	setenv("LD_PRELOAD", "/tmp/x.so", 1);
	n = child_env(envp, CHILD_ENV_MAX);
	if (n < 2 || strcmp(envp[0], "PATH=/usr/bin:/bin") != 0 ||
	    envp[n] != NULL)
		return (10);
	for (i = 1; i < n; i++) {
		if (strncmp(envp[i], "ASAN_OPTIONS=", 13) != 0 &&
		    strncmp(envp[i], "LSAN_OPTIONS=", 13) != 0 &&
		    strncmp(envp[i], "UBSAN_OPTIONS=", 14) != 0 &&
		    strncmp(envp[i], "GLIBC_TUNABLES=", 15) != 0 &&
		    strncmp(envp[i], "DEEPQ_TEST_HOOKS=", 17) != 0)
			return (11);
	}
	if (child_env_reset() == -1)
		return (12);
	if (getenv("QUERY_STRING") != NULL || getenv("HTTP_HOST") != NULL ||
	    getenv("LD_PRELOAD") != NULL)
		return (13);
	if ((v = getenv("ASAN_OPTIONS")) == NULL ||
	    strcmp(v, "detect_leaks=0") != 0)
		return (14);
	if ((v = getenv("PATH")) == NULL || strcmp(v, "/usr/bin:/bin") != 0)
		return (15);
	return (0);
}

/*
 * A helper of a helper: the middle one dies, the last one must too. The
 * last ties itself to the middle one, writes its pid to the pipe and
 * waits for ever. The middle one ends only once the last has tied: were
 * it gone first, child_tie would rightly refuse (the parent is init's
 * now), and a busy machine makes that order likely.
 */
static int
tie_child(void *arg)
{
	int	*p = arg, q[2];
	pid_t	 me = getpid(), pid;
	char	 c;

	if (pipe(q) == -1)
		return (1);
	if ((pid = fork()) == 0) {
		close(q[0]);
		if (child_tie(me) == -1)
			_exit(1);
		pid = getpid();
		(void)write(p[1], &pid, sizeof pid);
		(void)write(q[1], "t", 1);
		for (;;)
			pause();
	}
	close(q[1]);
	/* One byte once tied; end of file if the helper failed. */
	if (pid == -1 || read(q[0], &c, 1) != 1)
		return (1);
	return (0);
}

/* A parent already gone: child_tie says so. */
static int
tie_late_child(void *arg)
{
	(void)arg;
	return (child_tie(getppid() + 1) == -1 ? 0 : 1);
}

static int
cpu_child(void *arg)
{
	volatile uint64_t	 x = 0;

	(void)arg;
	child_limit_cpu(1);
	for (;;)
		x++;
	return (0);
}

static int
memory_child(void *arg)
{
	struct rlimit	 rl;

	(void)arg;
	if (child_limit_memory(64 << 20) == -1)
		return (10);
	if (getrlimit(RLIMIT_AS, &rl) == -1 || rl.rlim_cur == RLIM_INFINITY)
		return (11);
	return (0);
}

int
main(void)
{
	pid_t	 pid;
	int	 p[2], r, i;

	is_int(in_child(closefrom_child, NULL), 0,
	    "closefrom: the kept ones stay, the others close, the rest too");
	is_int(in_child(env_child, NULL), 0,
	    "env: PATH and the allowlist only, for exec and in place");

	if (pipe(p) == -1)
		return (1);
	r = in_child(tie_child, p);
	is_int(r, 0, "tie: the middle process ends");
	/* Ours closed: a helper that never wrote is end of file, no hang. */
	close(p[1]);
	pid = 0;
	ok(read(p[0], &pid, sizeof pid) == sizeof pid && pid > 0,
	    "tie: the helper started");
	for (i = 0; i < 500 && running(pid); i++)
		usleep(10000);
	/* Reparented to whoever reaps orphans: gone, or a zombie. */
	ok(!running(pid), "tie: the helper died with its parent (%d ms)",
	    i * 10);
	if (running(pid))
		kill(pid, SIGKILL);
	close(p[0]);
	is_int(in_child(tie_late_child, NULL), 0,
	    "tie: a parent that is not ours any more is refused");
	is_int(in_child(cpu_child, NULL), 128 + SIGXCPU,
	    "cpu: a spinning helper ends at its limit");
	is_int(in_child(memory_child, NULL), 0, "memory: RLIMIT_AS set");
	return (tap_done());
}
