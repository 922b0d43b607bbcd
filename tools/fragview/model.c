// SPDX-License-Identifier: GPL-2.0
/*
 * model.c - pageblock state over time, built from canonical events.
 *
 * Blocks are appended as they appear (a snapshot record, or a flip or
 * steal naming a block no snapshot covered yet) and found through a
 * pfn hash; fv_model_finish() sorts the table by (nid, zone, pfn) and
 * renumbers the flip history to match (a block's ring of recent events
 * moves with its private record).
 *
 * Two notions of "type" are kept per block, on purpose:
 *   - the map type (fv_block.mt, fv_model_types_at()): the earliest
 *     known type plus every flip in time order.  Exact at any time as
 *     long as the kernel reported every flip;
 *   - the check replay: the baseline snapshot record plus the flips that
 *     arrived after it, frozen whenever a later snapshot record for the
 *     block arrives.  fv_model_check() compares the two per block, which
 *     is how lost events or missing tracepoints show up.
 *
 * Pure: no I/O, no libtracecmd.  Memory grows with blocks and flips;
 * running out of it ends the program (xmalloc(), util.h).
 */
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "migcall.h"
#include "migform.h"
#include "model.h"
#include "rowidx.h"
#include "util.h"

enum {
	BLK_IN_BASE = 1,	/* the first snapshot covered the block */
	BLK_SNAPPED = 2,	/* a later snapshot covered it */
	BLK_BASE_GEN = 4,	/* base_gen is valid */
	BLK_SNAP_GEN = 8,	/* snap_gen is valid */
	BLK_START_GEN = 16,	/* the map starts from a record with start_gen */
	BLK_GONE = 32,		/* went offline, came back in another zone:
				 * a later entry is the block now */
};

/* Where and when (zone generation) a snapshot record saw a block. */
struct blk_rec {
	uint64_t gen;
	int32_t nid;
	uint8_t zone;
};

struct blk_priv {
	struct blk_rec base, snap;	/* first and latest later record */
	struct blk_rec start;		/* the record mt_start comes from */
	uint32_t ring;			/* index + 1 into rings, 0: none yet */
	uint32_t snap_seq;		/* seq of the latest later snapshot */
	uint32_t flips_replayed;	/* flips applied to replay_mt so far */
	uint32_t replayed_at_snap;	/* ... when the snapshot record came */
	uint32_t base_free;
	int8_t base_largest;
	uint8_t replay_mt;		/* baseline record + later flips */
	uint8_t snap_mt;		/* type in the latest later snapshot */
	uint8_t replay_at_snap;		/* replay_mt when it came */
	uint8_t flags;
};

/* Recent events of one block (keep_hist), allocated at its first event. */
struct hist_ring {
	struct fv_hist_rec rec[FV_BLOCK_HIST];
	uint8_t first, len;
};

struct model_priv {
	struct blk_priv *bp;
	size_t cap;			/* room in blocks and bp */
	size_t flips_cap;
	struct hist_ring *rings;
	size_t nr_rings, rings_cap;
	size_t snap_zones_cap, lost_cap;
	size_t states_cap, census_cap, steal_recs_cap, wmarks_cap;
	uint32_t last_census_seq;
	/* open addressing: key = block number + 1 (0 = empty), val = index */
	uint64_t *hkeys;
	uint32_t *hvals;
	size_t hcap;			/* power of two */
	uint64_t type_count[FV_MT_NR];	/* blocks per map type, now */
	size_t cur_bucket;
	bool started;			/* an event has been applied */
	bool order_fixed;		/* the input said pageblock_order */
	/* per CPU: its last event was a steal flip (steal_flip_before()) */
	uint8_t *steal_flip;
	size_t nr_cpus, cpus_cap;
	/* failed attempts a later one may retry; cookie: the attempt's ts */
	struct fv_migcall calls;
};

static struct model_priv *P(const struct fv_model *m)
{
	return m->priv;
}

void fv_model_init(struct fv_model *m)
{
	memset(m, 0, sizeof(*m));
	m->pageblock_order = 9;
	m->bucket_ns = 1000;	/* doubled by merging as the capture grows */
	m->priv = xcalloc(1, sizeof(struct model_priv));
}

void fv_model_free(struct fv_model *m)
{
	struct model_priv *p = P(m);

	if (p) {
		free(p->bp);
		free(p->hkeys);
		free(p->hvals);
		free(p->rings);
		free(p->steal_flip);
		fv_migcall_free(&p->calls);
		fv_rowidx_free(&m->snap_zone_index);
		free(p);
	}
	free(m->blocks);
	free(m->zones);
	free(m->flips);
	free(m->snap_zones);
	free(m->lost);
	free(m->states);
	free(m->census);
	free(m->steal_recs);
	free(m->wmarks);
	memset(m, 0, sizeof(*m));
}

static uint64_t hash_slot(uint64_t key, size_t hcap)
{
	return (key * 0x9E3779B97F4A7C15ULL) >> 20 & (hcap - 1);
}

static void hash_put(struct model_priv *p, uint64_t key, uint32_t val)
{
	size_t i = hash_slot(key, p->hcap);

	while (p->hkeys[i] && p->hkeys[i] != key)
		i = (i + 1) & (p->hcap - 1);
	p->hkeys[i] = key;
	p->hvals[i] = val;
}

static void hash_rebuild(struct fv_model *m, size_t hcap)
{
	struct model_priv *p = P(m);

	free(p->hkeys);
	free(p->hvals);
	p->hkeys = xcalloc(hcap, sizeof(*p->hkeys));
	p->hvals = xcalloc(hcap, sizeof(*p->hvals));
	p->hcap = hcap;
	for (size_t i = 0; i < m->nr_blocks; i++)
		if (!(p->bp[i].flags & BLK_GONE))
			hash_put(p, (m->blocks[i].pfn >> m->pageblock_order) + 1, i);
}

