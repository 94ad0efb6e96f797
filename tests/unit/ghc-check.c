/*
 * ghc-check FILE...: a GHC profile, read by deepq, agrees node by node
 * with the file as parsed here independently (whitespace fields from the
 * right, not the reader's column offsets; jansson for -pj). For text:
 * our self values print as GHC's individual percentages, our inclusive
 * values as GHC's inherited percentages, entries and (-P) raw ticks and
 * bytes are equal, and the totals are the header's. For -pj: self values
 * are the node's, inclusive values the sums over the JSON subtree, and
 * the totals are total_ticks and total_alloc. TAP.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "profile.h"
#include "reader.h"
#include "tap.h"

#define MAXROW	64

static int	mt, ma, me;

/* Next node in preorder, or PROFILE_NONE. */
static uint32_t
next_node(const struct profile *p, uint32_t n)
{
	if (p->node_first_child[n] != PROFILE_NONE)
		return (p->node_first_child[n]);
	while (n != PROFILE_ROOT) {
		if (p->node_next_sibling[n] != PROFILE_NONE)
			return (p->node_next_sibling[n]);
		n = p->node_parent[n];
	}
	return (PROFILE_NONE);
}

static void
pct(char *buf, size_t len, int64_t x, int64_t t)
{
	snprintf(buf, len, "%.1f", t == 0 ? 0.0 : (double)x / (double)t *
	    100.0);
}

