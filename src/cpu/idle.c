/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Idle skip: a CPU that only waits stops executing and lets its clock jump
 * to what can end the wait (cpu.h, docs/cpu.md "Waiting").
 *
 * Idle points.  The entry of the OS's wait-for-interrupt routine (Linux's
 * arch_cpu_idle, called with interrupts disabled when the kernel has
 * nothing to do until one comes) is registered like an HLE hook: its page
 * runs with spec_bits, so only instructions on that page pay a bit test.
 * A CPU fetching it with Status.IE = EXL = ERL = 0 in kernel mode and
 * nothing pending in Cause.IP & Status.IM waits (CPU_WAIT_IDLE) until
 * something is, then executes the routine, which enables interrupts and
 * takes the interrupt, as it would have from its idle loop.
 *
 * Probes.  At fixed ticks of the CPU's own clock (probe.next_at: first
 * PROBE_FIRST ticks in, then every `period` ticks) the CPU looks for a
 * polling loop.  If the code up to the next branch holds an instruction a
 * polling loop cannot contain (busy code mostly stores within a few
 * instructions), that settles it.  Otherwise the CPU watches what it
 * executes: the run loop takes every fetch through fetch_full() (a dummy
 * exec soft TLB, no current page), which calls cpu_probe_step() before
 * each instruction.  Only loads, integer arithmetic, branches and jumps may
 * run; each load's target is noted (RAM: its bus address and value; a
 * device register: through dev_note_reads(), which says whether the read
 * had a side effect).  If the CPU comes back where it started with every
 * register (GPRs, HI, LO) as it was at the start of the iteration (the
 * first or, when the first still carried older values, the second; within
 * PROBE_MAX_STEPS instructions), the iteration will repeat exactly as long
 * as the values it read stay the same: the CPU waits (CPU_WAIT_POLL).  A
 * probe that watched and found no such loop doubles the period, up to
 * PROBE_MAX_PERIOD.  Since probes start at ticks, not where a run happened
 * to end, the same run gives the same waits however it is cut into
 * cpu_run() calls.
 *
 * Delay loops.  A counting loop like Linux's __delay is no wait (it does
 * not change timing) but costs nothing either: cpu_delay_loop() does its
 * iterations at once, exactly (see below).
 *
 * Waiting.  cpu_run() sees c->wait, checks cpu_wait_over() (an interrupt
 * in Cause.IP & IM for an idle wait; for a poll, an interrupt it can take,
 * a value read that changed when looked at again without side effects,
 * or the time a register read changes by itself, such as the HUB's RT
 * counter), and otherwise moves the clock on to its `until`, the
 * Count/Compare match or the poll's deadline, counting the ticks in
 * c->waited.  After a poll the CPU probes again at once.
 */
#include <stdlib.h>

#include "cpu/cpu_internal.h"
#include "cpu/ops.h"

static uint64_t delay_loop_left(const cpu *c, const dinsn **slot, dinsn *buf);

#define PROBE_FIRST 4096ull
#define PROBE_MAX_PERIOD (1ull << 20)
#define PROBE_MAX_STEPS 64

/* ---- Configuration ------------------------------------------------------- */

void cpu_set_idle_skip(cpu *c, bool on)
{
    cpu_probe_stop(c, false);
    cpu_wait_end(c);
    c->idle_skip = on;
    c->probe.period = PROBE_FIRST;
    c->probe.next_at = cpu_now_retired(c) + PROBE_FIRST;
    cpu_kick(c);
}

bool cpu_idle_point_at(const cpu *c, uint64_t pc)
{
    for (unsigned i = 0; i < c->nidle_pts; i++)
        if (c->idle_pts[i] == pc)
            return true;
    return false;
}

int cpu_idle_point_add(cpu *c, uint64_t vaddr)
{
    if (cpu_idle_point_at(c, vaddr))
        return 0;
    uint64_t *n = realloc(c->idle_pts, (c->nidle_pts + 1) * sizeof *n);
    if (!n)
        return -1;
    c->idle_pts = n;
    c->idle_pts[c->nidle_pts++] = vaddr;
    stlb_drop_exec(c, vaddr & ~0xfffull, false);
    return 0;
}

void cpu_set_probe_max_period(cpu *c, uint64_t ticks)
{
    c->probe.max_period = ticks;
    if (ticks && c->probe.period > ticks) {
        c->probe.period = ticks;
        if (c->probe.next_at > cpu_now_retired(c) + ticks)
            c->probe.next_at = cpu_now_retired(c) + ticks;
    }
}

