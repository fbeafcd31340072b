/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Instruction decoder: one 32-bit MIPS IV word into a dinsn slot.
 *
 * Conventions of the decoded form (exec.c and insn.h rely on them):
 *  - rd is the destination GPR, already redirected to the sink register 32
 *    when the architectural destination is $0 (so $0 stays zero for free);
 *    for I-type instructions the destination (rt) is put in rd too;
 *  - rs and rt are the source GPRs;
 *  - imm is the sign-extended immediate (zero-extended for ANDI/ORI/XORI,
 *    already shifted for LUI), the byte offset for branches, the shifted
 *    26-bit index for J/JAL;
 *  - sa is the shift amount (plus 32 for DSLL32/DSRL32/DSRA32), the CP0
 *    register for MxC0 (imm = select), the FP register for COP1 loads and
 *    stores, the condition code for BC1 and MOVF/MOVT;
 *  - anything the R10000 does not implement (MIPS32/64 R2 additions such as
 *    ROTR, SPECIAL2/SPECIAL3, WAIT) decodes to OP_RI.
 */
#include "cpu/cpu_internal.h"
#include "cpu/ops.h"

const char *const cpu_op_names[OP_COUNT] = {
#define X(n, m, f) m,
    CPU_OPS(X)
#undef X
};

const unsigned char cpu_op_fmt[OP_COUNT] = {
#define X(n, m, f) f,
    CPU_OPS(X)
#undef X
};

static inline uint8_t dst(unsigned r) { return r ? (uint8_t)r : 32; }

/* SPECIAL: the operation from the function field; the exceptions below. */
static void special(uint32_t w, dinsn *d)
{
    static const uint8_t ops[64] = {
        [0x00] = OP_SLL,    [0x01] = OP_MOVCI,  [0x02] = OP_SRL,    [0x03] = OP_SRA,
        [0x04] = OP_SLLV,   [0x06] = OP_SRLV,   [0x07] = OP_SRAV,   [0x08] = OP_JR,
        [0x09] = OP_JALR,   [0x0a] = OP_MOVZ,   [0x0b] = OP_MOVN,   [0x0c] = OP_SYSCALL,
        [0x0d] = OP_BREAK,  [0x0f] = OP_SYNC,   [0x10] = OP_MFHI,   [0x11] = OP_MTHI,
        [0x12] = OP_MFLO,   [0x13] = OP_MTLO,   [0x14] = OP_DSLLV,  [0x16] = OP_DSRLV,
        [0x17] = OP_DSRAV,  [0x18] = OP_MULT,   [0x19] = OP_MULTU,  [0x1a] = OP_DIV,
        [0x1b] = OP_DIVU,   [0x1c] = OP_DMULT,  [0x1d] = OP_DMULTU, [0x1e] = OP_DDIV,
        [0x1f] = OP_DDIVU,  [0x20] = OP_ADD,    [0x21] = OP_ADDU,   [0x22] = OP_SUB,
        [0x23] = OP_SUBU,   [0x24] = OP_AND,    [0x25] = OP_OR,     [0x26] = OP_XOR,
        [0x27] = OP_NOR,    [0x2a] = OP_SLT,    [0x2b] = OP_SLTU,   [0x2c] = OP_DADD,
        [0x2d] = OP_DADDU,  [0x2e] = OP_DSUB,   [0x2f] = OP_DSUBU,  [0x30] = OP_TGE,
        [0x31] = OP_TGEU,   [0x32] = OP_TLT,    [0x33] = OP_TLTU,   [0x34] = OP_TEQ,
        [0x36] = OP_TNE,    [0x38] = OP_DSLL,   [0x3a] = OP_DSRL,   [0x3b] = OP_DSRA,
        [0x3c] = OP_DSLL32, [0x3e] = OP_DSRL32, [0x3f] = OP_DSRA32,
    };
    unsigned fn = w & 63, rs = (w >> 21) & 31, rd = (w >> 11) & 31, sa = (w >> 6) & 31;
    d->rd = dst(rd);
    d->op = ops[fn] ? ops[fn] : OP_RI;
    switch (fn) {
    case 0x00:
        if (w == 0)
            d->op = OP_NOP;
        break;
    case 0x01:
        if (w & 0x20000) { /* bit 17 must be zero in MOVF/MOVT */
            d->op = OP_RI;
            break;
        }
        d->sa = (uint8_t)((w >> 18) & 7);
        d->imm = (w >> 16) & 1; /* 1 = MOVT */
        return;
    case 0x02: /* rs=1: ROTR (R2) */
    case 0x3a: /* DROTR */
        if (rs)
            d->op = OP_RI;
        break;
    case 0x06: /* sa=1: ROTRV */
    case 0x16: /* DROTRV */
        if (sa)
            d->op = OP_RI;
        break;
    case 0x0c: /* SYSCALL, BREAK: the code */
    case 0x0d: d->imm = (w >> 6) & 0xfffff; break;
    case 0x3e: /* DROTR32 */
        if (rs)
            d->op = OP_RI;
        sa += 32;
        break;
    case 0x3c:
    case 0x3f: sa += 32; break;
    default: break;
    }
    d->sa = (uint8_t)sa;
}

