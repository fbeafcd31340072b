/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Debugger support: breakpoints, data watchpoints, HLE hooks, the trace
 * hook, side-effect-free translation and memory access, and the register
 * and TLB views.
 *
 * Breakpoints and HLE hooks cost nothing on other pages: the fetch slow
 * path refuses to make a page with one "current" (cpu_page_special), so
 * only instructions on such pages pay for the lookup.  Watchpoints keep
 * their pages out of the data soft TLB (cpu_page_watched) and are checked
 * in the slow path after the access.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "cpu/cpu_internal.h"

/* ---- Breakpoints ---------------------------------------------------------- */

bool cpu_bp_at(const cpu *c, uint64_t pc)
{
    for (unsigned i = 0; i < c->nbps; i++)
        if (c->bps[i] == pc)
            return true;
    return false;
}

const cpu_hle *cpu_hle_at(const cpu *c, uint64_t pc)
{
    for (unsigned i = 0; i < c->nhles; i++)
        if (c->hles[i].vaddr == pc)
            return &c->hles[i];
    return NULL;
}

bool cpu_page_special(const cpu *c, uint64_t vpage)
{
    if (c->trace || c->probe.on)
        return true;
    for (unsigned i = 0; i < c->nidle_pts; i++)
        if ((c->idle_pts[i] & ~0xfffull) == vpage)
            return true;
    for (unsigned i = 0; i < c->nbps; i++)
        if ((c->bps[i] & ~0xfffull) == vpage)
            return true;
    for (unsigned i = 0; i < c->nhles; i++)
        if ((c->hles[i].vaddr & ~0xfffull) == vpage)
            return true;
    return false;
}

/* The slots of vpage that have a breakpoint or an HLE hook. */
void cpu_special_bits(cpu *c, uint64_t vpage)
{
    memset(c->spec_bits, 0, sizeof c->spec_bits);
    for (unsigned i = 0; i < c->nbps; i++)
        if ((c->bps[i] & ~0xfffull) == vpage)
            c->spec_bits[(c->bps[i] & 0xfff) >> 8] |= 1ull << ((c->bps[i] >> 2) & 63);
    for (unsigned i = 0; i < c->nhles; i++)
        if ((c->hles[i].vaddr & ~0xfffull) == vpage)
            c->spec_bits[(c->hles[i].vaddr & 0xfff) >> 8] |= 1ull << ((c->hles[i].vaddr >> 2) & 63);
    for (unsigned i = 0; i < c->nidle_pts; i++)
        if ((c->idle_pts[i] & ~0xfffull) == vpage)
            c->spec_bits[(c->idle_pts[i] & 0xfff) >> 8] |= 1ull << ((c->idle_pts[i] >> 2) & 63);
}

int cpu_bp_insert(cpu *c, uint64_t vaddr)
{
    if (cpu_bp_at(c, vaddr))
        return 0;
    if (c->nbps == c->bpcap) {
        unsigned cap = c->bpcap ? c->bpcap * 2 : 8;
        c->bps = xrealloc(c->bps, cap * sizeof *c->bps);
        c->bpcap = cap;
    }
    c->bps[c->nbps++] = vaddr;
    stlb_drop_exec(c, vaddr & ~0xfffull, false);
    cpu_wait_debug_changed(c);
    return 0;
}

int cpu_bp_remove(cpu *c, uint64_t vaddr)
{
    for (unsigned i = 0; i < c->nbps; i++) {
        if (c->bps[i] == vaddr) {
            c->bps[i] = c->bps[--c->nbps];
            stlb_drop_exec(c, vaddr & ~0xfffull, false); /* refetch: maybe no longer special */
            return 0;
        }
    }
    return -1;
}

int cpu_hle_register(cpu *c, uint64_t vaddr, cpu_hle_fn fn, void *ctx)
{
    c->hles = xrealloc(c->hles, (c->nhles + 1) * sizeof *c->hles);
    c->hles[c->nhles++] = (cpu_hle){vaddr, fn, ctx};
    stlb_drop_exec(c, vaddr & ~0xfffull, false);
    return 0;
}

void cpu_set_trace(cpu *c, cpu_trace_fn fn, void *ctx)
{
    c->trace = fn;
    c->trace_ctx = ctx;
    stlb_drop_exec(c, 0, true);
    if (fn)
        cpu_wait_debug_changed(c);
}

/* ---- Sampling ---------------------------------------------------------------- */

/* The next gap: period/2 .. 3*period/2, from a xorshift of the CPU's own. */
static uint64_t sample_gap(cpu *c)
{
    uint64_t x = c->sample_rng;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    c->sample_rng = x;
    uint64_t p = c->sample_period;
    return p / 2 + x % (p ? p : 1) + 1;
}

void cpu_set_sampler(cpu *c, uint64_t period, cpu_sample_fn fn, void *ctx)
{
    c->sample_fn = period ? fn : NULL;
    c->sample_ctx = ctx;
    c->sample_period = period;
    c->sample_rng = 0x9e3779b97f4a7c15ull * (uint64_t)(c->index + 1);
    c->sample_at = cpu_now_retired(c) - c->waited + sample_gap(c);
    cpu_kick(c);
}

