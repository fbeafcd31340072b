/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared parts of the gigabit NIC models (Hamachi, Tigon2, Intel 8254x).
 *
 * A NIC model embeds a `nic` as the FIRST member of its state and declares
 * its registers with a device_class whose priv is that state.  From here it
 * gets:
 *   - the PCI function shell: IDs, class 0x020000, one 64-bit memory BAR,
 *     INTA, BAR accesses dispatched to the register declaration;
 *   - DMA helpers that keep per-word transfers (descriptors, index words,
 *     status) apart from bulk ones (payload), and the payload mode switch
 *     (raw bulk copies, or the old per-word path: see nic_dma_payload);
 *   - the DMA engines (nic_engine: budget, step delay, timer, bus wait) and
 *     line-rate pacing (nic_wire_send);
 *   - the common events (<nic>.tx.desc-fetch ... <nic>.dma.error), each
 *     with decoded fields;
 *   - an interrupt cause/mask unit driving INTA;
 *   - the frame engine (Tx gather, Rx checks, an Rx FIFO, drop accounting);
 *   - statistics, the "ring", "stats", "stall" and "station" views and the
 *     stall query;
 *   - the model factory used by the board (nic_create), from each model's
 *     nic_ops and its table of variants (names and PCI IDs).
 * Rings, coalescing, MAC filtering, link/PHY and the EEPROMs live in
 * nic_ring.h, nic_coalesce.h, nic_mac.h, nic_phy.h, nic_eeprom.h and
 * nic_i2c.h.
 * See docs/architecture.md, section "NIC models".
 */
#ifndef XBOW_NIC_H
#define XBOW_NIC_H

#include "core/dev.h"
#include "core/event.h"
#include "core/ratemeter.h"
#include "core/sched.h"
#include "dev/pci/pci.h"
#include "net/net.h"

typedef struct nic nic;
typedef struct nic_ring nic_ring;

/* Rings as numbered in events, DMA contexts and views (field "ring"). */
enum nic_ring_id {
    NIC_RING_TX,
    NIC_RING_RX,
    NIC_RING_RX_JUMBO,
    NIC_RING_RX_MINI,
    NIC_RING_RX_RETURN,
    NIC_RING_EVENT,
    NIC_RING_CMD,
    NIC_NRING_IDS
};
extern const char *const nic_ring_names[]; /* "tx", "rx", ... NULL */

/* Why a frame was dropped (field "reason" of tx.drop / rx.drop). */
enum nic_drop {
    NIC_DROP_NONE,
    NIC_DROP_NO_BUFFER, /* Rx: no descriptor owned by the device */
    NIC_DROP_FIFO,      /* Rx: the on-chip FIFO overflowed */
    NIC_DROP_FILTERED,  /* Rx: the address filter refused it */
    NIC_DROP_TOO_LONG,  /* longer than the maximum frame size */
    NIC_DROP_TOO_SHORT, /* shorter than an Ethernet header / empty */
    NIC_DROP_DMA,       /* a DMA of the frame or its descriptor failed */
    NIC_DROP_BAD_RING,  /* the ring is misprogrammed (size, base) */
    NIC_DROP_RX_OFF,    /* Rx: the receiver is not enabled */
    NIC_DROP_NO_LINK,   /* Tx: no link (no backend attached) */
    NIC_DROP_RESET,     /* chip reset / channel stopped while the frame was in flight */
    NIC_NDROPS
};
extern const char *const nic_drop_names[];

/* What a DMA is for (pci_dma_context "what" and field "what" of dma.error). */
enum nic_dma_what {
    NIC_DMA_TX_DESC,
    NIC_DMA_RX_DESC,
    NIC_DMA_TX_BUF,
    NIC_DMA_RX_BUF,
    NIC_DMA_RX_STATUS, /* Rx status trailer / return descriptors */
    NIC_DMA_INDEX,     /* producer/consumer shadow words */
    NIC_DMA_STATS,
    NIC_DMA_OTHER,
    NIC_NDMA_WHAT
};
extern const char *const nic_dma_what_names[]; /* "tx-desc", "rx-desc", ... */