/* The longest a failed probe backs off to (cpu_set_probe_max_period). */
static uint64_t probe_max(const cpu_probe *p)
{
    return p->max_period ? p->max_period : PROBE_MAX_PERIOD;
}

void cpu_probe_relax(cpu *c, uint64_t ticks)
{
    cpu_probe *p = &c->probe;
    uint64_t max = probe_max(p);
    if (p->on || ticks <= p->period)
        return;
    p->period = ticks < max ? ticks : max;
    if (p->next_at < cpu_now_retired(c) + p->period)
        p->next_at = cpu_now_retired(c) + p->period;
}

void cpu_idle_points_clear(cpu *c)
{
    for (unsigned i = 0; i < c->nidle_pts; i++)
        stlb_drop_exec(c, c->idle_pts[i] & ~0xfffull, false);
    free(c->idle_pts);
    c->idle_pts = NULL;
    c->nidle_pts = 0;
}

void cpu_hold_wait(cpu *c, bool hold)
{
    c->wait_held = hold;
    if (hold)
        cpu_wait_end(c);
}

void cpu_wake(cpu *c) { cpu_wait_end(c); }

/* The debugger armed something a polling loop may run into (a breakpoint, a
 * watchpoint, a watched page, the trace hook): the loop runs again, and the
 * probe that follows gives up on it if it does. */
void cpu_wait_debug_changed(cpu *c)
{
    if (c->wait == CPU_WAIT_POLL)
        cpu_wait_end(c);
}

void cpu_get_wait_info(const cpu *c, cpu_wait_info *w)
{
    memset(w, 0, sizeof *w);
    w->kind = c->wait;
    w->pc = c->wait_pc;
    w->since = c->wait_since;
    w->nreads = c->wait_nreads;
    w->mmio = c->wait_mmio;
    w->waited = c->waited;
    w->idle_waits = c->waits[CPU_WAIT_IDLE];
    w->poll_waits = c->waits[CPU_WAIT_POLL];
}

/* ---- Waiting ------------------------------------------------------------ */

static void wait_begin(cpu *c, int kind)
{
    c->wait = kind;
    c->wait_pc = c->pc;
    c->wait_since = cpu_now_retired(c);
    c->waits[kind]++;
    cpu_kick(c);
}

void cpu_wait_end(cpu *c)
{
    if (!c->wait)
        return;
    if (c->wait == CPU_WAIT_POLL) {
        /* Look for the loop again as soon as the CPU runs. */
        c->probe.period = PROBE_FIRST;
        c->probe.next_at = cpu_now_retired(c);
    }
    c->wait = CPU_WAIT_NONE;
    cpu_kick(c);
}

static uint64_t read_now(const cpu *c, const poll_read *r)
{
    if (r->dev)
        return dev_peek(r->dev, r->id, r->idx);
    uint8_t b[8];
    if (bus_peek(c->bus, r->addr, b, r->size) != BUS_OK)
        return ~r->value; /* (cannot happen: it was RAM) */
    return load_be(b, r->size);
}

bool cpu_wait_over(cpu *c)
{
    if (c->wait_held || !c->idle_skip || c->nmi_pending || c->sreset_pending)
        return true;
    if (c->wait == CPU_WAIT_IDLE)
        return (c->cause & c->status & ST_IM) != 0 && c->clock->now >= c->wait_floor;
    if (cpu_irq_pending(c) || c->clock->now >= c->wait_deadline)
        return true;
    for (unsigned i = 0; i < c->wait_nreads; i++)
        if (read_now(c, &c->wait_reads[i]) != c->wait_reads[i].value)
            return true;
    return false;
}

void cpu_wait_to(cpu *c, uint64_t t) { c->wait_floor = t; }

bool cpu_wait_woken(cpu *c)
{
    return c->wait == CPU_WAIT_IDLE && !c->wait_held && c->idle_skip &&
           ((c->cause & c->status & ST_IM) || c->nmi_pending || c->sreset_pending);
}

/* The Count/Compare match, in clock time. */
static uint64_t timer_clock(const cpu *c) { return c->timer_at - (uint64_t)c->retired_delta; }

uint64_t cpu_wait_until(const cpu *c, uint64_t until)
{
    uint64_t t = until, tm = timer_clock(c);
    if (tm > c->clock->now && tm < t)
        t = tm;
    if (c->wait == CPU_WAIT_POLL && c->wait_deadline < t)
        t = c->wait_deadline;
    return t;
}

