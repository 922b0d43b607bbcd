// SPDX-License-Identifier: GPL-2.0
/*
 * render_stats_csv.c - statistics as one tidy CSV table.
 *
 * Every number is one row with the same columns, so a spreadsheet or
 * pandas can filter by "table" without parsing several layouts:
 *   table,node,zone,cpu,from,to,reason,mode,claimed,order,fallback_order,result,metric,value
 */
#include <inttypes.h>

#include "integrity.h"
#include "blame.h"
#include "render.h"
#include "render_stats_census.h"
#include "stats.h"
#include "table.h"
#include "text.h"

struct row {
	const char *table, *zone, *from, *to, *reason, *mode, *metric;
	int node, cpu, claimed, order, fallback, result;	/* -1: empty */
	bool has_result;
	int64_t value;
};

static void num(FILE *out, int v)
{
	if (v >= 0)
		fprintf(out, "%d", v);
	fputc(',', out);
}

static void str(FILE *out, const char *s)
{
	text_put_csv(out, s);
	fputc(',', out);
}

static void emit(FILE *out, struct row r)
{
	str(out, r.table);
	num(out, r.node);
	str(out, r.zone);
	num(out, r.cpu);
	str(out, r.from);
	str(out, r.to);
	str(out, r.reason);
	str(out, r.mode);
	num(out, r.claimed);
	num(out, r.order);
	num(out, r.fallback);
	if (r.has_result)
		fprintf(out, "%d", r.result);
	fputc(',', out);
	str(out, r.metric);
	fprintf(out, "%" PRId64 "\n", r.value);
}

/* later designators override the defaults on purpose */
#pragma GCC diagnostic ignored "-Woverride-init"
#define ROW(...) emit(out, (struct row){ .node = -1, .cpu = -1, .claimed = -1, \
		.order = -1, .fallback = -1, __VA_ARGS__ })

static void frag_rows(FILE *out, const struct fv_zone_stats *zs,
		      const char *when, const struct fv_frag *f)
{
	if (!f->valid)
		return;
	ROW(.table = "free_pages", .node = zs->nid, .zone = fv_zone_name(zs->zone),
	    .metric = when, .value = f->free_pages);
	for (int o = 0; o < FV_MAX_ORDER; o++) {
		ROW(.table = "free_blocks_estimated", .node = zs->nid,
		    .zone = fv_zone_name(zs->zone), .order = o, .metric = when,
		    .value = f->nr_free[o]);
		ROW(.table = "unusable_index_permille", .node = zs->nid,
		    .zone = fv_zone_name(zs->zone), .order = o, .metric = when,
		    .value = f->unusable[o]);
		/* -1000 as in the kernel: a request of this order would succeed */
		ROW(.table = "fragmentation_index_permille", .node = zs->nid,
		    .zone = fv_zone_name(zs->zone), .order = o, .metric = when,
		    .value = f->fragindex[o]);
	}
}

static void census_row(FILE *out, const char *table, int node,
		       const char *zone, const char *from, const char *to,
		       const char *metric, int64_t value)
{
	ROW(.table = table, .node = node, .zone = zone, .from = from, .to = to,
	    .metric = metric, .value = value);
}

/*
 * The replay cannot be exact: one row per issue (count -1: unknown).
 * The one-line text is in 'fragview check'; here the keys: cpu for lost
 * events, node/zone for the others, the snapshot's seq as "order".
 */
static void issue_rows(FILE *out, const struct fv_model *m)
{
	struct fv_issues is;

	if (fv_model_issues(m, &is))
		return;
	for (size_t i = 0; i < is.nr; i++) {
		const struct fv_issue *x = &is.v[i];
		bool lost = x->kind == FV_ISSUE_LOST;

		ROW(.table = "issue", .node = lost ? -1 : x->nid,
		    .zone = lost ? NULL : fv_zone_name(x->zone),
		    .cpu = lost ? x->cpu : -1,
		    .order = x->kind == FV_ISSUE_SNAPSHOT ? (int)x->seq : -1,
		    .metric = fv_issue_kind_name(x->kind), .value = x->count);
	}
	fv_issues_free(&is);
}

