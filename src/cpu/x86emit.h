/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A small x86-64 instruction emitter for the translator (jit_gen.c).
 *
 * Only what the translator needs: moves and loads/stores of 8 to 64 bits
 * with sign or zero extension, the ALU group, shifts, multiply and divide,
 * LEA, BSWAP/MOVBE, SETcc/CMOVcc, jumps and calls.  A memory operand is
 * base + index * scale + disp32 (no RIP-relative forms).  Instructions are
 * appended to an xbuf; a full buffer sets `over` and swallows the rest (the
 * translator checks it and gives the block up).
 *
 * Registers use the hardware numbering (X_RAX = 0 ... X_R15 = 15).  Sizes
 * are in bits: 8, 16, 32 or 64.  The encodings follow the Intel SDM,
 * volume 2 (REX prefixes, ModRM/SIB, the opcode tables).
 */
#ifndef XBOW_X86EMIT_H
#define XBOW_X86EMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* clang-format off */
enum {
    X_RAX, X_RCX, X_RDX, X_RBX, X_RSP, X_RBP, X_RSI, X_RDI,
    X_R8, X_R9, X_R10, X_R11, X_R12, X_R13, X_R14, X_R15,
};
/* clang-format on */

/* Condition codes (the low nibble of Jcc/SETcc/CMOVcc). */
/* clang-format off */
enum {
    CC_O = 0, CC_NO = 1, CC_B = 2, CC_AE = 3, CC_E = 4, CC_NE = 5, CC_BE = 6, CC_A = 7,
    CC_S = 8, CC_NS = 9, CC_L = 12, CC_GE = 13, CC_LE = 14, CC_G = 15,
};
/* clang-format on */

/* ALU operations (the /digit of 0x81 and the opcode row of r/m forms). */
enum { ALU_ADD = 0, ALU_OR = 1, ALU_AND = 4, ALU_SUB = 5, ALU_XOR = 6, ALU_CMP = 7 };
/* Shifts (the /digit of 0xC1/0xD3). */
enum { SH_ROL = 0, SH_ROR = 1, SH_SHL = 4, SH_SHR = 5, SH_SAR = 7 };

typedef struct xbuf {
    uint8_t *p;
    size_t len, cap;
    bool over;
} xbuf;

typedef struct xmem {
    int base;  /* a register, never -1 */
    int index; /* -1: none (never X_RSP) */
    int scale; /* 1, 2, 4 or 8 */
    int32_t disp;
} xmem;

static inline xmem xm(int base, int32_t disp) { return (xmem){base, -1, 1, disp}; }
static inline xmem xmi(int base, int index, int scale, int32_t disp)
{
    return (xmem){base, index, scale, disp};
}

static inline void xb_byte(xbuf *b, uint8_t v)
{
    if (b->len < b->cap)
        b->p[b->len++] = v;
    else
        b->over = true;
}
static inline void xb_u32(xbuf *b, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        xb_byte(b, (uint8_t)(v >> (8 * i)));
}
static inline void xb_u64(xbuf *b, uint64_t v)
{
    xb_u32(b, (uint32_t)v);
    xb_u32(b, (uint32_t)(v >> 32));
}
static inline bool x_fits8(int64_t v) { return v >= -128 && v <= 127; }
static inline bool x_fits32(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }

/* Prefixes and REX for an instruction of operand size `size` whose ModRM reg
 * field is `reg` and whose r/m (or SIB base) is `rm`, index `idx`.  Byte
 * operations on SPL/BPL/SIL/DIL need a REX prefix even without extension
 * bits (byte_rm / byte_reg say which fields are byte registers). */
static inline void x_prefix(xbuf *b, int size, int reg, int idx, int rm, bool byte_reg,
                            bool byte_rm)
{
    if (size == 16)
        xb_byte(b, 0x66);
    uint8_t rex = 0x40;
    if (size == 64)
        rex |= 8;
    if (reg & 8)
        rex |= 4;
    if (idx >= 0 && (idx & 8))
        rex |= 2;
    if (rm & 8)
        rex |= 1;
    bool need = rex != 0x40 || (byte_reg && reg >= 4 && reg < 8) || (byte_rm && rm >= 4 && rm < 8);
    if (need)
        xb_byte(b, rex);
}

/* ModRM (and SIB and displacement) for a register r/m operand. */
static inline void x_modrm_reg(xbuf *b, int reg, int rm)
{
    xb_byte(b, (uint8_t)(0xc0 | ((reg & 7) << 3) | (rm & 7)));
}

