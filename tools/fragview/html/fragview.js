// SPDX-License-Identifier: GPL-2.0
/*
 * fragview.js - the interactive pageblock map (embedded by
 * render_map_html.c after the JSON data element "fv-data").
 *
 * Replay is exactly fv_model_types_at(): every block starts from its
 * earliest known type ("start") and takes the new type of every flip
 * with ts <= t.  The slider does it incrementally: it keeps how many
 * flips are applied and applies or undoes only those between the old
 * and the new position (undo restores the type the replay had before
 * the flip, not the kernel's old_mt, so it is exact even when events
 * were lost).  Only changed cells are repainted; hovering is O(1).
 *
 * The cells show the type, or one of the colour views of views.js
 * ("Colour by"; map --color).
 *
 * Test hooks: window.fragview (see the end), and "#selftest" in the
 * URL runs the checks of selftest.js.
 */
"use strict";
window.__fvErrors = [];
window.addEventListener("error", function (e) {
	window.__fvErrors.push(String(e.message || e));
});

(function () {
const T_START = performance.now();
const D = JSON.parse(document.getElementById("fv-data").textContent);
const $ = (id) => document.getElementById(id);
const N = D.final.length;
const NMT = D.names.mt.length;
const PAL = D.palette;
const DIM = PAL.map((c) => mix(c, "#ffffff", 0.72));
const PPB = Math.pow(2, D.order);
const SLIDER_MAX = 10000;
const ERRNO = { 1: "EPERM", 2: "ENOENT", 5: "EIO", 11: "EAGAIN",
	12: "ENOMEM", 14: "EFAULT", 16: "EBUSY", 22: "EINVAL", 28: "ENOSPC",
	38: "ENOSYS", 133: "EHWPOISON" };
const EV = { state: 0, flip: 1, steal: 2, drain: 3, migrate: 4, extfrag: 5 };
/* the capture has failed migrations per folio, successes per call only */
const MIG_OK_UNRECORDED = !!(D.mig && D.mig.okUnrecorded);
D.names.ev.forEach((n, i) => { EV[n] = i; });

function mix(a, b, f) {
	const p = (s, i) => parseInt(s.substr(1 + 2 * i, 2), 16);
	let out = "#";
	for (let i = 0; i < 3; i++) {
		const v = Math.round(p(a, i) * (1 - f) + p(b, i) * f);
		out += (v < 16 ? "0" : "") + v.toString(16);
	}
	return out;
}
function esc(s) {
	return String(s).replace(/[&<>"']/g, (c) => "&#" + c.charCodeAt(0) + ";");
}
function hex(n) { return "0x" + n.toString(16); }
function secs(rel) { return ((D.t0 + rel) / 1e9).toFixed(6) + " s"; }
function fmtN(n) { return n.toLocaleString("en-US"); }
function plural(n, what) { return fmtN(n) + " " + what + (n === 1 ? "" : "s"); }

/* ---- decode the columnar data ---- */
const pfn = new Float64Array(N);
for (let i = 0, p = 0; i < N; i++) {
	p += D.pfn[i];
	pfn[i] = p;
}
const start = new Uint8Array(N);
for (let i = 0; i < N; i++)
	start[i] = D.start.charCodeAt(i) - 48;
const zoneOf = new Uint32Array(N);
D.zones.forEach((z, zi) => zoneOf.fill(zi, z[2], z[2] + z[3]));
const NONE = D.names.mt.indexOf("none");	/* offline: a gap, not a type */

const F = D.flipT.length;
const fT = new Float64Array(F);		/* ns since t0 */
const fB = new Uint32Array(F);
const fNew = new Uint8Array(F);
const fOld = new Uint8Array(F);		/* as the kernel reported it */
const fReason = new Uint8Array(F);
const fPrev = new Uint8Array(F);	/* replayed type before the flip */
let replayMismatch = 0;
{
	const mt = start.slice();
	for (let j = 0, t = 0; j < F; j++) {
		t += D.flipT[j];
		fT[j] = t;
		const b = D.flipB[j], m = D.flipM[j];
		fB[j] = b;
		fNew[j] = m & 7;
		fOld[j] = (m >> 3) & 7;
		fReason[j] = m >> 6;
		fPrev[j] = mt[b];
		mt[b] = m & 7;
	}
	for (let i = 0; i < N; i++)
		if (mt[i] !== D.final.charCodeAt(i) - 48)
			replayMismatch++;
}

/* replay check: type in the last snapshot where the replay differs */
const checkWant = new Int8Array(N).fill(-1);
const checkGot = new Int8Array(N).fill(-1);
if (D.check)
	for (const [i, want, got] of D.check.blocks) {
		checkWant[i] = want;
		checkGot[i] = got;
	}

/* ---- replay state ---- */
const mt = start.slice();
const flipsSoFar = new Uint32Array(N);
const count = new Float64Array(NMT);
for (let i = 0; i < N; i++)
	count[mt[i]]++;
let applied = 0;			/* flips applied to mt[] */
let curT = 0;				/* ns since t0 */
const dirty = new Uint8Array(N);
let dirtyList = [];
let repaintAll = true;

function upperBound(t) {		/* number of flips with ts <= t */
	let lo = 0, hi = F;
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		if (fT[mid] <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
function touch(b) {
	if (!dirty[b]) {
		dirty[b] = 1;
		dirtyList.push(b);
	}
}
function seekFlips(target) {
	while (applied < target) {
		const b = fB[applied];
		count[mt[b]]--;
		mt[b] = fNew[applied];
		count[mt[b]]++;
		flipsSoFar[b]++;
		touch(b);
		applied++;
	}
	while (applied > target) {
		applied--;
		const b = fB[applied];
		count[mt[b]]--;
		mt[b] = fPrev[applied];
		count[mt[b]]++;
		flipsSoFar[b]--;
		touch(b);
	}
}
/* From scratch, as fv_model_types_at(): the reference for tests. */
function typesAtRel(t) {
	const out = Array.from(start);
	const end = upperBound(t);
	for (let j = 0; j < end; j++)
		out[fB[j]] = fNew[j];
	return out;
}

/* ---- map layout and painting ---- */
const canvas = $("fv-map");
/*
 * An overlay canvas (compact.js, explain.js) laid over the map, as large
 * and scaled as it; returns the device pixel ratio.
 */
function fitOverlay(over, octx) {
	const dpr = window.devicePixelRatio || 1;
	over.width = canvas.width;
	over.height = canvas.height;
	over.style.width = canvas.style.width;
	over.style.height = canvas.style.height;
	over.style.left = canvas.offsetLeft + "px";
	over.style.top = canvas.offsetTop + "px";
	octx.setTransform(dpr, 0, 0, dpr, 0, 0);
	return dpr;
}
const ctx = canvas.getContext("2d", { willReadFrequently: true });
const L = { s: 10, pitch: 11, cols: 64, gridX: 90, zones: [], h: 0, dpr: 1 };
const ZONE_HEAD = 22, ZONE_GAP = 10;
let marks = {};
let selected = -1;

function zoneTitle(z) {
	const first = z[2], nr = z[3];
	const last = nr ? pfn[first + nr - 1] + PPB - 1 : 0;
	return "node " + z[0] + "  " + D.names.zone[z[1]] + "   pfn " +
		(nr ? hex(pfn[first]) + "\u2013" + hex(last) : "-") + "   " +
		fmtN(nr) + " blocks";
}
/*
 * Every cell at its pfn, as the txt and SVG maps (map_grid in
 * render_map_common.h): slot s of a zone is the block at its first
 * block's pfn + s blocks, row r holds slots r*cols..r*cols+cols-1, rows
 * without a block are left out and each row is labelled with the pfn of
 * its first slot.  Fills cellRow/cellCol; returns the zone's rows,
 * their labels and a (row, col) -> block grid for hit tests.
 */
const cellRow = new Uint32Array(N), cellCol = new Uint32Array(N);
function gridZone(z, cols) {
	const first = z[2], nr = z[3], rowPfn = [];
	let key = -1, row = -1;
	for (let i = first; i < first + nr; i++) {
		const slot = Math.round((pfn[i] - pfn[first]) / PPB);
		const k = Math.floor(slot / cols);
		if (k !== key) {
			key = k;
			row++;
			rowPfn.push(pfn[first] + k * cols * PPB);
		}
		cellRow[i] = row;
		cellCol[i] = slot % cols;
	}
	const grid = new Int32Array(rowPfn.length * cols).fill(-1);
	for (let i = first; i < first + nr; i++)
		grid[cellRow[i] * cols + cellCol[i]] = i;
	return { rows: rowPfn.length, rowPfn, grid };
}
function layout() {
	const wrap = $("fv-mapwrap");
	const W = Math.max(320, wrap.clientWidth - 10);
	const maxH = Math.max(260, window.innerHeight - 240);
	const sizes = [18, 16, 14, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2];
	for (const s of sizes) {
		const pitch = s + (s >= 6 ? 1 : 0);
		let cols = Math.floor((W - L.gridX) / pitch);
		if (cols >= 16)
			cols -= cols % 8;
		cols = Math.max(1, cols);
		let h = 0;
		for (const z of D.zones)
			h += ZONE_HEAD + gridZone(z, cols).rows * pitch + ZONE_GAP;
		Object.assign(L, { s, pitch, cols, h });
		if (h <= maxH)
			break;
	}
	L.zones = [];
	let y = 0;
	for (const z of D.zones) {
		const g = gridZone(z, L.cols);
		L.zones.push({ head: y, y0: y + ZONE_HEAD, rows: g.rows, first: z[2],
			nr: z[3], rowPfn: g.rowPfn, grid: g.grid });
		y += ZONE_HEAD + g.rows * L.pitch + ZONE_GAP;
	}
	L.h = Math.max(y, 40);
	L.w = L.gridX + L.cols * L.pitch;
	L.dpr = window.devicePixelRatio || 1;
	canvas.width = Math.round(L.w * L.dpr);
	canvas.height = Math.round(L.h * L.dpr);
	canvas.style.width = L.w + "px";
	canvas.style.height = L.h + "px";
	ctx.setTransform(L.dpr, 0, 0, L.dpr, 0, 0);
	repaintAll = true;
	COMPACT.layout();
	EXPLAIN.layout();
}
function cellXY(i) {
	const z = L.zones[zoneOf[i]];
	return [L.gridX + cellCol[i] * L.pitch, z.y0 + cellRow[i] * L.pitch];
}
function hitTest(x, y) {
	for (const z of L.zones) {
		if (y < z.y0 || y >= z.y0 + z.rows * L.pitch)
			continue;
		const c = Math.floor((x - L.gridX) / L.pitch);
		const r = Math.floor((y - z.y0) / L.pitch);
		if (c < 0 || c >= L.cols)
			return -1;
		if (x - L.gridX - c * L.pitch >= L.s || y - z.y0 - r * L.pitch >= L.s)
			return -1;	/* in the gap */
		const i = z.grid[r * L.cols + c];
		return i >= 0 && mt[i] !== NONE ? i : -1;	/* a hole, offline */
	}
	return -1;
}
function touched(i) {
	return (marks.steal && D.steals[i] > 0) ||
		(marks.flip && flipsSoFar[i] > 0) ||
		(marks.mig && D.mok[i] + D.mfail[i] > 0) ||
		(marks.fail && D.mfail[i] > 0) ||
		(marks.check && checkWant[i] >= 0);
}
/*
 * Cells are painted straight into the canvas pixels (an ImageData kept
 * for the whole map, device pixels) and put back once per paint: a
 * slider move can repaint thousands of cells, and per-cell canvas calls
 * (fill style changes, paths) cost far more than writing the pixels.
 * Only rectangles, so Uint32Array.fill does the work.  Layers, bottom
 * up: the type colour, steal corner square (top right), replay check
 * corner (bottom left), flip square (centre), migration bar (bottom),
 * selection ring.  The left edge at a third of the height stays the
 * plain type colour: cellType() reads it there.
 */
let img = null, px32 = null;
function rgba(hex) {			/* little-endian RGBA as one u32 */
	const v = (i) => parseInt(hex.substr(1 + 2 * i, 2), 16);
	return ((255 << 24) | (v(2) << 16) | (v(1) << 8) | v(0)) >>> 0;
}
const PAL32 = PAL.map(rgba), DIM32 = DIM.map(rgba);
/* "Colour by" other than type (views.js) */
const VIEWS = window.fvViews(D, { rgba, mix, esc, fmtN, secs });
/* compaction scanners and failures over the map, the high-order timeline */
const COMPACT = window.fvCompact(D, { cellXY, cell: () => L.s,
	setTime: (t) => setTimeRel(t), esc, fmtN, secs, hex, fitOverlay });
/* why a failed allocation on that timeline failed (fragview explain) */
const EXPLAIN = window.fvExplain(D, { cellXY, cell: () => L.s,
	setTime: (t) => setTimeRel(t), esc, secs, fitOverlay,
	tToX: COMPACT.test ? COMPACT.test.tToX : null });
function cellColour(i, dim) {
	if (mt[i] === NONE || !VIEWS.active())
		return (dim ? DIM32 : PAL32)[mt[i]];
	return VIEWS.colour32(i, dim);
}
const C_DARK = rgba("#111111"), C_WHITE = rgba("#ffffff");
const C_CHECK = rgba("#d00000"), C_MIG = rgba("#1f3b73");
const C_FAIL = rgba("#c0001e"), C_SEL = rgba("#0b3bff");
/* x, y, w, h in CSS pixels */
function fillPx(x, y, w, h, c) {
	const d = L.dpr, W = img.width;
	const x0 = Math.round(x * d), x1 = Math.round((x + w) * d);
	const y1 = Math.round((y + h) * d);
	for (let r = Math.round(y * d); r < y1; r++)
		px32.fill(c, r * W + x0, r * W + x1);
}
function paintCells(list) {
	const s = L.s, q = Math.max(2, Math.round(s * 0.28));
	const w = Math.max(2, Math.round(s * 0.34));
	const o = Math.floor((s - w) / 2) + 1;
	const bar = Math.max(1, Math.round(s / 5));
	const lw = Math.max(1, Math.min(3, Math.floor(s / 3)));
	let x0 = Infinity, y0 = Infinity, x1 = -1, y1 = -1;
	for (const i of list) {
		const [x, y] = cellXY(i);
		fillPx(x, y, s, s, cellColour(i, marks.dim && !touched(i)));
		if (s >= 5 && mt[i] !== NONE) {
			if (marks.steal && D.steals[i] > 0)
				fillPx(x + s - q, y, q, q, C_DARK);
			if (marks.check && checkWant[i] >= 0)
				fillPx(x, y + s - q, q, q, C_CHECK);
			if (marks.flip && flipsSoFar[i] > 0) {
				fillPx(x + o, y + o, w, w, C_DARK);
				if (w >= 4)
					fillPx(x + o + 1, y + o + 1, w - 2, w - 2, C_WHITE);
			}
			if (marks.fail && D.mfail[i] > 0)
				fillPx(x + 1, y + s - bar, s - 1, bar, C_FAIL);
			else if (marks.mig && D.mok[i] + D.mfail[i] > 0)
				fillPx(x + 1, y + s - bar, s - 1, bar, C_MIG);
		}
		if (i === selected) {
			fillPx(x, y, s, lw, C_SEL);
			fillPx(x, y + s - lw, s, lw, C_SEL);
			fillPx(x, y, lw, s, C_SEL);
			fillPx(x + s - lw, y, lw, s, C_SEL);
		}
		x0 = Math.min(x0, x);
		y0 = Math.min(y0, y);
		x1 = Math.max(x1, x + s);
		y1 = Math.max(y1, y + s);
	}
	if (x1 < 0)
		return;
	const d = L.dpr;
	ctx.putImageData(img, 0, 0, Math.floor(x0 * d), Math.floor(y0 * d),
		Math.ceil((x1 - x0) * d) + 1, Math.ceil((y1 - y0) * d) + 1);
}
const paintCell = (i) => paintCells([i]);
function paintFrame() {
	ctx.fillStyle = "#ffffff";
	ctx.fillRect(0, 0, L.w, L.h);
	ctx.textBaseline = "middle";
	const labelEvery = Math.max(1, Math.ceil(13 / L.pitch));
	L.zones.forEach((z, zi) => {
		ctx.fillStyle = "#1d2127";
		ctx.font = "600 12px system-ui, sans-serif";
		ctx.textAlign = "left";
		ctx.fillText(zoneTitle(D.zones[zi]), 4, z.head + 11);
		ctx.fillStyle = "#7a838c";
		ctx.font = "10px ui-monospace, Menlo, Consolas, monospace";
		ctx.textAlign = "right";
		for (let r = 0; r < z.rows; r += labelEvery)
			ctx.fillText(hex(z.rowPfn[r]), L.gridX - 6,
				z.y0 + r * L.pitch + L.s / 2);
	});
}
function paint() {
	if (repaintAll) {
		paintFrame();
		img = ctx.getImageData(0, 0, canvas.width, canvas.height);
		px32 = new Uint32Array(img.data.buffer);
		const all = new Array(N);
		for (let i = 0; i < N; i++)
			all[i] = i;
		paintCells(all);
	} else if (dirtyList.length) {
		paintCells(dirtyList);
	}
	for (const i of dirtyList)
		dirty[i] = 0;
	dirtyList = [];
	repaintAll = false;
}
/* Type drawn in cell i, read back from the canvas pixels (for tests). */
function cellType(i) {
	if (i < 0 || i >= N)
		return -1;
	const [x, y] = cellXY(i);
	const px = ctx.getImageData(Math.round(x * L.dpr),
		Math.round((y + Math.floor(L.s / 3)) * L.dpr), 1, 1).data;
	let best = -1, bestD = 30;
	[PAL, DIM].forEach((pal) => pal.forEach((c, t) => {
		const d = Math.abs(parseInt(c.substr(1, 2), 16) - px[0]) +
			Math.abs(parseInt(c.substr(3, 2), 16) - px[1]) +
			Math.abs(parseInt(c.substr(5, 2), 16) - px[2]);
		if (d < bestD) {
			best = t;
			bestD = d;
		}
	}));
	return best;
}

/* ---- legend, time, details ---- */
const slider = $("fv-slider");
function renderLegend() {
	let h = "";
	for (let t = 0; t < NMT; t++) {
		if (t === NONE)
			continue;	/* offline blocks are gaps, not a type */
		let base = 0;
		for (let i = 0; i < N; i++)
			base += start[i] === t;
		h += "<tr data-t=\"" + t + "\"><td><span class=\"sw\" style=\"background:" +
			PAL[t] + "\"></span> " + esc(D.names.mt[t]) +
			"</td><td class=\"n\"></td><td class=\"d\" title=\"change since the start\"></td></tr>";
		legendBase[t] = base;
	}
	$("fv-legend").innerHTML = h;
	legendRows = Array.from($("fv-legend").rows);
}
const legendBase = new Float64Array(NMT);
let legendRows = [];
function updateLegend() {
	legendRows.forEach((row) => {
		const t = Number(row.dataset.t);
		const d = count[t] - legendBase[t];
		row.cells[1].textContent = fmtN(count[t]);
		row.cells[2].textContent = d ? (d > 0 ? "+" : "\u2212") + fmtN(Math.abs(d)) : "";
		row.style.opacity = count[t] || legendBase[t] ? 1 : 0.45;
	});
	$("fv-legend-when").textContent = "at " + secs(curT);
	$("fv-view-legend").innerHTML = VIEWS.legend((i) => mt[i] !== NONE);
}
function setView(name) {
	const got = VIEWS.select(name);
	$("fv-color").value = got;
	VIEWS.seek(curT, touch);
	repaintAll = true;
	paint();
	updateLegend();
	if (selected >= 0)
		showDetails(selected, true);
	return got;
}
function renderViewChoice() {
	$("fv-color").innerHTML = "<option value=\"type\">migratetype</option>" +
		VIEWS.list.map((v) => "<option value=\"" + esc(v.name) + "\"" +
			(v.have ? "" : " disabled title=\"the capture has no " +
				esc(v.source || "steal") + " events\"") + ">" +
			esc(v.name) + "</option>").join("");
}
function updateTime() {
	$("fv-time").textContent = secs(curT) + "  (+" +
		(curT / 1e9).toFixed(3) + " s)   flips " + fmtN(applied) + "/" + fmtN(F);
	let last = "no flip applied yet";
	if (applied > 0) {
		const j = applied - 1, b = fB[j];
		last = "last flip: pfn " + hex(pfn[b]) + " " + D.names.mt[fPrev[j]] +
			" \u2192 " + D.names.mt[fNew[j]] + " (" + D.names.flip[fReason[j]] +
			") at " + secs(fT[j]);
	}
	$("fv-flipinfo").textContent = last;
}
function sliderToT(v) { return Math.round(v / SLIDER_MAX * D.tEnd); }
function tToSlider(t) {
	return D.tEnd > 0 ? Math.round(Math.min(Math.max(t / D.tEnd, 0), 1) * SLIDER_MAX)
		: SLIDER_MAX;
}
function setTimeRel(t, fromSlider) {
	curT = t;
	seekFlips(upperBound(t));
	VIEWS.seek(t, touch);
	paint();
	COMPACT.seek(t);
	if (!fromSlider)
		slider.value = tToSlider(t);
	updateLegend();
	updateTime();
	drawCursors();
	if (selected >= 0)
		showDetails(selected, true);
}

function histRow(r) {
	const [t, kind, a, b, c, v] = r;
	const mtn = (x) => D.names.mt[x] || "?";
	let what, detail;
	if (kind === EV.flip) {
		what = "flip";
		detail = mtn(a) + " \u2192 " + mtn(b) + " (" + (D.names.flip[c] || "?") + ")";
	} else if (kind === EV.steal || kind === EV.extfrag) {
		what = kind === EV.steal ? "steal" : "extfrag";
		detail = mtn(a) + " alloc from " + mtn(b) + " block, order " + (v >> 8) +
			"/" + (v & 255) + (c ? ", claimed" : "");
	} else if (kind === EV.migrate) {
		what = v === 0 ? "migrate ok" : "migrate failed";
		detail = (D.names.mr[b] || "?") + ", " + (D.names.mode[a] || "?") +
			", pass " + c + (v ? ", " + (v < 0 ? "-" + (ERRNO[-v] || -v) : v) : "");
	} else {
		what = D.names.ev[kind] || "event";
		detail = "";
	}
	return "<tr class=\"ev" + (t > curT ? " future" : "") + "\" data-t=\"" + t +
		"\" title=\"click: go to this time\"><td>" + ((D.t0 + t) / 1e9).toFixed(6) +
		"</td><td>" + esc(what) + "</td><td>" +
		esc(detail) + "</td></tr>";
}
function blockInfo(i) {
	const z = D.zones[zoneOf[i]];
	const rows = [
		["pfn", hex(pfn[i]) + "\u2013" + hex(pfn[i] + PPB - 1)],
		["node / zone", z[0] + " / " + D.names.zone[z[1]]],
		["type now", D.names.mt[mt[i]]],
		["type at start", D.names.mt[start[i]]],
		["steals", fmtN(D.steals[i]) + " (" + fmtN(D.claims[i]) + " claimed)"],
		["flips", fmtN(D.flips[i]) + " (" + fmtN(flipsSoFar[i]) + " up to now)"],
		["migrations", MIG_OK_UNRECORDED ?
			fmtN(D.mfail[i]) + " failed (successes not recorded: enable mobility:migrate_folio)" :
			fmtN(D.mok[i]) + " ok, " + fmtN(D.mfail[i]) + " failed"],
	];
	if (checkWant[i] >= 0)
		rows.push(["replay check", "last snapshot says " + D.names.mt[checkWant[i]] +
			", replay says " + D.names.mt[checkGot[i]]]);
	rows.push(...VIEWS.info(i));
	rows.push(...COMPACT.info(i));
	if (D.lorder[i] >= 0 || D.free[i] > 0)
		rows.push(["free (last snapshot)", fmtN(D.free[i]) +
			" pages, largest order " + D.lorder[i]]);
	return rows;
}
const blame = window.fvBlame ? window.fvBlame(D, { esc, secs }) : null;
function showDetails(i, keep) {
	const rows = blockInfo(i);
	let h = "<table>" + rows.map((r) => "<tr><th>" + esc(r[0]) + "</th><td>" +
		esc(r[1]) + "</td></tr>").join("") + "</table>";
	const hist = D.hist[i] || [];
	h += "<div class=\"hist\"><table><tr><th>time (s)</th><th>event</th><th>details" +
		(hist.length ? " (latest " + hist.length + ")" : "") + "</th></tr>" +
		(hist.length ? hist.map(histRow).join("") :
			"<tr><td colspan=3 class=\"hint\">no steal, flip or migration</td></tr>") +
		"</table></div>";
	if (blame)
		h += blame.section(i);
	if (!keep || selected === i)
		$("fv-details").innerHTML = h;
}
function hideTip() { $("fv-tip").hidden = true; }
/* html must be escaped already */
function placeTip(html, ev) {
	const tip = $("fv-tip");
	tip.innerHTML = html;
	tip.hidden = false;
	const x = Math.min(ev.clientX + 14, window.innerWidth - tip.offsetWidth - 6);
	const y = Math.min(ev.clientY + 14, window.innerHeight - tip.offsetHeight - 6);
	tip.style.left = x + "px";
	tip.style.top = y + "px";
}
function showTip(i, ev) {
	if (i < 0)
		hideTip();
	else
		placeTip(blockInfo(i).map((r) => esc(r[0]) + ": <b>" + esc(r[1]) +
			"</b>").join("<br>"), ev);
}
function select(i) {
	const old = selected;
	selected = i;
	if (old >= 0)
		paintCell(old);
	if (i >= 0) {
		paintCell(i);
		showDetails(i, false);
	}
}

/* ---- charts over time (charts.js) ---- */
const charts = window.fvCharts(D, $("fv-charts"), {
	dpr: () => L.dpr,
	now: () => curT,
	setTime: (t) => setTimeRel(t),
	tip: placeTip,
	untip: hideTip,
	esc, fmtN,
});
const drawCursors = () => charts.cursor();
const drawCharts = () => charts.draw();

/* ---- header ---- */
function summary() {
	$("fv-title").textContent = D.title;
	document.title = "fragview: " + D.title;
	const ev = D.events.map((n, k) => n ? fmtN(n) + " " + D.names.ev[k] : "")
		.filter(Boolean).join(", ");
	$("fv-summary").textContent = fmtN(N) + " pageblocks" +
		(D.filtered ? " (of " + fmtN(D.nrBlocksModel) + ", zone filter)" : "") +
		" in " + D.zones.length + " zone" + (D.zones.length === 1 ? "" : "s") +
		", " + PPB + " pages per block  \u00b7  " + fmtN(F) + " flips  \u00b7  " +
		(ev || "no events") + "  \u00b7  " + (D.tEnd / 1e9).toFixed(3) + " s captured" +
		(D.baseline ? ", " + D.snapshots + " snapshot" + (D.snapshots === 1 ? "" : "s") :
			", no baseline snapshot") +
		(D.check && !D.check.mismatches ? "  \u00b7  replay check: all " +
			fmtN(D.check.compared) + " blocks match the last snapshot" : "");
	/* lost events, incomplete snapshots, gen gaps: first, one per line */
	const warn = (D.issues || []).slice();
	if (replayMismatch)
		warn.push(plural(replayMismatch, "block") + " end in a different type than the replay");
	if (D.check && D.check.mismatches)
		warn.push("replay check: " + plural(D.check.mismatches, "block") + " of " +
			fmtN(D.check.compared) + (D.check.mismatches === 1 ? " differs" : " differ") +
			" from the last snapshot (lost events?)");
	if (D.flipOldMismatch)
		warn.push(plural(D.flipOldMismatch, "flip") + " whose old type disagreed with the replay (lost events?)");
	if (D.outOfOrder)
		warn.push(plural(D.outOfOrder, "event") + " out of time order");
	if (D.unknownBlocks)
		warn.push(plural(D.unknownBlocks, "event") + " on pfns outside known blocks");
	if (warn.length) {
		$("fv-warn").textContent = warn.join("\n");
		$("fv-warn").hidden = false;
	}
}

/* The blocks most steals, flips and failed migrations went to. */
function renderHot() {
	const score = (i) => D.steals[i] + D.flips[i] + D.mfail[i];
	const top = [];
	for (let i = 0; i < N; i++) {
		if (!score(i))
			continue;
		top.push(i);
		if (top.length > 64) {	/* keep it a partial sort */
			top.sort((a, b) => score(b) - score(a));
			top.length = 8;
		}
	}
	top.sort((a, b) => score(b) - score(a));
	top.length = Math.min(top.length, 8);
	$("fv-hot").innerHTML = top.length ? "<tr><th></th><th>pfn</th><th>steals</th>" +
		"<th>flips</th><th>migr. failed</th></tr>" + top.map((i) =>
		"<tr class=\"blk\" data-b=\"" + i + "\"><td><span class=\"sw\" style=\"background:" +
		PAL[D.final.charCodeAt(i) - 48] + "\"></span></td><td>" + hex(pfn[i]) +
		"</td><td>" + fmtN(D.steals[i]) + "</td><td>" + fmtN(D.flips[i]) +
		"</td><td>" + fmtN(D.mfail[i]) + "</td></tr>").join("") :
		"<tr><td class=\"hint\">no steal, flip or failed migration</td></tr>";
}

/* ---- wiring ---- */
/*
 * A default recording (migrate_folio_failed, no migrate_folio) does not
 * say which folio moved: no block shows its pages migrated away.
 */
if (MIG_OK_UNRECORDED) {
	const mk = $("fv-mk-mig");
	mk.checked = false;
	mk.disabled = true;
	mk.parentNode.title = "successes per folio not recorded: enable mobility:migrate_folio";
}
function readMarks() {
	marks = { steal: $("fv-mk-steal").checked, flip: $("fv-mk-flip").checked,
		mig: $("fv-mk-mig").checked, fail: $("fv-mk-fail").checked,
		check: $("fv-mk-check").checked,
		dim: $("fv-dim").checked };
}
let playing = 0;
function play() {
	if (playing) {
		cancelAnimationFrame(playing);
		playing = 0;
		$("fv-play").textContent = "\u25b6 play";
		return;
	}
	if (curT >= D.tEnd)
		setTimeRel(0);
	const stepNs = Math.max(1, D.tEnd / 600);	/* ~10 s at 60 fps */
	const frame = () => {
		setTimeRel(Math.min(D.tEnd, curT + stepNs));
		playing = curT < D.tEnd ? requestAnimationFrame(frame) : 0;
		if (!playing)
			$("fv-play").textContent = "\u25b6 play";
	};
	$("fv-play").textContent = "\u23f8 pause";
	playing = requestAnimationFrame(frame);
}
/* stepping selects the block that flips, so its details follow */
function nextFlip() {
	if (applied < F) {
		/* flips at the same time all apply: select the last one's block */
		setTimeRel(fT[applied]);
		select(fB[applied - 1]);
	}
}
function prevFlip() {
	if (applied > 0) {
		const b = fB[applied - 1];
		setTimeRel(fT[applied - 1] - 1);
		select(b);
	}
}

function wire() {
	slider.addEventListener("input", () =>
		setTimeRel(sliderToT(Number(slider.value)), true));
	$("fv-first").onclick = () => setTimeRel(0);
	$("fv-last").onclick = () => setTimeRel(D.tEnd);
	$("fv-next").onclick = nextFlip;
	$("fv-prev").onclick = prevFlip;
	$("fv-play").onclick = play;
	document.addEventListener("keydown", (ev) => {
		if (ev.target.tagName === "INPUT" && ev.target.type !== "checkbox")
			return;		/* the slider has its own arrow keys */
		if (ev.target.tagName === "BUTTON" && ev.key === " ")
			return;		/* the button's own click toggles */
		const k = { ArrowRight: nextFlip, ArrowLeft: prevFlip, " ": play,
			Home: () => setTimeRel(0), End: () => setTimeRel(D.tEnd) }[ev.key];
		if (k) {
			ev.preventDefault();
			k();
		}
	});
	$("fv-color").addEventListener("change", () => setView($("fv-color").value));
	["fv-mk-steal", "fv-mk-flip", "fv-mk-mig", "fv-mk-fail", "fv-mk-check",
		"fv-dim"].forEach((id) =>
		$(id).addEventListener("change", () => {
			readMarks();
			repaintAll = true;
			paint();
		}));
	canvas.addEventListener("mousemove", (ev) => {
		const r = canvas.getBoundingClientRect();
		showTip(hitTest(ev.clientX - r.left, ev.clientY - r.top), ev);
	});
	canvas.addEventListener("mouseleave", () => showTip(-1));
	canvas.addEventListener("click", (ev) => {
		const r = canvas.getBoundingClientRect();
		const i = hitTest(ev.clientX - r.left, ev.clientY - r.top);
		if (i >= 0)
			select(i);
	});
	$("fv-hot").addEventListener("click", (ev) => {
		const tr = ev.target.closest("tr.blk");
		if (tr)
			select(Number(tr.dataset.b));
	});
	$("fv-details").addEventListener("click", (ev) => {
		const tr = ev.target.closest("tr.ev");
		if (tr)
			setTimeRel(Number(tr.dataset.t));
	});
	let resizeTimer = 0;
	window.addEventListener("resize", () => {
		clearTimeout(resizeTimer);
		resizeTimer = setTimeout(() => {
			layout();
			paint();
			drawCharts();
		}, 100);
	});
}

/* ---- test hook ---- */
window.fragview = {
	nrBlocks: N,
	compact: COMPACT.test,
	explain: EXPLAIN.test,
	nrFlips: F,
	t0: D.t0,
	tEnd: D.t0 + D.tEnd,
	/* ts: absolute trace-clock ns, like fragview map --at */
	typesAt: (ts) => typesAtRel(ts - D.t0),
	setTime: (ts) => setTimeRel(ts - D.t0),
	time: () => D.t0 + curT,
	cellType,
	/* colour views: the one shown, switching, the reference replay */
	setView,
	view: () => $("fv-color").value,
	viewNames: () => VIEWS.list.filter((v) => v.have).map((v) => v.name),
	viewGlyphsAt: (name, ts) => {
		const mts = typesAtRel(ts - D.t0);
		return VIEWS.glyphsAt(name, ts - D.t0, (i) => mts[i] === NONE);
	},
	/* the glyph of cell i as painted (its pixels), " " for a gap */
	cellGlyph: (i) => {
		if (mt[i] === NONE)
			return " ";
		const [x, y] = cellXY(i);
		const px = ctx.getImageData(Math.round(x * L.dpr),
			Math.round((y + Math.floor(L.s / 3)) * L.dpr), 1, 1).data;
		return VIEWS.active() ? VIEWS.glyphOfPixel(px[0], px[1], px[2])
			: D.names.mt[cellType(i)] || "";
	},
	cellCount: () => L.zones.reduce((s, z) => s + z.nr, 0),
	cellXY: (i) => cellXY(i),
	/* layout facts for the self-test: the cell's row label, its column */
	cellRowPfn: (i) => L.zones[zoneOf[i]].rowPfn[cellRow[i]],
	cellCol: (i) => Math.round((cellXY(i)[0] - L.gridX) / L.pitch),
	cols: () => L.cols,
	blockPfn: (i) => pfn[i],
	zoneFirst: (i) => D.zones[zoneOf[i]][2],
	isOffline: (i) => mt[i] === NONE,
	hitAt: (x, y) => hitTest(x, y),
	select,
	selected: () => selected,
	lastFlipBlock: () => applied > 0 ? fB[applied - 1] : -1,
	histLen: (i) => (D.hist[i] || []).length,
	blameLen: (i) => (D.blame && D.blame.blocks[i] || []).length,
	blameStacks: () => (D.blame ? D.blame.stacks.length : 0),
	checkMismatches: () => checkWant.reduce((n, v) => n + (v >= 0), 0),
	blockPfnText: (i) => hex(pfn[i]),
	replayMismatch: () => replayMismatch,
};

summary();
readMarks();
renderViewChoice();
VIEWS.select(D.views ? D.views.initial : "type");
$("fv-color").value = VIEWS.active() ? VIEWS.active().name : "type";
renderLegend();
renderHot();
wire();
layout();
drawCharts();
setTimeRel(D.at !== null ? D.at : D.tEnd);
{
	/* deep link: #t=<trace ns>&b=<block index> */
	const q = {};
	location.hash.slice(1).split(/[&;]/).forEach((kv) => {
		const p = kv.indexOf("=");
		if (p > 0)
			q[kv.slice(0, p)] = kv.slice(p + 1);
	});
	if (q.t !== undefined && isFinite(Number(q.t)))
		setTimeRel(Number(q.t) - D.t0);
	if (q.c !== undefined)
		setView(q.c);
	if (q.b !== undefined && Number(q.b) >= 0 && Number(q.b) < N)
		select(Number(q.b));
}
window.fragview.loadMs = performance.now() - T_START;
if (/^#selftest/.test(location.hash) && window.fragviewSelftest)
	window.fragviewSelftest();
})();