long fv_model_find_block(const struct fv_model *m, uint64_t pfn)
{
	struct model_priv *p = P(m);
	uint64_t key = (pfn >> m->pageblock_order) + 1;
	size_t i;

	if (!p->hcap)
		return -1;
	for (i = hash_slot(key, p->hcap); p->hkeys[i]; i = (i + 1) & (p->hcap - 1))
		if (p->hkeys[i] == key)
			return p->hvals[i];
	return -1;
}

/* Room for need elements of size in *ptr, doubling. */
static void grow(void **ptr, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 64;

	if (need <= *cap)
		return;
	while (n < need)
		n *= 2;
	*ptr = xrealloc(*ptr, n * size);
	*cap = n;
}

/* Adds the block holding pfn, first known to be of type mt. */
static long add_block(struct fv_model *m, uint64_t pfn, int32_t nid,
		      uint8_t zone, uint8_t mt)
{
	struct model_priv *p = P(m);
	size_t i = m->nr_blocks, cap = p->cap;
	struct fv_block *b;

	/* flip records and the pfn index hold block numbers in 32 bits */
	if (i >= UINT32_MAX - 1)
		return -1;
	/* blocks and bp grow together: one capacity for both */
	grow((void **)&m->blocks, &cap, i + 1, sizeof(*m->blocks));
	grow((void **)&p->bp, &p->cap, i + 1, sizeof(*p->bp));
	if ((i + 1) * 2 > p->hcap)
		hash_rebuild(m, p->hcap ? p->hcap * 2 : 1024);
	if (mt >= FV_MT_NR)
		mt = FV_MT_UNKNOWN;
	if (zone >= FV_ZONE_NR)
		zone = FV_ZONE_UNKNOWN;
	b = &m->blocks[i];
	memset(b, 0, sizeof(*b));
	b->pfn = fv_block_start(m, pfn);
	b->nid = nid;
	b->zone = zone;
	b->mt = mt;
	b->mt_base = mt;
	b->mt_start = mt;
	b->largest_order = -1;
	memset(&p->bp[i], 0, sizeof(p->bp[i]));
	p->bp[i].replay_mt = FV_MT_UNKNOWN;
	p->bp[i].base_largest = -1;
	m->nr_blocks++;
	hash_put(p, (b->pfn >> m->pageblock_order) + 1, i);
	p->type_count[mt]++;
	return i;
}

static long find_or_add(struct fv_model *m, uint64_t pfn, int32_t nid,
			uint8_t zone, uint8_t mt)
{
	long i = fv_model_find_block(m, pfn);

	return i >= 0 ? i : add_block(m, pfn, nid, zone, mt);
}

static void hist_push(struct fv_model *m, size_t i, uint64_t ts, uint8_t kind,
		      uint8_t a, uint8_t b, uint8_t c, int32_t v)
{
	struct model_priv *p = P(m);
	struct hist_ring *r;
	size_t slot;

	if (!m->keep_hist)
		return;
	/* most blocks of a capture never see an event: no ring for them */
	if (!p->bp[i].ring) {
		grow((void **)&p->rings, &p->rings_cap, p->nr_rings + 1,
		     sizeof(*p->rings));
		p->rings[p->nr_rings].first = p->rings[p->nr_rings].len = 0;
		p->bp[i].ring = ++p->nr_rings;
	}
	r = &p->rings[p->bp[i].ring - 1];
	if (r->len < FV_BLOCK_HIST) {
		slot = (r->first + r->len) % FV_BLOCK_HIST;
		r->len++;
	} else {
		slot = r->first;
		r->first = (r->first + 1) % FV_BLOCK_HIST;
	}
	r->rec[slot] = (struct fv_hist_rec){ .ts = ts, .kind = kind,
					     .a = a, .b = b, .c = c, .v = v };
}

size_t fv_model_block_hist(const struct fv_model *m, size_t i,
			   const struct fv_hist_rec **first_part, size_t *n_first,
			   const struct fv_hist_rec **second_part, size_t *n_second)
{
	const struct model_priv *p = P(m);
	const struct hist_ring *r;

	if (!p->bp[i].ring) {
		*first_part = *second_part = NULL;
		*n_first = *n_second = 0;
		return 0;
	}
	r = &p->rings[p->bp[i].ring - 1];
	*first_part = r->rec + r->first;
	*n_first = r->len < FV_BLOCK_HIST - r->first ? r->len
						     : FV_BLOCK_HIST - r->first;
	*second_part = r->rec;
	*n_second = r->len - *n_first;
	return r->len;
}

/* Coarsen the charts by f (a power of two): bucket i takes i*f..i*f+f-1. */
static void merge_buckets(struct fv_model *m, uint64_t f)
{
	struct model_priv *p = P(m);

	for (size_t i = 0; i < FV_NBUCKETS; i++) {
		struct fv_bucket sum = { 0 };
		size_t last = i * f;	/* latest bucket with its counts filled */

		for (uint64_t j = i * f; j < (i + 1) * f && j < FV_NBUCKETS; j++) {
			const struct fv_bucket *b = &m->buckets[j];

			sum.steals += b->steals;
			sum.claims += b->claims;
			sum.flips += b->flips;
			sum.drains += b->drains;
			sum.drained_pages += b->drained_pages;
			sum.migrate_ok += b->migrate_ok;
			sum.migrate_fail += b->migrate_fail;
			sum.migrate_retry += b->migrate_retry;
			if (j <= p->cur_bucket)
				last = j;
		}
		/* blocks[] is the state at the end: the latest part's */
		if (last < FV_NBUCKETS)
			memcpy(sum.blocks, m->buckets[last].blocks,
			       sizeof(sum.blocks));
		m->buckets[i] = sum;
		if (i * f >= FV_NBUCKETS)
			break;
	}
	for (size_t i = (FV_NBUCKETS + f - 1) / f; i < FV_NBUCKETS; i++)
		memset(&m->buckets[i], 0, sizeof(m->buckets[i]));
	m->bucket_ns *= f;
	p->cur_bucket /= f;
	m->nr_buckets_used = p->cur_bucket + 1;
}

