/* The run loop and the execution of every decoded operation.
 *
 * cpu_run() alternates between an outer part (exit requests, stops, NMI and
 * soft reset, the Count/Compare timer, interrupts, the time limit) and
 * run_inner(), which keeps pc, the clock and the current fetch page in
 * locals and runs while clock->now < c->limit.  Anything that must be looked
 * at between two instructions (an interrupt line, a Status write, a
 * breakpoint insertion, cpu_request_exit) sets c->limit to 0.
 *
 * Time: one tick per instruction executed, and one per exception taken (so
 * a CPU looping on a faulting vector still moves time forward).
 *
 * Delay slots: a branch sets `dly` and `dtarget`; the next instruction runs
 * as the delay slot (in_ds for exceptions: EPC = branch, Cause.BD) and then
 * execution continues at dtarget (pc + 8 when not taken).  Branch-likely
 * forms that are not taken skip the slot.
 *
 * Division by zero (DIV/DIVU/DDIV/DDIVU) and the overflowing INT_MIN / -1:
 * the R10000 manual leaves HI/LO undefined; we divide by 1 instead, giving
 * LO = dividend and HI = 0, as QEMU/Unicorn do, so a differential test can
 * compare them.
 */
#include "cpu/cpu_internal.h"
#include "cpu/ops.h"

/* The fetch slow path with the debugger's per-instruction features.
 * Returns the slot to execute, NULL after an exception, or sets *stop. */
static dinsn *fetch_full(cpu *c, uint64_t pc, int *stop, bool *hle_done)
{
    *stop = 0;
    *hle_done = false;
    bool skip = c->skip_bp && c->skip_pc == pc;
    c->skip_bp = false;
    if (unlikely(c->nbps) && !skip && cpu_bp_at(c, pc)) {
        *stop = CPU_BREAK;
        return NULL;
    }
    if (unlikely(c->nhles)) {
        const cpu_hle *h = cpu_hle_at(c, pc);
        if (h) {
            h->fn(h->ctx, c);
            c->gpr[0] = 0;
            c->pc = c->gpr[31];
            c->dly = false;
            *hle_done = true;
            return NULL;
        }
    }
    dinsn *d = cpu_fetch_slow(c, pc);
    if (!d)
        return NULL;
    if (d->op == OP_DECODE && d != &c->tmp)
        dpage_decode_slot(c, c->fpage_last, d);
    if (unlikely(c->trace))
        c->trace(c->trace_ctx, c, pc, d->raw);
    return d;
}

static inline int64_t div_fix32(int32_t a, int32_t b, int32_t *rem)
{
    if (b == 0 || (a == INT32_MIN && b == -1)) {
        *rem = 0;
        return a;
    }
    *rem = a % b;
    return a / b;
}