/* ModRM, SIB and displacement for memory operand m. */
static inline void x_modrm_mem(xbuf *b, int reg, xmem m)
{
    int base = m.base & 7;
    int mod = m.disp == 0 && base != X_RBP ? 0 : x_fits8(m.disp) ? 1 : 2;
    if (m.index >= 0 || base == X_RSP) {
        int ss = m.scale == 8 ? 3 : m.scale == 4 ? 2 : m.scale == 2 ? 1 : 0;
        int idx = m.index >= 0 ? (m.index & 7) : 4;
        xb_byte(b, (uint8_t)((mod << 6) | ((reg & 7) << 3) | 4));
        xb_byte(b, (uint8_t)((ss << 6) | (idx << 3) | base));
    } else {
        xb_byte(b, (uint8_t)((mod << 6) | ((reg & 7) << 3) | base));
    }
    if (mod == 1)
        xb_byte(b, (uint8_t)(int8_t)m.disp);
    else if (mod == 2)
        xb_u32(b, (uint32_t)m.disp);
}

/* op reg, r/m (register) with 1-3 opcode bytes (op2/op3 0: absent). */
static inline void x_op_rr(xbuf *b, int size, unsigned op, int reg, int rm)
{
    x_prefix(b, size, reg, -1, rm, size == 8, size == 8);
    for (int s = 16; s >= 0; s -= 8)
        if ((op >> s) & 0xff || s == 0)
            xb_byte(b, (uint8_t)(op >> s));
    x_modrm_reg(b, reg, rm);
}
static inline void x_op_rm(xbuf *b, int size, unsigned op, int reg, xmem m, bool byte_reg)
{
    x_prefix(b, size, reg, m.index, m.base, byte_reg, false);
    for (int s = 16; s >= 0; s -= 8)
        if ((op >> s) & 0xff || s == 0)
            xb_byte(b, (uint8_t)(op >> s));
    x_modrm_mem(b, reg, m);
}

/* ---- moves ------------------------------------------------------------- */

static inline void x_mov_rr(xbuf *b, int size, int dst, int src)
{
    x_op_rr(b, size, size == 8 ? 0x88 : 0x89, src, dst);
}
/* dst = [m], size 8..64 bits, without extension (8/16 keep the upper bits). */
static inline void x_load(xbuf *b, int size, int dst, xmem m)
{
    x_op_rm(b, size, size == 8 ? 0x8a : 0x8b, dst, m, size == 8);
}
static inline void x_store(xbuf *b, int size, xmem m, int src)
{
    x_op_rm(b, size, size == 8 ? 0x88 : 0x89, src, m, size == 8);
}
/* dst64 = zero/sign-extended [m] of size 8, 16 or 32. */
static inline void x_loadzx(xbuf *b, int size, int dst, xmem m)
{
    if (size == 32)
        x_load(b, 32, dst, m);
    else
        x_op_rm(b, 32, size == 8 ? 0x0fb6 : 0x0fb7, dst, m, false);
}
static inline void x_loadsx(xbuf *b, int size, int dst, xmem m)
{
    x_op_rm(b, 64, size == 8 ? 0x0fbe : size == 16 ? 0x0fbf : 0x63, dst, m, false);
}
/* dst64 = sign-extended low 32 bits of src (MOVSXD). */
static inline void x_movsxd(xbuf *b, int dst, int src) { x_op_rr(b, 64, 0x63, dst, src); }
static inline void x_movzx8(xbuf *b, int dst, int src)
{
    x_prefix(b, 32, dst, -1, src, false, true);
    xb_byte(b, 0x0f);
    xb_byte(b, 0xb6);
    x_modrm_reg(b, dst, src);
}
static inline void x_movsx8(xbuf *b, int dst, int src)
{
    x_prefix(b, 64, dst, -1, src, false, true);
    xb_byte(b, 0x0f);
    xb_byte(b, 0xbe);
    x_modrm_reg(b, dst, src);
}
static inline void x_movsx16(xbuf *b, int dst, int src) { x_op_rr(b, 64, 0x0fbf, dst, src); }
static inline void x_movzx16(xbuf *b, int dst, int src) { x_op_rr(b, 32, 0x0fb7, dst, src); }
/* dst = v: the shortest of xor, mov r32, mov r64 sign-extended, movabs. */
static inline void x_mov_imm(xbuf *b, int dst, uint64_t v)
{
    if (v == 0) {
        x_op_rr(b, 32, 0x31, dst, dst);
    } else if (v <= 0xffffffffull) {
        x_prefix(b, 32, 0, -1, dst, false, false);
        xb_byte(b, (uint8_t)(0xb8 | (dst & 7)));
        xb_u32(b, (uint32_t)v);
    } else if (x_fits32((int64_t)v)) {
        x_prefix(b, 64, 0, -1, dst, false, false);
        xb_byte(b, 0xc7);
        x_modrm_reg(b, 0, dst);
        xb_u32(b, (uint32_t)v);
    } else {
        x_prefix(b, 64, 0, -1, dst, false, false);
        xb_byte(b, (uint8_t)(0xb8 | (dst & 7)));
        xb_u64(b, v);
    }
}
/* dst = v without touching the flags (never the xor form). */
static inline void x_mov_imm_nf(xbuf *b, int dst, uint64_t v)
{
    if (v == 0) {
        x_prefix(b, 32, 0, -1, dst, false, false);
        xb_byte(b, (uint8_t)(0xb8 | (dst & 7)));
        xb_u32(b, 0);
    } else {
        x_mov_imm(b, dst, v);
    }
}
/* [m] = imm (size 8..64; 64 stores a sign-extended imm32). */
static inline void x_store_imm(xbuf *b, int size, xmem m, int32_t v)
{
    x_op_rm(b, size, size == 8 ? 0xc6 : 0xc7, 0, m, false);
    if (size == 8)
        xb_byte(b, (uint8_t)v);
    else if (size == 16) {
        xb_byte(b, (uint8_t)v);
        xb_byte(b, (uint8_t)(v >> 8));
    } else
        xb_u32(b, (uint32_t)v);
}
static inline void x_lea(xbuf *b, int size, int dst, xmem m)
{
    x_op_rm(b, size, 0x8d, dst, m, false);
}

