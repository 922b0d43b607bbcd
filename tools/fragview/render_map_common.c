// SPDX-License-Identifier: GPL-2.0
/* render_map_common.c - palette, zone filter and escaping for the maps. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "render_map_common.h"
#include "text.h"
#include "util.h"

/*
 * Tableau-10 hues: distinct under the common colour-vision deficiencies
 * and still tellable apart when printed in grey (plus the letters/glyphs).
 */
const struct map_colour map_palette[FV_MT_NR] = {
	[FV_MT_UNMOVABLE]   = { 0xe1, 0x57, 0x59, 167, true },
	[FV_MT_MOVABLE]     = { 0x59, 0xa1, 0x4f,  71, false },
	[FV_MT_RECLAIMABLE] = { 0xed, 0xc9, 0x48, 221, false },
	[FV_MT_HIGHATOMIC]  = { 0xb0, 0x7a, 0xa1, 139, true },
	[FV_MT_CMA]         = { 0x4e, 0x79, 0xa7,  67, true },
	[FV_MT_ISOLATE]     = { 0x9c, 0x75, 0x5f, 137, true },
	[FV_MT_UNKNOWN]     = { 0xd3, 0xd3, 0xd3, 252, false },
	[FV_MT_NONE]        = { 0xff, 0xff, 0xff, 231, false },	/* a gap */
};

const char map_letters[FV_MT_NR] = {
	[FV_MT_UNMOVABLE] = 'U', [FV_MT_MOVABLE] = 'M',
	[FV_MT_RECLAIMABLE] = 'R', [FV_MT_HIGHATOMIC] = 'H',
	[FV_MT_CMA] = 'C', [FV_MT_ISOLATE] = 'I', [FV_MT_UNKNOWN] = '?',
	[FV_MT_NONE] = ' ',
};

static bool zone_matches(const struct fv_zone *z, const struct map_opts *o)
{
	if (o->zone_nid >= 0 && z->nid != o->zone_nid)
		return false;
	if (o->zone_type >= 0 && z->zone != o->zone_type)
		return false;
	return true;
}

/* The type view's buckets: the palette, letters and names of the types. */
static void type_buckets(struct map_view *v)
{
	for (unsigned int t = 0; t < FV_MT_NR; t++) {
		struct map_bucket *b = &v->buckets[t];

		b->glyph = map_letters[t];
		b->r = map_palette[t].r;
		b->g = map_palette[t].g;
		b->b = map_palette[t].b;
		b->ansi256 = map_palette[t].ansi256;
		b->dark = map_palette[t].dark;
		snprintf(b->label, sizeof(b->label), "%s", fv_mt_name(t));
	}
	v->nr_buckets = FV_MT_NR;
}

/* The cells of a view other than type, at the time drawn. */
static void view_cells(struct map_view *v, const struct fv_model *m,
		       const struct map_opts *o)
{
	struct fv_block_at *at = xcalloc(m->nr_blocks ? m->nr_blocks : 1,
					 sizeof(*at));

	v->nr_buckets = map_color_buckets(o->color, m->pageblock_order,
					  v->buckets);
	v->cell = xcalloc(m->nr_blocks ? m->nr_blocks : 1, sizeof(*v->cell));
	fv_model_blocks_at(m, o->have_at ? o->at_ts : UINT64_MAX, at);
	for (size_t i = 0; i < m->nr_blocks; i++)
		map_color_cell(m, o->color, &at[i], &v->cell[i]);
	free(at);
}

static void count_cell(struct map_view *v, const struct map_cell *c)
{
	v->bucket_count[c->bucket]++;
	if (!c->known || v->color == MAP_COLOR_STEALS)
		return;
	if (!v->nr_known++ || c->ts < v->oldest_ts)
		v->oldest_ts = c->ts;
	if (v->nr_known == 1 || c->ts >= v->newest_ts) {
		v->newest_ts = c->ts;
		v->newest_seq = c->seq;
		v->newest_census = c->census;
	}
}

/* Shown cells from another record than the newest (an older snapshot). */
static size_t older_cells(const struct map_view *v, const struct fv_model *m)
{
	size_t n = 0;

	for (size_t z = 0; z < m->nr_zones; z++) {
		const struct fv_zone *zone = &m->zones[z];

		for (size_t i = zone->first; v->zone_shown[z] &&
		     i < zone->first + zone->nr; i++) {
			const struct map_cell *c = &v->cell[i];

			n += v->mt[i] != FV_MT_NONE && c->known &&
			     (c->seq != v->newest_seq ||
			      c->census != v->newest_census);
		}
	}
	return n;
}

