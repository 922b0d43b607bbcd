/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blame.h - who polluted a pageblock: steals, claims and flips by task,
 * kernel stack and call site.
 *
 * Pure code, like model.c: the trace reader gives every steal, flip and
 * extfrag its task (common_pid), the saved comms, and the kernel stack a
 * stacktrace trigger recorded right after the event on its CPU
 * (FV_EV_STACK, trace.h); fv_blame_apply() keeps one record per event,
 * fv_blame_rank() groups and ranks them.  Or, for stats, no records:
 * a tally of their counts per task and stack (blame_tally.h).
 */
#ifndef FRAGVIEW_BLAME_H
#define FRAGVIEW_BLAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

enum fv_blame_by { FV_BLAME_BY_STACK, FV_BLAME_BY_TASK, FV_BLAME_BY_SITE };

/* One steal, extfrag or flip, and who did it. */
struct fv_blame_rec {
	uint64_t ts;
	uint64_t block;			/* first pfn of the block */
	int32_t pid;
	int32_t stack;			/* stack id, -1: none recorded */
	int32_t cpu;
	uint8_t kind;			/* FV_EV_STEAL, FV_EV_EXTFRAG, FV_EV_FLIP */
	uint8_t a, b;			/* steal: alloc_mt, block_mt; flip: old_mt, new_mt */
	uint8_t reason;			/* flip: enum fv_flip_reason */
	bool claimed;			/* steal: it claimed the block */
};

struct fv_blame_stack {
	bool defined;
	char **frames;			/* "function+0xoff", innermost first */
	size_t nr_frames;
	int site;			/* index of the site frame, -1: none */
	int32_t site_id;		/* index in fv_blame.sites, -1: none */
};

/* What a record did to its block, as a ranking counts it. */
enum fv_blame_what {
	FV_BLAME_POLLUTED,	/* an unclaimed steal left it mixed */
	FV_BLAME_CLAIMED,	/* a steal took it over */
	FV_BLAME_FLIPPED,	/* a flip */
	FV_BLAME_OTHER,		/* a steal of its own type */
};

struct fv_blame_comm {
	int32_t pid;
	char comm[17];
};

struct fv_tally;

struct fv_blame {
	unsigned int pageblock_order;	/* block of an extfrag pfn */
	struct fv_blame_rec *recs;
	size_t nr_recs, cap_recs;
	struct fv_blame_stack *stacks;	/* by id */
	size_t nr_stacks;
	struct fv_blame_comm *comms;	/* sorted by pid after finish */
	size_t nr_comms, cap_comms;
	char **sites;			/* site function names */
	size_t nr_sites;
	int64_t *last;			/* per CPU: its last record, -1 */
	struct fv_tally *tally;		/* or NULL: the counts, not the records
					 * (recs: each CPU's last, by CPU) */
	size_t nr_cpus;
	uint64_t nr_steals, nr_flips, nr_extfrag, nr_with_stack;
	uint64_t nr_stack_events;	/* FV_EV_STACK seen */
};

#define FV_BLAME_EXAMPLES 4

/* One row of a ranking. */
struct fv_blame_group {
	int64_t key;			/* task: pid; stack: id; site: index in
					 * sites; -1: no stack / site */
	uint64_t steals;		/* fallback steals (or extfrag) */
	uint64_t polluted;		/* distinct blocks an unclaimed steal
					 * left mixed (block type != alloc) */
	uint64_t claimed;		/* distinct blocks claimed by steals */
	uint64_t flips;			/* pageblock_flip events */
	uint64_t example[FV_BLAME_EXAMPLES];	/* blocks: polluted, then
						 * claimed, then flipped */
	unsigned int nr_example;
	int32_t top_pid;		/* the group's most frequent task */
	uint64_t top_pid_events;
	int32_t top_stack;		/* ... and stack, -1: none */
	uint64_t top_stack_events;
	uint64_t events;		/* steals + flips */
};

void fv_blame_init(struct fv_blame *b);
/*
 * For stats: records only until their stack is known, then their counts
 * per task and stack (blame_tally.h), so nr_recs stays 0 and the memory
 * grows with the tasks, stacks and blocks, not with the events.  The
 * ranking then has no examples and no top task or stack, and
 * fv_blame_keep() cannot be used.
 */
void fv_blame_init_tallied(struct fv_blame *b);
void fv_blame_free(struct fv_blame *b);

/* Steals, extfrags, flips and stacks; other events are ignored. */
void fv_blame_apply(struct fv_blame *b, const struct fv_event *ev);
/*
 * Keeps only the records keep() says yes to (after fv_blame_finish()),
 * and counts them again: the totals are those of what is kept.
 */
void fv_blame_keep(struct fv_blame *b,
		   bool (*keep)(const struct fv_blame *b,
				const struct fv_blame_rec *r, void *ctx),
		   void *ctx);

/* A task's name (the last one given for a pid wins). */
void fv_blame_add_comm(struct fv_blame *b, int32_t pid, const char *comm);
/* Defines stack id: frames one per line; ids beyond 2^20 are ignored. */
void fv_blame_add_stack(struct fv_blame *b, uint32_t id, const char *frames);
/* After the last event: blocks of extfrag pfns, sites, comm lookup. */
void fv_blame_finish(struct fv_blame *b, unsigned int pageblock_order);

/* "comm" of pid, or "<...>" when the capture did not save it. */
const char *fv_blame_comm_of(const struct fv_blame *b, int32_t pid);
/* A stack by id, or NULL when none was defined. */
const struct fv_blame_stack *fv_blame_stack_of(const struct fv_blame *b,
					       int32_t id);

/* The steals and flips counted (what a ranking's groups add up to). */
static inline uint64_t fv_blame_events(const struct fv_blame *b)
{
	return b->nr_steals + b->nr_flips;
}

enum fv_blame_what fv_blame_what(const struct fv_blame_rec *r);
/*
 * The ranking by task, stack or site: groups sorted by steals, then
 * blocks polluted, blocks claimed, flips (descending), then key
 * (fv_blame_group_cmp(), for qsort()).  *out is allocated (free() it);
 * returns the number of groups.
 */
size_t fv_blame_rank(const struct fv_blame *b, enum fv_blame_by by,
		     struct fv_blame_group **out);
int fv_blame_group_cmp(const void *x, const void *y);

/*
 * A group's name: task "comm-pid", stack "#id", site its function;
 * "(no stack)", "(no site)" for events without a stack (or a stack of
 * allocator internals only).
 */
void fv_blame_key_name(const struct fv_blame *b, enum fv_blame_by by,
		       int64_t key, char *buf, size_t size);
const char *fv_blame_by_name(enum fv_blame_by by);
/* -1 if name is none of "stack", "task", "site" */
int fv_blame_by_parse(const char *name);

/*
 * Whether a function is allocator internals, which a site skips: the
 * stack trigger and tracepoint, the page allocator's paths to
 * steal_suitable_fallback() and set_pageblock_migratetype(), and the slab
 * refill above them.  name: a frame ("f+0x1a") or a bare function name.
 */
bool fv_blame_internal(const char *name);
/* The names it matches ("f" exact, "f*" prefix), NULL-terminated. */
extern const char *const fv_blame_internals[];

#endif /* FRAGVIEW_BLAME_H */