int render_stats_csv(FILE *out, const struct fv_model *m, const struct fv_stats *s)
{
	fprintf(out, "table,node,zone,cpu,from,to,reason,mode,claimed,order,"
		     "fallback_order,result,metric,value\n");
	for (int k = 0; k < FV_EV_NR; k++)
		ROW(.table = "events", .metric = fv_ev_kind_name(k),
		    .value = m->nr_events[k]);
	issue_rows(out, m);
	for (size_t i = 0; i < s->nr_steal_rows; i++) {
		const struct fv_steal_row *r = &s->steals[i];

		ROW(.table = "steal", .from = fv_mt_name(r->alloc_mt),
		    .to = fv_mt_name(r->block_mt), .claimed = r->claimed,
		    .order = r->order, .fallback = r->fallback_order,
		    .metric = "count", .value = r->count);
	}
	for (size_t i = 0; i < s->nr_flip_rows; i++) {
		const struct fv_flip_row *r = &s->flips[i];

		ROW(.table = "flip", .from = fv_mt_name(r->old_mt),
		    .to = fv_mt_name(r->new_mt),
		    .reason = fv_flip_reason_name(r->reason), .metric = "count",
		    .value = r->count);
	}
	for (size_t i = 0; i < s->nr_drain_rows; i++) {
		const struct fv_drain_row *d = &s->drains[i];

		for (int r = 0; r < FV_DRAIN_NR; r++) {
			if (!d->drains[r])
				continue;
			ROW(.table = "drain", .cpu = d->cpu,
			    .reason = fv_drain_reason_name(r), .metric = "drains",
			    .value = d->drains[r]);
			ROW(.table = "drain", .cpu = d->cpu,
			    .reason = fv_drain_reason_name(r), .metric = "pages",
			    .value = d->pages[r]);
		}
		for (int t = 0; t < FV_DRAIN_LISTS; t++)
			ROW(.table = "drain_pages_by_type", .cpu = d->cpu,
			    .from = fv_drain_list_name(t), .metric = "pages",
			    .value = d->by_type[t]);
	}
	for (size_t i = 0; i < s->nr_migrate_rows; i++) {
		const struct fv_migrate_row *r = &s->migrations[i];
		const char *t = r->stock ? "migrate_pages_stock" : "migrate";

		ROW(.table = t, .reason = fv_mr_name(r->reason),
		    .mode = fv_mode_name(r->mode), .metric = "ok", .value = r->ok);
		ROW(.table = t, .reason = fv_mr_name(r->reason),
		    .mode = fv_mode_name(r->mode), .metric = "failed",
		    .value = r->failed);
		ROW(.table = t, .reason = fv_mr_name(r->reason),
		    .mode = fv_mode_name(r->mode), .metric = "success_permille",
		    .value = r->rate_permille);
	}
	for (size_t i = 0; i < s->nr_results; i++)
		ROW(.table = "migrate_result", .has_result = true,
		    .result = s->results[i].result, .metric = "count",
		    .value = s->results[i].count);
	for (size_t z = 0; z < s->nr_zones; z++) {
		const struct fv_zone_stats *zs = &s->zones[z];

		for (int t = 0; t < FV_MT_NR; t++) {
			ROW(.table = "blocks", .node = zs->nid,
			    .zone = fv_zone_name(zs->zone), .from = fv_mt_name(t),
			    .metric = "start", .value = zs->blocks_start[t]);
			ROW(.table = "blocks", .node = zs->nid,
			    .zone = fv_zone_name(zs->zone), .from = fv_mt_name(t),
			    .metric = "end", .value = zs->blocks_end[t]);
		}
		frag_rows(out, zs, "start", &zs->frag_start);
		frag_rows(out, zs, "end", &zs->frag_end);
	}
	census_stats_csv(out, s, census_row);
	if (s->blame && s->blame->nr_recs) {
		struct tab t;

		tab_init(&t, out, TAB_CSV);
		render_blame_stats(&t, s->blame);
	}
	return 0;
}
