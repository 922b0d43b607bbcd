// SPDX-License-Identifier: GPL-2.0
/*
 * trace.c - the capture reader: libtracecmd in a child, events to us.
 *
 * Events and fields are found by name; the kernel's numbers for
 * migratetypes, zones, reasons and modes are mapped to fragview's enums
 * through the __print_symbolic() tables in each event's print format,
 * because those numbers change with the kernel config.
 *
 * libtracecmd 3.1.6 can crash or spin on corrupt input, so all of it
 * runs in a child process that streams fixed-size fv_event records to
 * the parent (wire.h).  Whatever the child does, the parent prints one
 * line and returns -1.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdarg.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <trace-cmd.h>
#include <event-parse.h>

#include "ksyms.h"
#include "trace.h"
#include "util.h"
#include "wire.h"
#include "zonemark.h"

#define TRACE_MAGIC "\x17\x08\x44tracing"
#define TRACE_MAGIC_LEN 10

/*
 * How a field's value becomes fragview's: as it is (NONE), by the name
 * its __print_symbolic() table gives it, or as a bool, which NOT stores
 * negated (pageblock_steal's taken as steal.declined: model.h).
 */
enum map_kind { MAP_NONE, MAP_MT, MAP_ZONE, MAP_FLIP, MAP_DRAIN, MAP_MODE,
		MAP_MR, MAP_MT_STOCK, MAP_PHASE, MAP_BOOL, MAP_CSTATUS,
		MAP_STAGE, MAP_NOT };

/* The kinds that take their value from no symbolic table. */
static bool map_untabled(enum map_kind map)
{
	return map == MAP_NONE || map == MAP_BOOL || map == MAP_NOT;
}

/*
 * One field of an event and where its value goes in struct fv_event:
 * the whole decoder is this table.  An optional field (ABI v2 added
 * some) may be missing from the capture's format; when it is there,
 * its flag is set in fv_event.flags.
 */
struct field_spec {
	const char *name;
	enum map_kind map;
	uint16_t off;			/* offsetof(struct fv_event, ...) */
	uint8_t size;			/* bytes at off: 1, 2, 4 or 8 */
	bool optional;
	uint8_t flag;			/* FV_EVF_* when present */
};

#define MAX_FIELDS 20
#define DEST(member) offsetof(struct fv_event, member), \
	sizeof(((struct fv_event *)0)->member)
#define F(name, map, member) { name, map, DEST(member), false, 0 }
#define OPT(name, map, member, flag) { name, map, DEST(member), true, flag }

struct event_spec {
	const char *system, *name;
	enum fv_ev_kind kind;
	struct field_spec fields[MAX_FIELDS];
};

/*
 * The stock compaction events and kmem:mm_page_alloc (compaction.h).
 * They carry no node or zone but a task: common_pid ties a run's scans
 * to its begin and end.  The suitable/finished/deferred templates print
 * the zone index through ZONE_TYPE, the status through COMPACTION_STATUS.
 */
#define CSCAN(name, kind) { "compaction", name, kind, {			\
		F("start_pfn", MAP_NONE, cscan.start_pfn),		\
		F("end_pfn", MAP_NONE, cscan.end_pfn),			\
		F("nr_scanned", MAP_NONE, cscan.nr_scanned),		\
		F("nr_taken", MAP_NONE, cscan.nr_taken),		\
		F("common_pid", MAP_NONE, cscan.pid) } }
#define CRUN(name, kind, ...) { "compaction", name, kind, {		\
		F("zone_start", MAP_NONE, crun.zone_start),		\
		F("migrate_pfn", MAP_NONE, crun.migrate_pfn),		\
		F("free_pfn", MAP_NONE, crun.free_pfn),			\
		F("zone_end", MAP_NONE, crun.zone_end),			\
		F("sync", MAP_BOOL, crun.sync),				\
		F("common_pid", MAP_NONE, crun.pid), __VA_ARGS__ } }
#define CZONE(name, kind, ...) { "compaction", name, kind, {		\
		F("nid", MAP_NONE, czone.nid), F("idx", MAP_ZONE, czone.zone), \
		F("order", MAP_NONE, czone.order),			\
		F("common_pid", MAP_NONE, czone.pid), __VA_ARGS__ } }
#define COMPACT_SPECS							\
	CSCAN("mm_compaction_isolate_migratepages", FV_EV_CSCAN_MIGRATE), \
	CSCAN("mm_compaction_isolate_freepages", FV_EV_CSCAN_FREE),	\
	CSCAN("mm_compaction_fast_isolate_freepages", FV_EV_CSCAN_FAST), \
	CRUN("mm_compaction_begin", FV_EV_CBEGIN, { NULL }),		\
	CRUN("mm_compaction_end", FV_EV_CEND,				\
	     F("status", MAP_CSTATUS, crun.status)),			\
	{ "compaction", "mm_compaction_migratepages", FV_EV_CMIGRATED, {	\
		F("nr_migrated", MAP_NONE, cmig.nr_migrated),		\
		F("nr_failed", MAP_NONE, cmig.nr_failed),		\
		F("common_pid", MAP_NONE, cmig.pid) } },		\
	CZONE("mm_compaction_suitable", FV_EV_CSUITABLE,		\
	      F("ret", MAP_CSTATUS, czone.ret)),			\
	CZONE("mm_compaction_finished", FV_EV_CFINISHED,		\
	      F("ret", MAP_CSTATUS, czone.ret)),			\
	CZONE("mm_compaction_deferred", FV_EV_CDEFERRED, { NULL }),	\
	{ "compaction", "mm_compaction_try_to_compact_pages", FV_EV_CTRY, { \
		F("order", MAP_NONE, czone.order),			\
		F("prio", MAP_NONE, czone.prio),			\
		F("common_pid", MAP_NONE, czone.pid) } },		\
	{ "kmem", "mm_page_alloc", FV_EV_ALLOC, {			\
		F("pfn", MAP_NONE, alloc.pfn),				\
		F("order", MAP_NONE, alloc.order),			\
		F("gfp_flags", MAP_NONE, alloc.gfp),			\
		F("migratetype", MAP_MT_STOCK, alloc.mt),		\
		F("common_pid", MAP_NONE, alloc.pid) } }

/* mobility:migrate_folio and the events of its class */
#define MIGRATE_FOLIO(name, kind) { "mobility", name, kind, {		\
		F("src_pfn", MAP_NONE, migrate.src_pfn),		\
		F("dst_pfn", MAP_NONE, migrate.dst_pfn),		\
		F("result", MAP_NONE, migrate.result),			\
		F("order", MAP_NONE, migrate.order),			\
		F("mode", MAP_MODE, migrate.mode),			\
		F("reason", MAP_MR, migrate.reason),			\
		F("pass", MAP_NONE, migrate.pass),			\
		F("src_mt", MAP_MT, migrate.src_mt),			\
		F("dst_mt", MAP_MT, migrate.dst_mt),			\
		F("common_pid", MAP_NONE, migrate.pid) } }

