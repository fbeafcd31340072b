/* SPDX-License-Identifier: GPL-2.0-or-later */ /* The Tigon2 guest driver of the examples.  See tg.h.  The order of the
 * set-up follows the Alteon host interface as Linux acenic and FreeBSD ti
 * use it (docs/hardware.md, "Tigon2"); this is a teaching driver: one NIC, polled sends,
 * receive and completion work in the interrupt handler. */
#include "tg.h"

/* BAR0 offsets (Linux acenic.h, FreeBSD if_tireg.h). */
enum {
    HostCtrl = 0x40, LocalCtrl = 0x44, MiscCfg = 0x50, WinBase = 0x68, AssistState = 0x11c,
    CpuCtrl = 0x140, Pc = 0x144, CpuBCtrl = 0x240, Mb0Lo = 0x504, CmdPrd = 0x50c,
    TxPrd = 0x514, RxStdPrd = 0x51c, RxJumboPrd = 0x524, MacAddrHi = 0x600, MacAddrLo = 0x604,
    InfoPtrHi = 0x608, InfoPtrLo = 0x60c, ModeStat = 0x618, DmaReadCfg = 0x61c,
    DmaWriteCfg = 0x620, EvtCsm = 0x628, CmdCsm = 0x62c, RxCoal = 0x630, TxCoal = 0x634,
    StatTicks = 0x638, TxMaxBD = 0x63c, RxMaxBD = 0x640, TuneLink = 0x648,
    TuneFastLink = 0x64c, IfIdx = 0x65c, IfMtu = 0x660, MaskInt = 0x664, RxRetCsm = 0x680,
    CmdRng = 0x700, Window = 0x800
};
#define HC_IN_INT 0x01
#define HC_CLR_INT 0x02
#define HC_HW_RESET 0x08
#define HC_WORD_SWAP 0x20
#define CPU_HALT 0x10000
#define CPU_STEP 0x02
#define EE_CLK 0x100000
#define EE_OE 0x200000
#define EE_DOUT 0x400000
#define EE_DIN 0x800000
/* OPMODE for a big-endian host with byte-stream DMA (the Bridge's SWAP_DIR),
 * as Linux sets it: descriptors big-endian, address high word first,
 * payload in address order, do not fragment jumbo frames. */
#define OPMODE (0x10 | 0x08 | 0x40000000 | 0x02 | 0x04 | 0x200)
#define BD_END 0x04
#define BD_JUMBO 0x10
#define RCB_HOST_RING 0x40
#define RCB_COAL_UPDATE_ONLY 0x20
#define RCB_DISABLED 0x200
#define LNK_DEFAULT (0x40000000 | 0x20000000 | 0x10000000 | 0x00800000 | 0x00200000 | \
                     0x00080000 | 0x00040000 | 0x00020000 | 0x00010000)
#define BRIDGE_DEV_SWAP_DIR 0x80000
#define PCI_CMD_MEM 0x2
#define PCI_CMD_MASTER 0x4
#define IRQ_LEVEL 30 /* a HUB level for the NIC's Bridge pin */

typedef struct rcb { u32 hi, lo, ctl, unused; } rcb;
typedef struct rxbd { u32 hi, lo, idx_len, type_flags, csum, err_vlan, resv, opaque; } rxbd;
typedef struct txbd { u32 hi, lo, len_flags, vlan; } txbd;
typedef struct gib {
    u32 stats[256];
    rcb evt, cmd, tx, std, jumbo, mini, ret;
    u32 evt_prd_hi, evt_prd_lo, ret_prd_hi, ret_prd_lo, tx_csm_hi, tx_csm_lo, st2_hi, st2_lo;
} gib;

/* Host memory the NIC reaches by DMA (node memory is coherent with DMA). */
static gib g __attribute__((aligned(64)));
static volatile u32 evt_ring[256 * 2] __attribute__((aligned(64)));
static volatile u32 evt_prd, ret_prd, tx_csm;
static txbd tx_ring[TG_TX_ENTRIES] __attribute__((aligned(64)));
static rxbd std_ring[512] __attribute__((aligned(64)));
static rxbd jumbo_ring[256] __attribute__((aligned(64)));
static volatile rxbd ret_ring[2048] __attribute__((aligned(64)));
static u8 tx_buf[TG_TX_ENTRIES][TG_JUMBO_BUF + 6] __attribute__((aligned(8)));
static u8 std_buf[TG_STD_POSTED][TG_STD_BUF] __attribute__((aligned(8)));
static u8 jumbo_buf[TG_JUMBO_POSTED][TG_JUMBO_BUF + 6] __attribute__((aligned(8)));

