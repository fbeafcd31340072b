/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The SGI IP27 (Origin 200) board: see ip27.h and docs/hardware.md, "IP27
 * board and address map".
 *
 * Address map of nasid 0 (bus addresses, bus.h):
 *   CAC, UNCAC     node memory, bank b at b * 512 MB (prom_mem_layout)
 *   HSPEC 0        UALIAS: the first 256 MB of the reader's node memory,
 *                  uncached; its low 128 KB is flipped (bit 16) for CPU B
 *   HSPEC 1fc00000 the PROM window (LBOOT), 4 MB, read-only
 *   IO 0, 8<<24    the Bridge's widget space (small windows 0 and 8)
 *   IO 01000000    IALIAS: the accessing CPU's HUB
 *   IO 01800000    the HUB of nasid 0 (REMOTE_HUB_ADDR(0))
 *   IO 20000000-   the HUB's big windows (IIO_ITTE), to the Bridge
 * With --cpus 3 or 4 a second node, nasid 1, adds its memory at CAC/UNCAC
 * 1 << 32 and its HUB at IO 1<<32 | 01000000 and 01800000 (REMOTE_HUB_ADDR
 * (1)); it has no XIO widget.  Only then are IALIAS and UALIAS decoded per
 * access (by the initiator's node): a one-node machine maps them straight
 * to node 0 as before. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "core/log.h"
#include "dev/nic/nic.h"
#include "machine/ip27_priv.h"

#define MB (1ull << 20)
#define BANK_SPAN (512 * MB)
#define UALIAS_SIZE (256 * MB)
#define UALIAS_FLIP_SIZE 0x20000ull
#define UALIAS_FLIP_BIT 0x10000ull

/* Bridge registers the PROM programs (Linux asm/pci/bridge.h). */
#define BR_WID_CONTROL 0x24
#define BR_DIR_MAP 0x84
#define BR_INT_ENABLE 0x10c
#define BR_INT_RST_STAT 0x114
#define BR_DEVICE(n) (0x204u + 8u * (n))
#define BR_CFG(s, off) (0x20000u + 0x1000u * (s) + (off))
#define BR_CTRL_SWAPS ((1u << 23) | (1u << 22))
#define BR_DEV_IO_MEM 0x1000u
#define HUB_WIDGET 0xa
/* DEVIO(n): 2 MB windows for n = 0, 1; 1 MB for 2..7 (bridge.h). */
static uint32_t devio_base(int n)
{
    return n <= 1 ? 0x200000u + n * 0x200000u : 0x600000u + (n - 2) * 0x100000u;
}
static uint32_t devio_size(int n) { return n <= 1 ? 0x200000u : 0x100000u; }

/* ---- CPU and HUB wiring ----------------------------------------------------- */

static void w_irq(void *ctx, int slice, int ip, bool level)
{
    ip27_node *n = ctx;
    if (slice >= 0 && (unsigned)slice < n->ncpus) {
        cpu_set_irq(n->b->m->cpus[n->first_cpu + (unsigned)slice], ip, level);
        if (level)
            machine_cpu_irq_raised(n->b->m, n->first_cpu + (unsigned)slice);
    }
}

static void w_nmi(void *ctx, int slice)
{
    ip27_node *n = ctx;
    if (slice >= 0 && (unsigned)slice < n->ncpus) {
        cpu_nmi(n->b->m->cpus[n->first_cpu + (unsigned)slice]);
        machine_cpu_irq_raised(n->b->m, n->first_cpu + (unsigned)slice);
    }
}

static void w_reset(void *ctx, uint64_t promop)
{
    static const char *const ops[] = {"INVALID", "HALT", "POWERDOWN", "RESTART", "REBOOT", "IMODE"};
    ip27_node *n = ctx;
    machine *m = n->b->m;
    char why[96];
    unsigned cmd = (unsigned)(promop >> 4) & 0xf;
    if ((promop & 0x0fff0000) == 0x0ead0000 && cmd < ARRAY_SIZE(ops))
        snprintf(why, sizeof why, "NI_PORT_RESET (PROMOP_%s)", ops[cmd]);
    else
        snprintf(why, sizeof why, "NI_PORT_RESET");
    machine_guest_reset(m, why);
}

/* Big windows: the Bridge answers as widget 0 and widget 8 on an Origin
 * 200 (no Crossbow) [INF: docs/hardware.md]; node 1 has no widget at all. */
static int w_xio(void *ctx, unsigned widget, const bus_op *op, uint64_t xio, uint64_t *val)
{
    ip27_node *n = ctx;
    if (n->nasid == 0 && (widget == 0 || widget == IP27_BRIDGE_WIDGET))
        return bridge_xio_access(n->b->br, op, xio, val);
    xlog(LOG_DEBUG, n->nasid ? "hub1" : "hub", "big-window access to widget %u: nothing there",
         widget);
    return BUS_ERROR;
}

/* The node an access comes from: the CPU's; node 0 for the debugger, the
 * PROM's host code and devices. */
static unsigned initiator_node(ip27 *b, int who)
{
    const initiator *in = initiator_get(&b->m->bus, who);
    if (!in || in->kind != INIT_CPU || in->cpu < 0)
        return 0;
    unsigned n = ip27_cpu_node((unsigned)in->cpu);
    return n < b->nnodes ? n : 0;
}

/* IALIAS with two nodes: the accessing CPU's own HUB. */
static int ialias_read(void *o, const bus_op *op, uint64_t off, uint64_t *val)
{
    ip27 *b = o;
    return hub_window_access(b->nodes[initiator_node(b, op->initiator)].hub, op, off, val);
}

static int ialias_write(void *o, const bus_op *op, uint64_t off, uint64_t val)
{
    return ialias_read(o, op, off, &val);
}

static const mmio_ops ialias_ops = {ialias_read, ialias_write};

/* ---- memory --------------------------------------------------------------- */

/* UALIAS, forwarded to UNCAC memory of the reader's node; the low 128 KB
 * flipped for slice B.  One node maps only the flipped part here. */
static int ualias_flip(void *o, const bus_op *op, uint64_t off, uint64_t *val)
{
    ip27 *b = o;
    const initiator *in = initiator_get(&b->m->bus, op->initiator);
    bus_op f = *op;
    bool by_cpu = in && in->kind == INIT_CPU && in->cpu >= 0;
    uint64_t flip =
        by_cpu && off < UALIAS_FLIP_SIZE && ip27_cpu_slice((unsigned)in->cpu) ? UALIAS_FLIP_BIT : 0;
    f.addr = BUS_UNC(3, prom_node(initiator_node(b, op->initiator), off ^ flip));
    return bus_access(&b->m->bus, &f, val);
}

static int ualias_write(void *o, const bus_op *op, uint64_t off, uint64_t val)
{
    return ualias_flip(o, op, off, &val);
}

static const mmio_ops ualias_ops = {ualias_flip, ualias_write};

/* Node n's memory: --mem MB of its own (each node has its own DIMMs),
 * laid out in banks at n << 32.  Returns the size of the first run of banks
 * (what UALIAS reaches) in *bank0. */
static int map_node_memory(ip27 *b, ip27_node *n, uint64_t *bank0, xerr *err)
{
    static const char *const names[IP27_MAX_NODES][3] = {{"node0-ram", "ram-cac", "ram-uncac"},
                                                         {"node1-ram", "ram1-cac", "ram1-uncac"}};
    machine *m = b->m;
    prom_config *pc = &n->pc;
    if (prom_mem_layout(m->cfg.mem_mb, pc->bank_mb, &pc->nbanks, err) != 0)
        return -1;
    n->ram = ram_block_new(&m->bus, names[n->nasid][0], m->cfg.mem_mb * MB);
    if (!n->ram) {
        xerr_set(err, "cannot allocate %llu MB of guest RAM for node %u",
                 (unsigned long long)m->cfg.mem_mb, n->nasid);
        return -1;
    }
    uint64_t roff = 0;
    for (unsigned i = 0; i < pc->nbanks;) {
        /* Banks after a full 512 MB bank continue it without a hole. */
        uint64_t base = prom_node(n->nasid, i * BANK_SPAN), size = pc->bank_mb[i] * MB;
        unsigned j = i + 1;
        while (j < pc->nbanks && pc->bank_mb[j - 1] == 512)
            size += pc->bank_mb[j++] * MB;
        if (i == 0)
            *bank0 = size;
        if (bus_map_ram(&m->bus, names[n->nasid][1], BUS_CAC(base), size, n->ram, roff, false) ||
            bus_map_ram(&m->bus, names[n->nasid][2], BUS_UNC(3, base), size, n->ram, roff, false)) {
            xerr_set(err, "cannot map node %u memory", n->nasid);
            return -1;
        }
        roff += size;
        i = j;
    }
    return 0;
}

static int map_memory(machine *m, ip27 *b, xerr *err)
{
    uint64_t bank0 = 0, other;
    for (unsigned i = 0; i < b->nnodes; i++)
        if (map_node_memory(b, &b->nodes[i], i ? &other : &bank0, err) != 0)
            return -1;
    m->ram = b->nodes[0].ram;
    m->ram1 = b->nnodes > 1 ? b->nodes[1].ram : NULL;
    int rc;
    if (b->nnodes > 1) {
        /* UALIAS is the reader's node memory: decoded per access [SRC addrs.h]. */
        rc = bus_map_mmio(&m->bus, "ualias", BUS_UNC(0, 0), UALIAS_SIZE, &ualias_ops, b);
    } else {
        uint64_t ua = bank0 < UALIAS_SIZE ? bank0 : UALIAS_SIZE;
        rc =
            bus_map_mmio(&m->bus, "ualias-flip", BUS_UNC(0, 0), UALIAS_FLIP_SIZE, &ualias_ops, b) ||
            bus_map_ram(&m->bus, "ram-ualias", BUS_UNC(0, UALIAS_FLIP_SIZE), ua - UALIAS_FLIP_SIZE,
                        m->ram, UALIAS_FLIP_SIZE, false);
    }
    if (rc) {
        xerr_set(err, "cannot map UALIAS");
        return -1;
    }
    return 0;
}

/* ---- the user's PROM image --------------------------------------------------- */

static int read_user_prom(ip27 *b, const char *path, xerr *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        xerr_set(err, "--prom %s: %s", path, strerror(errno));
        return -1;
    }
    uint8_t *data = xmalloc(PROM_SIZE + 1);
    size_t n = fread(data, 1, PROM_SIZE + 1, f);
    fclose(f);
    if (n == 0) {
        free(data);
        xerr_set(err, "--prom %s: empty or unreadable", path);
        return -1;
    }
    if (n >= 4 && memcmp(data, "\177ELF", 4) == 0) {
        free(data);
        xerr e;
        if (elf_read_file(path, &b->user_prom_elf, &e) != 0) {
            xerr_set(err, "--prom %s", e.msg);
            return -1;
        }
        b->user_prom_is_elf = true;
        b->has_user_prom = true;
        return 0;
    }
    if (n > PROM_SIZE) {
        free(data);
        xerr_set(err, "--prom %s: larger than the %llu KB PROM window", path,
                 (unsigned long long)(PROM_SIZE >> 10));
        return -1;
    }
    b->user_prom = data;
    b->user_prom_size = n;
    b->has_user_prom = true;
    return 0;
}

