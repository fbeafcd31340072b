/* SPDX-License-Identifier: GPL-2.0-or-later */
/* TUI layouts (which panes, where) and the layout/focus/winheight/zoom
 * commands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/tui.h"

tui *tui_active;

static const char *const pane_names[PANE_COUNT] = {
    [PANE_REGS] = "regs",     [PANE_DISASM] = "asm",    [PANE_CONSOLE] = "console",
    [PANE_BRIDGE] = "bridge", [PANE_RINGS] = "rings",   [PANE_QUEUES] = "queues",
    [PANE_DMA] = "dma",       [PANE_MEMORY] = "memory", [PANE_SRC] = "src",
    [PANE_CMD] = "cmd",
};

#define MAX_ROW_PANES 3
#define MAX_ROWS 4

typedef struct layout_row {
    int weight;               /* see WITH_SOURCE */
    int panes[MAX_ROW_PANES]; /* pane kinds, -1 terminated */
    int widths[MAX_ROW_PANES];
} layout_row;

/* The weight of a row shown only while the pc has a source line, or only
 * while it has none. */
#define WITH_SOURCE(w) (-(w))
#define WITHOUT_SOURCE(w) ((w) + 1000)

typedef struct layout {
    const char *name;
    const char *desc;
    layout_row rows[MAX_ROWS]; /* rows above the command pane; weight 0 ends */
} layout;

static const layout layouts[] = {
    {"debug",
     "registers, disassembly, source (when the pc has a line), console",
     {{3, {PANE_REGS, PANE_DISASM, -1}, {5, 4}},
      {WITH_SOURCE(2), {PANE_SRC, PANE_CONSOLE, -1}, {3, 2}},
      {WITHOUT_SOURCE(2), {PANE_CONSOLE, -1}, {1}},
      {0, {-1}, {0}}}},
    {"net",
     "NIC rings, DMA counter, Bridge windows",
     {{3, {PANE_RINGS, PANE_DMA, -1}, {3, 2}}, {2, {PANE_BRIDGE, -1}, {1}}, {0, {-1}, {0}}}},
    {"full",
     "registers, disassembly, rings, DMA counter, console, Bridge",
     {{3, {PANE_REGS, PANE_DISASM, -1}, {5, 4}},
      {3, {PANE_RINGS, PANE_DMA, -1}, {3, 2}},
      {2, {PANE_CONSOLE, PANE_BRIDGE, -1}, {1, 1}},
      {0, {-1}, {0}}}},
    {"mem",
     "registers, memory, console",
     {{3, {PANE_REGS, PANE_MEMORY, -1}, {5, 5}}, {2, {PANE_CONSOLE, -1}, {1}}, {0, {-1}, {0}}}},
    /* gdb's: the source, the disassembly, or both (with the guest's console) */
    {"src",
     "source, console",
     {{4, {PANE_SRC, -1}, {1}}, {1, {PANE_CONSOLE, -1}, {1}}, {0, {-1}, {0}}}},
    {"asm",
     "disassembly, console",
     {{4, {PANE_DISASM, -1}, {1}}, {1, {PANE_CONSOLE, -1}, {1}}, {0, {-1}, {0}}}},
    {"split",
     "source, disassembly, console",
     {{2, {PANE_SRC, -1}, {1}},
      {2, {PANE_DISASM, -1}, {1}},
      {1, {PANE_CONSOLE, -1}, {1}},
      {0, {-1}, {0}}}},
    {"storage",
     "SCSI request and response queues, DMA counter, console",
     {{3, {PANE_QUEUES, PANE_DMA, -1}, {3, 2}}, {2, {PANE_CONSOLE, -1}, {1}}, {0, {-1}, {0}}}},
};

int tui_layout_find(const char *name)
{
    for (unsigned i = 0; i < ARRAY_SIZE(layouts); i++)
        if (!strcmp(layouts[i].name, name))
            return (int)i;
    return -1;
}

const char *tui_layout_name(int i) { return layouts[i].name; }

int tui_pane_find(const char *name)
{
    for (int i = 0; i < PANE_COUNT; i++)
        if (!strcmp(pane_names[i], name))
            return i;
    if (!strcmp(name, "disasm"))
        return PANE_DISASM;
    if (!strcmp(name, "source"))
        return PANE_SRC;
    if (!strcmp(name, "cmd") || !strcmp(name, "command"))
        return PANE_CMD;
    return -1;
}

static void place(tui *t, int kind, int y, int x, int h, int w)
{
    pane *p = &t->panes[kind];
    p->kind = kind;
    p->name = pane_names[kind];
    p->y = y;
    p->x = x;
    p->h = h;
    p->w = w;
    p->visible = h >= 3 && w >= 8;
    if (p->win)
        delwin(p->win);
    p->win = p->visible ? newwin(h, w, y, x) : NULL;
    if (p->win)
        keypad(p->win, TRUE);
}

