/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run loop: cpu_run() and the dispatch of decoded operations.
 *
 * cpu_run() alternates between an outer part (exit requests, stops, NMI and
 * soft reset, the Count/Compare timer, interrupts, the time limit) and
 * cpu_interp(), a threaded interpreter over decoded pages: each handler ends
 * by counting the next instruction against a budget kept in a register and
 * jumping straight to that instruction's handler (computed goto), so the
 * common path has no pc arithmetic, no page test and no limit load.  The pc
 * is implied by the slot pointer (pc = pcb + slot address / 4); running off
 * a page lands on its OP_REFETCH sentinel.  Anything that must be looked at
 * between two instructions (an interrupt line, a Status write, a breakpoint
 * insertion, cpu_request_exit) sets c->limit to 0 (a "kick"): cpu_interp
 * looks at it after every slow path, every taken or untaken branch and every
 * page change, so it stops within the basic block.
 *
 * Time: one tick per instruction executed, and one per exception taken (so
 * a CPU looping on a faulting vector still moves time forward).
 *
 * Delay slots: a branch notes its target (bt) and switches the dispatch
 * table to one whose every entry is after_ds (or after_dsl, when the target
 * is a slot on the same page); the next instruction runs as the delay slot
 * (IN_DS() for exceptions: EPC = branch, Cause.BD) and its own dispatch then
 * lands in after_ds, which goes to the target (pc + 8 when not taken).
 * Branch-likely forms that are not taken skip the slot.  c->dly/dtarget hold
 * that state between runs.
 *
 * Breakpoints and HLE hooks: their pages have no exec soft-TLB entries, so
 * entering them takes the slow fetch, which marks their slots in
 * c->spec_bits and gives the page tbl_spec: there each instruction first
 * tests its bit (only those pages pay that), and a marked one goes through
 * fetch_full().  With the trace hook no page becomes current: every
 * instruction comes through fetch_full() and runs alone from c->tmp.
 *
 * Handlers: one per operation, in exec_alu.h, exec_branch.h, exec_mem.h
 * and exec_sys.h, included inside cpu_interp() (they are labels of its
 * computed goto); what each instruction computes is in insn.h, which they
 * call with their operation as a constant.  A handler uses only the
 * vocabulary defined at the top of cpu_interp() (OP, NEXT, SLOW, EXC, GO,
 * BRANCH, ...).
 */
#include "cpu/cpu_internal.h"
#include "cpu/ops.h"
#include "cpu/insn.h"
#include "cpu/jit.h"

/* The fetch slow path with the debugger's per-instruction features.
 * Returns the slot to execute, NULL after an exception, or sets *stop. */
static dinsn *fetch_full(cpu *c, uint64_t pc, int *stop, bool *hle_done)
{
    *stop = 0;
    *hle_done = false;
    bool skip = c->skip_bp && c->skip_pc == pc;
    c->skip_bp = false;
    if (unlikely(c->nbps) && !skip && cpu_bp_at(c, pc)) {
        *stop = CPU_BREAK;
        return NULL;
    }
    if (unlikely(c->nhles)) {
        const cpu_hle *h = cpu_hle_at(c, pc);
        if (h) {
            h->fn(h->ctx, c);
            c->gpr[0] = 0;
            c->pc = c->gpr[31];
            c->dly = false;
            *hle_done = true;
            return NULL;
        }
    }
    if (unlikely(c->nidle_pts) && cpu_idle_point_at(c, pc) && cpu_idle_enter(c)) {
        *stop = CPU_WAITING;
        return NULL;
    }
    dinsn *d = cpu_fetch_slow(c, pc);
    if (!d)
        return NULL;
    if (d->op == OP_DECODE && d != &c->tmp[0])
        dpage_decode_slot(c, c->fpage_last, d);
    if (unlikely(c->probe.on) && cpu_probe_step(c, pc, d)) {
        *stop = CPU_WAITING;
        return NULL;
    }
    if (unlikely(c->trace))
        c->trace(c->trace_ctx, c, pc, d->raw);
    return d;
}

