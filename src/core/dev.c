/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Register dispatch, decoding and name lookup from a device declaration. */
#include "core/dev.h"

#include "core/hostprof.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "core/log.h"

static void fmt_reg(const event *ev, uint64_t v, strbuf *out)
{
    const device *d = ev->src->owner;
    if (v < d->cls->nregs)
        sb_puts(out, d->cls->regs[v].name);
    else
        sb_printf(out, "%llu", (unsigned long long)v);
}

static const event_field reg_access_fields[] = {
    {"reg", EVF_DEC, NULL, fmt_reg}, {"idx", EVF_DEC, NULL, NULL}, {"offset", EVF_HEX, NULL, NULL},
    {"value", EVF_HEX, NULL, NULL},  {"old", EVF_HEX, NULL, NULL}, {"size", EVF_DEC, NULL, NULL},
};
static const event_field bad_access_fields[] = {
    {"offset", EVF_HEX, NULL, NULL},
    {"size", EVF_DEC, NULL, NULL},
    {"write", EVF_BOOL, NULL, NULL},
    {"value", EVF_HEX, NULL, NULL},
};
static const event_decl builtin_events[DEV_NBUILTIN_EVENTS] = {
    {"reg.read", "a bus master read a register", reg_access_fields, 6},
    {"reg.write", "a bus master wrote a register (value = new, old = before)", reg_access_fields,
     6},
    {"reg.bad-access", "an access no register decodes, or of the wrong width", bad_access_fields,
     4},
};

static int ext_cmp(const void *a, const void *b)
{
    const struct reg_extent *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

device *device_new(const device_class *cls, const char *name, void *priv, event_bus *eb,
                   sched *clock)
{
    device *d = xcalloc(1, sizeof *d);
    snprintf(d->name, sizeof d->name, "%s", name);
    d->cls = cls;
    d->priv = priv;
    d->clock = clock;
    d->events = eb;
    d->initiator = -1;
    d->slot = xcalloc(cls->nregs, sizeof *d->slot);
    uint32_t n = 0;
    for (unsigned i = 0; i < cls->nregs; i++) {
        d->slot[i] = n;
        n += cls->regs[i].count > 1 ? cls->regs[i].count : 1;
    }
    d->nvals = n;
    d->rv = xcalloc(n, sizeof *d->rv);
    d->ext = xcalloc(n, sizeof *d->ext);
    for (unsigned i = 0; i < cls->nregs; i++) {
        const reg_decl *r = &cls->regs[i];
        if (!r->name || !r->width) { /* a hole in the table: a bug in the model */
            xlog(LOG_ERROR, name, "%s: register %u is not declared", cls->name, i);
            abort();
        }
        unsigned cnt = r->count > 1 ? r->count : 1;
        for (unsigned k = 0; k < cnt; k++) {
            struct reg_extent *e = &d->ext[d->n_ext++];
            e->start = r->offset + k * r->stride;
            e->end = e->start + r->width;
            e->id = (uint16_t)i;
            e->idx = (uint16_t)k;
        }
    }
    char why[160];
    if (dev_state_problem(cls, why, sizeof why)) { /* a bug in the model */
        xlog(LOG_ERROR, name, "%s: %s", cls->name, why);
        abort();
    }
    qsort(d->ext, d->n_ext, sizeof *d->ext, ext_cmp);
    for (unsigned i = 1; i < d->n_ext; i++)
        if (d->ext[i].start < d->ext[i - 1].end)
            xlog(LOG_ERROR, name, "registers %s and %s overlap", cls->regs[d->ext[i - 1].id].name,
                 cls->regs[d->ext[i].id].name);
    d->ev = xcalloc(DEV_NBUILTIN_EVENTS + cls->nevents, sizeof *d->ev);
    if (eb) {
        for (unsigned i = 0; i < DEV_NBUILTIN_EVENTS; i++)
            d->ev[i] = event_src_add(eb, name, &builtin_events[i], d);
        for (unsigned i = 0; i < cls->nevents; i++)
            d->ev[DEV_NBUILTIN_EVENTS + i] = event_src_add(eb, name, &cls->events[i], d);
    }
    return d;
}

void device_free(device *d)
{
    if (!d)
        return;
    free(d->rv);
    free(d->slot);
    free(d->ext);
    free(d->ev);
    free(d);
}

void device_reset(device *d)
{
    for (unsigned i = 0; i < d->cls->nregs; i++) {
        const reg_decl *r = &d->cls->regs[i];
        unsigned cnt = r->count > 1 ? r->count : 1;
        for (unsigned k = 0; k < cnt; k++)
            d->rv[d->slot[i] + k] = r->reset & MASK(r->width * 8);
    }
    if (d->cls->reset)
        d->cls->reset(d);
}

static const struct reg_extent *ext_find(const device *d, uint64_t off)
{
    unsigned lo = 0, hi = d->n_ext;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        const struct reg_extent *e = &d->ext[mid];
        if (off < e->start)
            hi = mid;
        else if (off >= e->end)
            lo = mid + 1;
        else
            return e;
    }
    return NULL;
}

