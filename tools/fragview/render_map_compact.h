/* SPDX-License-Identifier: GPL-2.0 */
/*
 * render_map_compact.h - compaction on the maps: the scanners' ranges and
 * the failed migrations over the blocks (SVG), the same data and the
 * high-order timeline for the HTML page (html/compact.js).
 */
#ifndef FRAGVIEW_RENDER_MAP_COMPACT_H
#define FRAGVIEW_RENDER_MAP_COMPACT_H

#include <stdint.h>
#include <stdio.h>

#include "compaction.h"
#include "render_map_common.h"

/*
 * Marks of every block at the map's time (--at, else the end), or NULL
 * when the capture has no scanner pass or failed migration; *nr: the
 * blocks marked.  Free with free().
 */
struct fv_cmark *map_compact_marks(const struct fv_model *m,
				   const struct map_opts *o, size_t *nr);

/* SVG: one block's marks over its cell at (x, y), cell pixels wide. */
void map_compact_svg_block(FILE *out, const struct fv_model *m, size_t i,
			   const struct fv_cmark *k, int x, int y, int cell);

/* SVG: the legend line of the marks; returns its height (0: none). */
int map_compact_svg_legend(FILE *out, const struct fv_model *m,
			   const struct map_view *v, int x, int y);
int map_compact_svg_legend_height(const struct map_view *v);

/*
 * HTML: ,"compact":{...} (or null) for the page's JSON: scanner passes
 * and failed migrations of the blocks shown (newidx: model block ->
 * emitted index, -1: not shown), runs and high-order allocations, times
 * in ns since t0.
 */
void map_compact_html(FILE *out, const struct fv_model *m,
		      const int32_t *newidx, uint64_t t0);

#endif /* FRAGVIEW_RENDER_MAP_COMPACT_H */