void cpu_wait_advance(cpu *c, uint64_t until)
{
    while (c->wait && c->clock->now < until && !cpu_wait_over(c)) {
        uint64_t now = c->clock->now, t = cpu_wait_until(c, until);
        if (t <= now)
            break;
        cpu_wait_account(c, t - now);
        c->retired += t - now; /* (outside a run: retired = now + retired_delta) */
        c->clock->now = t;
        cpu_timer_check(c); /* (a Count/Compare match: masked, it waits on) */
    }
}

/* Clock time at which a waiting CPU ends its wait by itself (its
 * Count/Compare interrupt, a polled register that changes with time), or
 * UINT64_MAX. */
static uint64_t wait_deadline(const cpu *c)
{
    if (!c->wait)
        return UINT64_MAX;
    uint64_t t = UINT64_MAX;
    if (c->status & (CAUSE_IP7 & ST_IM))
        t = timer_clock(c);
    if (c->wait == CPU_WAIT_POLL && c->wait_deadline < t)
        t = c->wait_deadline;
    return t;
}

/* ---- Idle points ---------------------------------------------------------- */

/* The fetch path reached an idle point (state synced in c): wait? */
bool cpu_idle_enter(cpu *c)
{
    if (!c->idle_skip || c->wait_held || c->in_ds || c->mode != MODE_KERNEL)
        return false;
    if (c->status & (ST_IE | ST_EXL | ST_ERL))
        return false; /* only the routine's own contract: called with interrupts off */
    if (!(c->status & ST_IM) || (c->cause & c->status & ST_IM))
        return false; /* nothing could end the wait, or something already does */
    if (c->nmi_pending || c->sreset_pending)
        return false;
    cpu_probe_stop(c, false);
    wait_begin(c, CPU_WAIT_IDLE);
    return true;
}

/* ---- Probes --------------------------------------------------------------- */

/* What an instruction is to a probe: a load to note, an instruction whose
 * effect shows in the registers, a branch or jump (the same), or one a
 * polling loop does not contain (stores, LL/SC, CP0, FP, traps, system
 * calls). */
enum { OPC_BAD, OPC_LOAD, OPC_PLAIN, OPC_CONTROL };
static int op_class(int op)
{
    if (op_is_shift((unsigned)op) || op_fmt_in((unsigned)op, OFMT(F_MD)))
        return OPC_PLAIN;
    switch (op) {
    case OP_LB:
    case OP_LBU:
    case OP_LH:
    case OP_LHU:
    case OP_LW:
    case OP_LWU:
    case OP_LD:
    case OP_LWL:
    case OP_LWR:
    case OP_LDL:
    case OP_LDR: return OPC_LOAD;
    case OP_NOP:
    case OP_SYNC:
    case OP_PREF:
    case OP_MOVZ:
    case OP_MOVN:
    case OP_MFHI:
    case OP_MTHI:
    case OP_MFLO:
    case OP_MTLO:
    case OP_ADD:
    case OP_ADDU:
    case OP_SUB:
    case OP_SUBU:
    case OP_AND:
    case OP_OR:
    case OP_XOR:
    case OP_NOR:
    case OP_SLT:
    case OP_SLTU:
    case OP_DADD:
    case OP_DADDU:
    case OP_DSUB:
    case OP_DSUBU:
    case OP_ADDI:
    case OP_ADDIU:
    case OP_SLTI:
    case OP_SLTIU:
    case OP_ANDI:
    case OP_ORI:
    case OP_XORI:
    case OP_LUI:
    case OP_DADDI:
    case OP_DADDIU: return OPC_PLAIN;
    case OP_BC1: return OPC_BAD; /* it tests the FPU's condition, which a probe does not note */
    default: return op_is_control((unsigned)op) ? OPC_CONTROL : OPC_BAD;
    }
}

/* The code at the pc as memory holds it: the host address of the
 * instruction at the pc and how many instructions follow it on its page, or
 * NULL when it is not plain RAM (or not mapped).  Read from memory, not from
 * a decoded page: which page the CPU has at hand depends on the engine (the
 * translator leaves none current), and what a probe or the delay-loop check
 * decides must not. */
