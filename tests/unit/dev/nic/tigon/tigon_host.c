/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The driver-side harness for the Tigon2 tests.  See tigon_host.h.  The
 * sequences follow Linux acenic (ace_init, ace_open, ace_interrupt,
 * ace_load_*_rx_ring, ace_start_xmit); facts only, see docs/hardware.md. */
#include "tigon_host.h"

#include <stdio.h>
#include <stdlib.h>

const uint8_t TGH_MAC[6] = {0x08, 0x00, 0x69, 0x12, 0x34, 0x56};

tgh_cfg tgh_linux_cfg(bool be)
{
    tgh_cfg c;
    memset(&c, 0, sizeof c);
    c.opmode = be ? OM_BE : OM_LE;
    c.host_ctrl = TG_HC_WORD_SWAP | TG_HC_CLR_INT;
    c.tx_entries = 256;
    c.tx_flags = TG_RCB_TCP_UDP_SUM | TG_RCB_NO_PSEUDO_HDR | TG_RCB_VLAN_ASSIST | TG_RCB_HOST_RING |
                 TG_RCB_COAL_UPDATE_ONLY;
    c.std_max = 1518;
    c.mini_max = 100;
    c.ret_entries = 2048;
    c.rx_coal = 120;
    c.rx_max = 25;
    c.tx_coal = 400;
    c.tx_max = 60;
    c.stat_ticks = 2000000;
    c.link = TG_LNK_ENABLE | TG_LNK_FULL_DUPLEX | TG_LNK_1000MB | TG_LNK_100MB | TG_LNK_10MB |
             TG_LNK_RX_FLOW | 0x10000000 | TG_LNK_NEGOTIATE | TG_LNK_TX_FLOW;
    c.mtu = 1500;
    return c;
}

void tgh_setup(tg_host *h, const char *model, bool be)
{
    xerr err;
    memset(h, 0, sizeof *h);
    nic_opts o = {.net = "none", .mac = TGH_MAC};
    if (!nic_rig_open(&h->rig, model, "tigon0", &o, H_RAM, true, &err)) {
        fprintf(stderr, "tgh_setup: %s\n", err.msg);
        abort();
    }
    h->t = (tigon *)h->n;
    h->be = be;
    h->cfg = tgh_linux_cfg(be);
}

void tgh_teardown(tg_host *h) { nic_rig_close(&h->rig); }

void tgh_wr(tg_host *h, unsigned off, uint32_t v)
{
    uint64_t x = h->pio_raw ? bswap32(v) : v;
    pci_bar_access(h->f, 0, 0, off, 4, &x, true);
}

uint32_t tgh_rd(tg_host *h, unsigned off)
{
    uint64_t x = 0;
    pci_bar_access(h->f, 0, 0, off, 4, &x, false);
    return h->pio_raw ? bswap32((uint32_t)x) : (uint32_t)x;
}

void tgh_mw(tg_host *h, uint64_t addr, uint32_t v)
{
    uint8_t *p = fake_ptr(&h->host, addr, 4);
    if (!p)
        return;
    if (h->be)
        store_be(p, 4, v);
    else
        store_le(p, 4, v);
}

uint32_t tgh_mr(tg_host *h, uint64_t addr)
{
    uint8_t *p = fake_ptr(&h->host, addr, 4);
    if (!p)
        return 0xdeadbeef;
    return (uint32_t)(h->be ? load_be(p, 4) : load_le(p, 4));
}

static void mw64(tg_host *h, uint64_t addr, uint64_t v)
{
    tgh_mw(h, addr, (uint32_t)(v >> 32));
    tgh_mw(h, addr + 4, (uint32_t)v);
}

static void rcb(tg_host *h, unsigned k, uint64_t addr, uint16_t max_len, uint16_t flags)
{
    uint64_t a = H_GIB + TG_GIB_RCBS + 16 * k;
    mw64(h, a, addr);
    tgh_mw(h, a + 8, (uint32_t)max_len << 16 | flags);
    tgh_mw(h, a + 12, 0);
}

void tgh_download(tg_host *h, uint32_t at, const uint32_t *w, unsigned n)
{
    for (unsigned i = 0; i < n; i++, at += 4) {
        tgh_wr(h, WinBase, at & ~0x7ffu);
        tgh_wr(h, Window + (at & 0x7ff), w ? w[i] : 0);
    }
}

