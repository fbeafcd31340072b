/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The handlers and tables here are macros laid out by hand: */
/* clang-format off */
/* The decoded operations of the R10000 interpreter (MIPS IV integer and
 * system, plus the CP1 operations the CPU core owns).  One X-macro list
 * gives the enum, the mnemonics and the operand format of the fallback
 * disassembler.  Two are not instructions: DECODE (a slot not decoded yet,
 * 0 so that a zeroed page is all DECODE) and REFETCH (the sentinel after a
 * decoded page's last slot, and the slots of the CPU's "no page"). */
#ifndef XBOW_CPU_OPS_H
#define XBOW_CPU_OPS_H

#include <stdbool.h>

/* Operand formats for the fallback disassembler. */
enum ofmt {
    F_NONE, F_R3, F_R2ST, F_SH, F_SHV, F_I, F_IU, F_LUI, F_MEM, F_B2, F_B1, F_J, F_JR, F_JALR,
    F_MD, F_MF, F_MT, F_TR, F_TRI, F_CP0, F_FMEM, F_FX, F_BC1, F_MOVCI, F_CACHE, F_PREF,
    F_PREFX, F_CODE, F_RAW,
};

#define CPU_OPS(X)                                                                           \
    X(DECODE, "?", F_RAW)                                                                    \
    X(RI, "(reserved)", F_RAW)                                                               \
    X(NOP, "nop", F_NONE)                                                                    \
    X(SLL, "sll", F_SH) X(SRL, "srl", F_SH) X(SRA, "sra", F_SH)                              \
    X(SLLV, "sllv", F_SHV) X(SRLV, "srlv", F_SHV) X(SRAV, "srav", F_SHV)                     \
    X(DSLL, "dsll", F_SH) X(DSRL, "dsrl", F_SH) X(DSRA, "dsra", F_SH)                        \
    X(DSLL32, "dsll32", F_SH) X(DSRL32, "dsrl32", F_SH) X(DSRA32, "dsra32", F_SH)            \
    X(DSLLV, "dsllv", F_SHV) X(DSRLV, "dsrlv", F_SHV) X(DSRAV, "dsrav", F_SHV)               \
    X(JR, "jr", F_JR) X(JALR, "jalr", F_JALR)                                                \
    X(MOVZ, "movz", F_R3) X(MOVN, "movn", F_R3) X(MOVCI, "movf", F_MOVCI)                    \
    X(SYSCALL, "syscall", F_CODE) X(BREAK, "break", F_CODE) X(SYNC, "sync", F_NONE)          \
    X(MFHI, "mfhi", F_MF) X(MTHI, "mthi", F_MT) X(MFLO, "mflo", F_MF) X(MTLO, "mtlo", F_MT)  \
    X(MULT, "mult", F_MD) X(MULTU, "multu", F_MD) X(DIV, "div", F_MD) X(DIVU, "divu", F_MD)  \
    X(DMULT, "dmult", F_MD) X(DMULTU, "dmultu", F_MD) X(DDIV, "ddiv", F_MD)                  \
    X(DDIVU, "ddivu", F_MD)                                                                  \
    X(ADD, "add", F_R3) X(ADDU, "addu", F_R3) X(SUB, "sub", F_R3) X(SUBU, "subu", F_R3)      \
    X(AND, "and", F_R3) X(OR, "or", F_R3) X(XOR, "xor", F_R3) X(NOR, "nor", F_R3)            \
    X(SLT, "slt", F_R3) X(SLTU, "sltu", F_R3)                                                \
    X(DADD, "dadd", F_R3) X(DADDU, "daddu", F_R3) X(DSUB, "dsub", F_R3)                      \
    X(DSUBU, "dsubu", F_R3)                                                                  \
    X(TGE, "tge", F_TR) X(TGEU, "tgeu", F_TR) X(TLT, "tlt", F_TR) X(TLTU, "tltu", F_TR)      \
    X(TEQ, "teq", F_TR) X(TNE, "tne", F_TR)                                                  \
    X(BLTZ, "bltz", F_B1) X(BGEZ, "bgez", F_B1) X(BLTZL, "bltzl", F_B1)                      \
    X(BGEZL, "bgezl", F_B1) X(BLTZAL, "bltzal", F_B1) X(BGEZAL, "bgezal", F_B1)              \
    X(BLTZALL, "bltzall", F_B1) X(BGEZALL, "bgezall", F_B1)                                  \
    X(TGEI, "tgei", F_TRI) X(TGEIU, "tgeiu", F_TRI) X(TLTI, "tlti", F_TRI)                   \
    X(TLTIU, "tltiu", F_TRI) X(TEQI, "teqi", F_TRI) X(TNEI, "tnei", F_TRI)                   \
    X(J, "j", F_J) X(JAL, "jal", F_J)                                                        \
    X(BEQ, "beq", F_B2) X(BNE, "bne", F_B2) X(BLEZ, "blez", F_B1) X(BGTZ, "bgtz", F_B1)      \
    X(BEQL, "beql", F_B2) X(BNEL, "bnel", F_B2) X(BLEZL, "blezl", F_B1)                      \
    X(BGTZL, "bgtzl", F_B1)                                                                  \
    X(ADDI, "addi", F_I) X(ADDIU, "addiu", F_I) X(SLTI, "slti", F_I) X(SLTIU, "sltiu", F_I)  \
    X(ANDI, "andi", F_IU) X(ORI, "ori", F_IU) X(XORI, "xori", F_IU) X(LUI, "lui", F_LUI)     \
    X(DADDI, "daddi", F_I) X(DADDIU, "daddiu", F_I)                                          \
    X(LB, "lb", F_MEM) X(LH, "lh", F_MEM) X(LW, "lw", F_MEM) X(LBU, "lbu", F_MEM)            \
    X(LHU, "lhu", F_MEM) X(LWU, "lwu", F_MEM) X(LD, "ld", F_MEM)                             \
    X(LWL, "lwl", F_MEM) X(LWR, "lwr", F_MEM) X(LDL, "ldl", F_MEM) X(LDR, "ldr", F_MEM)      \
    X(SB, "sb", F_MEM) X(SH, "sh", F_MEM) X(SW, "sw", F_MEM) X(SD, "sd", F_MEM)              \
    X(SWL, "swl", F_MEM) X(SWR, "swr", F_MEM) X(SDL, "sdl", F_MEM) X(SDR, "sdr", F_MEM)      \
    X(LL, "ll", F_MEM) X(LLD, "lld", F_MEM) X(SC, "sc", F_MEM) X(SCD, "scd", F_MEM)          \
    X(CACHE, "cache", F_CACHE) X(PREF, "pref", F_PREF)                                       \
    X(LWC1, "lwc1", F_FMEM) X(LDC1, "ldc1", F_FMEM) X(SWC1, "swc1", F_FMEM)                  \
    X(SDC1, "sdc1", F_FMEM)                                                                  \
    X(LWXC1, "lwxc1", F_FX) X(LDXC1, "ldxc1", F_FX) X(SWXC1, "swxc1", F_FX)                  \
    X(SDXC1, "sdxc1", F_FX) X(PREFX, "prefx", F_PREFX)                                       \
    X(BC1, "bc1", F_BC1)                                                                     \
    X(COP1, "cop1", F_RAW) X(COP1X, "cop1x", F_RAW)                                          \
    X(COP2, "cop2", F_RAW)                                                                   \
    X(MFC0, "mfc0", F_CP0) X(DMFC0, "dmfc0", F_CP0) X(MTC0, "mtc0", F_CP0)                   \
    X(DMTC0, "dmtc0", F_CP0)                                                                 \
    X(TLBR, "tlbr", F_NONE) X(TLBWI, "tlbwi", F_NONE) X(TLBWR, "tlbwr", F_NONE)              \
    X(TLBP, "tlbp", F_NONE) X(ERET, "eret", F_NONE)                                         \
    X(REFETCH, "(refetch)", F_RAW)

