/* SPDX-License-Identifier: GPL-2.0-or-later */ /* Every Bridge DMA window in both swap modes, byte by byte, with the xbow
 * PCI DMA test device (xbow --testdev):
 *   windows: direct (0x8000_0000 + pa, DIR_MAP), ATE (0x4000_0000 + page,
 *            4 KB pages), PCI64 (0xa1..., what Linux uses);
 *   modes:   byte stream (DEVICE.SWAP_DIR/SWAP_PMU set: memory byte A = PCI
 *            byte A) and word values (clear: memory byte A = PCI byte A^3);
 *   moves:   memory -> device buffer, device buffer -> memory, memory ->
 *            memory, as one bulk DMA and as 4-byte word DMAs;
 * unaligned starts and lengths, untouched neighbours checked.  The last
 * transfer raises INTA, which must arrive as a HUB interrupt. */
#include "td.h"

u64 td_base;
static int slot, failures, cases;

#define LEN 301
#define SRC_OFF 1
#define DST_OFF 3
#define LEVEL 33 /* HUB level for the device's INTA */

static u8 src[8192] __attribute__((aligned(4096)));
static u8 dst[8192] __attribute__((aligned(4096)));
static u8 expect[8192];

enum { W_DIR32, W_ATE, W_PCI64 };
static const char *const wname[] = {"dir32", "ate", "pci64"};

/* PCI address of memory byte p through window w (ATE 0-1 map src, 2-3 dst). */
static u64 pci_addr(int w, const u8 *p)
{
    u64 pa = pa_of(p);
    switch (w) {
    case W_DIR32: return 0x80000000ul + pa;
    case W_PCI64: return (u64)HUB_WIDGET << 60 | PCI64_ATTR_BAR | pa;
    default: {
        const u8 *base = (p >= dst && p < dst + sizeof dst) ? dst : src;
        u64 first = (base == dst) ? 2 : 0;
        return 0x40000000ul + first * 4096 + (u64)(p - base);
    }
    }
}

/* Memory offset (from a 4-aligned base) that PCI byte offset i lands at. */
static u32 lane(int stream, u32 i) { return stream ? i : i ^ 3; }

static void set_mode(int stream)
{
    u32 d = bridge_read(BRIDGE_DEVICE(slot)) & ~(BRIDGE_DEV_SWAP_DIR | BRIDGE_DEV_SWAP_PMU);
    bridge_write(BRIDGE_DEVICE(slot), d | (stream ? BRIDGE_DEV_SWAP_DIR | BRIDGE_DEV_SWAP_PMU : 0));
    (void)bridge_read(BRIDGE_TFLUSH);
}

static void report(const char *what, int w, int stream, int word, int bad, u32 at, u32 got,
                   u32 want)
{
    cases++;
    if (bad) {
        failures++;
        printf("testdev: %s %s %s %s: FAIL at byte %u: 0x%02x, want 0x%02x\n", wname[w],
               stream ? "byte-stream" : "word-values", what, word ? "word" : "bulk", at, got,
               want);
    } else {
        printf("testdev: %s %s %s %s: ok\n", wname[w], stream ? "byte-stream" : "word-values",
               what, word ? "word" : "bulk");
    }
}

static u8 pat(u32 i, u32 seed) { return (u8)(i * 37 + seed * 11 + 5); }

/* memory -> device buffer */
static void to_buffer(int w, int stream, int word, u32 seed)
{
    for (u32 i = 0; i < sizeof src; i++)
        src[i] = pat(i, seed);
    u32 st = td_run(pci_addr(w, src + SRC_OFF), 0, LEN, TD_PCI_TO_BUF | (word ? TD_WORD : 0));
    int bad = (st & TD_ERROR) != 0;
    u32 at = 0, got = st, want = 0;
    for (u32 i = 0; i < LEN && !bad; i++) {
        got = td_buf_read(i);
        want = src[lane(stream, SRC_OFF + i)];
        if (got != want) {
            bad = 1;
            at = i;
        }
    }
    report("mem-to-buf", w, stream, word, bad, at, got, want);
}