/* Recompute every pane's placement for the current layout and screen. */
void tui_layout(tui *t)
{
    for (int i = 0; i < PANE_COUNT; i++) {
        t->panes[i].kind = i;
        t->panes[i].name = pane_names[i];
        t->panes[i].visible = false;
        if (t->panes[i].win) {
            delwin(t->panes[i].win);
            t->panes[i].win = NULL;
        }
    }
    int avail = t->rows - 1; /* status bar on the last line */
    int cmd_h = avail / 4 + t->panes[PANE_CMD].weight_adjust;
    if (cmd_h < 4)
        cmd_h = 4;
    if (cmd_h > avail - 3)
        cmd_h = avail - 3 > 2 ? avail - 3 : 2;
    if (t->zoomed >= 0 && t->zoomed != PANE_CMD) {
        place(t, t->zoomed, 0, 0, avail - cmd_h, t->cols);
        place(t, PANE_CMD, avail - cmd_h, 0, cmd_h, t->cols);
        return;
    }
    if (t->zoomed == PANE_CMD) {
        place(t, PANE_CMD, 0, 0, avail, t->cols);
        return;
    }
    const layout *full = &layouts[t->layout];
    /* The rows shown: a source row only while the pc has a line. */
    layout shown = {full->name, full->desc, {{0, {-1}, {0}}}};
    const layout *l = &shown;
    int nrows = 0, total = 0;
    t->src_shown = tui_src_wanted(t);
    for (int r = 0; r < MAX_ROWS && full->rows[r].weight; r++) {
        int w = full->rows[r].weight;
        if ((w < 0 && !t->src_shown) || (w > 1000 && t->src_shown))
            continue;
        shown.rows[nrows] = full->rows[r];
        shown.rows[nrows++].weight = w < 0 ? -w : w > 1000 ? w - 1000 : w;
    }
    for (int r = 0; r < nrows; r++) {
        int w = l->rows[r].weight;
        for (int k = 0; k < MAX_ROW_PANES && l->rows[r].panes[k] >= 0; k++)
            w += t->panes[l->rows[r].panes[k]].weight_adjust;
        total += w > 1 ? w : 1;
    }
    int space = avail - cmd_h, y = 0;
    for (int r = 0; r < nrows; r++) {
        int w = l->rows[r].weight;
        for (int k = 0; k < MAX_ROW_PANES && l->rows[r].panes[k] >= 0; k++)
            w += t->panes[l->rows[r].panes[k]].weight_adjust;
        if (w < 1)
            w = 1;
        int h = r == nrows - 1 ? space - y : space * w / total;
        int npanes = 0, wsum = 0;
        while (npanes < MAX_ROW_PANES && l->rows[r].panes[npanes] >= 0)
            wsum += l->rows[r].widths[npanes++];
        int x = 0;
        for (int k = 0; k < npanes; k++) {
            int pw = k == npanes - 1 ? t->cols - x : t->cols * l->rows[r].widths[k] / wsum;
            place(t, l->rows[r].panes[k], y, x, h, pw);
            x += pw;
        }
        y += h;
    }
    place(t, PANE_CMD, avail - cmd_h, 0, cmd_h, t->cols);
    if (!t->panes[t->focus].visible)
        t->focus = PANE_CMD;
}

/* ---- commands ---------------------------------------------------------- */

/* The TUI a command acts on, or NULL (and an error) outside it. */
static tui *need_tui(dbg *d, const char *cmd)
{
    if (!tui_active)
        dbg_error(d, "%s: only in the TUI (start xbow on a terminal, or with --tui).", cmd);
    return tui_active;
}

/* layout and focus without a name, or with next or prev: the step through
 * the layouts or panes (+1 or -1, as n - 1 for the % n that follows); 0
 * for a name. */
static int cycle_step(const char *args, int n)
{
    if (!*args || !strcmp(args, "next"))
        return 1;
    return !strcmp(args, "prev") ? n - 1 : 0;
}

static int cmd_layout(dbg *d, const cmd_args *a)
{
    const char *args = a->text[0];
    tui *t = need_tui(d, "layout");
    if (!t)
        return -1;
    int n = (int)ARRAY_SIZE(layouts), step = cycle_step(args, n), i;
    if (step)
        i = (t->layout + step) % n;
    else if ((i = tui_layout_find(args)) < 0) {
        strbuf b;
        sb_init(&b);
        for (unsigned k = 0; k < ARRAY_SIZE(layouts); k++)
            sb_printf(&b, "%s%s", k ? ", " : "", layouts[k].name);
        dbg_error(d, "layout: no layout \"%s\" (have %s).", args, b.s);
        sb_free(&b);
        return -1;
    }
    t->layout = i;
    t->zoomed = -1;
    /* A layout comes with its own pane sizes: winheight starts again. */
    for (int k = 0; k < PANE_COUNT; k++)
        t->panes[k].weight_adjust = 0;
    t->need_layout = true;
    return 0;
}

