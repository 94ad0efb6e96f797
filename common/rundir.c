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
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cause.h"
#include "profpath.h"
#include "proto.h"
#include "rundir.h"

/*
 * The runtime directory and the files in it (see rundir.h). The checks
 * follow chg's preparesockdir and the XDG rules: S_ISDIR, st_uid ==
 * geteuid(), (st_mode & 077) == 0, and for files also the type, and one
 * link so a hard link cannot smuggle a foreign inode in.
 */

static int	rundir_check(const struct stat *, mode_t, const char *,
		    char **);

/* Milliseconds on the monotonic clock. */
long long
rundir_now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

/* Is st a safe file of type `type' for us? -1 with errno EPERM if not. */
static int
rundir_check(const struct stat *st, mode_t type, const char *name,
    char **cause)
{
	if ((st->st_mode & S_IFMT) != type) {
		cause_set(cause, "%s: %s", name, S_ISLNK(st->st_mode) ?
		    "is a symbolic link" : "unexpected file type");
		goto fail;
	}
	if (st->st_uid != geteuid()) {
		cause_set(cause, "%s: owned by uid %lu, not %lu", name,
		    (unsigned long)st->st_uid, (unsigned long)geteuid());
		goto fail;
	}
	if ((st->st_mode & 077) != 0) {
		cause_set(cause, "%s: mode %04o allows group or other access",
		    name, (unsigned int)(st->st_mode & 07777));
		goto fail;
	}
	if (type != S_IFDIR && st->st_nlink != 1) {
		cause_set(cause, "%s: has %lu links", name,
		    (unsigned long)st->st_nlink);
		goto fail;
	}
	return (0);
fail:
	errno = EPERM;
	return (-1);
}

/* Check an open directory fd is a private directory of ours. */
int
rundir_verify(int fd, const char *path, char **cause)
{
	struct stat	 st;

	if (fstat(fd, &st) == -1) {
		cause_set(cause, "%s: %s", path, strerror(errno));
		return (-1);
	}
	return (rundir_check(&st, S_IFDIR, path, cause));
}

/*
 * Open (with create, make: mode 0700) the runtime directory and verify
 * it. Only the last component is refused if it is a symbolic link:
 * /var/run is one on many systems; what matters is who owns the
 * directory we end up in. Returns its fd.
 */
int
rundir_open(const char *path, int create, char **cause)
{
	int	 fd, saved;

	if (create && mkdir(path, 0700) == -1 && errno != EEXIST) {
		cause_set(cause, "mkdir %s: %s", path, strerror(errno));
		return (-1);
	}
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd == -1) {
		saved = errno;
		if (errno == ELOOP || errno == ENOTDIR)
			cause_set(cause, "%s: not a directory (or a symbolic "
			    "link): refused", path);
		else
			cause_set(cause, "%s: %s", path, strerror(errno));
		errno = saved;
		return (-1);
	}
	if (rundir_verify(fd, path, cause) == -1) {
		close(fd);
		errno = EPERM;
		return (-1);
	}
	return (fd);
}

/*
 * Open a private regular file in the directory, read-write. create 0:
 * it must exist; 1: created if missing; 2: must be new (O_EXCL). Whatever
 * is there already is examined with fstatat(AT_SYMLINK_NOFOLLOW) before
 * it is opened and compared after, so a planted device, FIFO or link is
 * never opened. Returns the fd; -1 with errno (ENOENT, EEXIST, EPERM).
 */
int
rundir_file(int dirfd, const char *name, int create, char **cause)
{
	struct stat	 pre, st;
	int		 fd, flags, saved, existed;

	flags = O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY;
	existed = fstatat(dirfd, name, &pre, AT_SYMLINK_NOFOLLOW) == 0;
	if (existed) {
		if (create == 2) {
			cause_set(cause, "%s: exists", name);
			errno = EEXIST;
			return (-1);
		}
		if (rundir_check(&pre, S_IFREG, name, cause) == -1)
			return (-1);
	} else if (errno != ENOENT || create == 0) {
		saved = errno;
		cause_set(cause, "%s: %s", name, strerror(errno));
		errno = saved;
		return (-1);
	}
	if (create == 2 || !existed)
		flags |= O_CREAT | (create == 2 ? O_EXCL : 0);
	if ((fd = openat(dirfd, name, flags, 0600)) == -1) {
		saved = errno;
		cause_set(cause, "%s: %s", name, strerror(errno));
		errno = saved;
		return (-1);
	}
	if (fstat(fd, &st) == -1 ||
	    rundir_check(&st, S_IFREG, name, cause) == -1 ||
	    (existed && (st.st_dev != pre.st_dev ||
	    st.st_ino != pre.st_ino))) {
		if (existed && st.st_ino != pre.st_ino)
			cause_set(cause, "%s: replaced while opening", name);
		close(fd);
		errno = EPERM;
		return (-1);
	}
	return (fd);
}

/* Make a FIFO, mode 0600; fails if anything is at the name. */
int
rundir_mkfifo(int dirfd, const char *name, char **cause)
{
	int	 saved;

	if (mkfifoat(dirfd, name, 0600) == -1) {
		saved = errno;
		cause_set(cause, "mkfifo %s: %s", name, strerror(errno));
		errno = saved;
		return (-1);
	}
	return (0);
}

/*
 * Is there a FIFO of ours at name? 1 yes, 0 nothing there, -1 (errno
 * EPERM, *cause) something else is: a link, another type, another owner.
 */
