/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The physical-access layer: see bus.h. */
#include "core/bus.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/log.h"

void bus_init(bus *b) { memset(b, 0, sizeof *b); }

void bus_link_set(bus *b, int who, uint64_t addr)
{
    bus_link_clear(b, who);
    for (unsigned i = 0; i < BUS_MAX_LINKS; i++) {
        if (!b->links[i].owner) {
            b->links[i].owner = who + 1;
            b->links[i].line = (addr & BUS_PA_MASK) >> BUS_LINK_SHIFT;
            b->nlinks++;
            return;
        }
    }
}

bool bus_link_valid(const bus *b, int who, uint64_t addr)
{
    uint64_t line = (addr & BUS_PA_MASK) >> BUS_LINK_SHIFT;
    for (unsigned i = 0; i < BUS_MAX_LINKS; i++)
        if (b->links[i].owner == who + 1 && b->links[i].line == line)
            return true;
    return false;
}

void bus_link_clear(bus *b, int who)
{
    for (unsigned i = 0; i < BUS_MAX_LINKS; i++) {
        if (b->links[i].owner == who + 1) {
            b->links[i].owner = 0;
            b->nlinks--;
        }
    }
}

void bus_link_store_slow(bus *b, int who, uint64_t addr, uint64_t size)
{
    if (size == 0)
        return;
    uint64_t first = (addr & BUS_PA_MASK) >> BUS_LINK_SHIFT;
    uint64_t last = ((addr & BUS_PA_MASK) + size - 1) >> BUS_LINK_SHIFT;
    for (unsigned i = 0; i < BUS_MAX_LINKS; i++) {
        bus_link *l = &b->links[i];
        if (l->owner && l->owner != who + 1 && l->line >= first && l->line <= last) {
            l->owner = 0;
            b->nlinks--;
        }
    }
}

void bus_free(bus *b)
{
    for (unsigned i = 0; i < b->nrams; i++) {
        free(b->rams[i]->host);
        free(b->rams[i]->page_flags);
        free(b->rams[i]);
    }
    free(b->regions);
    memset(b, 0, sizeof *b);
}

int initiator_register(bus *b, const char *name, int kind, int cpu)
{
    int id = initiator_find(b, name);
    if (id >= 0)
        return id;
    if (b->ninitiators >= BUS_MAX_INITIATORS)
        return -1;
    initiator *in = &b->initiators[b->ninitiators];
    snprintf(in->name, sizeof in->name, "%s", name);
    in->kind = kind;
    in->cpu = cpu;
    return (int)b->ninitiators++;
}

const initiator *initiator_get(const bus *b, int id)
{
    if (id < 0 || (unsigned)id >= b->ninitiators)
        return NULL;
    return &b->initiators[id];
}

int initiator_find(const bus *b, const char *name)
{
    for (unsigned i = 0; i < b->ninitiators; i++)
        if (strcmp(b->initiators[i].name, name) == 0)
            return (int)i;
    return -1;
}

ram_block *ram_block_new(bus *b, const char *name, uint64_t size)
{
    if (b->nrams >= ARRAY_SIZE(b->rams))
        return NULL;
    ram_block *rb = xcalloc(1, sizeof *rb);
    size = (size + RAM_PAGE_SIZE - 1) & ~(uint64_t)(RAM_PAGE_SIZE - 1);
    rb->name = name;
    rb->size = size;
    rb->host = calloc(1, size); /* the user's --mem: the caller reports a failure */
    rb->page_flags = calloc(1, size >> RAM_PAGE_SHIFT);
    if (!rb->host || !rb->page_flags) {
        free(rb->host);
        free(rb->page_flags);
        free(rb);
        return NULL;
    }
    b->rams[b->nrams++] = rb;
    return rb;
}

static int bus_insert(bus *b, const bus_region *r)
{
    if (r->size == 0 || r->base + r->size < r->base)
        return -1;
    unsigned i = 0;
    while (i < b->nregions && b->regions[i].base < r->base)
        i++;
    /* Overlap with the neighbours is a machine-description bug. */
    if (i > 0 && b->regions[i - 1].base + b->regions[i - 1].size > r->base)
        return -1;
    if (i < b->nregions && r->base + r->size > b->regions[i].base)
        return -1;
    if (b->nregions == b->cap) {
        unsigned cap = b->cap ? b->cap * 2 : 16;
        b->regions = xrealloc(b->regions, cap * sizeof *b->regions);
        b->cap = cap;
    }
    memmove(&b->regions[i + 1], &b->regions[i], (b->nregions - i) * sizeof *r);
    b->regions[i] = *r;
    b->nregions++;
    b->last = NULL;
    return 0;
}

