/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What each TUI pane shows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ui/tui.h"

double tui_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- text buffers ------------------------------------------------------ */

void tt_init(tui_text *t, unsigned max)
{
    memset(t, 0, sizeof *t);
    t->max = max;
}

void tt_clear(tui_text *t)
{
    for (unsigned i = 0; i < t->n; i++)
        free(t->lines[i].text);
    t->n = 0;
    t->partial = false;
}

void tt_free(tui_text *t)
{
    tt_clear(t);
    free(t->lines);
    t->lines = NULL;
    t->cap = 0;
}

static void tt_push(tui_text *t, const char *s, size_t n, int attr)
{
    if (t->max && t->n == t->max) {
        /* Drop the oldest quarter at once: a long command's output costs
         * a constant time per line, not a move of the whole scrollback. */
        unsigned drop = t->max / 4 ? t->max / 4 : 1;
        for (unsigned i = 0; i < drop; i++)
            free(t->lines[i].text);
        memmove(t->lines, t->lines + drop, (t->n - drop) * sizeof *t->lines);
        t->n -= drop;
    }
    if (t->n == t->cap) {
        unsigned cap = t->cap ? t->cap * 2 : 64;
        t->lines = xrealloc(t->lines, cap * sizeof *t->lines);
        t->cap = cap;
    }
    char *text = xmalloc(n + 1);
    memcpy(text, s, n);
    text[n] = 0;
    t->lines[t->n].text = text;
    t->lines[t->n].attr = attr;
    t->n++;
}

static void tt_extend_last(tui_text *t, const char *s, size_t n)
{
    tui_line *l = &t->lines[t->n - 1];
    size_t old = strlen(l->text);
    char *nt = xrealloc(l->text, old + n + 1);
    memcpy(nt + old, s, n);
    nt[old + n] = 0;
    l->text = nt;
}

void tt_append(tui_text *t, const char *s, int attr)
{
    while (*s) {
        size_t n = strcspn(s, "\n");
        if (t->partial && t->n)
            tt_extend_last(t, s, n);
        else
            tt_push(t, s, n, attr);
        t->partial = s[n] != '\n';
        s += n + (s[n] == '\n');
    }
}

void tt_append_sb(tui_text *t, const strbuf *b, int attr)
{
    if (b->s)
        tt_append(t, b->s, attr);
}

/* ---- drawing helpers ---------------------------------------------------- */

int tui_attr(int c)
{
    tui *t = tui_active;
    bool col = t && t->colors;
    switch (c) {
    case C_TITLE: return A_BOLD;
    case C_FOCUS: return A_BOLD | (col ? COLOR_PAIR(1) : A_REVERSE);
    case C_CHANGED: return col ? COLOR_PAIR(2) | A_BOLD : A_BOLD | A_UNDERLINE;
    case C_CURRENT: return A_REVERSE;
    case C_BREAK: return col ? COLOR_PAIR(3) | A_BOLD : A_BOLD;
    case C_STATUS: return A_REVERSE;
    case C_ERROR: return col ? COLOR_PAIR(3) : A_BOLD;
    case C_DIM: return col ? COLOR_PAIR(4) : A_NORMAL;
    default: return A_NORMAL;
    }
}

static void frame(tui *t, pane *p, const char *title)
{
    WINDOW *w = p->win;
    werase(w);
    box(w, 0, 0);
    int a = tui_attr(t->focus == p->kind ? C_FOCUS : C_TITLE);
    wattron(w, a);
    mvwprintw(w, 0, 2, " %.*s ", p->w - 6 > 0 ? p->w - 6 : 0, title);
    wattroff(w, a);
}

/* Print s at (y, x) of w in at most width columns: tabs expanded to
 * 8-column stops (counted from the start of s), other control characters
 * shown as '.', so that no text ever reaches past its pane's border. */
void tui_addclip(WINDOW *w, int y, int x, const char *s, int width)
{
    char buf[1024];
    int n = 0;
    if (width > (int)sizeof buf - 1)
        width = (int)sizeof buf - 1;
    for (; *s && n < width; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\t') {
            do
                buf[n++] = ' ';
            while (n % 8 && n < width);
        } else {
            buf[n++] = c < 0x20 || c == 0x7f ? '.' : (char)c;
        }
    }
    buf[n] = 0;
    mvwaddnstr(w, y, x, buf, width);
}