/* ---- arithmetic -------------------------------------------------------- */

static inline void x_alu_rr(xbuf *b, int size, int op, int dst, int src)
{
    x_op_rr(b, size, (unsigned)(op * 8 + (size == 8 ? 0 : 1)), src, dst);
}
static inline void x_alu_rm(xbuf *b, int size, int op, int dst, xmem m)
{
    x_op_rm(b, size, (unsigned)(op * 8 + 3), dst, m, false);
}
static inline void x_alu_ri(xbuf *b, int size, int op, int dst, int32_t v)
{
    if (x_fits8(v)) {
        x_op_rr(b, size, 0x83, op, dst);
        xb_byte(b, (uint8_t)v);
    } else {
        x_op_rr(b, size, 0x81, op, dst);
        xb_u32(b, (uint32_t)v);
    }
}
static inline void x_alu_mi(xbuf *b, int size, int op, xmem m, int32_t v)
{
    if (size == 8) {
        x_op_rm(b, 8, 0x80, op, m, false);
        xb_byte(b, (uint8_t)v);
    } else if (x_fits8(v)) {
        x_op_rm(b, size, 0x83, op, m, false);
        xb_byte(b, (uint8_t)v);
    } else {
        x_op_rm(b, size, 0x81, op, m, false);
        xb_u32(b, (uint32_t)v);
    }
}
static inline void x_alu_mr(xbuf *b, int size, int op, xmem m, int src)
{
    x_op_rm(b, size, (unsigned)(op * 8 + 1), src, m, false);
}
static inline void x_test_rr(xbuf *b, int size, int a, int c)
{
    x_op_rr(b, size, size == 8 ? 0x84 : 0x85, c, a);
}
static inline void x_test_ri(xbuf *b, int size, int a, int32_t v)
{
    x_op_rr(b, size, size == 8 ? 0xf6 : 0xf7, 0, a);
    if (size == 8)
        xb_byte(b, (uint8_t)v);
    else
        xb_u32(b, (uint32_t)v);
}
static inline void x_test_mi(xbuf *b, int size, xmem m, int32_t v)
{
    x_op_rm(b, size, size == 8 ? 0xf6 : 0xf7, 0, m, false);
    if (size == 8)
        xb_byte(b, (uint8_t)v);
    else
        xb_u32(b, (uint32_t)v);
}
static inline void x_shift_ri(xbuf *b, int size, int op, int dst, int n)
{
    x_op_rr(b, size, 0xc1, op, dst);
    xb_byte(b, (uint8_t)n);
}
static inline void x_shift_rcl(xbuf *b, int size, int op, int dst)
{
    x_op_rr(b, size, 0xd3, op, dst);
}
/* RORX dst, src, n (BMI2; 32 or 64 bits): dst = src rotated right by n,
 * flags untouched.  VEX.LZ.F2.0F3A.W0/W1 F0 /r ib. */
static inline void x_rorx(xbuf *b, int size, int dst, int src, int n)
{
    xb_byte(b, 0xc4);
    xb_byte(b, (uint8_t)((dst & 8 ? 0 : 0x80) | 0x40 | (src & 8 ? 0 : 0x20) | 0x03));
    xb_byte(b, (uint8_t)((size == 64 ? 0x80 : 0) | 0x7b));
    xb_byte(b, 0xf0);
    x_modrm_reg(b, dst, src);
    xb_byte(b, (uint8_t)n);
}
/* CMP dword [rip + rel32], imm8.  Returns the offset of the rel32; the
 * instruction ends one byte after it (so a fix-up aims at target - 1). */
