// SPDX-License-Identifier: GPL-2.0
/*
 * render_map_svg.c - the pageblock map as a standalone SVG for papers:
 * per zone a heading and a grid of squares, one per block, filled with
 * the type's colour; blocks stolen from or flipped carry small marks.
 * Each square carries a <title> (tooltip in viewers) with its pfn range,
 * type and counters.  Plain attributes only (no CSS, scripts or fonts),
 * so LaTeX/Inkscape/rsvg conversions agree with browsers.
 */
#include <inttypes.h>

#include "integrity.h"
#include "migform.h"
#include "render_map_common.h"
#include "render_map_compact.h"

#define COLS	64		/* blocks per row: 64 x 2 MiB = 128 MiB */
#define CELL	10
#define PITCH	(CELL + 1)
#define MARGIN	16
#define LABEL_W	64		/* row labels: the pfn of the row's first slot */
#define TITLE_H	40		/* document heading */
#define ZONE_H	34		/* zone heading above its grid */
#define ZONE_GAP 14
#define LEGEND_ROW 18
#define BANNER_ROW 15
#define LEGEND_TYPES FV_MT_NONE	/* offline blocks are gaps, not a type */
#define LEGEND_ENTRIES (LEGEND_TYPES + 2)	/* types, stolen from, flipped */

static void put_rgb(FILE *out, const struct map_view *v, unsigned int bucket)
{
	const struct map_bucket *c = &v->buckets[bucket];

	fprintf(out, "#%02x%02x%02x", c->r, c->g, c->b);
}

/* A view's tooltip words: ", free 123 pages (snapshot 2)" */
static void put_cell_title(FILE *out, const struct map_view *v, size_t i)
{
	const struct map_cell *c = &v->cell[i];

	fprintf(out, ", %s: %s", map_color_name(v->color),
		v->buckets[c->bucket].label);
	if (c->known && v->color != MAP_COLOR_STEALS)
		fprintf(out, " (%" PRId64 ", %s %u)", c->value,
			c->census ? "census" : "snapshot", c->seq);
	else if (v->color == MAP_COLOR_STEALS)
		fprintf(out, " (%" PRId64 ")", c->value);
	if (c->rec) {
		char holds[256];

		map_census_holds(holds, sizeof(holds), c->rec);
		fprintf(out, "; holds %s", holds);
	}
}

static size_t zone_rows(const struct fv_model *m, const struct fv_zone *z)
{
	return map_grid_rows(m, z, COLS);
}

/*
 * The same glyphs as the HTML map: a dark corner square for a block pages
 * were stolen from, a hollow centre square for a block that changed type.
 * Small marks keep runs of marked blocks readable, unlike outlines.
 */
static void put_marks(FILE *out, bool stolen, bool flipped, int x, int y)
{
	if (stolen)
		fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"3\" height=\"3\" "
			"fill=\"#111111\"/>", x + CELL - 3, y);
	if (flipped)
		fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"4\" height=\"4\" "
			"fill=\"#111111\"/><rect x=\"%d\" y=\"%d\" width=\"2\" "
			"height=\"2\" fill=\"#ffffff\"/>", x + 3, y + 3, x + 4,
			y + 4);
}

static void put_block(FILE *out, const struct fv_model *m,
		      const struct map_view *v, size_t i, int x, int y)
{
	const struct fv_block *b = &m->blocks[i];
	unsigned int mt = map_mt_clamp(v->mt[i]);
	unsigned int bucket = map_view_bucket(v, i);
	bool marked = map_view_marked(v, b);

	/* a marked block is a group, so its tooltip covers the marks too */
	if (marked)
		fprintf(out, "<g data-pfn=\"0x%" PRIx64 "\"><title>", b->pfn);
	else
		fprintf(out, "<rect data-pfn=\"0x%" PRIx64 "\" x=\"", b->pfn);
	if (!marked) {
		fprintf(out, "%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"",
			x, y, CELL, CELL);
		put_rgb(out, v, bucket);
		fputs("\"><title>", out);
	}
	fprintf(out, "pfn 0x%" PRIx64 "-0x%" PRIx64 " %s, node %d %s",
		b->pfn, b->pfn + v->pages_per_block - 1, fv_mt_name(mt),
		b->nid, fv_zone_name(b->zone));
	fprintf(out, " (steals %u, claims %u, flips %u, ", b->n.steals,
		b->n.claims, b->n.flips);
	/* a default recording has the failed attempts only (migform.h) */
	if (fv_migform_ok_unrecorded(&m->mig))
		fprintf(out, "migrations %u failed, successes not recorded)",
			b->n.migrate_fail);
	else
		fprintf(out, "migrated %u ok %u failed)", b->n.migrate_ok,
			b->n.migrate_fail);
	if (v->cell)
		put_cell_title(out, v, i);
	fputs("</title>", out);
	if (!marked) {
		fputs("</rect>\n", out);
		return;
	}
	fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
		"fill=\"", x, y, CELL, CELL);
	put_rgb(out, v, bucket);
	fputs("\"/>", out);
	put_marks(out, b->n.steals > 0, b->n.flips > 0, x, y);
	fputs("</g>\n", out);
}

