/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the Bridge: registers, ATE RAM, interrupts, errors, views.
 * PIO lanes are in test_bridge_pio.c, DMA in test_bridge_dma.c. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "bridge_fixture.h"
#include "../../check_run.h"

TCase *bridge_pio_tcase(void);
TCase *bridge_dma_tcase(void);

START_TEST(regs_reset_values)
{
    fixture fx;
    fx_init(&fx);
    uint32_t id = fx_reg(&fx, B_WID_ID);
    ck_assert_uint_eq(id, 0x4c00206d);
    ck_assert_uint_eq((id >> 12) & 0xffff, 0xc002); /* what Linux tests */
    ck_assert_uint_eq(fx_reg(&fx, B_WID_STAT) & 0x20, 0x20);
    ck_assert_uint_eq(fx_reg(&fx, B_WID_CONTROL), 8); /* widget id */
    ck_assert_uint_eq(fx_reg(&fx, B_WID_TFLUSH), 0);
    ck_assert_uint_eq(fx_reg(&fx, B_WR_REQ_BUF0 + 8 * 7), 0);
    ck_assert_uint_eq(fx_reg(&fx, B_INT_STATUS), 0);
    ck_assert_uint_eq(fx_reg(&fx, B_DEVICE(3)), 0);
    /* Byte and halfword reads of a big-endian register. */
    uint64_t v;
    ck_assert_int_eq(fx_rd(&fx, B_WID_ID, 1, &v), BUS_OK);
    ck_assert_uint_eq(v, 0x4c);
    ck_assert_int_eq(fx_rd(&fx, B_WID_ID + 2, 2, &v), BUS_OK);
    ck_assert_uint_eq(v, 0x206d);
    fx_free(&fx);
}
END_TEST

START_TEST(regs_access_rules)
{
    fixture fx;
    fx_init(&fx);
    /* Read-only registers ignore writes. */
    fx_setreg(&fx, B_WID_ID, 0);
    ck_assert_uint_eq(fx_reg(&fx, B_WID_ID), 0x4c00206d);
    fx_setreg(&fx, B_PCI_ERR_LOWER, 0x1234);
    ck_assert_uint_eq(fx_reg(&fx, B_PCI_ERR_LOWER), 0);
    /* Writable masks. */
    fx_setreg(&fx, B_DIR_MAP, 0xffffffff);
    ck_assert_uint_eq(fx_reg(&fx, B_DIR_MAP), 0x00f7ffff);
    fx_setreg(&fx, B_INT_MODE, 0xffffffff);
    ck_assert_uint_eq(fx_reg(&fx, B_INT_MODE), 0xff);
    fx_setreg(&fx, B_INT_ADDR(3), 0xffffffff);
    ck_assert_uint_eq(fx_reg(&fx, B_INT_ADDR(3)), 0x3ffff);
    ck_assert_uint_eq(fx_reg(&fx, B_INT_ADDR(2)), 0);
    fx_setreg(&fx, B_DEVICE(5), 0xffffffff);
    ck_assert_uint_eq(fx_reg(&fx, B_DEVICE(5)), 0x1fffffff);
    fx_setreg(&fx, B_PCI_CFG, 0x12345678);
    ck_assert_uint_eq(fx_reg(&fx, B_PCI_CFG), 0x00345000);
    /* Write-only INT_RST_STAT reads 0; WID_TFLUSH is read-only 0. */
    fx_setreg(&fx, B_INT_RST_STAT, 0x7f);
    ck_assert_uint_eq(fx_reg(&fx, B_INT_RST_STAT), 0);
    fx_setreg(&fx, B_WID_TFLUSH, 5);
    ck_assert_uint_eq(fx_reg(&fx, B_WID_TFLUSH), 0);
    /* Pad words read 0 and swallow writes. */
    uint64_t v = 1;
    ck_assert_int_eq(fx_rd(&fx, 0x200, 4, &v), BUS_OK);
    ck_assert_uint_eq(v, 0);
    fx_setreg(&fx, 0x200, 0xdead);
    ck_assert_uint_eq(fx_reg(&fx, B_DEVICE(0)), 0);
    /* 64-bit accesses: the register is the low (odd) word. */
    ck_assert_int_eq(fx_wr(&fx, 0x200, 8, 0xffffffff00001082ull), BUS_OK);
    ck_assert_uint_eq(fx_reg(&fx, B_DEVICE(0)), 0x1082);
    ck_assert_int_eq(fx_rd(&fx, 0x200, 8, &v), BUS_OK);
    ck_assert_uint_eq(v, 0x1082);
    ck_assert_int_eq(fx_rd(&fx, 0x0, 8, &v), BUS_OK);
    ck_assert_uint_eq(v, 0x4c00206d);
    /* Named registers and fields for the debugger. */
    unsigned id, idx;
    device *d = bridge_device(fx.br);
    ck_assert_int_eq(dev_reg_lookup(d, "DEVICE(5)", &id, &idx), 0);
    ck_assert_uint_eq(idx, 5);
    ck_assert_uint_eq(dev_peek(d, id, idx), 0x1fffffff);
    const reg_field *fld = dev_field_lookup(&d->cls->regs[id], "SWAP_DIR");
    ck_assert_ptr_nonnull(fld);
    ck_assert_uint_eq(fld->lsb, 19);
    ck_assert_int_eq(dev_reg_lookup(d, "INT_ADDR7", &id, &idx), 0);
    ck_assert_int_eq(dev_reg_lookup(d, "NIC", &id, &idx), 0);
    fx_free(&fx);
}
END_TEST

