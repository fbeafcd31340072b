/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Bridge PIO: configuration space lanes, DEVIO windows in both swap modes,
 * big-window aliases, master/target aborts. */
#include <check.h>
#include <string.h>

#include "bridge_fixture.h"
#include "../../check_run.h"

TCase *bridge_pio_tcase(void);

/* Linux's pci_conf0 accessors: 8/16-bit at where ^ (4 - size). */
static uint32_t linux_cfg_read(fixture *fx, int slot, unsigned where, unsigned size)
{
    uint64_t v = 0;
    ck_assert_int_eq(fx_rd(fx, B_CFG(slot, 0) + (where ^ (4 - size)), size, &v), BUS_OK);
    return (uint32_t)v;
}

static void linux_cfg_write(fixture *fx, int slot, unsigned where, unsigned size, uint32_t val)
{
    ck_assert_int_eq(fx_wr(fx, B_CFG(slot, 0) + (where ^ (4 - size)), size, val), BUS_OK);
}

START_TEST(config_lanes)
{
    fixture fx;
    fx_init(&fx);
    fake_func ff;
    fx_plug_fake(&fx, 1, &ff, "fake", 0x2000, 0x100);
    /* 32-bit: the numeric little-endian dword. */
    ck_assert_uint_eq(linux_cfg_read(&fx, 1, 0, 4), 0x56781234);
    ck_assert_uint_eq(linux_cfg_read(&fx, 1, 0, 2), 0x1234);
    ck_assert_uint_eq(linux_cfg_read(&fx, 1, 2, 2), 0x5678);
    ck_assert_uint_eq(linux_cfg_read(&fx, 1, 0, 1), 0x34);
    ck_assert_uint_eq(linux_cfg_read(&fx, 1, 1, 1), 0x12);
    ck_assert_uint_eq(linux_cfg_read(&fx, 1, 3, 1), 0x56);
    ck_assert_uint_eq(linux_cfg_read(&fx, 1, 0x0b, 1), 0x02); /* class */
    ck_assert_uint_eq(linux_cfg_read(&fx, 1, 0x3d, 1), 1);    /* INTA */
    /* Plain byte addresses follow the lane model: CPU byte X = PCI X^3. */
    uint64_t v;
    ck_assert_int_eq(fx_rd(&fx, B_CFG(1, 0) + 0, 1, &v), BUS_OK);
    ck_assert_uint_eq(v, 0x56);
    /* A 64-bit read: dword 0 in the high half. */
    ck_assert_int_eq(fx_rd(&fx, B_CFG(1, 0), 8, &v), BUS_OK);
    ck_assert_uint_eq(v, 0x5678123400000000ull);
    /* Writes: command through a 16-bit access, BAR sizing through 32-bit. */
    linux_cfg_write(&fx, 1, 0x04, 2, PCI_CMD_MEM | PCI_CMD_MASTER);
    ck_assert_uint_eq(ff.f.command, PCI_CMD_MEM | PCI_CMD_MASTER);
    linux_cfg_write(&fx, 1, 0x10, 4, 0xffffffff);
    ck_assert_uint_eq(linux_cfg_read(&fx, 1, 0x10, 4), 0xffffe000);
    linux_cfg_write(&fx, 1, 0x14, 4, 0xffffffff);
    ck_assert_uint_eq(linux_cfg_read(&fx, 1, 0x14, 4), 0xffffff01);
    linux_cfg_write(&fx, 1, 0x10, 4, 0x08400000);
    ck_assert_uint_eq(ff.f.bar_value[0], 0x08400000);
    linux_cfg_write(&fx, 1, 0x3c, 1, 0x2a);
    ck_assert_uint_eq(ff.f.int_line, 0x2a);
    ck_assert_uint_eq(linux_cfg_read(&fx, 1, 0x3c, 2), 0x012a);
    fx_free(&fx);
}
END_TEST

