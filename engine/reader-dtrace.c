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

#include <stdlib.h>
#include <string.h>

#include "cause.h"
#include "decimal.h"
#include "input.h"
#include "profile.h"
#include "profile-builder.h"
#include "reader.h"

/*
 * DTrace's aggregated stacks, what `dtrace -n 'profile-997 { @[ustack()]
 * = count(); }'' prints at its end, read as FlameGraph's stackcollapse.pl
 * reads them (deepq-formats(5)):
 *
 *	CPU     ID                    FUNCTION:NAME
 *	  1  75519                        :tick-10s
 *
 *	              spin`leaf+0x30
 *	              spin`main+0x16
 *	               11
 *
 * Frames, leaf first, one a line, until a line that is only a count;
 * blank lines are skipped. The script's header (the first two lines when
 * they are dtrace's "CPU ID FUNCTION:NAME" and the probe's line) is
 * skipped. As in the script, the offset (+0x30) and C++ argument lists
 * are removed, "a->b" (inlined) frames are split with _[i] marks on all
 * but the first, ';' becomes ':' and a leading 'L' (Java) goes; and
 * "module`function" gives the function and its module.
 */

#define DTRACE_MAX_FRAMES	(1 << 20)

struct dtrace {
	struct profile_builder	*b;
	uint32_t		*frames;
	size_t			 nframes, framecap;
	char			*buf;
	size_t			 bufcap;
	int			 metric;
	uint64_t		 stacks;
	uint64_t		 start;		/* line of the open stack */
};

static int	dtrace_probe(const char *, size_t);
static struct profile *dtrace_load(struct input *,
		    const struct reader_options *, char **);
static int	dtrace_count(const char *, size_t, int64_t *);
static int	dtrace_header(const char *, size_t);
static int	dtrace_frame(struct dtrace *, const char *, size_t);
static int	dtrace_stack(struct dtrace *, int64_t);

const struct reader reader_dtrace = {
	.name = "dtrace",
	.description = "DTrace aggregated stacks (as stackcollapse.pl reads "
	    "them)",
	.probe = dtrace_probe,
	.load = dtrace_load,
};

/* A count line: /^\s*(\d+)+$/. 1 with its value, -1 on overflow. */
static int
dtrace_count(const char *s, size_t n, int64_t *v)
{
	size_t	 i = 0;
	uint64_t x;

	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i == n)
		return (0);
	switch (decimal_u64(s + i, n - i, INT64_MAX, &x)) {
	case DECIMAL_NONE:
		return (0);
	case DECIMAL_OVERFLOW:
		return (-1);
	}
	*v = (int64_t)x;
	return (1);
}

/* dtrace's header: "CPU     ID                    FUNCTION:NAME". */
static int
dtrace_header(const char *s, size_t n)
{
	return (n > 4 && memcmp(s, "CPU ", 4) == 0 &&
	    memmem(s, n, "FUNCTION:NAME", 13) != NULL);
}

/*
 * The header, or an indented "module`function" frame line, then more
 * frames and a count line before any other kind of line.
 */
static int
dtrace_probe(const char *buf, size_t len)
{
	const char	*nl, *s;
	size_t		 n, i, lines, frames = 0;
	int64_t		 v;

	for (lines = 0; len > 0 && lines < 256; lines++) {
		nl = memchr(buf, '\n', len);
		n = nl != NULL ? (size_t)(nl - buf) : len;
		s = buf;
		if (memchr(s, '\0', n) != NULL)
			return (0);
		if (nl == NULL)
			break;
		buf += n + 1;
		len -= n + 1;
		if (lines == 0 && dtrace_header(s, n))
			return (100);
		for (i = 0; i < n && (s[i] == ' ' || s[i] == '\t'); i++)
			;
		if (i == n)
			continue;
		if (dtrace_count(s, n, &v) == 1)
			return (frames >= 1 ? 90 : 0);
		if (i == 0 || memchr(s + i, '`', n - i) == NULL ||
		    memchr(s + i, ' ', n - i) != NULL)
			return (0);
		frames++;
	}
	return (0);
}

