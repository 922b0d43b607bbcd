// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_check.c - "fragview check": is the replay exact?
 *
 * The first pageblock_state snapshot plus every pageblock_flip must give
 * the last snapshot, block by block.  A mismatch means a flip the kernel
 * did not report (a missing tracepoint) or events lost in the capture;
 * lost events, incomplete snapshots and flip gen gaps (ABI v2) are
 * reported on their own, as they make an exact replay impossible.
 */
#include "capture.h"
#include "fragview.h"
#include "integrity.h"
#include "util.h"

static const char about[] =
"Replays the first pageblock_state snapshot with every pageblock_flip and\n"
"compares the result with the last snapshot, block by block.  Prints\n"
"'check: N blocks, M flips replayed, K mismatches', one line per\n"
"mismatched block, and one line per sign of missing events: ring-buffer\n"
"overruns (CPU, how many, when), incomplete snapshots, flip gen gaps.\n"
"An event the ABI says no kernel writes (a flip from a type to itself, a\n"
"steal of a smaller buddy than asked, a declined claim, taken=0, that\n"
"claimed its block or follows a steal flip on its CPU, ...) is named on\n"
"one line 'check: impossible event: ...'.\n"
"Exit status: 0 exact, 1 mismatches or an impossible event, 2 the replay\n"
"cannot be exact (events are missing), 3 unreadable capture (or fewer than two snapshots),\n"
"4 the result cannot be written, 64 usage error.\n";

int cmd_check(int argc, char **argv)
{
	const char *input = NULL;
	struct capture_filter filter = { 0 };
	const struct option options[] = {
		opt_input(&input),
		OPT_WINDOW(&filter),
		opt_not_here("cpu", "a replay needs the flips of every CPU"),
		OPT_NO_TASK_FILTER,
		opt_help(),
		OPT_END()
	};
	const struct cmd_syntax syntax = CAPTURE_SYNTAX("check", about, options);
	struct fv_trace_info info;
	struct fv_model m;
	struct out out;
	const char *path;
	int verdict, ret;

	path = parse_capture(&syntax, argc, argv, &input, &filter);

	fv_model_init(&m);
	if (load_capture(path, &m, NULL, NEED_TWO_SNAPSHOTS, &info, &filter)) {
		fv_model_free(&m);
		return EXIT_UNREADABLE;
	}
	check_window("check", &filter);
	if (out_open_paged(&out, "-"))
		return EXIT_NO_OUTPUT;
	verdict = fv_check_report(out.f, &m);
	if (verdict < 0)
		die("out of memory");
	if (out_close(&out))
		ret = EXIT_NO_OUTPUT;
	else
		ret = verdict == FV_CHECK_MISMATCH ? EXIT_MISMATCH :
		      verdict == FV_CHECK_INEXACT ? EXIT_INEXACT : 0;
	fv_model_free(&m);
	return ret;
}
