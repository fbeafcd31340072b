/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What each R10000 instruction does, written once.
 *
 * The interpreter's handlers (exec_alu.h, exec_branch.h, exec_mem.h and
 * exec_sys.h, included in cpu_interp() in exec.c) call these helpers, and so
 * can a translator, from the code it generates or from its slow paths.  A
 * family of instructions (the shifts, LWL/LWR/LDL/LDR, MFC0/DMFC0, the twelve
 * traps) shares one helper that takes the operation as an `enum op`
 * (ops.h): called with a constant, it folds to that one operation, so every
 * instruction still gets its own specialised handler.
 *
 * Value helpers (insn_alu, insn_muldiv, insn_trap, insn_branch_taken,
 * insn_load_extend, ...) are pure functions of the operand values.  State
 * helpers take the cpu: they go through the memory slow paths, CP0, the TLB
 * or the FPU, expect c->pc, c->in_ds and the clock to be current (an
 * exception records them), and those that can raise an exception return
 * false when they did (c->pc is then the vector).
 *
 * Neither kind knows how instructions are dispatched.  The checks made before
 * an instruction runs (Coprocessor Unusable, Reserved Instruction for a
 * 64-bit or MIPS IV operation in a mode without them) and the soft-TLB fast
 * paths of loads and stores belong to the dispatcher (exec.c).
 *
 * Operands are as the decoder leaves them in a slot (decode.c): the
 * immediate sign-extended (zero-extended for ANDI/ORI/XORI, shifted for LUI),
 * branch offsets in bytes, sa the shift amount (plus 32 for DSLL32 ...).
 */
#ifndef XBOW_CPU_INSN_H
#define XBOW_CPU_INSN_H

#include "cpu/cpu_internal.h"
#include "cpu/ops.h"

/* Inlined even where the compiler's size estimate would not: every helper
 * is a switch that a constant operation reduces to a line or two. */
#define INSN_INLINE static inline __attribute__((always_inline))

/* ---- Mode restrictions ------------------------------------------------ */

/* Operations that raise Reserved Instruction in user or supervisor mode
 * without UX/SX (64-bit operations) or XX (MIPS IV): the dispatcher checks
 * them before the handler runs, in those modes only.  The instructions that
 * first check coprocessor usability check the mode in their handler
 * instead, after it: DMFC0, DMTC0 (64-bit), MOVF/MOVT, PREFX, COP1X, the
 * indexed FP loads and stores, BC1 with a condition code other than 0
 * (MIPS IV).  (Macros: they fill static dispatch tables.) */
#define INSN_IS_OP64(o)                                                                            \
    ((o) == OP_DSLL || (o) == OP_DSRL || (o) == OP_DSRA || (o) == OP_DSLL32 || (o) == OP_DSRL32 || \
     (o) == OP_DSRA32 || (o) == OP_DSLLV || (o) == OP_DSRLV || (o) == OP_DSRAV ||                  \
     (o) == OP_DMULT || (o) == OP_DMULTU || (o) == OP_DDIV || (o) == OP_DDIVU || (o) == OP_DADD || \
     (o) == OP_DADDU || (o) == OP_DSUB || (o) == OP_DSUBU || (o) == OP_DADDI ||                    \
     (o) == OP_DADDIU || (o) == OP_LWU || (o) == OP_LD || (o) == OP_SD || (o) == OP_LDL ||         \
     (o) == OP_LDR || (o) == OP_SDL || (o) == OP_SDR || (o) == OP_LLD || (o) == OP_SCD)
#define INSN_IS_OP4(o) ((o) == OP_MOVZ || (o) == OP_MOVN || (o) == OP_PREF)

/* ---- Integer arithmetic, logic, shifts, moves (exec_alu.h) ----------- */

/* The operations that cannot raise an exception.  a is rs (rt for a
 * shift), b is rt, the immediate, or the shift amount (sa, or rs for the
 * variable shifts: only its low 5 or 6 bits count). */
