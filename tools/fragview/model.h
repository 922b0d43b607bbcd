/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model.h - pure model of pageblock state over time.
 *
 * No I/O here: the trace module (trace.c, the only user of libtracecmd)
 * and the dump parser turn their input into struct fv_event records in
 * time order and feed them to fv_model_apply().  The model keeps what the
 * views need and nothing that grows with the raw number of events beyond
 * the histories a map replays to any time (flips; snapshot and census
 * records; steal times for maps; compaction scanner passes, failed
 * migrations and high-order allocations):
 *
 *   - the block table (one struct fv_block per pageblock seen), sorted by
 *     (nid, zone, pfn), with the type at the baseline snapshot, the current
 *     type and per-block counters;
 *   - the flip history, so the map can be replayed exactly to any time;
 *     kept always: besides map --at and the HTML slider, the check's gen
 *     replay and the gen-gap report (integrity.c) of every command read it;
 *   - with keep_space_times (maps of free space, orders or pollution, and
 *     the HTML page) the free space of every pageblock_state record and
 *     every census record, and with keep_steal_times (maps) every steal's
 *     time, so map --color can show each block's latest at or before any
 *     time (fv_model_blocks_at()); without keep_space_times only the
 *     latest census run (the stats' census figures) and no state record,
 *     so that memory stays flat in events;
 *   - with keep_hist only (the HTML block details), a bounded ring of
 *     recent events for each block that has any;
 *   - time-bucketed counters for the charts (fixed number of buckets,
 *     widened by merging pairs when the capture outgrows them);
 *   - not the compaction runs: compaction.c keeps those, fed by the
 *     capture reader (capture.c) like the statistics and blame, and
 *     m->compact points to them for the renderers (NULL: none).
 *
 * All enums below are fragview's canonical values; the trace module maps
 * the kernel's config-dependent numbers to them by the symbolic names in
 * each event's print format (see tracepoints/README.md).
 */
#ifndef FRAGVIEW_MODEL_H
#define FRAGVIEW_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rowidx.h"

enum fv_mt {
	FV_MT_UNMOVABLE,
	FV_MT_MOVABLE,
	FV_MT_RECLAIMABLE,
	FV_MT_HIGHATOMIC,
	FV_MT_CMA,
	FV_MT_ISOLATE,
	FV_MT_UNKNOWN,		/* not seen yet (no snapshot covers it) */
	FV_MT_NONE,		/* not in the map: offline (ABI v2 "none") */
	FV_MT_NR,
};

enum fv_zone_type {
	FV_ZONE_DMA, FV_ZONE_DMA32, FV_ZONE_NORMAL, FV_ZONE_MOVABLE,
	FV_ZONE_DEVICE, FV_ZONE_UNKNOWN, FV_ZONE_NR,
};

enum fv_flip_reason {
	FV_FLIP_STEAL, FV_FLIP_HIGHATOMIC_RESERVE, FV_FLIP_HIGHATOMIC_UNRESERVE,
	FV_FLIP_ISOLATE, FV_FLIP_UNISOLATE, FV_FLIP_CMA, FV_FLIP_ISOLATE_FREE,
	FV_FLIP_INIT, FV_FLIP_ONLINE, FV_FLIP_OFFLINE,
	FV_FLIP_MERGE,		/* 6.12 only: __free_one_page() merging blocks */
	FV_FLIP_UNKNOWN, FV_FLIP_NR,
};

enum fv_drain_reason {
	FV_DRAIN_FREE_HIGH, FV_DRAIN_VMSTAT, FV_DRAIN_LOCAL, FV_DRAIN_ALL,
	FV_DRAIN_CPU_DEAD,
	FV_DRAIN_DECAY,		/* 6.12 only: decay_pcp_high() */
	FV_DRAIN_UNKNOWN, FV_DRAIN_NR,
};

enum fv_migrate_mode {
	FV_MODE_ASYNC, FV_MODE_SYNC_LIGHT, FV_MODE_SYNC,
	FV_MODE_SYNC_NO_COPY,	/* 6.1 only */
	FV_MODE_UNKNOWN, FV_MODE_NR,
};

enum fv_migrate_reason {
	FV_MR_COMPACTION, FV_MR_MEMORY_FAILURE, FV_MR_MEMORY_HOTPLUG,
	FV_MR_SYSCALL, FV_MR_MEMPOLICY_MBIND, FV_MR_NUMA_MISPLACED,
	FV_MR_CONTIG_RANGE, FV_MR_LONGTERM_PIN, FV_MR_DEMOTION,
	FV_MR_DAMON,		/* 6.12 only */
	FV_MR_UNKNOWN, FV_MR_NR,
};

/*
 * Name tables: index by the enums above; parse returns *_UNKNOWN.  They
 * hold the union of the names the supported kernels print (6.1, 6.12:
 * tracepoints/README.md), so a capture of either reads alike.
 */
const char *fv_mt_name(enum fv_mt mt);		/* "Unmovable", ... "unknown", "none" */
enum fv_mt fv_mt_parse(const char *name);	/* kernel names, case-insensitive */
const char *fv_zone_name(enum fv_zone_type z);	/* "DMA", "DMA32", "Normal", ... */
enum fv_zone_type fv_zone_parse(const char *name);
const char *fv_flip_reason_name(enum fv_flip_reason r);	/* "steal", ... */
enum fv_flip_reason fv_flip_reason_parse(const char *name);
const char *fv_drain_reason_name(enum fv_drain_reason r);
enum fv_drain_reason fv_drain_reason_parse(const char *name);
const char *fv_mode_name(enum fv_migrate_mode m);	/* "MIGRATE_ASYNC", ... */
enum fv_migrate_mode fv_mode_parse(const char *name);
const char *fv_mr_name(enum fv_migrate_reason r);	/* "compaction", ... */
enum fv_migrate_reason fv_mr_parse(const char *name);

enum fv_ev_kind {
	FV_EV_STATE,		/* mobility:pageblock_state */
	FV_EV_FLIP,		/* mobility:pageblock_flip */
	FV_EV_STEAL,		/* mobility:pageblock_steal */
	FV_EV_DRAIN,		/* mobility:pcp_drain */
	FV_EV_MIGRATE,		/* mobility:migrate_folio */
	FV_EV_EXTFRAG,		/* kmem:mm_page_alloc_extfrag (stock kernels) */
	FV_EV_MIGRATE_SUM,	/* migrate:mm_migrate_pages (stock kernels) */
	FV_EV_SNAPSHOT,		/* mobility:pageblock_snapshot (ABI v2) */
	FV_EV_LOST,		/* the ring buffer dropped events (reader) */
	FV_EV_CENSUS,		/* mobility:pageblock_census */
	FV_EV_STACK,		/* ftrace:kernel_stack right after a steal,
				 * flip or extfrag on its CPU (blame only) */
	/* stock compaction and allocation events: compaction.h */
	FV_EV_CSCAN_MIGRATE,	/* compaction:mm_compaction_isolate_migratepages */
	FV_EV_CSCAN_FREE,	/* compaction:mm_compaction_isolate_freepages */
	FV_EV_CBEGIN,		/* compaction:mm_compaction_begin */
	FV_EV_CEND,		/* compaction:mm_compaction_end */
	FV_EV_CMIGRATED,	/* compaction:mm_compaction_migratepages */
	FV_EV_CSUITABLE,	/* compaction:mm_compaction_suitable */
	FV_EV_CFINISHED,	/* compaction:mm_compaction_finished */
	FV_EV_CDEFERRED,	/* compaction:mm_compaction_deferred */
	FV_EV_CTRY,		/* compaction:mm_compaction_try_to_compact_pages */
	FV_EV_ALLOC,		/* kmem:mm_page_alloc (pfn -1: failed) */
	FV_EV_CSCAN_FAST,	/* compaction:mm_compaction_fast_isolate_freepages */
	FV_EV_WMARK,		/* ftrace:print "fragview_zone: ..." (a zone's
				 * free pages and watermarks, /proc/zoneinfo) */
	/* series v3 patch 11, the default recording (migform.h) */
	FV_EV_MIGRATE_FAILED,	/* mobility:migrate_folio_failed: the record
				 * of migrate_folio, failed attempts only */
	FV_EV_MIGRATE_PASS,	/* mobility:migrate_pass */
	FV_EV_NR,
};
/* compaction.h's kinds: FV_EV_FIRST_COMPACT up to FV_EV_END_COMPACT - 1 */
#define FV_EV_FIRST_COMPACT FV_EV_CSCAN_MIGRATE
#define FV_EV_END_COMPACT FV_EV_MIGRATE_FAILED
/* the reader sends which formats a capture has as a 32-bit mask (wire.h) */
_Static_assert(FV_EV_NR <= 32, "enum fv_ev_kind fits the wire's have mask");
const char *fv_ev_kind_name(enum fv_ev_kind k);	/* "state", "flip", ... */

/* include/trace/events/mmflags.h COMPACTION_STATUS, by name */
enum fv_compact_status {
	FV_CS_SKIPPED, FV_CS_DEFERRED, FV_CS_CONTINUE, FV_CS_SUCCESS,
	FV_CS_PARTIAL_SKIPPED, FV_CS_COMPLETE, FV_CS_NO_SUITABLE_PAGE,
	FV_CS_NOT_SUITABLE_ZONE, FV_CS_CONTENDED, FV_CS_UNKNOWN, FV_CS_NR,
};
const char *fv_cstatus_name(enum fv_compact_status s);	/* "skipped", ... */
enum fv_compact_status fv_cstatus_parse(const char *name);

enum fv_snap_phase { FV_SNAP_BEGIN, FV_SNAP_END, FV_SNAP_UNKNOWN, FV_SNAP_NR };

/*
 * The retry loop of migrate_pages() a migrate_pass ends a pass of, by the
 * names of its stage table (tracepoints/migrate_pass.md): hugetlb on both
 * bases, unmap_move on 6.1, unmap and move on 6.12.
 */
enum fv_mpass_stage {
	FV_STAGE_HUGETLB, FV_STAGE_UNMAP_MOVE, FV_STAGE_UNMAP, FV_STAGE_MOVE,
	FV_STAGE_UNKNOWN, FV_STAGE_NR,
};
const char *fv_stage_name(enum fv_mpass_stage s);	/* "hugetlb", ... */
enum fv_mpass_stage fv_stage_parse(const char *name);

const char *fv_snap_phase_name(enum fv_snap_phase p);	/* "begin", "end" */
enum fv_snap_phase fv_snap_phase_parse(const char *name);

/*
 * The counts of a mobility:pageblock_census record, in its field order
 * (tracepoints/pageblock_census.md).  All but FV_CN_FREE_CHUNKS are
 * pages; those eleven add up to the block's pages inside the zone.
 * FV_CN_HUGETLB is 0 in a series v2 capture, which has no such field
 * and counts hugetlb pages as kernel or free_pcp.
 */
enum fv_census_count {
	FV_CN_FREE, FV_CN_FREE_CHUNKS, FV_CN_LRU, FV_CN_MOVABLE_OPS,
	FV_CN_SLAB_RECLAIMABLE, FV_CN_SLAB_UNMOVABLE, FV_CN_PGTABLE,
	FV_CN_KERNEL, FV_CN_FREE_PCP, FV_CN_RESERVED, FV_CN_OFFLINE,
	FV_CN_HUGETLB, FV_CN_NR,
};
const char *fv_census_count_name(enum fv_census_count c);	/* "free", ... */

/* fv_event.flags */
#define FV_EVF_GEN	1	/* state/flip: gen is valid (ABI v2) */

/*
 * A CPU number at or above this is a damaged capture, not a machine
 * (Linux's NR_CPUS is at most 8192): the reader stops with an error
 * rather than grow its per-CPU state that far, so every fv_event.cpu is
 * below it and per-CPU state elsewhere (blame, --cpu) is sized by it.
 */
#define FV_CPU_LIMIT (1 << 16)

/*
 * A zone's free pages and watermarks as /proc/zoneinfo printed them when
 * the recorder wrote them to trace_marker (README.md, "Recording"): the
 * kernel has no event with them.  Page counts saturate at 2^32 - 1.
 */
struct fv_wmark {
	uint32_t free, min, low, high, boost, managed;
	int32_t nid;
	uint8_t zone;			/* enum fv_zone_type */
};

/*
 * One decoded event, canonical values only: the one record every part
 * of fragview shares, and a binary format of its own (README.md, "The
 * event record").
 *
 * - The reader child sends events to the parent as they are in memory,
 *   WIRE_BATCH of them per WIRE_EVENTS message (wire.h): both sides are
 *   the same executable, so the layout is the host's, never on disk.
 * - The fuzzer's raw-event entry point (tests/fuzz_trace.c, input byte
 *   2) and its seed tests/fuzz-seeds/events.bin take the same bytes;
 *   tests/make-fuzz-seeds.py packs them by the layout below (x86-64).
 * - 56 bytes: ts at 0, cpu at 8, kind at 12, flags at 13, the union at
 *   16 (40 bytes: a census record's counts are 16 bits to fit).  The
 *   asserts after the struct hold it there.
 * - enum fv_ev_kind only grows at its end (FV_EV_CSCAN_FAST came after
 *   FV_EV_ALLOC), so seeds keep their meaning; wire_decode() refuses a
 *   kind >= FV_EV_NR and wire_sanitize() makes a steal's two bools
 *   canonical.
 * - The parent trusts no other field: every consumer clamps enums
 *   (zone, migratetype, reason) and checks pfns against known blocks.
 */
struct fv_event {
	uint64_t ts;			/* ns, trace clock */
	int32_t cpu;
	uint8_t kind;			/* enum fv_ev_kind */
	uint8_t flags;			/* FV_EVF_* */
	union {
		struct {		/* FV_EV_STATE */
			uint64_t pfn, gen;
			uint32_t seq, free_pages;
			int32_t nid;
			uint8_t zone, mt;
			int8_t largest_order;	/* -1: no free page */
		} state;
		struct {		/* FV_EV_FLIP */
			uint64_t pfn, caller, gen;
			int32_t nid;
			uint8_t zone, old_mt, new_mt, reason;
			int32_t pid;		/* common_pid: who was running */
		} flip;
		struct {		/* FV_EV_SNAPSHOT: a zone's begin or end */
			uint64_t start_pfn, end_pfn, gen;
			uint32_t seq, nr_blocks;
			int32_t nid;
			uint8_t zone, phase;	/* enum fv_snap_phase */
		} snap;
		struct {		/* FV_EV_LOST: before this CPU's record at ts */
			int64_t count;		/* events dropped, -1: unknown */
			uint64_t prev_ts;	/* the CPU's record before, 0: none */
		} lost;
		struct {		/* FV_EV_STEAL and FV_EV_EXTFRAG */
			uint64_t pfn, block_pfn;	/* EXTFRAG: the model uses pfn */
			int32_t nid, free_moved, alike;	/* -1: unknown (EXTFRAG) */
			uint8_t zone, order, fallback_order, alloc_mt, block_mt;
			bool claimed;
			/*
			 * The kernel's taken=0 (series v3 patch 12, 6.12):
			 * try_to_steal_block() declined to claim the block
			 * and took nothing: no steal (fv_ev_is_steal()).
			 * Kept negated so that a zeroed event, a capture
			 * older than the field and the stock extfrag are
			 * the steals they always were.
			 */
			bool declined;
			int32_t pid;		/* common_pid: who was running */
		} steal;
		struct {		/* FV_EV_DRAIN */
			int32_t nid;
			uint32_t nr[4];		/* Unmovable, Movable, Reclaimable,
						 * high order (v2, any type) */
			uint32_t total;
			uint8_t zone, reason;
		} drain;
		struct {		/* FV_EV_MIGRATE, FV_EV_MIGRATE_FAILED */
			uint64_t src_pfn, dst_pfn;
			int32_t result;		/* 0 or -errno */
			int32_t pid;		/* common_pid: the call's task */
			uint8_t order, mode, reason, pass, src_mt, dst_mt;
		} migrate;
		struct {		/* FV_EV_STACK */
			uint64_t of_ts;		/* the event it belongs to: */
			uint32_t id;		/* the stack, as the reader
						 * defined it (trace.h) */
			uint8_t of_kind;	/* ... its ts and kind */
		} stack;
		struct {		/* FV_EV_MIGRATE_SUM */
			uint64_t succeeded, failed;
			int32_t pid;		/* common_pid: ends its call */
			uint8_t mode, reason;
		} msum;
		struct {		/* FV_EV_CENSUS: what one block's pages are */
			uint64_t pfn;
			uint32_t seq;
			/*
			 * 16 bits keep struct fv_event at 56 bytes: a node
			 * number is below MAX_NUMNODES (2^10 on x86-64); a
			 * block has 2^pageblock_order pages, 2^13 at most on
			 * any architecture.  The reader saturates at 65535
			 * (a nid of -1 or above 32767 reads as -1).
			 */
			int16_t nid;
			uint16_t n[FV_CN_NR];	/* enum fv_census_count */
			uint8_t zone, mt;
		} census;
		struct {		/* FV_EV_CSCAN_MIGRATE, _FREE, _FAST */
			uint64_t start_pfn, end_pfn, nr_scanned, nr_taken;
			int32_t pid;
		} cscan;
		struct {		/* FV_EV_CBEGIN, FV_EV_CEND */
			uint64_t zone_start, migrate_pfn, free_pfn, zone_end;
			int32_t pid;
			uint8_t sync, status;	/* END: enum fv_compact_status */
		} crun;
		struct {		/* FV_EV_CMIGRATED */
			uint64_t nr_migrated, nr_failed;
			int32_t pid;
		} cmig;
		struct {		/* FV_EV_CSUITABLE, _CFINISHED, _CDEFERRED,
					 * FV_EV_CTRY (order, prio only) */
			int32_t nid, order, pid, prio;
			uint8_t zone, ret;	/* ret: enum fv_compact_status */
		} czone;
		struct {		/* FV_EV_ALLOC */
			uint64_t pfn, gfp;	/* pfn: -1 (page NULL): failed */
			int32_t pid, order;
			uint8_t mt;
		} alloc;
		struct fv_wmark wmark;	/* FV_EV_WMARK */
		struct {		/* FV_EV_MIGRATE_PASS: base pages */
			uint32_t nr_succeeded, nr_failed, nr_retry;
			uint8_t stage;		/* enum fv_mpass_stage */
			uint8_t pass, mode, reason;
		} mpass;
	};
};
_Static_assert(sizeof(struct fv_event) == 56, "the wire and seed layout");
_Static_assert(offsetof(struct fv_event, cpu) == 8 &&
	       offsetof(struct fv_event, kind) == 12 &&
	       offsetof(struct fv_event, flags) == 13 &&
	       offsetof(struct fv_event, state) == 16,
	       "the wire and seed layout");

/*
 * A fallback taken (pageblock_steal with taken=1, or an extfrag): what
 * every count of steals counts.  A declined claim is none.
 */
static inline bool fv_ev_is_steal(const struct fv_event *ev)
{
	return (ev->kind == FV_EV_STEAL && !ev->steal.declined) ||
	       ev->kind == FV_EV_EXTFRAG;
}

/* A claim try_to_steal_block() declined (pageblock_steal taken=0). */
static inline bool fv_ev_is_declined(const struct fv_event *ev)
{
	return ev->kind == FV_EV_STEAL && ev->steal.declined;
}

/*
 * The migration formats a capture holds, which decide what of its
 * migration events counts (migform.h).  All false: every event counts by
 * its own kind (a model fed by hand).
 */
struct fv_migform {
	bool folio;		/* mobility:migrate_folio */
	bool failed;		/* mobility:migrate_folio_failed */
	bool sum;		/* migrate:mm_migrate_pages */
	bool pass;		/* mobility:migrate_pass */
};

/* Counters a block keeps for the whole capture. */
struct fv_block_counts {
	uint32_t steals;		/* steals that took pages from this block */
	uint32_t claims;		/* ... of which claimed the block */
	uint32_t flips;
	uint32_t migrate_ok;		/* migrate_folio with src in this block, result 0
					 * (not measured: fv_migform_ok_unrecorded()) */
	uint32_t migrate_fail;		/* ... failed: a folio's last attempt of its
					 * call (migcall.h), result != 0, or its
					 * last migrate_folio_failed */
	uint32_t migrate_retry;		/* failed attempts the folio's next
					 * attempt in the call retried */
};

struct fv_block {
	uint64_t pfn;			/* first pfn of the block */
	int32_t nid;
	uint8_t zone;			/* enum fv_zone_type */
	uint8_t mt;			/* type now (after all applied events) */
	uint8_t mt_base;		/* type at the baseline (first snapshot) */
	uint8_t mt_start;		/* earliest known type, before any flip:
					 * what fv_model_types_at() replays from */
	int8_t largest_order;		/* from the latest snapshot, -1 unknown */
	uint32_t free_pages;		/* from the latest snapshot */
	struct fv_block_counts n;
};

/* A zone as laid out in maps: a run of blocks in the block table. */
struct fv_zone {
	int32_t nid;
	uint8_t zone;			/* enum fv_zone_type */
	uint64_t start_pfn;		/* first block's pfn */
	size_t first, nr;		/* index range in the block table */
};

/* fv_flip_rec.flags */
#define FV_FLIP_GEN	1	/* gen is valid */
#define FV_FLIP_BEFORE	2	/* already in the block's first snapshot
				 * record (gen <= its gen): not replayed */

/* One entry of the replay history: every flip, in time order. */
struct fv_flip_rec {
	uint64_t ts;
	uint64_t gen;			/* zone generation after the flip (v2) */
	uint32_t block;			/* index into the block table */
	int32_t nid;
	uint8_t zone;
	uint8_t old_mt, new_mt, reason;
	uint8_t flags;			/* FV_FLIP_* */
};

/* A ring-buffer overrun: the reader saw missed events on a CPU. */
struct fv_lost {
	uint64_t ts;			/* first record after the drop */
	uint64_t prev_ts;		/* the CPU's record before it, 0: none */
	int64_t count;			/* events dropped, -1: unknown */
	int32_t cpu;
};

/* One zone of one snapshot (seq): pageblock_snapshot begin/end, states. */
struct fv_snap_zone {
	uint32_t seq;
	int32_t nid;
	uint8_t zone;
	bool have_begin, have_end;
	uint32_t nr_begin, nr_end;	/* nr_blocks of begin and end */
	uint32_t nr_states;		/* pageblock_state events seen */
	uint64_t gen_begin, gen_end;
	uint64_t ts;			/* first event of the zone's snapshot */
};

#define FV_BLOCK_HIST 16		/* recent events kept per block */
struct fv_hist_rec {
	uint64_t ts;
	uint8_t kind;			/* enum fv_ev_kind */
	uint8_t a, b, c;		/* flip: old,new,reason; steal: alloc_mt,block_mt,claimed;
					 * migrate: mode,reason,pass */
	int32_t v;			/* migrate: result; steal: order<<8|fallback_order */
};

/*
 * What the maps colour blocks by besides their type (map --color), kept
 * in time order like the flips, so the map at any time can use the
 * latest record at or before it.  Block numbers follow the sorted table.
 */
struct fv_state_rec {		/* a pageblock_state record's free space */
	uint64_t ts;
	uint32_t block, seq;
	uint32_t free_pages;
	int8_t largest_order;		/* -1: no free page */
};

struct fv_census_rec {		/* a pageblock_census record */
	uint64_t ts;
	uint32_t block, seq;
	uint16_t n[FV_CN_NR];		/* enum fv_census_count */
	uint8_t mt;			/* the block's type as the census saw it */
};

struct fv_wmark_rec {		/* a zone's watermarks at ts */
	uint64_t ts;
	struct fv_wmark w;
};

struct fv_steal_rec {		/* a steal from the block (keep_steal_times) */
	uint64_t ts;
	uint32_t block;
};

/*
 * The largest pageblock_order, and largest free order, fragview reads.
 * pageblock_order is at most MAX_PAGE_ORDER (since 6.4, "mm: enforce
 * pageblock_order < MAX_ORDER"; 6.12 include/linux/pageblock-flags.h:
 * HUGETLB_PAGE_ORDER capped at MAX_PAGE_ORDER, or MAX_PAGE_ORDER without
 * hugetlb), and MAX_PAGE_ORDER is 10 unless the architecture forces it
 * (CONFIG_ARCH_FORCE_MAX_ORDER), never above SECTION_SIZE_BITS -
 * PAGE_SHIFT (include/linux/mmzone.h).  x86 has 9 (10 without
 * CONFIG_HUGETLB_PAGE), arm64 with 64K pages 13, the largest in tree.
 * 16 leaves room; an order above it is not a kernel's and is refused.
 */
#define FV_ORDER_MAX 16

#define FV_NBUCKETS 512			/* time buckets for the charts */
struct fv_bucket {
	uint32_t steals, claims, flips, drains, drained_pages;
	/*
	 * attempts per folio, or pages per call or pass (migform.h); per
	 * folio a failure is its last attempt of its call, at that
	 * attempt's time, and retry the failed attempts before it
	 */
	uint32_t migrate_ok, migrate_fail, migrate_retry;
	uint32_t blocks[FV_MT_NR];	/* blocks per type at the bucket's end */
};

struct fv_model {
	unsigned int pageblock_order;	/* 9 unless the input says otherwise */
	/* block table, sorted by (nid, zone, pfn); grows as blocks appear */
	struct fv_block *blocks;
	size_t nr_blocks;
	struct fv_zone *zones;
	size_t nr_zones;
	/* replay history */
	struct fv_flip_rec *flips;
	size_t nr_flips;
	/*
	 * Keep the per-block rings of recent events (fv_model_block_hist());
	 * set before the first event.  Only the HTML map shows them.
	 */
	bool keep_hist;
	/*
	 * Free space of every pageblock_state record, every census record:
	 * with keep_space_times (set before the first event), else no state
	 * record and only the latest census run's.
	 */
	bool keep_space_times;
	struct fv_state_rec *states;
	size_t nr_states;
	struct fv_census_rec *census;
	size_t nr_census;
	uint32_t nr_censuses;		/* distinct census seq runs seen */
	/* every steal's time, with keep_steal_times (set before the first
	 * event; map --color steals) */
	bool keep_steal_times;
	bool expect_steal_events;	/* the capture records steals (it has
					 * pageblock_steal or extfrag) */
	struct fv_steal_rec *steal_recs;
	size_t nr_steal_recs;
	/*
	 * What of the migration events counts (migform.h), set before the
	 * first event: per folio (blocks, charts) or per call or pass
	 * (charts only).
	 */
	struct fv_migform mig;
	/* every zone watermark record (FV_EV_WMARK), in time order */
	struct fv_wmark_rec *wmarks;
	size_t nr_wmarks;
	/* charts */
	struct fv_bucket buckets[FV_NBUCKETS];
	uint64_t bucket_ns;		/* width of one bucket */
	size_t nr_buckets_used;
	/* capture-wide facts */
	uint64_t first_ts, last_ts;
	uint64_t nr_events[FV_EV_NR];
	bool have_baseline;		/* a pageblock_state snapshot was seen */
	uint32_t base_seq, last_seq;	/* first and last snapshot sequence numbers */
	uint64_t base_ts, last_snap_ts;	/* when they were taken */
	uint64_t unknown_blocks;	/* events naming a pfn outside known blocks */
	void *priv;			/* model.c internals (pfn index etc.) */
	/* compaction.h: runs, scans, allocs; attached and freed by capture.c */
	struct fv_compact *compact;
	/* signs of lost or reordered events */
	uint32_t nr_snapshots;		/* distinct pageblock_state seq runs seen */
	uint64_t out_of_order;		/* events older than their predecessor */
	uint64_t flip_old_mismatch;	/* flips whose old_mt != replayed type */
	/* events the ABI says no kernel writes (abi.h): count, first one */
	uint64_t nr_impossible;
	struct fv_event impossible;
	const char *impossible_why;
	/* ABI v2: generations, snapshot boundaries; lost events */
	bool have_gen;			/* a state or flip carried a gen */
	bool expect_snap_events;	/* the capture has pageblock_snapshot */
	struct fv_snap_zone *snap_zones;
	size_t nr_snap_zones;
	struct fv_rowidx snap_zone_index;	/* snap_zones by (seq, nid, zone) */
	struct fv_lost *lost;
	size_t nr_lost;
	/*
	 * Blocks one snapshot listed in two zones: a block straddling a zone
	 * boundary, whose flips come under either zone's lock and generation
	 * (tracepoints/debugfs.md), so it cannot be replayed exactly.  The
	 * count, and the first one seen.
	 */
	uint64_t nr_straddles;
	struct fv_straddle {
		uint64_t pfn, ts;
		uint32_t seq;
		int32_t nid[2];
		uint8_t zone[2];
	} straddle;
};

/*
 * Running out of memory anywhere in the model is fatal (xmalloc(),
 * util.h), as in the rest of fragview: no caller could do better.
 */
void fv_model_init(struct fv_model *m);
void fv_model_free(struct fv_model *m);

/*
 * Feed one event; events must come in non-decreasing ts order.
 * Returns 0, or -1 when the event would need a block beyond the table's
 * 2^32 - 2 (the event is dropped, the model stays consistent).
 */
int fv_model_apply(struct fv_model *m, const struct fv_event *ev);

/*
 * migrate:mm_migrate_pages of task pid that capture.c drops (migform.h)
 * still ends the task's call: its folios' failed attempts are final.
 * fv_model_apply() of one ends it as well.
 */
void fv_model_end_migrate_call(struct fv_model *m, int32_t pid);

/* Call once after the last event: sorts/freezes zones, fills the charts. */
void fv_model_finish(struct fv_model *m);

/* Index of the block holding pfn, or -1. */
long fv_model_find_block(const struct fv_model *m, uint64_t pfn);

/*
 * Types of all blocks at time ts (baseline + every flip with ts <= ts),
 * written to mt[nr_blocks].  ts = UINT64_MAX gives the final state.
 */
void fv_model_types_at(const struct fv_model *m, uint64_t ts, uint8_t *mt);

/*
 * Recent history of block i, oldest first; returns the count (0 for a
 * block without events, or without keep_hist).
 */
size_t fv_model_block_hist(const struct fv_model *m, size_t i,
			   const struct fv_hist_rec **first_part, size_t *n_first,
			   const struct fv_hist_rec **second_part, size_t *n_second);

/*
 * Per block at time ts: the latest pageblock_state and census records at
 * or before ts (indices into m->states and m->census, -1: none) and the
 * steals up to ts (with keep_steal_times; else 0).  out[nr_blocks].
 */
struct fv_block_at {
	int64_t state, census;
	uint32_t steals;
};
void fv_model_blocks_at(const struct fv_model *m, uint64_t ts,
			struct fv_block_at *out);

/* Blocks per type at the baseline / at the end. */
void fv_model_count_types(const struct fv_model *m, bool at_base,
			  uint64_t count[FV_MT_NR]);

/*
 * Free space of block i as the first (at_base) or the latest snapshot
 * reported it; false if that snapshot did not cover the block.
 */
bool fv_model_block_free(const struct fv_model *m, size_t i, bool at_base,
			 uint32_t *free_pages, int8_t *largest_order);

/*
 * Replay check: for every block the last snapshot reports, the baseline
 * type plus every flip seen between the block's two snapshot records,
 * against what the last snapshot says.  Blocks the first snapshot did
 * not cover start from FV_MT_UNKNOWN (an init flip gives them a type).
 */
struct fv_mismatch {
	size_t block;			/* index into the block table */
	uint8_t expected;		/* type in the last snapshot */
	uint8_t got;			/* type by replay */
};

struct fv_check {
	size_t nr_compared;		/* blocks in the last snapshot */
	size_t nr_flips;		/* flips replayed for them */
	size_t nr_mismatches;
	size_t nr_missing;		/* baseline blocks the last snapshot lacks */
};

/*
 * Fills c and, if out is not NULL, out[0..nr_mismatches-1] (room for
 * nr_blocks entries).  Returns -1 if there are fewer than 2 snapshots.
 */
int fv_model_check(const struct fv_model *m, struct fv_check *c,
		   struct fv_mismatch *out);

/*
 * The input knows the pageblock order (a dump says it): use it, before
 * the first event.  Otherwise fv_model_finish() infers it from the first
 * snapshot when that shows blocks larger than the default 9.
 */
void fv_model_set_pageblock_order(struct fv_model *m, unsigned int order);

/* Block number of pfn with the model's pageblock order. */
static inline uint64_t fv_block_start(const struct fv_model *m, uint64_t pfn)
{
	return pfn & ~((1ULL << m->pageblock_order) - 1);
}

#endif /* FRAGVIEW_MODEL_H */
