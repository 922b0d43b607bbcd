// SPDX-License-Identifier: GPL-2.0
/*
 * render_compact_table.c - "fragview compact" in txt, csv and json, one
 * walker over the table emitter (table.h):
 *
 *   txt   the totals, the outcomes by zone and order, a table of the
 *         runs (scanner ranges as "0x1->0x400"), the migration failures
 *         and the high-order timeline (with --timeline: the totals and
 *         the timeline);
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
 * csv and json: times in ns of the trace clock (txt: seconds).  Unknown
 * (no end, node not said, ...): an empty cell, null (txt: "-").  Orders:
 * -1 for whole-zone compaction (txt: "zone").
 */
#include <inttypes.h>
#include <stdlib.h>

#include "compaction.h"
#include "render.h"
#include "render_compact.h"
#include "table.h"

static void put_status(struct tab *t, const char *key, const struct fv_crun *r)
{
	if (r->have_end)
		tab_str(t, key, fv_cstatus_name(r->status));
	else if (t->fmt == TAB_TXT)
		tab_str(t, NULL, "(no end)");
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

/* txt: each scanner's range, what it scanned and what it took */
static void txt_scanners(struct tab *t, const struct fv_crun *r)
{
	tab_strf(t, NULL, "0x%" PRIx64 "->0x%" PRIx64, r->migrate_begin,
		 r->migrate_end);
	tab_u64(t, NULL, r->mscanned);
	tab_u64(t, NULL, r->mtaken);
	tab_strf(t, NULL, "0x%" PRIx64 "->0x%" PRIx64, r->free_begin,
		 r->free_end);
	tab_u64(t, NULL, r->fscanned);
	tab_u64(t, NULL, r->ftaken);
}

/* when a run began and ended: txt seconds and its length in ms */
static void run_times(struct tab *t, const struct fv_crun *r)
{
	if (t->fmt == TAB_TXT)
		tab_strf(t, NULL, "%.6f", r->ts_begin / 1e9);
	else
		tab_u64(t, "begin_ns", r->ts_begin);
	if (r->have_end && t->fmt == TAB_TXT)
		tab_strf(t, NULL, "%.3f", (r->ts_end - r->ts_begin) / 1e6);
	else if (r->have_end)
		tab_u64(t, "end_ns", r->ts_end);
	else
		tab_null(t, "end_ns");
}

static void put_run(struct tab *t, size_t i, const struct fv_crun *r)
{
	tab_row_open(t, NULL);
	tab_u64(t, "run", i);
	run_times(t, r);
	tab_i64(t, "pid", r->pid);
	compact_put_where(t, r->nid, r->zone);
	compact_put_order(t, r->order);
	tab_str(t, "mode", r->sync ? "sync" : "async");
	if (t->fmt != TAB_TXT) {
		if (r->prio >= 0)
			tab_i64(t, "prio", r->prio);
		else
			tab_null(t, "prio");
		put_status(t, "status", r);
		tab_u64(t, "zone_start", r->zone_start);
		tab_u64(t, "zone_end", r->zone_end);
	}
	if (t->fmt == TAB_CSV) {
		csv_scanners(t, r);
	} else if (t->fmt == TAB_JSON) {
		put_scanner(t, "migrate", r->migrate_begin, r->migrate_end,
			    r->nr_mscans, r->mscanned, r->mtaken);
		put_scanner(t, "free", r->free_begin, r->free_end,
			    r->nr_fscans, r->fscanned, r->ftaken);
	}
	tab_u64(t, "migrated", r->migrated);
	tab_u64(t, "failed", r->failed);
	if (t->fmt == TAB_TXT)
		put_status(t, NULL, r);
	tab_row_close(t);
}

/* txt: two tables, to stay in the 100 columns: the runs, their scanners */
static const struct tab_col run_cols[] = {
	{ 4, NULL }, { 14, NULL }, { 10, NULL }, { 7, NULL }, { 4, NULL },
	{ -8, NULL }, { -6, NULL }, { -5, NULL }, { 8, NULL }, { 6, NULL },
	{ -1, "  " },
};
static const char *const run_heads[] = {
	"#", "begin (s)", "took (ms)", "pid", "node", "zone", "order", "mode",
	"migrated", "failed", "status",
};
static const struct tab_col scanner_cols[] = {
	{ 4, NULL }, { -27, NULL }, { 8, NULL }, { 6, NULL }, { -27, NULL },
	{ 8, NULL }, { 6, NULL },
};
static const char *const scanner_heads[] = {
	"#", "migrate scanner", "scanned", "taken", "free scanner", "scanned",
	"taken",
};

/* txt: the second table of the runs */
static void txt_scanner_table(struct tab *t, const struct fv_compact *c)
{
	tab_txt(t, "\nScanners (migrate scanner: up from its start; free "
		"scanner: down)\n");
	tab_txt_head(t, scanner_cols, scanner_heads, 7);
	for (size_t i = 0; i < c->nr_runs; i++) {
		tab_u64(t, NULL, i);
		txt_scanners(t, &c->runs[i]);
		tab_row_end(t);
	}
}

static void put_runs(struct tab *t, const struct fv_compact *c)
{
	if (t->fmt == TAB_TXT && !c->nr_runs)
		return;
	tab_csv_head(t, "run,begin_ns,end_ns,pid,node,zone,order,mode,prio,"
		     "status,zone_start,zone_end,migrate_begin,migrate_end,"
		     "free_begin,free_end,migrate_passes,migrate_scanned,"
		     "migrate_taken,free_passes,free_scanned,free_taken,"
		     "migrated,failed");
	tab_txt(t, "\nRuns\n");
	tab_txt_head(t, run_cols, run_heads, 11);
	tab_break(t, "\n");
	tab_open(t, "runs", '[');
	for (size_t i = 0; i < c->nr_runs; i++) {
		if (i)
			tab_break(t, "\n");
		put_run(t, i, &c->runs[i]);
	}
	tab_close(t);
	if (t->fmt == TAB_TXT)
		txt_scanner_table(t, c);
}

static void put_compact_entry(struct tab *t, const struct fv_crun *r,
			      unsigned int run)
{
	tab_str(t, "event", "compact");
	compact_put_where(t, r->nid, r->zone);
	compact_put_order(t, r->order);
	put_status(t, "outcome", r);
	if (t->fmt == TAB_TXT) {
		tab_strf(t, NULL, "run %u, pid %d, migrated %" PRIu64
			 ", failed %" PRIu64, run, r->pid, r->migrated,
			 r->failed);
		return;
	}
	for (int i = 0; t->fmt == TAB_CSV && i < 3; i++)
		tab_null(t, NULL);	/* pfn, migratetype, gfp */
	tab_i64(t, "pid", r->pid);
	tab_u64(t, "run", run);
}

/* txt: "pfn 0x21400, Movable, gfp 0x3d24ca, pid 91" */
static void txt_alloc_detail(struct tab *t, const struct fv_halloc *a)
{
	char pfn[32] = "";

	if (a->ok)
		snprintf(pfn, sizeof(pfn), "pfn 0x%" PRIx64 ", ", a->pfn);
	tab_strf(t, NULL, "%s%s, gfp 0x%" PRIx64 ", pid %d", pfn,
		 fv_mt_name(a->mt), a->gfp, a->pid);
}

static void put_alloc_entry(struct tab *t, const struct fv_halloc *a)
{
	tab_str(t, "event", "alloc");
	if (t->fmt != TAB_JSON)
		compact_put_where(t, -1, FV_ZONE_UNKNOWN);
	tab_u64(t, "order", a->order);
	tab_str(t, "outcome", a->ok ? "ok" : t->fmt == TAB_TXT ? "FAILED" :
		"failed");
	if (t->fmt == TAB_TXT) {
		txt_alloc_detail(t, a);
		return;
	}
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

/* txt: an allocation's line in the 100 columns */
static const struct tab_col timeline_cols[] = {
	{ 12, NULL }, { -7, NULL }, { 4, NULL }, { -7, NULL }, { -5, NULL },
	{ -16, NULL }, { -1, NULL },
};
static const char *const timeline_heads[] = {
	"time (s)", "event", "node", "zone", "order", "outcome", "detail",
};

static void put_timeline(struct tab *t, const struct fv_model *m,
			 const struct fv_compact *c)
{
	struct fv_ctl *tl;
	size_t n;

	tl = fv_compact_timeline(c, &n);
	tab_csv_head(t, "time_ns,event,node,zone,order,outcome,pfn,migratetype,"
		     "gfp,pid,run");
	tab_txt(t, "\nHigh-order timeline: allocations of order >= %u, "
		"compaction run ends\n", m->pageblock_order);
	tab_txt_head(t, timeline_cols, timeline_heads, 7);
	tab_break(t, "\n");
	tab_open(t, "timeline", '[');
	for (size_t i = 0; i < n; i++) {
		tab_row_open(t, i ? "\n" : NULL);
		if (t->fmt == TAB_TXT)
			tab_strf(t, NULL, "%.6f", tl[i].ts / 1e9);
		else
			tab_u64(t, "ts", tl[i].ts);
		if (tl[i].run)
			put_compact_entry(t, &c->runs[tl[i].idx], tl[i].idx);
		else
			put_alloc_entry(t, &c->allocs[tl[i].idx]);
		tab_row_close(t);
	}
	if (!n)
		tab_txt(t, "(none)\n");
	tab_close(t);
	free(tl);
}

/*
 * txt: the outcomes before the runs; json: after them.  csv: the runs,
 * or with --timeline the timeline.
 */
static int render_compact(FILE *out, const struct fv_model *m,
			  const struct compact_opts *o, enum tab_format fmt)
{
	const struct fv_compact *c = m->compact;
	struct tab t;

	tab_init(&t, out, fmt);
	tab_open_document(&t);
	if (fmt != TAB_CSV)
		compact_heading(&t, m, o);
	if (!o->timeline) {
		if (fmt == TAB_TXT)
			compact_outcomes(&t, c);
		put_runs(&t, c);
		if (fmt == TAB_JSON)
			compact_outcomes(&t, c);
		if (fmt != TAB_CSV)
			compact_fails(&t, m, c);
	}
	if (o->timeline || fmt != TAB_CSV)
		put_timeline(&t, m, c);
	tab_close(&t);
	if (fmt == TAB_JSON)
		fputc('\n', out);
	return 0;
}

int render_compact_txt(FILE *out, const struct fv_model *m,
		       const struct compact_opts *o)
{
	return render_compact(out, m, o, TAB_TXT);
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