static int run_inner(cpu *c)
{
    uint64_t *const R = c->gpr;
    sched *const clk = c->clock;
    uint64_t pc = c->pc, now = clk->now;
    bool dly = c->dly;
    uint64_t dtarget = c->dtarget;
    uint64_t vbase;
    dpage *page;
    stlb *rt, *wt;
    const dinsn *d;
    bool ds = false;
    uint64_t npc = 0;
    int rc = 0;

#define SYNC()                  \
    do {                        \
        c->pc = pc;             \
        c->in_ds = ds;          \
        clk->now = now;         \
    } while (0)
#define EXC(code)                                  \
    do {                                           \
        SYNC();                                    \
        cpu_exception(c, (code), 0, false);        \
        goto exc;                                  \
    } while (0)
#define EXC_CE(n)                   \
    do {                            \
        SYNC();                     \
        cpu_exception_ce(c, (n));   \
        goto exc;                   \
    } while (0)
#define CHK64()                         \
    do {                                \
        if (unlikely(!c->ops64))        \
            EXC(EXC_RI);                \
    } while (0)
/* MIPS IV-only instructions in user mode need Status.XX (R10000). */
#define CHK4()                          \
    do {                                \
        if (unlikely(!c->mips4))        \
            EXC(EXC_RI);                \
    } while (0)
#define BRANCH(cond)                                       \
    do {                                                   \
        dly = true;                                        \
        dtarget = (cond) ? pc + 4 + (uint64_t)d->imm : pc + 8; \
    } while (0)
#define BRANCH_LIKELY(cond)                        \
    do {                                           \
        if (cond) {                                \
            dly = true;                            \
            dtarget = pc + 4 + (uint64_t)d->imm;   \
        } else {                                   \
            npc = pc + 8;                          \
        }                                          \
    } while (0)
#define LOAD(size, va, out, conv)                                  \
    do {                                                           \
        uint64_t va_ = (va);                                       \
        uint8_t *p_ = stlb_lookup(rt, va_, (size));                \
        if (likely(p_ != NULL)) {                                  \
            out = conv(p_);                                        \
        } else {                                                   \
            uint64_t v_;                                           \
            SYNC();                                                \
            if (!mem_load_slow(c, va_, (size), &v_))               \
                goto exc;                                          \
            out = conv##_v(v_);                                    \
        }                                                          \
    } while (0)
#define STORE(size, va, val, st)                                   \
    do {                                                           \
        uint64_t va_ = (va), sv_ = (val);                          \
        uint8_t *p_ = stlb_lookup(wt, va_, (size));                \
        if (likely(p_ != NULL)) {                                  \
            st(p_, sv_);                                           \
            fast_store_link(c, va_, (size));                       \
        } else {                                                   \
            SYNC();                                                \
            if (!mem_store_slow(c, va_, (size), sv_))              \
                goto exc;                                          \
        }                                                          \
    } while (0)
#define EA() (R[d->rs] + (uint64_t)d->imm)

/* load converters: host pointer -> value, and bus value -> value */
#define LB_(p) ((uint64_t)(int64_t)(int8_t)(p)[0])
#define LB__v(v) ((uint64_t)(int64_t)(int8_t)(v))
#define LBU_(p) ((uint64_t)(p)[0])
#define LBU__v(v) ((uint64_t)(uint8_t)(v))
#define LH_(p) ((uint64_t)(int64_t)(int16_t)(((p)[0] << 8) | (p)[1]))
#define LH__v(v) ((uint64_t)(int64_t)(int16_t)(v))
#define LHU_(p) ((uint64_t)(((p)[0] << 8) | (p)[1]))
#define LHU__v(v) ((uint64_t)(uint16_t)(v))
#define LW_(p) ((uint64_t)(int64_t)(int32_t)ldbe32(p))
#define LW__v(v) ((uint64_t)(int64_t)(int32_t)(v))
#define LWU_(p) ((uint64_t)ldbe32(p))
#define LWU__v(v) ((uint64_t)(uint32_t)(v))
#define LD_(p) ldbe64(p)
#define LD__v(v) (v)
#define SB_(p, v) ((p)[0] = (uint8_t)(v))
#define SH_(p, v) ((p)[0] = (uint8_t)((v) >> 8), (p)[1] = (uint8_t)(v))
#define SW_(p, v) stbe32((p), (uint32_t)(v))
#define SD_(p, v) stbe64((p), (v))

reload:
    vbase = c->fvbase;
    page = c->fpage;
    rt = c->st->r;
    wt = c->st->w;
    for (;;) {
        if (unlikely(now >= c->limit))
            break;
        uint64_t off = pc - vbase;
        if (likely((off & ~0xffcull) == 0)) {
            d = &page->insn[off >> 2];
        } else {
            int stop;
            bool hle;
            c->pc = pc;
            c->in_ds = dly;
            c->dly = dly;
            c->dtarget = dtarget;
            clk->now = now;
            d = fetch_full(c, pc, &stop, &hle);
            if (!d) {
                if (stop) {
                    rc = stop;
                    break;
                }
                now = ++clk->now; /* the exception or the HLE call costs a tick */
                pc = c->pc;
                dly = false;
                goto reload;
            }
            vbase = c->fvbase;
            page = c->fpage;
        }
        now++;
        ds = dly;
        if (unlikely(ds)) {
            npc = dtarget;
            dly = false;
        } else {
            npc = pc + 4;
        }
    dispatch:
        switch ((enum op)d->op) {
        case OP_DECODE:
            dpage_decode_slot(c, page, (dinsn *)d);
            goto dispatch;
        case OP_RI: EXC(EXC_RI);
        case OP_NOP: case OP_SYNC: break;
        case OP_PREF: CHK4(); break;
        case OP_SLL: R[d->rd] = (uint64_t)sext32((uint32_t)R[d->rt] << d->sa); break;
        case OP_SRL: R[d->rd] = (uint64_t)sext32((uint32_t)R[d->rt] >> d->sa); break;
        case OP_SRA: R[d->rd] = (uint64_t)sext32((uint32_t)((int32_t)R[d->rt] >> d->sa)); break;
        case OP_SLLV: R[d->rd] = (uint64_t)sext32((uint32_t)R[d->rt] << (R[d->rs] & 31)); break;
        case OP_SRLV: R[d->rd] = (uint64_t)sext32((uint32_t)R[d->rt] >> (R[d->rs] & 31)); break;
        case OP_SRAV:
            R[d->rd] = (uint64_t)sext32((uint32_t)((int32_t)R[d->rt] >> (R[d->rs] & 31)));
            break;
        case OP_DSLL: case OP_DSLL32: CHK64(); R[d->rd] = R[d->rt] << d->sa; break;
        case OP_DSRL: case OP_DSRL32: CHK64(); R[d->rd] = R[d->rt] >> d->sa; break;
        case OP_DSRA: case OP_DSRA32:
            CHK64();
            R[d->rd] = (uint64_t)((int64_t)R[d->rt] >> d->sa);
            break;
        case OP_DSLLV: CHK64(); R[d->rd] = R[d->rt] << (R[d->rs] & 63); break;
        case OP_DSRLV: CHK64(); R[d->rd] = R[d->rt] >> (R[d->rs] & 63); break;
        case OP_DSRAV: CHK64(); R[d->rd] = (uint64_t)((int64_t)R[d->rt] >> (R[d->rs] & 63)); break;
        case OP_JR:
            dly = true;
            dtarget = R[d->rs];
            break;
        case OP_JALR: {
            uint64_t t = R[d->rs];
            R[d->rd] = pc + 8;
            dly = true;
            dtarget = t;
            break;
        }
        case OP_MOVZ: CHK4(); if (R[d->rt] == 0) R[d->rd] = R[d->rs]; break;
        case OP_MOVN: CHK4(); if (R[d->rt] != 0) R[d->rd] = R[d->rs]; break;
        case OP_MOVCI:
            if (unlikely(!(c->status & ST_CU1)))
                EXC_CE(1);
            CHK4();
            if (fpu_cc(&c->fpu, d->sa) == (d->imm != 0))
                R[d->rd] = R[d->rs];
            break;
        case OP_SYSCALL: EXC(EXC_SYS);
        case OP_BREAK: EXC(EXC_BP);
        case OP_MFHI: R[d->rd] = c->hi; break;
        case OP_MTHI: c->hi = R[d->rs]; break;
        case OP_MFLO: R[d->rd] = c->lo; break;
        case OP_MTLO: c->lo = R[d->rs]; break;
        case OP_MULT: {
            int64_t p = (int64_t)(int32_t)R[d->rs] * (int64_t)(int32_t)R[d->rt];
            c->lo = (uint64_t)sext32((uint64_t)p);
            c->hi = (uint64_t)sext32((uint64_t)p >> 32);
            break;
        }
        case OP_MULTU: {
            uint64_t p = (uint64_t)(uint32_t)R[d->rs] * (uint32_t)R[d->rt];
            c->lo = (uint64_t)sext32(p);
            c->hi = (uint64_t)sext32(p >> 32);
            break;
        }
        case OP_DIV: {
            int32_t r;
            int64_t q = div_fix32((int32_t)R[d->rs], (int32_t)R[d->rt], &r);
            c->lo = (uint64_t)sext32((uint64_t)q);
            c->hi = (uint64_t)(int64_t)r;
            break;
        }
        case OP_DIVU: {
            uint32_t a = (uint32_t)R[d->rs], b = (uint32_t)R[d->rt];
            if (b == 0)
                b = 1;
            c->lo = (uint64_t)sext32(a / b);
            c->hi = (uint64_t)sext32(a % b);
            break;
        }
        case OP_DMULT: {
            CHK64();
            __int128 p = (__int128)(int64_t)R[d->rs] * (int64_t)R[d->rt];
            c->lo = (uint64_t)p;
            c->hi = (uint64_t)((unsigned __int128)p >> 64);
            break;
        }
        case OP_DMULTU: {
            CHK64();
            unsigned __int128 p = (unsigned __int128)R[d->rs] * R[d->rt];
            c->lo = (uint64_t)p;
            c->hi = (uint64_t)(p >> 64);
            break;
        }
        case OP_DDIV: {
            CHK64();
            int64_t a = (int64_t)R[d->rs], b = (int64_t)R[d->rt];
            if (b == 0 || (a == INT64_MIN && b == -1)) {
                c->lo = (uint64_t)a;
                c->hi = 0;
            } else {
                c->lo = (uint64_t)(a / b);
                c->hi = (uint64_t)(a % b);
            }
            break;
        }
        case OP_DDIVU: {
            CHK64();
            uint64_t a = R[d->rs], b = R[d->rt];
            if (b == 0)
                b = 1;
            c->lo = a / b;
            c->hi = a % b;
            break;
        }
        case OP_ADD: {
            int32_t r;
            if (__builtin_add_overflow((int32_t)R[d->rs], (int32_t)R[d->rt], &r))
                EXC(EXC_OV);
            R[d->rd] = (uint64_t)(int64_t)r;
            break;
        }
        case OP_ADDU: R[d->rd] = (uint64_t)sext32(R[d->rs] + R[d->rt]); break;
        case OP_SUB: {
            int32_t r;
            if (__builtin_sub_overflow((int32_t)R[d->rs], (int32_t)R[d->rt], &r))
                EXC(EXC_OV);
            R[d->rd] = (uint64_t)(int64_t)r;
            break;
        }
        case OP_SUBU: R[d->rd] = (uint64_t)sext32(R[d->rs] - R[d->rt]); break;
        case OP_AND: R[d->rd] = R[d->rs] & R[d->rt]; break;
        case OP_OR: R[d->rd] = R[d->rs] | R[d->rt]; break;
        case OP_XOR: R[d->rd] = R[d->rs] ^ R[d->rt]; break;
        case OP_NOR: R[d->rd] = ~(R[d->rs] | R[d->rt]); break;
        case OP_SLT: R[d->rd] = (int64_t)R[d->rs] < (int64_t)R[d->rt]; break;
        case OP_SLTU: R[d->rd] = R[d->rs] < R[d->rt]; break;
        case OP_DADD: {
            CHK64();
            int64_t r;
            if (__builtin_add_overflow((int64_t)R[d->rs], (int64_t)R[d->rt], &r))
                EXC(EXC_OV);
            R[d->rd] = (uint64_t)r;
            break;
        }
        case OP_DADDU: CHK64(); R[d->rd] = R[d->rs] + R[d->rt]; break;
        case OP_DSUB: {
            CHK64();
            int64_t r;
            if (__builtin_sub_overflow((int64_t)R[d->rs], (int64_t)R[d->rt], &r))
                EXC(EXC_OV);
            R[d->rd] = (uint64_t)r;
            break;
        }
        case OP_DSUBU: CHK64(); R[d->rd] = R[d->rs] - R[d->rt]; break;
        case OP_TGE: if ((int64_t)R[d->rs] >= (int64_t)R[d->rt]) EXC(EXC_TR); break;
        case OP_TGEU: if (R[d->rs] >= R[d->rt]) EXC(EXC_TR); break;
        case OP_TLT: if ((int64_t)R[d->rs] < (int64_t)R[d->rt]) EXC(EXC_TR); break;
        case OP_TLTU: if (R[d->rs] < R[d->rt]) EXC(EXC_TR); break;
        case OP_TEQ: if (R[d->rs] == R[d->rt]) EXC(EXC_TR); break;
        case OP_TNE: if (R[d->rs] != R[d->rt]) EXC(EXC_TR); break;
        case OP_TGEI: if ((int64_t)R[d->rs] >= d->imm) EXC(EXC_TR); break;
        case OP_TGEIU: if (R[d->rs] >= (uint64_t)d->imm) EXC(EXC_TR); break;
        case OP_TLTI: if ((int64_t)R[d->rs] < d->imm) EXC(EXC_TR); break;
        case OP_TLTIU: if (R[d->rs] < (uint64_t)d->imm) EXC(EXC_TR); break;
        case OP_TEQI: if ((int64_t)R[d->rs] == d->imm) EXC(EXC_TR); break;
        case OP_TNEI: if ((int64_t)R[d->rs] != d->imm) EXC(EXC_TR); break;
        case OP_BLTZ: BRANCH((int64_t)R[d->rs] < 0); break;
        case OP_BGEZ: BRANCH((int64_t)R[d->rs] >= 0); break;
        case OP_BLTZL: BRANCH_LIKELY((int64_t)R[d->rs] < 0); break;
        case OP_BGEZL: BRANCH_LIKELY((int64_t)R[d->rs] >= 0); break;
        case OP_BLTZAL: { bool t = (int64_t)R[d->rs] < 0; R[31] = pc + 8; BRANCH(t); break; }
        case OP_BGEZAL: { bool t = (int64_t)R[d->rs] >= 0; R[31] = pc + 8; BRANCH(t); break; }
        case OP_BLTZALL: {
            bool t = (int64_t)R[d->rs] < 0;
            R[31] = pc + 8;
            BRANCH_LIKELY(t);
            break;
        }
        case OP_BGEZALL: {
            bool t = (int64_t)R[d->rs] >= 0;
            R[31] = pc + 8;
            BRANCH_LIKELY(t);
            break;
        }
        case OP_J:
            dly = true;
            dtarget = ((pc + 4) & ~0x0fffffffull) | (uint64_t)d->imm;
            break;
        case OP_JAL:
            R[31] = pc + 8;
            dly = true;
            dtarget = ((pc + 4) & ~0x0fffffffull) | (uint64_t)d->imm;
            break;
        case OP_BEQ: BRANCH(R[d->rs] == R[d->rt]); break;
        case OP_BNE: BRANCH(R[d->rs] != R[d->rt]); break;
        case OP_BLEZ: BRANCH((int64_t)R[d->rs] <= 0); break;
        case OP_BGTZ: BRANCH((int64_t)R[d->rs] > 0); break;
        case OP_BEQL: BRANCH_LIKELY(R[d->rs] == R[d->rt]); break;
        case OP_BNEL: BRANCH_LIKELY(R[d->rs] != R[d->rt]); break;
        case OP_BLEZL: BRANCH_LIKELY((int64_t)R[d->rs] <= 0); break;
        case OP_BGTZL: BRANCH_LIKELY((int64_t)R[d->rs] > 0); break;
        case OP_ADDI: {
            int32_t r;
            if (__builtin_add_overflow((int32_t)R[d->rs], (int32_t)d->imm, &r))
                EXC(EXC_OV);
            R[d->rd] = (uint64_t)(int64_t)r;
            break;
        }
        case OP_ADDIU: R[d->rd] = (uint64_t)sext32(R[d->rs] + (uint64_t)d->imm); break;
        case OP_SLTI: R[d->rd] = (int64_t)R[d->rs] < d->imm; break;
        case OP_SLTIU: R[d->rd] = R[d->rs] < (uint64_t)d->imm; break;
        case OP_ANDI: R[d->rd] = R[d->rs] & (uint64_t)d->imm; break;
        case OP_ORI: R[d->rd] = R[d->rs] | (uint64_t)d->imm; break;
        case OP_XORI: R[d->rd] = R[d->rs] ^ (uint64_t)d->imm; break;
        case OP_LUI: R[d->rd] = (uint64_t)d->imm; break;
        case OP_DADDI: {
            CHK64();
            int64_t r;
            if (__builtin_add_overflow((int64_t)R[d->rs], d->imm, &r))
                EXC(EXC_OV);
            R[d->rd] = (uint64_t)r;
            break;
        }
        case OP_DADDIU: CHK64(); R[d->rd] = R[d->rs] + (uint64_t)d->imm; break;
        case OP_LB: { uint64_t v; LOAD(1, EA(), v, LB_); R[d->rd] = v; break; }
        case OP_LBU: { uint64_t v; LOAD(1, EA(), v, LBU_); R[d->rd] = v; break; }
        case OP_LH: { uint64_t v; LOAD(2, EA(), v, LH_); R[d->rd] = v; break; }
        case OP_LHU: { uint64_t v; LOAD(2, EA(), v, LHU_); R[d->rd] = v; break; }
        case OP_LW: { uint64_t v; LOAD(4, EA(), v, LW_); R[d->rd] = v; break; }
        case OP_LWU: { CHK64(); uint64_t v; LOAD(4, EA(), v, LWU_); R[d->rd] = v; break; }
        case OP_LD: { CHK64(); uint64_t v; LOAD(8, EA(), v, LD_); R[d->rd] = v; break; }
        case OP_SB: STORE(1, EA(), R[d->rt], SB_); break;
        case OP_SH: STORE(2, EA(), R[d->rt], SH_); break;
        case OP_SW: STORE(4, EA(), R[d->rt], SW_); break;
        case OP_SD: CHK64(); STORE(8, EA(), R[d->rt], SD_); break;
        case OP_LWL: case OP_LWR: {
            uint64_t va = EA(), w;
            unsigned k = va & 3, rd = d->rd;
            uint32_t old = (uint32_t)R[d->rt], r;
            bool left = d->op == OP_LWL;
            SYNC();
            if (!mem_load_aligned(c, va, 4, &w))
                goto exc;
            if (left)
                r = (uint32_t)(w << (8 * k)) | (k ? old & (0xffffffffu >> (32 - 8 * k)) : 0);
            else
                r = (uint32_t)(w >> (8 * (3 - k))) |
                    (k == 3 ? 0 : old & ~(0xffffffffu >> (8 * (3 - k))));
            R[rd] = (uint64_t)sext32(r);
            break;
        }
        case OP_LDL: case OP_LDR: {
            CHK64();
            uint64_t va = EA(), w, old = R[d->rt], r;
            unsigned k = va & 7, rd = d->rd;
            bool left = d->op == OP_LDL;
            SYNC();
            if (!mem_load_aligned(c, va, 8, &w))
                goto exc;
            if (left)
                r = (w << (8 * k)) | (k ? old & (~0ull >> (64 - 8 * k)) : 0);
            else
                r = (w >> (8 * (7 - k))) | (k == 7 ? 0 : old & ~(~0ull >> (8 * (7 - k))));
            R[rd] = r;
            break;
        }
        case OP_SWL: case OP_SWR: {
            uint64_t va = EA();
            uint32_t v = (uint32_t)R[d->rt];
            unsigned k = va & 3;
            uint64_t val, mask;
            if (d->op == OP_SWL) {
                val = v >> (8 * k);
                mask = 0xffffffffu >> (8 * k);
            } else {
                val = (uint32_t)(v << (8 * (3 - k)));
                mask = (uint32_t)(0xffffffffu << (8 * (3 - k)));
            }
            SYNC();
            if (!mem_store_merge(c, va, 4, val, mask))
                goto exc;
            break;
        }
        case OP_SDL: case OP_SDR: {
            CHK64();
            uint64_t va = EA(), v = R[d->rt], val, mask;
            unsigned k = va & 7;
            if (d->op == OP_SDL) {
                val = v >> (8 * k);
                mask = ~0ull >> (8 * k);
            } else {
                val = v << (8 * (7 - k));
                mask = ~0ull << (8 * (7 - k));
            }
            SYNC();
            if (!mem_store_merge(c, va, 8, val, mask))
                goto exc;
            break;
        }
        case OP_LL: case OP_LLD: {
            unsigned size = d->op == OP_LL ? 4 : 8, rd = d->rd;
            if (size == 8)
                CHK64();
            uint64_t v;
            SYNC();
            if (!mem_ll(c, EA(), size, &v))
                goto exc;
            R[rd] = size == 4 ? (uint64_t)sext32(v) : v;
            break;
        }
        case OP_SC: case OP_SCD: {
            unsigned size = d->op == OP_SC ? 4 : 8, rt_ = d->rt;
            if (size == 8)
                CHK64();
            SYNC();
            int r = mem_sc(c, EA(), size, R[rt_]);
            if (r < 0)
                goto exc;
            R[rt_ ? rt_ : 32] = (uint64_t)r;
            break;
        }
        case OP_CACHE:
            if (unlikely(!c->cu0))
                EXC_CE(0);
            /* Index Load Tag (op 1) reads an all-invalid tag; the rest is a
             * no-op: there are no caches to maintain. */
            if ((d->rt >> 2) == 1)
                c->cp0[CP0_TAGLO] = c->cp0[CP0_TAGHI] = 0;
            break;
        case OP_LWC1: case OP_LDC1: case OP_LWXC1: case OP_LDXC1: {
            if (unlikely(!(c->status & ST_CU1)))
                EXC_CE(1);
            if (d->op == OP_LWXC1 || d->op == OP_LDXC1)
                CHK4();
            bool dbl = d->op == OP_LDC1 || d->op == OP_LDXC1;
            uint64_t va = (d->op == OP_LWC1 || d->op == OP_LDC1) ? EA() : R[d->rs] + R[d->rt];
            unsigned fr_ = d->sa;
            uint64_t v;
            if (dbl)
                LOAD(8, va, v, LD_);
            else
                LOAD(4, va, v, LWU_);
            bool fr = (c->status & ST_FR) != 0;
            if (dbl)
                fpu_set_d(&c->fpu, fr_, fr, v);
            else
                fpu_set_w(&c->fpu, fr_, fr, (uint32_t)v);
            break;
        }
        case OP_SWC1: case OP_SDC1: case OP_SWXC1: case OP_SDXC1: {
            if (unlikely(!(c->status & ST_CU1)))
                EXC_CE(1);
            if (d->op == OP_SWXC1 || d->op == OP_SDXC1)
                CHK4();
            bool fr = (c->status & ST_FR) != 0;
            uint64_t va = (d->op == OP_SWC1 || d->op == OP_SDC1) ? EA() : R[d->rs] + R[d->rt];
            if (d->op == OP_SDC1 || d->op == OP_SDXC1)
                STORE(8, va, fpu_get_d(&c->fpu, d->sa, fr), SD_);
            else
                STORE(4, va, fpu_get_w(&c->fpu, d->sa, fr), SW_);
            break;
        }
        case OP_PREFX:
            if (unlikely(!(c->status & ST_CU1)))
                EXC_CE(1);
            CHK4();
            break;
        case OP_BC1: {
            if (unlikely(!(c->status & ST_CU1)))
                EXC_CE(1);
            if (d->sa)
                CHK4(); /* condition codes other than 0 are MIPS IV */
            bool t = fpu_cc(&c->fpu, d->sa) == ((d->rt & 1) != 0);
            if (d->rt & 2)
                BRANCH_LIKELY(t);
            else
                BRANCH(t);
            break;
        }
        case OP_COP1: case OP_COP1X: {
            if (unlikely(!(c->status & ST_CU1)))
                EXC_CE(1);
            if (d->op == OP_COP1X)
                CHK4();
            SYNC();
            int r = fpu_exec(&c->fpu, d->raw, (c->status & ST_FR) != 0, R);
            R[0] = 0;
            if (r == FPU_EXC_FPE)
                EXC(EXC_FPE);
            if (r == FPU_EXC_RI)
                EXC(EXC_RI);
            break;
        }
        case OP_COP2:
            if (!(c->status & ST_CU2))
                EXC_CE(2);
            EXC(EXC_RI);
        case OP_MFC0: case OP_DMFC0: {
            if (unlikely(!c->cu0))
                EXC_CE(0);
            if (d->op == OP_DMFC0)
                CHK64();
            SYNC();
            uint64_t v = cp0_read(c, d->sa, (unsigned)d->imm);
            R[d->rd] = d->op == OP_MFC0 ? (uint64_t)sext32(v) : v;
            break;
        }
        case OP_MTC0: case OP_DMTC0: {
            if (unlikely(!c->cu0))
                EXC_CE(0);
            if (d->op == OP_DMTC0)
                CHK64();
            SYNC();
            uint64_t v = R[d->rt];
            cp0_write(c, d->sa, (unsigned)d->imm, d->op == OP_MTC0 ? (uint64_t)sext32(v) : v);
            pc = npc;
            goto reload;
        }
        case OP_TLBR: case OP_TLBWI: case OP_TLBWR: case OP_TLBP: {
            if (unlikely(!c->cu0))
                EXC_CE(0);
            SYNC();
            switch (d->op) {
            case OP_TLBR: tlb_read(c); break;
            case OP_TLBWI: tlb_write(c, c->cp0[CP0_INDEX] & 63); break;
            case OP_TLBWR: tlb_write(c, tlb_random(c)); break;
            default: tlb_probe(c); break;
            }
            pc = npc;
            goto reload;
        }
        case OP_ERET:
            if (unlikely(!c->cu0))
                EXC_CE(0);
            SYNC();
            cpu_eret(c);
            pc = c->pc;
            dly = false;
            goto reload;
        case OP_COUNT:
        default:
            __builtin_unreachable(); /* the decoder only produces valid ops */
        }
        pc = npc;
        continue;
    exc:
        pc = c->pc;
        now = clk->now;
        dly = false;
        goto reload;
    }
    c->pc = pc;
    c->dly = dly;
    c->in_ds = dly;
    c->dtarget = dtarget;
    clk->now = now;
    return rc;
}

