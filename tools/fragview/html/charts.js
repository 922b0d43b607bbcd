// SPDX-License-Identifier: GPL-2.0
/*
 * charts.js - the charts under the map: the model's time buckets
 * (fv_model.buckets: blocks per type at each bucket's end, steals,
 * claims, flips, pcp drains, migrations) as step plots, with a cursor
 * at the map's time.  Each chart is drawn once; the cursor is an element
 * over it, so moving it costs no drawing.  Clicking a chart moves the map
 * to that time.
 *
 * window.fvCharts(D, box, ui) -> { draw(), cursor() }, where D is the
 * page data, box the element to fill and ui gives dpr(), now() (ns since
 * t0), setTime(t), esc() and fmtN().
 */
"use strict";
window.fvCharts = function (D, box, ui) {
	const NMT = D.names.mt.length;
	const PAL = D.palette;
	const B = D.buckets;
	const charts = [];
	function chartDefs() {
		const types = [], changes = [];
		for (let t = 0; t < NMT; t++) {
			if (D.names.mt[t] === "none")
				continue;	/* offline blocks: not on the map */
			types.push({ name: D.names.mt[t], color: PAL[t],
				v: (k) => B.types[k * NMT + t] });
			const d = (k) => B.types[k * NMT + t] - B.start[t];
			let moved = false;
			for (let k = 0; k < B.n && !moved; k++)
				moved = d(k) !== 0;
			if (moved)
				changes.push({ name: D.names.mt[t], color: PAL[t], v: d });
		}
		const all = D.filtered ? "all zones of the capture" : "";
		return [
			{ title: "Pageblocks per type", stacked: true, series: types,
			  note: all },
			{ title: "Change since the start",
			  series: changes, note: changes.length ? all : "no change" },
			{ title: "Fallback steals", series: [
				{ name: "steals", color: "#e15759", v: (k) => B.steals[k] },
				{ name: "claimed the block", color: "#7b1f20", v: (k) => B.claims[k] }] },
			{ title: "Pageblock flips", series: [
				{ name: "flips", color: "#4e79a7", v: (k) => B.flips[k] }] },
			{ title: "Per-cpu list drains", series: [
				{ name: "drains", color: "#f28e2b", v: (k) => B.drains[k] }],
			  extra: (k) => "pages drained: " + ui.fmtN(B.drained[k]) },
			{ title: "Migrations", series: [
				{ name: "ok", color: "#59a14f", v: (k) => B.mok[k] },
				{ name: "failed", color: "#c0001e", v: (k) => B.mfail[k] }],
			  note: migNote() },
		];
	}
	/* a default recording: ok in pages per call, failed attempts per folio */
	function migNote() {
		const m = D.mig;
		if (!m || !m.okUnrecorded)
			return "";
		return (m.ok ? "ok: pages moved, " + m.ok : "ok: not recorded") +
			"; failed: attempts, " + m.failed;
	}
	function drawChart(c) {
		const cv = c.canvas, dpr = ui.dpr();
		const w = cv.clientWidth, h = cv.clientHeight;
		cv.width = Math.round(w * dpr);
		cv.height = Math.round(h * dpr);
		const g = cv.getContext("2d", { willReadFrequently: true });
		g.setTransform(dpr, 0, 0, dpr, 0, 0);
		const padL = 44, padB = 14, pw = w - padL - 4, ph = h - padB - 4;
		const n = B.n, span = Math.max(D.tEnd, n * B.ns, 1);
		const xOf = (k) => padL + (k * B.ns) / span * pw;
		let max = 1, min = 0;
		for (let k = 0; k < n; k++) {
			let s = 0;
			for (const se of c.def.series) {
				const v = se.v(k);
				s = c.def.stacked ? s + v : Math.max(s, v);
				min = Math.min(min, v);
			}
			max = Math.max(max, s);
		}
		const yOf = (v) => 4 + ph - (v - min) / (max - min) * ph;
		g.fillStyle = "#fff";
		g.fillRect(0, 0, w, h);
		g.strokeStyle = "#d9dde2";
		g.beginPath();
		g.moveTo(padL, 4);
		g.lineTo(padL, 4 + ph);
		g.lineTo(padL + pw, 4 + ph);
		g.stroke();
		g.fillStyle = "#5d6670";
		g.font = "10px system-ui, sans-serif";
		g.textAlign = "right";
		g.textBaseline = "top";
		g.fillText((min < 0 && max > 0 ? "+" : "") + ui.fmtN(max), padL - 4, 2);
		g.fillText(ui.fmtN(min), padL - 4, ph - 4);
		if (min < 0) {		/* the zero line of a signed chart */
			g.strokeStyle = "#aab2ba";
			g.beginPath();
			g.moveTo(padL, Math.round(yOf(0)) + 0.5);
			g.lineTo(padL + pw, Math.round(yOf(0)) + 0.5);
			g.stroke();
			g.textBaseline = "middle";
			g.fillText("0", padL - 4, yOf(0));
			g.textBaseline = "top";
		}
		g.textAlign = "left";
		g.fillText("+0 s", padL, 4 + ph + 2);
		g.textAlign = "right";
		g.fillText("+" + (span / 1e9).toFixed(3) + " s", padL + pw, 4 + ph + 2);
		const base = new Float64Array(n);
		for (const se of c.def.series) {
			g.fillStyle = se.color;
			g.strokeStyle = se.color;
			if (c.def.stacked) {
				/* a step-shaped band from base[] to base[] + v */
				g.beginPath();
				for (let k = 0; k < n; k++) {
					const top = yOf(base[k] + se.v(k));
					if (k === 0)
						g.moveTo(xOf(0), top);
					else
						g.lineTo(xOf(k), top);
					g.lineTo(xOf(k + 1), top);
				}
				for (let k = n - 1; k >= 0; k--) {
					g.lineTo(xOf(k + 1), yOf(base[k]));
					g.lineTo(xOf(k), yOf(base[k]));
				}
				g.closePath();
				g.fill();
				for (let k = 0; k < n; k++)
					base[k] += se.v(k);
			} else {
				g.beginPath();
				g.moveTo(xOf(0), yOf(0));
				for (let k = 0; k < n; k++) {
					g.lineTo(xOf(k), yOf(se.v(k)));
					g.lineTo(xOf(k + 1), yOf(se.v(k)));
				}
				g.lineWidth = 1.2;
				g.stroke();
			}
		}
		c.plot = { padL, pw, span, top: 4, ph };
		/* the cursor: a positioned element over the plot, so moving it
		 * never redraws the chart */
		c.cursor.style.top = (cv.offsetTop + c.plot.top) + "px";
		/* read once here: reading layout per move would force a relayout */
		c.plot.x0 = cv.offsetLeft + padL;
		c.cursor.style.height = c.plot.ph + "px";
	}
	function drawCursors() {
		for (const c of charts) {
			if (!c.plot)
				continue;
			const f = Math.min(Math.max(ui.now() / c.plot.span, 0), 1);
			c.cursor.style.left = Math.round(c.plot.x0 + f * c.plot.pw) + "px";
		}
	}
	function buildCharts() {
		for (const def of chartDefs()) {
			const div = document.createElement("div");
			div.className = "chart";
			div.innerHTML = "<span class=\"ct\">" + ui.esc(def.title) + "</span>" +
				(def.stacked ? "<span class=\"ck\">colours as in the legend</span>" : "") +
				(def.stacked ? [] : def.series).map((s) => "<span class=\"ck\"><span class=\"sw\" style=\"background:" +
					s.color + "\"></span> " + ui.esc(s.name) + "</span>").join("") +
				(def.note ? "<span class=\"ck\">(" + ui.esc(def.note) + ")</span>" : "") +
				"<canvas></canvas><div class=\"cursor\"></div>";
			box.appendChild(div);
			const c = { def, canvas: div.querySelector("canvas"),
				cursor: div.querySelector(".cursor") };
			charts.push(c);
			c.canvas.addEventListener("mousemove", (ev) => hover(c, ev));
			c.canvas.addEventListener("mouseleave", () => ui.untip());
			c.canvas.addEventListener("click", (ev) => {
				const r = c.canvas.getBoundingClientRect();
				const f = (ev.clientX - r.left - c.plot.padL) / c.plot.pw;
				ui.setTime(Math.round(Math.min(Math.max(f, 0), 1) * c.plot.span));
			});
		}
	}

	/* the bucket under the mouse: O(series), whatever the capture size */
	function hover(c, ev) {
		if (!c.plot)
			return;
		const r = c.canvas.getBoundingClientRect();
		const t = (ev.clientX - r.left - c.plot.padL) / c.plot.pw * c.plot.span;
		const k = Math.floor(t / B.ns);
		if (t < 0 || k >= B.n) {
			ui.untip();
			return;
		}
		const s = (x) => "+" + (x / 1e9).toFixed(6) + " s";
		ui.tip("<b>" + ui.esc(c.def.title) + "</b><br>" + s(k * B.ns) +
			" \u2013 " + s((k + 1) * B.ns) + "<br>" +
			c.def.series.map((se) => ui.esc(se.name) + ": <b>" +
				ui.fmtN(se.v(k)) + "</b>").join("<br>") +
			(c.def.extra ? "<br>" + ui.esc(c.def.extra(k)) : ""), ev);
	}

	buildCharts();
	return {
		draw: () => {
			charts.forEach(drawChart);
			drawCursors();
		},
		cursor: drawCursors,
	};
};