/* An exec soft TLB in which nothing matches. */
static const xtlb no_xtlb[STLB_SIZE] = {[0 ... STLB_SIZE - 1] = {STLB_EMPTY, NULL}};

int cpu_interp(cpu *c, uint64_t cap)
{
    /* Threaded dispatch: every handler ends by counting the next
     * instruction and jumping straight to its handler through `tbl`.  tbl is
     * the mode's table (mtbl: tbl_k, or tbl_chk in a restricted mode), or
     * tbl_ds while a delay slot runs: its every entry is after_ds, which
     * continues at the branch target.  What is not an instruction (after_ds,
     * REFETCH) gives its count back. */
    static const void *const tbl_k[OP_COUNT] = {
#define X(n, m, f) [OP_##n] = &&L_##n,
        CPU_OPS(X)
#undef X
    };
    /* A mode without 64-bit operations or MIPS IV checks those first. */
    static const void *const tbl_chk[OP_COUNT] = {
#define X(n, m, f) \
    [OP_##n] = INSN_IS_OP64(OP_##n) ? &&L_CHK64 : INSN_IS_OP4(OP_##n) ? &&L_CHK4 : &&L_##n,
        CPU_OPS(X)
#undef X
    };
    static const void *const tbl_ds[OP_COUNT] = {
#define X(n, m, f) [OP_##n] = &&after_ds,
        CPU_OPS(X)
#undef X
    };
    static const void *const tbl_dsl[OP_COUNT] = {
#define X(n, m, f) [OP_##n] = &&after_dsl,
        CPU_OPS(X)
#undef X
    };
    /* On a page with a breakpoint or an HLE hook: every instruction first
     * looks at its bit in c->spec_bits. */
    static const void *const tbl_spec[OP_COUNT] = {
#define X(n, m, f) [OP_##n] = OP_##n == OP_DECODE || OP_##n == OP_REFETCH ? &&L_##n : &&L_SPEC,
        CPU_OPS(X)
#undef X
    };
    uint64_t *const R = c->gpr;
    sched *const clk = c->clock;
    const void *const *tbl;  /* what the next dispatch uses */
    const void *const *mtbl; /* the current page's table: rtbl or tbl_spec */
    const void *const *rtbl; /* the mode's table: tbl_k or tbl_chk */
    const dinsn *d;
    int64_t left;   /* instructions that may still start */
    uint64_t lim;   /* clk->now = lim - left */
    uint64_t pcb;   /* pc of slot d = pcb + (d >> 2) */
    uint64_t vbase; /* the current page: virtual base ... */
    dpage *page;    /* ... and decoded slots */
    uint64_t pc, dtarget2 = 0;
    /* The pending branch's target: a pc with tbl_ds, a slot on this page
     * with tbl_dsl. */
    uintptr_t bt;
    stlb *rtlb, *wtlb; /* the mode's soft TLB: loads, stores */
    xtlb *xt;
    int rc = 0;

/* The handlers' vocabulary.  A handler is OP(name) followed by statements
 * that end in a jump: NEXT() (the next slot), SLOW_DONE() (the same, after
 * a slow path that may have kicked the CPU), SLOW(call) (an insn.h state
 * helper that may take an exception), EXC(code) and EXC_CE(n) (raise an
 * exception), GO(target), BRANCH(cond) or BRANCH_LIKELY(cond) (the delay
 * slot, then the target), goto done_reload (after CP0 or TLB changes) or
 * goto reload.  PC() is its pc, R the GPRs, d its slot; SYNC() stores pc,
 * delay-slot state and time into c before a slow path; CHK64(), CHK4(),
 * NEED_CU0(), NEED_CU1() raise RI or CpU. */
#define PC() (pcb + ((uintptr_t)d >> 2))
#define PC_OF(s) (pcb + ((uintptr_t)(s) >> 2))
#define IN_DS() (tbl != mtbl)
/* Where the pending branch goes (when IN_DS()). */
#define DTARGET() (tbl == tbl_dsl ? PC_OF(bt) : bt)
/* cpu_kick() and cpu_request_exit() set c->limit to 0: leave soon. */
#define KICKED() (c->limit == 0)
#define OP(n) L_##n:
#define NEXT()                    \
    do {                          \
        d++;                      \
        if (unlikely(--left < 0)) \
            goto out_next;        \
        goto *tbl[d->op];         \
    } while (0)
/* After a slow path (device access, CP0): stop if something kicked the CPU. */
#define SLOW_DONE()               \
    do {                          \
        if (unlikely(KICKED())) { \
            d++;                  \
            goto out_done;        \
        }                         \
        NEXT();                   \
    } while (0)
/* Run the slot d (a delay slot when IN_DS()). */
#define DISPATCH()                \
    do {                          \
        if (unlikely(--left < 0)) \
            goto out_before;      \
        goto *mtbl[d->op];        \
    } while (0)
/* A new current page, with its table (keeping a pending delay slot). */
#define SET_MTBL(t)      \
    do {                 \
        if (tbl == mtbl) \
            tbl = (t);   \
        mtbl = (t);      \
    } while (0)
#define SYNC()                           \
    do {                                 \
        c->pc = PC();                    \
        c->in_ds = IN_DS();              \
        clk->now = lim - (uint64_t)left; \
    } while (0)
#define EXC(code)                           \
    do {                                    \
        SYNC();                             \
        cpu_exception(c, (code), 0, false); \
        goto exc;                           \
    } while (0)
#define EXC_CE(n)                 \
    do {                          \
        SYNC();                   \
        cpu_exception_ce(c, (n)); \
        goto exc;                 \
    } while (0)
#define CHK64()                  \
    do {                         \
        if (unlikely(!c->ops64)) \
            EXC(EXC_RI);         \
    } while (0)
#define CHK4()                   \
    do {                         \
        if (unlikely(!c->mips4)) \
            EXC(EXC_RI);         \
    } while (0)
/* Go to t after the delay slot (the next slot). */
#define GO(t)                    \
    do {                         \
        uint64_t t_ = (t);       \
        if (unlikely(IN_DS())) { \
            dtarget2 = t_;       \
            goto branch_in_ds;   \
        }                        \
        bt = t_;                 \
        tbl = tbl_ds;            \
        d++;                     \
        DISPATCH();              \
    } while (0)
#define BTARGET() (PC() + 4 + (uint64_t)(int64_t)d->imm)
/* Conditional branches whose slot and both continuations are on this page
 * (DF_LOCAL, set when the slot was decoded) go by slot pointer (imm is a
 * multiple of 4: the target slot is 4 * imm bytes after the delay slot). */
#define LOCAL_TARGET() ((uintptr_t)(d + 1) + (uintptr_t)((intptr_t)d->imm * 4))
#define BRANCH(cond)                                           \
    do {                                                       \
        if (likely(d->flags & DF_LOCAL) && likely(!IN_DS())) { \
            bt = (cond) ? LOCAL_TARGET() : (uintptr_t)(d + 2); \
            tbl = tbl_dsl;                                     \
            d++;                                               \
            DISPATCH();                                        \
        }                                                      \
        GO((cond) ? BTARGET() : PC() + 8);                     \
    } while (0)
#define BRANCH_LIKELY(cond)                                    \
    do {                                                       \
        bool c_ = (cond);                                      \
        if (likely(d->flags & DF_LOCAL) && likely(!IN_DS())) { \
            if (c_) {                                          \
                bt = LOCAL_TARGET();                           \
                tbl = tbl_dsl;                                 \
                d++;                                           \
            } else {                                           \
                d += 2; /* the slot is skipped */              \
            }                                                  \
            DISPATCH();                                        \
        }                                                      \
        if (c_)                                                \
            GO(BTARGET());                                     \
        pc = PC() + 8;                                         \
        tbl = mtbl;                                            \
        goto jump;                                             \
    } while (0)
/* A state helper of insn.h that returns false when it took an exception. */
#define SLOW(call)    \
    do {              \
        SYNC();       \
        if (!(call))  \
            goto exc; \
        SLOW_DONE();  \
    } while (0)
/* Coprocessor Unusable unless CP0 (kernel mode or Status.CU0), CP1 usable. */
#define NEED_CU0()             \
    do {                       \
        if (unlikely(!c->cu0)) \
            EXC_CE(0);         \
    } while (0)
#define NEED_CU1()                           \
    do {                                     \
        if (unlikely(!(c->status & ST_CU1))) \
            EXC_CE(1);                       \
    } while (0)

    /* At most `cap` instructions (the translator's dispatcher hands over
     * what it does not translate): a limit of our own below c->limit. */
    const uint64_t caplim = clk->now + cap < clk->now ? UINT64_MAX : clk->now + cap;
reload : {
    uint64_t klim = c->limit, now = clk->now;
    if (klim > caplim)
        klim = caplim;
    uint64_t n = klim > now ? klim - now : 0;
    if (n > (uint64_t)INT64_MAX)
        n = (uint64_t)INT64_MAX;
    left = (int64_t)n;
    lim = now + n;
}
    vbase = c->fvbase;
    page = c->fpage;
    pcb = vbase - ((uintptr_t)page->insn >> 2);
    rtlb = c->st->r;
    wtlb = c->st->w;
    /* While a probe watches (idle.c), no exec soft-TLB entry matches: every
     * fetch goes through fetch_full(). */
    xt = unlikely(c->probe.on) ? (xtlb *)no_xtlb : c->st->x;
    rtbl = c->ops64 && c->mips4 ? tbl_k : tbl_chk;
    mtbl = c->fspecial ? tbl_spec : rtbl;
    pc = c->pc;
    bt = c->dtarget;
    tbl = c->dly ? tbl_ds : mtbl;
    /* fall through */

jump : /* run the instruction at pc (a delay slot when IN_DS()) */
{
    uint64_t off = pc - vbase;
    if (likely((off & ~0xffcull) == 0)) {
        d = &page->insn[off >> 2];
        DISPATCH();
    }
}
fetch : /* ... which is not on the current page */
{
    xtlb *x = &xt[(pc >> RAM_PAGE_SHIFT) & (STLB_SIZE - 1)];
    if (likely(x->tag == (pc & ~0xffcull))) { /* (an unaligned pc never matches) */
        page = x->page;
        vbase = x->tag;
        c->fvbase = vbase;
        c->fpage = page;
        c->fspecial = false;
        c->skip_bp = false;
        pcb = vbase - ((uintptr_t)page->insn >> 2);
        SET_MTBL(rtbl);
        d = &page->insn[(pc & 0xfff) >> 2];
        DISPATCH();
    }
}
fetch_slow:                  /* translation, breakpoints, HLE hooks, the trace hook */
    if (unlikely(left <= 0)) /* the budget ran out, or an exit was requested (by an HLE
                                call or an exception path that never dispatches) */
        goto out_pc;
    c->pc = pc;
    c->dly = c->in_ds = IN_DS();
    c->dtarget = bt; /* (tbl is mtbl or tbl_ds here: a pc) */
    clk->now = lim - (uint64_t)left;
    {
        int stop;
        bool hle;
        dinsn *nd = fetch_full(c, pc, &stop, &hle);
        if (!nd) {
            if (stop) {
                rc = stop;
                goto out_synced;
            }
            clk->now++; /* the exception or the HLE call costs a tick */
            goto reload;
        }
        if (nd != &c->tmp[0] && c->fvbase == (pc & ~0xfffull)) {
            vbase = c->fvbase;
            page = c->fpage;
            pcb = vbase - ((uintptr_t)page->insn >> 2);
            SET_MTBL(c->fspecial ? tbl_spec : rtbl);
            d = nd;
        } else {
            /* MMIO or a page the debugger watches: this one instruction from
             * c->tmp[0], then tmp[1] (OP_REFETCH) fetches the next. */
            if (nd != &c->tmp[0])
                c->tmp[0] = *nd;
            c->tmp[0].flags &= (uint8_t)~DF_LOCAL;
            vbase = NOPAGE_VBASE;
            page = c->nopage;
            d = &c->tmp[0];
            pcb = pc - ((uintptr_t)d >> 2);
            SET_MTBL(rtbl);
        }
        /* fetch_full() has seen to this pc's breakpoint or hook: run it. */
        if (unlikely(--left < 0))
            goto out_before;
        goto *rtbl[d->op];
    }

after_ds: /* the delay slot is done: on to the branch target (the
          * dispatch that got here counted the target's instruction) */
    tbl = mtbl;
    pc = bt;
    if (unlikely(KICKED())) {
        left++;
        goto out_pc;
    }
    {
        uint64_t off = pc - vbase;
        if (likely((off & ~0xffcull) == 0)) {
            d = &page->insn[off >> 2];
            goto *mtbl[d->op];
        }
    }
    left++;
    goto fetch;

after_dsl: /* the same, for a target slot on this page */
    tbl = mtbl;
    d = (const dinsn *)bt;
    if (unlikely(KICKED())) {
        left++;
        pc = PC();
        goto out_pc;
    }
    goto *mtbl[d->op];

branch_in_ds:
    /* A branch or jump in a delay slot (UNPREDICTABLE in the ISA): its own
     * delay slot is the instruction at the first branch's target. */
    pc = DTARGET();
    bt = dtarget2;
    tbl = tbl_ds;
    goto jump;

L_REFETCH: /* off the end of the page, or out of c->tmp */
    left++;
    pc = PC();
    if (tbl == tbl_dsl) { /* (cannot happen: DF_LOCAL slots are not last) */
        bt = DTARGET();
        tbl = tbl_ds;
    }
    if (unlikely(KICKED()))
        goto out_pc;
    goto fetch;

L_DECODE: /* (counted as the instruction it becomes) */
    dpage_decode_slot(c, page, (dinsn *)d);
    goto *mtbl[d->op];

L_SPEC : { /* on a page with breakpoints or HLE hooks */
    unsigned k = (unsigned)(d - page->insn);
    if (likely(!(c->spec_bits[k >> 6] & (1ull << (k & 63)))))
        goto *rtbl[d->op];
    left++;
    pc = PC();
    if (tbl == tbl_dsl) { /* a marked delay slot: keep the target as a pc */
        bt = DTARGET();
        tbl = tbl_ds;
    }
    goto fetch_slow;
}

L_CHK64:
    CHK64();
    goto *tbl_k[d->op];
L_CHK4:
    CHK4();
    goto *tbl_k[d->op];

/* The instructions, by class (what each computes is in insn.h). */
#include "cpu/exec_alu.h"
#include "cpu/exec_branch.h"
#include "cpu/exec_mem.h"
#include "cpu/exec_sys.h"

done_reload: /* a CP0 or TLB instruction is done: reload everything after it */
    c->pc = IN_DS() ? DTARGET() : PC() + 4;
    c->dly = false;
    goto reload;

exc: /* an exception was taken (c->pc is the vector) */
    c->dly = false;
    goto reload;

out_before: /* the budget ran out before the instruction at d */
    left = 0;
    pc = PC();
    goto out_pc;
out_next: /* the budget ran out after the instruction before d */
    left = 0;
    /* fall through */
out_done: /* stop after the instruction before d */
    if (IN_DS()) {
        pc = DTARGET();
        tbl = mtbl;
    } else {
        pc = PC();
    }
out_pc: /* stop before the instruction at pc (a delay slot when IN_DS()) */
    c->pc = pc;
    c->dly = c->in_ds = IN_DS();
    c->dtarget = IN_DS() ? DTARGET() : bt;
    clk->now = lim - (uint64_t)left;
    return 0;
out_synced: /* c already holds the state */
    return rc;
}

int cpu_run(cpu *c, uint64_t until)
{
    sched *clk = c->clock;
    int rc = CPU_RAN;
    c->until = until;
    c->retired_delta = (int64_t)(c->retired - clk->now);
    c->running = true;
    if (c->step_over) {
        c->step_over = false;
        c->skip_bp = true;
        c->skip_pc = c->pc;
        cpu_drop_fpage(c);
    }
    for (;;) {
        if (c->exit_req) {
            c->exit_req = 0;
            rc = CPU_EXIT;
            break;
        }
        if (c->stop) {
            rc = c->stop;
            c->stop = 0;
            break;
        }
        if (c->halt_reason) {
            rc = CPU_HALTED;
            break;
        }
        /* Page flags changed without our flags_changed callback seeing it. */
        if (unlikely(c->flags_gen != c->bus->flags_gen))
            stlb_flush(c);
        if (unlikely(c->rq_pending)) { /* posted by another thread (xthread.c) */
            cpu_take_posted(c);
            until = c->until; /* (cpu_post_until) */
        }
        if (unlikely(c->nmi_pending)) {
            c->nmi_pending = false;
            cpu_apply_nmi(c);
        }
        if (unlikely(c->sreset_pending)) {
            c->sreset_pending = false;
            cpu_apply_soft_reset(c);
        }
        cpu_timer_check(c);
        if (unlikely(c->wait) && cpu_wait_over(c))
            cpu_wait_end(c);
        if (cpu_irq_pending(c)) {
            c->in_ds = c->dly;
            cpu_exception(c, EXC_INT, 0, false);
            clk->now++;
        }
        if (clk->now >= until) {
            rc = CPU_RAN;
            break;
        }
        if (unlikely(c->wait)) { /* idle.c: nothing to execute until then */
            uint64_t t = cpu_wait_until(c, until);
            cpu_wait_account(c, t - clk->now);
            clk->now = t;
            continue;
        }
        uint64_t lim = until;
        unsigned why = RUN_END_TURN; /* what lim is */
        uint64_t t = c->timer_at - (uint64_t)c->retired_delta;
        if (t < lim) {
            lim = t;
            why = RUN_END_TIMER;
        }
        if (unlikely(c->sample_fn)) { /* the profiler: every so many instructions */
            uint64_t done = clk->now + (uint64_t)c->retired_delta - c->waited;
            if (done >= c->sample_at)
                cpu_sample(c, done);
            if (c->sample_fn && clk->now + (c->sample_at - done) < lim) {
                lim = clk->now + (c->sample_at - done);
                why = RUN_END_SAMPLE;
            }
        }
        uint64_t before = clk->now;
        if (c->idle_skip && !c->probe.on) { /* idle.c: probes start at fixed ticks */
            if (clk->now + (uint64_t)c->retired_delta >= c->probe.next_at)
                cpu_probe_start(c);
            if (!c->probe.on) {
                t = c->probe.next_at - (uint64_t)c->retired_delta;
                if (t < lim) {
                    lim = t;
                    why = RUN_END_IDLE;
                }
                /* idle.c: a counting delay loop (its head a BNE), at once */
                if (cpu_maybe_at_bne(c) && !c->exit_req && !c->stop)
                    cpu_delay_loop(c, lim);
            }
        }
        c->limit = lim;
        if (c->exit_req || c->stop)
            c->limit = 0;
        if (unlikely(c->threaded)) { /* a post's kick must not be lost under lim */
            __atomic_thread_fence(__ATOMIC_SEQ_CST);
            if (c->rq_pending || c->exit_req)
                c->limit = 0;
        }
        c->rs.runs++;
        int r = c->use_jit ? jit_run(c) : cpu_interp(c, UINT64_MAX);
        c->rs.run_end[r ? RUN_END_STOP : c->limit == 0 ? RUN_END_KICK : why]++;
        if (unlikely(c->probe.noting))
            cpu_probe_note_done(c); /* the device load that ended the run */
        if (unlikely(c->perf_ctl[0] | c->perf_ctl[1]))
            cpu_perf_account(c, clk->now - before, false);
        if (r == CPU_WAITING)
            continue;
        if (r) {
            rc = r;
            break;
        }
    }
    c->retired = (uint64_t)((int64_t)clk->now + c->retired_delta);
    c->running = false;
    c->skip_bp = false;
    return rc;
}

void cpu_request_exit(cpu *c)
{
    c->exit_req = 1;
    c->limit = 0;
}
