/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the Tigon2 model, part 1: identity, registers, CPU and
 * firmware start, the general information block, commands and events,
 * interrupts (Hi mailbox), link, statistics, EEPROM.  Driven through the
 * acenic-like harness in tigon_host.c. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "tigon_host.h"
#include "../../../check_run.h"

static tg_host H;

static void setup_be(void) { tgh_setup(&H, "tigon2", true); }
static void teardown(void) { tgh_teardown(&H); }


/* Count events published on "<nic>.<name>". */
static unsigned ev_count;
static uint64_t ev_last[12];
static void count_ev(void *ctx, const event *ev)
{
    (void)ctx;
    ev_count++;
    for (unsigned i = 0; i < ev->nvals && i < 12; i++)
        ev_last[i] = ev->vals[i];
}
static void watch(const char *name)
{
    char full[64];
    snprintf(full, sizeof full, "tigon0.%s", name);
    ev_count = 0;
    event_src *s = event_find(&H.eb, full);
    ck_assert_msg(s != NULL, "no event %s", full);
    event_subscribe(s, count_ev, NULL);
}

/* ---- identity, registers ---------------------------------------------------------- */

START_TEST(identity_and_variants)
{
    ck_assert_uint_eq(pci_config_read(H.f, 0, 4), 0x000910a9u);
    ck_assert_uint_eq(pci_config_read(H.f, 9, 2) | pci_config_read(H.f, 11, 1) << 16, 0x020000u);
    ck_assert_uint_eq(H.f->bars[0].size, 0x4000);
    ck_assert_uint_eq(H.f->int_pin, 1);
    ck_assert_uint_eq(tgh_rd(&H, HostCtrl) >> 28, 6);  /* Tigon II */
    ck_assert_uint_eq(tgh_rd(&H, 0x000), 0x000910a9u); /* the config mirror */
    ck_assert(nic_of_device(H.n->dev) == H.n);
    ck_assert(strstr(nic_model_list(), "tigon2") != NULL);
    xerr err;
    const struct {
        const char *m;
        uint32_t id;
    } v[] = {{"acenic", 0x000112ae}, {"acenic-copper", 0x000212ae}};
    for (unsigned i = 0; i < 2; i++) {
        nic_opts o = {.net = "none"};
        pci_func *f = nic_create(v[i].m, "tigon1", &o, &H.clock, &H.eb, &err);
        ck_assert_msg(f != NULL, "%s", err.msg);
        ck_assert_uint_eq(pci_config_read(f, 0, 4), v[i].id);
        ck_assert(nic_of_device(f->dev) != NULL);
        nic_destroy(f);
    }
    /* PCI_32BIT / 66 MHz read 0 on the Bridge's bus, other bits stick. */
    tgh_wr(&H, PciState, 0x76020000 | 0x180000);
    ck_assert_uint_eq(tgh_rd(&H, PciState), 0x76020000);
}
END_TEST

START_TEST(rom_halt_and_wrong_widths)
{
    /* After reset the boot ROM runs, then executes a HALT. */
    tgh_wr(&H, HostCtrl, TG_HC_HW_RESET | TG_HC_HW_RESET << 24);
    ck_assert_uint_eq(tgh_rd(&H, CpuCtrl) & 0xffff0000u, 0);
    tgh_run(&H, US(20));
    ck_assert_uint_eq(tgh_rd(&H, CpuCtrl), TG_CPU_HALTED_INSN);
    tgh_wr(&H, CpuCtrl, tgh_rd(&H, CpuCtrl) | TG_CPU_HALT);
    ck_assert_uint_eq(tgh_rd(&H, CpuCtrl), TG_CPU_HALTED_INSN | TG_CPU_HALT);
    ck_assert_uint_eq(tgh_rd(&H, CpuBCtrl) & TG_CPU_HALTED_INSN, TG_CPU_HALTED_INSN);
    ck_assert_int_eq(H.t->fw, TG_FW_HALTED);
    /* 32-bit-only registers: a 16-bit or 8-bit write is dropped and reported. */
    watch("reg.bad-access");
    uint64_t v = 0x1234;
    pci_bar_access(H.f, 0, 0, MaskInt, 2, &v, true);
    pci_bar_access(H.f, 0, 0, Pc + 1, 1, &v, true);
    pci_bar_access(H.f, 0, 0, Window + 2, 2, &v, true);
    ck_assert_uint_eq(ev_count, 3);
    ck_assert_uint_eq(tgh_rd(&H, MaskInt), 0);
    ck_assert_uint_eq(tgh_rd(&H, Pc), 0);
    /* Nothing decodes above the window: reads 0, reported. */
    ck_assert_uint_eq(tgh_rd(&H, 0x2000), 0);
}
END_TEST