INSN_INLINE uint64_t insn_alu(unsigned op, uint64_t a, uint64_t b)
{
    switch (op) {
    case OP_SLL:
    case OP_SLLV: return (uint64_t)sext32((uint32_t)a << (b & 31));
    case OP_SRL:
    case OP_SRLV: return (uint64_t)sext32((uint32_t)a >> (b & 31));
    case OP_SRA:
    case OP_SRAV: return (uint64_t)sext32((uint32_t)((int32_t)a >> (b & 31)));
    case OP_DSLL:
    case OP_DSLL32:
    case OP_DSLLV: return a << (b & 63);
    case OP_DSRL:
    case OP_DSRL32:
    case OP_DSRLV: return a >> (b & 63);
    case OP_DSRA:
    case OP_DSRA32:
    case OP_DSRAV: return (uint64_t)((int64_t)a >> (b & 63));
    case OP_ADDU:
    case OP_ADDIU: return (uint64_t)sext32(a + b);
    case OP_SUBU: return (uint64_t)sext32(a - b);
    case OP_DADDU:
    case OP_DADDIU: return a + b;
    case OP_DSUBU: return a - b;
    case OP_AND:
    case OP_ANDI: return a & b;
    case OP_OR:
    case OP_ORI: return a | b;
    case OP_XOR:
    case OP_XORI: return a ^ b;
    case OP_NOR: return ~(a | b);
    case OP_SLT:
    case OP_SLTI: return (int64_t)a < (int64_t)b;
    case OP_SLTU:
    case OP_SLTIU: return a < b;
    case OP_LUI: return b;
    default: return 0;
    }
}

/* ADD, ADDI, SUB, DADD, DADDI, DSUB: *r = the result, or false when it
 * overflows (Integer Overflow; the destination keeps its value). */
INSN_INLINE bool insn_alu_ov(unsigned op, uint64_t a, uint64_t b, uint64_t *r)
{
    int32_t w;
    int64_t l;
    bool ov;
    switch (op) {
    case OP_ADD:
    case OP_ADDI:
        ov = __builtin_add_overflow((int32_t)a, (int32_t)b, &w);
        l = w;
        break;
    case OP_SUB:
        ov = __builtin_sub_overflow((int32_t)a, (int32_t)b, &w);
        l = w;
        break;
    case OP_DADD:
    case OP_DADDI: ov = __builtin_add_overflow((int64_t)a, (int64_t)b, &l); break;
    case OP_DSUB: ov = __builtin_sub_overflow((int64_t)a, (int64_t)b, &l); break;
    default: return false;
    }
    *r = (uint64_t)l;
    return !ov;
}

/* MOVZ, MOVN: whether rd = rs happens, given rt. */
INSN_INLINE bool insn_move_cond(unsigned op, uint64_t rt)
{
    return op == OP_MOVZ ? rt == 0 : rt != 0;
}

/* MOVF/MOVT (MOVCI) and BC1F/BC1T: FP condition code cc equals tf. */
INSN_INLINE bool insn_fp_cond(const cpu *c, unsigned cc, bool tf)
{
    return fpu_cc(&c->fpu, cc) == tf;
}

/* ---- Multiply and divide (exec_alu.h) ---------------------------------- */

typedef struct hilo {
    uint64_t hi, lo;
} hilo;

/* MULT, MULTU, DIV, DIVU, DMULT, DMULTU, DDIV, DDIVU of a = rs, b = rt.
 * Division by zero and the overflowing INT_MIN / -1 leave HI/LO undefined
 * on the R10000; we divide by 1 (LO = dividend, HI = 0), as QEMU and Unicorn
 * do, so the differential tester can compare them. */
INSN_INLINE hilo insn_muldiv(unsigned op, uint64_t a, uint64_t b)
{
    switch (op) {
    case OP_MULT: {
        uint64_t p = (uint64_t)((int64_t)(int32_t)a * (int64_t)(int32_t)b);
        return (hilo){.hi = (uint64_t)sext32(p >> 32), .lo = (uint64_t)sext32(p)};
    }
    case OP_MULTU: {
        uint64_t p = (uint64_t)(uint32_t)a * (uint32_t)b;
        return (hilo){.hi = (uint64_t)sext32(p >> 32), .lo = (uint64_t)sext32(p)};
    }
    case OP_DIV: {
        int32_t x = (int32_t)a, y = (int32_t)b;
        if (y == 0 || (x == INT32_MIN && y == -1))
            return (hilo){.hi = 0, .lo = (uint64_t)(int64_t)x};
        return (hilo){.hi = (uint64_t)(int64_t)(x % y), .lo = (uint64_t)(int64_t)(x / y)};
    }
    case OP_DIVU: {
        uint32_t x = (uint32_t)a, y = (uint32_t)b;
        if (y == 0)
            y = 1;
        return (hilo){.hi = (uint64_t)sext32(x % y), .lo = (uint64_t)sext32(x / y)};
    }
    case OP_DMULT: {
        __int128 p = (__int128)(int64_t)a * (int64_t)b;
        return (hilo){.hi = (uint64_t)((unsigned __int128)p >> 64), .lo = (uint64_t)p};
    }
    case OP_DMULTU: {
        unsigned __int128 p = (unsigned __int128)a * b;
        return (hilo){.hi = (uint64_t)(p >> 64), .lo = (uint64_t)p};
    }
    case OP_DDIV: {
        int64_t x = (int64_t)a, y = (int64_t)b;
        if (y == 0 || (x == INT64_MIN && y == -1))
            return (hilo){.hi = 0, .lo = (uint64_t)x};
        return (hilo){.hi = (uint64_t)(x % y), .lo = (uint64_t)(x / y)};
    }
    case OP_DDIVU:
        if (b == 0)
            b = 1;
        return (hilo){.hi = a % b, .lo = a / b};
    default: return (hilo){0, 0};
    }
}

