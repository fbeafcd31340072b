/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Watchpoints: virtual (watch, rwatch, awatch: the CPUs' own watchpoints),
 * physical ("p:" addresses: any CPU access to that RAM, whatever alias or
 * mapping it goes through) and DMA (watch dma: device accesses, with the
 * initiator, Bridge window/ATE, swap and ring/descriptor behind them).
 *
 * Physical and DMA watchpoints set PF_WATCH_R/W on the RAM pages they
 * cover and subscribe to the bus hook, so they cost nothing on other pages;
 * the hook is removed when nothing needs it. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

#include "dbg/dbg_int.h"
#include "dev/nic/nic.h" /* a DMA's ring numbers are the NIC engine's ring ids */

enum watch_kind { WK_VIRT, WK_PHYS, WK_DMA };
/* DMA watchpoint initiator filters (besides a bus initiator id >= 0). */
enum { BY_DEVICES = -1, BY_ANYONE = -2, BY_CPUS = -3 };

typedef struct wpriv {
    enum watch_kind kind;
    enum watch_type type;
    dbg_addr a;
    uint64_t len;
    char text[96];     /* the location as given */
    int ids[MAX_CPUS]; /* virtual: the CPUs' watchpoint ids */
    ram_range rr;      /* physical and DMA */
    int by;            /* DMA: initiator filter */
    uint8_t *old;      /* last value seen (write watchpoints stop on change) */
    bool old_ok;
} wpriv;

typedef struct watch_state {
    int hook_id;
} watch_state;

static const bp_ops virt_ops, phys_ops, dma_ops;

/* What their conditions see. */
static const event_field virt_fields[] = {{"addr", EVF_HEX, NULL, NULL},
                                          {"size", EVF_DEC, NULL, NULL},
                                          {"write", EVF_BOOL, NULL, NULL},
                                          {"value", EVF_HEX, NULL, NULL}};
static const event_field phys_fields[] = {
    {"addr", EVF_HEX, NULL, NULL}, {"size", EVF_DEC, NULL, NULL}, {"write", EVF_BOOL, NULL, NULL}};
static const event_field dma_fields[] = {
    {"addr", EVF_HEX, NULL, NULL},      {"size", EVF_DEC, NULL, NULL},
    {"write", EVF_BOOL, NULL, NULL},    {"bulk", EVF_BOOL, NULL, NULL},
    {"initiator", EVF_DEC, NULL, NULL}, {"ring", EVF_ENUM, nic_ring_names, NULL},
    {"index", EVF_DEC, NULL, NULL},     {"swap", EVF_BOOL, NULL, NULL},
    {"pci", EVF_HEX, NULL, NULL},       {"value", EVF_HEX, NULL, NULL},
};
static const cond_fields virt_cond = {"a watchpoint", virt_fields, ARRAY_SIZE(virt_fields)};
static const cond_fields phys_cond = {"a physical watchpoint", phys_fields,
                                      ARRAY_SIZE(phys_fields)};
static const cond_fields dma_cond = {"a DMA watchpoint", dma_fields, ARRAY_SIZE(dma_fields)};

static bool is_bus_watch(const bpoint *b) { return b->ops == &phys_ops || b->ops == &dma_ops; }

/* ---- helpers shared with track.c ---------------------------------------- */

int dbg_ram_range(dbg *d, uint64_t bus_addr, uint64_t len, ram_range *r, xerr *err)
{
    uint64_t limit;
    if (!bus_ram_ptr(&d->m->bus, bus_addr, &r->rb, &r->off, &limit)) {
        const bus_region *reg = bus_find(&d->m->bus, bus_addr);
        char a[48];
        bus_addr_str(bus_addr, a, sizeof a);
        if (reg)
            xerr_set(err,
                     "%s is not RAM (it is %s): watch device registers with "
                     "\"break reg DEVICE.REG\".",
                     a, reg->name);
        else
            xerr_set(err, "Nothing at physical address %s.", a);
        return -1;
    }
    if (len == 0 || len > limit) {
        xerr_set(err, "The range 0x%llx,+0x%llx leaves RAM (only 0x%llx bytes there).",
                 (unsigned long long)bus_addr, (unsigned long long)len, (unsigned long long)limit);
        return -1;
    }
    r->len = len;
    return 0;
}

int dbg_parse_range(dbg *d, const char *s, const char *phys_what, dbg_addr *a, uint64_t *len,
                    const char **end)
{
    const char *e;
    if (dbg_parse_phys(d, phys_what, s, &e, a))
        return -1;
    e = dbg_skip_ws(e);
    *len = 0;
    if (*e == ',') {
        xval v;
        if (dbg_eval_prefix(d, e + 1, &e, &v))
            return -1;
        if (v.v == 0 || v.v > (1ull << 32))
            return dbg_error(d, "A length of %llu bytes makes no sense here.",
                             (unsigned long long)v.v);
        *len = v.v;
    }
    *end = dbg_skip_ws(e);
    return 0;
}

void dbg_describe_initiator(dbg *d, int id, strbuf *out)
{
    const initiator *in = initiator_get(&d->m->bus, id);
    if (!in) {
        sb_printf(out, "initiator %d", id);
        return;
    }
    sb_puts(out, in->name);
    if (in->kind == INIT_CPU && in->cpu >= 0 && (unsigned)in->cpu < d->m->ncpus) {
        char a[160];
        dbg_format_addr(d, (dbg_addr){cpu_pc(d->m->cpus[in->cpu]), false}, a, sizeof a);
        sb_printf(out, " at %s", a);
    }
}

/* ---- the bus hook --------------------------------------------------------- */

static watch_state *wstate(dbg *d)
{
    if (!d->watch)
        DBG_STATE(d, watch)->hook_id = -1;
    return d->watch;
}

static void hook(void *ctx, const bus_op *op);

void dbg_watch_hook_update(dbg *d)
{
    watch_state *s = wstate(d);
    bool need = dbg_track_active(d);
    for (bpoint *b = bp_list(d); b && !need; b = b->next)
        need = b->armed && is_bus_watch(b);
    if (need && s->hook_id < 0) {
        s->hook_id = bus_hook_add(&d->m->bus, hook, d, false);
        if (s->hook_id < 0)
            dbg_error(d, "All %d bus hook slots are taken: physical watchpoints will not fire.",
                      BUS_MAX_HOOKS);
    } else if (!need && s->hook_id >= 0) {
        bus_hook_remove(&d->m->bus, s->hook_id);
        s->hook_id = -1;
    }
}

void dbg_watch_free(dbg *d)
{
    watch_state *s = d->watch;
    if (s && s->hook_id >= 0 && d->m)
        bus_hook_remove(&d->m->bus, s->hook_id);
    free(s);
    d->watch = NULL;
    dbg_track_free(d);
}

static uint8_t want_flags(int type)
{
    return (uint8_t)(((type & WATCH_READ) ? PF_WATCH_R : 0) |
                     ((type & WATCH_WRITE) ? PF_WATCH_W : 0));
}

/* Page flags on [off, off+len) from every armed watchpoint and the write
 * tracker (after one of them went away). */
void dbg_watch_refresh_flags(dbg *d, ram_block *rb, uint64_t off, uint64_t len)
{
    bus *bs = &d->m->bus;
    uint64_t first = off & ~(uint64_t)(RAM_PAGE_SIZE - 1);
    uint64_t last = (off + len - 1) & ~(uint64_t)(RAM_PAGE_SIZE - 1);
    for (uint64_t pg = first; pg <= last && pg < rb->size; pg += RAM_PAGE_SIZE) {
        uint8_t f = dbg_track_flags(d, rb, pg);
        for (bpoint *b = bp_list(d); b; b = b->next) {
            if (!b->armed || !is_bus_watch(b))
                continue;
            wpriv *w = b->priv;
            if (w->rr.rb == rb && w->rr.off < pg + RAM_PAGE_SIZE && w->rr.off + w->rr.len > pg)
                f |= want_flags(w->type);
        }
        uint8_t mine = PF_WATCH_R | PF_WATCH_W | PF_TRACK;
        ram_page_flags_clear(bs, rb, pg, RAM_PAGE_SIZE, (uint8_t)(mine & ~f));
        if (f)
            ram_page_flags_set(bs, rb, pg, RAM_PAGE_SIZE, f);
    }
}

static void snapshot(dbg *d, wpriv *w)
{
    xerr err;
    if (!w->old)
        w->old = xmalloc(w->len); /* at most 1 MB (make_watch) */
    w->old_ok = dbg_read(d, w->a, w->old, w->len, &err) == 0;
}

/* Old/new values for a report; returns false when nothing changed. */
static bool changes(dbg *d, wpriv *w, strbuf *out)
{
    uint8_t *now = xmalloc(w->len);
    xerr err;
    if (dbg_read(d, w->a, now, w->len, &err) != 0) {
        free(now);
        return true;
    }
    bool changed = !w->old_ok || memcmp(now, w->old, w->len) != 0;
    if (changed && w->len <= 8) {
        if (w->old_ok)
            sb_printf(out, "\nOld value = 0x%0*llx\n", (int)w->len * 2,
                      (unsigned long long)load_be(w->old, (unsigned)w->len));
        sb_printf(out, "New value = 0x%0*llx\n", (int)w->len * 2,
                  (unsigned long long)load_be(now, (unsigned)w->len));
    } else if (changed) {
        unsigned shown = 0;
        sb_puts(out, "\nChanged bytes:");
        for (uint64_t i = 0; i < w->len && shown < 8; i++) {
            if (w->old_ok && now[i] == w->old[i])
                continue;
            sb_printf(out, " +0x%llx: %02x->%02x", (unsigned long long)i, w->old_ok ? w->old[i] : 0,
                      now[i]);
            shown++;
        }
        sb_puts(out, shown == 8 ? " ...\n" : "\n");
    }
    if (changed && w->old) {
        memcpy(w->old, now, w->len);
        w->old_ok = true;
    }
    free(now);
    return changed;
}

static const char *type_words(int type)
{
    return type == WATCH_READ ? "read " : type == WATCH_ACCESS ? "access " : "";
}

static void current_value(dbg *d, wpriv *w, strbuf *out)
{
    uint8_t b[8];
    xerr err;
    if (w->len <= 8 && dbg_read(d, w->a, b, w->len, &err) == 0)
        sb_printf(out, "\nValue = 0x%0*llx\n", (int)w->len * 2,
                  (unsigned long long)load_be(b, (unsigned)w->len));
}

static void phys_hit(dbg *d, bpoint *b, wpriv *w, const bus_op *op)
{
    strbuf t;
    sb_init(&t);
    sb_printf(&t, "\nPhysical %swatchpoint %d: %s (%llu bytes), %s by ", type_words(w->type),
              b->num, w->text, (unsigned long long)w->len, op->write ? "written" : "read");
    dbg_describe_initiator(d, op->initiator, &t);
    sb_putc(&t, '\n');
    if (op->write && !changes(d, w, &t)) {
        if (w->type == WATCH_WRITE) {
            sb_free(&t);
            return; /* written with the value it had: a write watchpoint stays quiet */
        }
        current_value(d, w, &t);
    }
    if (!op->write)
        current_value(d, w, &t);
    uint64_t vals[] = {op->addr, op->size, op->write};
    eval_scope sc = {NULL, NULL, vals, ARRAY_SIZE(vals), &phys_cond};
    xerr err;
    if (!bp_cond_true(d, b, &sc, &err)) {
        sb_free(&t);
        return;
    }
    if (err.msg[0])
        sb_puts(&t, err.msg);
    if (bp_hit(d, b, t.s, &sc))
        dbg_request_stop(d);
    sb_free(&t);
}

static void dma_hit(dbg *d, bpoint *b, const bus_op *op)
{
    uint8_t v[8] = {0};
    unsigned vn = op->size < 8 ? op->size : 8;
    bus_peek(&d->m->bus, op->addr, v, vn);
    uint64_t value = load_be(v, vn);
    const dma_path *p = op->path;
    uint64_t vals[] = {op->addr,
                       op->size,
                       op->write,
                       op->kind == BUS_BULK,
                       op->initiator,
                       (uint64_t)(p && p->what ? (int64_t)p->ring : -1),
                       (uint64_t)(p && p->what ? (int64_t)p->index : -1),
                       (uint64_t)(p ? p->swap : 0),
                       p ? p->pci_addr : 0,
                       value};
    eval_scope sc = {NULL, NULL, vals, ARRAY_SIZE(vals), &dma_cond};
    strbuf t;
    if (!bp_report_begin(d, b, &sc, "DMA watchpoint", &t))
        return;
    dbg_describe_initiator(d, op->initiator, &t);
    sb_printf(&t, " %s %u bytes at p:0x%010llx (%s)\n", op->write ? "wrote" : "read", op->size,
              (unsigned long long)(op->addr & BUS_PA_MASK), op->kind == BUS_BULK ? "bulk" : "word");
    if (p) {
        sb_printf(&t, "  path: Bridge %s window", p->window ? p->window : "?");
        if (p->ate >= 0)
            sb_printf(&t, ", ATE %d", p->ate);
        sb_printf(&t, ", swap %s, PCI address 0x%llx\n", p->swap ? "on" : "off",
                  (unsigned long long)p->pci_addr);
        if (p->what) {
            sb_printf(&t, "  for: %s", p->what);
            if (p->ring >= 0)
                sb_printf(&t, ", ring %d", p->ring);
            if (p->index >= 0)
                sb_printf(&t, ", descriptor %d", p->index);
            sb_putc(&t, '\n');
        }
    } else {
        sb_puts(&t, "  path: direct (not through a Bridge DMA window)\n");
    }
    sb_printf(&t, "  data: 0x%0*llx%s\n", (int)vn * 2, (unsigned long long)value,
              op->size > 8 ? " ..." : "");
    if (bp_hit(d, b, t.s, &sc))
        dbg_request_stop(d);
    sb_free(&t);
}

static bool dma_wants(dbg *d, const wpriv *w, int who)
{
    const initiator *in = initiator_get(&d->m->bus, who);
    switch (w->by) {
    case BY_ANYONE: return true;
    case BY_DEVICES: return in && in->kind == INIT_DEVICE;
    case BY_CPUS: return in && in->kind == INIT_CPU;
    default: return who == w->by;
    }
}

static void hook(void *ctx, const bus_op *op)
{
    dbg *d = ctx;
    ram_block *rb;
    uint64_t off;
    if (op->size == 0 || !bus_ram_ptr(&d->m->bus, op->addr, &rb, &off, NULL))
        return;
    const initiator *in = initiator_get(&d->m->bus, op->initiator);
    for (bpoint *b = bp_list(d); b; b = b->next) {
        if (!b->armed || b->doomed || !is_bus_watch(b))
            continue;
        wpriv *w = b->priv;
        if (w->rr.rb != rb || off + op->size <= w->rr.off || off >= w->rr.off + w->rr.len)
            continue;
        if (!(w->type & (op->write ? WATCH_WRITE : WATCH_READ)))
            continue;
        if (w->kind == WK_PHYS && in && in->kind == INIT_CPU)
            phys_hit(d, b, w, op);
        else if (w->kind == WK_DMA && dma_wants(d, w, op->initiator))
            dma_hit(d, b, op);
    }
    if (op->write && dbg_track_active(d))
        dbg_track_write(d, op, rb, off);
}

/* ---- kinds ---------------------------------------------------------------------- */

static int virt_arm(dbg *d, bpoint *b)
{
    wpriv *w = b->priv;
    for (unsigned i = 0; i < d->m->ncpus; i++) {
        w->ids[i] = cpu_wp_insert(d->m->cpus[i], w->a.a, w->len, w->type);
        if (w->ids[i] <= 0) {
            while (i-- > 0)
                cpu_wp_remove(d->m->cpus[i], w->ids[i]);
            return dbg_error(d, "cpu%u cannot watch 0x%llx,+%llu.", i, (unsigned long long)w->a.a,
                             (unsigned long long)w->len);
        }
    }
    snapshot(d, w);
    return 0;
}

static void virt_disarm(dbg *d, bpoint *b)
{
    wpriv *w = b->priv;
    for (unsigned i = 0; i < d->m->ncpus; i++)
        if (w->ids[i] > 0)
            cpu_wp_remove(d->m->cpus[i], w->ids[i]);
    memset(w->ids, 0, sizeof w->ids);
}

static int bus_arm(dbg *d, bpoint *b)
{
    wpriv *w = b->priv;
    ram_page_flags_set(&d->m->bus, w->rr.rb, w->rr.off, w->rr.len, want_flags(w->type));
    b->armed = true; /* the hook looks for armed watchpoints */
    dbg_watch_hook_update(d);
    if (w->kind == WK_PHYS)
        snapshot(d, w);
    return 0;
}

static void bus_disarm(dbg *d, bpoint *b)
{
    wpriv *w = b->priv;
    b->armed = false;
    dbg_watch_refresh_flags(d, w->rr.rb, w->rr.off, w->rr.len);
    dbg_watch_hook_update(d);
}

static void describe(dbg *d, const bpoint *b, strbuf *out)
{
    const wpriv *w = b->priv;
    if (w->kind == WK_DMA) {
        if (w->by >= 0) {
            const initiator *in = initiator_get(&d->m->bus, w->by);
            sb_printf(out, "dma by %s ", in ? in->name : "?");
        } else {
            sb_printf(out, "dma by %s ",
                      w->by == BY_ANYONE ? "anyone"
                      : w->by == BY_CPUS ? "cpus"
                                         : "devices");
        }
        sb_printf(out, "%s ",
                  w->type == WATCH_READ    ? "read"
                  : w->type == WATCH_WRITE ? "write"
                                           : "any");
    }
    sb_printf(out, "%s, %llu byte%s", w->text, (unsigned long long)w->len, w->len == 1 ? "" : "s");
}

static void wfree(bpoint *b)
{
    wpriv *w = b->priv;
    if (w)
        free(w->old);
    free(w);
}

/* The machine was put in another state (the history went back): the old
 * values are that state's. */
static void resync(dbg *d, bpoint *b)
{
    wpriv *w = b->priv;
    if (w->old)
        snapshot(d, w);
}

static const bp_ops virt_ops = {"hw watchpoint", virt_arm,   virt_disarm, describe,
                                wfree,           &virt_cond, resync};
static const bp_ops virt_r_ops = {"read watchpoint", virt_arm, virt_disarm, describe, wfree,
                                  &virt_cond,        resync};
static const bp_ops virt_a_ops = {"acc watchpoint", virt_arm, virt_disarm, describe, wfree,
                                  &virt_cond,       resync};
static const bp_ops phys_ops = {"phys watchpoint", bus_arm, bus_disarm, describe, wfree,
                                &phys_cond,        resync};
static const bp_ops dma_ops = {"dma watchpoint", bus_arm, bus_disarm, describe, wfree,
                               &dma_cond,        resync};

static bool is_virt(const bpoint *b)
{
    return b->ops == &virt_ops || b->ops == &virt_r_ops || b->ops == &virt_a_ops;
}

/* Does the CPU's hit concern watchpoint b?  The CPU names the first of
 * its watchpoints the access touched; every other one on the same bytes
 * and for the same direction was touched as well. */
static bool virt_touched(const bpoint *b, int cpu_i, const cpu_watch_hit *h)
{
    const wpriv *w = b->priv;
    if (w->ids[cpu_i] <= 0)
        return false;
    if (w->ids[cpu_i] == h->id)
        return true;
    if (!(w->type & (h->write ? WATCH_WRITE : WATCH_READ)))
        return false;
    return h->vaddr < w->a.a + w->len && w->a.a < h->vaddr + h->size;
}

bool bp_cpu_watch_stop(dbg *d, int cpu_i)
{
    const cpu_watch_hit *h = cpu_watch_hit_info(d->m->cpus[cpu_i]);
    bool known = false, stop = false;
    for (bpoint *b = bp_list(d); h && b; b = b->next) {
        if (!is_virt(b) || !b->armed || b->doomed || !virt_touched(b, cpu_i, h))
            continue;
        known = true;
        wpriv *w = b->priv;
        strbuf t;
        sb_init(&t);
        char pcs[160];
        dbg_format_addr(d, (dbg_addr){h->pc, false}, pcs, sizeof pcs);
        sb_printf(&t, "\nHardware %swatchpoint %d: %s\n%s by cpu%d at %s\n", type_words(w->type),
                  b->num, w->text, h->write ? "Written" : "Read", cpu_i, pcs);
        int saved = d->cur_cpu;
        d->cur_cpu = cpu_i;
        bool go = true;
        if (h->write && !changes(d, w, &t)) {
            go = w->type != WATCH_WRITE; /* unchanged: only access watchpoints stop */
            if (go)
                current_value(d, w, &t);
        }
        if (go && !h->write)
            current_value(d, w, &t);
        uint64_t vals[] = {h->vaddr, h->size, h->write, h->value};
        eval_scope sc = {NULL, NULL, vals, ARRAY_SIZE(vals), &virt_cond};
        xerr err;
        if (go && !bp_cond_true(d, b, &sc, &err))
            go = false;
        if (go && err.msg[0])
            sb_puts(&t, err.msg);
        stop |= go && bp_hit(d, b, t.s, &sc);
        d->cur_cpu = saved;
        sb_free(&t);
    }
    if (known)
        return stop;
    char text[120];
    snprintf(text, sizeof text, "\nStopped by a CPU watchpoint the debugger does not know (%d).\n",
             h ? h->id : -1);
    bp_note_stop(d, text);
    return true;
}

/* ---- commands --------------------------------------------------------------------- */

static int make_watch(dbg *d, const cmd_args *a, int type)
{
    const char *s = a->text[0];
    if (!strncmp(s, "-l ", 3) || !strncmp(s, "-location ", 10))
        s = dbg_skip_ws(strchr(s, ' '));
    if (*s == '*')
        s++;
    if (!*s)
        return dbg_error(d, "Argument required (address to watch).");
    wpriv *w = xcalloc(1, sizeof *w);
    const char *end;
    if (dbg_parse_range(d, s, NULL, &w->a, &w->len, &end)) {
        free(w);
        return -1;
    }
    if (*end) {
        free(w);
        return dbg_error(d, "Junk at end of arguments: \"%s\".", end);
    }
    size_t tl = strcspn(s, ",");
    if ((size_t)(end - s) < tl)
        tl = (size_t)(end - s);
    snprintf(w->text, sizeof w->text, "%.*s", (int)tl, s);
    for (size_t n = strlen(w->text); n && w->text[n - 1] == ' ';)
        w->text[--n] = 0;
    w->type = type;
    if (!w->len) { /* a symbol's size when the ELF gave one, else a word */
        uint64_t off;
        const symbol *sym = w->a.phys ? NULL : symtab_lookup_addr(&d->m->syms, w->a.a, &off);
        w->len = sym && !off && sym->size && sym->size <= 4096 ? sym->size : 4;
    }
    if (w->len > (1u << 20)) {
        free(w);
        return dbg_error(d, "Watching more than 1 MB at once is not supported.");
    }
    const bp_ops *ops = type == WATCH_READ     ? &virt_r_ops
                        : type == WATCH_ACCESS ? &virt_a_ops
                                               : &virt_ops;
    w->kind = WK_VIRT;
    if (w->a.phys) {
        xerr err;
        if (dbg_ram_range(d, w->a.a, w->len, &w->rr, &err)) {
            free(w);
            return dbg_error(d, "%s", err.msg);
        }
        w->kind = WK_PHYS;
        ops = &phys_ops;
    }
    bpoint *b = bp_create(d, ops, w, 0, a->cond);
    if (!b)
        return -1;
    dbg_printf(d, "%s %swatchpoint %d: %s\n", w->a.phys ? "Physical" : "Hardware", type_words(type),
               b->num, w->text);
    return 0;
}

static int cmd_watch(dbg *d, const cmd_args *a) { return make_watch(d, a, WATCH_WRITE); }
static int cmd_rwatch(dbg *d, const cmd_args *a) { return make_watch(d, a, WATCH_READ); }
static int cmd_awatch(dbg *d, const cmd_args *a) { return make_watch(d, a, WATCH_ACCESS); }

/* "watch dma WORD REST": is WORD meant as the initiator?  It is when it is
 * a plain name followed by something that starts an address (not an
 * operator continuing an expression, nor read/write/any/if). */
static bool names_initiator(const char *word, const char *rest)
{
    if (!*rest || !(isalpha((unsigned char)word[0]) || word[0] == '_'))
        return false;
    for (const char *p = word; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '_')
            return false;
    char next[16];
    dbg_next_word(rest, next, sizeof next);
    if (!strcmp(next, "read") || !strcmp(next, "write") || !strcmp(next, "any") ||
        !strcmp(next, "if"))
        return false;
    return isalnum((unsigned char)*rest) || *rest == '_' || *rest == '$' || *rest == '*' ||
           *rest == '(';
}

static int no_initiator(dbg *d, const char *name)
{
    strbuf b;
    sb_init(&b);
    for (device *v = d->m->devices; v; v = v->next)
        if (v->initiator >= 0)
            sb_printf(&b, "%s, ", v->name);
    device *dev = machine_find_device(d->m, name);
    if (dev)
        dbg_error(d, "watch dma: %s does no DMA (devices that do: %sor devices, cpus, all).", name,
                  b.s ? b.s : "");
    else
        dbg_error(d,
                  "watch dma: no device named \"%s\" (devices that do DMA: %sor devices, "
                  "cpus, all; see \"info devices\").",
                  name, b.s ? b.s : "");
    sb_free(&b);
    return -1;
}

static int cmd_watch_dma(dbg *d, const cmd_args *a)
{
    const char *args = a->text[0];
    char first[64];
    const char *rest = dbg_next_word(args, first, sizeof first);
    int by = BY_DEVICES;
    if (!strcmp(first, "all") || !strcmp(first, "anyone"))
        by = BY_ANYONE;
    else if (!strcmp(first, "cpus") || !strcmp(first, "cpu"))
        by = BY_CPUS;
    else if (!strcmp(first, "devices"))
        by = BY_DEVICES;
    else if (initiator_find(&d->m->bus, first) >= 0)
        by = initiator_find(&d->m->bus, first);
    else if (names_initiator(first, rest))
        return no_initiator(d, first);
    else
        rest = args; /* no initiator given */
    if (!*rest)
        return dbg_usage_error(d, "watch dma", "give a physical range after the initiator");
    wpriv *w = xcalloc(1, sizeof *w);
    w->kind = WK_DMA;
    w->by = by;
    w->type = WATCH_ACCESS;
    const char *end;
    if (dbg_parse_range(d, rest, "watch dma", &w->a, &w->len, &end)) {
        free(w);
        return -1;
    }
    snprintf(w->text, sizeof w->text, "p:0x%010llx", (unsigned long long)w->a.a);
    if (!w->len)
        w->len = 4;
    char word[16];
    const char *after = dbg_next_word(end, word, sizeof word);
    if (!strcmp(word, "read") || !strcmp(word, "write") || !strcmp(word, "any")) {
        w->type = word[0] == 'r' ? WATCH_READ : word[0] == 'w' ? WATCH_WRITE : WATCH_ACCESS;
        end = after;
    }
    if (*end) {
        free(w);
        return dbg_error(d, "watch dma: junk at end: \"%s\" (want read, write, any or if COND).",
                         end);
    }
    xerr err;
    if (dbg_ram_range(d, w->a.a, w->len, &w->rr, &err)) {
        free(w);
        return dbg_error(d, "%s", err.msg);
    }
    return bp_announce(d, bp_create(d, &dma_ops, w, 0, a->cond), "DMA watchpoint");
}

#include "dbg/watch.cmds.h"

const dbg_cmd_table dbg_watch_table = {"Breakpoints", watch_commands, ARRAY_SIZE(watch_commands)};
