// SPDX-License-Identifier: GPL-2.0
/*
 * render_map_compact.c - compaction on the maps (render_map_compact.h).
 *
 * The glyphs, the same in the SVG and on the HTML canvas: the pages of a
 * block the migrate scanner covered as a blue band along the cell's top
 * edge, those the free scanner covered as an orange band along its bottom
 * edge (both as wide as the covered part of the block, left = its first
 * page; 3 of 10 pixels high in the SVG), and a block with failed migrations crossed by a red diagonal.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "render_map_compact.h"
#include "util.h"

#define C_MIGRATE "#0a5cd6"
#define C_FREE    "#f08c00"
#define C_FAIL    "#d00000"

struct fv_cmark *map_compact_marks(const struct fv_model *m,
				   const struct map_opts *o, size_t *nr)
{
	const struct fv_compact *c = m->compact;
	struct fv_cmark *k;

	*nr = 0;
	if (!c || (!c->nr_scans && !c->nr_fails) || !m->nr_blocks)
		return NULL;
	k = xmalloc(m->nr_blocks * sizeof(*k));
	*nr = fv_compact_marks(c, m, o->have_at ? o->at_ts : UINT64_MAX, k);
	return k;
}

/* [lo, hi) pages of a block as x and width in a cell pixels wide */
static void band(uint32_t lo, uint32_t hi, uint64_t ppb, int cell,
		 int *x, int *w)
{
	*x = (int)((uint64_t)lo * cell / ppb);
	*w = (int)(((uint64_t)hi * cell + ppb - 1) / ppb) - *x;
	if (*w < 1)
		*w = 1;
}

void map_compact_svg_block(FILE *out, const struct fv_model *m, size_t i,
			   const struct fv_cmark *k, int x, int y, int cell)
{
	uint64_t ppb = 1ULL << m->pageblock_order;
	int bx, bw;

	if (!k->flags)
		return;
	fprintf(out, "<g class=\"compact\" data-block=\"0x%" PRIx64 "\"",
		m->blocks[i].pfn);
	if (k->flags & (FV_CMARK_MIGRATE | FV_CMARK_FREE))
		fprintf(out, " data-scan=\"%s%s%s\"",
			k->flags & FV_CMARK_MIGRATE ? "migrate" : "",
			(k->flags & FV_CMARK_MIGRATE) &&
			(k->flags & FV_CMARK_FREE) ? " " : "",
			k->flags & FV_CMARK_FREE ? "free" : "");
	if (k->flags & FV_CMARK_FAIL)
		fprintf(out, " data-fail=\"%d\"", k->fail_result);
	fputs("><title>", out);
	if (k->flags & FV_CMARK_MIGRATE)
		fprintf(out, "migrate scanner: +0x%x-0x%x ", k->mlo, k->mhi);
	if (k->flags & FV_CMARK_FREE)
		fprintf(out, "free scanner: +0x%x-0x%x ", k->flo, k->fhi);
	if (k->flags & FV_CMARK_FAIL) {
		const char *e = fv_errno_name(k->fail_result);

		fprintf(out, "migration failed: %u pages, last %s (%d)",
			k->nr_fail, e ? e : "?", k->fail_result);
	}
	fputs("</title>", out);
	if (k->flags & FV_CMARK_MIGRATE) {
		band(k->mlo, k->mhi, ppb, cell, &bx, &bw);
		fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"3\" fill=\"%s\"/>",
			x + bx, y, bw, C_MIGRATE);
	}
	if (k->flags & FV_CMARK_FREE) {
		band(k->flo, k->fhi, ppb, cell, &bx, &bw);
		fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"3\" fill=\"%s\"/>",
			x + bx, y + cell - 3, bw, C_FREE);
	}
	if (k->flags & FV_CMARK_FAIL)
		fprintf(out, "<path d=\"M%d %dL%d %d\" stroke=\"%s\" stroke-width=\"1.5\"/>",
			x, y + cell, x + cell, y, C_FAIL);
	fputs("</g>\n", out);
}

int map_compact_svg_legend_height(const struct map_view *v)
{
	return v->nr_cmarked ? 18 : 0;
}

int map_compact_svg_legend(FILE *out, const struct fv_model *m,
			   const struct map_view *v, int x, int y)
{
	size_t n[3] = { 0 };
	static const char *const what[3] = {
		"migrate scanner", "free scanner", "migration failed",
	};

	if (!v->nr_cmarked)
		return 0;
	for (size_t z = 0; z < m->nr_zones; z++) {
		const struct fv_zone *zone = &m->zones[z];

		for (size_t i = zone->first; v->zone_shown[z] &&
		     i < zone->first + zone->nr; i++) {
			if (v->mt[i] == FV_MT_NONE)
				continue;
			n[0] += !!(v->cmarks[i].flags & FV_CMARK_MIGRATE);
			n[1] += !!(v->cmarks[i].flags & FV_CMARK_FREE);
			n[2] += !!(v->cmarks[i].flags & FV_CMARK_FAIL);
		}
	}
	fputs("<g font-size=\"11\" class=\"compact-legend\">\n", out);
	for (int k = 0; k < 3; k++) {
		int lx = x + k * 170;

		fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"#dddddd\"/>",
			lx, y);
		if (k == 0)
			fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"3\" fill=\"%s\"/>",
				lx, y, C_MIGRATE);
		else if (k == 1)
			fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"3\" fill=\"%s\"/>",
				lx, y + 7, C_FREE);
		else
			fprintf(out, "<path d=\"M%d %dL%d %d\" stroke=\"%s\" stroke-width=\"1.5\"/>",
				lx, y + 10, lx + 10, y, C_FAIL);
		fprintf(out, "<text x=\"%d\" y=\"%d\">%s: %zu</text>\n", lx + 16,
			y + 9, what[k], n[k]);
	}
	fputs("</g>\n", out);
	return map_compact_svg_legend_height(v);
}