START_TEST(config_master_abort)
{
    fixture fx;
    fx_init(&fx);
    fake_func ff;
    fx_plug_fake(&fx, 1, &ff, "fake", 0x2000, 0);
    /* Empty slot, function 1 of a single-function device, type 1: all-ones,
     * no error latched (the Linux scan does this for every slot). */
    ck_assert_uint_eq(linux_cfg_read(&fx, 0, 0, 4), 0xffffffff);
    ck_assert_uint_eq(linux_cfg_read(&fx, 7, 0, 2), 0xffff);
    uint64_t v;
    ck_assert_int_eq(fx_rd(&fx, B_CFG(1, 1), 4, &v), BUS_OK);
    ck_assert_uint_eq(v, 0xffffffff);
    fx_setreg(&fx, B_PCI_CFG, 1u << 16 | 1u << 11);
    ck_assert_int_eq(fx_rd(&fx, 0x28000, 4, &v), BUS_OK);
    ck_assert_uint_eq(v, 0xffffffff);
    ck_assert_int_eq(fx_wr(&fx, B_CFG(3, 0) + 4, 4, 6), BUS_OK);
    ck_assert_uint_eq(fx_reg(&fx, B_INT_STATUS), 0);
    /* IACK: nobody answers either. */
    ck_assert_int_eq(fx_rd(&fx, 0x30000, 4, &v), BUS_OK);
    ck_assert_uint_eq(v, 0xffffffff);
    /* The optional DBE behaviour. */
    bridge_set_cfg_abort_error(fx.br, true);
    ck_assert_int_eq(fx_rd(&fx, B_CFG(0, 0), 4, &v), BUS_ERROR);
    ck_assert_int_eq(fx_rd(&fx, B_CFG(1, 0), 4, &v), BUS_OK);
    fx_free(&fx);
}
END_TEST

/* Slot 0 fake function at PCI 0x08200000 in DEVIO(0), as the PROM sets it
 * up (docs/hardware.md); its BAR0 memory holds bytes 0x00, 0x01, ... */
static void devio_setup(fixture *fx, fake_func *ff, uint32_t devbits)
{
    fx_plug_fake(fx, 0, ff, "fake", 0x2000, 0x100);
    pci_config_write(&ff->f, 0x10, 4, 0x08200000);
    pci_config_write(&ff->f, 0x04, 2, PCI_CMD_MEM);
    for (unsigned i = 0; i < sizeof ff->mem[0]; i++)
        ff->mem[0][i] = (uint8_t)i;
    fx_setreg(fx, B_DEVICE(0), 0x082 | 0x1000 | devbits);
}

