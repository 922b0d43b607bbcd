// SPDX-License-Identifier: GPL-2.0
/* render.c - the table of output formats. */
#include <string.h>

#include "render.h"

static const struct renderer renderers[] = {
	{ "ansi", render_map_ansi, NULL,              NULL,             NULL, NULL },
	{ "txt",  render_map_txt,  render_stats_txt,  render_blame_txt, render_compact_txt,
	  render_explain_txt },
	{ "svg",  render_map_svg,  NULL,              NULL,             NULL, NULL },
	{ "html", render_map_html, NULL,              NULL,             NULL, NULL },
	{ "csv",  NULL,            render_stats_csv,  render_blame_csv, render_compact_csv, NULL },
	{ "json", NULL,            render_stats_json, render_blame_json, render_compact_json,
	  render_explain_json },
};

#define NR_RENDERERS (sizeof(renderers) / sizeof(renderers[0]))

const struct renderer *renderer_find(const char *name)
{
	for (size_t i = 0; i < NR_RENDERERS; i++)
		if (!strcmp(renderers[i].name, name))
			return &renderers[i];
	return NULL;
}

const struct renderer *renderer_at(size_t i)
{
	return i < NR_RENDERERS ? &renderers[i] : NULL;
}

bool renderer_does(const struct renderer *r, enum render_kind kind)
{
	switch (kind) {
	case RENDER_MAP:
		return r->map;
	case RENDER_STATS:
		return r->stats;
	case RENDER_BLAME:
		return r->blame;
	case RENDER_COMPACT:
		return r->compact;
	case RENDER_EXPLAIN:
		return r->explain;
	case RENDER_NR:
		break;
	}
	return false;
}

const char *renderer_names(enum render_kind kind)
{
	static char buf[RENDER_NR][64];
	char *b = buf[kind];

	if (b[0])
		return b;
	for (size_t i = 0; i < NR_RENDERERS; i++) {
		if (!renderer_does(&renderers[i], kind))
			continue;
		if (b[0])
			strcat(b, "|");
		strcat(b, renderers[i].name);
	}
	return b;
}
