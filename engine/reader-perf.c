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
#include "timeline.h"

/*
 * `perf script' text, read the way FlameGraph's stackcollapse-perf.pl
 * reads it, so that a stack's count here is the count that script gives
 * (deepq-formats(5)):
 *
 *	workload 14960  2292.235483:    1001001 cpu-clock:
 *		    135d fib+0x12 (/home/user/perf/workload)
 *		    1a68 main+0x1e4 (/home/user/perf/workload)
 *	(a blank line ends the sample)
 *
 * An event line gives the command (which may hold spaces), the pid/tid,
 * optionally the period and the event; then come the frames, leaf first,
 * one per line: address, symbol[+offset], (DSO). The command becomes the
 * first frame under the root. Symbols are tidied as the script does:
 * offsets, argument lists and quotes are removed, ';' becomes ':',
 * "[unknown]" becomes the DSO's base name, "a->b" (inlined frames) are
 * split. Every function keeps its DSO as its module, so kernel and JIT
 * frames stay recognisable without the script's _[k] and _[j] suffixes;
 * the variant words of the script's options (pid, tid, kernel, jit, all,
 * addrs) reproduce its other outputs. Only events of the first event
 * type seen are kept, as the script does. The timestamp after the ids
 * (and the [cpu]) puts each sample on the timeline (timeline.h), on
 * the thread of its command, pid and tid.
 *
 * Source lines (lines.h): with `perf script -F +srcline' each frame line
 * is followed by its source line, "  file.c:42" (the call's line in a
 * caller frame; "??:0", ":0" or a bracketed address when unknown); a
 * file that has them gets the costs by line of every frame. A file
 * without them gets its samples' innermost addresses instead (as perf
 * annotate counts instructions): per function, the self cost at each
 * address, the DSO's offset or the kernel's address as perf prints it.
 *
 * The pattern matches below reproduce the script's Perl regular
 * expressions, backtracking included, as hand-written scans so that a
 * line costs linear time whatever its content.
 */

#define PERF_MAX_FRAMES	(1 << 20)	/* frames in one sample */

#define PERF_PID	0x01
#define PERF_TID	0x02
#define PERF_KERNEL	0x04
#define PERF_JIT	0x08
#define PERF_ADDRS	0x10

#define PERF_MODE_UNSET	0
#define PERF_MODE_LINES	1		/* srcline: the line tree */
#define PERF_MODE_ADDRS	2		/* leaf addresses */

struct perf_span {
	const char	*s;
	size_t		 n;
};

struct perf {
	struct profile_builder	*b;
	int			 flags;
	int			 period;	/* metric, -1 without periods */
	int			 samples;	/* metric, -1 until decided */
	char			*event;		/* the event kept, or NULL */
	size_t			 eventlen;

	/* The sample being read: the script's $pname and @stack. */
	int			 has_pname;
	char			*pname;
	size_t			 pnamelen, pnamecap;
	int			 java;		/* $pname eq "java" */
	int64_t			 weight;	/* $m_period */
	int			 has_time;	/* the sample's time and thread */
	int64_t			 time;		/* ns */
	uint32_t		 thread;
	char			*tcomm;		/* the last thread's key */
	size_t			 tcommlen, tcommcap;
	int64_t			 tpid, ttid;
	uint32_t		 tlast;		/* its thread, or PROFILE_NONE */
	uint32_t		*frames;	/* @stack, reversed */
	size_t			 nframes, framecap;
	uint32_t		*fline;		/* as frames: srcline's line */
	uint32_t		*ffile;		/* its file, a string id */
	uint64_t		*faddr;		/* the frame's address */
	size_t			 lastframe;	/* the last frame line's first */
	int			 srcok;		/* a srcline may follow */
	int			 sawsrc;	/* a srcline was read */
	int			 mode;		/* PERF_MODE_* */

	struct perf_span	*parts;		/* a symbol split at "->" */
	size_t			 partcap;
	char			*buf;		/* one tidied frame name */
	size_t			 buflen, bufcap;

	uint64_t		 nsamples;
	uint64_t		 skipped;	/* lines not understood */
	uint64_t		 firstskip;
};

static int	perf_probe(const char *, size_t);
static struct profile *perf_load(struct input *,
		    const struct reader_options *, char **);
static int	perf_options(const char *, int *, char **);
static int	perf_space(int);
static int	perf_digit(int);
static int	perf_word(int);
static int	perf_header(const char *, size_t, struct perf_span *,
		    struct perf_span *, struct perf_span *);
static int	perf_event(const char *, size_t, struct perf_span *,
		    struct perf_span *);
static int	perf_frame(const char *, size_t, struct perf_span *,
		    struct perf_span *, struct perf_span *);
static int	perf_event_loose(const char *, size_t, size_t,
		    struct perf_span *, struct perf_span *);
static int	perf_record(const char *, size_t);
static int	perf_put(struct perf *, const char *, size_t);
static int	perf_push(struct perf *, uint32_t);
static int	perf_tidy(struct perf *, struct perf_span, struct perf_span,
		    struct perf_span, int);
