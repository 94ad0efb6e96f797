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

#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profpath.h"
#include "tap.h"

/*
 * Confinement under a race: while a child exchanges a directory under
 * the root with a symbolic link to one outside (renameat2
 * RENAME_EXCHANGE in a loop), profpath_resolve of a file in it, with
 * openat2 and with the component walk, never yields the outside file's
 * identity. And the plain cases: links inside followed, links out
 * refused, the walk refusing what openat2 refuses.
 */

static char	 base[] = "/tmp/deepq-profpath.XXXXXX";

static void
put(const char *path, const char *text)
{
	FILE	*f;

	if ((f = fopen(path, "w")) == NULL || fputs(text, f) == EOF ||
	    fclose(f) == EOF)
		exit(1);
}

/* n resolutions during the swaps: how many gave the outside file. */
static int
race(const char *root, struct stat *out, int n, int *good, int *refused)
{
	struct profpath	 pp;
	char		*cause;
	int		 i, bad = 0, status;

	*good = *refused = 0;
	for (i = 0; i < n; i++) {
		cause = NULL;
		if (profpath_resolve(root, "d/p.folded", &pp, &status,
		    &cause) == -1) {
			(*refused)++;
			free(cause);
			continue;
		}
		if (pp.dev == out->st_dev && pp.ino == out->st_ino)
			bad++;
		else
			(*good)++;
		profpath_clear(&pp);
	}
	return (bad);
}

int
main(void)
{
	struct profpath	 pp;
	struct stat	 out, in;
	char		 root[256], path[512], outside[256], *cause = NULL;
	int		 status, mode, good, refused, bad, fd;
	pid_t		 pid;

	if (mkdtemp(base) == NULL)
		return (1);
	snprintf(root, sizeof root, "%s/root", base);
	snprintf(outside, sizeof outside, "%s/outside", base);
	mkdir(root, 0700);
	mkdir(outside, 0700);
	snprintf(path, sizeof path, "%s/d", root);
	mkdir(path, 0700);
	snprintf(path, sizeof path, "%s/d/p.folded", root);
	put(path, "inside 1\n");
	stat(path, &in);
	snprintf(path, sizeof path, "%s/p.folded", outside);
	put(path, "outside 1\n");
	stat(path, &out);
	snprintf(path, sizeof path, "%s/e", root);
	if (symlink(outside, path) == -1)
		return (1);
	snprintf(path, sizeof path, "%s/in.folded", root);
	if (symlink("d/p.folded", path) == -1)
		return (1);
	snprintf(path, sizeof path, "%s/.secret", root);
	put(path, "hidden 1\n");
	snprintf(path, sizeof path, "%s/dot.folded", root);
	if (symlink(".secret", path) == -1)
		return (1);

	for (mode = 0; mode < 2; mode++) {
		profpath_force_walk = mode;
		ok(profpath_resolve(root, "d/p.folded", &pp, &status,
		    &cause) == 0 && pp.ino == in.st_ino, "%s: the file",
		    mode ? "walk" : "openat2");
		profpath_clear(&pp);
		ok(profpath_resolve(root, "in.folded", &pp, &status,
		    &cause) == 0 && pp.ino == in.st_ino,
		    "%s: a link inside the root is followed",
		    mode ? "walk" : "openat2");
		profpath_clear(&pp);
		ok(profpath_resolve(root, "e/p.folded", &pp, &status,
		    &cause) == -1 && status == 404, "%s: a link out: 404, "
		    "as if nothing were there (%s)", mode ? "walk" : "openat2",
		    cause);
		free(cause);
		cause = NULL;
		ok(profpath_resolve(root, "e/nothing.folded", &pp, &status,
		    &cause) == -1 && status == 404, "%s: a link out to "
		    "nothing: the same 404 (%s)", mode ? "walk" : "openat2",
		    cause);
		free(cause);
		cause = NULL;
		ok(profpath_resolve(root, ".secret", &pp, &status,
		    &cause) == -1 && status == 403, "%s: a hidden name: 403 "
		    "(%s)", mode ? "walk" : "openat2", cause);
		free(cause);
		cause = NULL;
		ok(profpath_resolve(root, "d/.git/x", &pp, &status,
		    &cause) == -1 && status == 403, "%s: a hidden directory: "
		    "403 (%s)", mode ? "walk" : "openat2", cause);
		free(cause);
		cause = NULL;
		ok(profpath_resolve(root, "dot.folded", &pp, &status,
		    &cause) == -1 && status == 404, "%s: a link to a hidden "
		    "file: 404 (%s)", mode ? "walk" : "openat2", cause);
		free(cause);
		cause = NULL;
		ok(profpath_resolve(root, "./d/p.folded", &pp, &status,
		    &cause) == 0, "%s: ./ is no hidden name",
		    mode ? "walk" : "openat2");
		profpath_clear(&pp);
		fd = open(base, O_PATH | O_DIRECTORY);
		errno = 0;
		ok(profpath_openat(fd, "root/e/p.folded") == -1 &&
		    errno == ELOOP, "%s: no link followed on the way",
		    mode ? "walk" : "openat2");
		errno = 0;
		ok(profpath_openat(fd, "../p.folded") == -1 &&
		    errno == EXDEV, "%s: no way out", mode ? "walk" :
		    "openat2");
		close(fd);
	}

	/* The race: d and e exchanged as fast as a child can. */
	if ((pid = fork()) == 0) {
		char	 a[512], b[512];

		snprintf(a, sizeof a, "%s/d", root);
		snprintf(b, sizeof b, "%s/e", root);
		for (;;)
			if (renameat2(AT_FDCWD, a, AT_FDCWD, b,
			    RENAME_EXCHANGE) == -1)
				_exit(1);
	}
	for (mode = 0; mode < 2; mode++) {
		profpath_force_walk = mode;
		bad = race(root, &out, 20000, &good, &refused);
		is_int(bad, 0, "%s: 20000 resolutions during the swaps, none "
		    "outside (%d inside, %d refused)", mode ? "walk" :
		    "openat2", good, refused);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);

	for (mode = 0; mode < 2; mode++) {
		struct stat	 st;

		snprintf(path, sizeof path, "%s/%s", root, mode ? "e" : "d");
		if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
			unlink(path);
		else {
			snprintf(path, sizeof path, "%s/%s/p.folded", root,
			    mode ? "e" : "d");
			unlink(path);
			*strrchr(path, '/') = '\0';
			rmdir(path);
		}
	}
	snprintf(path, sizeof path, "%s/in.folded", root);
	unlink(path);
	rmdir(root);
	snprintf(path, sizeof path, "%s/p.folded", outside);
	unlink(path);
	rmdir(outside);
	rmdir(base);
	return (tap_done());
}
