/* SPDX-License-Identifier: GPL-2.0 */
/* render_map_html_views.h - the colour views as HTML page data. */
#ifndef FRAGVIEW_RENDER_MAP_HTML_VIEWS_H
#define FRAGVIEW_RENDER_MAP_HTML_VIEWS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model.h"
#include "render_map_color.h"

/*
 * Writes ,"views":{...}: every view other than type (html/README.md),
 * initial (enum map_color) the one the page opens with.  newidx maps a
 * model block to its index in the page, -1: not shown; t0: the page's
 * time origin.
 */
void html_put_views(FILE *out, const struct fv_model *m,
		    const int32_t *newidx, uint64_t t0, int initial);

/*
 * The pageblock_state and census records of shown blocks in time order
 * (render_map_html_sources.c): what the free, order and pollution views
 * are made of.
 */
struct html_rec {
	const struct fv_state_rec *state;	/* one of the two */
	const struct fv_census_rec *census;
	uint64_t ts;
	int32_t block;				/* index in the page */
	uint32_t src;				/* seq * 2 + 1 for a census */
};

struct html_rec_walk {
	const struct fv_model *m;
	const int32_t *newidx;
	size_t s, k;
	bool states, census;
};

void html_rec_walk_init(struct html_rec_walk *w, const struct fv_model *m,
			const int32_t *newidx, bool states, bool census);
bool html_rec_next(struct html_rec_walk *w, struct html_rec *r);

/* Writes ,"sources":{...}: the record of every cell, for every view. */
void html_put_sources(FILE *out, const struct fv_model *m,
		      const int32_t *newidx, uint64_t t0);

#endif /* FRAGVIEW_RENDER_MAP_HTML_VIEWS_H */
