// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_blame.c - "fragview blame": who polluted the pageblocks.
 *
 * Every fallback steal (or, on a stock kernel, mm_page_alloc_extfrag)
 * and every pageblock flip is attributed to the task that ran it
 * (common_pid, named from the capture's saved cmdlines) and to the kernel
 * stack a stacktrace trigger recorded right after it on its CPU
 * (blame.h); tasks, stacks or call sites are ranked by what they did.
 */
#include <errno.h>
#include <stdlib.h>

#include "blame.h"
#include "capture.h"
#include "fragview.h"
#include "util.h"

static const char about[] =
"Ranks the tasks, kernel stacks or call sites behind the fallback steals\n"
"(blocks polluted: an unclaimed steal left a block of another type mixed;\n"
"blocks claimed) and pageblock flips of a capture, with example blocks and\n"
"the stack behind most of each row's events.  Stacks come from a\n"
"stacktrace trigger on the events: trace-cmd record -e\n"
"mobility:pageblock_steal -R stacktrace -e mobility:pageblock_flip -R\n"
"stacktrace (on a stock kernel: -e kmem:mm_page_alloc_extfrag -R\n"
"stacktrace).\n";

static const char by_doc[] =
"What a row is:\n"
".B task\n"
"(a pid, named by the capture's saved comm; the default),\n"
".B stack\n"
"(one distinct kernel stack), or\n"
".B site\n"
"(the first frame of the stack outside the allocator internals listed in\n"
"SITES).\n"
".B stack\n"
"and\n"
".B site\n"
"need the stacks in the capture (exit status 3 without).";

static const char format_doc[] =
".B txt\n"
"(the ranking, each row with its example blocks and the stack of most of\n"
"its events; the site frame is marked\n"
".BR > ),\n"
".B csv\n"
"(one row per group: by, rank, key, steals, polluted, claimed, flips,\n"
"blocks, top_task, top_task_events, top_stack, top_stack_events, site,\n"
"stack; lists joined by ;), or\n"
".BR json .";

static int parse_by(const struct option *opt, const char *arg)
{
	int by = fv_blame_by_parse(arg);

	if (by < 0)
		return -1;
	*(int *)opt->value = by;
	return 0;
}

static int parse_top(const struct option *opt, const char *arg)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < 0 || v > 1000000)
		return -1;
	*(size_t *)opt->value = v;
	return 0;
}

static const struct renderer *pick_blame_renderer(const char *format)
{
	const struct renderer *r = renderer_find(format ? format : "txt");

	if (!r || !r->blame)
		usage_error("blame", "blame: unknown format '%s' (one of txt|csv|json)",
			    format);
	return r;
}

/* What the capture lacks for the ranking asked: one line, or -1 */
static int check_input(const char *path, const struct fv_trace_info *info,
		       const struct fv_blame *b, int by)
{
	if (!info->have[FV_EV_STEAL] && !info->have[FV_EV_FLIP] &&
	    !info->have[FV_EV_EXTFRAG]) {
		warn("%s: no mobility:pageblock_steal, pageblock_flip or kmem:mm_page_alloc_extfrag events: nothing to blame",
		     path);
		return -1;
	}
	if (b->nr_recs && !b->nr_with_stack && by != FV_BLAME_BY_TASK) {
		warn("%s: no kernel stacks after the steals and flips: --by %s needs them (trace-cmd record ... -e EVENT -R stacktrace)",
		     path, fv_blame_by_name(by));
		return -1;
	}
	if (!info->have[FV_EV_STEAL] && !info->have[FV_EV_FLIP])
		warn("%s: stock-kernel capture: fallbacks from kmem:mm_page_alloc_extfrag ('claimed' is change_ownership); no block type changes (pageblock_flip) to attribute",
		     path);
	if (b->nr_recs && !b->nr_with_stack)
		warn("%s: no kernel stacks after the steals and flips (trace-cmd record ... -e EVENT -R stacktrace): tasks only",
		     path);
	return 0;
}

int cmd_blame(int argc, char **argv)
{
	const char *format = NULL, *output = NULL, *path;
	int by = FV_BLAME_BY_TASK;
	size_t top = 10;
	const struct option options[] = {
		{ .type = OPTION_CALLBACK, .short_name = 'b', .long_name = "by",
		  .argh = "WHAT", .value = &by, .callback = parse_by,
		  .bad = "grouping", .want = "stack, task or site",
		  .help = "rank tasks (default), stacks or call sites",
		  .doc = by_doc },
		{ .type = OPTION_CALLBACK, .short_name = 'n', .long_name = "top",
		  .argh = "N", .value = &top, .callback = parse_top,
		  .bad = "count", .want = "a number, 0 for all",
		  .help = "show the first N rows (default 10, 0: all)",
		  .doc = "Show the first\n.I N\nrows (default 10; 0: all)." },
		OPT_STRING('f', "format", &format, "FORMAT",
			   "txt (default), csv or json", format_doc),
		opt_output(&output),
		opt_help(),
		OPT_END()
	};
	const struct cmd_syntax syntax = {
		.name = "blame", .operands = "CAPTURE",
		.missing = "CAPTURE (a trace.dat file)", .about = about,
		.options = options,
	};
	struct fv_trace_info info;
	const struct renderer *r;
	struct blame_view v = { 0 };
	struct fv_blame_group *groups;
	struct fv_blame b;
	struct fv_model m;
	struct out out;
	int ret;

	path = parse_options_one_operand(&syntax, argc, argv);
	r = pick_blame_renderer(format);

	fv_model_init(&m);
	fv_blame_init(&b);
	if (load_capture_blame(path, &m, NULL, &b, NEED_BLAME, &info) ||
	    check_input(path, &info, &b, by)) {
		fv_blame_free(&b);
		fv_model_free(&m);
		return EXIT_UNREADABLE;
	}
	v.b = &b;
	v.by = by;
	v.title = path;
	v.nr = fv_blame_rank(&b, by, &groups);
	v.g = groups;
	v.top = top && top < v.nr ? top : v.nr;
	ret = out_open(&out, output);
	if (!ret) {
		if (r->blame(out.f, &v)) {
			out_abort(&out);
			ret = -1;
		} else {
			ret = out_close(&out);
		}
	}
	free(groups);
	fv_blame_free(&b);
	fv_model_free(&m);
	return ret ? EXIT_NO_OUTPUT : 0;
}