static const struct event_spec specs[] = {
	{ "mobility", "pageblock_state", FV_EV_STATE, {
		F("pfn", MAP_NONE, state.pfn), F("seq", MAP_NONE, state.seq),
		F("free_pages", MAP_NONE, state.free_pages),
		F("nid", MAP_NONE, state.nid), F("zone", MAP_ZONE, state.zone),
		F("mt", MAP_MT, state.mt),
		F("largest_order", MAP_NONE, state.largest_order),
		OPT("gen", MAP_NONE, state.gen, FV_EVF_GEN) } },
	{ "mobility", "pageblock_flip", FV_EV_FLIP, {
		F("pfn", MAP_NONE, flip.pfn), F("caller", MAP_NONE, flip.caller),
		F("nid", MAP_NONE, flip.nid), F("zone", MAP_ZONE, flip.zone),
		F("old_mt", MAP_MT, flip.old_mt), F("new_mt", MAP_MT, flip.new_mt),
		F("reason", MAP_FLIP, flip.reason),
		OPT("gen", MAP_NONE, flip.gen, FV_EVF_GEN) } },
	{ "mobility", "pageblock_steal", FV_EV_STEAL, {
		F("pfn", MAP_NONE, steal.pfn),
		F("block_pfn", MAP_NONE, steal.block_pfn),
		F("nid", MAP_NONE, steal.nid),
		F("free_moved", MAP_NONE, steal.free_moved),
		F("alike", MAP_NONE, steal.alike), F("zone", MAP_ZONE, steal.zone),
		F("order", MAP_NONE, steal.order),
		F("fallback_order", MAP_NONE, steal.fallback_order),
		F("alloc_mt", MAP_MT, steal.alloc_mt),
		F("block_mt", MAP_MT, steal.block_mt),
		F("claimed", MAP_BOOL, steal.claimed),
		/* series v3 patch 12; absent (older captures): taken */
		OPT("taken", MAP_NOT, steal.declined, 0) } },
	{ "mobility", "pcp_drain", FV_EV_DRAIN, {
		F("cpu", MAP_NONE, cpu), F("nid", MAP_NONE, drain.nid),
		F("nr_unmovable", MAP_NONE, drain.nr[0]),
		F("nr_movable", MAP_NONE, drain.nr[1]),
		F("nr_reclaimable", MAP_NONE, drain.nr[2]),
		OPT("nr_high_order", MAP_NONE, drain.nr[3], 0),
		F("total", MAP_NONE, drain.total), F("zone", MAP_ZONE, drain.zone),
		F("reason", MAP_DRAIN, drain.reason) } },
	MIGRATE_FOLIO("migrate_folio", FV_EV_MIGRATE),
	/* the same event class, failed attempts only (migform.h) */
	MIGRATE_FOLIO("migrate_folio_failed", FV_EV_MIGRATE_FAILED),
	{ "mobility", "migrate_pass", FV_EV_MIGRATE_PASS, {
		F("nr_succeeded", MAP_NONE, mpass.nr_succeeded),
		F("nr_failed", MAP_NONE, mpass.nr_failed),
		F("nr_retry", MAP_NONE, mpass.nr_retry),
		F("stage", MAP_STAGE, mpass.stage),
		F("pass", MAP_NONE, mpass.pass),
		F("mode", MAP_MODE, mpass.mode),
		F("reason", MAP_MR, mpass.reason) } },
	{ "mobility", "pageblock_snapshot", FV_EV_SNAPSHOT, {
		F("start_pfn", MAP_NONE, snap.start_pfn),
		F("end_pfn", MAP_NONE, snap.end_pfn), F("gen", MAP_NONE, snap.gen),
		F("seq", MAP_NONE, snap.seq),
		F("nr_blocks", MAP_NONE, snap.nr_blocks),
		F("nid", MAP_NONE, snap.nid), F("zone", MAP_ZONE, snap.zone),
		F("phase", MAP_PHASE, snap.phase) } },
	{ "mobility", "pageblock_census", FV_EV_CENSUS, {
		F("pfn", MAP_NONE, census.pfn), F("seq", MAP_NONE, census.seq),
		F("nid", MAP_NONE, census.nid),
		F("free", MAP_NONE, census.n[FV_CN_FREE]),
		F("free_chunks", MAP_NONE, census.n[FV_CN_FREE_CHUNKS]),
		F("lru", MAP_NONE, census.n[FV_CN_LRU]),
		F("movable_ops", MAP_NONE, census.n[FV_CN_MOVABLE_OPS]),
		F("slab_reclaimable", MAP_NONE, census.n[FV_CN_SLAB_RECLAIMABLE]),
		F("slab_unmovable", MAP_NONE, census.n[FV_CN_SLAB_UNMOVABLE]),
		F("pgtable", MAP_NONE, census.n[FV_CN_PGTABLE]),
		F("kernel", MAP_NONE, census.n[FV_CN_KERNEL]),
		F("free_pcp", MAP_NONE, census.n[FV_CN_FREE_PCP]),
		F("reserved", MAP_NONE, census.n[FV_CN_RESERVED]),
		F("offline", MAP_NONE, census.n[FV_CN_OFFLINE]),
		/* series v3: v2 counted hugetlb pages as kernel, free_pcp */
		OPT("hugetlb", MAP_NONE, census.n[FV_CN_HUGETLB], 0),
		F("zone", MAP_ZONE, census.zone), F("mt", MAP_MT, census.mt) } },
	/* block_pfn is set from pfn by the model's pageblock order later */
	{ "kmem", "mm_page_alloc_extfrag", FV_EV_EXTFRAG, {
		F("pfn", MAP_NONE, steal.pfn), F("pfn", MAP_NONE, steal.block_pfn),
		F("alloc_order", MAP_NONE, steal.order),
		F("fallback_order", MAP_NONE, steal.fallback_order),
		F("alloc_migratetype", MAP_MT_STOCK, steal.alloc_mt),
		F("fallback_migratetype", MAP_MT_STOCK, steal.block_mt),
		F("change_ownership", MAP_BOOL, steal.claimed) } },
	{ "migrate", "mm_migrate_pages", FV_EV_MIGRATE_SUM, {
		F("succeeded", MAP_NONE, msum.succeeded),
		F("failed", MAP_NONE, msum.failed), F("mode", MAP_MODE, msum.mode),
		F("reason", MAP_MR, msum.reason),
		F("common_pid", MAP_NONE, msum.pid) } },
	COMPACT_SPECS
};

#define NR_SPECS (sizeof(specs) / sizeof(specs[0]))
#define CPU_LIMIT FV_CPU_LIMIT	/* model.h */

/*
 * libtracecmd 1.3.1 never frees the decompressed chunks of a compressed
 * (file version 7) capture: free_zpage() looks a page up with a test that
 * is never true, so every chunk stays cached and each page freed walks the
 * whole cache.  Memory grows with the capture and time with its square.
 * Closing the handle frees the cache, so the reader reopens the capture
 * after this much decompressed data and resumes where it was (README.md,
 * "Reading captures").  Small enough for a flat peak RSS (a 1x capture
 * of bench/run.sh decompresses to ~4 MiB), large enough that the reopens
 * (~3 ms each: the capture's headers are read again) cost ~10 %.
 */
#define REOPEN_BYTES (4 << 20)
/*
 * On an uncompressed capture the library maps up to the largest power of
 * two below a CPU's data size in one go and keeps it mapped: read pages
 * stay resident until the window moves, so the peak RSS grows with the
 * capture.  The reader drops the pages it is done with every this many
 * bytes.
 */
#define ADVISE_BYTES (1 << 20)

struct field_dec {
	struct tep_format_field *f;
	bool is_signed;
	int size;
	uint8_t lut[256];		/* kernel value -> canonical enum */
	bool have_table;
};

enum op_map { OP_PLAIN, OP_LUT, OP_BOOL, OP_NOT };
_Static_assert(OP_NOT < 4, "enum op_map fits field_op.map");

/*
 * One field to decode, all the per-record loop needs in 8 bytes, so that
 * it does not chase the tep field and the spec for every field of every
 * record (that was a fifth of the reader's time).
 */
struct field_op {
	uint16_t src;			/* the field's offset in the record */
	uint16_t dst;			/* offsetof(struct fv_event, ...) */
	uint8_t load;			/* bytes loaded directly; 0: libtraceevent */
	uint8_t shift;			/* sign extension: 64 - 8 * size, or 0 */
	uint8_t map : 2;		/* enum op_map */
	uint8_t store : 6;		/* bytes at dst: 1, 2, 4 or 8 */
	uint8_t fld;			/* index in fld[] (table, tep field) */
};

struct event_dec {
	const struct event_spec *spec;
	int id;
	int nr_fields;
	int min_size;			/* record bytes the fields need */
	uint8_t flags;			/* FV_EVF_* of the optional fields present */
	bool who;			/* steal, flip, extfrag: blame_event() */
	int nr_ops;
	struct field_op ops[MAX_FIELDS];
	struct field_dec fld[MAX_FIELDS];
};