static void snapshot_counts(struct fv_model *m, size_t k)
{
	struct model_priv *p = P(m);

	for (int t = 0; t < FV_MT_NR; t++)
		m->buckets[k].blocks[t] = p->type_count[t];
}

/* Moves the chart cursor to the bucket of ts and returns it. */
static struct fv_bucket *bucket_for(struct fv_model *m, uint64_t ts)
{
	struct model_priv *p = P(m);
	uint64_t k = (ts - m->first_ts) / m->bucket_ns;

	if (k >= FV_NBUCKETS) {
		uint64_t f = 2;

		/* one pass however far ts jumped: captures can start idle */
		while ((ts - m->first_ts) / m->bucket_ns / f >= FV_NBUCKETS)
			f *= 2;
		merge_buckets(m, f);
		k = (ts - m->first_ts) / m->bucket_ns;
	}
	/* buckets left behind end with the counts as they are now */
	for (; p->cur_bucket < k; p->cur_bucket++)
		snapshot_counts(m, p->cur_bucket);
	m->nr_buckets_used = k + 1;
	return &m->buckets[k];
}

static void set_type(struct fv_model *m, size_t i, uint8_t mt)
{
	struct model_priv *p = P(m);

	p->type_count[m->blocks[i].mt]--;
	m->blocks[i].mt = mt;
	p->type_count[mt]++;
}

static bool same_zone(const struct blk_rec *r, int32_t nid, uint8_t zone)
{
	return r->nid == nid && r->zone == zone;
}

/* The block is (now) in this zone: the map draws it in its last zone. */
static void place_block(struct fv_model *m, size_t i, int32_t nid,
			uint8_t zone)
{
	m->blocks[i].nid = nid;
	m->blocks[i].zone = zone < FV_ZONE_NR ? zone : FV_ZONE_UNKNOWN;
}

static uint64_t snap_zone_hash(const void *row)
{
	const struct fv_snap_zone *z = row;

	return (uint64_t)z->seq << 32 ^ (uint64_t)(uint32_t)z->nid << 8 ^ z->zone;
}

static bool snap_zone_same(const void *row, const void *key_row)
{
	const struct fv_snap_zone *a = row, *b = key_row;

	return a->seq == b->seq && a->nid == b->nid && a->zone == b->zone;
}

static const struct fv_rowidx_ops snap_zone_ops = {
	.size = sizeof(struct fv_snap_zone),
	.hash = snap_zone_hash, .same = snap_zone_same,
};

static struct fv_snap_zone *snap_zone(struct fv_model *m, uint32_t seq,
				      int32_t nid, uint8_t zone, uint64_t ts)
{
	struct model_priv *p = P(m);
	struct fv_snap_zone key = { .seq = seq, .nid = nid, .zone = zone,
				    .ts = ts };
	long k;

	/* a snapshot walks zone by zone: the last entry is the usual hit */
	if (m->nr_snap_zones &&
	    snap_zone_same(&m->snap_zones[m->nr_snap_zones - 1], &key))
		return &m->snap_zones[m->nr_snap_zones - 1];
	k = fv_rowidx_find(&m->snap_zone_index, m->snap_zones, &key,
			   &snap_zone_ops);
	if (k >= 0)
		return &m->snap_zones[k];
	grow((void **)&m->snap_zones, &p->snap_zones_cap, m->nr_snap_zones + 1,
	     sizeof(*m->snap_zones));
	m->snap_zones[m->nr_snap_zones++] = key;
	fv_rowidx_add(&m->snap_zone_index, m->snap_zones, m->nr_snap_zones,
		      &snap_zone_ops);
	return &m->snap_zones[m->nr_snap_zones - 1];
}

static void apply_snapshot(struct fv_model *m, const struct fv_event *ev,
			   uint64_t ts)
{
	struct fv_snap_zone *z = snap_zone(m, ev->snap.seq, ev->snap.nid,
					   ev->snap.zone, ts);

	if (ev->snap.phase == FV_SNAP_BEGIN) {
		z->have_begin = true;
		z->nr_begin = ev->snap.nr_blocks;
		z->gen_begin = ev->snap.gen;
	} else if (ev->snap.phase == FV_SNAP_END) {
		z->have_end = true;
		z->nr_end = ev->snap.nr_blocks;
		z->gen_end = ev->snap.gen;
	}
}

static void apply_lost(struct fv_model *m, const struct fv_event *ev,
		       uint64_t ts)
{
	struct model_priv *p = P(m);

	grow((void **)&m->lost, &p->lost_cap, m->nr_lost + 1, sizeof(*m->lost));
	m->lost[m->nr_lost++] = (struct fv_lost){
		.ts = ts, .prev_ts = ev->lost.prev_ts,
		.count = ev->lost.count, .cpu = ev->cpu,
	};
}