static struct {
    u64 base;
    int slot, jumbo;
    u8 mac[6];
    tg_rx_fn rx;
    u32 tx_prd, evt_csm, ret_csm, std_prd, jumbo_prd;
    volatile u32 tx_done;
    volatile int fw_up, link_up;
    tg_stats st;
} T;

static inline void sync(void) { __asm__ volatile("sync" ::: "memory"); }
static inline u32 rd(u32 off) { return *(volatile u32 *)(T.base + off); }
static inline void wr(u32 off, u32 v)
{
    sync();
    *(volatile u32 *)(T.base + off) = v;
}
/* PCI address of host memory: the Bridge's direct window (PROM DIR_MAP). */
static u32 pci(const volatile void *p) { return 0x80000000u | (u32)((u64)p & 0x7fffffffu); }

u64 tg_ms_now(void) { return rt_count() / (RT_HZ / 1000); }
const u8 *tg_mac(void) { return T.mac; }
const tg_stats *tg_stats_get(void) { return &T.st; }

/* ---- EEPROM (AT24C32 on I2C, bit-banged through LocalCtrl) ------------------ */

static u32 lc;
static void lcw(u32 v)
{
    lc = v;
    wr(LocalCtrl, v);
    rt_delay_us(2);
}

static int ee_byte(u32 off)
{
    u8 seq[4] = {0xa0, (u8)(off >> 8), (u8)off, 0xa1};
    lc = rd(LocalCtrl) & ~EE_DIN;
    for (int b = 0; b < 4; b++) {
        if (b == 0 || b == 3) { /* START: data falls while the clock is high */
            lcw(lc | EE_DOUT | EE_OE);
            lcw(lc | EE_CLK);
            lcw(lc & ~EE_DOUT);
            lcw(lc & ~EE_CLK);
        }
        lcw((lc & ~EE_DOUT) | EE_OE);
        for (int i = 7; i >= 0; i--) {
            lcw((seq[b] >> i) & 1 ? lc | EE_DOUT : lc & ~EE_DOUT);
            lcw(lc | EE_CLK);
            lcw(lc & ~(EE_CLK | EE_DOUT));
        }
        lcw(lc & ~EE_OE); /* the EEPROM acknowledges by pulling data low */
        lcw(lc | EE_CLK);
        int nak = (rd(LocalCtrl) & EE_DIN) != 0;
        lcw(lc & ~EE_CLK);
        if (nak)
            return -1;
    }
    int v = 0;
    for (int i = 0; i < 8; i++) {
        lcw(lc | EE_CLK);
        v = v << 1 | ((rd(LocalCtrl) & EE_DIN) != 0);
        lcw(lc & ~EE_CLK);
    }
    lcw(lc | EE_OE | EE_DOUT); /* no acknowledge: the last byte */
    lcw(lc | EE_CLK);
    lcw(lc & ~EE_CLK);
    lcw(lc & ~EE_DOUT); /* STOP: data rises while the clock is high */
    lcw(lc | EE_CLK);
    lcw(lc | EE_DOUT);
    lcw(lc & ~EE_CLK);
    return v;
}

/* ---- commands, interrupts -------------------------------------------------------- */

static void cmd(u32 code, u32 sub, u32 idx)
{
    u32 i = rd(CmdPrd) % 64;
    wr(CmdRng + 4 * i, code << 24 | sub << 12 | idx);
    wr(CmdPrd, (i + 1) % 64);
}

static void post(int jumbo, u32 slot, u32 buf)
{
    rxbd *r = jumbo ? &jumbo_ring[slot] : &std_ring[slot];
    void *b = jumbo ? (void *)jumbo_buf[buf] : (void *)std_buf[buf];
    r->hi = 0;
    r->lo = pci(b);
    r->idx_len = slot << 16 | (jumbo ? TG_JUMBO_BUF : TG_STD_BUF);
    r->type_flags = jumbo ? BD_JUMBO : 0;
    r->csum = r->err_vlan = r->resv = 0;
    r->opaque = buf;
}

