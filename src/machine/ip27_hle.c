/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host-implemented PROM entry points of the synthetic PROM (cpu_hle): the
 * reset/NMI vector, LAUNCH_SLAVE and its companions, and the BEV exception
 * vectors.  The PROM window holds real MIPS code for the slave loop
 * (prom.c); these hooks run instead of the instruction at their address and
 * continue at $ra, so a hook redirects a CPU by setting $ra.
 * See docs/hardware.md, "Synthetic PROM". */
#include <stdio.h>

#include "core/log.h"
#include "machine/ip27_priv.h"

#define ST_NMI (1ull << 19)
#define R_V0 2
#define R_A0 4
#define R_RA 31

static const char *const entry_names[PROM_NVECTORS] = {
    "ENTRY",     "RESTART", "SLAVELOOP",   "PODMODE",   "IOC3UARTPOD",
    "FLASHLEDS", "REPOD",   "LAUNCHSLAVE", "WAITSLAVE", "POLLSLAVE"};

static uint64_t vaddr(unsigned off) { return PROM_VADDR + off; }

/* Node memory (off = nasid << 32 | node offset), uncached, on behalf of
 * CPU c (watchpoints see that CPU). */
static uint64_t ld(ip27 *b, cpu *c, uint64_t off)
{
    uint64_t v = 0;
    bus_read(&b->m->bus, cpu_initiator(c), BUS_UNC(3, off), 8, &v);
    return v;
}

static void sd(ip27 *b, cpu *c, uint64_t off, uint64_t v)
{
    bus_write(&b->m->bus, cpu_initiator(c), BUS_UNC(3, off), 8, v);
}

static uint64_t launch_slot(unsigned nasid, unsigned slice)
{
    return prom_node(nasid, PROM_LAUNCH_OFF + (uint64_t)PROM_LAUNCH_STRIDE * slice);
}

/* The launch slot of the CPU in a1 (nasid in a0), or 0 if there is none. */
static uint64_t target_slot(ip27 *b, cpu *c, const char *what)
{
    int64_t nasid = (int32_t)cpu_gpr(c, R_A0), slice = (int32_t)cpu_gpr(c, R_A0 + 1);
    if (nasid < 0 || (uint64_t)nasid >= b->nnodes || slice < 0 ||
        (uint64_t)slice >= b->nodes[nasid].ncpus) {
        xlog(LOG_WARN, "prom", "cpu%d: %s(nasid %lld, slice %lld): no such CPU", cpu_index(c), what,
             (long long)nasid, (long long)slice);
        return 0;
    }
    uint64_t l = launch_slot((unsigned)nasid, (unsigned)slice);
    if (ld(b, c, l + LAUNCH_OFF_MAGIC) != LAUNCH_MAGIC) {
        xlog(LOG_WARN, "prom",
             "cpu%d: %s: the launch slot of nasid %lld slice %lld has lost "
             "its magic",
             cpu_index(c), what, (long long)nasid, (long long)slice);
        return 0;
    }
    return l;
}

/* Reset vector: cold reset -> slave loop; NMI -> the OS's NMI handler if
 * its slot is armed (nmi.h), with the registers saved where the kernel's
 * NMI code looks for them (IP27_NMI_KREGS_OFFSET). */
