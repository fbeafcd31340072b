/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The R10000 interpreter's private state, shared by the files of src/cpu/.
 *
 * Speed design (see docs in cpu.h and the file headers):
 *  - instructions are decoded once into `dinsn` slots kept per physical 4 KB
 *    RAM page (`dpage`), shared by every CPU on the bus and invalidated
 *    (op reset to OP_DECODE, nothing freed) when the page is written;
 *  - a per-CPU soft TLB (virtual 4 KB page -> host pointer) for loads and
 *    stores, one set per privilege mode, plus an exec soft TLB (virtual page
 *    -> dpage); pages that are watched, MMIO, decoded code (for writes) or
 *    otherwise special simply get no fast entry and take the slow path;
 *  - the run loop (exec.c) is threaded: handlers jump straight to the next
 *    slot's handler, the pc is implied by the slot pointer, the instruction
 *    budget lives in a register; breakpoints, HLE hooks and the trace hook
 *    keep their pages (or every page) from becoming current, so only
 *    instructions there pay for them.
 */
#ifndef XBOW_CPU_INTERNAL_H
#define XBOW_CPU_INTERNAL_H

#include "core/dev.h"
#include "cpu/cpu.h"
#include "cpu/fpu.h"
#include "cpu/ops.h"

#include <pthread.h>

/* ---- Pre-decoded instructions --------------------------------------- */

typedef struct dinsn {
    uint16_t op;    /* enum op */
    uint8_t rs, rt; /* source registers */
    uint8_t rd;     /* destination; 32 (the sink) when the ISA says $0 */
    uint8_t sa;
    uint8_t flags; /* DF_* */
    uint8_t hits;  /* the translator's dispatcher came here (tiers, jit.c) */
    int32_t imm;   /* sign/zero-extended immediate, branch offset, jump index */
    uint32_t raw;
} __attribute__((aligned(16))) dinsn;
/* A PC-relative branch in a decoded page whose delay slot, target and
 * fall-through (pc + 8) are all on the same page: the run loop follows it by
 * slot pointer.  Set by dpage_decode_slot(), never in c->tmp. */
#define DF_LOCAL 0x01
_Static_assert(sizeof(dinsn) == 16, "a decoded slot is 16 bytes: pc = base + slot offset / 4");

#define DPAGE_INSNS (RAM_PAGE_SIZE / 4)

/* insn[DPAGE_INSNS] is a sentinel (OP_REFETCH): running off the end of the
 * page lands there, and the run loop fetches the next page. */
struct jit_block;
typedef struct dpage {
    dinsn insn[DPAGE_INSNS + 1];
    uint8_t *host; /* the 4 KB of RAM */
    ram_block *rb;
    uint64_t off; /* page offset in rb */
    /* Translated blocks (jit.h): one pointer per slot (jit_no_blocks until
     * the page has any) and the list of them all. */
    struct jit_block **jtab;
    struct jit_block *jlist;
} dpage;

/* Every CPU on one bus shares a group: the decoded pages, and the bus
 * callbacks (code_written, flags_changed) fan out to the members. */
#define GROUP_MAX_CPUS 8
typedef struct cpu_group {
    bus *b;
    cpu *cpus[GROUP_MAX_CPUS];
    unsigned ncpus;
    dpage **pages[8]; /* per bus->rams[i]: one pointer per 4 KB page */
    uint64_t npages[8];
    struct jit_cache *jit; /* translated code (jit.c), made on first use */
    /* With one host thread per CPU (xthread.c) every CPU has a group of its
     * own; the bus's callbacks go to the first, which walks this chain. */
    struct cpu_group *next;
} cpu_group;

/* ---- TLB -------------------------------------------------------------- */

#define TLB_ENTRIES 64
typedef struct tlb_entry {
    uint64_t hi;    /* EntryHi: R 63:62, VPN2 43:13, ASID 7:0 */
    uint64_t lo[2]; /* EntryLo0/1 */
    uint64_t mask;  /* PageMask */
} tlb_entry;

