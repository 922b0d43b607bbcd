/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pager.h - long text on a terminal goes through a pager, as git's does:
 * FRAGVIEW_PAGER, else PAGER, else less (with LESS=FRX unless LESS is
 * set: it quits when the text fits one screen, passes colours, and
 * leaves the text on the screen).  An empty pager or "cat" means none.
 */
#ifndef FRAGVIEW_PAGER_H
#define FRAGVIEW_PAGER_H

#include <stdbool.h>

/* --no-pager: never start one */
extern bool pager_off;

/*
 * Whether standard output is a terminal, as it was before any pager
 * took it over (the colour and the map width are decided by that).
 */
bool stdout_is_tty(void);

/* The terminal's columns (COLUMNS wins), as stdout_is_tty(); 80 when unknown. */
int term_columns(void);

/*
 * Sends the rest of standard output through the pager, if it is a
 * terminal and no --no-pager; fragview waits for the pager at exit.
 */
void setup_pager(void);

#endif /* FRAGVIEW_PAGER_H */
