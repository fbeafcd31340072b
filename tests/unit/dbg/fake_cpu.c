/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A stand-in for the R10000 behind cpu.h, for the debugger's unit tests: a
 * handful of MIPS instructions (addiu/daddiu, lui, ori, addu, lw/sw/ld/sd,
 * beq/bne, j/jal/jalr/jr with delay slots, sync as a no-op), unmapped
 * segments only, breakpoints, watchpoints, the trace hook and the
 * exception event.  Anything else "halts" the CPU.  It is a test double:
 * the real CPU is src/cpu/. */
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "core/elf.h"
#include "cpu/cpu.h"

#define MAX_BPS 64
#define MAX_WPS 16

struct cpu {
    int index, initiator;
    bus *b;
    sched *clock;
    event_bus *eb;
    uint64_t pc, next_pc, gpr[32], hi, lo, cp0[32], fpr[32];
    uint32_t fcsr;
    bool in_slot;
    uint64_t retired;
    uint64_t bps[MAX_BPS];
    unsigned nbps;
    struct {
        uint64_t a, len;
        int type, id;
    } wps[MAX_WPS];
    unsigned nwps;
    int next_wp;
    cpu_watch_hit hit;
    bool step_over, halted;
    volatile bool exit_req;
    char halt_msg[80];
    cpu_trace_fn trace;
    void *trace_ctx;
    event_src *ev[CPU_NEVENTS];
};

const char *const cpu_gpr_names[32] = {"zero", "at", "v0", "v1", "a0", "a1", "a2", "a3",
                                       "a4",   "a5", "a6", "a7", "t0", "t1", "t2", "t3",
                                       "s0",   "s1", "s2", "s3", "s4", "s5", "s6", "s7",
                                       "t8",   "t9", "k0", "k1", "gp", "sp", "s8", "ra"};
const char *const cpu_cp0_names[32] = {
    "Index",    "Random", "EntryLo0", "EntryLo1", "Context",  "PageMask",  "Wired",      "",
    "BadVAddr", "Count",  "EntryHi",  "Compare",  "Status",   "Cause",     "EPC",        "PRId",
    "Config",   "LLAddr", "WatchLo",  "WatchHi",  "XContext", "FrameMask", "Diagnostic", "",
    "",         "",       "ECC",      "CacheErr", "TagLo",    "TagHi",     "ErrorEPC",   ""};

static const event_field exc_fields[] = {{"cpu", EVF_DEC, NULL, NULL},
                                         {"code", EVF_DEC, NULL, NULL},
                                         {"pc", EVF_HEX, NULL, NULL},
                                         {"cause", EVF_HEX, NULL, NULL}};
static const event_field irq_fields[] = {{"cpu", EVF_DEC, NULL, NULL}, {"ip", EVF_DEC, NULL, NULL}};
static const event_decl cpu_events[CPU_NEVENTS] = {
    {"exception", "the CPU took an exception", exc_fields, 4},
    {"irq", "an interrupt line changed", irq_fields, 2},
    {"eret", "return from exception", exc_fields, 3},
};

cpu *cpu_new(int index, bus *b, sched *clock, event_bus *eb)
{
    cpu *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->index = index;
    c->b = b;
    c->clock = clock;
    c->eb = eb;
    char name[16];
    snprintf(name, sizeof name, "cpu%d", index);
    c->initiator = initiator_register(b, name, INIT_CPU, index);
    for (unsigned i = 0; i < CPU_NEVENTS; i++)
        c->ev[i] = event_src_add(eb, name, &cpu_events[i], c);
    cpu_reset(c);
    return c;
}

void cpu_free(cpu *c) { free(c); }
int cpu_index(const cpu *c) { return c->index; }
int cpu_initiator(const cpu *c) { return c->initiator; }

void cpu_cold_reset(cpu *c)
{
    c->pc = 0xffffffffbfc00000ull;
    c->next_pc = c->pc + 4;
    c->in_slot = false;
    c->halted = false;
    memset(c->gpr, 0, sizeof c->gpr);
}

void cpu_nmi(cpu *c) { (void)c; }
void cpu_soft_reset(cpu *c) { cpu_reset(c); }
void cpu_set_irq(cpu *c, int ip, bool level)
{
    EVENT_EMIT(c->ev[CPU_EV_IRQ], c->initiator, (uint64_t)c->index, (uint64_t)ip);
    (void)level;
}

static bool translate(uint64_t v, uint64_t *ba) { return elf_vaddr_to_bus(v, ba); }

