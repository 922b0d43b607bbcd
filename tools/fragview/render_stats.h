/* SPDX-License-Identifier: GPL-2.0 */
/*
 * render_stats.h - what the parts of the "fragview stats" walker share
 * (render_stats_table.c, render_stats_moves.c, render_stats_zones.c,
 * render_stats_census.c).
 */
#ifndef FRAGVIEW_RENDER_STATS_H
#define FRAGVIEW_RENDER_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "stats.h"
#include "table.h"

/*
 * csv: every number is one row of the same columns, so a spreadsheet or
 * pandas can filter by "table" without parsing several layouts.
 */
#define STATS_CSV_COLUMNS "table,node,zone,cpu,from,to,reason,mode,claimed," \
			  "order,fallback_order,result,metric,value"

struct stats_row {
	const char *table, *zone, *from, *to, *reason, *mode, *metric;
	int node, cpu, claimed, order, fallback;	/* -1: empty */
	bool has_result;
	int result;
	int64_t value;
};

/* csv only: one row (NULL strings: empty cells) */
void stats_csv_row(struct tab *t, const struct stats_row *r);

/*
 * A row with the numeric keys empty unless given: the given designators
 * override the defaults on purpose.
 */
#pragma GCC diagnostic ignored "-Woverride-init"
#define STATS_ROW(t, ...) stats_csv_row(t, &(struct stats_row){ .node = -1, \
	.cpu = -1, .claimed = -1, .order = -1, .fallback = -1, __VA_ARGS__ })

/* txt: " (12.3%)" of part in whole */
void stats_pct(struct tab *t, uint64_t part, uint64_t whole);
/*
 * json: a section on a line of its own, "key":{ its totals (csv and txt
 * give them in their own words), then "rows":[
 */
void stats_section(struct tab *t, const char *key, const char *rows,
		   const char *const *names, const uint64_t *totals, int nr);

/* The per-cpu list drains; the migrations, their success and results. */
void stats_drains(struct tab *t, const struct fv_stats *s);
void stats_migrations(struct tab *t, const struct fv_stats *s);
/* Blocks per type and zone, and the fragmentation indices per order. */
void stats_zones(struct tab *t, const struct fv_stats *s);
/* The latest census per zone; nothing (json: null) without one. */
void stats_census(struct tab *t, const struct fv_stats *s);

#endif /* FRAGVIEW_RENDER_STATS_H */