/* The run loop is at a sample point (executed >= sample_at). */
void cpu_sample(cpu *c, uint64_t executed)
{
    while (c->sample_at <= executed)
        c->sample_at += sample_gap(c);
    c->sample_fn(c->sample_ctx, c, c->pc, c->mode);
}

/* ---- Watchpoints ------------------------------------------------------------ */

bool cpu_page_watched(const cpu *c, uint64_t vpage)
{
    for (unsigned i = 0; i < c->nwps; i++) {
        const cpu_wp *w = &c->wps[i];
        if (w->addr <= vpage + RAM_PAGE_SIZE - 1 && vpage <= w->addr + w->len - 1)
            return true;
    }
    return false;
}

int cpu_wp_insert(cpu *c, uint64_t vaddr, uint64_t len, int type)
{
    if (len == 0 || !(type & WATCH_ACCESS))
        return -1;
    if (c->nwps == c->wpcap) {
        unsigned cap = c->wpcap ? c->wpcap * 2 : 8;
        c->wps = xrealloc(c->wps, cap * sizeof *c->wps);
        c->wpcap = cap;
    }
    int id = c->next_wp_id++;
    c->wps[c->nwps++] = (cpu_wp){id, vaddr, len, type};
    stlb_flush(c);
    cpu_wait_debug_changed(c);
    return id;
}

void cpu_wp_remove(cpu *c, int id)
{
    for (unsigned i = 0; i < c->nwps; i++) {
        if (c->wps[i].id == id) {
            c->wps[i] = c->wps[--c->nwps];
            stlb_flush(c);
            return;
        }
    }
}

const cpu_watch_hit *cpu_watch_hit_info(const cpu *c) { return &c->hit; }

void cpu_check_watch(cpu *c, uint64_t va, uint64_t bus_addr, unsigned size, bool write,
                     uint64_t value)
{
    for (unsigned i = 0; i < c->nwps; i++) {
        const cpu_wp *w = &c->wps[i];
        if (!(w->type & (write ? WATCH_WRITE : WATCH_READ)))
            continue;
        if (va + size - 1 < w->addr || va > w->addr + w->len - 1)
            continue;
        c->hit = (cpu_watch_hit){.vaddr = va,
                                 .bus_addr = bus_addr,
                                 .size = size,
                                 .write = write,
                                 .value = value,
                                 .pc = c->pc,
                                 .id = w->id};
        c->stop = CPU_WATCH;
        cpu_kick(c);
        return;
    }
}

/* ---- Debugger translation and memory --------------------------------------- */

int cpu_translate(const cpu *c, uint64_t vaddr, bool write, uint64_t *bus_addr)
{
    bool cached;
    return cpu_xlate(c, vaddr, write ? ACC_STORE : ACC_LOAD, bus_addr, &cached) == XL_OK ? 0 : -1;
}

static uint64_t virt_copy(cpu *c, uint64_t vaddr, uint8_t *rbuf, const uint8_t *wbuf, uint64_t len)
{
    uint64_t done = 0;
    while (done < len) {
        uint64_t va = vaddr + done;
        uint64_t n = RAM_PAGE_SIZE - (va & 0xfff);
        if (n > len - done)
            n = len - done;
        uint64_t ba;
        if (cpu_translate(c, va, wbuf != NULL, &ba) != 0)
            break;
        int rc = wbuf ? bus_poke(c->bus, ba, wbuf + done, n) : bus_peek(c->bus, ba, rbuf + done, n);
        if (rc != BUS_OK)
            break;
        done += n;
    }
    return done;
}

uint64_t cpu_read_virt(cpu *c, uint64_t vaddr, void *buf, uint64_t len)
{
    return virt_copy(c, vaddr, buf, NULL, len);
}

uint64_t cpu_write_virt(cpu *c, uint64_t vaddr, const void *buf, uint64_t len)
{
    return virt_copy(c, vaddr, NULL, buf, len);
}

/* ---- Views ----------------------------------------------------------------- */

