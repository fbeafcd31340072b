/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Stepping by source line: step, next and until (without a location) as
 * gdb does them, and finish with the value typed by the function's return
 * type, out of inlined functions too.
 *
 * A step runs the selected CPU one instruction at a time while the pc
 * stays in the address range of the line it started on, in the same frame
 * (known by its CFA).  A branch and its delay slot go together: a step
 * never stops in a delay slot.  A call (jal, jalr, bal) is run to its
 * return address by next, and by step when the function called has no
 * line information; otherwise step stops after the callee's prologue.
 * The step ends at the start of a statement of another line; a row that is
 * not a statement (is_stmt 0, common at -O2) or the middle of a line just
 * moves the range on.  Inlined code: next steps through an inlined call
 * as through the line that makes it; step stops in it.  An exception or
 * interrupt taken on the way is run until it returns (to EPC), so the
 * handler is not stepped into.  Returning from the function ends the step
 * in the caller. */
#include <stdio.h>
#include <stdlib.h>

#include "dbg/source.h"

#define ST_EXL 2u
#define CP0_STATUS 12
#define CP0_EPC 14

static bool read_insn(cpu *c, uint64_t pc, uint32_t *insn)
{
    uint8_t b[4];
    if (cpu_read_virt(c, pc, b, 4) != 4)
        return false;
    *insn = (uint32_t)load_be(b, 4);
    return true;
}

/* A step is many short runs: a Ctrl-C that comes between two of them
 * (machine_run_cpu starts each with a clean stop reason) stops it too. */
static bool interrupted(dbg *d, int *r)
{
    if (d->m->stop_reason != STOP_USER) {
        d->m->stop_reason = STOP_NONE; /* what the last run left: Ctrl-C may set it now */
        return false;
    }
    d->stop_count++;
    dbg_report_stop(d, STOP_USER);
    *r = STOP_USER;
    return true;
}

/* Run to addr (with $sp at least min_sp) quietly: STOP_STEP when there. */
static int run_until(dbg *d, uint64_t addr, uint64_t min_sp)
{
    int r;
    if (interrupted(d, &r))
        return r;
    run_goal g = {.cpu = d->cur_cpu, .n = 1};
    g.at[0].addr = addr;
    g.at[0].min_sp = min_sp;
    return dbg_resume(d, RUN_CONTINUE | RUN_QUIET, 0, &g);
}

/* One instruction, and its delay slot when it is a branch; an exception
 * taken meanwhile runs until it returns.  STOP_STEP, or why it stopped
 * (already reported). */
static int single(dbg *d, cpu *c)
{
    int r;
    do {
        bool exl = cpu_cp0(c, CP0_STATUS) & ST_EXL;
        uint64_t sp = cpu_gpr(c, 29);
        if (interrupted(d, &r))
            return r;
        r = dbg_resume(d, RUN_STEP | RUN_QUIET, 1, NULL);
        if (r != STOP_STEP)
            return r;
        if (!exl && (cpu_cp0(c, CP0_STATUS) & ST_EXL)) {
            /* taken an exception: back at EPC when it returns */
            r = run_until(d, cpu_cp0(c, CP0_EPC), sp);
            if (r != STOP_STEP)
                return r;
        }
    } while (cpu_in_delay_slot(c));
    return r;
}

/* A user breakpoint at the pc a step arrived at stops the step, as it
 * would stop a run. */
static bool breakpoint_here(dbg *d, cpu *c, int *r)
{
    uint64_t pc = cpu_pc(c);
    if (!dbg_breakpoint_at(d, pc))
        return false;
    bool found;
    d->running = true;
    bool stop = bp_code_stop(d, d->cur_cpu, pc, &found);
    d->running = false;
    if (!stop)
        return false;
    d->stop_count++;
    dbg_report_stop(d, STOP_BREAKPOINT);
    bp_after_stop(d);
    *r = STOP_BREAKPOINT;
    return true;
}