void tgh_init(tg_host *h, const tgh_cfg *c)
{
    h->cfg = *c;
    tgh_wr(h, HostCtrl, TG_HC_HW_RESET | TG_HC_HW_RESET << 24); /* swap-proof values */
    tgh_wr(h, HostCtrl, c->host_ctrl | c->host_ctrl << 24);
    h->pio_raw = (c->host_ctrl & TG_HC_BYTE_SWAP) != 0;
    tgh_wr(h, CpuCtrl, tgh_rd(h, CpuCtrl) | TG_CPU_HALT);
    tgh_wr(h, Mb0Lo, 0);
    tgh_wr(h, CpuBCtrl, tgh_rd(h, CpuBCtrl) | TG_CPU_HALT);
    tgh_wr(h, LocalCtrl, 0x200);
    tgh_wr(h, MiscCfg, 0x100000);
    tgh_wr(h, ModeStat, c->opmode);
    tgh_wr(h, MacAddrHi, (uint32_t)load_be(TGH_MAC, 2));
    tgh_wr(h, MacAddrLo, (uint32_t)load_be(TGH_MAC + 2, 4));
    if (!c->no_firmware) {
        if (c->full_clear)
            tgh_download(h, 0x2000, NULL, (0x80000 - 0x2000) / 4);
        uint32_t img[64];
        for (unsigned i = 0; i < 64; i++)
            img[i] = 0x27bd0000u + i; /* opaque: the model never runs it */
        tgh_download(h, 0x4000, img, 64);
    }
    tgh_wr(h, InfoPtrHi, (uint32_t)(H_GIB >> 32));
    tgh_wr(h, InfoPtrLo, (uint32_t)H_GIB);
    memset(fake_ptr(&h->host, H_EVT, 0x800), 0, 0x800);
    rcb(h, TG_RCB_EVENT, H_EVT, 0, 0);
    tgh_mw(h, H_EVT_PRD, 0);
    mw64(h, H_GIB + TG_GIB_PTRS, H_EVT_PRD);
    tgh_wr(h, EvtCsm, 0);
    rcb(h, TG_RCB_CMD, 0x100, 0, 0);
    for (unsigned i = 0; i < 64; i++)
        tgh_wr(h, CmdRng + 4 * i, 0);
    tgh_wr(h, CmdPrd, 0);
    tgh_wr(h, CmdCsm, 0);
    mw64(h, H_GIB + TG_GIB_PTRS + 24, H_STATS2);
    const uint16_t rxf = TG_RCB_TCP_UDP_SUM | TG_RCB_NO_PSEUDO_HDR | TG_RCB_VLAN_ASSIST;
    rcb(h, TG_RCB_STD, H_STD, c->std_max, rxf);
    rcb(h, TG_RCB_JUMBO, H_JUMBO, 0, rxf | (c->jumbo_disabled ? TG_RCB_DISABLED : 0));
    rcb(h, TG_RCB_MINI, H_MINI, c->mini_max, rxf | (c->mini_disabled ? TG_RCB_DISABLED : 0));
    rcb(h, TG_RCB_RETURN, H_RET, c->ret_entries, 0);
    memset(fake_ptr(&h->host, H_STD, 0x8000), 0, 0x8000);
    for (unsigned i = 0; i < TG_STD_ENTRIES; i++)
        tgh_mw(h, H_STD + 32 * i + 12, TG_BD_TCP_UDP_SUM);
    mw64(h, H_GIB + TG_GIB_PTRS + 8, H_RET_PRD);
    tgh_mw(h, H_RET_PRD, 0);
    memset(fake_ptr(&h->host, H_TX, 0x2000), 0, 0x2000);
    rcb(h, TG_RCB_SEND, c->tx_addr ? c->tx_addr : H_TX, c->tx_entries, c->tx_flags);
    mw64(h, H_GIB + TG_GIB_PTRS + 16, H_TX_CSM);
    tgh_mw(h, H_TX_CSM, 0);
    tgh_wr(h, DmaReadCfg, 0x80);
    tgh_wr(h, DmaWriteCfg, 0x80);
    tgh_wr(h, MaskInt, 0);
    tgh_wr(h, IfIdx, 1);
    tgh_wr(h, StatTicks, c->stat_ticks);
    tgh_wr(h, TxCoal, c->tx_coal);
    tgh_wr(h, TxMaxBD, c->tx_max);
    tgh_wr(h, RxCoal, c->rx_coal);
    tgh_wr(h, RxMaxBD, c->rx_max);
    tgh_wr(h, TxBufRat, 21);
    tgh_wr(h, TuneLink, c->link);
    tgh_wr(h, TuneFastLink, c->link);
    tgh_wr(h, Pc, 0x4000);
    tgh_wr(h, Mb0Lo, 0);
    h->cmd_prd = h->tx_prd = h->tx_csm = h->ret_csm = 0;
    h->std_prd = h->jumbo_prd = h->mini_prd = 0;
    h->fw_running = false;
    tgh_wr(h, TxPrd, 0);
    tgh_wr(h, RxRetCsm, 0);
    tgh_wr(h, AssistState, 1);
    tgh_wr(h, CpuCtrl, tgh_rd(h, CpuCtrl) & ~(TG_CPU_HALT | TG_CPU_STEP));
    h->isr_on = true;
    tgh_run(h, US(300));
}

