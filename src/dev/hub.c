/* The IP27 HUB: see hub.h, ../shared/hw/ip27.md section 2, docs/hardware.md.
 *
 * Interrupts.  PI_INT_PEND0/1 hold 128 levels (0-63, 64-127); writing
 * PI_INT_PEND_MOD with 0x100|level sets one, with level clears it.  Each
 * CPU slice has MASK0/MASK1: IP2 = PEND0 & MASK0, IP3 = PEND1 & MASK1.
 *
 * RT counter.  1.25 MHz, derived from virtual time (one count per 144
 * ticks of the 180 MHz clock) plus an offset that writes to PI_RT_COUNT
 * set.  Each comparator (RT_COMPARE_A/B, PROFILE_COMPARE) latches its PEND
 * bit when the count *reaches* the compare value (edge, ip27.md 2.2 [INF]):
 * the HUB schedules a timer for that moment, it never polls.  IP4 = RT_PEND
 * & RT_EN of the slice, IP5 = PROF_PEND & PROF_EN.
 *
 * Big windows.  IO-space offsets 0x20000000-0xffffffff are seven 512 MB
 * windows, each translated by IIO_ITTE(n) (n = window - 1) to a widget and
 * a 512 MB-aligned XIO offset [SRC hubio.h, io.h].  The access goes to the
 * widget's XIO port (hub_wiring.xio: the machine wires the Bridge's).
 * IOSP is stored and not used [documented gap].
 *
 * Nodes.  A HUB belongs to node `nasid` (hub_node): NI_STATUS_REV_ID
 * reports it, its windows sit at IO nasid << 32, PI_CPU_NUM counts slices
 * from the node's first CPU, and a HUB without a widget reports the II link
 * down.  IALIAS belongs to the HUB only on a one-node machine; with several
 * the board decodes it per access (hub_window_access). */
#include "dev/hub.h"

#include <stdlib.h>

#include "core/log.h"

#define RT_MASK ((1ull << 52) - 1)
#define NPR_LOCALRESET 0x1ull
#define NPR_LINKRESET 0x2ull
#define NPR_PORTRESET 0x80ull
#define CC_PEND_A 5 /* PEND0 bits set by the crosscall registers (intr.h) */

#define BIGWIN_BASE 0x20000000ull
#define BIGWIN_SIZE (1ull << 29)

enum {
    H_CPU_PROTECT, H_PROT_OVERRD, H_IO_PROTECT, H_REGION_PRESENT, H_CPU_NUM, H_CALIAS_SIZE,
    H_MAX_CRB_TIMEOUT, H_CRB_SFACTOR, H_CPU_PRESENT_A, H_CPU_PRESENT_B, H_CPU_ENABLE_A,
    H_CPU_ENABLE_B, H_REPLY_LEVEL, H_NMI_A, H_NMI_B,
    H_PEND_MOD, H_PEND0, H_PEND1, H_MASK0_A, H_MASK1_A, H_MASK0_B, H_MASK1_B,
    H_CC_PEND_SET_A, H_CC_PEND_SET_B, H_CC_PEND_CLR_A, H_CC_PEND_CLR_B, H_CC_MASK,
    H_RT_COMPARE_A, H_RT_COMPARE_B, H_PROF_COMPARE, H_RT_PEND_A, H_RT_PEND_B, H_PROF_PEND_A,
    H_PROF_PEND_B, H_RT_EN_A, H_RT_EN_B, H_PROF_EN_A, H_PROF_EN_B,
    H_RT_LOCAL_CTRL, H_RT_FILTER_CTRL, H_RT_COUNT,
    H_ERR_INT_PEND, H_ERR_INT_MASK_A, H_ERR_INT_MASK_B, H_ERR_STACK_ADDR_A, H_ERR_STACK_ADDR_B,
    H_ERR_STACK_SIZE, H_ERR_ST0_A, H_ERR_ST0_A_RCLR, H_ERR_ST1_A, H_ERR_ST1_A_RCLR,
    H_ERR_ST0_B, H_ERR_ST0_B_RCLR, H_ERR_ST1_B, H_ERR_ST1_B_RCLR,
    H_SPOOL_CMP_A, H_SPOOL_CMP_B, H_CRB_TIMEOUT_A, H_CRB_TIMEOUT_B, H_SYSAD_ERRCHK_EN,
    H_BAD_CHECK_BIT_A, H_BAD_CHECK_BIT_B, H_NACK_CNT_A, H_NACK_CNT_B, H_NACK_CMP,
    H_MD_IO_PROTECT, H_MD_IO_PROT_OVRRD, H_MD_HSPEC_PROTECT, H_MD_MEMORY_CONFIG,
    H_MD_REFRESH_CONTROL, H_MD_DIR_ERROR, H_MD_DIR_ERROR_CLR, H_MD_PROTOCOL_ERROR,
    H_MD_PROTOCOL_ERROR_CLR, H_MD_MEM_ERROR, H_MD_MEM_ERROR_CLR, H_MD_MISC_ERROR,
    H_MD_MISC_ERROR_CLR, H_MD_MLAN_CTL,
    H_IIO_WID, H_IIO_WSTAT, H_IIO_WCR, H_IIO_ILAPR, H_IIO_ILAPO, H_IIO_IOWA, H_IIO_IIWA,
    H_IIO_IIDEM, H_IIO_ILCSR, H_IIO_ILLR, H_IIO_IIDSR, H_IIO_IGFX, H_IIO_SCRATCH, H_IIO_ITTE,
    H_IIO_IXCC, H_IIO_IMEM, H_IIO_IXTT, H_IIO_IECLR, H_IIO_IBCN, H_IIO_IPCA, H_IIO_PRTE,
    H_IIO_IPDR, H_IIO_ICDR, H_IIO_IFDR, H_IIO_IIAP, H_IIO_ICMR, H_IIO_ICCR, H_IIO_ICTO,
    H_IIO_ICTP,
    H_NI_STATUS_REV_ID, H_NI_PORT_RESET, H_NI_PROTECTION, H_NI_GLOBAL_PARMS, H_NI_SCRATCH,
    H_NI_DIAG_PARMS, H_NI_PORT_PARMS, H_NI_PORT_ERROR, H_NI_PORT_ERROR_CLEAR,
    H_NREGS
};

