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

#include <stdio.h>
#include <string.h>

#include "reader.h"

/*
 * Files no reader takes but whose kind is known: other tools' raw output
 * and binary formats. Recognising them gives a message naming what the
 * file is and how to turn it into something deepq reads, instead of a
 * bare "unknown format", and a refusal scores above a weak reader probe
 * so that such a file is never misread as a one-sample profile.
 */

#define REFUSE_LINES	64	/* lines of the head looked at */

struct refuse_line {
	const char	*s;
	size_t		 n;
};

struct refuse {
	const char	*what;
	const char	*hint;
	int		 (*probe)(const struct refuse_line *, size_t,
			     const char *, size_t);
};

static size_t	reader_refuse_lines(const char *, size_t,
		    struct refuse_line *, size_t);
static int	reader_refuse_prefix(const struct refuse_line *, const char *);
static int	reader_refuse_perf_data(const struct refuse_line *, size_t,
		    const char *, size_t);
static int	reader_refuse_jfr(const struct refuse_line *, size_t,
		    const char *, size_t);
static int	reader_refuse_v8_log(const struct refuse_line *, size_t,
		    const char *, size_t);
static int	reader_refuse_prof_process(const struct refuse_line *, size_t,
		    const char *, size_t);
static int	reader_refuse_bpftrace_json(const struct refuse_line *,
		    size_t, const char *, size_t);
static int	reader_refuse_bpftrace(const struct refuse_line *, size_t,
		    const char *, size_t);
static int	reader_refuse_eu_stack(const struct refuse_line *, size_t,
		    const char *, size_t);
static int	reader_refuse_jstack(const struct refuse_line *, size_t,
		    const char *, size_t);

static const struct refuse reader_refuse_table[] = {
	{ "perf.data, the binary file of perf record",
	  "convert it with `perf script -i FILE > FILE.txt' on the machine "
	  "that recorded it, and load the text",
	  reader_refuse_perf_data },
	{ "a Java Flight Recorder (JFR) file",
	  "convert it to folded stacks, for example with async-profiler's "
	  "converter (`jfrconv --cpu -o collapsed FILE OUT'); `jfr print' "
	  "shows its events as text",
	  reader_refuse_jfr },
	{ "a node --prof (V8) tick log",
	  "record with `node --cpu-prof' instead, whose .cpuprofile file "
	  "deepq reads (`node --prof-process' makes only a summary)",
	  reader_refuse_v8_log },
	{ "the summary `node --prof-process' prints, not a profile",
	  "record with `node --cpu-prof' and load the .cpuprofile file",
	  reader_refuse_prof_process },
	{ "bpftrace's JSON output (-f json)",
	  "print the stack map as text (without -f json) and load that",
	  reader_refuse_bpftrace_json },
	{ "bpftrace output without a stack map deepq can read",
	  "print stacks as a map of counts, @[ustack] = count(), or fold "
	  "the output with FlameGraph's stackcollapse-bpftrace.pl",
	  reader_refuse_bpftrace },
	{ "eu-stack output",
	  "fold it with FlameGraph's stackcollapse-elfutils.pl and load "
	  "the folded file",
	  reader_refuse_eu_stack },
	{ "a jstack thread dump (one snapshot, not a profile)",
	  "fold a series of dumps with FlameGraph's stackcollapse-jstack.pl "
	  "and load the folded file",
	  reader_refuse_jstack },
};
#define NREFUSE (sizeof reader_refuse_table / sizeof reader_refuse_table[0])

/* Split the head into at most max lines (without LF or CRLF). */
static size_t
reader_refuse_lines(const char *buf, size_t len, struct refuse_line *l,
    size_t max)
{
	const char	*nl;
	size_t		 n = 0, k;

	while (len > 0 && n < max) {
		nl = memchr(buf, '\n', len);
		k = nl != NULL ? (size_t)(nl - buf) : len;
		l[n].s = buf;
		l[n].n = k > 0 && buf[k - 1] == '\r' ? k - 1 : k;
		n++;
		if (nl == NULL)
			break;
		buf += k + 1;
		len -= k + 1;
	}
	return (n);
}

/* Does the line start with the string? */
static int
reader_refuse_prefix(const struct refuse_line *l, const char *p)
{
	size_t	 n = strlen(p);

	return (l->n >= n && memcmp(l->s, p, n) == 0);
}

/* perf.data: "PERFILE2" (and the older "PERFFILE"). */
static int
reader_refuse_perf_data(const struct refuse_line *l, size_t nl,
    const char *buf, size_t len)
{
	return (len >= 8 && (memcmp(buf, "PERFILE2", 8) == 0 ||
	    memcmp(buf, "PERFFILE", 8) == 0) ? 100 : 0);
}

/* JFR chunks start with "FLR\0". */
static int
reader_refuse_jfr(const struct refuse_line *l, size_t nl, const char *buf,
    size_t len)
{
	return (len >= 4 && memcmp(buf, "FLR\0", 4) == 0 ? 100 : 0);
}

/* node --prof's isolate-*.log: "v8-version,11,3,...". */
static int
reader_refuse_v8_log(const struct refuse_line *l, size_t nl, const char *buf,
    size_t len)
{
	return (nl > 0 && reader_refuse_prefix(&l[0], "v8-version,") ? 100 :
	    0);
}

/* "Statistical profiling result from isolate-....log, (N ticks, ...)". */
static int
reader_refuse_prof_process(const struct refuse_line *l, size_t nl,
    const char *buf, size_t len)
{
	size_t	 i;

	for (i = 0; i < nl && i < 4; i++) {
		if (reader_refuse_prefix(&l[i],
		    "Statistical profiling result from "))
			return (100);
	}
	return (0);
}

