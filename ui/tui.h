/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ncurses TUI: panes around the same command language as the CLI. */
#ifndef XBOW_TUI_H
#define XBOW_TUI_H

#include <curses.h>

#include "core/strbuf.h"
#include "dbg/dbg.h"

enum pane_kind {
    PANE_REGS,
    PANE_DISASM,
    PANE_CONSOLE,
    PANE_BRIDGE,
    PANE_RINGS,
    PANE_QUEUES,
    PANE_DMA,
    PANE_MEMORY,
    PANE_SRC,
    PANE_CMD,
    PANE_COUNT
};

typedef struct pane {
    enum pane_kind kind;
    const char *name;
    WINDOW *win;
    int y, x, h, w; /* placement (with border) */
    bool visible;
    int scroll;        /* lines scrolled back/forward by the user */
    int weight_adjust; /* winheight adjustments */
} pane;

/* A line of text with an attribute per line (whole-line colouring is
 * enough for every pane but the registers, which draw themselves). */
/* The colours (ncurses colour pairs, through tui_attr). */
/* clang-format off */
enum tui_color {
    C_NORMAL = 0, C_TITLE, C_FOCUS, C_CHANGED, C_CURRENT, C_BREAK, C_STATUS, C_ERROR, C_DIM
};
/* clang-format on */

typedef struct tui_line {
    char *text;
    enum tui_color attr;
} tui_line;

typedef struct tui_text {
    tui_line *lines;
    unsigned n, cap, max; /* max > 0: keep at most max lines (scrollback) */
    bool partial;         /* last line not terminated yet */
} tui_text;

void tt_init(tui_text *t, unsigned max);
void tt_free(tui_text *t);
void tt_clear(tui_text *t);
/* Append text (may contain newlines; continues a partial last line). */
void tt_append(tui_text *t, const char *s, int attr);
void tui_addclip(WINDOW *w, int y, int x, const char *s, int width);
void tt_append_sb(tui_text *t, const strbuf *b, int attr);

/* The rings pane lists the tx and rx rings of every NIC, each in a window
 * of its entries that follows the device's position until the user
 * scrolls it (then it stays where it was put; Home follows again). */
#define TUI_MAX_RINGS 16
typedef struct ring_window {
    bool pinned; /* scrolled by the user: starts at `first` */
    int first;   /* first entry listed at the last draw */
    int rows;    /* entries listed at the last draw */
} ring_window;

typedef struct tui {
    dbg *d;
    pane panes[PANE_COUNT];
    int layout;           /* index into the layout table */
    enum pane_kind focus; /* the pane with the focus */
    int zoomed;           /* pane kind zoomed to full screen, or -1 */
    bool quit, running, help, colors, need_layout;
    bool src_shown; /* the layout shows the source pane (pc had a line) */
    int rows, cols;
    tui_text out;     /* command output scrollback */
    tui_text console; /* guest serial console */
    int console_tap;
    uint64_t mem_addr; /* memory pane address (virtual) */
    bool mem_addr_set;
    /* Registers at the last stop, to highlight changes. */
    uint64_t prev_gpr[32], prev_pc, prev_hi, prev_lo, prev_cp0[8];
    bool prev_valid;
    /* Status bar: instructions per second while running. */
    uint64_t last_insns;
    double last_wall, ips;
    double last_refresh;
    /* DMA counter history (per-word ops per second), newest last. */
    double dma_hist[64];
    unsigned dma_hist_n;
    uint64_t dma_last_words, dma_last_bulk;
    double dma_last_t;
    double dma_word_rate, dma_bulk_rate;
    /* The rings pane: what it saw at the last stop (its own, not the ring
     * command's), its windows and the ring the keys scroll. */
    view_memo ring_memo;
    ring_window rings[TUI_MAX_RINGS];
    int ring_sel;
    int drawing; /* the pane being drawn (PANE_RINGS or PANE_QUEUES), else -1 */
} tui;

int ui_tui(dbg *d);

/* ui/tui_panes.c */
void tui_draw_pane(tui *t, pane *p);
/* A pane's border and title; text at an inner row, clipped. */
void tui_frame(tui *t, pane *p, const char *title);
void tui_put(pane *p, int y, int x, const char *s, int attr);
/* ui/tui_src.c: the source pane; does the pc have a source line? */
void tui_draw_src(tui *t, pane *p);
bool tui_src_wanted(tui *t);
void tui_remember_regs(tui *t);
double tui_now(void);
void tui_sample_dma(tui *t);
/* A key for the focused pane (scrolling, the rings pane's ring choice);
 * false when the pane has no use for it. */
bool tui_pane_key(tui *t, int ch);
/* ui/tui_layout.c */
void tui_layout(tui *t);
int tui_layout_find(const char *name);
const char *tui_layout_name(int i);
int tui_pane_find(const char *name);
void tui_register_commands(dbg *d);
extern tui *tui_active;

int tui_attr(int c);

#endif
