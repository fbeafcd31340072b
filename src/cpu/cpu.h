/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The R10000 CPU: the interface the machine and the debugger use.
 *
 * The interpreter lives in src/cpu/ (decode, execute, CP0/TLB/exceptions,
 * FPU).  Every memory access goes through the physical-access layer (bus.h)
 * with this CPU's initiator id; RAM is reached through a soft TLB of host
 * pointers whose entries carry flag bits, so a watchpoint or a decoded-code
 * page costs nothing on pages that have none.
 */
#ifndef XBOW_CPU_H
#define XBOW_CPU_H

#include "core/bus.h"
#include "core/event.h"
#include "core/sched.h"
#include "core/strbuf.h"
#include "core/symtab.h"

typedef struct cpu cpu;

/* Why cpu_run() returned. */
enum cpu_stop {
    CPU_RAN = 0, /* reached the time limit */
    CPU_BREAK,   /* about to execute an instruction with a breakpoint (pc = its address) */
    CPU_WATCH,   /* a watchpoint fired (see cpu_watch_hit) */
    CPU_EXIT,    /* cpu_request_exit() was called (by an event subscriber, Ctrl-C...) */
    CPU_HALTED,  /* the CPU cannot go on (see cpu_halt_reason) */
};

/* Exception codes (Cause.ExcCode). */
/* clang-format off */
enum {
    EXC_INT = 0, EXC_MOD = 1, EXC_TLBL = 2, EXC_TLBS = 3, EXC_ADEL = 4, EXC_ADES = 5,
    EXC_IBE = 6, EXC_DBE = 7, EXC_SYS = 8, EXC_BP = 9, EXC_RI = 10, EXC_CPU = 11,
    EXC_OV = 12, EXC_TR = 13, EXC_FPE = 15, EXC_WATCH = 23,
};
/* clang-format on */

/* Events every CPU publishes (as "cpu<index>.<name>", e.g. "cpu0.exception";
 * field cpu = index).  exception: cpu, code (ExcCode; 32 NMI, 33 SoftReset,
 * 34 Reset), pc, badvaddr, bd.  irq: cpu, ip (line), level, pending (Cause
 * IP bits).  eret: cpu, pc, target. */
enum { CPU_EV_EXCEPTION, CPU_EV_IRQ, CPU_EV_ERET, CPU_NEVENTS };

enum watch_type { WATCH_READ = 1, WATCH_WRITE = 2, WATCH_ACCESS = 3 };

typedef struct cpu_watch_hit {
    uint64_t vaddr, bus_addr;
    unsigned size;
    bool write;
    uint64_t value; /* value read or written */
    uint64_t pc;    /* instruction that did it */
    int id;         /* watchpoint id */
} cpu_watch_hit;

cpu *cpu_new(int index, bus *b, sched *clock, event_bus *eb);
void cpu_free(cpu *c);
int cpu_index(const cpu *c);
int cpu_initiator(const cpu *c);

/* Cold reset: PC = 0xffffffffbfc00000, Status.BEV|ERL, TLB invalid.
 * cpu_reset() is an inline wrapper: libunicorn (linked by the differential
 * tester) exports a cpu_reset of its own, which a global function of that
 * name in an executable would interpose. */
void cpu_cold_reset(cpu *c);
static inline void cpu_reset(cpu *c) { cpu_cold_reset(c); }
void cpu_nmi(cpu *c);
void cpu_soft_reset(cpu *c);
/* Interrupt input lines IP2..IP7 (ip = 2..7), level-sensitive. */
void cpu_set_irq(cpu *c, int ip, bool level);

/* Execute instructions until *clock->now reaches `until`, advancing
 * clock->now by one per retired instruction, or until something stops the
 * CPU.  A breakpoint at the current pc is stepped over when the run starts
 * with cpu_step_over_bp(c) armed. */
int cpu_run(cpu *c, uint64_t until);
/* Make a running cpu_run() return CPU_EXIT after the current instruction.
 * Async-signal-safe. */
void cpu_request_exit(cpu *c);
void cpu_step_over_bp(cpu *c);
const char *cpu_halt_reason(const cpu *c);

/* The execution engine: the threaded interpreter, or the translator to
 * host code (x86-64 hosts only; it hands what it does not translate to the
 * interpreter).  Both give the same instruction counts and state at every
 * stop.  A new CPU uses the translator where the host has one. */
