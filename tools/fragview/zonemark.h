/* SPDX-License-Identifier: GPL-2.0 */
/*
 * zonemark.h - the zone lines the recorder writes to trace_marker.
 *
 * No event of the kernel's carries a zone's watermarks, so the recorder
 * (qemu/guest/lib.sh, fv_zone_marks) copies /proc/zoneinfo's figures of
 * every populated zone into the trace as ftrace:print records, one a
 * zone, each alongside a snapshot:
 *
 *   fragview_zone: node=0 zone=DMA32 free=1234 min=90 low=112 high=134 boost=0 managed=250000
 *
 * Keys may come in any order and unknown keys are skipped, so that the
 * line can grow; node, zone, min, low and high are required.
 */
#ifndef FRAGVIEW_ZONEMARK_H
#define FRAGVIEW_ZONEMARK_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"

#define FV_ZONEMARK_PREFIX "fragview_zone:"

/*
 * Parse one trace_marker text of len bytes (not NUL-terminated; a
 * trailing newline is fine).  Returns true and fills *w for a complete
 * zone line; false for any other text, a line with an unknown zone name
 * or a malformed number.  Counts above 2^32 - 1 saturate.
 */
bool fv_zonemark_parse(const char *text, size_t len, struct fv_wmark *w);

#endif /* FRAGVIEW_ZONEMARK_H */