/* Address-filter verdicts (field "match" of rx.frame). */
enum nic_match {
    NIC_MATCH_NONE,
    NIC_MATCH_STATION,
    NIC_MATCH_BROADCAST,
    NIC_MATCH_MULTICAST,
    NIC_MATCH_PROMISC
};
extern const char *const nic_match_names[];

/* The common events: a model's device_class has DEV_EVENTS(nic_event_decls),
 * or a table of its own that starts with them (NIC_EVDECL). */
enum nic_event {
    NIC_EV_DOORBELL,      /* reg, value, ring */
    NIC_EV_TX_DESC_FETCH, /* ring, index, addr, own, flags, len, buf */
    NIC_EV_TX_DESC_DONE,  /* ring, index, addr, status, len */
    NIC_EV_RX_DESC_FETCH,
    NIC_EV_RX_DESC_DONE,
    NIC_EV_TX_FRAME,  /* ring, index, len, frags, dst, type */
    NIC_EV_TX_DROP,   /* ring, index, reason, len */
    NIC_EV_RX_FRAME,  /* ring, index, len, bufs, match, dst, type */
    NIC_EV_RX_DROP,   /* ring, index, reason, len */
    NIC_EV_IRQ_RAISE, /* cause, status, line */
    NIC_EV_IRQ_LOWER, /* cause, status, line */
    NIC_EV_DMA_ERROR, /* what, ring, index, addr, len, write, status */
    NIC_EV_COAL_FIRE, /* ring, reason, pending, waited */
    NIC_EV_LINK,      /* up, autoneg */
    NIC_NEVENTS
};
/* One entry of the table of the common events (nic_events.h), whose fields
 * are nic_evf_<f>.  A model with events of its own declares its class's
 * table as {
 *     #include "dev/nic/nic_events.h"
 *     its own entries ...
 * } with its enum continuing at NIC_NEVENTS. */
#define NIC_EVDECL(name, desc, f)                        \
    {                                                    \
        name, desc, nic_evf_##f, ARRAY_SIZE(nic_evf_##f) \
    }
extern const event_decl nic_event_decls[NIC_NEVENTS]; /* just the common ones */
/* Their fields (nic.c). */
extern const event_field nic_evf_doorbell[3], nic_evf_fetch[7], nic_evf_done[5], nic_evf_txframe[6],
    nic_evf_drop[4], nic_evf_rxframe[7], nic_evf_irq[3], nic_evf_dmaerr[7], nic_evf_coal[4],
    nic_evf_link[2];

/* A named bit (interrupt causes, descriptor flags): tables end with name NULL. */
typedef struct nic_bitname {
    uint32_t bit;
    const char *name;
} nic_bitname;
void nic_format_bits(const nic_bitname *names, uint32_t v, strbuf *out);

/* Options from the command line / board. */
typedef struct nic_opts {
    const char *net;      /* backend spec ("sink", "tap:IF" ...); NULL or "" = "sink",
                            "none" = no cable */
    const char *pcap;     /* capture file or NULL */
    bool dma_per_word;    /* --nic-dma=per-word */
    const uint8_t *mac;   /* factory MAC (EEPROM), e.g. from --mac; NULL = nic_default_mac() */
    const char *mac_from; /* the option that gave mac, for messages; NULL = "--mac" */
    unsigned slot;        /* PCI slot, for the default MAC */
    const char *mac_seed; /* the rest of the configuration the default MAC depends on
                             (the guest's command line); NULL = none */
} nic_opts;