enum { EV_INT_SET, EV_INT_CLEAR, EV_RT_FIRE, EV_PROF_FIRE, EV_RESET, EV_NMI };

/* Comparators: RT A, RT B, profile (both slices). */
enum { CMP_RT_A, CMP_RT_B, CMP_PROF, NCMP };

struct hub {
    device *dev;
    bus *bus;
    sched *clock;
    unsigned ncpus;
    hub_node node;
    hub_wiring w;
    int cur_init;          /* initiator of the access being dispatched */
    uint64_t rt_offset;    /* count = now / ticks_per_count + rt_offset */
    uint64_t ticks_per_count;
    timer cmp_timer[NCMP];
    bool line[2][8];       /* CPU interrupt outputs, by slice and IP */
};

static hub *H(device *d) { return d->priv; }

uint64_t hub_rt_count(hub *h)
{
    return (h->clock->now / h->ticks_per_count + h->rt_offset) & RT_MASK;
}

bool hub_irq_line(const hub *h, int slice, int ip)
{
    return slice >= 0 && slice < 2 && ip >= 0 && ip < 8 && h->line[slice][ip];
}

/* ---- interrupt outputs ---------------------------------------------------- */

static void set_line(hub *h, int slice, int ip, bool level)
{
    if (h->line[slice][ip] == level)
        return;
    h->line[slice][ip] = level;
    if (h->w.set_irq)
        h->w.set_irq(h->w.ctx, slice, ip, level);
}

static void update_irqs(hub *h)
{
    device *d = h->dev;
    for (unsigned s = 0; s < h->ncpus && s < 2; s++) {
        uint64_t m0 = DEV_R(d, s ? H_MASK0_B : H_MASK0_A);
        uint64_t m1 = DEV_R(d, s ? H_MASK1_B : H_MASK1_A);
        set_line(h, (int)s, 2, (DEV_R(d, H_PEND0) & m0) != 0);
        set_line(h, (int)s, 3, (DEV_R(d, H_PEND1) & m1) != 0);
        set_line(h, (int)s, 4, (DEV_R(d, H_RT_PEND_A + s) & DEV_R(d, H_RT_EN_A + s) & 1) != 0);
        set_line(h, (int)s, 5,
                 (DEV_R(d, H_PROF_PEND_A + s) & DEV_R(d, H_PROF_EN_A + s) & 1) != 0);
        set_line(h, (int)s, 6, (DEV_R(d, H_ERR_INT_PEND) & DEV_R(d, H_ERR_INT_MASK_A + s)) != 0);
    }
}

static void set_level(hub *h, unsigned level, bool on)
{
    uint64_t *p = &DEV_R(h->dev, level < 64 ? H_PEND0 : H_PEND1);
    uint64_t bit = 1ull << (level & 63);
    *p = on ? (*p | bit) : (*p & ~bit);
    EVENT_EMIT(dev_event(h->dev, on ? EV_INT_SET : EV_INT_CLEAR), h->cur_init, level);
    update_irqs(h);
}

/* ---- RT counter and comparators ------------------------------------------ */

static uint64_t cmp_value(hub *h, int k)
{
    return k == CMP_PROF ? DEV_R(h->dev, H_PROF_COMPARE) : DEV_R(h->dev, H_RT_COMPARE_A + k);
}

/* Arm comparator k for the tick at which the count reaches its value. */
static void cmp_arm(hub *h, int k)
{
    timer_del(h->clock, &h->cmp_timer[k]);
    uint64_t now_counts = h->clock->now / h->ticks_per_count;
    uint64_t delta = (cmp_value(h, k) - hub_rt_count(h)) & RT_MASK;
    if (delta == 0)
        return; /* already there: no transition to latch */
    timer_mod(h->clock, &h->cmp_timer[k], (now_counts + delta) * h->ticks_per_count);
}

static void cmp_fire(hub *h, int k)
{
    if (k == CMP_PROF) {
        DEV_R(h->dev, H_PROF_PEND_A) = DEV_R(h->dev, H_PROF_PEND_B) = 1;
        EVENT_EMIT(dev_event(h->dev, EV_PROF_FIRE), -1, hub_rt_count(h));
    } else {
        DEV_R(h->dev, H_RT_PEND_A + k) = 1;
        EVENT_EMIT(dev_event(h->dev, EV_RT_FIRE), -1, (uint64_t)k, hub_rt_count(h));
    }
    update_irqs(h);
}

static void fire_rt_a(void *o) { cmp_fire(o, CMP_RT_A); }
static void fire_rt_b(void *o) { cmp_fire(o, CMP_RT_B); }
static void fire_prof(void *o) { cmp_fire(o, CMP_PROF); }

/* ---- register hooks -------------------------------------------------------- */

/* The slice of the CPU doing the access: its offset from this node's slice
 * A, or for another node's CPU (a remote read) its own slice, CPUs being
 * numbered two per node [INF: the requester's slice travels in the
 * CrayLink request]. */
