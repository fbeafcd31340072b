/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Source-level debugging for front ends (the TUI's source pane, ui/run.c):
 * what they may ask of source.c without the debugger's internals. */
#ifndef XBOW_SRCVIEW_H
#define XBOW_SRCVIEW_H

#include "dbg/dbg.h"

/* The kernel given on the command line: its debug information is read
 * when first needed. */
void dbg_set_kernel(dbg *d, const char *path);
/* The source file and line of the selected CPU's selected frame (frame,
 * up, down; frame 0 after a stop); false when it has no line
 * information. */
bool dbg_source_position(dbg *d, const char **file, unsigned *line);
/* Line n (1-based) of a source file; NULL if unreadable or past its end. */
const char *dbg_source_line(dbg *d, const char *file, unsigned n);
unsigned dbg_source_nlines(dbg *d, const char *file);
/* Is an enabled code breakpoint set on an address of this line? */
bool dbg_source_breakpoint(dbg *d, const char *file, unsigned line);

#endif
