/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz target for the IOC3 Ethernet model: the input is a little program
 * that writes and reads its registers and SSRAM (any width), writes Tx
 * descriptors, Rx ring entries and words into the fake host's RAM, delivers
 * frames, moves the virtual clock, toggles bus mastering and the payload
 * DMA mode, resets the function and looks at the debugger views.
 *
 * Each operation is one opcode byte followed by its arguments (little-endian):
 *   0 reg write   off16 size8 value64     4 time        ticks16 (x4)
 *   1 reg read    off16 size8             5 frame       len16 dst8 seed8
 *   2 ram write   off16 value32           6 bus master  on8
 *   3 Tx desc     idx8 cmd32 cnt32 p1off16 p2off16
 *                                         7 PCI reset
 *   8 views       which8                  9 DMA mode    per_word8
 *  10 Rx post     first8 count8 bufoff16 (buffer k at bufoff + k * 0x680)
 *  11 burst       count8 len16 dst8 seed8 (like 5, count times)
 *  12 open        emcr16: Linux's ioc3_init and ioc3_start with the ring
 *                 bases in RAM; EMCR = emcr16, plus RXEN when its bit 15
 *                 (RXDMAEN) is set
 * A register offset is 0xf0 + (off & 0x7c), or with bit 15 set a word of
 * the SSRAM.  A buffer offset is twice its low 15 bits into RAM, or with
 * bit 15 set the same outside RAM (a master abort).  Missing argument bytes read as 0.  After the program the
 * clock runs on, and the invariants of fuzz_check_nic are checked (abort on
 * failure): every frame offered is delivered, dropped with a reason or
 * queued; every frame sent reached the wire; INTA matches the enabled
 * pending causes.  Built with libFuzzer by `make fuzz-ioc3`, replayed by
 * `make check` through fuzz_main.c. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_util.h"
#include "dev/nic/ioc3/ioc3_eth.h"

#define RAM_SIZE (64u * 1024u)
#define MAX_OPS 512
#define RXRING_OFF 0x0000 /* 4 KB: 512 entries */
#define TXRING_OFF 0x4000 /* 16 KB: 128 descriptors */
#define OUTSIDE 0x7000000ull

const char fuzz_target[] = "fuzz_ioc3";

static const uint8_t station[6] = {0x08, 0x00, 0x69, 0x00, 0x00, 0x01};

/* A buffer address from a 16-bit argument: bit 15 = outside RAM, bits
 * 14:0 = half the byte offset in RAM, plus `plus` bytes. */
static uint64_t addr_of(unsigned off, uint64_t plus)
{
    uint64_t a = FAKE_HI + ((uint64_t)(off & 0x7fff) * 2 + plus) % (RAM_SIZE - 2048);
    return (off & 0x8000) ? a + OUTSIDE : a;
}

static unsigned reg_off(unsigned off)
{
    return (off & 0x8000) ? 0x40000 + ((off & 0x7fff) << 2) : 0xf0 + (off & 0x7c);
}


static void wreg(pci_func *f, unsigned off, uint32_t v)
{
    uint64_t x = v;
    pci_bar_access(f, 0, 0, off, 4, &x, true);
}

/* ioc3_init + ioc3_start (ioc3-eth.c), ring bases in RAM. */
static void open_nic(pci_func *f, unsigned emcr)
{
    wreg(f, 0xf0, EMCR_RST);
    wreg(f, 0xf0, 0);
    wreg(f, 0xfc, 15);
    wreg(f, 0x13c,
         (uint32_t)station[3] << 24 | (uint32_t)station[2] << 16 | (uint32_t)station[1] << 8 |
             station[0]);
    wreg(f, 0x138, (uint32_t)station[5] << 8 | station[4]);
    wreg(f, 0x100, (uint32_t)((FAKE_HI + RXRING_OFF) >> 32));
    wreg(f, 0x104, (uint32_t)(FAKE_HI + RXRING_OFF));
    wreg(f, 0x10c, 0);
    wreg(f, 0x128, (uint32_t)((FAKE_HI + TXRING_OFF) >> 32));
    wreg(f, 0x12c, (uint32_t)(FAKE_HI + TXRING_OFF));
    wreg(f, 0x134, 0);
    wreg(f, 0x130, 0);
    wreg(f, 0xf0, (emcr & 0xffff) | (emcr & 0x8000 ? EMCR_RXEN : 0));
    wreg(f, 0xf8, 0x0260003d);
}

/* The ops of this model (the shared ones are fuzz_nic_program's). */
static void ioc3_op(fuzz_nic_rig *g, unsigned code, fuzz_reader *r)
{
    pci_func *f = g->f;
    switch (code) {
    case 0:
    case 1: {
        unsigned off = reg_off((unsigned)fuzz_take(r, 2)), sz = 1u << (fuzz_take(r, 1) & 3);
        uint64_t v = code == 0 ? fuzz_take(r, 8) : 0;
        pci_bar_access(f, 0, 0, off, sz, &v, code == 0);
        break;
    }
    case 3: {
        uint64_t d = FAKE_LO + TXRING_OFF + (fuzz_take(r, 1) & 127) * 128;
        uint32_t cmd = (uint32_t)fuzz_take(r, 4), cnt = (uint32_t)fuzz_take(r, 4);
        uint64_t p1 = addr_of((unsigned)fuzz_take(r, 2), 0);
        uint64_t p2 = addr_of((unsigned)fuzz_take(r, 2), 0);
        fake_w32(&g->host, d, cmd);
        fake_w32(&g->host, d + 4, cnt);
        fake_w32(&g->host, d + 8, (uint32_t)(p1 >> 32));
        fake_w32(&g->host, d + 12, (uint32_t)p1);
        fake_w32(&g->host, d + 16, (uint32_t)(p2 >> 32));
        fake_w32(&g->host, d + 20, (uint32_t)p2);
        break;
    }
    case 10: {
        unsigned first = (unsigned)fuzz_take(r, 1), count = (unsigned)fuzz_take(r, 1);
        unsigned off = (unsigned)fuzz_take(r, 2);
        for (unsigned k = 0; k < count; k++) {
            uint64_t a = FAKE_LO + RXRING_OFF + ((first + k) & 511) * 8;
            uint64_t b = addr_of(off, (uint64_t)k * 0x680);
            fake_w32(&g->host, a, (uint32_t)(b >> 32));
            fake_w32(&g->host, a + 4, (uint32_t)b);
        }
        break;
    }
    case 12: open_nic(f, (unsigned)fuzz_take(r, 2)); break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_nic_rig g;
    fuzz_nic_open(&g, "ioc3-eth", "ioc3_eth0", RAM_SIZE, station);
    run_for(&g.clock, 200000); /* the PHY's autonegotiation (1 ms) */
    fuzz_reader r = {data, size};
    fuzz_nic_program(&g, &r, MAX_OPS, 13, ioc3_op);
    return 0;
}