/* Did the snapshot of @ev already list block @i, in another zone? */
static bool listed_in_other_zone(const struct fv_model *m, long i,
				 const struct fv_event *ev)
{
	const struct blk_priv *bp = &P(m)->bp[i];
	const struct blk_rec *r;

	if (ev->state.seq == m->base_seq && (bp->flags & BLK_IN_BASE))
		r = &bp->base;
	else if ((bp->flags & BLK_SNAPPED) && bp->snap_seq == ev->state.seq)
		r = &bp->snap;
	else
		return false;
	return r->nid != ev->state.nid || r->zone != ev->state.zone;
}

static void note_straddle(struct fv_model *m, long i, const struct fv_event *ev,
			  uint64_t ts)
{
	if (!m->nr_straddles++)
		m->straddle = (struct fv_straddle){
			.pfn = m->blocks[i].pfn, .ts = ts, .seq = ev->state.seq,
			.nid = { m->blocks[i].nid, ev->state.nid },
			.zone = { m->blocks[i].zone, ev->state.zone },
		};
}

static int apply_state(struct fv_model *m, const struct fv_event *ev,
		       uint64_t ts)
{
	struct model_priv *p = P(m);
	uint8_t mt = ev->state.mt < FV_MT_NR ? ev->state.mt : FV_MT_UNKNOWN;
	bool gen = ev->flags & FV_EVF_GEN;
	struct blk_rec rec = { .gen = ev->state.gen, .nid = ev->state.nid,
			       .zone = ev->state.zone };
	struct blk_priv *bp;
	long i;

	if (gen)
		m->have_gen = true;
	if (!m->have_baseline) {
		m->have_baseline = true;
		m->base_seq = ev->state.seq;
		m->base_ts = ts;
		m->last_seq = ev->state.seq;
		m->nr_snapshots = 1;
	} else if (ev->state.seq != m->last_seq) {
		m->last_seq = ev->state.seq;
		m->nr_snapshots++;
	}
	m->last_snap_ts = ts;

	snap_zone(m, ev->state.seq, ev->state.nid, ev->state.zone, ts)->nr_states++;
	i = fv_model_find_block(m, ev->state.pfn);
	if (i < 0) {
		i = add_block(m, ev->state.pfn, ev->state.nid, ev->state.zone, mt);
		if (i < 0)
			return -1;
		if (gen) {
			p->bp[i].flags |= BLK_START_GEN;
			p->bp[i].start = rec;
		}
	}
	if (listed_in_other_zone(m, i, ev))
		note_straddle(m, i, ev, ts);
	place_block(m, i, ev->state.nid, ev->state.zone);
	m->blocks[i].free_pages = ev->state.free_pages;
	m->blocks[i].largest_order = ev->state.largest_order;
	if (m->keep_space_times) {
		grow((void **)&m->states, &p->states_cap, m->nr_states + 1,
		     sizeof(*m->states));
		m->states[m->nr_states++] = (struct fv_state_rec){
			.ts = ts, .block = i, .seq = ev->state.seq,
			.free_pages = ev->state.free_pages,
			.largest_order = ev->state.largest_order,
		};
	}
	bp = &p->bp[i];
	if (ev->state.seq == m->base_seq && !(bp->flags & BLK_IN_BASE)) {
		bp->flags |= BLK_IN_BASE | (gen ? BLK_BASE_GEN : 0);
		bp->base = rec;
		bp->replay_mt = mt;
		bp->flips_replayed = 0;
		bp->base_free = ev->state.free_pages;
		bp->base_largest = ev->state.largest_order;
		m->blocks[i].mt_base = mt;
	} else {
		bp->flags = (bp->flags & ~BLK_SNAP_GEN) | BLK_SNAPPED |
			    (gen ? BLK_SNAP_GEN : 0);
		bp->snap = rec;
		bp->snap_seq = ev->state.seq;
		bp->snap_mt = mt;
		bp->replay_at_snap = bp->replay_mt;
		bp->replayed_at_snap = bp->flips_replayed;
	}
	return 0;
}

/*
 * A block enters the map (memory online) where the event says.  Back in
 * the zone it left, it is the same entry; in another zone it is a new
 * entry there (absent before), and the old one stays in its zone, off
 * the map since the offline: each zone's map shows the block while it
 * was in that zone.  Without an offline seen, the entry just moves.
 */
static long online_block(struct fv_model *m, long i, const struct fv_event *ev)
{
	struct model_priv *p = P(m);
	uint8_t zone = ev->flip.zone < FV_ZONE_NR ? ev->flip.zone : FV_ZONE_UNKNOWN;
	long k;

	if (m->blocks[i].nid == ev->flip.nid && m->blocks[i].zone == zone)
		return i;
	if (m->blocks[i].mt != FV_MT_NONE) {
		place_block(m, i, ev->flip.nid, zone);
		return i;
	}
	k = add_block(m, ev->flip.pfn, ev->flip.nid, zone, FV_MT_NONE);
	if (k >= 0)
		p->bp[i].flags |= BLK_GONE;	/* the pfn now finds k */
	return k;
}

