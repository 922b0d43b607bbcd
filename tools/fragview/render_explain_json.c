// SPDX-License-Identifier: GPL-2.0
/*
 * render_explain_json.c - "fragview explain" as one JSON object
 * (Documentation/fragview-explain.schema.json):
 *   {"capture", "pageblock_order", "order", "hypothetical",
 *    "failed_allocations", "causes":{cause: count},
 *    "explanations":[{"alloc", "ts_ns", "order", "pid", "comm", "gfp",
 *      "window_ns", "cause", "verdict", "culprit", "zones":[...],
 *      "nearest":[...], "compaction":{...}}]}
 * Times in ns of the trace clock, ages in ns (negative: taken after);
 * null: not in the capture.
 */
#include <inttypes.h>

#include "blame.h"
#include "compaction.h"
#include "explain.h"
#include "render.h"
#include "render_map_common.h"

static void put_task(FILE *out, const struct fv_blame *b, int32_t pid)
{
	fprintf(out, "\"pid\":%d,\"comm\":", pid);
	if (b)
		map_put_json_str(out, fv_blame_comm_of(b, pid));
	else
		fputs("null", out);
}

static void put_site(FILE *out, const struct fv_blame *b, int32_t stack)
{
	const struct fv_blame_stack *st = b ? fv_blame_stack_of(b, stack) : NULL;

	fputs(",\"site\":", out);
	if (st && st->site_id >= 0)
		map_put_json_str(out, b->sites[st->site_id]);
	else
		fputs("null", out);
}

static void put_zones(FILE *out, const struct fv_explanation *e)
{
	fprintf(out, ",\"zones_from\":\"%s\",\"zones\":[",
		e->zones_earlier ? "earlier" : e->zones_named ? "request" : "all");
	for (size_t i = 0; i < e->nr_zones; i++) {
		const struct fv_xzone *z = &e->zones[i];

		fprintf(out, "%s{\"node\":%d,\"zone\":\"%s\",\"blocks\":%" PRIu64
			",\"known\":%" PRIu64, i ? "," : "", z->nid,
			fv_zone_name(z->zone), z->blocks, z->known);
		if (z->known)
			fprintf(out, ",\"free_pages\":%" PRIu64 ",\"free_blocks\":%" PRIu64
				",\"reserve_blocks\":%" PRIu64 ",\"bound\":%" PRIu64
				",\"near90\":%" PRIu64 ",\"taken\":%" PRIu64
				",\"age_ns\":{\"min\":%" PRId64 ",\"max\":%" PRId64 "}",
				z->free_pages, z->free_blocks, z->reserve_blocks,
				z->bound, z->near90, z->taken, z->age_min, z->age_max);
		else
			fputs(",\"free_pages\":null,\"free_blocks\":null,"
			      "\"reserve_blocks\":null,\"bound\":null,\"near90\":null,"
			      "\"taken\":null,\"age_ns\":null", out);
		if (z->have_census)
			fprintf(out, ",\"census_age_ns\":%" PRId64, z->census_age);
		else
			fputs(",\"census_age_ns\":null", out);
		if (z->have_wmark)
			fprintf(out, ",\"watermarks\":{\"min\":%u,\"low\":%u,"
				"\"high\":%u,\"boost\":%u,\"free\":%u,"
				"\"managed\":%u,\"age_ns\":%" PRId64 "}}",
				z->wm.min, z->wm.low, z->wm.high, z->wm.boost,
				z->wm.free, z->wm.managed, z->wmark_age);
		else
			fputs(",\"watermarks\":null}", out);
	}
	fputc(']', out);
}

static void put_polluter(FILE *out, const struct fv_blame *b, int64_t k)
{
	const struct fv_blame_rec *r;

	fputs(",\"polluted_by\":", out);
	if (!b || k < 0) {
		fputs("null", out);
		return;
	}
	r = &b->recs[k];
	fprintf(out, "{\"kind\":\"%s\",\"ts_ns\":%" PRIu64 ",",
		r->kind == FV_EV_FLIP ? "flip" : "steal", r->ts);
	put_task(out, b, r->pid);
	put_site(out, b, r->stack);
	fputc('}', out);
}

static void put_nearest(FILE *out, const struct explain_view *v,
			const struct fv_explanation *e)
{
	fputs(",\"nearest\":[", out);
	for (size_t i = 0; i < e->nr_near; i++) {
		const struct fv_xblock *x = &e->near[i];
		const char *en = fv_errno_name(x->fail_result);

		fprintf(out, "%s{\"pfn\":%" PRIu64 ",\"type\":\"%s\",\"free\":%u,"
			"\"used\":%u,\"pin\":\"%s\",\"age_ns\":%" PRId64 ",\"census\":",
			i ? ",\n" : "\n", x->pfn, fv_mt_name(x->mt), x->free, x->used,
			fv_pin_name(x->pin), x->age);
		if (x->have_census) {
			fputc('{', out);
			for (int c = 0; c < FV_CN_NR; c++)
				fprintf(out, "%s\"%s\":%u", c ? "," : "",
					fv_census_count_name(c), x->n[c]);
			fprintf(out, ",\"age_ns\":%" PRId64 "}", x->census_age);
		} else {
			fputs("null", out);
		}
		fprintf(out, ",\"failed_migrations\":%u,\"fail_errno\":", x->fails);
		if (!x->fails)
			fputs("null", out);
		else if (en)
			fprintf(out, "\"%s\"", en);
		else
			fprintf(out, "%d", x->fail_result);
		put_polluter(out, v->b, x->blame);
		fputc('}', out);
	}
	fputc(']', out);
}

