/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Address translation and the 64-entry joint TLB of the R10000.
 *
 * Segments (R10000 user's manual, ch. 16): the 44-bit virtual address range
 * of xuseg/xsseg/xkseg (VPN2 = VA 43:13, region R = VA 63:62), XKPHYS
 * (VA 63:62 = 2, CCA in 61:59, uncached attribute in 58:57 for uncached
 * CCAs, PA in 39:0, bits 56:40 must be zero), and the 32-bit compatibility
 * segments at the top (ckseg0 cached, ckseg1 uncached attribute 0, cksseg,
 * ckseg3).  With the mode's X bit clear (UX for user, SX supervisor, KX
 * kernel) only the sign-extended 32-bit segments exist.  With ERL set, the
 * low 2 GB of the user segment are unmapped and uncached.
 *
 * Bus addresses: cached CCAs give BUS_CAC(pa); uncached (CCA 2, and CCA 7
 * "uncached accelerated") give BUS_UNC(attr, pa), attr = XKPHYS bits 58:57
 * or EntryLo bits 63:62 (the R10000's UC field) for mapped pages.
 */
#include "cpu/cpu_internal.h"

#define VA_BITS 44
#define R_MASK (3ull << 62)
#define VPN2_MASK (MASK(VA_BITS) & ~0x1fffull)
#define HI_MASK (R_MASK | VPN2_MASK | 0xffull)
#define LO_PFN_MASK (MASK(28) << 6)
#define LO_MASK (LO_PFN_MASK | 0x3full | (3ull << 62))
#define PM_MASK (0xfffull << 13)

static inline bool cca_uncached(unsigned cca) { return cca == 2 || cca == 7; }

/* Mapped translation through the TLB. */
static int tlb_map(const cpu *c, uint64_t va, int acc, uint64_t *bus_addr, bool *cached)
{
    unsigned asid = c->cp0[CP0_ENTRYHI] & 0xff;
    uint64_t key = va & (R_MASK | VPN2_MASK);
    for (unsigned i = 0; i < TLB_ENTRIES; i++) {
        const tlb_entry *e = &c->tlb[i];
        uint64_t m = ~(e->mask | 0x1fffull) & (R_MASK | VPN2_MASK);
        if ((e->hi & m) != (key & m))
            continue;
        bool g = (e->lo[0] & e->lo[1] & 1) != 0;
        if (!g && (e->hi & 0xff) != asid)
            continue;
        uint64_t psize = ((e->mask | 0x1fffull) + 1) >> 1;
        uint64_t lo = e->lo[(va & psize) ? 1 : 0];
        if (!(lo & 2))
            return XL_INVALID;
        if (acc == ACC_STORE && !(lo & 4))
            return XL_MOD;
        uint64_t pa = (((lo & LO_PFN_MASK) >> 6) << 12) & ~(psize - 1);
        pa |= va & (psize - 1);
        pa &= BUS_PA_MASK;
        unsigned cca = (lo >> 3) & 7;
        if (cca_uncached(cca)) {
            *bus_addr = BUS_UNC(lo >> 62, pa);
            *cached = false;
        } else {
            *bus_addr = BUS_CAC(pa);
            *cached = true;
        }
        return XL_OK;
    }
    return XL_REFILL;
}

int cpu_xlate(const cpu *c, uint64_t va, int acc, uint64_t *bus_addr, bool *cached)
{
    int mode = c->mode;
    uint64_t st = c->status;
    *cached = true;
    if (va >= 0xffffffff80000000ull) {
        /* Compatibility segments (or 32-bit kernel/supervisor segments). */
        if (va < 0xffffffffc0000000ull) {
            if (mode != MODE_KERNEL)
                return XL_ADE;
            uint64_t pa = va & 0x1fffffffull;
            if (va < 0xffffffffa0000000ull) {
                unsigned k0 = c->cp0[CP0_CONFIG] & 7;
                *cached = !cca_uncached(k0);
                *bus_addr = *cached ? BUS_CAC(pa) : BUS_UNC(0, pa);
            } else {
                *cached = false;
                *bus_addr = BUS_UNC(0, pa);
            }
            return XL_OK;
        }
        if (va < 0xffffffffe0000000ull) {
            if (mode == MODE_USER)
                return XL_ADE;
        } else if (mode != MODE_KERNEL) {
            return XL_ADE;
        }
        return tlb_map(c, va, acc, bus_addr, cached);
    }
    if (va < 0x80000000ull) {
        /* useg / kuseg / suseg (32-bit part). */
        if ((st & ST_ERL) && mode == MODE_KERNEL) {
            *cached = false;
            *bus_addr = BUS_UNC(0, va);
            return XL_OK;
        }
        return tlb_map(c, va, acc, bus_addr, cached);
    }
    /* The rest only exists in 64-bit mode. */
    bool x64 = mode == MODE_KERNEL  ? (st & ST_KX)
               : mode == MODE_SUPER ? (st & ST_SX)
                                    : (st & ST_UX);
    if (!x64)
        return XL_ADE;
    unsigned region = (unsigned)(va >> 62);
    switch (region) {
    case 0: /* xuseg */
        if (va >> VA_BITS)
            return XL_ADE;
        return tlb_map(c, va, acc, bus_addr, cached);
    case 1: /* xsseg */
        if (mode == MODE_USER || ((va << 2) >> (VA_BITS + 2)))
            return XL_ADE;
        return tlb_map(c, va, acc, bus_addr, cached);
    case 2: { /* xkphys */
        if (mode != MODE_KERNEL)
            return XL_ADE;
        unsigned cca = (va >> 59) & 7;
        uint64_t mid = (va >> 40) & 0x7ffff; /* bits 58:40 */
        if (cca_uncached(cca))
            mid &= ~(3ull << 17);
        if (mid)
            return XL_ADE;
        uint64_t pa = va & BUS_PA_MASK;
        if (cca_uncached(cca)) {
            *cached = false;
            *bus_addr = BUS_UNC((va >> 57) & 3, pa);
        } else {
            *bus_addr = BUS_CAC(pa);
        }
        return XL_OK;
    }
    default: /* xkseg: 0xc000000000000000 .. 0xc0000fff7fffffff */
        if (mode != MODE_KERNEL)
            return XL_ADE;
        if (((va << 2) >> 2) >= (1ull << VA_BITS) - 0x80000000ull)
            return XL_ADE;
        return tlb_map(c, va, acc, bus_addr, cached);
    }
}

/* ---- TLB instructions ---------------------------------------------------- */

unsigned tlb_random(const cpu *c)
{
    unsigned wired = c->cp0[CP0_WIRED] & 63;
    if (wired >= TLB_ENTRIES)
        return TLB_ENTRIES - 1;
    uint64_t n = cpu_now_retired(c) - c->rand_base;
    return TLB_ENTRIES - 1 - (unsigned)(n % (TLB_ENTRIES - wired));
}

void tlb_read(cpu *c)
{
    unsigned i = c->cp0[CP0_INDEX] & 63;
    const tlb_entry *e = &c->tlb[i];
    uint64_t old_asid = c->cp0[CP0_ENTRYHI] & 0xff;
    c->cp0[CP0_ENTRYHI] = e->hi;
    c->cp0[CP0_ENTRYLO0] = e->lo[0];
    c->cp0[CP0_ENTRYLO1] = e->lo[1];
    c->cp0[CP0_PAGEMASK] = e->mask;
    if ((e->hi & 0xff) != old_asid)
        stlb_flush(c);
}

/* Drop the soft-TLB entries an entry may have produced.  Only valid halves
 * ever produced any. */
static void flush_entry(cpu *c, const tlb_entry *e)
{
    if (!((e->lo[0] | e->lo[1]) & 2))
        return;
    uint64_t span = (e->mask | 0x1fffull) + 1;
    uint64_t base = e->hi & (R_MASK | VPN2_MASK) & ~(span - 1);
    if ((base >> 62) == 3 && ((base >> 31) & 0x1fff) == 0x1fff) {
        /* compatibility segment: the virtual addresses are sign-extended */
        base |= 0x3ffff00000000000ull;
    }
    stlb_flush_range(c, base, base + span - 1);
}

void tlb_write(cpu *c, unsigned idx)
{
    /* The new entry needs no flush: soft entries only come from valid
     * translations, and a range that was translatable already through another
     * entry would make a duplicate match (undefined on the R10000). */
    tlb_entry *e = &c->tlb[idx & 63];
    flush_entry(c, e);
    e->mask = c->cp0[CP0_PAGEMASK] & PM_MASK;
    e->hi = c->cp0[CP0_ENTRYHI] & HI_MASK & ~e->mask;
    e->lo[0] = c->cp0[CP0_ENTRYLO0] & LO_MASK;
    e->lo[1] = c->cp0[CP0_ENTRYLO1] & LO_MASK;
}

void tlb_probe(cpu *c)
{
    uint64_t hi = c->cp0[CP0_ENTRYHI];
    unsigned asid = hi & 0xff;
    for (unsigned i = 0; i < TLB_ENTRIES; i++) {
        const tlb_entry *e = &c->tlb[i];
        uint64_t m = ~(e->mask | 0x1fffull) & (R_MASK | VPN2_MASK);
        if ((e->hi & m) != (hi & m))
            continue;
        if (!(e->lo[0] & e->lo[1] & 1) && (e->hi & 0xff) != asid)
            continue;
        c->cp0[CP0_INDEX] = i;
        return;
    }
    c->cp0[CP0_INDEX] = 1ull << 31;
}

void tlb_reset(cpu *c)
{
    /* Every entry invalid and at a distinct CKSEG0 (unmapped) address, the
     * way Linux's local_flush_tlb_all() leaves them: nothing can match. */
    for (unsigned i = 0; i < TLB_ENTRIES; i++) {
        tlb_entry *e = &c->tlb[i];
        e->mask = 0;
        e->hi = (0xffffffff80000000ull + ((uint64_t)i << 13)) & HI_MASK;
        e->lo[0] = e->lo[1] = 0;
    }
}
