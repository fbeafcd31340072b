/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Bridge internals shared by bridge.c (declaration, interrupts, errors),
 * bridge_pio.c (widget space, PIO lanes, config), bridge_dma.c (DMA port)
 * and bridge_view.c (decoded views). */
#ifndef XBOW_BRIDGE_PRIV_H
#define XBOW_BRIDGE_PRIV_H

#include "dev/sgi/bridge.h"
#include "dev/sgi/onewire.h"

/* Register ids: the order of the declaration in bridge.c. */
/* clang-format off */
enum bridge_reg {
    BR_WID_ID, BR_WID_STAT, BR_WID_ERR_UPPER, BR_WID_ERR_LOWER, BR_WID_CONTROL,
    BR_WID_REQ_TIMEOUT, BR_WID_INT_UPPER, BR_WID_INT_LOWER, BR_WID_ERR_CMDWORD, BR_WID_LLP,
    BR_WID_TFLUSH, BR_WID_AUX_ERR, BR_WID_RESP_UPPER, BR_WID_RESP_LOWER, BR_WID_TST_PIN_CTRL,
    BR_DIR_MAP, BR_RAM_PERR, BR_ARB, BR_NIC, BR_BUS_TIMEOUT, BR_PCI_CFG, BR_PCI_ERR_UPPER,
    BR_PCI_ERR_LOWER, BR_INT_STATUS, BR_INT_ENABLE, BR_INT_RST_STAT, BR_INT_MODE,
    BR_INT_DEVICE, BR_INT_HOST_ERR, BR_INT_ADDR, BR_DEVICE, BR_WR_REQ_BUF, BR_EVEN_RESP,
    BR_ODD_RESP, BR_RESP_STATUS, BR_RESP_CLEAR, BR_NREGS
};
/* clang-format on */

/* End of the register block; everything above goes to bridge_space_*(). */
#define BRIDGE_REG_END 0x300u

/* WID_CONTROL */
#define BRIDGE_CTRL_IO_SWAP (1u << 23)
#define BRIDGE_CTRL_MEM_SWAP (1u << 22)
#define BRIDGE_CTRL_PAGE_SIZE (1u << 21)
/* DIR_MAP */
#define BRIDGE_DIRMAP_W_ID_SHFT 20
#define BRIDGE_DIRMAP_ADD512 (1u << 17)
#define BRIDGE_DIRMAP_OFF 0x1ffffu
/* DEVICE(n) */
#define BRIDGE_DEV_DEV_SIZE 0x00400000u
#define BRIDGE_DEV_SWAP_PMU 0x00100000u
#define BRIDGE_DEV_SWAP_DIR 0x00080000u
#define BRIDGE_DEV_PREF 0x00040000u
#define BRIDGE_DEV_DEV_SWAP 0x00002000u
#define BRIDGE_DEV_DEV_IO_MEM 0x00001000u
#define BRIDGE_DEV_OFF_MASK 0x00000fffu
/* INT_STATUS / INT_ENABLE error bits (Linux asm/pci/bridge.h names) */
#define BRIDGE_ISR_MULTI_ERR (1u << 31)
#define BRIDGE_ISR_PMU_ESIZE_FAULT (1u << 30)
#define BRIDGE_ISR_RESP_XTLK_ERR (1u << 26)
#define BRIDGE_ISR_INVLD_ADDR (1u << 24)
#define BRIDGE_ISR_PCI_ABORT (1u << 15)
#define BRIDGE_ISR_PCI_MST_TIMEOUT (1u << 11)
#define BRIDGE_ISR_INT_MSK 0xffu
/* ATE bits (mkate) */
#define BRIDGE_ATE_V 0x1u
#define BRIDGE_ATE_ADDR 0x0000fffffffff000ull
#define BRIDGE_INTERNAL_ATES 128

/* Which error-address registers hold a first error (cleared by INT_RST_STAT). */
enum { LATCH_PCI = 1, LATCH_WID = 2, LATCH_RESP = 4 };