/* blame: the distinct kernel stacks met, by their return addresses */
struct stack_ent {
	uint64_t hash;
	uint64_t *addr;
	uint32_t nr;			/* 0: empty slot */
};

struct stack_tab {
	struct stack_ent *ent;
	size_t cap, nr;			/* nr: ids given, 0..nr-1 */
};

/* blame: the pids whose comm was sent */
struct pid_set {
	int64_t *slot;			/* pid + 1; 0: empty */
	size_t cap, nr;
};

#define MAX_STACK_FRAMES 64		/* the kernel records at most 64 too */
#define MAX_STACKS (1 << 16)
#define MAX_PIDS (1 << 20)

/* where one CPU's records are, for dropping pages behind them */
struct cpu_pos {
	uint64_t last_off;		/* file offset of the last record read */
	uint64_t last_page;		/* ... its page, to count pages read */
	bool seen;			/* a record of this CPU was read */
	uintptr_t done;			/* pages below this were dropped */
};

/* What the reader keeps per CPU of the capture (cpu_state()). */
struct cpu_state {
	struct cpu_pos pos;
	uint64_t last_ts;		/* for lost-event reports */
	uint8_t pending;		/* the CPU's last record: 1 + the kind
					 * of our event it was, or 0 (blame) */
	uint64_t pending_ts;
};

struct reader {
	int fd;				/* pipe to the parent */
	const char *path;
	struct tracecmd_input *handle;
	struct tep_handle *tep;
	struct event_dec dec[NR_SPECS];
	int nr_dec;
	bool native;			/* capture byte order == ours */
	int type_offset, type_size;	/* common_type, for the native path */
	uint8_t dec_of_id[65536];	/* event id -> dec index + 1 */
	struct fv_event batch[WIRE_BATCH];
	size_t nr_batch;
	struct wire_end end;
	/* per CPU: as many as the capture has, more if a record says so */
	struct cpu_state *cpu;
	size_t nr_cpus;
	bool zpage;			/* compressed chunks: reopen (above) */
	bool reopen;			/* iteration stopped to reopen */
	uint64_t pages, max_pages;	/* pages read since the open, limit */
	unsigned int page_shift;	/* of the capture's ring-buffer pages */
	uintptr_t sys_page;		/* ours, for madvise(); 0: no advising */
	unsigned int nr_reopens;
	/* blame (fv_trace_read_blame()) */
	bool blame;
	int stack_type;			/* ftrace:kernel_stack's id, -1: none */
	int stack_nr_off, stack_nr_size;	/* its "size" field */
	int stack_caller_off, long_size;	/* its "caller" array */
	struct ksyms *ksyms;		/* parsed at the first stack */
	bool warned_ksyms;
	struct stack_tab stacks;
	struct pid_set pids;
	/* ftrace:print, for the recorder's zone lines (zonemark.h) */
	int print_type, print_buf_off;	/* -1: none */
};

/*
 * tracecmd_open() parses the capture's kallsyms and trace_printk formats
 * into the tep handle: two thirds of an open (~10 of 15 ms on a 1 GiB
 * guest's capture), for function names and bprint events fragview does
 * not show, and libtracecmd 1.3.1 has no flag to skip them.  These two
 * definitions take the place of libtraceevent's (the executable's symbols
 * come first in the dynamic linker's search), so the sections are read
 * but not parsed.  Nothing else in fragview uses libtraceevent's symbols.
 * Only blame resolves kernel stacks: then the kallsyms text of the first
 * open is kept, and ksyms.c parses it when the first stack comes.
 */
static bool keep_kallsyms;
static char *kallsyms_text;
static size_t kallsyms_len;

int tep_parse_kallsyms(struct tep_handle *tep, const char *kallsyms)
{
	(void)tep;
	/* (FRAGVIEW_TEST_UNBOUND_HOOK: as if libtraceevent's were called) */
	if (keep_kallsyms && kallsyms && !kallsyms_text &&
	    !getenv("FRAGVIEW_TEST_UNBOUND_HOOK")) {
		kallsyms_len = strlen(kallsyms);
		kallsyms_text = malloc(kallsyms_len + 1);
		if (kallsyms_text)
			memcpy(kallsyms_text, kallsyms, kallsyms_len + 1);
	}
	return 0;
}

int tep_parse_printk_formats(struct tep_handle *tep, const char *buf)
{
	(void)tep;
	(void)buf;
	return 0;
}

/*
 * Whether libtracecmd's calls of tep_parse_kallsyms() come here: the
 * symbol the dynamic linker gives for the name is this definition.  If
 * it is libtraceevent's (a link that no longer exports the executable's
 * symbol), blame has no kallsyms text and its stacks stay addresses.
 */
static bool kallsyms_hook_bound(void)
{
	if (getenv("FRAGVIEW_TEST_UNBOUND_HOOK"))
		return false;
	return dlsym(RTLD_DEFAULT, "tep_parse_kallsyms") ==
	       (void *)tep_parse_kallsyms;
}

/*
 * The version of the libtracecmd mapped into this process, from its file
 * name (libtracecmd.so.1.3.1) in /proc/self/maps: the library can change
 * under a built fragview.  FRAGVIEW_TEST_LIBTRACECMD=X.Y.Z pretends.
 * Returns X << 16 | Y << 8 | Z, 0 if unknown; the text into buf.
 */
static unsigned int libtracecmd_version(char *buf, size_t len)
{
	const char *v = getenv("FRAGVIEW_TEST_LIBTRACECMD");
	unsigned int x = 0, y = 0, z = 0;
	char line[4096], *so = NULL;
	FILE *f = v ? NULL : fopen("/proc/self/maps", "r");

	while (f && !so && fgets(line, sizeof(line), f))
		if ((so = strstr(line, "/libtracecmd.so.")))
			v = so + strlen("/libtracecmd.so.");
	if (f)
		fclose(f);
	snprintf(buf, len, "unknown");
	if (!v || sscanf(v, "%u.%u.%u", &x, &y, &z) < 2)
		return 0;
	snprintf(buf, len, "%u.%u.%u", x, y, z);
	return x << 16 | y << 8 | z;
}

/* libtracecmd < 1.5.1 (or unknown) keeps every decompressed chunk */
static bool chunk_cache_leaks(void)
{
	char v[32];
	unsigned int n = libtracecmd_version(v, sizeof(v));

	return !n || n < (1 << 16 | 5 << 8 | 1);
}

void fv_trace_describe(char *buf, size_t len)
{
	char v[32];

	libtracecmd_version(v, sizeof(v));
	snprintf(buf, len,
		 "libtracecmd %s: %s\n"
		 "kallsyms hook: %s\n", v,
		 chunk_cache_leaks() ?
		 "version 7 captures reopened every 4 MiB (chunk cache leak, fixed in 1.5.1)" :
		 "version 7 captures read in one open (1.5.1 or later)",
		 kallsyms_hook_bound() ? "bound (blame resolves stacks)" :
		 "NOT bound: blame stacks stay addresses");
}

/* ---- child: sending ---- */

static void send_all(int fd, const struct iovec *iov, int n)
{
	struct iovec v[2];

	memcpy(v, iov, n * sizeof(*iov));
	while (n) {
		ssize_t w = writev(fd, v, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			_exit(3);	/* parent gone: nothing left to tell */
		}
		while (n && (size_t)w >= v[0].iov_len) {
			w -= v[0].iov_len;
			v[0] = v[1];
			n--;
		}
		if (n) {
			v[0].iov_base = (char *)v[0].iov_base + w;
			v[0].iov_len -= w;
		}
	}
}

static void send_msg(int fd, uint32_t tag, const void *p, size_t len)
{
	struct wire_hdr h = { .tag = tag, .len = len };
	struct iovec iov[2] = {
		{ .iov_base = &h, .iov_len = sizeof(h) },
		{ .iov_base = (void *)p, .iov_len = len },
	};

	send_all(fd, iov, len ? 2 : 1);
}

