/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The translator's code generator: a block of decoded slots into x86-64.
 *
 * A block is a run of instructions on one page, ending with a branch and
 * its delay slot, an instruction that changes the mode or always raises an
 * exception, the end of the page, or JIT_MAX_INSNS.  Its code:
 *
 *   entry:  add r15, N; cmp r15, c->limit; ja bail      (budget and kicks)
 *           ... the instructions, guest registers cached in host registers ...
 *           write the dirty registers back; jump to the next block
 *
 * Host registers: rbp = the cpu (plus BIAS, so that every GPR is a disp8
 * away), r15 = the clock (c->clock->now while the block runs, already
 * counting the whole block), r14 = a branch's decision or target saved
 * across its delay slot, rax/rcx/rdx scratch, and nine registers (rbx,
 * r12, r13, rsi, rdi, r8-r11) caching guest registers within the block:
 * loaded on first use, written back at the exits and before any call.
 *
 * Everything that is not the common case goes to cold code after the
 * block: soft-TLB misses, exceptions, the budget bail-out.  Such a path
 * writes the registers back, stores what the interpreter's SYNC() stores
 * (pc, in_ds, the clock at this instruction), calls a helper of jit.c
 * (which calls the same insn.h/mem.c/cp0.c functions as the interpreter),
 * and either comes back, or leaves the block: after an exception
 * (JH_EXC), or after the instruction when the CPU was kicked or code was
 * dropped (JH_STOP), giving back the budget of the instructions not run.
 *
 * Exits to a known pc on the same page are chainable: their jump goes to a
 * stub that returns the exit's record to jit_run(), which points the jump
 * at the target block once it exists.  Other exits (computed jumps, other
 * pages) go through a lookup stub that finds the target block through the
 * exec soft TLB and the page's table without leaving the generated code.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cpu/insn.h"
#include "cpu/jit.h"
#include "cpu/ops.h"

#if JIT_HOST

#include <cpuid.h>

#include "cpu/x86emit.h"

#define BIAS 128
#define COFF(f) ((int32_t)offsetof(cpu, f) - BIAS)
#define M(off) xm(X_RBP, (off))

enum { SEC_HOT, SEC_COLD };
/* Guest register numbers for the allocator: the GPRs, the sink, HI, LO. */
enum { GR_SINK = 32, GR_HI = 33, GR_LO = 34, NGR = 35 };
enum { END_FALL, END_BRANCH, END_SELF };

#define BUF_SIZE (48u << 10)
/* Room a block may need in the cache (both sections, aligned). */
#define BLOCK_ROOM (2 * BUF_SIZE + 64)
#define MAX_LABELS 1024
#define MAX_FIX 1024

typedef struct jins {
    dinsn d;
    uint64_t pc;
    bool ds;
} jins;

typedef struct jlabel {
    int sec;
    int32_t off;
} jlabel;

typedef struct jfix {
    uint8_t sec;
    uint32_t at;
    int lbl; /* >= 0: a label; -1: `to` */
    const void *to;
} jfix;

typedef struct jg {
    cpu *c;
    jit_cache *jc;
    jit_block *blk;
    xbuf buf[2];
    jins in[JIT_MAX_INSNS];
    unsigned n, end, flavor, mode;
    uint64_t vbase;
    bool movbe, bmi2;
    bool br_saved; /* the pending branch's decision/target is in r14 */
    /* register cache */
    int8_t host_of[NGR];
    int8_t guest_of[16];
    bool dirty[NGR];
    uint32_t age[16], tick;
    uint16_t pinned;
    uint64_t used, written; /* guest registers given a host register, written */
    uint64_t known;         /* guest registers whose value is kval[] (from LUI, LI ...) */
    uint64_t kval[NGR];
    bool spilled; /* a register was evicted or forgotten, or a call made */
    bool loop;    /* the block branches back to its start, to loop_top */
    int loop_top;
    /* labels and fix-ups */
    jlabel lbl[MAX_LABELS];
    int nlbl;
    jfix fix[MAX_FIX];
    int nfix;
    int exc_lbl[JIT_MAX_INSNS], stop_lbl[JIT_MAX_INSNS];
    struct {
        uint8_t sec;
        uint32_t at;
        int stub;
        uint64_t target;
    } exits[2];
    unsigned nexits;
    bool fail;
} jg;

/* Per host thread: with --threads every CPU translates on its own thread. */
static _Thread_local uint8_t hot_mem[BUF_SIZE], cold_mem[BUF_SIZE];

static void emit_lookup_inline(jg *g, int sec);

/* XBOW_JIT_PERFMAP=1: name each block by its guest pc in
 * /tmp/perf-PID.map, the file `perf report` reads for code it has no
 * symbols for (docs/performance.md, "Profiling the host"). */
static void perf_map(const uint8_t *code, size_t len, uint64_t pc)
{
    static FILE *map;
    static int on = -1;
    if (on < 0) {
        const char *e = getenv("XBOW_JIT_PERFMAP");
        on = e && *e && *e != '0';
        if (on) {
            char path[64];
            snprintf(path, sizeof path, "/tmp/perf-%ld.map", (long)getpid());
            map = fopen(path, "w");
            if (!map) {
                fprintf(stderr, "xbow: XBOW_JIT_PERFMAP: cannot write %s\n", path);
                on = 0;
            }
        }
    }
    if (on) {
        fprintf(map, "%lx %zx guest_%016llx\n", (unsigned long)(uintptr_t)code, len,
                (unsigned long long)pc);
        fflush(map);
    }
}

#define HOT (&g->buf[SEC_HOT])
#define COLD (&g->buf[SEC_COLD])

/* ---- Labels, jumps and calls ------------------------------------------------ */

static int label(jg *g)
{
    if (g->nlbl >= MAX_LABELS) {
        g->fail = true;
        return 0;
    }
    g->lbl[g->nlbl] = (jlabel){-1, -1};
    return g->nlbl++;
}

static void bind(jg *g, int l, int sec)
{
    g->lbl[l].sec = sec;
    g->lbl[l].off = (int32_t)g->buf[sec].len;
}

static void add_fix(jg *g, int sec, size_t at, int lbl, const void *to)
{
    if (g->nfix >= MAX_FIX) {
        g->fail = true;
        return;
    }
    g->fix[g->nfix++] = (jfix){(uint8_t)sec, (uint32_t)at, lbl, to};
}

/* Jump (cc < 0: always) to a label. */
static void jump(jg *g, int sec, int cc, int l)
{
    xbuf *b = &g->buf[sec];
    add_fix(g, sec, cc < 0 ? x_jmp32(b) : x_jcc32(b, cc), l, NULL);
}

static void jump_abs(jg *g, int sec, int cc, const void *to)
{
    xbuf *b = &g->buf[sec];
    add_fix(g, sec, cc < 0 ? x_jmp32(b) : x_jcc32(b, cc), -1, to);
}

/* Can a rel32 anywhere in the cache reach fn? */
static bool near(const jit_cache *jc, const void *fn)
{
    intptr_t lo = (intptr_t)fn - (intptr_t)jc->mem;
    intptr_t hi = (intptr_t)fn - (intptr_t)(jc->mem + jc->size);
    const intptr_t r = (intptr_t)1 << 31;
    return lo > -r + 64 && lo < r - 64 && hi > -r + 64 && hi < r - 64;
}

static void call(jg *g, int sec, const void *fn)
{
    xbuf *b = &g->buf[sec];
    if (near(g->jc, fn)) {
        add_fix(g, sec, x_call32(b), -1, fn);
    } else {
        x_mov_imm(b, X_RAX, (uint64_t)(uintptr_t)fn);
        x_call_r(b, X_RAX);
    }
}

/* First argument: the cpu. */
static void arg_cpu(xbuf *b) { x_lea(b, 64, X_RDI, M(-BIAS)); }

/* ---- The register cache ------------------------------------------------------- */

static const int8_t ra_order[] = {X_RBX, X_R12, X_R13, X_RSI, X_RDI, X_R8, X_R9, X_R10, X_R11};

static bool ra_volatile(int h) { return h != X_RBX && h != X_R12 && h != X_R13; }

static int32_t goff(unsigned r)
{
    if (r == GR_HI)
        return COFF(hi);
    if (r == GR_LO)
        return COFF(lo);
    return COFF(gpr) + 8 * (int32_t)r;
}

static void ra_init(jg *g)
{
    memset(g->host_of, -1, sizeof g->host_of);
    memset(g->guest_of, -1, sizeof g->guest_of);
    memset(g->dirty, 0, sizeof g->dirty);
    g->pinned = 0;
}

/* A free host register (evicting the least recently used unpinned one). */
static int ra_take(jg *g)
{
    int best = -1;
    uint32_t bage = UINT32_MAX;
    for (unsigned i = 0; i < sizeof ra_order; i++) {
        int h = ra_order[i];
        if (g->pinned & (1u << h))
            continue;
        if (g->guest_of[h] < 0)
            return h;
        if (g->age[h] < bage) {
            bage = g->age[h];
            best = h;
        }
    }
    if (best < 0) {
        g->fail = true;
        return X_RBX;
    }
    int r = g->guest_of[best];
    g->spilled = true;
    if (g->dirty[r])
        x_store(HOT, 64, M(goff((unsigned)r)), best);
    g->dirty[r] = false;
    g->host_of[r] = -1;
    g->guest_of[best] = -1;
    return best;
}

static void ra_use(jg *g, int h)
{
    g->pinned |= (uint16_t)(1u << h);
    g->age[h] = ++g->tick;
}

/* The host register holding guest register r (loaded on first use). */
static int rg(jg *g, unsigned r)
{
    int h = g->host_of[r];
    if (h < 0) {
        h = ra_take(g);
        if (r == 0)
            x_alu_rr(HOT, 32, ALU_XOR, h, h);
        else
            x_load(HOT, 64, h, M(goff(r)));
        g->used |= 1ull << r;
        g->host_of[r] = (int8_t)h;
        g->guest_of[h] = (int8_t)r;
        g->dirty[r] = false;
    }
    ra_use(g, h);
    return h;
}

/* A host register for a new value of guest register r (not loaded; call
 * ra_dirty once it holds the value). */
static int rw(jg *g, unsigned r)
{
    g->known &= ~(1ull << r);
    int h = g->host_of[r];
    if (h < 0) {
        h = ra_take(g);
        g->used |= 1ull << r;
        g->host_of[r] = (int8_t)h;
        g->guest_of[h] = (int8_t)r;
        g->dirty[r] = false;
    }
    ra_use(g, h);
    return h;
}

/* (Every write of a guest register ends with this: its value is no longer
 * known, see set_const.) */
static void ra_dirty(jg *g, unsigned r)
{
    g->dirty[r] = true;
    g->written |= 1ull << r;
    g->known &= ~(1ull << r);
}

static void ra_writeback(jg *g, int sec)
{
    for (unsigned r = 1; r < NGR; r++)
        if (g->host_of[r] >= 0 && g->dirty[r])
            x_store(&g->buf[sec], 64, M(goff(r)), g->host_of[r]);
}