static void load_user_prom(ip27 *b)
{
    machine *m = b->m;
    xerr e;
    if (b->user_prom_is_elf) {
        if (elf_load(&b->user_prom_elf, &m->bus, &e) != 0)
            xlog(LOG_ERROR, "prom", "%s: %s", m->cfg.prom, e.msg);
        return;
    }
    bus_poke(&m->bus, BUS_UNC(0, PROM_PA), b->user_prom, b->user_prom_size);
}

/* ---- what the PROM programs ------------------------------------------------- */

static uint32_t br_rd(ip27 *b, uint32_t off, bool *ok)
{
    uint64_t v = ~0ull;
    bool good = bus_read(&b->m->bus, b->prom_init, IP27_BRIDGE_BASE + off, 4, &v) == BUS_OK;
    if (ok)
        *ok = good;
    return (uint32_t)v;
}

static void br_wr(ip27 *b, uint32_t off, uint32_t v)
{
    bus_write(&b->m->bus, b->prom_init, IP27_BRIDGE_BASE + off, 4, v);
}

/* I/O BARs [INF: what SGI's IO6 PROM does with them is not known].  Linux
 * on the IP27 takes BARs as firmware left them (PCI_PROBE_ONLY), and a
 * driver that needs one (e1000 on an 82544: CTRL.RST through IOADDR/IODATA)
 * fails without it; so does pci_enable_device for a card whose I/O BAR is
 * left unassigned (the ISP1040's BAR0).  They go into one DEVIO window
 * switched to I/O space: window 0 while no card sits in slot 0, else the
 * window of the highest empty slot: I/O BAR i of slot s at the PCI I/O (and
 * widget) address widget << 24 | devio_base(w) | s << 12 | i << 8, inside
 * Linux's "Bridge PCI IO" window; at most 256 bytes each.  `first` skips
 * the BARs setup_slot gave memory space. */
