/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The physical-access layer: one address map and one access API for every
 * initiator (a CPU or a device doing DMA).
 *
 * A bus address is the 40-bit system physical address the R10000 puts on its
 * SysAD bus plus the attribute bits it sends with it: bit 42 says "uncached",
 * bits 41:40 carry the uncached attribute (XKPHYS address bits 58:57).  The
 * IP27 HUB uses the attribute to select its address spaces (CAC, HSPEC, IO,
 * MSPEC, UNCAC); the machine maps regions accordingly.  Device DMA arrives at
 * the HUB as cached (coherent) accesses, attribute 0.
 *
 * RAM is reached through host pointers (ram_block); a block has one flag byte
 * per 4 KB page (watchpoints, decoded code, write tracking) so that a debug
 * feature costs nothing on pages that have none.
 */
#ifndef XBOW_BUS_H
#define XBOW_BUS_H

#include "core/common.h"

#define BUS_ATTR_SHIFT 40
#define BUS_PA_MASK ((1ull << BUS_ATTR_SHIFT) - 1)
#define BUS_UNCACHED (4ull << BUS_ATTR_SHIFT)
/* Bus address of a cached access, or of an uncached access with attribute. */
#define BUS_CAC(pa) ((uint64_t)(pa))
#define BUS_UNC(attr, pa) (BUS_UNCACHED | ((uint64_t)(attr) << BUS_ATTR_SHIFT) | (pa))

enum {
    SPACE_CAC = 0,   /* cached, coherent memory */
    SPACE_HSPEC = 4, /* uncached attr 0: UALIAS, LBOOT (PROM) ... */
    SPACE_IO = 5,    /* uncached attr 1: HUB registers, XIO windows */
    SPACE_MSPEC = 6, /* uncached attr 2: fetch-op memory */
    SPACE_UNCAC = 7, /* uncached attr 3: uncached memory */
};
static inline unsigned bus_space(uint64_t a) { return (unsigned)(a >> BUS_ATTR_SHIFT) & 7; }

enum bus_status { BUS_OK = 0, BUS_ERROR = 1 };

/* Page flags kept per 4 KB RAM page. */
#define RAM_PAGE_SHIFT 12
#define RAM_PAGE_SIZE (1u << RAM_PAGE_SHIFT)
enum {
    PF_WATCH_R = 1, /* a CPU read watchpoint covers part of the page */
    PF_WATCH_W = 2, /* a CPU write watchpoint covers part of the page */
    PF_CODE = 4,    /* a CPU holds decoded instructions for the page */
    PF_TRACK = 8,   /* record who writes the page (info lastwrite) */
    PF_CLEAN = 16,  /* not written since the last ram_clean_all (dirty-page
                       tracking of the history's snapshots): the first write
                       takes the slow path, which clears it */
};

struct bus;

/* How an access got to the bus.  CPUs leave `path` NULL; the Bridge's DMA
 * port fills it so watchpoints and counters can say which window was used. */
typedef struct dma_path {
    const char *window; /* "dir32", "ate", "pci64", ... */
    int ate;            /* ATE index, or -1 */
    int swap;           /* 1 when the Bridge byte-swapped the data */
    uint64_t pci_addr;  /* the address the device put on PCI */
    /* What the device said the DMA is for (its pci_dma_ctx, copied by the
     * host bridge): valid when `what` is not NULL; ring/index -1 = none. */
    const char *what; /* "tx-desc", "rx-buf", "stats" ... */
    int ring, index;
} dma_path;

enum bus_kind { BUS_WORD = 0, BUS_BULK = 1 };

typedef struct bus_op {
    uint64_t addr;      /* bus address of the first byte */
    uint32_t size;      /* bytes */
    uint8_t write;      /* 1 = write */
    uint8_t kind;       /* BUS_WORD or BUS_BULK */
    uint16_t initiator; /* see initiator_register() */
    const dma_path *path;
} bus_op;

/* MMIO handlers receive the offset inside their region.  Values are
 * big-endian interpretations: for a 4-byte access the byte at the lowest
 * address is bits 31:24.  Return BUS_OK or BUS_ERROR (nothing answers). */
typedef struct mmio_ops {
    int (*read)(void *opaque, const bus_op *op, uint64_t off, uint64_t *val);
    int (*write)(void *opaque, const bus_op *op, uint64_t off, uint64_t val);
} mmio_ops;

