// SPDX-License-Identifier: GPL-2.0
/* render_compact_common.c - what the fragview compact renderers share. */
#include "render_compact.h"
#include "util.h"

void compact_totals(const struct fv_compact *c, struct compact_totals *t)
{
	*t = (struct compact_totals){ 0 };
	for (size_t i = 0; i < c->nr_runs; i++)
		t->ended += c->runs[i].have_end;
	for (size_t i = 0; i < c->nr_scans; i++) {
		if (c->scans[i].free)
			t->fpasses++;
		else
			t->mpasses++;
		t->outside += c->scans[i].run == FV_NO_RUN;
	}
	for (size_t i = 0; i < c->nr_allocs; i++)
		t->alloc_fails += !c->allocs[i].ok;
}

uint32_t compact_nr_suitable(const struct fv_coutcome *o)
{
	uint32_t n = 0;

	for (int s = 0; s < FV_CS_NR; s++)
		n += o->suitable[s];
	return n;
}

void compact_put_counts(FILE *out, const uint32_t *n, const char *none)
{
	bool any = false;

	for (int s = 0; s < FV_CS_NR; s++) {
		if (!n[s])
			continue;
		fprintf(out, "%s%s %u", any ? ", " : "", fv_cstatus_name(s), n[s]);
		any = true;
	}
	if (!any)
		fputs(none, out);
}

struct fail_key {
	int32_t result;
	uint64_t block;
};

static int cmp_fail_key(const void *pa, const void *pb)
{
	const struct fail_key *a = pa, *b = pb;

	if (a->result != b->result)	/* -11 before -16: EAGAIN, EBUSY */
		return a->result > b->result ? -1 : 1;
	return a->block < b->block ? -1 : a->block > b->block;
}

size_t compact_count_fails(const struct fv_compact *c, unsigned int pb_order,
			   struct compact_fail_count *fc)
{
	struct fail_key *k = xmalloc((c->nr_fails + 1) * sizeof(*k));
	size_t n = 0;

	for (size_t i = 0; i < c->nr_fails; i++)
		k[i] = (struct fail_key){ c->fails[i].result,
					  c->fails[i].pfn >> pb_order };
	qsort(k, c->nr_fails, sizeof(*k), cmp_fail_key);
	for (size_t i = 0; i < c->nr_fails; i++) {
		bool new_result = !i || k[i].result != k[i - 1].result;

		if (new_result) {
			if (n == COMPACT_MAX_RESULTS)
				break;
			fc[n++] = (struct compact_fail_count){ .result = k[i].result };
		}
		fc[n - 1].pages++;
		fc[n - 1].blocks += new_result || k[i].block != k[i - 1].block;
	}
	free(k);
	return n;
}
