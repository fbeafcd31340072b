/* SPDX-License-Identifier: GPL-2.0-or-later */ /* A bare-metal driver for the Packet Engines Hamachi GNIC-II, organised like
 * Linux's drivers/net/ethernet/packetengines/hamachi.c (open sequence,
 * 64-bit descriptors, ownership bit written last, TxCmd only when TxStatus
 * says idle, the ISR looping on InterruptClear), for the seed stories.
 *
 * PROM arguments (xbow --append '...'):
 *   tx COUNT [size=N] [intr=all|last] [reclaim=xmit|isr] [wait=MS]
 *       send COUNT UDP datagrams with the pattern payload (to the sink).
 *       intr=all (default) sets DescIntr on every Tx descriptor and reclaims
 *       in the transmit path too, as the later Linux driver does; intr=last
 *       sets it on the wrap slot only and reclaim=isr reclaims only in the
 *       interrupt handler, as Becker's driver did: transmit-only traffic
 *       then stalls (seed story 2).  The driver gives up after wait=MS
 *       (default 50) without progress.
 *   rx COUNT [wait=MS]
 *       receive COUNT frames (from gen), check the pattern, report the
 *       throughput in virtual time (seed story 1 with --nic-dma).
 * Each run ends with one line:
 *   hamachi: tx sent=N reclaimed=R txdone_irqs=I stalled=0|1
 *   hamachi: rx frames=N good=G bad=B bytes=Y cksum=S time_us=T rate_Mbps=M
 */
#include "net.h"

#define LEVEL 21 /* a HUB interrupt level for the NIC's Bridge pin */

enum {
    TxDMACtrl = 0x00, TxCmd = 0x04, TxStatus = 0x06, TxPtr = 0x08, TxPtrHi = 0x0c,
    RxDMACtrl = 0x20, RxCmd = 0x24, RxStatus = 0x26, RxPtr = 0x28, RxPtrHi = 0x2c,
    PCIClkMeas = 0x60, ChipReset = 0x6b, LEDCtrl = 0x6c, RxChecksum = 0x76, TxChecksum = 0x74,
    TxIntrCtrl = 0x78, RxIntrCtrl = 0x7c, InterruptEnable = 0x80, InterruptClear = 0x84,
    EventStatus = 0x8c, MACCnfg = 0xa0, FrameGap0 = 0xa2, FrameGap1 = 0xa4, MACCnfg2 = 0xb0,
    FlowCtrl = 0xbc, MaxFrameSize = 0xce, AddrMode = 0xd0, StationAddr = 0xd2, ANCtrl = 0xe0,
    ANStatus = 0xe2, ANXchngCtrl = 0xe4, ANAdvertise = 0xe8, EECmdStatus = 0xf0, EEData = 0xf1, EEAddr = 0xf2
};
#define IntrRxDone 0x01u
#define IntrTxDone 0x100u
#define DescOwn 0x80000000u
#define DescEndPacket 0x40000000u
#define DescEndRing 0x20000000u
#define DescIntr 0x10000000u

#define TX_RING 64
#define RX_RING 128
#define BUF_SZ 1536

struct hamachi_desc { /* 64-bit address mode, little-endian on PCI (Linux's name) */
    u32 status;
    u32 pad;
    u64 addr;
};

static struct hamachi_desc tx_ring[TX_RING] __attribute__((aligned(16)));
static struct hamachi_desc rx_ring[RX_RING] __attribute__((aligned(16)));
static u8 tx_buf[TX_RING][BUF_SZ] __attribute__((aligned(8)));
static u8 rx_buf[RX_RING][BUF_SZ + 8] __attribute__((aligned(8)));

static u64 regs;
static u8 mac[6];
static volatile unsigned cur_tx, dirty_tx, cur_rx, txdone_irqs;
static volatile unsigned rx_frames, rx_good, rx_bad;
static volatile u64 rx_bytes, rx_sum, rx_first_rt, rx_last_rt;
static int reclaim_in_isr_only;

/* PIO through the Bridge's word-value lanes, as Linux's readb/readw do. */
static u8 rb(u32 o) { return *(volatile u8 *)(regs + (o ^ 3)); }
static u16 rw(u32 o) { return *(volatile u16 *)(regs + (o ^ 2)); }
static u32 rl(u32 o) { return *(volatile u32 *)(regs + o); }
static void wb(u32 o, u8 v) { *(volatile u8 *)(regs + (o ^ 3)) = v; }
static void ww(u32 o, u16 v) { *(volatile u16 *)(regs + (o ^ 2)) = v; }
static void wl(u32 o, u32 v) { *(volatile u32 *)(regs + o) = v; }
static void wmb(void) { __asm__ volatile("sync" ::: "memory"); }