enum op {
#define X(n, m, f) OP_##n,
    CPU_OPS(X)
#undef X
    OP_COUNT
};

extern const char *const cpu_op_names[OP_COUNT];
extern const unsigned char cpu_op_fmt[OP_COUNT];

/* Families of operations, read from their operand formats:
 * op_fmt_in(op, OFMT(F_SH) | OFMT(F_SHV)) is true for the shifts.  A switch
 * on the constant list, so it costs what a hand-written one would. */
#define OFMT(f) (1ull << (f))

static inline bool op_fmt_in(unsigned op, unsigned long long fmts)
{
    switch (op) {
#define X(n, m, f) case OP_##n: return (fmts >> (f)) & 1;
    CPU_OPS(X)
#undef X
    default: return false;
    }
}

/* The PC-relative branches (the byte offset in imm) and, with the jumps,
 * every control transfer; each has a delay slot. */
static inline bool op_is_branch(unsigned op) { return op_fmt_in(op, OFMT(F_B1) | OFMT(F_B2) | OFMT(F_BC1)); }
static inline bool op_is_control(unsigned op)
{
    return op_fmt_in(op, OFMT(F_B1) | OFMT(F_B2) | OFMT(F_BC1) | OFMT(F_J) | OFMT(F_JR) |
                             OFMT(F_JALR));
}
/* SLL ... DSRAV; TGE ... TNEI. */
static inline bool op_is_shift(unsigned op) { return op_fmt_in(op, OFMT(F_SH) | OFMT(F_SHV)); }
static inline bool op_is_trap(unsigned op) { return op_fmt_in(op, OFMT(F_TR) | OFMT(F_TRI)); }

#endif
