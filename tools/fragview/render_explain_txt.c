// SPDX-License-Identifier: GPL-2.0
/*
 * render_explain_txt.c - "fragview explain" as text: per failed
 * allocation, the zone then, the blocks nearest to free and what pins
 * them, what compaction did, and the verdict.
 */
#include <inttypes.h>

#include "blame.h"
#include "compaction.h"
#include "explain.h"
#include "render.h"
#include "render_compact.h"
#include "render_map_common.h"
#include "text.h"

/* "4.21 s" (ages), "-0.30 s" when the figure was taken after */
static void put_age_w(FILE *out, int64_t age, int width)
{
	uint64_t a = age < 0 ? -(uint64_t)age : (uint64_t)age;
	char buf[48];

	snprintf(buf, sizeof(buf), "%s%" PRIu64 ".%02" PRIu64 " s",
		 age < 0 ? "-" : "", a / 1000000000, a % 1000000000 / 10000000);
	fprintf(out, "%*s", width, buf);
}

static void put_age(FILE *out, int64_t age)
{
	put_age_w(out, age, 0);
}

static void put_zone(FILE *out, const struct fv_xzone *z, unsigned int order)
{
	fprintf(out, "  node %d %s: %" PRIu64 " blocks, %" PRIu64 " with a free figure\n",
		z->nid, fv_zone_name(z->zone), z->blocks, z->known);
	if (!z->known) {
		fputs("    free pages: not in the capture (no snapshot or census of the zone)\n",
		      out);
		return;
	}
	fprintf(out, "    free pages %" PRIu64 ", figures ", z->free_pages);
	put_age(out, z->age_min);
	fputs(" to ", out);
	put_age(out, z->age_max);
	fputs(" old", out);
	if (z->taken)
		fprintf(out, " (%" PRIu64 " blocks since taken by high-order allocations)",
			z->taken);
	fprintf(out, "\n    free order-%u chunks: %" PRIu64 " usable, %" PRIu64
		" in reserves (HighAtomic, CMA, Isolate)\n", order,
		z->free_blocks, z->reserve_blocks);
	fprintf(out, "    free-memory bound: %" PRIu64 " order-%u pages if unfragmented;"
		" %" PRIu64 " blocks >= 90 %% free\n", z->bound, order, z->near90);
	fputs("    census: ", out);
	if (z->have_census) {
		put_age(out, z->census_age);
		fputs(" old (the oldest used)\n", out);
	} else {
		fputs("none of the zone\n", out);
	}
	if (!z->have_wmark) {
		fputs("    watermarks: not in the capture\n", out);
		return;
	}
	/* /proc/zoneinfo's min/low/high already include the boost */
	fprintf(out, "    watermarks: min %u low %u high %u (boost %u), zone free %u of %u"
		" managed (zoneinfo, ", z->wm.min, z->wm.low, z->wm.high,
		z->wm.boost, z->wm.free, z->wm.managed);
	put_age(out, z->wmark_age);
	fputs(" old)\n", out);
}

static void put_blame(FILE *out, const struct fv_blame *b, int64_t k)
{
	const struct fv_blame_rec *r;
	const struct fv_blame_stack *st;
	char ts[32];

	if (!b || k < 0) {
		fputs("-", out);
		return;
	}
	r = &b->recs[k];
	st = fv_blame_stack_of(b, r->stack);
	map_fmt_ts(ts, sizeof(ts), r->ts);
	fprintf(out, "%s ", r->kind == FV_EV_FLIP ? "flip" : "steal");
	text_put_txt(out, fv_blame_comm_of(b, r->pid));
	fprintf(out, "-%d at %s s", r->pid, ts);
	if (st && st->site_id >= 0) {
		fputs(" via ", out);
		text_put_txt(out, b->sites[st->site_id]);
	}
}

static void put_nearest(FILE *out, const struct explain_view *v,
			const struct fv_explanation *e)
{
	fprintf(out, "\n  The %zu blocks nearest to free (fewest pages in use, no free order-%u chunk)\n",
		e->nr_near, e->order);
	if (!e->nr_near) {
		fputs("    (none)\n", out);
		return;
	}
	fprintf(out, "    %-10s %-11s %5s %5s %-9s %8s  %s\n", "pfn", "type",
		"free", "used", "pin", "age", "census (pages), failed migrations, last steal or flip");
	for (size_t i = 0; i < e->nr_near; i++) {
		const struct fv_xblock *x = &e->near[i];

		fprintf(out, "    0x%-8" PRIx64 " %-11s %5u %5u %-9s ", x->pfn,
			fv_mt_name(x->mt), x->free, x->used, fv_pin_name(x->pin));
		put_age_w(out, x->age, 8);
		fputs("  ", out);
		if (x->have_census) {
			bool any = false;

			for (int c = FV_CN_LRU; c < FV_CN_NR; c++) {
				if (!x->n[c] || c == FV_CN_FREE_CHUNKS)
					continue;
				fprintf(out, "%s%s %u", any ? ", " : "",
					fv_census_count_name(c), x->n[c]);
				any = true;
			}
			if (!any)
				fputs("-", out);
			fputs(" (", out);
			put_age(out, x->census_age);
			fputs(")", out);
		} else {
			fputs("no census", out);
		}
		if (x->fails) {
			const char *en = fv_errno_name(x->fail_result);

			fprintf(out, "; %u failed", x->fails);
			if (en)
				fprintf(out, " %s", en);
			else
				fprintf(out, " %d", x->fail_result);
		}
		fputs("; ", out);
		put_blame(out, v->b, x->blame);
		fputc('\n', out);
	}
}