/* ---- Branches and jumps (exec_branch.h) -------------------------------- */

/* Whether a conditional branch (any of its likely and linking forms) is
 * taken, for a = rs, b = rt (unused by the forms that compare with 0). */
INSN_INLINE bool insn_branch_taken(unsigned op, uint64_t a, uint64_t b)
{
    switch (op) {
    case OP_BEQ:
    case OP_BEQL: return a == b;
    case OP_BNE:
    case OP_BNEL: return a != b;
    case OP_BLEZ:
    case OP_BLEZL: return (int64_t)a <= 0;
    case OP_BGTZ:
    case OP_BGTZL: return (int64_t)a > 0;
    case OP_BLTZ:
    case OP_BLTZL:
    case OP_BLTZAL:
    case OP_BLTZALL: return (int64_t)a < 0;
    case OP_BGEZ:
    case OP_BGEZL:
    case OP_BGEZAL:
    case OP_BGEZALL: return (int64_t)a >= 0;
    default: return false;
    }
}

/* Branch likely: the delay slot runs only if the branch is taken. */
INSN_INLINE bool insn_branch_likely(unsigned op)
{
    return op == OP_BEQL || op == OP_BNEL || op == OP_BLEZL || op == OP_BGTZL || op == OP_BLTZL ||
           op == OP_BGEZL || op == OP_BLTZALL || op == OP_BGEZALL;
}

/* And link: $31 = the branch's pc + 8, whether taken or not. */
INSN_INLINE bool insn_branch_links(unsigned op)
{
    return op == OP_BLTZAL || op == OP_BGEZAL || op == OP_BLTZALL || op == OP_BGEZALL;
}

/* J and JAL at pc: the 256 MB region of the delay slot, index = imm. */
INSN_INLINE uint64_t insn_jump_target(uint64_t pc, uint64_t index)
{
    return ((pc + 4) & ~0x0fffffffull) | index;
}

/* ---- Loads and stores (exec_mem.h) ------------------------------------- */

/* Bytes accessed by a load or store operation (the aligned word or
 * doubleword for LWL ... SDR; 8 for LD, SD, LLD, SCD, LDC1, SDC1, LDXC1,
 * SDXC1, which the default case covers). */
INSN_INLINE unsigned insn_mem_size(unsigned op)
{
    switch (op) {
    case OP_LB:
    case OP_LBU:
    case OP_SB: return 1;
    case OP_LH:
    case OP_LHU:
    case OP_SH: return 2;
    case OP_LW:
    case OP_LWU:
    case OP_SW:
    case OP_LWL:
    case OP_LWR:
    case OP_SWL:
    case OP_SWR:
    case OP_LL:
    case OP_SC:
    case OP_LWC1:
    case OP_SWC1:
    case OP_LWXC1:
    case OP_SWXC1: return 4;
    default: return 8;
    }
}

/* A big-endian value of size 1, 2, 4 or 8 bytes in host memory. */
INSN_INLINE uint64_t insn_host_load(const uint8_t *p, unsigned size)
{
    switch (size) {
    case 1: return p[0];
    case 2: return (uint64_t)((p[0] << 8) | p[1]);
    case 4: return ldbe32(p);
    default: return ldbe64(p);
    }
}
INSN_INLINE void insn_host_store(uint8_t *p, unsigned size, uint64_t v)
{
    switch (size) {
    case 1: p[0] = (uint8_t)v; break;
    case 2:
        p[0] = (uint8_t)(v >> 8);
        p[1] = (uint8_t)v;
        break;
    case 4: stbe32(p, (uint32_t)v); break;
    default: stbe64(p, v); break;
    }
}

