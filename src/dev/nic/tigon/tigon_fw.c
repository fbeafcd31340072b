/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Tigon2 firmware, modelled in host code (docs/hardware.md, "Tigon2").
 *
 * The host sees the firmware only through the general communication region
 * (SRAM words it reads and writes), DMA of the general information block,
 * rings and index words, events, and interrupts.  This file provides that:
 *   - the NIC CPU: boot ROM after reset (HALT instruction executed), halt,
 *     start at Pc.  A start runs the modelled firmware if the host wrote the
 *     word at Pc (downloaded code); the downloaded image itself is kept in
 *     SRAM and never interpreted;
 *   - boot: the GIB (ring control blocks, host index pointers) read once,
 *     rings set up, FIRMWARE_OPERATIONAL posted, the link started from
 *     TuneLink/TuneFastLink, statistics DMA every TuneStatTicks;
 *   - the command ring (host -> NIC) and the event ring (NIC -> host);
 *   - interrupts: the firmware's requests latched in the nic_irq causes,
 *     gated by the Hi mailbox, MaskInt and HostCtrl MASK_INTS.
 * The DMA engines (send, receive, return rings) are in tigon_dma.c. */
#include "dev/nic/tigon/tigon.h"

#include <stdio.h>

#include "core/log.h"

#define TG_ROM_NS 10000   /* boot ROM after reset until its HALT [INF] */
#define TG_BOOT_NS 100000 /* CPU start to FIRMWARE_OPERATIONAL [INF] */
#define TG_CMD_NS 2000    /* a command doorbell is served this much later [INF] */
#define TG_AN_NS 1000000  /* link negotiation [INF] */

bool tg_fw_running(const tigon *t) { return t->fw == TG_FW_RUNNING; }

static void fw_event(tigon *t)
{
    EVENT_EMIT(nic_ev(&t->n, TG_EV_FW), nic_initiator(&t->n), (uint64_t)t->fw, t->fw_pc,
               t->fw_words);
}

static void kick(tigon *t, timer *tm, uint64_t delay)
{
    sched *s = t->n.clock;
    if (!timer_pending(tm) || tm->when > s->now + delay)
        timer_mod(s, tm, s->now + delay);
}

/* ---- interrupts ----------------------------------------------------------- */

bool tg_in_int(const tigon *t) { return t->n.irq.cause && t->hi == 0 && tg_gcr(t, 0x664) == 0; }

void tg_irq_update(tigon *t)
{
    bool open =
        t->hi == 0 && tg_gcr(t, 0x664) == 0 && !(DEV_R(t->n.dev, TR_HOST_CTRL) & TG_HC_MASK_INTS);
    nic_irq_set_mask(&t->n, open ? TG_CAUSE_EVENT | TG_CAUSE_TX | TG_CAUSE_RX : 0);
}

void tg_irq_request(tigon *t, uint32_t cause)
{
    t->st.interrupts++;
    nic_irq_assert(&t->n, cause);
}

/* The Hi mailbox: any write clears the interrupt; a non-zero value holds
 * new ones off; writing 0 after a non-zero value lets through what was
 * requested meanwhile [INF: docs/hardware.md]. */
static void hi_write(tigon *t, uint32_t v)
{
    uint32_t old = t->hi;
    t->hi = v;
    if (old == 0 || v != 0)
        nic_irq_deassert(&t->n, ~0u);
    tg_irq_update(t);
}

/* ---- events -------------------------------------------------------------- */

static bool evt_room(const tigon *t)
{
    return (t->evt.index + 1) % TG_EVT_ENTRIES != t->evt.host % TG_EVT_ENTRIES;
}

static void emit_event(tigon *t, uint32_t word)
{
    nic *n = &t->n;
    nic_desc d;
    memset(&d, 0, sizeof d);
    d.nwords = 2;
    d.index = t->evt.index;
    d.addr = nic_ring_addr(&t->evt, d.index);
    tg_bd_out(t, d.w, 0, word);
    tg_bd_out(t, d.w, 1, 0);
    if (nic_ring_writeback(&t->evt, &d, 3)) {
        t->events_lost++;
        t->st.dma_wr_aborts++;
        return;
    }
    t->evt_time[d.index] = nic_now(n);
    nic_ring_advance(&t->evt, false);
    unsigned code = word >> 24;
    if (code < TG_NEVENT_CODES)
        t->st.events[code]++;
    EVENT_EMIT(nic_ev(n, TG_EV_EVENT), nic_initiator(n), d.index, code, (word >> 12) & 0xfff,
               word & 0xfff, word);
    if (tg_write_index(t, t->evt_prd_addr, t->evt.index, NIC_RING_EVENT))
        t->st.dma_wr_aborts++;
    if (!(tg_opmode(t) & TG_OM_NO_EVENT_INTRS))
        tg_irq_request(t, TG_CAUSE_EVENT);
}