static void put_run(FILE *out, const struct fv_crun *r, uint32_t idx)
{
	fprintf(out, "{\"run\":%u,\"begin_ns\":%" PRIu64 ",\"end_ns\":", idx,
		r->ts_begin);
	if (r->have_end)
		fprintf(out, "%" PRIu64, r->ts_end);
	else
		fputs("null", out);
	fprintf(out, ",\"pid\":%d,\"node\":", r->pid);
	if (r->nid >= 0)
		fprintf(out, "%d,\"zone\":\"%s\"", r->nid, fv_zone_name(r->zone));
	else
		fputs("null,\"zone\":null", out);
	if (r->order == FV_ORDER_UNKNOWN)
		fputs(",\"order\":null", out);
	else
		fprintf(out, ",\"order\":%d", r->order);
	fprintf(out, ",\"migrate_scanner\":[%" PRIu64 ",%" PRIu64 "],"
		"\"free_scanner\":[%" PRIu64 ",%" PRIu64 "],"
		"\"isolated_migrate\":%" PRIu64 ",\"isolated_free\":%" PRIu64
		",\"migrated\":%" PRIu64 ",\"failed\":%" PRIu64 ",\"status\":",
		r->migrate_begin, r->migrate_end, r->free_begin, r->free_end,
		r->mtaken, r->ftaken, r->migrated, r->failed);
	if (r->have_end)
		fprintf(out, "\"%s\"}", fv_cstatus_name(r->status));
	else
		fputs("null}", out);
}

static void put_compaction(FILE *out, const struct fv_model *m,
			   const struct fv_explanation *e)
{
	bool any = false;

	fprintf(out, ",\"compaction\":{\"tried\":%s,\"priority\":",
		e->tried ? "true" : "false");
	if (e->tried)
		fprintf(out, "%d", e->prio);
	else
		fputs("null", out);
	fputs(",\"suitable\":{", out);
	for (int s = 0; s < FV_CS_NR; s++) {
		if (!e->suitable[s])
			continue;
		fprintf(out, "%s\"%s\":%u", any ? "," : "", fv_cstatus_name(s),
			e->suitable[s]);
		any = true;
	}
	fprintf(out, "},\"deferred\":%u,\"runs\":[", e->deferred);
	for (size_t i = 0; i < e->nr_runs; i++) {
		fputs(i ? "," : "", out);
		put_run(out, &m->compact->runs[e->runs[i]], e->runs[i]);
	}
	fputs("],\"deferred_by\":", out);
	if (e->deferred_by >= 0)
		put_run(out, &m->compact->runs[e->deferred_by], e->deferred_by);
	else
		fputs("null", out);
	fputc('}', out);
}

static void put_one(FILE *out, const struct explain_view *v,
		    const struct fv_explanation *e)
{
	fputs("{\"alloc\":", out);
	if (e->alloc >= 0)
		fprintf(out, "%" PRId64, e->alloc);
	else
		fputs("null", out);
	fprintf(out, ",\"ts_ns\":%" PRIu64 ",\"order\":%u,", e->ts, e->order);
	if (e->alloc >= 0) {
		put_task(out, v->b, e->pid);
		fprintf(out, ",\"gfp\":%" PRIu64, e->gfp);
	} else {
		fputs("\"pid\":null,\"comm\":null,\"gfp\":null", out);
	}
	fprintf(out, ",\"window_ns\":%" PRIu64 ",\"cause\":\"%s\",\"verdict\":",
		e->window, fv_cause_name(e->cause));
	map_put_json_str(out, e->verdict);
	fputs(",\"culprit\":", out);
	if (e->culprit_pid >= 0) {
		fputc('{', out);
		put_task(out, v->b, e->culprit_pid);
		put_site(out, v->b, e->culprit_stack);
		fprintf(out, ",\"blocks\":%u}", e->culprit_blocks);
	} else {
		fputs("null", out);
	}
	put_zones(out, e);
	put_nearest(out, v, e);
	put_compaction(out, v->m, e);
	fputc('}', out);
}

int render_explain_json(FILE *out, const struct explain_view *v)
{
	uint32_t causes[FV_CAUSE_NR] = { 0 };
	bool any = false;

	fputs("{\"capture\":", out);
	map_put_json_str(out, v->title);
	fprintf(out, ",\"pageblock_order\":%u,\"order\":%u,\"hypothetical\":%s,"
		"\"failed_allocations\":%zu,\"causes\":{", v->m->pageblock_order,
		v->order, v->at ? "true" : "false", v->nr_failed);
	for (size_t i = 0; i < v->nr; i++)
		causes[v->e[i].cause]++;
	for (int c = 0; c < FV_CAUSE_NR; c++) {
		if (!causes[c])
			continue;
		fprintf(out, "%s\"%s\":%u", any ? "," : "", fv_cause_name(c), causes[c]);
		any = true;
	}
	fputs("},\n\"explanations\":[", out);
	for (size_t i = 0; i < v->nr; i++) {
		fputs(i ? ",\n" : "\n", out);
		put_one(out, v, &v->e[i]);
	}
	fputs("]}\n", out);
	return 0;
}