static int	perf_line_frame(struct perf *, const char *, size_t);
static int	perf_line_header(struct perf *, const char *, size_t,
		    char **);
static int	perf_end(struct perf *);
static int	perf_srcline(struct perf *, const char *, size_t);
static int	perf_end_lines(struct perf *);
static int	perf_metrics(struct perf *, int, struct perf_span);
static int	perf_time(const char *, size_t, size_t, int64_t *);
static int64_t	perf_id(struct perf_span);
static int	perf_thread(struct perf *, struct perf_span, int64_t,
		    int64_t);

const struct reader reader_perf = {
	.name = "perf",
	.description = "perf script text (as stackcollapse-perf.pl reads it)",
	.probe = perf_probe,
	.load = perf_load,
};

/* Perl's \s, \d and \w on bytes. */
static int
perf_space(int c)
{
	return (c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	    c == '\f' || c == '\v');
}

static int
perf_digit(int c)
{
	return (c >= '0' && c <= '9');
}

static int
perf_word(int c)
{
	return ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    perf_digit(c) || c == '_');
}

/*
 * The event line: ^(\S.+?)\s+(\d+)[/]*(\d+)*\s+ (the script's regular
 * expression, its escaped slash written as a class). The command is the
 * shortest prefix of at least two bytes after which come blanks, digits,
 * optional slashes and digits, and a blank. A blank run gives the same
 * answer wherever in it the command ends, so each run is tried once.
 */
static int
perf_header(const char *s, size_t len, struct perf_span *comm,
    struct perf_span *pid, struct perf_span *tid)
{
	size_t	 i = 1, a, b, p, j, k, d;

	if (len == 0 || perf_space((unsigned char)s[0]))
		return (0);
	while (i < len) {
		if (!perf_space((unsigned char)s[i])) {
			i++;
			continue;
		}
		for (a = i, b = i; b < len && perf_space((unsigned char)s[b]);
		    b++)
			;
		p = a < 2 ? 2 : a;
		if (p < b && b < len && perf_digit((unsigned char)s[b])) {
			for (j = b; j < len && perf_digit((unsigned char)s[j]);
			    j++)
				;
			for (k = j; k < len && s[k] == '/'; k++)
				;
			tid->s = NULL;
			tid->n = 0;
			if (k < len && perf_digit((unsigned char)s[k])) {
				for (d = k; d < len &&
				    perf_digit((unsigned char)s[d]); d++)
					;
				if (d < len &&
				    perf_space((unsigned char)s[d])) {
					tid->s = s + k;
					tid->n = d - k;
					goto found;
				}
			} else if (k < len && perf_space((unsigned char)s[k]))
				goto found;
			i = b;
			continue;
found:
			comm->s = s;
			comm->n = p;
			pid->s = s + b;
			pid->n = j - b;
			return (1);
		}
		i = b;
	}
	return (0);
}

/*
 * The event and period: /:\s*(\d+)*\s+(\S+):\s*$/. The event is the last
 * blank-separated word without its final ':'; before its blanks comes
 * either the ':' or a number preceded by optional blanks and the ':'.
 */
static int
perf_event(const char *s, size_t len, struct perf_span *period,
    struct perf_span *event)
{
	size_t	 e = len, t, w, d;

	while (e > 0 && perf_space((unsigned char)s[e - 1]))
		e--;
	if (e < 2 || s[e - 1] != ':')
		return (0);
	for (t = e - 1; t > 0 && !perf_space((unsigned char)s[t - 1]); t--)
		;
	if (t == e - 1 || t == 0)
		return (0);
	for (w = t; w > 0 && perf_space((unsigned char)s[w - 1]); w--)
		;
	event->s = s + t;
	event->n = e - 1 - t;
	period->s = NULL;
	period->n = 0;
	if (w > 0 && s[w - 1] == ':')
		return (1);
	for (d = w; d > 0 && perf_digit((unsigned char)s[d - 1]); d--)
		;
	if (d == w)
		return (0);
	period->s = s + d;
	period->n = w - d;
	while (d > 0 && perf_space((unsigned char)s[d - 1]))
		d--;
	return (d > 0 && s[d - 1] == ':');
}

/*
 * The period where the script's pattern finds none because no ':'
 * precedes it: `perf script -F' without the time field writes "comm
 * tid period event:" or "comm tid period". The script then counts each
 * sample as 1; the samples metric still does, and the period is kept
 * too rather than dropped. Only digits after the pid/tid (which end at
 * from) are taken. 1 if found, with the event when there is one.
 */
static int
perf_event_loose(const char *s, size_t len, size_t from,
    struct perf_span *period, struct perf_span *event)
{
	size_t	 e = len, t, d;

