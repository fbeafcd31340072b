/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A small machine for Bridge unit tests: a bus with RAM at node 0, a fake
 * HUB region that records PI_INT_PEND_MOD writes, the Bridge at widget 8's
 * small window, a fake CPU initiator and fake PCI functions whose BARs are
 * backed by memory and log every access. */
#ifndef XBOW_TEST_BRIDGE_FIXTURE_H
#define XBOW_TEST_BRIDGE_FIXTURE_H

#include "core/bus.h"
#include "core/event.h"
#include "core/sched.h"
#include "dev/sgi/bridge.h"

#define FX_RAM_SIZE (1u << 20)
#define FX_WIDGET_BASE BUS_UNC(1, 0x08000000ull)
#define FX_HUB_BASE BUS_UNC(1, 0x01800000ull) /* REMOTE_HUB_ADDR(0, 0) */
#define FX_PEND_MOD 0x90
#define FX_MAX_LOG 256

typedef struct fx_access {
    unsigned bar, size;
    uint64_t off, val;
    bool write;
    int who; /* the initiator the Bridge said the cycle was for */
} fx_access;

/* A PCI function with memory-backed BARs (little-endian byte lanes). */
typedef struct fake_func {
    pci_func f;
    uint8_t mem[2][0x2000]; /* BAR0 (mem), BAR1 (io) backing */
    fx_access log[FX_MAX_LOG];
    unsigned nlog;
    bool refuse; /* answer with a target abort */
} fake_func;

typedef struct hub_write {
    uint64_t off, val;
    unsigned size;
    int initiator;
} hub_write;

typedef struct fixture {
    bus bus;
    sched clock;
    event_bus eb;
    ram_block *ram;
    int cpu;
    bridge *br;
    hub_write hub[FX_MAX_LOG];
    unsigned nhub;
    /* events recorded by fx_record */
    uint64_t ev_vals[FX_MAX_LOG][12];
    unsigned ev_n[FX_MAX_LOG];
    const char *ev_name[FX_MAX_LOG];
    int ev_who[FX_MAX_LOG];
    unsigned nev;
} fixture;

void fx_init(fixture *fx);
void fx_free(fixture *fx);
/* Record every event whose name matches `pattern`. */
void fx_record(fixture *fx, const char *pattern);

/* CPU accesses to the Bridge's widget space (big-endian values). */
int fx_rd(fixture *fx, uint64_t off, unsigned size, uint64_t *val);
int fx_wr(fixture *fx, uint64_t off, unsigned size, uint64_t val);
uint32_t fx_reg(fixture *fx, uint64_t off);            /* 32-bit register read */
void fx_setreg(fixture *fx, uint64_t off, uint32_t v); /* 32-bit register write */

void fake_func_init(fake_func *ff, const char *name, uint64_t bar0_size, uint64_t bar1_io_size);

/* Bridge register offsets (Linux asm/pci/bridge.h). */
/* clang-format off */
enum {
    B_WID_ID = 0x04, B_WID_STAT = 0x0c, B_WID_ERR_UPPER = 0x14, B_WID_ERR_LOWER = 0x1c,
    B_WID_CONTROL = 0x24, B_WID_INT_UPPER = 0x34, B_WID_INT_LOWER = 0x3c,
    B_WID_ERR_CMDWORD = 0x44, B_WID_TFLUSH = 0x54, B_WID_RESP_UPPER = 0x64,
    B_WID_RESP_LOWER = 0x6c, B_DIR_MAP = 0x84, B_NIC = 0xb4, B_PCI_CFG = 0xcc,
    B_PCI_ERR_UPPER = 0xd4, B_PCI_ERR_LOWER = 0xdc, B_INT_STATUS = 0x104,
    B_INT_ENABLE = 0x10c, B_INT_RST_STAT = 0x114, B_INT_MODE = 0x11c, B_INT_DEVICE = 0x124,
    B_INT_HOST_ERR = 0x12c, B_INT_ADDR0 = 0x134, B_DEVICE0 = 0x204, B_WR_REQ_BUF0 = 0x244,
};
/* clang-format on */
#define B_INT_ADDR(n) (B_INT_ADDR0 + 8 * (n))
#define B_DEVICE(n) (B_DEVICE0 + 8 * (n))
#define B_CFG(slot, fn) (0x20000u + (slot)*0x1000u + (fn)*0x100u)
#define B_DEVIO(n) ((n) <= 1 ? 0x200000u + (n)*0x200000u : 0x600000u + ((n)-2) * 0x100000u)

/* What Linux's bridge_probe() programs for interrupts (docs/hardware.md). */
void fx_linux_int_setup(fixture *fx);

#endif