static void ra_clean(jg *g) { memset(g->dirty, 0, sizeof g->dirty); }

/* After a call on a side path: the caller-saved registers get their guest
 * values back (they were written back before the call). */
static void ra_reload_volatile(jg *g, int sec)
{
    for (unsigned r = 0; r < NGR; r++) {
        int h = g->host_of[r];
        if (h < 0 || !ra_volatile(h))
            continue;
        if (r == 0)
            x_alu_rr(&g->buf[sec], 32, ALU_XOR, h, h);
        else
            x_load(&g->buf[sec], 64, h, M(goff(r)));
    }
}

static void ra_forget(jg *g, unsigned r)
{
    int h = g->host_of[r];
    g->spilled = true;
    g->known &= ~(1ull << r);
    if (h >= 0) {
        g->guest_of[h] = -1;
        g->host_of[r] = -1;
        g->dirty[r] = false;
    }
}

static void ra_forget_volatile(jg *g)
{
    for (unsigned r = 0; r < NGR; r++)
        if (g->host_of[r] >= 0 && ra_volatile(g->host_of[r]))
            ra_forget(g, r);
}

/* ---- What the interpreter's SYNC() stores, and the ways out --------------- */

static int32_t later(const jg *g, unsigned i) { return (int32_t)(g->n - i - 1); }

/* c->pc, c->in_ds and the clock as they are while instruction i runs. */
static void emit_sync(jg *g, int sec, unsigned i)
{
    xbuf *b = &g->buf[sec];
    uint64_t pc = g->in[i].pc;
    if (x_fits32((int64_t)pc)) {
        x_store_imm(b, 64, M(COFF(pc)), (int32_t)pc);
    } else {
        x_mov_imm(b, X_RAX, pc);
        x_store(b, 64, M(COFF(pc)), X_RAX);
    }
    x_store_imm(b, 8, M(COFF(in_ds)), g->in[i].ds ? 1 : 0);
    x_lea(b, 64, X_RAX, xm(X_R15, -later(g, i)));
    x_load(b, 64, X_RCX, M(COFF(clock)));
    x_store(b, 64, xm(X_RCX, (int32_t)offsetof(sched, now)), X_RAX);
}

/* Give back the budget of the instructions after i. */
static void emit_unspend(jg *g, xbuf *b, unsigned i)
{
    if (later(g, i))
        x_alu_ri(b, 64, ALU_SUB, X_R15, later(g, i));
}

static bool is_likely(const dinsn *d)
{
    return insn_branch_likely(d->op) || (d->op == OP_BC1 && (d->rt & 2));
}

static uint64_t branch_target(const jins *b)
{
    if (b->d.op == OP_J || b->d.op == OP_JAL)
        return insn_jump_target(b->pc, (uint64_t)(int64_t)b->d.imm);
    return b->pc + 4 + (uint64_t)(int64_t)b->d.imm;
}

/* The x86 condition under which conditional branch d is taken after
 * `cmp rs, rt` (or `cmp rs, 0`). */
static int branch_cc(unsigned op)
{
    switch (op) {
    case OP_BEQ:
    case OP_BEQL: return CC_E;
    case OP_BNE:
    case OP_BNEL: return CC_NE;
    case OP_BLEZ:
    case OP_BLEZL: return CC_LE;
    case OP_BGTZ:
    case OP_BGTZL: return CC_G;
    case OP_BLTZ:
    case OP_BLTZL:
    case OP_BLTZAL:
    case OP_BLTZALL: return CC_L;
    default: return CC_GE; /* BGEZ ... */
    }
}

static bool cmp_rt(unsigned op)
{
    return op == OP_BEQ || op == OP_BNE || op == OP_BEQL || op == OP_BNEL;
}

/* rdx = where execution goes after instruction i (the delay slot's branch
 * target when i is a delay slot), from memory or r14: for the ways out of
 * a side path, where the GPRs have been written back. */
static void emit_continuation(jg *g, xbuf *b, unsigned i)
{
    const jins *in = &g->in[i];
    if (!in->ds) {
        x_mov_imm(b, X_RDX, in->pc + 4);
        return;
    }
    const jins *br = &g->in[i - 1];
    unsigned op = br->d.op;
    if (op == OP_JR || op == OP_JALR) {
        if (g->br_saved)
            x_mov_rr(b, 64, X_RDX, X_R14);
        else
            x_load(b, 64, X_RDX, M(goff(br->d.rs)));
        return;
    }
    uint64_t t = branch_target(br);
    if (op == OP_J || op == OP_JAL || is_likely(&br->d)) {
        x_mov_imm(b, X_RDX, t);
        return;
    }
    x_mov_imm_nf(b, X_RDX, br->pc + 8);
    x_mov_imm_nf(b, X_RCX, t);
    if (g->br_saved) {
        x_test_rr(b, 8, X_R14, X_R14);
        x_cmov(b, 64, CC_NE, X_RDX, X_RCX);
    } else {
        x_load(b, 64, X_RAX, M(goff(br->d.rs)));
        if (cmp_rt(op))
            x_alu_rm(b, 64, ALU_CMP, X_RAX, M(goff(br->d.rt)));
        else
            x_alu_ri(b, 64, ALU_CMP, X_RAX, 0);
        x_cmov(b, 64, branch_cc(op), X_RDX, X_RCX);
    }
}

static int exc_label(jg *g, unsigned i)
{
    if (g->exc_lbl[i] < 0)
        g->exc_lbl[i] = label(g);
    return g->exc_lbl[i];
}

/* Where a helper's status (eax, not JH_OK) goes. */
static int status_label(jg *g, unsigned i)
{
    if (g->stop_lbl[i] < 0)
        g->stop_lbl[i] = label(g);
    return g->stop_lbl[i];
}

/* The exits of instruction i that were asked for, in the cold section:
 * the status of a helper (eax: JH_EXC, JH_STOP or JH_GO), and leaving after
 * an exception. */
static void emit_insn_exits(jg *g, unsigned i)
{
    if (g->stop_lbl[i] >= 0) {
        bind(g, g->stop_lbl[i], SEC_COLD);
        x_alu_ri(COLD, 32, ALU_CMP, X_RAX, JH_GO);
        int go = label(g);
        jump(g, SEC_COLD, CC_E, go);
        x_test_rr(COLD, 32, X_RAX, X_RAX);
        jump(g, SEC_COLD, CC_E, exc_label(g, i));
        emit_unspend(g, COLD, i);
        emit_continuation(g, COLD, i);
        x_mov_imm(COLD, X_RAX, JIT_RET_STOP);
        jump_abs(g, SEC_COLD, -1, g->jc->exit_pc);
        /* on at the exception vector (or ERET's pc), in this mode */
        bind(g, go, SEC_COLD);
        emit_unspend(g, COLD, i);
        x_load(COLD, 64, X_RDX, M(COFF(pc)));
        jump_abs(g, SEC_COLD, -1, g->jc->lookup[g->flavor]);
    }
    if (g->exc_lbl[i] >= 0) {
        bind(g, g->exc_lbl[i], SEC_COLD);
        emit_unspend(g, COLD, i);
        x_mov_imm(COLD, X_RAX, JIT_RET_EXC);
        jump_abs(g, SEC_COLD, -1, g->jc->exit_synced);
    }
}

/* A cold path raising exception `code` at instruction i; returns its label. */
static int cold_exception(jg *g, unsigned i, int code, bool ce)
{
    int l = label(g);
    bind(g, l, SEC_COLD);
    ra_writeback(g, SEC_COLD);
    emit_sync(g, SEC_COLD, i);
    arg_cpu(COLD);
    x_mov_imm(COLD, X_RSI, (uint64_t)code);
    call(g, SEC_COLD, ce ? (const void *)jh_exception_ce : (const void *)jh_exception);
    jump(g, SEC_COLD, -1, status_label(g, i));
    return l;
}

/* Raise it right here (the block ends). */
static void emit_exception(jg *g, unsigned i, int code, bool ce)
{
    jump(g, SEC_HOT, -1, cold_exception(g, i, code, ce));
}

/* A helper call in line: write everything back and sync; the caller then
 * puts the arguments in rsi, rdx, rcx (reading guest values from their
 * host registers, still valid), and hot_call_end() calls and checks the
 * status.  Guest registers in caller-saved host registers are forgotten. */
static void hot_call_begin(jg *g, unsigned i)
{
    g->spilled = true;
    ra_writeback(g, SEC_HOT);
    ra_clean(g);
    emit_sync(g, SEC_HOT, i);
}

static void hot_call_end(jg *g, unsigned i, const void *fn)
{
    arg_cpu(HOT);
    call(g, SEC_HOT, fn);
    ra_forget_volatile(g);
    x_alu_ri(HOT, 32, ALU_CMP, X_RAX, JH_OK);
    jump(g, SEC_HOT, CC_NE, status_label(g, i));
}

/* Leave the block to a known pc (cc >= 0: when cc holds).  Registers must
 * have been written back. */
static void emit_exit_to(jg *g, int cc, uint64_t target)
{
    if ((target & ~0xfffull) == g->vbase && g->nexits < 2) {
        unsigned k = g->nexits++;
        g->exits[k].sec = SEC_HOT;
        g->exits[k].at = (uint32_t)(cc < 0 ? x_jmp32(HOT) : x_jcc32(HOT, cc));
        g->exits[k].target = target;
        int stub = label(g);
        bind(g, stub, SEC_COLD);
        g->exits[k].stub = stub;
        x_mov_imm(COLD, X_RDX, target);
        x_mov_imm(COLD, X_RAX, (uint64_t)(uintptr_t)&g->blk->exits[k]);
        jump_abs(g, SEC_COLD, -1, g->jc->exit_pc);
        return;
    }
    xbuf *b = HOT;
    int sec = SEC_HOT;
    if (cc >= 0) {
        int l = label(g);
        jump(g, SEC_HOT, cc, l);
        bind(g, l, SEC_COLD);
        b = COLD;
        sec = SEC_COLD;
    }
    x_mov_imm(b, X_RDX, target);
    emit_lookup_inline(g, sec);
}

/* Leave the block when cc holds: write the registers back in the cold
 * section, give back the budget of the `unspent` instructions not run, and
 * go to target. */
static void emit_side_exit(jg *g, int cc, uint64_t target, int32_t unspent)
{
    int l = label(g);
    jump(g, SEC_HOT, cc, l);
    bind(g, l, SEC_COLD);
    ra_writeback(g, SEC_COLD);
    if (unspent)
        x_alu_ri(COLD, 64, ALU_SUB, X_R15, unspent);
    if ((target & ~0xfffull) == g->vbase && g->nexits < 2) {
        unsigned k = g->nexits++;
        g->exits[k].sec = SEC_COLD;
        g->exits[k].at = (uint32_t)x_jmp32(COLD);
        g->exits[k].target = target;
        int stub = label(g);
        bind(g, stub, SEC_COLD);
        g->exits[k].stub = stub;
        x_mov_imm(COLD, X_RDX, target);
        x_mov_imm(COLD, X_RAX, (uint64_t)(uintptr_t)&g->blk->exits[k]);
        jump_abs(g, SEC_COLD, -1, g->jc->exit_pc);
        return;
    }
    x_mov_imm(COLD, X_RDX, target);
    jump_abs(g, SEC_COLD, -1, g->jc->lookup[g->flavor]);
}