void cpu_decode_status(uint64_t st, strbuf *out)
{
    static const char *const ksu[4] = {"kernel", "supervisor", "user", "ksu3"};
    sb_printf(out, "0x%08" PRIx64 " <", st);
    if (st & ST_CU0)
        sb_puts(out, "CU0 ");
    if (st & ST_CU1)
        sb_puts(out, "CU1 ");
    if (st & ST_CU2)
        sb_puts(out, "CU2 ");
    if (st & ST_XX)
        sb_puts(out, "XX ");
    if (st & ST_FR)
        sb_puts(out, "FR ");
    if (st & ST_BEV)
        sb_puts(out, "BEV ");
    if (st & ST_TS)
        sb_puts(out, "TS ");
    if (st & ST_SR)
        sb_puts(out, "SR ");
    if (st & ST_NMI)
        sb_puts(out, "NMI ");
    if (st & ST_CH)
        sb_puts(out, "CH ");
    if (st & ST_CE)
        sb_puts(out, "CE ");
    if (st & ST_DE)
        sb_puts(out, "DE ");
    sb_printf(out, "IM=0x%02x ", (unsigned)((st >> 8) & 0xff));
    if (st & ST_KX)
        sb_puts(out, "KX ");
    if (st & ST_SX)
        sb_puts(out, "SX ");
    if (st & ST_UX)
        sb_puts(out, "UX ");
    sb_printf(out, "%s", ksu[(st >> 3) & 3]);
    if (st & ST_ERL)
        sb_puts(out, " ERL");
    if (st & ST_EXL)
        sb_puts(out, " EXL");
    if (st & ST_IE)
        sb_puts(out, " IE");
    sb_puts(out, ">");
}

extern const char *const *cpu_exc_names;

void cpu_decode_cause(uint64_t cause, strbuf *out)
{
    unsigned code = (cause >> 2) & 31;
    sb_printf(out, "0x%08" PRIx64 " <%s%s CE=%u IP=0x%02x>", cause, cause & CAUSE_BD ? "BD " : "",
              cpu_exc_names[code], (unsigned)((cause >> CAUSE_CE_SHIFT) & 3),
              (unsigned)((cause >> 8) & 0xff));
}

void cpu_show_regs(const cpu *c, strbuf *out)
{
    for (unsigned i = 0; i < 32; i += 4) {
        for (unsigned j = i; j < i + 4; j++)
            sb_printf(out, "%-4s %016" PRIx64 "%s", cpu_gpr_names[j], c->gpr[j],
                      j == i + 3 ? "\n" : "  ");
    }
    sb_printf(out, "pc   %016" PRIx64 "%s  hi %016" PRIx64 "  lo %016" PRIx64 "\n", c->pc,
              c->dly ? " (delay slot)" : "", c->hi, c->lo);
    cpu_show_cp0_regs(c, out);
}

void cpu_show_cp0_regs(const cpu *c, strbuf *out)
{
    sb_puts(out, "Status   ");
    cpu_decode_status(c->status, out);
    sb_puts(out, "\nCause    ");
    cpu_decode_cause(c->cause, out);
    sb_printf(out,
              "\nEPC      %016" PRIx64 "  ErrorEPC %016" PRIx64 "  BadVAddr %016" PRIx64
              "\nEntryHi  %016" PRIx64 "  Count    %08" PRIx64 "          Compare  %08" PRIx64 "\n",
              c->cp0[CP0_EPC], c->cp0[CP0_ERROREPC], c->cp0[CP0_BADVADDR], c->cp0[CP0_ENTRYHI],
              cp0_read((cpu *)c, CP0_COUNT, 0), (uint64_t)c->compare);
}

void cpu_show_fpu(const cpu *c, strbuf *out)
{
    for (unsigned i = 0; i < 32; i++)
        sb_printf(out, "f%-2u %016" PRIx64 "%s", i, c->fpu.fpr[i], (i & 3) == 3 ? "\n" : "  ");
    sb_printf(out, "fcsr %08x  fir %08x  cc=", c->fpu.fcsr, c->fpu.fir);
    for (unsigned cc = 0; cc < 8; cc++)
        sb_putc(out, fpu_cc(&c->fpu, cc) ? '1' : '0');
    sb_putc(out, '\n');
}

void cpu_show_tlb(const cpu *c, strbuf *out)
{
    sb_printf(out,
              "Index %" PRIu64 "  Random %u  Wired %" PRIu64 "  EntryHi %016" PRIx64
              "  PageMask %08" PRIx64 "\n",
              c->cp0[CP0_INDEX], tlb_random(c), c->cp0[CP0_WIRED], c->cp0[CP0_ENTRYHI],
              c->cp0[CP0_PAGEMASK]);
    for (unsigned i = 0; i < TLB_ENTRIES; i++) {
        const tlb_entry *e = &c->tlb[i];
        if (!((e->lo[0] | e->lo[1]) & 2))
            continue; /* neither half valid */
        uint64_t size = ((e->mask | 0x1fffull) + 1) >> 1;
        sb_printf(out, "%2u: vpn2 %016" PRIx64 " asid %02x %s size %" PRIu64 "K", i,
                  (uint64_t)(e->hi & ~0xffull), (unsigned)(e->hi & 0xff),
                  (e->lo[0] & e->lo[1] & 1) ? "G" : "-", size >> 10);
        for (unsigned h = 0; h < 2; h++) {
            uint64_t lo = e->lo[h];
            sb_printf(out, "  [%c pa %010" PRIx64 " c%u %c%c]", h ? '1' : '0',
                      (uint64_t)(((lo >> 6) & MASK(28)) << 12), (unsigned)((lo >> 3) & 7),
                      (lo & 4) ? 'D' : '-', (lo & 2) ? 'V' : '-');
        }
        sb_putc(out, '\n');
    }
}
