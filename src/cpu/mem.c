/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Memory accesses of the R10000: the slow paths behind the inline soft-TLB
 * hits, instruction fetch into decoded pages, and the per-bus CPU group.
 *
 * Fast entries are only made for plain RAM: a page with a CPU data
 * watchpoint, a bus page flag (PF_WATCH_*, PF_TRACK, and PF_CODE for
 * stores), MMIO, an armed CP0 WatchLo, or the ERL user-segment bypass always
 * goes through here.  A page with PF_CLEAN (dirty-page tracking, bus.h) has
 * no fast write entry: its first store comes here, marks it dirty, and
 * makes the entry.  Any bus page-flag change flushes every CPU's soft TLBs.
 *
 * Decoded code: the first time a CPU executes from a RAM page, the group
 * allocates a dpage for it (slots start as OP_DECODE and are decoded on
 * first execution); decoding a slot sets PF_CODE on the page and drops the
 * write fast entries that reach it, so the next store goes through the bus,
 * which calls code_written; that resets the slots to OP_DECODE and clears
 * PF_CODE.  Pages are never freed while the group lives, so a running
 * instruction's slot pointer stays valid even when it overwrites itself.
 */
#include <stdlib.h>

#include "cpu/cpu_internal.h"
#include "cpu/insn.h"
#include "cpu/jit.h"
#include "cpu/ops.h"

/* ---- Soft TLB ---------------------------------------------------------- */

static void stlb_clear(stlb *t)
{
    for (unsigned i = 0; i < STLB_SIZE; i++)
        t[i].tag = STLB_EMPTY;
}

void stlb_flush(cpu *c)
{
    c->flags_gen = c->bus->flags_gen;
    for (unsigned s = 0; s < 3; s++) {
        stlb_clear(c->sets[s].r);
        stlb_clear(c->sets[s].w);
        for (unsigned i = 0; i < STLB_SIZE; i++)
            c->sets[s].x[i].tag = STLB_EMPTY;
    }
    cpu_drop_fpage(c);
    c->stlb_flushes++;
    cpu_kick(c);
}

void stlb_flush_range(cpu *c, uint64_t lo, uint64_t hi)
{
    bool any = false;
    if (hi - lo < 16 * RAM_PAGE_SIZE) {
        /* Small range (the usual 4 KB or 16 KB page pair): look up each page. */
        for (uint64_t va = lo & ~0xfffull; va <= hi; va += RAM_PAGE_SIZE) {
            unsigned i = (va >> RAM_PAGE_SHIFT) & (STLB_SIZE - 1);
            for (unsigned s = 0; s < 3; s++) {
                stlb_set *set = &c->sets[s];
                if (set->r[i].tag == va)
                    set->r[i].tag = STLB_EMPTY;
                if (set->w[i].tag == va)
                    set->w[i].tag = STLB_EMPTY;
                if (set->x[i].tag == va) {
                    set->x[i].tag = STLB_EMPTY;
                    any = true;
                }
            }
            if (va + RAM_PAGE_SIZE < va)
                break;
        }
    } else {
        for (unsigned s = 0; s < 3; s++) {
            for (unsigned i = 0; i < STLB_SIZE; i++) {
                stlb *r = &c->sets[s].r[i], *w = &c->sets[s].w[i];
                if (r->tag != STLB_EMPTY && r->tag >= lo && r->tag <= hi)
                    r->tag = STLB_EMPTY;
                if (w->tag != STLB_EMPTY && w->tag >= lo && w->tag <= hi)
                    w->tag = STLB_EMPTY;
                xtlb *x = &c->sets[s].x[i];
                if (x->tag != STLB_EMPTY && x->tag >= lo && x->tag <= hi) {
                    x->tag = STLB_EMPTY;
                    any = true;
                }
            }
        }
    }
    if (c->fvbase >= lo && c->fvbase <= hi)
        any = true;
    if (any) {
        cpu_drop_fpage(c);
        cpu_kick(c);
    }
}

/* Drop the exec entries of one virtual page (or all of them): the page got
 * a breakpoint or an HLE hook, or the trace hook was set.  Pages like that
 * never have exec entries, so the run loop's inline fetch never finds them
 * and the slow fetch sees every instruction on them. */