/* Soft TLB: tag is the 4 KB virtual page (low 12 bits zero); host = vaddr +
 * addend.  A lookup compares the tag with vaddr & ~0xfff | (vaddr & (size-1)),
 * which never has bits 11:3 set, so STLB_EMPTY (bit 11) never matches, even
 * for a misaligned access in page 0. */
typedef struct stlb {
    uint64_t tag;
    uintptr_t addend;
} stlb;
#define STLB_BITS 10
#define STLB_SIZE (1u << STLB_BITS)
#define STLB_EMPTY 0x800ull
typedef struct xtlb {
    uint64_t tag;
    dpage *page;
} xtlb;

typedef struct stlb_set {
    stlb r[STLB_SIZE], w[STLB_SIZE];
    xtlb x[STLB_SIZE];                       /* exec: virtual page -> decoded page */
    uint64_t rpa[STLB_SIZE], wpa[STLB_SIZE]; /* bus address of r[i]'s, w[i]'s page (LL/SC) */
} stlb_set;

/* ---- Debugger --------------------------------------------------------- */

typedef struct cpu_wp {
    int id;
    uint64_t addr, len;
    enum watch_type type;
} cpu_wp;

typedef struct cpu_hle {
    uint64_t vaddr;
    cpu_hle_fn fn;
    void *ctx;
} cpu_hle;

/* ---- Waiting (idle skip, idle.c) ----------------------------------------- */

/* A value a polling loop read: RAM at a bus address, or a device register
 * element; `value` is what a side-effect-free look gives (bus_peek,
 * dev_peek), compared again to see whether the loop would still spin. */
typedef struct poll_read {
    device *dev; /* NULL: RAM */
    uint16_t id, idx;
    uint8_t size;
    uint64_t addr;
    uint64_t value;
} poll_read;
#define POLL_MAX_READS 8

/* Watching one iteration of a loop the CPU may be spinning in. */
typedef struct cpu_probe {
    bool on;
    unsigned steps;    /* instructions seen */
    uint64_t pc0;      /* where it started (and must come back to) */
    bool again;        /* this is the second iteration watched */
    uint64_t regs[34]; /* GPRs, HI, LO at pc0 */
    poll_read reads[POLL_MAX_READS];
    unsigned nreads;
    uint64_t deadline; /* a register read changes by itself then (clock) */
    bool noting;       /* the instruction being run is a device load */
    dev_read_note note;
    uint64_t next_at;    /* the next probe starts at this tick ... */
    uint64_t period;     /* ... and the one after that this much later */
    bool retried;        /* this probe follows one whose values changed under it */
    uint64_t max_period; /* a failed probe backs off to this (0: PROBE_MAX_PERIOD) */
} cpu_probe;

/* Internal cpu_run() result of the fetch path: the CPU started waiting. */
#define CPU_WAITING 0x100

/* ---- CP0 register numbers -------------------------------------------- */
/* clang-format off */
enum {
    CP0_INDEX = 0, CP0_RANDOM = 1, CP0_ENTRYLO0 = 2, CP0_ENTRYLO1 = 3, CP0_CONTEXT = 4,
    CP0_PAGEMASK = 5, CP0_WIRED = 6, CP0_BADVADDR = 8, CP0_COUNT = 9, CP0_ENTRYHI = 10,
    CP0_COMPARE = 11, CP0_STATUS = 12, CP0_CAUSE = 13, CP0_EPC = 14, CP0_PRID = 15,
    CP0_CONFIG = 16, CP0_LLADDR = 17, CP0_WATCHLO = 18, CP0_WATCHHI = 19, CP0_XCONTEXT = 20,
    CP0_FRAMEMASK = 21, CP0_DIAG = 22, CP0_PERF = 25, CP0_ECC = 26, CP0_CACHEERR = 27,
    CP0_TAGLO = 28, CP0_TAGHI = 29, CP0_ERROREPC = 30,
};
/* clang-format on */

