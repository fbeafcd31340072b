/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Execution: run, continue, stepi/step, nexti/next, finish, until,
 * advance, cpu; the resume loop every command that runs the guest goes
 * through, and the stop report. */
#include <stdio.h>
#include <stdlib.h>

#include "core/rr.h"
#include "dbg/dbg_int.h"
#include "dbg/source.h"

/* Instructions between two calls of the front end's poll hook while the
 * guest runs (a few milliseconds of host time). */
#define POLL_SLICE 1000000u

void dbg_report_stop(dbg *d, int reason)
{
    machine *m = d->m;
    cpu *c = dbg_cpu(d);
    if (bp_pending(d)) {
        bp_report_pending(d, c);
        return;
    }
    switch (reason) {
    case STOP_USER:
        dbg_puts(d, "\nInterrupted.\n");
        dbg_interrupt_reported();
        break;
    case STOP_HALT: dbg_printf(d, "\nThe CPU cannot continue: %s\n", m->stop_msg); break;
    case STOP_RESET:
        dbg_printf(d, "\nThe guest reset the machine%s%s.\n", m->stop_msg[0] ? ": " : "",
                   m->stop_msg);
        break;
    case STOP_STEP:
    case STOP_LIMIT: break;
    case STOP_REPLAY: dbg_printf(d, "\n%s.\n", m->stop_msg); break;
    default:
        dbg_printf(d, "\nStopped (%s)%s%s.\n", stop_reason_name(reason), m->stop_msg[0] ? ": " : "",
                   m->stop_msg);
        break;
    }
    if (c)
        dbg_show_location(d, c);
}

void dbg_request_stop(dbg *d)
{
    if (d->running)
        machine_request_stop(d->m, STOP_EVENT, NULL);
}

/* Instructions consumed so far: by CPU `only`, or by all of them. */
static uint64_t consumed(const machine *m, int only)
{
    if (only >= 0)
        return m->local_time[only];
    uint64_t t = 0;
    for (unsigned i = 0; i < m->ncpus; i++)
        t += m->local_time[i];
    return t;
}

static bool goal_reached(dbg *d, const run_goal *g, int cpu_i, cpu *c)
{
    if (!g || g->cpu != cpu_i)
        return false;
    uint64_t pc = cpu_pc(c), sp = cpu_gpr(c, 29);
    for (unsigned i = 0; i < g->n; i++)
        if (g->at[i].addr == pc && sp >= g->at[i].min_sp &&
            (!g->at[i].min_cfa || dbg_frame_cfa(d, c) >= g->at[i].min_cfa))
            return true;
    return false;
}

static bool goal_has(const run_goal *g, int cpu_i, uint64_t pc)
{
    for (unsigned i = 0; g && g->cpu == cpu_i && i < g->n; i++)
        if (g->at[i].addr == pc)
            return true;
    return false;
}

/* Is this breakpoint or watchpoint stop the remote client's (gdb's)? */
static bool client_claims(dbg *d, int reason, int cpu_i)
{
    return d->client && d->client->claim && d->client->claim(d, reason, cpu_i);
}

/* A CPU stopped at a code breakpoint: stop, or go on? */
static bool code_stop(dbg *d, const run_goal *goal, bool *at_goal)
{
    machine *m = d->m;
    int ci = m->cur_cpu;
    cpu *c = m->cpus[ci];
    uint64_t pc = cpu_pc(c);
    bool found = false;
    bool stop = bp_code_stop(d, ci, pc, &found);
    if (client_claims(d, STOP_BREAKPOINT, ci))
        found = stop = true;
    *at_goal = goal_reached(d, goal, ci, c);
    if (*at_goal)
        return true;
    if (!found && !goal_has(goal, ci, pc)) {
        char text[200];
        snprintf(text, sizeof text, "\nStopped at an unknown breakpoint at 0x%016llx.\n",
                 (unsigned long long)pc);
        bp_note_stop(d, text);
        return true;
    }
    return stop;
}