	while (e > from && perf_space((unsigned char)s[e - 1]))
		e--;
	event->s = NULL;
	event->n = 0;
	if (e > from && s[e - 1] == ':') {
		for (t = e - 1; t > from && !perf_space((unsigned char)s[t - 1]);
		    t--)
			;
		if (t == e - 1 || t == from)
			return (0);
		event->s = s + t;
		event->n = e - 1 - t;
		for (e = t; e > from && perf_space((unsigned char)s[e - 1]);
		    e--)
			;
		if (e == t)
			return (0);
	}
	for (d = e; d > from && perf_digit((unsigned char)s[d - 1]); d--)
		;
	if (d == e || d == from || !perf_space((unsigned char)s[d - 1]))
		return (0);
	period->s = s + d;
	period->n = e - d;
	return (1);
}

/*
 * A side-band record of --show-mmap-events, --show-task-events and the
 * like ("comm pid time: PERF_RECORD_MMAP2 ..."): no sample.
 */
static int
perf_record(const char *s, size_t len)
{
	return (memmem(s, len, ": PERF_RECORD_", 14) != NULL);
}

/*
 * A frame: /^\s*(\w+)\s*(.+) \((\S*)\)/. The greedy (.+) ends at the
 * last " (" followed by a parenthesised run without blanks (whose last
 * ')' ends the DSO); the address and the blanks after it give back
 * bytes only when the symbol would otherwise be empty.
 */
static int
perf_frame(const char *s, size_t len, struct perf_span *pc,
    struct perf_span *func, struct perf_span *mod)
{
	size_t	 s0, wend, ws, q, i, f0, f1, f2, fs;
	int	 found = 0;

	for (s0 = 0; s0 < len && perf_space((unsigned char)s[s0]); s0++)
		;
	if (s0 == len || !perf_word((unsigned char)s[s0]))
		return (0);
	for (wend = s0; wend < len && perf_word((unsigned char)s[wend]);
	    wend++)
		;
	for (ws = wend; ws < len && perf_space((unsigned char)s[ws]); ws++)
		;

	/* f0, f1, f2: the last ')' of the blank-free run at i, i+1, i+2. */
	f1 = f2 = len;
	q = 0;
	for (i = len; i-- > s0;) {
		if (perf_space((unsigned char)s[i]))
			f0 = len;
		else if (f1 != len)
			f0 = f1;
		else
			f0 = s[i] == ')' ? i : len;
		if (s[i] == ' ' && i + 1 < len && s[i + 1] == '(' &&
		    i + 2 < len && f2 != len) {
			q = i;
			found = 1;
			break;
		}
		f2 = f1;
		f1 = f0;
	}
	if (!found)
		return (0);
	if (q > wend) {
		fs = ws < q - 1 ? ws : q - 1;
		pc->s = s + s0;
		pc->n = wend - s0;
	} else if (q >= s0 + 2) {
		fs = q - 1;
		pc->s = s + s0;
		pc->n = fs - s0;
	} else
		return (0);
	func->s = s + fs;
	func->n = q - fs;
	mod->s = s + q + 2;
	mod->n = f2 - (q + 2);
	return (1);
}

/* Append n bytes to the frame name being built. */
static int
perf_put(struct perf *p, const char *s, size_t n)
{
	char	*nb;
	size_t	 cap;

	if (p->buflen + n + 1 > p->bufcap) {
		cap = (p->buflen + n + 1) * 2;
		if ((nb = realloc(p->buf, cap)) == NULL)
			return (-1);
		p->buf = nb;
		p->bufcap = cap;
	}
	memcpy(p->buf + p->buflen, s, n);
	p->buflen += n;
	p->buf[p->buflen] = '\0';
	return (0);
}

/* Add a frame to the sample being read. */
static int
perf_push(struct perf *p, uint32_t f)
{
	uint32_t	*nf;
	uint64_t	*fa;
	size_t		 cap;

	if (p->nframes == PERF_MAX_FRAMES)
		return (-2);
	if (p->nframes == p->framecap) {
		cap = p->framecap ? p->framecap * 2 : 256;
		if ((nf = realloc(p->frames, cap * sizeof *nf)) == NULL)
			return (-1);
		p->frames = nf;
		if ((nf = realloc(p->fline, cap * sizeof *nf)) == NULL)
			return (-1);
		p->fline = nf;
		if ((nf = realloc(p->ffile, cap * sizeof *nf)) == NULL)
			return (-1);
		p->ffile = nf;
		if ((fa = realloc(p->faddr, cap * sizeof *fa)) == NULL)
			return (-1);
		p->faddr = fa;
		p->framecap = cap;
	}
	p->fline[p->nframes] = p->ffile[p->nframes] = 0;
	p->faddr[p->nframes] = UINT64_MAX;
	p->frames[p->nframes++] = f;
	return (0);
}

/*
 * Tidy one inlined part of a symbol into p->buf and intern it, as the
 * script's loop over split(/->/) does; inl is whether it is not the first
 * part.
 */
static int
perf_tidy(struct perf *p, struct perf_span fn, struct perf_span mod,
    struct perf_span pc, int inl)
{
	const char	*slash, *o, *c;
	char		*w, *r;
	size_t		 i;
	uint32_t	 f;
	int		 go;

