/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The TUI's source pane: the file of the selected CPU's pc around its
 * line, the line marked (>) and highlighted, lines with a breakpoint
 * marked (*).  Shown by layout src and split, and by the debug layout
 * while the pc has a source line (tui_layout.c). */
#include <stdio.h>
#include <string.h>

#include "dbg/srcview.h"
#include "ui/tui.h"

bool tui_src_wanted(tui *t)
{
    const char *file;
    unsigned line;
    return t->d->m && dbg_source_position(t->d, &file, &line);
}

void tui_draw_src(tui *t, pane *p)
{
    const char *file;
    unsigned line;
    if (!dbg_source_position(t->d, &file, &line)) {
        tui_frame(t, p, "source");
        tui_put(p, 0, 0, "(no source line for the pc: no debug information here)", tui_attr(C_DIM));
        return;
    }
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    char title[160];
    snprintf(title, sizeof title, "%s:%u", base, line);
    tui_frame(t, p, title);
    unsigned n = dbg_source_nlines(t->d, file);
    if (!n) {
        char msg[300];
        snprintf(msg, sizeof msg, "%s: not found (see \"directory\")", file);
        tui_put(p, 0, 0, msg, tui_attr(C_DIM));
        return;
    }
    int rows = p->h - 2;
    /* the pc's line a third of the way down, as in the disassembly pane */
    long first = (long)line - rows / 3 + p->scroll;
    if (first > (long)n - rows + 1)
        first = (long)n - rows + 1;
    if (first < 1)
        first = 1;
    int width = p->w - 2;
    for (int r = 0; r < rows && first + r <= (long)n; r++) {
        unsigned ln = (unsigned)(first + r);
        bool cur = ln == line, bp = dbg_source_breakpoint(t->d, file, ln);
        const char *text = dbg_source_line(t->d, file, ln);
        char buf[1024];
        snprintf(buf, sizeof buf, "%c%c%4u %s", bp ? '*' : ' ', cur ? '>' : ' ', ln,
                 text ? text : "");
        if (cur) {
            char pad[1100];
            snprintf(pad, sizeof pad, "%-*.*s", width < 1000 ? width : 1000,
                     width < 1000 ? width : 1000, buf);
            tui_put(p, r, 0, pad, tui_attr(C_CURRENT));
        } else {
            tui_put(p, r, 0, buf, tui_attr(bp ? C_BREAK : C_NORMAL));
        }
    }
}