/* bpftrace -f json: one object a line, {"type": "attached_probes"...}. */
static int
reader_refuse_bpftrace_json(const struct refuse_line *l, size_t nl,
    const char *buf, size_t len)
{
	size_t	 i;

	for (i = 0; i < nl && i < 8; i++) {
		if (reader_refuse_prefix(&l[i], "{\"type\": \"") &&
		    (reader_refuse_prefix(&l[i], "{\"type\": \"attached_probes\"")
		    || reader_refuse_prefix(&l[i], "{\"type\": \"map\"") ||
		    reader_refuse_prefix(&l[i], "{\"type\": \"printf\"")))
			return (100);
	}
	return (0);
}

/*
 * bpftrace's text: "Attaching N probe(s)..." first, or map entries
 * "@name[" ... "]: N". Scored above every weak text probe; a stack map
 * the bpftrace reader takes scores higher still.
 */
static int
reader_refuse_bpftrace(const struct refuse_line *l, size_t nl,
    const char *buf, size_t len)
{
	size_t	 i;

	for (i = 0; i < nl && l[i].n == 0; i++)
		;
	if (i < nl && reader_refuse_prefix(&l[i], "Attaching ") &&
	    memmem(l[i].s, l[i].n, " probe", 6) != NULL)
		return (95);
	for (; i < nl; i++) {
		if (l[i].n >= 2 && l[i].s[0] == '@' &&
		    l[i].s[l[i].n - 1] == '[')
			return (95);
	}
	return (0);
}

/* eu-stack: "PID 123 - process", "TID 123:", "#0  0x00007f... name". */
static int
reader_refuse_eu_stack(const struct refuse_line *l, size_t nl,
    const char *buf, size_t len)
{
	size_t	 i;
	int	 pid = 0, tid = 0, frame = 0;

	for (i = 0; i < nl; i++) {
		if (reader_refuse_prefix(&l[i], "PID ") &&
		    memmem(l[i].s, l[i].n, " - ", 3) != NULL)
			pid = 1;
		else if (reader_refuse_prefix(&l[i], "TID ") &&
		    l[i].s[l[i].n - 1] == ':')
			tid = 1;
		else if (reader_refuse_prefix(&l[i], "#0  0x"))
			frame = 1;
	}
	return ((pid || tid) && frame ? 95 : 0);
}

/* jstack (and jcmd Thread.print): "Full thread dump ..." near the top. */
static int
reader_refuse_jstack(const struct refuse_line *l, size_t nl,
    const char *buf, size_t len)
{
	size_t	 i;

	for (i = 0; i < nl && i < 6; i++) {
		if (reader_refuse_prefix(&l[i], "Full thread dump "))
			return (100);
	}
	return (0);
}

/*
 * The refusal that scores the head highest: *what and *hint for the
 * message, and its score (0: none).
 */
int
reader_refuse(const char *buf, size_t len, const char **what,
    const char **hint)
{
	struct refuse_line	 l[REFUSE_LINES];
	size_t			 nl, i;
	int			 score, top = 0;

	nl = reader_refuse_lines(buf, len, l, REFUSE_LINES);
	for (i = 0; i < NREFUSE; i++) {
		score = reader_refuse_table[i].probe(l, nl, buf, len);
		if (score > top) {
			top = score;
			*what = reader_refuse_table[i].what;
			*hint = reader_refuse_table[i].hint;
		}
	}
	return (top);
}

/*
 * What an unknown file looks like, for the message: a few words into
 * out (always terminated), the kind of data at most, never a byte of
 * it. Any file under the profile root may be asked for, and its error
 * goes to any web client: a password, a .htpasswd's hash, the first
 * line of a private note must not come back in it.
 */
void
reader_refuse_describe(const char *buf, size_t len, char *out, size_t size)
{
	const unsigned char	*p = (const unsigned char *)buf;
	size_t			 i, n, bad = 0;

	if (len >= 4 && memcmp(buf, "\177ELF", 4) == 0) {
		snprintf(out, size, "an ELF executable or library");
		return;
	}
	if (len >= 4 && memcmp(buf, "PK\3\4", 4) == 0) {
		snprintf(out, size, "a zip archive (unpack it first)");
		return;
	}
	if (len >= 3 && memcmp(buf, "BZh", 3) == 0) {
		snprintf(out, size, "bzip2 data (not read: decompress it, "
		    "or use gzip, zstd or xz)");
		return;
	}
	if (len >= 4 && memcmp(buf, "\x04\x22\x4d\x18", 4) == 0) {
		snprintf(out, size, "lz4 data (not read: decompress it, "
		    "or use gzip, zstd or xz)");
		return;
	}
	n = len < 512 ? len : 512;
	for (i = 0; i < n; i++) {
		if (p[i] == 0 || (p[i] < 0x20 && p[i] != '\n' &&
		    p[i] != '\r' && p[i] != '\t'))
			bad++;
	}
	if (bad > 0) {
		snprintf(out, size, "binary data of no format it knows");
		return;
	}
	for (i = 0; i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' ||
	    p[i] == '\r'); i++)
		;
	if (i < len && (p[i] == '{' || p[i] == '[')) {
		snprintf(out, size, "JSON of a kind no reader knows");
		return;
	}
	if (i < len && p[i] == '<') {
		snprintf(out, size, "HTML or XML");
		return;
	}
	snprintf(out, size, "text of no format it knows");
}