static inline size_t x_cmp32_rip_i8(xbuf *b, int8_t v)
{
    xb_byte(b, 0x83);
    xb_byte(b, 0x3d); /* mod 00, /7, rm 101: rip-relative */
    size_t at = b->len;
    xb_u32(b, 0);
    xb_byte(b, (uint8_t)v);
    return at;
}
/* F7 group: 2 NOT, 3 NEG, 4 MUL, 5 IMUL (rdx:rax), 6 DIV, 7 IDIV. */
static inline void x_f7(xbuf *b, int size, int digit, int r) { x_op_rr(b, size, 0xf7, digit, r); }
static inline void x_imul_rr(xbuf *b, int size, int dst, int src)
{
    x_op_rr(b, size, 0x0faf, dst, src);
}
static inline void x_cqo(xbuf *b)
{
    xb_byte(b, 0x48);
    xb_byte(b, 0x99);
}
static inline void x_cdq(xbuf *b) { xb_byte(b, 0x99); }
static inline void x_bswap(xbuf *b, int size, int r)
{
    x_prefix(b, size, 0, -1, r, false, false);
    xb_byte(b, 0x0f);
    xb_byte(b, (uint8_t)(0xc8 | (r & 7)));
}
/* MOVBE r, [m] (load) and [m], r (store); 16, 32 or 64 bits. */
static inline void x_movbe_load(xbuf *b, int size, int dst, xmem m)
{
    x_op_rm(b, size, 0x0f38f0, dst, m, false);
}
static inline void x_movbe_store(xbuf *b, int size, xmem m, int src)
{
    x_op_rm(b, size, 0x0f38f1, src, m, false);
}
static inline void x_setcc(xbuf *b, int cc, int dst)
{
    x_prefix(b, 32, 0, -1, dst, false, true);
    xb_byte(b, 0x0f);
    xb_byte(b, (uint8_t)(0x90 | cc));
    x_modrm_reg(b, 0, dst);
}
static inline void x_cmov(xbuf *b, int size, int cc, int dst, int src)
{
    x_op_rr(b, size, 0x0f40u | (unsigned)cc, dst, src);
}

/* ---- control ----------------------------------------------------------- */

/* The rel32 jumps return the offset of their rel32 field (for patching). */
static inline size_t x_jcc32(xbuf *b, int cc)
{
    xb_byte(b, 0x0f);
    xb_byte(b, (uint8_t)(0x80 | cc));
    size_t at = b->len;
    xb_u32(b, 0);
    return at;
}
static inline size_t x_jmp32(xbuf *b)
{
    xb_byte(b, 0xe9);
    size_t at = b->len;
    xb_u32(b, 0);
    return at;
}
static inline size_t x_call32(xbuf *b)
{
    xb_byte(b, 0xe8);
    size_t at = b->len;
    xb_u32(b, 0);
    return at;
}
/* Short forward jumps inside one sequence: x_jcc8 returns the offset of its
 * rel8, x_patch8 points it at the current end. */
static inline size_t x_jcc8(xbuf *b, int cc)
{
    xb_byte(b, (uint8_t)(0x70 | cc));
    xb_byte(b, 0);
    return b->len - 1;
}
static inline size_t x_jmp8(xbuf *b)
{
    xb_byte(b, 0xeb);
    xb_byte(b, 0);
    return b->len - 1;
}
static inline void x_patch8(xbuf *b, size_t at)
{
    if (at < b->len)
        b->p[at] = (uint8_t)(int8_t)(b->len - at - 1);
}
static inline void x_jmp_r(xbuf *b, int r) { x_op_rr(b, 32, 0xff, 4, r); }
static inline void x_jmp_m(xbuf *b, xmem m) { x_op_rm(b, 32, 0xff, 4, m, false); }
static inline void x_call_r(xbuf *b, int r) { x_op_rr(b, 32, 0xff, 2, r); }
static inline void x_push(xbuf *b, int r)
{
    if (r & 8)
        xb_byte(b, 0x41);
    xb_byte(b, (uint8_t)(0x50 | (r & 7)));
}
static inline void x_pop(xbuf *b, int r)
{
    if (r & 8)
        xb_byte(b, 0x41);
    xb_byte(b, (uint8_t)(0x58 | (r & 7)));
}
static inline void x_ret(xbuf *b) { xb_byte(b, 0xc3); }
static inline void x_ud2(xbuf *b)
{
    xb_byte(b, 0x0f);
    xb_byte(b, 0x0b);
}

/* Write a rel32 at p so that it reaches target (p is where the rel32 lives,
 * the jump's next instruction is p + 4). */
static inline void x_set_rel32(uint8_t *p, const uint8_t *target)
{
    int32_t rel = (int32_t)(target - (p + 4));
    memcpy(p, &rel, 4);
}

#endif
