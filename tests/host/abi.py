# SPDX-License-Identifier: GPL-2.0
"""The documented domain of every mobility event field (tracepoints/*.md),
shared by the oracles that read `trace-cmd report` text.

The names are those of the 6.1 and of the 6.12 series together (merge and
damon only on 6.12, MIGRATE_SYNC_NO_COPY only on 6.1);
tracepoints/check-abi.sh holds each kernel's formats to its own.
"""

# in enum order: a snapshot and a dump list zones by increasing index
ZONES = ('DMA', 'DMA32', 'Normal', 'HighMem', 'Movable', 'Device')
MT = {'Unmovable', 'Movable', 'Reclaimable', 'HighAtomic', 'CMA', 'Isolate'}
# the types an allocation can fall back from (MIGRATE_PCPTYPES)
MOBILITY_MT = {'Unmovable', 'Movable', 'Reclaimable'}
ZONE = set(ZONES)
MODE = {'MIGRATE_ASYNC', 'MIGRATE_SYNC_LIGHT', 'MIGRATE_SYNC', 'MIGRATE_SYNC_NO_COPY'}
MR = {'compaction', 'memory_failure', 'memory_hotplug', 'syscall_or_cpuset',
      'mempolicy_mbind', 'numa_misplaced', 'contig_range', 'longterm_pin', 'demotion',
      'damon'}
FLIP_REASONS = {'steal', 'highatomic_reserve', 'highatomic_unreserve', 'isolate',
                'unisolate', 'cma', 'isolate_free', 'init', 'online', 'merge', 'offline'}
DRAIN_REASONS = {'free_high', 'vmstat', 'local', 'all', 'cpu_dead', 'decay'}
ERRNO = {'success', 'EAGAIN', 'EBUSY', 'ENOMEM', 'ENOSYS', 'EINVAL', 'EFAULT', 'EIO',
         'ENOSPC', 'EHWPOISON', 'EPERM', 'ENOENT', 'EEXIST', 'ENODEV', 'EOVERFLOW',
         'EDEADLK'}
SYMBOLIC = {
    'pageblock_steal': {'zone': ZONE, 'alloc_mt': MT, 'block_mt': MT},
    # v2: online/offline flips from/to 'none' (the block is not in the map)
    'pageblock_flip': {'zone': ZONE, 'old_mt': MT | {'none'}, 'new_mt': MT | {'none'},
                       'reason': FLIP_REASONS},
    'pcp_drain': {'zone': ZONE, 'reason': DRAIN_REASONS},
    # dst_mt is 'none' when no destination page was allocated (dst_pfn=0)
    'migrate_folio': {'src_mt': MT, 'dst_mt': MT | {'none'}, 'mode': MODE, 'reason': MR},
    'pageblock_state': {'zone': ZONE, 'mt': MT},
    'pageblock_snapshot': {'zone': ZONE, 'phase': {'begin', 'end'}},      # v2 only
    'pageblock_census': {'zone': ZONE, 'mt': MT},                          # patch 9
}
# the page counts; hugetlb since series v3 (a v2 census lacks it)
CENSUS = ('free', 'lru', 'movable_ops', 'slab_reclaimable', 'slab_unmovable',
          'pgtable', 'kernel', 'free_pcp', 'reserved', 'offline', 'hugetlb')
DRAIN_COUNTS = ('nr_unmovable', 'nr_movable', 'nr_reclaimable', 'nr_high_order')

PAGEBLOCK_ORDER = 9
BLOCK = 1 << PAGEBLOCK_ORDER
# the largest buddy order: 6.1 MAX_ORDER - 1, 6.12 MAX_PAGE_ORDER (x86-64)
MAX_BUDDY_ORDER = 10
# a gigantic hugetlb page (1 GiB on x86-64) migrates as one folio
GIGANTIC_ORDER = 18
# migrate_pages() passes: NR_MAX_MIGRATE_PAGES_RETRY
MIGRATE_PASSES = 10
# migrations of a range isolated first (offline_pages(), alloc_contig_range())
ISOLATING_MIGRATIONS = {'memory_hotplug', 'contig_range'}
# flips written without zone->lock: their gens may appear out of trace order
UNLOCKED_FLIPS = {'init', 'cma', 'online', 'offline'}
