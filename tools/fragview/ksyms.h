/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksyms.h - kernel addresses to "function+0xoffset", from the text of
 * /proc/kallsyms that trace-cmd stores in every capture.
 *
 * Pure code (no I/O): the trace reader hands it the capture's kallsyms
 * section and resolves the return addresses of ftrace:kernel_stack
 * records with it.
 */
#ifndef FRAGVIEW_KSYMS_H
#define FRAGVIEW_KSYMS_H

#include <stddef.h>
#include <stdint.h>

struct ksyms;

/* room for one formatted frame: name, offset and module */
#define KSYM_FRAME_MAX 300

/*
 * Parses "ADDRESS TYPE NAME [MODULE]" lines; lines that are not of that
 * form are skipped, as are symbols that are not text (types t, T, w, W)
 * and zero addresses (kptr_restrict hides them all).  Never NULL.
 */
struct ksyms *ksyms_parse(const char *text, size_t len);
void ksyms_free(struct ksyms *k);

/* Symbols with an address: 0 means addresses cannot be resolved. */
size_t ksyms_count(const struct ksyms *k);

/*
 * Writes "name+0xoff" (or "name+0xoff [module]") for addr, or
 * "0xADDR" when no symbol is at or below it, into buf (always
 * terminated, truncated to size).
 */
void ksyms_format(const struct ksyms *k, uint64_t addr, char *buf, size_t size);

#endif /* FRAGVIEW_KSYMS_H */