/* Every register: the value read back after writing all-ones, then zero
 * (from the reset state).  Independent of the declaration on purpose. */
static const struct {
    uint32_t off, ones, zero;
    unsigned count;
} reg_rules[] = {
    {0x04, 0x4c00206d, 0x4c00206d, 1}, /* WID_ID, read-only */
    {0x0c, 0x20, 0x20, 1},             /* WID_STAT */
    {0x14, 0, 0, 1},
    {0x1c, 0, 0, 1},          /* WID_ERR_UPPER/LOWER */
    {0x24, 0xffffffff, 0, 1}, /* WID_CONTROL */
    {0x2c, 0xffffffff, 0, 1}, /* WID_REQ_TIMEOUT */
    {0x34, 0xffffffff, 0, 1}, /* WID_INT_UPPER */
    {0x3c, 0xffffffff, 0, 1}, /* WID_INT_LOWER */
    {0x44, 0, 0, 1},          /* WID_ERR_CMDWORD */
    {0x4c, 0xffffffff, 0, 1}, /* WID_LLP */
    {0x54, 0, 0, 1},          /* WID_TFLUSH */
    {0x5c, 0, 0, 1},          /* WID_AUX_ERR */
    {0x64, 0, 0, 1},
    {0x6c, 0, 0, 1},          /* WID_RESP_UPPER/LOWER */
    {0x74, 0xffffffff, 0, 1}, /* WID_TST_PIN_CTRL */
    {0x84, 0x00f7ffff, 0, 1}, /* DIR_MAP */
    {0x94, 0, 0, 1},          /* RAM_PERR */
    {0xa4, 0xffffffff, 0, 1}, /* ARB */
    /* NIC: all-ones starts a reset slot of 1023 + 255 us (no DONE yet);
     * zero is a slot of no time that samples the released line (1) */
    {0xb4, 0x000ffffc, 0x3, 1},
    {0xc4, 0x001f13ff, 0, 1}, /* BUS_TIMEOUT */
    {0xcc, 0x00fff800, 0, 1}, /* PCI_CFG */
    {0xd4, 0, 0, 1},
    {0xdc, 0, 0, 1},           /* PCI_ERR_UPPER/LOWER */
    {0x104, 0, 0, 1},          /* INT_STATUS */
    {0x10c, 0xffffffff, 0, 1}, /* INT_ENABLE */
    {0x114, 0, 0, 1},          /* INT_RST_STAT, write-only */
    {0x11c, 0xff, 0, 1},       /* INT_MODE */
    {0x124, 0x00ffffff, 0, 1}, /* INT_DEVICE */
    {0x12c, 0xff, 0, 1},       /* INT_HOST_ERR */
    {0x134, 0x3ffff, 0, 8},    /* INT_ADDR(n) */
    {0x204, 0x1fffffff, 0, 8}, /* DEVICE(n) */
    {0x244, 0, 0, 8},          /* WR_REQ_BUF(n) */
    {0x284, 0xffffffff, 0, 1},
    {0x28c, 0xffffffff, 0, 1}, /* EVEN/ODD_RESP */
    {0x294, 0, 0, 1},          /* RESP_STATUS */
    {0x29c, 0, 0, 1},          /* RESP_CLEAR, write-only */
};

