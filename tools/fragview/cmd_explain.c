// SPDX-License-Identifier: GPL-2.0
/* cmd_explain.c - "fragview explain": why a high-order allocation failed. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

#include "blame.h"
#include "capture.h"
#include "compaction.h"
#include "explain.h"
#include "fragview.h"
#include "opts.h"
#include "util.h"

static const char about[] =
"Why did a high-order allocation fail while memory was free?  For each\n"
"failed allocation of order >= ORDER (kmem:mm_page_alloc with no page),\n"
"or for a hypothetical one at TIME: the zone then (free pages, free\n"
"blocks, the order-ORDER pages the free memory would make unfragmented,\n"
"each figure with its age), the blocks nearest to free and what pins\n"
"them (census kinds, failed migrations, who polluted them), what\n"
"compaction did for the request, and a verdict: one cause of a\n"
"documented set, in one line with the numbers.\n";

static const char format_doc[] =
".B txt\n"
"(the default) or\n"
".B json\n"
"(Documentation/fragview-explain.schema.json).";

/* --from, --to: a window would cut the history an explanation reads */
static const char no_window[] =
	"each failure is explained by the capture up to it; --alloc or --at picks one";

/* One line and exit status 3 when the capture cannot answer. */
static int check_request(const char *path, const struct fv_model *m,
			 const struct opt_time *at, uint64_t at_ts,
			 unsigned long alloc, unsigned long order)
{
	const struct fv_compact *c = m->compact;

	if (!m->nr_states && !m->nr_census) {
		warn("%s: no pageblock_state snapshot or census in this capture: nothing says what was free",
		     path);
		return -1;
	}
	if (at->set) {
		if (at_ts < m->first_ts || at_ts > m->last_ts)
			warn("%s: --at %s is outside the capture (%llu.%06llu .. %llu.%06llu)",
			     path, at->text,
			     (unsigned long long)(m->first_ts / 1000000000),
			     (unsigned long long)(m->first_ts % 1000000000 / 1000),
			     (unsigned long long)(m->last_ts / 1000000000),
			     (unsigned long long)(m->last_ts % 1000000000 / 1000));
		return 0;
	}
	if (!c->have_alloc_event) {
		warn("%s: no kmem:mm_page_alloc in this capture: no allocation to explain (--at TIME explains a hypothetical one)",
		     path);
		return -1;
	}
	if (alloc != ULONG_MAX && (alloc >= c->nr_allocs || c->allocs[alloc].ok ||
				   c->allocs[alloc].order < order)) {
		warn("%s: --alloc %lu is not a failed allocation of order >= %lu (the capture has %zu high-order allocations; fragview compact --timeline lists them)",
		     path, alloc, order, c->nr_allocs);
		return -1;
	}
	return 0;
}

int cmd_explain(int argc, char **argv)
{
	const char *input = NULL, *path;
	struct output_choice oc = { 0 };
	struct capture_filter filter = { 0 };
	struct opt_time at = { 0 };
	unsigned long alloc = ULONG_MAX, order = ULONG_MAX, top = FV_EXPLAIN_TOP;
	const struct option options[] = {
		opt_input(&input),
		OPT_ULONG('a', "alloc", &alloc, "N", 0, INT32_MAX, "allocation",
			  "only allocation N (its number in the capture's "
			  "high-order allocations, from 0)",
			  "Explain only allocation\n.IR N :\n"
			  "its number among the capture's allocations of order >= "
			  "pageblock_order, from 0 (as explain prints it, and the "
			  "order of\n.BR \"fragview compact \\-\\-timeline\" )."),
		{ .type = OPTION_TIME, .short_name = 't', .long_name = "at",
		  .argh = "TIME", .value = &at, .bad = "time",
		  .help = "a hypothetical allocation at TIME (trace seconds, or "
			  "+SECONDS from the first event)",
		  .doc = "Explain a hypothetical allocation of order\n.I ORDER\n"
			 "at\n.IR TIME :\n"
			 "trace time in seconds as\n.B trace-cmd report\n"
			 "prints it, or\n.BI + SECONDS\nafter the first event." },
		OPT_ULONG('O', "order", &order, "N", 0, 20, "order",
			  "allocations of order >= N (default: pageblock_order)",
			  "Explain the failed allocations of order >=\n.I N\n"
			  "(default: the capture's pageblock_order; the capture "
			  "keeps no smaller ones); with\n.BR \\-\\-at ,\n"
			  "the order of the hypothetical allocation."),
		OPT_ULONG('n', "top", &top, "K", 0, 1000000, "count",
			  "list the K blocks nearest to free (default 8)",
			  "List the\n.I K\nblocks nearest to free (default 8); "
			  "the verdict weighs those."),
		opt_not_here("from", no_window),
		opt_not_here("to", no_window),
		opt_not_here("cpu", "a zone's free space is that of every CPU"),
		OPT_NO_TASK_FILTER,
		OPT_STRING('f', "format", &oc.format, "FORMAT",
			   "txt (default) or json", format_doc),
		OPT_OUTPUT_END(&oc)
	};
	const struct cmd_syntax syntax = CAPTURE_SYNTAX("explain", about, options);
	struct explain_view v = { 0 };
	struct fv_explanation *e;
	struct fv_trace_info info;
	const struct renderer *r;
	struct fv_blame b;
	struct fv_model m;
	struct out out;
	uint64_t at_ts = 0;
	int64_t *idx;
	int ret;

	path = parse_input(&syntax, argc, argv, &input, "trace.dat");
	r = pick_renderer("explain", &oc, RENDER_EXPLAIN);
	if (at.set && alloc != ULONG_MAX)
		usage_error("explain", "explain: --at and --alloc exclude each other");

	fv_model_init(&m);
	m.keep_space_times = true;	/* the free space at any time */
	fv_blame_init(&b);
	ret = load_capture_blame(path, &m, NULL, &b, NEED_EXPLAIN, &info, &filter);
	if (!ret) {
		at_ts = opt_time_at(&at, filter.first_ts);
		ret = check_request(path, &m, &at, at_ts, alloc,
				    order == ULONG_MAX ? m.pageblock_order : order);
	}
	if (ret) {
		fv_blame_free(&b);
		capture_free(&m);
		return EXIT_UNREADABLE;
	}
	if (order == ULONG_MAX)
		order = m.pageblock_order;
	idx = xmalloc((m.compact->nr_allocs + 1) * sizeof(*idx));
	if (at.set) {
		idx[0] = -1;
		v.nr = 1;
	} else {
		v.nr = fv_explain_pick(m.compact, alloc, order, idx, &v.nr_failed);
	}
	e = xcalloc(v.nr + 1, sizeof(*e));
	for (size_t i = 0; i < v.nr; i++)
		fv_explain(&m, b.nr_recs ? &b : NULL, idx[i], at_ts, order, top,
			   &e[i]);
	v.m = &m;
	v.b = b.nr_recs || b.nr_comms ? &b : NULL;
	v.e = e;
	v.order = order;
	v.at = at.set;
	v.title = path;
	ret = out_open_paged(&out, oc.path);
	if (!ret)
		ret = out_finish(&out, r->explain(out.f, &v));
	for (size_t i = 0; i < v.nr; i++)
		fv_explain_free(&e[i]);
	free(e);
	free(idx);
	fv_blame_free(&b);
	capture_free(&m);
	return ret ? EXIT_NO_OUTPUT : 0;
}
