/* SPDX-License-Identifier: GPL-2.0 */
/*
 * render_map_common.h - what the map renderers (ansi, txt, svg, html)
 * share: the palette and letters of each migratetype, the zone filter,
 * the "types at the requested time" view, and XML/JSON escaping.
 *
 * Keeping the palette here means every format paints a type the same
 * colour, so a screenshot of the HTML and an SVG in a paper agree.
 */
#ifndef FRAGVIEW_RENDER_MAP_COMMON_H
#define FRAGVIEW_RENDER_MAP_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model.h"
#include "render.h"
#include "render_map_color.h"

struct map_colour {
	uint8_t r, g, b;
	uint8_t ansi256;	/* nearest xterm-256 index */
	bool dark;		/* background dark enough for a white glyph */
};

/* Indexed by enum fv_mt (values >= FV_MT_NR are treated as unknown). */
extern const struct map_colour map_palette[FV_MT_NR];
extern const char map_letters[FV_MT_NR];	/* "UMRHCI?" */

static inline unsigned int map_mt_clamp(unsigned int mt)
{
	return mt < FV_MT_NR ? mt : FV_MT_UNKNOWN;
}

/*
 * The map as one renderer draws it: types at the chosen time, filtered,
 * and what each cell shows in the view map_opts.color asks for: a
 * bucket of v->buckets (map_view_bucket()), the type in the type view.
 */
struct map_view {
	int color;			/* enum map_color */
	struct map_bucket buckets[MAP_MAX_BUCKETS];
	size_t nr_buckets;
	uint64_t bucket_count[MAP_MAX_BUCKETS];	/* shown blocks per bucket */
	struct map_cell *cell;		/* per block; NULL in the type view */
	uint64_t newest_ts, oldest_ts;	/* records the shown cells use */
	uint32_t newest_seq;
	bool newest_census;
	size_t nr_known;		/* shown cells from a record */
	size_t nr_older;		/* ... from another than the newest */
	uint8_t *mt;			/* type of every block (model order) */
	bool *zone_shown;		/* per m->zones entry */
	size_t nr_zones_shown;
	size_t nr_shown;		/* blocks in shown zones */
	uint64_t count[FV_MT_NR];	/* shown blocks per type */
	size_t nr_marked;		/* shown blocks stolen from or flipped */
	uint64_t pages_per_block;
	/* compaction marks at the map's time (render_map_compact.h), if
	 * the renderer draws them; freed by map_view_free() */
	struct fv_cmark *cmarks;
	size_t nr_cmarked;
};

/*
 * Fill v for m and o.  Returns 0, or -1 after one line on stderr when
 * the zone filter matches nothing.
 */
int map_view_init(struct map_view *v, const struct fv_model *m,
		  const struct map_opts *o);
void map_view_free(struct map_view *v);

/* A block is marked when pages were stolen from it or it changed type. */
static inline bool map_block_marked(const struct fv_block *b)
{
	return b->n.steals > 0 || b->n.flips > 0;
}

/* The bucket block i is drawn with (the type in the type view). */
static inline unsigned int map_view_bucket(const struct map_view *v, size_t i)
{
	return v->cell ? v->cell[i].bucket : map_mt_clamp(v->mt[i]);
}

/* Marks (stolen from, flipped) are drawn in the type view only. */
static inline bool map_view_marked(const struct map_view *v,
				   const struct fv_block *b)
{
	return !v->cell && map_block_marked(b);
}

/*
 * Where the cells of a view other than type come from, for legends: "as
 * of snapshot 3 at 12.345678901 s: each block's latest pageblock_state
 * snapshot at or before the time drawn", and how many are older.
 */
void map_view_source(char *buf, size_t len, const struct map_view *v);

/*
 * Every cell at its physical address: in a grid of cols columns, slot s
 * of a zone is the block at the zone's first block pfn + s blocks; row r
 * holds slots r * cols ... r * cols + cols - 1.  A hole (or a block that
 * is offline at the time drawn) is a gap; rows without any block are
 * left out, and each row drawn is labelled with its first slot's pfn, so
 * the map resumes at the right address after a wide hole.
 *
 * Feed a zone's blocks in order (pfn order): map_grid_place() gives the
 * row (counting drawn rows only) and column, and says when a new row
 * starts; map_grid_row_pfn() is the current row's label.
 */
struct map_grid {
	uint64_t base, ppb;
	size_t cols;
	uint64_t key;			/* slot / cols of the current row */
	size_t row;			/* drawn rows so far - 1 */
	bool started;
};
void map_grid_init(struct map_grid *g, const struct fv_model *m,
		   const struct fv_zone *z, size_t cols);
bool map_grid_place(struct map_grid *g, uint64_t pfn, size_t *row,
		    size_t *col);
uint64_t map_grid_row_pfn(const struct map_grid *g);
/* Rows the zone takes in such a grid. */
size_t map_grid_rows(const struct fv_model *m, const struct fv_zone *z,
		     size_t cols);

/*
 * "N blocks" or "N blocks, K off the map" for a zone header: the blocks
 * on the map at the time drawn, and those off it (ABI v2 offline).
 */
void map_zone_counts(char *buf, size_t len, const struct map_view *v,
		     const struct fv_zone *z);

/* "12.345678901" seconds from a ns timestamp. */
void map_fmt_ts(char *buf, size_t len, uint64_t ts);
/* Human heading line: "final state" or "at 12.345678901 s". */
void map_fmt_when(char *buf, size_t len, const struct map_opts *o);

/*
 * Text safe inside XML/HTML elements and double-quoted attributes, valid
 * UTF-8 (text.h: text_put_xml()).
 */
void map_put_xml(FILE *out, const char *s);
/* A JSON string literal, safe inside an HTML <script> element too. */
void map_put_json_str(FILE *out, const char *s);

/*
 * The character grid shared by the txt and ansi maps (render_map_txt.c):
 * a heading, then per shown zone a header line and rows of one glyph per
 * block labelled with the row's first pfn, then a legend.  The style
 * paints a cell; end_run() closes a coloured run before a gap or newline.
 */
struct map_text_style {
	void (*cell)(FILE *out, struct map_text_style *st,
		     const struct map_view *v, unsigned int bucket, bool marked);
	void (*end_run)(FILE *out, struct map_text_style *st);
	bool truecolour;
	int last;			/* style of the open run, -1: none */
};
int map_text_render(FILE *out, const struct fv_model *m,
		    const struct map_opts *o, struct map_text_style *st);

#endif /* FRAGVIEW_RENDER_MAP_COMMON_H */
