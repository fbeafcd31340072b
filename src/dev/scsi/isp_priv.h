/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ISP1040 model's insides, shared by isp.c (registers, mailboxes,
 * queues) and isp_view.c (info scsi, ring). */
#ifndef XBOW_ISP_PRIV_H
#define XBOW_ISP_PRIV_H

#include "dev/scsi/isp.h"

/* IOCB and parameter fields: little-endian. */
static inline uint16_t le16(const uint8_t *p) { return (uint16_t)load_le(p, 2); }
static inline uint32_t le32(const uint8_t *p) { return (uint32_t)load_le(p, 4); }
static inline void put16(uint8_t *p, uint16_t v) { store_le(p, 2, v); }
static inline void put32(uint8_t *p, uint32_t v) { store_le(p, 4, v); }

/* The firmware version ABOUT FIRMWARE reports (xbow's modelled firmware). */
#define ISP_FW_VERSION_MAJOR 1
#define ISP_FW_VERSION_MINOR 0
#define ISP_FW_VERSION_SUB 0

/* clang-format off */
enum {
    IR_ID_L, IR_ID_H, IR_CFG_0, IR_CFG_1, IR_ICTRL, IR_ISTATUS, IR_SEMAPHORE, IR_NVRAM,
    IR_FLASH_DATA, IR_FLASH_ADDR, IR_CDMA_CFG, IR_CDMA_CTRL, IR_DDMA_CFG, IR_DDMA_CTRL,
    IR_MAILBOX, IR_HCCR, IR_GPIO_DATA, IR_GPIO_ENABLE, IR_PINS, IR_NREGS
};
/* clang-format on */
enum { IEV_MBOX_CMD, IEV_MBOX_DONE, IEV_IOCB_FETCH, IEV_IOCB_DONE, IEV_ASYNC, IEV_IRQ, IEV_COUNT };

/* The RISC: held in reset, running its ROM, running the (modelled)
 * firmware, or paused. */
enum { RISC_HELD, RISC_ROM, RISC_RUNNING, RISC_PAUSED };

struct isp {
    pci_func f;
    device *dev;
    sched *clock;
    scsi_disk *disks[ISP_TARGETS];
    timer mbox_timer, io_timer;
    uint16_t mb_in[8], mb_out[8];
    bool host_int, risc_int, irq;
    uint8_t risc;
    bool fw_running;
    uint16_t fw_start, fw_features;
    uint8_t initiator_id;
    uint16_t sel_timeout_ms;
    uint16_t tparams[ISP_TARGETS];
    scsi_tstate ts[ISP_TARGETS];
    uint64_t req_base;
    uint16_t req_len, req_out;
    uint64_t resp_base;
    uint16_t resp_len, resp_in;
    bool resp_pending;
    uint8_t resp[ISP_IOCB_SIZE];
    uint16_t resp_index;
    uint8_t resp_target;
    uint64_t mbox_count, bus_resets;
    uint64_t active_at;      /* when the request engine last worked */
    uint64_t unreclaimed_at; /* when the oldest response the host has not taken was posted */
    uint16_t ram[ISP_RAM_WORDS];
};

/* One IOCB decoded on one line. */
void isp_iocb_format(const uint8_t *e, strbuf *out);
void isp_show_scsi(device *d, const char *args, view_ctx *ctx, strbuf *out);
void isp_show_ring(device *d, const char *args, view_ctx *ctx, strbuf *out);
int isp_ring_state(device *d, const char *ring, ring_state *st);

#endif
