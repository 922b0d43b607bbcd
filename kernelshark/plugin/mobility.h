/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KernelShark 2.x plugin for the `mobility` trace system: marks pageblock
 * steals, migratetype flips, pcp drains and failed migrations (from
 * migrate_folio or migrate_folio_failed) on the CPU and task graphs.  All
 * the logic is C (mobility.c); mobility_plot.cpp is only the glue that
 * KernelShark's C++ drawing API requires.
 */
#ifndef _KS_PLUGIN_MOBILITY_H
#define _KS_PLUGIN_MOBILITY_H

#include <stdint.h>
#include <sys/types.h>

#include "libkshark.h"
#include "libkshark-plugin.h"
#include "libkshark-model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What one marker on the timeline stands for; also its drawing lane. */
enum mobility_mark_kind {
	MOB_MARK_STEAL_CLAIMED,		/* filled triangle, alloc_mt colour */
	MOB_MARK_STEAL_UNCLAIMED,	/* hollow triangle, alloc_mt colour */
	MOB_MARK_FLIP,			/* filled diamond, new_mt colour */
	MOB_MARK_DRAIN,			/* hollow square, blue */
	MOB_MARK_MIGRATE_FAIL,		/* red cross */
	MOB_MARK_NR,
};

/* The events of the `mobility` system, looked up by name at load time. */
enum mobility_event {
	MOB_EV_STEAL,
	MOB_EV_FLIP,
	MOB_EV_DRAIN,
	MOB_EV_MIGRATE,
	MOB_EV_STATE,
	MOB_EV_MIGRATE_FAILED,	/* migrate_folio's record, failures only */
	MOB_EV_PASS,		/* migrate_pass: counted, not drawn */
	MOB_EV_NR,
};

/* Fields of migrate_folio_failed compared with migrate_folio's, at most. */
#define MOB_PAIR_FIELDS	16

/*
 * The last migrate_folio of one CPU, while it may still be followed by
 * the migrate_folio_failed record that repeats it (a capture with both).
 */
struct mobility_pending {
	bool			failed;		/* result != 0: a repeat may come */
	unsigned long long	val[MOB_PAIR_FIELDS];
};

/* Maps a u8 enum value to a name, read from the event's __print_symbolic(). */
struct mobility_symbols {
	const char	*name[256];
};

struct tep_event;
struct tep_format_field;

struct mobility_context {
	struct tep_event	*event[MOB_EV_NR];
	int			event_id[MOB_EV_NR];

	/* Fields the markers depend on; NULL when the capture lacks one. */
	struct tep_format_field	*steal_claimed;
	/* pageblock_steal.taken (patch 12); NULL: every steal was taken */
	struct tep_format_field	*steal_taken;
	struct tep_format_field	*steal_alloc_mt;
	struct tep_format_field	*flip_new_mt;
	struct tep_format_field	*migrate_result;
	struct tep_format_field	*failed_result;

	/*
	 * Same-named fields of migrate_folio_failed and migrate_folio: a
	 * failed record equal in all of them to the last migrate_folio of
	 * its CPU is that attempt's repeat and gets no second marker.
	 */
	struct tep_format_field	*pair_failed[MOB_PAIR_FIELDS];
	struct tep_format_field	*pair_folio[MOB_PAIR_FIELDS];
	int			n_pair;
	struct mobility_pending	*pending;	/* one per CPU */
	int			n_cpus;
	unsigned long		n_repeats;
	/* pageblock_steal with taken=0: claims declined, nothing stolen */
	unsigned long		n_declined;

	struct mobility_symbols	steal_mt_names;
	struct mobility_symbols	flip_mt_names;

	/* One entry per marker; field = kind | rgb << 8 (see mobility_pack). */
	struct kshark_data_container	*marks;

	/* Counters for the report file (MOBILITY_PLUGIN_REPORT). */
	unsigned long		n_events[MOB_EV_NR];
	unsigned long		n_marks[MOB_MARK_NR];
	unsigned long		n_drawn[MOB_MARK_NR];
	unsigned long		n_drawn_cpu, n_drawn_task;
	char			*file;
};

KS_DECLARE_PLUGIN_CONTEXT_METHODS(struct mobility_context)

/* One marker to draw: which bin of the graph, what shape, what colour. */
struct mobility_mark {
	int		bin;
	int		kind;
	uint32_t	rgb;
};

ssize_t mobility_marks_in_view(struct mobility_context *ctx,
			       struct kshark_trace_histo *histo,
			       int draw_action, int id,
			       struct mobility_mark **marks);

void mobility_draw_mark(const struct mobility_mark *mark,
			int x, int base_y, int height, float size);

void mobility_count_drawn(struct mobility_context *ctx, int draw_action,
			  const struct mobility_mark *marks, ssize_t n);

void mobility_draw(struct kshark_cpp_argv *argv, int sd, int id,
		   int draw_action);

#ifdef __cplusplus
}
#endif

#endif