/* Print s clipped to the pane's inner width at inner row y. */
static void put(pane *p, int y, int x, const char *s, int attr)
{
    int inner_w = p->w - 2;
    if (y < 0 || y >= p->h - 2 || x >= inner_w)
        return;
    wattron(p->win, attr);
    tui_addclip(p->win, y + 1, x + 1, s, inner_w - x);
    wattroff(p->win, attr);
}

/* Draw a tui_text in a pane: follow the end unless scrolled back. */
static void draw_text(pane *p, const tui_text *tx, bool follow_end)
{
    int rows = p->h - 2;
    int first;
    if (follow_end) {
        first = (int)tx->n - rows - p->scroll;
        if (first < 0)
            first = 0;
    } else {
        first = p->scroll;
        if (first > (int)tx->n - 1)
            first = tx->n ? (int)tx->n - 1 : 0;
    }
    for (int r = 0; r < rows && first + r < (int)tx->n; r++)
        put(p, r, 0, tx->lines[first + r].text, tui_attr(tx->lines[first + r].attr));
}

static void draw_sb(pane *p, const strbuf *b)
{
    tui_text tx;
    tt_init(&tx, 0);
    tt_append_sb(&tx, b, C_NORMAL);
    draw_text(p, &tx, false);
    tt_free(&tx);
}

/* ---- registers ---------------------------------------------------------- */

/* The registers in the order a driver's developer reads them: where it
 * is (pc), its stack and return address, results and arguments, then the
 * rest; zero is left out (always 0), hi and lo come last. */
static const int gpr_order[] = {29, 31, 2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 28, 30, 1,  26, 27};
enum { REG_PC = 32, REG_HI, REG_LO };
/* CP0 registers shown (32-bit ones with 8 digits). */
static const struct {
    unsigned n;
    int digits;
} cp0_shown[] = {{12, 8}, {13, 8}, {14, 16}, {8, 16}, {9, 8}, {11, 8}, {10, 16}};

void tui_remember_regs(tui *t)
{
    cpu *c = dbg_cpu(t->d);
    if (!c)
        return;
    for (unsigned i = 0; i < 32; i++)
        t->prev_gpr[i] = cpu_gpr(c, i);
    t->prev_pc = cpu_pc(c);
    t->prev_hi = cpu_hi(c);
    t->prev_lo = cpu_lo(c);
    for (unsigned i = 0; i < ARRAY_SIZE(cp0_shown); i++)
        t->prev_cp0[i] = cpu_cp0(c, cp0_shown[i].n);
    t->prev_valid = true;
}

/* One register as the pane shows it. */
typedef struct reg_cell {
    char text[40];
    bool changed;
} reg_cell;

static void reg_value(tui *t, cpu *c, int r, reg_cell *cell)
{
    const char *name;
    uint64_t v, prev;
    if (r == REG_PC) {
        name = "pc", v = cpu_pc(c), prev = t->prev_pc;
    } else if (r == REG_HI) {
        name = "hi", v = cpu_hi(c), prev = t->prev_hi;
    } else if (r == REG_LO) {
        name = "lo", v = cpu_lo(c), prev = t->prev_lo;
    } else {
        name = cpu_gpr_names[r], v = cpu_gpr(c, (unsigned)r), prev = t->prev_gpr[r];
    }
    snprintf(cell->text, sizeof cell->text, "%-2s %016llx", name, (unsigned long long)v);
    cell->changed = t->prev_valid && v != prev;
}

/* The lines of the registers pane for an inner width: the general
 * registers in as many columns as fit, the CP0 registers flowed after
 * them, then Status and Cause decoded.  Each line is a row of cells. */
#define REG_MAX_LINES 64
#define REG_MAX_CELLS 8
typedef struct reg_line {
    reg_cell cell[REG_MAX_CELLS];
    int x[REG_MAX_CELLS];
    int n;
    enum tui_color attr;
    char text[200]; /* a line of text instead (n == 0) */
} reg_line;