static void send_text(int fd, uint32_t tag, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void send_text(int fd, uint32_t tag, const char *fmt, ...)
{
	char buf[WIRE_MAX_TEXT];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	send_msg(fd, tag, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

static void flush_batch(struct reader *r)
{
	if (r->nr_batch)
		send_msg(r->fd, WIRE_EVENTS, r->batch,
			 r->nr_batch * sizeof(r->batch[0]));
	r->nr_batch = 0;
}

/*
 * The state of CPU cpu, NULL for a negative one.  The array has the CPUs
 * the capture's header counts (tep_get_cpus()) and grows for a record of
 * a CPU beyond them; a CPU at or above CPU_LIMIT ends the reader with an
 * error.
 */
static struct cpu_state *cpu_state(struct reader *r, int cpu)
{
	if (cpu < 0)
		return NULL;
	if ((size_t)cpu < r->nr_cpus)
		return &r->cpu[cpu];
	if (cpu >= CPU_LIMIT) {
		flush_batch(r);
		send_text(r->fd, WIRE_ERROR,
			  "corrupt capture: a record of CPU %d (at most %d CPUs)",
			  cpu, CPU_LIMIT);
		_exit(1);
	}
	r->cpu = xrealloc(r->cpu, (cpu + 1) * sizeof(*r->cpu));
	memset(r->cpu + r->nr_cpus, 0, (cpu + 1 - r->nr_cpus) * sizeof(*r->cpu));
	r->nr_cpus = cpu + 1;
	return &r->cpu[cpu];
}

/* ---- child: symbolic tables ---- */

static uint8_t canon(enum map_kind map, const char *name)
{
	switch (map) {
	case MAP_MT:
	case MAP_MT_STOCK:
		return fv_mt_parse(name);
	case MAP_ZONE:
		return fv_zone_parse(name);
	case MAP_FLIP:
		return fv_flip_reason_parse(name);
	case MAP_DRAIN:
		return fv_drain_reason_parse(name);
	case MAP_MODE:
		return fv_mode_parse(name);
	case MAP_MR:
		return fv_mr_parse(name);
	case MAP_PHASE:
		return fv_snap_phase_parse(name);
	case MAP_CSTATUS:
		return fv_cstatus_parse(name);
	case MAP_STAGE:
		return fv_stage_parse(name);
	case MAP_NONE:
	case MAP_BOOL:
	case MAP_NOT:
		break;
	}
	return 0;
}

static const char *arg_field_name(const struct tep_print_arg *a)
{
	for (int depth = 0; a && depth < 8; depth++) {
		if (a->type == TEP_PRINT_FIELD)
			return a->field.name;
		if (a->type != TEP_PRINT_TYPE)
			return NULL;
		a = a->typecast.item;
	}
	return NULL;
}

static void add_symbols(struct event_dec *d, const struct tep_print_arg *a)
{
	const char *name = arg_field_name(a->symbol.field);

	for (int i = 0; name && i < d->nr_fields; i++) {
		struct field_dec *fd = &d->fld[i];
		enum map_kind map = d->spec->fields[i].map;

		if (!fd->f || map_untabled(map) || strcmp(fd->f->name, name))
			continue;
		for (const struct tep_print_flag_sym *s = a->symbol.symbols;
		     s; s = s->next) {
			char *end;
			long long v;

			if (!s->value || !s->str)
				continue;
			errno = 0;
			v = strtoll(s->value, &end, 0);
			if (errno || *end || v < 0 || v > 255)
				continue;
			fd->lut[v] = canon(map, s->str);
		}
		fd->have_table = true;
	}
}

static void walk_args(struct event_dec *d, const struct tep_print_arg *a,
		      int depth)
{
	for (; a && depth < 16; a = a->next) {
		switch (a->type) {
		case TEP_PRINT_SYMBOL:
			add_symbols(d, a);
			break;
		case TEP_PRINT_TYPE:
			walk_args(d, a->typecast.item, depth + 1);
			break;
		case TEP_PRINT_OP:
			walk_args(d, a->op.left, depth + 1);
			walk_args(d, a->op.right, depth + 1);
			break;
		default:
			break;
		}
		if (depth)	/* nested args are single; their next is not ours */
			break;
	}
}

static uint8_t unknown_of(enum map_kind map)
{
	switch (map) {
	case MAP_MT:
	case MAP_MT_STOCK:
		return FV_MT_UNKNOWN;
	case MAP_ZONE:
		return FV_ZONE_UNKNOWN;
	case MAP_FLIP:
		return FV_FLIP_UNKNOWN;
	case MAP_DRAIN:
		return FV_DRAIN_UNKNOWN;
	case MAP_MODE:
		return FV_MODE_UNKNOWN;
	case MAP_MR:
		return FV_MR_UNKNOWN;
	case MAP_PHASE:
		return FV_SNAP_UNKNOWN;
	case MAP_CSTATUS:
		return FV_CS_UNKNOWN;
	case MAP_STAGE:
		return FV_STAGE_UNKNOWN;
	case MAP_NONE:
	case MAP_BOOL:
	case MAP_NOT:
		break;
	}
	return 0;
}

/* Prepares decoding of one event; false if the capture lacks it. */
static bool setup_event(struct reader *r, const struct event_spec *spec)
{
	struct tep_event *ev = tep_find_event_by_name(r->tep, spec->system,
						      spec->name);
	struct event_dec *d = &r->dec[r->nr_dec];

	if (!ev)
		return false;
	memset(d, 0, sizeof(*d));
	d->spec = spec;
	d->id = ev->id;
	d->who = spec->kind == FV_EV_STEAL || spec->kind == FV_EV_FLIP ||
		 spec->kind == FV_EV_EXTFRAG;
	for (int i = 0; i < MAX_FIELDS && spec->fields[i].name; i++) {
		struct field_dec *fd = &d->fld[i];
		struct tep_format_field *f = tep_find_any_field(ev, spec->fields[i].name);

		d->nr_fields = i + 1;
		memset(fd->lut, unknown_of(spec->fields[i].map), sizeof(fd->lut));
		if (!f && spec->fields[i].optional)
			continue;	/* an ABI v1 capture */
		if (!f || f->size < 1 || f->size > 8 ||
		    (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING |
				 TEP_FIELD_IS_DYNAMIC))) {
			if (!r->nr_reopens)
				send_text(r->fd, WIRE_WARN,
					  "%s:%s has no usable field '%s': event ignored",
					  spec->system, spec->name, spec->fields[i].name);
			return false;
		}
		fd->f = f;
		d->flags |= spec->fields[i].flag;
		fd->size = f->size;
		fd->is_signed = f->flags & TEP_FIELD_IS_SIGNED;
		if (f->offset + f->size > d->min_size)
			d->min_size = f->offset + f->size;
	}
	walk_args(d, ev->print_fmt.args, 0);
	{
		struct tep_format_field *t = tep_find_common_field(ev, "common_type");

		if (t) {
			r->type_offset = t->offset;
			r->type_size = t->size;
		}
	}
	if (d->id >= 0 && d->id <= 65535)
		r->dec_of_id[d->id] = r->nr_dec + 1;
	for (int i = 0; i < d->nr_fields; i++) {
		struct field_dec *fd = &d->fld[i];
		enum map_kind map = spec->fields[i].map;

		if (map_untabled(map) || !fd->f || fd->have_table)
			continue;
		if (map == MAP_MT_STOCK) {
			/*
			 * kmem:mm_page_alloc_extfrag prints migratetypes as
			 * numbers.  Only the first four are the same in every
			 * config (UNMOVABLE, MOVABLE, RECLAIMABLE, and
			 * HIGHATOMIC == MIGRATE_PCPTYPES); CMA and ISOLATE
			 * move with CONFIG_CMA/MEMORY_ISOLATION: unknown.
			 */
			fd->lut[0] = FV_MT_UNMOVABLE;
			fd->lut[1] = FV_MT_MOVABLE;
			fd->lut[2] = FV_MT_RECLAIMABLE;
			fd->lut[3] = FV_MT_HIGHATOMIC;
			continue;
		}
		if (!r->nr_reopens)
			send_text(r->fd, WIRE_WARN,
				  "%s:%s: field '%s' has no __print_symbolic table: its values show as unknown",
				  spec->system, spec->name, fd->f->name);
	}
	d->nr_ops = 0;
	for (int i = 0; i < d->nr_fields; i++) {
		const struct field_spec *fs = &spec->fields[i];
		const struct field_dec *fd = &d->fld[i];
		struct field_op *op = &d->ops[d->nr_ops];

		if (!fd->f)
			continue;	/* optional, not in this capture */
		op->src = fd->f->offset;
		op->dst = fs->off;
		/*
		 * tep_read_number_field() costs a third of the reader's time
		 * (two calls and a byte-order switch per field), so when the
		 * capture has the host's byte order the field is loaded
		 * directly; the library does the rest.
		 */
		op->load = r->native && fd->size <= 8 &&
			   !(fd->size & (fd->size - 1)) ? fd->size : 0;
		op->shift = fd->is_signed && fd->size < 8 ? 64 - 8 * fd->size : 0;
		op->map = fs->map == MAP_BOOL ? OP_BOOL :
			  fs->map == MAP_NOT ? OP_NOT :
			  fs->map == MAP_NONE ? OP_PLAIN : OP_LUT;
		op->store = fs->size;
		op->fld = i;
		d->nr_ops++;
	}
	r->nr_dec++;
	return true;
}

/* ---- child: decoding ---- */

/* apart, so that the value of the fast path stays in a register */
static unsigned long long __attribute__((noinline))
slow_load(const struct field_dec *fd, const void *data)
{
	unsigned long long v = 0;

	tep_read_number_field(fd->f, data, &v);
	return v;
}

static void decode(const struct event_dec *d, const void *data,
		   struct fv_event *ev)
{
	const uint8_t *rec = data;

	for (const struct field_op *op = d->ops; op < d->ops + d->nr_ops; op++) {
		uint8_t *dst = (uint8_t *)ev + op->dst;
		unsigned long long v;
		uint16_t u16;
		uint32_t u32;
		uint64_t u64;

		switch (op->load) {
		case 1:
			v = rec[op->src];
			break;
		case 2:
			memcpy(&u16, rec + op->src, 2);
			v = u16;
			break;
		case 4:
			memcpy(&u32, rec + op->src, 4);
			v = u32;
			break;
		case 8:
			memcpy(&u64, rec + op->src, 8);
			v = u64;
			break;
		default:
			v = slow_load(&d->fld[op->fld], data);
			break;
		}
		if (op->shift)
			v = (unsigned long long)((long long)(v << op->shift) >> op->shift);
		if (op->map == OP_LUT)
			v = (long long)v >= 0 && (long long)v < 256 ?
				d->fld[op->fld].lut[v] :
				unknown_of(d->spec->fields[op->fld].map);
		else if (op->map >= OP_BOOL)	/* one test for both bools */
			v = (v != 0) ^ (op->map == OP_NOT);
		switch (op->store) {
		case 1:
			*dst = v;
			break;
		case 2:		/* census counts: saturate (model.h) */
			u16 = v > 0xffff ? 0xffff : v;
			memcpy(dst, &u16, 2);
			break;
		case 4:
			u32 = v;
			memcpy(dst, &u32, 4);
			break;
		case 8:
			u64 = v;
			memcpy(dst, &u64, 8);
			break;
		}
	}
	ev->flags = d->flags;
	if (d->spec->kind == FV_EV_EXTFRAG) {
		/*
		 * the stock event knows no node, zone or block counts; it
		 * fires for pages taken only (taken=1)
		 */
		ev->steal.nid = -1;
		ev->steal.free_moved = -1;
		ev->steal.alike = -1;
		ev->steal.zone = FV_ZONE_UNKNOWN;
		ev->steal.declined = false;
	}
}

static struct fv_event *next_event(struct reader *r)
{
	struct fv_event *ev = &r->batch[r->nr_batch];

	memset(ev, 0, sizeof(*ev));
	return ev;
}

static void push_event(struct reader *r)
{
	r->end.nr_events++;
	if (++r->nr_batch == WIRE_BATCH)
		flush_batch(r);
}

/*
 * The ring buffer dropped events on this CPU just before rec: libtracecmd
 * gives the count the kernel stored in the page, or a negative value when
 * it only knows that some were lost (as 'trace-cmd report' prints
 * "CPU:N [EVENTS DROPPED]").  Sent as an event, in time order.
 */
static void report_missed(struct reader *r, const struct tep_record *rec,
			  int cpu)
{
	const struct cpu_state *c = cpu_state(r, cpu);
	struct fv_event *ev = next_event(r);

	ev->ts = rec->ts;
	ev->cpu = cpu;
	ev->kind = FV_EV_LOST;
	ev->lost.count = rec->missed_events > 0 ? rec->missed_events : -1;
	ev->lost.prev_ts = c ? c->last_ts : 0;
	push_event(r);
}

/* Whether [lo, hi) lies in one private read-only mapping of a file. */
static bool in_file_mapping(uintptr_t lo, uintptr_t hi)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512], perms[8];
	unsigned long a, b, off, ino;
	bool ok = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %7s %lx %*x:%*x %lu", &a, &b, perms,
			   &off, &ino) != 5 || lo < a || lo >= b)
			continue;
		ok = ino && !strcmp(perms, "r--p") && hi <= b;
		break;
	}
	fclose(f);
	return ok;
}