/* First extent starting after off (to bound a gap), or NULL. */
static const struct reg_extent *ext_next(const device *d, uint64_t off)
{
    for (unsigned i = 0; i < d->n_ext; i++)
        if (d->ext[i].start > off)
            return &d->ext[i];
    return NULL;
}

/* Bit position of byte `j` of a `w`-byte value in the device's byte order. */
static inline unsigned lane(const device *d, unsigned j, unsigned w)
{
    return 8 * (d->cls->little_endian ? j : w - 1 - j);
}

uint64_t dev_peek(device *d, unsigned id, unsigned idx)
{
    const reg_decl *r = &d->cls->regs[id];
    if (r->read) {
        reg_access a = {
            .id = id, .idx = idx, .offset = r->offset + idx * r->stride, .who = -1, .peek = true};
        return r->read(d, &a) & MASK(r->width * 8);
    }
    if (r->rules & R_WO)
        return 0;
    return d->rv[d->slot[id] + idx];
}

uint64_t dev_next_change(device *d, unsigned id, unsigned idx)
{
    if (!(d->cls->regs[id].rules & R_TIME))
        return UINT64_MAX;
    return d->cls->next_change ? d->cls->next_change(d, id, idx) : d->clock->now + 1;
}

static dev_read_note *note_sink;

void dev_note_reads(dev_read_note *n)
{
    note_sink = n;
    if (n)
        memset(n, 0, sizeof *n);
}

static void note_read(dev_read_note *n, device *d, const reg_decl *r, unsigned id, unsigned idx,
                      uint64_t v)
{
    if ((r->rules & R_RC) && v != 0)
        n->impure = true;
    if (r->read && !(r->rules & (R_PURE | R_WO)))
        n->impure = true;
    if (n->n < DEV_NOTE_MAX) {
        n->reg[n->n].dev = d;
        n->reg[n->n].id = (uint16_t)id;
        n->reg[n->n].idx = (uint16_t)idx;
        n->reg[n->n].peek = dev_peek(d, id, idx);
        n->reg[n->n].changes = dev_next_change(d, id, idx);
    } else {
        n->impure = true;
    }
    n->n++;
}

/* Register events name who made the access (the bus initiator). */
static int who(const device *d, const bus_op *op) { return op ? op->initiator : d->initiator; }

static uint64_t elem_read(device *d, const bus_op *op, const struct reg_extent *e, unsigned size)
{
    const reg_decl *r = &d->cls->regs[e->id];
    uint64_t *p = &d->rv[d->slot[e->id] + e->idx];
    uint64_t v;
    if (r->rules & R_WO) {
        v = 0;
    } else if (r->read) {
        reg_access a = {.id = e->id, .idx = e->idx, .offset = e->start, .who = who(d, op)};
        v = r->read(d, &a) & MASK(r->width * 8);
    } else {
        v = *p;
    }
    if ((r->rules & R_RC) && !(r->rules & R_NOSTORE))
        *p = 0;
    if (unlikely(note_sink))
        note_read(note_sink, d, r, e->id, e->idx, v);
    EVENT_EMIT(d->ev[DEV_EV_REG_READ], who(d, op), e->id, e->idx, e->start, v, v, size);
    return v;
}

static void elem_write(device *d, const bus_op *op, const struct reg_extent *e, uint64_t val,
                       uint64_t lanes, unsigned size)
{
    const reg_decl *r = &d->cls->regs[e->id];
    uint64_t *p = &d->rv[d->slot[e->id] + e->idx];
    uint64_t old = (r->rules & R_NOSTORE) ? dev_peek(d, e->id, e->idx) : *p;
    uint64_t wm = (r->wmask ? r->wmask : ~0ull) & lanes & MASK(r->width * 8);
    uint64_t nv;
    if (r->rules & R_RO)
        nv = old;
    else if (r->rules & R_W1C)
        nv = old & ~(val & wm);
    else if (r->rules & R_W1S)
        nv = old | (val & wm);
    else
        nv = (old & ~wm) | (val & wm);
    if (!(r->rules & R_NOSTORE))
        *p = nv;
    int by = who(d, op);
    EVENT_EMIT(d->ev[DEV_EV_REG_WRITE], by, e->id, e->idx, e->start, nv, old, size);
    if (r->write && !(r->rules & R_RO)) {
        reg_access a = {.id = e->id,
                        .idx = e->idx,
                        .offset = e->start,
                        .who = by,
                        .val = (old & ~lanes) | (val & lanes),
                        .old = old};
        r->write(d, &a);
    }
}