int dbg_resume(dbg *d, int mode, uint64_t n, const run_goal *goal)
{
    machine *m = d->m;
    if (!m || !m->ncpus)
        return dbg_error(d, "The machine has no CPU to run.");
    if (d->running)
        return dbg_error(d, "The guest is already running.");
    bool step = (mode & 0xff) == RUN_STEP;
    int only = step ? d->cur_cpu : -1;
    for (unsigned i = 0; goal && i < goal->n; i++)
        bp_addr_insert(d, goal->cpu, goal->at[i].addr);
    dbg_modules_resuming(d);
    hist_before_run(d);
    chardev_set_input_enabled(m->console, true);
    uint64_t left = n;
    bool at_goal = false;
    int r;
    /* "running" covers the whole loop: breakpoint hits examined between
     * machine runs are hits during the run (bp_hit queues them). */
    d->running = true;
    for (;;) {
        bp_before_run(d);
        for (unsigned i = 0; i < m->ncpus; i++)
            cpu_step_over_bp(m->cpus[i]);
        if (dbg_interrupt_pending()) {
            /* Ctrl-C between two runs (a breakpoint condition was false,
             * a slice ended): machine_run would forget it. */
            r = STOP_USER;
            break;
        }
        uint64_t t0 = consumed(m, only);
        /* With a front end or a remote client to keep alive (d->poll,
         * d->client), run in slices of a fixed number of instructions: the
         * same inputs still give the same run. */
        uint64_t budget = left;
        bool sliced = (d->poll || d->client) && (!budget || budget > POLL_SLICE);
        if (sliced)
            budget = POLL_SLICE;
        uint64_t hs = hist_slice(d); /* the history's snapshots: at slice ends */
        if (hs && (!budget || budget > hs)) {
            budget = hs;
            sliced = true;
        }
        r = machine_run_cpu(m, only, budget);
        if (n) {
            uint64_t used = consumed(m, only) - t0;
            left = used >= left ? 0 : left - used;
        }
        if (sliced && (r == STOP_LIMIT || r == STOP_STEP) && (!n || left)) {
            m->stop_reason = STOP_NONE; /* the front end may ask for a stop */
            hist_after_slice(d);
            if (d->poll)
                d->poll(d);
            if (d->client && d->client->poll)
                d->client->poll(d);
            if (m->stop_reason == STOP_NONE)
                continue;
            r = m->stop_reason;
        }
        bool stop = true;
        if (r == STOP_BREAKPOINT)
            stop = code_stop(d, goal, &at_goal);
        else if (r == STOP_WATCHPOINT)
            stop = client_claims(d, r, m->cur_cpu) || bp_cpu_watch_stop(d, m->cur_cpu);
        if (stop || d->quit)
            break;
        if (n && left == 0) {
            r = step ? STOP_STEP : STOP_LIMIT;
            break;
        }
    }
    d->running = false;
    hist_after_slice(d);
    for (unsigned i = 0; goal && i < goal->n; i++)
        bp_addr_remove(d, goal->cpu, goal->at[i].addr);
    chardev_set_input_enabled(m->console, false);
    chardev_flush(m->console);
    d->stop_count++;
    d->killed = false;
    d->frame = 0; /* a stop selects the innermost frame */
    if (at_goal && !bp_pending(d))
        r = STOP_STEP;
    if (r != STOP_STEP && r != STOP_LIMIT && m->cur_cpu != d->cur_cpu) {
        d->cur_cpu = m->cur_cpu;
        dbg_printf(d, "[Switching to cpu%d]\n", d->cur_cpu);
    }
    dbg_modules_stopped(d, r);
    bool quiet = (d->quiet_stop && r == STOP_EVENT && !bp_pending(d)) ||
                 ((mode & RUN_QUIET) && r == STOP_STEP);
    d->quiet_stop = false;
    /* The report is kept (info stop) and shown unless the stop is quiet or
     * the remote client caused it and reports it itself. */
    strbuf rep;
    sb_init(&rep);
    dbg_capture saved;
    dbg_capture_begin(d, &saved, &rep);
    if (r == STOP_LIMIT && n && !bp_pending(d)) /* say why it stopped */
        dbg_printf(d,
                   "\nStopped: the budget of %llu instruction%s (all CPUs together) is "
                   "used up.\n",
                   (unsigned long long)n, n == 1 ? "" : "s");
    dbg_report_stop(d, r);
    dbg_capture_end(d, &saved);
    free(d->stop_report);
    d->stop_report = rep.s ? sb_take(&rep) : xstrdup("");
    if (d->client && d->client->stopped && d->client->stopped(d, r, d->stop_report))
        quiet = true;
    if (!quiet) {
        if (d->stop_report)
            dbg_puts(d, d->stop_report);
        dbg_do_displays(d);
    }
    bp_after_stop(d);
    if (r == STOP_RESET && m->cfg.on_reset == RESET_EXIT)
        d->quit = true;
    return r;
}