START_TEST(sram_window_and_indirect)
{
    tgh_wr(&H, WinBase, 0x4123); /* the low 11 bits are ignored */
    tgh_wr(&H, Window + 0x10, 0xdeadbeef);
    ck_assert_uint_eq(tg_sram_read(H.t, 0x4010), 0xdeadbeef);
    tgh_wr(&H, SramAddr, 0x4010);
    ck_assert_uint_eq(tgh_rd(&H, SramData), 0xdeadbeef);
    tgh_wr(&H, SramData, 0x01020304);
    tgh_wr(&H, WinBase, 0x4000);
    ck_assert_uint_eq(tgh_rd(&H, Window + 0x10), 0x01020304);
    ck_assert_uint_eq(tgh_rd(&H, WinData), tg_sram_read(H.t, 0x4000));
    /* GCR and command ring are SRAM 0x000..0x1ff: the window aliases them. */
    tgh_wr(&H, WinBase, 0);
    tgh_wr(&H, Window + 0x60, 1518); /* IfMtu */
    ck_assert_uint_eq(tgh_rd(&H, IfMtu), 1518);
    tgh_wr(&H, CmdRng + 8, 0x0f000000);
    ck_assert_uint_eq(tgh_rd(&H, Window + 0x108), 0x0f000000);
    /* Beyond the 1 MiB SRAM: writes vanish, reads are 0. */
    tgh_wr(&H, WinBase, 0x100000);
    tgh_wr(&H, Window, 0x55);
    ck_assert_uint_eq(tgh_rd(&H, Window), 0);
    /* SRAM survives a chip reset. */
    tgh_wr(&H, HostCtrl, TG_HC_HW_RESET);
    ck_assert_uint_eq(tg_sram_read(H.t, 0x4010), 0x01020304);
}
END_TEST

START_TEST(pio_byte_swap)
{
    /* HostCtrl BYTE_SWAP: every 32-bit PIO value is byte-reversed.  The
     * replicated reset value reads the same either way. */
    tgh_wr(&H, HostCtrl, (TG_HC_BYTE_SWAP | TG_HC_CLR_INT) * 0x01000001u);
    tgh_wr(&H, MaskInt, 0x01000000); /* a raw-writing host's 1 */
    ck_assert_uint_eq(tg_gcr(H.t, 0x664), 1);
    ck_assert_uint_eq(tgh_rd(&H, MaskInt), 0x01000000);
    ck_assert_uint_eq(tgh_rd(&H, HostCtrl) & 0xff000000u, TG_HC_BYTE_SWAP << 24);
    tgh_wr(&H, HostCtrl, (TG_HC_WORD_SWAP | TG_HC_CLR_INT) * 0x01000001u);
    ck_assert_uint_eq(tgh_rd(&H, MaskInt), 1);
    ck_assert_uint_eq(tgh_rd(&H, HostCtrl) >> 28, 6);
}
END_TEST

/* ---- firmware start ------------------------------------------------------------------ */

START_TEST(firmware_download_start_operational)
{
    watch("fw");
    tgh_cfg c = tgh_linux_cfg(true);
    c.full_clear = true; /* Linux clears 0x2000..0x80000, then copies the image */
    tgh_init(&H, &c);
    ck_assert(H.fw_running);
    ck_assert_int_eq(H.t->fw, TG_FW_RUNNING);
    ck_assert_uint_eq(ev_count, 3); /* halted, booting, running */
    ck_assert_uint_eq(ev_last[0], TG_FW_RUNNING);
    ck_assert_uint_eq(ev_last[1], 0x4000);
    ck_assert_uint_eq(H.t->fw_words, (0x80000 - 0x2000) / 4 + 64);
    ck_assert_uint_eq(tg_sram_read(H.t, 0x4004), 0x27bd0001u); /* stored, never run */
    ck_assert_uint_eq(H.nevents, 1);
    ck_assert_uint_eq(H.events[0], 0x01000000u);
    ck_assert_uint_eq(tgh_mr(&H, H_EVT_PRD), 1);
    ck_assert_uint_ge(fake_irq_rises(&H.host), 1);
    ck_assert_uint_eq(tgh_rd(&H, EvtCsm), 1);
    ck_assert_uint_eq(tgh_rd(&H, CpuCtrl) & TG_CPU_HALT, 0);
    /* Halting the CPU stops the firmware; starting it again reboots it
     * from scratch: the host resets the event indices first. */
    tgh_wr(&H, CpuCtrl, tgh_rd(&H, CpuCtrl) | TG_CPU_HALT);
    ck_assert_int_eq(H.t->fw, TG_FW_HALTED);
    tgh_wr(&H, EvtCsm, 0);
    tgh_mw(&H, H_EVT_PRD, 0);
    tgh_wr(&H, CpuCtrl, tgh_rd(&H, CpuCtrl) & ~TG_CPU_HALT);
    tgh_run(&H, US(200));
    ck_assert_int_eq(H.t->fw, TG_FW_RUNNING);
    ck_assert_uint_eq(H.nevents, 2);
}
END_TEST