enum cpu_engine { CPU_ENGINE_INTERP = 0, CPU_ENGINE_JIT = 1 };
bool cpu_engine_available(int engine);
/* 0, or -1 when the host has no such engine (the CPU keeps its own). */
int cpu_set_engine(cpu *c, int engine);
int cpu_engine(const cpu *c);
/* What the translator did for this CPU (and its group's code cache). */
typedef struct cpu_jit_info {
    uint64_t interp_ticks;           /* ticks the translator left to the interpreter */
    uint64_t blocks, insns;          /* blocks translated, guest instructions in them */
    uint64_t flushes;                /* code cache flushes (it was full) */
    uint64_t invalidated;            /* blocks dropped because their code was written */
    uint64_t chained;                /* direct jumps between blocks patched */
    uint64_t code_bytes;             /* host code generated in all */
    uint64_t cache_used, cache_size; /* bytes of the code cache in use, its size */
    uint64_t gen_ns;                 /* host time spent translating */
} cpu_jit_info;
void cpu_jit_info_get(const cpu *c, cpu_jit_info *out);

/* Why the CPU's run loop comes out of its inner loop (translated code or
 * the interpreter), counted since the CPU was made (both engines; the
 * translator's own exits only with it): `info engine`, `profile report`. */
enum cpu_run_end {
    RUN_END_TURN,   /* the turn's end (the machine's quantum, a device timer) */
    RUN_END_TIMER,  /* Count reached Compare */
    RUN_END_IDLE,   /* an idle-skip probe point */
    RUN_END_SAMPLE, /* a profiler sample */
    RUN_END_KICK,   /* a kick: an interrupt line, a device timer armed, a stop
                      request, a CP0/TLB change, code dropped */
    RUN_END_STOP,   /* a stop (breakpoint, watchpoint, wait, halt) */
    RUN_END_N
};
/* The translator's ways back to its dispatcher (jit.c). */
enum jit_back {
    JIT_BACK_LOOKUP, /* an indirect or cross-page jump the jump cache did not know */
    JIT_BACK_CHAIN,  /* a direct jump not chained yet */
    JIT_BACK_BUDGET, /* a block longer than the budget left (or a kick before it) */
    JIT_BACK_STOP,   /* a helper said stop after its instruction (kick, code written) */
    JIT_BACK_EXC,    /* an exception or ERET into another mode (or with a kick) */
    JIT_BACK_N
};
/* ... and what it left to the interpreter. */
enum jit_interp_why {
    JIT_INTERP_DSLOT,   /* a delay slot pending after a stop */
    JIT_INTERP_HOOK,    /* the trace hook, an idle-skip probe */
    JIT_INTERP_NOEXEC,  /* no exec soft-TLB entry: a page with a breakpoint, hook
                          or idle point, MMIO, a page not yet fetched */
    JIT_INTERP_UNTRANS, /* code the translator does not take */
    JIT_INTERP_BUDGET,  /* the rest of a budget too short for the next block */
    JIT_INTERP_COLD,    /* a block not run often enough yet to be translated (tiers) */
    JIT_INTERP_N
};
/* The helpers translated code calls (jit.c). */
enum jit_helper {
    JIT_HELP_LOAD,      /* a load the inline soft TLB missed (device registers, refills) */
    JIT_HELP_STORE,     /* the same for a store */
    JIT_HELP_MEM_OTHER, /* LWL ... SDR, LL/SC */
    JIT_HELP_FPMEM,     /* FPU loads and stores */
    JIT_HELP_COP1,      /* FPU operations */
    JIT_HELP_CP0,       /* MFC0, MTC0, TLB instructions, ERET */
    JIT_HELP_EXC,       /* an exception raised by the code (SYSCALL, traps, RI ...) */
    JIT_HELP_N
};
typedef struct cpu_run_stats {
    uint64_t runs;                       /* inner runs (translated code or the interpreter) */
    uint64_t run_end[RUN_END_N];         /* why each ended */
    uint64_t enters;                     /* entries into translated code from the dispatcher */
    uint64_t back[JIT_BACK_N];           /* returns to the dispatcher */
    uint64_t interp[JIT_INTERP_N];       /* hand-offs to the interpreter ... */
    uint64_t interp_ticks[JIT_INTERP_N]; /* ... and the ticks it ran for them */
    uint64_t translations;               /* blocks this CPU translated */
    uint64_t helpers[JIT_HELP_N];        /* helper calls from translated code */
    uint64_t bus_accesses;               /* loads and stores that went to a device (both engines) */
    uint64_t exceptions[32];             /* exceptions taken, by ExcCode (interrupts included) */
    uint64_t tlb_refills;                /* of the TLBL/TLBS ones, refills (vector 0x000/0x080) */
} cpu_run_stats;
const cpu_run_stats *cpu_get_run_stats(const cpu *c);