/* ---- Integer instructions ---------------------------------------------------- */

/* Is guest register r's value known at this point of the block? */
static bool konst(const jg *g, unsigned r, uint64_t *v)
{
    if (r == 0 || (g->known >> r & 1)) {
        *v = r ? g->kval[r] : 0;
        return true;
    }
    return false;
}

/* rd = v, known from here on (until rd is written again). */
static void set_const(jg *g, unsigned rd, uint64_t v)
{
    int hd = rw(g, rd);
    x_mov_imm(HOT, hd, v);
    ra_dirty(g, rd);
    g->known |= 1ull << rd;
    g->kval[rd] = v;
}

/* rd = guest register s (its low word sign-extended when `word`). */
static void copy_reg(jg *g, unsigned rd, unsigned s, bool word)
{
    if (s == 0) {
        set_const(g, rd, 0);
        return;
    }
    int hs = rg(g, s), hd = rw(g, rd);
    if (word)
        x_movsxd(HOT, hd, hs);
    else if (hd != hs)
        x_mov_rr(HOT, 64, hd, hs);
    ra_dirty(g, rd);
}

/* rd = op32(rs, rt), sign-extended. */
static void alu32(jg *g, const dinsn *d, int op)
{
    if (d->rd == GR_SINK)
        return;
    if (d->rt == 0 || (d->rs == 0 && op == ALU_ADD)) { /* sext32 (move) */
        copy_reg(g, d->rd, d->rt == 0 ? d->rs : d->rt, true);
        return;
    }
    int hs = rg(g, d->rs), ht = rg(g, d->rt), hd = rw(g, d->rd);
    if (op == ALU_ADD) {
        x_lea(HOT, 32, X_RAX, xmi(hs, ht, 1, 0));
    } else {
        x_mov_rr(HOT, 32, X_RAX, hs);
        x_alu_rr(HOT, 32, op, X_RAX, ht);
    }
    x_movsxd(HOT, hd, X_RAX);
    ra_dirty(g, d->rd);
}

/* rd = op64(rs, rt). */
static void alu64(jg *g, const dinsn *d, int op, bool commutes, bool invert)
{
    if (d->rd == GR_SINK)
        return;
    if (!invert && (d->rt == 0 || (d->rs == 0 && commutes))) { /* move, or 0 */
        unsigned other = d->rt == 0 ? d->rs : d->rt;
        copy_reg(g, d->rd, op == ALU_AND ? 0 : other, false);
        return;
    }
    int hs = rg(g, d->rs), ht = rg(g, d->rt), hd = rw(g, d->rd);
    if (op == ALU_ADD) {
        x_lea(HOT, 64, hd, xmi(hs, ht, 1, 0));
    } else if (hd == hs) {
        x_alu_rr(HOT, 64, op, hd, ht);
    } else if (hd == ht && commutes) {
        x_alu_rr(HOT, 64, op, hd, hs);
    } else if (hd == ht) {
        x_mov_rr(HOT, 64, X_RAX, hs);
        x_alu_rr(HOT, 64, op, X_RAX, ht);
        x_mov_rr(HOT, 64, hd, X_RAX);
    } else {
        x_mov_rr(HOT, 64, hd, hs);
        x_alu_rr(HOT, 64, op, hd, ht);
    }
    if (invert)
        x_f7(HOT, 64, 2, hd);
    ra_dirty(g, d->rd);
}

static void alu_imm(jg *g, const dinsn *d)
{
    if (d->rd == GR_SINK)
        return;
    int32_t imm = d->imm;
    uint64_t sx = (uint64_t)(int64_t)imm, v;
    if (d->op == OP_LUI) {
        set_const(g, d->rd, sx);
        return;
    }
    if (konst(g, d->rs, &v)) { /* LI, LUI + ORI ...: the interpreter's own arithmetic */
        set_const(g, d->rd, insn_alu(d->op, v, sx));
        return;
    }
    int hs = rg(g, d->rs), hd = rw(g, d->rd);
    switch (d->op) {
    case OP_ADDIU:
        x_lea(HOT, 32, X_RAX, xm(hs, imm));
        x_movsxd(HOT, hd, X_RAX);
        break;
    case OP_DADDIU: x_lea(HOT, 64, hd, xm(hs, imm)); break;
    case OP_ANDI:
        if (hd != hs)
            x_mov_rr(HOT, 32, hd, hs);
        x_alu_ri(HOT, 32, ALU_AND, hd, imm);
        break;
    case OP_ORI:
    case OP_XORI:
        if (hd != hs)
            x_mov_rr(HOT, 64, hd, hs);
        if (imm)
            x_alu_ri(HOT, 64, d->op == OP_ORI ? ALU_OR : ALU_XOR, hd, imm);
        break;
    default: /* SLTI, SLTIU */
        if (hd != hs) {
            x_alu_rr(HOT, 32, ALU_XOR, hd, hd);
            x_alu_ri(HOT, 64, ALU_CMP, hs, imm);
            x_setcc(HOT, d->op == OP_SLTI ? CC_L : CC_B, hd);
        } else {
            x_alu_rr(HOT, 32, ALU_XOR, X_RAX, X_RAX);
            x_alu_ri(HOT, 64, ALU_CMP, hs, imm);
            x_setcc(HOT, d->op == OP_SLTI ? CC_L : CC_B, X_RAX);
            x_mov_rr(HOT, 64, hd, X_RAX);
        }
        break;
    }
    ra_dirty(g, d->rd);
}

static void slt(jg *g, const dinsn *d)
{
    if (d->rd == GR_SINK)
        return;
    int hs = rg(g, d->rs), ht = rg(g, d->rt), hd = rw(g, d->rd);
    int cc = d->op == OP_SLT ? CC_L : CC_B;
    if (hd != hs && hd != ht) {
        x_alu_rr(HOT, 32, ALU_XOR, hd, hd);
        x_alu_rr(HOT, 64, ALU_CMP, hs, ht);
        x_setcc(HOT, cc, hd);
    } else {
        x_alu_rr(HOT, 32, ALU_XOR, X_RAX, X_RAX);
        x_alu_rr(HOT, 64, ALU_CMP, hs, ht);
        x_setcc(HOT, cc, X_RAX);
        x_mov_rr(HOT, 64, hd, X_RAX);
    }
    ra_dirty(g, d->rd);
}

static void shift(jg *g, const dinsn *d)
{
    if (d->rd == GR_SINK)
        return;
    unsigned op = d->op;
    bool wide = op >= OP_DSLL && op <= OP_DSRAV;
    bool var = op_fmt_in(op, OFMT(F_SHV));
    int sh;
    switch (op) {
    case OP_SLL:
    case OP_SLLV:
    case OP_DSLL:
    case OP_DSLL32:
    case OP_DSLLV: sh = SH_SHL; break;
    case OP_SRL:
    case OP_SRLV:
    case OP_DSRL:
    case OP_DSRL32:
    case OP_DSRLV: sh = SH_SHR; break;
    default: sh = SH_SAR; break;
    }
    int ht = rg(g, d->rt), hs = var ? rg(g, d->rs) : -1, hd = rw(g, d->rd);
    xbuf *b = HOT;
    if (var) {
        /* (x86 masks cl as MIPS masks rs: 63 for 64 bits, 31 for 32) */
        x_mov_rr(b, 32, X_RCX, hs);
        if (wide) {
            if (hd != ht)
                x_mov_rr(b, 64, hd, ht);
            x_shift_rcl(b, 64, sh, hd);
        } else {
            x_mov_rr(b, 32, X_RAX, ht);
            x_shift_rcl(b, 32, sh, X_RAX);
            x_movsxd(b, hd, X_RAX);
        }
    } else if (wide) {
        if (hd != ht)
            x_mov_rr(b, 64, hd, ht);
        if (d->sa & 63)
            x_shift_ri(b, 64, sh, hd, d->sa & 63);
    } else {
        unsigned sa = d->sa & 31;
        if (sa == 0) { /* the low word sign-extended */
            x_movsxd(b, hd, ht);
        } else if (sh == SH_SAR) { /* the same on the sign-extended word */
            x_movsxd(b, hd, ht);
            x_shift_ri(b, 64, SH_SAR, hd, (int)sa);
        } else if (sh == SH_SHR) { /* bit 31 of the result is clear */
            x_mov_rr(b, 32, hd, ht);
            x_shift_ri(b, 32, SH_SHR, hd, (int)sa);
        } else {
            x_mov_rr(b, 32, hd, ht);
            x_shift_ri(b, 32, SH_SHL, hd, (int)sa);
            x_movsxd(b, hd, hd);
        }
    }
    ra_dirty(g, d->rd);
}

/* ADD, SUB, ADDI, DADD, DSUB, DADDI: Integer Overflow leaves rd alone. */
static void alu_ov(jg *g, unsigned i, const dinsn *d)
{
    unsigned op = d->op;
    bool wide = op == OP_DADD || op == OP_DSUB || op == OP_DADDI;
    bool imm = op == OP_ADDI || op == OP_DADDI;
    int size = wide ? 64 : 32;
    int hs = rg(g, d->rs), ht = imm ? -1 : rg(g, d->rt);
    int hd = d->rd != GR_SINK ? rw(g, d->rd) : -1;
    int aop = op == OP_SUB || op == OP_DSUB ? ALU_SUB : ALU_ADD;
    x_mov_rr(HOT, size, X_RAX, hs);
    if (imm)
        x_alu_ri(HOT, size, aop, X_RAX, d->imm);
    else
        x_alu_rr(HOT, size, aop, X_RAX, ht);
    jump(g, SEC_HOT, CC_O, cold_exception(g, i, EXC_OV, false));
    if (hd >= 0) {
        if (wide)
            x_mov_rr(HOT, 64, hd, X_RAX);
        else
            x_movsxd(HOT, hd, X_RAX);
        ra_dirty(g, d->rd);
    }
}

static void trap(jg *g, unsigned i, const dinsn *d)
{
    unsigned op = d->op;
    bool imm = op >= OP_TGEI && op <= OP_TNEI;
    int hs = rg(g, d->rs), ht = imm ? -1 : rg(g, d->rt);
    if (imm)
        x_alu_ri(HOT, 64, ALU_CMP, hs, d->imm);
    else
        x_alu_rr(HOT, 64, ALU_CMP, hs, ht);
    int cc;
    switch (op) {
    case OP_TGE:
    case OP_TGEI: cc = CC_GE; break;
    case OP_TGEU:
    case OP_TGEIU: cc = CC_AE; break;
    case OP_TLT:
    case OP_TLTI: cc = CC_L; break;
    case OP_TLTU:
    case OP_TLTIU: cc = CC_B; break;
    case OP_TEQ:
    case OP_TEQI: cc = CC_E; break;
    default: cc = CC_NE; break;
    }
    jump(g, SEC_HOT, cc, cold_exception(g, i, EXC_TR, false));
}

