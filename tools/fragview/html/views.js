// SPDX-License-Identifier: GPL-2.0
/*
 * views.js - what the map's cells are coloured by ("Colour by" in the
 * side panel), as `fragview map --color VIEW`: the migratetype (the
 * replay in fragview.js), or one of the views of D.views
 * (render_map_html_views.c): free pages, largest free order, foreign
 * pages (census), steals so far.
 *
 * A view is a list of buckets (glyph, colour, label: what the txt and
 * svg maps draw) and the changes of the cells in time order; a cell at
 * time t is its last change at or before t, else bucket "init".  Moving
 * in time recomputes the cells from the changes up to t (binary search,
 * then one pass) and reports only the cells whose bucket changed.
 *
 * window.fvViews(D, ui) -> { list, active(), select(name), seek(t,
 * touch), colour32(i, dim), glyph(i), glyphsAt(name, t, offline),
 * glyphOfPixel(r, g, b), legend(shown), info(i) }, where ui gives rgba(),
 * mix(), esc(), fmtN() and secs().
 */
"use strict";
window.fvViews = function (D, ui) {
	const N = D.final.length;
	const V = D.views ? D.views.list : [];
	V.forEach((v) => {
		const F = v.t.length;
		v.T = new Float64Array(F);
		for (let j = 0, t = 0; j < F; j++) {
			t += v.t[j];
			v.T[j] = t;
		}
		v.col32 = v.buckets.map((b) => ui.rgba(b[1]));
		v.dim32 = v.buckets.map((b) => ui.rgba(ui.mix(b[1], "#ffffff", 0.72)));
	});
	let cur = null;				/* the active view, null: type */
	const bucket = new Uint8Array(N);	/* of the active view at curT */
	const value = new Float64Array(N);
	const src = new Float64Array(N);	/* seq * 2 + census; -1: none */
	const rec = new Int32Array(N);		/* the change shown; -1: none */
	let applied = 0;			/* changes up to the time shown */

	function upperBound(v, t) {		/* number of changes with ts <= t */
		let lo = 0, hi = v.T.length;
		while (lo < hi) {
			const mid = (lo + hi) >>> 1;
			if (v.T[mid] <= t)
				lo = mid + 1;
			else
				hi = mid;
		}
		return lo;
	}
	/* cells of view v at t into the arrays given */
	function cellsAt(v, t, bk, val, sr, rc) {
		const end = upperBound(v, t);
		bk.fill(v.init);
		val.fill(-1);
		sr.fill(-1);
		rc.fill(-1);
		for (let j = 0; j < end; j++) {
			const b = v.b[j];
			bk[b] = v.k[j];
			val[b] = v.v[j];
			sr[b] = v.s[j];
			rc[b] = j;
		}
		return end;
	}
	function seek(t, touch) {
		if (!cur)
			return;
		const nb = new Uint8Array(N), nv = new Float64Array(N);
		const ns = new Float64Array(N), nr = new Int32Array(N);
		applied = cellsAt(cur, t, nb, nv, ns, nr);
		for (let i = 0; i < N; i++) {
			if (nb[i] !== bucket[i])
				touch(i);
			bucket[i] = nb[i];
			value[i] = nv[i];
			src[i] = ns[i];
			rec[i] = nr[i];
		}
	}
	function select(name) {
		cur = V.find((v) => v.name === name && v.have) || null;
		bucket.fill(cur ? cur.init : 0);
		applied = 0;
		return cur ? cur.name : "type";
	}
	function srcText(s) {
		return s < 0 ? "" : s % 2 ? "census " + Math.floor(s / 2)
			: "snapshot " + Math.floor(s / 2);
	}
	/* where the cells come from, as the txt legend says it */
	function asOf(shown) {
		if (cur.name === "steals")
			return "mobility:pageblock_steal events up to the time shown";
		let newest = -1, nt = -1, older = 0;
		for (let j = applied - 1; j >= 0; j--)
			if (shown(cur.b[j])) {
				newest = cur.s[j];
				nt = cur.T[j];
				break;
			}
		if (newest < 0)
			return "no " + cur.source + " at or before the time shown";
		for (let i = 0; i < N; i++)
			older += shown(i) && src[i] >= 0 && src[i] !== newest;
		return "as of " + srcText(newest) + " at " + ui.secs(nt) +
			": each block's latest " + cur.source +
			" at or before the time shown" +
			(older ? " (" + ui.fmtN(older) + " from an older one)" : "");
	}
	function legend(shown) {
		if (!cur)
			return "";
		const count = new Float64Array(cur.buckets.length);
		for (let i = 0; i < N; i++)
			if (shown(i))
				count[bucket[i]]++;
		return "<p class=\"view-title\">" + ui.esc(cur.title) + "</p>" +
			"<p class=\"view-src\" id=\"fv-view-src\">" + ui.esc(asOf(shown)) +
			"</p><table>" + cur.buckets.map((b, k) =>
			"<tr data-k=\"" + k + "\"><td><span class=\"sw\" style=\"background:" +
			b[1] + "\"></span> <code>" + ui.esc(b[0]) + "</code> " + ui.esc(b[2]) +
			"</td><td class=\"n\">" + ui.fmtN(count[k]) + "</td></tr>").join("") +
			"</table>";
	}
	/* rows for the block details: the cell's value, what the block holds */
	function info(i) {
		if (!cur)
			return [];
		const b = cur.buckets[bucket[i]];
		let text = b[2];
		if (src[i] >= 0)
			text += " (" + value[i] + ", " + srcText(src[i]) + ")";
		else if (cur.name === "steals")
			text += " (" + (value[i] < 0 ? 0 : value[i]) + " at the last change)";
		const rows = [[cur.name, text]];
		if (cur.n && rec[i] >= 0)
			rows.push(["holds", cur.n[rec[i]].map((n, k) =>
				n && D.views.counts[k] !== "free_chunks" ?
					D.views.counts[k] + " " + ui.fmtN(n) : "")
				.filter(Boolean).join(", ")]);
		return rows;
	}
	/* for the self-test: the glyph of each block at t, from scratch */
	function glyphsAt(name, t, offline) {
		const v = V.find((x) => x.name === name);
		if (!v)
			return null;
		const bk = new Uint8Array(N), val = new Float64Array(N);
		cellsAt(v, t, bk, val, new Float64Array(N), new Int32Array(N));
		let out = "";
		for (let i = 0; i < N; i++)
			out += offline(i) ? " " : v.buckets[bk[i]][0];
		return out;
	}
	function glyphOfPixel(r, g, b) {
		let best = "", bestD = 30;
		[cur.buckets.map((x) => x[1]),
			cur.buckets.map((x) => ui.mix(x[1], "#ffffff", 0.72))].forEach(
			(pal) => pal.forEach((c, k) => {
				const d = Math.abs(parseInt(c.substr(1, 2), 16) - r) +
					Math.abs(parseInt(c.substr(3, 2), 16) - g) +
					Math.abs(parseInt(c.substr(5, 2), 16) - b);
				if (d < bestD) {
					best = cur.buckets[k][0];
					bestD = d;
				}
			}));
		return best;
	}
	return {
		list: V,
		active: () => cur,
		select,
		seek,
		colour32: (i, dim) => (dim ? cur.dim32 : cur.col32)[bucket[i]],
		glyph: (i) => cur.buckets[bucket[i]][0],
		glyphsAt,
		glyphOfPixel,
		legend,
		info,
	};
};