static const uint8_t *code_at_pc(const cpu *c, unsigned *n)
{
    uint64_t ba;
    bool cached;
    if ((c->pc & 3) || cpu_xlate(c, c->pc, ACC_FETCH, &ba, &cached) != XL_OK)
        return NULL;
    const bus_region *r = bus_find(c->bus, ba);
    if (!r || !r->ram || ba + 4 - r->base > r->size)
        return NULL;
    uint64_t in_page = (0x1000 - (ba & 0xfff)) / 4, in_region = (r->base + r->size - ba) / 4;
    *n = (unsigned)(in_page < in_region ? in_page : in_region);
    return r->ram->host + r->ram_off + (ba - r->base);
}

/* A breakpoint, an HLE hook or an idle point at va. */
static bool special_at(const cpu *c, uint64_t va)
{
    return (c->nbps && cpu_bp_at(c, va)) || (c->nhles && cpu_hle_at(c, va)) ||
           (c->nidle_pts && cpu_idle_point_at(c, va));
}

/* Would a probe from pc fail before the first branch?  The instructions up
 * to there run in order whatever the registers hold, so one a polling loop
 * cannot contain settles it without watching anything (busy code mostly
 * stores within a few instructions).  Looks at the pc's page only; a page
 * with breakpoints, hooks or idle points is left to the probe. */
static bool straight_line_fails(const cpu *c)
{
    const dinsn *slot;
    dinsn dl[2];
    if (delay_loop_left(c, &slot, dl))
        return true; /* a delay loop: done at once, not a wait */
    unsigned avail;
    const uint8_t *code = code_at_pc(c, &avail);
    if (!code)
        return false;
    if ((c->nbps || c->nhles || c->nidle_pts) && cpu_page_special(c, c->pc & ~0xfffull))
        return false;
    for (unsigned k = 0; k < avail && k < 32; k++) {
        dinsn d;
        cpu_decode(ldbe32(code + 4 * k), &d);
        int cl = op_class(d.op);
        if (cl == OPC_BAD)
            return true;
        if (cl == OPC_CONTROL)
            return false;
    }
    return false;
}

/* The iteration being watched starts here. */
static void snapshot(cpu *c)
{
    cpu_probe *p = &c->probe;
    memcpy(p->regs, c->gpr, 32 * sizeof c->gpr[0]);
    p->regs[32] = c->hi;
    p->regs[33] = c->lo;
    p->nreads = 0;
    p->deadline = UINT64_MAX;
}

void cpu_probe_start(cpu *c)
{
    cpu_probe *p = &c->probe;
    uint64_t now = cpu_now_retired(c);
    if (c->dly) { /* not between a branch and its delay slot */
        p->next_at = now + 1;
        return;
    }
    if (c->wait_held) {
        p->next_at = now + p->period;
        return;
    }
    if (straight_line_fails(c)) { /* (cheap: no backing off for these) */
        p->next_at = now + p->period;
        return;
    }
    p->on = true;
    p->steps = 0;
    p->pc0 = c->pc;
    p->again = false;
    p->noting = false;
    snapshot(c);
    cpu_drop_fpage(c); /* every instruction through fetch_full() from now */
    cpu_kick(c);
}

void cpu_probe_stop(cpu *c, bool failed)
{
    cpu_probe *p = &c->probe;
    if (p->noting) {
        dev_note_reads(NULL);
        p->noting = false;
    }
    if (!p->on)
        return;
    p->on = false;
    p->retried = false;
    if (failed && p->period < probe_max(p))
        p->period *= 2;
    p->next_at = cpu_now_retired(c) + p->period;
    cpu_kick(c); /* back to the fast fetch path */
}

static bool add_read(cpu_probe *p, device *dev, unsigned id, unsigned idx, uint64_t addr,
                     unsigned size, uint64_t value)
{
    for (unsigned i = 0; i < p->nreads; i++) {
        poll_read *r = &p->reads[i];
        if (r->dev == dev &&
            (dev ? r->id == id && r->idx == idx : r->addr == addr && r->size == size))
            return true;
    }
    if (p->nreads == POLL_MAX_READS)
        return false;
    p->reads[p->nreads++] =
        (poll_read){dev, (uint16_t)id, (uint16_t)idx, (uint8_t)size, addr, value};
    return true;
}

