/* SPDX-License-Identifier: GPL-2.0-or-later */
/* QLogic ISP1040B PCI SCSI host adapter, as Linux's qla1280 drives it
 * (docs/storage.md).
 *
 * PCI 1077:1020 revision 5, class 0x010000, INTA.  BAR0: 256 bytes of I/O,
 * BAR1: 4 KB of memory; both decode the same 16-bit registers (ID, CFG_0/1,
 * ICTRL, ISTATUS, SEMAPHORE, NVRAM, the DMA blocks' configuration, the
 * mailboxes at 0x70-0x7e, HCCR at 0xc0).  The mailboxes are two sets of
 * eight: the host writes the incoming ones and reads the outgoing ones.
 *
 * The model implements the firmware's interface itself and runs no RISC
 * code: the ROM's mailbox commands (register test, RAM word read/write, load
 * and dump RAM, verify checksum, execute firmware) work on a 64K-word RISC
 * RAM, and EXECUTE FIRMWARE starts the modelled firmware only if the loaded
 * image is xbow's own (docs/storage.md, "Firmware"), checksum included.
 * The firmware's commands: queue set-up (32- and 64-bit), bus and target
 * parameters, marker, abort, bus reset, and the request queue of command
 * IOCBs (types 1 and 9, continuations 2 and 0x0a, markers) answered with
 * status IOCBs or fast-posted completions.  One SCSI bus, targets 0-15. */
#ifndef XBOW_ISP_H
#define XBOW_ISP_H

#include "core/dev.h"
#include "core/event.h"
#include "core/sched.h"
#include "dev/pci/pci.h"
#include "dev/scsi/scsi_disk.h"

#define ISP_VENDOR 0x1077
#define ISP_DEVICE 0x1020
#define ISP_REVISION 5 /* 1040B */
#define ISP_IO_SIZE 0x100
#define ISP_MEM_SIZE 0x1000
#define ISP_TARGETS 16
#define ISP_RAM_WORDS 0x10000

/* Registers (byte offsets in either BAR). */
#define ISP_ID_L 0x00
#define ISP_ID_H 0x02
#define ISP_CFG_0 0x04
#define ISP_CFG_1 0x06
#define ISP_ICTRL 0x08
#define ISP_ISTATUS 0x0a
#define ISP_SEMAPHORE 0x0c
#define ISP_NVRAM 0x0e
#define ISP_MAILBOX(n) (0x70 + 2 * (n))
#define ISP_HCCR 0xc0

#define ISP_ICTRL_RESET 0x1
#define ISP_ICTRL_EN_INT 0x2
#define ISP_ICTRL_EN_RISC 0x4
#define ISP_IST_PCI_INT 0x2
#define ISP_IST_RISC_INT 0x4
#define ISP_HCCR_HOST_INT 0x80

/* HCCR commands (bits 15:12). */
enum {
    ISP_HC_RESET_RISC = 0x1,
    ISP_HC_PAUSE_RISC = 0x2,
    ISP_HC_RELEASE_RISC = 0x3,
    ISP_HC_SET_HOST_INT = 0x5,
    ISP_HC_CLR_HOST_INT = 0x6,
    ISP_HC_CLR_RISC_INT = 0x7,
    ISP_HC_DISABLE_BIOS = 0x9,
    ISP_HC_LINUX_RESET = 0xb, /* 1|3|9 OR-ed, as qla1280 writes it: reset and release */
};

/* Mailbox status codes and asynchronous events. */
enum {
    ISP_MBS_BUSY = 0x0004,
    ISP_MBS_OK = 0x4000,
    ISP_MBS_INVALID = 0x4001,
    ISP_MBS_HOST_IF_ERR = 0x4002,
    ISP_MBS_TEST_FAILED = 0x4003,
    ISP_MBS_ERROR = 0x4005,
    ISP_MBS_PARAM_ERR = 0x4006,
    ISP_MBA_BUS_RESET = 0x8001,
    ISP_MBA_FAST_POST = 0x8020,
};