static int reg_lines(tui *t, cpu *c, int inner, reg_line *lines)
{
    int nl = 0;
    /* 19 columns a register, a space between. */
    int cols = (inner + 1) / 20;
    if (cols < 1)
        cols = 1;
    if (cols > REG_MAX_CELLS)
        cols = REG_MAX_CELLS;
    int colw = cols > 1 ? inner / cols : 20;
    if (colw > 22)
        colw = 22;
    int order[ARRAY_SIZE(gpr_order) + 3], n = 0;
    order[n++] = REG_PC;
    for (unsigned i = 0; i < ARRAY_SIZE(gpr_order); i++)
        order[n++] = gpr_order[i];
    order[n++] = REG_HI;
    order[n++] = REG_LO;
    for (int i = 0; i < n; i++) {
        if (i % cols == 0)
            lines[nl++] = (reg_line){.n = 0, .attr = C_NORMAL};
        reg_line *l = &lines[nl - 1];
        reg_value(t, c, order[i], &l->cell[l->n]);
        l->x[l->n++] = (i % cols) * colw;
    }
    /* CP0: as many to a line as fit, two spaces apart. */
    int x = inner;
    for (unsigned i = 0; i < ARRAY_SIZE(cp0_shown); i++) {
        reg_cell cell;
        uint64_t v = cpu_cp0(c, cp0_shown[i].n);
        snprintf(cell.text, sizeof cell.text, "%s %0*llx", cpu_cp0_names[cp0_shown[i].n],
                 cp0_shown[i].digits, (unsigned long long)v);
        cell.changed = t->prev_valid && v != t->prev_cp0[i];
        int w = (int)strlen(cell.text);
        if (x > 0 && (x + 2 + w > inner || lines[nl - 1].n == REG_MAX_CELLS)) {
            lines[nl++] = (reg_line){.n = 0, .attr = C_NORMAL};
            x = 0;
        } else if (x > 0) {
            x += 2;
        }
        reg_line *l = &lines[nl - 1];
        l->cell[l->n] = cell;
        l->x[l->n++] = x;
        x += w;
    }
    for (int k = 0; k < 2; k++) {
        strbuf b;
        sb_init(&b);
        if (k == 0)
            cpu_decode_status(cpu_cp0(c, 12), &b);
        else
            cpu_decode_cause(cpu_cp0(c, 13), &b);
        reg_line *l = &lines[nl++];
        l->n = 0;
        l->attr = C_DIM;
        snprintf(l->text, sizeof l->text, "%s", b.s ? b.s : "");
        sb_free(&b);
    }
    return nl;
}

static void draw_regs(tui *t, pane *p)
{
    cpu *c = dbg_cpu(t->d);
    reg_line lines[REG_MAX_LINES];
    int rows = p->h - 2, n = c ? reg_lines(t, c, p->w - 2, lines) : 0;
    if (p->scroll > n - rows)
        p->scroll = n - rows > 0 ? n - rows : 0;
    char title[64];
    if (n > rows)
        snprintf(title, sizeof title, "cpu%d registers (lines %d-%d of %d)", t->d->cur_cpu,
                 p->scroll + 1, p->scroll + rows, n);
    else
        snprintf(title, sizeof title, "cpu%d registers", t->d->cur_cpu);
    frame(t, p, title);
    for (int r = 0; r < rows && p->scroll + r < n; r++) {
        const reg_line *l = &lines[p->scroll + r];
        if (!l->n)
            put(p, r, 0, l->text, tui_attr(l->attr));
        for (int k = 0; k < l->n; k++)
            put(p, r, l->x[k], l->cell[k].text, tui_attr(l->cell[k].changed ? C_CHANGED : l->attr));
    }
}

/* ---- disassembly ---------------------------------------------------------- */

