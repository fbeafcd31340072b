/* Call frames.  Where the debug information has call-frame information
 * for the pc, a frame is unwound with it (srcframe.c): exact at every
 * instruction, through exception frames the code marks.  Elsewhere, best
 * effort: the unwinder reads each function's prologue (found through the
 * symbol table) for the stack adjustment (addiu/daddiu sp,sp,-N) and the
 * slot where it saved $ra (sw/sd ra,OFF(sp)), as gdb's heuristic MIPS
 * unwinder does.  Leaf functions that save nothing return through $ra
 * (innermost frame only). */
#include <stdio.h>

#include "dbg/dbg_int.h"
#include "dbg/source.h"

#define OP(i) ((i) >> 26)
#define RS(i) (((i) >> 21) & 31)
#define RT(i) (((i) >> 16) & 31)
#define IMM(i) ((int16_t)((i) & 0xffff))

enum { REG_SP = 29, REG_RA = 31 };
#define MAX_PROLOGUE 256 /* instructions scanned from a function's start */

bool dbg_insn_is_call(uint32_t insn)
{
    switch (OP(insn)) {
    case 0x03: /* jal */
        return true;
    case 0x00: /* jalr */
        return (insn & 0x3f) == 0x09;
    case 0x01: /* bltzal, bgezal (bal), bltzall, bgezall */
        return RT(insn) >= 0x10 && RT(insn) <= 0x13;
    default:
        return false;
    }
}

static bool read_insn(dbg *d, cpu *c, uint64_t pc, uint32_t *insn)
{
    uint8_t b[4];
    if (cpu_read_virt(c, pc, b, 4) != 4)
        return false;
    (void)d;
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

/* The frame of the function executing at pc, as far as it has been built
 * when pc is reached: the bytes its prologue has taken from sp (0 before
 * the adjustment and after the epilogue's), and where it saved $ra
 * (ra_width 0: not saved).  False if the code cannot be read. */
static bool frame_layout(dbg *d, cpu *c, uint64_t pc, int *size, int *ra_off, int *ra_width)
{
    uint64_t start;
    *size = *ra_off = *ra_width = 0;
    if (!function_start(d, c, pc, &start))
        return true;
    for (uint64_t a = start; a < pc && a < start + 4 * MAX_PROLOGUE; a += 4) {
        uint32_t i;
        int imm;
        if (!read_insn(d, c, a, &i))
            return false;
        if (is_sp_adjust(i, &imm)) {
            if (imm < 0) {
                *size = -imm;
            } else { /* epilogue: the frame is gone, $ra restored */
                *size = 0;
                *ra_width = 0;
            }
        } else if ((OP(i) == 0x2b || OP(i) == 0x3f) && RS(i) == REG_SP && RT(i) == REG_RA) {
            *ra_off = IMM(i);
            *ra_width = OP(i) == 0x3f ? 8 : 4;
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
    int size, ra_off, ra_width;
    uint64_t sp = cpu_gpr(c, REG_SP);
    if (!frame_layout(d, c, cpu_pc(c), &size, &ra_off, &ra_width))
        return sp;
    return sp + (uint64_t)size;
}

/* One step: the caller of the frame (pc, sp); ra is $ra for the innermost
 * frame, 0 otherwise. */
static bool unwind_step(dbg *d, cpu *c, frame *f, uint64_t ra, frame *caller)
{
    int k = dbg_cfi_step(d, c, f, caller);
    if (k > 0)
        /* (no check that the stack grows: an exception may have switched
         * stacks; bt's frame limit ends a loop) */
        return caller->pc && !(caller->pc & 3) &&
               !(caller->pc == f->pc && caller->sp == f->sp);
    if (k < 0)
        return false;
    int size, ra_off, ra_width;
    if (!frame_layout(d, c, f->pc, &size, &ra_off, &ra_width))
        return false;
    memset(caller, 0, sizeof *caller);
    caller->sp = f->sp + (uint64_t)size;
    f->cfa = caller->sp;
    if (ra_width) {
        uint8_t b[8];
        if (cpu_read_virt(c, f->sp + (uint64_t)(int64_t)ra_off, b, (uint64_t)ra_width) !=
            (uint64_t)ra_width)
            return false;
        uint64_t v = load_be(b, (unsigned)ra_width);
        caller->pc = ra_width == 4 ? (uint64_t)sext32(v) : v;
    } else if (ra) {
        caller->pc = ra;
    } else {
        return false;
    }
    if (caller->pc == 0 || (caller->pc & 3) ||
        (caller->pc == f->pc && caller->sp == f->sp))
        return false;
    /* What the prologue does not tell: only $sp and $ra are known. */
    caller->regs[REG_SP] = caller->sp;
    caller->regs[REG_RA] = caller->pc;
    caller->valid = 1u << REG_SP | 1u << REG_RA | 1u;
    return true;
}

unsigned dbg_unwind(dbg *d, cpu *c, frame *out, unsigned max)
{
    if (!max || !c)
        return 0;
    dbg_frame0(c, &out[0]);
    unsigned n = 1;
    while (n < max && unwind_step(d, c, &out[n - 1], n == 1 ? cpu_gpr(c, REG_RA) : 0, &out[n]))
        n++;
    return n;
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