/* The placeholder acenic/tg2.bin the Linux build embeds (docs/hardware.md,
 * "Tigon2"): version 12.4.11, start = load = 0x4000, one word of body.  It
 * is loaded the way ace_load_firmware does (bounds checks, clear of
 * 0x2000..0x80000, copy of the body as big-endian words), then started. */
START_TEST(linux_placeholder_firmware)
{
    static const uint8_t blob[16] = {12, 4, 11, 0, 0, 0, 0x40, 0, 0, 0, 0x40, 0, 0, 0, 0, 0};
    tg_host *h = &H;
    tgh_cfg c = tgh_linux_cfg(true);
    c.no_firmware = true;
    tgh_init(h, &c); /* leaves the CPU running nothing: halt it again */
    ck_assert_int_eq(h->t->fw, TG_FW_NO_CODE);
    tgh_wr(h, CpuCtrl, tgh_rd(h, CpuCtrl) | TG_CPU_HALT);
    ck_assert(tgh_rd(h, CpuCtrl) & 0xffff0000u); /* CPU_HALTED: download allowed */
    uint32_t start = (uint32_t)load_be(blob + 4, 4), load = (uint32_t)load_be(blob + 8, 4);
    ck_assert(start >= 0x4000 && start < 0x80000 && load >= 0x4000 && load < 0x80000);
    ck_assert_uint_eq((sizeof blob - 12) % 4, 0); /* ace_copy loops forever otherwise */
    tgh_download(h, 0x2000, NULL, (0x80000 - 0x2000) / 4);
    for (uint32_t off = 12; off < sizeof blob; off += 4) {
        uint32_t w = (uint32_t)load_be(blob + off, 4);
        tgh_download(h, load + off - 12, &w, 1);
    }
    tgh_wr(h, EvtCsm, 0);
    tgh_mw(h, H_EVT_PRD, 0);
    tgh_wr(h, Pc, start);
    tgh_wr(h, CpuCtrl, tgh_rd(h, CpuCtrl) & ~(TG_CPU_HALT | TG_CPU_STEP));
    tgh_run(h, US(300));
    ck_assert(h->fw_running);
    ck_assert_int_eq(h->t->fw, TG_FW_RUNNING);
}
END_TEST

START_TEST(start_without_firmware)
{
    tg_host *h = &H;
    tgh_cfg c = tgh_linux_cfg(true);
    c.no_firmware = true;
    tgh_init(h, &c);
    /* The CPU runs whatever is at Pc: no event, ever. */
    tgh_run(h, US(5000));
    ck_assert(!h->fw_running);
    ck_assert_int_eq(h->t->fw, TG_FW_NO_CODE);
    ck_assert_uint_eq(h->nevents, 0);
    ck_assert_uint_eq(tgh_rd(h, CpuCtrl) & 0xffff0000u, 0); /* running */
    ck_assert(!h->host.level);
    /* The GIB pointing nowhere: the firmware faults and halts. */
    c.no_firmware = false;
    tgh_init(h, &c);
    ck_assert(h->fw_running);
    tgh_wr(h, 0x608, 0x7f);
    tgh_wr(h, CpuCtrl, tgh_rd(h, CpuCtrl) | TG_CPU_HALT);
    tgh_wr(h, CpuCtrl, tgh_rd(h, CpuCtrl) & ~TG_CPU_HALT);
    tgh_run(h, US(300));
    ck_assert_int_eq(h->t->fw, TG_FW_FAULT);
    ck_assert_uint_eq(tgh_rd(h, CpuCtrl) & TG_CPU_HALTED_INSN, TG_CPU_HALTED_INSN);
    ck_assert_uint_ge(h->n->cnt.dma_errors, 1);
}
END_TEST