void map_view_source(char *buf, size_t len, const struct map_view *v)
{
	const char *what = v->color == MAP_COLOR_POLLUTION ? "census" :
			   v->color == MAP_COLOR_ORDER ? "pageblock_state snapshot" :
			   "pageblock_state snapshot or census";
	char newest[32], oldest[32];
	int n;

	if (v->color == MAP_COLOR_STEALS) {
		snprintf(buf, len, "mobility:pageblock_steal events up to the time drawn");
		return;
	}
	if (!v->nr_known) {
		snprintf(buf, len, "no %s at or before the time drawn", what);
		return;
	}
	map_fmt_ts(newest, sizeof(newest), v->newest_ts);
	map_fmt_ts(oldest, sizeof(oldest), v->oldest_ts);
	n = snprintf(buf, len, "as of %s %u at %s s: each block's latest %s at or before the time drawn",
		     v->newest_census ? "census" : "snapshot", v->newest_seq,
		     newest, what);
	if (v->nr_older && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - n, " (%zu from an older one, the oldest at %s s)",
			 v->nr_older, oldest);
}

int map_view_init(struct map_view *v, const struct fv_model *m,
		  const struct map_opts *o)
{
	memset(v, 0, sizeof(*v));
	v->color = o->color;
	if (o->color == MAP_COLOR_TYPE)
		type_buckets(v);
	else
		view_cells(v, m, o);
	v->pages_per_block = 1ULL << m->pageblock_order;
	v->mt = xmalloc(m->nr_blocks);
	v->zone_shown = xcalloc(m->nr_zones, sizeof(bool));
	if (o->have_at) {
		fv_model_types_at(m, o->at_ts, v->mt);
	} else {
		for (size_t i = 0; i < m->nr_blocks; i++)
			v->mt[i] = m->blocks[i].mt;
	}
	for (size_t z = 0; z < m->nr_zones; z++) {
		const struct fv_zone *zone = &m->zones[z];

		if (!zone_matches(zone, o))
			continue;
		v->zone_shown[z] = true;
		v->nr_zones_shown++;
		for (size_t i = zone->first; i < zone->first + zone->nr; i++) {
			if (v->mt[i] == FV_MT_NONE)
				continue;	/* offline: not on the map now */
			v->nr_shown++;
			v->count[map_mt_clamp(v->mt[i])]++;
			if (v->cell)
				count_cell(v, &v->cell[i]);
			if (map_block_marked(&m->blocks[i]))
				v->nr_marked++;
		}
	}
	if (v->cell)
		v->nr_older = older_cells(v, m);
	if (m->nr_zones && !v->nr_zones_shown &&
	    (o->zone_nid >= 0 || o->zone_type >= 0)) {
		warn("no zone in the capture matches the --zone filter");
		map_view_free(v);
		return -1;
	}
	return 0;
}

void map_view_free(struct map_view *v)
{
	free(v->mt);
	free(v->zone_shown);
	free(v->cell);
	free(v->cmarks);
	v->mt = NULL;
	v->zone_shown = NULL;
	v->cell = NULL;
	v->cmarks = NULL;
}

void map_grid_init(struct map_grid *g, const struct fv_model *m,
		   const struct fv_zone *z, size_t cols)
{
	memset(g, 0, sizeof(*g));
	g->base = z->nr ? m->blocks[z->first].pfn : z->start_pfn;
	g->ppb = 1ULL << m->pageblock_order;
	g->cols = cols ? cols : 1;
}

bool map_grid_place(struct map_grid *g, uint64_t pfn, size_t *row,
		    size_t *col)
{
	uint64_t slot = (pfn - g->base) / g->ppb;
	bool fresh = !g->started || slot / g->cols != g->key;

	if (fresh) {
		if (g->started)
			g->row++;
		g->started = true;
		g->key = slot / g->cols;
	}
	*row = g->row;
	*col = slot % g->cols;
	return fresh;
}

uint64_t map_grid_row_pfn(const struct map_grid *g)
{
	return g->base + g->key * g->cols * g->ppb;
}

size_t map_grid_rows(const struct fv_model *m, const struct fv_zone *z,
		     size_t cols)
{
	struct map_grid g;
	size_t row = 0, col;

	map_grid_init(&g, m, z, cols);
	for (size_t i = z->first; i < z->first + z->nr; i++)
		map_grid_place(&g, m->blocks[i].pfn, &row, &col);
	return z->nr ? row + 1 : 0;
}

void map_zone_counts(char *buf, size_t len, const struct map_view *v,
		     const struct fv_zone *z)
{
	size_t off = 0;

	for (size_t i = z->first; i < z->first + z->nr; i++)
		off += v->mt[i] == FV_MT_NONE;
	if (off)
		snprintf(buf, len, "%zu blocks, %zu off the map", z->nr - off, off);
	else
		snprintf(buf, len, "%zu blocks", z->nr);
}

void map_fmt_ts(char *buf, size_t len, uint64_t ts)
{
	snprintf(buf, len, "%" PRIu64 ".%09" PRIu64,
		 ts / 1000000000, ts % 1000000000);
}

void map_fmt_when(char *buf, size_t len, const struct map_opts *o)
{
	char ts[32];

	if (!o->have_at) {
		snprintf(buf, len, "final state");
		return;
	}
	map_fmt_ts(ts, sizeof(ts), o->at_ts);
	snprintf(buf, len, "at %s s", ts);
}

void map_put_xml(FILE *out, const char *s)
{
	text_put_xml(out, s);
}

void map_put_json_str(FILE *out, const char *s)
{
	text_put_json(out, s, TEXT_JSON_SCRIPT);
}