/* cpu_to_le32/64 on this big-endian CPU (no libgcc here for __builtin_bswap). */
static u32 le32(u32 v)
{
    return v >> 24 | (v >> 8 & 0xff00) | (v << 8 & 0xff0000) | v << 24;
}
static u64 le64(u64 v) { return (u64)le32((u32)v) << 32 | le32((u32)(v >> 32)); }
/* Linux's IP27 DMA address: PCI64, the HUB's widget, barrier attribute. */
static u64 dma_addr(const void *p) { return 0xa100000000000000ul | ((u64)p - CAC_BASE); }

static u8 read_eeprom(int location)
{
    int bogus = 1000;
    while ((rb(EECmdStatus) & 0x40) && --bogus > 0)
        ;
    ww(EEAddr, (u16)location);
    wb(EECmdStatus, 0x02);
    bogus = 1000;
    while ((rb(EECmdStatus) & 0x40) && --bogus > 0)
        ;
    return rb(EEData);
}

/* ---- transmit ------------------------------------------------------------------- */

static void tx_reclaim(void)
{
    while (cur_tx - dirty_tx > 0) {
        unsigned entry = dirty_tx % TX_RING;
        if (tx_ring[entry].status & le32(DescOwn))
            break;
        tx_ring[entry].status = entry == TX_RING - 1 ? le32(DescEndRing) : 0;
        dirty_tx++;
    }
}

static void build_udp(u8 *f, unsigned len, u32 k)
{
    static const u8 sink_mac[6] = {0x02, 0x78, 0x62, 0x6f, 0x77, 0x02};
    udp_frame(f, len, sink_mac, mac, 0, 0x4000, 5001, 9, k); /* to the discard port, no checksum */
}

/* Hand a Tx descriptor to the NIC: the buffer address first, the status
 * word with DescOwn last, behind a barrier (not inlined: a place to stop
 * with the descriptor in $a0). */
static __attribute__((noinline)) void fill_tx_desc(struct hamachi_desc *desc, u64 buf, u32 st)
{
    desc->addr = le64(dma_addr((const void *)buf));
    wmb();
    desc->status = le32(st);
}

/* hamachi_start_xmit: address first, status with DescOwn last, TxCmd only
 * when the channel is idle or stopped. */
static void start_xmit(unsigned len, int intr_all, u32 k)
{
    unsigned entry = cur_tx % TX_RING;
    build_udp(tx_buf[entry], len, k);
    u32 st = DescOwn | DescEndPacket | len;
    if (entry == TX_RING - 1)
        st |= DescEndRing | DescIntr;
    else if (intr_all)
        st |= DescIntr;
    fill_tx_desc(&tx_ring[entry], (u64)tx_buf[entry], st);
    cur_tx++;
    wmb();
    u16 status = rw(TxStatus);
    if (!(status & 1) || (status & 2))
        ww(TxCmd, 1);
    if (!reclaim_in_isr_only)
        tx_reclaim();
}

/* ---- receive -------------------------------------------------------------------- */

static void rx_refill(unsigned entry)
{
    rx_ring[entry].addr = le64(dma_addr(rx_buf[entry] + 2));
    wmb();
    rx_ring[entry].status =
        le32(DescOwn | DescEndPacket | DescIntr | (BUF_SZ - 2) | (entry == RX_RING - 1 ? DescEndRing : 0));
}

/* A frame from gen: IPv4/UDP whose payload is k (big-endian) then
 * (k*7 + i).  The pattern is checked every 13 bytes, which is cheap enough
 * at line rate; every byte goes into rx_sum, so runs whose bytes differ
 * (raw vs per-word DMA) print different sums.  b is 2 bytes past an 8-byte
 * boundary: from offset 6 the frame is read in aligned 64-bit words. */