START_TEST(gib_parsed)
{
    tgh_cfg c = tgh_linux_cfg(true);
    c.tx_entries = 128;
    c.ret_entries = 1024;
    c.mini_disabled = true;
    tgh_init(&H, &c);
    tigon *t = H.t;
    ck_assert_uint_eq(t->gib, H_GIB);
    ck_assert_uint_eq(t->rcb[TG_RCB_EVENT].addr, H_EVT);
    ck_assert_uint_eq(t->rcb[TG_RCB_CMD].addr, 0x100);
    ck_assert_uint_eq(t->rcb[TG_RCB_SEND].addr, H_TX);
    ck_assert_uint_eq(t->rcb[TG_RCB_SEND].max_len, 128);
    ck_assert_uint_eq(t->rcb[TG_RCB_SEND].flags, c.tx_flags);
    ck_assert_uint_eq(t->rcb[TG_RCB_STD].max_len, 1518);
    ck_assert_uint_eq(t->rcb[TG_RCB_MINI].flags & TG_RCB_DISABLED, TG_RCB_DISABLED);
    ck_assert_uint_eq(t->rcb[TG_RCB_RETURN].addr, H_RET);
    ck_assert_uint_eq(t->evt_prd_addr, H_EVT_PRD);
    ck_assert_uint_eq(t->ret_prd_addr, H_RET_PRD);
    ck_assert_uint_eq(t->tx_csm_addr, H_TX_CSM);
    ck_assert_uint_eq(t->stats2_addr, H_STATS2);
    ck_assert_uint_eq(t->tx.size, 128);
    ck_assert_uint_eq(t->ret.size, 1024);
    strbuf b;
    sb_init(&b);
    dev_view_find(H.n->dev, "fw")->show(H.n->dev, "", NULL, &b);
    ck_assert(strstr(b.s, "firmware running") != NULL);
    ck_assert(strstr(b.s, "(disabled)") != NULL);
    sb_free(&b);
}
END_TEST

/* ---- commands and events ------------------------------------------------------------- */

START_TEST(command_ring)
{
    tg_host *h = &H;
    tgh_up(h, &h->cfg, 8, 0);
    watch("cmd");
    tigon *t = h->t;
    ck_assert(t->stack_up);
    ck_assert_uint_eq(tgh_rd(h, CmdCsm), 2); /* CLEAR_STATS, HOST_STATE */
    tgh_cmd(h, TG_C_SET_PROMISC_MODE, 1, 0);
    tgh_cmd(h, TG_C_SET_MULTICAST_MODE, 1, 0);
    tgh_run(h, US(10));
    ck_assert(t->filt.promisc && t->filt.all_multi);
    ck_assert_uint_eq(ev_count, 2);
    ck_assert_uint_eq(ev_last[1], TG_C_SET_MULTICAST_MODE);
    tgh_cmd(h, TG_C_SET_PROMISC_MODE, 2, 0);
    tgh_cmd(h, TG_C_SET_MULTICAST_MODE, 2, 0);
    /* SET_MAC_ADDR takes the address from MacAddrHi/Lo. */
    tgh_wr(h, MacAddrHi, 0x0211);
    tgh_wr(h, MacAddrLo, 0x22334455);
    tgh_cmd(h, TG_C_SET_MAC_ADDR, 0, 0);
    /* Multicast add/delete: GCR words, and the extended form with arguments. */
    tgh_wr(h, MultiCastHi, 0x0100);
    tgh_wr(h, MultiCastLo, 0x5e000001);
    tgh_cmd(h, TG_C_ADD_MC_ADDR, 0, 0);
    uint32_t i = tgh_rd(h, CmdPrd);
    tgh_wr(h, CmdRng + 4 * i, TG_C_EXT_ADD_MC_ADDR << 24);
    tgh_wr(h, CmdRng + 4 * ((i + 1) % 64), 0x0100);
    tgh_wr(h, CmdPrd, (i + 1) % 64); /* arguments not posted yet: it waits */
    tgh_run(h, US(10));
    ck_assert_uint_eq(tgh_rd(h, CmdCsm), i);
    tgh_wr(h, CmdRng + 4 * ((i + 2) % 64), 0x5e0000fb);
    tgh_wr(h, CmdPrd, (i + 3) % 64);
    tgh_run(h, US(10));
    ck_assert_uint_eq(tgh_rd(h, CmdCsm), (i + 3) % 64);
    ck_assert(!t->filt.promisc && !t->filt.all_multi);
    static const uint8_t a1[6] = {1, 0, 0x5e, 0, 0, 1}, a2[6] = {1, 0, 0x5e, 0, 0, 0xfb},
                         st[6] = {2, 0x11, 0x22, 0x33, 0x44, 0x55};
    ck_assert_int_eq(nic_mac_match(&t->filt, a1), NIC_MATCH_MULTICAST);
    ck_assert_int_eq(nic_mac_match(&t->filt, a2), NIC_MATCH_MULTICAST);
    ck_assert_int_eq(nic_mac_match(&t->filt, st), NIC_MATCH_STATION);
    ck_assert(tgh_saw_event(h, TG_E_MCAST_LIST, 1));
    tgh_cmd(h, TG_C_DEL_MC_ADDR, 0, 0);
    tgh_run(h, US(10));
    ck_assert_int_eq(nic_mac_match(&t->filt, a1), NIC_MATCH_NONE);
    ck_assert(tgh_saw_event(h, TG_E_MCAST_LIST, 2));
    /* Unknown code and bad sub-codes: ERROR (invalid command). */
    tgh_cmd(h, 0x42, 0, 0);
    tgh_cmd(h, TG_C_HOST_STATE, 7, 0);
    tgh_run(h, US(10));
    ck_assert(tgh_saw_event(h, TG_E_ERROR, TG_E_ERR_INVAL_CMD));
    ck_assert(t->stack_up);
    /* RESET_JUMBO_RNG: the jumbo ring is forgotten, the event comes back. */
    tgh_post(h, 1, 4, 9018);
    tgh_cmd(h, TG_C_RESET_JUMBO_RNG, 0, 0);
    tgh_run(h, US(10));
    ck_assert(tgh_saw_event(h, TG_E_RESET_JUMBO_RNG, 0));
    ck_assert_uint_eq(t->jumbo.index, 0);
    ck_assert_uint_eq(t->jumbo.host, 0);
    /* HOST_STATE down stops the receiver. */
    tgh_cmd(h, TG_C_HOST_STATE, 2, 0);
    tgh_run(h, US(10));
    ck_assert(!t->stack_up);
    uint8_t f[100];
    tgh_frame(f, 100, TGH_MAC, 1);
    ck_assert(!fake_wire_deliver(&h->wire, f, 100));
    ck_assert_uint_eq(h->n->cnt.rx_drops[NIC_DROP_RX_OFF], 1);
    ck_assert_uint_eq(t->st.cmds[TG_C_SET_PROMISC_MODE], 2);
}
END_TEST