/* Status bits */
#define ST_IE BIT(0)
#define ST_EXL BIT(1)
#define ST_ERL BIT(2)
#define ST_KSU (3ull << 3)
#define ST_UX BIT(5)
#define ST_SX BIT(6)
#define ST_KX BIT(7)
#define ST_IM (0xffull << 8)
#define ST_DE BIT(16)
#define ST_CE BIT(17)
#define ST_CH BIT(18)
#define ST_NMI BIT(19)
#define ST_SR BIT(20)
#define ST_TS BIT(21)
#define ST_BEV BIT(22)
#define ST_FR BIT(26)
#define ST_XX BIT(31)
#define ST_CU0 BIT(28)
#define ST_CU1 BIT(29)
#define ST_CU2 BIT(30)
/* Bits software can write (RE 25, RP 27, DS 24/23 kept as written too). */
#define ST_WRITABLE 0xfffffffful

#define CAUSE_BD BIT(31)
#define CAUSE_CE_SHIFT 28
#define CAUSE_IP_SHIFT 8
#define CAUSE_IP7 BIT(15)
#define CAUSE_SW (3ull << 8) /* IP0/IP1: software interrupts, writable */

#define PRID_R10000 0x00000926u

/* Exception codes beyond Cause.ExcCode used in events. */
#define EVC_NMI 32
#define EVC_SRESET 33
#define EVC_RESET 34

enum mode { MODE_KERNEL = 0, MODE_SUPER = 1, MODE_USER = 2 };

/* Translation results (xlate). */
enum { XL_OK = 0, XL_ADE, XL_REFILL, XL_INVALID, XL_MOD };
enum acc { ACC_LOAD = 0, ACC_STORE = 1, ACC_FETCH = 2 };

struct cpu {
    /* Hot state first. */
    uint64_t gpr[33]; /* gpr[32]: writes to $0 land here */
    uint64_t hi, lo;
    uint64_t pc;
    bool in_ds;       /* the instruction at pc is a branch delay slot */
    bool dly;         /* the next instruction is a delay slot ... */
    uint64_t dtarget; /* ... after which execution goes here */
    sched *clock;
    volatile uint64_t limit; /* the inner loop runs while clock->now < limit */
    volatile int exit_req;
    stlb_set *st; /* soft TLB of the current mode */
    bool ops64;   /* 64-bit operations allowed in this mode */
    bool cu0;     /* CP0 usable (kernel mode or CU0) */
    bool mips4;   /* MIPS IV-only instructions allowed (not user, or XX) */
    enum mode mode;
    uint64_t fvbase;   /* virtual base of the current fetch page ... */
    dpage *fpage;      /* ... or NOPAGE_VBASE and nopage (cpu_drop_fpage) */
    bool fspecial;     /* fpage has breakpoints or HLE hooks: spec_bits */
    dpage *fpage_last; /* page of the slot cpu_fetch_slow() returned last */
    bus *bus;
    int initiator;
    int index;

    /* CP0 */
    uint64_t cp0[32]; /* plain registers (those without special handling) */
    uint64_t status, cause;
    uint32_t count_off; /* Count = count_off + retired / 2 */
    uint32_t compare;
    uint64_t rand_base; /* retired count when Wired was last written */
    uint64_t timer_at;  /* retired count at which Count reaches Compare */
    uint64_t perf_ctl[2], perf_cnt[2];
    uint8_t irq_lines; /* external lines, Cause.IP bit positions 2..7 */
    bool timer_ip;     /* Count reached Compare (Cause.IP7) */
    volatile bool nmi_pending, sreset_pending;
    bool llbit;
    uint64_t lladdr_bus;
    bool watch_armed; /* CP0 WatchLo has R or W set */

    tlb_entry tlb[TLB_ENTRIES];
    fpu_state fpu;

    /* Time: retired = clock->now + retired_delta while running.  `retired`
     * counts ticks (instructions executed, exceptions taken and ticks
     * spent waiting), so Count and Random run on while the CPU waits;
     * cpu_retired() subtracts `waited`. */
    uint64_t retired;
    int64_t retired_delta;
    bool running;
    uint64_t until;

