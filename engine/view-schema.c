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

#include <string.h>

#include "hash.h"
#include "outbuf.h"
#include "view-schema.h"

/*
 * The schema (see view-schema.h). Names are checked by the callers
 * (clickhouse_name_ok) before they come here.
 *
 * The samples are sorted by label set (series), day and stack hash: a
 * view reads the granules of its label sets and days only, and sums
 * runs of one stack's rows from many profiles, which keeps ClickHouse's
 * hash table of sums in cache (a tenth of the time the same sums took
 * with the rows in profile order). Labels and times are selected in
 * T_profiles, which is small; the samples carry no labels.
 */

static const char *const view_schema_tables[3][2] = {
	{ VIEW_SCHEMA_SAMPLES,
	    "  ts DateTime,\n"
	    "  series UInt64,\n"
	    "  profile_id UInt64,\n"
	    "  load_id UInt64,\n"
	    "  metric String,\n"
	    "  stack_hash UInt64,\n"
	    "  value Int64\n"
	    ") ENGINE = MergeTree\n"
	    "PARTITION BY toYYYYMM(ts)\n"
	    "ORDER BY (series, toDate(ts), stack_hash)" },
	{ VIEW_SCHEMA_STACKS,
	    "  stack_hash UInt64,\n"
	    "  funcs Array(String),\n"
	    "  modules Array(String)\n"
	    ") ENGINE = ReplacingMergeTree\n"
	    "ORDER BY stack_hash" },
	{ VIEW_SCHEMA_PROFILES,
	    "  profile_id UInt64,\n"
	    "  load_id UInt64,\n"
	    "  ts DateTime,\n"
	    "  labels Array(String),\n"
	    "  series UInt64,\n"
	    "  metrics Array(String),\n"
	    "  units Array(String),\n"
	    "  rates Array(Float64),\n"
	    "  file String,\n"
	    "  stacks UInt64,\n"
	    "  rows UInt64,\n"
	    "  ingested DateTime\n"
	    ") ENGINE = MergeTree\n"
	    "PARTITION BY toYYYYMM(ts)\n"
	    "ORDER BY (labels, ts, profile_id)" },
};

/* How each Distributed table spreads its rows: by profile, by stack. */
static const char *const view_schema_shard[3] = {
	"profile_id", "stack_hash", "profile_id"
};

/* [database.]table followed by suffix. */
void
view_schema_name(struct outbuf *ob, const char *db, const char *table,
    const char *suffix)
{
	if (db != NULL)
		outbuf_printf(ob, "%s.", db);
	outbuf_printf(ob, "%s%s", table, suffix);
}

/*
 * Statement i (from 0) of the schema into ob: 0, or -1 past the last.
 * With a cluster: the tables of a shard (T_local...), then the
 * Distributed tables over the cluster's shards.
 */
int
view_schema(struct outbuf *ob, const char *db, const char *table,
    const char *cluster, int i)
{
	int	 t = i % 3;

	if (i < 0 || i >= (cluster != NULL ? 6 : 3))
		return (-1);
	outbuf_puts(ob, "CREATE TABLE IF NOT EXISTS ");
	view_schema_name(ob, db, table, view_schema_tables[t][0]);
	if (cluster == NULL || i < 3) {
		if (cluster != NULL)
			outbuf_puts(ob, "_local");
		outbuf_printf(ob, " (\n%s", view_schema_tables[t][1]);
		return (0);
	}
	outbuf_puts(ob, " AS ");
	view_schema_name(ob, db, table, view_schema_tables[t][0]);
	outbuf_printf(ob, "_local\nENGINE = Distributed(%s, %s, %s%s_local, "
	    "%s)", cluster, db != NULL ? db : "default", table,
	    view_schema_tables[t][0], view_schema_shard[t]);
	return (0);
}

/*
 * Statement i of the migration from the one table of deepq before
 * 2026-11-27 (ts, labels, profile_id, metric, metric_index, unit, rate,
 * stack_id, stack_func, stack_module, value), on one server: the old
 * table renamed T_v1 (kept, to be dropped by hand), the new tables
 * made, and filled by INSERT ... SELECT. Stack ids keep their values
 * (deepq hashed stacks the same way then), and an old profile's id
 * stands for its one load.
 */
int
view_schema_migrate(struct outbuf *ob, const char *db, const char *table,
    int i)
{
	const char	*series = "sipHash64(arrayStringConcat(labels, '\\n'))";

	switch (i) {
	case 0:
		outbuf_puts(ob, "RENAME TABLE ");
		view_schema_name(ob, db, table, "");
		outbuf_puts(ob, " TO ");
		view_schema_name(ob, db, table, "_v1");
		return (0);
	case 1: case 2: case 3:
		return (view_schema(ob, db, table, NULL, i - 1));
	case 4:
		outbuf_puts(ob, "INSERT INTO ");
		view_schema_name(ob, db, table, VIEW_SCHEMA_STACKS);
		outbuf_puts(ob, " SELECT stack_id, any(stack_func), "
		    "any(stack_module) FROM ");
		view_schema_name(ob, db, table, "_v1");
		outbuf_puts(ob, " GROUP BY stack_id");
		return (0);
	case 5:
		outbuf_puts(ob, "INSERT INTO ");
		view_schema_name(ob, db, table, VIEW_SCHEMA_SAMPLES);
		outbuf_printf(ob, " SELECT ts, %s, profile_id, profile_id, "
		    "metric, stack_id, value FROM ", series);
		view_schema_name(ob, db, table, "_v1");
		return (0);
	case 6:
		outbuf_puts(ob, "INSERT INTO ");
		view_schema_name(ob, db, table, VIEW_SCHEMA_PROFILES);
		outbuf_printf(ob, " SELECT profile_id, profile_id, any(ts), "
		    "any(labels), %s, "
		    "arraySort((x, k) -> k, groupArray(metric), groupArray(mi)), "
		    "arraySort((x, k) -> k, groupArray(unit), groupArray(mi)), "
		    "arraySort((x, k) -> k, groupArray(rate), groupArray(mi)), "
		    "'', max(n), sum(n), now() FROM (SELECT profile_id, "
		    "any(ts) AS ts, any(labels) AS labels, metric, "
		    "min(metric_index) AS mi, any(unit) AS unit, "
		    "max(rate) AS rate, count() AS n FROM ", "sipHash64("
		    "arrayStringConcat(any(labels), '\\n'))");
		view_schema_name(ob, db, table, "_v1");
		outbuf_puts(ob, " GROUP BY profile_id, metric) "
		    "GROUP BY profile_id");
		return (0);
	}
	return (-1);
}

/* The hash of one frame, as deepq ingest wrote it since the first. */
uint64_t
view_schema_frame(const char *name, const char *module)
{
	return ((hash_bytes(name, strlen(name) + 1) ^ hash_bytes(module,
	    strlen(module))) * VIEW_STACK_MUL);
}
