/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Call frames.  Where the debug information has call-frame information
 * for the pc, a frame is unwound with it (srcframe.c): exact at every
 * instruction, through exception frames the code marks.  Elsewhere, best
 * effort: the unwinder reads each function's prologue (found through the
 * symbol table) for the stack adjustment (addiu/daddiu sp,sp,-N) and the
 * slots where it saved $ra and the registers it must preserve (sw/sd
 * REG,OFF(sp)), as gdb's heuristic MIPS unwinder does.  Leaf functions
 * that save nothing return through $ra (innermost frame only).  Either
 * way each frame carries the registers it knows (regs, valid): an outer
 * frame its own values of s0-s8, gp, sp, ra and pc from the slots its
 * callees saved them in; caller-saved registers are lost (except through
 * an exception frame, whose CFI says where it saved them all). */
#include <stdio.h>
#include <stdlib.h>

#include "dbg/dbg_int.h"
#include "dbg/source.h"

#define OP(i) ((i) >> 26)
#define RS(i) (((i) >> 21) & 31)
#define RT(i) (((i) >> 16) & 31)
#define IMM(i) ((int16_t)((i)&0xffff))

enum { REG_SP = 29, REG_RA = 31 };
#define MAX_PROLOGUE 256 /* instructions scanned from a function's start */

bool dbg_insn_is_call(uint32_t insn)
{
    switch (OP(insn)) {
    case 0x03: /* jal */ return true;
    case 0x00: /* jalr */ return (insn & 0x3f) == 0x09;
    case 0x01: /* bltzal, bgezal (bal), bltzall, bgezall */
        return RT(insn) >= 0x10 && RT(insn) <= 0x13;
    default: return false;
    }
}

static bool read_insn(dbg *d, cpu *c, uint64_t pc, uint32_t *insn)
{
    uint8_t b[4];
    if (cpu_read_virt(c, pc, b, 4) != 4)
        return false;
    *insn = (uint32_t)load_be(b, 4);
    return true;
}

static bool is_sp_adjust(uint32_t i, int *imm)
{
    if ((OP(i) == 0x09 || OP(i) == 0x19) && RS(i) == REG_SP && RT(i) == REG_SP) {
        *imm = IMM(i);
        return true;
    }
    return false;
}

/* Where does the function containing pc start?  The symbol table knows;
 * without a symbol, scan back for a stack adjustment. */
static bool function_start(dbg *d, cpu *c, uint64_t pc, uint64_t *start)
{
    uint64_t off;
    const symbol *s = symtab_lookup_addr(&d->m->syms, pc, &off);
    if (s) {
        *start = pc - off;
        return true;
    }
    for (unsigned k = 1; k <= MAX_PROLOGUE; k++) {
        uint32_t i;
        int imm;
        if (!read_insn(d, c, pc - 4 * k, &i))
            return false;
        if (is_sp_adjust(i, &imm) && imm < 0) {
            *start = pc - 4 * k;
            return true;
        }
        if (i == 0x03e00008) /* jr ra: the previous function ends here */
            break;
    }
    return false;
}

/* Registers a MIPS function must preserve for its caller (n64: s0-s7, gp,
 * s8) and $ra: the ones a prologue saves and the unwinder can recover. */
static bool callee_saved(unsigned r) { return (r >= 16 && r <= 23) || r >= 28; }

/* The frame f of the function executing at f->pc, as far as it has been
 * built when pc is reached: where the function starts, the bytes its
 * prologue has taken from sp (0 before the adjustment and after the
 * epilogue's), and the slots where it saved $ra and the registers it must
 * preserve (saved_width 0: not saved).  False if the code cannot be read. */
static bool frame_layout(dbg *d, cpu *c, frame *f)
{
    uint64_t start;
    memset(f->saved, 0, sizeof f->saved);
    memset(f->saved_width, 0, sizeof f->saved_width);
    f->func = 0;
    f->size = 0;
    if (!function_start(d, c, f->pc, &start))
        return true;
    f->func = start;
    for (uint64_t a = start; a < f->pc && a < start + 4 * MAX_PROLOGUE; a += 4) {
        uint32_t i;
        int imm;
        if (!read_insn(d, c, a, &i))
            return false;
        if (is_sp_adjust(i, &imm)) {
            if (imm < 0) {
                f->size = (uint64_t)-imm;
            } else { /* epilogue: the frame is gone, registers restored */
                f->size = 0;
                memset(f->saved_width, 0, sizeof f->saved_width);
            }
        } else if ((OP(i) == 0x2b || OP(i) == 0x3f) && RS(i) == REG_SP && callee_saved(RT(i)) &&
                   !f->saved_width[RT(i)]) {
            /* sw/sd REG, OFF(sp): the first store of a register it must
             * preserve is where the caller's value went */
            f->saved[RT(i)] = f->sp + (uint64_t)(int64_t)IMM(i);
            f->saved_width[RT(i)] = OP(i) == 0x3f ? 8 : 4;
        } else if (i == 0x03e00008) {
            break;
        }
    }
    return true;
}

uint64_t dbg_frame_cfa(dbg *d, cpu *c)
{
    frame f[2];
    dbg_frame0(c, &f[0]);
    if (dbg_cfi_step(d, c, &f[0], &f[1]) > 0)
        return f[0].cfa;
    if (!frame_layout(d, c, &f[0]))
        return f[0].sp;
    return f[0].sp + f[0].size;
}

/* One step: fill in the layout of frame f (its CFI, or frame_layout), then
 * find its caller; ra is $ra for the innermost frame, 0 otherwise. */
