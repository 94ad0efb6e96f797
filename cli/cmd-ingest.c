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

#include <sys/random.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clickhouse.h"
#include "deepq.h"
#include "hash.h"
#include "outbuf.h"
#include "profile.h"
#include "reader.h"
#include "rundir.h"
#include "view-schema.h"

/*
 * deepq ingest --clickhouse URL --table T FILE...: read profiles and
 * insert them into the tables of view-schema.h (deepq-clickhouse(7)):
 * each stack with a self cost into T_stacks (its hash and frames), its
 * values into T, one row per metric, and last the profile's row into
 * T_profiles, which views read first: a profile whose ingest broke off
 * has no row there and is never read. Rows go as RowBinary in POSTs of
 * about INGEST_BATCH bytes: no SQL carries a value, and ClickHouse
 * parses RowBinary fastest of its input formats.
 *
 * A profile's id is a hash of its file's bytes, its labels and its
 * time: the same file of another hour is another profile, and an
 * ingest of one already in T_profiles is skipped. Each ingest of a
 * profile is a load with an id of its own (random), which its rows of
 * T carry; the rows of a load that broke off stay, unread, until an
 * administrator deletes them (deepq-clickhouse(7)), so no ALTER DELETE
 * is needed, and none would work on a Distributed table anyway.
 */

#define INGEST_BATCH		(16 * 1024 * 1024)
#define INGEST_MAX_LABELS	64
#define INGEST_TIMEOUT		600

struct ingest {
	struct clickhouse	*ch;
	const char		*db;		/* or NULL */
	const char		*table;
	char			*labels[INGEST_MAX_LABELS]; /* "k=v", sorted */
	size_t			 nlabels;
	uint64_t		 series;	/* hash of the labels */
	uint32_t		 ts;
	int			 quiet;
};

/* One file's rows on their way. */
struct ingest_rows {
	struct outbuf		 stacks;
	struct outbuf		 samples;
	char			*stacks_q;	/* the INSERTs' URL queries */
	char			*samples_q;
	const char		*path;
};

static int	 ingest_label_cmp(const void *, const void *);
static uint64_t	 ingest_file_hash(const char *, const struct ingest *);
static void	 ingest_query(struct ingest *, const char *);
static long long ingest_count(struct ingest *, uint64_t);
static char	*ingest_insert(struct ingest *, const char *);
static void	 ingest_flush(struct ingest *, struct ingest_rows *, int);
static void	 ingest_profile_row(struct ingest *, const char *,
		     const struct profile *, uint64_t, uint64_t, uint64_t,
		     uint64_t);
static void	 ingest_file(struct ingest *, const char *);
static void	 ingest_series(struct ingest *);
static void	 ingest_tables(struct ingest *, int);

/* Labels sorted by key: the same set is the same array in the table. */
static int
ingest_label_cmp(const void *a, const void *b)
{
	const char	*x = *(char * const *)a, *y = *(char * const *)b;
	size_t		 kx = strcspn(x, "="), ky = strcspn(y, "=");
	int		 c;

	if ((c = memcmp(x, y, kx < ky ? kx : ky)) != 0)
		return (c);
	return (kx < ky ? -1 : kx > ky);
}

/* The profile id: the file's bytes, the labels and the time. */
static uint64_t
ingest_file_hash(const char *path, const struct ingest *in)
{
	static char	 buf[1 << 20];
	uint64_t	 h = 0x9e3779b97f4a7c15ULL;
	ssize_t		 n;
	size_t		 i;
	int		 fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		err(1, "%s", path);
	while ((n = read(fd, buf, sizeof buf)) > 0)
		h = (h ^ hash_bytes(buf, n)) * 0x100000001b3ULL;
	if (n == -1)
		err(1, "%s", path);
	close(fd);
	for (i = 0; i < in->nlabels; i++)
		h = (h ^ hash_bytes(in->labels[i], strlen(in->labels[i]) +
		    1)) * 0x100000001b3ULL;
	/*
	 * Mixed to the last bit (MurmurHash3's finalizer): a cluster
	 * shards by profile_id modulo its shards, and the hours of one file
	 * differ in few bits.
	 */
	h ^= in->ts;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return (h);
}

