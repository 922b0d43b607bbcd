/* SPDX-License-Identifier: GPL-2.0 */
/*
 * render_map_color.h - what the maps colour blocks by (map --color).
 *
 *   type       the migratetype (the map as it always was; the default)
 *   free       free pages in the block, in eighths of a block
 *   order      the largest free order in the block
 *   pollution  foreign pages (census.h): pages whose mobility is not
 *              the block type's
 *   steals     fallback steals from the block so far (a heat map)
 *
 * free, order and pollution are only known when a snapshot or census
 * record is taken: a block shows its latest record at or before the time
 * drawn (free: pageblock_state or census, whichever is later; order:
 * pageblock_state; pollution: census).  Each view other than type is a
 * list of buckets, each with one glyph (the txt map), one colour (ansi,
 * svg, html) and a label (the legends); every format draws a block with
 * the same bucket.
 */
#ifndef FRAGVIEW_RENDER_MAP_COLOR_H
#define FRAGVIEW_RENDER_MAP_COLOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

enum map_color {
	MAP_COLOR_TYPE, MAP_COLOR_FREE, MAP_COLOR_ORDER, MAP_COLOR_POLLUTION,
	MAP_COLOR_STEALS, MAP_COLOR_NR,
};

const char *map_color_name(int color);		/* "type", "free", ... */
int map_color_parse(const char *name);		/* -1: none of them */
/* "free pages per block" etc.: what a view shows, for headings */
const char *map_color_title(int color);

/* the order view: unknown, no free page, orders 0 to FV_ORDER_MAX */
#define MAP_MAX_BUCKETS (FV_ORDER_MAX + 3)
struct map_bucket {
	char glyph;
	uint8_t r, g, b;
	uint8_t ansi256;		/* nearest xterm-256 index */
	bool dark;			/* white glyphs on it */
	char label[48];
};

/* The buckets of a view other than type; returns how many. */
size_t map_color_buckets(int color, unsigned int pageblock_order,
			 struct map_bucket *b);

/*
 * A block's cell in a view other than type, from what the model says at
 * the time drawn (fv_model_blocks_at()): the bucket, the value it shows
 * (free pages, order with -1 for no free page, foreign pages, steals),
 * and the record it comes from.
 */
struct map_cell {
	unsigned int bucket;
	int64_t value;
	uint64_t ts;
	uint32_t seq;
	bool known;			/* a record (steals: always) */
	bool census;			/* the record is a census record */
	const struct fv_census_rec *rec;	/* pollution: the record */
};
void map_color_cell(const struct fv_model *m, int color,
		    const struct fv_block_at *at, struct map_cell *c);

/*
 * "lru 497, kernel 3, free 12": the non-zero page counts of a census
 * record, what the block holds, into buf.
 */
void map_census_holds(char *buf, size_t len, const struct fv_census_rec *r);

/* The bucket of a value of a view (value < 0 or !known: no data). */
unsigned int map_color_bucket(int color, unsigned int pageblock_order,
			      bool known, bool classed, int64_t value);


#endif /* FRAGVIEW_RENDER_MAP_COLOR_H */