/* One host thread per CPU (src/cpu/xthread.c; the machine's --threads).
 * cpu_set_threaded() (right after cpu_new, before the CPU runs) gives the
 * CPU a clock of its own (cpu_clock: the machine sets its time before a
 * run and reads it after), its own decoded pages and translated code, and
 * LL/SC by a host compare-and-swap.  While live, the thread that called
 * cpu_thread_enter(c) runs it and other threads only post to it
 * (interrupt lines, soft-TLB flushes, written code), with a kick and a
 * call of kick(ctx, c) so that a sleeping thread wakes up. */
void cpu_set_threaded(cpu *c);
bool cpu_threaded(const cpu *c);
sched *cpu_clock(cpu *c);
void cpu_thread_enter(cpu *c);
void cpu_set_live(cpu *c, bool live, void (*kick)(void *ctx, cpu *c), void *ctx);
bool cpu_has_posts(const cpu *c);
/* Is the CPU inside cpu_run()? */
bool cpu_running(const cpu *c);
/* Apply what was posted (its own thread, or any once it is not live). */
void cpu_take_posted(cpu *c);
/* Post to a running CPU: end this run at clock time t (at once if it is
 * there already); a device timer due then was armed while it ran. */
void cpu_post_until(cpu *c, uint64_t t);
/* A CPU that waits (idle skip) and whose thread did not run it moves its
 * clock on to `until` (or its own deadline, if that comes first) as its
 * wait would have: the ticks count as waited.  Its own thread only. */
void cpu_wait_advance(cpu *c, uint64_t until);

/* Architectural state for the debugger. */
uint64_t cpu_pc(const cpu *c);
void cpu_set_pc(cpu *c, uint64_t pc);
uint64_t cpu_gpr(const cpu *c, unsigned n);
void cpu_set_gpr(cpu *c, unsigned n, uint64_t v);
uint64_t cpu_hi(const cpu *c);
uint64_t cpu_lo(const cpu *c);
void cpu_set_hi(cpu *c, uint64_t v);
void cpu_set_lo(cpu *c, uint64_t v);
/* CP0 register n (0..31), select 0. */
uint64_t cpu_cp0(const cpu *c, unsigned n);
void cpu_set_cp0(cpu *c, unsigned n, uint64_t v);
uint64_t cpu_fpr(const cpu *c, unsigned n); /* raw 64-bit register */
void cpu_set_fpr(cpu *c, unsigned n, uint64_t v);
uint32_t cpu_fcsr(const cpu *c);
void cpu_set_fcsr(cpu *c, uint32_t v);
uint32_t cpu_fir(const cpu *c); /* FCR0 (read-only) */
bool cpu_in_delay_slot(const cpu *c);
/* Instructions this CPU executed (exceptions and HLE calls taken count one
 * each); time it spent waiting is not in it (cpu_ticks, cpu_wait_info). */
uint64_t cpu_retired(const cpu *c);
/* This CPU's clock in ticks: cpu_retired() plus the ticks it waited.  Count
 * and Random follow it. */
uint64_t cpu_ticks(const cpu *c);

/* Additions for the debugger and the differential tester: the whole
 * architectural state is readable and settable through these. */
/* CP0 register n with a select (register 25: 0 = perf control 0,
 * 1 = count 0, 2 = control 1, 3 = count 1).  cpu_set_cp0*() writes the way
 * MTC0 would, except that BadVAddr, Context/XContext BadVPN2, Index.P,
 * Random, LLAddr and Config are set as given; PRId is read-only. */
uint64_t cpu_cp0_sel(const cpu *c, unsigned n, unsigned sel);
void cpu_set_cp0_sel(cpu *c, unsigned n, unsigned sel, uint64_t v);
/* Delay-slot state: when cpu_in_delay_slot(), the instruction at pc is a
 * branch delay slot and execution continues at cpu_delay_target() after it. */
uint64_t cpu_delay_target(const cpu *c);
void cpu_set_delay(cpu *c, bool in_delay_slot, uint64_t target);
/* The LL/SC link (LLbit, still valid on the bus). */
bool cpu_llbit(const cpu *c);
void cpu_set_llbit(cpu *c, bool v);
/* TLB entry i (0..63): EntryHi, EntryLo0, EntryLo1, PageMask as stored. */
int cpu_tlb_get(const cpu *c, unsigned i, uint64_t *hi, uint64_t *lo0, uint64_t *lo1,
                uint64_t *mask);
int cpu_tlb_set(cpu *c, unsigned i, uint64_t hi, uint64_t lo0, uint64_t lo1, uint64_t mask);