START_TEST(event_ring_full_holds_events)
{
    tg_host *h = &H;
    tgh_up(h, &h->cfg, 0, 0);
    h->isr_on = false;
    unsigned base = h->nevents;
    uint32_t csm = tgh_rd(h, EvtCsm);
    /* 300 commands that each answer with an event: the ring (256, one
     * slot kept free) fills, the rest wait inside the NIC. */
    for (unsigned k = 0; k < 300; k++) {
        tgh_cmd(h, TG_C_RESET_JUMBO_RNG, 0, 0);
        if (k % 60 == 59)
            tgh_run(h, US(5));
    }
    tgh_run(h, US(20));
    ck_assert_uint_eq((h->t->evt.index - csm) & 0xff, 255);
    ck_assert_uint_eq(h->t->evq_n, 300 - 255 < TG_EVQ ? 300 - 255 : TG_EVQ);
    ck_assert_uint_eq(h->t->events_lost, 0);
    ring_state s;
    ck_assert_int_eq(nic_ring_state(h->n->dev, "event", &s), 0);
    ck_assert_uint_eq(s.unreclaimed, 255);
    ck_assert_uint_gt(s.unreclaimed_ticks, 0);
    h->isr_on = true;
    tgh_run(h, US(20));
    ck_assert_uint_eq(h->nevents - base, 300);
    ck_assert_uint_eq(h->t->evq_n, 0);
    ck_assert_uint_eq(h->t->st.event_ring_full, 45);
}
END_TEST

/* ---- interrupts ------------------------------------------------------------------------- */