/* ---- commands ------------------------------------------------------------ */

static int status(int r) { return r < 0 || r == STOP_HALT ? -1 : 0; }

/* N of continue: an instruction budget (0 would run nothing and is not
 * gdb's "continue 0" either, so it is refused); none: no budget. */
static int cmd_continue(dbg *d, const cmd_args *a)
{
    return status(dbg_resume(d, RUN_CONTINUE, a->num[0], NULL));
}

/* N of stepi and nexti (default 1).  As in gdb, 0 steps nothing and shows
 * where the CPU is. */
static int step_count(dbg *d, const cmd_args *a, uint64_t *n)
{
    *n = a->num[0];
    if (!dbg_cpu(d))
        return dbg_error(d, "No CPU selected.");
    if (*n == 0) {
        strbuf b;
        sb_init(&b);
        dbg_format_location(d, dbg_cpu(d), cpu_pc(dbg_cpu(d)), &b);
        dbg_puts_sb(d, &b);
    }
    return 0;
}

static int cmd_stepi(dbg *d, const cmd_args *a)
{
    uint64_t n;
    if (step_count(d, a, &n))
        return -1;
    return n ? status(dbg_resume(d, RUN_STEP, n, NULL)) : 0;
}

/* One "next": step, or run over the call at pc.  Returns the stop reason. */
static int next_one(dbg *d, bool quiet)
{
    cpu *c = dbg_cpu(d);
    uint64_t pc = cpu_pc(c);
    uint8_t b[4];
    uint32_t insn = 0;
    int q = quiet ? RUN_QUIET : 0;
    if (cpu_read_virt(c, pc, b, 4) == 4)
        insn = (uint32_t)load_be(b, 4);
    /* In the delay slot of a call, the call is already under way. */
    bool slot = cpu_in_delay_slot(c) && cpu_read_virt(c, pc - 4, b, 4) == 4 &&
                dbg_insn_is_call((uint32_t)load_be(b, 4));
    if (!slot && !dbg_insn_is_call(insn))
        return dbg_resume(d, RUN_STEP | q, 1, NULL);
    run_goal g = {.cpu = d->cur_cpu, .n = 1};
    g.at[0].addr = slot ? pc + 4 : pc + 8;
    g.at[0].min_sp = cpu_gpr(c, 29);
    return dbg_resume(d, RUN_CONTINUE | q, 0, &g);
}

static int cmd_nexti(dbg *d, const cmd_args *a)
{
    uint64_t n;
    if (step_count(d, a, &n))
        return -1;
    int r = STOP_STEP;
    for (uint64_t i = 0; i < n && r == STOP_STEP && !d->quit; i++)
        r = next_one(d, i + 1 < n);
    return status(r);
}

/* step and next go by source line where the pc has line information
 * (srcstep.c), by instruction elsewhere. */
static int cmd_step(dbg *d, const cmd_args *a)
{
    int rc;
    return dbg_src_step(d, a->num[0], SRC_STEP, &rc) ? rc : cmd_stepi(d, a);
}

static int cmd_next(dbg *d, const cmd_args *a)
{
    int rc;
    return dbg_src_step(d, a->num[0], SRC_NEXT, &rc) ? rc : cmd_nexti(d, a);
}

