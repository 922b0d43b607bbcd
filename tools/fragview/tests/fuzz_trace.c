// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_trace.c - libFuzzer target for the code that handles untrusted
 * bytes on fragview's side of the reader child, and for every output
 * drawn from them.
 *
 * libtracecmd itself is not fuzzed here: it does crash on some inputs,
 * which is why it runs in a child (see tests/mutate.py for that side).
 * Everything a finding here points at is ours.  An input is a header of
 * four bytes, then the entry point's bytes:
 *   [0] the entry point (% 4):
 *       0: a debugfs pageblock dump (dump.c, as fragview dump reads it);
 *       1: the reader child's byte stream (wire.c) into model and stats;
 *       2: raw fv_event records straight into the model and stats;
 *       3: the text of a capture's kallsyms (ksyms.c), resolved at the
 *          addresses of its own symbols and around them; each of its
 *          lines also as a recorder's zone line (zonemark.c);
 *   [1] the job (% the number of jobs): one hook of one format of the
 *       render table (render.c), and for maps one view (map --view);
 *       or fragview check's report;
 *   [2] the map's width in columns; explain's --top, and with --at its
 *       --order;
 *   [3] flags: --at (bits 0-1: none, the first event, the middle, after
 *       the end), --zone (bits 2-3: none, a node, a zone type, both),
 *       compact --timeline (bit 4), blame --by (bits 5-6), explain --at
 *       (bit 7).
 * The model's invariants are checked on every input; one job renders,
 * so an execution stays fast and the seeds choose what is drawn.
 *
 * With FV_FUZZ_REACHED=FILE, FILE gets at exit one line "COUNT NAME" per
 * job and overlay: how many inputs drew it with data to draw (a job on
 * an empty model does not count).  tests/fuzz-reach.sh checks the seeds
 * reach every one.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../blame.h"
#include "../compaction.h"
#include "../dump.h"
#include "../explain.h"
#include "../integrity.h"
#include "../ksyms.h"
#include "../migform.h"
#include "../model.h"
#include "../render.h"
#include "../render_map_color.h"
#include "../stats.h"
#include "../wire.h"
#include "../zonemark.h"

#define HEADER 4

struct sinkctx {
	struct fv_model *m;
	struct fv_stats *s;
	struct fv_blame *b;
	struct fv_blame *tally;		/* stats': the counts (blame_tally.h) */
	bool have[FV_EV_NR];		/* the kinds the input has */
};

static int on_event(const struct fv_event *ev, void *ctx)
{
	struct sinkctx *c = ctx;

	/* as capture.c: the kinds seen so far stand for the formats */
	if (ev->kind < FV_EV_NR && !c->have[ev->kind]) {
		c->have[ev->kind] = true;
		fv_migform_init(&c->m->mig, c->have);
		c->s->mig = c->m->mig;
	}
	if (fv_mig_role(&c->m->mig, ev) == FV_MIG_DROP)
		return 0;
	fv_blame_apply(c->b, ev);
	fv_blame_apply(c->tally, ev);
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
	fv_blame_add_comm(c->tally, pid, comm);
	return 0;
}

static int on_stack(uint32_t id, const char *frames, void *ctx)
{
	struct sinkctx *c = ctx;

	fv_blame_add_stack(c->b, id, frames);
	fv_blame_add_stack(c->tally, id, frames);
	return 0;
}

/* --- what the inputs reach: jobs and overlays, counted by name */

#define MAX_COUNTERS 256

static struct counter {
	char name[48];
	unsigned long hits;
} counters[MAX_COUNTERS];
static size_t nr_counters;

static void counter_add(const char *fmt, ...)
{
	va_list ap;

	if (nr_counters == MAX_COUNTERS)
		abort();	/* the harness outgrew its table */
	va_start(ap, fmt);
	vsnprintf(counters[nr_counters++].name, sizeof(counters[0].name), fmt, ap);
	va_end(ap);
}

static void reached(const char *fmt, ...)
{
	char name[sizeof(counters[0].name)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < nr_counters; i++) {
		if (!strcmp(counters[i].name, name)) {
			counters[i].hits++;
			return;
		}
	}
	abort();	/* a name the table does not list */
}

static const char *reach_file;

