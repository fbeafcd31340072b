/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Call frames: frame, up, down, info frame, and the registers of a
 * selected outer frame (info registers).  Frames come from frames.c (the
 * call-frame information, or the prologue heuristic) and, with the debug
 * information, count the inlined functions as bt does (srcframe.c);
 * selecting one makes $pc, $sp, $ra, s0-s8 and gp (and so x, print, info
 * registers, and the program's variables) show that frame's values, as
 * gdb does.  Caller-saved registers of an outer frame are not known and
 * are shown as such. */
#include <stdio.h>
#include <stdlib.h>

#include "dbg/dbg_int.h"
#include "dbg/source.h"

static cpu *need_cpu(dbg *d)
{
    cpu *c = dbg_cpu(d);
    if (!c)
        dbg_error(d, "No CPU selected.");
    return c;
}

/* The frames as bt numbers them, up to `want` (malloc'd, *n of them). */
static src_frame *user_frames(dbg *d, cpu *c, uint64_t want, unsigned *n)
{
    unsigned w = want < 1024 ? (unsigned)want : 1024;
    src_frame *f = xcalloc(w, sizeof *f);
    *n = dbg_src_frames(d, c, f, w);
    return f;
}

/* Select frame `level` (0 = innermost) and show it: the frame line, then
 * its source line or the instruction at its pc. */
static int select_frame(dbg *d, cpu *c, uint64_t level)
{
    unsigned n;
    src_frame *f = user_frames(d, c, level + 1, &n);
    if (level >= n) {
        free(f);
        return dbg_error(d, "No frame at level %llu (the stack has %u: see \"backtrace\").",
                         (unsigned long long)level, n);
    }
    d->frame = (unsigned)level;
    strbuf b;
    sb_init(&b);
    dbg_src_show_frame(d, c, &f[level], level > 0 && f[level - 1].inlined, &b);
    dbg_puts_sb(d, &b);
    free(f);
    return 0;
}

static int cmd_frame(dbg *d, const cmd_args *a)
{
    cpu *c = need_cpu(d);
    if (!c)
        return -1;
    return select_frame(d, c, a->given[1] ? a->num[1] : d->frame);
}

static int cmd_up(dbg *d, const cmd_args *a)
{
    cpu *c = need_cpu(d);
    if (!c)
        return -1;
    uint64_t k = a->num[0];
    unsigned n;
    free(user_frames(d, c, (uint64_t)d->frame + 2, &n));
    if (d->frame + 1 >= n)
        return dbg_error(d, "Already in the outermost frame #%u: no caller found above it.",
                         d->frame);
    return select_frame(d, c, d->frame + k);
}

static int cmd_down(dbg *d, const cmd_args *a)
{
    cpu *c = need_cpu(d);
    if (!c)
        return -1;
    uint64_t k = a->num[0];
    if (d->frame == 0)
        return dbg_error(d, "Already in the innermost frame #0: nothing to go down to.");
    return select_frame(d, c, k > d->frame ? 0 : d->frame - k);
}

static const char *gpr_name(unsigned r) { return cpu_gpr_names[r]; }

static void list_regs(strbuf *b, const bool *set)
{
    bool any = false;
    for (unsigned r = 0; r < 32; r++)
        if (set[r]) {
            sb_printf(b, "%s%s", any ? " " : "", gpr_name(r));
            any = true;
        }
    if (!any)
        sb_puts(b, "none");
}

static int cmd_info_frame(dbg *d, const cmd_args *a)
{
    cpu *c = need_cpu(d);
    if (!c)
        return -1;
    uint64_t want = a->given[1] ? a->num[1] : d->frame;
    int rc;
    if (dbg_src_info_frame(d, c, (unsigned)want, &rc)) /* what the debug information says */
        return rc;
    /* The heuristic's frames: the physical one of that level. */
    unsigned n, nu, level;
    src_frame *u = user_frames(d, c, want + 1, &nu);
    if (want >= nu) {
        free(u);
        return dbg_error(d, "No frame at level %llu (the stack has %u: see \"backtrace\").",
                         (unsigned long long)want, nu);
    }
    level = u[want].phys;
    free(u);
    frame *f = xcalloc(level + 2, sizeof *f);
    n = dbg_unwind(d, c, f, level + 2);
    if (level >= n)
        level = n - 1;
    const frame *fr = &f[level];
    bool caller = level + 1 < n;
    strbuf b;
    sb_init(&b);
    char where[160];
    sb_printf(&b, "Stack level %u, frame at 0x%llx (its sp 0x%llx + %llu bytes it allocated):\n",
              (unsigned)want, (unsigned long long)(fr->sp + fr->size), (unsigned long long)fr->sp,
              (unsigned long long)fr->size);
    symtab_format(&d->m->syms, fr->pc, where, sizeof where);
    sb_printf(&b, " pc = 0x%016llx in %s", (unsigned long long)fr->pc, where);
    if (caller) {
        symtab_format(&d->m->syms, f[level + 1].pc, where, sizeof where);
        sb_printf(&b, "; saved pc = 0x%016llx (%s, %s)\n", (unsigned long long)f[level + 1].pc,
                  where, fr->saved_width[31] ? "from its stack" : "from $ra: not saved yet");
    } else {
        sb_puts(&b, "; no caller found (outermost frame as far as the prologues tell)\n");
    }
    if (fr->func) {
        symtab_format(&d->m->syms, fr->func, where, sizeof where);
        sb_printf(&b, " function %s starts at 0x%016llx\n", where, (unsigned long long)fr->func);
    } else {
        sb_puts(&b, " function start not found (no symbol, no stack adjustment before pc)\n");
    }
    if (level)
        sb_printf(&b, " caller of frame #%u (sp 0x%llx)", (unsigned)want - 1,
                  (unsigned long long)f[level - 1].sp);
    if (caller)
        sb_printf(&b, "%s called by frame #%u (sp 0x%llx)", level ? ";" : "", (unsigned)want + 1,
                  (unsigned long long)f[level + 1].sp);
    if (level || caller)
        sb_putc(&b, '\n');
    bool any = false;
    for (unsigned r = 0; r < 32; r++) {
        if (!fr->saved_width[r])
            continue;
        sb_printf(&b, "%s%s at 0x%llx", any ? ", " : " Saved registers: ", gpr_name(r),
                  (unsigned long long)fr->saved[r]);
        any = true;
    }
    sb_puts(&b, any ? "\n" : " Saved registers: none (a leaf, or before its prologue ran)\n");
    if (level) {
        bool known[32] = {false}, lost[32] = {false};
        for (unsigned r = 1; r < 32; r++) {
            uint64_t v, slot;
            if (dbg_frame_gpr(c, f, n, level, r, &v, &slot) == 1)
                known[r] = true;
            else
                lost[r] = true;
        }
        sb_puts(&b, " Known in this frame: pc ");
        list_regs(&b, known);
        sb_puts(&b, "\n Not known (caller-saved, lost when a callee ran): ");
        list_regs(&b, lost);
        sb_puts(&b, " hi lo\n");
    }
    sb_puts(&b, " (From the symbol table and the function's prologue, without debug "
                "information: a heuristic.)\n");
    dbg_puts_sb(d, &b);
    free(f);
    return 0;
}

void dbg_show_frame_regs(dbg *d, cpu *c, strbuf *out)
{
    unsigned n, level;
    frame *f = dbg_selected_frames(d, c, &n, &level);
    sb_printf(out, "Registers of frame #%u (<not saved>: caller-saved, lost when a callee ran):\n",
              d->frame);
    for (unsigned r = 0; r < 32; r++) {
        uint64_t v, slot;
        sb_printf(out, "%-4s ", gpr_name(r));
        if (dbg_frame_gpr(c, f, n, level, r, &v, &slot) == 1)
            sb_printf(out, "%016llx", (unsigned long long)v);
        else
            sb_printf(out, "%-16s", "<not saved>");
        sb_puts(out, (r & 3) == 3 ? "\n" : "  ");
    }
    sb_printf(out, "pc   %016llx  hi <not saved>  lo <not saved>\n",
              (unsigned long long)f[level].pc);
    sb_puts(out, "(CP0 registers are the CPU's, the same in every frame:)\n");
    cpu_show_cp0_regs(c, out);
    free(f);
}

#include "dbg/cmd_frame.cmds.h"

const dbg_module dbg_frame_module = {
    .name = "frame",
    .commands = DBG_COMMANDS("Machine state", frame_commands),
};
