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

static void special(uint32_t w, dinsn *d)
{
    unsigned rs = (w >> 21) & 31, rd = (w >> 11) & 31, sa = (w >> 6) & 31;
    d->rd = dst(rd);
    switch (w & 63) {
    case 0x00: d->op = w == 0 ? OP_NOP : OP_SLL; break;
    case 0x01:
        if (w & 0x20000) /* bit 17 must be zero in MOVF/MOVT */
            break;
        d->op = OP_MOVCI;
        d->sa = (uint8_t)((w >> 18) & 7);
        d->imm = (w >> 16) & 1; /* 1 = MOVT */
        break;
    case 0x02: d->op = rs ? OP_RI : OP_SRL; break; /* rs=1: ROTR (R2) */
    case 0x03: d->op = OP_SRA; break;
    case 0x04: d->op = OP_SLLV; break;
    case 0x06: d->op = sa ? OP_RI : OP_SRLV; break; /* sa=1: ROTRV */
    case 0x07: d->op = OP_SRAV; break;
    case 0x08: d->op = OP_JR; break;
    case 0x09: d->op = OP_JALR; break;
    case 0x0a: d->op = OP_MOVZ; break;
    case 0x0b: d->op = OP_MOVN; break;
    case 0x0c: d->op = OP_SYSCALL; break;
    case 0x0d: d->op = OP_BREAK; break;
    case 0x0f: d->op = OP_SYNC; break;
    case 0x10: d->op = OP_MFHI; break;
    case 0x11: d->op = OP_MTHI; break;
    case 0x12: d->op = OP_MFLO; break;
    case 0x13: d->op = OP_MTLO; break;
    case 0x14: d->op = OP_DSLLV; break;
    case 0x16: d->op = sa ? OP_RI : OP_DSRLV; break; /* DROTRV */
    case 0x17: d->op = OP_DSRAV; break;
    case 0x18: d->op = OP_MULT; break;
    case 0x19: d->op = OP_MULTU; break;
    case 0x1a: d->op = OP_DIV; break;
    case 0x1b: d->op = OP_DIVU; break;
    case 0x1c: d->op = OP_DMULT; break;
    case 0x1d: d->op = OP_DMULTU; break;
    case 0x1e: d->op = OP_DDIV; break;
    case 0x1f: d->op = OP_DDIVU; break;
    case 0x20: d->op = OP_ADD; break;
    case 0x21: d->op = OP_ADDU; break;
    case 0x22: d->op = OP_SUB; break;
    case 0x23: d->op = OP_SUBU; break;
    case 0x24: d->op = OP_AND; break;
    case 0x25: d->op = OP_OR; break;
    case 0x26: d->op = OP_XOR; break;
    case 0x27: d->op = OP_NOR; break;
    case 0x2a: d->op = OP_SLT; break;
    case 0x2b: d->op = OP_SLTU; break;
    case 0x2c: d->op = OP_DADD; break;
    case 0x2d: d->op = OP_DADDU; break;
    case 0x2e: d->op = OP_DSUB; break;
    case 0x2f: d->op = OP_DSUBU; break;
    case 0x30: d->op = OP_TGE; break;
    case 0x31: d->op = OP_TGEU; break;
    case 0x32: d->op = OP_TLT; break;
    case 0x33: d->op = OP_TLTU; break;
    case 0x34: d->op = OP_TEQ; break;
    case 0x36: d->op = OP_TNE; break;
    case 0x38: d->op = OP_DSLL; break;
    case 0x3a: d->op = rs ? OP_RI : OP_DSRL; break; /* DROTR */
    case 0x3b: d->op = OP_DSRA; break;
    case 0x3c:
        d->op = OP_DSLL32;
        sa += 32;
        break;
    case 0x3e:
        d->op = rs ? OP_RI : OP_DSRL32;
        sa += 32;
        break; /* DROTR32 */
    case 0x3f:
        d->op = OP_DSRA32;
        sa += 32;
        break;
    default: break;
    }
    if (d->op != OP_MOVCI)
        d->sa = (uint8_t)sa;
    if (d->op == OP_SYSCALL || d->op == OP_BREAK)
        d->imm = (w >> 6) & 0xfffff;
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
    case 0x02:
        d->op = OP_J;
        d->imm = (int64_t)(w & 0x3ffffff) << 2;
        return;
    case 0x03:
        d->op = OP_JAL;
        d->imm = (int64_t)(w & 0x3ffffff) << 2;
        d->rd = 31;
        return;
    case 0x04: d->op = OP_BEQ; break;
    case 0x05: d->op = OP_BNE; break;
    case 0x06: d->op = OP_BLEZ; break;
    case 0x07: d->op = OP_BGTZ; break;
    case 0x08: d->op = OP_ADDI; return;
    case 0x09: d->op = OP_ADDIU; return;
    case 0x0a: d->op = OP_SLTI; return;
    case 0x0b: d->op = OP_SLTIU; return;
    case 0x0c:
        d->op = OP_ANDI;
        d->imm = w & 0xffff;
        return;
    case 0x0d:
        d->op = OP_ORI;
        d->imm = w & 0xffff;
        return;
    case 0x0e:
        d->op = OP_XORI;
        d->imm = w & 0xffff;
        return;
    case 0x0f:
        d->op = OP_LUI;
        d->imm = (int64_t)(int32_t)(w << 16);
        return;
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
    case 0x12: d->op = OP_COP2; return;
    case 0x13:
        switch (w & 63) {
        case 0x00:
            d->op = OP_LWXC1;
            d->sa = (uint8_t)((w >> 6) & 31);
            break;
        case 0x01:
            d->op = OP_LDXC1;
            d->sa = (uint8_t)((w >> 6) & 31);
            break;
        case 0x08:
            d->op = OP_SWXC1;
            d->sa = (uint8_t)((w >> 11) & 31);
            break;
        case 0x09:
            d->op = OP_SDXC1;
            d->sa = (uint8_t)((w >> 11) & 31);
            break;
        case 0x0f: d->op = OP_PREFX; break;
        default: d->op = OP_COP1X; break;
        }
        return;
    case 0x14: d->op = OP_BEQL; break;
    case 0x15: d->op = OP_BNEL; break;
    case 0x16: d->op = OP_BLEZL; break;
    case 0x17: d->op = OP_BGTZL; break;
    case 0x18: d->op = OP_DADDI; return;
    case 0x19: d->op = OP_DADDIU; return;
    case 0x1a: d->op = OP_LDL; return;
    case 0x1b: d->op = OP_LDR; return;
    case 0x20: d->op = OP_LB; return;
    case 0x21: d->op = OP_LH; return;
    case 0x22: d->op = OP_LWL; return;
    case 0x23: d->op = OP_LW; return;
    case 0x24: d->op = OP_LBU; return;
    case 0x25: d->op = OP_LHU; return;
    case 0x26: d->op = OP_LWR; return;
    case 0x27: d->op = OP_LWU; return;
    case 0x28: d->op = OP_SB; return;
    case 0x29: d->op = OP_SH; return;
    case 0x2a: d->op = OP_SWL; return;
    case 0x2b: d->op = OP_SW; return;
    case 0x2c: d->op = OP_SDL; return;
    case 0x2d: d->op = OP_SDR; return;
    case 0x2e: d->op = OP_SWR; return;
    case 0x2f: d->op = OP_CACHE; return;
    case 0x30: d->op = OP_LL; return;
    case 0x31:
        d->op = OP_LWC1;
        d->sa = (uint8_t)rt;
        return;
    case 0x32: d->op = OP_COP2; return;
    case 0x33: d->op = OP_PREF; return;
    case 0x34: d->op = OP_LLD; return;
    case 0x35:
        d->op = OP_LDC1;
        d->sa = (uint8_t)rt;
        return;
    case 0x36: d->op = OP_COP2; return;
    case 0x37: d->op = OP_LD; return;
    case 0x38: d->op = OP_SC; return;
    case 0x39:
        d->op = OP_SWC1;
        d->sa = (uint8_t)rt;
        return;
    case 0x3a: d->op = OP_COP2; return;
    case 0x3c: d->op = OP_SCD; return;
    case 0x3d:
        d->op = OP_SDC1;
        d->sa = (uint8_t)rt;
        return;
    case 0x3e: d->op = OP_COP2; return;
    case 0x3f: d->op = OP_SD; return;
    default: return;
    }
    /* Branches with a 16-bit offset. */
    d->imm = (int64_t)(int16_t)w * 4;
}
