/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The translator's private interface (jit.c, jit_gen.c), shared with the
 * rest of src/cpu.
 *
 * Translated blocks hang off the decoded pages (dpage): each page that has
 * any gets a table with one pointer per slot (the block starting there, and
 * through `alias` the blocks of other virtual addresses or modes starting
 * there), and a list of all its blocks for invalidation.  The code lives
 * in one executable area per CPU group (the code cache); when it is full,
 * everything is dropped and translation starts again.  See docs/cpu.md,
 * "The translator".
 */
#ifndef XBOW_CPU_JIT_H
#define XBOW_CPU_JIT_H

#include "cpu/cpu_internal.h"

#if defined(__x86_64__)
#define JIT_HOST 1
#else
#define JIT_HOST 0
#endif

/* At most this many guest instructions per block. */
#define JIT_MAX_INSNS 64

typedef struct jit_block jit_block;

/* A direct exit to a known pc on the block's own page: its jump starts out
 * pointing at a stub that returns to the dispatcher with this record, which
 * may then point the jump straight at the target block (chaining). */
typedef struct jit_exit {
    uint8_t *jmp;    /* the rel32 of the jump to patch */
    uint8_t *stub;   /* where it goes while unchained */
    uint64_t target; /* guest pc */
    jit_block *from, *to;
} jit_exit;

struct jit_block {
    uint64_t vpc;  /* first instruction's virtual address */
    uint8_t *code; /* its entry (the budget check) */
    dpage *page;
    jit_block *alias;     /* another block starting at the same slot */
    jit_block *next;      /* the page's blocks */
    uint16_t first, last; /* slots covered */
    uint16_t ninsns;
    uint8_t flavor; /* jit_flavor() it was translated for */
    bool valid;
    uint8_t nexits;
    jit_exit exits[2];
};

/* The mode a block's code assumes: the soft-TLB set and which operations
 * raise Reserved Instruction.  Only exceptions, ERET and CP0 writes change
 * it, and those end a block. */
static inline unsigned jit_flavor(const cpu *c)
{
    return (unsigned)c->mode | (c->ops64 ? 4u : 0) | (c->mips4 ? 8u : 0);
}

/* The jump cache, per CPU: the block last found for a pc, direct-mapped by
 * the pc.  An entry is good while its page is still what the exec soft TLB
 * maps the pc to (the lookup compares it), its mode is the CPU's, and the
 * block lives (dropping a block clears its entries). */
#define JIT_JC_BITS 14
#define JIT_JC_SIZE (1u << JIT_JC_BITS)
typedef struct jit_jc {
    uint64_t vpc;
    dpage *page;
    uint8_t *code;
    uint64_t flavor;
} jit_jc;
_Static_assert(sizeof(jit_jc) == 32, "jump cache entries are 32 bytes");
static inline jit_jc *jit_jc_entry(jit_jc *t, uint64_t pc)
{
    return &t[(pc >> 2) & (JIT_JC_SIZE - 1)];
}

/* Tiers: a block start is interpreted (one block at a time) until the
 * dispatcher has come to it this many times, then translated (jit.c,
 * docs/cpu.md "Tiers"); XBOW_JIT_TIER=N (0 to 255) changes it (0:
 * translate at once). */
#define JIT_TIER_DEFAULT 32

/* Per CPU group. */
typedef struct jit_cache {
    uint8_t *mem; /* the executable area */
    size_t size;
    size_t fixed; /* bytes of stubs at its start (kept across flushes) */
    size_t used;
    jit_block *blocks; /* block records, a pool reset by a flush */
    unsigned nblocks, maxblocks;
    dpage **tabbed; /* pages that have a block table */
    unsigned ntabbed, tabcap;
    /* Stubs (in the fixed part). */
    uint8_t *enter;         /* int enter(cpu *c, void *code) */
    uint8_t *exit_pc;       /* rdx = pc to store, rax = result */
    uint8_t *exit_synced;   /* rax = result, c->pc already stored */
    uint8_t *lookup[16];    /* rdx = pc: chain through the tables, per flavor */
    uint8_t *lookup_fb[16]; /* ... after the jump cache missed: rax = its entry, rcx = the page */
    /* Figures (info jit). */
    uint64_t translated, translated_insns, flushes, invalidated, chained;
    uint64_t gen_ns;     /* host time spent translating */
    unsigned tier;       /* dispatches before a block is translated */
    uint64_t code_bytes; /* generated since the start */
} jit_cache;

/* Results of the generated code (the stubs return them). */
#define JIT_RET_DONE 0 /* c->pc and the clock are current (the lookup stub missed) */
#define JIT_RET_BAIL 1 /* the first block did not fit the budget (or a kick) */
#define JIT_RET_STOP 2 /* as DONE, after a helper said stop */
#define JIT_RET_EXC 3  /* as DONE, after an exception or ERET the block cannot go on from */

/* jit.c */
bool jit_available(void);
int jit_run(cpu *c);
void jit_group_free(cpu_group *g);
void jit_cpu_free(cpu *c);
/* A page's slots [lo, hi] were written (CPU store, DMA, the debugger). */
void jit_invalidate(cpu_group *g, dpage *p, unsigned lo, unsigned hi);
extern jit_block *const jit_no_blocks[DPAGE_INSNS];

/* jit_gen.c: translate the block at pc (on page p, virtual base vbase) into
 * the group's cache; NULL when the instruction at pc is not translated
 * (the interpreter runs it). */
jit_block *jit_translate(cpu *c, dpage *p, uint64_t vbase, uint64_t pc);
void jit_emit_stubs(jit_cache *jc);
/* Space for code: NULL when the cache is full. */
uint8_t *jit_alloc_code(jit_cache *jc, size_t n);
jit_block *jit_new_block(cpu_group *g, dpage *p, uint64_t vpc, unsigned flavor);
void jit_flush(cpu_group *g);

/* Status of the helpers the generated code calls. */
#define JH_EXC 0  /* an exception was taken (c->pc is the vector) */
#define JH_OK 1   /* done, go on */
#define JH_STOP 2 /* done, but leave after this instruction (a kick, or code changed) */
#define JH_GO 3   /* an exception was taken (or ERET done): go on at c->pc, same mode */

/* The helpers the generated code calls (jit.c). */
int jh_exception(cpu *c, int code);
int jh_exception_ce(cpu *c, int ce);
int jh_load(cpu *c, uint64_t va, unsigned oprd);
int jh_store(cpu *c, uint64_t va, uint64_t val, unsigned size);
void jh_link_store(cpu *c, uint64_t va, unsigned size);
int jh_mem_other(cpu *c, uint64_t va, unsigned ops);
int jh_fpmem(cpu *c, uint64_t va, unsigned opft);
int jh_cop1(cpu *c, uint32_t raw, unsigned x);
int jh_cp0(cpu *c, unsigned ops, unsigned sel);

#endif
