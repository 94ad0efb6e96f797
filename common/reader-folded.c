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
#include "input.h"
#include "profile.h"
#include "profile-builder.h"
#include "reader.h"

/*
 * Folded stacks ("a;b;c 42"), as written by FlameGraph's stackcollapse
 * tools, inferno, async-profiler and many others. The count is split off
 * the right end, so frame names may hold spaces but never ';'. A line
 * with two counts is differential (difffolded.pl): the first count goes
 * to metric "base", the second to "samples". "mod`func" frames (DTrace
 * style) give the function a module.
 *
 * Consecutive lines usually share a prefix of frames (stackcollapse
 * output is sorted), so the nodes of the previous line are reused for as
 * long as its bytes match: most lines then intern only their last frames.
 *
 * Each line goes in two steps, one line apart: folded_parse interns the
 * frames of line k + 1 and starts loading the child set's slot for its
 * first new node (its parent is usually a node line k reuses, already
 * known), then folded_walk finds or makes the nodes of line k. The slot,
 * a cache miss in a wide profile, is then loaded by the time it is read.
 * Interning first changes no id: functions are still interned, and
 * nodes made, in the order of the lines.
 */

struct folded_line {
	uint32_t		*fn;		/* function of each frame */
	size_t			*end;		/* end offset of each frame */
	size_t			 depth, cap;
	size_t			 reuse;		/* frames the same as the last line's */
	int64_t			 v, v2;
	uint64_t		 lineno;
};

struct folded {
	struct profile_builder	*b;
	int			 metric;
	int			 base;		/* metric of a first count, or -1 */
	char			*prev;		/* previous stack, copied */
	size_t			 prevlen, prevcap;
	struct folded_line	 line[2];	/* parsed, walked one after */
	int			 cur;		/* line[cur] is the last parsed */
	int			 pending;	/* line[cur] is still to walk */
	uint32_t		*pnode;		/* node of each walked frame */
	size_t			 pcap;
};

static int	folded_probe(const char *, size_t);
static struct profile *folded_load(struct input *,
		    const struct reader_options *, char **);
static int	folded_blank_number(const char *, size_t);
static int	folded_count(const char *, size_t *, int64_t *, char **);
static int	folded_parse(struct folded *, const char *, size_t);
static int	folded_walk(struct folded *, struct folded_line *);
static int	folded_flush(struct folded *, const char *, char **);

const struct reader reader_folded = {
	.name = "folded",
	.description = "folded stacks (stackcollapse, inferno, async-profiler)",
	.probe = folded_probe,
	.load = folded_load,
};

/* A first line like "frame;frame 123" (Firefox profiler's test, loosened). */
static int
folded_probe(const char *buf, size_t len)
{
	const char	*nl, *p;
	size_t		 n, digits = 0;

	/* Skip blank and comment lines. */
	while (len > 0) {
		nl = memchr(buf, '\n', len);
		n = nl ? (size_t)(nl - buf) : len;
		if (n > 0 && buf[0] != '#' && !(n == 1 && buf[0] == '\r'))
			break;
		if (nl == NULL)
			return (0);
		buf += n + 1;
		len -= n + 1;
	}
	if (len == 0 || buf[0] == '{' || buf[0] == '[')
		return (0);
	nl = memchr(buf, '\n', len);
	n = nl ? (size_t)(nl - buf) : len;
	if (memchr(buf, '\0', n) != NULL)
		return (0);
	p = buf + n;
	while (p > buf && (p[-1] == '\r' || p[-1] == ' ' || p[-1] == '\t'))
		p--;
	while (p > buf && ((p[-1] >= '0' && p[-1] <= '9') || p[-1] == '.')) {
		p--;
		digits++;
	}
	if (digits == 0 || p == buf || (p[-1] != ' ' && p[-1] != '\t'))
		return (0);
	/* Any text ending in a number would do; a ';' makes it likely. */
	return (memchr(buf, ';', p - buf) != NULL ? 60 : 20);
}

/*
 * Whether s[0..len) ends in a number after a blank, as a count does:
 * the cheap test before folded_count, which explains its refusals.
 */
static int
folded_blank_number(const char *s, size_t len)
{
	size_t	 i = len;

	while (i > 0 && ((s[i - 1] >= '0' && s[i - 1] <= '9') ||
	    s[i - 1] == '.'))
		i--;
	return (i < len && i > 0 && (s[i - 1] == ' ' || s[i - 1] == '\t'));
}