int cpu_translate(const cpu *c, uint64_t vaddr, bool write, uint64_t *bus_addr)
{
    (void)c;
    (void)write;
    return translate(vaddr, bus_addr) ? 0 : -1;
}

uint64_t cpu_read_virt(cpu *c, uint64_t vaddr, void *buf, uint64_t len)
{
    uint64_t ba;
    if (!translate(vaddr, &ba) || bus_peek(c->b, ba, buf, len) != BUS_OK)
        return 0;
    return len;
}

uint64_t cpu_write_virt(cpu *c, uint64_t vaddr, const void *buf, uint64_t len)
{
    uint64_t ba;
    if (!translate(vaddr, &ba) || bus_poke(c->b, ba, buf, len) != BUS_OK)
        return 0;
    return len;
}

static void halt(cpu *c, const char *why)
{
    c->halted = true;
    snprintf(c->halt_msg, sizeof c->halt_msg, "%s at 0x%llx", why, (unsigned long long)c->pc);
}

static bool watch_check(cpu *c, uint64_t a, unsigned size, bool write, uint64_t value)
{
    for (unsigned i = 0; i < c->nwps; i++) {
        int want = write ? WATCH_WRITE : WATCH_READ;
        if ((c->wps[i].type & want) && a < c->wps[i].a + c->wps[i].len && a + size > c->wps[i].a) {
            c->hit = (cpu_watch_hit){a, 0, size, write, value, c->pc, c->wps[i].id};
            return true;
        }
    }
    return false;
}

static bool mem(cpu *c, uint64_t va, unsigned size, bool write, uint64_t *v, bool *watched)
{
    uint64_t ba;
    if (!translate(va, &ba)) {
        halt(c, "address error");
        return false;
    }
    int rc = write ? bus_write(c->b, c->initiator, ba, size, *v)
                   : bus_read(c->b, c->initiator, ba, size, v);
    if (rc != BUS_OK) {
        EVENT_EMIT(c->ev[CPU_EV_EXCEPTION], c->initiator, (uint64_t)c->index, (uint64_t)EXC_DBE,
                   c->pc, (uint64_t)EXC_DBE << 2);
        halt(c, "bus error");
        return false;
    }
    *watched |= watch_check(c, va, size, write, *v);
    return true;
}

/* Execute one instruction; returns false when the CPU halts. */
static bool step(cpu *c, bool *watched)
{
    uint8_t b[4];
    if (cpu_read_virt(c, c->pc, b, 4) != 4) {
        halt(c, "instruction fetch error");
        return false;
    }
    uint32_t i = (uint32_t)load_be(b, 4);
    if (c->trace)
        c->trace(c->trace_ctx, c, c->pc, i);
    unsigned op = i >> 26, rs = (i >> 21) & 31, rt = (i >> 16) & 31, rd = (i >> 11) & 31;
    int64_t imm = (int16_t)(i & 0xffff);
    uint64_t *g = c->gpr;
    uint64_t target = c->next_pc + 4; /* where we go after next_pc */
    bool branch = false;
    uint64_t v;
    switch (op) {
    case 0x00:
        switch (i & 0x3f) {
        case 0x00: break; /* sll (nop) */
        case 0x08:
            branch = true;
            target = g[rs];
            break; /* jr */
        case 0x09:
            branch = true;
            target = g[rs];
            g[rd] = c->pc + 8;
            break;                                                 /* jalr */
        case 0x0f: break;                                          /* sync */
        case 0x21: g[rd] = (uint64_t)sext32(g[rs] + g[rt]); break; /* addu */
        case 0x2d: g[rd] = g[rs] + g[rt]; break;                   /* daddu */
        default: halt(c, "unsupported instruction"); return false;
        }
        break;
    case 0x02:
        branch = true;
        target = (c->pc & ~0xfffffffull) | ((i & 0x3ffffff) << 2);
        break;
    case 0x03:
        branch = true;
        target = (c->pc & ~0xfffffffull) | ((i & 0x3ffffff) << 2);
        g[31] = c->pc + 8;
        break;
    case 0x04:
        if (g[rs] == g[rt]) {
            branch = true;
            target = c->pc + 4 + (uint64_t)(imm << 2);
        }
        break;
    case 0x05:
        if (g[rs] != g[rt]) {
            branch = true;
            target = c->pc + 4 + (uint64_t)(imm << 2);
        }
        break;
    case 0x09: g[rt] = (uint64_t)sext32(g[rs] + (uint64_t)imm); break;
    case 0x0d: g[rt] = g[rs] | (i & 0xffff); break;
    case 0x0f: g[rt] = (uint64_t)sext32((uint64_t)(i & 0xffff) << 16); break;
    case 0x19: g[rt] = g[rs] + (uint64_t)imm; break;
    case 0x23:
        if (!mem(c, g[rs] + (uint64_t)imm, 4, false, &v, watched))
            return false;
        g[rt] = (uint64_t)sext32(v);
        break;
    case 0x37:
        if (!mem(c, g[rs] + (uint64_t)imm, 8, false, &v, watched))
            return false;
        g[rt] = v;
        break;
    case 0x2b:
        v = g[rt];
        if (!mem(c, g[rs] + (uint64_t)imm, 4, true, &v, watched))
            return false;
        break;
    case 0x3f:
        v = g[rt];
        if (!mem(c, g[rs] + (uint64_t)imm, 8, true, &v, watched))
            return false;
        break;
    default: halt(c, "unsupported instruction"); return false;
    }
    g[0] = 0;
    c->pc = c->next_pc;
    c->in_slot = branch;
    c->next_pc = branch ? target : c->pc + 4;
    c->retired++;
    (*c->clock).now++;
    return true;
}