/*
 * Drops the resident pages of the library's file mapping below the page
 * rec is in: iteration only goes forward, so they are not read again (and
 * if they were, a private unwritten file mapping reads the file again).
 * The range is checked against /proc/self/maps right before, once per
 * ADVISE_BYTES: it must be one read-only private file mapping, which in
 * this process are only the library's windows on the capture (a window
 * left behind may be unmapped and its addresses reused by then).
 */
static void drop_behind(struct reader *r, struct cpu_pos *c,
			const struct tep_record *rec)
{
	uintptr_t page = (uintptr_t)rec->data & ~(r->sys_page - 1);

	if (page < c->done || !c->done) {	/* a new window, lower */
		c->done = page;
		return;
	}
	if (page - c->done < ADVISE_BYTES)
		return;
	if (in_file_mapping(c->done, page))
		madvise((void *)c->done, page - c->done, MADV_DONTNEED);
	c->done = page;
}

/* ---- child: who did it (blame) ---- */

/* Finds ftrace:kernel_stack, the records a stacktrace trigger writes. */
static void setup_stacks(struct reader *r)
{
	struct tep_event *ev = tep_find_event_by_name(r->tep, "ftrace",
						      "kernel_stack");
	struct tep_format_field *nr, *caller;

	r->stack_type = -1;
	if (!ev)
		return;
	nr = tep_find_field(ev, "size");
	caller = tep_find_field(ev, "caller");
	r->long_size = tep_get_long_size(r->tep);
	if (!nr || !caller || nr->size < 1 || nr->size > 8 ||
	    (r->long_size != 4 && r->long_size != 8))
		return;
	r->stack_type = ev->id;
	r->stack_nr_off = nr->offset;
	r->stack_nr_size = nr->size;
	r->stack_caller_off = caller->offset;
}

/* ---- child: the recorder's zone lines (zonemark.h) ---- */

static void setup_marks(struct reader *r)
{
	struct tep_event *ev = tep_find_event_by_name(r->tep, "ftrace", "print");
	struct tep_format_field *buf = ev ? tep_find_field(ev, "buf") : NULL;

	r->print_type = buf ? ev->id : -1;
	r->print_buf_off = buf ? buf->offset : -1;
}

