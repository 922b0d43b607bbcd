// SPDX-License-Identifier: GPL-2.0
/* integrity.c - lost events, incomplete snapshots and flip gen gaps. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "integrity.h"

static int push(struct fv_issues *is, size_t *cap, const struct fv_issue *x)
{
	if (is->nr == *cap) {
		size_t n = *cap ? *cap * 2 : 8;
		void *q = realloc(is->v, n * sizeof(*is->v));

		if (!q)
			return -1;
		is->v = q;
		*cap = n;
	}
	is->v[is->nr++] = *x;
	is->nr_kind[x->kind]++;
	return 0;
}

static int lost_issues(const struct fv_model *m, struct fv_issues *is,
		       size_t *cap)
{
	for (size_t k = 0; k < m->nr_lost; k++) {
		const struct fv_lost *l = &m->lost[k];
		struct fv_issue x = {
			.kind = FV_ISSUE_LOST, .ts = l->ts, .count = l->count,
			.cpu = l->cpu, .prev_ts = l->prev_ts,
		};

		if (push(is, cap, &x))
			return -1;
	}
	return 0;
}

static int snapshot_issues(const struct fv_model *m, struct fv_issues *is,
			   size_t *cap)
{
	if (!m->expect_snap_events)
		return 0;
	for (size_t k = 0; k < m->nr_snap_zones; k++) {
		const struct fv_snap_zone *z = &m->snap_zones[k];
		uint32_t want = z->have_begin ? z->nr_begin : z->nr_end;
		struct fv_issue x = {
			.kind = FV_ISSUE_SNAPSHOT, .ts = z->ts, .nid = z->nid,
			.zone = z->zone, .seq = z->seq, .expected = want,
			.seen = z->nr_states, .no_begin = !z->have_begin,
			.no_end = !z->have_end,
		};

		if (z->have_begin && z->have_end && z->nr_begin == z->nr_states &&
		    z->nr_end == z->nr_states)
			continue;
		x.count = (z->have_begin || z->have_end) && want > z->nr_states ?
			  (int64_t)(want - z->nr_states) : -1;
		if (push(is, cap, &x))
			return -1;
	}
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Snapshots are numbered by the kernel, one seq a write of the trigger
 * while the events are on: a seq between two recorded ones that the
 * capture does not hold is a snapshot lost whole (an overrun can take
 * every event of one), which no zone's counts can show.
 */
static int seq_issues(const struct fv_model *m, struct fv_issues *is,
		      size_t *cap)
{
	uint32_t *seq = malloc((m->nr_snap_zones + 1) * sizeof(*seq));
	size_t n = 0;
	int rc = 0;

	if (!seq)
		return -1;
	for (size_t k = 0; k < m->nr_snap_zones; k++)
		seq[n++] = m->snap_zones[k].seq;
	qsort(seq, n, sizeof(*seq), cmp_u32);
	for (size_t k = 1; k < n && !rc; k++) {
		struct fv_issue x = {
			.kind = FV_ISSUE_SNAP_SEQ, .seq = seq[k - 1] + 1,
			.count = (int64_t)seq[k] - seq[k - 1] - 1,
		};

		if (x.count <= 0)
			continue;
		/* noticed at the first snapshot after the hole */
		for (size_t z = 0; z < m->nr_snap_zones; z++)
			if (m->snap_zones[z].seq == seq[k] &&
			    (!x.ts || m->snap_zones[z].ts < x.ts))
				x.ts = m->snap_zones[z].ts;
		rc = push(is, cap, &x);
	}
	free(seq);
	return rc;
}

/* A flip with a gen, of its zone. */
struct gen_pt {
	int32_t nid;
	uint8_t zone;
	uint64_t gen, ts;
};

static int cmp_zone(int32_t nid_a, uint8_t zone_a, int32_t nid_b,
		    uint8_t zone_b)
{
	if (nid_a != nid_b)
		return nid_a < nid_b ? -1 : 1;
	return (int)zone_a - (int)zone_b;
}

static int cmp_gen(const void *a, const void *b)
{
	const struct gen_pt *x = a, *y = b;
	int c = cmp_zone(x->nid, x->zone, y->nid, y->zone);

	if (c)
		return c;
	if (x->gen != y->gen)
		return x->gen < y->gen ? -1 : 1;
	return 0;
}

static int cmp_snap_zone(const void *a, const void *b)
{
	const struct fv_snap_zone *x = *(const struct fv_snap_zone *const *)a;
	const struct fv_snap_zone *y = *(const struct fv_snap_zone *const *)b;

	return cmp_zone(x->nid, x->zone, y->nid, y->zone);
}