/* LO = RAX, HI = RDX: a 32-bit result sign-extended. */
static void put_lo_hi(xbuf *b, int sz, int hlo, int hhi)
{
    if (sz == 32) {
        x_movsxd(b, hlo, X_RAX);
        x_movsxd(b, hhi, X_RDX);
    } else {
        x_mov_rr(b, 64, hlo, X_RAX);
        x_mov_rr(b, 64, hhi, X_RDX);
    }
}

static void muldiv(jg *g, const dinsn *d)
{
    unsigned op = d->op;
    int hs = rg(g, d->rs), ht = rg(g, d->rt);
    int hlo = rw(g, GR_LO), hhi = rw(g, GR_HI);
    xbuf *b = HOT;
    switch (op) {
    case OP_MULT:
    case OP_MULTU:
        if (op == OP_MULT) {
            x_movsxd(b, X_RAX, hs);
            x_movsxd(b, X_RCX, ht);
        } else {
            x_mov_rr(b, 32, X_RAX, hs);
            x_mov_rr(b, 32, X_RCX, ht);
        }
        x_imul_rr(b, 64, X_RAX, X_RCX);
        x_movsxd(b, hlo, X_RAX);
        x_shift_ri(b, 64, op == OP_MULT ? SH_SAR : SH_SHR, X_RAX, 32);
        x_movsxd(b, hhi, X_RAX);
        break;
    case OP_DMULT:
    case OP_DMULTU:
        x_mov_rr(b, 64, X_RAX, hs);
        x_f7(b, 64, op == OP_DMULT ? 5 : 4, ht);
        put_lo_hi(b, 64, hlo, hhi);
        break;
    case OP_DIV:
    case OP_DDIV: {
        int sz = op == OP_DIV ? 32 : 64;
        x_mov_rr(b, sz, X_RAX, hs);
        x_mov_rr(b, sz, X_RCX, ht);
        x_test_rr(b, sz, X_RCX, X_RCX);
        size_t z = x_jcc8(b, CC_E);
        x_alu_ri(b, sz, ALU_CMP, X_RCX, -1);
        size_t nm = x_jcc8(b, CC_NE);
        if (sz == 32) {
            x_alu_ri(b, 32, ALU_CMP, X_RAX, INT32_MIN);
        } else {
            x_mov_imm(b, X_RDX, 0x8000000000000000ull);
            x_alu_rr(b, 64, ALU_CMP, X_RAX, X_RDX);
        }
        size_t z2 = x_jcc8(b, CC_E);
        x_patch8(b, nm);
        if (sz == 32)
            x_cdq(b);
        else
            x_cqo(b);
        x_f7(b, sz, 7, X_RCX);
        size_t done = x_jmp8(b);
        x_patch8(b, z);
        x_patch8(b, z2);
        x_alu_rr(b, 32, ALU_XOR, X_RDX, X_RDX); /* x / 0, MIN / -1: LO = x, HI = 0 */
        x_patch8(b, done);
        put_lo_hi(b, sz, hlo, hhi);
        break;
    }
    default: { /* DIVU, DDIVU: x / 0 divides by 1 */
        int sz = op == OP_DIVU ? 32 : 64;
        x_mov_rr(b, sz, X_RAX, hs);
        x_mov_rr(b, sz, X_RCX, ht);
        x_mov_imm(b, X_RDX, 1);
        x_test_rr(b, sz, X_RCX, X_RCX);
        x_cmov(b, sz, CC_E, X_RCX, X_RDX);
        x_alu_rr(b, 32, ALU_XOR, X_RDX, X_RDX);
        x_f7(b, sz, 6, X_RCX);
        put_lo_hi(b, sz, hlo, hhi);
        break;
    }
    }
    ra_dirty(g, GR_LO);
    ra_dirty(g, GR_HI);
}

/* ---- Loads and stores ------------------------------------------------------- */

/* The soft TLB's fast path for va = base + imm: rax = va's slot * 16; jump
 * to `miss` unless the entry of table `toff` maps it with this size and
 * alignment; then rcx = the addend, and the host address is the returned
 * operand, base + rcx + imm.  (The base register is left alone: the miss
 * paths take va from it again, see va_to_rsi.)  With BMI2, RORX takes the
 * slot bits without a copy of va. */
_Static_assert(((STLB_SIZE - 1) << 4) < (1u << (32 - (RAM_PAGE_SHIFT - 4))),
               "the slot bits do not overlap the bits RORX rotates in");
static xmem emit_tlb_check(jg *g, int hbase, int32_t imm, int32_t toff, unsigned size, int miss)
{
    xbuf *b = HOT;
    if (imm)
        x_lea(b, 64, X_RCX, xm(hbase, imm));
    else
        x_mov_rr(b, 64, X_RCX, hbase);
    int va = imm ? X_RCX : hbase;
    if (g->bmi2) {
        x_rorx(b, 32, X_RAX, va, RAM_PAGE_SHIFT - 4);
    } else {
        x_mov_rr(b, 32, X_RAX, va);
        x_shift_ri(b, 32, SH_SHR, X_RAX, RAM_PAGE_SHIFT - 4);
    }
    x_alu_ri(b, 32, ALU_AND, X_RAX, (STLB_SIZE - 1) << 4);
    x_alu_ri(b, 64, ALU_AND, X_RCX, (int32_t)(~(uint32_t)(RAM_PAGE_SIZE - 1) | (size - 1)));
    x_alu_rm(b, 64, ALU_CMP, X_RCX, xmi(X_RBP, X_RAX, 1, toff));
    jump(g, SEC_HOT, CC_NE, miss);
    x_load(b, 64, X_RCX, xmi(X_RBP, X_RAX, 1, toff + 8));
    return xmi(hbase, X_RCX, 1, imm);
}

/* rsi = va = base + imm, on a side path (before arg_cpu, which takes rdi). */
static void va_to_rsi(jg *g, int hbase, int32_t imm)
{
    if (imm)
        x_lea(COLD, 64, X_RSI, xm(hbase, imm));
    else if (hbase != X_RSI)
        x_mov_rr(COLD, 64, X_RSI, hbase);
}

static int32_t tlb_off(const jg *g, bool write)
{
    int32_t set = COFF(sets) + (int32_t)(g->mode * sizeof(stlb_set));
    return set + (int32_t)(write ? offsetof(stlb_set, w) : offsetof(stlb_set, r));
}

/* A load's miss path (cold): the helper `fn` does the access with `code` in
 * rdx and writes rd in memory; rd is then reloaded and the block goes on at
 * `join`. */
static void load_miss(jg *g, unsigned i, const dinsn *d, int hb, int hd, int miss, int join,
                      uint64_t code, const void *fn)
{
    bind(g, miss, SEC_COLD);
    ra_writeback(g, SEC_COLD);
    emit_sync(g, SEC_COLD, i);
    va_to_rsi(g, hb, d->imm);
    arg_cpu(COLD);
    x_mov_imm(COLD, X_RDX, code);
    call(g, SEC_COLD, fn);
    x_alu_ri(COLD, 32, ALU_CMP, X_RAX, JH_OK);
    jump(g, SEC_COLD, CC_NE, status_label(g, i));
    ra_reload_volatile(g, SEC_COLD);
    if (d->rd != GR_SINK)
        x_load(COLD, 64, hd, M(goff(d->rd)));
    jump(g, SEC_COLD, -1, join);
    if (d->rd != GR_SINK)
        ra_dirty(g, d->rd);
}

static void load(jg *g, unsigned i, const dinsn *d)
{
    unsigned op = d->op, size = insn_mem_size(op);
    int hb = rg(g, d->rs);
    int hd = d->rd != GR_SINK ? rw(g, d->rd) : X_RAX;
    int miss = label(g), join = label(g);
    xmem m = emit_tlb_check(g, hb, d->imm, tlb_off(g, false), size, miss);
    xbuf *b = HOT;
    switch (op) {
    case OP_LB: x_loadsx(b, 8, hd, m); break;
    case OP_LBU: x_loadzx(b, 8, hd, m); break;
    case OP_LH:
    case OP_LHU:
        x_loadzx(b, 16, X_RAX, m);
        x_shift_ri(b, 16, SH_ROL, X_RAX, 8);
        if (op == OP_LH)
            x_movsx16(b, hd, X_RAX);
        else
            x_movzx16(b, hd, X_RAX);
        break;
    case OP_LW:
        if (g->movbe) {
            x_movbe_load(b, 32, X_RAX, m);
        } else {
            x_load(b, 32, X_RAX, m);
            x_bswap(b, 32, X_RAX);
        }
        x_movsxd(b, hd, X_RAX);
        break;
    case OP_LWU:
        if (g->movbe) {
            x_movbe_load(b, 32, hd, m);
        } else {
            x_load(b, 32, hd, m);
            x_bswap(b, 32, hd);
        }
        break;
    default: /* LD */
        if (g->movbe) {
            x_movbe_load(b, 64, hd, m);
        } else {
            x_load(b, 64, hd, m);
            x_bswap(b, 64, hd);
        }
        break;
    }
    bind(g, join, SEC_HOT);
    /* The miss: jh_load() writes the register in memory. */
    load_miss(g, i, d, hb, hd, miss, join, op | (unsigned)d->rd << 8, (const void *)jh_load);
}