static int apply_flip(struct fv_model *m, const struct fv_event *ev,
		      uint64_t ts)
{
	struct model_priv *p = P(m);
	uint8_t old_mt = ev->flip.old_mt < FV_MT_NR ? ev->flip.old_mt : FV_MT_UNKNOWN;
	uint8_t new_mt = ev->flip.new_mt < FV_MT_NR ? ev->flip.new_mt : FV_MT_UNKNOWN;
	uint8_t reason = ev->flip.reason < FV_FLIP_NR ? ev->flip.reason : FV_FLIP_UNKNOWN;
	bool gen = ev->flags & FV_EVF_GEN;
	struct fv_flip_rec *f;
	struct fv_bucket *bk;
	struct blk_priv *bp;
	long i;

	i = find_or_add(m, ev->flip.pfn, ev->flip.nid, ev->flip.zone, old_mt);
	if (i >= 0 && reason == FV_FLIP_ONLINE)
		i = online_block(m, i, ev);
	if (i < 0)
		return -1;
	grow((void **)&m->flips, &p->flips_cap, m->nr_flips + 1,
	     sizeof(*m->flips));
	if (gen)
		m->have_gen = true;
	bp = &p->bp[i];
	f = &m->flips[m->nr_flips++];
	*f = (struct fv_flip_rec){
		.ts = ts, .gen = ev->flip.gen, .block = i, .nid = ev->flip.nid,
		.zone = ev->flip.zone, .old_mt = old_mt, .new_mt = new_mt,
		.reason = reason, .flags = gen ? FV_FLIP_GEN : 0,
	};
	if (gen && (bp->flags & BLK_START_GEN) &&
	    same_zone(&bp->start, ev->flip.nid, ev->flip.zone) &&
	    ev->flip.gen <= bp->start.gen) {
		/* recorded after the snapshot record that already has it */
		f->flags |= FV_FLIP_BEFORE;
	} else {
		if (m->blocks[i].mt != old_mt)
			m->flip_old_mismatch++;
		set_type(m, i, new_mt);
	}
	m->blocks[i].n.flips++;
	bp->replay_mt = new_mt;
	bp->flips_replayed++;
	hist_push(m, i, ts, FV_EV_FLIP, old_mt, new_mt, reason, 0);
	bk = bucket_for(m, ts);
	bk->flips++;
	return 0;
}

/*
 * A claim try_to_steal_block() declined (taken=0): nothing was taken,
 * no type changed, no steal to count.  It names its block and the
 * block's type as a steal does: a block no snapshot covered enters the
 * table.
 */
static int apply_declined(struct fv_model *m, const struct fv_event *ev,
			  uint64_t ts)
{
	bucket_for(m, ts);
	return find_or_add(m, ev->steal.block_pfn, ev->steal.nid,
			   ev->steal.zone, ev->steal.block_mt) < 0 ? -1 : 0;
}

static int apply_steal(struct fv_model *m, const struct fv_event *ev,
		       uint64_t ts)
{
	struct fv_bucket *bk;
	long i;

	if (fv_ev_is_declined(ev))
		return apply_declined(m, ev, ts);
	bk = bucket_for(m, ts);
	bk->steals++;
	if (ev->steal.claimed)
		bk->claims++;
	if (ev->kind == FV_EV_STEAL)
		i = find_or_add(m, ev->steal.block_pfn, ev->steal.nid,
				ev->steal.zone, ev->steal.block_mt);
	else	/* stock kernels: a page, no zone to place new blocks in */
		i = fv_model_find_block(m, ev->steal.pfn);
	if (i < 0) {
		if (ev->kind == FV_EV_STEAL)
			return -1;
		m->unknown_blocks++;
		return 0;
	}
	m->blocks[i].n.steals++;
	if (ev->steal.claimed)
		m->blocks[i].n.claims++;
	if (m->keep_steal_times) {
		struct model_priv *p = P(m);

		grow((void **)&m->steal_recs, &p->steal_recs_cap,
		     m->nr_steal_recs + 1, sizeof(*m->steal_recs));
		m->steal_recs[m->nr_steal_recs++] =
			(struct fv_steal_rec){ .ts = ts, .block = i };
	}
	hist_push(m, i, ts, ev->kind, ev->steal.alloc_mt, ev->steal.block_mt,
		  ev->steal.claimed, ev->steal.order << 8 | ev->steal.fallback_order);
	return 0;
}

/*
 * The folio's failed attempt at retried_ts, counted a failure when it
 * came, was a retry: its bucket and block count it so.  Buckets merged
 * since still hold it (bucket_for() keeps earlier times' counts).
 */
static void uncount_failure(struct fv_model *m, long i, uint64_t retried_ts)
{
	struct fv_bucket *bk;

	bk = &m->buckets[(retried_ts - m->first_ts) / m->bucket_ns];
	bk->migrate_fail--;
	bk->migrate_retry++;
	/* a block that entered the map since then did not count it */
	if (i < 0 || !m->blocks[i].n.migrate_fail)
		return;
	m->blocks[i].n.migrate_fail--;
	m->blocks[i].n.migrate_retry++;
}

/*
 * One attempt of one folio: the chart and the source block count it, a
 * failure as final until the folio's next attempt in the call makes it
 * a retry (migcall.h).
 */
static void apply_attempt(struct fv_model *m, const struct fv_event *ev,
			  struct fv_bucket *bk, uint64_t ts)
{
	long i = fv_model_find_block(m, ev->migrate.src_pfn);
	bool ok = !fv_mig_failed(ev);
	uint64_t retried_ts;

	if (fv_migcall_attempt(&P(m)->calls, ev, ts, &retried_ts))
		uncount_failure(m, i, retried_ts);
	if (ok)
		bk->migrate_ok++;
	else
		bk->migrate_fail++;
	if (i < 0) {
		m->unknown_blocks++;
		return;
	}
	if (ok)
		m->blocks[i].n.migrate_ok++;
	else
		m->blocks[i].n.migrate_fail++;
	/* the block details show migrate_folio_failed as a failed attempt */
	hist_push(m, i, ts, FV_EV_MIGRATE, ev->migrate.mode, ev->migrate.reason,
		  ev->migrate.pass, ev->migrate.result);
}

/*
 * migrate_folio, migrate_folio_failed, mm_migrate_pages, migrate_pass,
 * as the capture's form says (migform.h): a call's or a pass's pages go
 * to the chart only, as they name no block.
 */