struct bridge {
    device *dev;
    bus *bus;
    sched *clock;
    event_bus *eb;
    int initiator;        /* "bridge": interrupt packets */
    unsigned hub_widget;  /* XIO id of the HUB (the only XIO target) */
    unsigned widget_id;   /* the Bridge's own id (WID_CONTROL reset) */
    bool cfg_abort_error; /* config master abort: bus error instead of all-ones */
    pci_func *slot[BRIDGE_SLOTS];
    int8_t intx_pin[BRIDGE_SLOTS][4]; /* Bridge pin of each slot's INTA..INTD */
    uint8_t intx_level[BRIDGE_SLOTS]; /* bit i = the function drives INTx i */
    uint64_t ate[BRIDGE_INTERNAL_ATES];
    uint32_t int_err; /* latched error bits 31:8 of INT_STATUS */
    uint8_t pins;     /* live levels of the 8 interrupt pins */
    uint8_t sent;     /* pins the HUB was told are asserted */
    bool err_sent;    /* error interrupt delivered, not yet cleared */
    uint8_t latched;  /* LATCH_* */
    ow_bus nic;
    ow_mcr nic_mcr; /* the NIC register: 1-wire master */
    ds2505 eeprom;
    bridge_dma_counter counters[BUS_MAX_INITIATORS][BRIDGE_NWINDOWS];
    uint8_t *scratch; /* DMA swap buffer */
    uint64_t scratch_len;
};

/* Declared events, in order (bridge.c). */
/* clang-format off */
enum {
    BEV_DMA, BEV_DMA_ERROR, BEV_PIO, BEV_PIO_ERROR, BEV_INT_SET, BEV_INT_CLEAR, BEV_INT_PIN,
    BEV_COUNT
};
/* clang-format on */
enum bridge_space { BSPACE_MEM, BSPACE_IO, BSPACE_CFG, BSPACE_WIDGET };
enum bridge_pio_reason { PIO_MASTER_ABORT, PIO_TARGET_ABORT, PIO_INVALID };
enum bridge_dma_reason {
    DMA_ERR_LOCAL,     /* PCI address 0..0x3fffffff: the Bridge does not decode it */
    DMA_ERR_ATE_RANGE, /* ATE index beyond the internal ATE RAM */
    DMA_ERR_ATE_INVALID,
    DMA_ERR_TARGET,  /* XIO target widget is not the HUB */
    DMA_ERR_NOWHERE, /* the HUB has no memory there */
};

static inline uint32_t br_reg(const bridge *br, unsigned id, unsigned idx)
{
    return (uint32_t)*dev_rv(br->dev, id, idx);
}
static inline void br_set(bridge *br, unsigned id, unsigned idx, uint32_t v)
{
    *dev_rv(br->dev, id, idx) = v;
}

/* bridge.c */
void bridge_error(bridge *br, uint32_t bit, unsigned latch, uint64_t addr, int slot, bool devmaster,
                  bool write);
void bridge_update_irqs(bridge *br);
/* The bus address an XIO write to `widget`:`xio` reaches (HUB memory or, with
 * bit 47, HUB IO space); false when nothing is there. */
bool bridge_xio_to_bus(const bridge *br, unsigned widget, uint64_t xio, bool io_ok,
                       uint64_t *bus_addr);

/* bridge_pio.c: offsets from BRIDGE_REG_END up (and pad words below it). */
int bridge_space_read(device *d, const bus_op *op, uint64_t off, unsigned size, uint64_t *val);
int bridge_space_write(device *d, const bus_op *op, uint64_t off, unsigned size, uint64_t val);
/* DEVIO window geometry. */
uint64_t bridge_devio_base(int n);
uint64_t bridge_devio_size(int n);
/* PCI base address of DEVIO window n. */
uint32_t bridge_devio_pci_base(const bridge *br, int n);

void bridge_host_set_irq(void *host, pci_func *f, int pin, bool level);

/* bridge_dma.c */
extern const pci_host_ops bridge_host_ops;

/* bridge_view.c: "windows", "dma", "pci" */
#define BRIDGE_NVIEWS 3
extern const dev_view bridge_views[BRIDGE_NVIEWS];
#define BRIDGE_NCOUNTERS 5
extern const dev_counter bridge_counters[BRIDGE_NCOUNTERS];

#endif
