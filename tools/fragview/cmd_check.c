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
#include <stdlib.h>

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
"steal of a smaller buddy than asked, ...) is named on one line\n"
"'check: impossible event: ...'.\n"
"Exit status: 0 exact, 1 mismatches or an impossible event, 2 the replay\n"
"cannot be exact (events are missing), 3 unreadable capture (or fewer than two snapshots),\n"
"4 the result cannot be written, 64 usage error.\n";

static void put_issues(FILE *f, const struct fv_issues *is)
{
	char line[512];

	for (size_t i = 0; i < is->nr; i++) {
		fv_issue_text(&is->v[i], line, sizeof(line));
		fprintf(f, "%s\n", line);
	}
}

/* The first event no kernel writes: what, when, why; how many more. */
static void put_impossible(FILE *f, const struct fv_model *m)
{
	uint64_t ts = m->impossible.ts;

	fprintf(f, "check: impossible event: %s on CPU %d at %llu.%09llu s: %s",
		fv_ev_kind_name(m->impossible.kind), m->impossible.cpu,
		(unsigned long long)(ts / 1000000000),
		(unsigned long long)(ts % 1000000000), m->impossible_why);
	if (m->nr_impossible > 1)
		fprintf(f, " (and %llu more)",
			(unsigned long long)(m->nr_impossible - 1));
	fputc('\n', f);
}

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
	struct fv_mismatch *mm;
	struct fv_issues is;
	struct fv_check chk;
	struct fv_model m;
	struct out out;
	const char *path;
	int ret;

	path = parse_capture(&syntax, argc, argv, &input, &filter);

	fv_model_init(&m);
	if (load_capture(path, &m, NULL, NEED_TWO_SNAPSHOTS, &info, &filter)) {
		fv_model_free(&m);
		return EXIT_UNREADABLE;
	}
	check_window("check", &filter);
	mm = xcalloc(m.nr_blocks + 1, sizeof(*mm));
	if (fv_model_check(&m, &chk, mm) || fv_model_issues(&m, &is))
		die("out of memory");
	if (out_open_paged(&out, "-"))
		return EXIT_NO_OUTPUT;
	fprintf(out.f, "check: %zu blocks, %zu flips replayed, %zu mismatches\n",
		chk.nr_compared, chk.nr_flips, chk.nr_mismatches);
	for (size_t i = 0; i < chk.nr_mismatches; i++)
		fprintf(out.f, "pfn 0x%llx expected %s got %s\n",
			(unsigned long long)m.blocks[mm[i].block].pfn,
			fv_mt_name(mm[i].expected), fv_mt_name(mm[i].got));
	if (chk.nr_missing)
		fprintf(out.f, "note: %zu blocks of the first snapshot are not in the last\n",
			chk.nr_missing);
	/* where a mismatch comes from: a flip nobody reported, or lost events */
	if (m.flip_old_mismatch && !m.have_gen)
		fprintf(out.f, "note: %llu flips started from another type than the replay's (a type change without a flip event, or lost events)\n",
			(unsigned long long)m.flip_old_mismatch);
	put_issues(out.f, &is);
	if (m.nr_impossible)
		put_impossible(out.f, &m);
	if (is.nr)
		fprintf(out.f, "check: the replay cannot be exact: events are missing\n");
	if (out_close(&out))
		ret = EXIT_NO_OUTPUT;
	else if (m.nr_impossible)
		ret = EXIT_MISMATCH;
	else if (is.nr)
		ret = EXIT_INEXACT;
	else
		ret = chk.nr_mismatches ? EXIT_MISMATCH : 0;
	fv_issues_free(&is);
	free(mm);
	fv_model_free(&m);
	return ret;
}
