/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Descriptor ring walkers shared by the NIC models.
 *
 * Three flavours:
 *   NIC_RING_OWN       ownership bit + end-of-ring flag (Hamachi): the device
 *                      walks descriptors from the base, stops at one it does
 *                      not own, wraps only after one flagged end-of-ring and
 *                      otherwise walks on into the following memory;
 *   NIC_RING_HEADTAIL  head/tail registers over a sized ring (8254x);
 *   NIC_RING_PRODCONS  producer/consumer indices over a sized ring, the
 *                      host's index in a mailbox (Tigon), with return rings.
 * The common API: fetch the descriptor at the device's position (every
 * word a per-word DMA, event <nic>.{tx,rx}.desc-fetch), write it back with
 * the ownership/status word LAST (event <nic>.{tx,rx}.desc-done), advance,
 * wrap.  The model decodes its own layout through nic_ring_ops.decode.
 */
#ifndef XBOW_NIC_RING_H
#define XBOW_NIC_RING_H

#include "dev/nic/nic.h"

enum nic_ring_kind { NIC_RING_OWN, NIC_RING_HEADTAIL, NIC_RING_PRODCONS };

#define NIC_DESC_MAX_WORDS 8

/* One descriptor: raw little-endian words plus the model's decoding. */
typedef struct nic_desc {
    uint32_t w[NIC_DESC_MAX_WORDS];
    unsigned nwords;
    uint64_t addr;  /* bus address it was read from */
    uint32_t index; /* entry index from the ring base */
    /* Filled in by ops->decode. */
    uint64_t buf;   /* buffer address */
    uint32_t len;   /* length field */
    uint32_t flags; /* model flag bits (named by ops->flags) */
    bool owned;     /* the device may use it (the host posted it) */
    bool eop;       /* end of packet */
    bool end_ring;  /* last descriptor of the ring */
    bool intr;      /* interrupt requested on completion */
} nic_desc;

typedef struct nic_ring_ops {
    void (*decode)(nic_ring *r, nic_desc *d);
    const nic_bitname *flags; /* names of nic_desc.flags bits */
    unsigned status_word;     /* the word handing the descriptor back: written last;
                                 >= the descriptor's words: no completion log */
    /* Optional: the ring lives in the device's own memory (Tigon command
     * ring, NIC-resident send ring).  Fetches and views read it through
     * this (little-endian words, like DMA) instead of DMA; no bus traffic,
     * no DMA counters.  Returns 0 or a PCI status. */
    int (*mem_read)(nic_ring *r, uint64_t addr, void *buf, uint32_t len);
    /* Optional: adjust the generic stall answer with what only the model
     * knows (index-based completions, rings the device produces). */
    void (*stall)(nic_ring *r, ring_state *s);
} nic_ring_ops;

#define NIC_DONE_LOG 512

/* A completion, remembered to tell whether the host reclaimed it. */
typedef struct nic_done {
    uint64_t addr; /* bus address of the status word written */
    uint64_t time;
    uint32_t word; /* the value written */
    uint32_t index;
} nic_done;

struct nic_ring {
    nic *n;
    const char *name; /* "tx", "rx", ... (nic_ring_names[id] normally) */
    enum nic_ring_id id;
    enum nic_ring_kind kind;
    bool tx;                /* events tx.desc-* (else rx.desc-*) */
    enum nic_dma_what what; /* of descriptor DMAs */
    const nic_ring_ops *ops;
    void *opaque;       /* for the model's decode */
    uint64_t base;      /* bus address of entry 0 */
    uint32_t desc_size; /* bytes per descriptor (multiple of 4, <= 32) */
    uint32_t stride;    /* bytes from one entry to the next; 0 = desc_size (the
                           IOC3's 128-byte Tx entries hold a 24-byte header) */
    uint32_t size;      /* entries; 0 = not sized (NIC_RING_OWN) */
    uint32_t index;     /* the device's next descriptor, from the base */
    uint64_t cur;       /* its bus address */
    uint32_t host;      /* HEADTAIL: tail; PRODCONS: host producer index */
    bool running;       /* the device's engine is working on the ring */
    bool set_up;        /* the host gave it a base since the last reset */
    uint64_t idle_since;
    uint64_t fetches, writebacks, wraps;
    nic_done done[NIC_DONE_LOG];
    unsigned done_head, done_n;
};

void nic_ring_init(nic_ring *r, nic *n, int id, int kind, bool tx, uint32_t desc_size,
                   const nic_ring_ops *ops, void *opaque);
/* Back to power-on: base 0, entry 0, idle, logs forgotten. */
void nic_ring_reset(nic_ring *r);
/* New base: the device starts again at entry 0. */
void nic_ring_set_base(nic_ring *r, uint64_t base);
void nic_ring_set_size(nic_ring *r, uint32_t entries);
/* Descriptor size for the following fetches (Hamachi 32/64-bit modes). */
void nic_ring_set_desc_size(nic_ring *r, uint32_t bytes);
/* Entries `bytes` apart whatever the descriptor size (0 = desc_size). */
void nic_ring_set_stride(nic_ring *r, uint32_t bytes);
/* Bus address of entry `index` (sized rings wrap; OWN rings: base + i*size). */
uint64_t nic_ring_addr(const nic_ring *r, uint32_t index);
/* Fetch the descriptor at the device's position (per-word DMA, decoded,
 * desc-fetch published).  Returns the PCI status (0 = OK). */
int nic_ring_fetch(nic_ring *r, nic_desc *d);
int nic_ring_fetch_at(nic_ring *r, uint32_t index, uint64_t addr, nic_desc *d);
/* Write back the words of d selected by word_mask (bit i = word i), the
 * status word last; publishes desc-done with the re-decoded fields and
 * remembers the completion.  Returns the PCI status. */
int nic_ring_writeback(nic_ring *r, nic_desc *d, uint32_t word_mask);
/* Move the device's position on: OWN rings wrap to the base when `wrap`
 * (the descriptor had end-of-ring) and walk on otherwise; sized rings wrap
 * at `size`. */
void nic_ring_advance(nic_ring *r, bool wrap);
/* The device finished descriptor d without writing it back (completion by
 * index, Tigon send ring): publish desc-done with `status` and count it. */
void nic_ring_complete(nic_ring *r, const nic_desc *d, uint32_t status);
/* Like nic_ring_complete, for a device that hands the entry back with a
 * status word outside the descriptor (the IOC3 writes it into the Rx
 * buffer): the word `word` written at `status_addr` is remembered, so the
 * stall check sees whether the host took it back (changed it). */
void nic_ring_complete_at(nic_ring *r, const nic_desc *d, uint64_t status_addr, uint32_t word);
void nic_ring_set_running(nic_ring *r, bool running);
/* Sized rings: entries posted by the host and not yet consumed. */
uint32_t nic_ring_pending(const nic_ring *r);
/* Text view of `count` entries (0 = the whole ring / up to end-of-ring), or
 * of the window ctx asks for; `*` marks the entries that changed since the
 * state ctx's memo keeps (see view_ctx). */
void nic_ring_show(nic_ring *r, unsigned count, view_ctx *ctx, strbuf *out);
int nic_ring_stall(nic_ring *r, ring_state *s);

#endif

/* A ring's state, for the models that embed one (STATE_PART). */
extern const state_table nic_ring_state_decl; /* (nic_ring_state is the stall query) */
