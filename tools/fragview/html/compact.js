// SPDX-License-Identifier: GPL-2.0
/*
 * compact.js - compaction on the HTML map, from D.compact
 * (render_map_compact.c):
 *
 *   - an overlay canvas over the map: up to the time shown, the pages of
 *     each block a migrate scanner pass covered (blue band along the top
 *     of the cell), those the free scanner covered (orange band along the
 *     bottom), as wide as the part of the block covered, and a red
 *     diagonal across blocks with failed migrations, as the SVG map draws
 *     them;
 *   - the high-order timeline under the map: allocations of order >=
 *     pageblock_order per time bucket, successes up and failures down,
 *     and every compaction run as a bar from its begin to its end,
 *     coloured by its end status, with a cursor at the time shown (a
 *     click moves the map there);
 *   - a side panel section: what compaction did and failed up to now,
 *     and rows of the block details (info(i)): the pages of the block
 *     each scanner covered, its failed migrations and the last result.
 *
 * window.fvCompact(D, ui) -> { seek(t), layout(), info(i), test }, where ui gives
 * cellXY(i), cell() (cell size, CSS px), setTime(rel), esc(), fmtN(),
 * secs(), hex() and fitOverlay(canvas, ctx) (lays it over the map).
 * Without D.compact it returns the same, doing nothing.
 */