int bus_map_ram(bus *b, const char *name, uint64_t base, uint64_t size, ram_block *rb,
                uint64_t ram_off, bool readonly)
{
    if (!rb || ram_off + size > rb->size)
        return -1;
    bus_region r = {.base = base,
                    .size = size,
                    .name = name,
                    .ram = rb,
                    .ram_off = ram_off,
                    .readonly = readonly};
    return bus_insert(b, &r);
}

int bus_map_mmio(bus *b, const char *name, uint64_t base, uint64_t size, const mmio_ops *ops,
                 void *opaque)
{
    bus_region r = {.base = base, .size = size, .name = name, .ops = ops, .opaque = opaque};
    return bus_insert(b, &r);
}

const bus_region *bus_find(bus *b, uint64_t addr)
{
    const bus_region *l = b->last;
    if (l && addr - l->base < l->size)
        return l;
    unsigned lo = 0, hi = b->nregions;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        const bus_region *r = &b->regions[mid];
        if (addr < r->base)
            hi = mid;
        else if (addr - r->base >= r->size)
            lo = mid + 1;
        else {
            b->last = r;
            return r;
        }
    }
    return NULL;
}

/* Slow-path work on a RAM page with flags: invalidate decoded code, report
 * watched or tracked accesses. */
static void ram_flags_hit(bus *b, const bus_op *op, ram_block *rb, uint64_t off)
{
    uint64_t first = off >> RAM_PAGE_SHIFT, last = (off + op->size - 1) >> RAM_PAGE_SHIFT;
    for (uint64_t pg = first; pg <= last && pg < (rb->size >> RAM_PAGE_SHIFT); pg++) {
        uint8_t f = rb->page_flags[pg];
        if (op->write && (f & PF_CLEAN)) /* (atomic: CPU threads set PF_CODE) */
            __atomic_fetch_and(&rb->page_flags[pg], (uint8_t)~PF_CLEAN, __ATOMIC_RELAXED);
        if (op->write && (f & PF_CODE) && b->code_written)
            b->code_written(b->code_ctx, rb, pg << RAM_PAGE_SHIFT);
    }
}

static inline bool want_hook(const bus *b, const bus_op *op, uint8_t flags)
{
    if (!b->hook)
        return false;
    if (b->hooks_armed && b->initiators[op->initiator].kind == INIT_DEVICE)
        return true;
    return (flags & (op->write ? PF_WATCH_W | PF_TRACK : PF_WATCH_R)) != 0;
}

static uint8_t range_flags(const ram_block *rb, uint64_t off, uint64_t len)
{
    uint8_t f = 0;
    if (len == 0)
        return 0;
    for (uint64_t pg = off >> RAM_PAGE_SHIFT; pg <= (off + len - 1) >> RAM_PAGE_SHIFT; pg++)
        f |= rb->page_flags[pg];
    return f;
}

int bus_access(bus *b, bus_op *op, uint64_t *val)
{
    const bus_region *r = bus_find(b, op->addr);
    if (!r || op->addr + op->size - r->base > r->size)
        return BUS_ERROR;
    uint64_t off = op->addr - r->base;
    if (r->ram) {
        uint64_t roff = r->ram_off + off;
        uint8_t *p = r->ram->host + roff;
        uint8_t f = range_flags(r->ram, roff, op->size);
        if (op->write) {
            if (r->readonly)
                return BUS_ERROR;
            store_be(p, op->size, *val);
            bus_link_store(b, op->initiator, op->addr, op->size);
        } else {
            *val = load_be(p, op->size);
        }
        if (unlikely(f))
            ram_flags_hit(b, op, r->ram, roff);
        if (unlikely(want_hook(b, op, f)))
            b->hook(b->hook_ctx, op);
        return BUS_OK;
    }
    if (unlikely(b->dev_lock != NULL))
        b->dev_lock(b->dev_lock_ctx, op, true);
    int rc = op->write ? (r->ops->write ? r->ops->write(r->opaque, op, off, *val) : BUS_ERROR)
                       : (r->ops->read ? r->ops->read(r->opaque, op, off, val) : BUS_ERROR);
    if (rc == BUS_OK && unlikely(want_hook(b, op, 0)))
        b->hook(b->hook_ctx, op);
    if (unlikely(b->dev_lock != NULL))
        b->dev_lock(b->dev_lock_ctx, op, false);
    return rc;
}

int bus_read(bus *b, int who, uint64_t addr, unsigned size, uint64_t *val)
{
    bus_op op = {.addr = addr, .size = size, .write = 0, .initiator = (uint16_t)who};
    return bus_access(b, &op, val);
}