START_TEST(hi_mailbox_semantics)
{
    tg_host *h = &H;
    tgh_up(h, &h->cfg, 0, 0);
    h->isr_on = false;
    tgh_cmd(h, TG_C_UPDATE_GENCOM, 0, 0); /* STATS_UPDATED event */
    tgh_run(h, US(10));
    ck_assert(h->host.level);
    ck_assert(tgh_rd(h, HostCtrl) & TG_HC_IN_INT);
    /* Any write to Hi clears the interrupt; non-zero holds new ones off. */
    tgh_wr(h, Mb0Lo, 1);
    ck_assert(!h->host.level);
    ck_assert(!(tgh_rd(h, HostCtrl) & TG_HC_IN_INT));
    tgh_cmd(h, TG_C_UPDATE_GENCOM, 0, 0);
    tgh_run(h, US(10));
    ck_assert(!h->host.level);
    /* 1 -> 0: what came meanwhile interrupts now. */
    tgh_wr(h, Mb0Lo, 0);
    ck_assert(h->host.level);
    /* 0 -> 0 (Linux's ack): cleared. */
    tgh_wr(h, Mb0Lo, 0);
    ck_assert(!h->host.level);
    /* 1 -> 0 with nothing new: stays low. */
    tgh_wr(h, Mb0Lo, 1);
    tgh_wr(h, Mb0Lo, 0);
    ck_assert(!h->host.level);
    /* MASK_INTS masks the pin, not IN_INT; MaskInt masks both. */
    tgh_wr(h, HostCtrl, tgh_rd(h, HostCtrl) | TG_HC_MASK_INTS);
    tgh_cmd(h, TG_C_UPDATE_GENCOM, 0, 0);
    tgh_run(h, US(10));
    ck_assert(!h->host.level);
    ck_assert(tgh_rd(h, HostCtrl) & TG_HC_IN_INT);
    tgh_wr(h, HostCtrl, tgh_rd(h, HostCtrl) & ~TG_HC_MASK_INTS);
    ck_assert(h->host.level);
    tgh_wr(h, MaskInt, 1);
    ck_assert(!h->host.level);
    ck_assert(!(tgh_rd(h, HostCtrl) & TG_HC_IN_INT));
    tgh_wr(h, MaskInt, 0);
    ck_assert(h->host.level);
    /* CLR_INT clears it too. */
    tgh_wr(h, HostCtrl, tgh_rd(h, HostCtrl) | TG_HC_CLR_INT);
    ck_assert(!h->host.level);
    /* Nothing interrupts now, so the ISR (IN_INT clear) takes nothing; the
     * next event's interrupt brings all four, each exactly once. */
    unsigned before = h->nevents;
    h->isr_on = true;
    ck_assert(!tgh_isr(h));
    tgh_cmd(h, TG_C_UPDATE_GENCOM, 0, 0);
    tgh_run(h, US(10));
    ck_assert_uint_eq(h->nevents - before, 4);
}
END_TEST

/* ---- link, statistics ---------------------------------------------------------------- */

START_TEST(link_negotiation_events)
{
    tg_host *h = &H;
    watch("link");
    tgh_init(h, &h->cfg);
    ck_assert(!h->t->link.up);
    tgh_run(h, US(1100)); /* negotiation takes 1 ms */
    ck_assert(h->t->link.up);
    ck_assert(tgh_saw_event(h, TG_E_LINK_STATE, TG_E_LINK_UP));
    uint32_t st = tgh_rd(h, GigLnkState);
    ck_assert_uint_eq(st & (TG_LNK_UP | TG_LNK_1000MB | TG_LNK_FULL_DUPLEX),
                      TG_LNK_UP | TG_LNK_1000MB | TG_LNK_FULL_DUPLEX);
    /* The cable goes: LINK_STATE down; it comes back: negotiated again. */
    nic_attach_port(h->n, NULL);
    tgh_run(h, US(10));
    ck_assert(tgh_saw_event(h, TG_E_LINK_STATE, TG_E_LINK_DOWN));
    ck_assert_uint_eq(tgh_rd(h, GigLnkState), 0);
    nic_attach_port(h->n, &h->wire.port);
    tgh_run(h, US(1100));
    ck_assert(h->t->link.up);
    /* LINK_NEGOTIATION 2 with only a 10/100 link word: a 10/100 link. */
    tgh_wr(h, 0x64c, TG_LNK_ENABLE | TG_LNK_100MB | TG_LNK_FULL_DUPLEX);
    tgh_cmd(h, TG_C_LINK_NEGOTIATION, 2, 0);
    tgh_run(h, US(20));
    ck_assert(h->t->link.up); /* no negotiation: forced */
    ck_assert(tgh_saw_event(h, TG_E_LINK_STATE, TG_E_LINK_10_100));
    ck_assert_uint_eq(tgh_rd(h, 0x66c) & (TG_LNK_UP | TG_LNK_100MB), TG_LNK_UP | TG_LNK_100MB);
    ck_assert_uint_ge(ev_count, 4);
}
END_TEST