typedef struct ram_block {
    const char *name;
    uint8_t *host;
    uint64_t size;
    uint8_t *page_flags; /* one byte per page */
} ram_block;

typedef struct bus_region {
    uint64_t base, size; /* bus address range */
    const char *name;
    ram_block *ram; /* RAM or ROM: host bytes at ram->host + ram_off */
    uint64_t ram_off;
    bool readonly;
    const mmio_ops *ops; /* MMIO when ram == NULL */
    void *opaque;
} bus_region;

enum initiator_kind { INIT_CPU, INIT_DEVICE, INIT_DEBUGGER };

typedef struct initiator {
    char name[24];
    enum initiator_kind kind;
    int cpu; /* CPU index for INIT_CPU, else -1 */
} initiator;

#define BUS_MAX_INITIATORS 64

/* Hook for accesses to flagged RAM pages and for device accesses when armed
 * (DMA watchpoints, write tracking).  Called after the access happened.
 * Several subscribers share it through bus_hook_add(). */
typedef void (*bus_hook_fn)(void *ctx, const bus_op *op);
#define BUS_MAX_HOOKS 8
/* Called when a write hits a page with PF_CODE (decoded instructions). */
typedef void (*bus_code_fn)(void *ctx, ram_block *rb, uint64_t page);

/* LL/SC link watcher.  A CPU's LL registers the coherence line (128 bytes,
 * the R10000 secondary line, physical address without the attribute bits)
 * it linked; any write by ANOTHER initiator that touches the line (device
 * DMA, another CPU's store, slow or fast path) clears that link, and SC only
 * succeeds while the link is still set.  `nlinks` counts the set links so a
 * store costs one test when no LL is pending anywhere. */
#define BUS_LINK_SHIFT 7
#define BUS_MAX_LINKS 8
typedef struct bus_link {
    uint64_t line; /* (pa & BUS_PA_MASK) >> BUS_LINK_SHIFT */
    int owner;     /* initiator id + 1; 0 when free (a zeroed bus has none) */
} bus_link;

typedef struct bus {
    bus_region *regions; /* sorted by base */
    unsigned nregions, cap;
    const bus_region *last;
    initiator initiators[BUS_MAX_INITIATORS];
    unsigned ninitiators;
    ram_block *rams[8];
    unsigned nrams;
    bool hooks_armed; /* a hook wants every device access */
    bus_hook_fn hook; /* set by bus_hook_add(): calls every subscriber */
    void *hook_ctx;
    struct {
        bus_hook_fn fn;
        void *ctx;
        bool devices; /* wants every device access (sets hooks_armed) */
    } hooks[BUS_MAX_HOOKS];
    bus_code_fn code_written;
    void *code_ctx;
    void (*flags_changed)(void *ctx); /* CPUs drop cached translations */
    void *flags_ctx;
    void (*drop_writes)(void *ctx); /* CPUs drop their fast write entries only
                                       (ram_clean_all: nothing else changes,
                                       so the run is the same); flags_ctx */
    uint64_t flags_gen;             /* bumped on every page-flag change flags_changed reports:
                             CPUs compare it between run turns, so they stay
                             correct even if flags_changed is taken over */
    bus_link links[BUS_MAX_LINKS];
    unsigned nlinks; /* links set */
    /* With one host thread per CPU (the machine's --threads): called around
     * every device register access (enter, then leave), so that device
     * models run under the machine's lock; NULL otherwise. */
    void (*dev_lock)(void *ctx, const bus_op *op, bool enter);
    void *dev_lock_ctx;
} bus;

void bus_init(bus *b);
void bus_free(bus *b);

int initiator_register(bus *b, const char *name, int kind, int cpu);
const initiator *initiator_get(const bus *b, int id);
int initiator_find(const bus *b, const char *name);

ram_block *ram_block_new(bus *b, const char *name, uint64_t size);
/* Map [base, base+size) onto RAM (at offset ram_off in the block), or MMIO. */
int bus_map_ram(bus *b, const char *name, uint64_t base, uint64_t size, ram_block *rb,
                uint64_t ram_off, bool readonly);
int bus_map_mmio(bus *b, const char *name, uint64_t base, uint64_t size, const mmio_ops *ops,
                 void *opaque);
const bus_region *bus_find(bus *b, uint64_t addr);

/* One word access (size 1, 2, 4 or 8, naturally aligned or not: RAM allows
 * any alignment, MMIO regions see what they get). */
