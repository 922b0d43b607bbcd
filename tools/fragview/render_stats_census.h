/* SPDX-License-Identifier: GPL-2.0 */
/* render_stats_census.h - the census part of fragview stats. */
#ifndef FRAGVIEW_RENDER_STATS_CENSUS_H
#define FRAGVIEW_RENDER_STATS_CENSUS_H

#include <stdint.h>
#include <stdio.h>

#include "stats.h"

/* A section after the zones; nothing without a census. */
void census_stats_txt(FILE *out, const struct fv_stats *s);
/* Rows through the CSV renderer's row writer (NULL columns: empty). */
void census_stats_csv(FILE *out, const struct fv_stats *s,
		      void (*row)(FILE *out, const char *table, int node,
				  const char *zone, const char *from,
				  const char *to, const char *metric,
				  int64_t value));
/* ,"census":{...} or ,"census":null */
void census_stats_json(FILE *out, const struct fv_stats *s);

#endif /* FRAGVIEW_RENDER_STATS_CENSUS_H */