static int access_slice(hub *h)
{
    const initiator *in = initiator_get(h->bus, h->cur_init);
    if (!in || in->kind != INIT_CPU || in->cpu < 0)
        return 0;
    int s = in->cpu - h->node.first_cpu;
    return s >= 0 && s < 2 ? s : in->cpu & 1;
}

static uint64_t rd_cpu_num(device *d, const reg_decl *r, unsigned idx, bool peek)
{
    return peek ? 0 : (uint64_t)access_slice(H(d));
}

static uint64_t rd_zero(device *d, const reg_decl *r, unsigned idx, bool peek) { return 0; }

/* Slice of an _A/_B register pair member whose _A register is `first`. */
static unsigned slice_of(device *d, const reg_decl *r, unsigned first)
{
    return (unsigned)(r - d->cls->regs) - first;
}

static void wr_nmi(device *d, const reg_decl *r, unsigned idx, uint64_t v, uint64_t old)
{
    hub *h = H(d);
    unsigned s = slice_of(d, r, H_NMI_A);
    if (!(v & 1))
        return;
    EVENT_EMIT(dev_event(d, EV_NMI), h->cur_init, s);
    if (s < h->ncpus && h->w.nmi)
        h->w.nmi(h->w.ctx, (int)s);
}

static void wr_pend_mod(device *d, const reg_decl *r, unsigned idx, uint64_t v, uint64_t old)
{
    set_level(H(d), (unsigned)(v & 0x7f), (v & 0x100) != 0);
}

static void wr_update(device *d, const reg_decl *r, unsigned idx, uint64_t v, uint64_t old)
{
    update_irqs(H(d));
}

/* Crosscall registers: SET_x / CLR_x drive PEND0 bit CC_PEND_A + x [INF]. */
static void wr_cc_set(device *d, const reg_decl *r, unsigned idx, uint64_t v, uint64_t old)
{
    if (v & 1)
        set_level(H(d), CC_PEND_A + slice_of(d, r, H_CC_PEND_SET_A), true);
}

static void wr_cc_clr(device *d, const reg_decl *r, unsigned idx, uint64_t v, uint64_t old)
{
    if (v & 1)
        set_level(H(d), CC_PEND_A + slice_of(d, r, H_CC_PEND_CLR_A), false);
}

static uint64_t rd_cc_pend(device *d, const reg_decl *r, unsigned idx, bool peek)
{
    unsigned first = r->offset < 0xd8 ? H_CC_PEND_SET_A : H_CC_PEND_CLR_A;
    return (DEV_R(d, H_PEND0) >> (CC_PEND_A + slice_of(d, r, first))) & 1;
}

static void wr_rt_compare(device *d, const reg_decl *r, unsigned idx, uint64_t v, uint64_t old)
{
    cmp_arm(H(d), (int)slice_of(d, r, H_RT_COMPARE_A));
}

static void wr_prof_compare(device *d, const reg_decl *r, unsigned idx, uint64_t v, uint64_t old)
{
    cmp_arm(H(d), CMP_PROF);
}

static uint64_t rd_rt_count(device *d, const reg_decl *r, unsigned idx, bool peek)
{
    return hub_rt_count(H(d));
}

/* PI_RT_COUNT (R_TIME) moves on at the next multiple of ticks_per_count. */
static uint64_t rt_next_change(device *d, unsigned id, unsigned idx)
{
    hub *h = H(d);
    return (h->clock->now / h->ticks_per_count + 1) * h->ticks_per_count;
}

static void wr_rt_count(device *d, const reg_decl *r, unsigned idx, uint64_t v, uint64_t old)
{
    hub *h = H(d);
    h->rt_offset = (v - h->clock->now / h->ticks_per_count) & RT_MASK;
    for (int k = 0; k < NCMP; k++)
        cmp_arm(h, k);
}

/* Error status "read and clear" aliases of the register 8 bytes below. */
static uint64_t rd_rclr(device *d, const reg_decl *r, unsigned idx, bool peek)
{
    uint64_t *p = &DEV_R(d, (unsigned)(r - d->cls->regs) - 1);
    uint64_t v = *p;
    if (!peek)
        *p = 0;
    return v;
}

/* 1-wire (MicroLAN) master with nothing on the line: every slot completes
 * at once (DONE) and samples the line high, so a reset sees no presence
 * pulse [INF from sgi_w1.c's protocol]. */
static uint64_t rd_mlan(device *d, const reg_decl *r, unsigned idx, bool peek) { return 0x3; }

static void wr_port_reset(device *d, const reg_decl *r, unsigned idx, uint64_t v, uint64_t old)
{
    hub *h = H(d);
    uint64_t promop = DEV_R(d, H_ERR_STACK_ADDR_A);
    EVENT_EMIT(dev_event(d, EV_RESET), h->cur_init, v, promop);
    if (v & NPR_LOCALRESET) {
        if (h->w.reset)
            h->w.reset(h->w.ctx, promop);
    } else if (v & (NPR_PORTRESET | NPR_LINKRESET)) {
        xlog(LOG_INFO, d->name, "NI_PORT_RESET 0x%llx: port/link reset %s",
             (unsigned long long)v, h->node.peer ? "(the CrayLink to the peer node is not "
             "modelled: nothing happens)" : "with no CrayLink peer");
    }
}

static const reg_field pend_mod_fields[] = {{"LEVEL", 0, 7, NULL}, {"SET", 8, 1, NULL},
                                            {NULL, 0, 0, NULL}};
static const reg_field nsri_fields[] = {
    {"CHIPID", 0, 4, NULL}, {"REV", 4, 4, NULL}, {"NODEID", 8, 9, NULL},
    {"REGIONSIZE", 17, 1, NULL}, {"MORENODES", 18, 1, NULL}, {"DOWNREASON", 28, 1, NULL},
    {"LINKUP", 29, 1, NULL}, {"8BITMODE", 30, 1, NULL}, {NULL, 0, 0, NULL}};
