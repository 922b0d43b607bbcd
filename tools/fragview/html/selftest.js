// SPDX-License-Identifier: GPL-2.0
/*
 * selftest.js - checks the page runs when its URL ends in
 * "#selftest;exp=<trace ns>:<digits>;...", where each digit string is
 * the migratetype of every block at that time as computed by fragview
 * (the test harness, tests/html/run.sh, writes them).  Results go to
 * a <pre> element with id "selftest" as "PASS name" / "FAIL name: why" /
 * "SKIP name: why" (nothing to check in this capture) / "INFO ..." lines
 * and a final "DONE pass=N fail=N", read with --dump-dom.
 * "vexp=<view>@<trace ns>:<glyphs>" entries give a colour view
 * (map --color) of every block at that time as the txt map draws it,
 * "_" for a block off the map.
 * "vsrc=<view>@<trace ns>:<record>|<older>" gives where the txt map
 * says that view's cells come from: "census 2 at 5.023304 s" (its
 * legend's "as of", seconds to 6 places) or "none", and how many blocks
 * come from an older record.
 * "cmarks=<trace ns>:<migrate>:<free>:<fail>" gives how many blocks the
 * compaction overlay must mark at that time (a scanner pass, a failed
 * migration up to it), "callocs=<ok>:<failed>" the high-order
 * allocations the timeline must draw (tests/compactcheck.py),
 * "cexplain=<alloc>:<cause>:<blocks>" a failed allocation a click on
 * the timeline must select, with the cause and the number of blocks
 * "fragview explain" gives it.
 * Everything runs synchronously during page load.
 */