static void write_reached(void)
{
	FILE *f = fopen(reach_file, "w");

	if (!f)
		return;
	for (size_t i = 0; i < nr_counters; i++)
		fprintf(f, "%lu %s\n", counters[i].hits, counters[i].name);
	fclose(f);
}

/* --- the jobs: the render table's hooks, the map's views, check */

enum { JOB_CHECK = RENDER_NR };

struct job {
	int kind;			/* enum render_kind, or JOB_CHECK */
	const struct renderer *r;
	int view;			/* maps: enum map_color */
	bool truecolour;		/* ansi: COLORTERM=truecolor */
	char name[40];
};

#define MAX_JOBS 128
static struct job jobs[MAX_JOBS];
static size_t nr_jobs;

static const char *const kind_names[RENDER_NR] = {
	[RENDER_MAP] = "map", [RENDER_STATS] = "stats",
	[RENDER_BLAME] = "blame", [RENDER_COMPACT] = "compact",
	[RENDER_EXPLAIN] = "explain",
};

static struct job *job_add(int kind, const struct renderer *r)
{
	struct job *j = &jobs[nr_jobs++];

	if (nr_jobs > MAX_JOBS)
		abort();
	*j = (struct job){ .kind = kind, .r = r };
	return j;
}

static void map_jobs(const struct renderer *r)
{
	for (int tc = 0; tc <= (r->map == render_map_ansi); tc++) {
		for (int view = 0; view < MAP_COLOR_NR; view++) {
			struct job *j = job_add(RENDER_MAP, r);

			j->view = view;
			j->truecolour = tc;
			snprintf(j->name, sizeof(j->name), "%s%s/%s", r->name,
				 tc ? "-truecolor" : "", map_color_name(view));
			counter_add("map/%s", j->name);
			/* fragview dump draws the type view only */
			if (view == MAP_COLOR_TYPE)
				counter_add("dump/%s", j->name);
			/* the largest pageblock_order a dump may say */
			if (view == MAP_COLOR_ORDER)
				counter_add("dump/%s@order%d", j->name,
					    FV_ORDER_MAX);
		}
	}
	if (r->map == render_map_html) {
		counter_add("map/html+blame");
		counter_add("map/html+compact");
		counter_add("map/html+explain");
	}
}

static void jobs_init(void)
{
	const struct renderer *r;

	for (int kind = 0; kind < RENDER_NR; kind++) {
		for (size_t i = 0; (r = renderer_at(i)); i++) {
			if (!renderer_does(r, kind))
				continue;
			if (kind == RENDER_MAP) {
				map_jobs(r);
				continue;
			}
			snprintf(job_add(kind, r)->name, sizeof(jobs[0].name),
				 "%s", r->name);
			counter_add("%s/%s", kind_names[kind], r->name);
		}
	}
	snprintf(job_add(JOB_CHECK, NULL)->name, sizeof(jobs[0].name), "report");
	counter_add("check");
	/* the parts of outputs only some inputs have */
	for (size_t i = 0; (r = renderer_at(i)); i++) {
		if (r->stats)
			counter_add("stats/%s+census", r->name);
		if (r->compact)
			counter_add("compact/%s+timeline", r->name);
		if (r->explain) {
			counter_add("explain/%s+at", r->name);
			counter_add("explain/%s+watermarks", r->name);
		}
	}
	for (int by = 0; by < 3; by++)
		counter_add("blame/by%d", by);
}

/* --- the options a header asks for */

struct choice {
	const struct job *job;
	unsigned int width;
	unsigned int flags;
	bool dump;			/* the input is a dump (fragview dump) */
};

#define F_AT		0x03
#define F_ZONE		0x0c
#define F_TIMELINE	0x10
#define F_BY		0x60
#define F_EXPLAIN_AT	0x80

static uint64_t mid_ts(const struct fv_model *m)
{
	return m->first_ts + (m->last_ts - m->first_ts) / 2;
}

static void pick_at(const struct fv_model *m, unsigned int flags,
		    bool *have, uint64_t *ts)
{
	*have = flags & F_AT;
	switch (flags & F_AT) {
	case 1:
		*ts = m->first_ts;
		break;
	case 2:
		*ts = mid_ts(m);
		break;
	case 3:
		*ts = m->last_ts + 1;	/* cmd_map warns and draws */
		break;
	}
}