struct nic_model;
/* What a model's code provides, shared by all its variants. */
typedef struct nic_ops {
    const char *prefix; /* instance name prefix: "hamachi" gives hamachi0 */
    /* The instance: nic_create allocates `size` bytes (the model's struct,
     * its nic first) with nic_new, PCI revision `revision`, BAR0 the
     * class's register block (reg_space), calls init to set up the model's
     * own parts, then resets the device.  Variants tell themselves apart by
     * n->model (n->model->device). */
    size_t size;
    uint8_t revision;
    void (*init)(nic *n);
    /* Optional: stop what init started beyond the declared timers (those
     * nic_free takes off the clock from the state declaration) and free
     * what it allocated; nic_free then frees the shell.  NULL = nothing. */
    void (*fini)(nic *n);
    /* A frame from the wire (net_port rx callback): true if taken. */
    bool (*rx)(nic *n, const uint8_t *frame, size_t len);
    /* Optional: 802.3x flow control toward the link partner (the shell's
     * nic_fc_update).  The Rx FIFO fill in bytes at which the chip sends
     * XOFF, and the fill it drains to before XON, from its registers now;
     * *high = 0 while it sends no PAUSE.  A pure query.  NULL = the chip
     * has no flow control. */
    void (*fc_levels)(const nic *n, uint32_t *high, uint32_t *low);
    /* Optional: the chip sent XOFF (xoff) or XON: the model's own counters. */
    void (*fc_sent)(nic *n, bool xoff);
    const nic_bitname *causes; /* interrupt cause names (irq events, views) */
    /* Optional: accesses to BARs other than BAR0 (e.g. the 8254x I/O
     * window) by bus initiator `who`; NULL = only BAR0 decodes. */
    int (*bar_access)(nic *n, int who, unsigned bar, uint64_t off, unsigned size, uint64_t *val,
                      bool write);
    /* Optional: true when the chip byte-reverses 32-bit PIO values (Tigon
     * HostCtrl BYTE_SWAP); the shell applies it to every 4-byte BAR access
     * before dispatch and after a read.  NULL = never. */
    bool (*pio_swap)(nic *n);
} nic_ops;

/* A chip variant: one row of a model's table of names and PCI IDs. */
typedef struct nic_model {
    const char *name; /* "hamachi": --nic MODEL */
    const char *desc;
    const device_class *cls;
    uint16_t vendor, device; /* PCI IDs (nic_new) */
    const nic_ops *ops;
    /* A function of a chip on the board (the IOC3's Ethernet), not a PCI
     * card: created with nic_create by the board, never by --nic MODEL,
     * and not in nic_model_list(). */
    bool onboard;
} nic_model;

/* Interrupt cause/mask unit: level = (cause & mask) != 0, on INTA. */
typedef struct nic_irq {
    uint32_t cause;     /* latched causes */
    uint32_t mask;      /* enabled causes */
    uint32_t effective; /* cause & mask at the last update */
    bool line;
    uint64_t raises;      /* line 0 -> 1 transitions */
    uint64_t asserts[32]; /* times each cause bit was newly asserted */
} nic_irq;

#define NIC_PCI_CLOCK_PS 30000 /* 33 MHz, the Bridge's PCI bus [INF] */
#define NIC_PCI_WORD_CLOCKS 5  /* address, turnaround, one data phase, idle [INF] */
#define NIC_PCI_BURST_SETUP 4
#define NIC_MAX_RINGS 8
#define NIC_MAX_COAL 4
#define NIC_FIFO_FRAMES 256
#define NIC_DEFAULT_FIFO (64u * 1024u) /* [INF] on-chip Rx FIFO size */

/* Counters kept for every NIC (the "stats" view). */
typedef struct nic_counters {
    uint64_t tx_frames, tx_bytes, rx_frames, rx_bytes;
    uint64_t rx_bcast, rx_mcast;
    uint64_t tx_drops[NIC_NDROPS], rx_drops[NIC_NDROPS];
    uint64_t desc_fetch, desc_done, doorbells;
    uint64_t dma_word_ops, dma_word_bytes, dma_bulk_ops, dma_bulk_bytes, dma_errors;
    uint64_t fc_xoffs, fc_xons; /* 802.3x: XOFF and XON sent to the link partner */
} nic_counters;

/* Frames waiting between the MAC and the Rx DMA engine. */
typedef struct nic_fifo_ent {
    uint8_t *data;
    uint32_t len;
    int tag; /* the model's note (e.g. the filter verdict) */
} nic_fifo_ent;
typedef struct nic_fifo {
    nic_fifo_ent q[NIC_FIFO_FRAMES];
    unsigned head, count;
    uint32_t bytes, cap; /* bytes queued, capacity in bytes */
} nic_fifo;