START_TEST(regs_every_register)
{
    fixture fx;
    fx_init(&fx);
    unsigned n = 0;
    for (unsigned i = 0; i < ARRAY_SIZE(reg_rules); i++) {
        for (unsigned k = 0; k < reg_rules[i].count; k++) {
            uint32_t off = reg_rules[i].off + 8 * k;
            fx_setreg(&fx, off, 0xffffffff);
            ck_assert_msg(fx_reg(&fx, off) == reg_rules[i].ones, "0x%x after ~0: 0x%x", off,
                          fx_reg(&fx, off));
            fx_setreg(&fx, off, 0);
            ck_assert_msg(fx_reg(&fx, off) == reg_rules[i].zero, "0x%x after 0: 0x%x", off,
                          fx_reg(&fx, off));
            n++;
        }
    }
    /* The table covers every declared register element. */
    device *d = bridge_device(fx.br);
    ck_assert_uint_eq(n, d->n_ext);
    for (unsigned e = 0; e < d->n_ext; e++) {
        bool found = false;
        for (unsigned i = 0; i < ARRAY_SIZE(reg_rules) && !found; i++)
            found = d->ext[e].start >= reg_rules[i].off &&
                    d->ext[e].start < reg_rules[i].off + 8 * reg_rules[i].count &&
                    (d->ext[e].start - reg_rules[i].off) % 8 == 0;
        ck_assert_msg(found, "register at 0x%x not in the table", d->ext[e].start);
    }
    /* Nothing above raised an error or an interrupt. */
    ck_assert_uint_eq(fx.nhub, 0);
    fx_free(&fx);
}
END_TEST

static uint64_t mkate(uint64_t xaddr, unsigned xid, unsigned attr)
{
    return (xaddr & 0x0000fffffffff000ull) | (uint64_t)xid << 8 | attr;
}

START_TEST(ate_ram)
{
    fixture fx;
    fx_init(&fx);
    uint64_t ate = mkate(0x123456789000ull, 0xa, 0x1b);
    ck_assert_int_eq(fx_wr(&fx, 0x10000 + 8 * 5, 8, ate), BUS_OK);
    /* Read-back halves: 0x10000+8i+4 = bits 63:32, 0x11000+8i+4 = 31:0. */
    ck_assert_uint_eq(fx_reg(&fx, 0x10000 + 8 * 5 + 4), (uint32_t)(ate >> 32));
    ck_assert_uint_eq(fx_reg(&fx, 0x11000 + 8 * 5 + 4), (uint32_t)ate);
    uint64_t v;
    ck_assert_int_eq(fx_rd(&fx, 0x10000 + 8 * 5, 8, &v), BUS_OK);
    ck_assert_uint_eq(v, ate >> 32);
    /* The low copy is read-only. */
    ck_assert_int_eq(fx_wr(&fx, 0x11000 + 8 * 5, 8, 0), BUS_OK);
    ck_assert_uint_eq(fx_reg(&fx, 0x11000 + 8 * 5 + 4), (uint32_t)ate);
    /* Entry 127 is the last; the view lists valid entries. */
    ck_assert_int_eq(fx_wr(&fx, 0x10000 + 8 * 127, 8, mkate(0x2000, 0xa, 1)), BUS_OK);
    strbuf sb;
    sb_init(&sb);
    dev_view_find(bridge_device(fx.br), "windows")->show(bridge_device(fx.br), "", NULL, &sb);
    ck_assert_ptr_nonnull(
        strstr(sb.s, "ATE5   PCI 0x40005000 -> widget 0xa XIO 0x123456789000 coh"));
    ck_assert_ptr_nonnull(strstr(sb.s, "ATE127 PCI 0x4007f000"));
    sb_free(&sb);
    fx_free(&fx);
}
END_TEST

