// SPDX-License-Identifier: GPL-2.0
/*
 * Which markers of the mobility plugin are in view, and how each one looks.
 * Called while KernelShark paints; see mobility.c for how they are made.
 */
#include <errno.h>
#include <stdlib.h>

#include "libkshark-plot.h"
#include "mobility.h"

static bool mark_applies(const struct kshark_entry *e, int draw_action,
			 int id)
{
	if (draw_action & KSHARK_CPU_DRAW)
		return e->cpu == id;
	if (draw_action & KSHARK_TASK_DRAW)
		return e->pid == id;
	return false;
}

/*
 * Collect the markers visible in the current view of one graph: at most
 * one per bin and kind (a claimed steal hides an unclaimed one in the same
 * bin, which shares its lane; for flips the latest colour wins).
 * Returns the number of markers put in *@marks (caller frees), or -ENOMEM.
 */
ssize_t mobility_marks_in_view(struct mobility_context *ctx,
			       struct kshark_trace_histo *histo,
			       int draw_action, int id,
			       struct mobility_mark **marks)
{
	struct kshark_data_container *c = ctx->marks;
	struct mobility_mark *out = NULL, *prev;
	ssize_t first, i, n = 0, cap = 0;
	int bin, kind;

	*marks = NULL;
	if (!c->size)
		return 0;
	if (!c->sorted)
		kshark_data_container_sort(c);

	first = kshark_find_entry_field_by_time(histo->min, c->data, 0,
						c->size - 1);
	if (first == BSEARCH_ALL_SMALLER)
		return 0;
	if (first == BSEARCH_ALL_GREATER)
		first = 0;

	for (i = first; i < c->size && c->data[i]->entry->ts <= histo->max;
	     i++) {
		if (!mark_applies(c->data[i]->entry, draw_action, id))
			continue;
		bin = ksmodel_get_bin(histo, c->data[i]->entry);
		if (bin < 0 || bin >= histo->n_bins)
			continue;
		kind = c->data[i]->field & 0xff;

		/* Same lane, same bin: merge into the marker already there. */
		prev = NULL;
		for (ssize_t j = n - 1; j >= 0 && out[j].bin == bin; j--)
			if (out[j].kind == kind ||
			    (out[j].kind <= MOB_MARK_STEAL_UNCLAIMED &&
			     kind <= MOB_MARK_STEAL_UNCLAIMED))
				prev = &out[j];
		if (prev) {
			if (kind < prev->kind || kind == MOB_MARK_FLIP) {
				prev->kind = kind;
				prev->rgb = (uint32_t)(c->data[i]->field >> 8);
			}
			continue;
		}

		if (n == cap) {
			struct mobility_mark *tmp;

			cap = cap ? 2 * cap : 64;
			tmp = realloc(out, cap * sizeof(*out));
			if (!tmp) {
				free(out);
				return -ENOMEM;
			}
			out = tmp;
		}
		out[n].bin = bin;
		out[n].kind = kind;
		out[n].rgb = (uint32_t)(c->data[i]->field >> 8);
		n++;
	}
	*marks = out;
	return n;
}

/* The graph is split in three lanes: steals on top, flips, then the rest. */
static int lane_centre(int kind, int base_y, int height)
{
	switch (kind) {
	case MOB_MARK_STEAL_CLAIMED:
	case MOB_MARK_STEAL_UNCLAIMED:
		return base_y - height * 5 / 6;
	case MOB_MARK_FLIP:
		return base_y - height / 2;
	default:
		return base_y - height / 6;
	}
}

static const struct ksplot_color halo = { 0xff, 0xff, 0xff };

/* A white rim first keeps a marker readable on any task colour. */
static void draw_polygon(const struct ksplot_point *p, size_t n,
			 const struct ksplot_color *col, float size, bool fill)
{
	ksplot_draw_polygon_contour(p, n, &halo, size + 2);
	if (fill)
		ksplot_draw_polygon(p, n, col, size);
	else
		ksplot_draw_polygon_contour(p, n, col, size);
}

/* A cross from the four corners in @p: both rims, then both strokes. */
static void draw_cross(const struct ksplot_point *p,
		       const struct ksplot_color *col, float size)
{
	ksplot_draw_line(&p[0], &p[1], &halo, size + 2);
	ksplot_draw_line(&p[2], &p[3], &halo, size + 2);
	ksplot_draw_line(&p[0], &p[1], col, size);
	ksplot_draw_line(&p[2], &p[3], col, size);
}

/*
 * Draw one marker centred on column @x; called from the C++ shape object
 * while KernelShark paints, so plain OpenGL through libkshark-plot is fine.
 */
void mobility_draw_mark(const struct mobility_mark *mark,
			int x, int base_y, int height, float size)
{
	struct ksplot_color col = {
		.red = mark->rgb >> 16,
		.green = (mark->rgb >> 8) & 0xff,
		.blue = mark->rgb & 0xff,
	};
	int r = height / 6 > 2 ? height / 6 : 2;
	int y = lane_centre(mark->kind, base_y, height);
	struct ksplot_point p[4];

	switch (mark->kind) {
	case MOB_MARK_STEAL_CLAIMED:
	case MOB_MARK_STEAL_UNCLAIMED:
		/* Triangle pointing down at the block being taken over. */
		p[0] = (struct ksplot_point){ x - r, y - r };
		p[1] = (struct ksplot_point){ x + r, y - r };
		p[2] = (struct ksplot_point){ x, y + r };
		draw_polygon(p, 3, &col, size,
			     mark->kind == MOB_MARK_STEAL_CLAIMED);
		break;
	case MOB_MARK_FLIP:
		p[0] = (struct ksplot_point){ x, y - r };
		p[1] = (struct ksplot_point){ x + r, y };
		p[2] = (struct ksplot_point){ x, y + r };
		p[3] = (struct ksplot_point){ x - r, y };
		draw_polygon(p, 4, &col, size, true);
		break;
	case MOB_MARK_DRAIN:
		p[0] = (struct ksplot_point){ x - r, y - r };
		p[1] = (struct ksplot_point){ x + r, y - r };
		p[2] = (struct ksplot_point){ x + r, y + r };
		p[3] = (struct ksplot_point){ x - r, y + r };
		draw_polygon(p, 4, &col, size, false);
		break;
	case MOB_MARK_MIGRATE_FAIL:
		p[0] = (struct ksplot_point){ x - r, y - r };
		p[1] = (struct ksplot_point){ x + r, y + r };
		p[2] = (struct ksplot_point){ x - r, y + r };
		p[3] = (struct ksplot_point){ x + r, y - r };
		draw_cross(p, &col, size + 1);
		break;
	}
}
