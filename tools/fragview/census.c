// SPDX-License-Identifier: GPL-2.0
/* census.c - what a pageblock census says about pollution (pure). */
#include <stdlib.h>
#include <string.h>

#include "census.h"
#include "util.h"

static const char *const mobility_names[FV_MOB_NR + 1] = {
	"movable", "reclaimable", "unmovable", "none",
};

const char *fv_mobility_name(enum fv_mobility c)
{
	return mobility_names[c < FV_MOB_NR ? c : FV_MOB_NONE];
}

enum fv_mobility fv_census_count_mobility(enum fv_census_count c)
{
	switch (c) {
	case FV_CN_LRU:
	case FV_CN_MOVABLE_OPS:
	case FV_CN_HUGETLB:	/* hugepage_movable_supported(): x86-64 2M, 1G */
		return FV_MOB_MOVABLE;
	case FV_CN_SLAB_RECLAIMABLE:
		return FV_MOB_RECLAIMABLE;
	case FV_CN_SLAB_UNMOVABLE:
	case FV_CN_PGTABLE:
	case FV_CN_KERNEL:
		return FV_MOB_UNMOVABLE;
	default:	/* free, free_pcp, reserved, offline; chunks: no pages */
		return FV_MOB_NONE;
	}
}

enum fv_mobility fv_mt_mobility(unsigned int mt)
{
	switch (mt) {
	case FV_MT_MOVABLE:
	case FV_MT_CMA:
		return FV_MOB_MOVABLE;
	case FV_MT_RECLAIMABLE:
		return FV_MOB_RECLAIMABLE;
	case FV_MT_UNMOVABLE:
	case FV_MT_HIGHATOMIC:
		return FV_MOB_UNMOVABLE;
	default:
		return FV_MOB_NONE;
	}
}

void fv_census_by_mobility(const uint16_t n[FV_CN_NR],
			   uint32_t pages[FV_MOB_NR])
{
	memset(pages, 0, FV_MOB_NR * sizeof(pages[0]));
	for (int c = 0; c < FV_CN_NR; c++) {
		enum fv_mobility mob = fv_census_count_mobility(c);

		if (mob < FV_MOB_NR)
			pages[mob] += n[c];
	}
}

uint32_t fv_census_foreign(const uint16_t n[FV_CN_NR], unsigned int mt)
{
	enum fv_mobility own = fv_mt_mobility(mt);
	uint32_t pages[FV_MOB_NR], foreign = 0;

	if (own == FV_MOB_NONE)
		return 0;
	fv_census_by_mobility(n, pages);
	for (int c = 0; c < FV_MOB_NR; c++)
		if (c != (int)own)
			foreign += pages[c];
	return foreign;
}

uint32_t fv_census_pages(const uint16_t n[FV_CN_NR])
{
	uint32_t sum = 0;

	for (int c = 0; c < FV_CN_NR; c++)
		if (c != FV_CN_FREE_CHUNKS)
			sum += n[c];
	return sum;
}

/* Index of the zone holding block i (zones are runs of the sorted table). */
static size_t zone_of(const struct fv_model *m, size_t i)
{
	size_t lo = 0, hi = m->nr_zones;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->zones[mid].first <= i)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static void add_record(struct fv_census_zone *z, const struct fv_census_rec *r)
{
	unsigned int mt = r->mt < FV_MT_NR ? r->mt : FV_MT_UNKNOWN;
	enum fv_mobility own = fv_mt_mobility(mt);
	uint32_t pages[FV_MOB_NR];
	bool polluted = false;

	fv_census_by_mobility(r->n, pages);
	z->blocks++;
	z->pages += fv_census_pages(r->n);
	z->blocks_of[mt]++;
	for (int c = 0; c < FV_MOB_NR; c++) {
		z->by_mobility[c] += pages[c];
		if (own != FV_MOB_NONE && c != (int)own && pages[c]) {
			z->foreign[mt][c] += pages[c];
			polluted = true;
		}
	}
	z->polluted[mt] += polluted;
	z->unmovable_blocks += pages[FV_MOB_UNMOVABLE] > 0;
}

size_t fv_census_zones(const struct fv_model *m, struct fv_census_zone **out)
{
	struct fv_census_zone *zs;
	size_t first, nr = 0;
	uint32_t seq;
	long *slot;

	*out = NULL;
	if (!m->nr_census || !m->nr_zones)
		return 0;
	/* the latest census's records: the run of its seq at the end */
	seq = m->census[m->nr_census - 1].seq;
	for (first = m->nr_census; first > 0 && m->census[first - 1].seq == seq;)
		first--;
	slot = xmalloc(m->nr_zones * sizeof(*slot));
	for (size_t z = 0; z < m->nr_zones; z++)
		slot[z] = -1;
	for (size_t k = first; k < m->nr_census; k++)
		slot[zone_of(m, m->census[k].block)] = 0;
	zs = xcalloc(m->nr_zones, sizeof(*zs));
	for (size_t z = 0; z < m->nr_zones; z++) {
		if (slot[z] < 0)
			continue;
		zs[nr] = (struct fv_census_zone){ .nid = m->zones[z].nid,
			.zone = m->zones[z].zone, .seq = seq, .ts = UINT64_MAX };
		slot[z] = nr++;
	}
	for (size_t k = first; k < m->nr_census; k++) {
		const struct fv_census_rec *r = &m->census[k];
		struct fv_census_zone *cz = &zs[slot[zone_of(m, r->block)]];

		if (r->ts < cz->ts)
			cz->ts = r->ts;		/* when the zone's walk began */
		add_record(cz, r);
	}
	free(slot);
	*out = zs;
	return nr;
}

int fv_census_unmovable_pages_permille(const struct fv_census_zone *z)
{
	return z->pages ? (int)(z->by_mobility[FV_MOB_UNMOVABLE] * 1000 /
				z->pages) : -1;
}

int fv_census_unmovable_blocks_permille(const struct fv_census_zone *z)
{
	return z->blocks ? (int)(z->unmovable_blocks * 1000 / z->blocks) : -1;
}
