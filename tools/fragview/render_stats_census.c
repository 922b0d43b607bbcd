// SPDX-License-Identifier: GPL-2.0
/*
 * render_stats_census.c - the census part of "fragview stats" (a part of
 * the walker of render_stats_table.c): per zone of the latest
 * mobility:pageblock_census, polluted blocks and foreign pages per block
 * type, and the fleet figure "unmovable pages are X % of the zone's pages
 * but occupy Y % of its blocks".  Nothing is written for a capture
 * without a census (json: "census":null).
 */
#include <inttypes.h>

#include "render.h"
#include "render_stats.h"

/* 123 -> "12.3" (tenths of a percent); -1: "-" */
static const char *permille(char *buf, size_t len, int v)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%d.%d", v / 10, v % 10);
	return buf;
}

static void zone_csv_rows(struct tab *t, const struct fv_census_zone *z)
{
	const char *zn = fv_zone_name(z->zone);
	const char *const metric[] = { "seq", "blocks", "pages" };
	const int64_t value[] = { z->seq, z->blocks, z->pages };

	for (int i = 0; i < 3; i++)
		STATS_ROW(t, .table = "census", .node = z->nid, .zone = zn,
			  .metric = metric[i], .value = value[i]);
	for (int c = 0; c < FV_MOB_NR; c++)
		STATS_ROW(t, .table = "census_pages", .node = z->nid, .zone = zn,
			  .from = fv_mobility_name(c), .metric = "pages",
			  .value = z->by_mobility[c]);
	STATS_ROW(t, .table = "census", .node = z->nid, .zone = zn,
		  .metric = "unmovable_pages_permille",
		  .value = fv_census_unmovable_pages_permille(z));
	STATS_ROW(t, .table = "census", .node = z->nid, .zone = zn,
		  .metric = "unmovable_blocks_permille",
		  .value = fv_census_unmovable_blocks_permille(z));
}

/* csv: the rows of block type mt */
static void type_csv_rows(struct tab *t, const struct fv_census_zone *z,
			  int mt)
{
	const char *zn = fv_zone_name(z->zone);

	STATS_ROW(t, .table = "census_blocks", .node = z->nid, .zone = zn,
		  .from = fv_mt_name(mt), .metric = "blocks",
		  .value = z->blocks_of[mt]);
	STATS_ROW(t, .table = "census_blocks", .node = z->nid, .zone = zn,
		  .from = fv_mt_name(mt), .metric = "polluted",
		  .value = z->polluted[mt]);
	for (int c = 0; c < FV_MOB_NR; c++)
		STATS_ROW(t, .table = "census_foreign", .node = z->nid,
			  .zone = zn, .from = fv_mt_name(mt),
			  .to = fv_mobility_name(c), .metric = "pages",
			  .value = z->foreign[mt][c]);
}

/* txt: the zone's line; json: its totals */
static void zone_head(struct tab *t, const struct fv_census_zone *z)
{
	char x[16], y[16];

	tab_txt(t, "  node %d %s: %" PRIu64 " blocks, %" PRIu64 " pages\n"
		"    unmovable pages are %s %% of the zone's pages but occupy "
		"%s %% of its blocks\n", z->nid, fv_zone_name(z->zone), z->blocks,
		z->pages,
		permille(x, sizeof(x), fv_census_unmovable_pages_permille(z)),
		permille(y, sizeof(y), fv_census_unmovable_blocks_permille(z)));
	if (t->fmt != TAB_JSON)
		return;
	tab_i64(t, "node", z->nid);
	tab_str(t, "zone", fv_zone_name(z->zone));
	tab_u64(t, "blocks", z->blocks);
	tab_u64(t, "pages", z->pages);
	tab_open(t, "pages_by_mobility", '{');
	for (int c = 0; c < FV_MOB_NR; c++)
		tab_u64(t, fv_mobility_name(c), z->by_mobility[c]);
	tab_close(t);
	tab_u64(t, "unmovable_blocks", z->unmovable_blocks);
	tab_i64(t, "unmovable_pages_permille",
		fv_census_unmovable_pages_permille(z));
	tab_i64(t, "unmovable_blocks_permille",
		fv_census_unmovable_blocks_permille(z));
}

/* txt: a row per block type the zone has; json: "block_types" */
static void block_types(struct tab *t, const struct fv_census_zone *z)
{
	static const struct tab_col cols[] = {
		{ -12, "    " }, { 8, NULL }, { 8, NULL }, { 22, NULL },
		{ 12, NULL }, { 10, NULL },
	};
	static const char *const heads[] = {
		"block type", "blocks", "polluted", "foreign pages: movable",
		"reclaimable", "unmovable",
	};
	/* the txt columns of the foreign pages, in this order */
	static const int mob[] = { FV_MOB_MOVABLE, FV_MOB_RECLAIMABLE,
				   FV_MOB_UNMOVABLE };

	tab_txt_head(t, cols, heads, 6);
	tab_open(t, "block_types", '{');
	for (int mt = 0; mt < FV_MT_NR; mt++) {
		if (!z->blocks_of[mt])
			continue;
		if (t->fmt == TAB_CSV) {
			type_csv_rows(t, z, mt);
			continue;
		}
		tab_open(t, fv_mt_name(mt), '{');
		tab_label(t, fv_mt_name(mt));
		tab_u64(t, "blocks", z->blocks_of[mt]);
		tab_u64(t, "polluted", z->polluted[mt]);
		tab_open(t, "foreign", '{');
		for (int c = 0; t->fmt == TAB_JSON && c < FV_MOB_NR; c++)
			tab_u64(t, fv_mobility_name(c), z->foreign[mt][c]);
		for (int i = 0; t->fmt == TAB_TXT && i < 3; i++)
			tab_u64(t, NULL, z->foreign[mt][mob[i]]);
		tab_close(t);
		tab_row_close(t);
	}
	tab_close(t);
}

void stats_census(struct tab *t, const struct fv_stats *s)
{
	tab_break(t, "\n");
	if (!s->nr_census_zones) {
		if (t->fmt == TAB_JSON)
			tab_null(t, "census");
		return;
	}
	tab_txt(t, "\nCensus %u (mobility:pageblock_census) from %" PRIu64 ".%06"
		PRIu64 " s\n  (foreign pages: pages of another mobility than "
		"the block type's)\n", s->census[0].seq,
		s->census[0].ts / 1000000000, s->census[0].ts % 1000000000 / 1000);
	tab_open(t, "census", '{');
	tab_json_u64(t, "seq", s->census[0].seq);
	tab_json_u64(t, "ts_ns", s->census[0].ts);
	tab_open(t, "zones", '[');
	for (size_t k = 0; k < s->nr_census_zones; k++) {
		const struct fv_census_zone *z = &s->census[k];

		tab_row_open(t, "\n ");
		if (t->fmt == TAB_CSV)
			zone_csv_rows(t, z);
		else
			zone_head(t, z);
		block_types(t, z);
		tab_close(t);
	}
	tab_close(t);
	tab_close(t);
}