static void store(jg *g, unsigned i, const dinsn *d)
{
    unsigned op = d->op, size = insn_mem_size(op);
    int hb = rg(g, d->rs), hv = rg(g, d->rt);
    int miss = label(g), join = label(g), link = label(g);
    xmem m = emit_tlb_check(g, hb, d->imm, tlb_off(g, true), size, miss);
    xbuf *b = HOT;
    switch (size) {
    case 1: x_store(b, 8, m, hv); break;
    case 2:
        x_mov_rr(b, 32, X_RAX, hv);
        x_shift_ri(b, 16, SH_ROL, X_RAX, 8);
        x_store(b, 16, m, X_RAX);
        break;
    default:
        if (g->movbe) {
            x_movbe_store(b, (int)size * 8, m, hv);
        } else {
            x_mov_rr(b, (int)size * 8, X_RAX, hv);
            x_bswap(b, (int)size * 8, X_RAX);
            x_store(b, (int)size * 8, m, X_RAX);
        }
        break;
    }
    /* Another initiator's LL link on the line breaks (fast_store_link).
     * The group's bus is the CPU's: its count is addressed directly when
     * the cache can reach it. */
    const unsigned *nlinks = &g->c->group->b->nlinks;
    if (g->c->bus == g->c->group->b && near(g->jc, nlinks)) {
        add_fix(g, SEC_HOT, x_cmp32_rip_i8(b, 0), -1, (const uint8_t *)nlinks - 1);
    } else {
        x_load(b, 64, X_RAX, M(COFF(bus)));
        x_alu_mi(b, 32, ALU_CMP, xm(X_RAX, (int32_t)offsetof(bus, nlinks)), 0);
    }
    jump(g, SEC_HOT, CC_NE, link);
    bind(g, join, SEC_HOT);
    bind(g, link, SEC_COLD);
    ra_writeback(g, SEC_COLD);
    va_to_rsi(g, hb, d->imm);
    arg_cpu(COLD);
    x_mov_imm(COLD, X_RDX, size);
    call(g, SEC_COLD, (const void *)jh_link_store);
    ra_reload_volatile(g, SEC_COLD);
    jump(g, SEC_COLD, -1, join);
    /* the miss */
    bind(g, miss, SEC_COLD);
    ra_writeback(g, SEC_COLD);
    emit_sync(g, SEC_COLD, i);
    va_to_rsi(g, hb, d->imm);
    arg_cpu(COLD);
    if (d->rt)
        x_load(COLD, 64, X_RDX, M(goff(d->rt)));
    else
        x_alu_rr(COLD, 32, ALU_XOR, X_RDX, X_RDX);
    x_mov_imm(COLD, X_RCX, size);
    call(g, SEC_COLD, (const void *)jh_store);
    x_alu_ri(COLD, 32, ALU_CMP, X_RAX, JH_OK);
    jump(g, SEC_COLD, CC_NE, status_label(g, i));
    ra_reload_volatile(g, SEC_COLD);
    jump(g, SEC_COLD, -1, join);
}

/* rsi = the effective address (base + imm, or base + index). */
static void ea_to_rsi(jg *g, const dinsn *d, bool indexed, int hb, int hx)
{
    if (indexed)
        x_lea(HOT, 64, X_RSI, xmi(hb, hx, 1, 0));
    else
        x_lea(HOT, 64, X_RSI, xm(hb, d->imm));
}

/* LWL, LWR, LDL, LDR: the aligned word or doubleword through the inline
 * soft TLB, merged with rt as insn_load_partial() does (Linux's copy
 * routines run on them); a miss calls the helper. */
static void load_merge(jg *g, unsigned i, const dinsn *d)
{
    unsigned op = d->op, size = op == OP_LDL || op == OP_LDR ? 8 : 4;
    bool left = op == OP_LWL || op == OP_LDL;
    int sz = (int)size * 8;
    int hb = rg(g, d->rs), ho = rg(g, d->rt);
    int hd = d->rd != GR_SINK ? rw(g, d->rd) : X_RAX;
    int miss = label(g), join = label(g);
    xbuf *b = HOT;
    x_lea(b, 64, X_RDX, xm(hb, d->imm));
    x_alu_ri(b, 64, ALU_AND, X_RDX, -(int32_t)size);
    emit_tlb_check(g, X_RDX, 0, tlb_off(g, false), size, miss);
    xmem m = xmi(X_RDX, X_RCX, 1, 0);
    if (g->movbe) {
        x_movbe_load(b, sz, X_RAX, m);
    } else {
        x_load(b, sz, X_RAX, m);
        x_bswap(b, sz, X_RAX);
    }
    /* cl = 8 * the byte offset (left), 8 * the bytes after it (right) */
    x_lea(b, 32, X_RCX, xm(hb, d->imm));
    x_alu_ri(b, 32, ALU_AND, X_RCX, (int32_t)size - 1);
    if (!left)
        x_alu_ri(b, 32, ALU_XOR, X_RCX, (int32_t)size - 1);
    x_shift_ri(b, 32, SH_SHL, X_RCX, 3);
    if (left) { /* w << cl | rt & ((1 << cl) - 1) */
        x_shift_rcl(b, sz, SH_SHL, X_RAX);
        x_mov_imm(b, X_RDX, 1);
        x_shift_rcl(b, sz, SH_SHL, X_RDX);
        x_alu_ri(b, sz, ALU_SUB, X_RDX, 1);
    } else { /* w >> cl | rt & ~(~0 >> cl) */
        x_shift_rcl(b, sz, SH_SHR, X_RAX);
        x_mov_imm(b, X_RDX, ~0ull);
        x_shift_rcl(b, sz, SH_SHR, X_RDX);
        x_f7(b, sz, 2, X_RDX); /* not */
    }
    x_alu_rr(b, sz, ALU_AND, X_RDX, ho);
    x_alu_rr(b, sz, ALU_OR, X_RAX, X_RDX);
    if (size == 4)
        x_movsxd(b, hd, X_RAX);
    else if (hd != X_RAX)
        x_mov_rr(b, 64, hd, X_RAX);
    bind(g, join, SEC_HOT);
    /* The miss: jh_mem_other() writes the register in memory. */
    load_miss(g, i, d, hb, hd, miss, join, op | (unsigned)d->rd << 8 | (unsigned)d->rt << 16,
              (const void *)jh_mem_other);
}

/* LWL ... SDR, LL/SC, FP loads and stores: a helper in line. */
static void mem_call(jg *g, unsigned i, const dinsn *d)
{
    unsigned op = d->op;
    if (op == OP_LWL || op == OP_LWR || op == OP_LDL || op == OP_LDR) {
        load_merge(g, i, d);
        return;
    }
    bool fp = op == OP_LWC1 || op == OP_LDC1 || op == OP_SWC1 || op == OP_SDC1 || op == OP_LWXC1 ||
              op == OP_LDXC1 || op == OP_SWXC1 || op == OP_SDXC1;
    bool indexed = op == OP_LWXC1 || op == OP_LDXC1 || op == OP_SWXC1 || op == OP_SDXC1;
    int hb = rg(g, d->rs), hx = indexed ? rg(g, d->rt) : -1;
    hot_call_begin(g, i);
    ea_to_rsi(g, d, indexed, hb, hx);
    if (fp)
        x_mov_imm(HOT, X_RDX, op | (unsigned)d->sa << 8);
    else
        x_mov_imm(HOT, X_RDX, op | (unsigned)d->rd << 8 | (unsigned)d->rt << 16);
    hot_call_end(g, i, fp ? (const void *)jh_fpmem : (const void *)jh_mem_other);
    switch (op) {
    case OP_LWL:
    case OP_LWR:
    case OP_LDL:
    case OP_LDR:
    case OP_LL:
    case OP_LLD: ra_forget(g, d->rd); break;
    case OP_SC:
    case OP_SCD: ra_forget(g, d->rt); break;
    default: break;
    }
}

/* ---- System instructions ---------------------------------------------------- */

static void cp0_call(jg *g, unsigned i, const dinsn *d)
{
    hot_call_begin(g, i);
    x_mov_imm(HOT, X_RSI,
              d->op | (unsigned)d->rd << 8 | (unsigned)d->rt << 16 | (unsigned)d->sa << 24);
    x_mov_imm(HOT, X_RDX, (uint64_t)(uint32_t)d->imm);
    hot_call_end(g, i, (const void *)jh_cp0);
    if (d->op == OP_MFC0 || d->op == OP_DMFC0)
        ra_forget(g, d->rd);
}

/* MFC0 and DMFC0 of a register that reading does not change or compute
 * (not Random, Count, Compare or the performance counters: jh_cp0 reads
 * those), and MTC0 and DMTC0 of Status that change only IE and IM without
 * making an interrupt deliverable (Linux's local_irq_save and _restore,
 * about 130 a jumbo datagram): what cp0_read() and set_status() do, in
 * line.  Anything else (another register, a change of the mode bits, an
 * interrupt to take, performance counters to account) goes to jh_cp0 in
 * the cold section.  False: not translated here (the caller calls). */
static bool cp0_inline(jg *g, unsigned i, const dinsn *d)
{
    bool wide = d->op == OP_DMFC0 || d->op == OP_DMTC0;
    unsigned reg = d->sa & 31;
    if (d->op != OP_MFC0 && d->op != OP_DMFC0 && d->op != OP_MTC0 && d->op != OP_DMTC0)
        return false;
    if (wide && !(g->flavor & 4))
        return false; /* (Reserved Instruction) */
    if (d->op == OP_MFC0 || d->op == OP_DMFC0) {
        if (reg == CP0_RANDOM || reg == CP0_COUNT || reg == CP0_COMPARE || reg == CP0_PERF)
            return false;
    } else if (reg != CP0_STATUS) {
        return false;
    }
    if (g->mode != MODE_KERNEL) { /* (kernel mode: CP0 is usable) */
        x_alu_mi(HOT, 8, ALU_CMP, M(COFF(cu0)), 0);
        jump(g, SEC_HOT, CC_E, cold_exception(g, i, 0, true));
    }
    if (d->op == OP_MFC0 || d->op == OP_DMFC0) {
        if (d->rd == GR_SINK)
            return true;
        int hd = rw(g, d->rd);
        int32_t off = reg == CP0_STATUS  ? COFF(status)
                      : reg == CP0_CAUSE ? COFF(cause)
                                         : COFF(cp0) + (int32_t)(8 * reg);
        if (reg == CP0_PRID)
            x_mov_imm(HOT, hd, PRID_R10000);
        else if (wide)
            x_load(HOT, 64, hd, M(off));
        else
            x_loadsx(HOT, 32, hd, M(off));
        ra_dirty(g, d->rd);
        return true;
    }
    /* MTC0/DMTC0 Status: the new value (set_status keeps the low 32 bits,
     * MTC0's sign extension included) in eax, the bits it changes in ecx. */
    int slow = label(g), join = label(g);
    int hs = rg(g, d->rt);
    x_mov_rr(HOT, 32, X_RAX, hs);
    x_mov_rr(HOT, 32, X_RCX, X_RAX);
    x_alu_rm(HOT, 64, ALU_XOR, X_RCX, M(COFF(status)));
    x_test_ri(HOT, 64, X_RCX, (int32_t) ~(uint32_t)(ST_IE | ST_IM));
    jump(g, SEC_HOT, CC_NE, slow);
    x_load(HOT, 64, X_RCX, M(COFF(perf_ctl)));
    x_alu_rm(HOT, 64, ALU_OR, X_RCX, M(COFF(perf_ctl) + 8));
    jump(g, SEC_HOT, CC_NE, slow);
    /* An interrupt deliverable after the write (cpu_irq_pending): the
     * helper kicks the CPU. */
    x_test_ri(HOT, 32, X_RAX, (int32_t)ST_IE);
    int quiet = label(g);
    jump(g, SEC_HOT, CC_E, quiet);
    x_test_ri(HOT, 32, X_RAX, (int32_t)(ST_EXL | ST_ERL));
    jump(g, SEC_HOT, CC_NE, quiet);
    x_load(HOT, 64, X_RCX, M(COFF(cause)));
    x_alu_rr(HOT, 64, ALU_AND, X_RCX, X_RAX);
    x_test_ri(HOT, 32, X_RCX, (int32_t)ST_IM);
    jump(g, SEC_HOT, CC_NE, slow);
    bind(g, quiet, SEC_HOT);
    x_store(HOT, 64, M(COFF(status)), X_RAX);
    bind(g, join, SEC_HOT);
    /* The rest: jh_cp0 as cp0_call would call it, from the cold section. */
    bind(g, slow, SEC_COLD);
    ra_writeback(g, SEC_COLD);
    emit_sync(g, SEC_COLD, i);
    arg_cpu(COLD);
    x_mov_imm(COLD, X_RSI,
              d->op | (unsigned)d->rd << 8 | (unsigned)d->rt << 16 | (unsigned)d->sa << 24);
    x_mov_imm(COLD, X_RDX, (uint64_t)(uint32_t)d->imm);
    call(g, SEC_COLD, (const void *)jh_cp0);
    x_alu_ri(COLD, 32, ALU_CMP, X_RAX, JH_OK);
    jump(g, SEC_COLD, CC_NE, status_label(g, i));
    ra_reload_volatile(g, SEC_COLD);
    jump(g, SEC_COLD, -1, join);
    return true;
}

