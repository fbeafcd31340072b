/* SPDX-License-Identifier: GPL-2.0-or-later */ /* A small bare-metal driver for the Tigon2 (SGI Gigabit Ethernet, 10a9:0009)
 * on the IP27 guest runtime, written from the documented Alteon host
 * interface (docs/hardware.md, "Tigon2"): reset, MAC from the I2C EEPROM,
 * firmware download, general information block, command and event rings,
 * the standard and jumbo receive rings with the return ring, the send ring
 * in host memory, interrupts through the Bridge.  Shared by the tigon-tx,
 * tigon-rx and tigon-echo examples (see docs/hardware.md "Tigon2"). */
#ifndef TG_GUEST_H
#define TG_GUEST_H

#include "net.h"

#define TG_TX_ENTRIES 256
#define TG_STD_POSTED 64   /* standard buffers kept posted */
#define TG_JUMBO_POSTED 16 /* jumbo buffers kept posted (jumbo mode) */
#define TG_STD_BUF 1536
#define TG_JUMBO_BUF 9018

/* What the ISR hands up for each received frame. */
typedef void (*tg_rx_fn)(const u8 *frame, u32 len, u32 flags);

typedef struct tg_stats {
    u32 irqs, events, rx_frames, tx_done, link_ups, errors;
} tg_stats;

/* Bring the NIC up: firmware running, stack up, buffers posted, link up.
 * jumbo: MTU 9000 and the jumbo ring.  Returns 0, or -1 with a message. */
int tg_open(int jumbo, tg_rx_fn rx);
/* Queue one frame (copied); waits for room.  Returns 0 or -1. */
int tg_send(const void *frame, u32 len);
/* Wait until the NIC has consumed every frame queued (reported through the
 * send consumer word), at most `ms` milliseconds.  Returns 0 or -1. */
int tg_flush(u32 ms);
/* HOST_STATE down, CPU halted, interrupts off. */
void tg_close(void);
const u8 *tg_mac(void);
const tg_stats *tg_stats_get(void);
u64 tg_ms_now(void);

/* Frame helpers (IPv4/UDP/ICMP, the payload pattern of docs/networking.md;
 * the shared ones, and "name=value" arguments, are in lib/net.h).
 * tg_csum: the ones' complement sum of p, folded, starting from sum. */
static inline u16 tg_csum(const u8 *p, u32 len, u32 sum) { return csum_fold(csum_add(sum, p, len)); }
/* An IPv4/UDP frame of `len` bytes (>= 46) carrying payload message k. */
void tg_build_udp(u8 *f, u32 len, const u8 *dst, u32 k);
/* Check an IPv4/UDP frame: 1 = its payload is message *k (length *plen). */
int tg_check_udp(const u8 *f, u32 len, u32 *k, u32 *plen);

#endif