static void regimm(uint32_t w, dinsn *d)
{
    static const uint8_t ops[32] = {
        [0x00] = OP_BLTZ,    [0x01] = OP_BGEZ,    [0x02] = OP_BLTZL,  [0x03] = OP_BGEZL,
        [0x08] = OP_TGEI,    [0x09] = OP_TGEIU,   [0x0a] = OP_TLTI,   [0x0b] = OP_TLTIU,
        [0x0c] = OP_TEQI,    [0x0e] = OP_TNEI,    [0x10] = OP_BLTZAL, [0x11] = OP_BGEZAL,
        [0x12] = OP_BLTZALL, [0x13] = OP_BGEZALL,
    };
    unsigned rt = (w >> 16) & 31;
    d->op = ops[rt] ? ops[rt] : OP_RI;
    if (rt < 8 || rt >= 16) {
        d->imm = (int64_t)(int16_t)w * 4;
        d->rd = 31; /* link register for the AL forms */
    } else {
        d->imm = (int16_t)w;
    }
}

static void cop0(uint32_t w, dinsn *d)
{
    unsigned rs = (w >> 21) & 31, rt = (w >> 16) & 31, rd = (w >> 11) & 31;
    d->sa = (uint8_t)rd;
    d->imm = w & 7;
    switch (rs) {
    case 0:
        d->op = OP_MFC0;
        d->rd = dst(rt);
        return;
    case 1:
        d->op = OP_DMFC0;
        d->rd = dst(rt);
        return;
    case 4: d->op = OP_MTC0; return;
    case 5: d->op = OP_DMTC0; return;
    default: break;
    }
    if (rs < 16)
        return;
    switch (w & 63) {
    case 0x01: d->op = OP_TLBR; break;
    case 0x02: d->op = OP_TLBWI; break;
    case 0x06: d->op = OP_TLBWR; break;
    case 0x08: d->op = OP_TLBP; break;
    case 0x18: d->op = OP_ERET; break;
    default: break;
    }
}

/* The primary opcodes that need no more than the operation, the immediate
 * then read as their operand format says (cpu_decode). */