static void isr(int level, void *arg)
{
    (void)level;
    (void)arg;
    if (!(rd(HostCtrl) & HC_IN_INT))
        return;
    T.st.irqs++;
    wr(Mb0Lo, 0); /* ack first: updates after this interrupt again */
    (void)rd(Mb0Lo);
    u32 prd = ret_prd % 2048, std = 0, jumbo = 0;
    while (T.ret_csm != prd) {
        volatile rxbd *r = &ret_ring[T.ret_csm];
        u32 flags = r->type_flags & 0xffff, len = r->idx_len & 0xffff, buf = r->opaque;
        int j = (flags & BD_JUMBO) != 0;
        const u8 *data = j ? jumbo_buf[buf % TG_JUMBO_POSTED] : std_buf[buf % TG_STD_POSTED];
        T.st.rx_frames++;
        if (T.rx)
            T.rx(data, len, flags);
        /* The buffer goes straight back, in the next producer slot. */
        if (j) {
            post(1, T.jumbo_prd, buf % TG_JUMBO_POSTED);
            T.jumbo_prd = (T.jumbo_prd + 1) % 256;
            jumbo++;
        } else {
            post(0, T.std_prd, buf % TG_STD_POSTED);
            T.std_prd = (T.std_prd + 1) % 512;
            std++;
        }
        T.ret_csm = (T.ret_csm + 1) % 2048;
    }
    if (std)
        wr(RxStdPrd, T.std_prd);
    if (jumbo)
        wr(RxJumboPrd, T.jumbo_prd);
    T.tx_done = tx_csm;
    u32 csm = rd(EvtCsm), eprd = evt_prd % 256;
    while (csm != eprd) {
        u32 e = evt_ring[2 * csm];
        T.st.events++;
        switch (e >> 24) {
        case 0x01: T.fw_up = 1; break;                              /* FW_RUNNING */
        case 0x06: T.link_up = ((e >> 12) & 0xfff) != 2;            /* LINK_STATE */
                   T.st.link_ups += T.link_up; break;
        case 0x07: T.st.errors++; break;                            /* ERROR */
        default: break;
        }
        csm = (csm + 1) % 256;
    }
    wr(EvtCsm, csm);
}

/* ---- open / send / close ---------------------------------------------------------- */

static int wait_for(volatile int *flag, u32 ms)
{
    u64 end = tg_ms_now() + ms;
    while (!*flag)
        if (tg_ms_now() > end)
            return -1;
    return 0;
}

static void set64(u32 *hi, u32 *lo, const volatile void *p)
{
    *hi = 0;
    *lo = pci(p);
}