static void bad_access(device *d, const bus_op *op, uint64_t off, unsigned size, bool write,
                       uint64_t val)
{
    EVENT_EMIT(d->ev[DEV_EV_BAD_ACCESS], who(d, op), off, size, write, val);
    xlog(LOG_DEBUG, d->name, "%s of %u bytes at offset 0x%llx decodes no register",
         write ? "write" : "read", size, (unsigned long long)off);
}

/* Walk the bytes of an access register by register.  For each register
 * element touched, `lanes` is the mask of its bytes the access covers;
 * lane() places each byte in the register and in the access value. */
static int dev_access(device *d, const bus_op *op, uint64_t off, unsigned size, uint64_t *val,
                      bool write)
{
    const struct reg_extent *e = ext_find(d, off);
    if (!e) {
        if (!write && d->cls->other_read)
            return d->cls->other_read(d, op, off, size, val);
        if (write && d->cls->other_write)
            return d->cls->other_write(d, op, off, size, *val);
    } else if (off == e->start && off + size == e->end) {
        /* The common case, one whole register element: no lanes to move. */
        if (write)
            elem_write(d, op, e, *val & MASK(size * 8), MASK(size * 8), size);
        else
            *val = elem_read(d, op, e, size) & MASK(size * 8);
        return BUS_OK;
    }
    uint64_t result = 0;
    bool any = false;
    for (uint64_t pos = off; pos < off + size;) {
        e = ext_find(d, pos);
        if (!e) {
            const struct reg_extent *n = ext_next(d, pos);
            pos = n && n->start < off + size ? n->start : off + size;
            continue;
        }
        any = true;
        const reg_decl *r = &d->cls->regs[e->id];
        unsigned w = r->width;
        uint64_t last = e->end < off + size ? e->end : off + size;
        if ((r->rules & R_FULL) && (pos != e->start || last != e->end || off != e->start)) {
            bad_access(d, op, off, size, write, write ? *val : 0);
            pos = last;
            continue;
        }
        uint64_t lanes = 0, rv = 0;
        /* Move the covered bytes from the access value into register lanes. */
        for (uint64_t x = pos; x < last; x++) {
            unsigned j = (unsigned)(x - e->start), k = (unsigned)(x - off);
            unsigned rs = lane(d, j, w), as = lane(d, k, size);
            lanes |= 0xffull << rs;
            if (write)
                rv |= ((*val >> as) & 0xff) << rs;
        }
        if (write) {
            elem_write(d, op, e, rv, lanes, size);
        } else {
            uint64_t v = elem_read(d, op, e, size);
            for (uint64_t x = pos; x < last; x++) {
                unsigned j = (unsigned)(x - e->start), k = (unsigned)(x - off);
                result |= ((v >> lane(d, j, w)) & 0xff) << lane(d, k, size);
            }
        }
        pos = last;
    }
    if (!any) {
        bad_access(d, op, off, size, write, write ? *val : 0);
        if (!write)
            *val = 0;
        return BUS_OK;
    }
    if (!write)
        *val = result;
    return BUS_OK;
}

int dev_read(device *d, const bus_op *op, uint64_t off, unsigned size, uint64_t *val)
{
    HOSTPROF_BEGIN(d, HP_REGS, d->name);
    int rc = dev_access(d, op, off, size, val, false);
    HOSTPROF_END();
    return rc;
}

int dev_write(device *d, const bus_op *op, uint64_t off, unsigned size, uint64_t val)
{
    HOSTPROF_BEGIN(d, HP_REGS, d->name);
    int rc = dev_access(d, op, off, size, &val, true);
    HOSTPROF_END();
    return rc;
}

static int be_read(void *opaque, const bus_op *op, uint64_t off, uint64_t *val)
{
    return dev_read(opaque, op, off, op->size, val);
}

static int be_write(void *opaque, const bus_op *op, uint64_t off, uint64_t val)
{
    return dev_write(opaque, op, off, op->size, val);
}

const mmio_ops dev_mmio_be = {be_read, be_write};

int dev_reg_lookup(const device *d, const char *name, unsigned *id, unsigned *idx)
{
    for (int pass = 0; pass < 2; pass++) {
        int (*cmp)(const char *, const char *, size_t) = pass ? strncasecmp : strncmp;
        for (unsigned i = 0; i < d->cls->nregs; i++) {
            const reg_decl *r = &d->cls->regs[i];
            size_t n = strlen(r->name);
            if (cmp(name, r->name, n) != 0)
                continue;
            const char *rest = name + n;
            if (*rest == 0 && r->count <= 1) {
                *id = i;
                *idx = 0;
                return 0;
            }
            if (r->count <= 1)
                continue;
            if (*rest == '(' || *rest == '[')
                rest++;
            if (!isdigit((unsigned char)*rest))
                continue;
            char *end;
            unsigned long k = strtoul(rest, &end, 10);
            if (*end == ')' || *end == ']')
                end++;
            if (*end == 0 && k < r->count) {
                *id = i;
                *idx = (unsigned)k;
                return 0;
            }
        }
    }
    return -1;
}