void tgh_up(tg_host *h, const tgh_cfg *c, unsigned nstd, unsigned nmini)
{
    tgh_init(h, c);
    tgh_wr(h, IfMtu, c->mtu + 18);
    tgh_cmd(h, TG_C_CLEAR_STATS, 0, 0);
    tgh_cmd(h, TG_C_HOST_STATE, 1, 0);
    if (nstd)
        tgh_post(h, 0, nstd, 1518);
    if (nmini)
        tgh_post(h, 2, nmini, 100);
    tgh_run(h, US(1200)); /* commands, then link negotiation */
}

void tgh_cmd(tg_host *h, unsigned code, unsigned sub, unsigned idx)
{
    uint32_t i = tgh_rd(h, CmdPrd) % 64;
    tgh_wr(h, CmdRng + 4 * i, code << 24 | (sub & 0xfff) << 12 | (idx & 0xfff));
    tgh_wr(h, CmdPrd, (i + 1) % 64);
}

void tgh_post(tg_host *h, int ring, unsigned n, uint16_t size)
{
    uint64_t base = ring == 0 ? H_STD : ring == 1 ? H_JUMBO : H_MINI;
    uint32_t *prd = ring == 0 ? &h->std_prd : ring == 1 ? &h->jumbo_prd : &h->mini_prd;
    uint32_t entries = ring == 0 ? TG_STD_ENTRIES : ring == 1 ? TG_JUMBO_ENTRIES : TG_MINI_ENTRIES;
    uint32_t flags = TG_BD_TCP_UDP_SUM | (ring == 1 ? TG_BD_JUMBO : ring == 2 ? TG_BD_MINI : 0);
    for (unsigned i = 0; i < n; i++) {
        uint32_t slot = *prd;
        uint64_t buf = ring == 0 ? H_STDBUF(slot) : ring == 1 ? H_JUMBOBUF(slot) : H_MINIBUF(slot);
        uint64_t a = base + 32 * (uint64_t)slot;
        mw64(h, a, buf);
        tgh_mw(h, a + 8, slot << 16 | size);
        tgh_mw(h, a + 12, flags);
        for (unsigned k = 4; k < 7; k++)
            tgh_mw(h, a + 4 * k, 0);
        tgh_mw(h, a + 28, 0xc0de0000u | (uint32_t)ring << 12 | slot);
        *prd = (slot + 1) % entries;
    }
    tgh_wr(h, ring == 0 ? RxStdPrd : ring == 1 ? RxJumboPrd : RxMiniPrd, *prd);
}

uint32_t tgh_send(tg_host *h, const uint8_t *frame, uint32_t len, unsigned nfrags, uint32_t flags,
                  uint16_t vlan)
{
    uint32_t off = 0, per = nfrags ? len / nfrags : len;
    for (unsigned k = 0; k < nfrags; k++) {
        bool last = k + 1 == nfrags;
        uint32_t flen = last ? len - off : per, slot = h->tx_prd;
        uint64_t buf = H_TXBUF(slot), a = H_TX + 16 * (uint64_t)slot;
        if (flen)
            memcpy(fake_ptr(&h->host, buf, flen), frame + off, flen);
        mw64(h, a, buf);
        tgh_mw(h, a + 8,
               flen << 16 | flags | (last ? TG_BD_END : 0) | (k == 0 && vlan ? TG_BD_VLAN_TAG : 0));
        tgh_mw(h, a + 12, vlan);
        off += flen;
        h->tx_prd = (h->tx_prd + 1) % h->cfg.tx_entries;
    }
    tgh_wr(h, TxPrd, h->tx_prd);
    return h->tx_prd;
}