static void drain_events(tigon *t)
{
    unsigned k = 0;
    while (k < t->evq_n && evt_room(t))
        emit_event(t, t->evq[k++]);
    memmove(t->evq, t->evq + k, (t->evq_n - k) * sizeof t->evq[0]);
    t->evq_n -= k;
}

/* Events wait inside the NIC while the host's ring is full [INF]; past
 * TG_EVQ of them they are lost (counted, logged). */
void tg_fw_post_event(tigon *t, unsigned code, unsigned sub, unsigned idx)
{
    if (!tg_fw_running(t))
        return;
    uint32_t word = (code & 0xffu) << 24 | (sub & 0xfffu) << 12 | (idx & 0xfffu);
    if (!t->evq_n && evt_room(t)) {
        emit_event(t, word);
        return;
    }
    t->st.event_ring_full++;
    if (t->evq_n < TG_EVQ) {
        t->evq[t->evq_n++] = word;
        return;
    }
    t->events_lost++;
    xlog(LOG_WARN, t->n.dev->name, "event ring full (EvtCsm %u): event 0x%08x lost", t->evt.host,
         word);
}

/* ---- statistics ----------------------------------------------------------- */

static void put64(uint32_t *w, unsigned i, uint64_t v)
{
    w[i] = (uint32_t)(v >> 32); /* big-endian firmware: high word first */
    w[i + 1] = (uint32_t)v;
}

/* The block's layout is the Alteon firmware's (FreeBSD struct ti_stats):
 * only the counters the model can know are filled, the rest read 0. */
static void stats_block(tigon *t, uint32_t *w)
{
    const tg_fwstats *s = &t->st;
    memset(w, 0, 256 * sizeof *w);
    const uint8_t *mac = t->filt.station[0];
    w[10] = s->too_long;
    w[12] = tg_gcr(t, 0x65c);
    w[13] = 6; /* ethernetCsmacd */
    w[14] = tg_gcr(t, 0x660);
    w[15] = t->link.up ? (t->link_fast ? 100000000u : 1000000000u) : 0;
    w[16] = t->stack_up ? 1 : 2;
    w[17] = t->link.up ? 1 : 2;
    w[19] = s->in_discards;
    w[20] = s->in_errors;
    w[22] = s->out_discards;
    w[23] = s->out_errors;
    w[25] = (uint32_t)load_be(mac, 4);
    w[26] = (uint32_t)load_be(mac + 4, 2) << 16;
    put64(w, 36, s->in_octets);
    put64(w, 38, s->in_ucast);
    put64(w, 40, s->in_mcast);
    put64(w, 42, s->in_bcast);
    put64(w, 44, s->out_octets);
    put64(w, 46, s->out_ucast);
    put64(w, 48, s->out_mcast);
    put64(w, 50, s->out_bcast);
    w[53] = w[15] / 1000000;
    w[54] = t->filt.promisc;
    w[55] = t->link.carrier;
    /* nicCmdsHostState (56) .. nicCmdsUnknown (72) */
    static const uint8_t slot[TG_NCMDS] = {
        [TG_C_HOST_STATE] = 56,       [TG_C_FDR_FILTERING] = 57,
        [TG_C_SET_RX_PRD_IDX] = 58,   [TG_C_UPDATE_GENCOM] = 59,
        [TG_C_RESET_JUMBO_RNG] = 60,  [TG_C_ADD_MC_ADDR] = 61,
        [TG_C_DEL_MC_ADDR] = 62,      [TG_C_SET_PROMISC_MODE] = 63,
        [TG_C_LINK_NEGOTIATION] = 64, [TG_C_SET_MAC_ADDR] = 65,
        [TG_C_CLEAR_PROFILE] = 66,    [TG_C_SET_MULTICAST_MODE] = 67,
        [TG_C_CLEAR_STATS] = 68,      [TG_C_SET_RX_JUMBO_PRD_IDX] = 69,
        [TG_C_REFRESH_STATS] = 71,    [TG_C_EXT_ADD_MC_ADDR] = 61,
        [TG_C_EXT_DEL_MC_ADDR] = 62};
    for (unsigned c = 0; c < TG_NCMDS; c++)
        if (slot[c])
            w[slot[c]] += s->cmds[c];
    w[72] = s->cmds[TG_NCMDS];
    w[73] = s->events[TG_E_FW_RUNNING];
    w[74] = s->events[TG_E_STATS_UPDATED];
    w[75] = s->events[TG_E_LINK_STATE];
    w[76] = s->events[TG_E_ERROR];
    w[77] = s->events[TG_E_MCAST_LIST];
    w[78] = s->events[TG_E_RESET_JUMBO_RNG];
    w[82] = s->interrupts;
    w[91] = s->dma_wr_aborts;
    w[92] = s->dma_rd_aborts;
    w[95] = s->event_ring_full;
    w[100] = s->no_rx_bds;
}