static int put_zone(FILE *out, const struct fv_model *m,
		    const struct map_view *v, const struct fv_zone *z, int y)
{
	uint64_t last = z->nr ? m->blocks[z->first + z->nr - 1].pfn +
				v->pages_per_block - 1 : z->start_pfn;
	struct map_grid g;
	char n[64];

	map_zone_counts(n, sizeof(n), v, z);
	fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"13\" "
		"font-weight=\"bold\">node %d zone %s</text>\n",
		MARGIN, y + 14, z->nid, fv_zone_name(z->zone));
	fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#555\">"
		"pfn 0x%" PRIx64 "-0x%" PRIx64 ", %s</text>\n",
		MARGIN, y + 28, z->start_pfn, last, n);
	y += ZONE_H;
	map_grid_init(&g, m, z, COLS);
	for (size_t i = z->first; i < z->first + z->nr; i++) {
		size_t row, col;

		if (map_grid_place(&g, m->blocks[i].pfn, &row, &col))
			fprintf(out, "<text class=\"row\" x=\"%d\" y=\"%d\" "
				"font-size=\"9\" fill=\"#777\" "
				"font-family=\"monospace\">0x%" PRIx64 "</text>\n",
				MARGIN, y + (int)row * PITCH + CELL - 1,
				map_grid_row_pfn(&g));
		if (v->mt[i] == FV_MT_NONE)
			continue;	/* offline at this time: a gap */
		put_block(out, m, v, i, MARGIN + LABEL_W + (int)col * PITCH,
			  y + (int)row * PITCH);
		if (v->cmarks)
			map_compact_svg_block(out, m, i, &v->cmarks[i],
					      MARGIN + LABEL_W + (int)col * PITCH,
					      y + (int)row * PITCH, CELL);
	}
	return y + (int)zone_rows(m, z) * PITCH + ZONE_GAP;
}

/* Rows of legend entries (4 to a row) and the view's source line. */
static int legend_rows(const struct map_view *v)
{
	return v->cell ? ((int)v->nr_buckets + 3) / 4 + 2
		       : (LEGEND_ENTRIES + 3) / 4;
}

static void put_view_legend(FILE *out, const struct map_view *v, int y)
{
	char src[256];

	map_view_source(src, sizeof(src), v);
	fprintf(out, "<g font-size=\"11\">\n<text x=\"%d\" y=\"%d\" "
		"font-weight=\"bold\">", MARGIN, y + CELL - 1);
	map_put_xml(out, map_color_title(v->color));
	fprintf(out, "</text>\n<text class=\"source\" x=\"%d\" y=\"%d\" "
		"fill=\"#555\">", MARGIN, y + LEGEND_ROW + CELL - 1);
	map_put_xml(out, src);
	fputs("</text>\n", out);
	y += 2 * LEGEND_ROW;
	for (unsigned int k = 0; k < v->nr_buckets; k++) {
		int x = MARGIN + (int)(k % 4) * 170;
		int ry = y + (int)(k / 4) * LEGEND_ROW;

		fprintf(out, "<rect class=\"key\" x=\"%d\" y=\"%d\" width=\"%d\" "
			"height=\"%d\" fill=\"", x, ry, CELL, CELL);
		put_rgb(out, v, k);
		fprintf(out, "\"/><text x=\"%d\" y=\"%d\">", x + CELL + 6,
			ry + CELL - 1);
		map_put_xml(out, v->buckets[k].label);
		fprintf(out, ": %" PRIu64 "</text>\n", v->bucket_count[k]);
	}
	fprintf(out, "</g>\n");
}

