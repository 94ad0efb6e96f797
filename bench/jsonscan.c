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

#include <sys/resource.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "input.h"
#include "json-stream.h"

/*
 * jsonscan stream|jansson FILE: parse FILE once and print the CPU
 * seconds, MB/s and peak RSS, with a count of the values read (so
 * that no work is optimised away). "stream" pulls every token from
 * json-stream.c (what the JSON readers read with); "jansson" loads
 * the document tree (what they read with before). For
 * bench/json-parsers.sh, beside libyajl's and simdjson's own scans.
 */

static double
cpu(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (ts.tv_sec + ts.tv_nsec / 1e9);
}

static int
scan_stream(const char *path, uint64_t *values, uint64_t *sum)
{
	struct input		*in;
	struct json_stream	*js;
	struct json_token	 t;
	char			*cause = NULL;
	int			 rv = 0;

	if ((in = input_open(path, &cause)) == NULL) {
		fprintf(stderr, "jsonscan: %s\n", cause);
		return (-1);
	}
	if ((js = json_stream_create(in, 0)) == NULL) {
		input_free(in);
		return (-1);
	}
	for (;;) {
		switch (json_stream_next(js, &t)) {
		case JSON_TOK_ERROR:
			fprintf(stderr, "jsonscan: %s: %s\n", path,
			    json_stream_error(js));
			rv = -1;
			goto out;
		case JSON_TOK_END:
			goto out;
		case JSON_TOK_INTEGER:
			*sum += (uint64_t)t.i;
			break;
		case JSON_TOK_REAL:
			*sum += (uint64_t)t.d;
			break;
		case JSON_TOK_KEY:
		case JSON_TOK_STRING:
			*sum += t.len;
			break;
		default:
			break;
		}
		(*values)++;
	}
out:
	json_stream_free(js);
	input_free(in);
	return (rv);
}

int
main(int argc, char **argv)
{
	struct rusage	 ru;
	json_error_t	 jerr;
	json_t		*doc;
	uint64_t	 values = 0, sum = 0;
	double		 c0, c;
	FILE		*f;
	long		 size;

	if (argc != 3 || (strcmp(argv[1], "stream") != 0 &&
	    strcmp(argv[1], "jansson") != 0)) {
		fprintf(stderr, "usage: jsonscan stream|jansson file\n");
		return (1);
	}
	if ((f = fopen(argv[2], "r")) == NULL || fseek(f, 0, SEEK_END) == -1 ||
	    (size = ftell(f)) == -1) {
		perror(argv[2]);
		return (1);
	}
	fclose(f);
	c0 = cpu();
	if (strcmp(argv[1], "stream") == 0) {
		if (scan_stream(argv[2], &values, &sum) == -1)
			return (1);
	} else {
		if ((doc = json_load_file(argv[2], 0, &jerr)) == NULL) {
			fprintf(stderr, "jsonscan: %s\n", jerr.text);
			return (1);
		}
		values = json_is_array(doc) ? json_array_size(doc) :
		    json_object_size(doc);
		json_decref(doc);
	}
	c = cpu() - c0;
	getrusage(RUSAGE_SELF, &ru);
	printf("%s %s: %.1f MB, CPU %.3f s, %.1f MB/s, peak RSS %.1f MB "
	    "(%.2f x the file), %llu values (%llu)\n", argv[1], argv[2],
	    size / 1e6, c, size / 1e6 / c, ru.ru_maxrss / 1024.0,
	    ru.ru_maxrss * 1024.0 / size, (unsigned long long)values,
	    (unsigned long long)sum);
	return (0);
}