/* A model's DMA engine (one per direction): a timer that runs the model's
 * step on the virtual clock.  A step handles at most `budget` descriptors,
 * then continues step_ticks later (nic_engine_yield); before each descriptor
 * it waits for the transmitter (Tx, nic_engine_wire_wait) and for the bus
 * (nic_engine_bus_wait), each of which re-arms the engine and returns true
 * when it must wait. */
typedef struct nic_engine {
    timer t;
    nic *n;
    unsigned budget;     /* descriptors per step (64) */
    uint64_t step_ticks; /* delay before continuing a long walk (1 us) */
} nic_engine;

struct nic {
    pci_func pci; /* the PCI function (pci.opaque = this nic) */
    device *dev;  /* the register declaration instance */
    const nic_model *model;
    sched *clock;
    event_bus *eb;
    net_port *port;        /* NULL = no cable */
    struct nic_link *link; /* the model's link state (nic_phy.h), or NULL */
    /* The parts nic_fini finalizes: those whose _init found them inside
     * the model state (nic_part). */
    size_t state_size; /* of the model state (nic_new) */
    struct nic_coal *coal[NIC_MAX_COAL];
    unsigned ncoal;
    struct nic_eeprom *ee;
    nic_engine tx_eng, rx_eng;  /* the DMA engines (nic_engine_init) */
    enum nic_dma_what dma_what; /* of the current DMA context */
    bool own_port;              /* opened by nic_create: closed by nic_destroy */
    bool dma_per_word;          /* payload moved word by word (the old artifact) */
    /* DMA time on the PCI bus [INF]: a word transfer takes NIC_PCI_WORD_CLOCKS,
     * a burst NIC_PCI_BURST_SETUP + 1 clock per 8 bytes (64-bit bus); the
     * engines wait for dma_free_at before their next descriptor. */
    uint32_t pci_clock_ps;   /* PCI clock period; 0 = DMA takes no time */
    uint64_t dma_free_at;    /* virtual time the NIC's DMA is busy until */
    timer *dma_next;         /* the engine whose turn on the bus is next (nic_dma_wait) */
    timer *dma_last;         /* the engine that had the last turn (only compared) */
    uint64_t dma_busy_ticks; /* total DMA time (stats) */
    /* Line rate (nic_wire_send): the transmitter is busy until wire_free. */
    uint32_t bit_ps; /* wire time per bit in ps (1 Gb/s = 1000) */
    uint64_t wire_free;
    uint8_t mac[6];       /* factory address (EEPROM) */
    bool mac_given;       /* from nic_opts.mac (--mac), not the default */
    const char *mac_from; /* the option that gave it ("--mac") */
    nic_irq irq;
    nic_counters cnt;
    /* Live frame and bit rates (info nic, the TUI's status bar): samples of
     * tx_frames, tx_bytes, rx_frames, rx_bytes (NIC_RATE_*), taken as frames
     * pass; not machine state. */
    rate_meter rate;
    nic_fifo fifo;
    bool fc_xoff; /* 802.3x: XOFF sent (the FIFO reached the high level), no XON yet */
    /* Tx gather buffer. */
    uint8_t *txbuf;
    uint32_t txlen;
    unsigned txfrags;
    int tx_first;     /* first descriptor index of the frame, -1 = none */
    bool tx_overflow; /* the frame outgrew NET_MAX_FRAME: drop at EOP */
    bool tx_pad;      /* pad short frames to 60 bytes (default true) */
    /* The Rx frame in progress (the FIFO head), nic_rx_begin .. nic_rx_end. */
    bool rx_active;
    int rx_first;     /* its first descriptor index */
    unsigned rx_bufs; /* buffers it has filled */
    uint32_t rx_off;  /* bytes of it already stored */
    /* Rings, for the views and the stall query. */
    nic_ring *rings[NIC_MAX_RINGS];
    unsigned nrings;
};

/* The shell's state declaration (nic_state.c): each model's DEV_STATE table
 * embeds it as STATE_PART(model, n, nic_state, ...). */
extern const state_table nic_state;