void stlb_drop_exec(cpu *c, uint64_t vpage, bool all)
{
    for (unsigned s = 0; s < 3; s++)
        for (unsigned i = 0; i < STLB_SIZE; i++)
            if (all || c->sets[s].x[i].tag == vpage)
                c->sets[s].x[i].tag = STLB_EMPTY;
    cpu_drop_fpage(c);
    cpu_kick(c);
}

void stlb_flush_host_page(cpu *c, const uint8_t *host)
{
    for (unsigned s = 0; s < 3; s++) {
        for (unsigned i = 0; i < STLB_SIZE; i++) {
            stlb *w = &c->sets[s].w[i];
            if (w->tag != STLB_EMPTY && (const uint8_t *)(uintptr_t)(w->tag + w->addend) == host)
                w->tag = STLB_EMPTY;
        }
    }
}

/* Is the access plain RAM covering its whole 4 KB page (so it may get a fast
 * entry, or be done on the host directly)?  *flags gets the page flags. */
static bool ram_page(cpu *c, uint64_t va, bool write, const bus_region **rp, uint64_t bus_addr,
                     uint8_t *flags)
{
    if (c->watch_armed || (c->nwps && cpu_page_watched(c, va & ~0xfffull)))
        return false;
    if ((c->status & ST_ERL) && va < 0x80000000ull)
        return false;
    const bus_region *r = bus_find(c->bus, bus_addr);
    *rp = r;
    if (!r || !r->ram || (write && r->readonly))
        return false;
    uint64_t page = bus_addr & ~0xfffull;
    if (page < r->base || page + RAM_PAGE_SIZE - r->base > r->size)
        return false; /* the region does not cover the whole 4 KB page */
    *flags = ram_page_flags(r->ram, r->ram_off + (page - r->base));
    return true;
}

static bool fast_ok(cpu *c, uint64_t va, bool write, const bus_region **rp, uint64_t bus_addr)
{
    uint8_t f;
    if (!ram_page(c, va, write, rp, bus_addr, &f))
        return false;
    return !(f & (write ? (PF_WATCH_W | PF_TRACK | PF_CODE | PF_CLEAN) : PF_WATCH_R));
}

static void stlb_fill(cpu *c, uint64_t va, bool write, const bus_region *r, uint64_t bus_addr)
{
    uint64_t vpage = va & ~0xfffull;
    uint8_t *host = r->ram->host + r->ram_off + ((bus_addr & ~0xfffull) - r->base);
    unsigned i = (va >> RAM_PAGE_SHIFT) & (STLB_SIZE - 1);
    stlb *e = &(write ? c->st->w : c->st->r)[i];
    e->tag = vpage;
    e->addend = (uintptr_t)host - (uintptr_t)vpage;
    (write ? c->st->wpa : c->st->rpa)[i] = bus_addr & ~0xfffull;
}

/* Translate for a data access, raising the exception on failure. */
static bool data_xlate(cpu *c, uint64_t va, unsigned size, bool write, uint64_t *bus_addr)
{
    if (va & (size - 1)) {
        cpu_exception(c, write ? EXC_ADES : EXC_ADEL, va, true);
        return false;
    }
    bool cached;
    int xl = cpu_xlate(c, va, write ? ACC_STORE : ACC_LOAD, bus_addr, &cached);
    if (xl != XL_OK) {
        cpu_tlb_exception(c, xl, va, write ? ACC_STORE : ACC_LOAD);
        return false;
    }
    if (unlikely(c->watch_armed)) {
        uint64_t wl = c->cp0[CP0_WATCHLO];
        uint64_t wpa = ((c->cp0[CP0_WATCHHI] & 0xff) << 32) | (wl & 0xfffffff8ull);
        if (((*bus_addr & BUS_PA_MASK) & ~7ull) == wpa && (wl & (write ? 1 : 2))) {
            cpu_exception(c, EXC_WATCH, 0, false);
            return false;
        }
    }
    return true;
}

bool mem_load_slow(cpu *c, uint64_t va, unsigned size, uint64_t *val)
{
    uint64_t ba;
    if (!data_xlate(c, va, size, false, &ba))
        return false;
    const bus_region *r = NULL;
    if (fast_ok(c, va, false, &r, ba)) {
        stlb_fill(c, va, false, r, ba);
        *val = insn_host_load(r->ram->host + r->ram_off + (ba - r->base), size);
    } else {
        bus_op op = {.addr = ba, .size = size, .write = 0, .initiator = (uint16_t)c->initiator};
        c->rs.bus_accesses++;
        if (bus_access(c->bus, &op, val) != BUS_OK) {
            cpu_exception(c, EXC_DBE, va, false);
            return false;
        }
        if (c->nwps)
            cpu_check_watch(c, va, ba, size, false, *val);
    }
    return true;
}