static void apply_migration(struct fv_model *m, const struct fv_event *ev,
			    uint64_t ts)
{
	struct fv_bucket *bk = bucket_for(m, ts);
	enum fv_mig_role role = fv_mig_role(&m->mig, ev);
	uint64_t ok, failed;

	if (ev->kind == FV_EV_MIGRATE_SUM)
		fv_model_end_migrate_call(m, ev->msum.pid);
	switch (role) {
	case FV_MIG_ATTEMPT:
		apply_attempt(m, ev, bk, ts);
		break;
	case FV_MIG_TOTALS:
	case FV_MIG_OK_TOTALS:
		fv_mig_pages(ev, &ok, &failed);
		bk->migrate_ok += ok;
		if (role == FV_MIG_TOTALS)
			bk->migrate_fail += failed;
		break;
	default:
		break;
	}
}

/*
 * A census record: what the block's pages are.  A block no snapshot
 * covered yet enters the map with the census's type, as it would with
 * a flip's old type.
 */
static int apply_census(struct fv_model *m, const struct fv_event *ev,
			uint64_t ts)
{
	struct model_priv *p = P(m);
	uint8_t mt = ev->census.mt < FV_MT_NR ? ev->census.mt : FV_MT_UNKNOWN;
	struct fv_census_rec *r;
	long i;

	bucket_for(m, ts);
	i = find_or_add(m, ev->census.pfn, ev->census.nid, ev->census.zone, mt);
	if (i < 0)
		return -1;
	if (!m->nr_census || ev->census.seq != p->last_census_seq) {
		m->nr_censuses++;
		/* a new census run: the older ones only for maps over time */
		if (!m->keep_space_times)
			m->nr_census = 0;
	}
	p->last_census_seq = ev->census.seq;
	grow((void **)&m->census, &p->census_cap, m->nr_census + 1,
	     sizeof(*m->census));
	r = &m->census[m->nr_census++];
	*r = (struct fv_census_rec){ .ts = ts, .block = i,
				     .seq = ev->census.seq, .mt = mt };
	memcpy(r->n, ev->census.n, sizeof(r->n));
	return 0;
}

/*
 * Whether the event of @ev's CPU before it was a flip of reason steal;
 * @ev is the CPU's last event now.  A claim flips its block(s) right
 * before its pageblock_steal, under zone->lock with interrupts off, so
 * no other event of its CPU comes between (a stack belongs to the event
 * before it).  One byte per CPU, set by steal flips only.
 */
static bool steal_flip_before(struct model_priv *p, const struct fv_event *ev)
{
	bool flip = ev->kind == FV_EV_FLIP && ev->flip.reason == FV_FLIP_STEAL;
	bool was;

	if (ev->kind == FV_EV_STACK || ev->cpu < 0 || ev->cpu >= FV_CPU_LIMIT)
		return false;
	if ((size_t)ev->cpu >= p->nr_cpus) {
		if (!flip)
			return false;
		grow((void **)&p->steal_flip, &p->cpus_cap, ev->cpu + 1, 1);
		memset(p->steal_flip + p->nr_cpus, 0, ev->cpu + 1 - p->nr_cpus);
		p->nr_cpus = ev->cpu + 1;
	}
	was = p->steal_flip[ev->cpu];
	p->steal_flip[ev->cpu] = flip;
	return was;
}

int fv_model_apply(struct fv_model *m, const struct fv_event *ev)
{
	struct model_priv *p = P(m);
	uint64_t ts = ev->ts;
	struct fv_bucket *bk;
	const char *why;
	bool after_flip;

	if (!p->started) {
		p->started = true;
		m->first_ts = m->last_ts = ts;
		m->nr_buckets_used = 1;
	}
	/* keep the flip history sorted whatever the input does */
	if (ts < m->last_ts) {
		m->out_of_order++;
		ts = m->last_ts;
	}
	m->last_ts = ts;
	if (ev->kind >= FV_EV_NR)
		return 0;
	m->nr_events[ev->kind]++;
	after_flip = steal_flip_before(p, ev);
	why = fv_event_impossible(ev, m->pageblock_order);
	if (!why && after_flip && fv_ev_is_declined(ev))
		why = "taken=0 right after a steal flip on its CPU (a declined claim changes no block's type)";
	if (why && !m->nr_impossible++) {
		m->impossible = *ev;
		m->impossible.ts = ts;
		m->impossible_why = why;
	}

	switch (ev->kind) {
	case FV_EV_STATE:
		bucket_for(m, ts);
		return apply_state(m, ev, ts);
	case FV_EV_FLIP:
		return apply_flip(m, ev, ts);
	case FV_EV_STEAL:
	case FV_EV_EXTFRAG:
		return apply_steal(m, ev, ts);
	case FV_EV_DRAIN:
		bk = bucket_for(m, ts);
		bk->drains++;
		bk->drained_pages += ev->drain.total;
		return 0;
	case FV_EV_MIGRATE:
	case FV_EV_MIGRATE_FAILED:
	case FV_EV_MIGRATE_SUM:
	case FV_EV_MIGRATE_PASS:
		apply_migration(m, ev, ts);
		return 0;
	case FV_EV_SNAPSHOT:
		bucket_for(m, ts);
		apply_snapshot(m, ev, ts);
		return 0;
	case FV_EV_LOST:
		apply_lost(m, ev, ts);
		return 0;
	case FV_EV_CENSUS:
		return apply_census(m, ev, ts);
	case FV_EV_STACK:	/* who did it: blame.c */
		return 0;
	case FV_EV_WMARK:
		grow((void **)&m->wmarks, &p->wmarks_cap, m->nr_wmarks + 1,
		     sizeof(*m->wmarks));
		m->wmarks[m->nr_wmarks++] = (struct fv_wmark_rec){
			.ts = ts, .w = ev->wmark };
		return 0;
	}
	return 0;
}

