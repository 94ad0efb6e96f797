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
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child.h"

/* Process hygiene of every process deepq starts (see child.h). */

extern char	**environ;

/*
 * The variables a started process keeps: the test hooks (test builds
 * only), the sanitizers' settings and glibc's tunables (client-spawn.c
 * sets one for the server). PATH is set, never inherited.
 */
static const char *const child_env_keep[] = {
#ifdef TESTHOOK_ENABLED
	"DEEPQ_TEST_HOOKS",
#endif
	"ASAN_OPTIONS",
	"LSAN_OPTIONS",
	"UBSAN_OPTIONS",
	"GLIBC_TUNABLES",
};
#define CHILD_NKEEP	(sizeof child_env_keep / sizeof child_env_keep[0])
#define CHILD_PATH	"PATH=/usr/bin:/bin"

/* Does "NAME=value" name a kept variable? */
static int
child_env_kept(const char *entry)
{
	size_t	 i, k;

	for (i = 0; i < CHILD_NKEEP; i++) {
		k = strlen(child_env_keep[i]);
		if (strncmp(entry, child_env_keep[i], k) == 0 &&
		    entry[k] == '=')
			return (1);
	}
	return (0);
}

/*
 * An environment for a program to run, into envp (max entries, CHILD_ENV_MAX
 * is enough): PATH, then the kept variables of this one, NULL last.
 * The strings are this environment's, not copied. Returns the count.
 */
size_t
child_env(char **envp, size_t max)
{
	char	**ep;
	size_t	 n = 0;

	if (max < 2) {
		if (max == 1)
			envp[0] = NULL;
		return (0);
	}
	envp[n++] = (char *)CHILD_PATH;
	for (ep = environ; *ep != NULL && n < max - 1; ep++) {
		if (child_env_kept(*ep))
			envp[n++] = *ep;
	}
	envp[n] = NULL;
	return (n);
}

/*
 * This process's own environment down to the same list (a process that
 * detaches without exec). 0, or -1 if out of memory (the environment
 * then holds PATH and what could be kept).
 */
int
child_env_reset(void)
{
	char	*saved[CHILD_NKEEP];
	char	**ep, *eq;
	size_t	 n = 0, i;
	int	 r = 0;

	for (ep = environ; ep != NULL && *ep != NULL && n < CHILD_NKEEP;
	    ep++) {
		if (child_env_kept(*ep) && (saved[n] = strdup(*ep)) != NULL)
			n++;
		else if (child_env_kept(*ep))
			r = -1;
	}
	clearenv();
	if (putenv((char *)CHILD_PATH) != 0)
		r = -1;
	for (i = 0; i < n; i++) {
		eq = strchr(saved[i], '=');
		*eq = '\0';
		if (setenv(saved[i], eq + 1, 1) == -1)
			r = -1;
		free(saved[i]);
	}
	return (r);
}

/* close_range(2), or -1 where the kernel lacks it. */
static int
child_close_range(int from, unsigned int to)
{
#ifdef SYS_close_range
	return ((int)syscall(SYS_close_range, (unsigned int)from, to, 0));
#else
	errno = ENOSYS;
	return (-1);
#endif
}

/*
 * Close every descriptor from lowfd on but the n in keep: close_range(2)
 * around them where the kernel has it, else each number up to the
 * descriptor limit (at least 65536) by hand. Async-signal-safe: for a
 * forked child of a threaded process. Not glibc's closefrom(), which
 * aborts when it can use neither close_range nor /proc (a chroot).
 */
void
child_closefrom(int lowfd, const int *keep, size_t n)
{
	struct rlimit	 rl;
	int		 k[8], from = lowfd, t, max = 65536, fd;
	size_t		 i, j, m = 0;

	/* The kept ones at or above lowfd, in increasing order. */
	for (i = 0; i < n && m < sizeof k / sizeof k[0]; i++) {
		if (keep[i] < lowfd)
			continue;
		for (j = m; j > 0 && k[j - 1] > keep[i]; j--)
			k[j] = k[j - 1];
		k[j] = keep[i];
		m++;
	}
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur > (rlim_t)max && rl.rlim_cur < (rlim_t)1 << 30)
		max = (int)rl.rlim_cur;
	for (i = 0; i <= m; i++) {
		t = i < m ? k[i] - 1 : -1;	/* -1: to the end */
		if (t != -1 && t < from) {
			from = k[i] + 1;
			continue;
		}
		if (child_close_range(from, t == -1 ? ~0U : (unsigned int)t) ==
		    -1) {
			for (fd = from; fd <= (t == -1 ? max : t); fd++)
				(void)close(fd);
		}
		if (i < m)
			from = k[i] + 1;
	}
}

/*
 * Die with parent: SIGKILL when it dies (PR_SET_PDEATHSIG), then check
 * that it has not died already, before the line above (the signal is
 * then never sent). -1 when it has: the caller exits at once.
 * Async-signal-safe. The signal follows the thread that forked us: the
 * caller forks from the thread that outlives its helper.
 */
int
child_tie(pid_t parent)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1)
		return (-1);
	if (getppid() != parent)
		return (-1);
	return (0);
}

/*
 * At most sec seconds of CPU: SIGXCPU then, SIGKILL a second later if
 * that was caught or ignored. 0: no change.
 */
void
child_limit_cpu(unsigned int sec)
{
	struct rlimit	 rl;

	if (sec == 0)
		return;
	rl.rlim_cur = sec;
	rl.rlim_max = (rlim_t)sec + 1;
	(void)setrlimit(RLIMIT_CPU, &rl);
}

/*
 * At most bytes more address space than this process has now (what it
 * shares with its parent copy-on-write is counted once, in what it has):
 * RLIMIT_AS. 0, or -1 when it cannot be set (no /proc: then unlimited).
 * An allocation past it fails, as malloc's NULL.
 */
int
child_limit_memory(uint64_t bytes)
{
	struct rlimit		 rl;
	unsigned long long	 pages;
	char			 buf[128];
	ssize_t			 n;
	long			 psz;
	int			 fd;

	if (bytes == 0)
		return (0);
	if ((fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)) == -1)
		return (-1);
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return (-1);
	buf[n] = '\0';
	if (sscanf(buf, "%llu", &pages) != 1 || (psz = sysconf(_SC_PAGESIZE))
	    <= 0)
		return (-1);
	if (getrlimit(RLIMIT_AS, &rl) == -1)
		return (-1);
	if (pages > (UINT64_MAX - bytes) / (uint64_t)psz)
		return (0);	/* no limit that high */
	if (rl.rlim_max == RLIM_INFINITY ||
	    pages * (uint64_t)psz + bytes <= rl.rlim_max)
		rl.rlim_max = pages * (uint64_t)psz + bytes;
	/* The hard limit too: the process cannot raise it again. */
	rl.rlim_cur = rl.rlim_max;
	return (setrlimit(RLIMIT_AS, &rl));
}