static void group_invalidate(cpu_group *g, ram_block *rb, uint64_t off, unsigned len);
static cpu_group *group_head(const cpu *c);

/* A threaded CPU's store into decoded code: the other CPUs' groups drop the
 * page (their own translations of it). */
static void others_code_written(cpu *c, ram_block *rb, uint64_t off)
{
    for (cpu_group *g = group_head(c); g; g = g->next) {
        if (g == c->group)
            continue;
        for (unsigned i = 0; i < g->ncpus; i++) {
            if (cpu_is_remote(g->cpus[i]))
                cpu_post_code_written(g->cpus[i], rb, off & ~0xfffull);
            else
                group_code_written_one(g, rb, off & ~0xfffull);
        }
    }
}

/* SC with threads: the store happens only if the word still holds what LL
 * read, in one host compare-and-swap (another CPU's plain store in between
 * that left the same value is not seen: QEMU's ABA caveat).  1 stored, 0
 * failed. */
static int sc_cas(cpu *c, uint8_t *p, unsigned size, uint64_t val)
{
    if (size == 4) {
        uint32_t old = __builtin_bswap32((uint32_t)c->ll_value);
        uint32_t neu = __builtin_bswap32((uint32_t)val);
        return __atomic_compare_exchange_n((uint32_t *)p, &old, neu, false, __ATOMIC_SEQ_CST,
                                           __ATOMIC_SEQ_CST);
    }
    uint64_t old = __builtin_bswap64(c->ll_value), neu = __builtin_bswap64(val);
    return __atomic_compare_exchange_n((uint64_t *)p, &old, neu, false, __ATOMIC_SEQ_CST,
                                       __ATOMIC_SEQ_CST);
}

bool mem_store_slow(cpu *c, uint64_t va, unsigned size, uint64_t val)
{
    uint64_t ba;
    if (!data_xlate(c, va, size, true, &ba))
        return false;
    const bus_region *r = NULL;
    uint8_t f = 0;
    if (ram_page(c, va, true, &r, ba, &f) && !(f & (PF_WATCH_W | PF_TRACK))) {
        uint64_t off = r->ram_off + (ba - r->base);
        insn_host_store(r->ram->host + off, size, val);
        bus_link_store(c->bus, c->initiator, ba, size);
        if (f & PF_CLEAN) /* the first store since the history's last snapshot */
            ram_mark_dirty(r->ram, off, size);
        if (f & PF_CODE) {
            group_invalidate(c->group, r->ram, off, size); /* page stays slow for stores */
            if (unlikely(c->threaded))
                others_code_written(c, r->ram, off);
        } else
            stlb_fill(c, va, true, r, ba);
        return true;
    }
    bus_op op = {.addr = ba, .size = size, .write = 1, .initiator = (uint16_t)c->initiator};
    c->rs.bus_accesses++;
    if (bus_access(c->bus, &op, &val) != BUS_OK) {
        cpu_exception(c, EXC_DBE, va, false);
        return false;
    }
    if (c->nwps)
        cpu_check_watch(c, va, ba, size, true, val);
    return true;
}

bool mem_load_aligned(cpu *c, uint64_t va, unsigned size, uint64_t *val)
{
    uint8_t *p = stlb_lookup(c->st->r, va & ~(uint64_t)(size - 1), size);
    if (likely(p != NULL)) {
        *val = insn_host_load(p, size);
        return true;
    }
    /* Faults are reported with the unaligned address. */
    uint64_t ba;
    if (!data_xlate(c, va, 1, false, &ba))
        return false;
    return mem_load_slow(c, va & ~(uint64_t)(size - 1), size, val);
}