static int gap(struct fv_issues *is, size_t *cap, int32_t nid, uint8_t zone,
	       uint64_t lo, uint64_t hi, uint64_t ts)
{
	struct fv_issue x = {
		.kind = FV_ISSUE_GEN_GAP, .ts = ts, .nid = nid, .zone = zone,
		.gen_lo = lo, .gen_hi = hi, .count = (int64_t)(hi - lo + 1),
	};

	return push(is, cap, &x);
}

/*
 * One zone: its flips' gens (pt[0..n), sorted) must run without a hole,
 * and cover every change since the first of its snapshots zs[0..nz)
 * began up to the last one's end.
 */
static int zone_gen_issues(struct fv_issues *is, size_t *cap, int32_t nid,
			   uint8_t zone, const struct fv_snap_zone *const *zs,
			   size_t nz, const struct gen_pt *pt, size_t n)
{
	uint64_t lo = 0, hi = 0, hi_ts = 0, next;
	bool have_lo = false, have_hi = false;

	for (size_t k = 0; k < nz; k++) {
		const struct fv_snap_zone *z = zs[k];

		if (z->have_begin && (!have_lo || z->gen_begin < lo)) {
			lo = z->gen_begin;
			have_lo = true;
		}
		/* begin and end: every change up to their gen happened */
		if (z->have_begin && (!have_hi || z->gen_begin > hi)) {
			hi = z->gen_begin;
			hi_ts = z->ts;
			have_hi = true;
		}
		if (z->have_end && (!have_hi || z->gen_end > hi)) {
			hi = z->gen_end;
			hi_ts = z->ts;
			have_hi = true;
		}
	}
	/* next: the gen the next flip must have (never "first gen - 1": 0) */
	if (n && (!have_lo || pt[0].gen <= lo))
		next = pt[0].gen;
	else if (have_lo)
		next = lo + 1;
	else
		return 0;
	for (size_t k = 0; k < n; k++) {
		if (pt[k].gen > next &&
		    gap(is, cap, nid, zone, next, pt[k].gen - 1, pt[k].ts))
			return -1;
		if (pt[k].gen >= next)
			next = pt[k].gen + 1;
	}
	if (have_hi && hi >= next && gap(is, cap, nid, zone, next, hi, hi_ts))
		return -1;
	return 0;
}

/*
 * Every zone a snapshot or a flip names: flips and snapshot zones sorted
 * by zone, then walked side by side, one zone at a time (O(n log n)).
 */
static int gen_issues(const struct fv_model *m, struct fv_issues *is,
		      size_t *cap)
{
	size_t n = 0, nz = m->nr_snap_zones, i = 0, j = 0;
	const struct fv_snap_zone **zs;
	struct gen_pt *pt;
	int ret = 0;

	if (!m->have_gen)
		return 0;
	pt = malloc((m->nr_flips + 1) * sizeof(*pt));
	zs = malloc((nz + 1) * sizeof(*zs));
	if (!pt || !zs) {
		free(pt);
		free(zs);
		return -1;
	}
	for (size_t f = 0; f < m->nr_flips; f++) {
		const struct fv_flip_rec *r = &m->flips[f];

		if (r->flags & FV_FLIP_GEN)
			pt[n++] = (struct gen_pt){ r->nid, r->zone, r->gen, r->ts };
	}
	for (size_t k = 0; k < nz; k++)
		zs[k] = &m->snap_zones[k];
	qsort(pt, n, sizeof(*pt), cmp_gen);
	qsort(zs, nz, sizeof(*zs), cmp_snap_zone);
	while (!ret && (i < n || j < nz)) {
		int32_t nid;
		uint8_t zone;
		size_t i0 = i, j0 = j;

		if (j == nz || (i < n && cmp_zone(pt[i].nid, pt[i].zone,
						  zs[j]->nid, zs[j]->zone) < 0)) {
			nid = pt[i].nid;
			zone = pt[i].zone;
		} else {
			nid = zs[j]->nid;
			zone = zs[j]->zone;
		}
		while (i < n && !cmp_zone(pt[i].nid, pt[i].zone, nid, zone))
			i++;
		while (j < nz && !cmp_zone(zs[j]->nid, zs[j]->zone, nid, zone))
			j++;
		ret = zone_gen_issues(is, cap, nid, zone, zs + j0, j - j0,
				      pt + i0, i - i0);
	}
	free(pt);
	free(zs);
	return ret;
}

static int cmp_issue(const void *a, const void *b)
{
	const struct fv_issue *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return (int)x->kind - (int)y->kind;
}