"use strict";
window.fvCompact = function (D, ui) {
	const C = D.compact;
	const N = D.final.length;
	const PPB = Math.pow(2, D.order);
	const COL = { mig: "#0a5cd6", free: "#f08c00", fail: "#d00000",
		ok: "#2e9e44", axis: "#7a838c" };
	const RUN_COL = { success: "#2e9e44", complete: "#0a5cd6",
		partial_skipped: "#8a8f96", skipped: "#8a8f96",
		contended: "#f08c00", deferred: "#f08c00" };
	const ERRNO = { 1: "EPERM", 2: "ENOENT", 5: "EIO", 11: "EAGAIN",
		12: "ENOMEM", 14: "EFAULT", 16: "EBUSY", 22: "EINVAL",
		28: "ENOSPC", 38: "ENOSYS", 133: "EHWPOISON" };
	const nothing = { seek() {}, layout() {}, info: () => [], test: null };
	if (!C)
		return nothing;
	const $ = (id) => document.getElementById(id);
	const upper = (arr, t) => {	/* entries with time <= t */
		let lo = 0, hi = arr.length;
		while (lo < hi) {
			const mid = (lo + hi) >> 1;
			if (arr[mid] <= t)
				lo = mid + 1;
			else
				hi = mid;
		}
		return lo;
	};
	const errName = (r) => ERRNO[-r] || String(r);
	let curT = 0;
	const show = { mig: true, free: true, fail: true };

	/* ---- marks per block up to t, as fv_compact_marks() ---- */
	const mlo = new Int32Array(N), mhi = new Int32Array(N);
	const flo = new Int32Array(N), fhi = new Int32Array(N);
	const nfail = new Int32Array(N), lastR = new Int32Array(N);
	function marksAt(t) {
		mlo.fill(-1);
		flo.fill(-1);
		nfail.fill(0);
		for (let j = 0, n = upper(C.scanT, t); j < n; j++) {
			const b = C.scanB[j], lo = C.scanLo[j], hi = C.scanHi[j];
			const [L, H] = C.scanF[j] ? [flo, fhi] : [mlo, mhi];
			if (L[b] < 0) {
				L[b] = lo;
				H[b] = hi;
			} else {
				L[b] = Math.min(L[b], lo);
				H[b] = Math.max(H[b], hi);
			}
		}
		for (let j = 0, n = upper(C.failT, t); j < n; j++) {
			nfail[C.failB[j]]++;
			lastR[C.failB[j]] = C.failR[j];
		}
	}
	function counts() {
		const c = { migrate: 0, free: 0, fail: 0 };
		for (let i = 0; i < N; i++) {
			c.migrate += mlo[i] >= 0;
			c.free += flo[i] >= 0;
			c.fail += nfail[i] > 0;
		}
		return c;
	}

	/* ---- the overlay canvas ---- */
	const wrap = $("fv-mapwrap");
	const over = document.createElement("canvas");
	over.id = "fv-compact-overlay";
	over.setAttribute("aria-hidden", "true");
	over.style.cssText = "position:absolute;pointer-events:none;left:0;top:0";
	wrap.style.position = "relative";
	wrap.appendChild(over);
	const octx = over.getContext("2d", { willReadFrequently: true });
	let dpr = 1;
	function layout() {
		dpr = ui.fitOverlay(over, octx);
		paintOverlay();
		drawTimeline();
	}
	/* band geometry of a cell: [x, y, w, h] in CSS px */
	function band(i, lo, hi, bottom) {
		const [x, y] = ui.cellXY(i), s = ui.cell();
		const h = Math.max(2, Math.round(s * 0.3));
		const x0 = x + Math.floor(lo * s / PPB);
		const w = Math.max(1, Math.ceil(hi * s / PPB) - Math.floor(lo * s / PPB));
		return [x0, bottom ? y + s - h : y, w, h];
	}
	function paintOverlay() {
		octx.clearRect(0, 0, over.width, over.height);
		marksAt(curT);
		for (let i = 0; i < N; i++) {
			if (show.mig && mlo[i] >= 0) {
				octx.fillStyle = COL.mig;
				octx.fillRect(...band(i, mlo[i], mhi[i], false));
			}
			if (show.free && flo[i] >= 0) {
				octx.fillStyle = COL.free;
				octx.fillRect(...band(i, flo[i], fhi[i], true));
			}
			if (show.fail && nfail[i] > 0) {
				const [x, y] = ui.cellXY(i), s = ui.cell();
				octx.strokeStyle = COL.fail;
				octx.lineWidth = Math.max(1.5, s / 7);
				octx.beginPath();
				octx.moveTo(x, y + s);
				octx.lineTo(x + s, y);
				octx.stroke();
			}
		}
	}
	/* blocks whose overlay pixels show each mark (read back, for tests) */
	function drawnCounts() {
		const img = octx.getImageData(0, 0, over.width, over.height).data;
		/* the device pixel holding CSS point (x, y) */
		const at = (x, y) => {
			const p = (Math.floor(y * dpr) * over.width + Math.floor(x * dpr)) * 4;
			return [img[p], img[p + 1], img[p + 2], img[p + 3]];
		};
		const is = (px, hex) => px[3] > 100 &&
			Math.abs(px[0] - parseInt(hex.substr(1, 2), 16)) < 40 &&
			Math.abs(px[1] - parseInt(hex.substr(3, 2), 16)) < 40 &&
			Math.abs(px[2] - parseInt(hex.substr(5, 2), 16)) < 40;
		const c = { migrate: 0, free: 0, fail: 0 };
		for (let i = 0; i < N; i++) {
			const s = ui.cell();
			const [x, y] = ui.cellXY(i);
			/* where a band would be: its middle, or the cell's */
			if (mlo[i] >= 0) {
				const [bx, by, bw, bh] = band(i, mlo[i], mhi[i], false);
				c.migrate += is(at(bx + bw / 2, by + bh / 2), COL.mig);
			} else {
				c.migrate += is(at(x + s / 2, y + 1), COL.mig);
			}
			if (flo[i] >= 0) {
				const [bx, by, bw, bh] = band(i, flo[i], fhi[i], true);
				c.free += is(at(bx + bw / 2, by + bh / 2), COL.free);
			} else {
				c.free += is(at(x + s / 2, y + s - 1), COL.free);
			}
			/* the diagonal crosses the centre */
			c.fail += [-1, 0, 1].some((d) =>
				is(at(x + s / 2 + d, y + s / 2 - d), COL.fail));
		}
		return c;
	}

	/* ---- the high-order timeline ---- */
	const box = document.createElement("div");
	box.className = "chart";
	box.id = "fv-compact-timeline";
	box.style.marginTop = "10px";
	box.innerHTML = "<span class=\"ct\">High-order allocations (order \u2265 " +
		D.order + ") and compaction runs</span>" +
		"<span class=\"ck\"><span class=\"sw\" style=\"background:" + COL.ok +
		"\"></span> succeeded (up)</span><span class=\"ck\"><span class=\"sw\" style=\"background:" +
		COL.fail + "\"></span> failed (down)</span><span class=\"ck\">runs: bars, " +
		"coloured by status</span><div id=\"fv-compact-caption\" class=\"ck\"></div>";
	const tl = document.createElement("canvas");
	tl.style.cssText = "display:block;width:100%;height:120px;cursor:pointer";
	box.appendChild(tl);
	const cursor = document.createElement("div");
	cursor.className = "cursor";
	box.appendChild(cursor);
	$("fv-mapcol").insertBefore(box, $("fv-charts"));
	const tctx = tl.getContext("2d", { willReadFrequently: true });
	const TL = { x0: 6, pw: 100, h: 120, nb: 1, ok: [], fail: [], max: 1 };
	const allocOk = C.allocOk.reduce((n, v) => n + v, 0);
	const allocFail = C.allocT.length - allocOk;
	function tToX(t) {
		return TL.x0 + Math.min(Math.max(D.tEnd > 0 ? t / D.tEnd : 1, 0), 1) * TL.pw;
	}
	function drawTimeline() {
		const W = Math.max(200, tl.clientWidth || box.clientWidth - 12);
		const d = window.devicePixelRatio || 1;
		tl.width = Math.round(W * d);
		tl.height = Math.round(TL.h * d);
		tctx.setTransform(d, 0, 0, d, 0, 0);
		TL.pw = W - 2 * TL.x0;
		TL.nb = Math.max(1, Math.floor(TL.pw / 3));
		TL.ok = new Array(TL.nb).fill(0);
		TL.fail = new Array(TL.nb).fill(0);
		const bucket = (t) => Math.min(TL.nb - 1,
			Math.floor((D.tEnd > 0 ? t / D.tEnd : 1) * TL.nb));
		C.allocT.forEach((t, j) => {
			(C.allocOk[j] ? TL.ok : TL.fail)[bucket(t)]++;
		});
		TL.max = Math.max(1, ...TL.ok, ...TL.fail);
		const mid = 48, half = 40, bw = TL.pw / TL.nb;
		tctx.clearRect(0, 0, W, TL.h);
		tctx.fillStyle = COL.axis;
		tctx.fillRect(TL.x0, mid, TL.pw, 1);
		for (let b = 0; b < TL.nb; b++) {
			const x = TL.x0 + b * bw;
			if (TL.ok[b]) {
				const h = Math.max(2, TL.ok[b] / TL.max * half);
				tctx.fillStyle = COL.ok;
				tctx.fillRect(x, mid - h, Math.max(1, bw - 1), h);
			}
			if (TL.fail[b]) {
				const h = Math.max(2, TL.fail[b] / TL.max * half);
				tctx.fillStyle = COL.fail;
				tctx.fillRect(x, mid + 1, Math.max(1, bw - 1), h);
			}
		}
		/* runs: one lane per node, begin to end */
		C.runs.forEach((r) => {
			const [b, e, nid, , , st] = r;
			const x0 = tToX(b), x1 = tToX(e >= 0 ? e : D.tEnd);
			const lane = 96 + (nid > 0 ? Math.min(nid, 3) * 5 : 0);
			tctx.fillStyle = st >= 0 ? RUN_COL[C.status[st]] || COL.axis : "#c8ccd2";
			tctx.fillRect(x0, lane, Math.max(2, x1 - x0), 4);
		});
		tctx.fillStyle = COL.axis;
		tctx.font = "10px system-ui, sans-serif";
		tctx.fillText("runs", TL.x0, 93);
		tctx.fillText("+0 s", TL.x0, TL.h - 4);
		tctx.textAlign = "right";
		tctx.fillText("+" + (D.tEnd / 1e9).toFixed(3) + " s", TL.x0 + TL.pw, TL.h - 4);
		tctx.textAlign = "left";
		moveCursor();
	}
	function moveCursor() {
		cursor.style.left = Math.round(tl.offsetLeft + tToX(curT)) + "px";
		cursor.style.top = tl.offsetTop + "px";
		cursor.style.height = TL.h + "px";
	}
	tl.addEventListener("click", (ev) => {
		const r = tl.getBoundingClientRect();
		const f = (ev.clientX - r.left - TL.x0) / TL.pw;
		ui.setTime(Math.round(Math.min(Math.max(f, 0), 1) * D.tEnd));
	});
	tl.addEventListener("mousemove", (ev) => {
		const r = tl.getBoundingClientRect();
		const b = Math.floor((ev.clientX - r.left - TL.x0) / (TL.pw / TL.nb));
		if (b < 0 || b >= TL.nb)
			return;
		$("fv-compact-caption").textContent = "at " +
			ui.secs(b / TL.nb * D.tEnd) + ": " + ui.fmtN(TL.ok[b]) +
			" succeeded, " + ui.fmtN(TL.fail[b]) + " failed";
	});

	/* ---- side panel: up to now ---- */
	const side = document.createElement("div");
	side.id = "fv-compact";
	side.innerHTML = "<h2>Compaction <small>up to now</small></h2>" +
		["mig:migrate scanner (top band)", "free:free scanner (bottom band)",
		 "fail:failed migration (diagonal)"].map((s) => {
			const [k, label] = s.split(":");
			return "<label style=\"display:block\"><input type=\"checkbox\" id=\"fv-ck-" +
				k + "\" checked> <span class=\"sw\" style=\"background:" +
				COL[k] + "\"></span> " + ui.esc(label) + "</label>";
		}).join("") + "<div id=\"fv-compact-now\"></div>";
	const marksBox = $("fv-marks");
	marksBox.parentNode.insertBefore(side, marksBox.nextSibling);
	["mig", "free", "fail"].forEach((k) => {
		$("fv-ck-" + k).addEventListener("change", (ev) => {
			show[k] = ev.target.checked;
			paintOverlay();
		});
	});
	function summary() {
		const begun = upper(C.runs.map((r) => r[0]), curT);
		const st = {};
		let ended = 0;
		C.runs.forEach((r) => {
			if (r[1] >= 0 && r[1] <= curT) {
				ended++;
				st[C.status[r[5]]] = (st[C.status[r[5]]] || 0) + 1;
			}
		});
		const byR = {};
		for (let j = 0, n = upper(C.failT, curT); j < n; j++)
			byR[C.failR[j]] = (byR[C.failR[j]] || 0) + 1;
		const na = upper(C.allocT, curT);
		let ok = 0;
		for (let j = 0; j < na; j++)
			ok += C.allocOk[j];
		const c = counts();
		const rows = [
			["runs", ui.fmtN(begun) + " begun, " + ui.fmtN(ended) + " ended" +
				(ended ? " (" + Object.keys(st).map((k) => k + " " + st[k]).join(", ") + ")" : "")],
			["blocks scanned", ui.fmtN(c.migrate) + " migrate, " + ui.fmtN(c.free) + " free"],
			["failed migrations", Object.keys(byR).length ?
				Object.keys(byR).map((r) => errName(Number(r)) + " " + byR[r]).join(", ") +
				" (pages) in " + ui.fmtN(c.fail) + (c.fail === 1 ? " block" : " blocks") :
				"none"],
			["high-order allocations", C.allocsRecorded ?
				ui.fmtN(ok) + " succeeded, " + ui.fmtN(na - ok) + " failed" :
				"not recorded"],
		];
		$("fv-compact-now").innerHTML = "<table>" + rows.map((r) =>
			"<tr><td>" + ui.esc(r[0]) + "</td><td>" + ui.esc(r[1]) +
			"</td></tr>").join("") + "</table>";
		$("fv-compact-caption").textContent = C.allocsRecorded ?
			ui.fmtN(C.allocT.length) + " allocations, " + ui.fmtN(allocFail) +
			" failed; " + ui.fmtN(C.runs.length) + " runs" :
			"kmem:mm_page_alloc not recorded; " + ui.fmtN(C.runs.length) + " runs";
	}
	function seek(t) {
		curT = t;
		paintOverlay();
		moveCursor();
		summary();
	}

	/* rows for the block details: what compaction did to block i so far */
	function info(i) {
		const rows = [];
		const pages = (lo, hi) => "pages +" + ui.hex(lo) + "\u2013" + ui.hex(hi - 1) +
			" of the block";
		if (mlo[i] >= 0)
			rows.push(["migrate scanner", pages(mlo[i], mhi[i])]);
		if (flo[i] >= 0)
			rows.push(["free scanner", pages(flo[i], fhi[i])]);
		if (nfail[i])
			rows.push(["failed migrations", ui.fmtN(nfail[i]) + " pages, last " +
				errName(lastR[i]) + " (" + lastR[i] + ")"]);
		return rows;
	}
	return {
		seek,
		layout,
		info,
		test: {
			/* the first block with failed migrations now, and the name
			 * of its last failure's errno */
			failBlock: () => {
				const i = nfail.findIndex((n) => n > 0);
				return i < 0 ? null : { block: i, errno: errName(lastR[i]) };
			},
			marks: () => counts(),
			drawn: () => drawnCounts(),
			allocs: () => ({ ok: allocOk, fail: allocFail }),
			/* bars actually painted: buckets with green above / red below */
			bars: () => {
				const d = window.devicePixelRatio || 1;
				const img = tctx.getImageData(0, 0, tl.width, tl.height).data;
				const px = (x, y) => {
					const p = (Math.round(y * d) * tl.width + Math.round(x * d)) * 4;
					return [img[p], img[p + 1], img[p + 2]];
				};
				let ok = 0, fail = 0;
				for (let b = 0; b < TL.nb; b++) {
					const x = TL.x0 + (b + 0.3) * TL.pw / TL.nb;
					const u = px(x, 47), l = px(x, 50);
					ok += u[1] > 120 && u[0] < 100;
					fail += l[0] > 150 && l[1] < 60;
				}
				return { ok, fail, okBuckets: TL.ok.filter((v) => v).length,
					failBuckets: TL.fail.filter((v) => v).length };
			},
			cursorX: () => parseFloat(cursor.style.left) - tl.offsetLeft,
			tToX,
		},
	};
};
