// SPDX-License-Identifier: GPL-2.0
/*
 * Drawing glue for the mobility plugin.  KernelShark 2.x hands draw
 * handlers C++ objects (KsCppArgV: graph geometry and the shape list), so
 * this file only turns the C markers from mobility_marks_in_view() into
 * PlotObjects; the shapes themselves are drawn by mobility_draw_mark().
 */
#include <cstdlib>

#include "KsPlotTools.hpp"
#include "KsPlugins.hpp"
#include "mobility.h"

namespace {

class MobilityShape : public KsPlot::PlotObject {
public:
	MobilityShape(const mobility_mark &mark, int x, int base_y, int height)
	: _mark(mark), _x(x), _baseY(base_y), _height(height) {}

private:
	mobility_mark	_mark;
	int		_x, _baseY, _height;

	void _draw(const KsPlot::Color &, float size) const override
	{
		mobility_draw_mark(&_mark, _x, _baseY, _height, size);
	}
};

} // namespace

/** Draw handler: called by KernelShark for every CPU and task graph. */
__hidden void mobility_draw(kshark_cpp_argv *argv_c, int sd, int id,
			    int draw_action)
{
	KsCppArgV *argv = KS_ARGV_TO_CPP(argv_c);
	const KsPlot::Graph *graph = argv->_graph;
	mobility_context *ctx = __get_context(sd);
	mobility_mark *marks;
	ssize_t n;

	if (!ctx || !graph)
		return;
	if (!(draw_action & (KSHARK_CPU_DRAW | KSHARK_TASK_DRAW)))
		return;

	n = mobility_marks_in_view(ctx, argv->_histo, draw_action, id, &marks);
	for (ssize_t i = 0; i < n; i++) {
		const KsPlot::Point &base = graph->bin(marks[i].bin)._base;

		argv->_shapes->push_front(new MobilityShape(marks[i], base.x(),
							    base.y(),
							    graph->height()));
	}
	/* Also with nothing drawn: the report then has the final counts. */
	mobility_count_drawn(ctx, draw_action, marks, n > 0 ? n : 0);
	free(marks);
}
