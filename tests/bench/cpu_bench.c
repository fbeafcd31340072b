/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CPU interpreter benchmark (not a test): runs a cross-compiled integer
 * workload (guest_loop.c) from XKPHYS and prints guest instructions per host
 * second.  Usage: cpu_bench GUEST.ELF [MILLION_INSNS]
 *
 * The guest's `result` is checked against the same workload computed on the
 * host (guest_work.h), so a fast but wrong interpreter does not pass.
 *
 * Usage: cpu_bench GUEST.ELF [MILLION_INSNS [NRUNS [USER.BIN]]]
 *
 * Runs: plain (kernel mode, XKPHYS); with a breakpoint and a watchpoint set
 * on pages the guest never touches (they must cost nothing); through the
 * trace hook (every instruction takes the slow fetch path); and, given
 * USER.BIN (the same workload linked at 0x10000000, as a flat binary with
 * its `bench` block at 0x10008000), in user mode through the TLB with a
 * hand-assembled XTLB refill handler.  NRUNS limits the runs
 * to the first ones. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/elf.h"
#include "cpu/cpu.h"
#include "guest_work.h"
#include "../unit/cpu/cpu_asm.h"

/* Process CPU time: steadier than wall time on a shared machine. */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static unsigned long traced;
static void count_trace(void *ctx, cpu *c, uint64_t pc, uint32_t insn)
{
    (void)ctx, (void)c, (void)pc, (void)insn;
    traced++;
}

static uint64_t peek64(bus *b, cpu *c, uint64_t va)
{
    uint64_t ba = 0, v = 0;
    uint8_t r8[8] = {0};
    if (va && cpu_translate(c, va, false, &ba) == 0 && bus_peek(b, ba, r8, 8) == BUS_OK)
        for (int i = 0; i < 8; i++)
            v = (v << 8) | r8[i];
    return v;
}

/* User mode: VA 0x10000000 + x lives at PA 0x01000000 + x. */
#define USER_VA 0x10000000ull
#define USER_PA 0x01000000ull

static uint64_t peek_pa(bus *b, uint64_t pa)
{
    uint8_t r8[8] = {0};
    uint64_t v = 0;
    if (bus_peek(b, BUS_CAC(pa), r8, 8) == BUS_OK)
        for (int i = 0; i < 8; i++)
            v = (v << 8) | r8[i];
    return v;
}

static void put_words(bus *b, uint64_t pa, const uint32_t *w, unsigned n)
{
    asm_poke(b, BUS_CAC(pa), w, n);
}

#define USER_BENCH 0x10008000ull

static void setup_user(bus *b, cpu *c, const elf_image *img)
{
    bus_poke(b, BUS_CAC(USER_PA), img->data, img->size);
    /* XTLB refill: map the faulting 8 KB pair VA -> VA - USER_VA + USER_PA. */
    static const uint32_t refill[] = {
        DMFC0(K0, 8),
        LUI(K1, (USER_VA - USER_PA) >> 16),
        DSRL(K0, K0, 13),
        DSLL(K0, K0, 13),
        DSUBU(K0, K0, K1),
        DSRL(K0, K0, 12),
        DSLL(K0, K0, 6),
        ORI(K0, K0, 0x1f),
        DMTC0(K0, 2),
        DADDIU(K0, K0, 0x40),
        DMTC0(K0, 3),
        TLBWR,
        ERET,
    };
    put_words(b, 0x80, refill, ARRAY_SIZE(refill));
    put_words(b, 0x180, (const uint32_t[]){BEQ(ZERO, ZERO, -1), NOP}, 2); /* anything else */
    /* user mode, UX/SX/KX, XX (MIPS IV in user mode), CU1, FR */
    cpu_set_cp0(c, 12, (1ull << 31) | (1u << 29) | (1u << 26) | 0xe0 | 0x10);
    cpu_set_pc(c, USER_VA);
    cpu_set_gpr(c, 29, USER_VA + 0xf00000);
}