START_TEST(holes_are_invalid_addresses)
{
    fixture fx;
    fx_init(&fx);
    fx_record(&fx, "bridge.pio.error");
    uint64_t v = 0;
    ck_assert_int_eq(fx_rd(&fx, 0x300, 4, &v), BUS_ERROR);
    ck_assert_uint_eq(v, 0xffffffff);
    uint32_t st = fx_reg(&fx, B_INT_STATUS);
    ck_assert_uint_eq(st, 1u << 24); /* INVLD_ADDR */
    ck_assert_uint_eq(fx_reg(&fx, B_WID_ERR_LOWER), 0x300);
    ck_assert_uint_eq(fx_reg(&fx, B_WID_ERR_CMDWORD) >> 28, 8);
    ck_assert_uint_eq(fx.nev, 1);
    ck_assert_uint_eq(fx.ev_vals[0][4], 2); /* reason invalid */
    /* A posted write to flash space: no bus error, but a second error is
     * "multiple" and the first address stays latched. */
    ck_assert_int_eq(fx_wr(&fx, 0xc00000, 4, 1), BUS_OK);
    ck_assert_uint_eq(fx_reg(&fx, B_INT_STATUS), (1u << 24) | (1u << 31));
    ck_assert_uint_eq(fx_reg(&fx, B_WID_ERR_LOWER), 0x300);
    /* External SSRAM and the reserved space are holes too. */
    ck_assert_int_eq(fx_rd(&fx, 0x80000, 8, &v), BUS_ERROR);
    ck_assert_int_eq(fx_rd(&fx, 0x100000, 4, &v), BUS_ERROR);
    /* Clearing the request group re-arms the latch. */
    fx_setreg(&fx, B_INT_RST_STAT, 0x08);
    ck_assert_uint_eq(fx_reg(&fx, B_INT_STATUS), 1u << 31);
    fx_setreg(&fx, B_INT_RST_STAT, 0x40);
    ck_assert_uint_eq(fx_reg(&fx, B_INT_STATUS), 0);
    ck_assert_int_eq(fx_rd(&fx, 0x29000, 4, &v), BUS_ERROR);
    ck_assert_uint_eq(fx_reg(&fx, B_WID_ERR_LOWER), 0x29000);
    fx_free(&fx);
}
END_TEST

/* ---- interrupts -------------------------------------------------------- */