static int visible_focusable(tui *t, int k) { return t->panes[k].visible; }

static int cmd_focus(dbg *d, const cmd_args *a)
{
    const char *args = a->text[0];
    tui *t = need_tui(d, "focus");
    if (!t)
        return -1;
    int step = cycle_step(args, PANE_COUNT), k;
    if (step) {
        k = t->focus;
        for (int n = 0; n < PANE_COUNT; n++) {
            k = (k + step) % PANE_COUNT;
            if (visible_focusable(t, k))
                break;
        }
    } else if ((k = tui_pane_find(args)) < 0) {
        return dbg_error(d,
                         "focus: no pane \"%s\" (regs, asm, src, console, bridge, rings, "
                         "dma, memory, cmd).",
                         args);
    } else if (!t->panes[k].visible) {
        return dbg_error(d, "focus: pane \"%s\" is not in layout \"%s\".", args,
                         layouts[t->layout].name);
    }
    t->focus = k;
    return 0;
}

/* The height pane p gets with winheight adjustment `adjust` (the others
 * kept), or -1 when a pane shown now would become too small to show. */
static int height_with(tui *t, pane *p, int adjust, const bool *shown)
{
    p->weight_adjust = adjust;
    tui_layout(t);
    for (int i = 0; i < PANE_COUNT; i++)
        if (shown[i] && !t->panes[i].visible)
            return -1;
    return p->h;
}

/* winheight PANE [+|-]LINES: the pane's new height, within what the screen
 * and the layout's other panes allow (said when the request is clamped). */
static int cmd_winheight(dbg *d, const cmd_args *a)
{
    tui *t = need_tui(d, "winheight");
    if (!t)
        return -1;
    const char *name = a->text[0], *rest = a->text[1];
    int k = tui_pane_find(name);
    if (k < 0)
        return dbg_usage_error(d, "winheight", "give a pane");
    pane *p = &t->panes[k];
    if (!p->visible)
        return dbg_error(d, "winheight: pane \"%s\" is not shown in layout \"%s\".", name,
                         layouts[t->layout].name);
    int sign = *rest == '+' ? 1 : *rest == '-' ? -1 : 0;
    uint64_t n;
    if (dbg_parse_count(d, "winheight", sign ? rest + 1 : rest, sign ? 0 : 1, UINT64_MAX, &n))
        return -1;
    int64_t lines = n > (uint64_t)t->rows ? t->rows : (int64_t)n;
    int64_t want = sign ? p->h + sign * lines : lines;
    /* Heights grow with the adjustment: try them all, keep the closest. */
    bool shown[PANE_COUNT];
    for (int i = 0; i < PANE_COUNT; i++)
        shown[i] = t->panes[i].visible;
    int was = p->weight_adjust, best = was, best_h = p->h, lo = -1, hi = -1;
    for (int adj = -4 * t->rows; adj <= 16 * t->rows; adj++) {
        int h = height_with(t, p, adj, shown);
        if (h < 0 && hi >= 0)
            break; /* taller squeezes another pane out: so is anything beyond */
        if (h < 0)
            continue;
        lo = lo < 0 || h < lo ? h : lo;
        hi = h > hi ? h : hi;
        int64_t dist = h > want ? h - want : want - h;
        int64_t best_dist = best_h > want ? best_h - want : want - best_h;
        if (dist < best_dist || (dist == best_dist && abs(adj - was) < abs(best - was))) {
            best = adj;
            best_h = h;
        }
    }
    height_with(t, p, best, shown);
    t->need_layout = true;
    if (want < lo || want > hi)
        dbg_printf(d, "winheight: %s can be %d to %d lines on this screen; it is %d.\n", name, lo,
                   hi, best_h);
    return 0;
}

static int cmd_zoom(dbg *d, const cmd_args *a)
{
    const char *args = a->text[0];
    tui *t = need_tui(d, "zoom");
    if (!t)
        return -1;
    int k = *args ? tui_pane_find(args) : (int)t->focus;
    if (k < 0)
        return dbg_error(d, "zoom: no pane \"%s\".", args);
    t->zoomed = t->zoomed == k ? -1 : k;
    t->need_layout = true;
    return 0;
}

static int cmd_tui_mem(dbg *d, const cmd_args *a)
{
    tui *t = need_tui(d, "tui memory");
    if (!t)
        return -1;
    t->mem_addr = a->num[0];
    t->mem_addr_set = true;
    return 0;
}

#include "ui/tui_layout.cmds.h"

/* Registered in every front end: in the line-mode debugger and in batch
 * mode they say that they need the TUI, instead of being unknown. */
void tui_register_commands(dbg *d)
{
    dbg_register_group(d, "TUI", tui_commands, ARRAY_SIZE(tui_commands));
}