START_TEST(devio_word_values)
{
    fixture fx;
    fx_init(&fx);
    fake_func ff;
    devio_setup(&fx, &ff, 0);
    uint64_t v;
    ck_assert_int_eq(fx_rd(&fx, B_DEVIO(0), 4, &v), BUS_OK);
    ck_assert_uint_eq(v, 0x03020100); /* numeric LE dword */
    ck_assert_uint_eq(ff.nlog, 1);
    ck_assert_uint_eq(ff.log[0].off, 0);
    ck_assert_uint_eq(ff.log[0].size, 4);
    ck_assert_int_eq(fx_rd(&fx, B_DEVIO(0) + 0, 1, &v), BUS_OK);
    ck_assert_uint_eq(v, 0x03); /* CPU byte X = PCI byte X^3 */
    ck_assert_uint_eq(ff.log[1].off, 3);
    ck_assert_int_eq(fx_rd(&fx, B_DEVIO(0) + 3, 1, &v), BUS_OK);
    ck_assert_uint_eq(v, 0x00);
    ck_assert_int_eq(fx_rd(&fx, B_DEVIO(0) + 0, 2, &v), BUS_OK);
    ck_assert_uint_eq(v, 0x0302); /* the PCI halfword at X^2 */
    ck_assert_uint_eq(ff.log[3].off, 2);
    ck_assert_uint_eq(ff.log[3].size, 2);
    ck_assert_int_eq(fx_rd(&fx, B_DEVIO(0) + 6, 2, &v), BUS_OK);
    ck_assert_uint_eq(v, 0x0504);
    /* 64-bit: dword(A) << 32 | dword(A+4), as two 32-bit PCI cycles. */
    ff.nlog = 0;
    ck_assert_int_eq(fx_rd(&fx, B_DEVIO(0) + 8, 8, &v), BUS_OK);
    ck_assert_uint_eq(v, 0x0b0a09080f0e0d0cull);
    ck_assert_uint_eq(ff.nlog, 2);
    ck_assert_uint_eq(ff.log[0].off, 8);
    ck_assert_uint_eq(ff.log[1].off, 12);
    /* Writes. */
    ff.nlog = 0;
    ck_assert_int_eq(fx_wr(&fx, B_DEVIO(0) + 0x10, 4, 0xaabbccdd), BUS_OK);
    ck_assert_uint_eq(ff.log[0].val, 0xaabbccdd);
    ck_assert_uint_eq(ff.mem[0][0x10], 0xdd);
    ck_assert_uint_eq(ff.mem[0][0x13], 0xaa);
    ck_assert_int_eq(fx_wr(&fx, B_DEVIO(0) + 0x14, 1, 0x11), BUS_OK);
    ck_assert_uint_eq(ff.log[1].off, 0x17);
    ck_assert_uint_eq(ff.mem[0][0x17], 0x11);
    ck_assert_int_eq(fx_wr(&fx, B_DEVIO(0) + 0x18, 2, 0x2233), BUS_OK);
    ck_assert_uint_eq(ff.log[2].off, 0x1a);
    ck_assert_uint_eq(ff.mem[0][0x1a], 0x33);
    ck_assert_uint_eq(ff.mem[0][0x1b], 0x22);
    ck_assert_int_eq(fx_wr(&fx, B_DEVIO(0) + 0x20, 8, 0x1122334455667788ull), BUS_OK);
    static const uint8_t want[8] = {0x44, 0x33, 0x22, 0x11, 0x88, 0x77, 0x66, 0x55};
    ck_assert_mem_eq(ff.mem[0] + 0x20, want, 8);
    /* DEV_SIZE (64-bit device): one 8-byte PCI cycle. */
    fx_setreg(&fx, B_DEVICE(0), 0x082 | 0x1000 | 0x400000);
    ff.nlog = 0;
    ck_assert_int_eq(fx_rd(&fx, B_DEVIO(0) + 0x20, 8, &v), BUS_OK);
    ck_assert_uint_eq(v, 0x1122334455667788ull);
    ck_assert_uint_eq(ff.nlog, 1);
    ck_assert_uint_eq(ff.log[0].size, 8);
    ck_assert_uint_eq(ff.log[0].val, 0x5566778811223344ull);
    fx_free(&fx);
}
END_TEST

