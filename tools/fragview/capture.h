/* SPDX-License-Identifier: GPL-2.0 */
/* capture.h - a capture file into the model (and statistics). */
#ifndef FRAGVIEW_CAPTURE_H
#define FRAGVIEW_CAPTURE_H

#include "model.h"
#include "opts.h"
#include "trace.h"

struct fv_stats;
struct fv_blame;

enum capture_need {
	NEED_ANY,		/* stats: whatever the capture has */
	NEED_BLAME,		/* blame: the same, which says itself what a
				 * stock-kernel capture lacks */
	NEED_EXPLAIN,		/* explain: the same, and the compaction
				 * model (runs, notes, allocations) */
	NEED_SNAPSHOT,		/* map: at least one pageblock_state snapshot */
	NEED_TWO_SNAPSHOTS,	/* check */
	NEED_COMPACTION,	/* compact: compaction or mm_page_alloc events */
};

/* CPUs --cpu can name: a bitmap of this many, every CPU a capture has */
#define CAPTURE_MAX_CPUS FV_CPU_LIMIT

/*
 * What of a capture a command looks at (--from, --to, --cpu).  The time
 * window applies to everything read: the model, the statistics and
 * blame see only the events from --from to --to, so the first snapshot
 * in the window is the replay's baseline.  The CPUs apply to what is
 * counted (statistics, blame), never to the model, whose replay needs
 * every CPU's flips.
 */
struct capture_filter {
	struct opt_time from, to;	/* unset: the capture's ends */
	uint64_t *cpus;			/* CAPTURE_MAX_CPUS bits; NULL: all */
	/* set by the load: */
	uint64_t first_ts;		/* the capture's first event of ours */
	uint64_t from_ns, to_ns;	/* the window in trace clock ns */
	uint64_t nr_outside;		/* events left out by the window */
};

/*
 * Reads path into m (finished) and, if s is not NULL, into s, what f
 * lets through (NULL: everything).  Returns
 * 0, or -1 after one line on stderr (unreadable capture, none of our
 * events, or not what the command needs).  Warns about lost events.
 */
int load_capture(const char *path, struct fv_model *m, struct fv_stats *s,
		 enum capture_need need, struct fv_trace_info *info,
		 struct capture_filter *f);

/*
 * load_capture(), and, if b is not NULL, who did every steal and flip
 * into b (finished): tasks, comms, kernel stacks (blame.h).
 */
int load_capture_blame(const char *path, struct fv_model *m,
		       struct fv_stats *s, struct fv_blame *b,
		       enum capture_need need, struct fv_trace_info *info,
		       struct capture_filter *f);

/*
 * The compaction runs (compaction.h) of map and compact go to
 * m->compact: capture_free() frees them and the model.
 */
void capture_free(struct fv_model *m);

#endif /* FRAGVIEW_CAPTURE_H */
