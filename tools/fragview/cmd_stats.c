// SPDX-License-Identifier: GPL-2.0
/* cmd_stats.c - "fragview stats": what moved, where, and why. */
#include <stdlib.h>

#include "blame.h"
#include "capture.h"
#include "fragview.h"
#include "stats.h"
#include "util.h"

static const char about[] =
"Steals by (allocation type -> block type, claimed, order, fallback order),\n"
"claims declined with nothing taken (pageblock_steal taken=0, 6.12: no\n"
"steals) by (allocation type -> block type), pageblock flips by (old ->\n"
"new, reason), per-cpu list drains by (cpu, reason, pages per type),\n"
"migrations by (reason, mode) with success rates and results, blocks per\n"
"type and zone at the start and the end, and the unusable free space and\n"
"fragmentation indices of mm/vmstat.c per order (estimated from the\n"
"snapshots' per-block free pages and largest order), and the top polluters\n"
"(tasks and call sites, as fragview blame ranks them) when the capture has\n"
"the steals' tasks.\n";

/* --format in the man page */
static const char format_doc[] =
TABLE_FORMAT_DOC
"(one tidy table: every number is a row with the columns\n"
"table, node, zone, cpu, from, to, reason, mode, claimed, order,\n"
"fallback_order, result, metric, value), or\n"
".BR json .\n"
"Indices are in thousandths, as the kernel prints them in\n"
".IR /sys/kernel/debug/extfrag/ ;\n"
"a fragmentation index of \\-1000 means a request of that order would\n"
"succeed.";

int cmd_stats(int argc, char **argv)
{
	const char *input = NULL, *path;
	struct output_choice oc = { 0 };
	struct capture_filter filter = { 0 };
	const struct option options[] = {
		opt_input(&input),
		OPT_WINDOW(&filter),
		opt_cpu(&filter.cpus),
		OPT_NO_TASK_FILTER,
		OPT_TABLE_FORMAT(&oc, format_doc),
		OPT_OUTPUT_END(&oc)
	};
	const struct cmd_syntax syntax = CAPTURE_SYNTAX("stats", about, options);
	struct fv_trace_info info;
	const struct renderer *r;
	struct fv_stats *s;
	struct fv_blame b;
	struct fv_model m;
	struct out out;
	int ret;

	path = parse_capture(&syntax, argc, argv, &input, &filter);
	r = pick_renderer("stats", &oc, RENDER_STATS);

	fv_model_init(&m);
	fv_blame_init_tallied(&b);	/* the counts: no record per event */
	s = fv_stats_new();
	if (!s)
		die("out of memory");
	if (load_capture_blame(path, &m, s, &b, NEED_ANY, &info, &filter)) {
		free(filter.cpus);
		fv_stats_free(s);
		fv_blame_free(&b);
		fv_model_free(&m);
		return EXIT_UNREADABLE;
	}
	check_window("stats", &filter);
	free(filter.cpus);
	s->blame = &b;
	ret = out_open_paged(&out, oc.path);
	if (!ret)
		ret = out_finish(&out, r->stats(out.f, &m, s));
	fv_stats_free(s);
	fv_blame_free(&b);
	fv_model_free(&m);
	return ret ? EXIT_NO_OUTPUT : 0;
}
