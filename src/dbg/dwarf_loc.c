/* SPDX-License-Identifier: GPL-2.0-or-later */
/* DWARF location expressions: the stack machine of DWARF 5 section 2.5,
 * evaluated against a frame's registers and memory.  libdw decodes the
 * operations (dwarf_getlocation_addr); this runs them. */
#include "dbg/dwarf_int.h"

#include <stdio.h>
#include <stdlib.h>

#define STACK 64

typedef struct machine_state {
    uint64_t st[STACK];
    int sp;
    xerr *err;
} machine_state;

static int push(machine_state *m, uint64_t v)
{
    if (m->sp >= STACK)
        return xerr_fail(m->err, "DWARF expression stack overflow");
    m->st[m->sp++] = v;
    return 0;
}

static int pop(machine_state *m, uint64_t *v)
{
    *v = 0;
    if (m->sp <= 0)
        return xerr_fail(m->err, "DWARF expression stack underflow");
    *v = m->st[--m->sp];
    return 0;
}

/* A GPR of the frame: DWARF registers 0-31 are the MIPS GPRs. */
static int reg(machine_state *m, const dw_regs *fr, uint64_t n, uint64_t *v, bool *not_saved)
{
    if (n >= 32)
        return xerr_fail(m->err, "DWARF register %llu is not a general register",
                         (unsigned long long)n);
    if (!(fr->valid & (1u << n))) {
        *not_saved = true;
        *v = 0;
        return 0;
    }
    *v = n ? fr->r[n] : 0;
    return 0;
}

static int deref(machine_state *m, const dw_mem *mem, uint64_t a, unsigned size, uint64_t *v)
{
    uint8_t b[8];
    if (size == 0 || size > 8)
        return xerr_fail(m->err, "DWARF dereference of %u bytes", size);
    if (!mem || mem->read(mem->ctx, a, b, size) != 0)
        return xerr_fail(m->err, "Cannot access memory at address 0x%llx", (unsigned long long)a);
    *v = load_be(b, size);
    return 0;
}

/* The call site in the caller that returns to ra: a DW_TAG_call_site
 * (DWARF 5, DW_AT_call_return_pc) or DW_TAG_GNU_call_site (DW_AT_low_pc)
 * among the scopes around the call. */
static bool find_call_site(dw_file *f, uint64_t ra, Dwarf_Die *out)
{
    Dwarf_Die cu, *sc = NULL;
    if (!dwarf_addrdie(f->dw, ra - 4, &cu))
        return false;
    int n = dwarf_getscopes(&cu, ra - 4, &sc);
    bool found = false;
    for (int i = 0; i < n && !found; i++) {
        Dwarf_Die c;
        if (dwarf_child(&sc[i], &c) != 0)
            continue;
        do {
            int tag = dwarf_tag(&c);
            if (tag != DW_TAG_call_site && tag != DW_TAG_GNU_call_site)
                continue;
            Dwarf_Attribute a;
            Dwarf_Addr pc;
            if ((dwarf_attr(&c, DW_AT_call_return_pc, &a) || dwarf_attr(&c, DW_AT_low_pc, &a)) &&
                dwarf_formaddr(&a, &pc) == 0 && pc == ra) {
                *out = c;
                found = true;
                break;
            }
        } while (dwarf_siblingof(&c, &c) == 0);
        if (dwarf_tag(&sc[i]) == DW_TAG_subprogram)
            break;
    }
    free(sc);
    return found;
}

/* The value the caller passed for a parameter at the call it returns to:
 * its call site's DW_TAG_call_site_parameter for register `reg` (or, reg
 * < 0, for the parameter DIE at `param`), DW_AT_call_value evaluated in
 * the caller's frame.  0 with *v, 1 when it cannot be known. */