static int cmp_block_idx(const void *a, const void *b, void *arg)
{
	const struct fv_block *blocks = arg;
	const struct fv_block *x = &blocks[*(const uint32_t *)a];
	const struct fv_block *y = &blocks[*(const uint32_t *)b];

	if (x->nid != y->nid)
		return x->nid < y->nid ? -1 : 1;
	if (x->zone != y->zone)
		return x->zone < y->zone ? -1 : 1;
	if (x->pfn != y->pfn)
		return x->pfn < y->pfn ? -1 : 1;
	return 0;
}

/* Sorts the block table, renumbering everything that points into it. */
static void sort_blocks(struct fv_model *m)
{
	struct model_priv *p = P(m);
	size_t n = m->nr_blocks;
	uint32_t *order, *where;
	struct fv_block *blocks;
	struct blk_priv *bp;

	if (!n)
		return;
	order = xmalloc(n * sizeof(*order));
	where = xmalloc(n * sizeof(*where));
	blocks = xmalloc(n * sizeof(*blocks));
	bp = xmalloc(n * sizeof(*bp));
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof(*order), cmp_block_idx, m->blocks);
	for (size_t i = 0; i < n; i++) {
		size_t o = order[i];

		where[o] = i;
		blocks[i] = m->blocks[o];
		bp[i] = p->bp[o];
	}
	memcpy(m->blocks, blocks, n * sizeof(*blocks));
	memcpy(p->bp, bp, n * sizeof(*bp));
	for (size_t f = 0; f < m->nr_flips; f++)
		m->flips[f].block = where[m->flips[f].block];
	for (size_t k = 0; k < m->nr_states; k++)
		m->states[k].block = where[m->states[k].block];
	for (size_t k = 0; k < m->nr_census; k++)
		m->census[k].block = where[m->census[k].block];
	for (size_t k = 0; k < m->nr_steal_recs; k++)
		m->steal_recs[k].block = where[m->steal_recs[k].block];
	hash_rebuild(m, p->hcap ? p->hcap : 1024);
	free(order);
	free(where);
	free(blocks);
	free(bp);
}

static void build_zones(struct fv_model *m)
{
	size_t nr = 0;

	free(m->zones);
	m->zones = NULL;
	m->nr_zones = 0;
	for (size_t i = 0; i < m->nr_blocks; i++)
		if (!i || m->blocks[i].nid != m->blocks[i - 1].nid ||
		    m->blocks[i].zone != m->blocks[i - 1].zone)
			nr++;
	if (!nr)
		return;
	m->zones = xcalloc(nr, sizeof(*m->zones));
	for (size_t i = 0; i < m->nr_blocks; i++) {
		struct fv_zone *z;

		if (i && m->blocks[i].nid == m->blocks[i - 1].nid &&
		    m->blocks[i].zone == m->blocks[i - 1].zone) {
			m->zones[m->nr_zones - 1].nr++;
			continue;
		}
		z = &m->zones[m->nr_zones++];
		z->nid = m->blocks[i].nid;
		z->zone = m->blocks[i].zone;
		z->start_pfn = m->blocks[i].pfn;
		z->first = i;
		z->nr = 1;
	}
}

/*
 * Traces do not carry pageblock_order.  It is 9 on x86-64 with
 * CONFIG_HUGETLB_PAGE, but MAX_ORDER - 1 = 10 without: if every block
 * starts on a multiple of a larger power of two, and a snapshot covered
 * two or more, that is the order (of two neighbours, one is an odd
 * multiple).  Blocks further apart than FV_ORDER_MAX are not neighbours:
 * the order stays.
 */
static bool infer_pageblock_order(struct fv_model *m)
{
	const struct blk_priv *bp = P(m)->bp;
	unsigned int order = 63;
	size_t nr_base = 0;

	/* every block counts: two blocks must never fall into one */
	for (size_t i = 0; i < m->nr_blocks; i++) {
		if (bp[i].flags & BLK_IN_BASE)
			nr_base++;
		if (m->blocks[i].pfn &&
		    (unsigned int)__builtin_ctzll(m->blocks[i].pfn) < order)
			order = __builtin_ctzll(m->blocks[i].pfn);
	}
	if (nr_base < 2 || order <= m->pageblock_order ||
	    order > FV_ORDER_MAX)
		return false;
	m->pageblock_order = order;
	return true;
}

void fv_model_end_migrate_call(struct fv_model *m, int32_t pid)
{
	fv_migcall_end(&P(m)->calls, pid);
}

void fv_model_finish(struct fv_model *m)
{
	struct model_priv *p = P(m);

	/* the capture's end ends every call: what is pending is final */
	fv_migcall_free(&p->calls);
	/* the pfn index is keyed by block number: rebuild it for the order */
	if (!p->order_fixed && infer_pageblock_order(m) && p->hcap)
		hash_rebuild(m, p->hcap);
	if (p->started)
		snapshot_counts(m, p->cur_bucket);
	sort_blocks(m);
	build_zones(m);
}