START_TEST(statistics_dma)
{
    tg_host *h = &H;
    tgh_cfg c = h->cfg;
    c.stat_ticks = 500; /* us */
    tgh_up(h, &c, 16, 0);
    watch("stats");
    uint8_t f[200];
    for (unsigned k = 0; k < 3; k++) {
        tgh_frame(f, 200, TGH_MAC, k);
        ck_assert(fake_wire_deliver(&h->wire, f, 200));
    }
    tgh_run(h, US(600));
    ck_assert_uint_ge(ev_count, 1);
    ck_assert(tgh_saw_event(h, TG_E_STATS_UPDATED, 0));
    /* The block at the GIB, in the host's byte order: ifHCInOctets (36-37),
     * ifHCInUcastPkts (38-39), ifIndex (12), nicCmdsHostState (56). */
    ck_assert_uint_eq(tgh_mr(h, H_GIB + 4 * 37), 600);
    ck_assert_uint_eq(tgh_mr(h, H_GIB + 4 * 39), 3);
    ck_assert_uint_eq(tgh_mr(h, H_GIB + 4 * 12), 1);
    ck_assert_uint_eq(tgh_mr(h, H_GIB + 4 * 56), 1);
    ck_assert_uint_eq(tgh_mr(h, H_GIB + 4 * 17), 1); /* ifOperStatus up */
    /* REFRESH_STATS goes to the refresh pointer; CLEAR_STATS zeroes. */
    tgh_cmd(h, TG_C_CLEAR_STATS, 0, 0);
    tgh_cmd(h, TG_C_REFRESH_STATS, 0, 0);
    tgh_run(h, US(10));
    ck_assert_uint_eq(tgh_mr(h, H_STATS2 + 4 * 39), 0);
    ck_assert_uint_eq(tgh_mr(h, H_STATS2 + 4 * 71), 1); /* nicCmdsRefreshStats */
    ck_assert_uint_eq(ev_last[0], H_STATS2);
    /* MAC statistics in the register file (what Linux's get_stats reads). */
    ck_assert_uint_eq(tgh_rd(h, MacStats + 4 * 31), 3); /* kept_uc */
    /* StatTicks 0 stops the DMA. */
    tgh_wr(h, StatTicks, 0);
    unsigned n = ev_count;
    tgh_run(h, US(2000));
    ck_assert_uint_eq(ev_count, n);
}
END_TEST

/* ---- EEPROM ------------------------------------------------------------------------------ */

static uint32_t lc;
static void lcw(uint32_t v)
{
    lc = v;
    tgh_wr(&H, LocalCtrl, v);
}
static bool din(void) { return tgh_rd(&H, LocalCtrl) & TG_LC_EE_DIN; }

/* acenic's bit-banging (read_eeprom_byte), step for step. */
static int linux_ee_byte(unsigned off)
{
    const uint32_t CLK = TG_LC_EE_CLK, WE = TG_LC_EE_OE, DO = TG_LC_EE_DOUT;
    uint8_t sel[4] = {0xa0, (uint8_t)(off >> 8), (uint8_t)off, 0xa1};
    lc = tgh_rd(&H, LocalCtrl) & ~TG_LC_EE_DIN;
    for (unsigned b = 0; b < 4; b++) {
        if (b == 0 || b == 3) { /* start */
            lcw(lc | DO | WE);
            lcw(lc | CLK);
            lcw(lc & ~DO);
            lcw(lc & ~CLK);
        }
        lcw((lc & ~DO) | WE);
        for (int i = 7; i >= 0; i--) {
            lcw((sel[b] >> i) & 1 ? lc | DO : lc & ~DO);
            lcw(lc | CLK);
            lcw(lc & ~(CLK | DO));
        }
        lcw(lc & ~WE); /* ack */
        lcw(lc | CLK);
        bool nak = din();
        lcw(lc & ~CLK);
        if (nak)
            return -1;
    }
    int r = 0;
    for (int i = 0; i < 8; i++) {
        lcw(lc & ~WE);
        lcw(lc | CLK);
        r = r << 1 | din();
        lcw(lc & ~CLK);
        if (i == 7)
            lcw(lc | WE);
    }
    lcw(lc | DO);
    lcw(lc | CLK);
    lcw(lc & ~CLK);
    lcw(lc | WE); /* stop */
    lcw(lc & ~DO);
    lcw(lc | CLK);
    lcw(lc | DO);
    lcw(lc & ~CLK);
    return r;
}

