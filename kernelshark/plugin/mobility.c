// SPDX-License-Identifier: GPL-2.0
/*
 * KernelShark plugin for the `mobility` trace system.
 *
 * At load time every mobility event and field is looked up by name (event
 * ids and enum values depend on the traced kernel), and each event that
 * deserves attention on the timeline becomes a marker in a data container.
 * At draw time the markers in view are reduced to at most one per bin and
 * lane and drawn as small shapes above the CPU (or task) graph.
 *
 * The text of each event (KernelShark's Info column) is the kernel's print
 * format as libtraceevent renders it, enum fields by the names of its
 * __print_symbolic() tables; the plugin leaves it alone.
 *
 * Set MOBILITY_PLUGIN_REPORT=<file> to get a plain-text account of what
 * the plugin found and drew, rewritten on every repaint; tests use it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event-parse.h"
#include "libkshark-tepdata.h"
#include "mobility.h"

#define MOB_SYSTEM	"mobility"

static const char * const event_names[MOB_EV_NR] = {
	[MOB_EV_STEAL]		= "pageblock_steal",
	[MOB_EV_FLIP]		= "pageblock_flip",
	[MOB_EV_DRAIN]		= "pcp_drain",
	[MOB_EV_MIGRATE]	= "migrate_folio",
	[MOB_EV_STATE]		= "pageblock_state",
	[MOB_EV_MIGRATE_FAILED]	= "migrate_folio_failed",
	[MOB_EV_PASS]		= "migrate_pass",
};

static const char * const mark_names[MOB_MARK_NR] = {
	[MOB_MARK_STEAL_CLAIMED]	= "steal_claimed",
	[MOB_MARK_STEAL_UNCLAIMED]	= "steal_unclaimed",
	[MOB_MARK_FLIP]			= "flip",
	[MOB_MARK_DRAIN]		= "drain",
	[MOB_MARK_MIGRATE_FAIL]		= "migrate_fail",
};

/* Same colours as fragview's maps, so a block looks alike in both tools. */
static const struct {
	const char	*name;
	uint32_t	rgb;
} mt_colours[] = {
	{ "Unmovable",		0xe15759 },
	{ "Movable",		0x59a14f },
	{ "Reclaimable",	0xedc948 },
	{ "HighAtomic",		0xb07aa1 },
	{ "CMA",		0x4e79a7 },
	{ "Isolate",		0x9c755f },
};

#define MOB_RGB_UNKNOWN		0x808080
#define MOB_RGB_DRAIN		0x1f5fd0
#define MOB_RGB_FAIL		0xd00000

static uint32_t mt_rgb(const struct mobility_symbols *syms,
		       unsigned long long mt)
{
	const char *name = mt < 256 ? syms->name[mt] : NULL;
	size_t i;

	if (!name)
		return MOB_RGB_UNKNOWN;
	for (i = 0; i < sizeof(mt_colours) / sizeof(mt_colours[0]); i++)
		if (!strcmp(name, mt_colours[i].name))
			return mt_colours[i].rgb;
	return MOB_RGB_UNKNOWN;
}

static int64_t mobility_pack(int kind, uint32_t rgb)
{
	return (int64_t)kind | (int64_t)rgb << 8;
}

static const char *arg_field_name(struct tep_print_arg *arg)
{
	while (arg && arg->type == TEP_PRINT_TYPE)
		arg = arg->typecast.item;
	if (arg && arg->type == TEP_PRINT_FIELD)
		return arg->field.name;
	return NULL;
}

/*
 * Fill @syms from the __print_symbolic() applied to @field in the print
 * format, searching through casts and ?: operators where it may be nested.
 */
static void find_symbols(struct tep_print_arg *arg, const char *field,
			 struct mobility_symbols *syms)
{
	struct tep_print_flag_sym *sym;
	const char *name;
	char *end;
	long val;

	for (; arg; arg = arg->next) {
		switch (arg->type) {
		case TEP_PRINT_SYMBOL:
			name = arg_field_name(arg->symbol.field);
			if (!name || strcmp(name, field))
				break;
			for (sym = arg->symbol.symbols; sym; sym = sym->next) {
				val = strtol(sym->value, &end, 0);
				if (*end || val < 0 || val > 255)
					continue;
				syms->name[val] = sym->str;
			}
			break;
		case TEP_PRINT_TYPE:
			find_symbols(arg->typecast.item, field, syms);
			break;
		case TEP_PRINT_OP:
			find_symbols(arg->op.left, field, syms);
			find_symbols(arg->op.right, field, syms);
			break;
		default:
			break;
		}
	}
}

