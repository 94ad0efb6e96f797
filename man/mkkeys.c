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
#include <stdlib.h>
#include <string.h>

#include "query.h"

/*
 * mkkeys: print the query keys of common/query.c's table as the mdoc list
 * deepq-query(7) embeds between its KEYS markers, so the manual can never
 * drift from the code (make regen-man rewrites it; make check compares).
 */

static void	mdoc_text(const char *);
static void	mdoc_values(const char *);

/* Text for mdoc: a backslash is the only character to escape mid-line. */
static void
mdoc_text(const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '\\')
			fputs("\\e", stdout);
		else
			putchar(*s);
	}
}

/* "a|b|c" as Cm a | Cm b | Cm c. */
static void
mdoc_values(const char *v)
{
	const char	*bar;

	for (;;) {
		bar = strchr(v, '|');
		printf("Cm %.*s", (int)(bar ? bar - v : (long)strlen(v)), v);
		if (bar == NULL)
			break;
		fputs(" | ", stdout);
		v = bar + 1;
	}
}

int
main(void)
{
	const struct query_keyinfo	*ki;
	struct query			 q;
	char				*list, *def;
	int				 k;

	puts(".Bl -tag -width Ds");
	for (k = 0; k < QUERY_NKEYS; k++) {
		ki = query_keyinfo(k);
		printf(".It Cm %s Ns = Ns ", ki->name);
		switch (ki->type) {
		case QUERY_TYPE_STRING:
			puts("Ar string");
			break;
		case QUERY_TYPE_ENUM:
			if ((list = query_keyinfo_list(ki)) == NULL) {
				fputs("mkkeys: out of memory\n", stderr);
				return (1);
			}
			mdoc_values(list);
			free(list);
			putchar('\n');
			break;
		case QUERY_TYPE_INT:
			puts("Ar n");
			break;
		case QUERY_TYPE_NUMBER:
			puts("Ar x");
			break;
		case QUERY_TYPE_BOOL:
			puts("Cm 0 | 1");
			break;
		case QUERY_TYPE_PATH:
			puts("Ar id Ns Op , Ns Ar id ...");
			break;
		case QUERY_TYPE_RANGE:
			puts("Ar a , Ns Ar b");
			break;
		}
		/* Help text, capitalised, as a sentence. */
		if (ki->help[0] >= 'a' && ki->help[0] <= 'z')
			putchar(ki->help[0] - 'a' + 'A');
		else
			putchar(ki->help[0]);
		mdoc_text(ki->help + 1);
		puts(".");
		if (ki->type == QUERY_TYPE_INT ||
		    ki->type == QUERY_TYPE_NUMBER ||
		    ki->type == QUERY_TYPE_RANGE)
			printf("From %lld to %lld.\n", (long long)ki->min,
			    (long long)ki->max);
		else if (ki->type == QUERY_TYPE_STRING)
			printf("At most %lld bytes.\n", (long long)ki->max);
		/* The default, as a link would write it; none for text. */
		if (ki->type != QUERY_TYPE_STRING &&
		    ki->type != QUERY_TYPE_PATH &&
		    ki->type != QUERY_TYPE_RANGE) {
			query_init(&q);
			if ((def = query_key_text(&q, k)) == NULL) {
				fputs("mkkeys: out of memory\n", stderr);
				return (1);
			}
			fputs("Default:\n.Cm ", stdout);
			mdoc_text(def);
			puts(" .");
			free(def);
		}
	}
	puts(".El");
	return (0);
}
