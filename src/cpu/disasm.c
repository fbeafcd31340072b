/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Disassembly: Capstone (MIPS64, big-endian) for the text, with three
 * corrections made from our own decoder:
 *  - register names follow the n64 convention (Capstone prints o32 names:
 *    its $t0..$t7 are our a4..a7, t0..t3);
 *  - branch and jump targets are computed here (Capstone 4.0.2 prints
 *    64-bit targets truncated to 32 bits) and given a symbol;
 *  - instructions the R10000 does not have (Capstone decodes MIPS32/64 R2
 *    and Cavium forms) are shown as reserved, CP0 moves get CP0 register
 *    names, and what Capstone does not know (some COP1X forms, PREFX,
 *    DSLL32-style edge forms, ...) comes from our own formatter, so the
 *    output is never empty.
 */
#include <capstone/capstone.h>
#include <inttypes.h>
#include <stdio.h>

#include "cpu/cpu_internal.h"
#include "cpu/ops.h"

static csh cs_handle;
static int cs_state; /* 0 unopened, 1 open, -1 failed */

static const char *gname(unsigned r) { return cpu_gpr_names[r & 31]; }

static void target_str(uint64_t t, symtab *syms, char *buf, size_t len)
{
    const symbol *s = NULL;
    uint64_t off = 0;
    if (syms && syms->n)
        s = symtab_lookup_addr(syms, t, &off);
    if (s && off)
        snprintf(buf, len, "0x%016" PRIx64 " <%s+0x%" PRIx64 ">", t, s->name, off);
    else if (s)
        snprintf(buf, len, "0x%016" PRIx64 " <%s>", t, s->name);
    else
        snprintf(buf, len, "0x%016" PRIx64, t);
}

/* Branch/jump target of the instruction, if it has a static one. */
static bool static_target(uint64_t pc, const dinsn *d, uint64_t *t)
{
    switch (cpu_op_fmt[d->op]) {
    case F_B1:
    case F_B2:
    case F_BC1: *t = pc + 4 + (uint64_t)d->imm; return true;
    case F_J: *t = ((pc + 4) & ~0x0fffffffull) | (uint64_t)d->imm; return true;
    default: return false;
    }
}

static bool fpu_text(const dinsn *d, char *buf, size_t len);

/* Our own formatter (fallback and for the forms Capstone gets wrong). */
static void own_text(uint64_t pc, const dinsn *d, symtab *syms, char *buf, size_t len)
{
    const char *m = cpu_op_names[d->op];
    unsigned w = d->raw, rs = (w >> 21) & 31, rt = (w >> 16) & 31, rd = (w >> 11) & 31;
    unsigned sa = (w >> 6) & 31;
    int16_t imm = (int16_t)w;
    char tgt[128] = "";
    uint64_t t;
    if (static_target(pc, d, &t))
        target_str(t, syms, tgt, sizeof tgt);
    switch (cpu_op_fmt[d->op]) {
    case F_NONE: snprintf(buf, len, "%s", m); break;
    case F_R3: snprintf(buf, len, "%s %s, %s, %s", m, gname(rd), gname(rs), gname(rt)); break;
    case F_SH: snprintf(buf, len, "%s %s, %s, %u", m, gname(rd), gname(rt), sa); break;
    case F_SHV: snprintf(buf, len, "%s %s, %s, %s", m, gname(rd), gname(rt), gname(rs)); break;
    case F_I: snprintf(buf, len, "%s %s, %s, %d", m, gname(rt), gname(rs), imm); break;
    case F_IU: snprintf(buf, len, "%s %s, %s, 0x%x", m, gname(rt), gname(rs), w & 0xffff); break;
    case F_LUI: snprintf(buf, len, "%s %s, 0x%x", m, gname(rt), w & 0xffff); break;
    case F_MEM: snprintf(buf, len, "%s %s, %d(%s)", m, gname(rt), imm, gname(rs)); break;
    case F_B2: snprintf(buf, len, "%s %s, %s, %s", m, gname(rs), gname(rt), tgt); break;
    case F_B1: snprintf(buf, len, "%s %s, %s", m, gname(rs), tgt); break;
    case F_J: snprintf(buf, len, "%s %s", m, tgt); break;
    case F_JR: snprintf(buf, len, "%s %s", m, gname(rs)); break;
    case F_JALR:
        if (rd == 31)
            snprintf(buf, len, "%s %s", m, gname(rs));
        else
            snprintf(buf, len, "%s %s, %s", m, gname(rd), gname(rs));
        break;
    case F_MD: snprintf(buf, len, "%s %s, %s", m, gname(rs), gname(rt)); break;
    case F_MF: snprintf(buf, len, "%s %s", m, gname(rd)); break;
    case F_MT: snprintf(buf, len, "%s %s", m, gname(rs)); break;
    case F_TR: snprintf(buf, len, "%s %s, %s", m, gname(rs), gname(rt)); break;
    case F_TRI: snprintf(buf, len, "%s %s, %d", m, gname(rs), imm); break;
    case F_CP0:
        if (w & 7)
            snprintf(buf, len, "%s %s, %s, %u", m, gname(rt), cpu_cp0_names[rd], w & 7);
        else
            snprintf(buf, len, "%s %s, %s", m, gname(rt), cpu_cp0_names[rd]);
        break;
    case F_FMEM: snprintf(buf, len, "%s $f%u, %d(%s)", m, rt, imm, gname(rs)); break;
    case F_FX:
        snprintf(buf, len, "%s $f%u, %s(%s)", m, (w & 63) >= 8 ? rd : sa, gname(rt), gname(rs));
        break;
    case F_BC1:
        snprintf(buf, len, "bc1%s%s $fcc%u, %s", (rt & 1) ? "t" : "f", (rt & 2) ? "l" : "",
                 (w >> 18) & 7, tgt);
        break;
    case F_MOVCI:
        snprintf(buf, len, "%s %s, %s, $fcc%u", (w >> 16) & 1 ? "movt" : "movf", gname(rd),
                 gname(rs), (w >> 18) & 7);
        break;
    case F_CACHE: snprintf(buf, len, "%s 0x%x, %d(%s)", m, rt, imm, gname(rs)); break;
    case F_PREF: snprintf(buf, len, "%s %u, %d(%s)", m, rt, imm, gname(rs)); break;
    case F_PREFX: snprintf(buf, len, "%s %u, %s(%s)", m, rd, gname(rt), gname(rs)); break;
    case F_CODE: snprintf(buf, len, "%s 0x%x", m, (w >> 6) & 0xfffff); break;
    default:
        if ((d->op == OP_COP1 || d->op == OP_COP1X) && fpu_text(d, buf, len))
            break;
        snprintf(buf, len, ".word 0x%08x", w);
        break;
    }
}

