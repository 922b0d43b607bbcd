/* SPDX-License-Identifier: GPL-2.0 */
/*
 * retries.h - migrate_pages() calls whose failed attempts are retries,
 * with what each must count (migcall.h), for the model, the statistics
 * and the compaction model alike.
 *
 * Every folio sits in block 0x1000 (pageblock_order 9).  A case is fed
 * as capture.c feeds it: the form decides what counts (migform.h), and
 * an mm_migrate_pages the form drops still ends its task's call.
 */
#ifndef FRAGVIEW_TESTS_RETRIES_H
#define FRAGVIEW_TESTS_RETRIES_H

#include "../migform.h"
#include "builders.h"

#define RETRY_BLOCK 0x1000
#define RETRY_MAX_EVENTS 8

struct retry_case {
	const char *name;
	struct fv_migform form;
	struct fv_event ev[RETRY_MAX_EVENTS];
	size_t nr;
	/* attempts: successes, final failures, failures retried */
	uint32_t ok, failed, retried;
};

/* An attempt of task pid's call, on a folio of RETRY_BLOCK. */
static inline struct fv_event attempt(uint64_t ts, int32_t pid,
				      uint64_t pfn, int32_t result)
{
	struct fv_event e = ev_migrate(ts, RETRY_BLOCK + pfn, result);

	e.migrate.pid = pid;
	return e;
}

/* Task pid's call ends: mm_migrate_pages (its totals do not matter). */
static inline struct fv_event call_end(uint64_t ts, int32_t pid)
{
	struct fv_event e = ev_msum(ts, 0, 0);

	e.msum.pid = pid;
	return e;
}

static inline struct fv_event in_mode(struct fv_event e, uint8_t mode)
{
	e.migrate.mode = mode;
	return e;
}

static inline struct fv_event as_failed_record(struct fv_event e)
{
	e.kind = FV_EV_MIGRATE_FAILED;
	return e;
}

#define EAGAIN_ -11
#define EBUSY_ -16

/* Fills cases[] (room for 8), returns how many. */
static inline size_t retry_cases(struct retry_case *c)
{
	const struct fv_migform folio = { .folio = true, .sum = true },
		dflt = { .failed = true, .sum = true, .pass = true };
	size_t n = 0;

	c[n++] = (struct retry_case){ "EAGAIN, then moved", folio,
		{ attempt(10, 1, 5, EAGAIN_), attempt(11, 1, 5, 0),
		  call_end(12, 1) }, 3, 1, 0, 1 };
	/* still EAGAIN at the last pass, and no call end: the capture's */
	c[n++] = (struct retry_case){ "EAGAIN twice, the last one final",
		folio, { attempt(10, 1, 5, EAGAIN_), attempt(11, 1, 5, EAGAIN_) },
		2, 0, 1, 1 };
	/* 6.12: a synchronous call's MIGRATE_ASYNC round, then its mode */
	c[n++] = (struct retry_case){ "async round EBUSY, then moved in sync",
		folio, { in_mode(attempt(10, 1, 5, EBUSY_), FV_MODE_ASYNC),
			 in_mode(attempt(11, 1, 5, 0), FV_MODE_SYNC),
			 call_end(12, 1) }, 3, 1, 0, 1 };
	/* the same pfn in two tasks' calls: each call its own */
	c[n++] = (struct retry_case){ "two tasks interleaved", folio,
		{ attempt(10, 1, 5, EAGAIN_), attempt(11, 2, 5, EAGAIN_),
		  attempt(12, 1, 5, 0), call_end(13, 2), attempt(14, 2, 5, 0),
		  call_end(15, 1) }, 6, 2, 1, 1 };
	/* a later call's attempt of the folio is no retry of this one's */
	c[n++] = (struct retry_case){ "the call's end makes EAGAIN final",
		folio, { attempt(10, 1, 5, EAGAIN_), call_end(11, 1),
			 attempt(12, 1, 5, 0), call_end(13, 1) }, 4, 1, 1, 0 };
	/* no migrate_folio: failed records only, the successes unseen */
	c[n++] = (struct retry_case){ "default form: a failed record retried",
		dflt, { as_failed_record(attempt(10, 1, 5, EAGAIN_)),
			as_failed_record(attempt(11, 1, 5, EBUSY_)),
			as_failed_record(attempt(12, 1, 6, EAGAIN_)),
			call_end(13, 1) }, 4, 0, 2, 1 };
	return n;
}

/* A case's event into the model (and its compaction model), as capture.c. */
static inline void retry_feed(struct fv_model *m, const struct retry_case *c,
			      const struct fv_event *ev)
{
	if (fv_mig_role(&c->form, ev) != FV_MIG_DROP) {
		feed(m, *ev);
		return;
	}
	fv_model_end_migrate_call(m, ev->msum.pid);
	if (m->compact)
		fv_compact_end_migrate_call(m->compact, ev->msum.pid);
}

#endif /* FRAGVIEW_TESTS_RETRIES_H */
