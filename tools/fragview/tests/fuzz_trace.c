// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_trace.c - libFuzzer target for the code that handles untrusted
 * bytes on fragview's side of the reader child.
 *
 * libtracecmd itself is not fuzzed here: it does crash on some inputs,
 * which is why it runs in a child (see tests/mutate.py for that side).
 * Everything a finding here points at is ours: the first input byte
 * picks the entry point, the rest is its input:
 *   0: a debugfs pageblock dump (dump.c), then model, stats, check;
 *   1: the reader child's byte stream (wire.c) into model and stats;
 *   2: raw fv_event records straight into the model and stats;
 *   3: the text of a capture's kallsyms (ksyms.c), resolved at the
 *      addresses of its own symbols and around them.
 * The model is then replayed at several times and the stats rendered
 * (input byte 0 / 3 picks txt, csv or json); blame (blame.c) takes the
 * same events, and from the stream its comms and stacks, and is ranked
 * and rendered in the same format.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../blame.h"
#include "../compaction.h"
#include "../dump.h"
#include "../ksyms.h"
#include "../model.h"
#include "../render.h"
#include "../stats.h"
#include "../wire.h"

struct sinkctx {
	struct fv_model *m;
	struct fv_stats *s;
	struct fv_blame *b;
};

static int on_event(const struct fv_event *ev, void *ctx)
{
	struct sinkctx *c = ctx;

	fv_blame_apply(c->b, ev);
	if (fv_model_apply(c->m, ev))
		return -1;
	fv_stats_apply(c->s, ev);
	fv_compact_apply(c->m->compact, ev, ev->ts);
	return 0;
}

static int on_comm(int32_t pid, const char *comm, void *ctx)
{
	struct sinkctx *c = ctx;

	fv_blame_add_comm(c->b, pid, comm);
	return 0;
}

static int on_stack(uint32_t id, const char *frames, void *ctx)
{
	struct sinkctx *c = ctx;

	fv_blame_add_stack(c->b, id, frames);
	return 0;
}

static FILE *devnull;

static void exercise_blame(struct fv_blame *b, const struct fv_model *m,
			   unsigned int which)
{
	static int (*const render[])(FILE *, const struct blame_view *) = {
		render_blame_txt, render_blame_csv, render_blame_json,
	};

	(void)m;
	for (int by = 0; by < 3; by++) {
		struct blame_view v = { .b = b, .by = by, .title = "fuzz" };
		struct fv_blame_group *g;

		v.nr = fv_blame_rank(b, by, &g);
		v.g = g;
		v.top = v.nr;
		for (size_t i = 0; i < v.nr; i++)
			if (g[i].steals + g[i].flips != g[i].events ||
			    g[i].polluted + g[i].claimed > g[i].steals)
				abort();	/* counts must add up */
		render[which](devnull, &v);
		free(g);
	}
}

static void exercise(struct fv_model *m, struct fv_stats *s,
		     struct fv_blame *b, unsigned int which)
{
	struct fv_mismatch *mm;
	struct fv_check chk;
	uint8_t *mt;
	uint64_t count[FV_MT_NR];