/* Run a statement whose answer we do not need; exit on failure. */
static void
ingest_query(struct ingest *in, const char *sql)
{
	struct outbuf	 ans;
	char		*cause = NULL;

	outbuf_init(&ans);
	if (clickhouse_post(in->ch, NULL, sql, strlen(sql), 1 << 20, &ans,
	    &cause) != 0)
		errx(1, "%s", cause ? cause : "out of memory");
	outbuf_clear(&ans);
}

/* A one-number answer of SQL; exit on failure. */
static long long
ingest_number(struct ingest *in, const char *sql)
{
	struct outbuf	 ans;
	char		*cause = NULL, *end, *s;
	size_t		 len;
	long long	 n;

	outbuf_init(&ans);
	if (clickhouse_post(in->ch, NULL, sql, strlen(sql), 4096, &ans,
	    &cause) != 0)
		errx(1, "%s", cause ? cause : "out of memory");
	if ((s = outbuf_take(&ans, &len)) == NULL)
		errx(1, "out of memory");
	errno = 0;
	n = strtoll(s, &end, 10);
	if (end == s || errno != 0 || n < 0)
		errx(1, "%s: unexpected answer to %s", in->table, sql);
	free(s);
	return (n);
}

/* How many loads of a profile id T_profiles has. */
static long long
ingest_count(struct ingest *in, uint64_t id)
{
	struct outbuf	 sql;
	char		*s;
	size_t		 len;
	long long	 n;

	outbuf_init(&sql);
	outbuf_puts(&sql, "SELECT count() FROM ");
	view_schema_name(&sql, in->db, in->table, VIEW_SCHEMA_PROFILES);
	outbuf_printf(&sql, " WHERE profile_id = %llu FORMAT TabSeparated",
	    (unsigned long long)id);
	if ((s = outbuf_take(&sql, &len)) == NULL)
		errx(1, "out of memory");
	n = ingest_number(in, s);
	free(s);
	return (n);
}

/* The URL query of an INSERT into table T + suffix. */
static char *
ingest_insert(struct ingest *in, const char *suffix)
{
	struct outbuf	 q, sql;
	char		*s;
	size_t		 len;

	outbuf_init(&q);
	outbuf_init(&sql);
	outbuf_puts(&sql, "INSERT INTO ");
	view_schema_name(&sql, in->db, in->table, suffix);
	outbuf_puts(&sql, " FORMAT RowBinary");
	if ((s = outbuf_take(&sql, &len)) == NULL)
		errx(1, "out of memory");
	/* Synchronous on a Distributed table: counted once it returns. */
	outbuf_puts(&q, "insert_distributed_sync=1&query=");
	clickhouse_urlencode(&q, s);
	free(s);
	if ((s = outbuf_take(&q, &len)) == NULL)
		errx(1, "out of memory");
	return (s);
}

/* Send the rows buffered (all, or those past INGEST_BATCH). */
static void
ingest_flush(struct ingest *in, struct ingest_rows *r, int all)
{
	struct outbuf	 ans;
	struct outbuf	*ob[2] = { &r->stacks, &r->samples };
	char		*q[2] = { r->stacks_q, r->samples_q }, *cause = NULL;
	int		 i;

	outbuf_init(&ans);
	for (i = 0; i < 2; i++) {
		if (outbuf_failed(ob[i]))
			errx(1, "out of memory");
		if (ob[i]->n == 0 || (!all && ob[i]->n < INGEST_BATCH))
			continue;
		if (clickhouse_post(in->ch, q[i], ob[i]->b, ob[i]->n, 1 << 20,
		    &ans, &cause) != 0)
			errx(1, "%s: %s", r->path, cause ? cause :
			    "out of memory");
		outbuf_rewind(ob[i]);
	}
	outbuf_clear(&ans);
}