/* Mailbox commands the model knows. */
enum {
    ISP_MBC_NOP = 0x00,
    ISP_MBC_LOAD_RAM = 0x01,
    ISP_MBC_EXECUTE_FIRMWARE = 0x02,
    ISP_MBC_DUMP_RAM = 0x03,
    ISP_MBC_WRITE_RAM_WORD = 0x04,
    ISP_MBC_READ_RAM_WORD = 0x05,
    ISP_MBC_REGISTER_TEST = 0x06,
    ISP_MBC_VERIFY_CHECKSUM = 0x07,
    ISP_MBC_ABOUT_FIRMWARE = 0x08,
    ISP_MBC_LOAD_RAM_A64 = 0x09,
    ISP_MBC_DUMP_RAM_A64 = 0x0a,
    ISP_MBC_INIT_REQUEST_QUEUE = 0x10,
    ISP_MBC_INIT_RESPONSE_QUEUE = 0x11,
    ISP_MBC_ABORT_COMMAND = 0x15,
    ISP_MBC_ABORT_DEVICE = 0x16,
    ISP_MBC_ABORT_TARGET = 0x17,
    ISP_MBC_BUS_RESET = 0x18,
    ISP_MBC_GET_TARGET_PARAMS = 0x28,
    ISP_MBC_SET_INITIATOR_ID = 0x30,
    ISP_MBC_SET_SELECTION_TIMEOUT = 0x31,
    ISP_MBC_SET_TARGET_PARAMS = 0x38,
    ISP_MBC_SET_DEVICE_QUEUE = 0x39,
    ISP_MBC_SET_FIRMWARE_FEATURES = 0x4a,
    ISP_MBC_INIT_REQUEST_QUEUE_A64 = 0x52,
    ISP_MBC_INIT_RESPONSE_QUEUE_A64 = 0x53,
};

/* IOCBs: 64 bytes, little-endian fields. */
#define ISP_IOCB_SIZE 64
enum {
    ISP_ET_COMMAND = 0x01,
    ISP_ET_CONTINUE = 0x02,
    ISP_ET_STATUS = 0x03,
    ISP_ET_MARKER = 0x04,
    ISP_ET_COMMAND_A64 = 0x09,
    ISP_ET_CONTINUE_A64 = 0x0a,
};
/* entry_status of a response to a request the firmware refused. */
#define ISP_ES_FULL 0x02
#define ISP_ES_BAD_HEADER 0x04
#define ISP_ES_BAD_PAYLOAD 0x08
/* Command control flags. */
#define ISP_CF_SIMPLE_TAG 0x0008
#define ISP_CF_DATA_IN 0x0020
#define ISP_CF_DATA_OUT 0x0040
/* Completion status codes. */
enum {
    ISP_CS_COMPLETE = 0x00,
    ISP_CS_INCOMPLETE = 0x01,
    ISP_CS_DMA = 0x02,
    ISP_CS_RESET = 0x04,
    ISP_CS_ABORTED = 0x05,
    ISP_CS_TIMEOUT = 0x06,
    ISP_CS_DATA_OVERRUN = 0x07,
    ISP_CS_DATA_UNDERRUN = 0x15,
};
/* Status IOCB state flags. */
#define ISP_SF_GOT_BUS 0x0100
#define ISP_SF_GOT_TARGET 0x0200
#define ISP_SF_SENT_CDB 0x0400
#define ISP_SF_TRANSFERRED_DATA 0x0800
#define ISP_SF_GOT_STATUS 0x1000
#define ISP_SF_GOT_SENSE 0x2000
#define ISP_SF_TRANSFER_CMPL 0x4000

/* The firmware image: version bytes, start address, then words; xbow's own
 * image's words start with this magic and hold their count (word 8) and a
 * word that makes their 16-bit sum zero (docs/storage.md). */
#define ISP_FW_MAGIC "XBOWISP1040HLE\0\0"
#define ISP_FW_WORDS 10

/* Virtual time: a mailbox command 10 us, a request fetch 2 us, a SCSI
 * command 20 us plus 25 ns a byte (40 MB/s, Ultra wide). */
#define ISP_MBOX_NS 10000
#define ISP_FETCH_NS 2000
#define ISP_CMD_NS 20000
#define ISP_NS_PER_BYTE 25

typedef struct isp isp;

isp *isp_new(const char *name, event_bus *eb, sched *clock);
void isp_free(isp *s); /* closes its disks */
pci_func *isp_func(isp *s);
device *isp_device(isp *s);
/* Put a disk at SCSI ID `id` (0-15, not the initiator's 7); the adapter
 * owns it from then on.  -1 with why in err when the ID is taken. */
int isp_attach_disk(isp *s, unsigned id, scsi_disk *d, xerr *err);
scsi_disk *isp_disk(isp *s, unsigned id);

#endif