/* ---- HTML: the data html/compact.js draws ---- */

#define PUT_COLUMN(out, key, n, cond, fmt, expr) do {			\
	bool _any = false;						\
	fprintf(out, ",\"%s\":[", key);					\
	for (size_t _i = 0; _i < (n); _i++) {				\
		if (!(cond))						\
			continue;					\
		fprintf(out, _any ? "," fmt : fmt, expr);		\
		_any = true;						\
	}								\
	fputc(']', out);						\
} while (0)

/* one scanner pass per shown block it covers: (pass, piece) pairs */
struct html_piece {
	uint64_t ts;
	int32_t block;
	uint32_t lo, hi;
	bool free;
};

static struct html_piece *scan_pieces(const struct fv_model *m,
				      const int32_t *newidx, size_t *nr)
{
	const struct fv_compact *c = m->compact;
	struct fv_cpiece pc[FV_CPIECES];
	struct html_piece *p = NULL;
	size_t n = 0, cap = 0;

	for (size_t s = 0; s < c->nr_scans; s++) {
		size_t np = fv_compact_scan_blocks(m, &c->scans[s], pc);

		for (size_t j = 0; j < np; j++) {
			if (newidx[pc[j].block] < 0)
				continue;
			if (n == cap) {
				cap = cap ? 2 * cap : 256;
				p = xrealloc(p, cap * sizeof(*p));
			}
			p[n++] = (struct html_piece){ c->scans[s].ts,
				newidx[pc[j].block], pc[j].lo, pc[j].hi,
				c->scans[s].free };
		}
	}
	*nr = n;
	return p;
}

static void put_runs(FILE *out, const struct fv_compact *c, uint64_t t0)
{
	fputs(",\"runs\":[", out);
	for (size_t i = 0; i < c->nr_runs; i++) {
		const struct fv_crun *r = &c->runs[i];

		/* [begin, end|-1, nid, zone, order|null, status|-1, migrated,
		 *  failed, pid, sync] */
		fprintf(out, "%s[%" PRIu64 ",%" PRId64 ",%d,%u,", i ? "," : "",
			r->ts_begin - t0,
			r->have_end ? (int64_t)(r->ts_end - t0) : -1, r->nid,
			r->zone);
		if (r->order == FV_ORDER_UNKNOWN)
			fputs("null", out);
		else
			fprintf(out, "%d", r->order);
		fprintf(out, ",%d,%" PRIu64 ",%" PRIu64 ",%d,%d]",
			r->have_end ? r->status : -1, r->migrated, r->failed,
			r->pid, r->sync);
	}
	fputc(']', out);
}

void map_compact_html(FILE *out, const struct fv_model *m,
		      const int32_t *newidx, uint64_t t0)
{
	const struct fv_compact *c = m->compact;
	struct html_piece *p;
	size_t n;

	if (!c || (!fv_compact_any(c) && !c->have_alloc_event)) {
		fputs(",\n\"compact\":null", out);
		return;
	}
	fprintf(out, ",\n\"compact\":{\"allocsRecorded\":%s,\"status\":[",
		c->have_alloc_event ? "true" : "false");
	for (int s = 0; s < FV_CS_NR; s++)
		fprintf(out, "%s\"%s\"", s ? "," : "", fv_cstatus_name(s));
	fputc(']', out);
	/* scanner passes by block shown, in time order */
	p = scan_pieces(m, newidx, &n);
	PUT_COLUMN(out, "scanT", n, true, "%" PRIu64, p[_i].ts - t0);
	PUT_COLUMN(out, "scanB", n, true, "%d", p[_i].block);
	PUT_COLUMN(out, "scanLo", n, true, "%u", p[_i].lo);
	PUT_COLUMN(out, "scanHi", n, true, "%u", p[_i].hi);
	PUT_COLUMN(out, "scanF", n, true, "%d", p[_i].free);
	free(p);
	/* failed migrations of shown blocks */
	{
		long *blk = xmalloc((c->nr_fails + 1) * sizeof(*blk));

		for (size_t f = 0; f < c->nr_fails; f++) {
			long i = fv_model_find_block(m, c->fails[f].pfn);

			blk[f] = i >= 0 ? newidx[i] : -1;
		}
		PUT_COLUMN(out, "failT", c->nr_fails, blk[_i] >= 0, "%" PRIu64,
			   c->fails[_i].ts - t0);
		PUT_COLUMN(out, "failB", c->nr_fails, blk[_i] >= 0, "%ld", blk[_i]);
		PUT_COLUMN(out, "failR", c->nr_fails, blk[_i] >= 0, "%d",
			   c->fails[_i].result);
		free(blk);
	}
	put_runs(out, c, t0);
	PUT_COLUMN(out, "allocT", c->nr_allocs, true, "%" PRIu64,
		   c->allocs[_i].ts - t0);
	PUT_COLUMN(out, "allocO", c->nr_allocs, true, "%u", c->allocs[_i].order);
	PUT_COLUMN(out, "allocOk", c->nr_allocs, true, "%d", c->allocs[_i].ok);
	fputc('}', out);
}