/* One frame line: tidied as stackcollapse.pl does, then pushed. */
static int
dtrace_frame(struct dtrace *t, const char *s, size_t n)
{
	const char	*e, *p, *mod, *fn, *a, *arrow;
	size_t		 modlen, k, i, len, base;
	uint32_t	*nf, f;
	int		 part;

	while (n > 0 && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	/* s/\+[^+]*$//: from the last '+'. */
	if ((p = memrchr(s, '+', n)) != NULL)
		n = p - s;
	/* C++ arguments: after the first "::", from the last '(' or '<'. */
	if ((p = memmem(s, n, "::", 2)) != NULL) {
		for (e = s + n; e > p + 2 && e[-1] != '(' && e[-1] != '<'; e--)
			;
		if (e > p + 2)
			n = e - 1 - s;
	}
	if (n == 0) {
		s = "-";
		n = 1;
	}
	if (n + 8 > t->bufcap) {
		char	*nb;

		if ((nb = realloc(t->buf, n + 8)) == NULL)
			return (-1);
		t->buf = nb;
		t->bufcap = n + 8;
	}
	/* "module`function": the module apart. */
	mod = "";
	modlen = 0;
	fn = s;
	if ((p = memchr(s, '`', n)) != NULL) {
		mod = s;
		modlen = p - s;
		fn = p + 1;
		n -= p + 1 - s;
	}
	/* split /->/; the line's parts are reversed below (see dtrace_stack). */
	e = fn + n;
	base = t->nframes;
	for (part = 0, a = fn; a <= e; part++) {
		arrow = memmem(a, e - a, "->", 2);
		k = arrow != NULL ? (size_t)(arrow - a) : (size_t)(e - a);
		len = 0;
		for (i = 0; i < k; i++) {
			if (len == 0 && i == 0 && a[i] == 'L')
				continue;
			t->buf[len++] = a[i] == ';' ? ':' : a[i];
		}
		if (part > 0) {
			memcpy(t->buf + len, "_[i]", 4);
			len += 4;
		}
		if (t->nframes == DTRACE_MAX_FRAMES)
			return (-2);
		if (t->nframes == t->framecap) {
			k = t->framecap ? t->framecap * 2 : 64;
			if ((nf = reallocarray(t->frames, k, sizeof *nf)) ==
			    NULL)
				return (-1);
			t->frames = nf;
			t->framecap = k;
		}
		if ((f = profile_builder_func(t->b, t->buf, len, mod,
		    modlen)) == PROFILE_NONE)
			return (-1);
		t->frames[t->nframes++] = f;
		if (arrow == NULL)
			break;
		a = arrow + 2;
	}
	for (i = base, k = t->nframes; k > i + 1; i++, k--) {
		f = t->frames[i];
		t->frames[i] = t->frames[k - 1];
		t->frames[k - 1] = f;
	}
	return (0);
}

/*
 * A count ends the stack. The script unshifts each line's parts as a
 * group: the stack is the lines from the last (the root) to the first,
 * each line's parts in order.
 */
static int
dtrace_stack(struct dtrace *t, int64_t v)
{
	uint32_t	 node = PROFILE_ROOT;
	size_t		 i;

	for (i = t->nframes; i-- > 0;) {
		if ((node = profile_builder_child(t->b, node, t->frames[i])) ==
		    PROFILE_NONE)
			return (-1);
	}
	t->nframes = 0;
	if (node == PROFILE_ROOT)
		return (0);
	if (profile_builder_add(t->b, node, t->metric, v) == -1)
		return (-1);
	t->stacks++;
	return (0);
}

static struct profile *
dtrace_load(struct input *in, const struct reader_options *opts,
    char **cause)
{
	struct dtrace	 t;
	struct profile	*prof = NULL;
	char		*line, *why = NULL;
	size_t		 len, i;
	int64_t		 v;
	int		 rc, c;

	memset(&t, 0, sizeof t);
	if ((t.b = profile_builder_create("dtrace")) == NULL ||
	    (t.metric = profile_builder_metric(t.b, "count", "count")) == -1) {
		profile_builder_free(t.b);
		cause_set(cause, "out of memory");
		return (NULL);
	}
	if (opts->max_nodes != 0)
		profile_builder_set_max_nodes(t.b, opts->max_nodes);

	while ((line = input_line(in, &len, &why)) != NULL) {
		/* The header and the probe's line after it. */
		if (in->lineno == 1 && dtrace_header(line, len)) {
			if ((line = input_line(in, &len, &why)) == NULL)
				break;
			continue;
		}
		if ((c = dtrace_count(line, len, &v)) == -1) {
			cause_set(cause, "%s: line %llu: count overflows 64 "
			    "bits", in->path, (unsigned long long)in->lineno);
			goto fail;
		}
		if (c == 1)
			rc = dtrace_stack(&t, v);
		else {
			for (i = 0; i < len && (line[i] == ' ' ||
			    line[i] == '\t'); i++)
				;
			if (i == len)
				continue;
			if (t.nframes == 0)
				t.start = in->lineno;
			rc = dtrace_frame(&t, line, len);
		}
		if (rc == -2) {
			cause_set(cause, "%s: line %llu: more than %d frames in "
			    "one stack", in->path,
			    (unsigned long long)in->lineno, DTRACE_MAX_FRAMES);
			goto fail;
		}
		if (rc == -1) {
			cause_set(cause, "%s: line %llu: %s", in->path,
			    (unsigned long long)in->lineno,
			    profile_builder_error(t.b));
			goto fail;
		}
	}
	if (why != NULL) {
		cause_set(cause, "%s: %s", in->path, why);
		goto fail;
	}
	if (t.nframes > 0) {
		cause_set(cause, "%s: the file ends inside the stack of line "
		    "%llu, before its count (truncated)", in->path,
		    (unsigned long long)t.start);
		goto fail;
	}
	if (t.stacks == 0) {
		cause_set(cause, "%s: no stacks", in->path);
		goto fail;
	}
	prof = profile_builder_finish(t.b, cause);
	t.b = NULL;
	goto done;
fail:
	profile_builder_free(t.b);
done:
	free(why);
	free(t.frames);
	free(t.buf);
	return (prof);
}
