/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tiny MIPS IV instruction encoders for the CPU unit tests and the
 * benchmark (register numbers in the n64 convention). */
#ifndef XBOW_TEST_CPU_ASM_H
#define XBOW_TEST_CPU_ASM_H

#include <stdint.h>

#include "core/bus.h"

/* clang-format off */
enum {
    ZERO = 0, AT = 1, V0 = 2, V1 = 3, A0 = 4, A1 = 5, A2 = 6, A3 = 7, A4 = 8, A5 = 9, A6 = 10, A7 = 11,
    T0 = 12, T1 = 13, T2 = 14, T3 = 15, S0 = 16, S1 = 17, T8 = 24, T9 = 25, K0 = 26, K1 = 27,
    SP = 29, RA = 31,
};
/* clang-format on */

#define R_(rs, rt, rd, sa, fn) \
    ((uint32_t)(((rs) << 21) | ((rt) << 16) | ((rd) << 11) | ((sa) << 6) | (fn)))
#define I_(op, rs, rt, imm) \
    ((uint32_t)(((uint32_t)(op) << 26) | ((rs) << 21) | ((rt) << 16) | ((uint32_t)(imm)&0xffff)))

#define NOP 0u
#define SLL(rd, rt, sa) R_(0, rt, rd, sa, 0x00)
#define SRL(rd, rt, sa) R_(0, rt, rd, sa, 0x02)
#define SRA(rd, rt, sa) R_(0, rt, rd, sa, 0x03)
#define SLLV(rd, rt, rs) R_(rs, rt, rd, 0, 0x04)
#define SRAV(rd, rt, rs) R_(rs, rt, rd, 0, 0x07)
#define JR(rs) R_(rs, 0, 0, 0, 0x08)
#define JALR(rd, rs) R_(rs, 0, rd, 0, 0x09)
#define MOVZ(rd, rs, rt) R_(rs, rt, rd, 0, 0x0a)
#define MOVN(rd, rs, rt) R_(rs, rt, rd, 0, 0x0b)
#define SYSCALL 0x0000000cu
#define BREAK 0x0000000du
#define SYNC 0x0000000fu
#define MFHI(rd) R_(0, 0, rd, 0, 0x10)
#define MFLO(rd) R_(0, 0, rd, 0, 0x12)
#define DSLLV(rd, rt, rs) R_(rs, rt, rd, 0, 0x14)
#define DSRAV(rd, rt, rs) R_(rs, rt, rd, 0, 0x17)
#define MULT(rs, rt) R_(rs, rt, 0, 0, 0x18)
#define MULTU(rs, rt) R_(rs, rt, 0, 0, 0x19)
#define DIV(rs, rt) R_(rs, rt, 0, 0, 0x1a)
#define DIVU(rs, rt) R_(rs, rt, 0, 0, 0x1b)
#define DMULT(rs, rt) R_(rs, rt, 0, 0, 0x1c)
#define DMULTU(rs, rt) R_(rs, rt, 0, 0, 0x1d)
#define DDIV(rs, rt) R_(rs, rt, 0, 0, 0x1e)
#define DDIVU(rs, rt) R_(rs, rt, 0, 0, 0x1f)
#define ADD(rd, rs, rt) R_(rs, rt, rd, 0, 0x20)
#define ADDU(rd, rs, rt) R_(rs, rt, rd, 0, 0x21)
#define SUB(rd, rs, rt) R_(rs, rt, rd, 0, 0x22)
#define SUBU(rd, rs, rt) R_(rs, rt, rd, 0, 0x23)
#define AND(rd, rs, rt) R_(rs, rt, rd, 0, 0x24)
#define OR(rd, rs, rt) R_(rs, rt, rd, 0, 0x25)
#define XOR(rd, rs, rt) R_(rs, rt, rd, 0, 0x26)
#define SLT(rd, rs, rt) R_(rs, rt, rd, 0, 0x2a)
#define SLTU(rd, rs, rt) R_(rs, rt, rd, 0, 0x2b)
#define DADD(rd, rs, rt) R_(rs, rt, rd, 0, 0x2c)
#define DADDU(rd, rs, rt) R_(rs, rt, rd, 0, 0x2d)
#define DSUB(rd, rs, rt) R_(rs, rt, rd, 0, 0x2e)
#define DSUBU(rd, rs, rt) R_(rs, rt, rd, 0, 0x2f)
#define TGE(rs, rt) R_(rs, rt, 0, 0, 0x30)
#define TEQ(rs, rt) R_(rs, rt, 0, 0, 0x34)
#define TNE(rs, rt) R_(rs, rt, 0, 0, 0x36)
#define DSLL(rd, rt, sa) R_(0, rt, rd, sa, 0x38)
#define DSRL(rd, rt, sa) R_(0, rt, rd, sa, 0x3a)
#define DSLL32(rd, rt, sa) R_(0, rt, rd, sa, 0x3c)
#define DSRL32(rd, rt, sa) R_(0, rt, rd, sa, 0x3e)
#define DSRA32(rd, rt, sa) R_(0, rt, rd, sa, 0x3f)
#define MOVF(rd, rs, cc) R_(rs, (cc) << 2, rd, 0, 0x01)
#define MOVT(rd, rs, cc) R_(rs, ((cc) << 2) | 1, rd, 0, 0x01)