static int cmd_finish(dbg *d, const cmd_args *a)
{
    cpu *c = dbg_cpu(d);
    if (!c)
        return dbg_error(d, "No CPU selected.");
    int rc;
    if (dbg_src_finish(d, &rc)) /* with the debug information */
        return rc;
    /* From the selected frame (up, frame N): until it returns. */
    unsigned n, level;
    frame *f = dbg_selected_frames(d, c, &n, &level);
    if (level + 1 >= n) {
        free(f);
        return dbg_error(d, "\"finish\" not meaningful in the outermost frame (no caller "
                            "found from the symbol table and prologue).");
    }
    char where[160];
    symtab_format(&d->m->syms, f[level].pc, where, sizeof where);
    dbg_printf(d, "Run till exit from #%u  0x%016llx in %s\n", d->frame,
               (unsigned long long)f[level].pc, where);
    run_goal g = {.cpu = d->cur_cpu, .n = 1};
    g.at[0].addr = f[level + 1].pc;
    g.at[0].min_sp = f[level + 1].sp;
    free(f);
    int r = dbg_resume(d, RUN_CONTINUE, 0, &g);
    if (r == STOP_STEP) {
        xval v = xval_int((int64_t)cpu_gpr(dbg_cpu(d), 2));
        unsigned h = dbg_history_add(d, v);
        dbg_printf(d, "Value returned is $%u = %lld (0x%llx)\n", h, (long long)v.v,
                   (unsigned long long)v.v);
    }
    return status(r);
}

static int run_to(dbg *d, const cmd_args *a, bool same_frame, const char *cmd)
{
    cpu *c = dbg_cpu(d);
    if (!c)
        return dbg_error(d, "No CPU selected.");
    if (!a->given[0]) { /* until without LOCATION: by source line where it can */
        int rc;
        if (dbg_src_step(d, 1, SRC_UNTIL, &rc))
            return rc;
        return status(next_one(d, false));
    }
    uint64_t addr = a->num[0];
    if (a->cond)
        return dbg_error(d, "%s: no condition here (use tbreak ... if COND).", cmd);
    /* until: LOCATION counts in this frame (or a caller), known by its CFA,
     * not by $sp, which the prologue moves. */
    run_goal g = {.cpu = d->cur_cpu, .n = 1};
    g.at[0].addr = addr;
    g.at[0].min_cfa = same_frame ? dbg_frame_cfa(d, c) : 0;
    frame f[2];
    if (dbg_unwind(d, c, f, 2) == 2) { /* or until the current function returns */
        g.at[1].addr = f[1].pc;
        g.at[1].min_sp = f[1].sp;
        g.n = 2;
    }
    return status(dbg_resume(d, RUN_CONTINUE, 0, &g));
}

static int cmd_until(dbg *d, const cmd_args *a) { return run_to(d, a, true, "until"); }
static int cmd_advance(dbg *d, const cmd_args *a) { return run_to(d, a, false, "advance"); }

/* A fresh start: RAM cleared, the board sets up the PROM data and loads
 * the kernel (or the user's PROM) again, as at power-on; breakpoints stay. */
static void power_on_reset(dbg *d)
{
    machine *m = d->m;
    machine_outside_change(m, "the machine (a power-on reset by run)");
    bp_disarm_all(d);
    m->reset_pending = false;
    machine_reset(m, true);
    bp_rearm_all(d);
    d->cur_cpu = 0;
    d->frame = 0;
}

static int cmd_run(dbg *d, const char *args)
{
    machine *m = d->m;
    if (*args)
        return dbg_error(d, "run: takes no arguments (the kernel command line is --append).");
    bool started = false;
    for (unsigned i = 0; i < m->ncpus; i++)
        started |= cpu_retired(m->cpus[i]) != 0;
    if (started && !d->killed) {
        dbg_puts(d, "Starting the machine again from reset.\n");
        power_on_reset(d);
    }
    return status(dbg_resume(d, RUN_CONTINUE, 0, NULL));
}

/* gdb's kill ends the program; xbow's machine cannot go away, so kill
 * puts it back where it was before "run": reset, RAM cleared, the kernel
 * loaded again, stopped at its entry.  run or continue start it afresh. */
