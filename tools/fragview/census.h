/* SPDX-License-Identifier: GPL-2.0 */
/*
 * census.h - what a pageblock census says about pollution (pure).
 *
 * mobility:pageblock_census counts a block's pages by what they are
 * (enum fv_census_count).  Each kind of page has a mobility: LRU and
 * non-LRU movable pages can be migrated away, reclaimable slab can be
 * shrunk, slab, page tables and other kernel pages stay where they are;
 * free, per-cpu, reserved and offline pages belong to nobody.  A block
 * is polluted when it holds pages of a mobility other than its type's:
 * those "foreign" pages keep it from being what its type says (an
 * Unmovable page pins a Movable block against compaction).
 */
#ifndef FRAGVIEW_CENSUS_H
#define FRAGVIEW_CENSUS_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"

enum fv_mobility {
	FV_MOB_MOVABLE, FV_MOB_RECLAIMABLE, FV_MOB_UNMOVABLE,
	FV_MOB_NR,
	FV_MOB_NONE = FV_MOB_NR,	/* free, pcp, reserved, offline;
					 * or a block type of no class */
};
const char *fv_mobility_name(enum fv_mobility c);	/* "movable", ... */

/* The mobility of a census count's pages (FV_MOB_NONE: neutral). */
enum fv_mobility fv_census_count_mobility(enum fv_census_count c);

/*
 * The mobility a block of type mt should hold: Movable and CMA movable,
 * Reclaimable reclaimable, Unmovable and HighAtomic unmovable; Isolate,
 * unknown and none: FV_MOB_NONE (never polluted).
 */
enum fv_mobility fv_mt_mobility(unsigned int mt);

/* Pages per mobility of one census record. */
void fv_census_by_mobility(const uint16_t n[FV_CN_NR],
			   uint32_t pages[FV_MOB_NR]);

/* Pages of the record of a mobility other than mt's (0: not polluted). */
uint32_t fv_census_foreign(const uint16_t n[FV_CN_NR], unsigned int mt);

/* Pages the record counts (the block's pages inside its zone). */
uint32_t fv_census_pages(const uint16_t n[FV_CN_NR]);

/*
 * One zone's latest census, for fragview stats: polluted blocks and
 * foreign pages per block type (by the foreign pages' mobility), and
 * the fleet figure "unmovable pages are X % of the zone's pages but
 * occupy Y % of its blocks".
 */
struct fv_census_zone {
	int32_t nid;
	uint8_t zone;
	uint32_t seq;			/* the census these come from */
	uint64_t ts;
	uint64_t blocks;		/* blocks it counted */
	uint64_t pages;			/* pages it counted */
	uint64_t by_mobility[FV_MOB_NR];	/* pages */
	uint64_t blocks_of[FV_MT_NR];		/* blocks per type */
	uint64_t polluted[FV_MT_NR];		/* ... with a foreign page */
	uint64_t foreign[FV_MT_NR][FV_MOB_NR];	/* foreign pages by mobility */
	uint64_t unmovable_blocks;	/* blocks with >= 1 unmovable page */
};

/*
 * The zones of m's latest census (the highest seq; each zone's records
 * of that seq), into *out (allocated, NULL if none).  Returns the count.
 */
size_t fv_census_zones(const struct fv_model *m, struct fv_census_zone **out);

/* X and Y of the fleet figure in tenths of a percent (-1: no pages). */
int fv_census_unmovable_pages_permille(const struct fv_census_zone *z);
int fv_census_unmovable_blocks_permille(const struct fv_census_zone *z);

#endif /* FRAGVIEW_CENSUS_H */
