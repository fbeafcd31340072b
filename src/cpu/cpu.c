/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The R10000: creation, resets, architectural state access and the name
 * tables (see cpu.h). */
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "cpu/cpu_internal.h"
#include "cpu/jit.h"
#include "cpu/ops.h"

/* ---- Events --------------------------------------------------------------- */

static const char *const exc_names[] = {
    "Int",   "Mod",   "TLBL",  "TLBS",  "AdEL",  "AdES",  "IBE",       "DBE",   "Sys",
    "Bp",    "RI",    "CpU",   "Ov",    "Tr",    "VCEI",  "FPE",       "Res16", "Res17",
    "Res18", "Res19", "Res20", "Res21", "Res22", "WATCH", "Res24",     "Res25", "Res26",
    "Res27", "Res28", "Res29", "Res30", "VCED",  "NMI",   "SoftReset", "Reset", NULL,
};
const char *const *cpu_exc_names = exc_names;

static const event_field exc_fields[] = {
    {"cpu", EVF_DEC, NULL, NULL}, {"code", EVF_ENUM, exc_names, NULL},
    {"pc", EVF_HEX, NULL, NULL},  {"badvaddr", EVF_HEX, NULL, NULL},
    {"bd", EVF_BOOL, NULL, NULL},
};
static const event_field irq_fields[] = {
    {"cpu", EVF_DEC, NULL, NULL},
    {"ip", EVF_DEC, NULL, NULL},
    {"level", EVF_BOOL, NULL, NULL},
    {"pending", EVF_HEX, NULL, NULL},
};
static const event_field eret_fields[] = {
    {"cpu", EVF_DEC, NULL, NULL},
    {"pc", EVF_HEX, NULL, NULL},
    {"target", EVF_HEX, NULL, NULL},
};
static const event_decl cpu_events[CPU_NEVENTS] = {
    [CPU_EV_EXCEPTION] = {"exception", "the CPU took an exception (or a reset/NMI)", exc_fields,
                          ARRAY_SIZE(exc_fields)},
    [CPU_EV_IRQ] = {"irq", "an interrupt input line changed level", irq_fields,
                    ARRAY_SIZE(irq_fields)},
    [CPU_EV_ERET] = {"eret", "return from exception", eret_fields, ARRAY_SIZE(eret_fields)},
};

event_src *cpu_event(cpu *c, unsigned which) { return which < CPU_NEVENTS ? c->ev[which] : NULL; }

/* ---- Lifecycle ------------------------------------------------------------ */

cpu *cpu_new(int index, bus *b, sched *clock, event_bus *eb)
{
    cpu *c = xaligned_alloc(64, sizeof(cpu));
    memset(c, 0, sizeof *c);
    c->index = index;
    c->bus = b;
    c->clock = clock;
    c->eb = eb;
    char name[24];
    snprintf(name, sizeof name, "cpu%d", index);
    c->initiator = initiator_register(b, name, INIT_CPU, index);
    if (c->initiator < 0) {
        free(c);
        return NULL;
    }
    c->next_wp_id = 1;
    c->st = &c->sets[0];
    /* The "no current page": every slot refetches; so does the slot after
     * an instruction run from c->tmp. */
    c->nopage = dpage_new();
    for (unsigned i = 0; i < DPAGE_INSNS; i++)
        c->nopage->insn[i].op = OP_REFETCH;
    c->tmp[1].op = OP_REFETCH;
    cpu_group_join(c);
    c->use_jit = jit_available();
    if (eb)
        for (unsigned i = 0; i < CPU_NEVENTS; i++)
            c->ev[i] = event_src_add(eb, name, &cpu_events[i], c);
    stlb_flush(c);
    cpu_reset(c);
    return c;
}

void cpu_free(cpu *c)
{
    if (!c)
        return;
    bus_link_clear(c->bus, c->initiator);
    cpu_group_leave(c);
    jit_cpu_free(c);
    free(c->bps);
    free(c->wps);
    free(c->hles);
    free(c->idle_pts);
    free(c->nopage);
    free(c);
}

int cpu_index(const cpu *c) { return c->index; }
int cpu_initiator(const cpu *c) { return c->initiator; }

/* An NMI or a soft reset: taken now, or, while the CPU runs, flagged for
 * the run loop's outer part. */
static void deliver(cpu *c, volatile bool *pending, void (*apply)(cpu *c))
{
    if (c->running) {
        *pending = true;
        cpu_kick(c);
    } else {
        apply(c);
    }
}