/* The profile's row of T_profiles: written last, it commits the load. */
static void
ingest_profile_row(struct ingest *in, const char *path,
    const struct profile *p, uint64_t id, uint64_t load, uint64_t stacks,
    uint64_t nrows)
{
	struct outbuf	 row, ans;
	const char	*s, *base;
	char		*q, *cause = NULL;
	union { double d; uint64_t u; } rate;
	uint32_t	 m;
	size_t		 i;

	outbuf_init(&row);
	outbuf_init(&ans);
	clickhouse_fixed(&row, id, 8);
	clickhouse_fixed(&row, load, 8);
	clickhouse_fixed(&row, in->ts, 4);
	clickhouse_varint(&row, in->nlabels);
	for (i = 0; i < in->nlabels; i++)
		clickhouse_string(&row, in->labels[i], strlen(in->labels[i]));
	clickhouse_fixed(&row, in->series, 8);
	clickhouse_varint(&row, p->nmetrics);
	for (m = 0; m < p->nmetrics; m++)
		clickhouse_string(&row, p->metrics[m].name,
		    strlen(p->metrics[m].name));
	clickhouse_varint(&row, p->nmetrics);
	for (m = 0; m < p->nmetrics; m++) {
		s = p->metrics[m].unit ? p->metrics[m].unit : "";
		clickhouse_string(&row, s, strlen(s));
	}
	clickhouse_varint(&row, p->nmetrics);
	for (m = 0; m < p->nmetrics; m++) {
		rate.d = p->metrics[m].rate;
		clickhouse_fixed(&row, rate.u, 8);
	}
	base = strrchr(path, '/') != NULL ? strrchr(path, '/') + 1 : path;
	clickhouse_string(&row, base, strlen(base));
	clickhouse_fixed(&row, stacks, 8);
	clickhouse_fixed(&row, nrows, 8);
	clickhouse_fixed(&row, (uint64_t)time(NULL), 4);
	q = ingest_insert(in, VIEW_SCHEMA_PROFILES);
	if (outbuf_failed(&row))
		errx(1, "out of memory");
	if (clickhouse_post(in->ch, q, row.b, row.n, 1 << 20, &ans,
	    &cause) != 0)
		errx(1, "%s: %s", path, cause ? cause : "out of memory");
	free(q);
	outbuf_clear(&row);
	outbuf_clear(&ans);
}

