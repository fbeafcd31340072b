/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The translator's run loop, code cache and invalidation (the code
 * generator is jit_gen.c).
 *
 * jit_run() replaces the interpreter's inner loop (cpu_interp) when the
 * engine is the translator: it looks the pc up through the exec soft TLB
 * and the page's block table, translates on a miss, and runs the block,
 * which chains on to other blocks of its page by direct jumps and to other
 * pages through a lookup stub, until the budget or a kick stops it.  What
 * it does not translate it hands to the interpreter for a few instructions:
 * a pending delay slot, pages without an exec soft-TLB entry (breakpoints,
 * HLE hooks, idle points, the trace hook, MMIO, the ERL bypass), the
 * probe of idle.c, and a block that does not fit in what is left of the
 * budget (the interpreter then stops exactly at the limit).
 *
 * A block runs only when all its instructions fit in the budget (its entry
 * checks clock + length against c->limit, which a kick sets to 0), and
 * every helper it calls reports whether the CPU was kicked or code it may
 * be running was dropped (JH_STOP): the block then leaves right after that
 * instruction, as the interpreter does after a slow path.
 */
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#include "cpu/insn.h"
#include "cpu/jit.h"
#include "cpu/ops.h"
#if JIT_HOST
#include "cpu/x86emit.h"
#endif

jit_block *const jit_no_blocks[DPAGE_INSNS];

#if JIT_HOST

/* Code cache size (bytes) and block records. */
#define JIT_CACHE_SIZE (64u << 20)
#define JIT_MAX_BLOCKS (JIT_CACHE_SIZE / 256)
/* Instructions the interpreter runs when the pc has no exec soft-TLB entry. */
#define JIT_INTERP_CHUNK 8
/* ... and while the trace hook is set. */
#define JIT_TRACE_CHUNK 4096

bool jit_available(void) { return true; }

static size_t cache_size(void)
{
    const char *s = getenv("XBOW_JIT_CACHE_KB");
    if (s && *s) {
        unsigned long kb = strtoul(s, NULL, 10);
        if (kb >= 256 && kb <= (1ul << 22))
            return (size_t)kb << 10;
    }
    return JIT_CACHE_SIZE;
}

static unsigned tier_threshold(void)
{
    const char *s = getenv("XBOW_JIT_TIER");
    if (s && *s) {
        unsigned long n = strtoul(s, NULL, 10);
        if (n <= 255)
            return (unsigned)n;
    }
    return JIT_TIER_DEFAULT;
}

/* Near the program's own code if the kernel agrees, so that calls to the
 * helpers fit a rel32. */