static int io_window(ip27 *b)
{
    uint32_t id0 = br_rd(b, BR_CFG(0, 0), NULL);
    if ((id0 & 0xffff) == 0xffff)
        return 0;
    for (int w = BRIDGE_SLOTS - 1; w > 0; w--) {
        if (w == IP27_IOC3_SLOT)
            continue;
        if ((br_rd(b, BR_CFG(w, 0), NULL) & 0xffff) == 0xffff)
            return w;
    }
    return -1;
}

static void setup_io_bars(ip27 *b, int s, int first)
{
    if (s == IP27_IOC3_SLOT)
        return; /* the IOC3 has no I/O BAR, and a write to its BAR1 lands in BAR0 */
    int w = io_window(b);
    if (w < 0 || w == s)
        return; /* (a card's own slot is never empty) */
    bool any = false;
    for (int i = first; i < 6; i++) {
        uint32_t reg = 0x10 + 4u * (uint32_t)i;
        uint32_t old = br_rd(b, BR_CFG(s, reg), NULL);
        br_wr(b, BR_CFG(s, reg), 0xffffffffu);
        uint32_t p = br_rd(b, BR_CFG(s, reg), NULL);
        if (p == 0 || !(p & 1)) { /* none, or a memory BAR (not assigned) */
            br_wr(b, BR_CFG(s, reg), old);
            if (p && (p & 6) == 4)
                i++; /* its upper half */
            continue;
        }
        uint32_t mask = p & ~3u;
        if (!(mask & 0xffff0000u))
            mask |= 0xffff0000u; /* a 16-bit decoder */
        uint32_t size = ~mask + 1;
        if (size > 0x100) {
            xlog(LOG_WARN, "prom", "slot %d: I/O BAR %d of %u bytes left unassigned", s, i, size);
            br_wr(b, BR_CFG(s, reg), old);
            continue;
        }
        uint32_t addr = (uint32_t)IP27_BRIDGE_WIDGET << 24 | devio_base(w) | (uint32_t)s << 12 |
                        (uint32_t)i << 8;
        br_wr(b, BR_CFG(s, reg), addr);
        br_wr(b, BR_DEVICE(w), addr >> 20); /* DEV_IO_MEM clear: I/O space */
        any = true;
    }
    if (any) {
        uint32_t cmd = br_rd(b, BR_CFG(s, 0x04), NULL) & 0xffff;
        br_wr(b, BR_CFG(s, 0x04), cmd | PCI_CMD_IO);
    }
}