	m->expect_snap_events = true;	/* incomplete snapshots are reported */
	fv_model_finish(m);
	fv_compact_finish(m->compact, m);
	fv_stats_finish(s, m);
	fv_blame_finish(b, m->pageblock_order);
	s->blame = b;
	mt = malloc(m->nr_blocks + 1);
	mm = malloc((m->nr_blocks + 1) * sizeof(*mm));
	fv_model_types_at(m, 0, mt);
	fv_model_types_at(m, m->first_ts + (m->last_ts - m->first_ts) / 2, mt);
	fv_model_types_at(m, UINT64_MAX, mt);
	for (size_t i = 0; i < m->nr_blocks; i++) {
		const struct fv_hist_rec *a, *b;
		size_t na, nb;

		if (mt[i] != m->blocks[i].mt)
			abort();	/* the final replay must be the final state */
		if (fv_model_find_block(m, m->blocks[i].pfn) != (long)i)
			abort();
		fv_model_block_hist(m, i, &a, &na, &b, &nb);
	}
	fv_model_check(m, &chk, mm);
	if (chk.nr_mismatches > chk.nr_compared)
		abort();
	fv_model_count_types(m, true, count);
	fv_model_count_types(m, false, count);
	/* the compaction overlay at mid-capture and the end */
	{
		struct fv_cmark *mk = malloc((m->nr_blocks + 1) * sizeof(*mk));
		size_t n = fv_compact_marks(m->compact, m, m->first_ts +
					    (m->last_ts - m->first_ts) / 2, mk);

		if (n > m->nr_blocks ||
		    fv_compact_marks(m->compact, m, UINT64_MAX, mk) < n)
			abort();	/* marks only accumulate */
		free(mk);
	}
	/* one renderer per input keeps the executions fast */
	{
		struct compact_opts co = { .timeline = which == 1 };

		if (which == 0) {
			render_stats_txt(devnull, m, s);
			render_compact_txt(devnull, m, &co);
		} else if (which == 1) {
			render_stats_csv(devnull, m, s);
			render_compact_csv(devnull, m, &co);
		} else {
			render_stats_json(devnull, m, s);
			render_compact_json(devnull, m, &co);
		}
	}
	free(mt);
	free(mm);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fv_model m;
	struct fv_stats *s;
	struct fv_blame b;
	struct sinkctx ctx;

	if (!size)
		return 0;
	if (!devnull)
		devnull = fopen("/dev/null", "w");
	fv_model_init(&m);
	m.keep_hist = true;	/* the per-block rings are model code too */
	m.compact = fv_compact_new();
	s = fv_stats_new();
	fv_blame_init(&b);
	ctx = (struct sinkctx){ &m, s, &b };

	switch (data[0] % 4) {
	case 0: {
		FILE *f = fmemopen((void *)(data + 1), size - 1 ? size - 1 : 1, "r");
		struct fv_dump d;
		char err[256];

		if (size > 1 && f && !fv_dump_parse(f, "fuzz", &d, err, sizeof(err))) {
			fv_model_set_pageblock_order(&m, d.pageblock_order);
			for (size_t i = 0; i < d.nr; i++)
				on_event(&d.ev[i], &ctx);
			fv_dump_free(&d);
		}
		if (f)
			fclose(f);
		break;
	}
	case 1: {
		struct wire_sink sink = { .event = on_event, .comm = on_comm,
					  .stack = on_stack, .ctx = &ctx };
		struct wire_state st = { 0 };
		char err[WIRE_MAX_TEXT];

		wire_decode(data + 1, size - 1, &sink, &st, err, sizeof(err));
		break;
	}
	case 3: {
		struct ksyms *k = ksyms_parse((const char *)data + 1, size - 1);
		char frame[KSYM_FRAME_MAX];

		for (size_t off = 1; off + 8 <= size; off += 8) {
			uint64_t a;

			memcpy(&a, data + off, 8);
			ksyms_format(k, a, frame, sizeof(frame));
			if (!memchr(frame, '\0', sizeof(frame)))
				abort();
		}
		ksyms_format(k, 0, frame, sizeof(frame));
		ksyms_format(k, UINT64_MAX, frame, sizeof(frame));
		ksyms_free(k);
		break;
	}
	case 2:
		for (size_t off = 1; off + sizeof(struct fv_event) <= size;
		     off += sizeof(struct fv_event)) {
			struct fv_event ev;

			memcpy(&ev, data + off, sizeof(ev));
			wire_sanitize(&ev);
			on_event(&ev, &ctx);
		}
		break;
	}
	exercise(&m, s, &b, data[0] / 3 % 3);
	exercise_blame(&b, &m, data[0] / 3 % 3);
	fv_stats_free(s);
	fv_blame_free(&b);
	fv_compact_free(m.compact);
	fv_model_free(&m);
	return 0;
}