/* Test Status.CUn, raising Coprocessor Unusable when clear. */
static void need_cu(jg *g, unsigned i, int n)
{
    x_test_mi(HOT, 32, M(COFF(status)), (int32_t)(ST_CU0 << n));
    jump(g, SEC_HOT, CC_E, cold_exception(g, i, n, true));
}

/* ZF clear when FP condition code cc is set. */
static void test_fcc(jg *g, unsigned cc)
{
    x_test_mi(HOT, 32, M(COFF(fpu) + (int32_t)offsetof(fpu_state, fcsr)),
              (int32_t)(1u << fcsr_cc_bit(cc)));
}

static bool flavor_rejects(const jg *g, unsigned op)
{
    bool ops64 = g->flavor & 4, mips4 = g->flavor & 8;
    return (!ops64 && INSN_IS_OP64(op)) || (!mips4 && INSN_IS_OP4(op));
}

/* Does instruction d (perhaps) write GPR r? */
static bool writes_gpr(const dinsn *d, unsigned r)
{
    /* FP loads and stores, HI/LO writes, multiplies and divides, traps,
     * prefetches and CACHE write no GPR */
    if (op_fmt_in(d->op, OFMT(F_FMEM) | OFMT(F_FX) | OFMT(F_PREFX) | OFMT(F_MT) | OFMT(F_MD) |
                             OFMT(F_TR) | OFMT(F_TRI) | OFMT(F_PREF) | OFMT(F_CACHE)))
        return false;
    switch (d->op) {
    case OP_COP1:
    case OP_COP1X: return true; /* MFC1, CFC1 ... */
    case OP_SC:
    case OP_SCD: return d->rt == r;
    case OP_SW:
    case OP_SH:
    case OP_SB:
    case OP_SD:
    case OP_SWL:
    case OP_SWR:
    case OP_SDL:
    case OP_SDR:
    case OP_NOP:
    case OP_SYNC:
    case OP_MTC0:
    case OP_DMTC0:
    case OP_TLBR:
    case OP_TLBWI:
    case OP_TLBWR:
    case OP_TLBP: return false;
    default: return d->rd == r;
    }
}

/* One instruction that is not a branch. */
static void emit_insn(jg *g, unsigned i)
{
    const dinsn *d = &g->in[i].d;
    unsigned op = d->op;
    g->pinned = 0;
    if (flavor_rejects(g, op)) {
        emit_exception(g, i, EXC_RI, false);
        return;
    }
    if (op_is_shift(op)) {
        shift(g, d);
        return;
    }
    if (op_is_trap(op)) {
        trap(g, i, d);
        return;
    }
    if (op_fmt_in(op, OFMT(F_MD))) { /* MULT ... DDIVU */
        muldiv(g, d);
        return;
    }
    switch (op) {
    case OP_NOP:
    case OP_SYNC:
    case OP_PREF: break;
    case OP_ADDU: alu32(g, d, ALU_ADD); break;
    case OP_SUBU: alu32(g, d, ALU_SUB); break;
    case OP_DADDU: alu64(g, d, ALU_ADD, true, false); break;
    case OP_DSUBU: alu64(g, d, ALU_SUB, false, false); break;
    case OP_AND: alu64(g, d, ALU_AND, true, false); break;
    case OP_OR: alu64(g, d, ALU_OR, true, false); break;
    case OP_XOR: alu64(g, d, ALU_XOR, true, false); break;
    case OP_NOR: alu64(g, d, ALU_OR, true, true); break;
    case OP_SLT:
    case OP_SLTU: slt(g, d); break;
    case OP_ADDIU:
    case OP_DADDIU:
    case OP_ANDI:
    case OP_ORI:
    case OP_XORI:
    case OP_LUI:
    case OP_SLTI:
    case OP_SLTIU: alu_imm(g, d); break;
    case OP_ADD:
    case OP_SUB:
    case OP_ADDI:
    case OP_DADD:
    case OP_DSUB:
    case OP_DADDI: alu_ov(g, i, d); break;
    case OP_MOVZ:
    case OP_MOVN: {
        if (d->rd == GR_SINK)
            break;
        int ht = rg(g, d->rt), hs = rg(g, d->rs), hd = rg(g, d->rd);
        x_test_rr(HOT, 64, ht, ht);
        x_cmov(HOT, 64, op == OP_MOVZ ? CC_E : CC_NE, hd, hs);
        ra_dirty(g, d->rd);
        break;
    }
    case OP_MOVCI: {
        need_cu(g, i, 1);
        if (!(g->flavor & 8)) {
            emit_exception(g, i, EXC_RI, false);
            break;
        }
        if (d->rd == GR_SINK)
            break;
        int hs = rg(g, d->rs), hd = rg(g, d->rd);
        test_fcc(g, d->sa);
        x_cmov(HOT, 64, d->imm ? CC_NE : CC_E, hd, hs);
        ra_dirty(g, d->rd);
        break;
    }
    case OP_MFHI:
    case OP_MFLO: {
        if (d->rd == GR_SINK)
            break;
        int hs = rg(g, op == OP_MFHI ? GR_HI : GR_LO), hd = rw(g, d->rd);
        x_mov_rr(HOT, 64, hd, hs);
        ra_dirty(g, d->rd);
        break;
    }
    case OP_MTHI:
    case OP_MTLO: {
        unsigned r = op == OP_MTHI ? GR_HI : GR_LO;
        int hs = rg(g, d->rs), hd = rw(g, r);
        x_mov_rr(HOT, 64, hd, hs);
        ra_dirty(g, r);
        break;
    }
    case OP_LB:
    case OP_LBU:
    case OP_LH:
    case OP_LHU:
    case OP_LW:
    case OP_LWU:
    case OP_LD: load(g, i, d); break;
    case OP_SB:
    case OP_SH:
    case OP_SW:
    case OP_SD: store(g, i, d); break;
    case OP_LWL:
    case OP_LWR:
    case OP_LDL:
    case OP_LDR:
    case OP_SWL:
    case OP_SWR:
    case OP_SDL:
    case OP_SDR:
    case OP_LL:
    case OP_LLD:
    case OP_SC:
    case OP_SCD:
    case OP_LWC1:
    case OP_LDC1:
    case OP_SWC1:
    case OP_SDC1:
    case OP_LWXC1:
    case OP_LDXC1:
    case OP_SWXC1:
    case OP_SDXC1: mem_call(g, i, d); break;
    case OP_PREFX:
        need_cu(g, i, 1);
        if (!(g->flavor & 8))
            emit_exception(g, i, EXC_RI, false);
        break;
    case OP_COP1:
    case OP_COP1X:
        hot_call_begin(g, i);
        x_mov_imm(HOT, X_RSI, d->raw);
        x_mov_imm(HOT, X_RDX, op == OP_COP1X);
        hot_call_end(g, i, (const void *)jh_cop1);
        for (unsigned r = 1; r < 32; r++) /* MFC1 and friends write a GPR */
            ra_forget(g, r);
        break;
    case OP_CACHE: {
        x_alu_mi(HOT, 8, ALU_CMP, M(COFF(cu0)), 0);
        jump(g, SEC_HOT, CC_E, cold_exception(g, i, 0, true));
        if ((d->rt >> 2) == 1) { /* Index Load Tag */
            x_store_imm(HOT, 64, M(COFF(cp0) + 8 * CP0_TAGLO), 0);
            x_store_imm(HOT, 64, M(COFF(cp0) + 8 * CP0_TAGHI), 0);
        }
        break;
    }
    case OP_MFC0:
    case OP_DMFC0:
    case OP_MTC0:
    case OP_DMTC0:
    case OP_TLBR:
    case OP_TLBWI:
    case OP_TLBWR:
    case OP_TLBP:
        /* (jh_cp0 stops the block when a write changed the mode, the soft
         * TLB or what interrupt is pending) */
        if (!cp0_inline(g, i, d))
            cp0_call(g, i, d);
        break;
    case OP_ERET: /* (the status is JH_GO or JH_EXC, never JH_OK) */
        hot_call_begin(g, i);
        x_mov_imm(HOT, X_RSI, OP_ERET);
        x_alu_rr(HOT, 32, ALU_XOR, X_RDX, X_RDX);
        arg_cpu(HOT);
        call(g, SEC_HOT, (const void *)jh_cp0);
        jump(g, SEC_HOT, -1, status_label(g, i));
        break;
    case OP_SYSCALL: emit_exception(g, i, EXC_SYS, false); break;
    case OP_BREAK: emit_exception(g, i, EXC_BP, false); break;
    case OP_COP2: {
        x_test_mi(HOT, 32, M(COFF(status)), (int32_t)ST_CU2);
        jump(g, SEC_HOT, CC_E, cold_exception(g, i, 2, true));
        emit_exception(g, i, EXC_RI, false);
        break;
    }
    default: /* OP_RI and anything unexpected */ emit_exception(g, i, EXC_RI, false); break;
    }
}

/* Does the instruction end the block by itself? */
static bool ends_block(const jg *g, const dinsn *d)
{
    switch (d->op) {
    case OP_SYSCALL:
    case OP_BREAK:
    case OP_RI:
    case OP_COP2:
    case OP_ERET: return true;
    case OP_MOVCI:
    case OP_PREFX: return !(g->flavor & 8);
    default: return flavor_rejects(g, d->op);
    }
}

/* ---- Branches: the branch at i, its delay slot at i + 1, the exits ---------- */

/* The registers a conditional branch compares (ht < 0: with zero; a
 * comparison of two registers with $0 among them is one with zero). */
static void branch_regs(jg *g, const dinsn *d, int *hs, int *ht)
{
    unsigned a = d->rs, b = cmp_rt(d->op) ? d->rt : 0;
    if (a == 0) {
        a = b;
        b = 0;
    }
    *hs = rg(g, a);
    *ht = b ? rg(g, b) : -1;
}

