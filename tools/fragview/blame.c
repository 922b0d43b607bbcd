// SPDX-License-Identifier: GPL-2.0
/* blame.c - steals, claims and flips by task, kernel stack and site. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blame.h"
#include "blame_tally.h"
#include "util.h"

#define MAX_STACK_ID (1u << 20)

/*
 * Allocator internals: what a site skips to reach the code that asked
 * for memory (or changed a block's type).  Innermost first, as a stack
 * reads; "f*" matches every function starting with f.  Compiler clones
 * (f.isra.0, f.constprop.0, f.part.0) are f.
 */
const char *const fv_blame_internals[] = {
	/* the stacktrace trigger and the tracepoint */
	"stack_trace_save", "__ftrace_trace_stack", "__trace_stack",
	"stacktrace_trigger", "event_triggers_call",
	"event_triggers_post_call", "trace_event_buffer_commit",
	"trace_event_raw_event_*", "perf_trace_*", "__traceiter_*",
	"trace_pageblock_*", "trace_mm_page_alloc_extfrag",
	/* the page allocator, to the fallback and to a type change */
	"steal_suitable_fallback", "__rmqueue_fallback", "__rmqueue",
	"__rmqueue_smallest", "__rmqueue_cma_fallback", "rmqueue_bulk",
	"rmqueue_pcplist", "__rmqueue_pcplist", "rmqueue_buddy", "rmqueue",
	"get_page_from_freelist",
	"__alloc_pages_slowpath", "__alloc_pages_direct_compact",
	"__alloc_pages_direct_reclaim", "__alloc_pages_cpuset_fallback",
	"__alloc_pages_may_oom", "__alloc_pages_bulk", "__alloc_pages",
	"__alloc_pages_node", "alloc_pages", "alloc_pages_node",
	"alloc_page_interleave", "alloc_pages_vma", "alloc_pages_exact",
	"alloc_pages_exact_nid", "__folio_alloc", "folio_alloc",
	"vma_alloc_folio", "__get_free_pages", "get_zeroed_page",
	"set_pageblock_migratetype", "move_freepages", "move_freepages_block",
	"change_pageblock_range", "reserve_highatomic_pageblock",
	"unreserve_highatomic_pageblock",
	/* the same on 6.12: the reworked fallback, and the _noprof entry
	 * points of memory allocation profiling */
	"try_to_steal_block", "__rmqueue_claim", "__rmqueue_steal",
	"__move_freepages_block", "prep_move_freepages_block",
	"move_freepages_block_isolate", "__alloc_pages_noprof",
	"__folio_alloc_noprof", "alloc_pages_noprof", "alloc_pages_mpol_noprof",
	"alloc_pages_preferred_many", "folio_alloc_noprof",
	"folio_alloc_mpol_noprof", "vma_alloc_folio_noprof",
	"alloc_pages_bulk_noprof", "alloc_pages_exact_noprof",
	"alloc_pages_exact_nid_noprof", "get_free_pages_noprof",
	"get_zeroed_page_noprof",
	/* the slab allocator's refill: the site is who asked the slab */
	"alloc_slab_page", "allocate_slab", "new_slab", "___slab_alloc", "__slab_alloc",
	"slab_alloc_node", "slab_alloc", "__kmem_cache_alloc_node",
	"kmem_cache_alloc", "kmem_cache_alloc_node", "kmem_cache_alloc_lru",
	"kmalloc_large", "kmalloc_large_node", "kmalloc_order",
	"kmalloc_order_trace", "__kmalloc", "__kmalloc_node",
	"__kmalloc_node_track_caller", "kmalloc_trace", "kmalloc_node_trace",
	/* 6.12 */
	"__slab_alloc_node", "kmem_cache_alloc_noprof",
	"kmem_cache_alloc_lru_noprof", "kmem_cache_alloc_node_noprof",
	"__kmalloc_noprof", "__kmalloc_node_noprof", "__kmalloc_cache_noprof",
	"__kmalloc_cache_node_noprof", "__kmalloc_node_track_caller_noprof",
	"__kmalloc_large_noprof", "__kmalloc_large_node_noprof",
	"___kmalloc_large_node",
	NULL
};

