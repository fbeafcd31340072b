/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The IP27 HUB: see hub.h and docs/hardware.md, "HUB".
 *
 * Interrupts.  PI_INT_PEND0/1 hold 128 levels (0-63, 64-127); writing
 * PI_INT_PEND_MOD with 0x100|level sets one, with level clears it.  Each
 * CPU slice has MASK0/MASK1: IP2 = PEND0 & MASK0, IP3 = PEND1 & MASK1.
 *
 * RT counter.  1.25 MHz, derived from virtual time (one count per 144
 * ticks of the 180 MHz clock) plus an offset that writes to PI_RT_COUNT
 * set.  Each comparator (RT_COMPARE_A/B, PROFILE_COMPARE) latches its PEND
 * bit when the count *reaches* the compare value (edge [INF]: docs/hardware.md):
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
#include "dev/sgi/hub.h"

#include <stdlib.h>

#include "core/log.h"
#include "dev/sgi/onewire.h"

#define RT_MASK ((1ull << 52) - 1)
#define NPR_LOCALRESET 0x1ull
#define NPR_LINKRESET 0x2ull
#define NPR_PORTRESET 0x80ull
#define CC_PEND_A 5 /* PEND0 bits set by the crosscall registers (intr.h) */

#define BIGWIN_BASE 0x20000000ull
#define BIGWIN_SIZE (1ull << 29)

/* clang-format off */
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
/* clang-format on */

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
    int cur_init;       /* initiator of the access being dispatched */
    uint64_t rt_offset; /* count = now / ticks_per_count + rt_offset */
    uint64_t ticks_per_count;
    timer cmp_timer[NCMP];
    bool line[2][8]; /* CPU interrupt outputs, by slice and IP */
    ow_bus mlan;     /* MD_MLAN_CTL's 1-wire bus: no device on it */
    ow_mcr mlan_ctl;
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
        set_line(h, (int)s, 5, (DEV_R(d, H_PROF_PEND_A + s) & DEV_R(d, H_PROF_EN_A + s) & 1) != 0);
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

static uint64_t rd_cpu_num(device *d, const reg_access *a)
{
    return a->peek ? 0 : (uint64_t)access_slice(H(d));
}

static uint64_t rd_zero(device *d, const reg_access *a) { return 0; }

static void wr_nmi(device *d, const reg_access *a)
{
    hub *h = H(d);
    unsigned s = a->id - H_NMI_A;
    if (!(a->val & 1))
        return;
    EVENT_EMIT(dev_event(d, EV_NMI), h->cur_init, s);
    if (s < h->ncpus && h->w.nmi)
        h->w.nmi(h->w.ctx, (int)s);
}

static void wr_pend_mod(device *d, const reg_access *a)
{
    set_level(H(d), (unsigned)(a->val & 0x7f), (a->val & 0x100) != 0);
}

static void wr_update(device *d, const reg_access *a) { update_irqs(H(d)); }

/* Crosscall registers: SET_x / CLR_x drive PEND0 bit CC_PEND_A + x [INF]. */
static void wr_cc_set(device *d, const reg_access *a)
{
    if (a->val & 1)
        set_level(H(d), CC_PEND_A + a->id - H_CC_PEND_SET_A, true);
}

static void wr_cc_clr(device *d, const reg_access *a)
{
    if (a->val & 1)
        set_level(H(d), CC_PEND_A + a->id - H_CC_PEND_CLR_A, false);
}

static uint64_t rd_cc_pend(device *d, const reg_access *a)
{
    unsigned s = a->id - (a->id <= H_CC_PEND_SET_B ? H_CC_PEND_SET_A : H_CC_PEND_CLR_A);
    return (DEV_R(d, H_PEND0) >> (CC_PEND_A + s)) & 1;
}

static void wr_rt_compare(device *d, const reg_access *a)
{
    cmp_arm(H(d), (int)(a->id - H_RT_COMPARE_A));
}

static void wr_prof_compare(device *d, const reg_access *a) { cmp_arm(H(d), CMP_PROF); }

static uint64_t rd_rt_count(device *d, const reg_access *a) { return hub_rt_count(H(d)); }