static const reg_field npr_fields[] = {{"LOCALRESET", 0, 1, NULL}, {"LINKRESET", 1, 1, NULL},
                                       {"PORTRESET", 7, 1, NULL}, {NULL, 0, 0, NULL}};
static const reg_field ilcsr_fields[] = {{"NULL_TO", 0, 6, NULL}, {"WRM_RESET", 8, 1, NULL},
                                         {"LLP_EN", 10, 1, NULL}, {"BM8", 11, 1, NULL},
                                         {"LNK_STAT", 12, 2, NULL}, {"MAX_RETRY", 16, 10, NULL},
                                         {"MAX_BURST", 32, 10, NULL}, {NULL, 0, 0, NULL}};
static const reg_field wid_fields[] = {{"MFG", 1, 11, NULL}, {"PART", 12, 16, NULL},
                                       {"REV", 28, 4, NULL}, {NULL, 0, 0, NULL}};
static const reg_field itte_fields[] = {{"OFFSET", 0, 5, NULL}, {"WIDGET", 8, 4, NULL},
                                        {"IOSP", 12, 1, NULL}, {NULL, 0, 0, NULL}};

/* Plain storage register, and _A/_B pairs 8 bytes apart. */
#define S(id, nm, off, dsc) [id] = {nm, off, 8, 1, 0, 0, 0, 0, NULL, dsc, NULL, NULL}
#define PAIR(id, nm, off, fl, rst, wm, dsc, rd, wr)                                       \
    [id] = {nm "_A", off, 8, 1, 0, fl, rst, wm, NULL, dsc, rd, wr},                     \
    [id + 1] = {nm "_B", (off) + 8, 8, 1, 0, fl, rst, wm, NULL, dsc, rd, wr}
#define SPAIR(id, nm, off, dsc) PAIR(id, nm, off, 0, 0, 0, dsc, NULL, NULL)
#define RCLR(id, nm, off) [id] = {nm, off, 8, 1, 0, R_RO | R_NOSTORE, 0, 0, NULL, \
                                  "read the status above and clear it", rd_rclr, NULL}