/* A present card gets its first memory BAR (BAR0, or BAR1 behind an I/O
 * BAR0 as on the ISP1040) in the DEVIO window of its slot, DEVICE(slot)
 * pointing there, and memory decoding on (docs/hardware.md, "Synthetic
 * PROM"); its I/O BARs, if any, go to the I/O window (setup_io_bars). */
static void setup_slot(ip27 *b, int s)
{
    bool ok;
    uint32_t id = br_rd(b, BR_CFG(s, 0), &ok);
    if (!ok || (id & 0xffff) == 0xffff)
        return;
    int bar = 0;
    uint32_t probe = 0;
    for (; bar < 6; bar++) {
        uint32_t reg = 0x10 + 4u * (uint32_t)bar;
        uint32_t old = br_rd(b, BR_CFG(s, reg), NULL);
        br_wr(b, BR_CFG(s, reg), 0xffffffffu);
        probe = br_rd(b, BR_CFG(s, reg), NULL);
        if (probe && !(probe & 1))
            break; /* a memory BAR */
        br_wr(b, BR_CFG(s, reg), old);
        if (probe == 0 && bar == 0)
            return; /* no BAR at all */
    }
    if (bar == 6) {
        xlog(LOG_WARN, "prom",
             "slot %d (%04x:%04x): no memory BAR; the PROM assigns its I/O BARs only", s,
             id & 0xffff, id >> 16);
        setup_io_bars(b, s, 0);
        return;
    }
    uint32_t reg = 0x10 + 4u * (uint32_t)bar;
    uint32_t size = ~(probe & ~0xfu) + 1;
    if (size > devio_size(s)) {
        xlog(LOG_ERROR, "prom",
             "slot %d (%04x:%04x): BAR%d of %u KB does not fit the slot's "
             "%u KB DEVIO window; left unassigned",
             s, id & 0xffff, id >> 16, bar, size >> 10, devio_size(s) >> 10);
        return;
    }
    uint32_t addr = (uint32_t)IP27_BRIDGE_WIDGET << 24 | devio_base(s);
    br_wr(b, BR_CFG(s, reg), addr);
    br_wr(b, BR_DEVICE(s), BR_DEV_IO_MEM | (addr >> 20));
    uint32_t cmd = br_rd(b, BR_CFG(s, 0x04), NULL) & 0xffff;
    br_wr(b, BR_CFG(s, 0x04), cmd | PCI_CMD_MEM); /* status half 0: no W1C bits */
    setup_io_bars(b, s, bar == 0 ? ((probe & 6) == 4 ? 2 : 1) : 0);
}