/* R_TIME registers: PI_RT_COUNT moves on at the next multiple of
 * ticks_per_count; MD_MLAN_CTL shows DONE when the 1-wire slot ends. */
static uint64_t hub_next_change(device *d, unsigned id, unsigned idx)
{
    hub *h = H(d);
    if (id == H_MD_MLAN_CTL)
        return h->clock->now < h->mlan_ctl.done_at ? h->mlan_ctl.done_at : UINT64_MAX;
    return (h->clock->now / h->ticks_per_count + 1) * h->ticks_per_count;
}

static void wr_rt_count(device *d, const reg_access *a)
{
    hub *h = H(d);
    h->rt_offset = (a->val - h->clock->now / h->ticks_per_count) & RT_MASK;
    for (int k = 0; k < NCMP; k++)
        cmp_arm(h, k);
}

/* Error status "read and clear" aliases of the register 8 bytes below. */
static uint64_t rd_rclr(device *d, const reg_access *a)
{
    uint64_t *p = &DEV_R(d, a->id - 1);
    uint64_t v = *p;
    if (!a->peek)
        *p = 0;
    return v;
}

/* 1-wire (MicroLAN) master with nothing on the line: every slot takes its
 * time and then samples the line high, so a reset sees no presence pulse
 * [INF from sgi_w1.c's protocol].  The phase (clock divider) bits IRIX
 * writes above the timing fields are taken as read: times are in
 * microseconds. */
static uint64_t rd_mlan(device *d, const reg_access *a) { return ow_mcr_read(&H(d)->mlan_ctl); }

static void wr_mlan(device *d, const reg_access *a)
{
    ow_mcr_write(&H(d)->mlan_ctl, (uint32_t)a->val);
}

static void wr_port_reset(device *d, const reg_access *a)
{
    hub *h = H(d);
    uint64_t promop = DEV_R(d, H_ERR_STACK_ADDR_A);
    EVENT_EMIT(dev_event(d, EV_RESET), h->cur_init, a->val, promop);
    if (a->val & NPR_LOCALRESET) {
        if (h->w.reset)
            h->w.reset(h->w.ctx, promop);
    } else if (a->val & (NPR_PORTRESET | NPR_LINKRESET)) {
        xlog(LOG_INFO, d->name, "NI_PORT_RESET 0x%llx: port/link reset %s",
             (unsigned long long)a->val,
             h->node.peer ? "(the CrayLink to the peer node is not modelled: nothing happens)"
                          : "with no CrayLink peer");
    }
}

static const reg_field pend_mod_fields[] = {{"LEVEL", 0, 7, NULL}, {"SET", 8, 1, NULL}};
static const reg_field nsri_fields[] = {{"CHIPID", 0, 4, NULL},     {"REV", 4, 4, NULL},
                                        {"NODEID", 8, 9, NULL},     {"REGIONSIZE", 17, 1, NULL},
                                        {"MORENODES", 18, 1, NULL}, {"DOWNREASON", 28, 1, NULL},
                                        {"LINKUP", 29, 1, NULL},    {"8BITMODE", 30, 1, NULL}};
static const reg_field npr_fields[] = {
    {"LOCALRESET", 0, 1, NULL}, {"LINKRESET", 1, 1, NULL}, {"PORTRESET", 7, 1, NULL}};
static const reg_field ilcsr_fields[] = {{"NULL_TO", 0, 6, NULL},    {"WRM_RESET", 8, 1, NULL},
                                         {"LLP_EN", 10, 1, NULL},    {"BM8", 11, 1, NULL},
                                         {"LNK_STAT", 12, 2, NULL},  {"MAX_RETRY", 16, 10, NULL},
                                         {"MAX_BURST", 32, 10, NULL}};
static const reg_field wid_fields[] = {
    {"MFG", 1, 11, NULL}, {"PART", 12, 16, NULL}, {"REV", 28, 4, NULL}};
static const reg_field itte_fields[] = {
    {"OFFSET", 0, 5, NULL}, {"WIDGET", 8, 4, NULL}, {"IOSP", 12, 1, NULL}};