static bool unwind_step(dbg *d, cpu *c, frame *f, uint64_t ra, frame *caller)
{
    int k = dbg_cfi_step(d, c, f, caller);
    if (k > 0)
        /* (no check that the stack grows: an exception may have switched
         * stacks; bt's frame limit ends a loop) */
        return caller->pc && !(caller->pc & 3) && !(caller->pc == f->pc && caller->sp == f->sp);
    if (k < 0)
        return false;
    if (!frame_layout(d, c, f))
        return false;
    memset(caller, 0, sizeof *caller);
    caller->sp = f->sp + f->size;
    f->cfa = caller->sp;
    unsigned ra_width = f->saved_width[REG_RA];
    if (ra_width) {
        uint8_t b[8];
        if (cpu_read_virt(c, f->saved[REG_RA], b, ra_width) != ra_width)
            return false;
        uint64_t v = load_be(b, ra_width);
        caller->pc = ra_width == 4 ? (uint64_t)sext32(v) : v;
    } else if (ra) {
        caller->pc = ra;
    } else {
        return false;
    }
    if (caller->pc == 0 || (caller->pc & 3) || (caller->pc == f->pc && caller->sp == f->sp))
        return false;
    /* The registers it must preserve: from where f saved them, or as f
     * has them; $sp and $ra (the return address, after the call); the
     * others are lost. */
    for (unsigned r = 1; r < 32; r++) {
        unsigned w = f->saved_width[r];
        if (r == REG_SP || r == REG_RA || !callee_saved(r))
            continue;
        if (w) {
            uint8_t b[8];
            if (cpu_read_virt(c, f->saved[r], b, w) != w)
                continue;
            uint64_t v = load_be(b, w);
            caller->regs[r] = w == 4 ? (uint64_t)sext32(v) : v;
        } else if (f->valid & (1u << r)) {
            caller->regs[r] = f->regs[r];
        } else {
            continue;
        }
        caller->valid |= 1u << r;
    }
    caller->regs[REG_SP] = caller->sp;
    caller->regs[REG_RA] = caller->pc;
    caller->valid |= 1u << REG_SP | 1u << REG_RA | 1u;
    return true;
}

unsigned dbg_unwind(dbg *d, cpu *c, frame *out, unsigned max)
{
    if (!max || !c)
        return 0;
    dbg_frame0(c, &out[0]);
    unsigned n = 1;
    for (;;) {
        frame next = {0};
        bool more = unwind_step(d, c, &out[n - 1], n == 1 ? cpu_gpr(c, REG_RA) : 0, &next);
        if (!more || n == max)
            break;
        out[n++] = next;
    }
    return n;
}

int dbg_frame_gpr(cpu *c, const frame *f, unsigned n, unsigned level, unsigned r, uint64_t *val,
                  uint64_t *slot)
{
    *slot = 0;
    if (level >= n || r >= 32)
        return -1;
    if (level == 0 || r == 0) {
        *val = r ? cpu_gpr(c, r) : 0;
        return 1;
    }
    if (!(f[level].valid & (1u << r)))
        return 0;
    *val = f[level].regs[r];
    /* Where: the nearest inner frame that saved it (a frame that did not
     * save it did not change it); $sp and $ra are not kept in one. */
    for (unsigned j = level; r != REG_SP && r != REG_RA && j-- > 0;) {
        if (f[j].saved_width[r]) {
            *slot = f[j].saved[r];
            break;
        }
    }
    return 1;
}

frame *dbg_selected_frames(dbg *d, cpu *c, unsigned *n, unsigned *level)
{
    /* With the debug information d->frame counts inlined functions too:
     * its physical frame */
    src_frame sel;
    unsigned phys = 0;
    if (d->frame && dbg_src_selected(d, c, &sel))
        phys = sel.phys;
    unsigned want = phys + 2; /* the selected frame and its caller */
    frame *f = xcalloc(want, sizeof *f);
    *n = dbg_unwind(d, c, f, want);
    if (phys >= *n) { /* the stack changed under the selection */
        d->frame = 0;
        phys = 0;
    }
    *level = phys;
    return f;
}

uint64_t dbg_frame_pc(dbg *d, cpu *c)
{
    src_frame sel;
    if (!d->frame || !dbg_src_selected(d, c, &sel))
        return cpu_pc(c);
    return sel.pc;
}

void dbg_format_frame(dbg *d, const frame *f, unsigned level, strbuf *out)
{
    char where[160];
    /* A return address points after the call's delay slot: name the caller. */
    uint64_t off;
    const symbol *s = symtab_lookup_addr(&d->m->syms, f->exact_pc ? f->pc : f->pc - 4, &off);
    if (s)
        snprintf(where, sizeof where, "%s+0x%llx", s->name, (unsigned long long)(f->pc - s->addr));
    else
        snprintf(where, sizeof where, "??");
    sb_printf(out, "#%-2u 0x%016llx in %s (sp 0x%llx)\n", level, (unsigned long long)f->pc, where,
              (unsigned long long)f->sp);
}

void dbg_show_location(dbg *d, cpu *c)
{
    strbuf b;
    sb_init(&b);
    dbg_format_location(d, c, cpu_pc(c), &b);
    dbg_puts_sb(d, &b);
}

void dbg_format_location(dbg *d, cpu *c, uint64_t pc, strbuf *out)
{
    char dis[160], where[160];
    uint32_t insn;
    if (read_insn(d, c, pc, &insn))
        cpu_disasm(pc, insn, &d->m->syms, dis, sizeof dis);
    else
        snprintf(dis, sizeof dis, "<cannot read memory>");
    dbg_format_addr(d, (dbg_addr){pc, false}, where, sizeof where);
    if (d->m->ncpus > 1)
        sb_printf(out, "[cpu%d] ", cpu_index(c));
    sb_printf(out, "%s:\t%s\n", where, dis);
    if (pc == cpu_pc(c)) /* the source line, with the function when it changed */
        dbg_src_report(d, c, false, out);
}