int tg_open(int jumbo, tg_rx_fn rx)
{
    memset(&T, 0, sizeof T);
    T.rx = rx;
    T.jumbo = jumbo;
    T.slot = pci_find(0x10a9, 0x0009);
    if (T.slot < 0)
        T.slot = pci_find(0x12ae, 0x0001);
    if (T.slot < 0) {
        printf("tigon: no Tigon2 on the Bridge (give xbow --nic tigon2)\n");
        return -1;
    }
    T.base = pci_bar0(T.slot);
    pci_cfg_write(T.slot, 4, 2, pci_cfg_read(T.slot, 4, 2) | PCI_CMD_MEM | PCI_CMD_MASTER);
    /* Byte-stream direct DMA for this slot, as Linux sets for PCI devices. */
    bridge_write(BRIDGE_DEVICE(T.slot), bridge_read(BRIDGE_DEVICE(T.slot)) | BRIDGE_DEV_SWAP_DIR);
    wr(HostCtrl, HC_HW_RESET | HC_HW_RESET << 24);
    rt_delay_us(20);
    wr(HostCtrl, (HC_WORD_SWAP | HC_CLR_INT) * 0x01000001u);
    wr(CpuCtrl, rd(CpuCtrl) | CPU_HALT);
    wr(Mb0Lo, 0);
    if (rd(HostCtrl) >> 28 != 6) {
        printf("tigon: not a Tigon II (revision %u)\n", rd(HostCtrl) >> 28);
        return -1;
    }
    wr(CpuBCtrl, rd(CpuBCtrl) | CPU_HALT);
    wr(LocalCtrl, 0x200);    /* SRAM banks of 512 KB */
    wr(MiscCfg, 0x100000);   /* synchronous SRAM timing */
    wr(ModeStat, OPMODE);    /* after the SRAM settings */
    for (int i = 0; i < 6; i++) {
        int b = ee_byte(0x8e + (u32)i);
        if (b < 0) {
            printf("tigon: EEPROM does not answer\n");
            return -1;
        }
        T.mac[i] = (u8)b;
    }
    wr(MacAddrHi, (u32)T.mac[0] << 8 | T.mac[1]);
    wr(MacAddrLo, (u32)T.mac[2] << 24 | (u32)T.mac[3] << 16 | (u32)T.mac[4] << 8 | T.mac[5]);
    /* The firmware image.  The emulated NIC runs its firmware as a model
     * and only checks that code was downloaded where the CPU starts. */
    static const u32 fw[4] = {0x3c1d0001, 0x37bd8000, 0x0c001004, 0x00000000};
    wr(WinBase, 0x4000);
    for (int i = 0; i < 4; i++)
        wr(Window + 4 * (u32)i, fw[i]);
    /* The general information block, rings and index words. */
    memset(&g, 0, sizeof g);
    memset((void *)evt_ring, 0, sizeof evt_ring);
    memset(tx_ring, 0, sizeof tx_ring);
    memset(std_ring, 0, sizeof std_ring);
    memset(jumbo_ring, 0, sizeof jumbo_ring);
    evt_prd = ret_prd = tx_csm = 0;
    wr(InfoPtrHi, 0);
    wr(InfoPtrLo, pci(&g));
    set64(&g.evt.hi, &g.evt.lo, evt_ring);
    set64(&g.evt_prd_hi, &g.evt_prd_lo, &evt_prd);
    wr(EvtCsm, 0);
    g.cmd.lo = 0x100; /* the NIC knows where its command ring is */
    for (u32 i = 0; i < 64; i++)
        wr(CmdRng + 4 * i, 0);
    wr(CmdPrd, 0);
    wr(CmdCsm, 0);
    set64(&g.st2_hi, &g.st2_lo, g.stats);
    set64(&g.std.hi, &g.std.lo, std_ring);
    g.std.ctl = 1518u << 16;
    set64(&g.jumbo.hi, &g.jumbo.lo, jumbo_ring);
    g.jumbo.ctl = jumbo ? 0 : RCB_DISABLED;
    g.mini.ctl = RCB_DISABLED;
    set64(&g.ret.hi, &g.ret.lo, ret_ring);
    g.ret.ctl = 2048u << 16;
    set64(&g.ret_prd_hi, &g.ret_prd_lo, &ret_prd);
    set64(&g.tx.hi, &g.tx.lo, tx_ring);
    g.tx.ctl = (u32)TG_TX_ENTRIES << 16 | RCB_HOST_RING | RCB_COAL_UPDATE_ONLY;
    set64(&g.tx_csm_hi, &g.tx_csm_lo, &tx_csm);
    wr(DmaReadCfg, 0x80);
    wr(DmaWriteCfg, 0x80);
    wr(MaskInt, 0);
    wr(IfIdx, 1);
    wr(StatTicks, 2000000);
    wr(TxCoal, jumbo ? 20 : 400);  /* Linux's defaults */
    wr(TxMaxBD, 60);
    wr(RxCoal, jumbo ? 30 : 120);
    wr(RxMaxBD, jumbo ? 6 : 25);
    wr(TuneLink, LNK_DEFAULT);
    wr(TuneFastLink, LNK_DEFAULT);
    /* Interrupts: INTA of slot s is Bridge pin s. */
    irq_init();
    bridge_irq_route(T.slot, IRQ_LEVEL);
    irq_connect(IRQ_LEVEL, isr, NULL);
    irq_enable();
    wr(Pc, 0x4000);
    wr(Mb0Lo, 0);
    wr(TxPrd, 0);
    wr(RxRetCsm, 0);
    wr(AssistState, 1);
    wr(CpuCtrl, rd(CpuCtrl) & ~(u32)(CPU_HALT | CPU_STEP));
    if (wait_for(&T.fw_up, 3000)) {
        printf("tigon: firmware not running (CpuCtrl 0x%x)\n", rd(CpuCtrl));
        return -1;
    }
    wr(IfMtu, (jumbo ? 9000 : 1500) + 18);
    cmd(0x0f, 0, 0); /* CLEAR_STATS */
    cmd(0x01, 1, 0); /* HOST_STATE up */
    for (u32 i = 0; i < TG_STD_POSTED; i++)
        post(0, i, i);
    T.std_prd = TG_STD_POSTED;
    wr(RxStdPrd, T.std_prd);
    if (jumbo) {
        for (u32 i = 0; i < TG_JUMBO_POSTED; i++)
            post(1, i, i);
        T.jumbo_prd = TG_JUMBO_POSTED;
        wr(RxJumboPrd, T.jumbo_prd);
    }
    if (wait_for(&T.link_up, 3000)) {
        printf("tigon: no link\n");
        return -1;
    }
    printf("tigon: slot %d, MAC %02x:%02x:%02x:%02x:%02x:%02x, firmware up, link up%s\n",
           T.slot, T.mac[0], T.mac[1], T.mac[2], T.mac[3], T.mac[4], T.mac[5],
           jumbo ? ", MTU 9000" : "");
    return 0;
}