static void stats_dma(tigon *t, uint64_t addr)
{
    nic *n = &t->n;
    uint32_t w[256], raw[256];
    uint8_t buf[1024];
    stats_block(t, w);
    for (unsigned k = 0; k < 256; k++)
        tg_bd_out(t, raw, k, w[k]);
    for (unsigned k = 0; k < 256; k++)
        store_le(buf + 4 * k, 4, raw[k]);
    nic_dma_ctx(n, NIC_DMA_STATS, -1, -1);
    int st = nic_dma_payload_write(n, addr, buf, sizeof buf);
    EVENT_EMIT(nic_ev(n, TG_EV_STATS), nic_initiator(n), addr, st == 0);
    if (st)
        t->st.dma_wr_aborts++;
    else
        tg_fw_post_event(t, TG_E_STATS_UPDATED, 0, 0);
}

static void stats_arm(tigon *t)
{
    uint32_t us = tg_gcr(t, 0x638);
    if (!us || !tg_fw_running(t)) {
        timer_del(t->n.clock, &t->stats_t);
        return;
    }
    timer_mod(t->n.clock, &t->stats_t,
              nic_now(&t->n) + sched_ns_to_ticks(t->n.clock, us * 1000ull));
}

static void stats_tick(void *opaque)
{
    tigon *t = opaque;
    if (!tg_fw_running(t))
        return;
    if (nic_dma_wait(&t->n, &t->stats_t)) /* the bus is busy: the block goes after it */
        return;
    stats_dma(t, t->gib);
    stats_arm(t);
}

/* ace_mac_stats at 0x480: what Linux reads (drop_space, kept_mc, coll). */
uint32_t tg_mac_stat(const tigon *t, unsigned idx)
{
    const nic_counters *c = &t->n.cnt;
    switch (idx) {
    case 24: return (uint32_t)c->rx_drops[NIC_DROP_FILTERED]; /* drop_ula */
    case 27: return (uint32_t)(c->rx_drops[NIC_DROP_NO_BUFFER] + c->rx_drops[NIC_DROP_FIFO]);
    case 29: return (uint32_t)c->rx_bcast;                                /* kept_bc */
    case 30: return (uint32_t)c->rx_mcast;                                /* kept_mc */
    case 31: return (uint32_t)(c->rx_frames - c->rx_bcast - c->rx_mcast); /* kept_uc */
    default: return 0; /* collisions, CRC errors ...: none on an emulated link */
    }
}

/* ---- link ------------------------------------------------------------------ */

static void link_words(tigon *t)
{
    uint32_t gig = 0, fast = 0;
    if (t->link.up) {
        uint32_t w = TG_LNK_UP | TG_LNK_ENABLE | TG_LNK_FULL_DUPLEX |
                     (t->link_word & (TG_LNK_NEGOTIATE | TG_LNK_TX_FLOW | TG_LNK_RX_FLOW));
        if (t->link_fast)
            fast = w | (t->link_word & TG_LNK_100MB ? TG_LNK_100MB : TG_LNK_10MB);
        else
            gig = w | TG_LNK_1000MB;
    }
    tg_sram_write(t, 0x68, gig, false);
    tg_sram_write(t, 0x6c, fast, false);
}