static void put_compaction(FILE *out, const struct explain_view *v,
			   const struct fv_explanation *e)
{
	const struct fv_compact *c = v->m->compact;
	char ts[32];

	map_fmt_ts(ts, sizeof(ts), e->window);
	if (e->alloc >= 0) {
		fprintf(out, "\n  Compaction for this request (since %s s: the task's previous high-order allocation)\n",
			ts);
		if (e->tried)
			fprintf(out, "    try_to_compact_pages: priority %d\n", e->prio);
		else
			fputs("    try_to_compact_pages: not called\n", out);
		fputs("    compaction_suitable: ", out);
		compact_put_counts(out, e->suitable, "-");
		fprintf(out, "; deferred: %u\n", e->deferred);
	} else {
		fprintf(out, "\n  Compaction in the second before (since %s s)\n", ts);
	}
	if (e->deferred_by >= 0) {
		const struct fv_crun *r = &c->runs[e->deferred_by];

		map_fmt_ts(ts, sizeof(ts), r->ts_end);
		fprintf(out, "    deferred by: run %" PRId64 " of pid %d, "
			"ended %s s %s\n", e->deferred_by, r->pid, ts,
			fv_explain_status_phrase(r->status));
	}
	if (!e->nr_runs) {
		fputs("    runs: none\n", out);
		return;
	}
	fprintf(out, "    %4s %12s %9s %6s %-8s %5s %-21s %-21s %6s %6s %8s %6s  %s\n",
		"run", "begin (s)", "took (ms)", "pid", "zone", "order",
		"migrate scanner", "free scanner", "m.took", "f.took",
		"migrated", "failed", "status");
	for (size_t i = 0; i < e->nr_runs; i++) {
		const struct fv_crun *r = &c->runs[e->runs[i]];
		char mig[32], frs[32];

		snprintf(mig, sizeof(mig), "0x%" PRIx64 "->0x%" PRIx64,
			 r->migrate_begin, r->migrate_end);
		snprintf(frs, sizeof(frs), "0x%" PRIx64 "->0x%" PRIx64,
			 r->free_begin, r->free_end);
		map_fmt_ts(ts, sizeof(ts), r->ts_begin);
		fprintf(out, "    %4u %12.12s %9.3f %6d %-8s %5d %-21s %-21s %6" PRIu64
			" %6" PRIu64 " %8" PRIu64 " %6" PRIu64 "  %s\n",
			e->runs[i], ts,
			r->have_end ? (r->ts_end - r->ts_begin) / 1e6 : 0.0, r->pid,
			r->nid < 0 ? "-" : fv_zone_name(r->zone),
			r->order == FV_ORDER_UNKNOWN ? -2 : r->order, mig, frs,
			r->mtaken, r->ftaken, r->migrated, r->failed,
			r->have_end ? fv_cstatus_name(r->status) : "(no end)");
	}
}

static void put_one(FILE *out, const struct explain_view *v,
		    const struct fv_explanation *e)
{
	const struct fv_compact *c = v->m->compact;
	char ts[32];

	map_fmt_ts(ts, sizeof(ts), e->ts);
	if (e->alloc >= 0) {
		fprintf(out, "\nallocation %" PRId64 " (of %zu high-order): order %u at %s s, ",
			e->alloc, c->nr_allocs, e->order, ts);
		/* the comm is the capture's: valid UTF-8 on the terminal */
		text_put_txt(out, v->b ? fv_blame_comm_of(v->b, e->pid) : "pid");
		fprintf(out, "-%d, gfp 0x%" PRIx64 ", failed\n", e->pid, e->gfp);
	} else {
		fprintf(out, "\nhypothetical allocation: order %u at %s s\n",
			e->order, ts);
	}
	fprintf(out, "  verdict (%s): %s\n", fv_cause_name(e->cause), e->verdict);
	fprintf(out, "\n  The zone%s then%s\n", e->nr_zones == 1 ? "" : "s",
		e->zones_earlier ? " (those compaction last named for the task)" :
		e->zones_named ? " (those compaction named for the request)" : "");
	for (size_t i = 0; i < e->nr_zones; i++)
		put_zone(out, &e->zones[i], e->order);
	put_nearest(out, v, e);
	put_compaction(out, v, e);
}

int render_explain_txt(FILE *out, const struct explain_view *v)
{
	uint32_t causes[FV_CAUSE_NR] = { 0 };

	fputs("fragview explain: ", out);
	text_put_txt(out, v->title);
	fputc('\n', out);
	if (v->at)
		fprintf(out, "a hypothetical allocation of order %u\n", v->order);
	else
		fprintf(out, "%zu failed allocations of order >= %u, %zu explained\n",
			v->nr_failed, v->order, v->nr);
	for (size_t i = 0; i < v->nr; i++)
		causes[v->e[i].cause]++;
	if (v->nr && !v->at) {
		fputs("causes:", out);
		for (int c = 0; c < FV_CAUSE_NR; c++)
			if (causes[c])
				fprintf(out, " %s %u", fv_cause_name(c), causes[c]);
		fputc('\n', out);
	}
	for (size_t i = 0; i < v->nr; i++)
		put_one(out, v, &v->e[i]);
	return 0;
}