/*
 * Split the count off the end of s[0..*len): on return *len is the length
 * of what is left (the one separating blank removed). Decimal counts are
 * rounded.
 */
static int
folded_count(const char *s, size_t *len, int64_t *v, char **cause)
{
	size_t		 e = *len, i, start, dots = 0;
	int64_t		 n = 0;
	int		 frac = 0, round = 0;
	uint64_t	 pw = 1, u = 0;

	/*
	 * Nearly every count: up to 18 digits after a blank, read in the
	 * one backward scan. Anything else takes the checked way below.
	 */
	for (i = e; i > 0 && e - i < 18 && s[i - 1] >= '0' && s[i - 1] <= '9';
	    i--) {
		u += (uint64_t)(s[i - 1] - '0') * pw;
		pw *= 10;
	}
	if (i < e && i > 0 && (s[i - 1] == ' ' || s[i - 1] == '\t')) {
		*v = (int64_t)u;
		*len = i - 1;
		return (0);
	}

	i = e;
	while (i > 0 && ((s[i - 1] >= '0' && s[i - 1] <= '9') ||
	    s[i - 1] == '.')) {
		dots += s[i - 1] == '.';
		i--;
	}
	start = i;
	if (i == e || (i > 0 && s[i - 1] != ' ' && s[i - 1] != '\t')) {
		if (i > 0 && s[i - 1] == '-')
			cause_set(cause, "negative count");
		else
			cause_set(cause, "no count at the end of the line");
		return (-1);
	}
	if (s[i] == '.' || dots > 1) {
		cause_set(cause, "bad count");
		return (-1);
	}
	/* Up to 18 digits and no fraction cannot overflow: no checks. */
	if (dots == 0 && e - i <= 18) {
		for (; i < e; i++)
			n = n * 10 + (s[i] - '0');
	}
	for (; i < e; i++) {
		if (s[i] == '.') {
			frac = 1;
			continue;
		}
		if (frac) {
			if (frac++ == 1)
				round = s[i] >= '5';
			continue;
		}
		if (__builtin_mul_overflow(n, 10, &n) ||
		    __builtin_add_overflow(n, s[i] - '0', &n)) {
			cause_set(cause, "count overflows 64 bits");
			return (-1);
		}
	}
	if (round && __builtin_add_overflow(n, 1, &n)) {
		cause_set(cause, "count overflows 64 bits");
		return (-1);
	}
	*v = n;
	i = start;
	/*
	 * One blank separates the count, as in flamegraph.pl's
	 * /^(.*)\s+?(\d+)$/: more blanks belong to the last frame's name,
	 * so writing a stack back gives the same line.
	 */
	if (i > 0 && (s[i - 1] == ' ' || s[i - 1] == '\t'))
		i--;
	*len = i;
	return (0);
}

#define FOLDED_ONES	0x0101010101010101ULL
#define FOLDED_HIGHS	0x8080808080808080ULL

/*
 * The first ';' or '`' in s[pos..len), or len: one pass for the two
 * bytes a frame ends at or splits at, eight bytes at a time.
 */
static inline size_t
folded_delim(const char *s, size_t pos, size_t len)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t	 x, a, b, z;

	for (; pos + 8 <= len; pos += 8) {
		memcpy(&x, s + pos, 8);
		a = x ^ (FOLDED_ONES * ';');
		b = x ^ (FOLDED_ONES * '`');
		/* A zero byte of a or b; the lowest one found is exact. */
		z = (((a - FOLDED_ONES) & ~a) | ((b - FOLDED_ONES) & ~b)) &
		    FOLDED_HIGHS;
		if (z != 0)
			return (pos + __builtin_ctzll(z) / 8);
	}
#endif
	for (; pos < len; pos++) {
		if (s[pos] == ';' || s[pos] == '`')
			return (pos);
	}
	return (len);
}

/* Room for n frames in a line and in the walked nodes. */
static int
folded_room(struct folded *f, struct folded_line *l, size_t n)
{
	size_t		 cap;
	void		*p;

	if (n > l->cap) {
		cap = l->cap ? l->cap : 64;
		while (cap < n)
			cap *= 2;
		if ((p = realloc(l->fn, cap * sizeof *l->fn)) == NULL)
			return (-1);
		l->fn = p;
		if ((p = realloc(l->end, cap * sizeof *l->end)) == NULL)
			return (-1);
		l->end = p;
		l->cap = cap;
	}
	if (n > f->pcap) {
		cap = f->pcap ? f->pcap : 64;
		while (cap < n)
			cap *= 2;
		if ((p = realloc(f->pnode, cap * sizeof *f->pnode)) == NULL)
			return (-1);
		f->pnode = p;
		f->pcap = cap;
	}
	return (0);
}