/* Ingest one profile file. */
static void
ingest_file(struct ingest *in, const char *path)
{
	struct ingest_rows	 r;
	struct profile		*p;
	const char		*s;
	char			*cause = NULL;
	uint64_t		*nodehash = NULL, *funchash = NULL, id, load;
	uint64_t		 nrows = 0, stacks = 0;
	uint32_t		*path_nodes = NULL, n, f, d, depth, m;
	uint32_t		 cap = 0;
	long long		 t0 = rundir_now();
	int			 any;

	id = ingest_file_hash(path, in);
	if (ingest_count(in, id) > 0) {
		if (!in->quiet)
			printf("%s: already in %s (profile_id %llu): "
			    "skipped\n", path, in->table,
			    (unsigned long long)id);
		return;
	}
	if ((p = reader_load(path, NULL, NULL, &cause)) == NULL)
		errx(1, "%s", cause ? cause : "out of memory");
	if (p->nnodes == 0)
		errx(1, "%s: empty profile", path);
	if (getrandom(&load, sizeof load, 0) != sizeof load)
		err(1, "getrandom");

	/* Stack hashes: the (function, module) frames, root first. */
	if ((funchash = calloc(p->nfuncs ? p->nfuncs : 1,
	    sizeof *funchash)) == NULL ||
	    (nodehash = calloc(p->nnodes, sizeof *nodehash)) == NULL)
		errx(1, "out of memory");
	for (f = 0; f < p->nfuncs; f++)
		funchash[f] = view_schema_frame(profile_func_name(p, f),
		    profile_func_module(p, f));
	nodehash[0] = VIEW_STACK_SEED;
	for (n = 1; n < p->nnodes; n++)
		nodehash[n] = view_schema_stack(nodehash[p->node_parent[n]],
		    funchash[p->node_func[n]]);

	memset(&r, 0, sizeof r);
	outbuf_init(&r.stacks);
	outbuf_init(&r.samples);
	r.stacks_q = ingest_insert(in, VIEW_SCHEMA_STACKS);
	r.samples_q = ingest_insert(in, VIEW_SCHEMA_SAMPLES);
	r.path = path;
	for (n = 0; n < p->nnodes; n++) {
		any = 0;
		for (m = 0; m < p->nmetrics; m++)
			any |= p->metrics[m].self[n] != 0;
		if (!any)
			continue;
		depth = p->node_depth[n];
		if (depth + 1 > cap) {
			cap = depth + 1 > 2 * cap ? depth + 1 : 2 * cap;
			if ((path_nodes = reallocarray(path_nodes, cap,
			    sizeof *path_nodes)) == NULL)
				errx(1, "out of memory");
		}
		for (d = depth, f = n; d > 0; d--, f = p->node_parent[f])
			path_nodes[d - 1] = f;
		clickhouse_fixed(&r.stacks, nodehash[n], 8);
		clickhouse_varint(&r.stacks, depth);
		for (d = 0; d < depth; d++) {
			s = profile_func_name(p, p->node_func[path_nodes[d]]);
			clickhouse_string(&r.stacks, s, strlen(s));
		}
		clickhouse_varint(&r.stacks, depth);
		for (d = 0; d < depth; d++) {
			s = profile_func_module(p,
			    p->node_func[path_nodes[d]]);
			clickhouse_string(&r.stacks, s, strlen(s));
		}
		stacks++;
		for (m = 0; m < p->nmetrics; m++) {
			if (p->metrics[m].self[n] == 0)
				continue;
			clickhouse_fixed(&r.samples, in->ts, 4);
			clickhouse_fixed(&r.samples, in->series, 8);
			clickhouse_fixed(&r.samples, id, 8);
			clickhouse_fixed(&r.samples, load, 8);
			s = p->metrics[m].name;
			clickhouse_string(&r.samples, s, strlen(s));
			clickhouse_fixed(&r.samples, nodehash[n], 8);
			clickhouse_fixed(&r.samples,
			    (uint64_t)p->metrics[m].self[n], 8);
			nrows++;
		}
		ingest_flush(in, &r, 0);
	}
	ingest_flush(in, &r, 1);
	ingest_profile_row(in, path, p, id, load, stacks, nrows);
	if (!in->quiet)
		printf("%s: %llu rows into %s in %.3f s (profile_id %llu)\n",
		    path, (unsigned long long)nrows, in->table,
		    (double)(rundir_now() - t0) / 1000,
		    (unsigned long long)id);
	outbuf_clear(&r.stacks);
	outbuf_clear(&r.samples);
	free(r.stacks_q);
	free(r.samples_q);
	free(path_nodes);
	free(funchash);
	free(nodehash);
	profile_free(p);
}

/*
 * Are the tables there (1), or some missing (0), or is T in the
 * one-table schema of deepq before 2026-11-27 (2), whose rows would not
 * fit the new one? One question for all.
 */
static int
ingest_check(struct ingest *in)
{
	struct outbuf	 sql, db;
	char		*s, *d;
	size_t		 len;
	long long	 n;

	outbuf_init(&sql);
	outbuf_init(&db);
	if (in->db != NULL)
		clickhouse_quote(&db, in->db, strlen(in->db));
	else
		outbuf_puts(&db, "currentDatabase()");
	if ((d = outbuf_take(&db, &len)) == NULL)
		errx(1, "out of memory");
	outbuf_printf(&sql, "SELECT (SELECT count() FROM system.columns WHERE "
	    "database = %s AND name = 'stack_func' AND table = ", d);
	clickhouse_quote(&sql, in->table, strlen(in->table));
	outbuf_printf(&sql, ") * 10 + (SELECT count() FROM system.tables "
	    "WHERE database = %s AND name IN (", d);
	free(d);
	outbuf_puts(&sql, "'");
	outbuf_puts(&sql, in->table);
	outbuf_puts(&sql, "', '");
	outbuf_puts(&sql, in->table);
	outbuf_puts(&sql, VIEW_SCHEMA_STACKS "', '");
	outbuf_puts(&sql, in->table);
	outbuf_puts(&sql, VIEW_SCHEMA_PROFILES "')) FORMAT TabSeparated");
	outbuf_clear(&db);
	if ((s = outbuf_take(&sql, &len)) == NULL)
		errx(1, "out of memory");
	n = ingest_number(in, s);
	free(s);
	return (n >= 10 ? 2 : n == 3);
}

