/* One declaration per device.
 *
 * A device class describes its registers (name, offset, width, access rules,
 * named bit fields), its events and its decoded views once, statically.  From
 * that declaration come register dispatch (any access width, split over
 * neighbouring registers as a bus would), side-effect-free reads for the
 * debugger, `info device`, register-access events (reg.read / reg.write,
 * the basis of field-level register breakpoints) and name lookup for
 * expressions such as bridge.DEVICE2.SWAP_DIR.
 */
#ifndef XBOW_DEV_H
#define XBOW_DEV_H

#include "core/bus.h"
#include "core/common.h"
#include "core/event.h"
#include "core/sched.h"
#include "core/strbuf.h"

enum reg_flags {
    R_RO = 1u << 0,     /* writes are ignored */
    R_WO = 1u << 1,     /* reads return 0 */
    R_RC = 1u << 2,     /* a (non-peek) read clears the value after returning it */
    R_W1C = 1u << 3,    /* writing 1 to a bit clears it */
    R_W1S = 1u << 4,    /* writing 1 to a bit sets it, 0 leaves it */
    R_FULL = 1u << 5,   /* only full-width accesses are valid; others are dropped
                           and reported as reg.bad-width */
    R_NOSTORE = 1u << 6, /* no stored value: the read hook computes it */
    /* For idle skip (a CPU spinning on a register may wait instead): */
    R_PURE = 1u << 7,   /* the read hook has no side effects (registers without one
                           and not R_RC never have) */
    R_TIME = 1u << 8    /* the value changes with virtual time by itself; the
                           class's next_change says when */
};

typedef struct reg_field {
    const char *name;
    uint8_t lsb, width;
    const char *const *values; /* optional names of the field's values, NULL-terminated */
} reg_field;

typedef struct device device;
typedef struct reg_decl reg_decl;

/* One register element in the dispatch table. */
struct reg_extent {
    uint32_t start, end; /* byte offsets [start, end) */
    uint16_t id, idx;
};

/* Read hook: returns the value of element idx.  With peek set it must have no
 * side effects (the debugger is looking). */
typedef uint64_t (*reg_read_fn)(device *d, const reg_decl *r, unsigned idx, bool peek);
/* Write hook: called after the framework stored the new value (rules and
 * wmask applied); `old` is the value before. */
typedef void (*reg_write_fn)(device *d, const reg_decl *r, unsigned idx, uint64_t val,
                             uint64_t old);

struct reg_decl {
    const char *name;
    uint32_t offset;
    uint8_t width;    /* bytes: 1, 2, 4 or 8 */
    uint16_t count;   /* > 1 for register arrays: NAME0, NAME1, ... */
    uint32_t stride;  /* bytes between array elements */
    uint32_t flags;   /* enum reg_flags */
    uint64_t reset;
    uint64_t wmask;   /* writable bits; 0 means every bit */
    const reg_field *fields; /* terminated by a field with name NULL */
    const char *desc;
    reg_read_fn read;
    reg_write_fn write;
};

/* A decoded view of a device ("ring tx", "windows"); writes text. */
typedef struct dev_view {
    const char *name;
    const char *desc;
    void (*show)(device *d, const char *args, strbuf *out);
} dev_view;

/* A descriptor ring's state, for the debugger's stall detector (watch
 * stall): is host-posted work waiting while the engine idles, and how old
 * are the completions the host has not taken back?  (The NIC models' stall
 * query, nic_stall_info, carries the same facts.) */
typedef struct ring_state {
    bool posted;                /* the ring holds host-posted work for the device */
    bool idle;                  /* the device's engine for the ring is idle */
    uint64_t idle_ticks;        /* for how long (virtual time) */
    unsigned unreclaimed;       /* completed descriptors the host has not taken back */
    uint64_t unreclaimed_ticks; /* age of the oldest of them */
    int oldest_index;           /* its index, -1 if none */
} ring_state;

typedef struct device_class {
    const char *name; /* "hamachi" */
    const char *desc;
    const reg_decl *regs;
    unsigned nregs;
    uint32_t reg_space;   /* size of the register block */
    bool little_endian;   /* byte lanes of partial accesses (PCI devices: true) */
    const event_decl *events;
    unsigned nevents;
    const dev_view *views;
    unsigned nviews;
    void (*reset)(device *d);
    /* Access to offsets no register covers (memories, windows); NULL = none. */
    int (*other_read)(device *d, const bus_op *op, uint64_t off, unsigned size, uint64_t *val);
    int (*other_write)(device *d, const bus_op *op, uint64_t off, unsigned size, uint64_t val);
    /* Optional: the state of descriptor ring `ring` ("tx", "rx", ...) read
     * without side effects; returns 0, or -1 when there is no such ring. */
    int (*ring_state)(device *d, const char *ring, ring_state *st);
    /* For R_TIME registers: the virtual time at which the value of element
     * idx of register id next changes by itself. */
    uint64_t (*next_change)(device *d, unsigned id, unsigned idx);
} device_class;