static int cmd_kill(dbg *d, const cmd_args *a)
{
    power_on_reset(d);
    d->killed = true;
    dbg_puts(d, "[Machine killed: reset to power-on, memory cleared, the kernel loaded again; "
                "\"run\" or \"continue\" starts it]\n");
    cpu *c = dbg_cpu(d);
    if (c)
        dbg_show_location(d, c);
    return 0;
}

/* jump LOCATION: set the selected CPU's pc and continue from there. */
static int cmd_jump(dbg *d, const cmd_args *a)
{
    cpu *c = dbg_cpu(d);
    if (!c)
        return dbg_error(d, "No CPU selected.");
    uint64_t addr = a->num[0];
    if (a->cond)
        return dbg_error(d, "jump: no condition here.");
    if (addr & 3)
        return dbg_error(d, "jump: 0x%llx is not an instruction address (not a multiple of 4).",
                         (unsigned long long)addr);
    uint8_t b[4];
    if (cpu_read_virt(c, addr, b, 4) != 4) {
        xerr err;
        dbg_explain_addr(d, (dbg_addr){addr, false}, &err);
        return dbg_error(d, "jump: no instruction to run there: %s", err.msg);
    }
    uint64_t off;
    const symbol *from = symtab_lookup_addr(&d->m->syms, cpu_pc(c), &off);
    const symbol *to = symtab_lookup_addr(&d->m->syms, addr, &off);
    if (from && to && from != to)
        dbg_printf(d,
                   "Note: jumping from %s into %s; the stack and registers stay as %s left "
                   "them.\n",
                   from->name, to->name, from->name);
    if (cpu_in_delay_slot(c))
        dbg_puts(d, "Note: the CPU was in a branch delay slot; the pending branch is dropped.\n");
    cpu_set_pc(c, addr);
    d->m->clock.changes++; /* the history cannot re-execute across it */
    char where[160];
    dbg_format_addr(d, (dbg_addr){addr, false}, where, sizeof where);
    dbg_printf(d, "Continuing at %s.\n", where);
    return status(dbg_resume(d, RUN_CONTINUE, 0, NULL));
}

static int cmd_cpu(dbg *d, const cmd_args *a)
{
    machine *m = d->m;
    if (a->given[0]) {
        uint64_t n = a->num[0];
        if (n >= m->ncpus)
            return dbg_error(d, "cpu: want a CPU number from 0 to %u.", m->ncpus - 1);
        if (d->cur_cpu != (int)n)
            d->frame = 0;
        d->cur_cpu = (int)n;
    }
    cpu *c = dbg_cpu(d);
    if (!c)
        return dbg_error(d, "No CPU selected.");
    strbuf b;
    sb_init(&b);
    sb_printf(&b, "[Current CPU is cpu%d]\n", d->cur_cpu);
    dbg_format_location(d, c, cpu_pc(c), &b);
    return dbg_puts_sb(d, &b);
}