/* clang-format off */
/* Plain storage registers; per-CPU registers, slice A's at off and slice
 * B's 8 bytes above (ids id##_A and id##_B, names nm "_A" and nm "_B"),
 * the rest of the row as given; error status registers with their
 * read-and-clear alias 8 bytes above (id##_RCLR or id##_CLR: the status's
 * id plus one, rd_rclr). */
#define PER_CPU(id, nm, off, ...)                                                                \
    [id##_A] = {.name = nm "_A", .offset = (off), __VA_ARGS__},                                  \
    [id##_B] = {.name = nm "_B", .offset = (off) + 8, __VA_ARGS__}
#define STATUS_AND_ALIAS_(id, nm, off, alias, ...)                                               \
    [id] = {.name = nm, .offset = (off), .width = 8, __VA_ARGS__},                               \
    [id##_##alias] = {.name = nm "_" #alias, .offset = (off) + 8, .width = 8,                    \
                      .rules = R_RO | R_NOSTORE, .read = rd_rclr,                                \
                      .desc = "read the status above and clear it"}
#define WITH_RCLR(id, nm, off, ...) STATUS_AND_ALIAS_(id, nm, off, RCLR, __VA_ARGS__)
#define WITH_CLR(id, nm, off, ...) STATUS_AND_ALIAS_(id, nm, off, CLR, __VA_ARGS__)

static const reg_decl hub_regs[] = {
    /* PI */
    [H_CPU_PROTECT] = {.name = "PI_CPU_PROTECT", .offset = 0x000, .width = 8,
                       .desc = "CPU protection"},
    [H_PROT_OVERRD] = {.name = "PI_PROT_OVERRD", .offset = 0x008, .width = 8,
                       .desc = "clear CPU protection"},
    [H_IO_PROTECT] = {.name = "PI_IO_PROTECT", .offset = 0x010, .width = 8,
                      .desc = "interrupt pending protection"},
    [H_REGION_PRESENT] = {.name = "PI_REGION_PRESENT", .offset = 0x018, .width = 8, .reset = 1,
                          .desc = "regions present (bit per region)"},
    [H_CPU_NUM] = {.name = "PI_CPU_NUM", .offset = 0x020, .width = 8,
                   .rules = R_RO | R_NOSTORE | R_PURE, .read = rd_cpu_num,
                   .desc = "slice of the CPU doing the access (0 = A, 1 = B)"},
    [H_CALIAS_SIZE] = {.name = "PI_CALIAS_SIZE", .offset = 0x028, .width = 8, .wmask = 0xf,
                       .desc = "cached alias size (0 = off)"},
    [H_MAX_CRB_TIMEOUT] = {.name = "PI_MAX_CRB_TIMEOUT", .offset = 0x030, .width = 8,
                           .desc = "maximum CRB timeout"},
    [H_CRB_SFACTOR] = {.name = "PI_CRB_SFACTOR", .offset = 0x038, .width = 8,
                       .desc = "CRB timeout scale"},
    PER_CPU(H_CPU_PRESENT, "PI_CPU_PRESENT", 0x040, .width = 8, .rules = R_RO,
            .desc = "CPU present"),
    PER_CPU(H_CPU_ENABLE, "PI_CPU_ENABLE", 0x050, .width = 8, .wmask = 1, .desc = "CPU enable"),
    [H_REPLY_LEVEL] = {.name = "PI_REPLY_LEVEL", .offset = 0x060, .width = 8,
                       .desc = "reply level"},
    PER_CPU(H_NMI, "PI_NMI", 0x070, .width = 8, .rules = R_NOSTORE, .read = rd_zero,
            .write = wr_nmi, .desc = "write 1: NMI to the CPU"),
    [H_PEND_MOD] = {.name = "PI_INT_PEND_MOD", .offset = 0x090, .width = 8, .rules = R_NOSTORE,
                    REG_FIELDS(pend_mod_fields), .read = rd_zero, .write = wr_pend_mod,
                    .desc = "write 0x100|level to set, level to clear"},
    [H_PEND0] = {.name = "PI_INT_PEND0", .offset = 0x098, .width = 8, .rules = R_RO,
                 .desc = "pending levels 0-63"},
    [H_PEND1] = {.name = "PI_INT_PEND1", .offset = 0x0a0, .width = 8, .rules = R_RO,
                 .desc = "pending levels 64-127"},
    [H_MASK0_A] = {.name = "PI_INT_MASK0_A", .offset = 0x0a8, .width = 8, .write = wr_update,
                   .desc = "CPU A: PEND0 -> IP2"},
    [H_MASK1_A] = {.name = "PI_INT_MASK1_A", .offset = 0x0b0, .width = 8, .write = wr_update,
                   .desc = "CPU A: PEND1 -> IP3"},
    [H_MASK0_B] = {.name = "PI_INT_MASK0_B", .offset = 0x0b8, .width = 8, .write = wr_update,
                   .desc = "CPU B: PEND0 -> IP2"},
    [H_MASK1_B] = {.name = "PI_INT_MASK1_B", .offset = 0x0c0, .width = 8, .write = wr_update,
                   .desc = "CPU B: PEND1 -> IP3"},
    PER_CPU(H_CC_PEND_SET, "PI_CC_PEND_SET", 0x0c8, .width = 8, .rules = R_NOSTORE | R_PURE,
            .read = rd_cc_pend, .write = wr_cc_set,
            .desc = "write 1: crosscall pending (PEND0 bit 5 + slice)"),
    PER_CPU(H_CC_PEND_CLR, "PI_CC_PEND_CLR", 0x0d8, .width = 8, .rules = R_NOSTORE | R_PURE,
            .read = rd_cc_pend, .write = wr_cc_clr, .desc = "write 1: clear crosscall pending"),
    [H_CC_MASK] = {.name = "PI_CC_MASK", .offset = 0x0e8, .width = 8, .desc = "crosscall mask"},
    PER_CPU(H_RT_COMPARE, "PI_RT_COMPARE", 0x108, .width = 8, .wmask = RT_MASK,
            .write = wr_rt_compare, .desc = "RT compare"),
    [H_PROF_COMPARE] = {.name = "PI_PROFILE_COMPARE", .offset = 0x118, .width = 8, .wmask = RT_MASK,
                        .write = wr_prof_compare, .desc = "profile compare (both CPUs)"},
    PER_CPU(H_RT_PEND, "PI_RT_PEND", 0x120, .width = 8, .wmask = 1, .write = wr_update,
            .desc = "RT interrupt pending; write 0 to ack"),
    PER_CPU(H_PROF_PEND, "PI_PROF_PEND", 0x130, .width = 8, .wmask = 1, .write = wr_update,
            .desc = "profile interrupt pending"),
    PER_CPU(H_RT_EN, "PI_RT_EN", 0x140, .width = 8, .wmask = 1, .write = wr_update,
            .desc = "RT interrupt enable (IP4)"),
    PER_CPU(H_PROF_EN, "PI_PROF_EN", 0x150, .width = 8, .wmask = 1, .write = wr_update,
            .desc = "profile interrupt enable (IP5)"),
    [H_RT_LOCAL_CTRL] = {.name = "PI_RT_LOCAL_CTRL", .offset = 0x160, .width = 8,
                         .desc = "RT control"},
    [H_RT_FILTER_CTRL] = {.name = "PI_RT_FILTER_CTRL", .offset = 0x168, .width = 8,
                          .desc = "GCLK filter control"},
    [H_RT_COUNT] = {.name = "PI_RT_COUNT", .offset = PI_RT_COUNT, .width = 8,
                    .rules = R_NOSTORE | R_PURE | R_TIME, .wmask = RT_MASK,
                    .read = rd_rt_count, .write = wr_rt_count,
                    .desc = "1.25 MHz real-time counter (52 bits, writable)"},
    [H_ERR_INT_PEND] = {.name = "PI_ERR_INT_PEND", .offset = 0x400, .width = 8, .rules = R_W1C,
                        .write = wr_update, .desc = "error interrupts pending (write 1 to clear)"},
    PER_CPU(H_ERR_INT_MASK, "PI_ERR_INT_MASK", 0x408, .width = 8, .write = wr_update,
            .desc = "error interrupt mask (IP6)"),
    PER_CPU(H_ERR_STACK_ADDR, "PI_ERR_STACK_ADDR", 0x418, .width = 8,
            .desc = "error stack address (A also carries Linux's PROMOP)"),
    [H_ERR_STACK_SIZE] = {.name = "PI_ERR_STACK_SIZE", .offset = 0x428, .width = 8,
                          .desc = "error stack size"},
    WITH_RCLR(H_ERR_ST0_A, "PI_ERR_STATUS0_A", 0x430, .desc = "error status 0 A (never set)"),
    WITH_RCLR(H_ERR_ST1_A, "PI_ERR_STATUS1_A", 0x440, .desc = "error status 1 A (never set)"),
    WITH_RCLR(H_ERR_ST0_B, "PI_ERR_STATUS0_B", 0x450, .desc = "error status 0 B (never set)"),
    WITH_RCLR(H_ERR_ST1_B, "PI_ERR_STATUS1_B", 0x460, .desc = "error status 1 B (never set)"),
    PER_CPU(H_SPOOL_CMP, "PI_SPOOL_CMP", 0x470, .width = 8, .desc = "spool compare"),
    PER_CPU(H_CRB_TIMEOUT, "PI_CRB_TIMEOUT", 0x480, .width = 8, .desc = "timed-out CRB entries"),
    [H_SYSAD_ERRCHK_EN] = {.name = "PI_SYSAD_ERRCHK_EN", .offset = 0x490, .width = 8,
                           .desc = "SysAD error checking enables"},
    PER_CPU(H_BAD_CHECK_BIT, "PI_BAD_CHECK_BIT", 0x498, .width = 8,
            .desc = "force SysAD check bit error"),
    PER_CPU(H_NACK_CNT, "PI_NACK_CNT", 0x4a8, .width = 8, .desc = "consecutive NACK counter"),
    [H_NACK_CMP] = {.name = "PI_NACK_CMP", .offset = 0x4b8, .width = 8,
                    .desc = "NACK count compare"},
    /* MD */
    [H_MD_IO_PROTECT] = {.name = "MD_IO_PROTECT", .offset = 0x200000, .width = 8,
                         .desc = "MD register protection"},
    [H_MD_IO_PROT_OVRRD] = {.name = "MD_IO_PROT_OVRRD", .offset = 0x200008, .width = 8,
                            .desc = "MD protection override"},
    [H_MD_HSPEC_PROTECT] = {.name = "MD_HSPEC_PROTECT", .offset = 0x200010, .width = 8,
                            .desc = "BDDIR/LBOOT/RBOOT protection"},
    [H_MD_MEMORY_CONFIG] = {.name = "MD_MEMORY_CONFIG", .offset = 0x200018, .width = 8,
                            .desc = "DIMM control (stored only)"},
    [H_MD_REFRESH_CONTROL] = {.name = "MD_REFRESH_CONTROL", .offset = 0x200020, .width = 8,
                              .desc = "refresh control"},
    WITH_CLR(H_MD_DIR_ERROR, "MD_DIR_ERROR", 0x200050, .desc = "directory error (never set)"),
    WITH_CLR(H_MD_PROTOCOL_ERROR, "MD_PROTOCOL_ERROR", 0x200060,
             .desc = "protocol error (never set)"),
    WITH_CLR(H_MD_MEM_ERROR, "MD_MEM_ERROR", 0x200070, .desc = "memory error (never set)"),
    WITH_CLR(H_MD_MISC_ERROR, "MD_MISC_ERROR", 0x200080, .desc = "misc error (never set)"),
    [H_MD_MLAN_CTL] = {.name = "MD_MLAN_CTL", .offset = 0x2000a8, .width = 8,
                       .rules = R_NOSTORE | R_PURE | R_TIME, .read = rd_mlan, .write = wr_mlan,
                       .desc = "1-wire master: empty bus (line high)"},
    /* II */
    [H_IIO_WID] = {.name = "IIO_WID", .offset = 0x400000, .width = 8, .rules = R_RO,
                   REG_FIELDS(wid_fields), .desc = "widget ID: HUB part 0xc101, mfg 0x036"},
    [H_IIO_WSTAT] = {.name = "IIO_WSTAT", .offset = 0x400008, .width = 8, .desc = "widget status"},
    [H_IIO_WCR] = {.name = "IIO_WCR", .offset = 0x400020, .width = 8, .reset = 0xa,
                   .desc = "widget control (bits 3:0 widget id)"},
    [H_IIO_ILAPR] = {.name = "IIO_ILAPR", .offset = 0x400100, .width = 8,
                     .desc = "local access protection"},
    [H_IIO_ILAPO] = {.name = "IIO_ILAPO", .offset = 0x400108, .width = 8,
                     .desc = "protection override"},
    [H_IIO_IOWA] = {.name = "IIO_IOWA", .offset = 0x400110, .width = 8,
                    .desc = "outbound widget access"},
    [H_IIO_IIWA] = {.name = "IIO_IIWA", .offset = 0x400118, .width = 8,
                    .desc = "inbound widget access"},
    [H_IIO_IIDEM] = {.name = "IIO_IIDEM", .offset = 0x400120, .width = 8,
                     .desc = "inbound device error mask"},
    [H_IIO_ILCSR] = {.name = "IIO_ILCSR", .offset = 0x400128, .width = 8, .reset = 0x2400,
                     .wmask = ~0x3000ull, REG_FIELDS(ilcsr_fields),
                     .desc = "LLP control/status (link working)"},
    [H_IIO_ILLR] = {.name = "IIO_ILLR", .offset = 0x400130, .width = 8, .desc = "LLP log"},
    [H_IIO_IIDSR] = {.name = "IIO_IIDSR", .offset = 0x400138, .width = 8,
                     .desc = "interrupt destination"},
    [H_IIO_IGFX] = {.name = "IIO_IGFX_", .offset = 0x400140, .width = 8, .count = 2, .stride = 8,
                    .desc = "graphics flow control"},
    [H_IIO_SCRATCH] = {.name = "IIO_SCRATCH_REG", .offset = 0x400150, .width = 8, .count = 2,
                       .stride = 8, .desc = "scratch"},
    [H_IIO_ITTE] = {.name = "IIO_ITTE", .offset = IIO_ITTE_BASE, .width = 8, .count = 7,
                    .stride = 8, .wmask = 0x1f1f, REG_FIELDS(itte_fields),
                    .desc = "big window n+1 translation"},
    [H_IIO_IXCC] = {.name = "IIO_IXCC", .offset = 0x4001e0, .width = 8,
                    .desc = "crosstalk credit count timeout"},
    [H_IIO_IMEM] = {.name = "IIO_IMEM", .offset = 0x4001e8, .width = 8, .desc = "misc enable mask"},
    [H_IIO_IXTT] = {.name = "IIO_IXTT", .offset = 0x4001f0, .width = 8,
                    .desc = "crosstalk tail timeout"},
    [H_IIO_IECLR] = {.name = "IIO_IECLR", .offset = 0x4001f8, .width = 8, .desc = "IO error clear"},
    [H_IIO_IBCN] = {.name = "IIO_IBCN", .offset = 0x400200, .width = 8, .desc = "BTE CRB count"},
    [H_IIO_IPCA] = {.name = "IIO_IPCA", .offset = 0x400300, .width = 8,
                    .desc = "PRB counter adjust"},
    [H_IIO_PRTE] = {.name = "IIO_PRTE_", .offset = 0x400308, .width = 8, .count = 8, .stride = 8,
                    .desc = "PIO read address table"},
    [H_IIO_IPDR] = {.name = "IIO_IPDR", .offset = 0x400388, .width = 8,
                    .desc = "PIO table entry deallocation"},
    [H_IIO_ICDR] = {.name = "IIO_ICDR", .offset = 0x400390, .width = 8,
                    .desc = "CRB entry deallocation"},
    [H_IIO_IFDR] = {.name = "IIO_IFDR", .offset = 0x400398, .width = 8, .desc = "IOQ FIFO depth"},
    [H_IIO_IIAP] = {.name = "IIO_IIAP", .offset = 0x4003a0, .width = 8, .desc = "IIQ arbitration"},
    [H_IIO_ICMR] = {.name = "IIO_ICMR", .offset = 0x4003a8, .width = 8, .desc = "CRB management"},
    [H_IIO_ICCR] = {.name = "IIO_ICCR", .offset = 0x4003b0, .width = 8, .desc = "CRB control"},
    [H_IIO_ICTO] = {.name = "IIO_ICTO", .offset = 0x4003b8, .width = 8, .desc = "CRB timeout"},
    [H_IIO_ICTP] = {.name = "IIO_ICTP", .offset = 0x4003c0, .width = 8,
                    .desc = "CRB timeout prescaler"},
    /* NI */
    [H_NI_STATUS_REV_ID] = {.name = "NI_STATUS_REV_ID", .offset = NI_STATUS_REV_ID, .width = 8,
                            .rules = R_RO, REG_FIELDS(nsri_fields),
                            .desc = "node id, revision, M/N mode, link"},
    [H_NI_PORT_RESET] = {.name = "NI_PORT_RESET", .offset = NI_PORT_RESET, .width = 8,
                         .rules = R_NOSTORE, REG_FIELDS(npr_fields), .read = rd_zero,
                         .write = wr_port_reset, .desc = "LOCALRESET resets the machine"},
    [H_NI_PROTECTION] = {.name = "NI_PROTECTION", .offset = 0x600010, .width = 8,
                         .desc = "NI register access permissions"},
    [H_NI_GLOBAL_PARMS] = {.name = "NI_GLOBAL_PARMS", .offset = 0x600018, .width = 8,
                           .desc = "LLP parameters"},
    [H_NI_SCRATCH] = {.name = "NI_SCRATCH_REG", .offset = 0x600100, .width = 8, .count = 2,
                      .stride = 8, .desc = "scratch"},
    [H_NI_DIAG_PARMS] = {.name = "NI_DIAG_PARMS", .offset = 0x600110, .width = 8,
                         .desc = "diagnostic parameters"},
    [H_NI_PORT_PARMS] = {.name = "NI_PORT_PARMS", .offset = 0x608000, .width = 8,
                         .desc = "LLP port parameters"},
    [H_NI_PORT_ERROR] = {.name = "NI_PORT_ERROR", .offset = 0x608008, .width = 8,
                         .desc = "LLP errors (never set)"},
    [H_NI_PORT_ERROR_CLEAR] = {.name = "NI_PORT_ERROR_CLEAR", .offset = 0x608088, .width = 8,
                               .rules = R_RO | R_NOSTORE, .read = rd_rclr,
                               .desc = "read the status above and clear it"},
};
/* clang-format on */
DEV_REGS_CHECK(hub_regs, H_NREGS);

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
    DEV_R(d, H_NI_STATUS_REV_ID) =
        (1ull << 29) | (1ull << 17) | (uint64_t)(h->node.nasid & 0x1ff) << 8 | (5ull << 4) | 1ull;
    /* No widget behind the II: LLP enabled by the PROM, link never up [UNC
     * the exact value; Linux tests only IIO_LLP_CSR_IS_UP, bit 13]. */
    if (!h->node.xio_up)
        DEV_R(d, H_IIO_ILCSR) = 0x0400;
    DEV_R(d, H_IIO_WID) = (0ull << 28) | (0xc101ull << 12) | (0x036ull << 1) | 1;
    h->rt_offset = (0 - h->clock->now / h->ticks_per_count) & RT_MASK; /* count restarts at 0 */
    for (int k = 0; k < NCMP; k++)
        timer_del(h->clock, &h->cmp_timer[k]);
    ow_mcr_reset(&h->mlan_ctl);
    /* The CPUs were reset too: drive every line to its (low) state. */
    for (unsigned s = 0; s < h->ncpus && s < 2; s++)
        for (int ip = 2; ip <= 6; ip++) {
            h->line[s][ip] = false;
            if (h->w.set_irq)
                h->w.set_irq(h->w.ctx, (int)s, ip, false);
        }
    update_irqs(h);
}

static void show_irqs(device *d, const char *args, view_ctx *ctx, strbuf *out)
{
    hub *h = H(d);
    sb_printf(out, "PEND0 %016llx  PEND1 %016llx  RT count %llu\n",
              (unsigned long long)DEV_R(d, H_PEND0), (unsigned long long)DEV_R(d, H_PEND1),
              (unsigned long long)hub_rt_count(h));
    for (unsigned s = 0; s < h->ncpus && s < 2; s++) {
        sb_printf(out,
                  "CPU %c: MASK0 %016llx MASK1 %016llx RT compare %llu pend %llu en %llu"
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

static const state_decl hub_state[] = {
    STATE_WIRING(hub, dev, "the register block: hub_new_node"),
    STATE_WIRING(hub, bus, "the machine's bus (windows mapped by hub_new_node)"),
    STATE_WIRING(hub, clock, "the machine's clock"),
    STATE_WIRING(hub, w, "outputs to the CPUs and the board: hub_wiring"),
    STATE_INT(hub, cur_init, "initiator of the access being dispatched"),
    STATE_INT(hub, rt_offset, "RT count = now / ticks_per_count + rt_offset"),
    STATE_INT(hub, ticks_per_count, "virtual ticks per RT count"),
    STATE_TIMERS(hub, cmp_timer, "RT comparator A and B"),
    STATE_LINES(hub, line, "CPU interrupt outputs, by slice and IP"),
    STATE_PART(hub, mlan, ow_bus_state, "MD_MLAN_CTL's 1-wire bus"),
    STATE_PART(hub, mlan_ctl, ow_mcr_state, "MD_MLAN_CTL: its 1-wire master"),
};

static const device_class hub_class = {
    .name = "hub",
    .desc = "SGI HUB (IP27 node controller): PI, MD, II, NI",
    DEV_REGS(hub_regs),
    .reg_space = HUB_WINDOW_SIZE,
    DEV_EVENTS(hub_events),
    DEV_VIEWS(hub_views),
    DEV_STATE(hub_state, hub),
    .reset = hub_reset,
    .next_change = hub_next_change,
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
    fwd.addr =
        BUS_UNC(1, (uint64_t)h->node.nasid << HUB_NASID_SHIFT | ((uint64_t)widget << 24) | xio);
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
    hub *h = xcalloc(1, sizeof *h);
    h->bus = b;
    h->clock = clock;
    /* Field by field: a struct copy may carry the caller's padding bytes,
     * which the state check compares (the machine's configuration). */
    h->node.nasid = n->nasid;
    h->node.ncpus = n->ncpus;
    h->node.first_cpu = n->first_cpu;
    h->node.ialias = n->ialias;
    h->node.xio_up = n->xio_up;
    h->node.peer = n->peer;
    h->node.nasid &= 0xff; /* M mode: 8 nasid bits */
    h->ncpus = n->ncpus < 1 ? 1 : n->ncpus > 2 ? 2 : n->ncpus;
    if (w)
        h->w = *w;
    h->cur_init = -1;
    h->ticks_per_count = clock->hz / HUB_RT_HZ ? clock->hz / HUB_RT_HZ : 1;
    timer_init(&h->cmp_timer[CMP_RT_A], "hub-rt-a", fire_rt_a, h);
    timer_init(&h->cmp_timer[CMP_RT_B], "hub-rt-b", fire_rt_b, h);
    timer_init(&h->cmp_timer[CMP_PROF], "hub-prof", fire_prof, h);
    ow_bus_init(&h->mlan);
    ow_mcr_init(&h->mlan_ctl, &h->mlan, clock);
    h->dev = device_new(&hub_class, name, h, eb, clock);
    uint64_t node = (uint64_t)h->node.nasid << HUB_NASID_SHIFT;
    /* Region names live as long as the bus: one set per nasid. */
    static const char *const remote_names[] = {"hub-remote0", "hub-remote1", "hub-remote2",
                                               "hub-remote3"};
    const char *remote =
        h->node.nasid < ARRAY_SIZE(remote_names) ? remote_names[h->node.nasid] : "hub-remote";
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
    hub_node n = {
        .nasid = 0, .ncpus = ncpus, .first_cpu = 0, .ialias = true, .xio_up = true, .peer = false};
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