static unsigned long long read_field(struct tep_format_field *field,
				     struct tep_record *record)
{
	unsigned long long val = 0;

	if (field)
		tep_read_number_field(field, record->data, &val);
	return val;
}

static void add_mark(struct mobility_context *ctx, struct kshark_entry *entry,
		     int kind, uint32_t rgb)
{
	kshark_data_container_append(ctx->marks, entry, mobility_pack(kind, rgb));
	ctx->n_marks[kind]++;
}

/*
 * A fallback steal: a triangle, filled if the block was claimed.  On 6.12
 * the same event also reports a claim try_to_steal_block() declined
 * (taken=0): nothing was taken and no page moved, so drawing it as a steal
 * would show block mixing that did not happen.  It is counted, not drawn;
 * its info text (the kernel's print format) says taken=0.  Captures from
 * before the field have steals only.
 */
static void on_steal(struct kshark_data_stream *stream, void *rec,
		     struct kshark_entry *entry)
{
	struct mobility_context *ctx = __get_context(stream->stream_id);
	unsigned long long alloc_mt;
	bool claimed;

	if (!ctx)
		return;
	ctx->n_events[MOB_EV_STEAL]++;
	if (ctx->steal_taken && !read_field(ctx->steal_taken, rec)) {
		ctx->n_declined++;
		return;
	}
	claimed = read_field(ctx->steal_claimed, rec);
	alloc_mt = read_field(ctx->steal_alloc_mt, rec);
	add_mark(ctx, entry,
		 claimed ? MOB_MARK_STEAL_CLAIMED : MOB_MARK_STEAL_UNCLAIMED,
		 mt_rgb(&ctx->steal_mt_names, alloc_mt));
}

static void on_flip(struct kshark_data_stream *stream, void *rec,
		    struct kshark_entry *entry)
{
	struct mobility_context *ctx = __get_context(stream->stream_id);

	if (!ctx)
		return;
	ctx->n_events[MOB_EV_FLIP]++;
	add_mark(ctx, entry, MOB_MARK_FLIP,
		 mt_rgb(&ctx->flip_mt_names,
			read_field(ctx->flip_new_mt, rec)));
}

static void on_drain(struct kshark_data_stream *stream, void *rec,
		     struct kshark_entry *entry)
{
	struct mobility_context *ctx = __get_context(stream->stream_id);

	if (!ctx)
		return;
	ctx->n_events[MOB_EV_DRAIN]++;
	add_mark(ctx, entry, MOB_MARK_DRAIN, MOB_RGB_DRAIN);
}

static struct mobility_pending *pending_of(struct mobility_context *ctx,
					   struct tep_record *record)
{
	if (!ctx->pending || record->cpu < 0 || record->cpu >= ctx->n_cpus)
		return NULL;
	return &ctx->pending[record->cpu];
}

static void on_migrate(struct kshark_data_stream *stream, void *rec,
		       struct kshark_entry *entry)
{
	struct mobility_context *ctx = __get_context(stream->stream_id);
	struct mobility_pending *p;
	int i, result;

	if (!ctx)
		return;
	ctx->n_events[MOB_EV_MIGRATE]++;
	/* "result" is a 4-byte int: truncate to get the sign back. */
	result = (int)read_field(ctx->migrate_result, rec);
	if (result != 0)
		add_mark(ctx, entry, MOB_MARK_MIGRATE_FAIL, MOB_RGB_FAIL);

	/* Records arrive CPU by CPU, each CPU's in the order written. */
	p = pending_of(ctx, rec);
	if (!p)
		return;
	p->failed = result != 0 && ctx->n_pair > 0;
	for (i = 0; p->failed && i < ctx->n_pair; i++)
		p->val[i] = read_field(ctx->pair_folio[i], rec);
}

/*
 * The same record as migrate_folio, so the same marker: a red cross for a
 * result other than 0 (always, as the kernel emits it).  When migrate_folio
 * was recorded too, the kernel writes each failed record right after the
 * migrate_folio it repeats, on the same CPU: that attempt is marked once.
 */
static void on_migrate_failed(struct kshark_data_stream *stream, void *rec,
			      struct kshark_entry *entry)
{
	struct mobility_context *ctx = __get_context(stream->stream_id);
	struct mobility_pending *p;
	bool repeat;
	int i, result;