static double run(const elf_image *img, uint64_t n, int engine, int mode, uint64_t sym_rounds,
                  uint64_t sym_result, uint64_t *rounds, uint64_t *result)
{
    bus b;
    sched clk;
    event_bus eb;
    bus_init(&b);
    sched_init(&clk, 0);
    event_bus_init(&eb, &clk.now);
    ram_block *rb = ram_block_new(&b, "ram", 64u << 20);
    if (!rb || bus_map_ram(&b, "ram", BUS_CAC(0), 64u << 20, rb, 0, false)) {
        fprintf(stderr, "cpu_bench: no RAM\n");
        exit(1);
    }
    xerr err;
    if (mode != 3 && elf_load(img, &b, &err)) {
        fprintf(stderr, "cpu_bench: %s\n", err.msg);
        exit(1);
    }
    cpu *c = cpu_new(0, &b, &clk, &eb);
    cpu_set_engine(c, engine);
    cpu_set_cp0(c, 12, (1u << 28) | (1u << 29) | (1u << 26) | 0xe0); /* CU0|CU1|FR|KX|SX|UX */
    cpu_set_pc(c, img->entry);
    cpu_set_gpr(c, 29, 0xa800000003f00000ull);
    if (mode == 1) {
        cpu_bp_insert(c, 0xa800000002000000ull);
        cpu_wp_insert(c, 0xa800000002100000ull, 8, WATCH_ACCESS);
    } else if (mode == 2) {
        cpu_set_trace(c, count_trace, NULL);
    } else if (mode == 3) {
        setup_user(&b, c, img);
    }
    double t0 = now_s();
    int rc = cpu_run(c, clk.now + n);
    double t = now_s() - t0;
    if (rc != CPU_RAN) {
        fprintf(stderr, "cpu_bench: stopped early (%d) at pc %016" PRIx64 "\n", rc, cpu_pc(c));
        exit(1);
    }
    if (mode == 3) {
        *rounds = peek_pa(&b, sym_rounds - USER_VA + USER_PA);
        *result = peek_pa(&b, sym_result - USER_VA + USER_PA);
    } else {
        *rounds = peek64(&b, c, sym_rounds);
        *result = peek64(&b, c, sym_result);
    }
    cpu_free(c);
    event_bus_free(&eb);
    bus_free(&b);
    return t;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: cpu_bench GUEST.ELF [MILLION_INSNS]\n");
        return 2;
    }
    uint64_t n = (argc > 2 ? strtoull(argv[2], NULL, 0) : 300) * 1000000ull;
    elf_image img;
    xerr err;
    if (elf_read_file(argv[1], &img, &err)) {
        fprintf(stderr, "cpu_bench: %s\n", err.msg);
        return 1;
    }
    symtab st;
    symtab_init(&st);
    elf_symbols(&img, &st, &err);
    const symbol *bs = symtab_lookup_name(&st, "bench");
    if (!bs) {
        fprintf(stderr, "cpu_bench: %s has no `bench` symbol\n", argv[1]);
        return 1;
    }
    elf_image uimg = {0};
    bool user = false;
    if (argc > 4) {
        FILE *f = fopen(argv[4], "rb");
        uimg.data = malloc(1 << 20);
        if (!f || !uimg.data || (uimg.size = fread(uimg.data, 1, 1 << 20, f)) == 0) {
            fprintf(stderr, "cpu_bench: cannot read %s\n", argv[4]);
            return 1;
        }
        fclose(f);
        user = true;
    }
    static const char *const names[4] = {"plain", "bp+wp elsewhere", "trace hook",
                                         "user, TLB-mapped"};
    int bad = 0;
    int nruns = argc > 3 ? atoi(argv[3]) : 4;
    /* Each run with each engine the host has (the interpreter, then the
     * translator). */
    for (int k = 0; k < 8; k++) {
        int engine = k / 4 ? CPU_ENGINE_JIT : CPU_ENGINE_INTERP, mode = k % 4;
        if (mode >= nruns || (mode == 3 && !user) || !cpu_engine_available(engine))
            continue;
        uint64_t m = mode == 2 ? n / 10 : n;
        uint64_t rounds = 0, result = 0;
        double t = mode == 3
                       ? run(&uimg, m, engine, mode, USER_BENCH + 8, USER_BENCH, &rounds, &result)
                       : run(&img, m, engine, mode, bs->addr + 8, bs->addr, &rounds, &result);
        /* The run may stop between `result = ...` and `rounds = ...`. */
        bool ok = rounds > 0 && (result == work_round(rounds) || result == work_round(rounds + 1));
        printf("cpu_bench: %-6s %-16s %6.1f M guest insns/s (%" PRIu64
               " M insns in %.2f s, %" PRIu64 " rounds, result %s)\n",
               engine == CPU_ENGINE_JIT ? "jit" : "interp", names[mode], (double)m / t / 1e6,
               m / 1000000, t, rounds, ok ? "ok" : "WRONG");
        bad |= !ok;
    }
    symtab_free(&st);
    elf_free(&img);
    free(uimg.data);
    return bad;
}
