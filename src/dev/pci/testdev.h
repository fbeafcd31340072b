/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The xbow PCI DMA test device (in the spirit of QEMU's "edu"): a PCI
 * function that copies between two PCI addresses, or between PCI and its own
 * 4 KB buffer, through the host bridge, so a guest can test every DMA
 * window and swap mode byte by byte.  See docs/hardware.md.
 *
 * PCI id 0x5842:0x0001 ("XB", a made-up vendor id no real part uses), class
 * 0xff0000, INTA.  BAR0: 8 KB memory, little-endian 32-bit registers at
 * 0x000-0x03f and the buffer at 0x1000-0x1fff (BAR byte 0x1000+i = buffer
 * byte i). */
#ifndef XBOW_TESTDEV_H
#define XBOW_TESTDEV_H

#include "core/dev.h"
#include "core/event.h"
#include "core/sched.h"
#include "dev/pci/pci.h"

#define TESTDEV_VENDOR 0x5842
#define TESTDEV_DEVICE 0x0001
#define TESTDEV_BAR_SIZE 0x2000
#define TESTDEV_BUF_OFF 0x1000
#define TESTDEV_BUF_SIZE 0x1000
#define TESTDEV_MAX_LEN 0x10000 /* longest PCI-to-PCI transfer */

/* Registers (offsets in BAR0). */
#define TD_ID 0x00      /* RO device<<16 | vendor */
#define TD_VERSION 0x04 /* RO 1 */
#define TD_SRC_LO 0x08  /* source: PCI address, or buffer offset (DIR_BUF_TO_PCI) */
#define TD_SRC_HI 0x0c
#define TD_DST_LO 0x10 /* destination: PCI address, or buffer offset (DIR_PCI_TO_BUF) */
#define TD_DST_HI 0x14
#define TD_LEN 0x18         /* bytes, 1..TESTDEV_MAX_LEN (and within the buffer) */
#define TD_CMD 0x1c         /* writing GO starts a transfer */
#define TD_STATUS 0x20      /* RO */
#define TD_INT_ACK 0x24     /* WO: 1 = clear the interrupt, lower INTA */
#define TD_XFERS 0x28       /* RO completed transfers */
#define TD_DONE_BYTES 0x2c  /* RO bytes that reached the destination in the last transfer */
#define TD_ERR_ADDR_LO 0x30 /* RO PCI address of the DMA that failed */
#define TD_ERR_ADDR_HI 0x34

/* TD_CMD bits */
#define TD_CMD_GO 0x1u
#define TD_CMD_DIR_SHIFT 1 /* 2 bits: */
#define TD_DIR_PCI_TO_PCI 0
#define TD_DIR_PCI_TO_BUF 1
#define TD_DIR_BUF_TO_PCI 2
#define TD_CMD_WORD \
    0x8u                 /* move data as 4-byte word DMAs (aligned on the PCI address)
                              instead of one bulk DMA */
#define TD_CMD_IRQ 0x10u /* raise INTA when done */

/* TD_STATUS bits */
#define TD_ST_BUSY 0x1u
#define TD_ST_DONE 0x2u
#define TD_ST_ERROR 0x4u
#define TD_ST_IRQ 0x8u     /* interrupt pending (INTA asserted) */
#define TD_ST_CODE_SHIFT 8 /* error code, 4 bits: */
enum testdev_error {
    TD_ERR_NONE = 0,
    TD_ERR_READ = 1,     /* a DMA read was aborted */
    TD_ERR_WRITE = 2,    /* a DMA write was aborted */
    TD_ERR_LEN = 3,      /* length 0, too long, or outside the buffer */
    TD_ERR_DIR = 4,      /* direction 3 */
    TD_ERR_NOMASTER = 5, /* bus mastering is off in the command register */
};

/* Virtual time of a transfer: 1 us plus 10 ns per byte (100 MB/s). */
#define TESTDEV_SETUP_NS 1000
#define TESTDEV_NS_PER_BYTE 10

typedef struct testdev testdev;

testdev *testdev_new(const char *name, event_bus *eb, sched *clock);
/* Frees the model; its device (testdev_device) is owned like the Bridge's
 * (see bridge_free). */
void testdev_free(testdev *td);
pci_func *testdev_func(testdev *td);
device *testdev_device(testdev *td);

#endif
