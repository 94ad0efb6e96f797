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

#include <jansson.h>

#include "json-build.h"

/*
 * Set member key of object o to v (taken, as json_object_set_new()
 * takes it; a NULL v is a constructor's failure). -1 and the build
 * failed if it was not set.
 */
int
json_build_set(struct json_build *b, json_t *o, const char *key, json_t *v)
{
	if (json_object_set_new(o, key, v) == -1)
		return (json_build_fail(b));
	return (0);
}

/* Append v (taken) to array a; -1 and the build failed if not. */
int
json_build_append(struct json_build *b, json_t *a, json_t *v)
{
	if (json_array_append_new(a, v) == -1)
		return (json_build_fail(b));
	return (0);
}

/* Mark the build failed (a part made elsewhere failed); -1. */
int
json_build_fail(struct json_build *b)
{
	b->failed = 1;
	return (-1);
}

/* 0, or -1 when any part of the build failed. */
int
json_build_status(const struct json_build *b)
{
	return (b->failed ? -1 : 0);
}

/*
 * The finished answer: root, or NULL with root freed when root is NULL
 * or any part of the build failed.
 */
json_t *
json_build_end(struct json_build *b, json_t *root)
{
	if (root == NULL || b->failed) {
		json_decref(root);
		return (NULL);
	}
	return (root);
}
