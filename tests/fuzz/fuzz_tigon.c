/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz target for the Tigon2 model: the input is a little program that
 * writes and reads registers (any offset, any width), writes host memory,
 * rings doorbells, issues commands, delivers frames, queues transmits,
 * posts receive buffers, moves the virtual clock, toggles bus mastering
 * and the payload DMA mode, resets the chip and looks at the views.
 *
 * Byte 0 picks the start: 0 = power-on, 1 = firmware started (Linux
 * ace_init, big-endian), 2 = also opened (HOST_STATE up, rings loaded),
 * 3 = opened as a little-endian host, 4 = opened with the send ring in NIC
 * SRAM, 5 = opened with raw PIO (HostCtrl BYTE_SWAP).  Then each operation
 * is one opcode byte and its arguments (little-endian, missing bytes 0):
 *   0 reg write  off16 size8 value32     9 bus master  on8
 *   1 reg read   off16 size8             10 reset       kind8 (0 PCI, 1 HostCtrl)
 *   2 ram write  off24 value32           11 views       which8
 *   3 mailbox    which8 value16          12 DMA mode    per_word8
 *   4 command    code8 sub8 idx16        13 ISR         on8 (also runs it once)
 *   5 time       ticks16 (x 8)           14 GCR write   word8 value32
 *   6 frame      len16 dst8 seed8 kind8  15 CPU         halt8
 *   7 send       len16 frags8 flags16 vlan16
 *   8 post       ring8 count8 size16
 * After the program the clock runs on, and invariants are checked (abort
 * on failure):
 *   - every frame offered to the NIC is delivered, counted as dropped
 *     (with a reason), or still in the Rx FIFO;
 *   - every frame the NIC counts as sent reached the wire;
 *   - INTA is high exactly when an enabled request is pending, and then
 *     HostCtrl shows IN_INT;
 *   - ring positions stay inside their rings.
 * Built with libFuzzer by `make fuzz-tigon`, replayed by `make check`. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_util.h"
#include "../unit/dev/nic/tigon/tigon_host.h"
#include "core/log.h"

#define MAX_OPS 400

const char fuzz_target[] = "fuzz_tigon";

static tg_host H;
static uint8_t frame[NET_MAX_FRAME + 64];

static void start(tg_host *h, unsigned how)
{
    tgh_cfg c = tgh_linux_cfg(how != 3);
    if (how == 4) {
        c.tx_flags = TG_RCB_COAL_UPDATE_ONLY;
        c.tx_addr = 0x2000;
        c.tx_entries = 512;
    }
    if (how == 5)
        c.host_ctrl |= TG_HC_BYTE_SWAP;
    if (how == 1)
        tgh_init(h, &c);
    else if (how >= 2)
        tgh_up(h, &c, 16, 8);
}