static inline nic *nic_from_pci(pci_func *f) { return f->opaque; }
/* True if p lies inside the model state of n: a part of the model. */
/* The rate meter's values and window (half a second of guest time). */
enum { NIC_RATE_TX_FRAMES, NIC_RATE_TX_BYTES, NIC_RATE_RX_FRAMES, NIC_RATE_RX_BYTES };
#define NIC_RATE_WINDOW_MS 500
static inline void nic_rate_values(const nic *n, uint64_t v[RATE_NVALS])
{
    v[NIC_RATE_TX_FRAMES] = n->cnt.tx_frames;
    v[NIC_RATE_TX_BYTES] = n->cnt.tx_bytes;
    v[NIC_RATE_RX_FRAMES] = n->cnt.rx_frames;
    v[NIC_RATE_RX_BYTES] = n->cnt.rx_bytes;
}
static inline void nic_rate_tick(nic *n)
{
    if (unlikely(n->clock->now >= n->rate.next)) {
        uint64_t v[RATE_NVALS];
        nic_rate_values(n, v);
        rate_sample_now(&n->rate, n->clock->now, v);
    }
}
static inline bool nic_part(const nic *n, const void *p)
{
    return (const char *)p >= (const char *)n && (const char *)p < (const char *)n + n->state_size;
}
static inline uint64_t nic_now(const nic *n) { return n->clock->now; }
static inline event_src *nic_ev(nic *n, unsigned e) { return dev_event(n->dev, e); }
static inline int nic_initiator(const nic *n) { return n->pci.initiator; }

/* ---- life cycle ------------------------------------------------------- */

/* Stop the engines, finalize the registered parts (coalescers, link,
 * EEPROM), free the FIFO, the Tx buffer and the device instance; nic_free
 * first runs the model's fini and stops every timer its state declares,
 * and last frees the model state. */
void nic_fini(nic *n);
void nic_free(nic *n);
/* Allocate a zeroed model state of m->ops->size bytes that starts with a
 * nic and initialise that shell: the PCI IDs of m and its revision, class
 * Ethernet, BAR0 = 64-bit memory of the class's reg_space bytes, INTA, the
 * device instance (priv = the state), the Tx buffer and the Rx FIFO.  NULL
 * with err set on error (nic_create calls it). */
void *nic_new(const nic_model *m, const char *name, const nic_opts *o, sched *clock, event_bus *eb,
              xerr *err);
/* Connect a frame backend (also done by nic_create from opts->net). */
void nic_attach_port(nic *n, net_port *p);
/* Shared part of a chip reset: discard a half-gathered Tx frame and the
 * FIFO (counted as NIC_DROP_RESET), free the bus (dma_free_at = now),
 * clear causes and lower INTA. */
void nic_reset_common(nic *n);
void nic_add_ring(nic *n, nic_ring *r);
/* By name; "jumbo", "mini" and "return" also find "rx-jumbo" ... */
nic_ring *nic_find_ring(nic *n, const char *name);
/* The nic behind a device, or NULL if the device is not a NIC model. */
nic *nic_of_device(device *d);
void nic_set_dma_per_word(nic *n, bool on);

/* ---- the factory ------------------------------------------------------ */

/* The models' variant tables (hamachi.c, e1000.c, tigon.c, ioc3_eth.c);
 * each ends with a row whose name is NULL. */
extern const nic_model hamachi_models[], e1000_models[], tigon_models[], ioc3_eth_models[];

/* A card model --nic can name (onboard functions excluded). */
const nic_model *nic_model_find(const char *name);
/* Space-separated list of model names, for --help and errors. */
const char *nic_model_list(void);
/* Create the NIC `model` (a card or an onboard function) named `name` (e.g. "hamachi0"), open its backend
 * (o->net; NULL or "" = "sink", "none" = no cable) and pcap file.  Returns
 * its PCI function or NULL with err set.  The board plugs it into the
 * Bridge (src/machine/ip27_nics.c). */
pci_func *nic_create(const char *model, const char *name, const nic_opts *o, sched *clock,
                     event_bus *eb, xerr *err);
/* Free the model and its device (take the device off any list first);
 * close its backend. */
void nic_destroy(pci_func *f);

/* ---- DMA --------------------------------------------------------------- */

/* Name the ring and descriptor the following DMAs are for. */
void nic_dma_ctx(nic *n, int what, int ring, int index);
/* Per-word DMA of little-endian 32-bit values (descriptor fields, index
 * words, status).  On failure publish dma.error and return the PCI status. */
