// SPDX-License-Identifier: GPL-2.0
/*
 * ks-decode: check, through KernelShark's own library, that every mobility
 * event of a capture is shown with symbolic names.
 *
 * For each event of the ABI (tracepoints/README.md) the fields that must be
 * printed by name have to be under a __print_symbolic() in the event's print
 * format, and in the text KernelShark shows (kshark_get_info()) the token
 * after "field=" must be one of that table's names, never a bare number:
 * the name of the record's value when the table is keyed by the plain
 * field.  For the migration events the numbers shown (pfns, order, pass,
 * page counts) must be the record's field values too.
 *
 * With -p PLUGIN the plugin is loaded on the capture first, as KernelShark
 * loads it, so the text checked is what KernelShark shows with it.
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
#include "libkshark-plugin.h"
#include "libkshark-tepdata.h"

#define MAX_SYMBOLIC	6
#define MAX_NUMERIC	6
#define MAX_NAMES	64

struct symbolic_field {
	const char	*field;
	const char	*names[MAX_NAMES];	/* from __print_symbolic() */
	long		values[MAX_NAMES];
	int		n_names;
	bool		keyed;		/* by the plain field: names[] exact */
};

struct abi_event {
	const char		*name;
	const char		*symbolic[MAX_SYMBOLIC];
	const char		*numeric[MAX_NUMERIC];	/* shown as the value */
	const char		*since;		/* absent from captures before */
	const char		*instead;	/* may be recorded instead of it */
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
	/* Left out of patch 11's default recording: migrate_folio_failed. */
	{ .name = "migrate_folio",
	  .symbolic = { "mode", "reason", "src_mt", "dst_mt", "result" },
	  .numeric = { "src_pfn", "dst_pfn", "order", "pass" },
	  .instead = "migrate_folio_failed" },
	{ .name = "pageblock_state",
	  .symbolic = { "zone", "mt" } },
	{ .name = "pageblock_snapshot",
	  .symbolic = { "zone", "phase" }, .since = "series v2" },
	{ .name = "pageblock_census",
	  .symbolic = { "zone", "mt" }, .since = "patch 9" },
	{ .name = "migrate_folio_failed",
	  .symbolic = { "mode", "reason", "src_mt", "dst_mt", "result" },
	  .numeric = { "src_pfn", "dst_pfn", "order", "pass" },
	  .since = "patch 11" },
	{ .name = "migrate_pass",
	  .symbolic = { "stage", "mode", "reason" },
	  .numeric = { "pass", "nr_succeeded", "nr_failed", "nr_retry" },
	  .since = "patch 11" },
};

#define N_ABI	(sizeof(abi) / sizeof(abi[0]))

/* Is event @name of the ABI in the capture? */
static bool recorded(const char *name)
{
	size_t i;

	for (i = 0; i < N_ABI; i++)
		if (!strcmp(abi[i].name, name))
			return abi[i].id >= 0;
	return false;
}

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

static bool is_plain_field(struct tep_print_arg *arg);

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
		sf->keyed = is_plain_field(arg->symbol.field);
		for (sym = arg->symbol.symbols; sym; sym = sym->next) {
			if (sf->n_names == MAX_NAMES)
				break;
			sf->values[sf->n_names] = strtol(sym->value, NULL, 0);
			sf->names[sf->n_names++] = sym->str;
		}
	}
}

/* REC->field, maybe cast: the table is looked up with the field's value. */
static bool is_plain_field(struct tep_print_arg *arg)
{
	while (arg && arg->type == TEP_PRINT_TYPE)
		arg = arg->typecast.item;
	return arg && arg->type == TEP_PRINT_FIELD;
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

/* The name of @val in a table keyed by the plain field, or NULL. */
static const char *name_of(const struct symbolic_field *sf, int64_t val)
{
	int i;

	for (i = 0; i < sf->n_names; i++)
		if (sf->values[i] == val)
			return sf->names[i];
	return NULL;
}

/* Is @tok the record's @field, in decimal or as 0x-hex? */
static bool shows_value(struct kshark_entry *e, const char *field,
			const char *tok, int64_t *val)
{
	char want[32];

	if (kshark_read_event_field_int(e, field, val) < 0)
		return false;
	snprintf(want, sizeof(want), "%llu", (unsigned long long)*val);
	if (!strcmp(tok, want))
		return true;
	snprintf(want, sizeof(want), "0x%llx", (unsigned long long)*val);
	return !strcmp(tok, want);
}

static void check_entry(struct abi_event *ev, struct kshark_entry *e)
{
	char *info = kshark_get_info(e);
	const char *name;
	char tok[128];
	bool bad = false;
	int64_t val;
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
		} else if (sf->keyed &&
			   kshark_read_event_field_int(e, sf->field, &val) >= 0 &&
			   (name = name_of(sf, val)) && strcmp(name, tok)) {
			if (ev->n_bad < 3)
				printf("# %s: %s=%s, but the record has %lld: %s\n",
				       ev->name, sf->field, tok, (long long)val,
				       name);
			bad = true;
		}
	}
	for (i = 0; i < MAX_NUMERIC && ev->numeric[i]; i++) {
		const char *field = ev->numeric[i];

		if (!info || !token_after(info, field, tok, sizeof(tok))) {
			if (ev->n_bad < 3)
				printf("# %s: no \"%s=\" in: %s\n", ev->name,
				       field, info ? info : "(none)");
			bad = true;
		} else if (!shows_value(e, field, tok, &val)) {
			if (ev->n_bad < 3)
				printf("# %s: %s=%s, but the record has %lld\n",
				       ev->name, field, tok, (long long)val);
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
	struct kshark_plugin_list *plugin;
	struct kshark_dpi_list *dpi;
	const char *plugin_file = NULL;
	struct tep_handle *tep;
	ssize_t n, r;
	size_t i;
	int sd, j, failed = 0, present = 0;
	long shown = 0;

	if (argc == 4 && !strcmp(argv[1], "-p")) {
		plugin_file = argv[2];
		argv += 2;
		argc -= 2;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: ks-decode [-p PLUGIN.so] CAPTURE.dat\n");
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
	if (plugin_file) {
		/* As KernelShark does for a plugin given with -p. */
		plugin = kshark_register_plugin(ctx, "mobility", plugin_file);
		dpi = plugin && plugin->process_interface ?
		      kshark_register_plugin_to_stream(stream,
						       plugin->process_interface,
						       true) : NULL;
		if (!dpi || kshark_handle_dpi(stream, dpi,
					      KSHARK_PLUGIN_INIT) <= 0) {
			fprintf(stderr, "ks-decode: %s: plugin not loaded\n",
				plugin_file);
			return 2;
		}
		printf("# plugin %s loaded\n", plugin_file);
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
		if (ev->id < 0 && ev->instead && recorded(ev->instead)) {
			printf("ok - mobility/%s: not recorded, %s instead # SKIP\n",
			       ev->name, ev->instead);
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
