/*
 * Helpers for reader unit tests: load a profile from a string, and find
 * a call node or a function by name.
 */

#ifndef WALK_H
#define WALK_H

#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "profile.h"
#include "reader.h"

/* Load s with a reader (and variant); NULL with *cause set on failure. */
static inline struct profile *
walk_load(const char *s, size_t len, const char *format, const char *variant,
    uint32_t max_nodes, char **cause)
{
	struct reader_options	 opts = { 0 };
	struct input		*in;
	struct profile		*p;

	opts.variant = variant;
	opts.max_nodes = max_nodes;
	*cause = NULL;
	if ((in = input_memory(s, len)) == NULL)
		abort();
	p = reader_load_input(in, format, &opts, cause);
	input_free(in);
	return (p);
}

/*
 * The node at a path of function names separated by ';' below the root
 * (matching the first function of each name), or PROFILE_NONE.
 */
static inline uint32_t
walk_node(const struct profile *p, const char *path)
{
	uint32_t	 n = PROFILE_ROOT, c;
	const char	*e;
	size_t		 len;

	if (p == NULL)
		return (PROFILE_NONE);
	while (*path != '\0') {
		e = strchr(path, ';');
		len = e != NULL ? (size_t)(e - path) : strlen(path);
		for (c = p->node_first_child[n]; c != PROFILE_NONE;
		    c = p->node_next_sibling[c]) {
			const char *name = profile_func_name(p,
			    p->node_func[c]);

			if (strlen(name) == len && memcmp(name, path, len) == 0)
				break;
		}
		if ((n = c) == PROFILE_NONE)
			return (PROFILE_NONE);
		path += len + (e != NULL);
	}
	return (n);
}

/* Self value of the node at a path in metric m, or -1 if there is none. */
static inline int64_t
walk_self(const struct profile *p, const char *path, int m)
{
	uint32_t	 n = walk_node(p, path);

	return (n == PROFILE_NONE ? -1 : p->metrics[m].self[n]);
}

/* A function's self or total in metric m by exact name, -1 if none. */
static inline int64_t
walk_func(const struct profile *p, const char *name, int m, int total)
{
	uint32_t	 f;

	if (p == NULL || (f = profile_func_find(p, name)) == PROFILE_NONE)
		return (-1);
	return (total ? p->metrics[m].func_total[f] :
	    p->metrics[m].func_self[f]);
}

#endif /* WALK_H */