static void branch_cmp(jg *g, int hs, int ht)
{
    if (ht >= 0)
        x_alu_rr(HOT, 64, ALU_CMP, hs, ht);
    else
        x_test_rr(HOT, 64, hs, hs);
}

static void emit_branch(jg *g, unsigned i)
{
    const jins *bj = &g->in[i];
    const dinsn *d = &bj->d;
    const dinsn *ds = &g->in[i + 1].d;
    unsigned op = d->op;
    uint64_t pc = bj->pc, target = branch_target(bj);
    g->pinned = 0;
    g->br_saved = false;
    if (flavor_rejects(g, op)) { /* (no branch is, today) */
        emit_exception(g, i, EXC_RI, false);
        return;
    }
    switch (op) {
    case OP_J:
    case OP_JAL:
        if (op == OP_JAL) {
            int h = rw(g, 31);
            x_mov_imm(HOT, h, pc + 8);
            ra_dirty(g, 31);
        }
        emit_insn(g, i + 1);
        emit_insn_exits(g, i + 1);
        ra_writeback(g, SEC_HOT);
        emit_exit_to(g, -1, target);
        return;
    case OP_JR:
    case OP_JALR: {
        int hs = rg(g, d->rs);
        bool link = op == OP_JALR && d->rd != GR_SINK;
        if (writes_gpr(ds, d->rs) || (link && d->rd == d->rs)) {
            x_mov_rr(HOT, 64, X_R14, hs);
            g->br_saved = true;
        }
        if (link) {
            int h = rw(g, d->rd);
            x_mov_imm(HOT, h, pc + 8);
            ra_dirty(g, d->rd);
        }
        emit_insn(g, i + 1);
        emit_insn_exits(g, i + 1);
        g->pinned = 0;
        if (g->br_saved) {
            ra_writeback(g, SEC_HOT);
            x_mov_rr(HOT, 64, X_RDX, X_R14);
        } else {
            hs = rg(g, d->rs);
            ra_writeback(g, SEC_HOT);
            x_mov_rr(HOT, 64, X_RDX, hs);
        }
        emit_lookup_inline(g, SEC_HOT);
        return;
    }
    default: break;
    }
    /* Conditional branches (BC1 among them).  The condition is computed
     * before the delay slot (into r14 unless the branch is likely) when
     * the slot may change what it reads, else after it. */
    bool likely = is_likely(d);
    bool links = insn_branch_links(op);
    bool saved = !likely && (links || op == OP_BC1 || writes_gpr(ds, d->rs) ||
                             (cmp_rt(op) && writes_gpr(ds, d->rt)));
    int cc = branch_cc(op);
    if (op == OP_BC1) {
        need_cu(g, i, 1);
        if (d->sa && !(g->flavor & 8)) {
            emit_exception(g, i, EXC_RI, false);
            return;
        }
        test_fcc(g, d->sa);
        cc = d->rt & 1 ? CC_NE : CC_E;
    } else if (likely || saved) {
        int hs, ht;
        branch_regs(g, d, &hs, &ht);
        branch_cmp(g, hs, ht);
    }
    if (likely) {
        /* Not taken: the slot is skipped (and not counted).  The link is
         * written on both paths, before the jump (no flags touched). */
        if (links) {
            int h = rw(g, 31);
            x_mov_imm_nf(HOT, h, pc + 8);
            ra_dirty(g, 31);
        }
        int taken = label(g);
        jump(g, SEC_HOT, cc, taken);
        ra_writeback(g, SEC_HOT);
        x_alu_ri(HOT, 64, ALU_SUB, X_R15, 1);
        emit_exit_to(g, -1, pc + 8);
        bind(g, taken, SEC_HOT);
        emit_insn(g, i + 1);
        emit_insn_exits(g, i + 1);
        ra_writeback(g, SEC_HOT);
        emit_exit_to(g, -1, target);
        return;
    }
    if (saved) {
        x_setcc(HOT, cc, X_R14);
        g->br_saved = true;
        if (links) {
            int h = rw(g, 31);
            x_mov_imm(HOT, h, pc + 8);
            ra_dirty(g, 31);
        }
    }
    emit_insn(g, i + 1);
    emit_insn_exits(g, i + 1);
    g->pinned = 0;
    if (g->loop) {
        /* Back to the block's start with the registers still in host
         * registers (not taken: leave), if the budget has room for
         * another round, as the entry checks it; else as the entry's
         * bail-out. */
        if (saved) {
            x_test_rr(HOT, 8, X_R14, X_R14);
            cc = CC_NE;
        } else {
            int hs, ht;
            branch_regs(g, d, &hs, &ht);
            branch_cmp(g, hs, ht);
        }
        emit_side_exit(g, cc ^ 1, pc + 8, 0);
        x_alu_ri(HOT, 64, ALU_ADD, X_R15, (int32_t)g->n);
        x_alu_rm(HOT, 64, ALU_CMP, X_R15, M(COFF(limit)));
        jump(g, SEC_HOT, CC_BE, g->loop_top);
        ra_writeback(g, SEC_HOT);
        x_alu_ri(HOT, 64, ALU_SUB, X_R15, (int32_t)g->n);
        x_mov_imm(HOT, X_RDX, target);
        x_mov_imm(HOT, X_RAX, JIT_RET_BAIL);
        jump_abs(g, SEC_HOT, -1, g->jc->exit_pc);
        return;
    }
    if (saved) {
        ra_writeback(g, SEC_HOT);
        x_test_rr(HOT, 8, X_R14, X_R14);
        cc = CC_NE;
    } else {
        int hs, ht;
        branch_regs(g, d, &hs, &ht);
        ra_writeback(g, SEC_HOT);
        branch_cmp(g, hs, ht);
    }
    emit_exit_to(g, cc, target);
    emit_exit_to(g, -1, pc + 8);
}

/* ---- The block ---------------------------------------------------------------- */

/* A conditional branch that is not likely (the slot is skipped when not
 * taken), does not link and is not BC1. */
static bool goes_on(const dinsn *d)
{
    switch (d->op) {
    case OP_BEQ:
    case OP_BNE:
    case OP_BLEZ:
    case OP_BGTZ:
    case OP_BLTZ:
    case OP_BGEZ: return true;
    default: return false;
    }
}

/* Which instructions make the block, and how it ends. */
static void scan(jg *g, dpage *p, unsigned k0)
{
    g->n = 0;
    g->end = END_FALL;
    for (unsigned k = k0; k < DPAGE_INSNS && g->n < JIT_MAX_INSNS - 1; k++) {
        dinsn *d = &p->insn[k];
        if (d->op == OP_DECODE)
            dpage_decode_slot(g->c, p, d);
        if (op_is_control(d->op)) {
            if (k + 1 >= DPAGE_INSNS)
                return; /* its delay slot is on the next page */
            dinsn *ds = &p->insn[k + 1];
            if (ds->op == OP_DECODE)
                dpage_decode_slot(g->c, p, ds);
            if (op_is_control(ds->op))
                return; /* a branch in a delay slot: the interpreter's */
            g->in[g->n++] = (jins){*d, g->vbase + 4ull * k, false};
            g->in[g->n++] = (jins){*ds, g->vbase + 4ull * (k + 1), true};
            g->end = END_BRANCH;
            return;
        }
        g->in[g->n++] = (jins){*d, g->vbase + 4ull * k, false};
        if (ends_block(g, d)) {
            g->end = END_SELF;
            return;
        }
    }
}

static bool have_movbe(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return false;
    return (c >> 22) & 1;
}

static bool have_bmi2(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return false;
    return (b >> 8) & 1;
}

/* Does the block end with a conditional branch back to its start (a
 * loop that may stay in the block)? */
static bool loops(const jg *g, uint64_t pc)
{
    if (g->end != END_BRANCH || g->n < 2)
        return false;
    const jins *b = &g->in[g->n - 2];
    return goes_on(&b->d) && branch_target(b) == pc;
}

/* The block's code into the hot and cold buffers (g->fail when it does not
 * fit or cannot be made).  In a loop block, every guest register the block
 * uses (from a first pass: none may have been evicted or forgotten) is
 * loaded after the entry's check, and those it writes count as dirty from
 * there on, so the state at the back branch is the state at loop_top. */
static void emit_block(jg *g, uint64_t pc, bool loop)
{
    uint64_t used = g->used, written = g->written;
    g->buf[SEC_HOT] = (xbuf){hot_mem, 0, sizeof hot_mem, false};
    g->buf[SEC_COLD] = (xbuf){cold_mem, 0, sizeof cold_mem, false};
    for (unsigned i = 0; i < JIT_MAX_INSNS; i++)
        g->exc_lbl[i] = g->stop_lbl[i] = -1;
    g->nlbl = g->nfix = 0;
    g->nexits = 0;
    g->fail = false;
    g->br_saved = false;
    g->used = g->written = g->known = 0;
    g->spilled = false;
    g->loop = loop;
    g->tick = 0;
    memset(g->age, 0, sizeof g->age);
    ra_init(g);

    /* Entry: the whole block must fit in the budget, and no kick. */
    int bail = label(g);
    x_alu_ri(HOT, 64, ALU_ADD, X_R15, (int32_t)g->n);
    x_alu_rm(HOT, 64, ALU_CMP, X_R15, M(COFF(limit)));
    jump(g, SEC_HOT, CC_A, bail);
    bind(g, bail, SEC_COLD);
    x_alu_ri(COLD, 64, ALU_SUB, X_R15, (int32_t)g->n);
    x_mov_imm(COLD, X_RDX, pc);
    x_mov_imm(COLD, X_RAX, JIT_RET_BAIL);
    jump_abs(g, SEC_COLD, -1, g->jc->exit_pc);

    if (loop) {
        for (unsigned r = 0; r < NGR; r++)
            if (used >> r & 1)
                rg(g, r);
        for (unsigned r = 0; r < NGR; r++)
            if (written >> r & 1)
                ra_dirty(g, r);
        g->pinned = 0;
        g->loop_top = label(g);
        bind(g, g->loop_top, SEC_HOT);
    }
    for (unsigned i = 0; i < g->n; i++) {
        if (op_is_control(g->in[i].d.op) && !g->in[i].ds) {
            emit_branch(g, i);
            emit_insn_exits(g, i);
            break;
        }
        emit_insn(g, i);
        emit_insn_exits(g, i);
    }
    if (g->end == END_FALL) {
        ra_writeback(g, SEC_HOT);
        emit_exit_to(g, -1, g->in[g->n - 1].pc + 4);
    }
    if (HOT->over || COLD->over || (loop && g->spilled))
        g->fail = true;
}

static _Thread_local jg gen; /* one translation at a time per host thread */