START_TEST(eeprom_i2c)
{
    uint8_t got[8];
    for (unsigned i = 0; i < 8; i++) {
        int b = linux_ee_byte(0x8c + i);
        ck_assert_int_ge(b, 0);
        got[i] = (uint8_t)b;
    }
    ck_assert_uint_eq(got[0], 0);
    ck_assert_uint_eq(got[1], 0);
    ck_assert_mem_eq(got + 2, TGH_MAC, 6);
    ck_assert_uint_eq(H.t->i2c.reads, 8);
    /* A device select for another address is not acknowledged. */
    nic_eeprom_put(&H.t->ee, 0x123, 0x5a);
    ck_assert_int_eq(linux_ee_byte(0x123), 0x5a);
    H.t->i2c.dev_addr = 0xa2;
    ck_assert_int_eq(linux_ee_byte(0x123), -1);
    H.t->i2c.dev_addr = 0xa0;
    /* Sequential read: after an acknowledged byte the next one follows. */
    nic_i2c *c = &H.t->i2c;
    nic_i2c_pins(c, true, true);
    nic_i2c_pins(c, true, false); /* START */
    uint8_t seq[4] = {0xa0, 0x00, 0x8e, 0};
    for (unsigned b = 0; b < 3; b++) {
        for (int i = 7; i >= 0; i--) {
            nic_i2c_pins(c, false, (seq[b] >> i) & 1);
            nic_i2c_pins(c, true, (seq[b] >> i) & 1);
        }
        nic_i2c_pins(c, false, true);
        nic_i2c_pins(c, true, true);
        ck_assert(!nic_i2c_sda(c));
        nic_i2c_pins(c, false, true);
    }
    nic_i2c_pins(c, true, true);
    nic_i2c_pins(c, true, false); /* repeated START, read */
    for (int i = 7; i >= 0; i--) {
        nic_i2c_pins(c, false, (0xa1 >> i) & 1);
        nic_i2c_pins(c, true, (0xa1 >> i) & 1);
    }
    nic_i2c_pins(c, false, true);
    nic_i2c_pins(c, true, true);
    nic_i2c_pins(c, false, true);
    for (unsigned b = 0; b < 3; b++) {
        unsigned v = 0;
        for (int i = 0; i < 8; i++) {
            nic_i2c_pins(c, true, true);
            v = v << 1 | nic_i2c_sda(c);
            nic_i2c_pins(c, false, true);
        }
        ck_assert_uint_eq(v, TGH_MAC[b]);
        bool last = b == 2;
        nic_i2c_pins(c, false, last); /* ACK (0) or NAK (1) */
        nic_i2c_pins(c, true, last);
        nic_i2c_pins(c, false, last);
    }
    nic_i2c_pins(c, false, false);
    nic_i2c_pins(c, true, false);
    nic_i2c_pins(c, true, true); /* STOP */
    ck_assert(nic_i2c_sda(c));
    /* Page write: three bytes from 0x21e wrap inside the 32-byte page. */
    uint8_t wseq[6] = {0xa0, 0x02, 0x1e, 0x11, 0x22, 0x33};
    nic_i2c_pins(c, true, false); /* START */
    for (unsigned b = 0; b < 6; b++) {
        for (int i = 7; i >= 0; i--) {
            nic_i2c_pins(c, false, (wseq[b] >> i) & 1);
            nic_i2c_pins(c, true, (wseq[b] >> i) & 1);
        }
        nic_i2c_pins(c, false, true);
        nic_i2c_pins(c, true, true);
        ck_assert(!nic_i2c_sda(c)); /* acknowledged */
        nic_i2c_pins(c, false, true);
    }
    ck_assert_uint_eq(nic_eeprom_get(&H.t->ee, 0x21e), 0xff); /* not before STOP */
    nic_i2c_pins(c, false, false);
    nic_i2c_pins(c, true, false);
    nic_i2c_pins(c, true, true); /* STOP */
    ck_assert_uint_eq(nic_eeprom_get(&H.t->ee, 0x21e), 0x11);
    ck_assert_uint_eq(nic_eeprom_get(&H.t->ee, 0x21f), 0x22);
    ck_assert_uint_eq(nic_eeprom_get(&H.t->ee, 0x200), 0x33);
    ck_assert_int_eq(linux_ee_byte(0x21f), 0x22);
}
END_TEST


int main(void)
{
    return check_main("tigon", "core", setup_be, teardown, 60, identity_and_variants,
                      rom_halt_and_wrong_widths, sram_window_and_indirect, pio_byte_swap,
                      firmware_download_start_operational, linux_placeholder_firmware,
                      start_without_firmware, gib_parsed, command_ring,
                      event_ring_full_holds_events, hi_mailbox_semantics, link_negotiation_events,
                      statistics_dma, eeprom_i2c);
}