void fv_blame_init(struct fv_blame *b)
{
	memset(b, 0, sizeof(*b));
	b->pageblock_order = 9;
}

void fv_blame_init_tallied(struct fv_blame *b)
{
	fv_blame_init(b);
	b->tally = fv_tally_new();
}

void fv_blame_free(struct fv_blame *b)
{
	for (size_t i = 0; i < b->nr_stacks; i++) {
		if (b->stacks[i].nr_frames)
			free(b->stacks[i].frames[0]);
		free(b->stacks[i].frames);
	}
	for (size_t i = 0; i < b->nr_sites; i++)
		free(b->sites[i]);
	free(b->sites);
	free(b->stacks);
	free(b->recs);
	free(b->comms);
	free(b->last);
	fv_tally_free(b->tally);
	memset(b, 0, sizeof(*b));
}

static int64_t *last_of(struct fv_blame *b, int32_t cpu)
{
	if (cpu < 0 || cpu >= FV_CPU_LIMIT)
		return NULL;
	if ((size_t)cpu >= b->nr_cpus) {
		size_t n = cpu + 1;

		b->last = xrealloc(b->last, n * sizeof(*b->last));
		for (size_t i = b->nr_cpus; i < n; i++)
			b->last[i] = -1;
		b->nr_cpus = n;
	}
	return &b->last[cpu];
}

static void fill_rec(struct fv_blame_rec *r, const struct fv_event *ev)
{
	memset(r, 0, sizeof(*r));
	r->ts = ev->ts;
	r->cpu = ev->cpu;
	r->kind = ev->kind;
	r->stack = -1;
	if (ev->kind == FV_EV_FLIP) {
		r->block = ev->flip.pfn;
		r->pid = ev->flip.pid;
		r->a = ev->flip.old_mt;
		r->b = ev->flip.new_mt;
		r->reason = ev->flip.reason;
	} else {
		/* an extfrag's block needs the pageblock order: at finish */
		r->block = ev->kind == FV_EV_STEAL ? ev->steal.block_pfn :
						     ev->steal.pfn;
		r->pid = ev->steal.pid;
		r->a = ev->steal.alloc_mt;
		r->b = ev->steal.block_mt;
		r->claimed = ev->steal.claimed;
	}
}

static void append_rec(struct fv_blame *b, const struct fv_blame_rec *r,
		       int64_t *last)
{
	if (b->nr_recs == b->cap_recs) {
		b->cap_recs = b->cap_recs ? 2 * b->cap_recs : 1024;
		b->recs = xrealloc(b->recs, b->cap_recs * sizeof(*b->recs));
	}
	if (last)
		*last = b->nr_recs;
	b->recs[b->nr_recs++] = *r;
}

/*
 * A tally takes a record once no stack can follow it: it waits in its
 * CPU's slot of recs until the CPU's next record (or the finish).
 */
static void tally_rec(struct fv_blame *b, const struct fv_blame_rec *r,
		      int64_t *last)
{
	if (!last) {
		fv_tally_add(b->tally, r);	/* no CPU, no stack */
		return;
	}
	if (b->cap_recs < b->nr_cpus) {
		b->cap_recs = b->nr_cpus;
		b->recs = xrealloc(b->recs, b->cap_recs * sizeof(*b->recs));
	}
	if (*last >= 0)
		fv_tally_add(b->tally, &b->recs[*last]);
	b->recs[r->cpu] = *r;
	*last = r->cpu;
}

static void add_rec(struct fv_blame *b, const struct fv_event *ev)
{
	int64_t *last = last_of(b, ev->cpu);
	struct fv_blame_rec r;

	fill_rec(&r, ev);
	b->nr_flips += ev->kind == FV_EV_FLIP;
	b->nr_steals += ev->kind != FV_EV_FLIP;
	b->nr_extfrag += ev->kind == FV_EV_EXTFRAG;
	if (b->tally)
		tally_rec(b, &r, last);
	else
		append_rec(b, &r, last);
}