static int straddle_issues(const struct fv_model *m, struct fv_issues *is,
			   size_t *cap)
{
	const struct fv_straddle *s = &m->straddle;
	struct fv_issue x = {
		.kind = FV_ISSUE_STRADDLE, .ts = s->ts,
		.count = (int64_t)m->nr_straddles, .seq = s->seq, .pfn = s->pfn,
		.nid = s->nid[0], .zone = s->zone[0],
		.nid2 = s->nid[1], .zone2 = s->zone[1],
	};

	return m->nr_straddles ? push(is, cap, &x) : 0;
}

int fv_model_issues(const struct fv_model *m, struct fv_issues *out)
{
	size_t cap = 0;

	memset(out, 0, sizeof(*out));
	if (lost_issues(m, out, &cap) || snapshot_issues(m, out, &cap) ||
	    seq_issues(m, out, &cap) || gen_issues(m, out, &cap) ||
	    straddle_issues(m, out, &cap)) {
		fv_issues_free(out);
		return -1;
	}
	if (out->nr)
		qsort(out->v, out->nr, sizeof(*out->v), cmp_issue);
	return 0;
}

void fv_issues_free(struct fv_issues *is)
{
	free(is->v);
	memset(is, 0, sizeof(*is));
}

#define TS(t) (t) / 1000000000, (t) % 1000000000

void fv_issue_text(const struct fv_issue *is, char *buf, size_t len)
{
	char n[32];

	switch (is->kind) {
	case FV_ISSUE_LOST:
		if (is->count >= 0)
			snprintf(n, sizeof(n), "%" PRId64 " events", is->count);
		else
			snprintf(n, sizeof(n), "events (count unknown)");
		if (is->prev_ts)
			snprintf(buf, len, "lost events: CPU %d: the ring buffer dropped %s between %" PRIu64 ".%09" PRIu64 " and %" PRIu64 ".%09" PRIu64 " s",
				 is->cpu, n, TS(is->prev_ts), TS(is->ts));
		else
			snprintf(buf, len, "lost events: CPU %d: the ring buffer dropped %s before %" PRIu64 ".%09" PRIu64 " s",
				 is->cpu, n, TS(is->ts));
		return;
	case FV_ISSUE_SNAPSHOT:
		/* without begin and end nobody said how many there were */
		if (is->no_begin && is->no_end)
			snprintf(n, sizeof(n), "%u", is->seen);
		else
			snprintf(n, sizeof(n), "%u of %u", is->seen, is->expected);
		snprintf(buf, len, "incomplete snapshot: seq %u node %d zone %s from %" PRIu64 ".%09" PRIu64 " s: %s pageblock_state events%s%s",
			 is->seq, is->nid, fv_zone_name(is->zone), TS(is->ts),
			 n, is->no_begin ? ", no begin event" : "",
			 is->no_end ? ", no end event" : "");
		return;
	case FV_ISSUE_GEN_GAP:
		if (is->gen_lo == is->gen_hi)
			snprintf(n, sizeof(n), "%" PRIu64, is->gen_lo);
		else
			snprintf(n, sizeof(n), "%" PRIu64 "-%" PRIu64,
				 is->gen_lo, is->gen_hi);
		snprintf(buf, len, "gen gap: node %d zone %s: %" PRId64 " flip%s lost (gen %s) before %" PRIu64 ".%09" PRIu64 " s",
			 is->nid, fv_zone_name(is->zone), is->count,
			 is->count == 1 ? "" : "s", n, TS(is->ts));
		return;
	case FV_ISSUE_STRADDLE:
		snprintf(buf, len, "zone boundary: snapshot %u lists block 0x%" PRIx64 " in node %d zone %s and node %d zone %s (%" PRId64 " such block%s): its flips are numbered by either zone",
			 is->seq, is->pfn, is->nid, fv_zone_name(is->zone),
			 is->nid2, fv_zone_name(is->zone2), is->count,
			 is->count == 1 ? "" : "s");
		return;
	case FV_ISSUE_SNAP_SEQ:
		if (is->count == 1)
			snprintf(n, sizeof(n), "%u is", is->seq);
		else
			snprintf(n, sizeof(n), "%u-%u are", is->seq,
				 is->seq + (uint32_t)is->count - 1);
		snprintf(buf, len, "missing snapshot: seq %s not in the capture, before %" PRIu64 ".%09" PRIu64 " s (its events were lost, or it was taken for another recording)",
			 n, TS(is->ts));
		return;
	case FV_ISSUE_NR:
		break;
	}
	snprintf(buf, len, "?");
}