static void program_bridge(ip27 *b)
{
    uint32_t ctl = br_rd(b, BR_WID_CONTROL, NULL);
    br_wr(b, BR_WID_CONTROL, (ctl & ~BR_CTRL_SWAPS & ~0xfu) | IP27_BRIDGE_WIDGET);
    br_wr(b, BR_DIR_MAP, (uint32_t)HUB_WIDGET << 20);
    /* Interrupts off and error state clear: the OS sets up its pins. */
    br_wr(b, BR_INT_ENABLE, 0);
    br_wr(b, BR_INT_RST_STAT, 0x7f);
    for (int s = 0; s < BRIDGE_SLOTS; s++)
        setup_slot(b, s);
}

/* The console UART as the PROM leaves it: 9600 8N1, FIFOs on. */
static void setup_console(ip27 *b)
{
    static const uint8_t seq[][2] = {{3, 0x83}, {0, 48},   {1, 0},   {3, 0x03},
                                     {2, 0x07}, {4, 0x0b}, {1, 0x00}};
    uint64_t uart = IP27_BRIDGE_BASE + devio_base(IP27_IOC3_SLOT) + 0x20178;
    for (unsigned i = 0; i < ARRAY_SIZE(seq); i++)
        bus_write(&b->m->bus, b->prom_init, uart + seq[i][0], 1, seq[i][1]);
}

/* ---- hand-off ------------------------------------------------------------------ */

