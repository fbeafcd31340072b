/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Unicorn side of the differential tester.
 *
 * Unicorn 2.0.1 (Debian 12's libunicorn2) needs three work-arounds, each
 * probed first and only applied when the plain API does not work:
 *
 * 1. CPU model.  Its MIPS64 build indexes its CPU table without skipping
 *    the 32-bit models that come first, so every UC_CPU_MIPS64_* model is a
 *    32-bit CPU (DADDU raises Reserved Instruction).  We copy the table
 *    entry named "5Kf" (MIPS64 Release 1 with an FPU: MIPS IV plus COP1X)
 *    over the slot UC_CPU_MIPS64_5KF selects, before opening the engine.
 *    The table is the exported symbol mips_defs_mips64; its entry size is
 *    found from the names of its first two entries ("4Kc", "4Km").
 * 2. Start address.  uc_emu_start() writes the 64-bit PC from a 32-bit
 *    local, so its upper half comes from the neighbouring stack slot, which
 *    in that build is the stack-protector canary.  On x86-64 we set the
 *    canary's low half to the PC's upper half for the duration of the call
 *    (the function doing it has no canary itself, and everything that saves
 *    the canary inside the call also checks it inside the call).
 * 3. FPU registers.  uc_reg_read() has no MIPS FPR or FCSR, so they are read
 *    from a saved context (uc_context_save() copies the CPU state): their
 *    offsets are found once by loading known values and searching for them,
 *    and checked against a second set of values.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <unicorn/unicorn.h>

#include "oracle.h"

struct uc_side {
    uc_engine *uc;
    uc_hook hcode, hintr;
    uc_context *ctx;
    uc_context *clean; /* CPU state with no branch pending, restored per block */
    size_t ctx_size;
    size_t fpr_off, fpr_stride, fcsr_off;
    int start_mode; /* 0 plain uc_emu_start, 1 with the canary fix */
    uc_step_fn fn;
    void *fn_ctx;
    uint64_t last_pc;
    int exc;
    bool stopped;
};

static int ids[35];
static bool ids_ready;

/* ---- Work-around 1: the MIPS64 CPU table ---------------------------------------- */

static int patch_cpu_table(xerr *err)
{
    char *defs = dlsym(RTLD_DEFAULT, "mips_defs_mips64");
    const int *num = dlsym(RTLD_DEFAULT, "mips_defs_number_mips64");
    if (!defs || !num) {
        xerr_set(err, "Unicorn runs a 32-bit CPU for MIPS64 and its CPU table is not exported");
        return -1;
    }
    const char *n0 = *(const char **)defs;
    if (!n0 || strcmp(n0, "4Kc") != 0) {
        xerr_set(err, "Unicorn's MIPS CPU table does not start with 4Kc");
        return -1;
    }
    size_t stride = 0;
    for (size_t s = 64; s <= 2048 && !stride; s += 8) {
        const char *n1 = *(const char **)(defs + s);
        uintptr_t d = (uintptr_t)n1 > (uintptr_t)n0 ? (uintptr_t)n1 - (uintptr_t)n0
                                                    : (uintptr_t)n0 - (uintptr_t)n1;
        if (d < 65536 && strcmp(n1, "4Km") == 0) /* a pointer near the first name */
            stride = s;
    }
    int src = -1;
    for (int i = 0; stride && i < *num; i++) {
        const char *n = *(const char **)(defs + (size_t)i * stride);
        if (n && strcmp(n, "5Kf") == 0)
            src = i;
    }
    if (src < 0) {
        xerr_set(err, "no 5Kf entry in Unicorn's MIPS CPU table");
        return -1;
    }
    long pg = sysconf(_SC_PAGESIZE);
    char *dst = defs + (size_t)UC_CPU_MIPS64_5KF * stride;
    uintptr_t a = (uintptr_t)dst & ~(uintptr_t)(pg - 1);
    if (mprotect((void *)a, (uintptr_t)(dst + stride) - a, PROT_READ | PROT_WRITE) != 0) {
        xerr_set(err, "cannot make Unicorn's CPU table writable");
        return -1;
    }
    memcpy(dst, defs + (size_t)src * stride, stride);
    return 0;
}

/* ---- Work-around 2: the start address ------------------------------------------- */

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((noinline, no_stack_protector)) static uc_err
start_canary(uc_engine *uc, uint64_t begin, uint64_t until)
{
    uint64_t saved, fixed;
    __asm__ volatile("movq %%fs:0x28, %0" : "=r"(saved));
    fixed = (saved & ~0xffffffffull) | (begin >> 32);
    __asm__ volatile("movq %0, %%fs:0x28" ::"r"(fixed) : "memory");
    uc_err e = uc_emu_start(uc, begin, until, 0, 0);
    __asm__ volatile("movq %0, %%fs:0x28" ::"r"(saved) : "memory");
    return e;
}
#define HAVE_CANARY_FIX 1
#else
#define HAVE_CANARY_FIX 0
#endif

static uc_err start(uc_side *u, uint64_t begin, uint64_t until)
{
#if HAVE_CANARY_FIX
    if (u->start_mode == 1)
        return start_canary(u->uc, begin, until);
#endif
    return uc_emu_start(u->uc, begin, until, 0, 0);
}

/* ---- Hooks ---------------------------------------------------------------------- */

static void hook_code(uc_engine *uc, uint64_t addr, uint32_t size, void *opaque)
{
    (void)uc;
    (void)size;
    uc_side *u = opaque;
    u->last_pc = addr;
    if (u->fn && !u->stopped)
        u->fn(u->fn_ctx, addr);
}

static void hook_intr(uc_engine *uc, uint32_t intno, void *opaque)
{
    uc_side *u = opaque;
    if (u->exc < 0)
        u->exc = (int)intno;
    u->stopped = true;
    uc_emu_stop(uc);
}

/* QEMU 5's MIPS exception numbers for the exceptions a block can raise. */
int uc_excp_to_code(int excp)
{
    switch (excp) {
    case 12: return 4;  /* EXCP_AdEL */
    case 13: return 5;  /* EXCP_AdES */
    case 17: return 8;  /* EXCP_SYSCALL */
    case 18: return 9;  /* EXCP_BREAK */
    case 19: return 11; /* EXCP_CpU */
    case 20: return 10; /* EXCP_RI */
    case 21: return 12; /* EXCP_OVERFLOW */
    case 22: return 13; /* EXCP_TRAP */
    case 23: return 15; /* EXCP_FPE */
    default: return -1;
    }
}

/* ---- Engine --------------------------------------------------------------------- */

static void put32(uint8_t *p, uint32_t w)
{
    p[0] = (uint8_t)(w >> 24);
    p[1] = (uint8_t)(w >> 16);
    p[2] = (uint8_t)(w >> 8);
    p[3] = (uint8_t)w;
}

static uc_engine *open_engine(void)
{
    uc_engine *uc;
    if (uc_open(UC_ARCH_MIPS, UC_MODE_MIPS64 | UC_MODE_BIG_ENDIAN, &uc) != UC_ERR_OK)
        return NULL;
    if (uc_ctl_set_cpu_model(uc, UC_CPU_MIPS64_5KF) != UC_ERR_OK ||
        uc_mem_map(uc, ORC_CODE_BASE, ORC_CODE_SIZE, UC_PROT_ALL) != UC_ERR_OK ||
        uc_mem_map(uc, ORC_DATA_BASE, 0x10000, UC_PROT_ALL) != UC_ERR_OK) {
        uc_close(uc);
        return NULL;
    }
    return uc;
}

static void set_status(uc_side *u, bool fr)
{
    /* CU1 | FR | BEV | ERL: kernel mode, kuseg unmapped. */
    uint64_t st = 0x20000000ull | (fr ? 0x04000000ull : 0) | 0x00400000ull | 0x4ull;
    uc_reg_write(u->uc, UC_MIPS_REG_CP0_STATUS, &st);
}

/* Run `n` words at ORC_CODE_BASE; returns the QEMU exception or -1. */
static int run_words(uc_side *u, const uint32_t *w, unsigned n)
{
    uint8_t buf[4 * 64];
    for (unsigned i = 0; i < n; i++)
        put32(buf + 4 * i, w[i]);
    uc_mem_write(u->uc, ORC_CODE_BASE, buf, 4 * n);
    uc_ctl_remove_cache(u->uc, ORC_CODE_BASE, ORC_CODE_BASE + 4ull * n);
    u->exc = -1;
    u->stopped = false;
    u->fn = NULL;
    u->last_pc = 0;
    start(u, ORC_CODE_BASE, ORC_CODE_BASE + 4 * n);
    return u->exc;
}

/* Which start method puts the PC where we asked? */
static bool probe_start(uc_side *u)
{
    static const uint32_t nop[2] = {0, 0};
    for (int mode = 0; mode <= HAVE_CANARY_FIX; mode++) {
        u->start_mode = mode;
        if (run_words(u, nop, 2) < 0 && u->last_pc == ORC_CODE_BASE + 4)
            return true;
    }
    return false;
}

/* Does the CPU model execute the MIPS IV instructions we need? */
static bool probe_isa(uc_side *u)
{
    static const uint32_t w[] = {
        0x0000082d, /* daddu at, zero, zero */
        0x0000080b, /* movn at, zero, zero */
        0x00000801, /* movf at, zero, $fcc0 */
        0x4c000021, /* madd.d $f0, $f0, $f0, $f0 */
        0x4f800001, /* ldxc1 $f0, zero(gp) */
        0x4f80000f, /* prefx 0, zero(gp) */
    };
    uint64_t gp = ORC_DATA_BASE;
    uc_reg_write(u->uc, UC_MIPS_REG_28, &gp);
    set_status(u, true);
    for (unsigned i = 0; i < sizeof w / sizeof w[0]; i++)
        if (run_words(u, &w[i], 1) >= 0)
            return false;
    return true;
}

/* Find the FPRs and the FCSR in the saved context. */
static bool calibrate(uc_side *u)
{
    uint8_t data[8 * 32];
    uint32_t w[40];
    unsigned n = 0;
    for (unsigned i = 0; i < 32; i++) {
        uint64_t v = 0xa55a3cc300000000ull | (uint64_t)(0x1234 + i * 0x1111) << 8 | (0x5a ^ i);
        for (int b = 0; b < 8; b++)
            data[8 * i + b] = (uint8_t)(v >> (56 - 8 * b));
        w[n++] = 0xd7800000u | i << 16 | 8 * i; /* ldc1 $fi, 8i(gp) */
    }
    w[n++] = 0x3c01fe80; /* lui at, 0xfe80 */
    w[n++] = 0x3421007f; /* ori at, at, 0x7f */
    w[n++] = 0x44c1f800; /* ctc1 at, $31 */
    uc_mem_write(u->uc, ORC_DATA_BASE, data, sizeof data);
    uint64_t gp = ORC_DATA_BASE;
    uc_reg_write(u->uc, UC_MIPS_REG_28, &gp);
    set_status(u, true);
    if (run_words(u, w, n) >= 0)
        return false;
    uc_context_save(u->uc, u->ctx);
    const uint8_t *c = (const uint8_t *)u->ctx;
    uint64_t f0 = 0xa55a3cc300000000ull | 0x1234ull << 8 | 0x5a;
    uint64_t f1 = 0xa55a3cc300000000ull | (uint64_t)(0x1234 + 0x1111) << 8 | (0x5a ^ 1);
    size_t o0 = 0, o1 = 0;
    for (size_t o = 0; o + 8 <= u->ctx_size && !o0; o += 4)
        if (memcmp(c + o, &f0, 8) == 0)
            o0 = o;
    for (size_t o = o0 + 8; o0 && o + 8 <= u->ctx_size && !o1; o += 4)
        if (memcmp(c + o, &f1, 8) == 0)
            o1 = o;
    if (!o0 || !o1 || o0 + 32 * (o1 - o0) > u->ctx_size)
        return false;
    u->fpr_off = o0;
    u->fpr_stride = o1 - o0;
    for (unsigned i = 0; i < 32; i++) {
        uint64_t v = 0xa55a3cc300000000ull | (uint64_t)(0x1234 + i * 0x1111) << 8 | (0x5a ^ i);
        if (memcmp(c + o0 + i * u->fpr_stride, &v, 8) != 0)
            return false;
    }
    uint32_t f31 = 0xfe80007f;
    u->fcsr_off = 0;
    for (size_t o = o0 + 32 * u->fpr_stride; o + 4 <= u->ctx_size && !u->fcsr_off; o += 4)
        if (memcmp(c + o, &f31, 4) == 0)
            u->fcsr_off = o;
    if (!u->fcsr_off)
        return false;
    /* Check with another value. */
    uint32_t w2[3] = {0x3c017e00, 0x34210003, 0x44c1f800}; /* FCSR = 0x7e000003 */
    if (run_words(u, w2, 3) >= 0)
        return false;
    uc_context_save(u->uc, u->ctx);
    uint32_t got;
    memcpy(&got, c + u->fcsr_off, 4);
    return got == 0x7e000003u;
}

static bool setup(uc_side *u, xerr *err)
{
    u->uc = open_engine();
    if (!u->uc) {
        xerr_set(err, "cannot open a Unicorn MIPS64 engine");
        return false;
    }
    uc_hook_add(u->uc, &u->hcode, UC_HOOK_CODE, (void *)hook_code, u, ORC_CODE_BASE,
                ORC_CODE_BASE + ORC_CODE_SIZE - 1);
    uc_hook_add(u->uc, &u->hintr, UC_HOOK_INTR, (void *)hook_intr, u, 1, 0);
    if (!probe_start(u)) {
        xerr_set(err, "Unicorn does not start at the requested 64-bit PC");
        return false;
    }
    return true;
}

uc_side *uc_side_new(xerr *err)
{
    if (!ids_ready) {
        for (int i = 0; i < 32; i++)
            ids[i] = UC_MIPS_REG_0 + i;
        ids[32] = UC_MIPS_REG_HI;
        ids[33] = UC_MIPS_REG_LO;
        ids[34] = UC_MIPS_REG_PC;
        ids_ready = true;
    }
    uc_side *u = calloc(1, sizeof *u);
    if (!u)
        return NULL;
    if (!setup(u, err))
        goto fail;
    if (!probe_isa(u)) {
        uc_close(u->uc);
        u->uc = NULL;
        if (patch_cpu_table(err) != 0)
            goto fail;
        if (!setup(u, err))
            goto fail;
        if (!probe_isa(u)) {
            xerr_set(err, "Unicorn's 5Kf model does not execute MIPS IV (DADDU, MOVN, MOVF, "
                          "MADD.D, LDXC1, PREFX)");
            goto fail;
        }
    }
    if (uc_context_alloc(u->uc, &u->ctx) != UC_ERR_OK) {
        xerr_set(err, "uc_context_alloc failed");
        goto fail;
    }
    u->ctx_size = uc_context_size(u->uc);
    if (!calibrate(u)) {
        xerr_set(err, "cannot find the FPU registers in Unicorn's saved context");
        goto fail;
    }
    /* An exception in a delay slot leaves QEMU's branch state set; every
     * block starts from this saved state instead. */
    if (uc_context_alloc(u->uc, &u->clean) != UC_ERR_OK ||
        uc_context_save(u->uc, u->clean) != UC_ERR_OK) {
        xerr_set(err, "uc_context_save failed");
        goto fail;
    }
    return u;
fail:
    uc_side_free(u);
    return NULL;
}

void uc_side_free(uc_side *u)
{
    if (!u)
        return;
    if (u->ctx)
        uc_context_free(u->ctx);
    if (u->clean)
        uc_context_free(u->clean);
    if (u->uc)
        uc_close(u->uc);
    free(u);
}

int uc_side_load(uc_side *u, const orc_block *b)
{
    uint8_t code[4 * ORC_MAX_INSNS + 64];
    for (unsigned i = 0; i < b->n + 16; i++) /* BREAK after the end: never run stale code */
        put32(code + 4 * i, i < b->n ? b->code[i] : 0x0000000d);
    if (uc_mem_write(u->uc, ORC_CODE_BASE, code, 4 * (b->n + 16)) != UC_ERR_OK ||
        uc_mem_write(u->uc, ORC_DATA_BASE, b->data, ORC_DATA_SIZE) != UC_ERR_OK)
        return -1;
    uc_ctl_remove_cache(u->uc, ORC_CODE_BASE, ORC_CODE_BASE + ORC_CODE_SIZE);
    uc_context_restore(u->uc, u->clean);
    set_status(u, b->cfg.fr);
    for (int i = 1; i < 32; i++)
        uc_reg_write(u->uc, UC_MIPS_REG_0 + i, &b->gpr[i]);
    uc_reg_write(u->uc, UC_MIPS_REG_HI, &b->hi);
    uc_reg_write(u->uc, UC_MIPS_REG_LO, &b->lo);
    uint64_t pc = ORC_CODE_BASE;
    uc_reg_write(u->uc, UC_MIPS_REG_PC, &pc);
    u->last_pc = 0;
    return 0;
}

int uc_side_run(uc_side *u, uint64_t until, uc_step_fn fn, void *ctx, int *exc, uint64_t *exc_pc)
{
    u->fn = fn;
    u->fn_ctx = ctx;
    u->exc = -1;
    u->stopped = false;
    uc_err e = start(u, ORC_CODE_BASE, until);
    u->fn = NULL;
    *exc = u->exc;
    *exc_pc = u->last_pc;
    if (u->exc >= 0)
        return 1;
    return e == UC_ERR_OK ? 0 : -1;
}

void uc_side_stop(uc_side *u)
{
    u->stopped = true;
    uc_emu_stop(u->uc);
}

void uc_side_state(uc_side *u, orc_state *s)
{
    void *ptrs[35];
    uint64_t v[35];
    for (int i = 0; i < 35; i++)
        ptrs[i] = &v[i];
    uc_reg_read_batch(u->uc, ids, ptrs, 35);
    memcpy(s->gpr, v, sizeof s->gpr);
    s->hi = v[32];
    s->lo = v[33];
    s->pc = v[34];
    uc_context_save(u->uc, u->ctx);
    const uint8_t *c = (const uint8_t *)u->ctx;
    for (int i = 0; i < 32; i++)
        memcpy(&s->fpr[i], c + u->fpr_off + (size_t)i * u->fpr_stride, 8);
    memcpy(&s->fcsr, c + u->fcsr_off, 4);
}

int uc_side_read(uc_side *u, uint64_t addr, void *buf, unsigned len)
{
    return uc_mem_read(u->uc, addr, buf, len) == UC_ERR_OK ? 0 : -1;
}
