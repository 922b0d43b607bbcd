// SPDX-License-Identifier: GPL-2.0
/*
 * render_stats_census.c - the census part of fragview stats (txt, csv,
 * json): per zone of the latest mobility:pageblock_census, polluted
 * blocks and foreign pages per block type, and the fleet figure
 * "unmovable pages are X % of the zone's pages but occupy Y % of its
 * blocks".  Nothing is written for a capture without a census.
 */
#include <inttypes.h>

#include "render_stats_census.h"

/* 123 -> "12.3" (tenths of a percent); -1: "-" */
static const char *permille(char *buf, size_t len, int v)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%d.%d", v / 10, v % 10);
	return buf;
}

static bool zone_has_type(const struct fv_census_zone *z, int t)
{
	return z->blocks_of[t] > 0;
}

void census_stats_txt(FILE *out, const struct fv_stats *s)
{
	if (!s->nr_census_zones)
		return;
	fprintf(out, "\nCensus %u (mobility:pageblock_census) from %" PRIu64 ".%06"
		PRIu64 " s: foreign pages are pages of another mobility than the block type's\n",
		s->census[0].seq, s->census[0].ts / 1000000000,
		s->census[0].ts % 1000000000 / 1000);
	for (size_t k = 0; k < s->nr_census_zones; k++) {
		const struct fv_census_zone *z = &s->census[k];
		char x[16], y[16];

		fprintf(out, "  node %d %s: %" PRIu64 " blocks, %" PRIu64
			" pages: unmovable pages are %s %% of the zone's pages but occupy %s %% of its blocks\n",
			z->nid, fv_zone_name(z->zone), z->blocks, z->pages,
			permille(x, sizeof(x), fv_census_unmovable_pages_permille(z)),
			permille(y, sizeof(y), fv_census_unmovable_blocks_permille(z)));
		fprintf(out, "    %-12s %8s %8s %22s %12s %10s\n", "block type",
			"blocks", "polluted", "foreign pages: movable",
			"reclaimable", "unmovable");
		for (int t = 0; t < FV_MT_NR; t++) {
			if (!zone_has_type(z, t))
				continue;
			fprintf(out, "    %-12s %8" PRIu64 " %8" PRIu64 " %22" PRIu64
				" %12" PRIu64 " %10" PRIu64 "\n", fv_mt_name(t),
				z->blocks_of[t], z->polluted[t],
				z->foreign[t][FV_MOB_MOVABLE],
				z->foreign[t][FV_MOB_RECLAIMABLE],
				z->foreign[t][FV_MOB_UNMOVABLE]);
		}
	}
}

void census_stats_csv(FILE *out, const struct fv_stats *s,
		      void (*row)(FILE *out, const char *table, int node,
				  const char *zone, const char *from,
				  const char *to, const char *metric,
				  int64_t value))
{
	for (size_t k = 0; k < s->nr_census_zones; k++) {
		const struct fv_census_zone *z = &s->census[k];
		const char *zn = fv_zone_name(z->zone);

		row(out, "census", z->nid, zn, NULL, NULL, "seq", z->seq);
		row(out, "census", z->nid, zn, NULL, NULL, "blocks", z->blocks);
		row(out, "census", z->nid, zn, NULL, NULL, "pages", z->pages);
		for (int c = 0; c < FV_MOB_NR; c++)
			row(out, "census_pages", z->nid, zn, fv_mobility_name(c),
			    NULL, "pages", z->by_mobility[c]);
		row(out, "census", z->nid, zn, NULL, NULL,
		    "unmovable_pages_permille",
		    fv_census_unmovable_pages_permille(z));
		row(out, "census", z->nid, zn, NULL, NULL,
		    "unmovable_blocks_permille",
		    fv_census_unmovable_blocks_permille(z));
		for (int t = 0; t < FV_MT_NR; t++) {
			if (!zone_has_type(z, t))
				continue;
			row(out, "census_blocks", z->nid, zn, fv_mt_name(t), NULL,
			    "blocks", z->blocks_of[t]);
			row(out, "census_blocks", z->nid, zn, fv_mt_name(t), NULL,
			    "polluted", z->polluted[t]);
			for (int c = 0; c < FV_MOB_NR; c++)
				row(out, "census_foreign", z->nid, zn,
				    fv_mt_name(t), fv_mobility_name(c), "pages",
				    z->foreign[t][c]);
		}
	}
}

void census_stats_json(FILE *out, const struct fv_stats *s)
{
	fputs(",\n\"census\":", out);
	if (!s->nr_census_zones) {
		fputs("null", out);
		return;
	}
	fprintf(out, "{\"seq\":%u,\"ts_ns\":%" PRIu64 ",\"zones\":[",
		s->census[0].seq, s->census[0].ts);
	for (size_t k = 0; k < s->nr_census_zones; k++) {
		const struct fv_census_zone *z = &s->census[k];
		bool any = false;

		fprintf(out, "%s\n {\"node\":%d,\"zone\":\"%s\",\"blocks\":%" PRIu64
			",\"pages\":%" PRIu64 ",\"pages_by_mobility\":{",
			k ? "," : "", z->nid, fv_zone_name(z->zone), z->blocks,
			z->pages);
		for (int c = 0; c < FV_MOB_NR; c++)
			fprintf(out, "%s\"%s\":%" PRIu64, c ? "," : "",
				fv_mobility_name(c), z->by_mobility[c]);
		fprintf(out, "},\"unmovable_blocks\":%" PRIu64
			",\"unmovable_pages_permille\":%d"
			",\"unmovable_blocks_permille\":%d,\"block_types\":{",
			z->unmovable_blocks, fv_census_unmovable_pages_permille(z),
			fv_census_unmovable_blocks_permille(z));
		for (int t = 0; t < FV_MT_NR; t++) {
			if (!zone_has_type(z, t))
				continue;
			fprintf(out, "%s\"%s\":{\"blocks\":%" PRIu64 ",\"polluted\":%"
				PRIu64 ",\"foreign\":{", any ? "," : "",
				fv_mt_name(t), z->blocks_of[t], z->polluted[t]);
			for (int c = 0; c < FV_MOB_NR; c++)
				fprintf(out, "%s\"%s\":%" PRIu64, c ? "," : "",
					fv_mobility_name(c), z->foreign[t][c]);
			fputs("}}", out);
			any = true;
		}
		fputs("}}", out);
	}
	fputs("]}", out);
}
