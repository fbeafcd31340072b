/* A small Hamachi (GNIC-II) driver for the two stories the debugger is
 * built around (DEVELOPERS.md; examples/descintr.xbow and examples/perword.xbow):
 *
 *   hamachi.elf tx N [nointr]   send N frames through a 16-entry Tx ring,
 *                               reclaiming finished descriptors in the Tx
 *                               interrupt handler, as the 1999 driver did.
 *                               With "nointr" the descriptors do not ask
 *                               for an interrupt (no DescIntr): nothing
 *                               ever reclaims them, the ring fills and the
 *                               driver stalls.
 *   hamachi.elf rx N            receive N frames (xbow --net gen:...) into
 *                               a 32-entry Rx ring, polling, and print the
 *                               throughput in virtual time: with
 *                               --nic-dma=per-word the payload crawls
 *                               through the Bridge a word at a time.
 *
 * Registers follow ../shared/hw/nics.md A.2-A.11; they are little-endian
 * PCI registers reached through the Bridge's word-values PIO window
 * (a PCI byte at offset X is the CPU byte at X^3), descriptors are
 * little-endian words which the Bridge's word-values DMA mode (SWAP_DIR
 * clear) delivers as numbers, so the CPU writes them natively. */
#include "xbow.h"

#define HAM_VENDOR 0x1318
#define HAM_DEVICE 0x0911

enum {
    TxDMACtrl = 0x00, TxCmd = 0x04, TxStatus = 0x06, TxPtr = 0x08, TxPtrHi = 0x0c,
    RxDMACtrl = 0x20, RxCmd = 0x24, RxStatus = 0x26, RxPtr = 0x28, RxPtrHi = 0x2c,
    PCIClkMeas = 0x60, ChipReset = 0x6b, TxIntrCtrl = 0x78, RxIntrCtrl = 0x7c,
    InterruptEnable = 0x80, InterruptClear = 0x84, MACCnfg = 0xa0, MaxFrameSize = 0xce,
    AddrMode = 0xd0,
};
#define DescOwn 0x80000000u
#define DescEndPacket 0x40000000u
#define DescEndRing 0x20000000u
#define DescIntr 0x10000000u
#define IntrRxDone 0x01u
#define IntrTxDone 0x100u

static u64 base;
static inline void w8(u32 r, u8 v) { *(volatile u8 *)(base + (r ^ 3)) = v; }
static inline u8 r8(u32 r) { return *(volatile u8 *)(base + (r ^ 3)); }
static inline void w16(u32 r, u16 v) { *(volatile u16 *)(base + (r ^ 2)) = v; }
static inline u16 r16(u32 r) { return *(volatile u16 *)(base + (r ^ 2)); }
static inline void w32(u32 r, u32 v) { *(volatile u32 *)(base + r) = v; }
static inline u32 r32(u32 r) { return *(volatile u32 *)(base + r); }

/* PCI address of guest memory through the Bridge's direct window. */
static inline u32 dma_addr(const volatile void *p) { return (u32)(0x80000000ul + ((u64)p - CAC_BASE)); }

struct desc {
    u32 status; /* Own, EndPacket, EndRing, Intr, length */
    u32 addr;
};

#define NTX 16
#define NRX 32
#define BUF 1536
static volatile struct desc txr[NTX] __attribute__((aligned(64)));
static volatile struct desc rxr[NRX] __attribute__((aligned(64)));
static u8 txbuf[NTX][BUF] __attribute__((aligned(8)));
static u8 rxbuf[NRX][BUF] __attribute__((aligned(8)));

static volatile unsigned tx_irqs, reclaimed;
static unsigned tx_head; /* next descriptor to fill */
static volatile unsigned tx_tail; /* next descriptor to reclaim */

static int has_arg(int argc, char **argv, const char *want)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *b = want;
        while (*a && *a == *b)
            a++, b++;
        if (!*a && !*b)
            return i;
    }
    return 0;
}

static unsigned number_after(int argc, char **argv, const char *word, unsigned dflt)
{
    int i = has_arg(argc, argv, word);
    if (!i || i + 1 >= argc)
        return dflt;
    unsigned v = 0;
    for (const char *p = argv[i + 1]; *p >= '0' && *p <= '9'; p++)
        v = v * 10 + (unsigned)(*p - '0');
    return v ? v : dflt;
}

/* The Tx interrupt handler: take back every descriptor the chip finished. */
static void isr(int level, void *arg)
{
    (void)level, (void)arg;
    u32 cause;
    while ((cause = r32(InterruptClear)) != 0) {
        if (cause & IntrTxDone)
            tx_irqs++;
        while (tx_tail != tx_head && !(txr[tx_tail % NTX].status & DescOwn)) {
            txr[tx_tail % NTX].status = (tx_tail % NTX == NTX - 1) ? DescEndRing : 0;
            tx_tail++;
            reclaimed++;
        }
    }
}

static int chip_setup(int slot)
{
    base = pci_bar0(slot);
    pci_cfg_write(slot, 0x04, 2, 0x6); /* memory space, bus master */
    u32 dev = bridge_read(BRIDGE_DEVICE(slot));
    bridge_write(BRIDGE_DEVICE(slot), dev & ~0x00180000u); /* word-values DMA */
    (void)bridge_read(BRIDGE_TFLUSH);
    w8(ChipReset, 1);
    for (int i = 0; i < 100000 && !(r8(PCIClkMeas) & 0x80); i++)
        ;
    w16(MACCnfg, 0x8000);
    w16(MACCnfg, 0x215f);
    w16(MaxFrameSize, 1518);
    w16(AddrMode, 0x0f); /* promiscuous: take what the generator sends */
    return 0;
}

