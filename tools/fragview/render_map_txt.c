// SPDX-License-Identifier: GPL-2.0
/*
 * render_map_txt.c - the pageblock map as plain text, one letter per
 * block (U M R H C I ?; lowercase when the block was stolen from or
 * flipped), and the character grid the ansi map shares.
 *
 * The output depends only on the model and options, so it can be
 * compared byte for byte in tests and diffed between captures.
 */
#include <ctype.h>
#include <inttypes.h>
#include <string.h>

#include "integrity.h"
#include "render_map_common.h"

#define GROUP 8			/* blocks between the gaps of a row */

static unsigned int hex_digits(uint64_t v)
{
	unsigned int n = 1;

	while (v >>= 4)
		n++;
	return n;
}

static void put_zone_header(FILE *out, const struct fv_model *m,
			    const struct map_view *v, const struct fv_zone *z)
{
	uint64_t last = z->nr ? m->blocks[z->first + z->nr - 1].pfn +
				v->pages_per_block - 1 : z->start_pfn;
	char n[64];

	map_zone_counts(n, sizeof(n), v, z);
	fprintf(out, "node %d zone %s  pfn 0x%" PRIx64 "-0x%" PRIx64
		"  (%s)\n", z->nid, fv_zone_name(z->zone), z->start_pfn, last, n);
}

/* Column col of the row: a group gap before it, then a cell or a hole. */
static void put_pos(FILE *out, struct map_text_style *st,
		    const struct map_view *v, size_t col,
		    const struct fv_block *b, size_t i)
{
	if (col && col % GROUP == 0) {
		st->end_run(out, st);
		fputc(' ', out);
	}
	if (!b) {
		st->end_run(out, st);
		fputc(' ', out);
		return;
	}
	st->cell(out, st, v, map_view_bucket(v, i), map_view_marked(v, b));
}

/*
 * Each block at its pfn (map_grid): holes, and blocks offline at the
 * time drawn, are blanks, or rows left out when nothing is in them.
 */
static void put_zone_rows(FILE *out, const struct fv_model *m,
			  const struct map_view *v, const struct fv_zone *z,
			  struct map_text_style *st,
			  unsigned int label_digits, size_t cols)
{
	struct map_grid g;
	size_t next = 0, row, col;
	bool open = false;

	map_grid_init(&g, m, z, cols);
	for (size_t i = z->first; i < z->first + z->nr; i++) {
		if (v->mt[i] == FV_MT_NONE)
			continue;
		if (map_grid_place(&g, m->blocks[i].pfn, &row, &col)) {
			if (open) {
				st->end_run(out, st);
				fputc('\n', out);
			}
			fprintf(out, "  0x%0*" PRIx64 " ", (int)label_digits,
				map_grid_row_pfn(&g));
			next = 0;
			open = true;
		}
		for (; next < col; next++)
			put_pos(out, st, v, next, NULL, 0);
		put_pos(out, st, v, col, &m->blocks[i], i);
		next = col + 1;
	}
	if (open) {
		st->end_run(out, st);
		fputc('\n', out);
	}
}

/* A view other than type: its source, then every bucket with its blocks. */
static void put_view_legend(FILE *out, const struct map_view *v,
			    struct map_text_style *st)
{
	char src[256];

	map_view_source(src, sizeof(src), v);
	fprintf(out, "legend (blocks shown: %zu): %s\n  %s\n", v->nr_shown,
		map_color_title(v->color), src);
	for (unsigned int k = 0; k < v->nr_buckets; k++) {
		fputs("  ", out);
		st->cell(out, st, v, k, false);
		st->end_run(out, st);
		fprintf(out, " %-40s %8" PRIu64 "\n", v->buckets[k].label,
			v->bucket_count[k]);
	}
}

static void put_legend(FILE *out, const struct map_view *v,
		       struct map_text_style *st)
{
	if (v->cell) {
		put_view_legend(out, v, st);
		return;
	}
	fprintf(out, "legend (blocks shown: %zu)\n", v->nr_shown);
	for (unsigned int mt = 0; mt < FV_MT_NONE; mt++) {
		fputs("  ", out);
		st->cell(out, st, v, mt, false);
		st->end_run(out, st);
		fprintf(out, " %-12s %8" PRIu64 "\n", fv_mt_name(mt),
			v->count[mt]);
	}
	fputs("  ", out);
	st->cell(out, st, v, FV_MT_MOVABLE, true);
	st->end_run(out, st);
	fprintf(out, " stolen from or flipped during the capture: %zu\n",
		v->nr_marked);
}

int map_text_render(FILE *out, const struct fv_model *m,
		    const struct map_opts *o, struct map_text_style *st)
{
	struct map_view v;
	unsigned int label_digits = 8;
	int width = o->width > 0 ? o->width : 80;
	size_t groups, cols;
	char when[64];

	if (map_view_init(&v, m, o))
		return -1;
	if (m->nr_blocks) {
		unsigned int d = hex_digits(m->blocks[m->nr_blocks - 1].pfn);

		if (d > label_digits)
			label_digits = d;
	}
	/* "  0x" + digits + " ", then groups of GROUP cells and a gap */
	groups = (width - (int)label_digits - 5 + 1) / (GROUP + 1);
	if ((int)groups < 1)
		groups = 1;
	cols = groups * GROUP;

	map_fmt_when(when, sizeof(when), o);
	fprintf(out, "fragview map: %s (%s)", o->title ? o->title : "-",
		when);
	if (v.cell)
		fprintf(out, ", colour: %s", map_color_name(v.color));
	fputc('\n', out);
	fprintf(out, "pageblock order %u (%" PRIu64 " pages per block), "
		"%zu of %zu zones, one character per block\n",
		m->pageblock_order, v.pages_per_block, v.nr_zones_shown,
		m->nr_zones);
	fv_issues_banner(m, fv_banner_text, out);
	if (!m->nr_blocks)
		fputs("no pageblocks in the capture (no pageblock_state "
		      "snapshot or flip seen)\n", out);

	for (size_t z = 0; z < m->nr_zones; z++) {
		if (!v.zone_shown[z])
			continue;
		fputc('\n', out);
		put_zone_header(out, m, &v, &m->zones[z]);
		put_zone_rows(out, m, &v, &m->zones[z], st, label_digits, cols);
	}
	fputc('\n', out);
	put_legend(out, &v, st);
	map_view_free(&v);
	return 0;
}

static void txt_cell(FILE *out, struct map_text_style *st,
		     const struct map_view *v, unsigned int bucket, bool marked)
{
	char c = v->buckets[bucket].glyph;

	(void)st;
	fputc(marked ? tolower((unsigned char)c) : c, out);
}

static void txt_end_run(FILE *out, struct map_text_style *st)
{
	(void)out;
	(void)st;
}

int render_map_txt(FILE *out, const struct fv_model *m,
		   const struct map_opts *o)
{
	struct map_text_style plain = {
		.cell = txt_cell,
		.end_run = txt_end_run,
	};

	return map_text_render(out, m, o, &plain);
}