static void draw_disasm(tui *t, pane *p)
{
    cpu *c = dbg_cpu(t->d);
    if (!c) {
        frame(t, p, "disassembly");
        return;
    }
    uint64_t pc = cpu_pc(c);
    int rows = p->h - 2;
    /* Narrow panes show the low 32 bits of addresses; the title has the rest. */
    bool narrow = p->w - 2 < 64;
    char title[64];
    if (narrow)
        snprintf(title, sizeof title, "disassembly %08llx........", (unsigned long long)(pc >> 32));
    else
        snprintf(title, sizeof title, "disassembly");
    frame(t, p, title);
    uint64_t start = pc - 4ull * (uint64_t)(rows / 3) + 4ull * (uint64_t)(int64_t)p->scroll;
    int r = 0;
    for (uint64_t a = start; r < rows; a += 4) {
        uint64_t off;
        const symbol *s = symtab_lookup_addr(&t->d->m->syms, a, &off);
        char line[256], dis[128];
        if (s && off == 0 && a != start) {
            snprintf(line, sizeof line, "<%s>:", s->name);
            put(p, r++, 0, line, tui_attr(C_TITLE));
            if (r >= rows)
                break;
        }
        uint8_t b[4];
        bool bp = dbg_breakpoint_at(t->d, a);
        char mark0 = bp ? '*' : ' ', mark1 = a == pc ? '>' : ' ';
        if (cpu_read_virt(c, a, b, 4) != 4) {
            snprintf(dis, sizeof dis, "<unmapped>");
        } else {
            cpu_disasm(a, (uint32_t)load_be(b, 4), &t->d->m->syms, dis, sizeof dis);
        }
        if (narrow)
            snprintf(line, sizeof line, "%c%c%08llx  %s", mark0, mark1,
                     (unsigned long long)(a & 0xffffffffu), dis);
        else
            snprintf(line, sizeof line, "%c%c%016llx  %s", mark0, mark1, (unsigned long long)a,
                     dis);
        int attr = a == pc ? C_CURRENT : bp ? C_BREAK : C_NORMAL;
        if (a == pc) {
            char pad[512];
            snprintf(pad, sizeof pad, "%-*s", p->w - 2 < 500 ? p->w - 2 : 500, line);
            put(p, r, 0, pad, tui_attr(attr));
        } else {
            put(p, r, 0, line, tui_attr(attr));
        }
        r++;
    }
}

/* ---- memory ---------------------------------------------------------------- */

static void draw_memory(tui *t, pane *p)
{
    cpu *c = dbg_cpu(t->d);
    char title[64];
    uint64_t base = t->mem_addr_set ? t->mem_addr : (c ? cpu_gpr(c, 29) : 0);
    snprintf(title, sizeof title, "memory @0x%llx", (unsigned long long)base);
    frame(t, p, title);
    if (!c)
        return;
    int inner = p->w - 2;
    int per = inner >= 17 + 16 * 3 + 16 ? 16 : 8;
    base += (uint64_t)(int64_t)p->scroll * (uint64_t)per;
    for (int r = 0; r < p->h - 2; r++) {
        uint64_t a = base + (uint64_t)(r * per);
        uint8_t b[16];
        char line[160];
        int n = snprintf(line, sizeof line, "%016llx ", (unsigned long long)a);
        if (cpu_read_virt(c, a, b, (uint64_t)per) != (uint64_t)per) {
            snprintf(line + n, sizeof line - (size_t)n, " <unmapped>");
            put(p, r, 0, line, tui_attr(C_DIM));
            continue;
        }
        for (int i = 0; i < per; i++)
            n += snprintf(line + n, sizeof line - (size_t)n, "%02x%s", b[i], i % 4 == 3 ? " " : "");
        for (int i = 0; i < per; i++)
            line[n++] = b[i] >= 32 && b[i] < 127 ? (char)b[i] : '.';
        line[n] = 0;
        put(p, r, 0, line, tui_attr(C_NORMAL));
    }
}

/* ---- device views --------------------------------------------------------- */

static device *find_class(dbg *d, const char *cls, device *after)
{
    for (device *v = after ? after->next : d->m->devices; v; v = v->next)
        if (!strcmp(v->cls->name, cls))
            return v;
    return NULL;
}