const reg_field *dev_field_lookup(const reg_decl *r, const char *name)
{
    for (unsigned i = 0; i < r->nfields; i++)
        if (strcasecmp(r->fields[i].name, name) == 0)
            return &r->fields[i];
    return NULL;
}

void dev_reg_name(const device *d, unsigned id, unsigned idx, char *buf, size_t len)
{
    const reg_decl *r = &d->cls->regs[id];
    if (r->count > 1)
        snprintf(buf, len, "%s%u", r->name, idx);
    else
        snprintf(buf, len, "%s", r->name);
}

void dev_format_fields(const reg_decl *r, uint64_t v, strbuf *out)
{
    for (unsigned k = 0; k < r->nfields; k++) {
        const reg_field *f = &r->fields[k];
        uint64_t fv = EXTRACT(v, f->lsb, f->width);
        sb_printf(out, "%s%s=", k ? " " : "", f->name);
        const char *vn = NULL;
        if (f->values) {
            unsigned i = 0;
            while (f->values[i] && i < fv)
                i++;
            if (i == fv)
                vn = f->values[i];
        }
        if (vn)
            sb_puts(out, vn);
        else if (f->width == 1 || fv < 10)
            sb_printf(out, "%llu", (unsigned long long)fv);
        else
            sb_printf(out, "0x%llx", (unsigned long long)fv);
    }
}

void dev_show(device *d, strbuf *out)
{
    sb_printf(out, "%s (%s): %s\n", d->name, d->cls->name, d->cls->desc ? d->cls->desc : "");
    for (unsigned i = 0; i < d->n_ext; i++) {
        const struct reg_extent *e = &d->ext[i];
        const reg_decl *r = &d->cls->regs[e->id];
        char name[40];
        dev_reg_name(d, e->id, e->idx, name, sizeof name);
        uint64_t v = dev_peek(d, e->id, e->idx);
        sb_printf(out, "  %06x %-18s %0*llx", e->start, name, r->width * 2, (unsigned long long)v);
        if (r->nfields) {
            sb_printf(out, "%*s", 17 - r->width * 2, "");
            dev_format_fields(r, v, out);
        }
        sb_putc(out, '\n');
    }
}

/* ---- view memos ------------------------------------------------------------ */

struct view_note {
    view_note *next;
    device *dev;
    const dev_view *view;
    char *key;
    void *data;
    size_t len;
};

void view_memo_free(view_memo *m)
{
    while (m->notes) {
        view_note *n = m->notes;
        m->notes = n->next;
        free(n->key);
        free(n->data);
        free(n);
    }
}

static view_note *note_find(const view_memo *m, const device *d, const char *key)
{
    for (view_note *n = m->notes; n; n = n->next)
        if (n->dev == d && !strcmp(n->key, key))
            return n;
    return NULL;
}

const void *view_memo_get(const view_memo *m, const device *d, const char *key, size_t *len)
{
    view_note *n = m ? note_find(m, d, key) : NULL;
    *len = n ? n->len : 0;
    return n ? n->data : NULL;
}

void view_memo_put(view_memo *m, device *d, const dev_view *v, const char *key, const void *data,
                   size_t len)
{
    void *copy = xmalloc(len);
    memcpy(copy, data, len);
    view_note *n = note_find(m, d, key);
    if (!n) {
        n = xcalloc(1, sizeof *n);
        n->dev = d;
        n->key = xstrdup(key);
        n->next = m->notes;
        m->notes = n;
    }
    free(n->data);
    n->view = v;
    n->data = copy;
    n->len = len;
}

void view_memo_refresh(view_memo *m)
{
    strbuf scratch;
    sb_init(&scratch);
    /* One entry listed, in short: the view reads what it remembers anyway. */
    for (view_note *n = m->notes; n; n = n->next) {
        if (!n->view)
            continue;
        view_ctx ctx = {.memo = m, .update = true, .rows = 1, .brief = true};
        n->view->show(n->dev, n->key, &ctx, &scratch);
        sb_reset(&scratch);
    }
    sb_free(&scratch);
}

const dev_view *dev_view_find(const device *d, const char *name)
{
    for (unsigned i = 0; i < d->cls->nviews; i++)
        if (strcmp(d->cls->views[i].name, name) == 0)
            return &d->cls->views[i];
    return NULL;
}

const dev_counter *dev_counter_find(const device *d, const char *name)
{
    for (unsigned i = 0; i < d->cls->ncounters; i++)
        if (strcmp(d->cls->counters[i].name, name) == 0)
            return &d->cls->counters[i];
    return NULL;
}
