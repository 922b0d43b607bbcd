// SPDX-License-Identifier: GPL-2.0
/*
 * ks-decode: check, through KernelShark's own library, that every mobility
 * event of a capture is shown with symbolic names.
 *
 * For each event of the ABI (tracepoints/README.md) the fields that must be
 * printed by name have to be under a __print_symbolic() in the event's print
 * format, and in the text KernelShark shows (kshark_get_info()) the token
 * after "field=" must be one of that table's names, never a bare number.
 *
 * Prints one "ok"/"not ok" line per event (an event with no entries is a
 * "# SKIP", the capture as a whole must have some) and every info line as
 * "info <event>: <text>" so the caller can look for particular names.
 * Exit: 0 all decoded, 1 some check failed, 2 capture unreadable.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event-parse.h"
#include "libkshark.h"
#include "libkshark-tepdata.h"

#define MAX_SYMBOLIC	6
#define MAX_NAMES	64

struct symbolic_field {
	const char	*field;
	const char	*names[MAX_NAMES];	/* from __print_symbolic() */
	int		n_names;
};

struct abi_event {
	const char		*name;
	const char		*symbolic[MAX_SYMBOLIC];
	const char		*since;		/* absent from captures before */
	struct tep_event	*event;
	int			id;
	struct symbolic_field	sym[MAX_SYMBOLIC];
	long			n_entries;
	long			n_bad;
};

static struct abi_event abi[] = {
	{ .name = "pageblock_steal",
	  .symbolic = { "zone", "alloc_mt", "block_mt" } },
	{ .name = "pageblock_flip",
	  .symbolic = { "zone", "old_mt", "new_mt", "reason" } },
	{ .name = "pcp_drain",
	  .symbolic = { "zone", "reason" } },
	{ .name = "migrate_folio",
	  .symbolic = { "mode", "reason", "src_mt", "dst_mt", "result" } },
	{ .name = "pageblock_state",
	  .symbolic = { "zone", "mt" } },
	{ .name = "pageblock_snapshot",
	  .symbolic = { "zone", "phase" }, .since = "series v2" },
	{ .name = "pageblock_census",
	  .symbolic = { "zone", "mt" }, .since = "patch 9" },
};

#define N_ABI	(sizeof(abi) / sizeof(abi[0]))

/* The field a print argument reads, looking through casts and arithmetic. */
static const char *arg_field(struct tep_print_arg *arg)
{
	const char *name;

	if (!arg)
		return NULL;
	switch (arg->type) {
	case TEP_PRINT_FIELD:
		return arg->field.name;
	case TEP_PRINT_TYPE:
		return arg_field(arg->typecast.item);
	case TEP_PRINT_OP:
		name = arg_field(arg->op.left);
		return name ? name : arg_field(arg->op.right);
	default:
		return NULL;
	}
}

static void collect_symbols(struct tep_print_arg *arg,
			    struct symbolic_field *sf)
{
	struct tep_print_flag_sym *sym;
	const char *name;

	for (; arg; arg = arg->next) {
		if (arg->type == TEP_PRINT_TYPE) {
			collect_symbols(arg->typecast.item, sf);
			continue;
		}
		if (arg->type == TEP_PRINT_OP) {
			collect_symbols(arg->op.left, sf);
			collect_symbols(arg->op.right, sf);
			continue;
		}
		if (arg->type != TEP_PRINT_SYMBOL)
			continue;
		name = arg_field(arg->symbol.field);
		if (!name || strcmp(name, sf->field))
			continue;
		for (sym = arg->symbol.symbols; sym; sym = sym->next)
			if (sf->n_names < MAX_NAMES)
				sf->names[sf->n_names++] = sym->str;
	}
}

/* Copy the token after "field=" in @info into @tok; false if absent. */
static bool token_after(const char *info, const char *field, char *tok,
			size_t len)
{
	size_t flen = strlen(field), n = 0;
	const char *p = info;

	while ((p = strstr(p, field))) {
		bool starts = p == info || isspace((unsigned char)p[-1]);

		if (starts && p[flen] == '=') {
			p += flen + 1;
			while (p[n] && !isspace((unsigned char)p[n]) &&
			       p[n] != ',' && n + 1 < len)
				n++;
			memcpy(tok, p, n);
			tok[n] = '\0';
			return true;
		}
		p += flen;
	}
	return false;
}

static bool is_name(const struct symbolic_field *sf, const char *tok)
{
	int i;

	for (i = 0; i < sf->n_names; i++)
		if (!strcmp(sf->names[i], tok))
			return true;
	return false;
}