static void check_frame(const u8 *b, unsigned len)
{
    u64 sum = 0;
    unsigned i = 0;
    for (; i < 6 && i < len; i++)
        sum += (u64)b[i] << (8 * (i & 7));
    for (; i + 8 <= len; i += 8)
        sum += *(const u64 *)(b + i);
    for (; i < len; i++)
        sum += (u64)b[i] << (8 * (i & 7));
    rx_sum += sum;
    if (len < 46 || b[12] != 0x08 || b[13] != 0x00 || b[23] != 17) {
        rx_bad++;
        return;
    }
    const u8 *p = b + 42;
    unsigned n = len - 42;
    u32 k = get32(p);
    for (unsigned j = 4; j < n; j += 13)
        if (p[j] != payload_byte(k, j)) {
            rx_bad++;
            return;
        }
    if (p[n - 1] != payload_byte(k, n - 1)) {
        rx_bad++;
        return;
    }
    rx_good++;
}

static void hamachi_rx(void)
{
    for (;;) {
        unsigned entry = cur_rx % RX_RING;
        u32 st = le32(rx_ring[entry].status);
        if (st & DescOwn)
            break;
        unsigned size = st & 0xffff;
        const u8 *b = rx_buf[entry] + 2;
        u32 fs = b[size - 12] | b[size - 11] << 8 | (u32)b[size - 10] << 16;
        unsigned len = (fs & 0x7ff) - 4;
        if (!(st & DescEndPacket) || (fs & 0x00380000))
            rx_bad++;
        else
            check_frame(b, len);
        if (!rx_frames)
            rx_first_rt = rt_count();
        rx_last_rt = rt_count();
        rx_frames++;
        rx_bytes += len;
        rx_refill(entry);
        cur_rx++;
    }
    if (rw(RxStatus) & 2)
        ww(RxCmd, 1);
}

static void hamachi_interrupt(int level, void *arg)
{
    (void)level;
    (void)arg;
    for (;;) {
        u32 intr = rl(InterruptClear);
        if (!intr)
            break;
        if (intr & IntrRxDone)
            hamachi_rx();
        if (intr & IntrTxDone) {
            txdone_irqs++;
            tx_reclaim();
        }
    }
}

/* ---- open ------------------------------------------------------------------------- */

static int hamachi_open(int slot, u32 tx_intr_ctrl)
{
    regs = pci_bar0(slot);
    if (!regs)
        return -1;
    pci_cfg_write(slot, 4, 2, pci_cfg_read(slot, 4, 2) | 0x6); /* memory, bus master */
    /* DMA as a byte stream (SWAP_DIR), as Linux sets it for every slot. */
    bridge_write(BRIDGE_DEVICE(slot), bridge_read(BRIDGE_DEVICE(slot)) | 0x80000);
    wb(ChipReset, 1);
    for (int i = 0; i < 1000 && !(rb(PCIClkMeas) & 0x80); i++)
        rt_delay_us(10);
    for (int i = 0; i < 6; i++)
        mac[i] = read_eeprom(4 + i);
    ww(ANXchngCtrl, 0x0400);
    ww(ANAdvertise, 0x08e0);
    ww(ANCtrl, 0x1000);
    for (int i = 0; i < TX_RING; i++)
        tx_ring[i].status = i == TX_RING - 1 ? le32(DescEndRing) : 0;
    for (int i = 0; i < RX_RING; i++)
        rx_refill((unsigned)i);
    wl(RxPtr, (u32)dma_addr(rx_ring));
    wl(RxPtrHi, (u32)(dma_addr(rx_ring) >> 32));
    wl(TxPtr, (u32)dma_addr(tx_ring));
    wl(TxPtrHi, (u32)(dma_addr(tx_ring) >> 32));
    for (int i = 0; i < 6; i++)
        wb(StationAddr + i, mac[i]);
    ww(RxChecksum, 1);
    ww(TxChecksum, 0);
    ww(MACCnfg, 0x8000);
    ww(MACCnfg, 0x215f);
    ww(FrameGap0, 0x000c);
    ww(FrameGap1, 0x1018);
    ww(MACCnfg2, 0x0780);
    wl(FlowCtrl, 0x0030ffff);
    ww(MaxFrameSize, 1518);
    wb(LEDCtrl, 0x03);
    wl(TxIntrCtrl, tx_intr_ctrl);
    wl(RxIntrCtrl, 0x00180511); /* Linux: min 0x18, gap 5, latency 0x11 */
    ww(AddrMode, 0x0001);
    bridge_irq_route(slot, LEVEL);
    irq_connect(LEVEL, hamachi_interrupt, NULL);
    wl(InterruptEnable, 0x80878787);
    ww(EventStatus, 0);
    ww(RxDMACtrl, 0x005d);
    ww(TxDMACtrl, 0x005d);
    ww(RxCmd, 1);
    /* Autonegotiation was started at probe time: wait for the link (ANStatus
     * 0x20) before sending, or the MAC has nowhere to put the frames. */
    for (int i = 0; i < 1000 && !(rw(ANStatus) & 0x20); i++)
        rt_delay_us(100);
    wb(LEDCtrl, rw(ANStatus) & 0x20 ? 0x01 : 0x03);
    return 0;
}