static void hle_reset(void *ctx, cpu *c)
{
    ip27_hle *h = ctx;
    ip27 *b = h->b;
    uint64_t st = cpu_cp0(c, 12);
    unsigned idx = (unsigned)cpu_index(c), slice = ip27_cpu_slice(idx);
    unsigned nasid = ip27_cpu_node(idx);
    if (st & ST_NMI) {
        uint64_t n = prom_node(nasid, PROM_NMI_OFF + (uint64_t)PROM_NMI_STRIDE * slice);
        uint64_t call = ld(b, c, n + NMI_OFF_CALL), callc = ld(b, c, n + NMI_OFF_CALLC);
        if (ld(b, c, n + NMI_OFF_MAGIC) == NMI_MAGIC && call && callc == ~call) {
            uint64_t r =
                prom_node(nasid, PROM_NMI_KREGS_OFF + (uint64_t)PROM_NMI_KREGS_SIZE * slice);
            for (unsigned i = 0; i < 32; i++)
                sd(b, c, r + 8 * i, cpu_gpr(c, i));
            static const unsigned cp0[] = {12, 13, 14, 8, 30, 27}; /* sr cause epc badva */
            for (unsigned i = 0; i < ARRAY_SIZE(cp0); i++)         /* error_epc cache_err */
                sd(b, c, r + 0x100 + 8 * i, cpu_cp0(c, cp0[i]));
            sd(b, c, r + 0x130, st); /* nmi_sr */
            sd(b, c, n + NMI_OFF_CALLC, 0);
            cpu_set_gpr(c, R_A0, ld(b, c, n + NMI_OFF_PARM));
            cpu_set_cp0(c, 12, PROM_STATUS);
            cpu_set_gpr(c, R_RA, call);
            return;
        }
        xlog(LOG_INFO, "prom", "cpu%u: NMI with no handler in its NMI slot: slave loop", idx);
    }
    cpu_set_gpr(c, R_RA, vaddr(PROM_SLAVE_ENTRY));
}

/* LAUNCH_SLAVE(nasid, slice, pc, parm, sp, gp): fill the target's launch
 * slot the way the slave loop expects it (launch.h). */
static void hle_launch(void *ctx, cpu *c)
{
    ip27_hle *h = ctx;
    ip27 *b = h->b;
    uint64_t l = target_slot(b, c, "LAUNCH_SLAVE");
    if (!l)
        return;
    uint64_t pc = cpu_gpr(c, 6), parm = cpu_gpr(c, 7), sp = cpu_gpr(c, 8), gp = cpu_gpr(c, 9);
    sd(b, c, l + LAUNCH_OFF_STACK, sp);
    sd(b, c, l + LAUNCH_OFF_GP, gp);
    sd(b, c, l + LAUNCH_OFF_PARM, parm);
    sd(b, c, l + LAUNCH_OFF_CALLC, ~pc);
    sd(b, c, l + LAUNCH_OFF_CALL, pc);
    uint64_t nasid = l >> PROM_NASID_SHIFT;
    EVENT_EMIT(b->ev_launch, cpu_initiator(c),
               ((l & 0xffffffffull) - PROM_LAUNCH_OFF) / PROM_LAUNCH_STRIDE, pc, parm, sp, gp,
               nasid);
}

/* LAUNCH_POLL: 0 done, 1 sent (not taken yet), 2 received (busy). */
static void hle_poll(void *ctx, cpu *c)
{
    ip27_hle *h = ctx;
    uint64_t l = target_slot(h->b, c, "LAUNCH_POLL");
    uint64_t state = 0;
    if (l) {
        uint64_t call = ld(h->b, c, l + LAUNCH_OFF_CALL);
        if (call && ld(h->b, c, l + LAUNCH_OFF_CALLC) == ~call)
            state = 1;
        else if (ld(h->b, c, l + LAUNCH_OFF_BUSY))
            state = 2;
    }
    cpu_set_gpr(c, R_V0, state);
}

/* LAUNCH_WAIT: returns once the slave has taken the call and finished it.
 * The hook re-runs itself (its $ra points back here) while it waits, so
 * the other CPUs keep running; the timeout argument is not honoured. */
static void hle_wait(void *ctx, cpu *c)
{
    ip27_hle *h = ctx;
    ip27 *b = h->b;
    int i = cpu_index(c);
    if (!b->waiting[i]) {
        b->waiting[i] = true;
        b->wait_ra[i] = cpu_gpr(c, R_RA);
    }
    hle_poll(ctx, c); /* an invalid target reads as done */
    if (cpu_gpr(c, R_V0) == 0) {
        b->waiting[i] = false;
        cpu_set_gpr(c, R_RA, b->wait_ra[i]);
    } else {
        cpu_set_gpr(c, R_RA, vaddr(h->off));
    }
}