/* Start (or restart) the link from the Tune words: the gigabit side if it
 * is enabled (which = 0 both, 1 gigabit only, 2 10/100 only), else the
 * 10/100 side [INF]. */
static void link_start(tigon *t, unsigned which)
{
    uint32_t gig = tg_gcr(t, 0x648), fast = tg_gcr(t, 0x64c);
    const uint32_t speeds = TG_LNK_10MB | TG_LNK_100MB | TG_LNK_1000MB;
    bool use_gig =
        which != 2 && (gig & TG_LNK_ENABLE) && ((gig & TG_LNK_1000MB) || !(gig & speeds));
    bool use_fast =
        !use_gig && which != 1 && (fast & TG_LNK_ENABLE) && (fast & (TG_LNK_10MB | TG_LNK_100MB));
    nic_link_set_admin(&t->link, false);
    t->link_fast = use_fast;
    t->link_word = use_gig ? gig : use_fast ? fast : 0;
    link_words(t);
    if (!use_gig && !use_fast)
        return;
    nic_link_autoneg(&t->link, (t->link_word & TG_LNK_NEGOTIATE) != 0, false);
    nic_link_set_admin(&t->link, true);
}

void tg_fw_link_changed(nic *n)
{
    tigon *t = (tigon *)n;
    link_words(t);
    if (!tg_fw_running(t))
        return;
    tg_fw_post_event(t, TG_E_LINK_STATE,
                     !t->link.up    ? TG_E_LINK_DOWN
                     : t->link_fast ? TG_E_LINK_10_100
                                    : TG_E_LINK_UP,
                     0);
    tg_tx_kick(t);
    tg_rx_kick(t);
}

/* ---- commands ------------------------------------------------------------- */

static void station_from_words(uint8_t *mac, uint32_t hi, uint32_t lo)
{
    mac[0] = (uint8_t)(hi >> 8);
    mac[1] = (uint8_t)hi;
    store_be(mac + 2, 4, lo);
}

static void load_station(tigon *t)
{
    nic_mac_filter *f = &t->filt;
    station_from_words(f->station[0], tg_gcr(t, 0x600), tg_gcr(t, 0x604));
    f->station_valid[0] = true;
    if (t->n.port)
        net_port_set_mac(t->n.port, f->station[0]);
}

static void mcast(tigon *t, bool add, uint32_t hi, uint32_t lo)
{
    nic_mac_filter *f = &t->filt;
    uint8_t mac[6];
    station_from_words(mac, hi, lo);
    int slot = -1, free_slot = -1;
    for (int i = 0; i < NIC_MAC_CAM; i++) {
        if (f->cam_valid[i] && memcmp(f->cam_addr[i], mac, 6) == 0)
            slot = i;
        else if (!f->cam_valid[i] && free_slot < 0)
            free_slot = i;
    }
    if (add && slot < 0) {
        if (free_slot < 0) { /* the list is full [INF] */
            tg_fw_post_event(t, TG_E_ERROR, TG_E_ERR_BAD_CFG, 0);
            return;
        }
        memcpy(f->cam_addr[free_slot], mac, 6);
        f->cam_valid[free_slot] = true;
    } else if (!add && slot >= 0) {
        f->cam_valid[slot] = false;
    }
    tg_fw_post_event(t, TG_E_MCAST_LIST, add ? 1 : 2, 0);
}

static void set_stack(tigon *t, bool up)
{
    t->stack_up = up;
    if (up) {
        tg_tx_kick(t);
        tg_rx_kick(t);
    } else {
        tg_dma_stop(t);
    }
}