static const reg_decl hub_regs[H_NREGS] = {
    /* PI */
    S(H_CPU_PROTECT, "PI_CPU_PROTECT", 0x000, "CPU protection"),
    S(H_PROT_OVERRD, "PI_PROT_OVERRD", 0x008, "clear CPU protection"),
    S(H_IO_PROTECT, "PI_IO_PROTECT", 0x010, "interrupt pending protection"),
    [H_REGION_PRESENT] = {"PI_REGION_PRESENT", 0x018, 8, 1, 0, 0, 1, 0, NULL,
                          "regions present (bit per region)", NULL, NULL},
    [H_CPU_NUM] = {"PI_CPU_NUM", 0x020, 8, 1, 0, R_RO | R_NOSTORE | R_PURE, 0, 0, NULL,
                   "slice of the CPU doing the access (0 = A, 1 = B)", rd_cpu_num, NULL},
    [H_CALIAS_SIZE] = {"PI_CALIAS_SIZE", 0x028, 8, 1, 0, 0, 0, 0xf, NULL,
                       "cached alias size (0 = off)", NULL, NULL},
    S(H_MAX_CRB_TIMEOUT, "PI_MAX_CRB_TIMEOUT", 0x030, "maximum CRB timeout"),
    S(H_CRB_SFACTOR, "PI_CRB_SFACTOR", 0x038, "CRB timeout scale"),
    PAIR(H_CPU_PRESENT_A, "PI_CPU_PRESENT", 0x040, R_RO, 0, 0, "CPU present", NULL, NULL),
    PAIR(H_CPU_ENABLE_A, "PI_CPU_ENABLE", 0x050, 0, 0, 1, "CPU enable", NULL, NULL),
    S(H_REPLY_LEVEL, "PI_REPLY_LEVEL", 0x060, "reply level"),
    PAIR(H_NMI_A, "PI_NMI", 0x070, R_NOSTORE, 0, 0, "write 1: NMI to the CPU", rd_zero, wr_nmi),
    [H_PEND_MOD] = {"PI_INT_PEND_MOD", 0x090, 8, 1, 0, R_NOSTORE, 0, 0, pend_mod_fields,
                    "write 0x100|level to set, level to clear", rd_zero, wr_pend_mod},
    [H_PEND0] = {"PI_INT_PEND0", 0x098, 8, 1, 0, R_RO, 0, 0, NULL, "pending levels 0-63", NULL,
                 NULL},
    [H_PEND1] = {"PI_INT_PEND1", 0x0a0, 8, 1, 0, R_RO, 0, 0, NULL, "pending levels 64-127",
                 NULL, NULL},
    [H_MASK0_A] = {"PI_INT_MASK0_A", 0x0a8, 8, 1, 0, 0, 0, 0, NULL, "CPU A: PEND0 -> IP2",
                   NULL, wr_update},
    [H_MASK1_A] = {"PI_INT_MASK1_A", 0x0b0, 8, 1, 0, 0, 0, 0, NULL, "CPU A: PEND1 -> IP3",
                   NULL, wr_update},
    [H_MASK0_B] = {"PI_INT_MASK0_B", 0x0b8, 8, 1, 0, 0, 0, 0, NULL, "CPU B: PEND0 -> IP2",
                   NULL, wr_update},
    [H_MASK1_B] = {"PI_INT_MASK1_B", 0x0c0, 8, 1, 0, 0, 0, 0, NULL, "CPU B: PEND1 -> IP3",
                   NULL, wr_update},
    PAIR(H_CC_PEND_SET_A, "PI_CC_PEND_SET", 0x0c8, R_NOSTORE | R_PURE, 0, 0,
         "write 1: crosscall pending (PEND0 bit 5 + slice)", rd_cc_pend, wr_cc_set),
    PAIR(H_CC_PEND_CLR_A, "PI_CC_PEND_CLR", 0x0d8, R_NOSTORE | R_PURE, 0, 0,
         "write 1: clear crosscall pending", rd_cc_pend, wr_cc_clr),
    S(H_CC_MASK, "PI_CC_MASK", 0x0e8, "crosscall mask"),
    PAIR(H_RT_COMPARE_A, "PI_RT_COMPARE", 0x108, 0, 0, RT_MASK, "RT compare", NULL,
         wr_rt_compare),
    [H_PROF_COMPARE] = {"PI_PROFILE_COMPARE", 0x118, 8, 1, 0, 0, 0, RT_MASK, NULL,
                        "profile compare (both CPUs)", NULL, wr_prof_compare},
    PAIR(H_RT_PEND_A, "PI_RT_PEND", 0x120, 0, 0, 1, "RT interrupt pending; write 0 to ack",
         NULL, wr_update),
    PAIR(H_PROF_PEND_A, "PI_PROF_PEND", 0x130, 0, 0, 1, "profile interrupt pending", NULL,
         wr_update),
    PAIR(H_RT_EN_A, "PI_RT_EN", 0x140, 0, 0, 1, "RT interrupt enable (IP4)", NULL, wr_update),
    PAIR(H_PROF_EN_A, "PI_PROF_EN", 0x150, 0, 0, 1, "profile interrupt enable (IP5)", NULL,
         wr_update),
    S(H_RT_LOCAL_CTRL, "PI_RT_LOCAL_CTRL", 0x160, "RT control"),
    S(H_RT_FILTER_CTRL, "PI_RT_FILTER_CTRL", 0x168, "GCLK filter control"),
    [H_RT_COUNT] = {"PI_RT_COUNT", PI_RT_COUNT, 8, 1, 0, R_NOSTORE | R_PURE | R_TIME, 0,
                    RT_MASK, NULL,
                    "1.25 MHz real-time counter (52 bits, writable)", rd_rt_count, wr_rt_count},
    [H_ERR_INT_PEND] = {"PI_ERR_INT_PEND", 0x400, 8, 1, 0, R_W1C, 0, 0, NULL,
                        "error interrupts pending (write 1 to clear)", NULL, wr_update},
    PAIR(H_ERR_INT_MASK_A, "PI_ERR_INT_MASK", 0x408, 0, 0, 0, "error interrupt mask (IP6)",
         NULL, wr_update),
    SPAIR(H_ERR_STACK_ADDR_A, "PI_ERR_STACK_ADDR", 0x418,
          "error stack address (A also carries Linux's PROMOP)"),
    S(H_ERR_STACK_SIZE, "PI_ERR_STACK_SIZE", 0x428, "error stack size"),
    S(H_ERR_ST0_A, "PI_ERR_STATUS0_A", 0x430, "error status 0 A (never set)"),
    RCLR(H_ERR_ST0_A_RCLR, "PI_ERR_STATUS0_A_RCLR", 0x438),
    S(H_ERR_ST1_A, "PI_ERR_STATUS1_A", 0x440, "error status 1 A (never set)"),
    RCLR(H_ERR_ST1_A_RCLR, "PI_ERR_STATUS1_A_RCLR", 0x448),
    S(H_ERR_ST0_B, "PI_ERR_STATUS0_B", 0x450, "error status 0 B (never set)"),
    RCLR(H_ERR_ST0_B_RCLR, "PI_ERR_STATUS0_B_RCLR", 0x458),
    S(H_ERR_ST1_B, "PI_ERR_STATUS1_B", 0x460, "error status 1 B (never set)"),
    RCLR(H_ERR_ST1_B_RCLR, "PI_ERR_STATUS1_B_RCLR", 0x468),
    SPAIR(H_SPOOL_CMP_A, "PI_SPOOL_CMP", 0x470, "spool compare"),
    SPAIR(H_CRB_TIMEOUT_A, "PI_CRB_TIMEOUT", 0x480, "timed-out CRB entries"),
    S(H_SYSAD_ERRCHK_EN, "PI_SYSAD_ERRCHK_EN", 0x490, "SysAD error checking enables"),
    SPAIR(H_BAD_CHECK_BIT_A, "PI_BAD_CHECK_BIT", 0x498, "force SysAD check bit error"),
    SPAIR(H_NACK_CNT_A, "PI_NACK_CNT", 0x4a8, "consecutive NACK counter"),
    S(H_NACK_CMP, "PI_NACK_CMP", 0x4b8, "NACK count compare"),
    /* MD */
    S(H_MD_IO_PROTECT, "MD_IO_PROTECT", 0x200000, "MD register protection"),
    S(H_MD_IO_PROT_OVRRD, "MD_IO_PROT_OVRRD", 0x200008, "MD protection override"),
    S(H_MD_HSPEC_PROTECT, "MD_HSPEC_PROTECT", 0x200010, "BDDIR/LBOOT/RBOOT protection"),
    S(H_MD_MEMORY_CONFIG, "MD_MEMORY_CONFIG", 0x200018, "DIMM control (stored only)"),
    S(H_MD_REFRESH_CONTROL, "MD_REFRESH_CONTROL", 0x200020, "refresh control"),
    S(H_MD_DIR_ERROR, "MD_DIR_ERROR", 0x200050, "directory error (never set)"),
    RCLR(H_MD_DIR_ERROR_CLR, "MD_DIR_ERROR_CLR", 0x200058),
    S(H_MD_PROTOCOL_ERROR, "MD_PROTOCOL_ERROR", 0x200060, "protocol error (never set)"),
    RCLR(H_MD_PROTOCOL_ERROR_CLR, "MD_PROTOCOL_ERROR_CLR", 0x200068),
    S(H_MD_MEM_ERROR, "MD_MEM_ERROR", 0x200070, "memory error (never set)"),
    RCLR(H_MD_MEM_ERROR_CLR, "MD_MEM_ERROR_CLR", 0x200078),
    S(H_MD_MISC_ERROR, "MD_MISC_ERROR", 0x200080, "misc error (never set)"),
    RCLR(H_MD_MISC_ERROR_CLR, "MD_MISC_ERROR_CLR", 0x200088),
    [H_MD_MLAN_CTL] = {"MD_MLAN_CTL", 0x2000a8, 8, 1, 0, R_NOSTORE | R_PURE, 0, 0, NULL,
                       "1-wire master: empty bus (DONE, line high)", rd_mlan, NULL},
    /* II */
    [H_IIO_WID] = {"IIO_WID", 0x400000, 8, 1, 0, R_RO, 0, 0, wid_fields,
                   "widget ID: HUB part 0xc101, mfg 0x036", NULL, NULL},
    S(H_IIO_WSTAT, "IIO_WSTAT", 0x400008, "widget status"),
    [H_IIO_WCR] = {"IIO_WCR", 0x400020, 8, 1, 0, 0, 0xa, 0, NULL,
                   "widget control (bits 3:0 widget id)", NULL, NULL},
    S(H_IIO_ILAPR, "IIO_ILAPR", 0x400100, "local access protection"),
    S(H_IIO_ILAPO, "IIO_ILAPO", 0x400108, "protection override"),
    S(H_IIO_IOWA, "IIO_IOWA", 0x400110, "outbound widget access"),
    S(H_IIO_IIWA, "IIO_IIWA", 0x400118, "inbound widget access"),
    S(H_IIO_IIDEM, "IIO_IIDEM", 0x400120, "inbound device error mask"),
    [H_IIO_ILCSR] = {"IIO_ILCSR", 0x400128, 8, 1, 0, 0, 0x2400, ~0x3000ull, ilcsr_fields,
                     "LLP control/status (link working)", NULL, NULL},
    S(H_IIO_ILLR, "IIO_ILLR", 0x400130, "LLP log"),
    S(H_IIO_IIDSR, "IIO_IIDSR", 0x400138, "interrupt destination"),
    [H_IIO_IGFX] = {"IIO_IGFX_", 0x400140, 8, 2, 8, 0, 0, 0, NULL, "graphics flow control",
                    NULL, NULL},
    [H_IIO_SCRATCH] = {"IIO_SCRATCH_REG", 0x400150, 8, 2, 8, 0, 0, 0, NULL, "scratch", NULL,
                       NULL},
    [H_IIO_ITTE] = {"IIO_ITTE", IIO_ITTE_BASE, 8, 7, 8, 0, 0, 0x1f1f, itte_fields,
                    "big window n+1 translation", NULL, NULL},
    S(H_IIO_IXCC, "IIO_IXCC", 0x4001e0, "crosstalk credit count timeout"),
    S(H_IIO_IMEM, "IIO_IMEM", 0x4001e8, "misc enable mask"),
    S(H_IIO_IXTT, "IIO_IXTT", 0x4001f0, "crosstalk tail timeout"),
    S(H_IIO_IECLR, "IIO_IECLR", 0x4001f8, "IO error clear"),
    S(H_IIO_IBCN, "IIO_IBCN", 0x400200, "BTE CRB count"),
    S(H_IIO_IPCA, "IIO_IPCA", 0x400300, "PRB counter adjust"),
    [H_IIO_PRTE] = {"IIO_PRTE_", 0x400308, 8, 8, 8, 0, 0, 0, NULL, "PIO read address table",
                    NULL, NULL},
    S(H_IIO_IPDR, "IIO_IPDR", 0x400388, "PIO table entry deallocation"),
    S(H_IIO_ICDR, "IIO_ICDR", 0x400390, "CRB entry deallocation"),
    S(H_IIO_IFDR, "IIO_IFDR", 0x400398, "IOQ FIFO depth"),
    S(H_IIO_IIAP, "IIO_IIAP", 0x4003a0, "IIQ arbitration"),
    S(H_IIO_ICMR, "IIO_ICMR", 0x4003a8, "CRB management"),
    S(H_IIO_ICCR, "IIO_ICCR", 0x4003b0, "CRB control"),
    S(H_IIO_ICTO, "IIO_ICTO", 0x4003b8, "CRB timeout"),
    S(H_IIO_ICTP, "IIO_ICTP", 0x4003c0, "CRB timeout prescaler"),
    /* NI */
    [H_NI_STATUS_REV_ID] = {"NI_STATUS_REV_ID", NI_STATUS_REV_ID, 8, 1, 0, R_RO, 0, 0,
                            nsri_fields, "node id, revision, M/N mode, link", NULL, NULL},
    [H_NI_PORT_RESET] = {"NI_PORT_RESET", NI_PORT_RESET, 8, 1, 0, R_NOSTORE, 0, 0, npr_fields,
                         "LOCALRESET resets the machine", rd_zero, wr_port_reset},
    S(H_NI_PROTECTION, "NI_PROTECTION", 0x600010, "NI register access permissions"),
    S(H_NI_GLOBAL_PARMS, "NI_GLOBAL_PARMS", 0x600018, "LLP parameters"),
    [H_NI_SCRATCH] = {"NI_SCRATCH_REG", 0x600100, 8, 2, 8, 0, 0, 0, NULL, "scratch", NULL,
                      NULL},
    S(H_NI_DIAG_PARMS, "NI_DIAG_PARMS", 0x600110, "diagnostic parameters"),
    S(H_NI_PORT_PARMS, "NI_PORT_PARMS", 0x608000, "LLP port parameters"),
    S(H_NI_PORT_ERROR, "NI_PORT_ERROR", 0x608008, "LLP errors (never set)"),
    RCLR(H_NI_PORT_ERROR_CLEAR, "NI_PORT_ERROR_CLEAR", 0x608088),
};
#undef S
#undef PAIR
#undef SPAIR
#undef RCLR