/* A stack belongs to the CPU's last record if it is the event it names. */
static void attach_stack(struct fv_blame *b, const struct fv_event *ev)
{
	int64_t *last = last_of(b, ev->cpu);
	struct fv_blame_rec *r;

	b->nr_stack_events++;
	if (!last || *last < 0 || ev->stack.id >= MAX_STACK_ID)
		return;
	r = &b->recs[*last];
	if (r->stack >= 0 || r->ts != ev->stack.of_ts ||
	    r->kind != ev->stack.of_kind)
		return;
	r->stack = ev->stack.id;
	b->nr_with_stack++;
}

void fv_blame_apply(struct fv_blame *b, const struct fv_event *ev)
{
	switch (ev->kind) {
	case FV_EV_STEAL:
	case FV_EV_EXTFRAG:
		/*
		 * a declined claim took nothing and polluted nothing; its
		 * stack, if one follows, finds no record of its ts and kind
		 */
		if (fv_ev_is_steal(ev))
			add_rec(b, ev);
		break;
	case FV_EV_FLIP:
		add_rec(b, ev);
		break;
	case FV_EV_STACK:
		attach_stack(b, ev);
		break;
	default:
		break;
	}
}

void fv_blame_add_comm(struct fv_blame *b, int32_t pid, const char *comm)
{
	struct fv_blame_comm *c;

	if (b->nr_comms == b->cap_comms) {
		b->cap_comms = b->cap_comms ? 2 * b->cap_comms : 64;
		b->comms = xrealloc(b->comms, b->cap_comms * sizeof(*b->comms));
	}
	c = &b->comms[b->nr_comms++];
	c->pid = pid;
	snprintf(c->comm, sizeof(c->comm), "%s", comm);
}