/*
 * Intern the frames of one stack into the next line slot; its nodes are
 * found by folded_walk after the line before is walked.
 */
static int
folded_parse(struct folded *f, const char *s, size_t len)
{
	struct folded_line	*pl = &f->line[f->cur];
	struct folded_line	*l = &f->line[!f->cur];
	size_t			 c = 0, pos = 0, i = 0, end, lim;
	uint32_t		 fn, parent;
	const char		*semi, *tick;

	/* The common prefix with the previous line, a word at a time. */
	lim = len < f->prevlen ? len : f->prevlen;
	while (c + 8 <= lim) {
		uint64_t	 x, y;

		memcpy(&x, s + c, 8);
		memcpy(&y, f->prev + c, 8);
		if (x != y) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			/* The first differing byte is the lowest set. */
			c += __builtin_ctzll(x ^ y) / 8;
			lim = c;
#endif
			break;
		}
		c += 8;
	}
	while (c < lim && s[c] == f->prev[c])
		c++;
	if ((pl->depth > l->cap || pl->depth > f->pcap) &&
	    folded_room(f, l, pl->depth) == -1)
		return (-1);
	while (i < pl->depth && pl->end[i] <= c &&
	    (pl->end[i] == len || s[pl->end[i]] == ';')) {
		l->end[i] = pl->end[i];
		pos = pl->end[i] + 1;
		i++;
	}
	l->reuse = i;
	while (pos <= len) {
		end = folded_delim(s, pos, len);
		tick = NULL;
		if (end < len && s[end] == '`') {
			tick = s + end;
			semi = memchr(s + end, ';', len - end);
			end = semi ? (size_t)(semi - s) : len;
		}
		if (tick != NULL)
			fn = profile_builder_func(f->b, tick + 1,
			    s + end - tick - 1, s + pos, tick - s - pos);
		else
			fn = profile_builder_func(f->b, s + pos, end - pos,
			    "", 0);
		if (fn == PROFILE_NONE)
			return (-1);
		if (i == l->cap && folded_room(f, l, i + 1) == -1)
			return (-1);
		l->fn[i] = fn;
		l->end[i] = end;
		i++;
		pos = end + 1;
	}
	l->depth = i;
	/*
	 * The first new node's parent is known now when the line before
	 * reuses it (it was walked with the line before that): start
	 * loading its slot.
	 */
	if (l->reuse < l->depth) {
		if (l->reuse == 0)
			parent = PROFILE_ROOT;
		else if (!f->pending || l->reuse - 1 < pl->reuse)
			parent = f->pnode[l->reuse - 1];
		else
			parent = PROFILE_NONE;
		if (parent != PROFILE_NONE)
			profile_builder_prefetch(f->b, parent, l->fn[l->reuse]);
	}
	if (len + 1 > f->prevcap) {
		char	*p;
		size_t	 cap = (len + 1) * 2;

		if ((p = realloc(f->prev, cap)) == NULL)
			return (-1);
		f->prev = p;
		f->prevcap = cap;
	}
	memcpy(f->prev, s, len);
	f->prevlen = len;
	return (0);
}

/* Find or make the nodes of a parsed line and add its counts. */
static int
folded_walk(struct folded *f, struct folded_line *l)
{
	size_t		 i;
	uint32_t	 node;

	node = l->reuse > 0 ? f->pnode[l->reuse - 1] : PROFILE_ROOT;
	for (i = l->reuse; i < l->depth; i++) {
		if ((node = profile_builder_child(f->b, node, l->fn[i])) ==
		    PROFILE_NONE)
			return (-1);
		f->pnode[i] = node;
	}
	if (l->v != 0 && profile_builder_add(f->b, node, f->metric, l->v) ==
	    -1)
		return (-1);
	if (l->v2 > 0 && profile_builder_add(f->b, node, f->base, l->v2) ==
	    -1)
		return (-1);
	return (0);
}

/*
 * Walk the line still pending, before anything later is reported: an
 * error there comes first, as it would have without the pipeline.
 */