/* COP1 / COP1X arithmetic (the FPU's own instructions) for the fallback. */
static bool fpu_text(const dinsn *d, char *buf, size_t len)
{
    static const char *const ar[64] = {
        [0] = "add",      [1] = "sub",      [2] = "mul",      [3] = "div",      [4] = "sqrt",
        [5] = "abs",      [6] = "mov",      [7] = "neg",      [8] = "round.l",  [9] = "trunc.l",
        [10] = "ceil.l",  [11] = "floor.l", [12] = "round.w", [13] = "trunc.w", [14] = "ceil.w",
        [15] = "floor.w", [17] = "mov?",    [18] = "movz",    [19] = "movn",    [21] = "recip",
        [22] = "rsqrt",   [32] = "cvt.s",   [33] = "cvt.d",   [36] = "cvt.w",   [37] = "cvt.l",
    };
    static const char *const cond[16] = {"f",  "un",   "eq",  "ueq", "olt", "ult", "ole", "ule",
                                         "sf", "ngle", "seq", "ngl", "lt",  "nge", "le",  "ngt"};
    static const char *const mv[8] = {"mfc1", "dmfc1", "cfc1", NULL, "mtc1", "dmtc1", "ctc1", NULL};
    uint32_t w = d->raw;
    unsigned fmt = (w >> 21) & 31, ft = (w >> 16) & 31, fs = (w >> 11) & 31, fd = (w >> 6) & 31;
    unsigned fn = w & 63;
    if (d->op == OP_COP1X) {
        static const char *const x[8] = {NULL, NULL, NULL, NULL, "madd", "msub", "nmadd", "nmsub"};
        static const char fx[8] = {'s', 'd', 0, 0, 0, 0, 'w', 'l'};
        if (!x[fn >> 3] || !fx[fn & 7])
            return false;
        snprintf(buf, len, "%s.%c $f%u, $f%u, $f%u, $f%u", x[fn >> 3], fx[fn & 7], fd, fmt, fs, ft);
        return true;
    }
    if (fmt < 8) {
        if (!mv[fmt])
            return false;
        snprintf(buf, len, "%s %s, $f%u", mv[fmt], cpu_gpr_names[ft], fs);
        return true;
    }
    char f = fmt == 16 ? 's' : fmt == 17 ? 'd' : fmt == 20 ? 'w' : fmt == 21 ? 'l' : 0;
    if (!f)
        return false;
    if (fn >= 48) {
        if (fd >> 2)
            snprintf(buf, len, "c.%s.%c $fcc%u, $f%u, $f%u", cond[fn & 15], f, fd >> 2, fs, ft);
        else
            snprintf(buf, len, "c.%s.%c $f%u, $f%u", cond[fn & 15], f, fs, ft);
        return true;
    }
    if (!ar[fn])
        return false;
    if (fn == 17)
        snprintf(buf, len, "mov%c.%c $f%u, $f%u, $fcc%u", (ft & 1) ? 't' : 'f', f, fd, fs, ft >> 2);
    else if (fn == 18 || fn == 19)
        snprintf(buf, len, "%s.%c $f%u, $f%u, %s", ar[fn], f, fd, fs, cpu_gpr_names[ft]);
    else if (fn < 4)
        snprintf(buf, len, "%s.%c $f%u, $f%u, $f%u", ar[fn], f, fd, fs, ft);
    else
        snprintf(buf, len, "%s.%c $f%u, $f%u", ar[fn], f, fd, fs);
    return true;
}