static void execute(tigon *t, unsigned code, unsigned sub, unsigned idx, const uint32_t *args)
{
    t->st.cmds[code < TG_NCMDS ? code : TG_NCMDS]++;
    switch (code) {
    case TG_C_HOST_STATE:
        if (sub != 1 && sub != 2)
            break;
        set_stack(t, sub == 1);
        return;
    case TG_C_FDR_FILTERING: /* a Tigon I work-around: nothing to do */
    case TG_C_SET_PARTIAL_RX_CNT:
    case TG_C_CLEAR_PROFILE: return;
    case TG_C_SET_RX_PRD_IDX: tg_dma_mailbox(t, TG_MB_STD_PRD, idx); return;
    case TG_C_SET_RX_JUMBO_PRD_IDX: tg_dma_mailbox(t, TG_MB_JUMBO_PRD, idx); return;
    case TG_C_UPDATE_GENCOM: stats_dma(t, t->gib); return;
    case TG_C_REFRESH_STATS: stats_dma(t, t->stats2_addr); return;
    case TG_C_RESET_JUMBO_RNG:
        tg_rx_ring_reset(t, &t->jumbo);
        tg_fw_post_event(t, TG_E_RESET_JUMBO_RNG, 0, 0);
        return;
    case TG_C_ADD_MC_ADDR:
    case TG_C_DEL_MC_ADDR:
        mcast(t, code == TG_C_ADD_MC_ADDR, tg_gcr(t, 0x610), tg_gcr(t, 0x614));
        return;
    case TG_C_EXT_ADD_MC_ADDR:
    case TG_C_EXT_DEL_MC_ADDR: mcast(t, code == TG_C_EXT_ADD_MC_ADDR, args[0], args[1]); return;
    case TG_C_SET_PROMISC_MODE:
        if (sub != 1 && sub != 2)
            break;
        t->filt.promisc = sub == 1;
        return;
    case TG_C_SET_MULTICAST_MODE:
        if (sub != 1 && sub != 2)
            break;
        t->filt.all_multi = sub == 1;
        return;
    case TG_C_LINK_NEGOTIATION:
        if (sub > 2)
            break;
        link_start(t, sub);
        return;
    case TG_C_SET_MAC_ADDR: load_station(t); return;
    case TG_C_CLEAR_STATS: memset(&t->st, 0, sizeof t->st); return;
    default: break;
    }
    tg_fw_post_event(t, TG_E_ERROR, TG_E_ERR_INVAL_CMD, code);
}

static void cmd_seek(nic_ring *r, uint32_t i)
{
    r->index = i % TG_CMD_ENTRIES;
    r->cur = nic_ring_addr(r, r->index);
}

static void cmd_step(void *opaque)
{
    tigon *t = opaque;
    nic *n = &t->n;
    if (!tg_fw_running(t))
        return;
    drain_events(t);
    for (unsigned k = 0; k < TG_CMD_ENTRIES && t->cmd.index != t->cmd.host; k++) {
        uint32_t i = t->cmd.index;
        uint32_t word = tg_sram_read(t, 0x100 + 4 * i);
        unsigned code = word >> 24, sub = (word >> 12) & 0xfff, idx = word & 0xfff;
        unsigned nargs = code == TG_C_EXT_ADD_MC_ADDR || code == TG_C_EXT_DEL_MC_ADDR ? 2 : 0;
        unsigned avail = (t->cmd.host + TG_CMD_ENTRIES - i) % TG_CMD_ENTRIES;
        if (avail < 1 + nargs)
            break; /* the arguments are not posted yet */
        uint32_t args[2] = {0, 0};
        for (unsigned a = 0; a < nargs; a++)
            args[a] = tg_sram_read(t, 0x100 + 4 * ((i + 1 + a) % TG_CMD_ENTRIES));
        t->cmd.fetches++;
        EVENT_EMIT(nic_ev(n, TG_EV_CMD), nic_initiator(n), i, code, sub, idx, word);
        cmd_seek(&t->cmd, i + 1 + nargs);
        tg_sram_write(t, 0x2c, t->cmd.index, false);
        execute(t, code, sub, idx, args);
    }
}

/* ---- mailboxes and GCR writes ---------------------------------------------- */

static const char *const mb_ring[] = {[TG_MB_CMD_PRD] = "command",
                                      [TG_MB_TX_PRD] = "tx",
                                      [TG_MB_STD_PRD] = "rx",
                                      [TG_MB_JUMBO_PRD] = "rx-jumbo",
                                      [TG_MB_MINI_PRD] = "rx-mini"};