static const event_field level_fields[] = {{"level", EVF_DEC, NULL, NULL}};
static const event_field rt_fields[] = {{"cpu", EVF_DEC, NULL, NULL},
                                        {"count", EVF_HEX, NULL, NULL}};
static const event_field prof_fields[] = {{"count", EVF_HEX, NULL, NULL}};
static const event_field reset_fields[] = {{"value", EVF_HEX, NULL, NULL},
                                           {"promop", EVF_HEX, NULL, NULL}};
static const event_field cpu_fields[] = {{"cpu", EVF_DEC, NULL, NULL}};
static const event_decl hub_events[] = {
    [EV_INT_SET] = {"int.set", "an interrupt level was set in PI_INT_PEND0/1", level_fields, 1},
    [EV_INT_CLEAR] = {"int.clear", "an interrupt level was cleared", level_fields, 1},
    [EV_RT_FIRE] = {"rt.fire", "the RT counter reached a CPU's compare value", rt_fields, 2},
    [EV_PROF_FIRE] = {"prof.fire", "the RT counter reached PI_PROFILE_COMPARE", prof_fields, 1},
    [EV_RESET] = {"reset", "NI_PORT_RESET was written", reset_fields, 2},
    [EV_NMI] = {"nmi", "an NMI was sent through PI_NMI_A/B", cpu_fields, 1},
};

