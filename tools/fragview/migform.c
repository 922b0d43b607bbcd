// SPDX-License-Identifier: GPL-2.0
/* migform.c - which migration events of a capture count (migform.h). */
#include "migform.h"

void fv_migform_init(struct fv_migform *f, const bool have[FV_EV_NR])
{
	*f = (struct fv_migform){
		.folio = have[FV_EV_MIGRATE],
		.failed = have[FV_EV_MIGRATE_FAILED],
		.sum = have[FV_EV_MIGRATE_SUM],
		.pass = have[FV_EV_MIGRATE_PASS],
	};
}

/*
 * The totals of a call (mm_migrate_pages) or of a pass: counted only when
 * no event nearer the folios gives them, and without their failures when
 * migrate_folio_failed gives those one by one.
 */
static enum fv_mig_role totals(const struct fv_migform *f, bool superseded)
{
	if (f->folio || superseded)
		return FV_MIG_DROP;
	return f->failed ? FV_MIG_OK_TOTALS : FV_MIG_TOTALS;
}

enum fv_mig_role fv_mig_role(const struct fv_migform *f,
			     const struct fv_event *ev)
{
	enum fv_mig_role r;

	switch (ev->kind) {
	case FV_EV_MIGRATE:
		return FV_MIG_ATTEMPT;
	case FV_EV_MIGRATE_FAILED:
		/* the kernel wrote it right after its migrate_folio */
		return f->folio ? FV_MIG_DROP : FV_MIG_ATTEMPT;
	case FV_EV_MIGRATE_SUM:
		return totals(f, false);
	case FV_EV_MIGRATE_PASS:
		/* a call's passes add up to its mm_migrate_pages' succeeded */
		r = totals(f, f->sum);
		return r == FV_MIG_DROP ? FV_MIG_PASS_ONLY : r;
	default:
		return FV_MIG_OTHER;
	}
}

const char *fv_migform_ok_source(const struct fv_migform *f)
{
	if (f->folio)
		return "migrate_folio";
	if (f->sum)
		return "mm_migrate_pages";
	return f->pass ? "migrate_pass" : NULL;
}

const char *fv_migform_failed_source(const struct fv_migform *f)
{
	if (f->folio)
		return "migrate_folio";
	if (f->failed)
		return "migrate_folio_failed";
	return fv_migform_ok_source(f);
}