/* Store the bytes of `val` selected by `mask` into the aligned word at va. */
bool mem_store_merge(cpu *c, uint64_t va, unsigned size, uint64_t val, uint64_t mask)
{
    uint8_t *p = stlb_lookup(c->st->w, va & ~(uint64_t)(size - 1), size);
    if (likely(p != NULL)) {
        uint64_t old = insn_host_load(p, size);
        insn_host_store(p, size, (old & ~mask) | (val & mask));
        fast_store_link(c, va, size);
        return true;
    }
    /* Read-modify-write through the slow path (translation faults are
     * reported as for a store). */
    uint64_t ba;
    if (!data_xlate(c, va, 1, true, &ba))
        return false;
    va &= ~(uint64_t)(size - 1);
    ba &= ~(uint64_t)(size - 1);
    uint64_t old;
    bus_op op = {.addr = ba, .size = size, .write = 0, .initiator = (uint16_t)c->initiator};
    if (mask != MASK(size * 8)) {
        if (bus_access(c->bus, &op, &old) != BUS_OK) {
            cpu_exception(c, EXC_DBE, va, false);
            return false;
        }
    } else {
        old = 0;
    }
    return mem_store_slow(c, va, size, (old & ~mask) | (val & mask));
}

/* LL and SC: a fast soft-TLB entry means the access is aligned, translated,
 * plain RAM and not watched, and it knows the bus address for the link. */
bool mem_ll(cpu *c, uint64_t va, unsigned size, uint64_t *val)
{
    uint64_t ba;
    unsigned i = (va >> RAM_PAGE_SHIFT) & (STLB_SIZE - 1);
    stlb *e = &c->st->r[i];
    if (STLB_HIT(e, va, size)) {
        *val = insn_host_load(STLB_HOST(e, va), size);
        ba = c->st->rpa[i] | (va & 0xfff);
    } else {
        if (!data_xlate(c, va, size, false, &ba))
            return false;
        if (!mem_load_slow(c, va, size, val))
            return false;
    }
    c->llbit = true;
    c->lladdr_bus = ba;
    c->cp0[CP0_LLADDR] = (ba & BUS_PA_MASK) >> 4;
    if (unlikely(c->threaded)) { /* SC compares and swaps (sc_cas) */
        c->ll_value = *val;
        c->ll_size = size;
        return true;
    }
    bus_link_set(c->bus, c->initiator, ba);
    return true;
}

/* SC on a threaded CPU (mem_sc). */
static int sc_threaded(cpu *c, uint64_t va, unsigned size, uint64_t val, uint64_t ba, bool fast)
{
    bool ok = c->llbit && c->ll_size == size && ((ba ^ c->lladdr_bus) & BUS_PA_MASK) == 0;
    c->llbit = false;
    if (!ok)
        return 0;
    if (fast) {
        stlb *e = &c->st->w[(va >> RAM_PAGE_SHIFT) & (STLB_SIZE - 1)];
        return sc_cas(c, STLB_HOST(e, va), size, val);
    }
    const bus_region *r = bus_find(c->bus, ba);
    if (!r || !r->ram || r->readonly || ba + size - r->base > r->size)
        return mem_store_slow(c, va, size, val) ? 1 : -1; /* a device: no atomicity to keep */
    uint64_t off = r->ram_off + (ba - r->base);
    uint8_t f = ram_page_flags(r->ram, off);
    if (f & (PF_WATCH_W | PF_TRACK)) /* the debugger watches it: its slow path */
        return mem_store_slow(c, va, size, val) ? 1 : -1;
    if (!sc_cas(c, r->ram->host + off, size, val))
        return 0;
    if (c->nwps) /* a debugger watchpoint (ram_page keeps such pages slow) */
        cpu_check_watch(c, va, ba, size, true, val);
    if (f & PF_CLEAN)
        ram_mark_dirty(r->ram, off, size);
    if (f & PF_CODE) {
        group_invalidate(c->group, r->ram, off, size);
        others_code_written(c, r->ram, off);
    }
    return 1;
}

int mem_sc(cpu *c, uint64_t va, unsigned size, uint64_t val)
{
    uint64_t ba;
    unsigned i = (va >> RAM_PAGE_SHIFT) & (STLB_SIZE - 1);
    stlb *e = &c->st->w[i];
    bool fast = STLB_HIT(e, va, size);
    if (fast)
        ba = c->st->wpa[i] | (va & 0xfff);
    else if (!data_xlate(c, va, size, true, &ba))
        return -1;
    if (unlikely(c->threaded))
        return sc_threaded(c, va, size, val, ba, fast);
    bool ok = c->llbit && bus_link_valid(c->bus, c->initiator, ba) &&
              ((ba ^ c->lladdr_bus) & BUS_PA_MASK) >> BUS_LINK_SHIFT == 0;
    c->llbit = false;
    bus_link_clear(c->bus, c->initiator);
    if (!ok)
        return 0;
    if (fast) {
        insn_host_store(STLB_HOST(e, va), size, val);
        bus_link_store(c->bus, c->initiator, ba, size);
        return 1;
    }
    if (!mem_store_slow(c, va, size, val))
        return -1;
    return 1;
}

