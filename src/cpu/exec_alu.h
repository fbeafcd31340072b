/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The handlers and tables here are macros laid out by hand: */
/* clang-format off */
/* The interpreter's handlers for integer arithmetic, logic, shifts,
 * conditional moves, HI/LO, multiply and divide.
 *
 * Not a header: exec.c includes it inside cpu_interp(), whose dispatch macros
 * (OP, NEXT, EXC, ...) and locals (c, d, R) it uses.  What each instruction
 * computes is in insn.h; a handler only takes its operands from the slot,
 * writes the result and goes on. */

/* Operand shapes: ALU_R rd = op(rs, rt), ALU_I rd = op(rs, immediate),
 * SHIFT rd = op(rt, sa), SHIFTV rd = op(rt, rs); ALU_OV_R and ALU_OV_I are
 * ALU_R and ALU_I for the operations that raise Integer Overflow. */
#define ALU_R(n) OP(n) R[d->rd] = insn_alu(OP_##n, R[d->rs], R[d->rt]); NEXT();
#define ALU_I(n) OP(n) R[d->rd] = insn_alu(OP_##n, R[d->rs], (uint64_t)(int64_t)d->imm); NEXT();
#define SHIFT(n) OP(n) R[d->rd] = insn_alu(OP_##n, R[d->rt], d->sa); NEXT();
#define SHIFTV(n) OP(n) R[d->rd] = insn_alu(OP_##n, R[d->rt], R[d->rs]); NEXT();
#define ALU_OV(n, b)                                            \
    OP(n) {                                                     \
        uint64_t r_;                                            \
        if (!insn_alu_ov(OP_##n, R[d->rs], (b), &r_))           \
            EXC(EXC_OV);                                        \
        R[d->rd] = r_;                                          \
        NEXT();                                                 \
    }
#define ALU_OV_R(n) ALU_OV(n, R[d->rt])
#define ALU_OV_I(n) ALU_OV(n, (uint64_t)(int64_t)d->imm)
#define MULDIV(n)                                                       \
    OP(n) {                                                             \
        hilo p_ = insn_muldiv(OP_##n, R[d->rs], R[d->rt]);              \
        c->lo = p_.lo;                                                  \
        c->hi = p_.hi;                                                  \
        NEXT();                                                         \
    }

OP(NOP) NEXT();

SHIFT(SLL) SHIFT(SRL) SHIFT(SRA)
SHIFTV(SLLV) SHIFTV(SRLV) SHIFTV(SRAV)
SHIFT(DSLL) SHIFT(DSRL) SHIFT(DSRA)
SHIFT(DSLL32) SHIFT(DSRL32) SHIFT(DSRA32)
SHIFTV(DSLLV) SHIFTV(DSRLV) SHIFTV(DSRAV)

ALU_OV_R(ADD) ALU_R(ADDU) ALU_OV_R(SUB) ALU_R(SUBU)
ALU_OV_R(DADD) ALU_R(DADDU) ALU_OV_R(DSUB) ALU_R(DSUBU)
ALU_R(AND) ALU_R(OR) ALU_R(XOR) ALU_R(NOR)
ALU_R(SLT) ALU_R(SLTU)

ALU_OV_I(ADDI) ALU_I(ADDIU) ALU_OV_I(DADDI) ALU_I(DADDIU)
ALU_I(SLTI) ALU_I(SLTIU)
ALU_I(ANDI) ALU_I(ORI) ALU_I(XORI) ALU_I(LUI)

OP(MOVZ) if (insn_move_cond(OP_MOVZ, R[d->rt])) R[d->rd] = R[d->rs]; NEXT();
OP(MOVN) if (insn_move_cond(OP_MOVN, R[d->rt])) R[d->rd] = R[d->rs]; NEXT();
OP(MOVCI) /* MOVF, MOVT: cc in sa, tf in imm */
    NEED_CU1();
    CHK4();
    if (insn_fp_cond(c, d->sa, d->imm != 0))
        R[d->rd] = R[d->rs];
    NEXT();

OP(MFHI) R[d->rd] = c->hi; NEXT();
OP(MTHI) c->hi = R[d->rs]; NEXT();
OP(MFLO) R[d->rd] = c->lo; NEXT();
OP(MTLO) c->lo = R[d->rs]; NEXT();
MULDIV(MULT) MULDIV(MULTU) MULDIV(DIV) MULDIV(DIVU)
MULDIV(DMULT) MULDIV(DMULTU) MULDIV(DDIV) MULDIV(DDIVU)

#undef ALU_R
#undef ALU_I
#undef SHIFT
#undef SHIFTV
#undef ALU_OV
#undef ALU_OV_R
#undef ALU_OV_I
#undef MULDIV