int bus_write(bus *b, int who, uint64_t addr, unsigned size, uint64_t val)
{
    bus_op op = {.addr = addr, .size = size, .write = 1, .initiator = (uint16_t)who};
    return bus_access(b, &op, &val);
}

/* A block copy is split at region boundaries; RAM parts are memcpy, MMIO
 * parts go as the largest aligned word accesses that fit. */
static int bus_block(bus *b, bus_op *op, uint8_t *rbuf, const uint8_t *wbuf, uint64_t *done)
{
    uint64_t addr = op->addr, left = op->size, pos = 0;
    int rc = BUS_OK;
    while (left) {
        const bus_region *r = bus_find(b, addr);
        if (!r) {
            rc = BUS_ERROR;
            break;
        }
        uint64_t off = addr - r->base;
        uint64_t n = r->size - off < left ? r->size - off : left;
        if (r->ram) {
            uint64_t roff = r->ram_off + off;
            uint8_t *p = r->ram->host + roff;
            if (op->write) {
                if (r->readonly) {
                    rc = BUS_ERROR;
                    break;
                }
                memcpy(p, wbuf + pos, n);
                bus_link_store(b, op->initiator, addr, n);
            } else {
                memcpy(rbuf + pos, p, n);
            }
            uint8_t f = range_flags(r->ram, roff, n);
            bus_op part = *op;
            part.addr = addr;
            part.size = (uint32_t)n;
            if (unlikely(f))
                ram_flags_hit(b, &part, r->ram, roff);
            if (unlikely(want_hook(b, &part, f)))
                b->hook(b->hook_ctx, &part);
        } else {
            uint64_t chunk = 0;
            for (uint64_t i = 0; i < n; i += chunk) {
                chunk = 8;
                while (chunk > 1 && (((addr + i) & (chunk - 1)) || chunk > n - i))
                    chunk >>= 1;
                bus_op part = *op;
                part.addr = addr + i;
                part.size = (uint32_t)chunk;
                uint64_t v = op->write ? load_be(wbuf + pos + i, (unsigned)chunk) : 0;
                if (bus_access(b, &part, &v) != BUS_OK) {
                    pos += i;
                    left = 0;
                    rc = BUS_ERROR;
                    break;
                }
                if (!op->write)
                    store_be(rbuf + pos + i, (unsigned)chunk, v);
            }
            if (rc != BUS_OK)
                break;
        }
        addr += n;
        pos += n;
        left -= n;
    }
    if (done)
        *done = pos;
    return rc;
}

int bus_read_block(bus *b, bus_op *op, void *buf, uint64_t *done)
{
    op->write = 0;
    return bus_block(b, op, buf, NULL, done);
}

int bus_write_block(bus *b, bus_op *op, const void *buf, uint64_t *done)
{
    op->write = 1;
    return bus_block(b, op, NULL, buf, done);
}

static int bus_debug_copy(bus *b, uint64_t addr, uint8_t *rbuf, const uint8_t *wbuf, uint64_t len)
{
    while (len) {
        const bus_region *r = bus_find(b, addr);
        if (!r || !r->ram)
            return BUS_ERROR;
        uint64_t off = addr - r->base;
        uint64_t n = r->size - off < len ? r->size - off : len;
        uint8_t *p = r->ram->host + r->ram_off + off;
        if (wbuf) {
            memcpy(p, wbuf, n);
            ram_mark_dirty(r->ram, r->ram_off + off, n);
            if (range_flags(r->ram, r->ram_off + off, n) & PF_CODE) {
                bus_op op = {.addr = addr, .size = (uint32_t)n, .write = 1};
                ram_flags_hit(b, &op, r->ram, r->ram_off + off);
            }
            wbuf += n;
        } else {
            memcpy(rbuf, p, n);
            rbuf += n;
        }
        addr += n;
        len -= n;
    }
    return BUS_OK;
}

int bus_peek(bus *b, uint64_t addr, void *buf, uint64_t len)
{
    return bus_debug_copy(b, addr, buf, NULL, len);
}

int bus_poke(bus *b, uint64_t addr, const void *buf, uint64_t len)
{
    return bus_debug_copy(b, addr, NULL, buf, len);
}

uint8_t *bus_ram_ptr(bus *b, uint64_t addr, ram_block **rb, uint64_t *rb_off, uint64_t *limit)
{
    const bus_region *r = bus_find(b, addr);
    if (!r || !r->ram)
        return NULL;
    uint64_t off = addr - r->base;
    if (rb)
        *rb = r->ram;
    if (rb_off)
        *rb_off = r->ram_off + off;
    if (limit)
        *limit = r->size - off;
    return r->ram->host + r->ram_off + off;
}