/* Built-in events every device has, in front of its declared ones. */
enum { DEV_EV_REG_READ, DEV_EV_REG_WRITE, DEV_EV_BAD_ACCESS, DEV_NBUILTIN_EVENTS };

struct device {
    char name[24];
    const device_class *cls;
    void *priv;          /* the model's own state */
    uint64_t *rv;        /* stored register values */
    uint32_t *slot;      /* index of each declared register's first value in rv */
    uint32_t nvals;
    struct reg_extent *ext; /* every register element, sorted by offset */
    uint32_t n_ext;      /* number of entries in ext */
    event_src **ev;      /* DEV_NBUILTIN_EVENTS built-ins, then the declared ones */
    sched *clock;
    event_bus *events;
    int initiator;       /* bus initiator id when the device does DMA, else -1 */
    device *next;
};

/* Create an instance; registers events "<name>.<event>" on the bus. */
device *device_new(const device_class *cls, const char *name, void *priv, event_bus *eb,
                   sched *clock);
void device_free(device *d);
/* Load reset values, then call the class's reset hook. */
void device_reset(device *d);

/* Register access from a bus master.  `val` is in the device's own byte
 * order for `size` bytes (little-endian lanes for PCI devices).  Accesses that
 * straddle registers are split; bytes no register covers read as 0 (or go to
 * other_read/other_write).  Returns BUS_OK, or BUS_ERROR when nothing decodes. */
int dev_read(device *d, const bus_op *op, uint64_t off, unsigned size, uint64_t *val);
int dev_write(device *d, const bus_op *op, uint64_t off, unsigned size, uint64_t val);
/* mmio_ops for a big-endian device mapped straight onto the bus. */
extern const mmio_ops dev_mmio_be;

/* Stored value of register `id` element `idx` (for the model's own code). */
static inline uint64_t *dev_rv(device *d, unsigned id, unsigned idx)
{
    return &d->rv[d->slot[id] + idx];
}
#define DEV_R(d, id) (*dev_rv((d), (id), 0))

/* What register reads did, for a CPU that watches its own load to decide
 * whether it may wait on the value instead of reading it again (idle skip,
 * src/cpu/idle.c).  While a note is given to dev_note_reads(), every
 * register element read (by anyone: the note is meant to cover one load)
 * is recorded. */
#define DEV_NOTE_MAX 4
typedef struct dev_read_note {
    unsigned n;            /* register elements read (more than DEV_NOTE_MAX: impure) */
    bool impure;           /* a read had, or may have had, a side effect */
    struct {
        device *dev;
        uint16_t id, idx;
        uint64_t peek;     /* dev_peek() right after the read */
        uint64_t changes;  /* dev_next_change() then */
    } reg[DEV_NOTE_MAX];
} dev_read_note;
void dev_note_reads(dev_read_note *n); /* NULL: stop noting */
/* When a register element's value next changes by itself (R_TIME), or
 * UINT64_MAX: it changes only when the device does something. */
uint64_t dev_next_change(device *d, unsigned id, unsigned idx);

/* Side-effect-free value of a register element (the debugger's view). */
uint64_t dev_peek(device *d, unsigned id, unsigned idx);
/* Look up "DEVICE2", "DEVICE(2)" or "TxStatus"; returns 0 and fills id/idx. */
int dev_reg_lookup(const device *d, const char *name, unsigned *id, unsigned *idx);
const reg_field *dev_field_lookup(const reg_decl *r, const char *name);
void dev_reg_name(const device *d, unsigned id, unsigned idx, char *buf, size_t len);
/* Decode a value field by field: "SWAP_DIR=1 DEV_OFF=0x34". */
void dev_format_fields(const reg_decl *r, uint64_t v, strbuf *out);
/* Every register with its decoded fields (info device NAME). */
void dev_show(device *d, strbuf *out);
const dev_view *dev_view_find(const device *d, const char *name);
/* Declared event source by declaration index (not counting built-ins). */
static inline event_src *dev_event(device *d, unsigned i) { return d->ev[DEV_NBUILTIN_EVENTS + i]; }

#endif