static int enter_kernel(ip27 *b, xerr *err)
{
    machine *m = b->m;
    uint64_t argc, argv, envp;
    if (prom_write_argv(&m->bus, b->kernel_path, m->cfg.append, &argc, &argv, &envp, err) != 0)
        return -1;
    cpu *c = m->cpus[0];
    cpu_set_pc(c, b->kernel.entry);
    cpu_set_gpr(c, 4, argc);
    cpu_set_gpr(c, 5, argv);
    cpu_set_gpr(c, 6, envp);
    cpu_set_gpr(c, 7, 0);
    cpu_set_gpr(c, 29, prom_cac(PROM_ARGV_OFF - 16)); /* a stack below argv [INF] */
    cpu_set_cp0(c, 12, PROM_STATUS);
    return 0;
}

void ip27_reset(machine *m)
{
    ip27 *b = ip27_of(m);
    if (!b)
        return;
    memset(b->waiting, 0, sizeof b->waiting);
    xerr err;
    if (b->has_user_prom) {
        if (b->user_prom_is_elf)
            load_user_prom(b); /* its RAM segments too; the CPUs start at the reset vector */
        if (b->have_kernel && elf_load(&b->kernel, &m->bus, &err) != 0)
            xlog(LOG_ERROR, "prom", "cannot reload %s: %s", b->kernel_path, err.msg);
        return;
    }
    for (unsigned i = 0; i < b->nnodes; i++)
        if (prom_write_tables(&m->bus, &b->nodes[i].pc, &err) != 0)
            xlog(LOG_ERROR, "prom", "%s", err.msg);
    program_bridge(b);
    setup_console(b);
    if (!b->have_kernel)
        return; /* every CPU goes to the slave loop */
    if (elf_load(&b->kernel, &m->bus, &err) != 0 || enter_kernel(b, &err) != 0)
        xlog(LOG_ERROR, "prom", "cannot restart %s: %s", b->kernel_path, err.msg);
}

int ip27_boot(machine *m, const char *path, const elf_image *img, xerr *err)
{
    ip27 *b = ip27_of(m);
    if (b->have_kernel) {
        elf_free(&b->kernel);
        free(b->kernel_path);
        b->have_kernel = false;
    }
    xerr e;
    if (elf_parse(img->data, img->size, &b->kernel, &e) != 0) {
        xerr_set(err, "%s: %s", path, e.msg);
        return -1;
    }
    b->kernel_path = xstrdup(path);
    b->have_kernel = true;
    for (unsigned i = 0; i < img->nsegs; i++) {
        const elf_segment *s = &img->segs[i];
        uint64_t pa = s->bus_addr & BUS_PA_MASK;
        if (s->memsz && pa < PROM_TABLES_END && pa + s->memsz > PROM_TABLES_START)
            xlog(LOG_WARN, "prom",
                 "%s: segment at 0x%llx-0x%llx overlaps the PROM's tables "
                 "(KLDIR..argv, 0x%x-0x%x)",
                 path, (unsigned long long)pa, (unsigned long long)(pa + s->memsz),
                 PROM_TABLES_START, PROM_TABLES_END);
    }
    if (b->has_user_prom)
        return 0; /* the user's PROM decides how the kernel is entered */
    return enter_kernel(b, err);
}

int ip27_plug_pci(machine *m, int slot, pci_func *f, xerr *err)
{
    ip27 *b = ip27_of(m);
    if (slot < 0 || slot >= BRIDGE_SLOTS || slot == IP27_IOC3_SLOT || bridge_slot(b->br, slot)) {
        xerr_set(err, "PCI slot %d is %s", slot,
                 slot == IP27_IOC3_SLOT ? "the BaseIO IOC3's" : "not free");
        return -1;
    }
    if (bridge_plug(b->br, slot, f) != 0) {
        xerr_set(err, "cannot plug %s into slot %d", f->name, slot);
        return -1;
    }
    if (f->dev)
        machine_add_device(m, f->dev);
    setup_slot(b, slot);
    return 0;
}

/* ---- construction ------------------------------------------------------------- */