static void draw_bridge(tui *t, pane *p)
{
    frame(t, p, "Bridge windows");
    device *br = find_class(t->d, "bridge", NULL);
    const dev_view *v = br ? dev_view_find(br, "windows") : NULL;
    if (!v) {
        put(p, 0, 0, "(no Bridge in this machine)", tui_attr(C_DIM));
        return;
    }
    strbuf b;
    sb_init(&b);
    v->show(br, "", NULL, &b);
    draw_sb(p, &b);
    sb_free(&b);
}

/* The rings the pane lists: the tx and rx rings of every device with a
 * "ring" view, in device order, leaving out the rings the guest has not set
 * up while it has set up others (the unplugged on-board Ethernet does not
 * take the rows of the card in use).  Returns how many (at most max). */
typedef struct ring_section {
    device *dev;
    const dev_view *view;
    const char *ring;
} ring_section;

static bool ring_set_up(device *v, const char *ring)
{
    ring_state st;
    return !v->cls->ring_state || v->cls->ring_state(v, ring, &st) != 0 || st.set_up;
}

static const char *const nic_rings[] = {"tx", "rx", NULL};
static const char *const scsi_queues[] = {"request", "response", NULL};

/* The rings of the kind the pane shows (NIC rings or SCSI queues) that
 * each device has (its ring_state knows them); once the guest has set one
 * up, only those it set up (the unplugged on-board Ethernet's stay out). */
static int ring_sections(tui *t, ring_section *sec, int max)
{
    int kind = t->drawing == PANE_RINGS || t->drawing == PANE_QUEUES ? t->drawing : (int)t->focus;
    const char *const *rings = kind == PANE_QUEUES ? scsi_queues : nic_rings;
    int n = 0, set_up = 0;
    for (device *v = t->d->m->devices; v; v = v->next) {
        const dev_view *rv = dev_view_find(v, "ring");
        for (unsigned k = 0; rv && rings[k] && n < max; k++) {
            ring_state st;
            if (v->cls->ring_state && v->cls->ring_state(v, rings[k], &st) != 0)
                continue;
            if (!v->cls->ring_state && rings != nic_rings)
                continue;
            sec[n++] = (ring_section){v, rv, rings[k]};
            set_up += ring_set_up(v, rings[k]);
        }
    }
    if (!set_up)
        return n;
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (ring_set_up(sec[i].dev, sec[i].ring))
            sec[kept++] = sec[i];
    return kept;
}

static void draw_rings(tui *t, pane *p, int kind)
{
    bool queues = kind == PANE_QUEUES;
    frame(t, p,
          queues ? "SCSI queues  <- firmware/host pointers"
                 : "NIC rings  > device  T host  * changed");
    t->drawing = kind;
    ring_section sec[TUI_MAX_RINGS];
    int n = ring_sections(t, sec, TUI_MAX_RINGS);
    t->drawing = -1;
    if (!n) {
        put(p, 0, 0,
            queues ? "(no SCSI controller in this machine: start xbow with --disk FILE)"
                   : "(no NIC in this machine: start xbow with --nic MODEL)",
            tui_attr(C_DIM));
        return;
    }
    if (t->ring_sel >= n)
        t->ring_sel = n - 1;
    /* A title line per ring, the entries share the rest; the ring the keys
     * scroll gets what does not divide evenly. */
    int rows = p->h - 2, avail = rows - n;
    int each = avail > 0 ? avail / n : 0, extra = avail > 0 ? avail % n : 0;
    int y = 0;
    strbuf b;
    sb_init(&b);
    for (int i = 0; i < n && y < rows; i++) {
        ring_window *w = &t->rings[i];
        int want = each + (i == t->ring_sel ? extra : 0);
        view_ctx ctx = {.memo = &t->ring_memo,
                        .rows = want > 0 ? (unsigned)want : 1,
                        .cols = (unsigned)(p->w - 2),
                        .follow = !w->pinned,
                        .first = w->first,
                        .brief = true};
        w->rows = want;
        sb_reset(&b);
        sec[i].view->show(sec[i].dev, sec[i].ring, &ctx, &b);
        w->first = ctx.first;
        tui_text tx;
        tt_init(&tx, 0);
        tt_append_sb(&tx, &b, C_NORMAL);
        for (unsigned l = 0; l < tx.n && l < (unsigned)want + 1 && y < rows; l++, y++) {
            const char *line = tx.lines[l].text;
            int attr = C_NORMAL;
            if (l == 0)
                attr = (int)t->focus == kind && i == t->ring_sel ? C_CURRENT : C_TITLE;
            else if (line[0] == '*')
                attr = C_CHANGED;
            put(p, y, 0, line, tui_attr(attr));
        }
        tt_free(&tx);
    }
    sb_free(&b);
}

