/* SPDX-License-Identifier: GPL-2.0 */
/* capture.h - a capture file into the model (and statistics). */
#ifndef FRAGVIEW_CAPTURE_H
#define FRAGVIEW_CAPTURE_H

#include "model.h"
#include "trace.h"

struct fv_stats;
struct fv_blame;

enum capture_need {
	NEED_ANY,		/* stats: whatever the capture has */
	NEED_BLAME,		/* blame: the same, which says itself what a
				 * stock-kernel capture lacks */
	NEED_SNAPSHOT,		/* map: at least one pageblock_state snapshot */
	NEED_TWO_SNAPSHOTS,	/* check */
	NEED_COMPACTION,	/* compact: compaction or mm_page_alloc events */
};

/*
 * Reads path into m (finished) and, if s is not NULL, into s.  Returns
 * 0, or -1 after one line on stderr (unreadable capture, none of our
 * events, or not what the command needs).  Warns about lost events.
 */
int load_capture(const char *path, struct fv_model *m, struct fv_stats *s,
		 enum capture_need need, struct fv_trace_info *info);

/*
 * load_capture(), and, if b is not NULL, who did every steal and flip
 * into b (finished): tasks, comms, kernel stacks (blame.h).
 */
int load_capture_blame(const char *path, struct fv_model *m,
		       struct fv_stats *s, struct fv_blame *b,
		       enum capture_need need, struct fv_trace_info *info);

#endif /* FRAGVIEW_CAPTURE_H */