static void check_entry(struct abi_event *ev, struct kshark_entry *e)
{
	char *info = kshark_get_info(e);
	char tok[128];
	bool bad = false;
	int i;

	ev->n_entries++;
	printf("info %s: %s\n", ev->name, info ? info : "(none)");
	for (i = 0; i < MAX_SYMBOLIC && ev->symbolic[i]; i++) {
		struct symbolic_field *sf = &ev->sym[i];

		if (!sf->n_names)
			continue;	/* reported once per event */
		if (!info || !token_after(info, sf->field, tok, sizeof(tok))) {
			if (ev->n_bad < 3)
				printf("# %s: no \"%s=\" in: %s\n", ev->name,
				       sf->field, info ? info : "(none)");
			bad = true;
		} else if (!is_name(sf, tok)) {
			if (ev->n_bad < 3)
				printf("# %s: %s=%s is not a name\n", ev->name,
				       sf->field, tok);
			bad = true;
		}
	}
	ev->n_bad += bad;
	free(info);
}

int main(int argc, char **argv)
{
	struct kshark_context *ctx = NULL;
	struct kshark_data_stream *stream;
	struct kshark_entry **rows = NULL;
	struct tep_handle *tep;
	ssize_t n, r;
	size_t i;
	int sd, j, failed = 0, present = 0;
	long shown = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: ks-decode CAPTURE.dat\n");
		return 2;
	}
	if (!kshark_instance(&ctx)) {
		fprintf(stderr, "ks-decode: cannot create a kshark context\n");
		return 2;
	}
	sd = kshark_open(ctx, argv[1]);
	stream = sd >= 0 ? kshark_get_data_stream(ctx, sd) : NULL;
	if (!stream || !kshark_is_tep(stream)) {
		fprintf(stderr, "ks-decode: %s: not a readable trace.dat\n",
			argv[1]);
		return 2;
	}
	tep = kshark_get_tep(stream);

	for (i = 0; i < N_ABI; i++) {
		char full[64];

		snprintf(full, sizeof(full), "mobility/%s", abi[i].name);
		abi[i].id = kshark_find_event_id(stream, full);
		abi[i].event = tep_find_event_by_name(tep, "mobility",
						      abi[i].name);
		if (abi[i].id < 0 || !abi[i].event) {
			abi[i].id = -1;
			continue;
		}
		present++;
		for (j = 0; j < MAX_SYMBOLIC && abi[i].symbolic[j]; j++) {
			abi[i].sym[j].field = abi[i].symbolic[j];
			collect_symbols(abi[i].event->print_fmt.args,
					&abi[i].sym[j]);
		}
	}
	if (!present) {
		fprintf(stderr, "ks-decode: %s: no mobility events\n", argv[1]);
		return 2;
	}

	n = kshark_load_entries(ctx, sd, &rows);
	for (r = 0; r < n; r++) {
		for (i = 0; i < N_ABI; i++)
			if (abi[i].id >= 0 && rows[r]->event_id == abi[i].id)
				check_entry(&abi[i], rows[r]);
		free(rows[r]);
	}
	free(rows);

	for (i = 0; i < N_ABI; i++) {
		struct abi_event *ev = &abi[i];
		bool ok = ev->id >= 0 && !ev->n_bad;

		if (ev->id < 0 && ev->since) {
			printf("ok - mobility/%s: not in this capture (before %s) # SKIP\n",
			       ev->name, ev->since);
			continue;
		}
		if (ev->id < 0) {
			printf("not ok - mobility/%s: event format missing\n",
			       ev->name);
			failed++;
			continue;
		}
		for (j = 0; j < MAX_SYMBOLIC && ev->symbolic[j]; j++) {
			if (ev->sym[j].n_names)
				continue;
			printf("# mobility/%s: %s has no __print_symbolic()\n",
			       ev->name, ev->symbolic[j]);
			ok = false;
		}
		shown += ev->n_entries;
		if (ok && !ev->n_entries) {
			/* Nothing to judge: a skip, never a pass. */
			printf("ok - mobility/%s: no entries # SKIP\n",
			       ev->name);
			continue;
		}
		printf("%s - mobility/%s: %ld shown, %ld with a raw value\n",
		       ok ? "ok" : "not ok", ev->name, ev->n_entries,
		       ev->n_bad);
		failed += !ok;
	}
	if (!shown) {
		printf("not ok - no mobility event entries at all\n");
		failed++;
	}
	kshark_close(ctx, sd);
	kshark_free(ctx);
	return failed ? 1 : 0;
}
