/* SPDX-License-Identifier: GPL-2.0 */
/* render_map_html_views.h - the colour views as HTML page data. */
#ifndef FRAGVIEW_RENDER_MAP_HTML_VIEWS_H
#define FRAGVIEW_RENDER_MAP_HTML_VIEWS_H

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

#endif /* FRAGVIEW_RENDER_MAP_HTML_VIEWS_H */