	p->buflen = 0;
	if (perf_put(p, "", 0) == -1)
		return (-1);
	if (fn.n == 9 && memcmp(fn.s, "[unknown]", 9) == 0) {
		if (perf_put(p, "[", 1) == -1)
			return (-1);
		if (mod.n == 9 && memcmp(mod.s, "[unknown]", 9) == 0) {
			if (perf_put(p, "unknown", 7) == -1)
				return (-1);
		} else {
			slash = memrchr(mod.s, '/', mod.n);
			o = slash != NULL ? slash + 1 : mod.s;
			if (perf_put(p, o, mod.s + mod.n - o) == -1)
				return (-1);
		}
		if ((p->flags & PERF_ADDRS) && (perf_put(p, " <", 2) == -1 ||
		    perf_put(p, pc.s, pc.n) == -1 || perf_put(p, ">", 1) == -1))
			return (-1);
		if (perf_put(p, "]", 1) == -1)
			return (-1);
	} else if (perf_put(p, fn.s, fn.n) == -1)
		return (-1);

	/* s/;/:/g, then drop argument lists unless a Go method name. */
	for (i = 0; i < p->buflen; i++) {
		if (p->buf[i] == ';')
			p->buf[i] = ':';
	}
	o = strstr(p->buf, ".(");
	c = NULL;
	for (r = p->buf; (r = strstr(r, ").")) != NULL; r++)
		c = r;
	go = o != NULL && c != NULL && c >= o + 2;
	if (!go) {
		for (r = p->buf; (r = memchr(r, '(', p->buf + p->buflen - r))
		    != NULL; r++) {
			if (strncmp(r + 1, "anonymous namespace)", 20) != 0) {
				p->buflen = r - p->buf;
				p->buf[p->buflen] = '\0';
				break;
			}
		}
	}
	for (r = w = p->buf; r < p->buf + p->buflen; r++) {
		if (*r != '"' && *r != '\'')
			*w++ = *r;
	}
	p->buflen = w - p->buf;
	p->buf[p->buflen] = '\0';
	if (p->java && p->buf[0] == 'L' && memchr(p->buf, '/', p->buflen)
	    != NULL) {
		memmove(p->buf, p->buf + 1, p->buflen);
		p->buflen--;
	}

	/* Annotations: inlined, kernel (not "[unknown]"), JIT map. */
	if (inl > 0) {
		if (perf_put(p, "_[i]", 4) == -1)
			return (-1);
	} else if ((p->flags & PERF_KERNEL) && ((mod.n > 0 &&
	    mod.s[0] == '[') || (mod.n >= 7 &&
	    memcmp(mod.s + mod.n - 7, "vmlinux", 7) == 0)) &&
	    memmem(mod.s, mod.n, "unknown", 7) == NULL) {
		if (perf_put(p, "_[k]", 4) == -1)
			return (-1);
	} else if (p->flags & PERF_JIT) {
		for (o = mod.s; (o = memmem(o, mod.s + mod.n - o,
		    "/tmp/perf-", 10)) != NULL; o++) {
			for (c = o + 10; c < mod.s + mod.n && perf_digit(*c);
			    c++)
				;
			if (c > o + 10 && mod.s + mod.n - c >= 4 &&
			    c[0] == '.' && memcmp(c + 1, "map", 3) == 0) {
				if (perf_put(p, "_[j]", 4) == -1)
					return (-1);
				break;
			}
		}
	}

	if ((f = profile_builder_func(p->b, p->buf, p->buflen, mod.s, mod.n))
	    == PROFILE_NONE)
		return (-1);
	return (perf_push(p, f));
}

/*
 * A frame line of the current sample. The script unshifts the parts of
 * one line as a group, so they are pushed here in reverse and the whole
 * sample is walked from the end.
 */
