/* SPDX-License-Identifier: GPL-2.0 */
/*
 * migcall.h - which failed migration attempts are retries (pure).
 *
 * migrate_pages() tries a folio again on a later pass after -EAGAIN,
 * and on 6.12 in the call's own mode after any failure in a synchronous
 * call's first MIGRATE_ASYNC round; 6.12's unmap and move stages each
 * write a record.  The kernel counts a folio failed by its last attempt
 * of the call only (mm_migrate_pages' nr_failed), so an attempt record
 * (migrate_folio, or migrate_folio_failed without it) that failed is a
 * retry when a later attempt record of the same folio (src_pfn) follows
 * in the same call, and the folio's final failure otherwise.
 *
 * A call is told by its task (common_pid: a task runs one
 * migrate_pages() at a time) and ends at the task's mm_migrate_pages;
 * a capture without that event ends every call at the capture's end,
 * so there a later call's attempt of the same folio reads as a retry.
 *
 * The owner counts every failed attempt as a failure when it comes and
 * gives it a cookie (whatever locates that count); the folio's next
 * attempt in the call hands the cookie back: that failure was a retry.
 * What is still pending at a call's end, or the capture's, stays final.
 */
#ifndef FRAGVIEW_MIGCALL_H
#define FRAGVIEW_MIGCALL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

struct fv_migcall_folio;
struct fv_migcall_task;

/* All zero is an empty table; memory grows with the folios pending. */
struct fv_migcall {
	struct fv_migcall_folio *folios;	/* by (pid, src_pfn) */
	size_t folios_cap, folios_used;		/* used: slots ever taken */
	struct fv_migcall_task *tasks;		/* by pid: the call it is in */
	size_t tasks_cap, nr_tasks;
};

/*
 * One attempt record (FV_EV_MIGRATE or FV_EV_MIGRATE_FAILED) of task
 * ev->migrate.pid.  When the folio's previous attempt in this call
 * failed, returns true and its cookie in *retried: it was a retry.
 * Remembers ev with @cookie when ev failed.
 */
bool fv_migcall_attempt(struct fv_migcall *mc, const struct fv_event *ev,
			uint64_t cookie, uint64_t *retried);

/* The task's call ended (its mm_migrate_pages): its failures are final. */
void fv_migcall_end(struct fv_migcall *mc, int32_t pid);

/* Forgets everything (pending failures stay final); reusable after. */
void fv_migcall_free(struct fv_migcall *mc);

#endif /* FRAGVIEW_MIGCALL_H */