int nic_dma_read32(nic *n, uint64_t addr, uint32_t *v);
int nic_dma_write32(nic *n, uint64_t addr, uint32_t v);
/* Payload.  Raw mode (default): one bulk transfer.  Per-word mode: every
 * 32-bit word crosses as its own PCI_DMA_WORD transfer carrying the word's
 * numeric value, which the NIC converts to and from its byte stream (its
 * own swap, undone by the word path): the bytes are identical, every word
 * is a dispatch.  Unaligned heads and tails go as 1- or 2-byte words. */
int nic_dma_payload_read(nic *n, uint64_t addr, void *buf, uint32_t len);
int nic_dma_payload_write(nic *n, uint64_t addr, const void *buf, uint32_t len);
/* Status bytes (trailers) at any alignment: whole aligned words as 32-bit
 * word DMAs, the rest as 1-byte word DMAs. */
int nic_dma_write_status(nic *n, uint64_t addr, const void *buf, uint32_t len);
/* Side-effect-free read for views (no counters, no events). */
int nic_dma_peek(nic *n, uint64_t addr, void *buf, uint32_t len);
/* If the NIC's DMA is still busy, re-arm t for when it is free and return
 * true.  Every model's DMA engine calls it from its timer step before it
 * starts the next descriptor (Hamachi, Tigon2 and 8254x Tx and Rx, the
 * Tigon2 statistics block), with nothing of that descriptor done yet, so
 * the step simply runs again when the timer fires.  Engines sharing the bus
 * take turns: the first one to find it busy goes next, ahead of the one that
 * has just had it (without this, the engine that just finished would win
 * every tie and starve the other). */
bool nic_dma_wait(nic *n, timer *t);

/* ---- DMA engines and the wire ---------------------------------------------- */

void nic_engine_init(nic_engine *e, nic *n, const char *name, void (*step)(void *), void *opaque);
/* Run the step at now, or at not_before if later, unless it is already due
 * by now. */
void nic_engine_kick(nic_engine *e, uint64_t not_before);
void nic_engine_stop(nic_engine *e);
bool nic_engine_wire_wait(nic_engine *e);
static inline bool nic_engine_bus_wait(nic_engine *e) { return nic_dma_wait(e->n, &e->t); }
void nic_engine_yield(nic_engine *e);
/* A frame of `bytes` (FCS included, after padding) went out: the wire is
 * busy for it plus preamble and inter-frame gap at bit_ps per bit. */
void nic_wire_send(nic *n, uint32_t bytes);

/* ---- interrupts -------------------------------------------------------- */

void nic_irq_assert(nic *n, uint32_t bits);
void nic_irq_deassert(nic *n, uint32_t bits);
void nic_irq_set_mask(nic *n, uint32_t mask);
/* Register read hooks (reg_decl .read) of a model's cause registers:
 * the latched causes, and the read-to-clear form, which returns them and
 * clears them (not on a side-effect-free peek). */
uint64_t nic_read_causes(device *d, const reg_access *a);
uint64_t nic_read_clear_causes(device *d, const reg_access *a);

/* ---- events ------------------------------------------------------------ */

void nic_doorbell(nic *n, unsigned reg_id, uint64_t value, int ring);

/* ---- frame engine ------------------------------------------------------ */

/* Tx: DMA one fragment into the gather buffer (PCI status; 0 = OK). */
int nic_tx_gather(nic *n, uint64_t addr, uint32_t len, int ring, int index);
/* Tx: append bytes the model supplies itself (a header replayed for the
 * next TCP segment): no DMA, counted as one fragment. */
void nic_tx_put(nic *n, const void *p, uint32_t len, int ring, int index);
/* Tx: end of packet: hand the frame to the backend, or count the drop.
 * Returns true if the frame went out. */