/* LB, LBU, LH, LHU, LW, LWU, LD: the register's value from the bytes read
 * (v, zero-extended). */
INSN_INLINE uint64_t insn_load_extend(unsigned op, uint64_t v)
{
    switch (op) {
    case OP_LB: return (uint64_t)(int64_t)(int8_t)v;
    case OP_LBU: return (uint8_t)v;
    case OP_LH: return (uint64_t)(int64_t)(int16_t)v;
    case OP_LHU: return (uint16_t)v;
    case OP_LW: return (uint64_t)(int64_t)(int32_t)v;
    case OP_LWU: return (uint32_t)v;
    default: return v;
    }
}

/* LWL, LWR, LDL, LDR at va: the register after merging w (the aligned word
 * or doubleword holding va) into its old value.  LWL and LWR sign-extend the
 * merged word, as QEMU does. */
INSN_INLINE uint64_t insn_load_partial(unsigned op, uint64_t va, uint64_t w, uint64_t old)
{
    unsigned k4 = va & 3, k8 = va & 7;
    uint32_t o = (uint32_t)old;
    switch (op) {
    case OP_LWL:
        return (uint64_t)sext32((uint32_t)(w << (8 * k4)) |
                                (k4 ? o & (0xffffffffu >> (32 - 8 * k4)) : 0));
    case OP_LWR:
        return (uint64_t)sext32((uint32_t)(w >> (8 * (3 - k4))) |
                                (k4 == 3 ? 0 : o & ~(0xffffffffu >> (8 * (3 - k4)))));
    case OP_LDL: return (w << (8 * k8)) | (k8 ? old & (~0ull >> (64 - 8 * k8)) : 0);
    default: /* OP_LDR */
        return (w >> (8 * (7 - k8))) | (k8 == 7 ? 0 : old & ~(~0ull >> (8 * (7 - k8))));
    }
}

/* SWL, SWR, SDL, SDR of v at va: the bytes to write into the aligned word or
 * doubleword, and (*mask) which of them. */
INSN_INLINE uint64_t insn_store_partial(unsigned op, uint64_t va, uint64_t v, uint64_t *mask)
{
    unsigned k4 = va & 3, k8 = va & 7;
    uint32_t w = (uint32_t)v;
    switch (op) {
    case OP_SWL: *mask = 0xffffffffu >> (8 * k4); return w >> (8 * k4);
    case OP_SWR:
        *mask = (uint32_t)(0xffffffffu << (8 * (3 - k4)));
        return (uint32_t)(w << (8 * (3 - k4)));
    case OP_SDL: *mask = ~0ull >> (8 * k8); return v >> (8 * k8);
    default: /* OP_SDR */ *mask = ~0ull << (8 * (7 - k8)); return v << (8 * (7 - k8));
    }
}

/* LWL ... LDR through the slow path: rd = the merge of the aligned word
 * or doubleword with old (rt's value). */
INSN_INLINE bool insn_load_merge(cpu *c, unsigned op, uint64_t va, unsigned rd, uint64_t old)
{
    uint64_t w;
    if (!mem_load_aligned(c, va, insn_mem_size(op), &w))
        return false;
    c->gpr[rd] = insn_load_partial(op, va, w, old);
    return true;
}

/* SWL ... SDR of v through the slow path. */
INSN_INLINE bool insn_store_merge(cpu *c, unsigned op, uint64_t va, uint64_t v)
{
    uint64_t mask, val = insn_store_partial(op, va, v, &mask);
    return mem_store_merge(c, va, insn_mem_size(op), val, mask);
}

/* LL, LLD: rd = the word (sign-extended) or doubleword, and the link set. */
INSN_INLINE bool insn_ll(cpu *c, unsigned op, uint64_t va, unsigned rd)
{
    uint64_t v;
    if (!mem_ll(c, va, insn_mem_size(op), &v))
        return false;
    c->gpr[rd] = op == OP_LL ? (uint64_t)sext32(v) : v;
    return true;
}

