// SPDX-License-Identifier: GPL-2.0
/*
 * render_compact_csv.c - "fragview compact" as CSV: one row per
 * compaction run, or with --timeline one row per timeline entry.
 *
 * runs:     run,begin_ns,end_ns,pid,node,zone,order,mode,prio,status,
 *           zone_start,zone_end,migrate_begin,migrate_end,free_begin,
 *           free_end,migrate_passes,migrate_scanned,migrate_taken,
 *           free_passes,free_scanned,free_taken,migrated,failed
 * timeline: time_ns,event,node,zone,order,outcome,pfn,migratetype,gfp,
 *           pid,run
 *
 * Empty cells: unknown (no end, node not said, ...).  Orders: -1 for
 * whole-zone compaction.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "compaction.h"
#include "render.h"

static void put_where(FILE *out, int32_t nid, uint8_t zone)
{
	if (nid >= 0)
		fprintf(out, "%d,%s,", nid, fv_zone_name(zone));
	else
		fputs(",,", out);
}

static void put_order(FILE *out, int32_t order)
{
	if (order != FV_ORDER_UNKNOWN)
		fprintf(out, "%d", order);
	fputc(',', out);
}

static void put_runs(FILE *out, const struct fv_compact *c)
{
	fputs("run,begin_ns,end_ns,pid,node,zone,order,mode,prio,status,"
	      "zone_start,zone_end,migrate_begin,migrate_end,free_begin,"
	      "free_end,migrate_passes,migrate_scanned,migrate_taken,"
	      "free_passes,free_scanned,free_taken,migrated,failed\n", out);
	for (size_t i = 0; i < c->nr_runs; i++) {
		const struct fv_crun *r = &c->runs[i];

		fprintf(out, "%zu,%" PRIu64 ",", i, r->ts_begin);
		if (r->have_end)
			fprintf(out, "%" PRIu64, r->ts_end);
		fprintf(out, ",%d,", r->pid);
		put_where(out, r->nid, r->zone);
		put_order(out, r->order);
		fprintf(out, "%s,", r->sync ? "sync" : "async");
		if (r->prio >= 0)
			fprintf(out, "%d", r->prio);
		fprintf(out, ",%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
			",%" PRIu64 ",%" PRIu64 ",%u,%" PRIu64 ",%" PRIu64 ",%u,%"
			PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
			r->have_end ? fv_cstatus_name(r->status) : "",
			r->zone_start, r->zone_end, r->migrate_begin,
			r->migrate_end, r->free_begin, r->free_end,
			r->nr_mscans, r->mscanned, r->mtaken, r->nr_fscans,
			r->fscanned, r->ftaken, r->migrated, r->failed);
	}
}

static void put_timeline(FILE *out, const struct fv_compact *c)
{
	struct fv_ctl *tl;
	size_t n;

	tl = fv_compact_timeline(c, &n);
	fputs("time_ns,event,node,zone,order,outcome,pfn,migratetype,gfp,pid,run\n",
	      out);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%" PRIu64 ",", tl[i].ts);
		if (tl[i].run) {
			const struct fv_crun *r = &c->runs[tl[i].idx];

			fputs("compact,", out);
			put_where(out, r->nid, r->zone);
			put_order(out, r->order);
			fprintf(out, "%s,,,,%d,%u\n",
				r->have_end ? fv_cstatus_name(r->status) : "",
				r->pid, tl[i].idx);
		} else {
			const struct fv_halloc *a = &c->allocs[tl[i].idx];

			fprintf(out, "alloc,,,%u,%s,", a->order,
				a->ok ? "ok" : "failed");
			if (a->ok)
				fprintf(out, "%" PRIu64, a->pfn);
			fprintf(out, ",%s,0x%" PRIx64 ",%d,\n", fv_mt_name(a->mt),
				a->gfp, a->pid);
		}
	}
	free(tl);
}

int render_compact_csv(FILE *out, const struct fv_model *m,
		       const struct compact_opts *o)
{
	if (o->timeline)
		put_timeline(out, m->compact);
	else
		put_runs(out, m->compact);
	return 0;
}