#define BLTZ(rs, off) I_(1, rs, 0x00, off)
#define BGEZAL(rs, off) I_(1, rs, 0x11, off)
#define BLTZL(rs, off) I_(1, rs, 0x02, off)
#define TEQI(rs, imm) I_(1, rs, 0x0c, imm)
#define TNEI(rs, imm) I_(1, rs, 0x0e, imm)
#define J(target) ((uint32_t)((2u << 26) | (((target) >> 2) & 0x3ffffff)))
#define JAL(target) ((uint32_t)((3u << 26) | (((target) >> 2) & 0x3ffffff)))
#define BEQ(rs, rt, off) I_(4, rs, rt, off)
#define BNE(rs, rt, off) I_(5, rs, rt, off)
#define BLEZ(rs, off) I_(6, rs, 0, off)
#define BGTZ(rs, off) I_(7, rs, 0, off)
#define ADDI(rt, rs, imm) I_(8, rs, rt, imm)
#define ADDIU(rt, rs, imm) I_(9, rs, rt, imm)
#define SLTI(rt, rs, imm) I_(10, rs, rt, imm)
#define SLTIU(rt, rs, imm) I_(11, rs, rt, imm)
#define ANDI(rt, rs, imm) I_(12, rs, rt, imm)
#define ORI(rt, rs, imm) I_(13, rs, rt, imm)
#define LUI(rt, imm) I_(15, 0, rt, imm)
#define BEQL(rs, rt, off) I_(0x14, rs, rt, off)
#define BNEL(rs, rt, off) I_(0x15, rs, rt, off)
#define DADDI(rt, rs, imm) I_(0x18, rs, rt, imm)
#define DADDIU(rt, rs, imm) I_(0x19, rs, rt, imm)
#define LDL(rt, off, rs) I_(0x1a, rs, rt, off)
#define LDR(rt, off, rs) I_(0x1b, rs, rt, off)
#define LB(rt, off, rs) I_(0x20, rs, rt, off)
#define LH(rt, off, rs) I_(0x21, rs, rt, off)
#define LWL(rt, off, rs) I_(0x22, rs, rt, off)
#define LW(rt, off, rs) I_(0x23, rs, rt, off)
#define LBU(rt, off, rs) I_(0x24, rs, rt, off)
#define LHU(rt, off, rs) I_(0x25, rs, rt, off)
#define LWR(rt, off, rs) I_(0x26, rs, rt, off)
#define LWU(rt, off, rs) I_(0x27, rs, rt, off)
#define SB(rt, off, rs) I_(0x28, rs, rt, off)
#define SH(rt, off, rs) I_(0x29, rs, rt, off)
#define SWL(rt, off, rs) I_(0x2a, rs, rt, off)
#define SW(rt, off, rs) I_(0x2b, rs, rt, off)
#define SDL(rt, off, rs) I_(0x2c, rs, rt, off)
#define SDR(rt, off, rs) I_(0x2d, rs, rt, off)
#define SWR(rt, off, rs) I_(0x2e, rs, rt, off)
#define CACHE(op, off, rs) I_(0x2f, rs, op, off)
#define LL(rt, off, rs) I_(0x30, rs, rt, off)
#define LWC1(ft, off, rs) I_(0x31, rs, ft, off)
#define PREF(h, off, rs) I_(0x33, rs, h, off)
#define LLD(rt, off, rs) I_(0x34, rs, rt, off)
#define LDC1(ft, off, rs) I_(0x35, rs, ft, off)
#define LD(rt, off, rs) I_(0x37, rs, rt, off)
#define SC(rt, off, rs) I_(0x38, rs, rt, off)
#define SWC1(ft, off, rs) I_(0x39, rs, ft, off)
#define SCD(rt, off, rs) I_(0x3c, rs, rt, off)
#define SDC1(ft, off, rs) I_(0x3d, rs, ft, off)
#define SD(rt, off, rs) I_(0x3f, rs, rt, off)
#define BC1F(cc, off) I_(0x11, 8, (cc) << 2, off)
#define BC1T(cc, off) I_(0x11, 8, ((cc) << 2) | 1, off)
#define BC1TL(cc, off) I_(0x11, 8, ((cc) << 2) | 3, off)
#define LDXC1(fd, index, base) \
    ((uint32_t)((0x13u << 26) | ((base) << 21) | ((index) << 16) | ((fd) << 6) | 1))
#define SDXC1(fs, index, base) \
    ((uint32_t)((0x13u << 26) | ((base) << 21) | ((index) << 16) | ((fs) << 11) | 9))
#define PREFX(h, index, base) \
    ((uint32_t)((0x13u << 26) | ((base) << 21) | ((index) << 16) | ((h) << 11) | 0xf))

#define MFC0(rt, rd) ((uint32_t)((0x10u << 26) | (0u << 21) | ((rt) << 16) | ((rd) << 11)))
#define DMFC0(rt, rd) ((uint32_t)((0x10u << 26) | (1u << 21) | ((rt) << 16) | ((rd) << 11)))
#define MTC0(rt, rd) ((uint32_t)((0x10u << 26) | (4u << 21) | ((rt) << 16) | ((rd) << 11)))
#define DMTC0(rt, rd) ((uint32_t)((0x10u << 26) | (5u << 21) | ((rt) << 16) | ((rd) << 11)))
#define TLBR 0x42000001u
#define TLBWI 0x42000002u
#define TLBWR 0x42000006u
#define TLBP 0x42000008u
#define ERET 0x42000018u

/* Store the n instruction words w, big-endian, from bus address ba on;
 * returns BUS_OK, or the first failing store's result. */
static inline int asm_poke(bus *b, uint64_t ba, const uint32_t *w, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        uint8_t x[4] = {(uint8_t)(w[i] >> 24), (uint8_t)(w[i] >> 16), (uint8_t)(w[i] >> 8),
                        (uint8_t)w[i]};
        int rc = bus_poke(b, ba + 4 * i, x, 4);
        if (rc != BUS_OK)
            return rc;
    }
    return BUS_OK;
}

#endif