static void hub_reset(device *d)
{
    hub *h = H(d);
    for (unsigned s = 0; s < 2; s++) {
        DEV_R(d, H_CPU_PRESENT_A + s) = s < h->ncpus;
        DEV_R(d, H_CPU_ENABLE_A + s) = s < h->ncpus;
    }
    /* The nasid, M mode (MORENODES 0 whatever the node count: it selects
     * N mode), fine regions, link up; revision and chip id are [UNC] (Linux
     * 6.x reads neither). */
    DEV_R(d, H_NI_STATUS_REV_ID) = (1ull << 29) | (1ull << 17) |
                                   (uint64_t)(h->node.nasid & 0x1ff) << 8 | (5ull << 4) | 1ull;
    /* No widget behind the II: LLP enabled by the PROM, link never up [UNC
     * the exact value; Linux tests only IIO_LLP_CSR_IS_UP, bit 13]. */
    if (!h->node.xio_up)
        DEV_R(d, H_IIO_ILCSR) = 0x0400;
    DEV_R(d, H_IIO_WID) = (0ull << 28) | (0xc101ull << 12) | (0x036ull << 1) | 1;
    h->rt_offset = (0 - h->clock->now / h->ticks_per_count) & RT_MASK; /* count restarts at 0 */
    for (int k = 0; k < NCMP; k++)
        timer_del(h->clock, &h->cmp_timer[k]);
    /* The CPUs were reset too: drive every line to its (low) state. */
    for (unsigned s = 0; s < h->ncpus && s < 2; s++)
        for (int ip = 2; ip <= 6; ip++) {
            h->line[s][ip] = false;
            if (h->w.set_irq)
                h->w.set_irq(h->w.ctx, (int)s, ip, false);
        }
    update_irqs(h);
}

static void show_irqs(device *d, const char *args, strbuf *out)
{
    hub *h = H(d);
    sb_printf(out, "PEND0 %016llx  PEND1 %016llx  RT count %llu\n",
              (unsigned long long)DEV_R(d, H_PEND0), (unsigned long long)DEV_R(d, H_PEND1),
              (unsigned long long)hub_rt_count(h));
    for (unsigned s = 0; s < h->ncpus && s < 2; s++) {
        sb_printf(out, "CPU %c: MASK0 %016llx MASK1 %016llx RT compare %llu pend %llu en %llu"
                       "  lines:",
                  'A' + s, (unsigned long long)DEV_R(d, s ? H_MASK0_B : H_MASK0_A),
                  (unsigned long long)DEV_R(d, s ? H_MASK1_B : H_MASK1_A),
                  (unsigned long long)DEV_R(d, H_RT_COMPARE_A + s),
                  (unsigned long long)DEV_R(d, H_RT_PEND_A + s),
                  (unsigned long long)DEV_R(d, H_RT_EN_A + s));
        for (int ip = 2; ip <= 6; ip++)
            if (h->line[s][ip])
                sb_printf(out, " IP%d", ip);
        sb_putc(out, '\n');
    }
}

static const dev_view hub_views[] = {
    {"irq", "pending levels, masks, RT comparators and CPU lines", show_irqs}};

static const device_class hub_class = {
    .name = "hub",
    .desc = "SGI HUB (IP27 node controller): PI, MD, II, NI",
    .regs = hub_regs,
    .nregs = H_NREGS,
    .reg_space = HUB_WINDOW_SIZE,
    .events = hub_events,
    .nevents = ARRAY_SIZE(hub_events),
    .views = hub_views,
    .nviews = ARRAY_SIZE(hub_views),
    .reset = hub_reset,
    .next_change = rt_next_change,
};

/* ---- bus windows ----------------------------------------------------------- */

