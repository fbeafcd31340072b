/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test doubles for the NIC models: a fake PCI host (RAM behind two PCI
 * windows, DMA counters per kind, an interrupt log) and a fake wire (a
 * net_port whose backend captures transmitted frames). */
#ifndef XBOW_TEST_NIC_FAKE_H
#define XBOW_TEST_NIC_FAKE_H

#include "dev/nic/nic.h"

/* RAM byte i is at PCI address FAKE_LO + i (32-bit window) and
 * FAKE_HI + i (64-bit DAC window, like the IP27's PCI64 attributes). */
#define FAKE_LO 0x00100000ull
#define FAKE_HI 0xa100000000100000ull

typedef struct fake_irq {
    uint64_t time;
    bool level;
} fake_irq;

typedef struct fake_host {
    uint8_t *ram;
    uint64_t size;
    sched *clock;
    uint64_t word_ops, word_bytes, bulk_ops, bulk_bytes, aborts, peeks;
    uint64_t wlog[64]; /* addresses of the first 64 DMA writes */
    unsigned nwlog;
    fake_irq irqlog[1024];
    unsigned nirq;
    bool level;
} fake_host;

void fake_host_init(fake_host *h, sched *clock, uint64_t size);
void fake_host_free(fake_host *h);
/* Wire f to the host, enable memory decoding and bus mastering. */
void fake_host_plug(fake_host *h, pci_func *f);
/* Host pointer for [addr, addr+len), or NULL outside RAM. */
uint8_t *fake_ptr(fake_host *h, uint64_t addr, uint64_t len);
void fake_w32(fake_host *h, uint64_t addr, uint32_t v);
uint32_t fake_r32(fake_host *h, uint64_t addr);
void fake_w64(fake_host *h, uint64_t addr, uint64_t v);
/* Number of 0->1 transitions of INTA in the log. */
unsigned fake_irq_rises(const fake_host *h);

#define FAKE_MAX_FRAMES 512

typedef struct fake_wire {
    net_backend be;
    net_port port;
    uint8_t *frames[FAKE_MAX_FRAMES];
    uint32_t lens[FAKE_MAX_FRAMES];
    unsigned nframes;
    uint64_t total;
} fake_wire;

void fake_wire_attach(fake_wire *w, nic *n, sched *clock);
void fake_wire_free(fake_wire *w);
bool fake_wire_deliver(fake_wire *w, const uint8_t *frame, size_t len);

/* A NIC model on the fake host and, unless it runs on a real backend, the
 * fake wire, on a clock and event bus of its own: what the NIC models'
 * tests and fuzz targets stand on.  An environment struct holds one as its
 * first member NIC_RIG: &E.rig is the rig, and its fields are named
 * directly (E.clock, E.host, E.f, E.n ...), the two views of one union
 * with the same members. */
#define NIC_RIG_FIELDS \
    sched clock;       \
    event_bus eb;      \
    fake_host host;    \
    fake_wire wire;    \
    pci_func *f;       \
    nic *n;
typedef struct nic_rig {
    NIC_RIG_FIELDS
} nic_rig;
#define NIC_RIG            \
    union {                \
        nic_rig rig;       \
        struct {           \
            NIC_RIG_FIELDS \
        };                 \
    }

/* Clears r and starts its clock at 0, creates the model (nic_create) named
 * name with options o, plugs it into a fake host of ram bytes and, when
 * wire, attaches the fake wire.  False, with err, when the model cannot
 * be created. */
bool nic_rig_open(nic_rig *r, const char *model, const char *name, const nic_opts *o, uint64_t ram,
                  bool wire, xerr *err);
/* Destroys the model, frees the wire's frames, the host and the bus. */
void nic_rig_close(nic_rig *r);

/* An Ethernet frame of len bytes for the models to receive: to dst, from
 * 02:00:00:00:00:01, EtherType type, payload byte i net_payload_byte(k, i). */
void fake_frame(uint8_t *f, uint32_t len, const uint8_t *dst, uint16_t type, uint32_t k);

/* A broadcast ARP request from mac at 10.0.2.15 for 10.0.2.2 (what the
 * echo peer answers), FAKE_ARP_LEN bytes. */
#define FAKE_ARP_LEN 42
void fake_arp_request(uint8_t *f, const uint8_t mac[6]);

/* The Internet checksum's running sum: sum plus the 16-bit big-endian
 * words of p (an odd last byte as the high half of a word), folded to 16
 * bits; start sum at 0 or at a pseudo-header's sum. */
uint16_t fake_csum(const uint8_t *p, uint32_t len, uint32_t sum);

/* Run the clock forward, firing timers on the way. */
void run_for(sched *s, uint64_t ticks);

#endif