void fv_blame_add_stack(struct fv_blame *b, uint32_t id, const char *frames)
{
	struct fv_blame_stack *s;
	size_t n = 0;
	char *text, *p;

	if (id >= MAX_STACK_ID)
		return;
	if (id >= b->nr_stacks) {
		b->stacks = xrealloc(b->stacks, (id + 1) * sizeof(*b->stacks));
		for (size_t i = b->nr_stacks; i <= id; i++)
			b->stacks[i] = (struct fv_blame_stack){ .site = -1,
								.site_id = -1 };
		b->nr_stacks = id + 1;
	}
	s = &b->stacks[id];
	if (s->defined)
		return;
	text = xstrdup(frames);
	for (p = text; *p; p++)
		n += *p == '\n';
	if (p > text && p[-1] != '\n')
		n++;
	s->defined = true;
	s->site = -1;
	s->site_id = -1;
	if (!n) {
		free(text);
		return;
	}
	s->frames = xmalloc(n * sizeof(*s->frames));
	for (p = text; *p && s->nr_frames < n;) {
		char *nl = strchr(p, '\n');

		s->frames[s->nr_frames++] = p;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
}

/* The function of a frame "name+0x1a [mod]", without compiler suffixes. */
static size_t func_len(const char *frame)
{
	size_t n = strcspn(frame, "+ .");

	return n;
}

bool fv_blame_internal(const char *name)
{
	size_t n = func_len(name);

	for (const char *const *p = fv_blame_internals; *p; p++) {
		size_t l = strlen(*p);

		if ((*p)[l - 1] == '*') {
			if (n >= l - 1 && !strncmp(name, *p, l - 1))
				return true;
		} else if (n == l && !strncmp(name, *p, l)) {
			return true;
		}
	}
	return false;
}

static int cmp_comm(const void *x, const void *y)
{
	const struct fv_blame_comm *a = x, *b = y;

	return a->pid < b->pid ? -1 : a->pid > b->pid;
}

/* The site of each stack, and the table of distinct site names. */
static void find_sites(struct fv_blame *b)
{
	for (size_t i = 0; i < b->nr_stacks; i++) {
		struct fv_blame_stack *s = &b->stacks[i];
		size_t n;

		if (!s->defined)
			continue;
		for (size_t f = 0; f < s->nr_frames && s->site < 0; f++)
			if (!fv_blame_internal(s->frames[f]))
				s->site = f;
		if (s->site < 0)
			continue;
		n = func_len(s->frames[s->site]);
		for (size_t j = 0; j < b->nr_sites && s->site_id < 0; j++)
			if (strlen(b->sites[j]) == n &&
			    !strncmp(b->sites[j], s->frames[s->site], n))
				s->site_id = j;
		if (s->site_id < 0) {
			b->sites = xrealloc(b->sites, (b->nr_sites + 1) *
					    sizeof(*b->sites));
			b->sites[b->nr_sites] = xmalloc(n + 1);
			memcpy(b->sites[b->nr_sites], s->frames[s->site], n);
			b->sites[b->nr_sites][n] = '\0';
			s->site_id = b->nr_sites++;
		}
	}
}

void fv_blame_keep(struct fv_blame *b,
		   bool (*keep)(const struct fv_blame *b,
				const struct fv_blame_rec *r, void *ctx),
		   void *ctx)
{
	size_t n = 0;

	b->nr_steals = b->nr_flips = b->nr_extfrag = b->nr_with_stack = 0;
	for (size_t i = 0; i < b->nr_recs; i++) {
		const struct fv_blame_rec *r = &b->recs[i];

		if (!keep(b, r, ctx))
			continue;
		b->nr_flips += r->kind == FV_EV_FLIP;
		b->nr_steals += r->kind != FV_EV_FLIP;
		b->nr_extfrag += r->kind == FV_EV_EXTFRAG;
		b->nr_with_stack += r->stack >= 0;
		b->recs[n++] = *r;
	}
	b->nr_recs = n;
}

/* A tally's stacks: the CPUs' last records get none now. */
static void tally_last_recs(struct fv_blame *b)
{
	for (size_t cpu = 0; b->tally && cpu < b->nr_cpus; cpu++) {
		if (b->last[cpu] >= 0)
			fv_tally_add(b->tally, &b->recs[b->last[cpu]]);
		b->last[cpu] = -1;
	}
}

/* A tally's events with a stack, as recs would have them: defined ones. */
static void tally_with_stack(struct fv_blame *b)
{
	struct fv_blame_group *g;
	size_t n;

	if (!b->tally || !b->nr_with_stack)
		return;
	n = fv_blame_rank(b, FV_BLAME_BY_STACK, &g);
	b->nr_with_stack = fv_blame_events(b);
	for (size_t i = 0; i < n; i++)
		if (g[i].key < 0)
			b->nr_with_stack -= g[i].events;
	free(g);
}

void fv_blame_finish(struct fv_blame *b, unsigned int pageblock_order)
{
	uint64_t mask;

	tally_last_recs(b);
	if (pageblock_order > 30)
		pageblock_order = 9;
	b->pageblock_order = pageblock_order;
	mask = ~((1ULL << pageblock_order) - 1);
	for (size_t i = 0; i < b->nr_recs; i++) {
		struct fv_blame_rec *r = &b->recs[i];

		if (r->kind == FV_EV_EXTFRAG)
			r->block &= mask;
		if (r->stack >= 0 && !fv_blame_stack_of(b, r->stack)) {
			r->stack = -1;	/* never defined: a broken stream */
			b->nr_with_stack--;
		}
	}
	if (b->nr_comms) {
		/* stable, so that the last name given for a pid wins */
		struct fv_blame_comm *c = b->comms;
		size_t n = 0;

		for (size_t i = 0; i < b->nr_comms; i++)
			c[i].comm[16] = '\0';
		qsort(c, b->nr_comms, sizeof(*c), cmp_comm);
		for (size_t i = 0; i < b->nr_comms; i++) {
			if (n && c[n - 1].pid == c[i].pid)
				n--;
			c[n++] = c[i];
		}
		b->nr_comms = n;
	}
	find_sites(b);
	tally_with_stack(b);
}

const char *fv_blame_comm_of(const struct fv_blame *b, int32_t pid)
{
	struct fv_blame_comm key = { .pid = pid };
	const struct fv_blame_comm *c;

	if (!b->nr_comms)
		return "<...>";
	c = bsearch(&key, b->comms, b->nr_comms, sizeof(key), cmp_comm);
	return c ? c->comm : "<...>";
}

const struct fv_blame_stack *fv_blame_stack_of(const struct fv_blame *b,
					       int32_t id)
{
	if (id < 0 || (size_t)id >= b->nr_stacks || !b->stacks[id].defined)
		return NULL;
	return &b->stacks[id];
}

static const char *const by_names[] = { "stack", "task", "site" };

const char *fv_blame_by_name(enum fv_blame_by by)
{
	return (unsigned int)by < 3 ? by_names[by] : "?";
}

int fv_blame_by_parse(const char *name)
{
	for (int i = 0; i < 3; i++)
		if (!strcmp(name, by_names[i]))
			return i;
	return -1;
}

void fv_blame_key_name(const struct fv_blame *b, enum fv_blame_by by,
		       int64_t key, char *buf, size_t size)
{
	if (by == FV_BLAME_BY_TASK)
		snprintf(buf, size, "%s-%d", fv_blame_comm_of(b, key), (int)key);
	else if (key < 0)
		snprintf(buf, size, by == FV_BLAME_BY_STACK ? "(no stack)" :
			 "(no site)");
	else if (by == FV_BLAME_BY_STACK)
		snprintf(buf, size, "#%lld", (long long)key);
	else if ((size_t)key < b->nr_sites)
		snprintf(buf, size, "%s", b->sites[key]);
	else
		snprintf(buf, size, "?");
}

/* ---- ranking ---- */

struct item {
	int64_t key;
	uint64_t block;
	int32_t pid, stack;
	uint8_t what;			/* enum fv_blame_what */
	bool steal;
};

static int64_t key_of(const struct fv_blame *b, const struct fv_blame_rec *r,
		      enum fv_blame_by by)
{
	const struct fv_blame_stack *s;

	switch (by) {
	case FV_BLAME_BY_TASK:
		return r->pid;
	case FV_BLAME_BY_STACK:
		return r->stack;
	case FV_BLAME_BY_SITE:
		s = fv_blame_stack_of(b, r->stack);
		return s ? s->site_id : -1;
	}
	return -1;
}

enum fv_blame_what fv_blame_what(const struct fv_blame_rec *r)
{
	if (r->kind == FV_EV_FLIP)
		return FV_BLAME_FLIPPED;
	if (r->claimed)
		return FV_BLAME_CLAIMED;
	if (r->a != r->b)
		return FV_BLAME_POLLUTED;
	return FV_BLAME_OTHER;
}

static int cmp_item(const void *x, const void *y)
{
	const struct item *a = x, *b = y;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	if (a->what != b->what)
		return a->what < b->what ? -1 : 1;
	return a->block < b->block ? -1 : a->block > b->block;
}

static int cmp_i32(const void *x, const void *y)
{
	int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;

	return a < b ? -1 : a > b;
}

/* The most frequent value of v[0..n) (sorts it); the smallest on ties. */
static int32_t mode_of(int32_t *v, size_t n, uint64_t *count)
{
	int32_t best = -1;
	uint64_t best_n = 0;

	qsort(v, n, sizeof(*v), cmp_i32);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && v[j] == v[i]; j++)
			;
		if (j - i > best_n) {
			best_n = j - i;
			best = v[i];
		}
	}
	*count = best_n;
	return best;
}