static int
perf_line_frame(struct perf *p, const char *s, size_t len)
{
	struct perf_span	 pc, fn, mod;
	const char		*a, *e, *arrow;
	size_t			 n, np, i, k, start;
	uint64_t		 addr;
	int			 rc;
	char			 c;

	if (!perf_frame(s, len, &pc, &fn, &mod))
		return (1);
	/* Its srcline, if any, follows: for the frames pushed here. */
	p->srcok = 1;
	p->lastframe = p->nframes;
	if (!p->has_pname)
		return (0);

	/* s/\+0x[\da-f]+$//: only the last "+0x" can match. */
	for (i = fn.n; i > 0 && (perf_digit(fn.s[i - 1]) ||
	    (fn.s[i - 1] >= 'a' && fn.s[i - 1] <= 'f')); i--)
		;
	if (i < fn.n && i >= 3 && memcmp(fn.s + i - 3, "+0x", 3) == 0)
		fn.n = i - 3;
	if (fn.n > 0 && fn.s[0] == '(')
		return (0);

	/* split /->/: empty trailing fields are dropped. */
	e = fn.s + fn.n;
	while (e - fn.s >= 2 && e[-1] == '>' && e[-2] == '-')
		e -= 2;
	if (e == fn.s)
		return (0);
	np = 0;
	for (a = fn.s;;) {
		if (np == p->partcap) {
			struct perf_span	*nparts;
			size_t			 cap;

			cap = p->partcap ? p->partcap * 2 : 16;
			if ((nparts = reallocarray(p->parts, cap,
			    sizeof *nparts)) == NULL)
				return (-1);
			p->parts = nparts;
			p->partcap = cap;
		}
		arrow = memmem(a, e - a, "->", 2);
		n = arrow != NULL ? (size_t)(arrow - a) : (size_t)(e - a);
		p->parts[np].s = a;
		p->parts[np].n = n;
		np++;
		if (arrow == NULL)
			break;
		a = arrow + 2;
	}
	start = p->nframes;
	for (i = np; i-- > 0;) {
		if ((rc = perf_tidy(p, p->parts[i], mod, pc, (int)(i > 0)))
		    != 0)
			return (rc);
	}
	/* The address, hexadecimal without 0x, for every part. */
	for (i = 0, addr = 0; i < pc.n && i < 16; i++) {
		c = pc.s[i];
		if (perf_digit(c))
			addr = addr << 4 | (uint64_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			addr = addr << 4 | (uint64_t)(c - 'a' + 10);
		else
			break;
	}
	for (k = start; i == pc.n && pc.n > 0 && k < p->nframes; k++)
		p->faddr[k] = addr;
	p->lastframe = start;
	return (0);
}

/*
 * A srcline after a frame line ("  file.c:42"): 0, the line given to
 * that frame line's innermost frame (the first it pushed), or 1 if the
 * line is none.
 */
static int
perf_srcline(struct perf *p, const char *s, size_t len)
{
	const char	*e, *colon;
	uint64_t	 ln = 0;
	uint32_t	 fid;

	if (!p->srcok || len < 2 || s[0] != ' ' || s[1] != ' ')
		return (1);
	p->srcok = 0;
	p->sawsrc = 1;
	while (len > 0 && (s[len - 1] == '\r' || s[len - 1] == ' '))
		len--;
	while (len > 0 && *s == ' ') {
		s++;
		len--;
	}
	if ((colon = memrchr(s, ':', len)) == NULL || colon + 1 == s + len)
		return (0);
	for (e = colon + 1; e < s + len && perf_digit(*e) && ln < UINT32_MAX;
	    e++)
		ln = ln * 10 + (uint64_t)(*e - '0');
	/* "??:0", ":0": unknown; a bracketed address: not a line. */
	if (e != s + len || ln == 0 || ln >= UINT32_MAX || colon == s ||
	    (colon - s == 2 && s[0] == '?' && s[1] == '?'))
		return (0);
	if (p->lastframe >= p->nframes || !p->has_pname)
		return (0);
	if ((fid = profile_builder_string(p->b, s, colon - s)) ==
	    PROFILE_NONE)
		return (-1);
	p->fline[p->lastframe] = (uint32_t)ln;
	p->ffile[p->lastframe] = fid;
	return (0);
}

/*
 * The time after the pid/tid (which end at from): blanks, an optional
 * "[cpu]", blanks, then seconds with a fraction and a ':', as perf
 * script prints it (6 digits, or 9 with --ns). 1 with *t in ns, or 0.
 */
static int
perf_time(const char *s, size_t len, size_t from, int64_t *t)
{
	size_t	 i = from, k;
	int64_t	 sec = 0, frac = 0, scale = 1000000000;

	while (i < len && perf_space((unsigned char)s[i]))
		i++;
	if (i < len && s[i] == '[') {
		while (i < len && s[i] != ']')
			i++;
		for (i++; i < len && perf_space((unsigned char)s[i]); i++)
			;
	}
	for (k = i; i < len && perf_digit((unsigned char)s[i]) &&
	    i - k < 10; i++)
		sec = sec * 10 + (s[i] - '0');
	if (i == k || i >= len || s[i] != '.')
		return (0);
	for (k = ++i; i < len && perf_digit((unsigned char)s[i]); i++) {
		if (i - k < 9) {
			frac = frac * 10 + (s[i] - '0');
			scale /= 10;
		}
	}
	if (i == k || i >= len || s[i] != ':')
		return (0);
	*t = sec * 1000000000 + frac * scale;
	return (1);
}

/* A pid or tid, -1 if not digits (the "?" of a missing pid). */
static int64_t
perf_id(struct perf_span v)
{
	int64_t	 r = 0;
	size_t	 i;

	if (v.n == 0 || v.n > 18)
		return (-1);
	for (i = 0; i < v.n; i++) {
		if (!perf_digit((unsigned char)v.s[i]))
			return (-1);
		r = r * 10 + (v.s[i] - '0');
	}
	return (r);
}

/* The timeline's thread of a command and ids: the last one's, or found. */
static int
perf_thread(struct perf *p, struct perf_span comm, int64_t pid, int64_t tid)
{
	char	*n;

	if (p->tlast != PROFILE_NONE && pid == p->tpid && tid == p->ttid &&
	    comm.n == p->tcommlen && memcmp(comm.s, p->tcomm, comm.n) == 0) {
		p->thread = p->tlast;
		return (0);
	}
	if (comm.n > p->tcommcap) {
		if ((n = realloc(p->tcomm, comm.n)) == NULL)
			return (-1);
		p->tcomm = n;
		p->tcommcap = comm.n;
	}
	memcpy(p->tcomm, comm.s, comm.n);
	p->tcommlen = comm.n;
	p->tpid = pid;
	p->ttid = tid;
	if ((p->tlast = profile_builder_thread(p->b, comm.s, comm.n, "", 0,
	    pid, tid)) == PROFILE_NONE)
		return (-1);
	p->thread = p->tlast;
	return (0);
}

/* An event line: a new $pname and period, unless the event is filtered. */
static int
perf_line_header(struct perf *p, const char *s, size_t len, char **why)
{
	struct perf_span	 comm, pid, tid, period, event;
	int64_t			 v = 0;
	uint64_t		 u;
	size_t			 i, need, from;
	char			*np;
	int			 has_period = 0, sample = 0;

	if (!perf_header(s, len, &comm, &pid, &tid))
		return (1);
	period.n = 0;
	event.n = 0;
	if (perf_event(s, len, &period, &event)) {
		if (p->event == NULL) {
			if ((p->event = malloc(event.n + 1)) == NULL)
				return (-1);
			memcpy(p->event, event.s, event.n);
			p->event[event.n] = '\0';
			p->eventlen = event.n;
		} else if (event.n != p->eventlen ||
		    memcmp(event.s, p->event, event.n) != 0)
			return (0);
		has_period = period.n > 0;
		sample = 1;
	} else if (!perf_record(s, len) && perf_event_loose(s, len,
	    (tid.n > 0 ? tid.s + tid.n : pid.s + pid.n) - s, &period,
	    &event)) {
		/* Filtered as above when it names its event. */
		if (event.n > 0 && p->event == NULL) {
			if ((p->event = malloc(event.n + 1)) == NULL)
				return (-1);
			memcpy(p->event, event.s, event.n);
			p->event[event.n] = '\0';
			p->eventlen = event.n;
		} else if (event.n > 0 && (event.n != p->eventlen ||
		    memcmp(event.s, p->event, event.n) != 0))
			return (0);
		has_period = 1;
		sample = 1;
	}
	/* The spans above hold digits only: a fault is an overflow. */
	if (has_period && period.n > 0) {
		if (decimal_u64(period.s, period.n, INT64_MAX, &u) !=
		    DECIMAL_OK) {
			cause_set(why, "period overflows 64 bits");
			return (-2);
		}
		v = (int64_t)u;
	}
	/* Perl: an empty or "0" period is false, and counts 1. */
	if (!has_period || (period.n == 1 && period.s[0] == '0'))
		v = 1;

	/*
	 * The first sample's event line decides the metrics (a side-band
	 * record before it, PERF_RECORD_MMAP2 and the like, has no period
	 * and must not drop the metric); perf_end decides if none had one.
	 */
	if (p->samples == -1 && sample && perf_metrics(p, has_period,
	    event) == -1)
		return (-1);
	p->weight = v;
	from = (tid.n > 0 ? tid.s + tid.n : pid.s + pid.n) - s;

	/* No tid, or a tid of "0" (false in Perl): the pid is the tid. */
	if (tid.n == 0 || (tid.n == 1 && tid.s[0] == '0')) {
		tid = pid;
		pid.s = "?";
		pid.n = 1;
	}
	/* When and on which thread, for the timeline. */
	p->has_time = sample && perf_time(s, len, from, &p->time);
	if (p->has_time && perf_thread(p, comm, perf_id(pid),
	    perf_id(tid)) == -1)
		return (-1);
	need = comm.n + pid.n + tid.n + 3;
	if (need > p->pnamecap) {
		if ((np = realloc(p->pname, need)) == NULL)
			return (-1);
		p->pname = np;
		p->pnamecap = need;
	}
	memcpy(p->pname, comm.s, comm.n);
	p->pnamelen = comm.n;
	if (p->flags & (PERF_PID | PERF_TID)) {
		p->pname[p->pnamelen++] = '-';
		memcpy(p->pname + p->pnamelen, pid.s, pid.n);
		p->pnamelen += pid.n;
		if (p->flags & PERF_TID) {
			p->pname[p->pnamelen++] = '/';
			memcpy(p->pname + p->pnamelen, tid.s, tid.n);
			p->pnamelen += tid.n;
		}
	}
	for (i = 0; i < p->pnamelen; i++) {
		if (p->pname[i] == ' ')
			p->pname[i] = '_';
	}
	p->java = p->pnamelen == 4 && memcmp(p->pname, "java", 4) == 0;
	p->has_pname = 1;
	return (0);
}

/* Make the metrics: period (when the samples have one) and samples. */
static int
perf_metrics(struct perf *p, int has_period, struct perf_span event)
{
	if (has_period) {
		p->period = profile_builder_metric(p->b, "period",
		    (event.n == 9 && memcmp(event.s, "cpu-clock", 9) == 0) ||
		    (event.n == 10 && memcmp(event.s, "task-clock", 10) ==
		    0) ? "ns" : "count");
		if (p->period == -1)
			return (-1);
	}
	if ((p->samples = profile_builder_metric(p->b, "samples", "count"))
	    == -1)
		return (-1);
	if ((p->period != -1 && profile_builder_time_mode(p->b, p->period,
	    TIMELINE_WEIGHT) == -1) || profile_builder_time_mode(p->b,
	    p->samples, TIMELINE_COUNT) == -1)
		return (-1);
	return (0);
}

/* A blank line: the sample read so far is complete. */
static int
perf_end(struct perf *p)
{
	struct perf_span	 none = { NULL, 0 };
	uint32_t		 node, f;
	size_t			 i;

	if (!p->has_pname)
		return (0);
	if (p->samples == -1 && perf_metrics(p, 0, none) == -1)
		return (-1);
	if ((f = profile_builder_func(p->b, p->pname, p->pnamelen, "", 0)) ==
	    PROFILE_NONE ||
	    (node = profile_builder_child(p->b, PROFILE_ROOT, f)) ==
	    PROFILE_NONE)
		return (-1);
	for (i = p->nframes; i-- > 0;) {
		if ((node = profile_builder_child(p->b, node, p->frames[i])) ==
		    PROFILE_NONE)
			return (-1);
	}
	if (p->period != -1 &&
	    profile_builder_add(p->b, node, p->period, p->weight) == -1)
		return (-1);
	if (profile_builder_add(p->b, node, p->samples, 1) == -1 ||
	    profile_builder_sample(p->b, node, p->period != -1 ? p->weight :
	    1) == -1 || perf_end_lines(p) == -1)
		return (-1);
	if (p->has_time && profile_builder_timed(p->b, node, p->thread,
	    p->time, 0, p->period != -1 ? p->weight : 1) == -1)
		return (-1);
	p->nsamples++;
	p->nframes = 0;
	p->has_pname = 0;
	return (0);
}

/*
 * The sample's costs by line (srcline read), else at its innermost
 * address: the file's first sample decides which.
 */
static int
perf_end_lines(struct perf *p)
{
	uint32_t	 f, fr, ln;
	size_t		 i;

	if (p->mode == PERF_MODE_UNSET)
		p->mode = p->sawsrc ? PERF_MODE_LINES : PERF_MODE_ADDRS;
	if (p->mode == PERF_MODE_ADDRS) {
		if (p->nframes == 0 || p->faddr[0] == UINT64_MAX)
			return (0);
		if ((fr = profile_builder_addr_frame(p->b, p->frames[0],
		    p->faddr[0])) == PROFILE_NONE ||
		    (p->period != -1 && profile_builder_line_self(p->b, fr,
		    p->period, p->weight) == -1) ||
		    profile_builder_line_self(p->b, fr, p->samples, 1) == -1)
			return (-1);
		return (0);
	}
	if ((f = profile_builder_func(p->b, p->pname, p->pnamelen, "", 0)) ==
	    PROFILE_NONE ||
	    (fr = profile_builder_line_frame(p->b, f, 0, 0)) == PROFILE_NONE ||
	    (ln = profile_builder_line_child(p->b, PROFILE_ROOT, fr)) ==
	    PROFILE_NONE)
		return (-1);
	for (i = p->nframes; i-- > 0;) {
		if ((fr = profile_builder_line_frame(p->b, p->frames[i],
		    p->ffile[i], p->fline[i])) == PROFILE_NONE ||
		    (ln = profile_builder_line_child(p->b, ln, fr)) ==
		    PROFILE_NONE)
			return (-1);
	}
	if (p->period != -1 &&
	    profile_builder_line_add(p->b, ln, p->period, p->weight) == -1)
		return (-1);
	return (profile_builder_line_add(p->b, ln, p->samples, 1));
}

/* Parse the variant words into flags. */
static int
perf_options(const char *variant, int *flags, char **cause)
{
	const char	*s, *e;
	size_t		 n;

	*flags = 0;
	if (variant == NULL)
		return (0);
	for (s = variant; *s != '\0'; s = *e == ',' ? e + 1 : e) {
		e = strchr(s, ',');
		if (e == NULL)
			e = s + strlen(s);
		n = e - s;
		if (n == 0)
			continue;
		if (n == 3 && strncmp(s, "pid", 3) == 0)
			*flags |= PERF_PID;
		else if (n == 3 && strncmp(s, "tid", 3) == 0)
			*flags |= PERF_TID;
		else if (n == 6 && strncmp(s, "kernel", 6) == 0)
			*flags |= PERF_KERNEL;
		else if (n == 3 && strncmp(s, "jit", 3) == 0)
			*flags |= PERF_JIT;
		else if (n == 3 && strncmp(s, "all", 3) == 0)
			*flags |= PERF_KERNEL | PERF_JIT;
		else if (n == 5 && strncmp(s, "addrs", 5) == 0)
			*flags |= PERF_ADDRS;
		else {
			cause_set(cause, "perf: unknown variant \"%.*s\" "
			    "(pid, tid, kernel, jit, all, addrs)", (int)n, s);
			return (-1);
		}
	}
	return (0);
}

/*
 * An event line (after any '#' header and side-band records) followed
 * by a frame line, or by a blank line when it ends in "event:". Folded
 * stacks never match: their lines end in a number; nor does other text
 * whose first line happens to start "word number" (bpftrace's
 * "Attaching 1 probe..."): a frame or the event must follow.
 */
static int
perf_probe(const char *buf, size_t len)
{
	struct perf_span	 a, b, c, pid, tid;
	const char		*nl, *line, *next;
	size_t			 n, m, lines;
	int			 strict, loose;

	for (lines = 0;; lines++) {
		if (len == 0 || lines == 64)
			return (0);
		nl = memchr(buf, '\n', len);
		n = nl ? (size_t)(nl - buf) : len;
		if (n > 0 && buf[0] != '#' && !perf_record(buf, n))
			break;
		if (nl == NULL)
			return (0);
		buf += n + 1;
		len -= n + 1;
	}
	line = buf;
	if (memchr(line, '\0', n) != NULL ||
	    !perf_header(line, n, &a, &pid, &tid))
		return (0);
	strict = perf_event(line, n, &a, &b);
	loose = !strict && perf_event_loose(line, n, (tid.n > 0 ?
	    tid.s + tid.n : pid.s + pid.n) - line, &a, &b);
	if (nl == NULL)
		return (strict ? 40 : 0);
	next = nl + 1;
	len -= n + 1;
	nl = memchr(next, '\n', len);
	m = nl ? (size_t)(nl - next) : len;
	if (m > 0 && next[m - 1] == '\r')
		m--;
	if (m > 0 && perf_frame(next, m, &a, &b, &c))
		return (strict || loose ? 90 : 60);
	if (m == 0 && strict)
		return (90);
	return (0);
}

static struct profile *
perf_load(struct input *in, const struct reader_options *opts,
    char **cause)
{
	struct perf	 p;
	struct profile	*prof = NULL;
	char		*line, *why = NULL;
	size_t		 len;
	int		 rc;

	memset(&p, 0, sizeof p);
	p.period = p.samples = -1;
	p.tlast = PROFILE_NONE;
	if (perf_options(opts->variant, &p.flags, cause) == -1)
		return (NULL);
	if ((p.b = profile_builder_create("perf")) == NULL ||
	    profile_builder_clock(p.b, "ns", 1e9) == -1)
		goto nomem;
	if (opts->max_nodes != 0)
		profile_builder_set_max_nodes(p.b, opts->max_nodes);

	while ((line = input_line(in, &len, &why)) != NULL) {
		if (line[0] == '#')
			continue;
		if (len == 0) {
			p.srcok = 0;
			if (perf_end(&p) == -1)
				goto builderr;
			continue;
		}
		if ((rc = perf_line_header(&p, line, len, &why)) == 1) {
			if ((rc = perf_line_frame(&p, line, len)) == 1)
				rc = perf_srcline(&p, line, len);
		} else
			p.srcok = 0;
		if (rc == 1) {
			if (p.skipped++ == 0)
				p.firstskip = in->lineno;
		} else if (rc == -2) {
			if (why == NULL)
				cause_set(&why, "more than %d frames in one "
				    "sample", PERF_MAX_FRAMES);
			cause_set(cause, "%s: line %llu: %s", in->path,
			    (unsigned long long)in->lineno, why);
			goto fail;
		} else if (rc == -1)
			goto builderr;
	}
	if (why != NULL) {
		cause_set(cause, "%s: %s", in->path, why);
		goto fail;
	}
	/*
	 * perf script ends every line: a last line without its newline
	 * inside a sample is a file cut short, whose sample would be lost.
	 */
	if (in->partial && p.has_pname) {
		cause_set(cause, "%s: line %llu: the file ends in the middle "
		    "of a sample (truncated)", in->path,
		    (unsigned long long)in->lineno);
		goto fail;
	}
	if (p.nsamples == 0) {
		if (p.skipped > 0)
			cause_set(cause, "%s: no samples (%llu lines not "
			    "understood, the first at line %llu)", in->path,
			    (unsigned long long)p.skipped,
			    (unsigned long long)p.firstskip);
		else
			cause_set(cause, "%s: no samples (a sample ends with "
			    "a blank line)", in->path);
		goto fail;
	}
	prof = profile_builder_finish(p.b, cause);
	p.b = NULL;
	goto done;

builderr:
	cause_set(cause, "%s: line %llu: %s", in->path,
	    (unsigned long long)in->lineno, profile_builder_error(p.b));
	goto fail;
nomem:
	cause_set(cause, "out of memory");
fail:
	profile_builder_free(p.b);
done:
	free(why);
	free(p.event);
	free(p.tcomm);
	free(p.pname);
	free(p.frames);
	free(p.fline);
	free(p.ffile);
	free(p.faddr);
	free(p.parts);
	free(p.buf);
	return (prof);
}