	if (!ctx)
		return;
	ctx->n_events[MOB_EV_MIGRATE_FAILED]++;
	p = pending_of(ctx, rec);
	repeat = p && p->failed;
	for (i = 0; repeat && i < ctx->n_pair; i++)
		repeat = read_field(ctx->pair_failed[i], rec) == p->val[i];
	if (p)
		p->failed = false;
	if (repeat) {
		ctx->n_repeats++;
		return;
	}
	result = (int)read_field(ctx->failed_result, rec);
	if (result != 0)
		add_mark(ctx, entry, MOB_MARK_MIGRATE_FAIL, MOB_RGB_FAIL);
}

/* An event that is counted, not drawn. */
static void count_only(struct kshark_data_stream *stream, int ev)
{
	struct mobility_context *ctx = __get_context(stream->stream_id);

	if (ctx)
		ctx->n_events[ev]++;
}

/* Snapshots only update the block map; counted, not drawn. */
static void on_state(struct kshark_data_stream *stream, void *rec,
		     struct kshark_entry *entry)
{
	count_only(stream, MOB_EV_STATE);
}

/*
 * A retry pass of migrate_pages(): counted, not drawn (its failures have
 * their migrate_folio_failed crosses).  Its info text, stage and mode and
 * reason by name, is the kernel's print format, as for every other event.
 */
static void on_pass(struct kshark_data_stream *stream, void *rec,
		    struct kshark_entry *entry)
{
	count_only(stream, MOB_EV_PASS);
}

static const kshark_plugin_event_handler_func handlers[MOB_EV_NR] = {
	[MOB_EV_STEAL]		= on_steal,
	[MOB_EV_FLIP]		= on_flip,
	[MOB_EV_DRAIN]		= on_drain,
	[MOB_EV_MIGRATE]	= on_migrate,
	[MOB_EV_STATE]		= on_state,
	[MOB_EV_MIGRATE_FAILED]	= on_migrate_failed,
	[MOB_EV_PASS]		= on_pass,
};

static void write_report(struct mobility_context *ctx, const char *status)
{
	const char *path = getenv("MOBILITY_PLUGIN_REPORT");
	FILE *f;
	int i;

	if (!path || !*path)
		return;
	f = fopen(path, "w");
	if (!f)
		return;
	fprintf(f, "status %s\nfile %s\n", status,
		ctx->file ? ctx->file : "?");
	for (i = 0; i < MOB_EV_NR; i++)
		fprintf(f, "event %s id %d count %lu\n", event_names[i],
			ctx->event_id[i], ctx->n_events[i]);
	/* migrate_folio_failed records that repeat a migrate_folio's */
	fprintf(f, "repeats migrate_folio_failed count %lu\n", ctx->n_repeats);
	/* pageblock_steal records of declined claims (taken=0), not marked */
	fprintf(f, "declined pageblock_steal count %lu\n", ctx->n_declined);
	for (i = 0; i < MOB_MARK_NR; i++)
		fprintf(f, "mark %s stored %lu drawn %lu\n", mark_names[i],
			ctx->n_marks[i], ctx->n_drawn[i]);
	fprintf(f, "graph cpu drawn %lu\ngraph task drawn %lu\n",
		ctx->n_drawn_cpu, ctx->n_drawn_task);
	fclose(f);
}

static void mobility_free_context(struct mobility_context *ctx)
{
	if (!ctx)
		return;
	kshark_free_data_container(ctx->marks);
	free(ctx->pending);
	free(ctx->file);
}

KS_DEFINE_PLUGIN_CONTEXT(struct mobility_context, mobility_free_context);

static bool lookup_events(struct kshark_data_stream *stream,
			  struct mobility_context *ctx)
{
	struct tep_handle *tep = kshark_get_tep(stream);
	char full_name[64];
	int i, found = 0;

	for (i = 0; i < MOB_EV_NR; i++) {
		snprintf(full_name, sizeof(full_name), "%s/%s",
			 MOB_SYSTEM, event_names[i]);
		ctx->event_id[i] = kshark_find_event_id(stream, full_name);
		ctx->event[i] = tep_find_event_by_name(tep, MOB_SYSTEM,
						       event_names[i]);
		if (ctx->event_id[i] < 0 || !ctx->event[i]) {
			ctx->event_id[i] = -1;
			ctx->event[i] = NULL;
			continue;
		}
		found++;
	}
	return found > 0;
}