static bool has_bp(const cpu *c, uint64_t pc)
{
    for (unsigned i = 0; i < c->nbps; i++)
        if (c->bps[i] == pc)
            return true;
    return false;
}

int cpu_run(cpu *c, uint64_t until)
{
    /* An exit asked for while the CPU was not running (by a device timer
     * between turns) was already handled by the machine. */
    c->exit_req = false;
    while (c->clock->now < until) {
        if (c->exit_req) {
            c->exit_req = false;
            return CPU_EXIT;
        }
        if (c->halted)
            return CPU_HALTED;
        if (!c->step_over && has_bp(c, c->pc))
            return CPU_BREAK;
        c->step_over = false;
        bool watched = false;
        if (!step(c, &watched))
            return CPU_HALTED;
        if (watched)
            return CPU_WATCH;
    }
    c->step_over = false;
    return CPU_RAN;
}

void cpu_request_exit(cpu *c) { c->exit_req = true; }
void cpu_step_over_bp(cpu *c) { c->step_over = true; }
bool cpu_engine_available(int engine) { return engine == CPU_ENGINE_INTERP; }
int cpu_set_engine(cpu *c, int engine) { return engine == CPU_ENGINE_INTERP ? 0 : -1; }
int cpu_engine(const cpu *c) { return CPU_ENGINE_INTERP; }
void cpu_jit_info_get(const cpu *c, cpu_jit_info *out) { memset(out, 0, sizeof *out); }
const cpu_run_stats *cpu_get_run_stats(const cpu *c)
{
    static const cpu_run_stats none;
    return &none;
}
const char *cpu_halt_reason(const cpu *c) { return c->halt_msg; }

uint64_t cpu_pc(const cpu *c) { return c->pc; }
void cpu_set_pc(cpu *c, uint64_t pc)
{
    c->pc = pc;
    c->next_pc = pc + 4;
    c->in_slot = false;
}
uint64_t cpu_gpr(const cpu *c, unsigned n) { return n < 32 ? c->gpr[n] : 0; }
void cpu_set_gpr(cpu *c, unsigned n, uint64_t v)
{
    if (n && n < 32)
        c->gpr[n] = v;
}
uint64_t cpu_hi(const cpu *c) { return c->hi; }
uint64_t cpu_lo(const cpu *c) { return c->lo; }
void cpu_set_hi(cpu *c, uint64_t v) { c->hi = v; }
void cpu_set_lo(cpu *c, uint64_t v) { c->lo = v; }
uint64_t cpu_cp0(const cpu *c, unsigned n) { return n < 32 ? c->cp0[n] : 0; }
void cpu_set_cp0(cpu *c, unsigned n, uint64_t v)
{
    if (n < 32)
        c->cp0[n] = v;
}
uint64_t cpu_fpr(const cpu *c, unsigned n) { return n < 32 ? c->fpr[n] : 0; }
void cpu_set_fpr(cpu *c, unsigned n, uint64_t v)
{
    if (n < 32)
        c->fpr[n] = v;
}
uint32_t cpu_fcsr(const cpu *c) { return c->fcsr; }
void cpu_set_fcsr(cpu *c, uint32_t v) { c->fcsr = v; }
uint32_t cpu_fir(const cpu *c)
{
    (void)c;
    return 0x0900;
}
bool cpu_in_delay_slot(const cpu *c) { return c->in_slot; }
void cpu_set_delay(cpu *c, bool in_delay_slot, uint64_t target)
{
    (void)target;
    c->in_slot = in_delay_slot;
}
uint64_t cpu_retired(const cpu *c) { return c->retired; }

