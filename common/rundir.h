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


#ifndef RUNDIR_H
#define RUNDIR_H

/*
 * The private runtime directory of the rendezvous. It must be a real
 * directory (never a symbolic link), owned by the effective user, with
 * no group or other access; it is created 0700 if missing and refused,
 * never "fixed", otherwise. Every file in it is opened relative to the
 * directory's fd with O_NOFOLLOW and checked with fstat (type, owner,
 * mode) before use, so a symbolic link or a file planted by someone else
 * is refused and whatever it points to is never touched.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <signal.h>

int	rundir_open(const char *, int, char **);
int	rundir_verify(int, const char *, char **);
int	rundir_file(int, const char *, int, char **);
int	rundir_mkfifo(int, const char *, char **);
int	rundir_fifo(int, const char *, int, char **);
int	rundir_fifo_check(int, const char *, char **);
int	rundir_lock(int, int, int, volatile sig_atomic_t *);
int	rundir_locked(int);
long long rundir_now(void);
struct stat;
int	rundir_secret_mark(int, const struct stat *);
int	rundir_secret(int, const struct stat *);

#endif /* RUNDIR_H */