int
rundir_fifo_check(int dirfd, const char *name, char **cause)
{
	struct stat	 st;
	int		 saved;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == -1) {
		if (errno == ENOENT)
			return (0);
		saved = errno;
		cause_set(cause, "%s: %s", name, strerror(errno));
		errno = saved;
		return (-1);
	}
	if (rundir_check(&st, S_IFIFO, name, cause) == -1)
		return (-1);
	return (1);
}

/*
 * Open a FIFO of ours, nonblocking (a write-only open fails with ENXIO
 * when nobody reads: the server is gone). -1 with errno ENOENT, ENXIO,
 * EPERM (not a safe FIFO) or other.
 */
int
rundir_fifo(int dirfd, const char *name, int mode, char **cause)
{
	struct stat	 pre, st;
	int		 fd, saved;

	if (rundir_fifo_check(dirfd, name, cause) != 1) {
		if (errno != EPERM)
			errno = ENOENT;
		return (-1);
	}
	if (fstatat(dirfd, name, &pre, AT_SYMLINK_NOFOLLOW) == -1 ||
	    (fd = openat(dirfd, name, mode | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC | O_NOCTTY)) == -1) {
		saved = errno;
		cause_set(cause, "%s: %s", name, strerror(errno));
		errno = saved;
		return (-1);
	}
	if (fstat(fd, &st) == -1 ||
	    rundir_check(&st, S_IFIFO, name, cause) == -1 ||
	    st.st_dev != pre.st_dev || st.st_ino != pre.st_ino) {
		close(fd);
		errno = EPERM;
		return (-1);
	}
	return (fd);
}

/*
 * flock(op) with a deadline of timeout_ms (0: one try), polling with
 * LOCK_NB and a short backoff so a dead holder (whose lock the kernel
 * dropped) or a slow one never hangs us; *cancel set by a signal handler
 * stops the wait. -1 with errno EWOULDBLOCK, ETIMEDOUT or ECANCELED.
 */
int
rundir_lock(int fd, int op, int timeout_ms, volatile sig_atomic_t *cancel)
{
	long long	 end = rundir_now() + timeout_ms;
	int		 delay = 1;

	for (;;) {
		if (flock(fd, op | LOCK_NB) == 0)
			return (0);
		if (errno != EWOULDBLOCK && errno != EINTR)
			return (-1);
		if (timeout_ms == 0) {
			errno = EWOULDBLOCK;
			return (-1);
		}
		if (cancel != NULL && *cancel) {
			errno = ECANCELED;
			return (-1);
		}
		if (rundir_now() >= end) {
			errno = ETIMEDOUT;
			return (-1);
		}
		(void)poll(NULL, 0, delay);
		if (delay < 16)
			delay *= 2;
	}
}

/*
 * Does somebody hold a lock on the file fd is open on? 1 yes, 0 no, -1
 * error. A shared try-lock succeeds only when nobody holds it exclusive.
 */
int
rundir_locked(int fd)
{
	if (flock(fd, LOCK_SH | LOCK_NB) == 0) {
		(void)flock(fd, LOCK_UN);
		return (0);
	}
	return (errno == EWOULDBLOCK ? 1 : -1);
}

/*
 * Secrets: a file a view names as its password file
 * (deepq-clickhouse(7)). The server that loads the view marks it here,
 * KEY.secret holding its size and mtime, and clients refuse to serve a
 * file so marked (file=, base=) as if it did not exist. The marks stay:
 * a password file is for the life of the deployment, and a mark whose
 * file changed (another inode, size or mtime) is ignored.
 */

/* The mark's text of the file st: "size sec nsec". */
static int
rundir_secret_text(const struct stat *st, char *buf, size_t len)
{
	int	 n;

	n = snprintf(buf, len, "%lld %lld %ld\n", (long long)st->st_size,
	    (long long)st->st_mtim.tv_sec, (long)st->st_mtim.tv_nsec);
	return (n < 0 || (size_t)n >= len ? -1 : n);
}

/* Mark the file st as a secret; 0, or -1 with errno. */
int
rundir_secret_mark(int dirfd, const struct stat *st)
{
	char	 key[PROTO_KEY_LEN + 1], name[PROTO_NAME_MAX], buf[96];
	int	 fd, n;

	profpath_key(st, key);
	if (proto_name(name, sizeof name, key, PROTO_SECRET, NULL) == -1 ||
	    (n = rundir_secret_text(st, buf, sizeof buf)) == -1) {
		errno = EINVAL;
		return (-1);
	}
	if ((fd = rundir_file(dirfd, name, 1, NULL)) == -1)
		return (-1);
	if (ftruncate(fd, 0) == -1 || pwrite(fd, buf, n, 0) != n) {
		n = errno;
		close(fd);
		errno = n;
		return (-1);
	}
	close(fd);
	return (0);
}

/* Is the file st marked a secret (and unchanged since)? 1 or 0. */
int
rundir_secret(int dirfd, const struct stat *st)
{
	char	 key[PROTO_KEY_LEN + 1], name[PROTO_NAME_MAX], buf[96];
	char	 want[96];
	ssize_t	 got;
	int	 fd, n;

	profpath_key(st, key);
	if (proto_name(name, sizeof name, key, PROTO_SECRET, NULL) == -1 ||
	    (n = rundir_secret_text(st, want, sizeof want)) == -1)
		return (0);
	if ((fd = rundir_file(dirfd, name, 0, NULL)) == -1)
		return (0);
	got = pread(fd, buf, sizeof buf, 0);
	close(fd);
	return (got == n && memcmp(buf, want, n) == 0);
}