static int cmd_info_cpus(dbg *d, const cmd_args *a)
{
    machine *m = d->m;
    strbuf b;
    sb_init(&b);
    sb_puts(&b, "  CPU  PC                 Where                  Instructions\n");
    for (unsigned i = 0; i < m->ncpus; i++) {
        cpu *c = m->cpus[i];
        char where[128];
        symtab_format(&m->syms, cpu_pc(c), where, sizeof where);
        sb_printf(&b, "%c %-4u 0x%016llx %-22s %llu\n", (int)i == d->cur_cpu ? '*' : ' ', i,
                  (unsigned long long)cpu_pc(c), where, (unsigned long long)cpu_retired(c));
        /* Idle skip: the time it waited, and whether it waits now. */
        cpu_wait_info w;
        cpu_get_wait_info(c, &w);
        uint64_t ticks = cpu_ticks(c);
        if (w.idle_waits || w.poll_waits)
            sb_printf(&b, "         waited %llu ticks (%.1f%%): %llu idle, %llu polling\n",
                      (unsigned long long)w.waited,
                      ticks ? 100.0 * (double)w.waited / (double)ticks : 0.0,
                      (unsigned long long)w.idle_waits, (unsigned long long)w.poll_waits);
        if (w.kind == CPU_WAIT_IDLE)
            sb_printf(&b, "         waiting now in the idle routine, for %llu ticks\n",
                      (unsigned long long)(ticks - w.since));
        else if (w.kind == CPU_WAIT_POLL)
            sb_printf(&b, "         waiting now in a loop polling %u value%s%s, for %llu ticks\n",
                      w.nreads, w.nreads == 1 ? "" : "s", w.mmio ? " (registers too)" : "",
                      (unsigned long long)(ticks - w.since));
    }
    sb_printf(&b, "Idle skip %s.\n",
              m->cfg.idle_skip ? "on (--no-idle-skip turns it off)" : "off (--no-idle-skip)");
    if (m->ncpus > 1 && m->cfg.idle_skip && !m->threads)
        sb_printf(&b,
                  "Solo turns (one CPU runs, the others wait at an idle point): %llu, %llu "
                  "ended by an interrupt for a waiting CPU.\n",
                  (unsigned long long)m->turns[TURN_SOLO], (unsigned long long)m->solo_wakes);
    if (m->ncpus > 1 && !m->threads) {
        const uint64_t *k = m->turns, *e = m->turn_ends;
        sb_printf(&b,
                  "Turns: %llu (several CPUs ran %llu, solo %llu, one ran while the others "
                  "polled %llu, all waited %llu); ended by the quantum %llu, a device timer "
                  "%llu, a wait's end %llu, the replay's end %llu.\n",
                  (unsigned long long)(k[TURN_SHARED] + k[TURN_SOLO] + k[TURN_ONE] + k[TURN_QUIET]),
                  (unsigned long long)k[TURN_SHARED], (unsigned long long)k[TURN_SOLO],
                  (unsigned long long)k[TURN_ONE], (unsigned long long)k[TURN_QUIET],
                  (unsigned long long)e[TURN_END_QUANTUM], (unsigned long long)e[TURN_END_TIMER],
                  (unsigned long long)e[TURN_END_WAIT], (unsigned long long)e[TURN_END_REPLAY]);
    }
    if (m->threads) {
        sb_printf(&b, "One host thread per CPU (--threads=%u, experimental); host CPU time:",
                  m->cfg.threads);
        for (unsigned i = 0; i < m->ncpus; i++)
            sb_printf(&b, "%s cpu%u %.3f s", i ? "," : "", i,
                      (double)machine_threads_cpu_ns(m, i) / 1e9);
        sb_printf(&b, ".\n");
        machine_threads_describe(m, &b);
    }
    return dbg_puts_sb(d, &b);
}

#define U(x) ((unsigned long long)(x))

