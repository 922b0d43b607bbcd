// SPDX-License-Identifier: GPL-2.0
/* cmd_compact.c - "fragview compact": what compaction did, and what it cost. */
#include "capture.h"
#include "fragview.h"
#include "util.h"

static const char about[] =
"Compaction runs from the stock compaction events (mm_compaction_begin to\n"
"mm_compaction_end of one task): zone, order, where the migrate scanner\n"
"(upwards) and the free scanner (downwards) started and stopped, what they\n"
"scanned and isolated, pages migrated and failed, and the status each run\n"
"ended with; outcomes per zone and order (with mm_compaction_suitable\n"
"verdicts and deferrals); migration failures by result\n"
"(mobility:migrate_folio, or migrate_folio_failed); and the high-order\n"
"timeline: every allocation\n"
"of order >= pageblock_order (kmem:mm_page_alloc, failed when its pfn is\n"
"-1) and every run's end, in time order.\n";

static const char format_doc[] =
TABLE_FORMAT_DOC
"(one row per run; with\n"
".BR \\-\\-timeline ,\n"
"one row per timeline entry), or\n"
".B json\n"
"(runs, outcomes, migration failures and the timeline).";

int cmd_compact(int argc, char **argv)
{
	const char *input = NULL, *path;
	struct output_choice oc = { 0 };
	struct compact_opts co = { 0 };
	struct capture_filter filter = { 0 };
	const struct option options[] = {
		opt_input(&input),
		OPT_WINDOW(&filter),
		opt_not_here("cpu", "a compaction run moves between CPUs"),
		OPT_NO_TASK_FILTER,
		OPT_TABLE_FORMAT(&oc, format_doc),
		OPT_SET_TRUE('t', "timeline", &co.timeline,
			     "only the high-order timeline: allocations of "
			     "order >= pageblock_order and compaction run ends",
			     "Print only the high-order timeline: the "
			     "allocations of order >= pageblock_order, whether "
			     "they failed, and the end of every compaction "
			     "run, in time order."),
		OPT_OUTPUT_END(&oc)
	};
	const struct cmd_syntax syntax = CAPTURE_SYNTAX("compact", about, options);
	struct fv_trace_info info;
	const struct renderer *r;
	struct fv_model m;
	struct out out;
	int ret;

	path = parse_capture(&syntax, argc, argv, &input, &filter);
	r = pick_renderer("compact", &oc, RENDER_COMPACT);
	co.title = path;

	fv_model_init(&m);
	if (load_capture(path, &m, NULL, NEED_COMPACTION, &info, &filter)) {
		capture_free(&m);
		return EXIT_UNREADABLE;
	}
	check_window("compact", &filter);
	ret = out_open_paged(&out, oc.path);
	if (!ret)
		ret = out_finish(&out, r->compact(out.f, &m, &co));
	capture_free(&m);
	return ret ? EXIT_NO_OUTPUT : 0;
}