int tg_send(const void *frame, u32 len)
{
    if (len > TG_JUMBO_BUF)
        return -1;
    u64 end = tg_ms_now() + 1000;
    while ((T.tx_prd + 1) % TG_TX_ENTRIES == T.tx_done % TG_TX_ENTRIES) /* keep one free */
        if (tg_ms_now() > end)
            return -1;
    u32 i = T.tx_prd;
    memcpy(tx_buf[i], frame, len);
    tx_ring[i].hi = 0;
    tx_ring[i].lo = pci(tx_buf[i]);
    tx_ring[i].len_flags = len << 16 | BD_END;
    tx_ring[i].vlan = 0;
    T.tx_prd = (i + 1) % TG_TX_ENTRIES;
    wr(TxPrd, T.tx_prd);
    return 0;
}

int tg_flush(u32 ms)
{
    u64 end = tg_ms_now() + ms;
    while (T.tx_done % TG_TX_ENTRIES != T.tx_prd)
        if (tg_ms_now() > end)
            return -1;
    T.st.tx_done = T.tx_done;
    return 0;
}

void tg_close(void)
{
    cmd(0x01, 2, 0); /* HOST_STATE down */
    rt_delay_us(100);
    wr(CpuCtrl, rd(CpuCtrl) | CPU_HALT);
    wr(Mb0Lo, 1); /* clears what is pending */
    irq_disable();
}

/* ---- frames ---------------------------------------------------------------------- */

void tg_build_udp(u8 *f, u32 len, const u8 *dst, u32 k)
{
    u8 *u = udp_frame(f, len, dst, T.mac, k, 0x4000, 9, 9, k);
    u32 ulen = len - 34;
    u32 pseudo = (IP_ME >> 16) + (IP_ME & 0xffff) + (IP_PEER >> 16) +
                 (IP_PEER & 0xffff) + 17 + ulen;
    u16 c = (u16)~tg_csum(u, ulen, pseudo);
    put16(u + 6, c ? c : 0xffff);
}

int tg_check_udp(const u8 *f, u32 len, u32 *k, u32 *plen)
{
    if (len < 46 || get16(f + 12) != 0x0800 || f[14] != 0x45 || f[23] != 17)
        return 0;
    u32 iplen = get16(f + 16);
    if (iplen + 14 > len || iplen < 32 || tg_csum(f + 14, 20, 0) != 0xffff)
        return 0;
    const u8 *u = f + 34;
    u32 ulen = get16(u + 4);
    if (ulen != iplen - 20 || ulen < 12)
        return 0;
    const u8 *pl = u + 8;
    *plen = ulen - 8;
    *k = get32(pl);
    return payload_ok(pl, 4, *plen, *k);
}