static void on_mark(struct reader *r, const struct tep_record *rec, int cpu)
{
	struct fv_wmark w;
	struct fv_event *ev;

	if (r->print_buf_off < 0 || rec->size <= r->print_buf_off ||
	    !fv_zonemark_parse((const char *)rec->data + r->print_buf_off,
			       (size_t)(rec->size - r->print_buf_off), &w))
		return;
	ev = next_event(r);
	ev->ts = rec->ts;
	ev->cpu = cpu;
	ev->kind = FV_EV_WMARK;
	ev->wmark = w;
	push_event(r);
}

static uint64_t hash_addrs(const uint64_t *a, uint32_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (uint32_t i = 0; i < n; i++)
		h = (h ^ a[i]) * 0x100000001b3ULL;
	return h ? h : 1;
}

/* The id of the stack a[0..n) (a new one is added); -1: table full. */
static long stack_id(struct stack_tab *t, const uint64_t *a, uint32_t n,
		     bool *is_new)
{
	uint64_t h = hash_addrs(a, n);
	size_t i;

	*is_new = false;
	if (2 * (t->nr + 1) > t->cap) {
		struct stack_tab bigger = { .cap = t->cap ? 2 * t->cap : 256,
					    .nr = t->nr };

		if (t->nr >= MAX_STACKS)
			goto find;
		bigger.ent = xcalloc(bigger.cap, sizeof(*bigger.ent));
		for (size_t j = 0; j < t->cap; j++) {
			if (!t->ent[j].nr)
				continue;
			for (i = t->ent[j].hash & (bigger.cap - 1);
			     bigger.ent[i].nr; i = (i + 1) & (bigger.cap - 1))
				;
			bigger.ent[i] = t->ent[j];
		}
		free(t->ent);
		*t = bigger;
	}
find:
	for (i = h & (t->cap - 1); t->ent[i].nr; i = (i + 1) & (t->cap - 1)) {
		const struct stack_ent *e = &t->ent[i];

		if (e->hash == h && e->nr == n &&
		    !memcmp(e->addr, a, n * sizeof(*a)))
			return e->addr[n];	/* the id, stored after them */
	}
	if (t->nr >= MAX_STACKS)
		return -1;
	t->ent[i].hash = h;
	t->ent[i].nr = n;
	t->ent[i].addr = xmalloc((n + 1) * sizeof(*a));
	memcpy(t->ent[i].addr, a, n * sizeof(*a));
	t->ent[i].addr[n] = t->nr;
	*is_new = true;
	return t->nr++;
}

/* Sends the frames of a new stack, resolved with the capture's kallsyms. */
static void send_stack(struct reader *r, uint32_t id, const uint64_t *a,
		       uint32_t n)
{
	static char buf[sizeof(struct wire_stack) + WIRE_MAX_STACK];
	struct wire_stack hdr = { .id = id, .nr_frames = n };
	size_t len = sizeof(hdr);

	if (!r->ksyms) {
		r->ksyms = ksyms_parse(kallsyms_text ? kallsyms_text : "",
				       kallsyms_text ? kallsyms_len : 0);
		if (!ksyms_count(r->ksyms) && !r->warned_ksyms) {
			r->warned_ksyms = true;
			send_text(r->fd, WIRE_WARN, kallsyms_hook_bound() ?
				  "the capture has no kernel symbols (kallsyms): stack frames are addresses" :
				  "fragview's tep_parse_kallsyms() is not the one libtracecmd calls (see fragview --version): stack frames are addresses");
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		char frame[KSYM_FRAME_MAX];
		size_t fl;

		ksyms_format(r->ksyms, a[i], frame, sizeof(frame));
		fl = strlen(frame);
		if (len + fl + 1 > sizeof(buf))
			break;
		memcpy(buf + len, frame, fl);
		buf[len + fl] = '\n';
		len += fl + 1;
	}
	memcpy(buf, &hdr, sizeof(hdr));
	send_msg(r->fd, WIRE_STACK, buf, len);
}

/*
 * A kernel_stack record: if the CPU's record before it was a steal, flip
 * or extfrag of ours, it is that event's stack (a trigger writes it right
 * after the event, on the same CPU); any other is not ours to attribute.
 */
static void __attribute__((noinline))
on_stack(struct reader *r, const struct tep_record *rec, int cpu)
{
	struct cpu_state *c = cpu_state(r, cpu);
	uint64_t a[MAX_STACK_FRAMES];
	const uint8_t *data = rec->data;
	unsigned long long nr;
	uint32_t n = 0, avail;
	struct fv_event *ev;
	bool is_new;
	long id;

	if (!c || !c->pending)
		return;
	if (rec->size < r->stack_caller_off ||
	    rec->size < r->stack_nr_off + r->stack_nr_size)
		goto done;
	nr = tep_read_number(r->tep, data + r->stack_nr_off, r->stack_nr_size);
	avail = (rec->size - r->stack_caller_off) / r->long_size;
	if (nr > avail)
		nr = avail;
	for (unsigned long long i = 0; i < nr && n < MAX_STACK_FRAMES; i++) {
		uint64_t v = tep_read_number(r->tep, data + r->stack_caller_off +
					     i * r->long_size, r->long_size);

		if (v == (r->long_size == 8 ? UINT64_MAX : UINT32_MAX))
			break;		/* older kernels end the array so */
		if (v)
			a[n++] = v;
	}
	if (!n)
		goto done;
	id = stack_id(&r->stacks, a, n, &is_new);
	if (id < 0)
		goto done;
	if (is_new)
		send_stack(r, id, a, n);
	ev = next_event(r);
	ev->ts = rec->ts;
	ev->cpu = cpu;
	ev->kind = FV_EV_STACK;
	ev->stack.id = id;
	ev->stack.of_kind = c->pending - 1;
	ev->stack.of_ts = c->pending_ts;
	push_event(r);
done:
	c->pending = 0;
}

static bool pid_add(struct pid_set *s, int32_t pid)
{
	size_t i;

	if (2 * (s->nr + 1) > s->cap) {
		struct pid_set bigger = { .cap = s->cap ? 2 * s->cap : 256,
					  .nr = s->nr };

		if (s->nr >= MAX_PIDS)
			return false;
		bigger.slot = xcalloc(bigger.cap, sizeof(*bigger.slot));
		for (size_t j = 0; j < s->cap; j++) {
			if (!s->slot[j])
				continue;
			for (i = (uint64_t)s->slot[j] * 0x9e3779b97f4a7c15ULL >> 40 &
				 (bigger.cap - 1);
			     bigger.slot[i]; i = (i + 1) & (bigger.cap - 1))
				;
			bigger.slot[i] = s->slot[j];
		}
		free(s->slot);
		*s = bigger;
	}
	for (i = (uint64_t)((int64_t)pid + 1) * 0x9e3779b97f4a7c15ULL >> 40 &
		 (s->cap - 1);
	     s->slot[i]; i = (i + 1) & (s->cap - 1))
		if (s->slot[i] == (int64_t)pid + 1)
			return false;
	s->slot[i] = (int64_t)pid + 1;
	s->nr++;
	return true;
}

/*
 * A steal, flip or extfrag: who ran (common_pid), its name once, and the
 * CPU now waits for the event's stack.
 */
static void __attribute__((noinline))
blame_event(struct reader *r, struct tep_record *rec, int cpu,
	    struct fv_event *ev)
{
	int32_t pid = tep_data_pid(r->tep, rec);
	struct cpu_state *cs;

	if (ev->kind == FV_EV_FLIP)
		ev->flip.pid = pid;
	else
		ev->steal.pid = pid;
	if (!r->blame)
		return;
	if (pid_add(&r->pids, pid)) {
		struct wire_comm c = { .pid = pid };
		const char *comm = tep_data_comm_from_pid(r->tep, pid);

		strncpy(c.comm, comm ? comm : "<...>", sizeof(c.comm));
		send_msg(r->fd, WIRE_COMM, &c, sizeof(c));
	}
	cs = cpu_state(r, cpu);
	if (cs) {
		cs->pending = ev->kind + 1;
		cs->pending_ts = rec->ts;
	}
}

static int on_record(struct tracecmd_input *h, struct tep_record *rec,
		     int cpu, void *data)
{
	struct reader *r = data;
	struct cpu_state *cs = cpu_state(r, cpu);
	const struct event_dec *d = NULL;
	struct fv_event *ev;
	int type;

	(void)h;
	if (cs) {
		struct cpu_pos *c = &cs->pos;
		uint64_t page = rec->offset >> r->page_shift;

		c->last_off = rec->offset;
		c->seen = true;
		if (page != c->last_page) {
			c->last_page = page;
			if (++r->pages >= r->max_pages)
				r->reopen = true;
			if (r->sys_page)
				drop_behind(r, c, rec);
		}
	}
	r->end.nr_records++;
	if (rec->missed_events) {
		r->end.nr_missed++;
		report_missed(r, rec, cpu);
	}
	if (cs)
		cs->last_ts = rec->ts;
	if (rec->size < 2)
		goto out;
	/* tep_data_type() is a call and a byte-order switch per record */
	if (r->native && r->type_size == 2 && rec->size >= r->type_offset + 2) {
		uint16_t t;

		memcpy(&t, (const uint8_t *)rec->data + r->type_offset, 2);
		type = t;
	} else {
		type = tep_data_type(r->tep, rec);
	}
	if (__builtin_expect(r->blame, 0)) {
		if (type == r->stack_type) {
			on_stack(r, rec, cpu);
			goto out;
		}
		/* any other record of the CPU: no stack for its last event */
		if (cs)
			cs->pending = 0;
	}
	if (type == r->print_type) {
		on_mark(r, rec, cpu);
		goto out;
	}
	if (type < 0 || type > 65535 || !r->dec_of_id[type])
		goto out;
	d = &r->dec[r->dec_of_id[type] - 1];
	if (rec->size < d->min_size) {
		r->end.nr_bad++;
		goto out;
	}
	ev = next_event(r);
	ev->ts = rec->ts;
	ev->cpu = cpu;
	ev->kind = d->spec->kind;
	decode(d, rec->data, ev);
	if (d->who)
		blame_event(r, rec, cpu, ev);
	push_event(r);
out:
	return r->reopen ? -1 : 0;	/* stops tracecmd_iterate_events() */
}

static void quiet_child(void)
{
	int null = open("/dev/null", O_RDWR);

	/* libtracecmd prints its own diagnostics; ours is the one line */
	if (null >= 0 && !getenv("FRAGVIEW_READER_STDERR")) {
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
	}
	if (null > STDERR_FILENO)
		close(null);
	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
#ifndef __SANITIZE_ADDRESS__	/* ASan reserves terabytes of address space */
	{
		/* a corrupt size field must not take the machine's memory */
		struct rlimit rl = { 8ULL << 30, 8ULL << 30 };

		setrlimit(RLIMIT_AS, &rl);
	}
#endif
}

/*
 * FRAGVIEW_TEST_READER=crash|hang makes the child misbehave the way
 * libtracecmd does on some corrupt files, so the tests can check that
 * the parent copes without needing such a file.
 */
static void test_hook(void)
{
	const char *what = getenv("FRAGVIEW_TEST_READER");

	if (!what)
		return;
	if (!strcmp(what, "crash"))
		raise(SIGSEGV);
	if (!strcmp(what, "hang"))
		for (;;)
			pause();
}

/*
 * Whether the capture's ring-buffer pages are compressed: file version 7
 * with a compression other than "none".  The header is the magic, the
 * version string, endianness, long size, page size, then (version >= 7)
 * the compression's name and version strings.
 */
static bool has_compressed_chunks(const char *path)
{
	char buf[TRACE_MAGIC_LEN + 64];
	const char *p, *end;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= TRACE_MAGIC_LEN)
		return false;
	buf[n] = '\0';
	end = buf + n;
	p = buf + TRACE_MAGIC_LEN;
	if (atoi(p) < 7)
		return false;
	p += strlen(p) + 1 + 1 + 1 + 4;		/* version, endian, long, page */
	return p < end && *p && strcmp(p, "none");
}