void cpu_probe_note_done(cpu *c)
{
    cpu_probe *p = &c->probe;
    dev_note_reads(NULL);
    p->noting = false;
    if (!p->on)
        return;
    const dev_read_note *n = &p->note;
    if (n->n == 0 || n->impure) { /* not a register, or reading it did something */
        cpu_probe_stop(c, true);
        return;
    }
    for (unsigned i = 0; i < n->n; i++) {
        if (!add_read(p, n->reg[i].dev, n->reg[i].id, n->reg[i].idx, 0, 0, n->reg[i].peek)) {
            cpu_probe_stop(c, true);
            return;
        }
        if (n->reg[i].changes < p->deadline)
            p->deadline = n->reg[i].changes;
    }
}

/* A load the loop may do: note what it reads.  False: not a polling load. */
static bool probe_load(cpu *c, const dinsn *d)
{
    cpu_probe *p = &c->probe;
    unsigned size;
    bool partial = false;
    switch (d->op) {
    case OP_LB:
    case OP_LBU: size = 1; break;
    case OP_LH:
    case OP_LHU: size = 2; break;
    case OP_LW:
    case OP_LWU: size = 4; break;
    case OP_LWL:
    case OP_LWR:
        size = 4;
        partial = true;
        break;
    case OP_LDL:
    case OP_LDR:
        size = 8;
        partial = true;
        break;
    default: size = 8; break; /* LD */
    }
    uint64_t va = c->gpr[d->rs] + (uint64_t)(int64_t)d->imm;
    if (partial)
        va &= ~(uint64_t)(size - 1);
    else if (va & (size - 1))
        return false; /* it would fault */
    if (c->nwps || c->watch_armed)
        return false; /* the debugger (or CP0 WatchLo) wants to see every access */
    uint64_t ba;
    bool cached;
    if (cpu_xlate(c, va, ACC_LOAD, &ba, &cached) != XL_OK)
        return false;
    const bus_region *r = bus_find(c->bus, ba);
    if (!r || ba + size - r->base > r->size)
        return false;
    if (r->ram) {
        uint64_t off = r->ram_off + (ba - r->base);
        if (ram_page_flags(r->ram, off) & PF_WATCH_R)
            return false;
        return add_read(p, NULL, 0, 0, ba, size, load_be(r->ram->host + off, size));
    }
    dev_note_reads(&p->note); /* the register reads of this load */
    p->noting = true;
    return true;
}

/* Back at pc0: the same registers and the same values to read again? */
static bool probe_close(cpu *c)
{
    cpu_probe *p = &c->probe;
    bool same = !memcmp(p->regs, c->gpr, 32 * sizeof c->gpr[0]) && p->regs[32] == c->hi &&
                p->regs[33] == c->lo;
    if (!same && !p->again) {
        /* The first iteration may still carry values from before it (the
         * register a load fills held the previous value): watch one more. */
        snapshot(c);
        p->again = true;
        return false;
    }
    if (!same || c->wait_held || !c->idle_skip) {
        cpu_probe_stop(c, !same);
        return false;
    }
    bool mmio = false, changed = p->deadline <= c->clock->now;
    for (unsigned i = 0; i < p->nreads && !changed; i++) {
        changed = read_now(c, &p->reads[i]) != p->reads[i].value;
        mmio |= p->reads[i].dev != NULL;
    }
    if (changed) {
        /* A value read changed during the iteration (a register that
         * changes with time, read just before it did): look again at once,
         * but only once in a row. */
        bool again = !p->retried;
        cpu_probe_stop(c, false);
        if (again) {
            p->next_at = cpu_now_retired(c);
            p->retried = true;
        }
        return false;
    }
    memcpy(c->wait_reads, p->reads, p->nreads * sizeof p->reads[0]);
    c->wait_nreads = p->nreads;
    c->wait_mmio = mmio;
    c->wait_deadline = p->deadline;
    p->on = false;
    p->period = PROBE_FIRST;
    p->retried = false;
    wait_begin(c, CPU_WAIT_POLL);
    return true;
}

/* Before the instruction d at pc (state synced in c).  True: the CPU
 * waits instead (pc is the loop's head). */