/* --testdev: the PCI DMA test device in the highest free slot. */
static int plug_testdev(machine *m, ip27 *b, xerr *err)
{
    int slot = BRIDGE_SLOTS - 1;
    while (slot >= 0 && (slot == IP27_IOC3_SLOT || bridge_slot(b->br, slot)))
        slot--;
    if (slot < 0) {
        xerr_set(err, "--testdev: no free PCI slot");
        return -1;
    }
    b->testdev = testdev_new("testdev0", &m->events, &m->clock);
    if (!b->testdev) {
        xerr_set(err, "cannot create the test device");
        return -1;
    }
    return ip27_plug_pci(m, slot, testdev_func(b->testdev), err);
}

static const event_field launch_fields[] = {
    {"slice", EVF_DEC, NULL, NULL}, {"pc", EVF_HEX, NULL, NULL}, {"parm", EVF_HEX, NULL, NULL},
    {"sp", EVF_HEX, NULL, NULL},    {"gp", EVF_HEX, NULL, NULL}, {"nasid", EVF_DEC, NULL, NULL}};
static const event_decl launch_decl = {
    "launch-slave", "LAUNCH_SLAVE started a CPU (PROM entry 0xbfc00038)", launch_fields, 6};

/* The HUBs: node 0 with the Bridge behind it, node 1 with nothing; with two
 * nodes IALIAS is decoded here, per access. */
static int make_hubs(machine *m, ip27 *b, xerr *err)
{
    static const char *const names[IP27_MAX_NODES] = {"hub", "hub1"};
    bool multi = b->nnodes > 1;
    for (unsigned i = 0; i < b->nnodes; i++) {
        ip27_node *n = &b->nodes[i];
        hub_node hn = {.nasid = n->nasid,
                       .ncpus = n->ncpus,
                       .first_cpu = (int)n->first_cpu,
                       .ialias = !multi,
                       .xio_up = n->nasid == 0,
                       .peer = multi};
        hub_wiring w = {w_irq, w_nmi, w_reset, w_xio, n};
        n->hub = hub_new_node(names[i], &m->bus, &m->clock, &m->events, &hn, &w);
        if (!n->hub) {
            xerr_set(err, "cannot create the HUB of node %u", n->nasid);
            return -1;
        }
        machine_add_device(m, hub_device(n->hub));
    }
    if (multi && bus_map_mmio(&m->bus, "hub-ialias", BUS_UNC(1, HUB_IALIAS_BASE), HUB_WINDOW_SIZE,
                              &ialias_ops, b)) {
        xerr_set(err, "cannot map IALIAS");
        return -1;
    }
    return 0;
}