static void put_legend(FILE *out, const struct fv_model *m,
		       const struct map_view *v, int y)
{
	size_t stolen = 0, flipped = 0;

	if (v->cell) {
		put_view_legend(out, v, y);
		return;
	}
	for (size_t z = 0; z < m->nr_zones; z++) {
		const struct fv_zone *zone = &m->zones[z];

		for (size_t i = zone->first; v->zone_shown[z] &&
		     i < zone->first + zone->nr; i++) {
			stolen += m->blocks[i].n.steals > 0;
			flipped += m->blocks[i].n.flips > 0;
		}
	}
	fprintf(out, "<g font-size=\"11\">\n");
	/* the types, then the two marks on a Movable swatch */
	for (unsigned int k = 0; k < LEGEND_ENTRIES; k++) {
		int x = MARGIN + (int)(k % 4) * 170;
		int ry = y + (int)(k / 4) * LEGEND_ROW;
		unsigned int mt = k < LEGEND_TYPES ? k : FV_MT_MOVABLE;

		fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
			"fill=\"", x, ry, CELL, CELL);
		put_rgb(out, v, mt);
		fputs("\"/>", out);
		put_marks(out, k == LEGEND_TYPES, k == LEGEND_TYPES + 1, x, ry);
		fprintf(out, "<text x=\"%d\" y=\"%d\">", x + CELL + 6,
			ry + CELL - 1);
		if (k < LEGEND_TYPES)
			fprintf(out, "%s: %" PRIu64, fv_mt_name(mt), v->count[mt]);
		else if (k == LEGEND_TYPES)
			fprintf(out, "stolen from: %zu", stolen);
		else
			fprintf(out, "flipped: %zu", flipped);
		fputs("</text>\n", out);
	}
	fprintf(out, "</g>\n");
}

/* The warning banner: red lines under the heading (escaped, like all). */
struct svg_banner {
	FILE *out;
	int y;
};

static void svg_banner_line(const char *line, bool title, void *ctx)
{
	struct svg_banner *b = ctx;

	fprintf(b->out, "<text class=\"warning\" x=\"%d\" y=\"%d\" "
		"font-size=\"11\" fill=\"#c00000\"%s>", MARGIN + (title ? 0 : 12),
		b->y, title ? " font-weight=\"bold\"" : "");
	map_put_xml(b->out, line);
	fputs("</text>\n", b->out);
	b->y += BANNER_ROW;
}

static void count_line(const char *line, bool title, void *ctx)
{
	(void)line;
	(void)title;
	(void)ctx;
}

int render_map_svg(FILE *out, const struct fv_model *m,
		   const struct map_opts *o)
{
	size_t banner = fv_issues_banner(m, count_line, NULL);
	struct svg_banner sb = { out, TITLE_H + BANNER_ROW - 4 };
	struct map_view v;
	int width = 2 * MARGIN + LABEL_W + COLS * PITCH;
	int height = TITLE_H + (int)banner * BANNER_ROW;
	char when[64];
	int y;

	if (map_view_init(&v, m, o))
		return -1;
	v.cmarks = map_compact_marks(m, o, &v.nr_cmarked);
	if (width < 2 * MARGIN + 4 * 170)
		width = 2 * MARGIN + 4 * 170;
	for (size_t z = 0; z < m->nr_zones; z++)
		if (v.zone_shown[z])
			height += ZONE_H + (int)zone_rows(m, &m->zones[z]) * PITCH +
				  ZONE_GAP;
	height += legend_rows(&v) * LEGEND_ROW + MARGIN +
		  map_compact_svg_legend_height(&v);

	map_fmt_when(when, sizeof(when), o);
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n",
		width, height, width, height);
	fputs("<title>fragview pageblock map: ", out);
	map_put_xml(out, o->title ? o->title : "-");
	fprintf(out, " (%s)</title>\n", when);
	fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n");
	fprintf(out, "<text x=\"%d\" y=\"22\" font-size=\"15\" "
		"font-weight=\"bold\">", MARGIN);
	map_put_xml(out, o->title ? o->title : "-");
	fprintf(out, "</text>\n<text x=\"%d\" y=\"36\" font-size=\"11\" "
		"fill=\"#555\">pageblock map, %s, order %u (%" PRIu64
		" pages per block), %zu blocks shown%s%s</text>\n", MARGIN, when,
		m->pageblock_order, v.pages_per_block, v.nr_shown,
		v.cell ? ", colour: " : "", v.cell ? map_color_name(v.color) : "");

	fv_issues_banner(m, svg_banner_line, &sb);
	y = TITLE_H + (int)banner * BANNER_ROW;
	for (size_t z = 0; z < m->nr_zones; z++)
		if (v.zone_shown[z])
			y = put_zone(out, m, &v, &m->zones[z], y);
	put_legend(out, m, &v, y);
	map_compact_svg_legend(out, m, &v, MARGIN, y + legend_rows(&v) * LEGEND_ROW);
	fputs("</svg>\n", out);
	map_view_free(&v);
	return 0;
}