START_TEST(int_set_and_clear_packets)
{
    fixture fx;
    fx_init(&fx);
    fake_func ff;
    fake_func_init(&ff, "fake3", 0x1000, 0);
    ck_assert_int_eq(bridge_plug(fx.br, 3, &ff.f), 0);
    fx_linux_int_setup(&fx);
    fx_record(&fx, "bridge.int.*");
    int br_init = initiator_find(&fx.bus, "bridge");
    /* Linux: INT_ADDR(pin) = ((intr_addr >> 30) & 0x30000) | level | nasid << 8 */
    fx_setreg(&fx, B_INT_ADDR(3), 0x20000 | 42);
    fx_setreg(&fx, B_INT_ENABLE, 1u << 3);
    fx_setreg(&fx, B_INT_MODE, 1u << 3);
    pci_set_irq(&ff.f, 0, true);
    ck_assert_uint_eq(fx_reg(&fx, B_INT_STATUS), 1u << 3);
    ck_assert_uint_eq(fx.nhub, 1);
    ck_assert_uint_eq(fx.hub[0].off, FX_PEND_MOD);
    ck_assert_uint_eq(fx.hub[0].size, 8);
    ck_assert_uint_eq(fx.hub[0].val, 0x100 | 42);
    ck_assert_int_eq(fx.hub[0].initiator, br_init);
    pci_set_irq(&ff.f, 0, false);
    ck_assert_uint_eq(fx_reg(&fx, B_INT_STATUS), 0);
    ck_assert_uint_eq(fx.nhub, 2);
    ck_assert_uint_eq(fx.hub[1].val, 42);
    /* Events: pin up, set, pin down, clear. */
    ck_assert_uint_eq(fx.nev, 4);
    ck_assert_str_eq(fx.ev_name[1], "bridge.int.set");
    ck_assert_uint_eq(fx.ev_vals[1][0], 3);
    ck_assert_uint_eq(fx.ev_vals[1][1], 42);
    ck_assert_uint_eq(fx.ev_vals[1][2], 0x800001800090ull);
    ck_assert_uint_eq(fx.ev_vals[1][3], FX_HUB_BASE + FX_PEND_MOD);
    ck_assert_uint_eq(fx.ev_vals[1][4], 1);
    ck_assert_str_eq(fx.ev_name[3], "bridge.int.clear");
    /* Without INT_MODE no clear packet. */
    fx_setreg(&fx, B_INT_MODE, 0);
    pci_set_irq(&ff.f, 0, true);
    pci_set_irq(&ff.f, 0, false);
    ck_assert_uint_eq(fx.nhub, 3);
    ck_assert_uint_eq(fx.hub[2].val, 0x100 | 42);
    /* A disabled pin shows its level but sends nothing; enabling it while
     * high sends the set packet. */
    fx_setreg(&fx, B_INT_ENABLE, 0);
    pci_set_irq(&ff.f, 0, true);
    ck_assert_uint_eq(fx_reg(&fx, B_INT_STATUS), 1u << 3);
    ck_assert_uint_eq(fx.nhub, 3);
    fx_setreg(&fx, B_INT_ENABLE, 1u << 3);
    ck_assert_uint_eq(fx.nhub, 4);
    ck_assert_uint_eq(fx.hub[3].val, 0x100 | 42);
    fx_free(&fx);
}
END_TEST

START_TEST(int_pin_routing)
{
    fixture fx;
    fx_init(&fx);
    fake_func a, b;
    fake_func_init(&a, "ioc3", 0x1000, 0);
    fake_func_init(&b, "nic", 0x1000, 0);
    ck_assert_int_eq(bridge_plug(fx.br, 2, &a.f), 0);
    ck_assert_int_eq(bridge_plug(fx.br, 5, &b.f), 0);
    ck_assert_int_eq(bridge_plug(fx.br, 5, &b.f), -1); /* occupied */
    ck_assert_int_eq(bridge_plug(fx.br, 8, &b.f), -1);
    /* Default rule: INTB of slot 2 -> pin 6; INTC of slot 5 -> pin 5. */
    pci_set_irq(&a.f, 1, true);
    ck_assert_uint_eq(fx_reg(&fx, B_INT_STATUS), 1u << 6);
    pci_set_irq(&a.f, 1, false);
    /* IP27 BaseIO override: slot 2 INTB -> pin 4. */
    bridge_set_intx_pin(fx.br, 2, 1, 4);
    pci_set_irq(&a.f, 1, true);
    pci_set_irq(&b.f, 2, true);
    ck_assert_uint_eq(fx_reg(&fx, B_INT_STATUS), (1u << 4) | (1u << 5));
    /* Two sources on one pin: wired OR. */
    bridge_set_intx_pin(fx.br, 5, 2, 4);
    ck_assert_uint_eq(fx_reg(&fx, B_INT_STATUS), 1u << 4);
    pci_set_irq(&a.f, 1, false);
    ck_assert_uint_eq(fx_reg(&fx, B_INT_STATUS), 1u << 4);
    pci_set_irq(&b.f, 2, false);
    ck_assert_uint_eq(fx_reg(&fx, B_INT_STATUS), 0);
    fx_free(&fx);
}
END_TEST