static unsigned inline_depth(dwarf_db *db, uint64_t pc, dw_scope *outer)
{
    dw_scope sc[16];
    unsigned n = dw_scopes_at(db, pc, sc, 16);
    if (outer && n)
        *outer = sc[n - 1];
    return n ? n - 1 : 0;
}

/* At the first instruction of inlined calls, the line that makes them (as
 * frame 0 shows it, dbg_src_hidden): how many start at pc, and the line. */
static unsigned call_site_here(dwarf_db *db, uint64_t pc, dw_line *l)
{
    dw_scope sc[16];
    unsigned n = dw_scopes_at(db, pc, sc, 16), k = 0;
    while (k < n && sc[k].inlined && sc[k].entry == pc && sc[k].call_file) {
        l->file = sc[k].call_file;
        l->line = sc[k].call_line;
        l->addr = pc; /* the start of the call: a place a statement begins */
        l->stmt = true;
        k++;
    }
    return k;
}

/* Where the CPU is, after a source step: the line, with the function and
 * its arguments when that changed (gdb's output). */
static void report(dbg *d, cpu *c, bool header)
{
    strbuf b;
    sb_init(&b);
    dw_line l;
    uint64_t pc = cpu_pc(c);
    if (d->m->ncpus > 1)
        sb_printf(&b, "[cpu%d] ", cpu_index(c));
    if (dw_line_at(dbg_dwarf(d), pc, &l) && pc != l.addr && !header)
        sb_printf(&b, "0x%016llx\t", (unsigned long long)pc);
    if (dw_line_at(dbg_dwarf(d), pc, &l))
        dbg_src_report(d, c, header, &b);
    else
        dbg_format_location(d, c, pc, &b);
    dbg_puts(d, b.s ? b.s : "");
    sb_free(&b);
}

/* One step of `how`.  *other_frame: it ended in another function; *enter:
 * step arrived at the start of inlined calls from the line calling them
 * (it shows them entered). */