int ip27_build(machine *m, xerr *err)
{
    ip27 *b = xcalloc(1, sizeof *b);
    m->board = b;
    b->m = m;
    /* CPUs 0, 1 are node 0's slices A, B; CPUs 2, 3 node 1's. */
    b->nnodes = (m->ncpus + 1) / 2;
    if (b->nnodes > IP27_MAX_NODES) {
        xerr_set(err, "--cpus %u: xbow models at most %d nodes of two CPUs", m->ncpus,
                 IP27_MAX_NODES);
        return -1;
    }
    for (unsigned i = 0; i < b->nnodes; i++) {
        ip27_node *n = &b->nodes[i];
        n->b = b;
        n->nasid = i;
        n->first_cpu = 2 * i;
        n->ncpus = m->ncpus - 2 * i < 2 ? m->ncpus - 2 * i : 2;
    }
    b->prom_init = initiator_register(&m->bus, "prom", INIT_CPU, 0);
    if (map_memory(m, b, err) != 0)
        return -1;
    b->rom = ram_block_new(&m->bus, "prom", PROM_SIZE);
    if (!b->rom || bus_map_ram(&m->bus, "prom", BUS_UNC(0, PROM_PA), PROM_SIZE, b->rom, 0, true)) {
        xerr_set(err, "cannot map the PROM window");
        return -1;
    }
    if (make_hubs(m, b, err) != 0)
        return -1;
    const uint64_t windows[] = {BUS_UNC(1, 0), IP27_BRIDGE_BASE};
    b->br = bridge_new("bridge", &m->bus, &m->clock, &m->events, windows, 2);
    if (!b->br) {
        xerr_set(err, "cannot create the Bridge");
        return -1;
    }
    machine_add_device(m, bridge_device(b->br));
    bridge_set_partnum(b->br, "030-1124-002");        /* IP27 BaseIO [UNC which number] */
    bridge_set_intx_pin(b->br, IP27_IOC3_SLOT, 1, 4); /* IOC3 INTB -> pin 4 */
    bridge_set_hub_widget(b->br, HUB_WIDGET);
    ip27_ioc3_mac(b, b->ioc3_mac);
    ioc3_config ic = {m->console, NULL, m->rtc_epoch, b->ioc3_mac};
    b->ioc3 = ioc3_new("ioc3", &m->events, &m->clock, &ic);
    if (!b->ioc3 || bridge_plug(b->br, IP27_IOC3_SLOT, ioc3_pci(b->ioc3)) != 0) {
        xerr_set(err, "cannot create the IOC3");
        return -1;
    }
    device *ds[4];
    unsigned nd = ioc3_devices(b->ioc3, ds, 4);
    for (unsigned i = 0; i < nd; i++)
        machine_add_device(m, ds[i]);
    if (ip27_plug_nics(b, err) != 0) /* slots 3.. first: the test device takes the last free one */
        return -1;
    if (ip27_make_ioc3_eth(b, err) != 0) /* after the cards: they keep their initiator ids */
        return -1;
    if (ip27_plug_scsi(b, err) != 0) /* slots 0 and 1, before the test device takes one */
        return -1;
    if (m->cfg.test_device && plug_testdev(m, b, err) != 0)
        return -1;
    for (unsigned i = 0; i < b->nnodes; i++) {
        ip27_node *n = &b->nodes[i];
        prom_config *pc = &n->pc; /* the banks are already there (map_memory) */
        pc->nasid = n->nasid;
        pc->nnodes = b->nnodes;
        pc->first_cpu = n->first_cpu;
        pc->ncpus = n->ncpus;
        pc->cpu_prid = (uint16_t)cpu_cp0(m->cpus[n->first_cpu], 15);
        pc->cpu_fpirr = 0x0900; /* R10000 FPU [UNC] */
        pc->cpu_mhz = (uint16_t)(m->clock.hz / 1000000);
        pc->scache_mb = 1; /* Origin 200 R10000 modules: 1 MB [INF] */
        if (n->nasid != 0)
            continue; /* no IO, no console: console_t stays zero */
        pc->console_base = IP27_IOC3_CPU_BASE;
        pc->console_config =
            0x9200000000000000ull | (uint64_t)IP27_BRIDGE_WIDGET << 24 | BR_CFG(IP27_IOC3_SLOT, 0);
        pc->console_wid = IP27_BRIDGE_WIDGET;
        pc->console_slot = IP27_IOC3_SLOT;
        pc->console_baud = 9600;
    }
    b->ev_launch = event_src_add(&m->events, "prom", &launch_decl, b);
    if (m->cfg.prom) {
        if (read_user_prom(b, m->cfg.prom, err) != 0)
            return -1;
        if (!b->user_prom_is_elf)
            load_user_prom(b); /* raw: into the read-only window once */
        return 0;
    }
    uint8_t *rom = xmalloc(PROM_SIZE);
    prom_build_rom(rom, PROM_SIZE);
    bus_poke(&m->bus, BUS_UNC(0, PROM_PA), rom, PROM_SIZE);
    free(rom);
    return ip27_hle_install(b, err);
}

void ip27_free(machine *m)
{
    ip27 *b = ip27_of(m);
    if (!b)
        return;
    if (b->have_kernel)
        elf_free(&b->kernel);
    free(b->kernel_path);
    if (b->user_prom_is_elf)
        elf_free(&b->user_prom_elf);
    free(b->user_prom);
    ip27_free_nics(b);
    for (unsigned i = 0; i < b->nnodes; i++)
        hub_free(b->nodes[i].hub);
    bridge_free(b->br);
    ioc3_free(b->ioc3);
    testdev_free(b->testdev);
    ip27_free_scsi(b);
    free(b);
    m->board = NULL;
}
