/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The differential CPU tester: xbow's R10000 against Unicorn 2 (QEMU).
 *
 * A generator writes blocks of random MIPS IV code with random operands
 * (gen.c); both CPUs run each block from the same state, one instruction at
 * a time, and the full architectural state is compared after every
 * instruction (oracle.c).  uc_side.c drives Unicorn, xb_side.c drives xbow;
 * excl.c names every case where the two are allowed to differ.
 * See docs/cpu-testing.md.
 */
#ifndef XBOW_ORACLE_H
#define XBOW_ORACLE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/common.h" /* xerr */

/* The same virtual addresses on both sides: kuseg with Status.ERL set, which
 * both CPUs treat as unmapped (virtual = physical). */
#define ORC_CODE_BASE 0x00100000ull
#define ORC_CODE_SIZE 0x00010000ull
#define ORC_DATA_BASE 0x00200000ull
#define ORC_DATA_SIZE 0x00002000ull
#define ORC_SCRATCH 0x1000u /* data[0 .. ORC_SCRATCH) is the load/store area */
#define ORC_FPINIT 0x1000u  /* data[ORC_FPINIT ..] holds the initial FPRs */
#define ORC_MAX_INSNS 1024
#define ORC_BASE_REG 28 /* holds ORC_DATA_BASE in every block */

/* Instruction classes (counted separately in the summary). */
/* clang-format off */
enum orc_class {
    C_PROLOGUE, C_ALU32, C_ALU64, C_SHIFT32, C_SHIFT64, C_IMM, C_SLT, C_MULDIV32,
    C_MULDIV64, C_HILO, C_MOVZN, C_MOVCI, C_BRANCH, C_BRANCHL, C_JUMP, C_LOAD, C_STORE,
    C_UNALIGNED, C_LLSC, C_TRAP, C_MISC, C_FP_ARITH, C_FP_CVT, C_FP_RND, C_FP_CMP, C_FP_BC1,
    C_FP_MOVC, C_FP_MADD, C_FP_MOVE, C_FP_LDST, C_FCSR, C_EXC, C_NCLASSES
};
/* clang-format on */
extern const char *const orc_class_names[C_NCLASSES];

typedef struct orc_cfg {
    bool fr;          /* Status.FR */
    unsigned rm;      /* initial rounding mode */
    bool fs;          /* FCSR.FS (flush tiny results) */
    uint32_t enables; /* FCSR enable bits (7..11) */
    unsigned len;     /* body length in instructions */
    unsigned profile; /* 0 mixed, 1 integer-heavy, 2 FP-heavy */
} orc_cfg;

typedef struct orc_block {
    uint32_t code[ORC_MAX_INSNS];
    uint8_t cls[ORC_MAX_INSNS];
    unsigned n;        /* instructions, prologue included; Unicorn stops at base + 4n */
    unsigned prologue; /* the first `prologue` instructions set up the FPU */
    uint64_t gpr[32], hi, lo;
    uint8_t data[ORC_DATA_SIZE];
    orc_cfg cfg;
    uint32_t fcsr; /* loaded by the prologue (CTC1) */
} orc_block;

/* The architectural state compared after every instruction. */
typedef struct orc_state {
    uint64_t gpr[32], hi, lo, pc;
    uint64_t fpr[32];
    uint32_t fcsr;
} orc_state;

/* ---- gen.c ---- */
typedef struct orc_rng {
    uint64_t s[4];
} orc_rng;
void orc_rng_seed(orc_rng *r, uint64_t seed);
uint64_t orc_rng_next(orc_rng *r);
void orc_generate(orc_block *b, uint64_t seed, const orc_cfg *cfg);

/* ---- uc_side.c ---- */
typedef struct uc_side uc_side;
/* Per-instruction callback from inside Unicorn: `pc` is about to execute,
 * the state is the one after the previous instruction. */
