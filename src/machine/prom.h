/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The synthetic PROM: what the IP27 and IO6 PROMs leave in memory and in
 * the PROM window for an operating system (docs/hardware.md, "Synthetic
 * PROM").
 *
 * prom_write_tables() builds a node's low memory: KLDIR, the LAUNCH and NMI
 * slots, KLCONFIG (an IP27 board with its CPUs, HUB and memory banks, and
 * the console description), the GDA; prom_write_argv() the ARCS argv in
 * node 0.  prom_build_rom()
 * fills the PROM window with the entry-vector table, the slave loop in
 * which secondary CPUs wait for LAUNCH_SLAVE, and the BEV exception
 * vectors.  Neither needs a CPU: both write through the bus or into a
 * buffer. */
#ifndef XBOW_PROM_H
#define XBOW_PROM_H

#include "core/bus.h"

/* Low-memory layout of every node, as offsets in the node (asm/sn/kldir.h, sn0/kldir.h, addrs.h). */
#define PROM_KLDIR_OFF 0x2000
#define PROM_LAUNCH_OFF 0x2400
#define PROM_LAUNCH_STRIDE 0x200
#define PROM_NMI_OFF 0x3000
#define PROM_NMI_STRIDE 0x40
#define PROM_KLCONFIG_OFF 0x4000
#define PROM_KLCONFIG_SIZE 0xc000
#define PROM_GDA_OFF 0x11000
#define PROM_NMI_KREGS_OFF 0x11400
#define PROM_NMI_KREGS_SIZE 0x200
#define PROM_PI_ERROR_OFF 0x12000
#define PROM_ARGV_OFF 0x18000
#define PROM_FREEMEM_OFF 0x19000
/* Where the tables live: [PROM_TABLES_START, PROM_TABLES_END). */
#define PROM_TABLES_START 0x2000
#define PROM_TABLES_END 0x19000

/* Structure constants Linux checks. */
#define KLDIR_MAGIC 0x434d5f53505f5357ull
#define LAUNCH_MAGIC 0xaddbead2addbead3ull
#define KLCFGINFO_MAGIC 0xbeedbabeull
#define GDA_MAGIC 0x58464552u
#define NMI_MAGIC 0x48414d4d455201ull

/* Offsets inside the launch and NMI structures (launch.h, nmi.h). */
#define LAUNCH_OFF_MAGIC 0x00
#define LAUNCH_OFF_BUSY 0x08
#define LAUNCH_OFF_CALL 0x10
#define LAUNCH_OFF_CALLC 0x18
#define LAUNCH_OFF_PARM 0x20
#define LAUNCH_OFF_STACK 0x28
#define LAUNCH_OFF_GP 0x30
#define NMI_OFF_MAGIC 0x00
#define NMI_OFF_CALL 0x10
#define NMI_OFF_CALLC 0x18
#define NMI_OFF_PARM 0x20

/* The PROM window: HSPEC 0x1fc00000 (LBOOT), KSEG1 0xbfc00000. */
#define PROM_PA 0x1fc00000ull
#define PROM_SIZE 0x400000ull
#define PROM_VADDR 0xffffffffbfc00000ull
/* Entry vectors (sn0/addrs.h IP27PROM_*). */
/* clang-format off */
enum {
    PROM_ENTRY = 0x00, PROM_RESTART = 0x08, PROM_SLAVELOOP = 0x10, PROM_PODMODE = 0x18,
    PROM_IOC3UARTPOD = 0x20, PROM_FLASHLEDS = 0x28, PROM_REPOD = 0x30,
    PROM_LAUNCHSLAVE = 0x38, PROM_WAITSLAVE = 0x40, PROM_POLLSLAVE = 0x48,
    PROM_NVECTORS = 10,
};
/* clang-format on */
/* BEV exception vectors (offsets in the PROM window). */
#define PROM_BEV_TLB 0x200
#define PROM_BEV_XTLB 0x280
#define PROM_BEV_CACHE 0x300
#define PROM_BEV_GENERAL 0x380
/* The slave loop every CPU enters from a cold reset. */
#define PROM_SLAVE_ENTRY 0x400

/* Status the synthetic PROM hands over with: KX (64-bit kernel
 * addressing), CU1 and FR as the R10000 PROM leaves them, BEV still set
 * (the OS installs its vectors and clears it), EXL = ERL = 0. */
#define PROM_STATUS 0x24400080ull

/* What one node's tables describe. */
typedef struct prom_config {
    unsigned nasid;     /* the node (its memory at nasid << 32) */
    unsigned nnodes;    /* nodes 0..nnodes-1 in the GDA's nasid table (0 = 1) */
    unsigned first_cpu; /* logical CPU number (virtid) of this node's slice A */
    unsigned ncpus;     /* 1 or 2 (slices A, B) */
    uint16_t cpu_prid;  /* PRId of the CPUs */
    uint16_t cpu_fpirr; /* FPU implementation/revision */
    uint16_t cpu_mhz;
    uint16_t scache_mb;
    unsigned nbanks;         /* memory banks in use */
    uint16_t bank_mb[8];     /* bank b covers node offset b * 512 MB */
    uint64_t console_base;   /* CPU address of the IOC3 registers; 0: no IO, console_t
                                  left zero */
    uint64_t console_config; /* CPU address of the IOC3's config space */
    unsigned console_wid, console_slot;
    int console_baud;
} prom_config;

/* Split `mem_mb` of node memory into IP27 banks (at most 8, each either
 * 512 MB or at most 128 MB so that Linux's slot arithmetic finds the memory
 * where it is).  Returns 0, or -1 with err set. */
int prom_mem_layout(uint64_t mem_mb, uint16_t bank_mb[8], unsigned *nbanks, xerr *err);

/* Build KLDIR, LAUNCH, NMI, KLCONFIG and GDA in the memory of node
 * pc->nasid (its range [PROM_TABLES_START, PROM_ARGV_OFF) is rewritten). */
int prom_write_tables(bus *b, const prom_config *pc, xerr *err);

/* ARCS argv at PROM_ARGV_OFF: argv[0] = argv0, then the words of `append`.
 * Returns 0 and the hand-off registers (argc, the argv and envp pointers as
 * XKPHYS cached addresses), or -1 with err set when it does not fit. */
int prom_write_argv(bus *b, const char *argv0, const char *append, uint64_t *argc, uint64_t *argv,
                    uint64_t *envp, xerr *err);

/* Fill the PROM window image (size >= 0x1000): vector table, BEV vectors,
 * slave loop.  Returns the number of bytes used. */
size_t prom_build_rom(uint8_t *rom, size_t size);

/* Node addresses as the OS sees them (M mode: nasid << 32). */
#define PROM_NASID_SHIFT 32
static inline uint64_t prom_node(unsigned nasid, uint64_t off)
{
    return (uint64_t)nasid << PROM_NASID_SHIFT | off;
}
static inline uint64_t prom_cac(uint64_t off) { return 0xa800000000000000ull | off; }
static inline uint64_t prom_uncac(uint64_t off) { return 0x9600000000000000ull | off; }

#endif