/* Run the statements of the schema, or of the migration. */
static void
ingest_schema(struct ingest *in, int migrate)
{
	struct outbuf	 sql;
	char		*s;
	size_t		 len;
	int		 i;

	outbuf_init(&sql);
	for (i = 0; (migrate ? view_schema_migrate(&sql, in->db, in->table,
	    i) : view_schema(&sql, in->db, in->table, NULL, i)) == 0; i++) {
		if ((s = outbuf_take(&sql, &len)) == NULL)
			errx(1, "out of memory");
		if (migrate && !in->quiet)
			printf("%s;\n", s);
		ingest_query(in, s);
		free(s);
	}
}

/* --schema: print the statements (a cluster's, with --cluster). */
static int
ingest_print_schema(const char *db, const char *table, const char *cluster)
{
	struct outbuf	 sql;
	char		*s;
	size_t		 len;
	int		 i;

	outbuf_init(&sql);
	for (i = 0; view_schema(&sql, db, table, cluster, i) == 0; i++) {
		if ((s = outbuf_take(&sql, &len)) == NULL)
			errx(1, "out of memory");
		printf("%s;\n", s);
		free(s);
	}
	return (fflush(stdout) == 0 ? 0 : 1);
}

/* Credentials: a user, and the first line of a password file. */
static void
ingest_auth(struct ingest *in, const char *user, const char *pwfile)
{
	char	 pw[1024], *cause = NULL;
	ssize_t	 len = 0;
	int	 fd;

	pw[0] = '\0';
	if (pwfile != NULL) {
		if ((fd = open(pwfile, O_RDONLY | O_CLOEXEC)) == -1 ||
		    (len = read(fd, pw, sizeof pw - 1)) == -1)
			err(1, "%s", pwfile);
		close(fd);
		pw[len] = '\0';
		pw[strcspn(pw, "\r\n")] = '\0';
	}
	if (clickhouse_auth(in->ch, user ? user : "default", pw,
	    &cause) == -1)
		errx(1, "%s", cause ? cause : "out of memory");
	explicit_bzero(pw, sizeof pw);
}

/*
 * The series of the labels (sorted, each key once): what a profile's
 * rows share with every other ingest of the same labels.
 */
static void
ingest_series(struct ingest *in)
{
	size_t	 i;

	qsort(in->labels, in->nlabels, sizeof in->labels[0], ingest_label_cmp);
	in->series = 0x9e3779b97f4a7c15ULL;
	for (i = 0; i < in->nlabels; i++) {
		if (i > 0 && ingest_label_cmp(&in->labels[i - 1],
		    &in->labels[i]) == 0)
			errx(1, "--label: key given twice: %s", in->labels[i]);
		in->series = (in->series ^ hash_bytes(in->labels[i],
		    strlen(in->labels[i]) + 1)) * 0x100000001b3ULL;
	}
}

/*
 * The tables in the current schema before any row goes in: made if
 * missing, or migrated from the old one with --migrate (only then).
 */
static void
ingest_tables(struct ingest *in, int migrate)
{
	switch (ingest_check(in)) {
	case 2:
		if (!migrate)
			errx(1, "%s has the one-table schema of deepq before "
			    "2026-11-27: run deepq ingest --migrate once "
			    "(deepq-clickhouse(7))", in->table);
		ingest_schema(in, 1);
		break;
	case 0:
		if (migrate)
			errx(1, "%s: no table of the old schema to migrate",
			    in->table);
		ingest_schema(in, 0);
		break;
	default:
		if (migrate)
			errx(1, "%s: already in the new schema", in->table);
	}
}

