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
 * bpftrace's printed maps of stacks, what `bpftrace -e 'profile:hz:99
 * { @[ustack] = count(); }'' writes at exit on its standard output or
 * with -o (deepq-formats(5)):
 *
 *	Attaching 1 probe...
 *	@[
 *	    leaf+39
 *	    main+69
 *	]: 153
 *	@cpu[spin, ,
 *		55d0c2a2d159 leaf+39 (/tmp/spin)
 *	]: 12
 *
 * An entry is "@name[", its keys separated by ", ", then "]: value".
 * A stack key is printed over lines of its own, one indented frame a
 * line, leaf first; other keys (comm, pid) are text. Each entry becomes
 * one stack: the text keys first, then the stacks in reverse key order
 * (a kernel stack is conventionally the key before the user stack and
 * runs on top of it), each from its root to its leaf. Frame offsets
 * (+39) are dropped, so that a function is one function; ustack(perf)
 * frames keep their module. Each map is a metric named after it
 * ("count" for the unnamed @).
 */

#define BT_MAX_FRAMES	(1 << 20)	/* frames in one entry */
#define BT_MAX_METRICS	16

struct bt_frame {
	uint32_t	 func;
	int		 group;		/* key position; -1 text key */
};

struct bt {
	struct profile_builder	*b;
	struct bt_frame		*frames;
	size_t			 nframes, framecap;
	int			 group;		/* the key being read */
	int			 metric;	/* of the entry being read */
	char			*names[BT_MAX_METRICS];
	int			 metrics[BT_MAX_METRICS];
	int			 nmetrics;
	uint64_t		 entries;
	uint64_t		 start;		/* line of the open entry */
};

static int	bpftrace_probe(const char *, size_t);
static struct profile *bpftrace_load(struct input *,
		    const struct reader_options *, char **);
static int	bpftrace_entry_start(const char *, size_t, size_t *);
static int	bpftrace_end(const char *, size_t, size_t *, int64_t *);
static int	bpftrace_push(struct bt *, const char *, size_t, const char *,
		    size_t, int);
static int	bpftrace_text_keys(struct bt *, const char *, size_t);
static int	bpftrace_frame(struct bt *, const char *, size_t);
static int	bpftrace_metric(struct bt *, const char *, size_t);
static int	bpftrace_finish(struct bt *, int64_t);

const struct reader reader_bpftrace = {
	.name = "bpftrace",
	.description = "bpftrace maps of stacks (@[ustack] = count())",
	.probe = bpftrace_probe,
	.load = bpftrace_load,
};

/*
 * An entry's first line: "@", a name of [A-Za-z0-9_], "[". Returns 1
 * with *keys the offset after the '['.
 */