/* First flip with ts > ts. */
static size_t flips_upto(const struct fv_model *m, uint64_t ts)
{
	size_t lo = 0, hi = m->nr_flips;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->flips[mid].ts <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void fv_model_types_at(const struct fv_model *m, uint64_t ts, uint8_t *mt)
{
	size_t end = flips_upto(m, ts);

	for (size_t i = 0; i < m->nr_blocks; i++)
		mt[i] = m->blocks[i].mt_start;
	for (size_t f = 0; f < end; f++)
		if (!(m->flips[f].flags & FV_FLIP_BEFORE))
			mt[m->flips[f].block] = m->flips[f].new_mt;
}

void fv_model_blocks_at(const struct fv_model *m, uint64_t ts,
			struct fv_block_at *out)
{
	for (size_t i = 0; i < m->nr_blocks; i++)
		out[i] = (struct fv_block_at){ .state = -1, .census = -1 };
	/* all three lists are in time order (fv_model_apply clamps ts) */
	for (size_t k = 0; k < m->nr_states && m->states[k].ts <= ts; k++)
		out[m->states[k].block].state = k;
	for (size_t k = 0; k < m->nr_census && m->census[k].ts <= ts; k++)
		out[m->census[k].block].census = k;
	for (size_t k = 0; k < m->nr_steal_recs && m->steal_recs[k].ts <= ts; k++)
		out[m->steal_recs[k].block].steals++;
}

void fv_model_count_types(const struct fv_model *m, bool at_base,
			  uint64_t count[FV_MT_NR])
{
	memset(count, 0, FV_MT_NR * sizeof(count[0]));
	for (size_t i = 0; i < m->nr_blocks; i++) {
		uint8_t t = at_base ? m->blocks[i].mt_base : m->blocks[i].mt;

		count[t < FV_MT_NR ? t : FV_MT_UNKNOWN]++;
	}
}

bool fv_model_block_free(const struct fv_model *m, size_t i, bool at_base,
			 uint32_t *free_pages, int8_t *largest_order)
{
	const struct blk_priv *bp = &P(m)->bp[i];

	if (at_base) {
		if (!(bp->flags & BLK_IN_BASE))
			return false;
		*free_pages = bp->base_free;
		*largest_order = bp->base_largest;
		return true;
	}
	if (!(bp->flags & (BLK_IN_BASE | BLK_SNAPPED)))
		return false;
	*free_pages = m->blocks[i].free_pages;
	*largest_order = m->blocks[i].largest_order;
	return true;
}

/*
 * ABI v2 replay of one block between its two snapshot records: a flip
 * is on top of a record iff its gen is above the record's (same zone;
 * gens are per zone).  Flips of one zone are applied in gen order, so
 * trace order does not matter there; a block that left the zone and
 * came back elsewhere (offline/online) changes zones in trace order.
 */
struct gen_replay {
	uint8_t mt;
	bool have_gen;			/* gen/nid/zone of the last flip applied */
	uint64_t gen;
	int32_t nid;
	uint8_t zone;
	uint32_t nr_flips;
};

static bool gen_rule(const struct blk_priv *bp)
{
	return (bp->flags & BLK_SNAP_GEN) &&
	       (!(bp->flags & BLK_IN_BASE) || (bp->flags & BLK_BASE_GEN));
}

static void gen_replay_flip(struct gen_replay *r, const struct blk_priv *bp,
			    const struct fv_flip_rec *f)
{
	if (!(f->flags & FV_FLIP_GEN))
		return;
	if ((bp->flags & BLK_IN_BASE) &&
	    same_zone(&bp->base, f->nid, f->zone) && f->gen <= bp->base.gen)
		return;		/* already in the first record */
	if (same_zone(&bp->snap, f->nid, f->zone) && f->gen > bp->snap.gen)
		return;		/* after the last record */
	r->nr_flips++;
	if (r->have_gen && r->nid == f->nid && r->zone == f->zone &&
	    f->gen < r->gen)
		return;		/* recorded late: a later flip is applied */
	r->mt = f->new_mt;
	r->have_gen = true;
	r->gen = f->gen;
	r->nid = f->nid;
	r->zone = f->zone;
}

int fv_model_check(const struct fv_model *m, struct fv_check *c,
		   struct fv_mismatch *out)
{
	const struct blk_priv *bp = P(m)->bp;
	struct gen_replay *gr = NULL;

	memset(c, 0, sizeof(*c));
	if (m->nr_snapshots < 2)
		return -1;
	if (m->have_gen) {
		gr = xcalloc(m->nr_blocks, sizeof(*gr));
		for (size_t i = 0; i < m->nr_blocks; i++)
			gr[i].mt = bp[i].flags & BLK_IN_BASE ? m->blocks[i].mt_base
							     : FV_MT_UNKNOWN;
		for (size_t f = 0; f < m->nr_flips; f++) {
			size_t i = m->flips[f].block;

			if (gen_rule(&bp[i]))
				gen_replay_flip(&gr[i], &bp[i], &m->flips[f]);
		}
	}
	for (size_t i = 0; i < m->nr_blocks; i++) {
		bool in_last = (bp[i].flags & BLK_SNAPPED) &&
			       bp[i].snap_seq == m->last_seq;
		uint8_t got = bp[i].replay_at_snap;
		uint32_t nr = bp[i].replayed_at_snap;

		if (!in_last) {
			/* an offline block is rightly not in the last one */
			if ((bp[i].flags & BLK_IN_BASE) &&
			    bp[i].replay_mt != FV_MT_NONE)
				c->nr_missing++;
			continue;
		}
		if (gr && gen_rule(&bp[i])) {
			got = gr[i].mt;
			nr = gr[i].nr_flips;
		}
		c->nr_compared++;
		c->nr_flips += nr;
		if (got == bp[i].snap_mt)
			continue;
		if (out)
			out[c->nr_mismatches] = (struct fv_mismatch){
				.block = i, .expected = bp[i].snap_mt,
				.got = got,
			};
		c->nr_mismatches++;
	}
	free(gr);
	return 0;
}

void fv_model_set_pageblock_order(struct fv_model *m, unsigned int order)
{
	m->pageblock_order = order;
	P(m)->order_fixed = true;
}