static void *map_code(size_t size)
{
    uintptr_t near = ((uintptr_t)&jit_run & ~(uintptr_t)0xfffff) - size - (64u << 20);
    void *p = mmap((void *)near, size, PROT_READ | PROT_WRITE | PROT_EXEC,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        p = mmap(NULL, size, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1,
                 0);
    return p == MAP_FAILED ? NULL : p;
}

static jit_cache *group_jit(cpu_group *g)
{
    if (g->jit)
        return g->jit;
    /* A host that refuses executable memory leaves the CPUs to the
     * interpreter (jit_run); that is no error. */
    size_t size = cache_size();
    uint8_t *mem = map_code(size);
    if (!mem)
        return NULL;
    jit_cache *jc = xcalloc(1, sizeof *jc);
    jc->size = size;
    jc->mem = mem;
    jc->maxblocks = (unsigned)(jc->size / 256);
    jc->blocks = xcalloc(jc->maxblocks, sizeof *jc->blocks);
    jc->tier = tier_threshold();
    jit_emit_stubs(jc);
    jc->used = jc->fixed;
    g->jit = jc;
    return jc;
}

void jit_cpu_free(cpu *c)
{
    free(c->jit_jc);
    c->jit_jc = NULL;
}

static void jc_clear(cpu *c)
{
    if (c->jit_jc)
        for (unsigned i = 0; i < JIT_JC_SIZE; i++)
            c->jit_jc[i].vpc = 1; /* (no pc is odd) */
}

void jit_group_free(cpu_group *g)
{
    jit_cache *jc = g->jit;
    if (!jc)
        return;
    for (unsigned i = 0; i < jc->ntabbed; i++) {
        dpage *p = jc->tabbed[i];
        free(p->jtab);
        p->jtab = (jit_block **)jit_no_blocks;
        p->jlist = NULL;
    }
    free(jc->tabbed);
    free(jc->blocks);
    munmap(jc->mem, jc->size);
    free(jc);
    g->jit = NULL;
}

uint8_t *jit_alloc_code(jit_cache *jc, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (jc->used + n > jc->size)
        return NULL;
    uint8_t *p = jc->mem + jc->used;
    jc->used += n;
    jc->code_bytes += n;
    return p;
}

/* Drop every translation (the cache is full). */
void jit_flush(cpu_group *g)
{
    jit_cache *jc = g->jit;
    for (unsigned i = 0; i < jc->ntabbed; i++) {
        dpage *p = jc->tabbed[i];
        memset(p->jtab, 0, DPAGE_INSNS * sizeof *p->jtab);
        p->jlist = NULL;
    }
    jc->nblocks = 0;
    jc->used = jc->fixed;
    jc->flushes++;
    for (unsigned i = 0; i < g->ncpus; i++) {
        g->cpus[i]->jit_smc = true;
        jc_clear(g->cpus[i]);
    }
}

jit_block *jit_new_block(cpu_group *g, dpage *p, uint64_t vpc, unsigned flavor)
{
    jit_cache *jc = g->jit;
    if (p->jtab == jit_no_blocks) {
        if (jc->ntabbed == jc->tabcap) {
            unsigned cap = jc->tabcap ? 2 * jc->tabcap : 64;
            jc->tabbed = xrealloc(jc->tabbed, cap * sizeof *jc->tabbed);
            jc->tabcap = cap;
        }
        p->jtab = xcalloc(DPAGE_INSNS, sizeof *p->jtab);
        jc->tabbed[jc->ntabbed++] = p;
    }
    if (jc->nblocks >= jc->maxblocks)
        return NULL;
    jit_block *b = &jc->blocks[jc->nblocks++];
    memset(b, 0, sizeof *b);
    b->vpc = vpc;
    b->page = p;
    b->flavor = (uint8_t)flavor;
    return b;
}

/* ---- Invalidation ------------------------------------------------------ */

static void unchain(jit_exit *e)
{
    x_set_rel32(e->jmp, e->stub);
    e->to = NULL;
}

static void drop_block(cpu_group *g, dpage *p, jit_block *v)
{
    for (unsigned i = 0; i < g->ncpus; i++) {
        jit_jc *t = g->cpus[i]->jit_jc;
        if (t && jit_jc_entry(t, v->vpc)->code == v->code)
            jit_jc_entry(t, v->vpc)->vpc = 1;
    }
    unsigned k = (unsigned)((v->vpc & 0xfff) >> 2);
    for (jit_block **pp = &p->jtab[k]; *pp; pp = &(*pp)->alias) {
        if (*pp == v) {
            *pp = v->alias;
            break;
        }
    }
    for (jit_block **pp = &p->jlist; *pp; pp = &(*pp)->next) {
        if (*pp == v) {
            *pp = v->next;
            break;
        }
    }
    v->valid = false;
    for (jit_block *b = p->jlist; b; b = b->next)
        for (unsigned i = 0; i < b->nexits; i++)
            if (b->exits[i].to == v)
                unchain(&b->exits[i]);
}

void jit_invalidate(cpu_group *g, dpage *p, unsigned lo, unsigned hi)
{
    if (!g->jit || !p->jlist)
        return;
    bool any = false;
    for (jit_block *b = p->jlist, *n; b; b = n) {
        n = b->next;
        if (b->first <= hi && lo <= b->last) {
            drop_block(g, p, b);
            g->jit->invalidated++;
            any = true;
        }
    }
    if (any)
        for (unsigned i = 0; i < g->ncpus; i++)
            g->cpus[i]->jit_smc = true;
}

/* ---- Helpers the generated code calls ------------------------------------ */

/* Everything below is called with c->pc, c->in_ds and the clock synced and
 * the GPRs written back, as the interpreter's SYNC() leaves them. */

static inline bool go_on(const cpu *c) { return c->limit != 0 && !c->jit_smc; }

static inline int status(const cpu *c) { return go_on(c) ? JH_OK : JH_STOP; }

/* An exception was taken: the block may go on at the vector when the mode
 * the code was translated for still holds and nothing asked to stop (as
 * the interpreter goes on after its `exc:`). */
static inline int exc_status(const cpu *c, unsigned flavor)
{
    return jit_flavor(c) == flavor && go_on(c) ? JH_GO : JH_EXC;
}

int jh_exception(cpu *c, int code)
{
    c->rs.helpers[JIT_HELP_EXC]++;
    unsigned f = jit_flavor(c);
    cpu_exception(c, code, 0, false);
    return exc_status(c, f);
}

int jh_exception_ce(cpu *c, int ce)
{
    c->rs.helpers[JIT_HELP_EXC]++;
    unsigned f = jit_flavor(c);
    cpu_exception_ce(c, ce);
    return exc_status(c, f);
}

/* A load that missed the soft TLB: op | rd << 8. */
int jh_load(cpu *c, uint64_t va, unsigned oprd)
{
    unsigned op = oprd & 0xff, rd = oprd >> 8, f = jit_flavor(c);
    uint64_t v;
    c->rs.helpers[JIT_HELP_LOAD]++;
    if (!mem_load_slow(c, va, insn_mem_size(op), &v))
        return exc_status(c, f);
    c->gpr[rd] = insn_load_extend(op, v);
    return status(c);
}

int jh_store(cpu *c, uint64_t va, uint64_t val, unsigned size)
{
    unsigned f = jit_flavor(c);
    c->rs.helpers[JIT_HELP_STORE]++;
    if (!mem_store_slow(c, va, size, val))
        return exc_status(c, f);
    return status(c);
}

void jh_link_store(cpu *c, uint64_t va, unsigned size) { cpu_link_store_va(c, va, size); }

/* LWL ... SDR, LL/SC, the FP loads and stores: op | rd << 8 | rt << 16. */
int jh_mem_other(cpu *c, uint64_t va, unsigned ops)
{
    unsigned op = ops & 0xff, rd = (ops >> 8) & 0xff, rt = (ops >> 16) & 0xff, f = jit_flavor(c);
    bool ok;
    c->rs.helpers[JIT_HELP_MEM_OTHER]++;
    switch (op) {
    case OP_LWL:
    case OP_LWR:
    case OP_LDL:
    case OP_LDR: ok = insn_load_merge(c, op, va, rd, c->gpr[rt]); break;
    case OP_SWL:
    case OP_SWR:
    case OP_SDL:
    case OP_SDR: ok = insn_store_merge(c, op, va, c->gpr[rt]); break;
    case OP_LL:
    case OP_LLD: ok = insn_ll(c, op, va, rd); break;
    case OP_SC:
    case OP_SCD: ok = insn_sc(c, op, va, rt, c->gpr[rt]); break;
    default: return jh_exception(c, EXC_RI);
    }
    c->gpr[0] = 0;
    return ok ? status(c) : exc_status(c, f);
}

/* LWC1 ... SDXC1: op | ft << 8; the checks of exec_mem.h in its order. */
int jh_fpmem(cpu *c, uint64_t va, unsigned opft)
{
    unsigned op = opft & 0xff, ft = opft >> 8, f = jit_flavor(c);
    c->rs.helpers[JIT_HELP_FPMEM]++;
    if (!(c->status & ST_CU1))
        return jh_exception_ce(c, 1);
    bool indexed = op == OP_LWXC1 || op == OP_LDXC1 || op == OP_SWXC1 || op == OP_SDXC1;
    if (indexed && !c->mips4)
        return jh_exception(c, EXC_RI);
    unsigned size = insn_mem_size(op);
    if (op == OP_LWC1 || op == OP_LDC1 || op == OP_LWXC1 || op == OP_LDXC1) {
        uint64_t v;
        uint8_t *p = stlb_lookup(c->st->r, va, size);
        if (p)
            v = insn_host_load(p, size);
        else if (!mem_load_slow(c, va, size, &v))
            return exc_status(c, f);
        insn_fp_load(c, op, ft, v);
    } else {
        uint64_t v = insn_fp_store_value(c, op, ft);
        uint8_t *p = stlb_lookup(c->st->w, va, size);
        if (p) {
            insn_host_store(p, size, v);
            fast_store_link(c, va, size);
        } else if (!mem_store_slow(c, va, size, v)) {
            return exc_status(c, f);
        }
    }
    return status(c);
}

/* COP1 (x = false) and COP1X (x = true) operations of the FPU. */
int jh_cop1(cpu *c, uint32_t raw, unsigned x)
{
    c->rs.helpers[JIT_HELP_COP1]++;
    if (!(c->status & ST_CU1))
        return jh_exception_ce(c, 1);
    if (x && !c->mips4)
        return jh_exception(c, EXC_RI);
    int e = insn_cop1(c, raw);
    if (e)
        return jh_exception(c, e);
    return status(c);
}

/* MFC0, DMFC0, MTC0, DMTC0, the TLB instructions and ERET:
 * op | rd << 8 | rt << 16 | sa (the CP0 register) << 24; sel.  After a
 * write the block goes on if the mode is the one it was translated for and
 * nothing asked to stop (a change of the soft TLB or of what interrupt is
 * pending kicks the CPU), as the interpreter's done_reload does. */
int jh_cp0(cpu *c, unsigned ops, unsigned sel)
{
    unsigned op = ops & 0xff, rd = (ops >> 8) & 0xff, rt = (ops >> 16) & 0xff, reg = ops >> 24;
    unsigned f = jit_flavor(c);
    c->rs.helpers[JIT_HELP_CP0]++;
    if (!c->cu0)
        return jh_exception_ce(c, 0);
    if ((op == OP_DMFC0 || op == OP_DMTC0) && !c->ops64)
        return jh_exception(c, EXC_RI);
    switch (op) {
    case OP_MFC0:
    case OP_DMFC0:
        c->gpr[rd] = insn_mfc0(c, op, reg, sel);
        c->gpr[0] = 0;
        break;
    case OP_MTC0:
    case OP_DMTC0: insn_mtc0(c, op, reg, sel, c->gpr[rt]); break;
    case OP_TLBR:
    case OP_TLBWI:
    case OP_TLBWR:
    case OP_TLBP: insn_tlb(c, op); break;
    case OP_ERET: /* on at the new pc, or out (JH_EXC: the pc is set) */
        cpu_eret(c);
        c->dly = false;
        return exc_status(c, f);
    default: return jh_exception(c, EXC_RI);
    }
    return jit_flavor(c) == f ? status(c) : JH_STOP;
}

void cpu_jit_info_get(const cpu *c, cpu_jit_info *out)
{
    memset(out, 0, sizeof *out);
    out->interp_ticks = c->jit_interp_ticks;
    const jit_cache *jc = c->group ? c->group->jit : NULL;
    if (!jc)
        return;
    out->blocks = jc->translated;
    out->insns = jc->translated_insns;
    out->flushes = jc->flushes;
    out->invalidated = jc->invalidated;
    out->chained = jc->chained;
    out->code_bytes = jc->code_bytes;
    out->cache_used = jc->used;
    out->cache_size = jc->size;
    out->gen_ns = jc->gen_ns;
}

/* ---- The run loop ---------------------------------------------------------- */

typedef uintptr_t (*jit_enter_fn)(cpu *c, const uint8_t *code);

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static jit_block *find_block(const dpage *p, uint64_t pc, unsigned flavor)
{
    jit_block *b = p->jtab[(pc & 0xfff) >> 2];
    while (b && (b->vpc != pc || b->flavor != flavor))
        b = b->alias;
    return b;
}

/* The interpreter for at most n instructions, counted apart (why: enum
 * jit_interp_why). */
static int interp(cpu *c, uint64_t n, unsigned why)
{
    uint64_t t0 = c->clock->now;
    int r = cpu_interp(c, n);
    uint64_t ran = c->clock->now - t0;
    c->jit_interp_ticks += ran;
    c->rs.interp[why]++;
    c->rs.interp_ticks[why] += ran;
    return r;
}

/* Tiers.  Most of a boot's code runs a few times, and translating a block
 * costs as much host time as interpreting it tens of times: a block start
 * is interpreted until the dispatcher has come to it jc->tier times,
 * counted in its decoded slot (`hits`, which a new decoding of the slot
 * clears along with the blocks that cover it), so that cold code costs the
 * dispatcher no look-up in the page's block table.  Is slot d still cold? */
static bool still_cold(const jit_cache *jc, cpu *c, dpage *p, dinsn *d)
{
    if (d->hits >= jc->tier)
        return false;
    if (d->op == OP_DECODE) /* (decoding clears hits) */
        dpage_decode_slot(c, p, d);
    d->hits++;
    return true;
}

/* Instructions in the block that starts at slot k: up to and with the
 * delay slot of the first branch or jump, or to the end of the page, at
 * most JIT_MAX_INSNS (what the interpreter runs of a cold block, so that
 * the dispatcher comes back at the next block's start). */
static unsigned block_len(cpu *c, dpage *p, unsigned k)
{
    unsigned n = 0;
    for (; k < DPAGE_INSNS && n < JIT_MAX_INSNS; k++) {
        dinsn *d = &p->insn[k];
        if (d->op == OP_DECODE)
            dpage_decode_slot(c, p, d);
        n++;
        if (op_is_control(d->op))
            return k + 1 < DPAGE_INSNS ? n + 1 : n;
    }
    return n;
}

int jit_run(cpu *c)
{
    cpu_group *g = c->group;
    jit_cache *jc = group_jit(g);
    if (!jc) { /* no executable memory: the interpreter it is */
        c->use_jit = false;
        return cpu_interp(c, UINT64_MAX);
    }
    if (!c->jit_jc) {
        c->jit_jc = xmalloc(JIT_JC_SIZE * sizeof *c->jit_jc);
        jc_clear(c);
    }
    sched *clk = c->clock;
    jit_exit *pending = NULL;
    uint64_t flushes = jc->flushes;
    for (;;) {
        if (clk->now >= c->limit)
            return 0;
        int r;
        if (unlikely(c->dly || c->trace || c->probe.on)) {
            /* The trace hook sees each instruction, and so does the probe
             * of idle.c (cpu_probe_step, from the interpreter's fetch
             * path): the interpreter runs them all until the hook is gone
             * or the probe has decided (it kicks the CPU), or the limit. */
            if ((r = interp(c, c->dly ? 1 : JIT_TRACE_CHUNK,
                            c->dly ? JIT_INTERP_DSLOT : JIT_INTERP_HOOK)) != 0)
                return r;
            pending = NULL;
            continue;
        }
        uint64_t pc = c->pc;
        xtlb *x = &c->st->x[(pc >> RAM_PAGE_SHIFT) & (STLB_SIZE - 1)];
        if (x->tag != (pc & ~0xffcull)) {
            if ((r = interp(c, JIT_INTERP_CHUNK, JIT_INTERP_NOEXEC)) != 0)
                return r;
            pending = NULL;
            continue;
        }
        dpage *p = x->page;
        unsigned flavor = jit_flavor(c);
        jit_jc *e = jit_jc_entry(c->jit_jc, pc);
        unsigned k = (unsigned)((pc & 0xfff) >> 2);
        if (still_cold(jc, c, p, &p->insn[k])) {
            if ((r = interp(c, block_len(c, p, k), JIT_INTERP_COLD)) != 0)
                return r;
            pending = NULL;
            continue;
        }
        jit_block *b = find_block(p, pc, flavor);
        if (!b) {
            uint64_t t0 = now_ns();
            b = jit_translate(c, p, x->tag, pc);
            jc->gen_ns += now_ns() - t0;
            c->rs.translations++;
            if (jc->flushes != flushes) {
                flushes = jc->flushes;
                pending = NULL;
            }
            if (!b) { /* (mostly a branch whose delay slot is on the next page) */
                if ((r = interp(c, 2, JIT_INTERP_UNTRANS)) != 0)
                    return r;
                pending = NULL;
                continue;
            }
        }
        if (pending && pending->target == pc && pending->from->valid && b->page == p &&
            pending->from->page == p) {
            x_set_rel32(pending->jmp, b->code);
            pending->to = b;
            jc->chained++;
        }
        pending = NULL;
        *e = (jit_jc){pc, p, b->code, flavor};
        c->jit_smc = false;
        c->rs.enters++;
        uintptr_t ret = ((jit_enter_fn)(void *)jc->enter)(c, b->code);
        if (ret > JIT_RET_EXC)
            c->rs.back[JIT_BACK_CHAIN]++;
        else
            c->rs.back[ret == JIT_RET_DONE   ? JIT_BACK_LOOKUP
                       : ret == JIT_RET_BAIL ? JIT_BACK_BUDGET
                       : ret == JIT_RET_STOP ? JIT_BACK_STOP
                                             : JIT_BACK_EXC]++;
        if (ret == JIT_RET_BAIL) {
            /* Not enough budget for the block: the interpreter takes it to
             * the limit (or the kick is seen at the top). */
            uint64_t lim = c->limit, now = clk->now;
            if (now < lim && (r = interp(c, lim - now, JIT_INTERP_BUDGET)) != 0)
                return r;
        } else if (ret > JIT_RET_EXC) {
            pending = (jit_exit *)ret;
        }
    }
}

#else /* !JIT_HOST */

void cpu_jit_info_get(const cpu *c, cpu_jit_info *out)
{
    memset(out, 0, sizeof *out);
    out->interp_ticks = c->jit_interp_ticks;
}

bool jit_available(void) { return false; }

int jit_run(cpu *c)
{
    c->use_jit = false;
    return cpu_interp(c, UINT64_MAX);
}

void jit_group_free(cpu_group *g) {}
void jit_cpu_free(cpu *c) {}
void jit_invalidate(cpu_group *g, dpage *p, unsigned lo, unsigned hi) {}

#endif