/* Idle skip (docs/cpu.md "Waiting").  A CPU allowed to (cpu_set_idle_skip)
 * stops executing while it only waits, and cpu_run() moves its clock on
 * to what can end the wait, as if the R10000 had a WAIT instruction:
 *  - CPU_WAIT_IDLE: it reached an idle point (the entry of the OS's
 *    wait-for-interrupt routine, cpu_idle_point_add) with Status.IE = 0,
 *    EXL = ERL = 0 and nothing pending in Cause.IP & Status.IM; it waits
 *    until something is, then runs the routine;
 *  - CPU_WAIT_POLL: it was seen to run one iteration of a loop without
 *    stores that left every register as it found it (a driver spinning on
 *    memory or a register); it waits until a value the loop read changes
 *    (looked at without side effects), a register the loop read changes
 *    by itself (the HUB's RT counter), or an interrupt can be taken, then
 *    goes on from the loop's head.
 * Deterministic: where and when a CPU starts waiting depends only on its
 * state and its clock, not on how the run was cut into cpu_run() calls. */
enum cpu_wait_kind { CPU_WAIT_NONE = 0, CPU_WAIT_IDLE, CPU_WAIT_POLL };
void cpu_set_idle_skip(cpu *c, bool on);
/* The entry of a routine the OS calls to wait for an interrupt with
 * interrupts disabled (Linux's arch_cpu_idle).  0, or -1 (no memory). */
int cpu_idle_point_add(cpu *c, uint64_t vaddr);
void cpu_idle_points_clear(cpu *c);
/* A probe that watched a loop and found no wait doubles the ticks to the
 * next one, up to 2^20 (idle.c); with ticks != 0, up to ticks instead
 * (--threads: a spinning CPU's clock runs at the speed of its spin loop,
 * not of the CPU that holds the lock; docs/architecture.md).  0: the
 * default. */
void cpu_set_probe_max_period(cpu *c, uint64_t ticks);
/* Unless a probe is on: probes every `ticks` at least from now on (up to
 * the maximum; a failed probe doubles it as before).  --threads: a CPU
 * whose peers all wait for an interrupt cannot spin on a lock one holds. */
void cpu_probe_relax(cpu *c, uint64_t ticks);
/* While held, the CPU does not start waiting, and a wait ends (the debugger
 * steps it: it executes its loop). */
void cpu_hold_wait(cpu *c, bool hold);
/* End a wait now (the CPU goes on executing its loop or routine). */
void cpu_wake(cpu *c);
typedef struct cpu_wait_info {
    int kind;                        /* enum cpu_wait_kind, now */
    uint64_t pc;                     /* where it waits */
    uint64_t since;                  /* tick (cpu_ticks) it started */
    unsigned nreads;                 /* POLL: values the loop reads */
    bool mmio;                       /* POLL: some are device registers */
    uint64_t waited;                 /* ticks waited in all */
    uint64_t idle_waits, poll_waits; /* waits started, by kind */
} cpu_wait_info;
void cpu_get_wait_info(const cpu *c, cpu_wait_info *w);
/* Counting delay loops (Linux's __delay: bnez a0, self; daddiu a0, a0, -1)
 * are done at once with idle skip on: exact, the same instructions, time and
 * registers as running them.  cpu_quiet_until() is the machine's question
 * between turns: at clock time `now`, until when will the CPU neither do
 * anything another CPU or a device can see nor end a wait by itself?  `now`
 * when it runs other code; the end of its delay loop; its wait's deadline
 * (UINT64_MAX: only an interrupt or another initiator can end it). */
uint64_t cpu_quiet_until(cpu *c, uint64_t now);
/* The machine's solo turn (machine.c, turn_end): one CPU runs while every
 * other waits at an idle point, then the others' clocks follow it.
 * cpu_wait_to(c, t): until clock time t the idle wait of c goes on even if
 * an interrupt is pending (it was raised at t by the CPU that ran first:
 * seen at t, not earlier); 0 undoes it.  cpu_wait_woken(c): c waits at an
 * idle point and an interrupt (or NMI, reset) it takes is pending, so the
 * wait ends as soon as its clock gets there. */
void cpu_wait_to(cpu *c, uint64_t t);
bool cpu_wait_woken(cpu *c);

/* Sampling, for the profiler: fn is called between two instructions every
 * `period` instructions this CPU executes, on average (ticks spent waiting
 * do not count), with the pc of the next instruction and the mode it runs
 * in (0 kernel, 1 supervisor, 2 user).  The points are a fixed
 * pseudo-random spread around the period, taken from the instruction
 * count alone: a run gives the same samples however it is cut into
 * cpu_run() calls.  period 0 (or fn NULL) stops sampling. */
