/* SPDX-License-Identifier: GPL-2.0-or-later */ /* Transmit test: COUNT IPv4/UDP frames of SIZE bytes (60..9018; above 1514
 * the NIC runs with MTU 9000) carrying the payload pattern of
 * docs/networking.md, to the `sink` peer.  Prints what was sent: frames,
 * bytes and the payload sum, which the sink computes the same way.
 *   xbow --batch --nic tigon2 --net sink --append "size=9000 count=100" tigon_tx.elf */
#include "tg.h"

static u8 frame[TG_JUMBO_BUF];

int main(int argc, char **argv)
{
    static const u8 peer[6] = {0x02, 0x78, 0x62, 0x6f, 0x77, 0x02};
    u32 count = arg_num(argc, argv, "count", 64);
    u32 size = arg_range(argc, argv, "tigon-tx", "size", 1514, 60, TG_JUMBO_BUF);
    if (!size)
        return 1;
    if (tg_open(size > 1514, NULL))
        return 1;
    u64 bytes = 0;
    u32 sum = 0, t0 = (u32)tg_ms_now();
    for (u32 k = 0; k < count; k++) {
        tg_build_udp(frame, size, peer, k);
        if (tg_send(frame, size)) {
            printf("tigon-tx: send ring stuck at frame %u\n", k);
            return 1;
        }
        bytes += size;
        sum += payload_hash(k, size - 42);
    }
    if (tg_flush(2000)) {
        printf("tigon-tx: the NIC did not report all frames consumed\n");
        return 1;
    }
    const tg_stats *st = tg_stats_get();
    printf("tigon-tx: sent %u frames, %lu bytes, payload sum 0x%08x\n", count, bytes, sum);
    printf("tigon-tx: %u interrupts, %u events, %u errors, %u ms\n", st->irqs, st->events,
           st->errors, (u32)tg_ms_now() - t0);
    tg_close();
    return 0;
}
