/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz target for the Intel 82543GC / 82544EI models.  The first input
 * byte picks the part (even: 82544, odd: 82543); the rest is a little
 * program that writes and reads registers (any offset or one of the
 * registers drivers use, any width, also through the 82544's I/O window),
 * writes descriptors (legacy, context, data) and words into the fake
 * host's RAM, delivers frames (raw, IPv4 UDP/TCP, VLAN-tagged), moves the
 * virtual clock, bit-bangs the MDIO and EEPROM pins, toggles bus
 * mastering and the payload DMA mode, resets the function and looks at
 * the debugger views.
 *
 * Each operation is one opcode byte followed by its arguments (little-endian):
 *   0 reg write  sel8 off16 size8 value32   (sel < NREGS: a known register)
 *   1 reg read   sel8 off16 size8
 *   2 ram write  off16 value32               4 time        ticks16 (x8)
 *   3 descriptor ring8 idx8 kind8 cmd8 len16 buf16 w3_16
 *                (kind: 0 legacy, 1 data, 2 context; bit 7: buffer outside RAM)
 *   5 frame      kind8 len16 dst8 seed8      6 bus master  on8
 *   7 PCI reset                              8 views       which8
 *   9 DMA mode   per_word8                  10 ring fill   ring8 first8 count8 kind8 cmd8 len16
 *  11 burst      count8 kind8 len16 dst8    12 I/O window  write8 off8 value32
 *  13 MDIO bits  count8 then count bytes: bit0 MDIO, bit1 MDC, bit2 drive (CTRL pins,
 *               the other CTRL bits kept)
 *  14 EEPROM     word8 (Linux's bit-banged read)
 *  15 context    idx8 ipcss8 tucss8 hdrlen8 mss16 paylen16 tucmd8
 * Missing argument bytes read as 0.  After the program the clock runs on,
 * and invariants are checked (abort on failure):
 *   - every frame offered to the NIC is delivered, counted as dropped (with
 *     a reason) by the port or the NIC, or still in the Rx FIFO;
 *   - every frame the NIC counts as sent reached the wire;
 *   - INTA is high exactly when an enabled cause is pending.
 * Built with libFuzzer by `make fuzz-e1000`, replayed by `make check`
 * through fuzz_main.c (corpus tests/fuzz/corpus-e1000). */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_util.h"
#include "dev/nic/e1000/e1000.h"

#define RAM_SIZE (64u * 1024u)
#define MAX_OPS 512
#define TXRING_OFF 0x0000
#define RXRING_OFF 0x1000

static const uint16_t known[] = {0x0000, 0x0008, 0x0010, 0x0014, 0x0018, 0x0020, 0x0038, 0x00c0,
                                 0x00c8, 0x00d0, 0x00d8, 0x0100, 0x0400, 0x1000, 0x2800, 0x2804,
                                 0x2808, 0x2810, 0x2818, 0x2820, 0x3800, 0x3804, 0x3808, 0x3810,
                                 0x3818, 0x3820, 0x5000, 0x5200, 0x5204, 0x5400, 0x5404, 0x5408,
                                 0x540c, 0x5600, 0x4010, 0x408c, 0x40a0, 0x40f8, 0x3830, 0x2828};
#define NKNOWN (sizeof known / sizeof known[0])

const char fuzz_target[] = "fuzz_e1000";

static const uint8_t station[6] = {0x02, 0x58, 0x42, 0x00, 0x00, 0x01};

static void bar_access(pci_func *f, unsigned off, unsigned size, uint64_t *v, bool write)
{
    pci_bar_access(f, 0, 0, off & 0x1ffff & ~(uint64_t)(size - 1), size, v, write);
}

/* Descriptor idx (mod 256) of the Tx (ring even) or Rx ring. */
static void put_desc(fake_host *h, unsigned ring, unsigned idx, unsigned kind, unsigned cmd,
                     unsigned len, unsigned bufoff, unsigned w3)
{
    uint64_t buf = FAKE_LO + 0x2000 + (bufoff % (RAM_SIZE - 0x2000));
    if (kind & 0x80)
        buf = 0x7000000ull + bufoff;
    uint64_t a = FAKE_LO + ((ring & 1) ? RXRING_OFF : TXRING_OFF) + (uint64_t)(idx & 255) * 16;
    if (a + 16 > FAKE_LO + RAM_SIZE)
        return;
    fake_w64(h, a, buf);
    uint32_t w2 = len | (uint32_t)cmd << 24;
    switch (kind & 3) {
    case 1: w2 = (len & 0xfffff) | E1000_TXD_DTYP_D | (uint32_t)cmd << 24 | E1000_TXD_DEXT; break;
    case 2:
        w2 = (len & 0xfffff) | ((uint32_t)cmd << 24 & ~E1000_TXD_DTYP_MASK) | E1000_TXD_DEXT;
        break;
    default: break;
    }
    fake_w32(h, a + 8, (ring & 1) ? 0 : w2);
    fake_w32(h, a + 12, (ring & 1) ? 0 : w3 << 8 | (uint32_t)w3 << 16);
}

static uint64_t badlen;

/* Build a frame of kind (0 raw pattern, 1 UDP, 2 TCP, 3 VLAN-tagged raw). */
static unsigned deliver(fake_wire *w, uint8_t *frame, unsigned kind, unsigned len, unsigned dst,
                        unsigned seed)
{
    len = fuzz_nic_frame(frame, len, station, dst, seed, &badlen);
    if (len >= 54 && (kind & 3) && (kind & 3) != 3) {
        frame[12] = 0x08;
        frame[13] = 0x00;
        frame[14] = 0x45;
        store_be(frame + 16, 2, len - 14);
        frame[20] = frame[21] = 0;
        frame[23] = (kind & 3) == 2 ? 6 : 17;
    } else if (len >= 18 && (kind & 3) == 3) {
        frame[12] = 0x81;
        frame[13] = 0x00;
    }
    fake_wire_deliver(w, frame, len);
    return 1;
}

/* Linux's Microwire read (e1000_do_read_eeprom). */
static void ee_read(pci_func *f, unsigned word)
{
    uint64_t v = E1000_EECD_CS;
    bar_access(f, 0x10, 4, &v, true);
    unsigned cmd = 6u << 6 | (word & 63);
    for (int b = 8; b >= 0; b--) {
        uint64_t e = E1000_EECD_CS | ((cmd >> b) & 1 ? E1000_EECD_DI : 0);
        bar_access(f, 0x10, 4, &e, true);
        e |= E1000_EECD_SK;
        bar_access(f, 0x10, 4, &e, true);
        e &= ~(uint64_t)E1000_EECD_SK;
        bar_access(f, 0x10, 4, &e, true);
    }
    for (unsigned i = 0; i < 16; i++) {
        uint64_t e = E1000_EECD_CS | E1000_EECD_SK;
        bar_access(f, 0x10, 4, &e, true);
        bar_access(f, 0x10, 4, &e, false);
        e = E1000_EECD_CS;
        bar_access(f, 0x10, 4, &e, true);
    }
    v = 0;
    bar_access(f, 0x10, 4, &v, true);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_reader r = {data, size};
    const char *model = fuzz_take(&r, 1) & 1 ? "e1000-82543" : "e1000-82544";
    fuzz_nic_rig g;
    fuzz_nic_open(&g, model, "e1000_0", RAM_SIZE, station);
    pci_func *f = g.f;
    nic *n = g.n;
    uint64_t offered = 0;
    badlen = 0;
    static uint8_t frame[NET_MAX_FRAME + 64];
    for (unsigned op = 0; op < MAX_OPS && r.left; op++) {
        unsigned code = (unsigned)fuzz_take(&r, 1) % 16;
        if (fuzz_nic_op(n, f, code, &r, 3))
            continue;
        switch (code) {
        case 0:
        case 1: {
            unsigned sel = (unsigned)fuzz_take(&r, 1), off = (unsigned)fuzz_take(&r, 2);
            unsigned sz = 1u << (fuzz_take(&r, 1) & 3);
            uint64_t v = code == 0 ? fuzz_take(&r, 4) : 0;
            if (sel < NKNOWN)
                off = known[sel];
            bar_access(f, off, sz, &v, code == 0);
            break;
        }
        case 2: {
            uint64_t off = fuzz_take(&r, 2) % (RAM_SIZE - 4);
            fake_w32(&g.host, FAKE_LO + off, (uint32_t)fuzz_take(&r, 4));
            break;
        }
        case 3: {
            unsigned ring = (unsigned)fuzz_take(&r, 1), idx = (unsigned)fuzz_take(&r, 1);
            unsigned kind = (unsigned)fuzz_take(&r, 1), cmd = (unsigned)fuzz_take(&r, 1);
            unsigned len = (unsigned)fuzz_take(&r, 2), buf = (unsigned)fuzz_take(&r, 2);
            put_desc(&g.host, ring, idx, kind, cmd, len, buf, (unsigned)fuzz_take(&r, 2));
            break;
        }
        case 10: {
            unsigned ring = (unsigned)fuzz_take(&r, 1), first = (unsigned)fuzz_take(&r, 1);
            unsigned count = (unsigned)fuzz_take(&r, 1), kind = (unsigned)fuzz_take(&r, 1);
            unsigned cmd = (unsigned)fuzz_take(&r, 1), len = (unsigned)fuzz_take(&r, 2);
            for (unsigned k = 0; k < count; k++)
                put_desc(&g.host, ring, first + k, kind, cmd, len, k * (len & 0x3fff), 0x300);
            break;
        }
        case 4: run_for(&g.clock, fuzz_take(&r, 2) * 8); break;
        case 5: {
            unsigned kind = (unsigned)fuzz_take(&r, 1), len = (unsigned)fuzz_take(&r, 2);
            unsigned dst = (unsigned)fuzz_take(&r, 1);
            offered += deliver(&g.wire, frame, kind, len, dst, (unsigned)fuzz_take(&r, 1));
            break;
        }
        case 11: {
            unsigned count = (unsigned)fuzz_take(&r, 1), kind = (unsigned)fuzz_take(&r, 1);
            unsigned len = (unsigned)fuzz_take(&r, 2), dst = (unsigned)fuzz_take(&r, 1);
            for (unsigned k = 0; k < count; k++)
                offered += deliver(&g.wire, frame, kind, len, dst, k);
            break;
        }
        case 12: {
            bool write = fuzz_take(&r, 1) & 1;
            unsigned off = (unsigned)fuzz_take(&r, 1) & 15;
            uint64_t v = fuzz_take(&r, 4);
            pci_bar_access(f, 0, 4, off & ~3u, 4, &v, write);
            break;
        }
        case 13: {
            unsigned count = (unsigned)fuzz_take(&r, 1);
            for (unsigned k = 0; k < count; k++) {
                unsigned b = (unsigned)fuzz_take(&r, 1);
                uint64_t v;
                bar_access(f, 0, 4, &v, false);
                v &= ~(uint64_t)(E1000_CTRL_SWDPIN2 | E1000_CTRL_SWDPIN3 | E1000_CTRL_SWDPIO2 |
                                 E1000_CTRL_RST);
                v |= E1000_CTRL_SWDPIO3 | ((b & 1) ? E1000_CTRL_SWDPIN2 : 0) |
                     ((b & 2) ? E1000_CTRL_SWDPIN3 : 0) | ((b & 4) ? E1000_CTRL_SWDPIO2 : 0);
                bar_access(f, 0, 4, &v, true);
            }
            break;
        }
        case 14: ee_read(f, (unsigned)fuzz_take(&r, 1)); break;
        case 15: {
            unsigned idx = (unsigned)fuzz_take(&r, 1) & 255, ipcss = (unsigned)fuzz_take(&r, 1);
            unsigned tucss = (unsigned)fuzz_take(&r, 1), hdr = (unsigned)fuzz_take(&r, 1);
            unsigned mss = (unsigned)fuzz_take(&r, 2), paylen = (unsigned)fuzz_take(&r, 2);
            unsigned tucmd = (unsigned)fuzz_take(&r, 1);
            uint64_t a = FAKE_LO + TXRING_OFF + (uint64_t)idx * 16;
            fake_w32(&g.host, a, ipcss | (ipcss + 10) << 8 | (tucss - 1) << 16);
            fake_w32(&g.host, a + 4, tucss | (tucss + 16) << 8);
            fake_w32(&g.host, a + 8, paylen | (uint32_t)tucmd << 24 | E1000_TXD_DEXT);
            fake_w32(&g.host, a + 12, hdr << 8 | mss << 16);
            break;
        }
        }
    }
    run_for(&g.clock, 18000); /* 100 us of virtual time for the engines to settle */
    const uint64_t *rd = n->cnt.rx_drops;
    uint64_t drops = fuzz_check_nic(n, &g.wire, &g.host, offered, badlen);
    if (getenv("FUZZ_VERBOSE"))
        fprintf(stderr,
                "fuzz: %s tx %llu (tso %llu) rx %llu offered %llu rx-drops %llu dma-errors %llu "
                "irqs %llu\n",
                model, (unsigned long long)n->cnt.tx_frames,
                (unsigned long long)((e1000 *)n)->tso_frames, (unsigned long long)n->cnt.rx_frames,
                (unsigned long long)offered, (unsigned long long)drops,
                (unsigned long long)n->cnt.dma_errors, (unsigned long long)n->irq.raises);
    if (getenv("FUZZ_VERBOSE"))
        for (int i = 1; i < NIC_NDROPS; i++)
            if (rd[i] || n->cnt.tx_drops[i])
                fprintf(stderr, "  %s: rx %llu tx %llu\n", nic_drop_names[i],
                        (unsigned long long)rd[i], (unsigned long long)n->cnt.tx_drops[i]);
    fuzz_nic_close(&g);
    return 0;
}