static void pick_zone(const struct fv_model *m, unsigned int flags,
		      struct map_opts *o)
{
	const struct fv_zone *z;

	if (!m->nr_zones)
		return;
	z = &m->zones[m->nr_zones - 1];
	switch ((flags & F_ZONE) >> 2) {
	case 1:
		o->zone_nid = z->nid;
		break;
	case 2:
		o->zone_type = z->zone;
		break;
	case 3:
		o->zone_nid = z->nid;
		o->zone_type = z->zone;
		break;
	}
}

/* A view with data to draw (the others are errors of fragview map). */
static bool view_has_data(const struct fv_model *m, int view)
{
	switch (view) {
	case MAP_COLOR_FREE:
	case MAP_COLOR_ORDER:
		return m->nr_states || m->nr_census;
	case MAP_COLOR_POLLUTION:
		return m->nr_census;
	case MAP_COLOR_STEALS:
		return m->nr_steal_recs;
	}
	return true;
}

static void run_map(FILE *out, const struct choice *ch,
		    const struct fv_model *m, const struct fv_blame *b)
{
	const struct job *j = ch->job;
	struct map_opts o = { .zone_nid = -1, .zone_type = -1,
			      .width = ch->width, .color = j->view,
			      .title = "fuzz <&\"'>" };

	if (j->truecolour)
		setenv("COLORTERM", "truecolor", 1);
	else
		unsetenv("COLORTERM");
	pick_at(m, ch->flags, &o.have_at, &o.at_ts);
	pick_zone(m, ch->flags, &o);
	if (j->r->map == render_map_html && b->nr_recs)
		o.blame = b;
	if (j->r->map(out, m, &o) || !m->nr_blocks || !view_has_data(m, j->view))
		return;
	if (ch->dump) {
		if (j->view == MAP_COLOR_TYPE)
			reached("dump/%s", j->name);
		if (j->view == MAP_COLOR_ORDER &&
		    m->pageblock_order == FV_ORDER_MAX)
			reached("dump/%s@order%d", j->name, FV_ORDER_MAX);
		return;
	}
	reached("map/%s", j->name);
	if (j->r->map != render_map_html)
		return;
	if (o.blame)
		reached("map/html+blame");
	if (m->compact->nr_runs)
		reached("map/html+compact");
	for (size_t i = 0; i < m->compact->nr_allocs; i++) {
		if (!m->compact->allocs[i].ok) {
			reached("map/html+explain");
			break;
		}
	}
}

static void run_blame(FILE *out, const struct choice *ch,
		      const struct fv_blame *b)
{
	int by = (ch->flags & F_BY) >> 5;
	struct blame_view v = { .b = b, .by = by % 3, .title = "fuzz" };
	struct fv_blame_group *g;

	v.nr = fv_blame_rank(b, v.by, &g);
	v.g = g;
	v.top = ch->width < v.nr ? ch->width : v.nr;
	for (size_t i = 0; i < v.nr; i++)
		if (g[i].steals + g[i].flips != g[i].events ||
		    g[i].polluted + g[i].claimed > g[i].steals)
			abort();	/* counts must add up */
	if (!ch->job->r->blame(out, &v) && v.nr) {
		reached("blame/%s", ch->job->name);
		reached("blame/by%d", v.by);
	}
	free(g);
}

static void run_explain(FILE *out, const struct choice *ch,
			const struct fv_model *m, const struct fv_blame *b)
{
	const struct fv_compact *c = m->compact;
	struct explain_view v = { .m = m, .b = b->nr_recs || b->nr_comms ? b : NULL,
				  .order = m->pageblock_order,
				  .at = ch->flags & F_EXPLAIN_AT,
				  .title = "fuzz" };
	int64_t *idx = malloc((c->nr_allocs + 1) * sizeof(*idx));
	struct fv_explanation *e;
	uint64_t ts = 0;

	if (v.at) {
		v.order = ch->width % 21;	/* explain --order's range */
		ts = ch->flags & F_AT ? m->last_ts : mid_ts(m);
		idx[0] = -1;
		v.nr = 1;
	} else {
		v.nr = fv_explain_pick(c, SIZE_MAX, v.order, idx, &v.nr_failed);
	}
	e = calloc(v.nr + 1, sizeof(*e));
	for (size_t i = 0; i < v.nr; i++)
		fv_explain(m, b->nr_recs ? b : NULL, idx[i], ts, v.order,
			   ch->width, &e[i]);
	v.e = e;
	if (!ch->job->r->explain(out, &v) && v.nr && m->nr_blocks) {
		reached(v.at ? "explain/%s+at" : "explain/%s", ch->job->name);
		if (m->nr_wmarks)
			reached("explain/%s+watermarks", ch->job->name);
	}
	for (size_t i = 0; i < v.nr; i++)
		fv_explain_free(&e[i]);
	free(e);
	free(idx);
}