static int call_value(dw_file *f, const dw_regs *up, const dw_mem *mem, int reg, Dwarf_Off param,
                      uint64_t *v)
{
    Dwarf_Die cs, p;
    if (!find_call_site(f, up->pc, &cs) || dwarf_child(&cs, &p) != 0)
        return 1;
    do {
        int tag = dwarf_tag(&p);
        if (tag != DW_TAG_call_site_parameter && tag != DW_TAG_GNU_call_site_parameter)
            continue;
        Dwarf_Attribute la, va, pa;
        Dwarf_Op *lops, *vops;
        Dwarf_Die pd;
        size_t ln, vn;
        if (reg >= 0 ? (!dwarf_attr(&p, DW_AT_location, &la) ||
                        dwarf_getlocation(&la, &lops, &ln) != 0 || ln != 1 ||
                        lops[0].atom != DW_OP_reg0 + (unsigned)reg)
                     : (!dwarf_attr(&p, DW_AT_call_parameter, &pa) &&
                        !dwarf_attr(&p, DW_AT_abstract_origin, &pa)) ||
                           !dwarf_formref_die(&pa, &pd) || dwarf_dieoffset(&pd) != param)
            continue;
        if ((!dwarf_attr(&p, DW_AT_call_value, &va) &&
             !dwarf_attr(&p, DW_AT_GNU_call_site_value, &va)) ||
            dwarf_getlocation(&va, &vops, &vn) != 0)
            return 1;
        dw_value val;
        dw_regs caller = *up;
        caller.caller = NULL; /* one level: no entry values of the caller's own */
        if (dw_eval_ops(f, &va, vops, vn, &caller, mem, 0, false, &val, NULL) != 0)
            return 1;
        switch (val.kind) {
        case DWV_VALUE: *v = val.value; return 0;
        case DWV_MEM: *v = val.addr; return 0; /* the top of the stack is the value */
        case DWV_REG: *v = val.value; return 0;
        default: return 1;
        }
    } while (dwarf_siblingof(&p, &p) == 0);
    return 1;
}

/* DW_OP_entry_value(DW_OP_regN): the value register N had when the
 * function was entered.  A register the function must preserve still has
 * it in the caller; an argument register has what the call site says
 * (call_value).  0 with *v, 1 when it cannot be known (optimized out). */
static int entry_value(dw_file *f, Dwarf_Attribute *attr, const Dwarf_Op *op, const dw_regs *fr,
                       const dw_mem *mem, uint64_t *v)
{
    Dwarf_Attribute sub;
    Dwarf_Op *sops;
    size_t sn;
    if (!attr || !fr->caller || dwarf_getlocation_attr(attr, op, &sub) != 0 ||
        dwarf_getlocation(&sub, &sops, &sn) != 0 || sn != 1)
        return 1;
    unsigned reg;
    if (sops[0].atom >= DW_OP_reg0 && sops[0].atom <= DW_OP_reg31)
        reg = sops[0].atom - DW_OP_reg0;
    else if (sops[0].atom == DW_OP_regx && sops[0].number < 32)
        reg = (unsigned)sops[0].number;
    else
        return 1;
    const dw_regs *up = fr->caller;
    if ((reg >= 16 && reg <= 23) || reg == 28 || reg == 30) {
        if (!(up->valid & (1u << reg)))
            return 1;
        *v = up->r[reg];
        return 0;
    }
    return call_value(f, up, mem, (int)reg, 0, v);
}

/* DW_OP_GNU_parameter_ref: the value the caller passed for a parameter
 * (named by its DIE) that this code no longer keeps. */
static int parameter_ref(dw_file *f, Dwarf_Attribute *attr, const Dwarf_Op *op, const dw_regs *fr,
                         const dw_mem *mem, uint64_t *v)
{
    Dwarf_Die param;
    if (!attr || !fr->caller || dwarf_getlocation_die(attr, op, &param) != 0)
        return 1;
    return call_value(f, fr->caller, mem, -1, dwarf_dieoffset(&param), v);
}