void tg_fw_mailbox(tigon *t, unsigned word, uint32_t v, uint32_t old)
{
    nic *n = &t->n;
    int ring = -1;
    if (word < ARRAY_SIZE(mb_ring) && mb_ring[word]) {
        nic_ring *r = nic_find_ring(n, mb_ring[word]);
        ring = r ? (int)r->id : -1;
    }
    EVENT_EMIT(nic_ev(n, TG_EV_MAILBOX), nic_initiator(n), word, v);
    nic_doorbell(n, TR_MB0 + word, v, ring);
    switch (word) {
    case TG_MB_HI: hi_write(t, v); break;
    case TG_MB_CMD_PRD:
        t->cmd.host = v % TG_CMD_ENTRIES;
        if (tg_fw_running(t))
            kick(t, &t->cmd_t, t->cmd_ticks);
        break;
    case TG_MB_TX_PRD:
    case TG_MB_STD_PRD:
    case TG_MB_JUMBO_PRD:
    case TG_MB_MINI_PRD: tg_dma_mailbox(t, word, v); break;
    default: break; /* stored: the firmware does not use the other mailboxes */
    }
}

void tg_fw_gcr_written(tigon *t, uint32_t a)
{
    uint32_t v = tg_sram_read(t, a);
    switch (a) {
    case 0x28: /* EvtCsm */
        t->evt.host = v % TG_EVT_ENTRIES;
        if (t->evq_n && tg_fw_running(t))
            kick(t, &t->cmd_t, 0);
        break;
    case 0x2c: /* CmdCsm: the firmware keeps its consumer here [INF] */ cmd_seek(&t->cmd, v); break;
    case 0x30:
    case 0x34:
    case 0x3c:
    case 0x40: tg_coal_refresh(t); break;
    case 0x38: stats_arm(t); break;
    case 0x64: /* MaskInt */ tg_irq_update(t); break;
    case 0x80: /* RxRetCsm: obsolete on Tigon II, shown in the ring view */
        t->ret.host = v % (t->ret.size ? t->ret.size : TG_RET_ENTRIES);
        break;
    default: break;
    }
}

/* ---- CPU, boot -------------------------------------------------------------- */

static void rom_done(void *opaque)
{
    tigon *t = opaque;
    if (t->fw == TG_FW_ROM) {
        t->fw = TG_FW_HALTED;
        t->cpu_status = TG_CPU_HALTED_INSN;
    }
    t->cpub_status = TG_CPU_HALTED_INSN;
}

static bool read_gib(tigon *t)
{
    nic *n = &t->n;
    uint64_t gib = (uint64_t)tg_gcr(t, 0x608) << 32 | tg_gcr(t, 0x60c);
    uint32_t raw[8];
    nic_dma_ctx(n, NIC_DMA_OTHER, -1, -1);
    for (unsigned k = 0; k < TG_NRCB; k++) {
        for (unsigned i = 0; i < 4; i++)
            if (nic_dma_read32(n, gib + TG_GIB_RCBS + 16 * k + 4 * i, &raw[i]))
                return false;
        uint32_t w2 = tg_bd_in(t, raw, 2);
        t->rcb[k].addr = (uint64_t)tg_bd_in(t, raw, 0) << 32 | tg_bd_in(t, raw, 1);
        t->rcb[k].max_len = (uint16_t)(w2 >> 16);
        t->rcb[k].flags = (uint16_t)w2;
    }
    for (unsigned i = 0; i < 8; i++)
        if (nic_dma_read32(n, gib + TG_GIB_PTRS + 4 * i, &raw[i]))
            return false;
    uint64_t p[4];
    for (unsigned k = 0; k < 4; k++)
        p[k] = (uint64_t)tg_bd_in(t, raw, 2 * k) << 32 | tg_bd_in(t, raw, 2 * k + 1);
    t->gib = gib;
    t->evt_prd_addr = p[0];
    t->ret_prd_addr = p[1];
    t->tx_csm_addr = p[2];
    t->stats2_addr = p[3];
    return true;
}