void fv_issues_summary(const struct fv_issues *is, char *buf, size_t len)
{
	static const char *const what[FV_ISSUE_NR][2] = {
		{ "ring-buffer overrun", "ring-buffer overruns" },
		{ "incomplete snapshot", "incomplete snapshots" },
		{ "flip gen gap", "flip gen gaps" },
		{ "block across a zone boundary", "blocks across a zone boundary" },
		{ "missing snapshot", "missing snapshots" },
	};
	size_t off = 0;

	buf[0] = '\0';
	for (int k = 0; k < FV_ISSUE_NR; k++) {
		int n;

		if (!is->nr_kind[k])
			continue;
		n = snprintf(buf + off, len - off, "%s%zu %s", off ? ", " : "",
			     is->nr_kind[k], what[k][is->nr_kind[k] != 1]);
		if (n < 0 || (size_t)n >= len - off)
			return;
		off += n;
	}
}

const char *fv_issue_kind_name(enum fv_issue_kind k)
{
	static const char *const names[FV_ISSUE_NR] = {
		"lost_events", "incomplete_snapshot", "gen_gap", "zone_straddle",
		"missing_snapshot",
	};

	return (unsigned int)k < FV_ISSUE_NR ? names[k] : "unknown";
}

void fv_banner_text(const char *line, bool title, void *file)
{
	fprintf(file, "%s%s\n", title ? "" : "  ", line);
}

size_t fv_issues_banner(const struct fv_model *m, fv_banner_fn fn, void *ctx)
{
	struct fv_issues is;
	char line[512], sum[256];
	size_t n = 0;

	if (fv_model_issues(m, &is) || !is.nr) {
		fv_issues_free(&is);
		return 0;
	}
	fv_issues_summary(&is, sum, sizeof(sum));
	snprintf(line, sizeof(line),
		 "WARNING: events are missing, the replay cannot be exact: %s",
		 sum);
	fn(line, true, ctx);
	for (n = 0; n < is.nr && n < FV_BANNER_MAX; n++) {
		fv_issue_text(&is.v[n], line, sizeof(line));
		fn(line, false, ctx);
	}
	if (is.nr > n) {
		snprintf(line, sizeof(line), "... and %zu more (fragview check)",
			 is.nr - n);
		fn(line, false, ctx);
		n++;
	}
	fv_issues_free(&is);
	return n + 1;
}

static void put_issues(FILE *f, const struct fv_issues *is)
{
	char line[512];

	for (size_t i = 0; i < is->nr; i++) {
		fv_issue_text(&is->v[i], line, sizeof(line));
		fprintf(f, "%s\n", line);
	}
}

/* The first event no kernel writes: what, when, why; how many more. */
static void put_impossible(FILE *f, const struct fv_model *m)
{
	uint64_t ts = m->impossible.ts;

	fprintf(f, "check: impossible event: %s on CPU %d at %llu.%09llu s: %s",
		fv_ev_kind_name(m->impossible.kind), m->impossible.cpu,
		(unsigned long long)(ts / 1000000000),
		(unsigned long long)(ts % 1000000000), m->impossible_why);
	if (m->nr_impossible > 1)
		fprintf(f, " (and %llu more)",
			(unsigned long long)(m->nr_impossible - 1));
	fputc('\n', f);
}

int fv_check_report(FILE *f, const struct fv_model *m)
{
	struct fv_mismatch *mm = calloc(m->nr_blocks + 1, sizeof(*mm));
	struct fv_issues is;
	struct fv_check chk;
	int verdict;

	if (!mm || fv_model_check(m, &chk, mm)) {
		free(mm);
		return -1;
	}
	if (fv_model_issues(m, &is)) {
		free(mm);
		return -1;
	}
	fprintf(f, "check: %zu blocks, %zu flips replayed, %zu mismatches\n",
		chk.nr_compared, chk.nr_flips, chk.nr_mismatches);
	for (size_t i = 0; i < chk.nr_mismatches; i++)
		fprintf(f, "pfn 0x%llx expected %s got %s\n",
			(unsigned long long)m->blocks[mm[i].block].pfn,
			fv_mt_name(mm[i].expected), fv_mt_name(mm[i].got));
	if (chk.nr_missing)
		fprintf(f, "note: %zu blocks of the first snapshot are not in the last\n",
			chk.nr_missing);
	/* where a mismatch comes from: a flip nobody reported, or lost events */
	if (m->flip_old_mismatch && !m->have_gen)
		fprintf(f, "note: %llu flips started from another type than the replay's (a type change without a flip event, or lost events)\n",
			(unsigned long long)m->flip_old_mismatch);
	put_issues(f, &is);
	if (m->nr_impossible)
		put_impossible(f, m);
	if (is.nr)
		fprintf(f, "check: the replay cannot be exact: events are missing\n");
	if (m->nr_impossible)
		verdict = FV_CHECK_MISMATCH;
	else if (is.nr)
		verdict = FV_CHECK_INEXACT;
	else
		verdict = chk.nr_mismatches ? FV_CHECK_MISMATCH : FV_CHECK_EXACT;
	fv_issues_free(&is);
	free(mm);
	return verdict;
}