/* device buffer -> memory */
static void from_buffer(int w, int stream, int word, u32 seed)
{
    for (u32 i = 0; i < LEN; i++)
        td_buf_write(i, pat(i, seed));
    memset(dst, 0x5a, sizeof dst);
    memset(expect, 0x5a, sizeof expect);
    for (u32 i = 0; i < LEN; i++)
        expect[lane(stream, DST_OFF + i)] = pat(i, seed);
    u32 st = td_run(0, pci_addr(w, dst + DST_OFF), LEN, TD_BUF_TO_PCI | (word ? TD_WORD : 0));
    int bad = (st & TD_ERROR) != 0;
    u32 at = 0, got = st, want = 0;
    for (u32 k = 0; k < LEN + 16 && !bad; k++) {
        if (dst[k] != expect[k]) {
            bad = 1;
            at = k;
            got = dst[k];
            want = expect[k];
        }
    }
    report("buf-to-mem", w, stream, word, bad, at, got, want);
}

/* memory -> memory through the same window: the swap applies both ways, so
 * a copy between equally aligned addresses is exact in either mode. */
static void mem_to_mem(int w, int stream, int word, u32 seed, int irq)
{
    for (u32 i = 0; i < sizeof src; i++)
        src[i] = pat(i, seed);
    memset(dst, 0x5a, sizeof dst);
    u32 st = td_run(pci_addr(w, src + 4 + SRC_OFF), pci_addr(w, dst + 4 + SRC_OFF), LEN,
                    TD_PCI_TO_PCI | (word ? TD_WORD : 0) | (irq ? TD_IRQ : 0));
    int bad = (st & TD_ERROR) != 0;
    u32 at = 0, got = st, want = 0;
    for (u32 k = 0; k < LEN + 16 && !bad; k++) {
        u32 i = lane(stream, k); /* memory byte k of the destination range */
        int inside = i >= 4 + SRC_OFF && i < 4 + SRC_OFF + LEN;
        want = inside ? src[k] : 0x5a;
        if (dst[k] != want) {
            bad = 1;
            at = k;
            got = dst[k];
        }
    }
    report("mem-to-mem", w, stream, word, bad, at, got, want);
}

static volatile int irqs;

static void td_irq(int level, void *arg)
{
    (void)level;
    (void)arg;
    irqs++;
    td_write(TD_INT_ACK, 1);
}

int main(void)
{
    slot = pci_find(TD_VENDOR, TD_DEVICE);
    if (slot < 0) {
        printf("testdev: no test device (start xbow with --testdev)\n");
        return 0;
    }
    td_base = pci_bar0(slot);
    pci_cfg_write(slot, 0x04, 2, pci_cfg_read(slot, 0x04, 2) | 0x4); /* bus master */
    printf("testdev: slot %d, BAR0 at 0x%lx, DIR_MAP 0x%x\n", slot, td_base,
           bridge_read(BRIDGE_DIR_MAP));
    /* 4 KB ATE pages; ATEs 0-1 map src, 2-3 map dst. */
    bridge_write(BRIDGE_WID_CONTROL, bridge_read(BRIDGE_WID_CONTROL) & ~BRIDGE_CTRL_PAGE_SIZE);
    for (int i = 0; i < 2; i++) {
        *(volatile u64 *)(BRIDGE_BASE + BRIDGE_ATE(i)) = ate(pa_of(src) + 4096 * (u64)i);
        *(volatile u64 *)(BRIDGE_BASE + BRIDGE_ATE(2 + i)) = ate(pa_of(dst) + 4096 * (u64)i);
    }
    irq_init();
    bridge_irq_route(slot, LEVEL); /* INTA of slot s is Bridge pin s */
    irq_connect(LEVEL, td_irq, NULL);
    irq_enable();
    u32 seed = 0;
    for (int w = W_DIR32; w <= W_PCI64; w++) {
        for (int stream = 1; stream >= 0; stream--) {
            set_mode(stream);
            for (int word = 0; word <= 1; word++) {
                to_buffer(w, stream, word, seed++);
                from_buffer(w, stream, word, seed++);
                mem_to_mem(w, stream, word, seed++, w == W_PCI64 && !stream && word);
            }
        }
    }
    while (!irqs)
        ;
    printf("testdev: INTA arrived on HUB level %d (%d interrupt%s), %u transfers\n", LEVEL, irqs,
           irqs == 1 ? "" : "s", td_read(TD_XFERS));
    printf("testdev: %d of %d cases passed\n", cases - failures, cases);
    return 0;
}
