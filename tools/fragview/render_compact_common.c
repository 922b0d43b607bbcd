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

void compact_counts_text(char *buf, size_t size, const uint32_t *n,
			 const char *none)
{
	size_t used = 0;

	snprintf(buf, size, "%s", none);
	for (int s = 0; s < FV_CS_NR && used < size; s++) {
		if (!n[s])
			continue;
		used += snprintf(buf + used, size - used, "%s%s %u",
				 used ? ", " : "", fv_cstatus_name(s), n[s]);
	}
}

void compact_put_counts(FILE *out, const uint32_t *n, const char *none)
{
	char buf[512];

	compact_counts_text(buf, sizeof(buf), n, none);
	fputs(buf, out);
}

void compact_put_where(struct tab *t, int32_t nid, uint8_t zone)
{
	if (nid >= 0) {
		tab_i64(t, "node", nid);
		tab_str(t, "zone", fv_zone_name(zone));
		return;
	}
	tab_null(t, "node");
	if (t->fmt == TAB_TXT && zone != FV_ZONE_UNKNOWN)
		tab_str(t, NULL, fv_zone_name(zone));
	else
		tab_null(t, "zone");
}

void compact_put_order(struct tab *t, int32_t order)
{
	if (t->fmt == TAB_TXT && (order < 0 || order == FV_ORDER_UNKNOWN))
		tab_str(t, NULL, order == FV_ORDER_UNKNOWN ? "?" : "zone");
	else if (order != FV_ORDER_UNKNOWN)
		tab_i64(t, "order", order);
	else
		tab_null(t, "order");
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