    /* Soft TLBs: one set per mode, plus the exec one. */
    stlb_set sets[3];
    uint64_t stlb_flushes;
    uint64_t flags_gen; /* bus->flags_gen the soft TLBs were made under */

    cpu_group *group;
    /* One instruction fetched from MMIO or from a page the debugger watches
     * (breakpoint, HLE hook, trace), then OP_REFETCH: the run loop executes
     * such instructions one at a time from here. */
    dinsn tmp[2];
    dpage *nopage; /* every slot OP_REFETCH: the "no current page" page */

    /* Debugger */
    uint64_t *bps;
    unsigned nbps, bpcap;
    bool step_over;
    bool skip_bp; /* the first fetch of this run ignores a breakpoint at skip_pc */
    uint64_t skip_pc;
    cpu_wp *wps;
    unsigned nwps, wpcap;
    int next_wp_id;
    cpu_watch_hit hit;
    enum cpu_stop stop; /* pending, from inside the loop */
    const char *halt_reason;
    cpu_trace_fn trace;
    void *trace_ctx;
    cpu_hle *hles;
    unsigned nhles;
    uint64_t spec_bits[DPAGE_INSNS / 64]; /* fpage's slots with a breakpoint or hook */

    event_bus *eb;
    event_src *ev[CPU_NEVENTS];

    /* Idle skip (idle.c) */
    bool idle_skip;         /* the machine lets this CPU wait */
    bool wait_held;         /* ... but not now (the debugger steps it) */
    int wait;               /* enum cpu_wait_kind */
    uint64_t wait_pc;       /* where it waits */
    uint64_t wait_since;    /* tick it started */
    uint64_t wait_deadline; /* clock time a polled register changes (POLL) */
    uint64_t wait_floor;    /* an idle wait goes on until this clock time (cpu_wait_to) */
    poll_read wait_reads[POLL_MAX_READS];
    unsigned wait_nreads;
    bool wait_mmio;     /* some of them are device registers */
    uint64_t waited;    /* ticks spent waiting */
    uint64_t waits[3];  /* waits started, by kind */
    uint64_t *idle_pts; /* idle points (cpu_idle_point_add) */
    unsigned nidle_pts;
    cpu_probe probe;

    /* Sampling (cpu_set_sampler) */
    cpu_sample_fn sample_fn;
    void *sample_ctx;
    uint64_t sample_period;
    uint64_t sample_at; /* instructions executed at the next sample */
    uint64_t sample_rng;
    /* The translator (jit.c) */
    bool use_jit;              /* cpu_run() runs translated code where it can */
    bool jit_smc;              /* a translation was dropped while this CPU ran */
    uint64_t jit_tmp;          /* a helper's result for the generated code */
    uint64_t jit_interp_ticks; /* ticks jit_run() handed to the interpreter */
    struct jit_jc *jit_jc;     /* the jump cache (jit.h) */
    cpu_run_stats rs;          /* why the run loop left its inner loop (cpu.h) */

    /* One host thread per CPU (xthread.c, cpu_set_threaded). */
    bool threaded;      /* own group, own clock, LL/SC by compare-and-swap */
    volatile bool live; /* its thread runs it: other threads post to it */
    sched own_clock;    /* its clock (c->clock points here) */
    uint64_t ll_value;  /* what LL read (SC compares and swaps it) */
    unsigned ll_size;
    pthread_mutex_t rq_mu;           /* guards the rq_ fields */
    volatile int rq_pending;         /* something was posted: cpu_run's outer loop takes it */
    uint8_t rq_irq_mask, rq_irq_val; /* interrupt lines set by other threads */
    bool rq_flush;                   /* flush the soft TLBs */
    bool rq_code_all;                /* drop every decoded page */
    uint64_t rq_until;               /* end the run here (UINT64_MAX: no change) */
    unsigned rq_ncode;
    struct {
        ram_block *rb;
        uint64_t page;
    } rq_code[16];                      /* decoded pages written by another thread */
    void (*kick_fn)(void *ctx, cpu *c); /* wakes its thread when it sleeps */
    void *kick_ctx;
};

