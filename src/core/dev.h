/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One declaration per device.
 *
 * A device class describes its registers (name, offset, width, access rules,
 * reset value, writable bits, named bit fields, hooks), its events and its
 * decoded views once, statically (docs/architecture.md, "Device
 * declarations").  From that declaration come register dispatch (any access
 * width, split over neighbouring registers as a bus would), side-effect-free
 * reads for the debugger, `info device`, register-access events (reg.read /
 * reg.write, the basis of field-level register breakpoints) and name lookup
 * for expressions such as bridge.DEVICE2.SWAP_DIR.
 */
#ifndef XBOW_DEV_H
#define XBOW_DEV_H

#include "core/bus.h"
#include "core/common.h"
#include "core/event.h"
#include "core/sched.h"
#include "core/strbuf.h"

/* Access rules of a register (reg_decl.rules, OR-ed together). */
enum reg_rule {
    R_RO = 1u << 0,      /* writes are ignored (the write hook is not called) */
    R_WO = 1u << 1,      /* reads return 0 */
    R_RC = 1u << 2,      /* a bus read (not a peek) clears the stored value after returning it */
    R_W1C = 1u << 3,     /* writing 1 to a bit clears it */
    R_W1S = 1u << 4,     /* writing 1 to a bit sets it, 0 leaves it */
    R_FULL = 1u << 5,    /* only whole-register accesses; others are dropped and
                           reported as reg.bad-access */
    R_NOSTORE = 1u << 6, /* no stored value: the read hook computes it */
    /* For idle skip (a CPU spinning on a register may wait instead): */
    R_PURE = 1u << 7, /* the read hook has no side effects (registers without one
                           and not R_RC never have) */
    R_TIME = 1u << 8  /* the value changes with virtual time by itself; the
                           class's next_change says when */
};

/* A named bit field of a register. */
typedef struct reg_field {
    const char *name;
    uint8_t lsb, width;
    const char *const *values; /* optional names of the field's values, NULL-terminated */
} reg_field;

typedef struct device device;

/* One access to a register element, as the register's hooks see it. */
typedef struct reg_access {
    unsigned id;     /* the register: its index in the class's table (the model's enum) */
    unsigned idx;    /* the element of a register array, else 0 */
    uint32_t offset; /* byte offset of the element in the register block */
    int who;         /* initiator (bus master) of the access: the bus op's; for the
                         model's own accesses (no op) the device's; -1 for a peek */
    bool peek;       /* read: the debugger is looking, the hook must have no side effects */
    uint64_t val;    /* write: the value written (bytes the access did not cover keep
                         their old value; rules and wmask not applied) */
    uint64_t old;    /* write: the register's value before the write */
} reg_access;

/* Read hook: the value of the element (masked to the register's width). */
typedef uint64_t (*reg_read_fn)(device *d, const reg_access *a);
/* Write hook: called after the framework stored the new value (rules and
 * wmask applied); not called for R_RO registers. */
typedef void (*reg_write_fn)(device *d, const reg_access *a);

/* One register, or an array of alike registers NAME0, NAME1, ...  A class's
 * table is indexed by the model's register enum and written with designated
 * initializers, one register a row:
 *
 *   [HR_TX_CMD] = {.name = "TxCmd", .offset = 0x04, .width = 2, REG_FIELDS(f_cmd),
 *                  .write = w_cmd, .desc = "Tx command: 1 start, 2 stop"},
 *
 * Members left out are 0: stored, readable and writable, reset to 0, every
 * bit writable, no fields, no hooks. */
typedef struct reg_decl {
    const char *name;
    uint32_t offset;         /* byte offset (of element 0) in the register block */
    uint8_t width;           /* bytes: 1, 2, 4 or 8 */
    uint16_t count;          /* register arrays: the number of elements (0 or 1: one) */
    uint32_t stride;         /* register arrays: bytes from one element to the next */
    uint32_t rules;          /* R_* (enum reg_rule) */
    uint64_t reset;          /* value after device_reset() */
    uint64_t wmask;          /* writable bits; 0: every bit */
    const reg_field *fields; /* named bit fields, nfields of them (REG_FIELDS) */
    uint8_t nfields;
    const char *desc;   /* one line for `info device` */
    reg_read_fn read;   /* computes the value (R_NOSTORE) or acts on a read */
    reg_write_fn write; /* acts on a write */
} reg_decl;