/* Capstone's o32 register names to ours. */
static void rename_regs(const char *in, char *out, size_t len)
{
    size_t o = 0;
    while (*in && o + 1 < len) {
        if (in[0] == '$' && in[1] == 't' && in[2] >= '0' && in[2] <= '7' &&
            !(in[3] >= '0' && in[3] <= '9')) {
            const char *n = cpu_gpr_names[8 + (in[2] - '0')];
            int k = snprintf(out + o, len - o, "%s", n);
            if (k < 0 || (size_t)k >= len - o)
                break;
            o += (size_t)k;
            in += 3;
            continue;
        }
        if (in[0] == '$' && in[1] == 'f' && in[2] == 'p' && !(in[3] >= 'a' && in[3] <= 'z')) {
            int k = snprintf(out + o, len - o, "s8");
            if (k < 0 || (size_t)k >= len - o)
                break;
            o += (size_t)k;
            in += 3;
            continue;
        }
        if (in[0] == '$' && in[1] != 'f') {
            in++; /* GPR: drop the '$' as our own text does */
            continue;
        }
        out[o++] = *in++;
    }
    out[o] = 0;
}

void cpu_disasm(uint64_t pc, uint32_t insn, symtab *syms, char *buf, size_t len)
{
    if (!buf || len == 0)
        return;
    dinsn d;
    cpu_decode(insn, &d);
    if (d.op == OP_RI) {
        snprintf(buf, len, ".word 0x%08x  # reserved on the R10000", insn);
        return;
    }
    unsigned fmt = cpu_op_fmt[d.op];
    /* C.cond.fmt with a condition code other than 0: Capstone drops the cc. */
    bool ccmp = d.op == OP_COP1 && ((insn >> 21) & 31) >= 16 && (insn & 0x30) == 0x30 &&
                ((insn >> 8) & 7) != 0;
    if (fmt == F_CP0 || fmt == F_FX || fmt == F_PREFX || fmt == F_BC1 || fmt == F_SH ||
        d.op == OP_NOP || ccmp) {
        own_text(pc, &d, syms, buf, len);
        return;
    }
    if (cs_state == 0) {
        cs_state =
            cs_open(CS_ARCH_MIPS, CS_MODE_MIPS64 | CS_MODE_BIG_ENDIAN, &cs_handle) == CS_ERR_OK
                ? 1
                : -1;
    }
    cs_insn *ci = NULL;
    size_t n = 0;
    if (cs_state == 1) {
        uint8_t b[4] = {(uint8_t)(insn >> 24), (uint8_t)(insn >> 16), (uint8_t)(insn >> 8),
                        (uint8_t)insn};
        n = cs_disasm(cs_handle, b, 4, pc, 1, &ci);
    }
    if (n == 0) {
        own_text(pc, &d, syms, buf, len);
        return;
    }
    char ops[160];
    rename_regs(ci[0].op_str, ops, sizeof ops);
    uint64_t t;
    if (static_target(pc, &d, &t)) {
        char tgt[128];
        target_str(t, syms, tgt, sizeof tgt);
        char *comma = strrchr(ops, ',');
        if (comma)
            snprintf(buf, len, "%s %.*s, %s", ci[0].mnemonic, (int)(comma - ops), ops, tgt);
        else
            snprintf(buf, len, "%s %s", ci[0].mnemonic, tgt);
    } else if (ops[0]) {
        snprintf(buf, len, "%s %s", ci[0].mnemonic, ops);
    } else {
        snprintf(buf, len, "%s", ci[0].mnemonic);
    }
    cs_free(ci, n);
}