/* Keys of the focused rings pane: Left/Right choose the ring, Up/Down and
 * PgUp/PgDn scroll it (it stays put), Home makes it follow the device. */
static bool rings_key(tui *t, int ch)
{
    ring_section sec[TUI_MAX_RINGS];
    int n = ring_sections(t, sec, TUI_MAX_RINGS);
    if (!n)
        return false;
    ring_window *w = &t->rings[t->ring_sel < n ? t->ring_sel : 0];
    int page = w->rows > 1 ? w->rows - 1 : 1;
    switch (ch) {
    case KEY_LEFT: t->ring_sel = (t->ring_sel + n - 1) % n; return true;
    case KEY_RIGHT: t->ring_sel = (t->ring_sel + 1) % n; return true;
    case KEY_HOME: w->pinned = false; return true;
    case KEY_UP: w->first -= 1; break;
    case KEY_DOWN: w->first += 1; break;
    case KEY_PPAGE: w->first -= page; break;
    case KEY_NPAGE: w->first += page; break;
    default: return false;
    }
    /* From where it is now; the view keeps it within the ring. */
    w->pinned = true;
    if (w->first < 0)
        w->first = 0;
    return true;
}

bool tui_pane_key(tui *t, int ch)
{
    if (t->focus == PANE_RINGS || t->focus == PANE_QUEUES)
        return rings_key(t, ch);
    return false;
}

/* The DMA counter: the table is the Bridge's "dma" view, the rates and the
 * history graph come from samples of its counters, the per-word and bulk
 * totals. */
void tui_sample_dma(tui *t)
{
    device *br = find_class(t->d, "bridge", NULL);
    const dev_counter *cw = br ? dev_counter_find(br, "dma.word-ops") : NULL;
    const dev_counter *cb = br ? dev_counter_find(br, "dma.bulk-bytes") : NULL;
    if (!cw || !cb)
        return;
    uint64_t words = cw->read(br), bulk = cb->read(br);
    double now = tui_now();
    if (t->dma_last_t > 0 && now > t->dma_last_t) {
        double dt = now - t->dma_last_t;
        t->dma_word_rate = (double)(words - t->dma_last_words) / dt;
        t->dma_bulk_rate = (double)(bulk - t->dma_last_bulk) / dt;
        if (t->dma_hist_n == ARRAY_SIZE(t->dma_hist)) {
            memmove(t->dma_hist, t->dma_hist + 1, sizeof t->dma_hist - sizeof t->dma_hist[0]);
            t->dma_hist_n--;
        }
        t->dma_hist[t->dma_hist_n++] = t->dma_word_rate;
    }
    t->dma_last_t = now;
    t->dma_last_words = words;
    t->dma_last_bulk = bulk;
}

/* "3.66M" for a rate in a narrow pane. */
static void short_number(double v, char *buf, size_t len)
{
    static const char units[] = " kMGT";
    int u = 0;
    while (v >= 999.5 && u < 4) {
        v /= 1000;
        u++;
    }
    if (u)
        snprintf(buf, len, "%.3g%c", v, units[u]);
    else
        snprintf(buf, len, "%.0f", v);
}

/* The rates on the first line, the `info dma` table (the columns that fit)
 * at the bottom, and in the rows between a graph of the per-word rate.
 * When the table is taller than the pane it scrolls under its heading. */