int bus_read(bus *b, int who, uint64_t addr, unsigned size, uint64_t *val);
int bus_write(bus *b, int who, uint64_t addr, unsigned size, uint64_t val);
/* The same with the full op (kind, path) supplied by the caller. */
int bus_access(bus *b, bus_op *op, uint64_t *val);
/* Block copies; on error *done (if given) says how many bytes went through. */
int bus_read_block(bus *b, bus_op *op, void *buf, uint64_t *done);
int bus_write_block(bus *b, bus_op *op, const void *buf, uint64_t *done);

/* Side-effect-free read for the debugger: RAM only (MMIO reads return
 * BUS_ERROR unless `peek_mmio` and the region is RAM-like). */
int bus_peek(bus *b, uint64_t addr, void *buf, uint64_t len);
int bus_poke(bus *b, uint64_t addr, const void *buf, uint64_t len);

/* Host pointer to RAM at addr (NULL if not RAM).  Fills in (when not NULL)
 * the block, the offset in it, and how many bytes remain to the end of the
 * region. */
uint8_t *bus_ram_ptr(bus *b, uint64_t addr, ram_block **rb, uint64_t *rb_off, uint64_t *limit);

void ram_page_flags_set(bus *b, ram_block *rb, uint64_t off, uint64_t len, uint8_t flags);
void ram_page_flags_clear(bus *b, ram_block *rb, uint64_t off, uint64_t len, uint8_t flags);
static inline uint8_t ram_page_flags(const ram_block *rb, uint64_t off)
{
    return rb->page_flags[off >> RAM_PAGE_SHIFT];
}

/* Dirty-page tracking (PF_CLEAN).  ram_clean_all marks every RAM page clean
 * and drops the CPUs' fast write entries, so the first store to a page
 * after it goes through a slow path; every write to RAM (the CPUs' slow
 * paths, bus_access and the block copies of DMA, bus_poke, a reset, a
 * snapshot load) calls ram_mark_dirty, which costs nothing more than the
 * flag test those paths already make.  Clearing PF_CLEAN needs no flush
 * (it only allows fast entries).  ram_clean_off stops the tracking. */
void ram_clean_all(bus *b);
void ram_clean_off(bus *b);
static inline void ram_mark_dirty(ram_block *rb, uint64_t off, uint64_t len)
{
    if (len == 0 || off >= rb->size)
        return;
    uint64_t last = (off + len - 1) >> RAM_PAGE_SHIFT, n = rb->size >> RAM_PAGE_SHIFT;
    for (uint64_t pg = off >> RAM_PAGE_SHIFT; pg <= last && pg < n; pg++)
        rb->page_flags[pg] &= (uint8_t)~PF_CLEAN;
}
/* Is the page at off clean (unchanged since ram_clean_all)? */
static inline bool ram_page_clean(const ram_block *rb, uint64_t off)
{
    return (rb->page_flags[off >> RAM_PAGE_SHIFT] & PF_CLEAN) != 0;
}

/* Subscribe to accesses of flagged RAM pages (PF_WATCH_R/W, PF_TRACK), and
 * to every device access when `devices` is set.  A subscriber sees what
 * the others asked for too, and filters.  Returns an id >= 0, or -1 when
 * all BUS_MAX_HOOKS slots are taken. */
int bus_hook_add(bus *b, bus_hook_fn fn, void *ctx, bool devices);
void bus_hook_remove(bus *b, int id);
void bus_hook_set_devices(bus *b, int id, bool devices);

/* LL/SC support (see bus_link).  bus_link_set() replaces the initiator's
 * previous link; bus_link_valid() says whether it still holds;
 * bus_link_clear() drops it; bus_link_store() is called for every write and
 * clears the links of other initiators on the written lines (bus_access and
 * the block copies call it; a CPU's RAM fast path calls it when nlinks). */
void bus_link_set(bus *b, int who, uint64_t addr);
bool bus_link_valid(const bus *b, int who, uint64_t addr);
void bus_link_clear(bus *b, int who);
void bus_link_store_slow(bus *b, int who, uint64_t addr, uint64_t size);
static inline void bus_link_store(bus *b, int who, uint64_t addr, uint64_t size)
{
    if (unlikely(b->nlinks))
        bus_link_store_slow(b, who, addr, size);
}

/* Format a bus address for humans: "io:0x01600000", "cac:0x1c000". */
const char *bus_addr_str(uint64_t addr, char *buf, size_t len);

#endif