static void boot_done(void *opaque)
{
    tigon *t = opaque;
    if (t->fw != TG_FW_BOOTING)
        return;
    if (!read_gib(t)) {
        t->fw = TG_FW_FAULT;
        t->cpu_status = TG_CPU_HALTED_INSN;
        t->st.dma_rd_aborts++;
        xlog(LOG_WARN, t->n.dev->name,
             "firmware: the general information block at 0x%08x%08x is not readable; halted",
             tg_gcr(t, 0x608), tg_gcr(t, 0x60c));
        fw_event(t);
        return;
    }
    t->fw = TG_FW_RUNNING;
    nic_mac_filter_reset(&t->filt);
    t->filt.unicast = t->filt.broadcast = t->filt.cam = true;
    load_station(t);
    t->stack_up = false;
    t->evq_n = 0;
    tg_dma_start(t);
    fw_event(t);
    tg_fw_post_event(t, TG_E_FW_RUNNING, 0, 0);
    stats_arm(t);
    link_start(t, 0);
    kick(t, &t->cmd_t, 0);
}

static void fw_stop(tigon *t)
{
    sched *s = t->n.clock;
    timer_del(s, &t->boot_t);
    timer_del(s, &t->cmd_t);
    timer_del(s, &t->stats_t);
    tg_dma_stop(t);
    t->stack_up = false;
    t->evq_n = 0;
    nic_link_set_admin(&t->link, false);
}

static void cpu_start(tigon *t)
{
    uint32_t pc = (uint32_t)DEV_R(t->n.dev, TR_PC);
    t->fw_pc = pc;
    t->cpu_status = 0;
    bool code = pc < t->sram_size && (t->sram_wr[pc / 32] >> ((pc / 4) & 7) & 1);
    if (!code && t->require_code) {
        /* The CPU runs whatever SRAM holds there; nothing the host will
         * ever hear from. */
        t->fw = TG_FW_NO_CODE;
        xlog(LOG_WARN, t->n.dev->name,
             "CPU started at Pc 0x%x, where no firmware was downloaded (%llu words loaded): "
             "no FIRMWARE_OPERATIONAL will come",
             pc, (unsigned long long)t->fw_words);
        fw_event(t);
        return;
    }
    t->fw = TG_FW_BOOTING;
    fw_event(t);
    timer_mod(t->n.clock, &t->boot_t, nic_now(&t->n) + t->boot_ticks);
}

void tg_fw_cpu_write(tigon *t, uint32_t v, uint32_t old)
{
    device *d = t->n.dev;
    if (v & TG_CPU_RESET) { /* the CPU alone goes back through its ROM [INF] */
        DEV_R(d, TR_CPU_CTRL) &= ~(uint64_t)TG_CPU_RESET;
        t->fw = TG_FW_ROM; /* not running: the engines stop without reporting */
        fw_stop(t);
        t->cpu_status = 0;
        fw_event(t);
        timer_mod(t->n.clock, &t->rom_t, nic_now(&t->n) + t->rom_ticks);
        return;
    }
    if (v & TG_CPU_HALT) {
        if (t->fw == TG_FW_HALTED)
            return;
        timer_del(t->n.clock, &t->rom_t);
        t->fw = TG_FW_HALTED;
        fw_stop(t);
        fw_event(t);
        return;
    }
    if (t->fw == TG_FW_HALTED || t->fw == TG_FW_FAULT)
        cpu_start(t);
}

/* ---- life cycle ---------------------------------------------------------------- */

void tg_fw_init(tigon *t)
{
    sched *s = t->n.clock;
    timer_init(&t->rom_t, "tigon-rom", rom_done, t);
    timer_init(&t->boot_t, "tigon-boot", boot_done, t);
    timer_init(&t->cmd_t, "tigon-cmd", cmd_step, t);
    timer_init(&t->stats_t, "tigon-stats", stats_tick, t);
    t->rom_ticks = sched_ns_to_ticks(s, TG_ROM_NS);
    t->boot_ticks = sched_ns_to_ticks(s, TG_BOOT_NS);
    t->cmd_ticks = sched_ns_to_ticks(s, TG_CMD_NS);
    t->link.an_ticks = sched_ns_to_ticks(s, TG_AN_NS);
}

void tg_fw_fini(tigon *t)
{
    sched *s = t->n.clock;
    timer_del(s, &t->rom_t);
    timer_del(s, &t->boot_t);
    timer_del(s, &t->cmd_t);
    timer_del(s, &t->stats_t);
}

/* Chip reset (HostCtrl HW_RESET, PCI reset): the CPUs go through the boot
 * ROM, which ends in a HALT; SRAM keeps its contents [INF]. */