static void frame(u8 *b, unsigned k, unsigned len)
{
    static const u8 dst[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    static const u8 src[6] = {0x02, 0x78, 0x62, 0x6f, 0x77, 0x42};
    memcpy(b, dst, 6);
    memcpy(b + 6, src, 6);
    b[12] = 0x88, b[13] = 0xb5; /* local experimental ethertype */
    for (unsigned i = 14; i < len; i++)
        b[i] = (u8)(k * 7 + i);
}

static int transmit(unsigned n, int descintr, int slot)
{
    int level = 40 + slot, pin = slot;
    irq_init();
    bridge_irq_route(pin, level);
    irq_connect(level, isr, NULL);
    irq_enable();
    for (unsigned i = 0; i < NTX; i++) {
        txr[i].addr = dma_addr(txbuf[i]);
        txr[i].status = i == NTX - 1 ? DescEndRing : 0;
    }
    w32(TxPtr, dma_addr(txr));
    w32(TxPtrHi, 0);
    w32(TxIntrCtrl, 0); /* an interrupt for every frame that asks for one */
    w32(InterruptEnable, 0x80878787u);
    w16(TxDMACtrl, 0x001d);
    unsigned sent = 0;
    while (sent < n) {
        u64 start = rt_count();
        while (tx_head - tx_tail >= NTX - 1) { /* ring full: wait for the handler */
            if (rt_count() - start > RT_HZ / 50) {
                printf("hamachi: transmit stalled after %u frames: %u descriptors done, "
                       "none reclaimed since (%u Tx interrupts)\n",
                       sent, tx_head - tx_tail, tx_irqs);
                return 1;
            }
        }
        unsigned i = tx_head % NTX;
        unsigned len = 60 + (sent % 8) * 100;
        frame(txbuf[i], sent, len);
        txr[i].addr = dma_addr(txbuf[i]);
        txr[i].status = DescOwn | DescEndPacket | (descintr ? DescIntr : 0) |
                        (i == NTX - 1 ? DescEndRing : 0) | len; /* status last */
        tx_head++;
        w16(TxCmd, 1);
        sent++;
    }
    u64 start = rt_count();
    while (tx_tail != tx_head && rt_count() - start < RT_HZ / 100)
        ;
    irq_disable();
    printf("hamachi: sent %u frames, %u Tx interrupts, %u descriptors reclaimed\n", sent,
           tx_irqs, reclaimed);
    return 0;
}

static int receive(unsigned n)
{
    for (unsigned i = 0; i < NRX; i++) {
        rxr[i].addr = dma_addr(rxbuf[i]);
        rxr[i].status = DescOwn | DescEndPacket | (i == NRX - 1 ? DescEndRing : 0) | BUF;
    }
    w32(RxPtr, dma_addr(rxr));
    w32(RxPtrHi, 0);
    w16(RxDMACtrl, 0x001d);
    w16(RxCmd, 1);
    /* Say "ready" to the generator (gen:...,start=tx) with one frame. */
    static volatile struct desc hello[1] __attribute__((aligned(64)));
    frame(txbuf[0], 0, 60);
    hello[0].addr = dma_addr(txbuf[0]);
    hello[0].status = DescOwn | DescEndPacket | DescEndRing | 60;
    w32(TxPtr, dma_addr(hello));
    w16(TxDMACtrl, 0x001d);
    w16(TxCmd, 1);
    unsigned got = 0, next = 0;
    u64 bytes = 0, first = 0, last = 0;
    u64 wait = rt_count();
    while (got < n) {
        volatile struct desc *d = &rxr[next % NRX];
        if (d->status & DescOwn) {
            if (rt_count() - wait > RT_HZ / 10)
                break; /* no more frames for 100 ms */
            continue;
        }
        if (!got)
            first = rt_count();
        last = rt_count();
        got++;
        bytes += d->status & 0xffff;
        d->status = DescOwn | DescEndPacket | (next % NRX == NRX - 1 ? DescEndRing : 0) | BUF;
        next++;
        if (r16(RxStatus) & 2)
            w16(RxCmd, 1); /* the chip stopped on a full ring: kick it again */
        wait = rt_count();
    }
    u64 us = (last - first) * 1000000ul / RT_HZ;
    printf("hamachi: received %u frames, %lu bytes in %lu us of virtual time", got, bytes, us);
    if (us)
        printf(", %lu Mbit/s", bytes * 8 / us);
    printf("\n");
    return got == n ? 0 : 1;
}

int main(int argc, char **argv)
{
    int slot = pci_find(HAM_VENDOR, HAM_DEVICE);
    if (slot < 0) {
        printf("hamachi: no Hamachi (start xbow with --nic hamachi)\n");
        return 1;
    }
    chip_setup(slot);
    printf("hamachi: slot %d, registers at 0x%lx\n", slot, base);
    if (has_arg(argc, argv, "rx"))
        return receive(number_after(argc, argv, "rx", 100));
    return transmit(number_after(argc, argv, "tx", 64), !has_arg(argc, argv, "nointr"), slot);
}