jit_block *jit_translate(cpu *c, dpage *p, uint64_t vbase, uint64_t pc)
{
    cpu_group *grp = c->group;
    jit_cache *jc = grp->jit;
    if (jc->size - jc->used < BLOCK_ROOM || jc->nblocks >= jc->maxblocks)
        jit_flush(grp);
    jg *g = &gen;
    memset(g, 0, offsetof(jg, lbl));
    g->c = c;
    g->jc = jc;
    g->flavor = jit_flavor(c);
    g->mode = (unsigned)c->mode;
    g->vbase = vbase;
    static int movbe = -1;
    if (movbe < 0)
        movbe = have_movbe();
    g->movbe = movbe;
    static int bmi2 = -1;
    if (bmi2 < 0)
        bmi2 = have_bmi2() && !getenv("XBOW_JIT_NO_BMI2");
    g->bmi2 = bmi2;
    g->nlbl = g->nfix = 0;
    g->nexits = 0;
    g->fail = false;
    unsigned k0 = (unsigned)((pc & 0xfff) >> 2);
    scan(g, p, k0);
    if (g->n == 0)
        return NULL;
    jit_block *blk = jit_new_block(grp, p, pc, g->flavor);
    if (!blk)
        return NULL;
    g->blk = blk;
    emit_block(g, pc, false);
    if (!g->fail && !g->spilled && loops(g, pc))
        emit_block(g, pc, true);
    if (g->fail && g->loop)
        emit_block(g, pc, false);
    if (g->fail) {
        jc->nblocks--; /* (the last one handed out) */
        return NULL;
    }

    /* Place it: hot code, then cold code. */
    size_t hl = HOT->len, cl = COLD->len;
    uint8_t *code = jit_alloc_code(jc, hl + cl);
    if (!code) {
        jc->nblocks--;
        return NULL;
    }
    memcpy(code, hot_mem, hl);
    memcpy(code + hl, cold_mem, cl);
    uint8_t *base[2] = {code, code + hl};
    for (int k = 0; k < g->nfix; k++) {
        const jfix *f = &g->fix[k];
        const uint8_t *to = f->lbl >= 0 ? base[g->lbl[f->lbl].sec] + g->lbl[f->lbl].off : f->to;
        x_set_rel32(base[f->sec] + f->at, to);
    }
    blk->code = code;
    perf_map(code, hl + cl, pc);
    blk->first = (uint16_t)k0;
    blk->last = (uint16_t)(k0 + g->n - 1);
    blk->ninsns = (uint16_t)g->n;
    blk->nexits = (uint8_t)g->nexits;
    for (unsigned k = 0; k < g->nexits; k++) {
        jit_exit *e = &blk->exits[k];
        e->jmp = base[g->exits[k].sec] + g->exits[k].at;
        e->stub = base[g->lbl[g->exits[k].stub].sec] + g->lbl[g->exits[k].stub].off;
        e->target = g->exits[k].target;
        e->from = blk;
        e->to = NULL;
        x_set_rel32(e->jmp, e->stub);
    }
    blk->valid = true;
    unsigned slot = (unsigned)((pc & 0xfff) >> 2);
    blk->alias = p->jtab[slot];
    p->jtab[slot] = blk;
    blk->next = p->jlist;
    p->jlist = blk;
    jc->translated++;
    jc->translated_insns += g->n;
    return blk;
}

/* ---- The stubs at the start of the cache ----------------------------------- */

/* The jump cache's probe for the pc in rdx in flavor f: the exec soft TLB
 * maps the pc's page (else rel8 miss[0]) to the page of the jump cache's
 * entry for the pc, in this mode (else miss[1..3], with rcx = the page and
 * rax = the entry); on a hit it jumps to the block. */
static void emit_jc_probe(xbuf *b, unsigned f, size_t miss[4])
{
    int32_t xoff =
        COFF(sets) + (int32_t)((f & 3) * sizeof(stlb_set)) + (int32_t)offsetof(stlb_set, x);
    x_mov_rr(b, 32, X_RAX, X_RDX);
    x_shift_ri(b, 32, SH_SHR, X_RAX, RAM_PAGE_SHIFT - 4);
    x_alu_ri(b, 32, ALU_AND, X_RAX, (STLB_SIZE - 1) << 4);
    x_mov_rr(b, 64, X_RCX, X_RDX);
    x_alu_ri(b, 64, ALU_AND, X_RCX, (int32_t)~0xffcu);
    x_alu_rm(b, 64, ALU_CMP, X_RCX, xmi(X_RBP, X_RAX, 1, xoff));
    miss[0] = x_jcc8(b, CC_NE);
    x_load(b, 64, X_RCX, xmi(X_RBP, X_RAX, 1, xoff + (int32_t)offsetof(xtlb, page)));
    x_mov_rr(b, 32, X_RAX, X_RDX);
    x_alu_ri(b, 32, ALU_AND, X_RAX, (JIT_JC_SIZE - 1) << 2);
    x_shift_ri(b, 32, SH_SHL, X_RAX, 3);
    x_alu_rm(b, 64, ALU_ADD, X_RAX, M(COFF(jit_jc)));
    x_alu_rm(b, 64, ALU_CMP, X_RDX, xm(X_RAX, (int32_t)offsetof(jit_jc, vpc)));
    miss[1] = x_jcc8(b, CC_NE);
    x_alu_rm(b, 64, ALU_CMP, X_RCX, xm(X_RAX, (int32_t)offsetof(jit_jc, page)));
    miss[2] = x_jcc8(b, CC_NE);
    x_alu_mi(b, 8, ALU_CMP, xm(X_RAX, (int32_t)offsetof(jit_jc, flavor)), (int32_t)f);
    miss[3] = x_jcc8(b, CC_NE);
    x_jmp_m(b, xm(X_RAX, (int32_t)offsetof(jit_jc, code)));
}

/* A computed jump to the pc in rdx (registers written back): the jump
 * cache's probe in line, so that each site has its own indirect jump for
 * the host's branch predictor, and the shared stub for the rest. */
static void emit_lookup_inline(jg *g, int sec)
{
    xbuf *b = &g->buf[sec];
    size_t miss[4];
    emit_jc_probe(b, g->flavor, miss);
    x_patch8(b, miss[0]);
    jump_abs(g, sec, -1, g->jc->lookup[g->flavor]);
    x_patch8(b, miss[1]);
    x_patch8(b, miss[2]);
    x_patch8(b, miss[3]);
    jump_abs(g, sec, -1, g->jc->lookup_fb[g->flavor]);
}


void jit_emit_stubs(jit_cache *jc)
{
    xbuf bb = {jc->mem, 0, 4096, false}, *b = &bb;
    static const int saved[] = {X_RBP, X_RBX, X_R12, X_R13, X_R14, X_R15};

    /* uintptr_t enter(cpu *c, const uint8_t *code) */
    jc->enter = b->p + b->len;
    for (unsigned i = 0; i < 6; i++)
        x_push(b, saved[i]);
    x_alu_ri(b, 64, ALU_SUB, X_RSP, 8);
    x_lea(b, 64, X_RBP, xm(X_RDI, BIAS));
    x_load(b, 64, X_RAX, M(COFF(clock)));
    x_load(b, 64, X_R15, xm(X_RAX, (int32_t)offsetof(sched, now)));
    x_jmp_r(b, X_RSI);

    /* exit_pc: c->pc = rdx; exit_synced: the clock = r15; return rax */
    jc->exit_pc = b->p + b->len;
    x_store(b, 64, M(COFF(pc)), X_RDX);
    jc->exit_synced = b->p + b->len;
    x_load(b, 64, X_RCX, M(COFF(clock)));
    x_store(b, 64, xm(X_RCX, (int32_t)offsetof(sched, now)), X_R15);
    x_alu_ri(b, 64, ALU_ADD, X_RSP, 8);
    for (int i = 5; i >= 0; i--)
        x_pop(b, saved[i]);
    x_ret(b);

    /* lookup[flavor]: rdx = pc; jump to its block, or return to jit_run. */
    for (unsigned f = 0; f < 16; f++) {
        while (b->len & 15)
            xb_byte(b, 0xcc);
        jc->lookup[f] = b->p + b->len;
        size_t miss[4];
        emit_jc_probe(b, f, miss);
        /* The jump cache missed: the block the page's table has for the
         * slot in this mode (rcx = the page, rax = the jump-cache entry),
         * which then takes the entry.  rsi and rdi are free here: the
         * guest registers were written back before the lookup. */
        jc->lookup_fb[f] = b->p + b->len;
        x_patch8(b, miss[1]);
        x_patch8(b, miss[2]);
        x_patch8(b, miss[3]);
        x_load(b, 64, X_RSI, xm(X_RCX, (int32_t)offsetof(dpage, jtab)));
        x_mov_rr(b, 32, X_RDI, X_RDX);
        x_alu_ri(b, 32, ALU_AND, X_RDI, 0xffc);
        x_load(b, 64, X_RSI, xmi(X_RSI, X_RDI, 2, 0));
        size_t top = b->len;
        x_test_rr(b, 64, X_RSI, X_RSI);
        size_t m5 = x_jcc8(b, CC_E);
        x_alu_rm(b, 64, ALU_CMP, X_RDX, xm(X_RSI, (int32_t)offsetof(jit_block, vpc)));
        size_t n1 = x_jcc8(b, CC_NE);
        x_alu_mi(b, 8, ALU_CMP, xm(X_RSI, (int32_t)offsetof(jit_block, flavor)), (int32_t)f);
        size_t n2 = x_jcc8(b, CC_NE);
        x_store(b, 64, xm(X_RAX, (int32_t)offsetof(jit_jc, vpc)), X_RDX);
        x_store(b, 64, xm(X_RAX, (int32_t)offsetof(jit_jc, page)), X_RCX);
        x_store_imm(b, 64, xm(X_RAX, (int32_t)offsetof(jit_jc, flavor)), (int32_t)f);
        x_load(b, 64, X_RSI, xm(X_RSI, (int32_t)offsetof(jit_block, code)));
        x_store(b, 64, xm(X_RAX, (int32_t)offsetof(jit_jc, code)), X_RSI);
        x_jmp_r(b, X_RSI);
        x_patch8(b, n1);
        x_patch8(b, n2);
        x_load(b, 64, X_RSI, xm(X_RSI, (int32_t)offsetof(jit_block, alias)));
        size_t back = x_jmp8(b);
        b->p[back] = (uint8_t)(int8_t)((int64_t)top - (int64_t)(back + 1));
        x_patch8(b, miss[0]);
        x_patch8(b, m5);
        x_alu_rr(b, 32, ALU_XOR, X_RAX, X_RAX);
        size_t at = x_jmp32(b);
        x_set_rel32(b->p + at, jc->exit_pc);
    }
    if (b->over) { /* the same on every run: any translated test finds it */
        fputs("xbow: internal error: the translator's shared stubs outgrew their 4 KB "
              "(src/cpu/jit_gen.c)\n",
              stderr);
        abort();
    }
    jc->fixed = (b->len + 63) & ~(size_t)63;
}

#endif /* JIT_HOST */