void tg_fw_reset(tigon *t)
{
    tg_fw_fini(t);
    t->fw = TG_FW_ROM;
    t->cpu_status = 0;
    t->cpub_status = 0;
    t->fw_pc = 0;
    t->stack_up = false;
    t->evq_n = 0;
    t->hi = 0;
    memset(t->rcb, 0, sizeof t->rcb);
    t->gib = t->evt_prd_addr = t->ret_prd_addr = t->tx_csm_addr = t->stats2_addr = 0;
    t->link.admin_down = true;
    nic_link_reset(&t->link);
    t->link_fast = false;
    t->link_word = 0;
    tg_irq_update(t);
    timer_mod(t->n.clock, &t->rom_t, nic_now(&t->n) + t->rom_ticks);
}

/* ---- the "fw" view ------------------------------------------------------------ */

static const char *const rcb_names[TG_NRCB] = {"event", "command", "send",  "std",
                                               "jumbo", "mini",    "return"};

void tg_fw_show(tigon *t, strbuf *out)
{
    nic *n = &t->n;
    uint32_t om = tg_opmode(t);
    sb_printf(out, "%s firmware %s, Pc 0x%x, %llu words downloaded, stack %s\n", n->dev->name,
              tg_fw_state_name(t->fw), t->fw_pc, (unsigned long long)t->fw_words,
              t->stack_up ? "up" : "down");
    sb_printf(out, "  swap: descriptors %s%s, data %s; PIO %s (HostCtrl 0x%llx)\n",
              om & TG_OM_BYTESWAP_BD ? "byte-swapped" : "little-endian",
              om & TG_OM_WORDSWAP_BD ? "" : " with 64-bit halves exchanged",
              om & TG_OM_BYTESWAP_DATA ? "in address order" : "word-reversed",
              DEV_R(n->dev, TR_HOST_CTRL) & TG_HC_BYTE_SWAP ? "byte-swapped" : "as is",
              (unsigned long long)DEV_R(n->dev, TR_HOST_CTRL));
    sb_printf(out,
              "  GIB 0x%llx: event producer at 0x%llx, return producer at 0x%llx, "
              "send consumer at 0x%llx, refresh stats at 0x%llx\n",
              (unsigned long long)t->gib, (unsigned long long)t->evt_prd_addr,
              (unsigned long long)t->ret_prd_addr, (unsigned long long)t->tx_csm_addr,
              (unsigned long long)t->stats2_addr);
    for (unsigned k = 0; k < TG_NRCB; k++)
        sb_printf(out, "  RCB %-7s 0x%016llx max_len %-5u flags 0x%04x%s\n", rcb_names[k],
                  (unsigned long long)t->rcb[k].addr, t->rcb[k].max_len, t->rcb[k].flags,
                  t->rcb[k].flags & TG_RCB_DISABLED ? " (disabled)" : "");
    sb_printf(out,
              "  indices: cmd %u/%u, event %u (host %u, %u held back, %llu lost), "
              "send %u/%u (reported %u), std %u/%u, jumbo %u/%u, mini %u/%u, return %u\n",
              t->cmd.index, t->cmd.host, t->evt.index, t->evt.host, t->evq_n,
              (unsigned long long)t->events_lost, t->tx.index, t->tx.host, t->tx_reported,
              t->std.index, t->std.host, t->jumbo.index, t->jumbo.host, t->mini.index, t->mini.host,
              t->ret.index);
    sb_printf(out,
              "  interrupt: requests 0x%x, Hi %u, MaskInt %u, MASK_INTS %d, IN_INT %d, "
              "INTA %s\n",
              n->irq.cause, t->hi, tg_gcr(t, 0x664),
              (DEV_R(n->dev, TR_HOST_CTRL) & TG_HC_MASK_INTS) != 0, tg_in_int(t),
              n->irq.line ? "high" : "low");
    sb_printf(out, "  link %s%s (%s, TuneLink 0x%08x, TuneFastLink 0x%08x)\n",
              t->link.up ? "up" : "down", t->link.an_busy ? ", negotiating" : "",
              t->link_fast ? "10/100" : "gigabit", tg_gcr(t, 0x648), tg_gcr(t, 0x64c));
    nic_mac_show(&t->filt, out);
}