/* ---- main -------------------------------------------------------------------------- */

static int run_tx(unsigned count, unsigned size, int intr_all, unsigned wait_ms)
{
    unsigned stalled = 0;
    u64 limit = (u64)wait_ms * (RT_HZ / 1000);
    for (u32 k = 0; k < count && !stalled; k++) {
        u64 since = rt_count();
        /* Like the drivers: stop the queue with 4 slots left. */
        while (cur_tx - dirty_tx >= TX_RING - 4) {
            if (rt_count() - since > limit) {
                stalled = 1;
                break;
            }
        }
        if (!stalled)
            start_xmit(size, intr_all, k);
    }
    u64 since = rt_count();
    while (!stalled && cur_tx != dirty_tx && rt_count() - since < limit)
        if (!reclaim_in_isr_only)
            tx_reclaim();
    printf("hamachi: tx sent=%u reclaimed=%u txdone_irqs=%u stalled=%u\n", cur_tx, dirty_tx,
           txdone_irqs, stalled);
    return stalled;
}

static int run_rx(unsigned count, unsigned wait_ms)
{
    /* One datagram out first: a peer started with gen:...,start=tx begins
     * when it sees it, i.e. once the receiver is ready. */
    start_xmit(60, 1, 0);
    u64 limit = (u64)wait_ms * (RT_HZ / 1000), since = rt_count();
    unsigned seen = 0;
    while (rx_frames < count) {
        if (rx_frames != seen) {
            seen = rx_frames;
            since = rt_count();
        } else if (rt_count() - since > limit) {
            break;
        }
    }
    u64 us = (rx_last_rt - rx_first_rt) * 1000000ul / RT_HZ;
    u64 mbps_x1000 = us ? rx_bytes * 8 * 1000 / us : 0;
    printf("hamachi: rx frames=%u good=%u bad=%u bytes=%lu cksum=0x%lx time_us=%lu "
           "rate_Mbps=%lu.%03lu\n",
           rx_frames, rx_good, rx_bad, rx_bytes, rx_sum, us, mbps_x1000 / 1000,
           mbps_x1000 % 1000);
    return rx_frames == count && rx_bad == 0 ? 0 : 1;
}

static unsigned opt_wait_ms = 50;
static int opt_intr_all = 1;

/* The words of this driver's own: wait=MS, intr=last, reclaim=isr. */
static void hamachi_word(const char *a)
{
    if (prefix(a, "wait="))
        opt_wait_ms = atou(a + 5);
    else if (streq(a, "intr=last"))
        opt_intr_all = 0;
    else if (streq(a, "reclaim=isr"))
        reclaim_in_isr_only = 1;
}

int main(int argc, char **argv)
{
    unsigned count = 100, size = 1024;
    int mode = 't';
    arg_mode_count_size(argc, argv, (const char *const[]){"tx", "rx", NULL}, &mode, &count, &size,
                        hamachi_word);
    int tx = mode == 't', intr_all = opt_intr_all;
    int slot = pci_find(0x1318, 0x0911);
    if (slot < 0) {
        printf("hamachi: no GNIC-II on the Bridge (xbow --nic hamachi)\n");
        return 1;
    }
    irq_init();
    /* Linux's Tx mitigation: min 0x30 packets, no timers ("Tx should
     * interrupt VERY infrequently"); Becker's: min 8. */
    if (hamachi_open(slot, intr_all ? 0x00300000 : 0x00080000) != 0) {
        printf("hamachi: BAR0 not assigned\n");
        return 1;
    }
    irq_enable();
    printf("hamachi: slot %d, MAC %02x:%02x:%02x:%02x:%02x:%02x, %s\n", slot, mac[0], mac[1],
           mac[2], mac[3], mac[4], mac[5], tx ? "transmit" : "receive");
    int rc = tx ? run_tx(count, size, intr_all, opt_wait_ms) : run_rx(count, opt_wait_ms);
    irq_disable();
    return rc;
}