static void run_job(FILE *out, const struct choice *ch, struct fv_model *m,
		    struct fv_stats *s, const struct fv_blame *b)
{
	const struct job *j = ch->job;
	struct compact_opts co = { .timeline = ch->flags & F_TIMELINE,
				   .title = "fuzz" };

	switch (j->kind) {
	case RENDER_MAP:
		run_map(out, ch, m, b);
		break;
	case RENDER_STATS:
		if (j->r->stats(out, m, s) || !m->nr_blocks)
			break;
		reached("stats/%s", j->name);
		if (s->nr_census_zones)
			reached("stats/%s+census", j->name);
		break;
	case RENDER_BLAME:
		run_blame(out, ch, b);
		break;
	case RENDER_COMPACT:
		if (j->r->compact(out, m, &co) || !m->compact->nr_runs)
			break;
		reached(co.timeline ? "compact/%s+timeline" : "compact/%s",
			j->name);
		break;
	case RENDER_EXPLAIN:
		run_explain(out, ch, m, b);
		break;
	case JOB_CHECK:
		if (fv_check_report(out, m) >= 0 && m->nr_blocks)
			reached("check");
		break;
	}
}

/* --- the model's invariants, on every input */

static void check_model(struct fv_model *m)
{
	struct fv_mismatch *mm;
	struct fv_check chk;
	uint8_t *mt;
	uint64_t count[FV_MT_NR];
	struct fv_cmark *mk;
	size_t n;

	mt = malloc(m->nr_blocks + 1);
	mm = malloc((m->nr_blocks + 1) * sizeof(*mm));
	fv_model_types_at(m, 0, mt);
	fv_model_types_at(m, mid_ts(m), mt);
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
	mk = malloc((m->nr_blocks + 1) * sizeof(*mk));
	n = fv_compact_marks(m->compact, m, mid_ts(m), mk);
	if (n > m->nr_blocks || fv_compact_marks(m->compact, m, UINT64_MAX, mk) < n)
		abort();	/* marks only accumulate */
	free(mk);
	free(mt);
	free(mm);
}

/* stats' tally ranks as blame's records do, every group's counts */
static void check_tally(const struct fv_blame *b, const struct fv_blame *t)
{
	if (b->nr_with_stack != t->nr_with_stack ||
	    fv_blame_events(b) != fv_blame_events(t))
		abort();
	for (int by = 0; by < 3; by++) {
		struct fv_blame_group *g, *h;
		size_t n = fv_blame_rank(b, by, &g);

		if (fv_blame_rank(t, by, &h) != n)
			abort();
		for (size_t i = 0; i < n; i++)
			if (g[i].key != h[i].key || g[i].steals != h[i].steals ||
			    g[i].polluted != h[i].polluted ||
			    g[i].claimed != h[i].claimed ||
			    g[i].flips != h[i].flips || g[i].events != h[i].events)
				abort();
		free(g);
		free(h);
	}
}

/* As capture.c finishes a capture: what the input's kinds announce. */
static void finish(struct sinkctx *c)
{
	struct fv_model *m = c->m;

	m->expect_snap_events = true;	/* incomplete snapshots are reported */
	m->expect_steal_events = c->have[FV_EV_STEAL] || c->have[FV_EV_EXTFRAG];
	m->compact->have_alloc_event = c->have[FV_EV_ALLOC];
	m->compact->have_compaction_events = c->have[FV_EV_CTRY] ||
					     c->have[FV_EV_CBEGIN];
	fv_model_finish(m);
	fv_compact_finish(m->compact, m);
	fv_stats_finish(c->s, m);
	fv_blame_finish(c->b, m->pageblock_order);
	fv_blame_finish(c->tally, m->pageblock_order);
	check_tally(c->b, c->tally);
	c->s->blame = c->tally;		/* as fragview stats has it */
}

