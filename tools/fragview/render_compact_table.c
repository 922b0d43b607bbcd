// SPDX-License-Identifier: GPL-2.0
/*
 * render_compact_table.c - "fragview compact" as csv and json, one walker
 * over the table emitter (table.h):
 *
 *   csv   one row per compaction run, or with --timeline one row per
 *         timeline entry:
 *         runs:     run,begin_ns,end_ns,pid,node,zone,order,mode,prio,
 *                   status,zone_start,zone_end,migrate_begin,migrate_end,
 *                   free_begin,free_end,migrate_passes,migrate_scanned,
 *                   migrate_taken,free_passes,free_scanned,free_taken,
 *                   migrated,failed
 *         timeline: time_ns,event,node,zone,order,outcome,pfn,
 *                   migratetype,gfp,pid,run
 *   json  one object: {"schema", "capture", "pageblock_order",
 *         "allocs_recorded", "runs":[...], "outcomes":[...],
 *         "migration_failures":[...], "timeline":[...]} (with
 *         --timeline: the timeline only).
 *
 * Times in ns of the trace clock.  Unknown (no end, node not said, ...):
 * an empty cell, null.  Orders: -1 for whole-zone compaction.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "compaction.h"
#include "render.h"
#include "render_compact.h"
#include "table.h"

static void put_where(struct tab *t, int32_t nid, uint8_t zone)
{
	if (nid >= 0) {
		tab_i64(t, "node", nid);
		tab_str(t, "zone", fv_zone_name(zone));
	} else {
		tab_null(t, "node");
		tab_null(t, "zone");
	}
}

static void put_order(struct tab *t, int32_t order)
{
	if (order != FV_ORDER_UNKNOWN)
		tab_i64(t, "order", order);
	else
		tab_null(t, "order");
}

static void put_status(struct tab *t, const char *key, const struct fv_crun *r)
{
	if (r->have_end)
		tab_str(t, key, fv_cstatus_name(r->status));
	else
		tab_null(t, key);
}

/* json "migrate" or "free": one scanner's range and counts */
static void put_scanner(struct tab *t, const char *key, uint64_t begin,
			uint64_t end, uint32_t passes, uint64_t scanned,
			uint64_t taken)
{
	tab_open(t, key, '{');
	tab_u64(t, "begin", begin);
	tab_u64(t, "end", end);
	tab_u64(t, "passes", passes);
	tab_u64(t, "scanned", scanned);
	tab_u64(t, "taken", taken);
	tab_close(t);
}

/* csv: both scanners' ranges, then both scanners' counts */
static void csv_scanners(struct tab *t, const struct fv_crun *r)
{
	const uint64_t v[] = { r->migrate_begin, r->migrate_end, r->free_begin,
			       r->free_end, r->nr_mscans, r->mscanned,
			       r->mtaken, r->nr_fscans, r->fscanned,
			       r->ftaken };

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		tab_u64(t, NULL, v[i]);
}

static void put_run(struct tab *t, size_t i, const struct fv_crun *r)
{
	tab_open(t, NULL, '{');
	tab_u64(t, "run", i);
	tab_u64(t, "begin_ns", r->ts_begin);
	if (r->have_end)
		tab_u64(t, "end_ns", r->ts_end);
	else
		tab_null(t, "end_ns");
	tab_i64(t, "pid", r->pid);
	put_where(t, r->nid, r->zone);
	put_order(t, r->order);
	tab_str(t, "mode", r->sync ? "sync" : "async");
	if (r->prio >= 0)
		tab_i64(t, "prio", r->prio);
	else
		tab_null(t, "prio");
	put_status(t, "status", r);
	tab_u64(t, "zone_start", r->zone_start);
	tab_u64(t, "zone_end", r->zone_end);
	if (t->fmt == TAB_CSV) {
		csv_scanners(t, r);
	} else {
		put_scanner(t, "migrate", r->migrate_begin, r->migrate_end,
			    r->nr_mscans, r->mscanned, r->mtaken);
		put_scanner(t, "free", r->free_begin, r->free_end,
			    r->nr_fscans, r->fscanned, r->ftaken);
	}
	tab_u64(t, "migrated", r->migrated);
	tab_u64(t, "failed", r->failed);
	tab_close(t);
	tab_row_end(t);
}

static void put_runs(struct tab *t, const struct fv_compact *c)
{
	if (t->fmt == TAB_CSV)
		fputs("run,begin_ns,end_ns,pid,node,zone,order,mode,prio,status,"
		      "zone_start,zone_end,migrate_begin,migrate_end,free_begin,"
		      "free_end,migrate_passes,migrate_scanned,migrate_taken,"
		      "free_passes,free_scanned,free_taken,migrated,failed\n",
		      t->out);
	tab_break(t, "\n");
	tab_open(t, "runs", '[');
	for (size_t i = 0; i < c->nr_runs; i++) {
		if (i)
			tab_break(t, "\n");
		put_run(t, i, &c->runs[i]);
	}
	tab_close(t);
}

/* json: the non-zero entries of n[FV_CS_NR] */
static void put_counts(struct tab *t, const char *key, const uint32_t *n)
{
	tab_open(t, key, '{');
	for (int s = 0; s < FV_CS_NR; s++)
		if (n[s])
			tab_u64(t, fv_cstatus_name(s), n[s]);
	tab_close(t);
}

