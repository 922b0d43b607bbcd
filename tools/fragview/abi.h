/* SPDX-License-Identifier: GPL-2.0 */
/*
 * abi.h - events the ABI (the pages of tracepoints/) says no kernel writes.
 *
 * A flip that does not change the type, a state whose free pages
 * contradict its largest free order, a steal asking more than it took:
 * a capture holding one was not written by the documented kernel (or was
 * damaged), and no replay of it means anything.  Pure: one decoded event
 * at a time.
 */
#ifndef FRAGVIEW_ABI_H
#define FRAGVIEW_ABI_H

#include "model.h"

/* The largest buddy order: 6.1 MAX_ORDER - 1, 6.12 MAX_PAGE_ORDER. */
#define FV_MAX_BUDDY_ORDER 10

/*
 * Passes of a retry loop of migrate_pages(), counted from 0: at most
 * NR_MAX_MIGRATE_PAGES_RETRY (10) on both bases, whose other loops have
 * fewer (6.12: 3 batched, 7 alone; tracepoints/migrate_pass.md).
 */
#define FV_MIGRATE_PASSES 10

/*
 * Why @ev is impossible ("old_mt equals new_mt"), or NULL when it is
 * not; @pageblock_order: of the capture.
 */
const char *fv_event_impossible(const struct fv_event *ev,
				unsigned int pageblock_order);

#endif /* FRAGVIEW_ABI_H */