static int step_once(dbg *d, cpu *c, int how, bool *other_frame, unsigned *enter)
{
    dwarf_db *db = dbg_dwarf(d);
    uint64_t pc0 = cpu_pc(c);
    dw_line line0;
    dw_line_at(db, pc0, &line0);
    uint64_t cfa0 = dbg_frame_cfa(d, c);
    dw_scope fn0;
    unsigned hidden = dbg_src_hidden(d, c);
    unsigned depth0 = inline_depth(db, pc0, &fn0) - hidden;
    uint64_t lo = line0.addr, hi = line0.end;
    if (how == SRC_UNTIL && fn0.lo && fn0.lo < lo)
        lo = fn0.lo; /* until: not back into a loop of this function */
    /* the line as frame 0 shows it (the call of inlined calls it hides) */
    const char *file0 = line0.file;
    unsigned ln0 = line0.line;
    src_frame sf0;
    if (dbg_src_frames(d, c, &sf0, 1) == 1 && sf0.file) {
        file0 = sf0.file;
        ln0 = sf0.line;
    }
    int r = STOP_STEP;
    *other_frame = false;
    *enter = 0;
    for (;;) {
        uint64_t pc = cpu_pc(c);
        uint32_t insn;
        if (!read_insn(c, pc, &insn))
            return dbg_error(d, "Cannot read the instruction at 0x%llx.", (unsigned long long)pc);
        if (dbg_insn_is_call(insn) && !cpu_in_delay_slot(c)) {
            uint64_t ret = pc + 8, sp = cpu_gpr(c, 29);
            if (how == SRC_STEP) {
                r = single(d, c);
                if (r != STOP_STEP)
                    return r;
                uint64_t callee = cpu_pc(c);
                dw_line cl;
                dw_scope cf;
                if (callee != ret && dw_line_at(db, callee, &cl) &&
                    dw_function_at(db, callee, &cf) && cf.entry == callee) {
                    uint64_t body = dw_post_prologue(db, callee);
                    if (body != callee) {
                        r = run_until(d, body, 0);
                        if (r != STOP_STEP)
                            return r;
                    }
                    *other_frame = true;
                    return STOP_STEP;
                }
                if (callee != ret) { /* no line information there: run it */
                    r = run_until(d, ret, sp);
                    if (r != STOP_STEP)
                        return r;
                }
            } else {
                r = run_until(d, ret, sp);
                if (r != STOP_STEP)
                    return r;
            }
        } else {
            r = single(d, c);
            if (r != STOP_STEP)
                return r;
        }
        if (breakpoint_here(d, c, &r))
            return r;
        pc = cpu_pc(c);
        uint64_t cfa = dbg_frame_cfa(d, c);
        if (pc >= lo && pc < hi && cfa == cfa0)
            continue;
        dw_line l;
        if (!dw_line_at(db, pc, &l)) {
            *other_frame = true; /* in code without line information */
            return STOP_STEP;
        }
        if (cfa != cfa0) {
            /* Returned to the caller (or a frame the CFI sees as another). */
            *other_frame = true;
            return STOP_STEP;
        }
        dw_scope fn;
        unsigned depth = inline_depth(db, pc, &fn);
        /* next and until see the inlined calls starting here as the line
         * that makes them, one level up, as frame 0 will show it */
        if (how != SRC_STEP)
            depth -= call_site_here(db, pc, &l);
        if (depth > depth0 && how != SRC_STEP) {
            /* next and until step through an inlined call */
            lo = l.addr;
            hi = l.end;
            continue;
        }
        if (depth < depth0) { /* out of an inlined function */
            *other_frame = true;
            if (pc == l.addr && l.stmt)
                return STOP_STEP;
            depth0 = depth;
            lo = l.addr;
            hi = l.end;
            file0 = l.file;
            ln0 = l.line;
            continue;
        }
        bool new_line = l.line != ln0 || strcmp(l.file, file0) != 0;
        if (new_line && pc == l.addr && l.stmt) {
            *other_frame = depth > depth0;
            *enter = depth > depth0 ? depth - depth0 : 0;
            return STOP_STEP;
        }
        if (how != SRC_UNTIL || pc < lo || pc >= hi) {
            if (how == SRC_UNTIL && pc >= l.addr && pc > lo)
                lo = lo < l.addr ? lo : l.addr;
            else
                lo = l.addr;
            hi = l.end;
        }
        if (new_line && pc != l.addr) { /* the middle of another line: finish it */
            file0 = l.file;
            ln0 = l.line;
        }
    }
}

/* step, next, until: 1 when done here (*rc the command's status), 0 when
 * the pc has no line information (the caller steps instructions). */
static int source_step(dbg *d, uint64_t n, int how, int *rc)
{
    dwarf_db *db = dbg_dwarf(d);
    cpu *c = dbg_cpu(d);
    dw_line l;
    if (!db || !c || !dw_line_at(db, cpu_pc(c), &l))
        return 0;
    if (!n) {
        report(d, c, true);
        *rc = 0;
        return 1;
    }
    int r = STOP_STEP;
    bool other = false, any_other = false;
    d->m->stop_reason = STOP_NONE; /* a stop reason left by the last command is no Ctrl-C */
    for (uint64_t i = 0; i < n && r == STOP_STEP && !d->quit; i++) {
        if (!dw_line_at(db, cpu_pc(c), &l))
            break;
        if (how == SRC_STEP && dbg_src_enter_inline(d, c)) {
            any_other = true; /* into an inlined call: no instruction runs */
            continue;
        }
        unsigned enter;
        r = step_once(d, c, how, &other, &enter);
        any_other |= other;
        if (r == STOP_STEP)
            while (enter-- && dbg_src_enter_inline(d, c))
                ;
    }
    if (r == STOP_STEP)
        report(d, dbg_cpu(d), any_other);
    *rc = r < 0 || r == STOP_HALT ? -1 : 0;
    return 1;
}