int cpu_run(cpu *c, uint64_t until)
{
    sched *clk = c->clock;
    int rc = CPU_RAN;
    c->until = until;
    c->retired_delta = (int64_t)(c->retired - clk->now);
    c->running = true;
    if (c->step_over) {
        c->step_over = false;
        c->skip_bp = true;
        c->skip_pc = c->pc;
        c->fvbase = ~0ull;
    }
    for (;;) {
        if (c->exit_req) {
            c->exit_req = 0;
            rc = CPU_EXIT;
            break;
        }
        if (c->stop) {
            rc = c->stop;
            c->stop = 0;
            break;
        }
        if (c->halt_reason) {
            rc = CPU_HALTED;
            break;
        }
        /* Page flags changed without our flags_changed callback seeing it. */
        if (unlikely(c->flags_gen != c->bus->flags_gen))
            stlb_flush(c);
        if (unlikely(c->nmi_pending)) {
            c->nmi_pending = false;
            cpu_apply_nmi(c);
        }
        if (unlikely(c->sreset_pending)) {
            c->sreset_pending = false;
            cpu_apply_soft_reset(c);
        }
        cpu_timer_check(c);
        if (cpu_irq_pending(c)) {
            c->in_ds = c->dly;
            cpu_exception(c, EXC_INT, 0, false);
            clk->now++;
        }
        if (clk->now >= until) {
            rc = CPU_RAN;
            break;
        }
        uint64_t lim = until;
        uint64_t t = c->timer_at - (uint64_t)c->retired_delta;
        if (t < lim)
            lim = t;
        c->limit = lim;
        if (c->exit_req || c->stop)
            c->limit = 0;
        uint64_t before = clk->now;
        int r = run_inner(c);
        if (unlikely(c->perf_ctl[0] | c->perf_ctl[1]))
            cpu_perf_account(c, clk->now - before);
        if (r) {
            rc = r;
            break;
        }
    }
    c->retired = (uint64_t)((int64_t)clk->now + c->retired_delta);
    c->running = false;
    c->skip_bp = false;
    return rc;
}

void cpu_request_exit(cpu *c)
{
    c->exit_req = 1;
    c->limit = 0;
}