static void read_dump(const uint8_t *data, size_t size, struct fv_model *m)
{
	FILE *f = fmemopen((void *)data, size ? size : 1, "r");
	char err[256];

	if (size && f)
		fv_dump_load(f, "fuzz", m, err, sizeof(err));
	if (f)
		fclose(f);
}

static void read_ksyms(const uint8_t *data, size_t size)
{
	struct ksyms *k = ksyms_parse((const char *)data, size);
	char frame[KSYM_FRAME_MAX];

	for (size_t off = 0; off + 8 <= size; off += 8) {
		uint64_t a;

		memcpy(&a, data + off, 8);
		ksyms_format(k, a, frame, sizeof(frame));
		if (!memchr(frame, '\0', sizeof(frame)))
			abort();
	}
	ksyms_format(k, 0, frame, sizeof(frame));
	ksyms_format(k, UINT64_MAX, frame, sizeof(frame));
	ksyms_free(k);
	for (const uint8_t *line = data, *end = data + size; line < end;) {
		const uint8_t *nl = memchr(line, '\n', end - line);
		size_t len = (nl ? nl : end) - line;
		struct fv_wmark w;

		if (fv_zonemark_parse((const char *)line, len, &w) &&
		    w.zone >= FV_ZONE_NR)
			abort();	/* a zone the names do not have */
		line += len + 1;
	}
}

static FILE *devnull;

/*
 * Once, before the first input.  FV_FUZZ_JOBS=1 prints "INDEX NAME" per
 * job and exits: tests/make-fuzz-seeds.py picks the jobs by name.
 */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
	jobs_init();
	if (getenv("FV_FUZZ_JOBS")) {
		for (size_t i = 0; i < nr_jobs; i++)
			printf("%zu %s/%s\n", i, jobs[i].kind == JOB_CHECK ?
			       "check" : kind_names[jobs[i].kind],
			       jobs[i].name);
		exit(0);
	}
	reach_file = getenv("FV_FUZZ_REACHED");
	if (reach_file)
		atexit(write_reached);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fv_model m;
	struct fv_blame b, tally;
	struct sinkctx ctx = { .m = &m, .b = &b, .tally = &tally };
	struct choice ch;

	if (size < HEADER)
		return 0;
	ch = (struct choice){ .job = &jobs[data[1] % nr_jobs],
			      .width = data[2], .flags = data[3],
			      .dump = data[0] % 4 == 0 };
	fv_model_init(&m);
	/* what the map, its views and the HTML block details keep */
	m.keep_hist = true;
	m.keep_space_times = true;
	m.keep_steal_times = true;
	m.compact = fv_compact_new();
	ctx.s = fv_stats_new();
	fv_blame_init(&b);
	fv_blame_init_tallied(&tally);
	data += HEADER;
	size -= HEADER;

	switch (ch.dump ? 0 : data[-HEADER] % 4) {
	case 0:
		read_dump(data, size, &m);
		break;
	case 1: {
		struct wire_sink sink = { .event = on_event, .comm = on_comm,
					  .stack = on_stack, .ctx = &ctx };
		struct wire_state st = { 0 };
		char err[WIRE_MAX_TEXT];

		wire_decode(data, size, &sink, &st, err, sizeof(err));
		break;
	}
	case 2:
		for (size_t off = 0; off + sizeof(struct fv_event) <= size;
		     off += sizeof(struct fv_event)) {
			struct fv_event ev;

			memcpy(&ev, data + off, sizeof(ev));
			wire_sanitize(&ev);
			on_event(&ev, &ctx);
		}
		break;
	case 3:
		read_ksyms(data, size);
		break;
	}
	finish(&ctx);
	check_model(&m);
	run_job(devnull, &ch, &m, ctx.s, &b);
	fv_stats_free(ctx.s);
	fv_blame_free(&b);
	fv_blame_free(&tally);
	fv_compact_free(m.compact);
	fv_model_free(&m);
	return 0;
}