static bool has_example(const struct fv_blame_group *g, uint64_t block)
{
	for (unsigned int i = 0; i < g->nr_example; i++)
		if (g->example[i] == block)
			return true;
	return false;
}

static void fill_group(struct fv_blame_group *g, const struct item *it,
		       size_t n, int32_t *scratch)
{
	memset(g, 0, sizeof(*g));
	g->key = it[0].key;
	g->events = n;
	for (size_t i = 0; i < n; i++) {
		bool first = !i || it[i].what != it[i - 1].what ||
			     it[i].block != it[i - 1].block;

		g->steals += it[i].steal;
		g->flips += it[i].what == FV_BLAME_FLIPPED;
		if (it[i].what == FV_BLAME_OTHER || !first)
			continue;
		if (it[i].what == FV_BLAME_POLLUTED)
			g->polluted++;
		else if (it[i].what == FV_BLAME_CLAIMED)
			g->claimed++;
		if (g->nr_example < FV_BLAME_EXAMPLES &&
		    !has_example(g, it[i].block))
			g->example[g->nr_example++] = it[i].block;
	}
	for (size_t i = 0; i < n; i++)
		scratch[i] = it[i].pid;
	g->top_pid = mode_of(scratch, n, &g->top_pid_events);
	for (size_t i = 0; i < n; i++)
		scratch[i] = it[i].stack;
	g->top_stack = mode_of(scratch, n, &g->top_stack_events);
}