static void
check_text(const char *path, struct profile *p)
{
	FILE		*f;
	char		 line[65536], *tok[MAXROW], buf[64], *s;
	int64_t		 T = -1, A = -1, v;
	int		 intree = 0, verbose = 0, ntok, k, nn;
	size_t		 rows = 0, bad_shape = 0, bad_self = 0, bad_inh = 0;
	size_t		 bad_raw = 0, depth;
	uint32_t	 n = PROFILE_ROOT, fn;
	const char	*name;

	if ((f = fopen(path, "r")) == NULL) {
		ok(0, "%s: cannot open", path);
		return;
	}
	while (fgets(line, sizeof line, f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (!intree) {
			if ((s = strstr(line, "total time")) != NULL &&
			    (s = strchr(s, '(')) != NULL)
				T = strtoll(s + 1, NULL, 10);
			if ((s = strstr(line, "total alloc =")) != NULL) {
				for (A = 0, s += 13; *s == ' ' || *s == ',' ||
				    (*s >= '0' && *s <= '9'); s++) {
					if (*s >= '0' && *s <= '9')
						A = A * 10 + (*s - '0');
				}
			}
			if (strncmp(line, "COST CENTRE", 11) == 0 &&
			    strstr(line, " no. ") != NULL) {
				intree = 1;
				verbose = strstr(line, " bytes") != NULL;
			}
			continue;
		}
		for (depth = 0; line[depth] == ' '; depth++)
			;
		if (line[depth] == '\0')
			continue;
		ntok = 0;
		for (s = strtok(line, " "); s != NULL && ntok < MAXROW;
		    s = strtok(NULL, " "))
			tok[ntok++] = s;
		nn = verbose ? 8 : 6;
		rows++;
		if ((n = next_node(p, n)) == PROFILE_NONE || ntok < nn + 3) {
			bad_shape++;
			break;
		}
		fn = p->node_func[n];
		name = profile_func_name(p, fn);
		/* Cost centres sharing label and module carry " [SRC]". */
		if (strncmp(name, tok[0], strlen(tok[0])) != 0 ||
		    (name[strlen(tok[0])] != '\0' &&
		    name[strlen(tok[0])] != ' ') ||
		    strcmp(profile_func_module(p, fn), tok[1]) != 0 ||
		    p->node_depth[n] != depth + 1 ||
		    p->metrics[me].self[n] != strtoll(tok[ntok - nn + 1], NULL,
		    10)) {
			if (bad_shape++ < 3)
				diag("row %zu: %s %s depth %zu vs node %u %s %s",
				    rows, tok[0], tok[1], depth, n, name,
				    profile_func_module(p, fn));
		}
		k = ntok - nn + 2;
		pct(buf, sizeof buf, p->metrics[mt].self[n], T);
		if (strcmp(buf, tok[k]) != 0)
			bad_self++;
		pct(buf, sizeof buf, p->metrics[ma].self[n], A);
		if (strcmp(buf, tok[k + 1]) != 0)
			bad_self++;
		pct(buf, sizeof buf, p->metrics[mt].total[n], T);
		if (strcmp(buf, tok[k + 2]) != 0 && bad_inh++ < 3)
			diag("row %zu %s: inherited %%time %s, ours %s", rows,
			    tok[0], tok[k + 2], buf);
		pct(buf, sizeof buf, p->metrics[ma].total[n], A);
		if (strcmp(buf, tok[k + 3]) != 0 && bad_inh++ < 3)
			diag("row %zu %s: inherited %%alloc %s, ours %s", rows,
			    tok[0], tok[k + 3], buf);
		if (verbose) {
			v = strtoll(tok[k + 4], NULL, 10);
			if (p->metrics[mt].self[n] != v)
				bad_raw++;
			v = strtoll(tok[k + 5], NULL, 10);
			if (p->metrics[ma].self[n] != v)
				bad_raw++;
		}
	}
	fclose(f);
	if (n != PROFILE_NONE && next_node(p, n) != PROFILE_NONE)
		bad_shape++;
	ok(rows > 0 && bad_shape == 0, "%s: %zu rows, labels, modules, depths "
	    "and entries agree node by node", path, rows);
	is_int(p->metrics[mt].sum, T, "%s: ticks total equals the header's "
	    "total time ticks", path);
	is_int(p->metrics[ma].sum, A, "%s: alloc total equals the header's "
	    "total alloc", path);
	is_int(bad_self, 0, "%s: self values print as GHC's individual "
	    "%%time and %%alloc", path);
	is_int(bad_inh, 0, "%s: inclusive values print as GHC's inherited "
	    "%%time and %%alloc on every node", path);
	if (verbose)
		is_int(bad_raw, 0, "%s: -P: self ticks and bytes equal the "
		    "ticks and bytes columns", path);
}

struct jcheck {
	const struct profile	*p;
	uint32_t		 n;
	size_t			 nodes, bad_self, bad_inh;
};

/* Walk a -pj node beside our preorder; returns its inherited sums. */
static void
check_json_node(struct jcheck *c, json_t *o, int64_t *ticks, int64_t *alloc)
{
	json_t		*kid;
	size_t		 i;
	uint32_t	 me_n;
	int64_t		 t, a;

	c->nodes++;
	if ((c->n = next_node(c->p, c->n)) == PROFILE_NONE) {
		c->bad_self++;
		return;
	}
	me_n = c->n;
	*ticks = json_integer_value(json_object_get(o, "ticks"));
	*alloc = json_integer_value(json_object_get(o, "alloc"));
	if (c->p->metrics[mt].self[me_n] != *ticks ||
	    c->p->metrics[ma].self[me_n] != *alloc ||
	    c->p->metrics[me].self[me_n] !=
	    json_integer_value(json_object_get(o, "entries")))
		c->bad_self++;
	json_array_foreach(json_object_get(o, "children"), i, kid) {
		check_json_node(c, kid, &t, &a);
		*ticks += t;
		*alloc += a;
	}
	if (c->p->metrics[mt].total[me_n] != *ticks ||
	    c->p->metrics[ma].total[me_n] != *alloc)
		c->bad_inh++;
}

static void
check_json(const char *path, struct profile *p)
{
	json_t		*doc;
	json_error_t	 e;
	struct jcheck	 c = { p, PROFILE_ROOT, 0, 0, 0 };
	int64_t		 t = 0, a = 0;

	if ((doc = json_load_file(path, 0, &e)) == NULL) {
		ok(0, "%s: jansson: %s", path, e.text);
		return;
	}
	check_json_node(&c, json_object_get(doc, "profile"), &t, &a);
	ok(c.bad_self == 0 && next_node(p, c.n) == PROFILE_NONE, "%s: %zu "
	    "nodes, self ticks, alloc and entries equal the JSON's", path,
	    c.nodes);
	is_int(c.bad_inh, 0, "%s: inclusive values equal the sums over each "
	    "JSON subtree", path);
	is_int(p->metrics[mt].sum, json_integer_value(json_object_get(doc,
	    "total_ticks")), "%s: ticks total equals total_ticks", path);
	is_int(p->metrics[ma].sum, json_integer_value(json_object_get(doc,
	    "total_alloc")), "%s: alloc total equals total_alloc", path);
	json_decref(doc);
}

int
main(int argc, char **argv)
{
	struct profile	*p;
	char		*cause;
	int		 a;

	for (a = 1; a < argc; a++) {
		cause = NULL;
		if ((p = reader_load(argv[a], NULL, NULL, &cause)) == NULL) {
			ok(0, "%s loads: %s", argv[a], cause ? cause : "?");
			free(cause);
			continue;
		}
		mt = profile_metric_find(p, "ticks");
		ma = profile_metric_find(p, "alloc");
		me = profile_metric_find(p, "entries");
		if (mt == -1 || ma == -1 || me == -1)
			ok(0, "%s: no ticks, alloc and entries metrics",
			    argv[a]);
		else if (strcmp(p->format, "ghc-json") == 0)
			check_json(argv[a], p);
		else
			check_text(argv[a], p);
		profile_free(p);
	}
	return (tap_done());
}