void cpu_nmi(cpu *c) { deliver(c, &c->nmi_pending, cpu_apply_nmi); }
void cpu_soft_reset(cpu *c) { deliver(c, &c->sreset_pending, cpu_apply_soft_reset); }

void cpu_step_over_bp(cpu *c) { c->step_over = true; }

bool cpu_engine_available(int engine)
{
    return engine == CPU_ENGINE_INTERP || (engine == CPU_ENGINE_JIT && jit_available());
}

int cpu_set_engine(cpu *c, int engine)
{
    if (!cpu_engine_available(engine))
        return -1;
    c->use_jit = engine == CPU_ENGINE_JIT;
    return 0;
}

int cpu_engine(const cpu *c) { return c->use_jit ? CPU_ENGINE_JIT : CPU_ENGINE_INTERP; }
const char *cpu_halt_reason(const cpu *c) { return c->halt_reason ? c->halt_reason : ""; }
const cpu_run_stats *cpu_get_run_stats(const cpu *c) { return &c->rs; }

/* ---- State -------------------------------------------------------------------- */

uint64_t cpu_pc(const cpu *c) { return c->pc; }
void cpu_set_pc(cpu *c, uint64_t pc)
{
    cpu_wake(c); /* the debugger changed what a wait was based on */
    c->pc = pc;
    c->dly = false;
    c->in_ds = false;
    cpu_drop_fpage(c);
    cpu_kick(c);
}
uint64_t cpu_gpr(const cpu *c, unsigned n) { return n < 32 ? c->gpr[n] : 0; }
void cpu_set_gpr(cpu *c, unsigned n, uint64_t v)
{
    cpu_wake(c); /* the debugger changed what a wait was based on */
    if (n > 0 && n < 32)
        c->gpr[n] = v;
}
uint64_t cpu_hi(const cpu *c) { return c->hi; }
uint64_t cpu_lo(const cpu *c) { return c->lo; }
void cpu_set_hi(cpu *c, uint64_t v)
{
    cpu_wake(c);
    c->hi = v;
}
void cpu_set_lo(cpu *c, uint64_t v)
{
    cpu_wake(c);
    c->lo = v;
}

uint64_t cpu_cp0_sel(const cpu *c, unsigned n, unsigned sel)
{
    return cp0_read((cpu *)c, n & 31, sel);
}

void cpu_set_cp0_sel(cpu *c, unsigned n, unsigned sel, uint64_t v)
{
    cpu_wake(c); /* the debugger changed what a wait was based on */
    n &= 31;
    switch (n) {
    case CP0_BADVADDR: c->cp0[n] = v; break; /* read-only to the guest, not to us */
    case CP0_CAUSE:
        /* The debugger may set the BD, ExcCode, CE and IP0/1 fields; the
         * interrupt lines stay what the hardware drives. */
        c->cause = (v & ~(0xfcull << CAUSE_IP_SHIFT)) | (c->cause & (0xfcull << CAUSE_IP_SHIFT));
        cpu_kick(c);
        break;
    case CP0_CONTEXT:
    case CP0_XCONTEXT: c->cp0[n] = v; break;
    case CP0_RANDOM: {
        /* Make Random read v now. */
        unsigned wired = c->cp0[CP0_WIRED] & 63;
        if (v >= wired && v < TLB_ENTRIES && wired < TLB_ENTRIES)
            c->rand_base = cpu_now_retired(c) - (TLB_ENTRIES - 1 - v);
        break;
    }
    case CP0_INDEX: c->cp0[n] = v & ((1ull << 31) | 63); break;
    case CP0_CONFIG:
        c->cp0[n] = v;
        stlb_flush(c);
        break;
    case CP0_PRID: break;
    case CP0_LLADDR: c->cp0[n] = v; break;
    default: cp0_write(c, n, sel, v); break;
    }
}

uint64_t cpu_cp0(const cpu *c, unsigned n) { return cpu_cp0_sel(c, n, 0); }
void cpu_set_cp0(cpu *c, unsigned n, uint64_t v) { cpu_set_cp0_sel(c, n, 0, v); }

uint64_t cpu_fpr(const cpu *c, unsigned n) { return c->fpu.fpr[n & 31]; }
void cpu_set_fpr(cpu *c, unsigned n, uint64_t v) { c->fpu.fpr[n & 31] = v; }
uint32_t cpu_fcsr(const cpu *c) { return c->fpu.fcsr; }
void cpu_set_fcsr(cpu *c, uint32_t v) { c->fpu.fcsr = v; }
uint32_t cpu_fir(const cpu *c) { return c->fpu.fir; }
bool cpu_in_delay_slot(const cpu *c) { return c->dly; }
uint64_t cpu_retired(const cpu *c) { return cpu_now_retired(c) - c->waited; }
uint64_t cpu_ticks(const cpu *c) { return cpu_now_retired(c); }