int cpu_gpr_lookup(const char *name)
{
    for (int i = 0; i < 32; i++)
        if (!strcmp(cpu_gpr_names[i], name))
            return i;
    return -1;
}

int cpu_cp0_lookup(const char *name)
{
    for (int i = 0; i < 32; i++)
        if (cpu_cp0_names[i][0] && !strcasecmp(cpu_cp0_names[i], name))
            return i;
    return -1;
}

void cpu_show_regs(const cpu *c, strbuf *out)
{
    for (unsigned i = 0; i < 32; i++)
        sb_printf(out, "%-4s %016llx%s", cpu_gpr_names[i], (unsigned long long)c->gpr[i],
                  i % 4 == 3 ? "\n" : "  ");
    sb_printf(out, "pc   %016llx  hi %016llx  lo %016llx\n", (unsigned long long)c->pc,
              (unsigned long long)c->hi, (unsigned long long)c->lo);
    cpu_show_cp0_regs(c, out);
}

void cpu_show_cp0_regs(const cpu *c, strbuf *out)
{
    sb_printf(out, "Status %08llx ", (unsigned long long)c->cp0[12]);
    cpu_decode_status(c->cp0[12], out);
    sb_printf(out, "\nCause  %08llx ", (unsigned long long)c->cp0[13]);
    cpu_decode_cause(c->cp0[13], out);
    sb_putc(out, '\n');
}

void cpu_show_fpu(const cpu *c, strbuf *out)
{
    for (unsigned i = 0; i < 32; i++)
        sb_printf(out, "f%-2u %016llx%s", i, (unsigned long long)c->fpr[i],
                  i % 4 == 3 ? "\n" : "  ");
    sb_printf(out, "fcsr %08x\n", c->fcsr);
}

void cpu_show_tlb(const cpu *c, strbuf *out)
{
    (void)c;
    sb_puts(out, "(the test CPU has no TLB)\n");
}

void cpu_decode_status(uint64_t s, strbuf *out)
{
    sb_printf(out, "IE=%llu EXL=%llu ERL=%llu KX=%llu IM=0x%02llx", (unsigned long long)(s & 1),
              (unsigned long long)((s >> 1) & 1), (unsigned long long)((s >> 2) & 1),
              (unsigned long long)((s >> 7) & 1), (unsigned long long)((s >> 8) & 0xff));
}

void cpu_decode_cause(uint64_t s, strbuf *out)
{
    sb_printf(out, "ExcCode=%llu IP=0x%02llx BD=%llu", (unsigned long long)((s >> 2) & 31),
              (unsigned long long)((s >> 8) & 0xff), (unsigned long long)(s >> 31 & 1));
}

int cpu_bp_insert(cpu *c, uint64_t vaddr)
{
    if (c->nbps >= MAX_BPS)
        return -1;
    c->bps[c->nbps++] = vaddr;
    return 0;
}

int cpu_bp_remove(cpu *c, uint64_t vaddr)
{
    for (unsigned i = 0; i < c->nbps; i++) {
        if (c->bps[i] == vaddr) {
            c->bps[i] = c->bps[--c->nbps];
            return 0;
        }
    }
    return -1;
}

int cpu_wp_insert(cpu *c, uint64_t vaddr, uint64_t len, int type)
{
    if (c->nwps >= MAX_WPS)
        return -1;
    c->wps[c->nwps].a = vaddr;
    c->wps[c->nwps].len = len;
    c->wps[c->nwps].type = type;
    c->wps[c->nwps].id = ++c->next_wp;
    return c->wps[c->nwps++].id;
}

void cpu_wp_remove(cpu *c, int id)
{
    for (unsigned i = 0; i < c->nwps; i++)
        if (c->wps[i].id == id)
            c->wps[i] = c->wps[--c->nwps];
}

const cpu_watch_hit *cpu_watch_hit_info(const cpu *c) { return &c->hit; }

void cpu_set_trace(cpu *c, cpu_trace_fn fn, void *ctx)
{
    c->trace = fn;
    c->trace_ctx = ctx;
}

void cpu_disasm(uint64_t pc, uint32_t insn, symtab *syms, char *buf, size_t len)
{
    (void)pc;
    (void)syms;
    if (insn == 0)
        snprintf(buf, len, "nop");
    else
        snprintf(buf, len, ".word\t0x%08x", insn);
}