bool cpu_probe_step(cpu *c, uint64_t pc, const dinsn *d)
{
    cpu_probe *p = &c->probe;
    if (p->noting)
        cpu_probe_note_done(c);
    if (!p->on)
        return false;
    if (c->nbps && cpu_bp_at(c, pc)) { /* a breakpoint in the loop must keep hitting */
        cpu_probe_stop(c, false);
        return false;
    }
    if (p->steps && pc == p->pc0 && !c->in_ds) {
        bool second = p->again, waits = probe_close(c);
        if (waits || !p->on || second)
            return waits;
        /* The first iteration changed a register (a value it read changed:
         * another CPU's or a DMA's store), and the second starts here: note
         * this instruction too, or a load at pc0 left out of the wait's
         * reads makes a wait that no store ends. */
    }
    if (++p->steps > PROBE_MAX_STEPS) {
        cpu_probe_stop(c, true);
        return false;
    }
    bool ok;
    switch (op_class(d->op)) {
    case OPC_LOAD: ok = probe_load(c, d); break;
    case OPC_PLAIN:
    case OPC_CONTROL: ok = true; break;
    default: ok = false; break;
    }
    if (!ok)
        cpu_probe_stop(c, true);
    return false;
}

/* ---- Delay loops -------------------------------------------------------- */

/* A CPU at the head of a counting delay loop, Linux's __delay:
 *       1: bnez  a0, 1b
 *          daddiu a0, a0, -1     (or addiu, on a 32-bit count)
 * does nothing but count down, so the iterations can be done at once: the
 * counter, the clock and the instruction count end where running them
 * would have left them (the exit, the last branch and its delay slot, is
 * left to the engine).  Unlike a wait this is exact.  The two instructions
 * are decoded from memory (code_at_pc), so both engines find the same
 * loops.  How many taken iterations are left (0: not at such a loop);
 * *slot gets the decrement (in buf[1]). */
static uint64_t delay_loop_left(const cpu *c, const dinsn **slot, dinsn *buf)
{
    if (c->trace || c->dly)
        return 0;
    unsigned avail;
    const uint8_t *code = code_at_pc(c, &avail);
    if (!code || avail < 2)
        return 0;
    dinsn *b = &buf[0], *s = &buf[1];
    cpu_decode(ldbe32(code), b);
    if (b->op != OP_BNE || b->rt != 0 || b->imm != -4)
        return 0;
    cpu_decode(ldbe32(code + 4), s);
    if (s->rs != b->rs || s->rd != b->rs || s->imm != -1 ||
        (s->op != OP_DADDIU && s->op != OP_ADDIU))
        return 0;
    if (special_at(c, c->pc) || special_at(c, c->pc + 4))
        return 0; /* (a breakpoint or a hook in the loop) */
    uint64_t r = c->gpr[b->rs];
    *slot = s;
    if (s->op == OP_DADDIU)
        return r;
    if ((uint64_t)(int64_t)(int32_t)r != r)
        return 0; /* not a 32-bit value yet: the engine makes it one */
    return (uint32_t)r;
}

/* Do the delay loop's iterations up to clock time `lim`; returns the ticks. */
uint64_t cpu_delay_loop(cpu *c, uint64_t lim)
{
    const dinsn *s;
    dinsn buf[2];
    uint64_t left = delay_loop_left(c, &s, buf);
    uint64_t now = c->clock->now, room = lim > now ? (lim - now) / 2 : 0;
    uint64_t n = left < room ? left : room;
    if (!n)
        return 0;
    uint64_t r = c->gpr[s->rs] - n;
    c->gpr[s->rs] = s->op == OP_DADDIU ? r : (uint64_t)(int64_t)(int32_t)(uint32_t)r;
    c->clock->now = now + 2 * n;
    return 2 * n;
}

uint64_t cpu_quiet_until(cpu *c, uint64_t now)
{
    /* The common case first and cheaply: a CPU that neither waits nor sits
     * at a branch that may head a delay loop runs code. */
    if (!c->idle_skip || (!c->wait && !cpu_maybe_at_bne(c)))
        return now;
    uint64_t t;
    if (c->wait) {
        uint64_t saved = c->clock->now;
        c->clock->now = now; /* (cpu_wait_over compares deadlines with the clock) */
        bool over = cpu_wait_over(c);
        c->clock->now = saved;
        if (over)
            return now;
        t = wait_deadline(c);
    } else {
        /* A CPU at no delay loop (the common case: asked first) runs code. */
        const dinsn *s;
        dinsn buf[2];
        uint64_t left = delay_loop_left(c, &s, buf);
        if (!left)
            return now;
        if (c->probe.on || cpu_irq_pending(c) || c->nmi_pending || c->sreset_pending)
            return now; /* (it takes the interrupt first) */
        t = left > (UINT64_MAX - now) / 2 ? UINT64_MAX : now + 2 * left;
        uint64_t tm = timer_clock(c);
        if (tm > now && tm < t)
            t = tm;
    }
    return t;
}