/* A register's fields in its reg_decl: .fields and .nfields from one array. */
#define REG_FIELDS(f) .fields = (f), .nfields = ARRAY_SIZE(f)

/* A class's tables in its device_class, each with its count. */
#define DEV_REGS(t) .regs = (t), .nregs = ARRAY_SIZE(t)
#define DEV_EVENTS(t) .events = (t), .nevents = ARRAY_SIZE(t)
#define DEV_VIEWS(t) .views = (t), .nviews = ARRAY_SIZE(t)
#define DEV_COUNTERS(t) .counters = (t), .ncounters = ARRAY_SIZE(t)
/* The state of the model's struct T (what d->priv points to), table t. */
#define DEV_STATE(t, T) .state = STATE_TABLE(t, T)
/* A register table indexed by an enum whose last member `n` counts the
 * registers must declare each of them: the last one at least is checked
 * here, a hole (a register left out) when device_new() builds the class. */
#define DEV_REGS_CHECK(t, n) \
    _Static_assert(ARRAY_SIZE(t) == (n), #t " must declare every register id up to " #n)

/* ---- state ------------------------------------------------------------------
 *
 * Everything of a device that a snapshot must hold is declared: the stored
 * register values (always, from the register table) and the fields of the
 * model's own struct (d->priv) in a table of state_decl, one field a row,
 * beside the registers (DEV_STATE).  From that table alone come
 * dev_state_save/load (a byte image that names the class and every field,
 * so a reader can check it), dev_state_hash, `info state NAME`, and
 * dev_state_diff, with which tests prove that nothing was left out. */
enum state_kind {
    ST_INT = 1, /* unsigned integers (counters, indices, enums) of .size bytes, .count of them */
    ST_BOOL,    /* bool flags (.count of them); a load accepts only 0 and 1 */
    ST_LINE,    /* an output line's level (bool) as the device last drove it: restored
                   as it was, not re-driven (the receiver's state is restored too) */
    ST_BYTES,   /* a byte buffer (memory, FIFO storage) of .size bytes */
    ST_BUFFER,  /* a pointer to a buffer the model owns (allocated by its constructor),
                   as many bytes as the integer field at .len_offset says: the contents
                   are state, the pointer and the length are not */
    ST_TIMER,   /* timers armed on d->clock (.count of them): pending, due time and
                   arming order; the callback and its argument come from the constructor */
    ST_PART,    /* an embedded part with its own state table (.part), .count of them */
    ST_WIRING,  /* not state: pointers and configuration the constructor sets up; .desc
                   says what a restore relies on instead.  Neither saved nor compared */
    ST_CUSTOM,  /* a field the rows above cannot express (a queue of allocated frames, a
                   pointer to one of the struct's own timers): .ops encodes, checks and
                   loads it; its image has a variable length */
};

typedef struct state_table state_table;

/* ST_CUSTOM: `base` is the struct the row's table describes (the field is at
 * base + offset).  save appends the field's image; check says whether an
 * image of len bytes can be loaded (else it sets err and returns -1; nothing
 * is stored yet); load stores a checked image. */
typedef struct state_ops {
    void (*save)(const void *base, strbuf *out);
    int (*check)(const void *base, const uint8_t *img, size_t len, xerr *err);
    void (*load)(void *base, const uint8_t *img, size_t len);
} state_ops;

typedef struct state_decl {
    const char *name;
    uint32_t offset; /* in the model's struct (or the part's) */
    uint32_t size;   /* bytes of one element */
    uint32_t count;  /* elements; 0 or 1: one */
    enum state_kind kind;
    const state_table *part; /* ST_PART: the part's declaration */
    uint32_t len_offset;     /* ST_BUFFER: the field holding the length in bytes... */
    uint8_t len_size;        /* ...and its size */
    const state_ops *ops;    /* ST_CUSTOM */
    const char *desc;
} state_decl;

/* A struct's state declaration: the device_class's .state (DEV_STATE), or a
 * part embedded in several models (an ow_mcr, a pci_func): STATE_TABLE. */
struct state_table {
    const state_decl *decls;
    unsigned n;
    uint32_t size; /* sizeof the struct: dev_state_diff checks every byte of it */
};

#define STATE_MEMBER_(T, m) .name = #m, .offset = offsetof(T, m)
#define STATE_ELEM_(T, m) sizeof(((T *)0)->m[0])
/* A whole member of kind k; a member of one-byte flags or lines of kind k
 * counted over all its dimensions. */
#define STATE_FIELD_(T, m, k, d)                                               \
    {                                                                          \
        STATE_MEMBER_(T, m), .size = sizeof(((T *)0)->m), .kind = k, .desc = d \
    }
#define STATE_FLAGS_(T, m, k, d)                                                           \
    {                                                                                      \
        STATE_MEMBER_(T, m), .size = 1, .count = sizeof(((T *)0)->m), .kind = k, .desc = d \
    }
/* One field of struct T, by kind (d: its one line of description). */
#define STATE_INT(T, m, d) STATE_FIELD_(T, m, ST_INT, d)
#define STATE_BOOL(T, m, d) STATE_FIELD_(T, m, ST_BOOL, d)
#define STATE_LINE(T, m, d) STATE_FIELD_(T, m, ST_LINE, d)
#define STATE_BYTES(T, m, d) STATE_FIELD_(T, m, ST_BYTES, d)
#define STATE_TIMER(T, m, d)                                                    \
    {                                                                           \
        STATE_MEMBER_(T, m), .size = sizeof(timer), .kind = ST_TIMER, .desc = d \
    }
#define STATE_PART(T, m, tbl, d)                                                           \
    {                                                                                      \
        STATE_MEMBER_(T, m), .size = sizeof(((T *)0)->m), .kind = ST_PART, .part = &(tbl), \
                             .desc = d                                                     \
    }
#define STATE_BUFFER(T, m, len, d)                                                              \
    {                                                                                           \
        STATE_MEMBER_(T, m), .size = sizeof(((T *)0)->m), .kind = ST_BUFFER,                    \
                             .len_offset = offsetof(T, len), .len_size = sizeof(((T *)0)->len), \
                             .desc = d                                                          \
    }
#define STATE_WIRING(T, m, d) STATE_FIELD_(T, m, ST_WIRING, d)
/* Arrays.  STATE_INTS: one dimension (the element is an integer); flags,
 * lines: any dimension (counted over the whole member). */
#define STATE_INTS(T, m, d)                                                                    \
    {                                                                                          \
        STATE_MEMBER_(T, m), .size = sizeof(((T *)0)->m[0]),                                   \
                             .count = sizeof(((T *)0)->m) / STATE_ELEM_(T, m), .kind = ST_INT, \
                             .desc = d                                                         \
    }
#define STATE_BOOLS(T, m, d) STATE_FLAGS_(T, m, ST_BOOL, d)
#define STATE_LINES(T, m, d) STATE_FLAGS_(T, m, ST_LINE, d)
#define STATE_TIMERS(T, m, d)                                                         \
    {                                                                                 \
        STATE_MEMBER_(T, m), .size = sizeof(timer), .count = ARRAY_SIZE(((T *)0)->m), \
                             .kind = ST_TIMER, .desc = d                              \
    }
#define STATE_PARTS(T, m, tbl, d)                                                         \
    {                                                                                     \
        STATE_MEMBER_(T, m), .size = STATE_ELEM_(T, m), .count = ARRAY_SIZE(((T *)0)->m), \
                             .kind = ST_PART, .part = &(tbl), .desc = d                   \
    }
/* A struct of 64-bit counters (statistics), or an array of them, as integers. */
/* A field with its own encoding (ST_CUSTOM): ops is a state_ops. */
#define STATE_CUSTOM(T, m, o, d)                                                          \
    {                                                                                     \
        STATE_MEMBER_(T, m), .size = sizeof(((T *)0)->m), .kind = ST_CUSTOM, .ops = &(o), \
                             .desc = d                                                    \
    }
#define STATE_U64S(T, m, d)                                                               \
    {                                                                                     \
        STATE_MEMBER_(T, m), .size = 8, .count = sizeof(((T *)0)->m) / 8, .kind = ST_INT, \
                             .desc = d                                                    \
    }

#define STATE_TABLE(t, T)                                   \
    {                                                       \
        .decls = (t), .n = ARRAY_SIZE(t), .size = sizeof(T) \
    }

/* One register element in the dispatch table. */
struct reg_extent {
    uint32_t start, end; /* byte offsets [start, end) */
    uint16_t id, idx;
};

typedef struct dev_view dev_view;

/* What one viewer (the `ring` command, a TUI pane) remembers of the views
 * it showed, so that a view can mark what changed since: per device and
 * key, the data the view kept (a ring keeps its descriptor words).  Each
 * viewer owns its memo; viewers never share marks. */
typedef struct view_note view_note;
typedef struct view_memo {
    view_note *notes;
} view_memo;

/* How a viewer asks for a view.  NULL: a one-off view from its start,
 * nothing marked and nothing remembered. */
typedef struct view_ctx {
    view_memo *memo; /* the viewer's memory (NULL: nothing marked) */
    bool update;     /* remember the state seen now as the reference for
                          the marks (else only a first view does) */
    /* The viewer's window on a long view (a descriptor ring's entries): */
    unsigned rows;  /* entries to list at most; 0: as the arguments say */
    unsigned cols;  /* the viewer's width (tables pick their columns); 0: any */
    bool follow;    /* the window starts just before the device's position... */
    int first;      /* ...or at this entry; out: the first entry listed */
    unsigned total; /* out: entries there are to list */
    bool brief;     /* leave out the legend and column headings */
} view_ctx;

/* A decoded view of a device ("ring tx", "windows"); writes text. */
struct dev_view {
    const char *name;
    const char *desc;
    void (*show)(device *d, const char *args, view_ctx *ctx, strbuf *out);
};

/* A running total a device keeps (DMA operations, bytes moved), read
 * without side effects.  `info device NAME` lists them; a viewer that
 * samples one for a rate (the TUI's DMA counter) finds it by name. */
typedef struct dev_counter {
    const char *name; /* "dma.word-ops" */
    const char *desc;
    uint64_t (*read)(const device *d);
} dev_counter;

void view_memo_free(view_memo *m);
/* The data a view kept under (d, key), or NULL; its size in *len. */
const void *view_memo_get(const view_memo *m, const device *d, const char *key, size_t *len);
/* Keep a copy of data under (d, key) for view v, replacing what was there.
 * key is what v shows the same thing again with (a ring's name). */
void view_memo_put(view_memo *m, device *d, const dev_view *v, const char *key, const void *data,
                   size_t len);
/* Make every view the memo holds remember the state of now (the guest
 * resumes: the marks of the next stop show what changed since this one). */
void view_memo_refresh(view_memo *m);

/* A descriptor ring's state, for the debugger's stall detector (watch
 * stall): is host-posted work waiting while the engine idles, and how old
 * are the completions the host has not taken back?  (The NIC models fill it
 * from their rings: nic_ring_state.) */
typedef struct ring_state {
    bool posted;                /* the ring holds host-posted work for the device */
    bool idle;                  /* the device's engine for the ring is idle */
    uint64_t idle_ticks;        /* for how long (virtual time) */
    unsigned unreclaimed;       /* completed descriptors the host has not taken back */
    uint64_t unreclaimed_ticks; /* age of the oldest of them */
    int oldest_index;           /* its index, -1 if none */
    bool set_up;                /* the host has given the ring its base address */
} ring_state;
/* Stalled: host-posted work while the engine idles. */
static inline bool ring_stalled(const ring_state *st) { return st->posted && st->idle; }

/* A device model's declaration: what it is made of, the hooks that make it
 * work.  Each part is a table with its count. */
typedef struct device_class {
    const char *name; /* "hamachi" */
    const char *desc;
    const reg_decl *regs; /* indexed by the model's register enum (DEV_REGS) */
    unsigned nregs;
    uint32_t reg_space; /* size of the register block */
    bool little_endian; /* byte lanes of partial accesses (PCI devices: true) */
    const event_decl *events;
    unsigned nevents;
    const dev_view *views;
    unsigned nviews;
    const dev_counter *counters;
    unsigned ncounters;
    state_table state;        /* the model's own state in d->priv (DEV_STATE) */
    void (*reset)(device *d); /* after device_reset() loaded the reset values */
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
    void *priv;     /* the model's own state */
    uint64_t *rv;   /* stored register values */
    uint32_t *slot; /* index of each declared register's first value in rv */
    uint32_t nvals;
    struct reg_extent *ext; /* every register element, sorted by offset */
    uint32_t n_ext;         /* number of entries in ext */
    event_src **ev;         /* DEV_NBUILTIN_EVENTS built-ins, then the declared ones */
    sched *clock;
    event_bus *events;
    int initiator; /* bus initiator id when the device does DMA, else -1 */
    device *next;
};

/* Create an instance; registers events "<name>.<event>" on the bus. */
device *device_new(const device_class *cls, const char *name, void *priv, event_bus *eb,
                   sched *clock);
void device_free(device *d);
/* Load reset values, then call the class's reset hook. */
void device_reset(device *d);

/* Register access from a bus master (op: its initiator; NULL for the model's
 * own accesses).  `val` is in the device's own byte order for `size` bytes
 * (little-endian lanes for PCI devices).  Accesses that straddle registers
 * are split over them.  An access whose first byte no register covers goes
 * to other_read/other_write when the class has them, and returns what they
 * return.  Otherwise bytes no register covers read as 0 and writes to them
 * are dropped; an access that reaches no register at all (or breaks R_FULL)
 * is reported as reg.bad-access.  Returns BUS_OK. */
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
    unsigned n;  /* register elements read (more than DEV_NOTE_MAX: impure) */
    bool impure; /* a read had, or may have had, a side effect */
    struct {
        device *dev;
        uint16_t id, idx;
        uint64_t peek;    /* dev_peek() right after the read */
        uint64_t changes; /* dev_next_change() then */
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
const dev_counter *dev_counter_find(const device *d, const char *name);
/* ---- state walkers (src/core/devstate.c) ---- */

/* A state declaration the walkers cannot handle (an ST_INT of 3 bytes, a
 * field outside the struct): why, in buf; NULL when it is sound.
 * device_new refuses such a class. */
const char *dev_state_problem(const device_class *cls, char *buf, size_t len);

/* Append the device's state image to out: a header naming the class, then
 * every register array and declared field (name, kind, element size and
 * count), then their values (integers little-endian, fixed size). */
void dev_state_save(device *d, strbuf *out);
/* Load an image dev_state_save wrote (for a device of the same class and
 * declaration).  Checks everything first: a different class, field list,
 * size, a truncated image or an out-of-range flag is an error naming it,
 * and the device is left untouched. */
int dev_state_load(device *d, const void *img, size_t len, xerr *err);
/* Whether dev_state_load would accept the image (nothing is changed). */
int dev_state_check(device *d, const void *img, size_t len, xerr *err);
/* A hash of the device's state (the values of dev_state_save's image). */
uint64_t dev_state_hash(device *d);
/* Every declared field with its value (`info state NAME`). */
void dev_state_show(device *d, strbuf *out);
/* Compare two devices of one class field by field, and every byte of the
 * model's struct that no field declares (wiring excluded).  0 when equal,
 * else -1 with the first difference in why: a byte outside every field
 * is state the declaration misses. */
int dev_state_diff(device *a, device *b, strbuf *why);
/* Take every declared timer (parts and arrays included) off the device's
 * clock: a model that declares its timers needs no timer_del of its own
 * before it frees its state. */
void dev_state_stop_timers(device *d);

/* Declared event source by declaration index (not counting built-ins). */
static inline event_src *dev_event(device *d, unsigned i) { return d->ev[DEV_NBUILTIN_EVENTS + i]; }

#endif