void cpu_link_store_va(cpu *c, uint64_t va, unsigned size)
{
    uint64_t ba;
    bool cached;
    if (cpu_xlate(c, va, ACC_STORE, &ba, &cached) == XL_OK)
        bus_link_store(c->bus, c->initiator, ba, size);
}

/* ---- The CPU group and decoded pages ------------------------------------ */

void group_code_written_one(cpu_group *g, ram_block *rb, uint64_t page)
{
    for (unsigned i = 0; i < g->b->nrams && i < 8; i++) {
        if (g->b->rams[i] != rb)
            continue;
        uint64_t pg = page >> RAM_PAGE_SHIFT;
        if (g->pages[i] && pg < g->npages[i] && g->pages[i][pg]) {
            dpage *p = g->pages[i][pg];
            for (unsigned k = 0; k < DPAGE_INSNS; k++)
                p->insn[k].op = OP_DECODE;
            jit_invalidate(g, p, 0, DPAGE_INSNS - 1);
        }
    }
}

/* Every group (one, or one per CPU with threads): a group whose CPU runs
 * on another host thread gets a post instead (xthread.c). */
static void group_code_written(void *ctx, ram_block *rb, uint64_t page)
{
    for (cpu_group *g = ctx; g; g = g->next) {
        if (g->ncpus == 1 && cpu_is_remote(g->cpus[0]))
            cpu_post_code_written(g->cpus[0], rb, page);
        else
            group_code_written_one(g, rb, page);
    }
    cpu_group *g = ctx;
    ram_page_flags_clear(g->b, rb, page, RAM_PAGE_SIZE, PF_CODE);
}

static void group_flags_changed(void *ctx)
{
    for (cpu_group *g = ctx; g; g = g->next) {
        for (unsigned i = 0; i < g->ncpus; i++) {
            if (cpu_is_remote(g->cpus[i])) {
                cpu_post_flush(g->cpus[i]);
                continue;
            }
            stlb_flush(g->cpus[i]);
            cpu_wait_debug_changed(g->cpus[i]);
        }
    }
}

static void group_drop_writes(void *ctx)
{
    for (cpu_group *g = ctx; g; g = g->next)
        for (unsigned i = 0; i < g->ncpus; i++) {
            if (cpu_is_remote(g->cpus[i])) {
                cpu_post_flush(g->cpus[i]);
                continue;
            }
            for (unsigned s = 0; s < 3; s++)
                stlb_clear(g->cpus[i]->sets[s].w);
        }
}

void cpu_group_join(cpu *c)
{
    bus *b = c->bus;
    cpu_group *g;
    if (b->code_written == group_code_written) {
        g = b->code_ctx;
    } else {
        g = xcalloc(1, sizeof *g);
        g->b = b;
        b->code_written = group_code_written;
        b->code_ctx = g;
        b->flags_changed = group_flags_changed;
        b->drop_writes = group_drop_writes;
        b->flags_ctx = g;
    }
    if (g->ncpus >= GROUP_MAX_CPUS)
        abort();
    g->cpus[g->ncpus++] = c;
    c->group = g;
}

/* The first group of the bus (the others follow it, cpu_group_own). */
static cpu_group *group_head(const cpu *c)
{
    bus *b = c->group->b;
    return b->code_written == group_code_written ? b->code_ctx : c->group;
}

/* Give c a group of its own (threads: only its thread touches its decoded
 * pages and translated code), chained after the bus's first group. */
void cpu_group_own(cpu *c)
{
    cpu_group *g = c->group;
    if (!g || g->ncpus == 1)
        return;
    for (unsigned i = 0; i < g->ncpus; i++) {
        if (g->cpus[i] == c) {
            g->cpus[i] = g->cpus[--g->ncpus];
            break;
        }
    }
    cpu_group *n = xcalloc(1, sizeof *n);
    n->b = g->b;
    n->cpus[n->ncpus++] = c;
    cpu_group *head = g->b->code_ctx;
    n->next = head->next;
    head->next = n;
    c->group = n;
}

