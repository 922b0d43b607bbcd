/* SPDX-License-Identifier: GPL-2.0 */
/*
 * migform.h - which migration events of a capture count, and for what.
 *
 * A capture says how migrations went in one of these forms, told apart
 * by the formats it holds (tracepoints/migrate_folio.md, migrate_pass.md):
 *
 *   per folio     mobility:migrate_folio, every attempt.  Every record of
 *                 migrate_folio_failed repeats one of its failed records:
 *                 ignored; so is mm_migrate_pages (as before series v3).
 *   default       migrate_folio_failed (failed attempts, per folio),
 *                 migrate_pass, migrate:mm_migrate_pages; no migrate_folio.
 *                 Failures per folio from migrate_folio_failed; successes
 *                 per call from mm_migrate_pages' succeeded, else from
 *                 migrate_pass' nr_succeeded.  The per-call failed counts
 *                 are those failures again (in pages, final ones only):
 *                 never added to them.  Nothing says which folio moved,
 *                 so a block's successes are not known.
 *   stock         mm_migrate_pages alone: successes and failures per call.
 *   passes        migrate_pass alone: successes and failures per pass.
 *
 * Every migrate_pass also goes to the passes table of the statistics,
 * whatever the form.  Pure; capture.c drops what fv_mig_role() says is
 * counted by nobody, the model and the statistics count the rest by it.
 */
#ifndef FRAGVIEW_MIGFORM_H
#define FRAGVIEW_MIGFORM_H

#include <stdbool.h>

#include "model.h"

/* struct fv_migform (model.h): the migration formats a capture holds */
void fv_migform_init(struct fv_migform *f, const bool have[FV_EV_NR]);

/*
 * The capture records failed attempts per folio but not the successful
 * ones: a block's migrate_ok (and a source-to-destination move) is not
 * measured, and the views say so rather than show 0.
 */
static inline bool fv_migform_ok_unrecorded(const struct fv_migform *f)
{
	return f->failed && !f->folio;
}

/*
 * The event the successes, and the failures, of the capture's migration
 * counts come from ("migrate_folio", "mm_migrate_pages", ...); NULL: not
 * recorded.
 */
const char *fv_migform_ok_source(const struct fv_migform *f);
const char *fv_migform_failed_source(const struct fv_migform *f);

enum fv_mig_role {
	FV_MIG_OTHER,		/* not a migration event */
	FV_MIG_DROP,		/* a duplicate, or totals the folios give */
	FV_MIG_ATTEMPT,		/* one attempt of one folio (fv_mig_failed()) */
	FV_MIG_TOTALS,		/* succeeded and failed pages of a call/pass */
	FV_MIG_OK_TOTALS,	/* ... succeeded only: failures come per folio */
	FV_MIG_PASS_ONLY,	/* a migrate_pass whose counts another event
				 * gives: the passes table only */
};

/* How ev counts in a capture of form f. */
enum fv_mig_role fv_mig_role(const struct fv_migform *f,
			     const struct fv_event *ev);

/*
 * An attempt that failed: migrate_folio_failed always (a result of 0 is
 * an impossible event, abi.c), migrate_folio with a result other than 0.
 */
static inline bool fv_mig_failed(const struct fv_event *ev)
{
	return ev->kind == FV_EV_MIGRATE_FAILED || ev->migrate.result != 0;
}

/* The pages a call (mm_migrate_pages) or a pass (migrate_pass) counts. */
static inline void fv_mig_pages(const struct fv_event *ev, uint64_t *ok,
				uint64_t *failed)
{
	bool pass = ev->kind == FV_EV_MIGRATE_PASS;

	*ok = pass ? ev->mpass.nr_succeeded : ev->msum.succeeded;
	*failed = pass ? ev->mpass.nr_failed : ev->msum.failed;
}

#endif /* FRAGVIEW_MIGFORM_H */