event_src *cpu_event(cpu *c, unsigned which) { return which < CPU_NEVENTS ? c->ev[which] : NULL; }

int cpu_hle_register(cpu *c, uint64_t vaddr, cpu_hle_fn fn, void *ctx)
{
    (void)c;
    (void)vaddr;
    (void)fn;
    (void)ctx;
    return 0;
}

/* Idle skip: the stand-in never waits. */
uint64_t cpu_ticks(const cpu *c) { return c->retired; }
void cpu_set_idle_skip(cpu *c, bool on) { (void)c, (void)on; }
int cpu_idle_point_add(cpu *c, uint64_t vaddr)
{
    (void)c, (void)vaddr;
    return 0;
}
void cpu_idle_points_clear(cpu *c) { (void)c; }
void cpu_set_probe_max_period(cpu *c, uint64_t ticks) { (void)c, (void)ticks; }
void cpu_probe_relax(cpu *c, uint64_t ticks) { (void)c, (void)ticks; }
void cpu_hold_wait(cpu *c, bool hold) { (void)c, (void)hold; }
void cpu_wake(cpu *c) { (void)c; }
uint64_t cpu_quiet_until(cpu *c, uint64_t now)
{
    (void)c;
    return now;
}
void cpu_wait_to(cpu *c, uint64_t t)
{
    (void)c;
    (void)t;
}
bool cpu_wait_woken(cpu *c)
{
    (void)c;
    return false;
}
void cpu_get_wait_info(const cpu *c, cpu_wait_info *w)
{
    (void)c;
    memset(w, 0, sizeof *w);
}
void cpu_set_sampler(cpu *c, uint64_t period, cpu_sample_fn fn, void *ctx)
{
    (void)c, (void)period, (void)fn, (void)ctx;
}

/* Snapshots: the stand-in's registers, delay slot and clock, as bytes. */
typedef struct fake_img {
    uint64_t pc, next_pc, gpr[32], hi, lo, cp0[32], fpr[32], retired;
    uint32_t fcsr;
    uint8_t in_slot;
} fake_img;

void cpu_state_save(cpu *c, strbuf *out, const cpu_dev_map *map)
{
    (void)map;
    fake_img f;
    memset(&f, 0, sizeof f);
    f.pc = c->pc;
    f.next_pc = c->next_pc;
    memcpy(f.gpr, c->gpr, sizeof f.gpr);
    f.hi = c->hi;
    f.lo = c->lo;
    memcpy(f.cp0, c->cp0, sizeof f.cp0);
    memcpy(f.fpr, c->fpr, sizeof f.fpr);
    f.retired = c->retired;
    f.fcsr = c->fcsr;
    f.in_slot = c->in_slot;
    sb_append(out, &f, sizeof f);
}

int cpu_state_check(const void *img, size_t len, const cpu_dev_map *map, xerr *err)
{
    (void)img;
    (void)map;
    if (len != sizeof(fake_img))
        return xerr_fail(err, "the CPU image has %zu bytes, not %zu", len, sizeof(fake_img));
    return 0;
}

int cpu_state_load(cpu *c, const void *img, size_t len, const cpu_dev_map *map, xerr *err)
{
    if (cpu_state_check(img, len, map, err) != 0)
        return -1;
    fake_img f;
    memcpy(&f, img, sizeof f);
    c->pc = f.pc;
    c->next_pc = f.next_pc;
    memcpy(c->gpr, f.gpr, sizeof f.gpr);
    c->hi = f.hi;
    c->lo = f.lo;
    memcpy(c->cp0, f.cp0, sizeof f.cp0);
    memcpy(c->fpr, f.fpr, sizeof f.fpr);
    c->retired = f.retired;
    c->fcsr = f.fcsr;
    c->in_slot = f.in_slot;
    return 0;
}

void cpu_memory_replaced(cpu *c) { (void)c; }

/* One host thread per CPU: the stand-in runs on the machine's clock only. */
void cpu_set_threaded(cpu *c) {}
bool cpu_threaded(const cpu *c) { return false; }
sched *cpu_clock(cpu *c) { return c->clock; }
void cpu_thread_enter(cpu *c) {}
void cpu_set_live(cpu *c, bool live, void (*kick)(void *ctx, cpu *c), void *ctx) {}
bool cpu_running(const cpu *c) { return false; }
bool cpu_has_posts(const cpu *c) { return false; }
void cpu_take_posted(cpu *c) {}
void cpu_post_until(cpu *c, uint64_t t) {}
void cpu_wait_advance(cpu *c, uint64_t until) {}
