/* SPDX-License-Identifier: GPL-2.0-or-later */ /* e1000 echo: ping xbow's `echo` peer (10.0.2.2) from 10.0.2.15: one ARP
 * request for its address, then `count` ICMP echo requests of `size` bytes
 * (frame length), one at a time, each reply checked (identifier, sequence,
 * data, checksum as the NIC reports it).  Prints requests, replies, bytes
 * and the sum of the replies' data.
 *   xbow --nic e1000-82543 --net echo --append "count=20 size=1000" echo.elf */
#include "e1000drv.h"

static const u8 bcast[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

static u16 ip_csum(const u8 *p, unsigned len) { return (u16)~csum_fold(csum_add(0, p, len)); }

/* Wait up to `us` for a frame; NULL on timeout. */
static u8 *wait_frame(e1000 *d, unsigned *len, u64 us)
{
    u64 end = rt_count() + us * (RT_HZ / 1000) / 1000;
    u32 st;
    u8 *p;
    while (!(p = e1000_recv(d, len, &st)))
        if (rt_count() > end)
            return NULL;
    return p;
}

int main(int argc, char **argv)
{
    unsigned count = (unsigned)arg_num(argc, argv, "count", 10);
    unsigned size = arg_range(argc, argv, "e1000-echo", "size", 98, 42, 1514);
    e1000 *d = size ? e1000_open("e1000-echo", 2048) : NULL;
    if (!d)
        return 1;
    /* ARP: who has 10.0.2.2? */
    u8 *f = d->txb[0];
    memset(f, 0, 60);
    memcpy(f, bcast, 6);
    memcpy(f + 6, d->mac, 6);
    static const u8 arp_hdr[10] = {0x08, 0x06, 0, 1, 0x08, 0, 6, 4, 0, 1};
    memcpy(f + 12, arp_hdr, 10);
    memcpy(f + 22, d->mac, 6);
    put32(f + 28, IP_ME);
    put32(f + 38, IP_PEER);
    e1000_send(d, 0, 42, 0);
    u8 peer[6];
    unsigned len;
    u8 *p;
    for (;;) {
        p = wait_frame(d, &len, 100000);
        if (!p) {
            printf("e1000-echo: no ARP reply\n");
            return 1;
        }
        int is_reply = len >= 42 && p[12] == 0x08 && p[13] == 0x06 && p[21] == 2 &&
                       p[28] == 10 && p[31] == 2;
        if (is_reply)
            memcpy(peer, p + 22, 6);
        e1000_rx_done(d);
        if (is_reply)
            break;
    }
    printf("e1000-echo: 10.0.2.2 is at %02x:%02x:%02x:%02x:%02x:%02x\n", peer[0], peer[1],
           peer[2], peer[3], peer[4], peer[5]);
    unsigned replies = 0, bad = 0;
    u64 bytes = 0;
    u32 sum = 0;
    for (unsigned seq = 0; seq < count; seq++) {
        unsigned b = 1 + seq % 15;
        f = d->txb[b];
        memcpy(f, peer, 6);
        memcpy(f + 6, d->mac, 6);
        f[12] = 0x08;
        f[13] = 0x00;
        u8 *ip = f + 14, *icmp = ip + 20;
        ip_header(ip, size - 14, seq, 0, 1, IP_ME, IP_PEER);
        memset(icmp, 0, 8);
        icmp[0] = 8; /* echo request */
        put16(icmp + 4, 0x1234);
        put16(icmp + 6, seq);
        for (unsigned i = 8; i < size - 34; i++)
            icmp[i] = payload_byte(seq, i);
        put16(icmp + 2, ip_csum(icmp, size - 34));
        e1000_send(d, b, size, 0);
        bytes += size;
        int got = 0;
        while (!got && (p = wait_frame(d, &len, 100000)) != NULL) {
            const u8 *r = p + 34;
            if (len >= size && p[23] == 1 && r[0] == 0 && r[4] == 0x12 && r[5] == 0x34 &&
                r[6] == (u8)(seq >> 8) && r[7] == (u8)seq) {
                got = 1;
                int ok = ip_csum(p + 14, 20) == 0 && ip_csum(r, size - 34) == 0 &&
                         payload_ok(r, 8, size - 34, seq);
                if (ok) {
                    replies++;
                    sum += payload_hash(seq, size - 42);
                } else {
                    bad++;
                }
            }
            e1000_rx_done(d);
        }
    }
    e1000_tx_wait(d);
    printf("e1000-echo: %u echo requests (%lu bytes), %u good replies, %u bad, payload sum "
           "0x%08x\n", count, bytes, replies, bad, sum);
    return replies == count ? 0 : 1;
}
