// SPDX-License-Identifier: GPL-2.0
/*
 * render_map_html_explain.c - why each high-order allocation failed, for
 * the HTML map's timeline (html/explain.js):
 *
 *   "explain":[{"a":alloc,"t":ns since t0,"pid":P,"cause":"...",
 *               "verdict":"...","blocks":[emitted index,...]},...]
 *
 * one entry per failed allocation of order >= pageblock_order, as
 * "fragview explain" gives it (explain.c); blocks: the blocks nearest to
 * free it lists (FV_EXPLAIN_TOP) that the page shows.  null when no
 * allocation failed.
 */
#include <inttypes.h>

#include "compaction.h"
#include "explain.h"
#include "render.h"
#include "render_map_common.h"

void html_put_explain(FILE *out, const struct fv_model *m,
		      const struct fv_blame *b, const int32_t *newidx, uint64_t t0)
{
	const struct fv_compact *c = m->compact;
	bool any = false;

	for (size_t i = 0; c && i < c->nr_allocs; i++) {
		const struct fv_halloc *a = &c->allocs[i];
		struct fv_explanation e;
		bool first = true;

		if (a->ok)
			continue;
		fv_explain(m, b, i, 0, m->pageblock_order, FV_EXPLAIN_TOP, &e);
		fprintf(out, "%s{\"a\":%zu,\"t\":%" PRIu64 ",\"pid\":%d,\"cause\":\"%s\",\"verdict\":",
			any ? ",\n" : ",\n\"explain\":[", i, a->ts - t0, a->pid,
			fv_cause_name(e.cause));
		map_put_json_str(out, e.verdict);
		fputs(",\"blocks\":[", out);
		for (size_t k = 0; k < e.nr_near; k++) {
			int32_t ni = newidx[e.near[k].block];

			if (ni < 0)
				continue;
			fprintf(out, first ? "%d" : ",%d", ni);
			first = false;
		}
		fputs("]}", out);
		fv_explain_free(&e);
		any = true;
	}
	fputs(any ? "]" : ",\n\"explain\":null", out);
}