/* SC, SCD of v: the store if the link holds, and rt = 1 if it did, else 0. */
INSN_INLINE bool insn_sc(cpu *c, unsigned op, uint64_t va, unsigned rt, uint64_t v)
{
    int r = mem_sc(c, va, insn_mem_size(op), v);
    if (r < 0)
        return false;
    c->gpr[rt ? rt : 32] = (uint64_t)r;
    return true;
}

/* LWC1, LDC1, LWXC1, LDXC1: FPR ft = the word or doubleword v (as Status.FR
 * says). */
INSN_INLINE void insn_fp_load(cpu *c, unsigned op, unsigned ft, uint64_t v)
{
    bool fr = (c->status & ST_FR) != 0;
    if (insn_mem_size(op) == 8)
        fpu_set_d(&c->fpu, ft, fr, v);
    else
        fpu_set_w(&c->fpu, ft, fr, (uint32_t)v);
}

/* SWC1, SDC1, SWXC1, SDXC1: the value to store from FPR ft. */
INSN_INLINE uint64_t insn_fp_store_value(const cpu *c, unsigned op, unsigned ft)
{
    bool fr = (c->status & ST_FR) != 0;
    if (insn_mem_size(op) == 8)
        return fpu_get_d(&c->fpu, ft, fr);
    return fpu_get_w(&c->fpu, ft, fr);
}

/* ---- Exceptions, CP0, TLB, cache, coprocessors (exec_sys.h) ------------ */

/* Whether a trap (TGE ... TNE with b = rt, TGEI ... TNEI with b = the
 * immediate) fires: Trap exception. */
INSN_INLINE bool insn_trap(unsigned op, uint64_t a, uint64_t b)
{
    switch (op) {
    case OP_TGE:
    case OP_TGEI: return (int64_t)a >= (int64_t)b;
    case OP_TGEU:
    case OP_TGEIU: return a >= b;
    case OP_TLT:
    case OP_TLTI: return (int64_t)a < (int64_t)b;
    case OP_TLTU:
    case OP_TLTIU: return a < b;
    case OP_TEQ:
    case OP_TEQI: return a == b;
    case OP_TNE:
    case OP_TNEI: return a != b;
    default: return false;
    }
}

/* MFC0, DMFC0: the value for rt of CP0 register reg, select sel. */
INSN_INLINE uint64_t insn_mfc0(cpu *c, unsigned op, unsigned reg, unsigned sel)
{
    uint64_t v = cp0_read(c, reg, sel);
    return op == OP_MFC0 ? (uint64_t)sext32(v) : v;
}

/* MTC0, DMTC0 of v (may change the mode, the soft TLB, the interrupt
 * state: the dispatcher reloads everything after it). */
INSN_INLINE void insn_mtc0(cpu *c, unsigned op, unsigned reg, unsigned sel, uint64_t v)
{
    cp0_write(c, reg, sel, op == OP_MTC0 ? (uint64_t)sext32(v) : v);
}

/* TLBR, TLBWI, TLBWR, TLBP (a write may drop soft-TLB entries). */
INSN_INLINE void insn_tlb(cpu *c, unsigned op)
{
    switch (op) {
    case OP_TLBR: tlb_read(c); break;
    case OP_TLBWI: tlb_write(c, c->cp0[CP0_INDEX] & 63); break;
    case OP_TLBWR: tlb_write(c, tlb_random(c)); break;
    default: tlb_probe(c); break;
    }
}

/* CACHE with operation field code (the rt field): Index Load Tag (1)
 * reads an all-invalid tag; the rest does nothing, there being no caches to
 * maintain. */
INSN_INLINE void insn_cache(cpu *c, unsigned code)
{
    if ((code >> 2) == 1)
        c->cp0[CP0_TAGLO] = c->cp0[CP0_TAGHI] = 0;
}

/* COP1, COP1X (not the indexed loads and stores) of the instruction word
 * raw: 0, or the exception it raises (EXC_FPE, EXC_RI). */
INSN_INLINE int insn_cop1(cpu *c, uint32_t raw)
{
    int r = fpu_exec(&c->fpu, raw, (c->status & ST_FR) != 0, c->gpr);
    c->gpr[0] = 0;
    if (r == FPU_EXC_FPE)
        return EXC_FPE;
    if (r == FPU_EXC_RI)
        return EXC_RI;
    return 0;
}

#endif