bool nic_tx_finish(nic *n, int ring, int index);
/* Tx: abandon the frame being gathered (counted with `reason`). */
void nic_tx_abort(nic *n, int reason, int ring, int index);
static inline bool nic_tx_in_frame(const nic *n) { return n->tx_first >= 0; }
void nic_tx_drop(nic *n, int reason, uint32_t len, int ring, int index);
void nic_rx_drop(nic *n, int reason, uint32_t len, int ring, int index);
/* Rx: start storing the FIFO head at descriptor `index` (no-op if it is
 * already in progress); end it (delivered or dropped). */
static inline void nic_rx_begin(nic *n, int index)
{
    if (n->rx_active)
        return;
    n->rx_active = true;
    n->rx_first = index;
    n->rx_bufs = 0;
    n->rx_off = 0;
}
static inline void nic_rx_end(nic *n) { n->rx_active = false; }
/* Rx: a frame has been delivered to the host. */
void nic_rx_done(nic *n, const uint8_t *frame, uint32_t len, int match, unsigned bufs, int ring,
                 int index);
/* The Rx FIFO.  Push returns false (nothing stored) when it is full. */
bool nic_fifo_push(nic *n, const uint8_t *frame, uint32_t len, int tag);
const uint8_t *nic_fifo_head(const nic *n, uint32_t *len, int *tag);
void nic_fifo_pop(nic *n);
/* Drop everything queued, counting each frame with `reason`. */
void nic_fifo_flush(nic *n, int reason);
/* 802.3x flow control (ops->fc_levels): XOFF when the Rx FIFO reaches the
 * high level, XON when it has drained to the low one.  The FIFO's push and
 * pop call it; a model calls it when a register changes the levels.  The
 * link partner that honours PAUSE is a host backend (net_port_set_ready):
 * it leaves the frames on the host while the NIC is paused. */
void nic_fc_update(nic *n);
/* Whether the partner may send: not while XOFF stands (a pure query). */
bool nic_fc_ready(const nic *n);
/* The levels of a chip whose thresholds are not documented [INF]: XOFF when
 * the FIFO has no room for one more frame of max_frame bytes, XON when it
 * is half empty. */
void nic_fc_default_levels(const nic *n, uint32_t max_frame, uint32_t *high, uint32_t *low);

/* ---- views -------------------------------------------------------------- */

/* "MAC 02:58:42:12:34:56 (default)[, in use ...], net SPEC" without a
 * newline: the factory address and where it came from (--mac or the
 * default), the station address programmed into the NIC if it differs, the
 * backend spec (or "none (no cable)"). */
void nic_describe(const nic *n, strbuf *out);

/* dev_view handlers a model lists in its class: "ring", "stats", "stall",
 * "station" (the line xbow prints for each NIC at start-up). */
void nic_view_ring(device *d, const char *args, view_ctx *ctx, strbuf *out);
void nic_view_stats(device *d, const char *args, view_ctx *ctx, strbuf *out);
/* "rates": the counts and the live rates (info nic); "rates brief": one line
 * for a status bar, "NIC tx G/H rx G/H Mb/s g/h", empty before any frame. */
void nic_view_rates(device *d, const char *args, view_ctx *ctx, strbuf *out);
void nic_view_stall(device *d, const char *args, view_ctx *ctx, strbuf *out);
void nic_view_station(device *d, const char *args, view_ctx *ctx, strbuf *out);
#define NIC_VIEWS                                                                                \
    {"ring", "descriptor ring: ring NIC tx|rx [N] (changed entries since last time: *)",         \
     nic_view_ring},                                                                             \
        {"stats", "frames, drops by reason, DMA word/bulk counts, interrupts", nic_view_stats},  \
        {"rates", "live frame and bit rates in guest and host time (info nic)", nic_view_rates}, \
        {"stall", "per ring: host-posted work while idle, unreclaimed completions",              \
         nic_view_stall},                                                                        \
    {                                                                                            \
        "station", "one line: model, PCI slot, station address (MAC) and backend",               \
            nic_view_station                                                                     \
    }

/* The device class's ring_state hook (core/dev.h) for every NIC model
 * (.ring_state = nic_ring_state): the facts of the "stall" view and of
 * `watch stall NIC` on ring `ring` ("tx", "rx"...).  Returns 0, or -1 if
 * `d` is not a NIC or has no such ring. */
int nic_ring_state(device *d, const char *ring, ring_state *st);

#endif
