/* SPDX-License-Identifier: GPL-2.0-or-later */
/* IP27 board internals shared by ip27.c (address map, devices, reset,
 * hand-off) and ip27_hle.c (host-implemented PROM entry points). */
#ifndef XBOW_IP27_PRIV_H
#define XBOW_IP27_PRIV_H

#include "dev/sgi/bridge.h"
#include "dev/sgi/hub.h"
#include "dev/sgi/ioc3.h"
#include "dev/pci/testdev.h"
#include "machine/ip27.h"
#include "machine/prom.h"

struct ip27;
/* Context of one host-implemented PROM entry point. */
typedef struct ip27_hle {
    struct ip27 *b;
    unsigned off; /* offset in the PROM window */
} ip27_hle;

/* One node: nasid n holds CPUs 2n (slice A) and 2n + 1 (slice B), its HUB
 * and its memory at n << 32.  Node 0 also has the Bridge and the BaseIO;
 * node 1 (--cpus 3, 4) has no XIO widget (docs/hardware.md, "Two nodes"). */
#define IP27_MAX_NODES 2
typedef struct ip27_node {
    struct ip27 *b;
    unsigned nasid;
    unsigned first_cpu, ncpus;
    hub *hub;
    ram_block *ram;
    prom_config pc; /* what the PROM's tables in this node describe */
} ip27_node;

typedef struct ip27 {
    machine *m;
    ip27_node nodes[IP27_MAX_NODES];
    unsigned nnodes;
    bridge *br;
    ioc3 *ioc3;
    struct pci_func *nics[MAX_NICS]; /* --nic, in slots 3.. (ip27_nics.c) */
    unsigned nnics;
    struct pci_func *ioc3_eth; /* the IOC3's Ethernet function (ip27_nics.c) */
    uint8_t ioc3_mac[6];       /* its address, in the IOC3's 1-wire NIC */
    testdev *testdev;          /* --testdev */
    struct isp *isps[2];       /* --disk: the BaseIO's SCSI controllers, slots 0 and 1 */
    ram_block *rom;
    int prom_init; /* bus initiator of the synthetic PROM's own accesses */
    /* The kernel, kept for restarts. */
    bool have_kernel;
    elf_image kernel;
    char *kernel_path;
    /* A user PROM image (--prom): raw bytes or an ELF. */
    bool has_user_prom;
    uint8_t *user_prom;
    size_t user_prom_size;
    bool user_prom_is_elf;
    elf_image user_prom_elf;
    /* WAITSLAVE in progress, per CPU: the caller's return address. */
    bool waiting[MAX_CPUS];
    uint64_t wait_ra[MAX_CPUS];
    event_src *ev_launch;
    ip27_hle hle[PROM_NVECTORS + 4];
} ip27;

static inline ip27 *ip27_of(machine *m) { return m->board; }

/* The node of CPU index `cpu` (two CPUs per node). */
static inline unsigned ip27_cpu_node(unsigned idx) { return idx / 2; }
static inline unsigned ip27_cpu_slice(unsigned idx) { return idx % 2; }

/* ip27_nics.c */
int ip27_plug_nics(ip27 *b, xerr *err);
void ip27_free_nics(ip27 *b);
/* The IOC3 Ethernet's address (--ioc3-mac, or SGI's OUI 08:00:69 and three
 * bytes hashed like a NIC's default), for the IOC3's 1-wire NIC. */
void ip27_ioc3_mac(ip27 *b, uint8_t mac[6]);
/* Create the IOC3's Ethernet function, attach it to the IOC3, connect
 * --ioc3-net (default: unplugged). */
int ip27_make_ioc3_eth(ip27 *b, xerr *err);

/* ip27_scsi.c */
int ip27_plug_scsi(ip27 *b, xerr *err);
void ip27_free_scsi(ip27 *b);

/* ip27_hle.c: register the PROM entry points on every CPU. */
int ip27_hle_install(ip27 *b, xerr *err);


#endif
