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

#ifndef PATTERN_H
#define PATTERN_H

/*
 * The regexes of the query keys that take one (focus=, ignore=, hide=,
 * show=): POSIX extended syntax as users write it, compiled and matched
 * by PCRE2 with every resource bounded. A hostile pattern is refused at
 * compile time (too long, nested too deep, too large once compiled) or
 * stops at a limit while matching (steps, backtracking depth, heap), and
 * every match is charged to the query's budget, which also reads the
 * clock after each one: no pattern can crash the server, grow it without
 * bound, or hold it past the query's deadline.
 */

#include <stddef.h>

#define PATTERN_MAX_LEN		1024	/* bytes of a pattern as given */
#define PATTERN_MAX_NEST	32	/* nested parentheses */
#define PATTERN_MAX_CODE	65536	/* bytes of compiled pattern */
#define PATTERN_MAX_MEMORY	(16 << 20) /* bytes PCRE2 may hold at once */
#define PATTERN_MATCH_LIMIT	1000000	/* steps from one start in a name */
#define PATTERN_MATCH_TOTAL	4000000	/* steps over all starts in a name */
#define PATTERN_MATCH_FLOOR	64	/* steps from one start at least */
#define PATTERN_DEPTH_LIMIT	50000	/* backtracking depth of one match */
#define PATTERN_HEAP_LIMIT	8192	/* KiB of backtracking frames */

/* pattern_match's failures: both end the query. */
#define PATTERN_ERR_LIMIT	-1	/* a match hit a limit */
#define PATTERN_ERR_BUDGET	-2	/* the query's budget is spent */

struct cost;
struct pattern;

/* pattern_create_flags's flags. */
#define PATTERN_ICASE		0x01	/* letters match either case */

struct pattern	*pattern_create(const char *, char **);
struct pattern	*pattern_create_flags(const char *, int, char **);
void		 pattern_free(struct pattern *);
int		 pattern_match(struct pattern *, const char *, size_t,
		    struct cost *, char **);
char		*pattern_translate(const char *, char **);

#endif /* PATTERN_H */