bool tgh_isr(tg_host *h)
{
    h->isr_calls++;
    if (!(tgh_rd(h, HostCtrl) & TG_HC_IN_INT))
        return false;
    tgh_wr(h, Mb0Lo, 0);
    tgh_rd(h, Mb0Lo);
    uint32_t retprd = tgh_mr(h, H_RET_PRD) % h->cfg.ret_entries;
    while (h->ret_csm != retprd) {
        tgh_rx *r = &h->rx[h->nrx++ % 1024];
        for (unsigned k = 0; k < 8; k++)
            r->w[k] = tgh_mr(h, H_RET + 32 * (uint64_t)h->ret_csm + 4 * k);
        h->ret_csm = (h->ret_csm + 1) % h->cfg.ret_entries;
        if (h->refill) {
            uint32_t fl = r->w[3] & 0xffff;
            int ring = (fl & TG_BD_JUMBO) ? 1 : (fl & TG_BD_MINI) ? 2 : 0;
            tgh_post(h, ring, 1, ring == 1 ? 9018 : ring == 2 ? 100 : 1518);
        }
    }
    h->tx_csm = tgh_mr(h, H_TX_CSM);
    uint32_t evtcsm = tgh_rd(h, EvtCsm), evtprd = tgh_mr(h, H_EVT_PRD) % TG_EVT_ENTRIES;
    while (evtcsm != evtprd) {
        uint32_t e = tgh_mr(h, H_EVT + 8 * (uint64_t)evtcsm);
        if (h->nevents < ARRAY_SIZE(h->events))
            h->events[h->nevents++] = e;
        if (e >> 24 == TG_E_FW_RUNNING)
            h->fw_running = true;
        if (e >> 24 == TG_E_RESET_JUMBO_RNG) {
            h->jumbo_prd = 0;
            tgh_wr(h, RxJumboPrd, 0);
        }
        evtcsm = (evtcsm + 1) % TG_EVT_ENTRIES;
    }
    tgh_wr(h, EvtCsm, evtcsm);
    h->isr_handled++;
    return true;
}

void tgh_run(tg_host *h, uint64_t ticks)
{
    sched *s = &h->clock;
    uint64_t end = s->now + ticks;
    for (;;) {
        if (h->isr_on && h->host.level && tgh_isr(h))
            continue; /* a new interrupt may already be pending */
        uint64_t next = sched_next(s);
        if (next > end)
            break;
        if (next > s->now)
            s->now = next;
        sched_run_due(s);
    }
    s->now = end;
}

bool tgh_saw_event(const tg_host *h, unsigned code, unsigned sub)
{
    for (unsigned i = 0; i < h->nevents; i++)
        if (h->events[i] >> 24 == code && ((h->events[i] >> 12) & 0xfff) == sub)
            return true;
    return false;
}

void tgh_frame(uint8_t *f, uint32_t len, const uint8_t *dst, uint32_t k)
{
    fake_frame(f, len, dst, 0x0800, k);
}

static uint16_t fold(uint32_t s)
{
    while (s >> 16)
        s = (s & 0xffff) + (s >> 16);
    return (uint16_t)s;
}

static uint32_t sum16(const uint8_t *p, uint32_t n)
{
    uint32_t s = 0;
    for (uint32_t i = 0; i + 1 < n; i += 2)
        s += (uint32_t)p[i] << 8 | p[i + 1];
    if (n & 1)
        s += (uint32_t)p[n - 1] << 8;
    return s;
}

void tgh_udp_frame(uint8_t *f, uint32_t len, const uint8_t *dst, uint32_t k)
{
    tgh_frame(f, len, dst, k);
    uint8_t *ip = f + 14, *udp = ip + 20;
    uint32_t iplen = len - 14, ulen = iplen - 20;
    memset(ip, 0, 28);
    ip[0] = 0x45;
    store_be(ip + 2, 2, iplen);
    ip[8] = 64;
    ip[9] = 17;
    store_be(ip + 12, 4, 0x0a000001);
    store_be(ip + 16, 4, 0x0a000002);
    store_be(ip + 10, 2, (uint16_t)~fold(sum16(ip, 20)));
    store_be(udp, 2, 1234);
    store_be(udp + 2, 2, 9);
    store_be(udp + 4, 2, ulen);
    uint32_t ps = sum16(ip + 12, 8) + 17 + ulen;
    uint16_t c = (uint16_t)~fold(ps + sum16(udp, ulen));
    store_be(udp + 6, 2, c ? c : 0xffff);
}

const uint8_t *tgh_rx_data(tg_host *h, const tgh_rx *r, uint32_t *len)
{
    uint64_t buf = (uint64_t)r->w[0] << 32 | r->w[1];
    *len = r->w[2] & 0xffff;
    return fake_ptr(&h->host, buf, *len ? *len : 1);
}