/* ---- Threads (xthread.c) ---------------------------------------------- */

/* The CPU this host thread runs (NULL on the debugger's thread). */
extern _Thread_local cpu *cpu_self;
/* May this thread touch c's state, or must it post to c's thread? */
static inline bool cpu_is_remote(const cpu *c) { return c->live && cpu_self != c; }
void cpu_post_irq(cpu *c, int ip, bool level);
void cpu_post_flush(cpu *c);
void cpu_post_code_written(cpu *c, ram_block *rb, uint64_t page);
void cpu_group_own(cpu *c);
/* mem.c: a group's own reaction to a write into one of its decoded pages. */
void group_code_written_one(cpu_group *g, ram_block *rb, uint64_t page);

/* ---- Shared helpers --------------------------------------------------- */

static inline uint64_t cpu_now_retired(const cpu *c)
{
    return c->running ? (uint64_t)((int64_t)c->clock->now + c->retired_delta) : c->retired;
}

/* Force the run loop back to its outer part (interrupt check, reloads). */
static inline void cpu_kick(cpu *c) { c->limit = 0; }

/* No current fetch page: the next fetch looks the page up again.  The
 * virtual base is never a real page's (the top 4 KB of the address space
 * run through nopage's OP_REFETCH slots, so they still fetch correctly). */
#define NOPAGE_VBASE (~0xfffull)
static inline void cpu_drop_fpage(cpu *c)
{
    c->fvbase = NOPAGE_VBASE;
    c->fpage = c->nopage;
    c->fspecial = false;
}

/* exec.c: the interpreter, for at most `cap` instructions (and at most to
 * c->limit); 0, or a stop (CPU_BREAK ...). */
int cpu_interp(cpu *c, uint64_t cap);

/* decode.c */
void cpu_decode(uint32_t insn, dinsn *d);

/* cp0.c */
void cpu_mode_changed(cpu *c);
void cpu_exception(cpu *c, int code, uint64_t badvaddr, bool has_bad);
void cpu_exception_ce(cpu *c, int ce);
void cpu_tlb_exception(cpu *c, int xl, uint64_t va, int acc);
uint64_t cp0_read(cpu *c, unsigned reg, unsigned sel);
void cp0_write(cpu *c, unsigned reg, unsigned sel, uint64_t v);
void cpu_eret(cpu *c);
bool cpu_irq_pending(const cpu *c);
void cpu_timer_update(cpu *c);
void cpu_timer_check(cpu *c);
void cpu_update_irq_state(cpu *c);
void cpu_perf_account(cpu *c, uint64_t n, bool waiting);
/* N ticks a waiting CPU spent without executing (idle.c): counted as
 * waited, and by the performance counters that count cycles. */
static inline void cpu_wait_account(cpu *c, uint64_t n)
{
    c->waited += n;
    if (unlikely(c->perf_ctl[0] | c->perf_ctl[1]))
        cpu_perf_account(c, n, true);
}
void cpu_apply_nmi(cpu *c);
void cpu_apply_soft_reset(cpu *c);

/* tlb.c */
int cpu_xlate(const cpu *c, uint64_t va, int acc, uint64_t *bus_addr, bool *cached);
void tlb_read(cpu *c);
void tlb_write(cpu *c, unsigned idx);
void tlb_probe(cpu *c);
unsigned tlb_random(const cpu *c);
void tlb_reset(cpu *c);