typedef void (*cpu_sample_fn)(void *ctx, cpu *c, uint64_t pc, int mode);
void cpu_set_sampler(cpu *c, uint64_t period, cpu_sample_fn fn, void *ctx);

/* Names: "zero", "at", ... "ra"; CP0 "Status", ... */
extern const char *const cpu_gpr_names[32];
extern const char *const cpu_cp0_names[32];
int cpu_gpr_lookup(const char *name); /* "a0", "r4", "$4" -> 4; -1 if unknown */
int cpu_cp0_lookup(const char *name); /* "status", "cause", ... */

/* Debugger views. */
void cpu_show_regs(const cpu *c, strbuf *out); /* GPRs, PC, HI/LO, CP0 decoded */
/* Just the CP0 part of cpu_show_regs (Status, Cause, EPC ...). */
void cpu_show_cp0_regs(const cpu *c, strbuf *out);
void cpu_show_fpu(const cpu *c, strbuf *out);
void cpu_show_tlb(const cpu *c, strbuf *out);
void cpu_decode_status(uint64_t status, strbuf *out);
void cpu_decode_cause(uint64_t cause, strbuf *out);

/* Translate a virtual address the way a load (or store) would, without side
 * effects and without raising exceptions.  Returns 0 and the bus address, or
 * -1 if the access would fault. */
int cpu_translate(const cpu *c, uint64_t vaddr, bool write, uint64_t *bus_addr);
/* Debugger memory access through the current translation (no side effects
 * on devices: MMIO reads fail).  Returns bytes done. */
uint64_t cpu_read_virt(cpu *c, uint64_t vaddr, void *buf, uint64_t len);
uint64_t cpu_write_virt(cpu *c, uint64_t vaddr, const void *buf, uint64_t len);

/* Breakpoints on virtual instruction addresses. */
int cpu_bp_insert(cpu *c, uint64_t vaddr);
int cpu_bp_remove(cpu *c, uint64_t vaddr);
/* Watchpoints on virtual data addresses; returns an id > 0. */
int cpu_wp_insert(cpu *c, uint64_t vaddr, uint64_t len, int type);
void cpu_wp_remove(cpu *c, int id);
const cpu_watch_hit *cpu_watch_hit_info(const cpu *c);

/* Per-instruction trace hook (instruction tracing, single stepping through
 * events): called before each instruction when set.  Costs nothing when NULL. */
typedef void (*cpu_trace_fn)(void *ctx, cpu *c, uint64_t pc, uint32_t insn);
void cpu_set_trace(cpu *c, cpu_trace_fn fn, void *ctx);

/* Disassembly (Capstone, MIPS64 big-endian) with symbols. */
void cpu_disasm(uint64_t pc, uint32_t insn, symtab *syms, char *buf, size_t len);

/* Event sources for subscribers ("cpu0.exception" ...). */
event_src *cpu_event(cpu *c, unsigned which);

/* Host-implemented PROM calls: when the CPU fetches from an address with a
 * registered hook (for example LAUNCH_SLAVE at 0xffffffffbfc00038), the hook
 * runs instead of the instruction and returns to $ra (like a jr ra). */
typedef void (*cpu_hle_fn)(void *ctx, cpu *c);
int cpu_hle_register(cpu *c, uint64_t vaddr, cpu_hle_fn fn, void *ctx);

/* ---- snapshots (cpustate.c) ---- */
struct device;
/* Device numbers for the registers a waiting CPU polls: the machine's. */
typedef struct cpu_dev_map {
    int (*index_of)(void *ctx, struct device *d);    /* its number, or -1 */
    struct device *(*device_at)(void *ctx, int idx); /* NULL: no such device */
    void *ctx;
} cpu_dev_map;
/* Append the CPU's whole state (registers, CP0 with the TLB, FPU, clock,
 * idle-skip state) to out as an image; see cpustate.c for what is left out. */
void cpu_state_save(cpu *c, strbuf *out, const cpu_dev_map *map);
/* Whether img is a CPU image this xbow can load: 0, or -1 with why. */
int cpu_state_check(const void *img, size_t len, const cpu_dev_map *map, xerr *err);
/* Load an image (checked again first: nothing changes on an error). */
int cpu_state_load(cpu *c, const void *img, size_t len, const cpu_dev_map *map, xerr *err);
/* Memory was replaced behind the CPUs' back (a snapshot was loaded): drop
 * every decoded and translated instruction of the CPU's group and every
 * soft TLB entry. */
void cpu_memory_replaced(cpu *c);

#endif