static int
bpftrace_entry_start(const char *s, size_t n, size_t *keys)
{
	size_t	 i;

	if (n < 2 || s[0] != '@')
		return (0);
	for (i = 1; i < n && ((s[i] >= 'a' && s[i] <= 'z') ||
	    (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
	    s[i] == '_'); i++)
		;
	if (i == n || s[i] != '[')
		return (0);
	*keys = i + 1;
	return (1);
}

/*
 * An entry's end: the line ends in "]: value". 1 with *at the offset of
 * the ']' and the value; 0 if not an end; -1 if the value is not an
 * integer.
 */
static int
bpftrace_end(const char *s, size_t n, size_t *at, int64_t *v)
{
	size_t	 e = n, d;

	while (e > 0 && (s[e - 1] == ' ' || s[e - 1] == '\t'))
		e--;
	for (d = e; d > 0 && s[d - 1] >= '0' && s[d - 1] <= '9'; d--)
		;
	if (d == e)
		return (0);
	if (d > 0 && s[d - 1] == '-')
		d--;
	if (d < 3 || s[d - 1] != ' ' || s[d - 2] != ':' || s[d - 3] != ']')
		return (0);
	*at = d - 3;
	if (decimal_i64(s + d, e - d, v) != DECIMAL_OK)
		return (-1);
	return (1);
}

/*
 * Entries of a stack map: "@...[" then an indented frame line, after
 * any "Attaching" line and blank lines. A map without stacks is left to
 * the refusal (reader-refuse.c) that names bpftrace.
 */
static int
bpftrace_probe(const char *buf, size_t len)
{
	const char	*nl, *line;
	size_t		 n, k, lines;

	for (lines = 0; len > 0 && lines < 16; lines++) {
		nl = memchr(buf, '\n', len);
		n = nl != NULL ? (size_t)(nl - buf) : len;
		line = buf;
		if (nl == NULL)
			return (0);
		buf += n + 1;
		len -= n + 1;
		if (n == 0 || (n >= 10 && memcmp(line, "Attaching ", 10) == 0))
			continue;
		if (!bpftrace_entry_start(line, n, &k) ||
		    memchr(line, '\0', n) != NULL)
			return (0);
		/* The next line: an indented frame. */
		nl = memchr(buf, '\n', len);
		n = nl != NULL ? (size_t)(nl - buf) : len;
		return (n > 1 && (buf[0] == ' ' || buf[0] == '\t') ? 100 : 0);
	}
	return (0);
}

/* Add a frame (name and module) to the entry being read. */
static int
bpftrace_push(struct bt *t, const char *s, size_t n, const char *mod,
    size_t modlen, int group)
{
	struct bt_frame	*nf;
	size_t		 cap;
	uint32_t	 f;

	if (t->nframes == BT_MAX_FRAMES)
		return (-2);
	if (t->nframes == t->framecap) {
		cap = t->framecap ? t->framecap * 2 : 64;
		if ((nf = reallocarray(t->frames, cap, sizeof *nf)) == NULL)
			return (-1);
		t->frames = nf;
		t->framecap = cap;
	}
	if ((f = profile_builder_func(t->b, s, n, mod, modlen)) ==
	    PROFILE_NONE)
		return (-1);
	t->frames[t->nframes].func = f;
	t->frames[t->nframes].group = group;
	t->nframes++;
	return (0);
}

/* Text keys ("spin, 1234, "): each a frame; empty ones (stacks) skipped. */
static int
bpftrace_text_keys(struct bt *t, const char *s, size_t n)
{
	const char	*e, *c;
	size_t		 k;
	int		 rc;

	for (e = s + n; s < e; s = c + (c < e ? 2 : 0)) {
		c = memmem(s, e - s, ", ", 2);
		if (c == NULL)
			c = e;
		k = c - s;
		while (k > 0 && (s[k - 1] == ' ' || s[k - 1] == ','))
			k--;
		if (k > 0 && (rc = bpftrace_push(t, s, k, "", 0, -1)) != 0)
			return (rc);
		if (c == e)
			break;
		/* A key after a stack: the next stack is a new group. */
		t->group++;
	}
	return (0);
}

/*
 * A frame line: "    sym+off", "    0xaddr" or, for ustack(perf),
 * "\taddr sym+off (module)". The offset is dropped.
 */
static int
bpftrace_frame(struct bt *t, const char *s, size_t n)
{
	const char	*mod = "", *sp, *p;
	size_t		 modlen = 0, i;

	while (n > 0 && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	/* "(module)" at the end, and an address before the symbol. */
	if (n > 2 && s[n - 1] == ')' && (p = memchr(s, '(', n)) != NULL &&
	    p > s && p[-1] == ' ') {
		mod = p + 1;
		modlen = s + n - 1 - mod;
		n = p - 1 - s;
		if ((sp = memchr(s, ' ', n)) != NULL) {
			n -= sp + 1 - s;
			s = sp + 1;
		}
	}
	for (i = n; i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9'; i--)
		;
	if (i < n && i > 1 && s[i - 1] == '+')
		n = i - 1;
	if (n == 0)
		return (0);
	return (bpftrace_push(t, s, n, mod, modlen, t->group));
}

/* The metric of a map name (s, n: after the '@'), made on first use. */
static int
bpftrace_metric(struct bt *t, const char *s, size_t n)
{
	int	 i;

	if (n == 0) {
		s = "count";
		n = 5;
	}
	for (i = 0; i < t->nmetrics; i++) {
		if (strlen(t->names[i]) == n && memcmp(t->names[i], s, n) == 0)
			return (t->metrics[i]);
	}
	if (t->nmetrics == BT_MAX_METRICS)
		return (-2);
	if ((t->names[i] = strndup(s, n)) == NULL ||
	    (t->metrics[i] = profile_builder_metric(t->b, t->names[i],
	    "count")) == -1)
		return (-1);
	t->nmetrics++;
	return (t->metrics[i]);
}

/* The entry is complete: its stack, then the value. */
static int
bpftrace_finish(struct bt *t, int64_t v)
{
	uint32_t	 node = PROFILE_ROOT;
	size_t		 i, j, k;
	int		 g;

	/* Text keys, in order. */
	for (i = 0; i < t->nframes; i++) {
		if (t->frames[i].group == -1 && (node = profile_builder_child(
		    t->b, node, t->frames[i].func)) == PROFILE_NONE)
			return (-1);
	}
	/* Stacks: the last key first, each root (its last frame) first. */
	for (g = t->group; g >= 0; g--) {
		for (j = t->nframes; j-- > 0;) {
			if (t->frames[j].group != g)
				continue;
			k = j;
			if ((node = profile_builder_child(t->b, node,
			    t->frames[k].func)) == PROFILE_NONE)
				return (-1);
		}
	}
	if (node == PROFILE_ROOT)
		return (0);
	if (profile_builder_add(t->b, node, t->metric, v) == -1)
		return (-1);
	t->entries++;
	t->nframes = 0;
	return (0);
}

static struct profile *
bpftrace_load(struct input *in, const struct reader_options *opts,
    char **cause)
{
	struct bt	 t;
	struct profile	*prof = NULL;
	char		*line, *why = NULL;
	const char	*why_s = NULL;
	size_t		 len, k, at;
	int64_t		 v;
	int		 open = 0, rc;

	memset(&t, 0, sizeof t);
	if ((t.b = profile_builder_create("bpftrace")) == NULL) {
		cause_set(cause, "out of memory");
		return (NULL);
	}
	if (opts->max_nodes != 0)
		profile_builder_set_max_nodes(t.b, opts->max_nodes);

	while ((line = input_line(in, &len, &why)) != NULL) {
		rc = 0;
		if (!open) {
			if (!bpftrace_entry_start(line, len, &k))
				continue;	/* Attaching..., printf output */
			if ((t.metric = bpftrace_metric(&t, line + 1, k - 2))
			    < 0) {
				rc = t.metric;
				why_s = "more than 16 maps";
				goto check;
			}
			t.nframes = 0;
			t.group = 0;
			t.start = in->lineno;
			switch (bpftrace_end(line + k, len - k, &at, &v)) {
			case 1:
				/* "@[comm]: 12": text keys only. */
				if ((rc = bpftrace_text_keys(&t, line + k, at))
				    == 0)
					rc = bpftrace_finish(&t, v);
				break;
			case -1:
				why_s = "value overflows 64 bits";
				rc = -2;
				break;
			default:
				rc = bpftrace_text_keys(&t, line + k, len - k);
				open = 1;
			}
		} else if (len > 0 && (line[0] == ' ' || line[0] == '\t'))
			rc = bpftrace_frame(&t, line, len);
		else {
			/* ", ", ", 1234, " or "]: 5" after a stack. */
			switch (bpftrace_end(line, len, &at, &v)) {
			case -1:
				why_s = "value overflows 64 bits";
				rc = -2;
				break;
			case 1:
				k = len > 0 && line[0] == ',' ? 1 : 0;
				t.group++;
				if ((rc = bpftrace_text_keys(&t, line + k,
				    at - k)) == 0)
					rc = bpftrace_finish(&t, v);
				open = 0;
				break;
			default:
				if (len == 0 || line[0] != ',') {
					why_s = "neither a frame nor a key";
					rc = -2;
					break;
				}
				t.group++;
				rc = bpftrace_text_keys(&t, line + 1, len - 1);
			}
		}
check:
		if (rc == -1) {
			cause_set(cause, "%s: line %llu: %s", in->path,
			    (unsigned long long)in->lineno,
			    profile_builder_error(t.b));
			goto fail;
		}
		if (rc == -2) {
			cause_set(cause, "%s: line %llu: %s", in->path,
			    (unsigned long long)in->lineno, why_s != NULL ?
			    why_s : "more than 1048576 frames in one entry");
			goto fail;
		}
	}
	if (why != NULL) {
		cause_set(cause, "%s: %s", in->path, why);
		goto fail;
	}
	if (open) {
		cause_set(cause, "%s: the file ends inside the entry of line "
		    "%llu (truncated)", in->path, (unsigned long long)t.start);
		goto fail;
	}
	if (t.entries == 0) {
		cause_set(cause, "%s: no map entries with stacks", in->path);
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
	for (k = 0; k < (size_t)t.nmetrics; k++)
		free(t.names[k]);
	return (prof);
}
