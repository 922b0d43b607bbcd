// SPDX-License-Identifier: GPL-2.0
/*
 * render_stats_zones.c - the zones of "fragview stats" (a part of the
 * walker of render_stats_table.c): blocks per type at the start and the
 * end of the capture, and per order the free blocks, the unusable free
 * space index and the fragmentation index of mm/vmstat.c.
 */
#include <inttypes.h>

#include "render.h"
#include "render_stats.h"

/* txt: a name, then a column per order: 100 columns */
static const struct tab_col order_cols[1 + FV_MAX_ORDER] = {
	{ -19, "    " },
	[1 ... FV_MAX_ORDER] = { 6, NULL },
};

/* thousandths as "1.000" (json, csv: the number itself) */
static void permille(struct tab *t, int v)
{
	if (t->fmt == TAB_TXT)
		tab_strf(t, NULL, "%2d.%03d", v / 1000, v % 1000);
	else
		tab_i64(t, NULL, v);
}

static void frag_csv_rows(struct tab *t, const struct fv_zone_stats *zs,
			  const char *when, const struct fv_frag *f)
{
	const char *zone = fv_zone_name(zs->zone);

	STATS_ROW(t, .table = "free_pages", .node = zs->nid, .zone = zone,
		  .metric = when, .value = f->free_pages);
	for (int o = 0; o < FV_MAX_ORDER; o++) {
		STATS_ROW(t, .table = "free_blocks_estimated", .node = zs->nid,
			  .zone = zone, .order = o, .metric = when,
			  .value = f->nr_free[o]);
		STATS_ROW(t, .table = "unusable_index_permille", .node = zs->nid,
			  .zone = zone, .order = o, .metric = when,
			  .value = f->unusable[o]);
		/* -1000 as in the kernel: a request of this order would succeed */
		STATS_ROW(t, .table = "fragmentation_index_permille",
			  .node = zs->nid, .zone = zone, .order = o,
			  .metric = when, .value = f->fragindex[o]);
	}
}

/* txt: a row per measure; json: an array per measure; csv: rows */
static void frag(struct tab *t, const struct fv_zone_stats *zs,
		 const char *when, const struct fv_frag *f)
{
	if (!f->valid) {
		if (t->fmt == TAB_JSON)
			tab_null(t, when);
		return;
	}
	if (t->fmt == TAB_CSV) {
		frag_csv_rows(t, zs, when, f);
		return;
	}
	tab_txt(t, "    %-5s free pages %" PRIu64 "\n", when, f->free_pages);
	tab_open(t, when, '{');
	tab_json_u64(t, "free_pages", f->free_pages);
	tab_columns(t, order_cols);
	tab_label(t, "order");
	for (int o = 0; t->fmt == TAB_TXT && o < FV_MAX_ORDER; o++)
		tab_i64(t, NULL, o);
	tab_row_end(t);
	tab_label(t, "free blocks (est.)");
	tab_open(t, "free_blocks_estimated", '[');
	for (int o = 0; o < FV_MAX_ORDER; o++)
		tab_u64(t, NULL, f->nr_free[o]);
	tab_row_close(t);
	tab_label(t, "unusable free index");
	tab_open(t, "unusable_index_permille", '[');
	for (int o = 0; o < FV_MAX_ORDER; o++)
		permille(t, f->unusable[o]);
	tab_row_close(t);
	tab_label(t, "fragmentation index");
	tab_open(t, "fragmentation_index_permille", '[');
	for (int o = 0; o < FV_MAX_ORDER; o++) {
		if (f->fragindex[o] < 0 && t->fmt == TAB_TXT)
			tab_str(t, NULL, "-1");	/* -1000: it would succeed */
		else
			permille(t, f->fragindex[o]);
	}
	tab_row_close(t);
	tab_close(t);
}

/* json: {"type":count, ...} of every type; csv: a row each */
static void blocks(struct tab *t, const struct fv_zone_stats *zs)
{
	const char *const when[] = { "start", "end" };
	const uint64_t *n[] = { zs->blocks_start, zs->blocks_end };

	if (t->fmt == TAB_CSV) {
		for (int mt = 0; mt < FV_MT_NR; mt++)
			for (int w = 0; w < 2; w++)
				STATS_ROW(t, .table = "blocks", .node = zs->nid,
					  .zone = fv_zone_name(zs->zone),
					  .from = fv_mt_name(mt), .metric = when[w],
					  .value = n[w][mt]);
		return;
	}
	for (int mt = 0; t->fmt == TAB_TXT && mt < FV_MT_NR; mt++)
		if (n[0][mt] || n[1][mt])
			tab_txt_wrap(t, "   ", " %s %" PRIu64 "->%" PRIu64,
				     fv_mt_name(mt), n[0][mt], n[1][mt]);
	tab_txt(t, "\n");
	for (int w = 0; t->fmt == TAB_JSON && w < 2; w++) {
		tab_open(t, w ? "blocks_end" : "blocks_start", '{');
		for (int mt = 0; mt < FV_MT_NR; mt++)
			tab_u64(t, fv_mt_name(mt), n[w][mt]);
		tab_close(t);
	}
}

void stats_zones(struct tab *t, const struct fv_stats *s)
{
	if (s->nr_zones)
		tab_txt(t, "\nPageblocks per zone (start -> end of the capture):\n");
	tab_break(t, "\n");
	tab_open(t, "zones", '[');
	for (size_t z = 0; z < s->nr_zones; z++) {
		const struct fv_zone_stats *zs = &s->zones[z];

		tab_txt(t, "  node %d %s:", zs->nid, fv_zone_name(zs->zone));
		tab_row_open(t, "\n ");
		if (t->fmt == TAB_JSON) {
			tab_i64(t, "node", zs->nid);
			tab_str(t, "zone", fv_zone_name(zs->zone));
		}
		blocks(t, zs);
		frag(t, zs, "start", &zs->frag_start);
		frag(t, zs, "end", &zs->frag_end);
		tab_close(t);
	}
	tab_close(t);
}