uint64_t cpu_delay_target(const cpu *c) { return c->dtarget; }
void cpu_set_delay(cpu *c, bool in_delay_slot, uint64_t target)
{
    cpu_wake(c); /* the debugger changed what a wait was based on */
    c->dly = in_delay_slot;
    c->in_ds = in_delay_slot;
    c->dtarget = target;
}
bool cpu_llbit(const cpu *c)
{
    if (c->threaded)
        return c->llbit; /* (no bus link: SC compares and swaps) */
    return c->llbit && bus_link_valid(c->bus, c->initiator, c->lladdr_bus);
}
void cpu_set_llbit(cpu *c, bool v)
{
    c->llbit = v;
    if (!v)
        bus_link_clear(c->bus, c->initiator);
}

int cpu_tlb_get(const cpu *c, unsigned i, uint64_t *hi, uint64_t *lo0, uint64_t *lo1,
                uint64_t *mask)
{
    if (i >= TLB_ENTRIES)
        return -1;
    *hi = c->tlb[i].hi;
    *lo0 = c->tlb[i].lo[0];
    *lo1 = c->tlb[i].lo[1];
    *mask = c->tlb[i].mask;
    return 0;
}

int cpu_tlb_set(cpu *c, unsigned i, uint64_t hi, uint64_t lo0, uint64_t lo1, uint64_t mask)
{
    cpu_wake(c); /* the debugger changed what a wait was based on */
    if (i >= TLB_ENTRIES)
        return -1;
    c->tlb[i].hi = hi;
    c->tlb[i].lo[0] = lo0;
    c->tlb[i].lo[1] = lo1;
    c->tlb[i].mask = mask;
    stlb_flush(c);
    return 0;
}


/* ---- Names -------------------------------------------------------------------- */

const char *const cpu_gpr_names[32] = {
    "zero", "at", "v0", "v1", "a0", "a1", "a2", "a3", "a4", "a5", "a6",
    "a7",   "t0", "t1", "t2", "t3", "s0", "s1", "s2", "s3", "s4", "s5",
    "s6",   "s7", "t8", "t9", "k0", "k1", "gp", "sp", "s8", "ra",
};

const char *const cpu_cp0_names[32] = {
    "Index",     "Random",     "EntryLo0", "EntryLo1", "Context",   "PageMask", "Wired",
    "cp0r7",     "BadVAddr",   "Count",    "EntryHi",  "Compare",   "Status",   "Cause",
    "EPC",       "PRId",       "Config",   "LLAddr",   "WatchLo",   "WatchHi",  "XContext",
    "FrameMask", "Diagnostic", "cp0r23",   "cp0r24",   "PerfCount", "ECC",      "CacheErr",
    "TagLo",     "TagHi",      "ErrorEPC", "cp0r31",
};

static int parse_num(const char *s, int max)
{
    if (!*s)
        return -1;
    int v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        v = v * 10 + (*s - '0');
        if (v > max)
            return -1;
    }
    return v;
}

/* A register's number from its name in one of the tables of 32 ("$" allowed
 * before it), or -1: the caller then tries its other spellings. */
static int name_lookup(const char **name, const char *const *names)
{
    if (!*name)
        return -1;
    if ((*name)[0] == '$')
        (*name)++;
    for (int i = 0; i < 32; i++)
        if (strcasecmp(*name, names[i]) == 0)
            return i;
    return -1;
}

int cpu_gpr_lookup(const char *name)
{
    int i = name_lookup(&name, cpu_gpr_names);
    if (i >= 0 || !name)
        return i;
    if (strcasecmp(name, "fp") == 0)
        return 30;
    if (name[0] == 'r' || name[0] == 'R')
        return parse_num(name + 1, 31);
    return parse_num(name, 31);
}

int cpu_cp0_lookup(const char *name)
{
    int i = name_lookup(&name, cpu_cp0_names);
    if (i >= 0 || !name)
        return i;
    if (strcasecmp(name, "perf") == 0 || strcasecmp(name, "perfcnt") == 0)
        return CP0_PERF;
    if (strncasecmp(name, "cp0r", 4) == 0)
        return parse_num(name + 4, 31);
    return -1;
}