/*
 * With both migrate_folio and migrate_folio_failed in the capture: the
 * fields, by name, that tell whether a failed record repeats the attempt
 * of the migrate_folio before it.
 */
static void lookup_pairs(struct mobility_context *ctx)
{
	struct tep_event *failed = ctx->event[MOB_EV_MIGRATE_FAILED];
	struct tep_event *folio = ctx->event[MOB_EV_MIGRATE];
	struct tep_format_field *f, *g;

	ctx->n_pair = 0;
	if (!failed || !folio)
		return;
	for (f = failed->format.fields; f; f = f->next) {
		g = tep_find_field(folio, f->name);
		if (!g || ctx->n_pair == MOB_PAIR_FIELDS)
			continue;
		ctx->pair_failed[ctx->n_pair] = f;
		ctx->pair_folio[ctx->n_pair] = g;
		ctx->n_pair++;
	}
}

static void lookup_fields(struct mobility_context *ctx)
{
	struct tep_event *ev;

	ev = ctx->event[MOB_EV_STEAL];
	if (ev) {
		ctx->steal_claimed = tep_find_field(ev, "claimed");
		ctx->steal_taken = tep_find_field(ev, "taken");
		ctx->steal_alloc_mt = tep_find_field(ev, "alloc_mt");
		find_symbols(ev->print_fmt.args, "alloc_mt",
			     &ctx->steal_mt_names);
	}
	ev = ctx->event[MOB_EV_FLIP];
	if (ev) {
		ctx->flip_new_mt = tep_find_field(ev, "new_mt");
		find_symbols(ev->print_fmt.args, "new_mt",
			     &ctx->flip_mt_names);
	}
	ev = ctx->event[MOB_EV_MIGRATE];
	if (ev)
		ctx->migrate_result = tep_find_field(ev, "result");
	ev = ctx->event[MOB_EV_MIGRATE_FAILED];
	if (ev)
		ctx->failed_result = tep_find_field(ev, "result");
	lookup_pairs(ctx);
}

/** Load this plugin. */
int KSHARK_PLOT_PLUGIN_INITIALIZER(struct kshark_data_stream *stream)
{
	struct mobility_context *ctx;
	int i;

	if (!kshark_is_tep(stream))
		return 0;

	ctx = __init(stream->stream_id);
	if (!ctx)
		return 0;
	ctx->file = strdup(stream->file ? stream->file : "?");
	ctx->marks = kshark_init_data_container();
	if (!ctx->file || !ctx->marks || !lookup_events(stream, ctx)) {
		fprintf(stderr, "mobility: no mobility events in %s\n",
			stream->file);
		write_report(ctx, "declined");
		__close(stream->stream_id);
		return 0;
	}
	lookup_fields(ctx);
	if (ctx->n_pair) {
		ctx->n_cpus = stream->n_cpus;
		ctx->pending = calloc(ctx->n_cpus > 0 ? ctx->n_cpus : 1,
				      sizeof(*ctx->pending));
	}

	for (i = 0; i < MOB_EV_NR; i++)
		if (ctx->event_id[i] >= 0)
			kshark_register_event_handler(stream, ctx->event_id[i],
						      handlers[i]);
	kshark_register_draw_handler(stream, mobility_draw);

	fprintf(stderr, "mobility: plugin loaded for %s\n", stream->file);
	write_report(ctx, "loaded");
	return 1;
}

/** Unload this plugin. */
int KSHARK_PLOT_PLUGIN_DEINITIALIZER(struct kshark_data_stream *stream)
{
	struct mobility_context *ctx = __get_context(stream->stream_id);
	int i;

	if (!ctx)
		return 0;
	for (i = 0; i < MOB_EV_NR; i++)
		if (ctx->event_id[i] >= 0)
			kshark_unregister_event_handler(stream,
							ctx->event_id[i],
							handlers[i]);
	kshark_unregister_draw_handler(stream, mobility_draw);
	__close(stream->stream_id);
	return 1;
}

void mobility_count_drawn(struct mobility_context *ctx, int draw_action,
			  const struct mobility_mark *marks, ssize_t n)
{
	ssize_t i;

	for (i = 0; i < n; i++)
		ctx->n_drawn[marks[i].kind]++;
	if (draw_action & KSHARK_CPU_DRAW)
		ctx->n_drawn_cpu += n;
	else
		ctx->n_drawn_task += n;
	write_report(ctx, "drawn");
}