START_TEST(int_packet_to_other_node_or_nowhere)
{
    fixture fx;
    fx_init(&fx);
    fake_func ff;
    fake_func_init(&ff, "fake", 0x1000, 0);
    bridge_plug(fx.br, 0, &ff.f);
    fx_linux_int_setup(&fx);
    fx_record(&fx, "bridge.int.set");
    /* nasid 1: HUB IO space of node 1, which this fixture does not map. */
    fx_setreg(&fx, B_INT_ADDR(0), 0x20000 | 1u << 8 | 12);
    fx_setreg(&fx, B_INT_ENABLE, 1);
    pci_set_irq(&ff.f, 0, true);
    ck_assert_uint_eq(fx.nhub, 0);
    ck_assert_uint_eq(fx.nev, 1);
    ck_assert_uint_eq(fx.ev_vals[0][3], BUS_UNC(1, 0x101800090ull));
    ck_assert_uint_eq(fx.ev_vals[0][4], 0); /* not delivered */
    pci_set_irq(&ff.f, 0, false);
    /* A target widget that is not the HUB: nothing is sent. */
    fx_setreg(&fx, B_INT_ADDR(0), 0x20000 | 12);
    fx_setreg(&fx, B_WID_INT_UPPER, 0x8000 | 3u << 16);
    pci_set_irq(&ff.f, 0, true);
    ck_assert_uint_eq(fx.nhub, 0);
    ck_assert_uint_eq(fx.nev, 2);
    ck_assert_uint_eq(fx.ev_vals[1][4], 0);
    fx_free(&fx);
}
END_TEST

START_TEST(error_interrupt)
{
    fixture fx;
    fx_init(&fx);
    fx_linux_int_setup(&fx);
    fx_setreg(&fx, B_INT_HOST_ERR, 50);
    fx_setreg(&fx, B_INT_ENABLE, 0x7ffffe00); /* what Linux enables */
    uint64_t v;
    /* A PIO read from an empty window: master abort, error interrupt. */
    ck_assert_int_eq(fx_rd(&fx, B_DEVIO(3) + 0x40, 4, &v), BUS_ERROR);
    ck_assert_uint_eq(fx_reg(&fx, B_INT_STATUS), 1u << 11);
    ck_assert_uint_eq(fx.nhub, 1);
    ck_assert_uint_eq(fx.hub[0].val, 0x100 | 50);
    /* Still pending: a second error sends nothing more. */
    ck_assert_int_eq(fx_wr(&fx, B_DEVIO(3), 4, 0), BUS_OK);
    ck_assert_uint_eq(fx.nhub, 1);
    /* Clear everything; the next error interrupts again. */
    fx_setreg(&fx, B_INT_RST_STAT, 0x7f);
    ck_assert_uint_eq(fx_reg(&fx, B_INT_STATUS), 0);
    ck_assert_int_eq(fx_rd(&fx, 0x300, 4, &v), BUS_ERROR);
    ck_assert_uint_eq(fx.nhub, 2);
    /* Errors that are not enabled latch but do not interrupt. */
    fx_setreg(&fx, B_INT_RST_STAT, 0x7f);
    fx_setreg(&fx, B_INT_ENABLE, 0);
    ck_assert_int_eq(fx_rd(&fx, 0x300, 4, &v), BUS_ERROR);
    ck_assert_uint_eq(fx.nhub, 2);
    ck_assert_uint_eq(fx_reg(&fx, B_INT_STATUS), 1u << 24);
    fx_free(&fx);
}
END_TEST

