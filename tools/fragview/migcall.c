// SPDX-License-Identifier: GPL-2.0
/*
 * migcall.c - which failed migration attempts are retries (migcall.h).
 *
 * Two open-addressing tables: the tasks, each with the number of the
 * call it is in (its mm_migrate_pages seen so far), and the folios of
 * those calls.  A call's end only bumps its task's number, so the
 * folios it left behind go stale instead of being looked for; the
 * folio table drops them when it next grows, which keeps its memory
 * to the folios pending, not to every folio of the capture.
 */
#include <stdlib.h>

#include "migcall.h"
#include "migform.h"
#include "util.h"

enum folio_state {
	FOLIO_FREE,		/* never taken: ends a probe */
	FOLIO_PENDING,		/* its last attempt in call 'call' failed */
	FOLIO_SETTLED,		/* ... succeeded: nothing pending */
};

struct fv_migcall_folio {
	uint64_t pfn, cookie;
	int32_t pid;
	uint32_t call;
	uint8_t state;		/* enum folio_state */
};

struct fv_migcall_task {
	int32_t pid;
	uint32_t call;
	bool used;
};

#define MIN_SLOTS 64

static size_t hash(uint64_t key, size_t cap)
{
	key *= 0x9E3779B97F4A7C15ULL;
	return (key ^ key >> 29) & (cap - 1);
}

static uint64_t folio_key(int32_t pid, uint64_t pfn)
{
	return pfn ^ (uint64_t)(uint32_t)pid * 0xFF51AFD7ED558CCDULL;
}

static struct fv_migcall_task *task_slot(struct fv_migcall_task *tasks,
					 size_t cap, int32_t pid)
{
	size_t i = hash((uint32_t)pid, cap);

	while (tasks[i].used && tasks[i].pid != pid)
		i = (i + 1) & (cap - 1);
	return &tasks[i];
}

/* The task's entry; NULL when it has none and add is false. */
static struct fv_migcall_task *task(struct fv_migcall *mc, int32_t pid,
				    bool add)
{
	struct fv_migcall_task *t;

	if (add && (mc->nr_tasks + 1) * 2 > mc->tasks_cap) {
		size_t cap = mc->tasks_cap ? 2 * mc->tasks_cap : MIN_SLOTS;
		struct fv_migcall_task *bigger = xcalloc(cap, sizeof(*bigger));

		for (size_t i = 0; i < mc->tasks_cap; i++)
			if (mc->tasks[i].used)
				*task_slot(bigger, cap, mc->tasks[i].pid) =
					mc->tasks[i];
		free(mc->tasks);
		mc->tasks = bigger;
		mc->tasks_cap = cap;
	}
	if (!mc->tasks_cap)
		return NULL;
	t = task_slot(mc->tasks, mc->tasks_cap, pid);
	if (!t->used) {
		if (!add)
			return NULL;
		*t = (struct fv_migcall_task){ .pid = pid, .used = true };
		mc->nr_tasks++;
	}
	return t;
}

static struct fv_migcall_folio *folio_slot(struct fv_migcall_folio *folios,
					   size_t cap, int32_t pid,
					   uint64_t pfn)
{
	size_t i = hash(folio_key(pid, pfn), cap);

	while (folios[i].state != FOLIO_FREE &&
	       (folios[i].pid != pid || folios[i].pfn != pfn))
		i = (i + 1) & (cap - 1);
	return &folios[i];
}

static bool pending(struct fv_migcall *mc, const struct fv_migcall_folio *f)
{
	const struct fv_migcall_task *t;

	if (f->state != FOLIO_PENDING)
		return false;
	t = task(mc, f->pid, false);
	return t && t->call == f->call;
}

/*
 * Room for one more folio: a table of the pending folios only, at most
 * a quarter full, so it shrinks again after a burst of failures.
 */
static void make_room(struct fv_migcall *mc)
{
	struct fv_migcall_folio *fresh;
	size_t live = 0, cap = MIN_SLOTS;

	if ((mc->folios_used + 1) * 2 <= mc->folios_cap)
		return;
	for (size_t i = 0; i < mc->folios_cap; i++)
		live += pending(mc, &mc->folios[i]);
	while (cap < 4 * (live + 1))
		cap *= 2;
	fresh = xcalloc(cap, sizeof(*fresh));
	for (size_t i = 0; i < mc->folios_cap; i++) {
		const struct fv_migcall_folio *f = &mc->folios[i];

		if (pending(mc, f))
			*folio_slot(fresh, cap, f->pid, f->pfn) = *f;
	}
	free(mc->folios);
	mc->folios = fresh;
	mc->folios_cap = cap;
	mc->folios_used = live;
}

bool fv_migcall_attempt(struct fv_migcall *mc, const struct fv_event *ev,
			uint64_t cookie, uint64_t *retried)
{
	bool failed = fv_mig_failed(ev);
	int32_t pid = ev->migrate.pid;
	struct fv_migcall_folio *f;
	struct fv_migcall_task *t;
	bool retry;

	make_room(mc);
	f = folio_slot(mc->folios, mc->folios_cap, pid, ev->migrate.src_pfn);
	/* a success with nothing pending: most attempts, never stored */
	if (f->state == FOLIO_FREE && !failed)
		return false;
	retry = pending(mc, f);
	if (retry)
		*retried = f->cookie;
	if (f->state == FOLIO_FREE) {
		mc->folios_used++;
		f->pid = pid;
		f->pfn = ev->migrate.src_pfn;
	}
	t = task(mc, pid, true);
	f->call = t->call;
	f->state = failed ? FOLIO_PENDING : FOLIO_SETTLED;
	f->cookie = cookie;
	return retry;
}

void fv_migcall_end(struct fv_migcall *mc, int32_t pid)
{
	struct fv_migcall_task *t = task(mc, pid, false);

	if (t)
		t->call++;
}

void fv_migcall_free(struct fv_migcall *mc)
{
	free(mc->folios);
	free(mc->tasks);
	*mc = (struct fv_migcall){ 0 };
}