static void draw_dma(tui *t, pane *p)
{
    int inner = p->w - 2, rows = p->h - 2;
    char line[160];
    if (inner >= 43) { /* the whole line below */
        snprintf(line, sizeof line, "per-word %10.0f/s   bulk %10.0f B/s", t->dma_word_rate,
                 t->dma_bulk_rate);
    } else {
        char w[16], b[16];
        short_number(t->dma_word_rate, w, sizeof w);
        short_number(t->dma_bulk_rate, b, sizeof b);
        snprintf(line, sizeof line, "per-word %s/s  bulk %sB/s", w, b);
    }
    tui_text tx;
    tt_init(&tx, 0);
    device *br = find_class(t->d, "bridge", NULL);
    const dev_view *v = br ? dev_view_find(br, "dma") : NULL;
    if (v) {
        strbuf b;
        sb_init(&b);
        view_ctx ctx = {.cols = (unsigned)inner};
        v->show(br, "", &ctx, &b);
        tt_append_sb(&tx, &b, C_NORMAL);
        sb_free(&b);
    }
    /* Table rows under the heading, and how many of them fit. */
    int data = tx.n > 1 ? (int)tx.n - 1 : 0, room = rows - 2;
    if (room < 0)
        room = 0;
    if (p->scroll > data - room)
        p->scroll = data - room > 0 ? data - room : 0;
    char title[64];
    if (data > room && room <= 0)
        snprintf(title, sizeof title, "DMA counter (%d rows hidden)", data);
    else if (data > room)
        snprintf(title, sizeof title, "DMA counter (rows %d-%d of %d)", p->scroll + 1,
                 p->scroll + room, data);
    else
        snprintf(title, sizeof title, "DMA counter");
    frame(t, p, title);
    put(p, 0, 0, line, tui_attr(C_TITLE));
    /* The graph takes what the table leaves (the table at least 6 rows). */
    int table = (int)tx.n > 6 ? (int)tx.n : 6;
    int gh = rows - 1 - table;
    if (gh > 1 && t->dma_hist_n) {
        double max = 1;
        for (unsigned i = 0; i < t->dma_hist_n; i++)
            if (t->dma_hist[i] > max)
                max = t->dma_hist[i];
        unsigned n = t->dma_hist_n < (unsigned)inner ? t->dma_hist_n : (unsigned)inner;
        for (unsigned i = 0; i < n; i++) {
            double h = t->dma_hist[t->dma_hist_n - n + i];
            int bar = (int)(h / max * gh + 0.5);
            for (int r = 0; r < bar; r++)
                put(p, gh - r, inner - (int)n + (int)i, "#", tui_attr(C_CHANGED));
        }
    }
    int y0 = gh > 1 ? gh + 1 : 1;
    if (tx.n)
        put(p, y0, 0, tx.lines[0].text, tui_attr(C_NORMAL));
    for (int r = 0; y0 + 1 + r < rows && 1 + p->scroll + r < (int)tx.n; r++)
        put(p, y0 + 1 + r, 0, tx.lines[1 + p->scroll + r].text, tui_attr(C_NORMAL));
    tt_free(&tx);
}

static void draw_console(tui *t, pane *p)
{
    frame(t, p, t->focus == PANE_CONSOLE ? "console (typing goes to the guest)" : "console");
    draw_text(p, &t->console, true);
}

void tui_draw_pane(tui *t, pane *p)
{
    if (!p->visible || !p->win)
        return;
    switch (p->kind) {
    case PANE_REGS: draw_regs(t, p); break;
    case PANE_DISASM: draw_disasm(t, p); break;
    case PANE_CONSOLE: draw_console(t, p); break;
    case PANE_BRIDGE: draw_bridge(t, p); break;
    case PANE_RINGS: draw_rings(t, p, PANE_RINGS); break;
    case PANE_QUEUES: draw_rings(t, p, PANE_QUEUES); break;
    case PANE_DMA: draw_dma(t, p); break;
    case PANE_MEMORY: draw_memory(t, p); break;
    case PANE_SRC: tui_draw_src(t, p); break;
    default: return;
    }
    wnoutrefresh(p->win);
}

void tui_frame(tui *t, pane *p, const char *title) { frame(t, p, title); }
void tui_put(pane *p, int y, int x, const char *s, int attr) { put(p, y, x, s, attr); }