START_TEST(devio_byte_stream)
{
    fixture fx;
    fx_init(&fx);
    fake_func ff;
    devio_setup(&fx, &ff, 0x2000); /* DEV_SWAP */
    uint64_t v;
    ck_assert_int_eq(fx_rd(&fx, B_DEVIO(0), 4, &v), BUS_OK);
    ck_assert_uint_eq(v, 0x00010203);
    ck_assert_uint_eq(ff.log[0].val, 0x03020100);
    ck_assert_int_eq(fx_rd(&fx, B_DEVIO(0) + 1, 1, &v), BUS_OK);
    ck_assert_uint_eq(v, 0x01);
    ck_assert_uint_eq(ff.log[1].off, 1);
    ck_assert_int_eq(fx_rd(&fx, B_DEVIO(0) + 2, 2, &v), BUS_OK);
    ck_assert_uint_eq(v, 0x0203);
    ck_assert_int_eq(fx_rd(&fx, B_DEVIO(0) + 8, 8, &v), BUS_OK);
    ck_assert_uint_eq(v, 0x08090a0b0c0d0e0full);
    ck_assert_int_eq(fx_wr(&fx, B_DEVIO(0) + 0x10, 4, 0xaabbccdd), BUS_OK);
    static const uint8_t want[4] = {0xaa, 0xbb, 0xcc, 0xdd};
    ck_assert_mem_eq(ff.mem[0] + 0x10, want, 4);
    ck_assert_int_eq(fx_wr(&fx, B_DEVIO(0) + 0x18, 8, 0x0102030405060708ull), BUS_OK);
    static const uint8_t want8[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    ck_assert_mem_eq(ff.mem[0] + 0x18, want8, 8);
    fx_free(&fx);
}
END_TEST

START_TEST(devio_io_space_and_window_index)
{
    fixture fx;
    fx_init(&fx);
    fake_func ff;
    devio_setup(&fx, &ff, 0);
    /* The I/O BAR through DEVIO(1) as an I/O window. */
    pci_config_write(&ff.f, 0x14, 4, 0x08400000);
    pci_config_write(&ff.f, 0x04, 2, PCI_CMD_MEM | PCI_CMD_IO);
    fx_setreg(&fx, B_DEVICE(1), 0x084); /* IO_MEM = 0: I/O space */
    ff.mem[1][0x10] = 0x5a;
    ff.nlog = 0;
    uint64_t v;
    ck_assert_int_eq(fx_rd(&fx, B_DEVIO(1) + 0x13, 1, &v), BUS_OK);
    ck_assert_uint_eq(v, 0x5a);
    ck_assert_uint_eq(ff.log[0].bar, 1);
    ck_assert_uint_eq(ff.log[0].off, 0x10);
    /* The decode follows the register index: DEVICE(5) can map slot 0's
     * BAR0 through DEVIO(5). */
    fx_setreg(&fx, B_DEVICE(5), 0x082 | 0x1000);
    ck_assert_int_eq(fx_rd(&fx, B_DEVIO(5) + 4, 4, &v), BUS_OK);
    ck_assert_uint_eq(v, 0x07060504);
    /* The 2 MB window's upper MB is PCI 0x08300000: beyond the 8 KB BAR. */
    ck_assert_int_eq(fx_rd(&fx, B_DEVIO(0) + 0x100000, 4, &v), BUS_ERROR);
    ck_assert_uint_eq(fx_reg(&fx, B_PCI_ERR_LOWER), 0x08300000);
    fx_free(&fx);
}
END_TEST

START_TEST(pio_aborts)
{
    fixture fx;
    fx_init(&fx);
    fake_func ff;
    devio_setup(&fx, &ff, 0);
    fx_record(&fx, "bridge.pio*");
    /* Master abort: nothing decodes DEVIO(3)'s PCI address. */
    fx_setreg(&fx, B_DEVICE(3), 0x0a0 | 0x1000);
    uint64_t v = 0;
    ck_assert_int_eq(fx_rd(&fx, B_DEVIO(3) + 0x44, 4, &v), BUS_ERROR);
    ck_assert_uint_eq(v, 0xffffffff);
    ck_assert_uint_eq(fx_reg(&fx, B_INT_STATUS), 1u << 11); /* PCI_MST_TIMEOUT */
    ck_assert_uint_eq(fx_reg(&fx, B_PCI_ERR_LOWER), 0x0a000044);
    ck_assert_uint_eq(fx_reg(&fx, B_PCI_ERR_UPPER), 3u << 16);
    ck_assert_uint_eq(fx.nev, 1);
    ck_assert_str_eq(fx.ev_name[0], "bridge.pio.error");
    ck_assert_int_eq(fx.ev_who[0], fx.cpu); /* the CPU's access, not the Bridge's */
    ck_assert_uint_eq(fx.ev_vals[0][2], 0x0a000044);
    ck_assert_uint_eq(fx.ev_vals[0][4], 0); /* master-abort */
    /* Posted write: no bus error, the machine carries on. */
    ck_assert_int_eq(fx_wr(&fx, B_DEVIO(3), 4, 1), BUS_OK);
    fx_setreg(&fx, B_INT_RST_STAT, 0x7f);
    /* Memory decode disabled: master abort too. */
    pci_config_write(&ff.f, 0x04, 2, 0);
    ck_assert_int_eq(fx_rd(&fx, B_DEVIO(0), 4, &v), BUS_ERROR);
    pci_config_write(&ff.f, 0x04, 2, PCI_CMD_MEM);
    fx_setreg(&fx, B_INT_RST_STAT, 0x7f);
    /* Target abort: the device refuses. */
    ff.refuse = true;
    ck_assert_int_eq(fx_rd(&fx, B_DEVIO(0) + 8, 4, &v), BUS_ERROR);
    ck_assert_uint_eq(fx_reg(&fx, B_INT_STATUS), 1u << 15); /* PCI_ABORT */
    ck_assert_uint_eq(fx_reg(&fx, B_PCI_ERR_LOWER), 0x08200008);
    ff.refuse = false;
    /* A successful PIO event. */
    unsigned n = fx.nev;
    ck_assert_int_eq(fx_wr(&fx, B_DEVIO(0) + 0x30, 4, 0xcafe), BUS_OK);
    ck_assert_uint_eq(fx.nev, n + 1);
    ck_assert_str_eq(fx.ev_name[n], "bridge.pio");
    ck_assert_int_eq(fx.ev_who[n], fx.cpu);
    /* The PCI cycle reaches the function on the CPU's behalf. */
    ck_assert_int_eq(ff.log[ff.nlog - 1].who, fx.cpu);
    ck_assert_uint_eq(fx.ev_vals[n][0], 1);
    ck_assert_uint_eq(fx.ev_vals[n][2], 0x08200030);
    ck_assert_uint_eq(fx.ev_vals[n][4], 0xcafe);
    ck_assert_uint_eq(fx.ev_vals[n][5], 0);
    fx_free(&fx);
}
END_TEST

static int xio(fixture *fx, uint64_t a, unsigned size, uint64_t *val, bool write)
{
    bus_op op = {.addr = a, .size = size, .write = write, .initiator = (uint16_t)fx->cpu};
    return bridge_xio_access(fx->br, &op, a, val);
}

START_TEST(big_window_aliases)
{
    fixture fx;
    fx_init(&fx);
    fake_func ff;
    devio_setup(&fx, &ff, 0);
    pci_config_write(&ff.f, 0x14, 4, 0x00001000);
    pci_config_write(&ff.f, 0x04, 2, PCI_CMD_MEM | PCI_CMD_IO);
    uint64_t v;
    /* MEM32 alias, MEM_SWAP clear: word values. */
    ck_assert_int_eq(xio(&fx, 0x40000000 + 0x08200004, 4, &v, false), BUS_OK);
    ck_assert_uint_eq(v, 0x07060504);
    ck_assert_int_eq(xio(&fx, 0x40000000 + 0x08200004, 1, &v, false), BUS_OK);
    ck_assert_uint_eq(v, 0x07);
    /* MEM64 alias. */
    ck_assert_int_eq(xio(&fx, 0x80000000 + 0x08200000, 8, &v, false), BUS_OK);
    ck_assert_uint_eq(v, 0x0302010007060504ull);
    /* MEM_SWAP: byte stream. */
    fx_setreg(&fx, B_WID_CONTROL, 8 | 1u << 22);
    ck_assert_int_eq(xio(&fx, 0x40000000 + 0x08200004, 4, &v, false), BUS_OK);
    ck_assert_uint_eq(v, 0x04050607);
    /* I/O alias with IO_SWAP clear. */
    ff.mem[1][4] = 0x99;
    ck_assert_int_eq(xio(&fx, 0x100000000ull + 0x1004, 4, &v, false), BUS_OK);
    ck_assert_uint_eq(v, 0x99);
    v = 0x12345678;
    ck_assert_int_eq(xio(&fx, 0x100000000ull + 0x1008, 4, &v, true), BUS_OK);
    ck_assert_uint_eq(load_le(ff.mem[1] + 8, 4), 0x12345678);
    ck_assert_int_eq(ff.log[ff.nlog - 1].who, fx.cpu);
    /* Widget space through the big window. */
    ck_assert_int_eq(xio(&fx, B_WID_ID, 4, &v, false), BUS_OK);
    ck_assert_uint_eq(v, 0x4c00206d);
    /* Nothing there. */
    ck_assert_int_eq(xio(&fx, 0x20000000, 4, &v, false), BUS_ERROR);
    ck_assert_uint_eq(fx_reg(&fx, B_INT_STATUS), 1u << 24);
    ck_assert_uint_eq(fx_reg(&fx, B_WID_ERR_LOWER), 0x20000000);
    ck_assert_int_eq(xio(&fx, 0x40000000 + 0x20000000, 4, &v, false), BUS_ERROR);
    ck_assert_uint_eq(fx_reg(&fx, B_INT_STATUS) & (1u << 11), 1u << 11);
    fx_free(&fx);
}
END_TEST

TCase *bridge_pio_tcase(void)
{
    TCase *tc = tcase_create("pio");
    tcase_set_timeout(tc, CHECK_HANG_SECONDS);
    check_add_tests(tc, config_lanes, config_master_abort, devio_word_values, devio_byte_stream,
                    devio_io_space_and_window_index, pio_aborts, big_window_aliases);
    return tc;
}
