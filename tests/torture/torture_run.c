/* SPDX-License-Identifier: GPL-2.0-or-later */
/* torture_run: run one freestanding guest image (a GCC torture test built
 * with tests/torture/libc.c) on xbow's R10000 and say how it ended.
 *
 *   torture_run [--max-insns N] TEST.ELF
 *
 * The CPU runs in 64-bit kernel mode (KX, CU1, FR) on 64 MB of RAM.  The
 * guest's exit() and abort() end in __torture_exit / __torture_abort, which
 * are host hooks (cpu_hle_register); any exception the guest takes ends the
 * run (the runtime has no handlers).  Exit status: 0 the test called
 * exit(0), 1 it failed (abort, non-zero exit, exception, instruction limit),
 * 2 the image could not be loaded.  One line on stdout says why. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bus.h"
#include "core/elf.h"
#include "core/event.h"
#include "core/sched.h"
#include "core/symtab.h"
#include "cpu/cpu.h"

#define RAM_MB 64

enum { END_NONE, END_EXIT, END_ABORT, END_EXC };

typedef struct run {
    cpu *c;
    int end;
    uint64_t status;
    uint64_t exc_code, exc_pc, exc_bad;
} run;

static void hle_exit(void *ctx, cpu *c)
{
    run *r = ctx;
    r->end = END_EXIT;
    r->status = cpu_gpr(c, 4);
    cpu_request_exit(c);
}

static void hle_abort(void *ctx, cpu *c)
{
    run *r = ctx;
    r->end = END_ABORT;
    cpu_request_exit(c);
}

static void on_exception(void *ctx, const event *ev)
{
    run *r = ctx;
    if (r->end != END_NONE || ev->nvals < 4)
        return;
    r->end = END_EXC;
    r->exc_code = ev->vals[1];
    r->exc_pc = ev->vals[2];
    r->exc_bad = ev->vals[3];
    cpu_request_exit(r->c); /* the CPU is inside cpu_run: stop it there */
}

static const char *exc_name(uint64_t code)
{
    static const char *const n[32] = {
        "Int", "Mod", "TLBL", "TLBS", "AdEL", "AdES", "IBE", "DBE",          "Sys",
        "Bp",  "RI",  "CpU",  "Ov",   "Tr",   "VCEI", "FPE", [23] = "WATCH", [31] = "VCED",
    };
    return code < 32 && n[code] ? n[code] : "?";
}

int main(int argc, char **argv)
{
    uint64_t max_insns = 200000000;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--max-insns") && i + 1 < argc)
            max_insns = strtoull(argv[++i], NULL, 0);
        else
            path = argv[i];
    }
    if (!path) {
        fprintf(stderr, "usage: torture_run [--max-insns N] TEST.ELF\n");
        return 2;
    }
    static bus b;
    static sched clk;
    static event_bus eb;
    xerr err;
    bus_init(&b);
    sched_init(&clk, XBOW_CPU_HZ);
    event_bus_init(&eb, &clk.now);
    ram_block *ram = ram_block_new(&b, "ram", (uint64_t)RAM_MB << 20);
    if (!ram || bus_map_ram(&b, "ram", BUS_CAC(0), (uint64_t)RAM_MB << 20, ram, 0, false) ||
        bus_map_ram(&b, "ram-ualias", BUS_UNC(0, 0), (uint64_t)RAM_MB << 20, ram, 0, false)) {
        printf("setup: cannot map RAM\n");
        return 2;
    }
    cpu *c = cpu_new(0, &b, &clk, &eb);
    elf_image img = {0};
    symtab st;
    symtab_init(&st);
    int status = 2;
    if (!c || elf_read_file(path, &img, &err) || elf_load(&img, &b, &err) ||
        elf_symbols(&img, &st, &err) < 0) {
        printf("load: %s\n", c ? err.msg : "cpu_new failed");
        goto out;
    }
    const symbol *se = symtab_lookup_name(&st, "__torture_exit");
    const symbol *sa = symtab_lookup_name(&st, "__torture_abort");
    if (!se || !sa) {
        printf("load: no __torture_exit/__torture_abort (not linked with tests/torture/libc.c)\n");
        goto out;
    }
    run r = {.c = c};
    cpu_hle_register(c, se->addr, hle_exit, &r);
    cpu_hle_register(c, sa->addr, hle_abort, &r);
    event_subscribe(cpu_event(c, CPU_EV_EXCEPTION), on_exception, &r);
    cpu_set_cp0(c, 12, (1u << 7) | (1u << 29) | (1u << 26)); /* KX, CU1, FR: 64-bit kernel */
    cpu_set_pc(c, img.entry);
    /* Run in slices so that an exception stops the run promptly. */
    while (r.end == END_NONE && clk.now < max_insns) {
        uint64_t until = clk.now + 100000 < max_insns ? clk.now + 100000 : max_insns;
        int rc = cpu_run(c, until);
        if (rc == CPU_HALTED) {
            printf("FAIL: CPU halted: %s\n", cpu_halt_reason(c));
            r.end = -1;
            break;
        }
    }
    char where[160];
    status = 1;
    switch (r.end) {
    case END_EXIT:
        if (r.status == 0) {
            printf("PASS (%" PRIu64 " instructions)\n", clk.now);
            status = 0;
        } else {
            printf("FAIL: exit(%" PRIu64 ")\n", r.status);
        }
        break;
    case END_ABORT: printf("FAIL: abort() after %" PRIu64 " instructions\n", clk.now); break;
    case END_EXC:
        symtab_format(&st, r.exc_pc, where, sizeof where);
        printf("FAIL: exception %s at 0x%" PRIx64 " (%s) badvaddr 0x%" PRIx64 " fcsr 0x%08x\n",
               exc_name(r.exc_code), r.exc_pc, where, r.exc_bad, cpu_fcsr(c));
        break;
    case -1: break;
    default: printf("FAIL: still running after %" PRIu64 " instructions\n", clk.now); break;
    }
out:
    cpu_free(c);
    symtab_free(&st);
    elf_free(&img);
    event_bus_free(&eb);
    bus_free(&b);
    return status;
}