void cpu_group_leave(cpu *c)
{
    cpu_group *g = c->group;
    if (!g)
        return;
    for (unsigned i = 0; i < g->ncpus; i++) {
        if (g->cpus[i] == c) {
            g->cpus[i] = g->cpus[--g->ncpus];
            break;
        }
    }
    c->group = NULL;
    if (g->ncpus)
        return;
    cpu_group *head = g->b->code_written == group_code_written ? g->b->code_ctx : NULL;
    if (head && head != g) { /* one of the chain (cpu_group_own): unlink it */
        cpu_group *p = head;
        while (p->next && p->next != g)
            p = p->next;
        if (p->next == g)
            p->next = g->next;
        head = NULL;
    } else if (head && g->next) { /* the head: the next group takes the bus */
        g->b->code_ctx = g->next;
        g->b->flags_ctx = g->next;
        head = NULL;
    }
    jit_group_free(g);
    for (unsigned i = 0; i < 8; i++) {
        if (!g->pages[i])
            continue;
        for (uint64_t k = 0; k < g->npages[i]; k++)
            free(g->pages[i][k]);
        free(g->pages[i]);
    }
    if (head) {
        g->b->code_written = NULL;
        g->b->code_ctx = NULL;
        g->b->flags_changed = NULL;
        g->b->drop_writes = NULL;
        g->b->flags_ctx = NULL;
    }
    free(g);
}

/* A CPU store into decoded code: only the slots it touched are re-decoded. */
static void group_invalidate(cpu_group *g, ram_block *rb, uint64_t off, unsigned len)
{
    for (unsigned i = 0; i < g->b->nrams && i < 8; i++) {
        if (g->b->rams[i] != rb || !g->pages[i])
            continue;
        uint64_t pg = off >> RAM_PAGE_SHIFT;
        if (pg >= g->npages[i] || !g->pages[i][pg])
            return;
        dpage *p = g->pages[i][pg];
        unsigned lo = (unsigned)((off & 0xfff) >> 2),
                 hi = (unsigned)(((off & 0xfff) + len - 1) >> 2);
        if (hi >= DPAGE_INSNS)
            hi = DPAGE_INSNS - 1;
        for (unsigned k = lo; k <= hi; k++)
            p->insn[k].op = OP_DECODE;
        jit_invalidate(g, p, lo, hi);
        return;
    }
}

/* A decoded page: every slot OP_DECODE (0), then the OP_REFETCH sentinel. */
dpage *dpage_new(void)
{
    dpage *p = xcalloc(1, sizeof *p);
    p->insn[DPAGE_INSNS].op = OP_REFETCH;
    p->jtab = (struct jit_block **)jit_no_blocks;
    return p;
}

static dpage *group_page(cpu_group *g, ram_block *rb, uint64_t off)
{
    unsigned i;
    for (i = 0; i < g->b->nrams && i < 8; i++)
        if (g->b->rams[i] == rb)
            break;
    if (i >= g->b->nrams || i >= 8)
        return NULL;
    if (!g->pages[i]) {
        g->npages[i] = rb->size >> RAM_PAGE_SHIFT;
        g->pages[i] = xcalloc(g->npages[i], sizeof(dpage *));
    }
    uint64_t pg = off >> RAM_PAGE_SHIFT;
    if (pg >= g->npages[i])
        return NULL;
    if (!g->pages[i][pg]) {
        dpage *p = dpage_new();
        p->rb = rb;
        p->off = pg << RAM_PAGE_SHIFT;
        p->host = rb->host + p->off;
        g->pages[i][pg] = p;
    }
    return g->pages[i][pg];
}

