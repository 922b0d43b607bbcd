// SPDX-License-Identifier: GPL-2.0
/*
 * explain.js - why a high-order allocation failed, on the HTML map, from
 * D.explain (render_map_html_explain.c, what "fragview explain" says):
 * a click on the high-order timeline next to a failed allocation selects
 * it.  The map and its slider go to the allocation's time, a line under
 * the timeline gives the verdict, and the blocks nearest to free that the
 * verdict weighs are outlined on the map (an overlay canvas of its own).
 *
 * window.fvExplain(D, ui) -> { layout(), test }, where ui gives cellXY(i),
 * cell(), setTime(rel), esc(), secs(), fitOverlay(canvas, ctx) and
 * tToX(rel) (the timeline's x of a time, compact.js).  Without D.explain or the timeline it does nothing.
 */
"use strict";
window.fvExplain = function (D, ui) {
	const X = D.explain;
	const $ = (id) => document.getElementById(id);
	const box = $("fv-compact-timeline");
	const nothing = { layout() {}, test: null };
	if (!X || !box || !ui.tToX)
		return nothing;
	const COL = "#c000c0", PICK_PX = 5;
	const tl = box.querySelector("canvas");
	let sel = -1;

	const line = document.createElement("div");
	line.id = "fv-explain";
	line.className = "ck";
	line.style.display = "block";
	line.textContent = X.length + " failed allocations: click one (below the axis) for why it failed";
	box.appendChild(line);

	const wrap = $("fv-mapwrap");
	const over = document.createElement("canvas");
	over.id = "fv-explain-overlay";
	over.setAttribute("aria-hidden", "true");
	over.style.cssText = "position:absolute;pointer-events:none;left:0;top:0";
	wrap.appendChild(over);
	const octx = over.getContext("2d", { willReadFrequently: true });
	let dpr = 1;

	function paint() {
		octx.clearRect(0, 0, over.width, over.height);
		if (sel < 0)
			return;
		const s = ui.cell();
		octx.strokeStyle = COL;
		octx.lineWidth = Math.max(2, s / 5);
		X[sel].blocks.forEach((i) => {
			const [x, y] = ui.cellXY(i);
			octx.strokeRect(x + 1, y + 1, s - 2, s - 2);
		});
	}
	function layout() {
		dpr = ui.fitOverlay(over, octx);
		paint();
	}
	/* allocation k: the map at its time, its verdict, its blocks outlined */
	function select(k) {
		const e = X[k];
		sel = k;
		ui.setTime(e.t);
		line.innerHTML = "<b>allocation " + e.a + " at " + ui.esc(ui.secs(e.t)) +
			" (pid " + e.pid + "): " + ui.esc(e.cause) + "</b> \u2014 " +
			ui.esc(e.verdict) + " <span style=\"color:" + COL + "\">\u25a1</span> " +
			e.blocks.length + " blocks nearest to free outlined";
		paint();
	}
	/* the failed allocation drawn nearest to x (CSS px), or -1 */
	function pick(x) {
		let best = -1, dist = PICK_PX + 1;
		X.forEach((e, k) => {
			const d = Math.abs(ui.tToX(e.t) - x);
			if (d < dist) {
				dist = d;
				best = k;
			}
		});
		return best;
	}
	tl.addEventListener("click", (ev) => {
		const k = pick(ev.clientX - tl.getBoundingClientRect().left);
		if (k >= 0)
			select(k);
	});
	return {
		layout,
		test: {
			nr: X.length,
			select,
			/* a click at the timeline's x of failure k */
			click: (k) => tl.dispatchEvent(new MouseEvent("click", {
				clientX: tl.getBoundingClientRect().left + ui.tToX(X[k].t),
				clientY: tl.getBoundingClientRect().top + 60 })),
			selected: () => sel,
			alloc: (k) => X[k].a,
			time: (k) => X[k].t,
			blocks: (k) => X[k].blocks.slice(),
			line: () => line.textContent,
			/* blocks whose outline is painted (read back from the canvas) */
			outlined: () => {
				const img = octx.getImageData(0, 0, over.width, over.height).data;
				const s = ui.cell(), out = [];
				for (let i = 0; i < D.final.length; i++) {
					const [x, y] = ui.cellXY(i);
					/* the left edge of the outline, half way down */
					const p = (Math.floor((y + s / 2) * dpr) * over.width +
						   Math.floor((x + 1) * dpr)) * 4;
					if (img[p + 3] > 100 && img[p] > 150 && img[p + 1] < 60 &&
					    img[p + 2] > 150)
						out.push(i);
				}
				return out;
			},
		},
	};
};
