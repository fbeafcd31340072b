/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CP0 of the R10000: registers, exceptions, ERET, interrupts and the
 * Count/Compare timer.
 *
 * Count: one Count tick per two retired instructions ("Count advances at
 * half the pipeline clock"; with one instruction per tick at 180 MHz that is
 * the R10000's 90 MHz Count rate).  Reaching Compare latches Cause.IP7;
 * writing Compare clears it.  Random counts down from 63 to Wired, one step
 * per retired instruction; writing Wired resets it to 63.
 *
 * Performance counters (register 25, select 0..3 = control0, count0,
 * control1, count1): events 0 (cycles), 1 (issued) and 15 (graduated
 * instructions) count retired instructions while any of the K/S/U/EXL
 * enable bits is set; other events do not count; overflow interrupts are
 * not modelled.
 */
#include "cpu/cpu_internal.h"

#define LO_MASK ((MASK(28) << 6) | 0x3full | (3ull << 62))
#define HI_MASK ((3ull << 62) | (MASK(44) & ~0x1fffull) | 0xffull)
#define PM_MASK (0xfffull << 13)

/* The R10000 Config: 32 KB I (IC=3) and 32 KB D (DC=3) primaries, a 1 MB
 * secondary (SS=1) with 128-byte lines (SB=1); Linux's r4k cache probing
 * reads exactly these fields for an R10000.  K0 (2:0) is writable. */
#define CONFIG_R10000 ((3u << 29) | (3u << 26) | (1u << 16) | (1u << 13) | 3u)

void cpu_mode_changed(cpu *c)
{
    uint64_t st = c->status;
    enum mode mode;
    if (st & (ST_EXL | ST_ERL))
        mode = MODE_KERNEL;
    else
        mode = ((st >> 3) & 3) == 0 ? MODE_KERNEL : ((st >> 3) & 3) == 1 ? MODE_SUPER : MODE_USER;
    bool ops64 = mode == MODE_KERNEL || (mode == MODE_SUPER ? (st & ST_SX) : (st & ST_UX));
    bool cu0 = mode == MODE_KERNEL || (st & ST_CU0);
    bool mips4 = mode != MODE_USER || (st & ST_XX);
    if (mode != c->mode || ops64 != c->ops64 || cu0 != c->cu0 || mips4 != c->mips4 ||
        c->st != &c->sets[mode]) {
        c->mode = mode;
        c->ops64 = ops64;
        c->cu0 = cu0;
        c->mips4 = mips4;
        c->st = &c->sets[mode];
        cpu_drop_fpage(c);
    }
    /* The run loop reloads all of this after every instruction that can
     * change it (exceptions, ERET, MTC0, HLE calls): it only has to come out
     * for an interrupt that became deliverable, or to account the
     * performance counters in the old mode. */
    if (cpu_irq_pending(c) || c->perf_ctl[0] || c->perf_ctl[1])
        cpu_kick(c);
}

static void set_status(cpu *c, uint64_t v)
{
    uint64_t old = c->status;
    c->status = v & ST_WRITABLE;
    /* The X bits and ERL change what addresses mean: drop every translation. */
    if ((old ^ c->status) & (ST_UX | ST_SX | ST_KX | ST_ERL))
        stlb_flush(c);
    cpu_mode_changed(c);
}

/* ---- Interrupts and the timer --------------------------------------- */

void cpu_update_irq_state(cpu *c)
{
    uint64_t ip = (uint64_t)c->irq_lines << CAUSE_IP_SHIFT;
    c->cause = (c->cause & ~(0xfcull << CAUSE_IP_SHIFT)) | (ip & (0xfcull << CAUSE_IP_SHIFT)) |
               (c->timer_ip ? CAUSE_IP7 : 0);
    cpu_kick(c);
}

bool cpu_irq_pending(const cpu *c)
{
    return (c->status & ST_IE) && !(c->status & (ST_EXL | ST_ERL)) &&
           (c->cause & c->status & ST_IM);
}

static uint32_t count_value(const cpu *c)
{
    return c->count_off + (uint32_t)(cpu_now_retired(c) >> 1);
}

void cpu_timer_update(cpu *c)
{
    uint64_t r = cpu_now_retired(c);
    uint32_t diff = c->compare - count_value(c);
    uint64_t d = diff ? diff : (1ull << 32);
    c->timer_at = 2 * ((r >> 1) + d);
    cpu_kick(c);
}

void cpu_timer_check(cpu *c)
{
    if (cpu_now_retired(c) >= c->timer_at) {
        c->timer_ip = true;
        cpu_update_irq_state(c);
        cpu_timer_update(c);
    }
}

void cpu_set_irq(cpu *c, int ip, bool level)
{
    if (ip < 2 || ip > 7)
        return;
    if (unlikely(c->threaded)) {
        if (cpu_is_remote(c)) { /* its thread takes it (xthread.c) */
            cpu_post_irq(c, ip, level);
            return;
        }
        /* Posted changes came first (devices post and set lines under the
         * machine lock): apply them before this one. */
        if (c->rq_pending)
            cpu_take_posted(c);
    }
    uint8_t old = c->irq_lines;
    if (level)
        c->irq_lines |= (uint8_t)(1u << ip);
    else
        c->irq_lines &= (uint8_t) ~(1u << ip);
    if (old == c->irq_lines)
        return;
    cpu_update_irq_state(c);
    EVENT_EMIT(c->ev[CPU_EV_IRQ], c->initiator, (uint64_t)c->index, (uint64_t)ip, level,
               (c->cause >> CAUSE_IP_SHIFT) & 0xff);
}

/* ---- Exceptions -------------------------------------------------------- */

static void take(cpu *c, int code, uint64_t vec_off, int ce)
{
    if (unlikely(c->probe.on))
        cpu_probe_stop(c, false); /* not a loop that only reads */
    uint64_t pc = c->pc;
    bool bd = c->in_ds;
    if (!(c->status & ST_EXL)) {
        c->cp0[CP0_EPC] = bd ? pc - 4 : pc;
        c->cause = bd ? (c->cause | CAUSE_BD) : (c->cause & ~CAUSE_BD);
    } else {
        vec_off = 0x180;
    }
    c->cause = (c->cause & ~(0x1full << 2) & ~(3ull << CAUSE_CE_SHIFT)) | ((uint64_t)code << 2) |
               ((uint64_t)ce << CAUSE_CE_SHIFT);
    c->status |= ST_EXL;
    c->rs.exceptions[code & 31]++;
    if ((code == EXC_TLBL || code == EXC_TLBS) && vec_off != 0x180)
        c->rs.tlb_refills++;
    uint64_t base = (c->status & ST_BEV) ? 0xffffffffbfc00200ull : 0xffffffff80000000ull;
    c->pc = base + vec_off;
    c->dly = false;
    c->in_ds = false;
    cpu_mode_changed(c);
    EVENT_EMIT(c->ev[CPU_EV_EXCEPTION], c->initiator, (uint64_t)c->index, (uint64_t)code, pc,
               c->cp0[CP0_BADVADDR], bd);
}

void cpu_exception(cpu *c, int code, uint64_t badvaddr, bool has_bad)
{
    if (has_bad)
        c->cp0[CP0_BADVADDR] = badvaddr;
    take(c, code, 0x180, 0);
}

void cpu_exception_ce(cpu *c, int ce) { take(c, EXC_CPU, 0x180, ce); }

void cpu_tlb_exception(cpu *c, int xl, uint64_t va, int acc)
{
    bool store = acc == ACC_STORE;
    if (xl == XL_ADE) {
        cpu_exception(c, store ? EXC_ADES : EXC_ADEL, va, true);
        return;
    }
    c->cp0[CP0_BADVADDR] = va;
    uint64_t vpn2 = (va >> 13) & MASK(31); /* VA 43:13 */
    c->cp0[CP0_CONTEXT] = (c->cp0[CP0_CONTEXT] & ~MASK(23)) | (((va >> 13) & MASK(19)) << 4);
    c->cp0[CP0_XCONTEXT] = (c->cp0[CP0_XCONTEXT] & ~MASK(37)) | ((va >> 62) << 35) | (vpn2 << 4);
    uint64_t old_hi = c->cp0[CP0_ENTRYHI];
    c->cp0[CP0_ENTRYHI] =
        ((va & ((3ull << 62) | (MASK(44) & ~0x1fffull))) | (old_hi & 0xff)) & HI_MASK;
    int code = xl == XL_MOD ? EXC_MOD : store ? EXC_TLBS : EXC_TLBL;
    uint64_t off = 0x180;
    if (xl == XL_REFILL) {
        unsigned r = (unsigned)(va >> 62);
        bool x = (r == 0 && (c->status & ST_UX)) || (r == 1 && (c->status & ST_SX)) ||
                 (r == 3 && (c->status & ST_KX));
        off = x ? 0x080 : 0x000;
    }
    take(c, code, off, 0);
}

void cpu_eret(cpu *c)
{
    uint64_t from = c->pc;
    if (c->status & ST_ERL) {
        c->pc = c->cp0[CP0_ERROREPC];
        c->status &= ~ST_ERL;
        stlb_flush(c); /* the ERL useg bypass ends */
    } else {
        c->pc = c->cp0[CP0_EPC];
        c->status &= ~ST_EXL;
    }
    c->llbit = false;
    bus_link_clear(c->bus, c->initiator);
    c->dly = false;
    cpu_mode_changed(c);
    EVENT_EMIT(c->ev[CPU_EV_ERET], c->initiator, (uint64_t)c->index, from, c->pc);
}

/* ---- Register access ---------------------------------------------------- */

static uint64_t perf_value(const cpu *c, unsigned i) { return c->perf_cnt[i]; }

uint64_t cp0_read(cpu *c, unsigned reg, unsigned sel)
{
    switch (reg) {
    case CP0_RANDOM: return tlb_random(c);
    case CP0_COUNT: return count_value(c);
    case CP0_COMPARE: return c->compare;
    case CP0_STATUS: return c->status;
    case CP0_CAUSE: return c->cause;
    case CP0_PRID: return PRID_R10000;
    case CP0_PERF:
        switch (sel & 3) {
        case 0: return c->perf_ctl[0];
        case 1: return perf_value(c, 0);
        case 2: return c->perf_ctl[1];
        default: return perf_value(c, 1);
        }
    default: return c->cp0[reg & 31];
    }
}

void cp0_write(cpu *c, unsigned reg, unsigned sel, uint64_t v)
{
    switch (reg) {
    case CP0_INDEX: c->cp0[reg] = (c->cp0[reg] & (1ull << 31)) | (v & 63); break;
    case CP0_RANDOM:
    case CP0_PRID:
    case CP0_BADVADDR: break;
    case CP0_ENTRYLO0:
    case CP0_ENTRYLO1: c->cp0[reg] = v & LO_MASK; break;
    case CP0_CONTEXT: c->cp0[reg] = (v & ~MASK(23)) | (c->cp0[reg] & MASK(23)); break;
    case CP0_XCONTEXT: c->cp0[reg] = (v & ~MASK(37)) | (c->cp0[reg] & MASK(37)); break;
    case CP0_PAGEMASK: c->cp0[reg] = v & PM_MASK; break;
    case CP0_WIRED:
        c->cp0[reg] = v & 63;
        c->rand_base = cpu_now_retired(c);
        break;
    case CP0_COUNT:
        c->count_off = (uint32_t)v - (uint32_t)(cpu_now_retired(c) >> 1);
        cpu_timer_update(c);
        break;
    case CP0_COMPARE:
        c->compare = (uint32_t)v;
        c->timer_ip = false;
        cpu_update_irq_state(c);
        cpu_timer_update(c);
        break;
    case CP0_ENTRYHI: {
        uint64_t old = c->cp0[reg];
        c->cp0[reg] = v & HI_MASK;
        if ((old ^ c->cp0[reg]) & 0xff)
            stlb_flush(c);
        break;
    }
    case CP0_STATUS: set_status(c, v); break;
    case CP0_CAUSE:
        c->cause = (c->cause & ~CAUSE_SW) | (v & CAUSE_SW);
        cpu_kick(c);
        break;
    case CP0_CONFIG:
        c->cp0[reg] = (c->cp0[reg] & ~7ull) | (v & 7);
        stlb_flush(c);
        break;
    case CP0_WATCHLO:
    case CP0_WATCHHI:
        c->cp0[reg] = v;
        c->watch_armed = (c->cp0[CP0_WATCHLO] & 3) != 0;
        stlb_flush(c);
        break;
    case CP0_PERF:
        switch (sel & 3) {
        case 0: c->perf_ctl[0] = v & 0x1ff; break;
        case 1: c->perf_cnt[0] = (uint32_t)v; break;
        case 2: c->perf_ctl[1] = v & 0x1ff; break;
        default: c->perf_cnt[1] = (uint32_t)v; break;
        }
        break;
    default: c->cp0[reg & 31] = v; break;
    }
}

/* Called by the run loop with the number of instructions just retired, so
 * the performance counters need no per-instruction work. */
void cpu_perf_account(cpu *c, uint64_t n, bool waiting)
{
    for (unsigned i = 0; i < 2; i++) {
        uint64_t ctl = c->perf_ctl[i];
        unsigned ev = (ctl >> 5) & 15;
        /* Ticks spent waiting (idle.c) are cycles, not instructions. */
        if ((ctl & 0xf) && (ev == 0 || (!waiting && (ev == 1 || ev == 15))))
            c->perf_cnt[i] = (uint32_t)(c->perf_cnt[i] + n);
    }
}

/* ---- Resets ------------------------------------------------------------- */

static void reset_common(cpu *c, uint64_t st_bits)
{
    uint64_t pc = c->pc;
    bool bd = c->dly;
    c->cp0[CP0_ERROREPC] = bd ? pc - 4 : pc;
    c->status = (c->status & ~(ST_SR | ST_NMI | ST_TS | ST_EXL)) | ST_ERL | ST_BEV | st_bits;
    c->pc = 0xffffffffbfc00000ull;
    c->dly = false;
    c->in_ds = false;
    c->llbit = false;
    bus_link_clear(c->bus, c->initiator);
    cpu_probe_stop(c, false);
    c->wait = CPU_WAIT_NONE;
    stlb_flush(c);
    cpu_mode_changed(c);
}

void cpu_cold_reset(cpu *c)
{
    memset(c->gpr, 0, sizeof c->gpr);
    c->hi = c->lo = 0;
    memset(c->cp0, 0, sizeof c->cp0);
    c->status = 0;
    c->cause = 0;
    c->count_off = 0;
    c->compare = 0;
    c->timer_ip = false;
    c->perf_ctl[0] = c->perf_ctl[1] = c->perf_cnt[0] = c->perf_cnt[1] = 0;
    c->cp0[CP0_CONFIG] = CONFIG_R10000 | ((uint64_t)(c->index & 3) << 3);
    c->rand_base = cpu_now_retired(c);
    c->watch_armed = false;
    tlb_reset(c);
    fpu_reset(&c->fpu);
    reset_common(c, 0);
    cpu_update_irq_state(c);
    cpu_timer_update(c);
    EVENT_EMIT(c->ev[CPU_EV_EXCEPTION], c->initiator, (uint64_t)c->index, EVC_RESET, c->pc, 0, 0);
}

void cpu_apply_nmi(cpu *c)
{
    uint64_t from = c->pc;
    reset_common(c, ST_NMI);
    EVENT_EMIT(c->ev[CPU_EV_EXCEPTION], c->initiator, (uint64_t)c->index, EVC_NMI, from, 0, 0);
}

void cpu_apply_soft_reset(cpu *c)
{
    uint64_t from = c->pc;
    reset_common(c, ST_SR);
    EVENT_EMIT(c->ev[CPU_EV_EXCEPTION], c->initiator, (uint64_t)c->index, EVC_SRESET, from, 0, 0);
}
