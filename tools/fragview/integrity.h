/* SPDX-License-Identifier: GPL-2.0 */
/*
 * integrity.h - can the replay of this capture be exact?
 *
 * Three signs that events are missing, none of which a mismatch count
 * can show on its own:
 *   - the ring buffer dropped events (libtracecmd's per-CPU missed
 *     events: FV_EV_LOST);
 *   - a snapshot is incomplete (ABI v2: a zone's pageblock_snapshot
 *     begin, its nr_blocks pageblock_state events and its end were not
 *     all seen);
 *   - a zone's flip generations are not consecutive (ABI v2: every
 *     real type change of a zone bumps its gen, so a gap is lost flips);
 * and one sign that the kernel's own records cannot place a block:
 *   - a snapshot lists a block in two zones (it straddles a zone
 *     boundary; its flips carry either zone's gen).
 * Pure: computed from the model.
 */
#ifndef FRAGVIEW_INTEGRITY_H
#define FRAGVIEW_INTEGRITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model.h"

enum fv_issue_kind {
	FV_ISSUE_LOST, FV_ISSUE_SNAPSHOT, FV_ISSUE_GEN_GAP, FV_ISSUE_STRADDLE,
	FV_ISSUE_SNAP_SEQ,	/* whole snapshots missing between two others */
	FV_ISSUE_NR
};

struct fv_issue {
	enum fv_issue_kind kind;
	uint64_t ts;			/* when it was noticed */
	int64_t count;			/* events / states / flips missing, -1: unknown */
	int32_t cpu;			/* LOST */
	uint64_t prev_ts;		/* LOST: the CPU's record before, 0: none */
	int32_t nid;			/* SNAPSHOT, GEN_GAP */
	uint8_t zone;
	uint32_t seq;			/* SNAPSHOT; SNAP_SEQ: the first missing */
	uint32_t expected, seen;	/* SNAPSHOT: states announced / seen */
	bool no_begin, no_end;		/* SNAPSHOT: boundary event missing */
	uint64_t gen_lo, gen_hi;	/* GEN_GAP: the missing gens */
	uint64_t pfn;			/* STRADDLE: the first such block */
	int32_t nid2;			/* STRADDLE: its other node and zone */
	uint8_t zone2;
};

struct fv_issues {
	struct fv_issue *v;
	size_t nr;
	size_t nr_kind[FV_ISSUE_NR];	/* by enum fv_issue_kind */
};

/* Fills out (sorted by time); 0, or -1 when memory runs out. */
int fv_model_issues(const struct fv_model *m, struct fv_issues *out);
void fv_issues_free(struct fv_issues *is);

/* One line, no newline: what is missing, where and from when. */
void fv_issue_text(const struct fv_issue *is, char *buf, size_t len);
/* "2 ring-buffer overruns, 1 incomplete snapshot, 1 flip gen gap" */
void fv_issues_summary(const struct fv_issues *is, char *buf, size_t len);

/*
 * The warning banner every rendered output carries when the replay
 * cannot be exact: fn gets a title line ("WARNING: events are missing,
 * ...") then one line per issue, at most FV_BANNER_MAX of them and a
 * "... and N more" line.  Returns the number of lines (0: no issue).
 */
#define FV_BANNER_MAX 8
typedef void (*fv_banner_fn)(const char *line, bool title, void *ctx);
size_t fv_issues_banner(const struct fv_model *m, fv_banner_fn fn, void *ctx);

/* A fv_banner_fn for text outputs: ctx is the FILE, details indented. */
void fv_banner_text(const char *line, bool title, void *file);

/* Short name of an issue kind for tables: "lost_events", ... */
const char *fv_issue_kind_name(enum fv_issue_kind k);

/*
 * fragview check's report on f: "check: N blocks, M flips replayed, K
 * mismatches", the mismatched blocks, the issues, the first impossible
 * event.  Returns the verdict, or -1 when memory runs out.
 */
enum fv_check_verdict {
	FV_CHECK_EXACT,
	FV_CHECK_MISMATCH,	/* mismatches, or an event no kernel writes */
	FV_CHECK_INEXACT,	/* events are missing: cannot be exact */
};
int fv_check_report(FILE *f, const struct fv_model *m);

#endif /* FRAGVIEW_INTEGRITY_H */
