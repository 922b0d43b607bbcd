// SPDX-License-Identifier: GPL-2.0
/*
 * abi.c - events the ABI says no kernel writes (abi.h).
 *
 * Only rules the per-event pages of tracepoints/ state for both kernel
 * bases; a name outside a table is already FV_*_UNKNOWN and left to the
 * readers that show it.
 */
#include "abi.h"

static bool unaligned(uint64_t pfn, unsigned int order)
{
	return pfn & ((1ULL << order) - 1);
}

static const char *flip_impossible(const struct fv_event *ev,
				   unsigned int pb_order)
{
	bool online = ev->flip.reason == FV_FLIP_ONLINE;
	bool offline = ev->flip.reason == FV_FLIP_OFFLINE;

	if (ev->flip.old_mt == ev->flip.new_mt)
		return "old_mt equals new_mt (a flip fires only on a real change)";
	if ((ev->flip.old_mt == FV_MT_NONE) != online)
		return "old_mt none without reason online, or online from a type";
	if ((ev->flip.new_mt == FV_MT_NONE) != offline)
		return "new_mt none without reason offline, or offline to a type";
	if (unaligned(ev->flip.pfn, pb_order))
		return "pfn is not the first pfn of a pageblock";
	return NULL;
}

static const char *state_impossible(const struct fv_event *ev,
				    unsigned int pb_order)
{
	uint32_t block = 1U << pb_order, fp = ev->state.free_pages;
	int lo = ev->state.largest_order;

	if (unaligned(ev->state.pfn, pb_order))
		return "pfn is not the first pfn of a pageblock";
	if (fp > block || lo < -1 || lo > FV_MAX_BUDDY_ORDER)
		return "free_pages or largest_order out of range";
	if ((fp == 0) != (lo == -1))
		return "free_pages and largest_order disagree on a free page";
	if (lo >= 0 && fp < ((1U << lo) < block ? 1U << lo : block))
		return "fewer free pages than its largest free buddy holds";
	return NULL;
}

static const char *steal_impossible(const struct fv_event *ev,
				    unsigned int pb_order)
{
	/* try_to_steal_block() reports taken=0 on its way out, unclaimed */
	if (ev->steal.declined && ev->steal.claimed)
		return "taken=0 with claimed=1 (a declined claim claims no block)";
	if (ev->steal.order > ev->steal.fallback_order ||
	    ev->steal.fallback_order > FV_MAX_BUDDY_ORDER)
		return "order above fallback_order, or above the largest buddy";
	if (ev->steal.block_pfn != (ev->steal.pfn & ~((1ULL << pb_order) - 1)))
		return "block_pfn is not the pageblock of pfn";
	if (unaligned(ev->steal.pfn, ev->steal.fallback_order))
		return "pfn is not the first pfn of an order-fallback_order buddy";
	return NULL;
}

/* migrate_folio and migrate_folio_failed: one event class */
static const char *attempt_impossible(const struct fv_event *ev)
{
	if ((ev->migrate.dst_pfn == 0) != (ev->migrate.dst_mt == FV_MT_NONE))
		return "dst_mt none iff dst_pfn 0";
	if (ev->migrate.pass >= FV_MIGRATE_PASSES)
		return "pass beyond the retry loops' passes";
	if (ev->kind == FV_EV_MIGRATE_FAILED && !ev->migrate.result)
		return "result success (migrate_folio_failed fires on a failure only)";
	return NULL;
}

static const char *pass_impossible(const struct fv_event *ev)
{
	if (ev->mpass.pass >= FV_MIGRATE_PASSES)
		return "pass beyond the retry loops' passes";
	if (ev->mpass.stage == FV_STAGE_HUGETLB && !ev->mpass.nr_succeeded &&
	    !ev->mpass.nr_failed && !ev->mpass.nr_retry)
		return "a hugetlb pass that tried no folio (never reported)";
	return NULL;
}

const char *fv_event_impossible(const struct fv_event *ev,
				unsigned int pageblock_order)
{
	uint64_t sum = 0;

	switch (ev->kind) {
	case FV_EV_FLIP:
		return flip_impossible(ev, pageblock_order);
	case FV_EV_STATE:
		return state_impossible(ev, pageblock_order);
	case FV_EV_STEAL:
		return steal_impossible(ev, pageblock_order);
	case FV_EV_DRAIN:
		for (int i = 0; i < 4; i++)
			sum += ev->drain.nr[i];
		if (!ev->drain.total || sum != ev->drain.total)
			return "total is not the sum of the lists, or zero";
		return NULL;
	case FV_EV_MIGRATE:
	case FV_EV_MIGRATE_FAILED:
		return attempt_impossible(ev);
	case FV_EV_MIGRATE_PASS:
		return pass_impossible(ev);
	case FV_EV_WMARK:
		/* mm/page_alloc.c: low = min + tmp, high = low + tmp */
		if (ev->wmark.min > ev->wmark.low || ev->wmark.low > ev->wmark.high)
			return "watermarks not min <= low <= high";
		return NULL;
	default:
		return NULL;
	}
}
