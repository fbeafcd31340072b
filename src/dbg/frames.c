/* Call frames, best effort: without debug information the unwinder reads
 * each function's prologue (found through the symbol table) for the stack
 * adjustment (addiu/daddiu sp,sp,-N) and the slots where it saved $ra and
 * the registers it must preserve (sw/sd REG,OFF(sp)), as gdb's heuristic
 * MIPS unwinder does.  Leaf functions that save nothing return through $ra
 * (innermost frame only).  The saved slots give an outer frame its own
 * values of s0-s8, gp, sp, ra and pc; caller-saved registers are lost. */
#include <stdio.h>
#include <stdlib.h>

#include "dbg/dbg_int.h"

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
        } else if ((OP(i) == 0x2b || OP(i) == 0x3f) && RS(i) == REG_SP &&
                   callee_saved(RT(i)) && !f->saved_width[RT(i)]) {
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
    frame f = {.pc = cpu_pc(c), .sp = cpu_gpr(c, REG_SP)};
    if (!frame_layout(d, c, &f))
        return f.sp;
    return f.sp + f.size;
}

/* One step: fill in the layout of frame f (frame_layout), then find its
 * caller; ra is $ra for the innermost frame, 0 otherwise. */
static bool unwind_step(dbg *d, cpu *c, frame *f, uint64_t ra, frame *caller)
{
    if (!frame_layout(d, c, f))
        return false;
    caller->sp = f->sp + f->size;
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
    if (caller->pc == 0 || (caller->pc & 3) ||
        (caller->pc == f->pc && caller->sp == f->sp))
        return false;
    return true;
}

unsigned dbg_unwind(dbg *d, cpu *c, frame *out, unsigned max)
{
    if (!max || !c)
        return 0;
    memset(&out[0], 0, sizeof out[0]);
    out[0].pc = cpu_pc(c);
    out[0].sp = cpu_gpr(c, REG_SP);
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

int dbg_frame_gpr(cpu *c, const frame *f, unsigned n, unsigned level, unsigned r,
                  uint64_t *val, uint64_t *slot)
{
    *slot = 0;
    if (level >= n || r >= 32)
        return -1;
    if (level == 0 || r == 0) {
        *val = r ? cpu_gpr(c, r) : 0;
        return 1;
    }
    if (r == REG_SP) {
        *val = f[level].sp;
        return 1;
    }
    if (r == REG_RA) { /* after its call, $ra of the caller was the return address */
        *val = f[level].pc;
        return 1;
    }
    if (!callee_saved(r))
        return 0;
    /* The nearest inner frame that saved r holds the caller's value; a
     * frame that did not save it did not change it. */
    for (unsigned j = level; j-- > 0;) {
        unsigned w = f[j].saved_width[r];
        if (!w)
            continue;
        uint8_t b[8];
        if (cpu_read_virt(c, f[j].saved[r], b, w) != w)
            return 0;
        uint64_t v = load_be(b, w);
        *val = w == 4 ? (uint64_t)sext32(v) : v;
        *slot = f[j].saved[r];
        return 1;
    }
    *val = cpu_gpr(c, r);
    return 1;
}

frame *dbg_selected_frames(dbg *d, cpu *c, unsigned *n)
{
    unsigned want = d->frame + 2; /* the selected frame and its caller */
    frame *f = xcalloc(want, sizeof *f);
    *n = dbg_unwind(d, c, f, want);
    if (d->frame >= *n) /* the stack changed under the selection */
        d->frame = 0;
    return f;
}

uint64_t dbg_frame_pc(dbg *d, cpu *c)
{
    if (!d->frame)
        return cpu_pc(c);
    unsigned n;
    frame *f = dbg_selected_frames(d, c, &n);
    uint64_t pc = f[d->frame].pc;
    free(f);
    return pc;
}

void dbg_format_frame(dbg *d, const frame *f, unsigned level, strbuf *out)
{
    char where[160];
    /* A return address points after the call's delay slot: name the caller. */
    uint64_t off;
    const symbol *s = symtab_lookup_addr(&d->m->syms, level ? f->pc - 4 : f->pc, &off);
    if (s)
        snprintf(where, sizeof where, "%s+0x%llx", s->name, (unsigned long long)(f->pc - s->addr));
    else
        snprintf(where, sizeof where, "??");
    sb_printf(out, "#%-2u 0x%016llx in %s (sp 0x%llx)\n", level, (unsigned long long)f->pc,
              where, (unsigned long long)f->sp);
}

void dbg_show_location(dbg *d, cpu *c)
{
    strbuf b;
    sb_init(&b);
    dbg_format_location(d, c, cpu_pc(c), &b);
    dbg_puts(d, b.s);
    sb_free(&b);
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
}