START_TEST(views_text)
{
    fixture fx;
    fx_init(&fx);
    fake_func ff;
    fake_func_init(&ff, "nic0", 0x1000, 0);
    bridge_plug(fx.br, 0, &ff.f);
    pci_config_write(&ff.f, 0x10, 4, 0x08200000);
    pci_config_write(&ff.f, 0x04, 2, PCI_CMD_MEM);
    fx_setreg(&fx, B_DEVICE(0), 0x082 | 0x1000 | 0x80000);
    fx_linux_int_setup(&fx);
    fx_setreg(&fx, B_INT_ADDR(0), 0x20000 | 33);
    fx_setreg(&fx, B_INT_ENABLE, 1);
    pci_set_irq(&ff.f, 0, true);
    device *d = bridge_device(fx.br);
    strbuf sb;
    sb_init(&sb);
    dev_view_find(d, "windows")->show(d, "", NULL, &sb);
    ck_assert_ptr_nonnull(strstr(sb.s, "DEVIO0 0x200000-0x3fffff -> PCI mem 0x08200000-0x083fffff "
                                       "word-values  [slot 0 nic0 BAR0+0x0]"));
    ck_assert_ptr_nonnull(strstr(sb.s, "DMA dir/pci64 byte-stream, ate word-values"));
    ck_assert_ptr_nonnull(
        strstr(sb.s, "DMA direct 0x80000000-0xffffffff -> widget 0xa XIO 0x0-0x7fffffff"));
    ck_assert_ptr_nonnull(
        strstr(sb.s, "pin 0 HIGH enabled  level 33 -> io:0x0001800090  from nic0.INTA*"));
    sb_reset(&sb);
    dev_view_find(d, "pci")->show(d, "", NULL, &sb);
    ck_assert_ptr_nonnull(strstr(sb.s, "slot 0: nic0 1234:5678"));
    ck_assert_ptr_nonnull(strstr(sb.s, "BAR0 mem 0x08200000 size 4K"));
    ck_assert_ptr_nonnull(strstr(sb.s, "slot 1: empty"));
    sb_reset(&sb);
    dev_view_find(d, "dma")->show(d, "", NULL, &sb);
    ck_assert_ptr_nonnull(strstr(sb.s, "(no DMA yet)"));
    sb_free(&sb);
    fx_free(&fx);
}
END_TEST

START_TEST(reset_clears_state)
{
    fixture fx;
    fx_init(&fx);
    fake_func ff;
    fake_func_init(&ff, "fake", 0x1000, 0);
    bridge_plug(fx.br, 1, &ff.f);
    pci_config_write(&ff.f, 0x04, 2, PCI_CMD_MEM | PCI_CMD_MASTER);
    pci_set_irq(&ff.f, 0, true);
    uint64_t v;
    fx_rd(&fx, 0x300, 4, &v);
    fx_wr(&fx, 0x10000, 8, 0x1001);
    fx_setreg(&fx, B_DEVICE(1), 0x1234);
    ck_assert_uint_ne(fx_reg(&fx, B_INT_STATUS), 0);
    device_reset(bridge_device(fx.br));
    ck_assert_uint_eq(fx_reg(&fx, B_INT_STATUS), 0);
    ck_assert_uint_eq(fx_reg(&fx, B_DEVICE(1)), 0);
    ck_assert_uint_eq(fx_reg(&fx, 0x11004), 0);
    /* PCI RST#: the function's command register is cleared too. */
    ck_assert_uint_eq(ff.f.command, 0);
    fx_free(&fx);
}
END_TEST

static Suite *bridge_suite(void)
{
    Suite *s = suite_create("bridge");
    TCase *tc = tcase_create("registers");
    tcase_add_test(tc, regs_reset_values);
    tcase_add_test(tc, regs_access_rules);
    tcase_add_test(tc, regs_every_register);
    tcase_add_test(tc, ate_ram);
    tcase_add_test(tc, holes_are_invalid_addresses);
    tcase_add_test(tc, reset_clears_state);
    tcase_add_test(tc, views_text);
    suite_add_tcase(s, tc);
    tc = tcase_create("interrupts");
    tcase_add_test(tc, int_set_and_clear_packets);
    tcase_add_test(tc, int_pin_routing);
    tcase_add_test(tc, int_packet_to_other_node_or_nowhere);
    tcase_add_test(tc, error_interrupt);
    suite_add_tcase(s, tc);
    suite_add_tcase(s, bridge_pio_tcase());
    suite_add_tcase(s, bridge_dma_tcase());
    return s;
}

int main(void) { return check_run(bridge_suite()) ? EXIT_FAILURE : EXIT_SUCCESS; }