typedef void (*uc_step_fn)(void *ctx, uint64_t pc);
uc_side *uc_side_new(xerr *err);
void uc_side_free(uc_side *u);
/* Load a block (code, data, GPRs, HI/LO, Status with FR) */
int uc_side_load(uc_side *u, const orc_block *b);
/* Run the loaded block from its start to `until`; `fn` is called before every instruction.
 * Returns 0 at the end, 1 if an exception stopped it (*exc = QEMU number,
 * *exc_pc = the instruction that raised it), -1 on an emulator error. */
int uc_side_run(uc_side *u, uint64_t until, uc_step_fn fn, void *ctx, int *exc, uint64_t *exc_pc);
void uc_side_stop(uc_side *u);
void uc_side_state(uc_side *u, orc_state *s);
int uc_side_read(uc_side *u, uint64_t addr, void *buf, unsigned len);
/* ExcCode for a QEMU exception number, or -1. */
int uc_excp_to_code(int excp);

/* ---- xb_side.c ---- */
typedef struct xb_side xb_side;
xb_side *xb_side_new(xerr *err);
/* engine: enum cpu_engine; mapped: the TLB instead of Status.ERL. */
xb_side *xb_side_new_mode(xerr *err, int engine, bool mapped);
/* Run n instructions: 0, or -1 if the CPU stopped for another reason. */
int xb_side_run(xb_side *x, uint64_t n);
uint64_t xb_side_retired(xb_side *x);
/* The translator's figures: ticks left to the interpreter, blocks
 * translated, blocks dropped because their code was written. */
void xb_side_jit(xb_side *x, uint64_t *interp, uint64_t *blocks, uint64_t *invalidated);
/* The translator's twin against the interpreter: false and why if not. */
bool xb_side_same(xb_side *a, xb_side *b, char *why, unsigned len);
void xb_side_free(xb_side *x);
int xb_side_load(xb_side *x, const orc_block *b);
/* Execute one instruction.  Returns 0, or the ExcCode + 1 of an exception
 * it took (xbow's PC is then at the vector). */
int xb_side_step(xb_side *x);
void xb_side_state(xb_side *x, orc_state *s);
/* Force state (used after an excluded instruction, see excl.c). */
void xb_side_set_state(xb_side *x, const orc_state *s, uint64_t status);
uint64_t xb_side_status(xb_side *x);
uint64_t xb_side_cp0(xb_side *x, unsigned n);
int xb_side_read(xb_side *x, uint64_t addr, void *buf, unsigned len);
int xb_side_write(xb_side *x, uint64_t addr, const void *buf, unsigned len);
void xb_side_disasm(uint64_t pc, uint32_t insn, char *buf, unsigned len);

/* ---- excl.c ---- */
/* What an exclusion lets differ. */
enum { IGN_NONE = 0, IGN_ALL = 1, IGN_FCSR_CAUSE = 2, IGN_FCSR = 4, IGN_FPR = 8 };

typedef struct orc_excl {
    const char *name;
    const char *reason;
    bool avoided; /* the generator does not produce it (listed for completeness) */
} orc_excl;
extern const orc_excl orc_excls[];
extern const unsigned orc_nexcls;

/* Context of one compared step. */
typedef struct orc_step {
    uint32_t insn;
    uint64_t pc;
    const orc_state *pre; /* both sides, before the instruction */
    const orc_state *uc;  /* Unicorn after */
    const orc_state *xb;  /* xbow after */
    bool fr;
    int xb_exc; /* ExcCode + 1 xbow took, 0 if none */
    int uc_exc; /* ExcCode + 1 Unicorn raised, 0 if none */
} orc_step;

/* Before the instruction runs: is it a case the generator should never
 * produce (UNPREDICTABLE)?  Returns an exclusion index or -1. */
int orc_excl_pre(uint32_t insn, const orc_state *pre, bool fr);
/* After it ran on both sides and the states differ: is the difference a
 * named, allowed one?  Returns an exclusion index (and *ign, what to resync)
 * or -1 (a real mismatch). */
int orc_excl_post(const orc_step *st, unsigned *ign);
/* " $f2=0x... $f4=0x..." : the FP operands as the instruction reads them. */
void orc_describe_fp(uint32_t insn, const orc_state *s, bool fr, char *buf, unsigned len);

#endif