/* --label KEY=VALUE. */
static void
ingest_label(struct ingest *in, char *k)
{
	size_t	 len = strcspn(k, "=");

	if (k[len] != '=' || len == 0 || strspn(k,
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
	    < len)
		errx(1, "--label %s: KEY=VALUE, the key letters, digits, _ . -",
		    k);
	if (in->nlabels == INGEST_MAX_LABELS)
		errx(1, "--label: at most %d", INGEST_MAX_LABELS);
	in->labels[in->nlabels++] = k;
}

int
cmd_ingest(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "clickhouse", required_argument, NULL, 'c' },
		{ "cluster", required_argument, NULL, 'C' },
		{ "label", required_argument, NULL, 'l' },
		{ "migrate", no_argument, NULL, 'M' },
		{ "password-file", required_argument, NULL, 'P' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "schema", no_argument, NULL, 'S' },
		{ "table", required_argument, NULL, 't' },
		{ "time", required_argument, NULL, 'T' },
		{ "user", required_argument, NULL, 'u' },
		{ NULL, 0, NULL, 0 }
	};
	struct ingest	 in;
	const char	*url = NULL, *table = NULL, *user = NULL;
	const char	*pwfile = NULL, *cluster = NULL, *dot;
	char		*cause = NULL, *db = NULL;
	time_t		 t = time(NULL);
	size_t		 i;
	int		 ch, migrate = 0, schema = 0;

	memset(&in, 0, sizeof in);
	optind = 1;
	while ((ch = getopt_long(argc, argv, "c:C:l:MP:qSt:T:u:", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'c':
			url = optarg;
			break;
		case 'C':
			if (!clickhouse_name_ok(optarg))
				errx(1, "--cluster %s: letters, digits and _",
				    optarg);
			cluster = optarg;
			break;
		case 'l':
			ingest_label(&in, optarg);
			break;
		case 'M':
			migrate = 1;
			break;
		case 'P':
			pwfile = optarg;
			break;
		case 'q':
			in.quiet = 1;
			break;
		case 'S':
			schema = 1;
			break;
		case 't':
			table = optarg;
			break;
		case 'T':
			if (clickhouse_time_parse(optarg, &t) == -1)
				errx(1, "--time %s: not an ISO 8601 time "
				    "(2026-11-25T10:00:00Z)", optarg);
			break;
		case 'u':
			user = optarg;
			break;
		default:
			deepq_usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (table == NULL || (!schema && url == NULL) ||
	    (argc == 0 && !schema && !migrate) || (cluster && !schema))
		deepq_usage();
	/* database.table or table: names only, never quoted text. */
	if ((dot = strchr(table, '.')) != NULL) {
		if ((db = strndup(table, dot - table)) == NULL ||
		    !clickhouse_name_ok(db) || !clickhouse_name_ok(dot + 1))
			errx(1, "--table %s: [database.]table, letters, digits "
			    "and _", table);
		table = dot + 1;
	} else if (!clickhouse_name_ok(table))
		errx(1, "--table %s: [database.]table, letters, digits and _",
		    table);
	if (schema)
		return (ingest_print_schema(db, table, cluster));
	in.db = db;
	in.table = table;
	if (t > UINT32_MAX)
		errx(1, "--time: past 2106");
	in.ts = (uint32_t)t;
	ingest_series(&in);

	if ((in.ch = clickhouse_create(url, &cause)) == NULL)
		errx(1, "--clickhouse: %s", cause ? cause : "out of memory");
	clickhouse_timeout(in.ch, INGEST_TIMEOUT);
	if (user != NULL || pwfile != NULL)
		ingest_auth(&in, user, pwfile);
	ingest_tables(&in, migrate);
	for (i = 0; i < (size_t)argc; i++)
		ingest_file(&in, argv[i]);
	clickhouse_free(in.ch);
	free(db);
	return (0);
}