static void hle_slaveloop(void *ctx, cpu *c) { cpu_set_gpr(c, R_RA, vaddr(PROM_SLAVE_ENTRY)); }

static void hle_restart(void *ctx, cpu *c)
{
    ip27_hle *h = ctx;
    machine_guest_reset(h->b->m, "PROM RESTART entry");
}

/* Entries the synthetic PROM does not provide stop the machine, the CPU
 * sitting on the entry point. */
static void hle_missing(void *ctx, cpu *c)
{
    ip27_hle *h = ctx;
    char msg[160];
    snprintf(msg, sizeof msg,
             "cpu%d called the PROM's %s entry (0x%llx), which the synthetic "
             "PROM does not provide",
             cpu_index(c), entry_names[h->off / 8], (unsigned long long)vaddr(h->off));
    machine_request_stop(h->b->m, STOP_HALT, msg);
    cpu_set_gpr(c, R_RA, vaddr(h->off));
}

/* An exception while Status.BEV is set: the OS has no handlers in place. */
static void hle_bev(void *ctx, cpu *c)
{
    static const char *const exc[32] = {"Int", "Mod", "TLBL", "TLBS", "AdEL",        "AdES",
                                        "IBE", "DBE", "Sys",  "Bp",   "RI",          "CpU",
                                        "Ov",  "Tr",  NULL,   "FPE",  [23] = "Watch"};
    ip27_hle *h = ctx;
    uint64_t cause = cpu_cp0(c, 13);
    unsigned code = (unsigned)(cause >> 2) & 31;
    const char *kind = h->off == PROM_BEV_TLB     ? "TLB refill"
                       : h->off == PROM_BEV_XTLB  ? "XTLB refill"
                       : h->off == PROM_BEV_CACHE ? "cache error"
                                                  : "general";
    char msg[160];
    snprintf(msg, sizeof msg,
             "cpu%d: %s exception %s with BEV set: EPC 0x%llx BadVAddr 0x%llx "
             "ra 0x%llx (no OS handler installed)",
             cpu_index(c), kind, exc[code] ? exc[code] : "?", (unsigned long long)cpu_cp0(c, 14),
             (unsigned long long)cpu_cp0(c, 8), (unsigned long long)cpu_gpr(c, R_RA));
    machine_request_stop(h->b->m, STOP_HALT, msg);
    cpu_set_gpr(c, R_RA, vaddr(h->off));
}

int ip27_hle_install(ip27 *b, xerr *err)
{
    static const struct {
        unsigned off;
        cpu_hle_fn fn;
    } table[] = {
        {PROM_ENTRY, hle_reset},         {PROM_RESTART, hle_restart},
        {PROM_SLAVELOOP, hle_slaveloop}, {PROM_PODMODE, hle_missing},
        {PROM_IOC3UARTPOD, hle_missing}, {PROM_FLASHLEDS, hle_missing},
        {PROM_REPOD, hle_missing},       {PROM_LAUNCHSLAVE, hle_launch},
        {PROM_WAITSLAVE, hle_wait},      {PROM_POLLSLAVE, hle_poll},
        {PROM_BEV_TLB, hle_bev},         {PROM_BEV_XTLB, hle_bev},
        {PROM_BEV_CACHE, hle_bev},       {PROM_BEV_GENERAL, hle_bev},
    };
    _Static_assert(ARRAY_SIZE(table) == PROM_NVECTORS + 4, "one context per entry");
    for (unsigned i = 0; i < ARRAY_SIZE(table); i++) {
        b->hle[i] = (ip27_hle){b, table[i].off};
        for (unsigned k = 0; k < b->m->ncpus; k++)
            if (cpu_hle_register(b->m->cpus[k], vaddr(table[i].off), table[i].fn, &b->hle[i])) {
                xerr_set(err, "cannot register the PROM entry points");
                return -1;
            }
    }
    return 0;
}