/* Why CPU i's run loop left its inner loop, and the translator's exits. */
static void engine_exits(strbuf *b, const cpu *c, unsigned i)
{
    const cpu_run_stats *s = cpu_get_run_stats(c);
    uint64_t n = cpu_retired(c);
    sb_printf(b,
              "cpu%u: %llu inner runs (one per %.0f instructions); ended by: turn end %llu, "
              "Count/Compare %llu, idle-skip probe %llu, profiler sample %llu, kick %llu, "
              "stop %llu\n",
              i, U(s->runs), s->runs ? (double)n / (double)s->runs : 0.0,
              U(s->run_end[RUN_END_TURN]), U(s->run_end[RUN_END_TIMER]),
              U(s->run_end[RUN_END_IDLE]), U(s->run_end[RUN_END_SAMPLE]),
              U(s->run_end[RUN_END_KICK]), U(s->run_end[RUN_END_STOP]));
    uint64_t exc = 0;
    for (unsigned k = 0; k < 32; k++)
        exc += s->exceptions[k];
    uint64_t tlb = s->exceptions[EXC_TLBL] + s->exceptions[EXC_TLBS] + s->exceptions[EXC_MOD];
    sb_printf(b,
              "  exceptions %llu: interrupts %llu, TLB refills %llu, other TLB %llu, syscalls "
              "%llu, other %llu; device accesses %llu\n",
              U(exc), U(s->exceptions[EXC_INT]), U(s->tlb_refills), U(tlb - s->tlb_refills),
              U(s->exceptions[EXC_SYS]),
              U(exc - s->exceptions[EXC_INT] - tlb - s->exceptions[EXC_SYS]), U(s->bus_accesses));
    if (!s->enters && !s->translations)
        return;
    sb_printf(b,
              "  translated code entered %llu times; back to the dispatcher: lookup missed "
              "%llu, jump not chained %llu, budget %llu, helper stop %llu, exception/ERET %llu\n",
              U(s->enters), U(s->back[JIT_BACK_LOOKUP]), U(s->back[JIT_BACK_CHAIN]),
              U(s->back[JIT_BACK_BUDGET]), U(s->back[JIT_BACK_STOP]), U(s->back[JIT_BACK_EXC]));
    sb_printf(b,
              "  helper calls: load %llu, store %llu, LWL-SDR/LL/SC %llu, FPU memory %llu, "
              "FPU %llu, CP0/TLB %llu, exception %llu; blocks translated %llu\n",
              U(s->helpers[JIT_HELP_LOAD]), U(s->helpers[JIT_HELP_STORE]),
              U(s->helpers[JIT_HELP_MEM_OTHER]), U(s->helpers[JIT_HELP_FPMEM]),
              U(s->helpers[JIT_HELP_COP1]), U(s->helpers[JIT_HELP_CP0]),
              U(s->helpers[JIT_HELP_EXC]), U(s->translations));
    static const char *const why[JIT_INTERP_N] = {"delay slot",   "hook/probe", "no exec entry",
                                                  "untranslated", "budget",     "cold"};
    sb_puts(b, "  interpreter (times/instructions):");
    for (unsigned k = 0; k < JIT_INTERP_N; k++)
        sb_printf(b, "%s %s %llu/%llu", k ? "," : "", why[k], U(s->interp[k]),
                  U(s->interp_ticks[k]));
    sb_puts(b, "\n");
}

/* info engine: how the CPUs execute, and what the translator did. */
static int cmd_info_engine(dbg *d, const cmd_args *a)
{
    machine *m = d->m;
    strbuf b;
    sb_init(&b);
    cpu_jit_info ji = {0};
    bool any_jit = false;
    sb_puts(&b, "  CPU  Engine  Instructions      Translated\n");
    for (unsigned i = 0; i < m->ncpus; i++) {
        cpu *c = m->cpus[i];
        bool jit = cpu_engine(c) == CPU_ENGINE_JIT;
        cpu_jit_info_get(c, &ji);
        uint64_t n = cpu_retired(c), in = ji.interp_ticks < n ? ji.interp_ticks : n;
        any_jit |= jit || ji.interp_ticks;
        sb_printf(&b, "%c %-4u %-7s %-17llu", (int)i == d->cur_cpu ? '*' : ' ', i,
                  jit ? "jit" : "interp", (unsigned long long)n);
        if (jit || ji.interp_ticks)
            sb_printf(&b, " %.1f%%\n", n ? 100.0 * (double)(n - in) / (double)n : 0.0);
        else
            sb_puts(&b, " -\n");
    }
    if (any_jit) {
        sb_printf(&b,
                  "Translated: %llu blocks, %llu guest instructions, %.1f MB of host code, in "
                  "%.3f s of host time\n"
                  "Code cache: %.1f of %.1f MB in use; %llu flushes (full), %llu blocks dropped "
                  "(their code was written), %llu jumps chained\n",
                  (unsigned long long)ji.blocks, (unsigned long long)ji.insns,
                  (double)ji.code_bytes / 1048576.0, (double)ji.gen_ns / 1e9,
                  (double)ji.cache_used / 1048576.0, (double)ji.cache_size / 1048576.0,
                  (unsigned long long)ji.flushes, (unsigned long long)ji.invalidated,
                  (unsigned long long)ji.chained);
    }
    for (unsigned i = 0; i < m->ncpus; i++)
        engine_exits(&b, m->cpus[i], i);
    return dbg_puts_sb(d, &b);
}

#include "dbg/cmd_run.cmds.h"

const dbg_module dbg_run_module = {
    .name = "run",
    .commands = DBG_COMMANDS("Running", run_commands),
};