"use strict";
window.fragviewSelftest = function () {
	const fv = window.fragview;
	const D_order = () => JSON.parse(document.getElementById("fv-data").textContent).order;
	/* since navigation start: fetch, HTML and JSON parse, first paint */
	const readyMs = performance.now();
	const lines = [];
	let pass = 0, fail = 0;
	const check = (name, fn) => {
		let why;
		try {
			why = fn();
		} catch (e) {
			why = "exception: " + e;
		}
		if (why && why.skip) {
			lines.push("SKIP " + name + ": " + why.skip);
		} else if (why === true || why === undefined) {
			pass++;
			lines.push("PASS " + name);
		} else {
			fail++;
			lines.push("FAIL " + name + ": " + why);
		}
	};
	const slider = document.getElementById("fv-slider");
	const moveSlider = (v) => {
		slider.value = v;
		slider.dispatchEvent(new Event("input"));
	};
	/*
	 * The cells as painted, against want[]: types per block, or with
	 * read = fv.cellGlyph the glyphs of the colour view shown.
	 */
	const cellsMatch = (want, read = fv.cellType) => {
		let bad = 0, first = -1;
		for (let i = 0; i < fv.nrBlocks; i++) {
			if (read(i) !== want[i]) {
				if (first < 0)
					first = i;
				bad++;
			}
		}
		return bad ? bad + " cells differ, first " + first + ": drawn '" +
			read(first) + "' want '" + want[first] + "'" : true;
	};
	const glyphsMatch = (want) => cellsMatch(want, fv.cellGlyph);
	const exp = [], vexp = [], vsrc = [], cmarks = [], cexplain = [];
	let callocs = null;
	location.hash.split(";").forEach((kv) => {
		const x = /^cexplain=(\d+):([a-z-]+):(\d+)$/.exec(kv);
		if (x)
			cexplain.push({ a: Number(x[1]), cause: x[2], blocks: Number(x[3]) });
		const c = /^cmarks=(\d+):(\d+):(\d+):(\d+)$/.exec(kv);
		if (c)
			cmarks.push({ ts: Number(c[1]), migrate: Number(c[2]),
				free: Number(c[3]), fail: Number(c[4]) });
		const a = /^callocs=(\d+):(\d+)$/.exec(kv);
		if (a)
			callocs = { ok: Number(a[1]), fail: Number(a[2]) };
		const m = /^exp=(\d+):(\d*)$/.exec(kv);
		if (m)
			exp.push({ ts: Number(m[1]), types: Array.from(m[2], Number) });
		const v = /^vexp=(\w+)@(\d+):(.*)$/.exec(kv);
		if (v)
			vexp.push({ view: v[1], ts: Number(v[2]),
				glyphs: decodeURIComponent(v[3]).replace(/_/g, " ") });
		const vs = /^vsrc=(\w+)@(\d+):(.*)$/.exec(kv);
		if (vs)
			vsrc.push({ view: vs[1], ts: Number(vs[2]),
				want: decodeURIComponent(vs[3]) });
	});
	fv.select(-1);
	/* the type checks first, whatever view the page opened with */
	const opened = fv.view();
	fv.setView("type");
	check("data-blocks", () => {
		const n = Number(document.body.dataset.blocks);
		return n === fv.nrBlocks || "data-blocks " + n + " vs " + fv.nrBlocks;
	});
	check("one-cell-per-block", () => fv.cellCount() === fv.nrBlocks ||
		fv.cellCount() + " cells for " + fv.nrBlocks + " blocks");
	/* each cell at its pfn: the row's label plus the column, computed
	 * here from the pfns alone; the hit test finds the block there */
	check("cells-at-pfn", () => {
		const cv = document.getElementById("fv-map");
		const cols = fv.cols(), ppb = Math.pow(2, D_order());
		for (let i = 0; i < fv.nrBlocks; i++) {
			const slot = Math.round((fv.blockPfn(i) - fv.blockPfn(fv.zoneFirst(i))) / ppb);
			const col = slot % cols;
			if (fv.cellCol(i) !== col)
				return "block " + i + " in column " + fv.cellCol(i) + ", want " + col;
			if (fv.cellRowPfn(i) + col * ppb !== fv.blockPfn(i))
				return "block " + i + ": row label 0x" + fv.cellRowPfn(i).toString(16) +
					" + column " + col + " is not its pfn 0x" + fv.blockPfn(i).toString(16);
			const [x, y] = fv.cellXY(i);
			const hit = fv.hitAt(x + 1, y + 1);
			if (hit !== (fv.isOffline(i) ? -1 : i))
				return "hit test at block " + i + " gives " + hit;
		}
		return cv ? true : "no map canvas";
	});
	check("replay-reaches-final", () => fv.replayMismatch() === 0 ||
		fv.replayMismatch() + " blocks");
	check("expected-given", () => exp.length > 0 || "no exp= in the URL");
	exp.forEach((e) => {
		check("typesAt@" + e.ts, () => {
			const got = fv.typesAt(e.ts).join("");
			return got === e.types.join("") || "got " + got;
		});
		check("cells@" + e.ts, () => {
			fv.setTime(e.ts);
			return cellsMatch(e.types);
		});
	});
	/* colour views: the replay and the painted cells against the txt map */
	vexp.forEach((e) => {
		const name = e.view + "@" + e.ts;
		check("viewAt@" + name, () => {
			const got = fv.viewGlyphsAt(e.view, e.ts);
			return got === e.glyphs || "got '" + got + "'";
		});
		check("viewcells@" + name, () => {
			if (fv.setView(e.view) !== e.view)
				return "the page has no view " + e.view;
			fv.setTime(e.ts);
			const r = glyphsMatch(e.glyphs);
			fv.setView("type");
			return r;
		});
	});
	/* the legend's "as of": the record of every cell, as the txt map */
	vsrc.forEach((e) => {
		check("viewsrc@" + e.view + "@" + e.ts, () => {
			if (fv.setView(e.view) !== e.view)
				return "the page has no view " + e.view;
			fv.setTime(e.ts);
			const text = document.getElementById("fv-view-src").textContent;
			fv.setView("type");
			const as = /^as of (.* s):/.exec(text);
			const older = /\(([0-9,]+) from an older one\)/.exec(text);
			const got = (as ? as[1] : "none") + "|" +
				(older ? older[1].replace(/,/g, "") : "0");
			return got === e.want || "got '" + got + "' from '" + text + "'";
		});
	});
	check("view-opened", () => opened === (/[#;]c=(\w+)/.exec(location.hash) ||
		[0, JSON.parse(document.getElementById("fv-data").textContent).views.initial])[1] ||
		"opened with " + opened);
	check("view-slider", () => {
		const names = fv.viewNames();
		if (!names.length)
			return { skip: "the capture has data for no colour view" };
		const max = Number(slider.max);
		for (const name of names) {
			fv.setView(name);
			for (const v of [0, max, max >> 1, 1, Math.round(max * 0.77), max]) {
				moveSlider(v);
				const r = glyphsMatch(fv.viewGlyphsAt(name, fv.time()));
				if (r !== true)
					return name + ", slider " + v + ": " + r;
			}
			/* the legend counts every block on the map once */
			let n = 0, shown = 0;
			document.querySelectorAll("#fv-view-legend td.n").forEach((td) => {
				n += Number(td.textContent.replace(/,/g, ""));
			});
			for (let i = 0; i < fv.nrBlocks; i++)
				shown += !fv.isOffline(i);
			if (n !== shown)
				return name + ": legend counts " + n + " blocks, " + shown + " shown";
		}
		fv.setView("type");
		return cellsMatch(fv.typesAt(fv.time()));
	});
	/* the block details say what the block holds (its census counts) */
	check("view-details", () => {
		if (!fv.viewNames().includes("pollution"))
			return { skip: "the capture has no census" };
		fv.setView("pollution");
		fv.setTime(fv.tEnd);
		let i = 0;
		while (i < fv.nrBlocks && fv.isOffline(i))
			i++;
		fv.select(i);
		const text = document.getElementById("fv-details").textContent;
		fv.select(-1);
		fv.setView("type");
		return /holds[a-z_]+ [0-9,]+/.test(text) || "block " + i + ": " + text;
	});
	/* a steals cell counts events: its details name no snapshot */
	check("steals-details", () => {
		if (!fv.viewNames().includes("steals"))
			return { skip: "the capture has no steals" };
		fv.setView("steals");
		fv.setTime(fv.tEnd);
		let got = null;
		for (let i = 0; i < fv.nrBlocks && !got; i++) {
			if (fv.isOffline(i))
				continue;
			fv.select(i);
			const th = [...document.querySelectorAll("#fv-details th")]
				.filter((h) => h.textContent === "steals");
			const td = th.length > 1 ? th[th.length - 1].nextElementSibling.textContent : "";
			if (/\([1-9][0-9,]*[ ,]/.test(td))
				got = [i, td];
		}
		fv.select(-1);
		fv.setView("type");
		if (!got)
			return { skip: "no block has steals" };
		return / at the last change\)$/.test(got[1]) || "block " + got[0] + ": " + got[1];
	});
	check("slider-replay", () => {
		const max = Number(slider.max);
		for (const v of [0, max, max >> 1, max >> 2, 1, max - 1,
			Math.round(max * 0.77), 0, max]) {
			moveSlider(v);
			const r = cellsMatch(fv.typesAt(fv.time()));
			if (r !== true)
				return "slider " + v + ": " + r;
		}
		return true;
	});
	check("step-buttons", () => {
		if (fv.nrFlips === 0)
			return { skip: "the capture has no flips" };
		document.getElementById("fv-first").click();
		const t0 = fv.time();
		const steps = Math.min(fv.nrFlips, 25);
		for (let k = 0; k < steps; k++) {
			const before = fv.time();
			document.getElementById("fv-next").click();
			if (!(fv.time() > before))
				return "next did not advance at step " + k;
			if (fv.selected() !== fv.lastFlipBlock())
				return "next did not select the flipped block";
			fv.select(-1);	/* the selection ring hides the colour */
			const r = cellsMatch(fv.typesAt(fv.time()));
			if (r !== true)
				return "after next " + k + ": " + r;
		}
		for (let k = 0; k < steps; k++)
			document.getElementById("fv-prev").click();
		fv.select(-1);
		const r = cellsMatch(fv.typesAt(fv.time()));
		if (r !== true)
			return "after stepping back: " + r;
		return fv.typesAt(fv.time()).join("") === fv.typesAt(t0).join("") ||
			"stepping back did not return to the start";
	});
	check("highlight-toggles", () => {
		const ids = ["fv-dim", "fv-mk-steal", "fv-mk-flip", "fv-mk-mig",
			"fv-mk-fail", "fv-mk-check"];
		const flip = (id) => {
			const e = document.getElementById(id);
			e.checked = !e.checked;
			e.dispatchEvent(new Event("change"));
		};
		for (const id of ids) {
			flip(id);
			const r = cellsMatch(fv.typesAt(fv.time()));
			if (r !== true)
				return id + " toggled: " + r;
		}
		ids.forEach(flip);	/* back as they were */
		return cellsMatch(fv.typesAt(fv.time()));
	});
	check("chart-hover", () => {
		const cv = document.querySelector("#fv-charts canvas");
		const r = cv.getBoundingClientRect();
		cv.dispatchEvent(new MouseEvent("mousemove", { bubbles: true,
			clientX: r.left + r.width * 0.5, clientY: r.top + r.height / 2 }));
		const tip = document.getElementById("fv-tip");
		const ok = !tip.hidden && /Pageblocks per type/.test(tip.textContent);
		cv.dispatchEvent(new MouseEvent("mouseleave"));
		return ok || "tooltip: " + (tip.hidden ? "hidden" : tip.textContent) +
			" (canvas at " + [r.left, r.top, r.width, r.height].join(",") + ")";
	});
	check("hover-tooltip", () => {
		const i = fv.nrBlocks >> 1;
		const cv = document.getElementById("fv-map");
		const r = cv.getBoundingClientRect();
		const [x, y] = fv.cellXY(i);
		cv.dispatchEvent(new MouseEvent("mousemove", { bubbles: true,
			clientX: r.left + x + 2, clientY: r.top + y + 2 }));
		const tip = document.getElementById("fv-tip");
		const want = fv.blockPfnText ? fv.blockPfnText(i) : null;
		if (tip.hidden)
			return "tooltip hidden";
		return /pfn: 0x[0-9a-f]+/.test(tip.textContent) &&
			(!want || tip.textContent.includes(want)) || tip.textContent;
	});
	check("click-history", () => {
		const cv = document.getElementById("fv-map");
		const r = cv.getBoundingClientRect();
		let best = -1;
		for (let i = 0; i < fv.nrBlocks; i++)	/* an offline one is a gap */
			if (!fv.isOffline(i) &&
			    fv.histLen(i) > (best < 0 ? 0 : fv.histLen(best)))
				best = i;
		if (best < 0)
			return { skip: "no block has a steal, flip or migration" };
		const [x, y] = fv.cellXY(best);
		cv.dispatchEvent(new MouseEvent("click", { bubbles: true,
			clientX: r.left + x + 2, clientY: r.top + y + 2 }));
		const rows = document.querySelectorAll("#fv-details tr.ev").length;
		fv.select(-1);
		return rows === fv.histLen(best) || rows + " rows, want " + fv.histLen(best);
	});
	check("blame-panel", () => {
		/* the block with the most steals and flips by a known task */
		let best = -1;
		for (let i = 0; i < fv.nrBlocks; i++)
			if (fv.blameLen(i) > (best < 0 ? 0 : fv.blameLen(best)))
				best = i;
		if (best < 0)
			return { skip: "the capture has no steal or flip with its task" };
		fv.select(best);
		const rows = document.querySelectorAll("#fv-details .fv-blame > ul > li");
		const stacks = document.querySelectorAll("#fv-details .fv-stack li.site");
		const who = document.querySelector("#fv-details .fv-who");
		fv.select(-1);
		/* with stacks in the capture, the site frames are marked */
		return (rows.length === fv.blameLen(best) && who &&
			(stacks.length > 0 || !fv.blameStacks()) &&
			/-[0-9]+$/.test(who.textContent)) ||
			rows.length + " rows, want " + fv.blameLen(best) + ", " +
			stacks.length + " marked sites";
	});
	check("busiest-blocks", () => {
		const rows = document.querySelectorAll("#fv-hot tr.blk");
		if (!rows.length)
			return fv.nrFlips ? "no busiest blocks listed" :
				{ skip: "nothing happened to any block" };
		rows[0].dispatchEvent(new MouseEvent("click", { bubbles: true }));
		const b = Number(rows[0].dataset.b);
		const got = fv.selected();
		fv.select(-1);
		return got === b || "clicking the first row selected " + got;
	});
	check("charts-drawn", () => {
		const cvs = document.querySelectorAll("#fv-charts canvas");
		if (cvs.length < 6)
			return cvs.length + " charts";
		for (const cv of cvs) {
			const d = cv.getContext("2d").getImageData(0, 0, cv.width, cv.height).data;
			let ink = 0;
			for (let k = 0; k < d.length; k += 4)
				ink += d[k] < 200;
			if (!ink)
				return "a chart is blank";
		}
		return true;
	});
	/* compaction: the overlay's marks as painted, the timeline's bars */
	cmarks.forEach((e) => {
		check("compact-overlay@" + e.ts, () => {
			if (!fv.compact)
				return "no compaction overlay on the page";
			fv.setTime(e.ts);
			const m = fv.compact.marks(), d = fv.compact.drawn();
			const want = e.migrate + "/" + e.free + "/" + e.fail;
			if (m.migrate + "/" + m.free + "/" + m.fail !== want)
				return "marks " + m.migrate + "/" + m.free + "/" + m.fail +
					" (migrate/free/fail), want " + want;
			if (d.migrate + "/" + d.free + "/" + d.fail !== want)
				return "painted " + d.migrate + "/" + d.free + "/" + d.fail +
					", want " + want;
			/* the cursor of the timeline is at the same time */
			const x = fv.compact.cursorX(), want_x = fv.compact.tToX(e.ts - fv.t0);
			return Math.abs(x - want_x) <= 1 ||
				"timeline cursor at " + x + ", want " + want_x;
		});
	});
	if (cmarks.length)
		check("compact-details", () => {
			const f = fv.compact && fv.compact.failBlock();
			if (!f)
				return cmarks[cmarks.length - 1].fail ?
					"no block with failed migrations on the page" :
					{ skip: "no failed migration in this capture" };
			fv.select(f.block);
			const t = document.getElementById("fv-details").textContent;
			fv.select(-1);
			return t.includes("failed migrations") && t.includes(f.errno) ||
				"block " + f.block + " details lack its failure " + f.errno;
		});
	if (callocs)
		check("compact-timeline", () => {
			if (!fv.compact)
				return "no high-order timeline on the page";
			const a = fv.compact.allocs(), b = fv.compact.bars();
			if (a.ok !== callocs.ok || a.fail !== callocs.fail)
				return "allocations " + a.ok + " ok " + a.fail + " failed, want " +
					callocs.ok + " ok " + callocs.fail + " failed";
			if (b.ok !== b.okBuckets || b.fail !== b.failBuckets)
				return "bars painted " + b.ok + " up " + b.fail + " down, want " +
					b.okBuckets + " " + b.failBuckets;
			return (callocs.ok === 0 || b.ok > 0) && (callocs.fail === 0 || b.fail > 0) ||
				"no bars painted";
		});
	/*
	 * explain: a click on the timeline at a failed allocation selects it,
	 * moves the map there, gives the cause "fragview explain" gives and
	 * outlines as many blocks as it lists
	 */
	cexplain.forEach((e) => {
		check("explain-click@" + e.a, () => {
			const x = fv.explain;
			if (!x)
				return "no explanations on the page";
			const k = [...Array(x.nr).keys()].find((j) => x.alloc(j) === e.a);
			if (k === undefined)
				return "allocation " + e.a + " not on the page";
			fv.setTime(fv.t0);
			x.click(k);
			/* clicks land on whole pixels: any allocation within 2 */
			const sel = x.selected(), tx = fv.compact.tToX;
			if (sel < 0 || Math.abs(tx(x.time(sel)) - tx(x.time(k))) > 2)
				return "the click selected " + sel + ", want " + k;
			if (fv.time() !== fv.t0 + x.time(sel))
				return "the map is at " + fv.time() + ", want " + (fv.t0 + x.time(sel));
			x.select(k);
			const want = x.blocks(k).sort((p, q) => p - q).join(",");
			const got = x.outlined().join(",");
			if (!x.line().includes(": " + e.cause + " "))
				return "the line says " + x.line() + ", want cause " + e.cause;
			if (x.blocks(k).length !== e.blocks)
				return x.blocks(k).length + " blocks listed, want " + e.blocks;
			return got === want || "outlined " + got + ", want " + want;
		});
	});
	{
		/* speed: 100 slider moves across the whole capture */
		const max = Number(slider.max);
		let seed = 12345;
		const t = performance.now();
		for (let k = 0; k < 100; k++) {
			seed = (seed * 1103515245 + 12345) % 2147483648;
			moveSlider(seed % (max + 1));
		}
		lines.push("INFO slider100_ms " + (performance.now() - t).toFixed(1));
		lines.push("INFO page_ready_ms " + readyMs.toFixed(1) +
			" (script init " + fv.loadMs.toFixed(1) + ")");
		lines.push("INFO check_mismatches " + fv.checkMismatches());
		lines.push("INFO blocks " + fv.nrBlocks + " flips " + fv.nrFlips +
			" devicePixelRatio " + window.devicePixelRatio);
	}
	check("no-js-errors", () => window.__fvErrors.length === 0 ||
		window.__fvErrors.join(" | "));
	lines.push("DONE pass=" + pass + " fail=" + fail);
	const pre = document.createElement("pre");
	pre.id = "selftest";
	pre.textContent = lines.join("\n") + "\n";
	document.body.appendChild(pre);
};