static void page_flags_update(bus *b, ram_block *rb, uint64_t off, uint64_t len, uint8_t flags,
                              bool set)
{
    if (len == 0 || off >= rb->size)
        return;
    if (off + len > rb->size)
        len = rb->size - off;
    bool changed = false;
    for (uint64_t pg = off >> RAM_PAGE_SHIFT; pg <= (off + len - 1) >> RAM_PAGE_SHIFT; pg++) {
        /* Atomic: with --threads, CPU threads set and clear PF_CODE at once. */
        uint8_t old =
            set ? __atomic_fetch_or(&rb->page_flags[pg], flags, __ATOMIC_RELAXED)
                : __atomic_fetch_and(&rb->page_flags[pg], (uint8_t)~flags, __ATOMIC_RELAXED);
        uint8_t neu = set ? (uint8_t)(old | flags) : (uint8_t)(old & ~flags);
        changed |= ((old ^ neu) & ~PF_CODE) != 0;
    }
    if (changed) {
        b->flags_gen++;
        if (b->flags_changed)
            b->flags_changed(b->flags_ctx);
    }
}

void ram_page_flags_set(bus *b, ram_block *rb, uint64_t off, uint64_t len, uint8_t flags)
{
    page_flags_update(b, rb, off, len, flags, true);
}

void ram_page_flags_clear(bus *b, ram_block *rb, uint64_t off, uint64_t len, uint8_t flags)
{
    page_flags_update(b, rb, off, len, flags, false);
}

void ram_clean_all(bus *b)
{
    for (unsigned i = 0; i < b->nrams; i++) {
        ram_block *rb = b->rams[i];
        for (uint64_t pg = 0; pg < rb->size >> RAM_PAGE_SHIFT; pg++)
            rb->page_flags[pg] |= PF_CLEAN;
    }
    /* The CPUs' fast write entries go: the next store to each page is seen.
     * Only those: a full flush (flags_changed) would also end an idle skip,
     * and a run with the history would not be the run without it. */
    if (b->drop_writes)
        b->drop_writes(b->flags_ctx);
}

void ram_clean_off(bus *b)
{
    for (unsigned i = 0; i < b->nrams; i++) {
        ram_block *rb = b->rams[i];
        for (uint64_t pg = 0; pg < rb->size >> RAM_PAGE_SHIFT; pg++)
            rb->page_flags[pg] &= (uint8_t)~PF_CLEAN;
    }
}

const char *bus_addr_str(uint64_t addr, char *buf, size_t len)
{
    static const char *const names[8] = {"cac",   "cac1", "cac2",  "cac3",
                                         "hspec", "io",   "mspec", "uncac"};
    snprintf(buf, len, "%s:0x%010llx", names[bus_space(addr)],
             (unsigned long long)(addr & BUS_PA_MASK));
    return buf;
}

/* ---- hook subscribers ---------------------------------------------------- */

static void hook_dispatch(void *ctx, const bus_op *op)
{
    bus *b = ctx;
    for (unsigned i = 0; i < BUS_MAX_HOOKS; i++)
        if (b->hooks[i].fn)
            b->hooks[i].fn(b->hooks[i].ctx, op);
}

static void hooks_update(bus *b)
{
    bool any = false, devices = false;
    for (unsigned i = 0; i < BUS_MAX_HOOKS; i++) {
        any |= b->hooks[i].fn != NULL;
        devices |= b->hooks[i].fn && b->hooks[i].devices;
    }
    b->hook = any ? hook_dispatch : NULL;
    b->hook_ctx = any ? b : NULL;
    b->hooks_armed = devices;
}

int bus_hook_add(bus *b, bus_hook_fn fn, void *ctx, bool devices)
{
    for (unsigned i = 0; i < BUS_MAX_HOOKS; i++) {
        if (!b->hooks[i].fn) {
            b->hooks[i].fn = fn;
            b->hooks[i].ctx = ctx;
            b->hooks[i].devices = devices;
            hooks_update(b);
            return (int)i;
        }
    }
    return -1;
}

void bus_hook_remove(bus *b, int id)
{
    if (id < 0 || id >= BUS_MAX_HOOKS)
        return;
    b->hooks[id].fn = NULL;
    b->hooks[id].ctx = NULL;
    b->hooks[id].devices = false;
    hooks_update(b);
}

void bus_hook_set_devices(bus *b, int id, bool devices)
{
    if (id < 0 || id >= BUS_MAX_HOOKS || !b->hooks[id].fn)
        return;
    b->hooks[id].devices = devices;
    hooks_update(b);
}
