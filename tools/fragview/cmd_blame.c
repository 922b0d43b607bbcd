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
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "blame.h"
#include "capture.h"
#include "fragview.h"
#include "util.h"

static const char about[] =
"Ranks the tasks, kernel stacks or call sites behind the fallback steals\n"
"(blocks polluted: an unclaimed steal left a block of another type mixed;\n"
"blocks claimed) and pageblock flips of a capture, with example blocks and\n"
"the stack behind most of each row's events.  A claim declined with nothing\n"
"taken (pageblock_steal taken=0, 6.12) is no steal and counts nowhere here.\n"
"Stacks come from a stacktrace trigger on the events: trace-cmd record -e\n"
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

/* --by's choices, in enum fv_blame_by order */
static const char *const *by_names(void)
{
	static const char *names[4];

	for (int i = 0; i < 3; i++)
		names[i] = fv_blame_by_name(i);
	return names;
}

/* --pid, --comm: the task filter */
struct task_filter {
	unsigned long pid;		/* ULONG_MAX: any */
	const char *comm;		/* NULL: any */
};

static bool task_matches(const struct fv_blame *b,
			 const struct fv_blame_rec *r, void *ctx)
{
	const struct task_filter *t = ctx;

	return (t->pid == ULONG_MAX || r->pid == (long)t->pid) &&
	       (!t->comm || !strcmp(fv_blame_comm_of(b, r->pid), t->comm));
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
	const char *input = NULL, *path;
	struct output_choice oc = { 0 };
	struct capture_filter filter = { 0 };
	struct task_filter task = { .pid = ULONG_MAX };
	int by = FV_BLAME_BY_TASK;
	unsigned long top = 10;
	const struct option options[] = {
		opt_input(&input),
		OPT_CHOICE('b', "by", &by, "WHAT", by_names(), "grouping",
			   "rank tasks (default), stacks or call sites",
			   by_doc),
		OPT_ULONG('n', "top", &top, "N", 0, 1000000, "count",
			  "show the first N rows (default 10, 0: all)",
			  "Show the first\n.I N\nrows (default 10; 0: all)."),
		OPT_WINDOW(&filter),
		opt_cpu(&filter.cpus),
		OPT_ULONG(0, "pid", &task.pid, "PID", 0, INT32_MAX, "pid",
			  "only the steals and flips of task PID",
			  "Only the steals and flips that task\n"
			  ".I PID\n"
			  "ran."),
		OPT_STRING(0, "comm", &task.comm, "COMM",
			   "only the steals and flips of the tasks named COMM",
			   "Only the steals and flips of the tasks the capture "
			   "names\n"
			   ".I COMM\n"
			   "(the comm of its saved cmdlines, as\n"
			   ".B trace\\-cmd report\n"
			   "shows it)."),
		OPT_TABLE_FORMAT(&oc, format_doc),
		OPT_OUTPUT_END(&oc)
	};
	const struct cmd_syntax syntax = CAPTURE_SYNTAX("blame", about, options);
	struct fv_trace_info info;
	const struct renderer *r;
	struct blame_view v = { 0 };
	struct fv_blame_group *groups;
	struct fv_blame b;
	struct fv_model m;
	struct out out;
	int ret;

	path = parse_capture(&syntax, argc, argv, &input, &filter);
	r = pick_renderer("blame", &oc, RENDER_BLAME);

	fv_model_init(&m);
	fv_blame_init(&b);
	ret = load_capture_blame(path, &m, NULL, &b, NEED_BLAME, &info,
				 &filter);
	free(filter.cpus);
	if (!ret) {
		check_window("blame", &filter);
		if (task.pid != ULONG_MAX || task.comm)
			fv_blame_keep(&b, task_matches, &task);
	}
	if (ret || check_input(path, &info, &b, by)) {
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
	ret = out_open_paged(&out, oc.path);
	if (!ret)
		ret = out_finish(&out, r->blame(out.f, &v));
	free(groups);
	fv_blame_free(&b);
	fv_model_free(&m);
	return ret ? EXIT_NO_OUTPUT : 0;
}