/* mem.c */
void stlb_flush(cpu *c);
void stlb_flush_range(cpu *c, uint64_t lo, uint64_t hi);
void stlb_flush_host_page(cpu *c, const uint8_t *host);
void stlb_drop_exec(cpu *c, uint64_t vpage, bool all);
dpage *dpage_new(void);
bool mem_load_slow(cpu *c, uint64_t va, unsigned size, uint64_t *val);
bool mem_store_slow(cpu *c, uint64_t va, unsigned size, uint64_t val);
/* Read-modify-write helpers for LWL/LWR/SWL/SWR/LDL/LDR/SDL/SDR. */
bool mem_load_aligned(cpu *c, uint64_t va, unsigned size, uint64_t *val);
bool mem_store_merge(cpu *c, uint64_t va, unsigned size, uint64_t val, uint64_t mask);
bool mem_ll(cpu *c, uint64_t va, unsigned size, uint64_t *val);
int mem_sc(cpu *c, uint64_t va, unsigned size, uint64_t val); /* 1, 0 or -1 (exception) */
dinsn *cpu_fetch_slow(cpu *c, uint64_t pc);
void cpu_group_join(cpu *c);
void cpu_group_leave(cpu *c);
void dpage_decode_slot(cpu *c, dpage *p, dinsn *d);

/* idle.c */
/* Cheaply: may the pc head a delay loop (a decoded BNE there on the current
 * fetch page or the exec soft TLB's page)?  Only a filter for the run loop
 * and cpu_quiet_until: the delay loop itself is decoded from memory, and
 * skipping it is exact, so engines that answer differently here (the
 * translator keeps no current page) still run alike. */
static inline bool cpu_maybe_at_bne(const cpu *c)
{
    uint64_t vpage = c->pc & ~0xfffull;
    unsigned k = (unsigned)(c->pc & 0xfff) >> 2;
    if (c->fvbase == vpage)
        return c->fpage->insn[k].op == OP_BNE;
    const xtlb *x = &c->st->x[(c->pc >> RAM_PAGE_SHIFT) & (STLB_SIZE - 1)];
    return x->tag == (c->pc & ~0xffcull) && x->page->insn[k].op == OP_BNE;
}
bool cpu_idle_point_at(const cpu *c, uint64_t pc);
bool cpu_idle_enter(cpu *c);
void cpu_probe_start(cpu *c);
bool cpu_probe_step(cpu *c, uint64_t pc, const dinsn *d);
void cpu_probe_stop(cpu *c, bool failed);
void cpu_probe_note_done(cpu *c);
bool cpu_wait_over(cpu *c);
void cpu_wait_end(cpu *c);
void cpu_wait_debug_changed(cpu *c);
uint64_t cpu_delay_loop(cpu *c, uint64_t lim);
/* The clock time up to which a waiting CPU's run may jump at most. */
uint64_t cpu_wait_until(const cpu *c, uint64_t until);

/* debug.c */
void cpu_sample(cpu *c, uint64_t executed);
bool cpu_bp_at(const cpu *c, uint64_t pc);
bool cpu_page_special(const cpu *c, uint64_t vpage);
void cpu_special_bits(cpu *c, uint64_t vpage);
const cpu_hle *cpu_hle_at(const cpu *c, uint64_t pc);
void cpu_check_watch(cpu *c, uint64_t va, uint64_t bus_addr, unsigned size, bool write,
                     uint64_t value);
bool cpu_page_watched(const cpu *c, uint64_t vpage);

/* Fast-path loads and stores: the soft TLB hit case inline. */
#define STLB_ENTRY(t, va) (&(t)[((va) >> RAM_PAGE_SHIFT) & (STLB_SIZE - 1)])
#define STLB_HIT(e, va, size) ((e)->tag == ((va) & (~(uint64_t)(RAM_PAGE_SIZE - 1) | ((size)-1))))
#define STLB_HOST(e, va) ((uint8_t *)(uintptr_t)((va) + (e)->addend))
static inline uint8_t *stlb_lookup(stlb *t, uint64_t va, unsigned size)
{
    stlb *e = STLB_ENTRY(t, va);
    return STLB_HIT(e, va, size) ? STLB_HOST(e, va) : NULL;
}

/* A RAM fast-path store must still break other initiators' LL links. */
void cpu_link_store_va(cpu *c, uint64_t va, unsigned size);
static inline void fast_store_link(cpu *c, uint64_t va, unsigned size)
{
    if (unlikely(c->bus->nlinks))
        cpu_link_store_va(c, va, size);
}

#endif
