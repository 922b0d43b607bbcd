// SPDX-License-Identifier: GPL-2.0
/*
 * names.c - fragview's canonical enum names and their parsers.
 *
 * The parsers take the strings the kernel prints (the __print_symbolic
 * tables of the events, /proc/pagetypeinfo, the debugfs dump), so the
 * numeric values the kernel uses never leak into fragview.
 */
#include <stddef.h>
#include <strings.h>

#include "model.h"

#define NR(a) (sizeof(a) / sizeof((a)[0]))

static const char *const mt_names[FV_MT_NR] = {
	"Unmovable", "Movable", "Reclaimable", "HighAtomic", "CMA", "Isolate",
	"unknown", "none",
};

static const char *const zone_names[FV_ZONE_NR] = {
	"DMA", "DMA32", "Normal", "Movable", "Device", "unknown",
};

static const char *const flip_names[FV_FLIP_NR] = {
	"steal", "highatomic_reserve", "highatomic_unreserve", "isolate",
	"unisolate", "cma", "isolate_free", "init", "online", "offline",
	"merge", "unknown",
};

static const char *const drain_names[FV_DRAIN_NR] = {
	"free_high", "vmstat", "local", "all", "cpu_dead", "decay", "unknown",
};

static const char *const mode_names[FV_MODE_NR] = {
	"MIGRATE_ASYNC", "MIGRATE_SYNC_LIGHT", "MIGRATE_SYNC",
	"MIGRATE_SYNC_NO_COPY", "unknown",
};

static const char *const mr_names[FV_MR_NR] = {
	"compaction", "memory_failure", "memory_hotplug", "syscall_or_cpuset",
	"mempolicy_mbind", "numa_misplaced", "contig_range", "longterm_pin",
	"demotion", "damon", "unknown",
};

static const char *const kind_names[FV_EV_NR] = {
	"state", "flip", "steal", "drain", "migrate", "extfrag", "migrate_sum",
	"snapshot", "lost", "census", "stack", "compact_scan_migrate",
	"compact_scan_free", "compact_begin", "compact_end", "compact_migrated",
	"compact_suitable", "compact_finished", "compact_deferred", "compact_try",
	"page_alloc", "compact_scan_fast", "zone_watermarks", "migrate_failed",
	"migrate_pass",
};

static const char *const census_count_names[FV_CN_NR] = {
	"free", "free_chunks", "lru", "movable_ops", "slab_reclaimable",
	"slab_unmovable", "pgtable", "kernel", "free_pcp", "reserved",
	"offline", "hugetlb",
};

static const char *const cstatus_names[FV_CS_NR] = {
	"skipped", "deferred", "continue", "success", "partial_skipped",
	"complete", "no_suitable_page", "not_suitable_zone", "contended",
	"unknown",
};

static const char *const phase_names[FV_SNAP_NR] = {
	"begin", "end", "unknown",
};

static const char *const stage_names[FV_STAGE_NR] = {
	"hugetlb", "unmap_move", "unmap", "move", "unknown",
};

static const char *name_of(const char *const *tab, size_t nr, unsigned int v)
{
	return v < nr ? tab[v] : tab[nr - 1];
}

/* Index of name in tab[0..nr-2], else nr-1 (the "unknown" entry). */
static unsigned int parse_in(const char *const *tab, size_t nr,
			     const char *name)
{
	for (size_t i = 0; name && i + 1 < nr; i++)
		if (!strcasecmp(tab[i], name))
			return i;
	return nr - 1;
}

const char *fv_mt_name(enum fv_mt mt)
{
	return mt_names[mt < FV_MT_NR ? mt : FV_MT_UNKNOWN];
}

/* "none" (MIGRATE_TYPES: offline, no destination) is not "unknown" */
enum fv_mt fv_mt_parse(const char *name)
{
	if (name && !strcasecmp(name, mt_names[FV_MT_NONE]))
		return FV_MT_NONE;
	return parse_in(mt_names, FV_MT_UNKNOWN + 1, name);
}

const char *fv_zone_name(enum fv_zone_type z)
{
	return name_of(zone_names, NR(zone_names), z);
}

enum fv_zone_type fv_zone_parse(const char *name)
{
	return parse_in(zone_names, NR(zone_names), name);
}

const char *fv_flip_reason_name(enum fv_flip_reason r)
{
	return name_of(flip_names, NR(flip_names), r);
}

enum fv_flip_reason fv_flip_reason_parse(const char *name)
{
	return parse_in(flip_names, NR(flip_names), name);
}

const char *fv_drain_reason_name(enum fv_drain_reason r)
{
	return name_of(drain_names, NR(drain_names), r);
}

enum fv_drain_reason fv_drain_reason_parse(const char *name)
{
	return parse_in(drain_names, NR(drain_names), name);
}

const char *fv_mode_name(enum fv_migrate_mode m)
{
	return name_of(mode_names, NR(mode_names), m);
}

/* Accepts "MIGRATE_SYNC" as printed by the kernel, and plain "sync". */
enum fv_migrate_mode fv_mode_parse(const char *name)
{
	if (name && !strncasecmp(name, "MIGRATE_", 8))
		name += 8;
	for (size_t i = 0; name && i + 1 < NR(mode_names); i++)
		if (!strcasecmp(mode_names[i] + 8, name))
			return i;
	return FV_MODE_UNKNOWN;
}

const char *fv_mr_name(enum fv_migrate_reason r)
{
	return name_of(mr_names, NR(mr_names), r);
}

enum fv_migrate_reason fv_mr_parse(const char *name)
{
	return parse_in(mr_names, NR(mr_names), name);
}

const char *fv_snap_phase_name(enum fv_snap_phase p)
{
	return name_of(phase_names, NR(phase_names), p);
}

enum fv_snap_phase fv_snap_phase_parse(const char *name)
{
	return parse_in(phase_names, NR(phase_names), name);
}

const char *fv_stage_name(enum fv_mpass_stage s)
{
	return name_of(stage_names, NR(stage_names), s);
}

enum fv_mpass_stage fv_stage_parse(const char *name)
{
	return parse_in(stage_names, NR(stage_names), name);
}

const char *fv_ev_kind_name(enum fv_ev_kind k)
{
	return k < FV_EV_NR ? kind_names[k] : "unknown";
}

const char *fv_census_count_name(enum fv_census_count c)
{
	return c < FV_CN_NR ? census_count_names[c] : "unknown";
}

const char *fv_cstatus_name(enum fv_compact_status s)
{
	return name_of(cstatus_names, NR(cstatus_names), s);
}

enum fv_compact_status fv_cstatus_parse(const char *name)
{
	return parse_in(cstatus_names, NR(cstatus_names), name);
}