/* Opens the capture and prepares the decoders; the have mask, or -1. */
static int open_capture(struct reader *r)
{
	unsigned int have = 0;
	int ps;

	/* libtracecmd wants no plugins of ours nor the system's */
	r->handle = tracecmd_open(r->path, TRACECMD_FL_LOAD_NO_PLUGINS |
					   TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (!r->handle)
		return -1;
	r->tep = tracecmd_get_tep(r->handle);
	if (!r->tep)
		return -1;
	r->native = tep_is_file_bigendian(r->tep) == tep_is_local_bigendian(r->tep);
	r->nr_dec = 0;
	memset(r->dec_of_id, 0, sizeof(r->dec_of_id));
	for (size_t i = 0; i < NR_SPECS; i++)
		if (setup_event(r, &specs[i]))
			have |= 1u << specs[i].kind;
	if (r->blame)
		setup_stacks(r);
	setup_marks(r);
	ps = tep_get_page_size(r->tep);
	r->page_shift = ps > 0 && !(ps & (ps - 1)) ? __builtin_ctz(ps) : 12;
	r->pages = 0;
	return have;
}

/*
 * Closes the handle (which frees its chunk cache), opens the capture again
 * and puts every CPU back after its last record read: reading that record
 * again with tracecmd_read_at() leaves the CPU's cursor behind it, and a
 * CPU with nothing read yet starts at its beginning as on the first open.
 * tracecmd_iterate_events() then picks up exactly where it stopped.
 */
static int reopen_capture(struct reader *r, unsigned int have)
{
	tracecmd_close(r->handle);
	r->nr_reopens++;
	r->reopen = false;
	if (open_capture(r) != (int)have)
		return -1;
	for (size_t cpu = 0; cpu < r->nr_cpus; cpu++) {
		const struct cpu_pos *c = &r->cpu[cpu].pos;
		struct tep_record *rec;
		int at = -1;

		if (!c->seen)
			continue;
		rec = tracecmd_read_at(r->handle, c->last_off, &at);
		if (!rec || at != (int)cpu || rec->offset != c->last_off) {
			tracecmd_free_record(rec);
			return -1;
		}
		tracecmd_free_record(rec);
	}
	return 0;
}

/* user + system time of this process, ms */
static double cpu_ms(const struct rusage *ru)
{
	return (ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) * 1e3 +
	       (ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) / 1e3;
}

static void send_stats(int fd, const struct reader *r)
{
	struct rusage ru;

	if (fd < 0)
		return;
	getrusage(RUSAGE_SELF, &ru);
	dprintf(fd, "fragview: stats: reader maxrss %ld KiB, cpu %.3f ms, %u reopens, %llu records\n",
		ru.ru_maxrss, cpu_ms(&ru), r->nr_reopens,
		(unsigned long long)r->end.nr_records);
}

static void __attribute__((noreturn)) child_main(const char *path, int fd,
						     bool blame)
{
	static struct reader r;
	struct wire_hello hello = { .version = WIRE_VERSION };
	int have, cpus, stats = getenv("FRAGVIEW_STATS") ? dup(STDERR_FILENO) : -1;

	quiet_child();
	r.fd = fd;
	r.path = path;
	r.blame = keep_kallsyms = blame;
	test_hook();
	/* the reopens work around the chunk leak of libtracecmd < 1.5.1 */
	r.zpage = has_compressed_chunks(path) &&
		  (chunk_cache_leaks() || getenv("FRAGVIEW_TEST_REOPEN"));
	r.max_pages = UINT64_MAX;
	have = open_capture(&r);
	if (have < 0) {
		send_text(fd, WIRE_ERROR, r.handle ?
			  "capture has no event formats" :
			  "corrupt or truncated capture (libtracecmd cannot open it)");
		_exit(1);
	}
	if (r.zpage) {
		/* FRAGVIEW_TEST_REOPEN=PAGES: reopen that often, for the tests */
		const char *test = getenv("FRAGVIEW_TEST_REOPEN");

		r.max_pages = test && atoi(test) > 0 ? (uint64_t)atoi(test) :
			      (uint64_t)(REOPEN_BYTES >> r.page_shift);
	}
	else if (sysconf(_SC_PAGESIZE) == 1L << r.page_shift)
		r.sys_page = 1UL << r.page_shift;
	/* the reopens keep it: the same file has the same CPUs */
	cpus = tep_get_cpus(r.tep);	/* the capture header's CPU count */
	r.nr_cpus = cpus > 0 ? (size_t)cpus : 0;
	r.cpu = xcalloc(r.nr_cpus + 1, sizeof(*r.cpu));
	hello.have = have;
	send_msg(fd, WIRE_HELLO, &hello, sizeof(hello));
	while (hello.have &&
	       tracecmd_iterate_events(r.handle, NULL, 0, on_record, &r) < 0) {
		if (r.reopen && !reopen_capture(&r, have))
			continue;
		flush_batch(&r);
		send_text(fd, WIRE_ERROR, "corrupt or truncated capture (reading events failed)");
		_exit(1);
	}
	flush_batch(&r);
	send_msg(fd, WIRE_END, &r.end, sizeof(r.end));
	send_stats(stats, &r);
	free(r.cpu);
	/* no tracecmd_close(): the process ends, the kernel frees it all */
	_exit(0);
}

/* ---- parent ---- */

struct parent {
	const char *path;
	struct fv_trace_info *info;
	fv_event_fn fn;
	void *ctx;
	const struct fv_trace_blame *blame;
	char error[WIRE_MAX_TEXT + 1];
	bool have_end;
};

static int sink_hello(const struct wire_hello *h, void *ctx)
{
	struct parent *p = ctx;

	for (int k = 0; k < FV_EV_NR; k++)
		p->info->have[k] = h->have & (1u << k);
	return 0;
}

static int sink_event(const struct fv_event *ev, void *ctx)
{
	struct parent *p = ctx;

	return p->fn(ev, p->ctx);
}

static int sink_comm(int32_t pid, const char *comm, void *ctx)
{
	struct parent *p = ctx;

	return p->blame && p->blame->comm ?
	       p->blame->comm(pid, comm, p->blame->ctx) : 0;
}

static int sink_stack(uint32_t id, const char *frames, void *ctx)
{
	struct parent *p = ctx;

	return p->blame && p->blame->stack ?
	       p->blame->stack(id, frames, p->blame->ctx) : 0;
}

static void sink_text(bool error, const char *msg, void *ctx)
{
	struct parent *p = ctx;

	if (error)
		snprintf(p->error, sizeof(p->error), "%s", msg);
	else
		warn("%s: %s", p->path, msg);
}

static void sink_end(const struct wire_end *e, void *ctx)
{
	struct parent *p = ctx;

	p->info->nr_records = e->nr_records;
	p->info->nr_events = e->nr_events;
	p->info->nr_bad = e->nr_bad;
	p->info->nr_missed = e->nr_missed;
	p->have_end = true;
}

/* Cheap checks with clear messages before libtracecmd sees the file. */
static int precheck(const char *path)
{
	char magic[TRACE_MAGIC_LEN];
	struct stat st;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		warn("%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		warn("%s: not a regular file", path);
		close(fd);
		return -1;
	}
	if (st.st_size == 0) {
		warn("%s: empty file", path);
		close(fd);
		return -1;
	}
	n = read(fd, magic, sizeof(magic));
	close(fd);
	if (n != (ssize_t)sizeof(magic) || memcmp(magic, TRACE_MAGIC, sizeof(magic))) {
		warn("%s: not a trace-cmd capture (no trace.dat magic)", path);
		return -1;
	}
	return 0;
}

static int read_timeout_ms(void)
{
	const char *s = getenv("FRAGVIEW_READ_TIMEOUT");
	int t = s ? atoi(s) : 0;

	return (t > 0 ? t : 30) * 1000;
}

static const char *signame(int sig)
{
	static char buf[32];
	const char *abbrev = sigabbrev_np(sig);

	if (abbrev)
		snprintf(buf, sizeof(buf), "SIG%s", abbrev);
	else
		snprintf(buf, sizeof(buf), "signal %d", sig);
	return buf;
}

/* Pumps the pipe into the sinks; 0 at EOF, -1 with p->error set. */
static int pump(struct parent *p, int fd, const struct wire_sink *sink)
{
	static uint8_t buf[2 * WIRE_BATCH * sizeof(struct fv_event) + 4096];
	struct wire_state st = { 0 };
	size_t len = 0;
	int timeout = read_timeout_ms();

	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t n, used;
		int rc = poll(&pfd, 1, timeout);

		if (rc < 0 && errno == EINTR)
			continue;
		if (rc == 0) {
			snprintf(p->error, sizeof(p->error),
				 "corrupt capture? the reader made no progress for %d s",
				 timeout / 1000);
			return -1;
		}
		n = read(fd, buf + len, sizeof(buf) - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return len ? (snprintf(p->error, sizeof(p->error),
					       "corrupt or truncated capture (reader stopped mid-message)"), -1) : 0;
		len += n;
		used = wire_decode(buf, len, sink, &st, p->error, sizeof(p->error));
		if (used < 0)
			return -1;
		memmove(buf, buf + used, len - used);
		len -= used;
	}
}

/*
 * FRAGVIEW_STATS: the reader child prints its own peak RSS when it is
 * done, the parent its own at exit (after the model and the renderers):
 * /usr/bin/time only gives the larger of the two.
 */
static void print_parent_stats(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	fprintf(stderr, "fragview: stats: parent maxrss %ld KiB, cpu %.3f ms\n",
		ru.ru_maxrss, cpu_ms(&ru));
}

int fv_trace_read(const char *path, struct fv_trace_info *info,
		  fv_event_fn fn, void *ctx)
{
	return fv_trace_read_blame(path, info, fn, ctx, NULL);
}

int fv_trace_read_blame(const char *path, struct fv_trace_info *info,
			fv_event_fn fn, void *ctx,
			const struct fv_trace_blame *b)
{
	static bool stats_registered;
	struct parent p = { .path = path, .info = info, .fn = fn, .ctx = ctx,
			    .blame = b };
	struct wire_sink sink = {
		.hello = sink_hello, .event = sink_event, .text = sink_text,
		.end = sink_end, .comm = sink_comm, .stack = sink_stack,
		.ctx = &p,
	};
	int pipefd[2], status, ret;
	pid_t pid;

	memset(info, 0, sizeof(*info));
	if (precheck(path))
		return -1;
	if (getenv("FRAGVIEW_STATS") && !stats_registered)
		stats_registered = !atexit(print_parent_stats);
	if (pipe2(pipefd, O_CLOEXEC))
		die("pipe: %s", strerror(errno));
	/* room for several batches: fewer switches between the two sides */
	fcntl(pipefd[1], F_SETPIPE_SZ, 1 << 20);
	fflush(NULL);	/* the child must not write our buffers twice */
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		close(pipefd[0]);
		child_main(path, pipefd[1], b != NULL);
	}
	close(pipefd[1]);
	ret = pump(&p, pipefd[0], &sink);
	close(pipefd[0]);
	if (ret)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("waitpid: %s", strerror(errno));

	if (ret == 0 && WIFSIGNALED(status)) {
		snprintf(p.error, sizeof(p.error),
			 "corrupt or truncated capture (reader crashed: %s)",
			 signame(WTERMSIG(status)));
		ret = -1;
	} else if (ret == 0 && (!WIFEXITED(status) || WEXITSTATUS(status) ||
				!p.have_end)) {
		if (!p.error[0])
			snprintf(p.error, sizeof(p.error),
				 "corrupt or truncated capture (reader failed)");
		ret = -1;
	}
	if (ret)
		warn("%s: %s", path, p.error);
	return ret;
}