void dpage_decode_slot(cpu *c, dpage *p, dinsn *d)
{
    if (!(ram_page_flags(p->rb, p->off) & PF_CODE)) {
        ram_page_flags_set(c->bus, p->rb, p->off, RAM_PAGE_SIZE, PF_CODE);
        for (cpu_group *g = group_head(c); g; g = g->next)
            for (unsigned i = 0; i < g->ncpus; i++) {
                if (cpu_is_remote(g->cpus[i]))
                    cpu_post_flush(g->cpus[i]); /* (a whole flush: rare) */
                else
                    stlb_flush_host_page(g->cpus[i], p->host);
            }
    }
    unsigned k = (unsigned)(d - p->insn);
    cpu_decode(ldbe32(p->host + 4 * k), d);
    if (op_is_branch(d->op)) {
        int64_t t = (int64_t)k + 1 + (d->imm >> 2); /* target slot */
        if (k + 2 <= DPAGE_INSNS && t >= 0 && t < DPAGE_INSNS)
            d->flags |= DF_LOCAL;
    }
}

/* Fetch the instruction at pc when the current page does not cover it.
 * Returns the slot to execute, or NULL when an exception was taken (or the
 * run must stop: c->stop set). */
dinsn *cpu_fetch_slow(cpu *c, uint64_t pc)
{
    cpu_drop_fpage(c);
    if (pc & 3) {
        cpu_exception(c, EXC_ADEL, pc, true);
        return NULL;
    }
    uint64_t vpage = pc & ~0xfffull;
    bool special = (c->nbps || c->nhles || c->trace || c->nidle_pts || c->probe.on) &&
                   cpu_page_special(c, vpage);
    xtlb *x = &c->st->x[(pc >> RAM_PAGE_SHIFT) & (STLB_SIZE - 1)];
    dpage *p = NULL;
    if (x->tag == vpage) {
        p = x->page;
    } else {
        uint64_t ba;
        bool cached;
        int xl = cpu_xlate(c, pc, ACC_FETCH, &ba, &cached);
        if (xl != XL_OK) {
            cpu_tlb_exception(c, xl, pc, ACC_FETCH);
            return NULL;
        }
        const bus_region *r = bus_find(c->bus, ba);
        if (r && r->ram && ba + 4 - r->base <= r->size) {
            uint64_t off = r->ram_off + (ba - r->base);
            uint64_t bpage = ba & ~0xfffull;
            bool whole = (off & 0xfff) == (ba & 0xfff) && bpage >= r->base &&
                         bpage + RAM_PAGE_SIZE - r->base <= r->size;
            if (whole)
                p = group_page(c->group, r->ram, off & ~0xfffull);
            if (!p) {
                cpu_decode(ldbe32(r->ram->host + off), &c->tmp[0]);
                return &c->tmp[0];
            }
            if (!special && !((c->status & ST_ERL) && pc < 0x80000000ull)) {
                x->tag = vpage;
                x->page = p;
            }
        } else {
            uint64_t w;
            bus_op op = {.addr = ba, .size = 4, .write = 0, .initiator = (uint16_t)c->initiator};
            if (bus_access(c->bus, &op, &w) != BUS_OK) {
                cpu_exception(c, EXC_IBE, pc, false);
                return NULL;
            }
            cpu_decode((uint32_t)w, &c->tmp[0]);
            return &c->tmp[0];
        }
    }
    c->fpage_last = p;
    if (!special || !(c->trace || c->probe.on)) {
        /* The current page; one with breakpoints or HLE hooks checks the
         * slots marked in spec_bits (the trace hook wants every instruction
         * through here: then no page is current). */
        c->fvbase = vpage;
        c->fpage = p;
        c->fspecial = special;
        if (special)
            cpu_special_bits(c, vpage);
    }
    return &p->insn[(pc & 0xfff) >> 2];
}

void cpu_memory_replaced(cpu *c)
{
    if (!c->group) {
        stlb_flush(c);
        return;
    }
    for (cpu_group *g = group_head(c); g; g = g->next) {
        for (unsigned i = 0; i < g->b->nrams && i < 8; i++) {
            ram_block *rb = g->b->rams[i];
            for (uint64_t pg = 0; g->pages[i] && pg < g->npages[i]; pg++) {
                dpage *p = g->pages[i][pg];
                if (!p)
                    continue;
                for (unsigned k = 0; k < DPAGE_INSNS; k++)
                    p->insn[k].op = OP_DECODE;
                jit_invalidate(g, p, 0, DPAGE_INSNS - 1);
            }
            ram_page_flags_clear(g->b, rb, 0, rb->size, PF_CODE);
        }
        if (g->jit)
            jit_flush(g);
        for (unsigned i = 0; i < g->ncpus; i++)
            stlb_flush(g->cpus[i]);
    }
}