int fv_blame_group_cmp(const void *x, const void *y)
{
	const struct fv_blame_group *a = x, *b = y;

	if (a->steals != b->steals)
		return a->steals > b->steals ? -1 : 1;
	if (a->polluted != b->polluted)
		return a->polluted > b->polluted ? -1 : 1;
	if (a->claimed != b->claimed)
		return a->claimed > b->claimed ? -1 : 1;
	if (a->flips != b->flips)
		return a->flips > b->flips ? -1 : 1;
	return a->key < b->key ? -1 : a->key > b->key;
}

struct tally_keys {
	const struct fv_blame *b;
	enum fv_blame_by by;
};

/*
 * A tally's id (a pid; for a stack or site, a stack id) as key_of()
 * makes it a group's key, the stacks never defined none, as
 * fv_blame_finish() makes them in records.
 */
static int64_t tally_key(int64_t id, void *ctx)
{
	const struct tally_keys *k = ctx;
	const struct fv_blame_rec r = {
		.pid = id, .stack = fv_blame_stack_of(k->b, id) ? id : -1,
	};

	return key_of(k->b, &r, k->by);
}

size_t fv_blame_rank(const struct fv_blame *b, enum fv_blame_by by,
		     struct fv_blame_group **out)
{
	struct tally_keys k = { .b = b, .by = by };
	struct fv_blame_group *g = NULL;
	struct item *it;
	int32_t *scratch;
	size_t nr = 0;

	if (b->tally)
		return fv_tally_rank(b->tally, by, tally_key, &k,
				     b->pageblock_order, out);
	it = xmalloc((b->nr_recs + 1) * sizeof(*it));
	scratch = xmalloc((b->nr_recs + 1) * sizeof(*scratch));
	for (size_t i = 0; i < b->nr_recs; i++) {
		const struct fv_blame_rec *r = &b->recs[i];

		it[i] = (struct item){
			.key = key_of(b, r, by), .block = r->block,
			.pid = r->pid, .stack = r->stack, .what = fv_blame_what(r),
			.steal = r->kind != FV_EV_FLIP,
		};
	}
	qsort(it, b->nr_recs, sizeof(*it), cmp_item);
	for (size_t i = 0, j; i < b->nr_recs; i = j) {
		for (j = i; j < b->nr_recs && it[j].key == it[i].key; j++)
			;
		g = xrealloc(g, (nr + 1) * sizeof(*g));
		fill_group(&g[nr++], it + i, j - i, scratch);
	}
	if (nr)
		qsort(g, nr, sizeof(*g), fv_blame_group_cmp);
	free(it);
	free(scratch);
	*out = g;
	return nr;
}