/* json only: what each zone and order got */
static void put_outcomes(struct tab *t, const struct fv_compact *c)
{
	tab_break(t, "\n");
	tab_open(t, "outcomes", '[');
	for (size_t i = 0; i < c->nr_outcomes; i++) {
		const struct fv_coutcome *o = &c->outcomes[i];

		if (i)
			tab_break(t, "\n");
		tab_open(t, NULL, '{');
		put_where(t, o->nid, o->zone);
		put_order(t, o->order);
		put_counts(t, "runs", o->runs);
		put_counts(t, "suitable", o->suitable);
		tab_u64(t, "deferred", o->deferred);
		tab_u64(t, "allocs", o->allocs);
		tab_u64(t, "alloc_fails", o->alloc_fails);
		tab_close(t);
	}
	tab_close(t);
}

/* json only: migration failures by result */
static void put_fails(struct tab *t, const struct fv_model *m,
		      const struct fv_compact *c)
{
	struct compact_fail_count fc[COMPACT_MAX_RESULTS];
	size_t n = compact_count_fails(c, m->pageblock_order, fc);

	tab_break(t, "\n");
	tab_open(t, "migration_failures", '[');
	for (size_t i = 0; i < n; i++) {
		const char *e = fv_errno_name(fc[i].result);

		tab_open(t, NULL, '{');
		tab_i64(t, "result", fc[i].result);
		if (e)
			tab_str(t, "errno", e);
		else
			tab_null(t, "errno");
		tab_u64(t, "pages", fc[i].pages);
		tab_u64(t, "blocks", fc[i].blocks);
		tab_close(t);
	}
	tab_close(t);
}

static void put_compact_entry(struct tab *t, const struct fv_crun *r,
			      unsigned int run)
{
	tab_str(t, "event", "compact");
	put_where(t, r->nid, r->zone);
	put_order(t, r->order);
	put_status(t, "outcome", r);
	for (int i = 0; t->fmt == TAB_CSV && i < 3; i++)
		tab_null(t, NULL);	/* pfn, migratetype, gfp */
	tab_i64(t, "pid", r->pid);
	tab_u64(t, "run", run);
}

static void put_alloc_entry(struct tab *t, const struct fv_halloc *a)
{
	tab_str(t, "event", "alloc");
	if (t->fmt == TAB_CSV)
		put_where(t, -1, FV_ZONE_UNKNOWN);
	tab_u64(t, "order", a->order);
	tab_str(t, "outcome", a->ok ? "ok" : "failed");
	if (a->ok)
		tab_u64(t, "pfn", a->pfn);
	else
		tab_null(t, "pfn");
	tab_str(t, "migratetype", fv_mt_name(a->mt));
	if (t->fmt == TAB_CSV)
		tab_strf(t, NULL, "0x%" PRIx64, a->gfp);
	else
		tab_u64(t, "gfp", a->gfp);
	tab_i64(t, "pid", a->pid);
	if (t->fmt == TAB_CSV)
		tab_null(t, NULL);	/* run */
}

static void put_timeline(struct tab *t, const struct fv_compact *c)
{
	struct fv_ctl *tl;
	size_t n;

	tl = fv_compact_timeline(c, &n);
	if (t->fmt == TAB_CSV)
		fputs("time_ns,event,node,zone,order,outcome,pfn,migratetype,"
		      "gfp,pid,run\n", t->out);
	tab_break(t, "\n");
	tab_open(t, "timeline", '[');
	for (size_t i = 0; i < n; i++) {
		if (i)
			tab_break(t, "\n");
		tab_open(t, NULL, '{');
		tab_u64(t, "ts", tl[i].ts);
		if (tl[i].run)
			put_compact_entry(t, &c->runs[tl[i].idx], tl[i].idx);
		else
			put_alloc_entry(t, &c->allocs[tl[i].idx]);
		tab_close(t);
		tab_row_end(t);
	}
	tab_close(t);
	free(tl);
}

static int render_compact(FILE *out, const struct fv_model *m,
			  const struct compact_opts *o, enum tab_format fmt)
{
	const struct fv_compact *c = m->compact;
	struct tab t;

	tab_init(&t, out, fmt);
	tab_open_document(&t);
	if (fmt == TAB_JSON) {
		tab_str(&t, "capture", o->title ? o->title : "-");
		tab_u64(&t, "pageblock_order", m->pageblock_order);
		tab_bool(&t, "allocs_recorded", c->have_alloc_event);
	}
	if (!o->timeline) {
		put_runs(&t, c);
		if (fmt == TAB_JSON) {
			put_outcomes(&t, c);
			put_fails(&t, m, c);
		}
	}
	if (o->timeline || fmt == TAB_JSON)
		put_timeline(&t, c);
	tab_close(&t);
	if (fmt == TAB_JSON)
		fputc('\n', out);
	return 0;
}

int render_compact_csv(FILE *out, const struct fv_model *m,
		       const struct compact_opts *o)
{
	return render_compact(out, m, o, TAB_CSV);
}

int render_compact_json(FILE *out, const struct fv_model *m,
			const struct compact_opts *o)
{
	return render_compact(out, m, o, TAB_JSON);
}
