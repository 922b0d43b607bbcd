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
 * time t is its last change at or before t, else bucket "init".  The
 * record a cell comes from (the block's latest snapshot or census at or
 * before t, of the kinds the view reads, "from") is in D.views.sources,
 * shared by the views: a view has a change only where the cell changes.
 * Moving in time recomputes the cells from the changes and the records
 * up to t (binary search, then one pass) and reports only the cells
 * whose bucket changed.
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
	/* the records: runs S.s, their blocks S.b, times S.t */
	const S = D.views && D.views.sources ||
		{ s: [], b: [], t: [] };
	function times(dt) {
		const T = new Float64Array(dt.length);
		for (let j = 0, t = 0; j < dt.length; j++) {
			t += dt[j];
			T[j] = t;
		}
		return T;
	}
	S.T = times(S.t);
	V.forEach((v) => {
		v.T = times(v.t);
		v.col32 = v.buckets.map((b) => ui.rgba(b[1]));
		v.dim32 = v.buckets.map((b) => ui.rgba(ui.mix(b[1], "#ffffff", 0.72)));
	});
	let cur = null;				/* the active view, null: type */
	const bucket = new Uint8Array(N);	/* of the active view at curT */
	const value = new Float64Array(N);
	const src = new Float64Array(N);	/* seq * 2 + census; -1: none */
	const srcAt = new Int32Array(N);	/* its index in S; -1: none */
	const rec = new Int32Array(N);		/* the change shown; -1: none */

	function upperBound(T, t) {		/* number of times <= t */
		let lo = 0, hi = T.length;
		while (lo < hi) {
			const mid = (lo + hi) >>> 1;
			if (T[mid] <= t)
				lo = mid + 1;
			else
				hi = mid;
		}
		return lo;
	}
	/* cells of view v at t into the arrays given */
	function cellsAt(v, t, bk, val, rc) {
		const end = upperBound(v.T, t);
		bk.fill(v.init);
		val.fill(-1);
		rc.fill(-1);
		for (let j = 0; j < end; j++) {
			const b = v.b[j];
			bk[b] = v.k[j];
			val[b] = v.v[j];
			rc[b] = j;
		}
	}
	/* the record of each cell of view v at t: its src and index in S */
	function sourcesAt(v, t, sr, at) {
		const end = upperBound(S.T, t);
		sr.fill(-1);
		at.fill(-1);
		for (let r = 0, j = 0; r < S.s.length && j < end; r++) {
			const runs = S.b[r];
			const mine = v.from & (S.s[r] % 2 ? 2 : 1);
			for (let g = 0; g < runs.length && j < end; g += 2) {
				const n = Math.min(runs[g + 1], end - j);
				for (let x = 0; mine && x < n; x++) {
					sr[runs[g] + x] = S.s[r];
					at[runs[g] + x] = j + x;
				}
				j += runs[g + 1];
			}
		}
		/* steals: the record their changes carry */
		for (let j = 0, e = v.s ? upperBound(v.T, t) : 0; j < e; j++)
			sr[v.b[j]] = v.s[j];
	}
	function seek(t, touch) {
		if (!cur)
			return;
		const nb = new Uint8Array(N), nv = new Float64Array(N);
		const nr = new Int32Array(N);
		cellsAt(cur, t, nb, nv, nr);
		sourcesAt(cur, t, src, srcAt);
		for (let i = 0; i < N; i++) {
			if (nb[i] !== bucket[i])
				touch(i);
			bucket[i] = nb[i];
			value[i] = nv[i];
			rec[i] = nr[i];
		}
	}
	function select(name) {
		cur = V.find((v) => v.name === name && v.have) || null;
		bucket.fill(cur ? cur.init : 0);
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
		/* the newest record of a block shown */
		let newest = -1, last = -1, older = 0;
		for (let i = 0; i < N; i++)
			if (shown(i) && srcAt[i] > last) {
				last = srcAt[i];
				newest = src[i];
			}
		const nt = last >= 0 ? S.T[last] : -1;
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
		/* steals count events: no snapshot or census is their source */
		if (cur.name === "steals")
			text += " (" + (value[i] < 0 ? 0 : value[i]) + " at the last change)";
		else if (src[i] >= 0)
			text += " (" + value[i] + ", " + srcText(src[i]) + ")";
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
		const bk = new Uint8Array(N);
		cellsAt(v, t, bk, new Float64Array(N), new Int32Array(N));
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
