/* What each TUI pane shows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dev/bridge.h"
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
        free(t->lines[0].text);
        memmove(t->lines, t->lines + 1, (t->n - 1) * sizeof *t->lines);
        t->n--;
    }
    if (t->n == t->cap) {
        unsigned cap = t->cap ? t->cap * 2 : 64;
        tui_line *nl = realloc(t->lines, cap * sizeof *nl);
        if (!nl)
            return;
        t->lines = nl;
        t->cap = cap;
    }
    char *text = malloc(n + 1);
    if (!text)
        return;
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
    char *nt = realloc(l->text, old + n + 1);
    if (!nt)
        return;
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
    int a = tui_attr(t->focus == (int)p->kind ? C_FOCUS : C_TITLE);
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
    t->prev_valid = true;
}

static void draw_regs(tui *t, pane *p)
{
    cpu *c = dbg_cpu(t->d);
    char title[48];
    snprintf(title, sizeof title, "cpu%d registers", t->d->cur_cpu);
    frame(t, p, title);
    if (!c)
        return;
    int inner = p->w - 2;
    int cols = inner >= 4 * 22 ? 4 : inner >= 2 * 21 ? 2 : 1;
    int colw = inner / cols;
    int row = -p->scroll;
    for (unsigned i = 0; i < 32; i++) {
        uint64_t v = cpu_gpr(c, i);
        char buf[40];
        snprintf(buf, sizeof buf, "%4s %016llx", cpu_gpr_names[i], (unsigned long long)v);
        bool changed = t->prev_valid && v != t->prev_gpr[i];
        put(p, row + (int)(i / cols), (int)(i % cols) * colw, buf,
            tui_attr(changed ? C_CHANGED : C_NORMAL));
    }
    row += 32 / cols;
    struct {
        const char *n;
        uint64_t v, prev;
    } sp[] = {{"pc", cpu_pc(c), t->prev_pc}, {"hi", cpu_hi(c), t->prev_hi},
              {"lo", cpu_lo(c), t->prev_lo}};
    for (unsigned i = 0; i < 3; i++) {
        char buf[40];
        snprintf(buf, sizeof buf, "%4s %016llx", sp[i].n, (unsigned long long)sp[i].v);
        put(p, row + (int)(i / cols), (int)(i % cols) * colw, buf,
            tui_attr(t->prev_valid && sp[i].v != sp[i].prev ? C_CHANGED : C_NORMAL));
    }
    row += (3 + cols - 1) / cols;
    static const unsigned cp0[] = {12, 13, 14, 8, 9, 11, 10};
    for (unsigned i = 0; i < ARRAY_SIZE(cp0); i++) {
        char buf[48];
        snprintf(buf, sizeof buf, "%4.8s %016llx", cpu_cp0_names[cp0[i]],
                 (unsigned long long)cpu_cp0(c, cp0[i]));
        put(p, row + (int)(i / cols), (int)(i % cols) * colw, buf, tui_attr(C_NORMAL));
    }
    row += (int)((ARRAY_SIZE(cp0) + cols - 1) / cols);
    strbuf b;
    sb_init(&b);
    cpu_decode_status(cpu_cp0(c, 12), &b);
    sb_puts(&b, "  ");
    cpu_decode_cause(cpu_cp0(c, 13), &b);
    put(p, row, 0, b.s ? b.s : "", tui_attr(C_DIM));
    sb_free(&b);
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
        snprintf(title, sizeof title, "disassembly %08llx........",
                 (unsigned long long)(pc >> 32));
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
    v->show(br, "", &b);
    draw_sb(p, &b);
    sb_free(&b);
}

static void draw_rings(tui *t, pane *p)
{
    frame(t, p, "NIC rings");
    strbuf b;
    sb_init(&b);
    int rows = p->h - 2;
    unsigned nics = 0;
    for (device *v = t->d->m->devices; v; v = v->next)
        if (dev_view_find(v, "ring"))
            nics++;
    char args[32];
    snprintf(args, sizeof args, "%d", nics ? rows / (int)(2 * nics) - 2 : 4);
    for (device *v = t->d->m->devices; v; v = v->next) {
        const dev_view *rv = dev_view_find(v, "ring");
        if (!rv)
            continue;
        char a[48];
        snprintf(a, sizeof a, "tx %s", args);
        rv->show(v, a, &b);
        snprintf(a, sizeof a, "rx %s", args);
        rv->show(v, a, &b);
    }
    if (!nics)
        sb_puts(&b, "(no NIC in this machine: start xbow with --nic MODEL)\n");
    draw_sb(p, &b);
    sb_free(&b);
}

/* The DMA counter: totals from the Bridge's "dma" view, rates and a history
 * graph from samples of its per-word and bulk totals. */
void tui_sample_dma(tui *t)
{
    uint64_t words, bulk;
    device *br = find_class(t->d, "bridge", NULL);
    if (!br)
        return;
    bridge_dma_totals(br->priv, &words, &bulk);
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

static void draw_dma(tui *t, pane *p)
{
    frame(t, p, "DMA counter");
    char line[160];
    snprintf(line, sizeof line, "per-word %10.0f/s   bulk %10.0f B/s", t->dma_word_rate,
             t->dma_bulk_rate);
    put(p, 0, 0, line, tui_attr(C_TITLE));
    /* History graph of per-word dispatches per second, newest on the right. */
    int gh = p->h - 2 - 1 - 6;
    if (gh > 1 && t->dma_hist_n) {
        double max = 1;
        for (unsigned i = 0; i < t->dma_hist_n; i++)
            if (t->dma_hist[i] > max)
                max = t->dma_hist[i];
        int width = p->w - 2;
        unsigned n = t->dma_hist_n < (unsigned)width ? t->dma_hist_n : (unsigned)width;
        for (unsigned i = 0; i < n; i++) {
            double v = t->dma_hist[t->dma_hist_n - n + i];
            int bar = (int)(v / max * gh + 0.5);
            for (int r = 0; r < bar; r++)
                put(p, gh - r, width - (int)n + (int)i, "#", tui_attr(C_CHANGED));
        }
    }
    device *br = find_class(t->d, "bridge", NULL);
    const dev_view *v = br ? dev_view_find(br, "dma") : NULL;
    if (v) {
        strbuf b;
        sb_init(&b);
        v->show(br, "", &b);
        tui_text tx;
        tt_init(&tx, 0);
        tt_append_sb(&tx, &b, C_NORMAL);
        int y0 = gh > 1 ? gh + 1 : 1;
        for (int r = 0; y0 + r < p->h - 2 && r < (int)tx.n; r++)
            put(p, y0 + r, 0, tx.lines[r].text, tui_attr(C_NORMAL));
        tt_free(&tx);
        sb_free(&b);
    }
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
    case PANE_RINGS: draw_rings(t, p); break;
    case PANE_DMA: draw_dma(t, p); break;
    case PANE_MEMORY: draw_memory(t, p); break;
    case PANE_SRC: tui_draw_src(t, p); break;
    default: return;
    }
    wnoutrefresh(p->win);
}

void tui_frame(tui *t, pane *p, const char *title) { frame(t, p, title); }
void tui_put(pane *p, int y, int x, const char *s, int attr) { put(p, y, x, s, attr); }
