// SPDX-License-Identifier: GPL-2.0
/*
 * render_compact_parts.c - parts of the "fragview compact" walker
 * (render_compact_table.c): the heading, the outcomes by zone and order
 * and the migration failures, in txt and json (csv has only the runs or
 * the timeline).
 */
#include <inttypes.h>

#include "migform.h"
#include "render_compact.h"

void compact_heading(struct tab *t, const struct fv_model *m,
		     const struct compact_opts *o)
{
	const struct fv_compact *c = m->compact;
	struct compact_totals n;

	if (t->fmt == TAB_JSON) {
		tab_str(t, "capture", o->title ? o->title : "-");
		tab_u64(t, "pageblock_order", m->pageblock_order);
		tab_bool(t, "allocs_recorded", c->have_alloc_event);
		return;
	}
	tab_txt(t, "fragview compact: ");
	tab_txt_name(t, o->title ? o->title : "-");
	compact_totals(c, &n);
	tab_txt(t, "\ncompaction: %zu runs (%zu ended), %zu pages failed to "
		"migrate\nscanner passes: %zu (migrate %zu, free %zu; %zu outside "
		"a run)\n", c->nr_runs, n.ended, c->nr_fails, c->nr_scans,
		n.mpasses, n.fpasses, n.outside);
	if (c->have_alloc_event)
		tab_txt(t, "high-order allocations (order >= %u): %zu, %zu failed\n",
			m->pageblock_order, c->nr_allocs, n.alloc_fails);
	else
		tab_txt(t, "high-order allocations: not recorded "
			"(no kmem:mm_page_alloc in the capture)\n");
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

/* txt: the run count, deferrals and "runs ended with; suitable said" */
static void txt_outcome(struct tab *t, const struct fv_coutcome *o,
			uint32_t runs)
{
	char ended[512], said[512];

	tab_u64(t, NULL, runs);
	tab_u64(t, NULL, o->deferred);
	compact_counts_text(ended, sizeof(ended), o->runs, "-");
	compact_counts_text(said, sizeof(said), o->suitable, "");
	tab_strf(t, NULL, "%s%s%s", ended, *said ? "; " : "", said);
}

/* txt: the zones and orders with a run, deferral or verdict; json: all */
void compact_outcomes(struct tab *t, const struct fv_compact *c)
{
	static const struct tab_col cols[] = {
		{ 4, NULL }, { -8, NULL }, { -6, NULL }, { 5, NULL },
		{ 8, NULL }, { -1, "  " },
	};
	static const char *const heads[] = {
		"node", "zone", "order", "runs", "deferred",
		"runs ended with; suitable said",
	};
	bool head = false;

	tab_break(t, "\n");
	tab_open(t, "outcomes", '[');
	for (size_t i = 0; i < c->nr_outcomes; i++) {
		const struct fv_coutcome *o = &c->outcomes[i];
		uint32_t runs = 0;

		for (int s = 0; s < FV_CS_NR; s++)
			runs += o->runs[s];
		if (t->fmt == TAB_TXT && !runs && !o->deferred &&
		    !compact_nr_suitable(o))
			continue;
		if (t->fmt == TAB_TXT && !head)
			tab_txt(t, "\nOutcomes by zone and order (order 'zone': "
				"whole zones, compact_memory or proactive)\n");
		if (!head)
			tab_txt_head(t, cols, heads, 6);
		head = true;
		tab_row_open(t, i ? "\n" : NULL);
		compact_put_where(t, o->nid, o->zone);
		compact_put_order(t, o->order);
		if (t->fmt == TAB_TXT) {
			txt_outcome(t, o, runs);
		} else {
			put_counts(t, "runs", o->runs);
			put_counts(t, "suitable", o->suitable);
			tab_u64(t, "deferred", o->deferred);
			tab_u64(t, "allocs", o->allocs);
			tab_u64(t, "alloc_fails", o->alloc_fails);
		}
		tab_row_close(t);
	}
	tab_close(t);
}

/* migration failures by result: the pages, and the blocks they were in */
void compact_fails(struct tab *t, const struct fv_model *m,
		   const struct fv_compact *c)
{
	static const struct tab_col cols[] = {
		{ 8, NULL }, { -10, NULL }, { 8, NULL },
	};
	struct compact_fail_count fc[COMPACT_MAX_RESULTS];
	size_t n = compact_count_fails(c, m->pageblock_order, fc);

	if (n)
		tab_txt(t, "\nMigration failures (mobility:%s)\n",
			fv_migform_ok_unrecorded(&m->mig) ?
			"migrate_folio_failed" : "migrate_folio");
	tab_columns(t, cols);
	tab_break(t, "\n");
	tab_open(t, "migration_failures", '[');
	for (size_t i = 0; i < n; i++) {
		const char *e = fv_errno_name(fc[i].result);

		tab_row_open(t, NULL);
		tab_i64(t, "result", fc[i].result);
		if (e || t->fmt == TAB_TXT)
			tab_str(t, "errno", e ? e : "?");
		else
			tab_null(t, "errno");
		tab_u64(t, "pages", fc[i].pages);
		if (t->fmt == TAB_TXT)
			tab_txt(t, " pages in %zu blocks", fc[i].blocks);
		else
			tab_u64(t, "blocks", fc[i].blocks);
		tab_row_close(t);
	}
	tab_close(t);
}