static int win_read(void *o, const bus_op *op, uint64_t off, uint64_t *val)
{
    hub *h = o;
    h->cur_init = op->initiator;
    return dev_read(h->dev, op, off, op->size, val);
}

int hub_window_access(hub *h, const bus_op *op, uint64_t off, uint64_t *val)
{
    h->cur_init = op->initiator;
    return op->write ? dev_write(h->dev, op, off, op->size, *val)
                     : dev_read(h->dev, op, off, op->size, val);
}

unsigned hub_nasid(const hub *h) { return h->node.nasid; }

static int win_write(void *o, const bus_op *op, uint64_t off, uint64_t val)
{
    hub *h = o;
    h->cur_init = op->initiator;
    return dev_write(h->dev, op, off, op->size, val);
}

static const mmio_ops hub_window_ops = {win_read, win_write};

/* A big-window access goes to the widget IIO_ITTE names, at the XIO
 * address it names.  Without an XIO port (unit tests) it reaches the
 * widget's small window when it falls in the widget's first 16 MB. */
static int bigwin_access(void *o, const bus_op *op, uint64_t off, uint64_t *val)
{
    hub *h = o;
    unsigned bw = (unsigned)(off / BIGWIN_SIZE); /* 0..6 = ITTE index */
    uint64_t itte = *dev_rv(h->dev, H_IIO_ITTE, bw);
    unsigned widget = (unsigned)(itte >> 8) & 0xf;
    uint64_t xio = ((itte & 0x1f) << 29) | (off & (BIGWIN_SIZE - 1));
    if (h->w.xio)
        return h->w.xio(h->w.ctx, widget, op, xio, val);
    if (xio + op->size > (1ull << 24)) {
        xlog(LOG_WARN, h->dev->name,
             "big window %u (IIO_ITTE%u = 0x%llx) reaches XIO 0x%llx on widget %u: no XIO "
             "port is wired, only small-window addresses are reachable",
             bw + 1, bw, (unsigned long long)itte, (unsigned long long)xio, widget);
        return BUS_ERROR;
    }
    bus_op fwd = *op;
    fwd.addr = BUS_UNC(1, (uint64_t)h->node.nasid << HUB_NASID_SHIFT |
                              ((uint64_t)widget << 24) | xio);
    return bus_access(h->bus, &fwd, val);
}

static int bigwin_read(void *o, const bus_op *op, uint64_t off, uint64_t *val)
{
    return bigwin_access(o, op, off, val);
}

static int bigwin_write(void *o, const bus_op *op, uint64_t off, uint64_t val)
{
    return bigwin_access(o, op, off, &val);
}

static const mmio_ops hub_bigwin_ops = {bigwin_read, bigwin_write};

hub *hub_new_node(const char *name, bus *b, sched *clock, event_bus *eb, const hub_node *n,
                  const hub_wiring *w)
{
    hub *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->bus = b;
    h->clock = clock;
    h->node = *n;
    h->node.nasid &= 0xff; /* M mode: 8 nasid bits */
    h->ncpus = n->ncpus < 1 ? 1 : n->ncpus > 2 ? 2 : n->ncpus;
    if (w)
        h->w = *w;
    h->cur_init = -1;
    h->ticks_per_count = clock->hz / HUB_RT_HZ ? clock->hz / HUB_RT_HZ : 1;
    timer_init(&h->cmp_timer[CMP_RT_A], "hub-rt-a", fire_rt_a, h);
    timer_init(&h->cmp_timer[CMP_RT_B], "hub-rt-b", fire_rt_b, h);
    timer_init(&h->cmp_timer[CMP_PROF], "hub-prof", fire_prof, h);
    h->dev = device_new(&hub_class, name, h, eb, clock);
    if (!h->dev) {
        free(h);
        return NULL;
    }
    uint64_t node = (uint64_t)h->node.nasid << HUB_NASID_SHIFT;
    /* Region names live as long as the bus: one set per nasid. */
    static const char *const remote_names[] = {"hub-remote0", "hub-remote1", "hub-remote2",
                                               "hub-remote3"};
    const char *remote = h->node.nasid < ARRAY_SIZE(remote_names)
                             ? remote_names[h->node.nasid] : "hub-remote";
    if (((h->node.ialias || h->node.nasid) &&
         bus_map_mmio(b, h->node.nasid ? "hub-ialias-n" : "hub-ialias",
                      BUS_UNC(1, node | HUB_IALIAS_BASE), HUB_WINDOW_SIZE, &hub_window_ops, h)) ||
        bus_map_mmio(b, remote, BUS_UNC(1, node | HUB_REMOTE0_BASE), HUB_WINDOW_SIZE,
                     &hub_window_ops, h) ||
        bus_map_mmio(b, "hub-bigwin", BUS_UNC(1, node | BIGWIN_BASE), 7 * BIGWIN_SIZE,
                     &hub_bigwin_ops, h)) {
        xlog(LOG_ERROR, name, "cannot map the HUB windows (address map conflict)");
        device_free(h->dev);
        free(h);
        return NULL;
    }
    device_reset(h->dev);
    return h;
}

hub *hub_new(const char *name, bus *b, sched *clock, event_bus *eb, unsigned ncpus,
             const hub_wiring *w)
{
    hub_node n = {.nasid = 0, .ncpus = ncpus, .first_cpu = 0, .ialias = true, .xio_up = true,
                  .peer = false};
    return hub_new_node(name, b, clock, eb, &n, w);
}

void hub_free(hub *h)
{
    if (!h)
        return;
    for (int k = 0; k < NCMP; k++)
        timer_del(h->clock, &h->cmp_timer[k]);
    free(h);
}

device *hub_device(hub *h) { return h->dev; }
