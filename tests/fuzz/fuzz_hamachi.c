/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz target for the Hamachi GNIC-II model: the input is a little program
 * that writes and reads registers (any offset, any width), writes
 * descriptors and words into the fake host's RAM, delivers frames, moves
 * the virtual clock, toggles bus mastering and the payload DMA mode,
 * resets the function and looks at the debugger views.
 *
 * Each operation is one opcode byte followed by its arguments (little-endian):
 *   0 reg write   off16 size8 value64     4 time        ticks16 (x4)
 *   1 reg read    off16 size8             5 frame       len16 dst8 seed8
 *   2 ram write   off16 value32           6 bus master  on8
 *   3 descriptor  ring8 index8 flags8 len16 buf16   7 PCI reset
 *                 (flags: 1 Own 2 EOP 4 EndRing 8 Intr 16 64-bit 32 outside RAM)
 *   8 views       which8                  9 DMA mode    per_word8
 *  10 ring fill   ring8 first8 count8 flags8 len16 buf16  (like 3, count times)
 *  11 burst       count8 len16 dst8 seed8 (like 5, count times)
 * Missing argument bytes read as 0.  After the program the clock runs on,
 * and invariants are checked (abort on failure):
 *   - every frame offered to the NIC is delivered, counted as dropped (with
 *     a reason) by the port or the NIC, or still in the Rx FIFO;
 *   - every frame the NIC counts as sent reached the wire;
 *   - INTA is high exactly when an enabled cause is pending.
 * Built with libFuzzer by `make fuzz`, and replayed by `make check` through
 * fuzz_main.c. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_util.h"
#include "dev/nic/hamachi/hamachi.h"

#define RAM_SIZE (64u * 1024u)
#define MAX_OPS 512
#define TXRING_OFF 0x0000
#define RXRING_OFF 0x0800

const char fuzz_target[] = "fuzz_hamachi";

static const uint8_t station[6] = {0x02, 0x58, 0x42, 0x00, 0x00, 0x01};

/* Descriptor idx (mod 64) of the Tx (ring even) or Rx ring; flags: 1 Own
 * 2 EOP 4 EndRing 8 Intr 16 64-bit layout and window 32 outside RAM. */
static void put_desc(fake_host *host, unsigned ring, unsigned idx, unsigned fl, unsigned len,
                     uint64_t bufoff)
{
    uint64_t buf = FAKE_LO + (bufoff & 0xffff);
    if (fl & 32)
        buf = 0x7000000 + buf;
    unsigned dsz = (fl & 16) ? 16 : 8;
    uint64_t a = FAKE_LO + ((ring & 1) ? RXRING_OFF : TXRING_OFF) + (uint64_t)(idx & 63) * dsz;
    uint32_t st = (len & 0xffff) | (fl & 1 ? HAM_DESC_OWN : 0) | (fl & 2 ? HAM_DESC_EOP : 0) |
                  (fl & 4 ? HAM_DESC_END_RING : 0) | (fl & 8 ? HAM_DESC_INTR : 0);
    if (dsz == 16)
        fake_w64(host, a + 8, (fl & 16) && !(fl & 32) ? buf - FAKE_LO + FAKE_HI : buf);
    else
        fake_w32(host, a + 4, (uint32_t)buf);
    fake_w32(host, a, st);
}


/* The ops of this model (the shared ones are fuzz_nic_program's). */
static void hamachi_op(fuzz_nic_rig *g, unsigned code, fuzz_reader *r)
{
    pci_func *f = g->f;
    switch (code) {
    case 0: {
        unsigned off = (unsigned)fuzz_take(r, 2) & 0x3ff, sz = 1u << (fuzz_take(r, 1) & 3);
        uint64_t v = fuzz_take(r, 8);
        pci_bar_access(f, 0, 0, off, sz, &v, true);
        break;
    }
    case 1: {
        unsigned off = (unsigned)fuzz_take(r, 2) & 0x3ff, sz = 1u << (fuzz_take(r, 1) & 3);
        uint64_t v;
        pci_bar_access(f, 0, 0, off, sz, &v, false);
        break;
    }
    case 3: {
        unsigned ring = (unsigned)fuzz_take(r, 1), idx = (unsigned)fuzz_take(r, 1);
        unsigned fl = (unsigned)fuzz_take(r, 1), len = (unsigned)fuzz_take(r, 2);
        put_desc(&g->host, ring, idx, fl, len, fuzz_take(r, 2));
        break;
    }
    case 10: {
        unsigned ring = (unsigned)fuzz_take(r, 1), idx = (unsigned)fuzz_take(r, 1);
        unsigned count = (unsigned)fuzz_take(r, 1), fl = (unsigned)fuzz_take(r, 1);
        unsigned len = (unsigned)fuzz_take(r, 2);
        uint64_t off = fuzz_take(r, 2);
        for (unsigned k = 0; k < count; k++)
            put_desc(&g->host, ring, idx + k, fl & ~4u, len, off + (uint64_t)k * len);
        if (count)
            put_desc(&g->host, ring, idx + count - 1, fl, len, off + (uint64_t)(count - 1) * len);
        break;
    }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_nic_rig g;
    fuzz_nic_open(&g, "hamachi", "hamachi0", RAM_SIZE, station);
    fuzz_reader r = {data, size};
    fuzz_nic_program(&g, &r, MAX_OPS, 12, hamachi_op);
    return 0;
}