static const uint8_t primary[64] = {
    [0x02] = OP_J,      [0x03] = OP_JAL,  [0x04] = OP_BEQ,   [0x05] = OP_BNE,   [0x06] = OP_BLEZ,
    [0x07] = OP_BGTZ,   [0x08] = OP_ADDI, [0x09] = OP_ADDIU, [0x0a] = OP_SLTI,  [0x0b] = OP_SLTIU,
    [0x0c] = OP_ANDI,   [0x0d] = OP_ORI,  [0x0e] = OP_XORI,  [0x0f] = OP_LUI,   [0x12] = OP_COP2,
    [0x14] = OP_BEQL,   [0x15] = OP_BNEL, [0x16] = OP_BLEZL, [0x17] = OP_BGTZL, [0x18] = OP_DADDI,
    [0x19] = OP_DADDIU, [0x1a] = OP_LDL,  [0x1b] = OP_LDR,   [0x20] = OP_LB,    [0x21] = OP_LH,
    [0x22] = OP_LWL,    [0x23] = OP_LW,   [0x24] = OP_LBU,   [0x25] = OP_LHU,   [0x26] = OP_LWR,
    [0x27] = OP_LWU,    [0x28] = OP_SB,   [0x29] = OP_SH,    [0x2a] = OP_SWL,   [0x2b] = OP_SW,
    [0x2c] = OP_SDL,    [0x2d] = OP_SDR,  [0x2e] = OP_SWR,   [0x2f] = OP_CACHE, [0x30] = OP_LL,
    [0x31] = OP_LWC1,   [0x32] = OP_COP2, [0x33] = OP_PREF,  [0x34] = OP_LLD,   [0x35] = OP_LDC1,
    [0x36] = OP_COP2,   [0x37] = OP_LD,   [0x38] = OP_SC,    [0x39] = OP_SWC1,  [0x3a] = OP_COP2,
    [0x3c] = OP_SCD,    [0x3d] = OP_SDC1, [0x3e] = OP_COP2,  [0x3f] = OP_SD,
};

/* COP1X: the indexed FP loads (sa: fd) and stores (sa: fs), PREFX. */
static void cop1x(uint32_t w, dinsn *d)
{
    unsigned fn = w & 63;
    switch (fn) {
    case 0x00:
    case 0x01:
        d->op = fn ? OP_LDXC1 : OP_LWXC1;
        d->sa = (uint8_t)((w >> 6) & 31);
        break;
    case 0x08:
    case 0x09:
        d->op = fn & 1 ? OP_SDXC1 : OP_SWXC1;
        d->sa = (uint8_t)((w >> 11) & 31);
        break;
    case 0x0f: d->op = OP_PREFX; break;
    default: d->op = OP_COP1X; break;
    }
}

void cpu_decode(uint32_t w, dinsn *d)
{
    unsigned opc = w >> 26, rs = (w >> 21) & 31, rt = (w >> 16) & 31;
    memset(d, 0, sizeof *d);
    d->raw = w;
    d->op = OP_RI;
    d->rs = (uint8_t)rs;
    d->rt = (uint8_t)rt;
    d->rd = dst(rt);
    d->imm = (int16_t)w;
    switch (opc) {
    case 0x00: special(w, d); return;
    case 0x01: regimm(w, d); return;
    case 0x10: cop0(w, d); return;
    case 0x11:
        if (rs == 8) {
            d->op = OP_BC1;
            d->sa = (uint8_t)((w >> 18) & 7);
            d->rt = (uint8_t)(rt & 3); /* bit 1 nd (likely), bit 0 tf */
            d->imm = (int64_t)(int16_t)w * 4;
        } else {
            d->op = OP_COP1;
        }
        return;
    case 0x13: cop1x(w, d); return;
    default: break;
    }
    if (primary[opc])
        d->op = primary[opc];
    switch (cpu_op_fmt[d->op]) {
    case F_J:
        d->imm = (int64_t)(w & 0x3ffffff) << 2;
        if (d->op == OP_JAL)
            d->rd = 31;
        break;
    case F_B1:
    case F_B2: d->imm = (int64_t)(int16_t)w * 4; break; /* a 16-bit offset */
    case F_IU: d->imm = w & 0xffff; break;
    case F_LUI: d->imm = (int64_t)(int32_t)(w << 16); break;
    case F_FMEM: d->sa = (uint8_t)rt; break; /* the FP register */
    default: break;
    }
}