int dbg_src_step(dbg *d, uint64_t n, int how, int *rc) { return source_step(d, n, how, rc); }

/* ---- finish --------------------------------------------------------------- */

static void show_return_value(dbg *d, cpu *c, dw_scope *fn)
{
    const ctype *t = dw_return_type(fn);
    const ctype *st = ctype_strip(t);
    if (!st || st->kind == CT_VOID)
        return;
    strbuf b;
    sb_init(&b);
    if (ctype_is_scalar(t)) {
        uint64_t raw = st->kind == CT_FLOAT ? cpu_fpr(c, 0) : cpu_gpr(c, 2);
        xval v = xval_typed(t, raw);
        unsigned h = dbg_history_add(d, v);
        sb_printf(&b, "Value returned is $%u = ", h);
        dbg_format_typed(d, &v, 0, true, &b);
        sb_putc(&b, '\n');
    } else {
        sb_puts(&b, "Value returned has type: ");
        ctype_name(t, &b);
        sb_puts(&b, ". Cannot determine contents\n");
    }
    dbg_puts_sb(d, &b);
}

int dbg_src_finish(dbg *d, int *rc)
{
    dwarf_db *db = dbg_dwarf(d);
    cpu *c = dbg_cpu(d);
    if (!db || !c)
        return 0;
    /* the selected frame (up, frame N) and its caller */
    unsigned level = d->frame;
    src_frame *sf = xcalloc(level + 2, sizeof *sf);
    unsigned n = dbg_src_frames(d, c, sf, level + 2);
    if (level >= n || !sf[level].has_scope) {
        free(sf);
        return 0;
    }
    src_frame s = sf[level];
    bool callee_inlined = level > 0 && sf[level - 1].inlined;
    frame caller = level + 1 < n ? sf[level + 1].f : (frame){0};
    free(sf);
    if (!s.inlined && !caller.pc) {
        *rc = dbg_error(d, "\"finish\" not meaningful in the outermost frame.");
        return 1;
    }
    d->m->stop_reason = STOP_NONE;
    strbuf b;
    sb_init(&b);
    sb_puts(&b, "Run till exit from ");
    dbg_src_format_frame(d, c, &s, callee_inlined, &b);
    dbg_puts_sb(d, &b);
    int r = STOP_STEP;
    if (s.inlined) {
        /* Back in its physical frame (the callees inside return), then
         * out of the inlined instance: step (over calls) while the pc is
         * in its ranges, in this frame. */
        if (s.phys > 0)
            r = run_until(d, s.f.pc, s.f.sp);
        uint64_t cfa0 = dbg_frame_cfa(d, c);
        dw_scope inl = s.scope;
        bool first = s.phys == 0; /* frame 0 is in it: at least one step */
        while (r == STOP_STEP &&
               (first || (dw_scope_has(&inl, cpu_pc(c)) && dbg_frame_cfa(d, c) == cfa0)) &&
               !d->quit) {
            first = false;
            uint32_t insn;
            uint64_t pc = cpu_pc(c);
            if (read_insn(c, pc, &insn) && dbg_insn_is_call(insn) && !cpu_in_delay_slot(c))
                r = run_until(d, pc + 8, cpu_gpr(c, 29));
            else
                r = single(d, c);
        }
        if (r == STOP_STEP)
            report(d, c, true);
        *rc = r < 0 || r == STOP_HALT ? -1 : 0;
        return 1;
    }
    dw_scope fn = s.scope;
    run_goal g = {.cpu = d->cur_cpu, .n = 1};
    g.at[0].addr = caller.pc;
    g.at[0].min_sp = caller.sp;
    r = dbg_resume(d, RUN_CONTINUE | RUN_QUIET, 0, &g);
    if (r == STOP_STEP) {
        report(d, c, true);
        show_return_value(d, c, &fn);
    }
    *rc = r < 0 || r == STOP_HALT ? -1 : 0;
    return 1;
}