static int
folded_flush(struct folded *f, const char *path, char **cause)
{
	struct folded_line	*l = &f->line[f->cur];

	if (!f->pending)
		return (0);
	f->pending = 0;
	if (folded_walk(f, l) == 0)
		return (0);
	cause_set(cause, "%s: line %llu: %s", path,
	    (unsigned long long)l->lineno, profile_builder_error(f->b));
	return (-1);
}

static struct profile *
folded_load(struct input *in, const struct reader_options *opts,
    char **cause)
{
	struct folded		 f;
	struct folded_line	*l;
	struct profile		*p = NULL;
	char			*line, *why = NULL;
	size_t			 len, slen;
	int64_t			 v, v2;
	uint64_t		 nlines = 0;
	int			 i;

	memset(&f, 0, sizeof f);
	f.base = -1;
	if ((f.b = profile_builder_create("folded")) == NULL)
		goto nomem;
	if (opts->max_nodes != 0)
		profile_builder_set_max_nodes(f.b, opts->max_nodes);
	if ((f.metric = profile_builder_metric(f.b, "samples", "count")) ==
	    -1)
		goto nomem;

	while ((line = input_line(in, &len, &why)) != NULL) {
		while (len > 0 && (line[len - 1] == ' ' ||
		    line[len - 1] == '\t'))
			len--;
		if (len == 0 || line[0] == '#')
			continue;
		if (memchr(line, '\0', len) != NULL) {
			if (folded_flush(&f, in->path, cause) == -1)
				goto fail;
			cause_set(cause, "%s: line %llu: NUL byte (binary "
			    "data?)", in->path, (unsigned long long)in->lineno);
			goto fail;
		}
		slen = len;
		if (folded_count(line, &slen, &v, &why) == -1)
			goto lineerr;
		/*
		 * A second number before the first: a differential line.
		 * Most names that end in a digit ("foo_2169") have no blank
		 * before the digits: test that first, so the common case
		 * never builds (and frees) an error string.
		 */
		if (slen > 0 && line[slen - 1] >= '0' &&
		    line[slen - 1] <= '9' && folded_blank_number(line, slen)) {
			size_t	 l2 = slen;
			char	*why2 = NULL;

			if (folded_count(line, &l2, &v2, &why2) == 0 &&
			    l2 > 0) {
				if (f.base == -1 && (f.base =
				    profile_builder_metric(f.b, "base",
				    "count")) == -1) {
					free(why2);
					if (folded_flush(&f, in->path,
					    cause) == -1)
						goto fail;
					goto nomem;
				}
				slen = l2;
			} else
				v2 = -1;
			free(why2);
		} else
			v2 = -1;
		if (slen == 0) {
			why = NULL;
			cause_set(&why, "no stack before the count");
			goto lineerr;
		}
		if (folded_parse(&f, line, slen) == -1)
			goto builderr;
		l = &f.line[!f.cur];
		l->v = v;
		l->v2 = v2;
		l->lineno = in->lineno;
		if (folded_flush(&f, in->path, cause) == -1)
			goto fail;
		f.cur = !f.cur;
		f.pending = 1;
		nlines++;
	}
	if (folded_flush(&f, in->path, cause) == -1)
		goto fail;
	if (why != NULL) {
		cause_set(cause, "%s: %s", in->path, why);
		goto fail;
	}
	if (nlines == 0) {
		cause_set(cause, "%s: no stacks in the file", in->path);
		goto fail;
	}
	p = profile_builder_finish(f.b, cause);
	f.b = NULL;
	goto done;

lineerr:
	if (folded_flush(&f, in->path, cause) == -1)
		goto fail;
	cause_set(cause, "%s: line %llu: %s", in->path,
	    (unsigned long long)in->lineno, why ? why : "out of memory");
	goto fail;
builderr:
	if (folded_flush(&f, in->path, cause) == -1)
		goto fail;
	cause_set(cause, "%s: line %llu: %s", in->path,
	    (unsigned long long)in->lineno, profile_builder_error(f.b));
	goto fail;
nomem:
	cause_set(cause, "out of memory");
fail:
	profile_builder_free(f.b);
done:
	free(why);
	free(f.prev);
	for (i = 0; i < 2; i++) {
		free(f.line[i].fn);
		free(f.line[i].end);
	}
	free(f.pnode);
	return (p);
}
