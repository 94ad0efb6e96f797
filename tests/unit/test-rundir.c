/*
 * The runtime directory and the profile path checks: creation and
 * refusal of the directory, safe files in it (symbolic links, wrong
 * types, existing names), locks with deadlines, and file= confinement
 * and identity under a profile root.
 */

#include "config.h"

#include <sys/types.h>
#include <sys/file.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profpath.h"
#include "rundir.h"
#include "tap.h"

static char	 top[] = "/tmp/test-rundir.XXXXXX";
static char	 p[PATH_MAX], p2[PATH_MAX];

static int
rm_cb(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	chmod(path, 0700);
	return (remove(path) == -1 ? 0 : 0);
}

static const char *
at(const char *name)
{
	snprintf(p, sizeof p, "%s/%s", top, name);
	return (p);
}

/* A second buffer, for calls that take two paths. */
static const char *
at2(const char *name)
{
	snprintf(p2, sizeof p2, "%s/%s", top, name);
	return (p2);
}

static void
test_rundir(void)
{
	struct stat	 st;
	char		*cause = NULL;
	long long	 t0;
	int		 d, fd, fd2;

	d = rundir_open(at("run"), 1, NULL);
	ok(d != -1 && stat(at("run"), &st) == 0 &&
	    (st.st_mode & 07777) == 0700, "created 0700");
	fd = rundir_file(d, "a.lock", 1, NULL);
	ok(fd != -1, "lock file created");
	fd2 = rundir_file(d, "a.lock", 1, NULL);
	ok(fd2 != -1, "...and opened again");
	ok(rundir_file(d, "a.lock", 2, NULL) == -1 && errno == EEXIST,
	    "exclusive create of an existing name fails");
	ok(rundir_locked(fd) == 0, "nobody holds it");
	ok(rundir_lock(fd, LOCK_EX, 0, NULL) == 0, "lock taken");
	ok(rundir_locked(fd2) == 1, "...seen held through another open");
	t0 = rundir_now();
	ok(rundir_lock(fd2, LOCK_EX, 100, NULL) == -1 && errno == ETIMEDOUT &&
	    rundir_now() - t0 >= 100, "a held lock times out");
	close(fd);
	ok(rundir_lock(fd2, LOCK_EX, 100, NULL) == 0,
	    "closing the holder releases it");
	close(fd2);

	symlink(at("target"), at2("run/b.lock"));
	fd = open(at("target"), O_CREAT | O_WRONLY, 0600);
	close(fd);
	ok(rundir_file(d, "b.lock", 1, &cause) == -1 && errno == EPERM,
	    "symlink refused: %s", cause);
	free(cause);
	cause = NULL;
	ok(lstat(at("run/b.lock"), &st) == 0 && S_ISLNK(st.st_mode),
	    "...and left in place");
	ok(rundir_fifo_check(d, "b.lock", NULL) == -1, "not a FIFO either");
	ok(rundir_mkfifo(d, "c.fifo", NULL) == 0, "FIFO made");
	ok(rundir_fifo_check(d, "c.fifo", NULL) == 1, "FIFO seen");
	ok(rundir_fifo_check(d, "none.fifo", NULL) == 0, "no FIFO seen");
	ok(rundir_fifo(d, "c.fifo", O_WRONLY, NULL) == -1 && errno == ENXIO,
	    "nobody reads: ENXIO, no hang");
	fd = rundir_fifo(d, "c.fifo", O_RDONLY, NULL);
	ok(fd != -1, "reader opens without a writer");
	fd2 = rundir_fifo(d, "c.fifo", O_WRONLY, NULL);
	ok(fd2 != -1, "then a writer opens");
	close(fd);
	close(fd2);
	ok(rundir_file(d, "c.fifo", 1, NULL) == -1 && errno == EPERM,
	    "a FIFO is not opened as a lock file");
	close(d);

	ok(rundir_open(at("nonexistent"), 0, NULL) == -1 && errno == ENOENT,
	    "missing, not created");
	mkdir(at("open"), 0777);
	chmod(at("open"), 0777);
	ok(rundir_open(at("open"), 1, &cause) == -1, "mode 0777 refused: %s",
	    cause);
	free(cause);
	cause = NULL;
	ok(stat(at("open"), &st) == 0 && (st.st_mode & 0777) == 0777,
	    "...and not changed");
	symlink(at("run"), at2("link"));
	ok(rundir_open(at("link"), 1, &cause) == -1, "symlink refused: %s",
	    cause);
	free(cause);
}

static void
test_profpath(void)
{
	struct profpath	 a, b;
	char		*cause = NULL, *root, *base;
	int		 status, fd;

	mkdir(at("root"), 0755);
	mkdir(at("root/sub"), 0755);
	mkdir(at("outside"), 0755);
	fd = open(at("root/sub/x.folded"), O_CREAT | O_WRONLY, 0644);
	close(fd);
	fd = open(at("outside/secret"), O_CREAT | O_WRONLY, 0644);
	close(fd);
	symlink("sub/x.folded", at("root/alias"));
	symlink(at("outside/secret"), at2("root/out"));
	mkfifo(at("root/fifo"), 0644);

	ok(profpath_resolve(at("root"), "sub/x.folded", &a, &status,
	    NULL) == 0, "a file under the root");
	ok(profpath_resolve(at("root"), "./sub//x.folded", &b, &status,
	    NULL) == 0 && strcmp(a.key, b.key) == 0,
	    "another spelling: the same key");
	profpath_clear(&b);
	ok(profpath_resolve(at("root"), "alias", &b, &status, NULL) == 0 &&
	    strcmp(a.key, b.key) == 0 && strcmp(a.path, b.path) == 0,
	    "a symlink inside the root: the same file");
	profpath_clear(&b);
	profpath_clear(&a);

#define REFUSE(param, want, what) do {					\
	cause = NULL;							\
	ok(profpath_resolve(at("root"), param, &a, &status, &cause) ==	\
	    -1 && status == want, "%s: %d (%s)", what, status,		\
	    cause ? cause : "?");					\
	free(cause);							\
} while (0)
	REFUSE("../outside/secret", 403, "..");
	REFUSE("sub/../../outside/secret", 403, "inner ..");
	REFUSE("sub/..", 403, "trailing ..");
	REFUSE(at("outside/secret"), 403, "absolute");
	/* 404 as if missing: a 403 told that the link's target exists. */
	REFUSE("out", 404, "symlink out of the root");
	REFUSE("sub", 403, "directory");
	REFUSE("fifo", 403, "FIFO");
	REFUSE("nope", 404, "missing");
	REFUSE("", 400, "empty");
	REFUSE("a\nb", 400, "control character");
	cause = NULL;
	ok(profpath_resolve("", "x", &a, &status, &cause) == -1 &&
	    status == 500, "no profile root configured: 500");
	free(cause);

	ok(profpath_split(at("root/alias"), &root, &base, NULL) == 0 &&
	    strstr(root, "/root/sub") != NULL && strcmp(base, "x.folded") == 0,
	    "split: the canonical directory and base name");
	free(root);
	free(base);
}

int
main(void)
{
	if (mkdtemp(top) == NULL)
		return (1);
	test_rundir();
	test_profpath();
	nftw(top, rm_cb, 16, FTW_DEPTH | FTW_PHYS);
	return (tap_done());
}
