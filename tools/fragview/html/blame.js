// SPDX-License-Identifier: GPL-2.0
/*
 * blame.js - who stole from and flipped a block, in the block details of
 * the HTML map: the "blame" member of the page data
 * (render_map_html_blame.c), present when the capture has the events'
 * tasks.  Each steal or flip shows its task and call site; its kernel
 * stack unfolds below it, the site frame marked.
 *
 * window.fvBlame(D, ui) -> { section(i) } or null without the data, ui
 * giving esc(s) and secs(t) (t: ns since t0).
 */
"use strict";
window.fvBlame = function (D, ui) {
	const B = D.blame;
	if (!B)
		return null;
	const fn = (frame) => frame.split("+")[0];
	function task(pid) {
		const comm = B.tasks[pid];
		return (comm === undefined ? "<...>" : comm) + "-" + pid;
	}
	function stack(id) {
		const frames = B.stacks[id];
		if (!frames)
			return "<div class=\"hint\">no kernel stack recorded</div>";
		const site = B.site[id];
		return "<details class=\"fv-stack\"><summary>stack" +
			(site >= 0 ? ": " + ui.esc(fn(frames[site])) : "") +
			"</summary><ol>" + frames.map((f, k) =>
				"<li" + (k === site ? " class=\"site\"" : "") + ">" +
				ui.esc(f) + "</li>").join("") + "</ol></details>";
	}
	function row(r) {
		const [t, kind, pid, st, a, b, c] = r;
		const mtn = (x) => D.names.mt[x] || "?";
		const what = kind === D.names.ev.indexOf("flip") ?
			"flip " + mtn(a) + " \u2192 " + mtn(b) + " (" +
				(D.names.flip[c] || "?") + ")" :
			"steal: " + mtn(a) + " from a " + mtn(b) + " block" +
				(c ? ", claimed" : "");
		return "<li><span class=\"fv-who\">" + ui.esc(task(pid)) + "</span> " +
			ui.esc(what) + " at " + ui.esc(ui.secs(t)) + stack(st) + "</li>";
	}
	return {
		section(i) {
			const recs = B.blocks[i];
			if (!recs)
				return "";
			return "<div class=\"fv-blame\"><b>who stole from or flipped it" +
				" (latest " + recs.length + ")</b><ul>" +
				recs.map(row).join("") + "</ul></div>";
		},
	};
};