static void make_frame(unsigned len, unsigned dst, unsigned seed, unsigned kind)
{
    static const uint8_t mac[6] = {0x08, 0x00, 0x69, 0x12, 0x34, 0x56};
    static const uint8_t bcast[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    const uint8_t *d = (dst & 3) == 0 ? mac : (dst & 3) == 1 ? bcast : NULL;
    uint8_t other[6] = {(uint8_t)(dst & 2 ? 1 : 2), 0, 0x5e, 0, 0, (uint8_t)seed};
    if (kind & 1 && len >= 42)
        tgh_udp_frame(frame, len, d ? d : other, seed);
    else if (len >= 14)
        tgh_frame(frame, len, d ? d : other, seed);
    else
        for (unsigned i = 0; i < len; i++)
            frame[i] = (uint8_t)(seed + 7 * i);
    if ((kind & 2) && len >= 18) { /* an 802.1Q tag */
        memmove(frame + 16, frame + 12, len - 16);
        store_be(frame + 12, 2, 0x8100);
        store_be(frame + 14, 2, seed);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tg_host *h = &H;
    strbuf evtext;
    fuzz_reader r = {data, size};
    log_set_level(LOG_ERROR); /* bad programs make the model warn, by design */
    tgh_setup(h, "tigon2", true);
    sb_init(&evtext);
    fuzz_format_events(&h->eb, "tigon0.*", &evtext);
    start(h, (unsigned)fuzz_take(&r, 1) % 6);
    uint64_t offered = 0;
    static const unsigned mbox[6] = {0x504, 0x50c, 0x514, 0x51c, 0x524, 0x52c};
    for (unsigned op = 0; op < MAX_OPS && r.left; op++) {
        switch ((unsigned)fuzz_take(&r, 1) % 16) {
        case 0: {
            unsigned off = (unsigned)fuzz_take(&r, 2) & 0x3fff, sz = 1u << (fuzz_take(&r, 1) & 3);
            uint64_t v = fuzz_take(&r, 4);
            if (off == 0x40 && (v & TG_HC_HW_RESET))
                h->pio_raw = false;
            pci_bar_access(h->f, 0, 0, off, sz, &v, true);
            break;
        }
        case 1: {
            unsigned off = (unsigned)fuzz_take(&r, 2) & 0x3fff, sz = 1u << (fuzz_take(&r, 1) & 3);
            uint64_t v;
            pci_bar_access(h->f, 0, 0, off, sz, &v, false);
            break;
        }
        case 2: {
            uint64_t off = fuzz_take(&r, 3) % (H_RAM - 4);
            tgh_mw(h, FAKE_LO + off, (uint32_t)fuzz_take(&r, 4));
            break;
        }
        case 3: tgh_wr(h, mbox[fuzz_take(&r, 1) % 6], (uint32_t)fuzz_take(&r, 2)); break;
        case 4: {
            unsigned code = (unsigned)fuzz_take(&r, 1) % 0x16, sub = (unsigned)fuzz_take(&r, 1) % 4;
            tgh_cmd(h, code, sub, (unsigned)fuzz_take(&r, 2));
            break;
        }
        case 5: tgh_run(h, fuzz_take(&r, 2) * 8); break;
        case 6: {
            unsigned len = (unsigned)fuzz_take(&r, 2) % (NET_MAX_FRAME + 40);
            unsigned dst = (unsigned)fuzz_take(&r, 1), seed = (unsigned)fuzz_take(&r, 1);
            make_frame(len, dst, seed, (unsigned)fuzz_take(&r, 1));
            /* The port itself drops what no Ethernet frame can be. */
            if (len >= 14 && len <= NET_MAX_FRAME)
                offered++;
            fake_wire_deliver(&h->wire, frame, len);
            break;
        }
        case 7: {
            unsigned len = (unsigned)fuzz_take(&r, 2) % 9100;
            unsigned frags = 1 + (unsigned)fuzz_take(&r, 1) % 4;
            uint32_t flags = (uint32_t)fuzz_take(&r, 2) & ~(uint32_t)TG_BD_END;
            make_frame(len, (unsigned)len, (unsigned)len >> 3, flags >> 14);
            tgh_send(h, frame, len, frags, flags, (uint16_t)fuzz_take(&r, 2));
            break;
        }
        case 8: {
            int ring = (int)(fuzz_take(&r, 1) % 3);
            unsigned n = (unsigned)fuzz_take(&r, 1) % 17;
            tgh_post(h, ring, n, (uint16_t)fuzz_take(&r, 2));
            break;
        }
        case 9:
            pci_config_write(h->f, 4, 2,
                             fuzz_take(&r, 1) & 1 ? PCI_CMD_MEM | PCI_CMD_MASTER : PCI_CMD_MEM);
            break;
        case 10:
            if (fuzz_take(&r, 1) & 1) {
                h->pio_raw = false;
                tgh_wr(h, 0x40, TG_HC_HW_RESET);
            } else {
                pci_func_reset(h->f);
                pci_config_write(h->f, 4, 2, PCI_CMD_MEM | PCI_CMD_MASTER);
            }
            break;
        case 11: {
            static const char *const args[] = {"tx",       "rx 8",  "jumbo 4", "mini 2",
                                               "return 8", "event", "command", "bogus 1 2"};
            unsigned w = (unsigned)fuzz_take(&r, 1);
            strbuf b;
            sb_init(&b);
            const dev_view *v = &h->n->dev->cls->views[w % h->n->dev->cls->nviews];
            v->show(h->n->dev, args[(w >> 3) & 7], NULL, &b);
            ring_state s;
            nic_ring_state(h->n->dev, args[(w >> 3) & 7], &s);
            if (w & 0x80)
                dev_show(h->n->dev, &b);
            sb_free(&b);
            break;
        }
        case 12: nic_set_dma_per_word(h->n, fuzz_take(&r, 1) & 1); break;
        case 13:
            h->isr_on = fuzz_take(&r, 1) & 1;
            tgh_isr(h);
            break;
        case 14: {
            unsigned w = (unsigned)fuzz_take(&r, 1) % 64;
            tgh_wr(h, 0x600 + 4 * w, (uint32_t)fuzz_take(&r, 4));
            break;
        }
        default: {
            uint32_t v = tgh_rd(h, 0x140);
            tgh_wr(h, 0x140, fuzz_take(&r, 1) & 1 ? v | TG_CPU_HALT : v & ~TG_CPU_HALT);
            break;
        }
        }
    }
    tgh_run(h, US(200)); /* the engines settle */
    nic *n = h->n;
    uint64_t drops = 0;
    for (int i = 0; i < NIC_NDROPS; i++)
        drops += n->cnt.rx_drops[i];
    if (offered != n->cnt.rx_frames + drops + n->fifo.count)
        fuzz_fail("an offered frame was neither delivered, dropped nor queued");
    if (h->wire.total != n->cnt.tx_frames)
        fuzz_fail("a sent frame did not reach the wire");
    if (h->host.level != ((n->irq.cause & n->irq.mask) != 0))
        fuzz_fail("INTA does not match the enabled pending requests");
    if (h->host.level && !tg_in_int(h->t))
        fuzz_fail("INTA high without IN_INT");
    for (unsigned i = 0; i < n->nrings; i++)
        if (n->rings[i]->size && n->rings[i]->index >= n->rings[i]->size)
            fuzz_fail("a ring position left its ring");
    if (getenv("FUZZ_VERBOSE"))
        fprintf(stderr, "fuzz: fw %s tx %llu rx %llu offered %llu drops %llu dma-errors %llu\n",
                tg_fw_state_name(h->t->fw), (unsigned long long)n->cnt.tx_frames,
                (unsigned long long)n->cnt.rx_frames, (unsigned long long)offered,
                (unsigned long long)drops, (unsigned long long)n->cnt.dma_errors);
    tgh_teardown(h);
    sb_free(&evtext);
    return 0;
}