int dw_eval_ops(dw_file *f, Dwarf_Attribute *attr, const Dwarf_Op *ops, size_t n, const dw_regs *fr,
                const dw_mem *mem, uint64_t frame_base, bool have_base, dw_value *out, xerr *err)
{
    machine_state m = {.err = err};
    memset(out, 0, sizeof *out);
    out->kind = DWV_MEM;
    bool not_saved = false;
    bool is_value = false;
    int is_reg = -1;
    for (size_t i = 0; i < n; i++) {
        const Dwarf_Op *op = &ops[i];
        uint8_t a = op->atom;
        uint64_t x = 0, y = 0, z = 0;
        if (is_reg >= 0 && a != DW_OP_piece)
            return xerr_fail(m.err, "a register location followed by more operations");
        if (a >= DW_OP_lit0 && a <= DW_OP_lit31) {
            if (push(&m, a - DW_OP_lit0))
                return -1;
            continue;
        }
        if (a >= DW_OP_reg0 && a <= DW_OP_reg31) {
            is_reg = a - DW_OP_reg0;
            continue;
        }
        if (a >= DW_OP_breg0 && a <= DW_OP_breg31) {
            if (reg(&m, fr, a - DW_OP_breg0, &x, &not_saved) || push(&m, x + op->number))
                return -1;
            continue;
        }
        switch (a) {
        case DW_OP_addr:
        case DW_OP_const1u:
        case DW_OP_const2u:
        case DW_OP_const4u:
        case DW_OP_const8u:
        case DW_OP_constu:
            if (push(&m, op->number))
                return -1;
            break;
        case DW_OP_const1s:
        case DW_OP_const2s:
        case DW_OP_const4s:
        case DW_OP_const8s:
        case DW_OP_consts:
            if (push(&m, op->number)) /* libdw gives the sign-extended value */
                return -1;
            break;
        case DW_OP_regx:
            is_reg = (int)op->number;
            if (op->number >= 32)
                return xerr_fail(m.err, "DWARF register %llu is not a general register",
                                 (unsigned long long)op->number);
            break;
        case DW_OP_bregx:
            if (reg(&m, fr, op->number, &x, &not_saved) || push(&m, x + op->number2))
                return -1;
            break;
        case DW_OP_fbreg:
            if (!have_base)
                return xerr_fail(m.err, "no frame base for this variable");
            if (push(&m, frame_base + op->number))
                return -1;
            break;
        case DW_OP_call_frame_cfa:
            if (!fr->cfa)
                return xerr_fail(m.err, "the frame's CFA is not known (no call-frame information)");
            if (push(&m, fr->cfa))
                return -1;
            break;
        case DW_OP_dup:
            if (pop(&m, &x) || push(&m, x) || push(&m, x))
                return -1;
            break;
        case DW_OP_drop:
            if (pop(&m, &x))
                return -1;
            break;
        case DW_OP_over:
            if (m.sp < 2)
                return xerr_fail(m.err, "DWARF expression stack underflow");
            if (push(&m, m.st[m.sp - 2]))
                return -1;
            break;
        case DW_OP_pick:
            if (op->number >= (uint64_t)m.sp)
                return xerr_fail(m.err, "DWARF expression stack underflow");
            if (push(&m, m.st[m.sp - 1 - (int)op->number]))
                return -1;
            break;
        case DW_OP_swap:
            if (pop(&m, &x) || pop(&m, &y) || push(&m, x) || push(&m, y))
                return -1;
            break;
        case DW_OP_rot:
            if (pop(&m, &x) || pop(&m, &y) || pop(&m, &z) || push(&m, x) || push(&m, z) ||
                push(&m, y))
                return -1;
            break;
        case DW_OP_deref:
            if (pop(&m, &x) || deref(&m, mem, x, 8, &y) || push(&m, y))
                return -1;
            break;
        case DW_OP_deref_size:
            if (pop(&m, &x) || deref(&m, mem, x, (unsigned)op->number, &y) || push(&m, y))
                return -1;
            break;
        case DW_OP_abs:
            if (pop(&m, &x) || push(&m, (int64_t)x < 0 ? -x : x))
                return -1;
            break;
        case DW_OP_neg:
            if (pop(&m, &x) || push(&m, -x))
                return -1;
            break;
        case DW_OP_not:
            if (pop(&m, &x) || push(&m, ~x))
                return -1;
            break;
        case DW_OP_plus_uconst:
            if (pop(&m, &x) || push(&m, x + op->number))
                return -1;
            break;
        case DW_OP_and:
        case DW_OP_or:
        case DW_OP_xor:
        case DW_OP_plus:
        case DW_OP_minus:
        case DW_OP_mul:
        case DW_OP_div:
        case DW_OP_mod:
        case DW_OP_shl:
        case DW_OP_shr:
        case DW_OP_shra:
        case DW_OP_eq:
        case DW_OP_ne:
        case DW_OP_lt:
        case DW_OP_gt:
        case DW_OP_le:
        case DW_OP_ge:
            if (pop(&m, &y) || pop(&m, &x))
                return -1;
            switch (a) {
            case DW_OP_and: z = x & y; break;
            case DW_OP_or: z = x | y; break;
            case DW_OP_xor: z = x ^ y; break;
            case DW_OP_plus: z = x + y; break;
            case DW_OP_minus: z = x - y; break;
            case DW_OP_mul: z = x * y; break;
            case DW_OP_div:
                if (!y)
                    return xerr_fail(m.err, "division by zero in a DWARF expression");
                z = (int64_t)x == INT64_MIN && (int64_t)y == -1
                        ? x
                        : (uint64_t)((int64_t)x / (int64_t)y);
                break;
            case DW_OP_mod:
                if (!y)
                    return xerr_fail(m.err, "division by zero in a DWARF expression");
                z = x % y;
                break;
            case DW_OP_shl: z = y >= 64 ? 0 : x << y; break;
            case DW_OP_shr: z = y >= 64 ? 0 : x >> y; break;
            case DW_OP_shra:
                z = y >= 64 ? ((int64_t)x < 0 ? UINT64_MAX : 0) : (uint64_t)((int64_t)x >> y);
                break;
            case DW_OP_eq: z = x == y; break;
            case DW_OP_ne: z = x != y; break;
            case DW_OP_lt: z = (int64_t)x < (int64_t)y; break;
            case DW_OP_gt: z = (int64_t)x > (int64_t)y; break;
            case DW_OP_le: z = (int64_t)x <= (int64_t)y; break;
            default: z = (int64_t)x >= (int64_t)y; break;
            }
            if (push(&m, z))
                return -1;
            break;
        case DW_OP_skip:
        case DW_OP_bra: {
            if (a == DW_OP_bra) {
                if (pop(&m, &x))
                    return -1;
                if (!x)
                    break;
            }
            /* operand: a byte offset from the end of this operation */
            uint64_t target = op->offset + 3 + op->number;
            size_t k;
            for (k = 0; k < n && ops[k].offset != target; k++)
                ;
            if (k == n && target != (n ? ops[n - 1].offset + 1 : 0)) {
                /* past the end finishes the expression */
                bool past = true;
                for (size_t j = 0; j < n; j++)
                    past &= ops[j].offset < target;
                if (!past)
                    return xerr_fail(m.err, "DWARF branch into the middle of an operation");
            }
            if (k <= i)
                return xerr_fail(m.err, "DWARF expression branches backwards");
            i = k - 1;
            break;
        }
        case DW_OP_nop: break;
        case DW_OP_stack_value:
            is_value = true;
            i = n; /* the last operation, but a piece may follow: not supported */
            break;
        case DW_OP_implicit_value: {
            Dwarf_Attribute va;
            Dwarf_Block blk;
            if (!attr || dwarf_getlocation_attr(attr, op, &va) != 0 ||
                dwarf_formblock(&va, &blk) != 0 || blk.length > 8)
                return xerr_fail(m.err, "an implicit value xbow cannot read");
            out->kind = DWV_VALUE;
            out->value = blk.length ? load_be(blk.data, (unsigned)blk.length) : 0;
            return 0;
        }
        case DW_OP_piece:
            /* One piece that is the whole variable is the same as no
             * piece; several pieces are not supported. */
            if (i + 1 != n || i == 0)
                return xerr_fail(m.err, "a variable split into pieces (DW_OP_piece)");
            i = n;
            break;
        case DW_OP_entry_value:
        case DW_OP_GNU_entry_value:
        case DW_OP_GNU_parameter_ref: {
            int k = a == DW_OP_GNU_parameter_ref ? parameter_ref(f, attr, op, fr, mem, &x)
                                                 : entry_value(f, attr, op, fr, mem, &x);
            if (k) {
                out->kind = DWV_OPTIMIZED_OUT;
                return 0;
            }
            if (push(&m, x))
                return -1;
            break;
        }
        case DW_OP_implicit_pointer:
        case DW_OP_GNU_implicit_pointer: out->kind = DWV_OPTIMIZED_OUT; return 0;
        default: return xerr_fail(m.err, "DWARF operation 0x%x is not supported", a);
        }
    }
    if (is_reg >= 0) {
        uint64_t v = 0;
        if (reg(&m, fr, (uint64_t)is_reg, &v, &not_saved))
            return -1;
        if (not_saved) {
            out->kind = DWV_NOT_SAVED;
            return 0;
        }
        out->kind = DWV_REG;
        out->reg = (unsigned)is_reg;
        out->value = v;
        return 0;
    }
    if (not_saved) {
        out->kind = DWV_NOT_SAVED;
        return 0;
    }
    uint64_t top = 0;
    if (m.sp == 0) { /* an empty expression: optimized away */
        out->kind = DWV_OPTIMIZED_OUT;
        return 0;
    }
    if (pop(&m, &top))
        return -1;
    if (is_value) {
        out->kind = DWV_VALUE;
        out->value = top;
    } else {
        out->kind = DWV_MEM;
        out->addr = top;
    }
    return 0;
}
